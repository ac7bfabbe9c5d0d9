/*
 * cmd_rsm.c - `tuner rsm`: Response Surface Methodology on the scheduler knobs (SPEC.md §5).
 *
 * A designed experiment (central composite or Box-Behnken) on the knob set (--knobs; by default
 * the profile's own: latency, min_granularity and wakeup_granularity, or eevdf's base_slice; one
 * factor per knob, k = 1..5) is simulated as one parallel, journaled batch; a full quadratic model is
 * fitted to the turnaround (after a Box-Cox transform when the profile likelihood asks for one);
 * the report gives the design, the sequential and ANOVA tables, the fit statistics, the
 * coefficients, the canonical analysis and the best point inside the region, which is then
 * simulated to confirm it and compared with the profile's default knobs. The statistics are
 * rsm_study.h's, the tables rsm_report.h's, the files rsm_files.h's, and the steps this command
 * shares with `tuner meta-pso` study_cmd.h's.
 *
 * Choices made here:
 * - The ranges (coded -1 .. +1) default to latency 1e6..1e8, min_granularity 1e5..1e7,
 *   wakeup_granularity 0..2e7, migration_cost 0..1e6 and base_slice 1e5..1e7 ns: around the
 *   defaults of every profile and CPU count (2.6.28 on 2 CPUs: 40, 8 and 10 ms; migration_cost
 *   0.5 ms everywhere; eevdf's base_slice 0.7 to 2.8 ms), where the turnaround changes, rather than the whole sysctl range, most
 *   of which a quadratic cannot follow. They are searched on a linear scale unless --log (all
 *   knobs) or --log=KNOB[,KNOB]: a log scale spreads the points evenly over the decades.
 * - The axial points of a rotatable or orthogonal CCD lie beyond the ranges and must stay inside
 *   the sysctl ranges. With --alpha given, a design that does not fit is refused (exit 2); without
 *   it, the command falls back to the face-centred design (alpha = 1) and says so. The default
 *   ranges start at a sysctl minimum (min_granularity 1e5) or at 0, so the default design is the
 *   face-centred one; narrower ranges (or --log with ranges off the minimum) get a rotatable one.
 * - Centre points: 6 for a CCD (uniform precision for three factors), 3 for a Box-Behnken design.
 * - The run order is randomised with --seed, which is also the first replicate's simulation seed.
 *   Simulated runs do not drift, so the order changes nothing but the report; it is there because
 *   a designed experiment has one, and so that a journal of a killed run holds a spread of points.
 * - The response is the mean turnaround of --replicates seeds (fractional jiffies). Every design
 *   point uses the same seeds (common random numbers, evaluator.h), so replicated centre points
 *   agree exactly whatever the workload (the evaluator even simulates them once): the pure error is
 *   0, lack of fit is reported as not testable, and the residual is all lack of fit, the only
 *   error a deterministic computer experiment has. The centre points still weigh the fit.
 *   With --cost-jitter CV > 0 the simulation varies from run to run as a real machine does, and
 *   then run i of the design uses seeds S + i R .. S + i R + R - 1 instead: replicated points
 *   are independent runs, and lack of fit is tested against their real pure error.
 * - --analyse FILE fits a design.csv again (e.g. with another --lambda) without simulating; the
 *   natural columns are checked against --range/--log, so pass the flags of the original run.
 * - The journal's settings hold the workload, the objective, the replicates, the seed, the design
 *   and the ranges, and of a simulated study the simulator's model id: one journal is one study,
 *   and rerunning it resumes (or replays) that study.
 * - --objective vm measures the design on Debian's 6.1 kernel in a VM instead (vm_objective.h):
 *   the whole design is one boot of --rounds rounds, each round running every design run and the
 *   kernel's defaults once, in a fresh shuffled order. A run's response in a round is its time over
 *   the defaults' time in that round ("x defaults"), and the rounds are replicates of the whole
 *   design: the study fits the design replicated --rounds times, so that its pure error is the
 *   spread between rounds (and between centre points, each a run of its own). The confirmation is
 *   a second boot: the optimum and the defaults, paired for --confirm-rounds rounds, compared as
 *   `tuner validate` does (paired t on the log ratios, sign test). The journal keeps every ratio,
 *   so a rerun boots only for what is missing.
 *
 * Exit status: 0 success, 1 a failed simulation or I/O error, 2 bad input (one line on stderr,
 * nothing on stdout), which includes a design the model cannot be fitted to: fewer runs than
 * terms, or a response that does not vary.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "linsched/cli/cli.h"
#include "linsched/json.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/study_cmd.h"
#include "tuner/cmd/vm_cli.h"
#include "tuner/eval/vm_objective.h"
#include "tuner/stats/block_effect.h"
#include "tuner/stats/paired.h"
#include "tuner/eval/evaluator.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/util/progress.h"
#include "tuner/stats/rsm_design.h"
#include "tuner/report/rsm_files.h"
#include "tuner/eval/results.h"
#include "tuner/report/rsm_report.h"
#include "tuner/stats/rsm_study.h"
#include "tuner/eval/workload.h"

#define CCD_DEFAULT_CENTRE 6
#define BBD_DEFAULT_CENTRE 3
static const double default_lo[KNOB_COUNT] = { 1e6, 1e5, 0, 0, 1e5 };
static const double default_hi[KNOB_COUNT] = { 1e8, 1e7, 2e7, 1e6, 1e7 };
/* The factors' letters, in the order of the knobs of the set. */
static const char *const letters[KNOB_COUNT] = { "A", "B", "C", "D", "E" };

struct rsm_cli {
	struct study_cli s;
	char *design, *alpha, *analyse, *knobs;
	bool log_all;	      /* --log alone */
	bool log[KNOB_COUNT]; /* --log=KNOB,... */
	char *objective, *cmd;
	struct vm_cli vm; /* its entries are in s.flags */
	gint64 confirm_rounds;
};

struct rsm_run {
	struct study_run s;
	struct knob_space space;    /* the ranges, as --range parsed them */
	KnobSet set;		    /* the knobs the design varies */
	guint k;		    /* factors: the knobs of set */
	enum knob knob[KNOB_COUNT]; /* factor j is knob knob[j] */
	RsmStudyFactor factors[KNOB_COUNT];
	const char *design_key; /* "ccd-rotatable", ..., "bbd", "file" */
	char *design_note;	/* why the design is not the one asked for, or NULL */
	Knobs *knobs;		/* n_runs, as simulated */
	bool confirmed;
	Knobs best_knobs, default_knobs;
	EvaluatorResult best, def;
	/* --objective vm */
	bool vm;
	VmObjective vmo;
	guint confirm_rounds;
	RsmDesign *as_run;  /* the design one round runs; r->s.design is it replicated */
	double *confirm;    /* the optimum's ratio to the defaults in each confirmation round */
	PairedStats paired; /* of those ratios against 1 */
	bool paired_ok;
	BlockEffect rounds; /* how the rounds of the design's boot differ */
	bool have_rounds;
};

static void rsm_cli_init(struct rsm_cli *c)
{
	memset(c, 0, sizeof(*c));
	study_cli_init(&c->s);
	vm_cli_init(&c->vm);
}

static void rsm_cli_clear(struct rsm_cli *c)
{
	study_cli_clear(&c->s);
	g_free(c->design);
	g_free(c->alpha);
	g_free(c->analyse);
	g_free(c->knobs);
	g_free(c->objective);
	g_free(c->cmd);
}

static void rsm_run_clear(struct rsm_run *r)
{
	study_run_clear(&r->s);
	g_free(r->design_note);
	g_free(r->knobs);
	vm_objective_clear(&r->vmo);
	rsm_design_free(r->as_run);
	g_free(r->confirm);
	block_effect_clear(&r->rounds);
}

/* ---- flags ---------------------------------------------------------------------------------- */

/* --log alone: every knob; --log=KNOB[,KNOB]: those. data is the main group's flag set, in c. */
static gboolean parse_log(const char *option, const char *value, gpointer data, GError **error)
{
	struct rsm_cli *c = (struct rsm_cli *)((char *)data - offsetof(struct rsm_cli, s.flags));

	(void)option;
	if (!value) {
		c->log_all = true;
		return TRUE;
	}

	g_auto(GStrv) names = g_strsplit(value, ",", -1);

	for (size_t i = 0; names[i]; i++) {
		enum knob k;

		if (!knob_from_name(names[i], &k)) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--log: '%s' is not %s", names[i], knob_names_list());
			return FALSE;
		}
		c->log[k] = true;
	}
	return TRUE;
}

static void add_options(struct rsm_cli *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "design", 0, 0, G_OPTION_ARG_STRING, &c->design,
		  "ccd (central composite, default), ccd-faced (alpha 1) or bbd (Box-Behnken)",
		  "D" },
		{ "center", 0, 0, G_OPTION_ARG_INT64, &c->s.center,
		  "Centre points (default: 6 for a CCD, 3 for bbd)", "N" },
		{ "alpha", 0, 0, G_OPTION_ARG_STRING, &c->alpha,
		  "CCD axial distance: rotatable, orthogonal or face (default: rotatable if its axial points stay "
		  "inside the sysctl ranges, else face)",
		  "A" },
		{ "knobs", 0, 0, G_OPTION_ARG_STRING, &c->knobs,
		  "The knobs the design varies, comma-separated, 1 to 5 factors (default: the profile's own, "
		  "the three CFS knobs or eevdf's base_slice)",
		  "NAMES" },
		{ "range", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->s.ranges,
		  "Coded -1..+1 is LO..HI ns (repeatable; defaults latency=1e6:1e8, min_granularity=1e5:1e7, "
		  "wakeup_granularity=0:2e7, migration_cost=0:1e6, base_slice=1e5:1e7)",
		  "KNOB=LO:HI" },
		{ "log", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer)parse_log,
		  "Log scale for every knob, or --log=KNOB[,KNOB] for some (a range from 0 is taken as ln(v + 1 us))",
		  "[KNOBS]" },
		{ "replicates", 'r', 0, G_OPTION_ARG_INT64, &c->s.replicates,
		  "Simulations per design point, seeds S, S+1, ...; the response is their mean (default 1)",
		  "R" },
		{ "analyse", 0, 0, G_OPTION_ARG_FILENAME, &c->analyse,
		  "Fit the responses of a design.csv instead of simulating (same --range/--log as its run)",
		  "FILE" },
		{ "objective", 0, 0, G_OPTION_ARG_STRING, &c->objective,
		  "sim (default: simulated turnaround, jiffies) or vm (Debian's 6.1 kernel under qemu: "
		  "time x the defaults' in the same round; the design is one boot of --rounds rounds)",
		  "O" },
		{ "cmd", 0, 0, G_OPTION_ARG_STRING, &c->cmd,
		  "With --objective vm: run this in the guest instead of the workload's hackbench",
		  "COMMAND" },
		{ "confirm-rounds", 0, 0, G_OPTION_ARG_INT64, &c->confirm_rounds,
		  "With --objective vm: rounds of the confirmation boot, the optimum against the "
		  "defaults (default: --rounds)",
		  "N" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		STUDY_LIMITS(&c->s),
		FLAG_INT(&c->confirm_rounds, 2, 1000),
	};
	GOptionGroup *main_group =
		flag_group_new(&c->s.flags, "rsm", "RSM options:", "Show RSM options");

	flag_group_add(&c->s.flags, main_group, entries, limits, G_N_ELEMENTS(limits));
	vm_cli_add_entries(&c->vm, &c->s.flags, main_group, VM_CLI_ROUNDS);
	study_cli_add_options(&c->s, main_group, ctx);
}

static bool is_vm(const struct rsm_cli *c)
{
	return c->objective && strcmp(c->objective, "vm") == 0;
}

/* The flags of --objective: vm's only with it, and with it none that simulate. */
static bool check_objective(const struct rsm_cli *c, GError **error)
{
	const char *vm_flag = vm_cli_given(&c->vm);

	if (c->objective && strcmp(c->objective, "sim") != 0 && !is_vm(c))
		return cmd_usage(error, "--objective: '%s' is not sim or vm", c->objective);
	if (!is_vm(c)) {
		if (!vm_flag)
			vm_flag = flag_first_given(&c->s.flags, &c->cmd, &c->confirm_rounds, NULL);
		if (vm_flag)
			return cmd_usage(error, "%s: only with --objective vm", vm_flag);
		return true;
	}
	if (flag_given(&c->s.flags, &c->s.replicates))
		return cmd_usage(error, "--replicates: with --objective vm the replicates are the "
					"--rounds of the boot");
	if (flag_given(&c->s.flags, &c->s.jobs))
		return cmd_usage(error, "--jobs: with --objective vm one boot measures the whole "
					"design, one VM at a time");
	if (c->s.wc.calibration)
		return cmd_usage(error, "--calibration: not with --objective vm, which measures "
					"real time");
	return true;
}

static bool check_numbers(const struct rsm_cli *c, GError **error)
{
	if (!study_cli_check(&c->s, "rsm varies this knob; set its range with --range KNOB=LO:HI",
			     error))
		return false;
	if (!c->analyse)
		return check_objective(c, error);

	/* --analyse simulates nothing: only the flags that shape the fit and its report apply. */
	const struct workload_cli *wc = &c->s.wc;
	const char *moot = flag_first_given(
		&c->s.flags, &c->design, &c->alpha, &c->s.center, &c->s.replicates, &c->s.jobs,
		&c->s.journal, &c->s.no_sync, &c->objective, &c->cmd, &c->confirm_rounds, NULL);

	if (!moot)
		moot = vm_cli_given(&c->vm);
	if (!moot)
		moot = flag_any_given(&wc->flags, NULL);
	if (!moot)
		moot = flag_any_given(&wc->hb.flags, NULL);
	if (!moot)
		moot = flag_any_given(&wc->sim.flags, &wc->sim.format);
	if (moot)
		return cmd_usage(error, "--analyse: fits a finished design; %s does not apply",
				 moot);
	return true;
}

/* The knob set: --knobs for the workload's profile, or any knobs (default CFS's three) for an
 * --analyse, which has no workload. */
static bool build_set(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	GError *local = NULL;

	if (!c->analyse)
		return cmd_knob_set(c->knobs, r->s.w.cfg.profile, &r->set, error);
	r->set = KNOB_SET_CFS;
	if (c->knobs && !knob_set_parse(c->knobs, NULL, &r->set, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return true;
}

/* The factors: the set's knobs with their default ranges, then --range (checked against the
 * sysctl ranges), then scales. */
static bool build_factors(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	GError *local = NULL;

	if (!build_set(c, r, error))
		return false;
	knob_space_init_set(&r->space, r->set, false);
	for (int k = 0; k < KNOB_COUNT; k++) {
		r->space.k[k].lo = default_lo[k];
		r->space.k[k].hi = default_hi[k];
		if (c->log[k] && !(r->set & KNOB_BIT(k))) {
			g_autofree char *names = knob_set_names(r->set, ",");

			return cmd_usage(error, "--log: %s is not searched (--knobs %s)",
					 knob_name((enum knob)k), names);
		}
	}
	if (!study_cli_ranges(&c->s, &r->space, error))
		return false;
	r->k = 0;
	for (int k = 0; k < KNOB_COUNT; k++) {
		const struct knob_range *kr = &r->space.k[k];
		guint j = r->k;

		if (!(r->set & KNOB_BIT(k)))
			continue;
		r->knob[r->k++] = (enum knob)k;
		if (!rsm_study_factor_init(&r->factors[j], letters[j], knob_name((enum knob)k),
					   knob_info((enum knob)k)->column, kr->lo, kr->hi,
					   c->log_all || c->log[k], true, &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "--range: ");
	}
	return true;
}

/* ---- the design ----------------------------------------------------------------------------- */

static bool parse_alpha(const char *text, RsmAlphaKind *kind, GError **error)
{
	if (strcmp(text, "rotatable") == 0)
		*kind = RSM_ALPHA_ROTATABLE;
	else if (strcmp(text, "orthogonal") == 0)
		*kind = RSM_ALPHA_ORTHOGONAL;
	else if (strcmp(text, "face") == 0)
		*kind = RSM_ALPHA_FACE;
	else
		return cmd_usage(error, "--alpha: '%s' is not rotatable, orthogonal or face", text);
	return true;
}

static const char *ccd_key(RsmAlphaKind kind)
{
	switch (kind) {
	case RSM_ALPHA_ROTATABLE:
		return "ccd-rotatable";
	case RSM_ALPHA_ORTHOGONAL:
		return "ccd-orthogonal";
	case RSM_ALPHA_FACE:
		break;
	}
	return "ccd-faced";
}

/* A randomised CCD of this kind; NULL (error set) only for a bug in the arguments. */
static RsmDesign *make_ccd(guint k, RsmAlphaKind kind, guint centre, guint64 seed, GError **error)
{
	RsmDesign *d = rsm_design_ccd(k, kind, centre, error);

	if (d)
		rsm_design_randomise(d, (unsigned long)seed);
	return d;
}

/* A CCD whose axial points leave the sysctl ranges: refused when --alpha asked for it, else
 * replaced by the face-centred design. */
static bool fit_ccd(const struct rsm_cli *c, struct rsm_run *r, RsmAlphaKind kind, guint centre,
		    GError **error)
{
	GError *local = NULL;

	if (!(r->s.design = make_ccd(r->k, kind, centre, r->s.seed, error)))
		return false;
	r->design_key = ccd_key(kind);
	double sysctl_min[KNOB_COUNT], sysctl_max[KNOB_COUNT];

	for (guint j = 0; j < r->k; j++) {
		sysctl_min[j] = (double)knob_info(r->knob[j])->min_ns;
		sysctl_max[j] = (double)knob_info(r->knob[j])->max_ns;
	}
	if (kind == RSM_ALPHA_FACE ||
	    rsm_study_check_limits(r->s.design, r->factors, sysctl_min, sysctl_max, &local))
		return true;
	if (c->alpha) {
		cmd_usage(error, "--alpha %s: %s; use --alpha face, narrower --range or --log",
			  c->alpha, local->message);
		g_error_free(local);
		return false;
	}
	r->design_note = g_strdup_printf(
		"a rotatable design (alpha = %.4f) does not fit: %s; using the face-centred "
		"design (alpha = 1) instead (narrow --range to get a rotatable one)",
		r->s.design->alpha, local->message);
	g_error_free(local);
	rsm_design_free(r->s.design);
	r->design_key = ccd_key(RSM_ALPHA_FACE);
	return (r->s.design = make_ccd(r->k, RSM_ALPHA_FACE, centre, r->s.seed, error)) != NULL;
}

static bool build_design(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	const char *name = c->design ? c->design : "ccd";
	bool bbd = strcmp(name, "bbd") == 0, faced = strcmp(name, "ccd-faced") == 0;
	RsmAlphaKind kind = RSM_ALPHA_ROTATABLE;
	GError *local = NULL;

	if (!bbd && !faced && strcmp(name, "ccd") != 0)
		return cmd_usage(error, "--design: '%s' is not ccd, ccd-faced or bbd", name);
	if (c->alpha && !parse_alpha(c->alpha, &kind, error))
		return false;
	if (bbd && c->alpha)
		return cmd_usage(error, "--alpha: a Box-Behnken design has no axial points");
	if (faced && kind != RSM_ALPHA_FACE && c->alpha)
		return cmd_usage(error, "--alpha %s: --design ccd-faced has alpha 1", c->alpha);

	guint centre = flag_given(&c->s.flags, &c->s.center) ? (guint)c->s.center
		       : bbd				     ? BBD_DEFAULT_CENTRE
							     : CCD_DEFAULT_CENTRE;

	if (!bbd)
		return fit_ccd(c, r, faced ? RSM_ALPHA_FACE : kind, centre, error);
	if (!(r->s.design = rsm_design_box_behnken(r->k, centre, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--design: ");
	rsm_design_randomise(r->s.design, (unsigned long)r->s.seed);
	r->design_key = "bbd";
	return true;
}

/* Natural levels of every run, rounded to whole ns inside the sysctl ranges, and the knobs. */
static void design_knobs(struct rsm_run *r)
{
	guint n = r->s.design->n_runs;

	r->knobs = g_new0(Knobs, n);
	r->s.natural = g_new(double, (gsize)n * r->k);
	for (guint i = 0; i < n; i++) {
		const double *x = rsm_design_run(r->s.design, i);

		for (guint j = 0; j < r->k; j++) {
			double v = round(rsm_study_to_natural(&r->factors[j], x[j]));

			v = knob_clamp(r->knob[j], v);
			r->s.natural[(gsize)i * r->k + j] = v;
			knob_set(&r->knobs[i], r->knob[j], v);
		}
	}
}

/* ---- journal and evaluation ----------------------------------------------------------------- */

static char *build_settings(const struct rsm_run *r)
{
	GString *s = g_string_new(r->s.w.settings);

	if (r->vm) {
		g_autofree char *vm = vm_cli_settings(&r->vmo);

		g_string_append(s, vm);
	} else {
		/* Simulated values: the simulator's code too (the VM's ratios do not depend on it). */
		g_string_append(s, " objective=sim");
		cmd_settings_add_model(s);
	}
	g_string_append_printf(
		s, " replicates=%u seed=%" G_GUINT64_FORMAT " study=rsm design=%s runs=%u",
		r->s.replicates, r->s.seed, r->design_key, r->s.design->n_runs);
	for (guint j = 0; j < r->k; j++)
		g_string_append_printf(
			s, " %s=%.0f:%.0f:%s", knob_name(r->knob[j]),
			rsm_study_factor_lo(&r->factors[j]), rsm_study_factor_hi(&r->factors[j]),
			r->factors[j].range.scale == RSM_SCALE_LOG ? "log" : "linear");
	return g_string_free(s, FALSE);
}

struct progress_ctx {
	struct progress pg;
	const char *what;
};

static void on_progress(guint done, guint total, void *ctx)
{
	struct progress_ctx *p = ctx;

	p->pg.total = total;
	progress_update(&p->pg, done, p->what);
}

/* Simulates (or measures) n settings with the run's replicates, point i from seed seeds[i]
 * (NULL: every point from --seed), with a progress line of their own; values as in
 * study_evaluate. */
static bool evaluate(struct rsm_run *r, const Knobs *knobs, const guint64 *seeds, guint n,
		     EvaluatorResult *results, double *values, const char *what, GError **error)
{
	struct progress_ctx p = { .what = what };
	bool ok;

	progress_init(&p.pg, n * r->s.replicates);
	ok = study_evaluate(&r->s, knobs, seeds, n, results, values, on_progress, &p, error);
	progress_end(&p.pg);
	if (!ok)
		g_prefix_error(error, "%s: ", what);
	return ok;
}

/*
 * The VM's rounds as replicates of the whole design: the design run --rounds times over, round j's
 * copy of run i holding the ratio run i measured in round j (values[i * R + j]).
 */
static void replicate_rounds(struct rsm_run *r, const double *values)
{
	guint n = r->s.design->n_runs, R = r->s.replicates;
	g_autofree double *natural = r->s.natural;

	r->as_run = r->s.design;
	r->s.design = rsm_design_replicate(r->as_run, R);
	r->s.natural = g_new(double, (gsize)n *R * r->k);
	r->s.y = g_new(double, (gsize)n *R);
	for (guint j = 0; j < R; j++)
		for (guint i = 0; i < n; i++) {
			memcpy(&r->s.natural[((gsize)j * n + i) * r->k], &natural[(gsize)i * r->k],
			       sizeof(double) * r->k);
			r->s.y[(gsize)j * n + i] = values[(gsize)i * R + j];
		}
	r->have_rounds = block_effect_log(r->s.y, n, R, &r->rounds);
}

static bool run_design(struct rsm_run *r, GError **error)
{
	guint n = r->s.design->n_runs, R = r->s.replicates;
	g_autofree EvaluatorResult *res = g_new(EvaluatorResult, n);
	g_autofree double *values = g_new(double, (gsize)n *R);

	/* With run-to-run variation, every run its own seeds, so that replicated points measure the
	 * pure error; without, common random numbers (see the top of this file). On the VM every
	 * run is its own setting of the plan (its base seed names it, vm_objective.h), none the
	 * reference's seed: the centre points are runs of their own even at the defaults. */
	g_autofree guint64 *seeds = NULL;

	design_knobs(r);
	if (r->vm || r->s.w.cfg.costs.jitter_cv > 0) {
		seeds = g_new(guint64, n);
		for (guint i = 0; i < n; i++)
			seeds[i] = r->s.seed + (guint64)(i + (r->vm ? 1 : 0)) * R;
	}
	if (!evaluate(r, r->knobs, seeds, n, res, values, "rsm design", error))
		return false;
	if (r->vm) {
		replicate_rounds(r, values);
		return true;
	}
	r->s.y = g_new(double, n);
	for (guint i = 0; i < n; i++)
		r->s.y[i] = res[i].mean;
	return true;
}

/* The optimum's knobs, whole ns inside the sysctl ranges. */
static void optimum_knobs(struct rsm_run *r)
{
	for (guint j = 0; j < r->k; j++) {
		double v = round(rsm_study_to_natural(&r->factors[j], r->s.study->optimum->x[j]));

		knob_set(&r->best_knobs, r->knob[j], knob_clamp(r->knob[j], v));
	}
}

/*
 * On the VM: a second boot runs the optimum beside the defaults for --confirm-rounds rounds; the
 * defaults are every round's reference (1 by construction), and the optimum's ratios are compared
 * with 1 as `tuner validate` compares (paired t on the log ratios, sign test).
 */
static bool confirm_vm(struct rsm_run *r, GError **error)
{
	guint R = r->s.replicates, C = r->confirm_rounds;
	g_autofree double *ones = g_new(double, C);

	r->default_knobs = r->vmo.defaults;
	r->confirm = g_new(double, C);
	r->s.replicates = C;
	gboolean ok =
		evaluate(r, &r->best_knobs, NULL, 1, &r->best, r->confirm, "confirmation", error);

	r->s.replicates = R;
	if (!ok)
		return false;
	for (guint j = 0; j < C; j++)
		ones[j] = 1;
	r->def = (EvaluatorResult){ .mean = 1, .std_error = 0 };
	r->paired_ok = paired_log_ratio(r->confirm, ones, C, 0.95, &r->paired);
	r->confirmed = true;
	return true;
}

/* The optimum's knobs beside the profile's defaults, simulated as one batch. */
static bool confirm(struct rsm_run *r, GError **error)
{
	Knobs pts[2];
	EvaluatorResult res[2];

	optimum_knobs(r);
	if (r->vm)
		return confirm_vm(r, error);
	r->default_knobs = workload_default_knobs(&r->s.w);
	pts[0] = r->best_knobs;
	pts[1] = r->default_knobs;
	if (!evaluate(r, pts, NULL, 2, res, NULL, "confirmation", error))
		return false;
	r->best = res[0];
	r->def = res[1];
	r->confirmed = true;
	return true;
}

/* ---- analysis ------------------------------------------------------------------------------- */

static bool analyse(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	return study_analyse(
		&r->s, letters,
		c->analyse ? NULL
			   : "the knobs do not change this workload's turnaround over the "
			     "ranges: ",
		error);
}

static bool read_analyse_file(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	GError *local = NULL;
	guint n;

	if (!(r->s.design = rsm_files_read_design(c->analyse, r->factors, r->k, &r->s.y, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--analyse: ");
	r->design_key = "file";
	n = r->s.design->n_runs;
	r->s.natural = g_new(double, (gsize)n * r->k);
	for (guint i = 0; i < n; i++)
		for (guint j = 0; j < r->k; j++)
			r->s.natural[(gsize)i * r->k + j] = round(rsm_study_to_natural(
				&r->factors[j], rsm_design_run(r->s.design, i)[j]));
	return true;
}

/* ---- report --------------------------------------------------------------------------------- */

static double improvement_pct(const struct rsm_run *r)
{
	return 100 * (r->def.mean - r->best.mean) / r->def.mean;
}

static void point_counts(GString *out, const RsmDesign *d)
{
	static const RsmPointType order[] = { RSM_POINT_CUBE, RSM_POINT_AXIAL, RSM_POINT_EDGE,
					      RSM_POINT_CENTRE };
	guint count[G_N_ELEMENTS(order)] = { 0 };

	for (guint i = 0; i < d->n_runs; i++)
		for (guint t = 0; t < G_N_ELEMENTS(order); t++)
			count[t] += d->type[i] == order[t];
	for (guint t = 0; t < G_N_ELEMENTS(order); t++)
		if (count[t])
			g_string_append_printf(out, "%u %s + ", count[t],
					       rsm_study_point_name(order[t]));
	g_string_truncate(out, out->len - 3);
	g_string_append_printf(out, " = %u runs", d->n_runs);
}

/* The response line of the header: simulated jiffies, or the VM's ratios. */
static void text_response(const struct rsm_run *r, GString *out)
{
	if (!r->vm) {
		g_string_append_printf(
			out,
			"Response: simulated turnaround in jiffies (HZ %u), the mean of %u replicate%s "
			"(seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ")\n",
			r->s.w.cfg.hz, r->s.replicates, r->s.replicates == 1 ? "" : "s", r->s.seed,
			r->s.seed + r->s.replicates - 1);
		return;
	}

	g_autofree char *kernel = vm_boot_kernel(&r->vmo.boot, NULL);

	g_string_append_printf(
		out,
		"Response: the time of '%s' on %s in a VM (%u CPUs) x defaults: each run over the "
		"run of the defaults (%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
		" / %" G_GUINT64_FORMAT " ns) in the same round\n"
		"Rounds: %u in one boot, each running the whole design and the defaults in a fresh "
		"order; the rounds are replicates: %u responses\n",
		r->vmo.command, kernel ? kernel : "Debian's 6.1 kernel", r->vmo.boot.cpus,
		r->vmo.defaults.latency_ns, r->vmo.defaults.min_granularity_ns,
		r->vmo.defaults.wakeup_granularity_ns, r->s.replicates, r->s.design->n_runs);
}

static void text_header(const struct rsm_cli *c, const struct rsm_run *r, GString *out)
{
	const RsmDesign *design = r->as_run ? r->as_run : r->s.design;
	g_autofree char *dname = rsm_report_design_name(design);

	if (r->set == KNOB_SET_CFS) {
		g_string_append(out, "tuner rsm: response surface of the CFS knobs\n");
	} else {
		g_autofree char *names = knob_set_names(r->set, ", ");

		g_string_append_printf(out, "tuner rsm: response surface of %s\n", names);
	}
	if (c->analyse) {
		g_string_append_printf(out, "Responses read from %s (nothing simulated)\n",
				       c->analyse);
	} else {
		g_string_append_printf(out, "Workload: %s\n", r->s.w.settings);
		text_response(r, out);
	}
	g_string_append_printf(out, "Design: %s: ", dname);
	point_counts(out, design);
	if (!c->analyse)
		g_string_append_printf(out, ", run order randomised with seed %" G_GUINT64_FORMAT,
				       r->s.seed);
	g_string_append_c(out, '\n');
	if (r->design_note)
		g_string_append_printf(out, "Note: %s\n", r->design_note);
	if (r->vm)
		g_string_append_printf(out,
				       "Ratios: %u (%u read from the journal) for the design and "
				       "the confirmation, %u boot%s now\n",
				       r->s.stats.total, r->s.stats.from_journal, r->vmo.boots,
				       r->vmo.boots == 1 ? "" : "s");
	else if (!c->analyse)
		g_string_append_printf(
			out,
			"Simulations: %u (%u read from the journal) for the design and the confirmation, "
			"%u job%s\n",
			r->s.stats.total, r->s.stats.from_journal, r->s.jobs,
			r->s.jobs == 1 ? "" : "s");
	g_string_append_c(out, '\n');
}

static void knob_natural(const struct rsm_run *r, const Knobs *k, double *natural)
{
	for (guint j = 0; j < r->k; j++)
		natural[j] = knob_get(k, r->knob[j]);
}

static void confirmation_line(GString *out, const struct rsm_run *r, const char *label,
			      const Knobs *k, const EvaluatorResult *res)
{
	double nat[KNOB_COUNT];
	double ms = workload_predict_ms(&r->s.w, res->mean);

	knob_natural(r, k, nat);
	g_string_append_printf(out, "  %-9s ", label);
	rsm_report_setting(out, r->factors, r->k, nat);
	if (r->vm && res == &r->def)
		g_string_append(out, "\n            the reference of every round: 1 by "
				     "construction");
	else if (r->vm)
		g_string_append_printf(out,
				       "\n            measured %.4g x defaults (mean of %u "
				       "rounds, standard error %.3g)",
				       res->mean, r->confirm_rounds, res->std_error);
	else
		g_string_append_printf(
			out,
			"\n            measured %.6g jiffies (standard error %.3g over %u replicate%s)",
			res->mean, res->std_error, r->s.replicates,
			r->s.replicates == 1 ? "" : "s");
	if (!isnan(ms))
		g_string_append_printf(out, ", predicted real time %.4g ms", ms);
	g_string_append_c(out, '\n');
}

/* The VM's confirmation as `tuner validate` states it: the geometric-mean ratio of the rounds
 * with its interval, the improvement it means, the paired t and the sign test. */
static void text_paired(const struct rsm_run *r, GString *out)
{
	const PairedStats *p = &r->paired;

	if (!r->paired_ok) {
		g_string_append(out, "  no paired comparison: a ratio was not a positive number\n");
		return;
	}
	g_string_append_printf(
		out,
		"  paired over %u rounds (log ratios): the optimum takes %.4g x the defaults' time, "
		"95%% CI [%.4g, %.4g]: %.1f %% %s [%.1f, %.1f], t = %.3g, p = %.3g; sign test: "
		"faster in %u, slower in %u rounds, p = %.3g\n\n",
		p->n, p->ratio, p->ratio_lo, p->ratio_hi, fabs(paired_improvement_pct(p->ratio)),
		paired_improvement_pct(p->ratio) >= 0 ? "faster" : "SLOWER",
		paired_improvement_pct(p->ratio_hi), paired_improvement_pct(p->ratio_lo), p->t,
		p->p, p->below, p->above, p->sign_p);
}

static void text_confirmation(const struct rsm_run *r, GString *out)
{
	const RsmStudy *s = r->s.study;
	double coded[KNOB_COUNT];
	bool inside = true;

	if (r->vm)
		g_string_append_printf(out,
				       "Confirmation: the optimum against the defaults, paired in "
				       "a second boot of %u rounds\n",
				       r->confirm_rounds);
	else
		g_string_append(
			out, "Confirmation: the optimum and the profile's defaults, simulated\n");
	confirmation_line(out, r, "optimum", &r->best_knobs, &r->best);
	if (isfinite(s->optimum_pi_lo))
		g_string_append_printf(
			out,
			"            the model predicted %.6g, %.0f%% prediction interval [%.6g, %.6g]: "
			"the measurement is %s it\n",
			s->optimum_y.value, RSM_STUDY_LEVEL * 100, s->optimum_pi_lo,
			s->optimum_pi_hi,
			r->best.mean >= s->optimum_pi_lo && r->best.mean <= s->optimum_pi_hi
				? "inside"
				: "OUTSIDE");
	else
		g_string_append_printf(
			out, "            the model predicted %.6g (no prediction interval)\n",
			s->optimum_y.value);
	confirmation_line(out, r, "defaults", &r->default_knobs, &r->def);
	for (guint j = 0; j < r->k; j++) {
		coded[j] =
			rsm_study_to_coded(&r->factors[j], knob_get(&r->default_knobs, r->knob[j]));
		inside &= fabs(coded[j]) <= 1;
	}
	if (inside)
		g_string_append_printf(out,
				       "            inside the region; the model predicted %.6g\n",
				       rsm_study_predict(s, coded));
	else
		g_string_append(out,
				"            outside the region of the design: no prediction\n");
	if (r->vm) {
		text_paired(r, out);
		return;
	}
	g_string_append_printf(
		out, "  the optimum is %.2f%% %s than the defaults (%.6g vs %.6g jiffies)\n\n",
		fabs(improvement_pct(r)), improvement_pct(r) >= 0 ? "faster" : "SLOWER",
		r->best.mean, r->def.mean);
}

/*
 * The rounds as blocks: every ratio of a round shares that round's one run of the defaults, and
 * the model, which has no block term, counts that as pure error (block_effect.h).
 */
static void text_rounds(const struct rsm_run *r, GString *out)
{
	const BlockEffect *b = &r->rounds;

	g_string_append_printf(
		out,
		"Rounds as blocks (log ratios, %u runs x %u rounds, no interaction)\n"
		"  the rounds differ: F %.4g on %.0f and %.0f df, p %.4g; a round's "
		"common factor (the geometric mean of its ratios over that of all):",
		b->points, b->blocks, b->f, b->df_blocks, b->df_error, b->p);
	for (guint j = 0; j < b->blocks; j++)
		g_string_append_printf(out, " %.3f", b->factor[j]);
	g_string_append_printf(
		out,
		"\n  sd of the round effect %.3f, of one ratio net of runs and rounds %.3f (log "
		"scale): every ratio of a round shares its run of the defaults, and the quadratic "
		"model, without a block term, counts that as pure error\n\n",
		b->sd_blocks, b->sd_error);
}

/* The unit of the responses: "response units" (--analyse), "x defaults" or "jiffies". */
static const char *response_unit(const struct rsm_cli *c, const struct rsm_run *r, bool text)
{
	if (c->analyse)
		return text ? "response units" : "response";
	return r->vm ? "x defaults" : "jiffies";
}

static char *text_report(const struct rsm_cli *c, const struct rsm_run *r)
{
	GString *out = g_string_new(NULL);
	const char *unit = response_unit(c, r, true);

	text_header(c, r, out);
	rsm_report_factors(out, r->factors, r->k);
	rsm_report_design(out, r->s.design, r->factors, r->s.study, unit);
	rsm_report_analysis(out, r->s.study, r->factors, unit);
	if (r->have_rounds)
		text_rounds(r, out);
	if (r->confirmed)
		text_confirmation(r, out);
	else
		g_string_append(out, "Confirmation: not simulated (--analyse)\n\n");
	study_text_files(out, &c->s, &r->s);
	return g_string_free(out, FALSE);
}

static void json_evaluation(struct json_writer *w, const struct rsm_run *r, const char *key,
			    const Knobs *k, const EvaluatorResult *res)
{
	json_key(w, key);
	if (!r->confirmed) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_key(w, "value");
	json_double(w, res->mean);
	json_key(w, "stderr");
	json_double(w, res->std_error);
	json_key(w, "knobs");
	results_json_knobs(w, k, r->set);
	json_key(w, "predicted_ms");
	json_double(w, workload_predict_ms(&r->s.w, res->mean));
	json_end_object(w);
}

/* "rounds": the rounds as blocks (block_effect.h), or null. */
static void json_rounds(struct json_writer *w, const struct rsm_run *r)
{
	const BlockEffect *b = &r->rounds;
	const struct {
		const char *key;
		double value;
	} fields[] = {
		{ "f", b->f }, { "df_rounds", b->df_blocks },	 { "df_error", b->df_error },
		{ "p", b->p }, { "sd_round_log", b->sd_blocks }, { "sd_error_log", b->sd_error },
	};

	json_key(w, "rounds");
	if (!r->have_rounds) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	for (guint i = 0; i < G_N_ELEMENTS(fields); i++) {
		json_key(w, fields[i].key);
		json_double(w, fields[i].value);
	}
	json_key(w, "factors");
	json_begin_array(w);
	for (guint j = 0; j < b->blocks; j++)
		json_double(w, b->factor[j]);
	json_end_array(w);
	json_end_object(w);
}

/* "vm": the experiment, and "confirmation": the paired comparison of the second boot. */
static void json_vm(struct json_writer *w, const struct rsm_run *r)
{
	const PairedStats *p = &r->paired;
	g_autofree char *kernel = vm_boot_kernel(&r->vmo.boot, NULL);
	const struct {
		const char *key;
		double value;
	} paired[] = {
		{ "ratio", p->ratio },
		{ "ci95_lo", p->ratio_lo },
		{ "ci95_hi", p->ratio_hi },
		{ "improvement_pct", paired_improvement_pct(p->ratio) },
		{ "improvement_ci95_lo_pct", paired_improvement_pct(p->ratio_hi) },
		{ "improvement_ci95_hi_pct", paired_improvement_pct(p->ratio_lo) },
		{ "t", p->t },
		{ "p", p->p },
		{ "sign_p", p->sign_p },
	};

	json_key(w, "vm");
	json_begin_object(w);
	json_key(w, "command");
	json_string(w, r->vmo.command);
	json_key(w, "kernel");
	json_string(w, kernel ? kernel : "");
	json_key(w, "cpus");
	json_uint(w, r->vmo.boot.cpus);
	json_key(w, "rounds");
	json_uint(w, r->s.replicates);
	json_key(w, "boots");
	json_uint(w, r->vmo.boots);
	json_end_object(w);
	json_rounds(w, r);
	json_key(w, "confirmation");
	if (!r->paired_ok) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_key(w, "rounds");
	json_uint(w, p->n);
	for (guint i = 0; i < G_N_ELEMENTS(paired); i++) {
		json_key(w, paired[i].key);
		json_double(w, paired[i].value);
	}
	json_key(w, "faster");
	json_uint(w, p->below);
	json_key(w, "slower");
	json_uint(w, p->above);
	json_key(w, "ratios");
	json_begin_array(w);
	for (guint j = 0; j < r->confirm_rounds; j++)
		json_double(w, r->confirm[j]);
	json_end_array(w);
	json_end_object(w);
}

static char *json_report(const struct rsm_cli *c, const struct rsm_run *r,
			 const RsmStudyFiles *files)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "command");
	json_string(&w, "rsm");
	json_key(&w, "source");
	json_string(&w, c->analyse ? c->analyse : r->vm ? "vm" : "simulation");
	json_key(&w, "settings");
	if (c->analyse)
		json_null(&w);
	else
		json_string(&w, r->s.w.settings);
	json_key(&w, "unit");
	json_string(&w, response_unit(c, r, false));
	json_key(&w, "replicates");
	if (c->analyse)
		json_null(&w);
	else
		json_uint(&w, r->s.replicates);
	json_key(&w, "seed");
	if (c->analyse)
		json_null(&w);
	else
		json_uint(&w, r->s.seed);
	study_json_journal(&w, &c->s);
	json_key(&w, "design_note");
	if (r->design_note)
		json_string(&w, r->design_note);
	else
		json_null(&w);
	rsm_files_json_study(&w, files);
	json_evaluation(&w, r, "best", &r->best_knobs, &r->best);
	json_evaluation(&w, r, "default", &r->default_knobs, &r->def);
	json_key(&w, "improvement_pct");
	json_double(&w, r->confirmed ? improvement_pct(r) : NAN);
	if (r->vm)
		json_vm(&w, r);
	study_json_simulations(&w, &r->s);
	json_end_object(&w);
	return g_string_free(out, FALSE);
}

/* design.csv's round column on the VM: run i of the replicated design is in round i / n. */
static void round_column(GString *row, guint run, void *ctx)
{
	const struct rsm_run *r = ctx;

	g_string_append_printf(row, ",%u", run / r->as_run->n_runs);
}

static bool report(const struct rsm_cli *c, const struct rsm_run *r, GError **error)
{
	RsmStudyFiles files = {
		.design = r->s.design,
		.design_name = r->design_key,
		.factors = r->factors,
		.natural = r->s.natural,
		.study = r->s.study,
		.extra_header = r->vm ? ",round" : NULL,
		.extra = r->vm ? round_column : NULL,
		.extra_ctx = (void *)r,
	};
	g_autofree char *json = json_report(c, r, &files);
	g_autofree char *text = r->s.format == FORMAT_JSON ? NULL : text_report(c, r);

	return study_finish(&c->s, &files, json, text, error);
}

/* ---- the command ---------------------------------------------------------------------------- */

/* --objective vm: the guest's benchmark, the boot's flags, and the rounds as the replicates. */
static bool prepare_vm(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	const struct hackbench_params *hb = &r->s.w.hb;

	if (!c->cmd && !r->s.w.hackbench)
		return cmd_usage(error, "--objective vm: runs hackbench in the guest; give a "
					"hackbench workload or --cmd");

	g_autofree char *command =
		c->cmd ? g_strdup(c->cmd)
		       : vm_hackbench_command(hb->groups, hb->loops, hb->fds, hb->datasize,
					      hb->threads, hb->pipe);
	g_autofree char *log_root = c->s.out ? g_build_filename(c->s.out, "vm", NULL) : NULL;

	vm_cli_objective(&c->vm, r->s.w.cfg.nr_cpus, command, log_root, &r->vmo);
	r->vm = true;
	r->vmo.seed = r->s.seed;
	r->s.replicates = r->vmo.rounds;
	r->s.jobs = 1;
	r->s.batch_objective = vm_objective_batch;
	r->s.batch_ctx = &r->vmo;
	r->confirm_rounds = flag_given(&c->s.flags, &c->confirm_rounds) ? (guint)c->confirm_rounds
									: MAX(r->vmo.rounds, 2);
	return true;
}

static bool prepare(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	if (!check_numbers(c, error) || !study_prepare_output(&c->s, &r->s, error))
		return false;
	if (c->analyse)
		return build_factors(c, r, error) && read_analyse_file(c, r, error);
	if (!study_prepare_workload(&c->s, &r->s, error) || !build_factors(c, r, error) ||
	    !cmd_check_knob_set(&c->s.wc.sim, r->s.w.cfg.profile, r->set, error))
		return false;
	r->s.w.knobs = r->set;
	if (is_vm(c) && r->set != KNOB_SET_CFS)
		return cmd_usage(error, "--knobs: --objective vm sets the 6.1 guest's three CFS "
					"knobs, latency, min_granularity and wakeup_granularity");
	if ((is_vm(c) && !prepare_vm(c, r, error)) || !build_design(c, r, error))
		return false;
	r->s.settings = build_settings(r);
	return study_open_journal(&c->s, &r->s, error);
}

static bool run(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	if (!c->analyse && !run_design(r, error))
		return false;
	if (!analyse(c, r, error))
		return false;
	if (!c->analyse && !confirm(r, error))
		return false;
	return report(c, r, error);
}

int tuner_cmd_rsm(int argc, char **argv)
{
	struct rsm_cli cli;
	struct rsm_run r = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- response surface of the scheduler knobs: designed "
				     "experiment, quadratic model, ANOVA, Box-Cox, optimum");
	int status = 0;

	rsm_cli_init(&cli);
	add_options(&cli, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !prepare(&cli, &r, &error) ||
	    !run(&cli, &r, &error))
		status = cmd_fail_status("rsm", error);
	rsm_run_clear(&r);
	rsm_cli_clear(&cli);
	return status;
}
