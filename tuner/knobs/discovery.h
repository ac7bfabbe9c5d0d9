/*
 * discovery.h - the discovery rules: the three CFS knobs derived from one number,
 * SchedPeriod, so that Golden Section can search a single dimension (SPEC.md §5).
 *
 * The literature gives the rules for N = 200 tasks (5 hackbench groups of 40).  Its
 * constants generalise to any task count N as the SPEC says:
 *     200 000 000 000 = N x 1 s        (N x the largest min_granularity)
 *      19 900 000     = (N - 1) x 100 us (keeps sched_nr_latency below N, so the CFS
 *                                        period is min_granularity x N)
 *     / 200           = / N
 *      20 000 000     = N x 100 us
 *
 * Rule 1 (many tasks), with P = SchedPeriod:
 *     if P > N x 1 s:  wakeup = P - N x 1 s, P = N x 1 s;  else wakeup = 0
 *     latency = (N - 1) x 100 us,  min_granularity = P / N
 * Rule 2 (few tasks):
 *     if P > 1 s:  wakeup = P - 1 s, P = 1 s;  else wakeup = 0
 *     latency = P,  min_granularity = P / N if latency < N x 100 us, else 100 us
 *
 * Then each knob is clamped to its sysctl range, latency and min_granularity to
 * [100 000, 1 000 000 000] ns and wakeup_granularity to [0, 1 000 000 000] ns, and the
 * clamped knobs are reported in a bit mask (TUNER_DISCOVERY_CLAMPED_*).
 *
 * Note on rule 2 as the SPEC states it: P / N is used only when P < N x 100 us, i.e.
 * exactly when P / N < 100 us, so after clamping min_granularity is 100 us for every P
 * (and the clamp bit is set when P < N x 100 us).
 *
 * Units: every value is in nanoseconds, held in a double because the tuner computes in
 * doubles; the caller rounds when it hands knobs to the simulator.  Pure functions, no
 * state.
 */
#ifndef TUNER_DISCOVERY_H
#define TUNER_DISCOVERY_H

#include <stdbool.h>

#include <glib.h>

#include "tuner/knobs/knobs.h"

enum tuner_discovery_rule {
	TUNER_DISCOVERY_RULE_MANY_TASKS = 1,
	TUNER_DISCOVERY_RULE_FEW_TASKS = 2,
};

/* Bits of the clamped mask. */
enum {
	TUNER_DISCOVERY_CLAMPED_LATENCY = 1u << KNOB_LATENCY,
	TUNER_DISCOVERY_CLAMPED_MIN_GRANULARITY = 1u << KNOB_MIN_GRANULARITY,
	TUNER_DISCOVERY_CLAMPED_WAKEUP_GRANULARITY = 1u << KNOB_WAKEUP_GRANULARITY,
};

#define TUNER_DISCOVERY_ERROR (tuner_discovery_error_quark())
GQuark tuner_discovery_error_quark(void);

typedef enum {
	TUNER_DISCOVERY_ERROR_RULE,   /* rule is neither 1 nor 2 */
	TUNER_DISCOVERY_ERROR_NTASKS, /* ntasks is 0 */
} tuner_discovery_error_code;

/* True if rule and ntasks are usable; otherwise a one-line message naming the input. */
bool tuner_discovery_check(int rule, unsigned ntasks, GError **error);

/*
 * The knobs rule (1 or 2) derives from sched_period_ns for a workload of ntasks (>= 1)
 * tasks, clamped to the sysctl ranges; *clamped_mask (may be NULL) receives the
 * TUNER_DISCOVERY_CLAMPED_* bits of the knobs that were clamped.  Invalid rule or
 * ntasks, or a NaN period, is a programming error (check first): it logs a critical and
 * leaves *out alone.
 */
void tuner_discovery_apply(int rule, double sched_period_ns, unsigned ntasks,
			   double out[KNOB_CFS_COUNT], unsigned *clamped_mask);

/*
 * The natural SchedPeriod range [*lo_ns, *hi_ns] of a rule, the one Golden Section
 * searches:
 *   rule 1: [N x 100 us, N x 1 s + 1 s]: below, min_granularity = P / N falls under its
 *           100 us floor; above, wakeup_granularity = P - N x 1 s exceeds its 1 s ceiling.
 *           Inside it, rule 1 clamps nothing (latency excepted when (N - 1) x 100 us is
 *           itself out of range, i.e. N = 1 or N > 10 001).
 *   rule 2: [100 us, 1 s + 1 s]: below, latency = P falls under its 100 us floor; above,
 *           wakeup_granularity exceeds 1 s.  (min_granularity, see above, is 100 us
 *           throughout.)
 * Beyond either end the derived knobs stop changing, so searching there is wasted.
 */
void tuner_discovery_bracket(int rule, unsigned ntasks, double *lo_ns, double *hi_ns);

#endif /* TUNER_DISCOVERY_H */
