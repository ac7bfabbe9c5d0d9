/*
 * grid.c - full factorial grid search: N points per dimension, N^dim points in
 * all, at coordinates i / (N - 1), i = 0..N-1 (the single point 0.5 when N = 1), so the
 * corners of the cube are always visited.  Points are enumerated like nested loops with
 * the first coordinate outermost, and handed out in batches of at most grid.batch.
 * A baseline to judge the other optimizers by, and a way to tabulate a surface.
 */
#include "tuner/optim/optimizer.h"

#include <stdint.h>

typedef struct {
	size_t dim, points, total, batch, next;
} grid_state;

/* points^dim, or 0 if it does not fit in a size_t with dim doubles per point. */
static size_t grid_total(size_t points, size_t dim)
{
	size_t total = 1;
	for (size_t d = 0; d < dim; d++) {
		if (total > SIZE_MAX / sizeof(double) / dim / points)
			return 0;
		total *= points;
	}
	return total;
}

static bool grid_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	const char *bad = NULL;
	if (p->grid.points == 0)
		bad = "points per dimension must be at least 1";
	else if (p->grid.batch == 0)
		bad = "batch must be at least 1";
	else if (grid_total(p->grid.points, dim) == 0)
		bad = "points^dimension is too large";
	if (bad != NULL) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "grid: %s (points %zu, dimension %zu, batch %zu)", bad, p->grid.points,
			    dim, p->grid.batch);
		return false;
	}
	return true;
}

static void grid_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	(void)r;
	grid_state *s = vstate;
	s->dim = dim;
	s->points = p->grid.points;
	s->total = grid_total(s->points, dim);
	s->batch = MIN(p->grid.batch, s->total);
	s->next = 0;
}

static size_t grid_batch_max(const void *vstate)
{
	const grid_state *s = vstate;
	return s->batch;
}

static void grid_point(const grid_state *s, size_t index, double *x)
{
	for (size_t d = s->dim; d-- > 0;) {
		size_t i = index % s->points;
		index /= s->points;
		x[d] = s->points == 1 ? 0.5 : (double)i / (double)(s->points - 1);
	}
}

static size_t grid_propose(void *vstate, double *x, gsl_rng *r)
{
	(void)r;
	grid_state *s = vstate;
	size_t n = MIN(s->batch, s->total - s->next);
	for (size_t k = 0; k < n; k++)
		grid_point(s, s->next + k, x + k * s->dim);
	return n;
}

static void grid_update(void *vstate, const double *x, const double *y, size_t n)
{
	(void)x;
	(void)y;
	grid_state *s = vstate;
	s->next += n;
}

static bool grid_done(const void *vstate)
{
	const grid_state *s = vstate;
	return s->next >= s->total;
}

static void grid_release(void *vstate)
{
	(void)vstate;
}

static const tuner_optimizer_type grid_type = {
	.name = "grid",
	.size = sizeof(grid_state),
	.check = grid_check,
	.init = grid_init,
	.batch_max = grid_batch_max,
	.propose = grid_propose,
	.update = grid_update,
	.done = grid_done,
	.release = grid_release,
};

const tuner_optimizer_type *const tuner_optimizer_grid = &grid_type;
