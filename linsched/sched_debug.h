/*
 * sched_debug.h - the invariant-checking build: with -DSCHED_DEBUG the engine checks, after every
 * event it handles (linsched/sim.c's main loop), that the scheduler's state is consistent:
 *
 *   - each run queue's tree is a valid red-black tree (the root black, no red node with a red
 *     child, the same number of black nodes on every path, parent links that match), its entities
 *     in vruntime order (as entity_before compares them, by signed difference), its cached
 *     leftmost the first node; under EEVDF in virtual deadline order instead, every node's
 *     subtree summary (least vruntime, least and greatest slice) that of its subtree, and the
 *     sums behind V (sum (v - min_vruntime) w and sum w over the tree) exact;
 *   - cfs.nr_running and cfs.load.weight equal the count and the sum of weights of the queued
 *     entities (the tree, plus curr while it is on the queue), and rq->nr_running agrees;
 *   - cfs.min_vruntime never decreases from one event to the next;
 *   - every task is in exactly one place: running (the curr of exactly one run queue, on_cpu),
 *     queued (in exactly one tree, on_rq), blocked or asleep (TASK_INTERRUPTIBLE: in no tree and
 *     no queue's curr; under EEVDF's DELAY_DEQUEUE, in exactly one tree while sched_delayed),
 *     new or exited (likewise nowhere). The scheduler cannot tell a task blocked
 *     on a wait queue from one asleep on a timer; both are off every run queue, which is checked.
 *
 * A violation is a bug in the policy or the engine: the check prints what is wrong and aborts
 * (g_error), so that the workload's seed reproduces it. The check walks every queue and task, so
 * a debug build is slow; `make check` runs its own workloads under it (build/debug).
 *
 * The state (the last min_vruntime of each CPU, a count of checks) is per simulation, in struct
 * sched_debug, which the engine embeds; nothing is global.
 */
#ifndef LINSCHED_SCHED_DEBUG_H
#define LINSCHED_SCHED_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel-extract/sched.h"

struct sched_debug {
	uint64_t checks;		       /* events checked so far */
	uint64_t min_vruntime[SCHED_MAX_CPUS]; /* at the last check */
};

/*
 * Check one run queue: its tree, counts and load. FALSE with *why (g_free) saying what is wrong.
 * On its own so that tests can hand it a corrupted queue.
 */
bool sched_debug_check_rq(const struct rq *rq, char **why);

/* Check the whole system (every run queue, min_vruntime against the last check) and the place of
 * each of the nr_tasks tasks. FALSE with *why (g_free) saying what is wrong. */
bool sched_debug_check(struct sched_debug *dbg, const struct sched_system *sys,
		       const struct task_struct *const *tasks, unsigned int nr_tasks, char **why);

/* sched_debug_check, aborting with the message (and seed, to reproduce it) on a violation: the
 * engine's call. */
void sched_debug_assert(struct sched_debug *dbg, const struct sched_system *sys,
			const struct task_struct *const *tasks, unsigned int nr_tasks,
			uint64_t seed);

#endif /* LINSCHED_SCHED_DEBUG_H */
