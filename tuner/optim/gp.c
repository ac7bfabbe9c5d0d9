/*
 * tuner/optim/gp.c - Gaussian-process regression with a Matérn 5/2 ARD kernel (see gp.h).
 *
 * The log marginal likelihood of the standardised values z = (y - m) / s is
 *
 *     L = -z' K^-1 z / 2 - ln det K / 2 - n ln(2 pi) / 2,   K = Kf + sn2 I,
 *
 * and its derivative along any hyper-parameter t is tr(W dK/dt) / 2 with W = a a' - K^-1,
 * a = K^-1 z (Rasmussen and Williams, Gaussian Processes for Machine Learning, eq. 5.9).  For
 * the Matérn 5/2 kernel, with q = sqrt5 r,
 *
 *     dk/d ln l_d = sf2 (5/3) (1 + q) exp(-q) ((x_d - x'_d) / l_d)^2,
 *     dk/d ln sf2 = k,        dK/d ln sn2 = sn2 I.
 */
#include "tuner/optim/gp.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multimin.h>

#define SQRT5 2.2360679774997896964

/* Bounds of the hyper-parameters on the unit scale (see gp.h for why). */
#define LEN_LO	     0.01
#define LEN_HI	     1.0
#define SF2_LO	     0.01
#define SF2_HI	     100.0
#define SN2_LO	     1e-6
#define SN2_HI	     1.0
/* The first start when there is no earlier fit. */
#define LEN_0	     0.5
#define SF2_0	     1.0
#define SN2_0	     1e-3
/* BFGS: at most this many iterations per start; stop when |gradient| (in u) is below. */
#define FIT_ITER     40
#define FIT_GTOL     1e-3
/* ... or when the last FIT_STALL iterations together gained less than FIT_FTOL (nats): the
 * likelihood is flat along some direction, as it is when a bound is reached. */
#define FIT_STALL    3
#define FIT_FTOL     1e-4
/* Random draws looked at per random restart; the restarts start from the best draws. */
#define SCREEN	     10
/* A restart runs this many iterations: enough to tell whether it climbs a better hill than
 * the previous fit's; only a restart that beats it is taken to convergence. */
#define RESTART_ITER 15

struct tuner_gp {
	size_t dim, n, cap;
	double *x; /* cap * dim */
	double *y; /* cap, in y's unit */
	double m, s;
	double *theta; /* dim + 2 */

	/* The model at theta: the factor P K P' = L D L' (gsl_linalg_mcholesky_decomp's layout)
	 * and a = K^-1 z; NULL when n = 0. */
	gsl_matrix *ldlt;
	gsl_permutation *perm;
	gsl_vector *alpha;
	double *inv_len; /* 1 / l_d */
	double sf2, sn2;

	double *kstar; /* cap: scratch for predictions */
	gsl_vector *v; /* n: scratch for predictions */
};

static double matern52(double r, double sf2)
{
	double q = SQRT5 * r;

	return sf2 * (1.0 + q + q * q / 3.0) * exp(-q);
}

/* r between two points, with inv_len the inverse length scales. */
static double scaled_distance(const double *a, const double *b, const double *inv_len, size_t dim)
{
	double r2 = 0.0;

	for (size_t d = 0; d < dim; d++) {
		double t = (a[d] - b[d]) * inv_len[d];

		r2 += t * t;
	}
	return sqrt(r2);
}

static void theta_unpack(size_t dim, const double *theta, double *inv_len, double *sf2, double *sn2)
{
	for (size_t d = 0; d < dim; d++)
		inv_len[d] = exp(-theta[d]);
	*sf2 = exp(theta[dim]);
	*sn2 = exp(theta[dim + 1]);
}

void tuner_gp_theta_bounds(size_t dim, double *lo, double *hi)
{
	for (size_t d = 0; d < dim; d++) {
		lo[d] = log(LEN_LO);
		hi[d] = log(LEN_HI);
	}
	lo[dim] = log(SF2_LO);
	hi[dim] = log(SF2_HI);
	lo[dim + 1] = log(SN2_LO);
	hi[dim + 1] = log(SN2_HI);
}

tuner_gp *tuner_gp_alloc(size_t dim)
{
	g_return_val_if_fail(dim > 0, NULL);

	tuner_gp *gp = g_new0(tuner_gp, 1);

	gp->dim = dim;
	gp->s = 1.0;
	gp->theta = g_new(double, dim + 2);
	gp->inv_len = g_new(double, dim);
	for (size_t d = 0; d < dim; d++)
		gp->theta[d] = log(LEN_0);
	gp->theta[dim] = log(SF2_0);
	gp->theta[dim + 1] = log(SN2_0);
	theta_unpack(dim, gp->theta, gp->inv_len, &gp->sf2, &gp->sn2);
	return gp;
}

static void clear_model(tuner_gp *gp)
{
	g_clear_pointer(&gp->ldlt, gsl_matrix_free);
	g_clear_pointer(&gp->perm, gsl_permutation_free);
	g_clear_pointer(&gp->alpha, gsl_vector_free);
	g_clear_pointer(&gp->v, gsl_vector_free);
}

void tuner_gp_free(tuner_gp *gp)
{
	if (gp == NULL)
		return;
	clear_model(gp);
	g_free(gp->x);
	g_free(gp->y);
	g_free(gp->theta);
	g_free(gp->inv_len);
	g_free(gp->kstar);
	g_free(gp);
}

size_t tuner_gp_dim(const tuner_gp *gp)
{
	return gp->dim;
}

size_t tuner_gp_size(const tuner_gp *gp)
{
	return gp->n;
}

size_t tuner_gp_n_theta(const tuner_gp *gp)
{
	return gp->dim + 2;
}

double tuner_gp_noise_sd(const tuner_gp *gp)
{
	return sqrt(gp->sn2) * gp->s;
}

static void reserve(tuner_gp *gp, size_t n)
{
	if (n <= gp->cap)
		return;
	gp->cap = MAX(n, 2 * gp->cap);
	gp->x = g_renew(double, gp->x, gp->cap * gp->dim);
	gp->y = g_renew(double, gp->y, gp->cap);
	gp->kstar = g_renew(double, gp->kstar, gp->cap);
}

/* K = Kf + sn2 I at theta, n x n, both triangles. */
static void covariance(const tuner_gp *gp, const double *inv_len, double sf2, double sn2,
		       gsl_matrix *K)
{
	for (size_t i = 0; i < gp->n; i++) {
		const double *xi = gp->x + i * gp->dim;

		gsl_matrix_set(K, i, i, sf2 + sn2);
		for (size_t j = 0; j < i; j++) {
			double r = scaled_distance(xi, gp->x + j * gp->dim, inv_len, gp->dim);
			double k = matern52(r, sf2);

			gsl_matrix_set(K, i, j, k);
			gsl_matrix_set(K, j, i, k);
		}
	}
}

/* The standardised values. */
static gsl_vector *standardised(const tuner_gp *gp)
{
	gsl_vector *z = gsl_vector_alloc(gp->n);

	for (size_t i = 0; i < gp->n; i++)
		gsl_vector_set(z, i, (gp->y[i] - gp->m) / gp->s);
	return z;
}

/* Factorises K in place (P K P' = L D L'), a = K^-1 z; returns ln det K. */
static double factorise(gsl_matrix *K, gsl_permutation *p, const gsl_vector *z, gsl_vector *a)
{
	gsl_linalg_mcholesky_decomp(K, p, NULL);
	gsl_linalg_mcholesky_solve(K, p, z, a);

	double logdet = 0.0;

	for (size_t i = 0; i < K->size1; i++)
		logdet += log(gsl_matrix_get(K, i, i));
	return logdet;
}

/*
 * M = (P K P')^-1 = L^-T D^-1 L^-1 in the lower triangle of m, from the factor: the inverse in
 * the factor's own order, so that K^-1[p_a][p_b] = M[a][b] needs no permuting.
 */
static void permuted_inverse(const gsl_matrix *ldlt, gsl_matrix *m)
{
	const size_t n = ldlt->size1;

	gsl_matrix_memcpy(m, ldlt);
	gsl_linalg_tri_lower_unit_invert(m);
	for (size_t a = 0; a < n; a++) {
		double s = 1.0 / sqrt(gsl_matrix_get(ldlt, a, a));
		gsl_vector_view row = gsl_matrix_subrow(m, a, 0, a + 1);

		gsl_matrix_set(m, a, a, 1.0);
		gsl_blas_dscal(s, &row.vector);
	}
	gsl_linalg_tri_LTL(m);
}

/* Rebuilds the factor and a at the current theta. */
static void refactorise(tuner_gp *gp)
{
	clear_model(gp);
	theta_unpack(gp->dim, gp->theta, gp->inv_len, &gp->sf2, &gp->sn2);
	if (gp->n == 0)
		return;

	gsl_vector *z = standardised(gp);

	gp->ldlt = gsl_matrix_alloc(gp->n, gp->n);
	gp->perm = gsl_permutation_alloc(gp->n);
	gp->alpha = gsl_vector_alloc(gp->n);
	gp->v = gsl_vector_alloc(gp->n);
	covariance(gp, gp->inv_len, gp->sf2, gp->sn2, gp->ldlt);
	factorise(gp->ldlt, gp->perm, z, gp->alpha);
	gsl_vector_free(z);
}

void tuner_gp_set_data(tuner_gp *gp, const double *x, const double *y, size_t n)
{
	reserve(gp, n);
	gp->n = n;
	memcpy(gp->x, x, n * gp->dim * sizeof(double));
	memcpy(gp->y, y, n * sizeof(double));

	double mean = 0.0, ss = 0.0;

	for (size_t i = 0; i < n; i++)
		mean += y[i];
	mean = n > 0 ? mean / (double)n : 0.0;
	for (size_t i = 0; i < n; i++)
		ss += (y[i] - mean) * (y[i] - mean);
	gp->m = mean;
	/* Values that do not vary have no scale of their own: a millionth of their size, so that
	 * the model's uncertainty about them is negligible in their unit, not a whole unit. */
	gp->s = n > 1 && ss > 0.0 ? sqrt(ss / (double)(n - 1))
		: mean != 0.0	  ? 1e-6 * fabs(mean)
				  : 1.0;
	refactorise(gp);
}

void tuner_gp_add(tuner_gp *gp, const double *x, double y)
{
	reserve(gp, gp->n + 1);
	memcpy(gp->x + gp->n * gp->dim, x, gp->dim * sizeof(double));
	gp->y[gp->n] = y;
	gp->n++;
	refactorise(gp);
}

void tuner_gp_truncate(tuner_gp *gp, size_t n)
{
	if (n < gp->n) {
		gp->n = n;
		refactorise(gp);
	}
}

void tuner_gp_get_theta(const tuner_gp *gp, double *theta)
{
	memcpy(theta, gp->theta, (gp->dim + 2) * sizeof(double));
}

void tuner_gp_set_theta(tuner_gp *gp, const double *theta)
{
	size_t nt = gp->dim + 2;
	double lo[nt], hi[nt];

	tuner_gp_theta_bounds(gp->dim, lo, hi);
	for (size_t j = 0; j < nt; j++)
		gp->theta[j] = fmin(fmax(theta[j], lo[j]), hi[j]);
	refactorise(gp);
}

double tuner_gp_log_likelihood(tuner_gp *gp, const double *theta, double *grad)
{
	const size_t n = gp->n, dim = gp->dim;

	if (n == 0) {
		if (grad != NULL)
			memset(grad, 0, (dim + 2) * sizeof(double));
		return 0.0;
	}

	double inv_len[dim], sf2, sn2;

	theta_unpack(dim, theta, inv_len, &sf2, &sn2);

	gsl_matrix *K = gsl_matrix_alloc(n, n);
	gsl_permutation *p = gsl_permutation_alloc(n);
	gsl_vector *z = standardised(gp);
	gsl_vector *a = gsl_vector_alloc(n);

	covariance(gp, inv_len, sf2, sn2, K);

	double logdet = factorise(K, p, z, a), za;

	gsl_blas_ddot(z, a, &za);

	double L = -0.5 * za - 0.5 * logdet - 0.5 * (double)n * log(2.0 * M_PI);

	if (grad != NULL) {
		gsl_matrix *M = gsl_matrix_alloc(n, n);

		permuted_inverse(K, M);
		/* W = a a' - K^-1, symmetric: the pairs below the diagonal twice, plus the
		 * diagonal; walked in the factor's order (b < c) so that K^-1 is read from M. */
		memset(grad, 0, (dim + 2) * sizeof(double));
		for (size_t c = 0; c < n; c++) {
			size_t i = gsl_permutation_get(p, c);
			const double *xi = gp->x + i * dim;
			double ai = gsl_vector_get(a, i);

			for (size_t b = 0; b < c; b++) {
				size_t j = gsl_permutation_get(p, b);
				const double *xj = gp->x + j * dim;
				double w =
					2.0 * (ai * gsl_vector_get(a, j) - gsl_matrix_get(M, c, b));
				double r = scaled_distance(xi, xj, inv_len, dim), q = SQRT5 * r;
				double e = exp(-q);
				double common = sf2 * (5.0 / 3.0) * (1.0 + q) * e;

				for (size_t d = 0; d < dim; d++) {
					double t = (xi[d] - xj[d]) * inv_len[d];

					grad[d] += w * common * t * t;
				}
				grad[dim] += w * sf2 * (1.0 + q + q * q / 3.0) * e;
			}
			double w = ai * ai - gsl_matrix_get(M, c, c);

			grad[dim] += w * sf2;
			grad[dim + 1] += w * sn2;
		}
		for (size_t j = 0; j < dim + 2; j++)
			grad[j] *= 0.5;
		gsl_matrix_free(M);
	}
	gsl_vector_free(a);
	gsl_vector_free(z);
	gsl_permutation_free(p);
	gsl_matrix_free(K);
	return L;
}

/* ---- maximum likelihood ------------------------------------------------------------------ */

/* theta_j = lo_j + (hi_j - lo_j) / (1 + exp(-u_j)): BFGS runs unconstrained in u. */
typedef struct {
	tuner_gp *gp;
	const double *lo, *hi;
	double *theta, *grad; /* scratch, dim + 2 */
} fit_ctx;

static double logistic(double u)
{
	return 1.0 / (1.0 + exp(-u));
}

static void u_to_theta(const fit_ctx *c, const gsl_vector *u)
{
	for (size_t j = 0; j < u->size; j++)
		c->theta[j] = c->lo[j] + (c->hi[j] - c->lo[j]) * logistic(gsl_vector_get(u, j));
}

static void theta_to_u(const double *lo, const double *hi, const double *theta, gsl_vector *u)
{
	for (size_t j = 0; j < u->size; j++) {
		double f = (theta[j] - lo[j]) / (hi[j] - lo[j]);

		f = fmin(fmax(f, 1e-6), 1.0 - 1e-6);
		gsl_vector_set(u, j, log(f / (1.0 - f)));
	}
}

static void neg_fdf(const gsl_vector *u, void *vc, double *f, gsl_vector *df)
{
	fit_ctx *c = vc;

	u_to_theta(c, u);

	double L = tuner_gp_log_likelihood(c->gp, c->theta, df != NULL ? c->grad : NULL);

	if (f != NULL)
		*f = isfinite(L) ? -L : GSL_POSINF;
	if (df != NULL) {
		for (size_t j = 0; j < u->size; j++) {
			double s = logistic(gsl_vector_get(u, j));

			gsl_vector_set(df, j, -c->grad[j] * (c->hi[j] - c->lo[j]) * s * (1.0 - s));
		}
	}
}

static double neg_f(const gsl_vector *u, void *vc)
{
	double f;

	neg_fdf(u, vc, &f, NULL);
	return f;
}

static void neg_df(const gsl_vector *u, void *vc, gsl_vector *df)
{
	neg_fdf(u, vc, NULL, df);
}

/* One BFGS run from theta0; writes the optimum to theta_out and returns its L. */
static double fit_from(fit_ctx *c, gsl_multimin_fdfminimizer *m, const double *theta0, int max_iter,
		       double *theta_out)
{
	size_t nt = c->gp->dim + 2;
	gsl_vector *u = gsl_vector_alloc(nt);
	gsl_multimin_function_fdf fn = {
		.f = neg_f, .df = neg_df, .fdf = neg_fdf, .n = nt, .params = c
	};

	theta_to_u(c->lo, c->hi, theta0, u);
	gsl_multimin_fdfminimizer_set(m, &fn, u, 0.5, 0.1);
	double f_before[FIT_STALL];
	int it;
	for (it = 0; it < max_iter; it++) {
		f_before[it % FIT_STALL] = gsl_multimin_fdfminimizer_minimum(m);
		if (gsl_multimin_fdfminimizer_iterate(m) != GSL_SUCCESS)
			break;
		if (gsl_multimin_test_gradient(gsl_multimin_fdfminimizer_gradient(m), FIT_GTOL) ==
		    GSL_SUCCESS)
			break;
		if (it >= FIT_STALL - 1 &&
		    f_before[(it + 1) % FIT_STALL] - gsl_multimin_fdfminimizer_minimum(m) <
			    FIT_FTOL)
			break;
	}
	u_to_theta(c, gsl_multimin_fdfminimizer_x(m));
	memcpy(theta_out, c->theta, nt * sizeof(double));

	double L = -gsl_multimin_fdfminimizer_minimum(m);

	gsl_vector_free(u);
	return isfinite(L) ? L : -INFINITY;
}

double tuner_gp_fit(tuner_gp *gp, gsl_rng *r, size_t restarts)
{
	const size_t nt = gp->dim + 2;

	if (gp->n < 2)
		return tuner_gp_log_likelihood(gp, gp->theta, NULL);

	double lo[nt], hi[nt], start[nt], best[nt], grad[nt], scratch[nt];
	g_autofree double *draws = g_new(double, restarts *SCREEN *nt);
	g_autofree double *draw_L = g_new(double, restarts *SCREEN);
	fit_ctx c = { .gp = gp, .lo = lo, .hi = hi, .theta = scratch, .grad = grad };
	gsl_multimin_fdfminimizer *m =
		gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, nt);

	tuner_gp_theta_bounds(gp->dim, lo, hi);

	/* Random starts are screened: a BFGS run from a poor start costs a hundred
	 * factorisations, a look at its likelihood one. */
	for (size_t k = 0; k < restarts * SCREEN; k++) {
		double *t = draws + k * nt;

		for (size_t j = 0; j < nt; j++)
			t[j] = lo[j] + (hi[j] - lo[j]) * gsl_rng_uniform(r);
		draw_L[k] = tuner_gp_log_likelihood(gp, t, NULL);
	}

	double best_L = fit_from(&c, m, gp->theta, FIT_ITER, best);
	bool restart_won = false;

	for (size_t k = 0; k < restarts; k++) {
		size_t pick = 0;

		for (size_t i = 1; i < restarts * SCREEN; i++)
			if (draw_L[i] > draw_L[pick])
				pick = i;
		if (!(draw_L[pick] > -INFINITY))
			break;
		draw_L[pick] = -INFINITY;

		double L = fit_from(&c, m, draws + pick * nt, RESTART_ITER, start);

		if (L > best_L) {
			best_L = L;
			restart_won = true;
			memcpy(best, start, sizeof best);
		}
	}
	if (restart_won)
		best_L = fit_from(&c, m, best, FIT_ITER, best);
	gsl_multimin_fdfminimizer_free(m);
	memcpy(gp->theta, best, sizeof best);
	refactorise(gp);
	return best_L;
}

/* ---- prediction -------------------------------------------------------------------------- */

void tuner_gp_predict(tuner_gp *gp, const double *x, double *mean, double *sd)
{
	if (gp->n == 0) {
		*mean = gp->m;
		*sd = sqrt(gp->sf2) * gp->s;
		return;
	}

	gsl_vector_view ks = gsl_vector_view_array(gp->kstar, gp->n);
	double mu, quad = 0.0;

	for (size_t i = 0; i < gp->n; i++) {
		double r = scaled_distance(x, gp->x + i * gp->dim, gp->inv_len, gp->dim);

		gp->kstar[i] = matern52(r, gp->sf2);
	}
	gsl_blas_ddot(&ks.vector, gp->alpha, &mu);
	/* k' K^-1 k = |D^-1/2 L^-1 P k|^2: one triangular solve, no explicit inverse. */
	for (size_t c = 0; c < gp->n; c++)
		gsl_vector_set(gp->v, c, gp->kstar[gsl_permutation_get(gp->perm, c)]);
	gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasUnit, gp->ldlt, gp->v);
	for (size_t c = 0; c < gp->n; c++) {
		double w = gsl_vector_get(gp->v, c);

		quad += w * w / gsl_matrix_get(gp->ldlt, c, c);
	}

	double var = gp->sf2 - quad;

	*mean = gp->m + gp->s * mu;
	*sd = gp->s * sqrt(var > 0.0 ? var : 0.0);
}
