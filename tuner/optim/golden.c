/*
 * golden.c - Golden Section search on one unit coordinate (SPEC.md §5, used on
 * SchedPeriod).
 *
 * The bracket [a, b] holds two interior points c < d at the golden ratio,
 * c = b - r (b - a), d = a + r (b - a), r = (sqrt 5 - 1) / 2.  The first batch evaluates
 * both; then every step narrows the bracket to [a, d] if f(c) < f(d), else to [c, b]
 * (ties keep the right part), the surviving point becomes one of the two new interior
 * points, and the other is the one new point of the next batch.
 *
 * Stopping: as soon as a narrowing leaves b - a < tolerance, before evaluating that
 * step's new point, since it could not shrink the bracket any more: the best point found
 * so far is the surviving interior point, which lies in the final bracket, as does the
 * minimum of a unimodal function.  k narrowings leave width (hi - lo) r^k and cost k + 1
 * evaluations (2 for the first step, 1 for each later one), so a full run makes
 *     ceil(log(tolerance / (hi - lo)) / log r) + 1
 * evaluations (when the ratio is not an exact power of r).  Also stops after
 * max_iterations batches, or when the budget is spent.
 */
#include "tuner/optim/optimizer.h"

/* (sqrt(5) - 1) / 2, the golden ratio's inverse. */
static const double golden_r = 0.618033988749894848204586834365638;

typedef enum {
	NEED_BOTH,
	NEED_C,
	NEED_D
} golden_need;

typedef struct {
	double a, b, c, d, fc, fd;
	double tolerance;
	size_t max_iterations, iterations;
	golden_need need;
	bool done;
} golden_state;

static bool golden_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	const double tol = p->golden.tolerance, lo = p->golden.lo, hi = p->golden.hi;
	if (dim != 1) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "golden: searches one dimension, got %zu", dim);
		return false;
	}
	if (!(lo >= 0.0 && lo < hi && hi <= 1.0)) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "golden: bracket [%g, %g] must satisfy 0 <= lo < hi <= 1", lo, hi);
		return false;
	}
	if (!(tol > 0.0 && tol < hi - lo)) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "golden: tolerance %g must be > 0 and below the bracket width %g", tol,
			    hi - lo);
		return false;
	}
	if (p->golden.max_iterations == 0) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "golden: max_iterations must be at least 1");
		return false;
	}
	return true;
}

static void golden_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	(void)dim;
	(void)r;
	golden_state *s = vstate;
	s->a = p->golden.lo;
	s->b = p->golden.hi;
	s->c = s->b - golden_r * (s->b - s->a);
	s->d = s->a + golden_r * (s->b - s->a);
	s->tolerance = p->golden.tolerance;
	s->max_iterations = p->golden.max_iterations;
	s->iterations = 0;
	s->need = NEED_BOTH;
	s->done = false;
}

static size_t golden_batch_max(const void *vstate)
{
	(void)vstate;
	return 2;
}

static size_t golden_propose(void *vstate, double *x, gsl_rng *r)
{
	(void)r;
	golden_state *s = vstate;
	if (s->done)
		return 0;
	switch (s->need) {
	case NEED_BOTH:
		x[0] = s->c;
		x[1] = s->d;
		return 2;
	case NEED_C:
		x[0] = s->c;
		return 1;
	case NEED_D:
		x[0] = s->d;
		return 1;
	}
	return 0;
}

static void narrow(golden_state *s)
{
	if (s->fc < s->fd) {
		s->b = s->d;
		s->d = s->c;
		s->fd = s->fc;
		s->c = s->b - golden_r * (s->b - s->a);
		s->need = NEED_C;
	} else {
		s->a = s->c;
		s->c = s->d;
		s->fc = s->fd;
		s->d = s->a + golden_r * (s->b - s->a);
		s->need = NEED_D;
	}
}

static void golden_update(void *vstate, const double *x, const double *y, size_t n)
{
	(void)x;
	golden_state *s = vstate;
	s->iterations++;
	if (n == 0 || (s->need == NEED_BOTH && n < 2)) {
		s->done = true; /* the budget cut the step short: nothing to narrow with */
		return;
	}
	switch (s->need) {
	case NEED_BOTH:
		s->fc = y[0];
		s->fd = y[1];
		break;
	case NEED_C:
		s->fc = y[0];
		break;
	case NEED_D:
		s->fd = y[0];
		break;
	}
	narrow(s);
	if (s->b - s->a < s->tolerance || s->iterations >= s->max_iterations)
		s->done = true;
}

static bool golden_done(const void *vstate)
{
	const golden_state *s = vstate;
	return s->done;
}

static void golden_release(void *vstate)
{
	(void)vstate;
}

static const tuner_optimizer_type golden_type = {
	.name = "golden",
	.size = sizeof(golden_state),
	.check = golden_check,
	.init = golden_init,
	.batch_max = golden_batch_max,
	.propose = golden_propose,
	.update = golden_update,
	.done = golden_done,
	.release = golden_release,
};

const tuner_optimizer_type *const tuner_optimizer_golden = &golden_type;

int tuner_optimizer_golden_bracket(const tuner_optimizer *s, double *a, double *b)
{
	const golden_state *g = tuner_optimizer_state(s);
	if (tuner_optimizer_get_type(s) != tuner_optimizer_golden || g == NULL)
		return GSL_EINVAL;
	*a = g->a;
	*b = g->b;
	return GSL_SUCCESS;
}
