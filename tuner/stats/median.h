/*
 * median.h - the median of a sample, the summary every real-against-simulated comparison of the
 * tuner takes (run-to-run spread under emulation is skewed; a median shrugs off a slow run).
 */
#ifndef TUNER_STATS_MEDIAN_H
#define TUNER_STATS_MEDIAN_H

#include <stddef.h>

/* The median of v[0..n): the middle value, or the mean of the two middle ones; NaN when n is 0.
 * Sorts v in place. */
double stats_median(double *v, size_t n);

#endif
