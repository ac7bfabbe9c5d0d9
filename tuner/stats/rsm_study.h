/*
 * rsm_study.h - one response-surface study from measured responses to the optimum: the analysis
 * that `tuner rsm` (the CFS knobs) and `tuner meta-pso` (the PSO parameters) share.
 *
 * The statistics live in rsm_design.h, rsm_model.h, boxcox.h and rsm_optimum.h; this module
 * chains them with the decisions a study has to make, so that both commands make them alike:
 *
 *   1. Fit the full quadratic model to the raw response. This is the check that the data can be
 *      analysed at all (at least as many runs as terms, a response that varies, a design that
 *      separates the terms); its errors are the caller's "bad input".
 *   2. Box-Cox. The profile log-likelihood over lambda in [-3, 3] (boxcox.h) is computed whenever
 *      it can be (it needs positive responses and a residual; when it cannot, the reason is kept
 *      and reported). --lambda auto transforms only when 1 lies outside the 95% interval, and then
 *      with boxcox_suggest()'s rounded lambda (1, 0.5, 0, -0.5, -1, ... inside the interval:
 *      y^-0.5 is easier to read than y^-0.43 and fits as well); none never transforms; a number
 *      forces that lambda. The transform is the plain power y^lambda (ln y at 0).
 *   3. Fit the model to the transformed response (the raw fit when there is no transform).
 *   4. Canonical analysis of the fitted surface, with "inside the region" judged against the cube
 *      [-1, 1]^k of the factorial points: the region the ranges describe, and the one the optimum
 *      is searched in. (The axial points of a rotatable CCD lie beyond it; they are there to
 *      estimate curvature, not to widen the region of interest.)
 *   5. The constrained optimum: the smallest response inside the cube (Nelder-Mead,
 *      rsm_optimum.h). y^lambda falls as y rises when lambda < 0, so the transformed surface is
 *      then maximised. A coordinate within 1e-9 of a face is put on it (the simplex reaches a face
 *      only to rounding), so that an optimum on the boundary is exactly a range's end.
 *   6. Predictions back in the response's units: the transform is monotone, so the ends of a
 *      confidence interval map to the ends of the interval for the response (swapped when
 *      lambda < 0). A value the inverse transform cannot map (y^lambda <= 0 predicted for a
 *      fractional or negative lambda) is NaN.
 *
 * Factors: coded -1 and +1 are the ends lo and hi of a factor's range, on a linear or a log scale
 * (rsm_design.h). A log range that starts at 0 (wakeup_granularity may be 0) is mapped through
 * ln(v + 1 us), as knob_space.h does, so that 0 stays reachable: RsmStudyFactor.offset is then
 * 1000 ns and range holds lo + offset .. hi + offset.
 *
 * Ownership: rsm_study_analyse returns a new RsmStudy that the caller frees with rsm_study_free;
 * it copies its inputs. No global state: studies may run in parallel threads.
 */
#ifndef TUNER_RSM_STUDY_H
#define TUNER_RSM_STUDY_H

#include <stdbool.h>

#include <glib.h>

#include "tuner/stats/boxcox.h"
#include "tuner/stats/rsm_design.h"
#include "tuner/stats/rsm_model.h"
#include "tuner/stats/rsm_optimum.h"

G_BEGIN_DECLS

#define RSM_STUDY_ERROR (rsm_study_error_quark())

typedef enum {
	RSM_STUDY_ERROR_LAMBDA,	      /* --lambda is not auto, none or a number in [-3, 3] */
	RSM_STUDY_ERROR_RANGE,	      /* a factor range is unusable */
	RSM_STUDY_ERROR_NOT_POSITIVE, /* a forced transform of a response <= 0 */
} RsmStudyError;

GQuark rsm_study_error_quark(void);

/* Offset of a log scale whose range starts at 0: ln(v + 1 us), as in knob_space.h. */
#define RSM_STUDY_LOG_OFFSET 1000.0

/* The confidence level of every interval a study reports. */
#define RSM_STUDY_LEVEL 0.95

/* Side of the square grid of surface.csv (predictions every 0.1 coded unit over [-1, 1]). */
#define RSM_STUDY_SURFACE_POINTS 21

/* One factor: its names and the map between coded and natural units. */
typedef struct {
	const char *letter;   /* "A": the name in the text tables (Design-Expert's style) */
	const char *name;     /* "latency": the name in files and JSON terms */
	const char *column;   /* "latency_ns": the natural-unit column of design.csv */
	RsmFactorRange range; /* of natural + offset; range.name is `name` */
	double offset;	      /* RSM_STUDY_LOG_OFFSET for a log range starting at 0, else 0 */
	bool integer;	      /* natural values are whole numbers (ns): print them so */
} RsmStudyFactor;

/*
 * Fill f for the natural range [lo, hi] on a linear or log scale (names are borrowed). Errors:
 * lo >= hi, a bound not finite, lo < 0 on a log scale.
 */
gboolean rsm_study_factor_init(RsmStudyFactor *f, const char *letter, const char *name,
			       const char *column, double lo, double hi, bool log, bool integer,
			       GError **error);
/* The natural lo and hi of the factor (offset removed). */
double rsm_study_factor_lo(const RsmStudyFactor *f);
double rsm_study_factor_hi(const RsmStudyFactor *f);
/* Coded -> natural (extrapolating beyond +-1 on the same scale) and back. */
double rsm_study_to_natural(const RsmStudyFactor *f, double coded);
double rsm_study_to_coded(const RsmStudyFactor *f, double natural);

/*
 * TRUE when every run of design keeps every factor inside [min[j], max[j]] (natural units).
 * Otherwise FALSE with an error naming the first run and factor outside.
 */
gboolean rsm_study_check_limits(const RsmDesign *design, const RsmStudyFactor *factors,
				const double *min, const double *max, GError **error);

typedef enum {
	RSM_LAMBDA_AUTO,  /* transform only when 1 is outside the interval */
	RSM_LAMBDA_NONE,  /* never transform */
	RSM_LAMBDA_FIXED, /* always transform with value */
} RsmLambdaMode;

typedef struct {
	RsmLambdaMode mode;
	double value; /* RSM_LAMBDA_FIXED */
} RsmLambdaChoice;

/* "auto", "none" or a number in [-3, 3] (the range the profile covers). */
gboolean rsm_lambda_parse(const char *text, RsmLambdaChoice *out, GError **error);

/* How the transform was decided (for the report). */
typedef enum {
	RSM_TRANSFORM_NOT_NEEDED,  /* auto: 1 lies inside the interval */
	RSM_TRANSFORM_NEEDED,	   /* auto: 1 lies outside, lambda = boxcox_suggest() */
	RSM_TRANSFORM_UNAVAILABLE, /* auto: no profile (see boxcox_error), so no transform */
	RSM_TRANSFORM_REFUSED,	   /* none */
	RSM_TRANSFORM_FORCED,	   /* a fixed lambda */
} RsmTransformDecision;

typedef struct {
	guint k, n_runs;
	double *coded;	       /* n_runs * k, run order (copy) */
	double *y;	       /* n_runs responses (copy) */
	double *y_t;	       /* the modelled response: y^lambda, or y when not transformed */
	BoxcoxProfile *boxcox; /* NULL when the profile could not be computed */
	char *boxcox_error;    /* why not (NULL when it was) */
	RsmTransformDecision decision;
	bool transformed;
	double lambda;		 /* the power applied; 1 when not transformed */
	RsmFit *fit;		 /* of y_t */
	RsmCanonical *canonical; /* of fit, region the cube [-1, 1]^k */
	RsmGoal goal;	     /* of the transformed surface: minimise, or maximise when lambda < 0 */
	RsmOptimum *optimum; /* in the cube [-1, 1]^k */
	RsmPrediction
		optimum_y; /* at the optimum, in the response's units: value and CI (lo <= hi);
				    std_error NaN (the model's is optimum->prediction.std_error) */
	double optimum_pi_lo,
		optimum_pi_hi; /* prediction interval of one new run there (response units) */
	double stationary_y;   /* ŷ at the stationary point, response units (NaN without one) */
} RsmStudy;

/*
 * Analyse n_runs runs of a design on k factors: coded holds n_runs * k coded levels, y the
 * responses, names the k factor names of the terms (e.g. {"A","B","C"}). Errors: those of
 * rsm_model_fit on the raw response (fewer runs than terms, a constant response, ...), and a
 * forced lambda with a response <= 0.
 */
RsmStudy *rsm_study_analyse(guint k, guint n_runs, const double *coded, const double *y,
			    const char *const *names, const RsmLambdaChoice *lambda,
			    GError **error);
void rsm_study_free(RsmStudy *study);

/* A modelled value (y^lambda) back in the response's units; NaN when it has no preimage. */
double rsm_study_untransform(const RsmStudy *study, double z);

/* The model's prediction at coded x, in the response's units. */
double rsm_study_predict(const RsmStudy *study, const double *x);

/* "cube", "axial", "edge" or "centre". */
const char *rsm_study_point_name(RsmPointType type);

/* "minimum", "maximum", "saddle point" or "ridge" of the response (not of y^lambda: a maximum of
 * y^lambda is a minimum of y when lambda < 0). */
const char *rsm_study_kind(const RsmStudy *study);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(RsmStudy, rsm_study_free)

G_END_DECLS

#endif
