/*
 * rsm_optimum.h -- canonical analysis of a fitted quadratic surface and its best point inside a
 * box.
 *
 * The fitted model of rsm_model.h, in coded units, is
 *
 *     ŷ(x) = b0 + x' b + x' B x,
 *
 * b the k linear coefficients and B the symmetric k x k matrix with the pure quadratic coefficients
 * on its diagonal and half of each interaction coefficient off it (B_ij = B_ji = b_ij / 2).
 *
 * Canonical analysis: the gradient b + 2 B x vanishes at the stationary point x_s = -1/2 B^-1 b,
 * where ŷ(x_s) = b0 + x_s' b / 2. With B = V diag(lambda) V' (gsl_eigen_symmv, eigenvalues
 * ascending) the surface is ŷ = ŷ(x_s) + Σ lambda_i w_i², w = V'(x - x_s), so x_s is
 *   - a minimum if every lambda_i > 0, a maximum if every lambda_i < 0, a saddle if signs mix,
 *   - a ridge if some |lambda_i| < ridge_tol * max |lambda_j| (RSM_RIDGE_TOL_DEFAULT = 0.05): along
 *     that eigenvector the surface is nearly flat, so x_s is poorly determined and may lie far away
 *     (a stationary or rising ridge); the eigenvalues tell the caller which directions are flat.
 *     A surface with no curvature at all (B = 0) is a ridge too.
 * B^-1 is applied through the eigen-decomposition; when an eigenvalue is zero to rounding
 * (|lambda_i| <= 1e-12 max |lambda_j|) there is no unique stationary point: has_stationary_point
 * is FALSE and x_s, y_s are NaN. Eigenvectors are normalised with their largest-magnitude
 * component positive, so the output does not depend on the eigen-solver's sign choice.
 * Whether x_s is inside the design region is reported for the cube [-r, r]^k or the sphere
 * ||x|| <= r (e.g. r = alpha of a rotatable CCD), as the caller chooses.
 *
 * Constrained optimum: the minimum (or maximum) of ŷ over a box [lo, hi] (default the cube
 * [-1, 1]^k) found with GSL's Nelder-Mead simplex (gsl_multimin_fminimizer_nmsimplex2). The box is
 * respected by a smooth change of variables, x_j = c_j + h_j sin(u_j) (c the box centre, h its half
 * widths): every real u maps into the box, every point of the box including its faces is reached,
 * and the simplex works unconstrained on u. A quadratic over a box can have several local optima
 * (a saddle has one on several faces), so the search starts from the centre, from all 2^k corners,
 * and from the stationary point when it lies inside the box, and keeps the best result (the first
 * found among equal values, so the result is deterministic). Each start runs until the simplex size
 * falls below 1e-10 (in u) or 10000 iterations. rsm_fit_optimum adds the prediction's standard
 * error and confidence interval (rsm_fit_predict).
 *
 * Ownership: results are new structures the caller frees with rsm_canonical_free /
 * rsm_optimum_free. No global state: all of this may run in parallel threads.
 */
#ifndef TUNER_RSM_OPTIMUM_H
#define TUNER_RSM_OPTIMUM_H

#include <glib.h>

#include "tuner/stats/rsm_model.h"

G_BEGIN_DECLS

#define RSM_OPTIMUM_ERROR (rsm_optimum_error_quark())

typedef enum {
	RSM_OPTIMUM_ERROR_FACTORS, /* k outside 1..RSM_MODEL_MAX_FACTORS */
	RSM_OPTIMUM_ERROR_REGION,  /* a box with lo >= hi or non-finite ends, a region size <= 0 */
	RSM_OPTIMUM_ERROR_NOT_FINITE, /* a coefficient is NaN or infinite */
} RsmOptimumError;

#define RSM_RIDGE_TOL_DEFAULT 0.05

typedef enum {
	RSM_STATIONARY_MINIMUM,
	RSM_STATIONARY_MAXIMUM,
	RSM_STATIONARY_SADDLE,
	RSM_STATIONARY_RIDGE,
} RsmStationaryKind;

typedef enum {
	RSM_REGION_CUBE,   /* |x_j| <= radius for every j */
	RSM_REGION_SPHERE, /* ||x|| <= radius */
} RsmRegionShape;

typedef struct {
	RsmRegionShape shape;
	double radius; /* > 0; 1 for the cube of the factorial points */
} RsmRegion;

typedef struct {
	guint k;
	double b0;
	double *b;	      /* k linear coefficients (owned) */
	double *B;	      /* k * k, row-major, symmetric (owned) */
	double *eigenvalues;  /* k, ascending (owned) */
	double *eigenvectors; /* k * k, row-major; column i belongs to eigenvalues[i] (owned) */
	RsmStationaryKind kind;
	gboolean has_stationary_point;
	double *x_s;	 /* k coded coordinates; NaN without a stationary point (owned) */
	double y_s;	 /* ŷ(x_s) */
	double distance; /* ||x_s|| */
	gboolean inside; /* x_s lies in the region (FALSE without a stationary point) */
} RsmCanonical;

typedef enum {
	RSM_GOAL_MINIMISE,
	RSM_GOAL_MAXIMISE,
} RsmGoal;

typedef struct {
	guint k;
	double *x;		  /* k coded coordinates of the best point (owned) */
	double value;		  /* ŷ(x) */
	gboolean on_boundary;	  /* some x_j within 1e-6 (relative to the box width) of a face */
	guint n_starts;		  /* Nelder-Mead runs made */
	RsmPrediction prediction; /* rsm_fit_optimum only: ŷ, se, CI; else value with NaN se, CI */
} RsmOptimum;

GQuark rsm_optimum_error_quark(void);

/* b0, b and B of a coefficient vector in rsm_model.h's term order; b has k, B k*k values. */
void rsm_quadratic_form(guint k, const double *beta, double *b0, double *b, double *B);

/*
 * Canonical analysis of the quadratic with coefficients beta (term order, rsm_quadratic_n_terms(k)
 * values). ridge_tol >= 0 (RSM_RIDGE_TOL_DEFAULT usually); region NULL means the cube [-1, 1]^k.
 * Errors: k out of range, a coefficient not finite, a region radius not > 0 or ridge_tol < 0.
 */
RsmCanonical *rsm_canonical_analysis(guint k, const double *beta, double ridge_tol,
				     const RsmRegion *region, GError **error);

/* The same for a fitted model. */
RsmCanonical *rsm_fit_canonical(const RsmFit *fit, double ridge_tol, const RsmRegion *region,
				GError **error);

void rsm_canonical_free(RsmCanonical *canonical);

const char *rsm_stationary_kind_string(RsmStationaryKind kind);

/*
 * Best point of the quadratic beta over the box [lo[j], hi[j]] (lo, hi NULL: [-1, 1]^k). Errors:
 * k out of range, a coefficient not finite, lo[j] >= hi[j] or not finite.
 */
RsmOptimum *rsm_optimum_in_box(guint k, const double *beta, RsmGoal goal, const double *lo,
			       const double *hi, GError **error);

/* The same for a fitted model, with the prediction and its `level` confidence interval. */
RsmOptimum *rsm_fit_optimum(const RsmFit *fit, RsmGoal goal, const double *lo, const double *hi,
			    double level, GError **error);

void rsm_optimum_free(RsmOptimum *optimum);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(RsmCanonical, rsm_canonical_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RsmOptimum, rsm_optimum_free)

G_END_DECLS

#endif /* TUNER_RSM_OPTIMUM_H */
