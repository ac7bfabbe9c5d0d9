/*
 * Unit tests of linsched/cli/flags.c: whether a flag was given is known whatever its value, every
 * number is checked as it is parsed (decimal, finite, in range), a flag is given once, an empty
 * file name is refused, and a group's prefixed name ("--grp-x", GLib's name for a flag another
 * group also has) is the same flag; the flags given are described as typed, in the set's order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib.h>

#include "linsched/cli/flags.h"
#include "tests/support/support.h"

/* A command line's worth of flags, their set, and a callback's record. */
struct cli {
	gint64 count, big;
	double ratio, positive;
	char *name, *file;
	char **items;
	gboolean quiet;
	int callback_calls;
	struct flag_set flags;
};

static gboolean count_callback(const char *option, const char *value, gpointer data, GError **error)
{
	struct cli *c = (struct cli *)((char *)data - offsetof(struct cli, flags));

	(void)option;
	(void)value;
	(void)error;
	c->callback_calls++;
	return TRUE;
}

static GOptionContext *context(struct cli *c)
{
	const GOptionEntry entries[] = {
		{ "count", 'c', 0, G_OPTION_ARG_INT64, &c->count, "", "N" },
		{ "big", 0, 0, G_OPTION_ARG_INT64, &c->big, "", "N" },
		{ "ratio", 0, 0, G_OPTION_ARG_DOUBLE, &c->ratio, "", "R" },
		{ "positive", 0, 0, G_OPTION_ARG_DOUBLE, &c->positive, "", "P" },
		{ "name", 0, 0, G_OPTION_ARG_STRING, &c->name, "", "S" },
		{ "file", 0, 0, G_OPTION_ARG_FILENAME, &c->file, "", "F" },
		{ "item", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->items, "", "I" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &c->quiet, "", NULL },
		{ "tick", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer)count_callback,
		  "", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c->count, 1, 64),
		FLAG_INT(&c->big, 0, G_MAXINT64),
		FLAG_REAL(&c->ratio, 0, 1, FLAG_CLOSED),
		FLAG_REAL(&c->positive, 0, 10, FLAG_OPEN_LO | FLAG_OPEN_HI),
	};
	GOptionContext *ctx = g_option_context_new(NULL);
	GOptionGroup *g;

	memset(c, 0, sizeof(*c));
	c->count = 2; /* a default that is also a valid value */
	flag_set_init(&c->flags);
	/* Not the main group: GLib also takes its flags as --grp-NAME. */
	g = flag_group_new(&c->flags, "grp", "Group:", "Show group");
	flag_group_add(&c->flags, g, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_add_group(ctx, g);
	g_option_context_set_help_enabled(ctx, FALSE);
	return ctx;
}

static void cli_clear(struct cli *c)
{
	g_free(c->name);
	g_free(c->file);
	g_strfreev(c->items);
	flag_set_clear(&c->flags);
}

/* Parses the NULL-terminated flags of ap into c (made afresh): the parser's error, or NULL. */
static GError *parse_va(struct cli *c, va_list ap)
{
	GPtrArray *argv = g_ptr_array_new();
	GOptionContext *ctx = context(c);
	GError *error = NULL;
	const char *arg;

	g_ptr_array_add(argv, "test");
	while ((arg = va_arg(ap, const char *)))
		g_ptr_array_add(argv, (gpointer)arg);
	g_ptr_array_add(argv, NULL);

	int argc = (int)argv->len - 1;
	char **args = (char **)argv->pdata;

	g_option_context_parse(ctx, &argc, &args, &error);
	g_option_context_free(ctx);
	g_ptr_array_free(argv, TRUE);
	return error;
}

/* Parses the flags into c; fails the test if they are refused. */
static void parse_ok(struct cli *c, ...)
{
	va_list ap;

	va_start(ap, c);
	g_autoptr(GError) error = parse_va(c, ap);
	va_end(ap);
	if (error)
		fail_msg("refused: %s", error->message);
}

#define PARSE(c, ...) parse_ok(c, __VA_ARGS__, NULL)

/* Refused with exactly this message, as bad input. */
static void expect_refused(const char *want, ...)
{
	struct cli c;
	va_list ap;

	va_start(ap, want);
	g_autoptr(GError) error = parse_va(&c, ap);
	va_end(ap);
	if (!error)
		fail_msg("accepted; want '%s'", want);
	assert_true(g_error_matches(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE));
	assert_string_equal(error->message, want);
	cli_clear(&c);
}

#define REFUSED(want, ...) expect_refused(want, __VA_ARGS__, NULL)

/* The defect: -1 (or any value) was how "not given" was coded. Now given-ness is its own fact. */
static void test_given_whatever_the_value(void **state)
{
	struct cli c;

	(void)state;
	PARSE(&c, "--big", "7");
	assert_false(flag_given(&c.flags, &c.count));
	assert_int_equal(c.count, 2);
	assert_true(flag_given(&c.flags, &c.big));
	assert_int_equal(c.big, 7);
	assert_null(flag_first_given(&c.flags, &c.count, &c.ratio, NULL));
	assert_string_equal(flag_first_given(&c.flags, &c.count, &c.big, NULL), "--big");
	cli_clear(&c);

	/* Given at its default value is still given. */
	PARSE(&c, "-c", "2", "-q", "--name", "", "--tick", "--tick");
	assert_true(flag_given(&c.flags, &c.count));
	assert_true(flag_given(&c.flags, &c.quiet) && c.quiet);
	assert_true(flag_given(&c.flags, &c.name));
	assert_string_equal(c.name, "");
	assert_int_equal(c.callback_calls, 2);
	assert_string_equal(flag_name(&c.flags, &c.count), "--count");
	assert_string_equal(flag_any_given(&c.flags, NULL), "--count");
	assert_string_equal(flag_any_given(&c.flags, &c.count), "--name");
	/* A value no entry of the set stores was not given. */
	assert_false(flag_given(&c.flags, &c.callback_calls));
	cli_clear(&c);
}

/* Every given value as typed, in the order the flags were added (not typed), escaped so that a
 * token has no space; a switch by its name; a repeated flag once a value; skipped names out. */
static void test_describe(void **state)
{
	struct cli c;
	const char *const skip[] = { "big", NULL };

	(void)state;
	PARSE(&c, "--item", "a b", "--ratio", "0.50", "--big", "3", "-q", "--grp-count", "7",
	      "--item", "x=1", "--tick");
	g_autoptr(GString) all = g_string_new("head");
	g_autoptr(GString) some = g_string_new(NULL);

	flag_set_describe(&c.flags, NULL, all);
	assert_string_equal(all->str,
			    "head count=7 big=3 ratio=0.50 item=a%20b item=x%3D1 quiet tick=");
	flag_set_describe(&c.flags, skip, some);
	assert_string_equal(some->str, " count=7 ratio=0.50 item=a%20b item=x%3D1 quiet tick=");
	cli_clear(&c);

	/* Nothing given, nothing said. */
	PARSE(&c, "--big", "1");
	g_string_truncate(some, 0);
	flag_set_describe(&c.flags, skip, some);
	assert_string_equal(some->str, "");
	cli_clear(&c);
}

static void test_integers(void **state)
{
	struct cli c;

	(void)state;
	/* Decimal: GLib's own parser read 010 as 8. */
	PARSE(&c, "--count", "010", "--big", "9223372036854775807");
	assert_int_equal(c.count, 10);
	assert_true(c.big == G_MAXINT64);
	cli_clear(&c);
	REFUSED("--count: must be in 1..64, got -1", "--count", "-1");
	REFUSED("--count: must be in 1..64, got 0", "-c", "0");
	REFUSED("--count: must be in 1..64, got 65", "--count", "65");
	REFUSED("--count: 'abc' is not a whole number", "--count", "abc");
	REFUSED("--count: '0x10' is not a whole number", "--count", "0x10");
	REFUSED("--count: '1.5' is not a whole number", "--count", "1.5");
	REFUSED("--count: '' is not a whole number", "--count", "");
	REFUSED("--count: ' 5' is not a whole number", "--count", " 5");
	REFUSED("--big: must be at least 0, got -1", "--big", "-1");
	REFUSED("--big: must be at least 0, got 9223372036854775808", "--big",
		"9223372036854775808");
	/* GLib's group-prefixed name is the same flag. */
	REFUSED("--count: must be in 1..64, got -1", "--grp-count", "-1");
}

static void test_reals(void **state)
{
	struct cli c;

	(void)state;
	PARSE(&c, "--ratio", "1", "--positive", "1e-3");
	assert_true(c.ratio == 1 && c.positive == 1e-3);
	cli_clear(&c);
	PARSE(&c, "--ratio", "0");
	cli_clear(&c);
	REFUSED("--ratio: 'nan' is not a finite number", "--ratio", "nan");
	REFUSED("--ratio: 'NaN' is not a finite number", "--ratio", "NaN");
	REFUSED("--ratio: 'inf' is not a finite number", "--ratio", "inf");
	REFUSED("--ratio: '-inf' is not a finite number", "--ratio", "-inf");
	REFUSED("--ratio: '1e400' is not a finite number", "--ratio", "1e400");
	REFUSED("--ratio: '0.5x' is not a finite number", "--ratio", "0.5x");
	REFUSED("--ratio: '' is not a finite number", "--ratio", "");
	REFUSED("--ratio: must be in [0, 1], got -2", "--ratio", "-2");
	REFUSED("--ratio: must be in [0, 1], got 1.0000001", "--ratio", "1.0000001");
	REFUSED("--positive: must be in (0, 10), got 0", "--positive", "0");
	REFUSED("--positive: must be in (0, 10), got -0", "--positive", "-0");
	REFUSED("--positive: must be in (0, 10), got 10", "--positive", "10");
}

static void test_once_and_files(void **state)
{
	struct cli c;

	(void)state;
	REFUSED("--count: given twice; give it once", "--count", "3", "--count", "4");
	REFUSED("--count: given twice; give it once", "--count", "3", "-c", "3");
	REFUSED("--ratio: given twice; give it once", "--ratio", "0", "--ratio", "1");
	REFUSED("--name: given twice; give it once", "--name", "a", "--name", "b");
	REFUSED("--file: an empty file name", "--file", "");
	/* Repeatable flags collect; a switch given twice is still on. */
	PARSE(&c, "--item", "a", "--item", "", "--item", "c", "-q", "-q", "--file", "x");
	assert_int_equal(g_strv_length(c.items), 3);
	assert_string_equal(c.items[1], "");
	assert_true(c.quiet);
	assert_string_equal(c.file, "x");
	cli_clear(&c);
}

/* A number flag without limits is a programming error, caught when the group is built. */
static void test_limits_are_required(void **state)
{
	(void)state;
	pid_t pid = fork_single_threaded();

	if (pid == 0) {
		gint64 v = 0;
		const GOptionEntry entries[] = {
			{ "unchecked", 0, 0, G_OPTION_ARG_INT64, &v, "", "N" },
			{ NULL, 0, 0, 0, NULL, NULL, NULL },
		};
		struct flag_set set;

		/* g_error's message would only clutter the test's output. */
		dup2(open("/dev/null", O_WRONLY), STDERR_FILENO);
		flag_set_init(&set);
		flag_group_add(&set, flag_group_new(&set, "g", "", ""), entries, NULL, 0);
		_exit(0);
	}

	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_given_whatever_the_value),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_reals),
		cmocka_unit_test(test_once_and_files),
		cmocka_unit_test(test_limits_are_required),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
