/*
 * test_rsm.c -- the quadratic response-surface model (tuner/stats/rsm_model.h): fit, coefficient table,
 * ANOVA, sequential sums of squares, fit statistics, prediction, degenerate cases and errors.
 *
 * Expected numbers come from two independent places:
 *   - a published example with its printed results (Montgomery's chemical-process CCD, below);
 *   - a reference computation inside this file that shares no code with the module: the model
 *     matrix is written out term by term, the normal equations X'X b = X'y are solved by
 *     Gauss-Jordan elimination in long double (GSL uses an SVD), every sum of squares is computed
 *     from its definition, and partial sums of squares by actually refitting without the term
 *     (the module uses the identity b_j² / C_jj).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/stats/rsm_model.h"
#include "tests/support/assert_close.h"

/* A value printed with d decimals agrees with x if |x - printed| <= half a unit of the last digit
 * (plus a hair for the binary representation of the printed value). */
static double printed(int decimals)
{
	return 0.5 * pow(10.0, -decimals) + 1e-12;
}

/* ---- Montgomery's example ---- */

/*
 * Source: D. C. Montgomery, "Design and Analysis of Experiments", Wiley, chapter 11 (response
 * surface methods): the chemical process studied with a central composite design in reaction time
 * (80..90 min) and temperature (170..180 °F), 4 factorial, 4 axial and 5 centre runs, response
 * yield y1. The book lists the axial points as ±1.414 (natural 92.07/77.93 and 182.07/167.93);
 * its Design-Expert output was computed with the exact rotatable alpha = sqrt(2): with 1.414 the
 * printed F values come out 0.2% low (e.g. Model F 79.67 instead of 79.85), with sqrt(2) every
 * printed digit below is reproduced. The ANOVA table (partial SS) is also reproduced on
 * ReliaSoft's validation page
 * http://reliawiki.org/index.php/Central_Composite_Response_Surface_Method.
 *
 * Printed results: ŷ = 79.94 + 0.99 x1 + 0.52 x2 - 1.38 x1² - 1.00 x2² + 0.25 x1 x2;
 * ANOVA (SS, df, MS, F, p): Model 28.25, 5, 5.65, 79.85, <0.0001; A 7.92, 1, F 111.93; B 2.12,
 * F 30.01, p 0.0009; A² 13.18, F 186.22; B² 6.97, F 98.56; AB 0.25, F 3.53, p 0.1022;
 * Residual 0.50, 7, 0.071; Lack of Fit 0.28, 3, 0.094, F 1.78, p 0.2897; Pure Error 0.21, 4, 0.053;
 * Cor Total 28.74, 12. Std. Dev. 0.27, Mean 78.48, C.V. 0.34, PRESS 2.35, R² 0.9828,
 * Adj R² 0.9705, Pred R² 0.9184, Adeq Precision 23.018. Sequential model SS: Mean 80062.16;
 * Linear 10.04, 2, F 2.69, p 0.1166; 2FI 0.25, 1, F 0.12, p 0.7350; Quadratic 17.95, 2, F 126.88,
 * p <0.0001. (The fit statistics and the sequential table are from the book's Design-Expert output
 * as we read it; test_montgomery_independent recomputes every one of them from its definition.)
 */
#define MG_N 13
static const double mg_x1[MG_N] = { -1, -1, 1, 1, 0, 0, 0, 0, 0, G_SQRT2, -G_SQRT2, 0, 0 };
static const double mg_x2[MG_N] = { -1, 1, -1, 1, 0, 0, 0, 0, 0, 0, 0, G_SQRT2, -G_SQRT2 };
static const double mg_y[MG_N] = { 76.5, 77.0, 78.0, 79.5, 79.9, 80.3, 80.0,
				   79.7, 79.8, 78.4, 75.6, 78.5, 77.0 };

static void mg_coded(double *coded)
{
	for (int i = 0; i < MG_N; i++) {
		coded[2 * i] = mg_x1[i];
		coded[2 * i + 1] = mg_x2[i];
	}
}

static RsmFit *mg_fit(void)
{
	double coded[2 * MG_N];
	mg_coded(coded);
	static const char *const names[] = { "A", "B" };
	GError *error = NULL;
	RsmFit *fit = rsm_model_fit(2, MG_N, coded, mg_y, names, &error);
	assert_null(error);
	assert_non_null(fit);
	return fit;
}

static const RsmAnovaRow *term_row(const RsmFit *fit, const char *name)
{
	for (guint r = 0; r < fit->n_anova; r++)
		if (fit->anova[r].source == RSM_SOURCE_TERM &&
		    strcmp(fit->anova[r].name, name) == 0)
			return &fit->anova[r];
	fail_msg("no ANOVA row for term %s", name);
	return NULL;
}

static void test_montgomery_book_values(void **state)
{
	(void)state;
	g_autoptr(RsmFit) fit = mg_fit();

	/* Coefficients; the term order is Intercept, A, B, AB, A², B². */
	assert_int_equal(fit->n_terms, 6);
	static const char *const names[] = { "Intercept", "A", "B", "A*B", "A^2", "B^2" };
	static const double book_b[] = { 79.94, 0.99, 0.52, 0.25, -1.38, -1.00 };
	for (guint t = 0; t < 6; t++) {
		assert_string_equal(fit->coef[t].name, names[t]);
		assert_close(fit->coef[t].estimate, book_b[t], printed(2));
	}

	const RsmAnovaRow *model = rsm_fit_anova_row(fit, RSM_SOURCE_MODEL, 0);
	assert_int_equal(model->df, 5);
	assert_close(model->ss, 28.25, printed(2));
	assert_close(model->ms, 5.65, printed(2));
	assert_close(model->f, 79.85, printed(2));
	assert_true(model->tested && model->p < 0.0001);

	struct {
		const char *name;
		double ss, f;
	} terms[] = {
		{ "A", 7.92, 111.93 },	{ "B", 2.12, 30.01 },  { "A^2", 13.18, 186.22 },
		{ "B^2", 6.97, 98.56 }, { "A*B", 0.25, 3.53 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(terms); i++) {
		const RsmAnovaRow *row = term_row(fit, terms[i].name);
		assert_int_equal(row->df, 1);
		assert_close(row->ss, terms[i].ss, printed(2));
		assert_close(row->f, terms[i].f, printed(2));
	}
	assert_close(term_row(fit, "B")->p, 0.0009, printed(4));
	assert_close(term_row(fit, "A*B")->p, 0.1022, printed(4));

	const RsmAnovaRow *res = rsm_fit_anova_row(fit, RSM_SOURCE_RESIDUAL, 0);
	assert_int_equal(res->df, 7);
	assert_close(res->ss, 0.50, printed(2));
	assert_close(res->ms, 0.071, printed(3));
	assert_false(res->tested);

	const RsmAnovaRow *lof = rsm_fit_anova_row(fit, RSM_SOURCE_LACK_OF_FIT, 0);
	assert_int_equal(fit->lack_of_fit, RSM_LOF_TESTED);
	assert_int_equal(lof->df, 3);
	assert_close(lof->ss, 0.28, printed(2));
	assert_close(lof->ms, 0.094, printed(3));
	assert_close(lof->f, 1.78, printed(2));
	assert_close(lof->p, 0.2897, printed(4));

	const RsmAnovaRow *pe = rsm_fit_anova_row(fit, RSM_SOURCE_PURE_ERROR, 0);
	assert_int_equal(pe->df, 4);
	assert_close(pe->ss, 0.21, printed(2));
	assert_close(pe->ms, 0.053, printed(3));

	const RsmAnovaRow *tot = rsm_fit_anova_row(fit, RSM_SOURCE_COR_TOTAL, 0);
	assert_int_equal(tot->df, 12);
	assert_close(tot->ss, 28.74, printed(2));

	assert_close(fit->stats.std_dev, 0.27, printed(2));
	assert_close(fit->stats.mean, 78.48, printed(2));
	assert_close(fit->stats.cv_percent, 0.34, printed(2));
	assert_close(fit->stats.press, 2.35, printed(2));
	assert_close(fit->stats.r2, 0.9828, printed(4));
	assert_close(fit->stats.adj_r2, 0.9705, printed(4));
	assert_close(fit->stats.pred_r2, 0.9184, printed(4));
	assert_close(fit->stats.adeq_precision, 23.018, printed(3));

	const RsmAnovaRow *seq = fit->sequential;
	assert_int_equal(seq[0].source, RSM_SOURCE_MEAN);
	assert_close(seq[0].ss, 80062.16, printed(2));
	assert_close(seq[1].ss, 10.04, printed(2));
	assert_int_equal(seq[1].df, 2);
	assert_close(seq[1].f, 2.69, printed(2));
	assert_close(seq[1].p, 0.1166, printed(4));
	assert_close(seq[2].ss, 0.25, printed(2));
	assert_int_equal(seq[2].df, 1);
	assert_close(seq[2].f, 0.12, printed(2));
	assert_close(seq[2].p, 0.7350, printed(4));
	assert_close(seq[3].ss, 17.95, printed(2));
	assert_int_equal(seq[3].df, 2);
	assert_close(seq[3].f, 126.88, printed(2));
	assert_true(seq[3].p < 0.0001);
}

/* ---- independent reference computation ---- */

/* Model row of the k = 2 quadratic written out by hand, in the module's term order. */
static void ref_row_k2(double x1, double x2, double *f)
{
	f[0] = 1.0;
	f[1] = x1;
	f[2] = x2;
	f[3] = x1 * x2;
	f[4] = x1 * x1;
	f[5] = x2 * x2;
}

/*
 * Least squares on the columns of X (n x p, row-major) selected by use[] (NULL: all), via the
 * normal equations solved by Gauss-Jordan elimination with partial pivoting in long double.
 * Writes the coefficients of the used columns (b, in column order, 0 for unused), (X'X)^-1 of the
 * used columns into inv (p x p, NULL allowed) and returns the SSE.
 */
static double ref_least_squares(const double *X, int n, int p, const gboolean *use, const double *y,
				double *b, double *inv)
{
	int cols[16], m = 0;
	for (int j = 0; j < p; j++)
		if (use == NULL || use[j])
			cols[m++] = j;
	long double A[16][33];
	for (int a = 0; a < m; a++) {
		for (int c = 0; c < m; c++) {
			long double s = 0;
			for (int i = 0; i < n; i++)
				s += (long double)X[i * p + cols[a]] * X[i * p + cols[c]];
			A[a][c] = s;
			A[a][m + 1 + c] = a == c;
		}
		long double s = 0;
		for (int i = 0; i < n; i++)
			s += (long double)X[i * p + cols[a]] * y[i];
		A[a][m] = s;
	}
	for (int c = 0; c < m; c++) {
		int piv = c;
		for (int r = c + 1; r < m; r++)
			if (fabsl(A[r][c]) > fabsl(A[piv][c]))
				piv = r;
		for (int j = 0; j < 2 * m + 1; j++) {
			long double t = A[c][j];
			A[c][j] = A[piv][j];
			A[piv][j] = t;
		}
		long double d = A[c][c];
		for (int j = 0; j < 2 * m + 1; j++)
			A[c][j] /= d;
		for (int r = 0; r < m; r++) {
			if (r == c)
				continue;
			long double f = A[r][c];
			for (int j = 0; j < 2 * m + 1; j++)
				A[r][j] -= f * A[c][j];
		}
	}
	for (int j = 0; j < p; j++)
		b[j] = 0.0;
	for (int a = 0; a < m; a++)
		b[cols[a]] = (double)A[a][m];
	if (inv != NULL)
		for (int a = 0; a < m; a++)
			for (int c = 0; c < m; c++)
				inv[cols[a] * p + cols[c]] = (double)A[a][m + 1 + c];
	long double sse = 0;
	for (int i = 0; i < n; i++) {
		long double e = y[i];
		for (int j = 0; j < p; j++)
			e -= (long double)X[i * p + j] * b[j];
		sse += e * e;
	}
	return (double)sse;
}

static void test_montgomery_independent(void **state)
{
	(void)state;
	g_autoptr(RsmFit) fit = mg_fit();
	enum {
		P = 6
	};
	double X[MG_N * P], b[P], inv[P * P];
	for (int i = 0; i < MG_N; i++)
		ref_row_k2(mg_x1[i], mg_x2[i], X + i * P);
	double sse = ref_least_squares(X, MG_N, P, NULL, mg_y, b, inv);

	double mean = 0.0, sst = 0.0, sumsq = 0.0;
	for (int i = 0; i < MG_N; i++)
		mean += mg_y[i] / MG_N;
	for (int i = 0; i < MG_N; i++) {
		sst += (mg_y[i] - mean) * (mg_y[i] - mean);
		sumsq += mg_y[i] * mg_y[i];
	}
	double mse = sse / (MG_N - P);
	/* Student t quantile t_{0.975, 7} = 2.364624 (standard tables). */
	const double t975_7 = 2.364624;

	for (int t = 0; t < P; t++) {
		assert_close(fit->beta[t], b[t], 1e-10);
		double se = sqrt(mse * inv[t * P + t]);
		assert_close(fit->coef[t].std_error, se, 1e-10);
		assert_close(fit->coef[t].t, b[t] / se, 1e-7 * fabs(b[t] / se));
	}
	assert_close(fit->ss_residual, sse, 1e-10);
	assert_int_equal(fit->df_residual, MG_N - P);
	assert_true(fit->error_estimated);

	/* Partial SS: refit without each term. */
	for (int t = 1; t < P; t++) {
		gboolean use[P];
		for (int j = 0; j < P; j++)
			use[j] = j != t;
		double bb[P];
		double sse_without = ref_least_squares(X, MG_N, P, use, mg_y, bb, NULL);
		const RsmAnovaRow *row = rsm_fit_anova_row(fit, RSM_SOURCE_TERM, (guint)t);
		assert_non_null(row);
		assert_close(row->ss, sse_without - sse, 1e-9);
		assert_close(row->f, (sse_without - sse) / mse, 1e-7 * row->f);
	}

	/* Sequential SS: nested fits mean ⊂ linear ⊂ 2FI ⊂ quadratic. */
	gboolean lin[P] = { 1, 1, 1, 0, 0, 0 }, fi[P] = { 1, 1, 1, 1, 0, 0 };
	double bb[P];
	double sse_lin = ref_least_squares(X, MG_N, P, lin, mg_y, bb, NULL);
	double sse_2fi = ref_least_squares(X, MG_N, P, fi, mg_y, bb, NULL);
	const RsmAnovaRow *seq = fit->sequential;
	assert_close(seq[0].ss, MG_N * mean * mean, 1e-7);
	assert_close(seq[1].ss, sst - sse_lin, 1e-9);
	assert_close(seq[1].f, (sst - sse_lin) / 2 / (sse_lin / (MG_N - 3)), 1e-9);
	assert_close(seq[2].ss, sse_lin - sse_2fi, 1e-9);
	assert_close(seq[2].f, (sse_lin - sse_2fi) / (sse_2fi / (MG_N - 4)), 1e-9);
	assert_close(seq[3].ss, sse_2fi - sse, 1e-9);
	assert_close(seq[3].f, (sse_2fi - sse) / 2 / mse, 1e-7);
	assert_close(seq[4].ss, sse, 1e-10);
	assert_close(seq[5].ss, sumsq, 1e-7);
	assert_int_equal(seq[5].df, MG_N);
	/* The table adds up, and the main ANOVA's groups are the same sequential SS. */
	assert_close(seq[0].ss + seq[1].ss + seq[2].ss + seq[3].ss + seq[4].ss, seq[5].ss, 1e-7);
	assert_close(rsm_fit_anova_row(fit, RSM_SOURCE_LINEAR, 0)->ss, sst - sse_lin, 1e-9);
	assert_close(rsm_fit_anova_row(fit, RSM_SOURCE_2FI, 0)->ss, sse_lin - sse_2fi, 1e-9);
	assert_close(rsm_fit_anova_row(fit, RSM_SOURCE_QUADRATIC, 0)->ss, sse_2fi - sse, 1e-9);
	assert_close(rsm_fit_anova_row(fit, RSM_SOURCE_QUADRATIC, 0)->f, (sse_2fi - sse) / 2 / mse,
		     1e-7);
	assert_close(rsm_fit_anova_row(fit, RSM_SOURCE_MODEL, 0)->ss, sst - sse, 1e-9);

	/* Pure error from the five centre runs (indices 4..8), lack of fit the rest of the residual. */
	double cmean = 0.0, ss_pe = 0.0;
	for (int i = 4; i < 9; i++)
		cmean += mg_y[i] / 5;
	for (int i = 4; i < 9; i++)
		ss_pe += (mg_y[i] - cmean) * (mg_y[i] - cmean);
	assert_close(rsm_fit_anova_row(fit, RSM_SOURCE_PURE_ERROR, 0)->ss, ss_pe, 1e-12);
	const RsmAnovaRow *lof = rsm_fit_anova_row(fit, RSM_SOURCE_LACK_OF_FIT, 0);
	assert_close(lof->ss, sse - ss_pe, 1e-10);
	assert_close(lof->f, ((sse - ss_pe) / 3) / (ss_pe / 4), 1e-8);

	/* Leverages, PRESS, statistics. */
	double press = 0.0, lo = INFINITY, hi = -INFINITY, sum_h = 0.0;
	for (int i = 0; i < MG_N; i++) {
		const double *f = X + i * P;
		double h = 0.0, yhat = 0.0;
		for (int a = 0; a < P; a++) {
			yhat += f[a] * b[a];
			for (int c = 0; c < P; c++)
				h += f[a] * inv[a * P + c] * f[c];
		}
		assert_close(fit->leverage[i], h, 1e-10);
		assert_close(fit->fitted[i], yhat, 1e-10);
		sum_h += h;
		double e = (mg_y[i] - yhat) / (1.0 - h);
		press += e * e;
		lo = fmin(lo, yhat);
		hi = fmax(hi, yhat);
	}
	assert_close(sum_h, P, 1e-10);
	assert_close(fit->stats.press, press, 1e-9);
	assert_close(fit->stats.r2, 1.0 - sse / sst, 1e-12);
	assert_close(fit->stats.adj_r2, 1.0 - mse / (sst / (MG_N - 1)), 1e-12);
	assert_close(fit->stats.pred_r2, 1.0 - press / sst, 1e-10);
	assert_close(fit->stats.adeq_precision, (hi - lo) / sqrt(P * mse / MG_N), 1e-8);
	assert_close(fit->stats.cv_percent, 100.0 * sqrt(mse) / mean, 1e-10);

	/* Prediction with a 95% confidence interval at an arbitrary point. */
	double x0[2] = { 0.4, -0.7 }, f0[P];
	ref_row_k2(x0[0], x0[1], f0);
	double yhat = 0.0, v = 0.0;
	for (int a = 0; a < P; a++) {
		yhat += f0[a] * b[a];
		for (int c = 0; c < P; c++)
			v += f0[a] * inv[a * P + c] * f0[c];
	}
	RsmPrediction pr = rsm_fit_predict(fit, x0, 0.95);
	assert_close(pr.value, yhat, 1e-10);
	assert_close(rsm_fit_value(fit, x0), yhat, 1e-10);
	assert_close(pr.std_error, sqrt(mse * v), 1e-10);
	assert_close(pr.lo, yhat - t975_7 * sqrt(mse * v), 1e-5);
	assert_close(pr.hi, yhat + t975_7 * sqrt(mse * v), 1e-5);
}

/* ---- exact quadratic in three factors ---- */

/* A rotatable CCD for k = 3 (alpha = 8^(1/4)) with 6 centre points, standard order, written out. */
#define CCD3_N 20
static void ccd3_coded(double *coded)
{
	const double a = pow(8.0, 0.25);
	int r = 0;
	for (int i = 0; i < 8; i++, r++)
		for (int j = 0; j < 3; j++)
			coded[3 * r + j] = (i >> j) & 1 ? 1.0 : -1.0;
	for (int j = 0; j < 3; j++) {
		for (int s = -1; s <= 1; s += 2, r++) {
			coded[3 * r] = coded[3 * r + 1] = coded[3 * r + 2] = 0.0;
			coded[3 * r + j] = s * a;
		}
	}
	for (; r < CCD3_N; r++)
		coded[3 * r] = coded[3 * r + 1] = coded[3 * r + 2] = 0.0;
}

/* Coefficients in the module's order: 1, A, B, C, AB, AC, BC, A², B², C². */
static const double exact_beta[10] = { 50.0, 3.0, -2.0, 1.5, 0.8, -0.6, 0.4, 2.5, -1.2, 0.7 };

static double exact_quadratic(const double *x)
{
	return 50.0 + 3.0 * x[0] - 2.0 * x[1] + 1.5 * x[2] + 0.8 * x[0] * x[1] - 0.6 * x[0] * x[2] +
	       0.4 * x[1] * x[2] + 2.5 * x[0] * x[0] - 1.2 * x[1] * x[1] + 0.7 * x[2] * x[2];
}

static void test_exact_quadratic_k3(void **state)
{
	(void)state;
	double coded[3 * CCD3_N], y[CCD3_N];
	ccd3_coded(coded);
	for (int i = 0; i < CCD3_N; i++)
		y[i] = exact_quadratic(coded + 3 * i);
	static const char *const names[] = { "A", "B", "C" };
	GError *error = NULL;
	g_autoptr(RsmFit) fit = rsm_model_fit(3, CCD3_N, coded, y, names, &error);
	assert_null(error);
	assert_non_null(fit);

	assert_int_equal(fit->n_terms, 10);
	static const char *const term_names[] = { "Intercept", "A",   "B",   "C",   "A*B",
						  "A*C",       "B*C", "A^2", "B^2", "C^2" };
	for (int t = 0; t < 10; t++) {
		assert_string_equal(fit->coef[t].name, term_names[t]);
		assert_close(fit->beta[t], exact_beta[t], 1e-11);
	}
	/* Zero residual and zero pure error: no test anywhere, no infinity, no division by zero. */
	assert_false(fit->error_estimated);
	assert_int_equal(fit->lack_of_fit, RSM_LOF_ZERO_PURE_ERROR);
	assert_close(fit->stats.r2, 1.0, 1e-12);
	for (guint r = 0; r < fit->n_anova; r++) {
		assert_false(fit->anova[r].tested);
		assert_true(isnan(fit->anova[r].f) && isnan(fit->anova[r].p));
		assert_true(isfinite(fit->anova[r].ss));
	}
	for (int t = 0; t < 10; t++)
		assert_true(isnan(fit->coef[t].t) && isnan(fit->coef[t].p));
	assert_true(isnan(fit->stats.adeq_precision));

	/* Prediction anywhere is the quadratic itself. */
	double x0[3] = { 0.3, -0.9, 1.2 };
	assert_close(rsm_fit_value(fit, x0), exact_quadratic(x0), 1e-10);
}

/* ---- lack of fit not testable ---- */

/* A response the quadratic cannot fit (a cubic term) whose replicated centre runs agree exactly:
 * there is residual error, but none of it is pure error. */
static void test_zero_pure_error(void **state)
{
	(void)state;
	double coded[2 * MG_N], y[MG_N];
	mg_coded(coded);
	for (int i = 0; i < MG_N; i++) {
		double x1 = mg_x1[i], x2 = mg_x2[i];
		y[i] = 10.0 + x1 - x2 + 0.5 * x1 * x1 + 2.0 * x1 * x1 * x1 +
		       0.3 * x2 * x2 * x2 * x1;
	}
	GError *error = NULL;
	g_autoptr(RsmFit) fit = rsm_model_fit(2, MG_N, coded, y, NULL, &error);
	assert_null(error);
	assert_true(fit->ss_residual > 1e-3);
	assert_true(fit->error_estimated);

	assert_int_equal(fit->lack_of_fit, RSM_LOF_ZERO_PURE_ERROR);
	const RsmAnovaRow *lof = rsm_fit_anova_row(fit, RSM_SOURCE_LACK_OF_FIT, 0);
	const RsmAnovaRow *pe = rsm_fit_anova_row(fit, RSM_SOURCE_PURE_ERROR, 0);
	assert_false(lof->tested);
	assert_true(isnan(lof->f) && isnan(lof->p));
	assert_int_equal(pe->df, 4);
	assert_close(pe->ss, 0.0, 1e-20);
	assert_close(lof->ss, fit->ss_residual, 1e-12);
	assert_int_equal(lof->df, 3);
	assert_string_equal(rsm_lack_of_fit_status_string(fit->lack_of_fit),
			    "not testable: replicated runs agree exactly (pure error is 0)");

	/* Every other testable row has a finite F and p. */
	for (guint r = 0; r < fit->n_anova; r++) {
		const RsmAnovaRow *row = &fit->anova[r];
		gboolean has_test =
			row->source == RSM_SOURCE_MODEL || row->source == RSM_SOURCE_LINEAR ||
			row->source == RSM_SOURCE_2FI || row->source == RSM_SOURCE_QUADRATIC ||
			row->source == RSM_SOURCE_TERM;
		assert_int_equal(row->tested, has_test);
		if (has_test)
			assert_true(isfinite(row->f) && isfinite(row->p) && row->p >= 0.0 &&
				    row->p <= 1.0);
	}
	for (guint t = 0; t < fit->n_terms; t++)
		assert_true(isfinite(fit->coef[t].t) && isfinite(fit->coef[t].p));
	assert_true(isfinite(fit->stats.adeq_precision));
	assert_true(isfinite(fit->stats.pred_r2));
}

/* One centre point: nothing is replicated, so there is no pure error at all. */
static void test_no_replicates(void **state)
{
	(void)state;
	double coded[2 * 9], y[9];
	int r = 0;
	for (int i = 0; i < MG_N; i++) {
		if (i > 4 && i < 9)
			continue; /* keep the first of the five centre runs */
		coded[2 * r] = mg_x1[i];
		coded[2 * r + 1] = mg_x2[i];
		y[r++] = mg_y[i];
	}
	g_autoptr(RsmFit) fit = rsm_model_fit(2, 9, coded, y, NULL, NULL);
	assert_non_null(fit);
	assert_int_equal(fit->lack_of_fit, RSM_LOF_NO_REPLICATES);
	const RsmAnovaRow *pe = rsm_fit_anova_row(fit, RSM_SOURCE_PURE_ERROR, 0);
	assert_int_equal(pe->df, 0);
	assert_true(isnan(pe->ms));
	assert_false(rsm_fit_anova_row(fit, RSM_SOURCE_LACK_OF_FIT, 0)->tested);
	assert_true(rsm_fit_anova_row(fit, RSM_SOURCE_MODEL, 0)->tested);
}

/* ---- errors ---- */

static void test_too_few_runs(void **state)
{
	(void)state;
	double coded[3 * 9] = { 0 }, y[9];
	for (int i = 0; i < 9; i++) {
		coded[3 * i + i % 3] = i < 3 ? 1.0 : -1.0;
		y[i] = i;
	}
	GError *error = NULL;
	RsmFit *fit = rsm_model_fit(3, 9, coded, y, NULL, &error);
	assert_null(fit);
	assert_true(g_error_matches(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_TOO_FEW_RUNS));
	assert_non_null(strstr(error->message, "9 runs for 10 terms"));
	g_error_free(error);
}

static void test_constant_response(void **state)
{
	(void)state;
	double coded[2 * MG_N], y[MG_N];
	mg_coded(coded);
	for (int i = 0; i < MG_N; i++)
		y[i] = 0.1 * 3.0; /* the same double every time */
	GError *error = NULL;
	assert_null(rsm_model_fit(2, MG_N, coded, y, NULL, &error));
	assert_true(g_error_matches(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_CONSTANT_RESPONSE));
	g_error_free(error);
}

/* A 2^2 factorial with centre points cannot tell x1² from x2² (both columns are 1 on the cube
 * and 0 at the centre). */
static void test_singular_design(void **state)
{
	(void)state;
	double coded[2 * 8] = { -1, -1, 1, -1, -1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	double y[8] = { 1, 2, 3, 5, 4, 4.2, 3.9, 4.1 };
	GError *error = NULL;
	assert_null(rsm_model_fit(2, 8, coded, y, NULL, &error));
	assert_true(g_error_matches(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_SINGULAR));
	g_error_free(error);
}

static void test_not_finite(void **state)
{
	(void)state;
	double coded[2 * MG_N], y[MG_N];
	mg_coded(coded);
	memcpy(y, mg_y, sizeof y);
	y[7] = NAN;
	GError *error = NULL;
	assert_null(rsm_model_fit(2, MG_N, coded, y, NULL, &error));
	assert_true(g_error_matches(error, RSM_MODEL_ERROR, RSM_MODEL_ERROR_NOT_FINITE));
	assert_non_null(strstr(error->message, "run 8"));
	g_error_free(error);
}

/* ---- term bookkeeping ---- */

static void test_terms(void **state)
{
	(void)state;
	assert_int_equal(rsm_quadratic_n_terms(2), 6);
	assert_int_equal(rsm_quadratic_n_terms(3), 10);
	assert_int_equal(rsm_quadratic_n_terms(6), 28);
	/* k = 4: 1, x1..x4 (1-4), x1x2 x1x3 x1x4 x2x3 x2x4 x3x4 (5-10), squares (11-14). */
	assert_int_equal(rsm_term_interaction(4, 0, 1), 5);
	assert_int_equal(rsm_term_interaction(4, 3, 0), 7);
	assert_int_equal(rsm_term_interaction(4, 1, 2), 8);
	assert_int_equal(rsm_term_interaction(4, 2, 3), 10);
	assert_int_equal(rsm_term_quadratic(4, 0), 11);
	for (guint t = 0; t < 15; t++) {
		g_autofree char *name = rsm_term_name(4, t, NULL);
		static const char *const expect[] = { "Intercept", "x1",    "x2",    "x3",
						      "x4",	   "x1*x2", "x1*x3", "x1*x4",
						      "x2*x3",	   "x2*x4", "x3*x4", "x1^2",
						      "x2^2",	   "x3^2",  "x4^2" };
		assert_string_equal(name, expect[t]);
	}
	double x[4] = { 2, 3, 5, 7 }, f[15];
	rsm_quadratic_terms(4, x, f);
	static const double expect_f[] = { 1, 2, 3, 5, 7, 6, 10, 14, 15, 21, 35, 4, 9, 25, 49 };
	for (int t = 0; t < 15; t++)
		assert_close(f[t], expect_f[t], 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_montgomery_book_values),
		cmocka_unit_test(test_montgomery_independent),
		cmocka_unit_test(test_exact_quadratic_k3),
		cmocka_unit_test(test_zero_pure_error),
		cmocka_unit_test(test_no_replicates),
		cmocka_unit_test(test_too_few_runs),
		cmocka_unit_test(test_constant_response),
		cmocka_unit_test(test_singular_design),
		cmocka_unit_test(test_not_finite),
		cmocka_unit_test(test_terms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
