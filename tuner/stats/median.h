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

/*
 * The median's distribution-free interval of order statistics [x_(j), x_(n+1-j)] for n sorted
 * values: the rank j (1-based; 0 when n is too small for a 95 % interval, under 6) with the
 * largest j whose interval still covers the median with at least 95 %, and that coverage (NaN
 * when j is 0), from the binomial distribution B(n, 1/2).
 */
unsigned int stats_median_rank(unsigned int n, double *coverage);

#endif
