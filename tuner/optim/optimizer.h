/*
 * optimizer.h - batch optimizers over the unit cube [0,1]^dim.
 *
 * What: a generic minimiser modelled on GSL's gsl_multimin_fminimizer.  A *type*
 * (tuner_optimizer_pso, _golden, _grid, _random) is a table of functions; an *instance*
 * is allocated for a dimension, set with parameters and a seed, driven by the caller and
 * freed.  The caller owns the loop.
 *
 * Why batches: the tuner evaluates points in parallel, so an optimizer never asks for one
 * value at a time.  Each iteration it proposes a *batch* (a PSO generation, a chunk of the
 * grid, random points, or Golden Section's one new point), the caller evaluates the whole
 * batch however it likes, and hands the values back:
 *
 *     tuner_optimizer *s = tuner_optimizer_alloc(tuner_optimizer_pso, 3);
 *     tuner_optimizer_params p;
 *     tuner_optimizer_params_default(&p);
 *     p.seed = 42;
 *     if (tuner_optimizer_set(s, &p) != GSL_SUCCESS) ...;
 *     double x[64 * 3], y[64];
 *     size_t n;
 *     while ((n = tuner_optimizer_ask(s, x, 64)) > 0) {
 *         for (size_t i = 0; i < n; i++) y[i] = f(x + i * 3);   // in parallel, any order
 *         tuner_optimizer_tell(s, y, n);
 *     }
 *     best point: tuner_optimizer_x(s), value: tuner_optimizer_minimum(s)
 *
 * or, when one callback can evaluate a batch, tuner_optimizer_iterate() in a
 * `do ... while (status == GSL_CONTINUE)` loop as with GSL.
 *
 * Space: every optimizer searches the unit cube and every point it proposes lies in
 * [0,1]^dim.  Mapping unit coordinates to knob values (linear or log scale, fixed knobs
 * removed) is the caller's business; the optimizers know nothing of knobs.
 *
 * Determinism: all randomness comes from one gsl_rng_mt19937 owned by the instance and
 * seeded by tuner_optimizer_set(), so the same type, dimension, parameters, seed and
 * values give byte-identical proposals.  Results never depend on the order in which the
 * caller evaluates the points of a batch, nor on how it splits a batch into asks.
 *
 * Budget: params.budget is the maximum number of evaluations (0: no limit beyond the
 * type's own stopping rule).  Every type honours it: ask never returns more points than
 * remain, and a generation cut short by the budget is the last one.
 *
 * Values: y may be any double except NaN (a failed evaluation can be reported as
 * +INFINITY; it never becomes the best unless everything is +INFINITY).  Ties keep the
 * earlier point.
 *
 * Errors: functions return GSL status codes (GSL_SUCCESS, GSL_EINVAL, GSL_EBADLEN,
 * GSL_EDOM) without calling GSL's error handler, whose default aborts the program; bad
 * user input must not abort the tuner.  tuner_optimizer_params_check() explains an
 * invalid parameter set in a GError (domain TUNER_OPTIMIZER_ERROR) naming the field.
 *
 * Ownership and threads: an instance owns all its memory and has no shared state; run as
 * many instances in parallel threads as you like, but one instance from one thread at a
 * time.  Pointers returned by the accessors stay valid until the next set, tell or free.
 */
#ifndef TUNER_OPTIMIZER_H
#define TUNER_OPTIMIZER_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#define TUNER_OPTIMIZER_ERROR (tuner_optimizer_error_quark())
GQuark tuner_optimizer_error_quark(void);

typedef enum {
	TUNER_OPTIMIZER_ERROR_PARAMS, /* a parameter is out of range for the type/dimension */
} tuner_optimizer_error_code;

/*
 * Parameters of all types; each type reads the common fields and its own sub-struct.
 * Fill with tuner_optimizer_params_default() and change what you need.
 */
typedef struct tuner_optimizer_params {
	unsigned long seed; /* gsl_rng_mt19937 seed (default 1) */
	size_t budget;	    /* maximum evaluations; 0 = no limit (default 0) */

	/* Particle swarm (SPEC.md §5).  `iterations` counts generations *including* the
	 * initial one, so a full run costs exactly particles * iterations evaluations
	 * (20 * 30 = 600 by default). */
	struct {
		size_t particles;  /* default 20 */
		size_t iterations; /* default 30 */
		double omega;	   /* inertia, default 0.4365 */
		double phi_p;	   /* attraction to the particle's own best, default 3.02 */
		double phi_g;	   /* attraction to the swarm's best, default 3.02 */
	} pso;

	/* Golden Section (dimension 1 only).  Stops as soon as the bracket is narrower than
	 * `tolerance` (unit coordinates), or after `max_iterations` batches. */
	struct {
		double tolerance; /* default 1e-3 */
		size_t max_iterations; /* batches: the first holds 2 points, later ones 1 (default 100) */
		double lo, hi;	       /* initial bracket, 0 <= lo < hi <= 1 (default 0, 1) */
	} golden;

	/* Full factorial grid: points^dim points at i/(points-1), or 0.5 when points == 1. */
	struct {
		size_t points; /* per dimension, default 5 */
		size_t batch;  /* largest batch, default 64 */
	} grid;

	/* Uniform random points until the budget (which must be > 0) is spent. */
	struct {
		size_t batch; /* largest batch, default 64 */
	} random;
} tuner_optimizer_params;

void tuner_optimizer_params_default(tuner_optimizer_params *p);

/*
 * Evaluates a batch: x holds n points of dim unit coordinates (row-major); write the n
 * values to y.  Return GSL_SUCCESS (0), or any other status to abort the iteration (the
 * points are then handed out again by the next ask).
 */
typedef int (*tuner_batch_fn)(const double *x, size_t n, size_t dim, double *y, void *ctx);

/*
 * An optimizer type.  Only the implementations (pso.c, golden.c, ...) fill these; callers
 * just pass the type pointers around.  `state` is a zeroed block of `size` bytes that the
 * driver owns; the type may hang its own allocations off it and release them in release.
 *
 * The driver guarantees: check() succeeded before init(); propose() is called only when
 * the previous proposal was fully answered by update(); update() receives the proposal
 * (x, as proposed) and values for its first n points, where n is smaller than proposed
 * only when the budget ran out (no propose follows then).
 */
typedef struct tuner_optimizer_type {
	const char *name;
	size_t size;
	bool (*check)(size_t dim, const tuner_optimizer_params *p, GError **error);
	void (*init)(void *state, size_t dim, const tuner_optimizer_params *p, gsl_rng *r);
	size_t (*batch_max)(const void *state); /* largest proposal */
	size_t (*propose)(void *state, double *x,
			  gsl_rng *r); /* writes a batch, returns its size */
	void (*update)(void *state, const double *x, const double *y, size_t n);
	bool (*done)(const void *state); /* the type's own stopping rule is met */
	void (*release)(void *state);	 /* frees what init allocated; state may be zeroed */
} tuner_optimizer_type;

extern const tuner_optimizer_type *const tuner_optimizer_pso;
extern const tuner_optimizer_type *const tuner_optimizer_golden;
extern const tuner_optimizer_type *const tuner_optimizer_grid;
extern const tuner_optimizer_type *const tuner_optimizer_random;

/* "pso", "golden", "grid" or "random" (ASCII case-insensitive); NULL if unknown. */
const tuner_optimizer_type *tuner_optimizer_type_by_name(const char *name);

typedef struct tuner_optimizer tuner_optimizer;

/* NULL if T is NULL or dim is 0.  The instance is unusable (finished) until set. */
tuner_optimizer *tuner_optimizer_alloc(const tuner_optimizer_type *T, size_t dim);
void tuner_optimizer_free(tuner_optimizer *s);

/*
 * True if p is valid for type T in dimension dim; otherwise false and a one-line message
 * naming the offending field, e.g. "golden: searches one dimension, got 3".
 */
bool tuner_optimizer_params_check(const tuner_optimizer_type *T, size_t dim,
				  const tuner_optimizer_params *p, GError **error);

/*
 * (Re)starts the search: seeds the generator, clears results and history.  p == NULL
 * means the defaults.  GSL_EINVAL (instance left unusable) if the parameters are invalid;
 * tuner_optimizer_params_check() says why.
 */
int tuner_optimizer_set(tuner_optimizer *s, const tuner_optimizer_params *p);

/*
 * Writes up to `capacity` points (dim doubles each, row-major) to x and returns how many;
 * 0 when the search is finished (or capacity is 0).  A batch larger than capacity is
 * handed out over several asks.  An ask before the previous ask's tell takes those points
 * back and hands them out again, so nothing is lost or evaluated twice.
 */
size_t tuner_optimizer_ask(tuner_optimizer *s, double *x, size_t capacity);

/* The largest number of points one ask can return (0 before set). */
size_t tuner_optimizer_batch_max(const tuner_optimizer *s);

/*
 * Values for the points of the last ask, in the same order.  GSL_EINVAL if no ask is
 * pending, GSL_EBADLEN if n differs from the number of points asked, GSL_EDOM if a value
 * is NaN; on error nothing changes (the points stay pending).
 */
int tuner_optimizer_tell(tuner_optimizer *s, const double *y, size_t n);

/*
 * ask (up to batch_max points), f, tell.  Returns GSL_CONTINUE while the search goes
 * on, GSL_SUCCESS when it has finished, f's status if f failed (GSL_EFAILED if f
 * returned GSL_CONTINUE), GSL_EDOM if f wrote a NaN or left a value unwritten, or
 * GSL_EINVAL if the instance is not set.
 */
int tuner_optimizer_iterate(tuner_optimizer *s, tuner_batch_fn f, void *ctx);

bool tuner_optimizer_finished(const tuner_optimizer *s);

/* Best point so far (dim unit coordinates); the cube's centre before any evaluation. */
const double *tuner_optimizer_x(const tuner_optimizer *s);
/* Best value so far; +INFINITY before any evaluation. */
double tuner_optimizer_minimum(const tuner_optimizer *s);
size_t tuner_optimizer_evaluations(const tuner_optimizer *s);
size_t tuner_optimizer_dim(const tuner_optimizer *s);
const char *tuner_optimizer_name(const tuner_optimizer *s);

/* Completed batches (proposals fully answered): PSO generations, Golden Section steps. */
size_t tuner_optimizer_iterations(const tuner_optimizer *s);
/* Best value after iteration i (0-based, i < iterations): the convergence curve. */
double tuner_optimizer_iteration_best(const tuner_optimizer *s, size_t i);

/* One evaluation, in the order the values were told. */
typedef struct tuner_optimizer_record {
	size_t index;	  /* 0-based evaluation number */
	size_t iteration; /* the batch it belonged to, 0-based */
	const double *x;  /* dim unit coordinates */
	double y;	  /* its value */
	double best;	  /* best value over evaluations 0..index */
} tuner_optimizer_record;

/* i < tuner_optimizer_evaluations(s). */
tuner_optimizer_record tuner_optimizer_history(const tuner_optimizer *s, size_t i);

/* Golden Section's current bracket [*a, *b]; GSL_EINVAL for other types or before set. */
int tuner_optimizer_golden_bracket(const tuner_optimizer *s, double *a, double *b);

/* For type implementations only: the type's state block, and the instance's type. */
const void *tuner_optimizer_state(const tuner_optimizer *s);
const tuner_optimizer_type *tuner_optimizer_get_type(const tuner_optimizer *s);

#endif /* TUNER_OPTIMIZER_H */
