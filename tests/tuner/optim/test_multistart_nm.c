/*
 * tests/tuner/optim/test_multistart_nm.c - Nelder-Mead from seeded starts over a box
 * (tuner/optim/multistart_nm.h): a bowl and Rosenbrock's valley found, a minimum outside the box
 * held at its edge, a second basin found only by the extra starts, failed evaluations survived,
 * the same seed giving the same calls, and bad parameters refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "tests/support/assert_close.h"
#include "tuner/optim/multistart_nm.h"

typedef struct {
	unsigned int calls;
	double sum_x; /* of every point asked, to compare call sequences */
} Count;

static double bowl(const double *x, void *ctx)
{
	Count *c = ctx;

	c->calls++;
	c->sum_x += x[0] + x[1];
	return (x[0] - 1) * (x[0] - 1) + 3 * (x[1] + 2) * (x[1] + 2) + 7;
}

static double rosenbrock(const double *x, void *ctx)
{
	(void)ctx;
	return 100 * pow(x[1] - x[0] * x[0], 2) + pow(1 - x[0], 2);
}

/* Two basins: a local minimum 0 at -2, the global -1 at 3. */
static double two_basins(const double *x, void *ctx)
{
	Count *c = ctx;

	c->calls++;
	c->sum_x += x[0];
	return fmin((x[0] + 2) * (x[0] + 2), (x[0] - 3) * (x[0] - 3) - 1);
}

/* Far from 10, inside [0, 5]: the best is at the edge, 5. Fails (inf) above 4.5 for another
 * test. */
static double beyond(const double *x, void *ctx)
{
	bool *fail_high = ctx;

	if (*fail_high && x[0] > 4.5)
		return INFINITY;
	return (x[0] - 10) * (x[0] - 10);
}

static void run(multistart_nm *s)
{
	unsigned int guard = 0;

	while (multistart_nm_iterate(s) == GSL_CONTINUE)
		assert_true(++guard < 100000);
}

static void test_bowl(void **state)
{
	const double lo[] = { -5, -5 }, hi[] = { 5, 5 }, x0[] = { 4, 4 };
	multistart_nm_params p = { 2, lo, hi, x0, 1, 500, 0.1, 1e-6, 1 };
	multistart_nm *s = multistart_nm_alloc(2);
	Count c = { 0, 0 };
	unsigned int n;

	(void)state;
	assert_int_equal(multistart_nm_set(s, &p, bowl, &c), GSL_SUCCESS);
	run(s);
	assert_close(multistart_nm_x(s)[0], 1, 1e-4);
	assert_close(multistart_nm_x(s)[1], -2, 1e-4);
	assert_close(multistart_nm_minimum(s), 7, 1e-8);
	assert_int_equal(multistart_nm_evals(s), c.calls);

	const multistart_nm_run *r = multistart_nm_runs(s, &n);

	assert_int_equal(n, 1);
	assert_true(r[0].converged);
	assert_true(r[0].iters < 500);
	assert_close(r[0].f, 7, 1e-8);
	multistart_nm_free(s);
}

static void test_rosenbrock(void **state)
{
	const double lo[] = { -2, -2 }, hi[] = { 2, 2 }, x0[] = { -1.2, 1 };
	multistart_nm_params p = { 2, lo, hi, x0, 1, 5000, 0.05, 1e-9, 1 };
	multistart_nm *s = multistart_nm_alloc(2);

	(void)state;
	assert_int_equal(multistart_nm_set(s, &p, rosenbrock, NULL), GSL_SUCCESS);
	run(s);
	assert_close(multistart_nm_x(s)[0], 1, 1e-3);
	assert_close(multistart_nm_x(s)[1], 1, 2e-3);
	multistart_nm_free(s);
}

/* One start from -2 stays in its basin; five seeded starts find 3. The same seed asks the same
 * points; another seed other points. */
static void test_starts(void **state)
{
	const double lo[] = { -6 }, hi[] = { 6 }, x0[] = { -2.5 };
	multistart_nm_params p = { 1, lo, hi, x0, 1, 300, 0.05, 1e-7, 42 };
	multistart_nm *s = multistart_nm_alloc(1);
	Count a = { 0, 0 }, b = { 0, 0 }, c = { 0, 0 };
	unsigned int n;

	(void)state;
	multistart_nm_set(s, &p, two_basins, &a);
	run(s);
	assert_close(multistart_nm_x(s)[0], -2, 1e-3);
	assert_close(multistart_nm_minimum(s), 0, 1e-6);

	p.starts = 5;
	a = (Count){ 0, 0 };
	multistart_nm_set(s, &p, two_basins, &a);
	run(s);
	assert_close(multistart_nm_x(s)[0], 3, 1e-3);
	assert_close(multistart_nm_minimum(s), -1, 1e-6);
	const multistart_nm_run *r = multistart_nm_runs(s, &n);

	assert_int_equal(n, 5);
	assert_close(r[0].x[0], -2, 1e-3); /* the first start is x0's */

	multistart_nm_set(s, &p, two_basins, &b);
	run(s);
	assert_int_equal(a.calls, b.calls);
	assert_true(a.sum_x == b.sum_x);
	p.seed = 43;
	multistart_nm_set(s, &p, two_basins, &c);
	run(s);
	assert_false(a.sum_x == c.sum_x);
	multistart_nm_free(s);
}

/* The minimum beyond the box: the best point is the edge; with failures above 4.5 the best is
 * the highest point that did not fail, and nothing aborts. */
static void test_box_and_failures(void **state)
{
	const double lo[] = { 0 }, hi[] = { 5 };
	multistart_nm_params p = { 1, lo, hi, NULL, 2, 200, 0.2, 1e-8, 3 };
	multistart_nm *s = multistart_nm_alloc(1);
	bool fail_high = false;

	(void)state;
	multistart_nm_set(s, &p, beyond, &fail_high);
	run(s);
	assert_close(multistart_nm_x(s)[0], 5, 1e-6);
	assert_close(multistart_nm_minimum(s), 25, 1e-5);

	fail_high = true;
	multistart_nm_set(s, &p, beyond, &fail_high);
	run(s);
	assert_true(multistart_nm_x(s)[0] <= 4.5);
	assert_close(multistart_nm_x(s)[0], 4.5, 1e-3);
	multistart_nm_free(s);
}

static void test_bad_params(void **state)
{
	const double lo[] = { 0, 0 }, hi[] = { 1, 0 };
	multistart_nm_params p = { 2, lo, hi, NULL, 1, 10, 0.1, 1e-3, 1 };
	multistart_nm *s = multistart_nm_alloc(2);

	(void)state;
	assert_int_equal(multistart_nm_set(s, &p, rosenbrock, NULL), GSL_EINVAL); /* hi = lo */
	p.hi = (const double[]){ 1, 1 };
	p.starts = 0;
	assert_int_equal(multistart_nm_set(s, &p, rosenbrock, NULL), GSL_EINVAL);
	p.starts = 1;
	p.tol = 0;
	assert_int_equal(multistart_nm_set(s, &p, rosenbrock, NULL), GSL_EINVAL);
	p.tol = 1e-3;
	p.dim = 3;
	assert_int_equal(multistart_nm_set(s, &p, rosenbrock, NULL), GSL_EINVAL);
	assert_null(multistart_nm_alloc(0));
	multistart_nm_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bowl),	   cmocka_unit_test(test_rosenbrock),
		cmocka_unit_test(test_starts),	   cmocka_unit_test(test_box_and_failures),
		cmocka_unit_test(test_bad_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
