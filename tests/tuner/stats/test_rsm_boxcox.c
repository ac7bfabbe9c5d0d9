/*
 * test_rsm_boxcox.c -- Box-Cox profile likelihood and power transform (tuner/stats/boxcox.h).
 *
 * Data with a known right answer: y = (q(x) + e)² is fitted exactly by the quadratic model after
 * a square root (lambda = 0.5), y = exp(q(x) + e) after a log (lambda = 0), e small normal noise
 * from a seeded gsl_rng. The likelihood values themselves are checked against their definition,
 * -n/2 ln(SSE/n), with SSE taken from separate quadratic fits (rsm_model_fit) of the transformed
 * response written out as (y^lambda - 1) / (lambda gm^(lambda-1)) and gm ln y; the chi-square
 * cut-off against the tabulated chi2_{0.95,1} = 3.841459.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "tuner/stats/boxcox.h"
#include "tuner/stats/rsm_design.h"
#include "tuner/stats/rsm_model.h"
#include "tests/support/assert_close.h"

/* Positive quadratics over the rotatable CCD region (|x| <= 1.68): q from about 7 to 16, q_log
 * from about 0.4 to 4.2. */
static double q_sqrt(const double *x)
{
	return 10.0 + 2.0 * x[0] - 1.5 * x[1] + x[2] + 0.5 * x[0] * x[1] + 1.0 * x[0] * x[0] +
	       0.8 * x[1] * x[1] + 0.3 * x[2] * x[2];
}

static double q_log(const double *x)
{
	return 2.0 + 0.8 * x[0] - 0.6 * x[1] + 0.5 * x[2] + 0.2 * x[0] * x[1] + 0.3 * x[0] * x[0] +
	       0.2 * x[1] * x[1];
}

typedef enum {
	SQUARED,
	EXPONENTIAL
} Shape;

/* y at each of n coded points (3 factors each): (q + e)² or exp(q + e), e ~ N(0, sd²). */
static void simulate_at(const double *coded, guint n, Shape shape, double sd, gsl_rng *rng,
			double *y)
{
	for (guint i = 0; i < n; i++) {
		const double *x = coded + 3 * i;
		double e = gsl_ran_gaussian(rng, sd);
		y[i] = shape == SQUARED ? pow(q_sqrt(x) + e, 2.0) : exp(q_log(x) + e);
	}
}

static void simulate(const RsmDesign *d, Shape shape, double sd, gsl_rng *rng, double *y)
{
	simulate_at(d->coded, d->n_runs, shape, sd, rng, y);
}

static gsl_rng *seeded(unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	return rng;
}

/* The 20-run rotatable CCD in three factors (6 centre points). */
static RsmDesign *ccd3(void)
{
	return rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 6, NULL);
}

static void test_square_root_found(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = ccd3();
	gsl_matrix *X = rsm_quadratic_design_matrix(3, d->n_runs, d->coded);
	gsl_rng *rng = seeded(1);
	double y[20];
	simulate(d, SQUARED, 0.05, rng, y);
	GError *error = NULL;
	g_autoptr(BoxcoxProfile) p = boxcox_profile(X, y, NULL, &error);
	assert_null(error);

	assert_int_equal(p->n_grid, 601);
	assert_close(p->lambda_hat, 0.5, 0.1);
	assert_true(p->ci_lo <= 0.5 && 0.5 <= p->ci_hi);
	assert_true(p->ci_hi < 1.0 && p->ci_lo > 0.0); /* neither no transform nor the log fits */
	assert_false(p->ci_lo_open || p->ci_hi_open);
	assert_close(boxcox_suggest(p), 0.5, 0.0);
	gsl_rng_free(rng);
	gsl_matrix_free(X);
}

static void test_log_found(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = ccd3();
	gsl_matrix *X = rsm_quadratic_design_matrix(3, d->n_runs, d->coded);
	gsl_rng *rng = seeded(1);
	double y[20];
	simulate(d, EXPONENTIAL, 0.05, rng, y);
	g_autoptr(BoxcoxProfile) p = boxcox_profile(X, y, NULL, NULL);
	assert_non_null(p);
	assert_close(p->lambda_hat, 0.0, 0.1);
	assert_true(p->ci_lo <= 0.0 && 0.0 <= p->ci_hi);
	assert_true(p->ci_hi < 0.5 && p->ci_lo > -0.5);
	assert_close(boxcox_suggest(p), 0.0, 0.0);
	gsl_rng_free(rng);
	gsl_matrix_free(X);
}

/*
 * Over many simulated experiments lambda-hat centres on the truth and the interval covers it at
 * about its nominal rate. The likelihood-ratio interval is asymptotic and runs a little short with
 * few residual degrees of freedom, so this uses the CCD run twice (40 runs, 30 residual df), where
 * coverage is about 0.92, and asks for at least 0.85 of 200.
 */
static void check_sampling(Shape shape, double truth)
{
	g_autoptr(RsmDesign) once = ccd3();
	enum {
		N = 40
	};
	double coded[3 * N];
	memcpy(coded, once->coded, 3 * 20 * sizeof(double));
	memcpy(coded + 3 * 20, once->coded, 3 * 20 * sizeof(double));
	gsl_matrix *X = rsm_quadratic_design_matrix(3, N, coded);
	gsl_rng *rng = seeded(2024);
	double y[N], sum = 0.0;
	guint covered = 0, reps = 200;
	for (guint r = 0; r < reps; r++) {
		simulate_at(coded, N, shape, 0.05, rng, y);
		g_autoptr(BoxcoxProfile) p = boxcox_profile(X, y, NULL, NULL);
		assert_non_null(p);
		sum += p->lambda_hat;
		covered += p->ci_lo <= truth && truth <= p->ci_hi;
	}
	assert_close(sum / reps, truth, 0.02);
	assert_true(covered >= 0.85 * reps);
	gsl_rng_free(rng);
	gsl_matrix_free(X);
}

static void test_sampling_properties(void **state)
{
	(void)state;
	check_sampling(SQUARED, 0.5);
	check_sampling(EXPONENTIAL, 0.0);
}

/* SSE of the quadratic fitted to z (through the model module, not boxcox's own solver). */
static double quadratic_sse(const RsmDesign *d, const double *z)
{
	g_autoptr(RsmFit) fit = rsm_model_fit(3, d->n_runs, d->coded, z, NULL, NULL);
	assert_non_null(fit);
	return fit->ss_residual;
}

static void test_likelihood_definition(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = ccd3();
	guint n = d->n_runs;
	gsl_matrix *X = rsm_quadratic_design_matrix(3, n, d->coded);
	gsl_rng *rng = seeded(7);
	double y[20], z[20];
	simulate(d, SQUARED, 0.3, rng, y);
	g_autoptr(BoxcoxProfile) p = boxcox_profile(X, y, NULL, NULL);
	assert_non_null(p);

	double log_gm = 0.0;
	for (guint i = 0; i < n; i++)
		log_gm += log(y[i]) / n;
	double gm = exp(log_gm);
	assert_close(p->gm, gm, 1e-12 * gm);

	/* Grid index g is lambda = -3 + 0.01 g: 400 is 1, 300 is 0, 200 is -1, 450 is 1.5. */
	static const struct {
		guint g;
		double lambda;
	} at[] = { { 400, 1.0 }, { 300, 0.0 }, { 200, -1.0 }, { 450, 1.5 } };
	for (guint a = 0; a < G_N_ELEMENTS(at); a++) {
		double lambda = at[a].lambda;
		assert_close(p->lambda[at[a].g], lambda, 1e-12);
		for (guint i = 0; i < n; i++)
			z[i] = lambda == 0.0 ? gm * log(y[i])
					     : (pow(y[i], lambda) - 1.0) /
						       (lambda * pow(gm, lambda - 1.0));
		double expect = -0.5 * n * log(quadratic_sse(d, z) / n);
		assert_close(p->loglik[at[a].g], expect, 1e-8);
		assert_close(boxcox_normalised(y[3], lambda, gm), z[3], 1e-12 * fabs(z[3]));
	}
	assert_close(p->lambda[300], 0.0, 0.0); /* snapped to exactly 0 */

	/* lambda-hat is the grid maximum; the interval ends sit where L crosses L_max - 3.841459/2. */
	guint best = 0;
	for (guint g = 0; g < p->n_grid; g++)
		if (p->loglik[g] > p->loglik[best])
			best = g;
	assert_close(p->lambda_hat, p->lambda[best], 0.0);
	assert_close(p->cutoff, p->loglik_max - 3.841459 / 2.0, 1e-6);
	for (guint g = 0; g + 1 < p->n_grid; g++) {
		double l0 = p->loglik[g], l1 = p->loglik[g + 1];
		for (int end = 0; end < 2; end++) {
			double c = end == 0 ? p->ci_lo : p->ci_hi;
			if (c >= p->lambda[g] && c <= p->lambda[g + 1]) {
				double lc = l0 + (l1 - l0) * (c - p->lambda[g]) /
							 (p->lambda[g + 1] - p->lambda[g]);
				assert_close(lc, p->cutoff, 1e-9);
			}
		}
		if (p->lambda[g] > p->ci_lo && p->lambda[g] < p->ci_hi)
			assert_true(l0 >= p->cutoff);
	}
	gsl_rng_free(rng);
	gsl_matrix_free(X);
}

/* A grid that ends inside the interval: both ends are flagged open, reported at the grid ends. */
static void test_open_interval(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = ccd3();
	gsl_matrix *X = rsm_quadratic_design_matrix(3, d->n_runs, d->coded);
	gsl_rng *rng = seeded(3);
	double y[20];
	simulate(d, SQUARED, 0.05, rng, y);
	g_autoptr(BoxcoxProfile) full = boxcox_profile(X, y, NULL, NULL);
	assert_non_null(full);
	assert_false(full->ci_lo_open || full->ci_hi_open);
	double lo = full->ci_lo + 0.01, hi = full->ci_hi - 0.01;
	BoxcoxOptions opt = { lo, hi, (hi - lo) / 100.0, 0.95 };
	g_autoptr(BoxcoxProfile) p = boxcox_profile(X, y, &opt, NULL);
	assert_non_null(p);
	assert_int_equal(p->n_grid, 101);
	assert_true(p->ci_lo_open && p->ci_hi_open);
	assert_close(p->ci_lo, lo, 1e-12);
	assert_close(p->ci_hi, hi, 1e-12);
	gsl_rng_free(rng);
	gsl_matrix_free(X);
}

static void test_errors(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = ccd3();
	gsl_matrix *X = rsm_quadratic_design_matrix(3, d->n_runs, d->coded);
	double y[20];
	GError *error = NULL;

	/* Not positive. */
	for (guint i = 0; i < 20; i++)
		y[i] = 1.0 + i;
	y[5] = 0.0;
	assert_null(boxcox_profile(X, y, NULL, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_NOT_POSITIVE));
	assert_non_null(strstr(error->message, "response 6"));
	g_clear_error(&error);

	/* Exactly a square of a quadratic: at lambda = 0.5 the fit is perfect. */
	for (guint i = 0; i < 20; i++)
		y[i] = pow(q_sqrt(rsm_design_run(d, i)), 2.0);
	assert_null(boxcox_profile(X, y, NULL, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_EXACT_FIT));
	g_clear_error(&error);

	/* Bad grid, bad level. */
	BoxcoxOptions bad = { 1.0, -1.0, 0.01, 0.95 };
	assert_null(boxcox_profile(X, y, &bad, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_GRID));
	g_clear_error(&error);
	BoxcoxOptions bad_level = { -3.0, 3.0, 0.01, 1.0 };
	assert_null(boxcox_profile(X, y, &bad_level, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_GRID));
	g_clear_error(&error);

	/* A singular model matrix: two equal columns. */
	for (guint i = 0; i < 20; i++)
		y[i] = 1.0 + i;
	gsl_matrix *S = gsl_matrix_alloc(20, 3);
	for (guint i = 0; i < 20; i++) {
		gsl_matrix_set(S, i, 0, 1.0);
		gsl_matrix_set(S, i, 1, rsm_design_run(d, i)[0]);
		gsl_matrix_set(S, i, 2, rsm_design_run(d, i)[0]);
	}
	assert_null(boxcox_profile(S, y, NULL, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_SINGULAR));
	g_clear_error(&error);
	gsl_matrix_free(S);

	/* No residual degrees of freedom. */
	gsl_matrix_const_view ten = gsl_matrix_const_submatrix(X, 0, 0, 10, 10);
	assert_null(boxcox_profile(&ten.matrix, y, NULL, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_TOO_FEW_RUNS));
	g_clear_error(&error);
	gsl_matrix_free(X);
}

static void test_power(void **state)
{
	(void)state;
	assert_close(boxcox_power(8.0, 1.0 / 3.0), 2.0, 1e-15);
	assert_close(boxcox_power(M_E, 0.0), 1.0, 1e-15);
	assert_close(boxcox_power(4.0, -0.5), 0.5, 1e-15);
	for (double lambda = -2.0; lambda <= 2.0; lambda += 0.5)
		assert_close(boxcox_power_inverse(boxcox_power(37.5, lambda), lambda), 37.5, 1e-11);
	assert_true(isnan(boxcox_power_inverse(-1.0, 0.5)));

	double y[3] = { 1.0, 4.0, 9.0 }, out[3];
	assert_true(boxcox_apply(y, 3, 0.5, out, NULL));
	assert_close(out[2], 3.0, 1e-15);
	y[1] = -4.0;
	GError *error = NULL;
	assert_false(boxcox_apply(y, 3, 0.5, out, &error));
	assert_true(g_error_matches(error, BOXCOX_ERROR, BOXCOX_ERROR_NOT_POSITIVE));
	g_clear_error(&error);

	/* boxcox_suggest prefers "no transform" whenever the interval allows it. */
	BoxcoxProfile p = { .lambda_hat = 0.8, .ci_lo = 0.55, .ci_hi = 1.1 };
	assert_close(boxcox_suggest(&p), 1.0, 0.0);
	p = (BoxcoxProfile){ .lambda_hat = 0.12, .ci_lo = -0.2, .ci_hi = 0.6 };
	assert_close(boxcox_suggest(&p), 0.0, 0.0);
	p = (BoxcoxProfile){ .lambda_hat = 0.7, .ci_lo = 0.65, .ci_hi = 0.75 };
	assert_close(boxcox_suggest(&p), 0.7, 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_square_root_found),
		cmocka_unit_test(test_log_found),
		cmocka_unit_test(test_sampling_properties),
		cmocka_unit_test(test_likelihood_definition),
		cmocka_unit_test(test_open_interval),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_power),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
