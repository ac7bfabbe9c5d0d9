/*
 * tests/tuner/vm/test_vm.c - the real-kernel VM backend: plans and their shuffles, the guest
 * protocol parser on fixtures (good, garbage, truncated), the paired statistics of `tuner
 * validate` by hand, the VM objective with a fake guest (values, journal, timeout, panic), and one
 * boot of the real kernel when `make vm` has prepared it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tests/support/assert_close.h"
#include "tests/support/fake_vm.h"
#include "tests/support/support.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/vm_objective.h"
#include "tuner/stats/paired.h"
#include "tuner/vm/vm_boot.h"
#include "tuner/vm/vm_guest.h"
#include "tuner/vm/vm_plan.h"
#include "tuner/vm/vm_steal.h"

#define FIXTURES "tests/tuner/fixtures/vm"

static const Knobs defaults = KNOBS_CFS(12000000, 1500000, 2000000);

/* ---- plans ---------------------------------------------------------------------------------- */

static VmPlan *three_settings(guint rounds, guint64 seed)
{
	VmSetting s[3] = { { (char *)"defaults", defaults },
			   { (char *)"wake0", KNOBS_CFS(12000000, 1500000, 0) },
			   { (char *)"lat96", KNOBS_CFS(96000000, 1500000, 2000000) } };
	GError *error = NULL;
	VmPlan *plan = vm_plan_new(s, 3, "hackbench -T -g 5 -l 100", rounds, seed, &error);

	assert_non_null(plan);
	return plan;
}

/* Every round runs every setting once; the order is the seed's, and differs between seeds. */
static void test_plan_rounds_and_shuffle(void **state)
{
	(void)state;
	g_autoptr(VmPlan) a = three_settings(8, 7), b = three_settings(8, 7),
			  c = three_settings(8, 8);

	assert_int_equal(a->runs->len, 24);
	for (guint r = 0; r < 8; r++) {
		guint seen = 0;
		for (guint i = 0; i < 3; i++) {
			const VmRun *run = &g_array_index(a->runs, VmRun, r * 3 + i);
			assert_int_equal(run->seq, r * 3 + i);
			assert_int_equal(run->round, r);
			seen |= 1u << run->setting;
		}
		assert_int_equal(seen, 7);
	}
	assert_memory_equal(a->runs->data, b->runs->data, 24 * sizeof(VmRun));
	/* 8 rounds of 3! = 6 orders each: two seeds agree on all 8 with probability 6^-8. */
	assert_true(memcmp(a->runs->data, c->runs->data, 24 * sizeof(VmRun)) != 0);
	/* Not always the given order: the first setting is not first in every round. */
	guint first_is_0 = 0;
	for (guint r = 0; r < 8; r++)
		first_is_0 += g_array_index(a->runs, VmRun, r * 3).setting == 0;
	assert_true(first_is_0 < 8);
}

static void test_plan_text_and_cpio(void **state)
{
	(void)state;
	VmSetting s = { (char *)"defaults", defaults };
	g_autoptr(VmPlan) plan = vm_plan_new(&s, 1, "hackbench -T -g 1 -l 10", 1, 1, NULL);
	vm_plan_trace(plan, 0, 0);
	g_autofree char *text = vm_plan_text(plan);

	assert_string_equal(text,
			    "LST-PLAN 1\n"
			    "# seq round setting latency_ns min_granularity_ns "
			    "wakeup_granularity_ns migration_cost_ns trace command\n"
			    "0 0 defaults 12000000 1500000 2000000 - 1 hackbench -T -g 1 -l 10\n");

	/* newc: 110-byte header, "plan\0" padded to 4 (110 + 5 -> 116), the data padded to 4, and
	 * the trailer. */
	g_autoptr(GBytes) cpio = vm_plan_cpio(plan);
	gsize size;
	const char *data = g_bytes_get_data(cpio, &size);
	char field[9] = { 0 };

	assert_memory_equal(data, "070701", 6);
	memcpy(field, data + 6 + 6 * 8, 8); /* filesize, the 7th field */
	assert_int_equal(strtoul(field, NULL, 16), strlen(text));
	memcpy(field, data + 6 + 11 * 8, 8); /* namesize */
	assert_int_equal(strtoul(field, NULL, 16), 5);
	assert_memory_equal(data + 110, "plan", 5);
	assert_memory_equal(data + 116, text, strlen(text));
	assert_int_equal(size % 4, 0);
	gsize trailer = (116 + strlen(text) + 3) / 4 * 4;
	assert_memory_equal(data + trailer, "070701", 6);
	assert_memory_equal(data + trailer + 110, "TRAILER!!!", 11);
}

/*
 * Settings x commands: every round runs each (setting, command) pair once, shuffled together; with
 * one command the grid is the plain plan, shuffle included; the text names each run's command.
 */
static void test_plan_grid(void **state)
{
	(void)state;
	VmSetting s[2] = { { (char *)"defaults", defaults },
			   { (char *)"wake0", KNOBS_CFS(12000000, 1500000, 0) } };
	const char *const cmds[3] = { "hackbench -g 1", "hackbench -g 5", "hackbench -g 10" };
	g_autoptr(VmPlan) g = vm_plan_new_grid(s, 2, cmds, 3, 6, 11, NULL);
	guint command_first = 0;

	assert_non_null(g);
	assert_int_equal(g->runs->len, 2 * 3 * 6);
	for (guint r = 0; r < 6; r++) {
		guint seen = 0;

		for (guint i = 0; i < 6; i++) {
			const VmRun *run = &g_array_index(g->runs, VmRun, r * 6 + i);

			assert_int_equal(run->round, r);
			assert_true(run->setting < 2 && run->command < 3);
			seen |= 1u << (run->setting * 3 + run->command);
		}
		assert_int_equal(seen, 63);
		command_first += g_array_index(g->runs, VmRun, r * 6).command == 0;
	}
	/* Commands are shuffled too: command 0 does not open every round. */
	assert_true(command_first < 6);

	g_autofree char *text = vm_plan_text(g);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; i < g->runs->len; i++) {
		const VmRun *run = &g_array_index(g->runs, VmRun, i);

		assert_true(g_str_has_suffix(lines[2 + i], cmds[run->command]));
		assert_string_equal(vm_plan_command(g, run), cmds[run->command]);
	}

	g_autoptr(VmPlan) one = vm_plan_new_grid(s, 2, cmds, 1, 6, 11, NULL);
	g_autoptr(VmPlan) plain = vm_plan_new(s, 2, cmds[0], 6, 11, NULL);
	assert_memory_equal(one->runs->data, plain->runs->data, 12 * sizeof(VmRun));

	g_autoptr(GError) error = NULL;
	assert_null(vm_plan_new_grid(s, 2, cmds, 0, 6, 11, &error));
	assert_non_null(strstr(error->message, "at least one command"));
}

static void test_plan_refuses(void **state)
{
	(void)state;
	VmSetting ok = { (char *)"defaults", defaults }, bad = { (char *)"a b", defaults };
	VmSetting twice[2] = { ok, ok };
	struct {
		const VmSetting *s;
		guint n, rounds;
		const char *cmd, *fragment;
	} cases[] = {
		{ &ok, 0, 1, "x", "at least one setting" },
		{ &ok, 1, 0, "x", "at least one round" },
		{ &ok, 1, 1, "", "one non-empty line" },
		{ &ok, 1, 1, "a\nb", "one non-empty line" },
		{ &bad, 1, 1, "x", "'a b'" },
		{ twice, 2, 1, "x", "appears twice" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		assert_null(vm_plan_new(cases[i].s, cases[i].n, cases[i].cmd, cases[i].rounds, 1,
					&error));
		if (!strstr(error->message, cases[i].fragment))
			fail_msg("case %zu: '%s' lacks '%s'", i, error->message, cases[i].fragment);
	}
}

/* ---- the guest's console -------------------------------------------------------------------- */

static VmGuest *parse_fixture(const char *name)
{
	g_autofree char *path = g_build_filename(FIXTURES, name, NULL);
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	VmGuest *guest = vm_guest_new();

	for (char **l = lines; *l; l++)
		if (**l)
			vm_guest_feed(guest, *l);
	return guest;
}

static void test_guest_good(void **state)
{
	(void)state;
	g_autoptr(VmGuest) g = parse_fixture("good.txt");

	assert_true(g->begun && g->ended);
	assert_string_equal(g->kernel, "6.1.0-56-amd64");
	assert_int_equal(g->nr_cpus, 2);
	assert_memory_equal(&g->boot_knobs, &defaults, sizeof defaults);
	assert_int_equal(g->runs->len, 2);
	assert_int_equal(g->garbled, 0);
	assert_int_equal(g->started, -1);

	const VmGuestRun *r0 = vm_guest_run(g, 0), *r1 = vm_guest_run(g, 1);
	assert_string_equal(r0->setting, "defaults");
	assert_true(r0->steal_ppm == -1 && r0->stall_ns == -1); /* no host noted any */
	assert_true(r0->knobs_ok && r0->rc == 0);
	assert_true(r0->time_s == 0.108 && r0->ctxt == 2312);
	assert_close(r0->wall_s, 0.151, 1e-12);
	assert_string_equal(r0->output,
			    "Running in threaded mode with 1 groups using 40 file descriptors each "
			    "(== 40 tasks)\nEach sender will pass 10 messages of 100 bytes\nTime: "
			    "0.108\n");
	assert_int_equal(r1->knobs.wakeup_granularity_ns, 1000000000);
	assert_true(r1->time_s == 0.202 && r1->ctxt == 462);

	/* The trace keeps the kernel's line as it was, leading blanks included. */
	const char *trace = vm_guest_trace(g, 1);
	assert_non_null(trace);
	assert_true(g_str_has_prefix(trace, "          <idle>-0       [000] d..2.     4.440388: "));
	g_auto(GStrv) trace_lines = g_strsplit(trace, "\n", -1);
	assert_int_equal(g_strv_length(trace_lines), 3); /* two lines and the empty end */
	assert_non_null(strstr(trace_lines[1], "prev_comm=hackbench prev_pid=140"));
	assert_null(vm_guest_trace(g, 0));
}

/* Lines the parser cannot use are counted, never taken for runs; a failed run is still a run. */
static void test_guest_garbage(void **state)
{
	(void)state;
	g_autoptr(VmGuest) g = parse_fixture("garbage.txt");

	assert_false(g->begun);
	assert_false(g->ended);
	/* begin (nr_cpus=two), start seq=x, run 0 (no min_granularity), run 1 (time abc), out x */
	assert_int_equal(g->garbled, 5);
	assert_int_equal(g->plan_errors, 1);
	assert_int_equal(g->runs->len, 1);

	const VmGuestRun *r = vm_guest_run(g, 4);
	assert_non_null(r);
	assert_false(r->knobs_ok);
	assert_int_equal(r->rc, 1);
	assert_true(isnan(r->time_s) && isnan(r->wall_s));
	assert_int_equal(r->ctxt, -1);
}

/* A console cut short: the runs before the cut are kept, the run in flight is known. */
static void test_guest_truncated(void **state)
{
	(void)state;
	g_autoptr(VmGuest) g = parse_fixture("truncated.txt");

	assert_true(g->begun);
	assert_false(g->ended);
	assert_int_equal(g->runs->len, 1);
	assert_non_null(vm_guest_run(g, 0));
	assert_null(vm_guest_run(g, 1));
	assert_int_equal(g->started, 1);
	assert_int_equal(g->garbled, 1); /* the half run line */
}

/* ---- paired statistics ---------------------------------------------------------------------- */

/*
 * x = 90, 80, 110, 70 against ref = 100: d = ln 0.9, ln 0.8, ln 1.1, ln 0.7; mean -0.1474672,
 * sd 0.1916669, se = sd / 2, t = -1.538786. With 3 df, P(T > a) = 1/2 - (atan(a/√3) + (a/√3) /
 * (1 + a²/3)) / π, so p = 0.2214774. t(0.975, 3) = 3.182446: ratio exp(mean) = 0.8628907 in
 * [exp(mean - 3.182446 se), exp(mean + 3.182446 se)] = [0.6360666, 1.1706014]. Sign test: 3 below,
 * 1 above: 2 P(X <= 1), X ~ B(4, 1/2) = 2 * 5/16 = 0.625.
 */
static void test_paired_by_hand(void **state)
{
	(void)state;
	const double x[] = { 90, 80, 110, 70 }, ref[] = { 100, 100, 100, 100 };
	PairedStats s;

	assert_true(paired_log_ratio(x, ref, 4, 0.95, &s));
	assert_int_equal(s.n, 4);
	assert_close(s.mean_log, -0.14746720777661088, 1e-12);
	assert_close(s.sd_log, 0.1916669153184856, 1e-12);
	assert_close(s.t, -1.5387862587715804, 1e-10);
	assert_close(s.p, 0.22147739282236933, 1e-9);
	assert_close(s.ratio, 0.8628907339631429, 1e-12);
	assert_close(s.ratio_lo, 0.6360665765395993, 1e-8);
	assert_close(s.ratio_hi, 1.1706013902038388, 1e-8);
	assert_int_equal(s.below, 3);
	assert_int_equal(s.above, 1);
	assert_close(s.sign_p, 0.625, 1e-12);
	assert_close(paired_improvement_pct(s.ratio), 13.71092660368571, 1e-9);

	const double bad[] = { 90, -1 };
	assert_false(paired_log_ratio(bad, ref, 2, 0.95, &s));
	assert_false(paired_log_ratio(x, ref, 0, 0.95, &s));
	assert_true(paired_log_ratio(x, ref, 1, 0.95, &s));
	assert_true(isnan(s.ratio_lo) && isnan(s.p));
}

/* ---- the objective, with a fake guest ------------------------------------------------------- */

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

static VmObjective fake_objective(const FakeVm *f, guint rounds)
{
	return (VmObjective){
		.boot = { .cache_dir = f->dir, .qemu = FAKE_QEMU, .silence_s = 2, .quiet = TRUE },
		.command = g_strdup("hackbench -T -g 1 -l 10"),
		.rounds = rounds,
		.seed = 3,
		.defaults = defaults
	};
}

/*
 * The fake guest takes 0.1 + wakeup_granularity / 1e10 s: the defaults 0.1002 s, wakeup 0 0.1 s,
 * wakeup 1 s 0.2 s. Each round's value is time / the defaults' time: 0.1 / 0.1002 and
 * 0.2 / 0.1002 in every round, so standard error 0. A second run with the journal boots no more.
 */
static void test_objective_values_and_journal(void **state)
{
	FakeVm *f = *state;
	VmObjective vm = fake_objective(f, 3);
	g_autofree char *jpath = g_build_filename(f->dir, "journal", NULL);
	g_autoptr(Journal) journal = journal_open(jpath, "vm-test", JOURNAL_NO_SYNC, NULL);
	EvaluatorConfig config = { .batch_objective = vm_objective_batch,
				   .batch_ctx = &vm,
				   .replicates = 3,
				   .base_seed = 1,
				   .jobs = 1,
				   .journal = journal };
	const Knobs points[2] = { KNOBS_CFS(12000000, 1500000, 0),
				  KNOBS_CFS(12000000, 1500000, 1000000000) };
	EvaluatorResult res[2];
	double values[6];
	GError *error = NULL;

	assert_non_null(journal);
	if (!evaluator_run(&config, points, 2, res, values, NULL, &error))
		fail_msg("%s", error->message);
	assert_int_equal(fake_vm_boots(f), 1);
	for (int r = 0; r < 3; r++) {
		assert_close(values[r], 0.1 / 0.1002, 1e-12);
		assert_close(values[3 + r], 0.2 / 0.1002, 1e-12);
	}
	assert_close(res[0].mean, 0.1 / 0.1002, 1e-12);
	assert_close(res[1].std_error, 0.0, 1e-9);

	EvaluatorResult again[2];
	assert_true(evaluator_run(&config, points, 2, again, NULL, NULL, NULL));
	assert_int_equal(fake_vm_boots(f), 1);
	assert_memory_equal(again, res, sizeof res);
	vm_objective_clear(&vm);
}

/* A slow round (every run 0.2 s) cancels in the ratio: the wake-0 setting is 0.2/0.2 = 1 there. */
static void test_objective_round_drift_cancels(void **state)
{
	FakeVm *f = *state;
	VmObjective vm = fake_objective(f, 3);
	const Knobs p = KNOBS_CFS(12000000, 1500000, 0);
	VmMeasurement m;

	g_setenv("FAKE_QEMU_SLOW_ROUND", "1", TRUE);
	assert_true(vm_objective_measure(&vm, (const Knobs[]){ defaults, p }, 2, &m, NULL));
	assert_true(m.seconds[1] == 0.2 && m.seconds[3 + 1] == 0.2);
	assert_close(m.seconds[0], 0.1002, 1e-12);
	assert_close(m.seconds[3], 0.1, 1e-12);
	assert_true(m.ctxt[0] >= 1000);
	assert_string_equal(m.kernel, "fake");
	vm_measurement_clear(&m);
	vm_objective_clear(&vm);
}

static void test_objective_timeout_and_panic(void **state)
{
	FakeVm *f = *state;
	VmObjective vm = fake_objective(f, 1);
	const Knobs p = KNOBS_CFS(12000000, 1500000, 0);
	VmMeasurement m;
	GError *error = NULL;

	g_setenv("FAKE_QEMU_MODE", "hang", TRUE);
	assert_false(vm_objective_measure(&vm, (const Knobs[]){ defaults, p }, 2, &m, &error));
	assert_true(g_error_matches(error, VM_BOOT_ERROR, VM_BOOT_ERROR_TIMEOUT));
	assert_non_null(strstr(error->message, "printed nothing for 2 s"));
	assert_null(strchr(error->message, '\n'));
	assert_true(isnan(m.seconds[0]) && isnan(m.seconds[1]));
	vm_measurement_clear(&m);
	g_clear_error(&error);

	g_setenv("FAKE_QEMU_MODE", "panic", TRUE);
	assert_false(vm_objective_measure(&vm, (const Knobs[]){ defaults, p }, 2, &m, &error));
	assert_true(g_error_matches(error, VM_BOOT_ERROR, VM_BOOT_ERROR_PANIC));
	vm_measurement_clear(&m);
	g_clear_error(&error);
	g_unsetenv("FAKE_QEMU_MODE");

	/* No prepared kernel: a setup error that says what to run. */
	VmObjective none = vm;
	none.boot.cache_dir = "/nonexistent-linsched-cache";
	assert_false(vm_objective_measure(&none, &defaults, 1, &m, &error));
	assert_true(g_error_matches(error, VM_BOOT_ERROR, VM_BOOT_ERROR_SETUP));
	assert_non_null(strstr(error->message, "make vm"));
	vm_measurement_clear(&m);
	g_clear_error(&error);
	vm_objective_clear(&vm);
}

/* The lines of boot NNN's plan.txt under root that run setting id. */
static guint plan_lines(const char *root, guint boot, const char *id)
{
	g_autofree char *path = g_strdup_printf("%s/boot-%03u/plan.txt", root, boot);
	g_autofree char *text = NULL;
	g_autofree char *needle = g_strdup_printf(" %s ", id);
	guint n = 0;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++)
		n += strstr(*l, needle) != NULL;
	return n;
}

/*
 * A batch boots only for the rounds it lacks: two replicates journaled, the third asked for, and
 * the second boot runs one round, whose ratio becomes replicate 2 (a slow round 0 in that boot:
 * the wake-0 setting is 0.2 / 0.2 there). A setting at the defaults' knobs under another base
 * seed is run beside the reference, not taken for it.
 */
static void test_objective_missing_rounds_and_copies(void **state)
{
	FakeVm *f = *state;
	VmObjective vm = fake_objective(f, 3);
	g_autofree char *jpath = g_build_filename(f->dir, "journal", NULL);
	g_autoptr(Journal) journal = journal_open(jpath, "vm-test", JOURNAL_NO_SYNC, NULL);
	EvaluatorConfig config = { .batch_objective = vm_objective_batch,
				   .batch_ctx = &vm,
				   .replicates = 2,
				   .base_seed = 3,
				   .jobs = 1,
				   .journal = journal };
	const Knobs p = KNOBS_CFS(12000000, 1500000, 0);
	EvaluatorResult res;
	double values[3];

	vm.log_root = g_build_filename(f->dir, "vm", NULL);
	assert_true(evaluator_run(&config, &p, 1, &res, values, NULL, NULL));
	assert_int_equal(plan_lines(vm.log_root, 1, "s1"), 2);

	config.replicates = 3;
	g_setenv("FAKE_QEMU_SLOW_ROUND", "0", TRUE);
	assert_true(evaluator_run(&config, &p, 1, &res, values, NULL, NULL));
	g_unsetenv("FAKE_QEMU_SLOW_ROUND");
	assert_int_equal(fake_vm_boots(f), 2);
	assert_int_equal(plan_lines(vm.log_root, 2, "s1"), 1);
	assert_int_equal(plan_lines(vm.log_root, 2, "defaults"), 1);
	assert_close(values[0], 0.1 / 0.1002, 1e-12);
	assert_close(values[1], 0.1 / 0.1002, 1e-12);
	assert_close(values[2], 1.0, 1e-12);

	/* Two copies of the defaults (base seeds 3, the reference's, and 100): the first is the
	 * reference (exactly 1), the second its own setting, run in every round. */
	const Knobs both[2] = { defaults, defaults };
	const guint64 seeds[2] = { 3, 100 };
	EvaluatorResult two[2];
	g_autoptr(Evaluator) ev =
		evaluator_new(&(EvaluatorConfig){ .batch_objective = vm_objective_batch,
						  .batch_ctx = &vm,
						  .replicates = 2,
						  .jobs = 1 });

	assert_true(evaluator_batch_seeded(ev, both, seeds, 2, two, NULL, NULL, NULL));
	assert_int_equal(fake_vm_boots(f), 3);
	assert_int_equal(plan_lines(vm.log_root, 3, "s1"), 2);
	assert_close(two[0].mean, 1.0, 0);
	assert_close(two[1].mean, 1.0, 1e-12);

	/* runs.csv names each run's command. */
	g_autofree char *csv_path = g_build_filename(vm.log_root, "boot-003", "runs.csv", NULL);
	g_autofree char *csv = NULL;
	assert_true(g_file_get_contents(csv_path, &csv, NULL, NULL));
	assert_true(g_str_has_prefix(csv,
				     "seq,round,setting,latency_ns,min_granularity_ns,"
				     "wakeup_granularity_ns,seconds,ctxt,rc,steal_ppm,stall_ns,"
				     "command\n"));
	/* the fake guest has no vCPU threads: its steal is not measured (-1) */
	assert_non_null(strstr(csv, ",0,-1,-1,hackbench -T -g 1 -l 10\n"));
	vm_objective_clear(&vm);
}

/* ---- the real kernel ------------------------------------------------------------------------ */

/* One boot of Debian's 6.1 kernel: 1 group, 10 loops, 2 settings, 1 round (`make vm` first). */
static void test_real_kernel_boot(void **state)
{
	(void)state;
	VmBootConfig config = { .quiet = TRUE, .silence_s = 120 };
	g_autofree char *cache = vm_boot_cache_dir(&config);
	g_autofree char *ini = g_build_filename(cache, "kernel.ini", NULL);

	if (!g_file_test(ini, G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "no prepared kernel in %s: run 'make vm' (make test does)\n",
			cache);
		/* skip() jumps out of this function: nothing g_autofree would free after it. */
		g_clear_pointer(&cache, g_free);
		g_clear_pointer(&ini, g_free);
		skip();
	}
	VmSetting s[2] = { { (char *)"defaults", defaults },
			   { (char *)"wake1s", KNOBS_CFS(12000000, 1500000, 1000000000) } };
	g_autoptr(VmPlan) plan = vm_plan_new(s, 2, "hackbench -T -g 1 -l 10", 1, 5, NULL);
	g_autoptr(VmGuest) guest = NULL;
	GError *error = NULL;

	if (!vm_boot_run(&config, plan, &guest, &error))
		fail_msg("%s", error->message);
	assert_true(g_str_has_prefix(guest->kernel, "6.1."));
	assert_int_equal(guest->nr_cpus, 2);
	assert_int_equal(guest->runs->len, 2);
	for (guint i = 0; i < 2; i++) {
		const VmGuestRun *run = vm_guest_run(guest, i);
		const VmSetting *want =
			vm_plan_setting(plan, g_array_index(plan->runs, VmRun, i).setting);
		assert_non_null(run);
		assert_string_equal(run->setting, want->id);
		assert_true(run->knobs_ok);
		assert_memory_equal(&run->knobs, &want->knobs, sizeof want->knobs);
		assert_int_equal(run->rc, 0);
		assert_true(run->time_s > 0 && run->ctxt > 0);
		/* the host saw the vCPU threads (qemu named them) and how long they waited */
		assert_true(run->steal_ppm >= 0 && run->steal_ppm < 1000000);
		assert_true(run->stall_ns >= 0);
	}
}

/*
 * Steal between two samples: vCPUs that ran 3 s and waited 1 s wanted 4 s and lost a quarter of
 * it (250 000 ppm); preempted 400 times, they waited 2.5 ms a stall on average.
 */
static void test_steal_by_hand(void **state)
{
	(void)state;
	VmCpuTime a = { 10 * G_GUINT64_CONSTANT(1000000000), 5000000000, 1000, 2 }, b = a;
	guint64 ppm = 0, stall = 0;

	b.run_ns += 3000000000;
	b.wait_ns += 1000000000;
	b.preemptions += 400;
	assert_true(vm_cpu_time_steal(&a, &b, &ppm, &stall));
	assert_int_equal(ppm, 250000);
	assert_int_equal(stall, 2500000);
	/* nothing ran: no figure; other threads, or counters going back: not comparable */
	assert_false(vm_cpu_time_steal(&a, &a, &ppm, &stall));
	b.threads = 3;
	assert_false(vm_cpu_time_steal(&a, &b, &ppm, &stall));
	b = a;
	b.wait_ns--;
	assert_false(vm_cpu_time_steal(&a, &b, &ppm, &stall));
}

static gpointer spin_as_vcpu(gpointer data)
{
	struct timespec ts;

	prctl(PR_SET_NAME, "CPU 0/TCG");
	g_atomic_int_inc((gint *)data);
	/* 20 ms of its own CPU time, however loaded the machine is */
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	while (ts.tv_sec == 0 && ts.tv_nsec < 20000000);
	g_atomic_int_inc((gint *)data);
	while (g_atomic_int_get((gint *)data) < 3)
		g_usleep(1000);
	return NULL;
}

/* The steal of a measurement: medians over the runs that carry both figures (runs 0, 2, 3 here:
 * 100000, 300000, 700000 ppm and 2, 1, 5 ms), none without any. */
static void test_measurement_steal(void **state)
{
	(void)state;
	gint64 ppm[5] = { 100000, -1, 300000, 700000, 500000 };
	gint64 stall[5] = { 2000000, 1000000, 1000000, 5000000, -1 };
	VmMeasurement m = {
		.n_settings = 1, .n_commands = 1, .rounds = 5, .steal_ppm = ppm, .stall_ns = stall
	};
	double p = 0, n = 0;

	assert_true(vm_measurement_steal(&m, &p, &n));
	assert_close(p, 300000, 0);
	assert_close(n, 2000000, 0);
	for (int i = 0; i < 5; i++)
		ppm[i] = -1;
	assert_false(vm_measurement_steal(&m, &p, &n));
	m.steal_ppm = m.stall_ns = NULL;
	assert_false(vm_measurement_steal(&m, &p, &n));
}

/* What the host noted for a run reaches the run when its line arrives, and only that run. */
static void test_guest_steal_noted(void **state)
{
	(void)state;
	g_autoptr(VmGuest) g = vm_guest_new();

	vm_guest_feed(g, "LST start seq=0");
	vm_guest_note_steal(g, 0, 123456, 789);
	vm_guest_feed(g, "LST run seq=0 round=0 setting=defaults latency_ns=12000000 "
			 "min_granularity_ns=1500000 wakeup_granularity_ns=2000000 "
			 "migration_cost_ns=500000 knobs=ok rc=0 time_s=0.108 wall_ns=151000000 "
			 "ctxt=2312");
	vm_guest_feed(g, "LST run seq=1 round=0 setting=defaults latency_ns=12000000 "
			 "min_granularity_ns=1500000 wakeup_granularity_ns=2000000 "
			 "migration_cost_ns=500000 knobs=ok rc=0 time_s=0.1 wall_ns=151000000 "
			 "ctxt=2000");
	assert_int_equal(vm_guest_run(g, 0)->steal_ppm, 123456);
	assert_int_equal(vm_guest_run(g, 0)->stall_ns, 789);
	assert_int_equal(vm_guest_run(g, 1)->steal_ppm, -1);
}

/* The sampler finds a thread named as qemu names a vCPU, here in this very process. */
static void test_steal_sample_own_thread(void **state)
{
	(void)state;
	gint stage = 0;
	VmCpuTime none, t;

	assert_false(vm_cpu_time_sample(getpid(), &none) && none.threads > 0);
	GThread *th = g_thread_new("vcpu", spin_as_vcpu, &stage);
	while (g_atomic_int_get(&stage) < 2)
		g_usleep(1000);
	assert_true(vm_cpu_time_sample(getpid(), &t));
	assert_int_equal(t.threads, 1);
	assert_true(t.run_ns >= 20000000); /* it spun for 20 ms of CPU time */
	assert_true(t.run_ns > 0 && t.preemptions < G_MAXUINT64);
	g_atomic_int_inc(&stage);
	g_thread_join(th);
	assert_false(vm_cpu_time_sample(-1, &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_rounds_and_shuffle),
		cmocka_unit_test(test_plan_text_and_cpio),
		cmocka_unit_test(test_plan_grid),
		cmocka_unit_test(test_plan_refuses),
		cmocka_unit_test(test_guest_good),
		cmocka_unit_test(test_guest_garbage),
		cmocka_unit_test(test_guest_truncated),
		cmocka_unit_test(test_paired_by_hand),
		cmocka_unit_test_setup_teardown(test_objective_values_and_journal, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_objective_round_drift_cancels, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_objective_timeout_and_panic, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_objective_missing_rounds_and_copies,
						fake_setup, fake_teardown),
		cmocka_unit_test(test_real_kernel_boot),
		cmocka_unit_test(test_steal_by_hand),
		cmocka_unit_test(test_guest_steal_noted),
		cmocka_unit_test(test_measurement_steal),
		cmocka_unit_test(test_steal_sample_own_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
