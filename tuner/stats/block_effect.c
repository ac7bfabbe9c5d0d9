/*
 * block_effect.c - the blocks' effect on log responses (see block_effect.h).
 */
#include "tuner/stats/block_effect.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

bool block_effect_log(const double *y, guint points, guint blocks, BlockEffect *out)
{
	gsize n = (gsize)points * blocks;

	if (n == 0)
		return false;
	for (gsize k = 0; k < n; k++)
		if (!(y[k] > 0 && isfinite(y[k])))
			return false;

	g_autofree double *z = g_new(double, n);
	g_autofree double *point_mean = g_new(double, points);
	double *block_mean = g_new(double, blocks);

	for (gsize k = 0; k < n; k++)
		z[k] = log(y[k]);
	double grand = gsl_stats_mean(z, 1, n);

	for (guint i = 0; i < points; i++)
		point_mean[i] = gsl_stats_mean(&z[i], points, blocks);
	for (guint j = 0; j < blocks; j++)
		block_mean[j] = gsl_stats_mean(&z[(gsize)j * points], 1, points);

	BlockEffect b = { .points = points,
			  .blocks = blocks,
			  .df_blocks = blocks - 1.0,
			  .df_error = (points - 1.0) * (blocks - 1.0),
			  .factor = block_mean };

	for (guint j = 0; j < blocks; j++) {
		b.ss_blocks += points * (block_mean[j] - grand) * (block_mean[j] - grand);
		for (guint i = 0; i < points; i++) {
			double e = z[(gsize)j * points + i] - point_mean[i] - block_mean[j] + grand;

			b.ss_error += e * e;
		}
	}
	for (guint j = 0; j < blocks; j++)
		block_mean[j] = exp(block_mean[j] - grand);
	/* What rounding leaves of an exact fit is 0: a root-mean-square residual below 1e-12 of the
	 * largest |z| (as rsm_model.h judges one). */
	double zmax = 0;

	for (gsize k = 0; k < n; k++)
		zmax = fmax(zmax, fabs(z[k]));
	if (sqrt(b.ss_error / (double)n) <= 1e-12 * fmax(zmax, 1))
		b.ss_error = 0;

	double ms_blocks = b.df_blocks > 0 ? b.ss_blocks / b.df_blocks : NAN;
	double ms_error = b.df_error > 0 ? b.ss_error / b.df_error : NAN;

	b.sd_error = sqrt(ms_error);
	b.sd_blocks = isfinite(ms_blocks - ms_error)
			      ? sqrt(fmax(0, (ms_blocks - ms_error) / points))
			      : NAN;
	b.f = ms_error > 0 ? ms_blocks / ms_error : NAN;
	b.p = isfinite(b.f) ? gsl_cdf_fdist_Q(b.f, b.df_blocks, b.df_error) : NAN;
	*out = b;
	return true;
}

void block_effect_clear(BlockEffect *b)
{
	g_clear_pointer(&b->factor, g_free);
}
