/*
 * End-to-end tests of `tuner stalls HOST.trace GUEST.trace`: the real binary of this build
 * variant, spawned without a shell, on two small traces of one guest CPU whose host clock runs
 * 50 s ahead; bad input gets one line and exit status 2. The figures themselves are worked out by
 * hand in tests/tuner/fidelity/test_host_stalls.c.
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

#include "tests/support/assert_close.h"
#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define TUNER_RUN(...) run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

/* A receiver (pid 3) and a sender (pid 2) on guest CPU 0, stalled twice in the sender's runs. */
static const char guest[] =
	"x-1 [000] d..2. 5.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
	"prev_state=R ==> next_comm=sender-1 next_pid=2 next_prio=120\n"
	"x-1 [000] d..2. 5.000200: sched_wakeup: comm=receiver-1 pid=3 prio=120 target_cpu=000\n"
	"x-1 [000] d..2. 5.006000: sched_switch: prev_comm=sender-1 prev_pid=2 prev_prio=120 "
	"prev_state=R ==> next_comm=receiver-1 next_pid=3 next_prio=120\n"
	"x-1 [000] d..2. 5.006300: sched_switch: prev_comm=receiver-1 prev_pid=3 prev_prio=120 "
	"prev_state=S ==> next_comm=sender-1 next_pid=2 next_prio=120\n"
	"x-1 [000] d..2. 5.006500: sched_wakeup: comm=receiver-1 pid=3 prio=120 target_cpu=000\n"
	"x-1 [000] d..2. 5.011500: sched_switch: prev_comm=sender-1 prev_pid=2 prev_prio=120 "
	"prev_state=R ==> next_comm=receiver-1 next_pid=3 next_prio=120\n";

/* Its vCPU on the host, 50 s ahead: preempted by a hog at 5.000300 and 5.006600, for 5 ms. */
#define HOST_SW(ts, pc, pp, nc, np)                                              \
	"  x 1 [001] " ts ": sched:sched_switch: prev_comm=" pc " prev_pid=" #pp \
	" prev_prio=120 prev_state=R ==> next_comm=" nc " next_pid=" #np " next_prio=120\n"
static const char *const host_lines[] = {
	HOST_SW("54.990000", "sh", 9, "CPU 0/TCG", 8),
	HOST_SW("55.000300", "CPU 0/TCG", 8, "sh", 9),
	HOST_SW("55.005300", "sh", 9, "CPU 0/TCG", 8),
	HOST_SW("55.006600", "CPU 0/TCG", 8, "sh", 9),
	HOST_SW("55.011400", "sh", 9, "CPU 0/TCG", 8),
	HOST_SW("55.020000", "CPU 0/TCG", 8, "sh", 9),
	NULL,
};

static char *write_file(void **state, const char *name, const char *text)
{
	char *path = g_build_filename(*state, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/*
 * The silences 5.000200-5.006000 and 5.006500-5.011500 line up with the stalls 5.000300-5.005300
 * and 5.006600-5.011400 (host time - 50 s). Both begin in the sender's runs; the range both
 * allow is [50 s - 100 us, 50 s + 100 us] (stall end - silence end, stall start - silence
 * start: [-700, 100] and [-100, 100] us).
 */
static void test_two_stalls(void **state)
{
	g_autofree char *host = g_strjoinv("", (char **)host_lines);
	g_autofree char *h = write_file(state, "host.trace", host);
	g_autofree char *g = write_file(state, "guest.trace", guest);
	struct run r = TUNER_RUN("stalls", h, g, "--format", "json");

	expect_clean_exit(&r, "tuner stalls --format json");
	struct json *doc = json_parse(r.out);

	assert_close(json_number_at(doc, "offset_s"), 50.0, 1e-9);
	assert_close(json_number_at(doc, "offset_lo_s"), 50.0 - 100e-6, 1e-9);
	assert_close(json_number_at(doc, "offset_hi_s"), 50.0 + 100e-6, 1e-9);
	assert_int_equal(member_uint(doc, "vcpus"), 1);
	assert_int_equal(member_uint(doc, "silences"), 2);
	assert_int_equal(member_uint(doc, "matched"), 2);
	assert_int_equal(member_uint(doc, "stalls"), 2);
	assert_int_equal(member_uint(doc, "preempted"), 2);
	assert_close(json_number_at(doc, "began_in.sender.stalls"), 2, 0);
	assert_close(json_number_at(doc, "began_in.receiver.stalls"), 0, 0);
	/* The receiver's 0.3 ms run; the sender's are all over 2 ms. */
	assert_close(json_number_at(doc, "began_in.receiver.run_s"), 0.3e-3, 1e-12);
	json_free(doc);
	run_clear(&r);

	r = TUNER_RUN("stalls", h, g);
	expect_clean_exit(&r, "tuner stalls");
	assert_non_null(strstr(r.out, "clock offset, host - guest (s)"));
	assert_non_null(strstr(r.out, "50.000000"));
	assert_non_null(strstr(r.out, "sender"));
	run_clear(&r);
}

/* The i-th number of the array at key of doc. */
static double nth(const struct json *doc, const char *key, guint i)
{
	const struct json *a = member(doc, key, J_ARRAY);

	assert_true(i < a->array->len);
	return ((const struct json *)g_ptr_array_index(a->array, i))->number;
}

/*
 * The host's side over the guest's trace (host 55.000000-55.011500, 11.5 ms): the vCPU runs 0.3,
 * 1.3 and 0.1 ms, 1.7 ms in all, so one thread runs 1.7 / 11.5 of the time, as an independent
 * one would. In 4 ms ticks the stalls of 5.0 and 4.8 ms are one tick each (mean 9.8 / 8 =
 * 1.225), the 1.3 ms run between them none (0.325).
 */
static void test_host_ticks(void **state)
{
	g_autofree char *host = g_strjoinv("", (char **)host_lines);
	g_autofree char *h = write_file(state, "host.trace", host);
	g_autofree char *g = write_file(state, "guest.trace", guest);
	struct run r = TUNER_RUN("stalls", h, g, "--host-hz", "250", "--format", "json");

	expect_clean_exit(&r, "tuner stalls --host-hz 250 --format json");
	struct json *doc = json_parse(r.out);

	assert_close(nth(doc, "at_once", 0), 9.8 / 11.5, 1e-9);
	assert_close(nth(doc, "at_once", 1), 1.7 / 11.5, 1e-9);
	assert_close(nth(doc, "at_once_independent", 1), 1.7 / 11.5, 1e-9);
	assert_close(nth(doc, "at_once", 2), 0, 0);
	assert_close(nth(doc, "stall_ticks", 1), 2, 0);
	assert_close(nth(doc, "run_ticks", 0), 1, 0);
	assert_close(json_number_at(doc, "stall_mean_ticks"), 1.225, 1e-12);
	assert_close(json_number_at(doc, "run_mean_ticks"), 0.325, 1e-12);
	json_free(doc);
	run_clear(&r);

	r = TUNER_RUN("stalls", h, g, "--host-hz", "250");
	expect_clean_exit(&r, "tuner stalls --host-hz 250");
	assert_non_null(strstr(r.out, "vCPU threads running at once"));
	assert_non_null(strstr(r.out, "vCPU runs between stalls"));
	run_clear(&r);
}

static void expect_usage(struct run r, const char *needle)
{
	expect_refusal(&r, "tuner stalls", needle);
	run_clear(&r);
}

static void test_bad_input(void **state)
{
	g_autofree char *host = g_strjoinv("", (char **)host_lines);
	g_autofree char *h = write_file(state, "host.trace", host);
	g_autofree char *g = write_file(state, "guest.trace", guest);
	g_autofree char *bad = write_file(
		state, "bad.trace", "# header\nx-1 [000] d..2. 1.000000: sched_wakeup: comm=a\n");
	g_autofree char *missing = g_build_filename(*state, "missing.trace", NULL);

	expect_usage(TUNER_RUN("stalls", h), "two traces");
	expect_usage(TUNER_RUN("stalls", h, g, g), "two traces");
	expect_usage(TUNER_RUN("stalls", h, missing), "missing.trace");
	expect_usage(TUNER_RUN("stalls", bad, g), "bad.trace:2:");
	expect_usage(TUNER_RUN("stalls", h, g, "--format", "xml"), "--format");
	expect_usage(TUNER_RUN("stalls", h, g, "--min-stall-us", "0"), "--min-stall-us");
	expect_usage(TUNER_RUN("stalls", h, g, "--workload", ","), "--workload");
	/* The guest's trace as the host's: no vCPU thread in it. */
	expect_usage(TUNER_RUN("stalls", g, g), "no thread of the guest");
	/* Stalls 20 ms or longer: none here, nothing to line up. */
	expect_usage(TUNER_RUN("stalls", h, g, "--min-stall-us", "20000"), "line up");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_stalls, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_host_ticks, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, temp_dir_setup, temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
