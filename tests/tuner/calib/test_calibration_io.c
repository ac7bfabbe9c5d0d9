/*
 * test_calibration_io.c -- the calibration record, its files and their errors.
 *
 * Every test works in its own temporary directory (temp_dir_setup), removed afterwards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>
#include <math.h>

#include "tasks/hackbench.h"
#include "tuner/calib/calibration_io.h"

#include "tests/support/support.h"

/* ---- helpers ---- */

static void assert_contains(const char *haystack, const char *needle)
{
	if (strstr(haystack, needle) == NULL)
		fail_msg("'%s' does not contain '%s'", haystack, needle);
}

/* Same double, bit for bit (NaN equal to NaN): what a lossless round trip promises. */
static void assert_same_double(double a, double b)
{
	if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b)))
		fail_msg("%.17g != %.17g", a, b);
}

static const char workload_text[] = "hackbench sockets; 20+20 tasks/group = 40 # fsm\nline two é";

/*
 * Four points, simulated jiffies 100..400, real runs:
 *   2 groups: 10, 12      mean 11, sd sqrt(2)
 *   4 groups: 21, 21      mean 21, sd 0
 *   6 groups: 30, 32, 34  mean 32, sd 2
 *   8 groups: 41          mean 41, sd 0 (one run)
 * Fit of the means by hand: x̄ = 250, ȳ = 26.25, Sxx = 50000,
 * Sxy = (-150)(-15.25) + (-50)(-5.25) + (50)(5.75) + (150)(14.75) = 5050, so b = 0.101 and
 * a = 26.25 - 0.101 * 250 = 1. Predicted 11.1 21.2 31.3 41.4, residuals -0.1 -0.2 0.7 -0.4,
 * SSE = 0.7, SST = 15.25² + 5.25² + 5.75² + 14.75² = 510.75.
 */
static Calibration *sample_calibration(void)
{
	Calibration *cal =
		calibration_new(CALIBRATION_MODEL_FSM, workload_text, 100, REALBENCH_PROCESSES);
	g_free(cal->date);
	cal->date = g_strdup("2025-01-31T12:00:00Z");
	g_free(cal->kernel);
	cal->kernel = g_strdup("6.1.0-test-amd64");
	cal->cpus = 8;
	calibration_add_point(cal, 2, 100, (const double[]){ 10, 12 }, 2);
	calibration_add_point(cal, 4, 200, (const double[]){ 21, 21 }, 2);
	calibration_add_point(cal, 6, 300, (const double[]){ 30, 32, 34 }, 3);
	calibration_add_point(cal, 8, 400, (const double[]){ 41 }, 1);
	/* Context switches for two points; the median of 10 and 30 is 20, of 900, 100, 500 500. */
	calibration_set_switches(cal, 0, 15, (const double[]){ 10, 30 }, 2);
	calibration_set_switches(cal, 2, 700, (const double[]){ 900, 100, 500 }, 3);
	return cal;
}

static const char sample_csv[] =
	"groups,sim_jiffies,real_mean_ms,real_sd_ms,predicted_ms,residual_ms,runs,sim_switches,"
	"real_switches\n"
	"2,100,11,1.414213562,11.1,-0.1,10;12,15,20\n"
	"4,200,21,0,21.2,-0.2,21;21,,\n"
	"6,300,32,2,31.3,0.7,30;32;34,700,500\n"
	"8,400,41,0,41.4,-0.4,41,,\n";

/* The whole file dir/name (read_text fails the test if it cannot be read). */
static gchar *read_in(const char *dir, const char *name)
{
	g_autofree gchar *path = g_build_filename(dir, name, NULL);

	return read_text(path);
}

/* Write the sample calibration into dir and return the path of its .ini. */
static gchar *write_sample(const char *dir)
{
	g_autoptr(Calibration) cal = sample_calibration();
	assert_true(calibration_fit(cal, NULL));
	g_autoptr(GError) error = NULL;
	if (!calibration_write(cal, dir, &error))
		fail_msg("%s", error->message);
	return g_build_filename(dir, CALIBRATION_INI_NAME, NULL);
}

/* ---- the record ---- */

static void test_new_records_this_machine(void **state)
{
	(void)state;
	g_autoptr(Calibration) cal =
		calibration_new(CALIBRATION_MODEL_BOOTSTRAP, "w", 10, REALBENCH_THREADS);
	g_autoptr(GDateTime) date = g_date_time_new_from_iso8601(cal->date, NULL);
	assert_non_null(date);
	assert_int_equal(strlen(cal->date), strlen("2025-01-31T12:00:00Z"));
	assert_int_equal(cal->date[strlen(cal->date) - 1], 'Z');
	g_autofree gchar *kernel = realbench_kernel_release();
	assert_string_equal(cal->kernel, kernel);
	assert_int_equal(cal->cpus, g_get_num_processors());
	assert_int_equal(cal->points->len, 0);
	assert_int_equal(cal->fit.n, 0);
	assert_true(isnan(cal->fit.a) && isnan(cal->fit.b));
}

static void test_points_and_fit(void **state)
{
	(void)state;
	g_autoptr(Calibration) cal = sample_calibration();
	const CalibrationPoint *p0 = &g_array_index(cal->points, CalibrationPoint, 0);
	assert_true(fabs(p0->real_sd_ms - sqrt(2.0)) < 1e-14);
	assert_true(isnan(p0->predicted_ms));
	assert_int_equal(cal->groups->len, 4);
	assert_int_equal(g_array_index(cal->groups, guint, 3), 8);

	assert_true(calibration_fit(cal, NULL));
	assert_true(fabs(cal->fit.a - 1.0) < 1e-12);
	assert_true(fabs(cal->fit.b - 0.101) < 1e-15);
	assert_true(fabs(cal->fit.r2 - (1.0 - 0.7 / 510.75)) < 1e-13);
	assert_int_equal(cal->fit.n, 4);
	const double residuals[] = { -0.1, -0.2, 0.7, -0.4 };
	for (guint i = 0; i < 4; i++) {
		const CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
		assert_true(fabs(p->residual_ms - residuals[i]) < 1e-12);
		assert_true(fabs(p->predicted_ms + p->residual_ms - p->real_mean_ms) < 1e-12);
	}
	assert_true(fabs(calibration_predict_ms(cal, 1000.0) - 102.0) < 1e-10);
}

static void test_fit_too_few_points(void **state)
{
	(void)state;
	g_autoptr(Calibration) cal =
		calibration_new(CALIBRATION_MODEL_FSM, "w", 100, REALBENCH_THREADS);
	calibration_add_point(cal, 1, 10, (const double[]){ 5 }, 1);
	calibration_add_point(cal, 2, 20, (const double[]){ 9 }, 1);
	g_autoptr(GError) error = NULL;
	assert_false(calibration_fit(cal, &error));
	assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_FIT));
	assert_contains(error->message, "2 point(s)");
	assert_true(isnan(cal->fit.a));
}

/* ---- files ---- */

static void test_round_trip(void **state)
{
	g_autofree gchar *dir = g_build_filename(*state, "results", "nested", NULL);
	g_autoptr(Calibration) cal = sample_calibration();
	assert_true(calibration_fit(cal, NULL));
	g_autoptr(GError) error = NULL;
	assert_true(calibration_write(cal, dir, &error));
	assert_null(error);

	g_autofree gchar *csv = read_in(dir, CALIBRATION_CSV_NAME);
	assert_string_equal(csv, sample_csv);
	/* No runs recorded, no runs file. */
	g_autofree gchar *runs = g_build_filename(dir, CALIBRATION_RUNS_NAME, NULL);
	assert_false(g_file_test(runs, G_FILE_TEST_EXISTS));

	g_autofree gchar *ini = g_build_filename(dir, CALIBRATION_INI_NAME, NULL);
	g_autoptr(Calibration) back = calibration_read(ini, &error);
	if (back == NULL)
		fail_msg("%s", error->message);
	assert_int_equal(back->model, CALIBRATION_MODEL_FSM);
	assert_string_equal(back->workload, workload_text);
	assert_string_equal(back->date, "2025-01-31T12:00:00Z");
	assert_string_equal(back->kernel, "6.1.0-test-amd64");
	assert_int_equal(back->cpus, 8);
	assert_int_equal(back->loops, 100);
	assert_int_equal(back->mode, REALBENCH_PROCESSES);
	assert_int_equal(back->groups->len, 4);
	for (guint i = 0; i < 4; i++)
		assert_int_equal(g_array_index(back->groups, guint, i), 2 * (i + 1));
	assert_int_equal(back->points->len, 0);

	const CalibrationFit *f = &cal->fit, *g = &back->fit;
	assert_same_double(g->a, f->a);
	assert_same_double(g->b, f->b);
	assert_same_double(g->se_a, f->se_a);
	assert_same_double(g->se_b, f->se_b);
	/* t and p are not in the file: read back, they follow from a, b, their errors and n. */
	assert_same_double(f->t_a, f->a / f->se_a);
	assert_same_double(f->t_b, f->b / f->se_b);
	assert_same_double(g->t_a, f->t_a);
	assert_same_double(g->t_b, f->t_b);
	assert_same_double(g->p_a, f->p_a);
	assert_same_double(g->p_b, f->p_b);
	assert_true(f->p_b >= 0 && f->p_b < 0.05);
	assert_same_double(g->r2, f->r2);
	assert_same_double(g->adj_r2, f->adj_r2);
	assert_same_double(g->rse, f->rse);
	assert_same_double(g->f, f->f);
	assert_same_double(g->f_p, f->f_p);
	assert_same_double(g->loo_mape, f->loo_mape);
	assert_int_equal(g->n, 4);
	assert_same_double(calibration_predict_ms(back, 1234.5),
			   calibration_predict_ms(cal, 1234.5));
	/* The lack-of-fit statistics: counts 2, 2, 3, 1 are not complete blocks, so the plain pure
	 * error, 2 + 0 + 8 + 0 = 10 on 1 + 1 + 2 + 0 = 4 df. */
	assert_true(isfinite(f->lof_f) && isfinite(f->repeats_for_r2_99));
	assert_same_double(f->pe_df, 4);
	assert_same_double(f->pe_sd, sqrt(10.0 / 4.0));
	assert_same_double(g->lof_f, f->lof_f);
	assert_same_double(g->lof_p, f->lof_p);
	assert_same_double(g->pe_sd, f->pe_sd);
	assert_same_double(g->pe_df, f->pe_df);
	assert_same_double(g->r2_ceiling, f->r2_ceiling);
	assert_same_double(g->repeats_for_r2_99, f->repeats_for_r2_99);
	/* The sample's jiffies are 50 x its groups, so the null model fits as well as the model. */
	assert_true(fabs(f->r2_groups - f->r2) < 1e-12);
	assert_same_double(g->r2_groups, f->r2_groups);

	/* The .ini is an ordinary key file with the documented groups and keys. */
	g_autoptr(GKeyFile) kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, ini, G_KEY_FILE_NONE, NULL));
	g_autofree gchar *mode = g_key_file_get_string(kf, "calibration", "mode", NULL);
	assert_string_equal(mode, "processes");
	g_autofree gchar *model = g_key_file_get_string(kf, "calibration", "model", NULL);
	assert_string_equal(model, "fsm");
	assert_true(fabs(g_key_file_get_double(kf, "fit", "b", NULL) - 0.101) < 1e-15);
}

/* The runs are written in the order they ran, and the protocol round trips. */
static void test_runs_and_protocol(void **state)
{
	g_autoptr(Calibration) cal = sample_calibration();
	assert_true(calibration_fit(cal, NULL));
	cal->protocol = (CalibrationProtocol){ .order = RUN_ORDER_BLOCKS,
					       .seed = 4000000000u,
					       .warmup_s = 12.5 };
	calibration_add_run(cal, &(CalibrationRun){ .seq = 0,
						    .round = 0,
						    .groups = 4,
						    .ms = 41.5,
						    .start_s = 0,
						    .switches = 1234 });
	calibration_add_run(cal, &(CalibrationRun){ .seq = 1,
						    .round = 0,
						    .groups = 2,
						    .ms = 20.25,
						    .start_s = 0.0625,
						    .switches = NAN });
	assert_true(calibration_write(cal, *state, NULL));

	g_autofree gchar *runs = read_in(*state, CALIBRATION_RUNS_NAME);
	assert_string_equal(runs, "seq,round,groups,ms,start_s,switches\n0,0,4,41.5,0,1234\n"
				  "1,0,2,20.25,0.0625,\n");
	g_autofree gchar *ini = g_build_filename(*state, CALIBRATION_INI_NAME, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(Calibration) back = calibration_read(ini, &error);
	assert_null(error);
	assert_int_equal(back->protocol.order, RUN_ORDER_BLOCKS);
	assert_int_equal(back->protocol.seed, 4000000000u);
	assert_same_double(back->protocol.warmup_s, 12.5);
	assert_int_equal(back->runs->len, 0);
}

/* Statistics that are NaN on degenerate data survive the file; a bootstrap model round trips. */
static void test_round_trip_nan_statistics(void **state)
{
	g_autoptr(Calibration) cal = sample_calibration();
	assert_true(calibration_fit(cal, NULL));
	cal->model = CALIBRATION_MODEL_BOOTSTRAP;
	cal->mode = REALBENCH_THREADS;
	cal->fit.loo_mape = NAN;
	cal->fit.r2 = NAN;
	cal->fit.f = INFINITY;
	assert_true(calibration_write(cal, *state, NULL));
	g_autofree gchar *ini = g_build_filename(*state, CALIBRATION_INI_NAME, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(Calibration) back = calibration_read(ini, &error);
	assert_null(error);
	assert_true(isnan(back->fit.loo_mape));
	assert_true(isnan(back->fit.r2));
	assert_true(isinf(back->fit.f));
	assert_int_equal(back->model, CALIBRATION_MODEL_BOOTSTRAP);
	assert_int_equal(back->mode, REALBENCH_THREADS);
}

/* Writing again replaces both files and leaves no temporary file behind. */
static void test_rewrite_replaces(void **state)
{
	g_autofree gchar *ini = write_sample(*state);
	g_autoptr(Calibration) cal = sample_calibration();
	calibration_add_point(cal, 10, 500, (const double[]){ 52 }, 1);
	assert_true(calibration_fit(cal, NULL));
	assert_true(calibration_write(cal, *state, NULL));

	g_autoptr(Calibration) back = calibration_read(ini, NULL);
	assert_int_equal(back->fit.n, 5);
	assert_int_equal(back->groups->len, 5);

	g_autoptr(GDir) dir = g_dir_open(*state, 0, NULL);
	int files = 0;
	const char *name;
	while ((name = g_dir_read_name(dir)) != NULL) {
		assert_true(strcmp(name, CALIBRATION_CSV_NAME) == 0 ||
			    strcmp(name, CALIBRATION_INI_NAME) == 0);
		files++;
	}
	assert_int_equal(files, 2);
}

/* A path through a regular file cannot become a directory (whoever runs the test, root too). */
static void test_unwritable_dir(void **state)
{
	g_autofree gchar *blocker = g_build_filename(*state, "blocker", NULL);
	assert_true(g_file_set_contents(blocker, "x", 1, NULL));
	g_autofree gchar *dir = g_build_filename(blocker, "out", NULL);

	g_autoptr(Calibration) cal = sample_calibration();
	assert_true(calibration_fit(cal, NULL));
	g_autoptr(GError) error = NULL;
	assert_false(calibration_write(cal, dir, &error));
	assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_IO));
	g_autofree gchar *expected = g_strdup_printf("cannot create directory '%s': ", dir);
	assert_contains(error->message, expected);

	g_clear_error(&error);
	CalibrationBootstrap boot = { 10.0, 0.5, 100, REALBENCH_PROCESSES,
				      (gchar *)"2025-01-31T12:00:00Z" };
	assert_false(calibration_bootstrap_write(&boot, dir, &error));
	assert_contains(error->message, expected);
}

/* A directory where the file should go makes the rename fail; the error names the file. */
static void test_unwritable_file(void **state)
{
	g_autofree gchar *in_the_way = g_build_filename(*state, CALIBRATION_INI_NAME, NULL);
	assert_int_equal(g_mkdir(in_the_way, 0755), 0);
	g_autoptr(Calibration) cal = sample_calibration();
	assert_true(calibration_fit(cal, NULL));
	g_autoptr(GError) error = NULL;
	assert_false(calibration_write(cal, *state, &error));
	assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_IO));
	g_autofree gchar *expected = g_strdup_printf("cannot write '%s': ", in_the_way);
	assert_contains(error->message, expected);
}

/* A copy of the sample .ini with one key (or group, when key is NULL) removed. */
static gchar *ini_without(const char *ini, const char *group, const char *key)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, ini, G_KEY_FILE_KEEP_COMMENTS, NULL));
	if (key != NULL)
		assert_true(g_key_file_remove_key(kf, group, key, NULL));
	else
		assert_true(g_key_file_remove_group(kf, group, NULL));
	gchar *path = g_strconcat(ini, ".edited", NULL);
	assert_true(g_key_file_save_to_file(kf, path, NULL));
	return path;
}

/* A copy of the sample .ini with group.key set to value. */
static gchar *ini_with(const char *ini, const char *group, const char *key, const char *value)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, ini, G_KEY_FILE_KEEP_COMMENTS, NULL));
	g_key_file_set_value(kf, group, key, value);
	gchar *path = g_strconcat(ini, ".edited", NULL);
	assert_true(g_key_file_save_to_file(kf, path, NULL));
	return path;
}

/* A file from before the protocol keys existed reads as blocks without warm-up. */
static void test_file_without_protocol(void **state)
{
	g_autofree gchar *ini = write_sample(*state);
	g_autofree gchar *a = ini_without(ini, "calibration", "order");
	g_autoptr(GError) error = NULL;
	g_autoptr(Calibration) back = calibration_read(a, &error);
	assert_null(error);
	assert_int_equal(back->protocol.order, RUN_ORDER_BLOCKS);
	assert_same_double(back->protocol.warmup_s, 0);

	/* Nor does it have the lack-of-fit keys: NaN. */
	g_autofree gchar *b = ini_without(a, "fit", "lof_f");
	g_autofree gchar *c = ini_without(b, "fit", "repeats_for_r2_99");
	g_autoptr(Calibration) older = calibration_read(c, &error);
	assert_null(error);
	assert_true(isnan(older->fit.lof_f) && isnan(older->fit.repeats_for_r2_99));
	assert_true(isfinite(older->fit.pe_sd));
}

static void test_missing_key(void **state)
{
	g_autofree gchar *ini = write_sample(*state);
	const char *const keys[][2] = {
		{ "calibration", "model" },
		{ "calibration", "workload" },
		{ "calibration", "date" },
		{ "calibration", "kernel" },
		{ "calibration", "cpus" },
		{ "calibration", "loops" },
		{ "calibration", "mode" },
		{ "calibration", "groups" },
		{ "fit", "a" },
		{ "fit", "b" },
		{ "fit", "se_a" },
		{ "fit", "se_b" },
		{ "fit", "r2" },
		{ "fit", "adj_r2" },
		{ "fit", "rse" },
		{ "fit", "f" },
		{ "fit", "f_p" },
		{ "fit", "loo_mape" },
		{ "fit", "n" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
		g_autofree gchar *edited = ini_without(ini, keys[i][0], keys[i][1]);
		g_autoptr(GError) error = NULL;
		assert_null(calibration_read(edited, &error));
		assert_true(
			g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_MISSING_KEY));
		g_autofree gchar *expected = g_strdup_printf("%s: missing key '%s' in [%s]", edited,
							     keys[i][1], keys[i][0]);
		assert_string_equal(error->message, expected);
	}

	g_autofree gchar *no_fit = ini_without(ini, "fit", NULL);
	g_autoptr(GError) error = NULL;
	assert_null(calibration_read(no_fit, &error));
	g_autofree gchar *expected = g_strdup_printf("%s: missing key 'a' in [fit]", no_fit);
	assert_string_equal(error->message, expected);
}

static void test_bad_values(void **state)
{
	g_autofree gchar *ini = write_sample(*state);
	const char *const cases[][4] = {
		/* group, key, value, expected reason */
		{ "calibration", "model", "cfs", "neither 'fsm' nor 'bootstrap'" },
		{ "calibration", "mode", "thread", "neither 'threads' nor 'processes'" },
		{ "calibration", "cpus", "two", "not a whole number >= 1" },
		{ "calibration", "cpus", "0", "not a whole number >= 1" },
		{ "calibration", "loops", "-5", "not a whole number >= 1" },
		{ "calibration", "date", "yesterday", "not an ISO 8601 date" },
		{ "calibration", "groups", "2;x;6", "not a ';'-separated list" },
		{ "calibration", "order", "random", "neither 'rounds' nor 'blocks'" },
		{ "calibration", "seed", "-1", "not a whole number >= 0" },
		{ "calibration", "warmup_s", "-1", "not a number of seconds >= 0" },
		{ "calibration", "warmup_s", "nan", "not a number of seconds >= 0" },
		{ "fit", "a", "nan", "not a finite number" },
		{ "fit", "b", "0.1ms", "not a number" },
		{ "fit", "r2", "", "not a number" },
		{ "fit", "n", "2", "not a whole number >= 3" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *edited = ini_with(ini, cases[i][0], cases[i][1], cases[i][2]);
		g_autoptr(GError) error = NULL;
		assert_null(calibration_read(edited, &error));
		assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_BAD_VALUE));
		g_autofree gchar *prefix = g_strdup_printf("%s: key '%s' in [%s] is '%s', ", edited,
							   cases[i][1], cases[i][0], cases[i][2]);
		assert_contains(error->message, prefix);
		assert_contains(error->message, cases[i][3]);
	}
}

static void test_read_missing_or_garbled_file(void **state)
{
	g_autofree gchar *absent = g_build_filename(*state, "nowhere.ini", NULL);
	g_autoptr(GError) error = NULL;
	assert_null(calibration_read(absent, &error));
	assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_IO));
	g_autofree gchar *expected = g_strdup_printf("cannot read '%s': ", absent);
	assert_contains(error->message, expected);

	g_clear_error(&error);
	g_autofree gchar *garbled = g_build_filename(*state, "garbled.ini", NULL);
	assert_true(g_file_set_contents(garbled, "this is not\na key file\n", -1, NULL));
	assert_null(calibration_read(garbled, &error));
	assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_SYNTAX));
	g_autofree gchar *prefix = g_strdup_printf("%s: ", garbled);
	assert_contains(error->message, prefix);
}

/* ---- the bootstrap model's inputs ---- */

static void test_bootstrap_round_trip(void **state)
{
	g_autofree gchar *dir = g_build_filename(*state, "boot", NULL);
	CalibrationBootstrap boot = {
		.solo_ms = 123.456789012345678,
		.degradation = 0.61803398874989485,
		.loops = 1000,
		.mode = REALBENCH_THREADS,
		.date = (gchar *)"2025-02-01T08:30:00Z",
	};
	g_autoptr(GError) error = NULL;
	assert_true(calibration_bootstrap_write(&boot, dir, &error));
	assert_null(error);

	g_autofree gchar *path = g_build_filename(dir, CALIBRATION_BOOTSTRAP_NAME, NULL);
	/* The model's reader (the one reader of this file) gets the exact values back. */
	struct hackbench_params back;
	hackbench_params_default(&back);
	if (!hackbench_load_bootstrap_file(&back, path, &error))
		fail_msg("%s", error->message);
	assert_same_double(back.solo_ms, boot.solo_ms);
	assert_same_double(back.degradation, boot.degradation);

	g_autoptr(GKeyFile) kf = g_key_file_new();
	assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
	assert_int_equal(g_key_file_get_uint64(kf, "bootstrap", "loops", NULL), 1000);
	g_autofree gchar *mode = g_key_file_get_string(kf, "bootstrap", "mode", NULL);
	g_autofree gchar *date = g_key_file_get_string(kf, "bootstrap", "date", NULL);
	assert_string_equal(mode, "threads");
	assert_string_equal(date, "2025-02-01T08:30:00Z");
}

static void test_bootstrap_errors(void **state)
{
	CalibrationBootstrap boot = { 10.0, 0.5, 100, REALBENCH_PROCESSES,
				      (gchar *)"2025-01-31T12:00:00Z" };
	assert_true(calibration_bootstrap_write(&boot, *state, NULL));
	g_autofree gchar *path = g_build_filename(*state, CALIBRATION_BOOTSTRAP_NAME, NULL);

	/* The reader's refusals are tasks/hackbench's: tests/tasks/test_bootstrap.c. */
	g_autoptr(GError) error = NULL;
	struct hackbench_params p;
	hackbench_params_default(&p);
	assert_true(hackbench_load_bootstrap_file(&p, path, &error));
	assert_true(p.solo_ms == 10.0 && p.degradation == 0.5);

	CalibrationBootstrap bad = boot;
	bad.degradation = NAN;
	g_autofree gchar *other = g_build_filename(*state, "other", NULL);
	assert_false(calibration_bootstrap_write(&bad, other, &error));
	assert_true(g_error_matches(error, CALIBRATION_ERROR, CALIBRATION_ERROR_BAD_VALUE));
	assert_contains(error->message, "degradation must be a positive ratio");
	assert_false(g_file_test(other, G_FILE_TEST_EXISTS));
}

static void test_model_names(void **state)
{
	(void)state;
	CalibrationModel m = CALIBRATION_MODEL_FSM;
	assert_string_equal(calibration_model_name(CALIBRATION_MODEL_FSM), "fsm");
	assert_string_equal(calibration_model_name(CALIBRATION_MODEL_BOOTSTRAP), "bootstrap");
	assert_true(calibration_model_from_name("bootstrap", &m));
	assert_int_equal(m, CALIBRATION_MODEL_BOOTSTRAP);
	assert_false(calibration_model_from_name("FSM", &m));
	assert_int_equal(m, CALIBRATION_MODEL_BOOTSTRAP);
}

#define TMP_TEST(f) cmocka_unit_test_setup_teardown(f, temp_dir_setup, temp_dir_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_records_this_machine),
		cmocka_unit_test(test_points_and_fit),
		cmocka_unit_test(test_fit_too_few_points),
		TMP_TEST(test_round_trip),
		TMP_TEST(test_runs_and_protocol),
		TMP_TEST(test_file_without_protocol),
		TMP_TEST(test_round_trip_nan_statistics),
		TMP_TEST(test_rewrite_replaces),
		TMP_TEST(test_unwritable_dir),
		TMP_TEST(test_unwritable_file),
		TMP_TEST(test_missing_key),
		TMP_TEST(test_bad_values),
		TMP_TEST(test_read_missing_or_garbled_file),
		TMP_TEST(test_bootstrap_round_trip),
		TMP_TEST(test_bootstrap_errors),
		cmocka_unit_test(test_model_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
