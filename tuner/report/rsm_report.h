/*
 * rsm_report.h - the text tables of a response-surface study, laid out as RSM tools (Design-Expert,
 * R's rsm) print them, for `tuner rsm` and `tuner meta-pso`.
 *
 * Each section function appends one section to a GString, ending with a blank line, so that a
 * command composes its report from the sections it needs and adds its own (header, confirmation);
 * rsm_report_natural and rsm_report_setting append values for the command's own lines. Numbers
 * a section cannot give (a p-value without an error estimate, an F that is not tested) are left
 * blank, with the reason in a note, never printed as nan.
 *
 * Names: factors appear as their letters (A, B, C) in the model's tables, with a legend in the
 * factor table and "A-latency" on the linear rows of the ANOVA, as Design-Expert does; files and
 * JSON (rsm_files.h) use the full names.
 *
 * Nothing here owns what it is given; no global state.
 */
#ifndef TUNER_RSM_REPORT_H
#define TUNER_RSM_REPORT_H

#include <glib.h>

#include "tuner/stats/rsm_design.h"
#include "tuner/stats/rsm_study.h"

G_BEGIN_DECLS

/* A value of factor f in natural units as the reports print it: whole numbers for integer
 * factors (ns), else 4 significant digits. */
void rsm_report_natural(GString *out, const RsmStudyFactor *f, double natural);

/* "central composite, rotatable (alpha = 1.6818)", "Box-Behnken", ..., told from the design's point
 * types and alpha. Free with g_free. */
char *rsm_report_design_name(const RsmDesign *design);

/* The factors: letter, name, coded -1 and +1 in natural units, scale. */
void rsm_report_factors(GString *out, const RsmStudyFactor *factors, guint k);

/* The design in run order: run, standard order, point type, coded levels, natural levels, the
 * response and, when the study transformed it, the modelled response. */
void rsm_report_design(GString *out, const RsmDesign *design, const RsmStudyFactor *factors,
		       const RsmStudy *study, const char *response_unit);

/* Box-Cox: lambda-hat, its interval, the decision, and the profile log-likelihood at every 0.5. */
void rsm_report_boxcox(GString *out, const RsmStudy *study);

/* Sequential model sums of squares [Type I]: Mean, Linear vs Mean, 2FI vs Linear, Quadratic vs
 * 2FI, Residual, Total. */
void rsm_report_sequential(GString *out, const RsmStudy *study);

/* ANOVA of the quadratic model: Model, the three groups, each term, Residual, Lack of Fit, Pure
 * Error, Cor Total, with df, SS, MS, F, p. */
void rsm_report_anova(GString *out, const RsmStudy *study, const RsmStudyFactor *factors);

/* Std. Dev., Mean, C.V. %, PRESS, R², adjusted R², predicted R², adequate precision. */
void rsm_report_fit_stats(GString *out, const RsmStudy *study);

/* Coefficients in coded units: estimate, standard error, t, p; and the fitted equation. */
void rsm_report_coefficients(GString *out, const RsmStudy *study);

/* The stationary point (coded and natural, predicted response, kind, eigenvalues and
 * eigenvectors, a warning when it is outside the region) and the constrained optimum (coded,
 * natural, predicted response with its confidence and prediction intervals). */
void rsm_report_optimum(GString *out, const RsmStudy *study, const RsmStudyFactor *factors,
			const char *response_unit);

/* Every section of the analysis, in the order the tools print them: Box-Cox, sequential sums of
 * squares, ANOVA, fit statistics, coefficients, optimum. */
void rsm_report_analysis(GString *out, const RsmStudy *study, const RsmStudyFactor *factors,
			 const char *response_unit);

/* "A=... B=... " one line of natural values (name=value), for confirmation lines. */
void rsm_report_setting(GString *out, const RsmStudyFactor *factors, guint k,
			const double *natural);

G_END_DECLS

#endif
