/*
 * report_residuals.h - the three residual plots of a fitted model, for the calibration line and the
 * response-surface model: residuals against fitted values, against run order, and a normal
 * probability plot (SPEC.md §6).
 *
 * The normal probability plot pairs the i-th smallest of n residuals (i = 1..n) with the standard
 * normal quantile of Blom's plotting position, z_i = Phi^-1((i - 3/8) / (n + 1/4)) (Blom 1958;
 * the positions R's qqnorm uses for n <= 10), and draws the line through the first and third
 * quartiles of both, as R's qqline does: residuals from a normal distribution lie near it.
 *
 * Data files written to the report's directory: PREFIX-residuals.dat (order fitted residual, in
 * run order; the first two figures plot it) and PREFIX-residuals-normal.dat (z residual, sorted).
 */
#ifndef TUNER_REPORT_RESIDUALS_H
#define TUNER_REPORT_RESIDUALS_H

#include "tuner/report/report.h"

G_BEGIN_DECLS

typedef struct {
	const char *what;	   /* the model, for titles: "Calibration", "Response surface" */
	const char *fitted_name;   /* x axis of the first plot, with its unit */
	const char *order_name;	   /* x axis of the second plot, with its unit */
	const char *against;	   /* what the second plot's x is, for its title and caption;
				   * NULL: "run order", the residuals in the order the runs were made */
	const char *residual_name; /* y axis of every plot, with its unit */
	const double *order;	   /* n run-order positions (x of the second plot) */
	const double *fitted;	   /* n fitted values */
	const double *residual;	   /* n residuals, in run order */
	guint n;		   /* >= 2 */
	double band;		   /* dashed lines at +-band on the first two plots; NaN: none */
	const char *band_name;	   /* their key entry, e.g. "±2 RSE" */
} ReportResiduals;

/* Blom's normal score of the i-th (1-based) smallest of n values. */
double report_normal_score(guint i, guint n);

/* The line residual = *q0 + *q1 * z through the first and third quartiles of the n sorted
 * residuals and of their normal scores (type 7 quantiles, R's default). */
void report_quartile_line(const double *sorted, const double *z, guint n, double *q0, double *q1);

/* Write the data and draw the three figures into section s; stems PREFIX-residuals-fitted,
 * PREFIX-residuals-order, PREFIX-residuals-normal. */
gboolean report_residuals(Report *r, ReportSection *s, const char *prefix,
			  const ReportResiduals *res, GError **error);

G_END_DECLS

#endif /* TUNER_REPORT_RESIDUALS_H */
