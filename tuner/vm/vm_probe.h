/*
 * vm_probe.h - `linsched probe` inside the real-kernel VM: the plan that runs it several times in
 * one boot, and the machine.ini those probes make together (SPEC.md §7, issue 13 item 1).
 *
 * `make vm` puts the static probe (bin/linsched-probe-static) into the initramfs as
 * /usr/local/bin/linsched-probe-static, and says so in the cache's initramfs.txt. A probe plan
 * runs it warmups + probes times, one run per round, each writing its machine.ini on stdout
 * (`--out -`), which the guest passes on as the run's output lines; the warm-up rounds (the first
 * `warmups`) are left out: the first probe of a boot runs on cold caches and a just-booted
 * emulator. The knobs stay at the kernel's defaults for the guest's CPUs.
 *
 * Combining: every whole-number value of [machine], [costs] and [capacity] is the median of the
 * probes (the mean of the middle two, rounded, for an even count), in the order of the first
 * probe's file; kernel and preempt (the kernel's preemption model, a word) are the first
 * probe's that has them. The new [spread] holds, for each cost, its lowest and
 * highest probe (KEY_min, KEY_max) and the median of the probes' own quartiles (KEY_q1, KEY_q3),
 * and the number of probes (probes). A probe whose run failed or whose output is not a
 * machine.ini is left out and counted; with none left the combination fails. A value that fewer
 * than half of the probes wrote is left out, with a comment.
 *
 * The probes' rings (the [spread] ring_rise_ns_N of `linsched probe`) combine into one curve,
 * vm_probe_rings, from which the caller draws the task cache (linsched/cli/probe_ring.h) and puts
 * it in place of the probes' own caches, whose medians would mix shapes (vm_probe_set_costs).
 *
 * Ownership: the caller's (vm_probe_result_free).
 */
#ifndef TUNER_VM_VM_PROBE_H
#define TUNER_VM_VM_PROBE_H

#include <glib.h>

#include "tuner/vm/vm_plan.h"

G_BEGIN_DECLS

#define VM_PROBE_PROGRAM "linsched-probe-static"

#define VM_PROBE_ERROR (vm_probe_error_quark())
GQuark vm_probe_error_quark(void);

typedef enum {
	VM_PROBE_ERROR_SETUP, /* the initramfs has no probe: run make vm */
	VM_PROBE_ERROR_INPUT, /* no probe gave a machine.ini */
} VmProbeError;

typedef struct {
	guint probes;  /* kept, >= 1 */
	guint warmups; /* left out, first */
	guint trials;  /* the probe's --trials */
	gboolean quick;
	guint cpus; /* the guest's vCPUs: whose default knobs the plan keeps */
} VmProbeOptions;

/* The plan: setting "probe" for warmups + probes rounds. */
VmPlan *vm_probe_plan(const VmProbeOptions *o, GError **error);

/* TRUE when the cache's initramfs.txt lists the probe; else VM_PROBE_ERROR_SETUP. */
gboolean vm_probe_in_initramfs(const char *cache_dir, GError **error);

/* One value over the probes. */
typedef struct {
	char *group, *key;
	GArray *values; /* double, one per probe that has the key */
	double median, min, max;
} VmProbeValue;

typedef struct {
	guint probes;	   /* combined */
	guint left_out;	   /* outputs that were no machine.ini */
	char *kernel;	   /* the first probe's [machine] kernel, or NULL */
	char *preempt;	   /* the first probe's [machine] preempt (its model), or NULL */
	GPtrArray *values; /* VmProbeValue *: [machine], [costs], [capacity] */
	GPtrArray *spread; /* VmProbeValue *: [spread] keys, medians over the probes */
	char *costs_tail;  /* lines vm_probe_ini adds to [costs], or NULL */
} VmProbeResult;

/* Combines n probe outputs (machine.ini texts; NULL for a failed run). */
VmProbeResult *vm_probe_combine(const char *const *outputs, guint n, GError **error);
void vm_probe_result_free(VmProbeResult *r);

/* The combined machine.ini, after the comment lines of header (each line gets "# "). */
char *vm_probe_ini(const VmProbeResult *r, const char *header);

/*
 * The probes' rings: the sizes measured from 2 up (doubling, as far as a probe measured), each size's
 * median rise over the ring of 2 (rise) and its lowest probe's (low), and the median hop of the
 * ring of 2 (hot). FALSE, and nothing set, with fewer than 3 sizes or no hop.
 */
gboolean vm_probe_rings(const VmProbeResult *r, int *sizes, double *rise, double *low, int max,
			int *n, double *hot);

/* Leaves out [costs] keys drop[0..n) and has vm_probe_ini add tail (whole lines) to [costs]. */
void vm_probe_set_costs(VmProbeResult *r, const char *const *drop, guint n, const char *tail);

/* The value of group/key, or NULL. */
const VmProbeValue *vm_probe_value(const VmProbeResult *r, const char *group, const char *key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(VmProbeResult, vm_probe_result_free)

G_END_DECLS

#endif
