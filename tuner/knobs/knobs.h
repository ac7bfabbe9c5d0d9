/*
 * knobs.h - the tuner's one vocabulary of CFS knobs.
 *
 * A setting of the knobs is a Knobs; a knob is named by enum knob; everything else the tuner
 * needs to know of a knob is in its struct knob_info: the name it goes by in flags, files and
 * reports, where a live kernel keeps it (sysctl before 5.13, debugfs from 5.13 to 6.5), and its
 * sysctl range. The ranges and the profiles' defaults are kernel facts and live in kernel-extract/
 * (sched_features.h, sched_tunables.c); this header only names them for the tuner, so no other
 * tuner module spells out a knob's name, file or range.
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
 * One setting of the three CFS knobs, in nanoseconds. Integers rather than doubles: the kernel
 * only accepts integers, and exact integers make journal keys that compare reliably. Optimizers
 * that search a continuous (or log) space round to this at the end.
 */
typedef struct {
	guint64 latency_ns;
	guint64 min_granularity_ns;
	guint64 wakeup_granularity_ns;
} Knobs;

/* The knobs, in the order of Knobs' fields: the order of every table, column and dimension. */
enum knob {
	KNOB_LATENCY,
	KNOB_MIN_GRANULARITY,
	KNOB_WAKEUP_GRANULARITY,
	KNOB_COUNT
};

struct knob_info {
	const char *name;    /* "latency": in flags and messages */
	const char *column;  /* "latency_ns": in CSV columns, JSON keys and journals */
	const char *sysctl;  /* "sched_latency_ns", under /proc/sys/kernel (kernels before 5.13) */
	const char *debugfs; /* "latency_ns", under /sys/kernel/debug/sched (5.13 to 6.5) */
	guint64 min_ns;	     /* the sysctl range, inclusive */
	guint64 max_ns;
};

const struct knob_info *knob_info(enum knob k);
/* knob_info(k)->name. */
const char *knob_name(enum knob k);
/* A knob by its name, with or without the _ns suffix. */
bool knob_from_name(const char *name, enum knob *out);
/* "latency, min_granularity or wakeup_granularity", for error messages. */
const char *knob_names_list(void);

double knob_get(const Knobs *k, enum knob which);
/* Set one knob from a double, rounded to whole nanoseconds. */
void knob_set(Knobs *k, enum knob which, double value);

/* value, moved into knob k's sysctl range. */
double knob_clamp(enum knob k, double value);
/* True when every knob of k is inside its sysctl range. */
bool knobs_in_range(const Knobs *k);

/* The knobs a kernel of profile (2.6.28, 6.1) boots with on ncpus CPUs, as sysctl shows them. */
Knobs knobs_profile_default(const struct sched_profile *profile, unsigned int ncpus);

/* Sets the simulation's tunables to k, the others as they are; sched_tunables_update() then
 * derives what follows from them (the inverse of knobs_profile_default). */
void knobs_apply(const Knobs *k, struct sched_tunables *tun);

G_END_DECLS

#endif
