/*
 * tune_loop.c - ask, map, evaluate, tell (see tune_loop.h).
 */
#include "tuner/eval/tune_loop.h"

#include <math.h>

#include "tuner/util/progress.h"

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(tune-loop-error-quark, tune_loop_error)
/* clang-format on */

/* What the evaluator's progress callback needs to draw the whole run's line. */
struct loop_progress {
	struct progress line;
	const char *label;
	gint64 drawn_us; /* when the line was last drawn */
	guint replicates;
	guint done_before; /* replicate evaluations of the batches already told */
	const tuner_optimizer *opt;
};

/* Redraws at most ten times a second: a simulation takes a fraction of a millisecond, and a
 * terminal need not receive thousands of lines a second. */
static void draw(struct loop_progress *lp, guint done)
{
	gint64 now = g_get_monotonic_time();

	if (done != 0 && done < lp->line.total && now - lp->drawn_us < G_USEC_PER_SEC / 10)
		return;
	lp->drawn_us = now;

	double best = tuner_optimizer_minimum(lp->opt);
	g_autofree char *what = isfinite(best)
					? g_strdup_printf("%s, best so far %.6g", lp->label, best)
					: g_strdup(lp->label);

	progress_update(&lp->line, done, what);
}

static void on_batch_progress(guint done, guint total, void *ctx)
{
	struct loop_progress *lp = ctx;

	(void)total;
	draw(lp, lp->done_before + done);
}

/* Append the n evaluations just told (the optimizer's history from `first` on). */
static void record_batch(TuneRun *run, const tuner_optimizer *opt, size_t first, const Knobs *knobs,
			 const EvaluatorResult *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tuner_optimizer_record h = tuner_optimizer_history(opt, first + i);
		TuneEvaluation e = {
			.index = (guint)h.index,
			.iteration = (guint)h.iteration,
			.knobs = knobs[i],
			.value = h.y,
			.std_error = res[i].std_error,
			.best = h.best,
		};

		/* Strictly better only, as the optimizer decides: ties keep the earlier point. */
		if (run->evaluations->len == 0 ||
		    e.value < g_array_index(run->evaluations, TuneEvaluation, run->best).value)
			run->best = e.index;
		g_array_append_val(run->evaluations, e);
		g_array_append_vals(run->unit, h.x, run->dim);
	}
}

/* After an iteration: the model's predicted optimum, if the optimizer has a model yet. */
static void record_prediction(const TuneConfig *c, const tuner_optimizer *opt, TuneRun *run)
{
	g_autofree double *x = g_new(double, c->dim);
	TunePrediction p = {
		.iteration = (guint)tuner_optimizer_iterations(opt) - 1,
		.evaluations = (guint)tuner_optimizer_evaluations(opt),
	};

	if (tuner_optimizer_model_optimum(opt, x, &p.value, &p.sd) != GSL_SUCCESS)
		return;
	c->map(x, &p.knobs, c->map_ctx);
	g_array_append_val(run->predictions, p);
}

/* One batch: map, evaluate, tell.  FALSE with error on failure. */
static gboolean step(const TuneConfig *c, Evaluator *ev, tuner_optimizer *opt, TuneRun *run,
		     const double *x, size_t n, Knobs *knobs, EvaluatorResult *res, double *y,
		     GError **error)
{
	EvaluatorStats stats = { 0 };

	for (size_t i = 0; i < n; i++)
		c->map(x + i * c->dim, &knobs[i], c->map_ctx);
	gboolean ok = evaluator_batch(ev, knobs, (guint)n, res, NULL, &stats, error);

	evaluator_stats_add(&run->totals, &stats);
	if (!ok)
		return FALSE;
	for (size_t i = 0; i < n; i++) {
		if (isnan(res[i].mean)) {
			g_set_error(error, TUNE_LOOP_ERROR, TUNE_LOOP_ERROR_NAN,
				    "the objective returned NaN at latency_ns=%" G_GUINT64_FORMAT
				    " min_granularity_ns=%" G_GUINT64_FORMAT
				    " wakeup_granularity_ns=%" G_GUINT64_FORMAT,
				    knobs[i].latency_ns, knobs[i].min_granularity_ns,
				    knobs[i].wakeup_granularity_ns);
			return FALSE;
		}
		y[i] = res[i].mean;
	}

	size_t first = tuner_optimizer_evaluations(opt);
	size_t iterations = tuner_optimizer_iterations(opt);
	int status = tuner_optimizer_tell(opt, y, n);

	/* ask/tell are paired here and every value is a number: a failure is a bug in this file. */
	g_assert(status == GSL_SUCCESS);
	record_batch(run, opt, first, knobs, res, n);
	if (tuner_optimizer_iterations(opt) > iterations)
		record_prediction(c, opt, run);
	return TRUE;
}

static TuneRun *run_new(size_t dim)
{
	TuneRun *run = g_new0(TuneRun, 1);

	run->evaluations = g_array_new(FALSE, FALSE, sizeof(TuneEvaluation));
	run->predictions = g_array_new(FALSE, FALSE, sizeof(TunePrediction));
	run->unit = g_array_new(FALSE, FALSE, sizeof(double));
	run->dim = dim;
	return run;
}

TuneRun *tune_run(const TuneConfig *c, GError **error)
{
	g_return_val_if_fail(c != NULL && c->type != NULL && c->map != NULL && c->dim >= 1, NULL);
	if (!tuner_optimizer_params_check(c->type, c->dim, &c->params, error))
		return NULL;

	gint64 start = g_get_monotonic_time();
	tuner_optimizer *opt = tuner_optimizer_alloc(c->type, c->dim);
	int status = tuner_optimizer_set(opt, &c->params);

	g_assert(status == GSL_SUCCESS); /* the parameters were checked above */

	size_t cap = tuner_optimizer_batch_max(opt);
	g_autofree double *x = g_new(double, cap * c->dim);
	g_autofree double *y = g_new(double, cap);
	g_autofree Knobs *knobs = g_new(Knobs, cap);
	g_autofree EvaluatorResult *res = g_new(EvaluatorResult, cap);
	TuneRun *run = run_new(c->dim);
	EvaluatorConfig ecfg = c->evaluator;
	guint expected =
		c->expected_evaluations ? c->expected_evaluations : (guint)c->params.budget;
	struct loop_progress lp = {
		.label = c->label ? c->label : c->type->name,
		.replicates = MAX(c->evaluator.replicates, 1u),
		.opt = opt,
	};

	ecfg.progress = NULL;
	ecfg.progress_ctx = NULL;
	if (c->show_progress) {
		progress_init(&lp.line, expected * lp.replicates);
		ecfg.progress = on_batch_progress;
		ecfg.progress_ctx = &lp;
	}

	size_t n;
	gboolean ok = TRUE;
	/* One evaluator, so one thread pool, for the whole loop (evaluator.h). */
	Evaluator *ev = evaluator_new(&ecfg);

	while (ok && (n = tuner_optimizer_ask(opt, x, cap)) > 0) {
		ok = step(c, ev, opt, run, x, n, knobs, res, y, error);
		lp.done_before += (guint)n * lp.replicates;
	}
	evaluator_free(ev);
	if (c->show_progress)
		progress_end(&lp.line);
	run->iterations = (guint)tuner_optimizer_iterations(opt);
	run->wall_s = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	tuner_optimizer_free(opt);
	if (!ok) {
		tune_run_free(run);
		return NULL;
	}
	return run;
}

void tune_run_free(TuneRun *run)
{
	if (!run)
		return;
	g_array_unref(run->evaluations);
	g_array_unref(run->predictions);
	g_array_unref(run->unit);
	g_free(run);
}

const TuneEvaluation *tune_run_best(const TuneRun *run)
{
	if (run->evaluations->len == 0)
		return NULL;
	return &g_array_index(run->evaluations, TuneEvaluation, run->best);
}

const double *tune_run_unit(const TuneRun *run, guint i)
{
	g_return_val_if_fail(i < run->evaluations->len, NULL);
	return &g_array_index(run->unit, double, (gsize)i * run->dim);
}

guint tune_run_evaluations_to_within(const TuneRun *run, double fraction)
{
	const TuneEvaluation *best = tune_run_best(run);

	if (!best)
		return 0;

	double target = best->value + fraction * fabs(best->value);

	for (guint i = 0; i < run->evaluations->len; i++)
		if (g_array_index(run->evaluations, TuneEvaluation, i).best <= target)
			return i + 1;
	return run->evaluations->len; /* unreachable: the last best is the best */
}
