/*
 * knob_space.h - the search space of the three CFS knobs, and its map to the unit cube the
 * optimizers work in.
 *
 * Each knob has a range (by default its sysctl range: latency and min_granularity
 * [100 000, 1 000 000 000] ns, wakeup_granularity [0, 1 000 000 000] ns) searched on a linear or a
 * log scale, or is fixed at a value. Only the free knobs are dimensions of the cube, in the order
 * latency, min_granularity, wakeup_granularity. On a log scale a range that starts at 0 is mapped
 * through ln(v + 1 us), so that 0 stays reachable.
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
	struct knob_range k[KNOB_COUNT];
	unsigned int dim;	    /* free knobs */
	enum knob free[KNOB_COUNT]; /* dimension i is knob free[i] */
};

/* The sysctl ranges, every knob free, on a log scale when log is true. */
void knob_space_init(struct knob_space *s, bool log);
/* --range knob=lo:hi (inside the sysctl range, lo < hi). */
bool knob_space_parse_range(struct knob_space *s, const char *text, GError **error);
/* --fix knob=value (inside the sysctl range). */
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
/* "latency=[1e5,1e9] log, min_granularity=..." for journals and reports. */
char *knob_space_describe(const struct knob_space *s);

#endif
