/*
 * cmd_rsm.c - `tuner rsm`: Response Surface Methodology on the three CFS knobs (SPEC.md §5).
 *
 * A designed experiment (central composite or Box-Behnken) on latency, min_granularity and
 * wakeup_granularity is simulated as one parallel, journaled batch; a full quadratic model is
 * fitted to the turnaround (after a Box-Cox transform when the profile likelihood asks for one);
 * the report gives the design, the sequential and ANOVA tables, the fit statistics, the
 * coefficients, the canonical analysis and the best point inside the region, which is then
 * simulated to confirm it and compared with the profile's default knobs. The statistics are
 * rsm_study.h's, the tables rsm_report.h's, the files rsm_files.h's, and the steps this command
 * shares with `tuner meta-pso` study_cmd.h's.
 *
 * Choices made here:
 * - The ranges (coded -1 .. +1) default to latency 1e6..1e8, min_granularity 1e5..1e7 and
 *   wakeup_granularity 0..2e7 ns: around the defaults of every profile and CPU count (2.6.28 on 2
 *   CPUs: 40, 8 and 10 ms), where the turnaround changes, rather than the whole sysctl range, most
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
 *   and the ranges: one journal is one study, and rerunning it resumes (or replays) that study.
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
static const double default_lo[KNOB_COUNT] = { 1e6, 1e5, 0 };
static const double default_hi[KNOB_COUNT] = { 1e8, 1e7, 2e7 };
static const char *const letters[KNOB_COUNT] = { "A", "B", "C" };

struct rsm_cli {
	struct study_cli s;
	char *design, *alpha, *analyse;
	bool log[KNOB_COUNT];
};

struct rsm_run {
	struct study_run s;
	struct knob_space space; /* the ranges, as --range parsed them */
	RsmStudyFactor factors[KNOB_COUNT];
	const char *design_key; /* "ccd-rotatable", ..., "bbd", "file" */
	char *design_note;	/* why the design is not the one asked for, or NULL */
	CfsKnobs *knobs;	/* n_runs, as simulated */
	bool confirmed;
	CfsKnobs best_knobs, default_knobs;
	EvaluatorResult best, def;
};

static void rsm_cli_init(struct rsm_cli *c)
{
	memset(c, 0, sizeof(*c));
	study_cli_init(&c->s);
}

static void rsm_cli_clear(struct rsm_cli *c)
{
	study_cli_clear(&c->s);
	g_free(c->design);
	g_free(c->alpha);
	g_free(c->analyse);
}

static void rsm_run_clear(struct rsm_run *r)
{
	study_run_clear(&r->s);
	g_free(r->design_note);
	g_free(r->knobs);
}

/* ---- flags ---------------------------------------------------------------------------------- */

/* --log alone: every knob; --log=KNOB[,KNOB]: those. data is the main group's flag set, in c. */
static gboolean parse_log(const char *option, const char *value, gpointer data, GError **error)
{
	struct rsm_cli *c = (struct rsm_cli *)((char *)data - offsetof(struct rsm_cli, s.flags));

	(void)option;
	if (!value) {
		for (int k = 0; k < KNOB_COUNT; k++)
			c->log[k] = true;
		return TRUE;
	}

	g_auto(GStrv) names = g_strsplit(value, ",", -1);

	for (size_t i = 0; names[i]; i++) {
		enum knob k;

		if (!knob_from_name(names[i], &k)) {
			g_set_error(
				error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				"--log: '%s' is not latency, min_granularity or wakeup_granularity",
				names[i]);
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
		{ "range", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->s.ranges,
		  "Coded -1..+1 is LO..HI ns (repeatable; defaults latency=1e6:1e8, min_granularity=1e5:1e7, "
		  "wakeup_granularity=0:2e7)",
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
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = { STUDY_LIMITS(&c->s) };
	GOptionGroup *main_group =
		flag_group_new(&c->s.flags, "rsm", "RSM options:", "Show RSM options");

	flag_group_add(&c->s.flags, main_group, entries, limits, G_N_ELEMENTS(limits));
	study_cli_add_options(&c->s, main_group, ctx);
}

static bool check_numbers(const struct rsm_cli *c, GError **error)
{
	if (!study_cli_check(&c->s, "rsm varies this knob; set its range with --range KNOB=LO:HI",
			     error))
		return false;
	if (!c->analyse)
		return true;

	/* --analyse simulates nothing: only the flags that shape the fit and its report apply. */
	const struct workload_cli *wc = &c->s.wc;
	const char *moot =
		flag_first_given(&c->s.flags, &c->design, &c->alpha, &c->s.center, &c->s.replicates,
				 &c->s.jobs, &c->s.journal, &c->s.no_sync, NULL);

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

/* The factors: default ranges, then --range (checked against the sysctl ranges), then scales. */
static bool build_factors(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	GError *local = NULL;

	knob_space_init(&r->space, false);
	for (int k = 0; k < KNOB_COUNT; k++) {
		r->space.k[k].lo = default_lo[k];
		r->space.k[k].hi = default_hi[k];
	}
	if (!study_cli_ranges(&c->s, &r->space, error))
		return false;
	for (int k = 0; k < KNOB_COUNT; k++) {
		const struct knob_range *kr = &r->space.k[k];

		if (!rsm_study_factor_init(&r->factors[k], letters[k], knob_name((enum knob)k),
					   knob_info((enum knob)k)->column, kr->lo, kr->hi,
					   c->log[k], true, &local))
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
static RsmDesign *make_ccd(RsmAlphaKind kind, guint centre, guint64 seed, GError **error)
{
	RsmDesign *d = rsm_design_ccd(KNOB_COUNT, kind, centre, error);

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

	if (!(r->s.design = make_ccd(kind, centre, r->s.seed, error)))
		return false;
	r->design_key = ccd_key(kind);
	double sysctl_min[KNOB_COUNT], sysctl_max[KNOB_COUNT];

	for (int k = 0; k < KNOB_COUNT; k++) {
		sysctl_min[k] = (double)knob_info((enum knob)k)->min_ns;
		sysctl_max[k] = (double)knob_info((enum knob)k)->max_ns;
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
	return (r->s.design = make_ccd(RSM_ALPHA_FACE, centre, r->s.seed, error)) != NULL;
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
	if (!(r->s.design = rsm_design_box_behnken(KNOB_COUNT, centre, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--design: ");
	rsm_design_randomise(r->s.design, (unsigned long)r->s.seed);
	r->design_key = "bbd";
	return true;
}

/* Natural levels of every run, rounded to whole ns inside the sysctl ranges, and the knobs. */
static void design_knobs(struct rsm_run *r)
{
	guint n = r->s.design->n_runs;

	r->knobs = g_new0(CfsKnobs, n);
	r->s.natural = g_new(double, (gsize)n *KNOB_COUNT);
	for (guint i = 0; i < n; i++) {
		const double *x = rsm_design_run(r->s.design, i);

		for (int k = 0; k < KNOB_COUNT; k++) {
			double v = round(rsm_study_to_natural(&r->factors[k], x[k]));

			v = knob_clamp((enum knob)k, v);
			r->s.natural[(gsize)i * KNOB_COUNT + k] = v;
			knob_set(&r->knobs[i], (enum knob)k, v);
		}
	}
}

/* ---- journal and evaluation ----------------------------------------------------------------- */

static char *build_settings(const struct rsm_run *r)
{
	GString *s = g_string_new(r->s.w.settings);

	g_string_append_printf(s,
			       " objective=sim replicates=%u seed=%" G_GUINT64_FORMAT
			       " study=rsm design=%s runs=%u",
			       r->s.replicates, r->s.seed, r->design_key, r->s.design->n_runs);
	for (int k = 0; k < KNOB_COUNT; k++)
		g_string_append_printf(
			s, " %s=%.0f:%.0f:%s", knob_name((enum knob)k),
			rsm_study_factor_lo(&r->factors[k]), rsm_study_factor_hi(&r->factors[k]),
			r->factors[k].range.scale == RSM_SCALE_LOG ? "log" : "linear");
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

/* Simulates n settings with the run's replicates, point i from seed seeds[i] (NULL: every point
 * from --seed), with a progress line of their own. */
static bool evaluate(struct rsm_run *r, const CfsKnobs *knobs, const guint64 *seeds, guint n,
		     EvaluatorResult *results, const char *what, GError **error)
{
	struct progress_ctx p = { .what = what };
	bool ok;

	progress_init(&p.pg, n * r->s.replicates);
	ok = study_evaluate(&r->s, knobs, seeds, n, results, on_progress, &p, error);
	progress_end(&p.pg);
	if (!ok)
		g_prefix_error(error, "%s: ", what);
	return ok;
}

static bool run_design(struct rsm_run *r, GError **error)
{
	guint n = r->s.design->n_runs;
	g_autofree EvaluatorResult *res = g_new(EvaluatorResult, n);

	/* With run-to-run variation, every run its own seeds, so that replicated points measure the
	 * pure error; without, common random numbers (see the top of this file). */
	g_autofree guint64 *seeds = NULL;

	design_knobs(r);
	if (r->s.w.cfg.costs.jitter_cv > 0) {
		seeds = g_new(guint64, n);
		for (guint i = 0; i < n; i++)
			seeds[i] = r->s.seed + (guint64)i * r->s.replicates;
	}
	if (!evaluate(r, r->knobs, seeds, n, res, "rsm design", error))
		return false;
	r->s.y = g_new(double, n);
	for (guint i = 0; i < n; i++)
		r->s.y[i] = res[i].mean;
	return true;
}

/* The optimum's knobs (whole ns) beside the profile's defaults, simulated as one batch. */
static bool confirm(struct rsm_run *r, GError **error)
{
	CfsKnobs pts[2];
	EvaluatorResult res[2];

	for (int k = 0; k < KNOB_COUNT; k++) {
		double v = round(rsm_study_to_natural(&r->factors[k], r->s.study->optimum->x[k]));

		knob_set(&r->best_knobs, (enum knob)k, knob_clamp((enum knob)k, v));
	}
	r->default_knobs = workload_default_knobs(&r->s.w);
	pts[0] = r->best_knobs;
	pts[1] = r->default_knobs;
	if (!evaluate(r, pts, NULL, 2, res, "confirmation", error))
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

	if (!(r->s.design =
		      rsm_files_read_design(c->analyse, r->factors, KNOB_COUNT, &r->s.y, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--analyse: ");
	r->design_key = "file";
	n = r->s.design->n_runs;
	r->s.natural = g_new(double, (gsize)n *KNOB_COUNT);
	for (guint i = 0; i < n; i++)
		for (int k = 0; k < KNOB_COUNT; k++)
			r->s.natural[(gsize)i * KNOB_COUNT + k] = round(rsm_study_to_natural(
				&r->factors[k], rsm_design_run(r->s.design, i)[k]));
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

static void text_header(const struct rsm_cli *c, const struct rsm_run *r, GString *out)
{
	g_autofree char *dname = rsm_report_design_name(r->s.design);

	g_string_append(out, "tuner rsm: response surface of the CFS knobs\n");
	if (c->analyse) {
		g_string_append_printf(out, "Responses read from %s (nothing simulated)\n",
				       c->analyse);
	} else {
		g_string_append_printf(out, "Workload: %s\n", r->s.w.settings);
		g_string_append_printf(
			out,
			"Response: simulated turnaround in jiffies (HZ %u), the mean of %u replicate%s "
			"(seeds %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ")\n",
			r->s.w.cfg.hz, r->s.replicates, r->s.replicates == 1 ? "" : "s", r->s.seed,
			r->s.seed + r->s.replicates - 1);
	}
	g_string_append_printf(out, "Design: %s: ", dname);
	point_counts(out, r->s.design);
	if (!c->analyse)
		g_string_append_printf(out, ", run order randomised with seed %" G_GUINT64_FORMAT,
				       r->s.seed);
	g_string_append_c(out, '\n');
	if (r->design_note)
		g_string_append_printf(out, "Note: %s\n", r->design_note);
	if (!c->analyse)
		g_string_append_printf(
			out,
			"Simulations: %u (%u read from the journal) for the design and the confirmation, "
			"%u job%s\n",
			r->s.stats.total, r->s.stats.from_journal, r->s.jobs,
			r->s.jobs == 1 ? "" : "s");
	g_string_append_c(out, '\n');
}

static void knob_natural(const CfsKnobs *k, double *natural)
{
	for (int j = 0; j < KNOB_COUNT; j++)
		natural[j] = knob_get(k, (enum knob)j);
}

static void confirmation_line(GString *out, const struct rsm_run *r, const char *label,
			      const CfsKnobs *k, const EvaluatorResult *res)
{
	double nat[KNOB_COUNT];
	double ms = workload_predict_ms(&r->s.w, res->mean);

	knob_natural(k, nat);
	g_string_append_printf(out, "  %-9s ", label);
	rsm_report_setting(out, r->factors, KNOB_COUNT, nat);
	g_string_append_printf(
		out,
		"\n            measured %.6g jiffies (standard error %.3g over %u replicate%s)",
		res->mean, res->std_error, r->s.replicates, r->s.replicates == 1 ? "" : "s");
	if (!isnan(ms))
		g_string_append_printf(out, ", predicted real time %.4g ms", ms);
	g_string_append_c(out, '\n');
}

static void text_confirmation(const struct rsm_run *r, GString *out)
{
	const RsmStudy *s = r->s.study;
	double coded[KNOB_COUNT];
	bool inside = true;

	g_string_append(out, "Confirmation: the optimum and the profile's defaults, simulated\n");
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
	for (int k = 0; k < KNOB_COUNT; k++) {
		coded[k] = rsm_study_to_coded(&r->factors[k],
					      knob_get(&r->default_knobs, (enum knob)k));
		inside &= fabs(coded[k]) <= 1;
	}
	if (inside)
		g_string_append_printf(out,
				       "            inside the region; the model predicted %.6g\n",
				       rsm_study_predict(s, coded));
	else
		g_string_append(out,
				"            outside the region of the design: no prediction\n");
	g_string_append_printf(
		out, "  the optimum is %.2f%% %s than the defaults (%.6g vs %.6g jiffies)\n\n",
		fabs(improvement_pct(r)), improvement_pct(r) >= 0 ? "faster" : "SLOWER",
		r->best.mean, r->def.mean);
}

static char *text_report(const struct rsm_cli *c, const struct rsm_run *r)
{
	GString *out = g_string_new(NULL);
	const char *unit = c->analyse ? "response units" : "jiffies";

	text_header(c, r, out);
	rsm_report_factors(out, r->factors, KNOB_COUNT);
	rsm_report_design(out, r->s.design, r->factors, r->s.study, unit);
	rsm_report_analysis(out, r->s.study, r->factors, unit);
	if (r->confirmed)
		text_confirmation(r, out);
	else
		g_string_append(out, "Confirmation: not simulated (--analyse)\n\n");
	study_text_files(out, &c->s, &r->s);
	return g_string_free(out, FALSE);
}

static void json_evaluation(struct json_writer *w, const struct rsm_run *r, const char *key,
			    const CfsKnobs *k, const EvaluatorResult *res)
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
	results_json_knobs(w, k);
	json_key(w, "predicted_ms");
	json_double(w, workload_predict_ms(&r->s.w, res->mean));
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
	json_string(&w, c->analyse ? c->analyse : "simulation");
	json_key(&w, "settings");
	if (c->analyse)
		json_null(&w);
	else
		json_string(&w, r->s.w.settings);
	json_key(&w, "unit");
	json_string(&w, c->analyse ? "response" : "jiffies");
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
	study_json_simulations(&w, &r->s);
	json_end_object(&w);
	return g_string_free(out, FALSE);
}

static bool report(const struct rsm_cli *c, const struct rsm_run *r, GError **error)
{
	RsmStudyFiles files = {
		.design = r->s.design,
		.design_name = r->design_key,
		.factors = r->factors,
		.natural = r->s.natural,
		.study = r->s.study,
	};
	g_autofree char *json = json_report(c, r, &files);
	g_autofree char *text = r->s.format == FORMAT_JSON ? NULL : text_report(c, r);

	return study_finish(&c->s, &files, json, text, error);
}

/* ---- the command ---------------------------------------------------------------------------- */

static bool prepare(const struct rsm_cli *c, struct rsm_run *r, GError **error)
{
	if (!check_numbers(c, error) || !study_prepare_output(&c->s, &r->s, error) ||
	    !build_factors(c, r, error))
		return false;
	if (c->analyse)
		return read_analyse_file(c, r, error);
	if (!study_prepare_workload(&c->s, &r->s, error) || !build_design(c, r, error))
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
		g_option_context_new("- response surface of the CFS knobs: designed "
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
