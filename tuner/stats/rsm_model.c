/*
 * rsm_model.c -- full quadratic model: fit, coefficient table, ANOVA, sequential sums of squares,
 * fit statistics, prediction; see rsm_model.h for the definitions.
 */
#include "tuner/stats/rsm_model.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_multifit.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(rsm-model-error-quark, rsm_model_error)
/* clang-format on */

/* Below this reciprocal condition number of the (column-balanced) model matrix the design cannot
 * separate the terms; well-built designs in coded units are around 0.1. */
#define SINGULAR_RCOND	 1e-10
/* A leverage this close to 1 leaves nothing to predict a run from when it is left out. */
#define LEVERAGE_ONE_GAP 1e-10
/* Two runs are replicates when every coded level agrees to this. */
#define REPLICATE_TOL	 1e-9

/* ---- terms ---- */

guint rsm_quadratic_n_terms(guint k)
{
	return (k + 1) * (k + 2) / 2;
}

static guint n_interactions(guint k)
{
	return k * (k - 1) / 2;
}

guint rsm_term_linear(guint k, guint i)
{
	g_return_val_if_fail(i < k, 0);
	return 1 + i;
}

guint rsm_term_interaction(guint k, guint i, guint j)
{
	g_return_val_if_fail(i < k && j < k && i != j, 0);
	if (i > j) {
		guint t = i;
		i = j;
		j = t;
	}
	/* Pairs (a, b) with a < i come first: k-1 + k-2 + ... + k-i of them. */
	return 1 + k + i * k - i * (i + 1) / 2 + (j - i - 1);
}

guint rsm_term_quadratic(guint k, guint i)
{
	g_return_val_if_fail(i < k, 0);
	return 1 + k + n_interactions(k) + i;
}

RsmTermKind rsm_term_kind(guint k, guint t)
{
	if (t == 0)
		return RSM_TERM_INTERCEPT;
	if (t <= k)
		return RSM_TERM_LINEAR;
	if (t <= k + n_interactions(k))
		return RSM_TERM_INTERACTION;
	return RSM_TERM_QUADRATIC;
}

/* The factors (i, j) of interaction term t. */
static void interaction_factors(guint k, guint t, guint *i, guint *j)
{
	guint pos = t - 1 - k;
	for (*i = 0; pos >= k - 1 - *i; (*i)++)
		pos -= k - 1 - *i;
	*j = *i + 1 + pos;
}

static char *factor_name(guint i, const char *const *factor_names)
{
	return factor_names != NULL ? g_strdup(factor_names[i]) : g_strdup_printf("x%u", i + 1);
}

char *rsm_term_name(guint k, guint t, const char *const *factor_names)
{
	g_return_val_if_fail(t < rsm_quadratic_n_terms(k), NULL);
	switch (rsm_term_kind(k, t)) {
	case RSM_TERM_INTERCEPT:
		return g_strdup("Intercept");
	case RSM_TERM_LINEAR:
		return factor_name(t - 1, factor_names);
	case RSM_TERM_INTERACTION: {
		guint i, j;
		interaction_factors(k, t, &i, &j);
		g_autofree char *a = factor_name(i, factor_names);
		g_autofree char *b = factor_name(j, factor_names);
		return g_strdup_printf("%s*%s", a, b);
	}
	case RSM_TERM_QUADRATIC: {
		g_autofree char *a = factor_name(t - 1 - k - n_interactions(k), factor_names);
		return g_strdup_printf("%s^2", a);
	}
	}
	return NULL;
}

void rsm_quadratic_terms(guint k, const double *x, double *f)
{
	guint t = 0;
	f[t++] = 1.0;
	for (guint i = 0; i < k; i++)
		f[t++] = x[i];
	for (guint i = 0; i < k; i++)
		for (guint j = i + 1; j < k; j++)
			f[t++] = x[i] * x[j];
	for (guint i = 0; i < k; i++)
		f[t++] = x[i] * x[i];
}

gsl_matrix *rsm_quadratic_design_matrix(guint k, guint n, const double *coded)
{
	guint p = rsm_quadratic_n_terms(k);
	gsl_matrix *X = gsl_matrix_alloc(n, p);
	for (guint i = 0; i < n; i++)
		rsm_quadratic_terms(k, coded + (gsize)i * k, gsl_matrix_ptr(X, i, 0));
	return X;
}

double rsm_quadratic_eval(guint k, const double *beta, const double *x)
{
	g_return_val_if_fail(k <= RSM_MODEL_MAX_FACTORS, NAN);
	guint p = rsm_quadratic_n_terms(k);
	double f[RSM_MODEL_MAX_TERMS];
	rsm_quadratic_terms(k, x, f);
	double sum = 0.0;
	for (guint t = 0; t < p; t++)
		sum += beta[t] * f[t];
	return sum;
}

/* ---- input checks ---- */

static gboolean check_inputs(guint k, guint n, const double *coded, const double *y, GError **error)
{
	if (k < 1 || k > RSM_MODEL_MAX_FACTORS) {
		g_set_error(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_FACTORS,
			    "quadratic model: %u factors, supported are 1 to %u", k,
			    RSM_MODEL_MAX_FACTORS);
		return FALSE;
	}
	guint p = rsm_quadratic_n_terms(k);
	if (n < p) {
		g_set_error(
			error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_TOO_FEW_RUNS,
			"quadratic model: %u runs for %u terms (%u factors); need at least %u runs",
			n, p, k, p);
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		for (guint j = 0; j < k; j++) {
			if (!isfinite(coded[(gsize)i * k + j])) {
				g_set_error(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_NOT_FINITE,
					    "quadratic model: run %u, factor %u: coded level is %g",
					    i + 1, j + 1, coded[(gsize)i * k + j]);
				return FALSE;
			}
		}
		if (!isfinite(y[i])) {
			g_set_error(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_NOT_FINITE,
				    "quadratic model: run %u: response is %g", i + 1, y[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* A sum of squares over n runs at or below this is rounding noise (see RSM_MODEL_ZERO_REL). */
static double zero_ss(const double *y, guint n)
{
	double m = 0.0;
	for (guint i = 0; i < n; i++)
		m = fmax(m, fabs(y[i]));
	double rms = RSM_MODEL_ZERO_REL * m;
	return n * rms * rms;
}

/* ---- least squares ---- */

/* SSE of the model made of the first p_sub columns of X (the term order makes every nested model
 * of the sequential table a leading block of columns). */
static double leading_columns_sse(const gsl_matrix *X, const gsl_vector *y, size_t p_sub)
{
	size_t n = X->size1;
	gsl_matrix_const_view sub = gsl_matrix_const_submatrix(X, 0, 0, n, p_sub);
	gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc(n, p_sub);
	gsl_vector *c = gsl_vector_alloc(p_sub);
	gsl_matrix *cov = gsl_matrix_alloc(p_sub, p_sub);
	double chisq;
	gsl_multifit_linear(&sub.matrix, y, c, cov, &chisq, work);
	gsl_matrix_free(cov);
	gsl_vector_free(c);
	gsl_multifit_linear_free(work);
	return chisq;
}

/* Full fit: beta and the unscaled (X'X)^-1 into the fit. FALSE with error when X is singular. */
static gboolean fit_full(RsmFit *fit, const gsl_matrix *X, const gsl_vector *y, GError **error)
{
	guint n = fit->n_runs, p = fit->n_terms;
	gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc(n, p);
	gsl_vector *unit = gsl_vector_alloc(n);
	gsl_vector_set_all(unit, 1.0);
	gsl_vector_view beta = gsl_vector_view_array(fit->beta, p);
	gsl_matrix_view cinv = gsl_matrix_view_array(fit->xtx_inv, p, p);
	double chisq;
	gsl_multifit_wlinear(X, unit, y, &beta.vector, &cinv.matrix, &chisq, work);
	double rcond = gsl_multifit_linear_rcond(work);
	gsl_vector_free(unit);
	gsl_multifit_linear_free(work);
	if (!(rcond >= SINGULAR_RCOND)) {
		g_set_error(
			error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_SINGULAR,
			"quadratic model: the design is singular (reciprocal condition number %.3g): "
			"its %u runs cannot separate the %u terms",
			rcond, n, p);
		return FALSE;
	}
	return TRUE;
}

/* x' C x for the p x p row-major matrix C. */
static double quad_form(const double *C, const double *x, guint p)
{
	double sum = 0.0;
	for (guint a = 0; a < p; a++) {
		double row = 0.0;
		for (guint b = 0; b < p; b++)
			row += C[(gsize)a * p + b] * x[b];
		sum += x[a] * row;
	}
	return sum;
}

static void compute_fitted(RsmFit *fit)
{
	g_autofree double *f = g_new(double, fit->n_terms);
	fit->ss_residual = 0.0;
	for (guint i = 0; i < fit->n_runs; i++) {
		rsm_quadratic_terms(fit->k, fit->coded + (gsize)i * fit->k, f);
		double yhat = 0.0;
		for (guint t = 0; t < fit->n_terms; t++)
			yhat += fit->beta[t] * f[t];
		fit->fitted[i] = yhat;
		fit->residuals[i] = fit->y[i] - yhat;
		fit->leverage[i] = quad_form(fit->xtx_inv, f, fit->n_terms);
		fit->ss_residual += fit->residuals[i] * fit->residuals[i];
	}
}

/* ---- tests ---- */

static double f_upper_p(double f, guint df1, guint df2)
{
	return isinf(f) ? 0.0 : gsl_cdf_fdist_Q(f, df1, df2);
}

static RsmAnovaRow make_row(RsmSource source, const char *name, guint df, double ss)
{
	RsmAnovaRow row = {
		.source = source,
		.name = name,
		.df = df,
		.ss = ss,
		.ms = df > 0 ? ss / df : NAN,
		.f = NAN,
		.p = NAN,
		.tested = FALSE,
	};
	return row;
}

/* Test row against an error mean square ms_err on df_err df; `usable` says whether that error
 * estimate exists (positive, not rounding noise). Untestable rows keep f = p = NaN. */
static void test_row(RsmAnovaRow *row, double ms_err, guint df_err, gboolean usable)
{
	if (!usable || row->df == 0 || df_err == 0)
		return;
	row->f = row->ms / ms_err;
	row->p = f_upper_p(row->f, row->df, df_err);
	row->tested = TRUE;
}

/* Replicate groups: group[i] is the group of run i; returns the number of groups. */
static guint replicate_groups(const RsmFit *fit, guint *group)
{
	guint k = fit->k, n_groups = 0;
	for (guint i = 0; i < fit->n_runs; i++) {
		group[i] = n_groups;
		for (guint a = 0; a < i; a++) {
			gboolean same = TRUE;
			for (guint j = 0; j < k && same; j++)
				same = fabs(fit->coded[(gsize)i * k + j] -
					    fit->coded[(gsize)a * k + j]) <= REPLICATE_TOL;
			if (same) {
				group[i] = group[a];
				break;
			}
		}
		if (group[i] == n_groups)
			n_groups++;
	}
	return n_groups;
}

/* Pure-error sum of squares and its df. */
static double pure_error(const RsmFit *fit, guint *df)
{
	guint n = fit->n_runs;
	g_autofree guint *group = g_new(guint, n);
	guint n_groups = replicate_groups(fit, group);
	g_autofree double *sum = g_new0(double, n_groups);
	g_autofree guint *count = g_new0(guint, n_groups);
	for (guint i = 0; i < n; i++) {
		sum[group[i]] += fit->y[i];
		count[group[i]]++;
	}
	double ss = 0.0;
	for (guint i = 0; i < n; i++) {
		double d = fit->y[i] - sum[group[i]] / count[group[i]];
		ss += d * d;
	}
	*df = n - n_groups;
	return ss;
}

/* ---- tables ---- */

static void fill_coefficients(RsmFit *fit, const char *const *factor_names)
{
	for (guint t = 0; t < fit->n_terms; t++) {
		RsmCoefficient *c = &fit->coef[t];
		c->name = rsm_term_name(fit->k, t, factor_names);
		c->kind = rsm_term_kind(fit->k, t);
		c->estimate = fit->beta[t];
		c->std_error =
			fit->df_residual > 0
				? sqrt(fit->ms_residual * fit->xtx_inv[(gsize)t * fit->n_terms + t])
				: NAN;
		c->t = NAN;
		c->p = NAN;
		if (fit->error_estimated) {
			c->t = c->estimate / c->std_error;
			c->p = 2.0 * gsl_cdf_tdist_Q(fabs(c->t), fit->df_residual);
		}
	}
}

/* SSE of the nested models mean, linear, 2FI, quadratic (full). */
typedef struct {
	double sse[4];
	guint df[4];
} NestedFits;

static NestedFits nested_fits(const RsmFit *fit, const gsl_matrix *X, const gsl_vector *y,
			      double sst)
{
	guint k = fit->k, n = fit->n_runs;
	guint p_lin = 1 + k, p_2fi = 1 + k + n_interactions(k);
	NestedFits nf = {
		.sse = { sst, leading_columns_sse(X, y, p_lin), leading_columns_sse(X, y, p_2fi),
			 fit->ss_residual },
		.df = { n - 1, n - p_lin, n - p_2fi, fit->df_residual },
	};
	return nf;
}

/* The SSE drop from nested model a to a+1; rounding can make a zero drop slightly negative. */
static double sse_drop(const NestedFits *nf, guint a)
{
	return fmax(nf->sse[a] - nf->sse[a + 1], 0.0);
}

static void fill_anova(RsmFit *fit, const NestedFits *nf, double sst, double zero)
{
	guint k = fit->k, n = fit->n_runs, p = fit->n_terms;
	double mse = fit->ms_residual;
	guint dfe = fit->df_residual;
	gboolean ok = fit->error_estimated;
	static const char *const group_names[] = { "Linear", "2FI", "Quadratic" };
	static const RsmSource group_sources[] = { RSM_SOURCE_LINEAR, RSM_SOURCE_2FI,
						   RSM_SOURCE_QUADRATIC };
	const guint group_df[] = { k, n_interactions(k), k };

	GArray *rows = g_array_new(FALSE, FALSE, sizeof(RsmAnovaRow));
	RsmAnovaRow row =
		make_row(RSM_SOURCE_MODEL, "Model", p - 1, fmax(sst - fit->ss_residual, 0.0));
	test_row(&row, mse, dfe, ok);
	g_array_append_val(rows, row);

	for (guint g = 0; g < 3; g++) {
		if (group_df[g] == 0)
			continue; /* k = 1 has no interactions */
		row = make_row(group_sources[g], group_names[g], group_df[g], sse_drop(nf, g));
		test_row(&row, mse, dfe, ok);
		g_array_append_val(rows, row);
	}

	for (guint t = 1; t < p; t++) {
		double b = fit->beta[t];
		double c_tt = fit->xtx_inv[(gsize)t * p + t];
		row = make_row(RSM_SOURCE_TERM, fit->coef[t].name, 1, b * b / c_tt);
		row.term = t;
		test_row(&row, mse, dfe, ok);
		g_array_append_val(rows, row);
	}

	row = make_row(RSM_SOURCE_RESIDUAL, "Residual", dfe, fit->ss_residual);
	g_array_append_val(rows, row);

	guint df_pe;
	double ss_pe = pure_error(fit, &df_pe);
	/* df_PE <= df_E whenever the design is not singular (fewer distinct points than terms). */
	guint df_lof = dfe > df_pe ? dfe - df_pe : 0;
	RsmAnovaRow lof = make_row(RSM_SOURCE_LACK_OF_FIT, "Lack of Fit", df_lof,
				   fmax(fit->ss_residual - ss_pe, 0.0));
	RsmAnovaRow pe = make_row(RSM_SOURCE_PURE_ERROR, "Pure Error", df_pe, ss_pe);
	if (df_pe == 0)
		fit->lack_of_fit = RSM_LOF_NO_REPLICATES;
	else if (df_lof == 0)
		fit->lack_of_fit = RSM_LOF_NO_DF;
	else if (ss_pe <= zero)
		fit->lack_of_fit = RSM_LOF_ZERO_PURE_ERROR;
	else
		fit->lack_of_fit = RSM_LOF_TESTED;
	test_row(&lof, pe.ms, df_pe, fit->lack_of_fit == RSM_LOF_TESTED);
	g_array_append_val(rows, lof);
	g_array_append_val(rows, pe);

	row = make_row(RSM_SOURCE_COR_TOTAL, "Cor Total", n - 1, sst);
	g_array_append_val(rows, row);

	fit->n_anova = rows->len;
	fit->anova = (RsmAnovaRow *)(void *)g_array_free(rows, FALSE);
}

static void fill_sequential(RsmFit *fit, const NestedFits *nf, double mean, double sumsq,
			    double zero)
{
	guint k = fit->k, n = fit->n_runs;
	static const char *const names[] = { "Linear vs Mean", "2FI vs Linear",
					     "Quadratic vs 2FI" };
	static const RsmSource sources[] = { RSM_SOURCE_LINEAR, RSM_SOURCE_2FI,
					     RSM_SOURCE_QUADRATIC };
	const guint df[] = { k, n_interactions(k), k };

	fit->sequential[0] = make_row(RSM_SOURCE_MEAN, "Mean", 1, n * mean * mean);
	for (guint g = 0; g < 3; g++) {
		RsmAnovaRow *row = &fit->sequential[g + 1];
		*row = make_row(sources[g], names[g], df[g], sse_drop(nf, g));
		/* Design-Expert tests each step against the residual of the model that includes it. */
		guint dfe = nf->df[g + 1];
		double sse = nf->sse[g + 1];
		test_row(row, dfe > 0 ? sse / dfe : NAN, dfe, dfe > 0 && sse > zero);
	}
	fit->sequential[4] =
		make_row(RSM_SOURCE_RESIDUAL, "Residual", fit->df_residual, fit->ss_residual);
	fit->sequential[5] = make_row(RSM_SOURCE_TOTAL, "Total", n, sumsq);
}

static void fill_stats(RsmFit *fit, double sst, double mean)
{
	RsmFitStats *s = &fit->stats;
	guint n = fit->n_runs, p = fit->n_terms, dfe = fit->df_residual;
	s->mean = mean;
	s->std_dev = dfe > 0 ? sqrt(fit->ms_residual) : NAN;
	s->cv_percent = mean != 0.0 ? 100.0 * s->std_dev / fabs(mean) : NAN;
	s->r2 = 1.0 - fit->ss_residual / sst;
	s->adj_r2 = dfe > 0 ? 1.0 - fit->ms_residual / (sst / (n - 1)) : NAN;

	s->press = 0.0;
	for (guint i = 0; i < n; i++) {
		double gap = 1.0 - fit->leverage[i];
		if (gap < LEVERAGE_ONE_GAP) {
			s->press = NAN;
			break;
		}
		double e = fit->residuals[i] / gap;
		s->press += e * e;
	}
	s->pred_r2 = 1.0 - s->press / sst;

	s->adeq_precision = NAN;
	if (fit->error_estimated) {
		double lo = fit->fitted[0], hi = fit->fitted[0];
		for (guint i = 1; i < n; i++) {
			lo = fmin(lo, fit->fitted[i]);
			hi = fmax(hi, fit->fitted[i]);
		}
		s->adeq_precision = (hi - lo) / sqrt(p * fit->ms_residual / n);
	}
}

/* ---- public ---- */

static RsmFit *fit_alloc(guint k, guint n, const double *coded, const double *y,
			 const char *const *factor_names)
{
	RsmFit *fit = g_new0(RsmFit, 1);
	guint p = rsm_quadratic_n_terms(k);
	fit->k = k;
	fit->n_runs = n;
	fit->n_terms = p;
	fit->factor_names = g_new0(char *, k + 1);
	for (guint i = 0; i < k; i++)
		fit->factor_names[i] = factor_name(i, factor_names);
	fit->coded = g_memdup2(coded, (gsize)n * k * sizeof(double));
	fit->y = g_memdup2(y, (gsize)n * sizeof(double));
	fit->coef = g_new0(RsmCoefficient, p);
	fit->beta = g_new0(double, p);
	fit->xtx_inv = g_new0(double, (gsize)p *p);
	fit->fitted = g_new0(double, n);
	fit->residuals = g_new0(double, n);
	fit->leverage = g_new0(double, n);
	return fit;
}

RsmFit *rsm_model_fit(guint k, guint n_runs, const double *coded, const double *y,
		      const char *const *factor_names, GError **error)
{
	if (!check_inputs(k, n_runs, coded, y, error))
		return NULL;
	double sum = 0.0, sumsq = 0.0;
	for (guint i = 0; i < n_runs; i++)
		sum += y[i];
	double mean = sum / n_runs, sst = 0.0;
	for (guint i = 0; i < n_runs; i++) {
		sst += (y[i] - mean) * (y[i] - mean);
		sumsq += y[i] * y[i];
	}
	double zero = zero_ss(y, n_runs);
	if (sst <= zero) {
		g_set_error(
			error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_CONSTANT_RESPONSE,
			"quadratic model: the response is constant (%g in all %u runs): nothing to fit",
			mean, n_runs);
		return NULL;
	}

	RsmFit *fit = fit_alloc(k, n_runs, coded, y, factor_names);
	gsl_matrix *X = rsm_quadratic_design_matrix(k, n_runs, coded);
	gsl_vector_const_view yv = gsl_vector_const_view_array(y, n_runs);
	if (!fit_full(fit, X, &yv.vector, error)) {
		gsl_matrix_free(X);
		rsm_fit_free(fit);
		return NULL;
	}
	compute_fitted(fit);
	fit->df_residual = n_runs - fit->n_terms;
	fit->ms_residual = fit->df_residual > 0 ? fit->ss_residual / fit->df_residual : NAN;
	fit->error_estimated = fit->df_residual > 0 && fit->ss_residual > zero;

	NestedFits nf = nested_fits(fit, X, &yv.vector, sst);
	gsl_matrix_free(X);
	fill_coefficients(fit, factor_names);
	fill_anova(fit, &nf, sst, zero);
	fill_sequential(fit, &nf, mean, sumsq, zero);
	fill_stats(fit, sst, mean);
	return fit;
}

void rsm_fit_free(RsmFit *fit)
{
	if (fit == NULL)
		return;
	g_strfreev(fit->factor_names);
	if (fit->coef != NULL)
		for (guint t = 0; t < fit->n_terms; t++)
			g_free(fit->coef[t].name);
	g_free(fit->coef);
	g_free(fit->coded);
	g_free(fit->y);
	g_free(fit->beta);
	g_free(fit->xtx_inv);
	g_free(fit->fitted);
	g_free(fit->residuals);
	g_free(fit->leverage);
	g_free(fit->anova);
	g_free(fit);
}

const RsmAnovaRow *rsm_fit_anova_row(const RsmFit *fit, RsmSource source, guint term)
{
	if (source == RSM_SOURCE_MEAN || source == RSM_SOURCE_TOTAL) {
		for (guint r = 0; r < RSM_SEQUENTIAL_ROWS; r++)
			if (fit->sequential[r].source == source)
				return &fit->sequential[r];
		return NULL;
	}
	for (guint r = 0; r < fit->n_anova; r++) {
		const RsmAnovaRow *row = &fit->anova[r];
		if (row->source == source && (source != RSM_SOURCE_TERM || row->term == term))
			return row;
	}
	return NULL;
}

double rsm_fit_value(const RsmFit *fit, const double *x)
{
	return rsm_quadratic_eval(fit->k, fit->beta, x);
}

RsmPrediction rsm_fit_predict(const RsmFit *fit, const double *x, double level)
{
	g_autofree double *f = g_new(double, fit->n_terms);
	rsm_quadratic_terms(fit->k, x, f);
	RsmPrediction pr = { .value = 0.0, .std_error = NAN, .lo = NAN, .hi = NAN };
	for (guint t = 0; t < fit->n_terms; t++)
		pr.value += fit->beta[t] * f[t];
	if (fit->df_residual == 0 || !(level > 0.0 && level < 1.0))
		return pr;
	pr.std_error = sqrt(fit->ms_residual * quad_form(fit->xtx_inv, f, fit->n_terms));
	double half = gsl_cdf_tdist_Pinv(0.5 + 0.5 * level, fit->df_residual) * pr.std_error;
	pr.lo = pr.value - half;
	pr.hi = pr.value + half;
	return pr;
}

const char *rsm_lack_of_fit_status_string(RsmLackOfFitStatus status)
{
	switch (status) {
	case RSM_LOF_TESTED:
		return "tested";
	case RSM_LOF_NO_REPLICATES:
		return "not testable: no replicated design points (pure error has 0 df)";
	case RSM_LOF_ZERO_PURE_ERROR:
		return "not testable: replicated runs agree exactly (pure error is 0)";
	case RSM_LOF_NO_DF:
		return "not testable: no degrees of freedom for lack of fit";
	}
	return "unknown";
}
