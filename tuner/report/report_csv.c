/*
 * report_csv.c - CSV files for the report (see report_csv.h).
 */
#include "tuner/report/report_csv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tuner/knobs/knobs.h"
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

/* Every name non-empty, of [A-Za-z0-9_], and none twice: a header a program wrote. */
static gboolean check_header(const ReportCsv *csv, char **names, guint n, GError **error)
{
	for (guint i = 0; i < n; i++) {
		if (!names[i][0])
			return input_error(error, "%s:1: header: column %u has no name", csv->path,
					   i + 1);
		for (const char *c = names[i]; *c; c++)
			if (!g_ascii_isalnum(*c) && *c != '_')
				return input_error(error, "%s:1: header: '%s' is not a column name",
						   csv->path, names[i]);
		for (guint j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) == 0)
				return input_error(error, "%s:1: header: '%s' appears twice",
						   csv->path, names[i]);
	}
	return TRUE;
}

static gboolean add_line(ReportCsv *csv, char *line, guint number, GError **error)
{
	char **fields = g_strsplit(line, ",", -1);
	guint n = g_strv_length(fields);

	for (guint i = 0; i < n; i++)
		g_strstrip(fields[i]);
	if (!csv->header) {
		if (!check_header(csv, fields, n, error)) {
			g_strfreev(fields);
			return FALSE;
		}
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

/* Why v cannot be in a column of kind (for knobs: named name), or NULL. */
static const char *out_of_kind(ReportCsvKind kind, const char *name, double v, char buf[128])
{
	enum knob k;

	switch (kind) {
	case REPORT_CSV_FINITE:
		return NULL;
	case REPORT_CSV_POSITIVE:
		return v > 0 ? NULL : "must be > 0";
	case REPORT_CSV_NONNEG:
		return v >= 0 ? NULL : "must be >= 0";
	case REPORT_CSV_WHOLE:
		return v >= 0 && v == floor(v) ? NULL : "must be a whole number >= 0";
	case REPORT_CSV_COUNT:
		return v >= 1 && v == floor(v) ? NULL : "must be a whole number >= 1";
	case REPORT_CSV_KEY:
		return v >= 0 && v == floor(v) ? NULL : "must be a whole number >= 0";
	case REPORT_CSV_FLAG:
		return v == 0 || v == 1 ? NULL : "must be 0 or 1";
	case REPORT_CSV_KNOB:
		if (!knob_from_name(name, &k))
			return "is no knob";
		if (v >= (double)knob_info(k)->min_ns && v <= (double)knob_info(k)->max_ns &&
		    v == floor(v))
			return NULL;
		g_snprintf(buf, 128,
			   "must be whole nanoseconds in the knob's range %" G_GUINT64_FORMAT
			   "..%" G_GUINT64_FORMAT,
			   knob_info(k)->min_ns, knob_info(k)->max_ns);
		return buf;
	}
	return "has an unknown kind";
}

gboolean report_csv_check(const ReportCsv *csv, const ReportCsvColumn *columns, guint n,
			  GError **error)
{
	for (guint j = 0; j < n; j++) {
		const ReportCsvColumn *c = &columns[j];
		int col = -1;

		for (guint i = 0; i < csv->n_columns && col < 0; i++)
			if (strcmp(csv->header[i], c->name) == 0)
				col = (int)i;
		if (col < 0) {
			if (c->optional)
				continue;
			return report_csv_column(csv, c->name, error) >= 0;
		}
		g_autoptr(GHashTable) seen = g_hash_table_new(g_double_hash, g_double_equal);
		g_autofree double *keys = g_new(double, csv->rows->len);

		for (guint i = 0; i < csv->rows->len; i++) {
			guint line = g_array_index(csv->lines, guint, i);
			char buf[128];
			const char *why;
			double *v = &keys[i];

			if (!report_csv_number(csv, i, (guint)col, c->allow_empty, v, error))
				return FALSE;
			if (isnan(*v))
				continue; /* an empty field, allowed */
			if ((why = out_of_kind(c->kind, c->name, *v, buf)))
				return input_error(error, "%s:%u: column '%s': %s %s", csv->path,
						   line, c->name,
						   report_csv_field(csv, i, (guint)col), why);
			if (c->kind != REPORT_CSV_KEY)
				continue;
			guint *first = g_hash_table_lookup(seen, v);
			if (first)
				return input_error(error,
						   "%s:%u: column '%s': %s again (line %u has it)",
						   csv->path, line, c->name,
						   report_csv_field(csv, i, (guint)col), *first);
			g_hash_table_insert(seen, v, &g_array_index(csv->lines, guint, i));
		}
	}
	return TRUE;
}
