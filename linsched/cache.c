/*
 * cache.c - LRU estimate of cache reload (see cache.h).
 */
#include "linsched/cache.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

void cache_domain_init(struct cache_domain *d, uint64_t lines)
{
	INIT_LIST_HEAD(&d->lru);
	d->lines = lines;
	d->ways = 0;
}

void cache_domain_set_ways(struct cache_domain *d, unsigned int ways)
{
	d->ways = ways;
}

void cache_entry_init(struct cache_entry *e, uint64_t footprint)
{
	INIT_LIST_HEAD(&e->lru);
	e->footprint = footprint;
	e->domain = -1;
}

void cache_forget(struct cache_entry *e)
{
	list_del_init(&e->lru);
	e->domain = -1;
}

/*
 * The lines of the distinct tasks switched in since e last was, counted from the front of the
 * LRU until they reach cap: the walk's cost is bounded by cap / the smallest footprint, not by
 * the number of tasks.
 */
static uint64_t lines_since(const struct cache_domain *d, const struct cache_entry *e, uint64_t cap)
{
	uint64_t since = 0;

	for (const struct list_head *pos = d->lru.next; pos != &e->lru && since < cap;
	     pos = pos->next)
		since += list_entry(pos, struct cache_entry, lru)->footprint;
	return since;
}

/*
 * Sets of `ways` lines, lines mapped at random: a line survives when fewer than `ways` of the
 * `since` lines fell into its set. Past SET_WALK_CAP caches' worth nothing survives to within a
 * line (exp(-64) for one way), so the walk stops there.
 */
#define SET_WALK_CAP 64

static uint64_t evicted_lines_sets(const struct cache_domain *d, const struct cache_entry *e)
{
	uint64_t since = lines_since(d, e, SET_WALK_CAP * d->lines);

	if (since >= SET_WALK_CAP * d->lines)
		return e->footprint;
	if (since == 0)
		return 0;
	double mean = (double)since * d->ways / (double)d->lines;
	double survive = gsl_cdf_poisson_P(d->ways - 1, mean);

	return (uint64_t)llround((double)e->footprint * (1 - survive));
}

/* Fully associative: what ran since and the task's own footprint beyond the cache, at most
 * the footprint; sets: evicted_lines_sets. */
static uint64_t evicted_lines(const struct cache_domain *d, const struct cache_entry *e)
{
	if (d->ways)
		return evicted_lines_sets(d, e);

	uint64_t since = lines_since(d, e, d->lines);

	if (since >= d->lines)
		return e->footprint;
	if (since + e->footprint <= d->lines)
		return 0;
	uint64_t excess = since + e->footprint - d->lines;

	return excess < e->footprint ? excess : e->footprint;
}

uint64_t cache_switch_in(struct cache_domain *domains, int d, struct cache_entry *e)
{
	struct cache_domain *dom = &domains[d];
	uint64_t reload;

	if (e->footprint == 0)
		return 0;
	if (e->domain == d) {
		reload = evicted_lines(dom, e);
		list_del_init(&e->lru);
	} else {
		reload = e->footprint;
		cache_forget(e);
	}
	list_add(&e->lru, &dom->lru);
	e->domain = d;
	return reload;
}

struct cache_stamp cache_data_enter(struct cache_domain *domains, int d, uint64_t bytes)
{
	domains[d].entered += bytes;
	return (struct cache_stamp){ .at = domains[d].entered, .domain = d };
}

static uint64_t lines_of(uint64_t bytes)
{
	return (bytes + CACHE_LINE_BYTES - 1) / CACHE_LINE_BYTES;
}

uint64_t cache_data_evicted(const struct cache_domain *domains, int d, struct cache_stamp s,
			    uint64_t bytes, uint64_t cache_bytes)
{
	if (s.domain != d)
		return lines_of(bytes);
	uint64_t since = domains[d].entered - s.at;

	if (since + bytes <= cache_bytes)
		return 0;
	uint64_t gone = since + bytes - cache_bytes;

	return lines_of(gone < bytes ? gone : bytes);
}
