/*
 * tests/tuner/fidelity/test_fidelity.c - the fidelity criteria of a plan (tuner/fidelity/
 * fidelity.h) on small real plans and simulated values whose rank correlations, spans, signs,
 * switch ratios, losses and the kernel's own bands are worked out by hand below.
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
#include "tuner/fidelity/fidelity.h"

#define N_ROUNDS 6

/* A setting of a fixture: its wakeup granularity (what tells settings apart), its time ratios to
 * the reference (whose runs take 1 s) and its switches, round by round. */
typedef struct {
	const char *id;
	guint64 wake;
	double ratio[N_ROUNDS];
	int ctxt;
} Fixture;

/* Writes the runs of f[0..n) to dir/file; the path, the caller's. */
static char *csv_of(const char *dir, const char *file, const Fixture *f, guint n)
{
	GString *csv = g_string_new("seq,round,setting,latency_ns,min_granularity_ns,"
				    "wakeup_granularity_ns,seconds,ctxt,rc\n");
	char *path = g_build_filename(dir, file, NULL);
	guint seq = 0;

	for (guint r = 0; r < N_ROUNDS; r++)
		for (guint i = 0; i < n; i++)
			g_string_append_printf(
				csv, "%u,%u,%s,12000000,1500000,%" G_GUINT64_FORMAT ",%.17g,%d,0\n",
				seq++, r, f[i].id, f[i].wake, i == 0 ? 1.0 : f[i].ratio[r],
				f[i].ctxt);
	assert_true(g_file_set_contents(path, csv->str, -1, NULL));
	g_string_free(csv, TRUE);
	return path;
}

static RealPlan *plan_of(const char *dir, const Fixture *f, guint n)
{
	g_autofree char *path = csv_of(dir, "plan.csv", f, n);
	GError *error = NULL;
	RealPlan *p = real_plan_read(path, NULL, NULL, &error);

	assert_null(error);
	return p;
}

/*
 * defaults, A (faster: 6 of 6 rounds), B (slower: 6 of 6), C (no effect). Real medians: 1, 0.5
 * (sorted 0.4 0.45 0.5 0.5 0.6 0.6), 1.5 (1.3 1.4 1.5 1.5 1.6 1.7), 1.025 (0.9 0.95 1 1.05 1.1
 * 1.2); switches 1000, 400, 3000, 1100.
 */
static const Fixture four[] = {
	{ "defaults", 2000000, { 1, 1, 1, 1, 1, 1 }, 1000 },
	{ "A", 16000000, { 0.5, 0.5, 0.6, 0.6, 0.45, 0.4 }, 400 },
	{ "B", 0, { 1.5, 1.6, 1.4, 1.5, 1.7, 1.3 }, 3000 },
	{ "C", 4000000, { 0.9, 1.1, 0.95, 1.05, 1.0, 1.2 }, 1100 },
};

/*
 * Simulated ratios 1, 0.8, 1.2, 0.95 and switches 500, 300, 900, 600.
 * Time ranks: real A 1, defaults 2, C 3, B 4; simulated A 1, C 2, defaults 3, B 4: d^2 sums to
 * 2, rho = 1 - 6 * 2 / (4 * 15) = 0.8. Switch ranks agree: rho = 1. Spans: real 1.5 - 0.5 = 1,
 * simulated 1.2 - 0.8 = 0.4. A and B are significant and reproduced. Switches at the defaults
 * 500 / 1000 = 0.5: outside 1.5x.
 */
static void test_metrics(void **state)
{
	g_autoptr(RealPlan) real = plan_of(*state, four, 4);
	const SimSetting sim[] = {
		{ 1.0, 500, 400, 1e9 },
		{ 0.8, 300, 250, 8e8 },
		{ 1.2, 900, 800, 1.2e9 },
		{ 0.95, 600, 500, 9.5e8 },
	};
	FidelityMetrics m;

	assert_close(real_plan_setting(real, 3)->median_ratio, 1.025, 1e-12);
	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_int_equal(m.n, 4);
	assert_close(m.rank_time, 0.8, 1e-12);
	assert_close(m.rank_switches, 1.0, 1e-12);
	assert_close(m.real_span, 1.0, 1e-12);
	assert_close(m.sim_span, 0.4, 1e-12);
	assert_close(m.span_ratio, 0.4, 1e-12);
	assert_int_equal(m.significant, 2);
	assert_int_equal(m.reproduced, 2);
	assert_close(m.real_switches_ref, 1000, 0);
	assert_close(m.sim_switches_ref, 500, 0);
	assert_close(m.switch_ratio_ref, 0.5, 1e-12);
	/* The reference's real runs take 1 s, its simulation 1e9 ns. */
	assert_close(m.real_seconds_ref, 1.0, 0);
	assert_close(m.sim_seconds_ref, 1.0, 1e-12);
	assert_close(m.seconds_ratio_ref, 1.0, 1e-12);

	double dt[] = { 0, log(0.8 / 0.5), log(1.2 / 1.5), log(0.95 / 1.025) };
	double dc[] = { log(0.5), log(300.0 / 400), log(900.0 / 3000), log(600.0 / 1100) };
	double st = 0, sc = 0;

	for (int i = 0; i < 4; i++) {
		st += dt[i] * dt[i];
		sc += dc[i] * dc[i];
	}
	assert_close(m.rms_log_time, sqrt(st / 4), 1e-12);
	assert_close(m.rms_log_switches, sqrt(sc / 4), 1e-12);
	assert_false(m.rank_time_ok);
	assert_true(m.rank_switches_ok);
	assert_false(m.span_ok);
	assert_true(m.signs_ok);
	assert_false(m.switches_ok);
	assert_false(fidelity_metrics_ok(&m));

	const FidelityLoss w = { .time_weight = 1.0, .switch_weight = 0.5 };
	assert_close(fidelity_loss(real, sim, &w), st / 4 + 0.5 * sc / 4, 1e-12);

	/* The machine's speed: a reference simulated in 2 s against the real 1 s adds
	 * seconds_weight x ln(2)^2, whatever the ratios. */
	SimSetting slow[4];

	memcpy(slow, sim, sizeof(slow));
	slow[0].runtime_ns = 2e9;
	fidelity_metrics(real, slow, FIDELITY_SIG_T, &m);
	assert_close(m.seconds_ratio_ref, 2.0, 1e-12);
	const FidelityLoss ws = { .time_weight = 1.0, .switch_weight = 0.5, .seconds_weight = 3.0 };
	assert_close(fidelity_loss(real, slow, &ws), st / 4 + 0.5 * sc / 4 + 3.0 * log(2) * log(2),
		     1e-12);
	assert_close(fidelity_loss(real, sim, &ws), st / 4 + 0.5 * sc / 4, 1e-12);

	/* The switch level: the defaults simulated with 500 switches against the real 1000 add
	 * ref_switch_weight x ln(1/2)^2 beside the mean over the settings, which weighs that miss
	 * as a quarter of sc; the same model with the real count there adds nothing. */
	const FidelityLoss wr = { .time_weight = 1.0,
				  .switch_weight = 0.5,
				  .ref_switch_weight = 2.0 };
	assert_close(fidelity_loss(real, sim, &wr),
		     st / 4 + 0.5 * sc / 4 + 2.0 * log(0.5) * log(0.5), 1e-12);
	SimSetting level[4];

	memcpy(level, sim, sizeof(level));
	level[0].switches = 1000;
	double sl = sc - log(0.5) * log(0.5); /* the defaults' miss is gone from sc too */

	assert_close(fidelity_loss(real, level, &wr), st / 4 + 0.5 * sl / 4, 1e-12);
	const FidelityLoss only = { .ref_switch_weight = 2.0 };

	assert_close(fidelity_loss(real, sim, &only), 2.0 * log(0.5) * log(0.5), 1e-12);
	assert_close(fidelity_loss(real, level, &only), 0, 0);
}

/*
 * Every criterion met: ratios in the real medians' order with 0.6x their span, switches 1.2x the
 * real ones. Then one sign flipped (B faster): B's effect is not reproduced.
 */
static void test_all_met(void **state)
{
	g_autoptr(RealPlan) real = plan_of(*state, four, 4);
	SimSetting sim[] = {
		{ 1.0, 1200, 0, 0 },
		{ 0.7, 480, 0, 0 },
		{ 1.3, 3600, 0, 0 },
		{ 1.01, 1320, 0, 0 },
	};
	FidelityMetrics m;

	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_close(m.rank_time, 1, 1e-12);
	assert_close(m.rank_switches, 1, 1e-12);
	assert_close(m.span_ratio, 0.6, 1e-12);
	assert_close(m.switch_ratio_ref, 1.2, 1e-12);
	assert_close(m.rms_log_switches, log(1.2), 1e-12);
	assert_true(fidelity_metrics_ok(&m));
	assert_int_equal(fidelity_metrics_met(&m), FIDELITY_CRITERIA);

	sim[2].ratio = 0.9;
	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_int_equal(m.significant, 2);
	assert_int_equal(m.reproduced, 1);
	assert_false(m.signs_ok);
	/*
	 * B at 0.9 also moves the time ranks (simulated A 1, B 2, defaults 3, C 4 against the real
	 * 1, 4, 2, 3: d^2 = 0 + 4 + 1 + 1, rho = 1 - 6 * 6 / 60 = 0.4) and the span (1.01 - 0.7 =
	 * 0.31 of the real 1): three criteria fail, the switches' rank and level hold.
	 */
	assert_close(m.rank_time, 0.4, 1e-12);
	assert_close(m.span_ratio, 0.31, 1e-12);
	assert_false(m.rank_time_ok);
	assert_false(m.span_ok);
	assert_int_equal(fidelity_metrics_met(&m), 2);

	/* Twice the real switches at the reference: the level fails as well. */
	sim[0].switches = 2000;
	sim[1].switches = 800;
	sim[2].switches = 6000;
	sim[3].switches = 2200;
	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_false(m.switches_ok);
	assert_true(m.rank_switches_ok);
	assert_int_equal(fidelity_metrics_met(&m), 1);
}

/*
 * Ties get their mean rank: simulated 1, 0.9, 1.1, 0.9 ranks defaults 3, A 1.5, B 4, C 1.5
 * against the real 2, 1, 4, 3. Pearson on the ranks: deviations (-0.5, -1.5, 1.5, 0.5) and
 * (0.5, -1, 1.5, -1): sum of products 3, of squares 5 and 4.5: r = 3 / sqrt(22.5).
 * A constant side has no rank correlation (NaN), which fails the criterion; a ratio of exactly 1
 * goes neither way.
 */
static void test_ties_and_constants(void **state)
{
	g_autoptr(RealPlan) real = plan_of(*state, four, 4);
	SimSetting sim[] = {
		{ 1.0, 10, 0, 0 },
		{ 0.9, 10, 0, 0 },
		{ 1.1, 10, 0, 0 },
		{ 0.9, 10, 0, 0 },
	};
	FidelityMetrics m;

	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_close(m.rank_time, 3 / sqrt(22.5), 1e-12);
	assert_true(isnan(m.rank_switches));
	assert_false(m.rank_switches_ok);

	for (int i = 0; i < 4; i++)
		sim[i].ratio = 1.0;
	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_true(isnan(m.rank_time));
	assert_close(m.sim_span, 0, 0);
	assert_close(m.span_ratio, 0, 0);
	assert_int_equal(m.reproduced, 0);

	double x[] = { 1, 2 }, y[] = { 3, 3 };
	assert_true(isnan(fidelity_spearman(x, y, 2)));
	assert_true(isnan(fidelity_spearman(x, x, 1)));
	assert_close(fidelity_spearman(x, x, 2), 1, 1e-12);
}

/*
 * D is faster in 5 rounds (0.5) and slower in one (1.05): the mean log ratio is -0.5695 with a
 * t interval well below 0 (t = -4.6 on 5 degrees of freedom), but the sign test's p is
 * 2 P(B <= 1 | n = 6) = 14/64: significant for t, not for sign nor both. A and B are for all.
 */
static void test_significance(void **state)
{
	const Fixture f[] = {
		four[0],
		four[1],
		four[2],
		{ "D", 1000000, { 0.5, 0.5, 0.5, 0.5, 0.5, 1.05 }, 900 },
	};
	g_autoptr(RealPlan) real = plan_of(*state, f, 4);
	const SimSetting sim[] = {
		{ 1, 1, 0, 0 }, { 0.9, 1, 0, 0 }, { 1.1, 1, 0, 0 }, { 1.2, 1, 0, 0 }
	};
	FidelityEffect e;
	FidelityMetrics m;

	assert_close(real_plan_setting(real, 3)->log.sign_p, 14.0 / 64, 1e-12);
	fidelity_effect(real_plan_setting(real, 3), &sim[3], FIDELITY_SIG_T, &e);
	assert_true(e.significant);
	assert_int_equal(e.real_sign, -1);
	assert_int_equal(e.sim_sign, 1);
	assert_false(e.reproduced);
	fidelity_effect(real_plan_setting(real, 3), &sim[3], FIDELITY_SIG_SIGN, &e);
	assert_false(e.significant);
	assert_int_equal(e.real_sign, 0);
	fidelity_effect(real_plan_setting(real, 0), &sim[0], FIDELITY_SIG_T, &e);
	assert_false(e.significant); /* the reference is no effect */

	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_int_equal(m.significant, 3);
	assert_int_equal(m.reproduced, 2);
	fidelity_metrics(real, sim, FIDELITY_SIG_SIGN, &m);
	assert_int_equal(m.significant, 2);
	assert_int_equal(m.reproduced, 2);
	fidelity_metrics(real, sim, FIDELITY_SIG_BOTH, &m);
	assert_int_equal(m.significant, 2);

	FidelitySignificance s;
	assert_true(fidelity_significance_parse("both", &s));
	assert_int_equal(s, FIDELITY_SIG_BOTH);
	assert_string_equal(fidelity_significance_name(FIDELITY_SIG_SIGN), "sign");
	assert_false(fidelity_significance_parse("z", &s));
}

/* A missing or zero simulated value makes the loss infinite: a fit must never prefer it. */
static void test_loss_refuses_missing(void **state)
{
	g_autoptr(RealPlan) real = plan_of(*state, four, 4);
	SimSetting sim[] = {
		{ 1, 1000, 0, 0 }, { 0.5, 400, 0, 0 }, { 1.5, 3000, 0, 0 }, { 1.025, 1100, 0, 0 }
	};
	const FidelityLoss w = { .time_weight = 1.0, .switch_weight = 1.0 };

	assert_close(fidelity_loss(real, sim, &w), 0, 1e-24);
	sim[1].switches = 0;
	assert_true(isinf(fidelity_loss(real, sim, &w)));
	sim[1].switches = 400;
	sim[2].ratio = NAN;
	assert_true(isinf(fidelity_loss(real, sim, &w)));
}

/*
 * The cost line. Real seconds 0.2 + 0.0008 x switches exactly: switches 1000 (the reference, 1 s),
 * 500 (0.6 s), 2000 (1.8 s), 1250 (1.2 s), the same in every round; simulated 0.1 s + 300 us a
 * switch at 1000, 500, 2000, 1250 switches (0.4, 0.25, 0.7, 0.475 s). Two settings or a switch
 * count that never changes leave the line undetermined.
 */
/*
 * Two real plans beside each other. other's settings come in another order, and D is not in
 * four: it is left out. Medians: four's 1, 0.5, 1.5, 1.025 (defaults, A, B, C), other's 1, 0.7,
 * 1.1, 1.3. Time ranks: four A 1, defaults 2, C 3, B 4; other A 1, defaults 2, B 3, C 4: d^2
 * sums to 2, rho = 1 - 6 * 2 / (4 * 15) = 0.8. Switches: four 1000, 400, 3000, 1100, other 1000,
 * 500, 2000, 1500: the same ranks, rho = 1.
 */
static const Fixture other[] = {
	{ "defaults", 2000000, { 1, 1, 1, 1, 1, 1 }, 1000 },
	{ "D", 8000000, { 3, 3, 3, 3, 3, 3 }, 50 },
	{ "C", 4000000, { 1.3, 1.3, 1.3, 1.3, 1.3, 1.3 }, 1500 },
	{ "B", 0, { 1.1, 1.1, 1.1, 1.1, 1.1, 1.1 }, 2000 },
	{ "A", 16000000, { 0.7, 0.7, 0.7, 0.7, 0.7, 0.7 }, 500 },
};

static void test_agreement(void **state)
{
	g_autoptr(RealPlan) a = plan_of(*state, four, 4);
	g_autoptr(RealPlan) b = plan_of(*state, other, 5);
	FidelityAgreement ab, ba;

	fidelity_agreement(a, b, &ab);
	fidelity_agreement(b, a, &ba);
	assert_int_equal(ab.n, 4);
	assert_int_equal(ab.n_switches, 4);
	assert_close(ab.rank_time, 0.8, 1e-12);
	assert_close(ab.rank_switches, 1.0, 1e-12);
	assert_int_equal(ba.n, 4);
	assert_close(ba.rank_time, ab.rank_time, 1e-12);
	assert_close(ba.rank_switches, ab.rank_switches, 1e-12);

	/* A plan beside itself agrees perfectly, D included. */
	fidelity_agreement(b, b, &ba);
	assert_int_equal(ba.n, 5);
	assert_close(ba.rank_time, 1.0, 1e-12);

	/* Ratios to another reference (A) are not beside ratios to the defaults. */
	g_autofree char *path = g_build_filename(*state, "plan.csv", NULL);
	g_autoptr(RealPlan) to_a = real_plan_read(path, "A", NULL, NULL);

	assert_non_null(to_a);
	fidelity_agreement(a, to_a, &ab);
	assert_int_equal(ab.n, 0);
	assert_true(isnan(ab.rank_time) && isnan(ab.rank_switches));
}

/*
 * The kernel's own band. Four plans of one workload, X Y Z Q, over the same five settings, ratios
 * the same in every round; their time ranks, in the order A D defaults C B:
 *   X 1 2 3 4 5   (A 0.5, D 0.8, defaults 1, C 1.2, B 1.5)
 *   Y 1 2 3 5 4   (A 0.6, D 0.9, defaults 1, C 1.4, B 1.3)
 *   Z 3 1 2 5 4   (A 1.1, D 0.8, defaults 1, C 1.3, B 1.2)
 *   Q 1 3 2 4 5   (A 0.7, D 1.05, defaults 1, C 1.2, B 1.5)
 * With five settings rho = 1 - 6 sum d^2 / (5 x 24) = 1 - sum d^2 / 20: X-Y 2 -> 0.9, X-Z 8 ->
 * 0.6, X-Q 2 -> 0.9, Y-Z 6 -> 0.7, Y-Q 4 -> 0.8, Z-Q 10 -> 0.5. So the bands (min, median, max
 * of three) are X 0.6 0.9 0.9, Y 0.7 0.8 0.9, Z 0.5 0.6 0.7, Q 0.5 0.8 0.9.
 * Switch ranks: X and Y 1 2 3 4 5, Z 1 3 2 4 5 (defaults and D swapped): X-Y 1, X-Z and Y-Z 0.9;
 * Q has no count for D, so it shares four with each: below the minimum, in no switch band, and
 * none in its own. X and Y: 0.9 0.95 1 of two; Z 0.9 0.9 0.9.
 * U, of the same workload, has four of the settings, ranked against X's the other way round
 * (rho -1), and V, of another workload, all five the other way round: neither is anyone's
 * partner, and neither has one.
 */
#define SAME(x)                  \
	{                        \
		x, x, x, x, x, x \
	}

static const Fixture band_x[] = {
	{ "defaults", 2000000, SAME(1), 1000 },
	{ "A", 16000000, SAME(0.5), 400 },
	{ "D", 8000000, SAME(0.8), 700 },
	{ "C", 4000000, SAME(1.2), 1100 },
	{ "B", 0, SAME(1.5), 3000 },
};
static const Fixture band_y[] = {
	{ "defaults", 2000000, SAME(1), 1000 },
	{ "A", 16000000, SAME(0.6), 500 },
	{ "D", 8000000, SAME(0.9), 800 },
	{ "C", 4000000, SAME(1.4), 1200 },
	{ "B", 0, SAME(1.3), 2500 },
};
static const Fixture band_z[] = {
	{ "defaults", 2000000, SAME(1), 700 }, { "A", 16000000, SAME(1.1), 400 },
	{ "D", 8000000, SAME(0.8), 1000 },     { "C", 4000000, SAME(1.3), 1100 },
	{ "B", 0, SAME(1.2), 3000 },
};
static const Fixture band_q[] = {
	{ "defaults", 2000000, SAME(1), 1000 },
	{ "A", 16000000, SAME(0.7), 400 },
	{ "D", 8000000, SAME(1.05), -1 },
	{ "C", 4000000, SAME(1.2), 1100 },
	{ "B", 0, SAME(1.5), 3000 },
};
static const Fixture band_u[] = {
	{ "defaults", 2000000, SAME(1), 1000 },
	{ "A", 16000000, SAME(1.5), 3000 },
	{ "C", 4000000, SAME(0.8), 700 },
	{ "B", 0, SAME(0.5), 400 },
};
static const Fixture band_v[] = {
	{ "defaults", 2000000, SAME(1), 1000 },
	{ "A", 16000000, SAME(1.4), 3000 },
	{ "D", 8000000, SAME(1.2), 1100 },
	{ "C", 4000000, SAME(0.7), 700 },
	{ "B", 0, SAME(0.5), 400 },
};

static void add_plan(PlanSet *set, const char *dir, const char *name, const char *workload,
		     const Fixture *f, guint n)
{
	g_autofree char *file = g_strconcat(name, ".csv", NULL);
	g_autofree char *path = csv_of(dir, file, f, n);
	GError *error = NULL;

	assert_true(plan_set_add(set, name, path, workload, PLAN_ROLE_TEST, NULL, &error));
	assert_null(error);
}

static void assert_range(const FidelityRange *r, guint plans, double min, double median, double max)
{
	assert_int_equal(r->plans, plans);
	assert_close(r->min, min, 1e-12);
	assert_close(r->median, median, 1e-12);
	assert_close(r->max, max, 1e-12);
}

static void assert_empty(const FidelityRange *r)
{
	assert_int_equal(r->plans, 0);
	assert_true(isnan(r->min) && isnan(r->median) && isnan(r->max));
}

static void test_band(void **state)
{
	const char *threads = "hackbench -T -g 1 -l 5 -f 4", *pipes = "hackbench -p -g 1 -l 5 -f 4";
	g_autoptr(PlanSet) set = plan_set_new();
	FidelityBand b;

	add_plan(set, *state, "X", threads, band_x, 5);
	add_plan(set, *state, "V", pipes, band_v, 5);
	add_plan(set, *state, "Y", threads, band_y, 5);
	add_plan(set, *state, "U", threads, band_u, 4);
	add_plan(set, *state, "Z", threads, band_z, 5);
	add_plan(set, *state, "Q", threads, band_q, 5);

	fidelity_band(set, 0, &b);
	assert_range(&b.time, 3, 0.6, 0.9, 0.9);
	assert_range(&b.switches, 2, 0.9, 0.95, 1);
	fidelity_band(set, 2, &b);
	assert_range(&b.time, 3, 0.7, 0.8, 0.9);
	assert_range(&b.switches, 2, 0.9, 0.95, 1);
	fidelity_band(set, 4, &b);
	assert_range(&b.time, 3, 0.5, 0.6, 0.7);
	assert_range(&b.switches, 2, 0.9, 0.9, 0.9);
	fidelity_band(set, 5, &b);
	assert_range(&b.time, 3, 0.5, 0.8, 0.9);
	assert_empty(&b.switches);
	for (guint p = 1; p <= 3; p += 2) { /* V, U */
		fidelity_band(set, p, &b);
		assert_empty(&b.time);
		assert_empty(&b.switches);
	}
}

/* Against X's band of the time, 0.6 to 0.9: above from its max on, within from its min on, and
 * a rank correlation that differs from one of them by rounding alone is that one. */
static void test_verdict(void **state)
{
	const FidelityRange x = { 3, 0.6, 0.9, 0.9 }, none = { 0, NAN, NAN, NAN };

	(void)state;
	assert_int_equal(fidelity_verdict(&x, 0.95), FIDELITY_VERDICT_ABOVE);
	assert_int_equal(fidelity_verdict(&x, 0.9), FIDELITY_VERDICT_ABOVE);
	assert_int_equal(fidelity_verdict(&x, 0.89), FIDELITY_VERDICT_WITHIN);
	assert_int_equal(fidelity_verdict(&x, 0.6), FIDELITY_VERDICT_WITHIN);
	assert_int_equal(fidelity_verdict(&x, 0.59), FIDELITY_VERDICT_BELOW);
	/* Equal but for rounding: the band's own values. */
	assert_int_equal(fidelity_verdict(&x, 0.9 - 1e-12), FIDELITY_VERDICT_ABOVE);
	assert_int_equal(fidelity_verdict(&x, 0.6 - 1e-12), FIDELITY_VERDICT_WITHIN);
	assert_int_equal(fidelity_verdict(&x, 0.6 - 1e-6), FIDELITY_VERDICT_BELOW);
	assert_int_equal(fidelity_verdict(&x, -1), FIDELITY_VERDICT_BELOW);
	assert_int_equal(fidelity_verdict(&x, NAN), FIDELITY_VERDICT_NONE);
	assert_int_equal(fidelity_verdict(&none, 1), FIDELITY_VERDICT_NONE);
	assert_string_equal(fidelity_verdict_name(FIDELITY_VERDICT_ABOVE), "above");
	assert_string_equal(fidelity_verdict_name(FIDELITY_VERDICT_WITHIN), "within");
	assert_string_equal(fidelity_verdict_name(FIDELITY_VERDICT_BELOW), "below");
	assert_null(fidelity_verdict_name(FIDELITY_VERDICT_NONE));
}

static const Fixture on_a_line[] = {
	{ "defaults", 2000000, { 1, 1, 1, 1, 1, 1 }, 1000 },
	{ "A", 16000000, { 0.6, 0.6, 0.6, 0.6, 0.6, 0.6 }, 500 },
	{ "B", 0, { 1.8, 1.8, 1.8, 1.8, 1.8, 1.8 }, 2000 },
	{ "C", 4000000, { 1.2, 1.2, 1.2, 1.2, 1.2, 1.2 }, 1250 },
};

static void test_cost_line(void **state)
{
	g_autoptr(RealPlan) real = plan_of(*state, on_a_line, 4);
	SimSetting sim[] = {
		{ 1, 1000, 0, 4e8 },
		{ 0.625, 500, 0, 2.5e8 },
		{ 1.75, 2000, 0, 7e8 },
		{ 1.1875, 1250, 0, 4.75e8 },
	};
	FidelityMetrics m;

	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_close(m.real_fixed_s, 0.2, 1e-9);
	assert_close(m.real_switch_us, 800, 1e-6);
	assert_close(m.sim_fixed_s, 0.1, 1e-9);
	assert_close(m.sim_switch_us, 300, 1e-6);

	/* The loss's line term: (0.1 - 0.2) / 0.2 = -0.5 and (300 - 800) / 800 = -0.625, so
	 * (0.25 + 0.390625) / 2 = 0.3203125 a unit of weight. */
	const FidelityLoss line = { .line_weight = 2.0 };
	assert_close(fidelity_loss(real, sim, &line), 2 * 0.3203125, 1e-9);

	for (int i = 0; i < 4; i++)
		sim[i].switches = 700;
	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_true(isnan(m.sim_fixed_s) && isnan(m.sim_switch_us));
	assert_close(m.real_switch_us, 800, 1e-6);
	assert_true(isinf(fidelity_loss(real, sim, &line)));

	/* No real line: the term is left out, whatever the simulation. */
	g_autoptr(RealPlan) two = plan_of(*state, on_a_line, 2);
	fidelity_metrics(two, sim, FIDELITY_SIG_T, &m);
	assert_true(isnan(m.real_fixed_s) && isnan(m.real_switch_us));
	assert_close(fidelity_loss(two, sim, &line), 0, 0);
}

/*
 * The geometric means rank the settings otherwise than the medians: D's ratios 0.9 0.9 0.95
 * 0.98 1.5 1.6 have the median 0.965 but the geometric mean exp(0.59326 / 6) = 1.104. Real
 * medians: A 0.5 < D 0.965 < defaults 1 < B 1.05; geometric means: A < defaults < B 1.05 < D.
 * Simulated 0.6, 1, 1.1, 1.2 in that last order: rank_time_geo is 1; rank_time has d = 0, 1, 1,
 * -2 (A, defaults, B, D), rho = 1 - 6 * 6 / (4 * 15) = 0.4.
 */
static const Fixture skewed[] = {
	{ "defaults", 2000000, { 1, 1, 1, 1, 1, 1 }, 1000 },
	{ "A", 16000000, { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 }, 500 },
	{ "D", 0, { 0.9, 0.9, 0.95, 0.98, 1.5, 1.6 }, 1500 },
	{ "B", 4000000, { 1.05, 1.05, 1.05, 1.05, 1.05, 1.05 }, 1200 },
};

static void test_rank_geo(void **state)
{
	g_autoptr(RealPlan) real = plan_of(*state, skewed, 4);
	const SimSetting sim[] = {
		{ 1.0, 1000, 0, 1e9 },
		{ 0.6, 500, 0, 6e8 },
		{ 1.2, 1500, 0, 1.2e9 },
		{ 1.1, 1200, 0, 1.1e9 },
	};
	FidelityMetrics m;

	assert_close(real_plan_setting(real, 2)->median_ratio, 0.965, 1e-12);
	assert_close(real_plan_setting(real, 2)->log.ratio, exp(0.59326 / 6), 1e-5);
	fidelity_metrics(real, sim, FIDELITY_SIG_T, &m);
	assert_close(m.rank_time, 0.4, 1e-12);
	assert_close(m.rank_time_geo, 1.0, 1e-12);
	assert_false(m.rank_time_ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_metrics, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_all_met, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_ties_and_constants, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_significance, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_loss_refuses_missing, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_cost_line, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_rank_geo, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_agreement, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_band, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
