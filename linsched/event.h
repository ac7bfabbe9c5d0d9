/*
 * event.h - the engine's agenda: a binary min-heap of events ordered by time, then by the order
 * they were scheduled. The tie-break makes a run a pure function of its inputs.
 *
 * Events are intrusive (embedded in a CPU or a task) and remember their heap index, so moving or
 * cancelling one is O(log n) and nothing is allocated per event.
 */
#ifndef LINSCHED_EVENT_H
#define LINSCHED_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EVENT_NOT_QUEUED ((size_t)-1)

struct event {
	uint64_t time;
	uint64_t seq;
	size_t index; /* position in the heap, EVENT_NOT_QUEUED when not scheduled */
	int kind;     /* the owner's tag: what to do when it fires */
};

struct event_heap {
	struct event **slots;
	size_t len, cap;
	uint64_t next_seq;
};

void event_heap_init(struct event_heap *h);
void event_heap_destroy(struct event_heap *h);
static inline void event_init(struct event *e)
{
	e->index = EVENT_NOT_QUEUED;
}
static inline bool event_queued(const struct event *e)
{
	return e->index != EVENT_NOT_QUEUED;
}
/* Schedules e at time, or moves it there if it is already scheduled. */
void event_schedule(struct event_heap *h, struct event *e, uint64_t time);
void event_cancel(struct event_heap *h, struct event *e);
static inline struct event *event_peek(const struct event_heap *h)
{
	return h->len ? h->slots[0] : NULL;
}
struct event *event_pop(struct event_heap *h);

#endif
