/*
 * rsm_design.h -- second-order response-surface designs in coded units, their run order, and the
 * mapping between coded and natural units.
 *
 * Response Surface Methodology (SPEC.md §5) fits a full quadratic model to responses measured at a
 * small set of well-placed points. This module produces those points:
 *
 *   - the central composite design (CCD) on k = 1..6 factors: the 2^k cube points (every factor at
 *     -1 or +1), the 2k axial points (one factor at -alpha or +alpha, the others at 0) and n_c
 *     centre points (all factors at 0); n = 2^k + 2k + n_c runs;
 *   - the Box-Behnken design (BBD) on k = 3..5 factors: for every pair of factors the four
 *     combinations of -1/+1 with the other factors at 0 (the edge midpoints of the cube), plus n_c
 *     centre points; n = 4 * k(k-1)/2 + n_c runs (k = 3: 12 + n_c, e.g. 14 runs with 2 centres,
 *     the PSO meta-optimisation design). Box and Behnken's designs for k = 3, 4, 5 are exactly
 *     these pair designs; k = 6 and up use incomplete blocks of three factors and are not provided.
 *
 * Coded units: the centre of the region is 0 and the cube faces are -1 and +1. A factor's natural
 * range [lo, hi] maps coded -1 to lo and +1 to hi, on a linear or a logarithmic scale (log: coded x
 * maps to exp(ln lo + (x + 1)/2 * (ln hi - ln lo)), i.e. equal coded steps are equal ratios). Axial
 * points of a CCD with alpha > 1 lie outside [-1, 1] and therefore outside [lo, hi] in natural
 * units; rsm_design_runs_outside_cube() counts them and rsm_design_check_limits() tells whether the
 * natural values stay within hard limits (e.g. a sysctl's range), so a caller whose [lo, hi] is
 * already the whole feasible range can fall back to the face-centred design (alpha = 1).
 *
 * Run order: a design is generated in standard order (CCD: cube points in Yates order with x1
 * changing fastest, then the axial points -alpha/+alpha for x1, x2, ..., then the centres; BBD: the
 * factor pairs (1,2), (1,3), ..., (k-1,k), each as (-,-), (+,-), (-,+), (+,+), then the centres).
 * rsm_design_randomise() shuffles the runs with a seeded gsl_rng (gsl_ran_shuffle); each run keeps
 * its standard-order index, so reports can show both orders. The same seed gives the same order.
 *
 * Ownership: the constructors return a new RsmDesign that the caller frees with rsm_design_free();
 * its arrays belong to it. A design is plain data: no global state, several designs can be built
 * and used in parallel threads; one design must not be randomised while another thread reads it.
 */
#ifndef TUNER_RSM_DESIGN_H
#define TUNER_RSM_DESIGN_H

#include <glib.h>

G_BEGIN_DECLS

#define RSM_DESIGN_ERROR (rsm_design_error_quark())

typedef enum {
	RSM_DESIGN_ERROR_FACTORS, /* k outside the range the design supports */
	RSM_DESIGN_ERROR_ALPHA,	  /* axial distance not finite or not > 0 */
	RSM_DESIGN_ERROR_RANGE,	 /* a factor range is unusable (lo >= hi, lo <= 0 on a log scale) */
	RSM_DESIGN_ERROR_LIMITS, /* a run's natural value falls outside the caller's hard limits */
} RsmDesignError;

/* Smallest and largest number of factors of a CCD. */
/* One factor is a design too: the tuner searches EEVDF's base_slice alone (two cube points, two
 * axial, the centres: enough for the three terms of a quadratic in one variable). */
#define RSM_CCD_MIN_FACTORS 1
#define RSM_CCD_MAX_FACTORS 6
/* Smallest and largest number of factors of a Box-Behnken design. */
#define RSM_BBD_MIN_FACTORS 3
#define RSM_BBD_MAX_FACTORS 5

/* How the axial distance alpha of a CCD is chosen (F = 2^k cube points, N = total runs). */
typedef enum {
	RSM_ALPHA_ROTATABLE, /* alpha = F^(1/4): prediction variance depends only on distance from 0 */
	RSM_ALPHA_ORTHOGONAL, /* alpha² = (sqrt(F N) - F) / 2: centred x_i² columns orthogonal */
	RSM_ALPHA_FACE,	      /* alpha = 1: face-centred, three levels, never leaves [lo, hi] */
} RsmAlphaKind;

/* Where a run sits in the design. */
typedef enum {
	RSM_POINT_CUBE,	  /* CCD corner, every factor at -1 or +1 */
	RSM_POINT_AXIAL,  /* CCD star point, one factor at -alpha or +alpha */
	RSM_POINT_EDGE,	  /* BBD edge midpoint, two factors at -1 or +1 */
	RSM_POINT_CENTRE, /* every factor at 0 */
} RsmPointType;

/* A design: n_runs points in k coded factors, in run order. */
typedef struct {
	guint k;	  /* number of factors */
	guint n_runs;	  /* number of runs */
	double alpha;	  /* axial distance (CCD); 1 for a BBD (its largest coded level) */
	double *coded;	  /* n_runs * k coded levels, row-major: run i is coded[i*k .. i*k + k-1] */
	guint *std_order; /* std_order[i]: 0-based standard-order index of run i */
	RsmPointType *type; /* type[i]: kind of point of run i */
} RsmDesign;

/* A factor's natural range: coded -1 is lo, +1 is hi. */
typedef enum {
	RSM_SCALE_LINEAR, /* natural = mid + x * (hi - lo) / 2 */
	RSM_SCALE_LOG,	  /* ln natural = ln-mid + x * (ln hi - ln lo) / 2; needs 0 < lo */
} RsmScale;

typedef struct {
	const char *name; /* for messages, e.g. "latency"; NULL means "x<j+1>"; not owned */
	double lo, hi;	  /* natural values at coded -1 and +1; lo < hi */
	RsmScale scale;
} RsmFactorRange;

/* The error domain of this module. */
GQuark rsm_design_error_quark(void);

/*
 * Axial distance of a CCD on k factors with n_centre centre points (n_centre matters only for the
 * orthogonal choice). Returns NaN when k is outside RSM_CCD_MIN_FACTORS..RSM_CCD_MAX_FACTORS.
 * Examples: rotatable k = 1: 1.1892, k = 2: 1.4142, k = 3: 1.6818, k = 4: 2; orthogonal k = 2,
 * n_c = 5: 1.2671.
 */
double rsm_ccd_alpha(guint k, RsmAlphaKind kind, guint n_centre);

/* A CCD in standard order with alpha chosen by kind. Errors: k out of range. */
RsmDesign *rsm_design_ccd(guint k, RsmAlphaKind kind, guint n_centre, GError **error);

/* A CCD in standard order with an explicit axial distance alpha > 0. Errors: k out of range, alpha
 * not finite or <= 0. */
RsmDesign *rsm_design_ccd_with_alpha(guint k, double alpha, guint n_centre, GError **error);

/* A Box-Behnken design in standard order (levels 0, -1, +1). Errors: k out of range. */
RsmDesign *rsm_design_box_behnken(guint k, guint n_centre, GError **error);

/*
 * The design run `copies` times over, as one design of copies * n_runs runs: copy c's run i is run
 * c * n_runs + i, at design's run i, with standard order c * n_runs + std_order[i]. For an
 * experiment replicated in rounds (the real-kernel VM runs the whole design once per round), whose
 * replicates then give the pure error. copies >= 1.
 */
RsmDesign *rsm_design_replicate(const RsmDesign *design, guint copies);

/* Free a design. NULL is allowed. */
void rsm_design_free(RsmDesign *design);

/* The k coded levels of run i (i < n_runs); points into the design. */
const double *rsm_design_run(const RsmDesign *design, guint i);

/* Shuffle the run order with a gsl_rng_mt19937 seeded with seed; std_order and type follow their
 * runs. Shuffling an already shuffled design shuffles it again. */
void rsm_design_randomise(RsmDesign *design, unsigned long seed);

/* Put the runs back in standard order. */
void rsm_design_sort_standard(RsmDesign *design);

/* Number of runs with some |coded level| > 1, i.e. whose natural value leaves [lo, hi]. */
guint rsm_design_runs_outside_cube(const RsmDesign *design);

/* FALSE (and error set, naming range->name) when lo/hi are not finite, lo >= hi, or lo <= 0 on a
 * log scale. */
gboolean rsm_factor_range_check(const RsmFactorRange *range, GError **error);

/* Coded level -> natural value, and back. The range must pass rsm_factor_range_check(); coded
 * values beyond +-1 extrapolate on the same scale. */
double rsm_factor_to_natural(const RsmFactorRange *range, double coded);
double rsm_factor_to_coded(const RsmFactorRange *range, double natural);

/*
 * Natural values of every run: out[i*k + j] for run i, factor j (n_runs * k doubles, caller
 * allocated); ranges holds k ranges. Errors: a range fails rsm_factor_range_check().
 */
gboolean rsm_design_to_natural(const RsmDesign *design, const RsmFactorRange *ranges, double *out,
			       GError **error);

/*
 * TRUE when every run's natural value of factor j lies in [min[j], max[j]] (hard limits such as a
 * sysctl's range; a relative slack of 1e-12 absorbs rounding). Otherwise FALSE with an error naming
 * the first offending run (1-based run order and standard order) and factor, e.g. so the caller can
 * switch to a face-centred design. Errors also: a range fails rsm_factor_range_check().
 */
gboolean rsm_design_check_limits(const RsmDesign *design, const RsmFactorRange *ranges,
				 const double *min, const double *max, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(RsmDesign, rsm_design_free)

G_END_DECLS

#endif /* TUNER_RSM_DESIGN_H */
