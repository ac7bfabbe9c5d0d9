/*
 * hackbench_internal.h - what the two hackbench models share: the workload value. Not for use
 * outside tasks/.
 */
#ifndef TASKS_HACKBENCH_INTERNAL_H
#define TASKS_HACKBENCH_INTERNAL_H

#include "tasks/hackbench.h"

struct hb_channel {
	uint64_t queued, capacity;
	uint64_t written, read;
	uint64_t wake_writers_at; /* free space at which blocked writers are woken */
	/* When the machine has a data cache: where each queued message was written, oldest at
	 * head (a ring of capacity), so its reader can tell how much of it is still cached. */
	struct cache_stamp *stamps;
	uint64_t head;
	struct linsched_waitqueue readers, writers;
};

struct hackbench {
	struct hackbench_params p;
	struct linsched_sim *sim;
	struct hb_channel *channels; /* groups x fds, one per receiver */
	struct linsched_waitqueue barrier;
	unsigned int arrived, total;
	/*
	 * parent start: workers created so far, and where the parent waits for them. Each worker
	 * reports on one channel that the parent reads only once it has created them all; more
	 * workers than it holds block until the parent drains it (ready_writers).
	 */
	unsigned int created;
	struct linsched_waitqueue ready;
	uint64_t ready_queued, ready_capacity;
	struct linsched_waitqueue ready_writers;
	unsigned int ready_waits; /* times a worker found the channel full */
	uint64_t messages;
	uint64_t msg_bytes; /* the memory one queued message takes: its data, a socket's buffer */
	/* bootstrap: live tasks per (memory domain, group), and groups present per domain */
	unsigned int *present;
	unsigned int *groups_in_domain;
};

struct linsched_task *bootstrap_task_create(struct hackbench *hb, unsigned int group,
					    unsigned int index, bool sender);

#endif
