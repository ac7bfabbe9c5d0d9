/*
 * pso.c - synchronous particle swarm optimisation (SPEC.md §5).
 *
 *     v <- omega v + phi_p rp (p - x) + phi_g rg (g - x),   x <- x + v
 *
 * with rp, rg drawn from U[0,1] for every particle and every dimension, p the particle's
 * best point and g the swarm's.
 *
 * Choices the SPEC leaves open, made here:
 * - Start: positions uniform in the unit cube (all particles' positions first, particle
 *   by particle, dimension by dimension), then velocities uniform in [-1, 1], i.e. +-
 *   the width of the search range in each dimension, the customary choice.
 * - Bounds: a coordinate that leaves [0,1] is clamped to the bound it crossed and that
 *   velocity component is set to zero, so the particle sits on the wall until the
 *   attraction terms pull it back in.  (Reflecting would invent momentum the update rule
 *   does not have; zeroing keeps the rule as written.)
 * - Synchronous: a generation is one batch; p and g change only after the whole
 *   generation is evaluated, so the result does not depend on evaluation order.  g is
 *   replaced only by a strictly better p, scanning particles in index order.
 * - One move draws, per particle in index order and per dimension, rp then rg.
 * - `iterations` counts evaluated generations including the initial swarm.
 */
#include "tuner/optim/optimizer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
	size_t dim, particles, iterations, generation;
	double omega, phi_p, phi_g;
	double *x;  /* particles * dim positions */
	double *v;  /* particles * dim velocities */
	double *p;  /* particles * dim personal best points */
	double *py; /* particles personal best values */
	double *g;  /* dim: swarm best point */
	double gy;  /* swarm best value */
} pso_state;

static bool pso_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	const char *bad = NULL;
	if (p->pso.particles == 0)
		bad = "particles must be at least 1";
	else if (p->pso.particles > SIZE_MAX / sizeof(double) / dim)
		bad = "particles * dimension is too large";
	else if (p->pso.iterations == 0)
		bad = "iterations must be at least 1";
	else if (!isfinite(p->pso.omega) || !isfinite(p->pso.phi_p) || !isfinite(p->pso.phi_g))
		bad = "omega, phi_p and phi_g must be finite";
	if (bad != NULL) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "pso: %s (particles %zu, iterations %zu, omega %g, phi_p %g, phi_g %g)",
			    bad, p->pso.particles, p->pso.iterations, p->pso.omega, p->pso.phi_p,
			    p->pso.phi_g);
		return false;
	}
	return true;
}

static void pso_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	pso_state *s = vstate;
	size_t n = p->pso.particles * dim;
	s->dim = dim;
	s->particles = p->pso.particles;
	s->iterations = p->pso.iterations;
	s->generation = 0;
	s->omega = p->pso.omega;
	s->phi_p = p->pso.phi_p;
	s->phi_g = p->pso.phi_g;
	s->x = g_new(double, n);
	s->v = g_new(double, n);
	s->p = g_new(double, n);
	s->py = g_new(double, s->particles);
	s->g = g_new(double, dim);

	for (size_t k = 0; k < n; k++)
		s->x[k] = gsl_rng_uniform(r);
	for (size_t k = 0; k < n; k++)
		s->v[k] = 2.0 * gsl_rng_uniform(r) - 1.0;
	memcpy(s->p, s->x, n * sizeof(double));
	for (size_t i = 0; i < s->particles; i++)
		s->py[i] = INFINITY;
	memcpy(s->g, s->x, dim * sizeof(double));
	s->gy = INFINITY;
}

static size_t pso_batch_max(const void *vstate)
{
	const pso_state *s = vstate;
	return s->particles;
}

static void move_particle(pso_state *s, size_t i, gsl_rng *r)
{
	double *x = s->x + i * s->dim, *v = s->v + i * s->dim;
	const double *p = s->p + i * s->dim;
	for (size_t d = 0; d < s->dim; d++) {
		double rp = gsl_rng_uniform(r);
		double rg = gsl_rng_uniform(r);
		v[d] = s->omega * v[d] + s->phi_p * rp * (p[d] - x[d]) +
		       s->phi_g * rg * (s->g[d] - x[d]);
		x[d] += v[d];
		if (x[d] < 0.0 || x[d] > 1.0) {
			x[d] = x[d] < 0.0 ? 0.0 : 1.0;
			v[d] = 0.0;
		}
	}
}

static size_t pso_propose(void *vstate, double *x, gsl_rng *r)
{
	pso_state *s = vstate;
	if (s->generation >= s->iterations)
		return 0;
	if (s->generation > 0)
		for (size_t i = 0; i < s->particles; i++)
			move_particle(s, i, r);
	memcpy(x, s->x, s->particles * s->dim * sizeof(double));
	return s->particles;
}

static void pso_update(void *vstate, const double *x, const double *y, size_t n)
{
	pso_state *s = vstate;
	for (size_t i = 0; i < n; i++) {
		if (y[i] < s->py[i]) {
			s->py[i] = y[i];
			memcpy(s->p + i * s->dim, x + i * s->dim, s->dim * sizeof(double));
		}
	}
	for (size_t i = 0; i < s->particles; i++) {
		if (s->py[i] < s->gy) {
			s->gy = s->py[i];
			memcpy(s->g, s->p + i * s->dim, s->dim * sizeof(double));
		}
	}
	s->generation++;
}

static bool pso_done(const void *vstate)
{
	const pso_state *s = vstate;
	return s->generation >= s->iterations;
}

static void pso_release(void *vstate)
{
	pso_state *s = vstate;
	g_free(s->x);
	g_free(s->v);
	g_free(s->p);
	g_free(s->py);
	g_free(s->g);
}

static const tuner_optimizer_type pso_type = {
	.name = "pso",
	.size = sizeof(pso_state),
	.check = pso_check,
	.init = pso_init,
	.batch_max = pso_batch_max,
	.propose = pso_propose,
	.update = pso_update,
	.done = pso_done,
	.release = pso_release,
};

const tuner_optimizer_type *const tuner_optimizer_pso = &pso_type;
