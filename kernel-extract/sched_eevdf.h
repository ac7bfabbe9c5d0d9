/*
 * sched_eevdf.h - Earliest Eligible Virtual Deadline First, the fair class of Linux 6.6 and later,
 * after the kernel's kernel/sched/fair.c (6.6 to 6.18) and Documentation/scheduler/sched-eevdf.rst.
 * The engine reaches it only through eevdf_sched_class; the functions below are exposed so that
 * the tests can check each rule by itself.
 *
 * The rules, in the kernel's terms:
 *   - Every entity has a vruntime, as in CFS, and a request: its slice (base_slice, or its own).
 *   - V = avg_vruntime(): the weighted mean vruntime of the queue, curr included.
 *   - lag_i = w_i (V - v_i). An entity is eligible when its lag is not negative: v_i <= V, tested
 *     exactly as sum_j w_j (v_j - v0) >= (v_i - v0) sum_j w_j, v0 being min_vruntime.
 *   - Its virtual deadline is v_i + slice * NICE_0_LOAD / w_i, renewed from its vruntime when the
 *     vruntime reaches it (update_deadline), which also asks for a reschedule.
 *   - pick_eevdf() runs the eligible entity with the earliest deadline. The timeline is ordered by
 *     deadline; every node holds the least vruntime of its subtree, so the search skips subtrees
 *     with nothing eligible: O(log n).
 *   - RUN_TO_PARITY: once picked, curr keeps the CPU while eligible until its protected slice
 *     (vprot) ends: its deadline, or sooner if a queued entity asks for a shorter slice.
 *   - PLACE_LAG: a task that leaves the queue keeps its lag (clamped) and gets it back when it
 *     returns, scaled for the weight it then adds to the queue, so that V does not move.
 *   - DELAY_DEQUEUE: a task that blocks with negative lag stays queued, never run, until it is
 *     picked (its lag is then paid) or woken; the pick then removes it for good.
 *
 * Units: as in sched.h. Weights are the table's (nice 0 = 1024), the kernel's scale_load_down().
 */
#ifndef KERNEL_EXTRACT_SCHED_EEVDF_H
#define KERNEL_EXTRACT_SCHED_EEVDF_H

#include <stdbool.h>

#include "kernel-extract/sched.h"
#include "kernel-extract/sched_balance.h"
#include "kernel-extract/sched_class.h"

/* The weighted mean vruntime of the queue, curr included (rounded down). */
u64 avg_vruntime(struct cfs_rq *cfs_rq);
/* Would an entity at this vruntime be eligible on cfs_rq? Exact, no division. */
bool vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);
bool entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);

/* Adds and removes se from the timeline and the average's sums (not from nr_running or load). */
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);

/*
 * The eligible entity with the earliest deadline, curr included; with protect, a protected curr
 * (RUN_TO_PARITY) is kept. pick_eevdf() protects.
 */
struct sched_entity *__pick_eevdf(struct cfs_rq *cfs_rq, bool protect);
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq);

/* Once se's vruntime has reached its deadline: a new deadline one slice on. True if renewed. */
bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se);
/* Saves se's lag, clamped, in se->vlag. */
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se);

/* The least and greatest slice asked for on cfs_rq, curr included. */
u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq);
u64 cfs_rq_max_slice(struct cfs_rq *cfs_rq);

/* RUN_TO_PARITY's protection of a newly picked se, and whether it still holds. */
void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se);
bool protect_slice(const struct sched_entity *se);

#endif
