/*
 * test_realbench.c -- building, running and reading the real benchmark.
 *
 * Fixtures (tests/tuner/fixtures/, read relative to the top directory, where tests run) are the
 * exact output of this machine's tools, captured with 2>&1 on Linux 6.18, rt-tests hackbench 2.40
 * and Debian's linux-perf:
 *   hackbench.txt                  hackbench -T -g 1 -l 10            (Time: 0.007)
 *   hackbench-process-pipe.txt     hackbench -P -p -g 1 -l 10         (Time: 0.005)
 *   perf-messaging.txt             perf bench sched messaging -g 1 -l 10     (Total time: 0.023)
 *   perf-messaging-threads.txt     perf bench sched messaging -t -g 1 -l 10  (Total time: 0.007)
 *   hackbench-bad-groups.txt       hackbench -g 0 -l 10 (exit status 1: an error and the usage)
 *   garbage.txt                    written by hand: time labels without a usable number
 *   fake-bin/perf                  a stand-in perf for the default-tool fallback
 * Error paths use fake commands run through templates ("sh -c '...'"), never a shell of ours.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>
#include <math.h>

#include "tuner/calib/realbench.h"

#define FIXTURES "tests/tuner/fixtures/"

static gchar *read_fixture(const char *name)
{
	g_autofree gchar *path = g_strconcat(FIXTURES, name, NULL);
	gchar *text = NULL;
	GError *error = NULL;
	if (!g_file_get_contents(path, &text, NULL, &error))
		fail_msg("cannot read fixture %s (run tests from the top directory): %s", path,
			 error->message);
	return text;
}

static void assert_contains(const char *haystack, const char *needle)
{
	if (strstr(haystack, needle) == NULL)
		fail_msg("'%s' does not contain '%s'", haystack, needle);
}

static void assert_argv(gchar **argv, const char *const *expected)
{
	assert_non_null(argv);
	gsize n = g_strv_length(argv);
	gsize m = g_strv_length((gchar **)expected);
	if (n != m)
		fail_msg("argv has %zu words, expected %zu", n, m);
	for (gsize i = 0; i < n; i++)
		assert_string_equal(argv[i], expected[i]);
}

static double parse_fixture(const char *name)
{
	g_autofree gchar *text = read_fixture(name);
	g_autoptr(GError) error = NULL;
	double ms = -1.0;
	assert_true(realbench_parse_time(text, name, &ms, &error));
	assert_null(error);
	return ms;
}

/* ---- parsing the tools' real output ---- */

static void test_parse_hackbench_fixtures(void **state)
{
	(void)state;
	assert_true(fabs(parse_fixture("hackbench.txt") - 7.0) < 1e-9);
	assert_true(fabs(parse_fixture("hackbench-process-pipe.txt") - 5.0) < 1e-9);
}

static void test_parse_perf_fixtures(void **state)
{
	(void)state;
	assert_true(fabs(parse_fixture("perf-messaging.txt") - 23.0) < 1e-9);
	assert_true(fabs(parse_fixture("perf-messaging-threads.txt") - 7.0) < 1e-9);
}

static void test_parse_garbage_fixture(void **state)
{
	(void)state;
	g_autofree gchar *text = read_fixture("garbage.txt");
	g_autoptr(GError) error = NULL;
	double ms = -1.0;
	assert_false(realbench_parse_time(text, "fake-bench -g 2", &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_PARSE));
	assert_contains(error->message, "'fake-bench -g 2'");
	assert_contains(error->message, "'segfault at 0 ip 0000000000401136 sp 00007ffd error 6'");
	assert_true(ms == -1.0);
}

static void test_parse_error_output_fixture(void **state)
{
	(void)state;
	g_autofree gchar *text = read_fixture("hackbench-bad-groups.txt");
	g_autoptr(GError) error = NULL;
	double ms;
	assert_false(realbench_parse_time(text, "hackbench -g 0 -l 10", &ms, &error));
	assert_contains(error->message,
			"last line was '-P       --process         use fork (default)'");
}

static void test_parse_nothing(void **state)
{
	(void)state;
	const char *empties[] = { NULL, "", "\n \n\t\n" };
	for (gsize i = 0; i < G_N_ELEMENTS(empties); i++) {
		g_autoptr(GError) error = NULL;
		double ms;
		assert_false(realbench_parse_time(empties[i], "quiet", &ms, &error));
		assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_PARSE));
		assert_string_equal(error->message,
				    "no time in the output of 'quiet': it printed nothing");
	}
}

static void test_parse_anywhere_last_wins(void **state)
{
	(void)state;
	double ms = 0.0;
	assert_true(realbench_parse_time(
		"warmup Time: 1.0\nnoise\n[x] Total time: 2.5 [sec] (run 2)\n", "x", &ms, NULL));
	assert_true(fabs(ms - 2500.0) < 1e-9);
	assert_true(realbench_parse_time("Time:12\n", "x", &ms, NULL));
	assert_true(fabs(ms - 12000.0) < 1e-9);
}

static void test_parse_long_last_line_is_cut(void **state)
{
	(void)state;
	g_autofree gchar *longline = g_strnfill(1000, 'z');
	g_autoptr(GError) error = NULL;
	double ms;
	assert_false(realbench_parse_time(longline, "x", &ms, &error));
	assert_true(strlen(error->message) < 300);
	assert_contains(error->message, "zzz...'");
}

/* ---- command lines ---- */

static void test_hackbench_argv(void **state)
{
	(void)state;
	g_autoptr(Realbench) bench =
		realbench_new_tool(REALBENCH_TOOL_HACKBENCH, "/usr/bin/hackbench");
	RealbenchWorkload threads = { 3, 50, REALBENCH_THREADS, REALBENCH_SOCKETS };
	g_auto(GStrv) a = realbench_argv(bench, &threads, NULL);
	assert_argv(a, (const char *const[]){ "/usr/bin/hackbench", "-T", "-g", "3", "-l", "50",
					      NULL });

	RealbenchWorkload processes = { 20, 1000, REALBENCH_PROCESSES, REALBENCH_PIPES };
	g_auto(GStrv) b = realbench_argv(bench, &processes, NULL);
	assert_argv(b, (const char *const[]){ "/usr/bin/hackbench", "-P", "-g", "20", "-l", "1000",
					      "-p", NULL });
	assert_int_equal(realbench_tool(bench), REALBENCH_TOOL_HACKBENCH);
}

static void test_perf_argv(void **state)
{
	(void)state;
	g_autoptr(Realbench) bench = realbench_new_tool(REALBENCH_TOOL_PERF, "perf");
	RealbenchWorkload threads_pipes = { 5, 100, REALBENCH_THREADS, REALBENCH_PIPES };
	g_auto(GStrv) a = realbench_argv(bench, &threads_pipes, NULL);
	assert_argv(a, (const char *const[]){ "perf", "bench", "sched", "messaging", "-t", "-p",
					      "-g", "5", "-l", "100", NULL });

	RealbenchWorkload defaults = { 10, 100, REALBENCH_PROCESSES, REALBENCH_SOCKETS };
	g_auto(GStrv) b = realbench_argv(bench, &defaults, NULL);
	assert_argv(b, (const char *const[]){ "perf", "bench", "sched", "messaging", "-g", "10",
					      "-l", "100", NULL });
}

static void test_bad_workload(void **state)
{
	(void)state;
	g_autoptr(Realbench) bench = realbench_new_tool(REALBENCH_TOOL_HACKBENCH, "hackbench");
	RealbenchWorkload none = { 0, 100, REALBENCH_PROCESSES, REALBENCH_SOCKETS };
	g_autoptr(GError) error = NULL;
	assert_null(realbench_argv(bench, &none, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_WORKLOAD));
	double ms;
	g_clear_error(&error);
	RealbenchWorkload no_loops = { 1, 0, REALBENCH_PROCESSES, REALBENCH_SOCKETS };
	assert_false(realbench_run(bench, &no_loops, &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_WORKLOAD));
}

static void test_template_argv(void **state)
{
	(void)state;
	g_autoptr(GError) error = NULL;
	g_autoptr(Realbench) bench =
		realbench_new_template("taskset -c 0,1 hackbench -P -g {groups} -l {loops} "
				       "--note 'g={groups} l={loops}'",
				       &error);
	assert_null(error);
	assert_int_equal(realbench_tool(bench), REALBENCH_TOOL_TEMPLATE);
	/* The template decides the mode: threads here does not add -T. */
	RealbenchWorkload w = { 7, 250, REALBENCH_THREADS, REALBENCH_PIPES };
	g_auto(GStrv) argv = realbench_argv(bench, &w, NULL);
	assert_argv(argv, (const char *const[]){ "taskset", "-c", "0,1", "hackbench", "-P", "-g",
						 "7", "-l", "250", "--note", "g=7 l=250", NULL });
}

static void test_template_errors(void **state)
{
	(void)state;
	GError *error = NULL;
	assert_null(realbench_new_template("hackbench -l {loops}", &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_TEMPLATE));
	assert_contains(error->message, "'hackbench -l {loops}'");
	assert_contains(error->message, "{groups}");
	g_clear_error(&error);

	assert_null(realbench_new_template("hackbench -g {groups} --name 'unterminated", &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_TEMPLATE));
	assert_contains(error->message, "'hackbench -g {groups} --name 'unterminated'");
	g_clear_error(&error);
}

static void test_command_line_quoting(void **state)
{
	(void)state;
	const char *const argv[] = { "sh", "-c", "exit 1", "it's", "", "a=b,c:/d", NULL };
	g_autofree gchar *line = realbench_command_line(argv);
	assert_string_equal(line, "sh -c 'exit 1' 'it'\\''s' '' a=b,c:/d");
	/* What is printed splits back into the same words. */
	g_auto(GStrv) back = NULL;
	assert_true(g_shell_parse_argv(line, NULL, &back, NULL));
	assert_argv(back, argv);
}

/* ---- running commands ---- */

static const RealbenchWorkload small = { 3, 25, REALBENCH_PROCESSES, REALBENCH_SOCKETS };

static gboolean run_template(const char *template_text, double *ms, GError **error)
{
	g_autoptr(Realbench) bench = realbench_new_template(template_text, NULL);
	assert_non_null(bench);
	return realbench_run(bench, &small, ms, error);
}

static void test_run_substitutes_and_parses_stdout(void **state)
{
	(void)state;
	double ms = 0.0;
	g_autoptr(GError) error = NULL;
	assert_true(
		run_template("sh -c 'echo start; echo \"Time: {groups}.{loops}\"'", &ms, &error));
	assert_null(error);
	assert_true(fabs(ms - 3250.0) < 1e-9);
}

/*
 * The run's context switches are its resource usage's: a shell that waits for two sleeps blocks at
 * least three times (twice waiting for a child, and each sleep once in nanosleep, counted through
 * the shell, which waited for them), so at least 3 voluntary switches, whatever the machine.
 */
static void test_run_counts_context_switches(void **state)
{
	(void)state;
	g_autoptr(Realbench) bench =
		realbench_new_template("sh -c 'sleep 0.01; sleep 0.01; echo Time: {groups}'", NULL);
	RealbenchOutcome outcome = { 0 };
	g_autoptr(GError) error = NULL;

	assert_non_null(bench);
	assert_true(realbench_run_outcome(bench, &small, &outcome, &error));
	assert_null(error);
	assert_true(fabs(outcome.ms - 3000.0) < 1e-9);
	assert_true(outcome.context_switches >= 3);
}

static void test_run_parses_stderr(void **state)
{
	(void)state;
	double ms = 0.0;
	assert_true(run_template("sh -c 'echo \"     Total time: 0.{groups}00 [sec]\" >&2'", &ms,
				 NULL));
	assert_true(fabs(ms - 300.0) < 1e-9);
}

static void test_run_exit_status(void **state)
{
	(void)state;
	double ms = 0.0;
	g_autoptr(GError) error = NULL;
	assert_false(
		run_template("sh -c 'echo Time: 1.0; echo first >&2; echo \"no such group\" >&2; "
			     "exit 3' g{groups}",
			     &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_FAILED));
	assert_string_equal(error->message,
			    "'sh -c 'echo Time: 1.0; echo first >&2; echo \"no such group\" >&2; "
			    "exit 3' g3' exited with status 3: no such group");
}

static void test_run_exit_status_quiet(void **state)
{
	(void)state;
	double ms;
	g_autoptr(GError) error = NULL;
	assert_false(run_template("sh -c 'exit 1' {groups}", &ms, &error));
	assert_string_equal(error->message,
			    "'sh -c 'exit 1' 3' exited with status 1: it printed nothing");
	g_clear_error(&error);
	assert_false(run_template("sh -c 'echo only stdout; exit 1' {groups}", &ms, &error));
	assert_contains(error->message,
			"status 1: nothing on standard error, last output line 'only stdout'");
}

static void test_run_killed(void **state)
{
	(void)state;
	double ms;
	g_autoptr(GError) error = NULL;
	assert_false(run_template("sh -c 'echo dying >&2; kill -9 $$' {groups}", &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_FAILED));
	assert_contains(error->message,
			"'sh -c 'echo dying >&2; kill -9 $$' 3' was killed by signal 9");
	assert_contains(error->message, ": dying");
}

static void test_run_garbage(void **state)
{
	(void)state;
	double ms;
	g_autoptr(GError) error = NULL;
	assert_false(run_template("sh -c 'cat " FIXTURES "garbage.txt' {groups}", &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_PARSE));
	assert_string_equal(error->message,
			    "no time in the output of 'sh -c 'cat " FIXTURES
			    "garbage.txt' 3': last "
			    "line was 'segfault at 0 ip 0000000000401136 sp 00007ffd error 6'");
}

static void test_run_prints_nothing(void **state)
{
	(void)state;
	double ms;
	g_autoptr(GError) error = NULL;
	assert_false(run_template("true {groups}", &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_PARSE));
	assert_string_equal(error->message,
			    "no time in the output of 'true 3': it printed nothing");
}

static void test_run_missing_program(void **state)
{
	(void)state;
	double ms;
	g_autoptr(GError) error = NULL;
	assert_false(run_template("/nonexistent/hackbench -g {groups}", &ms, &error));
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_SPAWN));
	assert_contains(error->message, "cannot run '/nonexistent/hackbench -g 3': ");
}

/* Default tool choice, with PATH pointed at controlled directories (restored afterwards). */
static void test_default_falls_back_to_perf(void **state)
{
	(void)state;
	g_autofree gchar *saved_path = g_strdup(g_getenv("PATH"));
	g_autofree gchar *fake_bin = g_canonicalize_filename(FIXTURES "fake-bin", NULL);
	g_setenv("PATH", fake_bin, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(Realbench) bench = realbench_new_default(&error);
	g_setenv("PATH", saved_path, TRUE);

	assert_non_null(bench);
	assert_int_equal(realbench_tool(bench), REALBENCH_TOOL_PERF);
	RealbenchWorkload w = { 2, 7, REALBENCH_THREADS, REALBENCH_SOCKETS };
	g_auto(GStrv) argv = realbench_argv(bench, &w, NULL);
	g_autofree gchar *fake_perf = g_build_filename(fake_bin, "perf", NULL);
	assert_string_equal(argv[0], fake_perf);
	double ms = 0.0;
	if (!realbench_run(bench, &w, &ms, &error))
		fail_msg("%s", error->message);
	assert_true(fabs(ms - 42.0) < 1e-9);

	w.loops = 8; /* the fake refuses anything else, on standard error */
	assert_false(realbench_run(bench, &w, &ms, &error));
	assert_contains(error->message, "exited with status 2: fake perf: unexpected arguments: "
					"bench sched messaging -t -g 2 -l 8");
}

static void test_default_without_tools(void **state)
{
	(void)state;
	g_autofree gchar *saved_path = g_strdup(g_getenv("PATH"));
	g_autofree gchar *empty = g_dir_make_tmp("realbench-path-XXXXXX", NULL);
	g_setenv("PATH", empty, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(Realbench) bench = realbench_new_default(&error);
	g_setenv("PATH", saved_path, TRUE);
	g_rmdir(empty);

	assert_null(bench);
	assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_NO_TOOL));
	assert_contains(error->message, "hackbench");
	assert_contains(error->message, "perf");
}

/* The real tools, when this machine has them: a tiny run must give a plausible time, and a
 * rejected argument must surface hackbench's own complaint from standard error rather than the
 * usage text it prints on standard output. */
static void test_real_default_tool(void **state)
{
	(void)state;
	g_autoptr(GError) error = NULL;
	g_autoptr(Realbench) bench = realbench_new_default(&error);
	if (bench == NULL) {
		assert_true(g_error_matches(error, REALBENCH_ERROR, REALBENCH_ERROR_NO_TOOL));
		skip();
	}
	RealbenchWorkload tiny = { 1, 10, REALBENCH_PROCESSES, REALBENCH_SOCKETS };
	double ms = -1.0;
	if (!realbench_run(bench, &tiny, &ms, &error))
		fail_msg("%s", error->message);
	assert_true(ms >= 0.0 && ms < 60000.0);
}

static void test_real_hackbench_failure(void **state)
{
	(void)state;
	g_autofree gchar *hackbench = g_find_program_in_path("hackbench");
	if (hackbench == NULL)
		skip();
	double ms;
	g_autoptr(GError) error = NULL;
	assert_false(run_template("hackbench -g 0 -l {groups}", &ms, &error));
	assert_string_equal(error->message,
			    "'hackbench -g 0 -l 3' exited with status 1: hackbench: "
			    "--groups|-g requires an integer > 0");
}

/* ---- the machine ---- */

static void test_machine_facts(void **state)
{
	(void)state;
	g_autofree gchar *release = realbench_kernel_release();
	assert_true(release[0] != '\0');
	assert_null(strchr(release, '\n'));
	assert_true(realbench_cpu_count() >= 1);
}

static void test_names(void **state)
{
	(void)state;
	RealbenchTasks t = REALBENCH_PROCESSES;
	assert_string_equal(realbench_tasks_name(REALBENCH_THREADS), "threads");
	assert_string_equal(realbench_tasks_name(REALBENCH_PROCESSES), "processes");
	assert_true(realbench_tasks_from_name("threads", &t));
	assert_int_equal(t, REALBENCH_THREADS);
	assert_true(realbench_tasks_from_name("processes", &t));
	assert_int_equal(t, REALBENCH_PROCESSES);
	assert_false(realbench_tasks_from_name("thread", &t));
	assert_false(realbench_tasks_from_name(NULL, &t));
	assert_int_equal(t, REALBENCH_PROCESSES);
	assert_string_equal(realbench_channel_name(REALBENCH_SOCKETS), "sockets");
	assert_string_equal(realbench_channel_name(REALBENCH_PIPES), "pipes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_hackbench_fixtures),
		cmocka_unit_test(test_parse_perf_fixtures),
		cmocka_unit_test(test_parse_garbage_fixture),
		cmocka_unit_test(test_parse_error_output_fixture),
		cmocka_unit_test(test_parse_nothing),
		cmocka_unit_test(test_parse_anywhere_last_wins),
		cmocka_unit_test(test_parse_long_last_line_is_cut),
		cmocka_unit_test(test_hackbench_argv),
		cmocka_unit_test(test_perf_argv),
		cmocka_unit_test(test_bad_workload),
		cmocka_unit_test(test_template_argv),
		cmocka_unit_test(test_template_errors),
		cmocka_unit_test(test_command_line_quoting),
		cmocka_unit_test(test_run_substitutes_and_parses_stdout),
		cmocka_unit_test(test_run_parses_stderr),
		cmocka_unit_test(test_run_counts_context_switches),
		cmocka_unit_test(test_run_exit_status),
		cmocka_unit_test(test_run_exit_status_quiet),
		cmocka_unit_test(test_run_killed),
		cmocka_unit_test(test_run_garbage),
		cmocka_unit_test(test_run_prints_nothing),
		cmocka_unit_test(test_run_missing_program),
		cmocka_unit_test(test_default_falls_back_to_perf),
		cmocka_unit_test(test_default_without_tools),
		cmocka_unit_test(test_real_default_tool),
		cmocka_unit_test(test_real_hackbench_failure),
		cmocka_unit_test(test_machine_facts),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
