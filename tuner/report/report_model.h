/*
 * report_model.h - what a report holds: its sections, their tables of numbers and their figures.
 * report.h builds one; report_html.h shows it as index.html. The types alone, so that the page
 * writer does not depend on the module that calls it.
 */
#ifndef TUNER_REPORT_MODEL_H
#define TUNER_REPORT_MODEL_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	guint number; /* Figure N */
	char *stem;   /* OUT/stem.png and OUT/stem.svg */
	char *data;   /* the data file it plots, in OUT */
	char *title;
	char *caption; /* plain text: what is drawn and its numbers */
} ReportFigure;

typedef struct {
	char *heading;
	char *source;	   /* the directory or file the section was made from */
	GPtrArray *labels; /* char *: the table of numbers, label and value */
	GPtrArray *values;
	GPtrArray *figures; /* ReportFigure * */
} ReportSection;

typedef struct {
	char *out_dir;
	char *plots_dir;     /* absolute */
	GPtrArray *sections; /* ReportSection * */
	guint n_figures;
	GString *commands; /* the gnuplot commands run, for plot.sh */
} Report;

G_END_DECLS

#endif
