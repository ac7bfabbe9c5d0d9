/*
 * sched_fair.h - the CFS functions, named after the kernel's kernel/sched_fair.c, exposed so the
 * tests can check each rule by itself. The engine uses fair_sched_class (sched_class.h) instead.
 */
#ifndef KERNEL_EXTRACT_SCHED_FAIR_H
#define KERNEL_EXTRACT_SCHED_FAIR_H

#include "kernel-extract/sched.h"
#include "kernel-extract/sched_class.h"

static inline struct task_struct *task_of(const struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}

static inline struct rq *rq_of(const struct cfs_rq *cfs_rq)
{
	return container_of(cfs_rq, struct rq, cfs);
}

/* Time comparisons that survive u64 wrap-around, as the kernel's are. */
static inline u64 max_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) > 0 ? b : a;
}

static inline u64 min_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) < 0 ? b : a;
}

/* delta of real time as virtual time of se: delta * NICE_0_LOAD / weight. */
u64 calc_delta_fair(u64 delta, struct sched_entity *se);

void update_curr(struct cfs_rq *cfs_rq);

/* PELT (6.1's wakeup placement): brings the averages up to now, and reads them. */
#define PELT_HALFLIFE_NS (32 * 1024 * NSEC_PER_USEC)
void update_cfs_rq_load_avg(struct cfs_rq *cfs_rq, u64 now);
void update_se_load_avg(struct sched_entity *se, u64 now);
double cfs_rq_load_avg(struct cfs_rq *cfs_rq);
double task_load_avg(struct task_struct *p);
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

/* kernel-extract/sched_balance.c */
int select_task_rq_fair(struct sched_system *sys, struct task_struct *p, int prev_cpu, int this_cpu,
			int sd_flag, int wake_flags);
int idle_balance(struct rq *rq);
void trigger_load_balance(struct rq *rq);
/* Pulls tasks from the busiest queue of sd into rq; returns how many moved. */
int load_balance(struct rq *rq, struct sched_domain *sd, enum cpu_idle_type idle);
/* A queued task that ran within migration_cost is cache hot and should stay where it is. */
bool task_hot(const struct task_struct *p, u64 now, const struct sched_tunables *tun);

#endif
