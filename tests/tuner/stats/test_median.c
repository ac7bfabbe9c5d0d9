/*
 * test_median.c -- the median of a sample, by hand: the middle of an odd count, the mean of the
 * two middle values of an even one, NaN for none, and the sample sorted in place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "tuner/stats/median.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
