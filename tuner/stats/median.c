/*
 * median.c - the median of a sample (see median.h).
 */
#include "tuner/stats/median.h"

#include <math.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}
