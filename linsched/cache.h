/*
 * cache.h - the cache-reload model (Tucker 1993): what a task pays in misses when it is switched
 * in, because the tasks that ran in between evicted part of its working set.
 *
 * Each memory domain's last-level cache is modelled as an LRU over tasks: a task switched in moves
 * to the front with its whole footprint resident. When a task comes back, the distinct tasks in
 * front of it ran since it last did; if their footprints and its own exceed the cache, the excess
 * (at most its own footprint) was evicted and must be reloaded. A task that runs in another domain
 * loses its lines in the old one (another CPU wrote them) and starts cold.
 *
 * That is a fully associative cache, and it reloads nothing until the tasks since fill it, then
 * everything: a cliff. A cache of `ways` ways maps lines to sets of that many at random (as an
 * address hash does), so a line is gone once `ways` of the lines since fell into its set: with
 * `since` lines since, in lines / ways sets, the count in its set is binomial, Poisson of mean
 * since * ways / lines for a large cache, and the task reloads its footprint times
 * P(that count >= ways). One way (direct-mapped, as qemu's software TLB is) reloads
 * 1 - exp(-since / lines) of it: a curve rising from the first task between, as the guest's
 * rings of threads show (linsched/cli/probe_ring.h); many ways come near the cliff.
 *
 * Data in flight (a message written now and read later) has a model of its own, because its
 * reuse distance, not a task's turn, decides whether it is still cached: each domain counts the
 * bytes that enter its data cache (messages written, task lines reloaded); a message written when
 * the count stood at `at` has seen (now - at) bytes enter after it, and the part of it beyond the
 * cache's size is gone when it is read. That is a FIFO cache's rule (a hit does not move a line
 * to the front): between messages written once and read once, as in a channel, it is LRU's too.
 * The data cache is sized apart from the last-level cache (data_cache_lines): under emulation
 * what decides whether data is still at hand is more than the host's caches (the emulator's TLB
 * reach), and no probe measures it, so `tuner fit` does.
 */
#ifndef LINSCHED_CACHE_H
#define LINSCHED_CACHE_H

#include <stdint.h>

#include "linsched/list.h"

struct cache_domain {
	struct list_head lru; /* most recently switched-in first */
	uint64_t lines;	      /* capacity */
	unsigned int ways;    /* 0: fully associative; else lines per set, mapped at random */
	uint64_t entered;     /* bytes that have entered its data cache so far */
};

/* Where and when a piece of data in flight was written. */
struct cache_stamp {
	uint64_t at; /* the domain's `entered` just after it was written */
	int domain;
};

struct cache_entry {
	struct list_head lru;
	uint64_t footprint; /* lines */
	int domain;	    /* where its lines are, -1: nowhere (cold everywhere) */
};

/* A fully associative cache of `lines`; cache_domain_set_ways gives it sets. */
void cache_domain_init(struct cache_domain *d, uint64_t lines);
void cache_domain_set_ways(struct cache_domain *d, unsigned int ways);
void cache_entry_init(struct cache_entry *e, uint64_t footprint);
/* The entry is switched in on domain d (index into domains): returns the lines it reloads. */
uint64_t cache_switch_in(struct cache_domain *domains, int d, struct cache_entry *e);
/* The entry leaves every cache (its task exited). */
void cache_forget(struct cache_entry *e);

/* bytes of new data enter domain d (written, or reloaded): the stamp of data written now. */
struct cache_stamp cache_data_enter(struct cache_domain *domains, int d, uint64_t bytes);
/*
 * Lines of the bytes written at s that a reader in domain d finds evicted from a data cache of
 * cache_bytes: all of them from another domain; else the part of them that (entered since) +
 * bytes exceeds the cache by, in whole 64-byte lines, rounded up.
 */
uint64_t cache_data_evicted(const struct cache_domain *domains, int d, struct cache_stamp s,
			    uint64_t bytes, uint64_t cache_bytes);

#define CACHE_LINE_BYTES 64
#define CACHE_MAX_WAYS	 64 /* beyond it a set-associative cache is all but fully associative */

#endif
