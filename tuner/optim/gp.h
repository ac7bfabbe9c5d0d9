/*
 * tuner/optim/gp.h - Gaussian-process regression over the unit cube: the surrogate model of
 * Bayesian optimisation (tuner/optim/bayes.c).
 *
 * Model: y_i = m + s (f(x_i) + e_i), where m and s are the mean and standard deviation of the
 * observed values (so that f is fitted on a unit scale whatever the objective's unit), f is a
 * zero-mean Gaussian process with the Matérn 5/2 covariance with one length scale per dimension
 * (automatic relevance determination),
 *
 *     k(x, x') = sf2 (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r),   r^2 = sum_d ((x_d - x'_d) / l_d)^2,
 *
 * and e_i independent N(0, sn2) noise.  Matérn 5/2 rather than the squared exponential because
 * its sample paths are twice differentiable, not infinitely: smooth enough for a local search,
 * rough enough for a response that has kinks where the scheduler changes regime (the
 * squared-exponential kernel then needs absurdly short length scales everywhere).
 *
 * Hyper-parameters theta = (ln l_1 .. ln l_dim, ln sf2, ln sn2), dim + 2 of them, chosen by
 * maximum marginal likelihood inside fixed bounds (tuner_gp_theta_bounds): length scales
 * 0.01 .. 1 (a hundredth of the cube to the whole cube), sf2 0.01 .. 100 and sn2 1e-6 .. 1 on the
 * unit scale.  Longer length scales would let the model declare a dimension irrelevant after a
 * handful of points, and a search led by it would then stop exploring along that dimension: on
 * the tuner's hackbench (6.1, 2 CPUs, HZ 250, 5 groups x 100 loops, as the engine simulated it
 * before 6.1's buddy and wakeup-placement rules were refined) the turnaround had narrow valleys
 * along diagonals of (latency, min_granularity), where latency / min_granularity crosses a
 * threshold, which ten points cannot resolve; with an upper bound of 10 Bayesian optimisation
 * needed up to 53 evaluations (20 seeds) to come within 1% of the optimum, with 1 at most 28.  The noise floor 1e-6 keeps the covariance matrix well away from
 * singular when points repeat, which they do (a deterministic objective evaluated twice, a batch
 * of fantasies).  The bounds are enforced by a logistic map from an unbounded vector u, in which
 * GSL's BFGS (gsl_multimin_fdfminimizer_vector_bfgs2) runs with the analytic gradient; it starts
 * from the previous fit (or from l = 0.5, sf2 = 1, sn2 = 1e-3 the first time) and from
 * `restarts` more points, the best by likelihood of 10 x restarts drawn uniformly inside the
 * bounds with the caller's generator; a restart runs 15 iterations and is taken to convergence
 * only if it beats the previous fit's optimum.
 *
 * Linear algebra: the covariance matrix is factorised by GSL's modified Cholesky
 * (gsl_linalg_mcholesky_decomp), which never fails: a matrix that rounding has made indefinite
 * gets the smallest diagonal perturbation that makes it positive definite instead of an abort
 * from GSL's error handler.  With the noise floor it is not needed in practice; it is there so
 * that no data can crash the tuner.
 *
 * Predictions are of the latent f (the objective without the noise), in the objective's unit:
 * the posterior mean and standard deviation.
 *
 * Ownership and threads: an instance owns all its memory; one instance from one thread at a
 * time (predictions use the instance's scratch space).
 */
#ifndef TUNER_GP_H
#define TUNER_GP_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_rng.h>

typedef struct tuner_gp tuner_gp;

tuner_gp *tuner_gp_alloc(size_t dim);
void tuner_gp_free(tuner_gp *gp);

size_t tuner_gp_dim(const tuner_gp *gp);
/* Points in the model, fantasies (tuner_gp_add) included. */
size_t tuner_gp_size(const tuner_gp *gp);
/* dim + 2. */
size_t tuner_gp_n_theta(const tuner_gp *gp);

/*
 * Replaces the data by n points (x: n * dim unit coordinates, row-major; y: n finite values),
 * recomputes the standardisation (m, s; when fewer than two values or all equal s = 1e-6 |m|, or 1
 * if m = 0) and refactorises with the current hyper-parameters.
 */
void tuner_gp_set_data(tuner_gp *gp, const double *x, const double *y, size_t n);

/* Appends one point with the current standardisation and hyper-parameters, and refactorises:
 * a fantasy for batch selection. */
void tuner_gp_add(tuner_gp *gp, const double *x, double y);

/* Keeps the first n points (drops fantasies) and refactorises. */
void tuner_gp_truncate(tuner_gp *gp, size_t n);

/* The bounds of theta (dim + 2 values each). */
void tuner_gp_theta_bounds(size_t dim, double *lo, double *hi);
void tuner_gp_get_theta(const tuner_gp *gp, double *theta);
/* Sets theta (clamped to the bounds) and refactorises. */
void tuner_gp_set_theta(tuner_gp *gp, const double *theta);

/*
 * ln p(y | theta) of the standardised data, and its gradient with respect to theta in grad
 * (dim + 2 values) unless grad is NULL.  Does not change the fitted model.
 */
double tuner_gp_log_likelihood(tuner_gp *gp, const double *theta, double *grad);

/*
 * Maximum marginal likelihood over theta from the current theta and `restarts` random starts
 * (drawn from r), then refactorises with the best.  Needs at least two points; with fewer it
 * leaves theta alone.  Returns the maximised log likelihood.
 */
double tuner_gp_fit(tuner_gp *gp, gsl_rng *r, size_t restarts);

/* Posterior mean and standard deviation of f at x (dim unit coordinates), in y's unit.  With
 * no data: the prior (mean 0, sd sqrt(sf2)). */
void tuner_gp_predict(tuner_gp *gp, const double *x, double *mean, double *sd);

/* The standard deviation of one observation's noise, sqrt(sn2) in y's unit. */
double tuner_gp_noise_sd(const tuner_gp *gp);

#endif /* TUNER_GP_H */
