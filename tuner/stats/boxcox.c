/*
 * boxcox.c -- Box-Cox profile likelihood and power transform; see boxcox.h.
 */
#include "tuner/stats/boxcox.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_multifit.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(boxcox-error-quark, boxcox_error)
/* clang-format on */

/* SSE below this fraction of the transformed response's total SS is an exact fit (R² = 1 to
 * rounding), where L would be +inf. */
#define EXACT_FIT_REL 1e-20

/* Below this reciprocal condition number the model matrix is rank deficient (as in rsm_model.c). */
#define SINGULAR_RCOND 1e-10

/* Grid points at most this fraction of a step away from 0 are 0 (min + i*step rounds). */
#define SNAP_ZERO 1e-9

static gboolean check_options(const BoxcoxOptions *o, GError **error)
{
	if (!isfinite(o->lambda_min) || !isfinite(o->lambda_max) ||
	    !(o->lambda_min < o->lambda_max) || !(o->step > 0.0) ||
	    (o->lambda_max - o->lambda_min) / o->step > 1e7) {
		g_set_error(
			error, BOXCOX_ERROR, BOXCOX_ERROR_GRID,
			"Box-Cox: lambda grid [%g, %g] step %g must be finite, ascending, with a "
			"positive step and at most 1e7 points",
			o->lambda_min, o->lambda_max, o->step);
		return FALSE;
	}
	if (!(o->level > 0.0 && o->level < 1.0)) {
		g_set_error(error, BOXCOX_ERROR, BOXCOX_ERROR_GRID,
			    "Box-Cox: confidence level %g must lie strictly between 0 and 1",
			    o->level);
		return FALSE;
	}
	return TRUE;
}

static gboolean check_positive(const double *y, guint n, GError **error)
{
	for (guint i = 0; i < n; i++) {
		if (!(y[i] > 0.0) || !isfinite(y[i])) {
			g_set_error(
				error, BOXCOX_ERROR, BOXCOX_ERROR_NOT_POSITIVE,
				"Box-Cox: response %u is %g; the transform needs every response > 0",
				i + 1, y[i]);
			return FALSE;
		}
	}
	return TRUE;
}

double boxcox_power(double y, double lambda)
{
	return lambda == 0.0 ? log(y) : pow(y, lambda);
}

double boxcox_power_inverse(double z, double lambda)
{
	if (lambda == 1.0) /* no transform: every z is its own preimage, negative ones too */
		return z;
	if (lambda == 0.0)
		return exp(z);
	return z > 0.0 ? pow(z, 1.0 / lambda) : NAN;
}

double boxcox_normalised(double y, double lambda, double gm)
{
	if (lambda == 0.0)
		return gm * log(y);
	return (pow(y, lambda) - 1.0) / (lambda * pow(gm, lambda - 1.0));
}

gboolean boxcox_apply(const double *y, guint n, double lambda, double *out, GError **error)
{
	if (!check_positive(y, n, error))
		return FALSE;
	for (guint i = 0; i < n; i++)
		out[i] = boxcox_power(y[i], lambda);
	return TRUE;
}

/* The normalised transform up to a constant shift (see the header): gm * expm1(lambda u) / lambda
 * with u = ln(y / gm). */
static void transform_shifted(const double *log_ratio, guint n, double lambda, double gm,
			      gsl_vector *z)
{
	for (guint i = 0; i < n; i++) {
		double u = log_ratio[i];
		gsl_vector_set(z, i, lambda == 0.0 ? gm * u : gm * expm1(lambda * u) / lambda);
	}
}

static double total_ss(const gsl_vector *z)
{
	double mean = 0.0, ss = 0.0;
	for (size_t i = 0; i < z->size; i++)
		mean += gsl_vector_get(z, i);
	mean /= z->size;
	for (size_t i = 0; i < z->size; i++) {
		double d = gsl_vector_get(z, i) - mean;
		ss += d * d;
	}
	return ss;
}

/* Fill profile->loglik over the grid. FALSE with error on an exact fit. */
static gboolean profile_grid(BoxcoxProfile *profile, const gsl_matrix *X, const double *log_ratio,
			     GError **error)
{
	guint n = X->size1;
	gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc(n, X->size2);
	gsl_vector *z = gsl_vector_alloc(n);
	gsl_vector *c = gsl_vector_alloc(X->size2);
	gboolean ok = TRUE;
	gsl_multifit_linear_svd(X, work);
	double rcond = gsl_multifit_linear_rcond(work);
	if (!(rcond >= SINGULAR_RCOND)) {
		g_set_error(
			error, BOXCOX_ERROR, BOXCOX_ERROR_SINGULAR,
			"Box-Cox: the model matrix is singular (reciprocal condition number %.3g)",
			rcond);
		ok = FALSE;
	}
	for (guint g = 0; g < profile->n_grid && ok; g++) {
		double lambda = profile->lambda[g];
		double rnorm, snorm;
		transform_shifted(log_ratio, n, lambda, profile->gm, z);
		gsl_multifit_linear_solve(0.0, X, z, c, &rnorm, &snorm, work);
		double sse = rnorm * rnorm;
		if (sse <= EXACT_FIT_REL * total_ss(z)) {
			g_set_error(
				error, BOXCOX_ERROR, BOXCOX_ERROR_EXACT_FIT,
				"Box-Cox: the model fits the response transformed with lambda = %g "
				"exactly; the likelihood is unbounded",
				lambda);
			ok = FALSE;
			break;
		}
		profile->loglik[g] = -0.5 * n * log(sse / n);
	}
	gsl_vector_free(c);
	gsl_vector_free(z);
	gsl_multifit_linear_free(work);
	return ok;
}

/* Where L crosses the cut-off between grid points `in` (L >= cutoff) and `out` (L < cutoff). */
static double crossing(const BoxcoxProfile *p, guint in, guint out)
{
	double l_in = p->loglik[in], l_out = p->loglik[out];
	double frac = (l_in - p->cutoff) / (l_in - l_out);
	return p->lambda[in] + frac * (p->lambda[out] - p->lambda[in]);
}

static void find_interval(BoxcoxProfile *p, guint best)
{
	guint lo = best, hi = best;
	while (lo > 0 && p->loglik[lo - 1] >= p->cutoff)
		lo--;
	while (hi + 1 < p->n_grid && p->loglik[hi + 1] >= p->cutoff)
		hi++;
	p->ci_lo_open = lo == 0;
	p->ci_hi_open = hi + 1 == p->n_grid;
	p->ci_lo = p->ci_lo_open ? p->lambda[0] : crossing(p, lo, lo - 1);
	p->ci_hi = p->ci_hi_open ? p->lambda[p->n_grid - 1] : crossing(p, hi, hi + 1);
}

BoxcoxProfile *boxcox_profile(const gsl_matrix *X, const double *y, const BoxcoxOptions *options,
			      GError **error)
{
	BoxcoxOptions opt = options != NULL ? *options : BOXCOX_OPTIONS_DEFAULT;
	guint n = X->size1;
	if (!check_options(&opt, error) || !check_positive(y, n, error))
		return NULL;
	if (n <= X->size2) {
		g_set_error(
			error, BOXCOX_ERROR, BOXCOX_ERROR_TOO_FEW_RUNS,
			"Box-Cox: %u runs for a model of %zu terms leave no residual to profile", n,
			X->size2);
		return NULL;
	}

	g_autofree double *log_ratio = g_new(double, n);
	double mean_log = 0.0;
	for (guint i = 0; i < n; i++)
		mean_log += log(y[i]);
	mean_log /= n;
	for (guint i = 0; i < n; i++)
		log_ratio[i] = log(y[i]) - mean_log;

	BoxcoxProfile *p = g_new0(BoxcoxProfile, 1);
	p->gm = exp(mean_log);
	p->n_grid = (guint)floor((opt.lambda_max - opt.lambda_min) / opt.step + 1e-9) + 1;
	p->lambda = g_new(double, p->n_grid);
	p->loglik = g_new(double, p->n_grid);
	for (guint g = 0; g < p->n_grid; g++) {
		double lambda = opt.lambda_min + g * opt.step;
		p->lambda[g] = fabs(lambda) < SNAP_ZERO * opt.step ? 0.0 : lambda;
	}
	if (!profile_grid(p, X, log_ratio, error)) {
		boxcox_profile_free(p);
		return NULL;
	}

	guint best = 0;
	for (guint g = 1; g < p->n_grid; g++)
		if (p->loglik[g] > p->loglik[best])
			best = g;
	p->lambda_hat = p->lambda[best];
	p->loglik_max = p->loglik[best];
	p->cutoff = p->loglik_max - 0.5 * gsl_cdf_chisq_Pinv(opt.level, 1.0);
	find_interval(p, best);
	return p;
}

void boxcox_profile_free(BoxcoxProfile *profile)
{
	if (profile == NULL)
		return;
	g_free(profile->lambda);
	g_free(profile->loglik);
	g_free(profile);
}

double boxcox_suggest(const BoxcoxProfile *profile)
{
	static const double usual[] = { -3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0 };
	if (profile->ci_lo <= 1.0 && 1.0 <= profile->ci_hi)
		return 1.0;
	double best = profile->lambda_hat, best_dist = INFINITY;
	for (guint u = 0; u < G_N_ELEMENTS(usual); u++) {
		double d = fabs(usual[u] - profile->lambda_hat);
		if (profile->ci_lo <= usual[u] && usual[u] <= profile->ci_hi && d < best_dist) {
			best = usual[u];
			best_dist = d;
		}
	}
	return best;
}
