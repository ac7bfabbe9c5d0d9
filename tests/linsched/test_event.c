/*
 * Tests of linsched/event: the engine's agenda.
 *
 * The heap is checked against a reference that knows nothing of heaps: each owner records the
 * time it asked for and a stamp taken from the test's own counter at every event_schedule() call,
 * and the expected next event is found by a linear scan for the smallest (time, stamp). Event.h
 * promises ties broken "by the order they were scheduled", so a reschedule counts as a new
 * scheduling and goes behind events already waiting at the same time. After every operation the
 * heap's shape is checked independently too: each slot's recorded index, and the heap order of
 * every slot against its parent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "linsched/event.h"

struct owner {
	struct event ev;
	uint64_t time;	/* the reference's copy of what the test asked for */
	uint64_t stamp; /* the test's own scheduling order */
	bool queued;
};

struct ref {
	struct owner *owners;
	size_t n;
	uint64_t next_stamp;
	size_t nr_queued;
};

static bool owner_before(const struct owner *a, const struct owner *b)
{
	return a->time < b->time || (a->time == b->time && a->stamp < b->stamp);
}

static struct owner *ref_min(const struct ref *r)
{
	struct owner *best = NULL;

	for (size_t i = 0; i < r->n; i++)
		if (r->owners[i].queued && (!best || owner_before(&r->owners[i], best)))
			best = &r->owners[i];
	return best;
}

static void ref_schedule(struct ref *r, struct event_heap *h, struct owner *o, uint64_t time)
{
	event_schedule(h, &o->ev, time);
	if (!o->queued)
		r->nr_queued++;
	o->queued = true;
	o->time = time;
	o->stamp = r->next_stamp++;
}

static void ref_cancel(struct ref *r, struct event_heap *h, struct owner *o)
{
	event_cancel(h, &o->ev);
	if (o->queued)
		r->nr_queued--;
	o->queued = false;
}

/* Pops one event and checks it is the reference's minimum. */
static void ref_pop(struct ref *r, struct event_heap *h)
{
	struct owner *want = ref_min(r);
	struct event *got = event_pop(h);

	if (!want) {
		assert_null(got);
		return;
	}
	assert_ptr_equal(got, &want->ev);
	assert_int_equal(got->time, want->time);
	assert_false(event_queued(got));
	want->queued = false;
	r->nr_queued--;
}

/* Shape of the heap, from its raw slots: indices recorded right, parent never after child. */
static void check_heap(const struct ref *r, const struct event_heap *h)
{
	assert_int_equal(h->len, r->nr_queued);
	for (size_t i = 0; i < h->len; i++) {
		const struct event *e = h->slots[i];

		assert_int_equal(e->index, i);
		if (i > 0) {
			const struct event *p = h->slots[(i - 1) / 2];

			assert_true(p->time < e->time || (p->time == e->time && p->seq < e->seq));
		}
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct owner *o = &r->owners[i];

		assert_int_equal(event_queued(&o->ev), o->queued);
		if (o->queued) {
			assert_int_equal(o->ev.time, o->time);
			assert_ptr_equal(h->slots[o->ev.index], &o->ev);
		}
	}
	struct owner *want = ref_min(r);

	assert_ptr_equal(event_peek(h), want ? &want->ev : NULL);
}

static struct owner *owners_new(size_t n)
{
	struct owner *o = calloc(n, sizeof(*o));

	assert_non_null(o);
	for (size_t i = 0; i < n; i++)
		event_init(&o[i].ev);
	return o;
}

/* ---- fixed cases ---------------------------------------------------------------------------- */

static void test_empty(void **state)
{
	(void)state;
	struct event_heap h;
	struct event e;

	event_heap_init(&h);
	event_init(&e);
	assert_null(event_peek(&h));
	assert_null(event_pop(&h));
	assert_false(event_queued(&e));
	event_cancel(&h, &e); /* not queued: a no-op */
	assert_int_equal(h.len, 0);
	event_heap_destroy(&h);
}

static void test_order_by_time(void **state)
{
	(void)state;
	const uint64_t times[] = { 50, 10, 40, 30, 20 };
	struct event_heap h;
	struct event ev[5];

	event_heap_init(&h);
	for (int i = 0; i < 5; i++) {
		event_init(&ev[i]);
		event_schedule(&h, &ev[i], times[i]);
		assert_true(event_queued(&ev[i]));
	}
	const int expect[] = { 1, 4, 3, 2, 0 };

	for (int i = 0; i < 5; i++)
		assert_ptr_equal(event_pop(&h), &ev[expect[i]]);
	assert_null(event_pop(&h));
	event_heap_destroy(&h);
}

static void test_ties_fifo(void **state)
{
	(void)state;
	struct event_heap h;
	struct event a, b, c, d;

	event_heap_init(&h);
	event_init(&a);
	event_init(&b);
	event_init(&c);
	event_init(&d);
	event_schedule(&h, &a, 7);
	event_schedule(&h, &b, 7);
	event_schedule(&h, &c, 7);
	event_schedule(&h, &d, 3);
	/* Rescheduling b at the same time is a new scheduling: it goes behind c. */
	event_schedule(&h, &b, 7);
	assert_ptr_equal(event_pop(&h), &d);
	assert_ptr_equal(event_pop(&h), &a);
	assert_ptr_equal(event_pop(&h), &c);
	assert_ptr_equal(event_pop(&h), &b);
	assert_null(event_pop(&h));
	event_heap_destroy(&h);
}

static void test_move_and_cancel(void **state)
{
	(void)state;
	struct event_heap h;
	struct event a, b, c;

	event_heap_init(&h);
	event_init(&a);
	event_init(&b);
	event_init(&c);
	event_schedule(&h, &a, 10);
	event_schedule(&h, &b, 20);
	event_schedule(&h, &c, 30);
	event_schedule(&h, &c, 5); /* earlier */
	assert_ptr_equal(event_peek(&h), &c);
	event_schedule(&h, &c, 25); /* later again */
	assert_ptr_equal(event_peek(&h), &a);
	event_cancel(&h, &a); /* the top */
	assert_false(event_queued(&a));
	assert_int_equal(h.len, 2);
	event_cancel(&h, &a); /* twice: no-op */
	assert_int_equal(h.len, 2);
	assert_ptr_equal(event_pop(&h), &b);
	assert_ptr_equal(event_pop(&h), &c);
	assert_int_equal(c.time, 25);
	assert_null(event_pop(&h));
	/* A popped event can be scheduled again. */
	event_schedule(&h, &a, 1);
	assert_ptr_equal(event_pop(&h), &a);
	event_heap_destroy(&h);
}

static void test_extreme_times(void **state)
{
	(void)state;
	struct event_heap h;
	struct event a, b, c;

	event_heap_init(&h);
	event_init(&a);
	event_init(&b);
	event_init(&c);
	event_schedule(&h, &a, UINT64_MAX);
	event_schedule(&h, &b, 0);
	event_schedule(&h, &c, UINT64_MAX - 1);
	assert_ptr_equal(event_pop(&h), &b);
	assert_ptr_equal(event_pop(&h), &c);
	assert_ptr_equal(event_pop(&h), &a);
	event_heap_destroy(&h);
}

/* ---- random operations against the reference ------------------------------------------------ */

/*
 * Times are drawn from a small range so that ties are frequent; the pool is larger than the
 * heap's first allocation so that it grows while events sit in it.
 */
static void random_run(unsigned long seed, size_t nr_owners, uint64_t time_range, int steps)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct event_heap h;
	struct ref r = { .owners = owners_new(nr_owners), .n = nr_owners };

	gsl_rng_set(rng, seed);
	event_heap_init(&h);
	for (int step = 0; step < steps; step++) {
		unsigned long op = gsl_rng_uniform_int(rng, 10);
		struct owner *o = &r.owners[gsl_rng_uniform_int(rng, nr_owners)];

		if (op < 5)
			ref_schedule(&r, &h, o, gsl_rng_uniform_int(rng, time_range));
		else if (op < 7)
			ref_cancel(&r, &h, o);
		else
			ref_pop(&r, &h);
		check_heap(&r, &h);
	}
	/* Drain: every remaining event comes out in (time, scheduling order). */
	uint64_t last_time = 0;

	while (r.nr_queued) {
		struct owner *want = ref_min(&r);

		assert_true(want->time >= last_time);
		last_time = want->time;
		ref_pop(&r, &h);
	}
	assert_null(event_pop(&h));
	event_heap_destroy(&h);
	free(r.owners);
	gsl_rng_free(rng);
}

static void test_random_small(void **state)
{
	(void)state;
	for (unsigned long seed = 1; seed <= 20; seed++)
		random_run(seed, 12, 4, 400);
}

static void test_random_large(void **state)
{
	(void)state;
	random_run(12345, 300, 50, 20000);
}

/* Everything scheduled first, then drained: a sort. */
static void test_bulk_sort(void **state)
{
	(void)state;
	enum {
		N = 2000
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct event_heap h;
	struct ref r = { .owners = owners_new(N), .n = N };

	gsl_rng_set(rng, 99);
	event_heap_init(&h);
	for (size_t i = 0; i < N; i++)
		ref_schedule(&r, &h, &r.owners[i], gsl_rng_uniform_int(rng, 100));
	check_heap(&r, &h);
	for (size_t i = 0; i < N; i++)
		ref_pop(&r, &h);
	assert_int_equal(h.len, 0);
	event_heap_destroy(&h);
	free(r.owners);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),	      cmocka_unit_test(test_order_by_time),
		cmocka_unit_test(test_ties_fifo),     cmocka_unit_test(test_move_and_cancel),
		cmocka_unit_test(test_extreme_times), cmocka_unit_test(test_random_small),
		cmocka_unit_test(test_random_large),  cmocka_unit_test(test_bulk_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
