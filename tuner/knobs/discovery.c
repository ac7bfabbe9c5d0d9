/*
 * discovery.c - SchedPeriod -> knobs, discovery rules 1 and 2 (see discovery.h).
 */
#include "tuner/knobs/discovery.h"

#include <math.h>

/* The literature's time units, ns. */
static const double one_second_ns = 1000000000.0;
static const double hundred_us_ns = 100000.0;

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(tuner-discovery-error-quark, tuner_discovery_error)
/* clang-format on */

static bool rule_valid(int rule)
{
	return rule == TUNER_DISCOVERY_RULE_MANY_TASKS || rule == TUNER_DISCOVERY_RULE_FEW_TASKS;
}

bool tuner_discovery_check(int rule, unsigned ntasks, GError **error)
{
	if (!rule_valid(rule)) {
		g_set_error(error, TUNER_DISCOVERY_ERROR, TUNER_DISCOVERY_ERROR_RULE,
			    "discovery rule %d: must be 1 (many tasks) or 2 (few tasks)", rule);
		return false;
	}
	if (ntasks == 0) {
		g_set_error(error, TUNER_DISCOVERY_ERROR, TUNER_DISCOVERY_ERROR_NTASKS,
			    "discovery rule %d: the workload has no tasks (ntasks 0)", rule);
		return false;
	}
	return true;
}

/* Splits P at `cap`: the excess becomes wakeup granularity, P keeps at most cap. */
static void spill_over(double *period, double cap, double *wakeup)
{
	if (*period > cap) {
		*wakeup = *period - cap;
		*period = cap;
	} else {
		*wakeup = 0.0;
	}
}

static void rule_many_tasks(double period, double n, double *k)
{
	spill_over(&period, n * one_second_ns, &k[KNOB_WAKEUP_GRANULARITY]);
	k[KNOB_LATENCY] = (n - 1.0) * hundred_us_ns;
	k[KNOB_MIN_GRANULARITY] = period / n;
}

static void rule_few_tasks(double period, double n, double *k)
{
	spill_over(&period, one_second_ns, &k[KNOB_WAKEUP_GRANULARITY]);
	k[KNOB_LATENCY] = period;
	k[KNOB_MIN_GRANULARITY] = k[KNOB_LATENCY] < n * hundred_us_ns ? period / n : hundred_us_ns;
}

/* value of knob k inside the knob's sysctl range; sets k's bit of *mask when it was outside. */
static double clamp(double value, enum knob k, unsigned *mask)
{
	double lo = (double)knob_info(k)->min_ns, hi = (double)knob_info(k)->max_ns;

	if (value < lo || value > hi) {
		*mask |= 1u << k;
		return value < lo ? lo : hi;
	}
	return value;
}

void tuner_discovery_apply(int rule, double sched_period_ns, unsigned ntasks,
			   double out[KNOB_CFS_COUNT], unsigned *clamped_mask)
{
	g_return_if_fail(rule_valid(rule) && ntasks > 0 && !isnan(sched_period_ns) && out != NULL);
	double k[KNOB_CFS_COUNT];
	if (rule == TUNER_DISCOVERY_RULE_MANY_TASKS)
		rule_many_tasks(sched_period_ns, ntasks, k);
	else
		rule_few_tasks(sched_period_ns, ntasks, k);

	unsigned mask = 0;
	for (int i = 0; i < KNOB_CFS_COUNT; i++)
		out[i] = clamp(k[i], (enum knob)i, &mask);
	if (clamped_mask != NULL)
		*clamped_mask = mask;
}

void tuner_discovery_bracket(int rule, unsigned ntasks, double *lo_ns, double *hi_ns)
{
	g_return_if_fail(rule_valid(rule) && ntasks > 0 && lo_ns != NULL && hi_ns != NULL);
	if (rule == TUNER_DISCOVERY_RULE_MANY_TASKS) {
		*lo_ns = ntasks * hundred_us_ns;
		*hi_ns =
			ntasks * one_second_ns + (double)knob_info(KNOB_WAKEUP_GRANULARITY)->max_ns;
	} else {
		*lo_ns = (double)knob_info(KNOB_LATENCY)->min_ns;
		*hi_ns = one_second_ns + (double)knob_info(KNOB_WAKEUP_GRANULARITY)->max_ns;
	}
}
