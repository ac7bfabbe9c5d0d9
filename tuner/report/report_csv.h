/*
 * report_csv.h - reading the CSV files the programs write (calibration.csv, history.csv,
 * design.csv, surface.csv, boxcox.csv, scale.csv) for the report, with errors that name the file
 * and the line.
 *
 * The files follow one convention (rsm_files.h): a header line, one record a line, fields
 * separated by commas and never quoted, numbers in C locale, an empty field where there is no
 * number. Blank lines are skipped; a CR before the newline is ignored.
 *
 * Errors (REPORT_ERROR_INPUT, report.h) are one line: "DIR/history.csv: cannot read: No such
 * file or directory", "DIR/history.csv:1: no column 'best' in the header",
 * "DIR/history.csv:7: 8 fields, the header has 9", "DIR/history.csv:7: column 'value': 'abc' is
 * not a number".
 *
 * Ownership: a ReportCsv belongs to the caller (report_csv_free) and keeps its own copy of the text.
 */
#ifndef TUNER_REPORT_CSV_H
#define TUNER_REPORT_CSV_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	char *path;
	char **header; /* n_columns names */
	guint n_columns;
	GPtrArray *rows; /* char ** of n_columns fields each (owned) */
	GArray *lines;	 /* guint: the line number of each row, for errors */
} ReportCsv;

/* Read a whole file. A missing file, no header line, a row with another number of fields than the
 * header, or no rows at all is an error. */
ReportCsv *report_csv_read(const char *path, GError **error);
void report_csv_free(ReportCsv *csv);

/* Index of the column called name, or -1 with an error naming the file. */
int report_csv_column(const ReportCsv *csv, const char *name, GError **error);

/* The field of a row and column. */
const char *report_csv_field(const ReportCsv *csv, guint row, guint column);

/* The number in a field; an empty field reads as NaN when allow_empty, else is an error, as is any
 * text that is not a finite number. */
gboolean report_csv_number(const ReportCsv *csv, guint row, guint column, gboolean allow_empty,
			   double *out, GError **error);

/* Every row's numbers in the named columns, row-major into a new array of rows * n values
 * (g_free); NULL with an error at the first missing column or bad field. */
double *report_csv_numbers(const ReportCsv *csv, const char *const *names, guint n,
			   gboolean allow_empty, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ReportCsv, report_csv_free)

G_END_DECLS

#endif /* TUNER_REPORT_CSV_H */
