/*
 * Tests of the CFS rules of kernel-extract/sched_fair.c, one rule at a time, in both profiles.
 *
 * Expected values are worked out by hand from SPEC.md section 3 (the arithmetic is in the comments)
 * and checked in the test with exact integer arithmetic on the same formula; the library is never
 * asked to compute an expected value. Every test builds its own sched_system with the tunables a
 * 2-CPU machine boots with, typed in by hand:
 *
 *            latency  min_granularity  wakeup_granularity  nr_latency
 *   2.6.28   40 ms    8 ms             10 ms               ceil(40 / 8)   = 5
 *   6.1      12 ms    1.5 ms           2 ms                ceil(12 / 1.5) = 8
 *
 * and moves time by setting sys->clock. Weights (kernel prio_to_weight): nice -20 = 88761,
 * nice -5 = 3121, nice 0 = 1024, nice 5 = 335, nice 19 = 15.
 *
 * Tolerances. A slice is period * w / W, a real number; SPEC.md gives no reason for it to be off by
 * more than its rounding to whole ns, so slices are checked within SLICE_TOL_NS. calc_delta_fair()
 * must use the kernel's inverse-weight table (SPEC.md), whose entries are within 1 of 2^32 / w
 * (test_tunables.c checks that); delta * 1024 * wmult / 2^32 is then within delta / 2^22 of
 * delta * 1024 / w, plus the final rounding: fair_tol(). Nice 0 needs no table and is exact.
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
#include "kernel-extract/sched_fair.h"
#include "tests/support/sched_tasks.h"

#define US  1000ULL
#define MS  1000000ULL
#define SEC 1000000000ULL

/* A vruntime far from the u64 wrap, so that hand arithmetic on it needs no care. */
#define V0 (1 * SEC)
/* A clock value to start from. */
#define T0 (5 * SEC)

#define SLICE_TOL_NS 1

enum prof {
	P2628,
	P61,
	NR_PROFS
};

struct profile_setup {
	const char *name;
	struct sched_tunables tun;
	unsigned int nr_latency;
	u64 slice2;		/* sched_slice of each of two nice-0 tasks: latency * 1024 / 2048 */
	u64 sleep_credit_nice0; /* place_entity's thresh for a nice-0 sleeper */
};

static const struct profile_setup setups[NR_PROFS] = {
	[P2628] = { "2.6.28",
		    { .latency = 40 * MS,
		      .min_granularity = 8 * MS,
		      .wakeup_granularity = 10 * MS,
		      .migration_cost = 500 * US },
		    5,
		    20 * MS,
		    40 * MS },
	/* GENTLE_FAIR_SLEEPERS: half a latency, 6 ms. */
	[P61] = { "6.1",
		  { .latency = 12 * MS,
		    .min_granularity = 1500 * US,
		    .wakeup_granularity = 2 * MS,
		    .migration_cost = 500 * US },
		  8,
		  6 * MS,
		  6 * MS },
};

/*
 * What a test owns, kept in cmocka's state so that teardown frees it even when an assertion
 * fails half-way.
 */
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

/* A fresh system in the test's fixture (replacing the previous one), its clock at T0. */
static struct sched_system *boot(void **state, enum prof which, unsigned int nr_cpus)
{
	struct fixture *f = *state;
	const struct sched_profile *p = sched_profile_find(setups[which].name);

	assert_non_null(p);
	if (f->sys.rqs)
		sched_system_destroy(&f->sys);
	assert_true(sched_system_init(&f->sys, nr_cpus, 1, &setups[which].tun, p));
	assert_int_equal(f->sys.tun.nr_latency, setups[which].nr_latency);
	f->sys.clock = T0;
	return &f->sys;
}

/* Makes a queued task the running one without asking the picker (which would take the leftmost). */
static void make_curr(struct sched_system *sys, struct task_struct *p)
{
	struct rq *rq = task_rq(sys, p);

	assert_null(rq->curr);
	set_next_entity(&rq->cfs, &p->se);
	rq->curr = p;
	p->on_cpu = true;
	sys->idle_mask &= ~(1ULL << rq->cpu);
}

/* Fails unless |got - num / den| <= tol, computed exactly. */
static void check_ratio(const char *what, u64 got, unsigned __int128 num, u64 den, u64 tol)
{
	__int128 diff = (__int128)((unsigned __int128)got * den) - (__int128)num;

	if (diff < 0)
		diff = -diff;
	if (diff > (__int128)tol * den)
		fail_msg("%s: got %llu, expected %.3f (within %llu ns)", what,
			 (unsigned long long)got, (double)num / (double)den,
			 (unsigned long long)tol);
}

static u64 fair_tol(u64 delta, unsigned long weight)
{
	return weight == NICE_0_LOAD ? 0 : 1 + (delta >> 22);
}

/* A slice is a whole number of ns; its virtual image can be off by 1024 / w per ns of error. */
static u64 vslice_tol(u64 slice, unsigned long weight)
{
	return fair_tol(slice, weight) + SLICE_TOL_NS * ((NICE_0_LOAD + weight - 1) / weight);
}

static bool resched_set(const struct sched_system *sys, const struct rq *rq)
{
	bool in_mask = (sys->resched_mask >> rq->cpu) & 1;

	assert_int_equal(rq->need_resched, in_mask);
	return rq->need_resched;
}

static void clear_resched(struct sched_system *sys, struct rq *rq)
{
	rq->need_resched = false;
	sys->resched_mask &= ~(1ULL << rq->cpu);
}

/* ---------------------------------------------------------------- calc_delta_fair */

/* The weight tests need a task's weight only, not a system to run it in. */
static struct sched_system no_system;

static void test_calc_delta_fair_nice0_is_identity(void **state)
{
	(void)state;
	static const u64 deltas[] = { 0, 1, 999, 4 * MS, 12345678901234ULL, 1ULL << 62 };
	struct task_struct p;

	sched_fork(&no_system, &p, 1, 0);
	for (size_t i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++)
		assert_int_equal(calc_delta_fair(deltas[i], &p.se), deltas[i]);
}

/* delta * 1024 / w for every nice level: within 1 ns up to a few ms, fair_tol() beyond. */
static void test_calc_delta_fair_all_weights(void **state)
{
	(void)state;
	static const u64 small[] = { 1, 7, 1000, 999999, 1 * MS, 3 * MS };
	static const u64 large[] = { 40 * MS, 1 * SEC, 1000 * SEC };
	struct task_struct p;

	for (int nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		sched_fork(&no_system, &p, 1, nice);
		u64 w = p.se.load.weight;

		for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++)
			check_ratio("calc_delta_fair", calc_delta_fair(small[i], &p.se),
				    (unsigned __int128)small[i] * 1024, w, 1);
		for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); i++)
			check_ratio("calc_delta_fair (large)", calc_delta_fair(large[i], &p.se),
				    (unsigned __int128)large[i] * 1024, w, 1 + (large[i] >> 22));
		assert_int_equal(calc_delta_fair(0, &p.se), 0);
	}
	/* Spot checks typed in: 3 ms at nice 5 is 3e6 * 1024 / 335 = 9 170 149.25 virtual ns. */
	sched_fork(&no_system, &p, 1, 5);
	assert_in_range(calc_delta_fair(3 * MS, &p.se), 9170148, 9170150);
	/* nice -20: 1 ms is 1e6 * 1024 / 88761 = 11 536.6 virtual ns. */
	sched_fork(&no_system, &p, 1, -20);
	assert_in_range(calc_delta_fair(1 * MS, &p.se), 11536, 11537);
}

/* ---------------------------------------------------------------- __sched_period */

static void test_sched_period(void **state)
{
	/* 2.6.28: 40 ms up to nr_latency = 5 tasks, then 8 ms each. */
	struct sched_system *sys = boot(state, P2628, 2);

	assert_int_equal(__sched_period(&sys->tun, 1), 40 * MS);
	assert_int_equal(__sched_period(&sys->tun, 4), 40 * MS);
	assert_int_equal(__sched_period(&sys->tun, 5), 40 * MS);
	assert_int_equal(__sched_period(&sys->tun, 6), 48 * MS);
	assert_int_equal(__sched_period(&sys->tun, 7), 56 * MS);
	assert_int_equal(__sched_period(&sys->tun, 50), 400 * MS);

	/* 6.1: 12 ms up to nr_latency = 8 tasks, then 1.5 ms each. */
	sys = boot(state, P61, 2);
	assert_int_equal(__sched_period(&sys->tun, 1), 12 * MS);
	assert_int_equal(__sched_period(&sys->tun, 7), 12 * MS);
	assert_int_equal(__sched_period(&sys->tun, 8), 12 * MS);
	assert_int_equal(__sched_period(&sys->tun, 9), 13500 * US);
	assert_int_equal(__sched_period(&sys->tun, 20), 30 * MS);

	/* SPEC.md 5, rule 1: latency 19.9 ms, min_gran 100 us: nr_latency 199; 200 tasks get 20 ms. */
	struct sched_tunables t = { .latency = 19900 * US, .min_granularity = 100 * US };

	sched_tunables_update(&t);
	assert_int_equal(__sched_period(&t, 199), 19900 * US);
	assert_int_equal(__sched_period(&t, 200), 20 * MS);

	/* latency 10 ms, min_gran 3 ms: nr_latency = ceil(3.33) = 4; 4 tasks share 10 ms (not 4 * 3 =
	 * 12), 5 tasks get 15 ms. */
	struct sched_tunables u = { .latency = 10 * MS, .min_granularity = 3 * MS };

	sched_tunables_update(&u);
	assert_int_equal(u.nr_latency, 4);
	assert_int_equal(__sched_period(&u, 4), 10 * MS);
	assert_int_equal(__sched_period(&u, 5), 15 * MS);
}

/* ---------------------------------------------------------------- sched_slice */

struct equal_case {
	unsigned int queued;  /* nice-0 tasks on the queue */
	u64 on_num, on_den;   /* slice of a queued one: period(queued) / queued */
	u64 new_num, new_den; /* of one more, not yet queued: period(queued + 1) / (queued + 1) */
};

static void check_equal_slices(void **state, enum prof which, const struct equal_case *cases,
			       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct equal_case *c = &cases[i];
		struct task_struct t[16], extra;
		struct sched_system *sys = boot(state, which, 1);

		for (unsigned int k = 0; k < c->queued; k++)
			queue_at(sys, &t[k], (int)k + 1, 0, 0, V0 + k * US);
		new_task(sys, &extra, 99, 0, 0);
		for (unsigned int k = 0; k < c->queued; k++)
			check_ratio("slice of a queued nice-0 task",
				    sched_slice(&cpu_rq(sys, 0)->cfs, &t[k].se), c->on_num,
				    c->on_den, SLICE_TOL_NS);
		check_ratio("slice of a nice-0 task not yet queued",
			    sched_slice(&cpu_rq(sys, 0)->cfs, &extra.se), c->new_num, c->new_den,
			    SLICE_TOL_NS);
	}
}

/* Equal weights: the period shared evenly; an entity not yet queued counts as one more. */
static void test_sched_slice_equal_weights(void **state)
{
	static const struct equal_case old[] = {
		{ 0, 0, 1, 40 * MS, 1 },       /* alone: the whole 40 ms */
		{ 1, 40 * MS, 1, 40 * MS, 2 }, /* 40; the newcomer makes two: 20 */
		{ 2, 40 * MS, 2, 40 * MS, 3 }, /* 20; 13 333 333.3 */
		{ 5, 40 * MS, 5, 48 * MS, 6 }, /* at nr_latency: 8; past it 48 / 6 = 8 */
		{ 6, 48 * MS, 6, 56 * MS, 7 }, /* 8; 56 / 7 = 8 */
	};
	static const struct equal_case new[] = {
		{ 0, 0, 1, 12 * MS, 1 },
		{ 1, 12 * MS, 1, 12 * MS, 2 },	  /* 12; 6 */
		{ 3, 12 * MS, 3, 12 * MS, 4 },	  /* 4; 3 */
		{ 8, 12 * MS, 8, 13500 * US, 9 }, /* 1.5; 13.5 / 9 = 1.5 */
	};

	check_equal_slices(state, P2628, old, sizeof(old) / sizeof(old[0]));
	check_equal_slices(state, P61, new, sizeof(new) / sizeof(new[0]));
}

/*
 * Mixed weights share the period by weight:
 *   nice 0 + nice 5 (W = 1359), 2.6.28: 40 ms * 1024 / 1359 = 30 139 808.68, * 335 / 1359 = 9 860 191.32
 *                               6.1:    12 ms * 1024 / 1359 =  9 041 942.60, * 335 / 1359 = 2 958 057.40
 *   nice -5 + 0 + 5 (W = 4480), 2.6.28: 27 866 071.43, 9 142 857.14, 2 991 071.43
 *                               6.1:     8 359 821.43, 2 742 857.14, 897 321.43 -> 1.5 ms floor
 * A nice-5 task not yet queued beside a queued nice 0 gets the same 9 860 191.32: its weight is
 * counted in W (and the queued nice 0 alone has all 40 ms).
 */
static void test_sched_slice_mixed_weights(void **state)
{
	static const u64 period[NR_PROFS] = { 40 * MS, 12 * MS };

	for (int which = 0; which < NR_PROFS; which++) {
		struct task_struct a, b, c;
		struct sched_system *sys = boot(state, (enum prof)which, 1);
		struct cfs_rq *cfs = &cpu_rq(sys, 0)->cfs;

		queue_at(sys, &a, 1, 0, 0, V0);
		new_task(sys, &b, 2, 5, 0);
		check_ratio("queued nice 0, before the nice 5 comes", sched_slice(cfs, &a.se),
			    period[which], 1, SLICE_TOL_NS);
		check_ratio("nice 5 not yet queued", sched_slice(cfs, &b.se),
			    (unsigned __int128)period[which] * 335, 1359, SLICE_TOL_NS);
		b.se.vruntime = V0;
		b.state = TASK_RUNNING;
		activate_task(cpu_rq(sys, 0), &b, 0);
		check_ratio("nice 0 beside nice 5", sched_slice(cfs, &a.se),
			    (unsigned __int128)period[which] * 1024, 1359, SLICE_TOL_NS);
		check_ratio("nice 5 beside nice 0", sched_slice(cfs, &b.se),
			    (unsigned __int128)period[which] * 335, 1359, SLICE_TOL_NS);

		/* The running task is counted too. */
		make_curr(sys, &a);
		check_ratio("nice 0 running beside nice 5", sched_slice(cfs, &a.se),
			    (unsigned __int128)period[which] * 1024, 1359, SLICE_TOL_NS);

		queue_at(sys, &c, 3, -5, 0, V0);
		check_ratio("nice -5 of three", sched_slice(cfs, &c.se),
			    (unsigned __int128)period[which] * 3121, 4480, SLICE_TOL_NS);
		check_ratio("nice 0 of three", sched_slice(cfs, &a.se),
			    (unsigned __int128)period[which] * 1024, 4480, SLICE_TOL_NS);
		if (which == P61)
			assert_int_equal(sched_slice(cfs, &b.se), 1500 * US);
		else
			check_ratio("nice 5 of three", sched_slice(cfs, &b.se),
				    (unsigned __int128)period[which] * 335, 4480, SLICE_TOL_NS);
	}
}

/*
 * nice 19 beside nice 0 (W = 1039): its share is 12 ms * 15 / 1039 = 173 243.5 ns in 6.1, below
 * min_granularity, so 6.1 gives it 1.5 ms; 2.6.28 has no floor: 40 ms * 15 / 1039 = 577 478.34,
 * far below its 8 ms min_granularity. The nice-0 share (11 826 756.5; 39 422 521.66) is untouched.
 */
static void test_sched_slice_min_granularity_floor(void **state)
{
	struct task_struct a, c;
	struct sched_system *sys = boot(state, P61, 1);

	queue_at(sys, &a, 1, 0, 0, V0);
	queue_at(sys, &c, 2, 19, 0, V0);
	assert_int_equal(sched_slice(&cpu_rq(sys, 0)->cfs, &c.se), 1500 * US);
	check_ratio("6.1 nice 0 beside nice 19", sched_slice(&cpu_rq(sys, 0)->cfs, &a.se),
		    12ULL * MS * 1024, 1039, SLICE_TOL_NS);

	sys = boot(state, P2628, 1);
	queue_at(sys, &a, 1, 0, 0, V0);
	queue_at(sys, &c, 2, 19, 0, V0);
	check_ratio("2.6.28 nice 19 beside nice 0", sched_slice(&cpu_rq(sys, 0)->cfs, &c.se),
		    40ULL * MS * 15, 1039, SLICE_TOL_NS);
	check_ratio("2.6.28 nice 0 beside nice 19", sched_slice(&cpu_rq(sys, 0)->cfs, &a.se),
		    40ULL * MS * 1024, 1039, SLICE_TOL_NS);
}

/*
 * sched_vslice = the slice in the entity's virtual time. On a queue, every entity's vslice is the
 * same, period * 1024 / W: nice 0 + nice 5 in 2.6.28 gives 30 139 808.68 for both. The 6.1 floored
 * nice 19 gets 1.5 ms * 1024 / 15 = 102 400 000. A nice -20 task alone: 2.6.28 40 ms * 1024 / 88761
 * = 461 463.93; 6.1 12 ms * 1024 / 88761 = 138 439.18.
 */
static void test_sched_vslice(void **state)
{
	struct task_struct a, b, h;
	struct sched_system *sys = boot(state, P2628, 1);
	struct cfs_rq *cfs = &cpu_rq(sys, 0)->cfs;

	queue_at(sys, &a, 1, 0, 0, V0);
	queue_at(sys, &b, 2, 5, 0, V0);
	check_ratio("vslice nice 0 of pair", sched_vslice(cfs, &a.se), 40ULL * MS * 1024, 1359,
		    vslice_tol(30 * MS, 1024));
	check_ratio("vslice nice 5 of pair", sched_vslice(cfs, &b.se), 40ULL * MS * 1024, 1359,
		    vslice_tol(10 * MS, 335));

	sys = boot(state, P2628, 1);
	new_task(sys, &h, 3, -20, 0);
	check_ratio("2.6.28 vslice nice -20 alone", sched_vslice(&cpu_rq(sys, 0)->cfs, &h.se),
		    40ULL * MS * 1024, 88761, vslice_tol(40 * MS, 88761));

	sys = boot(state, P61, 1);
	new_task(sys, &h, 3, -20, 0);
	check_ratio("6.1 vslice nice -20 alone", sched_vslice(&cpu_rq(sys, 0)->cfs, &h.se),
		    12ULL * MS * 1024, 88761, vslice_tol(12 * MS, 88761));
	queue_at(sys, &a, 1, 0, 0, V0);
	new_task(sys, &b, 2, 19, 0);
	check_ratio("6.1 vslice of a floored nice 19", sched_vslice(&cpu_rq(sys, 0)->cfs, &b.se),
		    102400000, 1, fair_tol(1500 * US, 15));
}

/* ---------------------------------------------------------------- place_entity */

/*
 * A new task starts a vslice after min_vruntime (START_DEBIT), min_vruntime = V0 = 1 s:
 *   nice 0 alone:                 2.6.28 V0 + 40 ms,           6.1 V0 + 12 ms
 *   nice 0 beside a queued nice 0: 2.6.28 V0 + 20 ms,           6.1 V0 + 6 ms
 *   nice 5 alone:                 2.6.28 V0 + 122 268 656.72,  6.1 V0 + 36 680 597.01
 *                                 (40 ms, 12 ms * 1024 / 335)
 */
static void test_place_entity_fork(void **state)
{
	static const u64 alone[NR_PROFS] = { 40 * MS, 12 * MS };

	for (int which = 0; which < NR_PROFS; which++) {
		struct task_struct a, n, l;
		struct sched_system *sys = boot(state, (enum prof)which, 1);
		struct cfs_rq *cfs = &cpu_rq(sys, 0)->cfs;

		cfs->min_vruntime = V0;
		new_task(sys, &n, 1, 0, 0);
		place_entity(cfs, &n.se, 1);
		check_ratio("new nice 0 alone", n.se.vruntime, (unsigned __int128)V0 + alone[which],
			    1, SLICE_TOL_NS);

		new_task(sys, &l, 2, 5, 0);
		place_entity(cfs, &l.se, 1);
		check_ratio("new nice 5 alone", l.se.vruntime,
			    (unsigned __int128)V0 * 335 + (unsigned __int128)alone[which] * 1024,
			    335, vslice_tol(alone[which], 335));

		queue_at(sys, &a, 3, 0, 0, V0);
		new_task(sys, &n, 4, 0, 0);
		place_entity(cfs, &n.se, 1);
		check_ratio("new nice 0 beside one", n.se.vruntime,
			    (unsigned __int128)V0 + alone[which] / 2, 1, SLICE_TOL_NS);
	}
}

/*
 * The same rule through wake_up_new_task() on a freshly booted CPU, whatever min_vruntime the
 * queue starts from: the new task lands exactly one vslice after it. A nice -20 task alone has a
 * small vslice (2.6.28: 461 463.93; 6.1: 138 439.18), which shows whether the task's initial
 * vruntime from sched_fork() leaks into the placement.
 */
static void test_fork_placement_from_boot(void **state)
{
	static const u64 latency[NR_PROFS] = { 40 * MS, 12 * MS };
	static const int nices[] = { 0, 5, -20 };

	for (int which = 0; which < NR_PROFS; which++) {
		for (size_t i = 0; i < sizeof(nices) / sizeof(nices[0]); i++) {
			struct task_struct p;
			struct sched_system *sys = boot(state, (enum prof)which, 1);
			u64 min_v = cpu_rq(sys, 0)->cfs.min_vruntime;

			sched_fork(sys, &p, 1, nices[i]);
			wake_up_new_task(sys, &p, 0);
			assert_int_equal(p.cpu, 0);
			assert_int_equal(p.state, TASK_RUNNING);
			assert_int_equal(p.se.on_rq, 1);

			u64 w = p.se.load.weight;
			u64 offset = p.se.vruntime - min_v; /* wraps correctly */

			check_ratio(nices[i] == -20
					    ? "new nice -20 from boot: vruntime - min_vruntime"
					    : "new task from boot: vruntime - min_vruntime",
				    offset, (unsigned __int128)latency[which] * 1024, w,
				    vslice_tol(latency[which], w));
		}
	}
}

/*
 * A waking task is placed at min_vruntime - thresh, never before its own old vruntime.
 * 2.6.28 (NORMALIZED_SLEEPER): thresh = 40 ms in the task's virtual time:
 *   nice 0: 40 ms -> 960 000 000; nice 5: 122 268 656.72 -> 877 731 343.28;
 *   nice -5: 40 ms * 1024 / 3121 = 13 123 998.72 -> 986 876 001.28.
 * 6.1 (GENTLE_FAIR_SLEEPERS): thresh = 12 ms / 2 = 6 ms whatever the weight -> 994 000 000.
 */
static void test_place_entity_wakeup(void **state)
{
	static const int nices[] = { 0, 5, -5 };
	static const unsigned long weights[] = { 1024, 335, 3121 };

	for (size_t i = 0; i < 3; i++) {
		struct task_struct p;
		struct sched_system *sys = boot(state, P2628, 1);

		cpu_rq(sys, 0)->cfs.min_vruntime = V0;
		new_task(sys, &p, 1, nices[i], 0);
		p.se.vruntime = 0; /* slept long ago */
		place_entity(&cpu_rq(sys, 0)->cfs, &p.se, 0);
		/* V0 - 40 ms * 1024 / w, times w: V0 * w - 40 ms * 1024 */
		check_ratio("2.6.28 sleeper", p.se.vruntime,
			    (unsigned __int128)V0 * weights[i] - 40ULL * MS * 1024, weights[i],
			    fair_tol(40 * MS, weights[i]));

		sys = boot(state, P61, 1);
		cpu_rq(sys, 0)->cfs.min_vruntime = V0;
		new_task(sys, &p, 1, nices[i], 0);
		p.se.vruntime = 0;
		place_entity(&cpu_rq(sys, 0)->cfs, &p.se, 0);
		assert_int_equal(p.se.vruntime, 994 * MS);
	}
}

/*
 * "Never less than its own old vruntime", both ways: an old vruntime above the placement is kept
 * (a short sleep earns no credit), one below it is raised to the placement.
 */
static void test_place_entity_keeps_old_vruntime(void **state)
{
	static const struct {
		enum prof which;
		u64 old, placed;
	} cases[] = {
		{ P2628, V0 - 1 * MS, V0 - 1 * MS },   /* above V0 - 40 ms: kept */
		{ P2628, V0 + 5 * MS, V0 + 5 * MS },   /* ahead of min_vruntime: kept */
		{ P2628, V0 - 40 * MS, V0 - 40 * MS }, /* exactly the placement */
		{ P2628, V0 - 41 * MS, V0 - 40 * MS }, /* below: raised */
		{ P61, V0 - 1 * MS, V0 - 1 * MS },     { P61, V0 + 5 * MS, V0 + 5 * MS },
		{ P61, V0 - 6 * MS, V0 - 6 * MS },     { P61, V0 - 7 * MS, V0 - 6 * MS },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct task_struct p;
		struct sched_system *sys = boot(state, cases[i].which, 1);

		cpu_rq(sys, 0)->cfs.min_vruntime = V0;
		new_task(sys, &p, 1, 0, 0);
		p.se.vruntime = cases[i].old;
		place_entity(&cpu_rq(sys, 0)->cfs, &p.se, 0);
		assert_int_equal(p.se.vruntime, cases[i].placed);
	}
}

/* enqueue_entity(ENQUEUE_WAKEUP) places the sleeper; a plain enqueue leaves vruntime alone. */
static void test_enqueue_wakeup_places(void **state)
{
	for (int which = 0; which < NR_PROFS; which++) {
		struct task_struct s, m;
		struct sched_system *sys = boot(state, (enum prof)which, 1);
		struct cfs_rq *cfs = &cpu_rq(sys, 0)->cfs;

		cfs->min_vruntime = V0;
		new_task(sys, &s, 1, 0, 0);
		s.se.vruntime = 0;
		enqueue_entity(cfs, &s.se, ENQUEUE_WAKEUP);
		assert_int_equal(s.se.vruntime, V0 - setups[which].sleep_credit_nice0);
		assert_int_equal(s.se.on_rq, 1);
		assert_int_equal(cfs->nr_running, 1);
		assert_int_equal(cfs->load.weight, 1024);

		new_task(sys, &m, 2, 0, 0);
		m.se.vruntime = 12345;
		enqueue_entity(cfs, &m.se, 0);
		assert_int_equal(m.se.vruntime, 12345);
		assert_int_equal(cfs->nr_running, 2);
		assert_int_equal(cpu_rq(sys, 0)->nr_running, 2);
		assert_int_equal(cfs->load.weight, 2048);
	}
}

/* ---------------------------------------------------------------- update_curr */

/*
 * A nice-5 task runs 3 ms: sum_exec_runtime + 3 ms, vruntime + 3e6 * 1024 / 335 = 9 170 149.25,
 * and min_vruntime follows it (alone: max(old, curr)). A nice 0 queued at V0 + 10 ms is then the
 * leftmost; after 1 ms more (curr at V0 + 12 226 865.67) min_vruntime = min(curr, leftmost) =
 * V0 + 10 ms. A sleeper queued at V0 + 1 ms, before min_vruntime, does not pull it back.
 */
static void test_update_curr(void **state)
{
	for (int which = 0; which < NR_PROFS; which++) {
		struct task_struct a, b, c;
		struct sched_system *sys = boot(state, (enum prof)which, 1);
		struct cfs_rq *cfs = &cpu_rq(sys, 0)->cfs;

		queue_at(sys, &a, 1, 5, 0, V0);
		make_curr(sys, &a);
		update_curr(cfs); /* no time passed: nothing changes */
		assert_int_equal(a.se.vruntime, V0);
		assert_int_equal(a.se.sum_exec_runtime, 0);

		sys->clock += 3 * MS;
		update_curr(cfs);
		assert_int_equal(a.se.sum_exec_runtime, 3 * MS);
		assert_int_equal(a.se.exec_start, sys->clock);
		check_ratio("vruntime after 3 ms at nice 5", a.se.vruntime,
			    (unsigned __int128)V0 * 335 + 3ULL * MS * 1024, 335,
			    fair_tol(3 * MS, 335));
		assert_int_equal(cfs->min_vruntime, a.se.vruntime);

		queue_at(sys, &b, 2, 0, 0, V0 + 10 * MS);
		sys->clock += 1 * MS;
		update_curr(cfs);
		assert_int_equal(a.se.sum_exec_runtime, 4 * MS);
		check_ratio("vruntime after 4 ms at nice 5", a.se.vruntime,
			    (unsigned __int128)V0 * 335 + 4ULL * MS * 1024, 335,
			    fair_tol(4 * MS, 335));
		assert_int_equal(cfs->min_vruntime, V0 + 10 * MS);
		assert_int_equal(b.se.sum_exec_runtime, 0);

		queue_at(sys, &c, 3, 0, 0, V0 + 1 * MS);
		sys->clock += 1 * MS;
		update_curr(cfs);
		assert_int_equal(cfs->min_vruntime, V0 + 10 * MS);
	}
}

/* ---------------------------------------------------------------- wakeup preemption */

struct wakeup_case {
	enum prof which;
	int curr_nice, woken_nice;
	s64 vdiff;    /* curr.vruntime - woken.vruntime */
	int expected; /* wakeup_preempt_entity(curr, woken) */
};

/*
 * 2.6.28: gran = 10 ms, in curr's virtual time only when curr is heavier than nice 0 (ASYM_GRAN):
 * curr nice -5: 10 ms * 1024 / 3121 = 3 280 999.68. Whether that rounds to ...999 or ...3 281 000
 * is a fixed-point detail, so the boundary is probed at 3 280 999 (<= gran) and 3 281 001 (> gran).
 * 6.1: gran = 2 ms in the woken task's virtual time: woken nice 5: 2 ms * 1024 / 335 =
 * 6 113 432.84; woken nice -5: 2 ms * 1024 / 3121 = 656 199.94; curr's weight plays no part.
 */
static const struct wakeup_case wakeup_cases[] = {
	{ P2628, 0, 0, -1 * (s64)MS, -1 },
	{ P2628, 0, 0, 0, -1 },
	{ P2628, 0, 0, 1, 0 },
	{ P2628, 0, 0, 10 * MS, 0 },
	{ P2628, 0, 0, 10 * MS + 1, 1 },
	{ P2628, 0, 0, 30 * MS, 1 },
	{ P2628, 5, 0, 10 * MS, 0 }, /* light curr: gran not scaled */
	{ P2628, 5, 0, 10 * MS + 1, 1 },
	{ P2628, -5, 0, 0, -1 },
	{ P2628, -5, 0, 3280999, 0 }, /* heavy curr: gran 3 280 999.68 */
	{ P2628, -5, 0, 3281001, 1 },
	{ P2628, -5, 0, 10 * MS, 1 },
	{ P2628, 0, 5, 10 * MS, 0 }, /* the woken task's weight plays no part */
	{ P2628, 0, 5, 10 * MS + 1, 1 },
	{ P2628, 0, -5, 10 * MS, 0 },
	{ P2628, 0, -5, 10 * MS + 1, 1 },
	{ P2628, -5, 5, 3280999, 0 },
	{ P2628, -5, 5, 3281001, 1 },
	{ P61, 0, 0, -1 * (s64)MS, -1 },
	{ P61, 0, 0, 0, -1 },
	{ P61, 0, 0, 1, 0 },
	{ P61, 0, 0, 2 * MS, 0 },
	{ P61, 0, 0, 2 * MS + 1, 1 },
	{ P61, -5, 0, 2 * MS, 0 }, /* heavy curr: not scaled in 6.1 */
	{ P61, -5, 0, 2 * MS + 1, 1 },
	{ P61, 5, 0, 2 * MS, 0 },
	{ P61, 5, 0, 2 * MS + 1, 1 },
	{ P61, 0, 5, 2 * MS + 1, 0 }, /* light woken: gran 6 113 432.84 */
	{ P61, 0, 5, 6113432, 0 },
	{ P61, 0, 5, 6113434, 1 },
	{ P61, 0, -5, 656199, 0 }, /* heavy woken: gran 656 199.94 */
	{ P61, 0, -5, 656201, 1 },
	{ P61, 0, -5, 2 * MS, 1 },
	{ P61, -5, 5, 6113432, 0 },
	{ P61, -5, 5, 6113434, 1 },
};

#define NR_WAKEUP_CASES (sizeof(wakeup_cases) / sizeof(wakeup_cases[0]))

static void test_wakeup_preempt_entity(void **state)
{
	for (size_t i = 0; i < NR_WAKEUP_CASES; i++) {
		const struct wakeup_case *c = &wakeup_cases[i];
		struct task_struct curr, woken;
		struct sched_system *sys = boot(state, c->which, 1);

		new_task(sys, &curr, 1, c->curr_nice, 0);
		new_task(sys, &woken, 2, c->woken_nice, 0);
		curr.se.vruntime = V0 + 50 * MS;
		woken.se.vruntime = curr.se.vruntime - (u64)c->vdiff;
		int got = wakeup_preempt_entity(&curr.se, &woken.se);

		if (got != c->expected)
			fail_msg("case %zu (%s, curr nice %d, woken nice %d, vdiff %lld): got %d, "
				 "expected %d",
				 i, setups[c->which].name, c->curr_nice, c->woken_nice,
				 (long long)c->vdiff, got, c->expected);
	}
}

/*
 * check_preempt_wakeup() on a CPU running curr, for every case above: need_resched is set exactly
 * when wakeup_preempt_entity() is 1. 2.6.28 makes the woken task the next buddy either way, and
 * curr the last buddy when it is preempted; 6.1 (NEXT_BUDDY off) makes the woken task the next
 * buddy only when it preempts, and marks no last buddy with 2 tasks queued, fewer than
 * sched_nr_latency = 8.
 */
static void test_check_preempt_wakeup(void **state)
{
	for (size_t i = 0; i < NR_WAKEUP_CASES; i++) {
		const struct wakeup_case *c = &wakeup_cases[i];
		struct task_struct curr, woken;
		struct sched_system *sys = boot(state, c->which, 1);
		struct rq *rq = cpu_rq(sys, 0);

		queue_at(sys, &curr, 1, c->curr_nice, 0, V0 + 50 * MS);
		make_curr(sys, &curr);
		queue_at(sys, &woken, 2, c->woken_nice, 0, V0 + 50 * MS - (u64)c->vdiff);
		check_preempt_wakeup(rq, &woken, 0);

		bool expected = c->expected == 1;

		if (resched_set(sys, rq) != expected)
			fail_msg("case %zu (%s, curr nice %d, woken nice %d, vdiff %lld): "
				 "need_resched %d",
				 i, setups[c->which].name, c->curr_nice, c->woken_nice,
				 (long long)c->vdiff, rq->need_resched);
		if (c->which == P2628) {
			assert_ptr_equal(rq->cfs.next, &woken.se);
			assert_ptr_equal(rq->cfs.last, expected ? &curr.se : NULL);
		} else {
			assert_ptr_equal(rq->cfs.next, expected ? &woken.se : NULL);
			assert_null(rq->cfs.last);
		}
		/* Nothing was charged: the clock did not move. */
		assert_int_equal(curr.se.vruntime, V0 + 50 * MS);
	}
}

/*
 * 6.1 with a queue of sched_nr_latency = 8 (curr, 6 waiting, the woken one): a wakeup that
 * preempts (vdiff 3 ms > 2 ms) marks the woken task next and curr last; one that does not (1 ms)
 * marks neither, NEXT_BUDDY being off.
 */
static void test_61_buddies_at_nr_latency(void **state)
{
	for (int preempt = 0; preempt <= 1; preempt++) {
		struct task_struct curr, wait[6], woken;
		struct sched_system *sys = boot(state, P61, 1);
		struct rq *rq = cpu_rq(sys, 0);
		u64 vdiff = preempt ? 3 * MS : 1 * MS;

		queue_at(sys, &curr, 1, 0, 0, V0 + 50 * MS);
		make_curr(sys, &curr);
		for (int i = 0; i < 6; i++)
			queue_at(sys, &wait[i], 10 + i, 0, 0, V0 + 60 * MS);
		queue_at(sys, &woken, 2, 0, 0, V0 + 50 * MS - vdiff);
		assert_int_equal(rq->cfs.nr_running, 8);
		check_preempt_wakeup(rq, &woken, 0);
		assert_int_equal(resched_set(sys, rq), preempt);
		assert_ptr_equal(rq->cfs.next, preempt ? &woken.se : NULL);
		assert_ptr_equal(rq->cfs.last, preempt ? &curr.se : NULL);
	}
}

static void test_check_preempt_wakeup_idle_cpu(void **state)
{
	struct task_struct p;
	struct sched_system *sys = boot(state, P2628, 2);

	queue_at(sys, &p, 1, 19, 1, V0);
	check_preempt_wakeup(cpu_rq(sys, 1), &p, 0);
	assert_true(resched_set(sys, cpu_rq(sys, 1)));
	assert_false(resched_set(sys, cpu_rq(sys, 0)));
}

/*
 * The whole wakeup path (try_to_wake_up: place, enqueue, check preemption) on one CPU whose queue
 * has min_vruntime V0 and runs a nice-0 task at V0:
 * - a long sleeper is placed at V0 - 40 ms (2.6.28) or V0 - 6 ms (6.1), 40 > 10 ms and 6 > 2 ms of
 *   granularity: it preempts, and the next schedule() runs it;
 * - a task that slept briefly keeps its old vruntime V0 - 5 ms (2.6.28) or V0 - 1 ms (6.1), within
 *   the granularity: no preemption.
 */
static void test_wakeup_path(void **state)
{
	static const u64 short_sleep[NR_PROFS] = { 5 * MS, 1 * MS };

	for (int which = 0; which < NR_PROFS; which++) {
		for (int brief = 0; brief <= 1; brief++) {
			struct task_struct c, s;
			struct sched_system *sys = boot(state, (enum prof)which, 1);
			struct rq *rq = cpu_rq(sys, 0);

			queue_at(sys, &c, 1, 0, 0, V0);
			assert_ptr_equal(schedule(rq), &c);
			rq->cfs.min_vruntime = V0;

			new_task(sys, &s, 2, 0, 0);
			s.state = TASK_INTERRUPTIBLE;
			s.se.vruntime = brief ? V0 - short_sleep[which] : 0;
			assert_true(try_to_wake_up(sys, &s, 0, 0));
			assert_false(try_to_wake_up(sys, &s, 0, 0)); /* already awake */
			assert_int_equal(s.state, TASK_RUNNING);
			assert_int_equal(s.cpu, 0);

			if (brief) {
				assert_int_equal(s.se.vruntime, V0 - short_sleep[which]);
				assert_false(resched_set(sys, rq));
			} else {
				assert_int_equal(s.se.vruntime,
						 V0 - setups[which].sleep_credit_nice0);
				assert_true(resched_set(sys, rq));
				assert_ptr_equal(schedule(rq), &s);
				assert_false(resched_set(sys, rq));
				assert_int_equal(c.nivcsw, 1);
				assert_true(c.se.on_rq);
				assert_false(c.on_cpu);
				assert_true(s.on_cpu);
			}
		}
	}
}

/* ---------------------------------------------------------------- tick preemption */

/*
 * Two nice-0 tasks on one CPU: each slice is latency * 1024 / 2048 = 20 ms (2.6.28) or 6 ms (6.1).
 * The running one starts 1 ms of vruntime behind the other, so 6.1's vruntime rule (ahead of the
 * leftmost by more than a slice) stays out of the way. Ticks every 1 ms: no reschedule up to and
 * including delta_exec == slice; one at slice + 1 ns.
 */
static void test_tick_preempts_after_slice(void **state)
{
	for (int which = 0; which < NR_PROFS; which++) {
		struct task_struct a, b;
		u64 slice = setups[which].slice2;
		struct sched_system *sys = boot(state, (enum prof)which, 1);
		struct rq *rq = cpu_rq(sys, 0);

		queue_at(sys, &a, 1, 0, 0, V0);
		queue_at(sys, &b, 2, 0, 0, V0 + 1 * MS);
		assert_ptr_equal(schedule(rq), &a);

		for (u64 t = 1 * MS; t <= slice; t += 1 * MS) {
			sys->clock = T0 + t;
			scheduler_tick(rq);
			if (resched_set(sys, rq))
				fail_msg("%s: rescheduled after %llu ns, the slice is %llu ns",
					 setups[which].name, (unsigned long long)t,
					 (unsigned long long)slice);
		}
		assert_int_equal(a.se.sum_exec_runtime, slice);
		assert_int_equal(a.se.vruntime, V0 + slice);

		sys->clock = T0 + slice + 1;
		scheduler_tick(rq);
		assert_true(resched_set(sys, rq));

		assert_ptr_equal(schedule(rq), &b);
		assert_int_equal(a.nivcsw, 1);
		assert_int_equal(b.sched_info.pcount, 1);
	}
}

/*
 * A nice-5 task running beside a waiting nice 0 (far ahead in vruntime, so only the slice rule can
 * fire): its slice is 9 860 191.32 ns (2.6.28) or 2 958 057.40 ns (6.1). After 9 860 191 ns it
 * keeps the CPU, after 9 860 192 ns it is rescheduled (6.1: 2 958 057 / 2 958 058).
 */
static void test_tick_preempts_light_task(void **state)
{
	static const u64 keep[NR_PROFS] = { 9860191, 2958057 };

	for (int which = 0; which < NR_PROFS; which++) {
		for (u64 extra = 0; extra <= 1; extra++) {
			struct task_struct light, waiting;
			struct sched_system *sys = boot(state, (enum prof)which, 1);
			struct rq *rq = cpu_rq(sys, 0);

			queue_at(sys, &light, 1, 5, 0, V0);
			queue_at(sys, &waiting, 2, 0, 0, V0 + 1 * SEC);
			assert_ptr_equal(schedule(rq), &light);
			sys->clock = T0 + keep[which] + extra;
			scheduler_tick(rq);
			if (resched_set(sys, rq) != (extra == 1))
				fail_msg("%s: nice 5 after %llu ns: need_resched %d",
					 setups[which].name,
					 (unsigned long long)(keep[which] + extra),
					 rq->need_resched);
		}
	}
}

/* Runs the current task for delta ns from clock T0 and checks the tick's verdict. */
static void tick_after(void **state, enum prof which, u64 curr_start, u64 delta, bool expected,
		       const char *what)
{
	struct task_struct a, b;
	struct sched_system *sys = boot(state, which, 1);
	struct rq *rq = cpu_rq(sys, 0);

	queue_at(sys, &b, 2, 0, 0, V0);
	queue_at(sys, &a, 1, 0, 0, curr_start);
	make_curr(sys, &a);
	sys->clock = T0 + delta;
	update_curr(&rq->cfs);
	assert_int_equal(a.se.vruntime, curr_start + delta);
	check_preempt_tick(&rq->cfs, &a.se);
	if (resched_set(sys, rq) != expected)
		fail_msg("%s: %s", setups[which].name, what);
}

/*
 * 6.1's second rule: once curr has run min_granularity (1.5 ms), it is also rescheduled when its
 * vruntime is more than a slice (6 ms) ahead of the leftmost (at V0). 2.6.28 has only the slice
 * rule (20 ms).
 */
static void test_tick_vruntime_rule(void **state)
{
	/* Starts 4.5 ms ahead, runs 1.5 ms: exactly 6 ms ahead, not more. */
	tick_after(state, P61, V0 + 4500 * US, 1500 * US, false,
		   "6 ms ahead is not more than the slice");
	/* One ns further ahead: rescheduled, although it ran only 1.5 ms of its 6 ms slice. */
	tick_after(state, P61, V0 + 4500 * US + 1, 1500 * US, true,
		   "6 ms + 1 ns ahead after min_granularity");
	/* Far ahead but short of min_granularity: keeps running. */
	tick_after(state, P61, V0 + 20 * MS, 1500 * US - 1, false, "ran less than min_granularity");
	tick_after(state, P61, V0 + 20 * MS, 1500 * US, true, "ran min_granularity, 21.5 ms ahead");
	/* 2.6.28: 100 ms ahead, but only the slice counts. */
	tick_after(state, P2628, V0 + 100 * MS, 8 * MS, false,
		   "2.6.28 has no vruntime rule (8 ms)");
	tick_after(state, P2628, V0 + 100 * MS, 20 * MS, false,
		   "2.6.28 has no vruntime rule (20 ms)");
	tick_after(state, P2628, V0 + 100 * MS, 20 * MS + 1, true, "2.6.28 slice exceeded");
}

/* ---------------------------------------------------------------- buddies */

/*
 * After a wakeup that preempts, the woken task W (next buddy) runs if it is within the wakeup
 * granularity of the leftmost L (vruntime V0): W at V0 + gran runs, W at V0 + gran + 1 does not,
 * and the leftmost does (the preempted C, 100 ms ahead, is too far to be taken as last buddy).
 */
static void test_buddy_pick(void **state)
{
	static const u64 gran[NR_PROFS] = { 10 * MS, 2 * MS };

	for (int which = 0; which < NR_PROFS; which++) {
		const u64 g = gran[which];
		const u64 offsets[] = { 0, g / 2, g, g + 1, 3 * g };

		for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
			struct task_struct l, c, w;
			struct sched_system *sys = boot(state, (enum prof)which, 1);
			struct rq *rq = cpu_rq(sys, 0);

			queue_at(sys, &l, 1, 0, 0, V0);
			queue_at(sys, &c, 2, 0, 0, V0 + 100 * MS);
			make_curr(sys, &c);
			queue_at(sys, &w, 3, 0, 0, V0 + offsets[i]);
			check_preempt_wakeup(rq, &w, 0);
			assert_true(resched_set(sys, rq));

			struct task_struct *next = schedule(rq);
			struct task_struct *expected = offsets[i] <= gran[which] ? &w : &l;

			if (next != expected)
				fail_msg(
					"%s: woken %llu ns after the leftmost: ran pid %d, expected %d",
					setups[which].name, (unsigned long long)offsets[i],
					next ? next->pid : -1, expected->pid);
			/* A buddy is spent once it has been run. */
			assert_ptr_not_equal(rq->cfs.next, &next->se);
		}
	}
}

/* ---------------------------------------------------------------- min_vruntime */

#define NR_WALK_TASKS 12
#define NR_WALK_STEPS 20000

static bool vr_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

struct walk {
	struct sched_system *sys;
	struct rq *rq;
	struct cfs_rq *cfs;
	struct task_struct t[NR_WALK_TASKS];
	gsl_rng *rng;
};

static struct task_struct *walk_random(struct walk *w, bool on_rq)
{
	struct task_struct *cand[NR_WALK_TASKS];
	size_t n = 0;

	for (size_t i = 0; i < NR_WALK_TASKS; i++)
		if ((bool)w->t[i].se.on_rq == on_rq)
			cand[n++] = &w->t[i];
	return n ? cand[gsl_rng_uniform_int(w->rng, n)] : NULL;
}

/* The SPEC's formula, from the test's own view of the queue: max(old, min(curr, leftmost)). */
static u64 expected_min_vruntime(const struct walk *w, u64 old)
{
	const struct sched_entity *curr = w->cfs->curr;
	bool have = false;
	u64 v = 0;

	if (curr && curr->on_rq) {
		v = curr->vruntime;
		have = true;
	}
	for (size_t i = 0; i < NR_WALK_TASKS; i++) {
		const struct sched_entity *se = &w->t[i].se;

		if (se->on_rq && se != curr && (!have || vr_before(se->vruntime, v))) {
			v = se->vruntime;
			have = true;
		}
	}
	return have && vr_before(old, v) ? v : old;
}

static void walk_step(struct walk *w)
{
	struct task_struct *p;

	switch (gsl_rng_uniform_int(w->rng, 6)) {
	case 0:
	case 5: { /* time passes for the running task */
		if (!w->rq->curr)
			break;
		u64 old = w->cfs->min_vruntime;

		w->sys->clock += 1 + gsl_rng_uniform_int(w->rng, 3 * MS);
		update_curr(w->cfs);
		assert_int_equal(w->cfs->min_vruntime, expected_min_vruntime(w, old));
		break;
	}
	case 1: /* a task is forked or wakes up */
		p = walk_random(w, false);
		if (!p)
			break;
		if (p->state == TASK_NEW) {
			fair_sched_class.task_fork(w->rq, p);
			p->state = TASK_RUNNING;
			activate_task(w->rq, p, 0);
		} else {
			p->state = TASK_RUNNING;
			activate_task(w->rq, p,
				      gsl_rng_uniform_int(w->rng, 2) ? ENQUEUE_WAKEUP : 0);
		}
		if (w->rq->curr && gsl_rng_uniform_int(w->rng, 2))
			check_preempt_wakeup(w->rq, p, 0);
		clear_resched(w->sys, w->rq);
		break;
	case 2: /* a task goes to sleep */
		p = walk_random(w, true);
		if (!p)
			break;
		deactivate_task(w->rq, p, DEQUEUE_SLEEP);
		p->state = TASK_INTERRUPTIBLE;
		if (p == w->rq->curr) {
			put_prev_entity(w->cfs, &p->se);
			w->rq->curr = NULL;
		}
		break;
	case 3: { /* pick */
		if (w->rq->curr || w->cfs->nr_running == 0)
			break;
		struct sched_entity *se = pick_next_entity(w->cfs);

		assert_non_null(se);
		set_next_entity(w->cfs, se);
		w->rq->curr = task_of(se);
		break;
	}
	default: /* 4: put */
		if (!w->rq->curr)
			break;
		put_prev_entity(w->cfs, &w->rq->curr->se);
		w->rq->curr = NULL;
		break;
	}
}

static void walk_check_accounting(const struct walk *w)
{
	unsigned int nr = 0;
	unsigned long load = 0;

	for (size_t i = 0; i < NR_WALK_TASKS; i++) {
		if (w->t[i].se.on_rq) {
			nr++;
			load += w->t[i].se.load.weight;
		}
	}
	assert_int_equal(w->cfs->nr_running, nr);
	assert_int_equal(w->rq->nr_running, nr);
	assert_int_equal(w->cfs->load.weight, load);
}

static void random_walk(void **state, enum prof which, unsigned long seed)
{
	struct fixture *f = *state;
	struct walk w;

	w.sys = boot(state, which, 1);
	w.rq = cpu_rq(w.sys, 0);
	w.cfs = &w.rq->cfs;
	if (!f->rng)
		f->rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(f->rng);
	w.rng = f->rng;
	gsl_rng_set(w.rng, seed);
	for (size_t i = 0; i < NR_WALK_TASKS; i++)
		new_task(w.sys, &w.t[i], (int)i + 1,
			 (int)gsl_rng_uniform_int(w.rng, NICE_WIDTH) + MIN_NICE, 0);

	u64 start = w.cfs->min_vruntime, prev = start;
	unsigned long charged = 0;

	for (int step = 0; step < NR_WALK_STEPS; step++) {
		u64 clock = w.sys->clock;

		walk_step(&w);
		charged += w.sys->clock != clock;
		if (vr_before(w.cfs->min_vruntime, prev))
			fail_msg("%s seed %lu step %d: min_vruntime went back from %lld to %lld",
				 setups[which].name, seed, step, (long long)prev,
				 (long long)w.cfs->min_vruntime);
		prev = w.cfs->min_vruntime;
		walk_check_accounting(&w);
	}
	/* The walk did run tasks (thousands of charges of 1.5 ms on average), and min_vruntime
	 * followed them. */
	assert_true(charged > NR_WALK_STEPS / 10);
	assert_true(vr_before(start + 100 * MS, w.cfs->min_vruntime));
}

/* Seeded random enqueue / dequeue / pick / put / update_curr sequences with random nice levels. */
static void test_min_vruntime_never_decreases(void **state)
{
	for (unsigned long seed = 1; seed <= 3; seed++) {
		random_walk(state, P2628, seed);
		random_walk(state, P61, seed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_calc_delta_fair_nice0_is_identity, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_calc_delta_fair_all_weights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sched_period, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sched_slice_equal_weights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sched_slice_mixed_weights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sched_slice_min_granularity_floor, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sched_vslice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_place_entity_fork, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_placement_from_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_place_entity_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_place_entity_keeps_old_vruntime, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_enqueue_wakeup_places, setup, teardown),
		cmocka_unit_test_setup_teardown(test_update_curr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_preempt_entity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_preempt_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_61_buddies_at_nr_latency, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_preempt_wakeup_idle_cpu, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wakeup_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_preempts_after_slice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_preempts_light_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_vruntime_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_buddy_pick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_min_vruntime_never_decreases, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
