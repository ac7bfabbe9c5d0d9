/*
 * rsm_study.c - a response-surface study from responses to optimum (see rsm_study.h).
 */
#include "tuner/stats/rsm_study.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(rsm-study-error-quark, rsm_study_error)
/* clang-format on */

/* The profile's grid ends: a forced lambda outside them could not be compared with lambda-hat. */
#define LAMBDA_MIN (-3.0)
#define LAMBDA_MAX 3.0
/* A coordinate of the optimum this close to a face of the cube is on it. */
#define FACE_SNAP  1e-9

/* ---- factors -------------------------------------------------------------------------------- */

gboolean rsm_study_factor_init(RsmStudyFactor *f, const char *letter, const char *name,
			       const char *column, double lo, double hi, bool log, bool integer,
			       GError **error)
{
	if (!isfinite(lo) || !isfinite(hi) || lo >= hi) {
		g_set_error(error, RSM_STUDY_ERROR, RSM_STUDY_ERROR_RANGE,
			    "%s: the range needs lo < hi, got %g:%g", name, lo, hi);
		return FALSE;
	}
	if (log && lo < 0) {
		g_set_error(error, RSM_STUDY_ERROR, RSM_STUDY_ERROR_RANGE,
			    "%s: a log scale needs lo >= 0, got %g", name, lo);
		return FALSE;
	}
	*f = (RsmStudyFactor){
		.letter = letter,
		.name = name,
		.column = column,
		.offset = log && lo == 0 ? RSM_STUDY_LOG_OFFSET : 0,
		.integer = integer,
	};
	f->range = (RsmFactorRange){ name, lo + f->offset, hi + f->offset,
				     log ? RSM_SCALE_LOG : RSM_SCALE_LINEAR };
	return TRUE;
}

double rsm_study_factor_lo(const RsmStudyFactor *f)
{
	return f->range.lo - f->offset;
}

double rsm_study_factor_hi(const RsmStudyFactor *f)
{
	return f->range.hi - f->offset;
}

double rsm_study_to_natural(const RsmStudyFactor *f, double coded)
{
	return rsm_factor_to_natural(&f->range, coded) - f->offset;
}

double rsm_study_to_coded(const RsmStudyFactor *f, double natural)
{
	return rsm_factor_to_coded(&f->range, natural + f->offset);
}

gboolean rsm_study_check_limits(const RsmDesign *design, const RsmStudyFactor *factors,
				const double *min, const double *max, GError **error)
{
	for (guint i = 0; i < design->n_runs; i++) {
		const double *x = rsm_design_run(design, i);

		for (guint j = 0; j < design->k; j++) {
			double v = rsm_study_to_natural(&factors[j], x[j]);
			/* exp(log(hi)) may land an ulp beyond hi: rounding, not an excursion. */
			double slack = 1e-12 * fmax(fabs(min[j]), fabs(max[j]));

			if (v >= min[j] - slack && v <= max[j] + slack)
				continue;
			g_set_error(
				error, RSM_STUDY_ERROR, RSM_STUDY_ERROR_RANGE,
				"run %u (standard order %u) puts %s at %.6g (coded %.4g), outside its limits %.6g..%.6g",
				i + 1, design->std_order[i] + 1, factors[j].name, v, x[j], min[j],
				max[j]);
			return FALSE;
		}
	}
	return TRUE;
}

/* ---- lambda --------------------------------------------------------------------------------- */

gboolean rsm_lambda_parse(const char *text, RsmLambdaChoice *out, GError **error)
{
	char *end;
	double v;

	if (strcmp(text, "auto") == 0) {
		*out = (RsmLambdaChoice){ RSM_LAMBDA_AUTO, 1 };
		return TRUE;
	}
	if (strcmp(text, "none") == 0) {
		*out = (RsmLambdaChoice){ RSM_LAMBDA_NONE, 1 };
		return TRUE;
	}
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !(v >= LAMBDA_MIN && v <= LAMBDA_MAX)) {
		g_set_error(error, RSM_STUDY_ERROR, RSM_STUDY_ERROR_LAMBDA,
			    "--lambda: '%s' is not auto, none or a number in [-3, 3]", text);
		return FALSE;
	}
	*out = (RsmLambdaChoice){ RSM_LAMBDA_FIXED, v };
	return TRUE;
}

/* ---- the analysis --------------------------------------------------------------------------- */

void rsm_study_free(RsmStudy *s)
{
	if (!s)
		return;
	g_free(s->coded);
	g_free(s->y);
	g_free(s->y_t);
	boxcox_profile_free(s->boxcox);
	g_free(s->boxcox_error);
	rsm_fit_free(s->fit);
	rsm_canonical_free(s->canonical);
	rsm_optimum_free(s->optimum);
	g_free(s);
}

double rsm_study_untransform(const RsmStudy *s, double z)
{
	return s->transformed ? boxcox_power_inverse(z, s->lambda) : z;
}

double rsm_study_predict(const RsmStudy *s, const double *x)
{
	return rsm_study_untransform(s, rsm_fit_value(s->fit, x));
}

const char *rsm_study_point_name(RsmPointType type)
{
	switch (type) {
	case RSM_POINT_CUBE:
		return "cube";
	case RSM_POINT_AXIAL:
		return "axial";
	case RSM_POINT_EDGE:
		return "edge";
	case RSM_POINT_CENTRE:
		return "centre";
	}
	return "unknown";
}

const char *rsm_study_kind(const RsmStudy *s)
{
	bool flip = s->transformed && s->lambda < 0;

	switch (s->canonical->kind) {
	case RSM_STATIONARY_MINIMUM:
		return flip ? "maximum" : "minimum";
	case RSM_STATIONARY_MAXIMUM:
		return flip ? "minimum" : "maximum";
	case RSM_STATIONARY_SADDLE:
		return "saddle point";
	case RSM_STATIONARY_RIDGE:
		return "ridge";
	}
	return "unknown";
}

/* The profile, or the reason it cannot be had. */
static void profile(RsmStudy *s)
{
	GError *local = NULL;
	gsl_matrix *X = rsm_quadratic_design_matrix(s->k, s->n_runs, s->coded);

	s->boxcox = boxcox_profile(X, s->y, NULL, &local);
	gsl_matrix_free(X);
	if (!s->boxcox) {
		s->boxcox_error = g_strdup(local->message);
		g_error_free(local);
	}
}

static gboolean decide(RsmStudy *s, const RsmLambdaChoice *choice, GError **error)
{
	switch (choice->mode) {
	case RSM_LAMBDA_NONE:
		s->decision = RSM_TRANSFORM_REFUSED;
		return TRUE;
	case RSM_LAMBDA_FIXED:
		for (guint i = 0; i < s->n_runs; i++)
			if (!(s->y[i] > 0)) {
				g_set_error(
					error, RSM_STUDY_ERROR, RSM_STUDY_ERROR_NOT_POSITIVE,
					"--lambda: run %u has response %g; a power transform needs every response > 0",
					i + 1, s->y[i]);
				return FALSE;
			}
		s->decision = RSM_TRANSFORM_FORCED;
		s->transformed = true;
		s->lambda = choice->value;
		return TRUE;
	case RSM_LAMBDA_AUTO:
		break;
	}
	if (!s->boxcox) {
		s->decision = RSM_TRANSFORM_UNAVAILABLE;
	} else if (s->boxcox->ci_lo <= 1 && 1 <= s->boxcox->ci_hi) {
		s->decision = RSM_TRANSFORM_NOT_NEEDED;
	} else {
		s->decision = RSM_TRANSFORM_NEEDED;
		s->transformed = true;
		s->lambda = boxcox_suggest(s->boxcox);
	}
	return TRUE;
}

/* Back-transformed interval: the transform is monotone, decreasing when lambda < 0. */
static void untransform_interval(const RsmStudy *s, double lo, double hi, double *out_lo,
				 double *out_hi)
{
	double a = rsm_study_untransform(s, lo), b = rsm_study_untransform(s, hi);

	*out_lo = a <= b || isnan(b) ? a : b;
	*out_hi = a <= b || isnan(b) ? b : a;
	if (isnan(a) || isnan(b))
		*out_lo = *out_hi = NAN;
}

static void predictions(RsmStudy *s)
{
	const RsmPrediction *p = &s->optimum->prediction;
	const RsmFit *fit = s->fit;

	s->optimum_y.value = rsm_study_untransform(s, p->value);
	s->optimum_y.std_error = NAN; /* has no meaning after a non-linear transform */
	untransform_interval(s, p->lo, p->hi, &s->optimum_y.lo, &s->optimum_y.hi);

	/* A new run varies by the residual variance as well as by the fitted mean's. */
	if (fit->df_residual > 0 && isfinite(p->std_error)) {
		double t = gsl_cdf_tdist_Pinv(0.5 + RSM_STUDY_LEVEL / 2, fit->df_residual);
		double se = sqrt(fit->ms_residual + p->std_error * p->std_error);

		untransform_interval(s, p->value - t * se, p->value + t * se, &s->optimum_pi_lo,
				     &s->optimum_pi_hi);
	} else {
		s->optimum_pi_lo = s->optimum_pi_hi = NAN;
	}
	s->stationary_y = s->canonical->has_stationary_point
				  ? rsm_study_untransform(s, s->canonical->y_s)
				  : NAN;
}

/*
 * Nelder-Mead reaches a face through x = sin(u) only to rounding (0.9999999999999964): put such a
 * coordinate on the face, so that the optimum's natural value is exactly the range's end.
 */
static void snap_to_faces(RsmStudy *s)
{
	RsmOptimum *o = s->optimum;

	for (guint j = 0; j < s->k; j++)
		if (fabs(fabs(o->x[j]) - 1) < FACE_SNAP)
			o->x[j] = copysign(1.0, o->x[j]);
	o->value = rsm_fit_value(s->fit, o->x);
	o->prediction = rsm_fit_predict(s->fit, o->x, RSM_STUDY_LEVEL);
}

RsmStudy *rsm_study_analyse(guint k, guint n_runs, const double *coded, const double *y,
			    const char *const *names, const RsmLambdaChoice *lambda, GError **error)
{
	g_autoptr(RsmStudy) s = g_new0(RsmStudy, 1);
	const RsmRegion cube = { RSM_REGION_CUBE, 1.0 };

	s->k = k;
	s->n_runs = n_runs;
	s->coded = g_memdup2(coded, sizeof(double) * k * n_runs);
	s->y = g_memdup2(y, sizeof(double) * n_runs);
	s->y_t = g_memdup2(y, sizeof(double) * n_runs);
	s->lambda = 1;

	/* The raw fit says whether there is anything to analyse. */
	if (!(s->fit = rsm_model_fit(k, n_runs, coded, y, names, error)))
		return NULL;
	profile(s);
	if (!decide(s, lambda, error))
		return NULL;
	if (s->transformed) {
		if (!boxcox_apply(s->y, n_runs, s->lambda, s->y_t, error))
			return NULL;
		rsm_fit_free(s->fit);
		if (!(s->fit = rsm_model_fit(k, n_runs, coded, s->y_t, names, error)))
			return NULL;
	}
	s->goal = s->transformed && s->lambda < 0 ? RSM_GOAL_MAXIMISE : RSM_GOAL_MINIMISE;
	if (!(s->canonical = rsm_fit_canonical(s->fit, RSM_RIDGE_TOL_DEFAULT, &cube, error)))
		return NULL;
	if (!(s->optimum = rsm_fit_optimum(s->fit, s->goal, NULL, NULL, RSM_STUDY_LEVEL, error)))
		return NULL;
	snap_to_faces(s);
	predictions(s);
	return g_steal_pointer(&s);
}
