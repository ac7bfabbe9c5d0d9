/*
 * rsm_report.c - text tables of a response-surface study (see rsm_report.h).
 */
#include "tuner/report/rsm_report.h"

#include <math.h>
#include <string.h>

/* Significance level of the verdicts printed beside the Model and Lack of Fit rows. */
#define VERDICT_LEVEL	    0.05
/* Design-Expert's rules of thumb for the fit statistics. */
#define ADEQ_PRECISION_GOOD 4.0
#define PRED_ADJ_R2_GAP	    0.2

/* ---- cells -------------------------------------------------------------------------------- */

/* A number in `width` columns with `sig` significant digits; blank when NaN. */
static void cell(GString *out, int width, int sig, double v)
{
	if (isnan(v))
		g_string_append_printf(out, " %*s", width, "");
	else
		g_string_append_printf(out, " %*.*g", width, sig, v);
}

static void cell_fixed(GString *out, int width, int decimals, double v)
{
	if (isnan(v))
		g_string_append_printf(out, " %*s", width, "");
	else
		g_string_append_printf(out, " %*.*f", width, decimals, v);
}

/* A p-value as Design-Expert prints it: 4 decimals, "< 0.0001" below that; blank when NaN. */
static void cell_p(GString *out, int width, double p)
{
	if (isnan(p))
		g_string_append_printf(out, " %*s", width, "");
	else if (p < 1e-4)
		g_string_append_printf(out, " %*s", width, "< 0.0001");
	else
		g_string_append_printf(out, " %*.4f", width, p);
}

/* v, or 0 when it would print as -0.0000 with 4 decimals. */
static double tidy4(double v)
{
	return fabs(v) < 5e-5 ? 0.0 : v;
}

void rsm_report_natural(GString *out, const RsmStudyFactor *f, double natural)
{
	if (f->integer && fabs(natural) < 1e15)
		g_string_append_printf(out, "%.0f", round(natural) + 0.0); /* + 0.0: never "-0" */
	else
		g_string_append_printf(out, "%.4g", natural);
}

static char *natural_text(const RsmStudyFactor *f, double natural)
{
	GString *s = g_string_new(NULL);

	rsm_report_natural(s, f, natural);
	return g_string_free(s, FALSE);
}

void rsm_report_setting(GString *out, const RsmStudyFactor *factors, guint k, const double *natural)
{
	for (guint j = 0; j < k; j++) {
		g_string_append_printf(out, "%s%s=", j ? " " : "", factors[j].column);
		rsm_report_natural(out, &factors[j], natural[j]);
	}
}

/* "y", "ln(y)", "y^-0.5": what the model describes. */
static char *modelled(const RsmStudy *s)
{
	if (!s->transformed)
		return g_strdup("y");
	if (s->lambda == 0)
		return g_strdup("ln(y)");
	return g_strdup_printf("y^%g", s->lambda);
}

/* ---- design --------------------------------------------------------------------------------- */

char *rsm_report_design_name(const RsmDesign *design)
{
	bool bbd = false, ccd = false;

	for (guint i = 0; i < design->n_runs; i++) {
		bbd |= design->type[i] == RSM_POINT_EDGE;
		ccd |= design->type[i] == RSM_POINT_CUBE;
	}
	if (bbd)
		return g_strdup("Box-Behnken");
	if (!ccd)
		return g_strdup("user design");
	if (design->alpha == 1)
		return g_strdup("central composite, face-centred (alpha = 1)");

	double rot = rsm_ccd_alpha(design->k, RSM_ALPHA_ROTATABLE, 0);

	return g_strdup_printf("central composite, %s (alpha = %.4f)",
			       fabs(design->alpha - rot) < 1e-12 ? "rotatable" : "axial distance",
			       design->alpha);
}

void rsm_report_factors(GString *out, const RsmStudyFactor *factors, guint k)
{
	g_string_append(out, "Factors (coded -1 and +1 are the ends of each range)\n");
	for (guint j = 0; j < k; j++) {
		const RsmStudyFactor *f = &factors[j];
		g_autofree char *lo = natural_text(f, rsm_study_factor_lo(f));
		g_autofree char *hi = natural_text(f, rsm_study_factor_hi(f));

		g_string_append_printf(out, "  %s  %-22s %14s .. %-14s %s", f->letter, f->column,
				       lo, hi, f->range.scale == RSM_SCALE_LOG ? "log" : "linear");
		if (f->offset)
			g_string_append_printf(out, " (of value + %g, so that 0 is reachable)",
					       f->offset);
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
}

static int natural_width(const RsmStudyFactor *f)
{
	return MAX(12, (int)strlen(f->column));
}

void rsm_report_design(GString *out, const RsmDesign *design, const RsmStudyFactor *factors,
		       const RsmStudy *study, const char *response_unit)
{
	guint k = design->k;
	g_autofree char *m = modelled(study);

	g_string_append_printf(out, "Design in run order (%u runs; response in %s)\n",
			       design->n_runs, response_unit);
	g_string_append_printf(out, "  %4s %4s %-6s", "Run", "Std", "Type");
	for (guint j = 0; j < k; j++)
		g_string_append_printf(out, " %7s", factors[j].letter);
	for (guint j = 0; j < k; j++)
		g_string_append_printf(out, " %*s", natural_width(&factors[j]), factors[j].column);
	g_string_append_printf(out, " %12s", "response");
	if (study->transformed)
		g_string_append_printf(out, " %12s", m);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < design->n_runs; i++) {
		const double *x = rsm_design_run(design, i);

		g_string_append_printf(out, "  %4u %4u %-6s", i + 1, design->std_order[i] + 1,
				       rsm_study_point_name(design->type[i]));
		for (guint j = 0; j < k; j++)
			g_string_append_printf(out, " %7.4f", tidy4(x[j]));
		for (guint j = 0; j < k; j++) {
			g_autofree char *v =
				natural_text(&factors[j], rsm_study_to_natural(&factors[j], x[j]));

			g_string_append_printf(out, " %*s", natural_width(&factors[j]), v);
		}
		cell(out, 12, 7, study->y[i]);
		if (study->transformed)
			cell(out, 12, 7, study->y_t[i]);
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
}

/* ---- Box-Cox -------------------------------------------------------------------------------- */

static void boxcox_profile_table(GString *out, const BoxcoxProfile *b)
{
	g_string_append_printf(out, "  %8s %12s\n", "lambda", "log L");
	for (double l = -3; l <= 3 + 1e-9; l += 0.5) {
		/* The grid is -3..3 in steps of 0.01: the nearest grid point is l itself. */
		guint i = (guint)lround(
			(l - b->lambda[0]) /
			((b->lambda[b->n_grid - 1] - b->lambda[0]) / (b->n_grid - 1)));

		if (i >= b->n_grid)
			continue;
		g_string_append_printf(out, "  %8.2f %12.4f%s\n", b->lambda[i], b->loglik[i],
				       b->lambda[i] >= b->ci_lo && b->lambda[i] <= b->ci_hi
					       ? "  inside the interval"
					       : "");
	}
}

void rsm_report_boxcox(GString *out, const RsmStudy *s)
{
	const BoxcoxProfile *b = s->boxcox;
	g_autofree char *m = modelled(s);

	g_string_append(
		out,
		"Box-Cox power transform (profile log-likelihood of the quadratic model, lambda in [-3, 3])\n");
	if (b) {
		g_string_append_printf(
			out,
			"  lambda-hat %.2f, %.0f%% interval [%.2f%s, %.2f%s]  (log L max %.4f, cut-off %.4f)\n",
			b->lambda_hat, RSM_STUDY_LEVEL * 100, b->ci_lo,
			b->ci_lo_open ? " (open)" : "", b->ci_hi, b->ci_hi_open ? " (open)" : "",
			b->loglik_max, b->cutoff);
	} else {
		g_string_append_printf(out, "  not computed: %s\n", s->boxcox_error);
	}
	switch (s->decision) {
	case RSM_TRANSFORM_NOT_NEEDED:
		g_string_append(out,
				"  1 lies inside the interval: the response is not transformed\n");
		break;
	case RSM_TRANSFORM_NEEDED:
		g_string_append_printf(
			out,
			"  1 lies outside the interval: the model describes %s (lambda %g, the "
			"round value in the interval nearest lambda-hat)\n",
			m, s->lambda);
		break;
	case RSM_TRANSFORM_UNAVAILABLE:
		g_string_append(out, "  the response is not transformed\n");
		break;
	case RSM_TRANSFORM_REFUSED:
		g_string_append_printf(out, "  --lambda none: the response is not transformed%s\n",
				       b && !(b->ci_lo <= 1 && 1 <= b->ci_hi)
					       ? " (although 1 lies outside the interval)"
					       : "");
		break;
	case RSM_TRANSFORM_FORCED:
		g_string_append_printf(out, "  --lambda %g: the model describes %s\n", s->lambda,
				       m);
		break;
	}
	if (b)
		boxcox_profile_table(out, b);
	g_string_append_c(out, '\n');
}

/* ---- model tables --------------------------------------------------------------------------- */

static void table_header(GString *out, int name_width)
{
	g_string_append_printf(out, "  %-*s %14s %4s %14s %10s %9s\n", name_width, "Source",
			       "Sum of Squares", "df", "Mean Square", "F Value", "p-value");
}

static void table_row(GString *out, int name_width, const char *name, const RsmAnovaRow *r)
{
	g_string_append_printf(out, "  %-*s", name_width, name);
	cell(out, 14, 6, r->ss);
	g_string_append_printf(out, " %4u", r->df);
	cell(out, 14, 6, r->df ? r->ms : NAN);
	cell(out, 10, 5, r->tested ? r->f : NAN);
	cell_p(out, 9, r->tested ? r->p : NAN);
}

void rsm_report_sequential(GString *out, const RsmStudy *s)
{
	g_autofree char *m = modelled(s);

	g_string_append_printf(out, "Sequential model sum of squares [Type I] (model of %s)\n", m);
	table_header(out, 18);
	for (int i = 0; i < RSM_SEQUENTIAL_ROWS; i++) {
		const RsmAnovaRow *r = &s->fit->sequential[i];

		table_row(out, 18, r->source == RSM_SOURCE_MEAN ? "Mean vs Total" : r->name, r);
		g_string_append_c(out, '\n');
	}
	g_string_append(
		out,
		"  (each F tests the added group against the residual of the model that includes it)\n\n");
}

/* "A-latency" for a linear term, else the fit's own name ("A*B", "A^2"). */
static char *term_label(const RsmStudy *s, const RsmStudyFactor *factors, guint t)
{
	for (guint j = 0; j < s->k; j++)
		if (rsm_term_linear(s->k, j) == t)
			return g_strdup_printf("%s-%s", factors[j].letter, factors[j].name);
	return g_strdup(s->fit->coef[t].name);
}

void rsm_report_anova(GString *out, const RsmStudy *s, const RsmStudyFactor *factors)
{
	const RsmFit *fit = s->fit;
	g_autofree char *m = modelled(s);
	int w = 24;

	g_string_append_printf(out, "ANOVA for the quadratic model of %s\n", m);
	table_header(out, w);
	for (guint i = 0; i < fit->n_anova; i++) {
		const RsmAnovaRow *r = &fit->anova[i];
		g_autofree char *name = NULL;
		bool indent = r->source == RSM_SOURCE_LINEAR || r->source == RSM_SOURCE_2FI ||
			      r->source == RSM_SOURCE_QUADRATIC || r->source == RSM_SOURCE_TERM ||
			      r->source == RSM_SOURCE_LACK_OF_FIT ||
			      r->source == RSM_SOURCE_PURE_ERROR;

		if (r->source == RSM_SOURCE_TERM) {
			g_autofree char *label = term_label(s, factors, r->term);

			name = g_strdup_printf("  %s", label);
		} else {
			name = g_strdup_printf("%s%s", indent ? "  " : "", r->name);
		}
		if (r->source == RSM_SOURCE_PURE_ERROR &&
		    fit->lack_of_fit == RSM_LOF_ZERO_PURE_ERROR) {
			/* The model judged it zero (1e-39 of rounding left by the group means): print it so. */
			RsmAnovaRow zero = *r;

			zero.ss = zero.ms = 0;
			table_row(out, w, name, &zero);
		} else {
			table_row(out, w, name, r);
		}
		if (r->source == RSM_SOURCE_MODEL && r->tested)
			g_string_append(out, r->p < VERDICT_LEVEL ? "  significant"
								  : "  not significant");
		if (r->source == RSM_SOURCE_LACK_OF_FIT) {
			if (fit->lack_of_fit == RSM_LOF_TESTED)
				g_string_append(out, r->p < VERDICT_LEVEL ? "  significant"
									  : "  not significant");
			else
				g_string_append_printf(
					out, "  %s",
					rsm_lack_of_fit_status_string(fit->lack_of_fit));
		}
		g_string_append_c(out, '\n');
	}
	g_string_append(
		out,
		"  (Linear, 2FI, Quadratic: sequential sums of squares, adding up to Model; terms: partial\n"
		"   sums of squares; F against the residual mean square, Lack of Fit against Pure Error)\n");
	if (!fit->error_estimated)
		g_string_append(out,
				"  no F test: the residual is zero or has no degrees of freedom\n");
	g_string_append_c(out, '\n');
}

void rsm_report_fit_stats(GString *out, const RsmStudy *s)
{
	const RsmFitStats *st = &s->fit->stats;

	g_string_append(out, "Fit statistics\n");
	g_string_append_printf(out, "  %-10s", "Std. Dev.");
	cell(out, 12, 6, st->std_dev);
	g_string_append_printf(out, "    %-15s", "R^2");
	cell_fixed(out, 9, 4, st->r2);
	g_string_append_printf(out, "\n  %-10s", "Mean");
	cell(out, 12, 6, st->mean);
	g_string_append_printf(out, "    %-15s", "Adjusted R^2");
	cell_fixed(out, 9, 4, st->adj_r2);
	g_string_append_printf(out, "\n  %-10s", "C.V. %");
	cell(out, 12, 4, st->cv_percent);
	g_string_append_printf(out, "    %-15s", "Predicted R^2");
	cell_fixed(out, 9, 4, st->pred_r2);
	g_string_append_printf(out, "\n  %-10s", "PRESS");
	cell(out, 12, 6, st->press);
	g_string_append_printf(out, "    %-15s", "Adeq Precision");
	cell_fixed(out, 9, 3, st->adeq_precision);
	g_string_append_c(out, '\n');
	if (isfinite(st->adeq_precision))
		g_string_append_printf(out, "  Adeq Precision (signal to noise) %s %g: %s\n",
				       st->adeq_precision > ADEQ_PRECISION_GOOD ? "above"
										: "not above",
				       ADEQ_PRECISION_GOOD,
				       st->adeq_precision > ADEQ_PRECISION_GOOD
					       ? "the model can navigate the design space"
					       : "the signal is weak");
	if (isfinite(st->pred_r2) && isfinite(st->adj_r2))
		g_string_append_printf(
			out, "  Predicted R^2 is %s %g of Adjusted R^2\n",
			fabs(st->pred_r2 - st->adj_r2) < PRED_ADJ_R2_GAP ? "within" : "NOT within",
			PRED_ADJ_R2_GAP);
	else if (isnan(st->pred_r2))
		g_string_append(out, "  Predicted R^2 not available: a run has leverage 1\n");
	g_string_append_c(out, '\n');
}

void rsm_report_coefficients(GString *out, const RsmStudy *s)
{
	const RsmFit *fit = s->fit;
	g_autofree char *m = modelled(s);

	g_string_append_printf(out, "Coefficients in coded units (model of %s)\n", m);
	g_string_append_printf(out, "  %-10s %14s %14s %10s %9s\n", "Term", "Estimate",
			       "Std. Error", "t Value", "p-value");
	for (guint t = 0; t < fit->n_terms; t++) {
		const RsmCoefficient *c = &fit->coef[t];

		g_string_append_printf(out, "  %-10s", c->name);
		cell(out, 14, 6, c->estimate);
		cell(out, 14, 6, c->std_error);
		cell(out, 10, 4, c->t);
		cell_p(out, 9, c->p);
		g_string_append_c(out, '\n');
	}
	g_string_append_printf(out, "  %s =", m);
	for (guint t = 0; t < fit->n_terms; t++) {
		double b = fit->coef[t].estimate;

		if (t == 0)
			g_string_append_printf(out, " %.6g", b);
		else
			g_string_append_printf(out, " %s %.6g %s", b < 0 ? "-" : "+", fabs(b),
					       fit->coef[t].name);
	}
	g_string_append(out, "\n\n");
}

/* ---- optimum -------------------------------------------------------------------------------- */

static void coded_point(GString *out, const RsmStudyFactor *factors, guint k, const double *x)
{
	for (guint j = 0; j < k; j++)
		g_string_append_printf(out, "%s%s = %.4f", j ? ", " : "", factors[j].letter,
				       tidy4(x[j]));
}

static void natural_point(GString *out, const RsmStudyFactor *factors, guint k, const double *x)
{
	double nat[RSM_MODEL_MAX_FACTORS];

	for (guint j = 0; j < k; j++)
		nat[j] = rsm_study_to_natural(&factors[j], x[j]);
	rsm_report_setting(out, factors, k, nat);
}

static void value_or_na(GString *out, double v, const char *unit)
{
	if (isnan(v))
		g_string_append(out, "n/a (the inverse transform has no value there)");
	else
		g_string_append_printf(out, "%.6g %s", v, unit);
}

static void stationary(GString *out, const RsmStudy *s, const RsmStudyFactor *factors,
		       const char *unit)
{
	const RsmCanonical *c = s->canonical;
	guint k = s->k;

	g_string_append(out, "Canonical analysis of the fitted surface (coded units)\n");
	g_string_append(out, "  eigenvalues:");
	for (guint i = 0; i < k; i++)
		g_string_append_printf(out, " %12.6g", c->eigenvalues[i]);
	g_string_append(out, "\n  eigenvectors (columns, in the order of the eigenvalues):\n");
	for (guint r = 0; r < k; r++) {
		g_string_append_printf(out, "  %11s", factors[r].letter);
		for (guint i = 0; i < k; i++)
			g_string_append_printf(out, " %12.4f", tidy4(c->eigenvectors[r * k + i]));
		g_string_append_c(out, '\n');
	}
	if (!c->has_stationary_point) {
		g_string_append(
			out,
			"  no unique stationary point: the surface is flat along an eigenvector (ridge)\n\n");
		return;
	}
	g_string_append(out, "  stationary point: ");
	coded_point(out, factors, k, c->x_s);
	g_string_append(out, "\n                    ");
	natural_point(out, factors, k, c->x_s);
	g_string_append_printf(out, "\n  kind: %s of the response", rsm_study_kind(s));
	if (c->kind == RSM_STATIONARY_RIDGE)
		g_string_append(
			out,
			" (an eigenvalue is near zero: the surface is nearly flat along its eigenvector, "
			"so the point is poorly determined)");
	g_string_append(out, "\n  predicted response there: ");
	value_or_na(out, s->stationary_y, unit);
	g_string_append_c(out, '\n');
	if (!c->inside)
		g_string_append_printf(
			out,
			"  WARNING: the stationary point lies outside the design region (the cube [-1, 1]^%u; "
			"distance %.3g from the centre): it is an extrapolation\n",
			k, c->distance);
	g_string_append_c(out, '\n');
}

void rsm_report_optimum(GString *out, const RsmStudy *s, const RsmStudyFactor *factors,
			const char *unit)
{
	const RsmOptimum *o = s->optimum;

	stationary(out, s, factors, unit);
	g_string_append_printf(
		out,
		"Constrained optimum: the smallest predicted response in the cube [-1, 1]^%u "
		"(Nelder-Mead, %u starts)\n  coded:   ",
		s->k, o->n_starts);
	coded_point(out, factors, s->k, o->x);
	if (o->on_boundary)
		g_string_append(out, "  (on the boundary of the region)");
	g_string_append(out, "\n  natural: ");
	natural_point(out, factors, s->k, o->x);
	g_string_append(out, "\n  predicted: ");
	value_or_na(out, s->optimum_y.value, unit);
	if (isfinite(s->optimum_y.lo))
		g_string_append_printf(out, ", %.0f%% confidence interval [%.6g, %.6g]",
				       RSM_STUDY_LEVEL * 100, s->optimum_y.lo, s->optimum_y.hi);
	if (isfinite(s->optimum_pi_lo))
		g_string_append_printf(
			out, "\n             %.0f%% prediction interval of one run [%.6g, %.6g]",
			RSM_STUDY_LEVEL * 100, s->optimum_pi_lo, s->optimum_pi_hi);
	g_string_append(out, "\n\n");
}

void rsm_report_analysis(GString *out, const RsmStudy *study, const RsmStudyFactor *factors,
			 const char *response_unit)
{
	rsm_report_boxcox(out, study);
	rsm_report_sequential(out, study);
	rsm_report_anova(out, study, factors);
	rsm_report_fit_stats(out, study);
	rsm_report_coefficients(out, study);
	rsm_report_optimum(out, study, factors, response_unit);
}
