/*
 * Tests of where tasks run (kernel-extract/sched_balance.c): wakeup placement, fork balancing,
 * load balancing between run queues, and cache hotness.
 *
 * Expected CPUs and counts are worked out by hand from SPEC.md section 3 and the kernel rules the
 * module names (the arithmetic is in the comments). Systems are built with sched_system_init() and
 * the 2.6.28 tunables typed in by hand (latency 40 ms, min_granularity 8 ms, wakeup_granularity
 * 10 ms, migration_cost 500 us); balancing does not depend on the profile. Weights: nice -20 = 88761,
 * nice -5 = 3121, nice 0 = 1024, nice 5 = 335.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <string.h>

#include "kernel-extract/sched_core.h"
#include "kernel-extract/sched_fair.h"
#include "tests/support/sched_tasks.h"

#define US  1000ULL
#define MS  1000000ULL
#define SEC 1000000000ULL

#define V0	       (1 * SEC)
#define T0	       (5 * SEC)
#define MIGRATION_COST (500 * US)

static const struct sched_tunables tunables = {
	.latency = 40 * MS,
	.min_granularity = 8 * MS,
	.wakeup_granularity = 10 * MS,
	.migration_cost = MIGRATION_COST,
};

/* The system a test owns, in cmocka's state so that teardown frees it whatever happens. */
static int setup(void **state)
{
	struct sched_system *sys = calloc(1, sizeof(*sys));

	*state = sys;
	return sys ? 0 : -1;
}

static int teardown(void **state)
{
	struct sched_system *sys = *state;

	if (sys->rqs)
		sched_system_destroy(sys);
	free(sys);
	return 0;
}

/* A fresh system of nr_cpus CPUs in nr_nodes memory domains, its clock at T0. */
static struct sched_system *boot(void **state, unsigned int nr_cpus, unsigned int nr_nodes)
{
	struct sched_system *sys = *state;
	const struct sched_profile *p = sched_profile_find("2.6.28");

	assert_non_null(p);
	if (sys->rqs)
		sched_system_destroy(sys);
	assert_true(sched_system_init(sys, nr_cpus, nr_nodes, &tunables, p));
	sys->clock = T0;
	return sys;
}

/* Lets cpu pick its leftmost task and checks that it is p. */
static void run(struct sched_system *sys, int cpu, struct task_struct *p)
{
	assert_ptr_equal(schedule(cpu_rq(sys, cpu)), p);
	assert_false(idle_cpu(cpu_rq(sys, cpu)));
}

/* A task asleep, last run on cpu. */
static void sleeper(struct sched_system *sys, struct task_struct *p, int pid, int nice, int cpu)
{
	new_task(sys, p, pid, nice, cpu);
	p->se.vruntime = V0;
	p->state = TASK_INTERRUPTIBLE;
}

/* The run queues' books agree with the tasks: every task counted once, on its own CPU. */
static void check_books(const struct sched_system *sys, struct task_struct *const *tasks, size_t n)
{
	for (unsigned int cpu = 0; cpu < sys->nr_cpus; cpu++) {
		const struct rq *rq = cpu_rq(sys, (int)cpu);
		unsigned int nr = 0;
		unsigned long load = 0;

		for (size_t i = 0; i < n; i++) {
			if (tasks[i]->se.on_rq && tasks[i]->cpu == (int)cpu) {
				assert_ptr_equal(tasks[i]->se.cfs_rq, &rq->cfs);
				nr++;
				load += tasks[i]->se.load.weight;
			}
		}
		assert_int_equal(rq->nr_running, nr);
		assert_int_equal(rq->cfs.nr_running, nr);
		assert_int_equal(rq->cfs.load.weight, load);
	}
}

/* ---------------------------------------------------------------- wakeup placement */

static void test_single_cpu(void **state)
{
	struct sched_system *sys = boot(state, 1, 1);
	struct task_struct p;

	sleeper(sys, &p, 1, 0, 0);
	assert_int_equal(select_task_rq_fair(sys, &p, 0, 0, SD_BALANCE_WAKE, WF_SYNC), 0);
	assert_int_equal(select_task_rq_fair(sys, &p, 0, 0, SD_BALANCE_FORK, WF_FORK), 0);
}

/* A task waking up stays on its previous CPU when that CPU is idle, whoever wakes it and how. */
static void test_wake_keeps_idle_prev(void **state)
{
	struct sched_system *sys = boot(state, 2, 1);
	struct task_struct p, w;

	sleeper(sys, &p, 1, 0, 1);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, 0), 1);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC), 1);

	/* The waker runs on CPU 0: CPU 1 is still idle and still wins, sync or not. */
	queue_at(sys, &w, 2, 0, 0, V0);
	run(sys, 0, &w);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, 0), 1);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC), 1);

	/* The whole wakeup: no migration. */
	assert_true(try_to_wake_up(sys, &p, 0, WF_SYNC));
	assert_int_equal(p.cpu, 1);
	assert_int_equal(sys->nr_migrations, 0);
	assert_int_equal(cpu_rq(sys, 1)->nr_running, 1);

	/* Four CPUs in two domains, everything idle but the waker's CPU 0: CPU 3 keeps its task. */
	sys = boot(state, 4, 2);
	queue_at(sys, &w, 2, 0, 0, V0);
	run(sys, 0, &w);
	sleeper(sys, &p, 1, 0, 3);
	assert_int_equal(select_task_rq_fair(sys, &p, 3, 0, SD_BALANCE_WAKE, WF_SYNC), 3);
}

/* The previous CPU is busy: an idle CPU is taken, one sharing prev's cache first. */
static void test_wake_picks_idle_cpu(void **state)
{
	struct sched_system *sys = boot(state, 2, 1);
	struct task_struct p, x, y;

	queue_at(sys, &x, 2, 0, 1, V0);
	run(sys, 1, &x);
	sleeper(sys, &p, 1, 0, 1);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 1, SD_BALANCE_WAKE, 0), 0);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 1, SD_BALANCE_WAKE, WF_SYNC), 0);

	assert_true(try_to_wake_up(sys, &p, 1, 0));
	assert_int_equal(p.cpu, 0);
	assert_ptr_equal(p.se.cfs_rq, &cpu_rq(sys, 0)->cfs);
	assert_int_equal(p.se.nr_migrations, 1);
	assert_int_equal(sys->nr_migrations, 1);
	assert_int_equal(cpu_rq(sys, 0)->nr_running, 1);
	assert_int_equal(cpu_rq(sys, 1)->nr_running, 1);

	/*
	 * Domains {0, 1} and {2, 3}: prev = 2 busy, CPUs 0 and 3 idle. CPU 3 shares prev's cache
	 * (the kernel's select_idle_sibling). With CPU 3 busy as well, CPU 0 is the only idle one.
	 */
	sys = boot(state, 4, 2);
	queue_at(sys, &x, 2, 0, 2, V0);
	run(sys, 2, &x);
	queue_at(sys, &y, 3, 0, 1, V0);
	run(sys, 1, &y);
	sleeper(sys, &p, 1, 0, 2);
	assert_int_equal(select_task_rq_fair(sys, &p, 2, 1, SD_BALANCE_WAKE, 0), 3);
	struct task_struct z;

	queue_at(sys, &z, 4, 0, 3, V0);
	run(sys, 3, &z);
	assert_int_equal(select_task_rq_fair(sys, &p, 2, 1, SD_BALANCE_WAKE, 0), 0);
}

/*
 * Every CPU busy. A synchronous waker (about to sleep) on this_cpu pulls the wakee to its own CPU
 * when, its own weight left out, this CPU would carry no more than imbalance = 100 + (117 - 100) / 2
 * = 108 % of the wakee's previous CPU: 100 * (this_load - waker + wakee) <= 108 * prev_load.
 *   A: this = {waker}, prev = {x}:             this_load - waker = 0                -> this CPU
 *   B: this = {waker, q}, prev = {x, y}:       100 * (1024 + 1024) = 204 800 <= 108 * 2048 = 221 184
 *                                                                                      -> this CPU
 *   C: as B with y at nice 5 (prev 1359):      204 800 > 108 * 1359 = 146 772       -> prev
 *   E: as B with y at nice 1 (prev 1844):      204 800 > 108 * 1844 = 199 152       -> prev
 *      (but <= 117 * 1844 = 215 748: the margin is half of imbalance_pct's, not all of it)
 *   D: this = {waker, q, r}, prev = {x}:       100 * (2048 + 1024) = 307 200 > 110 592 -> prev
 * Without WF_SYNC the wakee always goes back to prev (all CPUs busy).
 */
struct affine_case {
	const char *name;
	int this_nices[3];
	unsigned int this_n;
	int prev_nices[3];
	unsigned int prev_n;
	int expected;
};

static void test_wake_affine(void **state)
{
	static const struct affine_case cases[] = {
		{ "A", { 0 }, 1, { 0 }, 1, 0 },	      { "B", { 0, 0 }, 2, { 0, 0 }, 2, 0 },
		{ "C", { 0, 0 }, 2, { 0, 5 }, 2, 1 }, { "E", { 0, 0 }, 2, { 0, 1 }, 2, 1 },
		{ "D", { 0, 0, 0 }, 3, { 0 }, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct affine_case *c = &cases[i];
		struct sched_system *sys = boot(state, 2, 1);
		struct task_struct on0[3], on1[3], p;

		assert_int_equal(cpu_rq(sys, 0)->sd[0].imbalance_pct, 117);
		for (unsigned int k = 0; k < c->this_n; k++)
			queue_at(sys, &on0[k], 10 + (int)k, c->this_nices[k], 0, V0 + k * MS);
		for (unsigned int k = 0; k < c->prev_n; k++)
			queue_at(sys, &on1[k], 20 + (int)k, c->prev_nices[k], 1, V0 + k * MS);
		run(sys, 0, &on0[0]);
		run(sys, 1, &on1[0]);
		sleeper(sys, &p, 1, 0, 1);

		int got = select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC);

		if (got != c->expected)
			fail_msg("case %s: WF_SYNC wakeup went to CPU %d, expected %d", c->name,
				 got, c->expected);
		assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, 0), 1);
		/* Waker and wakee on the same CPU: nothing to pull. */
		assert_int_equal(select_task_rq_fair(sys, &p, 1, 1, SD_BALANCE_WAKE, WF_SYNC), 1);
	}
}

/* ---------------------------------------------------------------- fork balancing */

/* New tasks forked on CPU 0 spread out: one per CPU, then two per CPU. */
static void test_fork_spreads(void **state)
{
	static const unsigned int nodes[] = { 1, 2 };

	for (size_t n = 0; n < 2; n++) {
		struct sched_system *sys = boot(state, 4, nodes[n]);
		struct task_struct t[8];

		for (int i = 0; i < 8; i++) {
			sched_fork(sys, &t[i], i + 1, 0);
			wake_up_new_task(sys, &t[i], 0);
			assert_int_equal(t[i].state, TASK_RUNNING);
			assert_int_equal(t[i].se.on_rq, 1);
			assert_ptr_equal(t[i].se.cfs_rq, &cpu_rq(sys, t[i].cpu)->cfs);
			if (i == 3)
				for (int cpu = 0; cpu < 4; cpu++)
					assert_int_equal(cpu_rq(sys, cpu)->nr_running, 1);
		}
		for (int cpu = 0; cpu < 4; cpu++)
			assert_int_equal(cpu_rq(sys, cpu)->nr_running, 2);
	}
}

/*
 * Fork balancing weighs load, not task counts. Two CPUs; a nice -5 task (3121) first, wherever it
 * goes; then nice-0 tasks go to the other CPU while its load stays below 3121: after 1024, 2048,
 * 3072 it is still lighter, so the fifth task goes there too (4096); the sixth goes back.
 */
static void test_fork_weighs_load(void **state)
{
	struct sched_system *sys = boot(state, 2, 1);
	struct task_struct t[6];

	sched_fork(sys, &t[0], 1, -5);
	wake_up_new_task(sys, &t[0], 0);
	int heavy = t[0].cpu, other = 1 - heavy;

	for (int i = 1; i < 6; i++) {
		sched_fork(sys, &t[i], i + 1, 0);
		wake_up_new_task(sys, &t[i], heavy);
		assert_int_equal(t[i].cpu, i < 5 ? other : heavy);
	}
	assert_int_equal(cpu_rq(sys, heavy)->cfs.load.weight, 3121 + 1024);
	assert_int_equal(cpu_rq(sys, other)->cfs.load.weight, 4096);
}

/* ---------------------------------------------------------------- 6.1 wakeup placement */

/* A system with the 6.1 profile's features (wake_affine and select_idle_sibling). */
static struct sched_system *boot_61(void **state, unsigned int nr_cpus)
{
	struct sched_system *sys = *state;
	const struct sched_profile *p = sched_profile_find("6.1");

	assert_non_null(p);
	if (sys->rqs)
		sched_system_destroy(sys);
	assert_true(sched_system_init(sys, nr_cpus, 1, &tunables, p));
	sys->clock = T0;
	return sys;
}

/* n nice-0 tasks queued on cpu, the first of them running; returns the running one. */
static struct task_struct *busy(struct sched_system *sys, struct task_struct *t, int n, int pid,
				int cpu)
{
	for (int i = 0; i < n; i++)
		queue_at(sys, &t[i], pid + i, 0, cpu, V0 + (u64)i * MS);
	run(sys, cpu, &t[0]);
	return &t[0];
}

/*
 * WA_IDLE: a sync waker alone on its CPU (nr_running 1: it is about to sleep) takes the wakee
 * when the wakee's previous CPU is busy; when that CPU is idle, select_idle_sibling sends the
 * wakee back there.
 */
static void test_61_sync_waker_alone_pulls(void **state)
{
	struct task_struct w[1], other[1], p;
	struct sched_system *sys = boot_61(state, 2);

	busy(sys, w, 1, 10, 0);
	busy(sys, other, 1, 20, 1);
	sleeper(sys, &p, 1, 0, 1);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC), 0);
	/* Without the sync hint it is load: none of these tasks has a history yet, both averages
	 * are 0, and 0 < 0 does not hold: not affine, CPU 1. */
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, 0), 1);

	sys = boot_61(state, 2);
	busy(sys, w, 1, 10, 0);
	sleeper(sys, &p, 1, 0, 1);
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC), 1);
}

/*
 * WA_WEIGHT with WA_BIAS (imbalance_pct 117 at the cache level: a margin of 100 + 17 / 2 = 108),
 * on PELT averages set by hand, p's own (0) counted on CPU 1: a non-sync waker's CPU of average
 * 1024 against the previous CPU's 3072: (1024 + 0) * 100 = 102400 < 3072 * 108 = 331776,
 * affine (CPU 0); 3072 against 1024: 307200 >= 110592, the previous CPU.
 */
static void test_61_wake_affine_weight(void **state)
{
	struct task_struct a[3], b[3], p;

	for (int heavy_here = 0; heavy_here <= 1; heavy_here++) {
		struct sched_system *sys = boot_61(state, 2);

		busy(sys, a, heavy_here ? 3 : 1, 10, 0);
		busy(sys, b, heavy_here ? 1 : 3, 20, 1);
		sleeper(sys, &p, 1, 0, 1);
		p.se.avg_attached = true;
		cpu_rq(sys, 0)->cfs.avg = (struct sched_avg){ T0, heavy_here ? 3072 : 1024 };
		cpu_rq(sys, 1)->cfs.avg = (struct sched_avg){ T0, heavy_here ? 1024 : 3072 };
		assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, 0),
				 heavy_here ? 1 : 0);
	}
}

/*
 * wake_wide: with llc_size 2, a waker of 8 flips (7 before this wakeup, which flips it once more)
 * and a wakee of 4 are a many-to-many pair (4 >= 2 and 8 >= 4 * 2): no affine wakeup, the wakee
 * stays on its previous CPU although the sync waker is alone. With a wakee of 1 flip (< 2) the
 * waker pulls it.
 */
static void test_61_wake_wide(void **state)
{
	struct task_struct w[1], other[1], p;

	for (unsigned int flips = 1; flips <= 4; flips += 3) {
		struct sched_system *sys = boot_61(state, 2);

		busy(sys, w, 1, 10, 0);
		busy(sys, other, 1, 20, 1);
		sleeper(sys, &p, 1, 0, 1);
		w[0].wakee_flips = 7;
		w[0].wakee_flip_decay_ts = T0;
		p.wakee_flips = flips;
		assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC),
				 flips == 4 ? 1 : 0);
		/* The schedstats: a many-to-many pair is not weighed; the other is, and moved. */
		assert_int_equal(sys->wake_stats.affine_attempts, flips == 4 ? 0 : 1);
		assert_int_equal(sys->wake_stats.affine, flips == 4 ? 0 : 1);
		assert_int_equal(w[0].wakee_flips, 8);
		assert_ptr_equal(w[0].last_wakee, &p);
	}
}

/* A waker's flips halve once a second has passed since they last did. */
static void test_61_wakee_flips_decay(void **state)
{
	struct task_struct w[1], p, q;
	struct sched_system *sys = boot_61(state, 2);

	busy(sys, w, 1, 10, 0);
	sleeper(sys, &p, 1, 0, 0);
	new_task(sys, &q, 2, 0, 0);
	q.state = TASK_INTERRUPTIBLE;
	w[0].wakee_flips = 10;
	w[0].wakee_flip_decay_ts = T0;
	select_task_rq_fair(sys, &p, 0, 0, SD_BALANCE_WAKE, 0);
	assert_int_equal(w[0].wakee_flips, 11); /* no decay yet, a new wakee */
	select_task_rq_fair(sys, &p, 0, 0, SD_BALANCE_WAKE, 0);
	assert_int_equal(w[0].wakee_flips, 11); /* the same wakee: no flip */
	sys->clock = T0 + SEC + 1;
	select_task_rq_fair(sys, &q, 0, 0, SD_BALANCE_WAKE, 0);
	assert_int_equal(w[0].wakee_flips, 11 / 2 + 1);
	assert_int_equal(w[0].wakee_flip_decay_ts, T0 + SEC + 1);
}

/*
 * A forked child keeps its parent's wakee history (the kernel's fork copies the task and
 * sched_fork leaves it): a parent of 4 flips forks p, which then, woken by the waker of 8 flips
 * of test_61_wake_wide, is one of a many-to-many pair (4 >= 2, 8 >= 4 * 2) and stays on its
 * previous CPU; a task set up by sched_fork alone has 0 flips and is pulled to the waker's CPU.
 */
static void test_61_fork_inherits_flips(void **state)
{
	struct task_struct w[1], other[1], parent, p;

	for (int forked = 0; forked <= 1; forked++) {
		struct sched_system *sys = boot_61(state, 2);

		busy(sys, w, 1, 10, 0);
		busy(sys, other, 1, 20, 1);
		sleeper(sys, &p, 1, 0, 1);
		assert_int_equal(p.wakee_flips, 0);
		memset(&parent, 0, sizeof(parent));
		parent.wakee_flips = 4;
		parent.wakee_flip_decay_ts = T0;
		parent.last_wakee = &other[0];
		if (forked) {
			sched_fork_inherit(&p, &parent);
			assert_int_equal(p.wakee_flips, 4);
			assert_int_equal(p.wakee_flip_decay_ts, T0);
			assert_ptr_equal(p.last_wakee, &other[0]);
		}
		w[0].wakee_flips = 7;
		w[0].wakee_flip_decay_ts = T0;
		assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC),
				 forked ? 1 : 0);
	}
}

/*
 * select_idle_sibling on 4 CPUs sharing a cache, CPUs 0 and 1 busy, 2 and 3 idle: the target (the
 * sync waker's CPU 0) and prev (1) are busy; a recently used CPU 3 that is idle wins over the scan
 * from the target, which would find CPU 2 first. p remembers prev as its recent CPU.
 */
static void test_61_recent_used_cpu(void **state)
{
	struct task_struct w[1], other[1], p;
	struct sched_system *sys = boot_61(state, 4);

	busy(sys, w, 1, 10, 0);
	busy(sys, other, 1, 20, 1);
	sleeper(sys, &p, 1, 0, 1);
	p.recent_used_cpu = 3;
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC), 3);
	assert_int_equal(p.recent_used_cpu, 1);
	/* Again: recent is now prev itself, so the scan from CPU 0 finds CPU 2. */
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, WF_SYNC), 2);
}

/*
 * PELT with the kernel's half-life H = 32 x 1024 us: a nice-0 task queued at T0 with no history
 * has 1024 - 1024 / 2 = 512 after H, as has its queue (weight 1024, from 0); asleep from then on,
 * both fade to 512 / 4 = 128 after 2 H more.
 */
static void test_61_pelt(void **state)
{
	struct task_struct t;
	struct sched_system *sys = boot_61(state, 1);
	struct rq *rq = cpu_rq(sys, 0);
	const u64 h = 32 * 1024 * US;

	queue_at(sys, &t, 1, 0, 0, V0);
	assert_true(t.se.avg_attached);
	sys->clock = T0 + h;
	assert_float_equal(task_load_avg(&t), 512, 1e-6);
	assert_float_equal(cfs_rq_load_avg(&rq->cfs), 512, 1e-6);
	t.state = TASK_INTERRUPTIBLE;
	deactivate_task(rq, &t, DEQUEUE_SLEEP);
	sys->clock = T0 + 3 * h;
	assert_float_equal(task_load_avg(&t), 128, 1e-6);
	assert_float_equal(cfs_rq_load_avg(&rq->cfs), 128, 1e-6);
	/* Its load stays counted where it slept until it wakes elsewhere. */
	assert_true(t.se.avg_attached);
}

/* A task moved to another CPU takes its load along: detached from one sum, added to the other. */
static void test_61_pelt_follows_migration(void **state)
{
	struct task_struct t, other[1];
	struct sched_system *sys = boot_61(state, 2);

	busy(sys, other, 1, 10, 0);
	sleeper(sys, &t, 1, 0, 0);
	t.se.avg = (struct sched_avg){ T0, 700 };
	t.se.avg_attached = true;
	cpu_rq(sys, 0)->cfs.avg = (struct sched_avg){ T0, 1000 };
	cpu_rq(sys, 1)->cfs.avg = (struct sched_avg){ T0, 50 };
	/* Woken from idle CPU 1 (WA_IDLE) while CPU 0 is busy: it goes to CPU 1. */
	assert_true(try_to_wake_up(sys, &t, 1, 0));
	assert_int_equal(t.cpu, 1);
	assert_float_equal(cfs_rq_load_avg(&cpu_rq(sys, 0)->cfs), 300, 1e-6);
	assert_float_equal(cfs_rq_load_avg(&cpu_rq(sys, 1)->cfs), 750, 1e-6);
}

/*
 * WA_WEIGHT reads PELT loads: CPU 1 runs one task (instantaneous load 1024, average 0) and holds
 * the sleeping loads of three tasks that ran there (1024 each, p one of them); CPU 0 runs the
 * non-sync waker (average 1024). Averages: this = (1024 + 1024) * 100 = 204800 < prev =
 * (3072 + 0 - 1024) * 108 = 221184, affine: CPU 0. Instantaneous loads would have said CPU 1:
 * (1024 + 1024) * 100 against 1024 * 108.
 */
static void test_61_wake_affine_reads_blocked_load(void **state)
{
	struct task_struct w[1], r[1], p;
	struct sched_system *sys = boot_61(state, 2);

	busy(sys, w, 1, 10, 0);
	busy(sys, r, 1, 20, 1);
	sleeper(sys, &p, 1, 0, 1);
	w[0].se.avg = (struct sched_avg){ T0, 1024 };
	cpu_rq(sys, 0)->cfs.avg = (struct sched_avg){ T0, 1024 };
	r[0].se.avg = (struct sched_avg){ T0, 0 };
	p.se.avg = (struct sched_avg){ T0, 1024 };
	p.se.avg_attached = true;
	cpu_rq(sys, 1)->cfs.avg = (struct sched_avg){ T0, 3072 };
	assert_int_equal(select_task_rq_fair(sys, &p, 1, 0, SD_BALANCE_WAKE, 0), 0);
}

/* A timer's wakeup (waker and prev the same busy CPU): any idle CPU sharing the cache. */
static void test_61_timer_wakeup_finds_idle(void **state)
{
	struct task_struct t[1], p;
	struct sched_system *sys = boot_61(state, 2);

	busy(sys, t, 1, 10, 0);
	sleeper(sys, &p, 1, 0, 0);
	assert_int_equal(select_task_rq_fair(sys, &p, 0, 0, SD_BALANCE_WAKE, 0), 1);
}

/*
 * LB_PELT (6.1): load balancing weighs PELT averages. CPU 0 has three nice-0 tasks queued, CPU 1
 * runs one and three others have just gone to sleep there. By weight CPU 0 is the busier, 3072 to
 * 1024; by PELT, where a sleeper's load stays until it decays, CPU 1 has 4096 at first (nothing
 * has decayed yet) and nothing moves; 2.6.28 would move a task.
 *
 * One half-life later CPU 1 has 1024 + 3072 / 2 = 2560: 100 x 3072 > 117 x 2560, out of balance.
 * The average is (3072 + 2560) / 2 = 2816, so 256 of load should move: less than a task (1024).
 * Without fix_small_imbalance nothing moves then, and the failure is counted; the bound a task
 * must fit halves with each failure, 1024 >> 2 = 256 on the third attempt, which moves one.
 */

/* A nice-0 task queued on cpu as a fork leaves it: its average at its full weight. */
static void queue_forked(struct sched_system *sys, struct task_struct *p, int pid, int cpu,
			 u64 vruntime)
{
	new_task(sys, p, pid, 0, cpu);
	p->se.avg.load_avg = p->se.load.weight;
	p->se.avg.last_update_time = sys->clock;
	p->se.vruntime = vruntime;
	p->state = TASK_RUNNING;
	activate_task(cpu_rq(sys, cpu), p, 0);
}

static struct sched_system *pelt_pair(void **state, bool lb_pelt, struct task_struct q[3],
				      struct task_struct s[4])
{
	struct sched_system *sys = lb_pelt ? boot_61(state, 2) : boot(state, 2, 1);

	for (int i = 0; i < 3; i++)
		queue_forked(sys, &q[i], 1 + i, 0, V0 + (u64)i * MS);
	for (int i = 0; i < 4; i++)
		queue_forked(sys, &s[i], 10 + i, 1, V0 + (u64)i * MS);
	run(sys, 1, &s[0]);
	for (int i = 1; i < 4; i++) {
		s[i].state = TASK_INTERRUPTIBLE;
		deactivate_task(cpu_rq(sys, 1), &s[i], DEQUEUE_SLEEP);
	}
	return sys;
}

static void test_61_balance_weighs_pelt(void **state)
{
	struct task_struct q[3], s[4];
	struct sched_system *sys = pelt_pair(state, false, q, s);
	struct rq *rq1 = cpu_rq(sys, 1);
	struct sched_domain *sd = &rq1->sd[0];

	assert_int_equal(load_balance(rq1, sd, CPU_NOT_IDLE), 1);

	sys = pelt_pair(state, true, q, s);
	rq1 = cpu_rq(sys, 1);
	sd = &rq1->sd[0];
	assert_float_equal(cfs_rq_load_avg(&rq1->cfs), 4096, 1e-6);
	assert_int_equal(load_balance(rq1, sd, CPU_NOT_IDLE), 0);
	assert_int_equal(sd->nr_balance_failed, 0); /* balanced, not failed */

	sys->clock = T0 + 32 * 1024 * US;
	assert_float_equal(cfs_rq_load_avg(&rq1->cfs), 2560, 1e-6);
	assert_float_equal(cfs_rq_load_avg(&cpu_rq(sys, 0)->cfs), 3072, 1e-6);
	assert_int_equal(load_balance(rq1, sd, CPU_NOT_IDLE), 0);
	assert_int_equal(sd->nr_balance_failed, 1);
	assert_int_equal(load_balance(rq1, sd, CPU_NOT_IDLE), 0);
	assert_int_equal(sd->nr_balance_failed, 2);
	assert_int_equal(load_balance(rq1, sd, CPU_NOT_IDLE), 1);
	assert_int_equal(sd->nr_balance_failed, 0);
	assert_int_equal(cpu_rq(sys, 0)->nr_running, 2);
	assert_int_equal(rq1->nr_running, 2);
}

/* ---------------------------------------------------------------- load balancing */

/* CPU 0 runs a and has b and c queued (never run, so cache cold); CPU 1 is idle. */
static struct sched_system *three_on_cpu0(void **state, struct task_struct t[3])
{
	struct sched_system *sys = boot(state, 2, 1);

	queue_at(sys, &t[0], 1, 0, 0, V0);
	queue_at(sys, &t[1], 2, 0, 0, V0 + 1 * MS);
	queue_at(sys, &t[2], 3, 0, 0, V0 + 2 * MS);
	run(sys, 0, &t[0]);
	return sys;
}

static void check_a_stays(const struct sched_system *sys, struct task_struct t[3])
{
	struct task_struct *all[3] = { &t[0], &t[1], &t[2] };

	assert_ptr_equal(cpu_rq(sys, 0)->curr, &t[0]);
	assert_int_equal(t[0].cpu, 0);
	assert_true(t[0].on_cpu);
	assert_int_equal(t[0].se.on_rq, 1);
	check_books(sys, all, 3);
}

/*
 * The idle CPU 1 balances: busiest CPU 0 has 3072 of load, CPU 1 none; the average is 1536, so up
 * to 1536 of load (one or two nice-0 tasks) should move. Only queued tasks may move.
 */
static void test_load_balance_pulls_to_idle(void **state)
{
	struct task_struct t[3];
	struct sched_system *sys = three_on_cpu0(state, t);
	struct rq *rq1 = cpu_rq(sys, 1);
	int moved = load_balance(rq1, &rq1->sd[0], CPU_IDLE);

	assert_in_range(moved, 1, 2);
	assert_int_equal(rq1->nr_running, (unsigned int)moved);
	assert_int_equal(cpu_rq(sys, 0)->nr_running, 3 - (unsigned int)moved);
	assert_int_equal(sys->nr_lb_migrations, (u64)moved);
	assert_int_equal(rq1->sd[0].nr_balance_failed, 0);
	assert_true(t[1].cpu == 1 || t[2].cpu == 1);
	check_a_stays(sys, t);

	/* Balanced now (2 + 1 or 1 + 2 over two CPUs): nothing more moves. */
	assert_int_equal(load_balance(rq1, &rq1->sd[0], CPU_IDLE), 0);
}

/* A CPU that is about to go idle pulls a task and runs it (newidle balance inside schedule()). */
static void test_newidle_balance(void **state)
{
	struct task_struct t[3];
	struct sched_system *sys = three_on_cpu0(state, t);
	struct task_struct *next = schedule(cpu_rq(sys, 1));

	assert_true(next == &t[1] || next == &t[2]);
	assert_int_equal(next->cpu, 1);
	assert_ptr_equal(cpu_rq(sys, 1)->curr, next);
	check_a_stays(sys, t);
}

/* NO_HZ: CPU 1 gets no tick, so CPU 0's tick balances on its behalf. */
static void test_busy_tick_balances_idle_cpu(void **state)
{
	struct task_struct t[3];
	struct sched_system *sys = three_on_cpu0(state, t);

	scheduler_tick(cpu_rq(sys, 0));
	assert_true(cpu_rq(sys, 1)->nr_running >= 1);
	check_a_stays(sys, t);
}

/*
 * b and c ran 100 us ago, within migration_cost (500 us): cache hot. Balancing fails and counts the
 * failure until nr_balance_failed exceeds cache_nice_tries (1, the kernel's default): the first two
 * attempts move nothing, the third moves.
 */
static void test_cache_hot_tasks_stay_until_balancing_keeps_failing(void **state)
{
	struct task_struct t[3];
	struct sched_system *sys = three_on_cpu0(state, t);
	struct rq *rq1 = cpu_rq(sys, 1);
	struct sched_domain *sd = &rq1->sd[0];

	t[1].se.exec_start = T0 - 100 * US;
	t[2].se.exec_start = T0 - 100 * US;
	assert_int_equal(sd->cache_nice_tries, 1);

	assert_int_equal(load_balance(rq1, sd, CPU_IDLE), 0);
	assert_int_equal(sd->nr_balance_failed, 1);
	assert_int_equal(load_balance(rq1, sd, CPU_IDLE), 0);
	assert_int_equal(sd->nr_balance_failed, 2);
	assert_int_equal(rq1->nr_running, 0);

	assert_true(load_balance(rq1, sd, CPU_IDLE) >= 1);
	assert_int_equal(sd->nr_balance_failed, 0);
	assert_true(rq1->nr_running >= 1);
	check_a_stays(sys, t);
}

/* Hotness wears off: 499 999 ns after they ran b and c stay, 500 000 ns after they move. */
static void test_cache_hot_wears_off(void **state)
{
	for (u64 since = 499999; since <= 500000; since++) {
		struct task_struct t[3];
		struct sched_system *sys = three_on_cpu0(state, t);
		struct rq *rq1 = cpu_rq(sys, 1);

		t[1].se.exec_start = T0 - since;
		t[2].se.exec_start = T0 - since;
		int moved = load_balance(rq1, &rq1->sd[0], CPU_IDLE);

		if (since < MIGRATION_COST)
			assert_int_equal(moved, 0);
		else
			assert_true(moved >= 1);
		check_a_stays(sys, t);
	}
}

/*
 * The running task never moves, however hard balancing tries. A nice -20 task (88761) runs on CPU 0
 * beside a queued nice 0: the imbalance is huge, but only the nice 0 can go. And with three nice-0
 * tasks, all hot and balancing failing for ever, a keeps running on CPU 0.
 */
static void test_running_task_never_moves(void **state)
{
	struct sched_system *sys = boot(state, 2, 1);
	struct task_struct h, q;
	struct rq *rq1 = cpu_rq(sys, 1);

	queue_at(sys, &h, 1, -20, 0, V0);
	queue_at(sys, &q, 2, 0, 0, V0 + 1 * MS);
	run(sys, 0, &h);
	for (int i = 0; i < 5; i++) {
		rq1->sd[0].nr_balance_failed = 100;
		load_balance(rq1, &rq1->sd[0], CPU_IDLE);
	}
	assert_ptr_equal(cpu_rq(sys, 0)->curr, &h);
	assert_int_equal(h.cpu, 0);
	assert_int_equal(q.cpu, 1);
	struct task_struct *both[2] = { &h, &q };

	check_books(sys, both, 2);

	struct task_struct t[3];

	sys = three_on_cpu0(state, t);
	rq1 = cpu_rq(sys, 1);
	t[0].se.exec_start = T0;
	t[1].se.exec_start = T0;
	t[2].se.exec_start = T0;
	for (int i = 0; i < 10; i++) {
		rq1->sd[0].nr_balance_failed = 100;
		load_balance(rq1, &rq1->sd[0], CPU_IDLE);
		check_a_stays(sys, t);
	}
}

/* ---------------------------------------------------------------- task_hot */

static void test_task_hot(void **state)
{
	struct sched_system *sys = boot(state, 2, 1);
	struct task_struct p;
	struct sched_tunables tun = tunables;

	new_task(sys, &p, 1, 0, 0);
	p.se.exec_start = T0;
	assert_true(task_hot(&p, T0, &tun));
	assert_true(task_hot(&p, T0 + MIGRATION_COST - 1, &tun));
	assert_false(task_hot(&p, T0 + MIGRATION_COST, &tun));
	assert_false(task_hot(&p, T0 + 1 * SEC, &tun));

	/* migration_cost 0: nothing is ever hot, not even a task that is running right now. */
	tun.migration_cost = 0;
	assert_false(task_hot(&p, T0, &tun));
	assert_false(task_hot(&p, T0 + 1, &tun));

	/* ... so balancing moves a task that just ran on its first attempt. */
	struct task_struct t[3];

	sys = three_on_cpu0(state, t);
	sys->tun.migration_cost = 0;
	t[1].se.exec_start = T0;
	t[2].se.exec_start = T0;
	assert_true(load_balance(cpu_rq(sys, 1), &cpu_rq(sys, 1)->sd[0], CPU_IDLE) >= 1);
	check_a_stays(sys, t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_single_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wake_keeps_idle_prev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wake_picks_idle_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wake_affine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_sync_waker_alone_pulls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_wake_affine_weight, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_wake_wide, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_fork_inherits_flips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_wakee_flips_decay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_recent_used_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_timer_wakeup_finds_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_pelt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_pelt_follows_migration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_balance_weighs_pelt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_wake_affine_reads_blocked_load, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fork_spreads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_weighs_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_balance_pulls_to_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newidle_balance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_tick_balances_idle_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_cache_hot_tasks_stay_until_balancing_keeps_failing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_hot_wears_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_running_task_never_moves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_task_hot, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
