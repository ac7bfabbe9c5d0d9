/*
 * hackbench.h - the hackbench messaging benchmark as simulated tasks (SPEC.md §4).
 *
 * G groups, each of F senders and F receivers. Every receiver owns one channel (a socket pair or a
 * pipe) that all F senders of its group write to. Every sender writes L messages of datasize bytes
 * to every receiver of its group (a loop over L, inside it a loop over the receivers); every
 * receiver reads F x L messages. All tasks are created, wait at a start barrier, and the measured
 * runtime goes from the barrier's release to the last exit, as in the real tools.
 *
 * Two models:
 *   fsm        each task is a finite state machine stepping through START, WRITE/READ and BLOCK;
 *              every write and read costs CPU time and may block or wake the other side.
 *   bootstrap  no messages: each task needs a share of the group's measured solo runtime in CPU
 *              time and makes progress per tick, slowed by a degradation factor while tasks of
 *              another group share its memory domain. Faster to simulate, less faithful.
 */
#ifndef TASKS_HACKBENCH_H
#define TASKS_HACKBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "linsched/json.h"
#include "linsched/sim.h"

enum hackbench_model {
	HACKBENCH_FSM,
	HACKBENCH_BOOTSTRAP
};

/*
 * How the workers start (FSM model):
 *   barrier  all are created at once; the last to reach the start barrier releases the others,
 *            first arrived first woken;
 *   parent   as the real tools: a parent task ("hackbench") creates the workers one at a time
 *            (each reaches the barrier, on whichever CPU fork balancing gave it, before the next
 *            is created), waits until all are ready, and releases them with one write to a pipe
 *            they all poll: a synchronous wakeup of every poller, the last to poll first (poll
 *            waits at the head of the queue). Then the parent leaves.
 */
enum hackbench_start {
	HACKBENCH_START_BARRIER,
	HACKBENCH_START_PARENT
};

/* The page a pipe packs messages into (the costs and sizes are the machine's: linsched/machine.h). */
#define HACKBENCH_PAGE_SIZE	  4096
#define HACKBENCH_FORK_NS	  20000 /* creating a thread or process */
#define HACKBENCH_FOOTPRINT_LINES 512	/* 32 KiB: stack, task and socket state */
#define HACKBENCH_SOLO_MS	  120.0 /* one group, 100 loops, threads (SPEC.md §2) */
#define HACKBENCH_DEGRADATION	  0.9

struct hackbench_params {
	unsigned int groups;
	unsigned int loops;
	unsigned int fds;      /* senders (and receivers) per group */
	unsigned int datasize; /* bytes per message */
	bool pipe;	       /* pipes instead of socket pairs */
	bool threads;	       /* threads instead of processes */
	enum hackbench_model model;
	enum hackbench_start start;
	uint64_t fork_ns; /* parent start: CPU time to create one worker */
	/* Parent start: the wakee_flips the parent brings from the shell that started it; every
	 * worker inherits the parent's at its fork (sched_fork_inherit). 0: none. */
	unsigned int parent_flips;
	/* Parent start: the wakee_flips a real parent had at each of its forks, in creation order
	 * (a real run's record: vm/README.md, "The forks"). Worker n inherits fork_flips[n] in place
	 * of the parent's count by then: a threads parent gains flips while it creates them, from
	 * wakeups this model leaves out. At most one per worker; NULL: none. Borrowed: the array must
	 * outlive the workload. */
	const unsigned int *fork_flips;
	unsigned int n_fork_flips;
	uint64_t capacity_bytes;    /* per channel; 0: the machine's for the kind */
	uint64_t write_ns, read_ns; /* CPU cost of one write, one read; 0: the machine's */
	/* CPU cost of a write that finds the channel full or a read that finds it empty, from the
	 * system call's entry to the sleep (the switch itself is the switch cost); UINT64_MAX:
	 * the machine's. 0 is a valid cost: the attempt is free. */
	uint64_t block_ns;
	uint64_t msg_overhead;	  /* socket: bytes charged per message beyond its data; 0: the
				     * built-in machine's */
	uint64_t footprint_lines; /* cache footprint of each task */
	double solo_ms;		  /* bootstrap: runtime of one group alone */
	double degradation;	  /* bootstrap: RuntimeAlone / RuntimeCombined, in (0, 1] */
};

/* The real tools' defaults: 10 groups, 100 loops, 20 fds, 100 bytes, sockets, processes, FSM. */
void hackbench_params_default(struct hackbench_params *p);
/* Fills the costs and sizes that depend on the channel kind and the task kind, where left at 0,
 * from machine m (NULL: the built-in machine). */
void hackbench_params_resolve_for(struct hackbench_params *p, const struct linsched_machine *m);
/* The same on the built-in machine. */
void hackbench_params_resolve(struct hackbench_params *p);
/* How many messages fit in one channel (at least 1 once validated). */
uint64_t hackbench_capacity_msgs(const struct hackbench_params *p);
bool hackbench_params_validate(const struct hackbench_params *p, GError **error);
unsigned int hackbench_nr_tasks(const struct hackbench_params *p);
/* The context-switch cost of the task kind on machine m (NULL: the built-in machine): threads
 * share an address space and switch cheaper. */
uint64_t hackbench_switch_ns_on(const struct hackbench_params *p, const struct linsched_machine *m);
/* The same on the built-in machine. */
uint64_t hackbench_switch_ns(const struct hackbench_params *p);
/* What a waker pays for a local wakeup on machine m (NULL: the built-in machine): its
 * process_wakeup_ns when the tasks are processes and it has one, else its wakeup_ns. */
uint64_t hackbench_wakeup_ns_on(const struct hackbench_params *p, const struct linsched_machine *m);

/* Reads solo_ms (> 0) and degradation (in (0, 1]) from the [bootstrap] group of a key file:
 * the bootstrap.ini that `tuner calibrate --model bootstrap` writes. The one reader of that file;
 * an error names the file, the key and what is wrong with it. */
bool hackbench_load_bootstrap_file(struct hackbench_params *p, const char *path, GError **error);

struct hackbench;

/* Creates every task of the workload in sim. The workload is freed with hackbench_free. */
struct hackbench *hackbench_create(struct linsched_sim *sim, const struct hackbench_params *p);
void hackbench_free(struct hackbench *hb);
/* Messages read by receivers so far. */
uint64_t hackbench_messages(const struct hackbench *hb);
/* Every parameter, as the "workload" object of the JSON report. */
void hackbench_write_json(const struct hackbench_params *p, struct json_writer *w);

/* What one simulation of a workload gives; runtime from the barrier's release to the last exit. */
struct hackbench_outcome {
	uint64_t runtime_ns, jiffies;
	uint64_t context_switches, migrations, messages;
	/* Every time a task left a CPU, over the tasks' whole lives (set-up included), but an
	 * exiting thread's last: what a real run's rusage counts (ru_nvcsw + ru_nivcsw), unlike
	 * context_switches, which counts the CPUs' switches, idle ones too, from the start barrier
	 * on. */
	uint64_t task_switches;
	bool deadlock;
};

/* Simulates p from start to finish under cfg (validated beforehand). Thread safe. */
void hackbench_simulate(const struct linsched_config *cfg, const struct hackbench_params *p,
			struct hackbench_outcome *out);

/* For tests: the channel of receiver r of group g, and what it holds. */
struct hackbench_channel_state {
	uint64_t queued, capacity, written, read;
	unsigned int blocked_writers, blocked_readers;
};
void hackbench_channel_state(const struct hackbench *hb, unsigned int group, unsigned int receiver,
			     struct hackbench_channel_state *out);
/* For tests: at a parent start, how often a worker found the report channel full. */
unsigned int hackbench_ready_waits(const struct hackbench *hb);
/* For tests: messages an FSM task has written (sender) or read (receiver). */
uint64_t hackbench_task_done(const struct linsched_task *t);

#endif
