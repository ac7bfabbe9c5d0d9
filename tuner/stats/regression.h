/*
 * regression.h -- simple linear regression y = a + b x with the statistics a calibration report
 * needs.
 *
 * The calibration maps simulated time to real time: `real_ms = a + b * sim_jiffies` (SPEC.md §5).
 * A single number (R²) does not tell a reader whether to trust that mapping, so the fit carries the
 * usual table of a statistics package: each coefficient with its standard error, t value and
 * two-sided p-value; R², adjusted R², the residual standard error, the F test of the slope; the
 * fitted values and residuals of every point; and the leave-one-out prediction error, which is
 * what the tuner actually relies on (how far a prediction for a workload not in the fit lands).
 *
 * The least-squares solve is GSL's gsl_fit_linear; the distributions are gsl_cdf_tdist_Q and
 * gsl_cdf_fdist_Q.
 *
 * Definitions (n points, e_i = y_i - yhat_i, SSE = Σ e_i², SST = Σ (y_i - ȳ)², SSR = SST - SSE):
 *   rse      = sqrt(SSE / (n - 2))                    residual standard error
 *   se_a     = rse * sqrt(1/n + x̄² / Sxx),  se_b = rse / sqrt(Sxx),  Sxx = Σ (x_i - x̄)²
 *   t_a      = a / se_a,  t_b = b / se_b;  p = 2 * Q_t(|t|, n - 2)   (two-sided)
 *   r2       = 1 - SSE / SST,  adj_r2 = 1 - (1 - r2) (n - 1) / (n - 2)
 *   f        = SSR / (SSE / (n - 2)) = t_b²,  f_p = Q_F(f, 1, n - 2)
 *   loo_mape = 100/n * Σ |y_i - yhat_(-i)| / |y_i|, yhat_(-i) the prediction of y_i by the line
 *              fitted to the other n - 1 points.
 *
 * Degenerate but legal data follow IEEE arithmetic rather than failing: a perfect fit has
 * se = 0, t = ±inf and p = 0 (t = NaN, p = NaN for a coefficient that is exactly 0); constant y
 * has SST = 0 so r2, adj_r2 are NaN; a y_i = 0 makes loo_mape infinite; when removing one point
 * leaves all other x equal (e.g. x = {1, 1, 2}) that point cannot be predicted and loo_mape is
 * NaN.
 *
 * Ownership: regression_fit returns a new Regression that the caller frees with regression_free;
 * it holds its own copies of everything, so the input arrays may be freed right after the call.
 * A Regression is immutable after the fit: several threads may read one at once.
 */
#ifndef TUNER_REGRESSION_H
#define TUNER_REGRESSION_H

#include <glib.h>

G_BEGIN_DECLS

#define REGRESSION_ERROR (regression_error_quark())

/* Why a fit was refused. */
typedef enum {
	REGRESSION_ERROR_TOO_FEW_POINTS, /* fewer than 3 points: no degree of freedom left for errors */
	REGRESSION_ERROR_CONSTANT_X,	 /* every x is equal: the slope is undefined */
	REGRESSION_ERROR_NOT_FINITE,	 /* an x or y is NaN or infinite */
} RegressionError;

/* The fit of y = a + b x to n points. Units are those of the inputs (for the calibration: a in
 * real ms, b in real ms per simulated jiffy). */
typedef struct {
	gsize n;	   /* number of points */
	double a, b;	   /* intercept and slope */
	double se_a, se_b; /* their standard errors */
	double cov_ab;	   /* covariance of a and b (for prediction intervals) */
	double t_a, t_b;   /* t values: estimate / standard error */
	double p_a, p_b;   /* two-sided p-values of t with n - 2 degrees of freedom */
	double r2, adj_r2; /* coefficient of determination, adjusted for the one regressor */
	double rse;	   /* residual standard error, in units of y */
	double sse, sst;   /* residual and total sums of squares */
	double f, f_p;	   /* F statistic of the regression (1, n - 2 df) and its p-value */
	double loo_mape;   /* leave-one-out mean absolute percent error, in percent */
	double *fitted;	   /* n fitted values a + b x_i, in input order (owned) */
	double *residuals; /* n residuals y_i - fitted_i, in input order (owned) */
} Regression;

/* The error domain of this module. */
GQuark regression_error_quark(void);

/*
 * Fit y = a + b x by least squares to the n points (x[i], y[i]).
 * Returns a new Regression (free with regression_free), or NULL and sets error when n < 3, when all
 * x are equal, or when a value is not finite (the message names the offending index).
 */
Regression *regression_fit(const double *x, const double *y, gsize n, GError **error);

/*
 * The lack-of-fit test of a line fitted to the means of replicated measurements (the calibration
 * fits the per-group means of R real runs). It splits what the line misses into the spread of the
 * runs themselves (pure error, which no model can remove) and what is left (lack of fit, the
 * model's shape). Point i has n_i >= 1 runs y_ij with mean ȳ_i and fitted value ŷ_i; N = Σ n_i,
 * m points:
 *   ss_pe  = Σ_i Σ_j (y_ij - ȳ_i)²,   df_pe  = N - m
 *   ss_lof = Σ_i n_i (ȳ_i - ŷ_i)²,     df_lof = m - 2
 *   f = (ss_lof / df_lof) / (ss_pe / df_pe),  p = Q_F(f, df_lof, df_pe)
 *   pe_sd = sqrt(ss_pe / df_pe): the standard deviation of one run, net of blocks (below)
 *   r2_ceiling = 1 - df_lof * (ss_pe / df_pe) * mean_i(1 / n_i) / SST_means: the R² on the means
 *       that a line of exactly the right shape should expect, given that spread. An R² near it
 *       says the model is as good as the measurements can show; to rise further, repeat more.
 *
 * Blocked: when every point has the same R runs and the j-th run of every point was made in the
 * same block j (a randomised complete block design: `tuner calibrate --order rounds`, a block per
 * round), a block's shared deviation (the machine's speed in that round) moves every mean alike
 * and so cannot show as lack of fit; it is taken out of the pure error, in one of two ways:
 *   additive (the host's calibration, whose speed wanders by ±10 %): a block adds the same to every
 *       run in it, removed as in a two-way analysis without interaction:
 *         ss_pe -= m Σ_j (ȳ_.j - ȳ_..)²,   df_pe -= R - 1
 *   proportional (the VM, whose speed changes by up to 2x between rounds of one boot): a block
 *       multiplies every run in it by the same factor, which an additive block cannot take out (a
 *       slow round adds more to a long run), so the pure error would be inflated, and with it the
 *       fit flattered. The factors are estimated on the log scale, runs divided by them, and the
 *       pure error taken of what is left (all runs must be > 0):
 *         g_j = exp(mean_i ln y_ij - mean_ij ln y_ij),  y'_ij = y_ij / g_j
 *         ss_pe = Σ_i Σ_j (y'_ij - ȳ'_i)²,   df_pe = m (R - 1) - (R - 1)
 *
 * Without replicates (df_pe = 0) or without spread (ss_pe = 0) f, p, pe_sd and r2_ceiling are NaN
 * (pe_sd is 0 when ss_pe = 0).
 */
typedef struct {
	double ss_lof, ss_pe;
	double df_lof, df_pe;
	double f, p;
	double pe_sd;
	double r2_ceiling;
	double n_eff; /* 1 / mean_i(1 / n_i): the repeats per point (for unequal counts, their harmonic
		       * mean) */
} LackOfFit;

/* How the j-th runs of the points share a block (see above). The values of NONE and ADDITIVE are
 * FALSE and TRUE, what callers passed before there were two kinds. */
typedef enum {
	REGRESSION_BLOCKS_NONE = 0,
	REGRESSION_BLOCKS_ADDITIVE = 1,
	REGRESSION_BLOCKS_PROPORTIONAL = 2,
} RegressionBlocks;

/* The lack-of-fit test of means, the fit of the m = means->n point means; runs holds each point's
 * counts[i] runs one point after another (Σ counts[i] values). blocks: see above; they require
 * equal counts (and positive runs, when proportional), and are ignored (no blocks) otherwise or
 * when the counts are 1. */
LackOfFit regression_lack_of_fit(const Regression *means, const double *runs, const gsize *counts,
				 RegressionBlocks blocks);

/*
 * How many repeats per point a line of the right shape needs for its R² on the means to be expected
 * at target or above, at the spread lof measured. With σ² = pe_sd², m points and n_eff repeats, the
 * means' sum of squares holds the signal and (m - 1) σ² / n_eff of noise, so
 *   SST_signal = SST_means - (m - 1) σ² / n_eff,  and R repeats expect
 *   R² = 1 - df_lof σ² / (R SST_signal + (m - 1) σ²),  which reaches target from
 *   R = (df_lof σ² / (1 - target) - (m - 1) σ²) / SST_signal,  rounded up, at least 1.
 * +inf when the means show no signal above their noise (SST_signal <= 0); NaN when lof has no pure
 * error or target is not in (0, 1).
 */
double regression_repeats_for_r2(const Regression *means, const LackOfFit *lof, double target);

/* The t value estimate / se and its two-sided p-value with df degrees of freedom, as the fit
 * computes t_a, p_a and t_b, p_b: p is 0 for an infinite t and NaN for a NaN one. */
void regression_t_test(double estimate, double se, double df, double *t, double *p);

/* Free a Regression and its arrays. NULL is allowed. */
void regression_free(Regression *fit);

/* The fitted line at x: a + b x. For the tuner: predicted real ms from simulated jiffies. */
double regression_predict(const Regression *fit, double x);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Regression, regression_free)

G_END_DECLS

#endif /* TUNER_REGRESSION_H */
