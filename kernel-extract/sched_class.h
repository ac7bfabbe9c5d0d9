/*
 * sched_class.h - the operations a scheduling policy fills in, after the kernel's struct
 * sched_class. The core (sched_core.c) and the engine call only these, so that CFS and EEVDF live
 * side by side without either knowing the other: a sched_system runs the class its profile names,
 * held in its policy field.
 */
#ifndef KERNEL_EXTRACT_SCHED_CLASS_H
#define KERNEL_EXTRACT_SCHED_CLASS_H

#include "kernel-extract/sched.h"

/* enqueue_task / dequeue_task flags */
#define ENQUEUE_WAKEUP	0x01  /* the task was asleep: place it as a sleeper */
#define ENQUEUE_INITIAL 0x80  /* the first enqueue of a new task */
#define ENQUEUE_DELAYED 0x200 /* a blocked task still queued (DELAY_DEQUEUE) wakes up */
#define DEQUEUE_SLEEP	0x01  /* the task goes to sleep (not a migration) */
#define DEQUEUE_SPECIAL 0x10  /* it will never be woken (it exited): no delayed dequeue */
#define DEQUEUE_DELAYED 0x200 /* the delayed dequeue of a blocked task completes */

/* wake flags */
#define WF_SYNC 0x01 /* the waker is about to sleep (a pipe writer waking its reader) */
#define WF_FORK 0x02 /* the first wakeup of a new task */

/* select_task_rq: which balancing the choice serves */
#define SD_BALANCE_WAKE 0x01
#define SD_BALANCE_FORK 0x02

enum cpu_idle_type {
	CPU_IDLE,	/* balancing on behalf of an idle CPU */
	CPU_NOT_IDLE,	/* periodic balancing of a busy CPU */
	CPU_NEWLY_IDLE, /* the CPU is about to go idle */
};

struct sched_class {
	const char *name;

	void (*enqueue_task)(struct rq *rq, struct task_struct *p, int flags);
	/* A class may leave a sleeping task queued (se.on_rq stays 1) and dequeue it later itself. */
	void (*dequeue_task)(struct rq *rq, struct task_struct *p, int flags);
	/* A task was just enqueued on rq: set need_resched if it should run now. */
	void (*check_preempt_curr)(struct rq *rq, struct task_struct *p, int wake_flags);
	/* The next task to run, or NULL; it becomes rq->curr. */
	struct task_struct *(*pick_next_task)(struct rq *rq);
	/* curr stops running (it may still be queued); pick_next_task follows at once. */
	void (*put_prev_task)(struct rq *rq, struct task_struct *p);
	/* The CPU a waking (SD_BALANCE_WAKE) or new (SD_BALANCE_FORK) task should run on. */
	int (*select_task_rq)(struct sched_system *sys, struct task_struct *p, int prev_cpu,
			      int this_cpu, int sd_flag, int wake_flags);
	/* p, not queued, moves to new_cpu: carry its position relative to the queues. */
	void (*migrate_task_rq)(struct sched_system *sys, struct task_struct *p, int new_cpu);
	/* The scheduler tick while curr runs. */
	void (*task_tick)(struct rq *rq, struct task_struct *curr);
	/* Initial placement of a new task on rq (before its first enqueue). */
	void (*task_fork)(struct rq *rq, struct task_struct *p);
	/* rq is about to go idle: pull work from elsewhere. Returns the number of tasks pulled. */
	int (*idle_balance)(struct rq *rq);
	/* Periodic balancing from the tick of a busy CPU, also on behalf of idle CPUs. */
	void (*trigger_load_balance)(struct rq *rq);
	/* Charges rq->curr for the time it ran since it was last charged (the kernel's, since 4.x). */
	void (*update_curr)(struct rq *rq);
};

/* The classes a profile (sched_tunables.c) may choose; the core and the engine name none. */
extern const struct sched_class fair_sched_class;  /* CFS: sched_fair.c */
extern const struct sched_class eevdf_sched_class; /* EEVDF: sched_eevdf.c */

#endif
