/*
 * tests/tuner/fidelity/test_plan_set.c - the plans of a fidelity report or a fit
 * (tuner/fidelity/plan_set.h): hackbench command lines as getopt reads them, the key file with
 * its relative paths, order and roles, vm/data/plans.ini, and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/assert_close.h"
#include "tests/support/support.h"
#include "tuner/fidelity/plan_set.h"

static void expect_command(const char *command, guint groups, guint loops, guint fds,
			   guint datasize, gboolean pipe, gboolean threads)
{
	HackbenchCommand c;
	GError *error = NULL;

	if (!hackbench_command_parse(command, &c, &error))
		fail_msg("'%s': %s", command, error->message);
	assert_int_equal(c.groups, groups);
	assert_int_equal(c.loops, loops);
	assert_int_equal(c.fds, fds);
	assert_int_equal(c.datasize, datasize);
	assert_int_equal(c.pipe, pipe);
	assert_int_equal(c.threads, threads);
}

static void expect_command_error(const char *command, const char *needle)
{
	HackbenchCommand c;
	GError *error = NULL;

	assert_false(hackbench_command_parse(command, &c, &error));
	if (!strstr(error->message, needle))
		fail_msg("'%s': expected '%s' in '%s'", command, needle, error->message);
	g_error_free(error);
}

static void test_command(void **state)
{
	(void)state;
	/* rt-tests' defaults: 10 groups, 100 loops, 20 fds, 100 bytes, sockets, processes. */
	expect_command("hackbench", 10, 100, 20, 100, FALSE, FALSE);
	expect_command("hackbench -T -g 5 -l 100", 5, 100, 20, 100, FALSE, TRUE);
	expect_command("hackbench -P -g 5 -l 100", 5, 100, 20, 100, FALSE, FALSE);
	expect_command("hackbench -T -p -g 10 -l 50", 10, 50, 20, 100, TRUE, TRUE);
	expect_command("/usr/bin/hackbench -Tpg3 -l7 -f 4 -s 0", 3, 7, 4, 0, TRUE, TRUE);
	expect_command("hackbench --threads --groups=2 --loops 9 --fds=3 --datasize 64 --pipe", 2,
		       9, 3, 64, TRUE, TRUE);
	expect_command("hackbench -T -P", 10, 100, 20, 100, FALSE, FALSE); /* the last wins */

	expect_command_error("perf bench sched messaging", "'perf' is not hackbench");
	expect_command_error("hackbench -F", "-F is not an option of hackbench");
	expect_command_error("hackbench --fifo", "--fifo is not an option");
	expect_command_error("hackbench -g", "-g needs a number");
	expect_command_error("hackbench -g 0", "-g: '0' is not a whole number above 0");
	expect_command_error("hackbench -l x", "-l: 'x'");
	expect_command_error("hackbench 5", "'5' is not an option");
	expect_command_error("hackbench --pipe=1", "--pipe=1 takes no value");
	expect_command_error("hackbench 'unclosed", "unclosed");
	/* Found by fuzz_hackbench_command: "--" alone has no name to look up. */
	expect_command_error("hackbench -- 64", "-- is not an option");
}

#define CSV_HEADER                                                                       \
	"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds," \
	"ctxt,rc\n"

static void write_in(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *parent = g_path_get_dirname(path);

	assert_int_equal(g_mkdir_with_parents(parent, 0755), 0);
	assert_true(g_file_set_contents(path, text, -1, NULL));
}

/* Two plans; paths relative to the key file's directory; an order file; roles. */
static void test_key_file(void **state)
{
	const char *dir = *state;
	g_autofree char *ini = g_build_filename(dir, "plans.ini", NULL);

	write_in(dir, "data/a.csv",
		 CSV_HEADER "0,0,fast,12000000,1500000,16000000,0.5,10,0\n"
			    "1,0,base,12000000,1500000,2000000,1.0,20,0\n");
	write_in(dir, "data/b.csv",
		 CSV_HEADER "0,0,defaults,12000000,1500000,2000000,1.0,20,0\n"
			    "1,0,slow,12000000,1500000,0,2.0,40,0\n");
	write_in(dir, "data/settings.txt", "# id knobs\n  slow 1 2 3\n\ndefaults 1 2 3\n");
	write_in(dir, "plans.ini",
		 "# two plans\n[a]\ncsv=data/a.csv\nworkload=hackbench -T -g 5 -l 100\n"
		 "role=train\nreference=base\nstall_cv_pct=175\npreempt=full\n\n"
		 "[b]\ncsv=data/b.csv\nworkload=hackbench -p -g 2\norder=data/settings.txt\n");
	GError *error = NULL;
	g_autoptr(PlanSet) set = plan_set_read(ini, &error);

	assert_null(error);
	assert_int_equal(set->plans->len, 2);
	assert_int_equal(plan_set_count(set, PLAN_ROLE_TRAIN), 1);
	assert_int_equal(plan_set_count(set, PLAN_ROLE_TEST), 1);

	const PlanSpec *a = plan_set_plan(set, 0), *b = plan_set_plan(set, 1);

	assert_string_equal(a->name, "a");
	assert_string_equal(plan_role_name(a->role), "train");
	assert_true(a->hb.threads);
	assert_int_equal(a->hb.groups, 5);
	assert_string_equal(a->real->reference, "base");
	assert_string_equal(real_plan_setting(a->real, 0)->id, "base");
	assert_close(a->stall_cv_pct, 175, 0);
	assert_string_equal(a->preempt, "full");
	assert_null(b->preempt);	     /* not given: the machine's */
	assert_true(isnan(b->stall_cv_pct)); /* not given: the machine's */
	assert_int_equal(b->host_hz, 0);     /* not given: stalls at random moments */
	assert_string_equal(plan_role_name(b->role), "test");
	assert_true(b->hb.pipe);
	assert_false(b->hb.threads);
	assert_int_equal(b->hb.groups, 2);
	assert_string_equal(real_plan_setting(b->real, 0)->id, "slow"); /* the order file's */
	assert_string_equal(real_plan_setting(b->real, 1)->id, "defaults");
	g_autofree char *b_csv = g_build_filename(dir, "data/b.csv", NULL);
	assert_string_equal(b->csv, b_csv);
}

static void expect_set_error(const char *dir, const char *ini_text, const char *needle)
{
	g_autofree char *ini = g_build_filename(dir, "plans.ini", NULL);
	GError *error = NULL;

	write_in(dir, "plans.ini", ini_text);
	assert_null(plan_set_read(ini, &error));
	assert_non_null(error);
	if (!strstr(error->message, needle))
		fail_msg("expected '%s' in '%s'", needle, error->message);
	assert_null(strchr(error->message, '\n'));
	g_error_free(error);
}

static void test_refusals(void **state)
{
	const char *dir = *state;
	GError *error = NULL;

	write_in(dir, "ok.csv", CSV_HEADER "0,0,defaults,12000000,1500000,2000000,1.0,20,0\n");
	expect_set_error(dir, "# nothing\n", "plans.ini: no [plan] group");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nrole=dev\n",
			 "plans.ini: [a] role: 'dev' is not train or test");
	expect_set_error(dir, "[a]\nworkload=hackbench\n", "plans.ini: [a] csv: missing");
	expect_set_error(dir, "[a]\ncsv=ok.csv\n", "plans.ini: [a] workload: missing");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nrounds=3\n",
			 "plans.ini: [a] rounds: unknown key");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nhost_hz=200\n",
			 "plans.ini: [a] host_hz: '200' is not one of");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nhost_lead_ns=5\n",
			 "plans.ini: [a] host_lead_ns: places the host's ticks; give host_hz");
	expect_set_error(dir,
			 "[a]\ncsv=ok.csv\nworkload=hackbench\nhost_hz=250\nhost_lead_ns=4000000\n",
			 "plans.ini: [a] host_lead_ns: '4000000' is not a whole number");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\npreempt=lazy\n",
			 "plans.ini: [a] preempt: 'lazy' is not one of full, voluntary, none");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nparent_flips=1001\n",
			 "plans.ini: [a] parent_flips: '1001' is not a whole number in 0..1000");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nparent_flips=-1\n",
			 "plans.ini: [a] parent_flips: '-1' is not a whole number");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nstall_cv_pct=0\n",
			 "plans.ini: [a] stall_cv_pct: '0' is not a whole number");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nstall_cv_pct=1001\n",
			 "plans.ini: [a] stall_cv_pct: '1001' is not a whole number");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\nstall_cv_pct=1.5\n",
			 "plans.ini: [a] stall_cv_pct: '1.5' is not a whole number");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench -F\n",
			 "plans.ini: [a] workload: -F is not an option");
	expect_set_error(dir, "[a]\ncsv=missing.csv\nworkload=hackbench\n",
			 "missing.csv: cannot read");
	expect_set_error(dir, "[a]\ncsv=ok.csv\nworkload=hackbench\norder=none.txt\n",
			 "plans.ini: [a] order: ");
	expect_set_error(dir, "[a\n", "plans.ini: ");

	assert_null(plan_set_read("/nonexistent/plans.ini", &error));
	assert_true(g_error_matches(error, PLAN_SET_ERROR, PLAN_SET_ERROR_IO));
	g_error_free(error);
}

/* The repository's plans: one to train on, two held out, 12 settings each. */
static void test_repository_plans(void **state)
{
	GError *error = NULL;
	g_autoptr(PlanSet) set = plan_set_read("vm/data/plans.ini", &error);

	(void)state;
	assert_null(error);
	assert_int_equal(set->plans->len, 3);
	assert_int_equal(plan_set_count(set, PLAN_ROLE_TRAIN), 1);
	for (guint i = 0; i < set->plans->len; i++) {
		const RealPlan *real = plan_set_plan(set, i)->real;

		assert_int_equal(real->settings->len, 12);
		assert_string_equal(real_plan_setting(real, 1)->id, "wake0"); /* settings-12.txt */
		assert_string_equal(real_plan_setting(real, 11)->id, "1000-16.7-1000");
	}
	assert_false(plan_set_plan(set, 1)->hb.threads);
	assert_true(plan_set_plan(set, 2)->hb.pipe);
	/* vm/data's first plans predate the host's steal measurement */
	assert_int_equal(plan_set_plan(set, 0)->real->steal_runs, 0);
}

/* The plans measured with the host's steal: seven, nearly every run's steal kept. */
static void test_repository_steal_plans(void **state)
{
	GError *error = NULL;
	g_autoptr(PlanSet) set = plan_set_read("vm/data/steal/plans.ini", &error);

	(void)state;
	assert_null(error);
	assert_int_equal(set->plans->len, 7);
	/* T-g5 and P-g5 trained the first fit of machines/qemu-tcg-6.1.ini (vm/data/fit-plans.ini
	 * has the roles of the last) */
	assert_int_equal(plan_set_count(set, PLAN_ROLE_TRAIN), 2);
	assert_int_equal(plan_set_plan(set, 0)->role, PLAN_ROLE_TRAIN);
	assert_int_equal(plan_set_plan(set, 3)->role, PLAN_ROLE_TRAIN);
	for (guint i = 0; i < set->plans->len; i++) {
		const RealPlan *real = plan_set_plan(set, i)->real;

		assert_int_equal(real->settings->len, 12);
		assert_int_equal(real->rounds, 10);
		/* every run that counts, but one of P-g5's and one of T-p-g5's whose stall went
		 * unmeasured (-1) */
		assert_true(real->steal_runs >= 118 && real->steal_runs <= 120);
		assert_string_equal(real_plan_setting(real, 0)->id, "defaults");
		assert_true(real->steal_ppm > 0 && real->steal_ppm < 1e6);
	}
	/* the threads plan: a median of 45 % in 1 ms stalls */
	assert_true(fabs(plan_set_plan(set, 0)->real->steal_ppm - 449192) < 1);
}

/*
 * The plans with the stalls the guest saw (make-plan.sh -n): six rounds, every run with both
 * measurements. And every plan together, with the roles of the machine's first five fits: the
 * three threads plans of three host regimes and P-g5 train, eight are held out.
 */
static void test_repository_stall_plans(void **state)
{
	GError *error = NULL;
	g_autoptr(PlanSet) stalls = plan_set_read("vm/data/stalls/plans.ini", &error);
	g_autoptr(PlanSet) all = NULL;

	(void)state;
	assert_null(error);
	assert_int_equal(stalls->plans->len, 5);
	for (guint i = 0; i < stalls->plans->len; i++) {
		const RealPlan *real = plan_set_plan(stalls, i)->real;

		assert_int_equal(real->settings->len, 12);
		assert_int_equal(real->rounds, 6);
		assert_int_equal(real->guest_runs, 72);
		assert_true(real->steal_runs >= 71);
		assert_true(real->guest_ppm > real->steal_ppm);
	}
	all = plan_set_read("vm/data/fit-plans.ini", &error);
	assert_null(error);
	assert_int_equal(all->plans->len, 12);
	assert_int_equal(plan_set_count(all, PLAN_ROLE_TRAIN), 4);
}

/* The plans under run-plan.sh -H 2: five rounds, held out, each with the host's stall CV measured
 * for it. */
/* A repository's plans file of two held-out plans, processes then threads, each of the 12
 * settings in 5 rounds, on the host's 250 Hz ticks of -H 2. */
/* n plans of the -H 2 load, threads where the name says (T-), of 5 rounds but for those named
 * -r10; the first ntrain trained the machine's last fit, the others are held out. */
static PlanSet *read_hog_plans(const char *path, guint n, guint ntrain)
{
	GError *error = NULL;
	PlanSet *set = plan_set_read(path, &error);

	assert_null(error);
	assert_int_equal(set->plans->len, n);
	assert_int_equal(plan_set_count(set, PLAN_ROLE_TRAIN), ntrain);
	assert_int_equal(plan_set_count(set, PLAN_ROLE_TEST), n - ntrain);
	for (guint i = 0; i < set->plans->len; i++) {
		assert_int_equal(plan_set_plan(set, i)->role,
				 i < ntrain ? PLAN_ROLE_TRAIN : PLAN_ROLE_TEST);
		assert_int_equal(plan_set_plan(set, i)->real->settings->len, 12);
		const PlanSpec *plan = plan_set_plan(set, i);

		assert_int_equal(plan->real->rounds, g_str_has_suffix(plan->name, "-r10") ? 10 : 5);
		assert_int_equal(plan_set_plan(set, i)->host_hz, 250);
		assert_int_equal(plan_set_plan(set, i)->host_lead_ns, 200000);
		assert_int_equal(plan->hb.threads, g_str_has_prefix(plan->name, "T-"));
	}
	return set;
}

static void test_repository_hog_plans(void **state)
{
	g_autoptr(PlanSet) set = read_hog_plans("vm/data/hog/plans.ini", 2, 0);

	(void)state;
	for (guint i = 0; i < set->plans->len; i++) {
		const RealPlan *real = plan_set_plan(set, i)->real;

		assert_true(real->steal_runs >= 59); /* one threads run's stall went unmeasured */
		assert_true(real->steal_ppm > 480000 && real->steal_ppm < 560000);
	}
	assert_close(plan_set_plan(set, 0)->stall_cv_pct, 177, 0);
	assert_close(plan_set_plan(set, 1)->stall_cv_pct, 129, 0);
	assert_int_equal(plan_set_plan(set, 0)->parent_flips, -1);
	assert_int_equal(plan_set_plan(set, 1)->parent_flips, -1);
}

/* The same workloads started through linsched launch, then 10 groups of 50 loops and 10 rounds
 * of the same workloads started from the shell: the flips their forks inherited, run by run
 * (medians 10, 34, 1, 54, 23, 0), not a plan's one value; all but the first two have every
 * fork's (one per worker). */
static void test_repository_flips_plans(void **state)
{
	g_autoptr(PlanSet) set = read_hog_plans("vm/data/flips/plans.ini", 6, 4);
	const double medians[] = { 10, 34, 1, 54, 23, 0 };
	const guint workers[] = { 0, 0, 400, 400, 200, 200 };

	(void)state;
	assert_int_equal(plan_set_plan(set, 0)->real->steal_runs, 60);
	assert_int_equal(plan_set_plan(set, 1)->real->steal_runs, 60);
	for (guint i = 0; i < 6; i++) {
		const RealPlan *real = plan_set_plan(set, i)->real;

		assert_int_equal(plan_set_plan(set, i)->parent_flips, -1);
		assert_int_equal(real->flips_runs, 12 * real->rounds);
		assert_close(real->parent_flips, medians[i], 0);
		for (guint s = 0; s < real->settings->len; s++)
			for (guint k = 0; k < real->rounds; k++)
				assert_int_equal(real_plan_setting(real, s)->round_forks[k].n,
						 workers[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command),
		cmocka_unit_test_setup_teardown(test_key_file, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test(test_repository_plans),
		cmocka_unit_test(test_repository_steal_plans),
		cmocka_unit_test(test_repository_hog_plans),
		cmocka_unit_test(test_repository_flips_plans),
		cmocka_unit_test(test_repository_stall_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
