/*
 * tests/tuner/optim/test_gp.c - the Gaussian-process surrogate (tuner/optim/gp.h): its posterior and
 * likelihood against closed forms worked out by hand for two points, its gradient against finite
 * differences, and its fit against data of known noise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_randist.h>

#include "tests/support/assert_close.h"
#include "tuner/optim/gp.h"

/* The Matérn 5/2 covariance written out again, for the hand calculations. */
static double matern(double dist, double len, double sf2)
{
	double q = sqrt(5.0) * dist / len;

	return sf2 * (1.0 + q + q * q / 3.0) * exp(-q);
}

/*
 * Two points in one dimension, x = 0 and 1, y = 1 and 3, theta fixed at l = 0.5, sf2 = 1,
 * sn2 = 0.01.  Standardised: m = 2, s = sqrt(2) (sample sd), z = (-1, 1) / sqrt 2.  With
 * K = [[A, B], [B, A]], A = sf2 + sn2, B = k(1), K^-1 = [[A, -B], [-B, A]] / (A^2 - B^2), so at x*
 * with k* = (k(x*), k(1 - x*)):
 *     mean = m + s k*' K^-1 z,  var = s^2 (sf2 - k*' K^-1 k*),
 *     ln L = -z' K^-1 z / 2 - ln(A^2 - B^2) / 2 - ln(2 pi).
 */
static void test_two_points_by_hand(void **state)
{
	(void)state;
	tuner_gp *gp = tuner_gp_alloc(1);
	const double x[] = { 0.0, 1.0 }, y[] = { 1.0, 3.0 };
	const double theta[] = { log(0.5), log(1.0), log(0.01) };

	tuner_gp_set_data(gp, x, y, 2);
	tuner_gp_set_theta(gp, theta);

	double A = 1.01, B = matern(1.0, 0.5, 1.0), det = A * A - B * B;
	double s = sqrt(2.0), z0 = -1.0 / s, z1 = 1.0 / s;
	double a0 = (A * z0 - B * z1) / det, a1 = (-B * z0 + A * z1) / det;
	const double xs[] = { 0.0, 0.25, 0.6, 3.0 };

	for (size_t i = 0; i < G_N_ELEMENTS(xs); i++) {
		double k0 = matern(fabs(xs[i]), 0.5, 1.0), k1 = matern(fabs(1.0 - xs[i]), 0.5, 1.0);
		double mean = 2.0 + s * (k0 * a0 + k1 * a1);
		double quad = (A * k0 * k0 - 2.0 * B * k0 * k1 + A * k1 * k1) / det;
		double sd = s * sqrt(1.0 - quad), m, v;

		tuner_gp_predict(gp, &xs[i], &m, &v);
		assert_close(m, mean, 1e-12);
		assert_close(v, sd, 1e-9);
	}

	double L = -0.5 * (z0 * a0 + z1 * a1) - 0.5 * log(det) - log(2.0 * M_PI);

	assert_close(tuner_gp_log_likelihood(gp, theta, NULL), L, 1e-12);
	assert_close(tuner_gp_noise_sd(gp), 0.1 * s, 1e-12);
	tuner_gp_free(gp);
}

/* With no data the prediction is the prior: mean 0 (no standardisation yet), sd sqrt(sf2). */
static void test_prior(void **state)
{
	(void)state;
	tuner_gp *gp = tuner_gp_alloc(2);
	const double x[] = { 0.3, 0.3 }, theta[] = { 0, 0, log(4.0), log(1e-3) };
	double m, sd;

	tuner_gp_set_theta(gp, theta);
	tuner_gp_predict(gp, x, &m, &sd);
	assert_close(m, 0.0, 0.0);
	assert_close(sd, 2.0, 1e-12);
	tuner_gp_free(gp);
}

/* theta outside the bounds is clamped to them. */
static void test_theta_clamped(void **state)
{
	(void)state;
	tuner_gp *gp = tuner_gp_alloc(2);
	double lo[4], hi[4], got[4];
	const double wild[] = { -50, 50, 50, -50 };

	assert_int_equal(tuner_gp_n_theta(gp), 4);
	tuner_gp_theta_bounds(2, lo, hi);
	tuner_gp_set_theta(gp, wild);
	tuner_gp_get_theta(gp, got);
	assert_true(got[0] == lo[0] && got[1] == hi[1] && got[2] == hi[2] && got[3] == lo[3]);
	tuner_gp_free(gp);
}

/*
 * The analytic gradient of ln L against central differences, at three points of theta, on 12
 * scattered points in 3-D.  A central difference with step h has error O(h^2) times the third
 * derivative: with h = 1e-5 and derivatives of order 1..100 that is below 1e-6; rounding adds about
 * eps |L| / h = 1e-9.  Tolerance 1e-5 relative to max(1, |gradient|).
 */
static void test_gradient_matches_differences(void **state)
{
	(void)state;
	enum {
		N = 12,
		D = 3,
		NT = D + 2
	};
	tuner_gp *gp = tuner_gp_alloc(D);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[N * D], y[N];
	const double thetas[][NT] = {
		{ log(0.3), log(0.5), log(1.0), log(1.0), log(1e-2) },
		{ log(0.05), log(2.0), log(0.2), log(5.0), log(1e-4) },
		{ log(1.5), log(0.1), log(3.0), log(0.1), log(0.3) },
	};

	gsl_rng_set(r, 7);
	for (size_t i = 0; i < N; i++) {
		for (size_t d = 0; d < D; d++)
			x[i * D + d] = gsl_rng_uniform(r);
		y[i] = sin(5.0 * x[i * D]) + x[i * D + 1] * x[i * D + 2] + 0.1 * gsl_rng_uniform(r);
	}
	tuner_gp_set_data(gp, x, y, N);
	for (size_t t = 0; t < G_N_ELEMENTS(thetas); t++) {
		double grad[NT], th[NT];

		tuner_gp_log_likelihood(gp, thetas[t], grad);
		for (size_t j = 0; j < NT; j++) {
			const double h = 1e-5;

			memcpy(th, thetas[t], sizeof th);
			th[j] += h;
			double up = tuner_gp_log_likelihood(gp, th, NULL);
			th[j] -= 2 * h;
			double down = tuner_gp_log_likelihood(gp, th, NULL);

			assert_close(grad[j], (up - down) / (2 * h),
				     1e-5 * fmax(1.0, fabs(grad[j])));
		}
	}
	gsl_rng_free(r);
	tuner_gp_free(gp);
}

/*
 * Fit on 60 points of a smooth function plus N(0, 0.1^2) noise: the maximum-likelihood noise sd
 * estimates 0.1 with a relative standard error of about 1 / sqrt(2 n) = 9%; four of them (36%)
 * bound the estimate.  The fit must also not lose likelihood against its start.
 */
static void test_fit_recovers_noise(void **state)
{
	(void)state;
	enum {
		N = 60
	};
	tuner_gp *gp = tuner_gp_alloc(1);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[N], y[N], theta0[3];

	gsl_rng_set(r, 3);
	for (size_t i = 0; i < N; i++) {
		x[i] = gsl_rng_uniform(r);
		y[i] = 10.0 + 3.0 * sin(2.0 * M_PI * x[i]) + gsl_ran_gaussian(r, 0.1);
	}
	tuner_gp_set_data(gp, x, y, N);
	tuner_gp_get_theta(gp, theta0);

	double before = tuner_gp_log_likelihood(gp, theta0, NULL);
	double after = tuner_gp_fit(gp, r, 3);
	double theta[3];

	tuner_gp_get_theta(gp, theta);
	assert_true(after >= before);
	assert_close(tuner_gp_log_likelihood(gp, theta, NULL), after, 1e-9);
	assert_close(tuner_gp_noise_sd(gp), 0.1, 0.036);

	/* Between the data the mean follows the function within a few noise sds / sqrt(points
	 * nearby): 0.1 is generous for 60 points on [0, 1]. */
	for (double u = 0.1; u < 0.95; u += 0.2) {
		double m, sd;

		tuner_gp_predict(gp, &u, &m, &sd);
		assert_close(m, 10.0 + 3.0 * sin(2.0 * M_PI * u), 0.1);
		assert_true(sd > 0.0 && sd < 0.1);
	}
	gsl_rng_free(r);
	tuner_gp_free(gp);
}

/* Adding a fantasy and truncating it away restores the model exactly; a repeated point (the
 * covariance matrix then has two equal rows but for the noise) is harmless. */
static void test_add_truncate_and_repeats(void **state)
{
	(void)state;
	tuner_gp *gp = tuner_gp_alloc(2);
	const double x[] = { 0.1, 0.2, 0.1, 0.2, 0.8, 0.5 }, y[] = { 1.0, 1.0, 4.0 };
	const double at[] = { 0.4, 0.4 }, fantasy[] = { 0.45, 0.4 };
	double m0, s0, m1, s1, m2, s2;

	tuner_gp_set_data(gp, x, y, 3);
	tuner_gp_predict(gp, at, &m0, &s0);
	assert_true(isfinite(m0) && isfinite(s0));
	tuner_gp_add(gp, fantasy, m0);
	assert_int_equal(tuner_gp_size(gp), 4);
	tuner_gp_predict(gp, at, &m1, &s1);
	assert_true(s1 < s0); /* a point nearby removes uncertainty */
	tuner_gp_truncate(gp, 3);
	tuner_gp_predict(gp, at, &m2, &s2);
	assert_true(m2 == m0 && s2 == s0);
	tuner_gp_free(gp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_points_by_hand),
		cmocka_unit_test(test_prior),
		cmocka_unit_test(test_theta_clamped),
		cmocka_unit_test(test_gradient_matches_differences),
		cmocka_unit_test(test_fit_recovers_noise),
		cmocka_unit_test(test_add_truncate_and_repeats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
