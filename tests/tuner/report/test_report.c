/*
 * tests/tuner/report/test_report.c - `tuner report` and `tuner scale` end to end: the real program of
 * this build variant (BUILD_BIN_DIR/tuner), spawned without a shell, on the fixture directories
 * of tests/tuner/fixtures/report/ (outputs of tuner calibrate, pso, golden, rsm, scale and of
 * linsched hackbench --trace), judged by its exit status, stdout, stderr and the files it writes.
 * Also the normal scores of the residual plots (tuner/report/report_residuals.h).
 *
 * Expected numbers are worked out in the comments: normal quantiles from the standard normal
 * table (cross-checked with Python's statistics.NormalDist), the timeline of a hand-made trace,
 * and scale's turnarounds against `linsched hackbench` run with the same knobs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tuner/util/json_read.h"
#include "tuner/report/report_residuals.h"

#include "tests/support/support.h"

#define FIXTURES "tests/tuner/fixtures/report"

/* ---- running a program ------------------------------------------------------------------------ */

#define TUNER_RUN(...)	  run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)
#define LINSCHED_RUN(...) run_program(LINSCHED, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

/* Exit status 2, nothing on stdout, and exactly this one line on stderr. */
static void expect_input_error(const struct run *r, const char *line)
{
	g_autofree char *expected = g_strdup_printf("%s\n", line);

	if (r->status != 2)
		fail_msg("exit status %d (expected 2), stderr '%s'", r->status, r->err);
	assert_string_equal(r->out, "");
	assert_string_equal(r->err, expected);
}

/* ---- files ------------------------------------------------------------------------------------ */

/* Copy the files of a fixture directory into dst (created). */
static void copy_fixture(const char *name, const char *dst)
{
	g_autofree char *src = g_build_filename(FIXTURES, name, NULL);
	GDir *dir = g_dir_open(src, 0, NULL);
	const char *file;

	assert_non_null(dir);
	assert_int_equal(g_mkdir_with_parents(dst, 0755), 0);
	while ((file = g_dir_read_name(dir))) {
		g_autofree char *from = g_build_filename(src, file, NULL);
		g_autofree char *to = g_build_filename(dst, file, NULL);
		g_autofree char *text = read_text(from);

		assert_true(g_file_set_contents(to, text, -1, NULL));
	}
	g_dir_close(dir);
}

/* Replace line `number` (from 1) of a file. */
static void replace_line(const char *path, guint number, const char *line)
{
	g_autofree char *text = read_text(path);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	assert_true(number >= 1 && number <= g_strv_length(lines));
	g_free(lines[number - 1]);
	lines[number - 1] = g_strdup(line);

	g_autofree char *joined = g_strjoinv("\n", lines);

	assert_true(g_file_set_contents(path, joined, -1, NULL));
}

/* OUT/stem.png is a PNG and OUT/stem.svg an SVG, both with content. */
static void expect_figure(const char *out, const char *stem)
{
	g_autofree char *png = g_strdup_printf("%s/%s.png", out, stem);
	g_autofree char *svg = g_strdup_printf("%s/%s.svg", out, stem);
	g_autofree char *png_data = NULL;
	g_autofree char *svg_data = NULL;
	gsize png_len = 0, svg_len = 0;

	if (!g_file_get_contents(png, &png_data, &png_len, NULL) || png_len < 1000)
		fail_msg("%s missing or nearly empty (%zu bytes)", png, (size_t)png_len);
	assert_memory_equal(png_data, "\x89PNG\r\n\x1a\n", 8);
	if (!g_file_get_contents(svg, &svg_data, &svg_len, NULL) || svg_len < 1000)
		fail_msg("%s missing or nearly empty (%zu bytes)", svg, (size_t)svg_len);
	assert_non_null(strstr(svg_data, "<svg"));
	assert_non_null(strstr(svg_data, "</svg>"));
}

/* The data lines (no '#' comments) of a file, as one string. */
static char *data_lines(const char *path)
{
	g_autofree char *text = read_text(path);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *out = g_string_new(NULL);

	for (size_t i = 0; lines[i]; i++) {
		if (!lines[i + 1] && !lines[i][0])
			break; /* after the last newline */
		if (lines[i][0] != '#')
			g_string_append_printf(out, "%s\n", lines[i]);
	}
	return g_string_free(out, FALSE);
}

/* Where needle is in text, or -1. */
G_GNUC_NO_INLINE static gssize offset_of(const char *text, const char *needle)
{
	const char *at = strstr(text, needle);

	return at ? at - text : -1;
}

/* ---- every figure ----------------------------------------------------------------------------- */

static const char *const all_stems[] = {
	"cal-calibration",
	"cal-calibration-residuals-fitted",
	"cal-calibration-residuals-order",
	"cal-calibration-residuals-normal",
	"convergence",
	"rsm-rsm-surface-latency-min_granularity",
	"rsm-rsm-contour-latency-min_granularity",
	"rsm-rsm-surface-latency-wakeup_granularity",
	"rsm-rsm-contour-latency-wakeup_granularity",
	"rsm-rsm-surface-min_granularity-wakeup_granularity",
	"rsm-rsm-contour-min_granularity-wakeup_granularity",
	"rsm-rsm-residuals-fitted",
	"rsm-rsm-residuals-order",
	"rsm-rsm-residuals-normal",
	"rsm-rsm-boxcox",
	"scale-scale",
	"run-gantt",
};

static void test_every_figure(void **state)
{
	g_autofree char *out = g_build_filename(*state, "report", NULL);
	struct run r =
		TUNER_RUN("report", "--out", out, FIXTURES "/cal", FIXTURES "/pso",
			  FIXTURES "/golden", FIXTURES "/rsm", FIXTURES "/scale", FIXTURES "/run");
	g_autofree char *summary = g_strdup_printf("tuner report: %zu figures, see %s/index.html\n",
						   G_N_ELEMENTS(all_stems), out);

	expect_clean_exit(&r, "tuner report on every fixture");
	assert_string_equal(r.out, summary);

	g_autofree char *html_path = g_build_filename(out, "index.html", NULL);
	g_autofree char *html = read_text(html_path);
	g_autofree char *sh_path = g_build_filename(out, "plot.sh", NULL);
	g_autofree char *sh = read_text(sh_path);

	/* The figures come in the order of the method, numbered from 1. */
	for (size_t i = 0; i < G_N_ELEMENTS(all_stems); i++) {
		g_autofree char *img = g_strdup_printf("<img src=\"%s.png\"", all_stems[i]);
		g_autofree char *number = g_strdup_printf("<b>Figure %zu.</b>", i + 1);
		g_autofree char *in_sh = g_strdup_printf("out=\"%s\"; fmt=\"svg\"", all_stems[i]);
		gssize at_img = offset_of(html, img), at_number = offset_of(html, number);

		expect_figure(out, all_stems[i]);
		if (at_img < 0 || at_number < at_img)
			fail_msg("index.html does not show %s as figure %zu", all_stems[i], i + 1);
		if (!strstr(sh, in_sh))
			fail_msg("plot.sh does not redraw %s", all_stems[i]);
	}
	/* The numbers of the inputs are in the page. */
	assert_non_null(strstr(html, "R², adjusted R²</td><td>0.987082, 0.986365"));
	assert_non_null(strstr(html, "Optimizer convergence, compared"));
	run_clear(&r);
}

/* One directory: the report goes into it, and the figures have no prefix. */
static void test_single_directory(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "cal", NULL);

	copy_fixture("cal", dir);

	struct run r = TUNER_RUN("report", dir);

	expect_clean_exit(&r, "tuner report DIR");
	expect_figure(dir, "calibration");
	expect_figure(dir, "calibration-residuals-fitted");
	expect_figure(dir, "calibration-residuals-order");
	expect_figure(dir, "calibration-residuals-normal");

	/* calibration.dat repeats calibration.csv's first row, and has one line per real run (3 x 20). */
	g_autofree char *dat = g_build_filename(dir, "calibration.dat", NULL);
	g_autofree char *data = data_lines(dat);
	g_auto(GStrv) blocks = g_strsplit(data, "\n\n\n", -1);

	assert_true(
		g_str_has_prefix(data, "1 51.33741 98 11.78982612 79.60575341 18.39424659 3\n"));
	assert_int_equal(g_strv_length(blocks), 2);
	g_auto(GStrv) runs = g_strsplit(g_strstrip(blocks[1]), "\n", -1);
	assert_int_equal(g_strv_length(runs), 60);
	assert_string_equal(runs[0], "51.33741 101");

	/*
	 * The normal plot's first point: the smallest residual, -87.80463657 ms (12 groups), at Blom's
	 * score of 1 in 20, Phi^-1((1 - 3/8) / (20 + 1/4)) = Phi^-1(0.030864) = -1.86824.
	 */
	g_autofree char *normal = g_build_filename(dir, "calibration-residuals-normal.dat", NULL);
	g_autofree char *ndata = data_lines(normal);
	double z, e;

	assert_int_equal(sscanf(ndata, "%lf %lf", &z, &e), 2);
	assert_true(fabs(z - -1.86824) < 1e-5);
	assert_true(e == -87.80463657);
	run_clear(&r);
}

/*
 * A calibration made in rounds (fixture cal-rounds, `tuner calibrate --seed 15` on this machine)
 * also has calibration_runs.csv: the drift figure, and the lack-of-fit rows of the .ini.
 */
static void test_calibration_in_rounds(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "cal-rounds", NULL);

	copy_fixture("cal-rounds", dir);

	struct run r = TUNER_RUN("report", dir);

	expect_clean_exit(&r, "tuner report on a calibration in rounds");
	/* The line, its residual plots, and the drift. */
	assert_non_null(strstr(r.out, "tuner report: 5 figures"));
	expect_figure(dir, "calibration");
	expect_figure(dir, "calibration-drift");

	/* The first run: 7 groups, 459 ms, against 7 groups' mean (459 + 416 + 396) / 3 = 423.667 ms,
	 * so 1.0834317; one line per run, 60 in all. */
	g_autofree char *dat = g_build_filename(dir, "calibration-drift.dat", NULL);
	g_autofree char *data = data_lines(dat);
	g_auto(GStrv) lines = g_strsplit(g_strstrip(data), "\n", -1);
	double start, groups, ratio, round;

	assert_int_equal(g_strv_length(lines), 60);
	assert_int_equal(sscanf(lines[0], "%lf %lf %lf %lf", &start, &groups, &ratio, &round), 4);
	assert_true(groups == 7 && round == 0 && start < 1e-3);
	assert_true(fabs(ratio - 459.0 / (1271.0 / 3.0)) < 1e-8);

	g_autofree char *html_path = g_build_filename(dir, "index.html", NULL);
	g_autofree char *html = read_text(html_path);
	assert_non_null(strstr(html, "lack of fit</td><td>F 0.8274 on 18 and 38 df, p = 0.659"));
	assert_non_null(strstr(html, "repeats for it to expect 0.99</td><td>3<"));
	assert_non_null(strstr(html, "R² against the group count alone</td><td>0.992854"));
	assert_non_null(
		strstr(html, "run order</td><td>rounds (seed 15), after 21.1 s of warm-up"));
	assert_non_null(strstr(html, "residuals vs group count"));
	run_clear(&r);
}

/*
 * The same calibration with context switches counted (fixture cal-switches: cal-rounds with
 * made-up counts, simulated 1000 g, real 1200 g but 2000 at 1 group, each run 100 below, at or
 * above its median by round): the switches figure, with 1 group outside 1.5x (2000 / 1000 = 2)
 * and the 19 others inside (1.2).
 */
static void test_calibration_switches(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "cal-switches", NULL);

	copy_fixture("cal-switches", dir);

	struct run r = TUNER_RUN("report", dir);

	expect_clean_exit(&r, "tuner report on a calibration with context switches");
	assert_non_null(strstr(r.out, "tuner report: 6 figures"));
	expect_figure(dir, "calibration-switches");

	g_autofree char *dat = g_build_filename(dir, "calibration-switches.dat", NULL);
	g_autofree char *data = data_lines(dat);
	double groups, real, sim;

	assert_int_equal(sscanf(data, "%lf %lf %lf", &groups, &real, &sim), 3);
	assert_true(groups == 1 && real == 2000 && sim == 1000);

	g_autofree char *html_path = g_build_filename(dir, "index.html", NULL);
	g_autofree char *html = read_text(html_path);
	assert_non_null(
		strstr(html, "context switches</td><td>real (median) and simulated within 1.5× at "
			     "19 of 20"));
	run_clear(&r);
}

/* Blom's scores and the quartile line, by hand for n = 5 and residuals 1, 2, 3, 4, 5. */
static void test_normal_scores(void **state)
{
	/* Phi^-1(0.625 / 5.25 = 0.119048) = -1.17976; Phi^-1(1.625 / 5.25 = 0.309524) = -0.49720. */
	const double sorted[5] = { 1, 2, 3, 4, 5 };
	double z[5], q0, q1;

	(void)state;
	for (guint i = 0; i < 5; i++)
		z[i] = report_normal_score(i + 1, 5);
	assert_true(fabs(z[0] - -1.17976) < 1e-5);
	assert_true(fabs(z[1] - -0.49720) < 1e-5);
	assert_true(fabs(z[2]) < 1e-15);
	assert_true(fabs(z[3] + z[1]) < 1e-12 && fabs(z[4] + z[0]) < 1e-12);
	/* Quartiles (R's type 7) of the residuals: 2 and 4; of the scores: z[1] and z[3] = -z[1].
	 * Slope 2 / (2 * 0.49720) = 2.01126, through (0, 3). */
	report_quartile_line(sorted, z, 5, &q0, &q1);
	assert_true(fabs(q1 - 2.01126) < 1e-5);
	assert_true(fabs(q0 - 3) < 1e-12);
}

/*
 * The hand-made trace (fixtures/report/trace-small/trace.txt), timestamps from 100 s:
 *   CPU 0: sender-0.0 0..1.5 ms, receiver-0.3 1.5..4 ms, sender-1.2 from 4 ms (until 9 ms, cut at
 *          the 5 ms window);
 *   CPU 1: idle, receiver-1.0 0.5..2 ms, idle.
 * Group 0 is the first colour, group 1 the second; senders tall (0.42), receivers short (0.25); a
 * colour's spans in the order they end. Busy: CPU 0 5 of 5 ms, CPU 1 1.5 of 5 ms; 5 switches fall
 * inside the window (the sched_wakeup line is not one).
 */
static void test_gantt_small_trace(void **state)
{
	g_autofree char *out = g_build_filename(*state, "gantt", NULL);
	struct run r =
		TUNER_RUN("report", "--gantt-ms", "5", "--out", out, FIXTURES "/trace-small");

	expect_clean_exit(&r, "tuner report --gantt-ms 5");
	expect_figure(out, "gantt");

	g_autofree char *dat = g_build_filename(out, "gantt.dat", NULL);
	g_autofree char *data = data_lines(dat);
	g_autofree char *html_path = g_build_filename(out, "index.html", NULL);
	g_autofree char *html = read_text(html_path);

	assert_string_equal(data, "0.000000 1.500000 0 0.42\n1.500000 4.000000 0 0.25\n\n\n"
				  "0.500000 2.000000 1 0.25\n4.000000 5.000000 0 0.42\n\n\n");
	assert_non_null(strstr(html, "5 context switches; busy: CPU 0 100.0%, CPU 1 30.0%"));
	run_clear(&r);
}

/* The convergence data holds one block per run, with every evaluation of its history.csv. */
static void test_convergence_blocks(void **state)
{
	g_autofree char *out = g_build_filename(*state, "conv", NULL);
	struct run r = TUNER_RUN("report", "--out", out, FIXTURES "/pso", FIXTURES "/golden");

	expect_clean_exit(&r, "tuner report pso golden");
	expect_figure(out, "convergence");

	g_autofree char *dat = g_build_filename(out, "convergence.dat", NULL);
	g_autofree char *data = data_lines(dat);
	g_auto(GStrv) blocks = g_strsplit(data, "\n\n\n", -1);
	const char *names[] = { "pso", "golden" };

	assert_int_equal(g_strv_length(blocks), 3); /* two blocks and what follows the last */
	for (guint b = 0; b < 2; b++) {
		g_autofree char *history =
			g_build_filename(FIXTURES, names[b], "history.csv", NULL);
		g_autofree char *text = read_text(history);
		g_auto(GStrv) rows = g_strsplit(g_strstrip(text), "\n", -1);
		g_auto(GStrv) lines = g_strsplit(g_strstrip(blocks[b]), "\n", -1);

		assert_int_equal(g_strv_length(lines), g_strv_length(rows) - 1);
		assert_true(g_str_has_prefix(lines[0], "1 "));
	}
	run_clear(&r);
}

/* ---- errors ----------------------------------------------------------------------------------- */

static void test_malformed_csv(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "bad", NULL);
	g_autofree char *history = g_build_filename(dir, "history.csv", NULL);
	g_autofree char *out = g_build_filename(*state, "bad-out", NULL);

	copy_fixture("pso", dir);
	/* Line 4 (evaluation 3) with a word for its value. */
	replace_line(history, 4, "3,0,1619311,991201753,6595,fast,0,30.1");

	struct run r = TUNER_RUN("report", "--out", out, dir);
	g_autofree char *msg = g_strdup_printf(
		"tuner report: %s:4: column 'value': 'fast' is not a number", history);

	expect_input_error(&r, msg);
	run_clear(&r);

	/* Line 6 with a field too few. */
	copy_fixture("pso", dir);
	replace_line(history, 6, "5,0,1,2,3,4,5");
	r = TUNER_RUN("report", "--out", out, dir);
	g_free(msg);
	msg = g_strdup_printf("tuner report: %s:6: 7 fields, the header has 8", history);
	expect_input_error(&r, msg);
	run_clear(&r);

	/* A header without the column the figure needs. */
	copy_fixture("pso", dir);
	replace_line(
		history, 1,
		"evaluation,iteration,latency_ns,min_granularity_ns,wakeup_granularity_ns,value,std_error,top");
	r = TUNER_RUN("report", "--out", out, dir);
	g_free(msg);
	msg = g_strdup_printf("tuner report: %s:1: no column 'best' in the header", history);
	expect_input_error(&r, msg);
	run_clear(&r);
}

/* The corrupt CSVs: values no run can have, a duplicated evaluation, damaged headers. Each
 * is one line naming the file, line and column, and exit status 2. */
static void test_impossible_values(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "imp", NULL);
	g_autofree char *history = g_build_filename(dir, "history.csv", NULL);
	g_autofree char *out = g_build_filename(*state, "imp-out", NULL);
	static const struct {
		guint line;
		const char *text, *error; /* error after "tuner report: FILE" */
	} cases[] = {
		/* Line 4 is evaluation 3 of the fixture. */
		{ 4, "3,0,1619311,991201753,6595,-30.1,0,29.29364",
		  ":4: column 'value': -30.1 must be > 0" },
		{ 4, "3,0,1619311,991201753,6595,30.1,0,-29.29364",
		  ":4: column 'best': -29.29364 must be > 0" },
		{ 4, "3,0,1619311,991201753,6595,30.1,-1,29.29364",
		  ":4: column 'std_error': -1 must be >= 0" },
		{ 4, "3,0,1e400,991201753,6595,30.1,0,29.29364",
		  ":4: column 'latency_ns': '1e400' is not a number" },
		/* 2e9 ns: above sysctl's 1 s. */
		{ 4, "3,0,1619311,2000000000,6595,30.1,0,29.29364",
		  ":4: column 'min_granularity_ns': 2000000000 must be whole nanoseconds in the knob's "
		  "range 100000..1000000000" },
		{ 4, "2,0,1619311,991201753,6595,30.1,0,29.29364",
		  ":4: column 'evaluation': 2 again (line 3 has it)" },
		{ 4, "3,0.5,1619311,991201753,6595,30.1,0,29.29364",
		  ":4: column 'iteration': 0.5 must be a whole number >= 0" },
		{ 1,
		  "evaluation,iteration,latency_ns,min_granularity_ns,wakeup_granularity_ns,value,value,best",
		  ":1: header: 'value' appears twice" },
		{ 1,
		  "evaluation,iteration,latency_ns,min_granularity_ns,wakeup_granularity_ns,,std_error,best",
		  ":1: header: column 6 has no name" },
		{ 1,
		  "evaluation,iteration,latency_ns,min_granularity_ns,wakeup_gr\xc3\xa9,value,std_error,best",
		  ":1: header: 'wakeup_gr\xc3\xa9' is not a column name" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		copy_fixture("pso", dir);
		replace_line(history, cases[i].line, cases[i].text);
		struct run r = TUNER_RUN("report", "--out", out, dir);
		g_autofree char *msg =
			g_strdup_printf("tuner report: %s%s", history, cases[i].error);
		expect_input_error(&r, msg);
		run_clear(&r);
	}

	/* scale.csv: a negative time, a duplicated group count. */
	g_autofree char *sdir = g_build_filename(*state, "imp-scale", NULL);
	g_autofree char *scale = g_build_filename(sdir, "scale.csv", NULL);
	copy_fixture("scale", sdir);
	replace_line(scale, 3, "2,-1,0,1,0,5");
	struct run r = TUNER_RUN("report", "--out", out, sdir);
	g_autofree char *msg = g_strdup_printf(
		"tuner report: %s:3: column 'default_jiffies': -1 must be > 0", scale);
	expect_input_error(&r, msg);
	run_clear(&r);
	copy_fixture("scale", sdir);
	replace_line(scale, 3, "1,10,0,9,0,10");
	r = TUNER_RUN("report", "--out", out, sdir);
	g_free(msg);
	msg = g_strdup_printf("tuner report: %s:3: column 'groups': 1 again (line 2 has it)",
			      scale);
	expect_input_error(&r, msg);
	run_clear(&r);
}

static void test_malformed_other_inputs(void **state)
{
	g_autofree char *cal = g_build_filename(*state, "cal", NULL);
	g_autofree char *cal_csv = g_build_filename(cal, "calibration.csv", NULL);
	g_autofree char *trace_dir = g_build_filename(*state, "trace", NULL);
	g_autofree char *trace = g_build_filename(trace_dir, "trace.txt", NULL);
	g_autofree char *rsm = g_build_filename(*state, "rsm", NULL);
	g_autofree char *surface = g_build_filename(rsm, "surface.csv", NULL);
	g_autofree char *out = g_build_filename(*state, "out", NULL);
	g_autofree char *msg = NULL;
	struct run r;

	/* A real run that is not a number, in calibration.csv's ';'-separated runs field. */
	copy_fixture("cal", cal);
	replace_line(cal_csv, 3,
		     "2,95.31515,164.6666667,3.785938897,150.5630319,14.10363477,169;16x;162");
	r = TUNER_RUN("report", "--out", out, cal);
	msg = g_strdup_printf("tuner report: %s:3: column 'runs': '16x' is not a number", cal_csv);
	expect_input_error(&r, msg);
	run_clear(&r);

	/* calibration.csv missing beside calibration.ini. */
	g_unlink(cal_csv);
	r = TUNER_RUN("report", "--out", out, cal);
	g_free(msg);
	msg = g_strdup_printf("tuner report: %s: no such file", cal_csv);
	expect_input_error(&r, msg);
	run_clear(&r);

	/* A sched_switch line without its next task. */
	copy_fixture("trace-small", trace_dir);
	replace_line(
		trace, 9,
		"     swapper/1-0     [001] d..2.   100.000500: sched_switch: prev_comm=swapper/1 prev_pid=0");
	r = TUNER_RUN("report", "--out", out, trace_dir);
	g_free(msg);
	msg = g_strdup_printf(
		"tuner report: %s:9: not a sched_switch line: no prev_comm, prev_pid, next_comm or next_pid",
		trace);
	expect_input_error(&r, msg);
	run_clear(&r);

	/* A surface that is not three 21 x 21 grids: one row too many. */
	copy_fixture("rsm", rsm);
	{
		g_autofree char *text = read_text(surface);
		g_autofree char *more = g_strconcat(
			text, "latency+min_granularity,0,0,0,50500000,5050000,10000000,1,1\n",
			NULL);

		assert_true(g_file_set_contents(surface, more, -1, NULL));
	}
	r = TUNER_RUN("report", "--out", out, rsm);
	g_free(msg);
	msg = g_strdup_printf(
		"tuner report: %s: 1324 rows do not make 3 square grids, one per pair of the 3 factors",
		surface);
	expect_input_error(&r, msg);
	run_clear(&r);
}

static void test_usage_errors(void **state)
{
	g_autofree char *empty = g_build_filename(*state, "empty", NULL);
	g_autofree char *missing = g_build_filename(*state, "missing", NULL);
	g_autofree char *msg = NULL;
	struct run r;

	assert_int_equal(g_mkdir(empty, 0755), 0);
	r = TUNER_RUN("report", empty);
	msg = g_strdup_printf(
		"tuner report: %s: no result files (calibration.csv, history.csv, design.csv, surface.csv, "
		"scale.csv, validate.csv or trace.txt)",
		empty);
	expect_input_error(&r, msg);
	run_clear(&r);

	r = TUNER_RUN("report", missing);
	g_free(msg);
	msg = g_strdup_printf("tuner report: %s: no such directory", missing);
	expect_input_error(&r, msg);
	run_clear(&r);

	r = TUNER_RUN("report", FIXTURES "/pso", FIXTURES "/golden");
	expect_input_error(&r, "tuner report: --out: required with several directories");
	run_clear(&r);

	r = TUNER_RUN("report");
	expect_input_error(&r,
			   "tuner report: give at least one result directory (or --trace FILE)");
	run_clear(&r);

	r = TUNER_RUN("report", "--gantt-ms", "0", FIXTURES "/run");
	expect_input_error(&r, "tuner report: --gantt-ms: must be in 1..3600000, got 0");
	run_clear(&r);
}

/* Issue 16, defect 6: a bad --plots or --out was exit status 1 with gnuplot's two lines, or
 * "cannot create : Invalid argument"; each is bad input, one line naming the flag or file. */
static void test_plots_and_out_refused(void **state)
{
	g_autofree char *out = g_build_filename(*state, "out", NULL);
	g_autofree char *plots = g_build_filename(*state, "plots", NULL);
	g_autofree char *only = g_build_filename(plots, "calibration.gp", NULL);
	g_autofree char *file = g_build_filename(*state, "file", NULL);
	g_autofree char *msg = NULL;
	struct run r;

	r = TUNER_RUN("report", "--plots", "/nonexistent", "--out", out, FIXTURES "/pso");
	expect_input_error(&r, "tuner report: --plots: /nonexistent holds no gnuplot scripts (no "
			       "calibration.gp)");
	run_clear(&r);

	/* A directory with some scripts but not the one a figure needs. */
	assert_int_equal(g_mkdir(plots, 0755), 0);
	assert_true(g_file_set_contents(only, "", 0, NULL));
	r = TUNER_RUN("report", "--plots", plots, "--out", out, FIXTURES "/pso");
	msg = g_strdup_printf(
		"tuner report: %s/convergence.gp: no such gnuplot script (--plots DIR)", plots);
	expect_input_error(&r, msg);
	run_clear(&r);

	r = TUNER_RUN("report", "--out", "", FIXTURES "/pso");
	expect_input_error(&r, "tuner report: --out: an empty file name");
	run_clear(&r);

	r = TUNER_RUN("report", "--plots", "", FIXTURES "/pso");
	expect_input_error(&r, "tuner report: --plots: an empty file name");
	run_clear(&r);

	assert_true(g_file_set_contents(file, "", 0, NULL));
	r = TUNER_RUN("report", "--out", file, FIXTURES "/pso");
	g_free(msg);
	msg = g_strdup_printf("tuner report: --out: cannot create %s: Not a directory", file);
	expect_input_error(&r, msg);
	run_clear(&r);
}

/* ---- scale ------------------------------------------------------------------------------------ */

/* linsched's turnaround of G groups, 20 loops, in fractional jiffies (HZ 1000: ns / 1e6). */
static double linsched_jiffies(const char *groups, const char *const *knob_flags)
{
	const char *args[] = { "hackbench",   "-g",	     groups, "-l",
			       "20",	      "--format",    "json", knob_flags[0],
			       knob_flags[1], knob_flags[2], NULL };
	struct run r = run_program(LINSCHED, args, NULL);
	g_autoptr(JsonReadValue) v = NULL;
	double ns = 0;

	expect_clean_exit(&r, "linsched hackbench");
	v = json_read_parse(r.out, -1, "linsched output", NULL);
	assert_non_null(v);
	assert_true(json_read_number(v, "runtime_ns", &ns));
	run_clear(&r);
	return ns * 1000 / 1e9;
}

static void test_scale_matches_linsched(void **state)
{
	g_autofree char *out1 = g_build_filename(*state, "scale1", NULL);
	g_autofree char *out3 = g_build_filename(*state, "scale3", NULL);
	struct run r1 = TUNER_RUN("scale", "--best", FIXTURES "/pso/result.json", "--groups", "2,3",
				  "--loops", "20", "--out", out1, "-j", "1");
	struct run r3 = TUNER_RUN("scale", "--best", FIXTURES "/pso/result.json", "--groups", "2,3",
				  "--loops", "20", "--out", out3, "-j", "3");

	expect_clean_exit(&r1, "tuner scale -j 1");
	expect_clean_exit(&r3, "tuner scale -j 3");

	g_autofree char *csv1_path = g_build_filename(out1, "scale.csv", NULL);
	g_autofree char *csv3_path = g_build_filename(out3, "scale.csv", NULL);
	g_autofree char *csv1 = read_text(csv1_path);
	g_autofree char *csv3 = read_text(csv3_path);

	/* The number of jobs changes nothing. */
	assert_string_equal(csv1, csv3);

	/* The tuned knobs are the result's best.knobs; default: 2.6.28 on 2 CPUs, 40/8/10 ms. */
	g_autoptr(JsonReadValue) best = json_read_file(FIXTURES "/pso/result.json", NULL);
	double lat, min, wake;

	assert_true(json_read_number(best, "best.knobs.latency_ns", &lat));
	assert_true(json_read_number(best, "best.knobs.min_granularity_ns", &min));
	assert_true(json_read_number(best, "best.knobs.wakeup_granularity_ns", &wake));

	g_autofree char *f_lat = g_strdup_printf("--latency-ns=%.0f", lat);
	g_autofree char *f_min = g_strdup_printf("--min-gran-ns=%.0f", min);
	g_autofree char *f_wake = g_strdup_printf("--wakeup-gran-ns=%.0f", wake);
	const char *tuned[] = { f_lat, f_min, f_wake };
	const char *def[] = { "--latency-ns=40000000", "--min-gran-ns=8000000",
			      "--wakeup-gran-ns=10000000" };
	g_auto(GStrv) rows = g_strsplit(g_strstrip(csv1), "\n", -1);
	const char *groups[] = { "2", "3" };

	assert_int_equal(g_strv_length(rows), 3);
	assert_string_equal(
		rows[0],
		"groups,default_jiffies,default_stderr,tuned_jiffies,tuned_stderr,improvement_pct");
	for (guint i = 0; i < 2; i++) {
		double g, d, dse, t, tse, imp;

		assert_int_equal(sscanf(rows[i + 1], "%lf,%lf,%lf,%lf,%lf,%lf", &g, &d, &dse, &t,
					&tse, &imp),
				 6);
		assert_true(g == atof(groups[i]));
		assert_true(d == linsched_jiffies(groups[i], def));
		assert_true(t == linsched_jiffies(groups[i], tuned));
		assert_true(dse == 0 && tse == 0); /* one replicate */
		assert_true(fabs(imp - 100 * (d - t) / d) < 1e-12);
	}

	g_autofree char *json_path = g_build_filename(out1, "scale.json", NULL);
	g_autoptr(JsonReadValue) json = json_read_file(json_path, NULL);
	double v;

	assert_non_null(json);
	assert_true(json_read_number(json, "tuned.latency_ns", &v) && v == lat);
	assert_true(json_read_number(json, "default.min_granularity_ns", &v) && v == 8000000);
	run_clear(&r1);
	run_clear(&r3);
}

static void test_scale_errors(void **state)
{
	g_autofree char *bad = g_build_filename(*state, "nobest.json", NULL);
	g_autofree char *msg = NULL;
	struct run r;

	r = TUNER_RUN("scale", "--groups", "1..2");
	expect_input_error(
		&r,
		"tuner scale: --best: required (a result.json of tuner pso, golden, grid, random or rsm)");
	run_clear(&r);

	assert_true(g_file_set_contents(bad, "{\"best\": {\"knobs\": {\"latency_ns\": 1e6}}}", -1,
					NULL));
	r = TUNER_RUN("scale", "--best", bad);
	msg = g_strdup_printf(
		"tuner scale: --best: %s has no number at \"best.knobs.min_granularity_ns\"", bad);
	expect_input_error(&r, msg);
	run_clear(&r);

	r = TUNER_RUN("scale", "--best", FIXTURES "/pso/result.json", "--groups", "3..1");
	expect_input_error(&r, "tuner scale: --groups: '3..1' runs backwards");
	run_clear(&r);

	/* Issue 16, defect 6: a knob outside its sysctl range passed the check and the simulation
	 * failed on it, exit status 1. */
	assert_true(g_file_set_contents(
		bad,
		"{\"best\": {\"knobs\": {\"latency_ns\": 5e9, "
		"\"min_granularity_ns\": 1e6, \"wakeup_granularity_ns\": 1e6}}}",
		-1, NULL));
	r = TUNER_RUN("scale", "--best", bad, "--groups", "1..2");
	g_free(msg);
	msg = g_strdup_printf("tuner scale: --best: %s: \"best.knobs.latency_ns\" is 5e+09, not a "
			      "whole number of ns in the sysctl range 100000..1000000000",
			      bad);
	expect_input_error(&r, msg);
	run_clear(&r);

	/* Defect 3: --jobs 0 stood for "the number of cores". */
	r = TUNER_RUN("scale", "--best", FIXTURES "/pso/result.json", "--jobs", "0");
	expect_input_error(&r, "tuner scale: --jobs: must be in 1..4096, got 0");
	run_clear(&r);
	r = TUNER_RUN("scale", "--best", FIXTURES "/pso/result.json", "--loops", "-1");
	expect_input_error(&r, "tuner scale: --loops: must be in 1..1000000000, got -1");
	run_clear(&r);
	r = TUNER_RUN("scale", "--best", FIXTURES "/pso/result.json", "--out", "");
	expect_input_error(&r, "tuner scale: --out: an empty file name");
	run_clear(&r);
}

/*
 * Issue 14/15: the result directories of other knob sets. An eevdf random search's history.csv
 * has base_slice_ns where CFS's three were, and a one-factor RSM (base_slice alone) has no pair
 * of factors to draw a surface over: both report, the residual plots of the RSM included, and the
 * summary names the best base_slice.
 */
static void test_other_knob_sets(void **state)
{
	g_autofree char *rnd = g_build_filename(*state, "eevdf-random", NULL);
	g_autofree char *rsm = g_build_filename(*state, "eevdf-rsm", NULL);
	g_autofree char *out = g_build_filename(*state, "out", NULL);
	struct run r = TUNER_RUN("random", "--profile", "eevdf", "--groups", "1", "--loops", "5",
				 "--cpus", "2", "--budget", "5", "--out", rnd);

	expect_clean_exit(&r, "tuner random --profile eevdf");
	run_clear(&r);
	r = TUNER_RUN("rsm", "--profile", "eevdf", "--groups", "2", "--loops", "20", "--threads",
		      "--cpus", "2", "--range", "base_slice=1000000:3000000", "--out", rsm);
	expect_clean_exit(&r, "tuner rsm --profile eevdf");
	run_clear(&r);

	/* scale takes the tuned base_slice from a result.json (0.1 ms: more switches, so the
	 * turnaround changes); a CFS profile has no base_slice. */
	g_autofree char *scale = g_build_filename(*state, "eevdf-scale", NULL);
	g_autofree char *best = g_build_filename(*state, "eevdf-best.json", NULL);
	assert_true(g_file_set_contents(
		best, "{\"best\": {\"knobs\": {\"base_slice_ns\": 100000}}}", -1, NULL));
	r = TUNER_RUN("scale", "--best", best, "--profile", "eevdf", "--groups", "1,2", "--loops",
		      "20", "--threads", "--cpus", "2", "--out", scale);
	expect_clean_exit(&r, "tuner scale --profile eevdf");
	assert_non_null(strstr(r.out, "default knobs (base_slice 1400000 ns)\n"
				      "             tuned knobs   (base_slice 100000 ns)\n"));
	run_clear(&r);
	g_autofree char *scale_json = g_build_filename(scale, "scale.json", NULL);
	g_autofree char *scale_text = read_text(scale_json);
	const char *tuned = strstr(scale_text, "\"tuned\"");
	assert_non_null(tuned);
	assert_non_null(strstr(tuned, "\"base_slice_ns\": 100000"));
	assert_null(strstr(scale_text, "latency_ns"));
	r = TUNER_RUN("scale", "--best", best, "--profile", "6.1", "--groups", "1");
	expect_refusal(&r, "scale an eevdf result under 6.1", "--best");
	run_clear(&r);

	r = TUNER_RUN("report", "--out", out, rnd, rsm, scale);
	expect_clean_exit(&r, "tuner report of eevdf runs");
	expect_figure(out, "convergence");
	expect_figure(out, "eevdf-rsm-rsm-residuals-fitted");

	g_autofree char *index = g_build_filename(out, "index.html", NULL);
	g_autofree char *html = read_text(index);
	assert_non_null(strstr(html, "; base_slice "));
	assert_non_null(strstr(html, "tuned knobs: base_slice "));
	assert_null(strstr(html, "rsm-surface"));
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_other_knob_sets, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_every_figure, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_single_directory, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_calibration_switches, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_calibration_in_rounds, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test(test_normal_scores),
		cmocka_unit_test_setup_teardown(test_gantt_small_trace, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_convergence_blocks, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_malformed_csv, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_impossible_values, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_malformed_other_inputs, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_usage_errors, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_plots_and_out_refused, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_scale_matches_linsched, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_scale_errors, temp_dir_setup,
						temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
