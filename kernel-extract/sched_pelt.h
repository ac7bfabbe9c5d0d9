/*
 * sched_pelt.h - per-entity load tracking, the decayed load averages 6.1's wakeup placement
 * (wake_affine) weighs, as the kernel's kernel/sched/pelt.h declares them; the code is in
 * sched_fair.c, as the kernel's update_load_avg is in fair.c. Apart from sched_fair.h so that
 * balancing (sched_balance.c) can read the averages without depending on the fair class.
 */
#ifndef KERNEL_EXTRACT_SCHED_PELT_H
#define KERNEL_EXTRACT_SCHED_PELT_H

#include "kernel-extract/sched.h"

/* PELT (6.1's wakeup placement): brings the averages up to now, and reads them. */
#define PELT_HALFLIFE_NS (32 * 1024 * NSEC_PER_USEC)
void update_cfs_rq_load_avg(struct cfs_rq *cfs_rq, u64 now);
void update_se_load_avg(struct sched_entity *se, u64 now);
double cfs_rq_load_avg(struct cfs_rq *cfs_rq);
double task_load_avg(struct task_struct *p);

#endif
