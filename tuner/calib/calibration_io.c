/*
 * calibration_io.c -- the calibration record and its files; see calibration_io.h.
 */
#include "tuner/calib/calibration_io.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "tuner/stats/regression.h"

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(calibration-error-quark, calibration_error)
/* clang-format on */

#define GROUP_CALIBRATION "calibration"
#define GROUP_FIT	  "fit"
#define GROUP_BOOTSTRAP	  "bootstrap"

/* ---- names and dates ---- */

const char *calibration_model_name(CalibrationModel model)
{
	return model == CALIBRATION_MODEL_BOOTSTRAP ? "bootstrap" : "fsm";
}

gboolean calibration_model_from_name(const char *name, CalibrationModel *model_out)
{
	if (g_strcmp0(name, "fsm") == 0) {
		*model_out = CALIBRATION_MODEL_FSM;
		return TRUE;
	}
	if (g_strcmp0(name, "bootstrap") == 0) {
		*model_out = CALIBRATION_MODEL_BOOTSTRAP;
		return TRUE;
	}
	return FALSE;
}

gchar *calibration_now_iso8601(void)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	return g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
}

/* ---- the record ---- */

static void clear_point(gpointer data)
{
	CalibrationPoint *point = data;
	g_clear_pointer(&point->real_ms, g_array_unref);
}

static CalibrationFit unfitted(void)
{
	return (CalibrationFit){ .a = NAN,
				 .b = NAN,
				 .se_a = NAN,
				 .se_b = NAN,
				 .t_a = NAN,
				 .t_b = NAN,
				 .p_a = NAN,
				 .p_b = NAN,
				 .r2 = NAN,
				 .adj_r2 = NAN,
				 .rse = NAN,
				 .f = NAN,
				 .f_p = NAN,
				 .loo_mape = NAN,
				 .n = 0,
				 .lof_f = NAN,
				 .lof_p = NAN,
				 .pe_sd = NAN,
				 .pe_df = NAN,
				 .r2_ceiling = NAN,
				 .repeats_for_r2_99 = NAN,
				 .r2_groups = NAN,
				 .r2_group_means = NAN,
				 .r2_within_groups = NAN };
}

/* A calibration with empty arrays, no strings and an unfitted fit. */
static Calibration *calibration_empty(void)
{
	Calibration *cal = g_new0(Calibration, 1);
	cal->groups = g_array_new(FALSE, FALSE, sizeof(guint));
	cal->points = g_array_new(FALSE, TRUE, sizeof(CalibrationPoint));
	g_array_set_clear_func(cal->points, clear_point);
	cal->runs = g_array_new(FALSE, FALSE, sizeof(CalibrationRun));
	cal->settings = g_ptr_array_new_with_free_func(g_free);
	cal->protocol =
		(CalibrationProtocol){ .order = RUN_ORDER_ROUNDS, .seed = 1, .warmup_s = 0 };
	cal->fit = unfitted();
	return cal;
}

Calibration *calibration_new(CalibrationModel model, const char *workload, guint loops,
			     RealbenchTasks mode)
{
	Calibration *cal = calibration_empty();
	cal->model = model;
	cal->workload = g_strdup(workload);
	cal->date = calibration_now_iso8601();
	cal->kernel = realbench_kernel_release();
	cal->cpus = realbench_cpu_count();
	cal->loops = loops;
	cal->mode = mode;
	cal->source = g_strdup("host");
	return cal;
}

void calibration_free(Calibration *cal)
{
	if (cal == NULL)
		return;
	g_free(cal->workload);
	g_free(cal->date);
	g_free(cal->kernel);
	g_array_unref(cal->groups);
	g_array_unref(cal->points);
	g_array_unref(cal->runs);
	g_ptr_array_unref(cal->settings);
	g_free(cal->source);
	g_free(cal);
}

void calibration_add_point(Calibration *cal, guint groups, double sim_jiffies,
			   const double *real_ms, gsize n_runs)
{
	g_return_if_fail(n_runs >= 1);
	CalibrationPoint point = {
		.groups = groups,
		.sim_jiffies = sim_jiffies,
		.real_ms = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)n_runs),
		.real_mean_ms = gsl_stats_mean(real_ms, 1, n_runs),
		/* One run has no spread to estimate; 0 keeps error bars drawable. */
		.real_sd_ms = n_runs > 1 ? gsl_stats_sd(real_ms, 1, n_runs) : 0.0,
		.predicted_ms = NAN,
		.residual_ms = NAN,
		.sim_switches = NAN,
		.real_switches = NAN,
		.real_x_defaults = NAN,
		.real_x_defaults_lo = NAN,
		.real_x_defaults_hi = NAN,
		.sim_x_defaults = NAN,
		.real_switches_x_defaults = NAN,
		.sim_switches_x_defaults = NAN,
	};
	g_array_append_vals(point.real_ms, real_ms, (guint)n_runs);
	g_array_append_val(cal->points, point);
	g_array_append_val(cal->groups, groups);
}

guint calibration_add_setting(Calibration *cal, const char *id)
{
	g_ptr_array_add(cal->settings, g_strdup(id));
	return cal->settings->len - 1;
}

/*
 * With several settings: the R² of each group count's mean (the best any model blind to the knobs
 * can do), and what the fit explains of the settings' differences within a group count (see
 * calibration_io.h). y are the points' means, yhat the fit's values.
 */
static void within_groups(Calibration *cal, const double *y, const double *yhat)
{
	guint n = cal->points->len;
	g_autoptr(GHashTable) sums =
		g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	double grand = gsl_stats_mean(y, 1, n), ss_total = 0, ss_between = 0, ss_within = 0,
	       ss_miss = 0;

	if (cal->settings->len < 2)
		return;
	for (guint i = 0; i < n; i++) {
		gpointer key =
			GUINT_TO_POINTER(g_array_index(cal->points, CalibrationPoint, i).groups);
		double *sum = g_hash_table_lookup(sums, key);

		if (!sum)
			g_hash_table_insert(sums, key, sum = g_new0(double, 3));
		sum[0] += y[i];
		sum[1] += yhat[i];
		sum[2] += 1;
	}
	for (guint i = 0; i < n; i++) {
		const double *sum = g_hash_table_lookup(
			sums,
			GUINT_TO_POINTER(g_array_index(cal->points, CalibrationPoint, i).groups));
		double dy = y[i] - sum[0] / sum[2], dhat = yhat[i] - sum[1] / sum[2];

		ss_total += (y[i] - grand) * (y[i] - grand);
		ss_between += (sum[0] / sum[2] - grand) * (sum[0] / sum[2] - grand);
		ss_within += dy * dy;
		ss_miss += (dy - dhat) * (dy - dhat);
	}
	cal->fit.r2_group_means = ss_total > 0 ? ss_between / ss_total : NAN;
	cal->fit.r2_within_groups = ss_within > 0 ? 1 - ss_miss / ss_within : NAN;
}

void calibration_set_switches(Calibration *cal, guint i, double sim_switches,
			      const double *real_switches, gsize n)
{
	g_return_if_fail(i < cal->points->len && n >= 1);
	CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
	g_autofree double *sorted = g_memdup2(real_switches, n * sizeof(double));

	gsl_sort(sorted, 1, n);
	p->sim_switches = sim_switches;
	p->real_switches = gsl_stats_median_from_sorted_data(sorted, 1, n);
}

void calibration_add_run(Calibration *cal, const CalibrationRun *run)
{
	g_array_append_vals(cal->runs, run, 1);
}

gboolean calibration_fit(Calibration *cal, GError **error)
{
	guint n = cal->points->len;
	g_autofree double *x = g_new(double, MAX(n, 1));
	g_autofree double *y = g_new(double, MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		const CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
		x[i] = p->sim_jiffies;
		y[i] = p->real_mean_ms;
	}

	GError *fit_error = NULL;
	g_autoptr(Regression) r = regression_fit(x, y, n, &fit_error);
	if (r == NULL) {
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_FIT,
			    "cannot fit real ms against simulated jiffies: %s", fit_error->message);
		g_error_free(fit_error);
		return FALSE;
	}

	g_autoptr(GArray) runs = g_array_new(FALSE, FALSE, sizeof(double));
	g_autofree gsize *counts = g_new(gsize, n);
	for (guint i = 0; i < n; i++) {
		const GArray *real = g_array_index(cal->points, CalibrationPoint, i).real_ms;
		g_array_append_vals(runs, real->data, real->len);
		counts[i] = real->len;
	}
	/* In rounds, a point's j-th run was made in round j: the rounds are blocks. */
	LackOfFit lof = regression_lack_of_fit(
		r, (const double *)(void *)runs->data, counts,
		cal->protocol.order != RUN_ORDER_ROUNDS ? REGRESSION_BLOCKS_NONE
		: cal->protocol.proportional		? REGRESSION_BLOCKS_PROPORTIONAL
							: REGRESSION_BLOCKS_ADDITIVE);

	g_autofree double *groups = g_new(double, MAX(n, 1));
	for (guint i = 0; i < n; i++)
		groups[i] = g_array_index(cal->points, CalibrationPoint, i).groups;
	g_autoptr(Regression) null_model = regression_fit(groups, y, n, NULL);

	cal->fit = (CalibrationFit){
		.a = r->a,
		.b = r->b,
		.se_a = r->se_a,
		.se_b = r->se_b,
		.t_a = r->t_a,
		.t_b = r->t_b,
		.p_a = r->p_a,
		.p_b = r->p_b,
		.r2 = r->r2,
		.adj_r2 = r->adj_r2,
		.rse = r->rse,
		.f = r->f,
		.f_p = r->f_p,
		.loo_mape = r->loo_mape,
		.n = n,
		.lof_f = lof.f,
		.lof_p = lof.p,
		.pe_sd = lof.pe_sd,
		.pe_df = lof.df_pe,
		.r2_ceiling = lof.r2_ceiling,
		.repeats_for_r2_99 = regression_repeats_for_r2(r, &lof, 0.99),
		.r2_groups = null_model ? null_model->r2 : NAN,
	};
	for (guint i = 0; i < n; i++) {
		CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
		p->predicted_ms = r->fitted[i];
		p->residual_ms = r->residuals[i];
	}
	within_groups(cal, y, r->fitted);
	return TRUE;
}

double calibration_predict_ms(const Calibration *cal, double sim_jiffies)
{
	return cal->fit.a + cal->fit.b * sim_jiffies;
}

/* ---- writing ---- */

static gboolean make_dir(const char *dir, GError **error)
{
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		int saved = errno;
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_IO,
			    "cannot create directory '%s': %s", dir, g_strerror(saved));
		return FALSE;
	}
	return TRUE;
}

/* Write contents to DIR/name through a temporary file and a rename. */
static gboolean write_file(const char *dir, const char *name, const char *contents, gsize length,
			   GError **error)
{
	g_autofree gchar *path = g_build_filename(dir, name, NULL);
	GError *io_error = NULL;
	if (!g_file_set_contents(path, contents, (gssize)length, &io_error)) {
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_IO, "cannot write '%s': %s",
			    path, io_error->message);
		g_error_free(io_error);
		return FALSE;
	}
	return TRUE;
}

static gboolean write_key_file(GKeyFile *kf, const char *dir, const char *name, GError **error)
{
	gsize length = 0;
	g_autofree gchar *data = g_key_file_to_data(kf, &length, NULL);
	return write_file(dir, name, data, length, error);
}

static void append_number(GString *s, double value)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	g_string_append(s, g_ascii_formatd(buf, sizeof buf, "%.10g", value));
}

/* A number, or nothing when there is none (the CSV convention for a missing value). */
static void append_optional(GString *s, double value)
{
	if (isfinite(value))
		append_number(s, value);
}

static gchar *csv_text(const Calibration *cal)
{
	gboolean settings = cal->settings->len > 0;
	GString *s = g_string_new("groups,sim_jiffies,real_mean_ms,real_sd_ms,predicted_ms,"
				  "residual_ms,runs,sim_switches,real_switches");
	g_string_append(s, settings ? ",setting,real_x_defaults,real_x_defaults_lo,"
				      "real_x_defaults_hi,sim_x_defaults,real_switches_x_defaults,"
				      "sim_switches_x_defaults\n"
				    : "\n");
	for (guint i = 0; i < cal->points->len; i++) {
		const CalibrationPoint *p = &g_array_index(cal->points, CalibrationPoint, i);
		const double columns[] = { p->sim_jiffies, p->real_mean_ms, p->real_sd_ms,
					   p->predicted_ms, p->residual_ms };
		g_string_append_printf(s, "%u", p->groups);
		for (gsize c = 0; c < G_N_ELEMENTS(columns); c++) {
			g_string_append_c(s, ',');
			append_number(s, columns[c]);
		}
		g_string_append_c(s, ',');
		for (guint r = 0; r < p->real_ms->len; r++) {
			if (r > 0)
				g_string_append_c(s, ';');
			append_number(s, g_array_index(p->real_ms, double, r));
		}
		g_string_append_c(s, ',');
		append_optional(s, p->sim_switches);
		g_string_append_c(s, ',');
		append_optional(s, p->real_switches);
		if (settings) {
			const double ratios[] = {
				p->real_x_defaults,	     p->real_x_defaults_lo,
				p->real_x_defaults_hi,	     p->sim_x_defaults,
				p->real_switches_x_defaults, p->sim_switches_x_defaults
			};

			g_string_append_printf(
				s, ",%s",
				(const char *)g_ptr_array_index(cal->settings, p->setting));
			for (gsize c = 0; c < G_N_ELEMENTS(ratios); c++) {
				g_string_append_c(s, ',');
				append_optional(s, ratios[c]);
			}
		}
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

static gchar *runs_csv_text(const Calibration *cal)
{
	gboolean settings = cal->settings->len > 0;
	GString *s = g_string_new(settings ? "seq,round,groups,ms,start_s,switches,setting\n"
					   : "seq,round,groups,ms,start_s,switches\n");
	for (guint i = 0; i < cal->runs->len; i++) {
		const CalibrationRun *run = &g_array_index(cal->runs, CalibrationRun, i);
		g_string_append_printf(s, "%u,%u,%u,", run->seq, run->round, run->groups);
		append_number(s, run->ms);
		g_string_append_c(s, ',');
		append_number(s, run->start_s);
		g_string_append_c(s, ',');
		append_optional(s, run->switches);
		if (settings)
			g_string_append_printf(
				s, ",%s",
				(const char *)g_ptr_array_index(cal->settings, run->setting));
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

static void set_calibration_group(GKeyFile *kf, const Calibration *cal)
{
	g_key_file_set_string(kf, GROUP_CALIBRATION, "model", calibration_model_name(cal->model));
	g_key_file_set_string(kf, GROUP_CALIBRATION, "workload",
			      cal->workload ? cal->workload : "");
	g_key_file_set_string(kf, GROUP_CALIBRATION, "date", cal->date ? cal->date : "");
	g_key_file_set_string(kf, GROUP_CALIBRATION, "kernel", cal->kernel ? cal->kernel : "");
	g_key_file_set_uint64(kf, GROUP_CALIBRATION, "cpus", cal->cpus);
	g_key_file_set_uint64(kf, GROUP_CALIBRATION, "loops", cal->loops);
	g_key_file_set_string(kf, GROUP_CALIBRATION, "mode", realbench_tasks_name(cal->mode));

	g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < cal->groups->len; i++)
		g_ptr_array_add(groups,
				g_strdup_printf("%u", g_array_index(cal->groups, guint, i)));
	g_key_file_set_string_list(kf, GROUP_CALIBRATION, "groups",
				   (const gchar *const *)groups->pdata, groups->len);
	g_key_file_set_string(kf, GROUP_CALIBRATION, "order", run_order_name(cal->protocol.order));
	g_key_file_set_uint64(kf, GROUP_CALIBRATION, "seed", cal->protocol.seed);
	g_key_file_set_double(kf, GROUP_CALIBRATION, "warmup_s", cal->protocol.warmup_s);
	g_key_file_set_string(kf, GROUP_CALIBRATION, "blocks",
			      cal->protocol.proportional ? "proportional" : "additive");
	g_key_file_set_string(kf, GROUP_CALIBRATION, "source", cal->source ? cal->source : "host");
	if (cal->settings->len > 0)
		g_key_file_set_string_list(kf, GROUP_CALIBRATION, "settings",
					   (const gchar *const *)cal->settings->pdata,
					   cal->settings->len);
	g_key_file_set_comment(kf, GROUP_CALIBRATION, NULL,
			       " Written by tuner calibrate; the rows are in " CALIBRATION_CSV_NAME,
			       NULL);
}

static void set_fit_group(GKeyFile *kf, const CalibrationFit *fit)
{
	g_key_file_set_double(kf, GROUP_FIT, "a", fit->a);
	g_key_file_set_double(kf, GROUP_FIT, "b", fit->b);
	g_key_file_set_double(kf, GROUP_FIT, "se_a", fit->se_a);
	g_key_file_set_double(kf, GROUP_FIT, "se_b", fit->se_b);
	g_key_file_set_double(kf, GROUP_FIT, "r2", fit->r2);
	g_key_file_set_double(kf, GROUP_FIT, "adj_r2", fit->adj_r2);
	g_key_file_set_double(kf, GROUP_FIT, "rse", fit->rse);
	g_key_file_set_double(kf, GROUP_FIT, "f", fit->f);
	g_key_file_set_double(kf, GROUP_FIT, "f_p", fit->f_p);
	g_key_file_set_double(kf, GROUP_FIT, "loo_mape", fit->loo_mape);
	g_key_file_set_uint64(kf, GROUP_FIT, "n", fit->n);
	g_key_file_set_double(kf, GROUP_FIT, "lof_f", fit->lof_f);
	g_key_file_set_double(kf, GROUP_FIT, "lof_p", fit->lof_p);
	g_key_file_set_double(kf, GROUP_FIT, "pe_sd", fit->pe_sd);
	g_key_file_set_double(kf, GROUP_FIT, "pe_df", fit->pe_df);
	g_key_file_set_double(kf, GROUP_FIT, "r2_ceiling", fit->r2_ceiling);
	g_key_file_set_double(kf, GROUP_FIT, "repeats_for_r2_99", fit->repeats_for_r2_99);
	g_key_file_set_double(kf, GROUP_FIT, "r2_groups", fit->r2_groups);
	if (isfinite(fit->r2_group_means) || isfinite(fit->r2_within_groups)) {
		g_key_file_set_double(kf, GROUP_FIT, "r2_group_means", fit->r2_group_means);
		g_key_file_set_double(kf, GROUP_FIT, "r2_within_groups", fit->r2_within_groups);
	}
	g_key_file_set_comment(kf, GROUP_FIT, NULL,
			       " real_ms = a + b * sim_jiffies; rse in ms, loo_mape in percent",
			       NULL);
}

gboolean calibration_write(const Calibration *cal, const char *dir, GError **error)
{
	if (!make_dir(dir, error))
		return FALSE;

	g_autofree gchar *csv = csv_text(cal);
	/* The CSV first: the .ini is what the tuner loads, so it appears only once both exist. */
	if (!write_file(dir, CALIBRATION_CSV_NAME, csv, strlen(csv), error))
		return FALSE;
	if (cal->runs->len > 0) {
		g_autofree gchar *runs = runs_csv_text(cal);
		if (!write_file(dir, CALIBRATION_RUNS_NAME, runs, strlen(runs), error))
			return FALSE;
	}

	g_autoptr(GKeyFile) kf = g_key_file_new();
	set_calibration_group(kf, cal);
	set_fit_group(kf, &cal->fit);
	return write_key_file(kf, dir, CALIBRATION_INI_NAME, error);
}

/* ---- reading ---- */

/* A loaded key file and the path to name in errors. */
typedef struct {
	GKeyFile *kf;
	const char *path;
} IniReader;

static gboolean ini_open(IniReader *r, const char *path, GError **error)
{
	r->path = path;
	r->kf = g_key_file_new();
	GError *load_error = NULL;
	if (g_key_file_load_from_file(r->kf, path, G_KEY_FILE_NONE, &load_error))
		return TRUE;
	if (load_error->domain == G_FILE_ERROR)
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_IO, "cannot read '%s': %s",
			    path, load_error->message);
	else
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_SYNTAX, "%s: %s", path,
			    load_error->message);
	g_error_free(load_error);
	g_clear_pointer(&r->kf, g_key_file_unref);
	return FALSE;
}

static void ini_close(IniReader *r)
{
	g_clear_pointer(&r->kf, g_key_file_unref);
}

static gboolean bad_value(const IniReader *r, const char *group, const char *key, const char *value,
			  const char *why, GError **error)
{
	g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_BAD_VALUE,
		    "%s: key '%s' in [%s] is '%s', %s", r->path, key, group, value, why);
	return FALSE;
}

/* The value of group.key, or NULL with MISSING_KEY (or BAD_VALUE when it is not UTF-8). */
static gchar *ini_string(const IniReader *r, const char *group, const char *key, GError **error)
{
	GError *key_error = NULL;
	gchar *value = g_key_file_get_string(r->kf, group, key, &key_error);
	if (value != NULL)
		return value;
	if (g_error_matches(key_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND) ||
	    g_error_matches(key_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND))
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_MISSING_KEY,
			    "%s: missing key '%s' in [%s]", r->path, key, group);
	else
		g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_BAD_VALUE,
			    "%s: key '%s' in [%s]: %s", r->path, key, group, key_error->message);
	g_error_free(key_error);
	return NULL;
}

/* ini_string into *out, for chaining reads with &&. */
static gboolean ini_text(const IniReader *r, const char *group, const char *key, gchar **out,
			 GError **error)
{
	*out = ini_string(r, group, key, error);
	return *out != NULL;
}

static gboolean ini_double(const IniReader *r, const char *group, const char *key, double *out,
			   GError **error)
{
	g_autofree gchar *text = ini_string(r, group, key, error);
	if (text == NULL)
		return FALSE;
	char *end = NULL;
	double value = g_ascii_strtod(text, &end);
	if (end == text || *end != '\0')
		return bad_value(r, group, key, text, "not a number", error);
	*out = value;
	return TRUE;
}

static gboolean ini_finite(const IniReader *r, const char *group, const char *key, double *out,
			   GError **error)
{
	if (!ini_double(r, group, key, out, error))
		return FALSE;
	if (!isfinite(*out)) {
		g_autofree gchar *text = g_key_file_get_string(r->kf, group, key, NULL);
		return bad_value(r, group, key, text, "not a finite number", error);
	}
	return TRUE;
}

static gboolean parse_uint(const char *text, guint min, guint *out)
{
	guint64 value = 0;
	if (!g_ascii_string_to_unsigned(text, 10, min, G_MAXUINT, &value, NULL))
		return FALSE;
	*out = (guint)value;
	return TRUE;
}

/* An unsigned integer >= min. */
static gboolean ini_uint(const IniReader *r, const char *group, const char *key, guint min,
			 guint *out, GError **error)
{
	g_autofree gchar *text = ini_string(r, group, key, error);
	if (text == NULL)
		return FALSE;
	if (!parse_uint(text, min, out)) {
		g_autofree gchar *why = g_strdup_printf("not a whole number >= %u", min);
		return bad_value(r, group, key, text, why, error);
	}
	return TRUE;
}

static gboolean ini_mode(const IniReader *r, const char *group, RealbenchTasks *out, GError **error)
{
	g_autofree gchar *text = ini_string(r, group, "mode", error);
	if (text == NULL)
		return FALSE;
	if (!realbench_tasks_from_name(text, out))
		return bad_value(r, group, "mode", text, "neither 'threads' nor 'processes'",
				 error);
	return TRUE;
}

static gboolean ini_date(const IniReader *r, const char *group, gchar **out, GError **error)
{
	g_autofree gchar *text = ini_string(r, group, "date", error);
	if (text == NULL)
		return FALSE;
	g_autoptr(GDateTime) parsed = g_date_time_new_from_iso8601(text, NULL);
	if (parsed == NULL)
		return bad_value(r, group, "date", text, "not an ISO 8601 date with a time zone",
				 error);
	*out = g_steal_pointer(&text);
	return TRUE;
}

static gboolean ini_groups(const IniReader *r, GArray *groups, GError **error)
{
	g_autofree gchar *text = ini_string(r, GROUP_CALIBRATION, "groups", error);
	if (text == NULL)
		return FALSE;
	g_auto(GStrv) items =
		g_key_file_get_string_list(r->kf, GROUP_CALIBRATION, "groups", NULL, NULL);
	for (gsize i = 0; items != NULL && items[i] != NULL; i++) {
		guint g = 0;
		if (!parse_uint(items[i], 1, &g))
			return bad_value(r, GROUP_CALIBRATION, "groups", text,
					 "not a ';'-separated list of group counts >= 1", error);
		g_array_append_val(groups, g);
	}
	return TRUE;
}

/* The run order, seed and warm-up; a file without them predates them and ran in blocks. */
static gboolean read_protocol(const IniReader *r, CalibrationProtocol *protocol, GError **error)
{
	const char *g = GROUP_CALIBRATION;
	*protocol = (CalibrationProtocol){ .order = RUN_ORDER_BLOCKS, .seed = 0, .warmup_s = 0 };
	if (!g_key_file_has_key(r->kf, g, "order", NULL))
		return TRUE;
	g_autofree gchar *order = ini_string(r, g, "order", error);
	if (order == NULL)
		return FALSE;
	if (!run_order_from_name(order, &protocol->order))
		return bad_value(r, g, "order", order, "neither 'rounds' nor 'blocks'", error);
	if (!ini_uint(r, g, "seed", 0, &protocol->seed, error) ||
	    !ini_double(r, g, "warmup_s", &protocol->warmup_s, error))
		return FALSE;
	if (!(protocol->warmup_s >= 0)) {
		g_autofree gchar *text = g_key_file_get_string(r->kf, g, "warmup_s", NULL);
		return bad_value(r, g, "warmup_s", text, "not a number of seconds >= 0", error);
	}
	if (!g_key_file_has_key(r->kf, g, "blocks", NULL))
		return TRUE;
	g_autofree gchar *blocks = ini_string(r, g, "blocks", error);
	if (blocks == NULL)
		return FALSE;
	if (strcmp(blocks, "additive") != 0 && strcmp(blocks, "proportional") != 0)
		return bad_value(r, g, "blocks", blocks, "neither 'additive' nor 'proportional'",
				 error);
	protocol->proportional = strcmp(blocks, "proportional") == 0;
	return TRUE;
}

/* Where the real runs ran and the knob settings' ids: optional, "host" and none without them. */
static gboolean read_source(const IniReader *r, Calibration *cal, GError **error)
{
	const char *g = GROUP_CALIBRATION;

	if (g_key_file_has_key(r->kf, g, "source", NULL)) {
		g_autofree gchar *source = ini_string(r, g, "source", error);
		if (source == NULL)
			return FALSE;
		if (strcmp(source, "host") != 0 && strcmp(source, "vm") != 0)
			return bad_value(r, g, "source", source, "neither 'host' nor 'vm'", error);
		cal->source = g_steal_pointer(&source);
	} else {
		cal->source = g_strdup("host");
	}
	g_auto(GStrv) ids = g_key_file_get_string_list(r->kf, g, "settings", NULL, NULL);
	for (gsize i = 0; ids && ids[i]; i++)
		calibration_add_setting(cal, ids[i]);
	return TRUE;
}

static gboolean read_calibration_group(const IniReader *r, Calibration *cal, GError **error)
{
	const char *g = GROUP_CALIBRATION;
	g_autofree gchar *model = ini_string(r, g, "model", error);
	if (model == NULL)
		return FALSE;
	if (!calibration_model_from_name(model, &cal->model))
		return bad_value(r, g, "model", model, "neither 'fsm' nor 'bootstrap'", error);
	return ini_text(r, g, "workload", &cal->workload, error) &&
	       ini_date(r, g, &cal->date, error) && ini_text(r, g, "kernel", &cal->kernel, error) &&
	       ini_uint(r, g, "cpus", 1, &cal->cpus, error) &&
	       ini_uint(r, g, "loops", 1, &cal->loops, error) &&
	       ini_mode(r, g, &cal->mode, error) && ini_groups(r, cal->groups, error) &&
	       read_protocol(r, &cal->protocol, error) && read_source(r, cal, error);
}

/* A key that older files lack: NaN when absent. */
static gboolean ini_optional_double(const IniReader *r, const char *group, const char *key,
				    double *out, GError **error)
{
	*out = NAN;
	return !g_key_file_has_key(r->kf, group, key, NULL) ||
	       ini_double(r, group, key, out, error);
}

static gboolean read_fit_group(const IniReader *r, CalibrationFit *fit, GError **error)
{
	const char *g = GROUP_FIT;
	/* a and b must be usable for predictions; the statistics may be NaN on degenerate data. */
	return ini_finite(r, g, "a", &fit->a, error) && ini_finite(r, g, "b", &fit->b, error) &&
	       ini_double(r, g, "se_a", &fit->se_a, error) &&
	       ini_double(r, g, "se_b", &fit->se_b, error) &&
	       ini_double(r, g, "r2", &fit->r2, error) &&
	       ini_double(r, g, "adj_r2", &fit->adj_r2, error) &&
	       ini_double(r, g, "rse", &fit->rse, error) && ini_double(r, g, "f", &fit->f, error) &&
	       ini_double(r, g, "f_p", &fit->f_p, error) &&
	       ini_double(r, g, "loo_mape", &fit->loo_mape, error) &&
	       ini_uint(r, g, "n", 3, &fit->n, error) &&
	       ini_optional_double(r, g, "lof_f", &fit->lof_f, error) &&
	       ini_optional_double(r, g, "lof_p", &fit->lof_p, error) &&
	       ini_optional_double(r, g, "pe_sd", &fit->pe_sd, error) &&
	       ini_optional_double(r, g, "pe_df", &fit->pe_df, error) &&
	       ini_optional_double(r, g, "r2_ceiling", &fit->r2_ceiling, error) &&
	       ini_optional_double(r, g, "repeats_for_r2_99", &fit->repeats_for_r2_99, error) &&
	       ini_optional_double(r, g, "r2_groups", &fit->r2_groups, error) &&
	       ini_optional_double(r, g, "r2_group_means", &fit->r2_group_means, error) &&
	       ini_optional_double(r, g, "r2_within_groups", &fit->r2_within_groups, error);
}

Calibration *calibration_read(const char *path, GError **error)
{
	IniReader r;
	if (!ini_open(&r, path, error))
		return NULL;

	Calibration *cal = calibration_empty();
	gboolean ok =
		read_calibration_group(&r, cal, error) && read_fit_group(&r, &cal->fit, error);
	ini_close(&r);
	if (!ok) {
		g_clear_pointer(&cal, calibration_free);
		return NULL;
	}
	regression_t_test(cal->fit.a, cal->fit.se_a, cal->fit.n - 2.0, &cal->fit.t_a,
			  &cal->fit.p_a);
	regression_t_test(cal->fit.b, cal->fit.se_b, cal->fit.n - 2.0, &cal->fit.t_b,
			  &cal->fit.p_b);
	return cal;
}

/* ---- the bootstrap model's inputs ---- */

static gboolean check_bootstrap(const CalibrationBootstrap *boot, const char *dir, GError **error)
{
	const char *problem = NULL;
	if (!isfinite(boot->solo_ms) || boot->solo_ms <= 0.0)
		problem = "solo_ms must be a positive number of milliseconds";
	else if (!isfinite(boot->degradation) || boot->degradation <= 0.0)
		problem = "degradation must be a positive ratio";
	else if (boot->loops == 0)
		problem = "loops must be at least 1";
	if (problem == NULL)
		return TRUE;
	g_set_error(error, CALIBRATION_ERROR, CALIBRATION_ERROR_BAD_VALUE,
		    "not writing %s/" CALIBRATION_BOOTSTRAP_NAME
		    ": %s (solo_ms %g, degradation %g, "
		    "loops %u)",
		    dir, problem, boot->solo_ms, boot->degradation, boot->loops);
	return FALSE;
}

gboolean calibration_bootstrap_write(const CalibrationBootstrap *boot, const char *dir,
				     GError **error)
{
	if (!check_bootstrap(boot, dir, error) || !make_dir(dir, error))
		return FALSE;

	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_key_file_set_double(kf, GROUP_BOOTSTRAP, "solo_ms", boot->solo_ms);
	g_key_file_set_double(kf, GROUP_BOOTSTRAP, "degradation", boot->degradation);
	g_key_file_set_uint64(kf, GROUP_BOOTSTRAP, "loops", boot->loops);
	g_key_file_set_string(kf, GROUP_BOOTSTRAP, "mode", realbench_tasks_name(boot->mode));
	g_key_file_set_string(kf, GROUP_BOOTSTRAP, "date", boot->date ? boot->date : "");
	g_key_file_set_comment(
		kf, GROUP_BOOTSTRAP, NULL,
		" Inputs of the bootstrapped hackbench model: solo_ms = one group "
		"alone (ms),\n degradation = RuntimeAlone / RuntimeCombined with two "
		"groups together",
		NULL);
	return write_key_file(kf, dir, CALIBRATION_BOOTSTRAP_NAME, error);
}

void calibration_bootstrap_free(CalibrationBootstrap *boot)
{
	if (boot == NULL)
		return;
	g_free(boot->date);
	g_free(boot);
}
