/*
 * End-to-end tests of `linsched hackbench --trace FILE`: the real program of this build variant
 * (BUILD_BIN_DIR/linsched), spawned without a shell.
 *
 *   ftrace  one line per context switch in the text format of the kernel's sched_switch
 *           tracepoint, and one per wakeup in that of sched_wakeup. Every line must match its
 *           format, the switch lines must be as many as the run's context_switches (the JSON
 *           report of the same run), each CPU's timestamps must not go back, on each CPU a line's
 *           prev must be what the CPU's previous line switched to, a wakeup is told by the task
 *           its CPU runs, and a woken task is not running.
 *   json    Chrome trace-event JSON: valid JSON (the strict parser of tests/support), complete
 *           ("X") events with ts and dur, one track (tid) per CPU named by a metadata event,
 *           spans of one CPU that do not overlap and add up to the CPU's busy time of the report.
 *
 * The trace is renamed into place when the run succeeds: no temporary file is left beside it,
 * and a run that fails (bad input, or a trace that cannot be written) leaves no trace at all.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <signal.h>
#include <sys/resource.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tests/support/json_strict.h"
#include "tests/support/support.h"

/* ---- running the program ---------------------------------------------------------------------- */

#define HACKBENCH(...) \
	run_program(LINSCHED, (const char *const[]){ "hackbench", __VA_ARGS__, NULL }, NULL)

/* The strict JSON parser (tests/support) is used over tuner/util/json_read.h: it refuses duplicate keys
 * and reads integers exactly, which these tests check. */

/* ---- files ---------------------------------------------------------------------------------- */

static int compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names in dir, sorted, as one string "a b c" (empty when there are none). */
static char *dir_listing(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	assert_non_null(d);
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(name));
	g_dir_close(d);
	g_ptr_array_sort(names, compare_names);
	g_ptr_array_add(names, NULL);
	char *listing = g_strjoinv(" ", (char **)names->pdata);

	g_ptr_array_free(names, TRUE);
	return listing;
}

static void expect_listing(const char *dir, const char *expected)
{
	g_autofree char *listing = dir_listing(dir);

	if (strcmp(listing, expected) != 0)
		fail_msg("%s holds '%s', expected '%s'", dir, listing, expected);
}

/* ---- the ftrace format ----------------------------------------------------------------------- */

/* The format the issue states, with every field captured. */
#define SCHED_SWITCH_RE                                                                     \
	"^\\s*(\\S+)-(\\d+)\\s+\\[(\\d{3})\\]\\s+\\S+\\s+(\\d+)\\.(\\d{6}): sched_switch: " \
	"prev_comm=(\\S+) prev_pid=(\\d+) prev_prio=(\\d+) prev_state=([RSX]) ==> "         \
	"next_comm=(\\S+) next_pid=(\\d+) next_prio=(\\d+)$"

#define SCHED_WAKEUP_RE                                                                     \
	"^\\s*(\\S+)-(\\d+)\\s+\\[(\\d{3})\\]\\s+\\S+\\s+(\\d+)\\.(\\d{6}): sched_wakeup: " \
	"comm=(\\S+) pid=(\\d+) prio=(\\d+) target_cpu=(\\d{3})$"

#define WAKEUP_PREEMPT_RE                                                                     \
	"^\\s*(\\S+)-(\\d+)\\s+\\[(\\d{3})\\]\\s+\\S+\\s+(\\d+)\\.(\\d{6}): wakeup_preempt: " \
	"\\(check_preempt_wakeup\\+0x0/0x0\\) curr_vr=(\\d+) wakee_vr=(\\d+) min_vr=(\\d+) "  \
	"nr=(\\d+) curr_pid=(\\d+) wakee_pid=(\\d+) latency=(\\d+) gran=(\\d+)$"

struct cpu_track {
	bool seen;
	guint64 last_us;
	char *next; /* "comm/pid" the CPU's last line switched to */
};

struct ftrace_summary {
	guint64 lines, exits, wakeups, checks;
};

/* A wakeup_preempt line, waiting for the sched_wakeup line that must follow it. */
struct preempt_check {
	bool cfs; /* a CFS profile: every wakeup onto a busy CPU has its check; EEVDF none */
	bool pending;
	guint64 wakee_pid, curr_pid;
};

static guint64 field_uint(GMatchInfo *m, int i)
{
	g_autofree char *s = g_match_info_fetch(m, i);
	guint64 v;

	assert_true(g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, &v, NULL));
	return v;
}

/*
 * A wakeup is told from its CPU by the task running there (once the CPU's chain is known), at
 * a time that does not go back, and wakes a task that no CPU runs.
 */
static void check_wakeup(GMatchInfo *m, const char *line, guint64 cpus, struct cpu_track *track,
			 struct preempt_check *pc)
{
	g_autofree char *task = g_match_info_fetch(m, 1);
	g_autofree char *comm = g_match_info_fetch(m, 6);
	guint64 cpu = field_uint(m, 3), us = field_uint(m, 4) * 1000000 + field_uint(m, 5);
	g_autofree char *waker = g_strdup_printf("%s/%" G_GUINT64_FORMAT, task, field_uint(m, 2));
	g_autofree char *wakee = g_strdup_printf("%s/%" G_GUINT64_FORMAT, comm, field_uint(m, 7));

	if (cpu >= cpus || field_uint(m, 9) >= cpus)
		fail_msg("a CPU beyond %" G_GUINT64_FORMAT ": '%s'", cpus, line);
	assert_true(field_uint(m, 7) != 0);
	if (track[cpu].seen) {
		if (us < track[cpu].last_us)
			fail_msg("CPU %" G_GUINT64_FORMAT " goes back in time: '%s'", cpu, line);
		if (strcmp(waker, track[cpu].next) != 0)
			fail_msg("CPU %" G_GUINT64_FORMAT " runs %s, but '%s'", cpu,
				 track[cpu].next, line);
		track[cpu].last_us = us;
	}
	for (guint64 c = 0; c < cpus; c++)
		if (track[c].seen && strcmp(track[c].next, wakee) == 0)
			fail_msg("CPU %" G_GUINT64_FORMAT " runs the woken task: '%s'", c, line);

	/*
	 * The preemption check came just before, for this wakee and the task its CPU runs; a wakee
	 * that lands on a CPU running a task had one, one onto an idle CPU had none.
	 */
	const struct cpu_track *target = &track[field_uint(m, 9)];

	if (pc->pending) {
		g_autofree char *curr = g_strdup_printf("/%" G_GUINT64_FORMAT, pc->curr_pid);

		if (pc->wakee_pid != field_uint(m, 7))
			fail_msg("a check of pid %" G_GUINT64_FORMAT " before '%s'", pc->wakee_pid,
				 line);
		if (target->seen && !g_str_has_suffix(target->next, curr))
			fail_msg("a check against pid %" G_GUINT64_FORMAT
				 ", but the CPU runs %s: '%s'",
				 pc->curr_pid, target->next, line);
	} else if (pc->cfs && target->seen && !g_str_has_suffix(target->next, "/0")) {
		fail_msg("no preemption check before a wakeup onto a busy CPU: '%s'", line);
	}
	pc->pending = false;
}

/*
 * A preemption check: the run's knobs, a queue of the running task and the wakee at least, and
 * a wakee placed no further behind min_vruntime than place_entity's sleeper credit allows
 * (latency, halved by 6.1's GENTLE_FAIR_SLEEPERS; nice-0 tasks, so no weight scaling).
 */
static void check_preempt_line(GMatchInfo *m, const char *line, const struct json *doc,
			       struct preempt_check *pc)
{
	guint64 wakee_vr = field_uint(m, 7), min_vr = field_uint(m, 8), latency = field_uint(m, 12);
	const char *profile = json_string_at(doc, "profile");

	if (pc->pending)
		fail_msg("two checks in a row: '%s'", line);
	assert_int_equal(latency, member_uint(member(doc, "knobs", J_OBJECT), "latency_ns"));
	assert_int_equal(field_uint(m, 13),
			 member_uint(member(doc, "knobs", J_OBJECT), "wakeup_granularity_ns"));
	assert_true(field_uint(m, 9) >= 2);
	assert_true(field_uint(m, 10) != 0);
	assert_true(field_uint(m, 10) != field_uint(m, 11));
	if (strcmp(profile, "6.1") == 0 || strcmp(profile, "2.6.28") == 0) {
		guint64 credit = strcmp(profile, "6.1") == 0 ? latency / 2 : latency;

		if ((gint64)(min_vr - wakee_vr) > (gint64)credit)
			fail_msg("a wakee more than %" G_GUINT64_FORMAT " ns behind: '%s'", credit,
				 line);
	}
	pc->pending = true;
	pc->wakee_pid = field_uint(m, 11);
	pc->curr_pid = field_uint(m, 10);
}

/*
 * Checks every line of an ftrace trace of a run whose report is doc: the format, one line per
 * context switch, each CPU's timestamps in order and within the run, each CPU's chain of
 * prev and next, idle as swapper/N with pid 0, every CPU idle at the end.
 */
static struct ftrace_summary check_ftrace(const char *text, const struct json *doc)
{
	g_autoptr(GRegex) re = g_regex_new(SCHED_SWITCH_RE, 0, 0, NULL);
	g_autoptr(GRegex) wake_re = g_regex_new(SCHED_WAKEUP_RE, 0, 0, NULL);
	g_autoptr(GRegex) check_re = g_regex_new(WAKEUP_PREEMPT_RE, 0, 0, NULL);
	const char *profile = json_string_at(doc, "profile");
	struct preempt_check pc = { strcmp(profile, "eevdf") != 0 && strcmp(profile, "6.6") != 0,
				    false, 0, 0 };
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	guint64 cpus = member_uint(doc, "cpus");
	guint64 runtime_us = member_uint(doc, "runtime_ns") / 1000;
	struct cpu_track track[64];
	struct ftrace_summary sum = { 0, 0, 0, 0 };

	assert_non_null(re);
	assert_non_null(check_re);
	assert_non_null(wake_re);
	assert_true(cpus <= G_N_ELEMENTS(track));
	memset(track, 0, sizeof(track));
	assert_true(g_str_has_prefix(text, "# tracer: nop\n"));
	for (char **l = lines; *l; l++) {
		g_autoptr(GMatchInfo) m = NULL;

		if (**l == '\0' || **l == '#') {
			/* Comments only in the header, and the file ends with a newline. */
			assert_true(**l == '#' ? sum.lines + sum.wakeups == 0 : l[1] == NULL);
			continue;
		}
		if (g_regex_match(wake_re, *l, 0, &m)) {
			check_wakeup(m, *l, cpus, track, &pc);
			sum.wakeups++;
			continue;
		}
		g_match_info_free(m);
		m = NULL;
		if (g_regex_match(check_re, *l, 0, &m)) {
			check_preempt_line(m, *l, doc, &pc);
			sum.checks++;
			continue;
		}
		g_match_info_free(m);
		m = NULL;
		if (pc.pending)
			fail_msg("a preemption check without its wakeup before '%s'", *l);
		if (!g_regex_match(re, *l, 0, &m))
			fail_msg("not a sched_switch line: '%s'", *l);
		sum.lines++;
		g_autofree char *task = g_match_info_fetch(m, 1);
		g_autofree char *prev_comm = g_match_info_fetch(m, 6);
		g_autofree char *next_comm = g_match_info_fetch(m, 10);
		g_autofree char *state = g_match_info_fetch(m, 9);
		guint64 cpu = field_uint(m, 3), us = field_uint(m, 4) * 1000000 + field_uint(m, 5);
		guint64 prev_pid = field_uint(m, 7), next_pid = field_uint(m, 11);
		g_autofree char *prev =
			g_strdup_printf("%s/%" G_GUINT64_FORMAT, prev_comm, prev_pid);
		g_autofree char *next =
			g_strdup_printf("%s/%" G_GUINT64_FORMAT, next_comm, next_pid);

		if (cpu >= cpus)
			fail_msg("CPU %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ": '%s'", cpu,
				 cpus, *l);
		/* The line is told from the point of view of the task leaving the CPU. */
		assert_string_equal(task, prev_comm);
		assert_int_equal(field_uint(m, 2), prev_pid);
		assert_false(prev_pid == next_pid);
		/* Idle is the kernel's swapper/N, pid 0, never in state S or X. */
		for (int side = 0; side < 2; side++) {
			const char *comm = side ? next_comm : prev_comm;
			guint64 pid = side ? next_pid : prev_pid;
			g_autofree char *swapper =
				g_strdup_printf("swapper/%" G_GUINT64_FORMAT, cpu);

			assert_true((pid == 0) == (strcmp(comm, swapper) == 0));
		}
		if (prev_pid == 0)
			assert_string_equal(state, "R");
		sum.exits += strcmp(state, "X") == 0;
		if (us > runtime_us)
			fail_msg("at %" G_GUINT64_FORMAT
				 " us, after the run's end at %" G_GUINT64_FORMAT " us: '%s'",
				 us, runtime_us, *l);

		struct cpu_track *t = &track[cpu];

		if (t->seen) {
			if (us < t->last_us)
				fail_msg("CPU %" G_GUINT64_FORMAT
					 " goes back in time from %" G_GUINT64_FORMAT " us: '%s'",
					 cpu, t->last_us, *l);
			if (strcmp(prev, t->next) != 0)
				fail_msg("CPU %" G_GUINT64_FORMAT
					 " switched to %s, but now switches from: '%s'",
					 cpu, t->next, *l);
		}
		t->seen = true;
		t->last_us = us;
		g_free(t->next);
		t->next = g_steal_pointer(&next);
	}
	assert_int_equal(sum.lines, member_uint(doc, "context_switches"));
	/* Every task exited: each CPU ends idle. */
	for (guint64 cpu = 0; cpu < cpus; cpu++) {
		if (track[cpu].seen && !g_str_has_suffix(track[cpu].next, "/0"))
			fail_msg("CPU %" G_GUINT64_FORMAT " ends running %s", cpu, track[cpu].next);
		g_free(track[cpu].next);
	}
	return sum;
}

/* Runs the workload args with an ftrace trace in dir and checks it against the run's report. */
static void check_ftrace_run(const char *dir, const char *const *workload)
{
	g_autofree char *path = g_build_filename(dir, "run.trace", NULL);
	GPtrArray *args = g_ptr_array_new();

	g_ptr_array_add(args, (gpointer) "hackbench");
	for (size_t i = 0; workload[i]; i++)
		g_ptr_array_add(args, (gpointer)workload[i]);
	g_ptr_array_add(args, (gpointer) "--trace");
	g_ptr_array_add(args, path);
	g_ptr_array_add(args, (gpointer) "--format");
	g_ptr_array_add(args, (gpointer) "json");
	g_ptr_array_add(args, NULL);
	struct run r = run_program(LINSCHED, (const char *const *)args->pdata, NULL);
	g_autofree char *cmd = g_strjoinv(" ", (char **)args->pdata);

	expect_clean_exit(&r, cmd);
	/* Renamed into place: nothing else is left in the directory. */
	expect_listing(dir, "run.trace");
	struct json *doc = json_parse(r.out);
	g_autofree char *text = read_text(path);
	struct ftrace_summary sum = check_ftrace(text, doc);

	/* Each task exits once, and the trace sees it leave its CPU for good. */
	assert_int_equal(sum.exits, member(doc, "tasks", J_ARRAY)->array->len);
	/* Tasks that pass messages block and are woken; bootstrapped tasks never sleep. */
	const char *profile = json_string_at(doc, "profile");
	bool cfs = strcmp(profile, "eevdf") != 0 && strcmp(profile, "6.6") != 0;

	if (strcmp(json_string_at(doc, "workload.model"), "fsm") == 0)
		assert_true(sum.wakeups > 0 && (sum.checks > 0) == cfs);
	else
		assert_int_equal(sum.wakeups + sum.checks, 0);
	json_free(doc);
	run_clear(&r);
	g_ptr_array_free(args, TRUE);
	assert_int_equal(g_unlink(path), 0);
}

#define FTRACE_RUN(...) check_ftrace_run(dir, (const char *const[]){ __VA_ARGS__, NULL })

static void test_ftrace_lines(void **state)
{
	const char *dir = *state;

	FTRACE_RUN("-g", "2", "-l", "10");
	FTRACE_RUN("-g", "3", "-l", "5", "--cpus", "4", "--profile", "6.1");
	FTRACE_RUN("-g", "1", "-l", "50", "--cpus", "1", "--pipe", "-T");
	FTRACE_RUN("-g", "2", "--model", "bootstrap", "--solo-ms", "20");
	FTRACE_RUN("-g", "2", "-l", "10", "--profile", "eevdf");
}

static void test_ftrace_deterministic(void **state)
{
	const char *dir = *state;
	g_autofree char *a = g_build_filename(dir, "a.trace", NULL);
	g_autofree char *b = g_build_filename(dir, "b.trace", NULL);
	struct run ra = HACKBENCH("-g", "2", "-l", "10", "--trace", a);
	struct run rb = HACKBENCH("-g", "2", "-l", "10", "--trace", b);

	expect_clean_exit(&ra, "first run");
	expect_clean_exit(&rb, "second run");
	g_autofree char *ta = read_text(a);
	g_autofree char *tb = read_text(b);

	assert_string_equal(ta, tb);
	expect_listing(dir, "a.trace b.trace");
	run_clear(&ra);
	run_clear(&rb);
}

/* ---- the Chrome trace-event format ------------------------------------------------------------ */

static double member_number(const struct json *obj, const char *key)
{
	return member(obj, key, J_NUMBER)->number;
}

static int compare_by_ts(gconstpointer a, gconstpointer b)
{
	double ta = member_number(*(const struct json *const *)a, "ts");
	double tb = member_number(*(const struct json *const *)b, "ts");

	return (ta > tb) - (ta < tb);
}

static void test_json_trace(void **state)
{
	const char *dir = *state;
	g_autofree char *path = g_build_filename(dir, "run.json", NULL);
	struct run r = HACKBENCH("-g", "2", "-l", "10", "--trace", path, "--trace-format", "json",
				 "--format", "json");

	expect_clean_exit(&r, "--trace-format json");
	expect_listing(dir, "run.json");
	struct json *report = json_parse(r.out);
	guint64 cpus = member_uint(report, "cpus");
	double runtime_us = (double)member_uint(report, "runtime_ns") / 1e3;
	const GPtrArray *busy = member(report, "cpus_busy_ns", J_ARRAY)->array;
	g_autofree char *text = read_text(path);
	struct json *trace = json_parse(text);
	const GPtrArray *events = member(trace, "traceEvents", J_ARRAY)->array;
	GPtrArray *per_cpu[64];
	unsigned int named[64] = { 0 };
	GHashTable *exited = g_hash_table_new(g_str_hash, g_str_equal);

	assert_true(cpus <= G_N_ELEMENTS(per_cpu));
	for (guint64 c = 0; c < cpus; c++)
		per_cpu[c] = g_ptr_array_new();
	for (guint i = 0; i < events->len; i++) {
		const struct json *e = g_ptr_array_index(events, i);
		const char *ph = member_string(e, "ph");
		guint64 tid = member_uint(e, "tid");

		assert_int_equal(member_uint(e, "pid"), 0);
		if (tid >= cpus)
			fail_msg("event %u on track %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
				 " CPUs",
				 i, tid, cpus);
		if (strcmp(ph, "M") == 0) {
			/* One track per CPU, named after it. */
			g_autofree char *name = g_strdup_printf("CPU %" G_GUINT64_FORMAT, tid);

			assert_string_equal(member_string(e, "name"), "thread_name");
			assert_string_equal(member_string(member(e, "args", J_OBJECT), "name"),
					    name);
			named[tid]++;
			continue;
		}
		assert_string_equal(ph, "X");
		const char *task = member_string(e, "name");
		double ts = member_number(e, "ts"), dur = member_number(e, "dur");
		const struct json *args = member(e, "args", J_OBJECT);

		/* A span of a task inside the run. */
		if (ts < 0 || dur < 0 || ts + dur > runtime_us + 1e-3)
			fail_msg("%s runs from %g us for %g us, outside the run of %g us", task, ts,
				 dur, runtime_us);
		assert_true(member_uint(args, "pid") > 0);
		if (strcmp(member_string(args, "end_state"), "X") == 0) {
			if (!g_hash_table_add(exited, (gpointer)task))
				fail_msg("%s exits twice", task);
		}
		g_ptr_array_add(per_cpu[tid], (gpointer)e);
	}
	/* Every task exited once. */
	assert_int_equal(g_hash_table_size(exited), member(report, "tasks", J_ARRAY)->array->len);
	for (guint64 c = 0; c < cpus; c++) {
		GPtrArray *spans = per_cpu[c];
		double total = 0, end = 0;

		assert_int_equal(named[c], 1);
		assert_true(spans->len > 0);
		g_ptr_array_sort(spans, compare_by_ts);
		/* One CPU runs one task at a time: its spans do not overlap. */
		for (guint i = 0; i < spans->len; i++) {
			const struct json *e = g_ptr_array_index(spans, i);
			double ts = member_number(e, "ts"), dur = member_number(e, "dur");

			if (ts < end - 1e-3)
				fail_msg("CPU %" G_GUINT64_FORMAT
					 ": %s starts at %g us, before %g us",
					 c, member_string(e, "name"), ts, end);
			end = ts + dur;
			total += dur;
		}
		/* Together they are the CPU's busy time. */
		const struct json *busy_ns = g_ptr_array_index(busy, c);
		double busy_us = (double)busy_ns->uint / 1e3;

		assert_true(busy_ns->is_uint);

		if (fabs(total - busy_us) > 1e-3 * spans->len + 1e-3)
			fail_msg("CPU %" G_GUINT64_FORMAT ": spans add up to %g us, busy %g us", c,
				 total, busy_us);
		g_ptr_array_free(spans, TRUE);
	}
	g_hash_table_destroy(exited);
	json_free(trace);
	json_free(report);
	run_clear(&r);
}

/* ---- failed runs ------------------------------------------------------------------------------ */

/*
 * In the child before exec: files may not grow past 1000 bytes, and a write beyond fails with
 * EFBIG instead of killing the process (SIGXFSZ ignored).
 */
static void limit_file_size(gpointer data)
{
	struct rlimit limit = { 1000, 1000 };
	struct sigaction ignore;

	(void)data;
	memset(&ignore, 0, sizeof(ignore));
	ignore.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &ignore, NULL);
	setrlimit(RLIMIT_FSIZE, &limit);
}

static void test_failed_run_leaves_no_trace(void **state)
{
	const char *dir = *state;
	g_autofree char *path = g_build_filename(dir, "run.trace", NULL);

	/* Bad input: refused before anything is written. */
	struct run r = HACKBENCH("--trace", path, "--groups", "0");

	assert_int_equal(r.status, 2);
	expect_listing(dir, "");
	run_clear(&r);
	r = HACKBENCH("--trace", path, "--trace-format", "xml");
	assert_int_equal(r.status, 2);
	expect_listing(dir, "");
	run_clear(&r);

	/* A trace that cannot be written: the run fails, naming the flag, and leaves nothing. */
	r = run_program(
		LINSCHED,
		(const char *const[]){ "hackbench", "-g", "2", "-l", "10", "--trace", path, NULL },
		limit_file_size);
	if (r.status != 1 || !strstr(r.err, "--trace"))
		fail_msg("unwritable trace: exit status %d, stderr '%s'", r.status, r.err);
	expect_listing(dir, "");
	run_clear(&r);
	r = run_program(LINSCHED,
			(const char *const[]){ "hackbench", "-g", "2", "-l", "10", "--trace", path,
					       "--trace-format", "json", NULL },
			limit_file_size);
	assert_int_equal(r.status, 1);
	expect_listing(dir, "");
	run_clear(&r);

	/* The same runs without the limit succeed: the limit was the cause. */
	r = HACKBENCH("-g", "2", "-l", "10", "--trace", path);
	expect_clean_exit(&r, "unlimited");
	expect_listing(dir, "run.trace");
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ftrace_lines, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_ftrace_deterministic, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_json_trace, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_failed_run_leaves_no_trace, temp_dir_setup,
						temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
