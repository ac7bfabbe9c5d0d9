/*
 * tests/tuner/knobs/test_discovery.c - SchedPeriod -> knobs (tuner/knobs/discovery.h).
 *
 * Every expected number below is worked out by hand from SPEC.md §5 with N = ntasks in
 * place of the literature's 200; all of them are exact in binary floating point
 * (integers below 2^53, or quotients that are integers), so the checks are exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/knobs/discovery.h"

enum {
	L = TUNER_DISCOVERY_CLAMPED_LATENCY,
	M = TUNER_DISCOVERY_CLAMPED_MIN_GRANULARITY,
	W = TUNER_DISCOVERY_CLAMPED_WAKEUP_GRANULARITY,
};

typedef struct {
	double period_ns;
	double latency_ns, min_granularity_ns, wakeup_granularity_ns;
	unsigned clamped;
} row;

static void check_rows(int rule, unsigned ntasks, const row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double k[KNOB_CFS_COUNT] = { -1.0, -1.0, -1.0 };
		unsigned mask = 0xdead;
		tuner_discovery_apply(rule, rows[i].period_ns, ntasks, k, &mask);
		if (k[KNOB_LATENCY] != rows[i].latency_ns ||
		    k[KNOB_MIN_GRANULARITY] != rows[i].min_granularity_ns ||
		    k[KNOB_WAKEUP_GRANULARITY] != rows[i].wakeup_granularity_ns ||
		    mask != rows[i].clamped)
			fail_msg(
				"rule %d, N %u, SchedPeriod %.17g: got latency %.17g, min_gran %.17g, "
				"wakeup %.17g, clamped %#x; want %.17g, %.17g, %.17g, %#x",
				rule, ntasks, rows[i].period_ns, k[KNOB_LATENCY],
				k[KNOB_MIN_GRANULARITY], k[KNOB_WAKEUP_GRANULARITY], mask,
				rows[i].latency_ns, rows[i].min_granularity_ns,
				rows[i].wakeup_granularity_ns, rows[i].clamped);
	}
}

/*
 * Rule 1, N = 200, the literature's own constants: threshold 200 000 000 000,
 * latency 19 900 000, min_granularity = P / 200.
 */
static void test_rule1_n200(void **state)
{
	(void)state;
	const row rows[] = {
		/* P / 200 = 50 000 < 100 000: min_granularity clamped up */
		{ 10000000.0, 19900000.0, 100000.0, 0.0, M },
		/* P = N x 100 us: exactly the floor, not clamped */
		{ 20000000.0, 19900000.0, 100000.0, 0.0, 0 },
		{ 1000000000.0, 19900000.0, 5000000.0, 0.0, 0 },
		{ 199999800000.0, 19900000.0, 999999000.0, 0.0, 0 },
		/* at the threshold: not above it, so no spill-over */
		{ 200000000000.0, 19900000.0, 1000000000.0, 0.0, 0 },
		/* above: the excess spills into wakeup, P stays 200 000 000 000 */
		{ 200000000001.0, 19900000.0, 1000000000.0, 1.0, 0 },
		{ 200500000000.0, 19900000.0, 1000000000.0, 500000000.0, 0 },
		{ 201000000000.0, 19900000.0, 1000000000.0, 1000000000.0, 0 },
		/* wakeup 3 000 000 000 > 1 s: clamped */
		{ 203000000000.0, 19900000.0, 1000000000.0, 1000000000.0, W },
	};
	check_rows(TUNER_DISCOVERY_RULE_MANY_TASKS, 200, rows, G_N_ELEMENTS(rows));
}

/*
 * Rule 2, N = 200: threshold 1 s; latency = P; min_granularity = P / 200 if latency <
 * 20 000 000, else 100 000.  P / 200 < 100 000 exactly when P < 20 000 000, so that
 * branch is always clamped.
 */
static void test_rule2_n200(void **state)
{
	(void)state;
	const row rows[] = {
		/* latency 50 000 < 100 000 clamped; P / 200 = 250 clamped */
		{ 50000.0, 100000.0, 100000.0, 0.0, L | M },
		{ 100000.0, 100000.0, 100000.0, 0.0, M },
		/* latency 10 ms < 20 ms: min_granularity = 50 000, clamped to 100 000 */
		{ 10000000.0, 10000000.0, 100000.0, 0.0, M },
		{ 19999800.0, 19999800.0, 100000.0, 0.0, M }, /* 99 999 */
		/* latency 20 ms is not < 20 ms: 100 000, nothing clamped */
		{ 20000000.0, 20000000.0, 100000.0, 0.0, 0 },
		{ 500000000.0, 500000000.0, 100000.0, 0.0, 0 },
		{ 1000000000.0, 1000000000.0, 100000.0, 0.0, 0 },
		/* above 1 s: spill-over into wakeup, latency stays 1 s */
		{ 1500000000.0, 1000000000.0, 100000.0, 500000000.0, 0 },
		{ 2000000000.0, 1000000000.0, 100000.0, 1000000000.0, 0 },
		{ 3500000000.0, 1000000000.0, 100000.0, 1000000000.0, W },
	};
	check_rows(TUNER_DISCOVERY_RULE_FEW_TASKS, 200, rows, G_N_ELEMENTS(rows));
}

/*
 * N = 40 (one hackbench group): rule 1 threshold 40 x 1 s = 40 000 000 000, latency
 * 39 x 100 us = 3 900 000, min_granularity = P / 40; rule 2 compares latency with
 * 40 x 100 us = 4 000 000.
 */
static void test_rules_n40(void **state)
{
	(void)state;
	const row rule1[] = {
		{ 2000000.0, 3900000.0, 100000.0, 0.0, M }, /* P / 40 = 50 000 */
		{ 4000000.0, 3900000.0, 100000.0, 0.0, 0 },
		{ 400000000.0, 3900000.0, 10000000.0, 0.0, 0 },
		{ 40000000000.0, 3900000.0, 1000000000.0, 0.0, 0 },
		{ 40700000000.0, 3900000.0, 1000000000.0, 700000000.0, 0 },
		{ 42000000000.0, 3900000.0, 1000000000.0, 1000000000.0, W },
	};
	check_rows(TUNER_DISCOVERY_RULE_MANY_TASKS, 40, rule1, G_N_ELEMENTS(rule1));

	const row rule2[] = {
		{ 2000000.0, 2000000.0, 100000.0, 0.0, M }, /* P / 40 = 50 000 */
		{ 4000000.0, 4000000.0, 100000.0, 0.0, 0 },
		{ 100000000.0, 100000000.0, 100000.0, 0.0, 0 },
		{ 1250000000.0, 1000000000.0, 100000.0, 250000000.0, 0 },
	};
	check_rows(TUNER_DISCOVERY_RULE_FEW_TASKS, 40, rule2, G_N_ELEMENTS(rule2));
}

/* Task counts where rule 1's latency (N - 1) x 100 us itself leaves [100 us, 1 s]. */
static void test_rule1_latency_out_of_range(void **state)
{
	(void)state;
	const row one_task[] = {
		/* N = 1: latency 0 -> 100 000; threshold 1 s; min_granularity = P */
		{ 500000000.0, 100000.0, 500000000.0, 0.0, L },
		{ 1200000000.0, 100000.0, 1000000000.0, 200000000.0, L },
	};
	check_rows(TUNER_DISCOVERY_RULE_MANY_TASKS, 1, one_task, G_N_ELEMENTS(one_task));

	const row many_tasks[] = {
		/* N = 20 000: latency 1 999 900 000 -> 1 s; P / N = 50 000 -> 100 000 */
		{ 1000000000.0, 1000000000.0, 100000.0, 0.0, L | M },
	};
	check_rows(TUNER_DISCOVERY_RULE_MANY_TASKS, 20000, many_tasks, G_N_ELEMENTS(many_tasks));

	/* N = 10 001 is the largest with latency in range: 10 000 x 100 us = 1 s exactly */
	const row edge[] = { { 1000100000.0, 1000000000.0, 100000.0, 0.0, 0 } };
	check_rows(TUNER_DISCOVERY_RULE_MANY_TASKS, 10001, edge, G_N_ELEMENTS(edge));
}

static void test_brackets(void **state)
{
	(void)state;
	double lo, hi;
	tuner_discovery_bracket(TUNER_DISCOVERY_RULE_MANY_TASKS, 200, &lo, &hi);
	assert_true(lo == 20000000.0 && hi == 201000000000.0);
	tuner_discovery_bracket(TUNER_DISCOVERY_RULE_MANY_TASKS, 40, &lo, &hi);
	assert_true(lo == 4000000.0 && hi == 41000000000.0);
	tuner_discovery_bracket(TUNER_DISCOVERY_RULE_FEW_TASKS, 200, &lo, &hi);
	assert_true(lo == 100000.0 && hi == 2000000000.0);

	/* Rule 1 clamps nothing at either end of its bracket, and something just outside. */
	const unsigned counts[] = { 40, 200 };
	for (size_t i = 0; i < G_N_ELEMENTS(counts); i++) {
		double k[KNOB_CFS_COUNT];
		unsigned mask;
		tuner_discovery_bracket(TUNER_DISCOVERY_RULE_MANY_TASKS, counts[i], &lo, &hi);
		tuner_discovery_apply(TUNER_DISCOVERY_RULE_MANY_TASKS, lo, counts[i], k, &mask);
		assert_int_equal(mask, 0);
		tuner_discovery_apply(TUNER_DISCOVERY_RULE_MANY_TASKS, hi, counts[i], k, &mask);
		assert_int_equal(mask, 0);
		tuner_discovery_apply(TUNER_DISCOVERY_RULE_MANY_TASKS, lo - counts[i], counts[i], k,
				      &mask);
		assert_int_equal(mask, M);
		tuner_discovery_apply(TUNER_DISCOVERY_RULE_MANY_TASKS, hi + 1.0, counts[i], k,
				      &mask);
		assert_int_equal(mask, W);
	}

	/* Rule 2: latency in range at the ends, clamped just outside. */
	double k[KNOB_CFS_COUNT];
	unsigned mask;
	tuner_discovery_bracket(TUNER_DISCOVERY_RULE_FEW_TASKS, 200, &lo, &hi);
	tuner_discovery_apply(TUNER_DISCOVERY_RULE_FEW_TASKS, lo, 200, k, &mask);
	assert_int_equal(mask & (L | W), 0);
	tuner_discovery_apply(TUNER_DISCOVERY_RULE_FEW_TASKS, hi, 200, k, &mask);
	assert_int_equal(mask, 0);
	tuner_discovery_apply(TUNER_DISCOVERY_RULE_FEW_TASKS, lo - 1.0, 200, k, &mask);
	assert_int_equal(mask & L, L);
	tuner_discovery_apply(TUNER_DISCOVERY_RULE_FEW_TASKS, hi + 1.0, 200, k, &mask);
	assert_int_equal(mask, W);
}

static void test_check(void **state)
{
	(void)state;
	GError *error = NULL;
	assert_true(tuner_discovery_check(1, 200, &error));
	assert_true(tuner_discovery_check(2, 1, &error));
	assert_null(error);

	assert_false(tuner_discovery_check(3, 200, &error));
	assert_true(g_error_matches(error, TUNER_DISCOVERY_ERROR, TUNER_DISCOVERY_ERROR_RULE));
	assert_non_null(strstr(error->message, "rule 3"));
	g_clear_error(&error);

	assert_false(tuner_discovery_check(1, 0, &error));
	assert_true(g_error_matches(error, TUNER_DISCOVERY_ERROR, TUNER_DISCOVERY_ERROR_NTASKS));
	assert_non_null(strstr(error->message, "ntasks 0"));
	g_clear_error(&error);

	/* a NULL mask is allowed */
	double k[KNOB_CFS_COUNT];
	tuner_discovery_apply(1, 1e9, 200, k, NULL);
	assert_true(k[KNOB_MIN_GRANULARITY] == 5000000.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule1_n200),
		cmocka_unit_test(test_rule2_n200),
		cmocka_unit_test(test_rules_n40),
		cmocka_unit_test(test_rule1_latency_out_of_range),
		cmocka_unit_test(test_brackets),
		cmocka_unit_test(test_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
