/*
 * Tests of the EEVDF rules of kernel-extract/sched_eevdf.c, in the eevdf (6.18) and 6.6 profiles.
 *
 * Expected values are worked out by hand from sched_eevdf.h's rules (the arithmetic is in the
 * comments) and typed in; the library is never asked for an expected value. Two kinds of setup:
 *
 *   - queues built by hand (put_in_queue, put_on_cpu): entities at chosen vruntimes, deadlines and
 *     slices, counted as the class counts them, with min_vruntime = V0, so that a test knows V and
 *     every lag without running the placement under test;
 *   - tasks forked and run through the core (wake_up_new_task, scheduler_tick, schedule), on one
 *     CPU with base_slice 3 ms, moving time by setting sys->clock.
 *
 * Weights (kernel prio_to_weight): nice 0 = 1024, nice 5 = 335. Nice-0 arithmetic is exact; a
 * nice-5 image of a time goes through the inverse-weight table and may be 1 ns off.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "kernel-extract/sched_core.h"
#include "kernel-extract/sched_eevdf.h"
#include "kernel-extract/sched_pelt.h"

#define US  1000ULL
#define MS  1000000ULL
#define SEC 1000000000ULL

/* min_vruntime of the hand-built queues: far from the u64 wrap. */
#define V0    (1 * SEC)
/* A clock to start from. */
#define T0    (5 * SEC)
#define SLICE (3 * MS)

struct fixture {
	struct sched_system sys;
	gsl_rng *rng;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	*state = f;
	return f ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->sys.rqs)
		sched_system_destroy(&f->sys);
	if (f->rng)
		gsl_rng_free(f->rng);
	free(f);
	return 0;
}

/* A fresh system of the profile on nr_cpus CPUs sharing a cache, base_slice 3 ms, at T0. */
static struct sched_system *boot_cpus(void **state, const char *profile, unsigned int nr_cpus)
{
	struct fixture *f = *state;
	const struct sched_profile *p = sched_profile_find(profile);
	const struct sched_tunables tun = { .base_slice = SLICE, .migration_cost = 500 * US };

	assert_non_null(p);
	if (f->sys.rqs)
		sched_system_destroy(&f->sys);
	assert_true(sched_system_init(&f->sys, nr_cpus, 1, &tun, p));
	f->sys.clock = T0;
	return &f->sys;
}

/* A fresh one-CPU system of the profile, base_slice 3 ms, ticks of 1 ms, its clock at T0. */
static struct sched_system *boot(void **state, const char *profile)
{
	struct sched_system *sys = boot_cpus(state, profile, 1);

	assert_ptr_equal(sys->policy, &eevdf_sched_class);
	assert_int_equal(sys->tick_nsec, 1 * MS);
	return sys;
}

/* Hand-built queues start from an empty queue whose min_vruntime is V0. */
static struct rq *empty_rq_at_v0(struct sched_system *sys)
{
	struct rq *rq = cpu_rq(sys, 0);

	assert_int_equal(rq->cfs.nr_running, 0);
	rq->cfs.min_vruntime = V0;
	return rq;
}

static void new_task(struct sched_system *sys, struct task_struct *p, int pid, int nice)
{
	sched_fork(sys, p, pid, nice);
	p->cpu = 0;
	p->se.cfs_rq = &cpu_rq(sys, 0)->cfs;
	p->state = TASK_RUNNING;
}

static void set_entity(struct task_struct *p, s64 v, s64 d, u64 slice)
{
	p->se.vruntime = V0 + (u64)v;
	p->se.deadline = V0 + (u64)d;
	p->se.slice = slice;
}

/* Counted as the class counts a queued entity. */
static void count(struct rq *rq, struct task_struct *p)
{
	update_load_add(&rq->cfs.load, p->se.load.weight);
	rq->cfs.nr_running++;
	rq->nr_running++;
	p->se.on_rq = 1;
}

/* p queued (in the tree) at vruntime V0 + v, deadline V0 + d. */
static void put_in_queue(struct sched_system *sys, struct task_struct *p, int pid, int nice, s64 v,
			 s64 d, u64 slice)
{
	struct rq *rq = cpu_rq(sys, 0);

	new_task(sys, p, pid, nice);
	set_entity(p, v, d, slice);
	__enqueue_entity(&rq->cfs, &p->se);
	count(rq, p);
}

/* p running (curr, out of the tree), protected until V0 + vprot. */
static void put_on_cpu(struct sched_system *sys, struct task_struct *p, int pid, int nice, s64 v,
		       s64 d, s64 vprot, u64 slice)
{
	struct rq *rq = cpu_rq(sys, 0);

	new_task(sys, p, pid, nice);
	set_entity(p, v, d, slice);
	p->se.vprot = V0 + (u64)vprot;
	p->se.exec_start = sys->clock;
	rq->cfs.curr = &p->se;
	count(rq, p);
	rq->curr = p;
	p->on_cpu = true;
	sys->idle_mask = 0;
}

static bool resched_set(const struct sched_system *sys, const struct rq *rq)
{
	bool in_mask = (sys->resched_mask >> rq->cpu) & 1;

	assert_int_equal(rq->need_resched, in_mask);
	return rq->need_resched;
}

static void fork_task(struct sched_system *sys, struct task_struct *p, int pid, int nice)
{
	sched_fork(sys, p, pid, nice);
	wake_up_new_task(sys, p, 0);
}

/* The kernel's first min_vruntime, where forked tasks on an empty queue start. */
static u64 m0(void)
{
	return (u64)(-(1LL << 20));
}

/* ---------------------------------------------------------------- V and eligibility */

/*
 * A (nice 0) at V0, B (nice 0) at V0 + 3 ms, C (nice 5) at V0 + 1 ms:
 *   V - V0 = (1024 * 0 + 1024 * 3 000 000 + 335 * 1 000 000) / (1024 + 1024 + 335)
 *          = 3 407 000 000 / 2383 = 1 429 710.449..., rounded down: 1 429 710.
 * Eligible means v - V0 <= that quotient, decided without dividing: 1 429 710 * 2383 =
 * 3 406 998 930 <= 3 407 000 000, but 1 429 711 * 2383 = 3 407 001 313 is not. A and C are
 * eligible, B is not. The same holds with A running (curr counts in V though out of the tree).
 */
static void test_avg_vruntime_and_eligibility(void **state)
{
	for (int running = 0; running < 2; running++) {
		struct sched_system *sys = boot(state, "eevdf");
		struct rq *rq = empty_rq_at_v0(sys);
		struct task_struct a, b, c;

		if (running)
			put_on_cpu(sys, &a, 1, 0, 0, 5 * MS, 5 * MS, SLICE);
		else
			put_in_queue(sys, &a, 1, 0, 0, 5 * MS, SLICE);
		put_in_queue(sys, &b, 2, 0, 3 * MS, 6 * MS, SLICE);
		put_in_queue(sys, &c, 3, 5, 1 * MS, 7 * MS, SLICE);

		assert_int_equal(avg_vruntime(&rq->cfs), V0 + 1429710);
		assert_true(vruntime_eligible(&rq->cfs, V0 + 1429710));
		assert_false(vruntime_eligible(&rq->cfs, V0 + 1429711));
		assert_true(entity_eligible(&rq->cfs, &a.se));
		assert_false(entity_eligible(&rq->cfs, &b.se));
		assert_true(entity_eligible(&rq->cfs, &c.se));
	}
}

/*
 * Below min_vruntime the average rounds down too: A at V0 - 1 ms and B at V0 - 2 ms (nice 0)
 * give -3 000 000 / 2 = -1 500 000 exactly (eligible at it, not 1 ns later); with C (nice 0) at V0 - 1 ns the sum is -3 000 001
 * over 3: -1 000 000.33, rounded down to -1 000 001, so that an entity at V is eligible
 * (-1 000 001 * 3 = -3 000 003 <= -3 000 001) and one at V + 1 is not (-3 000 000 > -3 000 001).
 */
static void test_avg_vruntime_rounds_down(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = empty_rq_at_v0(sys);
	struct task_struct a, b, c;

	put_in_queue(sys, &a, 1, 0, -(s64)MS, 2 * MS, SLICE);
	put_in_queue(sys, &b, 2, 0, -2 * (s64)MS, 3 * MS, SLICE);
	assert_int_equal(avg_vruntime(&rq->cfs), V0 - 1500000);
	/* Exactly at V is eligible: -1 500 000 * 2 = -3 000 000, not below the sum. */
	assert_true(vruntime_eligible(&rq->cfs, V0 - 1500000));
	assert_false(vruntime_eligible(&rq->cfs, V0 - 1499999));
	put_in_queue(sys, &c, 3, 0, -1, 4 * MS, SLICE);
	assert_int_equal(avg_vruntime(&rq->cfs), V0 - 1000001);
	assert_true(vruntime_eligible(&rq->cfs, avg_vruntime(&rq->cfs)));
	assert_true(vruntime_eligible(&rq->cfs, V0 - 1000001));
	assert_false(vruntime_eligible(&rq->cfs, V0 - 1000000));
}

/* ---------------------------------------------------------------- the pick */

/*
 * Eight nice-0 entities, (vruntime, deadline) in ms after V0:
 *   0: (10, 11)  1: (9, 12)  2: (8, 13)  3: (7, 14)  4: (0, 20)  5: (1, 15)  6: (2, 16)  7: (3, 17)
 * V = 40 / 8 = 5 ms: eligible are 4..7 (v <= 5). The four earliest deadlines (0..3) are not
 * eligible, so the pick must search the tree: the earliest eligible deadline is 5's, 15 ms.
 * With 5 gone, 6 (16 ms); then V = 34 / 6 = 5.67 still excludes 0..3: 7 (17 ms); then 4.
 */
static void test_pick_earliest_eligible_deadline(void **state)
{
	static const s64 v[] = { 10, 9, 8, 7, 0, 1, 2, 3 };
	static const s64 d[] = { 11, 12, 13, 14, 20, 15, 16, 17 };
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = empty_rq_at_v0(sys);
	struct task_struct t[8];

	for (int i = 0; i < 8; i++)
		put_in_queue(sys, &t[i], i + 1, 0, v[i] * (s64)MS, d[i] * (s64)MS, SLICE);
	assert_int_equal(avg_vruntime(&rq->cfs), V0 + 5 * MS);

	static const int order[] = { 5, 6, 7, 4 };

	for (int k = 0; k < 4; k++) {
		struct sched_entity *se = pick_eevdf(&rq->cfs);

		assert_ptr_equal(se, &t[order[k]].se);
		__dequeue_entity(&rq->cfs, se);
		rq->cfs.nr_running--;
	}
}

/*
 * The earliest deadline of all wins when it is eligible; curr competes too: B (0, 2 ms) queued,
 * A running at (0, 1 ms). V = 0: both eligible; A's deadline is earlier, so A is picked, with or
 * without protection. With A at (1 ms, 1 ms) (V = 0.5 ms) A is not eligible and B is picked.
 */
static void test_pick_counts_curr(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = empty_rq_at_v0(sys);
	struct task_struct a, b;

	put_on_cpu(sys, &a, 1, 0, 0, 1 * MS, 0, SLICE);
	put_in_queue(sys, &b, 2, 0, 0, 2 * MS, SLICE);
	assert_ptr_equal(__pick_eevdf(&rq->cfs, false), &a.se);
	assert_ptr_equal(__pick_eevdf(&rq->cfs, true), &a.se);

	a.se.vruntime = V0 + 1 * MS;
	assert_ptr_equal(pick_eevdf(&rq->cfs), &b.se);
}

/*
 * Random queues of 1..60 entities with random weights, vruntimes and distinct deadlines: the
 * pick equals a linear scan for the eligible entity with the earliest deadline, eligibility
 * computed here in 128-bit integers from the definition.
 */
static void test_pick_matches_linear_scan(void **state)
{
	struct fixture *f = *state;
	static const int nices[] = { -20, -5, 0, 1, 5, 19 };
	struct task_struct *t = calloc(60, sizeof(*t));

	assert_non_null(t);
	f->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(f->rng, 14);
	for (int round = 0; round < 300; round++) {
		struct sched_system *sys = boot(state, "eevdf");
		struct rq *rq = empty_rq_at_v0(sys);
		int n = 1 + (int)gsl_rng_uniform_int(f->rng, 60);
		__int128 sum = 0, load = 0;

		for (int i = 0; i < n; i++) {
			s64 v = (s64)gsl_rng_uniform_int(f->rng, 20 * MS) - (s64)(10 * MS);
			/* Distinct deadlines: they differ modulo 64 (i < 60). */
			s64 d = (s64)gsl_rng_uniform_int(f->rng, 1 << 20) * 64 + i;

			put_in_queue(sys, &t[i], i + 1, nices[gsl_rng_uniform_int(f->rng, 6)], v, d,
				     SLICE);
			sum += (__int128)v * (s64)t[i].se.load.weight;
			load += t[i].se.load.weight;
		}

		struct sched_entity *best = NULL;

		for (int i = 0; i < n; i++) {
			s64 v = (s64)(t[i].se.vruntime - V0);

			if (sum < (__int128)v * load)
				continue;
			if (!best || (s64)(t[i].se.deadline - best->deadline) < 0)
				best = &t[i].se;
		}
		assert_non_null(best);
		assert_ptr_equal(pick_eevdf(&rq->cfs), best);
	}
	free(t);
}

/* ---------------------------------------------------------------- deadlines */

/*
 * A new task's first deadline is half a slice away (PLACE_DEADLINE_INITIAL): A and B forked on
 * an empty CPU start at the kernel's first min_vruntime m0 with deadline m0 + 1.5 ms. A runs (the
 * leftmost of equal deadlines: it came first). At 1.5 ms - 1 ns nothing happens; at 1.5 ms its
 * vruntime reaches the deadline: the new one is one slice on, m0 + 4.5 ms, and A must yield.
 */
static void test_deadline_renewed(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = cpu_rq(sys, 0);
	struct task_struct a, b;

	fork_task(sys, &a, 1, 0);
	fork_task(sys, &b, 2, 0);
	assert_int_equal(a.se.vruntime, m0());
	assert_int_equal(a.se.deadline, m0() + 1500 * US);
	assert_int_equal(b.se.deadline, m0() + 1500 * US);
	assert_int_equal(a.se.slice, SLICE);
	assert_ptr_equal(schedule(rq), &a);
	assert_false(resched_set(sys, rq));

	sys->clock = T0 + 1500 * US - 1;
	sys->policy->update_curr(rq);
	assert_int_equal(a.se.deadline, m0() + 1500 * US);
	assert_false(resched_set(sys, rq));

	sys->clock = T0 + 1500 * US;
	sys->policy->update_curr(rq);
	assert_int_equal(a.se.vruntime, m0() + 1500 * US);
	assert_int_equal(a.se.deadline, m0() + 4500 * US);
	assert_true(resched_set(sys, rq));
}

/* Alone, a task renews its deadline but keeps the CPU. */
static void test_deadline_renewed_alone(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = cpu_rq(sys, 0);
	struct task_struct a;

	fork_task(sys, &a, 1, 0);
	assert_ptr_equal(schedule(rq), &a);
	sys->clock = T0 + 1500 * US;
	scheduler_tick(rq);
	assert_int_equal(a.se.deadline, m0() + 4500 * US);
	assert_false(resched_set(sys, rq));
}

/*
 * A nice-5 task's request in its own virtual time is 3 ms * 1024 / 335 = 9 170 149.25 ns; its
 * first deadline half of it (4 585 074 or 075 after the table's rounding).
 */
static void test_deadline_by_weight(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct task_struct a;

	fork_task(sys, &a, 1, 5);
	assert_in_range(a.se.deadline - a.se.vruntime, 4585074, 4585075);
}

/* ---------------------------------------------------------------- lag across a sleep */

/*
 * Three nice-0 tasks forked at m0 (deadlines m0 + 1.5 ms); times below are after m0 and T0.
 *   A runs 1.5 ms and reaches its deadline (renewed to 4.5): V = (1.5 + 0 + 0) / 3 = 0.5, A is
 *   not eligible, B is (earliest deadline 1.5, before C's equal one) and runs.
 *   B runs 0.3 ms and blocks: V = (1.5 + 0.3 + 0) / 3 = 0.6, B's lag 0.6 - 0.3 = +0.3 ms: it is
 *   eligible, so it leaves the queue at once, saving vlag = 300 000.
 *   C runs to its deadline at v = 1.5 (T0 + 3.3 ms); V = 1.5: A and C both eligible, same
 *   deadline 4.5; curr (C) loses the tie: A runs.
 *   B wakes at that instant: W = 2048 queued, so its lag is scaled to 0.3 * 3072 / 2048 = 0.45
 *   ms and it is placed at 1.5 - 0.45 = 1.05, deadline 1.05 + 3 = 4.05. The new V is
 *   (1.5 + 1.5 + 1.05) / 3 = 1.35: B is again exactly 0.3 ms behind it. A, at 1.5, is now ahead
 *   of V, so its protection does not count: B, eligible with the earliest deadline, preempts.
 */
static void test_lag_kept_across_sleep(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = cpu_rq(sys, 0);
	struct task_struct a, b, c;

	fork_task(sys, &a, 1, 0);
	fork_task(sys, &b, 2, 0);
	fork_task(sys, &c, 3, 0);
	assert_ptr_equal(schedule(rq), &a);

	sys->clock = T0 + 1500 * US;
	scheduler_tick(rq);
	assert_true(resched_set(sys, rq));
	assert_ptr_equal(schedule(rq), &b);

	sys->clock = T0 + 1800 * US;
	b.state = TASK_INTERRUPTIBLE;
	assert_ptr_equal(schedule(rq), &c);
	assert_int_equal(b.se.on_rq, 0);
	assert_false(b.se.sched_delayed);
	assert_int_equal(b.se.vruntime, m0() + 300 * US);
	assert_int_equal(b.se.vlag, 300 * US);

	sys->clock = T0 + 3300 * US;
	scheduler_tick(rq);
	assert_true(resched_set(sys, rq));
	assert_ptr_equal(schedule(rq), &a);

	assert_true(try_to_wake_up(sys, &b, 0, 0));
	assert_int_equal(b.se.vruntime, m0() + 1050 * US);
	assert_int_equal(b.se.deadline, m0() + 4050 * US);
	assert_int_equal(avg_vruntime(&rq->cfs), m0() + 1350 * US);
	assert_int_equal(avg_vruntime(&rq->cfs) - b.se.vruntime, 300 * US);
	assert_true(resched_set(sys, rq));
	assert_ptr_equal(schedule(rq), &b);
}

/* ---------------------------------------------------------------- delayed dequeue */

/*
 * A and B (nice 0) forked at m0; A runs 1 ms and blocks: V = (1 + 0) / 2 = 0.5 ms, A's lag
 * -0.5 ms. In 6.18 (DELAY_DEQUEUE) A stays queued, delayed, and B runs; in 6.6 A leaves with
 * vlag -500 000.
 * 6.18 goes on: B runs to its deadline (v = 1.5 ms, renewed, resched). V = (1 + 1.5) / 2 = 1.25:
 * A (v = 1, deadline 1.5) is eligible with the earliest deadline and is picked, which completes
 * its dequeue: its lag +0.25 ms is dropped (DELAY_ZERO), and B, alone, goes on running.
 */
static void test_delayed_dequeue(void **state)
{
	struct sched_system *sys = boot(state, "6.6");
	struct rq *rq = cpu_rq(sys, 0);
	struct task_struct a, b;

	fork_task(sys, &a, 1, 0);
	fork_task(sys, &b, 2, 0);
	assert_ptr_equal(schedule(rq), &a);
	sys->clock = T0 + 1 * MS;
	a.state = TASK_INTERRUPTIBLE;
	assert_ptr_equal(schedule(rq), &b);
	assert_int_equal(a.se.on_rq, 0);
	assert_int_equal(a.se.vlag, -500 * (s64)US);
	assert_int_equal(rq->nr_running, 1);

	sys = boot(state, "eevdf");
	rq = cpu_rq(sys, 0);
	fork_task(sys, &a, 1, 0);
	fork_task(sys, &b, 2, 0);
	assert_ptr_equal(schedule(rq), &a);
	sys->clock = T0 + 1 * MS;
	a.state = TASK_INTERRUPTIBLE;
	assert_ptr_equal(schedule(rq), &b);
	assert_int_equal(a.se.on_rq, 1);
	assert_true(a.se.sched_delayed);
	assert_int_equal(rq->nr_running, 2);
	assert_int_equal(rq->cfs.nr_running, 2);

	sys->clock = T0 + 2500 * US;
	scheduler_tick(rq);
	assert_true(resched_set(sys, rq));
	assert_ptr_equal(schedule(rq), &b);
	assert_int_equal(a.se.on_rq, 0);
	assert_false(a.se.sched_delayed);
	assert_int_equal(a.se.vlag, 0);
	assert_int_equal(rq->nr_running, 1);
	assert_int_equal(b.nivcsw, 0); /* B kept the CPU: no switch */
}

/*
 * A delayed task woken before it is picked is requeued where it is, with its negative lag:
 * as above, A blocks at 1 ms with lag -0.5 ms and B runs; A wakes at once: it is runnable again
 * on its CPU at the same vruntime (m0 + 1 ms), no longer delayed. B (v = 0, V = 0.5) is eligible
 * and protected: no preemption.
 */
static void test_delayed_task_woken(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = cpu_rq(sys, 0);
	struct task_struct a, b;

	fork_task(sys, &a, 1, 0);
	fork_task(sys, &b, 2, 0);
	assert_ptr_equal(schedule(rq), &a);
	sys->clock = T0 + 1 * MS;
	a.state = TASK_INTERRUPTIBLE;
	assert_ptr_equal(schedule(rq), &b);
	assert_true(a.se.sched_delayed);

	assert_true(try_to_wake_up(sys, &a, 0, 0));
	assert_int_equal(a.state, TASK_RUNNING);
	assert_int_equal(a.se.on_rq, 1);
	assert_false(a.se.sched_delayed);
	assert_int_equal(a.se.vruntime, m0() + 1 * MS);
	assert_int_equal(a.se.vlag, -500 * (s64)US);
	assert_int_equal(rq->nr_running, 2);
	assert_false(resched_set(sys, rq));
}

/* ---------------------------------------------------------------- wakeup preemption */

/*
 * Hand-built: A running, C queued, B just queued (woken), all nice 0, (vruntime, deadline) in ms
 * after V0. The wakeup check asks whether the pick would now choose B.
 *   A (2, 4) unprotected, C (0, 6), B (0.5, 3.5): V = 2.5 / 3 = 0.83 ms; A is not eligible; B is,
 *   with the earliest deadline: B preempts.
 */
static void test_wakeup_preempts(void **state)
{
	for (int p = 0; p < 2; p++) {
		struct sched_system *sys = boot(state, p ? "6.6" : "eevdf");
		struct rq *rq = empty_rq_at_v0(sys);
		struct task_struct a, b, c;

		put_on_cpu(sys, &a, 1, 0, 2 * MS, 4 * MS, 2 * MS, SLICE);
		put_in_queue(sys, &c, 3, 0, 0, 6 * MS, SLICE);
		put_in_queue(sys, &b, 2, 0, 500 * US, 3500 * US, SLICE);
		sys->policy->check_preempt_curr(rq, &b, 0);
		assert_true(resched_set(sys, rq));
	}
}

/*
 * RUN_TO_PARITY: A (0.6, 3) running, C (1, 6), B (0.5, 2) woken: V = 2.1 / 3 = 0.7 ms, all but C
 * eligible, B's deadline the earliest. Protected until 3 ms, A keeps the CPU; with its protection
 * over (vprot = its vruntime), B preempts. Both kernels.
 */
static void test_wakeup_respects_protection(void **state)
{
	for (int p = 0; p < 2; p++) {
		for (int protected = 0; protected < 2; protected ++) {
			struct sched_system *sys = boot(state, p ? "6.6" : "eevdf");
			struct rq *rq = empty_rq_at_v0(sys);
			struct task_struct a, b, c;

			put_on_cpu(sys, &a, 1, 0, 600 * US, 3 * MS, protected ? 3 * MS : 600 * US,
				   SLICE);
			put_in_queue(sys, &c, 3, 0, 1 * MS, 6 * MS, SLICE);
			put_in_queue(sys, &b, 2, 0, 500 * US, 2 * MS, SLICE);
			sys->policy->check_preempt_curr(rq, &b, 0);
			assert_int_equal(resched_set(sys, rq), !protected);
		}
	}
}

/*
 * PREEMPT_SHORT (6.12+): the same protected A, but B asks for a 1 ms slice, shorter than A's
 * 3 ms. In 6.18 B ignores A's protection and, the earliest eligible deadline, preempts; A's
 * protection is gone (vprot = its vruntime). 6.6 has no such rule: A keeps the CPU.
 * If B's deadline is later than A's (5 ms), B does not win, but A's protection shrinks to B's
 * slice: vprot = min(3, 0.6 + 1) = 1.6 ms.
 */
static void test_wakeup_shorter_slice(void **state)
{
	for (int p = 0; p < 2; p++) {
		struct sched_system *sys = boot(state, p ? "6.6" : "eevdf");
		struct rq *rq = empty_rq_at_v0(sys);
		struct task_struct a, b, c;

		put_on_cpu(sys, &a, 1, 0, 600 * US, 3 * MS, 3 * MS, SLICE);
		put_in_queue(sys, &c, 3, 0, 1 * MS, 6 * MS, SLICE);
		put_in_queue(sys, &b, 2, 0, 500 * US, 2 * MS, 1 * MS);
		sys->policy->check_preempt_curr(rq, &b, 0);
		assert_int_equal(resched_set(sys, rq), !p);
		assert_int_equal(a.se.vprot, p ? V0 + 3 * MS : V0 + 600 * US);
	}

	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = empty_rq_at_v0(sys);
	struct task_struct a, b, c;

	put_on_cpu(sys, &a, 1, 0, 600 * US, 3 * MS, 3 * MS, SLICE);
	put_in_queue(sys, &c, 3, 0, 1 * MS, 6 * MS, SLICE);
	put_in_queue(sys, &b, 2, 0, 500 * US, 5 * MS, 1 * MS);
	sys->policy->check_preempt_curr(rq, &b, 0);
	assert_false(resched_set(sys, rq));
	assert_int_equal(a.se.vprot, V0 + 1600 * US);
}

/*
 * A task woken on an idle CPU is run at once; a new task under RUN_TO_PARITY waits: A forked and
 * running (protected to its deadline m0 + 1.5 ms), B forked 0.5 ms later at V = m0 + 0.5 ms (A's
 * vruntime, A being alone) with deadline m0 + 2 ms. Then V = (0.5 + 0.5) / 2 = 0.5 ms: A is
 * eligible and protected, and keeps the CPU.
 */
static void test_fork_waits_for_protected_curr(void **state)
{
	struct sched_system *sys = boot(state, "eevdf");
	struct rq *rq = cpu_rq(sys, 0);
	struct task_struct a, b;

	fork_task(sys, &a, 1, 0);
	assert_true(resched_set(sys, rq)); /* idle CPU */
	assert_ptr_equal(schedule(rq), &a);
	sys->clock = T0 + 500 * US;
	fork_task(sys, &b, 2, 0);
	assert_int_equal(b.se.vruntime, m0() + 500 * US);
	assert_int_equal(b.se.deadline, m0() + 2000 * US);
	assert_false(resched_set(sys, rq));
}

/* ---------------------------------------------------------------- fair shares */

/* Ticks of 1 ms on the one CPU for ms milliseconds, rescheduling when asked. */
static void run_ms(struct sched_system *sys, unsigned int ms)
{
	struct rq *rq = cpu_rq(sys, 0);

	for (unsigned int i = 0; i < ms; i++) {
		sys->clock += 1 * MS;
		scheduler_tick(rq);
		if (rq->need_resched)
			schedule(rq);
	}
	sys->policy->update_curr(rq);
}

/*
 * Two always-runnable tasks, nice 0 and nice 5, for 10 s: each gets its weight's share,
 * 1024 / 1359 = 75.35 % (7.535 s) and 335 / 1359 = 24.65 % (2.465 s), within 1 %. Both kernels,
 * with a slice longer than the tick (3 ms) and shorter (0.7 ms).
 */
static void test_fair_share_by_weight(void **state)
{
	static const char *const profiles[] = { "eevdf", "6.6" };
	static const u64 slices[] = { 3 * MS, 700 * US };

	for (int p = 0; p < 2; p++) {
		for (int s = 0; s < 2; s++) {
			struct sched_system *sys = boot(state, profiles[p]);
			struct task_struct a, b;

			sys->tun.base_slice = slices[s];
			fork_task(sys, &a, 1, 0);
			fork_task(sys, &b, 2, 5);
			schedule(cpu_rq(sys, 0));
			run_ms(sys, 10000);
			assert_int_equal(a.se.sum_exec_runtime + b.se.sum_exec_runtime, 10 * SEC);
			assert_in_range(a.se.sum_exec_runtime, 7535 * MS * 99 / 100,
					7535 * MS * 101 / 100);
			assert_in_range(b.se.sum_exec_runtime, 2465 * MS * 99 / 100,
					2465 * MS * 101 / 100);
		}
	}
}

/* ---------------------------------------------------------------- wakeup placement */

/* p forked and then run by the CPU it was placed on, which must be cpu. */
static void fork_and_run(struct sched_system *sys, struct task_struct *p, int pid, int cpu)
{
	fork_task(sys, p, pid, 0);
	assert_int_equal(p->cpu, cpu);
	assert_ptr_equal(schedule(cpu_rq(sys, cpu)), p);
}

/*
 * 6.6 and 6.18 place a wakeup as 6.1 does (select_task_rq_fair: wake_wide, wake_affine,
 * select_idle_sibling), not by 2.6.28's rule. Two CPUs sharing a cache (llc_size 2), w running
 * alone on CPU 0 (the forks go to the idlest CPU: 0, then 1), x on CPU 1, p asleep, last on
 * CPU 1; w wakes p synchronously. w has 7 flips and this wakeup, to a new wakee, makes 8.
 *   - p has 4 flips: a many-to-many pair (slave 4 >= 2, master 8 >= 4 * 2), wake_wide: no affine
 *     wakeup; select_idle_sibling(prev 1, target 1) finds no idle CPU: p stays on CPU 1, where
 *     try_to_wake_up queues it.
 *   - p has 1 flip (< 2): wake_affine's WA_IDLE, a sync waker alone on its CPU (nr_running 1),
 *     takes it: CPU 0.
 */
static void test_wakeup_placement(void **state)
{
	static const char *const profiles[] = { "eevdf", "6.6" };

	for (int pr = 0; pr < 2; pr++) {
		for (unsigned int flips = 1; flips <= 4; flips += 3) {
			struct sched_system *sys = boot_cpus(state, profiles[pr], 2);
			struct task_struct w, x, p;
			int cpu = flips == 4 ? 1 : 0;

			fork_and_run(sys, &w, 1, 0);
			fork_and_run(sys, &x, 2, 1);
			sched_fork(sys, &p, 3, 0);
			p.cpu = 1;
			p.se.cfs_rq = &cpu_rq(sys, 1)->cfs;
			p.state = TASK_INTERRUPTIBLE;
			w.wakee_flips = 7;
			w.wakee_flip_decay_ts = T0;
			p.wakee_flips = flips;

			assert_true(try_to_wake_up(sys, &p, 0, WF_SYNC));
			assert_int_equal(w.wakee_flips, 8);
			assert_int_equal(p.cpu, cpu);
			assert_ptr_equal(p.se.cfs_rq, &cpu_rq(sys, cpu)->cfs);
			assert_int_equal(cpu_rq(sys, cpu)->nr_running, 2);
			assert_int_equal(cpu_rq(sys, 1 - cpu)->nr_running, 1);
		}
	}
}

/*
 * The EEVDF class keeps the PELT averages that wake_affine weighs (half-life H = 32 x 1024 us).
 * t forked at T0 starts at its weight, 1024, and its queue's average gets it. Queued until
 * T0 + H it stays at 1024 (it relaxes towards its weight); asleep from then, by T0 + 3 H both
 * are down to 1024 / 4 = 256. Moved to CPU 1, its 256 leaves CPU 0's sum; woken there, it joins
 * CPU 1's (0 + 256).
 */
static void test_pelt_kept(void **state)
{
	struct sched_system *sys = boot_cpus(state, "eevdf", 2);
	struct rq *rq0 = cpu_rq(sys, 0), *rq1 = cpu_rq(sys, 1);
	const u64 h = 32 * 1024 * US;
	struct task_struct t;

	fork_task(sys, &t, 1, 0);
	assert_int_equal(t.cpu, 0);
	assert_true(t.se.avg_attached);
	assert_float_equal(task_load_avg(&t), 1024, 1e-9);
	assert_float_equal(cfs_rq_load_avg(&rq0->cfs), 1024, 1e-9);

	sys->clock = T0 + h;
	assert_float_equal(task_load_avg(&t), 1024, 1e-9);
	t.state = TASK_INTERRUPTIBLE;
	deactivate_task(rq0, &t, DEQUEUE_SLEEP);
	assert_false(t.se.on_rq); /* alone, so eligible: not a delayed dequeue */

	sys->clock = T0 + 3 * h;
	assert_float_equal(task_load_avg(&t), 256, 1e-9);
	assert_float_equal(cfs_rq_load_avg(&rq0->cfs), 256, 1e-9);

	set_task_cpu(sys, &t, 1);
	assert_false(t.se.avg_attached);
	assert_float_equal(cfs_rq_load_avg(&rq0->cfs), 0, 1e-9);
	t.state = TASK_RUNNING;
	activate_task(rq1, &t, ENQUEUE_WAKEUP);
	assert_true(t.se.avg_attached);
	assert_float_equal(cfs_rq_load_avg(&rq1->cfs), 256, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_avg_vruntime_and_eligibility, setup, teardown),
		cmocka_unit_test_setup_teardown(test_avg_vruntime_rounds_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pick_earliest_eligible_deadline, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pick_counts_curr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pick_matches_linear_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deadline_renewed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deadline_renewed_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deadline_by_weight, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lag_kept_across_sleep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delayed_dequeue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delayed_task_woken, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_preempts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_respects_protection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_shorter_slice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_waits_for_protected_curr, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fair_share_by_weight, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_placement, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pelt_kept, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
