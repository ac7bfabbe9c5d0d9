/* objectives.c - objectives with known minima and the random-search yardstick: see
 * objectives.h. */
#include "tests/support/objectives.h"

#include <math.h>
#include <stdlib.h>

#include <glib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

double tf_sphere(const double *u, size_t dim)
{
	static const double c[] = { 0.3, 0.7, 0.55, 0.4, 0.65, 0.35, 0.6, 0.45 };
	double s = 0.0;

	for (size_t d = 0; d < dim; d++)
		s += (u[d] - c[d % G_N_ELEMENTS(c)]) * (u[d] - c[d % G_N_ELEMENTS(c)]);
	return s;
}

double tf_branin(const double *u, size_t dim)
{
	double x1 = 15.0 * u[0] - 5.0, x2 = 15.0 * u[1];
	double b = 5.1 / (4.0 * M_PI * M_PI), c = 5.0 / M_PI, t = 1.0 / (8.0 * M_PI);
	double q = x2 - b * x1 * x1 + c * x1 - 6.0;

	(void)dim;
	return q * q + 10.0 * (1.0 - t) * cos(x1) + 10.0;
}

double tf_rosenbrock(const double *u, size_t dim)
{
	double s = 0.0;

	for (size_t d = 0; d + 1 < dim; d++) {
		double z = 4.0 * u[d] - 2.0, z1 = 4.0 * u[d + 1] - 2.0;

		s += 100.0 * (z1 - z * z) * (z1 - z * z) + (1.0 - z) * (1.0 - z);
	}
	return s;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double tf_random_search_quantile(test_fn f, size_t dim, size_t budget, double noise_sd, double q,
				 size_t runs, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double *result = g_new(double, runs), u[16];

	g_assert(dim <= G_N_ELEMENTS(u) && runs > 0 && q > 0.0 && q < 1.0);
	gsl_rng_set(r, seed);
	for (size_t k = 0; k < runs; k++) {
		double best_seen = INFINITY, best_true = INFINITY;

		for (size_t i = 0; i < budget; i++) {
			for (size_t d = 0; d < dim; d++)
				u[d] = gsl_rng_uniform(r);

			double truth = f(u, dim);
			double seen =
				noise_sd > 0.0 ? truth + gsl_ran_gaussian(r, noise_sd) : truth;

			if (seen < best_seen) {
				best_seen = seen;
				best_true = truth;
			}
		}
		result[k] = best_true;
	}
	qsort(result, runs, sizeof(double), compare_double);

	double v = result[(size_t)floor(q * (double)(runs - 1))];

	g_free(result);
	gsl_rng_free(r);
	return v;
}
