/*
 * tuner/optim/ga.c - a real-coded genetic algorithm, as the tuning literature used one over the
 * CFS sysctls: a population of knob vectors evolved by tournament selection, crossover, mutation
 * and elitism.
 *
 * One generation:
 *   - the population is ranked by value (ties: the earlier individual first);
 *   - the `elite` best are copied into the next generation unchanged, with their values (they
 *     are not evaluated again: on a deterministic objective that would only repeat a number, and
 *     on a noisy one the replicates are the better place to spend evaluations);
 *   - the other population - elite places are filled by children, two at a time: each parent is
 *     the best of `tournament` individuals drawn uniformly with replacement; with probability
 *     `crossover` the pair is crossed, else copied; each gene of each child is then mutated with
 *     probability `mutation` (default 1 / dim, one gene per child on average).  A child that no
 *     operator changed is mutated in one random gene, so that no evaluation repeats its parent;
 *   - the children make one batch, evaluated in parallel.
 * The first generation is `population` uniform random points.
 *
 * The operators: simulated binary crossover (SBX; Deb and Agrawal, Complex Systems 9, 1995) and
 * polynomial mutation (Deb and Goyal, 1996), both in their bounded forms.  Why these rather than
 * BLX-alpha crossover and Gaussian mutation:
 *   - they are self-adaptive: SBX spreads the children around the parents in proportion to the
 *     parents' distance, so the search is wide while the population is diverse and fine once it
 *     has converged, with no step-size schedule to tune per workload (Gaussian mutation needs a
 *     sigma, and one sigma cannot be right both early and late);
 *   - their bounded forms draw children inside [0, 1] from a distribution that shrinks towards
 *     the nearer bound, so nothing is clamped: clamping would pile children on the walls of the
 *     knob space, and BLX-alpha's extended interval leaves the cube often near the walls, where
 *     the tuner's optima frequently lie (a knob at the end of its range);
 *   - SBX keeps each child near one parent (it mimics single-point binary crossover's spread),
 *     which suits a response like the scheduler's, whose good region is narrow in some knobs.
 * Each gene is crossed with probability 1/2 when a pair is crossed (otherwise the children keep
 * the parents' genes), as in Deb's formulation; the distribution indices eta_c = 15 and
 * eta_m = 20 are the customary values (larger: children nearer their parents).
 *
 * Cost: population + (generations - 1) (population - elite) evaluations.
 */
#include "tuner/optim/optimizer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
	size_t dim, population, generations, elite, tournament, generation;
	double crossover, mutation, eta_c, eta_m;
	double *x;	/* population * dim: the current population */
	double *y;	/* population: its values */
	size_t *rank;	/* population: indices in increasing order of value */
	double *next_x; /* population * dim: scratch for the next population */
	double *next_y;
} ga_state;

static bool ga_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	const char *bad = NULL;

	if (p->ga.population < 2)
		bad = "population must be at least 2";
	else if (p->ga.population > SIZE_MAX / sizeof(double) / dim / 2)
		bad = "population * dimension is too large";
	else if (p->ga.generations == 0)
		bad = "generations must be at least 1";
	else if (p->ga.elite >= p->ga.population)
		bad = "elite must be smaller than the population";
	else if (p->ga.tournament == 0 || p->ga.tournament > p->ga.population)
		bad = "tournament must be in 1..population";
	else if (!(p->ga.crossover >= 0.0 && p->ga.crossover <= 1.0))
		bad = "crossover must be a probability in [0, 1]";
	else if (!(p->ga.mutation >= 0.0 && p->ga.mutation <= 1.0))
		bad = "mutation must be a probability in [0, 1] (0: 1/dimension)";
	else if (!(p->ga.eta_c >= 0.0 && p->ga.eta_c <= 1000.0) ||
		 !(p->ga.eta_m >= 0.0 && p->ga.eta_m <= 1000.0))
		bad = "eta_c and eta_m must be in [0, 1000]";
	if (bad != NULL) {
		g_set_error(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			    "ga: %s (population %zu, generations %zu, elite %zu, tournament %zu, "
			    "crossover %g, mutation %g, eta_c %g, eta_m %g)",
			    bad, p->ga.population, p->ga.generations, p->ga.elite, p->ga.tournament,
			    p->ga.crossover, p->ga.mutation, p->ga.eta_c, p->ga.eta_m);
		return false;
	}
	return true;
}

static void ga_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	ga_state *s = vstate;

	(void)r;
	s->dim = dim;
	s->population = p->ga.population;
	s->generations = p->ga.generations;
	s->elite = p->ga.elite;
	s->tournament = p->ga.tournament;
	s->crossover = p->ga.crossover;
	s->mutation = p->ga.mutation > 0.0 ? p->ga.mutation : 1.0 / (double)dim;
	s->eta_c = p->ga.eta_c;
	s->eta_m = p->ga.eta_m;
	s->generation = 0;
	s->x = g_new0(double, s->population *dim);
	s->y = g_new(double, s->population);
	s->rank = g_new(size_t, s->population);
	s->next_x = g_new0(double, s->population *dim);
	s->next_y = g_new(double, s->population);
}

static size_t ga_batch_max(const void *vstate)
{
	const ga_state *s = vstate;

	return s->population;
}

/* ---- operators ------------------------------------------------------------------------- */

/* The spread factor of bounded SBX for a uniform u, given alpha = 2 - beta^-(eta + 1). */
static double sbx_betaq(double u, double alpha, double eta)
{
	double e = 1.0 / (eta + 1.0);

	return u <= 1.0 / alpha ? pow(u * alpha, e) : pow(1.0 / (2.0 - u * alpha), e);
}

/* Bounded SBX on one gene of two parents a, b in [0, 1]: children in *c1, *c2. */
static void sbx_gene(double a, double b, double eta, gsl_rng *r, double *c1, double *c2)
{
	double lo = fmin(a, b), hi = fmax(a, b), span = hi - lo;

	if (span < 1e-14) {
		*c1 = a;
		*c2 = b;
		return;
	}

	double u = gsl_rng_uniform(r);
	/* beta: how far the nearer bound is, in half-spans; it limits the spread on that side. */
	double beta_lo = 1.0 + 2.0 * lo / span, beta_hi = 1.0 + 2.0 * (1.0 - hi) / span;
	double q_lo = sbx_betaq(u, 2.0 - pow(beta_lo, -(eta + 1.0)), eta);
	double q_hi = sbx_betaq(u, 2.0 - pow(beta_hi, -(eta + 1.0)), eta);
	double k1 = fmin(fmax(0.5 * (lo + hi - q_lo * span), 0.0), 1.0);
	double k2 = fmin(fmax(0.5 * (lo + hi + q_hi * span), 0.0), 1.0);

	if (gsl_rng_uniform(r) < 0.5) {
		*c1 = k1;
		*c2 = k2;
	} else {
		*c1 = k2;
		*c2 = k1;
	}
}

/* Bounded polynomial mutation of one gene in [0, 1]. */
static double mutate_gene(double v, double eta, gsl_rng *r)
{
	double u = gsl_rng_uniform(r), e = 1.0 / (eta + 1.0), dq;

	if (u < 0.5) {
		double t = 2.0 * u + (1.0 - 2.0 * u) * pow(1.0 - v, eta + 1.0);

		dq = pow(t, e) - 1.0;
	} else {
		double t = 2.0 * (1.0 - u) + 2.0 * (u - 0.5) * pow(v, eta + 1.0);

		dq = 1.0 - pow(t, e);
	}
	return fmin(fmax(v + dq, 0.0), 1.0);
}

/* The winner of a tournament: the best-ranked of `tournament` uniform draws. */
static size_t select_parent(const ga_state *s, gsl_rng *r)
{
	size_t best = s->population;

	for (size_t k = 0; k < s->tournament; k++) {
		size_t pos = gsl_rng_uniform_int(r, s->population); /* a position in the ranking */

		best = MIN(best, pos);
	}
	return s->rank[best];
}

/* Mutates a child; if neither crossover nor mutation changed it, one random gene. */
static void mutate_child(const ga_state *s, double *c, const double *parent, bool crossed,
			 gsl_rng *r)
{
	bool changed = crossed && memcmp(c, parent, s->dim * sizeof(double)) != 0;

	for (size_t d = 0; d < s->dim; d++) {
		if (gsl_rng_uniform(r) < s->mutation) {
			double v = mutate_gene(c[d], s->eta_m, r);

			changed |= v != c[d];
			c[d] = v;
		}
	}
	if (!changed) {
		size_t d = gsl_rng_uniform_int(r, s->dim);

		c[d] = mutate_gene(c[d], s->eta_m, r);
	}
}

/* Writes n children to out. */
static void breed(const ga_state *s, size_t n, double *out, gsl_rng *r)
{
	const size_t dim = s->dim;
	double c1[dim], c2[dim];

	for (size_t made = 0; made < n; made += 2) {
		const double *p1 = s->x + select_parent(s, r) * dim;
		const double *p2 = s->x + select_parent(s, r) * dim;
		bool crossed = gsl_rng_uniform(r) < s->crossover;

		memcpy(c1, p1, sizeof c1);
		memcpy(c2, p2, sizeof c2);
		if (crossed)
			for (size_t d = 0; d < dim; d++)
				if (gsl_rng_uniform(r) < 0.5)
					sbx_gene(p1[d], p2[d], s->eta_c, r, &c1[d], &c2[d]);
		mutate_child(s, c1, p1, crossed, r);
		mutate_child(s, c2, p2, crossed, r);
		memcpy(out + made * dim, c1, sizeof c1);
		if (made + 1 < n)
			memcpy(out + (made + 1) * dim, c2, sizeof c2);
	}
}

/* ---- the generation cycle ---------------------------------------------------------------- */

static void rank_population(ga_state *s)
{
	/* Insertion sort: stable, and populations are small. */
	for (size_t i = 0; i < s->population; i++) {
		size_t j = i;

		while (j > 0 && s->y[i] < s->y[s->rank[j - 1]]) {
			s->rank[j] = s->rank[j - 1];
			j--;
		}
		s->rank[j] = i;
	}
}

static size_t ga_propose(void *vstate, double *x, gsl_rng *r)
{
	ga_state *s = vstate;

	if (s->generation >= s->generations)
		return 0;
	if (s->generation == 0) {
		for (size_t i = 0; i < s->population * s->dim; i++)
			x[i] = gsl_rng_uniform(r);
		return s->population;
	}
	breed(s, s->population - s->elite, x, r);
	return s->population - s->elite;
}

static void ga_update(void *vstate, const double *x, const double *y, size_t n)
{
	ga_state *s = vstate;
	const size_t dim = s->dim;

	if (s->generation == 0) {
		/* A population cut short by the budget is the last generation anyway. */
		memcpy(s->x, x, n * dim * sizeof(double));
		memcpy(s->y, y, n * sizeof(double));
		for (size_t i = n; i < s->population; i++)
			s->y[i] = INFINITY;
	} else {
		for (size_t e = 0; e < s->elite; e++) {
			memcpy(s->next_x + e * dim, s->x + s->rank[e] * dim, dim * sizeof(double));
			s->next_y[e] = s->y[s->rank[e]];
		}
		memcpy(s->next_x + s->elite * dim, x, n * dim * sizeof(double));
		memcpy(s->next_y + s->elite, y, n * sizeof(double));
		for (size_t i = s->elite + n; i < s->population; i++)
			s->next_y[i] = INFINITY;
		memcpy(s->x, s->next_x, s->population * dim * sizeof(double));
		memcpy(s->y, s->next_y, s->population * sizeof(double));
	}
	rank_population(s);
	s->generation++;
}

static bool ga_done(const void *vstate)
{
	const ga_state *s = vstate;

	return s->generation >= s->generations;
}

static void ga_release(void *vstate)
{
	ga_state *s = vstate;

	g_free(s->x);
	g_free(s->y);
	g_free(s->rank);
	g_free(s->next_x);
	g_free(s->next_y);
}

static const tuner_optimizer_type ga_type = {
	.name = "ga",
	.size = sizeof(ga_state),
	.check = ga_check,
	.init = ga_init,
	.batch_max = ga_batch_max,
	.propose = ga_propose,
	.update = ga_update,
	.done = ga_done,
	.release = ga_release,
};

const tuner_optimizer_type *const tuner_optimizer_ga = &ga_type;
