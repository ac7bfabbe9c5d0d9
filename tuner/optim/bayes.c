/*
 * tuner/optim/bayes.c - Bayesian optimisation: the optimizer for expensive, noisy objectives
 * (a real kernel's benchmark costs seconds to minutes; a simulation milliseconds).
 *
 * 1. The first batch is a Latin hypercube of `initial` points (2 dim + 1 by default): each
 *    dimension cut into as many equal strata, one point per stratum, at a uniform position
 *    inside it.  Of 20 such designs the one whose closest pair is farthest apart (maximin) is
 *    used, so that no two start points waste evaluations next to each other.
 * 2. After every batch a Gaussian process (gp.h: Matérn 5/2, one length scale per dimension, a
 *    noise term, hyper-parameters by maximum marginal likelihood with `restarts` random restarts)
 *    is fitted to every value so far.  Values of +INFINITY (failed evaluations) are given to the
 *    model as the worst finite value: a region that fails is then merely unattractive.
 * 3. The next point maximises the expected improvement for noisy observations.  With noisy
 *    values "the best value so far" is itself noisy and biased low (the minimum of noisy
 *    numbers), so the incumbent comes from the model, not from the values: this is the augmented
 *    expected improvement of Huang, Allen, Notz and Zeng (J. Global Optim. 34, 2006).  With the
 *    latent posterior mean mu(x), its standard deviation s(x) and the noise sd sn, the incumbent
 *    is T = mu(x*) at the "effective best" evaluated point x*, the one with the lowest mu + s
 *    (a point that only looks good because little is known about it does not set the bar), and
 *
 *        AEI(x) = [(T - mu) Phi(z) + s phi(z)] (1 - sn / sqrt(s^2 + sn^2)),   z = (T - mu) / s.
 *
 *    The first factor is EI on the posterior mean's best; the second goes to 0 where the model
 *    is already as sure as the noise allows, so that a model which explains jumps in the
 *    response as noise does not spend evaluation after evaluation re-measuring its incumbent
 *    (plain EI did that on the tuner's hackbench, on the plateaus at the faces of the cube).
 *    It is maximised in log form (EI underflows to 0 far from the data, which would leave a
 *    local search nothing to climb) by multi-start local search: `candidates` uniform random
 *    points, the `starts` best of them plus the model's predicted optimum as starting points of
 *    Nelder-Mead (GSL's nmsimplex2) on the cube, the best result wins.
 * 4. A batch of q > 1 points is filled one point at a time: the chosen point is added to the
 *    model as if evaluated (kriging believer: at the model's mean; constant liar: at the best
 *    value so far, optimizer.h), which removes its uncertainty and so its EI, and the next point
 *    is chosen on that model.  The fantasies are dropped once the batch is complete.
 * 5. After every update the model's predicted optimum (the minimum of its mean over the cube,
 *    by the same multi-start search) is kept for tuner_optimizer_model_optimum: where the model
 *    believes the minimum is, and how sure it is.
 *
 * The search ends when the budget is spent (required, as for random search).  All randomness
 * comes from the driver's generator (design, candidates) and from one of its own, seeded from
 * the driver's at set (hyper-parameter restarts happen in update, which gets no generator), so
 * a run is reproducible from its seed.
 */
#include "tuner/optim/gp.h"
#include "tuner/optim/optimizer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_randist.h>

#define LHS_TRIES      20
#define PRED_STARTS    3 /* evaluated points (lowest mean) the predicted-optimum search starts at */
#define NM_ITER	       150
#define NM_STEP	       0.05
#define NM_SIZE	       1e-5
#define LOG_EI_FLOOR   (-1e6) /* what log EI is when there is no hope of improvement */
#define OUTSIDE_WEIGHT 1e4    /* penalty per squared unit outside the cube */

typedef struct {
	size_t dim, initial, batch, restarts, starts, candidates;
	tuner_bayes_batch_rule rule;
	gsl_rng *rng; /* for the hyper-parameter restarts */
	tuner_gp *gp;
	GArray *x, *y; /* every evaluated point and its value */
	bool started;
	bool have_model;
	double *opt_x; /* the model's predicted optimum */
	double opt_mean, opt_sd;
	double incumbent; /* T: the model's mean at the effective best point */
	double *cand;	  /* candidates * dim scratch */
	double *cand_val; /* candidates */
} bayes_state;

static size_t initial_points(size_t dim, const tuner_optimizer_params *p)
{
	return p->bayes.initial ? p->bayes.initial : 2 * dim + 1;
}

static bool bayes_check(size_t dim, const tuner_optimizer_params *p, GError **error)
{
	const char *bad = NULL;

	if (p->budget == 0)
		bad = "needs a budget (maximum evaluations) above 0";
	else if (p->bayes.batch == 0)
		bad = "batch must be at least 1";
	else if (p->bayes.starts == 0 || p->bayes.candidates < p->bayes.starts)
		bad = "needs at least one start and as many candidates as starts";
	else if (p->bayes.rule != TUNER_BAYES_BELIEVER && p->bayes.rule != TUNER_BAYES_LIAR)
		bad = "rule must be believer or liar";
	else if (initial_points(dim, p) > 100000 || p->bayes.batch > 100000 ||
		 p->bayes.candidates > 10000000 || p->bayes.restarts > 1000 ||
		 p->bayes.starts > 1000)
		bad = "initial, batch, candidates, restarts or starts is too large";
	if (bad != NULL) {
		g_set_error(
			error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS,
			"bayes: %s (budget %zu, initial %zu, batch %zu, starts %zu, candidates %zu)",
			bad, p->budget, initial_points(dim, p), p->bayes.batch, p->bayes.starts,
			p->bayes.candidates);
		return false;
	}
	return true;
}

static void bayes_init(void *vstate, size_t dim, const tuner_optimizer_params *p, gsl_rng *r)
{
	bayes_state *s = vstate;

	s->dim = dim;
	s->initial = initial_points(dim, p);
	s->batch = p->bayes.batch;
	s->restarts = p->bayes.restarts;
	s->starts = p->bayes.starts;
	s->candidates = p->bayes.candidates;
	s->rule = p->bayes.rule;
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(s->rng, gsl_rng_get(r));
	s->gp = tuner_gp_alloc(dim);
	s->x = g_array_new(FALSE, FALSE, sizeof(double));
	s->y = g_array_new(FALSE, FALSE, sizeof(double));
	s->opt_x = g_new(double, dim);
	s->cand = g_new(double, s->candidates *dim);
	s->cand_val = g_new(double, s->candidates);
}

static size_t bayes_batch_max(const void *vstate)
{
	const bayes_state *s = vstate;

	return MAX(s->initial, s->batch);
}

/* ---- the initial design ------------------------------------------------------------------ */

static void latin_hypercube(size_t n, size_t dim, gsl_rng *r, double *x)
{
	size_t perm[n];

	for (size_t d = 0; d < dim; d++) {
		for (size_t i = 0; i < n; i++)
			perm[i] = i;
		gsl_ran_shuffle(r, perm, n, sizeof(size_t));
		for (size_t i = 0; i < n; i++)
			x[i * dim + d] = ((double)perm[i] + gsl_rng_uniform(r)) / (double)n;
	}
}

static double closest_pair(const double *x, size_t n, size_t dim)
{
	double best = INFINITY;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++) {
			double d2 = 0.0;

			for (size_t d = 0; d < dim; d++)
				d2 += (x[i * dim + d] - x[j * dim + d]) *
				      (x[i * dim + d] - x[j * dim + d]);
			best = fmin(best, d2);
		}
	}
	return best;
}

static void maximin_design(size_t n, size_t dim, gsl_rng *r, double *x)
{
	double *trial = g_new(double, n *dim), best = -1.0;

	for (int t = 0; t < LHS_TRIES; t++) {
		latin_hypercube(n, dim, r, trial);

		double d = closest_pair(trial, n, dim);

		if (d > best) {
			best = d;
			memcpy(x, trial, n * dim * sizeof(double));
		}
	}
	g_free(trial);
}

/* ---- local search on the cube ------------------------------------------------------------ */

/* A function of a point of the cube, to minimise. */
typedef double (*cube_fn)(bayes_state *s, const double *x);

typedef struct {
	bayes_state *s;
	cube_fn f;
	double *x; /* scratch: the projection onto the cube */
} cube_ctx;

/* f at the nearest point of the cube, plus a penalty for the distance to it, so that the
 * simplex may step outside but is pulled back, and a minimum on a face is found exactly. */
static double projected(const gsl_vector *u, void *vc)
{
	cube_ctx *c = vc;
	double out = 0.0;

	for (size_t d = 0; d < u->size; d++) {
		double v = gsl_vector_get(u, d);

		c->x[d] = fmin(fmax(v, 0.0), 1.0);
		out += (v - c->x[d]) * (v - c->x[d]);
	}
	return c->f(c->s, c->x) + OUTSIDE_WEIGHT * out;
}

/* Nelder-Mead from start; writes the best point found (inside the cube) to x, returns f there. */
static double local_search(bayes_state *s, cube_fn f, const double *start, double *x)
{
	const size_t dim = s->dim;
	double px[dim];
	cube_ctx c = { .s = s, .f = f, .x = px };
	gsl_multimin_function fn = { .f = projected, .n = dim, .params = &c };
	gsl_multimin_fminimizer *m =
		gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, dim);
	gsl_vector *u = gsl_vector_alloc(dim), *step = gsl_vector_alloc(dim);

	for (size_t d = 0; d < dim; d++)
		gsl_vector_set(u, d, start[d]);
	gsl_vector_set_all(step, NM_STEP);
	gsl_multimin_fminimizer_set(m, &fn, u, step);
	for (int it = 0; it < NM_ITER; it++) {
		if (gsl_multimin_fminimizer_iterate(m) != GSL_SUCCESS)
			break;
		if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), NM_SIZE) == GSL_SUCCESS)
			break;
	}

	const gsl_vector *best = gsl_multimin_fminimizer_x(m);

	for (size_t d = 0; d < dim; d++)
		x[d] = fmin(fmax(gsl_vector_get(best, d), 0.0), 1.0);

	double v = f(s, x);

	gsl_vector_free(step);
	gsl_vector_free(u);
	gsl_multimin_fminimizer_free(m);
	return v;
}

/* Indices of the k smallest of v[0..n) in increasing order of value (ties: lower index). */
static size_t smallest(const double *v, size_t n, size_t k, size_t *idx)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m == k && !(v[i] < v[idx[m - 1]]))
			continue;

		size_t j = m < k ? m++ : m - 1;

		while (j > 0 && v[i] < v[idx[j - 1]]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	return m;
}

/*
 * Minimises f over the cube: from the `starts` best of `candidates` uniform points (drawn from
 * r) and from the extra starts given (n_extra points), keeps the best.
 */
static double multistart(bayes_state *s, cube_fn f, gsl_rng *r, const double *extra, size_t n_extra,
			 double *x)
{
	const size_t dim = s->dim;
	size_t idx[s->starts];
	double cand_x[dim], best = INFINITY;

	for (size_t i = 0; i < s->candidates * dim; i++)
		s->cand[i] = gsl_rng_uniform(r);
	for (size_t i = 0; i < s->candidates; i++)
		s->cand_val[i] = f(s, s->cand + i * dim);

	size_t k = smallest(s->cand_val, s->candidates, s->starts, idx);

	for (size_t i = 0; i < k + n_extra; i++) {
		const double *start = i < k ? s->cand + idx[i] * dim : extra + (i - k) * dim;
		double v = local_search(s, f, start, cand_x);

		if (v < best) {
			best = v;
			memcpy(x, cand_x, sizeof cand_x);
		}
	}
	return best;
}

/* ---- the acquisition and the model's optimum --------------------------------------------- */

/* ln((T - mu) Phi(z) + s phi(z)), z = (T - mu) / s, finite everywhere. */
static double log_expected_improvement(double incumbent, double mu, double sd)
{
	double gain = incumbent - mu;

	if (!(sd > 1e-300))
		return gain > 0.0 ? log(gain) : LOG_EI_FLOOR + fmax(gain, -1e6);

	double z = gain / sd, log_h;

	if (z > -35.0) {
		/* Direct: below -35 phi(z) and Phi(z) underflow; above it their difference
		 * cancels to a relative error of about z^2 * DBL_EPSILON at most, 3e-13. */
		double h = z * gsl_cdf_ugaussian_P(z) + gsl_ran_ugaussian_pdf(z);

		if (!(h > 0.0))
			return LOG_EI_FLOOR;
		log_h = log(h);
	} else {
		/* Mills-ratio asymptotics: h(z) = phi(z) / z^2 (1 - 3/z^2 + 15/z^4 - 105/z^6 ...),
		 * whose first omitted term is below 1e-12 for |z| >= 35. */
		double t2 = z * z;

		log_h = -0.5 * t2 - 0.5 * log(2.0 * M_PI) - log(t2) +
			log1p(-3.0 / t2 + 15.0 / (t2 * t2) - 105.0 / (t2 * t2 * t2));
	}
	return fmax(log(sd) + log_h, LOG_EI_FLOOR);
}

static double neg_log_ei(bayes_state *s, const double *x)
{
	double mu, sd, noise = tuner_gp_noise_sd(s->gp);

	tuner_gp_predict(s->gp, x, &mu, &sd);

	/* Augmented EI's factor: 1 - sn / sqrt(s^2 + sn^2), near 0 where the model is already as
	 * sure as the noise lets it be, so a noisy model does not keep re-evaluating its incumbent. */
	double spread = sqrt(sd * sd + noise * noise);
	double factor = spread > 0.0 ? 1.0 - noise / spread : 1.0;
	double log_factor = factor > 0.0 ? log(factor) : LOG_EI_FLOOR;

	return -fmax(log_expected_improvement(s->incumbent, mu, sd) + log_factor, LOG_EI_FLOOR);
}

static double posterior_mean(bayes_state *s, const double *x)
{
	double mu, sd;

	tuner_gp_predict(s->gp, x, &mu, &sd);
	return mu;
}

/*
 * T: the model's mean at the "effective best" point, the one of the n points x that minimises
 * mean + sd (Huang et al.): a point that looks good only because the model knows little about it
 * does not set the bar.
 */
static double effective_best(bayes_state *s, size_t n, const double *x)
{
	double best = INFINITY, t = INFINITY;

	for (size_t i = 0; i < n; i++) {
		double mu, sd;

		tuner_gp_predict(s->gp, x + i * s->dim, &mu, &sd);
		if (mu + sd < best) {
			best = mu + sd;
			t = mu;
		}
	}
	return t;
}

/* The model's optimum: multi-start from the evaluated points with the lowest means and from
 * the best random candidates. */
static void find_model_optimum(bayes_state *s)
{
	const size_t n = s->x->len / s->dim, dim = s->dim;
	const double *x = (const double *)s->x->data;
	g_autofree double *means = g_new(double, n);
	size_t idx[PRED_STARTS];
	double extra[PRED_STARTS * dim], sd;

	for (size_t i = 0; i < n; i++)
		means[i] = posterior_mean(s, x + i * dim);

	size_t k = smallest(means, n, PRED_STARTS, idx);

	for (size_t i = 0; i < k; i++)
		memcpy(extra + i * dim, x + idx[i] * dim, dim * sizeof(double));
	multistart(s, posterior_mean, s->rng, extra, k, s->opt_x);
	tuner_gp_predict(s->gp, s->opt_x, &s->opt_mean, &sd);
	s->opt_sd = sd;
}

/* ---- propose and update ------------------------------------------------------------------ */

static size_t bayes_propose(void *vstate, double *x, gsl_rng *r)
{
	bayes_state *s = vstate;
	const size_t dim = s->dim;

	if (!s->started) {
		s->started = true;
		maximin_design(s->initial, dim, r, x);
		return s->initial;
	}
	if (!s->have_model) {
		/* Every value so far failed: nothing to model, keep exploring. */
		for (size_t i = 0; i < s->batch * dim; i++)
			x[i] = gsl_rng_uniform(r);
		return s->batch;
	}

	const size_t n = tuner_gp_size(s->gp);
	double liar = INFINITY;

	for (size_t i = 0; i < s->y->len; i++)
		liar = fmin(liar, g_array_index(s->y, double, i));
	for (size_t j = 0; j < s->batch; j++) {
		double *xj = x + j * dim;

		/* The evaluated points and the batch's fantasies so far. */
		s->incumbent = effective_best(s, n, (const double *)s->x->data);
		if (j > 0)
			s->incumbent = fmin(s->incumbent, effective_best(s, j, x));
		multistart(s, neg_log_ei, r, s->opt_x, 1, xj);
		if (j + 1 < s->batch)
			tuner_gp_add(s->gp, xj,
				     s->rule == TUNER_BAYES_LIAR ? liar : posterior_mean(s, xj));
	}
	tuner_gp_truncate(s->gp, n);
	return s->batch;
}

static void bayes_update(void *vstate, const double *x, const double *y, size_t n)
{
	bayes_state *s = vstate;

	g_array_append_vals(s->x, x, n * s->dim);
	g_array_append_vals(s->y, y, n);

	const size_t total = s->y->len;
	g_autofree double *yf = g_new(double, total);
	double worst = -INFINITY;

	for (size_t i = 0; i < total; i++)
		if (isfinite(g_array_index(s->y, double, i)))
			worst = fmax(worst, g_array_index(s->y, double, i));
	if (!isfinite(worst)) {
		s->have_model = false;
		return;
	}
	for (size_t i = 0; i < total; i++) {
		double v = g_array_index(s->y, double, i);

		yf[i] = isfinite(v) ? v : worst;
	}
	tuner_gp_set_data(s->gp, (const double *)s->x->data, yf, total);
	tuner_gp_fit(s->gp, s->rng, s->restarts);
	s->have_model = true;
	find_model_optimum(s);
}

static bool bayes_done(const void *vstate)
{
	(void)vstate;
	return false; /* the driver's budget ends the search */
}

static bool bayes_model_optimum(const void *vstate, double *x, double *mean, double *sd)
{
	const bayes_state *s = vstate;

	if (!s->have_model)
		return false;
	memcpy(x, s->opt_x, s->dim * sizeof(double));
	*mean = s->opt_mean;
	*sd = s->opt_sd;
	return true;
}

static void bayes_release(void *vstate)
{
	bayes_state *s = vstate;

	gsl_rng_free(s->rng);
	tuner_gp_free(s->gp);
	g_array_unref(s->x);
	g_array_unref(s->y);
	g_free(s->opt_x);
	g_free(s->cand);
	g_free(s->cand_val);
}

static const tuner_optimizer_type bayes_type = {
	.name = "bayes",
	.size = sizeof(bayes_state),
	.check = bayes_check,
	.init = bayes_init,
	.batch_max = bayes_batch_max,
	.propose = bayes_propose,
	.update = bayes_update,
	.done = bayes_done,
	.release = bayes_release,
	.model_optimum = bayes_model_optimum,
};

const tuner_optimizer_type *const tuner_optimizer_bayes = &bayes_type;
