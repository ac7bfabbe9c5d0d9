/*
 * End-to-end tests of the `linsched run` program: the real binary of this build variant
 * (BUILD_BIN_DIR/linsched), spawned without a shell, judged by its exit status, stdout and stderr.
 *
 * Bad input must give exit status 2, nothing on stdout and a single line on stderr that names the
 * flag. JSON output is parsed by a small strict parser written here (RFC 8259 grammar, duplicate
 * keys rejected), and every key the interface promises (linsched/report.h) is checked for
 * presence, type and, where the command fixes it, value.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "linsched/model_id.h"
#include "tests/support/support.h"

/* ---- running the program ---------------------------------------------------------------------- */

#define RUN(...) run_program(LINSCHED, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static void expect_success(const struct run *r, const char *what)
{
	expect_clean_exit(r, what);
	assert_true(r->out[0] != '\0');
}

/* ---- a strict JSON parser --------------------------------------------------------------------- */

/* Not tests/support/json_strict.h: this one also keeps negative integers exact (member_int), which
 * the report's signed fields need, and names the offset where a document goes wrong. */

enum jtype {
	J_NULL,
	J_BOOL,
	J_NUMBER,
	J_STRING,
	J_ARRAY,
	J_OBJECT
};

struct jv {
	enum jtype type;
	bool b;
	bool integer; /* a number written without fraction or exponent */
	bool negative;
	uint64_t u; /* an integer's magnitude, exact */
	double d;
	char *s;	  /* a string's raw text between the quotes */
	GPtrArray *items; /* array: struct jv *; object: struct jmember * */
};

struct jmember {
	char *key;
	struct jv *val;
};

struct jparser {
	const char *p;
	const char *error;
	int depth;
};

static void jv_free(struct jv *v);

static void jmember_free(gpointer data)
{
	struct jmember *m = data;

	g_free(m->key);
	jv_free(m->val);
	g_free(m);
}

static void jv_free_cb(gpointer data)
{
	jv_free(data);
}

static void jv_free(struct jv *v)
{
	if (!v)
		return;
	g_free(v->s);
	if (v->items)
		g_ptr_array_free(v->items, TRUE);
	g_free(v);
}

static void skip_ws(struct jparser *jp)
{
	while (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r')
		jp->p++;
}

static struct jv *jfail(struct jparser *jp, const char *why, struct jv *partial)
{
	if (!jp->error)
		jp->error = why;
	jv_free(partial);
	return NULL;
}

/* A string's raw text: escapes checked (RFC 8259 section 7) but left as written. */
static char *parse_string_raw(struct jparser *jp)
{
	const char *start;

	if (*jp->p != '"') {
		jp->error = jp->error ? jp->error : "expected a string";
		return NULL;
	}
	start = ++jp->p;
	for (;;) {
		unsigned char c = (unsigned char)*jp->p;

		if (c == '"')
			break;
		if (c < 0x20) {
			jp->error = jp->error ? jp->error
					      : "control character or end of input in a string";
			return NULL;
		}
		if (c == '\\') {
			jp->p++;
			if (*jp->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!g_ascii_isxdigit(jp->p[i])) {
						jp->error =
							jp->error ? jp->error : "bad \\u escape";
						return NULL;
					}
				jp->p += 4;
			} else if (!strchr("\"\\/bfnrt", *jp->p) || *jp->p == '\0') {
				jp->error = jp->error ? jp->error : "bad escape";
				return NULL;
			}
		}
		jp->p++;
	}
	char *s = g_strndup(start, (gsize)(jp->p - start));

	jp->p++;
	return s;
}

static struct jv *parse_value(struct jparser *jp);

static struct jv *parse_number(struct jparser *jp)
{
	struct jv *v = g_new0(struct jv, 1);
	const char *start = jp->p;

	v->type = J_NUMBER;
	v->integer = true;
	if (*jp->p == '-') {
		v->negative = true;
		jp->p++;
	}
	if (*jp->p == '0') {
		jp->p++;
	} else if (*jp->p >= '1' && *jp->p <= '9') {
		while (g_ascii_isdigit(*jp->p))
			jp->p++;
	} else {
		return jfail(jp, "bad number", v);
	}
	const char *int_end = jp->p;

	if (*jp->p == '.') {
		v->integer = false;
		jp->p++;
		if (!g_ascii_isdigit(*jp->p))
			return jfail(jp, "bad fraction", v);
		while (g_ascii_isdigit(*jp->p))
			jp->p++;
	}
	if (*jp->p == 'e' || *jp->p == 'E') {
		v->integer = false;
		jp->p++;
		if (*jp->p == '+' || *jp->p == '-')
			jp->p++;
		if (!g_ascii_isdigit(*jp->p))
			return jfail(jp, "bad exponent", v);
		while (g_ascii_isdigit(*jp->p))
			jp->p++;
	}
	g_autofree char *text = g_strndup(start, (gsize)(jp->p - start));

	v->d = g_ascii_strtod(text, NULL);
	if (v->integer) {
		g_autofree char *digits =
			g_strndup(start + v->negative, (gsize)(int_end - start - v->negative));
		guint64 u;

		if (!g_ascii_string_to_unsigned(digits, 10, 0, G_MAXUINT64, &u, NULL))
			return jfail(jp, "integer out of range", v);
		v->u = u;
	}
	return v;
}

static struct jv *parse_array(struct jparser *jp)
{
	struct jv *v = g_new0(struct jv, 1);

	v->type = J_ARRAY;
	v->items = g_ptr_array_new_with_free_func(jv_free_cb);
	jp->p++;
	skip_ws(jp);
	if (*jp->p == ']') {
		jp->p++;
		return v;
	}
	for (;;) {
		struct jv *item = parse_value(jp);

		if (!item)
			return jfail(jp, "bad array element", v);
		g_ptr_array_add(v->items, item);
		skip_ws(jp);
		if (*jp->p == ',') {
			jp->p++;
			continue;
		}
		if (*jp->p == ']') {
			jp->p++;
			return v;
		}
		return jfail(jp, "expected , or ] in an array", v);
	}
}

static struct jv *jobj_get(const struct jv *obj, const char *key);

static struct jv *parse_object(struct jparser *jp)
{
	struct jv *v = g_new0(struct jv, 1);

	v->type = J_OBJECT;
	v->items = g_ptr_array_new_with_free_func(jmember_free);
	jp->p++;
	skip_ws(jp);
	if (*jp->p == '}') {
		jp->p++;
		return v;
	}
	for (;;) {
		skip_ws(jp);
		char *key = parse_string_raw(jp);

		if (!key)
			return jfail(jp, "expected a key", v);
		if (jobj_get(v, key)) {
			g_free(key);
			return jfail(jp, "duplicate key", v);
		}
		skip_ws(jp);
		if (*jp->p != ':') {
			g_free(key);
			return jfail(jp, "expected :", v);
		}
		jp->p++;
		struct jv *val = parse_value(jp);

		if (!val) {
			g_free(key);
			return jfail(jp, "bad member value", v);
		}
		struct jmember *m = g_new0(struct jmember, 1);

		m->key = key;
		m->val = val;
		g_ptr_array_add(v->items, m);
		skip_ws(jp);
		if (*jp->p == ',') {
			jp->p++;
			continue;
		}
		if (*jp->p == '}') {
			jp->p++;
			return v;
		}
		return jfail(jp, "expected , or } in an object", v);
	}
}

static struct jv *parse_literal(struct jparser *jp, const char *word, enum jtype type, bool b)
{
	size_t n = strlen(word);

	if (strncmp(jp->p, word, n) != 0)
		return jfail(jp, "unknown literal", NULL);
	jp->p += n;
	struct jv *v = g_new0(struct jv, 1);

	v->type = type;
	v->b = b;
	return v;
}

static struct jv *parse_value(struct jparser *jp)
{
	skip_ws(jp);
	if (++jp->depth > 64)
		return jfail(jp, "too deep", NULL);

	struct jv *v;

	switch (*jp->p) {
	case '{':
		v = parse_object(jp);
		break;
	case '[':
		v = parse_array(jp);
		break;
	case '"': {
		char *s = parse_string_raw(jp);

		if (!s)
			return NULL;
		v = g_new0(struct jv, 1);
		v->type = J_STRING;
		v->s = s;
		break;
	}
	case 't':
		v = parse_literal(jp, "true", J_BOOL, true);
		break;
	case 'f':
		v = parse_literal(jp, "false", J_BOOL, false);
		break;
	case 'n':
		v = parse_literal(jp, "null", J_NULL, false);
		break;
	default:
		v = parse_number(jp);
	}
	jp->depth--;
	return v;
}

/* The whole text is one JSON value; fails the test with the position otherwise. */
static struct jv *json_parse(const char *text)
{
	struct jparser jp = { text, NULL, 0 };
	struct jv *v = parse_value(&jp);

	if (v) {
		skip_ws(&jp);
		if (*jp.p != '\0') {
			jv_free(v);
			v = NULL;
			jp.error = "text after the value";
		}
	}
	if (!v)
		fail_msg("invalid JSON at offset %ld: %s", (long)(jp.p - text),
			 jp.error ? jp.error : "?");
	return v;
}

static struct jv *jobj_get(const struct jv *obj, const char *key)
{
	for (guint i = 0; i < obj->items->len; i++) {
		struct jmember *m = g_ptr_array_index(obj->items, i);

		if (strcmp(m->key, key) == 0)
			return m->val;
	}
	return NULL;
}

/* The member `key`, which must exist and have the given type. */
static const struct jv *member(const struct jv *obj, const char *key, enum jtype type)
{
	assert_int_equal(obj->type, J_OBJECT);
	const struct jv *v = jobj_get(obj, key);

	if (!v)
		fail_msg("no key \"%s\"", key);
	if (v->type != type)
		fail_msg("\"%s\" has type %d, expected %d", key, v->type, type);
	return v;
}

/* A member that must be a non-negative integer; returns it. */
static uint64_t member_uint(const struct jv *obj, const char *key)
{
	const struct jv *v = member(obj, key, J_NUMBER);

	if (!v->integer || v->negative)
		fail_msg("\"%s\" is not a non-negative integer", key);
	return v->u;
}

static int64_t member_int(const struct jv *obj, const char *key)
{
	const struct jv *v = member(obj, key, J_NUMBER);

	if (!v->integer)
		fail_msg("\"%s\" is not an integer", key);
	return v->negative ? -(int64_t)v->u : (int64_t)v->u;
}

/* The parser itself must accept what JSON allows and refuse what it does not. */
static void test_parser_self_check(void **state)
{
	(void)state;
	const char *good =
		" {\"a\": [1, -0.5e+3, true, false, null, \"x\\\"\\u00e9\", {}, []], \"b\": {\"c\": 0}} ";
	struct jv *v = json_parse(good);

	assert_int_equal(member(v, "a", J_ARRAY)->items->len, 8);
	assert_int_equal(member_uint(member(v, "b", J_OBJECT), "c"), 0);
	const struct jv *a = member(v, "a", J_ARRAY);

	assert_true(((struct jv *)g_ptr_array_index(a->items, 1))->d == -500.0);
	jv_free(v);

	const char *bad[] = {
		"",	 "{",	"{\"a\":1,}", "[1,]", "[01]", "{\"a\" 1}", "{\"a\":1,\"a\":2}",
		"[1] x", "\"a", "[nul]",      "[.5]", "[1.]", "{a:1}",	   "[\"\\x\"]",
		"[-]"
	};

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct jparser jp = { bad[i], NULL, 0 };
		struct jv *w = parse_value(&jp);

		if (w) {
			skip_ws(&jp);
			assert_true(*jp.p != '\0');
			jv_free(w);
		}
	}
}

/* ---- JSON output ------------------------------------------------------------------------------ */

static const char *const task_keys[] = {
	"id",
	"cpu",
	"sum_exec_ns",
	"run_delay_ns",
	"pcount",
	"nr_voluntary_switches",
	"nr_involuntary_switches",
	"nr_migrations",
};

/* Every key of report.h with its type; values fixed by the command checked by the caller. */
static void check_report_shape(const struct jv *doc, uint64_t cpus)
{
	assert_int_equal(doc->type, J_OBJECT);
	member(doc, "profile", J_STRING);
	assert_int_equal(member_uint(doc, "cpus"), cpus);
	assert_true(member_uint(doc, "domains") >= 1);
	member(doc, "deadlock", J_BOOL);
	member_uint(doc, "hz");
	member(doc, "preempt", J_STRING);
	member_uint(doc, "seed");
	uint64_t runtime = member_uint(doc, "runtime_ns");

	member_uint(doc, "jiffies");
	member_uint(doc, "context_switches");
	member_uint(doc, "migrations");

	const struct jv *busy = member(doc, "cpus_busy_ns", J_ARRAY);

	assert_int_equal(busy->items->len, cpus);
	uint64_t total_busy = 0;

	for (guint i = 0; i < busy->items->len; i++) {
		const struct jv *b = g_ptr_array_index(busy->items, i);

		assert_int_equal(b->type, J_NUMBER);
		assert_true(b->integer && !b->negative);
		assert_true(b->u <= runtime);
		total_busy += b->u;
	}

	const struct jv *knobs = member(doc, "knobs", J_OBJECT);

	member_uint(knobs, "latency_ns");
	member_uint(knobs, "min_granularity_ns");
	member_uint(knobs, "wakeup_granularity_ns");
	member_uint(knobs, "migration_cost_ns");

	const struct jv *costs = member(doc, "costs", J_OBJECT);
	const char *const cost_keys[] = { "switch_ns", "wakeup_ns", "migrate_ns", "cache_lines",
					  "miss_ps" };

	for (size_t k = 0; k < G_N_ELEMENTS(cost_keys); k++)
		member_uint(costs, cost_keys[k]);

	const struct jv *tasks = member(doc, "tasks", J_ARRAY);
	uint64_t total_exec = 0;

	for (guint i = 0; i < tasks->items->len; i++) {
		const struct jv *t = g_ptr_array_index(tasks->items, i);

		assert_int_equal(t->type, J_OBJECT);
		for (size_t k = 0; k < G_N_ELEMENTS(task_keys); k++)
			member_uint(t, task_keys[k]);
		assert_int_equal(member_uint(t, "id"), i);
		assert_true(strlen(member(t, "name", J_STRING)->s) > 0);
		int64_t nice = member_int(t, "nice");

		assert_true(nice >= -20 && nice <= 19);
		assert_true(member_uint(t, "cpu") < cpus);
		assert_true(member_uint(t, "sum_exec_ns") + member_uint(t, "run_delay_ns") <=
			    runtime);
		total_exec += member_uint(t, "sum_exec_ns");

		const struct jv *exit_ns = jobj_get(t, "exit_ns");

		if (!exit_ns)
			fail_msg("task %u has no exit_ns", i);
		if (exit_ns->type == J_NUMBER) {
			assert_true(exit_ns->integer && !exit_ns->negative &&
				    exit_ns->u <= runtime);
			/* a task that exited was switched out as often as in */
			assert_int_equal(member_uint(t, "pcount"),
					 member_uint(t, "nr_voluntary_switches") +
						 member_uint(t, "nr_involuntary_switches"));
		} else {
			assert_int_equal(exit_ns->type, J_NULL);
		}
	}
	/* every busy nanosecond is some task's CPU time */
	assert_int_equal(total_exec, total_busy);
}

static void test_json_output(void **state)
{
	(void)state;
	struct run r = RUN("run", "--cpus", "2", "--hz", "250", "--seed", "7", "--duration-ms",
			   "200", "--latency-ns", "30000000", "--task", "cpu:nice=0", "--task",
			   "sleeprun:busy_ms=1:sleep_ms=3:loops=5", "--task", "cpu:nice=5:count=2",
			   "--format", "json");

	expect_success(&r, "run --format json");
	struct jv *doc = json_parse(r.out);

	check_report_shape(doc, 2);
	assert_string_equal(member(doc, "profile", J_STRING)->s, "2.6.28");
	assert_int_equal(member_uint(doc, "hz"), 250);
	assert_int_equal(member_uint(doc, "seed"), 7);
	assert_int_equal(member_uint(doc, "runtime_ns"), 200000000);
	assert_int_equal(member_uint(doc, "jiffies"), 50); /* 200 ms at 4 ms a jiffy */
	assert_true(member_uint(doc, "context_switches") > 0);

	/* the latency given, the others 2.6.28's defaults on 2 CPUs (SPEC.md section 3) */
	const struct jv *knobs = member(doc, "knobs", J_OBJECT);

	assert_int_equal(member_uint(knobs, "latency_ns"), 30000000);
	assert_int_equal(member_uint(knobs, "min_granularity_ns"), 8000000);
	assert_int_equal(member_uint(knobs, "wakeup_granularity_ns"), 10000000);
	assert_int_equal(member_uint(knobs, "migration_cost_ns"), 500000);

	const struct jv *tasks = member(doc, "tasks", J_ARRAY);
	const int64_t nice[] = { 0, 0, 5, 5 };

	assert_int_equal(tasks->items->len, 4);
	for (guint i = 0; i < 4; i++) {
		const struct jv *t = g_ptr_array_index(tasks->items, i);

		assert_int_equal(member_int(t, "nice"), nice[i]);
		/* the hogs are alive at the end; the sleeprun task's 5 loops of 4 ms end long before */
		if (i == 1) {
			assert_true(member_uint(t, "exit_ns") >= 20000000);
			assert_true(member_uint(t, "sum_exec_ns") >= 5000000);
		} else {
			member(t, "exit_ns", J_NULL);
		}
	}
	jv_free(doc);
	run_clear(&r);
}

/* The 6.1 profile on 4 CPUs: its defaults times 1 + ilog2(4) = 3. Domains are reported. */
static void test_json_profile_61(void **state)
{
	(void)state;
	struct run r =
		RUN("run", "--profile", "6.1", "--cpus", "4", "--domains", "2", "--duration-ms",
		    "50", "--task", "randsleeprun:busy_ms=1:sleep_ms=1:count=6:dist=normal",
		    "--format", "json");

	expect_success(&r, "run --profile 6.1");
	struct jv *doc = json_parse(r.out);

	check_report_shape(doc, 4);
	assert_string_equal(member(doc, "profile", J_STRING)->s, "6.1");
	assert_int_equal(member_uint(doc, "hz"), 1000);
	assert_int_equal(member_uint(doc, "seed"), 1);
	assert_int_equal(member_uint(doc, "jiffies"), 50);
	const struct jv *knobs = member(doc, "knobs", J_OBJECT);

	assert_int_equal(member_uint(knobs, "latency_ns"), 18000000);
	assert_int_equal(member_uint(knobs, "min_granularity_ns"), 2250000);
	assert_int_equal(member_uint(knobs, "wakeup_granularity_ns"), 3000000);
	assert_int_equal(member(doc, "tasks", J_ARRAY)->items->len, 6);
	jv_free(doc);
	run_clear(&r);
}

/*
 * The eevdf profile on 2 CPUs reports its one knob, base_slice: 0.70 ms x (1 + ilog2 2) = 1.4 ms
 * by default, or as given; no CFS knob. Two hogs on one CPU with slices of their own (3 ms and the
 * base one) share it equally: the slice sets latency, not share.
 */
static void test_json_profile_eevdf(void **state)
{
	(void)state;
	struct run r = RUN("run", "--profile", "eevdf", "--duration-ms", "50", "--format", "json");

	expect_success(&r, "run --profile eevdf");
	struct jv *doc = json_parse(r.out);
	const struct jv *knobs = member(doc, "knobs", J_OBJECT);

	assert_string_equal(member(doc, "profile", J_STRING)->s, "eevdf");
	assert_int_equal(member_uint(knobs, "base_slice_ns"), 1400000);
	assert_int_equal(member_uint(knobs, "migration_cost_ns"), 500000);
	assert_null(jobj_get(knobs, "latency_ns"));
	jv_free(doc);
	run_clear(&r);

	r = RUN("run", "--profile", "eevdf", "--cpus", "1", "--base-slice-ns", "2000000",
		"--duration-ms", "1000", "--task", "cpu:slice_ns=3000000", "--task", "cpu",
		"--switch-cost-ns", "0", "--format", "json");
	expect_success(&r, "run --profile eevdf --base-slice-ns");
	doc = json_parse(r.out);
	knobs = member(doc, "knobs", J_OBJECT);
	assert_int_equal(member_uint(knobs, "base_slice_ns"), 2000000);

	const struct jv *tasks = member(doc, "tasks", J_ARRAY);

	for (int i = 0; i < 2; i++)
		assert_int_equal(member_uint(g_ptr_array_index(tasks->items, i), "sum_exec_ns"),
				 500000000);
	jv_free(doc);
	run_clear(&r);
}

/* Without --task, the documented default mix: cpu:nice=0, cpu:nice=5:count=2, 40 sleeprun tasks. */
static void test_default_tasks(void **state)
{
	(void)state;
	struct run r = RUN("run", "--duration-ms", "100", "--format", "json");

	expect_success(&r, "run (default tasks)");
	struct jv *doc = json_parse(r.out);

	check_report_shape(doc, 2);
	const struct jv *tasks = member(doc, "tasks", J_ARRAY);

	assert_int_equal(tasks->items->len, 43);
	assert_int_equal(member_int(g_ptr_array_index(tasks->items, 0), "nice"), 0);
	assert_int_equal(member_int(g_ptr_array_index(tasks->items, 1), "nice"), 5);
	assert_int_equal(member_int(g_ptr_array_index(tasks->items, 2), "nice"), 5);
	assert_int_equal(member_uint(doc, "runtime_ns"), 100000000);
	jv_free(doc);
	run_clear(&r);

	/* and the text report succeeds as well */
	r = RUN("run", "--duration-ms", "100");
	expect_success(&r, "run (text)");
	run_clear(&r);
}

/* ---- bad input -------------------------------------------------------------------------------- */

/* Exit status 2, nothing on stdout, one line on stderr naming every word of `names`. */
static void expect_bad_input(const char *const *args, const char *const *names)
{
	struct run r = run_program(LINSCHED, args, NULL);
	g_autofree char *cmd = g_strjoinv(" ", (char **)args);

	for (size_t i = 0; names[i]; i++)
		expect_refusal(&r, cmd, names[i]);
	run_clear(&r);
}

#define BAD(names, ...) expect_bad_input((const char *const[]){ "run", __VA_ARGS__, NULL }, names)
#define NAMES(...)	((const char *const[]){ __VA_ARGS__, NULL })

static void test_bad_input(void **state)
{
	(void)state;
	BAD(NAMES("--task", "bogus"), "--task", "bogus");
	BAD(NAMES("--task", "foo"), "--task", "cpu:foo=1");
	BAD(NAMES("--task", "nice"), "--task", "cpu:nice=20");
	BAD(NAMES("--task", "nice"), "--task", "cpu", "--task", "cpu:nice=-21");
	BAD(NAMES("--task", "dist"), "--task", "randsleeprun:dist=uniform");
	BAD(NAMES("--latency-ns"), "--latency-ns", "50000");
	BAD(NAMES("--latency-ns"), "--latency-ns", "2000000000");
	BAD(NAMES("--min-gran-ns"), "--min-gran-ns", "0");
	BAD(NAMES("--wakeup-gran-ns"), "--wakeup-gran-ns", "1000000001");
	BAD(NAMES("--cpus"), "--cpus", "0");
	BAD(NAMES("--cpus"), "--cpus", "65");
	BAD(NAMES("--cpus"), "--cpus", "abc");
	BAD(NAMES("--cpus"), "--cpus", "-3");
	BAD(NAMES("--domains"), "--cpus", "4", "--domains", "3");
	BAD(NAMES("--hz"), "--hz", "500");
	BAD(NAMES("--format"), "--format", "xml");
	BAD(NAMES("--profile"), "--profile", "5.0");
	BAD(NAMES("--seed"), "--seed", "-5");
	BAD(NAMES("--duration-ms"), "--duration-ms", "0");
	BAD(NAMES("--no-such-flag"), "--no-such-flag");
	/* Steal: a fraction below 1, finite, with a stall length from the flags or the machine. */
	BAD(NAMES("--steal", "--stall-ns"), "--steal", "0.3");
	BAD(NAMES("--steal"), "--steal", "1", "--stall-ns", "1000000");
	/* below 1, but 1 to a millionth: the flag the user typed is named, not the model's ppm */
	BAD(NAMES("--steal", "0.9999999", "0.999999"), "--steal", "0.9999999", "--stall-ns",
	    "1000000");
	BAD(NAMES("--steal"), "--steal", "-0.1", "--stall-ns", "1000000");
	BAD(NAMES("--steal"), "--steal", "nan", "--stall-ns", "1000000");
	BAD(NAMES("--steal"), "--steal", "0.3x", "--stall-ns", "1000000");
	BAD(NAMES("--stall-ns"), "--steal", "0.3", "--stall-ns", "0");
	BAD(NAMES("--stall-cv"), "--stall-cv", "0");
	BAD(NAMES("--stall-cv"), "--stall-cv", "inf");
	/* Turns: fewer host CPUs than CPUs, a turn's length given, in place of steal. */
	BAD(NAMES("--host-cpus", "--stall-ns"), "--host-cpus", "1");
	BAD(NAMES("--host-cpus", "leave none waiting", "at most 1"), "--host-cpus", "2",
	    "--stall-ns", "1000000");
	BAD(NAMES("--host-cpus", "--steal", "give one"), "--host-cpus", "1", "--steal", "0.3",
	    "--stall-ns", "1000000");
	BAD(NAMES("--host-cpus"), "--host-cpus", "64", "--stall-ns", "1000000");
	/* Spells: both lengths, and the host CPUs of their turns. */
	BAD(NAMES("--shared-ns", "--apart-ns", "give both"), "--host-cpus", "1", "--shared-ns",
	    "1000000", "--stall-ns", "1000000");
	BAD(NAMES("--shared-ns", "--host-cpus"), "--shared-ns", "1000000", "--apart-ns", "1000000",
	    "--steal", "0.3", "--stall-ns", "1000000");
	/* The host's ticks: a kernel's HZ, steal to put on them, a lead below one host tick. */
	BAD(NAMES("--host-hz", "--steal"), "--host-hz", "250");
	BAD(NAMES("--host-hz", "200", "250"), "--host-hz", "200", "--steal", "0.5");
	BAD(NAMES("--host-hz", "1001"), "--host-hz", "1001", "--steal", "0.5");
	BAD(NAMES("--host-lead-ns", "--host-hz"), "--host-lead-ns", "1000", "--steal", "0.5",
	    "--stall-ns", "1000000");
	BAD(NAMES("--host-lead-ns", "4000000"), "--host-hz", "250", "--host-lead-ns", "4000000",
	    "--steal", "0.5");
	/* A knob the profile's kernel lacks, a base slice past debugfs's u32, a slice out of range. */
	BAD(NAMES("--base-slice-ns", "6.1"), "--profile", "6.1", "--base-slice-ns", "1000000");
	BAD(NAMES("--latency-ns", "eevdf"), "--profile", "eevdf", "--latency-ns", "6000000");
	BAD(NAMES("--wakeup-gran-ns"), "--profile", "6.6", "--wakeup-gran-ns", "0");
	BAD(NAMES("--base-slice-ns"), "--profile", "eevdf", "--base-slice-ns", "4294967296");
	BAD(NAMES("--base-slice-ns"), "--profile", "eevdf", "--base-slice-ns", "-2");
	BAD(NAMES("--task", "slice_ns"), "--profile", "eevdf", "--task", "cpu:slice_ns=99999");
	BAD(NAMES("--task", "slice_ns", "6.6"), "--profile", "6.6", "--task",
	    "cpu:slice_ns=1000000");
}

/*
 * Issue 16, defects 3 and 4: -1 stood for "not given", so --cpus -1 simulated 2 CPUs and exited 0;
 * the same for every integer flag, and a floating-point flag took nan. Every number flag of
 * linsched run, at -1 and at values that are not numbers: refused, naming the flag.
 */
static void test_numbers_refused(void **state)
{
	static const char *const ints[] = {
		"--cpus",
		"--domains",
		"--hz",
		"--latency-ns",
		"--min-gran-ns",
		"--wakeup-gran-ns",
		"--migration-cost-ns",
		"--switch-cost-ns",
		"--wakeup-cost-ns",
		"--migrate-cost-ns",
		"--cache-lines",
		"--miss-cost-ps",
		"--seed",
		"--duration-ms",
		"--stall-ns",
		"--host-cpus",
		"--host-hz",
		"--host-lead-ns",
		"--shared-ns",
		"--apart-ns",
	};
	static const char *const not_numbers[] = { "nan", "inf", "1e3", "0x10", "", "2 " };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(ints); i++) {
		BAD(NAMES(ints[i], "-1"), ints[i], "-1");
		for (size_t j = 0; j < G_N_ELEMENTS(not_numbers); j++)
			BAD(NAMES(ints[i]), ints[i], not_numbers[j]);
	}
	BAD(NAMES("--base-slice-ns", "-1"), "--profile", "eevdf", "--base-slice-ns", "-1");
	BAD(NAMES("--cost-jitter", "nan"), "--cost-jitter", "nan");
	BAD(NAMES("--cost-jitter", "inf"), "--cost-jitter", "inf");
	BAD(NAMES("--cost-jitter", "-0.5"), "--cost-jitter", "-0.5");
	BAD(NAMES("--seed", "99999999999999999999"), "--seed", "99999999999999999999");
	/* The steal flags were text parsed after the command line, "not given" when NULL. */
	BAD(NAMES("--steal", "-1"), "--steal", "-1", "--stall-ns", "1000000");
	BAD(NAMES("--steal", "inf"), "--steal", "inf", "--stall-ns", "1000000");
	BAD(NAMES("--steal", "''"), "--steal", "", "--stall-ns", "1000000");
	BAD(NAMES("--stall-ns", "1e6"), "--steal", "0.3", "--stall-ns", "1e6");
	BAD(NAMES("--stall-ns", "1000000000001"), "--steal", "0.3", "--stall-ns", "1000000000001");
	BAD(NAMES("--stall-cv", "-1"), "--stall-cv", "-1");
	BAD(NAMES("--stall-cv", "nan"), "--stall-cv", "nan");
	BAD(NAMES("--stall-cv", "10.5"), "--stall-cv", "10.5");
	/* A flag holds one value: the second was silently taken. */
	BAD(NAMES("--cpus", "twice"), "--cpus", "2", "--cpus", "4");
	BAD(NAMES("--steal", "twice"), "--steal", "0.1", "--steal", "0.2", "--stall-ns", "1000");
	BAD(NAMES("--stall-ns", "twice"), "--stall-ns", "1000", "--stall-ns", "2000");
	BAD(NAMES("--stall-cv", "twice"), "--stall-cv", "1", "--stall-cv", "2");
	BAD(NAMES("--machine", "empty"), "--machine", "");
}

/* Integers are decimal (GLib's parser read --seed 010 as 8), and 0 is a seed like any other. */
static void test_numbers_taken_as_written(void **state)
{
	(void)state;
	struct run r = RUN("run", "--seed", "010", "--duration-ms", "10", "--format", "json");

	expect_success(&r, "--seed 010");
	struct jv *doc = json_parse(r.out);

	assert_int_equal(member_uint(doc, "seed"), 10);
	jv_free(doc);
	run_clear(&r);
}

static void test_bad_command(void **state)
{
	(void)state;
	struct run r = RUN("frobnicate");

	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "frobnicate"));
	run_clear(&r);

	r = run_program(LINSCHED, (const char *const[]){ NULL }, NULL);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_true(r.err[0] != '\0');
	run_clear(&r);
}

static void test_help(void **state)
{
	(void)state;
	struct run r = RUN("run", "--help-all");

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "--task"));
	assert_non_null(strstr(r.out, "--latency-ns"));
	assert_non_null(strstr(r.out, "--format"));
	run_clear(&r);

	r = RUN("--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "run"));
	/* The model id, to compare with a journal's or a fitted machine's. */
	g_autofree char *model = g_strdup_printf("Model id %s:", linsched_model_id());
	assert_non_null(strstr(r.out, model));
	run_clear(&r);
}

/* ---- determinism ------------------------------------------------------------------------------ */

static void test_same_command_same_output(void **state)
{
	(void)state;
	const char *formats[] = { "json", "text" };

	for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
		struct run a =
			RUN("run", "--cpus", "4", "--domains", "2", "--duration-ms", "500",
			    "--seed", "3", "--task",
			    "randsleeprun:busy_ms=1:sleep_ms=2:count=12:dist=lognormal:cv=0.7",
			    "--task", "cpu:count=3", "--format", formats[f]);
		struct run b =
			RUN("run", "--cpus", "4", "--domains", "2", "--duration-ms", "500",
			    "--seed", "3", "--task",
			    "randsleeprun:busy_ms=1:sleep_ms=2:count=12:dist=lognormal:cv=0.7",
			    "--task", "cpu:count=3", "--format", formats[f]);
		struct run c =
			RUN("run", "--cpus", "4", "--domains", "2", "--duration-ms", "500",
			    "--seed", "4", "--task",
			    "randsleeprun:busy_ms=1:sleep_ms=2:count=12:dist=lognormal:cv=0.7",
			    "--task", "cpu:count=3", "--format", formats[f]);

		expect_success(&a, formats[f]);
		expect_success(&b, formats[f]);
		expect_success(&c, formats[f]);
		assert_string_equal(a.out, b.out);
		assert_true(strcmp(a.out, c.out) != 0); /* another seed, other draws */
		run_clear(&a);
		run_clear(&b);
		run_clear(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parser_self_check),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_json_profile_61),
		cmocka_unit_test(test_json_profile_eevdf),
		cmocka_unit_test(test_default_tasks),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_numbers_refused),
		cmocka_unit_test(test_numbers_taken_as_written),
		cmocka_unit_test(test_bad_command),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_same_command_same_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
