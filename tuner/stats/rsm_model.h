/*
 * rsm_model.h -- the full quadratic response-surface model in coded units: least-squares fit,
 * coefficient table, ANOVA, sequential model sums of squares, fit statistics and prediction.
 *
 * The model on k factors x1..xk (coded units, see rsm_design.h) has p = (k+1)(k+2)/2 terms, in this
 * order (the order Design-Expert prints):
 *
 *   intercept | x1 .. xk | x1*x2, x1*x3, .., x1*xk, x2*x3, .., x(k-1)*xk | x1^2 .. xk^2
 *
 * e.g. 10 terms for k = 3. Names use the caller's factor names when given (A, B, C give "A",
 * "A*B", "A^2"), else x1, x2, ...; the intercept is "Intercept".
 *
 * Fit: ordinary least squares by GSL's SVD solver. gsl_multifit_wlinear with unit weights is used
 * for the full model because it returns the unscaled (X'X)^-1, which the standard errors, hat
 * diagonals and prediction variances need and which stays defined when the residual is exactly 0;
 * the nested submodels of the sequential sums of squares use gsl_multifit_linear.
 *
 * Definitions (n runs, p terms, y the response, ŷ fitted, e = y - ŷ, C = (X'X)^-1,
 * h_ii = x_i' C x_i the leverage of run i, SSE = Σ e², SST = Σ (y - ȳ)², df_E = n - p,
 * MSE = SSE / df_E):
 *
 *   coefficients  estimate b_j, standard error sqrt(MSE C_jj), t = b_j / se, two-sided p from
 *                 Student's t with df_E.
 *   ANOVA         Model: SST - SSE on p - 1 df.
 *                 Linear, 2FI, Quadratic (groups): sequential (Type I) sums of squares, the drop in
 *                 SSE when the group is added to the model containing the groups before it, in the
 *                 order mean, linear, 2FI, quadratic: the sums of squares of Design-Expert's
 *                 sequential table below. They add up to the Model SS. F of a group = its MS / MSE
 *                 of the full model.
 *                 Each term: partial (Type III) sum of squares, the rise in SSE when that one term
 *                 is dropped from the full model, = b_j² / C_jj, 1 df, F = t².
 *                 Residual: SSE on df_E.
 *                 Pure Error: Σ over groups of replicated design points (equal coded coordinates)
 *                 of Σ (y - group mean)², on Σ (group size - 1) df.
 *                 Lack of Fit: SSE - SS_PE on df_E - df_PE; F = MS_LoF / MS_PE.
 *                 Cor Total: SST on n - 1 df.
 *                 F of a row is tested against MSE unless said otherwise; p is the upper tail of F.
 *   sequential    Design-Expert's "Sequential Model Sum of Squares [Type I]": Mean (n ȳ², 1 df),
 *   table         Linear vs Mean, 2FI vs Linear, Quadratic vs 2FI (each the SSE drop of adding that
 *                 group, F = its MS / the MSE of the model that includes the group, as
 *                 Design-Expert computes it), Residual (SSE, df_E), Total (Σ y², n df).
 *   statistics    std dev = sqrt(MSE); mean = ȳ; C.V.% = 100 std dev / |ȳ|;
 *                 R² = 1 - SSE/SST; adjusted R² = 1 - (SSE/df_E) / (SST/(n-1));
 *                 PRESS = Σ (e_i / (1 - h_ii))²; predicted R² = 1 - PRESS / SST;
 *                 adequate precision = (max ŷ_i - min ŷ_i) / sqrt(p MSE / n), the range of the
 *                 predictions at the design points over their average standard error (the mean of
 *                 Var ŷ_i = MSE h_ii is p MSE / n because Σ h_ii = p), Design-Expert's definition.
 *   prediction    ŷ(x) = f(x)' b, se = sqrt(MSE f' C f), confidence interval for the mean
 *                 ŷ ± t_{(1+level)/2, df_E} se.
 * These reproduce every digit of the Design-Expert output printed for Montgomery's CCD example
 * (tests/tuner/stats/test_rsm.c).
 *
 * Degenerate cases are flagged, never divided by zero (rows with no test have tested = FALSE and
 * f = p = NaN):
 *   - error_estimated is FALSE when df_E = 0 or SSE is zero to rounding (root-mean-square residual
 *     below RSM_MODEL_ZERO_REL times max |y|): there is no error variance to test against, so every
 *     F, t and p is NaN and adequate precision is NaN; estimates, SS and R² are still reported.
 *     Standard errors (and prediction intervals) are NaN when df_E = 0, else computed from MSE.
 *   - lack of fit is tested only when there are replicates (df_PE > 0), their spread is not zero to
 *     rounding (same rule), and df_LoF > 0; otherwise lack_of_fit says why and its F, p are NaN.
 *     This never affects the F of other rows.
 *   - a run with leverage 1 (to 1e-10) makes PRESS and predicted R² NaN (Design-Expert prints N/A).
 *   - a sum of squares that rounding makes slightly negative (a group contributing nothing) is 0.
 * Errors (GError, RSM_MODEL_ERROR): fewer runs than terms; a value not finite; a constant response
 * (SST zero to rounding); a singular design (reciprocal condition number of X below 1e-10).
 *
 * Ownership: rsm_model_fit returns a new RsmFit that the caller frees with rsm_fit_free; it keeps
 * its own copies of the inputs. An RsmFit is immutable after the fit: threads may share it.
 */
#ifndef TUNER_RSM_MODEL_H
#define TUNER_RSM_MODEL_H

#include <glib.h>
#include <gsl/gsl_matrix.h>

G_BEGIN_DECLS

#define RSM_MODEL_ERROR (rsm_model_error_quark())

typedef enum {
	RSM_MODEL_ERROR_FACTORS,	   /* k outside 1..RSM_MODEL_MAX_FACTORS */
	RSM_MODEL_ERROR_TOO_FEW_RUNS,	   /* n < p: the model cannot be estimated */
	RSM_MODEL_ERROR_NOT_FINITE,	   /* a coded level or response is NaN or infinite */
	RSM_MODEL_ERROR_CONSTANT_RESPONSE, /* SST is zero: nothing to explain */
	RSM_MODEL_ERROR_SINGULAR,	   /* the design cannot separate the model terms */
} RsmModelError;

#define RSM_MODEL_MAX_FACTORS 10
/* Terms of the model on RSM_MODEL_MAX_FACTORS factors: a bound for stack arrays. */
#define RSM_MODEL_MAX_TERMS   ((RSM_MODEL_MAX_FACTORS + 1) * (RSM_MODEL_MAX_FACTORS + 2) / 2)

/* Below this multiple of max |y|, a root-mean-square (residual, pure-error or total) deviation is
 * rounding, i.e. zero. */
#define RSM_MODEL_ZERO_REL 1e-12

/* Groups of terms. */
typedef enum {
	RSM_TERM_INTERCEPT,
	RSM_TERM_LINEAR,      /* xi */
	RSM_TERM_INTERACTION, /* xi*xj, i < j (two-factor interaction, "2FI") */
	RSM_TERM_QUADRATIC,   /* xi^2 */
} RsmTermKind;

typedef struct {
	char *name; /* e.g. "x1*x2" (owned) */
	RsmTermKind kind;
	double estimate; /* coefficient in coded units */
	double std_error;
	double t, p; /* NaN unless error_estimated */
} RsmCoefficient;

/* Sources of ANOVA rows (the main ANOVA and the sequential table share the row type). */
typedef enum {
	RSM_SOURCE_MODEL,
	RSM_SOURCE_LINEAR,    /* group row; in the sequential table "Linear vs Mean" */
	RSM_SOURCE_2FI,	      /* group row; in the sequential table "2FI vs Linear" */
	RSM_SOURCE_QUADRATIC, /* group row; in the sequential table "Quadratic vs 2FI" */
	RSM_SOURCE_TERM,      /* one model term, partial SS */
	RSM_SOURCE_RESIDUAL,
	RSM_SOURCE_LACK_OF_FIT,
	RSM_SOURCE_PURE_ERROR,
	RSM_SOURCE_COR_TOTAL,
	RSM_SOURCE_MEAN,  /* sequential table only */
	RSM_SOURCE_TOTAL, /* sequential table only: uncorrected total Σ y² */
} RsmSource;

typedef struct {
	RsmSource source;
	const char *name; /* "Model", "Linear", the term's name, ... (points into the fit) */
	guint term;	  /* RSM_SOURCE_TERM: index of the term in coef[]; else 0 */
	guint df;
	double ss, ms;	 /* ms = ss / df; NaN when df = 0 */
	double f, p;	 /* NaN unless tested */
	gboolean tested; /* FALSE: the row has no F test, or it is not testable (see above) */
} RsmAnovaRow;

/* Why lack of fit was or was not tested. */
typedef enum {
	RSM_LOF_TESTED,
	RSM_LOF_NO_REPLICATES,	 /* no design point was run twice: df_PE = 0 */
	RSM_LOF_ZERO_PURE_ERROR, /* replicates agree exactly: SS_PE = 0 */
	RSM_LOF_NO_DF,		 /* df_LoF = 0: as many distinct points as terms */
} RsmLackOfFitStatus;

/* Number of rows of the sequential table: Mean, Linear, 2FI, Quadratic, Residual, Total. */
#define RSM_SEQUENTIAL_ROWS 6

typedef struct {
	double std_dev, mean, cv_percent;
	double r2, adj_r2, pred_r2;
	double press;
	double adeq_precision;
} RsmFitStats;

typedef struct {
	guint k, n_runs, n_terms;
	char **factor_names;  /* k names (owned, NULL-terminated) */
	double *coded;	      /* n_runs * k coded levels, row-major (copy) */
	double *y;	      /* n_runs responses (copy) */
	RsmCoefficient *coef; /* n_terms, in term order */
	double *beta;	    /* n_terms estimates (the same as coef[j].estimate), for rsm_optimum */
	double *xtx_inv;    /* n_terms * n_terms, (X'X)^-1, row-major */
	double *fitted;	    /* n_runs ŷ_i */
	double *residuals;  /* n_runs e_i */
	double *leverage;   /* n_runs h_ii */
	RsmAnovaRow *anova; /* n_anova rows: Model, Linear, 2FI, Quadratic, each term (term order),
                               Residual, Lack of Fit, Pure Error, Cor Total */
	guint n_anova;
	RsmAnovaRow sequential[RSM_SEQUENTIAL_ROWS]; /* Mean .. Total, in that order */
	RsmFitStats stats;
	guint df_residual;
	double ss_residual, ms_residual;
	gboolean error_estimated;
	RsmLackOfFitStatus lack_of_fit;
} RsmFit;

typedef struct {
	double value;	  /* ŷ */
	double std_error; /* standard error of the mean prediction; NaN when df_E = 0 */
	double lo, hi;	  /* confidence interval for the mean response */
} RsmPrediction;

/* The error domain of this module. */
GQuark rsm_model_error_quark(void);

/* Number of terms of the full quadratic model on k factors: (k+1)(k+2)/2. */
guint rsm_quadratic_n_terms(guint k);

/* Index of a term in the term order (0-based factors i, j). */
guint rsm_term_linear(guint k, guint i);
guint rsm_term_interaction(guint k, guint i, guint j); /* i != j, in either order */
guint rsm_term_quadratic(guint k, guint i);

/* Which group term index t belongs to. */
RsmTermKind rsm_term_kind(guint k, guint t);

/* Name of term t, e.g. "x1*x2", or with factor_names {"A","B","C"} "A*B"; factor_names may be
 * NULL. Free with g_free. */
char *rsm_term_name(guint k, guint t, const char *const *factor_names);

/* The model vector f(x) of a coded point x (k values) into f (n_terms values). */
void rsm_quadratic_terms(guint k, const double *x, double *f);

/* The n x p model matrix of n coded points (row-major, n * k values). Free with gsl_matrix_free. */
gsl_matrix *rsm_quadratic_design_matrix(guint k, guint n, const double *coded);

/* The fitted surface Σ beta_t f_t(x) for a coefficient vector in term order. */
double rsm_quadratic_eval(guint k, const double *beta, const double *x);

/*
 * Fit the full quadratic model on k factors to n_runs runs: coded holds n_runs * k coded levels
 * (row-major, any design, replicated points allowed), y the responses. factor_names (k strings, or
 * NULL for x1..xk) names the terms. Returns a new RsmFit or NULL with error set (see above).
 */
RsmFit *rsm_model_fit(guint k, guint n_runs, const double *coded, const double *y,
		      const char *const *factor_names, GError **error);

void rsm_fit_free(RsmFit *fit);

/* The first ANOVA row with this source (for RSM_SOURCE_TERM: the row of term index `term`);
 * NULL if there is none. Searches the main ANOVA, and for MEAN/TOTAL the sequential table. */
const RsmAnovaRow *rsm_fit_anova_row(const RsmFit *fit, RsmSource source, guint term);

/* ŷ at the coded point x. */
double rsm_fit_value(const RsmFit *fit, const double *x);

/* ŷ at x with its standard error and the `level` (e.g. 0.95) confidence interval for the mean.
 * std_error, lo and hi are NaN when df_E = 0 or level is not in (0, 1). */
RsmPrediction rsm_fit_predict(const RsmFit *fit, const double *x, double level);

/* Human-readable reason for a lack-of-fit status, e.g. "not testable: no replicated points". */
const char *rsm_lack_of_fit_status_string(RsmLackOfFitStatus status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(RsmFit, rsm_fit_free)

G_END_DECLS

#endif /* TUNER_RSM_MODEL_H */
