/*
 * results.c - text summary, history.csv, result.json, --apply commands (see results.h).
 */
#include "tuner/eval/results.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "linsched/json.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/knobs/period_space.h"

#define RESULTS_ERROR g_quark_from_static_string("tuner-results")

double results_improvement_pct(const Results *r)
{
	const TuneEvaluation *best = tune_run_best(r->run);

	return 100.0 * (r->default_result.mean - best->value) / r->default_result.mean;
}

static double predict(const Results *r, double value)
{
	return r->calibration ? calibration_predict_ms(r->calibration, value) : NAN;
}

/* The knobs the run controls: what its rows and objects carry. */
static KnobSet knobs_of(const Results *r)
{
	return r->knobs ? r->knobs : KNOB_SET_CFS;
}

/* Text columns wide enough for each knob's column name and a 10-digit value. */
static const int text_width[KNOB_COUNT] = { 14, 20, 22, 19, 15 };

static void text_knobs(GString *out, const Knobs *k, KnobSet set)
{
	for (int i = 0; i < KNOB_COUNT; i++)
		if (set & KNOB_BIT(i))
			g_string_append_printf(out, " %*" G_GUINT64_FORMAT, text_width[i],
					       (guint64)knob_get(k, (enum knob)i));
}

static void text_knob_names(GString *out, KnobSet set)
{
	for (int i = 0; i < KNOB_COUNT; i++)
		if (set & KNOB_BIT(i))
			g_string_append_printf(out, " %*s", text_width[i],
					       knob_info((enum knob)i)->column);
}

/* ",latency_ns,...": the set's columns, prefix before each name. */
static void csv_knob_names(GString *out, KnobSet set, const char *prefix)
{
	for (int i = 0; i < KNOB_COUNT; i++)
		if (set & KNOB_BIT(i))
			g_string_append_printf(out, ",%s%s", prefix,
					       knob_info((enum knob)i)->column);
}

static void csv_knobs(GString *out, const Knobs *k, KnobSet set)
{
	for (int i = 0; i < KNOB_COUNT; i++)
		if (set & KNOB_BIT(i))
			g_string_append_printf(out, ",%" G_GUINT64_FORMAT,
					       (guint64)knob_get(k, (enum knob)i));
}

/* ---- text ---------------------------------------------------------------------------------- */

static void text_row(GString *out, const char *what, const Knobs *k, double value, double se,
		     const Results *r)
{
	g_string_append_printf(out, "  %-8s", what);
	text_knobs(out, k, knobs_of(r));
	g_string_append_printf(out, " %14.6g +- %-10.3g", value, se);
	if (r->calibration)
		g_string_append_printf(out, " %12.3f", predict(r, value));
	g_string_append_c(out, '\n');
}

/* The commands that set knob i of a live kernel to its value in k. */
static char *sysctl_command(const Knobs *k, enum knob i)
{
	return g_strdup_printf("sysctl -w kernel.%s=%.0f", knob_info(i)->sysctl, knob_get(k, i));
}

static char *debugfs_command(const Knobs *k, enum knob i)
{
	return g_strdup_printf("echo %.0f > /sys/kernel/debug/sched/%s", knob_get(k, i),
			       knob_info(i)->debugfs);
}

/* Where the debugfs files of set are: CFS's granularities left debugfs with 6.6, base_slice came
 * with it, migration_cost is in every kernel from 5.13. */
static const char *debugfs_kernels(KnobSet set)
{
	if (set & KNOB_SET_CFS)
		return "5.13 to 6.5";
	return set & KNOB_BIT(KNOB_BASE_SLICE) ? "6.6 and later" : "5.13 and later";
}

/* Whether knob i of set is applied by sysctl: it had one (before 5.13), and the set is not of a
 * kernel with base_slice (6.6 or later), where no knob is a sysctl any more. */
static bool set_by_sysctl(KnobSet set, enum knob i)
{
	return (set & KNOB_BIT(i)) && knob_info(i)->sysctl && !(set & KNOB_BIT(KNOB_BASE_SLICE));
}

char *results_apply_commands(const Knobs *k, KnobSet set)
{
	GString *out = g_string_new(NULL);
	bool any_sysctl = false;

	for (int i = 0; i < KNOB_COUNT; i++)
		any_sysctl |= set_by_sysctl(set, (enum knob)i);
	if (any_sysctl)
		g_string_append(out, "# kernels before 5.13 (sysctl, as root):\n");
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!set_by_sysctl(set, (enum knob)i))
			continue;

		g_autofree char *cmd = sysctl_command(k, (enum knob)i);

		g_string_append_printf(out, "%s\n", cmd);
	}
	g_string_append_printf(out, "# kernels %s (debugfs, as root):\n", debugfs_kernels(set));
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!(set & KNOB_BIT(i)))
			continue;

		g_autofree char *cmd = debugfs_command(k, (enum knob)i);

		g_string_append_printf(out, "%s\n", cmd);
	}
	if (set & KNOB_SET_CFS)
		g_string_append(
			out,
			"# kernels 6.6 and later schedule with EEVDF and have none of these knobs.\n");
	return g_string_free(out, FALSE);
}

/* The surrogate's predicted optimum after every iteration, with the best value observed by then. */
static void append_predictions_text(GString *out, const Results *r)
{
	const GArray *pred = r->run->predictions;

	if (pred->len == 0)
		return;
	g_string_append_printf(
		out,
		"\nthe model's predicted optimum after each iteration (%s, mean +- sd of "
		"the mean):\n  %4s %5s",
		r->unit, "iter", "evals");
	text_knob_names(out, knobs_of(r));
	g_string_append_printf(out, " %14s    %-10s %14s\n", "predicted", "sd", "best observed");
	for (guint i = 0; i < pred->len; i++) {
		const TunePrediction *p = &g_array_index(pred, TunePrediction, i);
		const TuneEvaluation *last =
			&g_array_index(r->run->evaluations, TuneEvaluation, p->evaluations - 1);

		g_string_append_printf(out, "  %4u %5u", p->iteration, p->evaluations);
		text_knobs(out, &p->knobs, knobs_of(r));
		g_string_append_printf(out, " %14.6g +- %-10.3g %14.6g\n", p->value, p->sd,
				       last->best);
	}
	g_string_append_c(out, '\n');
}

char *results_text(const Results *r, bool apply)
{
	const TuneEvaluation *best = tune_run_best(r->run);
	const EvaluatorStats *t = &r->run->totals;
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "tuner %s: %s objective in %s, %u replicate(s) per point\n",
			       r->optimizer, r->objective, r->unit, r->replicates);
	g_string_append_printf(out, "search space: %s\n\n", r->space);
	g_string_append_printf(out, "  %-8s", "");
	text_knob_names(out, knobs_of(r));
	g_string_append_printf(out, " %14s    %-10s", r->unit, "std.error");
	if (r->calibration)
		g_string_append_printf(out, " %12s", "predicted ms");
	g_string_append_c(out, '\n');
	text_row(out, "best", &best->knobs, best->value, best->std_error, r);
	text_row(out, "default", &r->default_knobs, r->default_result.mean,
		 r->default_result.std_error, r);
	if (r->extra_column)
		g_string_append_printf(out, "\nbest %s: %.0f", r->extra_column,
				       r->extra(tune_run_unit(r->run, best->index), r->extra_ctx));
	g_string_append_printf(out, "\nimprovement over the defaults: %.2f%%\n",
			       results_improvement_pct(r));
	if (r->best_clamped > 0) {
		g_autofree char *names =
			period_space_clamped_names((unsigned int)r->best_clamped, ", ");

		g_string_append_printf(
			out, "clamped to the sysctl range by the rule at the best point: %s\n",
			names);
	}
	if (r->best_clamped >= 0)
		g_string_append_printf(out, "evaluations the rule clamped: %u of %u\n",
				       r->clamped_evaluations, r->run->evaluations->len);
	g_string_append_printf(
		out,
		"evaluations: %u in %u iteration(s); the best was evaluation %u; within 1%% of it after %u\n",
		r->run->evaluations->len, r->run->iterations, best->index + 1,
		tune_run_evaluations_to_within(r->run, 0.01));
	append_predictions_text(out, r);
	if (r->journal)
		g_string_append_printf(out, "runs: %u now, %u read from the journal %s", t->run,
				       t->from_journal, r->journal);
	else
		g_string_append_printf(out, "runs: %u", t->run);
	g_string_append_printf(out, "; %.3f s wall with %u job(s)\n", r->run->wall_s, r->jobs);
	if (apply) {
		g_autofree char *cmds = results_apply_commands(&best->knobs, knobs_of(r));

		g_string_append_printf(out, "\nTo apply the best knobs:\n%s", cmds);
	}
	return g_string_free(out, FALSE);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

void results_json_knobs(struct json_writer *w, const Knobs *k, KnobSet set)
{
	json_begin_object(w);
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!(set & KNOB_BIT(i)))
			continue;
		json_key(w, knob_info((enum knob)i)->column);
		json_uint(w, (guint64)knob_get(k, (enum knob)i));
	}
	json_end_object(w);
}

static void json_begin_point(struct json_writer *w, const Results *r, const char *key,
			     const Knobs *k, double value, double se)
{
	json_key(w, key);
	json_begin_object(w);
	json_key(w, "value");
	json_double(w, value);
	json_key(w, "stderr");
	json_double(w, se);
	json_key(w, "knobs");
	results_json_knobs(w, k, knobs_of(r));
	if (r->calibration) {
		json_key(w, "predicted_ms");
		json_double(w, predict(r, value));
	}
}

static void json_clamped(struct json_writer *w, unsigned int mask)
{
	g_autofree char *names = period_space_clamped_names(mask, " ");
	g_auto(GStrv) list = g_strsplit(names, " ", -1);

	json_key(w, "clamped");
	json_begin_array(w);
	for (size_t i = 0; list[i]; i++)
		if (list[i][0])
			json_string(w, list[i]);
	json_end_array(w);
}

static void json_apply(struct json_writer *w, const Knobs *k, KnobSet set)
{
	json_key(w, "apply");
	json_begin_object(w);
	json_key(w, "sysctl");
	json_begin_array(w);
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!set_by_sysctl(set, (enum knob)i))
			continue;

		g_autofree char *cmd = sysctl_command(k, (enum knob)i);

		json_string(w, cmd);
	}
	json_end_array(w);
	json_key(w, "debugfs");
	json_begin_array(w);
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!(set & KNOB_BIT(i)))
			continue;

		g_autofree char *cmd = debugfs_command(k, (enum knob)i);

		json_string(w, cmd);
	}
	json_end_array(w);
	json_end_object(w);
}

static void json_prediction(struct json_writer *w, const TunePrediction *p, KnobSet set)
{
	json_begin_object(w);
	json_key(w, "iteration");
	json_uint(w, p->iteration);
	json_key(w, "evaluations");
	json_uint(w, p->evaluations);
	json_key(w, "knobs");
	results_json_knobs(w, &p->knobs, set);
	json_key(w, "value");
	json_double(w, p->value);
	json_key(w, "sd");
	json_double(w, p->sd);
	json_end_object(w);
}

/* "model": { "optimum": the last prediction, "iterations": [ every prediction ] }, when the
 * optimizer has a model. */
static void json_predictions(struct json_writer *w, const GArray *pred, KnobSet set)
{
	if (pred->len == 0)
		return;
	json_key(w, "model");
	json_begin_object(w);
	json_key(w, "optimum");
	json_prediction(w, &g_array_index(pred, TunePrediction, pred->len - 1), set);
	json_key(w, "iterations");
	json_begin_array(w);
	for (guint i = 0; i < pred->len; i++)
		json_prediction(w, &g_array_index(pred, TunePrediction, i), set);
	json_end_array(w);
	json_end_object(w);
}

char *results_json(const Results *r, bool apply)
{
	const TuneEvaluation *best = tune_run_best(r->run);
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "optimizer");
	json_string(&w, r->optimizer);
	json_key(&w, "objective");
	json_string(&w, r->objective);
	json_key(&w, "unit");
	json_string(&w, r->unit);
	json_key(&w, "space");
	json_string(&w, r->space);
	json_key(&w, "settings");
	json_string(&w, r->settings);
	json_key(&w, "journal");
	if (r->journal)
		json_string(&w, r->journal);
	else
		json_null(&w);
	json_key(&w, "replicates");
	json_uint(&w, r->replicates);
	json_key(&w, "jobs");
	json_uint(&w, r->jobs);

	json_begin_point(&w, r, "best", &best->knobs, best->value, best->std_error);
	json_key(&w, "evaluation");
	json_uint(&w, best->index + 1);
	if (r->extra_column) {
		json_key(&w, r->extra_column);
		json_double(&w, r->extra(tune_run_unit(r->run, best->index), r->extra_ctx));
	}
	if (r->best_clamped >= 0)
		json_clamped(&w, (unsigned int)r->best_clamped);
	json_end_object(&w);
	json_begin_point(&w, r, "default", &r->default_knobs, r->default_result.mean,
			 r->default_result.std_error);
	json_end_object(&w);

	json_key(&w, "improvement_pct");
	json_double(&w, results_improvement_pct(r));
	json_key(&w, "evaluations");
	json_uint(&w, r->run->evaluations->len);
	json_key(&w, "evaluations_to_1pct");
	json_uint(&w, tune_run_evaluations_to_within(r->run, 0.01));
	json_key(&w, "iterations");
	json_uint(&w, r->run->iterations);
	json_key(&w, "evaluations_run");
	json_uint(&w, r->run->totals.run);
	json_key(&w, "evaluations_from_journal");
	json_uint(&w, r->run->totals.from_journal);
	if (r->best_clamped >= 0) {
		json_key(&w, "clamped_evaluations");
		json_uint(&w, r->clamped_evaluations);
	}
	json_key(&w, "wall_s");
	json_double(&w, r->run->wall_s);
	json_predictions(&w, r->run->predictions, knobs_of(r));
	if (apply)
		json_apply(&w, &best->knobs, knobs_of(r));
	json_end_object(&w);
	return g_string_free(out, FALSE);
}

/* ---- history.csv --------------------------------------------------------------------------- */

char *results_history_csv(const Results *r)
{
	const GArray *pred = r->run->predictions;
	GString *out = g_string_new("evaluation,iteration");

	csv_knob_names(out, knobs_of(r), "");

	if (r->extra_column)
		g_string_append_printf(out, ",%s", r->extra_column);
	g_string_append(out, ",value,std_error,best");
	if (r->calibration)
		g_string_append(out, ",predicted_ms,best_predicted_ms");
	if (pred->len > 0) {
		csv_knob_names(out, knobs_of(r), "model_");
		g_string_append(out, ",model_value,model_sd");
	}
	g_string_append_c(out, '\n');
	for (guint i = 0, k = 0; i < r->run->evaluations->len; i++) {
		const TuneEvaluation *e = &g_array_index(r->run->evaluations, TuneEvaluation, i);

		g_string_append_printf(out, "%u,%u", e->index + 1, e->iteration);
		csv_knobs(out, &e->knobs, knobs_of(r));
		if (r->extra_column)
			g_string_append_printf(out, ",%.17g",
					       r->extra(tune_run_unit(r->run, i), r->extra_ctx));
		g_string_append_printf(out, ",%.17g,%.17g,%.17g", e->value, e->std_error, e->best);
		if (r->calibration)
			g_string_append_printf(out, ",%.17g,%.17g", predict(r, e->value),
					       predict(r, e->best));
		if (pred->len > 0) {
			/* The prediction made after this evaluation's iteration, if any. */
			while (k < pred->len &&
			       g_array_index(pred, TunePrediction, k).iteration < e->iteration)
				k++;

			const TunePrediction *p =
				k < pred->len ? &g_array_index(pred, TunePrediction, k) : NULL;

			if (p && p->iteration == e->iteration) {
				csv_knobs(out, &p->knobs, knobs_of(r));
				g_string_append_printf(out, ",%.17g,%.17g", p->value, p->sd);
			} else {
				for (guint c = 0; c < knob_set_count(knobs_of(r)) + 2; c++)
					g_string_append_c(out, ',');
			}
		}
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

static bool write_file(const char *dir, const char *name, const char *text, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	GError *local = NULL;

	if (g_file_set_contents(path, text, -1, &local))
		return true;
	g_set_error(error, RESULTS_ERROR, 1, "cannot write %s: %s", path, local->message);
	g_error_free(local);
	return false;
}

bool results_write(const Results *r, const char *dir, bool apply, GError **error)
{
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, RESULTS_ERROR, 1, "cannot create %s: %s", dir,
			    g_strerror(errno));
		return false;
	}

	g_autofree char *csv = results_history_csv(r);
	g_autofree char *json = results_json(r, apply);

	return write_file(dir, "history.csv", csv, error) &&
	       write_file(dir, "result.json", json, error);
}
