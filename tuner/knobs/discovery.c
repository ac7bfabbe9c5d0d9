/*
 * tuner/knobs/discovery.c - SchedPeriod -> knobs, discovery rules 1 and 2 (see discovery.h).
 */
#include "tuner/knobs/discovery.h"

#include <math.h>

/* The sysctl ranges, ns. */
static const double granularity_min_ns = 100000.0;     /* 100 us */
static const double granularity_max_ns = 1000000000.0; /* 1 s */
static const double wakeup_min_ns = 0.0;
static const double wakeup_max_ns = 1000000000.0;

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

static void rule_many_tasks(double period, double n, struct tuner_knobs *k)
{
	spill_over(&period, n * one_second_ns, &k->wakeup_granularity_ns);
	k->latency_ns = (n - 1.0) * hundred_us_ns;
	k->min_granularity_ns = period / n;
}

static void rule_few_tasks(double period, double n, struct tuner_knobs *k)
{
	spill_over(&period, one_second_ns, &k->wakeup_granularity_ns);
	k->latency_ns = period;
	k->min_granularity_ns = k->latency_ns < n * hundred_us_ns ? period / n : hundred_us_ns;
}

static double clamp(double value, double lo, double hi, unsigned bit, unsigned *mask)
{
	if (value < lo || value > hi) {
		*mask |= bit;
		return value < lo ? lo : hi;
	}
	return value;
}

void tuner_discovery_apply(int rule, double sched_period_ns, unsigned ntasks,
			   struct tuner_knobs *out, unsigned *clamped_mask)
{
	g_return_if_fail(rule_valid(rule) && ntasks > 0 && !isnan(sched_period_ns) && out != NULL);
	struct tuner_knobs k;
	if (rule == TUNER_DISCOVERY_RULE_MANY_TASKS)
		rule_many_tasks(sched_period_ns, ntasks, &k);
	else
		rule_few_tasks(sched_period_ns, ntasks, &k);

	unsigned mask = 0;
	out->latency_ns = clamp(k.latency_ns, granularity_min_ns, granularity_max_ns,
				TUNER_DISCOVERY_CLAMPED_LATENCY, &mask);
	out->min_granularity_ns =
		clamp(k.min_granularity_ns, granularity_min_ns, granularity_max_ns,
		      TUNER_DISCOVERY_CLAMPED_MIN_GRANULARITY, &mask);
	out->wakeup_granularity_ns = clamp(k.wakeup_granularity_ns, wakeup_min_ns, wakeup_max_ns,
					   TUNER_DISCOVERY_CLAMPED_WAKEUP_GRANULARITY, &mask);
	if (clamped_mask != NULL)
		*clamped_mask = mask;
}

void tuner_discovery_bracket(int rule, unsigned ntasks, double *lo_ns, double *hi_ns)
{
	g_return_if_fail(rule_valid(rule) && ntasks > 0 && lo_ns != NULL && hi_ns != NULL);
	if (rule == TUNER_DISCOVERY_RULE_MANY_TASKS) {
		*lo_ns = ntasks * hundred_us_ns;
		*hi_ns = ntasks * one_second_ns + wakeup_max_ns;
	} else {
		*lo_ns = granularity_min_ns;
		*hi_ns = one_second_ns + wakeup_max_ns;
	}
}
