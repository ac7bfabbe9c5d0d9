/*
 * Tests of linsched/cli/probe_ring: the task cache that `linsched probe` draws from a message's
 * hops around rings of 2 to 128 threads.
 *
 * The expected values are worked out by hand from the model probe_ring.h states: a ring of N
 * tasks costs a pair's saving a plus step * (R(N - 1) - R(1)) more a hop than the ring of 2, R a
 * cliff (fully associative) or the share of a working set that a cache of some ways evicts, and
 * the probe fits them by least squares, taking the middle (in log) of a range of knees that fit
 * alike. Each drawn cache is then put into the simulation's own (linsched/cache.h), which must
 * give the ring's rise back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "linsched/cache.h"
#include "linsched/cli/probe_ring.h"
#include "tests/support/assert_close.h"

#define N_SIZES 7
static const int sizes[N_SIZES] = { 2, 4, 8, 16, 32, 64, 128 };
#define HOT 30000.0 /* ns a hop among 2 threads */

/* Reloads a switch-in costs, ns, in a ring of n tasks in the simulation's cache (cache.h) with
 * what the probe drew, once the ring has gone round. */
static double simulated_rise(const struct probe_ring_cache *c, int n)
{
	struct cache_domain d;
	struct cache_entry e[128];
	uint64_t lines = 0;

	cache_domain_init(&d, (uint64_t)c->cache_lines);
	cache_domain_set_ways(&d, (unsigned int)c->ways);
	for (int i = 0; i < n; i++)
		cache_entry_init(&e[i], (uint64_t)c->footprint_lines);
	for (int lap = 0; lap < 3; lap++)
		for (int i = 0; i < n; i++)
			lines = cache_switch_in(&d, 0, &e[i]);
	return (double)lines * (double)c->miss_ps / 1000;
}

/*
 * A cliff between 8 and 16 threads, fully associative: any knee in [8, 15] fits exactly (a ring of 8 fits, one of
 * 16 reloads a whole working set), so the knee is sqrt(8 * 15) = 10.954 tasks, 701 lines of 64;
 * the step is the rise, 6000 ns, 93 750 ps a line. The simulation's cache with those values
 * reloads nothing in a ring of 8 and the whole step in one of 16.
 */
static void test_cliff(void **state)
{
	(void)state;
	const double rise[N_SIZES] = { 0, 0, 0, 6000, 6000, 6000, 6000 };
	const double q1[N_SIZES] = { 0, -100, -100, 5000, 5000, 5000, 5000 };
	struct probe_ring_cache c;

	probe_ring_cache(sizes, rise, q1, N_SIZES, HOT, &c);
	assert_int_equal(c.step, 1);
	assert_int_equal(c.ways, 0);
	assert_close(c.pair_ns, 0, 1e-6);
	assert_close(c.step_ns, 6000, 1e-6);
	assert_close(c.knee_tasks, sqrt(8.0 * 15.0), 0.03);
	assert_int_equal(c.footprint_lines, RING_FOOTPRINT_LINES);
	assert_in_range(c.cache_lines, 699, 703);
	assert_int_equal(c.miss_ps, 93750);

	char lines[512];

	probe_ring_lines(&c, lines, sizeof(lines));
	assert_non_null(strstr(lines, "# a pair's saving of 0 ns and a reload of up to 6000 ns, "
				      "from a cache of 11.0\n# working sets, 0 ways"));
	assert_non_null(strstr(lines, "\ncache_ways=0\nfootprint_lines=64\nmiss_ps=93750\n"));

	assert_close(simulated_rise(&c, 8), 0, 1e-9);
	assert_close(simulated_rise(&c, 16), 6000, 1e-6);
	assert_close(simulated_rise(&c, 128), 6000, 1e-6);
}

/*
 * The guest's shape (one way, a cache of 30 working sets) above a pair's saving of 2 000 ns:
 * rise(N) = 2000 + 12000 (e^(-1/30) - e^(-(N-1)/30)) from 4 threads on, e.g. 2000 + 12000 *
 * (0.96722 - 0.90484) = 2 749 ns at 4 and 2000 + 12000 * (0.96722 - 0.01457) = 13 432 at 128.
 * The fit finds it again: one way, 30 working sets (1 920 lines), 12 000 ns (187 500 ps a
 * line), the pair's 2 000, no error; and the simulation's direct-mapped cache with those
 * values reloads 12 000 (e^(-1/30) - e^(-15/30)) = 4 328 ns more in a ring of 16 than of 2.
 */
static void test_one_way(void **state)
{
	(void)state;
	double rise[N_SIZES], q1[N_SIZES];
	struct probe_ring_cache c;

	for (int i = 0; i < N_SIZES; i++) {
		rise[i] =
			i == 0 ? 0 : 2000 + 12000 * (exp(-1.0 / 30) - exp(-(sizes[i] - 1) / 30.0));
		q1[i] = rise[i] / 2;
	}
	assert_close(rise[1], 2749, 1);
	assert_close(rise[6], 13432, 1);
	probe_ring_cache(sizes, rise, q1, N_SIZES, HOT, &c);
	assert_int_equal(c.step, 1);
	assert_int_equal(c.ways, 1);
	assert_close(c.knee_tasks, 30, 0.15);
	assert_close(c.step_ns, 12000, 60);
	assert_close(c.pair_ns, 2000, 20);
	assert_true(c.rms_ns < 20);
	assert_in_range(c.cache_lines, 1910, 1930);
	assert_in_range(c.miss_ps, 186500, 188500);

	struct probe_ring_cache exact = c;

	exact.cache_lines = 1920;
	exact.miss_ps = 187500;
	assert_close(simulated_rise(&exact, 16) - simulated_rise(&exact, 2), 4328, 200);
}

/* A pair's saving and nothing else (this development host's rings, flat from 4 threads on): no
 * cache, whatever the knee. */
static void test_pair_only(void **state)
{
	(void)state;
	const double rise[N_SIZES] = { 0, 1500, 1500, 1500, 1500, 1500, 1500 };
	const double q1[N_SIZES] = { 0, 1200, 1200, 1200, 1200, 1200, 1200 };
	struct probe_ring_cache c;

	probe_ring_cache(sizes, rise, q1, N_SIZES, 5000, &c);
	assert_int_equal(c.step, 0);
	assert_close(c.pair_ns, 1500, 1e-6);

	char lines[512];

	probe_ring_lines(&c, lines, sizeof(lines));
	assert_non_null(strstr(lines, "no task cache modelled)\n"));
	assert_null(strstr(lines, "cache_lines="));
	assert_close(c.step_ns, 0, 1e-6);
	assert_int_equal(c.cache_lines, 0);
}

/* No step: a rise under a tenth of the hot hop (2 900 < 3 000), one that a quarter of the
 * largest ring's trials do not see, one that falls, and too little to fit. */
static void test_no_step(void **state)
{
	(void)state;
	const double small[N_SIZES] = { 0, 0, 0, 2900, 2900, 2900, 2900 };
	const double small_q1[N_SIZES] = { 0, 0, 0, 2000, 2000, 2000, 2000 };
	const double unsure_q1[N_SIZES] = { 0, 0, 0, 1000, 500, 100, 0 };
	const double cliff[N_SIZES] = { 0, 0, 0, 6000, 6000, 6000, 6000 };
	const double falls[N_SIZES] = { 0, -500, -1000, -4000, -4000, -4000, -4000 };
	struct probe_ring_cache c;

	probe_ring_cache(sizes, small, small_q1, N_SIZES, HOT, &c);
	assert_int_equal(c.step, 0);
	assert_int_equal(c.cache_lines, 0);
	probe_ring_cache(sizes, cliff, unsure_q1, N_SIZES, HOT, &c);
	assert_int_equal(c.step, 0);
	probe_ring_cache(sizes, falls, small_q1, N_SIZES, HOT, &c);
	assert_int_equal(c.step, 0);
	probe_ring_cache(sizes, cliff, small_q1, 1, HOT, &c);
	assert_int_equal(c.step, 0);
	probe_ring_cache(sizes, cliff, small_q1, N_SIZES, 0, &c);
	assert_int_equal(c.step, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cliff),
		cmocka_unit_test(test_one_way),
		cmocka_unit_test(test_pair_only),
		cmocka_unit_test(test_no_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
