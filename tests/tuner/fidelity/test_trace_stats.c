/*
 * tests/tuner/fidelity/test_trace_stats.c - the statistics of a sched_switch / sched_wakeup trace
 * (tuner/fidelity/trace_stats.h) on a small hand-made trace whose every figure is counted by hand
 * below, and the parser's refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/assert_close.h"
#include "tuner/fidelity/trace_stats.h"

/* A sched_switch and a sched_wakeup line, as the kernel prints them. */
#define SW(task, cpu, ts, pc, pp, st, nc, np)                                           \
	task " [00" #cpu "] d..2. " ts ": sched_switch: prev_comm=" pc " prev_pid=" #pp \
	     " prev_prio=120 prev_state=" st " ==> next_comm=" nc " next_pid=" #np      \
	     " next_prio=120\n"
#define WK(task, cpu, ts, comm, pid, target)                                                  \
	task " [00" #cpu "] d..2. " ts ": sched_wakeup: comm=" comm " pid=" #pid " prio=120 " \
	     "target_cpu=00" #target "\n"
/* A wakeup_preempt line (the guest's kprobe on check_preempt_wakeup), latency 12 ms, gran 2 ms. */
#define CK(task, cpu, ts, cvr, wvr, mvr, nr, cp, wp)                                              \
	task " [00" #cpu "] d..2. " ts                                                            \
	     ": wakeup_preempt: (check_preempt_wakeup+0x0/0x2c0) curr_vr=" #cvr " wakee_vr=" #wvr \
	     " min_vr=" #mvr " nr=" #nr " curr_pid=" #cp " wakee_pid=" #wp                        \
	     " latency=12000000 gran=2000000\n"
#define HB "hackbench"

/*
 * Parent 10 and workers 11, 12, 13, all named hackbench; kworkers 5 and 6; two CPUs.
 * Before the release every worker blocks (lines 2-4); the parent wakes them (1.000100-120); then a
 * wakeup preemption (1.000310), a kworker preempting a worker (1.001000), another wakeup
 * preemption (1.001600), a tick preemption (1.001700), and the workers' exits, the last at
 * 1.002100. After it the parent is woken and exits, and a task whose name has a blank and a dash
 * wakes another (the old format's success=1 included). Four preemption checks (CK), which the
 * statistics read apart from the wakeups (the second stands alone): three put a worker beside a
 * running worker inside the window (the third across the vruntimes' wrap at 2^64), one a
 * kworker (no worker).
 */
static const char *const trace_lines[] = {
	"# tracer: nop\n",
	"#\n",
	SW("kworker/1:1-5", 1, "1.000000", "kworker/1:1", 5, "I", "swapper/1", 0),
	SW("hackbench-11", 0, "1.000000", HB, 11, "S", HB, 12),
	SW("hackbench-12", 0, "1.000010", HB, 12, "S", HB, 13),
	SW("hackbench-13", 0, "1.000020", HB, 13, "S", HB, 10),
	"     hackbench-10 [000] d..2. 1.000050: sched_migrate_task: not an event we read\n",
	WK("hackbench-10", 0, "1.000100", HB, 11, 1),
	WK("hackbench-10", 0, "1.000110", HB, 12, 0),
	WK("hackbench-10", 0, "1.000120", HB, 13, 0),
	SW("<idle>-0", 1, "1.000130", "swapper/1", 0, "R", HB, 11),
	SW("hackbench-10", 0, "1.000200", HB, 10, "S", HB, 12),
	SW("hackbench-12", 0, "1.000250", HB, 12, "S", HB, 13),
	CK("hackbench-11", 1, "1.000300", 20000000, 13000000, 19000000, 2, 11, 12),
	WK("hackbench-11", 1, "1.000300", HB, 12, 1),
	CK("hackbench-11", 1, "1.000305", 25000000, 21000000, 24000000, 3, 11, 13),
	SW("hackbench-11", 1, "1.000310", HB, 11, "R", HB, 12),
	SW("hackbench-12", 1, "1.000400", HB, 12, "S", HB, 11),
	CK("hackbench-13", 0, "1.000900", 5000000, 1000000, 5000000, 2, 13, 6),
	WK("hackbench-13", 0, "1.000900", "kworker/0:2", 6, 0),
	SW("hackbench-13", 0, "1.001000", HB, 13, "R+", "kworker/0:2", 6),
	SW("kworker/0:2-6", 0, "1.001050", "kworker/0:2", 6, "I", HB, 13),
	CK("hackbench-11", 1, "1.001500", 1500000, 18446744073709051616, 1000000, 2, 13, 12),
	WK("hackbench-11", 1, "1.001500", HB, 12, 0),
	SW("hackbench-13", 0, "1.001600", HB, 13, "R", HB, 12),
	SW("hackbench-12", 0, "1.001700", HB, 12, "R", HB, 13),
	SW("hackbench-13", 0, "1.001800", HB, 13, "X", HB, 12),
	SW("hackbench-11", 1, "1.002000", HB, 11, "X", "swapper/1", 0),
	SW("hackbench-12", 0, "1.002100", HB, 12, "X", "swapper/0", 0),
	"       my-task x-7 [001] d..2. 1.002150: sched_wakeup: comm=my-task x pid=8 prio=120 success=1 target_cpu=001\n",
	WK("<idle>-0", 1, "1.002200", HB, 10, 1),
	SW("<idle>-0", 1, "1.002300", "swapper/1", 0, "R", HB, 10),
	SW("hackbench-10", 1, "1.003000", HB, 10, "Z", "swapper/1", 0),
	NULL,
};

/* The lines above as one text. */
static char *trace_text(void)
{
	return g_strjoinv("", (char **)trace_lines);
}

/* Reads text (named name, options opt, NULL: the defaults) into st, or fails the test. */
static void parse_ok(const char *text, const char *name, const TraceStatsOptions *opt,
		     TraceStats *st)
{
	g_autoptr(GError) error = NULL;

	if (!trace_stats_read_text(text, -1, name, opt, st, &error))
		fail_msg("%s: %s", name, error->message);
}

static void read_ok(TraceWindow window, guint64 messages, TraceStats *st)
{
	TraceStatsOptions opt = { .window = window, .messages = messages };
	g_autofree char *text = trace_text();

	parse_ok(text, "t.trace", &opt, st);
}

/* Every figure of the auto window, 1.000100 (the release's first wakeup: one worker runnable,
 * then two of three) to 1.002100 (the last worker's exit), counted by hand. */
static void test_window_auto(void **state)
{
	TraceStats st;

	(void)state;
	read_ok(TRACE_WINDOW_AUTO, 8, &st);
	assert_close(st.start_s, 1.000100, 1e-9);
	assert_close(st.end_s, 1.002100, 1e-9);
	assert_close(st.duration_s, 0.002, 1e-9);
	assert_int_equal(st.nr_cpus, 2);
	/* 10 is the parent (same names, lowest pid); 11 wakes 12 twice: 12 receives; 13 wakes only
	 * a kworker: a sender. */
	assert_int_equal(st.workload_tasks, 4);
	assert_true(st.has_parent);
	assert_int_equal(st.senders, 2);
	assert_int_equal(st.receivers, 1);

	/* 12 switches from 1.000130 to 1.002100, every one with a worker on one side. */
	assert_int_equal(st.switches, 12);
	assert_int_equal(st.switches_workload, 12);
	/* Between workload tasks: 10->12 S, 12->13 S, 11->12 R, 12->11 S, 13->12 R, 12->13 R,
	 * 13->12 X. */
	assert_int_equal(st.switches_between, 7);
	assert_int_equal(st.voluntary, 3);
	assert_int_equal(st.involuntary, 3);
	assert_int_equal(st.exits, 1);
	/* 11->12 at 1.000310 and 13->12 at 1.001600 follow 12's wakeups onto those CPUs; 12->13
	 * at 1.001700 does not (13 was last woken long before). */
	assert_int_equal(st.wakeup_preemptions, 2);
	assert_int_equal(st.other_preemptions, 1);
	/* A workload task leaving, to anything: 13->kworker (R+, the kworker just woken) too. */
	assert_int_equal(st.workload_voluntary, 3);
	assert_int_equal(st.workload_involuntary, 4);
	assert_int_equal(st.workload_wakeup_preemptions, 3);

	/* Wakeups from 1.000100 to 1.001500: 6, one of a kworker; the parent counts as a
	 * workload waker. Onto a busy CPU: all but 11's, onto idle CPU 1. Elsewhere than the task
	 * last ran: 11 (0 -> 1), 12 at 1.000300 (0 -> 1), 12 at 1.001500 (1 -> 0). */
	assert_int_equal(st.wakeups, 6);
	assert_int_equal(st.wakeups_workload, 5);
	assert_int_equal(st.wakeups_between, 5);
	assert_int_equal(st.wakeups_to_busy, 4);
	assert_int_equal(st.wake_migrations, 3);
	/* Switched in elsewhere: 11 at 1.000130, 12 at 1.000310 and at 1.001600. */
	assert_int_equal(st.migrations, 3);

	/* CPU 1 idles 1.000100-130 and 1.002000-100: 130 us; CPU 0 never. */
	assert_close(st.idle_s[0], 0, 1e-12);
	assert_close(st.idle_s[1], 130e-6, 1e-12);
	/* Runnable tasks x time on CPU 0: 1x10 + 2x10 + 3x80 + 2x50 + 1x650 + 2x150 + 1x450 + 2x300
	 * + 1x300 = 2670 us over 2000; on CPU 1: 1x200 + 2x100 + 1x1600 = 2000 us. Runnable
	 * workers: 1x10 + 2x10 + 3x130 + 2x50 + 3x100 + 2x1100 + 3x300 + 2x200 + 1x100 = 4420. */
	assert_close(st.runqueue_mean[0], 1.335, 1e-9);
	assert_close(st.runqueue_mean[1], 1.0, 1e-9);
	assert_int_equal(st.runqueue_max[0], 3);
	assert_int_equal(st.runqueue_max[1], 2);
	assert_close(st.runnable_mean, 2.21, 1e-9);
	/* Asleep: receiver 12 from 1.000010 to its wakeup at 1.000110 (10 us inside), 1.000250-300
	 * and 1.000400-1.001500: 1160 us; sender 13 until 1.000120 (20 us), sender 11 woken at the
	 * window's start, and 13's R+ at 1.001000 is no sleep. The parent is no worker. */
	assert_close(st.asleep_mean[TRACE_ROLE_RECEIVER], 0.58, 1e-9);
	assert_close(st.asleep_mean[TRACE_ROLE_SENDER], 0.01, 1e-9);
	assert_close(st.asleep_mean[TRACE_ROLE_PARENT], 0, 1e-12);
	/* The CPU changes from one event to the next at 1.000130 (to 1), 200 (0), 300 (1), 900
	 * (0), 1500 (1), 1600 (0), 2000 (1) and 2100 (0): 8 hand-overs in 2 ms. */
	assert_int_equal(st.cpu_handovers, 8);
	assert_close(st.handovers_per_s, 4000, 1e-6);

	/* Runs ending in the window (us): parent 180; 12: 50, 90, 100, 300; 11: 180, 1600; 13: 750,
	 * 550, 100. */
	assert_int_equal(st.runs.count, 10);
	assert_close(st.runs.total_us, 3900, 1e-6);
	assert_close(st.runs.mean_us, 390, 1e-6);
	assert_close(st.runs.median_us, 180, 1e-6);
	assert_int_equal(st.roles[TRACE_ROLE_SENDER].count, 5);
	assert_close(st.roles[TRACE_ROLE_SENDER].median_us, 550, 1e-6);
	assert_close(st.roles[TRACE_ROLE_SENDER].total_us, 3180, 1e-6);
	assert_int_equal(st.roles[TRACE_ROLE_RECEIVER].count, 4);
	assert_close(st.roles[TRACE_ROLE_RECEIVER].median_us, 95, 1e-6);
	assert_close(st.roles[TRACE_ROLE_RECEIVER].mean_us, 135, 1e-6);
	assert_int_equal(st.roles[TRACE_ROLE_PARENT].count, 1);

	/* The 7 switches between workload tasks by tenth (200 us) of the window from 1.000100: at
	 * 100 and 150 us, 210 and 300, 1500, 1600 and 1700. */
	static const guint64 tenths[TRACE_STATS_TENTHS] = { 2, 2, 0, 0, 0, 0, 0, 1, 2, 0 };

	for (guint i = 0; i < TRACE_STATS_TENTHS; i++)
		assert_int_equal(st.switches_by_tenth[i], tenths[i]);
	/* The sleeps above by tenth: receiver 12's 10 + 50 us in the first, then 100 us of the
	 * second (from 400) and every tenth to 1500; sender 13's 20 us in the first. */
	static const double receivers_asleep[TRACE_STATS_TENTHS] = { 0.3, 0.5, 1, 1, 1, 1, 1 };

	for (guint i = 0; i < TRACE_STATS_TENTHS; i++) {
		assert_close(st.asleep_by_tenth[TRACE_ROLE_RECEIVER][i], receivers_asleep[i], 1e-9);
		assert_close(st.asleep_by_tenth[TRACE_ROLE_SENDER][i], i == 0 ? 0.1 : 0, 1e-9);
		assert_close(st.asleep_by_tenth[TRACE_ROLE_PARENT][i], 0, 1e-12);
	}
	/* Exits: sender 13 at 1700 us of 2000, sender 11 at 1900, receiver 12 at 2000. */
	assert_close(st.first_exit[TRACE_ROLE_SENDER], 0.85, 1e-9);
	assert_close(st.median_exit[TRACE_ROLE_SENDER], 0.90, 1e-9);
	assert_close(st.first_exit[TRACE_ROLE_RECEIVER], 1.0, 1e-9);
	assert_close(st.median_exit[TRACE_ROLE_RECEIVER], 1.0, 1e-9);
	/* The parent exits after the window. */
	assert_true(isnan(st.first_exit[TRACE_ROLE_PARENT]));

	/* 8 messages: 7 switches between workload tasks, 4 receiver runs, 5 sender runs. */
	assert_close(st.switches_per_message, 0.875, 1e-12);
	assert_close(st.messages_per_receiver_run, 2.0, 1e-12);
	assert_close(st.messages_per_sender_run, 1.6, 1e-12);
	trace_stats_clear(&st);
}

/* The whole trace: 4 switches before the window and 2 after it, 2 wakeups after it. */
static void test_window_all(void **state)
{
	TraceStats st;

	(void)state;
	read_ok(TRACE_WINDOW_ALL, 0, &st);
	assert_close(st.start_s, 1.0, 1e-9);
	assert_close(st.end_s, 1.003, 1e-9);
	/* The whole of each sleep now: 12 100 + 50 + 1100 us, 11 and 13 100 us each, of 3000. */
	assert_close(st.asleep_mean[TRACE_ROLE_RECEIVER], 1250.0 / 3000, 1e-9);
	assert_close(st.asleep_mean[TRACE_ROLE_SENDER], 200.0 / 3000, 1e-9);
	/* Both senders' 100 us fall in the first tenth (300 us); the receiver's 1100 us from 400
	 * cover 200 us of the second tenth (300-600) and the third to the fifth whole. */
	assert_close(st.asleep_by_tenth[TRACE_ROLE_SENDER][0], 200.0 / 300, 1e-9);
	assert_close(st.asleep_by_tenth[TRACE_ROLE_SENDER][1], 0, 1e-12);
	assert_close(st.asleep_by_tenth[TRACE_ROLE_RECEIVER][1], 200.0 / 300, 1e-9);
	assert_close(st.asleep_by_tenth[TRACE_ROLE_RECEIVER][4], 1, 1e-9);
	assert_close(st.asleep_by_tenth[TRACE_ROLE_RECEIVER][5], 0, 1e-12);
	/* Those 8, the first two lines' (CPU 1, then 0) and my-task's wakeup on CPU 1 after. */
	assert_int_equal(st.cpu_handovers, 10);
	assert_close(st.handovers_per_s, 10 / 0.003, 1e-6);
	assert_int_equal(st.switches, 18);
	assert_int_equal(st.wakeups, 8);
	assert_int_equal(st.wakeups_workload, 6);
	/* No message count: no per-message figures. */
	assert_true(isnan(st.switches_per_message));
	assert_true(isnan(st.messages_per_receiver_run));
	trace_stats_clear(&st);
}

/* With names that tell the roles, the names decide, and a task named neither way is the parent. */
static void test_roles_by_name(void **state)
{
	static const char named[] = WK("hackbench-9", 1, "0.000000", "sender-0.1", 3,
				       1) WK("sender-0.0-2", 0, "0.000001", "receiver-0.0", 1, 0)
		SW("sender-0.0-2", 0, "0.000002", "sender-0.0", 2, "R", "receiver-0.0",
		   1) SW("receiver-0.0-1", 0, "0.000003", "receiver-0.0", 1, "X", "sender-0.0",
			 2) SW("sender-0.0-2", 0, "0.000004", "sender-0.0", 2, "X", "sender-0.1", 3)
			SW("sender-0.1-3", 0, "0.000005", "sender-0.1", 3, "X", "hackbench",
			   9) SW("hackbench-9", 0, "0.000006", "hackbench", 9, "X", "swapper/0", 0);
	g_autoptr(GError) error = NULL;
	TraceStatsOptions opt = { .window = TRACE_WINDOW_ALL };
	TraceStats st;

	(void)state;
	assert_true(trace_stats_read_text(named, -1, "n.trace", &opt, &st, &error));
	assert_true(st.has_parent);
	assert_int_equal(st.workload_tasks, 4);
	/* sender-0.1 wakes nobody and is a sender by its name. */
	assert_int_equal(st.senders, 2);
	assert_int_equal(st.receivers, 1);
	assert_int_equal(st.wakeup_preemptions, 1);
	assert_int_equal(st.exits, 3);
	trace_stats_clear(&st);
}

/* Only the tasks named by the prefixes are the workload. */
static void test_workload_prefixes(void **state)
{
	const char *const prefixes[] = { "kworker", NULL };
	TraceStatsOptions opt = { .workload = prefixes, .window = TRACE_WINDOW_ALL };
	g_autoptr(GError) error = NULL;
	g_autofree char *text = trace_text();
	TraceStats st;

	(void)state;
	assert_true(trace_stats_read_text(text, -1, "t.trace", &opt, &st, &error));
	/* kworker/1:1 and kworker/0:2: two names, so no parent. */
	assert_int_equal(st.workload_tasks, 2);
	assert_false(st.has_parent);
	/* Switches from or to a kworker: 5 -> idle, 13 -> 6, 6 -> 13. */
	assert_int_equal(st.switches_workload, 3);
	trace_stats_clear(&st);

	const char *const none[] = { "nginx", NULL };

	opt.workload = none;
	assert_false(trace_stats_read_text(text, -1, "t.trace", &opt, &st, &error));
	assert_true(g_error_matches(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_EMPTY));
}

static void expect_syntax_error(const char *text, const char *where)
{
	g_autoptr(GError) error = NULL;
	TraceStats st;

	if (trace_stats_read_text(text, -1, "bad.trace", NULL, &st, &error))
		fail_msg("accepted: %s", text);
	assert_true(g_error_matches(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_SYNTAX));
	if (!g_str_has_prefix(error->message, where))
		fail_msg("'%s' does not start with '%s'", error->message, where);
}

static void test_refusals(void **state)
{
	(void)state;
	/* Line 2: no prev_state. */
	expect_syntax_error("# c\nhackbench-1 [000] d..2. 1.000000: sched_switch: prev_comm=a "
			    "prev_pid=1 prev_prio=120 ==> next_comm=b next_pid=2 next_prio=120\n",
			    "bad.trace:2: not a sched_switch line");
	/* A timestamp that is not one. */
	expect_syntax_error("x-1 [000] d..2. 1.0.0: sched_wakeup: comm=a pid=1 prio=120 "
			    "target_cpu=000\n",
			    "bad.trace:1: not a sched_wakeup line");
	/* No CPU. */
	expect_syntax_error("x-1 d..2. 1.000000: sched_wakeup: comm=a pid=1 prio=120 "
			    "target_cpu=000\n",
			    "bad.trace:1:");
	/* No target CPU. */
	expect_syntax_error("x-1 [000] d..2. 1.000000: sched_wakeup: comm=a pid=1 prio=120\n",
			    "bad.trace:1:");
	/* A check without its granularity, and one with a vruntime beyond 2^64. */
	expect_syntax_error(
		"x-1 [000] d..2. 1.000000: wakeup_preempt: (check_preempt_wakeup+0x0/0x2c0) "
		"curr_vr=1 wakee_vr=2 min_vr=3 nr=2 curr_pid=1 wakee_pid=2 latency=5\n",
		"bad.trace:1: not a wakeup_preempt line");
	expect_syntax_error(
		"x-1 [000] d..2. 1.000000: wakeup_preempt: (check_preempt_wakeup+0x0/0x2c0) "
		"curr_vr=18446744073709551616 wakee_vr=2 min_vr=3 nr=2 curr_pid=1 "
		"wakee_pid=2 latency=5 gran=1\n",
		"bad.trace:1: not a wakeup_preempt line");
	/* A pid that is not a number. */
	expect_syntax_error("x-1 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=z "
			    "prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n",
			    "bad.trace:1:");
}

/*
 * The same trace as `perf script` prints it: "TASK PID [CPU] TIMESTAMP:    sched:EVENT: FIELDS",
 * plus, after the window, a wakeup by a task perf could no longer name (":-1 -1"). Every figure
 * must be the tracefs text's.
 */
static void test_perf_script_format(void **state)
{
	g_autoptr(GRegex) re =
		g_regex_new("^ *(.+)-([0-9]+) \\[([0-9]+)\\] \\S+ +([0-9.]+): (sched_\\w+): ",
			    G_REGEX_MULTILINE, 0, NULL);
	g_autofree char *text = trace_text();
	g_autofree char *perf =
		g_regex_replace(re, text, -1, 0, "\\1 \\2 [\\3] \\4:     sched:\\5: ", 0, NULL);
	g_autofree char *perf_gone = g_strconcat(
		perf,
		"             :-1    -1 [001] 1.002250:     sched:sched_wakeup: comm=my-task x pid=8 "
		"prio=120 target_cpu=001\n",
		NULL);
	TraceStatsOptions opt = { .window = TRACE_WINDOW_AUTO, .messages = 8 };
	TraceStats ft, pf;

	(void)state;
	assert_non_null(strstr(perf, "hackbench 11 [000] 1.000000:     sched:sched_switch: "));
	assert_null(strstr(perf, ": sched_switch: "));
	read_ok(TRACE_WINDOW_AUTO, 8, &ft);
	parse_ok(perf_gone, "perf.txt", &opt, &pf);

	assert_true(ft.start_s == pf.start_s && ft.end_s == pf.end_s);
	assert_int_equal(pf.nr_cpus, ft.nr_cpus);
	assert_int_equal(pf.workload_tasks, ft.workload_tasks);
	assert_int_equal(pf.senders, ft.senders);
	assert_int_equal(pf.receivers, ft.receivers);
	assert_int_equal(pf.switches, ft.switches);
	assert_int_equal(pf.switches_between, ft.switches_between);
	assert_int_equal(pf.voluntary, ft.voluntary);
	assert_int_equal(pf.involuntary, ft.involuntary);
	assert_int_equal(pf.exits, ft.exits);
	assert_int_equal(pf.wakeup_preemptions, ft.wakeup_preemptions);
	assert_int_equal(pf.wakeups, ft.wakeups);
	assert_int_equal(pf.wakeups_between, ft.wakeups_between);
	assert_int_equal(pf.wakeups_to_busy, ft.wakeups_to_busy);
	assert_int_equal(pf.migrations, ft.migrations);
	assert_int_equal(pf.runs.count, ft.runs.count);
	assert_true(pf.runs.total_us == ft.runs.total_us);
	for (guint c = 0; c < ft.nr_cpus; c++)
		assert_true(pf.idle_s[c] == ft.idle_s[c]);
	for (int i = 0; i < TRACE_STATS_TENTHS; i++)
		assert_int_equal(pf.switches_by_tenth[i], ft.switches_by_tenth[i]);
	trace_stats_clear(&ft);
	trace_stats_clear(&pf);
}

/*
 * The checks of workers beside running workers, inside the window: 11 running and 12 woken
 * (lead 1 ms, lag 6 ms: the full credit of latency / 2, gap 7 ms), 11 and 13 (lead 1, lag 3,
 * gap 4), 13 and 12 (min_vruntime 1 ms past the wrap, 12 at 2^64 - 0.5 ms: lag 1.5, lead 0.5,
 * gap 2, not above the 2 ms granularity). The kworker's is left out. Quantiles interpolate
 * between order statistics, as GSL's: the lags 1.5, 3, 6 have q25 2.25 and q75 4.5.
 */
static void test_preempt_checks(void **state)
{
	TraceStats st;

	(void)state;
	read_ok(TRACE_WINDOW_AUTO, 8, &st);
	assert_int_equal(st.checks, 3);
	assert_close(st.lag_q25_ms, 2.25, 1e-12);
	assert_close(st.lag_median_ms, 3.0, 1e-12);
	assert_close(st.lag_q75_ms, 4.5, 1e-12);
	/* 12 is the receiver (woken twice, lags 6 and 1.5), 13 a sender (3). */
	assert_close(st.lag_median_role_ms[TRACE_ROLE_RECEIVER], 3.75, 1e-12);
	assert_close(st.lag_median_role_ms[TRACE_ROLE_SENDER], 3.0, 1e-12);
	assert_true(isnan(st.lag_median_role_ms[TRACE_ROLE_PARENT]));
	assert_close(st.at_credit, 1.0 / 3, 1e-12);
	assert_close(st.lead_median_ms, 1.0, 1e-12);
	assert_close(st.gap_median_ms, 4.0, 1e-12);
	assert_close(st.above_gran, 2.0 / 3, 1e-12);
	trace_stats_clear(&st);

	/* A trace without checks has none, and says so with NaN. */
	const char *plain = SW("hackbench-11", 0, "1.000000", HB, 11, "S", HB, 12)
		SW("hackbench-12", 0, "1.000010", HB, 12, "X", "swapper/0", 0);

	parse_ok(plain, "plain.trace", NULL, &st);
	assert_int_equal(st.checks, 0);
	assert_true(isnan(st.lag_median_ms) && isnan(st.at_credit) && isnan(st.above_gran));
	trace_stats_clear(&st);
}

/*
 * After a wakeup preemption between workers, where the CPU goes once the wakee sleeps. In the
 * shared trace: 12 preempts 11 on CPU 1 (1.000310) and sleeps back to 11 (1.000400); 12 preempts 13
 * on CPU 0 (1.001600) but is preempted by the tick (1.001700), which settles nothing. So one back,
 * none elsewhere. In the second: back, elsewhere (to 3, not the preempted 2), then a wakee that
 * is itself preempted by a wakeup (not counted) whose preemptor then blocks in D back to it.
 */
static void test_preempted_back(void **state)
{
	TraceStats st;

	(void)state;
	read_ok(TRACE_WINDOW_AUTO, 8, &st);
	assert_int_equal(st.preempted_back, 1);
	assert_int_equal(st.preempted_not_back, 0);
	trace_stats_clear(&st);

	static const char *const lines[] = {
		WK("sender-0.0-2", 0, "0.000000", "receiver-0.0", 1, 0),
		SW("sender-0.0-2", 0, "0.000001", "sender-0.0", 2, "R", "receiver-0.0", 1),
		SW("receiver-0.0-1", 0, "0.000002", "receiver-0.0", 1, "S", "sender-0.0", 2),
		WK("sender-0.0-2", 0, "0.000003", "receiver-0.1", 4, 0),
		SW("sender-0.0-2", 0, "0.000004", "sender-0.0", 2, "R", "receiver-0.1", 4),
		SW("receiver-0.1-4", 0, "0.000005", "receiver-0.1", 4, "S", "sender-0.1", 3),
		WK("sender-0.1-3", 0, "0.000006", "receiver-0.0", 1, 0),
		SW("sender-0.1-3", 0, "0.000007", "sender-0.1", 3, "R", "receiver-0.0", 1),
		WK("receiver-0.0-1", 0, "0.000008", "sender-0.0", 2, 0),
		SW("receiver-0.0-1", 0, "0.000009", "receiver-0.0", 1, "R", "sender-0.0", 2),
		SW("sender-0.0-2", 0, "0.000010", "sender-0.0", 2, "D", "receiver-0.0", 1),
		SW("receiver-0.0-1", 0, "0.000011", "receiver-0.0", 1, "X", "sender-0.1", 3),
		SW("sender-0.1-3", 0, "0.000012", "sender-0.1", 3, "X", "swapper/0", 0),
		NULL,
	};
	g_autofree char *text = g_strjoinv("", (char **)lines);
	TraceStatsOptions opt = { .window = TRACE_WINDOW_ALL };

	parse_ok(text, "b.trace", &opt, &st);
	assert_int_equal(st.wakeup_preemptions, 4);
	assert_int_equal(st.preempted_back, 2);
	assert_int_equal(st.preempted_not_back, 1);
	trace_stats_clear(&st);
}

/*
 * Who a worker's sleep hands the CPU to, by hand: receiver 1 sleeps to receiver 4 (queued, woken
 * without preempting), receiver 4 to receiver 5, receiver 5 to sender 2, sender 2 (in D) to
 * receiver 1; a preemption (R) and the exits (X) are no sleeps, and the sleep to idle has no
 * role to hand over to.
 */
static void test_sleep_handover(void **state)
{
	static const char *const lines[] = {
		WK("sender-0.0-2", 0, "0.000000", "receiver-0.0", 1, 0),
		SW("sender-0.0-2", 0, "0.000001", "sender-0.0", 2, "R", "receiver-0.0", 1),
		WK("receiver-0.0-1", 0, "0.000002", "receiver-0.1", 4, 0),
		WK("receiver-0.0-1", 0, "0.000002", "receiver-0.2", 5, 0),
		SW("receiver-0.0-1", 0, "0.000003", "receiver-0.0", 1, "S", "receiver-0.1", 4),
		SW("receiver-0.1-4", 0, "0.000004", "receiver-0.1", 4, "S", "receiver-0.2", 5),
		SW("receiver-0.2-5", 0, "0.000005", "receiver-0.2", 5, "S", "sender-0.0", 2),
		WK("sender-0.0-2", 0, "0.000006", "receiver-0.0", 1, 0),
		SW("sender-0.0-2", 0, "0.000007", "sender-0.0", 2, "D", "receiver-0.0", 1),
		SW("receiver-0.0-1", 0, "0.000008", "receiver-0.0", 1, "S", "swapper/0", 0),
		WK("swapper/0-0", 0, "0.000009", "sender-0.0", 2, 0),
		SW("swapper/0-0", 0, "0.000010", "swapper/0", 0, "R", "sender-0.0", 2),
		SW("sender-0.0-2", 0, "0.000011", "sender-0.0", 2, "X", "swapper/0", 0),
		NULL,
	};
	g_autofree char *text = g_strjoinv("", (char **)lines);
	TraceStatsOptions opt = { .window = TRACE_WINDOW_ALL };
	TraceStats st;

	(void)state;
	parse_ok(text, "h.trace", &opt, &st);
	assert_int_equal(st.voluntary, 4);
	assert_int_equal(st.sleep_handover[TRACE_ROLE_RECEIVER][TRACE_ROLE_RECEIVER], 2);
	assert_int_equal(st.sleep_handover[TRACE_ROLE_RECEIVER][TRACE_ROLE_SENDER], 1);
	assert_int_equal(st.sleep_handover[TRACE_ROLE_SENDER][TRACE_ROLE_RECEIVER], 1);
	assert_int_equal(st.sleep_handover[TRACE_ROLE_SENDER][TRACE_ROLE_SENDER], 0);
	trace_stats_clear(&st);
}

/*
 * How soon a CPU switches after the first worker is woken onto it while busy: two wakeups on
 * CPU 0 by its sender (the second not the first: only the first starts the clock), switched 11
 * and 7 us later; two from CPU 0 onto CPU 1, switched 28 us later by the receiver there going to
 * sleep, and 10 us later by a preemption.
 */
static void test_wake_to_switch(void **state)
{
	static const char *const lines[] = {
		SW("swapper/0-0", 0, "0.000010", "swapper/0", 0, "R", "sender-0.0", 2),
		SW("swapper/1-0", 1, "0.000010", "swapper/1", 0, "R", "receiver-0.1", 4),
		WK("sender-0.0-2", 0, "0.000020", "receiver-0.0", 1, 0),
		WK("sender-0.0-2", 0, "0.000025", "receiver-0.2", 5, 0),
		SW("sender-0.0-2", 0, "0.000031", "sender-0.0", 2, "R", "receiver-0.0", 1),
		SW("receiver-0.0-1", 0, "0.000035", "receiver-0.0", 1, "S", "sender-0.0", 2),
		WK("sender-0.0-2", 0, "0.000040", "receiver-0.3", 6, 1),
		SW("receiver-0.1-4", 1, "0.000068", "receiver-0.1", 4, "S", "receiver-0.3", 6),
		WK("sender-0.0-2", 0, "0.000070", "receiver-0.1", 4, 1),
		SW("receiver-0.3-6", 1, "0.000080", "receiver-0.3", 6, "R", "receiver-0.1", 4),
		WK("sender-0.0-2", 0, "0.000090", "receiver-0.0", 1, 0),
		SW("sender-0.0-2", 0, "0.000097", "sender-0.0", 2, "R", "receiver-0.0", 1),
		NULL,
	};
	g_autofree char *text = g_strjoinv("", (char **)lines);
	TraceStatsOptions opt = { .window = TRACE_WINDOW_ALL };
	TraceStats st;

	(void)state;
	parse_ok(text, "w.trace", &opt, &st);
	assert_int_equal(st.wakeups_to_busy, 5);
	assert_int_equal(st.wakeups_to_busy_remote, 2);
	assert_float_equal(st.wake_to_switch_us[TRACE_WAKE_LOCAL], 9.0, 1e-6);
	assert_float_equal(st.wake_to_switch_us[TRACE_WAKE_REMOTE], 19.0, 1e-6);
	assert_float_equal(st.remote_sleeps_first, 0.5, 1e-9);
	trace_stats_clear(&st);
}

/*
 * The reuse distance by hand, on two CPUs: after the four workers' first switch-ins (1, 2, 3, 4 on
 * either CPU) sender 2 comes back after 4, 3 and 1 ran (3), receiver 1 after 2, 4, 3 (3), receiver
 * 4 after 1 and 2 (2), sender 3 after 4, 1 and 2 (3), sender 2 after 1, 4 and 3 (3; the other
 * CPU's count too). Sorted 2, 3, 3, 3, 3: median 3, upper quartile 3, one of five within 2.
 */
static void test_reuse_distance(void **state)
{
	static const char *const lines[] = {
		SW("swapper/0-0", 0, "0.000001", "swapper/0", 0, "R", "sender-0.0", 2),
		SW("swapper/1-0", 1, "0.000002", "swapper/1", 0, "R", "receiver-0.0", 1),
		SW("sender-0.0-2", 0, "0.000003", "sender-0.0", 2, "R", "sender-0.1", 3),
		SW("receiver-0.0-1", 1, "0.000004", "receiver-0.0", 1, "S", "receiver-0.1", 4),
		SW("sender-0.1-3", 0, "0.000005", "sender-0.1", 3, "R", "sender-0.0", 2),
		SW("receiver-0.1-4", 1, "0.000006", "receiver-0.1", 4, "S", "receiver-0.0", 1),
		SW("receiver-0.0-1", 1, "0.000007", "receiver-0.0", 1, "S", "receiver-0.1", 4),
		SW("sender-0.0-2", 0, "0.000008", "sender-0.0", 2, "R", "sender-0.1", 3),
		SW("sender-0.1-3", 0, "0.000009", "sender-0.1", 3, "S", "sender-0.0", 2),
		SW("sender-0.0-2", 0, "0.000010", "sender-0.0", 2, "X", "swapper/0", 0),
		SW("receiver-0.1-4", 1, "0.000011", "receiver-0.1", 4, "X", "swapper/1", 0),
		NULL,
	};
	g_autofree char *text = g_strjoinv("", (char **)lines);
	TraceStatsOptions opt = { .window = TRACE_WINDOW_ALL };
	TraceStats st;

	(void)state;
	parse_ok(text, "r.trace", &opt, &st);
	assert_float_equal(st.reuse_median, 3, 1e-12);
	assert_float_equal(st.reuse_q75, 3, 1e-12);
	assert_float_equal(st.reuse_near, 0.2, 1e-12);
	trace_stats_clear(&st);

	/* The shared trace's auto window: 12 after 11 and 13 (2), 13 after 12 and 11 (2), 12 after
	 * 13 (1), 11 after 12 and 13 (2), 13 after 11 and 12 (2), 12 after 13 and 11 (2), 13 after
	 * 12 (1), 12 after 13 (1): median 2; the parent and the kworker are no workers. */
	read_ok(TRACE_WINDOW_AUTO, 8, &st);
	assert_float_equal(st.reuse_median, 2, 1e-12);
	assert_float_equal(st.reuse_near, 1, 1e-12);
	trace_stats_clear(&st);
}

/*
 * Who a wakeup moves, by hand. Receivers 20 and 21 last ran on CPU 1; sender 10 on CPU 0 wakes
 * 20 there (1.000400), wakes it again while it is still runnable (1.000450: no placement, not
 * counted), pulls 21 to CPU 0 (1.000500), and after 20 has run and slept, wakes it on CPU 1 1.5 s
 * later (2.500000): three cross-CPU wakeups, one pulled. The sender's decay clock starts at its
 * first event (1.000300). With every task inheriting 2 flips and wake_wide's factor 2: the
 * sender has 3 at the first (narrow: 3 < 2 x 2), 4 at the second (wide: 2 >= 2 and 4 >= 4), and
 * at the third halves to 2 (1.5 s since its clock) and counts a new wakee, 3 (narrow; without
 * the decay 5, wide). Inheriting 0 every receiver has 0 < 2: all narrow. With factor 1 and 2
 * inherited: all three wide. Waits to run: receiver 20, woken from CPU 0 onto CPU 1 at 1.000400,
 * runs at 1.000600 after receiver 22 was switched in there (200 µs, one switch first); receiver
 * 21, woken on CPU 0 at 1.000500, runs there at 1.000800 (300 µs, none first); the last wakeup
 * never runs and counts in neither.
 */
static void test_wake_placement(void **state)
{
	static const char *const lines[] = {
		SW("<idle>-0", 1, "1.000000", "swapper/1", 0, "R", "receiver-0.0", 20),
		SW("receiver-0.0-20", 1, "1.000100", "receiver-0.0", 20, "S", "receiver-0.1", 21),
		SW("receiver-0.1-21", 1, "1.000200", "receiver-0.1", 21, "S", "swapper/1", 0),
		SW("<idle>-0", 0, "1.000300", "swapper/0", 0, "R", "sender-0.0", 10),
		WK("sender-0.0-10", 0, "1.000400", "receiver-0.0", 20, 1),
		WK("sender-0.0-10", 0, "1.000450", "receiver-0.0", 20, 1),
		WK("sender-0.0-10", 0, "1.000500", "receiver-0.1", 21, 0),
		SW("<idle>-0", 1, "1.000550", "swapper/1", 0, "R", "receiver-0.2", 22),
		SW("receiver-0.2-22", 1, "1.000600", "receiver-0.2", 22, "S", "receiver-0.0", 20),
		SW("receiver-0.0-20", 1, "1.000700", "receiver-0.0", 20, "S", "swapper/1", 0),
		SW("sender-0.0-10", 0, "1.000800", "sender-0.0", 10, "R", "receiver-0.1", 21),
		WK("sender-0.0-10", 0, "2.500000", "receiver-0.0", 20, 1),
		NULL,
	};
	g_autofree char *text = g_strjoinv("", (char **)lines);
	TraceStatsOptions opt = { .window = TRACE_WINDOW_ALL };
	TraceStats st;

	(void)state;
	parse_ok(text, "p.trace", &opt, &st);
	assert_int_equal(st.wake_cross, 3);
	assert_int_equal(st.wake_cross_pulled, 1);
	assert_false(st.flips_replayed);
	assert_int_equal(st.wake_cross_wide, 0);
	assert_int_equal(st.wake_cross_narrow_pulled, 0);
	assert_float_equal(st.wake_to_run_us[TRACE_WAKE_REMOTE], 200, 1e-6);
	assert_float_equal(st.wake_to_run_q90_us[TRACE_WAKE_REMOTE], 200, 1e-6);
	assert_float_equal(st.switches_before_run[TRACE_WAKE_REMOTE], 1, 1e-12);
	assert_float_equal(st.wake_to_run_us[TRACE_WAKE_LOCAL], 300, 1e-6);
	assert_float_equal(st.switches_before_run[TRACE_WAKE_LOCAL], 0, 1e-12);
	trace_stats_clear(&st);

	opt.replay_flips = TRUE;
	opt.inherited_flips = 2;
	parse_ok(text, "p.trace", &opt, &st);
	assert_true(st.flips_replayed);
	assert_int_equal(st.inherited_flips, 2);
	assert_int_equal(st.llc_cpus, 2);
	assert_int_equal(st.wake_cross, 3);
	assert_int_equal(st.wake_cross_wide, 1);
	assert_int_equal(st.wake_cross_narrow_pulled, 0);
	trace_stats_clear(&st);

	opt.inherited_flips = 0;
	parse_ok(text, "p.trace", &opt, &st);
	assert_int_equal(st.wake_cross_wide, 0);
	assert_int_equal(st.wake_cross_narrow_pulled, 1);
	trace_stats_clear(&st);

	opt.inherited_flips = 2;
	opt.llc_cpus = 1;
	parse_ok(text, "p.trace", &opt, &st);
	assert_int_equal(st.llc_cpus, 1);
	assert_int_equal(st.wake_cross_wide, 3);
	assert_int_equal(st.wake_cross_narrow_pulled, 0);
	trace_stats_clear(&st);
}

static void test_missing_file(void **state)
{
	g_autoptr(GError) error = NULL;
	TraceStats st;

	(void)state;
	assert_false(trace_stats_read_file("/nonexistent/x.trace", NULL, &st, &error));
	assert_true(g_error_matches(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_IO));
	assert_non_null(strstr(error->message, "/nonexistent/x.trace"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_auto),	   cmocka_unit_test(test_window_all),
		cmocka_unit_test(test_roles_by_name),	   cmocka_unit_test(test_workload_prefixes),
		cmocka_unit_test(test_refusals),	   cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_perf_script_format), cmocka_unit_test(test_preempt_checks),
		cmocka_unit_test(test_preempted_back),	   cmocka_unit_test(test_sleep_handover),
		cmocka_unit_test(test_wake_to_switch),	   cmocka_unit_test(test_reuse_distance),
		cmocka_unit_test(test_wake_placement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
