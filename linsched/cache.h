/*
 * cache.h - the cache-reload model (Tucker 1993): what a task pays in misses when it is switched
 * in, because the tasks that ran in between evicted part of its working set.
 *
 * Each memory domain's last-level cache is modelled as an LRU over tasks: a task switched in moves
 * to the front with its whole footprint resident. When a task comes back, the distinct tasks in
 * front of it ran since it last did; if their footprints and its own exceed the cache, the excess
 * (at most its own footprint) was evicted and must be reloaded. A task that runs in another domain
 * loses its lines in the old one (another CPU wrote them) and starts cold.
 */
#ifndef LINSCHED_CACHE_H
#define LINSCHED_CACHE_H

#include <stdint.h>

#include "linsched/list.h"

struct cache_domain {
	struct list_head lru; /* most recently switched-in first */
	uint64_t lines;	      /* capacity */
};

struct cache_entry {
	struct list_head lru;
	uint64_t footprint; /* lines */
	int domain;	    /* where its lines are, -1: nowhere (cold everywhere) */
};

void cache_domain_init(struct cache_domain *d, uint64_t lines);
void cache_entry_init(struct cache_entry *e, uint64_t footprint);
/* The entry is switched in on domain d (index into domains): returns the lines it reloads. */
uint64_t cache_switch_in(struct cache_domain *domains, int d, struct cache_entry *e);
/* The entry leaves every cache (its task exited). */
void cache_forget(struct cache_entry *e);

#endif
