/*
 * tests/tuner/knobs/test_knob_space.c - the tuner's search spaces: the three knobs (tuner/knobs/knob_space.h)
 * and SchedPeriod through a discovery rule (tuner/knobs/period_space.h), both mapped from the unit cube.
 *
 * Expected values are worked out by hand in the comments: geometric means on a log scale,
 * arithmetic ones on a linear scale, the SPEC's discovery rules for N = 200 tasks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/knobs/discovery.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/knobs/period_space.h"

/* ---- knob space ---------------------------------------------------------------------------- */

static Knobs to_knobs(const struct knob_space *s, double u0, double u1, double u2)
{
	const double u[3] = { u0, u1, u2 };
	Knobs k = { 0 };

	knob_space_to_knobs(s, u, &k);
	return k;
}

static void test_default_space(void **state)
{
	struct knob_space s;

	(void)state;
	knob_space_init(&s, true);
	assert_int_equal(s.dim, 3);
	assert_int_equal(s.free[0], KNOB_LATENCY);
	assert_int_equal(s.free[1], KNOB_MIN_GRANULARITY);
	assert_int_equal(s.free[2], KNOB_WAKEUP_GRANULARITY);
	/* SPEC.md §5: latency and min_granularity [100 000, 1e9] ns, wakeup [0, 1e9] ns. */
	assert_true(s.k[KNOB_LATENCY].lo == 100000 && s.k[KNOB_LATENCY].hi == 1e9);
	assert_true(s.k[KNOB_MIN_GRANULARITY].lo == 100000 && s.k[KNOB_MIN_GRANULARITY].hi == 1e9);
	assert_true(s.k[KNOB_WAKEUP_GRANULARITY].lo == 0 && s.k[KNOB_WAKEUP_GRANULARITY].hi == 1e9);
	for (int k = 0; k < KNOB_COUNT; k++)
		assert_true(s.k[k].log && !s.k[k].fixed);
}

static void test_log_scale_by_hand(void **state)
{
	struct knob_space s;

	(void)state;
	knob_space_init(&s, true);

	/* Corners: the ends of the ranges, exactly. */
	Knobs lo = to_knobs(&s, 0, 0, 0), hi = to_knobs(&s, 1, 1, 1);

	assert_int_equal(lo.latency_ns, 100000);
	assert_int_equal(lo.min_granularity_ns, 100000);
	assert_int_equal(lo.wakeup_granularity_ns, 0);
	assert_int_equal(hi.latency_ns, 1000000000);
	assert_int_equal(hi.min_granularity_ns, 1000000000);
	assert_int_equal(hi.wakeup_granularity_ns, 1000000000);

	/*
	 * Middle: the geometric mean, sqrt(1e5 x 1e9) = 1e7.  Wakeup's range starts at 0, so it is
	 * mapped through v + 1 us: sqrt(1e3 x (1e9 + 1e3)) - 1e3 = 1e6 sqrt(1 + 1e-6) - 1e3
	 * = 1e6 (1 + 5e-7 - 1.25e-13) - 1e3 = 999 000.4999999 -> 999 000.
	 */
	Knobs mid = to_knobs(&s, 0.5, 0.5, 0.5);

	assert_int_equal(mid.latency_ns, 10000000);
	assert_int_equal(mid.min_granularity_ns, 10000000);
	assert_int_equal(mid.wakeup_granularity_ns, 999000);

	/* A quarter of four decades is one decade: 1e6. */
	Knobs q = to_knobs(&s, 0.25, 0.75, 0);

	assert_int_equal(q.latency_ns, 1000000);
	assert_int_equal(q.min_granularity_ns, 100000000);
}

static void test_linear_scale_by_hand(void **state)
{
	struct knob_space s;

	(void)state;
	knob_space_init(&s, false);
	/* 1e5 + 0.25 x (1e9 - 1e5) = 250 075 000; 0.5 x 1e9 = 5e8. */
	Knobs k = to_knobs(&s, 0.25, 0.5, 0.5);

	assert_int_equal(k.latency_ns, 250075000);
	assert_int_equal(k.min_granularity_ns, 500050000);
	assert_int_equal(k.wakeup_granularity_ns, 500000000);
}

static void test_outside_unit_cube_clamps(void **state)
{
	struct knob_space s;

	(void)state;
	knob_space_init(&s, true);
	Knobs k = to_knobs(&s, -0.5, 1.5, -1);

	assert_int_equal(k.latency_ns, 100000);
	assert_int_equal(k.min_granularity_ns, 1000000000);
	assert_int_equal(k.wakeup_granularity_ns, 0);

	double u[3];
	Knobs big = KNOBS_CFS(5000000000ULL, 1, 5000000000ULL);

	knob_space_from_knobs(&s, &big, u);
	assert_true(u[0] == 1 && u[1] == 0 && u[2] == 1);
}

/* knobs -> unit -> knobs gives the same whole nanoseconds, on both scales. */
static void test_round_trip(void **state)
{
	(void)state;
	for (int log = 0; log <= 1; log++) {
		struct knob_space s;

		knob_space_init(&s, log);
		for (int i = 0; i <= 20; i++) {
			double u0 = i / 20.0, u1 = fmod(i * 0.37, 1), u2 = fmod(i * 0.61, 1), u[3];
			Knobs k = to_knobs(&s, u0, u1, u2), back = { 0 };

			knob_space_from_knobs(&s, &k, u);
			assert_true(fabs(u[0] - u0) < 1e-6);
			knob_space_to_knobs(&s, u, &back);
			assert_memory_equal(&k, &back, sizeof(k));
		}
	}
}

static void test_fix_removes_a_dimension(void **state)
{
	struct knob_space s;
	GError *error = NULL;

	(void)state;
	knob_space_init(&s, true);
	assert_true(knob_space_parse_fix(&s, "min_granularity_ns=3000000", &error));
	assert_int_equal(s.dim, 2);
	assert_int_equal(s.free[0], KNOB_LATENCY);
	assert_int_equal(s.free[1], KNOB_WAKEUP_GRANULARITY);

	const double u[2] = { 0, 1 };
	Knobs k = { 0 };

	knob_space_to_knobs(&s, u, &k);
	assert_int_equal(k.latency_ns, 100000);
	assert_int_equal(k.min_granularity_ns, 3000000);
	assert_int_equal(k.wakeup_granularity_ns, 1000000000);

	/* As the tune loop's map: every knob set, free or fixed. */
	Knobs m = KNOBS_CFS(1, 1, 1);

	knob_space_map(u, &m, &s);
	assert_memory_equal(&m, &k, sizeof(k));

	/* A later --range frees it again. */
	assert_true(knob_space_parse_range(&s, "min_granularity=1000000:2000000", &error));
	assert_int_equal(s.dim, 3);
	g_assert_no_error(error);
}

static void test_range_and_scale(void **state)
{
	struct knob_space s;
	GError *error = NULL;

	(void)state;
	knob_space_init(&s, true);
	assert_true(knob_space_parse_range(&s, "latency=1000000:4000000", &error));
	assert_true(knob_space_parse_scale(&s, "latency", false, &error));
	g_assert_no_error(error);
	/* Linear: 1e6 + 0.5 x 3e6 = 2.5e6.  Still log for min_granularity: 1e7. */
	Knobs k = to_knobs(&s, 0.5, 0.5, 0);

	assert_int_equal(k.latency_ns, 2500000);
	assert_int_equal(k.min_granularity_ns, 10000000);

	char *text = knob_space_describe(&s);

	assert_string_equal(text,
			    "latency=1000000:4000000:linear min_granularity=100000:1000000000:log "
			    "wakeup_granularity=0:1000000000:log");
	g_free(text);
}

static void expect_error(bool ok, GError **error, const char *flag, const char *fragment)
{
	assert_false(ok);
	assert_non_null(*error);
	if (!g_str_has_prefix((*error)->message, flag) || !strstr((*error)->message, fragment))
		fail_msg("error '%s' should start with %s and mention '%s'", (*error)->message,
			 flag, fragment);
	g_clear_error(error);
}

static void test_bad_ranges_and_fixes(void **state)
{
	struct knob_space s;
	GError *error = NULL;

	(void)state;
	knob_space_init(&s, true);
	expect_error(knob_space_parse_range(&s, "latency=1:5", &error), &error, "--range",
		     "sysctl range");
	expect_error(knob_space_parse_range(&s, "latency=100000:2000000000", &error), &error,
		     "--range", "sysctl range");
	expect_error(knob_space_parse_range(&s, "latency=5000000:100000", &error), &error,
		     "--range", "lo < hi");
	expect_error(knob_space_parse_range(&s, "latency=5000000:5000000", &error), &error,
		     "--range", "lo < hi");
	expect_error(knob_space_parse_range(&s, "latency=5000000", &error), &error, "--range",
		     "lo:hi");
	expect_error(knob_space_parse_range(&s, "latency=a:b", &error), &error, "--range",
		     "not a number");
	expect_error(knob_space_parse_range(&s, "period=1:2", &error), &error, "--range",
		     "knob one of");
	expect_error(knob_space_parse_range(&s, "latencyx=1:2", &error), &error, "--range",
		     "knob one of");
	expect_error(knob_space_parse_fix(&s, "wakeup_granularity=2000000000", &error), &error,
		     "--fix", "sysctl range");
	expect_error(knob_space_parse_fix(&s, "min_granularity", &error), &error, "--fix", "knob=");
	expect_error(knob_space_parse_scale(&s, "nice", true, &error), &error, "--log", "nice");
	/* Nothing changed. */
	assert_int_equal(s.dim, 3);
	assert_true(s.k[KNOB_LATENCY].lo == 100000 && s.k[KNOB_LATENCY].hi == 1e9);
}

static void test_knob_names(void **state)
{
	enum knob k;

	(void)state;
	assert_true(knob_from_name("wakeup_granularity_ns", &k) && k == KNOB_WAKEUP_GRANULARITY);
	assert_true(knob_from_name("latency", &k) && k == KNOB_LATENCY);
	assert_false(knob_from_name("latency_us", &k));
	assert_false(knob_from_name("", &k));
	assert_string_equal(knob_name(KNOB_MIN_GRANULARITY), "min_granularity");
}

/* ---- SchedPeriod space --------------------------------------------------------------------- */

static void test_period_natural_brackets(void **state)
{
	struct period_space s;
	GError *error = NULL;

	(void)state;
	/* Rule 1, N = 200: [N x 100 us, N x 1 s + 1 s] = [2e7, 2.01e11]. */
	assert_true(period_space_init(&s, 1, 200, &error));
	assert_true(s.lo_ns == 2e7 && s.hi_ns == 2.01e11 && s.log);
	/* The ends exactly, whatever log and exp round to. */
	assert_true(period_space_period(&s, 0) == 2e7);
	assert_true(period_space_period(&s, 1) == 2.01e11);
	/* The middle of a log bracket is the geometric mean, sqrt(2e7 x 2.01e11) = sqrt(4.02e18). */
	assert_true(fabs(period_space_period(&s, 0.5) / sqrt(4.02e18) - 1) < 1e-12);
	assert_true(fabs(period_space_unit(&s, sqrt(4.02e18)) - 0.5) < 1e-12);

	/* Rule 2: [100 us, 1 s + 1 s]. */
	assert_true(period_space_init(&s, 2, 200, &error));
	assert_true(s.lo_ns == 1e5 && s.hi_ns == 2e9);
	s.log = false;
	assert_true(period_space_period(&s, 0.5) == (1e5 + 2e9) / 2);
	g_assert_no_error(error);
}

static void check_period(const struct period_space *s, double period, guint64 lat, guint64 min,
			 guint64 wake, unsigned int clamped)
{
	Knobs k;
	unsigned int mask = 0xdead;

	period_space_to_knobs(s, period_space_unit(s, period), &k, &mask);
	if (k.latency_ns != lat || k.min_granularity_ns != min || k.wakeup_granularity_ns != wake ||
	    mask != clamped)
		fail_msg("rule %d, P %.17g: got %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
			 " %" G_GUINT64_FORMAT " clamped %#x; want %" G_GUINT64_FORMAT
			 " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %#x",
			 s->rule, period, k.latency_ns, k.min_granularity_ns,
			 k.wakeup_granularity_ns, mask, lat, min, wake, clamped);
}

/* Through the unit coordinate and back: the SPEC's rules, rounded to whole ns. */
static void test_period_to_knobs(void **state)
{
	struct period_space s;

	(void)state;
	assert_true(period_space_init(&s, 1, 200, NULL));
	/* Rule 1: latency (N - 1) x 100 us = 19.9 ms, min_granularity P / 200, no wakeup below N x 1 s. */
	check_period(&s, 2e7, 19900000, 100000, 0, 0); /* the lower end: exactly 100 us */
	check_period(&s, 1e9, 19900000, 5000000, 0, 0);
	check_period(&s, 2.005e11, 19900000, 1000000000, 500000000,
		     0); /* 2e11 + 5e8: the excess wakes */
	check_period(&s, 2.01e11, 19900000, 1000000000, 1000000000, 0);

	assert_true(period_space_init(&s, 2, 200, NULL));
	/* Rule 2: latency = P; P < N x 100 us = 2e7 -> min_granularity P / N, under 100 us: clamped. */
	check_period(&s, 5e6, 5000000, 100000, 0, TUNER_DISCOVERY_CLAMPED_MIN_GRANULARITY);
	check_period(&s, 5e8, 500000000, 100000, 0, 0);
	check_period(&s, 1.5e9, 1000000000, 100000, 500000000, 0); /* above 1 s the excess wakes */
}

static void test_period_bracket_flag(void **state)
{
	struct period_space s;
	GError *error = NULL;

	(void)state;
	assert_true(period_space_init(&s, 1, 200, NULL));
	assert_true(period_space_parse_bracket(&s, "1e6:3e9", &error));
	assert_true(s.lo_ns == 1e6 && s.hi_ns == 3e9);
	expect_error(period_space_parse_bracket(&s, "5:1", &error), &error, "--bracket",
		     "0 < LO < HI");
	expect_error(period_space_parse_bracket(&s, "0:1", &error), &error, "--bracket",
		     "0 < LO < HI");
	expect_error(period_space_parse_bracket(&s, "1:1e16", &error), &error, "--bracket",
		     "0 < LO < HI");
	expect_error(period_space_parse_bracket(&s, "1e6", &error), &error, "--bracket", "LO:HI");
	expect_error(period_space_parse_bracket(&s, "1:2:3", &error), &error, "--bracket",
		     "numbers");
	assert_true(s.lo_ns == 1e6 && s.hi_ns == 3e9);
	expect_error(period_space_init(&s, 3, 200, &error), &error, "--rule", "rule 3");
	expect_error(period_space_init(&s, 1, 0, &error), &error, "--rule", "no tasks");
}

static void test_period_describe_and_names(void **state)
{
	struct period_space s;

	(void)state;
	assert_true(period_space_init(&s, 2, 40, NULL));
	char *text = period_space_describe(&s);

	assert_string_equal(text, "sched_period=100000:2000000000:log rule=2 ntasks=40");
	g_free(text);
	text = period_space_clamped_names(
		TUNER_DISCOVERY_CLAMPED_LATENCY | TUNER_DISCOVERY_CLAMPED_WAKEUP_GRANULARITY, ", ");
	assert_string_equal(text, "latency, wakeup_granularity");
	g_free(text);
	text = period_space_clamped_names(0, ", ");
	assert_string_equal(text, "");
	g_free(text);
}

/* A set of EEVDF's knobs: two dimensions in enum order, the others absent (0 in the map, not in
 * the description, refused by --range and --log); --fix adds a knob to the set. */
static void test_knob_set_space(void **state)
{
	(void)state;
	struct knob_space s;
	GError *error = NULL;

	knob_space_init_set(&s, KNOB_BIT(KNOB_BASE_SLICE) | KNOB_BIT(KNOB_MIGRATION_COST), false);
	assert_int_equal(s.dim, 2);
	assert_int_equal(s.free[0], KNOB_MIGRATION_COST);
	assert_int_equal(s.free[1], KNOB_BASE_SLICE);

	g_autofree char *text = knob_space_describe(&s);
	assert_string_equal(text,
			    "migration_cost=0:1000000000:linear base_slice=0:4294967295:linear");

	Knobs k = KNOBS_CFS(7, 7, 7);
	const double half[2] = { 0.5, 0.25 };
	knob_space_to_knobs(&s, half, &k);
	assert_int_equal(k.migration_cost_ns, 500000000);
	assert_int_equal(k.base_slice_ns, 1073741824); /* 4294967295 / 4, rounded */
	assert_int_equal(k.latency_ns, 0);

	assert_false(knob_space_parse_range(&s, "latency=1000000:2000000", &error));
	assert_non_null(strstr(error->message, "latency is not searched"));
	g_clear_error(&error);
	assert_false(knob_space_parse_scale(&s, "wakeup_granularity", true, &error));
	g_clear_error(&error);
	assert_true(knob_space_parse_range(&s, "base_slice=1000000:9000000", &error));
	assert_true(knob_space_parse_fix(&s, "latency=6000000", &error));
	assert_int_equal(s.dim, 2);
	knob_space_to_knobs(&s, half, &k);
	assert_int_equal(k.latency_ns, 6000000);
	assert_int_equal(k.base_slice_ns, 3000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob_set_space),
		cmocka_unit_test(test_default_space),
		cmocka_unit_test(test_log_scale_by_hand),
		cmocka_unit_test(test_linear_scale_by_hand),
		cmocka_unit_test(test_outside_unit_cube_clamps),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_fix_removes_a_dimension),
		cmocka_unit_test(test_range_and_scale),
		cmocka_unit_test(test_bad_ranges_and_fixes),
		cmocka_unit_test(test_knob_names),
		cmocka_unit_test(test_period_natural_brackets),
		cmocka_unit_test(test_period_to_knobs),
		cmocka_unit_test(test_period_bracket_flag),
		cmocka_unit_test(test_period_describe_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
