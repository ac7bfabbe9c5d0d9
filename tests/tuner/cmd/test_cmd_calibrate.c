/*
 * End-to-end tests of `tuner calibrate`: the real binary of this build variant, spawned without a
 * shell, with fake benchmarks given by --real-cmd templates ("sh -c '...'") whose times are known
 * functions of the group count. Judged by exit status, stdout, stderr and the files written.
 *
 * The real tools are not run here: their output formats are tested from fixtures in
 * test_realbench.c, and their times are the measurement, not something a test can expect.
 */
#define _GNU_SOURCE /* CPU_COUNT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tasks/hackbench.h"
#include "tuner/calib/calibration_io.h"
#include "tuner/calib/match_time.h"

#include "tests/support/assert_close.h"
#include "tests/support/support.h"

#define RUN(...) run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

/* A benchmark whose time is 12 + 47 * groups ms, and which appends its group count to log. */
static char *linear_cmd(const char *log)
{
	return g_strdup_printf(
		"sh -c 'echo {groups} >> %s; "
		"awk \"BEGIN { printf \\\"Time: %%.3f\\\\n\\\", (12 + 47 * {groups}) / 1000 }\"'",
		log);
}

/* A benchmark that knows how many times it ran before: "sh -c '<counter> BODY'", where BODY sees
 * that number in $n (0 on the first run); the count is kept in the file count. */
static char *counting_cmd(const char *count, const char *body)
{
	return g_strdup_printf(
		"sh -c 'n=$(cat %s 2>/dev/null || echo 0); echo $((n + 1)) > %s; %s'", count, count,
		body);
}

static char *in_dir(void **state, const char *name)
{
	return g_build_filename(*state, name, NULL);
}

static void expect_exit_0(const struct run *r, const char *what)
{
	if (r->status != 0)
		fail_msg("%s: exit status %d, stderr '%s'", what, r->status, r->err);
}

/* The lines of a file, without the empty one after the last newline. */
static GStrv lines_of(const char *path)
{
	g_autofree char *text = read_text(path);
	GStrv lines = g_strsplit(text, "\n", -1);
	guint n = g_strv_length(lines);

	if (n > 0 && lines[n - 1][0] == '\0') {
		g_free(lines[n - 1]);
		lines[n - 1] = NULL;
	}
	return lines;
}

/* The groups column of calibration_runs.csv, in run order, as "3,1,2,...". */
static char *run_order_of(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, CALIBRATION_RUNS_NAME, NULL);
	g_auto(GStrv) lines = lines_of(path);
	GString *order = g_string_new(NULL);

	assert_string_equal(lines[0], "seq,round,groups,ms,start_s,switches");
	for (guint i = 1; lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);

		assert_int_equal(g_strv_length(f), 6);
		/* The fake is a shell that waits for awk: it leaves the CPU at least once. */
		assert_true(g_ascii_strtod(f[5], NULL) >= 1);
		assert_int_equal(atoi(f[0]), i - 1);
		g_string_append_printf(order, "%s%s", i > 1 ? "," : "", f[2]);
		/* The fake's time is exact, whatever the order. */
		assert_close(g_ascii_strtod(f[3], NULL), 12 + 47 * atoi(f[2]), 1e-9);
		assert_true(g_ascii_strtod(f[4], NULL) >= 0);
	}
	return g_string_free(order, FALSE);
}

static void test_fake_benchmark_is_fitted_and_written(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *cmd = linear_cmd(log);
	struct run r = RUN("calibrate", "--groups", "1..6", "--loops", "10", "--threads",
			   "--repeat", "3", "--warmup", "0", "--real-cmd", cmd, "--out", out);

	expect_exit_0(&r, "calibrate");
	assert_non_null(strstr(r.out, "fitted on the 6 per-group means"));
	assert_null(strstr(r.out, "Warm-up"));

	/* The plan was followed: 3 rounds, each a permutation of 1..6, and nothing else ran. */
	g_autofree char *order = run_order_of(out);
	g_auto(GStrv) log_lines = lines_of(log);
	g_autofree char *logged = g_strjoinv(",", log_lines);
	assert_string_equal(order, logged);
	g_auto(GStrv) groups = g_strsplit(order, ",", -1);
	assert_int_equal(g_strv_length(groups), 18);
	for (guint round = 0; round < 3; round++) {
		guint seen = 0;
		for (guint i = 0; i < 6; i++)
			seen |= 1u << atoi(groups[round * 6 + i]);
		assert_int_equal(seen, 0x7e);
	}

	/* Each point holds its three runs, all 12 + 47 g ms. */
	g_autofree char *csv_path = g_build_filename(out, CALIBRATION_CSV_NAME, NULL);
	g_auto(GStrv) rows = lines_of(csv_path);
	assert_int_equal(g_strv_length(rows), 7);
	for (guint g = 1; g <= 6; g++) {
		g_auto(GStrv) f = g_strsplit(rows[g], ",", -1);
		double t = 12 + 47 * g;
		g_autofree char *runs = g_strdup_printf("%g;%g;%g", t, t, t);

		assert_int_equal(g_strv_length(f), 9);
		assert_int_equal(atoi(f[0]), g);
		assert_close(g_ascii_strtod(f[2], NULL), t, 1e-9);
		assert_close(g_ascii_strtod(f[3], NULL), 0, 0);
		assert_string_equal(f[6], runs);
		/* Switches: the simulated tasks' (each of 40 g tasks runs at least once), the fake's. */
		assert_true(g_ascii_strtod(f[7], NULL) >= 40 * g);
		assert_true(g_ascii_strtod(f[8], NULL) >= 1);
	}
	assert_non_null(strstr(r.out, "Context switches per run"));

	g_autofree char *ini = g_build_filename(out, CALIBRATION_INI_NAME, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(Calibration) cal = calibration_read(ini, &error);
	assert_non_null(cal);
	assert_int_equal(cal->fit.n, 6);
	assert_int_equal(cal->loops, 10);
	assert_int_equal(cal->protocol.order, RUN_ORDER_ROUNDS);
	assert_int_equal(cal->protocol.seed, 1);
	assert_close(cal->protocol.warmup_s, 0, 0);
	/* The simulated runtime grows with the groups almost in proportion, as the fake does; the
	 * fake is a line in the group count, so the null model fits it exactly. */
	assert_true(cal->fit.b > 0);
	assert_true(cal->fit.r2 > 0.99);
	assert_close(cal->fit.r2_groups, 1, 1e-12);
	assert_non_null(
		strstr(r.out, "R^2 against the group count alone (the null model) 1.000000\n"));
	run_clear(&r);
}

/* calibration.csv without its last column, the real runs' switches. */
static char *simulated_columns(const char *csv_path)
{
	g_auto(GStrv) rows = lines_of(csv_path);
	GString *kept = g_string_new(NULL);

	for (guint i = 0; rows[i]; i++) {
		const char *last = strrchr(rows[i], ',');

		assert_non_null(last);
		g_string_append_len(kept, rows[i], last - rows[i]);
		g_string_append_c(kept, '\n');
	}
	return g_string_free(kept, FALSE);
}

/* linsched hackbench at g groups, 10 loops, threads, cost jitter 0.2, this seed: its runtime. */
static double linsched_runtime_ns(guint g, guint seed)
{
	g_autofree char *groups = g_strdup_printf("%u", g);
	g_autofree char *s = g_strdup_printf("%u", seed);
	struct run r =
		run_program(LINSCHED,
			    (const char *const[]){ "hackbench", "--groups", groups, "--loops", "10",
						   "--threads", "--cost-jitter", "0.2", "--seed", s,
						   "--format", "json", NULL },
			    NULL);

	expect_exit_0(&r, "linsched hackbench");
	const char *at = strstr(r.out, "\"runtime_ns\": ");

	assert_non_null(at);
	double ns = g_ascii_strtod(at + strlen("\"runtime_ns\": "), NULL);

	run_clear(&r);
	return ns;
}

/*
 * --sim-repeat 3: each group count's simulated jiffies are the median of three simulations with
 * seeds --sim-seed, +1, +2 (here 5, 6, 7), each what linsched hackbench gives with that seed (on
 * its default 2 CPUs at HZ 1000, which the host's defaults would replace). Without cost jitter
 * every seed gives the same run, and the flag is refused.
 */
static void test_sim_repeat_takes_medians(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *cmd = linear_cmd(log);
	struct run r =
		RUN("calibrate", "--groups", "1..3", "--loops", "10", "--threads", "--repeat", "1",
		    "--warmup", "0", "--real-cmd", cmd, "--cpus", "2", "--hz", "1000",
		    "--cost-jitter", "0.2", "--sim-repeat", "3", "--sim-seed", "5", "--out", out);

	expect_exit_0(&r, "calibrate --sim-repeat 3");
	run_clear(&r);

	/* The calibration says how it was simulated. */
	g_autofree char *ini_path = g_build_filename(out, CALIBRATION_INI_NAME, NULL);
	g_autofree char *ini = read_text(ini_path);

	assert_non_null(strstr(ini, "medians of 3 simulations with cost jitter 0.2\n"));

	g_autofree char *csv_path = g_build_filename(out, CALIBRATION_CSV_NAME, NULL);
	g_auto(GStrv) rows = lines_of(csv_path);

	for (guint g = 1; g <= 3; g++) {
		g_auto(GStrv) f = g_strsplit(rows[g], ",", -1);
		double t[3];

		for (guint k = 0; k < 3; k++)
			t[k] = linsched_runtime_ns(g, 5 + k);
		/* the median of three */
		double lo = MIN(t[0], MIN(t[1], t[2])), hi = MAX(t[0], MAX(t[1], t[2]));
		double median = t[0] + t[1] + t[2] - lo - hi;

		assert_true(lo < hi); /* the jitter made the seeds differ */
		assert_close(g_ascii_strtod(f[1], NULL), median * 1000 / 1e9, 1e-9);
	}

	/* The simulations ran on a thread per CPU; on one, or on three, they give the same file,
	 * but for the fake's own switches (the last column). */
	g_autofree char *parallel = simulated_columns(csv_path);

	for (guint i = 0; i < 2; i++) {
		r = RUN("calibrate", "--groups", "1..3", "--loops", "10", "--threads", "--repeat",
			"1", "--warmup", "0", "--real-cmd", cmd, "--cpus", "2", "--hz", "1000",
			"--cost-jitter", "0.2", "--sim-repeat", "3", "--sim-seed", "5", "--jobs",
			i ? "3" : "1", "--out", out);
		expect_exit_0(&r, "calibrate --jobs");
		run_clear(&r);
		g_autofree char *again = simulated_columns(csv_path);
		assert_string_equal(again, parallel);
	}

	r = RUN("calibrate", "--groups", "1..3", "--cost-jitter", "0", "--sim-repeat", "3", "--out",
		out);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--sim-repeat"));
	/* one line */
	assert_true(strchr(r.err, '\n') == r.err + strlen(r.err) - 1);
	run_clear(&r);
	r = RUN("calibrate", "--groups", "1..3", "--sim-repeat", "0", "--out", out);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--sim-repeat"));
	run_clear(&r);
}

/* The CPUs this process may run on, counted from its affinity mask. */
static unsigned int this_machines_cpus(void)
{
	cpu_set_t set;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	return (unsigned int)CPU_COUNT(&set);
}

/* This kernel's HZ: CLOCK_MONOTONIC_COARSE advances once a jiffy, its resolution (1000 when that
 * says no HZ a kernel can have, the simulation's own default). */
static unsigned int this_kernels_hz(void)
{
	struct timespec res;

	assert_int_equal(clock_getres(CLOCK_MONOTONIC_COARSE, &res), 0);
	long hz = lround(1e9 / ((double)res.tv_sec * 1e9 + (double)res.tv_nsec));

	return hz == 100 || hz == 250 || hz == 300 || hz == 1000 ? (unsigned int)hz : 1000;
}

/* calibrate's workload line in calibration.ini. */
static char *workload_of(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, CALIBRATION_INI_NAME, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(Calibration) cal = calibration_read(path, &error);

	assert_non_null(cal);
	return g_strdup(cal->workload);
}

/*
 * On the host the simulation models the machine the real runs ran on: its CPUs and its kernel's
 * HZ, and runs that vary (cost jitter 0.2), each point the median of 31. Flags override each,
 * and a --machine that says its HZ overrides the detected one.
 */
static void test_host_defaults_are_this_machine(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *machine = in_dir(state, "machine.ini");
	g_autofree char *cmd = linear_cmd(log);
	g_autofree char *expected =
		g_strdup_printf("; simulated on %u CPUs at HZ %u, machine built-in, profile ",
				this_machines_cpus(), this_kernels_hz());
	struct run r = RUN("calibrate", "--groups", "1..3", "--loops", "5", "--threads", "--repeat",
			   "1", "--warmup", "0", "--real-cmd", cmd, "--out", out);

	expect_exit_0(&r, "calibrate with the host's defaults");
	run_clear(&r);
	g_autofree char *host = workload_of(out);
	assert_non_null(strstr(host, expected));
	assert_true(g_str_has_suffix(host, ", medians of 31 simulations with cost jitter 0.2"));

	r = RUN("calibrate", "--groups", "1..3", "--loops", "5", "--threads", "--repeat", "1",
		"--warmup", "0", "--real-cmd", cmd, "--cpus", "1", "--hz", "100", "--cost-jitter",
		"0", "--out", out);
	expect_exit_0(&r, "calibrate --cpus 1 --hz 100 --cost-jitter 0");
	run_clear(&r);
	g_autofree char *given = workload_of(out);
	assert_non_null(
		strstr(given, "; simulated on 1 CPUs at HZ 100, machine built-in, profile "));
	assert_null(strstr(given, "medians"));

	assert_true(g_file_set_contents(machine, "[machine]\nhz=300\n", -1, NULL));
	r = RUN("calibrate", "--groups", "1..3", "--loops", "5", "--threads", "--repeat", "1",
		"--warmup", "0", "--real-cmd", cmd, "--machine", machine, "--sim-repeat", "2",
		"--out", out);
	expect_exit_0(&r, "calibrate --machine (hz=300) --sim-repeat 2");
	run_clear(&r);
	g_autofree char *from_machine = workload_of(out);
	g_autofree char *named = g_strdup_printf(" at HZ 300, machine %s, profile ", machine);

	assert_non_null(strstr(from_machine, named));
	assert_true(
		g_str_has_suffix(from_machine, ", medians of 2 simulations with cost jitter 0.2"));
}

/*
 * With 6 runs the real median of the switches gets its interval of order statistics, which for 6
 * is the least and the greatest run (coverage 1 - 2/64); with 3 there is none to give.
 */
static void test_switch_interval(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *cmd = linear_cmd(log);
	struct run r = RUN("calibrate", "--groups", "1..3", "--loops", "5", "--threads", "--repeat",
			   "6", "--warmup", "0", "--real-cmd", cmd, "--out", out);

	expect_exit_0(&r, "calibrate --repeat 6");
	assert_non_null(strstr(r.out, "[96.9 % interval]"));
	assert_non_null(strstr(r.out, "of the real median's 96.9 % interval (order statistics of 6 "
				      "runs) at "));

	/* Each row's interval is its group count's least and greatest run. */
	g_autofree char *runs_path = g_build_filename(out, CALIBRATION_RUNS_NAME, NULL);
	g_auto(GStrv) runs = lines_of(runs_path);

	for (guint g = 1; g <= 3; g++) {
		double lo = INFINITY, hi = -INFINITY;

		for (guint i = 1; runs[i]; i++) {
			g_auto(GStrv) f = g_strsplit(runs[i], ",", -1);

			if ((guint)atoi(f[2]) != g)
				continue;
			lo = MIN(lo, g_ascii_strtod(f[5], NULL));
			hi = MAX(hi, g_ascii_strtod(f[5], NULL));
		}
		g_autofree char *row_start = g_strdup_printf("\n  %6u ", g);
		const char *row = strstr(strstr(r.out, "Context switches per run"), row_start);

		assert_non_null(row);
		g_autofree char *bounds = g_strdup_printf("[%6.0f, %6.0f]", lo, hi);
		const char *end = strchr(row + 1, '\n');

		assert_non_null(end);
		g_autofree char *line = g_strndup(row, (gsize)(end - row));
		if (!strstr(line, bounds))
			fail_msg("'%s' lacks %s", line, bounds);
	}
	run_clear(&r);

	r = RUN("calibrate", "--groups", "1..3", "--loops", "5", "--threads", "--repeat", "3",
		"--warmup", "0", "--real-cmd", cmd, "--out", out);
	expect_exit_0(&r, "calibrate --repeat 3");
	assert_null(strstr(r.out, "interval"));
	run_clear(&r);
}

/*
 * --match-time: the fake takes 12 + 47 g ms; the simulation's message costs are scaled until the
 * simulated ms (the jiffies at HZ 1000, one deterministic run each) lie on real = simulated
 * through the origin, and the
 * matched machine is written. The calibration's own simulations are those at the matched costs:
 * their slope is the one reported, and the machine.ini holds those costs.
 */
static void test_match_time_scales_the_message_costs(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *cmd = linear_cmd(log);
	struct run r = RUN("calibrate", "--groups", "1..3", "--threads", "--repeat", "1",
			   "--warmup", "0", "--real-cmd", cmd, "--hz", "1000", "--cost-jitter", "0",
			   "--match-time", "--out", out);

	expect_exit_0(&r, "calibrate --match-time");
	const char *at = strstr(r.out, "Matched the time (--match-time): message costs x ");

	assert_non_null(at);
	double f = g_ascii_strtod(at + strlen("Matched the time (--match-time): message costs x "),
				  NULL);
	const char *after = strstr(at, " before, ");

	assert_non_null(after);
	double reported = g_ascii_strtod(after + strlen(" before, "), NULL);

	assert_true(f > MATCH_TIME_LO && f < MATCH_TIME_HI);
	assert_close(reported, 1, 0.02);

	/* The calibration simulated at the matched costs: its slope is the reported one. */
	g_autofree char *csv_path = g_build_filename(out, CALIBRATION_CSV_NAME, NULL);
	g_auto(GStrv) rows = lines_of(csv_path);
	double xy = 0, xx = 0;

	for (guint g = 1; g <= 3; g++) {
		g_auto(GStrv) c = g_strsplit(rows[g], ",", -1);
		double sim_ms = g_ascii_strtod(c[1], NULL), real_ms = 12 + 47 * g;

		xy += real_ms * sim_ms;
		xx += sim_ms * sim_ms;
	}
	assert_close(xy / xx, reported, 5e-5);

	/* The machine: the built-in one's socket costs times f, the blocked read (0) left out. */
	g_autofree char *machine = g_build_filename(out, "machine.ini", NULL);
	g_autofree char *text = read_text(machine);
	const char *w = strstr(text, "\nsocket_write_ns="), *rd = strstr(text, "\nsocket_read_ns=");

	assert_non_null(strstr(text, "# fitted by tuner calibrate --match-time (was 1090)\n"));
	assert_non_null(w);
	assert_non_null(rd);
	/* f is printed to 4 decimals: the costs are within a nanosecond of 1090 f and 1190 f. */
	assert_close(g_ascii_strtod(w + strlen("\nsocket_write_ns="), NULL), 1090 * f, 1);
	assert_close(g_ascii_strtod(rd + strlen("\nsocket_read_ns="), NULL), 1190 * f, 1);
	assert_null(strstr(text, "socket_block_ns"));
	assert_non_null(strstr(r.out, "and machine.ini (the matched machine)"));

	/* calibration.ini says at which costs it simulated. */
	g_autofree char *ini_path = g_build_filename(out, CALIBRATION_INI_NAME, NULL);
	g_autofree char *ini = read_text(ini_path);
	g_autofree char *costs = g_strdup_printf(
		"message costs x %.4f to take the real time (--match-time: machine.ini)", f);

	assert_non_null(strstr(ini, costs));
	run_clear(&r);

	/* It finds the costs itself, and not for the VM. */
	r = RUN("calibrate", "--groups", "1..3", "--real-cmd", cmd, "--match-time",
		"--read-cost-ns", "900", "--out", out);
	expect_refusal(&r, "--match-time --read-cost-ns", "--read-cost-ns: --match-time finds");
	run_clear(&r);
}

/* Runs that spread: the lack-of-fit test against them, net of the rounds. The fake adds 0, 3 or 6
 * ms by a counter, so the runs of a group count differ. 6 group counts x 3 runs: pure error on
 * 18 - 6 - (3 - 1) = 10 df. */
static void test_lack_of_fit_is_reported(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *count = in_dir(state, "count");
	g_autofree char *cmd = counting_cmd(
		count,
		"awk \"BEGIN { printf \\\"Time: %.3f\\\\n\\\", (12 + 47 * {groups} + 3 * ($n % 3)) / 1000 }\"");
	struct run r = RUN("calibrate", "--groups", "1..6", "--loops", "10", "--repeat", "3",
			   "--warmup", "0", "--real-cmd", cmd, "--out", out);

	expect_exit_0(&r, "calibrate with spread");
	assert_non_null(strstr(r.out, "  lack of fit F "));
	assert_non_null(strstr(r.out, " on 4 and 10 df, p "));
	assert_non_null(strstr(r.out, "(pure error, net of the rounds) sd "));
	assert_non_null(strstr(r.out, "should expect R^2 "));
	assert_non_null(strstr(r.out, "to expect 0.99 it would need "));

	g_autofree char *ini = g_build_filename(out, CALIBRATION_INI_NAME, NULL);
	g_autoptr(Calibration) cal = calibration_read(ini, NULL);
	assert_non_null(cal);
	assert_close(cal->fit.pe_df, 10, 0);
	assert_true(cal->fit.pe_sd > 0 && cal->fit.pe_sd < 6);
	assert_true(cal->fit.lof_p >= 0 && cal->fit.lof_p <= 1);
	assert_true(cal->fit.repeats_for_r2_99 >= 1);
	run_clear(&r);
}

static void test_seed_and_order_decide_the_plan(void **state)
{
	const char *seeds[] = { "1", "1", "2" };
	const char *orders[] = { "rounds", "rounds", "rounds", "blocks" };
	char *plans[4];

	for (guint i = 0; i < 4; i++) {
		g_autofree char *name = g_strdup_printf("cal%u", i);
		g_autofree char *out = in_dir(state, name);
		g_autofree char *log = in_dir(state, "log");
		g_autofree char *cmd = linear_cmd(log);
		/* blocks shuffle nothing, so they take no seed */
		struct run r = i < 3 ? RUN("calibrate", "--groups", "1..5", "--loops", "1",
					   "--repeat", "2", "--warmup", "0", "--order", orders[i],
					   "--seed", seeds[i], "--real-cmd", cmd, "--out", out)
				     : RUN("calibrate", "--groups", "1..5", "--loops", "1",
					   "--repeat", "2", "--warmup", "0", "--order", orders[i],
					   "--real-cmd", cmd, "--out", out);

		expect_exit_0(&r, orders[i]);
		plans[i] = run_order_of(out);
		run_clear(&r);
	}
	assert_string_equal(plans[0], plans[1]);
	assert_string_not_equal(plans[0], plans[2]);
	assert_string_equal(plans[3], "1,1,2,2,3,3,4,4,5,5");
	for (guint i = 0; i < 4; i++)
		g_free(plans[i]);
}

static void test_warm_up_runs_the_largest_workload_unrecorded(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *cmd = linear_cmd(log);
	struct run r = RUN("calibrate", "--groups", "2,4,3", "--loops", "1", "--repeat", "1",
			   "--warmup", "0.3", "--real-cmd", cmd, "--out", out);

	expect_exit_0(&r, "calibrate --warmup 0.3");
	assert_non_null(strstr(r.out, "unrecorded run"));
	g_auto(GStrv) logged = lines_of(log);
	guint n = g_strv_length(logged);

	/* Warm-up runs of 4 groups for at least 0.3 s, then the three measured ones. */
	assert_true(n >= 4);
	for (guint i = 0; i + 3 < n; i++)
		assert_string_equal(logged[i], "4");
	g_autofree char *order = run_order_of(out);
	g_auto(GStrv) measured = g_strsplit(order, ",", -1);
	assert_int_equal(g_strv_length(measured), 3);
	for (guint i = 0; i < 3; i++)
		assert_string_equal(measured[i], logged[n - 3 + i]);

	g_autofree char *ini = g_build_filename(out, CALIBRATION_INI_NAME, NULL);
	g_autoptr(Calibration) cal = calibration_read(ini, NULL);
	assert_non_null(cal);
	assert_true(cal->protocol.warmup_s >= 0.3);
	run_clear(&r);
}

/* The bootstrapped model's inputs come from one and two groups, measured in the same rounds even
 * when the fitted group counts lack them. */
static void test_bootstrap_inputs(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *log = in_dir(state, "log");
	g_autofree char *cmd = linear_cmd(log);
	struct run r =
		RUN("calibrate", "--groups", "2..8:2", "--loops", "10", "--threads", "--repeat",
		    "2", "--warmup", "0", "--model", "bootstrap", "--real-cmd", cmd, "--out", out);

	expect_exit_0(&r, "calibrate --model bootstrap");
	g_autofree char *order = run_order_of(out);
	g_auto(GStrv) groups = g_strsplit(order, ",", -1);
	assert_int_equal(g_strv_length(groups), 10); /* 2, 4, 6, 8 and 1, twice */

	g_autofree char *path = g_build_filename(out, CALIBRATION_BOOTSTRAP_NAME, NULL);
	g_autoptr(GError) error = NULL;
	struct hackbench_params boot;
	hackbench_params_default(&boot);
	assert_true(hackbench_load_bootstrap_file(&boot, path, &error));
	assert_close(boot.solo_ms, 59, 1e-9);
	assert_close(boot.degradation, MIN(1.0, 2.0 * 59 / 106), 1e-12);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
	assert_int_equal(g_key_file_get_uint64(kf, "bootstrap", "loops", NULL), 10);
	g_autofree char *mode = g_key_file_get_string(kf, "bootstrap", "mode", NULL);
	assert_string_equal(mode, "threads");

	/* Only the asked-for group counts are fitted. */
	g_autofree char *csv_path = g_build_filename(out, CALIBRATION_CSV_NAME, NULL);
	g_auto(GStrv) rows = lines_of(csv_path);
	assert_int_equal(g_strv_length(rows), 5);
	assert_true(g_str_has_prefix(rows[1], "2,"));
	run_clear(&r);
}

/* The command failed with exit status 1 and one line on stderr holding needle, and wrote nothing
 * in out. */
static void expect_failure_writing_nothing(const struct run *r, const char *out, const char *needle)
{
	if (r->status != 1 || !strstr(r->err, needle) ||
	    strchr(r->err, '\n') != r->err + strlen(r->err) - 1)
		fail_msg("expected exit status 1 and one line with '%s', got %d and '%s'", needle,
			 r->status, r->err);
	g_autoptr(GDir) dir = g_dir_open(out, 0, NULL);
	assert_non_null(dir);
	assert_null(g_dir_read_name(dir));
}

/* A run that fails half-way writes nothing, not even the bootstrap inputs measured before it. */
static void test_failing_run_writes_nothing(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *count = in_dir(state, "count");
	g_autofree char *cmd = counting_cmd(
		count,
		"if [ $n -lt 5 ]; then echo Time: 0.05; else echo broken pipe >&2; exit 3; fi; : {groups}");
	struct run r = RUN("calibrate", "--groups", "1..4", "--repeat", "2", "--warmup", "0",
			   "--model", "bootstrap", "--real-cmd", cmd, "--out", out);

	expect_failure_writing_nothing(&r, out, "exited with status 3: broken pipe");
	assert_non_null(strstr(r.err, "'sh -c"));
	run_clear(&r);
}

static void test_garbage_output_names_the_command_and_line(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	struct run r = RUN("calibrate", "--groups", "1..3", "--warmup", "0", "--real-cmd",
			   "sh -c 'echo Running in threaded mode; echo Time: soon' {groups}",
			   "--out", out);

	expect_failure_writing_nothing(&r, out, "no time in the output of 'sh -c");
	assert_non_null(strstr(r.err, "Time: soon"));
	run_clear(&r);
}

static void test_failing_warm_up_says_so(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	struct run r = RUN("calibrate", "--groups", "1..3", "--warmup", "5", "--real-cmd",
			   "sh -c 'exit 7' {groups}", "--out", out);

	expect_failure_writing_nothing(&r, out, "warm-up: 'sh -c 'exit 7' 3' exited with status 7");
	run_clear(&r);
}

static void test_bad_flags_are_refused(void **state)
{
	g_autofree char *out = in_dir(state, "cal");
	g_autofree char *file = in_dir(state, "file");
	g_autofree char *under_file = g_build_filename(file, "cal", NULL);
	const char *cmd = "sh -c 'echo Time: 0.05' {groups}";
	struct {
		const char *flag, *value, *needle;
	} cases[] = {
		{ "--order", "random", "--order" },
		{ "--seed", "-1", "--seed" },
		{ "--warmup", "-1", "--warmup" },
		{ "--warmup", "nan", "--warmup" },
		{ "--repeat", "0", "--repeat" },
		{ "--groups", "1..2", "--groups" },
		{ "--out", under_file, "--out" },
		/* issue 16, defects 3 and 4: every number checked, -1 and nan included */
		{ "--loops", "-1", "--loops" },
		{ "--repeat", "nan", "--repeat" },
		{ "--warmup", "inf", "--warmup" },
		{ "--seed", "4294967296", "--seed" },
		{ "--cpus", "-1", "--cpus" },
		{ "--fds", "-1", "--fds" },
		/* calibrate measures the bootstrapped model's inputs itself */
		{ "--bootstrap-file", "b.ini", "--bootstrap-file: calibrate measures" },
		{ "--solo-ms", "100", "--solo-ms: calibrate measures" },
		/* words after the flags were ignored */
		{ "extra", NULL, "unexpected argument 'extra'" },
	};

	g_assert_true(g_file_set_contents(file, "", 0, NULL));
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *dir = strcmp(cases[i].flag, "--out") == 0 ? cases[i].value : out;
		struct run r = strcmp(cases[i].flag, "--out") == 0
				       ? RUN("calibrate", "--real-cmd", cmd, "--out", dir)
				       : RUN("calibrate", "--real-cmd", cmd, "--out", dir,
					     "--model", "bootstrap", cases[i].flag, cases[i].value);

		expect_refusal(&r, cases[i].flag, cases[i].needle);
		run_clear(&r);
	}
	/* A shuffle's seed without the shuffle. */
	struct run r = RUN("calibrate", "--real-cmd", cmd, "--out", out, "--order", "blocks",
			   "--seed", "3");

	expect_refusal(&r, "--order blocks --seed 3", "--seed: shuffles the rounds");
	run_clear(&r);
	assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fake_benchmark_is_fitted_and_written,
						temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_sim_repeat_takes_medians, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_host_defaults_are_this_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_switch_interval, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_match_time_scales_the_message_costs,
						temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_lack_of_fit_is_reported, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_seed_and_order_decide_the_plan, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_warm_up_runs_the_largest_workload_unrecorded,
						temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_bootstrap_inputs, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_failing_run_writes_nothing, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_garbage_output_names_the_command_and_line,
						temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_failing_warm_up_says_so, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_flags_are_refused, temp_dir_setup,
						temp_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
