/*
 * boxcox.h -- choice of a Box-Cox power transformation of a positive response by profile
 * likelihood, and the transformation itself.
 *
 * A quadratic model may fit y badly while fitting y^lambda well (turnaround times are positive and
 * their spread grows with their size). Box and Cox choose lambda by the likelihood of the linear
 * model on the transformed response. With the geometric-mean normalised transform
 *
 *     z(lambda) = (y^lambda - 1) / (lambda * gm^(lambda-1)),   z(0) = gm * ln y,
 *     gm = exp(mean(ln y)),
 *
 * the Jacobian is absorbed and residual sums of squares are comparable across lambda, so the
 * profile log-likelihood (constants dropped) is
 *
 *     L(lambda) = -n/2 * ln(SSE(lambda) / n),
 *
 * SSE(lambda) the residual sum of squares of the least-squares fit of z(lambda) on the caller's
 * model matrix X (for RSM: rsm_quadratic_design_matrix). lambda-hat maximises L over a grid
 * (default -3..3 in steps of 0.01); the confidence interval (default 95%) is the connected run of
 * grid points around lambda-hat where L >= L_max - chi2_{level,1} / 2 (chi2 from
 * gsl_cdf_chisq_Pinv; 3.8415 / 2 = 1.9207 for 95%), its ends linearly interpolated between the last
 * grid point inside and the first outside. If L stays above the cut-off up to the end of the grid,
 * that end is reported and flagged open.
 *
 * Numerics: z is computed as gm * expm1(lambda * ln(y/gm)) / lambda. It differs from the formula
 * above by the same constant for every run (gm (1 - gm^-lambda) / lambda), which the model's
 * intercept absorbs, so SSE(lambda) is identical; it avoids overflow for large y and |lambda| and
 * cancellation near lambda = 0, where it tends continuously to gm ln(y/gm). The model matrix's SVD
 * is computed once (gsl_multifit_linear_svd) and reused for every lambda.
 *
 * The transform used for the reported model is the plain power, as Design-Expert does:
 * boxcox_power(y, lambda) = y^lambda, and ln y at lambda = 0 (it has the same fitted-surface shape
 * as the normalised one up to an affine map, and is simpler to invert: boxcox_power_inverse).
 * Callers usually round lambda-hat to a convenient value inside the interval (1, 0.5, 0, -0.5, -1)
 * before using it; boxcox_suggest() does that.
 *
 * Requires every y > 0 (error otherwise). Ownership: boxcox_profile returns a new BoxcoxProfile the
 * caller frees with boxcox_profile_free. No global state.
 */
#ifndef TUNER_BOXCOX_H
#define TUNER_BOXCOX_H

#include <glib.h>
#include <gsl/gsl_matrix.h>

G_BEGIN_DECLS

#define BOXCOX_ERROR (boxcox_error_quark())

typedef enum {
	BOXCOX_ERROR_NOT_POSITIVE, /* a response is <= 0 or not finite */
	BOXCOX_ERROR_GRID,	   /* the lambda grid or the confidence level is unusable */
	BOXCOX_ERROR_TOO_FEW_RUNS, /* n <= number of model columns: no residual to profile */
	BOXCOX_ERROR_EXACT_FIT,	   /* SSE(lambda) = 0: the likelihood is unbounded */
	BOXCOX_ERROR_SINGULAR,	   /* the model matrix is rank deficient */
} BoxcoxError;

typedef struct {
	double lambda_min, lambda_max; /* grid ends; lambda_min < lambda_max */
	double step;		       /* grid spacing > 0 */
	double level;		       /* confidence level of the interval, in (0, 1) */
} BoxcoxOptions;

/* -3..3 step 0.01, 95%. */
#define BOXCOX_OPTIONS_DEFAULT ((BoxcoxOptions){ -3.0, 3.0, 0.01, 0.95 })

typedef struct {
	guint n_grid;
	double *lambda;	   /* n_grid grid values, ascending (owned) */
	double *loglik;	   /* L(lambda) at each (owned) */
	double lambda_hat; /* grid value with the largest L */
	double loglik_max;
	double cutoff; /* L_max - chi2_{level,1} / 2 */
	double ci_lo, ci_hi;
	gboolean ci_lo_open, ci_hi_open; /* the interval reaches the end of the grid */
	double gm;			 /* geometric mean of y */
} BoxcoxProfile;

GQuark boxcox_error_quark(void);

/*
 * Profile likelihood of y (n values, all > 0) under the model with n x p matrix X (n > p, full
 * rank: reciprocal condition number >= 1e-10). options may be NULL for BOXCOX_OPTIONS_DEFAULT.
 * Returns a new profile or NULL with error set.
 */
BoxcoxProfile *boxcox_profile(const gsl_matrix *X, const double *y, const BoxcoxOptions *options,
			      GError **error);

void boxcox_profile_free(BoxcoxProfile *profile);

/* The lambda of {-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3} inside the interval closest to lambda-hat;
 * lambda-hat itself when none is inside. Prefers 1 (no transform) when the interval contains it. */
double boxcox_suggest(const BoxcoxProfile *profile);

/* y^lambda, or ln y for lambda = 0 (y > 0). */
double boxcox_power(double y, double lambda);

/* Inverse of boxcox_power: z^(1/lambda), exp(z) for lambda = 0, z itself for lambda = 1 (no
 * transform). NaN when z has no preimage. */
double boxcox_power_inverse(double z, double lambda);

/* The geometric-mean normalised transform z(lambda) of the header comment, for reports. */
double boxcox_normalised(double y, double lambda, double gm);

/* out[i] = boxcox_power(y[i], lambda). FALSE with error if a y[i] <= 0. out may equal y. */
gboolean boxcox_apply(const double *y, guint n, double lambda, double *out, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BoxcoxProfile, boxcox_profile_free)

G_END_DECLS

#endif /* TUNER_BOXCOX_H */
