/*
 * sched_balance.h - where tasks run (kernel-extract/sched_balance.c): wakeup and fork placement,
 * periodic and idle load balancing. Both fair classes (CFS and EEVDF) share them, as the kernel's
 * fair.c keeps its balancing across the change of policy; they read only queue weights, task
 * counts and the timeline's order.
 */
#ifndef KERNEL_EXTRACT_SCHED_BALANCE_H
#define KERNEL_EXTRACT_SCHED_BALANCE_H

#include <stdbool.h>

#include "kernel-extract/sched.h"
#include "kernel-extract/sched_class.h"

int select_task_rq_fair(struct sched_system *sys, struct task_struct *p, int prev_cpu, int this_cpu,
			int sd_flag, int wake_flags);
int idle_balance(struct rq *rq);
void trigger_load_balance(struct rq *rq);
/* Pulls tasks from the busiest queue of sd into rq; returns how many moved. */
int load_balance(struct rq *rq, struct sched_domain *sd, enum cpu_idle_type idle);
/* A queued task that ran within migration_cost is cache hot and should stay where it is. */
bool task_hot(const struct task_struct *p, u64 now, const struct sched_tunables *tun);

#endif
