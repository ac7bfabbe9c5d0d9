/*
 * test_rsm_design.c -- central composite and Box-Behnken designs, run order, coded <-> natural
 * units (tuner/stats/rsm_design.h).
 *
 * The design properties are checked from their definitions rather than against the module's own
 * formulas: rotatability by the moment condition Σ x_i⁴ = 3 Σ x_i² x_j² (Box & Hunter 1957; for a
 * CCD it gives alpha⁴ = 2^k, 1.6818 for k = 3), orthogonality of the quadratic terms by the centred
 * cross-products of the x_i² columns, and the run counts 2^k + 2k + n_c and 12 + n_c by counting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/stats/rsm_design.h"
#include "tests/support/assert_close.h"

static guint count_type(const RsmDesign *d, RsmPointType type)
{
	guint n = 0;
	for (guint i = 0; i < d->n_runs; i++)
		n += d->type[i] == type;
	return n;
}

/* Σ over runs of x_i^a x_j^b. */
static double moment(const RsmDesign *d, guint i, int a, guint j, int b)
{
	double s = 0.0;
	for (guint r = 0; r < d->n_runs; r++) {
		const double *x = rsm_design_run(d, r);
		s += pow(x[i], a) * pow(x[j], b);
	}
	return s;
}

static void test_ccd_k3_rotatable(void **state)
{
	(void)state;
	GError *error = NULL;
	g_autoptr(RsmDesign) d = rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 6, &error);
	assert_null(error);
	assert_int_equal(d->k, 3);
	assert_int_equal(d->n_runs, 8 + 6 + 6);
	assert_int_equal(count_type(d, RSM_POINT_CUBE), 8);
	assert_int_equal(count_type(d, RSM_POINT_AXIAL), 6);
	assert_int_equal(count_type(d, RSM_POINT_CENTRE), 6);
	assert_close(d->alpha, 1.6818, 0.00005);
	assert_close(rsm_ccd_alpha(3, RSM_ALPHA_ROTATABLE, 6), 1.681792830507429, 1e-12);

	/* Cube points: all 8 sign combinations, once each. */
	guint seen = 0;
	for (guint r = 0; r < d->n_runs; r++) {
		const double *x = rsm_design_run(d, r);
		if (d->type[r] == RSM_POINT_CUBE) {
			guint code = 0;
			for (guint j = 0; j < 3; j++) {
				assert_true(x[j] == 1.0 || x[j] == -1.0);
				code |= (x[j] > 0) << j;
			}
			assert_false(seen & (1u << code));
			seen |= 1u << code;
		} else if (d->type[r] == RSM_POINT_AXIAL) {
			guint nonzero = 0;
			for (guint j = 0; j < 3; j++)
				if (x[j] != 0.0) {
					nonzero++;
					assert_close(fabs(x[j]), d->alpha, 0.0);
				}
			assert_int_equal(nonzero, 1);
		} else {
			assert_int_equal(d->type[r], RSM_POINT_CENTRE);
			assert_true(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
		}
	}
	assert_int_equal(seen, 0xff);

	/* Rotatability: pure fourth moment = 3 x mixed fourth moment, odd moments vanish. */
	for (guint i = 0; i < 3; i++) {
		for (guint j = 0; j < 3; j++) {
			if (i == j)
				continue;
			assert_close(moment(d, i, 4, i, 0), 3.0 * moment(d, i, 2, j, 2), 1e-10);
			assert_close(moment(d, i, 1, j, 1), 0.0, 1e-12);
			assert_close(moment(d, i, 3, j, 0), 0.0, 1e-12);
		}
	}
	assert_int_equal(rsm_design_runs_outside_cube(d), 6);
}

static void test_ccd_run_counts(void **state)
{
	(void)state;
	for (guint k = RSM_CCD_MIN_FACTORS; k <= RSM_CCD_MAX_FACTORS; k++) {
		for (guint nc = 0; nc <= 6; nc += 3) {
			g_autoptr(RsmDesign) d = rsm_design_ccd(k, RSM_ALPHA_FACE, nc, NULL);
			assert_non_null(d);
			assert_int_equal(d->n_runs, (1u << k) + 2 * k + nc);
			assert_int_equal(count_type(d, RSM_POINT_CENTRE), nc);
			assert_close(d->alpha, 1.0, 0.0);
			assert_int_equal(rsm_design_runs_outside_cube(d), 0);
		}
	}
	/* Known rotatable distances: k = 2 sqrt(2), k = 4 2, k = 6 8^(1/2). */
	assert_close(rsm_ccd_alpha(2, RSM_ALPHA_ROTATABLE, 5), G_SQRT2, 1e-15);
	assert_close(rsm_ccd_alpha(4, RSM_ALPHA_ROTATABLE, 5), 2.0, 1e-15);
	assert_close(rsm_ccd_alpha(6, RSM_ALPHA_ROTATABLE, 5), sqrt(8.0), 1e-14);
	assert_true(isnan(rsm_ccd_alpha(7, RSM_ALPHA_ROTATABLE, 5)));
}

/* The orthogonal alpha makes the centred x_i² columns orthogonal:
 * Σ x_i² x_j² = Σ x_i² Σ x_j² / N. */
static void test_ccd_orthogonal(void **state)
{
	(void)state;
	for (guint k = 2; k <= 5; k++) {
		for (guint nc = 1; nc <= 8; nc += 7) {
			g_autoptr(RsmDesign) d = rsm_design_ccd(k, RSM_ALPHA_ORTHOGONAL, nc, NULL);
			assert_non_null(d);
			double n = d->n_runs;
			assert_close(moment(d, 0, 2, 1, 2),
				     moment(d, 0, 2, 1, 0) * moment(d, 1, 2, 0, 0) / n, 1e-9);
		}
	}
	/* k = 2, 5 centre points: alpha² = (sqrt(4 * 13) - 4) / 2 = (7.2111026 - 4) / 2 = 1.6055513. */
	assert_close(rsm_ccd_alpha(2, RSM_ALPHA_ORTHOGONAL, 5), 1.2671035, 5e-7);
}

static void test_box_behnken(void **state)
{
	(void)state;
	GError *error = NULL;
	g_autoptr(RsmDesign) d = rsm_design_box_behnken(3, 2, &error);
	assert_null(error);
	assert_int_equal(d->n_runs, 14);
	assert_int_equal(count_type(d, RSM_POINT_EDGE), 12);
	assert_int_equal(count_type(d, RSM_POINT_CENTRE), 2);
	/* Every edge run: exactly one factor at 0, the others at +-1, and all 12 distinct. */
	for (guint r = 0; r < d->n_runs; r++) {
		const double *x = rsm_design_run(d, r);
		guint zeros = 0;
		for (guint j = 0; j < 3; j++) {
			assert_true(x[j] == 0.0 || x[j] == 1.0 || x[j] == -1.0);
			zeros += x[j] == 0.0;
		}
		assert_int_equal(zeros, d->type[r] == RSM_POINT_EDGE ? 1 : 3);
		for (guint s = 0; s < r; s++)
			if (d->type[r] == RSM_POINT_EDGE)
				assert_memory_not_equal(x, rsm_design_run(d, s),
							3 * sizeof(double));
	}
	assert_int_equal(rsm_design_runs_outside_cube(d), 0);

	g_autoptr(RsmDesign) d4 = rsm_design_box_behnken(4, 3, NULL);
	g_autoptr(RsmDesign) d5 = rsm_design_box_behnken(5, 6, NULL);
	assert_int_equal(d4->n_runs, 24 + 3);
	assert_int_equal(d5->n_runs, 40 + 6);

	assert_null(rsm_design_box_behnken(2, 2, &error));
	assert_true(g_error_matches(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_FACTORS));
	g_clear_error(&error);
	assert_null(rsm_design_box_behnken(6, 2, &error));
	g_clear_error(&error);
	assert_null(rsm_design_ccd(0, RSM_ALPHA_FACE, 2, &error));
	assert_true(g_error_matches(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_FACTORS));
	g_clear_error(&error);
	assert_null(rsm_design_ccd_with_alpha(3, -1.0, 2, &error));
	assert_true(g_error_matches(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_ALPHA));
	g_clear_error(&error);
}

static void test_randomise(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) std = rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 6, NULL);
	g_autoptr(RsmDesign) a = rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 6, NULL);
	g_autoptr(RsmDesign) b = rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 6, NULL);
	g_autoptr(RsmDesign) c = rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 6, NULL);
	rsm_design_randomise(a, 12345);
	rsm_design_randomise(b, 12345);
	rsm_design_randomise(c, 54321);
	guint n = a->n_runs;

	/* Same seed, same order, byte for byte. */
	assert_memory_equal(a->coded, b->coded, n * 3 * sizeof(double));
	assert_memory_equal(a->std_order, b->std_order, n * sizeof(guint));
	/* The order did change, and another seed gives another order. */
	assert_memory_not_equal(a->std_order, std->std_order, n * sizeof(guint));
	assert_memory_not_equal(a->std_order, c->std_order, n * sizeof(guint));

	/* std_order is a permutation and every run carries its standard row and type along. */
	guint seen[20] = { 0 };
	for (guint i = 0; i < n; i++) {
		guint s = a->std_order[i];
		assert_true(s < n);
		seen[s]++;
		assert_memory_equal(rsm_design_run(a, i), rsm_design_run(std, s),
				    3 * sizeof(double));
		assert_int_equal(a->type[i], std->type[s]);
	}
	for (guint s = 0; s < n; s++)
		assert_int_equal(seen[s], 1);

	rsm_design_sort_standard(a);
	assert_memory_equal(a->coded, std->coded, n * 3 * sizeof(double));
	assert_memory_equal(a->std_order, std->std_order, n * sizeof(guint));
}

/* Copy c of run i is run c n + i: the same point and type, standard order c n + std_order[i]. */
static void test_replicate(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = rsm_design_box_behnken(3, 3, NULL);
	rsm_design_randomise(d, 7);
	g_autoptr(RsmDesign) r = rsm_design_replicate(d, 3);
	guint n = d->n_runs;

	assert_int_equal(n, 15);
	assert_int_equal(r->n_runs, 45);
	assert_int_equal(r->k, 3);
	assert_true(r->alpha == d->alpha);
	for (guint c = 0; c < 3; c++)
		for (guint i = 0; i < n; i++) {
			assert_memory_equal(rsm_design_run(r, c * n + i), rsm_design_run(d, i),
					    3 * sizeof(double));
			assert_int_equal(r->std_order[c * n + i], c * n + d->std_order[i]);
			assert_int_equal(r->type[c * n + i], d->type[i]);
		}
	g_autoptr(RsmDesign) once = rsm_design_replicate(d, 1);
	assert_memory_equal(once->coded, d->coded, n * 3 * sizeof(double));
}

static void test_natural_units(void **state)
{
	(void)state;
	/* Montgomery's example: time 80..90 min, coded sqrt(2) is 85 + 5 sqrt(2) = 92.07. */
	RsmFactorRange time = { "time", 80.0, 90.0, RSM_SCALE_LINEAR };
	assert_close(rsm_factor_to_natural(&time, -1.0), 80.0, 1e-12);
	assert_close(rsm_factor_to_natural(&time, 1.0), 90.0, 1e-12);
	assert_close(rsm_factor_to_natural(&time, 0.0), 85.0, 1e-12);
	assert_close(rsm_factor_to_natural(&time, G_SQRT2), 92.07, 0.005);
	assert_close(rsm_factor_to_coded(&time, 87.0), 0.4, 1e-12);

	/* Log scale over four decades: the centre is the geometric midpoint. */
	RsmFactorRange lat = { "latency", 1e5, 1e9, RSM_SCALE_LOG };
	assert_close(rsm_factor_to_natural(&lat, -1.0), 1e5, 1e-6);
	assert_close(rsm_factor_to_natural(&lat, 1.0), 1e9, 1e-3);
	assert_close(rsm_factor_to_natural(&lat, 0.0), 1e7, 1e-5);
	assert_close(rsm_factor_to_natural(&lat, 0.5), 1e8, 1e-4);
	assert_close(rsm_factor_to_coded(&lat, 1e6), -0.5, 1e-12);
	for (double x = -2.0; x <= 2.0; x += 0.25)
		assert_close(rsm_factor_to_coded(&lat, rsm_factor_to_natural(&lat, x)), x, 1e-12);

	/* Whole designs. */
	RsmFactorRange ranges[3] = { lat,
				     { "min_gran", 1e5, 1e9, RSM_SCALE_LOG },
				     { NULL, 0.0, 1e9, RSM_SCALE_LINEAR } };
	g_autoptr(RsmDesign) d = rsm_design_ccd(3, RSM_ALPHA_FACE, 1, NULL);
	double natural[3 * 15];
	GError *error = NULL;
	assert_true(rsm_design_to_natural(d, ranges, natural, &error));
	assert_close(natural[0], 1e5, 1e-6); /* run 1: (-1, -1, -1) */
	assert_close(natural[2], 0.0, 1e-6);
	assert_close(natural[14 * 3 + 2], 5e8, 1e-6); /* centre */
}

static void test_limits(void **state)
{
	(void)state;
	RsmFactorRange ranges[3] = { { "latency", 1e5, 1e9, RSM_SCALE_LOG },
				     { "min_granularity", 1e5, 1e9, RSM_SCALE_LOG },
				     { "wakeup_granularity", 1e5, 1e9, RSM_SCALE_LOG } };
	double min[3] = { 1e5, 1e5, 0.0 }, max[3] = { 1e9, 1e9, 1e9 };
	GError *error = NULL;

	/* The rotatable axial points leave the knob range when [lo, hi] is the whole range. */
	g_autoptr(RsmDesign) rot = rsm_design_ccd(3, RSM_ALPHA_ROTATABLE, 4, NULL);
	assert_false(rsm_design_check_limits(rot, ranges, min, max, &error));
	assert_true(g_error_matches(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_LIMITS));
	assert_non_null(strstr(error->message, "latency"));
	g_clear_error(&error);

	/* The face-centred design stays inside (the ends map to lo/hi up to rounding). */
	g_autoptr(RsmDesign) face = rsm_design_ccd(3, RSM_ALPHA_FACE, 4, NULL);
	assert_true(rsm_design_check_limits(face, ranges, min, max, &error));
	assert_null(error);

	/* A narrower [lo, hi] leaves room for the rotatable axial points. */
	RsmFactorRange narrow[3] = { { "latency", 1e6, 1e8, RSM_SCALE_LOG },
				     { "min_granularity", 1e6, 1e8, RSM_SCALE_LOG },
				     { "wakeup_granularity", 1e6, 1e8, RSM_SCALE_LOG } };
	assert_true(rsm_design_check_limits(rot, narrow, min, max, NULL));

	/* Unusable ranges. */
	RsmFactorRange bad_log = { "wakeup", 0.0, 1e9, RSM_SCALE_LOG };
	assert_false(rsm_factor_range_check(&bad_log, &error));
	assert_true(g_error_matches(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_RANGE));
	assert_non_null(strstr(error->message, "wakeup"));
	g_clear_error(&error);
	RsmFactorRange reversed = { "x", 2.0, 1.0, RSM_SCALE_LINEAR };
	assert_false(rsm_factor_range_check(&reversed, &error));
	g_clear_error(&error);
	RsmFactorRange ok = { "x", 1.0, 2.0, RSM_SCALE_LINEAR };
	assert_true(rsm_factor_range_check(&ok, NULL));
}

/*
 * Issue 15: four knobs, a rotatable CCD: the 2^4 = 16 cube points in Yates order (x1 fastest), the
 * 8 axial points at alpha = 16^(1/4) = 2, then the centres. Written out by hand.
 */
static void test_ccd_k4_rotatable(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = rsm_design_ccd(4, RSM_ALPHA_ROTATABLE, 6, NULL);
	static const double axial[8][4] = { { -2, 0, 0, 0 }, { 2, 0, 0, 0 },  { 0, -2, 0, 0 },
					    { 0, 2, 0, 0 },  { 0, 0, -2, 0 }, { 0, 0, 2, 0 },
					    { 0, 0, 0, -2 }, { 0, 0, 0, 2 } };

	assert_non_null(d);
	assert_int_equal(d->k, 4);
	assert_int_equal(d->n_runs, 30);
	assert_close(d->alpha, 2.0, 1e-15);
	/* Runs 0, 1, 2, 5 and 15 of the cube: (-,-,-,-), (+,-,-,-), (-,+,-,-), (+,-,+,-), (+,+,+,+). */
	static const double cube[5][4] = { { -1, -1, -1, -1 },
					   { 1, -1, -1, -1 },
					   { -1, 1, -1, -1 },
					   { 1, -1, 1, -1 },
					   { 1, 1, 1, 1 } };
	static const guint at[5] = { 0, 1, 2, 5, 15 };
	for (guint i = 0; i < 5; i++)
		assert_memory_equal(rsm_design_run(d, at[i]), cube[i], sizeof cube[i]);
	for (guint i = 0; i < 16; i++)
		assert_int_equal(d->type[i], RSM_POINT_CUBE);
	for (guint i = 0; i < 8; i++) {
		assert_memory_equal(rsm_design_run(d, 16 + i), axial[i], sizeof axial[i]);
		assert_int_equal(d->type[16 + i], RSM_POINT_AXIAL);
	}
	for (guint i = 24; i < 30; i++) {
		static const double zero[4] = { 0 };
		assert_memory_equal(rsm_design_run(d, i), zero, sizeof zero);
		assert_int_equal(d->type[i], RSM_POINT_CENTRE);
	}
	assert_int_equal(rsm_design_runs_outside_cube(d), 8);
}

/* base_slice alone: -1, +1, -2^(1/4), +2^(1/4) = 1.189207..., then the centres. */
static void test_ccd_k1(void **state)
{
	(void)state;
	g_autoptr(RsmDesign) d = rsm_design_ccd(1, RSM_ALPHA_ROTATABLE, 3, NULL);
	const double want[7] = { -1, 1, -1.189207115002721, 1.189207115002721, 0, 0, 0 };

	assert_non_null(d);
	assert_int_equal(d->n_runs, 7);
	for (guint i = 0; i < 7; i++)
		assert_close(rsm_design_run(d, i)[0], want[i], 1e-15);
	assert_null(rsm_design_box_behnken(1, 3, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ccd_k4_rotatable), cmocka_unit_test(test_ccd_k1),
		cmocka_unit_test(test_ccd_k3_rotatable), cmocka_unit_test(test_ccd_run_counts),
		cmocka_unit_test(test_ccd_orthogonal),	 cmocka_unit_test(test_box_behnken),
		cmocka_unit_test(test_randomise),	 cmocka_unit_test(test_natural_units),
		cmocka_unit_test(test_limits),		 cmocka_unit_test(test_replicate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
