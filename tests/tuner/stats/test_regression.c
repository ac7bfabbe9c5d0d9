/*
 * test_regression.c -- the regression against certified and hand-derived values.
 *
 * Expected numbers come from outside the code under test: the NIST StRD certified results for
 * the Norris data set, closed-form sums worked out by hand in the comments, the closed forms of
 * the Student t distribution for 1 and 2 degrees of freedom, and the hat-matrix identity for
 * leave-one-out residuals (e_(-i) = e_i / (1 - h_ii)), evaluated here from its own sums.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "tuner/stats/regression.h"

static void assert_close(double actual, double expected, double rel_tol)
{
	double scale = fmax(fabs(expected), 1e-300);
	if (fabs(actual - expected) / scale > rel_tol)
		fail_msg("got %.17g, expected %.17g (relative tolerance %g)", actual, expected,
			 rel_tol);
}

/*
 * NIST Statistical Reference Datasets, linear least squares, "Norris" (lower difficulty,
 * 36 observations of ozone calibration; y = customer's measurement, x = NIST's), in the order of
 * the NIST file. Certified values (NIST StRD, Norris.dat):
 *   B0 = -0.262323073774029   sd 0.232818234301152
 *   B1 =  1.00211681802045    sd 0.429796848199937E-03
 *   residual standard deviation 0.884796396144373, R-squared 0.999993745883712
 *   ANOVA: regression df 1, SS 4255954.13232369, F 5436385.54079785;
 *          residual df 34, SS 26.6173985294224, MS 0.782864662630069
 */
static const double norris_y[] = {
	0.1, 338.8, 118.1, 888.0, 9.2,	 228.1, 668.5, 998.5, 449.1, 778.9, 559.2, 0.3,
	0.1, 778.1, 668.8, 339.3, 448.9, 10.8,	557.7, 228.3, 998.0, 888.8, 119.6, 0.3,
	0.6, 557.6, 339.3, 888.0, 998.5, 778.9, 10.2,  117.6, 228.9, 668.4, 449.2, 0.2,
};
static const double norris_x[] = {
	0.2, 337.4, 118.2, 884.6, 10.1,	 226.5, 666.3, 996.3, 448.6, 777.0, 558.2, 0.4,
	0.6, 775.5, 666.9, 338.0, 447.5, 11.6,	556.0, 228.1, 995.8, 887.6, 120.2, 0.3,
	0.3, 556.8, 339.1, 887.2, 999.0, 779.0, 11.1,  118.3, 229.2, 669.1, 448.9, 0.5,
};
#define NORRIS_N G_N_ELEMENTS(norris_x)

/* LOO MAPE by the hat-matrix identity: for a line, h_ii = 1/n + (x_i - x̄)² / Sxx and the
 * leave-one-out residual is e_i / (1 - h_ii). Uses the fit's own residuals e_i (checked
 * separately) and sums computed here. */
static double loo_mape_closed_form(const double *x, const double *y, const double *residuals,
				   gsize n)
{
	double xbar = 0.0;
	for (gsize i = 0; i < n; i++)
		xbar += x[i];
	xbar /= (double)n;
	double sxx = 0.0;
	for (gsize i = 0; i < n; i++)
		sxx += (x[i] - xbar) * (x[i] - xbar);
	double sum = 0.0;
	for (gsize i = 0; i < n; i++) {
		double h = 1.0 / (double)n + (x[i] - xbar) * (x[i] - xbar) / sxx;
		sum += fabs(residuals[i] / (1.0 - h)) / fabs(y[i]);
	}
	return 100.0 * sum / (double)n;
}

static void test_norris_certified(void **state)
{
	(void)state;
	g_autoptr(GError) error = NULL;
	g_autoptr(Regression) r = regression_fit(norris_x, norris_y, NORRIS_N, &error);
	assert_null(error);
	assert_non_null(r);

	assert_int_equal(r->n, 36);
	assert_close(r->a, -0.262323073774029, 1e-11);
	assert_close(r->b, 1.00211681802045, 1e-12);
	assert_close(r->se_a, 0.232818234301152, 1e-10);
	assert_close(r->se_b, 0.429796848199937e-03, 1e-10);
	assert_close(r->rse, 0.884796396144373, 1e-10);
	assert_close(r->r2, 0.999993745883712, 1e-13);
	assert_close(r->sse, 26.6173985294224, 1e-10);
	assert_close(r->sst - r->sse, 4255954.13232369, 1e-12);
	assert_close(r->f, 5436385.54079785, 1e-9);

	/* Adjusted R² from the certified R², n = 36: 1 - (1 - R²) * 35 / 34. */
	assert_close(r->adj_r2, 1.0 - (1.0 - 0.999993745883712) * 35.0 / 34.0, 1e-12);
	/* t values from the certified estimates and standard deviations. */
	assert_close(r->t_a, -0.262323073774029 / 0.232818234301152, 1e-9);
	assert_close(r->t_b, 1.00211681802045 / 0.429796848199937e-03, 1e-9);

	/* Fitted values and residuals from the certified line, in input order. */
	for (gsize i = 0; i < NORRIS_N; i++) {
		double fitted = -0.262323073774029 + 1.00211681802045 * norris_x[i];
		assert_true(fabs(r->fitted[i] - fitted) < 1e-9);
		assert_true(fabs(r->residuals[i] - (norris_y[i] - fitted)) < 1e-9);
	}

	assert_close(r->loo_mape, loo_mape_closed_form(norris_x, norris_y, r->residuals, NORRIS_N),
		     1e-9);
	/* A slope t of ~2300 on 34 df: the p-value underflows to (nearly) zero. */
	assert_true(r->p_b < 1e-30);
	assert_true(r->f_p < 1e-30);
}

/*
 * x = 1 2 3 4, y = 2 3 5 8.  By hand: x̄ = 2.5, ȳ = 4.5, Sxx = 5, Sxy = 10, so b = 2, a = -0.5.
 * Fitted 1.5 3.5 5.5 7.5, residuals 0.5 -0.5 -0.5 0.5, SSE = 1, SST = 21, SSR = 20.
 * R² = 20/21, adjusted R² = 1 - (1/21)(3/2) = 13/14, rse = sqrt(1/2),
 * se_b = rse / sqrt(Sxx) = sqrt(1/10), se_a = rse sqrt(1/4 + 6.25/5) = sqrt(3/4),
 * t_b = 2 sqrt(10), t_a = -1/sqrt(3), F = 20 / (1/2) = 40 = t_b².
 * Student t with 2 df has the closed form P(|T| > t) = 1 - t / sqrt(2 + t²):
 *   p_b = 1 - sqrt(40/42) = 1 - sqrt(20/21), p_a = 1 - sqrt((1/3)/(7/3)) = 1 - sqrt(1/7);
 * F(1, 2) = T² with 2 df, so f_p = p_b.
 * Leave-one-out: h = 1/4 + (x - 2.5)²/5 = 0.7 0.3 0.3 0.7, e/(1-h) = 5/3 -5/7 -5/7 5/3,
 *   MAPE = 100/4 (5/6 + 5/21 + 1/7 + 5/24).
 */
static void test_hand_four_points(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4 };
	const double y[] = { 2, 3, 5, 8 };
	g_autoptr(GError) error = NULL;
	g_autoptr(Regression) r = regression_fit(x, y, 4, &error);
	assert_null(error);

	assert_close(r->a, -0.5, 1e-13);
	assert_close(r->b, 2.0, 1e-14);
	assert_close(r->sse, 1.0, 1e-13);
	assert_close(r->sst, 21.0, 1e-14);
	assert_close(r->r2, 20.0 / 21.0, 1e-14);
	assert_close(r->adj_r2, 13.0 / 14.0, 1e-14);
	assert_close(r->rse, sqrt(0.5), 1e-13);
	assert_close(r->se_b, sqrt(0.1), 1e-13);
	assert_close(r->se_a, sqrt(0.75), 1e-13);
	assert_close(r->t_b, 2.0 * sqrt(10.0), 1e-13);
	assert_close(r->t_a, -1.0 / sqrt(3.0), 1e-13);
	assert_close(r->p_b, 1.0 - sqrt(20.0 / 21.0), 1e-9);
	assert_close(r->p_a, 1.0 - sqrt(1.0 / 7.0), 1e-12);
	assert_close(r->f, 40.0, 1e-12);
	assert_close(r->f_p, 1.0 - sqrt(20.0 / 21.0), 1e-9);

	const double residuals[] = { 0.5, -0.5, -0.5, 0.5 };
	for (int i = 0; i < 4; i++) {
		assert_close(r->residuals[i], residuals[i], 1e-12);
		assert_close(r->fitted[i], y[i] - residuals[i], 1e-13);
	}
	assert_close(r->loo_mape, 25.0 * (5.0 / 6.0 + 5.0 / 21.0 + 1.0 / 7.0 + 5.0 / 24.0), 1e-12);
	assert_close(regression_predict(r, 10.0), 19.5, 1e-13);
	assert_close(regression_predict(r, 0.0), -0.5, 1e-13);
}

/*
 * n = 3 leaves 1 degree of freedom, where Student t is the Cauchy distribution:
 * P(|T| > t) = 1 - (2/π) atan(t).
 * x = 0 1 2, y = 0 2 1: x̄ = ȳ = 1, Sxx = 2, Sxy = 1, b = 1/2, a = 1/2; residuals -1/2 1 -1/2,
 * SSE = 3/2, SST = 2, R² = 1/4, adjusted R² = 1 - (3/4)(2/1) = -1/2, rse = sqrt(3/2),
 * se_b = sqrt(3/4) so t_b = 1/sqrt(3) = tan(π/6) and p_b = 1 - (2/π)(π/6) = 2/3;
 * se_a = rse sqrt(1/3 + 1/2) = sqrt(5/4), t_a = 1/sqrt(5), p_a = 1 - (2/π) atan(1/sqrt(5)).
 * y_0 = 0 makes the relative leave-one-out error of that point infinite.
 */
static void test_hand_three_points_cauchy(void **state)
{
	(void)state;
	const double x[] = { 0, 1, 2 };
	const double y[] = { 0, 2, 1 };
	g_autoptr(GError) error = NULL;
	g_autoptr(Regression) r = regression_fit(x, y, 3, &error);
	assert_null(error);

	assert_close(r->a, 0.5, 1e-14);
	assert_close(r->b, 0.5, 1e-14);
	assert_close(r->r2, 0.25, 1e-14);
	assert_close(r->adj_r2, -0.5, 1e-14);
	assert_close(r->rse, sqrt(1.5), 1e-14);
	assert_close(r->t_b, 1.0 / sqrt(3.0), 1e-13);
	assert_close(r->p_b, 2.0 / 3.0, 1e-10);
	assert_close(r->t_a, 1.0 / sqrt(5.0), 1e-13);
	assert_close(r->p_a, 1.0 - 2.0 / M_PI * atan(1.0 / sqrt(5.0)), 1e-10);
	assert_close(r->f, 1.0 / 3.0, 1e-13);
	assert_close(r->f_p, 2.0 / 3.0, 1e-10);
	assert_true(isinf(r->loo_mape));
}

/* Points exactly on y = 3 + 2x: zero residual error, so infinitely significant coefficients. */
static void test_perfect_fit(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4, 5 };
	const double y[] = { 5, 7, 9, 11, 13 };
	g_autoptr(GError) error = NULL;
	g_autoptr(Regression) r = regression_fit(x, y, 5, &error);
	assert_null(error);
	assert_close(r->a, 3.0, 1e-14);
	assert_close(r->b, 2.0, 1e-14);
	assert_true(r->sse < 1e-24);
	assert_close(r->r2, 1.0, 1e-14);
	assert_true(r->p_b < 1e-12);
	assert_true(r->f_p < 1e-12);
	assert_true(r->loo_mape < 1e-12);
}

/* x = 1 1 2: dropping the point at x = 2 leaves no slope to predict it with. */
static void test_loo_undefined_is_nan(void **state)
{
	(void)state;
	const double x[] = { 1, 1, 2 };
	const double y[] = { 1, 2, 3 };
	g_autoptr(GError) error = NULL;
	g_autoptr(Regression) r = regression_fit(x, y, 3, &error);
	assert_null(error);
	assert_close(r->b, 1.5, 1e-14); /* line through (1, 1.5) and (2, 3) */
	assert_true(isnan(r->loo_mape));
}

static void test_too_few_points(void **state)
{
	(void)state;
	const double x[] = { 1, 2 };
	const double y[] = { 1, 2 };
	GError *error = NULL;
	assert_null(regression_fit(x, y, 2, &error));
	assert_true(g_error_matches(error, REGRESSION_ERROR, REGRESSION_ERROR_TOO_FEW_POINTS));
	assert_non_null(strstr(error->message, "2 point"));
	g_clear_error(&error);
	assert_null(regression_fit(x, y, 0, &error));
	assert_true(g_error_matches(error, REGRESSION_ERROR, REGRESSION_ERROR_TOO_FEW_POINTS));
	g_clear_error(&error);
}

static void test_constant_x(void **state)
{
	(void)state;
	const double x[] = { 4, 4, 4, 4 };
	const double y[] = { 1, 2, 3, 4 };
	GError *error = NULL;
	assert_null(regression_fit(x, y, 4, &error));
	assert_true(g_error_matches(error, REGRESSION_ERROR, REGRESSION_ERROR_CONSTANT_X));
	assert_non_null(strstr(error->message, "equal"));
	g_clear_error(&error);
}

static void test_not_finite(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3 };
	const double y[] = { 1, NAN, 3 };
	GError *error = NULL;
	assert_null(regression_fit(x, y, 3, &error));
	assert_true(g_error_matches(error, REGRESSION_ERROR, REGRESSION_ERROR_NOT_FINITE));
	assert_non_null(strstr(error->message, "y[1]"));
	g_clear_error(&error);
}

/*
 * Lack of fit, worked by hand. Points x = 1, 2, 3 with runs {1, 3}, {3, 5}, {7, 9}: means 2, 4, 8.
 * The line through the means: x̄ = 2, ȳ = 14/3, Sxy = (-1)(-8/3) + (1)(10/3) = 6, Sxx = 2, so
 * b = 3, a = 14/3 - 6 = -4/3; fitted 5/3, 14/3, 23/3; misses 1/3, -2/3, 1/3.
 *   ss_lof = 2 (1/9 + 4/9 + 1/9) = 4/3 on 1 df;  ss_pe = 3 * (1 + 1) = 6 on 3 df, MS_pe = 2
 *   f = (4/3) / 2 = 2/3;  pe_sd = sqrt 2
 *   SST of the means = (8/3)² + (2/3)² + (10/3)² = 168/9;  r2_ceiling = 1 - 1 * 2 * (1/2) / (168/9)
 * F(1, 3) is the square of t with 3 df, whose two-sided tail has the closed form
 *   P(|T| > t) = 1 - (2/π) (atan(u) + u / (1 + u²)),  u = t / sqrt 3.
 */
static void test_lack_of_fit_by_hand(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3 }, means[] = { 2, 4, 8 };
	const double runs[] = { 1, 3, 3, 5, 7, 9 };
	const gsize counts[] = { 2, 2, 2 };
	Regression *r = regression_fit(x, means, 3, NULL);
	LackOfFit lof = regression_lack_of_fit(r, runs, counts, REGRESSION_BLOCKS_NONE);

	assert_close(lof.ss_lof, 4.0 / 3.0, 1e-12);
	assert_close(lof.ss_pe, 6.0, 1e-12);
	assert_close(lof.df_lof, 1, 0);
	assert_close(lof.df_pe, 3, 0);
	assert_close(lof.f, 2.0 / 3.0, 1e-12);
	double u = sqrt(2.0 / 3.0) / sqrt(3.0);
	assert_close(lof.p, 1.0 - (2.0 / M_PI) * (atan(u) + u / (1.0 + u * u)), 1e-9);
	assert_close(lof.pe_sd, sqrt(2.0), 1e-12);
	assert_close(lof.r2_ceiling, 1.0 - 9.0 / 168.0, 1e-12);
	assert_close(lof.n_eff, 2, 1e-12);

	/*
	 * Repeats for R² 0.99: σ² = 2, the means' noise (3 - 1) * 2 / 2 = 2, so SST_signal = 168/9 - 2
	 * = 150/9; R = (1 * 2 / 0.01 - 2 * 2) / (150/9) = 196 * 9 / 150 = 11.76, so 12. Check: 12
	 * repeats expect 1 - 2 / (12 * 150/9 + 4) = 0.99020, 11 repeats 1 - 2 / (11 * 150/9 + 4) =
	 * 0.98932. For a low target, 0.5, R = (2 / 0.5 - 4) / (150/9) = 0: one repeat, never fewer.
	 */
	assert_close(regression_repeats_for_r2(r, &lof, 0.99), 12, 0);
	assert_close(regression_repeats_for_r2(r, &lof, 0.5), 1, 0);
	assert_true(isnan(regression_repeats_for_r2(r, &lof, 1.0)));
	regression_free(r);
}

/*
 * The same means from runs {1, 3}, {5, 3}, {7, 9}, the first run of each point in block 0 and the
 * second in block 1. Without blocks ss_pe is again 6 on 3 df. Block means: (1 + 5 + 7) / 3 = 13/3
 * and (3 + 3 + 9) / 3 = 5, about the grand mean 14/3 by -1/3 and +1/3, so the blocks take
 * 3 (1/9 + 1/9) = 2/3 on 1 df:
 *   ss_pe = 6 - 2/3 = 16/3 on 2 df, MS_pe = 8/3;  f = (4/3) / (8/3) = 1/2 on 1 and 2 df
 *   r2_ceiling = 1 - 1 * (8/3) * (1/2) / (168/9) = 1 - 1/14
 * and F(1, 2) = t² with 2 df, P(|T| > t) = 1 - t / sqrt(2 + t²).
 */
static void test_lack_of_fit_in_blocks(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3 }, means[] = { 2, 4, 8 };
	const double runs[] = { 1, 3, 5, 3, 7, 9 };
	const gsize counts[] = { 2, 2, 2 }, unequal[] = { 1, 2, 3 };
	Regression *r = regression_fit(x, means, 3, NULL);
	LackOfFit plain = regression_lack_of_fit(r, runs, counts, REGRESSION_BLOCKS_NONE);
	LackOfFit blocked = regression_lack_of_fit(r, runs, counts, REGRESSION_BLOCKS_ADDITIVE);

	assert_close(plain.ss_pe, 6.0, 1e-12);
	assert_close(blocked.ss_lof, 4.0 / 3.0, 1e-12);
	assert_close(blocked.ss_pe, 16.0 / 3.0, 1e-12);
	assert_close(blocked.df_pe, 2, 0);
	assert_close(blocked.f, 0.5, 1e-12);
	assert_close(blocked.p, 1.0 - sqrt(0.5) / sqrt(2.5), 1e-9);
	assert_close(blocked.pe_sd, sqrt(8.0 / 3.0), 1e-12);
	assert_close(blocked.r2_ceiling, 1.0 - 1.0 / 14.0, 1e-12);

	/* Unequal counts cannot be complete blocks: the plain analysis. Runs {1}, {5, 3}, {7, 9, 8}:
	 * means 1, 4, 8; ss_pe = 0 + 2 + 2 = 4 on 0 + 1 + 2 = 3 df. */
	const double means2[] = { 1, 4, 8 }, runs2[] = { 1, 5, 3, 7, 9, 8 };
	Regression *r2 = regression_fit(x, means2, 3, NULL);
	LackOfFit mixed = regression_lack_of_fit(r2, runs2, unequal, REGRESSION_BLOCKS_ADDITIVE);
	assert_close(mixed.ss_pe, 4.0, 1e-12);
	assert_close(mixed.df_pe, 3, 0);
	regression_free(r2);
	regression_free(r);
}

/*
 * Proportional blocks. Runs {1, 2}, {3, 6}, {4, 8}: block 1 is block 0 twice over, so once the
 * factors are out nothing is left: ss_pe = 0 on 3 - 1 = 2 df, where additive blocks keep the part
 * the slow block added to the long runs: 13 within the points less 32/3 for the blocks (block
 * means 8/3 and 16/3 about 4). Runs {1, 2}, {3, 6}, {4, 10}: the log means of the blocks are ln 12 / 3 and ln 120 / 3 about the
 * grand ln 1440 / 6, so g_0 = 10^(-1/6) and g_1 = 10^(1/6); with c = 10^(1/6) the scaled pairs are
 * (c a, b / c) and ss_pe = Σ (c a - b / c)² / 2 over (1, 2), (3, 6), (4, 10), on 2 df.
 */
static void test_lack_of_fit_proportional_blocks(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3 }, exact[] = { 1, 2, 3, 6, 4, 8 },
		     noisy[] = { 1, 2, 3, 6, 4, 10 };
	const gsize twos[] = { 2, 2, 2 };
	const double means_exact[] = { 1.5, 4.5, 6 }, means_noisy[] = { 1.5, 4.5, 7 };
	Regression *r = regression_fit(x, means_exact, 3, NULL);
	LackOfFit p = regression_lack_of_fit(r, exact, twos, REGRESSION_BLOCKS_PROPORTIONAL);
	LackOfFit a = regression_lack_of_fit(r, exact, twos, REGRESSION_BLOCKS_ADDITIVE);

	assert_true(fabs(p.ss_pe) < 1e-12);
	assert_close(p.df_pe, 2, 0);
	assert_true(p.pe_sd < 1e-6);
	assert_close(a.ss_pe, 13 - 32.0 / 3.0, 1e-12);
	regression_free(r);

	r = regression_fit(x, means_noisy, 3, NULL);
	p = regression_lack_of_fit(r, noisy, twos, REGRESSION_BLOCKS_PROPORTIONAL);
	double c = pow(10, 1.0 / 6.0), ss = 0;
	const double pairs[3][2] = { { 1, 2 }, { 3, 6 }, { 4, 10 } };

	for (int i = 0; i < 3; i++)
		ss += pow(c * pairs[i][0] - pairs[i][1] / c, 2) / 2;
	assert_close(p.ss_pe, ss, 1e-12);
	assert_close(p.df_pe, 2, 0);
	assert_close(p.pe_sd, sqrt(ss / 2), 1e-12);

	/* A run <= 0 has no logarithm: no blocks then. */
	const double zero[] = { 0, 2, 3, 6, 4, 10 };
	LackOfFit z = regression_lack_of_fit(r, zero, twos, REGRESSION_BLOCKS_PROPORTIONAL);
	assert_close(z.df_pe, 3, 0);
	regression_free(r);
}

/* Single runs leave no pure error to test against; identical runs leave no spread. */
static void test_lack_of_fit_without_replicates(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3 }, y[] = { 2, 4, 8 }, twice[] = { 2, 2, 4, 4, 8, 8 };
	const gsize ones[] = { 1, 1, 1 }, twos[] = { 2, 2, 2 };
	Regression *r = regression_fit(x, y, 3, NULL);
	LackOfFit single = regression_lack_of_fit(r, y, ones, REGRESSION_BLOCKS_ADDITIVE);
	LackOfFit same = regression_lack_of_fit(r, twice, twos, REGRESSION_BLOCKS_NONE);

	assert_true(isnan(single.f) && isnan(single.p) && isnan(single.pe_sd) &&
		    isnan(single.r2_ceiling));
	assert_true(isnan(regression_repeats_for_r2(r, &single, 0.99)));

	/* Means that differ less than their noise, runs {0, 10}, {10, 0}, {0, 10}: all means 5, so no
	 * number of repeats shows a line. */
	const double flat[] = { 5, 5, 5 }, noisy[] = { 0, 10, 10, 0, 0, 10 };
	Regression *none = regression_fit(x, flat, 3, NULL);
	LackOfFit noise = regression_lack_of_fit(none, noisy, twos, REGRESSION_BLOCKS_NONE);
	assert_true(isinf(regression_repeats_for_r2(none, &noise, 0.99)));
	regression_free(none);
	assert_close(single.ss_lof, 2.0 / 3.0, 1e-12);
	assert_true(isnan(same.f) && isnan(same.p) && isnan(same.r2_ceiling));
	assert_close(same.pe_sd, 0, 0);
	assert_close(same.ss_lof, 4.0 / 3.0, 1e-12);
	regression_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_norris_certified),
		cmocka_unit_test(test_hand_four_points),
		cmocka_unit_test(test_hand_three_points_cauchy),
		cmocka_unit_test(test_perfect_fit),
		cmocka_unit_test(test_loo_undefined_is_nan),
		cmocka_unit_test(test_too_few_points),
		cmocka_unit_test(test_constant_x),
		cmocka_unit_test(test_not_finite),
		cmocka_unit_test(test_lack_of_fit_by_hand),
		cmocka_unit_test(test_lack_of_fit_in_blocks),
		cmocka_unit_test(test_lack_of_fit_proportional_blocks),
		cmocka_unit_test(test_lack_of_fit_without_replicates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
