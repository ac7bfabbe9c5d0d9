/*
 * Tests of tasks/: the --task specification and the models it creates (cpu, sleeprun,
 * randsleeprun).
 *
 * The random models are measured through the simulation, with no costs and one task alone on one
 * CPU, so that every on-CPU interval the switch hook sees is exactly one burst and every off-CPU
 * interval exactly one sleep. Their sample means must match busy_ms and sleep_ms, their
 * coefficients of variation the distribution's (1 for the exponential, cv for the others), and
 * the fraction of draws below the mean the distribution's CDF at the mean, computed with GSL:
 * 1 - e^-1 for the exponential, 1/2 for the normal, Phi(sigma / 2) for the lognormal with
 * sigma^2 = ln(1 + cv^2).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "tasks/tasks.h"

#define MS NSEC_PER_MSEC

/* ---- parsing ---------------------------------------------------------------------------------- */

static struct task_spec parse_ok(const char *text)
{
	struct task_spec spec;
	GError *error = NULL;

	if (!task_spec_parse(text, &spec, &error))
		fail_msg("'%s' rejected: %s", text, error->message);
	assert_null(error);
	return spec;
}

/* Rejected, with a one-line message that names the flag and every word in `names`. */
static void parse_bad(const char *text, const char *const *names)
{
	struct task_spec spec;
	GError *error = NULL;

	if (task_spec_parse(text, &spec, &error))
		fail_msg("'%s' accepted", text);
	assert_non_null(error);
	assert_null(strchr(error->message, '\n'));
	if (!strstr(error->message, "--task"))
		fail_msg("'%s': '%s' does not name --task", text, error->message);
	for (size_t i = 0; names[i]; i++)
		if (!strstr(error->message, names[i]))
			fail_msg("'%s': '%s' does not name '%s'", text, error->message, names[i]);
	g_error_free(error);
}

#define BAD(text, ...) parse_bad(text, (const char *const[]){ __VA_ARGS__, NULL })

static void test_parse_examples(void **state)
{
	(void)state;
	struct task_spec s = parse_ok("cpu:nice=0");

	assert_string_equal(s.kind, "cpu");
	assert_int_equal(s.nice, 0);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.loops, 0);

	s = parse_ok("cpu:nice=5:count=2");
	assert_string_equal(s.kind, "cpu");
	assert_int_equal(s.nice, 5);
	assert_int_equal(s.count, 2);

	s = parse_ok("sleeprun:busy_ms=1:sleep_ms=3:count=40");
	assert_string_equal(s.kind, "sleeprun");
	assert_true(s.busy_ms == 1.0);
	assert_true(s.sleep_ms == 3.0);
	assert_int_equal(s.count, 40);
	assert_int_equal(s.nice, 0);
	assert_int_equal(s.loops, 0);

	s = parse_ok("randsleeprun:busy_ms=1:sleep_ms=3:dist=lognormal:cv=0.5");
	assert_string_equal(s.kind, "randsleeprun");
	assert_int_equal(s.dist, DIST_LOGNORMAL);
	assert_true(s.cv == 0.5);

	s = parse_ok("randsleeprun:busy_ms=2.5:sleep_ms=0.25:dist=exponential:nice=-3:loops=7");
	assert_int_equal(s.dist, DIST_EXPONENTIAL);
	assert_true(s.busy_ms == 2.5);
	assert_true(s.sleep_ms == 0.25);
	assert_int_equal(s.nice, -3);
	assert_int_equal(s.loops, 7);

	s = parse_ok("randsleeprun:dist=normal:cv=0.2:busy_ms=4:sleep_ms=1");
	assert_int_equal(s.dist, DIST_NORMAL);
	assert_true(s.cv == 0.2);

	/* cv defaults to 0.5 (tasks.h) */
	s = parse_ok("randsleeprun:busy_ms=1:sleep_ms=1:dist=normal");
	assert_true(s.cv == 0.5);

	/* the ends of the nice range, and a bare kind */
	assert_int_equal(parse_ok("cpu:nice=-20").nice, -20);
	assert_int_equal(parse_ok("cpu:nice=19").nice, 19);
	s = parse_ok("cpu");
	assert_int_equal(s.nice, 0);
	assert_int_equal(s.count, 1);
	/* a slice of its own, in sched_setattr's range 0.1 .. 100 ms; none by default */
	assert_int_equal(parse_ok("cpu").slice_ns, 0);
	assert_int_equal(parse_ok("cpu:slice_ns=100000").slice_ns, 100000);
	assert_int_equal(parse_ok("sleeprun:slice_ns=100000000").slice_ns, 100000000);
	/* a task may sleep without running or run without sleeping */
	assert_true(parse_ok("sleeprun:busy_ms=0:sleep_ms=3").busy_ms == 0.0);
	assert_true(parse_ok("sleeprun:busy_ms=3:sleep_ms=0").sleep_ms == 0.0);
}

static void test_parse_rejects(void **state)
{
	(void)state;
	BAD("bogus", "bogus");
	BAD("bogus:nice=0", "bogus");
	BAD("", "kind");
	BAD("CPU", "CPU");
	BAD("cpu:nice=20", "nice");
	BAD("cpu:nice=-21", "nice");
	BAD("cpu:nice=abc", "nice", "abc");
	BAD("cpu:nice=1.5", "nice");
	BAD("cpu:nice=", "nice");
	BAD("cpu:nice", "nice");
	BAD("cpu:count=0", "count");
	BAD("cpu:count=-1", "count");
	BAD("cpu:busy_ms=1", "busy_ms"); /* cpu tasks have no bursts */
	BAD("cpu:foo=1", "foo");
	BAD("cpu:nice=5:", "");		     /* an empty pair */
	BAD("sleeprun:dist=normal", "dist"); /* only randsleeprun draws */
	BAD("sleeprun:cv=0.5", "cv");
	BAD("sleeprun:busy_ms=-1", "busy_ms");
	BAD("sleeprun:busy_ms=x", "busy_ms");
	BAD("sleeprun:sleep_ms=1ms", "sleep_ms");
	BAD("sleeprun:sleep_ms=nan", "sleep_ms");
	BAD("sleeprun:sleep_ms=inf", "sleep_ms");
	BAD("sleeprun:loops=-2", "loops");
	BAD("sleeprun:loops=many", "loops");
	BAD("sleeprun:busy_ms=0:sleep_ms=0", "busy_ms");
	BAD("randsleeprun:dist=uniform", "dist", "uniform");
	BAD("randsleeprun:cv=-0.5", "cv");
	BAD("randsleeprun:cv=abc", "cv");
	BAD("cpu:slice_ns=99999", "slice_ns");
	BAD("cpu:slice_ns=100000001", "slice_ns");
	BAD("cpu:slice_ns=1.5", "slice_ns");
	/* Issue 16, defect 7: a key given twice took the last value; an exponential draw's cv is 1,
	 * so a cv beside it was silently ignored. */
	BAD("cpu:nice=5:nice=-5", "nice", "twice");
	BAD("sleeprun:loops=3:busy_ms=1:loops=4", "loops", "twice");
	BAD("randsleeprun:cv=0.3", "cv", "exponential");
	BAD("randsleeprun:dist=exponential:cv=0.3", "cv", "exponential");
}

/* ---- spawning and the deterministic models ------------------------------------------------------ */

static struct linsched_sim *sim_1cpu_no_costs(uint64_t seed)
{
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 1);
	cfg.costs.switch_ns = 0;
	cfg.costs.wakeup_ns = 0;
	cfg.costs.migrate_ns = 0;
	cfg.costs.miss_ps = 0;
	cfg.seed = seed;
	assert_true(linsched_config_validate(&cfg, NULL));
	return linsched_sim_new(&cfg);
}

static void test_spawn(void **state)
{
	(void)state;
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 2);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct task_spec a = parse_ok("cpu:nice=5:count=2");
	struct task_spec b = parse_ok("sleeprun:busy_ms=1:sleep_ms=3:count=40:nice=-1");

	task_spec_spawn(sim, &a);
	task_spec_spawn(sim, &b);
	assert_int_equal(linsched_sim_nr_tasks(sim), 42);

	GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);

	for (unsigned int i = 0; i < 42; i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		assert_int_equal(st.id, (int)i);
		assert_int_equal(st.nice, i < 2 ? 5 : -1);
		assert_true(strlen(st.name) > 0 && strlen(st.name) < LINSCHED_COMM_LEN);
		assert_true(g_hash_table_add(names, (gpointer)st.name)); /* distinct */
	}
	g_hash_table_destroy(names);
	linsched_sim_free(sim);
}

/*
 * sleeprun alone, no costs: 10 cycles of 2 ms busy and 3 ms asleep, then exit, at 50 ms, after
 * 20 ms of CPU, 10 sleeps and an exit (11 voluntary switches).
 */
static void test_sleeprun_exact(void **state)
{
	(void)state;
	struct linsched_sim *sim = sim_1cpu_no_costs(1);
	struct task_spec s = parse_ok("sleeprun:busy_ms=2:sleep_ms=3:loops=10");
	struct linsched_task_stats st;

	task_spec_spawn(sim, &s);
	linsched_sim_run(sim);
	linsched_task_stats(linsched_sim_task(sim, 0), &st);
	assert_true(st.exited);
	assert_int_equal(st.exit_ns, 50 * MS);
	assert_int_equal(st.sum_exec_ns, 20 * MS);
	assert_int_equal(st.nvcsw, 11);
	assert_int_equal(st.nivcsw, 0);
	assert_int_equal(st.pcount, 11);
	linsched_sim_free(sim);
}

/* cpu never stops: alone on a CPU for 1 s it has all of it, in one switch-in. */
static void test_cpu_model(void **state)
{
	(void)state;
	struct linsched_sim *sim = sim_1cpu_no_costs(1);
	struct linsched_config cfg = *linsched_sim_config(sim);
	struct linsched_task_stats st;

	linsched_sim_free(sim);
	cfg.duration_ns = NSEC_PER_SEC;
	sim = linsched_sim_new(&cfg);
	cpu_task_create(sim, "hog", 0);
	linsched_sim_run(sim);
	linsched_task_stats(linsched_sim_task(sim, 0), &st);
	assert_false(st.exited);
	assert_int_equal(st.sum_exec_ns, NSEC_PER_SEC);
	assert_int_equal(st.pcount, 1);
	assert_int_equal(st.nvcsw + st.nivcsw, 0);
	linsched_sim_free(sim);
}

/* ---- the random model ------------------------------------------------------------------------- */

/* Bursts (on-CPU intervals) and sleeps (off-CPU intervals) of a task alone on CPU 0, in ms. */
struct intervals {
	GArray *bursts, *sleeps;
	uint64_t since;
};

static void on_switch(void *ctx, int cpu, uint64_t now, const struct linsched_task *prev,
		      const struct linsched_task *next)
{
	struct intervals *iv = ctx;
	double ms = (double)(now - iv->since) / (double)MS;

	(void)cpu;
	if (prev)
		g_array_append_val(iv->bursts, ms);
	else if (now > 0)
		g_array_append_val(iv->sleeps, ms);
	(void)next;
	iv->since = now;
}

static double fraction_below(const GArray *a, double x)
{
	guint n = 0;

	for (guint i = 0; i < a->len; i++)
		n += g_array_index(a, double, i) < x;
	return (double)n / a->len;
}

struct draw_stats {
	double mean, cv, below_mean;
};

static struct draw_stats stats(const GArray *a)
{
	const double *x = (const double *)(const void *)a->data;
	struct draw_stats s;

	s.mean = gsl_stats_mean(x, 1, a->len);
	s.cv = gsl_stats_sd_m(x, 1, a->len, s.mean) / s.mean;
	s.below_mean = fraction_below(a, s.mean);
	return s;
}

/* The distribution's own CDF at its mean, and its coefficient of variation. */
static void expected_shape(enum task_dist dist, double cv, double *below_mean, double *want_cv)
{
	switch (dist) {
	case DIST_EXPONENTIAL:
		*below_mean = gsl_cdf_exponential_P(1.0, 1.0);
		*want_cv = 1.0;
		return;
	case DIST_NORMAL:
		*below_mean = 0.5;
		*want_cv = cv;
		return;
	case DIST_LOGNORMAL:
		*below_mean = gsl_cdf_ugaussian_P(sqrt(log1p(cv * cv)) / 2.0);
		*want_cv = cv;
		return;
	}
	fail();
}

/*
 * N cycles of one randsleeprun task alone: the mean burst is sum_exec / N, and the hook sees each
 * burst and sleep. Means within 3% (the largest standard error, cv 1.2: 1.2/sqrt(N) = 0.85%),
 * the fraction below the mean within 0.02 (standard error 0.0035), the cv within cv_tol: the
 * sample sd's relative standard error is about sqrt((kurtosis - 1) / 4N), 1% for the exponential
 * and the lognormal of cv 0.5, but 3% for the lognormal of cv 1.2 (kurtosis about 80).
 */
static void check_random_model(const char *text, double cv_tol)
{
	enum {
		N = 20000
	};
	struct task_spec spec = parse_ok(text);
	struct linsched_sim *sim = sim_1cpu_no_costs(42);
	struct intervals iv = {
		.bursts = g_array_new(FALSE, FALSE, sizeof(double)),
		.sleeps = g_array_new(FALSE, FALSE, sizeof(double)),
	};
	struct linsched_task_stats st;

	spec.loops = N;
	linsched_sim_set_switch_hook(sim, on_switch, &iv);
	task_spec_spawn(sim, &spec);
	linsched_sim_run(sim);
	linsched_task_stats(linsched_sim_task(sim, 0), &st);
	assert_true(st.exited);

	double mean_burst = (double)st.sum_exec_ns / N / (double)MS;
	double mean_sleep = (double)(st.exit_ns - st.sum_exec_ns) / N / (double)MS;

	if (fabs(mean_burst / spec.busy_ms - 1) > 0.03 ||
	    fabs(mean_sleep / spec.sleep_ms - 1) > 0.03)
		fail_msg("%s: mean burst %.4f ms (want %.4f), mean sleep %.4f ms (want %.4f)", text,
			 mean_burst, spec.busy_ms, mean_sleep, spec.sleep_ms);

	/* N bursts, the last one ending with the exit, and N sleeps (a draw of 0 ms is no sleep) */
	assert_int_equal(iv.bursts->len, st.pcount);
	assert_true(iv.bursts->len <= N + 1);
	assert_true(iv.sleeps->len <= N);
	assert_true(iv.sleeps->len >= N * 95 / 100);

	double below = NAN, want_cv = NAN;

	expected_shape(spec.dist, spec.cv, &below, &want_cv);
	struct draw_stats b = stats(iv.bursts), s = stats(iv.sleeps);

	printf("      %s: bursts mean %.4f ms cv %.3f below-mean %.3f; sleeps mean %.4f ms cv %.3f below-mean "
	       "%.3f; expected cv %.3f below-mean %.3f\n",
	       text, b.mean, b.cv, b.below_mean, s.mean, s.cv, s.below_mean, want_cv, below);
	assert_true(fabs(b.cv / want_cv - 1) < cv_tol);
	assert_true(fabs(s.cv / want_cv - 1) < cv_tol);
	assert_true(fabs(b.below_mean - below) < 0.02);
	assert_true(fabs(s.below_mean - below) < 0.02);

	g_array_free(iv.bursts, TRUE);
	g_array_free(iv.sleeps, TRUE);
	linsched_sim_free(sim);
}

static void test_randsleeprun_exponential(void **state)
{
	(void)state;
	check_random_model("randsleeprun:busy_ms=1:sleep_ms=2:dist=exponential", 0.05);
}

static void test_randsleeprun_normal(void **state)
{
	(void)state;
	/* cv 0.3: a draw below zero (clamped to 0) is a 1-in-3000 event and moves nothing */
	check_random_model("randsleeprun:busy_ms=1:sleep_ms=2:dist=normal:cv=0.3", 0.05);
}

static void test_randsleeprun_lognormal(void **state)
{
	(void)state;
	check_random_model("randsleeprun:busy_ms=1:sleep_ms=2:dist=lognormal", 0.05);
	check_random_model("randsleeprun:busy_ms=0.5:sleep_ms=3:dist=lognormal:cv=1.2", 0.15);
}

/* Each task draws from its own stream: two tasks of one spec do not run in lockstep. */
static void test_randsleeprun_tasks_differ(void **state)
{
	(void)state;
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 2);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct task_spec spec =
		parse_ok("randsleeprun:busy_ms=1:sleep_ms=1:count=2:loops=50:dist=exponential");
	struct linsched_task_stats a, b;

	task_spec_spawn(sim, &spec);
	linsched_sim_run(sim);
	linsched_task_stats(linsched_sim_task(sim, 0), &a);
	linsched_task_stats(linsched_sim_task(sim, 1), &b);
	assert_true(a.exited && b.exited);
	assert_true(a.sum_exec_ns != b.sum_exec_ns);
	linsched_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_examples),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_spawn),
		cmocka_unit_test(test_sleeprun_exact),
		cmocka_unit_test(test_cpu_model),
		cmocka_unit_test(test_randsleeprun_exponential),
		cmocka_unit_test(test_randsleeprun_normal),
		cmocka_unit_test(test_randsleeprun_lognormal),
		cmocka_unit_test(test_randsleeprun_tasks_differ),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
