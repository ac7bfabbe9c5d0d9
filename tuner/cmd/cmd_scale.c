/*
 * cmd_scale.c - `tuner scale --best result.json --groups 1..20`: does a tuned knob setting keep
 * its advantage as the load grows? (SPEC.md §6)
 *
 * For every hackbench group count the default knobs (the profile's, for the CPUs) and the tuned
 * knobs (best.knobs of a result.json written by tuner pso|golden|grid|random|rsm) are simulated
 * with --replicates seeds S, S+1, ... (the evaluator's rule: the same seeds for both, so that
 * the comparison is paired). Group counts run in parallel (--jobs), each its own simulations, so
 * the numbers do not depend on the number of jobs.
 *
 * Output: a table on stdout and, with --out DIR, DIR/scale.csv
 *
 *     groups,default_jiffies,default_stderr,tuned_jiffies,tuned_stderr,improvement_pct
 *
 * (with --calibration two more columns, default_ms and tuned_ms, the predicted real times), one
 * row per group count, numbers with %.17g; improvement_pct = 100 (default - tuned) / default.
 * DIR/scale.json holds what the rows depend on: the result file, the knobs, the workload settings,
 * the replicates and the seed.
 *
 * result.json is read with tuner/util/json_read.h; only best.knobs is used. The workload flags are
 * those of the tuner's other commands, except --groups (the sweep) and --task (scale is about
 * hackbench groups). When the tuned result's simulator settings (CPUs, profile, HZ, costs) differ
 * from this run's, a note on stderr says so: the knobs may not transfer.
 *
 * Exit status: 0 success, 1 a failed simulation or write, 2 bad input.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linsched/json.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/eval/evaluator.h"
#include "tuner/cmd/group_range.h"
#include "tuner/util/json_read.h"
#include "tuner/util/out_files.h"
#include "tuner/eval/results.h"
#include "tuner/eval/workload.h"

struct scale_cli {
	struct workload_cli wc;
	char *best, *groups, *out;
	gint64 replicates, jobs;
	struct flag_set flags;
};

/* One group count's outcome. */
struct scale_row {
	guint groups;
	EvaluatorResult def, tuned;
	GError *error;
};

struct scale_run {
	struct workload w;
	Knobs def, tuned;
	KnobSet set; /* the knobs of the tuned file: what the tuned runs set */
	guint replicates;
	GArray *groups; /* guint */
	struct scale_row *rows;
	char *best_settings; /* the result's "settings", NULL when absent */
};

static void scale_run_clear(struct scale_run *r)
{
	workload_clear(&r->w);
	if (r->groups) {
		for (guint i = 0; i < r->groups->len; i++)
			if (r->rows[i].error)
				g_error_free(r->rows[i].error);
		g_array_free(r->groups, TRUE);
	}
	g_free(r->rows);
	g_free(r->best_settings);
}

/* ---- the tuned knobs ------------------------------------------------------------------------- */

static gboolean read_best(const char *path, struct scale_run *r, GError **error)
{
	g_autoptr(JsonReadValue) root = NULL;
	const char *settings;

	if (!cmd_read_best(path, &r->tuned, &r->set, &root, error))
		return FALSE;
	if ((settings = json_read_string(root, "settings")))
		r->best_settings = g_strdup(settings);
	return TRUE;
}

/* The simulator part of a settings string (before " workload="). */
static char *simulator_settings(const char *settings)
{
	const char *cut = strstr(settings, " workload=");

	return cut ? g_strndup(settings, (gsize)(cut - settings)) : g_strdup(settings);
}

static void note_mismatch(const struct scale_run *r)
{
	if (!r->best_settings)
		return;

	g_autofree char *theirs = simulator_settings(r->best_settings);
	g_autofree char *ours = simulator_settings(r->w.settings);

	if (strcmp(theirs, ours) != 0)
		fprintf(stderr,
			"tuner scale: note: the knobs were tuned with '%s', this run simulates '%s'\n",
			theirs, ours);
}

/* ---- simulating ------------------------------------------------------------------------------ */

/* A thread pool task: the group count at index data - 1 (0 is not a valid pool item). */
static void simulate_groups(gpointer data, gpointer user_data)
{
	struct scale_run *r = user_data;
	struct scale_row *row = &r->rows[GPOINTER_TO_UINT(data) - 1];
	struct workload w = r->w; /* shares the read-only parts; only the group count differs */
	const Knobs points[2] = { r->def, r->tuned };
	EvaluatorResult results[2];

	w.hb.groups = row->groups;

	EvaluatorConfig config = {
		.objective = workload_objective,
		.objective_ctx = &w,
		.replicates = r->replicates,
		.base_seed = r->w.cfg.seed,
		.jobs = 1,
		.knobs = r->set,
	};

	if (evaluator_run(&config, points, 2, results, NULL, NULL, &row->error)) {
		row->def = results[0];
		row->tuned = results[1];
	}
}

static gboolean simulate(struct scale_run *r, guint jobs, GError **error)
{
	GError *local = NULL;
	GThreadPool *pool = g_thread_pool_new(simulate_groups, r, (gint)jobs, FALSE, &local);

	if (!pool)
		return cmd_relabel(error, CMD_ERROR_FAILED, local, "cannot start threads: ");
	for (guint i = 0; i < r->groups->len; i++)
		g_thread_pool_push(pool, GUINT_TO_POINTER(i + 1), NULL);
	g_thread_pool_free(pool, FALSE, TRUE);
	for (guint i = 0; i < r->groups->len; i++)
		if (r->rows[i].error) {
			g_set_error(error, CMD_ERROR, CMD_ERROR_FAILED, "%u groups: %s",
				    r->rows[i].groups, r->rows[i].error->message);
			return FALSE;
		}
	return TRUE;
}

/* ---- output ---------------------------------------------------------------------------------- */

static double improvement(const struct scale_row *row)
{
	return 100.0 * (row->def.mean - row->tuned.mean) / row->def.mean;
}

static char *csv_text(const struct scale_run *r)
{
	gboolean ms = r->w.calibration != NULL;
	GString *out = g_string_new(
		"groups,default_jiffies,default_stderr,tuned_jiffies,tuned_stderr,improvement_pct");

	g_string_append(out, ms ? ",default_ms,tuned_ms\n" : "\n");
	for (guint i = 0; i < r->groups->len; i++) {
		const struct scale_row *row = &r->rows[i];

		g_string_append_printf(out, "%u,%.17g,%.17g,%.17g,%.17g,%.17g", row->groups,
				       row->def.mean, row->def.std_error, row->tuned.mean,
				       row->tuned.std_error, improvement(row));
		if (ms)
			g_string_append_printf(out, ",%.17g,%.17g",
					       workload_predict_ms(&r->w, row->def.mean),
					       workload_predict_ms(&r->w, row->tuned.mean));
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

static char *json_text(const struct scale_cli *c, const struct scale_run *r)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "command");
	json_string(&w, "scale");
	json_key(&w, "best_file");
	json_string(&w, c->best);
	json_key(&w, "settings");
	json_string(&w, r->w.settings);
	json_key(&w, "replicates");
	json_uint(&w, r->replicates);
	json_key(&w, "seed");
	json_uint(&w, r->w.cfg.seed);
	json_key(&w, "unit");
	json_string(&w, "jiffies");
	json_key(&w, "default");
	results_json_knobs(&w, &r->def, r->set);
	json_key(&w, "tuned");
	results_json_knobs(&w, &r->tuned, r->set);
	json_end_object(&w);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

/* scale.csv and scale.json into --out (created). */
static gboolean write_out(const struct scale_cli *c, const struct scale_run *r, GError **error)
{
	static const char *const names[] = { "scale.csv", "scale.json" };
	char *contents[G_N_ELEMENTS(names)] = { csv_text(r), json_text(c, r) };
	GError *local = NULL;
	gboolean ok = out_files_write(c->out, names, contents, G_N_ELEMENTS(names), &local);

	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		g_free(contents[i]);
	return ok || cmd_relabel(error, CMD_ERROR_FAILED, local, "--out: ");
}

static void print_table(const struct scale_run *r)
{
	GString *def = g_string_new(NULL), *tuned = g_string_new(NULL);

	for (int k = 0; k < KNOB_COUNT; k++) {
		if (!(r->set & KNOB_BIT(k)))
			continue;
		g_string_append_printf(def, "%s%s %.0f", def->len ? ", " : "",
				       knob_name((enum knob)k), knob_get(&r->def, (enum knob)k));
		g_string_append_printf(tuned, "%s%s %.0f", tuned->len ? ", " : "",
				       knob_name((enum knob)k), knob_get(&r->tuned, (enum knob)k));
	}
	printf("tuner scale: default knobs (%s ns)\n             tuned knobs   (%s ns)\n", def->str,
	       tuned->str);
	g_string_free(def, TRUE);
	g_string_free(tuned, TRUE);
	printf("turnaround in jiffies, the mean of %u replicate%s\n\n%8s %16s %16s %13s\n",
	       r->replicates, r->replicates == 1 ? "" : "s", "groups", "default", "tuned",
	       "improvement");
	for (guint i = 0; i < r->groups->len; i++) {
		const struct scale_row *row = &r->rows[i];

		printf("%8u %16.6g %16.6g %12.2f%%\n", row->groups, row->def.mean, row->tuned.mean,
		       improvement(row));
	}
}

/* ---- the command ----------------------------------------------------------------------------- */

static gboolean prepare(const struct scale_cli *c, struct scale_run *r, GError **error)
{
	GError *local = NULL;

	if (!c->best)
		return cmd_usage(
			error,
			"--best: required (a result.json of tuner pso, golden, grid, random or rsm)");
	if (c->wc.tasks)
		return cmd_usage(error,
				 "--task: scale sweeps hackbench groups; it takes no --task");
	if (!cmd_prepare_out(c->out, error))
		return FALSE;
	r->replicates = (guint)c->replicates;
	if (!(r->groups = group_range_parse("--groups", c->groups ? c->groups : "1..20", &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	r->rows = g_new0(struct scale_row, r->groups->len);
	for (guint i = 0; i < r->groups->len; i++)
		r->rows[i].groups = g_array_index(r->groups, guint, i);
	if (!read_best(c->best, r, error))
		return FALSE;
	if (!workload_finish(&c->wc, &r->w, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	for (int k = 0; k < KNOB_COUNT; k++)
		if ((r->set & KNOB_BIT(k)) && !knob_in_profile((enum knob)k, r->w.cfg.profile))
			return cmd_usage(error,
					 "--best: %s has %s, which the %s profile's kernel "
					 "lacks",
					 c->best, knob_info((enum knob)k)->column,
					 r->w.cfg.profile->name);
	if (!cmd_check_knob_set(&c->wc.sim, r->w.cfg.profile, r->set, error))
		return FALSE;
	r->w.knobs = r->set;
	r->def = workload_default_knobs(&r->w);
	return TRUE;
}

static void add_options(struct scale_cli *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "best", 'b', 0, G_OPTION_ARG_FILENAME, &c->best,
		  "result.json of tuner pso|golden|grid|random|rsm: its best.knobs are the tuned knobs",
		  "FILE" },
		{ "groups", 'g', 0, G_OPTION_ARG_STRING, &c->groups,
		  "Group counts: 1..20 (default), 2..20:2, 1,2,4,8", "LIST" },
		{ "loops", 'l', 0, G_OPTION_ARG_INT64, &c->wc.hb.loops,
		  "Messages each sender sends each receiver (default 100)", "L" },
		{ "replicates", 'r', 0, G_OPTION_ARG_INT64, &c->replicates,
		  "Simulations per point with seeds S, S+1, ...; the turnaround is their mean (default 1)",
		  "R" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT64, &c->jobs,
		  "Group counts simulated at once (default: the number of cores)", "J" },
		{ "calibration", 0, 0, G_OPTION_ARG_FILENAME, &c->wc.calibration,
		  "calibration.ini from tuner calibrate: also write predicted real milliseconds",
		  "FILE" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
		  "Write DIR/scale.csv and DIR/scale.json", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c->wc.hb.loops, 1, 1000000000), /* as linsched hackbench's */
		FLAG_INT(&c->replicates, 1, 100000),
		FLAG_INT(&c->jobs, 1, 4096),
	};

	flag_add_main_entries(&c->flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_add_group(ctx, hackbench_cli_group(&c->wc.hb, false));
	g_option_context_add_group(ctx, linsched_cli_group(&c->wc.sim));
}

int tuner_cmd_scale(int argc, char **argv)
{
	struct scale_cli c = { .replicates = 1 };
	struct scale_run r = { 0 };
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- default vs tuned turnaround over hackbench group counts");
	g_autoptr(GError) error = NULL;
	int status = 0;

	workload_cli_init(&c.wc);
	flag_set_init(&c.flags);
	add_options(&c, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !prepare(&c, &r, &error) ||
	    !simulate(&r, flag_given(&c.flags, &c.jobs) ? (guint)c.jobs : evaluator_default_jobs(),
		      &error) ||
	    (c.out && !write_out(&c, &r, &error))) {
		status = cmd_fail_status("scale", error);
	} else {
		note_mismatch(&r);
		print_table(&r);
		if (c.out)
			printf("\nwrote %s/scale.csv and %s/scale.json\n", c.out, c.out);
	}
	scale_run_clear(&r);
	workload_cli_clear(&c.wc);
	flag_set_clear(&c.flags);
	g_free(c.best);
	g_free(c.groups);
	g_free(c.out);
	return status;
}
