/*
 * match_time.h - the scale of a simulated machine's message costs at which the simulation takes
 * the real time (`tuner calibrate --match-time`).
 *
 * A calibration maps simulated time to real time by a line, so a simulated machine that is 1.5x
 * too fast still fits. Its scheduling does not: the kernel's own time constants (the slice, the
 * tick, PELT's half-life, migration_cost) then sit at the wrong place against the workload's, and a
 * run makes a different number of switches. Matching the time first removes that: the costs of one
 * message (the channel's write, read and blocked read) are scaled by one factor f until the
 * least-squares line through the origin, real_ms = s * sim_ms over the group counts' medians, has
 * s = 1. The messages take most of a hackbench run's CPU time, so s falls as f grows; f is found by
 * Brent's method (GSL) on ln s(f), bracketed in [MATCH_TIME_LO, MATCH_TIME_HI].
 */
#ifndef TUNER_CALIB_MATCH_TIME_H
#define TUNER_CALIB_MATCH_TIME_H

#include <glib.h>

G_BEGIN_DECLS

#define MATCH_TIME_LO  0.125
#define MATCH_TIME_HI  8.0
/* Solved when the bracket is this narrow, relative to f (0.5 %: within a run's own noise). */
#define MATCH_TIME_TOL 0.005

/* The simulated runtimes in ms of the n points, message costs scaled by factor, into sim_ms. */
typedef void (*MatchTimeSim)(double factor, double *sim_ms, void *ctx);

typedef struct {
	double factor;	   /* the costs' scale that matches */
	double slope;	   /* real = slope * simulated at that factor (1 within the tolerance) */
	double slope_at_1; /* the same at the machine's own costs */
	guint evaluations; /* simulations of all n points */
} MatchTime;

/* s: the least-squares slope of real_ms on sim_ms through the origin. */
double match_time_slope(const double *real_ms, const double *sim_ms, guint n);

/*
 * Finds the factor for the n real medians (ms, > 0), calling sim for each trial. FALSE with an
 * error when no factor in the bracket matches (the simulation is more than 8x off).
 */
gboolean match_time(const double *real_ms, guint n, MatchTimeSim sim, void *ctx, MatchTime *out,
		    GError **error);

G_END_DECLS

#endif
