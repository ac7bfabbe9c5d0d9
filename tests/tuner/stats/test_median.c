/*
 * test_median.c -- the median of a sample, by hand: the middle of an odd count, the mean of the
 * two middle values of an even one, NaN for none, and the sample sorted in place; the rank of
 * its interval of order statistics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "tuner/stats/median.h"

#include "tests/support/assert_close.h"

static void test_median(void **state)
{
	(void)state;
	double odd[] = { 9, 1, 5 }, even[] = { 4, 10, 1, 2 }, one[] = { 7 };

	assert_true(stats_median(odd, 3) == 5);
	assert_true(odd[0] == 1 && odd[1] == 5 && odd[2] == 9);
	assert_true(stats_median(even, 4) == 3); /* (2 + 4) / 2 */
	assert_true(stats_median(one, 1) == 7);
	assert_true(isnan(stats_median(NULL, 0)));
}

/* The interval's rank and coverage, from the binomial distribution by hand. */
static void test_median_rank(void **state)
{
	double c;

	(void)state;
	assert_int_equal(stats_median_rank(5, &c), 0); /* P(B = 0) = 1/32 > 2.5 % */
	assert_true(isnan(c));
	assert_int_equal(stats_median_rank(6, &c), 1);
	assert_close(c, 1 - 2.0 / 64, 1e-12);
	assert_int_equal(stats_median_rank(10, &c), 2); /* P(B <= 1) = 11/1024 */
	assert_close(c, 1 - 2 * 11.0 / 1024, 1e-12);
	assert_int_equal(stats_median_rank(12, &c), 3); /* P(B <= 2) = 79/4096 */
	assert_close(c, 1 - 2 * 79.0 / 4096, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_median_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
