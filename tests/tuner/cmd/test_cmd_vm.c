/*
 * tests/tuner/cmd/test_cmd_vm.c - the commands that measure on the real-kernel VM, end to end
 * with a fake guest (tests/tuner/fixtures/vm/fake-qemu.sh, which times a run at 0.1 s +
 * wakeup_granularity / 1e10, and every run of round FAKE_QEMU_SLOW_ROUND at 0.2 s): `tuner
 * validate` and `tuner golden --objective vm` with its journal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/assert_close.h"
#include "tests/support/fake_vm.h"
#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define RUN(...) run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static int fake_setup(void **state)
{
	*state = fake_vm_new();
	return 0;
}

static int fake_teardown(void **state)
{
	fake_vm_free(*state);
	return 0;
}

/*
 * Tuned wakeup_granularity 0 runs 0.1 s against the defaults' 0.1002 s, except in round 1 where
 * both take 0.2 s. Log ratios: ln(0.1/0.1002) twice and 0: mean -0.0013320, the geometric ratio
 * 0.99867 (improvement 0.133 %); faster in 2 rounds, a tie in 1: sign test 2 P(X <= 0 | n = 2)
 * = 0.5.
 */
static void test_validate(void **state)
{
	FakeVm *f = *state;
	g_autofree char *best = g_build_filename(f->dir, "result.json", NULL);
	g_autofree char *out = g_build_filename(f->dir, "val", NULL);

	assert_true(g_file_set_contents(
		best,
		"{\"best\": {\"knobs\": {\"latency_ns\": 12000000, \"min_granularity_ns\": "
		"1500000, \"wakeup_granularity_ns\": 0}}, \"improvement_pct\": 4.5}",
		-1, NULL));
	g_setenv("FAKE_QEMU_SLOW_ROUND", "1", TRUE);
	struct run r = RUN("validate", "--best", best, "--rounds", "3", "--threads", "--groups",
			   "1", "--loops", "10", "--out", out, "--format", "json");

	expect_clean_exit(&r, "validate");
	struct json *j = json_parse(r.out);
	double d = log(0.1 / 0.1002), mean = 2 * d / 3;
	assert_close(json_number_at(j, "real.improvement_pct"), 100 * (1 - exp(mean)), 1e-9);
	assert_close(json_number_at(j, "real.sign_p"), 0.5, 1e-12);
	assert_close(json_number_at(j, "predicted_improvement_pct"), 4.5, 1e-12);
	assert_close(json_number_at(j, "tuned.median_seconds"), 0.1, 1e-12);
	assert_int_equal(member_uint(j, "pairs"), 3);
	assert_int_equal(fake_vm_boots(f), 1);
	json_free(j);

	g_autofree char *csv_path = g_build_filename(out, "validate.csv", NULL);
	g_autofree char *csv = NULL;
	assert_true(g_file_get_contents(csv_path, &csv, NULL, NULL));
	assert_true(g_str_has_prefix(csv, "round,setting,seconds,ctxt\n0,defaults,0.100200,"));
	run_clear(&r);

	/* tuner report draws it: real against predicted. */
	g_autofree char *figures = g_build_filename(f->dir, "figures", NULL);
	r = RUN("report", out, "--out", figures);
	if (r.status != 0)
		fail_msg("report of a validation: exit status %d, '%s'", r.status, r.err);
	g_autofree char *png = g_build_filename(figures, "validate.png", NULL);
	assert_true(g_file_test(png, G_FILE_TEST_EXISTS));
	run_clear(&r);

	/* Bad input is a one-line refusal with exit status 2. */
	r = RUN("validate", "--best", best, "--against", "mars");
	expect_refusal(&r, "--against mars", "--against");
	run_clear(&r);
	r = RUN("validate", "--best", best, "--against", "live", "--cmd", "true", "--vm-cpus", "2");
	expect_refusal(&r, "--vm-cpus with --against live", "--vm-cpus: only with --against vm");
	run_clear(&r);
	r = RUN("validate", "--best", best, "--rounds", "-1");
	expect_refusal(&r, "--rounds -1", "--rounds");
	run_clear(&r);
	assert_true(g_file_set_contents(best, "{\"best\": {\"knobs\": {\"latency_ns\": 5}}}", -1,
					NULL));
	r = RUN("validate", "--best", best);
	expect_refusal(&r, "a knob outside the range", "latency_ns");
	run_clear(&r);
}

/* A guest that hangs: exit status 1 and one line that says so. */
static void test_validate_timeout(void **state)
{
	FakeVm *f = *state;
	g_autofree char *best = g_build_filename(f->dir, "result.json", NULL);

	assert_true(g_file_set_contents(
		best,
		"{\"best\": {\"knobs\": {\"latency_ns\": 12000000, \"min_granularity_ns\": "
		"1500000, \"wakeup_granularity_ns\": 0}}}",
		-1, NULL));
	g_setenv("FAKE_QEMU_MODE", "hang", TRUE);
	struct run r = RUN("validate", "--best", best, "--vm-timeout", "1", "--threads", "--groups",
			   "1", "--loops", "10");
	g_unsetenv("FAKE_QEMU_MODE");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "printed nothing for 1 s"));
	run_clear(&r);
}

/* Golden Section on wakeup_granularity against the fake guest, journaled: a rerun boots no more
 * and prints the same result. */
static void test_golden_vm_journal(void **state)
{
	FakeVm *f = *state;
	g_autofree char *journal = g_build_filename(f->dir, "journal", NULL);
	const char *const args[] = {
		"golden",   "--objective", "vm",	"--knob",   "wakeup_granularity",
		"--rounds", "2",	   "--threads", "--groups", "1",
		"--loops",  "10",	   "--journal", journal,    "--no-sync",
		"--format", "json",	   NULL
	};
	struct run a = run_program(TUNER, args, NULL);

	expect_clean_exit(&a, "golden --objective vm");
	guint first = fake_vm_boots(f);
	assert_true(first >= 3); /* the defaults, the ends and the inner points at least */
	struct run b = run_program(TUNER, args, NULL);
	expect_clean_exit(&b, "golden --objective vm, resumed");
	assert_int_equal(fake_vm_boots(f), first);

	struct json *ja = json_parse(a.out), *jb = json_parse(b.out);
	/* The fake guest is fastest at wakeup_granularity 0: 0.1 / 0.1002 of the defaults' time. */
	assert_close(json_number_at(ja, "best.value"), json_number_at(jb, "best.value"), 0);
	assert_true(json_number_at(ja, "best.knobs.wakeup_granularity_ns") < 2000000);
	assert_string_equal(json_string_at(ja, "unit"), "x defaults");
	/* The defaults' value is 1 by construction: every round divides them by themselves. */
	assert_close(json_number_at(ja, "default.value"), 1.0, 0);
	json_free(ja);
	json_free(jb);
	run_clear(&a);
	run_clear(&b);

	struct run bad = RUN("pso", "--objective", "vm", "--replicates", "3");
	expect_refusal(&bad, "--replicates with vm", "--replicates");
	run_clear(&bad);
	bad = RUN("pso", "--rounds", "3");
	expect_refusal(&bad, "--rounds without vm", "--rounds");
	run_clear(&bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_validate, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_validate_timeout, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_golden_vm_journal, fake_setup, fake_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
