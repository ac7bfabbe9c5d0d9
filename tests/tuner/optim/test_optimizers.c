/*
 * tests/tuner/optim/test_optimizers.c - the batch optimizers (tuner/optim/optimizer.h) on synthetic
 * objectives whose minima are known in closed form, and the ask/tell/iterate contract.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/optim/optimizer.h"

/* ---- objectives ----------------------------------------------------------------- */

typedef double (*objective)(const double *u, size_t dim);

/* Minimum 0 at (0.3, 0.7, 0.55), off-centre on purpose. */
static const double quad_centre[3] = { 0.3, 0.7, 0.55 };

static double quadratic(const double *u, size_t dim)
{
	double s = 0.0;
	for (size_t d = 0; d < dim; d++)
		s += (u[d] - quad_centre[d]) * (u[d] - quad_centre[d]);
	return s;
}

/* Rosenbrock on z = 4u - 2 in [-2, 2]^3: minimum 0 at z = (1,1,1), i.e. u = 0.75. */
static double rosenbrock(const double *u, size_t dim)
{
	double s = 0.0;
	for (size_t d = 0; d + 1 < dim; d++) {
		double z = 4.0 * u[d] - 2.0, z1 = 4.0 * u[d + 1] - 2.0;
		s += 100.0 * (z1 - z * z) * (z1 - z * z) + (1.0 - z) * (1.0 - z);
	}
	return s;
}

/* Minimum outside the cube, at (1.5, -0.5, 0.5): the best point inside is (1, 0, 0.5). */
static double outside(const double *u, size_t dim)
{
	(void)dim;
	return (u[0] - 1.5) * (u[0] - 1.5) + (u[1] + 0.5) * (u[1] + 0.5) +
	       (u[2] - 0.5) * (u[2] - 0.5);
}

static double parabola_03(const double *u, size_t dim)
{
	(void)dim;
	return (u[0] - 0.3) * (u[0] - 0.3);
}

static double kink_077(const double *u, size_t dim)
{
	(void)dim;
	return fabs(u[0] - 0.77);
}

static double identity_1d(const double *u, size_t dim)
{
	(void)dim;
	return u[0];
}

typedef struct {
	objective f;
	size_t calls;	    /* batches evaluated */
	size_t points;	    /* points evaluated */
	bool out_of_bounds; /* some point outside [0,1]^dim */
} eval_ctx;

static int eval_batch(const double *x, size_t n, size_t dim, double *y, void *vctx)
{
	eval_ctx *ctx = vctx;
	ctx->calls++;
	ctx->points += n;
	for (size_t i = 0; i < n; i++) {
		for (size_t d = 0; d < dim; d++)
			if (!(x[i * dim + d] >= 0.0 && x[i * dim + d] <= 1.0))
				ctx->out_of_bounds = true;
		y[i] = ctx->f(x + i * dim, dim);
	}
	return GSL_SUCCESS;
}

static tuner_optimizer *start(const tuner_optimizer_type *T, size_t dim,
			      const tuner_optimizer_params *p)
{
	tuner_optimizer *s = tuner_optimizer_alloc(T, dim);
	assert_non_null(s);
	assert_int_equal(tuner_optimizer_set(s, p), GSL_SUCCESS);
	return s;
}

/* Runs to the end with iterate; returns the number of iterate calls. */
static size_t run(tuner_optimizer *s, eval_ctx *ctx)
{
	size_t calls = 0;
	int status;
	do {
		status = tuner_optimizer_iterate(s, eval_batch, ctx);
		calls++;
		assert_true(status == GSL_CONTINUE || status == GSL_SUCCESS);
	} while (status == GSL_CONTINUE);
	return calls;
}

static double max_abs_diff(const double *a, const double *b, size_t n)
{
	double m = 0.0;
	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(a[i] - b[i]));
	return m;
}

/* ---- generic --------------------------------------------------------------------- */

static void test_params_default(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	memset(&p, 0xff, sizeof p);
	tuner_optimizer_params_default(&p);
	assert_int_equal(p.budget, 0);
	assert_int_equal(p.pso.particles, 20);
	assert_int_equal(p.pso.iterations, 30);
	/* SPEC.md §5: the constriction set is the default. */
	assert_true(p.pso.omega == 0.7298 && p.pso.phi_p == 1.49618 && p.pso.phi_g == 1.49618);
	assert_true(p.golden.lo == 0.0 && p.golden.hi == 1.0 && p.golden.tolerance > 0.0);
	assert_int_equal(p.grid.batch, 64);
	assert_int_equal(p.random.batch, 64);
}

/* The presets by name, as SPEC.md §5 lists them; the first is the default. */
static void test_pso_presets(void **state)
{
	(void)state;
	const tuner_pso_preset *c = tuner_pso_preset_by_name("constriction");
	const tuner_pso_preset *t = tuner_pso_preset_by_name("Thesis");
	const tuner_pso_preset *k = tuner_pso_preset_by_name("classic");

	assert_ptr_equal(c, &tuner_pso_presets[0]);
	assert_true(c->omega == 0.7298 && c->phi_p == 1.49618 && c->phi_g == 1.49618);
	assert_true(t->omega == 0.4365 && t->phi_p == 3.02 && t->phi_g == 3.02);
	assert_true(k->omega == 0.9 && k->phi_p == 4 && k->phi_g == 4);
	assert_null(tuner_pso_preset_by_name("stable"));
	assert_null(tuner_pso_preset_by_name(NULL));
	assert_null(tuner_pso_presets[3].name);
}

static void test_type_by_name(void **state)
{
	(void)state;
	assert_ptr_equal(tuner_optimizer_type_by_name("pso"), tuner_optimizer_pso);
	assert_ptr_equal(tuner_optimizer_type_by_name("golden"), tuner_optimizer_golden);
	assert_ptr_equal(tuner_optimizer_type_by_name("grid"), tuner_optimizer_grid);
	assert_ptr_equal(tuner_optimizer_type_by_name("random"), tuner_optimizer_random);
	assert_ptr_equal(tuner_optimizer_type_by_name("PSO"), tuner_optimizer_pso);
	assert_null(tuner_optimizer_type_by_name("rsm"));
	assert_null(tuner_optimizer_type_by_name(""));
	assert_null(tuner_optimizer_type_by_name(NULL));

	tuner_optimizer *s = tuner_optimizer_alloc(tuner_optimizer_golden, 1);
	assert_string_equal(tuner_optimizer_name(s), "golden");
	tuner_optimizer_free(s);
}

static void test_alloc_rejects(void **state)
{
	(void)state;
	assert_null(tuner_optimizer_alloc(NULL, 3));
	assert_null(tuner_optimizer_alloc(tuner_optimizer_pso, 0));
	tuner_optimizer_free(NULL);
}

/* set refuses p, check explains it with a message containing `needle`. */
static void expect_rejected(const tuner_optimizer_type *T, size_t dim,
			    const tuner_optimizer_params *p, const char *needle)
{
	GError *error = NULL;
	assert_false(tuner_optimizer_params_check(T, dim, p, &error));
	assert_non_null(error);
	assert_true(g_error_matches(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS));
	if (strstr(error->message, needle) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", error->message, needle);
	g_error_free(error);

	tuner_optimizer *s = tuner_optimizer_alloc(T, dim);
	assert_int_equal(tuner_optimizer_set(s, p), GSL_EINVAL);
	double x[8 * 3];
	assert_int_equal(tuner_optimizer_ask(s, x, 8), 0);
	assert_true(tuner_optimizer_finished(s));
	assert_int_equal(tuner_optimizer_batch_max(s), 0);
	double y = 0.0;
	assert_int_equal(tuner_optimizer_tell(s, &y, 1), GSL_EINVAL);
	assert_int_equal(tuner_optimizer_iterate(s, eval_batch, NULL), GSL_EINVAL);
	tuner_optimizer_free(s);
}

static void test_set_rejects_invalid_params(void **state)
{
	(void)state;
	tuner_optimizer_params d, p;
	tuner_optimizer_params_default(&d);

	p = d;
	p.pso.particles = 0;
	expect_rejected(tuner_optimizer_pso, 3, &p, "particles");
	p = d;
	p.pso.omega = NAN;
	expect_rejected(tuner_optimizer_pso, 3, &p, "omega");
	expect_rejected(tuner_optimizer_golden, 3, &d, "one dimension, got 3");
	p = d;
	p.golden.tolerance = 1.0;
	expect_rejected(tuner_optimizer_golden, 1, &p, "tolerance");
	p = d;
	p.golden.lo = 0.6;
	p.golden.hi = 0.4;
	expect_rejected(tuner_optimizer_golden, 1, &p, "bracket");
	p = d;
	p.grid.points = 0;
	expect_rejected(tuner_optimizer_grid, 2, &p, "points");
	p = d;
	p.grid.points = 1000;
	expect_rejected(tuner_optimizer_grid, 8, &p, "too large");
	expect_rejected(tuner_optimizer_random, 2, &d, "budget");

	GError *error = NULL;
	assert_true(tuner_optimizer_params_check(tuner_optimizer_golden, 1, &d, &error));
	assert_null(error);
}

/* ---- PSO ------------------------------------------------------------------------- */

/*
 * The thesis preset (omega 0.4365, phi_p = phi_g = 3.02) lies outside the swarm's
 * order-1 stability region: the mean trajectory obeys x' = (1 + w - phi) x - w x_prev +
 * ..., phi = (phi_p + phi_g) / 2 = 3.02, stable only for phi < 2 (1 + w) = 2.873.  So
 * with it the swarm oscillates against the walls instead of contracting, and
 * finds the quadratic's minimum only coarsely.  The tolerance stated here is what 600
 * evaluations achieve: over seeds 1..200 the worst run came within 0.1 per coordinate
 * (f < 0.012), the median f was 0.0012.
 */
static void test_pso_quadratic_thesis_params(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	const tuner_pso_preset *thesis = tuner_pso_preset_by_name("thesis");
	tuner_optimizer_params_default(&p);
	p.seed = 42;
	p.pso.omega = thesis->omega;
	p.pso.phi_p = thesis->phi_p;
	p.pso.phi_g = thesis->phi_g;
	tuner_optimizer *s = start(tuner_optimizer_pso, 3, &p);
	eval_ctx ctx = { .f = quadratic };
	run(s, &ctx);
	assert_int_equal(tuner_optimizer_evaluations(s), 600);
	assert_true(tuner_optimizer_minimum(s) < 0.01);
	assert_true(max_abs_diff(tuner_optimizer_x(s), quad_centre, 3) < 0.1);
	assert_false(ctx.out_of_bounds);
	tuner_optimizer_free(s);
}

/*
 * With a stable coefficient set (the thesis omega, each phi halved to 1.51, so that
 * phi = 1.51 < 2.873) the same 600 evaluations pin the minimum down: over seeds 1..200
 * the worst f was 3.5e-8, i.e. within 2e-4 of the centre.  Stated tolerance: f < 1e-6,
 * within 1e-3 per coordinate.
 */
static void test_pso_quadratic_stable_coefficients(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 42;
	p.pso.omega = 0.4365;
	p.pso.phi_p = p.pso.phi_g = 1.51;
	tuner_optimizer *s = start(tuner_optimizer_pso, 3, &p);
	eval_ctx ctx = { .f = quadratic };
	run(s, &ctx);
	assert_true(tuner_optimizer_minimum(s) < 1e-6);
	assert_true(max_abs_diff(tuner_optimizer_x(s), quad_centre, 3) < 1e-3);
	assert_false(ctx.out_of_bounds);
	tuner_optimizer_free(s);
}

/*
 * Rosenbrock's curved valley needs a contracting swarm and more evaluations than the
 * defaults give: Clerc and Kennedy's constriction coefficients (chi = 0.7298, c1 = c2 =
 * 2.05 chi = 1.49618; IEEE Trans. Evol. Comput. 6(1), 2002), 40 particles x 500
 * generations.  Over seeds 1..200 the worst run reached f = 0.0024 within 0.022 of
 * u = 0.75 per coordinate.  Stated tolerance: f < 0.01, within 0.05.
 */
static void test_pso_rosenbrock(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 42;
	p.pso.omega = 0.7298;
	p.pso.phi_p = p.pso.phi_g = 1.49618;
	p.pso.particles = 40;
	p.pso.iterations = 500;
	tuner_optimizer *s = start(tuner_optimizer_pso, 3, &p);
	eval_ctx ctx = { .f = rosenbrock };
	run(s, &ctx);
	const double target[3] = { 0.75, 0.75, 0.75 };
	assert_true(tuner_optimizer_minimum(s) < 0.01);
	assert_true(max_abs_diff(tuner_optimizer_x(s), target, 3) < 0.05);
	assert_false(ctx.out_of_bounds);
	tuner_optimizer_free(s);
}

/*
 * The update rule step by step, against a trajectory computed here from the documented
 * contract: positions U[0,1) then velocities U[-1,1) from gsl_rng_mt19937 seeded with
 * p.seed; each move draws rp then rg per particle and dimension; v <- w v + phi_p rp
 * (p - x) + phi_g rg (g - x); a coordinate leaving [0,1] is clamped and its velocity
 * zeroed; p and g change after each whole generation, g only on strict improvement.
 */
enum {
	TP = 3,
	TD = 2,
	TG = 6
};

static void test_pso_update_rule_by_hand(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 2024;
	p.pso.particles = TP;
	p.pso.iterations = TG;
	const double w = p.pso.omega, cp = p.pso.phi_p, cg = p.pso.phi_g;

	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, p.seed);
	double x[TP][TD], v[TP][TD], pb[TP][TD], py[TP], g[TD] = { 0 }, gy = INFINITY;
	for (size_t i = 0; i < TP; i++)
		for (size_t d = 0; d < TD; d++)
			x[i][d] = gsl_rng_uniform(r);
	for (size_t i = 0; i < TP; i++)
		for (size_t d = 0; d < TD; d++)
			v[i][d] = 2.0 * gsl_rng_uniform(r) - 1.0;
	for (size_t i = 0; i < TP; i++)
		py[i] = INFINITY;

	tuner_optimizer *s = start(tuner_optimizer_pso, TD, &p);
	size_t clamps = 0;
	for (size_t gen = 0; gen < TG; gen++) {
		if (gen > 0) {
			for (size_t i = 0; i < TP; i++) {
				for (size_t d = 0; d < TD; d++) {
					double rp = gsl_rng_uniform(r), rg = gsl_rng_uniform(r);
					v[i][d] = w * v[i][d] + cp * rp * (pb[i][d] - x[i][d]) +
						  cg * rg * (g[d] - x[i][d]);
					x[i][d] += v[i][d];
					if (x[i][d] < 0.0 || x[i][d] > 1.0) {
						x[i][d] = fmin(fmax(x[i][d], 0.0), 1.0);
						v[i][d] = 0.0;
						clamps++;
					}
				}
			}
		}
		double asked[TP * TD], y[TP];
		assert_int_equal(tuner_optimizer_ask(s, asked, TP), TP);
		for (size_t i = 0; i < TP; i++) {
			for (size_t d = 0; d < TD; d++)
				assert_true(fabs(asked[i * TD + d] - x[i][d]) < 1e-12);
			y[i] = outside((double[]){ x[i][0], x[i][1], 0.5 }, 3);
			if (y[i] < py[i]) {
				py[i] = y[i];
				memcpy(pb[i], x[i], sizeof pb[i]);
			}
		}
		for (size_t i = 0; i < TP; i++) {
			if (py[i] < gy) {
				gy = py[i];
				memcpy(g, pb[i], sizeof g);
			}
		}
		double told[TP];
		for (size_t i = 0; i < TP; i++)
			told[i] = outside((double[]){ asked[i * TD], asked[i * TD + 1], 0.5 }, 3);
		assert_int_equal(tuner_optimizer_tell(s, told, TP), GSL_SUCCESS);
	}
	assert_true(clamps > 0); /* the trajectory did exercise the walls */
	assert_true(tuner_optimizer_finished(s));
	assert_true(fabs(tuner_optimizer_minimum(s) - gy) < 1e-12);
	gsl_rng_free(r);
	tuner_optimizer_free(s);
}

static bool same_history(const tuner_optimizer *a, const tuner_optimizer *b)
{
	size_t n = tuner_optimizer_evaluations(a), dim = tuner_optimizer_dim(a);
	if (n != tuner_optimizer_evaluations(b))
		return false;
	for (size_t i = 0; i < n; i++) {
		tuner_optimizer_record ra = tuner_optimizer_history(a, i);
		tuner_optimizer_record rb = tuner_optimizer_history(b, i);
		if (memcmp(ra.x, rb.x, dim * sizeof(double)) != 0 ||
		    memcmp(&ra.y, &rb.y, sizeof ra.y) != 0)
			return false;
	}
	return true;
}

static void test_pso_deterministic(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 7;
	tuner_optimizer *a = start(tuner_optimizer_pso, 3, &p);
	tuner_optimizer *b = start(tuner_optimizer_pso, 3, &p);
	eval_ctx ca = { .f = rosenbrock }, cb = { .f = rosenbrock };
	run(a, &ca);
	run(b, &cb);
	assert_true(same_history(a, b));
	assert_memory_equal(tuner_optimizer_x(a), tuner_optimizer_x(b), 3 * sizeof(double));

	/* set restarts from scratch: a second run on the same instance repeats the first */
	assert_int_equal(tuner_optimizer_set(b, &p), GSL_SUCCESS);
	assert_int_equal(tuner_optimizer_evaluations(b), 0);
	assert_true(isinf(tuner_optimizer_minimum(b)));
	run(b, &cb);
	assert_true(same_history(a, b));

	p.seed = 8;
	tuner_optimizer *c = start(tuner_optimizer_pso, 3, &p);
	eval_ctx cc = { .f = rosenbrock };
	run(c, &cc);
	assert_false(same_history(a, c));

	tuner_optimizer_free(a);
	tuner_optimizer_free(b);
	tuner_optimizer_free(c);
}

/*
 * A minimum outside the cube drives particles into the walls: every proposed point stays
 * in [0,1]^3, and clamping lands exactly on the walls, so the best point has x0 == 1 and
 * x1 == 0 exactly.
 */
static void test_pso_stays_in_bounds(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 3;
	tuner_optimizer *s = start(tuner_optimizer_pso, 3, &p);
	eval_ctx ctx = { .f = outside };
	run(s, &ctx);
	assert_false(ctx.out_of_bounds);
	size_t on_wall = 0;
	for (size_t i = 0; i < tuner_optimizer_evaluations(s); i++) {
		const double *x = tuner_optimizer_history(s, i).x;
		for (size_t d = 0; d < 3; d++) {
			assert_true(x[d] >= 0.0 && x[d] <= 1.0);
			on_wall += x[d] == 0.0 || x[d] == 1.0;
		}
	}
	assert_true(on_wall > 0);
	const double *x = tuner_optimizer_x(s);
	assert_true(x[0] == 1.0);
	assert_true(x[1] == 0.0);
	assert_true(fabs(x[2] - 0.5) < 0.05);
	tuner_optimizer_free(s);
}

/* A generation is one batch; the convergence curve and history agree with the values. */
static void test_pso_generations_and_history(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 11;
	tuner_optimizer *s = start(tuner_optimizer_pso, 3, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 20);
	eval_ctx ctx = { .f = quadratic };
	size_t calls = run(s, &ctx);
	assert_int_equal(calls, 30);
	assert_int_equal(ctx.calls, 30);
	assert_int_equal(ctx.points, 600);
	assert_int_equal(tuner_optimizer_iterations(s), 30);

	double running = INFINITY;
	size_t best_index = 0;
	for (size_t i = 0; i < 600; i++) {
		tuner_optimizer_record r = tuner_optimizer_history(s, i);
		assert_int_equal(r.index, i);
		assert_int_equal(r.iteration, i / 20);
		assert_true(r.y == quadratic(r.x, 3));
		if (r.y < running) {
			running = r.y;
			best_index = i;
		}
		assert_true(r.best == running);
		if (i % 20 == 19)
			assert_true(tuner_optimizer_iteration_best(s, i / 20) == running);
	}
	assert_true(tuner_optimizer_minimum(s) == running);
	assert_memory_equal(tuner_optimizer_x(s), tuner_optimizer_history(s, best_index).x,
			    3 * sizeof(double));
	tuner_optimizer_free(s);
}

/*
 * Synchronous PSO: handing a generation out in chunks of 7 (as a caller with 7 workers
 * would) and evaluating each chunk back to front changes nothing.
 */
static void test_pso_independent_of_batch_split(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.seed = 5;
	tuner_optimizer *a = start(tuner_optimizer_pso, 3, &p);
	eval_ctx ca = { .f = quadratic };
	run(a, &ca);

	tuner_optimizer *b = start(tuner_optimizer_pso, 3, &p);
	double x[7 * 3], y[7];
	size_t n, asks = 0;
	while ((n = tuner_optimizer_ask(b, x, 7)) > 0) {
		assert_true(n <= 7);
		for (size_t i = n; i-- > 0;)
			y[i] = quadratic(x + i * 3, 3);
		assert_int_equal(tuner_optimizer_tell(b, y, n), GSL_SUCCESS);
		asks++;
	}
	assert_int_equal(asks, 30 * 3); /* 20 = 7 + 7 + 6 */
	assert_true(same_history(a, b));
	tuner_optimizer_free(a);
	tuner_optimizer_free(b);
}

/* ---- Golden Section -------------------------------------------------------------- */

/* (sqrt 5 - 1) / 2 */
static const double golden_r = 0.6180339887498949;

/*
 * Each narrowing multiplies the bracket width by r; the first costs 2 evaluations, each
 * later one 1, and the search stops as soon as width < tol without evaluating that
 * step's new point.  So: narrowings k = ceil(log(tol / width) / log r), evaluations k + 1.
 */
static size_t golden_expected_evaluations(double tol, double width)
{
	return (size_t)ceil(log(tol / width) / log(golden_r)) + 1;
}

static void golden_run(objective f, double lo, double hi, double tol, double argmin,
		       size_t expected_evals)
{
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.golden.lo = lo;
	p.golden.hi = hi;
	p.golden.tolerance = tol;
	tuner_optimizer *s = start(tuner_optimizer_golden, 1, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 2);

	double x[2], y[2];
	size_t n = tuner_optimizer_ask(s, x, 2);
	assert_int_equal(n, 2);
	/* the interior points of the first bracket, at the golden ratio */
	assert_true(fabs(x[0] - (hi - golden_r * (hi - lo))) < 1e-15);
	assert_true(fabs(x[1] - (lo + golden_r * (hi - lo))) < 1e-15);
	do {
		for (size_t i = 0; i < n; i++)
			y[i] = f(x + i, 1);
		assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
		n = tuner_optimizer_ask(s, x, 2);
		assert_true(n <= 1); /* one new point per iteration after the first */
	} while (n > 0);

	assert_true(tuner_optimizer_finished(s));
	assert_int_equal(tuner_optimizer_evaluations(s), expected_evals);
	assert_int_equal(tuner_optimizer_iterations(s), expected_evals - 1);
	double a, b;
	assert_int_equal(tuner_optimizer_golden_bracket(s, &a, &b), GSL_SUCCESS);
	assert_true(b - a < tol);
	assert_true(b - a > tol * golden_r); /* not one narrowing more than needed */
	assert_true(a <= argmin && argmin <= b);
	const double xb = tuner_optimizer_x(s)[0];
	assert_true(a <= xb && xb <= b);
	assert_true(fabs(xb - argmin) < tol);
	tuner_optimizer_free(s);
}

static void test_golden_finds_minimum_with_expected_evaluations(void **state)
{
	(void)state;
	/*
	 * The formula by hand for tol = 1e-4 on [0,1]: log(1e-4) / log(0.618034) =
	 * -9.21034 / -0.481212 = 19.14, so 20 narrowings (r^19 = 1.07e-4 is not yet below
	 * 1e-4, r^20 = 6.6e-5 is) and 21 evaluations.
	 */
	assert_true(pow(golden_r, 19) >= 1e-4 && pow(golden_r, 20) < 1e-4);
	assert_int_equal(golden_expected_evaluations(1e-4, 1.0), 21);
	golden_run(parabola_03, 0.0, 1.0, 1e-4, 0.3, 21);

	/* [0.2, 0.9], tol 1e-3: log(1e-3 / 0.7) / log r = 13.61 -> 14 narrowings, 15 evaluations */
	assert_int_equal(golden_expected_evaluations(1e-3, 0.7), 15);
	golden_run(kink_077, 0.2, 0.9, 1e-3, 0.77, 15);

	/* a minimum on the bracket's edge */
	golden_run(identity_1d, 0.0, 1.0, 1e-3, 0.0, golden_expected_evaluations(1e-3, 1.0));
}

static void test_golden_max_iterations_and_budget(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.golden.max_iterations = 3; /* batches: 2 + 1 + 1 points */
	tuner_optimizer *s = start(tuner_optimizer_golden, 1, &p);
	eval_ctx ctx = { .f = parabola_03 };
	assert_int_equal(run(s, &ctx), 3);
	assert_int_equal(tuner_optimizer_evaluations(s), 4);
	double a, b;
	assert_int_equal(tuner_optimizer_golden_bracket(s, &a, &b), GSL_SUCCESS);
	assert_true(fabs((b - a) - pow(golden_r, 3)) < 1e-12);
	tuner_optimizer_free(s);

	p.golden.max_iterations = 100;
	p.budget = 1;
	s = start(tuner_optimizer_golden, 1, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 1);
	ctx = (eval_ctx){ .f = parabola_03 };
	run(s, &ctx);
	assert_int_equal(tuner_optimizer_evaluations(s), 1);
	assert_int_equal(ctx.points, 1);
	tuner_optimizer_free(s);

	p.budget = 6;
	s = start(tuner_optimizer_golden, 1, &p);
	ctx = (eval_ctx){ .f = parabola_03 };
	run(s, &ctx);
	assert_int_equal(tuner_optimizer_evaluations(s), 6);
	tuner_optimizer_free(s);

	s = start(tuner_optimizer_pso, 1, NULL);
	assert_int_equal(tuner_optimizer_golden_bracket(s, &a, &b), GSL_EINVAL);
	tuner_optimizer_free(s);
}

/* ---- grid and random ------------------------------------------------------------- */

static void test_grid_visits_every_point(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.grid.points = 5;
	tuner_optimizer *s = start(tuner_optimizer_grid, 3, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 64);

	double x[64 * 3], y[64];
	size_t sizes[4] = { 0 }, asks = 0, n;
	while ((n = tuner_optimizer_ask(s, x, 64)) > 0) {
		assert_true(asks < 4);
		sizes[asks++] = n;
		for (size_t i = 0; i < n; i++)
			y[i] = quadratic(x + 3 * i, 3);
		assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
	}
	assert_int_equal(asks, 2); /* 125 = 64 + 61 */
	assert_int_equal(sizes[0], 64);
	assert_int_equal(sizes[1], 61);
	assert_int_equal(tuner_optimizer_evaluations(s), 125);

	/* every lattice point exactly once: point i has digits i in base 5, first outermost */
	bool seen[125] = { false };
	for (size_t i = 0; i < 125; i++) {
		const double *xi = tuner_optimizer_history(s, i).x;
		size_t index = 0;
		for (size_t d = 0; d < 3; d++) {
			double k = xi[d] * 4.0;
			assert_true(k == floor(k) && k >= 0.0 && k <= 4.0);
			index = index * 5 + (size_t)k;
		}
		assert_int_equal(index, i);
		assert_false(seen[index]);
		seen[index] = true;
	}

	/* The quadratic is separable, so the best lattice point is the nearest one per
	 * coordinate: 0.3 -> 0.25, 0.7 -> 0.75, 0.55 -> 0.5. */
	const double best[3] = { 0.25, 0.75, 0.5 };
	assert_memory_equal(tuner_optimizer_x(s), best, sizeof best);
	assert_true(fabs(tuner_optimizer_minimum(s) - 3 * 0.05 * 0.05) < 1e-15);
	tuner_optimizer_free(s);
}

static void test_grid_single_point_and_budget(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.grid.points = 1;
	tuner_optimizer *s = start(tuner_optimizer_grid, 2, &p);
	eval_ctx ctx = { .f = quadratic };
	run(s, &ctx);
	assert_int_equal(tuner_optimizer_evaluations(s), 1);
	assert_true(tuner_optimizer_x(s)[0] == 0.5 && tuner_optimizer_x(s)[1] == 0.5);
	tuner_optimizer_free(s);

	p.grid.points = 5;
	p.budget = 70;
	s = start(tuner_optimizer_grid, 3, &p);
	ctx = (eval_ctx){ .f = quadratic };
	assert_int_equal(run(s, &ctx), 2); /* 64 + 6 */
	assert_int_equal(tuner_optimizer_evaluations(s), 70);
	tuner_optimizer_free(s);
}

static void test_random_respects_budget(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.budget = 150;
	p.seed = 99;
	tuner_optimizer *s = start(tuner_optimizer_random, 2, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 64);
	double x[100 * 2], y[100];
	const size_t expected[] = { 64, 64, 22 };
	for (size_t k = 0; k < 3; k++) {
		size_t n = tuner_optimizer_ask(s, x, 100);
		assert_int_equal(n, expected[k]);
		for (size_t i = 0; i < n; i++) {
			assert_true(x[2 * i] >= 0.0 && x[2 * i] <= 1.0);
			assert_true(x[2 * i + 1] >= 0.0 && x[2 * i + 1] <= 1.0);
			y[i] = quadratic(x + 2 * i, 2);
		}
		assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
	}
	assert_true(tuner_optimizer_finished(s));
	assert_int_equal(tuner_optimizer_ask(s, x, 100), 0);
	assert_int_equal(tuner_optimizer_evaluations(s), 150);
	/* 150 uniform points in the square: the best is close to (0.3, 0.7) */
	assert_true(max_abs_diff(tuner_optimizer_x(s), quad_centre, 2) < 0.1);
	tuner_optimizer_free(s);

	p.budget = 10;
	s = start(tuner_optimizer_random, 2, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 10);
	tuner_optimizer_free(s);
}

/* ---- the ask/tell/iterate contract ---------------------------------------------- */

static void test_ask_tell_contract(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.budget = 50;
	tuner_optimizer *s = start(tuner_optimizer_pso, 3, &p);
	assert_int_equal(tuner_optimizer_batch_max(s), 20);
	double x[64 * 3], x2[64 * 3], y[64];

	double one = 1.0;
	assert_int_equal(tuner_optimizer_tell(s, &one, 1), GSL_EINVAL); /* nothing asked */
	assert_int_equal(tuner_optimizer_ask(s, x, 0), 0);

	size_t n = tuner_optimizer_ask(s, x, 64);
	assert_int_equal(n, 20);
	/* asking again before telling hands out the same points */
	assert_int_equal(tuner_optimizer_ask(s, x2, 64), 20);
	assert_memory_equal(x, x2, 20 * 3 * sizeof(double));

	for (size_t i = 0; i < n; i++)
		y[i] = quadratic(x + 3 * i, 3);
	assert_int_equal(tuner_optimizer_tell(s, y, 19), GSL_EBADLEN);
	assert_int_equal(tuner_optimizer_tell(s, y, 21), GSL_EBADLEN);
	double saved = y[4];
	y[4] = NAN;
	assert_int_equal(tuner_optimizer_tell(s, y, 20), GSL_EDOM);
	y[4] = saved;
	assert_int_equal(tuner_optimizer_evaluations(s), 0); /* errors changed nothing */
	assert_int_equal(tuner_optimizer_tell(s, y, 20), GSL_SUCCESS);
	assert_int_equal(tuner_optimizer_tell(s, y, 20), GSL_EINVAL); /* told already */

	assert_int_equal(tuner_optimizer_ask(s, x, 64), 20);
	for (size_t i = 0; i < 20; i++)
		y[i] = quadratic(x + 3 * i, 3);
	assert_int_equal(tuner_optimizer_tell(s, y, 20), GSL_SUCCESS);
	assert_false(tuner_optimizer_finished(s));

	n = tuner_optimizer_ask(s, x, 64); /* the budget leaves 10 of the third generation */
	assert_int_equal(n, 10);
	for (size_t i = 0; i < n; i++)
		y[i] = INFINITY; /* failed evaluations are allowed, and never the best */
	assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
	assert_true(tuner_optimizer_finished(s));
	assert_int_equal(tuner_optimizer_evaluations(s), 50);
	assert_int_equal(tuner_optimizer_ask(s, x, 64), 0);
	assert_true(isfinite(tuner_optimizer_minimum(s)));
	tuner_optimizer_free(s);
}

static int failing_batch(const double *x, size_t n, size_t dim, double *y, void *ctx)
{
	(void)x;
	(void)n;
	(void)dim;
	(void)y;
	(void)ctx;
	return GSL_EFAILED;
}

static int forgetful_batch(const double *x, size_t n, size_t dim, double *y, void *ctx)
{
	(void)x;
	(void)dim;
	(void)ctx;
	for (size_t i = 0; i + 1 < n; i++)
		y[i] = 0.0; /* the last value is never written */
	return GSL_SUCCESS;
}

static void test_iterate_contract(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	tuner_optimizer_params_default(&p);
	p.pso.iterations = 3;
	tuner_optimizer *s = start(tuner_optimizer_pso, 2, &p);
	eval_ctx ctx = { .f = quadratic };

	assert_int_equal(tuner_optimizer_iterate(s, failing_batch, NULL), GSL_EFAILED);
	assert_int_equal(tuner_optimizer_iterate(s, forgetful_batch, NULL), GSL_EDOM);
	assert_int_equal(tuner_optimizer_evaluations(s), 0);

	assert_int_equal(tuner_optimizer_iterate(s, eval_batch, &ctx), GSL_CONTINUE);
	assert_int_equal(tuner_optimizer_iterate(s, eval_batch, &ctx), GSL_CONTINUE);
	assert_int_equal(tuner_optimizer_iterate(s, eval_batch, &ctx), GSL_SUCCESS);
	assert_true(tuner_optimizer_finished(s));
	assert_int_equal(tuner_optimizer_iterate(s, eval_batch, &ctx), GSL_SUCCESS);
	assert_int_equal(ctx.calls, 3);
	assert_int_equal(tuner_optimizer_evaluations(s), 60);
	tuner_optimizer_free(s);

	/* the unset instance reports the cube's centre and no value */
	s = tuner_optimizer_alloc(tuner_optimizer_grid, 2);
	assert_true(tuner_optimizer_finished(s));
	assert_true(tuner_optimizer_x(s)[0] == 0.5 && tuner_optimizer_x(s)[1] == 0.5);
	assert_true(isinf(tuner_optimizer_minimum(s)));
	assert_int_equal(tuner_optimizer_iterate(s, eval_batch, &ctx), GSL_EINVAL);
	tuner_optimizer_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_default),
		cmocka_unit_test(test_type_by_name),
		cmocka_unit_test(test_alloc_rejects),
		cmocka_unit_test(test_set_rejects_invalid_params),
		cmocka_unit_test(test_pso_presets),
		cmocka_unit_test(test_pso_quadratic_thesis_params),
		cmocka_unit_test(test_pso_quadratic_stable_coefficients),
		cmocka_unit_test(test_pso_rosenbrock),
		cmocka_unit_test(test_pso_update_rule_by_hand),
		cmocka_unit_test(test_pso_deterministic),
		cmocka_unit_test(test_pso_stays_in_bounds),
		cmocka_unit_test(test_pso_generations_and_history),
		cmocka_unit_test(test_pso_independent_of_batch_split),
		cmocka_unit_test(test_golden_finds_minimum_with_expected_evaluations),
		cmocka_unit_test(test_golden_max_iterations_and_budget),
		cmocka_unit_test(test_grid_visits_every_point),
		cmocka_unit_test(test_grid_single_point_and_budget),
		cmocka_unit_test(test_random_respects_budget),
		cmocka_unit_test(test_ask_tell_contract),
		cmocka_unit_test(test_iterate_contract),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
