/*
 * test_match_time.c - the message-cost scale at which a simulation takes the real time
 * (tuner/calib/match_time.h), on simulations whose runtimes are lines in the scale, a + b * f,
 * so that the answer is known by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/assert_close.h"
#include "tuner/calib/match_time.h"

#define N 4

/* N group counts' simulated ms at scale f: a fixed part (switches, wakeups) and the messages'. */
typedef struct {
	double a[N], b[N];
	guint calls;
} Line;

static void line_sim(double factor, double *sim_ms, void *ctx)
{
	Line *l = ctx;

	for (guint i = 0; i < N; i++)
		sim_ms[i] = l->a[i] + l->b[i] * factor;
	l->calls++;
}

static void test_slope_by_hand(void **state)
{
	const double real[] = { 2, 4, 6 }, sim[] = { 1, 2, 3 };
	const double off[] = { 3, 3, 3 }, at[] = { 1, 2, 3 };

	(void)state;
	/* real = 2 sim exactly. */
	assert_close(match_time_slope(real, sim, 3), 2.0, 1e-12);
	/* sum(3 x) / sum(x^2) = 18 / 14. */
	assert_close(match_time_slope(off, at, 3), 18.0 / 14.0, 1e-12);
}

/*
 * Real runs that are the simulation at f = 1.45 exactly: s(1.45) = 1, the root. At f = 1 the
 * slope is sum r m(1) / sum m(1)^2, computed below from the same lines.
 */
static void test_finds_the_scale(void **state)
{
	Line l = { .a = { 10, 20, 30, 40 }, .b = { 50, 100, 150, 200 } };
	double real[N], at1[N];
	MatchTime m;
	g_autoptr(GError) error = NULL;

	(void)state;
	for (guint i = 0; i < N; i++) {
		real[i] = l.a[i] + l.b[i] * 1.45;
		at1[i] = l.a[i] + l.b[i];
	}
	assert_true(match_time(real, N, line_sim, &l, &m, &error));
	assert_close(m.factor, 1.45, 1.45 * MATCH_TIME_TOL);
	assert_close(m.slope, 1.0, 0.01);
	/* real = a + 1.45 b against a + b at f = 1: a slope between 1 (a alone) and 1.45 (b alone). */
	assert_close(m.slope_at_1, match_time_slope(real, at1, N), 1e-12);
	assert_true(m.slope_at_1 > 1.3 && m.slope_at_1 < 1.45);
	/* f = 1, both ends of the bracket, Brent's steps, and the answer once more. */
	assert_int_equal(m.evaluations, l.calls);
	assert_true(l.calls >= 5 && l.calls <= 45);
}

/* A simulation far too slow at every scale: no root, an error naming the flag and the ratios. */
static void test_out_of_reach(void **state)
{
	Line l = { .a = { 1000, 2000, 3000, 4000 }, .b = { 1, 2, 3, 4 } };
	const double real[N] = { 10, 20, 30, 40 };
	MatchTime m = { 0 };
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_false(match_time(real, N, line_sim, &l, &m, &error));
	assert_non_null(error);
	assert_non_null(
		strstr(error->message, "--match-time: no message-cost scale in [0.125, 8]"));
	assert_int_equal(m.evaluations, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slope_by_hand),
		cmocka_unit_test(test_finds_the_scale),
		cmocka_unit_test(test_out_of_reach),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
