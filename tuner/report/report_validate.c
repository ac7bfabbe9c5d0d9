/*
 * report_validate.c - the tuned knobs against the defaults on a real kernel (see
 * report_sources.h).
 */
#include <math.h>

#include "tuner/report/report_csv.h"
#include "tuner/report/report_sources.h"
#include "tuner/util/json_read.h"

static const char *const columns[] = { "round", "seconds", "ctxt" };

/* A number of validate.json, or an input error naming the file and key. */
static gboolean number(const JsonReadValue *json, const char *path, const char *key, double *out,
		       GError **error)
{
	if (json_read_number(json, key, out))
		return TRUE;
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s: no number at \"%s\"", path, key);
	return FALSE;
}

gboolean report_validate(Report *r, const char *dir, const char *prefix, GError **error)
{
	g_autofree char *csv_path = g_build_filename(dir, "validate.csv", NULL);
	g_autofree char *json_path = g_build_filename(dir, "validate.json", NULL);
	static const ReportCsvColumn schema[] = {
		{ .name = "round", .kind = REPORT_CSV_WHOLE },
		{ .name = "seconds", .kind = REPORT_CSV_POSITIVE, .allow_empty = TRUE },
	};
	g_autoptr(ReportCsv) csv = report_csv_read(csv_path, error);
	g_autofree double *v = csv && report_csv_check(csv, schema, G_N_ELEMENTS(schema), error)
				       ? report_csv_numbers(csv, columns, 3, TRUE, error)
				       : NULL;
	GError *local = NULL;

	if (!v)
		return FALSE;
	g_autoptr(JsonReadValue) json = json_read_file(json_path, &local);
	if (!json) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	double real, lo, hi, predicted, p, sign_p;
	if (!number(json, json_path, "real.improvement_pct", &real, error) ||
	    !number(json, json_path, "real.ci95_low_pct", &lo, error) ||
	    !number(json, json_path, "real.ci95_high_pct", &hi, error) ||
	    !number(json, json_path, "real.p", &p, error) ||
	    !number(json, json_path, "real.sign_p", &sign_p, error))
		return FALSE;
	if (!json_read_number(json, "predicted_improvement_pct", &predicted))
		predicted = NAN;

	/* Rows alternate defaults, tuned within a round (validate.csv's order). */
	guint n = csv->rows->len / 2;
	g_autoptr(GString) rounds = g_string_new("# round defaults_s tuned_s\n");
	for (guint i = 0; i < n; i++) {
		report_data_number(rounds, v[(gsize)(2 * i) * 3]);
		report_data_number(rounds, v[(gsize)(2 * i) * 3 + 1]);
		report_data_number(rounds, v[(gsize)(2 * i + 1) * 3 + 1]);
		g_string_append_c(rounds, '\n');
	}
	g_autoptr(GString) gains = g_string_new("# x improvement_pct low high\n");
	g_string_append_printf(gains, "1 %.17g %.17g %.17g\n", real, lo, hi);
	if (isfinite(predicted))
		g_string_append_printf(gains, "2 %.17g %.17g %.17g\n", predicted, predicted,
				       predicted);

	g_autofree char *rounds_name = g_strconcat(prefix, "validate.dat", NULL);
	g_autofree char *gains_name = g_strconcat(prefix, "validate-gain.dat", NULL);
	g_autofree char *stem = g_strconcat(prefix, "validate", NULL);
	const char *kernel = json_read_string(json, "kernel");
	const char *command = json_read_string(json, "command");
	g_autofree char *caption = g_strdup_printf(
		"Top: the benchmark's time in each round, defaults and tuned knobs run in a fresh order "
		"in the same boot of %s (%s). Bottom: the real improvement %.1f%% with its 95%% "
		"interval [%.1f, %.1f] (paired t on the log ratios, p = %.3g; sign test p = %.3g)%s.",
		kernel ? kernel : "the kernel", command ? command : "", real, lo, hi, p, sign_p,
		isfinite(predicted) ? ", beside the improvement the simulator predicted" : "");
	g_autoptr(GString) vars = g_string_new(NULL);

	if (!report_write_data(r, rounds_name, rounds->str, error) ||
	    !report_write_data(r, gains_name, gains->str, error))
		return FALSE;

	ReportSection *s = report_section(r, "Tuned knobs on the real kernel", dir);
	report_row(s, "real improvement", "%.1f %% [95 %% CI %.1f, %.1f], p = %.3g", real, lo, hi,
		   p);
	if (isfinite(predicted))
		report_row(s, "predicted (simulation)", "%.1f %%", predicted);
	report_row(s, "rounds", "%u", n);
	report_var_string(vars, "gains", gains_name);
	return report_plot(r, s, "validate.gp", rounds_name, stem,
			   "Tuned vs default knobs on the real kernel, real vs simulated", caption,
			   vars, error);
}
