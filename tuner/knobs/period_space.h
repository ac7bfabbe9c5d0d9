/*
 * period_space.h - the one-dimensional search space of Golden Section on SchedPeriod (SPEC.md §5):
 * a unit coordinate u in [0, 1] -> SchedPeriod in a bracket [lo, hi] ns (log or linear scale) ->
 * the three knobs derived by discovery rule 1 or 2 (discovery.h) for the workload's task
 * count, rounded to whole ns.
 *
 * The default bracket is the rule's natural one (tuner_discovery_bracket): outside it the derived
 * knobs stop changing, so searching there is wasted.  The default scale is log: the bracket spans
 * four orders of magnitude (rule 1, N = 200: 20 ms .. 201 s), and on a linear scale nine tenths
 * of it would be periods above 20 s.
 *
 * Knobs a rule derives outside their sysctl range are clamped; period_space_to_knobs reports
 * which (TUNER_DISCOVERY_CLAMPED_* bits) so that the tuner can say so.
 *
 * A plain value the caller owns; pure functions.
 */
#ifndef TUNER_PERIOD_SPACE_H
#define TUNER_PERIOD_SPACE_H

#include <stdbool.h>

#include <glib.h>

#include "tuner/knobs/knobs.h"

struct period_space {
	int rule;	     /* TUNER_DISCOVERY_RULE_MANY_TASKS (1) or _FEW_TASKS (2) */
	unsigned int ntasks; /* N >= 1: tasks in the workload */
	double lo_ns, hi_ns; /* the SchedPeriod bracket, 0 < lo < hi */
	bool log;
};

/* The rule's natural bracket on a log scale; false with a one-line error naming --rule when the
 * rule is not 1 or 2 (or ntasks is 0). */
bool period_space_init(struct period_space *s, int rule, unsigned int ntasks, GError **error);

/* --bracket LO:HI in ns, 0 < LO < HI <= 1e15 (about 11 days); the message names --bracket. */
bool period_space_parse_bracket(struct period_space *s, const char *text, GError **error);

/* The SchedPeriod of unit coordinate u (clamped to [0, 1]). */
double period_space_period(const struct period_space *s, double u);

/* The unit coordinate of a SchedPeriod (clamped to [0, 1]). */
double period_space_unit(const struct period_space *s, double period_ns);

/* The knobs of unit coordinate u, in whole ns; *clamped (may be NULL) gets the rule's
 * TUNER_DISCOVERY_CLAMPED_* bits. */
void period_space_to_knobs(const struct period_space *s, double u, Knobs *out,
			   unsigned int *clamped);

/* A TuneMapFn (tuner/eval/tune_loop.h): ctx is a const struct period_space *, unit has one
 * coordinate. */
void period_space_map(const double *unit, Knobs *knobs, void *ctx);

/* "sched_period=LO:HI:log rule=1 ntasks=200", for journals and reports. */
char *period_space_describe(const struct period_space *s);

/* The names of the knobs in a clamped mask, e.g. "min_granularity"; "" when none.  Free it. */
char *period_space_clamped_names(unsigned int clamped, const char *separator);

#endif
