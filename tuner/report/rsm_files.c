/*
 * rsm_files.c - design.csv, anova.csv, surface.csv, boxcox.csv and the study's JSON (see
 * rsm_files.h).
 */
#include "tuner/report/rsm_files.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(rsm-files-error-quark, rsm_files_error)
/* clang-format on */

/* ---- fields --------------------------------------------------------------------------------- */

/* ",v": exact, or empty when NaN. */
static void field(GString *row, double v)
{
	if (isnan(v))
		g_string_append_c(row, ',');
	else
		g_string_append_printf(row, ",%.17g", v);
}

static void field_natural(GString *row, const RsmStudyFactor *f, double v)
{
	if (f->integer && fabs(v) < 1e15)
		g_string_append_printf(row, ",%.0f", round(v) + 0.0); /* + 0.0: never "-0" */
	else
		field(row, v);
}

/* -0 prints as "-0"; a coded level of zero is just 0. */
static double no_negative_zero(double v)
{
	return v == 0 ? 0.0 : v;
}

static void coded_header(GString *out, guint k)
{
	for (guint j = 0; j < k; j++)
		g_string_append_printf(out, ",x%u", j + 1);
}

static void natural_header(GString *out, const RsmStudyFactor *factors, guint k)
{
	for (guint j = 0; j < k; j++)
		g_string_append_printf(out, ",%s", factors[j].column);
}

/* ---- CSV ------------------------------------------------------------------------------------ */

char *rsm_files_design_csv(const RsmStudyFiles *f)
{
	const RsmDesign *d = f->design;
	guint k = d->k;
	GString *out = g_string_new("run");

	coded_header(out, k);
	natural_header(out, f->factors, k);
	g_string_append(out, ",response,response_t");
	if (f->extra_header)
		g_string_append(out, f->extra_header);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < d->n_runs; i++) {
		const double *x = rsm_design_run(d, i);

		g_string_append_printf(out, "%u", i + 1);
		for (guint j = 0; j < k; j++)
			field(out, no_negative_zero(x[j]));
		for (guint j = 0; j < k; j++)
			field_natural(out, &f->factors[j], f->natural[(gsize)i * k + j]);
		field(out, f->study->y[i]);
		field(out, f->study->y_t[i]);
		if (f->extra)
			f->extra(out, i, f->extra_ctx);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

/* Full names of the factors, for term names in files. */
static void full_names(const RsmStudyFiles *f, const char **names)
{
	for (guint j = 0; j < f->design->k; j++)
		names[j] = f->factors[j].name;
}

/* Name of an ANOVA row with full factor names (owned). */
static char *row_name(const RsmStudyFiles *f, const RsmAnovaRow *r)
{
	const char *names[RSM_MODEL_MAX_FACTORS];

	if (r->source != RSM_SOURCE_TERM)
		return g_strdup(r->name);
	full_names(f, names);
	return rsm_term_name(f->study->k, r->term, names);
}

char *rsm_files_anova_csv(const RsmStudyFiles *f)
{
	const RsmFit *fit = f->study->fit;
	GString *out = g_string_new("source,df,ss,ms,f,p\n");

	for (guint i = 0; i < fit->n_anova; i++) {
		const RsmAnovaRow *r = &fit->anova[i];
		g_autofree char *name = row_name(f, r);

		g_string_append_printf(out, "%s,%u", name, r->df);
		field(out, r->ss);
		field(out, r->df ? r->ms : NAN);
		field(out, r->tested ? r->f : NAN);
		field(out, r->tested ? r->p : NAN);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

/* The names of the factors other than a and b, joined by '+'. */
static char *fixed_names(const RsmStudyFiles *f, guint a, guint b)
{
	GString *s = g_string_new(NULL);

	for (guint j = 0; j < f->design->k; j++)
		if (j != a && j != b)
			g_string_append_printf(s, "%s%s", s->len ? "+" : "", f->factors[j].name);
	return g_string_free(s, FALSE);
}

char *rsm_files_surface_csv(const RsmStudyFiles *f)
{
	const RsmStudy *s = f->study;
	guint k = s->k;
	GString *out = g_string_new("fixed");
	double x[RSM_MODEL_MAX_FACTORS];

	coded_header(out, k);
	natural_header(out, f->factors, k);
	g_string_append(out, ",predicted,predicted_t\n");
	for (guint a = 0; a < k; a++)
		for (guint b = a + 1; b < k; b++) {
			g_autofree char *fixed = fixed_names(f, a, b);

			memcpy(x, s->optimum->x, sizeof(double) * k);
			for (guint jb = 0; jb < RSM_STUDY_SURFACE_POINTS; jb++)
				for (guint ja = 0; ja < RSM_STUDY_SURFACE_POINTS; ja++) {
					double z;

					/* Exact grid levels: i/10 - 1 rather than a sum of 0.1 steps. */
					x[a] = (2.0 * ja - (RSM_STUDY_SURFACE_POINTS - 1)) /
					       (RSM_STUDY_SURFACE_POINTS - 1);
					x[b] = (2.0 * jb - (RSM_STUDY_SURFACE_POINTS - 1)) /
					       (RSM_STUDY_SURFACE_POINTS - 1);
					g_string_append(out, fixed);
					for (guint j = 0; j < k; j++)
						field(out, no_negative_zero(x[j]));
					for (guint j = 0; j < k; j++)
						field_natural(
							out, &f->factors[j],
							rsm_study_to_natural(&f->factors[j], x[j]));
					z = rsm_fit_value(s->fit, x);
					field(out, rsm_study_untransform(s, z));
					field(out, z);
					g_string_append_c(out, '\n');
				}
		}
	return g_string_free(out, FALSE);
}

char *rsm_files_boxcox_csv(const RsmStudyFiles *f)
{
	const BoxcoxProfile *b = f->study->boxcox;

	if (!b)
		return NULL;

	GString *out = g_string_new("lambda,loglik,inside\n");

	for (guint i = 0; i < b->n_grid; i++) {
		g_string_append_printf(out, "%.17g", b->lambda[i]);
		field(out, b->loglik[i]);
		g_string_append_printf(out, ",%d\n",
				       b->lambda[i] >= b->ci_lo && b->lambda[i] <= b->ci_hi);
	}
	return g_string_free(out, FALSE);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static const char *decision_name(RsmTransformDecision d)
{
	switch (d) {
	case RSM_TRANSFORM_NOT_NEEDED:
		return "not needed: 1 is inside the interval";
	case RSM_TRANSFORM_NEEDED:
		return "applied: 1 is outside the interval";
	case RSM_TRANSFORM_UNAVAILABLE:
		return "not available: no profile";
	case RSM_TRANSFORM_REFUSED:
		return "refused: --lambda none";
	case RSM_TRANSFORM_FORCED:
		return "forced: --lambda VALUE";
	}
	return "unknown";
}

static void json_doubles(struct json_writer *w, const double *v, guint n)
{
	json_begin_array(w);
	for (guint i = 0; i < n; i++)
		json_double(w, no_negative_zero(v[i]));
	json_end_array(w);
}

/* {column: natural} of a coded point. */
static void json_natural_of(struct json_writer *w, const RsmStudyFiles *f, const double *x)
{
	json_begin_object(w);
	for (guint j = 0; j < f->design->k; j++) {
		double v = rsm_study_to_natural(&f->factors[j], x[j]);

		json_key(w, f->factors[j].column);
		json_double(w, f->factors[j].integer && fabs(v) < 1e15 ? round(v) + 0.0 : v);
	}
	json_end_object(w);
}

static void json_factors(struct json_writer *w, const RsmStudyFiles *f)
{
	json_key(w, "factors");
	json_begin_array(w);
	for (guint j = 0; j < f->design->k; j++) {
		const RsmStudyFactor *fa = &f->factors[j];

		json_begin_object(w);
		json_key(w, "letter");
		json_string(w, fa->letter);
		json_key(w, "name");
		json_string(w, fa->name);
		json_key(w, "column");
		json_string(w, fa->column);
		json_key(w, "lo");
		json_double(w, rsm_study_factor_lo(fa));
		json_key(w, "hi");
		json_double(w, rsm_study_factor_hi(fa));
		json_key(w, "scale");
		json_string(w, fa->range.scale == RSM_SCALE_LOG ? "log" : "linear");
		json_key(w, "offset");
		json_double(w, fa->offset);
		json_end_object(w);
	}
	json_end_array(w);
}

static void json_design(struct json_writer *w, const RsmStudyFiles *f)
{
	const RsmDesign *d = f->design;
	guint centres = 0;

	for (guint i = 0; i < d->n_runs; i++)
		centres += d->type[i] == RSM_POINT_CENTRE;
	json_key(w, "design");
	json_begin_object(w);
	json_key(w, "name");
	json_string(w, f->design_name);
	json_key(w, "runs");
	json_uint(w, d->n_runs);
	json_key(w, "alpha");
	json_double(w, d->alpha);
	json_key(w, "centre_points");
	json_uint(w, centres);
	json_key(w, "points");
	json_begin_array(w);
	for (guint i = 0; i < d->n_runs; i++) {
		json_begin_object(w);
		json_key(w, "run");
		json_uint(w, i + 1);
		json_key(w, "std_order");
		json_uint(w, d->std_order[i] + 1);
		json_key(w, "type");
		json_string(w, rsm_study_point_name(d->type[i]));
		json_key(w, "coded");
		json_doubles(w, rsm_design_run(d, i), d->k);
		json_key(w, "natural");
		json_begin_object(w);
		for (guint j = 0; j < d->k; j++) {
			json_key(w, f->factors[j].column);
			json_double(w, f->natural[(gsize)i * d->k + j]);
		}
		json_end_object(w);
		json_key(w, "response");
		json_double(w, f->study->y[i]);
		json_key(w, "response_t");
		json_double(w, f->study->y_t[i]);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void json_row(struct json_writer *w, const char *name, const RsmAnovaRow *r)
{
	json_begin_object(w);
	json_key(w, "source");
	json_string(w, name);
	json_key(w, "df");
	json_uint(w, r->df);
	json_key(w, "ss");
	json_double(w, r->ss);
	json_key(w, "ms");
	json_double(w, r->df ? r->ms : NAN);
	json_key(w, "f");
	json_double(w, r->tested ? r->f : NAN);
	json_key(w, "p");
	json_double(w, r->tested ? r->p : NAN);
	json_end_object(w);
}

static void json_model(struct json_writer *w, const RsmStudyFiles *f)
{
	const RsmFit *fit = f->study->fit;
	const char *names[RSM_MODEL_MAX_FACTORS];

	full_names(f, names);
	json_key(w, "coefficients");
	json_begin_object(w);
	for (guint t = 0; t < fit->n_terms; t++) {
		g_autofree char *name = rsm_term_name(fit->k, t, names);

		json_key(w, name);
		json_double(w, fit->coef[t].estimate);
	}
	json_end_object(w);

	json_key(w, "coefficient_table");
	json_begin_array(w);
	for (guint t = 0; t < fit->n_terms; t++) {
		g_autofree char *name = rsm_term_name(fit->k, t, names);

		json_begin_object(w);
		json_key(w, "term");
		json_string(w, name);
		json_key(w, "estimate");
		json_double(w, fit->coef[t].estimate);
		json_key(w, "std_error");
		json_double(w, fit->coef[t].std_error);
		json_key(w, "t");
		json_double(w, fit->coef[t].t);
		json_key(w, "p");
		json_double(w, fit->coef[t].p);
		json_end_object(w);
	}
	json_end_array(w);

	json_key(w, "anova");
	json_begin_array(w);
	for (guint i = 0; i < fit->n_anova; i++) {
		g_autofree char *name = row_name(f, &fit->anova[i]);

		json_row(w, name, &fit->anova[i]);
	}
	json_end_array(w);
	json_key(w, "sequential");
	json_begin_array(w);
	for (guint i = 0; i < RSM_SEQUENTIAL_ROWS; i++)
		json_row(w, fit->sequential[i].name, &fit->sequential[i]);
	json_end_array(w);
	json_key(w, "lack_of_fit");
	json_string(w, rsm_lack_of_fit_status_string(fit->lack_of_fit));

	const struct {
		const char *key;
		double v;
	} stats[] = {
		{ "r2", fit->stats.r2 },
		{ "adj_r2", fit->stats.adj_r2 },
		{ "pred_r2", fit->stats.pred_r2 },
		{ "adeq_precision", fit->stats.adeq_precision },
		{ "std_dev", fit->stats.std_dev },
		{ "mean", fit->stats.mean },
		{ "cv_percent", fit->stats.cv_percent },
		{ "press", fit->stats.press },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(stats); i++) {
		json_key(w, stats[i].key);
		json_double(w, stats[i].v);
	}
}

static void json_boxcox(struct json_writer *w, const RsmStudy *s)
{
	const BoxcoxProfile *b = s->boxcox;

	json_key(w, "lambda");
	json_double(w, s->lambda);
	json_key(w, "boxcox");
	json_begin_object(w);
	json_key(w, "lambda_hat");
	json_double(w, b ? b->lambda_hat : NAN);
	json_key(w, "ci_lo");
	json_double(w, b ? b->ci_lo : NAN);
	json_key(w, "ci_hi");
	json_double(w, b ? b->ci_hi : NAN);
	json_key(w, "ci_lo_open");
	json_bool(w, b && b->ci_lo_open);
	json_key(w, "ci_hi_open");
	json_bool(w, b && b->ci_hi_open);
	json_key(w, "transformed");
	json_bool(w, s->transformed);
	json_key(w, "decision");
	json_string(w, decision_name(s->decision));
	json_key(w, "error");
	if (s->boxcox_error)
		json_string(w, s->boxcox_error);
	else
		json_null(w);
	json_end_object(w);
}

static void json_eigen(struct json_writer *w, const RsmCanonical *c)
{
	json_key(w, "eigenvalues");
	json_doubles(w, c->eigenvalues, c->k);
	json_key(w, "eigenvectors");
	json_begin_array(w);
	for (guint r = 0; r < c->k; r++)
		json_doubles(w, c->eigenvectors + (gsize)r * c->k, c->k);
	json_end_array(w);
}

static void json_optimum(struct json_writer *w, const RsmStudyFiles *f)
{
	const RsmStudy *s = f->study;
	const RsmCanonical *c = s->canonical;

	json_key(w, "canonical");
	json_begin_object(w);
	json_eigen(w, c);
	json_key(w, "kind");
	json_string(w, rsm_study_kind(s));
	json_end_object(w);

	json_key(w, "stationary_point");
	if (!c->has_stationary_point) {
		json_null(w);
	} else {
		json_begin_object(w);
		json_key(w, "coded");
		json_doubles(w, c->x_s, c->k);
		json_key(w, "natural");
		json_natural_of(w, f, c->x_s);
		json_key(w, "predicted");
		json_double(w, s->stationary_y);
		json_key(w, "kind");
		json_string(w, rsm_study_kind(s));
		json_key(w, "inside");
		json_bool(w, c->inside);
		json_key(w, "distance");
		json_double(w, c->distance);
		json_eigen(w, c);
		json_end_object(w);
	}

	const RsmOptimum *o = s->optimum;

	json_key(w, "optimum");
	json_begin_object(w);
	json_key(w, "coded");
	json_doubles(w, o->x, o->k);
	json_key(w, "natural");
	json_natural_of(w, f, o->x);
	json_key(w, "predicted");
	json_double(w, s->optimum_y.value);
	json_key(w, "ci_lo");
	json_double(w, s->optimum_y.lo);
	json_key(w, "ci_hi");
	json_double(w, s->optimum_y.hi);
	json_key(w, "pi_lo");
	json_double(w, s->optimum_pi_lo);
	json_key(w, "pi_hi");
	json_double(w, s->optimum_pi_hi);
	json_key(w, "on_boundary");
	json_bool(w, o->on_boundary);
	json_end_object(w);
}

void rsm_files_json_study(struct json_writer *w, const RsmStudyFiles *f)
{
	json_factors(w, f);
	json_design(w, f);
	json_model(w, f);
	json_boxcox(w, f->study);
	json_optimum(w, f);
}

/* ---- reading design.csv --------------------------------------------------------------------- */

static gboolean parse_error(GError **error, const char *path, guint line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static gboolean parse_error(GError **error, const char *path, guint line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, RSM_FILES_ERROR, RSM_FILES_ERROR_PARSE, "%s:%u: %s", path, line, msg);
	return FALSE;
}

static gboolean parse_number(const char *text, double *out)
{
	char *end;

	errno = 0;
	*out = g_ascii_strtod(text, &end);
	return errno == 0 && end != text && *end == '\0' && isfinite(*out);
}

/* Where the columns the reader needs are: coded[j], natural[j] (-1: absent), response. */
struct columns {
	int coded[RSM_MODEL_MAX_FACTORS];
	int natural[RSM_MODEL_MAX_FACTORS];
	int response;
	int run;   /* -1: no run column (a hand-made file); rows are then named by line */
	int round; /* -1: no round column (a design run once) */
	guint n;
};

static gboolean read_header(const char *path, guint line, char **cells,
			    const RsmStudyFactor *factors, guint k, struct columns *c,
			    GError **error)
{
	c->n = g_strv_length(cells);
	c->response = c->run = c->round = -1;
	for (guint j = 0; j < k; j++)
		c->coded[j] = c->natural[j] = -1;
	for (guint i = 0; i < c->n; i++) {
		const char *name = g_strstrip(cells[i]);

		if (strcmp(name, "response") == 0)
			c->response = (int)i;
		if (strcmp(name, "run") == 0)
			c->run = (int)i;
		if (strcmp(name, "round") == 0)
			c->round = (int)i;
		for (guint j = 0; j < k; j++) {
			g_autofree char *x = g_strdup_printf("x%u", j + 1);

			if (strcmp(name, x) == 0)
				c->coded[j] = (int)i;
			if (strcmp(name, factors[j].column) == 0)
				c->natural[j] = (int)i;
		}
	}
	for (guint j = 0; j < k; j++)
		if (c->coded[j] < 0)
			return parse_error(error, path, line, "the header has no column x%u",
					   j + 1);
	if (c->response < 0)
		return parse_error(error, path, line, "the header has no column response");
	return TRUE;
}

/* The natural value must be what the coded level maps to: the ranges are the ones of the run. */
static gboolean check_natural(const char *path, guint line, const RsmStudyFactor *f, guint j,
			      double coded, double natural, GError **error)
{
	double expected = rsm_study_to_natural(f, coded);
	double tol = f->integer ? 0.5 + 1e-9 * fabs(expected) : 1e-9 * fmax(1, fabs(expected));

	if (fabs(natural - expected) <= tol)
		return TRUE;
	return parse_error(
		error, path, line,
		"%s is %.17g, but x%u = %g maps to %.17g under the ranges given; pass the --range and --log "
		"flags of the run that wrote the file",
		f->column, natural, j + 1, coded, expected);
}

/* What the rows were: their run numbers (or 0 without a run column), rounds (0 without a round
 * column) and lines. */
struct rows {
	GArray *run;   /* guint */
	GArray *round; /* guint */
	GArray *line;  /* guint */
};

static gboolean read_row(const char *path, guint line, char **cells, const RsmStudyFactor *factors,
			 guint k, const struct columns *c, GArray *coded, GArray *y,
			 struct rows *rows, GError **error)
{
	double v;
	guint run = 0;

	if (g_strv_length(cells) != c->n)
		return parse_error(error, path, line, "%u fields, the header has %u",
				   g_strv_length(cells), c->n);
	if (c->run >= 0) {
		const char *text = g_strstrip(cells[c->run]);

		if (!parse_number(text, &v) || v < 1 || v != floor(v) || v > G_MAXUINT)
			return parse_error(error, path, line,
					   "run: '%s' is not a run number (1, 2, ...)", text);
		run = (guint)v;
	}
	g_array_append_val(rows->run, run);

	guint round = 0;

	if (c->round >= 0) {
		const char *text = g_strstrip(cells[c->round]);

		if (!parse_number(text, &v) || v < 0 || v != floor(v) || v > G_MAXUINT)
			return parse_error(error, path, line,
					   "round: '%s' is not a round number (0, 1, ...)", text);
		round = (guint)v;
	}
	g_array_append_val(rows->round, round);
	g_array_append_val(rows->line, line);
	for (guint j = 0; j < k; j++) {
		const char *text = g_strstrip(cells[c->coded[j]]);

		if (!parse_number(text, &v))
			return parse_error(error, path, line, "x%u: '%s' is not a number", j + 1,
					   text);
		g_array_append_val(coded, v);
		if (c->natural[j] >= 0) {
			double nat;
			const char *nt = g_strstrip(cells[c->natural[j]]);

			if (!parse_number(nt, &nat))
				return parse_error(error, path, line, "%s: '%s' is not a number",
						   factors[j].column, nt);
			if (!check_natural(path, line, &factors[j], j, v, nat, error))
				return FALSE;
		}
	}

	const char *text = g_strstrip(cells[c->response]);

	if (!parse_number(text, &v))
		return parse_error(error, path, line, "response: '%s' is not a number", text);
	if (v <= 0)
		return parse_error(error, path, line, "response: %s is not a time > 0", text);
	g_array_append_val(y, v);
	return TRUE;
}

/* ---- the design's structure ---- */

static RsmPointType classify(const double *x, guint k)
{
	guint nonzero = 0, unit = 0;

	for (guint j = 0; j < k; j++) {
		nonzero += x[j] != 0;
		unit += fabs(x[j]) == 1;
	}
	if (nonzero == 0)
		return RSM_POINT_CENTRE;
	if (unit == k)
		return RSM_POINT_CUBE;
	if (nonzero == 1)
		return RSM_POINT_AXIAL;
	return RSM_POINT_EDGE;
}

/* "run 7" or, without run numbers, "line 9". */
static char *row_label(const struct rows *rows, guint i)
{
	guint run = g_array_index(rows->run, guint, i);

	return run ? g_strdup_printf("run %u", run)
		   : g_strdup_printf("line %u", g_array_index(rows->line, guint, i));
}

/* Run numbers: each once, and all of 1..n. */
static gboolean check_runs(const char *path, const struct rows *rows, GError **error)
{
	guint n = rows->run->len;

	if (n == 0 || g_array_index(rows->run, guint, 0) == 0)
		return TRUE;
	g_autofree guint *line_of = g_new0(guint, n + 1);
	guint max = 0;

	for (guint i = 0; i < n; i++) {
		guint run = g_array_index(rows->run, guint, i);
		guint line = g_array_index(rows->line, guint, i);

		max = MAX(max, run);
		if (run > n)
			continue;
		if (line_of[run])
			return parse_error(error, path, line,
					   "run %u again (line %u has it): a duplicated run", run,
					   line_of[run]);
		line_of[run] = line;
	}
	/* n distinct runs are 1..n, or some of 1..n are missing: line_of says which, in one pass
	 * (a run number near G_MAXUINT must not make a loop over every number below it). */
	g_autoptr(GString) missing = g_string_new(NULL);
	guint n_missing = 0;

	for (guint run = 1; run <= n; run++)
		if (!line_of[run] && n_missing++ < 10)
			g_string_append_printf(missing, "%s%u", missing->len ? ", " : "", run);
	if (n_missing == 0)
		return TRUE;
	g_set_error(error, RSM_FILES_ERROR, RSM_FILES_ERROR_PARSE,
		    "%s: run%s %s%s%s missing (runs go to %u, the file has %u): deleted runs", path,
		    n_missing == 1 ? "" : "s", missing->str, n_missing > 10 ? ", ..." : "",
		    n_missing == 1 ? " is" : " are", max, n);
	return FALSE;
}

/* Index of the row whose coded point is x, from row `from`, or -1. */
static int find_point(const double *coded, guint n, guint k, const double *x, guint from)
{
	for (guint i = from; i < n; i++)
		if (memcmp(coded + (gsize)i * k, x, sizeof(double) * k) == 0)
			return (int)i;
	return -1;
}

/* "(+1, -1, 0)" */
static char *point_text(const double *x, guint k)
{
	GString *s = g_string_new("(");

	for (guint j = 0; j < k; j++)
		g_string_append_printf(s, x[j] ? "%s%+g" : "%s0", j ? ", " : "", x[j]);
	g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

/* An error that the design lacks point x: it is incomplete, some runs deleted or cut off. */
static gboolean lacks(GError **error, const char *path, const char *what, const double *x, guint k)
{
	g_autofree char *p = point_text(x, k);

	g_set_error(error, RSM_FILES_ERROR, RSM_FILES_ERROR_PARSE,
		    "%s: the design is incomplete: its %s lack the point %s (deleted or truncated "
		    "runs; a design's runs must all be there)",
		    path, what, p);
	return FALSE;
}

/*
 * The points of a central composite or Box-Behnken design come in complete sets: if there is one
 * cube point there are all 2^k, one axial point on factor j means both (+-alpha on j), one edge
 * point of factors (a, b) means all four (+-1, +-1). And only centre points repeat. A file missing
 * any of these lost runs (deleted, or cut off at the end); a repeated point was duplicated.
 */
static gboolean check_structure(const char *path, const double *coded, guint n, guint k,
				const struct rows *rows, GError **error)
{
	gboolean any_cube = FALSE, any_axial[RSM_MODEL_MAX_FACTORS] = { FALSE };
	gboolean any_edge[RSM_MODEL_MAX_FACTORS][RSM_MODEL_MAX_FACTORS] = { { FALSE } };
	double x[RSM_MODEL_MAX_FACTORS];

	for (guint i = 0; i < n; i++) {
		const double *p = coded + (gsize)i * k;
		RsmPointType type = classify(p, k);
		int again = type == RSM_POINT_CENTRE ? -1 : find_point(coded, n, k, p, i + 1);

		if (again >= 0) {
			g_autofree char *first = row_label(rows, i);
			g_autofree char *second = row_label(rows, (guint)again);
			g_autofree char *pt = point_text(p, k);

			return parse_error(error, path,
					   g_array_index(rows->line, guint, (guint)again),
					   "%s repeats the point %s of %s: a duplicated run (only "
					   "centre points repeat)",
					   second, pt, first);
		}
		any_cube |= type == RSM_POINT_CUBE;
		for (guint a = 0; a < k; a++) {
			if (type == RSM_POINT_AXIAL && p[a] != 0)
				any_axial[a] = TRUE;
			for (guint b = a + 1; b < k; b++)
				if (type == RSM_POINT_EDGE && p[a] != 0 && p[b] != 0)
					any_edge[a][b] = TRUE;
		}
	}
	for (guint c = 0; any_cube && c < (1u << k); c++) {
		for (guint j = 0; j < k; j++)
			x[j] = c & (1u << j) ? 1 : -1;
		if (find_point(coded, n, k, x, 0) < 0)
			return lacks(error, path, "cube points", x, k);
	}
	for (guint a = 0; a < k; a++) {
		for (int sign = -1; any_axial[a] && sign <= 1; sign += 2) {
			double level = -1;

			/* The axial distance is the design's: what the others of factor a have. */
			for (guint i = 0; i < n; i++) {
				const double *p = coded + (gsize)i * k;

				if (classify(p, k) == RSM_POINT_AXIAL && p[a] != 0)
					level = fabs(p[a]);
			}
			for (guint j = 0; j < k; j++)
				x[j] = j == a ? sign * level : 0;
			if (find_point(coded, n, k, x, 0) < 0)
				return lacks(error, path, "axial points", x, k);
		}
		for (guint b = a + 1; b < k; b++)
			for (guint c = 0; any_edge[a][b] && c < 4; c++) {
				for (guint j = 0; j < k; j++)
					x[j] = 0;
				x[a] = c & 1 ? 1 : -1;
				x[b] = c & 2 ? 1 : -1;
				if (find_point(coded, n, k, x, 0) < 0)
					return lacks(error, path, "edge points", x, k);
			}
	}
	return TRUE;
}

static int compare_points(const void *a, const void *b, void *k)
{
	const double *x = a, *y = b;

	for (guint j = 0; j < GPOINTER_TO_UINT(k); j++)
		if (x[j] != y[j])
			return x[j] < y[j] ? -1 : 1;
	return 0;
}

/*
 * A design replicated in rounds (a `round` column, as `tuner rsm --objective vm` writes): each
 * round must be a whole design by itself, and every round the same design as the first.
 */
static gboolean check_rounds(const char *path, const double *coded, guint n, guint k,
			     const struct rows *rows, GError **error)
{
	g_autoptr(GArray) first = NULL;
	g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	guint first_round = 0;

	for (guint i = 0; i < n; i++) {
		guint round = g_array_index(rows->round, guint, i);

		if (g_hash_table_contains(seen, GUINT_TO_POINTER(round + 1)))
			continue;
		g_hash_table_add(seen, GUINT_TO_POINTER(round + 1));

		g_autoptr(GArray) points = g_array_new(FALSE, FALSE, sizeof(double));
		g_autoptr(GArray) run = g_array_new(FALSE, FALSE, sizeof(guint));
		g_autoptr(GArray) line = g_array_new(FALSE, FALSE, sizeof(guint));
		struct rows subset = { run, NULL, line };

		for (guint j = i; j < n; j++) {
			if (g_array_index(rows->round, guint, j) != round)
				continue;
			g_array_append_vals(points, coded + (gsize)j * k, k);
			g_array_append_val(run, g_array_index(rows->run, guint, j));
			g_array_append_val(line, g_array_index(rows->line, guint, j));
		}
		if (!check_structure(path, (const double *)(void *)points->data, run->len, k,
				     &subset, error)) {
			g_prefix_error(error, "round %u: ", round);
			return FALSE;
		}
		g_qsort_with_data(points->data, (gint)run->len, sizeof(double) * k, compare_points,
				  GUINT_TO_POINTER(k));
		if (!first) {
			first = g_steal_pointer(&points);
			first_round = round;
		} else if (points->len != first->len ||
			   memcmp(points->data, first->data, sizeof(double) * first->len) != 0) {
			g_set_error(error, RSM_FILES_ERROR, RSM_FILES_ERROR_PARSE,
				    "%s: round %u is not the design of round %u (every round runs "
				    "the same design)",
				    path, round, first_round);
			return FALSE;
		}
	}
	return TRUE;
}

static RsmDesign *design_from(GArray *coded, guint k)
{
	RsmDesign *d = g_new0(RsmDesign, 1);
	guint n = coded->len / k;

	d->k = k;
	d->n_runs = n;
	d->coded = g_memdup2(coded->data, sizeof(double) * coded->len);
	d->std_order = g_new(guint, n);
	d->type = g_new(RsmPointType, n);
	d->alpha = 0;
	for (guint i = 0; i < n; i++) {
		d->std_order[i] = i;
		d->type[i] = classify(d->coded + (gsize)i * k, k);
		for (guint j = 0; j < k; j++)
			d->alpha = fmax(d->alpha, fabs(d->coded[(gsize)i * k + j]));
	}
	return d;
}

RsmDesign *rsm_files_read_design(const char *path, const RsmStudyFactor *factors, guint k,
				 double **y, GError **error)
{
	g_autofree char *text = NULL;
	GError *local = NULL;

	if (!g_file_get_contents(path, &text, NULL, &local)) {
		g_set_error(error, RSM_FILES_ERROR, RSM_FILES_ERROR_IO, "%s", local->message);
		g_error_free(local);
		return NULL;
	}

	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autoptr(GArray) coded = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) ys = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) run = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GArray) round = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GArray) line = g_array_new(FALSE, FALSE, sizeof(guint));
	struct rows rows = { run, round, line };
	struct columns c;
	bool header = false;

	for (guint i = 0; lines[i]; i++) {
		g_strchomp(lines[i]); /* also a CR of CRLF files */
		if (lines[i][0] == '\0' || lines[i][0] == '#')
			continue;

		g_auto(GStrv) cells = g_strsplit(lines[i], ",", -1);

		if (!header) {
			if (!read_header(path, i + 1, cells, factors, k, &c, error))
				return NULL;
			header = true;
		} else if (!read_row(path, i + 1, cells, factors, k, &c, coded, ys, &rows, error)) {
			return NULL;
		}
	}
	if (!header) {
		g_set_error(error, RSM_FILES_ERROR, RSM_FILES_ERROR_PARSE, "%s: no header line",
			    path);
		return NULL;
	}
	if (!check_runs(path, &rows, error))
		return NULL;
	if (c.round >= 0
		    ? !check_rounds(path, (const double *)(void *)coded->data, ys->len, k, &rows,
				    error)
		    : !check_structure(path, (const double *)coded->data, ys->len, k, &rows, error))
		return NULL;
	*y = g_memdup2(ys->data, sizeof(double) * ys->len);
	return design_from(coded, k);
}
