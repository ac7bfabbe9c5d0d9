/*
 * host_stalls.h - where a host's stalls of a guest's virtual CPUs fall in the guest's schedule:
 * a host's trace of the vCPU threads lined up with the guest's own trace of the same time
 * (tuner stalls; README.md "Fidelity", "Where the host's stalls fall").
 *
 * The host's trace (`perf record -a -e sched:sched_switch` on the host, then `perf script`) gives
 * each vCPU thread's runs: qemu names them "CPU N/TCG" or "CPU N/KVM", N the guest's CPU. A stall
 * of guest CPU N is a gap of at least min_stall between two runs of its thread; it was preempted
 * when the thread left its run runnable ('R'), else it waited. The guest's trace (tracefs, as
 * vm/'s traced runs print it) gives the guest's runs and its events.
 *
 * The two clocks differ by an offset, found from the guest's silences: gaps of at least
 * min_stall between two events of one guest CPU. A stall of that CPU's vCPU lies inside such a
 * silence, which is a little longer (the last event before the stall and the first after it fall
 * in the runs around it). The offset is the one that lines up most silences with a stall of
 * nearly the same length: a vote of the silences for the differences of their starts and the
 * stalls' starts finds it to half a millisecond. Each silence lined up with a stall then bounds
 * it, since the stall begins after the guest's last event and ends before its next: stall start
 * - silence start >= offset >= stall end - silence end. offset_lo and offset_hi are the range
 * the most pairs allow, and offset its middle; lining up again at that offset, within 0.5 and
 * then 0.25 ms at both ends, narrows it (a pair lined up with the wrong stall allows a range
 * elsewhere, which few others share).
 *
 * Then every stall whose start falls inside the guest's trace is placed in the guest's run that
 * was on its CPU at that moment: a sender's, a receiver's or the parent's (roles as trace_stats.h
 * finds them), another task's, or idle. Beside the count, each kind's run time in runs shorter
 * than min_stall (runs that a stall did not stretch): stalls per second of that time say whether
 * the host takes the vCPU more often during some runs than others, where random stalls would
 * give every kind the same rate. Stalls that begin at fixed moments (a host's ticks) give rates
 * that also tell what the guest runs at those moments, against what it runs at others: given the
 * host's tick, the stalls' starts and each kind's short-run time are also counted by phase of it
 * (the host's clock modulo the tick, in HOST_STALL_PHASES parts), which shows both.
 *
 * How the host shares its CPUs shows in the vCPU threads alone: how many ran at once, against
 * what independent stalls of the same shares would give (two threads on one host CPU never run
 * at once; two beside a busy loop each, on a CPU each, run at once as often as by chance); and,
 * given the tick, how many ticks their runs and stalls last (a host that switches at its ticks
 * runs and stalls them whole ticks: linsched --host-hz).
 */
#ifndef TUNER_FIDELITY_HOST_STALLS_H
#define TUNER_FIDELITY_HOST_STALLS_H

#include <glib.h>

#include "tuner/fidelity/trace_stats.h"

G_BEGIN_DECLS

/* What a stall began in: the TraceRoles, then any other task, then idle. */
enum {
	HOST_STALL_OTHER = TRACE_ROLE_N,
	HOST_STALL_IDLE,
	HOST_STALL_KINDS
};

/* With the host's tick given, the stalls' starts and the guest's short runs by phase of it: the
 * host's clock modulo the tick, in this many equal parts. */
#define HOST_STALL_PHASES 20

/* With the host's tick given, the vCPUs' runs between stalls and the stalls by length in whole
 * host ticks (rounded): 0, 1, 2, 3, and 4 or more. */
#define HOST_STALL_TICKS 5

/* How many vCPU threads ran at once: 0 to 8, and 9 or more. */
#define HOST_STALL_AT_ONCE 10

typedef struct {
	guint vcpus;			 /* vCPU threads of the guest's CPUs found on the host */
	double offset_s;		 /* host clock - guest clock */
	double offset_lo_s, offset_hi_s; /* the range the lined-up stalls allow */
	guint silences;			 /* the guest's silences */
	guint matched;	 /* those with a stall of their vCPU, both ends within 1 ms */
	guint stalls;	 /* the host's stalls that begin inside the guest's trace */
	guint preempted; /* of those, the vCPU thread left runnable */
	guint began_in[HOST_STALL_KINDS];
	double run_s[HOST_STALL_KINDS]; /* time in runs shorter than min_stall */
	guint64 tick_ns;		/* the host's tick, 0: not given (no phases) */
	guint stall_phase[HOST_STALL_PHASES];
	double run_phase_s[HOST_STALL_KINDS][HOST_STALL_PHASES];
	/*
	 * The host's side of the guest's time (the guest's trace on the host's clock): the share of
	 * it during which k vCPU threads ran at once (a thread runs from the end of one stall to
	 * the start of the next), and the shares that threads stalled independently of each other
	 * would give, each as much as it did. With the tick, the vCPUs' runs (from one stall to
	 * the next, both inside) and stalls by length in ticks, and their mean lengths in ticks.
	 */
	double at_once[HOST_STALL_AT_ONCE], at_once_independent[HOST_STALL_AT_ONCE];
	guint run_ticks[HOST_STALL_TICKS], stall_ticks[HOST_STALL_TICKS];
	double run_mean_ticks, stall_mean_ticks; /* NaN: none */
} HostStalls;

#define HOST_STALLS_ERROR (host_stalls_error_quark())
GQuark host_stalls_error_quark(void);

/* FALSE with a one-line error when the host has no vCPU thread of the guest's CPUs, two threads
 * for one of them (two guests), or no silence lines up with a stall. */
gboolean host_stalls_compute(const TraceTimeline *host, const TraceTimeline *guest,
			     guint64 min_stall_ns, guint64 host_tick_ns, HostStalls *out,
			     GError **error);

/* "sender", "receiver", "parent", "other task", "idle". */
const char *host_stall_kind_name(guint kind);

G_END_DECLS

#endif /* TUNER_FIDELITY_HOST_STALLS_H */
