/*
 * report_convergence.c - best value so far against evaluations, every optimizer run on one plot
 * (see report_sources.h).
 */
#include <math.h>
#include <string.h>

#include "tuner/knobs/knobs.h"
#include "tuner/util/json_read.h"
#include "tuner/report/report_csv.h"
#include "tuner/report/report_sources.h"

/* What one run contributes. */
struct run {
	const char *dir;
	char *name;   /* the optimizer, or the directory without a result.json */
	char *unit;   /* NULL without a result.json */
	double def;   /* the default knobs' value, NaN when unknown */
	double best;  /* the last best so far */
	double first; /* the first best so far: the first evaluation */
	guint evaluations;
	JsonReadValue *result; /* NULL without a result.json */
};

static void run_clear(struct run *r)
{
	g_free(r->name);
	g_free(r->unit);
	json_read_free(r->result);
}

static gboolean read_result(struct run *run, GError **error)
{
	g_autofree char *path = g_build_filename(run->dir, "result.json", NULL);
	GError *local = NULL;
	const char *name, *unit;

	run->def = NAN;
	if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
		run->name = g_path_get_basename(run->dir);
		return TRUE;
	}
	if (!(run->result = json_read_file(path, &local))) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	name = json_read_string(run->result, "optimizer");
	unit = json_read_string(run->result, "unit");
	if (!name || !unit) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
			    "%s: no \"%s\" string: not the result of tuner "
			    "pso|golden|grid|random",
			    path, name ? "unit" : "optimizer");
		return FALSE;
	}
	run->name = g_strdup(name);
	run->unit = g_strdup(unit);
	json_read_number(run->result, "default.value", &run->def);
	return TRUE;
}

/* One block of the data file: "evaluation value best" per evaluation. */
static gboolean read_history(struct run *run, GString *data, GError **error)
{
	static const char *const columns[] = { "evaluation", "value", "best" };
	g_autofree char *path = g_build_filename(run->dir, "history.csv", NULL);
	/* history.csv as tuner/eval/results.c writes it. */
	static const ReportCsvColumn schema[] = {
		{ .name = "evaluation", .kind = REPORT_CSV_KEY },
		{ .name = "iteration", .kind = REPORT_CSV_WHOLE },
		/* The run's knob set: CFS's three, or others (tuner --knobs). */
		{ .name = "latency_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "min_granularity_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "wakeup_granularity_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "migration_cost_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "base_slice_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "sched_period_ns", .kind = REPORT_CSV_POSITIVE, .optional = TRUE },
		{ .name = "value", .kind = REPORT_CSV_POSITIVE },
		{ .name = "std_error", .kind = REPORT_CSV_NONNEG },
		{ .name = "best", .kind = REPORT_CSV_POSITIVE },
		{ .name = "predicted_ms", .kind = REPORT_CSV_FINITE, .optional = TRUE },
		{ .name = "best_predicted_ms", .kind = REPORT_CSV_FINITE, .optional = TRUE },
	};
	g_autoptr(ReportCsv) csv = report_csv_read(path, error);
	g_autofree double *v = csv && report_csv_check(csv, schema, G_N_ELEMENTS(schema), error)
				       ? report_csv_numbers(csv, columns, 3, FALSE, error)
				       : NULL;

	if (!v)
		return FALSE;
	run->evaluations = csv->rows->len;
	g_string_append_printf(data, "# %s (%s): evaluation value best\n", run->name, run->dir);
	for (guint i = 0; i < csv->rows->len; i++) {
		const double *p = v + (gsize)i * 3;

		if (p[0] < 1) {
			g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
				    "%s:%u: column 'evaluation': %g is not a count "
				    "from 1",
				    path, g_array_index(csv->lines, guint, i), p[0]);
			return FALSE;
		}
		g_string_append_printf(data, "%.0f %.10g %.10g\n", p[0], p[1], p[2]);
	}
	g_string_append(data, "\n\n");
	run->best = v[(gsize)(csv->rows->len - 1) * 3 + 2];
	run->first = v[2];
	return TRUE;
}

/* "latency 40 ms, min_granularity 8 ms, ...": the best knobs result.json has, or NULL if none. */
static char *best_knobs_text(const JsonReadValue *j)
{
	GString *s = g_string_new(NULL);

	for (int k = 0; k < KNOB_COUNT; k++) {
		g_autofree char *at =
			g_strdup_printf("best.knobs.%s", knob_info((enum knob)k)->column);
		double v;

		if (json_read_number(j, at, &v))
			g_string_append_printf(s, "%s%s %.4g ms", s->len ? ", " : "",
					       knob_name((enum knob)k), v / 1e6);
	}
	if (s->len)
		return g_string_free(s, FALSE);
	g_string_free(s, TRUE);
	return NULL;
}

static void row(ReportSection *s, const struct run *run)
{
	const JsonReadValue *j = run->result;
	double imp, to1;
	g_autofree char *label = g_strdup_printf("%s (%s)", run->name, run->dir);
	g_autofree char *knobs = j ? best_knobs_text(j) : NULL;

	if (knobs && json_read_number(j, "improvement_pct", &imp) &&
	    json_read_number(j, "evaluations_to_1pct", &to1))
		report_row(s, label,
			   "best %.6g %s after %u evaluations (within 1%% after %.0f); %s; default "
			   "knobs %.6g, improvement %.2f%%",
			   run->best, run->unit, run->evaluations, to1, knobs, run->def, imp);
	else
		report_row(s, label, "best %.6g after %u evaluations (no result.json)", run->best,
			   run->evaluations);
}

/* Dashed default lines: one key entry when every run has the same default value. */
static void default_vars(GString *vars, const struct run *runs, guint n)
{
	g_autofree const char **titles = g_new0(const char *, n);
	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
	gboolean same = TRUE;

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("d%u", i + 1);

		report_var_number(vars, name, runs[i].def);
		same = same && (runs[i].def == runs[0].def);
	}
	for (guint i = 0; i < n; i++) {
		char *t = isnan(runs[i].def) || (same && i > 0) ? g_strdup("")
			  : same ? g_strdup_printf("default knobs: %.6g", runs[i].def)
				 : g_strdup_printf("%s: default knobs %.6g", runs[i].name,
						   runs[i].def);

		g_ptr_array_add(owned, t);
		titles[i] = t;
	}
	report_var_words(vars, "dtitles", titles, n);
	report_var_number(vars, "dsame", same);
}

static gboolean draw(Report *r, ReportSection *s, const char *prefix, const struct run *runs,
		     guint n, const char *data, GError **error)
{
	g_autofree char *stem = g_strconcat(prefix, "convergence", NULL);
	g_autofree const char **names = g_new(const char *, n);
	g_autoptr(GString) vars = g_string_new(NULL);
	g_autoptr(GString) caption = g_string_new(
		"Best value found so far (steps) and every evaluation (faint "
		"points) against the number of evaluations; dashed: the default knobs.");

	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < n; i++) {
		char *t = g_strdup_printf("%s: best so far (%.6g after %u)", runs[i].name,
					  runs[i].best, runs[i].evaluations);

		g_ptr_array_add(owned, t);
		names[i] = t;
		g_string_append_printf(caption, " %s: %.6g after %u evaluations.", runs[i].name,
				       runs[i].best, runs[i].evaluations);
	}
	/* The y range follows the best-so-far curves and the defaults, not the worst evaluations,
	 * which would flatten the curves against the axis. */
	double lo = INFINITY, hi = -INFINITY;

	for (guint i = 0; i < n; i++) {
		lo = fmin(lo, runs[i].best);
		hi = fmax(hi,
			  isnan(runs[i].def) ? runs[i].first : fmax(runs[i].first, runs[i].def));
	}

	double pad = hi > lo ? 0.25 * (hi - lo) : fmax(1e-6, 0.01 * fabs(hi));

	report_var_number(vars, "ymin", lo - pad);
	report_var_number(vars, "ymax", hi + pad);
	g_string_append(caption, " Evaluations above the range shown are cut off.");
	report_var_number(vars, "n", n);
	report_var_words(vars, "titles", names, n);
	report_var_string(vars, "unit", runs[0].unit ? runs[0].unit : "objective");
	default_vars(vars, runs, n);
	return report_plot(r, s, "convergence.gp", data, stem,
			   "Optimizer convergence: best turnaround found so far", caption->str,
			   vars, error);
}

/* Overlaying runs measured in different units would draw a meaningless comparison. */
static gboolean same_units(const struct run *runs, guint n, GError **error)
{
	for (guint i = 1; i < n; i++)
		if (runs[i].unit && runs[0].unit && strcmp(runs[i].unit, runs[0].unit) != 0) {
			g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
				    "%s is in %s but %s is in %s: cannot draw them "
				    "on one axis",
				    runs[0].dir, runs[0].unit, runs[i].dir, runs[i].unit);
			return FALSE;
		}
	return TRUE;
}

gboolean report_convergence(Report *r, const char *const *dirs, guint n_dirs, const char *prefix,
			    GError **error)
{
	g_autofree struct run *runs = g_new0(struct run, n_dirs);
	g_autoptr(GString) data = g_string_new(NULL);
	g_autofree char *data_name = g_strconcat(prefix, "convergence.dat", NULL);
	gboolean ok = TRUE;

	for (guint i = 0; i < n_dirs && ok; i++) {
		runs[i].dir = dirs[i];
		ok = read_result(&runs[i], error) && read_history(&runs[i], data, error);
	}
	ok = ok && same_units(runs, n_dirs, error) &&
	     report_write_data(r, data_name, data->str, error);
	if (ok) {
		g_autoptr(GString) source = g_string_new(dirs[0]);

		for (guint i = 1; i < n_dirs; i++)
			g_string_append_printf(source, ", %s", dirs[i]);

		ReportSection *s = report_section(r,
						  n_dirs == 1 ? "Optimizer convergence"
							      : "Optimizer convergence, compared",
						  source->str);

		for (guint i = 0; i < n_dirs; i++)
			row(s, &runs[i]);
		ok = draw(r, s, prefix, runs, n_dirs, data_name, error);
	}
	for (guint i = 0; i < n_dirs; i++)
		run_clear(&runs[i]);
	return ok;
}
