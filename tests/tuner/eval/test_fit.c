/*
 * tests/tuner/eval/test_fit.c - fitting the model's parameters to real plans (tuner/eval/fit.h):
 * the parameter table, the loss (equal to fidelity.h's on plan_sim's values, computed once per
 * distinct rounded vector), a fit that recovers the parameters of a "real" plan the simulator
 * itself made, its determinism, the fitted machine.ini written through a temporary file, and a
 * fit killed part-way that resumes from its journal without computing a loss twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "linsched/model_id.h"
#include "tests/support/assert_close.h"
#include "tests/support/support.h"
#include "tuner/eval/fit.h"

#define WORKLOAD "hackbench -T -g 1 -l 5 -f 8"

/* The fit's flags, and extra (NULL or one more flag and its value), through the parser: a value
 * set in the struct is not given. */
static void flags_init_with(struct workload_cli *wc, const char *extra, const char *value)
{
	/* --cache-lines 4096: 16 tasks of a few hundred lines fill it */
	const char *const args[] = { "--profile",     "6.1",  "--cpus", "2",   "--hz", "250",
				     "--cache-lines", "4096", extra,	value, NULL };
	GError *error = NULL;

	workload_cli_init(wc);
	if (!workload_cli_parse(wc, args, &error))
		fail_msg("%s", error->message);
}

static void flags_init(struct workload_cli *wc)
{
	flags_init_with(wc, NULL, NULL);
}

static void test_table(void **state)
{
	struct linsched_machine m;
	struct workload_cli wc;
	guint n;
	const FitParam *t = fit_params(&n);
	g_autofree char *names = fit_param_names();

	(void)state;
	assert_true(n >= 12);
	assert_true(g_str_has_prefix(names, "thread_switch, process_switch, wakeup"));
	for (guint i = 0; i < n; i++) {
		assert_ptr_equal(fit_param_find(t[i].name), &t[i]);
		assert_true(t[i].lo > 0 && t[i].lo < t[i].hi);
	}
	assert_null(fit_param_find("speed"));

	linsched_machine_builtin(&m);
	const FitParam *remote = fit_param_find("wakeup_remote"), *fp = fit_param_find("footprint");
	const FitParam *pw = fit_param_find("process_wakeup");

	/* Zeros that stand for other values. */
	assert_close(fit_param_get(remote, &m), (double)m.wakeup_ns, 0);
	assert_close(fit_param_get(pw, &m), (double)m.wakeup_ns, 0);
	fit_param_set(pw, &m, 41000.6);
	assert_int_equal(m.process_wakeup_ns, 41001);
	assert_close(fit_param_get(pw, &m), 41001, 0);
	assert_int_equal(m.wakeup_ns, LINSCHED_DEFAULT_WAKEUP_NS); /* the threads' stays */
	/* A machine without an IPI's flight or a wakeup's tail: the fits start where the traces
	 * put them (tuner/eval/fit.c), and a fitted value is the machine's own. */
	const FitParam *ipi = fit_param_find("ipi"), *tail = fit_param_find("wakeup_tail");

	assert_close(fit_param_get(ipi, &m), 28000, 0);
	assert_close(fit_param_get(tail, &m), 9000, 0);
	fit_param_set(ipi, &m, 31000.2);
	fit_param_set(tail, &m, 7000);
	assert_int_equal(m.ipi_ns, 31000);
	assert_int_equal(m.wakeup_tail_ns, 7000);
	assert_close(fit_param_get(ipi, &m), 31000, 0);
	assert_close(fit_param_get(fp, &m), 512, 0);
	fit_param_set(fp, &m, 700.4);
	assert_int_equal(m.footprint_lines, 700);
	fit_param_set(fit_param_find("miss"), &m, 0.2); /* never below 1 */
	assert_int_equal(m.miss_ps, 1);

	flags_init(&wc);
	assert_false(fit_param_overridden(fp, &wc));
	assert_true(fit_param_overridden(fit_param_find("cache_lines"), &wc));
	workload_cli_clear(&wc);
	/* A hackbench flag as well as a simulation one; set in the struct it is not given. */
	flags_init_with(&wc, "--footprint-lines", "300");
	assert_true(fit_param_overridden(fp, &wc));
	assert_false(fit_param_overridden(remote, &wc));
	workload_cli_clear(&wc);
	/* --wakeup-cost-ns fixes every local wakeup, between processes too. */
	flags_init_with(&wc, "--wakeup-cost-ns", "3000");
	assert_true(fit_param_overridden(pw, &wc));
	assert_true(fit_param_overridden(fit_param_find("wakeup"), &wc));
	workload_cli_clear(&wc);
	flags_init(&wc);
	wc.hb.footprint = 300;
	assert_false(fit_param_overridden(fp, &wc));
	workload_cli_clear(&wc);
}

/* A "real" plan that is the simulator's own output at footprint `lines`: ratios and switches as
 * simulated, the same in each of 6 rounds. */
static PlanSet *synthetic_plan(const char *dir, const struct workload_cli *wc, Evaluator *ev,
			       uint64_t lines)
{
	static const char *const ids[] = { "defaults", "wake0", "wake16", "lat3" };
	static const char *const knobs[] = { "12000000,1500000,2000000", "12000000,1500000,0",
					     "12000000,1500000,16000000",
					     "3000000,1500000,2000000" };
	g_autofree char *path = g_build_filename(dir, "plan.csv", NULL);
	GString *csv = g_string_new("seq,round,setting,latency_ns,min_granularity_ns,"
				    "wakeup_granularity_ns,seconds,ctxt,rc\n");
	PlanSet *set = plan_set_new();

	/* First a placeholder plan, to simulate its settings with the true parameter. */
	for (int i = 0; i < 4; i++)
		g_string_append_printf(csv, "%d,0,%s,%s,1,1,0\n", i, ids[i], knobs[i]);
	assert_true(g_file_set_contents(path, csv->str, -1, NULL));
	assert_true(plan_set_add(set, "synthetic", path, WORKLOAD, PLAN_ROLE_TRAIN, NULL, NULL));

	struct linsched_machine truth;
	SimSetting **sims = NULL;
	PlanSim ps = { wc, 1, ev, FALSE };

	linsched_machine_builtin(&truth);
	truth.footprint_lines = lines;
	assert_true(plan_sim_run(&ps, set, &truth, &sims, NULL));
	plan_set_free(set);

	g_string_truncate(csv, 0);
	g_string_append(csv, "seq,round,setting,latency_ns,min_granularity_ns,"
			     "wakeup_granularity_ns,seconds,ctxt,rc\n");
	for (int r = 0; r < 6; r++)
		for (int i = 0; i < 4; i++)
			g_string_append_printf(csv, "%d,%d,%s,%s,%.17g,%.0f,0\n", 4 * r + i, r,
					       ids[i], knobs[i], sims[0][i].ratio,
					       sims[0][i].switches);
	plan_sim_free(sims, 1);
	assert_true(g_file_set_contents(path, csv->str, -1, NULL));
	g_string_free(csv, TRUE);
	set = plan_set_new();
	assert_true(plan_set_add(set, "synthetic", path, WORKLOAD, PLAN_ROLE_TRAIN, NULL, NULL));
	return set;
}

/*
 * The loss at the base machine is fidelity_loss of plan_sim's values on it; asked again for the
 * same rounded values it is not recomputed.
 */
static void test_loss(void **state)
{
	struct workload_cli wc;
	EvaluatorConfig config = { .replicates = 1, .jobs = 2 };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	struct linsched_machine base;

	flags_init(&wc);
	linsched_machine_builtin(&base);
	g_autoptr(PlanSet) set = synthetic_plan(*state, &wc, ev, 300);
	const FitParam *p[] = { fit_param_find("footprint") };
	const FidelityLoss w = { .time_weight = 1.0, .switch_weight = 0.5 };
	PlanSim ps = { &wc, 1, ev, FALSE };
	FitProblem fp;
	SimSetting **sims = NULL;

	fit_problem_init(&fp, set, &ps, &base, p, 1, &w);
	assert_true(plan_sim_run(&ps, set, &base, &sims, NULL));
	double want = fidelity_loss(plan_set_plan(set, 0)->real, sims[0], &w);

	plan_sim_free(sims, 1);
	double v[] = { 512 };

	assert_close(fit_loss(&fp, v), want, 0);
	assert_true(want > 0);
	assert_int_equal(fp.losses, 1);
	assert_int_equal(fp.simulations, 4);
	v[0] = 512.3; /* the same whole number */
	assert_close(fit_loss(&fp, v), want, 0);
	assert_int_equal(fp.losses, 1);
	v[0] = 300; /* the truth: ratios and switches as the plan's */
	assert_close(fit_loss(&fp, v), 0, 1e-20);
	assert_int_equal(fp.losses, 2);

	struct linsched_machine m;

	fit_machine(&fp, v, &m);
	assert_int_equal(m.footprint_lines, 300);
	assert_int_equal(m.wakeup_ns, base.wakeup_ns);
	fit_problem_clear(&fp);
	workload_cli_clear(&wc);
}

/*
 * From the built-in 512 lines, Nelder-Mead in log space finds a footprint whose simulation is the
 * plan's (loss 0, as at the true 300), within a factor 20 of the start; the same seed gives the
 * same fit on one thread as on two.
 */
static void test_recovers(void **state)
{
	struct workload_cli wc;
	EvaluatorConfig config = { .replicates = 1, .jobs = 2 };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	struct linsched_machine base;
	const FitParam *p[] = { fit_param_find("footprint") };
	const FidelityLoss w = { .time_weight = 1.0, .switch_weight = 0.5 };
	const FitOptions o = {
		.starts = 2, .max_iter = 60, .range = 20, .step = 0.1, .tol = 1e-3, .seed = 7
	};

	flags_init(&wc);
	linsched_machine_builtin(&base);
	g_autoptr(PlanSet) set = synthetic_plan(*state, &wc, ev, 300);
	FitResult r[2];

	for (int jobs = 0; jobs < 2; jobs++) {
		EvaluatorConfig c1 = { .replicates = 1, .jobs = jobs ? 1 : 2 };
		g_autoptr(Evaluator) e = evaluator_new(&c1);
		PlanSim ps = { &wc, 1, e, FALSE };
		FitProblem fp;
		GError *error = NULL;

		fit_problem_init(&fp, set, &ps, &base, p, 1, &w);
		assert_true(fit_run(&fp, &o, &r[jobs], NULL, NULL, &error));
		assert_null(error);
		fit_problem_clear(&fp);
	}
	assert_close(r[0].start_values[0], 512, 0);
	assert_close(r[0].lo[0], 512 / 20.0, 1e-9);
	assert_close(r[0].hi[0], 512 * 20.0, 1e-9);
	assert_true(r[0].start_loss > 0);
	assert_close(r[0].loss, 0, 1e-20);
	assert_int_equal(r[0].n_starts, 2);
	assert_true(r[0].losses > 5);
	assert_close(r[1].values[0], r[0].values[0], 0);
	assert_close(r[1].loss, r[0].loss, 0);
	assert_int_equal(r[1].losses, r[0].losses);
	fit_result_clear(&r[0]);
	fit_result_clear(&r[1]);

	FitOptions bad = o;
	FitProblem fp;
	PlanSim ps = { &wc, 1, ev, FALSE };
	FitResult none;
	GError *error = NULL;

	bad.range = 1;
	fit_problem_init(&fp, set, &ps, &base, p, 1, &w);
	assert_false(fit_run(&fp, &bad, &none, NULL, NULL, &error));
	assert_non_null(error);
	g_error_free(error);
	fit_result_clear(&none);
	fit_problem_clear(&fp);
	workload_cli_clear(&wc);
}

/* A fit of the synthetic plan's footprint and miss cost, with a journal at path (NULL: none),
 * into r. */
static void fit_journaled(const char *dir, const char *path, FitResult *r)
{
	struct workload_cli wc;
	EvaluatorConfig config = { .replicates = 1, .jobs = 2 };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	struct linsched_machine base;
	const FitParam *p[] = { fit_param_find("footprint"), fit_param_find("miss") };
	const FidelityLoss w = { .time_weight = 1.0, .switch_weight = 0.5 };
	const FitOptions o = {
		.starts = 2, .max_iter = 15, .range = 20, .step = 0.1, .tol = 1e-3, .seed = 7
	};
	const char *const keys[] = { "footprint_lines", "miss_ps" };
	g_autoptr(FitJournal) journal = NULL;
	GError *error = NULL;
	FitProblem fp;

	flags_init(&wc);
	linsched_machine_builtin(&base);
	g_autoptr(PlanSet) set = synthetic_plan(dir, &wc, ev, 300);
	PlanSim ps = { &wc, 1, ev, FALSE };

	if (path) {
		journal = fit_journal_open(path, "params=footprint,miss test=1", keys, 2,
					   RECORD_LOG_NO_SYNC, &error);
		expect_no_gerror(journal != NULL, error, "fit_journal_open");
	}
	fit_problem_init(&fp, set, &ps, &base, p, 2, &w);
	fp.journal = journal;
	expect_no_gerror(fit_run(&fp, &o, r, NULL, NULL, &error), error, "fit_run");
	assert_int_equal(r->losses, fp.losses);
	assert_int_equal(r->from_journal, fp.from_journal);
	fit_problem_clear(&fp);
	workload_cli_clear(&wc);
}

/*
 * A fit killed after k losses (its journal cut there, the record being written torn) resumes: the
 * rerun reads the k losses, computes only the others, and ends as the uninterrupted fit did, bit
 * for bit; a fit whose journal holds everything simulates nothing. The journal has one record a
 * loss, each computed once.
 */
static void test_resume(void **state)
{
	g_autofree char *path = g_build_filename(*state, "fit-journal.txt", NULL);
	FitResult plain, whole, resumed, again;

	fit_journaled(*state, NULL, &plain);
	fit_journaled(*state, path, &whole);
	assert_int_equal(whole.from_journal, 0);
	assert_int_equal(whole.losses, plain.losses);

	g_autofree char *text = read_text(path);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	const guint k = 4;

	assert_int_equal(g_strv_length(lines), 2 + whole.losses + 1); /* header, columns, "" */
	assert_true(whole.losses > k + 2);
	g_autofree char *head = g_strjoinv("\n", (char *[]){ lines[0], lines[1], lines[2], lines[3],
							     lines[4], lines[5], NULL });
	g_autofree char *cut = g_strdup_printf("%s\n%.9s", head, lines[2 + k]);

	assert_true(g_file_set_contents(path, cut, -1, NULL));
	fit_journaled(*state, path, &resumed);
	assert_int_equal(resumed.from_journal, k);
	assert_int_equal(resumed.losses, whole.losses - k);
	assert_int_equal(resumed.simulations, whole.simulations / whole.losses * resumed.losses);
	fit_journaled(*state, path, &again);
	assert_int_equal(again.losses, 0);
	assert_int_equal(again.simulations, 0);
	assert_int_equal(again.from_journal, whole.losses);

	const FitResult *r[] = { &whole, &resumed, &again };

	for (guint i = 0; i < G_N_ELEMENTS(r); i++) {
		assert_memory_equal(r[i]->values, plain.values, 2 * sizeof(double));
		assert_true(r[i]->loss == plain.loss && r[i]->start_loss == plain.start_loss);
		assert_int_equal(r[i]->n_starts, plain.n_starts);
		for (guint s = 0; s < plain.n_starts; s++) {
			assert_true(r[i]->starts[s].loss == plain.starts[s].loss);
			assert_int_equal(r[i]->starts[s].iters, plain.starts[s].iters);
		}
	}
	g_free(text);
	text = read_text(path);
	g_strfreev(lines);
	lines = g_strsplit(text, "\n", -1);
	assert_int_equal(g_strv_length(lines), 2 + whole.losses + 1);
	fit_result_clear(&plain);
	fit_result_clear(&whole);
	fit_result_clear(&resumed);
	fit_result_clear(&again);
}

/* The fitted keys replace the base file's, with a note; its comments stay; the top comment comes
 * first; the file loads; no temporary file is left. Without a base file only the fitted keys. */
static void test_write_machine(void **state)
{
	const char *dir = *state;
	g_autofree char *base = g_build_filename(dir, "base.ini", NULL);
	g_autofree char *out = g_build_filename(dir, "fitted.ini", NULL);
	const FitParam *p[] = { fit_param_find("miss"), fit_param_find("footprint") };
	struct linsched_machine before, after, loaded;
	GError *error = NULL;

	assert_true(g_file_set_contents(base,
					"# the probe's file\n\n[machine]\nhz=250\n\n[costs]\n"
					"# measured\nwakeup_ns=6000\nmiss_ps=5000\n",
					-1, NULL));
	assert_true(linsched_machine_load(base, &before, NULL));
	after = before;
	after.miss_ps = 12000;
	after.footprint_lines = 900;
	if (!fit_write_machine(out, base, &after, &before, p, 2, "tuner fit",
			       "Fitted by a test\n\non a plan", &error))
		fail_msg("%s", error->message);

	g_autofree char *text = read_text(out);
	/* The caller's comment, the simulator it was fitted on, the base file's comment. */
	g_autofree char *top =
		g_strdup_printf("# Fitted by a test\n#\n# on a plan\n# Fitted on the simulator of "
				"model id %s (linsched --help prints its own).\n#\n# the probe's "
				"file\n",
				linsched_model_id());

	assert_true(g_str_has_prefix(text, top));
	assert_non_null(strstr(text, "# measured\nwakeup_ns=6000\n"));
	assert_non_null(strstr(text, "# fitted by tuner fit (was 5000)\nmiss_ps=12000\n"));
	assert_non_null(strstr(text, "# fitted by tuner fit (was 512)\nfootprint_lines=900\n"));
	assert_true(linsched_machine_load(out, &loaded, NULL));
	assert_int_equal(loaded.miss_ps, 12000);
	assert_int_equal(loaded.footprint_lines, 900);
	assert_int_equal(loaded.wakeup_ns, 6000);
	assert_int_equal(loaded.hz, 250);

	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while ((name = g_dir_read_name(d)))
		assert_null(strstr(name, ".tmp."));

	assert_true(fit_write_machine(out, NULL, &after, &before, p, 2, "tuner fit", "only", NULL));
	g_free(text);
	text = read_text(out);
	g_free(top);
	top = g_strdup_printf("# only\n# Fitted on the simulator of model id %s ",
			      linsched_model_id());
	assert_true(g_str_has_prefix(text, top));
	assert_null(strstr(text, "wakeup_ns"));
	assert_true(linsched_machine_load(out, &loaded, NULL));
	assert_int_equal(loaded.footprint_lines, 900);

	g_autofree char *nowhere = g_build_filename(dir, "no", "such", "m.ini", NULL);

	assert_false(
		fit_write_machine(nowhere, NULL, &after, &before, p, 2, "tuner fit", "x", &error));
	assert_non_null(error);
	g_error_free(error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test_setup_teardown(test_loss, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_recovers, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_write_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_resume, temp_dir_setup, temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
