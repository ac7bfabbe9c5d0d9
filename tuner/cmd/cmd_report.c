/*
 * cmd_report.c - `tuner report DIR...`: figures for every result (SPEC.md §6).
 *
 * Each DIR is searched for the files the other commands write; what is found decides what is drawn
 * (tuner/report/report_sources.h):
 *   calibration.csv + calibration.ini       tuner calibrate
 *   history.csv (+ result.json)             tuner pso|golden|grid|random: one convergence plot
 *                                           overlays every such DIR
 *   design.csv + surface.csv + result.json  tuner rsm, tuner meta-pso (+ boxcox.csv)
 *   scale.csv (+ scale.json)                tuner scale
 *   validate.csv + validate.json            tuner validate
 *   trace.txt                               linsched hackbench --trace DIR/trace.txt
 * A DIR holding none of them is an error, and so is any file that is there but malformed: a report
 * that silently leaves a result out would mislead.
 *
 * Figures go to --out DIR (default: the only DIR given; with several, --out is required) with
 * index.html and plot.sh (tuner/report/report.h). With several input directories, figure names
 * start with the directory's name so that they cannot collide. Sections come in the order of the method:
 * calibration, convergence, response surface, scale, timeline.
 *
 * Exit status: 0 success, 1 gnuplot or a write failed, 2 bad input (one line on stderr naming the
 * file and line).
 */
#include <stdio.h>
#include <string.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/report/report.h"
#include "tuner/report/report_sources.h"

#define DEFAULT_GANTT_MS 20
#define MAX_GANTT_MS	 3600000

struct report_cli {
	char *out, *trace, *plots;
	gint64 gantt_ms;
	char **dirs;
};

/* What a directory holds. */
struct found {
	const char *dir;
	char *prefix;
	gboolean calibration, history, rsm, scale, validate, trace;
};

static gboolean has(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	return g_file_test(path, G_FILE_TEST_EXISTS);
}

static gboolean inspect(const char *dir, struct found *f, GError **error)
{
	f->dir = dir;
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s: no such directory", dir);
		return FALSE;
	}
	f->calibration = has(dir, "calibration.csv") || has(dir, "calibration.ini");
	f->history = has(dir, "history.csv");
	f->rsm = has(dir, "design.csv") || has(dir, "surface.csv");
	f->scale = has(dir, "scale.csv");
	f->validate = has(dir, "validate.csv");
	f->trace = has(dir, "trace.txt");
	if (!f->calibration && !f->history && !f->rsm && !f->scale && !f->validate && !f->trace) {
		g_set_error(
			error, REPORT_ERROR, REPORT_ERROR_INPUT,
			"%s: no result files (calibration.csv, history.csv, design.csv, surface.csv, scale.csv, validate.csv or "
			"trace.txt)",
			dir);
		return FALSE;
	}
	return TRUE;
}

/* "name-" from the directory's last component, letters, digits, '.', '_' and '-' only, made
 * distinct from the ones before it with "-2", "-3", ... */
static char *make_prefix(const char *dir, GHashTable *used)
{
	g_autofree char *canon = g_canonicalize_filename(dir, NULL);
	g_autofree char *base = g_path_get_basename(canon);

	for (char *c = base; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '.' && *c != '_' && *c != '-')
			*c = '_';

	char *prefix = g_strdup_printf("%s-", base);

	for (guint i = 2; g_hash_table_contains(used, prefix); i++) {
		g_free(prefix);
		prefix = g_strdup_printf("%s-%u-", base, i);
	}
	g_hash_table_add(used, g_strdup(prefix));
	return prefix;
}

static gboolean draw_all(Report *r, const struct report_cli *c, struct found *found, guint n,
			 GError **error)
{
	g_autoptr(GPtrArray) history = g_ptr_array_new();
	gboolean several = n + (c->trace != NULL) > 1;

	for (guint i = 0; i < n; i++)
		if (found[i].calibration &&
		    !report_calibration(r, found[i].dir, found[i].prefix, error))
			return FALSE;
	for (guint i = 0; i < n; i++)
		if (found[i].history)
			g_ptr_array_add(history, (gpointer)found[i].dir);
	if (history->len &&
	    !report_convergence(r, (const char *const *)history->pdata, history->len, "", error))
		return FALSE;
	for (guint i = 0; i < n; i++)
		if (found[i].rsm && !report_rsm(r, found[i].dir, found[i].prefix, error))
			return FALSE;
	for (guint i = 0; i < n; i++)
		if (found[i].scale && !report_scale(r, found[i].dir, found[i].prefix, error))
			return FALSE;
	for (guint i = 0; i < n; i++)
		if (found[i].validate && !report_validate(r, found[i].dir, found[i].prefix, error))
			return FALSE;
	for (guint i = 0; i < n; i++) {
		g_autofree char *trace = g_build_filename(found[i].dir, "trace.txt", NULL);

		if (found[i].trace &&
		    !report_gantt(r, trace, (guint)c->gantt_ms, found[i].prefix, error))
			return FALSE;
	}
	if (c->trace &&
	    !report_gantt(r, c->trace, (guint)c->gantt_ms, several ? "trace-" : "", error))
		return FALSE;
	return TRUE;
}

static int run(const struct report_cli *c, GError **error)
{
	guint n = c->dirs ? g_strv_length(c->dirs) : 0;
	g_autofree struct found *found = g_new0(struct found, n ? n : 1);
	g_autoptr(GHashTable) used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree char *plots = NULL;
	const char *out = c->out;
	gboolean ok = TRUE;

	if (!out && n == 1)
		out = c->dirs[0];
	if (!out) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "--out: required with %s",
			    n ? "several directories" : "--trace and no directory");
		return 2;
	}
	for (guint i = 0; i < n && ok; i++) {
		ok = inspect(c->dirs[i], &found[i], error);
		found[i].prefix =
			n + (c->trace != NULL) > 1 ? make_prefix(c->dirs[i], used) : g_strdup("");
	}
	if (ok)
		plots = c->plots ? g_strdup(c->plots) : report_find_plots_dir(error);
	if (ok && plots) {
		g_autoptr(Report) r = report_new(out, plots);

		ok = draw_all(r, c, found, n, error) && report_finish(r, error);
		if (ok)
			printf("tuner report: %u figure%s, see %s/index.html\n", r->n_figures,
			       r->n_figures == 1 ? "" : "s", out);
	}
	for (guint i = 0; i < n; i++)
		g_free(found[i].prefix);
	if (ok && plots)
		return 0;
	return (*error)->domain == REPORT_ERROR && (*error)->code == REPORT_ERROR_INPUT ? 2 : 1;
}

static gboolean check_flags(const struct report_cli *c, GError **error)
{
	if (!c->dirs && !c->trace)
		return cmd_usage(error, "give at least one result directory (or --trace FILE)");
	if (c->plots && !report_has_scripts(c->plots))
		return cmd_usage(error, "--plots: %s holds no gnuplot scripts (no calibration.gp)",
				 c->plots);
	return cmd_prepare_out(c->out, error);
}

int tuner_cmd_report(int argc, char **argv)
{
	struct report_cli c = { .gantt_ms = DEFAULT_GANTT_MS };
	struct flag_set flags;
	const GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c.out,
		  "Write the figures, index.html and plot.sh here (default: the only DIR)", "DIR" },
		{ "gantt-ms", 0, 0, G_OPTION_ARG_INT64, &c.gantt_ms,
		  "The per-CPU timeline shows the first MS milliseconds of a trace (default 20)",
		  "MS" },
		{ "trace", 0, 0, G_OPTION_ARG_FILENAME, &c.trace,
		  "Also draw the timeline of this ftrace text trace (linsched --trace FILE)",
		  "FILE" },
		{ "plots", 0, 0, G_OPTION_ARG_FILENAME, &c.plots,
		  "The directory of the gnuplot scripts (default: plots/ beside the program's bin/)",
		  "DIR" },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &c.dirs, NULL, "DIR..." },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = { FLAG_INT(&c.gantt_ms, 1, MAX_GANTT_MS) };
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"- figures (PNG and SVG) and index.html for result directories");
	g_autoptr(GError) error = NULL;
	int status;

	flag_set_init(&flags);
	flag_add_main_entries(&flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_set_description(
		ctx,
		"Each DIR is searched for calibration.csv/.ini (tuner calibrate), history.csv and result.json (tuner\n"
		"pso|golden|grid|random; several are overlaid on one convergence plot), design.csv, surface.csv,\n"
		"boxcox.csv and result.json (tuner rsm), scale.csv (tuner scale), validate.csv (tuner validate) and trace.txt (linsched --trace).");
	if (!cmd_parse(ctx, &argc, &argv, &error) || !check_flags(&c, &error))
		status = cmd_fail_status("report", error);
	else if ((status = run(&c, &error)) != 0)
		fprintf(stderr, "tuner report: %s\n", error->message);
	g_free(c.out);
	g_free(c.trace);
	g_free(c.plots);
	g_strfreev(c.dirs);
	flag_set_clear(&flags);
	return status;
}
