/*
 * Tests of `linsched launch`: the arithmetic of its settling, computed by hand from record_wakee
 * (halve after a second, +1 for a new wakee), and the program end to end, spawned without a
 * shell: it execs the command in its own process (the command's parent is ours), leaves the
 * command no child to reap, passes its exit status on, takes a round of 1.1 s per halving, and
 * refuses bad input with one line and status 2. No test can read a task's wakee_flips: what the
 * kernel makes of them is measured in the VM (vm/data/flips/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <glib.h>

#include "linsched/cli/launch.h"
#include "tests/support/support.h"

#define LINSCHED_RUN(...) run_program(LINSCHED, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static void test_settled_flips(void **state)
{
	static const struct {
		unsigned long inherited;
		unsigned int halvings;
		unsigned long left;
	} cases[] = {
		/* No settling keeps what was inherited. */
		{ 0, 0, 0 },
		{ 7, 0, 7 },
		/* One round: 7 halves to 3, and the new wakee adds 1. */
		{ 7, 1, 4 },
		/* From nothing: 0 + 1, then 1 / 2 = 0. */
		{ 0, 1, 1 },
		{ 0, 2, 0 },
		/* Five rounds: 29 -> 15 -> 7 -> 3 -> 1 -> 0, but 30 -> 16 -> 8 -> 4 -> 2 -> 1. */
		{ 29, 5, 0 },
		{ 30, 5, 1 },
		{ 30, 6, 0 },
		/* The default seven: 125 -> 63 -> 31 -> 15 -> 7 -> 3 -> 1 -> 0; 126 -> 64 ... -> 1;
		 * and 61, which a guest's init passed on, to 0 (five rounds left it 1). */
		{ 125, 7, 0 },
		{ 126, 7, 1 },
		{ 61, 5, 1 },
		{ 61, 7, 0 },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
		assert_int_equal(
			linsched_launch_settled_flips(cases[i].inherited, cases[i].halvings),
			cases[i].left);
}

/* The command reports its parent (ours, if the launcher exec'd it) and its children (none: the
 * helpers are reaped), without forking anything itself. */
#define REPORT_SCRIPT \
	"read kids </proc/$$/task/$$/children; echo \"parent=$PPID kids=[$kids]\"; exit 7"

/* Runs the report script through linsched launch with the flags given; checks that the script
 * ran in the launcher's place (its parent is ours), had no child, and passed on its status. */
static void expect_report(const char *flips, const char *settle)
{
	struct run r = LINSCHED_RUN("launch", "--wakee-flips", flips, "--settle", settle, "--",
				    "/bin/sh", "-c", REPORT_SCRIPT);
	char *want = g_strdup_printf("parent=%d kids=[]\n", (int)getpid());

	assert_int_equal(r.status, 7);
	assert_string_equal(r.out, want);
	assert_string_equal(r.err, "");
	g_free(want);
	run_clear(&r);
}

static void test_execs_in_place(void **state)
{
	(void)state;
	expect_report("4", "0");
}

static void test_settle_rounds(void **state)
{
	(void)state;
	gint64 t0 = g_get_monotonic_time();

	expect_report("2", "1");
	/* A lower bound only: one round sleeps 1.1 s, however busy the machine. */
	assert_true(g_get_monotonic_time() - t0 >= 1100000);
}

static void test_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *args[6];
		const char *needle;
	} cases[] = {
		{ { "launch", "--wakee-flips", "x", "--", "true" }, "--wakee-flips" },
		{ { "launch", "--wakee-flips", "1001", "--", "true" }, "--wakee-flips" },
		{ { "launch", "--settle", "-1", "--", "true" }, "--settle" },
		{ { "launch", "--settle", "21", "--", "true" }, "--settle" },
		{ { "launch", "--bogus", "--", "true" }, "--bogus" },
		{ { "launch", "-k", "1", "-s", "0" }, "COMMAND" },
		{ { "launch", "-s", "0", "--", "/nonexistent/command" }, "/nonexistent/command" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *args[8] = { 0 };
		char what[64];

		for (size_t a = 0; a < G_N_ELEMENTS(cases[i].args) && cases[i].args[a]; a++)
			args[a] = cases[i].args[a];
		struct run r = run_program(LINSCHED, args, NULL);

		snprintf(what, sizeof(what), "launch case %zu", i);
		expect_refusal(&r, what, cases[i].needle);
		run_clear(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settled_flips),
		cmocka_unit_test(test_execs_in_place),
		cmocka_unit_test(test_settle_rounds),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
