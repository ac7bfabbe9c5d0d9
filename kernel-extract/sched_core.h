/*
 * sched_core.h - the policy-independent core of the scheduler, after the kernel's kernel/sched.c:
 * creating the per-CPU run queues and the domain topology, forking, waking, the tick, and the pick
 * half of schedule(). The engine (linsched/) owns time and task behaviour and calls these; they
 * call the task's sched_class.
 */
#ifndef KERNEL_EXTRACT_SCHED_CORE_H
#define KERNEL_EXTRACT_SCHED_CORE_H

#include <stdbool.h>

#include "kernel-extract/sched.h"
#include "kernel-extract/sched_class.h"

/*
 * Builds nr_cpus run queues in nr_nodes memory domains (CPU i is in domain i * nr_nodes /
 * nr_cpus), with the load-balancing domains over them. nr_cpus must be 1..SCHED_MAX_CPUS and a
 * multiple of nr_nodes. The profile gives the feature flags and the class every task runs under;
 * tun the knobs (which may differ from the profile's defaults). Returns false on a bad topology.
 */
bool sched_system_init(struct sched_system *sys, unsigned int nr_cpus, unsigned int nr_nodes,
		       const struct sched_tunables *tun, const struct sched_profile *profile);
void sched_system_destroy(struct sched_system *sys);

/* Prepares a task for its first enqueue: nice, weight, the system's class (the kernel's sched_fork). */
void sched_fork(struct sched_system *sys, struct task_struct *p, int pid, int nice);
/*
 * What a child keeps of its parent: the kernel's fork copies the whole task, and sched_fork
 * resets its run-time state but not its wakee history (wakee_flips, last_wakee and the stamp of
 * their last decay), which wake_wide weighs. A child that seldom wakes anyone keeps its parent's
 * flips, since they decay only when it wakes.
 */
void sched_fork_inherit(struct task_struct *p, const struct task_struct *parent);

/*
 * The part of sched_setattr() that sets a fair task's own slice, sched_runtime, in ns (0: the base
 * slice again). Only before the task's first enqueue; only EEVDF's 6.12+ profiles use it.
 */
void sched_setattr_runtime(struct task_struct *p, u64 runtime);

/* Places a new task on the CPU fork balancing chooses and makes it runnable. */
void wake_up_new_task(struct sched_system *sys, struct task_struct *p, int this_cpu);

/*
 * Makes a sleeping task runnable on the CPU select_task_rq chooses (or, if its class left it
 * queued, where it is); this_cpu is where the waker runs. Returns false if p was not asleep.
 */
bool try_to_wake_up(struct sched_system *sys, struct task_struct *p, int this_cpu, int wake_flags);

/* The scheduler tick of a CPU that is running a task. */
void scheduler_tick(struct rq *rq);

/*
 * The policy half of schedule(): rq->curr stops (dequeued first if it is no longer
 * TASK_RUNNING), idle balancing runs if the queue is empty, and the next task is picked. Returns
 * the task that now runs (NULL: idle), which may be the same as before. Statistics (sched_info,
 * context-switch counts) are updated when the running task changes.
 */
struct task_struct *schedule(struct rq *rq);

static inline bool idle_cpu(const struct rq *rq)
{
	return rq->curr == NULL && rq->nr_running == 0;
}

#endif
