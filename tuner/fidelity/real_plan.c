/*
 * real_plan.c - a real plan's runs, per setting (see real_plan.h).
 */
#include "tuner/fidelity/real_plan.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tuner/stats/median.h"

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(real-plan-error-quark, real_plan_error)
/* clang-format on */

/* The columns, by their names in the header. */
enum column {
	COL_BOOT,
	COL_ROUND,
	COL_SETTING,
	COL_LATENCY,
	COL_MIN_GRAN,
	COL_WAKEUP_GRAN,
	COL_MIGRATION,
	COL_SECONDS,
	COL_CTXT,
	COL_RC,
	COL_KNOBS,
	COL_STEAL,
	COL_STALL,
	COL_GUEST_PPM,
	COL_GUEST_NS,
	COL_GUEST_CV,
	COL_FLIPS,
	COL_FORK_FLIPS,
	COL_SHARED,
	COL_N
};

static const struct {
	const char *name;
	gboolean needed;
} columns[COL_N] = {
	[COL_BOOT] = { "boot", FALSE },
	[COL_ROUND] = { "round", TRUE },
	[COL_SETTING] = { "setting", TRUE },
	[COL_LATENCY] = { "latency_ns", TRUE },
	[COL_MIN_GRAN] = { "min_granularity_ns", TRUE },
	[COL_WAKEUP_GRAN] = { "wakeup_granularity_ns", TRUE },
	[COL_MIGRATION] = { "migration_cost_ns", FALSE },
	[COL_SECONDS] = { "seconds", TRUE },
	[COL_CTXT] = { "ctxt", TRUE },
	[COL_RC] = { "rc", TRUE },
	[COL_KNOBS] = { "knobs", FALSE },
	[COL_STEAL] = { "steal_ppm", FALSE },
	[COL_STALL] = { "stall_ns", FALSE },
	[COL_GUEST_PPM] = { "guest_stall_ppm", FALSE },
	[COL_GUEST_NS] = { "guest_stall_ns", FALSE },
	[COL_GUEST_CV] = { "guest_stall_cv_pct", FALSE },
	[COL_FLIPS] = { "parent_flips", FALSE },
	[COL_FORK_FLIPS] = { "fork_flips", FALSE },
	[COL_SHARED] = { "shared_pct", FALSE },
};

/* One run that counts. */
typedef struct {
	guint64 round; /* boot << 32 | round */
	guint setting;
	double seconds;
	gint64 ctxt;
	gint64 steal_ppm, stall_ns; /* -1: not measured */
	gint64 shared_pct;	    /* -1: not measured */
	RealStalls guest;
	gint64 parent_flips; /* -1: not measured */
	RealForks forks;     /* freed with the runs' array */
} Run;

static gboolean fail(GError **error, RealPlanError code, const char *path, guint line,
		     const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean fail(GError **error, RealPlanError code, const char *path, guint line,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line)
		g_set_error(error, REAL_PLAN_ERROR, code, "%s:%u: %s", path, line, msg);
	else
		g_set_error(error, REAL_PLAN_ERROR, code, "%s: %s", path, msg);
	return FALSE;
}

/* A setting of a plan of `rounds` rounds (its per-round arrays, once summarised). */
static void setting_clear(RealSetting *s, guint rounds)
{
	g_free(s->id);
	g_free(s->ratios);
	g_free(s->in_round);
	g_free(s->round_steal_ppm);
	g_free(s->round_stall_ns);
	g_free(s->round_shared_pct);
	g_free(s->round_guest);
	g_free(s->round_parent_flips);
	for (guint k = 0; s->round_forks && k < rounds; k++)
		g_free(s->round_forks[k].flips);
	g_free(s->round_forks);
}

void real_plan_free(RealPlan *plan)
{
	if (!plan)
		return;
	for (guint i = 0; plan->settings && i < plan->settings->len; i++)
		setting_clear(&g_array_index(plan->settings, RealSetting, i), plan->rounds);
	if (plan->settings)
		g_array_free(plan->settings, TRUE);
	g_free(plan->path);
	g_free(plan->reference);
	g_free(plan);
}

/* ---- parsing -------------------------------------------------------------------------------- */

static gboolean parse_uint(const char *path, guint line, const char *name, const char *text,
			   guint64 max, guint64 *out, GError **error)
{
	if (!g_ascii_string_to_unsigned(text, 10, 0, max, out, NULL))
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
			    "%s: '%s' is not a whole number", name, text);
	return TRUE;
}

/* A time: empty, "-" or "nan" when the run had none (the writers differ). */
static gboolean parse_seconds(const char *path, guint line, const char *text, double *out,
			      GError **error)
{
	char *end;

	if (!*text || strcmp(text, "-") == 0 || g_ascii_strcasecmp(text, "nan") == 0) {
		*out = NAN;
		return TRUE;
	}
	*out = g_ascii_strtod(text, &end);
	if (*end || !isfinite(*out) || *out < 0)
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
			    "seconds: '%s' is not a time in seconds", text);
	return TRUE;
}

/* A count of switches: empty, "-" or -1 when not measured. */
static gboolean parse_ctxt(const char *path, guint line, const char *text, gint64 *out,
			   GError **error)
{
	if (!*text || strcmp(text, "-") == 0 || strcmp(text, "-1") == 0) {
		*out = -1;
		return TRUE;
	}
	if (!g_ascii_string_to_signed(text, 10, 0, G_MAXINT64, out, NULL))
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
			    "ctxt: '%s' is not a count of context switches", text);
	return TRUE;
}

typedef struct {
	const char *path;
	int col[COL_N]; /* -1: absent */
	guint n_columns;
} Header;

static gboolean parse_header(char *line, Header *h, GError **error)
{
	g_auto(GStrv) names = g_strsplit(line, ",", -1);

	h->n_columns = g_strv_length(names);
	for (int c = 0; c < COL_N; c++)
		h->col[c] = -1;
	for (guint i = 0; i < h->n_columns; i++) {
		if (!*names[i])
			return fail(error, REAL_PLAN_ERROR_INPUT, h->path, 1,
				    "header: column %u has no name", i + 1);
		for (guint j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) == 0)
				return fail(error, REAL_PLAN_ERROR_INPUT, h->path, 1,
					    "header: '%s' appears twice", names[i]);
		for (int c = 0; c < COL_N; c++)
			if (strcmp(names[i], columns[c].name) == 0)
				h->col[c] = (int)i;
	}
	for (int c = 0; c < COL_N; c++)
		if (columns[c].needed && h->col[c] < 0)
			return fail(error, REAL_PLAN_ERROR_INPUT, h->path, 1, "no column '%s'",
				    columns[c].name);
	return TRUE;
}

/* What one row says. */
typedef struct {
	guint64 boot, round;
	const char *setting;
	Knobs knobs;
	gint64 migration;
	double seconds;
	gint64 ctxt;
	gint64 steal_ppm, stall_ns; /* -1: not measured */
	gint64 shared_pct;	    /* -1: not measured */
	RealStalls guest;
	gint64 parent_flips; /* -1: not measured */
	RealForks forks;     /* the caller's once parsed */
	gboolean counts;
} Row;

/* An optional measurement: empty or -1 is "not measured" (-1); else a whole number. */
static gboolean parse_measured(const char *path, guint line, const char *name, const char *text,
			       guint64 max, gint64 *out, GError **error)
{
	guint64 v;

	*out = -1;
	if (!*text || strcmp(text, "-1") == 0)
		return TRUE;
	if (!parse_uint(path, line, name, text, max, &v, error))
		return FALSE;
	*out = (gint64)v;
	return TRUE;
}

/* The three guest_stall columns: none of them, or all three, measured together. */
static gboolean parse_guest_stalls(const Header *h, char **f, guint line, RealStalls *g,
				   GError **error)
{
	const char *path = h->path;
	int have = (h->col[COL_GUEST_PPM] >= 0) + (h->col[COL_GUEST_NS] >= 0) +
		   (h->col[COL_GUEST_CV] >= 0);

	g->ppm = g->ns = g->cv_pct = -1;
	if (have == 0)
		return TRUE;
	if (have != 3)
		return fail(error, REAL_PLAN_ERROR_INPUT, path, 1,
			    "guest_stall_ppm, guest_stall_ns and guest_stall_cv_pct go together");
	if (!parse_measured(path, line, "guest_stall_ppm", f[h->col[COL_GUEST_PPM]], 999999,
			    &g->ppm, error) ||
	    !parse_measured(path, line, "guest_stall_ns", f[h->col[COL_GUEST_NS]], G_MAXINT64,
			    &g->ns, error) ||
	    !parse_measured(path, line, "guest_stall_cv_pct", f[h->col[COL_GUEST_CV]], 1000,
			    &g->cv_pct, error))
		return FALSE;
	if ((g->ppm < 0) != (g->ns < 0) || (g->ppm < 0) != (g->cv_pct < 0))
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
			    "guest_stall_ppm, guest_stall_ns and guest_stall_cv_pct: all three or "
			    "none");
	if (g->ppm >= 0 && (g->ns < 1 || g->cv_pct < 1))
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
			    "guest_stall_ns and guest_stall_cv_pct: at least 1");
	return TRUE;
}

/* The flips a run's children inherited, in fork order: empty, or whole numbers separated by ";". */
static gboolean parse_forks(const char *path, guint line, const char *text, RealForks *out,
			    GError **error)
{
	g_auto(GStrv) v = NULL;

	out->n = 0;
	out->flips = NULL;
	if (!*text)
		return TRUE;
	v = g_strsplit(text, ";", -1);
	out->n = g_strv_length(v);
	out->flips = g_new(guint, out->n);
	for (guint i = 0; i < out->n; i++) {
		guint64 x;

		if (!g_ascii_string_to_unsigned(v[i], 10, 0, G_MAXUINT32, &x, NULL)) {
			g_clear_pointer(&out->flips, g_free);
			out->n = 0;
			return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
				    "fork_flips: '%s' is not a whole number (item %u)", v[i],
				    i + 1);
		}
		out->flips[i] = (guint)x;
	}
	return TRUE;
}

static gboolean parse_row(const Header *h, char **f, guint line, Row *r, GError **error)
{
	const char *path = h->path;
	guint64 mig = 0;
	gint64 rc;

	memset(r, 0, sizeof(*r));
	r->setting = f[h->col[COL_SETTING]];
	if (!*r->setting)
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line, "setting: empty");
	if ((h->col[COL_BOOT] >= 0 &&
	     !parse_uint(path, line, "boot", f[h->col[COL_BOOT]], G_MAXUINT32, &r->boot, error)) ||
	    !parse_uint(path, line, "round", f[h->col[COL_ROUND]], G_MAXUINT32, &r->round, error) ||
	    !parse_uint(path, line, "latency_ns", f[h->col[COL_LATENCY]], G_MAXUINT64,
			&r->knobs.latency_ns, error) ||
	    !parse_uint(path, line, "min_granularity_ns", f[h->col[COL_MIN_GRAN]], G_MAXUINT64,
			&r->knobs.min_granularity_ns, error) ||
	    !parse_uint(path, line, "wakeup_granularity_ns", f[h->col[COL_WAKEUP_GRAN]],
			G_MAXUINT64, &r->knobs.wakeup_granularity_ns, error) ||
	    !parse_seconds(path, line, f[h->col[COL_SECONDS]], &r->seconds, error) ||
	    !parse_ctxt(path, line, f[h->col[COL_CTXT]], &r->ctxt, error))
		return FALSE;
	r->steal_ppm = r->stall_ns = -1;
	if ((h->col[COL_STEAL] >= 0 &&
	     !parse_measured(path, line, "steal_ppm", f[h->col[COL_STEAL]], 999999, &r->steal_ppm,
			     error)) ||
	    (h->col[COL_STALL] >= 0 && !parse_measured(path, line, "stall_ns", f[h->col[COL_STALL]],
						       G_MAXINT64, &r->stall_ns, error)))
		return FALSE;
	r->shared_pct = -1;
	if (h->col[COL_SHARED] >= 0 &&
	    !parse_measured(path, line, "shared_pct", f[h->col[COL_SHARED]], 100, &r->shared_pct,
			    error))
		return FALSE;
	if (!parse_guest_stalls(h, f, line, &r->guest, error))
		return FALSE;
	/* The kernel keeps wakee_flips as an unsigned int; launched runs see a few hundred at most. */
	r->parent_flips = -1;
	if (h->col[COL_FLIPS] >= 0 &&
	    !parse_measured(path, line, "parent_flips", f[h->col[COL_FLIPS]], G_MAXUINT32,
			    &r->parent_flips, error))
		return FALSE;
	if (h->col[COL_FORK_FLIPS] >= 0 &&
	    !parse_forks(path, line, f[h->col[COL_FORK_FLIPS]], &r->forks, error))
		return FALSE;
	r->migration = -1;
	if (h->col[COL_MIGRATION] >= 0 && *f[h->col[COL_MIGRATION]]) {
		if (!parse_uint(path, line, "migration_cost_ns", f[h->col[COL_MIGRATION]],
				G_MAXINT64, &mig, error))
			return FALSE;
		r->migration = (gint64)mig;
	}
	if (!g_ascii_string_to_signed(f[h->col[COL_RC]], 10, G_MININT32, G_MAXINT32, &rc, NULL))
		return fail(error, REAL_PLAN_ERROR_INPUT, path, line,
			    "rc: '%s' is not an exit status", f[h->col[COL_RC]]);
	r->counts = rc == 0 && isfinite(r->seconds) && r->seconds > 0 &&
		    (h->col[COL_KNOBS] < 0 || strcmp(f[h->col[COL_KNOBS]], "ok") == 0);
	return TRUE;
}

/* The index of the setting with these knobs, added (named id) when new. */
static guint setting_index(GArray *settings, const Row *r)
{
	for (guint i = 0; i < settings->len; i++) {
		const RealSetting *s = &g_array_index(settings, RealSetting, i);

		if (memcmp(&s->knobs, &r->knobs, sizeof(r->knobs)) == 0 &&
		    s->migration_cost_ns == r->migration)
			return i;
	}
	RealSetting s = { .id = g_strdup(r->setting),
			  .knobs = r->knobs,
			  .migration_cost_ns = r->migration };
	g_array_append_val(settings, s);
	return settings->len - 1;
}

/* ---- summaries ------------------------------------------------------------------------------ */

static int compare_u64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

/* Summarise setting s from the runs; by_round[k * n_settings + i] is setting i's run in the
 * k-th round (sorted), or NULL. */
static void summarise(RealPlan *plan, guint s, Run **by_round, guint n_rounds, const GArray *runs)
{
	RealSetting *set = &g_array_index(plan->settings, RealSetting, s);
	const guint n_settings = plan->settings->len, ref = plan->reference_index;
	g_autofree double *x = g_new(double, n_rounds), *r = g_new(double, n_rounds);
	g_autofree double *cr = g_new(double, n_rounds);
	g_autofree double *sec = g_new(double, runs->len), *ctxt = g_new(double, runs->len);
	guint n = 0, nc = 0, ns = 0, nx = 0;

	for (guint k = 0; k < n_rounds; k++) {
		const Run *a = by_round[k * n_settings + s], *b = by_round[k * n_settings + ref];

		if (!a || !b)
			continue;
		x[n] = a->seconds;
		r[n++] = b->seconds;
		if (a->ctxt >= 0 && b->ctxt > 0)
			cr[nc++] = (double)a->ctxt / (double)b->ctxt;
	}
	for (guint i = 0; i < runs->len; i++) {
		const Run *run = &g_array_index(runs, Run, i);

		if (run->setting != s)
			continue;
		sec[ns++] = run->seconds;
		if (run->ctxt >= 0)
			ctxt[nx++] = (double)run->ctxt;
	}
	/* Each round's run, for a simulated twin of it (plan_sim.h). */
	set->in_round = g_new0(gboolean, n_rounds);
	set->round_steal_ppm = g_new(gint64, n_rounds);
	set->round_stall_ns = g_new(gint64, n_rounds);
	set->round_shared_pct = g_new(gint64, n_rounds);
	set->round_guest = g_new(RealStalls, n_rounds);
	set->round_parent_flips = g_new(gint64, n_rounds);
	set->round_forks = g_new0(RealForks, n_rounds);
	for (guint k = 0; k < n_rounds; k++) {
		const Run *a = by_round[k * n_settings + s];
		gboolean measured = a && a->steal_ppm >= 0 && a->stall_ns >= 0;

		set->in_round[k] = a != NULL;
		set->round_steal_ppm[k] = measured ? a->steal_ppm : -1;
		set->round_stall_ns[k] = measured ? a->stall_ns : -1;
		set->round_shared_pct[k] = a ? a->shared_pct : -1;
		set->round_guest[k] = a ? a->guest : (RealStalls){ -1, -1, -1 };
		set->round_parent_flips[k] = a ? a->parent_flips : -1;
		if (a && a->forks.n)
			set->round_forks[k] =
				(RealForks){ a->forks.n, g_memdup2(a->forks.flips,
								   a->forks.n * sizeof(guint)) };
	}
	set->runs = ns;
	set->pairs = n;
	set->ratios = g_new(double, n);
	for (guint i = 0; i < n; i++)
		set->ratios[i] = x[i] / r[i];
	set->median_seconds = stats_median(sec, ns);
	set->median_ctxt = stats_median(ctxt, nx);
	set->median_ctxt_ratio = stats_median(cr, nc);
	memset(&set->log, 0, sizeof(set->log));
	set->median_ratio = set->ratio_lo = set->ratio_hi = set->ratio_coverage = NAN;
	if (n == 0)
		return;
	paired_log_ratio(x, r, n, REAL_PLAN_LEVEL, &set->log);

	g_autofree double *sorted = g_memdup2(set->ratios, n * sizeof(double));

	set->median_ratio = stats_median(sorted, n);
	guint j = stats_median_rank(n, &set->ratio_coverage);

	if (j) {
		set->ratio_lo = sorted[j - 1];
		set->ratio_hi = sorted[n - j];
	}
}

/* Put the settings named in order first, in its order; the reference first without one. */
static void reorder(RealPlan *plan, const char *const *order)
{
	GArray *sorted = g_array_sized_new(FALSE, FALSE, sizeof(RealSetting), plan->settings->len);
	g_autofree gboolean *taken = g_new0(gboolean, plan->settings->len);
	const char *const reference_first[] = { plan->reference, NULL };

	if (!order)
		order = reference_first;
	for (guint k = 0; order[k]; k++)
		for (guint i = 0; i < plan->settings->len; i++) {
			const RealSetting *s = real_plan_setting(plan, i);

			if (!taken[i] && strcmp(s->id, order[k]) == 0) {
				g_array_append_val(sorted, *s);
				taken[i] = TRUE;
			}
		}
	for (guint i = 0; i < plan->settings->len; i++)
		if (!taken[i])
			g_array_append_val(sorted, *real_plan_setting(plan, i));
	g_array_free(plan->settings, TRUE);
	plan->settings = sorted;
	for (guint i = 0; i < plan->settings->len; i++)
		if (real_plan_setting(plan, i)->reference)
			plan->reference_index = i;
}

/* Rounds in (boot, round) order, and each setting's run in each. */
static gboolean index_rounds(RealPlan *plan, GArray *runs, GArray *rounds, Run ***by_round,
			     const guint *lines, GError **error)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_int64_hash, g_int64_equal);
	const guint n_settings = plan->settings->len;

	for (guint i = 0; i < runs->len; i++) {
		Run *run = &g_array_index(runs, Run, i);

		if (!g_hash_table_contains(seen, &run->round)) {
			g_hash_table_add(seen, &run->round);
			g_array_append_val(rounds, run->round);
		}
	}
	g_array_sort(rounds, compare_u64);
	*by_round = g_new0(Run *, (gsize)rounds->len * n_settings);
	for (guint i = 0; i < runs->len; i++) {
		Run *run = &g_array_index(runs, Run, i);
		guint k = 0;

		while (g_array_index(rounds, guint64, k) != run->round)
			k++;
		Run **slot = &(*by_round)[(gsize)k * n_settings + run->setting];

		if (*slot)
			return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, lines[i],
				    "a second run of setting %s in round %u",
				    real_plan_setting(plan, run->setting)->id,
				    (guint)(run->round & G_MAXUINT32));
		*slot = run;
	}
	return TRUE;
}

static gboolean summarise_all(RealPlan *plan, GArray *runs, const guint *lines, GError **error)
{
	g_autoptr(GArray) rounds = g_array_new(FALSE, FALSE, sizeof(guint64));
	g_autofree Run **by_round = NULL;
	g_autoptr(GHashTable) boots = g_hash_table_new(g_direct_hash, g_direct_equal);

	if (!index_rounds(plan, runs, rounds, &by_round, lines, error))
		return FALSE;
	plan->rounds = rounds->len;
	for (guint k = 0; k < rounds->len; k++)
		g_hash_table_add(
			boots, GUINT_TO_POINTER((guint)(g_array_index(rounds, guint64, k) >> 32)));
	plan->boots = g_hash_table_size(boots);
	for (guint s = 0; s < plan->settings->len; s++)
		summarise(plan, s, by_round, rounds->len, runs);
	if (real_plan_setting(plan, plan->reference_index)->runs == 0)
		return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, 0,
			    "no run of the reference setting '%s' counts (rc 0, knobs ok, a time)",
			    plan->reference);
	return TRUE;
}

/* Finds the reference: the setting its name's rows have, the same in every boot. */
static gboolean mark_reference(RealPlan *plan, GArray *all_rows_setting, GPtrArray *names,
			       const guint *row_lines, GError **error)
{
	gint ref = -1;
	guint first = 0;

	for (guint i = 0; i < names->len; i++) {
		guint s = g_array_index(all_rows_setting, guint, i);

		if (strcmp(names->pdata[i], plan->reference) != 0)
			continue;
		if (ref >= 0 && (guint)ref != s)
			return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, row_lines[i],
				    "the reference '%s' has other knobs than on line %u",
				    plan->reference, first);
		if (ref < 0)
			first = row_lines[i];
		ref = (gint)s;
	}
	if (ref < 0)
		return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, 0,
			    "no run of the reference setting '%s'", plan->reference);
	plan->reference_index = (guint)ref;
	g_array_index(plan->settings, RealSetting, ref).reference = TRUE;
	return TRUE;
}

static void clear_run(gpointer p)
{
	g_free(((Run *)p)->forks.flips);
}

static gboolean parse_text(RealPlan *plan, char *text, const char *const *order, GError **error)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	Header h = { .path = plan->path };
	g_autoptr(GArray) runs = g_array_new(FALSE, FALSE, sizeof(Run));
	g_autoptr(GArray) run_lines = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GArray) steal = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) stall_ns = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) shared = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) guest = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) guest_ns = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) guest_cv = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) flips = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) row_setting = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GArray) row_lines = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	gboolean have_header = FALSE;

	g_array_set_clear_func(runs, clear_run);

	for (guint i = 0; lines[i]; i++) {
		guint line = i + 1;
		char *l = lines[i];
		size_t len = strlen(l);

		if (len && l[len - 1] == '\r')
			l[--len] = '\0';
		if (!len)
			continue;
		if (!have_header) {
			if (line != 1)
				return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, line,
					    "the header must be the first line");
			if (!parse_header(l, &h, error))
				return FALSE;
			have_header = TRUE;
			continue;
		}
		g_auto(GStrv) f = g_strsplit(l, ",", -1);
		Row r;

		if (g_strv_length(f) != h.n_columns)
			return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, line,
				    "%u fields, the header has %u", g_strv_length(f), h.n_columns);
		if (!parse_row(&h, f, line, &r, error)) {
			g_free(r.forks.flips);
			return FALSE;
		}
		guint s = setting_index(plan->settings, &r);

		g_array_append_val(row_setting, s);
		g_array_append_val(row_lines, line);
		g_ptr_array_add(names, g_strdup(r.setting));
		if (!r.counts) {
			g_free(r.forks.flips);
			plan->dropped++;
			continue;
		}
		Run run = { .round = r.boot << 32 | r.round,
			    .setting = s,
			    .seconds = r.seconds,
			    .ctxt = r.ctxt,
			    .steal_ppm = r.steal_ppm,
			    .stall_ns = r.stall_ns,
			    .shared_pct = r.shared_pct,
			    .guest = r.guest,
			    .parent_flips = r.parent_flips,
			    .forks = r.forks };

		if (r.guest.ppm >= 0) {
			double v[3] = { (double)r.guest.ppm, (double)r.guest.ns,
					(double)r.guest.cv_pct };

			g_array_append_val(guest, v[0]);
			g_array_append_val(guest_ns, v[1]);
			g_array_append_val(guest_cv, v[2]);
		}

		if (r.steal_ppm >= 0 && r.stall_ns >= 0) {
			double ppm = (double)r.steal_ppm, stall = (double)r.stall_ns;

			g_array_append_val(steal, ppm);
			g_array_append_val(stall_ns, stall);
		}
		if (r.shared_pct >= 0) {
			double v = (double)r.shared_pct;

			g_array_append_val(shared, v);
		}
		if (r.parent_flips >= 0) {
			double v = (double)r.parent_flips;

			g_array_append_val(flips, v);
		}
		g_array_append_val(runs, run);
		g_array_append_val(run_lines, line);
	}
	if (!have_header)
		return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, 0, "empty: no header line");
	plan->steal_runs = steal->len;
	plan->steal_ppm = stats_median((double *)steal->data, steal->len);
	plan->stall_ns = stats_median((double *)stall_ns->data, stall_ns->len);
	plan->shared_runs = shared->len;
	plan->shared_pct = stats_median((double *)shared->data, shared->len);
	plan->guest_runs = guest->len;
	plan->guest_ppm = stats_median((double *)guest->data, guest->len);
	plan->guest_ns = stats_median((double *)guest_ns->data, guest_ns->len);
	plan->guest_cv_pct = stats_median((double *)guest_cv->data, guest_cv->len);
	plan->flips_runs = flips->len;
	plan->parent_flips = stats_median((double *)flips->data, flips->len);
	if (names->len == 0)
		return fail(error, REAL_PLAN_ERROR_INPUT, plan->path, 0, "no runs");
	if (!mark_reference(plan, row_setting, names, (const guint *)row_lines->data, error))
		return FALSE;
	/* Runs name settings by their index before reordering: summarise, then reorder. */
	if (!summarise_all(plan, runs, (const guint *)run_lines->data, error))
		return FALSE;
	reorder(plan, order);
	return TRUE;
}

RealPlan *real_plan_read(const char *path, const char *reference, const char *const *order,
			 GError **error)
{
	g_autoptr(RealPlan) plan = g_new0(RealPlan, 1);
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;

	plan->path = g_strdup(path);
	plan->reference = g_strdup(reference ? reference : "defaults");
	plan->settings = g_array_new(FALSE, FALSE, sizeof(RealSetting));
	if (!g_file_get_contents(path, &text, NULL, &local)) {
		fail(error, REAL_PLAN_ERROR_IO, path, 0, "cannot read: %s", local->message);
		return NULL;
	}
	if (!parse_text(plan, text, order, error))
		return NULL;
	return g_steal_pointer(&plan);
}
