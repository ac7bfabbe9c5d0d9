/*
 * report.h - a report under construction: the output directory, the figures drawn into it by
 * gnuplot, and the sections of index.html that show them with their numbers (SPEC.md §6).
 *
 * The figure modules (report_sources.h) read the programs' files, write what a figure plots as a
 * whitespace-separated data file into the output directory (report_write_data), and draw it with
 * one of the scripts in plots/ (report_plot). Each script takes its inputs as gnuplot variables
 * (`gnuplot -e "data='x.dat'; out='x'; fmt='png'" plots/x.gp`) and writes out.png (pngcairo) or,
 * with fmt='svg', out.svg, both 800x600. gnuplot runs in the output directory, so every path it
 * sees is relative to it; report_finish writes plot.sh there, the exact commands, so that a
 * reader can redraw or restyle any figure by hand.
 *
 * Figures are numbered in the order they are drawn. A section groups the figures and numbers of
 * one input (a calibration, an optimizer run, a response surface, a scale run, a trace); index.html
 * shows each section's table of numbers, then its figures with "Figure N. title" and a caption.
 *
 * Errors (REPORT_ERROR): REPORT_ERROR_INPUT for a missing or malformed input, the message naming
 * the file and, for a CSV, the line (the command's exit status 2); REPORT_ERROR_FAILED when gnuplot
 * or a write fails (exit status 1).
 *
 * Ownership: a Report belongs to the caller (report_free); sections and figures belong to their
 * report. Nothing here is global: reports can be built in parallel threads.
 */
#ifndef TUNER_REPORT_H
#define TUNER_REPORT_H

#include <glib.h>

#include "tuner/report/report_model.h"

G_BEGIN_DECLS

#define REPORT_ERROR (report_error_quark())

typedef enum {
	REPORT_ERROR_INPUT,  /* an input file is missing or malformed */
	REPORT_ERROR_FAILED, /* gnuplot failed, or a file could not be written */
} ReportError;

GQuark report_error_quark(void);

/* A new, empty report drawing into out_dir (created with its parents by report_finish and
 * report_write_data) with the scripts of plots_dir. */
Report *report_new(const char *out_dir, const char *plots_dir);
void report_free(Report *r);

/* The plots/ directory holding the scripts: beside the program's bin/ (bin/tuner -> plots/,
 * build/VARIANT/bin/tuner -> plots/), else ./plots. NULL with REPORT_ERROR_FAILED when none holds
 * calibration.gp. Owned by the caller. */
char *report_find_plots_dir(GError **error);
/* Whether dir holds the scripts (calibration.gp among them). */
gboolean report_has_scripts(const char *dir);

/* A new section at the end of the report. */
ReportSection *report_section(Report *r, const char *heading, const char *source);

/* A row of the section's table. */
void report_row(ReportSection *s, const char *label, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Write OUT/name (creating OUT); FALSE with REPORT_ERROR_FAILED naming the file. */
gboolean report_write_data(const Report *r, const char *name, const char *text, GError **error);

/* text with newlines put after ", " or "; " so that no line is longer than width characters
 * (a longer piece stays whole): for titles that must fit the figure. Owned by the caller. */
char *report_wrap(const char *text, guint width);

/* Appends " v" to a data line: %.10g, or NaN (which gnuplot skips) when v is not finite. */
void report_data_number(GString *line, double v);

/* Appends `name="value"; ` to vars, value quoted for gnuplot: a newline in it breaks the line of a
 * title. */
void report_var_string(GString *vars, const char *name, const char *value);
/* Appends `name=value; ` with 17 significant digits; NaN and infinities as NaN. */
void report_var_number(GString *vars, const char *name, double value);
/* Appends `name="w1" "w2" ...; `: a list for gnuplot's word() and words(). */
void report_var_words(GString *vars, const char *name, const char *const *words, guint n);

/*
 * Draw a figure: runs `gnuplot -e 'VARS data="DATA"; out="STEM"; fmt="png"' PLOTS/script`, then
 * the same with fmt="svg", in the output directory, and checks that they wrote STEM.png and
 * STEM.svg, both non-empty. data names the data file in the output directory (several figures
 * may share one). What gnuplot prints on stderr is passed on to ours, prefixed with the figure.
 * Adds the figure to section s with the next number. FALSE with REPORT_ERROR_FAILED (gnuplot's
 * first error line) when it fails.
 */
gboolean report_plot(Report *r, ReportSection *s, const char *script, const char *data,
		     const char *stem, const char *title, const char *caption, const GString *vars,
		     GError **error);

/* Write OUT/index.html and OUT/plot.sh. */
gboolean report_finish(Report *r, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Report, report_free)

G_END_DECLS

#endif /* TUNER_REPORT_H */
