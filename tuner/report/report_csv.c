/*
 * report_csv.c - CSV files for the report (see report_csv.h).
 */
#include "tuner/report/report_csv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tuner/report/report.h"

static void row_free(gpointer data)
{
	g_strfreev(data);
}

void report_csv_free(ReportCsv *csv)
{
	if (!csv)
		return;
	g_free(csv->path);
	g_strfreev(csv->header);
	g_ptr_array_free(csv->rows, TRUE);
	g_array_free(csv->lines, TRUE);
	g_free(csv);
}

static gboolean input_error(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean input_error(GError **error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, REPORT_ERROR, REPORT_ERROR_INPUT, msg);
	return FALSE;
}

static gboolean add_line(ReportCsv *csv, char *line, guint number, GError **error)
{
	char **fields = g_strsplit(line, ",", -1);
	guint n = g_strv_length(fields);

	for (guint i = 0; i < n; i++)
		g_strstrip(fields[i]);
	if (!csv->header) {
		csv->header = fields;
		csv->n_columns = n;
		return TRUE;
	}
	if (n != csv->n_columns) {
		g_strfreev(fields);
		return input_error(error, "%s:%u: %u field%s, the header has %u", csv->path, number,
				   n, n == 1 ? "" : "s", csv->n_columns);
	}
	g_ptr_array_add(csv->rows, fields);
	g_array_append_val(csv->lines, number);
	return TRUE;
}

ReportCsv *report_csv_read(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	GError *local = NULL;

	if (!g_file_get_contents(path, &text, NULL, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			input_error(error, "%s: no such file", path);
		else
			input_error(error, "%s: cannot read: %s", path, local->message);
		g_error_free(local);
		return NULL;
	}

	g_autoptr(ReportCsv) csv = g_new0(ReportCsv, 1);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	csv->path = g_strdup(path);
	csv->rows = g_ptr_array_new_with_free_func(row_free);
	csv->lines = g_array_new(FALSE, FALSE, sizeof(guint));
	for (guint i = 0; lines[i]; i++) {
		g_strchomp(lines[i]);
		if (lines[i][0] && !add_line(csv, lines[i], i + 1, error))
			return NULL;
	}
	if (!csv->header)
		return input_error(error, "%s:1: no header line (the file is empty)", path), NULL;
	if (!csv->rows->len)
		return input_error(error, "%s:2: no rows after the header", path), NULL;
	return g_steal_pointer(&csv);
}

int report_csv_column(const ReportCsv *csv, const char *name, GError **error)
{
	for (guint i = 0; i < csv->n_columns; i++)
		if (strcmp(csv->header[i], name) == 0)
			return (int)i;
	input_error(error, "%s:1: no column '%s' in the header", csv->path, name);
	return -1;
}

const char *report_csv_field(const ReportCsv *csv, guint row, guint column)
{
	return ((char **)g_ptr_array_index(csv->rows, row))[column];
}

gboolean report_csv_number(const ReportCsv *csv, guint row, guint column, gboolean allow_empty,
			   double *out, GError **error)
{
	const char *text = report_csv_field(csv, row, column);
	guint line = g_array_index(csv->lines, guint, row);
	char *end;

	if (!*text) {
		if (allow_empty) {
			*out = NAN;
			return TRUE;
		}
		return input_error(error, "%s:%u: column '%s' is empty", csv->path, line,
				   csv->header[column]);
	}
	errno = 0;
	*out = g_ascii_strtod(text, &end);
	if (errno || *end || !isfinite(*out))
		return input_error(error, "%s:%u: column '%s': '%s' is not a number", csv->path,
				   line, csv->header[column], text);
	return TRUE;
}

double *report_csv_numbers(const ReportCsv *csv, const char *const *names, guint n,
			   gboolean allow_empty, GError **error)
{
	g_autofree int *columns = g_new(int, n);
	g_autofree double *values = g_new(double, (gsize)csv->rows->len *n);

	for (guint j = 0; j < n; j++)
		if ((columns[j] = report_csv_column(csv, names[j], error)) < 0)
			return NULL;
	for (guint i = 0; i < csv->rows->len; i++)
		for (guint j = 0; j < n; j++)
			if (!report_csv_number(csv, i, (guint)columns[j], allow_empty,
					       &values[(gsize)i * n + j], error))
				return NULL;
	return g_steal_pointer(&values);
}
