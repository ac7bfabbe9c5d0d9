/*
 * report_html.h - index.html of a report (report_model.h): one page, no scripts and no outside
 * resources, so that it opens from the directory in any browser and can be mailed as a folder.
 *
 * The page lists the figures, then each section: its heading and source, its table of numbers,
 * and its figures, each the PNG (linking to the SVG) under "Figure N. title" with its caption.
 * Every text from an input is escaped.
 */
#ifndef TUNER_REPORT_HTML_H
#define TUNER_REPORT_HTML_H

#include "tuner/report/report_model.h"

G_BEGIN_DECLS

/* The page (owned by the caller). */
char *report_html(const Report *r);

G_END_DECLS

#endif /* TUNER_REPORT_HTML_H */
