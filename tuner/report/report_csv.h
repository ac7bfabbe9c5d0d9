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
 * The header is checked when the file is read: every name non-empty, made of letters, digits and
 * '_', and no name twice ("DIR/history.csv:1: header: 'value' appears twice"). What the values
 * may be is each file's business, declared as a table of ReportCsvColumn and checked by
 * report_csv_check: a value that no run can have (a negative time, a knob of 1e400, an evaluation
 * number seen before) is an error naming the file, line and column, not a figure drawn from it.
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

/* What a column may hold. */
typedef enum {
	REPORT_CSV_FINITE,   /* any finite number (a residual, an improvement in %, a coded x) */
	REPORT_CSV_POSITIVE, /* > 0: a time, an objective value */
	REPORT_CSV_NONNEG,   /* >= 0: a standard error, a start time, a p-value's inputs */
	REPORT_CSV_WHOLE,    /* a whole number >= 0: an iteration, a round */
	REPORT_CSV_COUNT,    /* a whole number >= 1: a group count */
	REPORT_CSV_KEY,	     /* a whole number >= 0 that no other row has: an evaluation, a run */
	REPORT_CSV_KNOB, /* a knob in nanoseconds, inside its sysctl range (the column names it) */
	REPORT_CSV_FLAG, /* 0 or 1 */
} ReportCsvKind;

typedef struct {
	const char *name;
	ReportCsvKind kind;
	gboolean optional;    /* the column may be absent (an older or a narrower file) */
	gboolean allow_empty; /* a field may be empty (no number for that row) */
} ReportCsvColumn;

/* Check every row against columns: a required column missing from the header, a field that is
 * not a number, or one outside its kind, is an error naming the file, line and column. */
gboolean report_csv_check(const ReportCsv *csv, const ReportCsvColumn *columns, guint n,
			  GError **error);

/* Every row's numbers in the named columns, row-major into a new array of rows * n values
 * (g_free); NULL with an error at the first missing column or bad field. */
double *report_csv_numbers(const ReportCsv *csv, const char *const *names, guint n,
			   gboolean allow_empty, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ReportCsv, report_csv_free)

G_END_DECLS

#endif /* TUNER_REPORT_CSV_H */
