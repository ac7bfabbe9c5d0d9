/* fuzz_report_csv.c - the report's CSV reader and column checks (tuner/report/report_csv.c), with
 * history.csv's columns. */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/report/report_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const ReportCsvColumn schema[] = {
		{ .name = "evaluation", .kind = REPORT_CSV_KEY },
		{ .name = "iteration", .kind = REPORT_CSV_WHOLE },
		{ .name = "latency_ns", .kind = REPORT_CSV_KNOB },
		{ .name = "min_granularity_ns", .kind = REPORT_CSV_KNOB },
		{ .name = "wakeup_granularity_ns", .kind = REPORT_CSV_KNOB },
		{ .name = "value", .kind = REPORT_CSV_POSITIVE },
		{ .name = "std_error", .kind = REPORT_CSV_NONNEG, .allow_empty = TRUE },
		{ .name = "best", .kind = REPORT_CSV_COUNT, .optional = TRUE },
		{ .name = "inside", .kind = REPORT_CSV_FLAG, .optional = TRUE },
		{ .name = "x1", .kind = REPORT_CSV_FINITE, .optional = TRUE },
	};
	static const char *const columns[] = { "evaluation", "value" };
	g_autofree char *path = fuzz_file(data, size, "history.csv");
	GError *error = NULL;
	ReportCsv *csv = report_csv_read(path, &error);

	if (csv && report_csv_check(csv, schema, G_N_ELEMENTS(schema), &error))
		g_free(report_csv_numbers(csv, columns, 2, FALSE, &error));
	g_clear_error(&error);
	report_csv_free(csv);
	return 0;
}
