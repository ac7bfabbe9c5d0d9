/*
 * sched_features.h - the profiles: default tunables plus feature flags, like the kernel's
 * sched_feat(). A profile difference is a flag tested in the one code path, never a second copy of
 * a function.
 *
 *   profile  what it models
 *   2.6.28   CFS with vruntime, the kernel the tuning literature measured its knobs on (default)
 *   6.1      mature CFS, the last long-term kernels before EEVDF
 *   eevdf    EEVDF as Linux 6.18 runs it (sched_eevdf.c): one knob, base_slice, and per-task slices
 *   6.6      EEVDF as it first shipped: no per-task slices, no delayed dequeue
 *
 * The CFS profiles run fair_sched_class, the EEVDF ones eevdf_sched_class; each class reads only
 * its own flags.
 */
#ifndef KERNEL_EXTRACT_SCHED_FEATURES_H
#define KERNEL_EXTRACT_SCHED_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

enum sched_feature {
	/* A new task starts one vslice after min_vruntime (both profiles). */
	SF_START_DEBIT,
	/* Sleepers are credited half a latency instead of a whole one (6.1). */
	SF_GENTLE_FAIR_SLEEPERS,
	/* The sleeper credit is converted to the task's virtual time (2.6.28). */
	SF_NORMALIZED_SLEEPER,
	/* Wakeup granularity is scaled by curr's weight only when curr is heavier than nice 0 (2.6.28). */
	SF_ASYM_GRAN,
	/* Wakeup granularity is scaled by the woken task's weight (6.1). */
	SF_GRAN_BY_WOKEN,
	/* sched_slice() is never less than min_granularity (6.1). */
	SF_BASE_SLICE,
	/* check_preempt_tick also preempts when curr is a slice ahead of the leftmost in vruntime (6.1). */
	SF_TICK_VRUNTIME_PREEMPT,
	/* Wakeups may preempt the running task. */
	SF_WAKEUP_PREEMPT,
	/* The woken task becomes the next buddy (2.6.28; off in 6.1), the preempted one the last
	 * buddy. */
	SF_NEXT_BUDDY,
	SF_LAST_BUDDY,
	/* Boot-time scaling: 1 + ilog2(min(ncpus, 8)) (6.1) instead of 1 + ilog2(ncpus) with a 200 ms cap. */
	SF_SCALE_CPUS_CAPPED_AT_8,
	/* A wakeup that preempts makes the woken task the next buddy, NEXT_BUDDY or not; the
	 * buddies are marked on a wakeup only while nr_running >= sched_nr_latency (6.1). */
	SF_BUDDY_ON_PREEMPT,
	/* Wakeup placement of 6.1, which 6.6 and 6.18 keep (both EEVDF profiles): wake_affine
	 * (WA_IDLE: a sync waker alone on its CPU pulls the wakee; WA_WEIGHT, WA_BIAS: else by
	 * load) unless the waker flips between many wakees (wake_wide), then select_idle_sibling
	 * (target, prev or a recently used CPU if idle, else any idle CPU sharing the cache, else
	 * target). */
	SF_WAKE_AFFINE_SIS,
	/* Load balancing as reworked in 5.5 (6.1, 6.6, 6.18): loads are PELT averages, not
	 * instantaneous weights; the imbalance is what takes both queues to the average, with no
	 * move of a whole task when that is less than one (no fix_small_imbalance); a task moves
	 * only if its load fits what is left of the imbalance, a bound halved by each failed
	 * balance; a CPU going idle pulls one task. */
	SF_LB_PELT,

	/* EEVDF. A waking or migrating task keeps its lag (else it starts at the average). */
	SF_PLACE_LAG,
	/* A new task's first deadline is half a slice away. */
	SF_PLACE_DEADLINE_INITIAL,
	/* A migrating task keeps its deadline relative to its vruntime (6.12). */
	SF_PLACE_REL_DEADLINE,
	/* curr keeps the CPU while eligible until its protected slice ends. */
	SF_RUN_TO_PARITY,
	/* A woken task with a shorter slice may cut into curr's protection (6.12). */
	SF_PREEMPT_SHORT,
	/* A task that blocks with negative lag stays queued, unpicked, until eligible (6.12). */
	SF_DELAY_DEQUEUE,
	/* ... and leaves with its positive lag dropped. */
	SF_DELAY_ZERO,
	/* Tasks may ask for their own slice, as sched_setattr(sched_runtime) does (6.12). */
	SF_CUSTOM_SLICE,
	/* Lag is clamped to the queue's largest slice plus a tick (6.17), not 2 slices or a tick. */
	SF_LAG_MAX_SLICE,
	/* curr is rescheduled whenever its protected slice has ended, not only at its deadline (6.17). */
	SF_RESCHED_PROTECT_END,
	SF_NR_FEATURES
};

/* Which knobs a profile's kernel has: CFS's three granularities, or EEVDF's base_slice. */
enum sched_knob_set {
	SCHED_KNOBS_CFS,
	SCHED_KNOBS_EEVDF,
};

/*
 * Tunables in ns, per simulation. nr_latency is derived: ceil(latency / min_granularity). CFS
 * profiles use the granularities and leave base_slice 0; EEVDF profiles the reverse.
 */
struct sched_tunables {
	uint64_t latency;
	uint64_t min_granularity;
	uint64_t wakeup_granularity;
	uint64_t migration_cost;
	uint64_t base_slice;
	unsigned int nr_latency;
};

/* The sysctl ranges of the knobs, which user values must respect. */
#define SCHED_LATENCY_MIN	 100000ULL
#define SCHED_LATENCY_MAX	 1000000000ULL
#define SCHED_MIN_GRAN_MIN	 100000ULL
#define SCHED_MIN_GRAN_MAX	 1000000000ULL
#define SCHED_WAKEUP_GRAN_MIN	 0ULL
#define SCHED_WAKEUP_GRAN_MAX	 1000000000ULL
/* base_slice_ns is a plain u32 in debugfs: any value it holds is accepted. */
#define SCHED_BASE_SLICE_MIN	 0ULL
#define SCHED_BASE_SLICE_MAX	 4294967295ULL
/* migration_cost_ns has no range of its own in the kernel (an int sysctl before 5.13, a u32 in
 * debugfs after): this is the range the tuner searches and accepts, issue 15's. */
#define SCHED_MIGRATION_COST_MIN 0ULL
#define SCHED_MIGRATION_COST_MAX 1000000000ULL
/* sched_setattr() clamps a fair task's sched_runtime to 0.1 .. 100 ms. */
#define SCHED_CUSTOM_SLICE_MIN	 100000ULL
#define SCHED_CUSTOM_SLICE_MAX	 100000000ULL

struct sched_class;

struct sched_profile {
	const char *name;
	struct sched_tunables base; /* before the boot-time CPU scaling */
	unsigned int features;
	const struct sched_class *sched_class; /* the policy every task runs under */
	enum sched_knob_set knobs;
};

/* NULL when there is no profile of that name. */
const struct sched_profile *sched_profile_find(const char *name);
const struct sched_profile *sched_profile_default(void);
/* "2.6.28, 6.1, eevdf, 6.6": for error messages and --help. */
const char *sched_profile_names(void);

/* The kernel's sched_init_granularity(): the factor 1 + ilog2(ncpus) the defaults are scaled by. */
unsigned int sched_tunable_factor(const struct sched_profile *profile, unsigned int ncpus);

/* The profile's defaults as the kernel would show them after booting on ncpus CPUs. */
struct sched_tunables sched_tunables_default(const struct sched_profile *profile,
					     unsigned int ncpus);

/* Recomputes nr_latency after a knob changed (the kernel's sched_proc_update_handler); 0 without
 * a min_granularity (EEVDF). */
void sched_tunables_update(struct sched_tunables *tun);

#endif
