/*
 * End-to-end tests of `tuner rsm` and `tuner meta-pso`: the real binary of this build variant
 * (BUILD_BIN_DIR/tuner), spawned without a shell, judged by its exit status, its output and the
 * files it writes.
 *
 * Independent checks: responses are compared with `linsched hackbench` runs of the same knobs
 * (BUILD_BIN_DIR/linsched, whose JSON gives runtime_ns: jiffies = runtime_ns * HZ / 1e9); natural
 * levels of the designs are computed here from the ranges; the regression and ANOVA of
 * `--analyse` are compared with the hand-computed data set of test_rsm_study.c (its derivation is
 * there). Workloads are tiny (1 group of 2 + 2 tasks) so that the tests stay fast.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "linsched/model_id.h"
#include "tuner/util/json_read.h"

#include "tests/support/support.h"

#define TINY "--groups", "1", "--loops", "2", "--fds", "2", "--threads"

/* ---- running the programs ------------------------------------------------------------------- */

#define TUNER_RUN(...) run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static void expect_success(const struct run *r, const char *what)
{
	expect_clean_exit(r, what);
	assert_true(r->out[0] != '\0');
}

/* Exit status 2, nothing on stdout, one line on stderr that contains `needle`. */
static void expect_usage_error(struct run r, const char *needle)
{
	expect_refusal(&r, "tuner", needle);
	if (!g_str_has_prefix(r.err, "tuner "))
		fail_msg("stderr does not start with 'tuner ': '%s'", r.err);
	run_clear(&r);
}

/* Turnaround of one `linsched hackbench` run of the tiny workload at these knobs, in jiffies. */
static double linsched_jiffies(const char *latency, const char *min_gran, const char *wakeup)
{
	const char *args[] = { "hackbench",
			       TINY,
			       "--format",
			       "json",
			       "--latency-ns",
			       latency,
			       "--min-gran-ns",
			       min_gran,
			       "--wakeup-gran-ns",
			       wakeup,
			       NULL };
	struct run r = run_program(LINSCHED, args, NULL);
	GError *error = NULL;
	double ns, hz;

	expect_success(&r, "linsched hackbench");

	g_autoptr(JsonReadValue) v = json_read_parse(r.out, -1, "linsched", &error);
	assert_non_null(v);
	assert_true(json_read_number(v, "runtime_ns", &ns));
	assert_true(json_read_number(v, "hz", &hz));
	run_clear(&r);
	return ns * hz / 1e9;
}

/* ---- files ---------------------------------------------------------------------------------- */

static char *make_dir(void)
{
	return temp_dir("test_cmd_rsm_XXXXXX");
}

static void remove_dir(char *dir)
{
	remove_tree(dir);
	g_free(dir);
}

/* The lines of dir/name, without the empty one after the last newline. */
static GStrv read_lines(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *text = read_text(path);

	assert_true(g_str_has_suffix(text, "\n"));
	text[strlen(text) - 1] = '\0';
	return g_strsplit(text, "\n", -1);
}

static JsonReadValue *read_json(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "result.json", NULL);
	GError *error = NULL;
	JsonReadValue *v = json_read_file(path, &error);

	if (!v)
		fail_msg("%s", error->message);
	return v;
}

static double number_at(const JsonReadValue *v, const char *path)
{
	double x;

	if (!json_read_number(v, path, &x))
		fail_msg("result.json has no number at %s", path);
	return x;
}

static double field_number(const char *text)
{
	char *end;
	double v = g_ascii_strtod(text, &end);

	assert_true(end != text && *end == '\0');
	return v;
}

/* ---- rsm ------------------------------------------------------------------------------------ */

static void test_rsm_report_and_files(void **state)
{
	char *dir = make_dir();

	(void)state;
	struct run r = TUNER_RUN("rsm", TINY, "--jobs", "2", "--out", dir);

	expect_success(&r, "tuner rsm");
	/* Every table the issue asks for. */
	const char *sections[] = {
		"Design: central composite, face-centred (alpha = 1): 8 cube + 6 axial + 6 centre = 20 runs",
		"Note: a rotatable design (alpha = 1.6818) does not fit",
		"Design in run order (20 runs; response in jiffies)",
		"Box-Cox power transform",
		"lambda-hat",
		"Sequential model sum of squares [Type I]",
		"Linear vs Mean",
		"2FI vs Linear",
		"Quadratic vs 2FI",
		"ANOVA for the quadratic model",
		"Model",
		"Residual",
		"Lack of Fit",
		"Pure Error",
		"Cor Total",
		"A-latency",
		"A*B",
		"C^2",
		"Std. Dev.",
		"R^2",
		"Adjusted R^2",
		"Predicted R^2",
		"Adeq Precision",
		"C.V. %",
		"Coefficients in coded units",
		"Std. Error",
		"t Value",
		"p-value",
		"Canonical analysis",
		"eigenvalues",
		"eigenvectors",
		"Constrained optimum",
		"Confirmation",
		"defaults",
		"wrote",
		/* Deterministic replicates: the centre points agree exactly. */
		"Lack of Fit",
		"not testable: replicated runs agree exactly (pure error is 0)",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++)
		if (!strstr(r.out, sections[i]))
			fail_msg("the report lacks '%s'", sections[i]);

	/* design.csv: the header, 20 runs, natural = the coded level mapped onto the default
	 * ranges (latency 1e6..1e8, min_granularity 1e5..1e7, wakeup_granularity 0..2e7, linear). */
	g_auto(GStrv) design = read_lines(dir, "design.csv");
	static const double lo[3] = { 1e6, 1e5, 0 }, hi[3] = { 1e8, 1e7, 2e7 };
	int centres = 0;

	assert_string_equal(
		design[0],
		"run,x1,x2,x3,latency_ns,min_granularity_ns,wakeup_granularity_ns,response,response_t");
	assert_int_equal(g_strv_length(design), 21);
	for (int i = 1; i <= 20; i++) {
		g_auto(GStrv) f = g_strsplit(design[i], ",", -1);
		bool centre = true;

		assert_int_equal(g_strv_length(f), 9);
		assert_int_equal(atoi(f[0]), i);
		for (int j = 0; j < 3; j++) {
			double x = field_number(f[1 + j]);

			assert_true(x == -1 || x == 0 || x == 1);
			centre &= x == 0;
			assert_true(field_number(f[4 + j]) ==
				    round((lo[j] + hi[j]) / 2 + x * (hi[j] - lo[j]) / 2));
		}
		centres += centre;
		/* response_t is y^lambda (or y): positive. */
		assert_true(field_number(f[8]) > 0);
		if (i == 1 || centre) {
			/* The response is what linsched measures at the same knobs. */
			double expected = linsched_jiffies(f[4], f[5], f[6]);

			assert_true(fabs(field_number(f[7]) - expected) < 1e-9 * expected);
		}
	}
	assert_int_equal(centres, 6);

	/* anova.csv: the header; Model, 3 groups, 9 terms, Residual, Lack of Fit, Pure Error,
	 * Cor Total; lack of fit is not tested (f and p empty). */
	g_auto(GStrv) anova = read_lines(dir, "anova.csv");
	const char *sources[] = { "Model",
				  "Linear",
				  "2FI",
				  "Quadratic",
				  "latency",
				  "min_granularity",
				  "wakeup_granularity",
				  "latency*min_granularity",
				  "latency*wakeup_granularity",
				  "min_granularity*wakeup_granularity",
				  "latency^2",
				  "min_granularity^2",
				  "wakeup_granularity^2",
				  "Residual",
				  "Lack of Fit",
				  "Pure Error",
				  "Cor Total" };

	assert_string_equal(anova[0], "source,df,ss,ms,f,p");
	assert_int_equal(g_strv_length(anova), 1 + G_N_ELEMENTS(sources));
	for (size_t i = 0; i < G_N_ELEMENTS(sources); i++) {
		g_auto(GStrv) f = g_strsplit(anova[1 + i], ",", -1);

		assert_int_equal(g_strv_length(f), 6);
		assert_string_equal(f[0], sources[i]);
	}
	assert_true(g_str_has_prefix(anova[15], "Lack of Fit,5,") &&
		    g_str_has_suffix(anova[15], ",,"));
	assert_true(g_str_has_prefix(anova[16], "Pure Error,5,"));

	g_auto(GStrv) surface = read_lines(dir, "surface.csv");

	assert_string_equal(
		surface[0],
		"fixed,x1,x2,x3,latency_ns,min_granularity_ns,wakeup_granularity_ns,predicted,predicted_t");
	assert_int_equal(g_strv_length(surface), 1 + 3 * 21 * 21);
	assert_true(g_str_has_prefix(surface[1], "wakeup_granularity,-1,-1,"));
	assert_true(g_str_has_prefix(surface[1 + 2 * 441], "latency,"));

	/* result.json: the keys the issue names; best is the confirmation, default the profile's knobs. */
	g_autoptr(JsonReadValue) v = read_json(dir);
	const char *terms[] = { "Intercept", "latency", "latency*min_granularity",
				"wakeup_granularity^2" };

	for (size_t i = 0; i < G_N_ELEMENTS(terms); i++) {
		g_autofree char *path = g_strdup_printf("coefficients.%s", terms[i]);

		number_at(v, path);
	}
	assert_true(number_at(v, "r2") <= 1);
	number_at(v, "adj_r2");
	number_at(v, "pred_r2");
	assert_non_null(json_read_path(v, "adeq_precision"));
	number_at(v, "lambda");
	assert_non_null(json_read_path(v, "stationary_point"));
	assert_non_null(json_read_path(v, "optimum.coded"));
	assert_string_equal(json_read_string(v, "lack_of_fit"),
			    "not testable: replicated runs agree exactly (pure error is 0)");

	/* The confirmation: linsched at best.knobs, and at the defaults (no knob flags). */
	char lat[32], mg[32], wk[32];

	g_snprintf(lat, sizeof(lat), "%.0f", number_at(v, "best.knobs.latency_ns"));
	g_snprintf(mg, sizeof(mg), "%.0f", number_at(v, "best.knobs.min_granularity_ns"));
	g_snprintf(wk, sizeof(wk), "%.0f", number_at(v, "best.knobs.wakeup_granularity_ns"));
	assert_true(number_at(v, "best.knobs.latency_ns") ==
		    number_at(v, "optimum.natural.latency_ns"));
	assert_true(fabs(number_at(v, "best.value") - linsched_jiffies(lat, mg, wk)) < 1e-9);

	const char *def_args[] = { "hackbench", TINY, "--format", "json", NULL };
	struct run d = run_program(LINSCHED, def_args, NULL);
	GError *error = NULL;
	g_autoptr(JsonReadValue) dv = json_read_parse(d.out, -1, "linsched", &error);

	assert_non_null(dv);
	assert_true(number_at(v, "default.knobs.latency_ns") == number_at(dv, "knobs.latency_ns"));
	assert_true(fabs(number_at(v, "default.value") -
			 number_at(dv, "runtime_ns") * number_at(dv, "hz") / 1e9) < 1e-12);
	run_clear(&d);
	run_clear(&r);
	remove_dir(dir);
}

/* The output does not depend on the number of jobs; a journaled run replays exactly. */
/*
 * With --cost-jitter the simulation varies from run to run, and every design run gets its own
 * seeds: the six centre points are six independent runs, so the pure error has 5 df and a sum of
 * squares above 0, and lack of fit is tested (F and p in anova.csv, "tested" in result.json).  The
 * centre points' pure error is their own spread: the sum of squared deviations from their mean,
 * recomputed here from design.csv.
 */
static void test_rsm_cost_jitter_pure_error(void **state)
{
	char *dir = make_dir();

	(void)state;
	struct run r = TUNER_RUN("rsm", TINY, "--cost-jitter", "0.3", "--jobs", "2", "--lambda",
				 "none", "--out", dir);

	expect_success(&r, "tuner rsm --cost-jitter");
	run_clear(&r);

	g_auto(GStrv) design = read_lines(dir, "design.csv");
	double centre[6], mean = 0, ss = 0;
	int nc = 0;

	for (size_t i = 1; design[i]; i++) {
		g_auto(GStrv) f = g_strsplit(design[i], ",", -1);

		if (strcmp(f[1], "0") == 0 && strcmp(f[2], "0") == 0 && strcmp(f[3], "0") == 0) {
			assert_true(nc < 6);
			centre[nc++] = g_ascii_strtod(f[7], NULL);
		}
	}
	assert_int_equal(nc, 6);
	for (int i = 0; i < 6; i++)
		mean += centre[i] / 6;
	for (int i = 0; i < 6; i++)
		ss += (centre[i] - mean) * (centre[i] - mean);
	assert_true(ss > 0);

	g_auto(GStrv) anova = read_lines(dir, "anova.csv");
	g_auto(GStrv) lof = g_strsplit(anova[15], ",", -1);
	g_auto(GStrv) pure = g_strsplit(anova[16], ",", -1);

	assert_string_equal(lof[0], "Lack of Fit");
	assert_string_equal(pure[0], "Pure Error");
	assert_string_equal(pure[1], "5");
	assert_true(fabs(g_ascii_strtod(pure[2], NULL) - ss) <= 1e-9 * fmax(1, ss));
	assert_true(g_ascii_strtod(lof[4], NULL) > 0); /* F */
	assert_true(g_ascii_strtod(lof[5], NULL) >= 0 && g_ascii_strtod(lof[5], NULL) <= 1);

	g_autoptr(JsonReadValue) v = read_json(dir);

	assert_string_equal(json_read_string(v, "lack_of_fit"), "tested");
	remove_dir(dir);
}

static void test_rsm_deterministic_and_resumable(void **state)
{
	char *dir = make_dir();
	g_autofree char *journal = g_build_filename(dir, "journal", NULL);

	(void)state;
	struct run one = TUNER_RUN("rsm", TINY, "--jobs", "1", "--format", "json");
	struct run two = TUNER_RUN("rsm", TINY, "--jobs", "2", "--format", "json");

	expect_success(&one, "jobs 1");
	expect_success(&two, "jobs 2");
	assert_string_equal(one.out, two.out);

	struct run first = TUNER_RUN("rsm", TINY, "--journal", journal, "--no-sync");
	struct run again = TUNER_RUN("rsm", TINY, "--journal", journal, "--no-sync");

	expect_success(&first, "journal, first run");
	expect_success(&again, "journal, second run");
	/* 15 distinct design points and 2 confirmations: all read back the second time. */
	assert_non_null(strstr(first.out, "Simulations: 17 (0 read from the journal)"));
	assert_non_null(strstr(again.out, "Simulations: 17 (17 read from the journal)"));

	g_autofree char *a = g_strdup(strstr(first.out, "\n\n"));
	g_autofree char *b = g_strdup(strstr(again.out, "\n\n"));

	assert_string_equal(a, b); /* everything after the header */

	/* Another design is another study: the journal refuses it. */
	expect_usage_error(TUNER_RUN("rsm", TINY, "--journal", journal, "--center", "4"),
			   "--journal:");
	/* So is a journal of another simulator's code (its model id). */
	g_autofree char *settings = journal_settings(journal);
	g_autofree char *model =
		g_strdup_printf(" objective=sim sim_model=%s ", linsched_model_id());

	assert_non_null(strstr(settings, model));
	g_autofree char *other_model = journal_change_token(journal, "sim_model");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--journal", journal), other_model);
	run_clear(&one);
	run_clear(&two);
	run_clear(&first);
	run_clear(&again);
	remove_dir(dir);
}

/* A log scale: a rotatable design where the axial points fit, at natural levels computed here. */
static void test_rsm_log_rotatable(void **state)
{
	char *dir = make_dir();

	(void)state;
	struct run r = TUNER_RUN("rsm", TINY, "--log", "--range", "min_granularity=1e6:1e7",
				 "--range", "wakeup_granularity=1e5:1e7", "--out", dir);

	expect_success(&r, "rsm --log");
	assert_non_null(strstr(r.out, "central composite, rotatable (alpha = 1.6818)"));
	assert_null(strstr(r.out, "Note:"));

	g_auto(GStrv) design = read_lines(dir, "design.csv");
	/* log10 of coded -1 and +1 per knob: latency 6..8, min_granularity 6..7, wakeup 5..7. */
	static const double l10lo[3] = { 6, 6, 5 }, l10hi[3] = { 8, 7, 7 };
	double alpha = pow(8, 0.25);
	int axial = 0;

	assert_int_equal(g_strv_length(design), 21);
	for (int i = 1; i <= 20; i++) {
		g_auto(GStrv) f = g_strsplit(design[i], ",", -1);

		for (int j = 0; j < 3; j++) {
			double x = field_number(f[1 + j]);
			double expected = round(
				pow(10, (l10lo[j] + l10hi[j]) / 2 + x * (l10hi[j] - l10lo[j]) / 2));

			if (fabs(x) > 1) {
				axial++;
				assert_true(fabs(fabs(x) - alpha) < 1e-12);
			}
			assert_true(fabs(field_number(f[4 + j]) - expected) <= 1);
		}
	}
	assert_int_equal(axial, 6);
	run_clear(&r);

	/* --log on a range from 0: ln(v + 1 us); the centre is sqrt(1000 * 20001000) - 1000 = 140424.9. */
	r = TUNER_RUN("rsm", TINY, "--log=wakeup_granularity", "--format", "json");
	expect_success(&r, "rsm --log=wakeup_granularity");

	GError *error = NULL;
	g_autoptr(JsonReadValue) v = json_read_parse(r.out, -1, "stdout", &error);
	const JsonReadValue *points = json_read_path(v, "design.points");
	bool seen = false;

	assert_non_null(points);
	for (guint i = 0; i < points->items->len; i++) {
		g_autofree char *x3 = g_strdup_printf("design.points.%u.coded.2", i);
		g_autofree char *w =
			g_strdup_printf("design.points.%u.natural.wakeup_granularity_ns", i);

		if (number_at(v, x3) == 0) {
			assert_true(number_at(v, w) == 140425);
			seen = true;
		}
		if (number_at(v, x3) == -1)
			assert_true(number_at(v, w) == 0);
	}
	assert_true(seen);
	assert_string_equal(json_read_string(v, "factors.2.scale"), "log");
	assert_string_equal(json_read_string(v, "factors.0.scale"), "linear");
	run_clear(&r);
	remove_dir(dir);
}

/* The hand-computed data set of test_rsm_study.c, through --analyse and the files. */
static const double hc_b[10] = { 10, 1, -2, 0.5, 0.5, -0.25, 0.75, 2, 1, -1 };
static const double hc_e[6] = { 0.3, -0.3, 0.2, -0.2, 0.1, -0.1 };

static double hc_f(const double *x)
{
	return hc_b[0] + hc_b[1] * x[0] + hc_b[2] * x[1] + hc_b[3] * x[2] + hc_b[4] * x[0] * x[1] +
	       hc_b[5] * x[0] * x[2] + hc_b[6] * x[1] * x[2] + hc_b[7] * x[0] * x[0] +
	       hc_b[8] * x[1] * x[1] + hc_b[9] * x[2] * x[2];
}

/* design.csv with the first n_rows of the face-centred CCD (cube, faces, centres). */
static char *write_hand_design(const char *dir, int n_rows)
{
	GString *csv = g_string_new("# the hand-computed data set\nx1,x2,x3,response\n");
	char *path = g_build_filename(dir, "hand.csv", NULL);
	GError *error = NULL;
	int i = 0;

	for (int r = 0; r < 20 && i < n_rows; r++, i++) {
		double x[3] = { 0, 0, 0 };

		if (r < 8) {
			x[0] = r & 1 ? 1 : -1;
			x[1] = r & 2 ? 1 : -1;
			x[2] = r & 4 ? 1 : -1;
		} else if (r < 14) {
			x[(r - 8) / 2] = (r - 8) % 2 ? 1 : -1;
		}
		g_string_append_printf(csv, "%g,%g,%g,%.17g\n", x[0], x[1], x[2],
				       hc_f(x) + (r >= 14 ? hc_e[r - 14] : 0));
	}
	assert_true(g_file_set_contents(path, csv->str, -1, &error));
	g_string_free(csv, TRUE);
	return path;
}

static void test_rsm_analyse_hand_computed(void **state)
{
	char *dir = make_dir();
	g_autofree char *path = write_hand_design(dir, 20);
	g_autofree char *out = g_build_filename(dir, "out", NULL);

	(void)state;
	struct run r = TUNER_RUN("rsm", "--analyse", path, "--lambda", "none", "--out", out);

	expect_success(&r, "rsm --analyse");
	assert_non_null(strstr(r.out, "Confirmation: not simulated (--analyse)"));

	/* SSE = 0.28 on 10 df, all pure error (5 df); partial SS: 10 b² (linear), 8 b² (interactions),
	 * b² / (4/11) (pure quadratic); F = SS / 0.028. */
	struct {
		const char *source;
		int df;
		double ss;
		bool tested;
	} rows[] = {
		{ "latency", 1, 10, true },
		{ "min_granularity", 1, 40, true },
		{ "wakeup_granularity", 1, 2.5, true },
		{ "latency*min_granularity", 1, 2, true },
		{ "latency*wakeup_granularity", 1, 0.5, true },
		{ "min_granularity*wakeup_granularity", 1, 4.5, true },
		{ "latency^2", 1, 11, true },
		{ "min_granularity^2", 1, 2.75, true },
		{ "wakeup_granularity^2", 1, 2.75, true },
		{ "Residual", 10, 0.28, false },
		{ "Lack of Fit", 5, 0, true },
		{ "Pure Error", 5, 0.28, false },
	};
	g_auto(GStrv) anova = read_lines(out, "anova.csv");
	size_t matched = 0;

	for (size_t i = 1; anova[i]; i++) {
		g_auto(GStrv) f = g_strsplit(anova[i], ",", -1);

		for (size_t k = 0; k < G_N_ELEMENTS(rows); k++) {
			if (strcmp(f[0], rows[k].source) != 0)
				continue;
			matched++;
			assert_int_equal(atoi(f[1]), rows[k].df);
			assert_true(fabs(field_number(f[2]) - rows[k].ss) < 1e-9);
			if (rows[k].tested && k < 9)
				assert_true(fabs(field_number(f[4]) - rows[k].ss / 0.028) < 1e-6);
			if (!rows[k].tested)
				assert_string_equal(f[4], "");
		}
	}
	assert_int_equal(matched, G_N_ELEMENTS(rows));

	g_autoptr(JsonReadValue) v = read_json(out);
	const char *terms[10] = { "Intercept",
				  "latency",
				  "min_granularity",
				  "wakeup_granularity",
				  "latency*min_granularity",
				  "latency*wakeup_granularity",
				  "min_granularity*wakeup_granularity",
				  "latency^2",
				  "min_granularity^2",
				  "wakeup_granularity^2" };

	for (int t = 0; t < 10; t++) {
		g_autofree char *key = g_strdup_printf("coefficients.%s", terms[t]);

		assert_true(fabs(number_at(v, key) - hc_b[t]) < 1e-12);
	}
	assert_true(json_read_path(v, "best")->type == JSON_READ_NULL);
	assert_true(number_at(v, "lambda") == 1);
	run_clear(&r);

	/* Fewer runs than terms (the cube alone: complete, but too small). */
	g_autofree char *few = write_hand_design(dir, 8);

	expect_usage_error(TUNER_RUN("rsm", "--analyse", few), "8 runs for 10 terms");
	remove_dir(dir);
}

/*
 * The incomplete designs: a design.csv of tuner rsm (the report fixture: a face-centred CCD
 * of 20 runs, rows in run order, ending with run 19 at the centre and run 20 at (-1, 0, 0)) with a
 * run duplicated, deleted, or cut off. --analyse refuses each, naming the runs.
 */
static void test_rsm_analyse_incomplete(void **state)
{
	(void)state;
	char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "design.csv", NULL);
	g_autofree char *text = read_text("tests/tuner/fixtures/report/rsm/design.csv");
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1); /* [0] header, [i] run i, [21] "" */
	assert_int_equal(g_strv_length(lines), 22);

	/* The file as written: accepted. */
	assert_true(g_file_set_contents(path, text, -1, NULL));
	struct run ok = TUNER_RUN("rsm", "--analyse", path);
	expect_success(&ok, "the fixture's design");
	run_clear(&ok);

	/* Run 4 (line 5) again at the end, as line 22. */
	g_autofree char *dup = g_strdup_printf("%s%s\n", text, lines[4]);
	assert_true(g_file_set_contents(path, dup, -1, NULL));
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path), ":22: run 4 again (line 5 has it)");

	/* The same point under a new run number 21. */
	g_autofree char *renumbered = g_strdup_printf("%s21%s\n", text, strchr(lines[4], ','));
	assert_true(g_file_set_contents(path, renumbered, -1, NULL));
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path),
			   ":22: run 21 repeats the point (+1, +1, +1) of run 4");

	/* Run 5 (line 6) deleted. */
	GString *deleted = g_string_new(NULL);
	for (guint i = 0; i < 21; i++)
		if (i != 5)
			g_string_append_printf(deleted, "%s\n", lines[i]);
	assert_true(g_file_set_contents(path, deleted->str, -1, NULL));
	g_string_free(deleted, TRUE);
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path),
			   "run 5 is missing (runs go to 20, the file has 19)");

	/* Run 6 renumbered 4294967295, the largest run number: found by fuzz_design_csv, whose
	 * run-number check counted up to the largest run, scanning every row at each (minutes). */
	g_autofree char *huge = g_strdup_printf("%s", text);
	char *six = strstr(huge, "\n6,");
	g_autofree char *renamed = NULL;

	assert_non_null(six);
	six[1] = '\0';
	renamed = g_strdup_printf("%s4294967295%s", huge, six + 2);
	assert_true(g_file_set_contents(path, renamed, -1, NULL));
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path),
			   "run 6 is missing (runs go to 4294967295, the file has 20)");

	/* Cut off after run 18: the axial point of run 20 is gone. */
	GString *cut = g_string_new(NULL);
	for (guint i = 0; i <= 18; i++)
		g_string_append_printf(cut, "%s\n", lines[i]);
	assert_true(g_file_set_contents(path, cut->str, -1, NULL));
	g_string_free(cut, TRUE);
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path),
			   "the design is incomplete: its axial points lack the point (-1, 0, 0)");

	/* A response no time can have. */
	g_auto(GStrv) f = g_strsplit(lines[3], ",", -1);
	g_free(f[7]);
	f[7] = g_strdup("-29.4");
	g_free(lines[3]);
	lines[3] = g_strjoinv(",", f);
	g_autofree char *negative = g_strjoinv("\n", lines);
	assert_true(g_file_set_contents(path, negative, -1, NULL));
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path),
			   ":4: response: -29.4 is not a time > 0");
	remove_dir(dir);
}

/*
 * A design replicated in rounds (a round column, as rsm --objective vm writes it): the fixture's 20
 * runs twice, as runs 1..40 in rounds 0 and 1, is accepted; a round that lacks a run, or is a whole
 * design but not the same one, is refused, naming the round.
 */
static void test_rsm_analyse_rounds(void **state)
{
	(void)state;
	char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "design.csv", NULL);
	g_autofree char *text = read_text("tests/tuner/fixtures/report/rsm/design.csv");
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1); /* [0] header, [i] run i, [21] "" */
	GString *two = g_string_new(NULL), *short_round = g_string_new(NULL);

	g_string_append_printf(two, "%s,round\n", lines[0]);
	g_string_append_printf(short_round, "%s,round\n", lines[0]);
	for (guint round = 0; round < 2; round++)
		for (guint i = 1; i <= 20; i++) {
			const char *rest = strchr(lines[i], ',');

			g_string_append_printf(two, "%u%s,%u\n", round * 20 + i, rest, round);
			if (!(round == 1 && i == 20))
				g_string_append_printf(short_round, "%u%s,%u\n", round * 20 + i,
						       rest, round);
		}
	assert_true(g_file_set_contents(path, two->str, -1, NULL));
	struct run ok = TUNER_RUN("rsm", "--analyse", path, "--format", "json");
	expect_success(&ok, "a design in two rounds");
	assert_non_null(strstr(ok.out, "\"runs\": 40"));
	run_clear(&ok);

	/* Round 1 lost its last run, the axial point (-1, 0, 0). */
	assert_true(g_file_set_contents(path, short_round->str, -1, NULL));
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path), "round 1: ");

	/* Round 1 with a seventh centre point: a design, but not round 0's. */
	const char *centre = strchr(lines[19], ',');
	g_string_append_printf(two, "41%s,1\n", centre);
	assert_true(g_file_set_contents(path, two->str, -1, NULL));
	expect_usage_error(TUNER_RUN("rsm", "--analyse", path),
			   "round 1 is not the design of round 0");
	g_string_free(two, TRUE);
	g_string_free(short_round, TRUE);
	remove_dir(dir);
}

static void test_rsm_bad_input(void **state)
{
	(void)state;
	expect_usage_error(TUNER_RUN("rsm", TINY, "--range", "latency=5e6:1e6"), "lo < hi");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--range", "latency=1e6:1e6"), "lo < hi");
	/* One sender and one receiver: the knobs change nothing. */
	expect_usage_error(TUNER_RUN("rsm", "--groups", "1", "--loops", "1", "--fds", "1"),
			   "the response is constant");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--alpha", "rotatable"), "--alpha rotatable:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--design", "bbd", "--alpha", "face"),
			   "--alpha:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--design", "box"), "--design:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--lambda", "4"), "--lambda:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--center", "-1"), "--center:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--replicates", "0"), "--replicates:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--jobs", "-1"), "--jobs:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--latency-ns", "5000000"), "--latency-ns:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--log=lat"), "--log:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "extra"), "unexpected argument");
	expect_usage_error(TUNER_RUN("rsm", "--analyse", "/nonexistent/design.csv"), "--analyse:");
	expect_usage_error(TUNER_RUN("rsm", "--analyse", "x.csv", "--center", "3"), "--analyse:");
	/* Issue 16: numbers checked as parsed, -1 no longer "not given"; flags that do nothing with
	 * --analyse (it simulates nothing); a knob given two ranges. */
	expect_usage_error(TUNER_RUN("rsm", TINY, "--replicates", "-1"), "--replicates:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--center", "nan"), "--center:");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--jobs", "0"), "--jobs:");
	expect_usage_error(TUNER_RUN("rsm", "--analyse", "x.csv", "--jobs", "2"),
			   "--analyse: fits a finished design; --jobs does not apply");
	expect_usage_error(TUNER_RUN("rsm", "--analyse", "x.csv", "--cpus", "4"),
			   "--analyse: fits a finished design; --cpus does not apply");
	expect_usage_error(TUNER_RUN("rsm", "--analyse", "x.csv", "--groups", "4"),
			   "--analyse: fits a finished design; --groups does not apply");
	expect_usage_error(
		TUNER_RUN("rsm", TINY, "--range", "latency=1e6:2e6", "--range", "latency=1e6:3e6"),
		"--range: latency is given twice");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--journal", ""),
			   "--journal: an empty file name");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--out", ""), "--out: an empty file name");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--no-sync"), "--no-sync: there is no --journal");
}

static void test_rsm_box_behnken(void **state)
{
	(void)state;
	struct run r =
		TUNER_RUN("rsm", TINY, "--design", "bbd", "--replicates", "2", "--lambda", "none");

	expect_success(&r, "rsm --design bbd");
	assert_non_null(strstr(r.out, "Design: Box-Behnken: 12 edge + 3 centre = 15 runs"));
	assert_non_null(strstr(r.out, "the mean of 2 replicates (seeds 1..2)"));
	assert_non_null(strstr(r.out, "--lambda none: the response is not transformed"));
	run_clear(&r);
}

/* ---- meta-pso ------------------------------------------------------------------------------- */

static void test_meta_pso(void **state)
{
	char *dir = make_dir();

	(void)state;
	struct run r =
		TUNER_RUN("meta-pso", TINY, "--particles", "3", "--iterations", "3", "--out", dir);

	expect_success(&r, "meta-pso");
	const char *sections[] = {
		"Box-Behnken, 14 runs (2 centre points)",
		"PSO runs in run order",
		"Box-Cox",
		"Sequential model sum of squares",
		"ANOVA for the quadratic model",
		"Fit statistics",
		"Coefficients in coded units",
		"Canonical analysis",
		"Constrained optimum",
		"Confirmation: PSO at the optimum, the defaults, the thesis and the classic parameters"
	};

	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++)
		if (!strstr(r.out, sections[i]))
			fail_msg("the report lacks '%s'", sections[i]);

	g_auto(GStrv) design = read_lines(dir, "design.csv");
	int centres = 0;

	assert_string_equal(
		design[0],
		"run,x1,x2,x3,omega,phi_p,phi_g,response,response_t,best_value,iterations_to_best,"
		"latency_ns,min_granularity_ns,wakeup_granularity_ns,pso_seed");
	assert_int_equal(g_strv_length(design), 15);
	for (int i = 1; i <= 14; i++) {
		g_auto(GStrv) f = g_strsplit(design[i], ",", -1);
		double omega = field_number(f[4]), pp = field_number(f[5]), pg = field_number(f[6]);
		int mid = (omega == 0.45) + (pp == 2) + (pg == 2);

		assert_int_equal(g_strv_length(f), 15);
		assert_true(omega == 0 || omega == 0.45 || omega == 0.9);
		assert_true(pp == 0 || pp == 2 || pp == 4);
		assert_true(pg == 0 || pg == 2 || pg == 4);
		/* Box-Behnken: an edge point has exactly one factor at its middle level; a centre has three. */
		assert_true(mid == 1 || mid == 3);
		centres += mid == 3;
		/* Score = best + 1 x iterations to reach it. */
		assert_true(fabs(field_number(f[7]) - (field_number(f[9]) + field_number(f[10]))) <
			    1e-12);
		assert_true(field_number(f[10]) >= 1 && field_number(f[10]) <= 3);
		if (i == 1) {
			/* The best a swarm reports is what linsched measures at its best knobs. */
			double expected = linsched_jiffies(f[11], f[12], f[13]);

			assert_true(fabs(field_number(f[9]) - expected) < 1e-9);
		}
	}
	assert_int_equal(centres, 2);

	g_autoptr(JsonReadValue) v = read_json(dir);

	number_at(v, "best.value");
	number_at(v, "default.value");
	assert_true(number_at(v, "default.omega") == 0.7298);
	assert_true(number_at(v, "thesis.omega") == 0.4365);
	assert_true(number_at(v, "classic.omega") == 0.9);
	assert_int_equal(json_read_path(v, "runs")->items->len, 14);
	number_at(v, "r2");
	run_clear(&r);

	/* The same run with other jobs gives the same scores; a journaled one replays them. */
	g_autofree char *journal = g_build_filename(dir, "journal", NULL);
	struct run a = TUNER_RUN("meta-pso", TINY, "--particles", "3", "--iterations", "3",
				 "--format", "json", "--jobs", "1");
	struct run b =
		TUNER_RUN("meta-pso", TINY, "--particles", "3", "--iterations", "3", "--format",
			  "json", "--jobs", "2", "--journal", journal, "--no-sync");
	struct run c =
		TUNER_RUN("meta-pso", TINY, "--particles", "3", "--iterations", "3", "--format",
			  "json", "--jobs", "2", "--journal", journal, "--no-sync");

	expect_success(&a, "meta-pso jobs 1");
	expect_success(&b, "meta-pso jobs 2, journal");
	expect_success(&c, "meta-pso from the journal");
	g_autofree char *settings = journal_settings(journal);
	g_autofree char *model =
		g_strdup_printf(" objective=sim sim_model=%s ", linsched_model_id());

	assert_non_null(strstr(settings, model));

	GError *error = NULL;
	g_autoptr(JsonReadValue) va = json_read_parse(a.out, -1, "jobs 1", &error);
	g_autoptr(JsonReadValue) vb = json_read_parse(b.out, -1, "jobs 2", &error);
	g_autoptr(JsonReadValue) vc = json_read_parse(c.out, -1, "journal", &error);

	assert_non_null(va);
	assert_non_null(vb);
	assert_non_null(vc);
	for (guint i = 0; i < 14; i++) {
		g_autofree char *key = g_strdup_printf("runs.%u.value", i);

		assert_true(number_at(va, key) == number_at(vb, key));
		assert_true(number_at(vb, key) == number_at(vc, key));
	}
	assert_true(number_at(va, "best.value") == number_at(vc, "best.value"));
	/* The first journaled run finds in it only what its own earlier rounds simulated. */
	assert_true(number_at(vb, "simulations_from_journal") < number_at(vb, "simulations"));
	assert_true(number_at(vc, "simulations_from_journal") == number_at(vc, "simulations"));
	run_clear(&a);
	run_clear(&b);
	run_clear(&c);
	remove_dir(dir);
}

/* A workload whose turnaround the knobs move (the tiny one does not, over narrow ranges). */
#define SMALL "--groups", "1", "--loops", "20", "--fds", "4", "--threads", "--cpus", "2"

/*
 * Issue 15: four knobs, a rotatable CCD (16 cube + 8 axial at alpha 2 + 6 centre = 30 runs). The
 * ranges keep the axial points inside the knobs' ranges: centre c and half width h of each range
 * put coded x at c + x h: latency 4 ms +- 1 ms, min_granularity 0.8 +- 0.2 ms, wakeup 1 +- 0.5 ms,
 * migration_cost 0.5 +- 0.25 ms, so the axial run x4 = -2 has migration_cost 0. The model has
 * 1 + 2 x 4 + 4 x 3 / 2 = 15 terms, and the optimum's knobs carry migration_cost_ns.
 */
static void test_rsm_four_knobs(void **state)
{
	char *dir = make_dir();
	static const double centre[4] = { 4e6, 8e5, 1e6, 5e5 }, half[4] = { 1e6, 2e5, 5e5, 2.5e5 };

	(void)state;
	struct run r =
		TUNER_RUN("rsm", SMALL, "--knobs",
			  "latency,min_granularity,wakeup_granularity,migration_cost", "--range",
			  "latency=3000000:5000000", "--range", "min_granularity=600000:1000000",
			  "--range", "wakeup_granularity=500000:1500000", "--range",
			  "migration_cost=250000:750000", "--out", dir);

	expect_success(&r, "rsm --knobs 4");
	assert_non_null(strstr(r.out, "response surface of latency, min_granularity, "
				      "wakeup_granularity, migration_cost"));
	assert_non_null(strstr(r.out, "16 cube + 8 axial + 6 centre = 30 runs"));

	g_auto(GStrv) design = read_lines(dir, "design.csv");
	assert_string_equal(design[0],
			    "run,x1,x2,x3,x4,latency_ns,min_granularity_ns,"
			    "wakeup_granularity_ns,migration_cost_ns,response,response_t");
	assert_int_equal(g_strv_length(design), 31);
	guint axial = 0;
	for (int i = 1; i <= 30; i++) {
		g_auto(GStrv) f = g_strsplit(design[i], ",", -1);
		guint far = 0;
		for (int j = 0; j < 4; j++) {
			double x = field_number(f[1 + j]);
			assert_true(field_number(f[5 + j]) == centre[j] + x * half[j]);
			far += fabs(x) == 2;
		}
		axial += far;
	}
	assert_int_equal(axial, 8);

	g_autoptr(JsonReadValue) v = read_json(dir);
	assert_true(number_at(v, "design.alpha") == 2);
	assert_true(number_at(v, "best.knobs.migration_cost_ns") >= 0);
	double x;
	assert_true(json_read_number(v, "coefficients.migration_cost^2", &x));
	assert_true(json_read_number(v, "coefficients.wakeup_granularity*migration_cost", &x));
	run_clear(&r);
	remove_dir(dir);
}

/*
 * Issue 14: the eevdf profile's RSM varies base_slice alone: a one-factor CCD, -1, +1, axial at
 * 2^(1/4) = 1.189207, 6 centres: base_slice 2 ms +- 1 ms, so the axial runs are 2e6 +- 1189207
 * ns. Three terms: intercept, base_slice, base_slice^2.
 */
static void test_rsm_base_slice(void **state)
{
	char *dir = make_dir();

	(void)state;
	struct run r = TUNER_RUN("rsm", "--groups", "2", "--loops", "20", "--threads", "--cpus",
				 "2", "--profile", "eevdf", "--range", "base_slice=1000000:3000000",
				 "--out", dir);

	expect_success(&r, "rsm --profile eevdf");
	assert_non_null(strstr(r.out, "response surface of base_slice"));
	g_auto(GStrv) design = read_lines(dir, "design.csv");
	assert_string_equal(design[0], "run,x1,base_slice_ns,response,response_t");
	assert_int_equal(g_strv_length(design), 11);
	guint seen = 0;
	for (int i = 1; i <= 10; i++) {
		g_auto(GStrv) f = g_strsplit(design[i], ",", -1);
		double x = field_number(f[1]), n = field_number(f[2]);
		if (fabs(fabs(x) - 1.189207115002721) < 1e-12) {
			assert_true(n == (x < 0 ? 810793 : 3189207));
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	g_autoptr(JsonReadValue) v = read_json(dir);
	double x;
	assert_true(json_read_number(v, "coefficients.base_slice^2", &x));
	assert_false(json_read_number(v, "coefficients.migration_cost", &x));
	assert_true(number_at(v, "best.knobs.base_slice_ns") >= 1000000);
	assert_true(number_at(v, "default.knobs.base_slice_ns") == 1400000);
	run_clear(&r);
	remove_dir(dir);
}

static void test_rsm_knob_set_refused(void **state)
{
	(void)state;
	expect_usage_error(TUNER_RUN("rsm", TINY, "--profile", "eevdf", "--knobs", "latency"),
			   "--knobs: the eevdf profile");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--log=migration_cost"),
			   "--log: migration_cost is not searched");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--range", "base_slice=1:2"),
			   "--range: base_slice is not searched");
	expect_usage_error(TUNER_RUN("rsm", TINY, "--profile", "eevdf", "--knobs",
				     "base_slice,migration_cost", "--design", "bbd"),
			   "--design");
	expect_usage_error(
		TUNER_RUN("rsm", TINY, "--objective", "vm", "--knobs", "latency,migration_cost"),
		"--knobs");
	expect_usage_error(
		TUNER_RUN("rsm", TINY, "--knobs", "migration_cost", "--migration-cost-ns", "1"),
		"--migration-cost-ns");
}

/* meta-pso --knobs: the swarms search the set (here EEVDF's two knobs), and design.csv and
 * result.json carry its columns instead of CFS's three. */
static void test_meta_pso_knob_set(void **state)
{
	char *dir = make_dir();

	(void)state;
	struct run r = TUNER_RUN("meta-pso", "--groups", "1", "--loops", "20", "--fds", "4",
				 "--threads", "--cpus", "2", "--profile", "eevdf", "--knobs",
				 "base_slice,migration_cost", "--particles", "3", "--iterations",
				 "3", "--out", dir);

	expect_success(&r, "meta-pso --knobs");
	assert_non_null(strstr(r.out, "  migration_cost_ns="));
	g_auto(GStrv) design = read_lines(dir, "design.csv");
	assert_string_equal(
		design[0],
		"run,x1,x2,x3,omega,phi_p,phi_g,response,response_t,best_value,iterations_to_best,"
		"migration_cost_ns,base_slice_ns,pso_seed");
	g_autoptr(JsonReadValue) v = read_json(dir);
	double x;
	assert_true(json_read_number(v, "best.knobs.base_slice_ns", &x) ||
		    json_read_number(v, "runs.0.knobs.base_slice_ns", &x));
	run_clear(&r);
	remove_dir(dir);
}

static void test_meta_pso_bad_input(void **state)
{
	(void)state;
	/* One sender and one receiver: every swarm finds the same turnaround at once. */
	expect_usage_error(TUNER_RUN("meta-pso", "--groups", "1", "--loops", "1", "--fds", "1",
				     "--particles", "2", "--iterations", "2"),
			   "every PSO run scored the same");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--particles", "0"), "--particles:");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--iteration-weight", "-1"),
			   "--iteration-weight:");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--range", "latency=2e6:1e6"), "lo < hi");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--scale", "cubic"), "--scale:");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--iteration-weight", "nan"),
			   "--iteration-weight:");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--iteration-weight", "inf"),
			   "--iteration-weight:");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--particles", "-1"), "--particles:");
	expect_usage_error(TUNER_RUN("meta-pso", TINY, "--jobs", "-1"), "--jobs:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsm_report_and_files),
		cmocka_unit_test(test_rsm_cost_jitter_pure_error),
		cmocka_unit_test(test_rsm_deterministic_and_resumable),
		cmocka_unit_test(test_rsm_log_rotatable),
		cmocka_unit_test(test_rsm_analyse_hand_computed),
		cmocka_unit_test(test_rsm_analyse_incomplete),
		cmocka_unit_test(test_rsm_analyse_rounds),
		cmocka_unit_test(test_rsm_bad_input),
		cmocka_unit_test(test_rsm_box_behnken),
		cmocka_unit_test(test_meta_pso),
		cmocka_unit_test(test_meta_pso_bad_input),
		cmocka_unit_test(test_meta_pso_knob_set),
		cmocka_unit_test(test_rsm_four_knobs),
		cmocka_unit_test(test_rsm_base_slice),
		cmocka_unit_test(test_rsm_knob_set_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
