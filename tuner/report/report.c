/*
 * report.c - the report's sections, figures, gnuplot runs and files (see report.h).
 */
#include "tuner/report/report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "tuner/report/report_html.h"

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(tuner-report-error-quark, report_error)
/* clang-format on */

static void figure_free(gpointer data)
{
	ReportFigure *f = data;

	g_free(f->stem);
	g_free(f->data);
	g_free(f->title);
	g_free(f->caption);
	g_free(f);
}

static void section_free(gpointer data)
{
	ReportSection *s = data;

	g_free(s->heading);
	g_free(s->source);
	g_ptr_array_free(s->labels, TRUE);
	g_ptr_array_free(s->values, TRUE);
	g_ptr_array_free(s->figures, TRUE);
	g_free(s);
}

Report *report_new(const char *out_dir, const char *plots_dir)
{
	Report *r = g_new0(Report, 1);

	r->out_dir = g_strdup(out_dir);
	r->plots_dir = g_canonicalize_filename(plots_dir, NULL);
	r->sections = g_ptr_array_new_with_free_func(section_free);
	r->commands = g_string_new(NULL);
	return r;
}

void report_free(Report *r)
{
	if (!r)
		return;
	g_free(r->out_dir);
	g_free(r->plots_dir);
	g_ptr_array_free(r->sections, TRUE);
	g_string_free(r->commands, TRUE);
	g_free(r);
}

/* ---- finding the scripts -------------------------------------------------------------------- */

gboolean report_has_scripts(const char *dir)
{
	g_autofree char *probe = g_build_filename(dir, "calibration.gp", NULL);

	return g_file_test(probe, G_FILE_TEST_IS_REGULAR);
}

char *report_find_plots_dir(GError **error)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);

	if (exe) {
		g_autofree char *bin = g_path_get_dirname(exe);
		/* bin/tuner, and build/VARIANT/bin/tuner of the tests */
		const char *const up[] = { "..", "../../.." };

		for (size_t i = 0; i < G_N_ELEMENTS(up); i++) {
			g_autofree char *dir = g_build_filename(bin, up[i], "plots", NULL);

			if (report_has_scripts(dir))
				return g_canonicalize_filename(dir, NULL);
		}
	}
	if (report_has_scripts("plots"))
		return g_canonicalize_filename("plots", NULL);
	g_set_error(
		error, REPORT_ERROR, REPORT_ERROR_FAILED,
		"cannot find the gnuplot scripts (plots/calibration.gp beside the program's bin/ or in the "
		"current directory); give --plots DIR");
	return NULL;
}

/* ---- sections ------------------------------------------------------------------------------- */

ReportSection *report_section(Report *r, const char *heading, const char *source)
{
	ReportSection *s = g_new0(ReportSection, 1);

	s->heading = g_strdup(heading);
	s->source = g_strdup(source);
	s->labels = g_ptr_array_new_with_free_func(g_free);
	s->values = g_ptr_array_new_with_free_func(g_free);
	s->figures = g_ptr_array_new_with_free_func(figure_free);
	g_ptr_array_add(r->sections, s);
	return s;
}

void report_row(ReportSection *s, const char *label, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(s->labels, g_strdup(label));
	g_ptr_array_add(s->values, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

/* ---- files ---------------------------------------------------------------------------------- */

static gboolean make_out_dir(const Report *r, GError **error)
{
	if (g_mkdir_with_parents(r->out_dir, 0755) == 0)
		return TRUE;

	int e = errno;

	g_set_error(error, REPORT_ERROR, REPORT_ERROR_FAILED, "cannot create %s: %s", r->out_dir,
		    g_strerror(e));
	return FALSE;
}

gboolean report_write_data(const Report *r, const char *name, const char *text, GError **error)
{
	g_autofree char *path = g_build_filename(r->out_dir, name, NULL);
	GError *local = NULL;

	if (!make_out_dir(r, error))
		return FALSE;
	if (g_file_set_contents(path, text, -1, &local))
		return TRUE;
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_FAILED, "%s", local->message);
	g_error_free(local);
	return FALSE;
}

char *report_wrap(const char *text, guint width)
{
	GString *out = g_string_new(NULL);
	glong line = 0;

	for (const char *p = text; *p;) {
		/* The next piece: up to and including the next ", " or "; ". */
		const char *end = p;

		while (*end && !((end[0] == ',' || end[0] == ';') && end[1] == ' '))
			end++;
		if (*end)
			end += 2;

		glong n = g_utf8_strlen(p, end - p);

		if (line > 0 && line + n > (glong)width) {
			while (out->len && out->str[out->len - 1] == ' ')
				g_string_truncate(out, out->len - 1);
			g_string_append_c(out, '\n');
			line = 0;
		}
		g_string_append_len(out, p, end - p);
		line += n;
		p = end;
	}
	return g_string_free(out, FALSE);
}

void report_data_number(GString *line, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append_c(line, ' ');
	g_string_append(line, isfinite(v) ? g_ascii_formatd(buf, sizeof(buf), "%.10g", v) : "NaN");
}

/* ---- gnuplot variables ---------------------------------------------------------------------- */

/* A gnuplot double-quoted string: backslash escapes are interpreted, so a newline in value
 * becomes a line break in a title. */
static void append_quoted(GString *out, const char *value)
{
	g_string_append_c(out, '"');
	for (const char *c = value; *c; c++) {
		if (*c == '"' || *c == '\\')
			g_string_append_printf(out, "\\%c", *c);
		else if (*c == '\n')
			g_string_append(out, "\\n");
		else if (*c == '\t' || *c == '\r')
			g_string_append_c(out, ' ');
		else
			g_string_append_c(out, *c);
	}
	g_string_append_c(out, '"');
}

void report_var_string(GString *vars, const char *name, const char *value)
{
	g_string_append_printf(vars, "%s=", name);
	append_quoted(vars, value ? value : "");
	g_string_append(vars, "; ");
}

void report_var_number(GString *vars, const char *name, double value)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(value))
		g_string_append_printf(vars, "%s=NaN; ", name);
	else
		g_string_append_printf(vars, "%s=%s; ", name,
				       g_ascii_formatd(buf, sizeof(buf), "%.17g", value));
}

/* word() splits on blanks and keeps a double-quoted word whole. The list is one gnuplot string,
 * so each word is quoted twice: once for word(), once for the string holding the list. */
void report_var_words(GString *vars, const char *name, const char *const *words, guint n)
{
	g_autoptr(GString) list = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		if (i)
			g_string_append_c(list, ' ');
		append_quoted(list, words[i]);
	}
	report_var_string(vars, name, list->str);
}

/* ---- gnuplot -------------------------------------------------------------------------------- */

static gboolean output_ok(const Report *r, const char *stem, const char *ext)
{
	g_autofree char *name = g_strconcat(stem, ext, NULL);
	g_autofree char *path = g_build_filename(r->out_dir, name, NULL);
	GStatBuf st;

	return g_stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Pass gnuplot's messages on, one prefixed line each. */
static void relay_stderr(const char *stem, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);

	for (size_t i = 0; lines[i]; i++)
		if (*g_strstrip(lines[i]))
			fprintf(stderr, "tuner report: gnuplot (%s): %s\n", stem, lines[i]);
}

/* The first line that says what went wrong, for the error message. */
static const char *first_error_line(char **lines)
{
	for (size_t i = 0; lines[i]; i++)
		if (g_strrstr(lines[i], "rror") || g_strrstr(lines[i], "annot"))
			return lines[i];
	for (size_t i = 0; lines[i]; i++)
		if (*lines[i])
			return lines[i];
	return "no message";
}

static gboolean run_gnuplot(const Report *r, const char *script_path, const char *expr,
			    const char *stem, GError **error)
{
	const char *argv[] = { "gnuplot", "-e", expr, script_path, NULL };
	g_autofree char *err = NULL;
	GError *local = NULL;
	int wait_status;

	if (!g_spawn_sync(r->out_dir, (char **)argv, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
			  &wait_status, &local)) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_FAILED,
			    "cannot run gnuplot: %s (install gnuplot-nox: make deps)",
			    local->message);
		g_error_free(local);
		return FALSE;
	}
	/* A failure's first error line is in its message: relay only a success's warnings. */
	if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
		g_auto(GStrv) lines = g_strsplit(err ? err : "", "\n", -1);

		g_set_error(error, REPORT_ERROR, REPORT_ERROR_FAILED,
			    "gnuplot failed on %s (%s): %s", stem, script_path,
			    g_strstrip((char *)first_error_line(lines)));
		return FALSE;
	}
	relay_stderr(stem, err);
	return TRUE;
}

gboolean report_plot(Report *r, ReportSection *s, const char *script, const char *data,
		     const char *stem, const char *title, const char *caption, const GString *vars,
		     GError **error)
{
	/* One gnuplot per format: gnuplot 5.4 can crash drawing labels of a datablock a second time
	 * in one session (replot of the contour map), and one run per terminal keeps each script a
	 * single plot. */
	static const char *const formats[] = { "png", "svg" };
	g_autofree char *script_path = g_build_filename(r->plots_dir, script, NULL);
	g_autofree char *q_script = g_shell_quote(script_path);

	if (!g_file_test(script_path, G_FILE_TEST_IS_REGULAR)) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
			    "%s: no such gnuplot script (--plots DIR)", script_path);
		return FALSE;
	}
	if (!make_out_dir(r, error))
		return FALSE;
	for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
		g_autoptr(GString) expr = g_string_new(vars ? vars->str : "");

		report_var_string(expr, "data", data);
		report_var_string(expr, "out", stem);
		report_var_string(expr, "fmt", formats[i]);
		if (!run_gnuplot(r, script_path, expr->str, stem, error))
			return FALSE;

		g_autofree char *q_expr = g_shell_quote(expr->str);

		g_string_append_printf(r->commands, "gnuplot -e %s %s\n", q_expr, q_script);
	}
	if (!output_ok(r, stem, ".png") || !output_ok(r, stem, ".svg")) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_FAILED,
			    "gnuplot wrote no %s.png or %s.svg in %s", stem, stem, r->out_dir);
		return FALSE;
	}

	ReportFigure *f = g_new0(ReportFigure, 1);

	f->number = ++r->n_figures;
	f->stem = g_strdup(stem);
	f->data = g_strdup(data);
	f->title = g_strdup(title);
	f->caption = g_strdup(caption);
	g_ptr_array_add(s->figures, f);
	return TRUE;
}

gboolean report_finish(Report *r, GError **error)
{
	g_autofree char *html = report_html(r);
	g_autoptr(GString) sh = g_string_new(
		"#!/bin/sh\n"
		"# Redraws every figure of this report: sh plot.sh. Each command reads the .dat\n"
		"# files here and writes STEM.png and STEM.svg; edit a script in a copy of plots/\n"
		"# to restyle a figure.\n"
		"cd \"$(dirname \"$0\")\" || exit 1\nset -e\n");

	g_string_append(sh, r->commands->str);
	return report_write_data(r, "index.html", html, error) &&
	       report_write_data(r, "plot.sh", sh->str, error);
}
