/*
 * report_scale.c - default vs tuned turnaround over group counts (see report_sources.h).
 */
#include <math.h>
#include <string.h>

#include "tuner/knobs/knobs.h"
#include "tuner/util/json_read.h"
#include "tuner/report/report_csv.h"
#include "tuner/report/report_sources.h"

static const char *const columns[] = { "groups",	"default_jiffies", "default_stderr",
				       "tuned_jiffies", "tuned_stderr",	   "improvement_pct" };
enum {
	C_GROUPS,
	C_DEFAULT,
	C_DEFAULT_SE,
	C_TUNED,
	C_TUNED_SE,
	C_IMPROVEMENT,
	N_COLUMNS
};

/* "default knobs: 40 / 8 / 10 ms" (latency, min_granularity, wakeup_granularity) from scale.json;
 * a run of other knobs names them ("tuned knobs: base_slice 2.1 ms"); the bare label without. */
static char *knobs_name(const JsonReadValue *json, const char *key, const char *label)
{
	double v[KNOB_COUNT];
	KnobSet set = 0;

	for (int k = 0; k < KNOB_COUNT && json; k++) {
		g_autofree char *at =
			g_strdup_printf("%s.%s", key, knob_info((enum knob)k)->column);

		if (json_read_number(json, at, &v[k]))
			set |= KNOB_BIT(k);
	}
	if (set == KNOB_SET_CFS)
		return g_strdup_printf("%s: %.4g / %.4g / %.4g ms", label, v[0] / 1e6, v[1] / 1e6,
				       v[2] / 1e6);
	if (!set)
		return g_strdup(label);

	GString *s = g_string_new(label);

	for (int k = 0; k < KNOB_COUNT; k++)
		if (set & KNOB_BIT(k))
			g_string_append_printf(s, "%s %s %.4g ms",
					       s->len > strlen(label) ? "," : ":",
					       knob_name((enum knob)k), v[k] / 1e6);
	return g_string_free(s, FALSE);
}

static gboolean read_json(const char *dir, JsonReadValue **json, GError **error)
{
	g_autofree char *path = g_build_filename(dir, "scale.json", NULL);
	GError *local = NULL;

	*json = NULL;
	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	if ((*json = json_read_file(path, &local)))
		return TRUE;
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s", local->message);
	g_error_free(local);
	return FALSE;
}

gboolean report_scale(Report *r, const char *dir, const char *prefix, GError **error)
{
	g_autofree char *path = g_build_filename(dir, "scale.csv", NULL);
	static const ReportCsvColumn schema[] = {
		{ .name = "groups", .kind = REPORT_CSV_KEY },
		{ .name = "default_jiffies", .kind = REPORT_CSV_POSITIVE },
		{ .name = "default_stderr", .kind = REPORT_CSV_NONNEG },
		{ .name = "tuned_jiffies", .kind = REPORT_CSV_POSITIVE },
		{ .name = "tuned_stderr", .kind = REPORT_CSV_NONNEG },
		{ .name = "improvement_pct", .kind = REPORT_CSV_FINITE },
		{ .name = "default_ms", .kind = REPORT_CSV_FINITE, .optional = TRUE },
		{ .name = "tuned_ms", .kind = REPORT_CSV_FINITE, .optional = TRUE },
	};
	g_autoptr(ReportCsv) csv = report_csv_read(path, error);
	g_autofree double *v = csv && report_csv_check(csv, schema, G_N_ELEMENTS(schema), error)
				       ? report_csv_numbers(csv, columns, N_COLUMNS, FALSE, error)
				       : NULL;
	g_autoptr(JsonReadValue) json = NULL;

	if (!v || !read_json(dir, &json, error))
		return FALSE;

	guint n = csv->rows->len;
	g_autoptr(GString) data = g_string_new(
		"# groups default default_stderr tuned tuned_stderr improvement_pct\n");
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	guint lo_at = 0, hi_at = 0;

	for (guint i = 0; i < n; i++) {
		const double *p = v + (gsize)i * N_COLUMNS;

		for (guint j = 0; j < N_COLUMNS; j++)
			report_data_number(data, p[j]);
		g_string_append_c(data, '\n');
		sum += p[C_IMPROVEMENT];
		if (p[C_IMPROVEMENT] < lo) {
			lo = p[C_IMPROVEMENT];
			lo_at = (guint)p[C_GROUPS];
		}
		if (p[C_IMPROVEMENT] > hi) {
			hi = p[C_IMPROVEMENT];
			hi_at = (guint)p[C_GROUPS];
		}
	}

	g_autofree char *name = g_strconcat(prefix, "scale.dat", NULL);
	g_autofree char *stem = g_strconcat(prefix, "scale", NULL);
	g_autofree char *dname = knobs_name(json, "default", "default knobs");
	g_autofree char *tname = knobs_name(json, "tuned", "tuned knobs");
	const char *best = json ? json_read_string(json, "best_file") : NULL;
	const char *settings = json ? json_read_string(json, "settings") : NULL;
	double first = v[C_GROUPS], last = v[(gsize)(n - 1) * N_COLUMNS + C_GROUPS];
	g_autofree char *caption = g_strdup_printf(
		"Simulated turnaround of the default and the tuned knobs for %.0f to %.0f hackbench groups (error "
		"bars: standard errors of the replicates); bars: the improvement, 100 (default − tuned) / default. "
		"Mean improvement %.2f%%, from %.2f%% (%u groups) to %.2f%% (%u groups).",
		first, last, sum / n, lo, lo_at, hi, hi_at);
	g_autoptr(GString) vars = g_string_new(NULL);

	if (!report_write_data(r, name, data->str, error))
		return FALSE;

	ReportSection *s = report_section(r, "Default vs tuned knobs over group counts", dir);

	report_row(s, "default", "%s", dname);
	report_row(s, "tuned", "%s%s%s", tname, best ? ", from " : "", best ? best : "");
	if (settings)
		report_row(s, "workload", "%s", settings);
	report_row(s, "improvement",
		   "mean %.2f%%, lowest %.2f%% (%u groups), highest %.2f%% (%u groups)", sum / n,
		   lo, lo_at, hi, hi_at);
	report_var_string(vars, "unit", "jiffies");
	report_var_string(vars, "dname", dname);
	report_var_string(vars, "tname", tname);
	if (json)
		report_var_string(vars, "knobs",
				  "knobs: latency / min_granularity / wakeup_granularity");
	return report_plot(r, s, "scale.gp", name, stem,
			   "Default vs tuned turnaround over group counts", caption, vars, error);
}
