/*
 * tests/tuner/knobs/test_knobs.c - the knob vocabulary (tuner/knobs/knobs.h): names, files,
 * ranges, get/set, clamping and the profiles' boot-time defaults.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tuner/knobs/knobs.h"

static void test_names_and_files(void **state)
{
	(void)state;
	assert_string_equal(knob_name(KNOB_LATENCY), "latency");
	assert_string_equal(knob_info(KNOB_MIN_GRANULARITY)->column, "min_granularity_ns");
	assert_string_equal(knob_info(KNOB_WAKEUP_GRANULARITY)->sysctl,
			    "sched_wakeup_granularity_ns");
	assert_string_equal(knob_info(KNOB_LATENCY)->debugfs, "latency_ns");

	enum knob k = KNOB_COUNT;
	assert_true(knob_from_name("min_granularity", &k) && k == KNOB_MIN_GRANULARITY);
	assert_true(knob_from_name("wakeup_granularity_ns", &k) && k == KNOB_WAKEUP_GRANULARITY);
	assert_false(knob_from_name("latency_", &k));
	assert_false(knob_from_name("min_gran", &k));
	assert_false(knob_from_name("", &k));
}

/* SPEC.md §3: latency and min_granularity 100 000 .. 1 000 000 000, wakeup 0 .. 1 000 000 000. */
static void test_ranges(void **state)
{
	(void)state;
	assert_int_equal(knob_info(KNOB_LATENCY)->min_ns, 100000);
	assert_int_equal(knob_info(KNOB_MIN_GRANULARITY)->max_ns, 1000000000);
	assert_int_equal(knob_info(KNOB_WAKEUP_GRANULARITY)->min_ns, 0);

	assert_true(knob_clamp(KNOB_LATENCY, 5.0) == 100000.0);
	assert_true(knob_clamp(KNOB_WAKEUP_GRANULARITY, -1.0) == 0.0);
	assert_true(knob_clamp(KNOB_MIN_GRANULARITY, 2e9) == 1e9);
	assert_true(knob_clamp(KNOB_MIN_GRANULARITY, 123456.0) == 123456.0);

	Knobs k = { 100000, 1000000000, 0 };
	assert_true(knobs_in_range(&k));
	k.latency_ns = 99999;
	assert_false(knobs_in_range(&k));
	k = (Knobs){ 100000, 100000, 1000000001 };
	assert_false(knobs_in_range(&k));
}

/* knob_set rounds to the nearest ns; knob_get reads back the field it set, and only it. */
static void test_get_set(void **state)
{
	(void)state;
	Knobs k = { 1, 2, 3 };

	knob_set(&k, KNOB_MIN_GRANULARITY, 750000.4);
	assert_int_equal(k.min_granularity_ns, 750000);
	knob_set(&k, KNOB_WAKEUP_GRANULARITY, 999.5);
	assert_int_equal(k.wakeup_granularity_ns, 1000);
	assert_int_equal(k.latency_ns, 1);
	assert_true(knob_get(&k, KNOB_MIN_GRANULARITY) == 750000.0);
	assert_true(knob_get(&k, KNOB_LATENCY) == 1.0);
}

/* SPEC.md §3: × (1 + ilog2 ncpus). 2.6.28 on 2 CPUs: 40 / 8 / 10 ms; 6.1 on 2: 12 / 1.5 / 2 ms;
 * 6.1 on 64 CPUs caps ncpus at 8: × 4 = 24 / 3 / 4 ms. */
static void test_profile_defaults(void **state)
{
	(void)state;
	Knobs k = knobs_profile_default(sched_profile_find("2.6.28"), 2);
	assert_int_equal(k.latency_ns, 40000000);
	assert_int_equal(k.min_granularity_ns, 8000000);
	assert_int_equal(k.wakeup_granularity_ns, 10000000);

	k = knobs_profile_default(sched_profile_find("6.1"), 2);
	assert_int_equal(k.latency_ns, 12000000);
	assert_int_equal(k.min_granularity_ns, 1500000);
	assert_int_equal(k.wakeup_granularity_ns, 2000000);

	k = knobs_profile_default(sched_profile_find("6.1"), 64);
	assert_int_equal(k.latency_ns, 24000000);
	assert_int_equal(k.min_granularity_ns, 3000000);
	assert_int_equal(k.wakeup_granularity_ns, 4000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_files),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_get_set),
		cmocka_unit_test(test_profile_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
