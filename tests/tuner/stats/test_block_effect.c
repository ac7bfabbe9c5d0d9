/*
 * tests/tuner/stats/test_block_effect.c - the blocks' effect on log responses
 * (tuner/stats/block_effect.h), by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "tests/support/assert_close.h"
#include "tuner/stats/block_effect.h"

/*
 * Two points in two blocks, logs z = (0, 1) in block 0 and (1, 3) in block 1. Grand mean 5/4;
 * point means 1/2 and 2; block means 1/2 and 2. ss_blocks = 2 ((1/2 - 5/4)² + (2 - 5/4)²) = 9/4
 * on 1 df; the residuals are ±1/4, ss_error = 1/4 on 1 df. F = 9 on 1 and 1 df, whose tail is
 * 1 - (2/π) atan(sqrt 9). sd_error = 1/2, sd_blocks = sqrt((9/4 - 1/4) / 2) = 1; the factors
 * exp(∓3/4).
 */
static void test_two_by_two(void **state)
{
	(void)state;
	const double y[] = { exp(0), exp(1), exp(1), exp(3) };
	BlockEffect b;

	assert_true(block_effect_log(y, 2, 2, &b));
	assert_close(b.ss_blocks, 9.0 / 4.0, 1e-12);
	assert_close(b.ss_error, 1.0 / 4.0, 1e-12);
	assert_close(b.df_blocks, 1, 0);
	assert_close(b.df_error, 1, 0);
	assert_close(b.f, 9, 1e-12);
	assert_close(b.p, 1 - 2 / M_PI * atan(3), 1e-9);
	assert_close(b.sd_error, 0.5, 1e-12);
	assert_close(b.sd_blocks, 1, 1e-12);
	assert_close(b.factor[0], exp(-0.75), 1e-12);
	assert_close(b.factor[1], exp(0.75), 1e-12);
	block_effect_clear(&b);
	assert_null(b.factor);
}

/* A block that multiplies every response by the same factor: all of it is block effect, no error
 * is left, so there is no F; one block has no block effect to estimate. Bad input is refused. */
static void test_exact_and_degenerate(void **state)
{
	(void)state;
	const double y[] = { 1, 2, 4, 3, 6, 12 };
	BlockEffect b;

	assert_true(block_effect_log(y, 3, 2, &b));
	assert_true(b.ss_error == 0);
	assert_close(b.factor[1] / b.factor[0], 3, 1e-12);
	assert_true(isnan(b.f) && isnan(b.p));
	block_effect_clear(&b);

	assert_true(block_effect_log(y, 6, 1, &b));
	assert_true(isnan(b.f) && isnan(b.sd_blocks) && isnan(b.sd_error));
	block_effect_clear(&b);

	const double bad[] = { 1, 0, 2, 3 };
	assert_false(block_effect_log(bad, 2, 2, &b));
	assert_false(block_effect_log(y, 0, 2, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_by_two),
		cmocka_unit_test(test_exact_and_degenerate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
