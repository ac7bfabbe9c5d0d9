/*
 * tests/tuner/optim/test_bayes.c - Bayesian optimisation (tuner_optimizer_bayes): its contract (Latin
 * hypercube start, budget, batches, the model's optimum, determinism) and its results on functions
 * with known minima, with and without noise.
 *
 * Tolerances (tests/support/objectives.h): what uniform random search reaches with the same budget
 * and the same noise, over 2000 seeded runs.  Without noise the best value found must beat random
 * search's 5% quantile: an optimizer meant for expensive objectives has to do with its budget what
 * blind sampling does only once in twenty runs.  With noise the recommendation is the model's
 * predicted optimum (the best observed value is biased low by the noise), judged by its true value
 * against random search's 10% quantile: noise makes the last digits of the optimum unknowable with
 * few evaluations, for any method.  The noise sd is a quarter of the gap between the minimum and
 * random search's median result at that budget, so that it matters at the precision the test asks
 * for.  Budgets: 30 evaluations in 2-3 dimensions (the goal for the tuner's three knobs), 60
 * for Rosenbrock's curved valley.
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

#include "tests/support/objectives.h"
#include "tuner/optim/optimizer.h"

#define YARDSTICK_RUNS 2000
#define YARDSTICK_SEED 12345

static tuner_optimizer *start(size_t dim, const tuner_optimizer_params *p)
{
	tuner_optimizer *s = tuner_optimizer_alloc(tuner_optimizer_bayes, dim);

	assert_non_null(s);
	assert_int_equal(tuner_optimizer_set(s, p), GSL_SUCCESS);
	return s;
}

/* Runs s to the end on f plus N(0, noise_sd^2) noise (seeded). */
static void run(tuner_optimizer *s, test_fn f, double noise_sd, unsigned long noise_seed)
{
	const size_t dim = tuner_optimizer_dim(s);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[64 * 8], y[64];
	size_t n;

	gsl_rng_set(r, noise_seed);
	while ((n = tuner_optimizer_ask(s, x, 64)) > 0) {
		for (size_t i = 0; i < n; i++) {
			for (size_t d = 0; d < dim; d++)
				assert_true(x[i * dim + d] >= 0.0 && x[i * dim + d] <= 1.0);
			y[i] = f(x + i * dim, dim) +
			       (noise_sd > 0 ? gsl_ran_gaussian(r, noise_sd) : 0);
		}
		assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
	}
	gsl_rng_free(r);
}

/* ---- contract ------------------------------------------------------------------------------ */

static void expect_rejected(const tuner_optimizer_params *p, const char *needle)
{
	GError *error = NULL;

	assert_false(tuner_optimizer_params_check(tuner_optimizer_bayes, 3, p, &error));
	if (strstr(error->message, needle) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", error->message, needle);
	g_error_free(error);
}

static void test_rejects_invalid_params(void **state)
{
	(void)state;
	tuner_optimizer_params d, p;

	tuner_optimizer_params_default(&d);
	expect_rejected(&d, "budget");
	d.budget = 20;
	p = d;
	p.bayes.batch = 0;
	expect_rejected(&p, "batch");
	p = d;
	p.bayes.candidates = 2;
	p.bayes.starts = 3;
	expect_rejected(&p, "candidates");
	p = d;
	p.bayes.rule = (tuner_bayes_batch_rule)7;
	expect_rejected(&p, "rule");
	assert_true(tuner_optimizer_params_check(tuner_optimizer_bayes, 3, &d, NULL));
	assert_ptr_equal(tuner_optimizer_type_by_name("bayes"), tuner_optimizer_bayes);
}

/*
 * The first batch is the Latin hypercube: 2 dim + 1 = 7 points in 3-D, and in every dimension
 * exactly one of them in each stratum [k/7, (k+1)/7).  No model before it is evaluated.
 */
static void test_first_batch_is_latin_hypercube(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	double x[7 * 3], m[3], mean, sd;

	tuner_optimizer_params_default(&p);
	p.budget = 10;
	tuner_optimizer *s = start(3, &p);

	assert_int_equal(tuner_optimizer_batch_max(s), 7);
	assert_int_equal(tuner_optimizer_ask(s, x, 7), 7);
	for (size_t d = 0; d < 3; d++) {
		int seen[7] = { 0 };

		for (size_t i = 0; i < 7; i++)
			seen[(int)floor(x[i * 3 + d] * 7)]++;
		for (size_t k = 0; k < 7; k++)
			assert_int_equal(seen[k], 1);
	}
	assert_int_equal(tuner_optimizer_model_optimum(s, m, &mean, &sd), GSL_EINVAL);
	tuner_optimizer_free(s);
}

/*
 * Budget 14 with batches of 3 (constant liar) in 2-D: 5 + 3 + 3 + 3 evaluations in four
 * iterations, the first the Latin hypercube of 2 dim + 1 points; the
 * points of a batch are distinct (the liar removes a chosen point's improvement); after every
 * iteration the model's optimum exists, lies in the cube and its mean is within the range of the
 * values seen (a quadratic bowl: the model interpolates, it does not invent a deeper minimum by
 * more than the data's spread).
 */
static void test_batches_and_model_optimum(void **state)
{
	(void)state;
	tuner_optimizer_params p;

	tuner_optimizer_params_default(&p);
	p.budget = 14;
	p.bayes.batch = 3;
	p.bayes.rule = TUNER_BAYES_LIAR;
	tuner_optimizer *s = start(2, &p);
	double x[7 * 2], y[7];
	size_t n, sizes[8], k = 0;

	while ((n = tuner_optimizer_ask(s, x, 7)) > 0) {
		for (size_t i = 0; i < n; i++)
			y[i] = tf_sphere(x + 2 * i, 2);
		for (size_t i = 0; i < n && k > 0; i++)
			for (size_t j = 0; j < i; j++)
				assert_false(x[2 * i] == x[2 * j] && x[2 * i + 1] == x[2 * j + 1]);
		assert_int_equal(tuner_optimizer_tell(s, y, n), GSL_SUCCESS);
		sizes[k++] = n;

		double m[2], mean, sd, lo = INFINITY, hi = -INFINITY;

		assert_int_equal(tuner_optimizer_model_optimum(s, m, &mean, &sd), GSL_SUCCESS);
		for (size_t i = 0; i < tuner_optimizer_evaluations(s); i++) {
			lo = fmin(lo, tuner_optimizer_history(s, i).y);
			hi = fmax(hi, tuner_optimizer_history(s, i).y);
		}
		assert_true(m[0] >= 0 && m[0] <= 1 && m[1] >= 0 && m[1] <= 1);
		assert_true(mean >= lo - (hi - lo) && mean <= hi);
		assert_true(sd >= 0 && isfinite(sd));
	}
	assert_int_equal(k, 4);
	assert_true(sizes[0] == 5 && sizes[1] == 3 && sizes[2] == 3 && sizes[3] == 3);
	assert_int_equal(tuner_optimizer_evaluations(s), 14);
	assert_true(tuner_optimizer_finished(s));
	tuner_optimizer_free(s);

	/* Types without a model say so. */
	tuner_optimizer_params_default(&p);
	tuner_optimizer *pso = tuner_optimizer_alloc(tuner_optimizer_pso, 2);
	double m[2], mean, sd;

	assert_int_equal(tuner_optimizer_set(pso, &p), GSL_SUCCESS);
	assert_int_equal(tuner_optimizer_model_optimum(pso, m, &mean, &sd), GSL_EINVAL);
	tuner_optimizer_free(pso);
}

/* Same seed, same values: the same points, bit for bit; another seed, other points. */
static void test_deterministic(void **state)
{
	(void)state;
	tuner_optimizer_params p;

	tuner_optimizer_params_default(&p);
	p.budget = 12;
	p.bayes.batch = 2;
	tuner_optimizer *a = start(2, &p), *b = start(2, &p);

	run(a, tf_branin, 0, 1);
	run(b, tf_branin, 0, 1);
	for (size_t i = 0; i < 12; i++)
		assert_memory_equal(tuner_optimizer_history(a, i).x,
				    tuner_optimizer_history(b, i).x, 2 * sizeof(double));
	p.seed = 2;
	tuner_optimizer *c = start(2, &p);

	run(c, tf_branin, 0, 1);
	assert_memory_not_equal(tuner_optimizer_history(a, 0).x, tuner_optimizer_history(c, 0).x,
				2 * sizeof(double));
	tuner_optimizer_free(a);
	tuner_optimizer_free(b);
	tuner_optimizer_free(c);
}

/* Failed evaluations (+INFINITY) are survivable: the model sees them as the worst value. */
static double fails_on_left(const double *u, size_t dim)
{
	return u[0] < 0.3 ? INFINITY : tf_sphere(u, dim);
}

static void test_infinite_values(void **state)
{
	(void)state;
	tuner_optimizer_params p;

	tuner_optimizer_params_default(&p);
	p.budget = 15;
	tuner_optimizer *s = start(2, &p);

	run(s, fails_on_left, 0, 1);
	assert_true(isfinite(tuner_optimizer_minimum(s)));
	tuner_optimizer_free(s);
}

/* A flat objective (a plateau of the scheduler's response) gives the model nothing to fit: it
 * still proposes points in the cube, and predicts the plateau's value with no doubt about it. */
static double flat(const double *u, size_t dim)
{
	(void)u;
	(void)dim;
	return 5.0;
}

static void test_flat_values(void **state)
{
	(void)state;
	tuner_optimizer_params p;
	double m[2], mean, sd;

	tuner_optimizer_params_default(&p);
	p.budget = 9;
	tuner_optimizer *s = start(2, &p);

	run(s, flat, 0, 1);
	assert_int_equal(tuner_optimizer_model_optimum(s, m, &mean, &sd), GSL_SUCCESS);
	assert_true(fabs(mean - 5.0) < 1e-9 && sd >= 0 && sd < 1e-3);
	tuner_optimizer_free(s);
}

/* ---- known minima -------------------------------------------------------------------------- */

/* One seeded run (seed 1) of budget evaluations; asserts the result beats the yardstick. */
static void known_minimum(test_fn f, size_t dim, double f_min, size_t budget, bool noisy)
{
	double median =
		tf_random_search_quantile(f, dim, budget, 0, 0.5, YARDSTICK_RUNS, YARDSTICK_SEED);
	double noise = noisy ? (median - f_min) / 4 : 0;
	double bar = tf_random_search_quantile(f, dim, budget, noise, noisy ? 0.10 : 0.05,
					       YARDSTICK_RUNS, YARDSTICK_SEED);
	tuner_optimizer_params p;

	tuner_optimizer_params_default(&p);
	p.budget = budget;
	tuner_optimizer *s = start(dim, &p);

	run(s, f, noise, 99);
	assert_int_equal(tuner_optimizer_evaluations(s), budget);

	double got;

	if (noisy) {
		double m[8], mean, sd;

		assert_int_equal(tuner_optimizer_model_optimum(s, m, &mean, &sd), GSL_SUCCESS);
		got = f(m, dim);
	} else {
		got = tuner_optimizer_minimum(s);
	}
	if (!(got <= bar))
		fail_msg("bayes reached %.6g, random search's %s quantile is %.6g (noise sd %.4g)",
			 got, noisy ? "10%" : "5%", bar, noise);
	tuner_optimizer_free(s);
}

static void test_sphere(void **state)
{
	(void)state;
	known_minimum(tf_sphere, 3, 0.0, 30, false);
}

static void test_sphere_noisy(void **state)
{
	(void)state;
	known_minimum(tf_sphere, 3, 0.0, 30, true);
}

static void test_branin(void **state)
{
	(void)state;
	known_minimum(tf_branin, 2, TF_BRANIN_MIN, 30, false);
}

static void test_branin_noisy(void **state)
{
	(void)state;
	known_minimum(tf_branin, 2, TF_BRANIN_MIN, 30, true);
}

static void test_rosenbrock(void **state)
{
	(void)state;
	known_minimum(tf_rosenbrock, 2, 0.0, 60, false);
}

static void test_rosenbrock_noisy(void **state)
{
	(void)state;
	known_minimum(tf_rosenbrock, 2, 0.0, 60, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects_invalid_params),
		cmocka_unit_test(test_first_batch_is_latin_hypercube),
		cmocka_unit_test(test_batches_and_model_optimum),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_infinite_values),
		cmocka_unit_test(test_flat_values),
		cmocka_unit_test(test_sphere),
		cmocka_unit_test(test_sphere_noisy),
		cmocka_unit_test(test_branin),
		cmocka_unit_test(test_branin_noisy),
		cmocka_unit_test(test_rosenbrock),
		cmocka_unit_test(test_rosenbrock_noisy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
