/*
 * paired.h - a setting against a reference measured in the same rounds: the paired comparison
 * `tuner validate` reports (SPEC.md §7: under emulation only comparisons inside one boot hold).
 *
 * Round i measured x[i] (the tuned setting) and ref[i] (the defaults) close together, so their
 * ratio cancels the host's drift. Times are compared on the log scale, where a ratio is a
 * difference and run-to-run noise is closer to symmetric: d[i] = ln(x[i] / ref[i]), a Student t
 * interval for the mean of d, and its exponential as the geometric-mean ratio with its interval.
 * Beside it the sign test (exact two-sided binomial on the rounds where x < ref against x > ref,
 * ties dropped), which assumes nothing of the distribution.
 */
#ifndef TUNER_STATS_PAIRED_H
#define TUNER_STATS_PAIRED_H

#include <stdbool.h>

typedef struct {
	unsigned int n;	 /* pairs */
	double mean_log; /* mean of ln(x / ref) */
	double sd_log;	 /* its sample standard deviation (NaN when n < 2) */
	double t, p;	 /* t = mean / (sd / sqrt(n)), two-sided p for mean 0, n - 1 df */
	double ratio;	 /* exp(mean_log): the geometric-mean ratio x / ref */
	double ratio_lo; /* its confidence interval at the level asked */
	double ratio_hi;
	unsigned int below; /* pairs with x < ref */
	unsigned int above; /* pairs with x > ref */
	double sign_p;	    /* exact two-sided sign test of below against above */
} PairedStats;

/*
 * Compare x with ref over n pairs at confidence level (e.g. 0.95). False when n is 0 or a value
 * is not a positive finite number; then *out is untouched. With n = 1 the interval and p are NaN.
 */
bool paired_log_ratio(const double *x, const double *ref, unsigned int n, double level,
		      PairedStats *out);

/* The improvement in % that a ratio means: 100 (1 - ratio); a lower time is a gain. */
double paired_improvement_pct(double ratio);

#endif
