/*
 * sched_tasks.h - setting up tasks by hand in the tests of the CFS policy (kernel-extract/): a task
 * that exists on a CPU, and one queued there at a vruntime the test chooses, so that the test
 * knows the tree's order without running the placement code under test.
 *
 * The tasks are the caller's (usually on its stack); nothing here allocates.
 */
#ifndef TESTS_SUPPORT_SCHED_TASKS_H
#define TESTS_SUPPORT_SCHED_TASKS_H

#include "kernel-extract/sched_core.h"
#include "kernel-extract/sched_fair.h"

/* p forked (pid, nice) onto cpu of sys, not queued. */
void new_task(struct sched_system *sys, struct task_struct *p, int pid, int nice, int cpu);

/* p forked onto cpu, runnable and queued at vruntime (no placement). It has never run
 * (exec_start 0). */
void queue_at(struct sched_system *sys, struct task_struct *p, int pid, int nice, int cpu,
	      u64 vruntime);

#endif /* TESTS_SUPPORT_SCHED_TASKS_H */
