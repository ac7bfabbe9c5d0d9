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

#include "linsched/cli/cli.h"
#include "linsched/cli/hackbench_cli.h"
#include "tuner/calib/calibration_io.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/group_range.h"
#include "tuner/util/progress.h"
#include "tuner/calib/realbench.h"
#include "tuner/stats/regression.h"
#include "tuner/stats/run_order.h"

struct calibrate_run {
	GArray *groups;	  /* guint: the group counts fitted */
	GArray *measured; /* guint: the group counts run: groups, then 1 and 2 if the bootstrapped
			   * model needs them and groups lacks them */
	guint loops, repeat;
	CalibrationProtocol protocol;
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

static guint measured_at(const struct calibrate_run *run, guint i)
{
	return g_array_index(run->measured, guint, i);
}

/* Where groups is in run->measured, or -1. */
static int measured_index(const struct calibrate_run *run, guint groups)
{
	for (guint i = 0; i < run->measured->len; i++)
		if (measured_at(run, i) == groups)
			return (int)i;
	return -1;
}

static double seconds_since(gint64 start_us)
{
	return (double)(g_get_monotonic_time() - start_us) / 1e6;
}

/*
 * Unrecorded runs of the largest workload for warmup_s seconds. The machine this was built on ran
 * hackbench a quarter slower for the first half minute after an idle spell (see run_order.h);
 * measuring that ramp would bend the fit at whichever group counts happened to run first.
 */
static gboolean warm_up(struct calibrate_run *run, GError **error)
{
	RealbenchWorkload w = run->workload;
	gint64 start = g_get_monotonic_time();
	guint n = 0;
	double ms = 0;

	if (run->protocol.warmup_s <= 0)
		return TRUE;
	w.groups = 0;
	for (guint i = 0; i < run->measured->len; i++)
		w.groups = MAX(w.groups, measured_at(run, i));
	do {
		g_autofree char *what =
			g_strdup_printf("warm-up, %u groups (%.0f of %.0f s)", w.groups,
					seconds_since(start), run->protocol.warmup_s);

		progress_update(&run->progress, run->done, what);
		if (!realbench_run(run->bench, &w, &ms, error)) {
			g_prefix_error(error, "warm-up: ");
			return FALSE;
		}
		n++;
	} while (seconds_since(start) < run->protocol.warmup_s);
	run->protocol.warmup_s = seconds_since(start);
	printf("Warm-up: %u unrecorded run%s of %u groups in %.1f s, the last %.1f ms\n\n", n,
	       n == 1 ? "" : "s", w.groups, run->protocol.warmup_s, ms);
	return TRUE;
}

/* Every real run in the protocol's order; the times in ms[i * repeat + round] for measured[i]. */
static gboolean real_runs(struct calibrate_run *run, Calibration *cal, double *ms, GError **error)
{
	g_autoptr(GArray) plan = run_order_plan(run->measured->len, run->repeat,
						run->protocol.order, run->protocol.seed);
	RealbenchWorkload w = run->workload;
	gint64 start = g_get_monotonic_time();

	for (guint k = 0; k < plan->len; k++) {
		const RunSlot *slot = &g_array_index(plan, RunSlot, k);
		CalibrationRun record = { .seq = k,
					  .round = slot->round,
					  .groups = measured_at(run, slot->index) };
		g_autofree char *what = g_strdup_printf("real run %u/%u, %u groups", k + 1,
							plan->len, record.groups);

		progress_update(&run->progress, run->done, what);
		w.groups = record.groups;
		record.start_s = seconds_since(start);
		if (!realbench_run(run->bench, &w, &record.ms, error))
			return FALSE;
		ms[(gsize)slot->index * run->repeat + slot->round] = record.ms;
		calibration_add_run(cal, &record);
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
 * The bootstrapped model's inputs, from the real runs of one and two groups: Solo is one group's
 * runtime alone; the degradation is RuntimeAlone / RuntimeCombined, where a group's combined
 * runtime is half of what two groups take together (they share the CPUs), so Deg = 2 T(1) / T(2),
 * at most 1.
 */
static CalibrationBootstrap bootstrap_inputs(struct calibrate_run *run, const double *ms)
{
	const double *t1 = &ms[(gsize)measured_index(run, 1) * run->repeat];
	const double *t2 = &ms[(gsize)measured_index(run, 2) * run->repeat];
	CalibrationBootstrap boot = {
		.solo_ms = mean_of(t1, run->repeat),
		.degradation = MIN(1.0, 2 * mean_of(t1, run->repeat) / mean_of(t2, run->repeat)),
		.loops = run->loops,
		.mode = run->workload.tasks,
		.date = calibration_now_iso8601(),
	};

	run->params.solo_ms = boot.solo_ms;
	run->params.degradation = boot.degradation;
	printf("Bootstrap inputs: solo %.3f ms (one group alone), degradation %.4f (2 x %.3f / %.3f ms)\n\n",
	       boot.solo_ms, boot.degradation, mean_of(t1, run->repeat), mean_of(t2, run->repeat));
	return boot;
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
	printf("\n  R^2 %.6f   adjusted R^2 %.6f   residual std. error %.4g ms on %u df\n", f->r2,
	       f->adj_r2, f->rse, n - 2);
	printf("  F %.6g on 1 and %u df, p %.4g   leave-one-out MAPE %.3f%%\n", f->f, n - 2, f->f_p,
	       f->loo_mape);
	printf("  R^2 against the group count alone (the null model) %.6f\n", f->r2_groups);
	if (isfinite(f->lof_f)) {
		g_autofree char *repeats_text =
			isfinite(f->repeats_for_r2_99)
				? g_strdup_printf("%.0f", f->repeats_for_r2_99)
				: g_strdup("more than any number of");

		printf("  lack of fit F %.4g on %u and %.0f df, p %.4g; one run's spread (pure error%s) sd %.4g ms\n",
		       f->lof_f, n - 2, f->pe_df, f->lof_p,
		       cal->protocol.order == RUN_ORDER_ROUNDS ? ", net of the rounds" : "",
		       f->pe_sd);
		printf("  with that spread, a line of exactly the right shape should expect R^2 %.4f on these means;\n"
		       "  to expect 0.99 it would need %s repeats\n",
		       f->r2_ceiling, repeats_text);
	}
	printf("\n");

	printf("  %6s %14s %12s %10s %12s %12s\n", "groups", "sim jiffies", "real ms", "sd",
	       "predicted", "residual");
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *pt = &g_array_index(cal->points, CalibrationPoint, i);

		printf("  %6u %14.3f %12.3f %10.3f %12.3f %12.3f\n", pt->groups, pt->sim_jiffies,
		       pt->real_mean_ms, pt->real_sd_ms, pt->predicted_ms, pt->residual_ms);
	}
	if (all)
		printf("\nOver all %zu individual runs: a %.6g (se %.4g), b %.6g (se %.4g), R^2 %.6f, adjusted R^2 %.6f\n",
		       all->n, all->a, all->se_a, all->b, all->se_b, all->r2, all->adj_r2);
}

static gboolean calibrate(struct calibrate_run *run, CalibrationModel model, const char *out_dir,
			  GError **error)
{
	guint n = run->groups->len;
	g_autofree double *runs = g_new(double, (gsize)run->measured->len * run->repeat);
	g_autofree double *sim = g_new(double, n);
	g_autofree char *workload = g_strdup_printf(
		"hackbench %s, %s, %u+%u tasks per group, %u loops, %u-byte messages; simulated on %u CPUs, profile %s",
		realbench_channel_name(run->workload.channel),
		realbench_tasks_name(run->workload.tasks), run->params.fds, run->params.fds,
		run->loops, run->params.datasize, run->cfg.nr_cpus, run->cfg.profile->name);
	g_autoptr(Calibration) cal =
		calibration_new(model, workload, run->loops, run->workload.tasks);
	CalibrationBootstrap boot = { 0 };

	if (!warm_up(run, error) || !real_runs(run, cal, runs, error))
		return FALSE;
	cal->protocol = run->protocol;
	if (model == CALIBRATION_MODEL_BOOTSTRAP)
		boot = bootstrap_inputs(run, runs);
	for (guint i = 0; i < n; i++) {
		g_autofree char *what = g_strdup_printf("simulating %u groups",
							g_array_index(run->groups, guint, i));

		progress_update(&run->progress, run->done, what);
		sim[i] = sim_jiffies(run, g_array_index(run->groups, guint, i));
		run->done++;
	}
	progress_end(&run->progress);

	/* The fitted group counts come first in measured, so runs[i * repeat] is groups[i]'s. */
	for (guint i = 0; i < n; i++)
		calibration_add_point(cal, g_array_index(run->groups, guint, i), sim[i],
				      &runs[(gsize)i * run->repeat], run->repeat);
	gboolean ok = calibration_fit(cal, error);

	if (ok) {
		/* The same line fitted through every run, not only the means. */
		g_autofree double *xs = g_new(double, (gsize)n * run->repeat);

		for (guint i = 0; i < n; i++)
			for (guint r = 0; r < run->repeat; r++)
				xs[(gsize)i * run->repeat + r] = sim[i];
		g_autoptr(Regression) all = regression_fit(xs, runs, (gsize)n * run->repeat, NULL);

		print_report(cal, all);
		ok = (model != CALIBRATION_MODEL_BOOTSTRAP ||
		      calibration_bootstrap_write(&boot, out_dir, error)) &&
		     calibration_write(cal, out_dir, error);
	}
	if (ok)
		printf("\nWrote %s/: %s, %s, %s%s\n", out_dir, CALIBRATION_CSV_NAME,
		       CALIBRATION_RUNS_NAME, CALIBRATION_INI_NAME,
		       model == CALIBRATION_MODEL_BOOTSTRAP ? " and " CALIBRATION_BOOTSTRAP_NAME
							      " (the model's inputs)"
							    : "");
	g_free(boot.date);
	return ok;
}

int tuner_cmd_calibrate(int argc, char **argv)
{
	struct linsched_cli cli;
	struct hackbench_cli hc;
	char *groups_text = NULL, *real_cmd = NULL, *out_dir = NULL, *order_text = NULL;
	gint64 loops = 100, repeat = 3, seed = 1;
	double warmup = 20;
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{ "groups", 'g', 0, G_OPTION_ARG_STRING, &groups_text,
		  "Group counts: 1..20 (default), 2..20:2, 1,2,4,8", "LIST" },
		{ "loops", 'l', 0, G_OPTION_ARG_INT64, &loops,
		  "Messages each sender sends each receiver (default 100)", "L" },
		{ "repeat", 'r', 0, G_OPTION_ARG_INT64, &repeat,
		  "Real runs per group count (default 3)", "R" },
		{ "real-cmd", 0, 0, G_OPTION_ARG_STRING, &real_cmd,
		  "The real benchmark, with {groups} and {loops} (default: hackbench, else perf bench sched messaging)",
		  "CMD" },
		{ "order", 0, 0, G_OPTION_ARG_STRING, &order_text,
		  "rounds: each repeat runs every group count once, in a fresh random order (default); "
		  "blocks: each group count's repeats back to back",
		  "ORDER" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed,
		  "Seed of the rounds' shuffle (default 1)", "N" },
		{ "warmup", 0, 0, G_OPTION_ARG_DOUBLE, &warmup,
		  "Seconds of unrecorded runs of the largest group count first (default 20; 0: none)",
		  "S" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
		  "Directory for calibration.csv and calibration.ini (required)", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- fit real runtimes to simulated jiffies");
	struct calibrate_run run = { 0 };
	CalibrationModel model;
	int status = 2;

	linsched_cli_init(&cli);
	hackbench_cli_init(&hc);
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_add_group(ctx, hackbench_cli_group(&hc, false));
	g_option_context_add_group(ctx, linsched_cli_group(&cli));

	if (!g_option_context_parse(ctx, &argc, &argv, &error) ||
	    !linsched_cli_config(&cli, &run.cfg, &error) ||
	    !hackbench_cli_params(&hc, &run.cfg.machine, &run.params, &error)) {
		status = tuner_usage_error("calibrate", error->message);
		goto out;
	}
	if (!out_dir) {
		status = tuner_usage_error("calibrate",
					   "--out: a directory for the results is required");
		goto out;
	}
	if (loops < 1 || loops > 1000000 || repeat < 1 || repeat > 1000) {
		status = tuner_usage_error("calibrate", loops < 1 || loops > 1000000
								? "--loops: must be in 1..1000000"
								: "--repeat: must be in 1..1000");
		goto out;
	}
	if (order_text && !run_order_from_name(order_text, &run.protocol.order)) {
		status = tuner_usage_error("calibrate", "--order: must be 'rounds' or 'blocks'");
		goto out;
	}
	if (seed < 0 || seed > G_MAXUINT32 || !(warmup >= 0 && warmup <= 3600)) {
		status = tuner_usage_error("calibrate",
					   seed < 0 || seed > G_MAXUINT32
						   ? "--seed: must be in 0..4294967295"
						   : "--warmup: must be in 0..3600 seconds");
		goto out;
	}
	run.protocol.seed = (guint)seed;
	run.protocol.warmup_s = warmup;
	if (!(run.groups =
		      group_range_parse("--groups", groups_text ? groups_text : "1..20", &error))) {
		status = tuner_usage_error("calibrate", error->message);
		goto out;
	}
	if (run.groups->len < 3) {
		status = tuner_usage_error("calibrate",
					   "--groups: a fit needs at least 3 group counts");
		goto out;
	}
	if (!real_cmd && (run.params.fds != 20 || run.params.datasize != 100)) {
		status = tuner_usage_error(
			"calibrate", "--fds and --datasize other than 20 and 100 need --real-cmd: "
				     "the default tools cannot be told them");
		goto out;
	}
	if (g_mkdir_with_parents(out_dir, 0755) != 0) {
		g_autofree char *msg =
			g_strdup_printf("--out: cannot create %s: %s", out_dir, g_strerror(errno));

		status = tuner_usage_error("calibrate", msg);
		goto out;
	}
	run.bench =
		real_cmd ? realbench_new_template(real_cmd, &error) : realbench_new_default(&error);
	if (!run.bench) {
		status = tuner_usage_error("calibrate", error->message);
		goto out;
	}
	model = run.params.model == HACKBENCH_FSM ? CALIBRATION_MODEL_FSM
						  : CALIBRATION_MODEL_BOOTSTRAP;
	run.loops = (guint)loops;
	run.repeat = (guint)repeat;
	run.params.loops = run.loops;
	run.workload = (RealbenchWorkload){
		.loops = run.loops,
		.tasks = run.params.threads ? REALBENCH_THREADS : REALBENCH_PROCESSES,
		.channel = run.params.pipe ? REALBENCH_PIPES : REALBENCH_SOCKETS,
	};
	hackbench_cli_adjust_config(&cli, &run.params, &run.cfg);
	run.measured = g_array_copy(run.groups);
	for (guint g = 1; model == CALIBRATION_MODEL_BOOTSTRAP && g <= 2; g++)
		if (measured_index(&run, g) < 0)
			g_array_append_val(run.measured, g);
	progress_init(&run.progress, run.measured->len * run.repeat + run.groups->len);
	status = 0;
	if (!calibrate(&run, model, out_dir, &error)) {
		progress_end(&run.progress);
		fprintf(stderr, "tuner calibrate: %s\n", error->message);
		status = 1;
	}
out:
	if (run.groups)
		g_array_free(run.groups, TRUE);
	if (run.measured)
		g_array_free(run.measured, TRUE);
	realbench_free(run.bench);
	g_free(groups_text);
	g_free(order_text);
	g_free(real_cmd);
	g_free(out_dir);
	hackbench_cli_clear(&hc);
	linsched_cli_clear(&cli);
	return status;
}
