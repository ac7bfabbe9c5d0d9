/*
 * tests/tuner/knobs/test_knobs.c - the knob vocabulary (tuner/knobs/knobs.h): names, files,
 * ranges, get/set, clamping and the profiles' boot-time defaults.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

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

	Knobs k = KNOBS_CFS(100000, 1000000000, 0);
	assert_true(knobs_in_range(&k));
	k.latency_ns = 99999;
	assert_false(knobs_in_range(&k));
	k = (Knobs)KNOBS_CFS(100000, 100000, 1000000001);
	assert_false(knobs_in_range(&k));
}

/* knob_set rounds to the nearest ns; knob_get reads back the field it set, and only it. */
static void test_get_set(void **state)
{
	(void)state;
	Knobs k = KNOBS_CFS(1, 2, 3);

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

/* The two knobs after CFS's three: files, ranges, kernels (issue 15: migration_cost 0 .. 1e9,
 * sysctl before 5.13; base_slice a debugfs u32 from 6.6, no sysctl). */
static void test_migration_cost_and_base_slice(void **state)
{
	(void)state;
	const struct sched_profile *cfs = sched_profile_find("6.1"),
				   *eevdf = sched_profile_find("eevdf");

	assert_string_equal(knob_info(KNOB_MIGRATION_COST)->column, "migration_cost_ns");
	assert_string_equal(knob_info(KNOB_MIGRATION_COST)->sysctl, "sched_migration_cost_ns");
	assert_string_equal(knob_info(KNOB_MIGRATION_COST)->debugfs, "migration_cost_ns");
	assert_int_equal(knob_info(KNOB_MIGRATION_COST)->max_ns, 1000000000);
	assert_null(knob_info(KNOB_BASE_SLICE)->sysctl);
	assert_string_equal(knob_info(KNOB_BASE_SLICE)->debugfs, "base_slice_ns");
	assert_int_equal(knob_info(KNOB_BASE_SLICE)->max_ns, 4294967295ULL);

	assert_true(knob_in_profile(KNOB_LATENCY, cfs) && !knob_in_profile(KNOB_LATENCY, eevdf));
	assert_true(knob_in_profile(KNOB_MIGRATION_COST, cfs) &&
		    knob_in_profile(KNOB_MIGRATION_COST, eevdf));
	assert_true(!knob_in_profile(KNOB_BASE_SLICE, cfs) &&
		    knob_in_profile(KNOB_BASE_SLICE, eevdf));
	assert_int_equal(knob_set_default(cfs), 0x7);
	assert_int_equal(knob_set_default(eevdf), 1U << KNOB_BASE_SLICE);

	/* eevdf on 2 CPUs: 0.70 ms x 2; 6.6 on 64: 0.75 ms x (1 + ilog2 8) = 3 ms. */
	Knobs k = knobs_profile_default(eevdf, 2);
	assert_int_equal(k.base_slice_ns, 1400000);
	assert_int_equal(k.migration_cost_ns, 500000);
	assert_int_equal(k.latency_ns, 0);
	assert_int_equal(knobs_profile_default(sched_profile_find("6.6"), 64).base_slice_ns,
			 3000000);
	assert_int_equal(knobs_profile_default(cfs, 2).migration_cost_ns, 500000);
}

static void expect_set(const char *text, const char *profile, KnobSet want)
{
	KnobSet got = 0;
	GError *error = NULL;

	if (!knob_set_parse(text, profile ? sched_profile_find(profile) : NULL, &got, &error))
		fail_msg("'%s': %s", text, error->message);
	assert_int_equal(got, want);
}

static void expect_set_refused(const char *text, const char *profile, const char *needle)
{
	KnobSet got = 0;
	GError *error = NULL;

	assert_false(knob_set_parse(text, sched_profile_find(profile), &got, &error));
	if (!g_str_has_prefix(error->message, "--knobs: ") || !strstr(error->message, needle))
		fail_msg("'%s': '%s' lacks '%s'", text, error->message, needle);
	g_error_free(error);
}

static void test_knob_sets(void **state)
{
	(void)state;
	expect_set("latency,min_granularity,wakeup_granularity,migration_cost", "6.1", 0xf);
	expect_set("migration_cost_ns,latency", "2.6.28", 0x9);
	expect_set("base_slice,migration_cost", "eevdf", 0x18);
	expect_set("migration_cost", "eevdf", 0x8);
	expect_set("base_slice,latency", NULL, 0x11);
	expect_set_refused("latency,base_slice", "eevdf", "has no latency");
	expect_set_refused("base_slice", "6.1", "has no base_slice");
	expect_set_refused("latency,latency", "6.1", "latency is given twice");
	expect_set_refused("latency,foo", "6.1", "'foo' is not");
	expect_set_refused("", "6.1", "names no knob");

	g_autofree char *names = knob_set_names(0x19, ",");
	assert_string_equal(names, "latency,migration_cost,base_slice");
	assert_int_equal(knob_set_count(0x19), 3);
}

/* knobs_apply writes the set's knobs and leaves the others as they are. */
static void test_apply_only_the_set(void **state)
{
	(void)state;
	struct sched_tunables tun = { .latency = 1,
				      .min_granularity = 2,
				      .wakeup_granularity = 3,
				      .migration_cost = 4,
				      .base_slice = 5 };
	Knobs k = { 10, 20, 30, 40, 50 };

	knobs_apply(&k, KNOB_BIT(KNOB_MIN_GRANULARITY) | KNOB_BIT(KNOB_MIGRATION_COST), &tun);
	assert_int_equal(tun.latency, 1);
	assert_int_equal(tun.min_granularity, 20);
	assert_int_equal(tun.wakeup_granularity, 3);
	assert_int_equal(tun.migration_cost, 40);
	assert_int_equal(tun.base_slice, 5);
	knobs_apply(&k, KNOB_SET_ALL, &tun);
	assert_int_equal(tun.latency, 10);
	assert_int_equal(tun.base_slice, 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migration_cost_and_base_slice),
		cmocka_unit_test(test_knob_sets),
		cmocka_unit_test(test_apply_only_the_set),
		cmocka_unit_test(test_names_and_files),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_get_set),
		cmocka_unit_test(test_profile_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
