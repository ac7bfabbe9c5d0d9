/*
 * paired.c - paired comparison on log ratios and the sign test (see paired.h).
 */
#include "tuner/stats/paired.h"

#include <math.h>

#include <glib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

/* Two-sided exact sign test: P(X <= min(k, n - k)) doubled, X ~ Binomial(n, 1/2), at most 1. */
static double sign_test(unsigned int below, unsigned int above)
{
	unsigned int n = below + above;
	unsigned int k = below < above ? below : above;

	if (n == 0)
		return 1.0;
	double p = 2.0 * gsl_cdf_binomial_P(k, 0.5, n);
	return p > 1.0 ? 1.0 : p;
}

bool paired_log_ratio(const double *x, const double *ref, unsigned int n, double level,
		      PairedStats *out)
{
	if (n == 0)
		return false;

	g_autofree double *d = g_new(double, n);
	PairedStats s = { .n = n };

	for (unsigned int i = 0; i < n; i++) {
		if (!(isfinite(x[i]) && isfinite(ref[i]) && x[i] > 0 && ref[i] > 0))
			return false;
		d[i] = log(x[i] / ref[i]);
		s.below += x[i] < ref[i];
		s.above += x[i] > ref[i];
	}
	s.mean_log = gsl_stats_mean(d, 1, n);
	s.ratio = exp(s.mean_log);
	s.sign_p = sign_test(s.below, s.above);
	if (n < 2) {
		s.sd_log = s.t = s.p = s.ratio_lo = s.ratio_hi = NAN;
		*out = s;
		return true;
	}
	s.sd_log = gsl_stats_sd_m(d, 1, n, s.mean_log);
	double se = s.sd_log / sqrt(n), df = n - 1.0;
	double q = gsl_cdf_tdist_Qinv((1.0 - level) / 2.0, df);

	s.t = se > 0 ? s.mean_log / se : (s.mean_log == 0 ? 0 : copysign(INFINITY, s.mean_log));
	s.p = se > 0 ? 2.0 * gsl_cdf_tdist_Q(fabs(s.t), df) : (s.mean_log == 0 ? 1.0 : 0.0);
	s.ratio_lo = exp(s.mean_log - q * se);
	s.ratio_hi = exp(s.mean_log + q * se);
	*out = s;
	return true;
}

double paired_improvement_pct(double ratio)
{
	return 100.0 * (1.0 - ratio);
}
