/*
 * match_time.c - the message-cost scale at which the simulation takes the real time (see
 * match_time.h).
 */
#include "tuner/calib/match_time.h"

#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_roots.h>

#define MATCH_TIME_MAX_ITER 40

double match_time_slope(const double *real_ms, const double *sim_ms, guint n)
{
	double s, cov, sumsq;

	return gsl_fit_mul(sim_ms, 1, real_ms, 1, n, &s, &cov, &sumsq) == GSL_SUCCESS ? s : NAN;
}

/* The trials so far: Brent's set evaluates the bracket's ends again, which a trial costs. */
#define MATCH_TIME_MEMO 4

typedef struct {
	const double *real_ms;
	guint n;
	MatchTimeSim sim;
	void *ctx;
	double *sim_ms;
	guint evaluations;
	double memo_f[MATCH_TIME_MEMO], memo_h[MATCH_TIME_MEMO];
} Trial;

/*
 * ln s(f): positive while the simulation is too fast, so the root is where it takes the time.
 * Finite for real and simulated times above zero, which the bracket's ends are checked for.
 */
static double log_slope(double factor, void *p)
{
	Trial *t = p;

	for (guint i = 0; i < MATCH_TIME_MEMO && i < t->evaluations; i++)
		if (t->memo_f[i] == factor)
			return t->memo_h[i];
	t->sim(factor, t->sim_ms, t->ctx);

	double s = match_time_slope(t->real_ms, t->sim_ms, t->n);
	double h = s > 0 ? log(s) : GSL_NAN;
	guint slot = t->evaluations++ % MATCH_TIME_MEMO;

	t->memo_f[slot] = factor;
	t->memo_h[slot] = h;
	return h;
}

gboolean match_time(const double *real_ms, guint n, MatchTimeSim sim, void *ctx, MatchTime *out,
		    GError **error)
{
	g_autofree double *sim_ms = g_new(double, n);
	Trial t = { .real_ms = real_ms, .n = n, .sim = sim, .ctx = ctx, .sim_ms = sim_ms };
	gsl_function fn = { log_slope, &t };
	double at_1 = log_slope(1.0, &t);
	double lo = MATCH_TIME_LO, hi = MATCH_TIME_HI;
	double h_lo = log_slope(lo, &t), h_hi = log_slope(hi, &t);

	if (!isfinite(at_1) || !isfinite(h_lo) || !isfinite(h_hi) || h_lo < 0 || h_hi > 0) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--match-time: no message-cost scale in [%g, %g] makes the simulation "
			    "take the real time (real/simulated %.3g at %g, %.3g at %g)",
			    lo, hi, exp(h_lo), lo, exp(h_hi), hi);
		return FALSE;
	}

	gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	double f = 1.0;
	int status = GSL_CONTINUE;

	gsl_root_fsolver_set(s, &fn, lo, hi);
	for (guint iter = 0; status == GSL_CONTINUE && iter < MATCH_TIME_MAX_ITER; iter++) {
		if ((status = gsl_root_fsolver_iterate(s)) != GSL_SUCCESS)
			break;
		f = gsl_root_fsolver_root(s);
		status = gsl_root_test_interval(gsl_root_fsolver_x_lower(s),
						gsl_root_fsolver_x_upper(s), 0, MATCH_TIME_TOL);
	}
	gsl_root_fsolver_free(s);
	if (status != GSL_SUCCESS) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
			    "--match-time: Brent's method stopped at a scale of %g: %s", f,
			    gsl_strerror(status));
		return FALSE;
	}

	/* The answer's own slope, simulated at f once more: what the report states. */
	double h = log_slope(f, &t);

	*out = (MatchTime){
		.factor = f, .slope = exp(h), .slope_at_1 = exp(at_1), .evaluations = t.evaluations
	};
	return TRUE;
}
