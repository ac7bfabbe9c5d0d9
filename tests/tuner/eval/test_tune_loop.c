/*
 * tests/tuner/eval/test_tune_loop.c - the loop that drives every optimizer over the knobs
 * (tuner/eval/tune_loop.h): ask -> map -> evaluator_run -> tell, with history, journal and jobs.
 *
 * Most tests use a synthetic objective whose minimum is known exactly: a bowl in the logarithms
 * of the knobs, 1 + ln(L/L*)^2 + ln(M/M*)^2 + ln((W + 1 us)/(W* + 1 us))^2, lowest (1) at
 * L* = 3 ms, M* = 0.7 ms, W* = 2 ms, optionally plus a small seed-dependent term so that
 * replicates differ.  Faults (an error, or kill -9 of a forked child) are injected at an
 * evaluation drawn from a seeded generator.  The last test runs the real simulator objective on
 * the workload (5 groups, 1 loop, threads, 2 CPUs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gsl/gsl_rng.h>

#include "tuner/optim/golden_ends.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/eval/tune_loop.h"

#include "tests/support/support.h"
#include "tuner/eval/workload.h"

#define L_STAR 3e6
#define M_STAR 7e5
#define W_STAR 2e6

struct synth {
	double noise; /* amplitude of the seed-dependent term */
	gint calls;   /* objective calls so far (atomic) */
	gint fail_at; /* return an error at this call (1-based); 0: never */
	gint kill_at; /* raise SIGKILL at this call; 0: never */
	bool nan;     /* return NaN */
};

static double bowl(const Knobs *k)
{
	double a = log((double)k->latency_ns / L_STAR),
	       b = log((double)k->min_granularity_ns / M_STAR);
	double c = log(((double)k->wakeup_granularity_ns + 1000) / (W_STAR + 1000));

	return 1 + a * a + b * b + c * c;
}

static gboolean synth_objective(const Knobs *k, guint64 seed, double *value, void *ctx,
				GError **error)
{
	struct synth *s = ctx;
	gint call = g_atomic_int_add(&s->calls, 1) + 1;

	if (call == s->kill_at)
		raise(SIGKILL);
	if (call == s->fail_at) {
		g_set_error(error, g_quark_from_static_string("test"), 1,
			    "injected failure at call %d", call);
		return FALSE;
	}
	*value = s->nan ? NAN : bowl(k) + s->noise * ((double)(seed % 7) / 7.0 - 0.5);
	return TRUE;
}

static TuneConfig synth_config(const tuner_optimizer_type *T, struct knob_space *space,
			       struct synth *s, guint replicates, guint jobs)
{
	TuneConfig c = {
		.type = T,
		.dim = space->dim,
		.map = knob_space_map,
		.map_ctx = space,
		.evaluator = {
			.objective = synth_objective,
			.objective_ctx = s,
			.replicates = replicates,
			.base_seed = 11,
			.jobs = jobs,
		},
	};

	tuner_optimizer_params_default(&c.params);
	c.params.seed = 5;
	return c;
}

static void assert_same_runs(const TuneRun *a, const TuneRun *b)
{
	assert_int_equal(a->evaluations->len, b->evaluations->len);
	assert_int_equal(a->best, b->best);
	assert_int_equal(a->iterations, b->iterations);
	assert_memory_equal(a->evaluations->data, b->evaluations->data,
			    a->evaluations->len * sizeof(TuneEvaluation));
	assert_memory_equal(a->unit->data, b->unit->data, a->unit->len * sizeof(double));
}

/* ---- finding minima ------------------------------------------------------------------------ */

/*
 * PSO through the loop, with the thesis preset's omega and each phi halved to 1.51, a contracting
 * swarm (the thesis preset's phi = 3.02 exceeds 2 (1 + omega) = 2.873, so that swarm keeps
 * oscillating; tests/tuner/optim/test_optimizers.c measures both).  In unit coordinates the bowl is
 * 1 + ln(1e4)^2 |u - u*|^2, so 1% in a knob is 0.0011 in u.
 */
static void test_pso_finds_the_bowl(void **state)
{
	struct knob_space space;

	(void)state;
	knob_space_init(&space, true);
	for (int stable = 0; stable <= 1; stable++) {
		struct synth s = { 0 };
		TuneConfig c = synth_config(tuner_optimizer_pso, &space, &s, 1, 1);
		GError *error = NULL;

		c.params.pso.omega = 0.4365;
		c.params.pso.phi_p = c.params.pso.phi_g = stable ? 1.51 : 3.02;
		TuneRun *run = tune_run(&c, &error);

		g_assert_no_error(error);
		/* SPEC defaults: 20 particles x 30 generations. */
		assert_int_equal(run->evaluations->len, 600);
		assert_int_equal(run->iterations, 30);

		const TuneEvaluation *best = tune_run_best(run);
		double dl = log((double)best->knobs.latency_ns / L_STAR);
		double dm = log((double)best->knobs.min_granularity_ns / M_STAR);
		double dw = log((best->knobs.wakeup_granularity_ns + 1000.0) / (W_STAR + 1000));
		/* Stable: within 1% of each knob.  Thesis: within 0.1 of the cube per coordinate, as
		 * test_optimizers.c states for it, i.e. 0.1 ln(1e4) = 0.92 in the logarithm. */
		double tol = stable ? 0.01 : 0.1 * log(1e4);

		if (fabs(dl) > tol || fabs(dm) > tol || fabs(dw) > tol ||
		    fabs(best->value - (1 + dl * dl + dm * dm + dw * dw)) > 1e-12)
			fail_msg("PSO (%s) best %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
				 " %" G_GUINT64_FORMAT " = %g",
				 stable ? "stable" : "thesis", best->knobs.latency_ns,
				 best->knobs.min_granularity_ns, best->knobs.wakeup_granularity_ns,
				 best->value);
		tune_run_free(run);
	}
}

/* Golden Section on latency alone (the other knobs fixed at their minimum), log scale. */
static void test_golden_on_one_knob(void **state)
{
	(void)state;
	for (int ends = 0; ends <= 1; ends++) {
		struct knob_space space;
		struct synth s = { 0 };

		knob_space_init(&space, true);
		assert_true(knob_space_parse_fix(&space, "min_granularity=700000", NULL));
		assert_true(knob_space_parse_fix(&space, "wakeup_granularity=2000000", NULL));
		TuneConfig c =
			synth_config(ends ? tuner_optimizer_golden_ends : tuner_optimizer_golden,
				     &space, &s, 1, 1);

		c.params.golden.tolerance = 0.001;
		TuneRun *run = tune_run(&c, NULL);
		/* r^14 = 0.00119 >= 0.001 > r^15: 15 narrowings, 16 evaluations (18 with the ends). */
		assert_int_equal(run->evaluations->len, ends ? 18 : 16);
		/* The minimum's unit coordinate: ln(3e6 / 1e5) / ln(1e9 / 1e5). */
		double u_star = log(30) / log(1e4);

		assert_true(fabs(tune_run_unit(run, run->best)[0] - u_star) < 0.001);
		assert_int_equal(tune_run_best(run)->knobs.min_granularity_ns, 700000);
		tune_run_free(run);
	}
}

/* ---- what the run records ------------------------------------------------------------------ */

static void test_history(void **state)
{
	struct knob_space space;
	struct synth s = { .noise = 0.1 };

	(void)state;
	knob_space_init(&space, false);
	TuneConfig c = synth_config(tuner_optimizer_grid, &space, &s, 2, 1);

	c.params.grid.points = 3;
	c.params.grid.batch = 10;
	TuneRun *run = tune_run(&c, NULL);

	assert_int_equal(run->evaluations->len, 27);
	assert_int_equal(run->iterations, 3); /* batches of 10, 10, 7 */
	double best = INFINITY;
	guint best_index = 0;

	for (guint i = 0; i < 27; i++) {
		const TuneEvaluation *e = &g_array_index(run->evaluations, TuneEvaluation, i);
		Knobs k = { 0 };

		knob_space_to_knobs(&space, tune_run_unit(run, i), &k);
		assert_memory_equal(&k, &e->knobs, sizeof(k));
		assert_int_equal(e->index, i);
		assert_int_equal(e->iteration, i / 10);
		/* Two replicates, seeds 11 and 12: noise (11 % 7) / 7 - 0.5 and (12 % 7) / 7 - 0.5. */
		double v0 = bowl(&k) + 0.1 * (4 / 7.0 - 0.5), v1 = bowl(&k) + 0.1 * (5 / 7.0 - 0.5);

		assert_true(fabs(e->value - (v0 + v1) / 2) < 1e-12);
		/* sd of two values = |v0 - v1| / sqrt 2, over sqrt 2 again. */
		assert_true(fabs(e->std_error - fabs(v0 - v1) / 2) < 1e-12);
		if (e->value < best) {
			best = e->value;
			best_index = i;
		}
		assert_true(e->best == best);
	}
	assert_int_equal(run->best, best_index);
	assert_ptr_equal(tune_run_best(run),
			 &g_array_index(run->evaluations, TuneEvaluation, best_index));
	/* 27 points x 2 replicates, none journaled. */
	assert_int_equal(run->totals.total, 54);
	assert_int_equal(run->totals.run, 54);
	assert_int_equal(run->totals.from_journal, 0);
	tune_run_free(run);
}

static TuneRun *hand_run(const double *values, guint n)
{
	TuneRun *run = g_new0(TuneRun, 1);
	double best = INFINITY;

	run->evaluations = g_array_new(FALSE, FALSE, sizeof(TuneEvaluation));
	run->predictions = g_array_new(FALSE, FALSE, sizeof(TunePrediction));
	run->unit = g_array_new(FALSE, FALSE, sizeof(double));
	run->dim = 1;
	for (guint i = 0; i < n; i++) {
		if (values[i] < best) {
			best = values[i];
			run->best = i;
		}
		TuneEvaluation e = { .index = i, .value = values[i], .best = best };

		g_array_append_val(run->evaluations, e);
	}
	return run;
}

static void test_evaluations_to_within(void **state)
{
	(void)state;
	/* Best 3.0; 1% above it is 3.03; the running best first reaches it at 3.02, evaluation 3. */
	const double a[] = { 5, 4, 3.02, 3.5, 3.0 };
	TuneRun *run = hand_run(a, 5);

	assert_int_equal(tune_run_evaluations_to_within(run, 0.01), 3);
	assert_int_equal(tune_run_evaluations_to_within(run, 0), 5);
	assert_int_equal(tune_run_evaluations_to_within(run, 0.5), 2); /* 4 <= 4.5 */
	tune_run_free(run);

	/* Negative values: best -2, within 1% is -1.98; -1.99 qualifies. */
	const double b[] = { -1, -1.99, -2 };

	run = hand_run(b, 3);
	assert_int_equal(tune_run_evaluations_to_within(run, 0.01), 2);
	tune_run_free(run);

	run = hand_run(NULL, 0);
	assert_int_equal(tune_run_evaluations_to_within(run, 0.01), 0);
	assert_null(tune_run_best(run));
	tune_run_free(run);
}

/* ---- jobs, journal and faults -------------------------------------------------------------- */

static void test_jobs_do_not_change_the_run(void **state)
{
	struct knob_space space;
	TuneRun *runs[3];

	(void)state;
	knob_space_init(&space, true);
	for (guint jobs = 1; jobs <= 3; jobs++) {
		struct synth s = { .noise = 0.3 };
		TuneConfig c = synth_config(tuner_optimizer_pso, &space, &s, 3, jobs);

		c.params.pso.particles = 12;
		c.params.pso.iterations = 8;
		runs[jobs - 1] = tune_run(&c, NULL);
		assert_non_null(runs[jobs - 1]);
	}
	assert_same_runs(runs[0], runs[1]);
	assert_same_runs(runs[0], runs[2]);
	for (int i = 0; i < 3; i++)
		tune_run_free(runs[i]);
}

static char *temp_journal(void)
{
	char *dir = g_dir_make_tmp("tune-loop-XXXXXX", NULL);
	char *path = g_build_filename(dir, "journal", NULL);

	g_free(dir);
	return path;
}

static void remove_journal(char *path)
{
	char *dir = g_path_get_dirname(path);

	g_unlink(path);
	g_rmdir(dir);
	g_free(dir);
	g_free(path);
}

/* The PSO run the fault tests interrupt: 10 particles x 6 generations, 2 replicates. */
static TuneConfig fault_config(struct knob_space *space, struct synth *s)
{
	TuneConfig c = synth_config(tuner_optimizer_pso, space, s, 2, 1);

	c.params.pso.particles = 10;
	c.params.pso.iterations = 6;
	return c;
}

/* Distinct (knobs, seed, replicate) of the uninterrupted run: what a fresh journal ends up with. */
static guint distinct_evaluations(struct knob_space *space, char *path)
{
	struct synth s = { .noise = 0.2 };
	TuneConfig c = fault_config(space, &s);
	Journal *j = journal_open(path, "fault test", JOURNAL_NO_SYNC, NULL);

	c.evaluator.journal = j;
	TuneRun *run = tune_run(&c, NULL);
	guint n = journal_count(j);

	assert_int_equal(run->totals.run, n);
	tune_run_free(run);
	journal_close(j);
	g_unlink(path);
	return n;
}

/* An evaluation drawn from a seeded generator, in 1..n. */
static gint random_evaluation(unsigned long seed, guint n)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, seed);
	gint k = 1 + (gint)gsl_rng_uniform_int(r, n);

	gsl_rng_free(r);
	return k;
}

/* Resume from the journal at path, which holds the first k - 1 evaluations, and compare with an
 * uninterrupted run. */
static void resume_and_compare(struct knob_space *space, const char *path, gint k, guint distinct)
{
	struct synth clean_s = { .noise = 0.2 }, s = { .noise = 0.2 };
	TuneConfig clean_c = fault_config(space, &clean_s), c = fault_config(space, &s);
	TuneRun *clean = tune_run(&clean_c, NULL);
	GError *error = NULL;
	Journal *j = journal_open(path, "fault test", JOURNAL_NO_SYNC, &error);

	g_assert_no_error(error);
	assert_int_equal(journal_count(j), k - 1);
	c.evaluator.journal = j;
	TuneRun *resumed = tune_run(&c, &error);

	g_assert_no_error(error);
	assert_same_runs(clean, resumed);
	/* Nothing recorded is evaluated again. */
	assert_int_equal(resumed->totals.run, distinct - (guint)(k - 1));
	assert_int_equal(s.calls, (gint)distinct - (k - 1));
	assert_int_equal(journal_count(j), distinct);
	journal_close(j);
	tune_run_free(clean);
	tune_run_free(resumed);
}

static void test_resume_after_an_error(void **state)
{
	struct knob_space space;
	char *path = temp_journal();

	(void)state;
	knob_space_init(&space, true);
	guint distinct = distinct_evaluations(&space, path);
	gint k = random_evaluation(20240611, distinct);
	struct synth s = { .noise = 0.2, .fail_at = k };
	TuneConfig c = fault_config(&space, &s);
	Journal *j = journal_open(path, "fault test", JOURNAL_NO_SYNC, NULL);
	GError *error = NULL;

	c.evaluator.journal = j;
	assert_null(tune_run(&c, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "injected failure"));
	g_clear_error(&error);
	journal_close(j);
	resume_and_compare(&space, path, k, distinct);
	remove_journal(path);
}

static void test_resume_after_kill9(void **state)
{
	struct knob_space space;
	char *path = temp_journal();

	(void)state;
	knob_space_init(&space, true);
	guint distinct = distinct_evaluations(&space, path);

	for (unsigned long seed = 1; seed <= 3; seed++) {
		gint k = random_evaluation(seed, distinct);
		pid_t pid = fork_single_threaded();

		assert_true(pid >= 0);
		if (pid == 0) {
			struct synth s = { .noise = 0.2, .kill_at = k };
			TuneConfig c = fault_config(&space, &s);

			c.evaluator.journal =
				journal_open(path, "fault test", JOURNAL_NO_SYNC, NULL);
			tune_run(&c, NULL);
			_exit(3); /* not reached: the objective kills the process */
		}
		int status;

		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		resume_and_compare(&space, path, k, distinct);
		g_unlink(path);
	}
	remove_journal(path);
}

/* ---- errors -------------------------------------------------------------------------------- */

static void test_errors(void **state)
{
	struct knob_space space;
	struct synth s = { .nan = true };
	GError *error = NULL;

	(void)state;
	knob_space_init(&space, true);
	TuneConfig c = synth_config(tuner_optimizer_grid, &space, &s, 1, 1);

	assert_null(tune_run(&c, &error));
	assert_true(g_error_matches(error, TUNE_LOOP_ERROR, TUNE_LOOP_ERROR_NAN));
	assert_non_null(strstr(error->message, "latency_ns="));
	g_clear_error(&error);

	s.nan = false;
	s.calls = 0;
	c = synth_config(tuner_optimizer_random, &space, &s, 1, 1); /* random needs a budget */
	assert_null(tune_run(&c, &error));
	assert_true(g_error_matches(error, TUNER_OPTIMIZER_ERROR, TUNER_OPTIMIZER_ERROR_PARAMS));
	g_clear_error(&error);
	c = synth_config(tuner_optimizer_golden, &space, &s, 1,
			 1); /* golden searches one dimension */
	assert_null(tune_run(&c, &error));
	assert_non_null(strstr(error->message, "one dimension"));
	g_clear_error(&error);
	assert_int_equal(s.calls, 0);
}

/* ---- the simulator ------------------------------------------------------------------------- */

/* A full default PSO on 5 groups, 1 loop, threads, 2 CPUs, as `make bench` times it. */
static TuneRun *simulator_pso(const struct workload *w, const struct knob_space *space, guint jobs)
{
	TuneConfig c = {
		.type = tuner_optimizer_pso,
		.dim = space->dim,
		.map = knob_space_map,
		.map_ctx = (void *)space,
		.evaluator = {
			.objective = workload_objective,
			.objective_ctx = (void *)w,
			.replicates = 1,
			.base_seed = 1,
			.jobs = jobs,
		},
	};

	tuner_optimizer_params_default(&c.params);
	return tune_run(&c, NULL);
}

static void test_simulator_pso(void **state)
{
	struct workload_cli wc;
	struct workload w;
	struct knob_space space;

	(void)state;
	workload_cli_init(&wc);
	assert_true(workload_cli_parse(
		&wc, (const char *const[]){ "-g", "5", "-l", "1", "-T", "--cpus", "2", NULL },
		NULL));
	assert_true(workload_finish(&wc, &w, NULL));
	assert_int_equal(w.nr_tasks, 200);
	knob_space_init(&space, true);

	TuneRun *one = simulator_pso(&w, &space, 1), *two = simulator_pso(&w, &space, 2);

	assert_same_runs(one, two);
	assert_int_equal(one->evaluations->len, 600);

	Knobs def = workload_default_knobs(&w);
	double def_value;

	assert_true(workload_simulate(&w, &def, 1, &def_value, NULL));
	assert_true(tune_run_best(one)->value < def_value);
	tune_run_free(one);
	tune_run_free(two);
	workload_clear(&w);
	workload_cli_clear(&wc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pso_finds_the_bowl),
		cmocka_unit_test(test_golden_on_one_knob),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_evaluations_to_within),
		cmocka_unit_test(test_jobs_do_not_change_the_run),
		cmocka_unit_test(test_resume_after_an_error),
		cmocka_unit_test(test_resume_after_kill9),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_simulator_pso),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
