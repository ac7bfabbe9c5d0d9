/*
 * report_calibration.c - the calibration figure and its residuals (see report_sources.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "tuner/calib/calibration_io.h"
#include "tuner/report/report_csv.h"
#include "tuner/report/report_residuals.h"
#include "tuner/report/report_sources.h"

/* The columns of calibration.csv the figures need (tuner/calib/calibration_io.h), in this order. */
static const char *const columns[] = { "groups",     "sim_jiffies",  "real_mean_ms",
				       "real_sd_ms", "predicted_ms", "residual_ms" };
enum {
	C_GROUPS,
	C_SIM,
	C_MEAN,
	C_SD,
	C_PREDICTED,
	C_RESIDUAL,
	N_COLUMNS
};

/* The "runs" field, real ms separated by ';', as data lines "sim_jiffies real_ms"; *count gets
 * how many. */
static gboolean append_runs(const ReportCsv *csv, guint row, int runs_col, double sim, GString *out,
			    guint *count, GError **error)
{
	g_auto(GStrv) runs = g_strsplit(report_csv_field(csv, row, (guint)runs_col), ";", -1);
	guint line = g_array_index(csv->lines, guint, row);

	*count = 0;
	for (size_t i = 0; runs[i]; i++) {
		char *end;
		double ms;

		errno = 0;
		ms = g_ascii_strtod(g_strstrip(runs[i]), &end);
		if (errno || end == runs[i] || *end || !isfinite(ms)) {
			g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
				    "%s:%u: column 'runs': '%s' is not a number", csv->path, line,
				    runs[i]);
			return FALSE;
		}
		g_string_append_printf(out, "%.10g %.10g\n", sim, ms);
		(*count)++;
	}
	return TRUE;
}

/* calibration.dat: index 0 the points, index 1 every run. */
static char *points_data(const ReportCsv *csv, const double *v, int runs_col, guint *total_runs,
			 GError **error)
{
	guint n = csv->rows->len;
	g_autoptr(GString) out =
		g_string_new("# calibration points: groups sim_jiffies real_mean_ms real_sd_ms "
			     "predicted_ms residual_ms runs\n");
	g_autoptr(GString) runs = g_string_new("\n\n# every real run: sim_jiffies real_ms\n");

	*total_runs = 0;
	for (guint i = 0; i < n; i++) {
		const double *p = v + (gsize)i * N_COLUMNS;
		guint count;

		if (!append_runs(csv, i, runs_col, p[C_SIM], runs, &count, error))
			return NULL;
		*total_runs += count;
		g_string_append_printf(out, "%.0f %.10g %.10g %.10g %.10g %.10g %u\n", p[C_GROUPS],
				       p[C_SIM], p[C_MEAN], p[C_SD], p[C_PREDICTED], p[C_RESIDUAL],
				       count);
	}
	g_string_append(out, runs->str);
	return g_string_free(g_steal_pointer(&out), FALSE);
}

static void section_rows(ReportSection *s, const Calibration *cal, guint points, guint runs)
{
	const CalibrationFit *f = &cal->fit;

	report_row(s, "model", "%s", calibration_model_name(cal->model));
	report_row(s, "workload", "%s", cal->workload);
	report_row(s, "measured", "%s on kernel %s, %u CPUs", cal->date, cal->kernel, cal->cpus);
	if (cal->settings->len)
		report_row(s, "points", "%u (%u knob settings x group counts), %u real runs in %s",
			   points, cal->settings->len, runs,
			   g_strcmp0(cal->source, "vm") == 0 ? "one boot of a VM" : "this machine");
	else
		report_row(s, "points", "%u group counts, %u real runs", points, runs);
	report_row(s, "fit", "real_ms = %.6g + %.6g × sim_jiffies", f->a, f->b);
	report_row(s, "intercept a", "%.6g ms (standard error %.4g)", f->a, f->se_a);
	report_row(s, "slope b", "%.6g ms per jiffy (standard error %.4g)", f->b, f->se_b);
	report_row(s, "R², adjusted R²", "%.6f, %.6f", f->r2, f->adj_r2);
	report_row(s, "residual standard error", "%.4g ms", f->rse);
	report_row(s, "F (slope)", "%.6g, p = %.3g", f->f, f->f_p);
	report_row(s, "leave-one-out MAPE", "%.3f %%", f->loo_mape);
	if (!isnan(f->r2_groups))
		report_row(s, "R² against the group count alone", "%.6f", f->r2_groups);
	if (!isnan(f->r2_group_means))
		report_row(s, "R² of each group count's own mean (blind to the knobs)", "%.6f",
			   f->r2_group_means);
	if (!isnan(f->r2_within_groups))
		report_row(s, "R² of the settings' differences within a group count", "%.4f",
			   f->r2_within_groups);
	if (isfinite(f->lof_f)) {
		report_row(s, "lack of fit", "F %.4g on %u and %.0f df, p = %.3g", f->lof_f,
			   points - 2, f->pe_df, f->lof_p);
		report_row(s, "one run's spread (pure error)", "sd %.4g ms%s", f->pe_sd,
			   cal->protocol.order != RUN_ORDER_ROUNDS ? ""
			   : cal->protocol.proportional
				   ? ", net of the rounds (proportional blocks)"
				   : ", net of the rounds (blocks)");
		report_row(s, "R² a line of the right shape should expect", "%.4f", f->r2_ceiling);
		if (isfinite(f->repeats_for_r2_99))
			report_row(s, "repeats for it to expect 0.99", "%.0f",
				   f->repeats_for_r2_99);
		else if (isinf(f->repeats_for_r2_99))
			report_row(s, "repeats for it to expect 0.99",
				   "none: the means show no line above their noise");
	}
	report_row(s, "run order", "%s (seed %u), after %.1f s of warm-up",
		   run_order_name(cal->protocol.order), cal->protocol.seed, cal->protocol.warmup_s);
}

static gboolean draw(Report *r, ReportSection *s, const char *prefix, const Calibration *cal,
		     const char *data, guint points, guint runs, GError **error)
{
	const CalibrationFit *f = &cal->fit;
	g_autofree char *stem = g_strconcat(prefix, "calibration", NULL);
	g_autofree char *title =
		g_strdup_printf("Calibration: real vs simulated turnaround (R² = %.4f)", f->r2);
	g_autofree char *about =
		g_strdup_printf("%s model; %s", calibration_model_name(cal->model), cal->workload);
	g_autofree char *subtitle = report_wrap(about, 95);
	g_autofree char *caption = g_strdup_printf(
		"Each real run (grey), the mean of the runs at each group count with its standard deviation (blue, "
		"labelled with the group count) and the least-squares line real_ms = %.4g + %.4g × sim_jiffies "
		"(red): R² %.4f, residual standard error %.4g ms, leave-one-out MAPE %.2f%%, %u group counts, %u "
		"runs.",
		f->a, f->b, f->r2, f->rse, f->loo_mape, points, runs);
	g_autoptr(GString) vars = g_string_new(NULL);

	report_var_number(vars, "a", f->a);
	report_var_number(vars, "b", f->b);
	report_var_number(vars, "r2", f->r2);
	report_var_string(vars, "subtitle", subtitle);
	return report_plot(r, s, "calibration.gp", data, stem, title, caption, vars, error);
}

static gboolean residuals(Report *r, ReportSection *s, const char *prefix, const Calibration *cal,
			  const double *v, guint n, GError **error)
{
	g_autofree double *order = g_new(double, n);
	g_autofree double *fitted = g_new(double, n);
	g_autofree double *resid = g_new(double, n);
	g_autofree char *stem_prefix = g_strconcat(prefix, "calibration", NULL);

	for (guint i = 0; i < n; i++) {
		order[i] = v[(gsize)i * N_COLUMNS + C_GROUPS];
		fitted[i] = v[(gsize)i * N_COLUMNS + C_PREDICTED];
		resid[i] = v[(gsize)i * N_COLUMNS + C_RESIDUAL];
	}

	ReportResiduals res = {
		.what = "Calibration",
		.fitted_name = "fitted real runtime (ms)",
		/* Each mean gathers runs from every round, so run order is calibration-drift's x, not this. */
		.order_name = "hackbench groups",
		.against = "group count",
		.residual_name = "residual: mean real runtime − fitted (ms)",
		.order = order,
		.fitted = fitted,
		.residual = resid,
		.n = n,
		.band = 2 * cal->fit.rse,
		.band_name = "±2 residual standard errors",
	};

	return report_residuals(r, s, stem_prefix, &res, error);
}

/* The columns of calibration_runs.csv. */
static const char *const run_columns[] = { "seq", "round", "groups", "ms", "start_s" };
enum {
	R_SEQ,
	R_ROUND,
	R_GROUPS,
	R_MS,
	R_START,
	N_RUN_COLUMNS
};

/*
 * The drift figure from DIR/calibration_runs.csv, when the calibration wrote one: each run's time
 * over its group count's mean, against when it ran. The ratio removes the workload's own cost, so
 * what is left is the machine's speed (and the benchmark's own noise).
 */
static gboolean drift(Report *r, ReportSection *s, const char *dir, const char *prefix,
		      const Calibration *cal, GError **error)
{
	g_autofree char *path = g_build_filename(dir, CALIBRATION_RUNS_NAME, NULL);
	g_autoptr(ReportCsv) csv = NULL;
	g_autofree double *v = NULL;

	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	static const ReportCsvColumn schema[] = {
		{ .name = "seq", .kind = REPORT_CSV_KEY },
		{ .name = "round", .kind = REPORT_CSV_WHOLE },
		{ .name = "groups", .kind = REPORT_CSV_COUNT },
		{ .name = "ms", .kind = REPORT_CSV_POSITIVE },
		{ .name = "start_s", .kind = REPORT_CSV_NONNEG },
	};
	if (!(csv = report_csv_read(path, error)) ||
	    !report_csv_check(csv, schema, G_N_ELEMENTS(schema), error) ||
	    !(v = report_csv_numbers(csv, run_columns, N_RUN_COLUMNS, FALSE, error)))
		return FALSE;

	guint n = csv->rows->len;
	int setting_col = report_csv_column(csv, "setting", NULL);
	/* A run's point: its group count, and its knob setting when the calibration spans them. */
	g_autoptr(GHashTable) sums = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autofree char **keys = g_new0(char *, n + 1);

	if (n < 2) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
			    "%s: %u runs; a drift needs at least 2", path, n);
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		const double *run = v + (gsize)i * N_RUN_COLUMNS;
		double *sum;

		keys[i] = g_strdup_printf(
			"%.0f %s", run[R_GROUPS],
			setting_col >= 0 ? report_csv_field(csv, i, (guint)setting_col) : "");
		if (!(sum = g_hash_table_lookup(sums, keys[i])))
			g_hash_table_insert(sums, g_strdup(keys[i]), sum = g_new0(double, 2));
		sum[0] += run[R_MS];
		sum[1] += 1;
	}

	g_autofree double *ratio = g_new(double, n);
	g_autoptr(GString) data =
		g_string_new("# each real run in run order: start_s groups ratio round\n");

	for (guint i = 0; i < n; i++) {
		const double *run = v + (gsize)i * N_RUN_COLUMNS;
		const double *sum = g_hash_table_lookup(sums, keys[i]);

		ratio[i] = run[R_MS] / (sum[0] / sum[1]);
		g_string_append_printf(data, "%.6g %.0f %.10g %.0f\n", run[R_START], run[R_GROUPS],
				       ratio[i], run[R_ROUND]);
	}

	g_autofree char *stem = g_strconcat(prefix, "calibration-drift", NULL);
	g_autofree char *data_name = g_strconcat(stem, ".dat", NULL);
	double sd = gsl_stats_sd(ratio, 1, n), lag1 = gsl_stats_lag1_autocorrelation(ratio, 1, n);
	for (guint i = 0; i < n; i++)
		g_free(keys[i]);

	g_autofree char *caption = g_strdup_printf(
		"Each real run's time divided by the mean time of its point, against when it ran (%s order, "
		"after %.1f s of warm-up; the colour is the round). The ratios spread with sd %.3f; their lag-1 "
		"autocorrelation is %.2f: near 0 the runs are independent, towards 1 the machine's speed drifts "
		"slowly and runs made close together share it.",
		run_order_name(cal->protocol.order), cal->protocol.warmup_s, sd, lag1);
	g_autoptr(GString) vars = g_string_new(NULL);

	report_row(s, "drift", "sd of run / group mean %.3f, lag-1 autocorrelation %.2f", sd, lag1);
	report_var_number(vars, "warmup", cal->protocol.warmup_s);
	return report_write_data(r, data_name, data->str, error) &&
	       report_plot(r, s, "calibration-drift.gp", data_name, stem,
			   "Calibration: the machine's drift", caption, vars, error);
}

/*
 * Real against simulated context switches per group count, when the calibration counted them
 * (calibration.csv's sim_switches and real_switches; each run's from calibration_runs.csv): the
 * time fit can hold while the simulator schedules differently, and the switches show that.
 */
static gboolean switches(Report *r, ReportSection *s, const char *dir, const char *prefix,
			 const Calibration *cal, const ReportCsv *csv, GError **error)
{
	static const char *const names[] = { "groups", "sim_switches", "real_switches" };
	g_autofree double *v = NULL;
	guint n = csv->rows->len, agree = 0;

	for (guint j = 1; j < G_N_ELEMENTS(names); j++)
		if (report_csv_column(csv, names[j], NULL) < 0)
			return TRUE;
	if (!(v = report_csv_numbers(csv, names, G_N_ELEMENTS(names), TRUE, error)))
		return FALSE;
	for (guint i = 0; i < n; i++)
		if (!isfinite(v[i * 3 + 1]) || !isfinite(v[i * 3 + 2]))
			return TRUE;

	g_autoptr(GString) data =
		g_string_new("# per group count: groups real_switches (median) sim_switches\n");

	for (guint i = 0; i < n; i++) {
		double ratio = v[i * 3 + 2] / v[i * 3 + 1];

		agree += ratio <= 1.5 && ratio >= 1 / 1.5;
		g_string_append_printf(data, "%.0f %.10g %.10g\n", v[i * 3], v[i * 3 + 2],
				       v[i * 3 + 1]);
	}
	g_string_append(data, "\n\n# every real run: groups switches\n");

	g_autofree char *runs_path = g_build_filename(dir, CALIBRATION_RUNS_NAME, NULL);
	g_autoptr(ReportCsv) runs = NULL;

	if (g_file_test(runs_path, G_FILE_TEST_EXISTS)) {
		static const char *const run_names[] = { "groups", "switches" };
		g_autofree double *rv = NULL;

		if (!(runs = report_csv_read(runs_path, error)))
			return FALSE;
		if (report_csv_column(runs, "switches", NULL) >= 0) {
			if (!(rv = report_csv_numbers(runs, run_names, 2, TRUE, error)))
				return FALSE;
			for (guint i = 0; i < runs->rows->len; i++)
				if (isfinite(rv[i * 2 + 1]))
					g_string_append_printf(data, "%.0f %.10g\n", rv[i * 2],
							       rv[i * 2 + 1]);
		}
	}
	/* gnuplot wants something in every index it plots. */
	g_string_append(data, "NaN NaN\n");

	g_autofree char *stem = g_strconcat(prefix, "calibration-switches", NULL);
	g_autofree char *data_name = g_strconcat(stem, ".dat", NULL);
	gboolean vm = g_strcmp0(cal->source, "vm") == 0;
	g_autofree char *caption = g_strdup_printf(
		"Context switches of one run (%s) against the group count: each real run (grey, %s), their "
		"median (blue) and the simulation's (red). They agree within 1.5× at %u of %u %s.",
		vm ? "every switch of the CPUs, idle ones too"
		   : "every time one of its tasks left a CPU",
		vm ? "the guest's /proc/stat ctxt" : "from the kernel's rusage", agree, n,
		cal->settings->len ? "points (knob settings at a group count)" : "group counts");

	report_row(s, "context switches", "real (median) and simulated within 1.5× at %u of %u",
		   agree, n);
	return report_write_data(r, data_name, data->str, error) &&
	       report_plot(r, s, "calibration-switches.gp", data_name, stem,
			   "Calibration: real vs simulated context switches", caption, NULL, error);
}

/* With a setting column, no (setting, groups) twice. */
static gboolean unique_points(const ReportCsv *csv, GError **error)
{
	int setting = report_csv_column(csv, "setting", NULL), groups;
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	if (setting < 0)
		return TRUE;
	groups = report_csv_column(csv, "groups", error);
	for (guint i = 0; i < csv->rows->len; i++) {
		char *key =
			g_strdup_printf("%s at %s groups", report_csv_field(csv, i, (guint)setting),
					report_csv_field(csv, i, (guint)groups));

		if (!g_hash_table_add(seen, key)) {
			g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s:%u: %s again",
				    csv->path, g_array_index(csv->lines, guint, i), key);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean report_calibration(Report *r, const char *dir, const char *prefix, GError **error)
{
	g_autofree char *csv_path = g_build_filename(dir, CALIBRATION_CSV_NAME, NULL);
	g_autofree char *ini_path = g_build_filename(dir, CALIBRATION_INI_NAME, NULL);
	g_autoptr(Calibration) cal = NULL;
	g_autoptr(ReportCsv) csv = NULL;
	g_autofree double *v = NULL;
	GError *local = NULL;
	int runs_col;

	if (!(cal = calibration_read(ini_path, &local))) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	/* Over knob settings a group count comes once per setting: the pair is the key. */
	ReportCsvColumn schema[] = {
		{ .name = "groups", .kind = REPORT_CSV_KEY },
		{ .name = "sim_jiffies", .kind = REPORT_CSV_POSITIVE },
		{ .name = "real_mean_ms", .kind = REPORT_CSV_POSITIVE },
		{ .name = "real_sd_ms", .kind = REPORT_CSV_NONNEG },
		{ .name = "predicted_ms", .kind = REPORT_CSV_FINITE },
		{ .name = "residual_ms", .kind = REPORT_CSV_FINITE },
	};
	if (!(csv = report_csv_read(csv_path, error)))
		return FALSE;
	if (report_csv_column(csv, "setting", NULL) >= 0)
		schema[0].kind = REPORT_CSV_COUNT;
	if (!report_csv_check(csv, schema, G_N_ELEMENTS(schema), error) ||
	    !unique_points(csv, error) ||
	    !(v = report_csv_numbers(csv, columns, N_COLUMNS, FALSE, error)) ||
	    (runs_col = report_csv_column(csv, "runs", error)) < 0)
		return FALSE;

	guint n = csv->rows->len, runs;
	g_autofree char *data_name = g_strconcat(prefix, "calibration.dat", NULL);
	g_autofree char *data = points_data(csv, v, runs_col, &runs, error);

	if (!data || !report_write_data(r, data_name, data, error))
		return FALSE;
	if (n < 3) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
			    "%s: %u group counts; a fit has at least 3", csv_path, n);
		return FALSE;
	}

	g_autofree char *heading =
		g_strdup_printf("Calibration (%s model)", calibration_model_name(cal->model));
	ReportSection *s = report_section(r, heading, dir);

	section_rows(s, cal, n, runs);
	return draw(r, s, prefix, cal, data_name, n, runs, error) &&
	       residuals(r, s, prefix, cal, v, n, error) && drift(r, s, dir, prefix, cal, error) &&
	       switches(r, s, dir, prefix, cal, csv, error);
}
