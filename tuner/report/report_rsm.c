/*
 * report_rsm.c - response surfaces, contour maps, residuals and the Box-Cox profile of a
 * response-surface study (see report_sources.h; the files are rsm_files.h's).
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "tuner/stats/boxcox.h"
#include "tuner/util/json_read.h"
#include "tuner/report/report_csv.h"
#include "tuner/report/report_residuals.h"
#include "tuner/report/report_sources.h"
#include "tuner/stats/rsm_model.h"

/* A factor as the figures show it. */
struct factor {
	const char *name, *column;
	double scale;	  /* natural value * scale = plotted value */
	const char *unit; /* of the plotted value */
	gboolean log;	  /* searched on a log scale from above 0: drawn on a log axis */
	double opt;	  /* natural value at the optimum */
};

struct study {
	const char *dir;
	char *json_path;
	JsonReadValue *json;
	guint k;
	struct factor f[RSM_MODEL_MAX_FACTORS];
	const char *response; /* what the response is: "turnaround", "PSO score", "response" */
	const char *unit;     /* its unit, for labels */
	double lambda;	      /* the power applied */
	double opt_y;	      /* the predicted response at the optimum */
	double opt_coded[RSM_MODEL_MAX_FACTORS];
};

static gboolean missing(GError **error, const char *path, const char *key)
{
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
		    "%s: no \"%s\" (not the result of tuner rsm?)", path, key);
	return FALSE;
}

static gboolean json_number(const struct study *st, const char *key, double *out, GError **error)
{
	return json_read_number(st->json, key, out) || missing(error, st->json_path, key);
}

/* Knob columns end in _ns: shown in ms. Others (PSO's omega, phi) have no unit. */
static void display_units(struct factor *f)
{
	if (g_str_has_suffix(f->column, "_ns")) {
		f->scale = 1e-6;
		f->unit = "ms";
	} else {
		f->scale = 1;
		f->unit = "";
	}
}

static gboolean read_factor(struct study *st, guint j, GError **error)
{
	struct factor *f = &st->f[j];
	g_autofree char *name = g_strdup_printf("factors.%u.name", j);
	g_autofree char *column = g_strdup_printf("factors.%u.column", j);
	g_autofree char *scale = g_strdup_printf("factors.%u.scale", j);
	g_autofree char *coded = g_strdup_printf("optimum.coded.%u", j);
	const char *sc;

	if (!(f->name = json_read_string(st->json, name)))
		return missing(error, st->json_path, name);
	if (!(f->column = json_read_string(st->json, column)))
		return missing(error, st->json_path, column);
	g_autofree char *lo_key = g_strdup_printf("factors.%u.lo", j);
	double lo;

	/* A log range from 0 is ln(v + offset): its axis has a 0, which a log axis cannot show. */
	sc = json_read_string(st->json, scale);
	f->log = sc && strcmp(sc, "log") == 0 && json_read_number(st->json, lo_key, &lo) && lo > 0;
	display_units(f);

	g_autofree char *natural = g_strdup_printf("optimum.natural.%s", f->column);

	return json_number(st, natural, &f->opt, error) &&
	       json_number(st, coded, &st->opt_coded[j], error);
}

/*
 * tuner rsm models the turnaround in jiffies ("unit"), or with --analyse a response of unknown
 * unit ("response"); tuner meta-pso models PSO's score, the best turnaround plus a weight times
 * the iterations it took, and writes no unit.
 */
static gboolean response_name(struct study *st)
{
	const char *unit = json_read_string(st->json, "unit");
	const char *command = json_read_string(st->json, "command");

	if (unit && strcmp(unit, "response") == 0) {
		st->response = "response";
		st->unit = "units of design.csv";
	} else if (unit) {
		st->response = "turnaround";
		st->unit = unit;
	} else if (command && strcmp(command, "meta-pso") == 0) {
		st->response = "PSO score";
		st->unit = "jiffies + weight × iterations";
	} else {
		return FALSE;
	}
	return TRUE;
}

static gboolean read_study(struct study *st, GError **error)
{
	const JsonReadValue *factors;
	GError *local = NULL;

	st->json_path = g_build_filename(st->dir, "result.json", NULL);
	if (!(st->json = json_read_file(st->json_path, &local))) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	factors = json_read_path(st->json, "factors");
	if (!factors || factors->type != JSON_READ_ARRAY || factors->items->len < 1 ||
	    factors->items->len > RSM_MODEL_MAX_FACTORS)
		return missing(error, st->json_path, "factors (1 to 10 of them)");
	st->k = factors->items->len;
	for (guint j = 0; j < st->k; j++)
		if (!read_factor(st, j, error))
			return FALSE;
	if (!response_name(st))
		return missing(error, st->json_path, "unit");
	return json_number(st, "lambda", &st->lambda, error) &&
	       json_number(st, "optimum.predicted", &st->opt_y, error);
}

static void study_clear(struct study *st)
{
	g_free(st->json_path);
	json_read_free(st->json);
}

/* "latency (ms)", or the bare name of a dimensionless factor. */
static char *axis_name(const struct factor *f)
{
	return *f->unit ? g_strdup_printf("%s (%s)", f->name, f->unit)
			: g_strdup_printf("%s (dimensionless)", f->name);
}

static char *value_text(const struct factor *f, double natural)
{
	return g_strdup_printf("%.4g%s%s", natural * f->scale, *f->unit ? " " : "", f->unit);
}

/* ---- surfaces -------------------------------------------------------------------------------- */

/* The columns of one pair's grid in surface.csv. */
struct grid {
	guint a, b;	/* the factors that vary */
	guint first, m; /* first row, points per side */
	int xa, xb, na, nb, z;
};

/* Row `row` must lie on scan line jb of pair (a, b): x_b the same along the line, x_a rising. */
static gboolean check_grid(const ReportCsv *csv, const struct grid *g, guint i, guint j,
			   GError **error)
{
	guint row = g->first + j * g->m + i;
	double xa, xb, xa0, xb0;

	if (!report_csv_number(csv, row, (guint)g->xa, FALSE, &xa, error) ||
	    !report_csv_number(csv, row, (guint)g->xb, FALSE, &xb, error) ||
	    !report_csv_number(csv, g->first + j * g->m, (guint)g->xa, FALSE, &xa0, error) ||
	    !report_csv_number(csv, g->first + j * g->m, (guint)g->xb, FALSE, &xb0, error))
		return FALSE;
	if (xb == xb0 && (i == 0 || xa > xa0))
		return TRUE;
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
		    "%s:%u: not on the grid of x%u and x%u (%u x %u points, x%u varying fastest)",
		    csv->path, g_array_index(csv->lines, guint, row), g->a + 1, g->b + 1, g->m,
		    g->m, g->a + 1);
	return FALSE;
}

static char *grid_data(const ReportCsv *csv, const struct study *st, const struct grid *g,
		       GError **error)
{
	g_autoptr(GString) out = g_string_new(NULL);

	g_string_append_printf(out, "# %s, %s, predicted %s (%s); the grid of %s/surface.csv\n",
			       st->f[g->a].name, st->f[g->b].name, st->response, st->unit, st->dir);
	for (guint j = 0; j < g->m; j++) {
		for (guint i = 0; i < g->m; i++) {
			guint row = g->first + j * g->m + i;
			double na, nb, z;

			if (!check_grid(csv, g, i, j, error) ||
			    !report_csv_number(csv, row, (guint)g->na, FALSE, &na, error) ||
			    !report_csv_number(csv, row, (guint)g->nb, FALSE, &nb, error) ||
			    !report_csv_number(csv, row, (guint)g->z, TRUE, &z, error))
				return NULL;
			g_string_append_printf(out, "%.10g %.10g", na * st->f[g->a].scale,
					       nb * st->f[g->b].scale);
			report_data_number(out, z);
			g_string_append_c(out, '\n');
		}
		g_string_append_c(out, '\n');
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* "wakeup_granularity held at 16.59 ms, its value at the optimum" */
static char *fixed_text(const struct study *st, guint a, guint b)
{
	GString *s = g_string_new(NULL);

	for (guint j = 0; j < st->k; j++) {
		if (j == a || j == b)
			continue;

		g_autofree char *v = value_text(&st->f[j], st->f[j].opt);

		g_string_append_printf(s, "%s%s = %s", s->len ? ", " : "", st->f[j].name, v);
	}
	if (st->k == 3)
		g_string_append(s, " (its value at the optimum)");
	else if (st->k > 3)
		g_string_append(s, " (their values at the optimum)");
	else
		g_string_append(s, "no other factor");
	return g_string_free(s, FALSE);
}

static gboolean draw_pair(Report *r, ReportSection *s, const char *prefix, const struct study *st,
			  const struct grid *g, const char *data, GError **error)
{
	const struct factor *fa = &st->f[g->a], *fb = &st->f[g->b];
	g_autofree char *stem3 = g_strdup_printf("%srsm-surface-%s-%s", prefix, fa->name, fb->name);
	g_autofree char *stemc = g_strdup_printf("%srsm-contour-%s-%s", prefix, fa->name, fb->name);
	g_autofree char *xname = axis_name(fa);
	g_autofree char *yname = axis_name(fb);
	g_autofree char *zname = g_strdup_printf("predicted %s (%s)", st->response, st->unit);
	g_autofree char *fixed = fixed_text(st, g->a, g->b);
	g_autofree char *oa = value_text(fa, fa->opt);
	g_autofree char *ob = value_text(fb, fb->opt);
	g_autofree char *otitle = g_strdup_printf("optimum: %s, %s → %.5g", oa, ob, st->opt_y);
	g_autofree char *title3 =
		g_strdup_printf("Response surface over %s and %s", fa->name, fb->name);
	g_autofree char *titlec = g_strdup_printf("Contours over %s and %s", fa->name, fb->name);
	g_autofree char *caption = g_strdup_printf(
		"The fitted quadratic model's predicted %s over the coded region [-1, 1]² of %s and %s, %s; "
		"%u × %u grid. The constrained optimum (%s = %s, %s = %s) predicts %.6g (%s).",
		st->response, fa->name, fb->name, fixed, g->m, g->m, fa->name, oa, fb->name, ob,
		st->opt_y, st->unit);
	g_autoptr(GString) vars = g_string_new(NULL);

	report_var_string(vars, "xname", xname);
	report_var_string(vars, "yname", yname);
	report_var_string(vars, "zname", zname);
	report_var_string(vars, "fixed", fixed);
	report_var_number(vars, "ox", fa->opt * fa->scale);
	report_var_number(vars, "oy", fb->opt * fb->scale);
	report_var_number(vars, "oz", st->opt_y);
	report_var_string(vars, "otitle", otitle);
	report_var_number(vars, "xlog", fa->log);
	report_var_number(vars, "ylog", fb->log);
	/* Look from the side of the region the optimum is on, so that the surface does not hide it. */
	report_var_number(vars, "rotz", st->opt_coded[g->b] > 0 ? 220 : 40);
	return report_plot(r, s, "surface3d.gp", data, stem3, title3, caption, vars, error) &&
	       report_plot(r, s, "contour.gp", data, stemc, titlec, caption, vars, error);
}

static gboolean surfaces(Report *r, ReportSection *s, const char *prefix, const struct study *st,
			 GError **error)
{
	g_autofree char *path = g_build_filename(st->dir, "surface.csv", NULL);
	static const ReportCsvColumn schema[] = {
		{ .name = "latency_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "min_granularity_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "wakeup_granularity_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "migration_cost_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "base_slice_ns", .kind = REPORT_CSV_KNOB, .optional = TRUE },
		{ .name = "predicted", .kind = REPORT_CSV_FINITE },
	};
	guint pairs = st->k * (st->k - 1) / 2;

	if (pairs == 0) /* one factor (base_slice alone): no surface over a pair to draw */
		return TRUE;

	g_autoptr(ReportCsv) csv = report_csv_read(path, error);

	if (!csv || !report_csv_check(csv, schema, G_N_ELEMENTS(schema), error))
		return FALSE;

	guint per_pair = csv->rows->len / pairs;
	guint m = (guint)lround(sqrt(per_pair));

	if (csv->rows->len % pairs || m < 2 || m * m != per_pair) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
			    "%s: %u rows do not make %u square grids, one per pair "
			    "of the %u factors",
			    path, csv->rows->len, pairs, st->k);
		return FALSE;
	}

	struct grid g = { .first = 0, .m = m };

	if ((g.z = report_csv_column(csv, "predicted", error)) < 0)
		return FALSE;
	for (g.a = 0; g.a < st->k; g.a++)
		for (g.b = g.a + 1; g.b < st->k; g.b++, g.first += per_pair) {
			g_autofree char *xa = g_strdup_printf("x%u", g.a + 1);
			g_autofree char *xb = g_strdup_printf("x%u", g.b + 1);
			g_autofree char *name = g_strdup_printf("%srsm-surface-%s-%s.dat", prefix,
								st->f[g.a].name, st->f[g.b].name);
			g_autofree char *data = NULL;

			if ((g.xa = report_csv_column(csv, xa, error)) < 0 ||
			    (g.xb = report_csv_column(csv, xb, error)) < 0 ||
			    (g.na = report_csv_column(csv, st->f[g.a].column, error)) < 0 ||
			    (g.nb = report_csv_column(csv, st->f[g.b].column, error)) < 0 ||
			    !(data = grid_data(csv, st, &g, error)) ||
			    !report_write_data(r, name, data, error) ||
			    !draw_pair(r, s, prefix, st, &g, name, error))
				return FALSE;
		}
	return TRUE;
}

/* ---- residuals ------------------------------------------------------------------------------- */

/* A modelled value y^lambda back in the response's units (NaN without a preimage). */
static gboolean model_error(GError **error, const char *path, const GError *local)
{
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
		    "%s: the quadratic model cannot be refitted: %s", path, local->message);
	return FALSE;
}

static gboolean residuals(Report *r, ReportSection *s, const char *prefix, const struct study *st,
			  GError **error)
{
	g_autofree char *path = g_build_filename(st->dir, "design.csv", NULL);
	g_autoptr(ReportCsv) csv = report_csv_read(path, error);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	GError *local = NULL;

	if (!csv)
		return FALSE;
	g_ptr_array_add(names, g_strdup("run"));
	for (guint j = 0; j < st->k; j++)
		g_ptr_array_add(names, g_strdup_printf("x%u", j + 1));
	g_ptr_array_add(names, g_strdup("response_t"));

	guint n = csv->rows->len, w = st->k + 2;
	g_autofree double *v =
		report_csv_numbers(csv, (const char *const *)names->pdata, w, FALSE, error);

	if (!v)
		return FALSE;

	g_autofree double *coded = g_new(double, (gsize)n * st->k);
	g_autofree double *y = g_new(double, n);
	g_autofree double *order = g_new(double, n);
	g_autofree double *fitted = g_new(double, n);
	g_autofree double *resid = g_new(double, n);

	for (guint i = 0; i < n; i++) {
		order[i] = v[(gsize)i * w];
		memcpy(coded + (gsize)i * st->k, v + (gsize)i * w + 1, sizeof(double) * st->k);
		y[i] = v[(gsize)i * w + w - 1];
	}

	g_autoptr(RsmFit) fit = rsm_model_fit(st->k, n, coded, y, NULL, &local);

	if (!fit) {
		model_error(error, path, local);
		g_error_free(local);
		return FALSE;
	}

	/* Internally studentized residuals when the model has an error estimate and no run has
	 * leverage 1; else the raw residuals of the modelled response. */
	gboolean studentized = fit->error_estimated;

	for (guint i = 0; i < n; i++)
		studentized = studentized && fit->leverage[i] < 1 - 1e-10;
	for (guint i = 0; i < n; i++) {
		fitted[i] = boxcox_power_inverse(fit->fitted[i], st->lambda);
		resid[i] = studentized ? fit->residuals[i] /
						 sqrt(fit->ms_residual * (1 - fit->leverage[i]))
				       : fit->residuals[i];
	}

	g_autofree char *fitted_name =
		st->lambda == 1 ? g_strdup_printf("fitted %s (%s)", st->response, st->unit)
				: g_strdup_printf("fitted %s, transformed back from y^%g (%s)",
						  st->response, st->lambda, st->unit);
	g_autofree char *residual_name =
		studentized ? g_strdup("internally studentized residual (standard deviations)")
		: st->lambda == 1 ? g_strdup_printf("residual (%s)", st->unit)
				  : g_strdup_printf("residual of y^%g ((%s)^%g)", st->lambda,
						    st->unit, st->lambda);
	g_autofree char *stem_prefix = g_strconcat(prefix, "rsm", NULL);
	ReportResiduals res = {
		.what = "Response surface",
		.fitted_name = fitted_name,
		.order_name = "run order (as simulated, randomised)",
		.residual_name = residual_name,
		.order = order,
		.fitted = fitted,
		.residual = resid,
		.n = n,
		.band = studentized ? 3 : NAN,
		.band_name = "±3",
	};

	return report_residuals(r, s, stem_prefix, &res, error);
}

/* ---- Box-Cox --------------------------------------------------------------------------------- */

static char *interval_text(const struct study *st, double lo, double hi)
{
	const JsonReadValue *lo_open = json_read_path(st->json, "boxcox.ci_lo_open");
	const JsonReadValue *hi_open = json_read_path(st->json, "boxcox.ci_hi_open");
	gboolean lo_end = lo_open && lo_open->type == JSON_READ_BOOL && lo_open->boolean;
	gboolean hi_end = hi_open && hi_open->type == JSON_READ_BOOL && hi_open->boolean;

	return g_strdup_printf("[%.4g%s, %.4g%s]", lo, lo_end ? " (grid end)" : "", hi,
			       hi_end ? " (grid end)" : "");
}

static gboolean boxcox(Report *r, ReportSection *s, const char *prefix, const struct study *st,
		       GError **error)
{
	static const char *const columns[] = { "lambda", "loglik", "inside" };
	g_autofree char *path = g_build_filename(st->dir, "boxcox.csv", NULL);
	static const ReportCsvColumn schema[] = {
		{ .name = "lambda", .kind = REPORT_CSV_FINITE, .allow_empty = TRUE },
		{ .name = "loglik", .kind = REPORT_CSV_FINITE, .allow_empty = TRUE },
		{ .name = "inside", .kind = REPORT_CSV_FLAG, .allow_empty = TRUE },
	};
	g_autoptr(ReportCsv) csv = report_csv_read(path, error);
	g_autofree double *v = csv && report_csv_check(csv, schema, G_N_ELEMENTS(schema), error)
				       ? report_csv_numbers(csv, columns, 3, TRUE, error)
				       : NULL;
	double lhat, lo, hi, lmax = -INFINITY;

	if (!v || !json_number(st, "boxcox.lambda_hat", &lhat, error) ||
	    !json_number(st, "boxcox.ci_lo", &lo, error) ||
	    !json_number(st, "boxcox.ci_hi", &hi, error))
		return FALSE;

	g_autoptr(GString) data = g_string_new("# Box-Cox profile: lambda loglik inside\n");

	for (guint i = 0; i < csv->rows->len; i++) {
		const double *p = v + (gsize)i * 3;

		if (isnan(p[0])) {
			g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
				    "%s:%u: column 'lambda' is empty", path,
				    g_array_index(csv->lines, guint, i));
			return FALSE;
		}
		if (p[1] > lmax)
			lmax = p[1];
		g_string_append_printf(data, "%.10g", p[0]);
		report_data_number(data, p[1]);
		g_string_append_printf(data, " %.0f\n", isnan(p[2]) ? 0 : p[2]);
	}
	if (!isfinite(lmax)) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s: no log-likelihood values",
			    path);
		return FALSE;
	}

	double cut = lmax - gsl_cdf_chisq_Pinv(0.95, 1) / 2;
	g_autofree char *name = g_strconcat(prefix, "rsm-boxcox.dat", NULL);
	g_autofree char *stem = g_strconcat(prefix, "rsm-boxcox", NULL);
	g_autofree char *interval = interval_text(st, lo, hi);
	const char *decision = json_read_string(st->json, "boxcox.decision");
	g_autofree char *caption = g_strdup_printf(
		"Profile log-likelihood of the quadratic model over the power λ; λ̂ = %.4g, 95%% interval %s "
		"(log-likelihood within %.4g of its maximum). Transform %s; the model used y^%g.",
		lhat, interval, gsl_cdf_chisq_Pinv(0.95, 1) / 2,
		decision ? decision : "decision unknown", st->lambda);
	g_autoptr(GString) vars = g_string_new(NULL);

	if (!report_write_data(r, name, data->str, error))
		return FALSE;
	report_var_number(vars, "lhat", lhat);
	report_var_number(vars, "lo", lo);
	report_var_number(vars, "hi", hi);
	report_var_number(vars, "cut", cut);
	report_var_number(vars, "used", st->lambda);
	report_var_string(vars, "interval", interval);
	return report_plot(r, s, "boxcox.gp", name, stem, "Box-Cox profile log-likelihood", caption,
			   vars, error);
}

/* ---- the section ----------------------------------------------------------------------------- */

static void optimum_row(ReportSection *s, const struct study *st)
{
	g_autoptr(GString) at = g_string_new(NULL);
	double lo, hi;

	for (guint j = 0; j < st->k; j++) {
		g_autofree char *v = value_text(&st->f[j], st->f[j].opt);

		g_string_append_printf(at, "%s%s = %s", j ? ", " : "", st->f[j].name, v);
	}
	if (json_read_number(st->json, "optimum.ci_lo", &lo) &&
	    json_read_number(st->json, "optimum.ci_hi", &hi))
		report_row(s, "constrained optimum",
			   "%s: predicted %.6g (95%% confidence interval %.6g to %.6g; %s)",
			   at->str, st->opt_y, lo, hi, st->unit);
	else
		report_row(s, "constrained optimum", "%s: predicted %.6g (%s)", at->str, st->opt_y,
			   st->unit);
}

static void section_rows(ReportSection *s, const struct study *st)
{
	const char *design = json_read_string(st->json, "design.name");
	const char *decision = json_read_string(st->json, "boxcox.decision");
	const char *kind = json_read_string(st->json, "canonical.kind");
	const char *lof = json_read_string(st->json, "lack_of_fit");
	double runs, r2, adj, pred, best, def, imp;

	if (design && json_read_number(st->json, "design.runs", &runs))
		report_row(s, "design", "%s, %.0f runs, %u factors", design, runs, st->k);
	report_row(s, "response", "y^%g%s%s%s", st->lambda, decision ? " (Box-Cox: " : "",
		   decision ? decision : "", decision ? ")" : "");
	if (json_read_number(st->json, "r2", &r2) && json_read_number(st->json, "adj_r2", &adj) &&
	    json_read_number(st->json, "pred_r2", &pred))
		report_row(s, "R², adjusted, predicted", "%.4f, %.4f, %.4f", r2, adj, pred);
	if (lof)
		report_row(s, "lack of fit", "%s", lof);
	if (kind)
		report_row(s, "stationary point", "%s", kind);
	optimum_row(s, st);
	if (json_read_number(st->json, "best.value", &best) &&
	    json_read_number(st->json, "default.value", &def) &&
	    json_read_number(st->json, "improvement_pct", &imp))
		report_row(s, "confirmation",
			   "optimum simulated %.6g, default knobs %.6g (%s): %.2f%% improvement",
			   best, def, st->unit, imp);
}

gboolean report_rsm(Report *r, const char *dir, const char *prefix, GError **error)
{
	struct study st = { .dir = dir };
	g_autofree char *boxcox_path = g_build_filename(dir, "boxcox.csv", NULL);
	gboolean ok = read_study(&st, error);

	if (ok) {
		const char *command = json_read_string(st.json, "command");
		g_autofree char *heading =
			g_strdup_printf("Response surface (tuner %s)", command ? command : "rsm");
		ReportSection *s = report_section(r, heading, dir);

		section_rows(s, &st);
		ok = surfaces(r, s, prefix, &st, error) && residuals(r, s, prefix, &st, error) &&
		     (!g_file_test(boxcox_path, G_FILE_TEST_EXISTS) ||
		      boxcox(r, s, prefix, &st, error));
	}
	study_clear(&st);
	return ok;
}
