/*
 * tests/tuner/fidelity/test_real_plan.c - a real plan read back and summarised per setting
 * (tuner/fidelity/real_plan.h), on small plans whose every figure is worked out by hand below, in
 * both CSV forms (vm/lines-to-csv.sh's and --objective vm's), and the reader's refusals.
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
#include "tuner/fidelity/real_plan.h"

#define HEADER                                                                                     \
	"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,migration_cost_ns," \
	"seconds,wall_s,ctxt,rc,knobs\n"
#define DEF  "12000000,1500000,2000000,500000"
#define FAST "12000000,1500000,16000000,500000"
#define SLOW "12000000,1500000,0,500000"

/*
 * Six rounds of three settings, in a shuffled order as a guest runs them.
 *   defaults  1, 2, 1, 2, 1, 2 s;  1000, 2000, 1000, 2000, 1000, 2000 switches
 *   fast      0.5, 1, 0.6, 1.2, 0.45, 0.8 s: ratios 0.5 0.5 0.6 0.6 0.45 0.4, sorted
 *             0.4 0.45 0.5 0.5 0.6 0.6: median 0.5, interval [0.4, 0.6] (j = 1, 1 - 2/64);
 *             faster in all 6 rounds: sign p = 2/64; switches 100 200 100 200 100 300: median
 *             150, within-round ratios 0.1 (x5) and 0.15: median 0.1
 *   slow      round 2 failed (rc 1), round 3's knobs did not read back, round 5 has no time:
 *             ratios 1.2, 1.1, 1.1 (rounds 0, 1, 4): median 1.1, no interval below 6 pairs
 */
static const char lines_csv[] = HEADER "0,0,fast," FAST ",0.5,0.6,100,0,ok\n"
				       "1,0,defaults," DEF ",1.0,1.1,1000,0,ok\n"
				       "2,0,slow," SLOW ",1.2,1.3,1500,0,ok\n"
				       "3,1,slow," SLOW ",2.2,2.3,2500,0,ok\n"
				       "4,1,defaults," DEF ",2.0,2.1,2000,0,ok\n"
				       "5,1,fast," FAST ",1.0,1.1,200,0,ok\n"
				       "6,2,defaults," DEF ",1.0,1.1,1000,0,ok\n"
				       "7,2,slow," SLOW ",1.2,1.3,1500,1,ok\n"
				       "8,2,fast," FAST ",0.6,0.7,100,0,ok\n"
				       "9,3,fast," FAST ",1.2,1.3,200,0,ok\n"
				       "10,3,slow," SLOW ",2.2,2.3,2500,0,mismatch\n"
				       "11,3,defaults," DEF ",2.0,2.1,2000,0,ok\n"
				       "12,4,slow," SLOW ",1.1,1.2,1500,0,ok\n"
				       "13,4,fast," FAST ",0.45,0.5,100,0,ok\n"
				       "14,4,defaults," DEF ",1.0,1.1,1000,0,ok\n"
				       "15,5,defaults," DEF ",2.0,2.1,2000,0,ok\n"
				       "16,5,fast," FAST ",0.8,0.9,300,0,ok\r\n"
				       "17,5,slow," SLOW ",,2.3,2500,0,ok\n";

static char *write_fixture(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static const RealSetting *find(const RealPlan *p, const char *id)
{
	for (guint i = 0; i < p->settings->len; i++)
		if (strcmp(real_plan_setting(p, i)->id, id) == 0)
			return real_plan_setting(p, i);
	fail_msg("no setting %s", id);
	return NULL;
}

static void test_lines_csv(void **state)
{
	g_autofree char *path = write_fixture(*state, "runs.csv", lines_csv);
	GError *error = NULL;
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, NULL, &error);

	assert_null(error);
	assert_non_null(p);
	assert_int_equal(p->settings->len, 3);
	assert_int_equal(p->rounds, 6);
	assert_int_equal(p->boots, 1);
	assert_int_equal(p->dropped, 3);
	/* The reference first, then the CSV's order. */
	assert_string_equal(real_plan_setting(p, 0)->id, "defaults");
	assert_string_equal(real_plan_setting(p, 1)->id, "fast");
	assert_string_equal(real_plan_setting(p, 2)->id, "slow");
	assert_int_equal(p->reference_index, 0);

	const RealSetting *d = find(p, "defaults"), *f = find(p, "fast"), *s = find(p, "slow");

	assert_true(d->reference);
	assert_close(d->median_ratio, 1.0, 0);
	assert_close(d->median_ctxt, 1500, 0);
	assert_close(d->median_seconds, 1.5, 1e-12);
	assert_int_equal(d->log.below + d->log.above, 0);

	assert_int_equal(f->runs, 6);
	assert_int_equal(f->pairs, 6);
	assert_int_equal(f->knobs.wakeup_granularity_ns, 16000000);
	assert_int_equal(f->migration_cost_ns, 500000);
	assert_close(f->median_ratio, 0.5, 1e-12);
	assert_close(f->ratio_lo, 0.4, 1e-12);
	assert_close(f->ratio_hi, 0.6, 1e-12);
	assert_close(f->ratio_coverage, 1 - 2.0 / 64, 1e-12);
	assert_close(f->ratios[0], 0.5, 1e-12); /* round order */
	assert_close(f->ratios[5], 0.4, 1e-12);
	double mean = (2 * log(0.5) + 2 * log(0.6) + log(0.45) + log(0.4)) / 6;
	assert_close(f->log.mean_log, mean, 1e-12);
	assert_int_equal(f->log.below, 6);
	assert_close(f->log.sign_p, 2.0 / 64, 1e-12);
	assert_true(f->log.ratio_hi < 1);
	assert_close(f->median_ctxt, 150, 0);
	assert_close(f->median_ctxt_ratio, 0.1, 1e-12);

	assert_int_equal(s->runs, 3);
	assert_int_equal(s->pairs, 3);
	assert_close(s->median_ratio, 1.1, 1e-12);
	assert_true(isnan(s->ratio_lo) && isnan(s->ratio_hi) && isnan(s->ratio_coverage));
	assert_close(s->median_ctxt, 1500, 0);
}

/* An order puts the named settings first; a name not in the plan is passed over. */
static void test_order(void **state)
{
	g_autofree char *path = write_fixture(*state, "runs.csv", lines_csv);
	const char *const order[] = { "slow", "absent", "defaults", NULL };
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, order, NULL);

	assert_non_null(p);
	assert_string_equal(real_plan_setting(p, 0)->id, "slow");
	assert_string_equal(real_plan_setting(p, 1)->id, "defaults");
	assert_string_equal(real_plan_setting(p, 2)->id, "fast");
	assert_int_equal(p->reference_index, 1);
	assert_close(real_plan_setting(p, 2)->median_ratio, 0.5, 1e-12);
}

/*
 * --objective vm's runs.csv: two boots, each calling its other setting s1, with other knobs; a
 * run without a time is written "nan" and one without switches -1. Boot 1 round 0: defaults 2 s,
 * s1 (wake 0) 3 s; round 1: defaults 4 s, s1 6 s. Boot 2 round 0: defaults 1 s, s1 (wake 4 ms)
 * 0.5 s; round 1: defaults nan. So wake 0 has ratios 1.5, 1.5 and wake 4 ms 0.5 only; the
 * rounds are (1, 0), (1, 1), (2, 0), (2, 1): 4 rounds, 2 boots.
 */
static void test_vm_objective_csv(void **state)
{
	static const char csv[] =
		"boot,seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		"seconds,ctxt,rc\n"
		"1,0,0,defaults,12000000,1500000,2000000,2.000000,500,0\n"
		"1,1,0,s1,12000000,1500000,0,3.000000,900,0\n"
		"1,2,1,s1,12000000,1500000,0,6.000000,-1,0\n"
		"1,3,1,defaults,12000000,1500000,2000000,4.000000,700,0\n"
		"2,0,0,s1,12000000,1500000,4000000,0.500000,100,0\n"
		"2,1,0,defaults,12000000,1500000,2000000,1.000000,300,0\n"
		"2,2,1,defaults,12000000,1500000,2000000,nan,-1,0\n"
		"2,3,1,s1,12000000,1500000,4000000,0.600000,120,0\n";
	g_autofree char *path = write_fixture(*state, "runs.csv", csv);
	GError *error = NULL;
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, NULL, &error);

	assert_null(error);
	assert_int_equal(p->settings->len, 3);
	assert_int_equal(p->boots, 2);
	assert_int_equal(p->rounds, 4);
	assert_int_equal(p->dropped, 1);
	const RealSetting *w0 = real_plan_setting(p, 1), *w4 = real_plan_setting(p, 2);

	assert_string_equal(w0->id, "s1");
	assert_int_equal(w0->knobs.wakeup_granularity_ns, 0);
	assert_int_equal(w0->migration_cost_ns, -1);
	assert_int_equal(w0->pairs, 2);
	assert_close(w0->median_ratio, 1.5, 1e-12);
	assert_close(w0->median_ctxt, 900, 0); /* the -1 is no count */
	assert_close(w0->median_ctxt_ratio, 1.8, 1e-12);
	assert_int_equal(w4->knobs.wakeup_granularity_ns, 4000000);
	assert_int_equal(w4->runs, 2);
	assert_int_equal(w4->pairs, 1);
	assert_close(w4->median_ratio, 0.5, 1e-12);
	assert_close(real_plan_setting(p, 0)->median_ctxt, 500, 0);
}

/*
 * Without steal columns a plan has no steal (NaN); with them, the medians over the runs that count
 * and carry a measurement: runs 0, 1, 3 (the failed run 4 is left out, as is run 2's "-1" and the
 * empty fields of run 5) give steal 100000, 300000, 500000 ppm (median 300000) and stalls 1, 4,
 * 2 ms (median 2 ms).
 */
static void test_steal(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds,ctxt,"
		"rc,steal_ppm,stall_ns\n"
		"0,0,defaults,12000000,1500000,2000000,1.0,500,0,100000,1000000\n"
		"1,0,w0,12000000,1500000,0,1.5,900,0,300000,4000000\n"
		"2,1,w0,12000000,1500000,0,1.5,900,0,-1,-1\n"
		"3,1,defaults,12000000,1500000,2000000,1.0,500,0,500000,2000000\n"
		"4,2,defaults,12000000,1500000,2000000,1.0,500,1,900000,9000000\n"
		"5,2,w0,12000000,1500000,0,1.5,900,0,,\n";
	g_autofree char *path = write_fixture(*state, "steal.csv", csv);
	g_autofree char *without = write_fixture(*state, "runs.csv", lines_csv);
	g_autofree char *bad = write_fixture(*state, "bad.csv",
					     "seq,round,setting,latency_ns,min_granularity_ns,"
					     "wakeup_granularity_ns,seconds,ctxt,rc,steal_ppm\n"
					     "0,0,defaults,1,1,1,1.0,5,0,1000000\n");
	GError *error = NULL;
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, NULL, &error);
	g_autoptr(RealPlan) q = real_plan_read(without, NULL, NULL, &error);

	assert_null(error);
	assert_int_equal(p->steal_runs, 3);
	assert_close(p->steal_ppm, 300000, 0);
	assert_close(p->stall_ns, 2000000, 0);
	assert_int_equal(q->steal_runs, 0);
	assert_true(isnan(q->steal_ppm) && isnan(q->stall_ns));
	/* Round by round, for the simulated twins: the failed run 4 is no run of round 2. */
	const RealSetting *d = find(p, "defaults"), *w = find(p, "w0");

	assert_int_equal(p->rounds, 3);
	assert_true(d->in_round[0] && d->in_round[1] && !d->in_round[2]);
	assert_true(d->round_steal_ppm[0] == 100000 && d->round_stall_ns[0] == 1000000);
	assert_true(d->round_steal_ppm[1] == 500000 && d->round_stall_ns[1] == 2000000);
	assert_true(w->in_round[0] && w->in_round[1] && w->in_round[2]);
	assert_true(w->round_steal_ppm[0] == 300000 && w->round_stall_ns[0] == 4000000);
	assert_true(w->round_steal_ppm[1] == -1 && w->round_steal_ppm[2] == -1);
	assert_null(real_plan_read(bad, NULL, NULL, &error));
	assert_non_null(strstr(error->message, "bad.csv:2: steal_ppm"));
	g_error_free(error);
}

/*
 * The placement (run-plan.sh's shared_pct): per round for the twins, and the median over the runs
 * that count and have it: runs 0, 1 and 3 (run 2's "-1" and run 5's empty field are none, the
 * failed run 4 does not count) shared 10, 70 and 40 %: median 40. Above 100 is refused; a plan
 * without the column has none.
 */
static void test_shared(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds,ctxt,"
		"rc,steal_ppm,stall_ns,shared_pct\n"
		"0,0,defaults,12000000,1500000,2000000,1.0,500,0,100000,1000000,10\n"
		"1,0,w0,12000000,1500000,0,1.5,900,0,300000,4000000,70\n"
		"2,1,w0,12000000,1500000,0,1.5,900,0,300000,4000000,-1\n"
		"3,1,defaults,12000000,1500000,2000000,1.0,500,0,500000,2000000,40\n"
		"4,2,defaults,12000000,1500000,2000000,1.0,500,1,900000,9000000,90\n"
		"5,2,w0,12000000,1500000,0,1.5,900,0,,,\n";
	g_autofree char *path = write_fixture(*state, "shared.csv", csv);
	g_autofree char *without = write_fixture(*state, "runs.csv", lines_csv);
	g_autofree char *bad = write_fixture(*state, "bad.csv",
					     "seq,round,setting,latency_ns,min_granularity_ns,"
					     "wakeup_granularity_ns,seconds,ctxt,rc,shared_pct\n"
					     "0,0,defaults,1,1,1,1.0,5,0,101\n");
	GError *error = NULL;
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, NULL, &error);
	g_autoptr(RealPlan) q = real_plan_read(without, NULL, NULL, &error);

	assert_null(error);
	assert_int_equal(p->shared_runs, 3);
	assert_close(p->shared_pct, 40, 0);
	assert_int_equal(q->shared_runs, 0);
	assert_true(isnan(q->shared_pct));
	const RealSetting *d = find(p, "defaults"), *w = find(p, "w0");

	assert_true(d->round_shared_pct[0] == 10 && d->round_shared_pct[1] == 40 &&
		    d->round_shared_pct[2] == -1);
	assert_true(w->round_shared_pct[0] == 70 && w->round_shared_pct[1] == -1 &&
		    w->round_shared_pct[2] == -1);
	assert_null(real_plan_read(bad, NULL, NULL, &error));
	assert_non_null(strstr(error->message, "bad.csv:2: shared_pct"));
	g_error_free(error);
}

/*
 * The stalls the guest saw (make-plan.sh -n): per round for the twins, medians over the runs
 * that count and have them (runs 0 and 3; run 2 has none, the failed run 4 does not count):
 * 200000 and 400000 ppm, median 300000. The three columns go together, in the header and in a row.
 */
static void test_guest_stalls(void **state)
{
	static const char head[] = "seq,round,setting,latency_ns,min_granularity_ns,"
				   "wakeup_granularity_ns,seconds,ctxt,rc,guest_stall_ppm,"
				   "guest_stall_ns,guest_stall_cv_pct\n";
	g_autofree char *csv =
		g_strconcat(head,
			    "0,0,defaults,12000000,1500000,2000000,1.0,500,0,"
			    "200000,1000000,300\n"
			    "1,0,w0,12000000,1500000,0,1.5,900,0,,,\n"
			    "3,1,defaults,12000000,1500000,2000000,1.0,500,0,"
			    "400000,3000000,100\n"
			    "4,1,w0,12000000,1500000,0,1.5,900,1,900000,9000000,900\n",
			    NULL);
	g_autofree char *path = write_fixture(*state, "guest.csv", csv);
	g_autofree char *half =
		write_fixture(*state, "half.csv",
			      "seq,round,setting,latency_ns,min_granularity_ns,"
			      "wakeup_granularity_ns,seconds,ctxt,rc,guest_stall_ppm\n"
			      "0,0,defaults,1,1,1,1.0,5,0,1000\n");
	g_autofree char *row = g_strconcat(head, "0,0,defaults,1,1,1,1.0,5,0,1000,,100\n", NULL);
	g_autofree char *partial = write_fixture(*state, "partial.csv", row);
	GError *error = NULL;
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, NULL, &error);

	assert_null(error);
	assert_int_equal(p->steal_runs, 0);
	assert_int_equal(p->guest_runs, 2);
	assert_close(p->guest_ppm, 300000, 0);
	assert_close(p->guest_ns, 2000000, 0);
	assert_close(p->guest_cv_pct, 200, 0);
	const RealSetting *d = find(p, "defaults"), *w = find(p, "w0");

	assert_true(d->round_guest[0].ppm == 200000 && d->round_guest[0].ns == 1000000 &&
		    d->round_guest[0].cv_pct == 300);
	assert_true(d->round_guest[1].ppm == 400000);
	assert_true(w->round_guest[0].ppm == -1 && w->round_guest[1].ppm == -1);

	assert_null(real_plan_read(half, NULL, NULL, &error));
	assert_non_null(strstr(error->message, "half.csv:1: guest_stall_ppm, guest_stall_ns and"));
	g_clear_error(&error);
	assert_null(real_plan_read(partial, NULL, NULL, &error));
	assert_non_null(strstr(error->message, "partial.csv:2: guest_stall_ppm"));
	assert_non_null(strstr(error->message, "all three or none"));
	g_error_free(error);
}

static void expect_error(const char *dir, const char *csv, const char *reference,
			 const char *needle)
{
	g_autofree char *path = write_fixture(dir, "bad.csv", csv);
	GError *error = NULL;
	RealPlan *p = real_plan_read(path, reference, NULL, &error);

	assert_null(p);
	assert_non_null(error);
	if (!strstr(error->message, needle))
		fail_msg("expected '%s' in '%s'", needle, error->message);
	assert_null(strchr(error->message, '\n'));
	g_error_free(error);
}

/*
 * The flips the guest recorded at each run's forks (vm/lines-to-csv.sh's parent_flips): per round
 * for the twins, and their median over the runs that count and have them: runs 0 and 3 (10 and
 * 30; run 1's field is empty, run 2's -1, the failed run 4 does not count): 20. Each fork's, in
 * fork order, per round as well.
 */
static void test_parent_flips(void **state)
{
	static const char csv[] =
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds,ctxt,"
		"rc,forks,parent_flips,flips_first,flips_last,fork_flips\n"
		"0,0,defaults,12000000,1500000,2000000,1.0,500,0,3,10,9,11,9;10;11\n"
		"1,0,w0,12000000,1500000,0,1.5,900,0,,,,,\n"
		"2,1,w0,12000000,1500000,0,1.5,900,0,3,-1,,,\n"
		"3,1,defaults,12000000,1500000,2000000,1.0,500,0,3,30,12,66,12;30;66\n"
		"4,2,defaults,12000000,1500000,2000000,1.0,500,1,1,90,90,90,90\n";
	g_autofree char *path = write_fixture(*state, "flips.csv", csv);
	g_autofree char *without = write_fixture(*state, "runs.csv", lines_csv);
	GError *error = NULL;
	g_autoptr(RealPlan) p = real_plan_read(path, NULL, NULL, &error);
	g_autoptr(RealPlan) q = real_plan_read(without, NULL, NULL, &error);

	assert_null(error);
	assert_int_equal(p->flips_runs, 2);
	assert_close(p->parent_flips, 20, 0);
	assert_int_equal(q->flips_runs, 0);
	assert_true(isnan(q->parent_flips));
	const RealSetting *d = find(p, "defaults"), *w = find(p, "w0");

	/* The failed run 4 makes no round 2. */
	assert_int_equal(p->rounds, 2);
	assert_true(d->round_parent_flips[0] == 10 && d->round_parent_flips[1] == 30);
	assert_true(w->round_parent_flips[0] == -1 && w->round_parent_flips[1] == -1);
	assert_int_equal(d->round_forks[0].n, 3);
	assert_int_equal(d->round_forks[0].flips[0], 9);
	assert_int_equal(d->round_forks[0].flips[2], 11);
	assert_int_equal(d->round_forks[1].n, 3);
	assert_int_equal(d->round_forks[1].flips[1], 30);
	assert_true(w->round_forks[0].n == 0 && w->round_forks[1].n == 0);
	assert_null(w->round_forks[0].flips);
	expect_error(*state,
		     "seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		     "seconds,ctxt,rc,fork_flips\n0,0,defaults,1,1,1,1.0,5,0,1;x\n",
		     NULL, "bad.csv:2: fork_flips: 'x' is not a whole number (item 2)");
	expect_error(*state,
		     "seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,"
		     "seconds,ctxt,rc,parent_flips\n0,0,defaults,1,1,1,1.0,5,0,many\n",
		     NULL, "bad.csv:2: parent_flips: 'many' is not a whole number");
}

static void test_refusals(void **state)
{
	const char *dir = *state;
	GError *error = NULL;

	expect_error(dir, "", NULL, "no header");
	expect_error(dir, "round,setting,latency_ns\n", NULL, "bad.csv:1: no column");
	expect_error(dir, "round,round\n", NULL, "bad.csv:1: header: 'round' appears twice");
	expect_error(dir, HEADER "0,0,defaults," DEF ",1.0,1.1,1000,0\n", NULL,
		     "bad.csv:2: 11 fields, the header has 12");
	expect_error(dir, HEADER "0,0,defaults," DEF ",fast,1.1,1000,0,ok\n", NULL,
		     "bad.csv:2: seconds: 'fast'");
	expect_error(dir, HEADER "0,x,defaults," DEF ",1,1.1,1000,0,ok\n", NULL,
		     "bad.csv:2: round: 'x' is not a whole number");
	expect_error(dir, HEADER "0,0,defaults," DEF ",1,1.1,lots,0,ok\n", NULL,
		     "bad.csv:2: ctxt: 'lots'");
	expect_error(dir,
		     HEADER "0,0,defaults," DEF ",1,1.1,10,0,ok\n"
			    "1,0,defaults," DEF ",1,1.1,10,0,ok\n",
		     NULL, "bad.csv:3: a second run of setting defaults in round 0");
	expect_error(dir, HEADER "0,0,fast," FAST ",1,1.1,10,0,ok\n", NULL,
		     "no run of the reference setting 'defaults'");
	expect_error(dir, HEADER "0,0,fast," FAST ",1,1.1,10,0,ok\n", "base",
		     "no run of the reference setting 'base'");
	expect_error(dir,
		     HEADER "0,0,defaults," DEF ",1,1.1,10,0,ok\n"
			    "1,1,defaults," FAST ",1,1.1,10,0,ok\n",
		     NULL, "bad.csv:3: the reference 'defaults' has other knobs than on line 2");
	expect_error(dir, HEADER "0,0,defaults," DEF ",1,1.1,10,1,ok\n", NULL,
		     "no run of the reference setting 'defaults' counts");

	RealPlan *p = real_plan_read("/nonexistent/runs.csv", NULL, NULL, &error);
	assert_null(p);
	assert_true(g_error_matches(error, REAL_PLAN_ERROR, REAL_PLAN_ERROR_IO));
	assert_true(g_str_has_prefix(error->message, "/nonexistent/runs.csv: cannot read"));
	g_error_free(error);
}

/* A real plan of the repository, with the figures vm/README.md quotes from vm/summarize.sh. */
static void test_repository_plans(void **state)
{
	g_autoptr(RealPlan) t = real_plan_read("vm/data/real-6.1-T-g5-l100.csv", NULL, NULL, NULL);

	(void)state;
	assert_non_null(t);
	assert_int_equal(t->settings->len, 12);
	assert_int_equal(t->rounds, 12);
	assert_close(find(t, "wake0")->median_ratio, 1.337, 0.0005);
	assert_close(find(t, "wake0")->ratio_lo, 1.076, 0.0005);
	assert_close(find(t, "wake0")->ratio_hi, 1.925, 0.0005);
	/* summarize.sh prints the median switches with %d: 83499.5 as 83499. */
	assert_close(find(t, "defaults")->median_ctxt, 83499, 0.5);
	assert_close(find(t, "wake16")->median_ctxt, 10802, 0.5);
	assert_close(find(t, "1000-16.7-1000")->median_ratio, 0.725, 0.0005);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lines_csv, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_order, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_vm_objective_csv, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_steal, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_shared, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_guest_stalls, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_parent_flips, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test(test_repository_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
