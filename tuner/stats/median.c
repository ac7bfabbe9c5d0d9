/*
 * median.c - the median of a sample (see median.h).
 */
#include "tuner/stats/median.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

unsigned int stats_median_rank(unsigned int n, double *coverage)
{
	unsigned int j = 0;

	/* The largest j with P(B < j) = P(B <= j - 1) <= 2.5 %. */
	while (j < n && gsl_cdf_binomial_P(j, 0.5, n) <= 0.025)
		j++;
	*coverage = j ? 1 - 2 * gsl_cdf_binomial_P(j - 1, 0.5, n) : NAN;
	return j;
}
