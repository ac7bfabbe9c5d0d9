/*
 * regression.c -- least-squares line with its statistics; see regression.h for the definitions.
 */
#include "tuner/stats/regression.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(regression-error-quark, regression_error)
/* clang-format on */

/* The three numbers gsl_fit_linear reports besides the line itself. */
typedef struct {
	double a, b;
	double cov_aa, cov_ab, cov_bb;
	double sse;
} LineFit;

static gboolean all_finite(const double *v, gsize n, const char *name, GError **error)
{
	for (gsize i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			g_set_error(error, REGRESSION_ERROR, REGRESSION_ERROR_NOT_FINITE,
				    "regression: %s[%" G_GSIZE_FORMAT
				    "] is %g, not a finite number",
				    name, i, v[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* TRUE when at least two of the n values differ, i.e. a slope through them exists. */
static gboolean has_spread(const double *x, gsize n)
{
	for (gsize i = 1; i < n; i++)
		if (x[i] != x[0])
			return TRUE;
	return FALSE;
}

static LineFit fit_line(const double *x, const double *y, gsize n)
{
	LineFit f;
	gsl_fit_linear(x, 1, y, 1, n, &f.a, &f.b, &f.cov_aa, &f.cov_ab, &f.cov_bb, &f.sse);
	return f;
}

/* Two-sided p-value of a t statistic; IEEE infinities (perfect fits) handled explicitly rather
 * than trusting the CDF's behaviour at the edge of its domain. */
static double t_two_sided_p(double t, double df)
{
	if (isnan(t))
		return NAN;
	if (isinf(t))
		return 0.0;
	return 2.0 * gsl_cdf_tdist_Q(fabs(t), df);
}

void regression_t_test(double estimate, double se, double df, double *t, double *p)
{
	*t = estimate / se;
	*p = t_two_sided_p(*t, df);
}

static double f_upper_p(double f, double df1, double df2)
{
	if (isnan(f))
		return NAN;
	if (isinf(f))
		return 0.0;
	return gsl_cdf_fdist_Q(f, df1, df2);
}

/*
 * Refit without each point in turn and average the relative error of predicting it. The refits
 * are what the definition says, so the number means exactly what its name says even if the
 * model is later changed (weights, transforms) and the hat-matrix shortcut no longer applies.
 */
static double leave_one_out_mape(const double *x, const double *y, gsize n)
{
	g_autofree double *xs = g_new(double, n - 1);
	g_autofree double *ys = g_new(double, n - 1);
	double sum = 0.0;

	for (gsize i = 0; i < n; i++) {
		gsize k = 0;
		for (gsize j = 0; j < n; j++) {
			if (j == i)
				continue;
			xs[k] = x[j];
			ys[k] = y[j];
			k++;
		}
		if (!has_spread(xs, n - 1))
			return NAN;
		LineFit f = fit_line(xs, ys, n - 1);
		double predicted = f.a + f.b * x[i];
		sum += fabs(y[i] - predicted) / fabs(y[i]);
	}
	return 100.0 * sum / (double)n;
}

static void fill_points(Regression *r, const double *x, const double *y)
{
	r->fitted = g_new(double, r->n);
	r->residuals = g_new(double, r->n);
	for (gsize i = 0; i < r->n; i++) {
		r->fitted[i] = r->a + r->b * x[i];
		r->residuals[i] = y[i] - r->fitted[i];
	}
}

static void fill_statistics(Regression *r, const LineFit *f, const double *y)
{
	double n = (double)r->n;
	double df = n - 2.0;

	r->se_a = sqrt(f->cov_aa);
	r->se_b = sqrt(f->cov_bb);
	r->cov_ab = f->cov_ab;
	regression_t_test(r->a, r->se_a, df, &r->t_a, &r->p_a);
	regression_t_test(r->b, r->se_b, df, &r->t_b, &r->p_b);

	r->sse = f->sse;
	r->sst = gsl_stats_tss(y, 1, r->n);
	r->rse = sqrt(r->sse / df);
	r->r2 = r->sst > 0.0 ? 1.0 - r->sse / r->sst : NAN;
	r->adj_r2 = 1.0 - (1.0 - r->r2) * (n - 1.0) / df;

	double ssr = r->sst - r->sse;
	r->f = ssr / (r->sse / df);
	r->f_p = f_upper_p(r->f, 1.0, df);
}

Regression *regression_fit(const double *x, const double *y, gsize n, GError **error)
{
	if (n < 3) {
		g_set_error(error, REGRESSION_ERROR, REGRESSION_ERROR_TOO_FEW_POINTS,
			    "regression: %" G_GSIZE_FORMAT
			    " point(s) given, a line with error estimates "
			    "needs at least 3",
			    n);
		return NULL;
	}
	if (!all_finite(x, n, "x", error) || !all_finite(y, n, "y", error))
		return NULL;
	if (!has_spread(x, n)) {
		g_set_error(error, REGRESSION_ERROR, REGRESSION_ERROR_CONSTANT_X,
			    "regression: all %" G_GSIZE_FORMAT
			    " x values are equal (%g), the slope is "
			    "undefined",
			    n, x[0]);
		return NULL;
	}

	LineFit f = fit_line(x, y, n);
	if (!isfinite(f.a) || !isfinite(f.b)) {
		/* Distinct but so close that their spread underflows. */
		g_set_error(error, REGRESSION_ERROR, REGRESSION_ERROR_CONSTANT_X,
			    "regression: the x values are too close together for a slope (spread "
			    "underflows)");
		return NULL;
	}

	Regression *r = g_new0(Regression, 1);
	r->n = n;
	r->a = f.a;
	r->b = f.b;
	fill_statistics(r, &f, y);
	fill_points(r, x, y);
	r->loo_mape = leave_one_out_mape(x, y, n);
	return r;
}

/* m Σ_j (ȳ_.j - ȳ_..)² for m points of R runs each, run j of every point in block j. */
static double block_sum_of_squares(const double *runs, gsize m, gsize R)
{
	double grand = gsl_stats_mean(runs, 1, m * R), ss = 0;

	for (gsize j = 0; j < R; j++) {
		double block = gsl_stats_mean(&runs[j], R, m) - grand;
		ss += (double)m * block * block;
	}
	return ss;
}

static gboolean equal_counts(const gsize *counts, gsize m)
{
	for (gsize i = 1; i < m; i++)
		if (counts[i] != counts[0])
			return FALSE;
	return TRUE;
}

static gboolean all_positive(const double *v, gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (!(v[i] > 0))
			return FALSE;
	return TRUE;
}

/*
 * The pure error of m points of R runs each, run j of every point in block j, each block's common
 * factor taken out on the log scale (regression.h).
 */
static double proportional_pure_error(const double *runs, gsize m, gsize R)
{
	g_autofree double *logs = g_new(double, m *R);
	g_autofree double *scaled = g_new(double, m *R);
	double ss = 0;

	for (gsize i = 0; i < m * R; i++)
		logs[i] = log(runs[i]);
	double grand = gsl_stats_mean(logs, 1, m * R);

	for (gsize j = 0; j < R; j++) {
		double factor = exp(gsl_stats_mean(&logs[j], R, m) - grand);

		for (gsize i = 0; i < m; i++)
			scaled[i * R + j] = runs[i * R + j] / factor;
	}
	for (gsize i = 0; i < m; i++)
		ss += gsl_stats_tss(&scaled[i * R], 1, R);
	return ss;
}

LackOfFit regression_lack_of_fit(const Regression *means, const double *runs, const gsize *counts,
				 RegressionBlocks blocks)
{
	LackOfFit lof = { .ss_lof = 0, .ss_pe = 0, .df_lof = (double)means->n - 2.0, .df_pe = 0 };
	double inverse_counts = 0;
	gsize k = 0;

	for (gsize i = 0; i < means->n; i++) {
		double mean = gsl_stats_mean(&runs[k], 1, counts[i]);
		double miss = mean - means->fitted[i];

		lof.ss_pe += counts[i] > 1 ? gsl_stats_tss_m(&runs[k], 1, counts[i], mean) : 0.0;
		lof.df_pe += (double)counts[i] - 1.0;
		lof.ss_lof += (double)counts[i] * miss * miss;
		inverse_counts += 1.0 / (double)counts[i];
		k += counts[i];
	}
	if (blocks == REGRESSION_BLOCKS_PROPORTIONAL && !all_positive(runs, k))
		blocks = REGRESSION_BLOCKS_NONE;
	if (blocks != REGRESSION_BLOCKS_NONE && counts[0] > 1 && equal_counts(counts, means->n)) {
		lof.ss_pe = blocks == REGRESSION_BLOCKS_PROPORTIONAL
				    ? proportional_pure_error(runs, means->n, counts[0])
				    : fmax(0.0, lof.ss_pe - block_sum_of_squares(runs, means->n,
										 counts[0]));
		lof.df_pe -= (double)counts[0] - 1.0;
	}
	lof.n_eff = (double)means->n / inverse_counts;
	if (lof.df_pe <= 0) {
		lof.f = lof.p = lof.pe_sd = lof.r2_ceiling = NAN;
		return lof;
	}
	double ms_pe = lof.ss_pe / lof.df_pe;
	lof.pe_sd = sqrt(ms_pe);
	lof.f = ms_pe > 0 ? (lof.ss_lof / lof.df_lof) / ms_pe : NAN;
	lof.p = ms_pe > 0 ? f_upper_p(lof.f, lof.df_lof, lof.df_pe) : NAN;
	lof.r2_ceiling = ms_pe > 0 && means->sst > 0
				 ? 1.0 - lof.df_lof * ms_pe * (inverse_counts / (double)means->n) /
						   means->sst
				 : NAN;
	return lof;
}

double regression_repeats_for_r2(const Regression *means, const LackOfFit *lof, double target)
{
	double var = lof->pe_sd * lof->pe_sd, noise_df = (double)means->n - 1.0;

	if (!(var > 0) || !(target > 0 && target < 1))
		return NAN;
	double signal = means->sst - noise_df * var / lof->n_eff;
	if (!(signal > 0))
		return INFINITY;
	return fmax(1.0, ceil((lof->df_lof * var / (1.0 - target) - noise_df * var) / signal));
}

void regression_free(Regression *fit)
{
	if (fit == NULL)
		return;
	g_free(fit->fitted);
	g_free(fit->residuals);
	g_free(fit);
}

double regression_predict(const Regression *fit, double x)
{
	return fit->a + fit->b * x;
}
