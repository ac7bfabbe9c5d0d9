/*
 * cmd_calibrate.c - `tuner calibrate`: map simulated jiffies to real milliseconds.
 *
 * Runs the real benchmark R times for each group count, simulates the same workloads, and fits
 * real_ms = a + b * sim_jiffies by least squares on the per-group means (also reported over every
 * individual run). For the bootstrapped model it first measures that model's inputs from real runs
 * of one group alone and two groups together. Nothing is written unless every run succeeded.
 *
 * With --match-time the simulated machine is first made to take the real time: its message costs
 * are scaled by the factor at which the simulated runtimes lie on real = simulated
 * (tuner/calib/match_time.h), and the matched machine is written beside the calibration.
 *
 * With --real vm the real runs come from Debian's 6.1 kernel in a VM, as one plan in one boot, and
 * --settings makes the calibration span knob settings as well as group counts (calibrate_vm.h):
 * a point is then a setting at a group count, the fit runs over all of them, and the report adds
 * the null models blind to the knobs and each point against the defaults.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "linsched/cli/cli.h"
#include "linsched/cli/hackbench_cli.h"
#include "tuner/calib/calibration_io.h"
#include "tuner/calib/match_time.h"
#include "tuner/cmd/calibrate_vm.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/group_range.h"
#include "tuner/cmd/vm_cli.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/fit.h"
#include "tuner/util/progress.h"
#include "tuner/calib/realbench.h"
#include "tuner/stats/median.h"
#include "tuner/stats/regression.h"
#include "tuner/stats/run_order.h"

/* The command line, as parsed. */
struct calibrate_cli {
	struct linsched_cli sim;
	struct hackbench_cli hb;
	char *groups, *real_cmd, *out, *order, *real, *settings;
	gint64 loops, repeat, seed, sim_repeat, jobs;
	double warmup; /* seconds; not given: DEFAULT_WARMUP_S on the host, none in the VM */
	gboolean match_time;
	struct vm_cli vm;
	struct flag_set flags; /* the main group's, --vm-* among them */
};

#define DEFAULT_WARMUP_S   20
/*
 * On the host, the fsm model's simulations vary as real runs do unless --cost-jitter says
 * otherwise, and each point is the median of DEFAULT_SIM_REPEAT of them: hackbench's switch count
 * is chaotic in the costs (one group's spans 5x over seeds, as the real runs' does), so one
 * deterministic run is one draw, not a median to set beside the real runs' median.
 */
#define DEFAULT_JITTER_CV  0.2
#define DEFAULT_SIM_REPEAT 31

/* What the flags resolve to, then the measurements and the fit as they come. */
struct calibrate_run {
	GArray *groups;	  /* guint: the group counts fitted */
	GArray *measured; /* guint: the group counts run: groups, then 1 and 2 if the bootstrapped
			   * model needs them and groups lacks them */
	guint loops, repeat;
	guint sim_repeat; /* simulations per point, seeds --sim-seed + k: their medians */
	guint jobs;	  /* threads for them (--jobs) */
	/* Runs a point's simulations in parallel; made after the real runs, which fork. */
	Evaluator *ev;
	CalibrationModel model;
	CalibrationProtocol protocol;
	Realbench *bench;
	RealbenchWorkload workload;
	struct hackbench_params params;
	struct linsched_config cfg;
	struct progress progress;
	unsigned int done;
	double *ms;		   /* real runs: ms[i * repeat + round] for measured[i] */
	double *switches;	   /* their context switches, likewise */
	double *sim;		   /* simulated jiffies of groups[i] */
	double *sim_switches;	   /* the simulation's context switches for groups[i] */
	CalibrationBootstrap boot; /* the bootstrapped model's inputs, measured */
	Calibration *cal;
	Regression *all; /* the same line fitted through every run, not only the means */
	/* --real vm */
	bool vm;
	VmObjective vmo;
	GArray *settings;    /* KnobSetting; [0] the defaults */
	GPtrArray *commands; /* char *: the guest's benchmark at each group count */
	CalibrateVm cv;
	bool steal_given; /* --steal: the simulations' steal is the flags', not the measured one */
	bool steal_measured;
	/* --match-time: the scale found, and the machine it was found on (for machine.ini) */
	bool match_time;
	MatchTime matched;
	const char *machine_path; /* --machine, or NULL: the built-in machine */
};

static void calibrate_cli_init(struct calibrate_cli *c)
{
	memset(c, 0, sizeof(*c));
	linsched_cli_init(&c->sim);
	hackbench_cli_init(&c->hb);
	c->loops = 100;
	c->repeat = 3;
	c->seed = 1;
	vm_cli_init(&c->vm);
	flag_set_init(&c->flags);
}

static void calibrate_cli_clear(struct calibrate_cli *c)
{
	g_free(c->groups);
	g_free(c->order);
	g_free(c->real_cmd);
	g_free(c->out);
	g_free(c->real);
	g_free(c->settings);
	hackbench_cli_clear(&c->hb);
	linsched_cli_clear(&c->sim);
	flag_set_clear(&c->flags);
}

static void calibrate_run_clear(struct calibrate_run *run)
{
	if (run->groups)
		g_array_free(run->groups, TRUE);
	if (run->measured)
		g_array_free(run->measured, TRUE);
	realbench_free(run->bench);
	g_free(run->ms);
	g_free(run->switches);
	g_free(run->sim);
	g_free(run->sim_switches);
	g_free(run->boot.date);
	calibration_free(run->cal);
	regression_free(run->all);
	vm_objective_clear(&run->vmo);
	knob_settings_free(run->settings);
	if (run->commands)
		g_ptr_array_free(run->commands, TRUE);
	calibrate_vm_clear(&run->cv);
	evaluator_free(run->ev);
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

/*
 * Every real run in the protocol's order; the times in ms[i * repeat + round] for measured[i],
 * the context switches likewise in switches[].
 */
static gboolean real_runs(struct calibrate_run *run, Calibration *cal, double *ms, double *switches,
			  GError **error)
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

		RealbenchOutcome outcome;

		progress_update(&run->progress, run->done, what);
		w.groups = record.groups;
		record.start_s = seconds_since(start);
		if (!realbench_run_outcome(run->bench, &w, &outcome, error))
			return FALSE;
		record.ms = outcome.ms;
		record.switches = (double)outcome.context_switches;
		ms[(gsize)slot->index * run->repeat + slot->round] = record.ms;
		switches[(gsize)slot->index * run->repeat + slot->round] = record.switches;
		calibration_add_run(cal, &record);
		run->done++;
	}
	return TRUE;
}

static double mean_of(const double *v, size_t n)
{
	return gsl_stats_mean(v, 1, n);
}

/* One point's simulations: seed cfg->seed + k into j[k] (jiffies) and sw[k] (switches). */
struct sim_point {
	const struct linsched_config *cfg;
	const struct hackbench_params *p;
	bool cpu_switches;
	double *j, *sw;
};

static gboolean simulate_seed(guint k, void *ctx, GError **error)
{
	const struct sim_point *pt = ctx;
	struct linsched_config one = *pt->cfg;
	struct hackbench_outcome out;

	(void)error;
	one.seed = pt->cfg->seed + k;
	hackbench_simulate(&one, pt->p, &out);
	pt->j[k] = (double)out.runtime_ns * pt->cfg->hz / 1e9;
	pt->sw[k] = (double)(pt->cpu_switches ? out.context_switches : out.task_switches);
	return TRUE;
}

/*
 * The simulated turnaround of p under cfg in jiffies, and its context switches in *switches (the
 * tasks' own, as rusage counts them, or with cpu_switches the CPUs', as /proc/stat does): the
 * medians over --sim-repeat simulations with seeds --sim-seed, --sim-seed + 1, ..., which with
 * cost jitter differ as real runs do, run on --jobs threads (each seed's result is its own, so
 * the medians do not depend on them). Fractional jiffies: the regression should not see the
 * tick's rounding.
 */
static double simulate_median(struct calibrate_run *run, const struct linsched_config *cfg,
			      const struct hackbench_params *p, bool cpu_switches, double *switches)
{
	g_autofree double *j = g_new(double, run->sim_repeat);
	g_autofree double *sw = g_new(double, run->sim_repeat);
	struct sim_point pt = { cfg, p, cpu_switches, j, sw };

	if (!run->ev)
		run->ev = evaluator_new(&(EvaluatorConfig){ .replicates = 1, .jobs = run->jobs });
	/* A simulation cannot fail: cfg was validated. */
	if (!evaluator_map(run->ev, run->sim_repeat, simulate_seed, &pt, NULL))
		g_assert_not_reached();
	*switches = stats_median(sw, run->sim_repeat);
	return stats_median(j, run->sim_repeat);
}

/* ", medians of S simulations" with --sim-repeat S, else nothing. */
static char *sim_medians_text(const struct calibrate_run *run)
{
	return run->sim_repeat > 1 ? g_strdup_printf(", medians of %u simulations with cost "
						     "jitter %g",
						     run->sim_repeat, run->cfg.costs.jitter_cv)
				   : g_strdup("");
}

/* The simulated turnaround in jiffies, and the simulation's context switches in *switches. */
static double sim_jiffies(struct calibrate_run *run, guint groups, double *switches)
{
	struct hackbench_params p = run->params;

	p.groups = groups;
	return simulate_median(run, &run->cfg, &p, false, switches);
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

/* ---- flags and plan ------------------------------------------------------------------------- */

static void add_options(struct calibrate_cli *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "groups", 'g', 0, G_OPTION_ARG_STRING, &c->groups,
		  "Group counts: 1..20 (default), 2..20:2, 1,2,4,8", "LIST" },
		{ "loops", 'l', 0, G_OPTION_ARG_INT64, &c->loops,
		  "Messages each sender sends each receiver (default 100)", "L" },
		{ "repeat", 'r', 0, G_OPTION_ARG_INT64, &c->repeat,
		  "Real runs per group count (default 3)", "R" },
		{ "sim-repeat", 0, 0, G_OPTION_ARG_INT64, &c->sim_repeat,
		  "Simulations per group count (and setting), seeds --sim-seed, --sim-seed + 1, ...: "
		  "their medians (default 31 with cost jitter, which the host's runs get unless "
		  "--cost-jitter says otherwise, else 1; more only with jitter)",
		  "S" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT64, &c->jobs,
		  "Threads for the simulations (default: one per CPU); the results do not depend on "
		  "it",
		  "N" },
		{ "real-cmd", 0, 0, G_OPTION_ARG_STRING, &c->real_cmd,
		  "The real benchmark, with {groups} and {loops} (default: hackbench, else perf bench sched messaging)",
		  "CMD" },
		{ "order", 0, 0, G_OPTION_ARG_STRING, &c->order,
		  "rounds: each repeat runs every group count once, in a fresh random order (default); "
		  "blocks: each group count's repeats back to back",
		  "ORDER" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &c->seed,
		  "Seed of the rounds' shuffle (default 1)", "N" },
		{ "warmup", 0, 0, G_OPTION_ARG_DOUBLE, &c->warmup,
		  "Seconds of unrecorded runs of the largest group count first (default 20; 0: none)",
		  "S" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
		  "Directory for calibration.csv and calibration.ini (required)", "DIR" },
		{ "real", 0, 0, G_OPTION_ARG_STRING, &c->real,
		  "Where the real runs run: host (this machine, default) or vm (Debian's 6.1 kernel "
		  "under qemu, one boot; --repeat is its rounds)",
		  "WHERE" },
		{ "match-time", 0, 0, G_OPTION_ARG_NONE, &c->match_time,
		  "Before the fit, scale the message costs (write, read, blocked read) so that the "
		  "simulation takes the real time, and write the matched machine to DIR/machine.ini",
		  NULL },
		{ "settings", 0, 0, G_OPTION_ARG_STRING, &c->settings,
		  "With --real vm: knob settings to calibrate over as well, a list "
		  "(defaults,latency=24000000:min_granularity=1500000,...) or a file like "
		  "vm/data/settings-12.txt (default: the defaults alone)",
		  "LIST|FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c->loops, 1, 1000000),    FLAG_INT(&c->repeat, 1, 1000),
		FLAG_INT(&c->sim_repeat, 1, 1000),  FLAG_INT(&c->jobs, 1, 1024),
		FLAG_INT(&c->seed, 0, G_MAXUINT32), FLAG_REAL(&c->warmup, 0, 3600, FLAG_CLOSED),
	};

	flag_add_main_entries(&c->flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	vm_cli_add_entries(&c->vm, &c->flags, g_option_context_get_main_group(ctx), VM_CLI_MACHINE);
	g_option_context_add_group(ctx, hackbench_cli_group(&c->hb, false));
	g_option_context_add_group(ctx, linsched_cli_group(&c->sim));
}

/* The flags that are numbers or names of this command, into run->protocol. */
static gboolean check_flags(const struct calibrate_cli *c, struct calibrate_run *run,
			    GError **error)
{
	const char *vm_flag = vm_cli_given(&c->vm);
	bool warmup_given = flag_given(&c->flags, &c->warmup);

	if (!c->out)
		return cmd_usage(error, "--out: a directory for the results is required");
	if (c->real && strcmp(c->real, "host") != 0 && strcmp(c->real, "vm") != 0)
		return cmd_usage(error, "--real: '%s' is not host or vm", c->real);
	run->vm = c->real && strcmp(c->real, "vm") == 0;
	run->steal_given = flag_given(&c->sim.flags, &c->sim.steal);
	if (!run->vm && (c->settings || vm_flag))
		return cmd_usage(error, "%s: only with --real vm",
				 c->settings ? "--settings" : vm_flag);
	if (c->order && !run_order_from_name(c->order, &run->protocol.order))
		return cmd_usage(error, "--order: must be 'rounds' or 'blocks'");
	if (run->vm && run->protocol.order == RUN_ORDER_BLOCKS)
		return cmd_usage(error, "--order blocks: the VM runs its plan in rounds only");
	if (run->protocol.order == RUN_ORDER_BLOCKS && flag_given(&c->flags, &c->seed))
		return cmd_usage(error, "--seed: shuffles the rounds; --order blocks has none");
	if (run->vm && warmup_given)
		return cmd_usage(error,
				 "--warmup: not with --real vm, whose rounds are blocks "
				 "(a slow start slows a whole round, which the fit nets out)");

	double warmup = warmup_given ? c->warmup : run->vm ? 0 : DEFAULT_WARMUP_S;

	run->protocol.seed = (guint)c->seed;
	run->protocol.warmup_s = warmup;
	run->protocol.proportional = run->vm;
	return TRUE;
}

/* The workload and the group counts to run: the bootstrapped model also needs 1 and 2. */
static gboolean plan(const struct calibrate_cli *c, struct calibrate_run *run, GError **error)
{
	GError *local = NULL;

	if (!(run->groups = group_range_parse("--groups", c->groups ? c->groups : "1..20", &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	if (run->groups->len < 3)
		return cmd_usage(error, "--groups: a fit needs at least 3 group counts");
	run->model = run->params.model == HACKBENCH_FSM ? CALIBRATION_MODEL_FSM
							: CALIBRATION_MODEL_BOOTSTRAP;
	run->loops = (guint)c->loops;
	run->repeat = (guint)c->repeat;
	if (!flag_given(&c->sim.flags, &c->sim.cost_jitter) && !run->vm &&
	    run->model == CALIBRATION_MODEL_FSM)
		run->cfg.costs.jitter_cv = DEFAULT_JITTER_CV;
	run->sim_repeat = flag_given(&c->flags, &c->sim_repeat) ? (guint)c->sim_repeat
			  : run->cfg.costs.jitter_cv > 0	? DEFAULT_SIM_REPEAT
								: 1;
	run->jobs = flag_given(&c->flags, &c->jobs) ? (guint)c->jobs : evaluator_default_jobs();
	if (run->sim_repeat > 1 && !(run->cfg.costs.jitter_cv > 0))
		return cmd_usage(error,
				 "--sim-repeat: without cost jitter every seed simulates the "
				 "same run; give --cost-jitter above 0");
	run->params.loops = run->loops;
	run->workload = (RealbenchWorkload){
		.loops = run->loops,
		.tasks = run->params.threads ? REALBENCH_THREADS : REALBENCH_PROCESSES,
		.channel = run->params.pipe ? REALBENCH_PIPES : REALBENCH_SOCKETS,
	};
	hackbench_cli_adjust_config(&c->sim, &run->params, &run->cfg);
	run->measured = g_array_copy(run->groups);
	for (guint g = 1; run->model == CALIBRATION_MODEL_BOOTSTRAP && g <= 2; g++)
		if (measured_index(run, g) < 0)
			g_array_append_val(run->measured, g);
	return TRUE;
}

/* --match-time: on the host, with message costs to scale and none given by flags. */
static gboolean check_match_time(const struct calibrate_cli *c, struct calibrate_run *run,
				 GError **error)
{
	const char *cost = flag_first_given(&c->hb.flags, &c->hb.write_ns, &c->hb.read_ns,
					    &c->hb.block_ns, NULL);

	run->match_time = c->match_time;
	run->machine_path = c->sim.machine;
	if (!c->match_time)
		return TRUE;
	if (run->vm)
		return cmd_usage(error, "--match-time: not with --real vm (tuner fit fits the VM's "
					"machine to its plans)");
	if (run->model != CALIBRATION_MODEL_FSM)
		return cmd_usage(error, "--match-time: scales the fsm model's message costs; the "
					"bootstrapped model has none");
	if (cost)
		return cmd_usage(error, "%s: --match-time finds the message costs itself", cost);
	return TRUE;
}

/* The guest's benchmark at each group count: the template with {groups} and {loops} replaced, or
 * hackbench with the workload's flags. */
static gboolean guest_commands(const struct calibrate_cli *c, struct calibrate_run *run,
			       GError **error)
{
	if (c->real_cmd && !strstr(c->real_cmd, "{groups}"))
		return cmd_usage(error, "--real-cmd: '%s' has no {groups}", c->real_cmd);
	run->commands = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < run->groups->len; i++) {
		guint groups = g_array_index(run->groups, guint, i);

		if (c->real_cmd) {
			g_autofree char *g = g_strdup_printf("%u", groups);
			g_autofree char *l = g_strdup_printf("%u", run->loops);
			g_auto(GStrv) a = g_strsplit(c->real_cmd, "{groups}", -1);
			g_autofree char *with_groups = g_strjoinv(g, a);
			g_auto(GStrv) b = g_strsplit(with_groups, "{loops}", -1);

			g_ptr_array_add(run->commands, g_strjoinv(l, b));
		} else {
			g_ptr_array_add(run->commands,
					vm_hackbench_command(groups, run->loops, run->params.fds,
							     run->params.datasize,
							     run->params.threads,
							     run->params.pipe));
		}
	}
	return TRUE;
}

/*
 * The settings, the defaults first: the 6.1 kernel's for the guest's CPUs, the reference of every
 * round at every group count, added when --settings lacks them.
 */
static gboolean vm_settings(const struct calibrate_cli *c, struct calibrate_run *run,
			    GError **error)
{
	const Knobs *def = &run->vmo.defaults;
	/* A settings file's migration_cost column: the guest and the simulation keep their own. */
	const KnobSettingsFixed fixed = { "migration_cost", run->cfg.tun.migration_cost };
	GError *local = NULL;

	if (!c->settings) {
		run->settings = knob_settings_new();
		knob_settings_add(run->settings, "defaults", def);
		return TRUE;
	}
	if (!(run->settings = knob_settings_parse(c->settings, def, &fixed, 1, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");

	gint at = knob_settings_find(run->settings, def);
	KnobSetting first = { NULL, *def };

	if (at == 0)
		return TRUE;
	for (guint i = 0; at < 0 && i < run->settings->len; i++)
		if (strcmp(g_array_index(run->settings, KnobSetting, i).id, "defaults") == 0)
			return cmd_usage(error,
					 "--settings: 'defaults' is not the 6.1 kernel's defaults "
					 "on %u CPUs",
					 run->vmo.boot.cpus);
	if (at > 0) {
		/* Moved to the front: the id goes along, so the array must not free it. */
		first.id = g_steal_pointer(&g_array_index(run->settings, KnobSetting, at).id);
		g_array_remove_index(run->settings, (guint)at);
	} else {
		first.id = g_strdup("defaults");
	}
	g_array_prepend_val(run->settings, first);
	return TRUE;
}

/* --real vm: the FSM model, one boot, the guest's CPUs those simulated. */
static gboolean prepare_vm(const struct calibrate_cli *c, struct calibrate_run *run, GError **error)
{
	g_autofree char *log_root = g_build_filename(c->out, "vm", NULL);

	if (run->model != CALIBRATION_MODEL_FSM)
		return cmd_usage(error, "--model bootstrap: --real vm calibrates the fsm model");
	if (flag_given(&c->flags, &c->vm.cpus) && c->vm.cpus != run->cfg.nr_cpus)
		return cmd_usage(error,
				 "--vm-cpus %" G_GINT64_FORMAT
				 ": the simulation models --cpus %u; the guest must have as many",
				 c->vm.cpus, run->cfg.nr_cpus);
	vm_cli_objective(&c->vm, run->cfg.nr_cpus, "", log_root, &run->vmo);
	run->vmo.rounds = run->repeat; /* calibrate's rounds are its --repeat */
	run->vmo.seed = run->protocol.seed;
	return cmd_prepare_out(c->out, error) && vm_settings(c, run, error) &&
	       guest_commands(c, run, error);
}

/* The real benchmark, and the directory its results go to. */
static gboolean open_bench(const struct calibrate_cli *c, struct calibrate_run *run, GError **error)
{
	GError *local = NULL;

	if (run->vm)
		return prepare_vm(c, run, error);
	if (!c->real_cmd && (run->params.fds != 20 || run->params.datasize != 100))
		return cmd_usage(error,
				 "--fds and --datasize other than 20 and 100 need --real-cmd: "
				 "the default tools cannot be told them");
	if (!cmd_prepare_out(c->out, error))
		return FALSE;
	run->bench = c->real_cmd ? realbench_new_template(c->real_cmd, &local)
				 : realbench_new_default(&local);
	return run->bench || cmd_relabel(error, CMD_ERROR_USAGE, local, "");
}

static gboolean prepare(struct calibrate_cli *c, struct calibrate_run *run, GError **error)
{
	GError *local = NULL;
	const char *measured = flag_first_given(&c->hb.flags, &c->hb.solo_ms, &c->hb.degradation,
						&c->hb.bootstrap_file, NULL);

	if (measured)
		return cmd_usage(error,
				 "%s: calibrate measures the bootstrapped model's inputs itself",
				 measured);
	/* On the host the simulation models this machine unless told otherwise: its CPUs and its
	 * kernel's HZ, on which the real runs' scheduler decides. */
	if (!c->real || strcmp(c->real, "vm") != 0) {
		c->sim.default_cpus = realbench_cpu_count();
		c->sim.default_hz = linsched_host_hz();
		if (c->sim.default_cpus > SCHED_MAX_CPUS &&
		    !flag_given(&c->sim.flags, &c->sim.cpus))
			return cmd_usage(error,
					 "--cpus: this machine has %u CPUs, the simulation at most "
					 "%d; give --cpus",
					 c->sim.default_cpus, SCHED_MAX_CPUS);
	}
	if (!linsched_cli_config(&c->sim, &run->cfg, &local) ||
	    !hackbench_cli_params(&c->hb, &run->cfg.machine, &run->params, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return check_flags(c, run, error) && plan(c, run, error) &&
	       check_match_time(c, run, error) && open_bench(c, run, error);
}

/* ---- measure, fit, report, write ------------------------------------------------------------ */

/* The simulated jiffies of the workload at knobs k with this many groups, and the CPUs' context
 * switches (idle ones too, as the guest's /proc/stat counts them) in *switches. */
static double sim_knobs(struct calibrate_run *run, const Knobs *k, guint groups, double *switches)
{
	struct linsched_config cfg = run->cfg;
	struct hackbench_params p = run->params;

	knobs_apply(k, KNOB_SET_CFS, &cfg.tun);
	sched_tunables_update(&cfg.tun);
	p.groups = groups;
	return simulate_median(run, &cfg, &p, true, switches);
}

/* --real vm: the plan in one boot, then every setting at every group count simulated. */
static gboolean measure_vm(struct calibrate_run *run, GError **error)
{
	guint ns = run->settings->len, ng = run->groups->len;
	CalibrateVm *cv = &run->cv;

	cv->settings = run->settings;
	cv->groups = run->groups;
	if (!calibrate_vm_measure(cv, &run->vmo, (const char *const *)run->commands->pdata, error))
		return FALSE;
	/* The host's steal was part of the machine the real runs ran on: simulate it too. */
	double ppm, stall;

	if (!run->steal_given && vm_measurement_steal(&cv->m, &ppm, &stall) && stall >= 1) {
		run->cfg.costs.steal_ppm = (uint64_t)llround(ppm);
		run->cfg.costs.stall_ns = (uint64_t)llround(stall);
		run->steal_measured = linsched_config_validate(&run->cfg, NULL);
		if (!run->steal_measured)
			run->cfg.costs.steal_ppm = 0;
	}
	cv->sim = g_new(double, (gsize)ns *ng);
	cv->sim_switches = g_new(double, (gsize)ns *ng);
	progress_init(&run->progress, ns * ng);
	for (guint s = 0; s < ns; s++)
		for (guint g = 0; g < ng; g++) {
			const KnobSetting *k = &g_array_index(run->settings, KnobSetting, s);
			guint groups = g_array_index(run->groups, guint, g);
			g_autofree char *what =
				g_strdup_printf("simulating %s at %u groups", k->id, groups);

			progress_update(&run->progress, run->done, what);
			cv->sim[s * ng + g] =
				sim_knobs(run, &k->knobs, groups, &cv->sim_switches[s * ng + g]);
			run->done++;
		}
	progress_end(&run->progress);
	return TRUE;
}

/* What the matching simulates: every fitted group count, costs scaled by a trial factor. */
struct match_ctx {
	struct calibrate_run *run;
	struct hackbench_params base; /* the costs being scaled */
	guint trials;
};

static void scale_costs(const struct hackbench_params *base, double factor,
			struct hackbench_params *p)
{
	p->write_ns = (uint64_t)llround((double)base->write_ns * factor);
	p->read_ns = (uint64_t)llround((double)base->read_ns * factor);
	p->block_ns = (uint64_t)llround((double)base->block_ns * factor);
}

static void match_sim(double factor, double *sim_ms, void *ctx)
{
	struct match_ctx *m = ctx;
	struct calibrate_run *run = m->run;
	struct hackbench_params p = m->base;
	g_autofree char *what = g_strdup_printf("matching the time: trial %u, message costs x %.3f",
						++m->trials, factor);

	progress_update(&run->progress, run->done, what);
	scale_costs(&m->base, factor, &p);
	for (guint i = 0; i < run->groups->len; i++) {
		double switches;

		p.groups = g_array_index(run->groups, guint, i);
		sim_ms[i] = simulate_median(run, &run->cfg, &p, false, &switches) * 1000.0 /
			    run->cfg.hz;
	}
}

/*
 * --match-time: the factor on the message costs at which the simulation takes the real time (the
 * medians of the fitted group counts' runs); the workload simulates with the scaled costs from
 * here on.
 */
static gboolean match_costs(struct calibrate_run *run, GError **error)
{
	guint n = run->groups->len;
	g_autofree double *real = g_new(double, n);
	g_autofree double *runs = g_new(double, run->repeat);
	struct match_ctx m = { .run = run, .base = run->params };

	for (guint i = 0; i < n; i++) {
		memcpy(runs, &run->ms[(gsize)i * run->repeat], run->repeat * sizeof(double));
		real[i] = stats_median(runs, run->repeat);
	}
	if (!match_time(real, n, match_sim, &m, &run->matched, error))
		return FALSE;
	scale_costs(&m.base, run->matched.factor, &run->params);

	/* calibration.ini's workload line says at which costs it was simulated. */
	char *workload = g_strdup_printf("%s, message costs x %.4f to take the real time "
					 "(--match-time: machine.ini)",
					 run->cal->workload, run->matched.factor);

	g_free(run->cal->workload);
	run->cal->workload = workload;
	printf("Matched the time (--match-time): message costs x %.4f -- write %" G_GUINT64_FORMAT
	       " -> %" G_GUINT64_FORMAT " ns, read %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
	       " ns, blocked read %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " ns;\n"
	       "  real / simulated ms, least squares through the origin over the group medians: "
	       "%.4f before, %.4f after (%u trials of every group count)\n\n",
	       run->matched.factor, m.base.write_ns, run->params.write_ns, m.base.read_ns,
	       run->params.read_ns, m.base.block_ns, run->params.block_ns, run->matched.slope_at_1,
	       run->matched.slope, run->matched.evaluations);
	return TRUE;
}

/* The real runs (and the bootstrapped model's inputs from them), then the simulations. */
static gboolean measure(struct calibrate_run *run, GError **error)
{
	guint n = run->groups->len;

	if (run->vm)
		return measure_vm(run, error);
	g_autofree char *medians = sim_medians_text(run);
	g_autofree char *workload = g_strdup_printf(
		"hackbench %s, %s, %u+%u tasks per group, %u loops, %u-byte messages; simulated on %u CPUs at HZ %u, machine %s, profile %s%s",
		realbench_channel_name(run->workload.channel),
		realbench_tasks_name(run->workload.tasks), run->params.fds, run->params.fds,
		run->loops, run->params.datasize, run->cfg.nr_cpus, run->cfg.hz,
		run->machine_path ? run->machine_path : "built-in", run->cfg.profile->name,
		medians);

	run->cal = calibration_new(run->model, workload, run->loops, run->workload.tasks);
	run->ms = g_new(double, (gsize)run->measured->len * run->repeat);
	run->switches = g_new(double, (gsize)run->measured->len * run->repeat);
	run->sim = g_new(double, n);
	run->sim_switches = g_new(double, n);
	progress_init(&run->progress, run->measured->len * run->repeat + n);
	if (!warm_up(run, error) || !real_runs(run, run->cal, run->ms, run->switches, error)) {
		progress_end(&run->progress);
		return FALSE;
	}
	run->cal->protocol = run->protocol;
	if (run->model == CALIBRATION_MODEL_BOOTSTRAP)
		run->boot = bootstrap_inputs(run, run->ms);
	if (run->match_time && !match_costs(run, error)) {
		progress_end(&run->progress);
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		g_autofree char *what = g_strdup_printf("simulating %u groups",
							g_array_index(run->groups, guint, i));

		progress_update(&run->progress, run->done, what);
		run->sim[i] = sim_jiffies(run, g_array_index(run->groups, guint, i),
					  &run->sim_switches[i]);
		run->done++;
	}
	progress_end(&run->progress);
	return TRUE;
}

/* The line through every point's mean, and through every run, for --real vm. */
static gboolean fit_vm(struct calibrate_run *run, GError **error)
{
	const CalibrateVm *cv = &run->cv;
	g_autofree char *steal_text =
		run->steal_measured
			? g_strdup_printf(
				  ", with the steal the host measured (%.1f %% in stalls of "
				  "%.2f ms)",
				  (double)run->cfg.costs.steal_ppm / 1e4,
				  (double)run->cfg.costs.stall_ns / 1e6)
			: NULL;
	g_autofree char *tool =
		run->commands->len && !strstr(g_ptr_array_index(run->commands, 0), "hackbench")
			? g_strdup_printf("'%s'", (char *)g_ptr_array_index(run->commands, 0))
			: g_strdup_printf("hackbench %s, %s",
					  realbench_channel_name(run->workload.channel),
					  realbench_tasks_name(run->workload.tasks));
	g_autofree char *medians = sim_medians_text(run);
	g_autofree char *workload = g_strdup_printf(
		"%s, %u+%u tasks per group, %u loops, %u-byte messages, in Debian's 6.1 kernel in a VM "
		"(%u CPUs, %u rounds in one boot); simulated on %u CPUs, profile %s%s%s",
		tool, run->params.fds, run->params.fds, run->loops, run->params.datasize,
		run->vmo.boot.cpus, run->repeat, run->cfg.nr_cpus, run->cfg.profile->name,
		steal_text ? steal_text : "", medians);
	Calibration *cal = run->cal =
		calibration_new(run->model, workload, run->loops, run->workload.tasks);

	g_free(cal->kernel);
	cal->kernel = g_strdup(cv->m.kernel ? cv->m.kernel : "?");
	cal->cpus = run->vmo.boot.cpus;
	g_free(cal->source);
	cal->source = g_strdup("vm");
	cal->protocol = run->protocol;
	calibrate_vm_points(cv, cal);
	if (!calibration_fit(cal, error))
		return FALSE;

	guint n = cal->points->len, R = run->repeat;
	g_autofree double *xs = g_new(double, (gsize)n *R), *ys = g_new(double, (gsize)n *R);

	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);

		for (guint r = 0; r < R; r++) {
			xs[(gsize)i * R + r] = p->sim_jiffies;
			ys[(gsize)i * R + r] = g_array_index(p->real_ms, double, r);
		}
	}
	run->all = regression_fit(xs, ys, (gsize)n * R, NULL);
	return TRUE;
}

/* The line through the per-group means (the calibration), and through every run. */
static gboolean fit(struct calibrate_run *run, GError **error)
{
	guint n = run->groups->len;

	if (run->vm)
		return fit_vm(run, error);

	/* The fitted group counts come first in measured, so ms[i * repeat] is groups[i]'s. */
	for (guint i = 0; i < n; i++) {
		calibration_add_point(run->cal, g_array_index(run->groups, guint, i), run->sim[i],
				      &run->ms[(gsize)i * run->repeat], run->repeat);
		calibration_set_switches(run->cal, i, run->sim_switches[i],
					 &run->switches[(gsize)i * run->repeat], run->repeat);
	}
	if (!calibration_fit(run->cal, error))
		return FALSE;

	g_autofree double *xs = g_new(double, (gsize)n * run->repeat);

	for (guint i = 0; i < n; i++)
		for (guint r = 0; r < run->repeat; r++)
			xs[(gsize)i * run->repeat + r] = run->sim[i];
	run->all = regression_fit(xs, run->ms, (gsize)n * run->repeat, NULL);
	return TRUE;
}

static void print_fit_line(const char *name, double est, double se, double t, double p)
{
	printf("  %-10s %14.6g %12.4g %10.3f %12.4g\n", name, est, se, t, p);
}

/* Real runs and simulation agree on the context switches when neither is more than this times
 * the other (issue 14's criterion). */
#define SWITCHES_AGREE 1.5

/* Whether a is within SWITCHES_AGREE times b, either way. */
static gboolean switches_agree(double a, double b)
{
	return a <= SWITCHES_AGREE * b && a >= b / SWITCHES_AGREE;
}

/*
 * The context switches beside the time fit: the simulator can match the times through its costs
 * and still schedule differently, and the switches show it. Real: the median of the runs, each
 * counted by the kernel per task (rusage); simulated: the same count of the simulated tasks.
 *
 * With 6 runs or more, also the real median's interval of order statistics (6 runs: their least
 * and greatest, 96.9 %): one calibration's median of 6 swings by a third, so a simulated count
 * within 1.5x of the interval's reach is one the runs cannot tell from agreeing, and a miss
 * beyond that reach (**) is one they can.
 */
static void print_switches(const struct calibrate_run *run)
{
	const Calibration *cal = run->cal;
	guint n = cal->points->len, agree = 0, reach = 0;
	double coverage;
	guint j = stats_median_rank(run->repeat, &coverage);
	g_autofree double *sorted = g_new(double, run->repeat);

	g_autofree char *interval = g_strdup_printf("[%.1f %% interval]", 100 * coverage);

	printf("\nContext switches per run (every time a task left a CPU; real: median of the runs)\n\n");
	if (j)
		printf("  %6s %14s %19s %14s %10s\n", "groups", "real", interval, "simulated",
		       "real/sim");
	else
		printf("  %6s %14s %14s %10s\n", "groups", "real", "simulated", "real/sim");
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *pt = &g_array_index(cal->points, CalibrationPoint, i);
		double ratio = pt->real_switches / pt->sim_switches;
		gboolean ok = switches_agree(pt->real_switches, pt->sim_switches);

		agree += ok;
		if (!j) {
			printf("  %6u %14.0f %14.0f %10.3f%s\n", pt->groups, pt->real_switches,
			       pt->sim_switches, ratio, ok ? "" : "  *");
			continue;
		}
		memcpy(sorted, &run->switches[(gsize)measured_index(run, pt->groups) * run->repeat],
		       run->repeat * sizeof(double));
		gsl_sort(sorted, 1, run->repeat);
		double lo = sorted[j - 1], hi = sorted[run->repeat - j];
		gboolean in_reach = ok || (pt->sim_switches <= SWITCHES_AGREE * hi &&
					   pt->sim_switches >= lo / SWITCHES_AGREE);

		reach += in_reach;
		printf("  %6u %14.0f   [%6.0f, %6.0f] %14.0f %10.3f%s\n", pt->groups,
		       pt->real_switches, lo, hi, pt->sim_switches, ratio,
		       ok	  ? ""
		       : in_reach ? "  *"
				  : "  **");
	}
	printf("\n  within %.1fx at %u of %u group counts%s\n", SWITCHES_AGREE, agree, n,
	       agree < n ? " (* outside)" : "");
	if (j)
		printf("  within %.1fx of the real median's %.1f %% interval (order statistics of %u "
		       "runs) at %u of %u%s\n",
		       SWITCHES_AGREE, 100 * coverage, run->repeat, reach, n,
		       reach < n ? " (** outside)" : "");
}

static void print_all_runs(const Regression *all)
{
	if (all)
		printf("\nOver all %zu individual runs: a %.6g (se %.4g), b %.6g (se %.4g), R^2 %.6f, adjusted R^2 %.6f\n",
		       all->n, all->a, all->se_a, all->b, all->se_b, all->r2, all->adj_r2);
}

static void print_report(const struct calibrate_run *run)
{
	const Calibration *cal = run->cal;
	const Regression *all = run->all;

	const CalibrationFit *f = &cal->fit;
	guint n = cal->points->len;

	if (cal->settings->len)
		printf("Real runs: %u knob setting%s x %u group counts x %u rounds in one boot of %s "
		       "in a VM (%u CPUs)\n\n",
		       cal->settings->len, cal->settings->len == 1 ? "" : "s",
		       n / cal->settings->len,
		       g_array_index(cal->points, CalibrationPoint, 0).real_ms->len, cal->kernel,
		       cal->cpus);
	printf("Calibration (%s model): real_ms = a + b * sim_jiffies, fitted on the %u %s means\n\n",
	       calibration_model_name(cal->model), n, cal->settings->len ? "point" : "per-group");
	printf("  %-10s %14s %12s %10s %12s\n", "term", "estimate", "std.error", "t", "p");
	print_fit_line("a (ms)", f->a, f->se_a, f->t_a, f->p_a);
	print_fit_line("b (ms/jf)", f->b, f->se_b, f->t_b, f->p_b);
	printf("\n  R^2 %.6f   adjusted R^2 %.6f   residual std. error %.4g ms on %u df\n", f->r2,
	       f->adj_r2, f->rse, n - 2);
	printf("  F %.6g on 1 and %u df, p %.4g   leave-one-out MAPE %.3f%%\n", f->f, n - 2, f->f_p,
	       f->loo_mape);
	printf("  R^2 against the group count alone (the null model) %.6f\n", f->r2_groups);
	if (isfinite(f->r2_group_means))
		printf("  R^2 of each group count's own mean (the most a model blind to the knobs can "
		       "explain) %.6f\n"
		       "  of how the settings differ at the same group count, the fit explains R^2 %.4f\n",
		       f->r2_group_means, f->r2_within_groups);
	if (isfinite(f->lof_f)) {
		g_autofree char *repeats_text =
			isfinite(f->repeats_for_r2_99)
				? g_strdup_printf("%.0f", f->repeats_for_r2_99)
				: g_strdup("more than any number of");

		printf("  lack of fit F %.4g on %u and %.0f df, p %.4g; one run's spread (pure error%s) sd %.4g ms\n",
		       f->lof_f, n - 2, f->pe_df, f->lof_p,
		       cal->protocol.order != RUN_ORDER_ROUNDS ? ""
		       : cal->protocol.proportional ? ", net of the rounds as proportional blocks"
						    : ", net of the rounds",
		       f->pe_sd);
		printf("  with that spread, a line of exactly the right shape should expect R^2 %.4f on these means;\n"
		       "  to expect 0.99 it would need %s repeats\n",
		       f->r2_ceiling, repeats_text);
	}
	if (cal->settings->len) {
		calibrate_vm_print_points(cal);
		print_all_runs(all);
		calibrate_vm_print_switches(cal);
		return;
	}
	printf("\n");

	printf("  %6s %14s %12s %10s %12s %12s\n", "groups", "sim jiffies", "real ms", "sd",
	       "predicted", "residual");
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *pt = &g_array_index(cal->points, CalibrationPoint, i);

		printf("  %6u %14.3f %12.3f %10.3f %12.3f %12.3f\n", pt->groups, pt->sim_jiffies,
		       pt->real_mean_ms, pt->real_sd_ms, pt->predicted_ms, pt->residual_ms);
	}
	print_all_runs(all);
	print_switches(run);
}

#define MATCHED_MACHINE_NAME "machine.ini"

/*
 * --match-time: the machine simulated, as a --machine file: the one given (or only the keys set,
 * on the built-in machine) with the channel's message costs the matched ones.
 */
static gboolean write_matched_machine(const struct calibrate_run *run, const char *out,
				      GError **error)
{
	static const char *const socket_keys[] = { "socket_write", "socket_read", "socket_block" };
	static const char *const pipe_keys[] = { "pipe_write", "pipe_read", "pipe_block" };
	const char *const *keys = run->params.pipe ? pipe_keys : socket_keys;
	const uint64_t value[] = { run->params.write_ns, run->params.read_ns,
				   run->params.block_ns };
	const FitParam *ps[3];
	guint n = 0;
	struct linsched_machine m = run->cfg.machine;
	g_autofree char *path = g_build_filename(out, MATCHED_MACHINE_NAME, NULL);
	g_autofree char *date = calibration_now_iso8601();
	g_autofree char *comment = g_strdup_printf(
		"machine.ini - the machine tuner calibrate --match-time simulated on %s: %s with the "
		"%s's message costs\nscaled by %.4f, so that the simulated hackbench takes the real "
		"time (real / simulated %.4f before, %.4f after).\nGive it as --machine to simulate "
		"what calibration.ini calibrates.",
		date, run->machine_path ? run->machine_path : "the built-in machine",
		run->params.pipe ? "pipe" : "socket", run->matched.factor, run->matched.slope_at_1,
		run->matched.slope);

	/* A cost of 0 (the built-in machine's blocked read) scales to 0: it stays as it was. */
	for (guint i = 0; i < 3; i++)
		if (value[i]) {
			ps[n] = fit_param_find(keys[i]);
			fit_param_set(ps[n++], &m, (double)value[i]);
		}
	return fit_write_machine(path, run->machine_path, &m, &run->cfg.machine, ps, n,
				 "tuner calibrate --match-time", comment, error);
}

static gboolean write_files(const struct calibrate_run *run, const char *out, GError **error)
{
	bool bootstrap = run->model == CALIBRATION_MODEL_BOOTSTRAP;

	if (run->match_time && !write_matched_machine(run, out, error))
		return FALSE;

	if ((bootstrap && !calibration_bootstrap_write(&run->boot, out, error)) ||
	    (run->vm && !calibrate_vm_write_settings(&run->cv, out, error)) ||
	    !calibration_write(run->cal, out, error))
		return FALSE;
	printf("\nWrote %s/: %s, %s, %s%s%s%s\n", out, CALIBRATION_CSV_NAME, CALIBRATION_RUNS_NAME,
	       CALIBRATION_INI_NAME,
	       bootstrap ? " and " CALIBRATION_BOOTSTRAP_NAME " (the model's inputs)" : "",
	       run->vm ? ", settings.csv and the boot's plan, console and runs in vm/" : "",
	       run->match_time ? " and " MATCHED_MACHINE_NAME " (the matched machine)" : "");
	return TRUE;
}

/* ---- the command ---------------------------------------------------------------------------- */

static gboolean calibrate(struct calibrate_cli *c, struct calibrate_run *run, GError **error)
{
	if (!prepare(c, run, error) || !measure(run, error) || !fit(run, error))
		return FALSE;
	print_report(run);
	return write_files(run, c->out, error);
}

int tuner_cmd_calibrate(int argc, char **argv)
{
	struct calibrate_cli cli;
	struct calibrate_run run = { 0 };
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- fit real runtimes to simulated jiffies");
	g_autoptr(GError) error = NULL;
	int status = 0;

	calibrate_cli_init(&cli);
	add_options(&cli, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !calibrate(&cli, &run, &error))
		status = cmd_fail_status("calibrate", error);
	calibrate_run_clear(&run);
	calibrate_cli_clear(&cli);
	return status;
}
