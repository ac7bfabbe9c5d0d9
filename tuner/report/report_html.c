/*
 * report_html.c - index.html (see report_html.h).
 */
#include "tuner/report/report_html.h"

static const char style[] =
	"body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
	"h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-top:1em}"
	"table{border-collapse:collapse;margin:.5em 0}td{padding:.15em .8em;border-bottom:1px solid #eee;"
	"vertical-align:top}td:first-child{color:#555}"
	"figure{margin:1.5em 0}img{max-width:100%;height:auto;border:1px solid #ddd}"
	"figcaption{margin-top:.3em}.source{color:#666;font-size:.9em}code{font-size:.9em}";

static void escaped(GString *out, const char *text)
{
	g_autofree char *e = g_markup_escape_text(text ? text : "", -1);

	g_string_append(out, e);
}

static void contents(GString *out, const Report *r)
{
	g_string_append(out, "<h2>Figures</h2>\n<ol>\n");
	for (guint i = 0; i < r->sections->len; i++) {
		const ReportSection *s = g_ptr_array_index(r->sections, i);

		for (guint j = 0; j < s->figures->len; j++) {
			const ReportFigure *f = g_ptr_array_index(s->figures, j);

			g_string_append_printf(out, "<li value=\"%u\"><a href=\"#figure-%u\">",
					       f->number, f->number);
			escaped(out, f->title);
			g_string_append(out, "</a></li>\n");
		}
	}
	g_string_append(out, "</ol>\n");
}

static void table(GString *out, const ReportSection *s)
{
	if (!s->labels->len)
		return;
	g_string_append(out, "<table>\n");
	for (guint i = 0; i < s->labels->len; i++) {
		g_string_append(out, "<tr><td>");
		escaped(out, g_ptr_array_index(s->labels, i));
		g_string_append(out, "</td><td>");
		escaped(out, g_ptr_array_index(s->values, i));
		g_string_append(out, "</td></tr>\n");
	}
	g_string_append(out, "</table>\n");
}

static void figure(GString *out, const ReportFigure *f)
{
	g_autofree char *stem = g_markup_escape_text(f->stem, -1);

	g_string_append_printf(
		out,
		"<figure id=\"figure-%u\">\n<a href=\"%s.svg\"><img src=\"%s.png\" width=\"800\" "
		"height=\"600\" alt=\"",
		f->number, stem, stem);
	escaped(out, f->title);
	g_string_append_printf(out, "\"></a>\n<figcaption><b>Figure %u.</b> ", f->number);
	escaped(out, f->title);
	g_string_append(out, ". ");
	escaped(out, f->caption);
	g_autofree char *data = g_markup_escape_text(f->data, -1);

	g_string_append_printf(
		out,
		" <a href=\"%s.svg\">SVG</a>, <a href=\"%s\">data</a>.</figcaption>\n"
		"</figure>\n",
		stem, data);
}

char *report_html(const Report *r)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(
		out,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>LinSched-Tuner report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>LinSched-Tuner report</h1>\n",
		style);
	g_string_append_printf(
		out,
		"<p>%u figure%s, each as PNG (shown) and SVG. <code>sh plot.sh</code> in this "
		"directory redraws them from the <code>.dat</code> files with the gnuplot scripts.</p>\n",
		r->n_figures, r->n_figures == 1 ? "" : "s");
	contents(out, r);
	for (guint i = 0; i < r->sections->len; i++) {
		const ReportSection *s = g_ptr_array_index(r->sections, i);

		g_string_append(out, "<h2>");
		escaped(out, s->heading);
		g_string_append(out, "</h2>\n<p class=\"source\">From <code>");
		escaped(out, s->source);
		g_string_append(out, "</code></p>\n");
		table(out, s);
		for (guint j = 0; j < s->figures->len; j++)
			figure(out, g_ptr_array_index(s->figures, j));
	}
	g_string_append(out, "</body>\n</html>\n");
	return g_string_free(out, FALSE);
}
