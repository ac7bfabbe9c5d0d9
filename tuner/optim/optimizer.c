/*
 * optimizer.c - the generic optimizer: instance, ask/tell driver, best point,
 * budget and history.  The types (pso.c, golden.c, grid.c, random_search.c) only
 * propose batches and learn from their values; everything they have in common is here.
 *
 * A type proposes a whole *generation* at once into gen_x.  The driver cuts it to the
 * remaining budget, hands it out in asks of at most `capacity` points, collects the
 * values in gen_y, and gives the generation back to the type only when every value is
 * in.  That is what makes results independent of how the caller splits and orders its
 * evaluations.
 */
#include "tuner/optim/optimizer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

struct tuner_optimizer {
	const tuner_optimizer_type *type;
	size_t dim;
	void *state; /* type->size bytes */
	gsl_rng *rng;
	bool is_set;
	bool finished;
	size_t budget; /* 0 = unlimited */
	size_t batch_max;

	/* The current generation: gen_n points, [0, gen_told) answered, [gen_told,
	 * gen_asked) handed out and awaiting their tell. */
	double *gen_x, *gen_y;
	size_t gen_n, gen_asked, gen_told;

	double *iter_x, *iter_y; /* scratch for tuner_optimizer_iterate */

	double *x_best;
	double f_best;
	size_t evaluations;

	GArray *hist_x;		/* double, dim per evaluation */
	GArray *hist_y;		/* double */
	GArray *hist_best;	/* double */
	GArray *hist_iteration; /* size_t */
	GArray *iteration_best; /* double, one per completed generation */
};

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(tuner-optimizer-error-quark, tuner_optimizer_error)
/* clang-format on */

void tuner_optimizer_params_default(tuner_optimizer_params *p)
{
	*p = (tuner_optimizer_params){
		.seed = 1,
		.budget = 0,
		.pso = { .particles = 20,
			 .iterations = 30,
			 .omega = 0.4365,
			 .phi_p = 3.02,
			 .phi_g = 3.02 },
		.golden = { .tolerance = 1e-3, .max_iterations = 100, .lo = 0.0, .hi = 1.0 },
		.grid = { .points = 5, .batch = 64 },
		.random = { .batch = 64 },
	};
}

const tuner_optimizer_type *tuner_optimizer_type_by_name(const char *name)
{
	const tuner_optimizer_type *const all[] = {
		tuner_optimizer_pso,
		tuner_optimizer_golden,
		tuner_optimizer_grid,
		tuner_optimizer_random,
	};
	if (name == NULL)
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
		if (g_ascii_strcasecmp(name, all[i]->name) == 0)
			return all[i];
	return NULL;
}

tuner_optimizer *tuner_optimizer_alloc(const tuner_optimizer_type *T, size_t dim)
{
	if (T == NULL || dim == 0)
		return NULL;
	tuner_optimizer *s = g_new0(tuner_optimizer, 1);
	s->type = T;
	s->dim = dim;
	s->state = g_malloc0(T->size);
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	s->x_best = g_new(double, dim);
	s->hist_x = g_array_new(FALSE, FALSE, sizeof(double));
	s->hist_y = g_array_new(FALSE, FALSE, sizeof(double));
	s->hist_best = g_array_new(FALSE, FALSE, sizeof(double));
	s->hist_iteration = g_array_new(FALSE, FALSE, sizeof(size_t));
	s->iteration_best = g_array_new(FALSE, FALSE, sizeof(double));
	s->f_best = INFINITY;
	s->finished = true;
	for (size_t d = 0; d < dim; d++)
		s->x_best[d] = 0.5;
	return s;
}

static void release_run(tuner_optimizer *s)
{
	if (s->is_set)
		s->type->release(s->state);
	memset(s->state, 0, s->type->size);
	g_clear_pointer(&s->gen_x, g_free);
	g_clear_pointer(&s->gen_y, g_free);
	g_clear_pointer(&s->iter_x, g_free);
	g_clear_pointer(&s->iter_y, g_free);
	s->is_set = false;
	s->finished = true;
}

void tuner_optimizer_free(tuner_optimizer *s)
{
	if (s == NULL)
		return;
	release_run(s);
	g_free(s->state);
	gsl_rng_free(s->rng);
	g_free(s->x_best);
	g_array_unref(s->hist_x);
	g_array_unref(s->hist_y);
	g_array_unref(s->hist_best);
	g_array_unref(s->hist_iteration);
	g_array_unref(s->iteration_best);
	g_free(s);
}

bool tuner_optimizer_params_check(const tuner_optimizer_type *T, size_t dim,
				  const tuner_optimizer_params *p, GError **error)
{
	g_return_val_if_fail(T != NULL && p != NULL, false);
	if (dim == 0) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "%s: dimension must be at least 1", T->name);
		return false;
	}
	return T->check(dim, p, error);
}

static void clear_results(tuner_optimizer *s)
{
	s->f_best = INFINITY;
	for (size_t d = 0; d < s->dim; d++)
		s->x_best[d] = 0.5;
	s->evaluations = 0;
	g_array_set_size(s->hist_x, 0);
	g_array_set_size(s->hist_y, 0);
	g_array_set_size(s->hist_best, 0);
	g_array_set_size(s->hist_iteration, 0);
	g_array_set_size(s->iteration_best, 0);
	s->gen_n = s->gen_asked = s->gen_told = 0;
}

int tuner_optimizer_set(tuner_optimizer *s, const tuner_optimizer_params *p)
{
	tuner_optimizer_params defaults;
	if (p == NULL) {
		tuner_optimizer_params_default(&defaults);
		p = &defaults;
	}
	release_run(s);
	clear_results(s);
	if (!tuner_optimizer_params_check(s->type, s->dim, p, NULL))
		return GSL_EINVAL;

	gsl_rng_set(s->rng, p->seed);
	s->type->init(s->state, s->dim, p, s->rng);
	s->is_set = true;
	s->budget = p->budget;

	size_t type_max = s->type->batch_max(s->state);
	s->batch_max = (s->budget > 0 && s->budget < type_max) ? s->budget : type_max;
	s->gen_x = g_new(double, type_max * s->dim);
	s->gen_y = g_new(double, type_max);
	s->iter_x = g_new(double, s->batch_max * s->dim);
	s->iter_y = g_new(double, s->batch_max);
	s->finished = s->type->done(s->state);
	return GSL_SUCCESS;
}

static size_t budget_left(const tuner_optimizer *s)
{
	return s->budget == 0 ? SIZE_MAX : s->budget - s->evaluations;
}

/* Asks the type for the next generation; false when there is none. */
static bool start_generation(tuner_optimizer *s)
{
	size_t n = s->type->propose(s->state, s->gen_x, s->rng);
	if (n == 0) {
		s->finished = true;
		return false;
	}
	s->gen_n = MIN(n, budget_left(s));
	s->gen_asked = s->gen_told = 0;
	return true;
}

size_t tuner_optimizer_ask(tuner_optimizer *s, double *x, size_t capacity)
{
	if (!s->is_set || s->finished || capacity == 0)
		return 0;
	s->gen_asked = s->gen_told; /* take back points asked but never told */
	if (s->gen_told == s->gen_n && !start_generation(s))
		return 0;
	size_t n = MIN(capacity, s->gen_n - s->gen_asked);
	memcpy(x, s->gen_x + s->gen_asked * s->dim, n * s->dim * sizeof(double));
	s->gen_asked += n;
	return n;
}

size_t tuner_optimizer_batch_max(const tuner_optimizer *s)
{
	return s->is_set ? s->batch_max : 0;
}

static void record(tuner_optimizer *s, const double *x, double y)
{
	size_t iteration = s->iteration_best->len;
	if (s->evaluations == 0 || y < s->f_best) {
		s->f_best = y;
		memcpy(s->x_best, x, s->dim * sizeof(double));
	}
	g_array_append_vals(s->hist_x, x, s->dim);
	g_array_append_val(s->hist_y, y);
	g_array_append_val(s->hist_best, s->f_best);
	g_array_append_val(s->hist_iteration, iteration);
	s->evaluations++;
}

static void finish_generation(tuner_optimizer *s)
{
	s->type->update(s->state, s->gen_x, s->gen_y, s->gen_n);
	g_array_append_val(s->iteration_best, s->f_best);
	if (budget_left(s) == 0 || s->type->done(s->state))
		s->finished = true;
}

int tuner_optimizer_tell(tuner_optimizer *s, const double *y, size_t n)
{
	size_t pending = s->gen_asked - s->gen_told;
	if (!s->is_set || pending == 0)
		return GSL_EINVAL;
	if (n != pending)
		return GSL_EBADLEN;
	for (size_t i = 0; i < n; i++)
		if (isnan(y[i]))
			return GSL_EDOM;

	for (size_t i = 0; i < n; i++) {
		size_t k = s->gen_told + i;
		s->gen_y[k] = y[i];
		record(s, s->gen_x + k * s->dim, y[i]);
	}
	s->gen_told += n;
	if (s->gen_told == s->gen_n)
		finish_generation(s);
	return GSL_SUCCESS;
}

int tuner_optimizer_iterate(tuner_optimizer *s, tuner_batch_fn f, void *ctx)
{
	if (!s->is_set)
		return GSL_EINVAL;
	size_t n = tuner_optimizer_ask(s, s->iter_x, s->batch_max);
	if (n == 0)
		return GSL_SUCCESS;
	for (size_t i = 0; i < n; i++)
		s->iter_y[i] = NAN; /* so that a value f forgot is caught by tell */
	int status = f(s->iter_x, n, s->dim, s->iter_y, ctx);
	if (status != GSL_SUCCESS)
		return status == GSL_CONTINUE ? GSL_EFAILED : status;
	status = tuner_optimizer_tell(s, s->iter_y, n);
	if (status != GSL_SUCCESS)
		return status;
	return s->finished ? GSL_SUCCESS : GSL_CONTINUE;
}

bool tuner_optimizer_finished(const tuner_optimizer *s)
{
	return s->finished;
}

const double *tuner_optimizer_x(const tuner_optimizer *s)
{
	return s->x_best;
}

double tuner_optimizer_minimum(const tuner_optimizer *s)
{
	return s->f_best;
}

size_t tuner_optimizer_evaluations(const tuner_optimizer *s)
{
	return s->evaluations;
}

size_t tuner_optimizer_dim(const tuner_optimizer *s)
{
	return s->dim;
}

const char *tuner_optimizer_name(const tuner_optimizer *s)
{
	return s->type->name;
}

size_t tuner_optimizer_iterations(const tuner_optimizer *s)
{
	return s->iteration_best->len;
}

double tuner_optimizer_iteration_best(const tuner_optimizer *s, size_t i)
{
	g_return_val_if_fail(i < s->iteration_best->len, NAN);
	return g_array_index(s->iteration_best, double, i);
}

tuner_optimizer_record tuner_optimizer_history(const tuner_optimizer *s, size_t i)
{
	const tuner_optimizer_record none = { .y = NAN, .best = NAN };
	g_return_val_if_fail(i < s->evaluations, none);
	return (tuner_optimizer_record){
		.index = i,
		.iteration = g_array_index(s->hist_iteration, size_t, i),
		.x = &g_array_index(s->hist_x, double, i * s->dim),
		.y = g_array_index(s->hist_y, double, i),
		.best = g_array_index(s->hist_best, double, i),
	};
}

const void *tuner_optimizer_state(const tuner_optimizer *s)
{
	return s->is_set ? s->state : NULL;
}

const tuner_optimizer_type *tuner_optimizer_get_type(const tuner_optimizer *s)
{
	return s->type;
}
