/*
 * Tests of the numbers the CFS policy is built from: the profiles' knobs and their boot-time
 * scaling (kernel-extract/sched_tunables.c) and the nice-to-weight tables (kernel-extract/
 * sched_prio.c).
 *
 * Every expected value is typed in by hand from SPEC.md section 3 or from the kernel, with the
 * arithmetic in a comment; none is obtained by calling the code under test. Where a value is a
 * ratio the test checks it with exact integer arithmetic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel-extract/sched_core.h"

#define MS 1000000ULL

static const struct sched_profile *profile(const char *name)
{
	const struct sched_profile *p = sched_profile_find(name);

	assert_non_null(p);
	return p;
}

/* ---------------------------------------------------------------- profiles */

static void test_profile_lookup(void **state)
{
	(void)state;
	assert_string_equal(profile("2.6.28")->name, "2.6.28");
	assert_string_equal(profile("6.1")->name, "6.1");
	/* SPEC.md section 3: 2.6.28 is the default profile. */
	assert_string_equal(sched_profile_default()->name, "2.6.28");
	assert_null(sched_profile_find("2.6.23"));
	assert_null(sched_profile_find(""));
	assert_null(sched_profile_find("6.1 "));
	assert_non_null(strstr(sched_profile_names(), "2.6.28"));
	assert_non_null(strstr(sched_profile_names(), "6.1"));
	assert_non_null(strstr(sched_profile_names(), "eevdf"));
	assert_non_null(strstr(sched_profile_names(), "6.6"));
	assert_int_equal(profile("6.1")->knobs, SCHED_KNOBS_CFS);
	assert_int_equal(profile("eevdf")->knobs, SCHED_KNOBS_EEVDF);
	assert_int_equal(profile("6.6")->knobs, SCHED_KNOBS_EEVDF);
}

/*
 * EEVDF's base slice (kernel/sched/fair.c): 0.75 ms in 6.6, 0.70 ms since 6.15 (what this
 * machine's 6.18 shows: 1.4 ms on 2 CPUs), scaled by 1 + ilog2(min(ncpus, 8)): on 2 CPUs 1.4 and
 * 1.5 ms, on 64 CPUs (capped at 8, factor 4) 2.8 and 3 ms. No CFS knob, hence no nr_latency.
 * The flags that differ: 6.12's per-task slices, delayed dequeue and shorter-slice preemption,
 * 6.17's lag bound and end-of-protection reschedule.
 */
static void test_eevdf_profiles(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		unsigned int ncpus;
		uint64_t base_slice;
	} cases[] = {
		{ "eevdf", 1, 700000 }, { "eevdf", 2, 1400000 }, { "eevdf", 64, 2800000 },
		{ "6.6", 1, 750000 },	{ "6.6", 2, 1500000 },	 { "6.6", 64, 3000000 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sched_tunables t =
			sched_tunables_default(profile(cases[i].name), cases[i].ncpus);

		assert_int_equal(t.base_slice, cases[i].base_slice);
		assert_int_equal(t.latency, 0);
		assert_int_equal(t.min_granularity, 0);
		assert_int_equal(t.nr_latency, 0);
		assert_int_equal(t.migration_cost, 500000);
	}
	static const enum sched_feature only_618[] = { SF_PLACE_REL_DEADLINE, SF_PREEMPT_SHORT,
						       SF_DELAY_DEQUEUE,      SF_DELAY_ZERO,
						       SF_CUSTOM_SLICE,	      SF_LAG_MAX_SLICE,
						       SF_RESCHED_PROTECT_END };
	static const enum sched_feature both[] = { SF_PLACE_LAG, SF_PLACE_DEADLINE_INITIAL,
						   SF_RUN_TO_PARITY, SF_WAKEUP_PREEMPT,
						   SF_SCALE_CPUS_CAPPED_AT_8 };

	for (size_t i = 0; i < sizeof(only_618) / sizeof(only_618[0]); i++) {
		assert_true(profile("eevdf")->features & (1U << only_618[i]));
		assert_false(profile("6.6")->features & (1U << only_618[i]));
	}
	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++) {
		assert_true(profile("eevdf")->features & (1U << both[i]));
		assert_true(profile("6.6")->features & (1U << both[i]));
	}
	/* Neither has buddies (NEXT_BUDDY is off in both kernels) nor CFS's rules. */
	assert_false(profile("eevdf")->features & (1U << SF_NEXT_BUDDY));
	assert_false(profile("eevdf")->features & (1U << SF_START_DEBIT));
	assert_int_equal(SCHED_BASE_SLICE_MAX, 4294967295ULL);
}

/* The base values of SPEC.md's table, before any scaling. */
static void test_profile_base_values(void **state)
{
	(void)state;
	const struct sched_tunables *old = &profile("2.6.28")->base;
	const struct sched_tunables *new = &profile("6.1")->base;

	assert_int_equal(old->latency, 20000000);
	assert_int_equal(old->min_granularity, 4000000);
	assert_int_equal(old->wakeup_granularity, 5000000);
	assert_int_equal(old->migration_cost, 500000);
	assert_int_equal(new->latency, 6000000);
	assert_int_equal(new->min_granularity, 750000);
	assert_int_equal(new->wakeup_granularity, 1000000);
	assert_int_equal(new->migration_cost, 500000);
}

static void test_sysctl_ranges(void **state)
{
	(void)state;
	assert_int_equal(SCHED_LATENCY_MIN, 100000);
	assert_int_equal(SCHED_LATENCY_MAX, 1000000000);
	assert_int_equal(SCHED_MIN_GRAN_MIN, 100000);
	assert_int_equal(SCHED_MIN_GRAN_MAX, 1000000000);
	assert_int_equal(SCHED_WAKEUP_GRAN_MIN, 0);
	assert_int_equal(SCHED_WAKEUP_GRAN_MAX, 1000000000);
}

/* ---------------------------------------------------------------- boot-time scaling */

struct factor_case {
	unsigned int ncpus;
	unsigned int factor_2_6_28; /* 1 + ilog2(ncpus) */
	unsigned int factor_6_1;    /* 1 + ilog2(min(ncpus, 8)) */
};

/* ilog2 is the index of the highest set bit: ilog2(3) = 1, ilog2(64) = 6, ilog2(1024) = 10. */
static const struct factor_case factor_cases[] = {
	{ 1, 1, 1 }, { 2, 2, 2 }, { 3, 2, 2 },	{ 4, 3, 3 },  { 5, 3, 3 },     { 7, 3, 3 },
	{ 8, 4, 4 }, { 9, 4, 4 }, { 16, 5, 4 }, { 64, 7, 4 }, { 1024, 11, 4 },
};

static void test_tunable_factor(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(factor_cases) / sizeof(factor_cases[0]); i++) {
		const struct factor_case *c = &factor_cases[i];

		assert_int_equal(sched_tunable_factor(profile("2.6.28"), c->ncpus),
				 c->factor_2_6_28);
		assert_int_equal(sched_tunable_factor(profile("6.1"), c->ncpus), c->factor_6_1);
	}
}

struct default_case {
	unsigned int ncpus;
	uint64_t latency, min_granularity, wakeup_granularity;
	unsigned int nr_latency;
};

static void check_defaults(const char *name, const struct default_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct default_case *c = &cases[i];
		struct sched_tunables t = sched_tunables_default(profile(name), c->ncpus);

		if (t.latency != c->latency || t.min_granularity != c->min_granularity ||
		    t.wakeup_granularity != c->wakeup_granularity || t.nr_latency != c->nr_latency)
			fail_msg("%s on %u CPUs: got latency %llu min_gran %llu wakeup_gran %llu "
				 "nr_latency %u, expected %llu %llu %llu %u",
				 name, c->ncpus, (unsigned long long)t.latency,
				 (unsigned long long)t.min_granularity,
				 (unsigned long long)t.wakeup_granularity, t.nr_latency,
				 (unsigned long long)c->latency,
				 (unsigned long long)c->min_granularity,
				 (unsigned long long)c->wakeup_granularity, c->nr_latency);
		/* migration_cost is not scaled. */
		assert_int_equal(t.migration_cost, 500000);
	}
}

/*
 * 2.6.28: 20 / 4 / 5 ms times 1 + ilog2(ncpus); latency and min_granularity capped at 200 ms.
 * nr_latency = ceil(latency / min_granularity) = 5 until the cap bites:
 *   1024 CPUs, factor 11: latency 220 -> 200 ms, min_gran 44 ms, wakeup 55 ms (not capped),
 *                         nr_latency = ceil(200 / 44 = 4.55) = 5;
 *   4096 CPUs, factor 13: latency 260 -> 200 ms, min_gran 52 ms, wakeup 65 ms,
 *                         nr_latency = ceil(200 / 52 = 3.85) = 4.
 * (The min_granularity cap needs a factor above 50, i.e. 2^50 CPUs: it cannot be reached.)
 */
static void test_defaults_2_6_28(void **state)
{
	(void)state;
	static const struct default_case cases[] = {
		{ 1, 20 * MS, 4 * MS, 5 * MS, 5 },	 { 2, 40 * MS, 8 * MS, 10 * MS, 5 },
		{ 3, 40 * MS, 8 * MS, 10 * MS, 5 },	 { 4, 60 * MS, 12 * MS, 15 * MS, 5 },
		{ 8, 80 * MS, 16 * MS, 20 * MS, 5 },	 { 16, 100 * MS, 20 * MS, 25 * MS, 5 },
		{ 64, 140 * MS, 28 * MS, 35 * MS, 5 },	 { 1024, 200 * MS, 44 * MS, 55 * MS, 5 },
		{ 4096, 200 * MS, 52 * MS, 65 * MS, 4 },
	};

	check_defaults("2.6.28", cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * 6.1: 6 / 0.75 / 1 ms times 1 + ilog2(min(ncpus, 8)), so nothing grows past 8 CPUs (factor 4:
 * 24 / 3 / 4 ms) and there is no 200 ms cap to reach. nr_latency = 6 / 0.75 = 8 throughout.
 */
static void test_defaults_6_1(void **state)
{
	(void)state;
	static const struct default_case cases[] = {
		{ 1, 6 * MS, 750000, 1 * MS, 8 },   { 2, 12 * MS, 1500000, 2 * MS, 8 },
		{ 3, 12 * MS, 1500000, 2 * MS, 8 }, { 4, 18 * MS, 2250000, 3 * MS, 8 },
		{ 8, 24 * MS, 3 * MS, 4 * MS, 8 },  { 16, 24 * MS, 3 * MS, 4 * MS, 8 },
		{ 64, 24 * MS, 3 * MS, 4 * MS, 8 }, { 1024, 24 * MS, 3 * MS, 4 * MS, 8 },
	};

	check_defaults("6.1", cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---------------------------------------------------------------- nr_latency, user values */

static void test_nr_latency_is_ceiling(void **state)
{
	(void)state;
	static const struct {
		uint64_t latency, min_granularity;
		unsigned int nr_latency;
	} cases[] = {
		{ 20000000, 4000000, 5 },      /* exactly 5: no rounding up */
		{ 6000000, 750000, 8 },	       /* exactly 8 */
		{ 20000001, 4000000, 6 },      /* 5.00000025 -> 6 */
		{ 19999999, 4000000, 5 },      /* 4.99999975 -> 5 */
		{ 100000, 1000000000, 1 },     /* 0.0001 -> 1 */
		{ 1000000000, 100000, 10000 }, /* sysctl extremes */
		{ 19900000, 100000,
		  199 }, /* SPEC 5 rule 1: (N - 1) * 100 us, nr_latency < N = 200 */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sched_tunables t = { .latency = cases[i].latency,
					    .min_granularity = cases[i].min_granularity,
					    .nr_latency = 12345 };

		sched_tunables_update(&t);
		assert_int_equal(t.nr_latency, cases[i].nr_latency);
		assert_int_equal(t.latency, cases[i].latency);
		assert_int_equal(t.min_granularity, cases[i].min_granularity);
	}
}

/* The tunables a freshly built system holds (the system itself is freed before any check). */
static struct sched_tunables booted_with(const struct sched_tunables *tun, unsigned int ncpus,
					 const char *name)
{
	struct sched_system sys;

	assert_true(sched_system_init(&sys, ncpus, 1, tun, profile(name)));
	struct sched_tunables got = sys.tun;

	sched_system_destroy(&sys);
	return got;
}

/*
 * Values a user gives are what sysctl would show: a simulation built with them keeps them as
 * they are (no boot-time scaling, no 200 ms cap), in both profiles and on any number of CPUs; only
 * the derived nr_latency is recomputed (ceil(7 777 777 / 333 333 = 23.3) = 24).
 */
static void test_user_values_kept(void **state)
{
	(void)state;
	static const char *const names[] = { "2.6.28", "6.1" };
	static const unsigned int ncpus[] = { 1, 2, 4 };
	const struct sched_tunables odd = { .latency = 7777777,
					    .min_granularity = 333333,
					    .wakeup_granularity = 0,
					    .migration_cost = 0,
					    .nr_latency = 0 };
	const struct sched_tunables big = { .latency = 1000000000,
					    .min_granularity = 1000000000,
					    .wakeup_granularity = 1000000000,
					    .migration_cost = 123,
					    .nr_latency = 99 };

	for (size_t i = 0; i < 2; i++) {
		for (size_t j = 0; j < 3; j++) {
			struct sched_tunables t = booted_with(&odd, ncpus[j], names[i]);

			assert_int_equal(t.latency, 7777777);
			assert_int_equal(t.min_granularity, 333333);
			assert_int_equal(t.wakeup_granularity, 0);
			assert_int_equal(t.migration_cost, 0);
			assert_int_equal(t.nr_latency, 24);

			t = booted_with(&big, ncpus[j], names[i]);
			assert_int_equal(t.latency, 1000000000);
			assert_int_equal(t.min_granularity, 1000000000);
			assert_int_equal(t.wakeup_granularity, 1000000000);
			assert_int_equal(t.migration_cost, 123);
			assert_int_equal(t.nr_latency, 1);
		}
	}
}

/* ---------------------------------------------------------------- load weights */

/*
 * The kernel's prio_to_weight[] (kernel/sched.c, unchanged from 2.6.23 to 6.x), typed in here
 * independently of kernel-extract/sched_prio.c, nice -20 first.
 */
static const int kernel_weights[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,	 1991,	1586,  1277,
	1024,  820,   655,   526,   423,   335,	  272,	 215,	172,   137,
	110,   87,    70,    56,    45,	   36,	  29,	 23,	18,    15,
};

static void test_weights_are_the_kernels(void **state)
{
	(void)state;
	for (int i = 0; i < NICE_WIDTH; i++)
		if (prio_to_weight[i] != kernel_weights[i])
			fail_msg("nice %d: weight %d, the kernel's is %d", i - 20,
				 prio_to_weight[i], kernel_weights[i]);

	/* SPEC.md section 3's spot values, indexed by nice + 20. */
	assert_int_equal(prio_to_weight[-20 + 20], 88761);
	assert_int_equal(prio_to_weight[-5 + 20], 3121);
	assert_int_equal(prio_to_weight[0 + 20], 1024);
	assert_int_equal(prio_to_weight[1 + 20], 820);
	assert_int_equal(prio_to_weight[5 + 20], 335);
	assert_int_equal(prio_to_weight[19 + 20], 15);
}

/* One nice step changes the weight by about x1.25 (the "10% per nice level" rule). */
static void test_weights_step_about_1_25(void **state)
{
	(void)state;
	for (int i = 0; i + 1 < NICE_WIDTH; i++) {
		double ratio = (double)prio_to_weight[i] / (double)prio_to_weight[i + 1];

		if (ratio < 1.25 - 0.06 || ratio > 1.25 + 0.06)
			fail_msg("nice %d -> %d: ratio %.4f is not about 1.25", i - 20, i - 19,
				 ratio);
	}
}

/* prio_to_wmult[i] is 2^32 / prio_to_weight[i] within 1, checked exactly: |m * w - 2^32| <= w. */
static void test_inverse_weights(void **state)
{
	(void)state;
	const int64_t two32 = 4294967296LL;

	for (int i = 0; i < NICE_WIDTH; i++) {
		int64_t w = kernel_weights[i];
		int64_t err = (int64_t)prio_to_wmult[i] * w - two32;

		if (err < -w || err > w)
			fail_msg("nice %d: wmult %u is not 2^32 / %lld = %.3f within 1", i - 20,
				 prio_to_wmult[i], (long long)w, (double)two32 / (double)w);
	}
	/* 1024 divides 2^32: the nice-0 inverse is exact, 2^22. */
	assert_int_equal(prio_to_wmult[20], 4194304);
}

/*
 * sched_fork() gives a task its nice level's weight and inverse weight, and the class of the
 * system it is forked in, which is the one its profile names (CFS for 2.6.28 and 6.1).
 */
static void test_sched_fork_sets_weight(void **state)
{
	(void)state;
	const struct sched_tunables tun = sched_tunables_default(profile("6.1"), 2);
	struct sched_system sys;

	assert_true(sched_system_init(&sys, 2, 1, &tun, profile("6.1")));
	assert_ptr_equal(sys.policy, &fair_sched_class);
	assert_ptr_equal(profile("2.6.28")->sched_class, &fair_sched_class);
	static const struct {
		int nice;
		unsigned long weight;
	} cases[] = {
		{ -20, 88761 }, { -5, 3121 }, { 0, 1024 }, { 1, 820 }, { 5, 335 }, { 19, 15 }
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct task_struct p;

		memset(&p, 0xa5, sizeof(p));
		sched_fork(&sys, &p, 7, cases[i].nice);
		assert_int_equal(p.se.load.weight, cases[i].weight);
		assert_int_equal(p.se.load.inv_weight, prio_to_wmult[cases[i].nice + 20]);
		assert_int_equal(p.static_prio, 120 + cases[i].nice);
		assert_int_equal(task_nice(&p), cases[i].nice);
		assert_int_equal(p.se.on_rq, 0);
		assert_int_equal(p.se.sum_exec_runtime, 0);
		assert_int_equal(p.state, TASK_NEW);
		assert_ptr_equal(p.sched_class, &fair_sched_class);
	}
	sched_system_destroy(&sys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_lookup),
		cmocka_unit_test(test_eevdf_profiles),
		cmocka_unit_test(test_profile_base_values),
		cmocka_unit_test(test_sysctl_ranges),
		cmocka_unit_test(test_tunable_factor),
		cmocka_unit_test(test_defaults_2_6_28),
		cmocka_unit_test(test_defaults_6_1),
		cmocka_unit_test(test_nr_latency_is_ceiling),
		cmocka_unit_test(test_user_values_kept),
		cmocka_unit_test(test_weights_are_the_kernels),
		cmocka_unit_test(test_weights_step_about_1_25),
		cmocka_unit_test(test_inverse_weights),
		cmocka_unit_test(test_sched_fork_sets_weight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
