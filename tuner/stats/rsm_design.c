/*
 * rsm_design.c -- central composite and Box-Behnken designs, run order, coded <-> natural units;
 * see rsm_design.h.
 */
#include "tuner/stats/rsm_design.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(rsm-design-error-quark, rsm_design_error)
/* clang-format on */

/* Relative slack of rsm_design_check_limits: a value computed as exp(log(hi)) may land an ulp or
 * two beyond hi; that is rounding, not an excursion. */
#define LIMIT_SLACK 1e-12

static RsmDesign *design_alloc(guint k, guint n_runs, double alpha)
{
	RsmDesign *d = g_new0(RsmDesign, 1);
	d->k = k;
	d->n_runs = n_runs;
	d->alpha = alpha;
	d->coded = g_new0(double, (gsize)n_runs *k);
	d->std_order = g_new(guint, n_runs);
	d->type = g_new(RsmPointType, n_runs);
	for (guint i = 0; i < n_runs; i++)
		d->std_order[i] = i;
	return d;
}

RsmDesign *rsm_design_replicate(const RsmDesign *design, guint copies)
{
	g_return_val_if_fail(copies >= 1, NULL);
	guint n = design->n_runs, k = design->k;
	RsmDesign *d = design_alloc(k, n * copies, design->alpha);

	for (guint c = 0; c < copies; c++) {
		memcpy(d->coded + (gsize)c * n * k, design->coded, sizeof(double) * n * k);
		for (guint i = 0; i < n; i++) {
			d->std_order[c * n + i] = c * n + design->std_order[i];
			d->type[c * n + i] = design->type[i];
		}
	}
	return d;
}

void rsm_design_free(RsmDesign *design)
{
	if (design == NULL)
		return;
	g_free(design->coded);
	g_free(design->std_order);
	g_free(design->type);
	g_free(design);
}

const double *rsm_design_run(const RsmDesign *design, guint i)
{
	g_return_val_if_fail(i < design->n_runs, NULL);
	return design->coded + (gsize)i * design->k;
}

static double *run_row(RsmDesign *d, guint i)
{
	return d->coded + (gsize)i * d->k;
}

/* Run i of a design whose bounds the caller's loop already guarantees. */
static const double *run_at(const RsmDesign *d, guint i)
{
	return d->coded + (gsize)i * d->k;
}

double rsm_ccd_alpha(guint k, RsmAlphaKind kind, guint n_centre)
{
	if (k < RSM_CCD_MIN_FACTORS || k > RSM_CCD_MAX_FACTORS)
		return NAN;
	double f = (double)(1u << k);
	double n = f + 2.0 * k + n_centre;
	switch (kind) {
	case RSM_ALPHA_ROTATABLE:
		return pow(f, 0.25);
	case RSM_ALPHA_ORTHOGONAL:
		/*
		 * Every cube point has x_i² = 1, the two axial points of factor i have x_i² = alpha², all
		 * other points 0. So Σ x_i² = F + 2 alpha², Σ x_i² x_j² = F (i != j), and the centred
		 * quadratic columns are orthogonal when F - (F + 2 alpha²)² / N = 0, that is
		 * alpha² = (sqrt(F N) - F) / 2 (Myers & Montgomery's alpha = (Q F / 4)^(1/4) with
		 * Q = (sqrt(N) - sqrt(F))², written differently).
		 */
		return sqrt((sqrt(f * n) - f) / 2.0);
	case RSM_ALPHA_FACE:
		return 1.0;
	}
	return NAN;
}

static gboolean check_factors(guint k, guint min, guint max, const char *what, GError **error)
{
	if (k >= min && k <= max)
		return TRUE;
	g_set_error(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_FACTORS,
		    "%s: %u factors requested, supported are %u to %u", what, k, min, max);
	return FALSE;
}

static guint add_centres(RsmDesign *d, guint next, guint n_centre)
{
	for (guint c = 0; c < n_centre; c++)
		d->type[next++] = RSM_POINT_CENTRE; /* coded levels are already 0 */
	return next;
}

RsmDesign *rsm_design_ccd_with_alpha(guint k, double alpha, guint n_centre, GError **error)
{
	if (!check_factors(k, RSM_CCD_MIN_FACTORS, RSM_CCD_MAX_FACTORS, "central composite design",
			   error))
		return NULL;
	if (!isfinite(alpha) || alpha <= 0.0) {
		g_set_error(
			error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_ALPHA,
			"central composite design: axial distance alpha = %g, must be finite and > 0",
			alpha);
		return NULL;
	}
	guint n_cube = 1u << k;
	RsmDesign *d = design_alloc(k, n_cube + 2 * k + n_centre, alpha);
	guint next = 0;
	for (guint r = 0; r < n_cube; r++, next++) {
		for (guint j = 0; j < k; j++)
			run_row(d, next)[j] = (r >> j) & 1u ? 1.0 : -1.0;
		d->type[next] = RSM_POINT_CUBE;
	}
	for (guint j = 0; j < k; j++) {
		for (int sign = -1; sign <= 1; sign += 2, next++) {
			run_row(d, next)[j] = sign * alpha;
			d->type[next] = RSM_POINT_AXIAL;
		}
	}
	add_centres(d, next, n_centre);
	return d;
}

RsmDesign *rsm_design_ccd(guint k, RsmAlphaKind kind, guint n_centre, GError **error)
{
	if (!check_factors(k, RSM_CCD_MIN_FACTORS, RSM_CCD_MAX_FACTORS, "central composite design",
			   error))
		return NULL;
	return rsm_design_ccd_with_alpha(k, rsm_ccd_alpha(k, kind, n_centre), n_centre, error);
}

RsmDesign *rsm_design_box_behnken(guint k, guint n_centre, GError **error)
{
	if (!check_factors(k, RSM_BBD_MIN_FACTORS, RSM_BBD_MAX_FACTORS, "Box-Behnken design",
			   error))
		return NULL;
	guint n_pairs = k * (k - 1) / 2;
	RsmDesign *d = design_alloc(k, 4 * n_pairs + n_centre, 1.0);
	guint next = 0;
	for (guint a = 0; a < k; a++) {
		for (guint b = a + 1; b < k; b++) {
			for (guint combo = 0; combo < 4; combo++, next++) {
				run_row(d, next)[a] = combo & 1u ? 1.0 : -1.0;
				run_row(d, next)[b] = combo & 2u ? 1.0 : -1.0;
				d->type[next] = RSM_POINT_EDGE;
			}
		}
	}
	add_centres(d, next, n_centre);
	return d;
}

/* Reorder the runs so that new run i is old run from[i]. */
static void apply_order(RsmDesign *d, const guint *from)
{
	guint n = d->n_runs, k = d->k;
	g_autofree double *coded = g_new(double, (gsize)n *k);
	g_autofree guint *std_order = g_new(guint, n);
	g_autofree RsmPointType *type = g_new(RsmPointType, n);
	for (guint i = 0; i < n; i++) {
		memcpy(coded + (gsize)i * k, run_row(d, from[i]), k * sizeof(double));
		std_order[i] = d->std_order[from[i]];
		type[i] = d->type[from[i]];
	}
	memcpy(d->coded, coded, (gsize)n * k * sizeof(double));
	memcpy(d->std_order, std_order, n * sizeof(guint));
	memcpy(d->type, type, n * sizeof(RsmPointType));
}

void rsm_design_randomise(RsmDesign *design, unsigned long seed)
{
	g_autofree guint *from = g_new(guint, design->n_runs);
	for (guint i = 0; i < design->n_runs; i++)
		from[i] = i;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	gsl_ran_shuffle(rng, from, design->n_runs, sizeof(guint));
	gsl_rng_free(rng);
	apply_order(design, from);
}

void rsm_design_sort_standard(RsmDesign *design)
{
	g_autofree guint *from = g_new(guint, design->n_runs);
	for (guint i = 0; i < design->n_runs; i++)
		from[design->std_order[i]] = i;
	apply_order(design, from);
}

guint rsm_design_runs_outside_cube(const RsmDesign *design)
{
	guint count = 0;
	for (guint i = 0; i < design->n_runs; i++) {
		const double *x = run_at(design, i);
		for (guint j = 0; j < design->k; j++) {
			if (fabs(x[j]) > 1.0) {
				count++;
				break;
			}
		}
	}
	return count;
}

/* The factor's name for messages: its own, or "x<j+1>" written into buf. */
static const char *factor_label(const RsmFactorRange *range, guint j, char *buf, gsize size)
{
	if (range->name != NULL)
		return range->name;
	g_snprintf(buf, size, "x%u", j + 1);
	return buf;
}

static gboolean range_check(const RsmFactorRange *range, const char *label, GError **error)
{
	if (!isfinite(range->lo) || !isfinite(range->hi) || !(range->lo < range->hi)) {
		g_set_error(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_RANGE,
			    "factor %s: range [%g, %g] must be finite with lo < hi", label,
			    range->lo, range->hi);
		return FALSE;
	}
	if (range->scale == RSM_SCALE_LOG && range->lo <= 0.0) {
		g_set_error(error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_RANGE,
			    "factor %s: log scale needs lo > 0, got [%g, %g]", label, range->lo,
			    range->hi);
		return FALSE;
	}
	return TRUE;
}

gboolean rsm_factor_range_check(const RsmFactorRange *range, GError **error)
{
	return range_check(range, range->name != NULL ? range->name : "(unnamed)", error);
}

double rsm_factor_to_natural(const RsmFactorRange *range, double coded)
{
	if (range->scale == RSM_SCALE_LOG) {
		double l_lo = log(range->lo), l_hi = log(range->hi);
		return exp(0.5 * (l_lo + l_hi) + coded * 0.5 * (l_hi - l_lo));
	}
	return 0.5 * (range->lo + range->hi) + coded * 0.5 * (range->hi - range->lo);
}

double rsm_factor_to_coded(const RsmFactorRange *range, double natural)
{
	if (range->scale == RSM_SCALE_LOG) {
		double l_lo = log(range->lo), l_hi = log(range->hi);
		return (log(natural) - 0.5 * (l_lo + l_hi)) / (0.5 * (l_hi - l_lo));
	}
	return (natural - 0.5 * (range->lo + range->hi)) / (0.5 * (range->hi - range->lo));
}

static gboolean ranges_check(const RsmFactorRange *ranges, guint k, GError **error)
{
	for (guint j = 0; j < k; j++) {
		char buf[16];
		if (!range_check(&ranges[j], factor_label(&ranges[j], j, buf, sizeof buf), error))
			return FALSE;
	}
	return TRUE;
}

gboolean rsm_design_to_natural(const RsmDesign *design, const RsmFactorRange *ranges, double *out,
			       GError **error)
{
	if (!ranges_check(ranges, design->k, error))
		return FALSE;
	for (guint i = 0; i < design->n_runs; i++) {
		const double *x = run_at(design, i);
		for (guint j = 0; j < design->k; j++)
			out[(gsize)i * design->k + j] = rsm_factor_to_natural(&ranges[j], x[j]);
	}
	return TRUE;
}

gboolean rsm_design_check_limits(const RsmDesign *design, const RsmFactorRange *ranges,
				 const double *min, const double *max, GError **error)
{
	if (!ranges_check(ranges, design->k, error))
		return FALSE;
	for (guint i = 0; i < design->n_runs; i++) {
		const double *x = run_at(design, i);
		for (guint j = 0; j < design->k; j++) {
			double v = rsm_factor_to_natural(&ranges[j], x[j]);
			double slack = LIMIT_SLACK * fmax(fabs(min[j]), fabs(max[j]));
			if (v >= min[j] - slack && v <= max[j] + slack)
				continue;
			char buf[16];
			g_set_error(
				error, RSM_DESIGN_ERROR, RSM_DESIGN_ERROR_LIMITS,
				"run %u (standard order %u): factor %s = %g (coded %g) is outside its "
				"limits [%g, %g]",
				i + 1, design->std_order[i] + 1,
				factor_label(&ranges[j], j, buf, sizeof buf), v, x[j], min[j],
				max[j]);
			return FALSE;
		}
	}
	return TRUE;
}
