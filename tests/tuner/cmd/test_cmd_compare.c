/*
 * End-to-end tests of `tuner compare REAL.trace SIM.trace`: the real binary of this build variant,
 * spawned without a shell. A simulated trace (`linsched hackbench --trace`) compared with itself
 * must show the simulator's own switch count on both sides; bad input gets one line and exit
 * status 2. The figures themselves are tested on a hand-made trace in
 * tests/tuner/fidelity/test_trace_stats.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define TUNER_RUN(...)	  run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)
#define LINSCHED_RUN(...) run_program(LINSCHED, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static int make_dir(void **state)
{
	*state = temp_dir("test_cmd_compare-XXXXXX");
	return 0;
}

static int unmake_dir(void **state)
{
	assert_true(remove_tree(*state));
	g_free(*state);
	return 0;
}

/* One group of 4 senders and 4 receivers, 5 loops: 80 messages. */
static struct json *simulate(const char *path)
{
	struct run r = LINSCHED_RUN("hackbench", "-g", "1", "-l", "5", "--fds", "4", "--threads",
				    "--profile", "6.1", "--format", "json", "--trace", path);

	expect_clean_exit(&r, "linsched hackbench --trace");
	struct json *doc = json_parse(r.out);

	run_clear(&r);
	return doc;
}

static void test_sim_against_itself(void **state)
{
	g_autofree char *path = g_build_filename(*state, "sim.trace", NULL);
	struct json *report = simulate(path);
	struct run r = TUNER_RUN("compare", path, path, "--messages", "80", "--window", "all",
				 "--format", "json");

	expect_clean_exit(&r, "tuner compare --format json");
	struct json *doc = json_parse(r.out);

	/* Every switch of the run is in its trace; a wakeup for every task that blocked. */
	for (int side = 0; side < 2; side++) {
		const struct json *s = member(doc, side ? "sim" : "real", J_OBJECT);

		assert_int_equal(member_uint(s, "switches"),
				 member_uint(report, "context_switches"));
		assert_int_equal(member_uint(s, "workload_tasks"), 8);
		assert_int_equal(member_uint(s, "senders"), 4);
		assert_int_equal(member_uint(s, "receivers"), 4);
		assert_true(member_uint(s, "wakeups") > 0);
		assert_int_equal(member_uint(s, "messages"), 80);
		/* Only the workload runs in a simulation: every switch has it on one side. */
		assert_int_equal(member_uint(s, "switches_workload"), member_uint(s, "switches"));
		assert_int_equal(member(s, "idle_s", J_ARRAY)->array->len, 2);
		/* No --flips: no replay. */
		member(s, "inherited_flips", J_NULL);
		member(s, "wake_cross_wide", J_NULL);
	}
	json_free(doc);
	run_clear(&r);

	/* --flips REAL,SIM: each side replays from its own, wake_wide's factor the trace's CPUs. */
	r = TUNER_RUN("compare", path, path, "--window", "all", "--flips", "3,5", "--format",
		      "json");
	expect_clean_exit(&r, "tuner compare --flips 3,5");
	doc = json_parse(r.out);
	assert_int_equal(member_uint(member(doc, "real", J_OBJECT), "inherited_flips"), 3);
	assert_int_equal(member_uint(member(doc, "sim", J_OBJECT), "inherited_flips"), 5);
	assert_int_equal(member_uint(member(doc, "sim", J_OBJECT), "llc_cpus"), 2);
	json_free(doc);
	run_clear(&r);
	r = TUNER_RUN("compare", path, path, "--flips", "4", "--llc-cpus", "1");
	expect_clean_exit(&r, "tuner compare --flips 4 --llc-cpus 1");
	assert_non_null(strstr(r.out, "replayed from 4 inherited (real), 4 (sim); wake_wide's "
				      "factor 1, 1"));
	assert_non_null(strstr(r.out, "a woken worker runs after (us)"));
	run_clear(&r);

	/* The text table has a row per figure, sim/real 1 where both sides are the same. */
	r = TUNER_RUN("compare", path, path, "--messages", "80");
	expect_clean_exit(&r, "tuner compare");
	assert_non_null(strstr(r.out, "switches, all"));
	assert_non_null(strstr(r.out, "messages / receiver run"));
	assert_non_null(strstr(r.out, "1.000"));
	run_clear(&r);
	json_free(report);
}

static void expect_usage(struct run r, const char *needle)
{
	expect_refusal(&r, "tuner compare", needle);
	run_clear(&r);
}

static void test_bad_input(void **state)
{
	g_autofree char *sim = g_build_filename(*state, "sim.trace", NULL);
	g_autofree char *bad = g_build_filename(*state, "bad.trace", NULL);
	g_autofree char *missing = g_build_filename(*state, "missing.trace", NULL);

	json_free(simulate(sim));
	assert_true(g_file_set_contents(
		bad, "# header\nx-1 [000] d..2. 1.000000: sched_wakeup: comm=a pid=1\n", -1, NULL));
	expect_usage(TUNER_RUN("compare", sim), "two traces");
	expect_usage(TUNER_RUN("compare", sim, sim, sim), "two traces");
	expect_usage(TUNER_RUN("compare", sim, missing), "missing.trace");
	expect_usage(TUNER_RUN("compare", bad, sim), "bad.trace:2:");
	expect_usage(TUNER_RUN("compare", sim, sim, "--window", "some"), "--window");
	expect_usage(TUNER_RUN("compare", sim, sim, "--format", "xml"), "--format");
	expect_usage(TUNER_RUN("compare", sim, sim, "--messages", "-1"), "--messages");
	/* 0 stood for "not given": no per-message figures, silently */
	expect_usage(TUNER_RUN("compare", sim, sim, "--messages", "0"), "--messages");
	expect_usage(TUNER_RUN("compare", sim, sim, "--workload", "nginx"), "no task");
	expect_usage(TUNER_RUN("compare", sim, sim, "--no-such-flag"), "no-such-flag");
	expect_usage(TUNER_RUN("compare", sim, sim, "--flips", "x"), "--flips");
	expect_usage(TUNER_RUN("compare", sim, sim, "--flips", "-1"), "--flips");
	expect_usage(TUNER_RUN("compare", sim, sim, "--flips", "1,2,3"), "--flips");
	expect_usage(TUNER_RUN("compare", sim, sim, "--flips", ""), "--flips");
	expect_usage(TUNER_RUN("compare", sim, sim, "--flips", "1000001"), "--flips");
	expect_usage(TUNER_RUN("compare", sim, sim, "--llc-cpus", "2"), "--llc-cpus");
	expect_usage(TUNER_RUN("compare", sim, sim, "--flips", "1", "--llc-cpus", "0"),
		     "--llc-cpus");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sim_against_itself, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_bad_input, make_dir, unmake_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
