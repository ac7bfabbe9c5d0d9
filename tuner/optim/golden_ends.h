/*
 * golden_ends.h - Golden Section search that also evaluates the two ends of its bracket, an
 * optimizer type for optimizer.h built on tuner_optimizer_golden.
 *
 * Why: Golden Section assumes one minimum inside [a, b] and only ever evaluates interior points.
 * When the minimum lies at an end, or the function has a second valley, it narrows towards
 * whichever valley its first two points happen to favour.  The tuner meets exactly that on the
 * simulator: along SchedPeriod under discovery rule 1 (5 hackbench groups, 2 CPUs) the turnaround
 * is lowest at the shortest periods, rises to a hump near min_granularity = 5 ms and falls to a
 * plateau above 30 ms; the textbook search starts at 38% and 62% of the log bracket, both past the
 * hump, and ends on the plateau, worse than the default knobs.
 *
 * The rule: the first batch holds four points, the ends a and b and Golden Section's first two
 * interior points c < d.  If an end is strictly better than both interior points, the minimum is
 * in the valley at that end: the search restarts as Golden Section on [a, c] (or [d, b]), whose
 * two new interior points make the next batch.  Otherwise the values of c and d are handed to
 * Golden Section on [a, b] and it goes on as usual, one new point per batch.
 *
 * Cost: two evaluations more than Golden Section with the same tolerance, in both cases: with
 * k = ceil(log(tolerance / (hi - lo)) / log r), r = (sqrt 5 - 1) / 2, a full run makes k + 3
 * evaluations (12 for the tuner's default tolerance 0.02 on [0, 1]) instead of k + 1.
 *
 * Parameters: the `golden` fields of tuner_optimizer_params (tolerance, max_iterations, lo, hi),
 * checked as for tuner_optimizer_golden; the first batch counts as one iteration.
 */
#ifndef TUNER_GOLDEN_ENDS_H
#define TUNER_GOLDEN_ENDS_H

#include "tuner/optim/optimizer.h"

extern const tuner_optimizer_type *const tuner_optimizer_golden_ends;

#endif
