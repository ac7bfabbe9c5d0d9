/*
 * Tests of linsched/cache: the cache-reload estimate of Tucker 1993.
 *
 * The expected reloads are worked out by hand from the model cache.h states: a domain's cache is
 * an LRU over tasks; when a task comes back, the distinct tasks switched in since it last was
 * there occupy `since` lines (the sum of their footprints); if since + its own footprint exceeds
 * the cache, the excess, at most its own footprint, was evicted and is reloaded. A task arriving
 * from another domain, or never seen, reloads its whole footprint.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "linsched/cache.h"

#define CACHE 100 /* lines in each domain of these tests */

static void domains_init(struct cache_domain *d, int n, uint64_t lines)
{
	for (int i = 0; i < n; i++)
		cache_domain_init(&d[i], lines);
}

static void test_alone_stays_warm(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 60);
	assert_int_equal(cache_switch_in(d, 0, &a), 60); /* cold */
	for (int i = 0; i < 5; i++)
		assert_int_equal(cache_switch_in(d, 0, &a), 0);
	assert_int_equal(a.domain, 0);
}

/* A footprint of the cache's whole size still fits: nothing to reload when nothing ran between. */
static void test_exact_fit(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, CACHE);
	assert_int_equal(cache_switch_in(d, 0, &a), CACHE);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
}

/* A footprint larger than the cache: alone, it reloads only what does not fit (200 - 100). */
static void test_larger_than_cache(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 200);
	assert_int_equal(cache_switch_in(d, 0, &a), 200);
	assert_int_equal(cache_switch_in(d, 0, &a), 100);
}

static void test_zero_footprint_is_free(void **state)
{
	(void)state;
	struct cache_domain d[2];
	struct cache_entry a, b;

	domains_init(d, 2, CACHE);
	cache_entry_init(&a, 0);
	cache_entry_init(&b, 90);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
	assert_int_equal(cache_switch_in(d, 0, &b), 90);
	assert_int_equal(cache_switch_in(d, 1, &a), 0);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
	/* and a task without a footprint takes no room: b is still warm */
	assert_int_equal(cache_switch_in(d, 0, &b), 0);
}

/* Interleaved with tasks whose footprints fill the cache: the full footprint is reloaded. */
static void test_interleaved_full_reload(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b, c;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 60);
	cache_entry_init(&b, 50);
	cache_entry_init(&c, 50);
	assert_int_equal(cache_switch_in(d, 0, &a), 60);
	assert_int_equal(cache_switch_in(d, 0, &b), 50);
	assert_int_equal(cache_switch_in(d, 0, &c), 50);
	/* since a: b + c = 100 >= cache: all 60 of a's lines are gone */
	assert_int_equal(cache_switch_in(d, 0, &a), 60);
	/* since b: c + a = 110: all 50 gone */
	assert_int_equal(cache_switch_in(d, 0, &b), 50);
	assert_int_equal(cache_switch_in(d, 0, &c), 50);
	/* round robin keeps paying in full */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(cache_switch_in(d, 0, &a), 60);
		assert_int_equal(cache_switch_in(d, 0, &b), 50);
		assert_int_equal(cache_switch_in(d, 0, &c), 50);
	}
}

/* Partial overlap: exactly the excess over the cache is reloaded. */
static void test_partial_overlap(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 60);
	cache_entry_init(&b, 30);
	assert_int_equal(cache_switch_in(d, 0, &a), 60);
	assert_int_equal(cache_switch_in(d, 0, &b), 30);
	assert_int_equal(cache_switch_in(d, 0, &a), 0); /* 30 + 60 = 90 fits */
	assert_int_equal(cache_switch_in(d, 0, &b), 0);

	b.footprint = 55; /* now 55 + 60 = 115: 15 too many */
	assert_int_equal(cache_switch_in(d, 0, &a), 15);
	assert_int_equal(cache_switch_in(d, 0, &b), 15);
	assert_int_equal(cache_switch_in(d, 0, &a), 15);
}

/* Only distinct tasks count, each once, however often it ran in between. */
static void test_distinct_tasks_counted_once(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b, c;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 50);
	cache_entry_init(&b, 30);
	cache_entry_init(&c, 25);
	assert_int_equal(cache_switch_in(d, 0, &a), 50);
	assert_int_equal(cache_switch_in(d, 0, &b), 30);
	assert_int_equal(cache_switch_in(d, 0, &b), 0);
	assert_int_equal(cache_switch_in(d, 0, &b), 0);
	/* since a: b once = 30, 30 + 50 = 80 fits */
	assert_int_equal(cache_switch_in(d, 0, &a), 0);

	/* b, c, b, c, b ran since a: distinct b + c = 55, 55 + 50 = 105: 5 evicted (counting every
	 * run, 140 lines, would have evicted all 50) */
	assert_int_equal(cache_switch_in(d, 0, &b), 0);	 /* since b: a = 50, 80 fits */
	assert_int_equal(cache_switch_in(d, 0, &c), 25); /* first time: cold */
	assert_int_equal(cache_switch_in(d, 0, &b), 0);	 /* since b: c = 25 */
	assert_int_equal(cache_switch_in(d, 0, &c), 0);	 /* since c: b = 30 */
	assert_int_equal(cache_switch_in(d, 0, &b), 0);
	assert_int_equal(cache_switch_in(d, 0, &a), 5);
}

/* A task never seen is cold even in an empty cache: its lines are not there yet. */
static void test_first_time_is_cold(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b;

	domains_init(d, 1, 1000);
	cache_entry_init(&a, 10);
	cache_entry_init(&b, 20);
	assert_int_equal(cache_switch_in(d, 0, &a), 10);
	assert_int_equal(cache_switch_in(d, 0, &b), 20);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
}

/* The LRU order: a task switched in again moves to the front, so it no longer sits between. */
static void test_lru_order(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b, c;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 40);
	cache_entry_init(&b, 40);
	cache_entry_init(&c, 40);
	cache_switch_in(d, 0, &c);
	cache_switch_in(d, 0, &a);
	cache_switch_in(d, 0, &b);
	/* front to back: b, a, c. since c: b + a = 80, 80 + 40 = 120: 20 evicted */
	assert_int_equal(cache_switch_in(d, 0, &c), 20);
	/* front to back: c, b, a. since a: c + b = 80: 20 */
	assert_int_equal(cache_switch_in(d, 0, &a), 20);
	/* since c: a = 40, 80 fits */
	assert_int_equal(cache_switch_in(d, 0, &c), 0);
}

/* A task moved to another domain starts cold there, and has lost its lines in the old one. */
static void test_other_domain_starts_cold(void **state)
{
	(void)state;
	struct cache_domain d[2];
	struct cache_entry a, b;

	domains_init(d, 2, CACHE);
	cache_entry_init(&a, 60);
	cache_entry_init(&b, 30);
	assert_int_equal(cache_switch_in(d, 0, &a), 60);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
	assert_int_equal(cache_switch_in(d, 1, &a), 60); /* moved: cold */
	assert_int_equal(a.domain, 1);
	assert_int_equal(cache_switch_in(d, 1, &a), 0);
	assert_int_equal(cache_switch_in(d, 0, &a), 60); /* back: its old lines were invalidated */

	/* What ran in another domain is not "in between" here. */
	assert_int_equal(cache_switch_in(d, 0, &b), 30);
	assert_int_equal(cache_switch_in(d, 1, &a), 60);
	assert_int_equal(cache_switch_in(d, 0, &b), 0); /* a left domain 0: nothing between */
}

/* An exited task leaves every cache and no longer counts against the others. */
static void test_forget(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b;

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 70);
	cache_entry_init(&b, 70);
	assert_int_equal(cache_switch_in(d, 0, &a), 70);
	assert_int_equal(cache_switch_in(d, 0, &b), 70);
	cache_forget(&b);
	assert_int_equal(b.domain, -1);
	/* since a: nothing left (b forgotten) */
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
	/* b comes back cold */
	assert_int_equal(cache_switch_in(d, 0, &b), 70);
	/* forgetting twice, or a task never switched in, is harmless */
	cache_forget(&b);
	cache_forget(&b);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
}

/* Many small tasks between: the walk stops once the cache is covered, with the full reload. */
/*
 * One way (direct-mapped, lines at random): a task keeps exp(-since / lines) of its lines.
 * Cache of 100 lines; a (10 lines) and b (50). a back after b: since 50, 10 * (1 - e^-0.5) =
 * 3.93 -> 4 reloaded; b back after a: since 10, 50 * (1 - e^-0.1) = 4.76 -> 5; a twice running:
 * nothing ran between, nothing reloaded (where the fully associative cache reloads nothing
 * until the two no longer fit, 60 <= 100).
 */
static void test_direct_mapped(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b;

	domains_init(d, 1, CACHE);
	cache_domain_set_ways(d, 1);
	cache_entry_init(&a, 10);
	cache_entry_init(&b, 50);
	assert_int_equal(cache_switch_in(d, 0, &a), 10); /* cold */
	assert_int_equal(cache_switch_in(d, 0, &b), 50);
	assert_int_equal(cache_switch_in(d, 0, &a), 4);
	assert_int_equal(cache_switch_in(d, 0, &b), 5);
	assert_int_equal(cache_switch_in(d, 0, &b), 0);
}

/*
 * Two ways: a line is gone once two of the lines since fell into its set, of 50 sets; with 50
 * lines since the count is Poisson of mean 50 * 2 / 100 = 1, so a line survives with
 * P(<= 1) = 2 / e = 0.7358 and a task of 10 lines reloads 2.64 -> 3. Past 64 caches' worth
 * since, a task reloads its whole footprint: 7 tasks of 1 000 lines between (7 000 >= 6 400).
 */
static void test_two_ways_and_far(void **state)
{
	(void)state;
	struct cache_domain d[1];
	struct cache_entry a, b, big[7];

	domains_init(d, 1, CACHE);
	cache_domain_set_ways(d, 2);
	cache_entry_init(&a, 10);
	cache_entry_init(&b, 50);
	cache_switch_in(d, 0, &a);
	cache_switch_in(d, 0, &b);
	assert_int_equal(cache_switch_in(d, 0, &a), 3);
	for (int i = 0; i < 7; i++) {
		cache_entry_init(&big[i], 1000);
		cache_switch_in(d, 0, &big[i]);
	}
	assert_int_equal(cache_switch_in(d, 0, &a), 10);
}

static void test_many_small_tasks(void **state)
{
	(void)state;
	enum {
		N = 500
	};
	struct cache_domain d[1];
	struct cache_entry a, small[N];

	domains_init(d, 1, CACHE);
	cache_entry_init(&a, 10);
	cache_switch_in(d, 0, &a);
	for (int i = 0; i < N; i++) {
		cache_entry_init(&small[i], 1);
		assert_int_equal(cache_switch_in(d, 0, &small[i]), 1);
	}
	assert_int_equal(cache_switch_in(d, 0, &a), 10); /* 500 lines since >= 100 */
	/* 89 of them then a again: 89 + 10 = 99 fits */
	for (int i = 0; i < 89; i++)
		cache_switch_in(d, 0, &small[i]);
	assert_int_equal(cache_switch_in(d, 0, &a), 0);
	/* 92: 92 + 10 = 102: 2 evicted */
	for (int i = 0; i < 92; i++)
		cache_switch_in(d, 0, &small[i]);
	assert_int_equal(cache_switch_in(d, 0, &a), 2);
}

/*
 * Data in flight (cache.h): a message of b bytes written when the domain's count stood at `at` is
 * read when (entered since) + b exceeds the cache by some bytes; those, at most b, are gone, in
 * whole lines rounded up. CACHE lines = 6400 bytes here.
 */
static void test_data_hot_until_the_cache_is_full(void **state)
{
	(void)state;
	struct cache_domain d[1];

	domains_init(d, 1, CACHE);
	struct cache_stamp s = cache_data_enter(d, 0, 100);

	assert_int_equal(cache_data_evicted(d, 0, s, 100, CACHE * 64), 0); /* nothing since */
	cache_data_enter(d, 0, 6300); /* 6300 + 100 = 6400: exactly full, all still there */
	assert_int_equal(cache_data_evicted(d, 0, s, 100, CACHE * 64), 0);
	cache_data_enter(d, 0, 1); /* 6401: 1 byte gone, 1 line */
	assert_int_equal(cache_data_evicted(d, 0, s, 100, CACHE * 64), 1);
	cache_data_enter(d, 0, 64); /* 6465: 65 bytes gone, 2 lines */
	assert_int_equal(cache_data_evicted(d, 0, s, 100, CACHE * 64), 2);
	cache_data_enter(d, 0, 100000); /* all of it, no more than its 2 lines */
	assert_int_equal(cache_data_evicted(d, 0, s, 100, CACHE * 64), 2);
}

static void test_data_stamps_count_what_entered_after(void **state)
{
	(void)state;
	struct cache_domain d[1];

	domains_init(d, 1, CACHE);
	/* Three 766-byte socket messages, then read oldest first from a 2048-byte cache. */
	struct cache_stamp a = cache_data_enter(d, 0, 766);
	struct cache_stamp b = cache_data_enter(d, 0, 766);
	struct cache_stamp c = cache_data_enter(d, 0, 766);

	/* a: 1532 since + 766 = 2298, 250 gone: 4 lines; b: 766 + 766 = 1532 <= 2048: 0; c: 0 */
	assert_int_equal(cache_data_evicted(d, 0, a, 766, 2048), 4);
	assert_int_equal(cache_data_evicted(d, 0, b, 766, 2048), 0);
	assert_int_equal(cache_data_evicted(d, 0, c, 766, 2048), 0);
}

static void test_data_from_another_domain_is_cold(void **state)
{
	(void)state;
	struct cache_domain d[2];

	domains_init(d, 2, CACHE);
	struct cache_stamp s = cache_data_enter(d, 0, 766);

	/* Read at once, but in domain 1: all ceil(766 / 64) = 12 lines. */
	assert_int_equal(cache_data_evicted(d, 1, s, 766, CACHE * 64), 12);
	/* What enters domain 1 does not age data in domain 0. */
	cache_data_enter(d, 1, 1000000);
	assert_int_equal(cache_data_evicted(d, 0, s, 766, CACHE * 64), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone_stays_warm),
		cmocka_unit_test(test_exact_fit),
		cmocka_unit_test(test_larger_than_cache),
		cmocka_unit_test(test_zero_footprint_is_free),
		cmocka_unit_test(test_interleaved_full_reload),
		cmocka_unit_test(test_partial_overlap),
		cmocka_unit_test(test_distinct_tasks_counted_once),
		cmocka_unit_test(test_first_time_is_cold),
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_other_domain_starts_cold),
		cmocka_unit_test(test_forget),
		cmocka_unit_test(test_many_small_tasks),
		cmocka_unit_test(test_direct_mapped),
		cmocka_unit_test(test_two_ways_and_far),
		cmocka_unit_test(test_data_hot_until_the_cache_is_full),
		cmocka_unit_test(test_data_stamps_count_what_entered_after),
		cmocka_unit_test(test_data_from_another_domain_is_cold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
