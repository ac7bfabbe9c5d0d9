/*
 * knobs.c - the knob table (see knobs.h).
 */
#include "tuner/knobs/knobs.h"

#include <math.h>
#include <string.h>

#define CFS   (1U << SCHED_KNOBS_CFS)
#define EEVDF (1U << SCHED_KNOBS_EEVDF)

static const struct knob_info table[KNOB_COUNT] = {
	[KNOB_LATENCY] = {
		.name = "latency",
		.column = "latency_ns",
		.sysctl = "sched_latency_ns",
		.debugfs = "latency_ns",
		.min_ns = SCHED_LATENCY_MIN,
		.max_ns = SCHED_LATENCY_MAX,
		.kernels = CFS,
	},
	[KNOB_MIN_GRANULARITY] = {
		.name = "min_granularity",
		.column = "min_granularity_ns",
		.sysctl = "sched_min_granularity_ns",
		.debugfs = "min_granularity_ns",
		.min_ns = SCHED_MIN_GRAN_MIN,
		.max_ns = SCHED_MIN_GRAN_MAX,
		.kernels = CFS,
	},
	[KNOB_WAKEUP_GRANULARITY] = {
		.name = "wakeup_granularity",
		.column = "wakeup_granularity_ns",
		.sysctl = "sched_wakeup_granularity_ns",
		.debugfs = "wakeup_granularity_ns",
		.min_ns = SCHED_WAKEUP_GRAN_MIN,
		.max_ns = SCHED_WAKEUP_GRAN_MAX,
		.kernels = CFS,
	},
	[KNOB_MIGRATION_COST] = {
		.name = "migration_cost",
		.column = "migration_cost_ns",
		.sysctl = "sched_migration_cost_ns",
		.debugfs = "migration_cost_ns",
		.min_ns = SCHED_MIGRATION_COST_MIN,
		.max_ns = SCHED_MIGRATION_COST_MAX,
		.kernels = CFS | EEVDF,
	},
	[KNOB_BASE_SLICE] = {
		.name = "base_slice",
		.column = "base_slice_ns",
		.sysctl = NULL,
		.debugfs = "base_slice_ns",
		.min_ns = SCHED_BASE_SLICE_MIN,
		.max_ns = SCHED_BASE_SLICE_MAX,
		.kernels = EEVDF,
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
	return "latency, min_granularity, wakeup_granularity, migration_cost or base_slice";
}

const char *knob_cfs_names_list(void)
{
	return "latency, min_granularity or wakeup_granularity";
}

bool knob_in_profile(enum knob k, const struct sched_profile *profile)
{
	return (table[k].kernels & (1U << profile->knobs)) != 0;
}

KnobSet knob_set_default(const struct sched_profile *profile)
{
	return profile->knobs == SCHED_KNOBS_EEVDF ? KNOB_BIT(KNOB_BASE_SLICE) : KNOB_SET_CFS;
}

unsigned int knob_set_count(KnobSet set)
{
	return (unsigned int)__builtin_popcount(set & KNOB_SET_ALL);
}

char *knob_set_names(KnobSet set, const char *sep)
{
	GString *s = g_string_new(NULL);

	for (int k = 0; k < KNOB_COUNT; k++)
		if (set & KNOB_BIT(k))
			g_string_append_printf(s, "%s%s", s->len ? sep : "", table[k].name);
	return g_string_free(s, FALSE);
}

bool knob_set_parse(const char *text, const struct sched_profile *profile, KnobSet *out,
		    GError **error)
{
	g_auto(GStrv) names = g_strsplit(text, ",", -1);
	KnobSet set = 0;

	for (size_t i = 0; names[i]; i++) {
		enum knob k;

		if (!knob_from_name(names[i], &k)) {
			g_set_error(error, g_quark_from_static_string("knobs"), 1,
				    "--knobs: '%s' is not %s", names[i], knob_names_list());
			return false;
		}
		if (set & KNOB_BIT(k)) {
			g_set_error(error, g_quark_from_static_string("knobs"), 1,
				    "--knobs: %s is given twice", table[k].name);
			return false;
		}
		if (profile && !knob_in_profile(k, profile)) {
			g_set_error(error, g_quark_from_static_string("knobs"), 1,
				    "--knobs: the %s profile's kernel has no %s (%s)",
				    profile->name, table[k].name,
				    profile->knobs == SCHED_KNOBS_EEVDF
					    ? "EEVDF replaced CFS's granularities by base_slice"
					    : "base_slice is EEVDF's, 6.6 and later");
			return false;
		}
		set |= KNOB_BIT(k);
	}
	if (!set) {
		g_set_error(error, g_quark_from_static_string("knobs"), 1,
			    "--knobs: names no knob; give some of %s", knob_names_list());
		return false;
	}
	*out = set;
	return true;
}

/* The field of k that holds knob which. */
static guint64 *field(Knobs *k, enum knob which)
{
	switch (which) {
	case KNOB_LATENCY:
		return &k->latency_ns;
	case KNOB_MIN_GRANULARITY:
		return &k->min_granularity_ns;
	case KNOB_WAKEUP_GRANULARITY:
		return &k->wakeup_granularity_ns;
	case KNOB_MIGRATION_COST:
		return &k->migration_cost_ns;
	default:
		return &k->base_slice_ns;
	}
}

char *knobs_describe(const Knobs *k, KnobSet set)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < KNOB_COUNT; i++)
		if (set & KNOB_BIT(i))
			g_string_append_printf(s, "%s%s=%.0f", s->len ? " " : "", table[i].column,
					       knob_get(k, (enum knob)i));
	return g_string_free(s, FALSE);
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

	return knobs_from_tunables(&def);
}

Knobs knobs_from_tunables(const struct sched_tunables *tun)
{
	return (Knobs){ tun->latency, tun->min_granularity, tun->wakeup_granularity,
			tun->migration_cost, tun->base_slice };
}

void knobs_apply(const Knobs *k, KnobSet set, struct sched_tunables *tun)
{
	if (set & KNOB_BIT(KNOB_LATENCY))
		tun->latency = k->latency_ns;
	if (set & KNOB_BIT(KNOB_MIN_GRANULARITY))
		tun->min_granularity = k->min_granularity_ns;
	if (set & KNOB_BIT(KNOB_WAKEUP_GRANULARITY))
		tun->wakeup_granularity = k->wakeup_granularity_ns;
	if (set & KNOB_BIT(KNOB_MIGRATION_COST))
		tun->migration_cost = k->migration_cost_ns;
	if (set & KNOB_BIT(KNOB_BASE_SLICE))
		tun->base_slice = k->base_slice_ns;
}
