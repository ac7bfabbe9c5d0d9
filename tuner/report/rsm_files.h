/*
 * rsm_files.h - the files of a response-surface study, for plots and other programs, and reading
 * design.csv back for a re-analysis (`tuner rsm --analyse`).
 *
 * CSV conventions: a header line, one record a line, no quoting (no field holds a comma), numbers
 * printed with %.17g so that they read back exactly (whole numbers for integer factors, i.e. ns),
 * and an EMPTY field where there is no number (an F that is not tested, a prediction the inverse
 * transform cannot map). Coded levels are in run order.
 *
 *   design.csv   run,x1,..,xk,<factor columns>,response,response_t[,<extra columns>]
 *                run order (1-based), coded levels, natural levels as evaluated, the measured
 *                response, and the modelled response y^lambda (equal to response without a
 *                transform). For `tuner rsm`: run,x1,x2,x3,latency_ns,min_granularity_ns,
 *                wakeup_granularity_ns,response,response_t.
 *   anova.csv    source,df,ss,ms,f,p
 *                the ANOVA rows of rsm_model.h in order: Model, Linear, 2FI, Quadratic, each term
 *                by its full name ("latency", "latency*min_granularity", "latency^2"), Residual,
 *                Lack of Fit, Pure Error, Cor Total. ms is empty when df = 0, f and p when the row
 *                is not tested (Lack of Fit with pure error 0, every row without an error estimate).
 *   surface.csv  fixed,x1,..,xk,<factor columns>,predicted,predicted_t
 *                for every pair of factors, a RSM_STUDY_SURFACE_POINTS x RSM_STUDY_SURFACE_POINTS
 *                grid over the cube [-1, 1]² of the pair (the pair's first factor varies fastest),
 *                the other factors held at the constrained optimum; `fixed` names those held
 *                factors (joined by '+' for k > 3). predicted is in the response's units,
 *                predicted_t in the model's (y^lambda). Rows of one pair are contiguous, pairs in
 *                the order (1,2), (1,3), .., (k-1,k).
 *   boxcox.csv   lambda,loglik,inside   the profile log-likelihood on its grid (-3..3 by 0.01),
 *                inside 1 when lambda is in the confidence interval; written only when the profile
 *                could be computed.
 *
 * JSON: rsm_files_json_study writes the study's keys into an open object (see the function).
 *
 * The texts are written by the command (tuner/util/out_files.h). Nothing here owns what it is
 * given; no global state.
 */
#ifndef TUNER_RSM_FILES_H
#define TUNER_RSM_FILES_H

#include <glib.h>

#include "linsched/json.h"
#include "tuner/stats/rsm_design.h"
#include "tuner/stats/rsm_study.h"

G_BEGIN_DECLS

#define RSM_FILES_ERROR (rsm_files_error_quark())

typedef enum {
	RSM_FILES_ERROR_IO,    /* design.csv cannot be read (message names it) */
	RSM_FILES_ERROR_PARSE, /* design.csv is malformed (message names file and line) */
} RsmFilesError;

GQuark rsm_files_error_quark(void);

/* Appends ",v1,v2,..." (the extra columns of run i, run order) to row. */
typedef void (*RsmExtraColumns)(GString *row, guint run, void *ctx);

/* What the files describe (all borrowed). */
typedef struct {
	const RsmDesign *design;
	const char *design_name; /* result.json's design.name: "ccd-rotatable", "ccd-orthogonal",
					  "ccd-faced", "bbd" or "file" (--analyse) */
	const RsmStudyFactor *factors; /* design->k of them */
	const double *natural;	       /* n_runs * k natural levels as evaluated, run order */
	const RsmStudy *study;	       /* analysed in the design's run order */
	const char *extra_header;      /* NULL, or ",name,name" appended to design.csv's header */
	RsmExtraColumns extra;
	void *extra_ctx;
} RsmStudyFiles;

char *rsm_files_design_csv(const RsmStudyFiles *f);
char *rsm_files_anova_csv(const RsmStudyFiles *f);
char *rsm_files_surface_csv(const RsmStudyFiles *f);
/* NULL when the study has no Box-Cox profile. */
char *rsm_files_boxcox_csv(const RsmStudyFiles *f);

/*
 * Writes into the object w is in: factors [{letter, name, column, lo, hi, scale, offset}],
 * design {name, runs, alpha, centre_points, points [{run, std_order, type, coded [..],
 * natural {column: value}, response, response_t}]}, coefficients {term: estimate},
 * coefficient_table [{term, estimate, std_error, t, p}], anova [{source, df, ss, ms, f, p}],
 * sequential [...same], lack_of_fit (rsm_lack_of_fit_status_string), r2, adj_r2, pred_r2,
 * adeq_precision, std_dev, mean, cv_percent, press, lambda (the power applied, 1 without a
 * transform), boxcox {lambda_hat, ci_lo, ci_hi, ci_lo_open, ci_hi_open, transformed, decision,
 * error}, stationary_point ({coded [..], natural {..}, predicted, kind, inside, distance,
 * eigenvalues [..], eigenvectors [[row]..]} or null without one; eigenvalues and eigenvectors
 * are also under canonical {} so that they are there when stationary_point is null), optimum
 * {coded [..], natural {..}, predicted, ci_lo, ci_hi, pi_lo, pi_hi, on_boundary}. Terms use the
 * factors' full names; NaN is null.
 */
void rsm_files_json_study(struct json_writer *w, const RsmStudyFiles *f);

/*
 * Reads a design.csv for k factors: the columns x1..xk and response are required (in any order;
 * others are ignored), blank lines and lines starting with '#' skipped. When a factor's natural
 * column (factors[j].column) is present, each value must be what its coded level maps to under
 * factors[j] (to half a unit for integer factors, 1e-9 relative otherwise), so that a re-analysis
 * with other ranges cannot pass unnoticed. The runs must make a whole design (every run number
 * once, complete sets of cube, axial and edge points, only centre points repeated); with a `round`
 * column (0, 1, ...: a design replicated in rounds, as `tuner rsm --objective vm` writes it) each
 * round must be a whole design and the same one. Returns a new design in the file's order
 * (standard order = run order, point types classified from the levels, alpha the largest |level|)
 * and the responses in *y (g_free), or NULL with an error naming file and line.
 */
RsmDesign *rsm_files_read_design(const char *path, const RsmStudyFactor *factors, guint k,
				 double **y, GError **error);

G_END_DECLS

#endif
