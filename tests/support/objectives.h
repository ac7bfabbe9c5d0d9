/*
 * objectives.h - objectives with known minima for the optimizer tests, and the yardstick their
 * tolerances are computed with: what uniform random search achieves on the same function with the
 * same budget and the same noise.
 *
 * All three take unit coordinates (the optimizers' cube):
 * - sphere: sum (u_d - c_d)^2 with c = (0.3, 0.7, 0.55, 0.4, ...), minimum 0 at c (off-centre, so that
 *   a search biased towards the middle or the corners gains nothing);
 * - Branin (2-D): x1 = 15 u1 - 5 in [-5, 10], x2 = 15 u2 in [0, 15],
 *   (x2 - 5.1 x1^2 / (4 pi^2) + 5 x1 / pi - 6)^2 + 10 (1 - 1 / (8 pi)) cos x1 + 10, minimum
 *   5/(4 pi) = 0.397887... at three points, (-pi, 12.275), (pi, 2.275), (3 pi, 2.475);
 * - Rosenbrock: z = 4 u - 2 in [-2, 2]^dim, sum 100 (z_{d+1} - z_d^2)^2 + (1 - z_d)^2, minimum 0 at
 *   z = 1 (u = 0.75), at the end of a long curved valley.
 *
 * Why random search is the yardstick: a tolerance such as "within 0.01 of the minimum" says nothing
 * unless one knows how hard 0.01 is on that function with that budget; the quantile of random
 * search's result is exactly that, and it is computed here from the function, never from the
 * optimizer under test.  An optimizer whose single seeded run beats random search's q-quantile does
 * what a blind search does only with probability q.
 */
#ifndef TESTS_SUPPORT_OBJECTIVES_H
#define TESTS_SUPPORT_OBJECTIVES_H

#include <stddef.h>

typedef double (*test_fn)(const double *u, size_t dim);

double tf_sphere(const double *u, size_t dim);
double tf_branin(const double *u, size_t dim);
double tf_rosenbrock(const double *u, size_t dim);

/* 5 / (4 pi), Branin's minimum. */
#define TF_BRANIN_MIN 0.39788735772973833942

/*
 * The q-quantile (0 < q < 1) over `runs` seeded runs of random search with `budget` uniform points,
 * each value observed with added N(0, noise_sd^2) noise: the true f at the point whose observed
 * value was lowest (the point random search would recommend).  Seeded, so the same arguments give
 * the same number.
 */
double tf_random_search_quantile(test_fn f, size_t dim, size_t budget, double noise_sd, double q,
				 size_t runs, unsigned long seed);

#endif /* TESTS_SUPPORT_OBJECTIVES_H */
