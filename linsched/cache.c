/*
 * cache.c - LRU estimate of cache reload (see cache.h).
 */
#include "linsched/cache.h"

void cache_domain_init(struct cache_domain *d, uint64_t lines)
{
	INIT_LIST_HEAD(&d->lru);
	d->lines = lines;
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
 * The walk from the front stops as soon as what ran since covers the cache, so its cost is bounded
 * by cache size / smallest footprint, not by the number of tasks.
 */
static uint64_t evicted_lines(const struct cache_domain *d, const struct cache_entry *e)
{
	uint64_t since = 0;

	for (const struct list_head *pos = d->lru.next; pos != &e->lru; pos = pos->next) {
		since += list_entry(pos, struct cache_entry, lru)->footprint;
		if (since >= d->lines)
			return e->footprint;
	}
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
