/*
 * End-to-end tests of `linsched hackbench --trace FILE`: the real program of this build variant
 * (BUILD_BIN_DIR/linsched), spawned without a shell.
 *
 *   ftrace  one line per context switch in the text format of the kernel's sched_switch
 *           tracepoint. Every line must match the format, the lines must be as many as the run's
 *           context_switches (the JSON report of the same run), each CPU's timestamps must not go
 *           back, and on each CPU a line's prev must be what the CPU's previous line switched to.
 *   json    Chrome trace-event JSON: valid JSON (a small strict parser written here), complete
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
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#ifndef BUILD_BIN_DIR
#define BUILD_BIN_DIR "build/release/bin"
#endif
#define LINSCHED BUILD_BIN_DIR "/linsched"

/* ---- running the program ---------------------------------------------------------------------- */

struct run {
	int status;       /* exit status, -1 if it did not exit normally */
	char *out, *err;
};

/* `linsched hackbench ARGS`, with child_setup (may be NULL) run in the child before exec. */
static struct run run_with(const char *const *args, GSpawnChildSetupFunc child_setup)
{
	GPtrArray *argv = g_ptr_array_new();
	struct run r = { -1, NULL, NULL };
	GError *error = NULL;
	int wait_status;

	g_ptr_array_add(argv, (gpointer)LINSCHED);
	g_ptr_array_add(argv, (gpointer)"hackbench");
	for (size_t i = 0; args[i]; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, child_setup, NULL, &r.out, &r.err,
			  &wait_status, &error))
		fail_msg("cannot run %s: %s", LINSCHED, error->message);
	if (WIFEXITED(wait_status))
		r.status = WEXITSTATUS(wait_status);
	g_ptr_array_free(argv, TRUE);
	return r;
}

#define HACKBENCH(...) run_with((const char *const[]){ __VA_ARGS__, NULL }, NULL)

static void run_clear(struct run *r)
{
	g_free(r->out);
	g_free(r->err);
}

static void expect_success(const struct run *r, const char *what)
{
	if (r->status != 0 || r->err[0] != '\0')
		fail_msg("%s: exit status %d, stderr '%s'", what, r->status, r->err);
}

/* ---- a strict JSON parser (the same as test_hackbench_cli.c's) ------------------------------- */

enum jkind { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct json {
	enum jkind kind;
	bool boolean;
	double number;
	bool is_uint;          /* a number written as a non-negative integer ... */
	guint64 uint;          /* ... whose exact value is this */
	char *string;          /* the raw text between the quotes */
	GPtrArray *array;      /* of struct json * */
	GHashTable *object;    /* key -> struct json * */
};

#define JSON_MAX_NESTING 64

struct cursor {
	const char *p;
	int depth;
};

static void json_free(gpointer data)
{
	struct json *v = data;

	if (!v)
		return;
	g_free(v->string);
	if (v->array)
		g_ptr_array_free(v->array, TRUE);
	if (v->object)
		g_hash_table_destroy(v->object);
	g_free(v);
}

static void skip_space(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

/* The raw text of a string at c (escapes checked, not decoded), or NULL. */
static char *scan_string(struct cursor *c)
{
	if (*c->p != '"')
		return NULL;
	const char *start = ++c->p;

	while (*c->p != '"') {
		if ((unsigned char)*c->p < 0x20)
			return NULL;  /* control character or end of input */
		if (*c->p == '\\') {
			c->p++;
			if (*c->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!g_ascii_isxdigit(c->p[i]))
						return NULL;
				c->p += 4;
			} else if (*c->p == '\0' || !strchr("\"\\/bfnrt", *c->p)) {
				return NULL;
			}
		}
		c->p++;
	}
	return g_strndup(start, (gsize)(c->p++ - start));
}

static bool scan_digits(struct cursor *c)
{
	if (!g_ascii_isdigit(*c->p))
		return false;
	while (g_ascii_isdigit(*c->p))
		c->p++;
	return true;
}

static struct json *scan_number(struct cursor *c)
{
	const char *start = c->p;
	bool integer = true;

	if (*c->p == '-')
		c->p++;
	if (*c->p == '0')
		c->p++;
	else if (!scan_digits(c))
		return NULL;
	if (*c->p == '.') {
		integer = false;
		c->p++;
		if (!scan_digits(c))
			return NULL;
	}
	if (*c->p == 'e' || *c->p == 'E') {
		integer = false;
		c->p++;
		if (*c->p == '+' || *c->p == '-')
			c->p++;
		if (!scan_digits(c))
			return NULL;
	}
	struct json *v = g_new0(struct json, 1);
	g_autofree char *text = g_strndup(start, (gsize)(c->p - start));

	v->kind = J_NUMBER;
	v->number = g_ascii_strtod(text, NULL);
	v->is_uint = integer && text[0] != '-' &&
		     g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT64, &v->uint, NULL);
	return v;
}

static struct json *scan_value(struct cursor *c);

static struct json *scan_array(struct cursor *c)
{
	struct json *v = g_new0(struct json, 1);

	v->kind = J_ARRAY;
	v->array = g_ptr_array_new_with_free_func(json_free);
	c->p++;
	skip_space(c);
	if (*c->p == ']') {
		c->p++;
		return v;
	}
	for (;;) {
		struct json *item = scan_value(c);

		if (!item)
			break;
		g_ptr_array_add(v->array, item);
		skip_space(c);
		if (*c->p == ']') {
			c->p++;
			return v;
		}
		if (*c->p++ != ',')
			break;
	}
	json_free(v);
	return NULL;
}

static struct json *scan_object(struct cursor *c)
{
	struct json *v = g_new0(struct json, 1);

	v->kind = J_OBJECT;
	v->object = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, json_free);
	c->p++;
	skip_space(c);
	if (*c->p == '}') {
		c->p++;
		return v;
	}
	for (;;) {
		skip_space(c);
		char *key = scan_string(c);

		skip_space(c);
		if (!key || *c->p != ':' || g_hash_table_contains(v->object, key)) {
			g_free(key);
			break;
		}
		c->p++;
		struct json *member = scan_value(c);

		if (!member) {
			g_free(key);
			break;
		}
		g_hash_table_insert(v->object, key, member);
		skip_space(c);
		if (*c->p == '}') {
			c->p++;
			return v;
		}
		if (*c->p++ != ',')
			break;
	}
	json_free(v);
	return NULL;
}

static struct json *scan_literal(struct cursor *c, const char *word, enum jkind kind, bool value)
{
	if (strncmp(c->p, word, strlen(word)) != 0)
		return NULL;
	c->p += strlen(word);
	struct json *v = g_new0(struct json, 1);

	v->kind = kind;
	v->boolean = value;
	return v;
}

static struct json *scan_value(struct cursor *c)
{
	struct json *v = NULL;

	skip_space(c);
	if (++c->depth > JSON_MAX_NESTING)
		return NULL;
	switch (*c->p) {
	case '{': v = scan_object(c); break;
	case '[': v = scan_array(c); break;
	case '"': {
		char *s = scan_string(c);

		if (s) {
			v = g_new0(struct json, 1);
			v->kind = J_STRING;
			v->string = s;
		}
		break;
	}
	case 't': v = scan_literal(c, "true", J_BOOL, true); break;
	case 'f': v = scan_literal(c, "false", J_BOOL, false); break;
	case 'n': v = scan_literal(c, "null", J_NULL, false); break;
	default: v = scan_number(c); break;
	}
	c->depth--;
	return v;
}

/* The document in text, which must be one JSON value and nothing else; fails the test if not. */
static struct json *json_parse(const char *text)
{
	struct cursor c = { text, 0 };
	struct json *v = scan_value(&c);

	skip_space(&c);
	if (!v || *c.p != '\0')
		fail_msg("not valid JSON near offset %td: '%.60s'", c.p - text, c.p);
	return v;
}

static const struct json *member(const struct json *obj, const char *key, enum jkind kind)
{
	assert_int_equal(obj->kind, J_OBJECT);
	const struct json *v = g_hash_table_lookup(obj->object, key);

	if (!v)
		fail_msg("no key \"%s\"", key);
	if (v->kind != kind)
		fail_msg("\"%s\" is of kind %d, expected %d", key, v->kind, kind);
	return v;
}

static guint64 member_uint(const struct json *obj, const char *key)
{
	const struct json *v = member(obj, key, J_NUMBER);

	if (!v->is_uint)
		fail_msg("\"%s\" is not a non-negative integer", key);
	return v->uint;
}

static const char *member_string(const struct json *obj, const char *key)
{
	return member(obj, key, J_STRING)->string;
}

/* ---- files ---------------------------------------------------------------------------------- */

static char *temp_dir(void)
{
	GError *error = NULL;
	char *dir = g_dir_make_tmp("test_trace-XXXXXX", &error);

	if (!dir)
		fail_msg("temporary directory: %s", error->message);
	return dir;
}

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

static void remove_dir(char *dir)
{
	/* Whatever a test left, also when it failed half-way. */
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	assert_non_null(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		g_unlink(path);
	}
	g_dir_close(d);
	assert_int_equal(g_rmdir(dir), 0);
	g_free(dir);
}

/* Each test works in a directory of its own, removed with what it holds when the test ends. */
static int make_dir(void **state)
{
	*state = temp_dir();
	return 0;
}

static int unmake_dir(void **state)
{
	remove_dir(*state);
	return 0;
}

static char *read_file(const char *path)
{
	GError *error = NULL;
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, &error))
		fail_msg("%s: %s", path, error->message);
	return text;
}

/* ---- the ftrace format ----------------------------------------------------------------------- */

/* The format the issue states, with every field captured. */
#define SCHED_SWITCH_RE                                                                                  \
	"^\\s*(\\S+)-(\\d+)\\s+\\[(\\d{3})\\]\\s+\\S+\\s+(\\d+)\\.(\\d{6}): sched_switch: "             \
	"prev_comm=(\\S+) prev_pid=(\\d+) prev_prio=(\\d+) prev_state=([RSX]) ==> "                      \
	"next_comm=(\\S+) next_pid=(\\d+) next_prio=(\\d+)$"

struct cpu_track {
	bool seen;
	guint64 last_us;
	char *next;                       /* "comm/pid" the CPU's last line switched to */
};

struct ftrace_summary {
	guint64 lines, exits;
};

static guint64 field_uint(GMatchInfo *m, int i)
{
	g_autofree char *s = g_match_info_fetch(m, i);
	guint64 v;

	assert_true(g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, &v, NULL));
	return v;
}

/*
 * Checks every line of an ftrace trace of a run whose report is doc: the format, one line per
 * context switch, each CPU's timestamps in order and within the run, each CPU's chain of
 * prev and next, idle as swapper/N with pid 0, every CPU idle at the end.
 */
static struct ftrace_summary check_ftrace(const char *text, const struct json *doc)
{
	g_autoptr(GRegex) re = g_regex_new(SCHED_SWITCH_RE, 0, 0, NULL);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	guint64 cpus = member_uint(doc, "cpus");
	guint64 runtime_us = member_uint(doc, "runtime_ns") / 1000;
	struct cpu_track track[64];
	struct ftrace_summary sum = { 0, 0 };

	assert_non_null(re);
	assert_true(cpus <= G_N_ELEMENTS(track));
	memset(track, 0, sizeof(track));
	assert_true(g_str_has_prefix(text, "# tracer: nop\n"));
	for (char **l = lines; *l; l++) {
		g_autoptr(GMatchInfo) m = NULL;

		if (**l == '\0' || **l == '#') {
			/* Comments only in the header, and the file ends with a newline. */
			assert_true(**l == '#' ? sum.lines == 0 : l[1] == NULL);
			continue;
		}
		if (!g_regex_match(re, *l, 0, &m))
			fail_msg("not a sched_switch line: '%s'", *l);
		sum.lines++;
		g_autofree char *task = g_match_info_fetch(m, 1);
		g_autofree char *prev_comm = g_match_info_fetch(m, 6);
		g_autofree char *next_comm = g_match_info_fetch(m, 10);
		g_autofree char *state = g_match_info_fetch(m, 9);
		guint64 cpu = field_uint(m, 3), us = field_uint(m, 4) * 1000000 + field_uint(m, 5);
		guint64 prev_pid = field_uint(m, 7), next_pid = field_uint(m, 11);
		g_autofree char *prev = g_strdup_printf("%s/%" G_GUINT64_FORMAT, prev_comm, prev_pid);
		g_autofree char *next = g_strdup_printf("%s/%" G_GUINT64_FORMAT, next_comm, next_pid);

		if (cpu >= cpus)
			fail_msg("CPU %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ": '%s'", cpu, cpus, *l);
		/* The line is told from the point of view of the task leaving the CPU. */
		assert_string_equal(task, prev_comm);
		assert_int_equal(field_uint(m, 2), prev_pid);
		assert_false(prev_pid == next_pid);
		/* Idle is the kernel's swapper/N, pid 0, never in state S or X. */
		for (int side = 0; side < 2; side++) {
			const char *comm = side ? next_comm : prev_comm;
			guint64 pid = side ? next_pid : prev_pid;
			g_autofree char *swapper = g_strdup_printf("swapper/%" G_GUINT64_FORMAT, cpu);

			assert_true((pid == 0) == (strcmp(comm, swapper) == 0));
		}
		if (prev_pid == 0)
			assert_string_equal(state, "R");
		sum.exits += strcmp(state, "X") == 0;
		if (us > runtime_us)
			fail_msg("at %" G_GUINT64_FORMAT " us, after the run's end at %" G_GUINT64_FORMAT " us: '%s'", us,
				 runtime_us, *l);

		struct cpu_track *t = &track[cpu];

		if (t->seen) {
			if (us < t->last_us)
				fail_msg("CPU %" G_GUINT64_FORMAT " goes back in time from %" G_GUINT64_FORMAT
					 " us: '%s'", cpu, t->last_us, *l);
			if (strcmp(prev, t->next) != 0)
				fail_msg("CPU %" G_GUINT64_FORMAT " switched to %s, but now switches from: '%s'", cpu,
					 t->next, *l);
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

	for (size_t i = 0; workload[i]; i++)
		g_ptr_array_add(args, (gpointer)workload[i]);
	g_ptr_array_add(args, (gpointer)"--trace");
	g_ptr_array_add(args, path);
	g_ptr_array_add(args, (gpointer)"--format");
	g_ptr_array_add(args, (gpointer)"json");
	g_ptr_array_add(args, NULL);
	struct run r = run_with((const char *const *)args->pdata, NULL);
	g_autofree char *cmd = g_strjoinv(" ", (char **)args->pdata);

	expect_success(&r, cmd);
	/* Renamed into place: nothing else is left in the directory. */
	expect_listing(dir, "run.trace");
	struct json *doc = json_parse(r.out);
	g_autofree char *text = read_file(path);
	struct ftrace_summary sum = check_ftrace(text, doc);

	/* Each task exits once, and the trace sees it leave its CPU for good. */
	assert_int_equal(sum.exits, member(doc, "tasks", J_ARRAY)->array->len);
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
}

static void test_ftrace_deterministic(void **state)
{
	const char *dir = *state;
	g_autofree char *a = g_build_filename(dir, "a.trace", NULL);
	g_autofree char *b = g_build_filename(dir, "b.trace", NULL);
	struct run ra = HACKBENCH("-g", "2", "-l", "10", "--trace", a);
	struct run rb = HACKBENCH("-g", "2", "-l", "10", "--trace", b);

	expect_success(&ra, "first run");
	expect_success(&rb, "second run");
	g_autofree char *ta = read_file(a);
	g_autofree char *tb = read_file(b);

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
	struct run r = HACKBENCH("-g", "2", "-l", "10", "--trace", path, "--trace-format", "json", "--format", "json");

	expect_success(&r, "--trace-format json");
	expect_listing(dir, "run.json");
	struct json *report = json_parse(r.out);
	guint64 cpus = member_uint(report, "cpus");
	double runtime_us = (double)member_uint(report, "runtime_ns") / 1e3;
	const GPtrArray *busy = member(report, "cpus_busy_ns", J_ARRAY)->array;
	g_autofree char *text = read_file(path);
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
			fail_msg("event %u on track %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " CPUs", i, tid, cpus);
		if (strcmp(ph, "M") == 0) {
			/* One track per CPU, named after it. */
			g_autofree char *name = g_strdup_printf("CPU %" G_GUINT64_FORMAT, tid);

			assert_string_equal(member_string(e, "name"), "thread_name");
			assert_string_equal(member_string(member(e, "args", J_OBJECT), "name"), name);
			named[tid]++;
			continue;
		}
		assert_string_equal(ph, "X");
		const char *task = member_string(e, "name");
		double ts = member_number(e, "ts"), dur = member_number(e, "dur");
		const struct json *args = member(e, "args", J_OBJECT);

		/* A span of a task inside the run. */
		if (ts < 0 || dur < 0 || ts + dur > runtime_us + 1e-3)
			fail_msg("%s runs from %g us for %g us, outside the run of %g us", task, ts, dur, runtime_us);
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
				fail_msg("CPU %" G_GUINT64_FORMAT ": %s starts at %g us, before %g us", c,
					 member_string(e, "name"), ts, end);
			end = ts + dur;
			total += dur;
		}
		/* Together they are the CPU's busy time. */
		const struct json *busy_ns = g_ptr_array_index(busy, c);
		double busy_us = (double)busy_ns->uint / 1e3;

		assert_true(busy_ns->is_uint);

		if (fabs(total - busy_us) > 1e-3 * spans->len + 1e-3)
			fail_msg("CPU %" G_GUINT64_FORMAT ": spans add up to %g us, busy %g us", c, total, busy_us);
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
	r = run_with((const char *const[]){ "-g", "2", "-l", "10", "--trace", path, NULL }, limit_file_size);
	if (r.status != 1 || !strstr(r.err, "--trace"))
		fail_msg("unwritable trace: exit status %d, stderr '%s'", r.status, r.err);
	expect_listing(dir, "");
	run_clear(&r);
	r = run_with((const char *const[]){ "-g", "2", "-l", "10", "--trace", path, "--trace-format", "json", NULL },
		     limit_file_size);
	assert_int_equal(r.status, 1);
	expect_listing(dir, "");
	run_clear(&r);

	/* The same runs without the limit succeed: the limit was the cause. */
	r = HACKBENCH("-g", "2", "-l", "10", "--trace", path);
	expect_success(&r, "unlimited");
	expect_listing(dir, "run.trace");
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ftrace_lines, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_ftrace_deterministic, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_json_trace, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_failed_run_leaves_no_trace, make_dir, unmake_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
