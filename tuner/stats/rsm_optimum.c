/*
 * rsm_optimum.c -- canonical analysis and box-constrained optimum of a quadratic surface; see
 * rsm_optimum.h.
 */
#include "tuner/stats/rsm_optimum.h"

#include <math.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_multimin.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(rsm-optimum-error-quark, rsm_optimum_error)
/* clang-format on */

/* An eigenvalue this small relative to the largest makes B singular to rounding. */
#define SINGULAR_EIGEN_REL 1e-12
/* Nelder-Mead: initial step in u (radians), convergence size, iteration cap per start. */
#define NM_STEP		   0.6
#define NM_SIZE_TOL	   1e-10
#define NM_MAX_ITER	   10000
/* A coordinate this close to a face (relative to the box width) is on the boundary. */
#define BOUNDARY_REL	   1e-6
/* Slack for "x_s inside the region", relative to its radius: a point computed to be on the face is
 * inside. */
#define INSIDE_REL	   1e-9

static gboolean check_coefficients(guint k, const double *beta, GError **error)
{
	if (k < 1 || k > RSM_MODEL_MAX_FACTORS) {
		g_set_error(error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_FACTORS,
			    "quadratic surface: %u factors, supported are 1 to %u", k,
			    RSM_MODEL_MAX_FACTORS);
		return FALSE;
	}
	guint p = rsm_quadratic_n_terms(k);
	for (guint t = 0; t < p; t++) {
		if (!isfinite(beta[t])) {
			g_autofree char *name = rsm_term_name(k, t, NULL);
			g_set_error(error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_NOT_FINITE,
				    "quadratic surface: coefficient of %s is %g", name, beta[t]);
			return FALSE;
		}
	}
	return TRUE;
}

void rsm_quadratic_form(guint k, const double *beta, double *b0, double *b, double *B)
{
	*b0 = beta[0];
	for (guint i = 0; i < k; i++) {
		b[i] = beta[rsm_term_linear(k, i)];
		B[i * k + i] = beta[rsm_term_quadratic(k, i)];
		for (guint j = i + 1; j < k; j++)
			B[i * k + j] = B[j * k + i] = 0.5 * beta[rsm_term_interaction(k, i, j)];
	}
}

/* ---- canonical analysis ---- */

/* Eigen-decomposition of B into c->eigenvalues (ascending) and c->eigenvectors (columns), each
 * eigenvector's largest-magnitude component made positive. */
static void decompose(RsmCanonical *c)
{
	guint k = c->k;
	gsl_matrix *A = gsl_matrix_alloc(k, k);
	for (guint i = 0; i < k; i++)
		for (guint j = 0; j < k; j++)
			gsl_matrix_set(A, i, j, c->B[i * k + j]);
	gsl_vector_view eval = gsl_vector_view_array(c->eigenvalues, k);
	gsl_matrix_view evec = gsl_matrix_view_array(c->eigenvectors, k, k);
	gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(k);
	gsl_eigen_symmv(A, &eval.vector, &evec.matrix, w);
	gsl_eigen_symmv_free(w);
	gsl_matrix_free(A);
	gsl_eigen_symmv_sort(&eval.vector, &evec.matrix, GSL_EIGEN_SORT_VAL_ASC);
	for (guint col = 0; col < k; col++) {
		guint big = 0;
		for (guint r = 1; r < k; r++)
			if (fabs(c->eigenvectors[r * k + col]) >
			    fabs(c->eigenvectors[big * k + col]))
				big = r;
		if (c->eigenvectors[big * k + col] < 0.0)
			for (guint r = 0; r < k; r++)
				c->eigenvectors[r * k + col] = -c->eigenvectors[r * k + col];
	}
}

static double max_abs(const double *v, guint n)
{
	double m = 0.0;
	for (guint i = 0; i < n; i++)
		m = fmax(m, fabs(v[i]));
	return m;
}

static RsmStationaryKind classify(const double *lambda, guint k, double ridge_tol)
{
	double m = max_abs(lambda, k);
	guint pos = 0, neg = 0;
	for (guint i = 0; i < k; i++) {
		if (m == 0.0 || fabs(lambda[i]) < ridge_tol * m)
			return RSM_STATIONARY_RIDGE;
		if (lambda[i] > 0.0)
			pos++;
		else
			neg++;
	}
	if (neg == 0)
		return RSM_STATIONARY_MINIMUM;
	if (pos == 0)
		return RSM_STATIONARY_MAXIMUM;
	return RSM_STATIONARY_SADDLE;
}

/* x_s = -1/2 B^-1 b = -1/2 Σ_i (v_i' b / lambda_i) v_i. FALSE if B is singular to rounding. */
static gboolean stationary_point(RsmCanonical *c)
{
	guint k = c->k;
	double m = max_abs(c->eigenvalues, k);
	for (guint i = 0; i < k; i++)
		if (!(fabs(c->eigenvalues[i]) > SINGULAR_EIGEN_REL * m))
			return FALSE;
	for (guint j = 0; j < k; j++)
		c->x_s[j] = 0.0;
	for (guint i = 0; i < k; i++) {
		double vb = 0.0;
		for (guint r = 0; r < k; r++)
			vb += c->eigenvectors[r * k + i] * c->b[r];
		double w = -0.5 * vb / c->eigenvalues[i];
		for (guint r = 0; r < k; r++)
			c->x_s[r] += w * c->eigenvectors[r * k + i];
	}
	return TRUE;
}

static gboolean inside_region(const double *x, guint k, const RsmRegion *region)
{
	double limit = region->radius * (1.0 + INSIDE_REL);
	if (region->shape == RSM_REGION_SPHERE) {
		double ss = 0.0;
		for (guint j = 0; j < k; j++)
			ss += x[j] * x[j];
		return sqrt(ss) <= limit;
	}
	return max_abs(x, k) <= limit;
}

RsmCanonical *rsm_canonical_analysis(guint k, const double *beta, double ridge_tol,
				     const RsmRegion *region, GError **error)
{
	const RsmRegion unit_cube = { RSM_REGION_CUBE, 1.0 };
	if (region == NULL)
		region = &unit_cube;
	if (!check_coefficients(k, beta, error))
		return NULL;
	if (!(region->radius > 0.0) || !isfinite(region->radius) || !(ridge_tol >= 0.0)) {
		g_set_error(
			error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_REGION,
			"canonical analysis: region radius %g must be finite and > 0, ridge tolerance "
			"%g must be >= 0",
			region->radius, ridge_tol);
		return NULL;
	}
	RsmCanonical *c = g_new0(RsmCanonical, 1);
	c->k = k;
	c->b = g_new(double, k);
	c->B = g_new(double, (gsize)k *k);
	c->eigenvalues = g_new(double, k);
	c->eigenvectors = g_new(double, (gsize)k *k);
	c->x_s = g_new(double, k);
	rsm_quadratic_form(k, beta, &c->b0, c->b, c->B);
	decompose(c);
	c->kind = classify(c->eigenvalues, k, ridge_tol);
	c->has_stationary_point = stationary_point(c);
	if (c->has_stationary_point) {
		double xb = 0.0, ss = 0.0;
		for (guint j = 0; j < k; j++) {
			xb += c->x_s[j] * c->b[j];
			ss += c->x_s[j] * c->x_s[j];
		}
		c->y_s = c->b0 + 0.5 * xb;
		c->distance = sqrt(ss);
		c->inside = inside_region(c->x_s, k, region);
	} else {
		for (guint j = 0; j < k; j++)
			c->x_s[j] = NAN;
		c->y_s = NAN;
		c->distance = NAN;
		c->inside = FALSE;
	}
	return c;
}

RsmCanonical *rsm_fit_canonical(const RsmFit *fit, double ridge_tol, const RsmRegion *region,
				GError **error)
{
	return rsm_canonical_analysis(fit->k, fit->beta, ridge_tol, region, error);
}

void rsm_canonical_free(RsmCanonical *canonical)
{
	if (canonical == NULL)
		return;
	g_free(canonical->b);
	g_free(canonical->B);
	g_free(canonical->eigenvalues);
	g_free(canonical->eigenvectors);
	g_free(canonical->x_s);
	g_free(canonical);
}

const char *rsm_stationary_kind_string(RsmStationaryKind kind)
{
	switch (kind) {
	case RSM_STATIONARY_MINIMUM:
		return "minimum";
	case RSM_STATIONARY_MAXIMUM:
		return "maximum";
	case RSM_STATIONARY_SADDLE:
		return "saddle";
	case RSM_STATIONARY_RIDGE:
		return "ridge";
	}
	return "unknown";
}

/* ---- constrained optimum ---- */

/* The objective seen by the simplex: sign * ŷ(c + h sin u). */
typedef struct {
	guint k;
	const double *beta;
	double sign;	 /* +1 minimise, -1 maximise */
	const double *c; /* box centre */
	const double *h; /* box half widths */
} BoxObjective;

static void u_to_x(const BoxObjective *o, const gsl_vector *u, double *x)
{
	for (guint j = 0; j < o->k; j++)
		x[j] = o->c[j] + o->h[j] * sin(gsl_vector_get(u, j));
}

static double objective(const gsl_vector *u, void *params)
{
	const BoxObjective *o = params;
	double x[RSM_MODEL_MAX_FACTORS];
	u_to_x(o, u, x);
	return o->sign * rsm_quadratic_eval(o->k, o->beta, x);
}

/* One Nelder-Mead run from the box point x0; the end point's u into u_best, its objective
 * returned. */
static double nelder_mead(const BoxObjective *o, const double *x0, gsl_vector *u_best)
{
	guint k = o->k;
	gsl_vector *u = gsl_vector_alloc(k);
	gsl_vector *step = gsl_vector_alloc(k);
	for (guint j = 0; j < k; j++) {
		double s = (x0[j] - o->c[j]) / o->h[j];
		gsl_vector_set(u, j, asin(fmax(-1.0, fmin(1.0, s))));
	}
	gsl_vector_set_all(step, NM_STEP);
	gsl_multimin_function fn = { .f = objective, .n = k, .params = (void *)o };
	gsl_multimin_fminimizer *s =
		gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, k);
	gsl_multimin_fminimizer_set(s, &fn, u, step);
	for (guint iter = 0; iter < NM_MAX_ITER; iter++) {
		if (gsl_multimin_fminimizer_iterate(s) != GSL_SUCCESS)
			break;
		if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(s), NM_SIZE_TOL) ==
		    GSL_SUCCESS)
			break;
	}
	gsl_vector_memcpy(u_best, gsl_multimin_fminimizer_x(s));
	double value = gsl_multimin_fminimizer_minimum(s);
	gsl_multimin_fminimizer_free(s);
	gsl_vector_free(step);
	gsl_vector_free(u);
	return value;
}

static gboolean check_box(guint k, const double *lo, const double *hi, GError **error)
{
	for (guint j = 0; j < k; j++) {
		if (!isfinite(lo[j]) || !isfinite(hi[j]) || !(lo[j] < hi[j])) {
			g_set_error(error, RSM_OPTIMUM_ERROR, RSM_OPTIMUM_ERROR_REGION,
				    "optimum: box of factor %u is [%g, %g]; need finite lo < hi",
				    j + 1, lo[j], hi[j]);
			return FALSE;
		}
	}
	return TRUE;
}

/* Start points: the centre, every corner, the stationary point if inside the box. Returns how many
 * (rows of k values in starts, which holds room for 2 + 2^k rows). */
static guint start_points(guint k, const double *beta, const double *c, const double *h,
			  double *starts)
{
	guint n = 0;
	for (guint j = 0; j < k; j++)
		starts[j] = c[j];
	n++;
	for (guint corner = 0; corner < (1u << k); corner++, n++)
		for (guint j = 0; j < k; j++)
			starts[n * k + j] = c[j] + ((corner >> j) & 1u ? h[j] : -h[j]);
	RsmCanonical *can = rsm_canonical_analysis(k, beta, 0.0, NULL, NULL);
	if (can != NULL && can->has_stationary_point) {
		gboolean in_box = TRUE;
		for (guint j = 0; j < k; j++)
			in_box = in_box && fabs(can->x_s[j] - c[j]) <= h[j];
		if (in_box) {
			for (guint j = 0; j < k; j++)
				starts[n * k + j] = can->x_s[j];
			n++;
		}
	}
	rsm_canonical_free(can);
	return n;
}

RsmOptimum *rsm_optimum_in_box(guint k, const double *beta, RsmGoal goal, const double *lo,
			       const double *hi, GError **error)
{
	if (!check_coefficients(k, beta, error))
		return NULL;
	double unit_lo[RSM_MODEL_MAX_FACTORS], unit_hi[RSM_MODEL_MAX_FACTORS];
	for (guint j = 0; j < k; j++) {
		unit_lo[j] = -1.0;
		unit_hi[j] = 1.0;
	}
	lo = lo != NULL ? lo : unit_lo;
	hi = hi != NULL ? hi : unit_hi;
	if (!check_box(k, lo, hi, error))
		return NULL;

	double c[RSM_MODEL_MAX_FACTORS], h[RSM_MODEL_MAX_FACTORS];
	for (guint j = 0; j < k; j++) {
		c[j] = 0.5 * (lo[j] + hi[j]);
		h[j] = 0.5 * (hi[j] - lo[j]);
	}
	BoxObjective o = {
		.k = k, .beta = beta, .sign = goal == RSM_GOAL_MAXIMISE ? -1.0 : 1.0, .c = c, .h = h
	};
	g_autofree double *starts = g_new(double, ((gsize)(1u << k) + 2) * k);
	guint n_starts = start_points(k, beta, c, h, starts);

	gsl_vector *u = gsl_vector_alloc(k), *u_best = gsl_vector_alloc(k);
	double best = INFINITY;
	for (guint s = 0; s < n_starts; s++) {
		double v = nelder_mead(&o, starts + (gsize)s * k, u);
		if (v < best) {
			best = v;
			gsl_vector_memcpy(u_best, u);
		}
	}

	RsmOptimum *opt = g_new0(RsmOptimum, 1);
	opt->k = k;
	opt->x = g_new(double, k);
	opt->n_starts = n_starts;
	u_to_x(&o, u_best, opt->x);
	opt->value = rsm_quadratic_eval(k, beta, opt->x);
	for (guint j = 0; j < k; j++)
		if (fmin(opt->x[j] - lo[j], hi[j] - opt->x[j]) <= BOUNDARY_REL * (hi[j] - lo[j]))
			opt->on_boundary = TRUE;
	opt->prediction =
		(RsmPrediction){ .value = opt->value, .std_error = NAN, .lo = NAN, .hi = NAN };
	gsl_vector_free(u);
	gsl_vector_free(u_best);
	return opt;
}

RsmOptimum *rsm_fit_optimum(const RsmFit *fit, RsmGoal goal, const double *lo, const double *hi,
			    double level, GError **error)
{
	RsmOptimum *opt = rsm_optimum_in_box(fit->k, fit->beta, goal, lo, hi, error);
	if (opt != NULL)
		opt->prediction = rsm_fit_predict(fit, opt->x, level);
	return opt;
}

void rsm_optimum_free(RsmOptimum *optimum)
{
	if (optimum == NULL)
		return;
	g_free(optimum->x);
	g_free(optimum);
}
