/*
 * random_search.c - pure random search: independent uniform points in [0,1)^dim
 * (gsl_rng_uniform, point by point, coordinate by coordinate), in batches of at most
 * random.batch, until the budget is spent.  It has no stopping rule of its own, so it
 * requires a budget.  The baseline any cleverer optimizer has to beat.
 */
#include "tuner/optim/optimizer.h"

#include <stdint.h>

typedef struct {
	size_t dim, batch;
} random_state;

static bool random_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	const char *bad = NULL;
	if (p->budget == 0)
		bad = "needs a budget (maximum evaluations) above 0";
	else if (p->random.batch == 0)
		bad = "batch must be at least 1";
	else if (MIN(p->random.batch, p->budget) > SIZE_MAX / sizeof(double) / dim)
		bad = "batch * dimension is too large";
	if (bad != NULL) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "random: %s (budget %zu, batch %zu)", bad, p->budget, p->random.batch);
		return false;
	}
	return true;
}

static void random_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	(void)r;
	random_state *s = vstate;
	s->dim = dim;
	s->batch = MIN(p->random.batch, p->budget);
}

static size_t random_batch_max(const void *vstate)
{
	const random_state *s = vstate;
	return s->batch;
}

static size_t random_propose(void *vstate, double *x, gsl_rng *r)
{
	random_state *s = vstate;
	for (size_t k = 0; k < s->batch * s->dim; k++)
		x[k] = gsl_rng_uniform(r);
	return s->batch;
}

static void random_update(void *vstate, const double *x, const double *y, size_t n)
{
	(void)vstate;
	(void)x;
	(void)y;
	(void)n;
}

static bool random_done(const void *vstate)
{
	(void)vstate;
	return false; /* the driver's budget ends the search */
}

static void random_release(void *vstate)
{
	(void)vstate;
}

static const tuner_optimizer_type random_type = {
	.name = "random",
	.size = sizeof(random_state),
	.check = random_check,
	.init = random_init,
	.batch_max = random_batch_max,
	.propose = random_propose,
	.update = random_update,
	.done = random_done,
	.release = random_release,
};

const tuner_optimizer_type *const tuner_optimizer_random = &random_type;
