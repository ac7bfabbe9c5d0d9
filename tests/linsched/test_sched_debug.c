/*
 * test_sched_debug.c - the invariant checks of the -DSCHED_DEBUG build (linsched/sched_debug.h).
 *
 * First, that the checker can fail: run queues built by hand (tests/support/sched_tasks.h), then
 * broken one way at a time, each must be refused with the right message. Then, in the debug build
 * only (build/debug, where the engine checks after every event), a few hundred seeded random
 * workloads: CPU counts, memory domains, profiles, HZ, knobs, steal, turns, noise, task kinds and
 * nice levels drawn from one seeded generator. A violation aborts the program (g_error names the
 * seed), so a passing run means every event of every workload kept the invariants. Elsewhere that
 * test is skipped: without SCHED_DEBUG the engine checks nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "linsched/sched_debug.h"
#include "linsched/sim.h"
#include "tasks/hackbench.h"
#include "tasks/tasks.h"
#include "tests/support/sched_tasks.h"

#define MS 1000000ULL

struct queue {
	struct sched_system sys;
	struct task_struct t[3];
};

/* Three nice-0 tasks queued on CPU 0 at vruntimes 1, 2, 3 ms: a valid queue. */
static void queue_init(struct queue *q)
{
	struct sched_tunables tun = { .latency = 20 * MS,
				      .min_granularity = 4 * MS,
				      .wakeup_granularity = 5 * MS,
				      .migration_cost = MS / 2 };

	memset(q, 0, sizeof *q);
	assert_true(sched_system_init(&q->sys, 2, 1, &tun, sched_profile_default()));
	for (int i = 0; i < 3; i++)
		queue_at(&q->sys, &q->t[i], i + 1, 0, 0, (u64)(i + 1) * MS);
}

static void expect_refused(struct queue *q, const char *needle)
{
	char *why = NULL;

	if (sched_debug_check_rq(cpu_rq(&q->sys, 0), &why))
		fail_msg("a broken queue passed, expected '%s'", needle);
	if (!strstr(why, needle))
		fail_msg("expected '%s', got '%s'", needle, why);
	g_free(why);
	sched_system_destroy(&q->sys);
}

static void test_checker_fails(void **state)
{
	(void)state;
	struct queue q;
	char *why = NULL;

	queue_init(&q);
	if (!sched_debug_check_rq(cpu_rq(&q.sys, 0), &why))
		fail_msg("a valid queue refused: %s", why);
	sched_system_destroy(&q.sys);

	/* Out of order: the last task's vruntime below the first's, the tree unchanged. */
	queue_init(&q);
	q.t[2].se.vruntime = 0;
	expect_refused(&q, "after task");

	queue_init(&q);
	cpu_rq(&q.sys, 0)->cfs.nr_running++;
	expect_refused(&q, "cfs nr_running 4, but 3 entities are queued");

	/* Three nice-0 tasks weigh 3 x 1024. */
	queue_init(&q);
	cpu_rq(&q.sys, 0)->cfs.load.weight += 1;
	expect_refused(&q, "cfs load 3073, but the queued entities weigh 3072");

	queue_init(&q);
	cpu_rq(&q.sys, 0)->nr_running--;
	expect_refused(&q, "rq nr_running 2, cfs nr_running 3");

	/* A red root (the colour bit is bit 0 of the parent word; RB_RED is 0). */
	queue_init(&q);
	cpu_rq(&q.sys, 0)->cfs.tasks_timeline.rb_root.rb_node->__rb_parent_color &= ~(uintptr_t)1;
	expect_refused(&q, "root is red");

	queue_init(&q);
	cpu_rq(&q.sys, 0)->cfs.tasks_timeline.rb_leftmost = &q.t[1].se.run_node;
	expect_refused(&q, "cached leftmost");
}

/* The same three tasks queued by the eevdf profile's class, base_slice 3 ms. */
static void eevdf_queue_init(struct queue *q)
{
	struct sched_tunables tun = { .base_slice = 3 * MS, .migration_cost = MS / 2 };

	memset(q, 0, sizeof *q);
	assert_true(sched_system_init(&q->sys, 2, 1, &tun, sched_profile_find("eevdf")));
	for (int i = 0; i < 3; i++)
		queue_at(&q->sys, &q->t[i], i + 1, 0, 0, (u64)(i + 1) * MS);
}

/* EEVDF's queue: deadline order, the augmented summaries, the sums behind V, delayed tasks. */
static void test_eevdf_checks(void **state)
{
	(void)state;
	struct queue q;
	struct sched_debug dbg = { 0 };
	const struct task_struct *tasks[3] = { &q.t[0], &q.t[1], &q.t[2] };
	char *why = NULL;

	eevdf_queue_init(&q);
	if (!sched_debug_check(&dbg, &q.sys, tasks, 3, &why))
		fail_msg("a valid EEVDF queue refused: %s", why);
	sched_system_destroy(&q.sys);

	/* The tree is in deadline order: a vruntime out of order is no error, a deadline is. */
	eevdf_queue_init(&q);
	struct sched_entity *last =
		rb_entry(rb_last(&cpu_rq(&q.sys, 0)->cfs.tasks_timeline.rb_root),
			 struct sched_entity, run_node);
	last->deadline = 0;
	expect_refused(&q, "(deadline 0) after task");

	eevdf_queue_init(&q);
	cpu_rq(&q.sys, 0)->cfs.avg_load += 1;
	expect_refused(&q, "avg_load 3073, but the tree sums to");

	eevdf_queue_init(&q);
	cpu_rq(&q.sys, 0)->cfs.avg_vruntime += 1024;
	expect_refused(&q, "avg_vruntime");

	eevdf_queue_init(&q);
	rb_entry(cpu_rq(&q.sys, 0)->cfs.tasks_timeline.rb_root.rb_node, struct sched_entity,
		 run_node)
		->min_slice = 1;
	expect_refused(&q, "subtree summary");

	/* A blocked task left queued: right only while it is delayed (DELAY_DEQUEUE). */
	eevdf_queue_init(&q);
	q.t[0].state = TASK_INTERRUPTIBLE;
	q.t[0].se.sched_delayed = true;
	dbg = (struct sched_debug){ 0 };
	if (!sched_debug_check(&dbg, &q.sys, tasks, 3, &why))
		fail_msg("a delayed task refused: %s", why);
	q.t[0].se.sched_delayed = false;
	assert_false(sched_debug_check(&dbg, &q.sys, tasks, 3, &why));
	assert_non_null(strstr(why, "task 1 is blocked or asleep but on a run queue"));
	g_free(why);
	sched_system_destroy(&q.sys);
}

/* min_vruntime going back, and a task in two places, through the whole-system check. */
static void test_system_checks_fail(void **state)
{
	(void)state;
	struct queue q;
	struct sched_debug dbg = { 0 };
	const struct task_struct *tasks[3] = { &q.t[0], &q.t[1], &q.t[2] };
	char *why = NULL;

	queue_init(&q);
	assert_true(sched_debug_check(&dbg, &q.sys, tasks, 3, &why));
	cpu_rq(&q.sys, 1)->curr = &q.t[0]; /* queued on CPU 0 and running on CPU 1 */
	assert_false(sched_debug_check(&dbg, &q.sys, tasks, 3, &why));
	assert_non_null(strstr(why, "task 1 is in 1 trees and the curr of 1 queues"));
	g_free(why);
	cpu_rq(&q.sys, 1)->curr = NULL;
	cpu_rq(&q.sys, 0)->cfs.min_vruntime = 0;
	dbg.min_vruntime[0] = 5;
	assert_false(sched_debug_check(&dbg, &q.sys, tasks, 3, &why));
	assert_non_null(strstr(why, "min_vruntime went back from 5 to 0"));
	g_free(why);
	sched_system_destroy(&q.sys);
}

#ifdef SCHED_DEBUG
/* One random workload from rng; the number of events checked. */
static uint64_t random_workload(gsl_rng *rng, uint64_t seed)
{
	static const unsigned int hzs[] = { 100, 250, 300, 1000 };
	static const char *const profiles[] = { "2.6.28", "6.1", "eevdf", "6.6" };
	const char *profile = profiles[gsl_rng_uniform_int(rng, 4)];
	unsigned int cpus = 1 + (unsigned int)gsl_rng_uniform_int(rng, 8);
	unsigned int domains = cpus % 2 == 0 && gsl_rng_uniform_int(rng, 2) ? 2 : 1;
	struct linsched_config cfg;

	linsched_config_init(&cfg, sched_profile_find(profile), cpus);
	cfg.nr_domains = domains;
	cfg.hz = hzs[gsl_rng_uniform_int(rng, 4)];
	cfg.seed = seed;
	/* Knobs anywhere in a wide band around the defaults: small ones stress preemption. */
	cfg.tun.latency = (100 + gsl_rng_uniform_int(rng, 40000)) * 1000;
	cfg.tun.min_granularity = (100 + gsl_rng_uniform_int(rng, 10000)) * 1000;
	cfg.tun.wakeup_granularity = gsl_rng_uniform_int(rng, 20000) * 1000;
	cfg.tun.base_slice = (100 + gsl_rng_uniform_int(rng, 10000)) * 1000; /* EEVDF's */
	/* A third steal: up to 60 % of each CPU's time, in stalls of 0.1 to 5 ms. */
	if (gsl_rng_uniform_int(rng, 3) == 0) {
		cfg.costs.steal_ppm = (1 + gsl_rng_uniform_int(rng, 600)) * 1000;
		cfg.costs.stall_ns = (100 + gsl_rng_uniform_int(rng, 5000)) * 1000;
		cfg.costs.stall_cv = 0.5 + 2.5 * gsl_rng_uniform(rng);
		/* Half of those in turns instead, on 1 to all but one host CPU. */
		if (cfg.nr_cpus > 1 && gsl_rng_uniform_int(rng, 2) == 0) {
			cfg.costs.steal_ppm = 0;
			cfg.costs.host_cpus = 1 + gsl_rng_uniform_int(rng, cfg.nr_cpus - 1);
		}
	}
	/* A third the machine's noise too, a second source of stalls: up to 20 %, of 10 us to 1 ms. */
	if (gsl_rng_uniform_int(rng, 3) == 0) {
		cfg.costs.noise_ppm = (1 + gsl_rng_uniform_int(rng, 200)) * 1000;
		cfg.costs.noise_ns = (10 + gsl_rng_uniform_int(rng, 1000)) * 1000;
		cfg.costs.noise_cv = 0.5 + 3.5 * gsl_rng_uniform(rng);
	}

	gboolean hackbench = gsl_rng_uniform_int(rng, 3) == 0;
	if (!hackbench)
		cfg.duration_ns = (50 + gsl_rng_uniform_int(rng, 250)) * MS;
	struct linsched_sim *sim = linsched_sim_new(&cfg);

	if (hackbench) {
		struct hackbench_params p;

		hackbench_params_default(&p);
		p.groups = 1 + (unsigned int)gsl_rng_uniform_int(rng, 3);
		p.loops = 1 + (unsigned int)gsl_rng_uniform_int(rng, 10);
		p.fds = 1 + (unsigned int)gsl_rng_uniform_int(rng, 6);
		p.pipe = gsl_rng_uniform_int(rng, 2);
		p.threads = gsl_rng_uniform_int(rng, 2);
		hackbench_params_resolve(&p);
		struct hackbench *hb = hackbench_create(sim, &p);

		linsched_sim_run(sim);
		hackbench_free(hb);
	} else {
		static const char *const kinds[] = { "cpu", "sleeprun", "randsleeprun" };
		unsigned int n = 1 + (unsigned int)gsl_rng_uniform_int(rng, 24);

		for (unsigned int i = 0; i < n; i++) {
			struct task_spec spec = {
				.kind = kinds[gsl_rng_uniform_int(rng, 3)],
				.nice = (int)gsl_rng_uniform_int(rng, 40) - 20,
				.count = 1,
				.busy_ms = 0.05 + gsl_rng_uniform(rng) * 5,
				.sleep_ms = 0.05 + gsl_rng_uniform(rng) * 5,
				.cv = 0.5,
				.dist = (enum task_dist)gsl_rng_uniform_int(rng, 3),
				.loops = gsl_rng_uniform_int(rng, 50),
			};

			task_spec_spawn(sim, &spec);
		}
		linsched_sim_run(sim);
	}
	uint64_t checks = linsched_sim_debug_checks(sim);

	linsched_sim_free(sim);
	return checks;
}
#endif

#define WORKLOADS 300

static void test_random_workloads(void **state)
{
	(void)state;
#ifndef SCHED_DEBUG
	skip(); /* only the debug build checks */
#else
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t events = 0;

	gsl_rng_set(rng, 20240601);
	for (uint64_t w = 0; w < WORKLOADS; w++) {
		uint64_t checks = random_workload(rng, w + 1);

		assert_true(checks > 0);
		events += checks;
	}
	gsl_rng_free(rng);
	printf("SCHED_DEBUG: %d workloads, %" G_GUINT64_FORMAT " events checked, no violation\n",
	       WORKLOADS, (guint64)events);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_fails),
		cmocka_unit_test(test_system_checks_fail),
		cmocka_unit_test(test_eevdf_checks),
		cmocka_unit_test(test_random_workloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
