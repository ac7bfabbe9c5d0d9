/*
 * tests/tuner/fidelity/test_host_stalls.c - a host's stalls of a guest's vCPUs placed in the
 * guest's schedule (tuner/fidelity/host_stalls.h), on a hand-made pair of traces whose every
 * figure is worked out below, and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/assert_close.h"
#include "tuner/fidelity/host_stalls.h"

/* The guest's lines as tracefs prints them, the host's as `perf script` does. */
#define GSW(cpu, ts, pc, pp, st, nc, np)                                              \
	"x-1 [00" #cpu "] d..2. " ts ": sched_switch: prev_comm=" pc " prev_pid=" #pp \
	" prev_prio=120 prev_state=" st " ==> next_comm=" nc " next_pid=" #np " next_prio=120\n"
#define GWK(cpu, ts, comm, pid)                                                             \
	"x-1 [00" #cpu "] d..2. " ts ": sched_wakeup: comm=" comm " pid=" #pid " prio=120 " \
	"target_cpu=00" #cpu "\n"
#define HSW(cpu, ts, pc, pp, st, nc, np)                                                \
	"  x 1 [00" #cpu "] " ts ": sched:sched_switch: prev_comm=" pc " prev_pid=" #pp \
	" prev_prio=120 prev_state=" st " ==> next_comm=" nc " next_pid=" #np " next_prio=120\n"

/*
 * The guest, two CPUs. CPU 0: sender-1 (11) and receiver-1 (12) in ping-pong; its vCPU is
 * stalled three times (the host below), during a sender's run (silence 1.002000-1.007000), a
 * receiver's (1.007000-1.012000) and a sender's again (1.012500-1.017500). CPU 1: the parent
 * hackbench (10) runs 0.5 ms, the CPU idles, halted on the host from 1.000600 to 1.008800
 * (silence 1.000500-1.009000), and the parent runs 0.5 ms again.
 */
static const char *const guest_lines[] = {
	GSW(0, "1.000000", "swapper/0", 0, "R", "sender-1", 11),
	GWK(0, "1.001000", "receiver-1", 12),
	GSW(0, "1.001100", "sender-1", 11, "R", "receiver-1", 12),
	GSW(0, "1.001500", "receiver-1", 12, "S", "sender-1", 11),
	GWK(0, "1.002000", "receiver-1", 12),
	GSW(0, "1.007000", "sender-1", 11, "R", "receiver-1", 12),
	GSW(0, "1.012000", "receiver-1", 12, "S", "sender-1", 11),
	GWK(0, "1.012500", "receiver-1", 12),
	GSW(0, "1.017500", "sender-1", 11, "R", "receiver-1", 12),
	GSW(0, "1.017900", "receiver-1", 12, "S", "sender-1", 11),
	GSW(1, "1.000000", "swapper/1", 0, "R", "hackbench", 10),
	GSW(1, "1.000500", "hackbench", 10, "S", "swapper/1", 0),
	GSW(1, "1.009000", "swapper/1", 0, "R", "hackbench", 10),
	GSW(1, "1.009500", "hackbench", 10, "S", "swapper/1", 0),
	NULL,
};

/*
 * The host's clock runs 100 s ahead. Host CPU 0 holds vCPU 0's thread and a hog (sh, 600): the
 * hog preempts the vCPU at guest 1.002050 and 1.007100, and the vCPU waits (S) at 1.012600.
 * Host CPU 1: vCPU 1's thread halts (S) at guest 1.000600, a hog runs, the vCPU is back at
 * 1.008800.
 */
static const char *const host_lines[] = {
	HSW(0, "100.999000", "sh", 600, "R", "CPU 0/TCG", 500),
	HSW(0, "101.002050", "CPU 0/TCG", 500, "R", "sh", 600),
	HSW(0, "101.006950", "sh", 600, "R", "CPU 0/TCG", 500),
	HSW(0, "101.007100", "CPU 0/TCG", 500, "R", "sh", 600),
	HSW(0, "101.011900", "sh", 600, "R", "CPU 0/TCG", 500),
	HSW(0, "101.012600", "CPU 0/TCG", 500, "S", "sh", 600),
	HSW(0, "101.017400", "sh", 600, "R", "CPU 0/TCG", 500),
	HSW(0, "101.019000", "CPU 0/TCG", 500, "R", "sh", 600),
	HSW(1, "100.999000", "sh", 601, "R", "CPU 1/TCG", 501),
	HSW(1, "101.000600", "CPU 1/TCG", 501, "S", "sh", 601),
	HSW(1, "101.008800", "sh", 601, "R", "CPU 1/TCG", 501),
	HSW(1, "101.019000", "CPU 1/TCG", 501, "R", "sh", 601),
	NULL,
};

/* The host's lines and the guest's above, read. */
static void read_both(const char *const *host_text, TraceTimeline *h, TraceTimeline *g)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *ht = g_strjoinv("", (char **)host_text);
	g_autofree char *gt = g_strjoinv("", (char **)guest_lines);

	if (!trace_timeline_read_text(ht, -1, "host", NULL, h, &error) ||
	    !trace_timeline_read_text(gt, -1, "guest", NULL, g, &error))
		fail_msg("%s", error->message);
}

/*
 * Every figure by hand. The silences: CPU 0's three of 5 ms, CPU 1's of 8.5 ms; the stalls of
 * vCPU 0 4.9, 4.8 and 4.8 ms long, vCPU 1's 8.2 ms. At 100 s each silence lines up with its
 * stall, and the pairs allow (in us past 100 s) [-50, 50], [-100, 100], [-100, 100] and [-200,
 * 100] (stall end - silence end, stall start - silence start): all four agree on [-50, 50], so
 * the offset is 100 s exactly. The stalls begin in the sender's run 1.001500-1.007000, the
 * receiver's 1.007000-1.012000, the sender's 1.012000-1.017500 and CPU 1's idle 1.000500-1.009000;
 * the first two left the vCPU thread runnable. Runs under 2 ms: the sender's 1.1 ms
 * (1.000000-1.001100), the receiver's 0.4 and 0.4 ms, the parent's 0.5 and 0.5 ms.
 */
static void test_by_hand(void **state)
{
	TraceTimeline h, g;
	HostStalls hs;
	g_autoptr(GError) error = NULL;

	(void)state;
	read_both(host_lines, &h, &g);
	assert_true(host_stalls_compute(&h, &g, 2000000, 0, &hs, &error));
	assert_int_equal(hs.vcpus, 2);
	assert_close(hs.offset_s, 100.0, 1e-9);
	assert_close(hs.offset_lo_s, 100.0 - 50e-6, 1e-9);
	assert_close(hs.offset_hi_s, 100.0 + 50e-6, 1e-9);
	assert_int_equal(hs.silences, 4);
	assert_int_equal(hs.matched, 4);
	assert_int_equal(hs.stalls, 4);
	assert_int_equal(hs.preempted, 2);
	assert_int_equal(hs.began_in[TRACE_ROLE_SENDER], 2);
	assert_int_equal(hs.began_in[TRACE_ROLE_RECEIVER], 1);
	assert_int_equal(hs.began_in[TRACE_ROLE_PARENT], 0);
	assert_int_equal(hs.began_in[HOST_STALL_OTHER], 0);
	assert_int_equal(hs.began_in[HOST_STALL_IDLE], 1);
	assert_close(hs.run_s[TRACE_ROLE_SENDER], 1.1e-3, 1e-12);
	assert_close(hs.run_s[TRACE_ROLE_RECEIVER], 0.8e-3, 1e-12);
	assert_close(hs.run_s[TRACE_ROLE_PARENT], 1.0e-3, 1e-12);
	assert_close(hs.run_s[HOST_STALL_IDLE], 0, 1e-15);
	assert_string_equal(host_stall_kind_name(HOST_STALL_OTHER), "other task");
	assert_string_equal(host_stall_kind_name(TRACE_ROLE_RECEIVER), "receiver");
	for (guint b = 0; b < HOST_STALL_PHASES; b++)
		assert_int_equal(hs.stall_phase[b], 0); /* no tick given: no phases */
	trace_timeline_clear(&h);
	trace_timeline_clear(&g);
}

/*
 * The same traces with the host's tick of 4 ms (HZ 250): 101 s is a whole number of ticks, so
 * the phase is the host time's ms past 101.000 modulo 4, in parts of 200 us. The stalls begin
 * at 2.05 ms (part 10), 3.1 (15), 0.6 (3: 101.0126) and 0.6 (3: vCPU 1's 101.0006). The short
 * runs: the sender's 0 to 1.1 ms (parts 0 to 4 whole, 0.1 ms of 5); the receiver's 1.1 to 1.5
 * and 1.5 to 1.9 (101.0175 is 1.5 ms past a tick): 0.1, 0.2, 0.2, 0.2, 0.1 ms in parts 5 to 9;
 * the parent's 0 to 0.5 and 1.0 to 1.5 (101.009): 0.2, 0.2, 0.1 ms in 0 to 2, 0.2, 0.2, 0.1 in 5
 * to 7.
 */
static void test_phases(void **state)
{
	TraceTimeline h, g;
	HostStalls hs;
	g_autoptr(GError) error = NULL;
	static const double sender[6] = { 0.2, 0.2, 0.2, 0.2, 0.2, 0.1 };
	static const double receiver[10] = { 0, 0, 0, 0, 0, 0.1, 0.2, 0.2, 0.2, 0.1 };
	static const double parent[8] = { 0.2, 0.2, 0.1, 0, 0, 0.2, 0.2, 0.1 };

	(void)state;
	read_both(host_lines, &h, &g);
	assert_true(host_stalls_compute(&h, &g, 2000000, 4000000, &hs, &error));
	assert_int_equal(hs.tick_ns, 4000000);
	for (guint b = 0; b < HOST_STALL_PHASES; b++) {
		assert_int_equal(hs.stall_phase[b], b == 3 ? 2 : b == 10 || b == 15 ? 1 : 0);
		assert_close(hs.run_phase_s[TRACE_ROLE_SENDER][b], b < 6 ? sender[b] * 1e-3 : 0,
			     1e-12);
		assert_close(hs.run_phase_s[TRACE_ROLE_RECEIVER][b],
			     b < 10 ? receiver[b] * 1e-3 : 0, 1e-12);
		assert_close(hs.run_phase_s[TRACE_ROLE_PARENT][b], b < 8 ? parent[b] * 1e-3 : 0,
			     1e-12);
	}
	trace_timeline_clear(&h);
	trace_timeline_clear(&g);
}

/*
 * How the host shared its CPUs, over the guest's trace on the host's clock: 101.000000 to
 * 101.017900 (17.9 ms). vCPU 0 runs 101.000000-101.002050, 101.006950-101.007100,
 * 101.011900-101.012600 and 101.017400-101.017900 (3.4 ms); vCPU 1 101.000000-101.000600 and
 * 101.008800-101.017900 (9.7 ms). Both at once: 0.6 + 0.7 + 0.5 = 1.8 ms; one: 3.4 + 9.7 - 2 *
 * 1.8 = 9.5 ms; none: 6.6 ms. Independent threads of shares p0 = 3.4 / 17.9 and p1 = 9.7 / 17.9:
 * none (1 - p0) (1 - p1) = 14.5 * 8.2 / 17.9^2, both p0 p1 = 3.4 * 9.7 / 17.9^2, one the rest.
 * In 4 ms ticks (rounded): the stalls of 4.9, 4.8 and 4.8 ms one tick each, vCPU 1's 8.2 ms two,
 * mean 22.7 / 4 ms = 1.41875 ticks; the runs with a stall at both ends are vCPU 0's 0.15 and 0.7
 * ms (0 ticks, mean 0.10625). Without the tick, no ticks are counted. In ticks of 3 ms, lengths
 * round to the nearest tick: the stalls 1.63, 1.6, 1.6 and 2.73 ticks count as 2, 2, 2 and 3.
 */
static void test_sharing(void **state)
{
	TraceTimeline h, g;
	HostStalls hs;
	g_autoptr(GError) error = NULL;
	const double span = 17.9 * 17.9;
	static const guint run_ticks[HOST_STALL_TICKS] = { 2, 0, 0, 0, 0 };
	static const guint stall_ticks[HOST_STALL_TICKS] = { 0, 3, 1, 0, 0 };

	(void)state;
	read_both(host_lines, &h, &g);
	for (int with_tick = 0; with_tick < 2; with_tick++) {
		assert_true(
			host_stalls_compute(&h, &g, 2000000, with_tick ? 4000000 : 0, &hs, &error));
		assert_close(hs.at_once[0], 6.6 / 17.9, 1e-9);
		assert_close(hs.at_once[1], 9.5 / 17.9, 1e-9);
		assert_close(hs.at_once[2], 1.8 / 17.9, 1e-9);
		assert_close(hs.at_once_independent[0], 14.5 * 8.2 / span, 1e-9);
		assert_close(hs.at_once_independent[2], 3.4 * 9.7 / span, 1e-9);
		assert_close(hs.at_once_independent[1], 1 - (14.5 * 8.2 + 3.4 * 9.7) / span, 1e-9);
		for (guint k = 3; k < HOST_STALL_AT_ONCE; k++)
			assert_true(hs.at_once[k] == 0 && hs.at_once_independent[k] == 0);
		for (guint b = 0; b < HOST_STALL_TICKS; b++) {
			assert_int_equal(hs.run_ticks[b], with_tick ? run_ticks[b] : 0);
			assert_int_equal(hs.stall_ticks[b], with_tick ? stall_ticks[b] : 0);
		}
		if (with_tick) {
			assert_close(hs.run_mean_ticks, 0.10625, 1e-12);
			assert_close(hs.stall_mean_ticks, 1.41875, 1e-12);
		} else {
			assert_true(isnan(hs.run_mean_ticks) && isnan(hs.stall_mean_ticks));
		}
	}
	assert_true(host_stalls_compute(&h, &g, 2000000, 3000000, &hs, &error));
	for (guint b = 0; b < HOST_STALL_TICKS; b++)
		assert_int_equal(hs.stall_ticks[b], b == 2 ? 3 : b == 3 ? 1 : 0);
	assert_close(hs.stall_mean_ticks, 22.7 / 12, 1e-12);
	trace_timeline_clear(&h);
	trace_timeline_clear(&g);
}

/* A host trace without the guest's vCPU threads, one of two guests, one whose stalls line up
 * with nothing. */
static void test_refusals(void **state)
{
	static const char *const no_vcpu[] = {
		HSW(0, "100.999000", "sh", 600, "R", "qemu", 700),
		HSW(0, "101.002050", "qemu", 700, "R", "sh", 600),
		NULL,
	};
	static const char *const two_guests[] = {
		HSW(0, "100.999000", "sh", 600, "R", "CPU 0/TCG", 500),
		HSW(1, "100.999000", "sh", 601, "R", "CPU 0/TCG", 510),
		HSW(0, "101.002050", "CPU 0/TCG", 500, "R", "sh", 600),
		HSW(1, "101.002050", "CPU 0/TCG", 510, "R", "sh", 601),
		NULL,
	};
	static const char *const no_stall[] = {
		HSW(0, "100.999000", "sh", 600, "R", "CPU 0/TCG", 500),
		HSW(0, "101.019000", "CPU 0/TCG", 500, "R", "sh", 600),
		NULL,
	};
	TraceTimeline h, g;
	HostStalls hs;
	GError *error = NULL;

	(void)state;
	read_both(no_vcpu, &h, &g);
	assert_false(host_stalls_compute(&h, &g, 2000000, 0, &hs, &error));
	assert_non_null(strstr(error->message, "no thread of the guest's CPUs 0 to 1"));
	g_clear_error(&error);
	trace_timeline_clear(&h);
	trace_timeline_clear(&g);

	read_both(two_guests, &h, &g);
	assert_false(host_stalls_compute(&h, &g, 2000000, 0, &hs, &error));
	assert_non_null(strstr(error->message, "two threads for guest CPU 0"));
	g_clear_error(&error);
	trace_timeline_clear(&h);
	trace_timeline_clear(&g);

	read_both(no_stall, &h, &g);
	assert_false(host_stalls_compute(&h, &g, 2000000, 0, &hs, &error));
	assert_non_null(strstr(error->message, "line up"));
	g_clear_error(&error);
	trace_timeline_clear(&h);
	trace_timeline_clear(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_sharing),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
