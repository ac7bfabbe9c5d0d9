/*
 * bench.c - `make bench`: how fast the simulator is, against the targets in the issues.
 *
 * Each benchmark is timed in-process (the median of several runs, after a warm-up), and its peak
 * resident memory is measured in a child process that runs it once (so one benchmark's memory does
 * not hide another's). Exit status 1 if a "must reach" target is missed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "linsched/sim.h"
#include "tasks/hackbench.h"
#include "tasks/tasks.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/eval/tune_loop.h"
#include "tuner/eval/workload.h"

typedef void (*bench_fn)(void);

static double now_s(void)
{
	return (double)g_get_monotonic_time() / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median wall time of runs calls (after one warm-up). */
static double time_median(bench_fn fn, int runs)
{
	double t[16];

	fn();
	for (int i = 0; i < runs; i++) {
		double start = now_s();

		fn();
		t[i] = now_s() - start;
	}
	qsort(t, (size_t)runs, sizeof(double), cmp_double);
	return t[runs / 2];
}

/* Peak RSS in MiB of one run in a fresh child. */
static double peak_rss_mib(bench_fn fn)
{
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	int status;
	struct rusage ru;

	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return -1;
	return (double)ru.ru_maxrss / 1024.0;
}

/* ---------------------------------------------------------------- workloads */

static void sleeprun_40x4(void)
{
	struct linsched_config cfg;
	struct task_spec spec;

	linsched_config_init(&cfg, NULL, 4);
	cfg.duration_ns = 60 * NSEC_PER_SEC;
	task_spec_parse("sleeprun:busy_ms=1:sleep_ms=1:count=40", &spec, NULL);

	struct linsched_sim *sim = linsched_sim_new(&cfg);

	task_spec_spawn(sim, &spec);
	linsched_sim_run(sim);
	linsched_sim_free(sim);
}

static void hackbench_run(unsigned int groups, unsigned int loops, enum hackbench_model model)
{
	struct hackbench_params p;
	struct linsched_config cfg;
	struct hackbench_outcome out;

	hackbench_params_default(&p);
	p.groups = groups;
	p.loops = loops;
	p.threads = true;
	p.model = model;
	hackbench_params_resolve(&p);
	linsched_config_init(&cfg, NULL, 2);
	cfg.costs.switch_ns = hackbench_switch_ns(&p);
	hackbench_simulate(&cfg, &p, &out);
	if (out.deadlock)
		fprintf(stderr, "bench: unexpected deadlock\n");
}

static void hackbench_5x1000_fsm(void)
{
	hackbench_run(5, 1000, HACKBENCH_FSM);
}

static void hackbench_5x1000_boot(void)
{
	hackbench_run(5, 1000, HACKBENCH_BOOTSTRAP);
}

static void hackbench_100x100_fsm(void)
{
	hackbench_run(100, 100, HACKBENCH_FSM);
}

/* ---------------------------------------------------------------- profiles side by side */

typedef void (*profile_fn)(const struct sched_profile *profile);

static void sleeprun_40x4_profile(const struct sched_profile *profile)
{
	struct linsched_config cfg;
	struct task_spec spec;

	linsched_config_init(&cfg, profile, 4);
	cfg.duration_ns = 60 * NSEC_PER_SEC;
	task_spec_parse("sleeprun:busy_ms=1:sleep_ms=1:count=40", &spec, NULL);

	struct linsched_sim *sim = linsched_sim_new(&cfg);

	task_spec_spawn(sim, &spec);
	linsched_sim_run(sim);
	linsched_sim_free(sim);
}

static void hackbench_profile(const struct sched_profile *profile, unsigned int groups,
			      unsigned int loops)
{
	struct hackbench_params p;
	struct linsched_config cfg;
	struct hackbench_outcome out;

	hackbench_params_default(&p);
	p.groups = groups;
	p.loops = loops;
	p.threads = true;
	hackbench_params_resolve(&p);
	linsched_config_init(&cfg, profile, 2);
	cfg.costs.switch_ns = hackbench_switch_ns(&p);
	hackbench_simulate(&cfg, &p, &out);
	if (out.deadlock)
		fprintf(stderr, "bench: unexpected deadlock (%s)\n", profile->name);
}

static void hackbench_5x1000_profile(const struct sched_profile *profile)
{
	hackbench_profile(profile, 5, 1000);
}

static void hackbench_100x100_profile(const struct sched_profile *profile)
{
	hackbench_profile(profile, 100, 100);
}

/*
 * The median wall time of fn under profiles a and b, their runs interleaved (a, b, a, b, ...)
 * after a warm-up of each, so that both see the same spells of a shared machine's speed.
 */
static void time_pair(profile_fn fn, const struct sched_profile *a, const struct sched_profile *b,
		      int runs, double *ta, double *tb)
{
	double t[2][16];

	fn(a);
	fn(b);
	for (int i = 0; i < runs; i++) {
		for (int j = 0; j < 2; j++) {
			double start = now_s();

			fn(j ? b : a);
			t[j][i] = now_s() - start;
		}
	}
	qsort(t[0], (size_t)runs, sizeof(double), cmp_double);
	qsort(t[1], (size_t)runs, sizeof(double), cmp_double);
	*ta = t[0][runs / 2];
	*tb = t[1][runs / 2];
}

static void compare_profiles(void)
{
	const struct sched_profile *cfs = sched_profile_find("6.1");
	const struct sched_profile *eevdf = sched_profile_find("eevdf");
	static const struct {
		const char *what;
		profile_fn fn;
		int runs;
	} cases[] = {
		{ "40 sleeprun tasks, 4 CPUs, 60 s virtual (as 1.)", sleeprun_40x4_profile, 9 },
		{ "hackbench 5 x 1000, threads, FSM, 2 CPUs (as 2.)", hackbench_5x1000_profile, 7 },
		{ "hackbench 100 x 100, threads, FSM, 2 CPUs (as 4.)", hackbench_100x100_profile,
		  5 },
	};

	printf("\n6. the eevdf profile beside 6.1's (medians of interleaved runs)\n");
	printf("   %-52s %10s %10s %8s\n", "", "6.1", "eevdf", "ratio");
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		double t_cfs, t_eevdf;

		time_pair(cases[i].fn, cfs, eevdf, cases[i].runs, &t_cfs, &t_eevdf);
		printf("   %-52s %9.4fs %9.4fs %8.2f\n", cases[i].what, t_cfs, t_eevdf,
		       t_eevdf / t_cfs);
	}
}

/* A full PSO (20 particles x 30 iterations) on 5 groups x 1 loop, threads, 2 CPUs. */
static void pso_full(guint jobs)
{
	struct workload_cli wc;
	struct workload w;
	struct knob_space space;

	workload_cli_init(&wc);
	wc.hb.groups = 5;
	wc.hb.loops = 1;
	wc.hb.threads = TRUE;
	wc.sim.cpus = 2;
	if (!workload_finish(&wc, &w, NULL))
		abort();
	knob_space_init(&space, true);

	TuneConfig c = {
		.type = tuner_optimizer_pso,
		.dim = space.dim,
		.map = knob_space_map,
		.map_ctx = &space,
		.evaluator = { .objective = workload_objective,
			       .objective_ctx = &w,
			       .replicates = 1,
			       .base_seed = 1,
			       .jobs = jobs },
	};

	tuner_optimizer_params_default(&c.params);
	tune_run_free(tune_run(&c, NULL));
	workload_clear(&w);
	workload_cli_clear(&wc);
}

static void pso_jobs1(void)
{
	pso_full(1);
}

static void pso_jobs2(void)
{
	pso_full(2);
}

/* The real benchmark's wall time, or a negative value when no tool is installed. */
static double real_hackbench_5x1000(const char **tool)
{
	const char *perf[] = { "perf", "bench", "sched", "messaging", "-t",
			       "-g",   "5",	"-l",	 "1000",      NULL };
	const char *hb[] = { "hackbench", "-T", "-g", "5", "-l", "1000", NULL };
	const char **argv = NULL;
	g_autofree char *perf_path = g_find_program_in_path("perf");
	g_autofree char *hb_path = g_find_program_in_path("hackbench");

	if (perf_path)
		argv = perf, *tool = "perf bench sched messaging -t -g 5 -l 1000";
	else if (hb_path)
		argv = hb, *tool = "hackbench -T -g 5 -l 1000";
	else
		return -1;

	double start = now_s();
	gint status;

	if (!g_spawn_sync(NULL, (char **)argv, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
				  G_SPAWN_STDERR_TO_DEV_NULL,
			  NULL, NULL, NULL, NULL, &status, NULL) ||
	    status != 0)
		return -1;
	return now_s() - start;
}

static int failures;

static void verdict(const char *what, bool ok)
{
	printf("    %-60s %s\n", what, ok ? "met" : "MISSED");
	if (!ok)
		failures++;
}

int main(void)
{
	printf("LinSched-Tuner benchmarks (%u CPUs here)\n\n", g_get_num_processors());

	double t = time_median(sleeprun_40x4, 7);

	printf("1. 40 sleeprun:busy_ms=1:sleep_ms=1 tasks, 4 CPUs, 60 s virtual\n");
	printf("   wall %.4f s (median of 7), peak RSS %.1f MiB\n", t, peak_rss_mib(sleeprun_40x4));
	verdict("must reach 0.1 s wall (aim 0.035 s)", t <= 0.1);

	double fsm = time_median(hackbench_5x1000_fsm, 5);
	const char *tool = NULL;
	double real = real_hackbench_5x1000(&tool);

	printf("\n2. hackbench 5 groups x 1000 loops, threads, FSM, 2 CPUs\n");
	printf("   simulation wall %.4f s (median of 5)\n", fsm);
	if (real > 0) {
		printf("   real %s: wall %.3f s\n", tool, real);
		printf("   ratio simulation / real = 1/%.1f\n", real / fsm);
		verdict("must reach 1/5 of the real wall time (aim 1/20)", fsm <= real / 5);
	} else {
		printf("   real benchmark: neither perf nor hackbench installed, ratio not measured\n");
	}

	double boot = time_median(hackbench_5x1000_boot, 7);

	printf("\n3. the same workload, bootstrapped model\n");
	printf("   wall %.5f s, %.1f x faster than FSM\n", boot, fsm / boot);
	verdict("must be at least 10 x faster than FSM", fsm / boot >= 10);

	double big = time_median(hackbench_100x100_fsm, 3);

	printf("\n4. hackbench 100 groups x 100 loops (4000 tasks), threads, FSM, 2 CPUs\n");
	printf("   wall %.3f s (median of 3), peak RSS %.1f MiB\n", big,
	       peak_rss_mib(hackbench_100x100_fsm));

	double j1 = time_median(pso_jobs1, 5), j2 = time_median(pso_jobs2, 5);

	printf("\n5. a full PSO (20 particles x 30 iterations) on hackbench 5 groups x 1 loop, threads, 2 CPUs\n");
	printf("   --jobs 1: %.3f s, --jobs 2: %.3f s (median of 5), speed-up %.2f\n", j1, j2,
	       j1 / j2);

	compare_profiles();

	printf("\n%s\n", failures ? "Some targets were missed." : "All targets met.");
	return failures ? 1 : 0;
}
