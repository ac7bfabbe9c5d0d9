/*
 * cmd_calibrate.c - `tuner calibrate`: map simulated jiffies to real milliseconds.
 *
 * Runs the real benchmark R times for each group count, simulates the same workloads, and fits
 * real_ms = a + b * sim_jiffies by least squares on the per-group means (also reported over every
 * individual run). For the bootstrapped model it first measures that model's inputs from real runs
 * of one group alone and two groups together. Nothing is written unless every run succeeded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gsl/gsl_statistics_double.h>

#include "linsched/cli.h"
#include "linsched/hackbench_cli.h"
#include "tuner/calibration_io.h"
#include "tuner/commands.h"
#include "tuner/group_range.h"
#include "tuner/progress.h"
#include "tuner/realbench.h"
#include "tuner/regression.h"

struct calibrate_run {
	GArray *groups;                  /* guint */
	guint loops, repeat;
	Realbench *bench;
	RealbenchWorkload workload;
	struct hackbench_params params;
	struct linsched_config cfg;
	struct progress progress;
	unsigned int done;
};

int tuner_usage_error(const char *cmd, const char *message)
{
	fprintf(stderr, "tuner %s: %s\n", cmd, message);
	return 2;
}

/* R real runs of G groups; their times in ms. */
static gboolean real_runs(struct calibrate_run *run, guint groups, double *ms, GError **error)
{
	RealbenchWorkload w = run->workload;

	w.groups = groups;
	for (guint r = 0; r < run->repeat; r++) {
		g_autofree char *what = g_strdup_printf("real run, %u groups (%u/%u)", groups, r + 1, run->repeat);

		progress_update(&run->progress, run->done, what);
		if (!realbench_run(run->bench, &w, &ms[r], error))
			return FALSE;
		run->done++;
	}
	return TRUE;
}

static double mean_of(const double *v, size_t n)
{
	return gsl_stats_mean(v, 1, n);
}

static double sim_jiffies(struct calibrate_run *run, guint groups)
{
	struct hackbench_params p = run->params;
	struct hackbench_outcome out;

	p.groups = groups;
	hackbench_simulate(&run->cfg, &p, &out);
	/* Fractional jiffies: the regression should not see the tick's rounding. */
	return (double)out.runtime_ns * run->cfg.hz / 1e9;
}

/*
 * The bootstrapped model's inputs: Solo is one group's real runtime alone; the degradation is
 * RuntimeAlone / RuntimeCombined, where a group's combined runtime is half of what two groups take
 * together (they share the CPUs), so Deg = 2 T(1) / T(2), at most 1.
 */
static gboolean measure_bootstrap(struct calibrate_run *run, const char *out_dir, GError **error)
{
	g_autofree double *t1 = g_new(double, run->repeat);
	g_autofree double *t2 = g_new(double, run->repeat);

	if (!real_runs(run, 1, t1, error) || !real_runs(run, 2, t2, error))
		return FALSE;

	CalibrationBootstrap boot = {
		.solo_ms = mean_of(t1, run->repeat),
		.degradation = MIN(1.0, 2 * mean_of(t1, run->repeat) / mean_of(t2, run->repeat)),
		.loops = run->loops,
		.mode = run->workload.tasks,
		.date = calibration_now_iso8601(),
	};
	gboolean ok = calibration_bootstrap_write(&boot, out_dir, error);

	run->params.solo_ms = boot.solo_ms;
	run->params.degradation = boot.degradation;
	printf("Bootstrap inputs: solo %.3f ms (one group alone), degradation %.4f (2 x %.3f / %.3f ms), "
	       "written to %s/%s\n\n", boot.solo_ms, boot.degradation, mean_of(t1, run->repeat),
	       mean_of(t2, run->repeat), out_dir, CALIBRATION_BOOTSTRAP_NAME);
	g_free(boot.date);
	return ok;
}

static void print_fit_line(const char *name, double est, double se, double t, double p)
{
	printf("  %-10s %14.6g %12.4g %10.3f %12.4g\n", name, est, se, t, p);
}

static void print_report(const Calibration *cal, const Regression *all)
{
	const CalibrationFit *f = &cal->fit;
	guint n = cal->points->len;
	g_autofree double *x = g_new(double, n);
	g_autofree double *y = g_new(double, n);

	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *pt = &g_array_index(cal->points, CalibrationPoint, i);

		x[i] = pt->sim_jiffies;
		y[i] = pt->real_mean_ms;
	}
	g_autoptr(Regression) means = regression_fit(x, y, n, NULL);

	printf("Calibration (%s model): real_ms = a + b * sim_jiffies, fitted on the %u per-group means\n\n",
	       calibration_model_name(cal->model), n);
	printf("  %-10s %14s %12s %10s %12s\n", "term", "estimate", "std.error", "t", "p");
	print_fit_line("a (ms)", means->a, means->se_a, means->t_a, means->p_a);
	print_fit_line("b (ms/jf)", means->b, means->se_b, means->t_b, means->p_b);
	printf("\n  R^2 %.6f   adjusted R^2 %.6f   residual std. error %.4g ms on %u df\n", f->r2, f->adj_r2,
	       f->rse, n - 2);
	printf("  F %.6g on 1 and %u df, p %.4g   leave-one-out MAPE %.3f%%\n\n", f->f, n - 2, f->f_p, f->loo_mape);

	printf("  %6s %14s %12s %10s %12s %12s\n", "groups", "sim jiffies", "real ms", "sd", "predicted", "residual");
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *pt = &g_array_index(cal->points, CalibrationPoint, i);

		printf("  %6u %14.3f %12.3f %10.3f %12.3f %12.3f\n", pt->groups, pt->sim_jiffies, pt->real_mean_ms,
		       pt->real_sd_ms, pt->predicted_ms, pt->residual_ms);
	}
	if (all)
		printf("\nOver all %zu individual runs: a %.6g (se %.4g), b %.6g (se %.4g), R^2 %.6f, adjusted R^2 %.6f\n",
		       all->n, all->a, all->se_a, all->b, all->se_b, all->r2, all->adj_r2);
}

static gboolean calibrate(struct calibrate_run *run, CalibrationModel model, const char *out_dir, GError **error)
{
	guint n = run->groups->len;
	g_autofree double *runs = g_new(double, (gsize)n * run->repeat);
	g_autofree double *sim = g_new(double, n);
	g_autofree char *workload = g_strdup_printf(
		"hackbench %s, %s, %u+%u tasks per group, %u loops, %u-byte messages; simulated on %u CPUs, profile %s",
		realbench_channel_name(run->workload.channel), realbench_tasks_name(run->workload.tasks),
		run->params.fds, run->params.fds, run->loops, run->params.datasize, run->cfg.nr_cpus,
		run->cfg.profile->name);

	if (model == CALIBRATION_MODEL_BOOTSTRAP && !measure_bootstrap(run, out_dir, error))
		return FALSE;
	for (guint i = 0; i < n; i++)
		if (!real_runs(run, g_array_index(run->groups, guint, i), &runs[(gsize)i * run->repeat], error))
			return FALSE;
	for (guint i = 0; i < n; i++) {
		g_autofree char *what = g_strdup_printf("simulating %u groups", g_array_index(run->groups, guint, i));

		progress_update(&run->progress, run->done, what);
		sim[i] = sim_jiffies(run, g_array_index(run->groups, guint, i));
		run->done++;
	}
	progress_end(&run->progress);

	g_autoptr(Calibration) cal = calibration_new(model, workload, run->loops, run->workload.tasks);

	for (guint i = 0; i < n; i++)
		calibration_add_point(cal, g_array_index(run->groups, guint, i), sim[i], &runs[(gsize)i * run->repeat],
				      run->repeat);
	if (!calibration_fit(cal, error))
		return FALSE;

	/* The same line fitted through every run, not only the means. */
	g_autofree double *xs = g_new(double, (gsize)n * run->repeat);

	for (guint i = 0; i < n; i++)
		for (guint r = 0; r < run->repeat; r++)
			xs[(gsize)i * run->repeat + r] = sim[i];
	g_autoptr(Regression) all = regression_fit(xs, runs, (gsize)n * run->repeat, NULL);

	print_report(cal, all);
	if (!calibration_write(cal, out_dir, error))
		return FALSE;
	printf("\nWrote %s/%s and %s/%s\n", out_dir, CALIBRATION_CSV_NAME, out_dir, CALIBRATION_INI_NAME);
	return TRUE;
}

int tuner_cmd_calibrate(int argc, char **argv)
{
	struct linsched_cli cli;
	struct hackbench_cli hc;
	char *groups_text = NULL, *real_cmd = NULL, *out_dir = NULL;
	gint64 loops = 100, repeat = 3;
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{ "groups", 'g', 0, G_OPTION_ARG_STRING, &groups_text, "Group counts: 1..20 (default), 2..20:2, 1,2,4,8", "LIST" },
		{ "loops", 'l', 0, G_OPTION_ARG_INT64, &loops, "Messages each sender sends each receiver (default 100)", "L" },
		{ "repeat", 'r', 0, G_OPTION_ARG_INT64, &repeat, "Real runs per group count (default 3)", "R" },
		{ "real-cmd", 0, 0, G_OPTION_ARG_STRING, &real_cmd,
		  "The real benchmark, with {groups} and {loops} (default: hackbench, else perf bench sched messaging)", "CMD" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Directory for calibration.csv and calibration.ini (required)", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- fit real runtimes to simulated jiffies");
	struct calibrate_run run = { 0 };
	CalibrationModel model;
	int status = 2;

	linsched_cli_init(&cli);
	hackbench_cli_init(&hc);
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_add_group(ctx, hackbench_cli_group(&hc, false));
	g_option_context_add_group(ctx, linsched_cli_group(&cli));

	if (!g_option_context_parse(ctx, &argc, &argv, &error) || !hackbench_cli_params(&hc, &run.params, &error) ||
	    !linsched_cli_config(&cli, &run.cfg, &error)) {
		status = tuner_usage_error("calibrate", error->message);
		goto out;
	}
	if (!out_dir) {
		status = tuner_usage_error("calibrate", "--out: a directory for the results is required");
		goto out;
	}
	if (loops < 1 || loops > 1000000 || repeat < 1 || repeat > 1000) {
		status = tuner_usage_error("calibrate", loops < 1 || loops > 1000000 ? "--loops: must be in 1..1000000"
										      : "--repeat: must be in 1..1000");
		goto out;
	}
	if (!(run.groups = group_range_parse("--groups", groups_text ? groups_text : "1..20", &error))) {
		status = tuner_usage_error("calibrate", error->message);
		goto out;
	}
	if (run.groups->len < 3) {
		status = tuner_usage_error("calibrate", "--groups: a fit needs at least 3 group counts");
		goto out;
	}
	if (!real_cmd && (run.params.fds != 20 || run.params.datasize != 100)) {
		status = tuner_usage_error("calibrate", "--fds and --datasize other than 20 and 100 need --real-cmd: "
							"the default tools cannot be told them");
		goto out;
	}
	if (g_mkdir_with_parents(out_dir, 0755) != 0) {
		g_autofree char *msg = g_strdup_printf("--out: cannot create %s: %s", out_dir, g_strerror(errno));

		status = tuner_usage_error("calibrate", msg);
		goto out;
	}
	run.bench = real_cmd ? realbench_new_template(real_cmd, &error) : realbench_new_default(&error);
	if (!run.bench) {
		status = tuner_usage_error("calibrate", error->message);
		goto out;
	}
	model = run.params.model == HACKBENCH_FSM ? CALIBRATION_MODEL_FSM : CALIBRATION_MODEL_BOOTSTRAP;
	run.loops = (guint)loops;
	run.repeat = (guint)repeat;
	run.params.loops = run.loops;
	run.workload = (RealbenchWorkload){
		.loops = run.loops,
		.tasks = run.params.threads ? REALBENCH_THREADS : REALBENCH_PROCESSES,
		.channel = run.params.pipe ? REALBENCH_PIPES : REALBENCH_SOCKETS,
	};
	hackbench_cli_adjust_config(&cli, &run.params, &run.cfg);
	progress_init(&run.progress, run.groups->len * (run.repeat + 1) +
				     (model == CALIBRATION_MODEL_BOOTSTRAP ? 2 * run.repeat : 0));
	status = 0;
	if (!calibrate(&run, model, out_dir, &error)) {
		progress_end(&run.progress);
		fprintf(stderr, "tuner calibrate: %s\n", error->message);
		status = 1;
	}
out:
	if (run.groups)
		g_array_free(run.groups, TRUE);
	realbench_free(run.bench);
	g_free(groups_text);
	g_free(real_cmd);
	g_free(out_dir);
	hackbench_cli_clear(&hc);
	linsched_cli_clear(&cli);
	return status;
}
