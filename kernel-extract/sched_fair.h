/*
 * sched_fair.h - the CFS functions, named after the kernel's kernel/sched_fair.c, exposed so the
 * tests can check each rule by itself. The engine reaches them only through the system's sched_class.
 */
#ifndef KERNEL_EXTRACT_SCHED_FAIR_H
#define KERNEL_EXTRACT_SCHED_FAIR_H

#include "kernel-extract/sched.h"
#include "kernel-extract/sched_balance.h"
#include "kernel-extract/sched_class.h"
#include "kernel-extract/sched_pelt.h"

void update_curr(struct cfs_rq *cfs_rq);

void update_min_vruntime(struct cfs_rq *cfs_rq);

/* The period in which every one of nr runnable tasks runs once. */
u64 __sched_period(const struct sched_tunables *tun, unsigned long nr_running);
/* se's share of the period: its wall-time slice, and that slice in se's virtual time. */
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se);

void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq);
struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq);
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev);

void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr);
/* -1: se may not preempt curr (it is not behind); 0: behind by at most the granularity; 1: preempt. */
int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se);
void check_preempt_wakeup(struct rq *rq, struct task_struct *p, int wake_flags);

#endif
