/*
 * multistart_nm.c - Nelder-Mead from several seeded starts over a box (see multistart_nm.h).
 */
#include "tuner/optim/multistart_nm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_multimin.h>
#include <gsl/gsl_rng.h>

#define PENALTY	   100.0
#define FAILED_VAL 1e30

struct multistart_nm {
	size_t dim;
	multistart_nm_params p;
	double *lo, *hi, *x0;
	multistart_nm_fn f;
	void *ctx;
	gsl_rng *rng;
	gsl_multimin_fminimizer *nm; /* NULL between starts */
	gsl_multimin_function fn;    /* nm keeps a pointer to it */
	gsl_vector *start, *steps;
	double *clamped;
	double *best_x, best_f;
	unsigned int start_no, iter, n_runs;
	multistart_nm_run *runs;
	size_t evals;
};

multistart_nm *multistart_nm_alloc(size_t dim)
{
	multistart_nm *s = calloc(1, sizeof(*s));

	if (!s || dim == 0) {
		free(s);
		return NULL;
	}
	s->dim = dim;
	s->lo = calloc(dim, sizeof(double));
	s->hi = calloc(dim, sizeof(double));
	s->x0 = calloc(dim, sizeof(double));
	s->clamped = calloc(dim, sizeof(double));
	s->best_x = calloc(dim, sizeof(double));
	s->start = gsl_vector_alloc(dim);
	s->steps = gsl_vector_alloc(dim);
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	s->best_f = INFINITY;
	return s;
}

static void end_runs(multistart_nm *s)
{
	for (unsigned int i = 0; i < s->n_runs; i++)
		free(s->runs[i].x);
	free(s->runs);
	s->runs = NULL;
	s->n_runs = 0;
}

void multistart_nm_free(multistart_nm *s)
{
	if (!s)
		return;
	if (s->nm)
		gsl_multimin_fminimizer_free(s->nm);
	end_runs(s);
	gsl_vector_free(s->start);
	gsl_vector_free(s->steps);
	gsl_rng_free(s->rng);
	free(s->lo);
	free(s->hi);
	free(s->x0);
	free(s->clamped);
	free(s->best_x);
	free(s);
}

/* f at the box's nearest point, plus the penalty for the distance outside it. */
static double boxed(const gsl_vector *v, void *params)
{
	multistart_nm *s = params;
	double outside = 0;

	for (size_t i = 0; i < s->dim; i++) {
		double x = gsl_vector_get(v, i);
		double c = x < s->lo[i] ? s->lo[i] : x > s->hi[i] ? s->hi[i] : x;

		outside += (x - c) * (x - c);
		s->clamped[i] = c;
	}
	double y = s->f(s->clamped, s->ctx);

	s->evals++;
	if (!isfinite(y) || y > FAILED_VAL)
		y = FAILED_VAL;
	if (y < s->best_f) {
		s->best_f = y;
		memcpy(s->best_x, s->clamped, s->dim * sizeof(double));
	}
	return y + PENALTY * outside;
}

int multistart_nm_set(multistart_nm *s, const multistart_nm_params *p, multistart_nm_fn f,
		      void *ctx)
{
	if (!s || !p || !f || p->dim != s->dim || !p->lo || !p->hi || p->starts < 1 ||
	    p->max_iter < 1 || !(p->step > 0) || !(p->tol > 0))
		return GSL_EINVAL;
	for (size_t i = 0; i < s->dim; i++)
		if (!(p->lo[i] < p->hi[i]) || !isfinite(p->lo[i]) || !isfinite(p->hi[i]))
			return GSL_EINVAL;
	if (s->nm) {
		gsl_multimin_fminimizer_free(s->nm);
		s->nm = NULL;
	}
	end_runs(s);
	s->p = *p;
	memcpy(s->lo, p->lo, s->dim * sizeof(double));
	memcpy(s->hi, p->hi, s->dim * sizeof(double));
	for (size_t i = 0; i < s->dim; i++)
		s->x0[i] = p->x0 ? p->x0[i] : (p->lo[i] + p->hi[i]) / 2;
	s->p.lo = s->lo;
	s->p.hi = s->hi;
	s->p.x0 = s->x0;
	s->f = f;
	s->ctx = ctx;
	gsl_rng_set(s->rng, p->seed);
	s->best_f = INFINITY;
	memcpy(s->best_x, s->x0, s->dim * sizeof(double));
	s->start_no = s->iter = 0;
	s->evals = 0;
	s->runs = calloc(p->starts, sizeof(multistart_nm_run));
	return s->runs ? GSL_SUCCESS : GSL_ENOMEM;
}

/* Sets up start number s->start_no. */
static int begin_start(multistart_nm *s)
{
	s->fn = (gsl_multimin_function){ boxed, s->dim, s };
	for (size_t i = 0; i < s->dim; i++) {
		double x = s->start_no == 0
				   ? s->x0[i]
				   : s->lo[i] + gsl_rng_uniform(s->rng) * (s->hi[i] - s->lo[i]);

		gsl_vector_set(s->start, i, x);
		gsl_vector_set(s->steps, i, s->p.step * (s->hi[i] - s->lo[i]));
	}
	s->nm = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, s->dim);
	if (!s->nm)
		return GSL_ENOMEM;
	s->iter = 0;
	return gsl_multimin_fminimizer_set(s->nm, &s->fn, s->start, s->steps);
}

/* Records the current start's end and frees its simplex. */
static void end_start(multistart_nm *s, bool converged)
{
	multistart_nm_run *r = &s->runs[s->n_runs++];
	const gsl_vector *x = gsl_multimin_fminimizer_x(s->nm);

	r->x = malloc(s->dim * sizeof(double));
	for (size_t i = 0; i < s->dim; i++) {
		double v = gsl_vector_get(x, i);

		r->x[i] = v < s->lo[i] ? s->lo[i] : v > s->hi[i] ? s->hi[i] : v;
	}
	r->f = gsl_multimin_fminimizer_minimum(s->nm);
	r->iters = s->iter;
	r->converged = converged;
	gsl_multimin_fminimizer_free(s->nm);
	s->nm = NULL;
	s->start_no++;
}

int multistart_nm_iterate(multistart_nm *s)
{
	if (s->start_no >= s->p.starts)
		return GSL_SUCCESS;
	if (!s->nm) {
		int status = begin_start(s);

		if (status != GSL_SUCCESS && s->nm)
			end_start(s, false);
		return s->start_no >= s->p.starts ? GSL_SUCCESS : GSL_CONTINUE;
	}
	int status = gsl_multimin_fminimizer_iterate(s->nm);

	s->iter++;
	bool converged = gsl_multimin_fminimizer_size(s->nm) < s->p.tol;

	if (status != GSL_SUCCESS || converged || s->iter >= s->p.max_iter)
		end_start(s, converged);
	return s->start_no >= s->p.starts ? GSL_SUCCESS : GSL_CONTINUE;
}

const double *multistart_nm_x(const multistart_nm *s)
{
	return s->best_x;
}

double multistart_nm_minimum(const multistart_nm *s)
{
	return s->best_f;
}

unsigned int multistart_nm_start(const multistart_nm *s)
{
	return s->start_no;
}

unsigned int multistart_nm_iter(const multistart_nm *s)
{
	return s->iter;
}

size_t multistart_nm_evals(const multistart_nm *s)
{
	return s->evals;
}

const multistart_nm_run *multistart_nm_runs(const multistart_nm *s, unsigned int *n)
{
	*n = s->n_runs;
	return s->runs;
}
