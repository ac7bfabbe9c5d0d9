/*
 * knobs.c - the knob table (see knobs.h).
 */
#include "tuner/knobs/knobs.h"

#include <math.h>
#include <string.h>

static const struct knob_info table[KNOB_COUNT] = {
	[KNOB_LATENCY] = {
		.name = "latency",
		.column = "latency_ns",
		.sysctl = "sched_latency_ns",
		.debugfs = "latency_ns",
		.min_ns = SCHED_LATENCY_MIN,
		.max_ns = SCHED_LATENCY_MAX,
	},
	[KNOB_MIN_GRANULARITY] = {
		.name = "min_granularity",
		.column = "min_granularity_ns",
		.sysctl = "sched_min_granularity_ns",
		.debugfs = "min_granularity_ns",
		.min_ns = SCHED_MIN_GRAN_MIN,
		.max_ns = SCHED_MIN_GRAN_MAX,
	},
	[KNOB_WAKEUP_GRANULARITY] = {
		.name = "wakeup_granularity",
		.column = "wakeup_granularity_ns",
		.sysctl = "sched_wakeup_granularity_ns",
		.debugfs = "wakeup_granularity_ns",
		.min_ns = SCHED_WAKEUP_GRAN_MIN,
		.max_ns = SCHED_WAKEUP_GRAN_MAX,
	},
};

const struct knob_info *knob_info(enum knob k)
{
	return &table[k];
}

const char *knob_name(enum knob k)
{
	return table[k].name;
}

bool knob_from_name(const char *name, enum knob *out)
{
	for (int k = 0; k < KNOB_COUNT; k++) {
		size_t len = strlen(table[k].name);

		if (strncmp(name, table[k].name, len) == 0 &&
		    (name[len] == '\0' || strcmp(name + len, "_ns") == 0)) {
			*out = (enum knob)k;
			return true;
		}
	}
	return false;
}

const char *knob_names_list(void)
{
	return "latency, min_granularity or wakeup_granularity";
}

/* The field of k that holds knob which. */
static guint64 *field(Knobs *k, enum knob which)
{
	switch (which) {
	case KNOB_LATENCY:
		return &k->latency_ns;
	case KNOB_MIN_GRANULARITY:
		return &k->min_granularity_ns;
	default:
		return &k->wakeup_granularity_ns;
	}
}

double knob_get(const Knobs *k, enum knob which)
{
	return (double)*field((Knobs *)k, which);
}

void knob_set(Knobs *k, enum knob which, double value)
{
	*field(k, which) = (guint64)llround(value);
}

double knob_clamp(enum knob k, double value)
{
	return fmin((double)table[k].max_ns, fmax((double)table[k].min_ns, value));
}

bool knobs_in_range(const Knobs *k)
{
	for (int i = 0; i < KNOB_COUNT; i++) {
		guint64 v = *field((Knobs *)k, (enum knob)i);

		if (v < table[i].min_ns || v > table[i].max_ns)
			return false;
	}
	return true;
}

Knobs knobs_profile_default(const struct sched_profile *profile, unsigned int ncpus)
{
	struct sched_tunables def = sched_tunables_default(profile, ncpus);

	return (Knobs){ def.latency, def.min_granularity, def.wakeup_granularity };
}

void knobs_apply(const Knobs *k, struct sched_tunables *tun)
{
	tun->latency = k->latency_ns;
	tun->min_granularity = k->min_granularity_ns;
	tun->wakeup_granularity = k->wakeup_granularity_ns;
}
