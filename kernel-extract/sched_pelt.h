/*
 * sched_pelt.h - per-entity load tracking, the decayed load averages the wakeup placement of
 * 6.1 and 6.18 (wake_affine) weighs, as the kernel's kernel/sched/pelt.h declares them; the code is in
 * sched_fair.c, as the kernel's update_load_avg is in fair.c. Apart from sched_fair.h so that
 * balancing (sched_balance.c) can read the averages without depending on the fair class.
 */
#ifndef KERNEL_EXTRACT_SCHED_PELT_H
#define KERNEL_EXTRACT_SCHED_PELT_H

#include "kernel-extract/sched.h"

/* PELT (the wakeup placement of 6.1 and 6.18): brings the averages up to now, and reads them. */
#define PELT_HALFLIFE_NS (32 * 1024 * NSEC_PER_USEC)
void update_cfs_rq_load_avg(struct cfs_rq *cfs_rq, u64 now);
void update_se_load_avg(struct sched_entity *se, u64 now);
double cfs_rq_load_avg(struct cfs_rq *cfs_rq);
double task_load_avg(struct task_struct *p);

/*
 * What a fair class (CFS or EEVDF) calls to keep the averages: whether the profile tracks them
 * (its wakeup placement reads them), settling se and its queue up to now before either changes,
 * and counting se in its queue's average or taking it out (a migration).
 */
bool pelt_on(struct cfs_rq *cfs_rq);
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);

#endif
