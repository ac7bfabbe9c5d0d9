/*
 * event.c - binary min-heap with index tracking (see event.h).
 */
#include "linsched/event.h"

#include <glib.h>

static inline bool event_less(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct event_heap *h, size_t i, struct event *e)
{
	h->slots[i] = e;
	e->index = i;
}

static void sift_up(struct event_heap *h, size_t i)
{
	struct event *e = h->slots[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!event_less(e, h->slots[parent]))
			break;
		place(h, i, h->slots[parent]);
		i = parent;
	}
	place(h, i, e);
}

static void sift_down(struct event_heap *h, size_t i)
{
	struct event *e = h->slots[i];

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= h->len)
			break;
		if (child + 1 < h->len && event_less(h->slots[child + 1], h->slots[child]))
			child++;
		if (!event_less(h->slots[child], e))
			break;
		place(h, i, h->slots[child]);
		i = child;
	}
	place(h, i, e);
}

void event_heap_init(struct event_heap *h)
{
	h->slots = NULL;
	h->len = h->cap = 0;
	h->next_seq = 0;
}

void event_heap_destroy(struct event_heap *h)
{
	g_free(h->slots);
	h->slots = NULL;
	h->len = h->cap = 0;
}

void event_schedule(struct event_heap *h, struct event *e, uint64_t time)
{
	e->time = time;
	e->seq = h->next_seq++;
	if (event_queued(e)) {
		/* A later time or a later seq: it can only move down, unless its time decreased. */
		sift_up(h, e->index);
		sift_down(h, e->index);
		return;
	}
	if (h->len == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->slots = g_renew(struct event *, h->slots, h->cap);
	}
	place(h, h->len++, e);
	sift_up(h, e->index);
}

void event_cancel(struct event_heap *h, struct event *e)
{
	if (!event_queued(e))
		return;

	size_t i = e->index;
	struct event *last = h->slots[--h->len];

	e->index = EVENT_NOT_QUEUED;
	if (last == e)
		return;
	place(h, i, last);
	sift_up(h, i);
	sift_down(h, last->index);
}

struct event *event_pop(struct event_heap *h)
{
	struct event *top = event_peek(h);

	if (top)
		event_cancel(h, top);
	return top;
}
