/*
 * knobs.h - the tuner's one vocabulary of scheduler knobs.
 *
 * A setting of the knobs is a Knobs; a knob is named by enum knob; everything else the tuner
 * needs to know of a knob is in its struct knob_info: the name it goes by in flags, files and
 * reports, where a live kernel keeps it (sysctl before 5.13, debugfs from 5.13), its range and
 * which kernels have it. The ranges and the profiles' defaults are kernel facts and live in
 * kernel-extract/ (sched_features.h, sched_tunables.c); this header only names them for the tuner,
 * so no other tuner module spells out a knob's name, file or range.
 *
 * Five knobs: CFS's three granularities (kernels before 6.6: the 2.6.28 and 6.1 profiles),
 * migration_cost (every kernel: how recently a task ran for it to count as cache hot) and EEVDF's
 * base_slice (6.6 and later: the eevdf profiles; debugfs only).
 *
 * A run searches a *knob set* (KnobSet): the knobs it controls. Knobs outside it stay where the
 * workload puts them (the profile's defaults): knobs_apply() leaves them alone, and files and
 * reports carry only the set's columns. The default set is a profile's own tunables: the three
 * granularities under CFS, base_slice under EEVDF; migration_cost joins when asked.
 *
 * Units: nanoseconds, as the kernel's files take them.
 */
#ifndef TUNER_KNOBS_KNOBS_H
#define TUNER_KNOBS_KNOBS_H

#include <stdbool.h>

#include <glib.h>

#include "kernel-extract/sched_features.h"

G_BEGIN_DECLS

/*
 * One setting of the knobs, in nanoseconds; a field outside the run's set is meaningless.
 * Integers rather than doubles: the kernel only accepts integers, and exact integers make journal
 * keys that compare reliably. Optimizers that search a continuous (or log) space round to this at
 * the end.
 */
typedef struct {
	guint64 latency_ns;
	guint64 min_granularity_ns;
	guint64 wakeup_granularity_ns;
	guint64 migration_cost_ns;
	guint64 base_slice_ns;
} Knobs;

/* A Knobs initializer of the three CFS knobs, the others 0. */
#define KNOBS_CFS(latency, min_granularity, wakeup_granularity)                   \
	{                                                                         \
		.latency_ns = (latency), .min_granularity_ns = (min_granularity), \
		.wakeup_granularity_ns = (wakeup_granularity)                     \
	}

/* The knobs, in the order of Knobs' fields: the order of every table, column and dimension. */
enum knob {
	KNOB_LATENCY,
	KNOB_MIN_GRANULARITY,
	KNOB_WAKEUP_GRANULARITY,
	KNOB_MIGRATION_COST,
	KNOB_BASE_SLICE,
	KNOB_COUNT
};

/* CFS's granularities are the first KNOB_CFS_COUNT knobs: what SchedPeriod's discovery rules, the
 * VM's 6.1 guest and the fidelity study set. */
#define KNOB_CFS_COUNT 3

/* A set of knobs: bit 1 << k for knob k. */
typedef guint KnobSet;
#define KNOB_BIT(k) (1U << (k))
#define KNOB_SET_CFS                                               \
	(KNOB_BIT(KNOB_LATENCY) | KNOB_BIT(KNOB_MIN_GRANULARITY) | \
	 KNOB_BIT(KNOB_WAKEUP_GRANULARITY))
#define KNOB_SET_ALL (KNOB_BIT(KNOB_COUNT) - 1)

struct knob_info {
	const char *name;    /* "latency": in flags and messages */
	const char *column;  /* "latency_ns": in CSV columns, JSON keys and journals */
	const char *sysctl;  /* "sched_latency_ns", under /proc/sys/kernel (kernels before 5.13);
			      * NULL: the knob came after 5.13 (base_slice) */
	const char *debugfs; /* "latency_ns", under /sys/kernel/debug/sched (5.13 on) */
	guint64 min_ns;	     /* the range the kernel accepts (or the tuner's, migration_cost) */
	guint64 max_ns;
	unsigned int kernels; /* bit 1 << enum sched_knob_set: the profiles' kernels that have it */
};

const struct knob_info *knob_info(enum knob k);
/* knob_info(k)->name. */
const char *knob_name(enum knob k);
/* A knob by its name, with or without the _ns suffix. */
bool knob_from_name(const char *name, enum knob *out);
/* "latency, min_granularity, wakeup_granularity, migration_cost or base_slice", for messages. */
const char *knob_names_list(void);
/* "latency, min_granularity or wakeup_granularity": CFS's three, for messages. */
const char *knob_cfs_names_list(void);

/* Whether the kernels of profile have knob k (latency under eevdf: no). */
bool knob_in_profile(enum knob k, const struct sched_profile *profile);
/* The profile's own tunables: the three granularities (CFS) or base_slice (EEVDF). */
KnobSet knob_set_default(const struct sched_profile *profile);
/* The knobs of set, in enum order. */
unsigned int knob_set_count(KnobSet set);
/* "latency,min_granularity,wakeup_granularity": the set's names joined by sep (g_free). */
char *knob_set_names(KnobSet set, const char *sep);
/*
 * --knobs NAMES: comma-separated knob names (with or without _ns), each once, at least one, each a
 * knob of profile (NULL: any knob). False with a one-line error that starts with "--knobs: ".
 */
bool knob_set_parse(const char *text, const struct sched_profile *profile, KnobSet *out,
		    GError **error);

/* "latency_ns=V min_granularity_ns=V ...": the knobs of set in k, for messages (g_free). */
char *knobs_describe(const Knobs *k, KnobSet set);

double knob_get(const Knobs *k, enum knob which);
/* Set one knob from a double, rounded to whole nanoseconds. */
void knob_set(Knobs *k, enum knob which, double value);

/* value, moved into knob k's sysctl range. */
double knob_clamp(enum knob k, double value);
/* True when every knob of k is inside its range. */
bool knobs_in_range(const Knobs *k);

/* The knobs a kernel of profile boots with on ncpus CPUs, as sysctl or debugfs shows them (those
 * the profile lacks are 0). */
Knobs knobs_profile_default(const struct sched_profile *profile, unsigned int ncpus);
/* The knobs of tunables tun (what a simulation was configured with). */
Knobs knobs_from_tunables(const struct sched_tunables *tun);

/* Sets the simulation's tunables of the knobs of set to k, the others as they are;
 * sched_tunables_update() then derives what follows from them. */
void knobs_apply(const Knobs *k, KnobSet set, struct sched_tunables *tun);

G_END_DECLS

#endif
