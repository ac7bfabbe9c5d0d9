/*
 * fit.c - the model's free parameters fitted to real plans (see fit.h).
 */
#include "tuner/eval/fit.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "linsched/model_id.h"
#include "tasks/hackbench.h"
#include "tuner/optim/multistart_nm.h"

#define FIT_ERROR g_quark_from_static_string("tuner-fit")

#define M(field)    offsetof(struct linsched_machine, field)
#define FLAG(field) offsetof(struct workload_cli, field)

/* Where a fit of a blocking system call starts on a machine that does not model it (0). */
#define FIT_BLOCK_START_NS	 100
/* Where fits of an IPI's flight and a wakeup's tail start on a machine without them: the
 * delays from a wakeup to the switch it asks for that tracing the real kernel showed, on
 * another CPU and on the waker's (vm/data/host-2/README.md, "What the traces showed"). */
#define FIT_IPI_START_NS	 28000
#define FIT_WAKEUP_TAIL_START_NS 9000

/*
 * The parameters a fit may vary. The ranges are what a machine could plausibly have (a few tens
 * of ns for a syscall on a fast machine, a millisecond for the slowest emulated switch); a fit
 * searches within a factor of its start inside them.
 */
static const FitParam params[] = {
	{ "thread_switch", "costs", "thread_switch_ns", M(thread_switch_ns), 50, 1e6,
	  "--switch-cost-ns", FLAG(sim.switch_cost_ns), "a context switch between threads, ns" },
	{ "process_switch", "costs", "process_switch_ns", M(process_switch_ns), 50, 1e6,
	  "--switch-cost-ns", FLAG(sim.switch_cost_ns), "a context switch between processes, ns" },
	{ "wakeup", "costs", "wakeup_ns", M(wakeup_ns), 50, 1e6, "--wakeup-cost-ns",
	  FLAG(sim.wakeup_cost_ns),
	  "a wakeup, paid by the waker, ns (between processes too, where the machine has no "
	  "process_wakeup)" },
	{ "process_wakeup", "costs", "process_wakeup_ns", M(process_wakeup_ns), 50, 1e6,
	  "--wakeup-cost-ns", FLAG(sim.wakeup_cost_ns),
	  "a wakeup between processes, paid by the waker, ns (0 in the machine: starts as "
	  "wakeup)" },
	{ "wakeup_remote", "costs", "wakeup_remote_ns", M(wakeup_remote_ns), 50, 1e6, NULL, 0,
	  "a wakeup onto another CPU, ns" },
	{ "ipi", "costs", "ipi_ns", M(ipi_ns), 100, 1e6, NULL, 0,
	  "a reschedule IPI's flight to another CPU, ns (0 in the "
	  "machine: starts at " G_STRINGIFY(FIT_IPI_START_NS) " ns)" },
	{ "wakeup_tail", "costs", "wakeup_tail_ns", M(wakeup_tail_ns), 100, 1e6, NULL, 0,
	  "of a wakeup, what the waker pays after the wakee is queued, the rest before, ns (0 in "
	  "the machine: starts at " G_STRINGIFY(FIT_WAKEUP_TAIL_START_NS) " ns)" },
	{ "migrate", "costs", "migrate_ns", M(migrate_ns), 50, 1e6, "--migrate-cost-ns",
	  FLAG(sim.migrate_cost_ns), "a task arriving on another CPU, ns" },
	{ "socket_write", "costs", "socket_write_ns", M(socket_write_ns), 20, 1e6,
	  "--write-cost-ns", FLAG(hb.write_ns), "a message written to a socket, ns" },
	{ "socket_read", "costs", "socket_read_ns", M(socket_read_ns), 20, 1e6, "--read-cost-ns",
	  FLAG(hb.read_ns), "a message read from a socket, ns" },
	{ "pipe_write", "costs", "pipe_write_ns", M(pipe_write_ns), 20, 1e6, "--write-cost-ns",
	  FLAG(hb.write_ns), "a message written to a pipe, ns" },
	{ "pipe_read", "costs", "pipe_read_ns", M(pipe_read_ns), 20, 1e6, "--read-cost-ns",
	  FLAG(hb.read_ns), "a message read from a pipe, ns" },
	{ "socket_block", "costs", "socket_block_ns", M(socket_block_ns), 10, 1e6,
	  "--block-cost-ns", FLAG(hb.block_ns),
	  "a socket read that finds the socket empty (a write, full), up to its sleep, ns (0 in "
	  "the machine: starts at " G_STRINGIFY(FIT_BLOCK_START_NS) " ns)" },
	{ "pipe_block", "costs", "pipe_block_ns", M(pipe_block_ns), 10, 1e6, "--block-cost-ns",
	  FLAG(hb.block_ns),
	  "a pipe read that finds the pipe empty (a write, full), up to its sleep, ns (0 in the "
	  "machine: starts at " G_STRINGIFY(FIT_BLOCK_START_NS) " ns)" },
	{ "miss", "costs", "miss_ps", M(miss_ps), 10, 1e6, "--miss-cost-ps", FLAG(sim.miss_cost_ps),
	  "reloading one cache line, ps" },
	{ "footprint", "costs", "footprint_lines", M(footprint_lines), 1, 1e6, "--footprint-lines",
	  FLAG(hb.footprint), "a task's cache footprint, 64-byte lines" },
	{ "cache_lines", "costs", "cache_lines", M(cache_lines), 1024, 1e8, "--cache-lines",
	  FLAG(sim.cache_lines), "the last-level cache, 64-byte lines" },
	{ "data_cache", "costs", "data_cache_lines", M(data_cache_lines), 64, 1e8, NULL, 0,
	  "the cache a message is read from, 64-byte lines (0 in the machine: starts as the "
	  "last-level cache)" },
	{ "data_miss", "costs", "data_miss_ps", M(data_miss_ps), 10, 1e7, NULL, 0,
	  "each line of a message read after it left that cache, ps (0: starts as miss)" },
	/* The steal itself is measured for every real run (plan_sim.h); its shape is not. */
	{ "stall_cv", "steal", "stall_cv_pct", M(stall_cv_pct), 10, 1000, NULL, 0,
	  "the coefficient of variation of the host's stalls, percent" },
};

const FitParam *fit_params(guint *n)
{
	*n = G_N_ELEMENTS(params);
	return params;
}

const FitParam *fit_param_find(const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(params); i++)
		if (strcmp(params[i].name, name) == 0)
			return &params[i];
	return NULL;
}

char *fit_param_names(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < G_N_ELEMENTS(params); i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", params[i].name);
	return g_string_free(s, FALSE);
}

static uint64_t *field(struct linsched_machine *m, const FitParam *p)
{
	return (uint64_t *)((char *)m + p->offset);
}

double fit_param_get(const FitParam *p, const struct linsched_machine *m)
{
	uint64_t v = *field((struct linsched_machine *)m, p);

	/* The zeros that stand for another value (linsched/machine.h). */
	if (v == 0 && (p->offset == M(wakeup_remote_ns) || p->offset == M(process_wakeup_ns)))
		return (double)m->wakeup_ns;
	if (v == 0 && p->offset == M(footprint_lines))
		return HACKBENCH_FOOTPRINT_LINES;
	if (v == 0 && p->offset == M(data_cache_lines))
		return (double)m->cache_lines;
	if (v == 0 && p->offset == M(data_miss_ps))
		return (double)m->miss_ps;
	if (v == 0 && (p->offset == M(socket_block_ns) || p->offset == M(pipe_block_ns)))
		return FIT_BLOCK_START_NS;
	if (v == 0 && p->offset == M(ipi_ns))
		return FIT_IPI_START_NS;
	if (v == 0 && p->offset == M(wakeup_tail_ns))
		return FIT_WAKEUP_TAIL_START_NS;
	return (double)v;
}

void fit_param_set(const FitParam *p, struct linsched_machine *m, double value)
{
	*field(m, p) = (uint64_t)MAX(1, llround(value));
}

gboolean fit_param_overridden(const FitParam *p, const struct workload_cli *flags)
{
	gconstpointer value = (const char *)flags + p->flag_offset;

	/* A simulation flag or a hackbench one: the set that holds it knows. */
	return p->flag &&
	       (flag_given(&flags->sim.flags, value) || flag_given(&flags->hb.flags, value));
}

/* ---- the loss ----------------------------------------------------------------------------- */

void fit_problem_init(FitProblem *fp, const PlanSet *train, const PlanSim *sim,
		      const struct linsched_machine *base, const FitParam *const *ps, guint n,
		      const FidelityLoss *weights)
{
	memset(fp, 0, sizeof(*fp));
	fp->train = train;
	fp->sim = *sim;
	fp->base = *base;
	fp->params = ps;
	fp->n_params = n;
	fp->weights = *weights;
	fp->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

void fit_problem_clear(FitProblem *fp)
{
	if (fp->cache)
		g_hash_table_destroy(fp->cache);
	g_clear_error(&fp->error);
	g_clear_error(&fp->journal_error);
	memset(fp, 0, sizeof(*fp));
}

void fit_machine(const FitProblem *fp, const double *values, struct linsched_machine *out)
{
	*out = fp->base;
	for (guint i = 0; i < fp->n_params; i++)
		fit_param_set(fp->params[i], out, values[i]);
}

/* The loss of machine m, simulated; wall_s the seconds it took. */
static double simulate_loss(FitProblem *fp, const struct linsched_machine *m, double *wall_s)
{
	SimSetting **sims = NULL;
	GError *error = NULL;
	gint64 t0 = g_get_monotonic_time();
	double loss = 0;

	if (!plan_sim_run(&fp->sim, fp->train, m, &sims, &error)) {
		loss = INFINITY;
		if (!fp->error)
			fp->error = error;
		else
			g_error_free(error);
	} else {
		for (guint p = 0; p < fp->train->plans->len; p++)
			loss += fidelity_loss(plan_set_plan(fp->train, p)->real, sims[p],
					      &fp->weights);
		fp->simulations += plan_sim_count(&fp->sim, fp->train);
		loss /= fp->train->plans->len;
		plan_sim_free(sims, fp->train->plans->len);
	}
	*wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
	return loss;
}

/* Append a loss just computed to the journal, if there is one and it still works. A failed
 * simulation's +inf is left out: the rerun tries it again. */
static void journal_loss(FitProblem *fp, const guint64 *rounded, double loss, double wall_s)
{
	if (fp->journal && !fp->journal_error && isfinite(loss))
		fit_journal_append(fp->journal, rounded, loss, wall_s, &fp->journal_error);
}

double fit_loss(FitProblem *fp, const double *values)
{
	struct linsched_machine m;
	g_autofree guint64 *rounded = g_new(guint64, fp->n_params);
	GString *key = g_string_new(NULL);

	fit_machine(fp, values, &m);
	for (guint i = 0; i < fp->n_params; i++) {
		rounded[i] = *field(&m, fp->params[i]);
		g_string_append_printf(key, "%" G_GUINT64_FORMAT ",", rounded[i]);
	}

	double *cached = g_hash_table_lookup(fp->cache, key->str);

	if (cached) {
		g_string_free(key, TRUE);
		return *cached;
	}

	double loss, wall_s;

	if (fp->journal && fit_journal_lookup(fp->journal, rounded, &loss)) {
		fp->from_journal++;
	} else {
		loss = simulate_loss(fp, &m, &wall_s);
		fp->losses++;
		journal_loss(fp, rounded, loss, wall_s);
	}
	g_hash_table_insert(fp->cache, g_string_free(key, FALSE), g_memdup2(&loss, sizeof(loss)));
	return loss;
}

/* ---- the search --------------------------------------------------------------------------- */

typedef struct {
	FitProblem *fp;
	double *values;
} LogLoss;

static double log_loss(const double *x, void *ctx)
{
	LogLoss *l = ctx;

	for (guint i = 0; i < l->fp->n_params; i++)
		l->values[i] = exp(x[i]);
	return fit_loss(l->fp, l->values);
}

void fit_result_clear(FitResult *r)
{
	for (guint i = 0; i < r->n_starts; i++)
		g_free(r->starts[i].values);
	g_free(r->starts);
	g_free(r->start_values);
	g_free(r->values);
	g_free(r->lo);
	g_free(r->hi);
	memset(r, 0, sizeof(*r));
}

/* Whole-number values from a point of the log box. */
static void values_of(const double *x, guint n, double *out)
{
	for (guint i = 0; i < n; i++)
		out[i] = (double)MAX(1, llround(exp(x[i])));
}

gboolean fit_run(FitProblem *fp, const FitOptions *o, FitResult *out, FitProgress progress,
		 void *ctx, GError **error)
{
	const guint n = fp->n_params;
	g_autofree double *lo = g_new(double, n), *hi = g_new(double, n), *x0 = g_new(double, n);
	g_autofree double *scratch = g_new(double, n);

	memset(out, 0, sizeof(*out));
	if (n == 0 || o->starts < 1 || o->max_iter < 1 || !(o->range > 1) || !(o->step > 0) ||
	    !(o->tol > 0)) {
		g_set_error(error, FIT_ERROR, 1,
			    "a fit needs a parameter, starts >= 1, max_iter >= 1, range > 1, "
			    "step > 0 and tol > 0");
		return FALSE;
	}
	out->start_values = g_new(double, n);
	out->values = g_new(double, n);
	out->lo = g_new(double, n);
	out->hi = g_new(double, n);
	for (guint i = 0; i < n; i++) {
		const FitParam *p = fp->params[i];
		double base = CLAMP(fit_param_get(p, &fp->base), p->lo, p->hi);

		out->start_values[i] = (double)llround(base);
		out->lo[i] = MAX(p->lo, base / o->range);
		out->hi[i] = MIN(p->hi, base * o->range);
		lo[i] = log(out->lo[i]);
		hi[i] = log(out->hi[i]);
		x0[i] = log(base);
	}
	out->start_loss = fit_loss(fp, out->start_values);

	LogLoss l = { fp, scratch };
	multistart_nm_params mp = {
		n, lo, hi, x0, o->starts, o->max_iter, o->step, o->tol, o->seed
	};
	multistart_nm *s = multistart_nm_alloc(n);

	if (multistart_nm_set(s, &mp, log_loss, &l) != GSL_SUCCESS) {
		multistart_nm_free(s);
		g_set_error(error, FIT_ERROR, 1, "the search's parameters are not valid");
		return FALSE;
	}
	/* A journal that cannot be written stops the fit: a kill would then lose its work. */
	while (!fp->journal_error && multistart_nm_iterate(s) == GSL_CONTINUE)
		if (progress)
			progress(multistart_nm_start(s), multistart_nm_iter(s),
				 multistart_nm_minimum(s), ctx);
	if (fp->journal_error) {
		multistart_nm_free(s);
		g_propagate_error(error, g_steal_pointer(&fp->journal_error));
		return FALSE;
	}

	unsigned int n_runs;
	const multistart_nm_run *runs = multistart_nm_runs(s, &n_runs);

	out->n_starts = n_runs;
	out->starts = g_new0(FitStart, n_runs);
	for (guint k = 0; k < n_runs; k++) {
		out->starts[k].values = g_new(double, n);
		values_of(runs[k].x, n, out->starts[k].values);
		out->starts[k].loss = fit_loss(fp, out->starts[k].values);
		out->starts[k].iters = runs[k].iters;
		out->starts[k].converged = runs[k].converged;
	}
	values_of(multistart_nm_x(s), n, out->values);
	out->loss = fit_loss(fp, out->values);
	/* The start is a candidate too: a fit never reports worse than where it began. */
	if (!(out->loss <= out->start_loss)) {
		memcpy(out->values, out->start_values, n * sizeof(double));
		out->loss = out->start_loss;
	}
	multistart_nm_free(s);
	out->losses = fp->losses;
	out->from_journal = fp->from_journal;
	out->simulations = fp->simulations;
	return TRUE;
}

/* ---- the fitted machine.ini ---------------------------------------------------------------- */

gboolean fit_write_machine(const char *path, const char *base_path,
			   const struct linsched_machine *m, const struct linsched_machine *before,
			   const FitParam *const *ps, guint n, const char *by, const char *comment,
			   GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *old = NULL, *text = NULL;
	g_autofree char *tmp = g_strdup_printf("%s.tmp.XXXXXX", path);
	struct linsched_machine check;
	int fd;

	if (base_path &&
	    !g_key_file_load_from_file(kf, base_path, G_KEY_FILE_KEEP_COMMENTS, error)) {
		g_prefix_error(error, "%s: ", base_path);
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		const FitParam *p = ps[i];
		g_autofree char *note =
			g_strdup_printf(" fitted by %s (was %.0f)", by, fit_param_get(p, before));

		g_key_file_set_uint64(kf, p->group, p->key,
				      *field((struct linsched_machine *)m, p));
		g_key_file_set_comment(kf, p->group, p->key, note, NULL);
	}
	/* GKeyFile puts "#" before every line: " text" reads "# text". The base file's own
	 * comment (already with its blank) follows, after an empty comment line. */
	g_auto(GStrv) lines = g_strsplit(comment, "\n", -1);
	GString *top = g_string_new(NULL);

	for (guint i = 0; lines[i]; i++)
		g_string_append_printf(top, "%s%s%s", i ? "\n" : "", *lines[i] ? " " : "",
				       lines[i]);
	/* The values fit the simulator of these sources; another may want others. */
	g_string_append_printf(top,
			       "\n Fitted on the simulator of model id %s (linsched --help "
			       "prints its own).",
			       linsched_model_id());
	old = g_key_file_get_comment(kf, NULL, NULL, NULL);
	if (old && *old)
		g_string_append_printf(top, "\n\n%s", old);
	while (top->len && top->str[top->len - 1] == '\n')
		g_string_truncate(top, top->len - 1);
	g_key_file_set_comment(kf, NULL, NULL, top->str, NULL);
	g_string_free(top, TRUE);
	text = g_key_file_to_data(kf, NULL, NULL);
	if ((fd = g_mkstemp(tmp)) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", tmp, g_strerror(errno));
		return FALSE;
	}
	close(fd);
	if (!g_file_set_contents(tmp, text, -1, error) ||
	    !linsched_machine_load(tmp, &check, error)) {
		g_unlink(tmp);
		return FALSE;
	}
	if (g_rename(tmp, path) != 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot rename %s to %s: %s", tmp, path, g_strerror(errno));
		g_unlink(tmp);
		return FALSE;
	}
	return TRUE;
}
