/*
 * block_effect.h - how much the blocks of a replicated experiment differ: a two-way analysis
 * without interaction (points x blocks) of log responses.
 *
 * `tuner rsm --objective vm` runs its whole design once per round and divides every run by the
 * one run of the defaults in the same round. That run's own noise (and what of the round's speed
 * the ratio does not cancel) is shared by every response of the round: a block effect. The
 * quadratic model has no block term, so it counts the effect as pure error; this analysis says how
 * large it is. On the log scale a ratio's shared divisor is an additive term, hence logs.
 *
 * With z_ij = ln y_ij for point i = 1..m in block j = 1..R, means z̄_i., z̄_.j, z̄..:
 *   ss_blocks = m Σ_j (z̄_.j - z̄..)²                     on R - 1 df
 *   ss_error  = Σ_ij (z_ij - z̄_i. - z̄_.j + z̄..)²       on (m - 1)(R - 1) df
 *   f = (ss_blocks / (R - 1)) / (ss_error / ((m - 1)(R - 1))), p = Q_F(f, R - 1, (m - 1)(R - 1))
 *   sd_error = sqrt(ms_error): one response's spread once points and blocks are out
 *   sd_blocks = sqrt(max(0, (ms_blocks - ms_error) / m)): the spread of the block effect itself
 *       (the method-of-moments estimate of its variance component)
 *   factor[j] = exp(z̄_.j - z̄..): block j's common factor
 * NaN where a quantity has no degrees of freedom (m < 2 or R < 2), and f, p where ms_error is 0
 * (a root-mean-square residual below 1e-12 of the largest |z| is rounding, taken as 0).
 */
#ifndef TUNER_STATS_BLOCK_EFFECT_H
#define TUNER_STATS_BLOCK_EFFECT_H

#include <stdbool.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	guint points, blocks;
	double ss_blocks, ss_error, df_blocks, df_error;
	double f, p;
	double sd_blocks, sd_error;
	double *factor; /* blocks of them (owned: block_effect_clear) */
} BlockEffect;

/* The analysis of y[j * points + i] (point i in block j), every y > 0. False (and *out untouched)
 * when a value is not a positive finite number or points or blocks is 0. */
bool block_effect_log(const double *y, guint points, guint blocks, BlockEffect *out);
void block_effect_clear(BlockEffect *b);

G_END_DECLS

#endif /* TUNER_STATS_BLOCK_EFFECT_H */
