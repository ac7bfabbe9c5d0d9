/*
 * tests/tuner/optim/test_golden_ends.c - Golden Section that checks its bracket's ends
 * (tuner/optim/golden_ends.h), against textbook Golden Section (tuner_optimizer_golden).
 *
 * Evaluation counts are worked out independently: with r = (sqrt 5 - 1) / 2, the textbook search
 * narrows [0, 1] until its width r^k is below the tolerance and makes k + 1 evaluations; the ends
 * batch adds two.  k is counted here by repeated multiplication, not by the logarithm formula the
 * tuner uses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/optim/golden_ends.h"

typedef double (*fn1)(double u);

static const double golden_r = 0.6180339887498948482;

/* Narrowings until the bracket [0, 1] is narrower than tol. */
static size_t narrowings(double tol)
{
	double width = 1;
	size_t k = 0;

	while (width >= tol) {
		width *= golden_r;
		k++;
	}
	return k;
}

/* Runs T on f to the end, asking at most cap points at a time. */
static tuner_optimizer *run(const tuner_optimizer_type *T, fn1 f, double tol, size_t budget,
			    size_t max_it, size_t cap)
{
	tuner_optimizer *s = tuner_optimizer_alloc(T, 1);
	tuner_optimizer_params p;
	double x[4], y[4];
	size_t n;

	tuner_optimizer_params_default(&p);
	p.golden.tolerance = tol;
	p.budget = budget;
	p.golden.max_iterations = max_it;
	assert_int_equal(tuner_optimizer_set(s, &p), GSL_SUCCESS);
	while ((n = tuner_optimizer_ask(s, x, cap)) > 0) {
		for (size_t i = 0; i < n; i++)
			y[i] = f(x[i]);
		assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
	}
	assert_true(tuner_optimizer_finished(s));
	return s;
}

static double increasing(double u)
{
	return u;
}

static double decreasing(double u)
{
	return 1 - u;
}

static double bowl(double u)
{
	return (u - 0.3) * (u - 0.3);
}

/* The shape the tuner meets along SchedPeriod: lowest at the left end, a hump, a lower plateau. */
static double hump_plateau(double u)
{
	if (u < 0.1)
		return 1 + 20 * u;
	return u < 0.45 ? 3 : 2;
}

static void test_minimum_at_left_end(void **state)
{
	(void)state;
	tuner_optimizer *ends = run(tuner_optimizer_golden_ends, increasing, 0.02, 0, 100, 4);
	tuner_optimizer *plain = run(tuner_optimizer_golden, increasing, 0.02, 0, 100, 4);
	size_t k = narrowings(0.02);

	assert_int_equal(k, 9); /* r^8 = 0.0213, r^9 = 0.0132 */
	assert_int_equal(tuner_optimizer_evaluations(ends), k + 3);
	assert_int_equal(tuner_optimizer_evaluations(plain), k + 1);
	/* The end itself, found by the first evaluation; the textbook search only gets near it. */
	assert_true(tuner_optimizer_x(ends)[0] == 0 && tuner_optimizer_minimum(ends) == 0);
	assert_true(tuner_optimizer_history(ends, 0).x[0] == 0);
	assert_true(tuner_optimizer_minimum(plain) > 0 && tuner_optimizer_minimum(plain) < 0.02);
	tuner_optimizer_free(ends);
	tuner_optimizer_free(plain);
}

static void test_minimum_at_right_end(void **state)
{
	(void)state;
	tuner_optimizer *ends = run(tuner_optimizer_golden_ends, decreasing, 0.01, 0, 100, 4);

	assert_int_equal(tuner_optimizer_evaluations(ends), narrowings(0.01) + 3);
	assert_true(tuner_optimizer_x(ends)[0] == 1 && tuner_optimizer_minimum(ends) == 0);
	/* After the restart on [d, 1] every new point lies in it. */
	for (size_t i = 4; i < tuner_optimizer_evaluations(ends); i++)
		assert_true(tuner_optimizer_history(ends, i).x[0] >= golden_r - 1e-12);
	tuner_optimizer_free(ends);
}

/* An interior minimum: after the ends batch the search is exactly the textbook one. */
static void test_interior_minimum_is_textbook(void **state)
{
	(void)state;
	tuner_optimizer *ends = run(tuner_optimizer_golden_ends, bowl, 0.001, 0, 100, 4);
	tuner_optimizer *plain = run(tuner_optimizer_golden, bowl, 0.001, 0, 100, 4);
	size_t n = tuner_optimizer_evaluations(plain);

	assert_int_equal(n, narrowings(0.001) + 1);
	assert_int_equal(tuner_optimizer_evaluations(ends), n + 2);
	/* ends: 0, c, d, 1, then the textbook's third point on; textbook: c, d, third, ... */
	assert_true(tuner_optimizer_history(ends, 0).x[0] == 0 &&
		    tuner_optimizer_history(ends, 3).x[0] == 1);
	assert_true(tuner_optimizer_history(ends, 1).x[0] ==
		    tuner_optimizer_history(plain, 0).x[0]);
	assert_true(tuner_optimizer_history(ends, 2).x[0] ==
		    tuner_optimizer_history(plain, 1).x[0]);
	for (size_t i = 2; i < n; i++)
		assert_true(tuner_optimizer_history(ends, i + 2).x[0] ==
			    tuner_optimizer_history(plain, i).x[0]);
	assert_true(fabs(tuner_optimizer_x(ends)[0] - 0.3) < 0.001);
	assert_true(tuner_optimizer_x(ends)[0] == tuner_optimizer_x(plain)[0]);
	tuner_optimizer_free(ends);
	tuner_optimizer_free(plain);
}

static void test_two_valleys(void **state)
{
	(void)state;
	tuner_optimizer *ends = run(tuner_optimizer_golden_ends, hump_plateau, 0.02, 0, 100, 4);
	tuner_optimizer *plain = run(tuner_optimizer_golden, hump_plateau, 0.02, 0, 100, 4);

	/* Textbook: f(0.382) = 3 > f(0.618) = 2, so it narrows to the right and ends on the plateau. */
	assert_true(tuner_optimizer_minimum(plain) == 2);
	assert_true(tuner_optimizer_minimum(ends) == 1);
	assert_true(tuner_optimizer_x(ends)[0] == 0);
	assert_int_equal(tuner_optimizer_evaluations(ends), narrowings(0.02) + 3);
	tuner_optimizer_free(ends);
	tuner_optimizer_free(plain);
}

static void test_limits(void **state)
{
	(void)state;
	/* A budget of 3 cuts the ends batch: nothing is left to narrow with. */
	tuner_optimizer *s = run(tuner_optimizer_golden_ends, bowl, 0.02, 3, 100, 4);

	assert_int_equal(tuner_optimizer_evaluations(s), 3);
	tuner_optimizer_free(s);
	/* One iteration: only the ends batch. */
	s = run(tuner_optimizer_golden_ends, increasing, 0.02, 0, 1, 4);
	assert_int_equal(tuner_optimizer_evaluations(s), 4);
	assert_int_equal(tuner_optimizer_iterations(s), 1);
	tuner_optimizer_free(s);
	/* A tolerance wider than [0, c]: the end is the answer, no restart. */
	s = run(tuner_optimizer_golden_ends, increasing, 0.5, 0, 100, 4);
	assert_int_equal(tuner_optimizer_evaluations(s), 4);
	assert_true(tuner_optimizer_minimum(s) == 0);
	tuner_optimizer_free(s);
}

/* The result does not depend on how the caller splits the batches. */
static void test_batch_split(void **state)
{
	(void)state;
	tuner_optimizer *a = run(tuner_optimizer_golden_ends, hump_plateau, 0.01, 0, 100, 4);
	tuner_optimizer *b = run(tuner_optimizer_golden_ends, hump_plateau, 0.01, 0, 100, 1);

	assert_int_equal(tuner_optimizer_evaluations(a), tuner_optimizer_evaluations(b));
	for (size_t i = 0; i < tuner_optimizer_evaluations(a); i++)
		assert_true(tuner_optimizer_history(a, i).x[0] ==
			    tuner_optimizer_history(b, i).x[0]);
	tuner_optimizer_free(a);
	tuner_optimizer_free(b);
}

static void test_checks_as_golden(void **state)
{
	tuner_optimizer_params p;
	GError *error = NULL;

	(void)state;
	tuner_optimizer_params_default(&p);
	assert_false(tuner_optimizer_params_check(tuner_optimizer_golden_ends, 2, &p, &error));
	assert_non_null(strstr(error->message, "one dimension"));
	g_clear_error(&error);
	p.golden.tolerance = 2;
	assert_false(tuner_optimizer_params_check(tuner_optimizer_golden_ends, 1, &p, &error));
	assert_non_null(strstr(error->message, "tolerance"));
	g_clear_error(&error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimum_at_left_end),
		cmocka_unit_test(test_minimum_at_right_end),
		cmocka_unit_test(test_interior_minimum_is_textbook),
		cmocka_unit_test(test_two_valleys),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_batch_split),
		cmocka_unit_test(test_checks_as_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
