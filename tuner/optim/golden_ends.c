/*
 * golden_ends.c - Golden Section that checks the ends of its bracket first (see golden_ends.h).
 *
 * The narrowing itself is tuner_optimizer_golden's: this type owns one golden state and
 * delegates to its functions, adding only the first four-point batch and the choice of valley.
 */
#include "tuner/optim/golden_ends.h"

#include <string.h>

typedef enum {
	PHASE_ENDS,
	PHASE_GOLDEN,
	PHASE_DONE
} ends_phase;

typedef struct {
	ends_phase phase;
	tuner_optimizer_params
		params; /* the caller's; golden.lo/hi/max_iterations change on restart */
	void *golden;	/* tuner_optimizer_golden's state */
	double c, d;	/* the first interior points */
} ends_state;

#define GOLDEN (tuner_optimizer_golden)

static bool ends_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	return GOLDEN->check(dim, p, error);
}

static void ends_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	ends_state *s = vstate;

	s->params = *p;
	s->golden = g_malloc0(GOLDEN->size);
	GOLDEN->init(s->golden, dim, p, r);
	s->phase = GOLDEN->done(s->golden) ? PHASE_DONE : PHASE_ENDS;
}

static size_t ends_batch_max(const void *vstate)
{
	(void)vstate;
	return 4;
}

static size_t ends_propose(void *vstate, double *x, gsl_rng *r)
{
	ends_state *s = vstate;
	double cd[2];

	switch (s->phase) {
	case PHASE_ENDS:
		/* Golden Section's first proposal is its two interior points. */
		if (GOLDEN->propose(s->golden, cd, r) != 2)
			return 0;
		s->c = cd[0];
		s->d = cd[1];
		x[0] = s->params.golden.lo;
		x[1] = s->c;
		x[2] = s->d;
		x[3] = s->params.golden.hi;
		return 4;
	case PHASE_GOLDEN:
		return GOLDEN->propose(s->golden, x, r);
	case PHASE_DONE:
		break;
	}
	return 0;
}

/* Golden Section afresh on [lo, hi] with the iterations left; done when nothing is left to
 * narrow. */
static void restart(ends_state *s, double lo, double hi)
{
	tuner_optimizer_params *p = &s->params;

	p->golden.lo = lo;
	p->golden.hi = hi;
	p->golden.max_iterations--; /* the ends batch was one */
	if (p->golden.max_iterations == 0 || !GOLDEN->check(1, p, NULL)) {
		s->phase =
			PHASE_DONE; /* the bracket is already within tolerance: the end is the answer */
		return;
	}
	GOLDEN->release(s->golden);
	memset(s->golden, 0, GOLDEN->size);
	GOLDEN->init(s->golden, 1, p, NULL); /* golden draws no random numbers */
	s->phase = PHASE_GOLDEN;
}

static void update_ends(ends_state *s, const double *x, const double *y, size_t n)
{
	if (n < 4) {
		s->phase = PHASE_DONE; /* the budget cut the batch short */
		return;
	}

	double interior = MIN(y[1], y[2]);

	if (y[0] < interior && y[0] <= y[3])
		restart(s, x[0], s->c);
	else if (y[3] < interior)
		restart(s, s->d, x[3]);
	else {
		GOLDEN->update(s->golden, x + 1, y + 1, 2);
		s->phase = GOLDEN->done(s->golden) ? PHASE_DONE : PHASE_GOLDEN;
	}
}

static void ends_update(void *vstate, const double *x, const double *y, size_t n)
{
	ends_state *s = vstate;

	if (s->phase == PHASE_ENDS) {
		update_ends(s, x, y, n);
		return;
	}
	GOLDEN->update(s->golden, x, y, n);
	if (GOLDEN->done(s->golden))
		s->phase = PHASE_DONE;
}

static bool ends_done(const void *vstate)
{
	const ends_state *s = vstate;

	return s->phase == PHASE_DONE;
}

static void ends_release(void *vstate)
{
	ends_state *s = vstate;

	if (s->golden)
		GOLDEN->release(s->golden);
	g_free(s->golden);
	s->golden = NULL;
}

static const tuner_optimizer_type golden_ends_type = {
	.name = "golden-ends",
	.size = sizeof(ends_state),
	.check = ends_check,
	.init = ends_init,
	.batch_max = ends_batch_max,
	.propose = ends_propose,
	.update = ends_update,
	.done = ends_done,
	.release = ends_release,
};

const tuner_optimizer_type *const tuner_optimizer_golden_ends = &golden_ends_type;
