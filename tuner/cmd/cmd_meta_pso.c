/*
 * cmd_meta_pso.c - `tuner meta-pso`: a response surface of PSO's own parameters (SPEC.md §5,
 * meta-optimisation).
 *
 * A Box-Behnken design on (omega, phi_p, phi_g) with levels omega in {0, 0.45, 0.9} and phi_p,
 * phi_g in {0, 2, 4}: 12 edge points and 2 centre points, 14 runs. Each run is a full PSO on the
 * workload's knobs; its score is its best turnaround plus the iterations it took to find it, the
 * literature's measure of a swarm that is both good and quick. The scores get the same analysis
 * as `tuner rsm` (rsm_study.h: Box-Cox, quadratic model, ANOVA, canonical analysis, optimum in the
 * cube; the steps the two commands share are study_cmd.h's), and PSO is then run at the optimum,
 * at the defaults (the constriction set 0.7298, 1.49618, 1.49618), at the thesis set (0.4365,
 * 3.02, 3.02) and at the classic (0.9, 4, 4) for comparison (tuner/optim/optimizer.h's presets).
 *
 * Choices made here:
 * - The swarms run in lockstep: each round asks every unfinished swarm for its next generation and
 *   simulates all of them as one parallel batch (evaluator.h), so 14 swarms of 20 particles keep
 *   280 simulations in flight instead of 20. Results do not depend on this: each swarm sees only
 *   its own values, and values depend only on (knobs, seed, replicate).
 * - "Iterations to reach it" counts generations including the initial swarm (optimizer.h), so a
 *   best found by the random start scores +1. Scores mix jiffies and iterations as the literature
 *   does; --iteration-weight W scores best + W x iterations for workloads whose turnaround spans
 *   far more or far fewer units than the iteration count.
 * - Run i of the design (standard order s) seeds its swarm with --seed + s, so the two centre
 *   points are two independent swarms and their difference is the pure error PSO's own randomness
 *   makes; the confirmation swarms share the seed --seed + 14 (common random numbers, so the four
 *   are compared on the same start). The simulation seeds are --seed + r for replicate r, as in
 *   every tuner command.
 * - The knobs are searched as `tuner pso` searches them: the sysctl ranges (or --range) on a log
 *   scale unless --scale linear.
 *
 * Exit status: 0 success, 1 a failed simulation or I/O error, 2 bad input (one line on stderr),
 * including scores the model cannot be fitted to (all equal).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linsched/cli/cli.h"
#include "linsched/json.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/study_cmd.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/results.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/optim/optimizer.h"
#include "tuner/util/progress.h"
#include "tuner/stats/rsm_design.h"
#include "tuner/report/rsm_files.h"
#include "tuner/report/rsm_report.h"
#include "tuner/stats/rsm_study.h"
#include "tuner/eval/workload.h"

#define N_FACTORS      3
#define DEFAULT_CENTRE 2
#define N_CONFIRM      4

/* The factors and their levels (coded -1, 0, +1). */
static const char *const letters[N_FACTORS] = { "A", "B", "C" };
static const char *const names[N_FACTORS] = { "omega", "phi_p", "phi_g" };
static const double level_lo[N_FACTORS] = { 0, 0, 0 };
static const double level_hi[N_FACTORS] = { 0.9, 4, 4 };

/* The comparison points of the confirmation: the optimum comes first. */
static const char *const confirm_labels[N_CONFIRM] = { "optimum", "defaults", "thesis", "classic" };

struct meta_cli {
	struct study_cli s;
	gint64 particles, iterations;
	double iteration_weight;
	char *scale, *knobs;
};

/* One finished swarm. */
struct swarm {
	double params[N_FACTORS]; /* omega, phi_p, phi_g */
	unsigned long seed;
	double best;		  /* best turnaround, jiffies */
	guint iterations_to_best; /* generations, the initial one included, until best was first seen */
	double score;
	Knobs best_knobs;
};

struct meta_run {
	struct study_run s;
	struct knob_space space;
	char *space_text;
	RsmStudyFactor factors[N_FACTORS];
	size_t particles, iterations;
	double iteration_weight;
	struct swarm *runs; /* design->n_runs, run order */
	struct swarm confirm[N_CONFIRM];
	struct progress pg;
	guint done; /* simulations finished, for the progress line */
};

static void meta_cli_init(struct meta_cli *c)
{
	memset(c, 0, sizeof(*c));
	study_cli_init(&c->s);
	c->s.center = DEFAULT_CENTRE;
	c->s.replicates = 1;
	c->particles = 20;
	c->iterations = 30;
	c->iteration_weight = 1;
}

static void meta_cli_clear(struct meta_cli *c)
{
	study_cli_clear(&c->s);
	g_free(c->scale);
	g_free(c->knobs);
}

static void meta_run_clear(struct meta_run *r)
{
	study_run_clear(&r->s);
	g_free(r->space_text);
	g_free(r->runs);
}

/* ---- flags ---------------------------------------------------------------------------------- */

static void add_options(struct meta_cli *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "particles", 0, 0, G_OPTION_ARG_INT64, &c->particles,
		  "Swarm size of every PSO run (default 20)", "N" },
		{ "iterations", 0, 0, G_OPTION_ARG_INT64, &c->iterations,
		  "Generations of every PSO run, the first included (default 30)", "N" },
		{ "center", 0, 0, G_OPTION_ARG_INT64, &c->s.center,
		  "Centre points of the Box-Behnken design (default 2)", "N" },
		{ "iteration-weight", 0, 0, G_OPTION_ARG_DOUBLE, &c->iteration_weight,
		  "Score = best + W x iterations to reach it (default 1)", "W" },
		{ "replicates", 'r', 0, G_OPTION_ARG_INT64, &c->s.replicates,
		  "Simulations per knob setting, seeds S, S+1, ...; their mean is the objective (default 1)",
		  "R" },
		{ "knobs", 0, 0, G_OPTION_ARG_STRING, &c->knobs,
		  "The knobs PSO searches, comma-separated (default: the profile's own, the three CFS knobs or eevdf's base_slice)",
		  "NAMES" },
		{ "range", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->s.ranges,
		  "PSO searches KNOB in [LO, HI] ns only (repeatable; default the sysctl range)",
		  "KNOB=LO:HI" },
		{ "scale", 0, 0, G_OPTION_ARG_STRING, &c->scale,
		  "Scale PSO searches the knobs on: log (default) or linear", "S" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	const struct flag_limits limits[] = {
		STUDY_LIMITS(&c->s),
		FLAG_INT(&c->particles, 1, 100000),
		FLAG_INT(&c->iterations, 1, 100000),
		FLAG_REAL(&c->iteration_weight, 0, G_MAXDOUBLE, FLAG_CLOSED),
	};
	GOptionGroup *main_group = flag_group_new(&c->s.flags, "meta-pso",
						  "Meta-PSO options:", "Show meta-PSO options");

	flag_group_add(&c->s.flags, main_group, entries, limits, G_N_ELEMENTS(limits));
	study_cli_add_options(&c->s, main_group, ctx);
}

static bool check_numbers(const struct meta_cli *c, GError **error)
{
	if (!study_cli_check(&c->s, "PSO searches this knob; bound it with --range KNOB=LO:HI",
			     error))
		return false;
	if (c->particles * c->iterations > 10000000)
		return cmd_usage(error,
				 "--particles x --iterations: %" G_GINT64_FORMAT
				 " simulations per run is too many",
				 c->particles * c->iterations);
	if (c->scale && strcmp(c->scale, "log") != 0 && strcmp(c->scale, "linear") != 0)
		return cmd_usage(error, "--scale: '%s' is not log or linear", c->scale);
	return true;
}

static bool build_space(const struct meta_cli *c, struct meta_run *r, GError **error)
{
	KnobSet set;

	if (!cmd_knob_set(c->knobs, r->s.w.cfg.profile, &set, error))
		return false;
	knob_space_init_set(&r->space, set, !c->scale || strcmp(c->scale, "log") == 0);
	if (!study_cli_ranges(&c->s, &r->space, error) ||
	    !cmd_check_knob_set(&c->s.wc.sim, r->s.w.cfg.profile, set, error))
		return false;
	r->s.w.knobs = set;
	r->space_text = knob_space_describe(&r->space);
	for (int j = 0; j < N_FACTORS; j++)
		if (!rsm_study_factor_init(&r->factors[j], letters[j], names[j], names[j],
					   level_lo[j], level_hi[j], false, false, error))
			return false;
	return true;
}

static char *build_settings(const struct meta_run *r)
{
	GString *s = g_string_new(r->s.w.settings);

	g_string_append(s, " objective=sim");
	cmd_settings_add_model(s);
	g_string_append_printf(s,
			       " replicates=%u seed=%" G_GUINT64_FORMAT " study=meta-pso runs=%u "
			       "particles=%zu iterations=%zu %s",
			       r->s.replicates, r->s.seed, r->s.design->n_runs, r->particles,
			       r->iterations, r->space_text);
	return g_string_free(s, FALSE);
}

/* ---- swarms in lockstep --------------------------------------------------------------------- */

static void on_progress(guint done, guint total, void *ctx)
{
	struct meta_run *r = ctx;

	(void)total;
	progress_update(&r->pg, r->done + done, "meta-pso");
}

/* Simulates n knob settings as one batch; values[i] the mean over the replicates. */
static bool simulate(struct meta_run *r, const Knobs *knobs, guint n, double *values,
		     GError **error)
{
	g_autofree EvaluatorResult *res = g_new(EvaluatorResult, n);
	bool ok = study_evaluate(&r->s, knobs, NULL, n, res, NULL, on_progress, r, error);

	r->done += n * r->s.replicates;
	for (guint i = 0; ok && i < n; i++)
		values[i] = res[i].mean;
	return ok;
}

static tuner_optimizer *new_swarm(const struct meta_run *r, const struct swarm *sw, GError **error)
{
	tuner_optimizer_params p;
	tuner_optimizer *s = tuner_optimizer_alloc(tuner_optimizer_pso, r->space.dim);

	tuner_optimizer_params_default(&p);
	p.seed = sw->seed;
	p.pso.particles = r->particles;
	p.pso.iterations = r->iterations;
	p.pso.omega = sw->params[0];
	p.pso.phi_p = sw->params[1];
	p.pso.phi_g = sw->params[2];
	if (!tuner_optimizer_params_check(tuner_optimizer_pso, r->space.dim, &p, error) ||
	    tuner_optimizer_set(s, &p) != GSL_SUCCESS) {
		tuner_optimizer_free(s);
		return NULL;
	}
	return s;
}

/* The swarm's result: best, when it was first reached, the score. */
static void finish_swarm(const struct meta_run *r, const tuner_optimizer *s, struct swarm *sw)
{
	size_t gens = tuner_optimizer_iterations(s);

	sw->best = tuner_optimizer_minimum(s);
	sw->iterations_to_best = (guint)gens;
	for (size_t i = 0; i < gens; i++)
		if (tuner_optimizer_iteration_best(s, i) == sw->best) {
			sw->iterations_to_best = (guint)(i + 1);
			break;
		}
	sw->score = sw->best + r->iteration_weight * sw->iterations_to_best;
	knob_space_to_knobs(&r->space, tuner_optimizer_x(s), &sw->best_knobs);
}

/* One round: every unfinished swarm's next generation, simulated together. FALSE on error;
 * *any = FALSE when every swarm has finished. */
static bool round_of(struct meta_run *r, tuner_optimizer **s, guint n, double *x, Knobs *knobs,
		     double *y, size_t *asked, bool *any, GError **error)
{
	size_t dim = r->space.dim, total = 0;

	for (guint i = 0; i < n; i++) {
		asked[i] = tuner_optimizer_ask(s[i], x + total * dim, r->particles);
		total += asked[i];
	}
	*any = total > 0;
	if (!total)
		return true;
	for (size_t p = 0; p < total; p++)
		knob_space_to_knobs(&r->space, x + p * dim, &knobs[p]);
	if (!simulate(r, knobs, (guint)total, y, error))
		return false;
	total = 0;
	for (guint i = 0; i < n; i++) {
		if (asked[i] && tuner_optimizer_tell(s[i], y + total, asked[i]) != GSL_SUCCESS) {
			g_set_error(error, CMD_ERROR, CMD_ERROR_FAILED,
				    "PSO run %u refused its values (a NaN turnaround?)", i + 1);
			return false;
		}
		total += asked[i];
	}
	return true;
}

/* Runs n swarms (params and seed set in sw[]) to the end; fills the rest of sw[]. */
static bool run_swarms(struct meta_run *r, struct swarm *sw, guint n, GError **error)
{
	g_autofree tuner_optimizer **s = g_new0(tuner_optimizer *, n);
	g_autofree double *x = g_new(double, (gsize)n * r->particles * r->space.dim);
	g_autofree Knobs *knobs = g_new(Knobs, (gsize)n * r->particles);
	g_autofree double *y = g_new(double, (gsize)n * r->particles);
	g_autofree size_t *asked = g_new(size_t, n);
	bool ok = true, any = true;

	for (guint i = 0; ok && i < n; i++)
		ok = (s[i] = new_swarm(r, &sw[i], error)) != NULL;
	while (ok && any)
		ok = round_of(r, s, n, x, knobs, y, asked, &any, error);
	for (guint i = 0; i < n; i++) {
		if (ok)
			finish_swarm(r, s[i], &sw[i]);
		tuner_optimizer_free(s[i]);
	}
	return ok;
}

static bool run_design(struct meta_run *r, GError **error)
{
	guint n = r->s.design->n_runs;

	r->runs = g_new0(struct swarm, n);
	r->s.natural = g_new(double, (gsize)n *N_FACTORS);
	for (guint i = 0; i < n; i++) {
		const double *x = rsm_design_run(r->s.design, i);

		for (int j = 0; j < N_FACTORS; j++)
			r->runs[i].params[j] = r->s.natural[(gsize)i * N_FACTORS + j] =
				rsm_study_to_natural(&r->factors[j], x[j]);
		r->runs[i].seed = (unsigned long)(r->s.seed + r->s.design->std_order[i]);
	}
	if (!run_swarms(r, r->runs, n, error))
		return false;
	r->s.y = g_new(double, n);
	for (guint i = 0; i < n; i++)
		r->s.y[i] = r->runs[i].score;
	return true;
}

static bool confirm(struct meta_run *r, GError **error)
{
	tuner_optimizer_params def;

	tuner_optimizer_params_default(&def);
	for (int j = 0; j < N_FACTORS; j++)
		r->confirm[0].params[j] =
			rsm_study_to_natural(&r->factors[j], r->s.study->optimum->x[j]);
	r->confirm[1].params[0] = def.pso.omega;
	r->confirm[1].params[1] = def.pso.phi_p;
	r->confirm[1].params[2] = def.pso.phi_g;
	for (int i = 2; i < N_CONFIRM; i++) {
		const tuner_pso_preset *p = tuner_pso_preset_by_name(confirm_labels[i]);

		r->confirm[i].params[0] = p->omega;
		r->confirm[i].params[1] = p->phi_p;
		r->confirm[i].params[2] = p->phi_g;
	}
	for (int i = 0; i < N_CONFIRM; i++)
		r->confirm[i].seed = (unsigned long)(r->s.seed + r->s.design->n_runs);
	return run_swarms(r, r->confirm, N_CONFIRM, error);
}

/* ---- report --------------------------------------------------------------------------------- */

static void text_runs(const struct meta_run *r, GString *out)
{
	g_string_append(
		out,
		"PSO runs in run order (best turnaround in jiffies, generations until it was first seen)\n");
	g_string_append_printf(out, "  %4s %7s %7s %7s %11s %5s %11s %6s  %s\n", "Run", "omega",
			       "phi_p", "phi_g", "best", "iter", "score", "seed", "best knobs");
	for (guint i = 0; i < r->s.design->n_runs; i++) {
		const struct swarm *sw = &r->runs[i];
		g_autofree char *knobs = knobs_describe(&sw->best_knobs, r->space.set);

		g_string_append_printf(out, "  %4u %7.4g %7.4g %7.4g %11.6g %5u %11.6g %6lu  %s\n",
				       i + 1, sw->params[0], sw->params[1], sw->params[2], sw->best,
				       sw->iterations_to_best, sw->score, sw->seed, knobs);
	}
	g_string_append_c(out, '\n');
}

static void text_confirmation(const struct meta_run *r, GString *out)
{
	const RsmStudy *s = r->s.study;

	g_string_append_printf(
		out,
		"Confirmation: PSO at the optimum, the defaults, the thesis and the classic "
		"parameters, swarm seed %lu\n",
		r->confirm[0].seed);
	for (int i = 0; i < N_CONFIRM; i++) {
		const struct swarm *sw = &r->confirm[i];

		g_string_append_printf(
			out,
			"  %-9s omega=%.4g phi_p=%.4g phi_g=%.4g: score %.6g (best %.6g jiffies after %u "
			"generation%s)\n",
			confirm_labels[i], sw->params[0], sw->params[1], sw->params[2], sw->score,
			sw->best, sw->iterations_to_best, sw->iterations_to_best == 1 ? "" : "s");
	}
	if (isfinite(s->optimum_pi_lo))
		g_string_append_printf(
			out,
			"  the model predicted %.6g at the optimum, %.0f%% prediction interval [%.6g, %.6g]: "
			"the measured score is %s it\n",
			s->optimum_y.value, RSM_STUDY_LEVEL * 100, s->optimum_pi_lo,
			s->optimum_pi_hi,
			r->confirm[0].score >= s->optimum_pi_lo &&
					r->confirm[0].score <= s->optimum_pi_hi
				? "inside"
				: "OUTSIDE");
	g_string_append_c(out, '\n');
}

static char *text_report(const struct meta_cli *c, const struct meta_run *r)
{
	GString *out =
		g_string_new("tuner meta-pso: response surface of PSO's omega, phi_p and phi_g\n");
	g_autofree char *dname = rsm_report_design_name(r->s.design);

	g_string_append_printf(out, "Workload: %s\n", r->s.w.settings);
	g_string_append_printf(out, "Each run: PSO with %zu particles x %zu generations over %s\n",
			       r->particles, r->iterations, r->space_text);
	g_string_append_printf(
		out,
		"Response: score = best turnaround (jiffies, mean of %u replicate%s) + %g x generations "
		"until it was first seen\n",
		r->s.replicates, r->s.replicates == 1 ? "" : "s", r->iteration_weight);
	g_string_append_printf(out,
			       "Design: %s, %u runs (%" G_GINT64_FORMAT
			       " centre points), run order randomised with seed "
			       "%" G_GUINT64_FORMAT "\n",
			       dname, r->s.design->n_runs, c->s.center, r->s.seed);
	g_string_append_printf(out, "Simulations: %u (%u read from the journal), %u job%s\n\n",
			       r->s.stats.total, r->s.stats.from_journal, r->s.jobs,
			       r->s.jobs == 1 ? "" : "s");
	rsm_report_factors(out, r->factors, N_FACTORS);
	rsm_report_design(out, r->s.design, r->factors, r->s.study, "score units");
	text_runs(r, out);
	rsm_report_analysis(out, r->s.study, r->factors, "score units");
	text_confirmation(r, out);
	study_text_files(out, &c->s, &r->s);
	return g_string_free(out, FALSE);
}

/* design.csv's extra columns: what each PSO run found. */
static void extra_columns(GString *row, guint i, void *ctx)
{
	const struct meta_run *r = ctx;
	const struct swarm *sw = &r->runs[i];

	g_string_append_printf(row, ",%.17g,%u", sw->best, sw->iterations_to_best);
	for (int k = 0; k < KNOB_COUNT; k++)
		if (r->space.set & KNOB_BIT(k))
			g_string_append_printf(row, ",%.0f",
					       knob_get(&sw->best_knobs, (enum knob)k));
	g_string_append_printf(row, ",%lu", sw->seed);
}

static void json_swarm(struct json_writer *w, const struct swarm *sw, KnobSet set)
{
	json_begin_object(w);
	json_key(w, "omega");
	json_double(w, sw->params[0]);
	json_key(w, "phi_p");
	json_double(w, sw->params[1]);
	json_key(w, "phi_g");
	json_double(w, sw->params[2]);
	json_key(w, "seed");
	json_uint(w, sw->seed);
	json_key(w, "value");
	json_double(w, sw->score);
	json_key(w, "best_turnaround");
	json_double(w, sw->best);
	json_key(w, "iterations_to_best");
	json_uint(w, sw->iterations_to_best);
	json_key(w, "knobs");
	results_json_knobs(w, &sw->best_knobs, set);
	json_end_object(w);
}

static char *json_report(const struct meta_cli *c, const struct meta_run *r,
			 const RsmStudyFiles *files)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "command");
	json_string(&w, "meta-pso");
	json_key(&w, "settings");
	json_string(&w, r->s.w.settings);
	json_key(&w, "space");
	json_string(&w, r->space_text);
	json_key(&w, "particles");
	json_uint(&w, r->particles);
	json_key(&w, "iterations");
	json_uint(&w, r->iterations);
	json_key(&w, "iteration_weight");
	json_double(&w, r->iteration_weight);
	json_key(&w, "replicates");
	json_uint(&w, r->s.replicates);
	json_key(&w, "seed");
	json_uint(&w, r->s.seed);
	study_json_journal(&w, &c->s);
	rsm_files_json_study(&w, files);
	json_key(&w, "runs");
	json_begin_array(&w);
	for (guint i = 0; i < r->s.design->n_runs; i++)
		json_swarm(&w, &r->runs[i], r->space.set);
	json_end_array(&w);
	json_key(&w, "best");
	json_swarm(&w, &r->confirm[0], r->space.set);
	json_key(&w, "default");
	json_swarm(&w, &r->confirm[1], r->space.set);
	json_key(&w, "thesis");
	json_swarm(&w, &r->confirm[2], r->space.set);
	json_key(&w, "classic");
	json_swarm(&w, &r->confirm[3], r->space.set);
	study_json_simulations(&w, &r->s);
	json_end_object(&w);
	return g_string_free(out, FALSE);
}

static bool report(const struct meta_cli *c, struct meta_run *r, GError **error)
{
	GString *header = g_string_new(",best_value,iterations_to_best");

	for (int k = 0; k < KNOB_COUNT; k++)
		if (r->space.set & KNOB_BIT(k))
			g_string_append_printf(header, ",%s", knob_info((enum knob)k)->column);
	g_string_append(header, ",pso_seed");

	g_autofree char *extra_header = g_string_free(header, FALSE);
	RsmStudyFiles files = {
		.design = r->s.design,
		.design_name = "bbd",
		.factors = r->factors,
		.natural = r->s.natural,
		.study = r->s.study,
		.extra_header = extra_header,
		.extra = extra_columns,
		.extra_ctx = r,
	};
	g_autofree char *json = json_report(c, r, &files);
	g_autofree char *text = r->s.format == FORMAT_JSON ? NULL : text_report(c, r);

	return study_finish(&c->s, &files, json, text, error);
}

/* ---- the command ---------------------------------------------------------------------------- */

static bool prepare(const struct meta_cli *c, struct meta_run *r, GError **error)
{
	GError *local = NULL;

	if (!check_numbers(c, error) || !study_prepare_output(&c->s, &r->s, error) ||
	    !study_prepare_workload(&c->s, &r->s, error) || !build_space(c, r, error))
		return false;
	r->particles = (size_t)c->particles;
	r->iterations = (size_t)c->iterations;
	r->iteration_weight = c->iteration_weight;
	if (!(r->s.design = rsm_design_box_behnken(N_FACTORS, (guint)c->s.center, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	rsm_design_randomise(r->s.design, (unsigned long)r->s.seed);
	r->s.settings = build_settings(r);
	return study_open_journal(&c->s, &r->s, error);
}

static bool run(const struct meta_cli *c, struct meta_run *r, GError **error)
{
	guint swarms = r->s.design->n_runs + N_CONFIRM;
	bool ok;

	progress_init(&r->pg,
		      (unsigned int)(swarms * r->particles * r->iterations * r->s.replicates));
	ok = run_design(r, error) &&
	     study_analyse(&r->s, letters, "every PSO run scored the same: ", error) &&
	     confirm(r, error);
	progress_end(&r->pg);
	return ok && report(c, r, error);
}

int tuner_cmd_meta_pso(int argc, char **argv)
{
	struct meta_cli cli;
	struct meta_run r = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- meta-optimise PSO's omega, phi_p and phi_g with a "
				     "Box-Behnken design");
	int status = 0;

	meta_cli_init(&cli);
	add_options(&cli, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !prepare(&cli, &r, &error) ||
	    !run(&cli, &r, &error))
		status = cmd_fail_status("meta-pso", error);
	meta_run_clear(&r);
	meta_cli_clear(&cli);
	return status;
}
