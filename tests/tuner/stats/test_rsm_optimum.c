/*
 * test_rsm_optimum.c -- canonical analysis and box-constrained optimum of a quadratic surface
 * (tuner/stats/rsm_optimum.h).
 *
 * The surfaces are built from a known centre and curvature, ŷ = c + (x - a)' M (x - a), so the
 * stationary point (a), its value (c) and the eigenvalues (those of M) are known exactly. For the
 * box optimum of a saddle the surface is separable, so its minimum over the cube is the product of
 * one-dimensional minima, found by hand. The published example is Montgomery's chemical-process CCD
 * (see test_rsm.c): stationary point x1 = 0.389, x2 = 0.306, predicted yield 80.21, eigenvalues
 * -0.9634 and -1.4141, a maximum, at 87 min and 176.5 °F in natural units (Design and Analysis of
 * Experiments, chapter 11; the optimum is also on the ReliaSoft page cited in test_rsm.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/stats/rsm_design.h"
#include "tuner/stats/rsm_model.h"
#include "tuner/stats/rsm_optimum.h"
#include "tests/support/assert_close.h"

#define RIDGE RSM_RIDGE_TOL_DEFAULT

/*
 * Coefficients (term order 1, x1, x2, x3, x1x2, x1x3, x2x3, x1², x2², x3²) of
 * c + (x - a)' M (x - a) = c + a'Ma - 2 (Ma)' x + x' M x, written out by hand.
 */
static void centred_quadratic(double c, const double a[3], const double M[3][3], double beta[10])
{
	double Ma[3];
	for (int i = 0; i < 3; i++)
		Ma[i] = M[i][0] * a[0] + M[i][1] * a[1] + M[i][2] * a[2];
	beta[0] = c + a[0] * Ma[0] + a[1] * Ma[1] + a[2] * Ma[2];
	beta[1] = -2.0 * Ma[0];
	beta[2] = -2.0 * Ma[1];
	beta[3] = -2.0 * Ma[2];
	beta[4] = 2.0 * M[0][1];
	beta[5] = 2.0 * M[0][2];
	beta[6] = 2.0 * M[1][2];
	beta[7] = M[0][0];
	beta[8] = M[1][1];
	beta[9] = M[2][2];
}

/* M with eigenvalues 1, 3, 5: the 2x2 block [[2,1],[1,2]] has 1 and 3, with eigenvectors
 * (1,-1)/sqrt2 and (1,1)/sqrt2; the third axis has 5. */
static const double M_pos[3][3] = { { 2, 1, 0 }, { 1, 2, 0 }, { 0, 0, 5 } };
static const double a_in[3] = { 0.2, -0.3, 0.5 };

static void test_known_minimum(void **state)
{
	(void)state;
	double beta[10];
	centred_quadratic(5.0, a_in, M_pos, beta);
	GError *error = NULL;
	g_autoptr(RsmCanonical) c = rsm_canonical_analysis(3, beta, RIDGE, NULL, &error);
	assert_null(error);
	assert_true(c->has_stationary_point);
	for (int j = 0; j < 3; j++)
		assert_close(c->x_s[j], a_in[j], 1e-12);
	assert_close(c->y_s, 5.0, 1e-12);
	assert_close(c->eigenvalues[0], 1.0, 1e-12);
	assert_close(c->eigenvalues[1], 3.0, 1e-12);
	assert_close(c->eigenvalues[2], 5.0, 1e-12);
	/* Eigenvector of 1: (1, -1, 0)/sqrt2 with its largest component (a tie here: first) positive
	 * up to the sign rule; check it up to sign and orthonormality. */
	const double s = G_SQRT2 / 2.0;
	assert_close(fabs(c->eigenvectors[0 * 3 + 0]), s, 1e-12);
	assert_close(c->eigenvectors[0 * 3 + 0] + c->eigenvectors[1 * 3 + 0], 0.0, 1e-12);
	assert_close(c->eigenvectors[1 * 3 + 1], s, 1e-12);   /* eigenvalue 3: (1, 1, 0)/sqrt2 */
	assert_close(c->eigenvectors[2 * 3 + 2], 1.0, 1e-12); /* eigenvalue 5: (0, 0, 1) */
	assert_int_equal(c->kind, RSM_STATIONARY_MINIMUM);
	assert_string_equal(rsm_stationary_kind_string(c->kind), "minimum");
	assert_true(c->inside);
	assert_close(c->distance, sqrt(0.04 + 0.09 + 0.25), 1e-12);
	/* The model form round-trips. */
	assert_close(c->B[0 * 3 + 1], 1.0, 0.0);
	assert_close(c->B[2 * 3 + 2], 5.0, 0.0);

	/* The box minimum of a convex quadratic whose centre is inside the cube is the centre. */
	g_autoptr(RsmOptimum) opt =
		rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, NULL, NULL, &error);
	assert_null(error);
	for (int j = 0; j < 3; j++)
		assert_close(opt->x[j], a_in[j], 1e-7);
	assert_close(opt->value, 5.0, 1e-12);
	assert_false(opt->on_boundary);
	assert_int_equal(opt->n_starts, 1 + 8 + 1);

	/* The same surface negated is a maximum. */
	for (int t = 0; t < 10; t++)
		beta[t] = -beta[t];
	g_autoptr(RsmCanonical) neg = rsm_canonical_analysis(3, beta, RIDGE, NULL, NULL);
	assert_int_equal(neg->kind, RSM_STATIONARY_MAXIMUM);
	assert_close(neg->y_s, -5.0, 1e-12);
}

/* 1 + (x1 - 0.3)² - 2 (x2 - 0.1)² + 0.5 (x3 + 0.4)²: a saddle at (0.3, 0.1, -0.4). */
static const double M_saddle[3][3] = { { 1, 0, 0 }, { 0, -2, 0 }, { 0, 0, 0.5 } };
static const double a_saddle[3] = { 0.3, 0.1, -0.4 };

static void test_saddle(void **state)
{
	(void)state;
	double beta[10];
	centred_quadratic(1.0, a_saddle, M_saddle, beta);
	g_autoptr(RsmCanonical) c = rsm_canonical_analysis(3, beta, RIDGE, NULL, NULL);
	assert_int_equal(c->kind, RSM_STATIONARY_SADDLE);
	assert_close(c->eigenvalues[0], -2.0, 1e-12);
	assert_close(c->eigenvalues[1], 0.5, 1e-12);
	assert_close(c->eigenvalues[2], 1.0, 1e-12);
	for (int j = 0; j < 3; j++)
		assert_close(c->x_s[j], a_saddle[j], 1e-12);

	/*
	 * Minimum over [-1, 1]³, one coordinate at a time: x1 = 0.3 (term 0), x3 = -0.4 (term 0), and
	 * -2 (x2 - 0.1)² is smallest at the face farther from 0.1, x2 = -1 (-2 * 1.21 = -2.42).
	 * So x* = (0.3, -1, -0.4), ŷ = 1 - 2.42 = -1.42, on the boundary.
	 */
	GError *error = NULL;
	g_autoptr(RsmOptimum) opt =
		rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, NULL, NULL, &error);
	assert_null(error);
	assert_close(opt->x[0], 0.3, 1e-6);
	assert_close(opt->x[1], -1.0, 1e-9);
	assert_close(opt->x[2], -0.4, 1e-6);
	assert_close(opt->value, -1.42, 1e-10);
	assert_true(opt->on_boundary);

	/*
	 * Maximum over the cube: x2 = 0.1 (term 0); (x1 - 0.3)² largest at x1 = -1 (1.69),
	 * 0.5 (x3 + 0.4)² largest at x3 = 1 (0.5 * 1.96 = 0.98). ŷ = 1 + 1.69 + 0.98 = 3.67.
	 */
	g_autoptr(RsmOptimum) mx = rsm_optimum_in_box(3, beta, RSM_GOAL_MAXIMISE, NULL, NULL, NULL);
	assert_close(mx->x[0], -1.0, 1e-9);
	assert_close(mx->x[1], 0.1, 1e-6);
	assert_close(mx->x[2], 1.0, 1e-9);
	assert_close(mx->value, 3.67, 1e-10);
	assert_true(mx->on_boundary);

	/* A brute-force grid over the cube finds nothing better than the optimiser. */
	double best = INFINITY;
	for (int i = 0; i <= 40; i++)
		for (int j = 0; j <= 40; j++)
			for (int k = 0; k <= 40; k++) {
				double x[3] = { -1 + i * 0.05, -1 + j * 0.05, -1 + k * 0.05 };
				best = fmin(best, rsm_quadratic_eval(3, beta, x));
			}
	assert_true(opt->value <= best + 1e-12);
}

/* A box other than the cube: [0, 2] x [-0.5, 0.5] x [-3, -1] for the convex surface. The minimum is
 * found where the box is closest to a = (0.2, -0.3, 0.5) in the M metric; with M block-diagonal
 * the x3 part is separate (x3 = -1, the face nearest 0.5), and for (x1, x2) the unconstrained
 * minimiser (0.2, -0.3) is already inside [0, 2] x [-0.5, 0.5]. */
static void test_custom_box(void **state)
{
	(void)state;
	double beta[10];
	centred_quadratic(5.0, a_in, M_pos, beta);
	double lo[3] = { 0.0, -0.5, -3.0 }, hi[3] = { 2.0, 0.5, -1.0 };
	g_autoptr(RsmOptimum) opt = rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, lo, hi, NULL);
	assert_non_null(opt);
	assert_close(opt->x[0], 0.2, 1e-6);
	assert_close(opt->x[1], -0.3, 1e-6);
	assert_close(opt->x[2], -1.0, 1e-9);
	assert_close(opt->value, 5.0 + 5.0 * 1.5 * 1.5, 1e-9);
	assert_true(opt->on_boundary);

	GError *error = NULL;
	double bad_hi[3] = { 2.0, -0.5, -1.0 };
	assert_null(rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, lo, bad_hi, &error));
	assert_true(g_error_matches(error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_REGION));
	g_clear_error(&error);
	beta[4] = NAN;
	assert_null(rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, NULL, NULL, &error));
	assert_true(g_error_matches(error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_NOT_FINITE));
	assert_non_null(strstr(error->message, "x1*x2"));
	g_clear_error(&error);
}

static void test_ridge_and_singular(void **state)
{
	(void)state;
	/* Eigenvalues 0.01, 1, 2: 0.01 < 0.05 * 2, a ridge, though x_s still exists. */
	const double M_ridge[3][3] = { { 1, 0, 0 }, { 0, 0.01, 0 }, { 0, 0, 2 } };
	double beta[10];
	centred_quadratic(0.0, a_in, M_ridge, beta);
	g_autoptr(RsmCanonical) c = rsm_canonical_analysis(3, beta, RIDGE, NULL, NULL);
	assert_int_equal(c->kind, RSM_STATIONARY_RIDGE);
	assert_true(c->has_stationary_point);
	for (int j = 0; j < 3; j++)
		assert_close(c->x_s[j], a_in[j], 1e-10);
	/* With a smaller tolerance it is a minimum. */
	g_autoptr(RsmCanonical) c2 = rsm_canonical_analysis(3, beta, 0.001, NULL, NULL);
	assert_int_equal(c2->kind, RSM_STATIONARY_MINIMUM);

	/* x1² + x3² + x2: no curvature along x2 and a slope there; no stationary point at all. */
	double flat[10] = { 0, 0, 1, 0, 0, 0, 0, 1, 0, 1 };
	g_autoptr(RsmCanonical) f = rsm_canonical_analysis(3, flat, RIDGE, NULL, NULL);
	assert_int_equal(f->kind, RSM_STATIONARY_RIDGE);
	assert_false(f->has_stationary_point);
	assert_false(f->inside);
	assert_true(isnan(f->x_s[0]) && isnan(f->y_s));
	/* Its box minimum: x1 = x3 = 0, x2 = -1. */
	g_autoptr(RsmOptimum) opt =
		rsm_optimum_in_box(3, flat, RSM_GOAL_MINIMISE, NULL, NULL, NULL);
	assert_close(opt->x[1], -1.0, 1e-9);
	assert_close(opt->value, -1.0, 1e-10);
	assert_int_equal(opt->n_starts, 9);

	GError *error = NULL;
	RsmRegion bad = { RSM_REGION_SPHERE, 0.0 };
	assert_null(rsm_canonical_analysis(3, flat, RIDGE, &bad, &error));
	assert_true(g_error_matches(error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_REGION));
	g_clear_error(&error);
}

static void test_regions(void **state)
{
	(void)state;
	/* Centre at (0.9, 0.9, 0): inside the unit cube, outside the unit sphere (|a| = 1.273), inside
	 * the sphere of the rotatable CCD's alpha 1.682. */
	const double a[3] = { 0.9, 0.9, 0.0 };
	double beta[10];
	centred_quadratic(0.0, a, M_pos, beta);
	RsmRegion cube = { RSM_REGION_CUBE, 1.0 }, unit = { RSM_REGION_SPHERE, 1.0 },
		  star = { RSM_REGION_SPHERE, rsm_ccd_alpha(3, RSM_ALPHA_ROTATABLE, 6) };
	g_autoptr(RsmCanonical) c1 = rsm_canonical_analysis(3, beta, RIDGE, &cube, NULL);
	g_autoptr(RsmCanonical) c2 = rsm_canonical_analysis(3, beta, RIDGE, &unit, NULL);
	g_autoptr(RsmCanonical) c3 = rsm_canonical_analysis(3, beta, RIDGE, &star, NULL);
	assert_true(c1->inside);
	assert_false(c2->inside);
	assert_true(c3->inside);
	assert_close(c2->distance, sqrt(1.62), 1e-12);

	/* Outside the cube altogether. */
	const double far[3] = { 1.5, 0.0, 0.0 };
	centred_quadratic(0.0, far, M_pos, beta);
	g_autoptr(RsmCanonical) c4 = rsm_canonical_analysis(3, beta, RIDGE, &cube, NULL);
	assert_false(c4->inside);
	g_autoptr(RsmOptimum) opt =
		rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, NULL, NULL, NULL);
	assert_int_equal(opt->n_starts, 9); /* x_s outside: not a start */
	assert_true(opt->on_boundary);
}

/* Montgomery's yield surface: fitted model -> canonical analysis -> optimum -> natural units. */
static void test_montgomery_optimum(void **state)
{
	(void)state;
	const double r2 = G_SQRT2;
	const double coded[] = { -1, -1, -1, 1, 1, -1, 1, 1,   0, 0, 0,	 0, 0,
				 0,  0,	 0,  0, 0, r2, 0, -r2, 0, 0, r2, 0, -r2 };
	const double y[] = { 76.5, 77.0, 78.0, 79.5, 79.9, 80.3, 80.0,
			     79.7, 79.8, 78.4, 75.6, 78.5, 77.0 };
	GError *error = NULL;
	g_autoptr(RsmFit) fit = rsm_model_fit(2, 13, coded, y, NULL, &error);
	assert_null(error);

	RsmRegion star = { RSM_REGION_SPHERE, r2 };
	g_autoptr(RsmCanonical) c = rsm_fit_canonical(fit, RSM_RIDGE_TOL_DEFAULT, &star, &error);
	assert_null(error);
	assert_int_equal(c->kind, RSM_STATIONARY_MAXIMUM);
	assert_close(c->x_s[0], 0.389, 0.0005);
	assert_close(c->x_s[1], 0.306, 0.0005);
	assert_close(c->y_s, 80.21, 0.005);
	assert_close(c->eigenvalues[0], -1.4141, 0.00005);
	assert_close(c->eigenvalues[1], -0.9634, 0.00005);
	assert_true(c->inside);

	/* The best point in the cube is the stationary point (it is inside), with its interval. */
	g_autoptr(RsmOptimum) opt =
		rsm_fit_optimum(fit, RSM_GOAL_MAXIMISE, NULL, NULL, 0.95, &error);
	assert_null(error);
	assert_close(opt->x[0], c->x_s[0], 1e-6);
	assert_close(opt->x[1], c->x_s[1], 1e-6);
	assert_close(opt->value, c->y_s, 1e-10);
	assert_close(opt->prediction.value, opt->value, 1e-12);
	RsmPrediction at = rsm_fit_predict(fit, opt->x, 0.95);
	assert_close(opt->prediction.std_error, at.std_error, 1e-12);
	assert_true(at.std_error > 0.0);
	assert_true(opt->prediction.lo < opt->value && opt->value < opt->prediction.hi);

	/* In natural units: time 80..90 min, temperature 170..180 °F -> about 87 min, 176.5 °F. */
	RsmFactorRange time = { "time", 80.0, 90.0, RSM_SCALE_LINEAR };
	RsmFactorRange temp = { "temperature", 170.0, 180.0, RSM_SCALE_LINEAR };
	assert_close(rsm_factor_to_natural(&time, opt->x[0]), 87.0, 0.5);
	assert_close(rsm_factor_to_natural(&temp, opt->x[1]), 176.5, 0.05);
}

/* Same input, same output, bit for bit. */
static void test_deterministic(void **state)
{
	(void)state;
	double beta[10];
	centred_quadratic(1.0, a_saddle, M_saddle, beta);
	g_autoptr(RsmOptimum) a = rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, NULL, NULL, NULL);
	g_autoptr(RsmOptimum) b = rsm_optimum_in_box(3, beta, RSM_GOAL_MINIMISE, NULL, NULL, NULL);
	assert_memory_equal(a->x, b->x, 3 * sizeof(double));
}

/*
 * Fits a rotatable CCD on k factors (3 centre points) to the exactly quadratic response beta (term
 * order of rsm_model.h): the coefficients come back, and the canonical analysis finds x_s, y_s and
 * a minimum.
 */
static void check_exact_fit(guint k, const double *beta, const double *x_s, double y_s)
{
	g_autoptr(RsmDesign) d = rsm_design_ccd(k, RSM_ALPHA_ROTATABLE, 3, NULL);
	guint p = rsm_quadratic_n_terms(k);
	g_autofree double *y = g_new(double, d->n_runs);
	GError *error = NULL;

	assert_int_equal(p, 1 + 2 * k + k * (k - 1) / 2);
	for (guint i = 0; i < d->n_runs; i++)
		y[i] = rsm_quadratic_eval(k, beta, rsm_design_run(d, i));

	RsmFit *fit = rsm_model_fit(k, d->n_runs, d->coded, y, NULL, &error);
	if (!fit)
		fail_msg("k = %u: %s", k, error->message);
	assert_int_equal(fit->n_terms, p);
	for (guint t = 0; t < p; t++)
		assert_close(fit->beta[t], beta[t], 1e-10);

	RsmCanonical *c = rsm_fit_canonical(fit, RSM_RIDGE_TOL_DEFAULT, NULL, &error);
	assert_non_null(c);
	assert_true(c->has_stationary_point);
	assert_int_equal(c->kind, RSM_STATIONARY_MINIMUM);
	for (guint j = 0; j < k; j++)
		assert_close(c->x_s[j], x_s[j], 1e-10);
	assert_close(c->y_s, y_s, 1e-10);
	rsm_canonical_free(c);
	rsm_fit_free(fit);
}

/*
 * Issue 15: the analysis of k = 1 (base_slice), 2 (base_slice and migration_cost) and 4 knobs
 * (CFS's three and migration_cost), each on an exactly quadratic response worked by hand:
 *   k = 1: y = 3 - 2x + 4x^2: x_s = 2/8 = 0.25, y_s = 3 + (-2)(0.25)/2 = 2.75.
 *   k = 2: y = 1 + x1 + x2 + x1x2 + x1^2 + 2x2^2: 1 + x2 + 2x1 = 0, 1 + x1 + 4x2 = 0 give
 *          x2 = -1/7, x1 = -3/7; y_s = 1 + (-3/7 - 1/7)/2 = 5/7.
 *   k = 4: y = 5 + x1 - 2x2 + 4x4 + 0.5x1x2 + 2x1^2 + 3x2^2 + x3^2 + 4x4^2 (terms: intercept,
 *          x1..x4, x1x2 x1x3 x1x4 x2x3 x2x4 x3x4, x1^2..x4^2): x3 = 0, 4 + 8x4 = 0 so x4 = -1/2;
 *          1 + 0.5x2 + 4x1 = 0 and -2 + 0.5x1 + 6x2 = 0 give x2 = 34/95, x1 = -28/95;
 *          y_s = 5 + (-28/95 - 68/95 - 2)/2 = 332/95.
 */
static void test_exact_fits_k1_k2_k4(void **state)
{
	(void)state;
	const double b1[] = { 3, -2, 4 }, s1[] = { 0.25 };
	const double b2[] = { 1, 1, 1, 1, 1, 2 }, s2[] = { -3.0 / 7, -1.0 / 7 };
	const double b4[] = { 5, 1, -2, 0, 4, 0.5, 0, 0, 0, 0, 0, 2, 3, 1, 4 };
	const double s4[] = { -28.0 / 95, 34.0 / 95, 0, -0.5 };

	check_exact_fit(1, b1, s1, 2.75);
	check_exact_fit(2, b2, s2, 5.0 / 7);
	check_exact_fit(4, b4, s4, 332.0 / 95);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_fits_k1_k2_k4),
		cmocka_unit_test(test_known_minimum),
		cmocka_unit_test(test_saddle),
		cmocka_unit_test(test_custom_box),
		cmocka_unit_test(test_ridge_and_singular),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_montgomery_optimum),
		cmocka_unit_test(test_deterministic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
