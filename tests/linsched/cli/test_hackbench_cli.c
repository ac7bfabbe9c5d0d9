/*
 * End-to-end tests of `linsched hackbench`: the real program of this build variant
 * (BUILD_BIN_DIR/linsched), spawned without a shell, judged by its exit status, stdout and stderr.
 *
 * The text output speaks like the real tools (perf bench sched messaging: "# 20 sender and
 * receiver processes per group", "# 10 groups == 400 processes run") and ends with the runtime in
 * jiffies and simulated seconds. The JSON output is parsed by the strict parser of tests/support
 * (RFC 8259 grammar, duplicate keys rejected) and must carry the run's keys, every workload
 * parameter and the message count G x F x F x L. Bad input gets exit status 2, nothing on stdout
 * and one line on stderr naming the flag.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "tests/support/json_strict.h"
#include "tests/support/support.h"

/* ---- running the program ---------------------------------------------------------------------- */

#define HACKBENCH(...) \
	run_program(LINSCHED, (const char *const[]){ "hackbench", __VA_ARGS__, NULL }, NULL)

static void expect_success(const struct run *r, const char *what)
{
	expect_clean_exit(r, what);
	assert_true(r->out[0] != '\0');
}

/* The strict JSON parser (tests/support) is used over tuner/util/json_read.h: it refuses duplicate keys
 * and reads integers exactly, which these tests check. */

static void test_json_parser(void **state)
{
	(void)state;
	/* The parser the other tests rely on accepts JSON and nothing else. */
	static const char *const good[] = {
		"{}",
		"[]",
		"0",
		"-0.5e+3",
		"\"a\\u00e9\\n\"",
		" {\"a\": [1, 2.5, true, false, null, {\"b\": \"c\"}]} ",
	};
	static const char *const bad[] = {
		"",	 "{",	  "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":1,\"a\":2}", "01",
		"1.",	 ".5",	  "-",	  "1e",		"\"\\x\"",   "\"tab\there\"",	  "tru",
		"[1] 2", "{a:1}", "'a'",  "[1 2]",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
		struct json *v = json_try_parse(good[i]);

		if (!v)
			fail_msg("valid JSON rejected: %s", good[i]);
		json_free(v);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct json *v = json_try_parse(bad[i]);

		if (v)
			fail_msg("invalid JSON accepted: %s", bad[i]);
	}
	struct json *v = json_parse("{\"n\": 18446744073709551615, \"m\": -1, \"x\": 2.5}");

	assert_true(member(v, "n", J_NUMBER)->is_uint);
	assert_true(member_uint(v, "n") == G_MAXUINT64);
	assert_false(member(v, "m", J_NUMBER)->is_uint);
	assert_false(member(v, "x", J_NUMBER)->is_uint);
	json_free(v);
}

/* ---- text output ------------------------------------------------------------------------------ */

static bool has_line(const char *out, const char *line)
{
	g_auto(GStrv) lines = g_strsplit(out, "\n", -1);

	for (char **l = lines; *l; l++)
		if (strcmp(*l, line) == 0)
			return true;
	return false;
}

static void expect_line(const struct run *r, const char *line)
{
	if (!has_line(r->out, line))
		fail_msg("no line '%s' in:\n%s", line, r->out);
}

/* The "Total time" line: jiffies and simulated seconds. */
static void total_time(const char *out, guint64 *jiffies, double *seconds)
{
	g_autoptr(GRegex) re =
		g_regex_new("^Total time: (\\d+) jiffies \\((\\d+\\.\\d{3}) simulated sec\\)$",
			    G_REGEX_MULTILINE, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;

	if (!g_regex_match(re, out, 0, &m))
		fail_msg("no 'Total time: N jiffies (S.sss simulated sec)' line in:\n%s", out);
	g_autofree char *j = g_match_info_fetch(m, 1);
	g_autofree char *s = g_match_info_fetch(m, 2);

	assert_true(g_ascii_string_to_unsigned(j, 10, 0, G_MAXUINT64, jiffies, NULL));
	*seconds = g_ascii_strtod(s, NULL);
	/* Only one such line. */
	assert_false(g_match_info_next(m, NULL));
}

static void test_default_text(void **state)
{
	(void)state;
	/* The real tools' defaults: 10 groups, 100 loops, 20 fds, sockets, processes. */
	struct run r = HACKBENCH(NULL);
	guint64 jiffies;
	double seconds;

	expect_success(&r, "linsched hackbench");
	expect_line(&r, "# 20 sender and receiver processes per group");
	expect_line(&r, "# 10 groups == 400 processes run");
	expect_line(&r, "Each sender will pass 100 messages of 100 bytes");
	assert_non_null(strstr(r.out, "sockets"));
	total_time(r.out, &jiffies, &seconds);
	/* HZ 1000: jiffies are the runtime in ms rounded up; seconds to the ms, rounded. */
	assert_true(jiffies > 0);
	assert_true(seconds <= (double)jiffies / 1000 + 0.0005);
	assert_true(seconds >= (double)(jiffies - 1) / 1000 - 0.0005);
	run_clear(&r);
}

static void test_threads_text(void **state)
{
	(void)state;
	struct run r = HACKBENCH("-T", "-g", "2", "-l", "5");

	expect_success(&r, "-T -g 2 -l 5");
	expect_line(&r, "# 20 sender and receiver threads per group");
	expect_line(&r, "# 2 groups == 80 threads run");
	expect_line(&r, "Each sender will pass 5 messages of 100 bytes");
	run_clear(&r);

	r = HACKBENCH("--fds", "3", "-g", "4", "-l", "5", "--pipe");
	expect_success(&r, "--fds 3 -g 4 --pipe");
	expect_line(&r, "# 3 sender and receiver processes per group");
	expect_line(&r, "# 4 groups == 24 processes run");
	assert_non_null(strstr(r.out, "pipes"));
	run_clear(&r);

	/* EEVDF has no CFS granularities: its line names its own knobs (eevdf on 2 CPUs: base_slice
	 * 0.70 ms x (1 + ilog2 2)). */
	r = HACKBENCH("-T", "-g", "1", "-l", "5", "--profile", "eevdf", "--cpus", "2");
	expect_success(&r, "--profile eevdf");
	expect_line(&r, "# knobs: base_slice 1400000 ns, migration_cost 500000 ns");
	run_clear(&r);
}

static void test_text_matches_json(void **state)
{
	(void)state;
	/* The same simulation in both formats: the text's total time is the JSON's runtime. */
	struct run text = HACKBENCH("-g", "2", "-l", "20", "--hz", "250");
	struct run json = HACKBENCH("-g", "2", "-l", "20", "--hz", "250", "--format", "json");
	guint64 jiffies;
	double seconds;

	expect_success(&text, "text");
	expect_success(&json, "json");
	total_time(text.out, &jiffies, &seconds);
	struct json *doc = json_parse(json.out);
	guint64 runtime_ns = member_uint(doc, "runtime_ns");

	assert_int_equal(jiffies, member_uint(doc, "jiffies"));
	/* HZ 250: a jiffy is 4 ms; the count is rounded up. */
	assert_int_equal(jiffies, (runtime_ns + 3999999) / 4000000);
	g_autofree char *expected = g_strdup_printf("%.3f", (double)runtime_ns / 1e9);

	assert_true(seconds == g_ascii_strtod(expected, NULL));
	json_free(doc);
	run_clear(&text);
	run_clear(&json);
}

/* ---- JSON output ------------------------------------------------------------------------------ */

/* The keys of every run report (linsched/report.h) are there, of the right kinds. */
static void check_run_keys(const struct json *doc, guint64 cpus)
{
	member(doc, "profile", J_STRING);
	assert_int_equal(member_uint(doc, "cpus"), cpus);
	member_uint(doc, "domains");
	member_uint(doc, "hz");
	member_uint(doc, "seed");
	assert_true(member_uint(doc, "runtime_ns") > 0);
	assert_true(member_uint(doc, "jiffies") > 0);
	assert_true(member_uint(doc, "context_switches") > 0);
	member_uint(doc, "migrations");
	assert_false(member(doc, "deadlock", J_BOOL)->boolean);
	assert_int_equal(member(doc, "cpus_busy_ns", J_ARRAY)->array->len, cpus);
	const struct json *knobs = member(doc, "knobs", J_OBJECT);

	member_uint(knobs, "latency_ns");
	member_uint(knobs, "min_granularity_ns");
	member_uint(knobs, "wakeup_granularity_ns");
	member_uint(knobs, "migration_cost_ns");
	const struct json *costs = member(doc, "costs", J_OBJECT);

	member_uint(costs, "switch_ns");
	member_uint(costs, "wakeup_ns");
	member_uint(costs, "migrate_ns");
	member_uint(costs, "cache_lines");
	member_uint(costs, "miss_ps");
}

/* Every task ran to its exit. */
static void check_tasks(const struct json *doc, guint64 nr_tasks)
{
	const struct json *tasks = member(doc, "tasks", J_ARRAY);

	assert_int_equal(tasks->array->len, nr_tasks);
	for (guint i = 0; i < tasks->array->len; i++) {
		const struct json *t = g_ptr_array_index(tasks->array, i);

		member(t, "name", J_STRING);
		assert_true(member_uint(t, "sum_exec_ns") > 0);
		member_uint(t, "exit_ns");
	}
}

static void test_default_json(void **state)
{
	(void)state;
	struct run r = HACKBENCH("--format", "json");

	expect_success(&r, "--format json");
	struct json *doc = json_parse(r.out);
	const struct json *w = member(doc, "workload", J_OBJECT);

	check_run_keys(doc, 2);
	/* Defaults: 10 groups, 100 loops, 20 fds, 100-byte messages over sockets, processes. */
	assert_string_equal(member_string(w, "benchmark"), "hackbench");
	assert_string_equal(member_string(w, "model"), "fsm");
	assert_int_equal(member_uint(w, "groups"), 10);
	assert_int_equal(member_uint(w, "loops"), 100);
	assert_int_equal(member_uint(w, "fds"), 20);
	assert_int_equal(member_uint(w, "datasize"), 100);
	assert_string_equal(member_string(w, "channel"), "socket");
	assert_string_equal(member_string(w, "mode"), "processes");
	assert_int_equal(member_uint(w, "tasks"), 400);
	/* net.core.wmem_default, 766 bytes charged per message: 278 fit. */
	assert_int_equal(member_uint(w, "capacity_bytes"), 212992);
	assert_int_equal(member_uint(w, "capacity_msgs"), 278);
	assert_true(member_uint(w, "write_ns") > 0);
	assert_true(member_uint(w, "read_ns") > 0);
	member_uint(w, "footprint_lines");
	assert_false(g_hash_table_contains(w->object, "solo_ms"));
	/* 10 x 20 x 20 x 100 */
	assert_int_equal(member_uint(doc, "messages"), 400000);
	check_tasks(doc, 400);
	guint64 process_switch = member_uint(member(doc, "costs", J_OBJECT), "switch_ns");

	json_free(doc);
	run_clear(&r);

	/* Threads switch cheaper than processes. */
	r = HACKBENCH("-T", "-g", "1", "-l", "1", "--format", "json");
	expect_success(&r, "-T --format json");
	doc = json_parse(r.out);
	assert_string_equal(member_string(member(doc, "workload", J_OBJECT), "mode"), "threads");
	assert_true(member_uint(member(doc, "costs", J_OBJECT), "switch_ns") < process_switch);
	json_free(doc);
	run_clear(&r);
}

static void test_json_deterministic(void **state)
{
	(void)state;
	struct run a = HACKBENCH("-g", "3", "-l", "10", "--format", "json");
	struct run b = HACKBENCH("-g", "3", "-l", "10", "--format", "json");

	expect_success(&a, "first run");
	expect_success(&b, "second run");
	assert_string_equal(a.out, b.out);

	struct json *doc = json_parse(a.out);
	const struct json *w = member(doc, "workload", J_OBJECT);
	static const char *const params[] = {
		"benchmark",	 "model",    "groups",	"loops",	   "fds",
		"datasize",	 "channel",  "mode",	"tasks",	   "capacity_bytes",
		"capacity_msgs", "write_ns", "read_ns", "footprint_lines",
	};

	check_run_keys(doc, 2);
	for (size_t i = 0; i < G_N_ELEMENTS(params); i++)
		if (!g_hash_table_contains(w->object, params[i]))
			fail_msg("workload has no \"%s\"", params[i]);
	assert_int_equal(member_uint(w, "groups"), 3);
	assert_int_equal(member_uint(w, "loops"), 10);
	assert_int_equal(member_uint(w, "tasks"), 120);
	/* G x F x F x L = 3 x 20 x 20 x 10 */
	assert_int_equal(member_uint(doc, "messages"), 12000);
	check_tasks(doc, 120);
	json_free(doc);
	run_clear(&a);
	run_clear(&b);

	/* Another seed is another run, still complete. */
	a = HACKBENCH("-g", "3", "-l", "10", "--format", "json", "--seed", "7");
	expect_success(&a, "--seed 7");
	doc = json_parse(a.out);
	assert_int_equal(member_uint(doc, "seed"), 7);
	assert_int_equal(member_uint(doc, "messages"), 12000);
	json_free(doc);
	run_clear(&a);
}

static void test_pipe_and_bootstrap_json(void **state)
{
	(void)state;
	struct run r = HACKBENCH("--pipe", "-g", "1", "-l", "10", "--format", "json");

	expect_success(&r, "--pipe");
	struct json *doc = json_parse(r.out);
	const struct json *w = member(doc, "workload", J_OBJECT);

	/* 16 pages of 40 messages. */
	assert_string_equal(member_string(w, "channel"), "pipe");
	assert_int_equal(member_uint(w, "capacity_bytes"), 65536);
	assert_int_equal(member_uint(w, "capacity_msgs"), 640);
	assert_int_equal(member_uint(doc, "messages"), 4000);
	json_free(doc);
	run_clear(&r);

	r = HACKBENCH("--model", "bootstrap", "-g", "2", "--solo-ms", "50", "--degradation", "0.8",
		      "--format", "json");
	expect_success(&r, "--model bootstrap");
	doc = json_parse(r.out);
	w = member(doc, "workload", J_OBJECT);
	assert_string_equal(member_string(w, "model"), "bootstrap");
	assert_true(member(w, "solo_ms", J_NUMBER)->number == 50);
	assert_true(member(w, "degradation", J_NUMBER)->number == 0.8);
	/* No messages in the bootstrapped model; two groups at least as long as one alone. */
	assert_int_equal(member_uint(doc, "messages"), 0);
	assert_true(member_uint(doc, "runtime_ns") >= 50 * 1000000ULL);
	json_free(doc);
	run_clear(&r);
}

/* ---- bad input -------------------------------------------------------------------------------- */

static void expect_usage_error(const char *const *args, const char *flag)
{
	struct run r = run_program(LINSCHED, args, NULL);
	g_autofree char *cmd = g_strjoinv(" ", (char **)args);

	expect_refusal(&r, cmd, flag);
	run_clear(&r);
}

#define USAGE_ERROR(flag, ...) \
	expect_usage_error((const char *const[]){ "hackbench", __VA_ARGS__, NULL }, flag)

static void test_bad_input(void **state)
{
	(void)state;
	USAGE_ERROR("--groups", "--groups", "0");
	USAGE_ERROR("--groups", "--groups", "-3");
	USAGE_ERROR("--fds", "--fds", "0");
	USAGE_ERROR("--loops", "--loops", "0");
	/* A socket charges 766 bytes for one 100-byte message; a pipe 100. */
	USAGE_ERROR("--capacity-bytes", "--capacity-bytes", "50");
	USAGE_ERROR("--capacity-bytes", "--capacity-bytes", "765");
	USAGE_ERROR("--capacity-bytes", "--pipe", "--capacity-bytes", "99");
	USAGE_ERROR("--trace", "--trace", "/nonexistent-dir/x.trace");
	USAGE_ERROR("--model", "--model", "foo");
	USAGE_ERROR("--trace-format", "--trace", "/tmp/never-written", "--trace-format", "xml");
	USAGE_ERROR("--threads", "--threads", "--processes");
	USAGE_ERROR("--processes", "-T", "-P");
	USAGE_ERROR("--degradation", "--model", "bootstrap", "--degradation", "1.5");
	USAGE_ERROR("--bootstrap-file", "--model", "bootstrap", "--bootstrap-file",
		    "/nonexistent-dir/b.ini");
	USAGE_ERROR("--profile", "--profile", "2.4");
	USAGE_ERROR("--groups", "--groups", "many");
	/* Only a parent's workers inherit its flips. */
	USAGE_ERROR("--parent-flips", "--parent-flips", "2");
	USAGE_ERROR("--parent-flips", "--start", "barrier", "--parent-flips", "2");
	USAGE_ERROR("--parent-flips", "--start", "parent", "--parent-flips", "1000001");
}

/*
 * Issue 16, defects 3, 4 and 7: -1 stood for "not given" (--write-cost-ns -1 was the default),
 * nan and negatives passed the range checks (--degradation nan, --solo-ms -2 and nan silently
 * gave 120 ms), and flags that do nothing together were taken.
 */
static void test_numbers_and_conflicts_refused(void **state)
{
	static const char *const ints[] = {
		"--groups",	  "--loops",	       "--fds",
		"--datasize",	  "--capacity-bytes",  "--write-cost-ns",
		"--read-cost-ns", "--footprint-lines", "--parent-flips",
	};
	static const char *const reals[] = { "--solo-ms", "--degradation" };
	static const char *const not_finite[] = { "nan", "-nan", "inf", "-inf", "1e999" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(ints); i++) {
		USAGE_ERROR(ints[i], ints[i], "-1");
		USAGE_ERROR(ints[i], ints[i], "1.5");
	}
	for (size_t i = 0; i < G_N_ELEMENTS(reals); i++) {
		USAGE_ERROR(reals[i], "--model", "bootstrap", reals[i], "-2");
		USAGE_ERROR(reals[i], "--model", "bootstrap", reals[i], "0");
		for (size_t j = 0; j < G_N_ELEMENTS(not_finite); j++)
			USAGE_ERROR(reals[i], "--model", "bootstrap", reals[i], not_finite[j]);
	}
	USAGE_ERROR("--cost-jitter", "--cost-jitter", "nan");
	/* The bootstrapped model's inputs, for the fsm model or beside the file that gives them. */
	USAGE_ERROR("--solo-ms", "--solo-ms", "100");
	USAGE_ERROR("--degradation", "--model", "fsm", "--degradation", "0.5");
	USAGE_ERROR("--bootstrap-file", "--bootstrap-file", "b.ini");
	USAGE_ERROR("--solo-ms", "--model", "bootstrap", "--bootstrap-file", "b.ini", "--solo-ms",
		    "100");
	/* A trace format without a trace; a flag given twice; an empty file name. */
	USAGE_ERROR("--trace-format", "--trace-format", "json");
	USAGE_ERROR("--groups", "-g", "2", "--groups", "3");
	USAGE_ERROR("--trace", "--trace", "");
}

static void test_good_edges_accepted(void **state)
{
	(void)state;
	/* The smallest channels that hold one message. */
	struct run r =
		HACKBENCH("-g", "1", "-l", "3", "--capacity-bytes", "766", "--format", "json");

	expect_success(&r, "--capacity-bytes 766");
	struct json *doc = json_parse(r.out);

	assert_int_equal(member_uint(member(doc, "workload", J_OBJECT), "capacity_msgs"), 1);
	assert_int_equal(member_uint(doc, "messages"), 1200);
	json_free(doc);
	run_clear(&r);

	r = HACKBENCH("-g", "1", "-l", "3", "--pipe", "--capacity-bytes", "100", "--processes");
	expect_success(&r, "--pipe --capacity-bytes 100");
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_parser),
		cmocka_unit_test(test_default_text),
		cmocka_unit_test(test_threads_text),
		cmocka_unit_test(test_text_matches_json),
		cmocka_unit_test(test_default_json),
		cmocka_unit_test(test_json_deterministic),
		cmocka_unit_test(test_pipe_and_bootstrap_json),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_numbers_and_conflicts_refused),
		cmocka_unit_test(test_good_edges_accepted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
