/*
 * tests/tuner/cmd/test_cmd_fidelity.c - `tuner fidelity` end to end on two small real plans
 * (hand-made CSVs of tiny hackbench runs): the JSON report's real figures worked out by hand, its
 * simulated ones equal to `linsched hackbench`'s at the same knobs, the criteria consistent with
 * them, the text and CSV forms, --out, --only, --csv, determinism across thread counts, the
 * plans ranked against each other and the kernel's own band, and the refusals. The criteria
 * themselves are tested on hand-made numbers in tests/tuner/fidelity/test_fidelity.c.
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

#define HEADER                                                                                     \
	"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,migration_cost_ns," \
	"seconds,wall_s,ctxt,rc,knobs\n"

/*
 * Plan a (threads, 6 rounds): defaults 1 s and 1000 switches each round; fast (wakeup
 * granularity 16 ms) 0.5 0.5 0.6 0.6 0.45 0.4 s (median 0.5, faster in every round: significant)
 * with 100 switches; slow (0) 1.2 1.1 1.3 1.2 1.25 1.15 s (median 1.2, significant) with 3000.
 * Plan b (pipes, processes, 2 rounds): the same settings, no interval with 2 rounds.
 */
static char *write_plans(const char *dir)
{
	GString *a = g_string_new(HEADER), *b = g_string_new(HEADER);
	const double fast[] = { 0.5, 0.5, 0.6, 0.6, 0.45, 0.4 };
	const double slow[] = { 1.2, 1.1, 1.3, 1.2, 1.25, 1.15 };
	guint seq = 0;

	for (int r = 0; r < 6; r++) {
		g_string_append_printf(a, "%u,%d,slow,12000000,1500000,0,500000,%g,0,3000,0,ok\n",
				       seq++, r, slow[r]);
		g_string_append_printf(
			a, "%u,%d,defaults,12000000,1500000,2000000,500000,1,0,1000,0,ok\n", seq++,
			r);
		g_string_append_printf(
			a, "%u,%d,fast,12000000,1500000,16000000,500000,%g,0,100,0,ok\n", seq++, r,
			fast[r]);
	}
	for (int r = 0; r < 2; r++)
		g_string_append_printf(
			b,
			"%d,%d,defaults,12000000,1500000,2000000,500000,2,0,900,0,ok\n"
			"%d,%d,fast,12000000,1500000,16000000,500000,1,0,90,0,ok\n",
			2 * r, r, 2 * r + 1, r);
	g_autofree char *a_path = g_build_filename(dir, "a.csv", NULL);
	g_autofree char *b_path = g_build_filename(dir, "b.csv", NULL);
	char *ini = g_build_filename(dir, "plans.ini", NULL);

	assert_true(g_file_set_contents(a_path, a->str, -1, NULL));
	assert_true(g_file_set_contents(b_path, b->str, -1, NULL));
	assert_true(g_file_set_contents(ini,
					"[a]\ncsv=a.csv\nworkload=hackbench -T -g 1 -l 5 -f 4\n"
					"role=train\n\n[b]\ncsv=b.csv\n"
					"workload=hackbench -p -g 1 -l 5 -f 4\n",
					-1, NULL));
	g_string_free(a, TRUE);
	g_string_free(b, TRUE);
	return ini;
}

#define SIM_FLAGS "--profile", "6.1", "--cpus", "2", "--hz", "250"

static struct run fidelity(const char *ini, const char *format, const char *jobs)
{
	return run_program(TUNER,
			   (const char *const[]){ "fidelity", "--plans", ini, SIM_FLAGS, "--format",
						  format, "--jobs", jobs, NULL },
			   NULL);
}

static const struct json *item(const struct json *obj, const char *key, guint i)
{
	const struct json *a = member(obj, key, J_ARRAY);

	assert_true(i < a->array->len);
	return a->array->pdata[i];
}

/* linsched hackbench's runtime at a wakeup granularity, for plan a's workload. */
static double linsched_runtime(const char *wake)
{
	struct run r = run_program(LINSCHED,
				   (const char *const[]){ "hackbench", SIM_FLAGS, "-T", "-g", "1",
							  "-l", "5", "-f", "4", "--wakeup-gran-ns",
							  wake, "--format", "json", NULL },
				   NULL);

	expect_clean_exit(&r, "linsched hackbench");
	struct json *j = json_parse(r.out);
	double v = json_number_at(j, "runtime_ns");

	json_free(j);
	run_clear(&r);
	return v;
}

static void test_json(void **state)
{
	g_autofree char *ini = write_plans(*state);
	struct run r = fidelity(ini, "json", "2");

	expect_clean_exit(&r, "tuner fidelity --format json");
	struct json *doc = json_parse(r.out);
	const struct json *a = item(doc, "plans", 0), *b = item(doc, "plans", 1);

	assert_string_equal(json_string_at(doc, "significance"), "t");
	assert_string_equal(member_string(a, "name"), "a");
	assert_string_equal(member_string(a, "role"), "train");
	assert_string_equal(member_string(b, "role"), "test");
	assert_int_equal(member_uint(a, "rounds"), 6);

	const struct json *def = item(a, "settings", 0), *slow = item(a, "settings", 1),
			  *fast = item(a, "settings", 2);

	assert_string_equal(member_string(def, "id"), "defaults");
	assert_string_equal(member_string(slow, "id"), "slow");
	assert_close(json_number_at(def, "sim.ratio"), 1, 0);
	assert_close(json_number_at(fast, "real.median_ratio"), 0.5, 1e-12);
	assert_close(json_number_at(fast, "real.ratio_lo"), 0.4, 1e-12);
	assert_close(json_number_at(fast, "real.sign_p"), 2.0 / 64, 1e-12);
	assert_close(json_number_at(slow, "real.median_ratio"), 1.2, 1e-12);
	assert_close(json_number_at(slow, "real.median_ctxt"), 3000, 0);
	assert_true(member(fast, "significant", J_BOOL)->boolean);
	assert_true(member(slow, "significant", J_BOOL)->boolean);

	/* The simulated side is linsched's own run at those knobs. */
	double d = linsched_runtime("2000000"), f = linsched_runtime("16000000");

	assert_close(json_number_at(def, "sim.runtime_ns"), d, 0);
	assert_close(json_number_at(fast, "sim.runtime_ns"), f, 0);
	assert_close(json_number_at(fast, "sim.ratio"), f / d, 1e-12);
	assert_true(json_number_at(def, "sim.switches") >
		    json_number_at(def, "sim.switches_measured"));

	/* The criteria follow from the rows. */
	const struct json *c = member(a, "criteria", J_OBJECT);

	assert_int_equal(member_uint(c, "settings"), 3);
	assert_int_equal(member_uint(c, "significant"), 2);
	assert_close(json_number_at(c, "real_span"), 1.2 - 0.5, 1e-12);
	assert_close(json_number_at(c, "real_switches_ref"), 1000, 0);
	assert_close(json_number_at(c, "switch_ratio_ref"),
		     json_number_at(def, "sim.switches") / 1000, 1e-12);
	double lo = 1, hi = 1;

	for (guint i = 1; i < 3; i++) {
		double v = json_number_at(item(a, "settings", i), "sim.ratio");

		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	assert_close(json_number_at(c, "sim_span"), hi - lo, 1e-12);
	/* Plan b: two rounds give no interval (null). */
	assert_int_equal(json_at(item(b, "settings", 1), "real.ratio_lo")->kind, J_NULL);

	/* The totals: a role each (train: a, test: b), then a workload each, every one of them
	 * the count of its plan's criteria that hold. */
	const struct json *plans[] = { a, b, a, b };
	const char *kinds[] = { "role", "role", "workload", "workload" };
	const char *names[] = { "train", "test", "hackbench -T -g 1 -l 5 -f 4",
				"hackbench -p -g 1 -l 5 -f 4" };

	assert_int_equal(member(doc, "totals", J_ARRAY)->array->len, 4);
	for (guint i = 0; i < 4; i++) {
		const struct json *t = item(doc, "totals", i);
		const struct json *crit = member(plans[i], "criteria", J_OBJECT);
		const char *flags[] = { "rank_time_ok", "rank_switches_ok", "span_ok", "signs_ok",
					"switches_ok" };
		guint met = 0;

		for (guint k = 0; k < G_N_ELEMENTS(flags); k++)
			met += member(crit, flags[k], J_BOOL)->boolean;
		assert_string_equal(member_string(t, "kind"), kinds[i]);
		assert_string_equal(member_string(t, "name"), names[i]);
		assert_int_equal(member_uint(t, "criteria_met"), met);
		assert_int_equal(member_uint(t, "criteria"), 5);
		assert_int_equal(member_uint(t, "plans"), 1);
		assert_int_equal(member_uint(t, "plans_all_met"),
				 member(crit, "all_ok", J_BOOL)->boolean);
	}
	/* a and b ran different workloads: nothing to rank against each other. */
	assert_int_equal(member(doc, "agreement", J_ARRAY)->array->len, 0);
	json_free(doc);

	/* One thread or two: byte for byte the same. */
	struct run one = fidelity(ini, "json", "1");

	expect_clean_exit(&one, "tuner fidelity --jobs 1");
	assert_string_equal(one.out, r.out);
	run_clear(&one);
	run_clear(&r);
}

static void test_text_csv_out(void **state)
{
	g_autofree char *ini = write_plans(*state);
	g_autofree char *out = g_build_filename(*state, "out", NULL);
	struct run r = fidelity(ini, "text", "2");

	expect_clean_exit(&r, "tuner fidelity");
	assert_non_null(strstr(r.out, "plan a (train): hackbench -T -g 1 -l 5 -f 4"));
	assert_non_null(strstr(r.out, "plan b (test): hackbench -p -g 1 -l 5 -f 4"));
	assert_non_null(strstr(r.out, "significant real effects reproduced: "));
	assert_non_null(strstr(r.out, "\ncriteria met, of 5 a plan:\n  train plans "));
	assert_non_null(strstr(r.out, "\n  hackbench -p -g 1 -l 5 -f 4 "));
	assert_null(strstr(r.out, " \n"));
	run_clear(&r);

	r = fidelity(ini, "csv", "2");
	expect_clean_exit(&r, "tuner fidelity --format csv");
	g_auto(GStrv) lines = g_strsplit(r.out, "\n", -1);

	assert_int_equal(g_strv_length(lines), 1 + 3 + 2 + 1); /* header, rows, "" */
	assert_true(g_str_has_prefix(lines[0], "plan,role,setting,latency_ns,"));
	assert_true(g_str_has_prefix(lines[3], "a,train,fast,12000000,1500000,16000000,6,0.5,"));
	run_clear(&r);

	r = run_program(TUNER,
			(const char *const[]){ "fidelity", "--plans", ini, "--only", "b", SIM_FLAGS,
					       "--out", out, NULL },
			NULL);
	expect_clean_exit(&r, "tuner fidelity --only b --out");
	assert_null(strstr(r.out, "plan a "));
	const char *files[] = { "fidelity.json", "settings.csv", "plans.csv", "fidelity.txt" };

	for (int i = 0; i < 4; i++) {
		g_autofree char *path = g_build_filename(out, files[i], NULL);
		g_autofree char *text = read_text(path);

		assert_true(strlen(text) > 0);
	}
	g_autofree char *plans_csv = g_build_filename(out, "plans.csv", NULL);
	g_autofree char *text = read_text(plans_csv);

	assert_true(g_str_has_prefix(text, "plan,role,settings,rank_time,"));
	assert_non_null(strstr(text, "\nb,test,2,"));
	run_clear(&r);

	/* One plan without a key file. */
	g_autofree char *a_csv = g_build_filename(*state, "a.csv", NULL);

	r = run_program(TUNER,
			(const char *const[]){ "fidelity", "--csv", a_csv, "--workload",
					       "hackbench -T -g 1 -l 5 -f 4", SIM_FLAGS, "--format",
					       "csv", NULL },
			NULL);
	expect_clean_exit(&r, "tuner fidelity --csv");
	assert_non_null(strstr(r.out, "\na.csv,test,fast,"));
	run_clear(&r);
}

/* Two plans of one workload are ranked against each other: c is a's runs again, so they agree
 * perfectly over a's three settings; b, of another workload, is beside neither. c's name, longer
 * than 16 characters, widens the plans table's first column. */
static void test_agreement(void **state)
{
	g_autofree char *ini = write_plans(*state);
	g_autofree char *text = read_text(ini);
	g_autofree char *three = g_strconcat(
		text, "\n[c_with_a_long_name]\ncsv=a.csv\nworkload=hackbench -T -g 1 -l 5 -f 4\n",
		NULL);

	assert_true(g_file_set_contents(ini, three, -1, NULL));
	struct run r = fidelity(ini, "json", "2");

	expect_clean_exit(&r, "tuner fidelity, a and c");
	struct json *doc = json_parse(r.out);
	const struct json *ac = item(doc, "agreement", 0);

	assert_int_equal(member(doc, "agreement", J_ARRAY)->array->len, 1);
	assert_string_equal(item(ac, "plans", 0)->string, "a");
	assert_string_equal(item(ac, "plans", 1)->string, "c_with_a_long_name");
	assert_int_equal(member_uint(ac, "settings"), 3);
	assert_close(json_number_at(ac, "rank_time"), 1, 1e-12);
	assert_int_equal(member_uint(ac, "settings_switches"), 3);
	assert_close(json_number_at(ac, "rank_switches"), 1, 1e-12);
	json_free(doc);
	run_clear(&r);

	r = fidelity(ini, "text", "2");
	expect_clean_exit(&r, "tuner fidelity, a and c (text)");
	assert_non_null(strstr(r.out, "\nreal against real, plans of one workload "));
	/* The pairs' plan columns are as wide as the longest name (18), as the plans table's. */
	assert_non_null(strstr(r.out, "\n  a                  c_with_a_long_name      1.000"
				      "      1.000         3\n"));
	assert_non_null(strstr(r.out, "\nplan               role   rank time"));
	assert_non_null(strstr(r.out, "\na                  train "));
	assert_non_null(strstr(r.out, "\nc_with_a_long_name test  "));
	run_clear(&r);
}

/*
 * The kernel's own band, end to end: three threads plans x, y, z of five settings (two rounds,
 * the same ratios in both), of a workload big enough for the knobs to move the simulated time
 * (the tiny one of the other tests simulates the same time at every setting: no rank
 * correlation), and a pipes plan w. Time ranks in the order w8 min0.1 defaults w0 min6:
 * x 1 2 3 4 5, y 1 2 3 5 4, z 3 1 2 5 4, so with rho = 1 - sum d^2 / 20 x-y is 0.9, x-z 0.6 and
 * y-z 0.7: x's band 0.6..0.9 (median 0.75), y's 0.7..0.9 (0.8), z's 0.6..0.7 (0.65). Switches:
 * x and y alike, z with defaults and min0.1 swapped: x-y 1, x-z and y-z 0.9, so x's and y's band
 * 0.9..1 (0.95), z's 0.9..0.9. w, alone in its workload, has no partner. The model's verdict is
 * whatever its rank correlation (the criteria's) makes it against these.
 */
typedef struct {
	const char *name;
	double ratio[5];
	int ctxt[5];
} BandPlan;

static const char *const band_ids[] = { "w8", "min0.1", "defaults", "w0", "min6" };
static const int band_min[] = { 1500000, 100000, 1500000, 1500000, 6000000 };
static const int band_wake[] = { 8000000, 2000000, 2000000, 0, 2000000 };

static void write_band_plan(const char *dir, const BandPlan *p)
{
	g_autofree char *file = g_strconcat(p->name, ".csv", NULL);
	g_autofree char *path = g_build_filename(dir, file, NULL);
	GString *csv = g_string_new(HEADER);
	guint seq = 0;

	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 5; i++)
			g_string_append_printf(csv, "%u,%d,%s,12000000,%d,%d,500000,%g,0,%d,0,ok\n",
					       seq++, r, band_ids[i], band_min[i], band_wake[i],
					       p->ratio[i], p->ctxt[i]);
	assert_true(g_file_set_contents(path, csv->str, -1, NULL));
	g_string_free(csv, TRUE);
}

/* The verdict a rank correlation earns against a band (fidelity.h), "-" for none. */
static const char *verdict_of(double rank, guint plans, double min, double max)
{
	return plans == 0 || isnan(rank) ? "-"
	       : rank >= max - 1e-9	 ? "above"
	       : rank >= min - 1e-9	 ? "within"
					 : "below";
}

static void check_band(const struct json *plan, const char *side, const char *rank_key, guint plans,
		       double min, double median, double max, GString *row)
{
	g_autofree char *band_path = g_strconcat("band.", side, NULL);
	g_autofree char *rank_path = g_strconcat("criteria.", rank_key, NULL);
	const struct json *band = json_at(plan, band_path), *verdict = NULL;
	const struct json *model = json_at(plan, rank_path);
	double rank = model->kind == J_NULL ? NAN : json_number_at(plan, rank_path);
	const char *want = verdict_of(rank, plans, min, max);

	assert_non_null(band);
	assert_int_equal(member_uint(band, "plans"), plans);
	verdict = json_at(band, "verdict");
	if (plans == 0) {
		assert_int_equal(json_at(band, "min")->kind, J_NULL);
		assert_int_equal(json_at(band, "median")->kind, J_NULL);
		assert_int_equal(json_at(band, "max")->kind, J_NULL);
		assert_int_equal(verdict->kind, J_NULL);
		g_string_append_printf(row, "  %9.3f  %-14s %6s %5u  %-7s", rank, "-", "-", 0, "-");
		return;
	}
	assert_close(json_number_at(band, "min"), min, 1e-12);
	assert_close(json_number_at(band, "median"), median, 1e-12);
	assert_close(json_number_at(band, "max"), max, 1e-12);
	assert_string_equal(verdict->string, want);
	g_autofree char *range = g_strdup_printf("%.3f..%.3f", min, max);

	g_string_append_printf(row, "  %9.3f  %-14s %6.3f %5u  %-7s", rank, range, median, plans,
			       want);
}

static void test_band(void **state)
{
	static const BandPlan plans[] = {
		{ "x", { 0.5, 0.8, 1, 1.2, 1.5 }, { 100, 500, 1000, 1500, 3000 } },
		{ "y", { 0.6, 0.9, 1, 1.4, 1.3 }, { 150, 600, 1100, 1600, 2500 } },
		{ "z", { 1.1, 0.8, 1, 1.3, 1.2 }, { 100, 1000, 500, 1500, 3000 } },
		{ "w", { 0.5, 0.8, 1, 1.2, 1.5 }, { 100, 500, 1000, 1500, 3000 } },
	};
	/* plans, min, median, max of the time, then of the switches */
	static const double want[][8] = {
		{ 2, 0.6, 0.75, 0.9, 2, 0.9, 0.95, 1 },
		{ 2, 0.7, 0.8, 0.9, 2, 0.9, 0.95, 1 },
		{ 2, 0.6, 0.65, 0.7, 2, 0.9, 0.9, 0.9 },
		{ 0, NAN, NAN, NAN, 0, NAN, NAN, NAN },
	};
	g_autofree char *ini = g_build_filename(*state, "band.ini", NULL);
	g_autofree char *out = g_build_filename(*state, "out", NULL);

	for (guint i = 0; i < G_N_ELEMENTS(plans); i++)
		write_band_plan(*state, &plans[i]);
	assert_true(g_file_set_contents(ini,
					"[x]\ncsv=x.csv\nworkload=hackbench -T -g 2 -l 50 -f 10\n"
					"[y]\ncsv=y.csv\nworkload=hackbench -T -g 2 -l 50 -f 10\n"
					"[z]\ncsv=z.csv\nworkload=hackbench -T -g 2 -l 50 -f 10\n"
					"[w]\ncsv=w.csv\nworkload=hackbench -p -g 1 -l 5 -f 4\n",
					-1, NULL));
	struct run r = run_program(
		TUNER,
		(const char *const[]){ "fidelity", "--plans", ini, SIM_FLAGS, "--out", out, NULL },
		NULL);

	expect_clean_exit(&r, "tuner fidelity, four plans");
	g_autofree char *json_path = g_build_filename(out, "fidelity.json", NULL);
	g_autofree char *json_text = read_text(json_path);
	struct json *doc = json_parse(json_text);

	for (guint i = 0; i < G_N_ELEMENTS(plans); i++) {
		const struct json *plan = item(doc, "plans", i);
		g_autoptr(GString) row = g_string_new(NULL);
		const double *b = want[i];

		assert_string_equal(member_string(plan, "name"), plans[i].name);
		assert_int_equal(json_number_at(plan, "band.min_settings"), 5);
		/* x, y and z have a rank correlation of the model, so a verdict. */
		if (want[i][0] > 0)
			assert_false(isnan(json_number_at(plan, "criteria.rank_time")));
		g_string_append_printf(row, "\n  %-16s", plans[i].name);
		check_band(plan, "time", "rank_time", (guint)b[0], b[1], b[2], b[3], row);
		check_band(plan, "switches", "rank_switches", (guint)b[4], b[5], b[6], b[7], row);
		/* The text's row: the same figures, and no blanks at its end. */
		g_strchomp(row->str);
		g_string_append_c(row, '\n');
		if (!strstr(r.out, row->str))
			fail_msg("no row '%s' in:\n%s", row->str, r.out);
	}
	json_free(doc);
	assert_non_null(strstr(r.out, "\nthe model beside the kernel's own band: "));
	assert_non_null(strstr(r.out, "share 5 settings or more"));

	g_autofree char *csv_path = g_build_filename(out, "plans.csv", NULL);
	g_autofree char *csv = read_text(csv_path);
	g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);

	assert_true(g_str_has_suffix(lines[0], ",all_ok,band_time_plans,band_time_min,"
					       "band_time_median,band_time_max,band_time_verdict,"
					       "band_switches_plans,band_switches_min,"
					       "band_switches_median,band_switches_max,"
					       "band_switches_verdict"));
	assert_non_null(strstr(lines[1], ",2,0.6,0.75,0.9,"));
	assert_non_null(strstr(lines[3], ",2,0.6,0.65,0.7,"));
	assert_true(g_str_has_suffix(lines[4], ",0,,,,,0,,,,"));
	run_clear(&r);
}

static void refused(const char *const *args, const char *needle)
{
	struct run r = run_program(TUNER, args, NULL);

	expect_refusal(&r, args[1], needle);
	run_clear(&r);
}

/*
 * A plan with the stalls the guest saw (vm/make-plan.sh -n): the report gives their medians
 * (two runs: 100000 and 300000 ppm -> 200000), and --stalls guest names them in the simulation's
 * description; the default keeps the host's steal.
 */
static void test_guest_stalls(void **state)
{
	g_autofree char *csv = g_build_filename(*state, "g.csv", NULL);
	struct run r;

	assert_true(g_file_set_contents(
		csv,
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds,ctxt,"
		"rc,steal_ppm,stall_ns,guest_stall_ppm,guest_stall_ns,guest_stall_cv_pct\n"
		"1,0,defaults,12000000,1500000,2000000,1,900,0,10000,50000,100000,40000,200\n"
		"3,0,fast,12000000,1500000,16000000,0.5,90,0,10000,50000,300000,60000,400\n",
		-1, NULL));
	for (int guest = 0; guest < 2; guest++) {
		r = run_program(TUNER,
				(const char *const[]){ "fidelity", "--csv", csv, "--workload",
						       "hackbench -T -g 1 -l 5 -f 4", SIM_FLAGS,
						       "--cost-jitter", "0.2", "--stalls",
						       guest ? "guest" : "host", "--format", "json",
						       NULL },
				NULL);
		if (r.status != 0)
			fail_msg("fidelity --stalls: %d, %s", r.status, r.err);
		struct json *doc = json_parse(r.out);
		const struct json *plan = item(doc, "plans", 0);

		assert_close(json_number_at(plan, "guest_stall_runs"), 2, 0);
		assert_close(json_number_at(plan, "guest_stall_ppm"), 200000, 0);
		assert_close(json_number_at(plan, "guest_stall_ns"), 50000, 0);
		assert_close(json_number_at(plan, "guest_stall_cv_pct"), 300, 0);
		assert_true((strstr(json_string_at(doc, "simulation"), "the guest's") != NULL) ==
			    guest);
		json_free(doc);
		run_clear(&r);
	}
}

/*
 * A plan whose runs recorded the host's placement (vm/run-plan.sh's shared_pct): the report gives
 * the median share (20 and 60 -> 40), in JSON and in text.
 */
static void test_shared_placement(void **state)
{
	g_autofree char *csv = g_build_filename(*state, "s.csv", NULL);

	assert_true(g_file_set_contents(
		csv,
		"seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds,ctxt,"
		"rc,steal_ppm,stall_ns,shared_pct\n"
		"1,0,defaults,12000000,1500000,2000000,1,900,0,10000,50000,20\n"
		"3,0,fast,12000000,1500000,16000000,0.5,90,0,10000,50000,60\n",
		-1, NULL));
	for (int json = 0; json < 2; json++) {
		struct run r = run_program(
			TUNER,
			(const char *const[]){ "fidelity", "--csv", csv, "--workload",
					       "hackbench -T -g 1 -l 5 -f 4", SIM_FLAGS, "--format",
					       json ? "json" : "text", NULL },
			NULL);

		expect_clean_exit(&r, "tuner fidelity with shared_pct");
		if (json) {
			struct json *doc = json_parse(r.out);
			const struct json *plan = item(doc, "plans", 0);

			assert_close(json_number_at(plan, "shared_runs"), 2, 0);
			assert_close(json_number_at(plan, "shared_pct"), 40, 0);
			json_free(doc);
		} else {
			assert_non_null(strstr(r.out, "shared host CPUs 40 % of the time (median "
						      "of 2 runs)"));
		}
		run_clear(&r);
	}
}

static void test_refusals(void **state)
{
	g_autofree char *ini = write_plans(*state);
	g_autofree char *bad = g_build_filename(*state, "bad.ini", NULL);

	assert_true(g_file_set_contents(bad, "[x]\ncsv=a.csv\nworkload=hackbench -F\n", -1, NULL));
	refused((const char *const[]){ "fidelity", NULL }, "--plans");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--csv", ini, NULL },
		"give one");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--threads", NULL },
		"--threads");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--wakeup-gran-ns", "1", NULL },
		"--wakeup-gran-ns");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--format", "xml", NULL },
		"--format");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--significance", "p", NULL },
		"--significance");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--stalls", "both", NULL },
		"--stalls: 'both' is not host or guest");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--only", "c", NULL },
		"--only: no plan 'c'");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--replicates", "0", NULL },
		"--replicates");
	refused((const char *const[]){ "fidelity", "--plans", bad, NULL }, "-F is not an option");
	refused((const char *const[]){ "fidelity", "--csv", ini, NULL }, "--workload");
	refused((const char *const[]){ "fidelity", "--plans", ini, "--profile", "9.9", NULL },
		"--profile");
}

/*
 * Every number checked as parsed (-1 was --jobs' "not given"), each flag given once, and the
 * flags that would set what the plans say refused when given, even at the value the plans'
 * commands happen to have (--fds 20 and --datasize 100 were taken for "not given").
 */
static void test_flags_refused(void **state)
{
	g_autofree char *ini = write_plans(*state);
	static const char *const numbers[] = { "--replicates", "--jobs" };
	static const char *const bad_int[] = { "-1", "nan", "1e3", "", "0x10" };
	static const struct {
		const char *flag, *value, *needle;
	} cases[] = {
		{ "--replicates", "1001", "--replicates: must be in 1..1000, got 1001" },
		{ "--jobs", "0", "--jobs: must be in 1..1024, got 0" },
		{ "--fds", "20", "--fds: the plans' workload= gives the workload" },
		{ "--datasize", "100", "--datasize: the plans' workload= gives the workload" },
		{ "--pipe", NULL, "--pipe: the plans' workload= gives the workload" },
		{ "--processes", NULL, "--processes: the plans' workload= gives the workload" },
		{ "--plans", "other.ini", "--plans: given twice" },
		{ "--out", "", "--out: an empty file name" },
		{ "--steal", "nan", "--steal: 'nan' is not a finite number" },
		{ "--stall-ns", "-1", "--stall-ns: must be in 1..1000000000000, got -1" },
		{ "--footprint-lines", "-1", "--footprint-lines" },
		{ "--groups", "5", "--groups" }, /* the plans' commands give it: no such flag */
	};

	for (size_t i = 0; i < G_N_ELEMENTS(numbers); i++)
		for (size_t j = 0; j < G_N_ELEMENTS(bad_int); j++) {
			g_autofree char *needle =
				g_strdup_printf("%s: '%s'", numbers[i], bad_int[j]);

			refused((const char *const[]){ "fidelity", "--plans", ini, numbers[i],
						       bad_int[j], NULL },
				strcmp(bad_int[j], "-1") == 0 ? numbers[i] : needle);
		}
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
		refused((const char *const[]){ "fidelity", "--plans", ini, cases[i].flag,
					       cases[i].value, NULL },
			cases[i].needle);
	refused((const char *const[]){ "fidelity", "--plans", ini, "--jobs", "1", "--jobs", "2",
				       NULL },
		"--jobs: given twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_agreement, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_band, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_text_csv_out, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_guest_stalls, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_shared_placement, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_flags_refused, temp_dir_setup,
						temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
