/*
 * knob_space.h - the search space of a knob set (knobs.h), and its map to the unit cube the
 * optimizers work in.
 *
 * Each knob of the set has a range (by default the kernel's: latency and min_granularity
 * [100 000, 1 000 000 000] ns, wakeup_granularity and migration_cost [0, 1 000 000 000] ns,
 * base_slice [0, 2^32 - 1] ns) searched on a linear or a log scale, or is fixed at a value. Only
 * the free knobs are dimensions of the cube, in enum knob order. On a log scale a range that
 * starts at 0 is mapped through ln(v + 1 us), so that 0 stays reachable.
 *
 * Knobs outside the set are no part of the space: to_knobs leaves them 0, describe omits them, and
 * --range/--fix/--log/--linear on one of them is refused (a --fix adds the knob to the set when
 * the caller asks, see knob_space_parse_fix).
 */
#ifndef TUNER_KNOB_SPACE_H
#define TUNER_KNOB_SPACE_H

#include <stdbool.h>

#include <glib.h>

#include "tuner/knobs/knobs.h"

struct knob_range {
	double lo, hi; /* ns */
	bool log;
	bool fixed;
	double value; /* when fixed */
};

struct knob_space {
	KnobSet set; /* the knobs of the space; the others are not searched, fixed or reported */
	struct knob_range k[KNOB_COUNT];
	unsigned int dim;	    /* free knobs */
	enum knob free[KNOB_COUNT]; /* dimension i is knob free[i] */
};

/* The three CFS knobs over their sysctl ranges, free, on a log scale when log is true. */
void knob_space_init(struct knob_space *s, bool log);
/* The same for the knobs of set. */
void knob_space_init_set(struct knob_space *s, KnobSet set, bool log);
/* --range knob=lo:hi (inside the sysctl range, lo < hi). */
bool knob_space_parse_range(struct knob_space *s, const char *text, GError **error);
/* --fix knob=value (inside the knob's range); a knob outside the set joins it, fixed. */
bool knob_space_parse_fix(struct knob_space *s, const char *text, GError **error);
/* --log knob / --linear knob: the scale of one knob. */
bool knob_space_parse_scale(struct knob_space *s, const char *name, bool log, GError **error);

/* Unit coordinates (dim of them, each in [0, 1]) to knobs, rounded to whole ns. */
void knob_space_to_knobs(const struct knob_space *s, const double *unit, Knobs *out);
/* The same as a TuneMapFn (tuner/eval/tune_loop.h): ctx is a const struct knob_space *, unit has
 * its dim coordinates. */
void knob_space_map(const double *unit, Knobs *knobs, void *ctx);
/* Knobs to unit coordinates (clamped to [0, 1]). */
void knob_space_from_knobs(const struct knob_space *s, const Knobs *k, double *unit);
/* "latency=100000:1000000000:log min_granularity=...": the set's knobs, for journals and
 * reports. */
char *knob_space_describe(const struct knob_space *s);

#endif
