/*
 * tests/tuner/eval/test_workload.c - the workload's knob set (tuner/eval/workload.h): which knobs
 * a simulation takes from a Knobs, the defaults of the knobs outside CFS's three, and that the
 * simulation obeys migration_cost and base_slice as the kernel does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tuner/eval/workload.h"

/* A --task workload of the flags args (NULL-terminated), built; free with workload_clear. */
static void build(struct workload *w, const char *const *args)
{
	struct workload_cli wc;
	GError *error = NULL;

	workload_cli_init(&wc);
	if (!workload_cli_parse(&wc, args, &error) || !workload_finish(&wc, w, &error))
		fail_msg("%s", error->message);
	workload_cli_clear(&wc);
}

/* Runs w at k: its context switches and migrations. */
static void run(const struct workload *w, const Knobs *k, guint64 *switches, guint64 *migrations)
{
	struct linsched_config cfg = w->cfg;

	knobs_apply(k, w->knobs, &cfg.tun);
	sched_tunables_update(&cfg.tun);

	struct linsched_sim *sim = linsched_sim_new(&cfg);

	for (guint i = 0; i < w->tasks->len; i++)
		task_spec_spawn(sim, &g_array_index(w->tasks, struct task_spec, i));
	linsched_sim_run(sim);
	*switches = linsched_sim_result(sim)->context_switches;
	*migrations = linsched_sim_result(sim)->migrations;
	linsched_sim_free(sim);
}

/* The default set is the profile's own tunables; migration_cost and base_slice come from the
 * profile (eevdf on 2 CPUs: 0.70 ms x (1 + ilog2 2) = 1.4 ms; 500 us everywhere) or the flags. */
static void test_defaults(void **state)
{
	(void)state;
	struct workload w;

	build(&w, (const char *const[]){ "-g", "1", "-l", "1", "--cpus", "2", NULL });
	assert_int_equal(w.knobs, KNOB_SET_CFS);
	Knobs d = workload_default_knobs(&w);
	assert_int_equal(d.latency_ns, 40000000);
	assert_int_equal(d.migration_cost_ns, 500000);
	assert_int_equal(d.base_slice_ns, 0);
	workload_clear(&w);

	build(&w, (const char *const[]){ "-g", "1", "-l", "1", "--cpus", "2", "--profile", "eevdf",
					 "--migration-cost-ns", "250000", NULL });
	assert_int_equal(w.knobs, KNOB_BIT(KNOB_BASE_SLICE));
	d = workload_default_knobs(&w);
	assert_int_equal(d.base_slice_ns, 1400000);
	assert_int_equal(d.migration_cost_ns, 250000);
	assert_int_equal(d.latency_ns, 0);
	workload_clear(&w);
}

/*
 * base_slice is EEVDF's request: on one CPU two tasks that never sleep take turns of one slice
 * (rounded up to the 1 ms tick, the only time the slice is checked). 60 ms of work: 2 ms slices
 * give 30 turns, 10 ms slices 6, so about five times as many switches; with tuned set to
 * base_slice only, the CFS knobs of k (0 here) are never applied.
 */
static void test_base_slice_sets_the_turns(void **state)
{
	(void)state;
	struct workload w;
	guint64 short_sw, long_sw, mig;

	build(&w, (const char *const[]){ "--profile", "eevdf", "--cpus", "1", "--task",
					 "sleeprun:busy_ms=30:sleep_ms=0:count=2:loops=1", NULL });
	Knobs k = workload_default_knobs(&w);

	k.base_slice_ns = 2000000;
	run(&w, &k, &short_sw, &mig);
	k.base_slice_ns = 10000000;
	run(&w, &k, &long_sw, &mig);
	if (!(short_sw >= 25 && short_sw <= 35 && long_sw >= 4 && long_sw <= 9))
		fail_msg("switches: %" G_GUINT64_FORMAT " with 2 ms slices, %" G_GUINT64_FORMAT
			 " with 10 ms",
			 short_sw, long_sw);
	workload_clear(&w);
}

/*
 * migration_cost: a task that ran within it is cache hot, and the load balancer leaves it where
 * it is. Three busy tasks on two CPUs keep one CPU with two: with migration_cost 0 every periodic
 * balance may move one across; with 1 s every task is always hot, so tasks move only after
 * balancing has failed repeatedly: fewer migrations. knobs_apply of a set without migration_cost
 * leaves the workload's own value.
 */
static void test_migration_cost_keeps_hot_tasks(void **state)
{
	(void)state;
	struct workload w;
	guint64 sw, cold, hot, untouched, base;

	build(&w, (const char *const[]){ "--profile", "6.1", "--cpus", "2", "--task",
					 "sleeprun:busy_ms=200:sleep_ms=0:count=3:loops=1", NULL });
	w.knobs = KNOB_SET_CFS | KNOB_BIT(KNOB_MIGRATION_COST);
	Knobs k = workload_default_knobs(&w);

	k.migration_cost_ns = 0;
	run(&w, &k, &sw, &cold);
	k.migration_cost_ns = 1000000000;
	run(&w, &k, &sw, &hot);
	if (!(cold > hot))
		fail_msg("migrations: %" G_GUINT64_FORMAT " cold, %" G_GUINT64_FORMAT " hot", cold,
			 hot);
	w.knobs = KNOB_SET_CFS;
	run(&w, &k, &sw, &untouched);
	k.migration_cost_ns = 500000;
	run(&w, &k, &sw, &base);
	assert_int_equal(untouched, base);
	workload_clear(&w);
}

/*
 * A journal's settings (workload.settings) say what changes a simulation: the preemption model,
 * when not full, and the machine's IPI flight and wakeup tail, when it has them; the defaults
 * add nothing, so that journals written before them still match.
 */
static void test_settings_name_preemption(void **state)
{
	(void)state;
	struct workload w;
	g_autofree char *ini = NULL;
	g_autofree char *plain = NULL;
	int fd = g_file_open_tmp("machine-XXXXXX.ini", &ini, NULL);

	assert_true(fd >= 0);
	close(fd);
	assert_true(
		g_file_set_contents(ini, "[costs]\nipi_ns=25000\nwakeup_tail_ns=4000\n", -1, NULL));
	build(&w, (const char *const[]){ "-g", "1", "-l", "1", "--cpus", "2", NULL });
	plain = g_strdup(w.settings);
	assert_null(strstr(plain, "preempt="));
	assert_null(strstr(plain, "ipi="));
	workload_clear(&w);

	build(&w, (const char *const[]){ "-g", "1", "-l", "1", "--cpus", "2", "--preempt",
					 "voluntary", "--machine", ini, NULL });
	assert_non_null(strstr(w.settings, " preempt=voluntary"));
	assert_non_null(strstr(w.settings, " ipi=25000"));
	assert_non_null(strstr(w.settings, " wakeup_tail=4000"));
	workload_clear(&w);
	g_unlink(ini);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_base_slice_sets_the_turns),
		cmocka_unit_test(test_migration_cost_keeps_hot_tasks),
		cmocka_unit_test(test_settings_name_preemption),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
