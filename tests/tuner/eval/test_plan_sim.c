/*
 * tests/tuner/eval/test_plan_sim.c - the real plans' settings simulated (tuner/eval/plan_sim.h):
 * each setting's time and switches are what `linsched hackbench` gives at those knobs with the
 * plan's workload, the ratios are to the reference with the same seed (medians over replicates,
 * worked out here from linsched's own runs), the whole run's switches include the set-up, and the
 * values do not depend on the number of threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/assert_close.h"
#include "tests/support/json_strict.h"
#include "tests/support/support.h"
#include "tuner/eval/plan_sim.h"
#include "tuner/stats/median.h"

/* Three settings, one round; the workload is small enough to simulate in milliseconds. */
static const char plan_csv[] =
	"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
	"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs\n"
	"0,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok\n"
	"1,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok\n"
	"2,0,lat3,3000000,1500000,2000000,250000,0.8,0.9,500,0,ok\n";

/* A set of one training plan, name, of the fixture's workload: csv written to dir/name.csv. */
static PlanSet *set_of_csv(const char *dir, const char *name, const char *csv)
{
	g_autofree char *file = g_strconcat(name, ".csv", NULL);
	g_autofree char *path = g_build_filename(dir, file, NULL);
	PlanSet *set = plan_set_new();
	GError *error = NULL;

	assert_true(g_file_set_contents(path, csv, -1, NULL));
	if (!plan_set_add(set, name, path, "hackbench -T -g 2 -l 10 -f 4", PLAN_ROLE_TRAIN, NULL,
			  &error))
		fail_msg("%s", error->message);
	return set;
}

static PlanSet *fixture_set(const char *dir)
{
	return set_of_csv(dir, "small", plan_csv);
}

/* The flags as a command line gives them (a value set in the struct is not given), with up to
 * two more flags and their values (NULL: none). */
static void flags_init_with(struct workload_cli *wc, const char *flag1, const char *value1,
			    const char *flag2, const char *value2)
{
	const char *const args[] = { "--profile", "6.1", "--cpus", "2",	  "--hz", "250", "--start",
				     "parent",	  flag1, value1,   flag2, value2, NULL };
	GError *error = NULL;

	workload_cli_init(wc);
	if (!workload_cli_parse(wc, args, &error))
		fail_msg("%s", error->message);
}

/* The flags of flags_init_with, then these (NULL-terminated). */
static void flags_init_argv(struct workload_cli *wc, const char *const *extra)
{
	g_autoptr(GPtrArray) args = g_ptr_array_new();
	static const char *const base[] = { "--profile", "6.1", "--cpus",  "2",
					    "--hz",	 "250", "--start", "parent" };
	GError *error = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(base); i++)
		g_ptr_array_add(args, (gpointer)base[i]);
	for (size_t i = 0; extra[i]; i++)
		g_ptr_array_add(args, (gpointer)extra[i]);
	g_ptr_array_add(args, NULL);
	workload_cli_init(wc);
	if (!workload_cli_parse(wc, (const char *const *)args->pdata, &error))
		fail_msg("%s", error->message);
}

static void flags_init(struct workload_cli *wc, const char *jitter)
{
	flags_init_with(wc, jitter ? "--cost-jitter" : NULL, jitter, NULL, NULL);
}

/* linsched hackbench at one setting of the fixture: its runtime and measured switches. */
static void linsched_at(const char *lat, const char *wake, const char *mig, const char *seed,
			const char *jitter, double *runtime_ns, double *switches)
{
	struct run r = run_program(LINSCHED,
				   (const char *const[]){ "hackbench",
							  "--profile",
							  "6.1",
							  "--cpus",
							  "2",
							  "--hz",
							  "250",
							  "--start",
							  "parent",
							  "-T",
							  "-g",
							  "2",
							  "-l",
							  "10",
							  "-f",
							  "4",
							  "--latency-ns",
							  lat,
							  "--min-gran-ns",
							  "1500000",
							  "--wakeup-gran-ns",
							  wake,
							  "--migration-cost-ns",
							  mig,
							  "--seed",
							  seed,
							  "--cost-jitter",
							  jitter,
							  "--format",
							  "json",
							  NULL },
				   NULL);

	expect_clean_exit(&r, "linsched hackbench");
	struct json *j = json_parse(r.out);

	*runtime_ns = json_number_at(j, "runtime_ns");
	*switches = json_number_at(j, "context_switches");
	json_free(j);
	run_clear(&r);
}

/* The first plan's three settings simulated, with the twins' stalls the host's or the guest's. */
static SimSetting *simulate_with(const PlanSet *set, const struct workload_cli *wc, guint jobs,
				 guint replicates, gboolean guest_stalls)
{
	EvaluatorConfig config = { .replicates = 1, .jobs = jobs };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	PlanSim ps = { wc, replicates, ev, guest_stalls };
	SimSetting **sims = NULL;
	GError *error = NULL;

	if (!plan_sim_run(&ps, set, NULL, &sims, &error))
		fail_msg("%s", error->message);
	SimSetting *one = g_memdup2(sims[0], 3 * sizeof(SimSetting));

	plan_sim_free(sims, 1);
	return one;
}

static SimSetting *simulate(const PlanSet *set, const struct workload_cli *wc, guint jobs,
			    guint replicates)
{
	return simulate_with(set, wc, jobs, replicates, FALSE);
}

/*
 * Rows: defaults, wake0, lat3 (the reference first). Each is linsched hackbench at its knobs (lat3
 * with its own migration cost); the ratio is over the defaults' runtime; the whole run's switches
 * exceed the measured ones by the parent start's set-up. One thread or two: the same values.
 */
static void test_like_linsched(void **state)
{
	g_autoptr(PlanSet) set = fixture_set(*state);
	struct workload_cli wc;

	flags_init(&wc, NULL);
	g_autofree SimSetting *sim = simulate(set, &wc, 2, 1);
	g_autofree SimSetting *inline_sim = simulate(set, &wc, 1, 1);
	double def_t, def_sw, w0_t, w0_sw, l3_t, l3_sw;

	linsched_at("12000000", "2000000", "500000", "1", "0", &def_t, &def_sw);
	linsched_at("12000000", "0", "500000", "1", "0", &w0_t, &w0_sw);
	linsched_at("3000000", "2000000", "250000", "1", "0", &l3_t, &l3_sw);

	assert_string_equal(real_plan_setting(plan_set_plan(set, 0)->real, 0)->id, "defaults");
	assert_close(sim[0].ratio, 1.0, 0);
	assert_close(sim[0].runtime_ns, def_t, 0);
	assert_close(sim[0].switches_measured, def_sw, 0);
	assert_close(sim[1].runtime_ns, w0_t, 0);
	assert_close(sim[1].ratio, w0_t / def_t, 1e-15);
	assert_close(sim[1].switches_measured, w0_sw, 0);
	assert_close(sim[2].runtime_ns, l3_t, 0);
	assert_close(sim[2].ratio, l3_t / def_t, 1e-15);
	for (int i = 0; i < 3; i++) {
		/* the parent creates 16 workers and wakes them: set-up switches */
		assert_true(sim[i].switches > sim[i].switches_measured + 16);
		assert_true(isfinite(sim[i].switches));
	}
	assert_memory_equal(sim, inline_sim, 3 * sizeof(SimSetting));
	workload_cli_clear(&wc);
}

static double median3(double a, double b, double c)
{
	return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/*
 * With --cost-jitter 0.3 and three replicates (seeds 1, 2, 3), wake0's ratio is the median of
 * the three same-seed ratios and its runtime the median of its three runtimes, each run as
 * linsched hackbench --seed S.
 */
static void test_replicates(void **state)
{
	g_autoptr(PlanSet) set = fixture_set(*state);
	struct workload_cli wc;
	double d[3], w[3], sw;
	const char *seeds[] = { "1", "2", "3" };

	flags_init(&wc, "0.3");
	g_autofree SimSetting *sim = simulate(set, &wc, 2, 3);

	for (int r = 0; r < 3; r++) {
		linsched_at("12000000", "2000000", "500000", seeds[r], "0.3", &d[r], &sw);
		linsched_at("12000000", "0", "500000", seeds[r], "0.3", &w[r], &sw);
	}
	assert_false(d[0] == d[1] && d[1] == d[2]); /* the jitter makes replicates differ */
	assert_close(sim[1].ratio, median3(w[0] / d[0], w[1] / d[1], w[2] / d[2]), 1e-15);
	assert_close(sim[1].runtime_ns, median3(w[0], w[1], w[2]), 0);
	assert_close(sim[0].ratio, 1.0, 0);
	workload_cli_clear(&wc);
}

/* linsched hackbench of the fixture's workload with the flags extra (NULL-terminated): its
 * runtime. */
static double linsched_runtime(const char *const *extra)
{
	static const char *const base[] = {
		"hackbench",	 "--profile", "6.1",	  "--cpus", "2",  "--hz", "250", "--start",
		"parent",	 "-T",	      "-g",	  "2",	    "-l", "10",	  "-f",	 "4",
		"--min-gran-ns", "1500000",   "--format", "json"
	};
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	for (size_t i = 0; i < G_N_ELEMENTS(base); i++)
		g_ptr_array_add(argv, (gpointer)base[i]);
	for (size_t i = 0; extra[i]; i++)
		g_ptr_array_add(argv, (gpointer)extra[i]);
	g_ptr_array_add(argv, NULL);

	struct run r = run_program(LINSCHED, (const char *const *)argv->pdata, NULL);

	expect_clean_exit(&r, "linsched hackbench with steal");
	struct json *j = json_parse(r.out);
	double t = json_number_at(j, "runtime_ns");

	json_free(j);
	run_clear(&r);
	return t;
}

/* linsched hackbench at the fixture's defaults with the steal flags given: its runtime. */
static double linsched_with(const char *lat, const char *wake, const char *seed, const char *steal,
			    const char *stall_ns, const char *stall_cv)
{
	return linsched_runtime((const char *const[]){
		"--latency-ns", lat, "--wakeup-gran-ns", wake, "--seed", seed, "--steal", steal,
		"--stall-ns", stall_ns, "--stall-cv", stall_cv, NULL });
}

/* linsched hackbench at the fixture's defaults with the steal flags given, seed 1. */
static double linsched_defaults_with(const char *steal, const char *stall_ns)
{
	return linsched_with("12000000", "2000000", "1", steal, stall_ns, "1");
}

/* linsched hackbench at the fixture's knobs (wakeup granularity wake), seed, in spells: the
 * steal (F, stall NS, exponential) apart and turns on one host CPU, the spells' lengths given. */
static double linsched_spells(const char *wake, const char *seed, const char *steal,
			      const char *stall_ns, const char *shared_ns, const char *apart_ns)
{
	return linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", wake, "--seed", seed, "--steal",
		steal, "--stall-ns", stall_ns, "--stall-cv", "1", "--host-cpus", "1", "--shared-ns",
		shared_ns, "--apart-ns", apart_ns, NULL });
}

/*
 * A machine in spells of 5 ms each (one host CPU for the turns) and a plan whose runs carry the
 * share of their time the host had the vCPUs share a host CPU (shared_pct: 30, 0, 100, 60 %;
 * median 45, for the two runs without). Each twin spends its run's share in turns, over the
 * machine's cycle of 10 ms: the defaults' round 0 (30 %) spells of 3 and 7 ms, round 1 (the
 * median, 45 %) 4.5 and 5.5 ms; wake0's round 0 (0 %) the steal alone, round 1 (100 %) the turns
 * alone. --shared-ns given keeps the spells as the flags say.
 */
static void test_measured_placement(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns,shared_pct\n"
		"0,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,200000,1000000,30\n"
		"1,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,300000,2000000,0\n"
		"2,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,300000,2000000,\n"
		"3,1,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,400000,6000000,\n"
		"4,1,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,300000,2000000,100\n"
		"5,1,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,300000,2000000,60\n";
	g_autoptr(PlanSet) set = set_of_csv(*state, "placed", csv);
	EvaluatorConfig config = { .replicates = 1, .jobs = 2 };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	struct linsched_machine m;
	struct workload_cli wc;
	SimSetting **sims = NULL;
	GError *error = NULL;

	assert_close(plan_set_plan(set, 0)->real->shared_pct, 45, 0);
	linsched_machine_builtin(&m);
	m.host_cpus = 1;
	m.shared_ns = m.apart_ns = 5000000;
	m.stall_ns = 1000000;
	flags_init(&wc, NULL);
	if (!plan_sim_run(&(PlanSim){ &wc, 1, ev, FALSE }, set, &m, &sims, &error))
		fail_msg("%s", error->message);

	double d0 = linsched_spells("2000000", "1", "0.2", "1000000", "3000000", "7000000");
	double d1 = linsched_spells("2000000", "2", "0.4", "6000000", "4500000", "5500000");
	double w0 = linsched_with("12000000", "0", "1", "0.3", "2000000", "1");
	double w1 = linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", "0", "--seed", "2", "--stall-ns",
		"2000000", "--stall-cv", "1", "--host-cpus", "1", NULL });
	double q[2] = { w0 / d0, w1 / d1 };

	assert_string_equal(real_plan_setting(plan_set_plan(set, 0)->real, 1)->id, "wake0");
	assert_close(sims[0][0].runtime_ns, (d0 + d1) / 2, 1e-9);
	assert_close(sims[0][1].ratio, stats_median(q, 2), 1e-12);
	plan_sim_free(sims, 1);
	workload_cli_clear(&wc);

	/* The flags' spells win: every twin in spells of 5 ms each, whatever its run's share. */
	flags_init_with(&wc, "--shared-ns", "5000000", NULL, NULL);
	if (!plan_sim_run(&(PlanSim){ &wc, 1, ev, FALSE }, set, &m, &sims, &error))
		fail_msg("%s", error->message);
	double f0 = linsched_spells("2000000", "1", "0.2", "1000000", "5000000", "5000000");
	double f1 = linsched_spells("2000000", "2", "0.4", "6000000", "5000000", "5000000");

	assert_close(sims[0][0].runtime_ns, (f0 + f1) / 2, 1e-9);
	plan_sim_free(sims, 1);
	workload_cli_clear(&wc);
}

/*
 * A plan whose runs carry the host's steal: the plan's medians over the runs that have it,
 * steal (200000, 300000, 400000 ppm; lat3's "-1" and wake0's empty field are no measurement)
 * 300000 and stall (1, 2, 6 ms) 2 ms. It is simulated run by run (plan_sim.h, "Twins"): each run
 * with its own steal and seed 1 + its round, a run without a measurement with the plan's medians;
 * the defaults' runtime is the median (the mean of two) of its twins, rounds 0 (0.2, 1 ms, seed 1)
 * and 1 (0.4, 6 ms, seed 2); wake0's ratio the median of its two rounds' ratios to the defaults'
 * twins, round 0's wake0 at the plan's medians; lat3, in round 0 only, its one ratio. The steal
 * flags win over the measurement (no twins then), and --stall-ns alone replaces the measured
 * stall of every twin.
 */
static void test_measured_steal(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns\n"
		"0,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,,\n"
		"1,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,200000,1000000\n"
		"2,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,-1,-1\n"
		"3,1,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,400000,6000000\n"
		"4,1,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,300000,2000000\n";
	g_autoptr(PlanSet) set = set_of_csv(*state, "stolen", csv);
	struct workload_cli wc;
	const RealPlan *real = plan_set_plan(set, 0)->real;

	assert_int_equal(real->steal_runs, 3);
	assert_close(real->steal_ppm, 300000, 0);
	assert_close(real->stall_ns, 2000000, 0);

	flags_init(&wc, NULL);
	assert_true(plan_sim_twins(&wc, FALSE, plan_set_plan(set, 0)));
	/* 3 settings x the plan's 2 rounds x the replicates (1 here, 5 below) */
	assert_int_equal(plan_sim_count(&(PlanSim){ &wc, 1, NULL, FALSE }, set), 6);
	assert_int_equal(plan_sim_count(&(PlanSim){ &wc, 5, NULL, FALSE }, set), 30);
	g_autofree SimSetting *measured = simulate(set, &wc, 2, 1);
	double d0 = linsched_with("12000000", "2000000", "1", "0.2", "1000000", "1");
	double d1 = linsched_with("12000000", "2000000", "2", "0.4", "6000000", "1");
	double w0 = linsched_with("12000000", "0", "1", "0.3", "2000000", "1");
	double w1 = linsched_with("12000000", "0", "2", "0.3", "2000000", "1");
	double l0 = linsched_with("3000000", "2000000", "1", "0.3", "2000000", "1");

	assert_string_equal(real_plan_setting(real, 1)->id, "wake0");
	assert_close(measured[0].runtime_ns, (d0 + d1) / 2, 1e-9);
	assert_close(measured[0].ratio, 1.0, 0);
	assert_close(measured[1].ratio, (w0 / d0 + w1 / d1) / 2, 1e-12);
	assert_close(measured[2].ratio, l0 / d0, 1e-12);
	assert_close(measured[2].runtime_ns, l0, 0);

	/* Two replicates: two twins of every run, the second with seed 1 + round + 2 (the plan's
	 * rounds); ratios between twins of one seed, medians over all of them. */
	assert_int_equal(plan_sim_count(&(PlanSim){ &wc, 2, NULL, FALSE }, set), 12);
	g_autofree SimSetting *twice = simulate(set, &wc, 2, 2);
	double d2 = linsched_with("12000000", "2000000", "3", "0.2", "1000000", "1");
	double d3 = linsched_with("12000000", "2000000", "4", "0.4", "6000000", "1");
	double w2 = linsched_with("12000000", "0", "3", "0.3", "2000000", "1");
	double w3 = linsched_with("12000000", "0", "4", "0.3", "2000000", "1");
	double d[4] = { d0, d2, d1, d3 }, q[4] = { w0 / d0, w2 / d2, w1 / d1, w3 / d3 };

	assert_close(twice[0].runtime_ns, stats_median(d, 4), 1e-9);
	assert_close(twice[1].ratio, stats_median(q, 4), 1e-12);
	workload_cli_clear(&wc);

	flags_init_with(&wc, "--steal", "0.1", "--stall-ns", "3000000");
	assert_false(plan_sim_twins(&wc, FALSE, plan_set_plan(set, 0)));
	assert_int_equal(plan_sim_count(&(PlanSim){ &wc, 5, NULL, FALSE }, set), 15);
	g_autofree SimSetting *flagged = simulate(set, &wc, 2, 1);

	assert_close(flagged[0].runtime_ns, linsched_defaults_with("0.1", "3000000"), 0);
	workload_cli_clear(&wc);

	/* --host-cpus likewise: the CPUs in turns in place of every run's stalls. */
	flags_init_with(&wc, "--host-cpus", "1", "--stall-ns", "3000000");
	assert_false(plan_sim_twins(&wc, FALSE, plan_set_plan(set, 0)));
	g_autofree SimSetting *turns = simulate(set, &wc, 2, 1);

	assert_close(turns[0].runtime_ns,
		     linsched_runtime((const char *const[]){
			     "--latency-ns", "12000000", "--wakeup-gran-ns", "2000000", "--seed",
			     "1", "--host-cpus", "1", "--stall-ns", "3000000", NULL }),
		     0);
	workload_cli_clear(&wc);

	/* Spells of turns keep the twins: each run's steal in the spells apart (in stalls of the
	 * flag's length, which the turns need). */
	flags_init_argv(&wc, (const char *const[]){ "--host-cpus", "1", "--shared-ns", "5000000",
						    "--apart-ns", "5000000", "--stall-ns",
						    "1000000", NULL });
	assert_true(plan_sim_twins(&wc, FALSE, plan_set_plan(set, 0)));
	g_autofree SimSetting *spells = simulate(set, &wc, 2, 1);
	double p0 = linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", "2000000", "--seed", "1", "--steal",
		"0.2", "--stall-ns", "1000000", "--host-cpus", "1", "--shared-ns", "5000000",
		"--apart-ns", "5000000", NULL });
	double p1 = linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", "2000000", "--seed", "2", "--steal",
		"0.4", "--stall-ns", "1000000", "--host-cpus", "1", "--shared-ns", "5000000",
		"--apart-ns", "5000000", NULL });

	assert_close(spells[0].runtime_ns, (p0 + p1) / 2, 1e-9);
	assert_true(spells[0].runtime_ns != measured[0].runtime_ns);
	workload_cli_clear(&wc);

	/* --stall-ns alone: each twin's measured fraction, in stalls of the flag's length. */
	flags_init_with(&wc, "--stall-ns", "3000000", NULL, NULL);
	g_autofree SimSetting *stalls = simulate(set, &wc, 2, 1);
	double s0 = linsched_with("12000000", "2000000", "1", "0.2", "3000000", "1");
	double s1 = linsched_with("12000000", "2000000", "2", "0.4", "3000000", "1");

	assert_close(stalls[0].runtime_ns, (s0 + s1) / 2, 1e-9);
	workload_cli_clear(&wc);
}

/*
 * A plan set of one plan, [name], of name.csv holding csv, run as "hackbench -T -g 2 -l 10 -f 4"
 * with the plans.ini keys extra, in the test's directory.
 */
static PlanSet *one_plan_set(void **state, const char *name, const char *csv, const char *extra)
{
	g_autofree char *csv_name = g_strdup_printf("%s.csv", name);
	g_autofree char *ini_name = g_strdup_printf("%s.ini", name);
	g_autofree char *path = g_build_filename(*state, csv_name, NULL);
	g_autofree char *ini = g_build_filename(*state, ini_name, NULL);
	g_autofree char *text = g_strdup_printf(
		"[%s]\ncsv=%s\nworkload=hackbench -T -g 2 -l 10 -f 4\n%s", name, csv_name, extra);
	GError *error = NULL;

	assert_true(g_file_set_contents(path, csv, -1, NULL));
	assert_true(g_file_set_contents(ini, text, -1, NULL));
	PlanSet *set = plan_set_read(ini, &error);

	if (!set)
		fail_msg("%s", error->message);
	return set;
}

/*
 * A plan set's stall_cv_pct (plan_set.h): the host's steal of every twin, as in
 * test_measured_steal, in stalls of that spread instead of the machine's (1, a gamma's
 * exponential, in the built-in machine); --stall-cv, when given, still wins. The stalls are
 * short (20 to 30 us) so that this short run has many of them and their spread shows.
 */
static void test_plan_stall_cv(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns\n"
		"0,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,200000,20000\n"
		"1,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,300000,30000\n"
		"2,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,250000,25000\n";
	struct workload_cli wc;
	g_autoptr(PlanSet) set = one_plan_set(state, "cv", csv, "stall_cv_pct=250\n");

	assert_close(plan_set_plan(set, 0)->stall_cv_pct, 250, 0);

	flags_init(&wc, NULL);
	g_autofree SimSetting *spread = simulate(set, &wc, 1, 1);
	double d = linsched_with("12000000", "2000000", "1", "0.2", "20000", "2.5");
	double w = linsched_with("12000000", "0", "1", "0.3", "30000", "2.5");
	double l = linsched_with("3000000", "2000000", "1", "0.25", "25000", "2.5");

	assert_close(spread[0].runtime_ns, d, 0);
	assert_close(spread[1].ratio, w / d, 1e-12);
	assert_close(spread[2].ratio, l / d, 1e-12);
	/* The plan's spread does change the twins: the machine's would give another runtime. */
	assert_true(d != linsched_with("12000000", "2000000", "1", "0.2", "20000", "1"));
	workload_cli_clear(&wc);

	flags_init_with(&wc, "--stall-cv", "0.5", NULL, NULL);
	g_autofree SimSetting *flagged = simulate(set, &wc, 1, 1);

	assert_close(flagged[0].runtime_ns,
		     linsched_with("12000000", "2000000", "1", "0.2", "20000", "0.5"), 0);
	workload_cli_clear(&wc);
}

/* Three runs, each with the host's steal in stalls of 1 ms: test_plan_host_hz's and
 * test_plan_parent_flips's plan. */
static const char STEAL_1MS_CSV[] =
	"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
	"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns\n"
	"0,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,400000,1000000\n"
	"1,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,500000,1000000\n"
	"2,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,400000,1000000\n";

/* linsched hackbench at wakeup granularity wake, seed 1, stolen steal in 1 ms stalls on test_plan_host_hz's
 * host ticks. */
static double linsched_on_ticks(const char *wake, const char *steal)
{
	return linsched_runtime(
		(const char *const[]){ "--latency-ns", "12000000", "--wakeup-gran-ns", wake,
				       "--seed", "1", "--steal", steal, "--stall-ns", "1000000",
				       "--host-hz", "1000", "--host-lead-ns", "900000", NULL });
}

/*
 * A plan set's host_hz and host_lead_ns (plan_set.h): every twin suffers its run's steal on the
 * host's ticks, as linsched --host-hz does with that run's steal and stall (1 ms ticks, 0.1 ms
 * after the guest's, so that this short run meets them); --host-hz, when given, wins (0 there:
 * no grid, stalls at random moments, another runtime); turns in place of the twins end on the
 * same ticks.
 */
static void test_plan_host_hz(void **state)
{
	struct workload_cli wc;
	g_autoptr(PlanSet) set =
		one_plan_set(state, "hz", STEAL_1MS_CSV, "host_hz=1000\nhost_lead_ns=900000\n");

	assert_int_equal(plan_set_plan(set, 0)->host_hz, 1000);
	assert_int_equal(plan_set_plan(set, 0)->host_lead_ns, 900000);

	flags_init(&wc, NULL);
	g_autofree SimSetting *grid = simulate(set, &wc, 1, 1);
	double d = linsched_on_ticks("2000000", "0.4");
	double w = linsched_on_ticks("0", "0.5");

	assert_close(grid[0].runtime_ns, d, 0);
	assert_close(grid[1].ratio, w / d, 1e-12);
	workload_cli_clear(&wc);

	flags_init_with(&wc, "--host-hz", "0", NULL, NULL);
	g_autofree SimSetting *flagged = simulate(set, &wc, 1, 1);

	assert_close(flagged[0].runtime_ns, linsched_defaults_with("0.4", "1000000"), 0);
	assert_true(flagged[0].runtime_ns != d);
	workload_cli_clear(&wc);

	/* No twins (the CPUs take turns instead): the turns, of 0.5 ms on average, end on the plan's
	 * host ticks, so they last a whole 1 ms tick at least. */
	flags_init_with(&wc, "--host-cpus", "1", "--stall-ns", "500000");
	g_autofree SimSetting *turns = simulate(set, &wc, 1, 1);
	double on_ticks = linsched_runtime(
		(const char *const[]){ "--latency-ns", "12000000", "--wakeup-gran-ns", "2000000",
				       "--seed", "1", "--host-cpus", "1", "--stall-ns", "500000",
				       "--host-hz", "1000", "--host-lead-ns", "900000", NULL });

	assert_close(turns[0].runtime_ns, on_ticks, 0);
	assert_true(on_ticks !=
		    linsched_runtime((const char *const[]){
			    "--latency-ns", "12000000", "--wakeup-gran-ns", "2000000", "--seed",
			    "1", "--host-cpus", "1", "--stall-ns", "500000", NULL }));
	workload_cli_clear(&wc);
}

/* The first plan of set simulated under --start barrier: whether plan_sim_run took it. */
static gboolean simulate_barrier_start(const PlanSet *set, GError **error)
{
	const char *const barrier_start[] = { "--profile", "6.1",     "--cpus", "2",
					      "--start",   "barrier", NULL };
	EvaluatorConfig config = { .replicates = 1, .jobs = 1 };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	struct workload_cli wc;
	PlanSim ps = { &wc, 1, ev, FALSE };
	SimSetting **sims = NULL;
	gboolean ok;

	workload_cli_init(&wc);
	if (!workload_cli_parse(&wc, barrier_start, error))
		fail_msg("%s", (*error)->message);
	ok = plan_sim_run(&ps, set, NULL, &sims, error);
	plan_sim_free(sims, ok ? set->plans->len : 0);
	workload_cli_clear(&wc);
	return ok;
}

/* linsched hackbench at the defaults, seed 1, with a run's steal and a parent of --parent-flips
 * flips ("" for the default). */
static double linsched_flips(const char *steal, const char *flips)
{
	return linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", "2000000", "--seed", "1", "--steal",
		steal, "--stall-ns", "1000000", *flips ? "--parent-flips" : NULL, flips, NULL });
}

/* --parent-flips 0 given: the first plan of set (test_plan_parent_flips's steal) simulates as
 * linsched with a parent of 0 flips, whatever the plan or its runs say. */
static void assert_parent_flips_flag_wins(const PlanSet *set)
{
	struct workload_cli wc;

	flags_init_with(&wc, "--parent-flips", "0", NULL, NULL);
	g_autofree SimSetting *flagged = simulate(set, &wc, 1, 1);

	assert_close(flagged[0].runtime_ns, linsched_flips("0.4", "0"), 0);
	workload_cli_clear(&wc);
}

/*
 * A plan set's parent_flips (plan_set.h): the real runs were started through linsched launch,
 * so every twin's parent starts with those flips, as linsched --parent-flips does; the flag,
 * when given, wins; without --start parent there is no parent to start with them, and the plan
 * is refused by name.
 */
static void test_plan_parent_flips(void **state)
{
	struct workload_cli wc;
	g_autoptr(PlanSet) set = one_plan_set(state, "flips", STEAL_1MS_CSV, "parent_flips=3\n");
	double three = linsched_flips("0.4", "3");

	assert_int_equal(plan_set_plan(set, 0)->parent_flips, 3);
	/* The flips change the run, else this test could not fail. */
	assert_true(three != linsched_flips("0.4", ""));

	flags_init(&wc, NULL);
	g_autofree SimSetting *launched = simulate(set, &wc, 1, 1);

	assert_close(launched[0].runtime_ns, three, 0);
	workload_cli_clear(&wc);

	assert_parent_flips_flag_wins(set);

	GError *error = NULL;

	assert_false(simulate_barrier_start(set, &error));
	assert_string_equal(error->message, "plan flips: parent_flips: the workers inherit them "
					    "from the parent of --start parent; give it");
	g_error_free(error);
}

/* linsched hackbench at the defaults, seed 1, with the first run's steal, under a preemption
 * model. */
static double linsched_preempt(const char *model)
{
	return linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", "2000000", "--seed", "1", "--steal",
		"0.4", "--stall-ns", "1000000", "--preempt", model, NULL });
}

/*
 * A plan set's preempt (plan_set.h): the guest ran under that preemption model, so every twin
 * does, as linsched --preempt does; the flag, when given, wins.
 */
static void test_plan_preempt(void **state)
{
	struct workload_cli wc;
	g_autoptr(PlanSet) set = one_plan_set(state, "vol", STEAL_1MS_CSV, "preempt=voluntary\n");
	double voluntary = linsched_preempt("voluntary"), full = linsched_preempt("full");

	/* The model changes the run, else this test could not fail. */
	assert_true(voluntary != full);
	flags_init(&wc, NULL);
	g_autofree SimSetting *plan = simulate(set, &wc, 1, 1);

	assert_close(plan[0].runtime_ns, voluntary, 0);
	workload_cli_clear(&wc);

	flags_init_with(&wc, "--preempt", "full", NULL, NULL);
	g_autofree SimSetting *flagged = simulate(set, &wc, 1, 1);

	assert_close(flagged[0].runtime_ns, full, 0);
	workload_cli_clear(&wc);
}

/* linsched hackbench at wakeup granularity wake, seed 1, with a run's steal in 1 ms stalls and a
 * parent of flips flips. */
static double linsched_wake_flips(const char *wake, const char *steal, const char *flips)
{
	return linsched_runtime((const char *const[]){
		"--latency-ns", "12000000", "--wakeup-gran-ns", wake, "--seed", "1", "--steal",
		steal, "--stall-ns", "1000000", "--parent-flips", flips, NULL });
}

/*
 * The flips the guest recorded at each run's forks (real_plan.h's parent_flips): every twin's
 * parent starts with its own run's (defaults 3), a run without the record with the plan's median
 * over the runs that have one (3 and 7: 5), so wake0's ratio is linsched at wake 0 and 5 flips
 * over the defaults' twin. --parent-flips wins, and so does the plan's own parent_flips; at a
 * barrier start nobody inherits them, and the plan is simulated without them, not refused. A run
 * with every fork's flips hands each worker its own: 5 to all 16 is linsched with a parent of 5
 * (which wakes nobody before the release), whatever the run's median says.
 */
static void test_plan_measured_flips(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns,parent_flips\n"
		"0,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,400000,1000000,3\n"
		"1,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,500000,1000000,\n"
		"2,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,400000,1000000,7\n";
	struct workload_cli wc;
	g_autoptr(PlanSet) set = one_plan_set(state, "forks", csv, "");
	g_autoptr(PlanSet) stated = one_plan_set(state, "stated", csv, "parent_flips=4\n");
	g_autofree char *series_csv = g_strconcat(
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns,parent_flips,"
		"fork_flips\n"
		"0,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,400000,1000000,3,",
		"5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5\n",
		"1,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,500000,1000000,,\n"
		"2,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,400000,1000000,7,\n",
		NULL);
	g_autoptr(PlanSet) series = one_plan_set(state, "series", series_csv, "");
	double three = linsched_flips("0.4", "3");

	assert_int_equal(plan_set_plan(set, 0)->real->flips_runs, 2);
	assert_close(plan_set_plan(set, 0)->real->parent_flips, 5, 0);
	/* Each of the three flips counts below gives another run, else this test could not fail. */
	assert_true(three != linsched_flips("0.4", "0") && three != linsched_flips("0.4", "5") &&
		    three != linsched_flips("0.4", "4"));

	flags_init(&wc, NULL);
	g_autofree SimSetting *twins = simulate(set, &wc, 2, 1);

	assert_close(twins[0].runtime_ns, three, 0);
	assert_close(twins[1].ratio, linsched_wake_flips("0", "0.5", "5") / three, 1e-12);
	g_autofree SimSetting *by_plan = simulate(stated, &wc, 1, 1);

	assert_close(by_plan[0].runtime_ns, linsched_flips("0.4", "4"), 0);
	g_autofree SimSetting *each = simulate(series, &wc, 1, 1);

	assert_close(each[0].runtime_ns, linsched_flips("0.4", "5"), 0);
	workload_cli_clear(&wc);

	assert_parent_flips_flag_wins(set);

	GError *error = NULL;

	if (!simulate_barrier_start(set, &error))
		fail_msg("%s", error->message);
}

/*
 * A plan that also carries the stalls the guest saw before each run (make-plan.sh -n): asked
 * for (--stalls guest), they win over the host's steal, shape included. The plan's medians over runs 0, 2, 3 and 4 are 300000
 * ppm (200000, 300000, 400000, 300000), 1 ms (0.5, 2, 1, 1) and CV 2 (3, 1, 2, 2); wake0's
 * round 0, with the host's steal but no guest measurement, takes them, not its host's 0.1. What
 * the guest saw holds the machine's own noise too, so a machine with [noise] simulates the
 * twins exactly as one without.
 */
static void test_guest_stalls(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"migration_cost_ns,seconds,wall_s,ctxt,rc,knobs,steal_ppm,stall_ns,"
		"guest_stall_ppm,guest_stall_ns,guest_stall_cv_pct\n"
		"1,0,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,100000,1000000,"
		"200000,500000,300\n"
		"3,0,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,100000,1000000,,,\n"
		"5,0,lat3,3000000,1500000,2000000,500000,0.8,0.9,500,0,ok,100000,1000000,"
		"300000,1000000,200\n"
		"7,1,defaults,12000000,1500000,2000000,500000,1.0,1.1,2000,0,ok,100000,1000000,"
		"400000,2000000,100\n"
		"9,1,wake0,12000000,1500000,0,500000,1.5,1.6,3000,0,ok,300000,1000000,"
		"300000,1000000,200\n";
	g_autofree char *noisy = g_build_filename(*state, "noisy.ini", NULL);
	g_autoptr(PlanSet) set = set_of_csv(*state, "seen", csv);
	struct workload_cli wc;

	assert_true(g_file_set_contents(
		noisy, "[noise]\nnoise_ppm=200000\nnoise_ns=100000\nnoise_cv_pct=300\n", -1, NULL));
	const RealPlan *real = plan_set_plan(set, 0)->real;

	assert_int_equal(real->guest_runs, 4);
	assert_close(real->guest_ppm, 300000, 0);
	assert_close(real->guest_ns, 1000000, 0);
	assert_close(real->guest_cv_pct, 200, 0);

	double d0 = linsched_with("12000000", "2000000", "1", "0.2", "500000", "3");
	double d1 = linsched_with("12000000", "2000000", "2", "0.4", "2000000", "1");
	double w0 = linsched_with("12000000", "0", "1", "0.3", "1000000", "2");
	double w1 = linsched_with("12000000", "0", "2", "0.3", "1000000", "2");
	double l0 = linsched_with("3000000", "2000000", "1", "0.3", "1000000", "2");

	for (int machine = 0; machine < 2; machine++) {
		flags_init_with(&wc, machine ? "--machine" : NULL, machine ? noisy : NULL, NULL,
				NULL);
		assert_true(plan_sim_twins(&wc, TRUE, plan_set_plan(set, 0)));
		g_autofree SimSetting *seen = simulate_with(set, &wc, 2, 1, TRUE);

		assert_close(seen[0].runtime_ns, (d0 + d1) / 2, 1e-9);
		assert_close(seen[1].ratio, (w0 / d0 + w1 / d1) / 2, 1e-12);
		assert_close(seen[2].ratio, l0 / d0, 1e-12);
		workload_cli_clear(&wc);
	}

	/* Not asked for: the host's steal, as in a plan without them. */
	flags_init(&wc, NULL);
	g_autofree SimSetting *host = simulate_with(set, &wc, 2, 1, FALSE);

	assert_close(host[0].runtime_ns,
		     (linsched_with("12000000", "2000000", "1", "0.1", "1000000", "1") +
		      linsched_with("12000000", "2000000", "2", "0.1", "1000000", "1")) /
			     2,
		     1e-9);
	workload_cli_clear(&wc);
}

/* A flag the plan's configuration refuses names the plan. */
static void test_refusal(void **state)
{
	g_autoptr(PlanSet) set = fixture_set(*state);
	struct workload_cli wc;
	EvaluatorConfig config = { .replicates = 1, .jobs = 1 };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	SimSetting **sims = NULL;
	GError *error = NULL;

	flags_init(&wc, NULL);
	g_free(wc.hb.start);
	wc.hb.start = g_strdup("later");
	PlanSim ps = { &wc, 1, ev, FALSE };

	assert_false(plan_sim_run(&ps, set, NULL, &sims, &error));
	assert_non_null(strstr(error->message, "plan small: --start: 'later'"));
	g_error_free(error);
	workload_cli_clear(&wc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_like_linsched, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_guest_stalls, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_parent_flips, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_preempt, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_measured_flips, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_host_hz, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_stall_cv, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_measured_steal, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_measured_placement, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_replicates, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_refusal, temp_dir_setup, temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
