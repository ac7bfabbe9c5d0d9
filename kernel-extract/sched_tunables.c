/*
 * sched_tunables.c - profiles and the boot-time scaling of the knobs (CFS's granularities, EEVDF's
 * base_slice).
 *
 * The kernel multiplies its base latency, min_granularity and wakeup_granularity by
 * factor = 1 + ilog2(ncpus) at boot, because on more CPUs each CPU's queue is shorter and longer
 * slices cost less interactivity. 2.6.28 then caps latency and min_granularity at 200 ms; 6.1 caps
 * ncpus at 8 instead.
 */
#include "kernel-extract/sched.h"
#include "kernel-extract/sched_class.h"

#include <stddef.h>
#include <string.h>

#define F(x) (1U << (x))

static const struct sched_profile profiles[] = {
	{
		.name = "2.6.28",
		.base = { .latency = 20000000,
			  .min_granularity = 4000000,
			  .wakeup_granularity = 5000000,
			  .migration_cost = 500000 },
		.features = F(SF_START_DEBIT) | F(SF_NORMALIZED_SLEEPER) | F(SF_ASYM_GRAN) |
			    F(SF_WAKEUP_PREEMPT) | F(SF_NEXT_BUDDY) | F(SF_LAST_BUDDY),
		.sched_class = &fair_sched_class,
	},
	{
		.name = "6.1",
		.base = { .latency = 6000000,
			  .min_granularity = 750000,
			  .wakeup_granularity = 1000000,
			  .migration_cost = 500000 },
		/* NEXT_BUDDY is off in 6.1 (kernel/sched/features.h). */
		.features = F(SF_START_DEBIT) | F(SF_GENTLE_FAIR_SLEEPERS) | F(SF_GRAN_BY_WOKEN) |
			    F(SF_BASE_SLICE) | F(SF_TICK_VRUNTIME_PREEMPT) | F(SF_WAKEUP_PREEMPT) |
			    F(SF_LAST_BUDDY) | F(SF_SCALE_CPUS_CAPPED_AT_8) |
			    F(SF_BUDDY_ON_PREEMPT) | F(SF_WAKE_AFFINE_SIS) | F(SF_LB_PELT),
		.sched_class = &fair_sched_class,
	},
	/*
	 * 6.18's defaults (kernel/sched/features.h; this machine's debugfs reads base_slice 1.4 ms
	 * on 2 CPUs): the base slice has been 0.70 ms since 6.15, short of a 1 ms tick.
	 */
	{
		.name = "eevdf",
		.base = { .migration_cost = 500000, .base_slice = 700000 },
		.features = F(SF_PLACE_LAG) | F(SF_PLACE_DEADLINE_INITIAL) |
			    F(SF_PLACE_REL_DEADLINE) | F(SF_RUN_TO_PARITY) | F(SF_PREEMPT_SHORT) |
			    F(SF_DELAY_DEQUEUE) | F(SF_DELAY_ZERO) | F(SF_CUSTOM_SLICE) |
			    F(SF_LAG_MAX_SLICE) | F(SF_RESCHED_PROTECT_END) | F(SF_WAKEUP_PREEMPT) |
			    F(SF_SCALE_CPUS_CAPPED_AT_8) | F(SF_WAKE_AFFINE_SIS) | F(SF_LB_PELT),
		.sched_class = &eevdf_sched_class,
		.knobs = SCHED_KNOBS_EEVDF,
	},
	/* 6.6's: the first EEVDF, base slice 0.75 ms. */
	{
		.name = "6.6",
		.base = { .migration_cost = 500000, .base_slice = 750000 },
		.features = F(SF_PLACE_LAG) | F(SF_PLACE_DEADLINE_INITIAL) | F(SF_RUN_TO_PARITY) |
			    F(SF_WAKEUP_PREEMPT) | F(SF_SCALE_CPUS_CAPPED_AT_8) |
			    F(SF_WAKE_AFFINE_SIS) | F(SF_LB_PELT),
		.sched_class = &eevdf_sched_class,
		.knobs = SCHED_KNOBS_EEVDF,
	},
};

#define LATENCY_CAP_2_6_28 200000000ULL

const struct sched_profile *sched_profile_find(const char *name)
{
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

const struct sched_profile *sched_profile_default(void)
{
	return &profiles[0];
}

const char *sched_profile_names(void)
{
	return "2.6.28, 6.1, eevdf, 6.6";
}

static unsigned int ilog2_u(unsigned int n)
{
	unsigned int r = 0;

	while (n >>= 1)
		r++;
	return r;
}

unsigned int sched_tunable_factor(const struct sched_profile *profile, unsigned int ncpus)
{
	if (ncpus == 0)
		ncpus = 1;
	if ((profile->features & F(SF_SCALE_CPUS_CAPPED_AT_8)) && ncpus > 8)
		ncpus = 8;
	return 1 + ilog2_u(ncpus);
}

void sched_tunables_update(struct sched_tunables *tun)
{
	/* ceil(latency / min_granularity), the number of tasks that fit in one latency period. */
	if (tun->min_granularity == 0) {
		tun->nr_latency = 0;
		return;
	}
	tun->nr_latency =
		(unsigned int)((tun->latency + tun->min_granularity - 1) / tun->min_granularity);
}

struct sched_tunables sched_tunables_default(const struct sched_profile *profile,
					     unsigned int ncpus)
{
	unsigned int factor = sched_tunable_factor(profile, ncpus);
	struct sched_tunables tun = profile->base;

	tun.latency *= factor;
	tun.min_granularity *= factor;
	tun.wakeup_granularity *= factor;
	tun.base_slice *= factor;
	if (!(profile->features & F(SF_SCALE_CPUS_CAPPED_AT_8))) {
		if (tun.latency > LATENCY_CAP_2_6_28)
			tun.latency = LATENCY_CAP_2_6_28;
		if (tun.min_granularity > LATENCY_CAP_2_6_28)
			tun.min_granularity = LATENCY_CAP_2_6_28;
	}
	sched_tunables_update(&tun);
	return tun;
}
