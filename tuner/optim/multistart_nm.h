/*
 * multistart_nm.h - minimise a function over a box with GSL's Nelder-Mead simplex
 * (gsl_multimin_fminimizer_nmsimplex2), restarted from several seeded points: what `tuner fit`
 * fits a model's parameters with, where every value costs a batch of simulations and gradients
 * are not to be had (a simulation's time is piecewise constant in a cost at small scales).
 *
 * Use, in GSL's style (the caller owns the loop, e.g. to show progress):
 *
 *     multistart_nm *s = multistart_nm_alloc(dim);
 *     multistart_nm_params p = { dim, lo, hi, x0, 4, 200, 0.1, 1e-3, seed };
 *     multistart_nm_set(s, &p, f, ctx);
 *     while (multistart_nm_iterate(s) == GSL_CONTINUE)
 *         ...;
 *     best: multistart_nm_x(s), multistart_nm_minimum(s); each start: multistart_nm_runs(s)
 *
 * Starts: the first from x0 (the box's centre without one), the others uniform in the box from a
 * gsl_rng_mt19937 seeded with p.seed. Each start's simplex has sides step * (hi - lo) and runs
 * until its size (gsl_multimin_fminimizer_size: the mean distance of its vertices from their
 * centre) is below tol, or for max_iter iterations, or until it makes no progress.
 *
 * The box: the simplex moves freely; f is called at the nearest point of the box, plus a penalty
 * of 100 times the squared distance outside it, so that the search comes back and the best point
 * reported is always inside. A value that is not finite (a failed evaluation) counts as 1e30,
 * since GSL's simplex refuses non-finite values.
 *
 * Determinism: the same parameters, seed and function give the same sequence of calls and the
 * same result. Errors: GSL status codes (GSL_EINVAL for bad parameters), never GSL's error
 * handler.
 */
#ifndef TUNER_OPTIM_MULTISTART_NM_H
#define TUNER_OPTIM_MULTISTART_NM_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_errno.h>

typedef struct multistart_nm multistart_nm;

/* The function to minimise at x (dim values); may return +INFINITY for a failure. */
typedef double (*multistart_nm_fn)(const double *x, void *ctx);

typedef struct {
	size_t dim;
	const double *lo, *hi; /* the box, lo[i] < hi[i] */
	const double *x0;      /* the first start (NULL: the box's centre) */
	unsigned int starts;   /* >= 1 */
	unsigned int max_iter; /* >= 1, per start */
	double step;	       /* > 0: the first simplex's side as a fraction of the box's */
	double tol;	       /* > 0: a start ends when the simplex's size is below this */
	unsigned long seed;
} multistart_nm_params;

/* What one start ended with. */
typedef struct {
	double f;
	double *x; /* dim values, inside the box */
	unsigned int iters;
	bool converged; /* its simplex shrank below tol */
} multistart_nm_run;

multistart_nm *multistart_nm_alloc(size_t dim);
void multistart_nm_free(multistart_nm *s);

/* Starts afresh with p and f (copies what p points to). GSL_EINVAL for bad parameters. */
int multistart_nm_set(multistart_nm *s, const multistart_nm_params *p, multistart_nm_fn f,
		      void *ctx);

/* One iteration of the current start's simplex (or the set-up of the next start): GSL_CONTINUE
 * while work remains, GSL_SUCCESS once every start has ended. */
int multistart_nm_iterate(multistart_nm *s);

/* The best point and value so far (over every start). */
const double *multistart_nm_x(const multistart_nm *s);
double multistart_nm_minimum(const multistart_nm *s);
/* The current start (from 0), its iterations, and calls of f in all. */
unsigned int multistart_nm_start(const multistart_nm *s);
unsigned int multistart_nm_iter(const multistart_nm *s);
size_t multistart_nm_evals(const multistart_nm *s);
/* The starts that have ended, in order; *n of them. */
const multistart_nm_run *multistart_nm_runs(const multistart_nm *s, unsigned int *n);

#endif
