/*
 * report_residuals.c - residual plots (see report_residuals.h).
 */
#include "tuner/report/report_residuals.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

double report_normal_score(guint i, guint n)
{
	return gsl_cdf_ugaussian_Pinv((i - 0.375) / (n + 0.25));
}

void report_quartile_line(const double *sorted, const double *z, guint n, double *q0, double *q1)
{
	double r1 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
	double r3 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75);
	double z1 = gsl_stats_quantile_from_sorted_data(z, 1, n, 0.25);
	double z3 = gsl_stats_quantile_from_sorted_data(z, 1, n, 0.75);

	*q1 = (r3 - r1) / (z3 - z1);
	*q0 = r1 - *q1 * z1;
}

static char *run_order_data(const ReportResiduals *res)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "# %s residuals in run order\n# order fitted residual\n",
			       res->what);
	for (guint i = 0; i < res->n; i++) {
		g_string_append_printf(out, "%.10g", res->order[i]);
		report_data_number(out, res->fitted[i]);
		report_data_number(out, res->residual[i]);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

static char *normal_data(const ReportResiduals *res, double *q0, double *q1)
{
	g_autofree double *sorted = g_memdup2(res->residual, sizeof(double) * res->n);
	g_autofree double *z = g_new(double, res->n);
	GString *out = g_string_new(NULL);

	gsl_sort(sorted, 1, res->n);
	for (guint i = 0; i < res->n; i++)
		z[i] = report_normal_score(i + 1, res->n);
	report_quartile_line(sorted, z, res->n, q0, q1);
	g_string_append_printf(out,
			       "# %s residuals in increasing order with Blom's normal scores\n"
			       "# reference line: residual = %.10g + %.10g z\n# z residual\n",
			       res->what, *q0, *q1);
	for (guint i = 0; i < res->n; i++)
		g_string_append_printf(out, "%.10g %.10g\n", z[i], sorted[i]);
	return g_string_free(out, FALSE);
}

static void common_vars(GString *vars, const ReportResiduals *res)
{
	report_var_string(vars, "what", res->what);
	report_var_string(vars, "yname", res->residual_name);
	report_var_number(vars, "band", res->band);
	report_var_string(vars, "bandname", res->band_name);
}

/* The largest |residual| and where, for the captions. */
static guint largest(const ReportResiduals *res)
{
	guint at = 0;

	for (guint i = 1; i < res->n; i++)
		if (fabs(res->residual[i]) > fabs(res->residual[at]))
			at = i;
	return at;
}

gboolean report_residuals(Report *r, ReportSection *s, const char *prefix,
			  const ReportResiduals *res, GError **error)
{
	g_autofree char *order_file = g_strdup_printf("%s-residuals.dat", prefix);
	g_autofree char *normal_file = g_strdup_printf("%s-residuals-normal.dat", prefix);
	g_autofree char *order_text = run_order_data(res);
	double q0, q1;
	g_autofree char *normal_text = normal_data(res, &q0, &q1);
	guint big = largest(res);

	if (!report_write_data(r, order_file, order_text, error) ||
	    !report_write_data(r, normal_file, normal_text, error))
		return FALSE;

	g_autofree char *stem_fitted = g_strdup_printf("%s-residuals-fitted", prefix);
	g_autofree char *stem_order = g_strdup_printf("%s-residuals-order", prefix);
	g_autofree char *stem_normal = g_strdup_printf("%s-residuals-normal", prefix);
	g_autofree char *title_fitted =
		g_strdup_printf("%s: residuals vs fitted values", res->what);
	const char *against = res->against ? res->against : "run order";
	g_autofree char *title_order = g_strdup_printf("%s: residuals vs %s", res->what, against);
	g_autofree char *title_normal =
		g_strdup_printf("%s: normal probability plot of the residuals", res->what);
	g_autofree char *cap_fitted = g_strdup_printf(
		"%u residuals; the largest is %.4g at fitted value %.4g (run-order position %g).%s%s%s",
		res->n, res->residual[big], res->fitted[big], res->order[big],
		isnan(res->band) ? "" : " Dashed lines: ", isnan(res->band) ? "" : res->band_name,
		isnan(res->band) ? "" : ".");
	g_autofree char *cap_order =
		res->against
			? g_strdup_printf("The same %u residuals against %s; x axis: %s.", res->n,
					  res->against, res->order_name)
			: g_strdup_printf(
				  "The same %u residuals in the order the runs were made; x axis: %s.",
				  res->n, res->order_name);
	g_autofree char *cap_normal = g_strdup_printf(
		"Ordered residuals against Blom's normal scores; reference line through the quartiles: residual = "
		"%.4g + %.4g z.",
		q0, q1);
	g_autoptr(GString) v1 = g_string_new(NULL);
	g_autoptr(GString) v2 = g_string_new(NULL);
	g_autoptr(GString) v3 = g_string_new(NULL);

	common_vars(v1, res);
	report_var_string(v1, "xname", res->fitted_name);
	common_vars(v2, res);
	report_var_string(v2, "xname", res->order_name);
	report_var_string(v2, "against", against);
	report_var_string(v3, "what", res->what);
	report_var_string(v3, "yname", res->residual_name);
	report_var_number(v3, "q0", q0);
	report_var_number(v3, "q1", q1);
	return report_plot(r, s, "residuals-fitted.gp", order_file, stem_fitted, title_fitted,
			   cap_fitted, v1, error) &&
	       report_plot(r, s, "residuals-order.gp", order_file, stem_order, title_order,
			   cap_order, v2, error) &&
	       report_plot(r, s, "residuals-normal.gp", normal_file, stem_normal, title_normal,
			   cap_normal, v3, error);
}
