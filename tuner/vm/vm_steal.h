/*
 * vm_steal.h - how much of its virtual CPUs' time a guest lost to the host, seen from the host.
 *
 * Under qemu (TCG or KVM) each virtual CPU is a host thread. While that thread is runnable but
 * not running, the guest's CPU executes nothing, yet its clock goes on: the guest charges the
 * gap to whatever task it was running. That is steal (the guest kernel of vm/ has no steal-time
 * accounting to subtract it), and on a loaded host it changes how the guest schedules as much as
 * the knobs do. The host kernel counts it exactly: /proc/PID/task/TID/schedstat holds each
 * thread's time on a CPU and its time waiting for one, and .../status how often it was preempted
 * (nonvoluntary_ctxt_switches). Between two samples the steal is wait / (run + wait), and a stall
 * lasts wait / preemptions on average: a preempted vCPU waits for its turn; one that halted
 * (an idle guest CPU) and is woken waits too, mostly briefly, and that wait is counted in the
 * total but not as a stall of its own.
 *
 * qemu names its vCPU threads "CPU N/TCG" (or /KVM) when started with -name ...,debug-threads=on.
 */
#ifndef TUNER_VM_VM_STEAL_H
#define TUNER_VM_VM_STEAL_H

#include <glib.h>

G_BEGIN_DECLS

/* The vCPU threads' schedstat, summed. */
typedef struct {
	guint64 run_ns;	     /* on a host CPU */
	guint64 wait_ns;     /* runnable, waiting for one */
	guint64 preemptions; /* times preempted (nonvoluntary context switches) */
	guint threads;	     /* vCPU threads found */
} VmCpuTime;

/* Samples the vCPU threads of qemu process pid; FALSE when none can be read. */
gboolean vm_cpu_time_sample(GPid pid, VmCpuTime *out);

/* Steal between two samples of the same threads, in parts per million of the time the vCPUs
 * wanted to run, and the mean stall in ns; FALSE when they ran and waited for no time at all. */
gboolean vm_cpu_time_steal(const VmCpuTime *before, const VmCpuTime *after, guint64 *steal_ppm,
			   guint64 *stall_ns);

G_END_DECLS

#endif
