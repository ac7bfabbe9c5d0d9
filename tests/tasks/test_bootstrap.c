/*
 * Tests of the bootstrapped hackbench model (tasks/bootstrap.c, SPEC.md section 4).
 *
 * A group of 2F tasks needs solo_ms of the whole machine: each task solo_ms x min(cpus, 2F) / 2F
 * of CPU time at full speed. While a task of another group is alive in its memory domain, a task
 * progresses at degradation x full speed, so it needs its CPU time / degradation. The expected
 * runtimes below follow from that and from the CFS rules of SPEC.md section 3, worked out by hand
 * in the comments. Every machine cost is set to 0 (the cache model included) so that CPU time is
 * the model's demand only.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <unistd.h>

#include <glib/gstdio.h>

#include "tasks/hackbench.h"

#define MS NSEC_PER_MSEC

static struct linsched_config boot_config(unsigned int cpus, unsigned int domains)
{
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, cpus);
	cfg.nr_domains = domains;
	cfg.costs.switch_ns = cfg.costs.wakeup_ns = cfg.costs.migrate_ns = 0;
	cfg.costs.miss_ps = 0;
	assert_true(linsched_config_validate(&cfg, NULL));
	return cfg;
}

static struct hackbench_params boot_params(unsigned int groups, unsigned int fds)
{
	struct hackbench_params p;

	hackbench_params_default(&p);
	p.model = HACKBENCH_BOOTSTRAP;
	p.groups = groups;
	p.fds = fds;
	p.solo_ms = 120;
	p.degradation = 0.9;
	hackbench_params_resolve(&p);
	assert_true(hackbench_params_validate(&p, NULL));
	return p;
}

/* The simulation of p under cfg, run to completion; the caller frees it. */
static struct linsched_sim *run_boot(const struct linsched_config *cfg,
				     const struct hackbench_params *p)
{
	struct linsched_sim *sim = linsched_sim_new(cfg);
	struct hackbench *hb = hackbench_create(sim, p);

	linsched_sim_run(sim);
	const struct linsched_result *res = linsched_sim_result(sim);

	assert_false(res->deadlock);
	assert_int_equal(linsched_sim_nr_tasks(sim), 2 * p->groups * p->fds);
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		assert_true(st.exited);
	}
	/* No messages in this model. */
	assert_int_equal(hackbench_messages(hb), 0);
	hackbench_free(hb);
	return sim;
}

static void assert_near_ns(uint64_t got, double expected, double tolerance, const char *what)
{
	if (fabs((double)got - expected) > tolerance)
		fail_msg("%s: %" G_GUINT64_FORMAT " ns, expected %.0f +- %.0f ns", what, got,
			 expected, tolerance);
}

/* ---- one group -------------------------------------------------------------------------------- */

static void test_one_group_takes_solo(void **state)
{
	(void)state;
	/*
	 * 40 tasks on C CPUs each need 120 x C / 40 ms, 120 x C ms in all: C CPUs kept busy finish in
	 * 120 ms, a tick or two more at most for the tasks' unequal shares at the end.
	 */
	static const struct {
		unsigned int cpus, hz;
	} cases[] = {
		{ 1, 1000 }, { 2, 1000 }, { 4, 1000 }, { 2, 250 }, { 2, 100 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct linsched_config cfg = boot_config(cases[i].cpus, 1);
		struct hackbench_params p = boot_params(1, 20);

		cfg.hz = cases[i].hz;
		struct linsched_sim *sim = run_boot(&cfg, &p);
		const struct linsched_result *res = linsched_sim_result(sim);
		uint64_t tick = NSEC_PER_SEC / cases[i].hz;
		char what[64];

		g_snprintf(what, sizeof(what), "1 group, %u CPUs, HZ %u", cases[i].cpus,
			   cases[i].hz);
		if (res->runtime_ns < 120 * MS || res->runtime_ns > 120 * MS + 2 * tick)
			fail_msg("%s: %" G_GUINT64_FORMAT " ns, expected 120 ms to 2 ticks more",
				 what, res->runtime_ns);
		/* Alone, nothing degrades: each task uses exactly its share at full speed. */
		for (unsigned int t = 0; t < linsched_sim_nr_tasks(sim); t++) {
			struct linsched_task_stats st;

			linsched_task_stats(linsched_sim_task(sim, t), &st);
			assert_int_equal(st.sum_exec_ns, 120 * MS * cases[i].cpus / 40);
		}
		linsched_sim_free(sim);
	}
}

static void test_one_group_with_machine_costs(void **state)
{
	(void)state;
	/*
	 * With the default switch, wakeup and cache costs, 40 tasks on 2 CPUs switch a few dozen
	 * times (8 ms slices): a few microseconds each, still within a tick of the solo runtime.
	 */
	struct linsched_config cfg;
	struct hackbench_params p = boot_params(1, 20);

	linsched_config_init(&cfg, NULL, 2);
	struct linsched_sim *sim = run_boot(&cfg, &p);
	const struct linsched_result *res = linsched_sim_result(sim);

	assert_true(res->runtime_ns > 120 * MS);
	assert_true(res->runtime_ns <= 121 * MS);
	linsched_sim_free(sim);
}

/* ---- two groups ------------------------------------------------------------------------------- */

static void test_two_groups_interleaved_degrade(void **state)
{
	(void)state;
	/*
	 * Two groups in one domain, 2 CPUs, latency = min_granularity = 100 us: every slice is cut
	 * at the next tick, so the 80 tasks take turns a tick at a time and both groups stay alive
	 * until the end. Every task then needs 6 ms / 0.9 of CPU: 80 x 6.667 ms over 2 CPUs =
	 * 2 x 120 / 0.9 = 266.667 ms.
	 */
	struct linsched_config cfg = boot_config(2, 1);
	struct hackbench_params p = boot_params(2, 20);

	cfg.tun.latency = cfg.tun.min_granularity = 100000;
	struct linsched_sim *sim = run_boot(&cfg, &p);

	assert_near_ns(linsched_sim_result(sim)->runtime_ns, 2 * 120e6 / 0.9, 2e6,
		       "2 groups interleaved");
	linsched_sim_free(sim);
}

static void test_degradation_only_while_another_group_lives(void **state)
{
	(void)state;
	/*
	 * One CPU, default knobs (2.6.28 on 1 CPU: latency 20 ms, min_granularity 4 ms). Each of the
	 * 80 tasks needs 120 / 40 = 3 ms at full speed, 3.333 ms degraded, less than its slice
	 * (at least 4 ms at any queue length), so each runs to completion once picked, in vruntime order.
	 * START_DEBIT placed the n-th task forked at min_vruntime + vslice: 20, 10, 6.67, 5 ms for
	 * n = 1..4, 4 ms for every later one (ties run in arrival order). So tasks 5..80 run first,
	 * all degraded (tasks 1..4, of group 0, are alive), then tasks 4, 3, 2, 1 alone with group 1
	 * gone: 76 x 3.333 + 4 x 3 = 265.333 ms. Interleaved to the end it would take 266.667 ms,
	 * run group by group 3 x 40 + 3.333 x 40 = 253.333 ms.
	 */
	struct linsched_config cfg = boot_config(1, 1);
	struct hackbench_params p = boot_params(2, 20);
	struct linsched_sim *sim = run_boot(&cfg, &p);

	assert_near_ns(linsched_sim_result(sim)->runtime_ns, 76 * 3e6 / 0.9 + 4 * 3e6, 100,
		       "2 groups on 1 CPU");
	/* The last four ran undegraded: exactly 3 ms of CPU each. */
	for (unsigned int i = 0; i < 4; i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		assert_int_equal(st.sum_exec_ns, 3 * MS);
	}
	linsched_sim_free(sim);
}

/* Runs 2 groups of one sender and one receiver on 4 CPUs; returns the runtime. */
static uint64_t two_small_groups(unsigned int domains)
{
	struct linsched_config cfg = boot_config(4, domains);
	struct hackbench_params p = boot_params(2, 1);
	struct linsched_sim *sim = run_boot(&cfg, &p);
	const struct sched_system *sys = linsched_sim_sched(sim);

	/*
	 * Fork balancing puts each of the 4 tasks on its own CPU, in creation order (group 0's
	 * receiver and sender, then group 1's): with 2 domains, CPUs 0-1 hold group 0 and CPUs 2-3
	 * group 1, one group per domain.
	 */
	for (unsigned int i = 0; i < 4; i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		assert_int_equal(st.cpu, (int)i);
		assert_int_equal(st.nr_migrations, 0);
		assert_int_equal(cpu_rq(sys, st.cpu)->node, domains == 2 ? (int)(i / 2) : 0);
	}
	uint64_t runtime = linsched_sim_result(sim)->runtime_ns;

	linsched_sim_free(sim);
	return runtime;
}

static void test_one_group_per_domain_no_degradation(void **state)
{
	(void)state;
	/*
	 * 2 tasks a group on 4 CPUs: each needs 120 x min(4, 2) / 2 = 120 ms and has a CPU to itself.
	 * In separate domains nothing degrades: 120 ms. Sharing one domain, each group slows the
	 * other for the whole run: 120 / 0.9 = 133.333 ms.
	 */
	assert_near_ns(two_small_groups(2), 120e6, 10, "one group per domain");
	assert_near_ns(two_small_groups(1), 120e6 / 0.9, 10, "two groups in one domain");
}

/* ---- inputs ----------------------------------------------------------------------------------- */

static void test_validate_bootstrap_inputs(void **state)
{
	(void)state;
	static const struct {
		const char *flag;
		double solo_ms, degradation;
	} bad[] = {
		{ "--solo-ms", 0, 0.9 },       { "--solo-ms", -5, 0.9 },
		{ "--solo-ms", NAN, 0.9 },     { "--degradation", 120, 0 },
		{ "--degradation", 120, 1.5 }, { "--degradation", 120, -0.1 },
		{ "--degradation", 120, NAN },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct hackbench_params p = boot_params(1, 20);
		GError *error = NULL;

		p.solo_ms = bad[i].solo_ms;
		p.degradation = bad[i].degradation;
		assert_false(hackbench_params_validate(&p, &error));
		if (!strstr(error->message, bad[i].flag))
			fail_msg("'%s' does not name %s", error->message, bad[i].flag);
		g_error_free(error);
	}
	/* No slowdown at all is a valid measurement. */
	struct hackbench_params p = boot_params(1, 20);

	p.degradation = 1;
	assert_true(hackbench_params_validate(&p, NULL));
}

/* Writes text to a new temporary file; returns its path (to g_free after unlinking). */
static char *temp_file(const char *text)
{
	GError *error = NULL;
	char *path = NULL;
	int fd = g_file_open_tmp("test_bootstrap-XXXXXX.ini", &path, &error);

	if (fd < 0)
		fail_msg("temporary file: %s", error->message);
	close(fd);
	if (!g_file_set_contents(path, text, -1, &error))
		fail_msg("%s: %s", path, error->message);
	return path;
}

static void test_bootstrap_file(void **state)
{
	(void)state;
	struct hackbench_params p = boot_params(1, 20);
	GError *error = NULL;
	char *path = temp_file(
		"# written by tuner calibrate\n[bootstrap]\nsolo_ms=250.5\ndegradation=0.75\n");

	assert_true(hackbench_load_bootstrap_file(&p, path, &error));
	assert_null(error);
	assert_true(p.solo_ms == 250.5);
	assert_true(p.degradation == 0.75);
	g_unlink(path);

	/* The values drive the model: one group alone takes the new solo runtime. */
	struct linsched_config cfg = boot_config(2, 1);
	struct linsched_sim *sim = run_boot(&cfg, &p);

	assert_near_ns(linsched_sim_result(sim)->runtime_ns, 250.5e6, 2e6, "solo_ms from the file");
	linsched_sim_free(sim);
	g_free(path);

	/* A missing key, a missing file: the error names the flag and the file. */
	path = temp_file("[bootstrap]\nsolo_ms=250.5\n");
	p = boot_params(1, 20);
	assert_false(hackbench_load_bootstrap_file(&p, path, &error));
	assert_non_null(strstr(error->message, "--bootstrap-file"));
	assert_non_null(strstr(error->message, path));
	assert_null(strchr(error->message, '\n'));
	/* Nothing changed on failure. */
	assert_true(p.solo_ms == 120);
	assert_true(p.degradation == 0.9);
	g_clear_error(&error);
	g_unlink(path);
	g_free(path);

	assert_false(hackbench_load_bootstrap_file(&p, "/nonexistent-dir/boot.ini", &error));
	assert_non_null(strstr(error->message, "--bootstrap-file"));
	assert_non_null(strstr(error->message, "/nonexistent-dir/boot.ini"));
	g_clear_error(&error);

	/* Values the model cannot use: the error names the key, and nothing changes. */
	static const char *const bad[][2] = {
		{ "solo_ms=0\ndegradation=0.5\n", "solo_ms" },
		{ "solo_ms=-2\ndegradation=0.5\n", "solo_ms" },
		{ "solo_ms=nan\ndegradation=0.5\n", "solo_ms" },
		{ "solo_ms=inf\ndegradation=0.5\n", "solo_ms" },
		{ "solo_ms=100\ndegradation=1.5\n", "degradation" },
		{ "solo_ms=100\ndegradation=0\n", "degradation" },
		{ "solo_ms=100\ndegradation=x\n", "degradation" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *text = g_strconcat("[bootstrap]\n", bad[i][0], NULL);
		path = temp_file(text);
		assert_false(hackbench_load_bootstrap_file(&p, path, &error));
		if (!strstr(error->message, bad[i][1]) || !strstr(error->message, path))
			fail_msg("%s: error '%s' does not name %s", bad[i][0], error->message,
				 bad[i][1]);
		assert_true(p.solo_ms == 120 && p.degradation == 0.9);
		g_clear_error(&error);
		g_unlink(path);
		g_free(path);
	}
}

static void test_json_has_bootstrap_inputs(void **state)
{
	(void)state;
	struct hackbench_params p = boot_params(1, 20);
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, false);
	json_begin_object(&w);
	hackbench_write_json(&p, &w);
	json_end_object(&w);
	assert_non_null(strstr(out->str, "\"model\":\"bootstrap\""));
	assert_non_null(strstr(out->str, "\"solo_ms\":120"));
	assert_non_null(strstr(out->str, "\"degradation\":0.9"));

	/* The FSM model has no such inputs. */
	p.model = HACKBENCH_FSM;
	g_string_truncate(out, 0);
	json_init(&w, out, false);
	json_begin_object(&w);
	hackbench_write_json(&p, &w);
	json_end_object(&w);
	assert_non_null(strstr(out->str, "\"model\":\"fsm\""));
	assert_null(strstr(out->str, "solo_ms"));
	assert_null(strstr(out->str, "degradation"));
	g_string_free(out, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_group_takes_solo),
		cmocka_unit_test(test_one_group_with_machine_costs),
		cmocka_unit_test(test_two_groups_interleaved_degrade),
		cmocka_unit_test(test_degradation_only_while_another_group_lives),
		cmocka_unit_test(test_one_group_per_domain_no_degradation),
		cmocka_unit_test(test_validate_bootstrap_inputs),
		cmocka_unit_test(test_bootstrap_file),
		cmocka_unit_test(test_json_has_bootstrap_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
