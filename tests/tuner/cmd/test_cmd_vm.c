/*
 * tests/tuner/cmd/test_cmd_vm.c - the commands that measure on the real-kernel VM, end to end
 * with a fake guest (tests/tuner/fixtures/vm/fake-qemu.sh, which times a run at 0.1 s +
 * wakeup_granularity / 1e10, and every run of round FAKE_QEMU_SLOW_ROUND at 0.2 s, and whose
 * probe writes a machine.ini that follows the round): `tuner validate`, `tuner golden --objective
 * vm` with its journal, `tuner rsm --objective vm`, `tuner calibrate --real vm --settings` and
 * `tuner vm probe`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "linsched/machine.h"
#include "tests/support/assert_close.h"
#include "tests/support/fake_vm.h"
#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define RUN(...) run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

/* The fake guest's time at wakeup_granularity w ns, as it prints it (6 decimals). */
static double fake_time(double w)
{
	return round(1e6 * (0.1 + w / 1e10)) / 1e6;
}

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
	/* The VM's flags: checked as parsed, once each, and refused without the VM even at their
	 * default values. */
	r = RUN("validate", "--best", best, "--against", "live", "--cmd", "true", "--vm-mem",
		"1024");
	expect_refusal(&r, "--vm-mem 1024 with --against live", "--vm-mem: only with --against vm");
	run_clear(&r);
	r = RUN("validate", "--best", best, "--vm-cpus", "nan");
	expect_refusal(&r, "--vm-cpus nan", "--vm-cpus: 'nan' is not a whole number");
	run_clear(&r);
	r = RUN("validate", "--best", best, "--vm-timeout", "10", "--vm-timeout", "20");
	expect_refusal(&r, "--vm-timeout twice", "--vm-timeout: given twice");
	run_clear(&r);
	assert_true(g_file_set_contents(best, "{\"best\": {\"knobs\": {\"latency_ns\": 5}}}", -1,
					NULL));
	r = RUN("validate", "--best", best);
	expect_refusal(&r, "a knob outside the range", "latency_ns");
	run_clear(&r);
}

/*
 * Issue 14: an eevdf search's result.json has base_slice_ns alone. validate --against live sets
 * that knob (debugfs) in the tuned rounds and the kernel's own value in the defaults' rounds, then
 * puts it back; the VM (6.1, CFS's three knobs) refuses such a file.
 */
static void test_validate_live_base_slice(void **state)
{
	FakeVm *f = *state;
	g_autofree char *best = g_build_filename(f->dir, "eevdf.json", NULL);
	g_autofree char *root = g_build_filename(f->dir, "eevdf-root", NULL);
	g_autofree char *dir = g_build_filename(root, "sys", "kernel", "debug", "sched", NULL);
	g_autofree char *slice = g_build_filename(dir, "base_slice_ns", NULL);
	g_autofree char *script = g_build_filename(root, "bench.sh", NULL);
	g_autofree char *log_path = g_build_filename(root, "log", NULL);
	g_autofree char *body =
		g_strdup_printf("#!/bin/sh\ncat '%s' >> '%s'\necho 'Time: 0.1'\n", slice, log_path);
	g_autofree char *state_home = g_build_filename(f->dir, "state", NULL);

	g_setenv("XDG_STATE_HOME", state_home, TRUE);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(slice, "3000000\n", -1, NULL));
	assert_true(g_file_set_contents(script, body, -1, NULL));
	assert_int_equal(g_chmod(script, 0755), 0);
	assert_true(g_file_set_contents(
		best, "{\"best\": {\"knobs\": {\"base_slice_ns\": 750000}}}", -1, NULL));

	struct run r =
		RUN("validate", "--best", best, "--against", "live", "--cmd", script, "--knob-root",
		    root, "--rounds", "2", "--profile", "eevdf", "--format", "json");
	expect_clean_exit(&r, "validate --against live, base_slice");
	struct json *j = json_parse(r.out);
	assert_true(json_number_at(j, "tuned.knobs.base_slice_ns") == 750000);
	assert_true(json_number_at(j, "defaults.knobs.base_slice_ns") == 3000000);
	assert_null(json_at(j, "tuned.knobs.latency_ns"));
	json_free(j);
	run_clear(&r);

	g_autofree char *now = read_text(slice);
	assert_string_equal(now, "3000000\n");
	g_autofree char *seen = read_text(log_path);
	g_auto(GStrv) lines = g_strsplit(seen, "\n", -1);
	guint tuned = 0, defaults = 0;
	for (guint i = 0; lines[i] && lines[i][0]; i++) {
		tuned += strcmp(lines[i], "750000") == 0;
		defaults += strcmp(lines[i], "3000000") == 0;
	}
	assert_int_equal(tuned, 2);
	assert_int_equal(defaults, 2);

	r = RUN("validate", "--best", best, "--profile", "eevdf");
	expect_refusal(&r, "validate an eevdf result on the VM", "--best");
	run_clear(&r);
}

/* A result.json whose best knobs are the 6.1 defaults on 2 CPUs but wakeup_granularity 0. */
static char *tuned_best(const FakeVm *f)
{
	char *best = g_build_filename(f->dir, "result.json", NULL);

	assert_true(g_file_set_contents(
		best,
		"{\"best\": {\"knobs\": {\"latency_ns\": 12000000, \"min_granularity_ns\": "
		"1500000, \"wakeup_granularity_ns\": 0}}}",
		-1, NULL));
	return best;
}

/* The guest's CPUs are the simulation's --cpus unless --vm-cpus says otherwise, as in every
 * command that boots: the reference is the 6.1 kernel's defaults for them (latency 6 ms x (1 +
 * ilog2 CPUs): 18 ms on 4, 12 ms on 2). */
static void test_validate_guest_cpus(void **state)
{
	FakeVm *f = *state;
	g_autofree char *best = tuned_best(f);

	for (int i = 0; i < 2; i++) {
		struct run r =
			i ? RUN("validate", "--best", best, "--rounds", "2", "--cpus", "4",
				"--vm-cpus", "2", "--threads", "--groups", "1", "--loops", "10",
				"--format", "json")
			  : RUN("validate", "--best", best, "--rounds", "2", "--cpus", "4",
				"--threads", "--groups", "1", "--loops", "10", "--format", "json");

		expect_clean_exit(&r, i ? "validate --cpus 4 --vm-cpus 2" : "validate --cpus 4");
		struct json *j = json_parse(r.out);

		assert_close(json_number_at(j, "defaults.knobs.latency_ns"), i ? 12e6 : 18e6, 0);
		json_free(j);
		run_clear(&r);
	}
	assert_int_equal(fake_vm_boots(f), 2);
}

/* A guest that hangs: exit status 1 and one line that says so. */
static void test_validate_timeout(void **state)
{
	FakeVm *f = *state;
	g_autofree char *best = tuned_best(f);

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
	/* The real kernel's values do not depend on the simulator's code: no model id. */
	g_autofree char *settings = journal_settings(journal);

	assert_non_null(strstr(settings, " objective=vm "));
	assert_null(strstr(settings, "sim_model="));
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

/* The flags of an RSM on the fake VM: log ranges around the defaults, 2 rounds. */
#define RSM_VM_DESIGN                                                                             \
	"--threads", "--groups", "1", "--loops", "10", "--log", "--range", "latency=3e6:48e6",    \
		"--range", "min_granularity=375000:6e6", "--range", "wakeup_granularity=5e5:8e6", \
		"--format", "json"
#define RSM_VM_FLAGS "rsm", "--objective", "vm", "--rounds", "2", RSM_VM_DESIGN

/*
 * The whole design is one boot of 2 rounds, the confirmation a second. Round 1 is slow (every run
 * 0.2 s), so there every ratio is 1; in round 0 a run at wakeup_granularity w takes 0.1 + w / 1e10
 * s against the defaults' 0.1002 s. design.csv holds the design twice, each row's response that
 * ratio by hand. The confirmation's geometric-mean ratio is sqrt(ratio in round 0 x 1). A rerun
 * with the journal boots nothing; --analyse of design.csv (rounds and all) fits the same model.
 */
static void test_rsm_vm(void **state)
{
	FakeVm *f = *state;
	g_autofree char *journal = g_build_filename(f->dir, "journal", NULL);
	g_autofree char *out = g_build_filename(f->dir, "rsm", NULL);
	const char *const args[] = { RSM_VM_FLAGS, "--journal", journal, "--no-sync",
				     "--out",	   out,		NULL };

	g_setenv("FAKE_QEMU_SLOW_ROUND", "1", TRUE);
	struct run a = run_program(TUNER, args, NULL);
	expect_clean_exit(&a, "rsm --objective vm");
	assert_int_equal(fake_vm_boots(f), 2);
	g_autofree char *settings = journal_settings(journal);

	assert_non_null(strstr(settings, " objective=vm "));
	assert_null(strstr(settings, "sim_model="));

	struct json *j = json_parse(a.out);
	assert_string_equal(json_string_at(j, "unit"), "x defaults");
	assert_string_equal(json_string_at(j, "source"), "vm");
	assert_close(json_number_at(j, "vm.rounds"), 2, 0);
	assert_close(json_number_at(j, "design.runs"), 40, 0);
	assert_close(json_number_at(j, "default.value"), 1, 0);

	double w = json_number_at(j, "best.knobs.wakeup_granularity_ns");
	double r0 = fake_time(w) / 0.1002;
	assert_close(json_number_at(j, "confirmation.ratio"), sqrt(r0), 1e-9);
	assert_close(json_number_at(j, "best.value"), (r0 + 1) / 2, 1e-9);
	assert_close(json_number_at(j, "confirmation.rounds"), 2, 0);

	g_autofree char *csv_path = g_build_filename(out, "design.csv", NULL);
	g_autofree char *csv = NULL;
	assert_true(g_file_get_contents(csv_path, &csv, NULL, NULL));
	g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
	assert_string_equal(rows[0], "run,x1,x2,x3,latency_ns,min_granularity_ns,"
				     "wakeup_granularity_ns,response,response_t,round");
	guint in_round[2] = { 0, 0 };
	for (guint i = 1; rows[i] && *rows[i]; i++) {
		g_auto(GStrv) cell = g_strsplit(rows[i], ",", -1);
		guint round = (guint)atoi(cell[9]);
		double wake = g_ascii_strtod(cell[6], NULL), y = g_ascii_strtod(cell[7], NULL);

		assert_true(round < 2);
		in_round[round]++;
		assert_close(y, round == 1 ? 1 : fake_time(wake) / 0.1002, 1e-12);
	}
	assert_int_equal(in_round[0], 20);
	assert_int_equal(in_round[1], 20);

	/*
	 * The rounds as blocks, on the log ratios z: round 1's are all 0, round 0's have mean m.
	 * Then ss_rounds = 20 * 2 * (m/2)² = 10 m², each residual is ±(z - m)/2, so ss_error =
	 * Σ (z - m)² / 2 on 19 df, and F = 10 m² / (ss_error / 19); round 0's factor is exp(m/2).
	 */
	double z[20], m = 0, ss = 0;
	guint k = 0;
	for (guint i = 1; rows[i] && *rows[i]; i++) {
		g_auto(GStrv) cell = g_strsplit(rows[i], ",", -1);

		if (atoi(cell[9]) == 0)
			m += (z[k++] = log(g_ascii_strtod(cell[7], NULL))) / 20;
	}
	for (k = 0; k < 20; k++)
		ss += (z[k] - m) * (z[k] - m) / 2;
	assert_close(json_number_at(j, "rounds.f"), 10 * m * m / (ss / 19), 1e-9);
	assert_close(json_number_at(j, "rounds.df_error"), 19, 0);

	struct run b = run_program(TUNER, args, NULL);
	expect_clean_exit(&b, "rsm --objective vm, resumed");
	assert_int_equal(fake_vm_boots(f), 2);
	struct json *jb = json_parse(b.out);
	assert_close(json_number_at(jb, "r2"), json_number_at(j, "r2"), 0);
	assert_close(json_number_at(jb, "simulations_from_journal"), 42, 0);
	json_free(jb);

	const char *const again[] = { "rsm",	   "--log",
				      "--range",   "latency=3e6:48e6",
				      "--range",   "min_granularity=375000:6e6",
				      "--range",   "wakeup_granularity=5e5:8e6",
				      "--analyse", csv_path,
				      "--format",  "json",
				      NULL };
	struct run c = run_program(TUNER, again, NULL);
	expect_clean_exit(&c, "rsm --analyse of a design in rounds");
	struct json *jc = json_parse(c.out);
	assert_close(json_number_at(jc, "r2"), json_number_at(j, "r2"), 1e-12);
	json_free(jc);
	json_free(j);
	run_clear(&a);
	run_clear(&b);
	run_clear(&c);
	g_unsetenv("FAKE_QEMU_SLOW_ROUND");
}

/* Bad flags are refused (2) before any boot; a guest that hangs fails the run (1) with one line
 * naming the console log, and leaves no result files behind. */
static void test_rsm_vm_refusals_and_failure(void **state)
{
	FakeVm *f = *state;
	g_autofree char *out = g_build_filename(f->dir, "rsm", NULL);
	static const struct {
		const char *flag, *value, *needle;
	} bad[] = {
		{ "--replicates", "3", "--replicates" },
		{ "--jobs", "2", "--jobs" },
		{ "--confirm-rounds", "1", "--confirm-rounds: must be in 2..1000, got 1" },
		{ "--confirm-rounds", "-1", "--confirm-rounds: must be in 2..1000, got -1" },
		{ "--rounds", "0", "--rounds: must be in 1..1000, got 0" },
		{ "--rounds", "-1", "--rounds: must be in 1..1000, got -1" },
		{ "--rounds", "nan", "--rounds: 'nan' is not a whole number" },
		{ "--vm-mem", "12", "--vm-mem: must be in 128..65536, got 12" },
		{ "--vm-cpus", "-1", "--vm-cpus: must be in 1..64, got -1" },
		{ "--vm-timeout", "1e3", "--vm-timeout: '1e3' is not a whole number" },
		{ "--vm-timeout", "", "--vm-timeout" },
	};

	/* The design's flags without --rounds, which a flag that holds one value gives once. */
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		const char *const args[] = { "rsm",	  "--objective", "vm", RSM_VM_DESIGN,
					     bad[i].flag, bad[i].value,	 NULL };
		struct run r = run_program(TUNER, args, NULL);

		expect_refusal(&r, bad[i].flag, bad[i].needle);
		run_clear(&r);
	}
	const char *const twice[] = { RSM_VM_FLAGS, "--rounds", "3", NULL };
	struct run r = run_program(TUNER, twice, NULL);

	expect_refusal(&r, "--rounds twice", "--rounds: given twice");
	run_clear(&r);
	r = RUN("rsm", "--rounds", "3", "--groups", "1", "--loops", "10");
	expect_refusal(&r, "--rounds without vm", "--rounds");
	run_clear(&r);
	/* Without the VM its flags are refused even at their default values. */
	r = RUN("rsm", "--objective", "sim", "--vm-timeout", "300", "--groups", "1");
	expect_refusal(&r, "--vm-timeout 300 without vm", "--vm-timeout: only with --objective vm");
	run_clear(&r);
	r = RUN("rsm", "--confirm-rounds", "5", "--groups", "1");
	expect_refusal(&r, "--confirm-rounds without vm",
		       "--confirm-rounds: only with --objective vm");
	run_clear(&r);
	r = RUN("rsm", "--analyse", "design.csv", "--vm-mem", "1024");
	expect_refusal(&r, "--vm-mem with --analyse", "--vm-mem does not apply");
	run_clear(&r);
	r = RUN("rsm", "--objective", "mars");
	expect_refusal(&r, "--objective mars", "--objective");
	run_clear(&r);
	assert_int_equal(fake_vm_boots(f), 0);

	g_setenv("FAKE_QEMU_MODE", "hang", TRUE);
	const char *const args[] = { RSM_VM_FLAGS, "--vm-timeout", "1", "--out", out, NULL };
	r = run_program(TUNER, args, NULL);
	g_unsetenv("FAKE_QEMU_MODE");
	assert_int_equal(r.status, 1);
	assert_int_equal(strlen(r.out), 0);
	assert_non_null(strstr(r.err, "printed nothing for 1 s"));
	assert_non_null(strstr(r.err, "boot-001/console.log"));
	assert_int_equal(strchr(r.err, '\n') - r.err + 1, strlen(r.err));
	g_autofree char *design = g_build_filename(out, "design.csv", NULL);
	g_autofree char *console = g_build_filename(out, "vm", "boot-001", "console.log", NULL);
	assert_false(g_file_test(design, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(console, G_FILE_TEST_EXISTS));
	run_clear(&r);
}

#define CALIBRATE_VM_BASE                                                               \
	"calibrate", "--real", "vm", "--groups", "1,2,3", "--loops", "10", "--threads", \
		"--repeat", "2", "--profile", "6.1", "--hz", "250"
#define CALIBRATE_VM_FLAGS \
	CALIBRATE_VM_BASE, "--settings", "defaults,wakeup_granularity=0,latency=24e6"

/* The fake guest's time in round r (round 1 twice as slow) at g groups and wakeup w ns. */
static double fake_round_time(guint r, guint g, double w)
{
	return round(1e6 * (r == 1 ? 2.0 : 1.0) * g * (0.1 + w / 1e10)) / 1e6;
}

static double ini_double(GKeyFile *kf, const char *group, const char *key)
{
	g_autofree char *text = g_key_file_get_string(kf, group, key, NULL);

	assert_non_null(text);
	return g_ascii_strtod(text, NULL);
}

/*
 * Three settings at 1, 2 and 3 groups, 2 rounds, one boot; round 1 runs everything twice as slow.
 * Each point's mean and its ratio to the defaults follow from the fake's formula; the line, the
 * null models and the share of the settings' differences are recomputed by hand from the points;
 * the slow round, a factor on every run, leaves no pure error once the rounds are taken out as
 * proportional blocks (an additive block would leave the part it added to the long runs).
 */
static void test_calibrate_vm(void **state)
{
	FakeVm *f = *state;
	g_autofree char *out = g_build_filename(f->dir, "cal", NULL);
	const char *const args[] = { CALIBRATE_VM_FLAGS, "--out", out, NULL };
	static const char *const ids[3] = { "defaults", "wakeup0", "latency24" };
	static const double wake[3] = { 2e6, 0, 2e6 };

	g_setenv("FAKE_QEMU_SLOW_ROUND", "1", TRUE);
	g_setenv("FAKE_QEMU_SLOW_FACTOR", "2", TRUE);
	struct run r = run_program(TUNER, args, NULL);
	expect_clean_exit(&r, "calibrate --real vm");
	assert_int_equal(fake_vm_boots(f), 1);
	assert_non_null(strstr(r.out, "3 knob settings x 3 group counts x 2 rounds in one boot"));

	g_autofree char *csv_path = g_build_filename(out, "calibration.csv", NULL);
	g_autofree char *csv = NULL;
	assert_true(g_file_get_contents(csv_path, &csv, NULL, NULL));
	g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
	assert_true(g_str_has_suffix(rows[0], ",setting,real_x_defaults,real_x_defaults_lo,"
					      "real_x_defaults_hi,sim_x_defaults,"
					      "real_switches_x_defaults,sim_switches_x_defaults"));
	double x[9], y[9], sim_def[3] = { 0 };
	for (guint i = 0; i < 9; i++) {
		g_auto(GStrv) c = g_strsplit(rows[1 + i], ",", -1);
		guint s = i / 3, g = i % 3 + 1;
		double def0 = fake_round_time(0, g, 2e6), def1 = fake_round_time(1, g, 2e6);
		double t0 = fake_round_time(0, g, wake[s]), t1 = fake_round_time(1, g, wake[s]);

		assert_string_equal(c[9], ids[s]);
		assert_int_equal(atoi(c[0]), g);
		x[i] = g_ascii_strtod(c[1], NULL);
		y[i] = g_ascii_strtod(c[2], NULL);
		if (s == 0)
			sim_def[g - 1] = x[i];
		assert_close(y[i], 1e3 * (t0 + t1) / 2, 1e-9);
		assert_close(g_ascii_strtod(c[10], NULL), sqrt(t0 / def0 * t1 / def1), 1e-9);
		assert_close(g_ascii_strtod(c[13], NULL), x[i] / sim_def[g - 1], 1e-9);
	}
	assert_true(rows[10] == NULL || *rows[10] == '\0');

	/* The line through the 9 points, by the normal equations. */
	double mx = 0, my = 0, sxx = 0, sxy = 0, sst = 0, between = 0;
	for (guint i = 0; i < 9; i++) {
		mx += x[i] / 9;
		my += y[i] / 9;
	}
	for (guint i = 0; i < 9; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		sst += (y[i] - my) * (y[i] - my);
	}
	for (guint g = 0; g < 3; g++) {
		double mean = (y[g] + y[3 + g] + y[6 + g]) / 3;
		between += 3 * (mean - my) * (mean - my);
	}

	g_autofree char *ini = g_build_filename(out, "calibration.ini", NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, ini, G_KEY_FILE_NONE, NULL));
	assert_close(ini_double(kf, "fit", "b"), sxy / sxx, 1e-9);
	assert_close(ini_double(kf, "fit", "a"), my - sxy / sxx * mx, 1e-9);
	assert_close(ini_double(kf, "fit", "r2_group_means"), between / sst, 1e-9);
	assert_true(ini_double(kf, "fit", "pe_sd") < 0.01);
	assert_close(ini_double(kf, "fit", "pe_df"), 9 * (2 - 1) - (2 - 1), 0);
	g_autofree char *blocks = g_key_file_get_string(kf, "calibration", "blocks", NULL);
	g_autofree char *source = g_key_file_get_string(kf, "calibration", "source", NULL);
	assert_string_equal(blocks, "proportional");
	assert_string_equal(source, "vm");

	g_autofree char *settings_path = g_build_filename(out, "settings.csv", NULL);
	g_autofree char *settings = NULL;
	assert_true(g_file_get_contents(settings_path, &settings, NULL, NULL));
	assert_string_equal(settings,
			    "setting,latency_ns,min_granularity_ns,wakeup_granularity_ns\n"
			    "defaults,12000000,1500000,2000000\n"
			    "wakeup0,12000000,1500000,0\n"
			    "latency24,24000000,1500000,2000000\n");
	g_autofree char *runs_path = g_build_filename(out, "calibration_runs.csv", NULL);
	g_autofree char *runs = NULL;
	assert_true(g_file_get_contents(runs_path, &runs, NULL, NULL));
	g_auto(GStrv) run_rows = g_strsplit(runs, "\n", -1);
	assert_string_equal(run_rows[0], "seq,round,groups,ms,start_s,switches,setting");
	assert_int_equal(g_strv_length(run_rows), 1 + 18 + 1);
	run_clear(&r);

	/* tuner report draws a calibration over settings. */
	g_autofree char *figures = g_build_filename(f->dir, "figures", NULL);
	r = RUN("report", out, "--out", figures);
	if (r.status != 0)
		fail_msg("report of a VM calibration: exit status %d, '%s'", r.status, r.err);
	run_clear(&r);
	g_unsetenv("FAKE_QEMU_SLOW_ROUND");
	g_unsetenv("FAKE_QEMU_SLOW_FACTOR");
}

/* Bad flags: exit 2 before any boot. A run that fails in the guest, or a guest that hangs: exit 1,
 * one line, and no calibration written (the boot's console is kept under DIR/vm/). */
static void test_calibrate_vm_refusals_and_failures(void **state)
{
	FakeVm *f = *state;
	g_autofree char *out = g_build_filename(f->dir, "cal", NULL);
	static const struct {
		const char *flag, *value, *needle;
	} bad[] = {
		{ "--model", "bootstrap", "--model bootstrap" },
		{ "--vm-cpus", "4", "--vm-cpus 4" },
		{ "--order", "blocks", "--order blocks" },
		{ "--warmup", "5", "--warmup" },
		{ "--settings", "latency=5", "sysctl range" },
		{ "--real-cmd", "hackbench -T", "{groups}" },
		{ "--vm-timeout", "0", "--vm-timeout" },
		{ "--vm-mem", "nan", "--vm-mem" },
		{ "--vm-cpus", "-1", "--vm-cpus" },
		{ "--warmup", "nan", "--warmup" },
	};

	/* The base flags without --settings, which a flag that holds one value gives once. */
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		const char *const args[] = { CALIBRATE_VM_BASE, "--out",      out,
					     bad[i].flag,	bad[i].value, NULL };
		struct run r = run_program(TUNER, args, NULL);

		expect_refusal(&r, bad[i].flag, bad[i].needle);
		run_clear(&r);
	}
	const char *const twice[] = { CALIBRATE_VM_FLAGS, "--out",    out,
				      "--settings",	  "defaults", NULL };
	struct run r = run_program(TUNER, twice, NULL);

	expect_refusal(&r, "--settings twice", "--settings: given twice");
	run_clear(&r);
	r = RUN("calibrate", "--settings", "defaults", "--out", out);
	expect_refusal(&r, "--settings without the VM", "--settings: only with --real vm");
	run_clear(&r);
	/* The VM's flags are refused without it, even at their default values. */
	r = RUN("calibrate", "--vm-mem", "1024", "--out", out);
	expect_refusal(&r, "--vm-mem without the VM", "--vm-mem: only with --real vm");
	run_clear(&r);
	r = RUN("calibrate", "--rounds", "5", "--out", out);
	expect_refusal(&r, "--rounds (calibrate's are --repeat)", "--rounds");
	run_clear(&r);
	r = RUN("calibrate", "--real", "mars", "--out", out);
	expect_refusal(&r, "--real mars", "--real");
	run_clear(&r);
	assert_int_equal(fake_vm_boots(f), 0);

	g_autofree char *ini = g_build_filename(out, "calibration.ini", NULL);
	g_autofree char *console = g_build_filename(out, "vm", "boot-001", "console.log", NULL);
	const char *const args[] = { CALIBRATE_VM_FLAGS, "--out", out, "--vm-timeout", "2", NULL };

	g_setenv("FAKE_QEMU_FAIL_SEQ", "3", TRUE);
	r = run_program(TUNER, args, NULL);
	g_unsetenv("FAKE_QEMU_FAIL_SEQ");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "the VM gave no time for setting"));
	assert_int_equal(strchr(r.err, '\n') - r.err + 1, strlen(r.err));
	assert_false(g_file_test(ini, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(console, G_FILE_TEST_EXISTS));
	run_clear(&r);

	g_setenv("FAKE_QEMU_MODE", "hang", TRUE);
	r = run_program(TUNER, args, NULL);
	g_unsetenv("FAKE_QEMU_MODE");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "printed nothing for 2 s"));
	assert_non_null(strstr(r.err, "boot-002/console.log"));
	assert_false(g_file_test(ini, G_FILE_TEST_EXISTS));
	run_clear(&r);
}

/*
 * tuner vm probe against the fake guest, whose probe in round r writes socket_write_ns 3000 +
 * 100 r, socket_read_ns 2800 + 10 r^2, wakeup_ns 9000 - 1000 r. Warm-up round 0 left out, probes
 * in rounds 1..3: writes 3100 3200 3300 (median 3200), reads 2810 2840 2890 (2840), wakeups
 * 8000 7000 6000 (7000). With round 2's probe failing: reads (2810 + 2890) / 2 = 2850. Their
 * rings (0 up to 8 threads, 6000 ns more from 16) draw a fully associative cache of
 * sqrt(8 * 15) = 10.95 working sets of 64 lines (701) at 93 750 ps a line
 * (tests/linsched/cli/test_probe_ring.c), in place of the probes' own cache (cache_lines=5).
 */
static void test_vm_probe(void **state)
{
	FakeVm *f = *state;
	g_autofree char *out = g_build_filename(f->dir, "machine.ini", NULL);
	struct run r = RUN("vm", "probe", "--out", out);

	/* Without the probe in the initramfs: run make vm. */
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "run 'make vm'"));
	assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
	run_clear(&r);

	fake_vm_add_probe(f);
	r = RUN("vm", "probe", "--out", out, "--probes", "3", "--format", "json");
	expect_clean_exit(&r, "tuner vm probe");
	assert_int_equal(fake_vm_boots(f), 1);

	struct json *j = json_parse(r.out);

	assert_int_equal(member_uint(j, "probes"), 3);
	assert_int_equal(member_uint(j, "warmup"), 1);
	const struct json *cache = member(j, "task_cache", J_OBJECT);

	assert_non_null(cache);
	assert_int_equal(member_uint(cache, "ways"), 0);
	assert_int_equal(member_uint(cache, "miss_ps"), 93750);
	json_free(j);
	run_clear(&r);

	struct linsched_machine m;
	GError *error = NULL;

	if (!linsched_machine_load(out, &m, &error))
		fail_msg("%s", error->message);
	assert_int_equal(m.socket_write_ns, 3200);
	assert_int_equal(m.socket_read_ns, 2840);
	assert_int_equal(m.wakeup_ns, 7000);
	assert_int_equal(m.thread_switch_ns, 1900);
	assert_int_equal(m.hz, 250);
	assert_int_equal(m.miss_ps, 93750);
	assert_int_equal(m.cache_ways, 0);
	assert_in_range(m.cache_lines, 699, 703);
	g_autofree char *text = read_text(out);

	assert_true(g_str_has_prefix(text, "# machine.ini - the qemu guest of vm/"));
	assert_non_null(strstr(text, "\nsocket_write_ns_min=3100\nsocket_write_ns_max=3300\n"
				     "socket_write_ns_q1=3100\nsocket_write_ns_q3=3300\n"));

	/* A failed probe is left out; the text report shows the spread. */
	g_setenv("FAKE_QEMU_PROBE_FAIL_ROUND", "2", TRUE);
	r = RUN("vm", "probe", "--out", out, "--probes", "3", "--warmup", "1");
	expect_clean_exit(&r, "tuner vm probe, one probe failing");
	assert_non_null(strstr(r.out, "2 probes (of 3)"));
	assert_true(g_regex_match_simple("socket_write_ns +3200 +3100 +3300 +6% +3100 3300", r.out,
					 0, 0));
	run_clear(&r);
	assert_true(linsched_machine_load(out, &m, NULL));
	assert_int_equal(m.socket_read_ns, 2850);

	/* Nothing but the file is left in its directory (the temporary file was renamed). */
	g_autoptr(GDir) dir = g_dir_open(f->dir, 0, NULL);
	const char *name;

	while ((name = g_dir_read_name(dir)))
		assert_null(strstr(name, ".tmp."));

	/* Every probe failing: exit 1, the old file untouched. */
	g_setenv("FAKE_QEMU_PROBE_FAIL_ROUND", "1", TRUE);
	r = RUN("vm", "probe", "--out", out, "--probes", "1");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "none of the 1 probes wrote a machine.ini"));
	run_clear(&r);
	assert_true(linsched_machine_load(out, &m, NULL));
	assert_int_equal(m.socket_read_ns, 2850);

	r = RUN("vm", "probe");
	expect_refusal(&r, "tuner vm probe without --out", "--out");
	run_clear(&r);
	r = RUN("vm", "probe", "--out", out, "--probes", "0");
	expect_refusal(&r, "tuner vm probe --probes 0", "--probes");
	run_clear(&r);

	/* Every number checked as parsed, each flag given once; no boot. */
	guint boots = fake_vm_boots(f);
	static const struct {
		const char *flag, *value, *needle;
	} bad[] = {
		{ "--probes", "-1", "--probes: must be in 1..100, got -1" },
		{ "--warmup", "-1", "--warmup: must be in 0..100, got -1" },
		{ "--warmup", "nan", "--warmup: 'nan' is not a whole number" },
		{ "--trials", "2", "--trials: must be in 3..1000, got 2" },
		{ "--trials", "1e3", "--trials: '1e3' is not a whole number" },
		{ "--vm-cpus", "1", "--vm-cpus: must be in 2..64, got 1" },
		{ "--vm-cpus", "-1", "--vm-cpus: must be in 2..64, got -1" },
		{ "--vm-mem", "nan", "--vm-mem: 'nan' is not a whole number" },
		{ "--vm-timeout", "0", "--vm-timeout: must be in 1..86400, got 0" },
		{ "--log", "", "--log: an empty file name" },
		{ "--out", "again.ini", "--out: given twice" },
		{ "--rounds", "3", "--rounds" }, /* the probe's rounds are --probes */
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		r = RUN("vm", "probe", "--out", out, bad[i].flag, bad[i].value);
		expect_refusal(&r, bad[i].flag, bad[i].needle);
		run_clear(&r);
	}
	r = RUN("vm", "probe", "--out", "");
	expect_refusal(&r, "--out ''", "--out: an empty file name");
	run_clear(&r);
	r = RUN("vm", "probe", "--out", out, "--probes", "2", "--probes", "3");
	expect_refusal(&r, "--probes twice", "--probes: given twice");
	run_clear(&r);
	assert_int_equal(fake_vm_boots(f), boots);
	r = RUN("vm", "sing");
	assert_int_equal(r.status, 2);
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_validate_guest_cpus, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_validate, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_validate_live_base_slice, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_validate_timeout, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_golden_vm_journal, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_rsm_vm, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_rsm_vm_refusals_and_failure, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_calibrate_vm, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_calibrate_vm_refusals_and_failures, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_vm_probe, fake_setup, fake_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
