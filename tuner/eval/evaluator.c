/*
 * evaluator.c -- parallel, journaled evaluation of a batch of knob settings (see evaluator.h).
 */
#include "tuner/eval/evaluator.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

/* The state shared by the worker threads and the caller, all of it guarded by lock. */
typedef struct Batch Batch;

/* What the pool runs: a batch's evaluation or a map's job, each starting with this. */
typedef struct PoolWork PoolWork;
struct PoolWork {
	void (*run)(PoolWork *work);
};

/* One distinct evaluation of the batch: the record it will be journaled as, and whether it has a
 * value yet. */
typedef struct {
	PoolWork work;
	JournalRecord record;
	gboolean has_value;
	Batch *batch;
} Task;

/* How long an evaluation at a point took: what the next batches' dispatch order is guessed from. */
typedef struct {
	double at[KNOB_COUNT]; /* ln(1 + ns / 1 us) of each knob */
	double wall_s;
} PastCost;

/* The last evaluations remembered for the guess: enough to hold a few batches of any optimizer,
 * few enough that a nearest-neighbour search per task stays negligible beside a simulation. */
#define PAST_COSTS_MAX 1024

struct Evaluator {
	EvaluatorConfig config;
	guint jobs;
	GThreadPool *pool; /* NULL until a batch needs it (jobs > 1) */
	PastCost *past;	   /* a ring of the last PAST_COSTS_MAX evaluations run */
	guint n_past, next_past;
};

struct Batch {
	const EvaluatorConfig *config;
	GMutex lock;
	GCond changed;	/* signalled whenever finished grows */
	guint finished; /* tasks handed out that completed: with a value, failed, or skipped */
	guint done;	/* tasks with a value, journaled ones included */
	guint run;	/* tasks evaluated now with success */
	GError *error;	/* the first failure; once set, queued tasks are skipped */
};

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(evaluator-error-quark, evaluator_error)
/* clang-format on */

guint64 evaluator_replicate_seed(guint64 base_seed, guint replicate)
{
	return base_seed + replicate; /* unsigned: wraps modulo 2^64 */
}

guint evaluator_default_jobs(void)
{
	return g_get_num_processors();
}

void evaluator_stats_add(EvaluatorStats *sum, const EvaluatorStats *batch)
{
	sum->total += batch->total;
	sum->from_journal += batch->from_journal;
	sum->run += batch->run;
}

/* The knobs an error about an evaluation names. */
static KnobSet error_knobs(const EvaluatorConfig *config)
{
	return config->knobs ? config->knobs : KNOB_SET_CFS;
}

/* Call the objective; on failure make sure there is an error that says which evaluation failed. */
static gboolean evaluate(const EvaluatorConfig *config, JournalRecord *record, GError **error)
{
	GError *local = NULL;
	gint64 start = g_get_monotonic_time();
	gboolean ok = config->objective(&record->knobs, record->seed, &record->value,
					config->objective_ctx, &local);
	record->wall_s = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	if (ok)
		return TRUE;
	if (local == NULL)
		local = g_error_new_literal(EVALUATOR_ERROR, EVALUATOR_ERROR_OBJECTIVE,
					    "the objective failed without saying why");
	g_autofree char *knobs = knobs_describe(&record->knobs, error_knobs(config));

	g_propagate_prefixed_error(error, local, "evaluation of %s seed=%" G_GUINT64_FORMAT ": ",
				   knobs, record->seed);
	return FALSE;
}

/* Evaluate one task and record the outcome; runs on a pool thread, or inline when jobs = 1. */
static void run_task(PoolWork *work)
{
	Task *task = (Task *)work;
	Batch *batch = task->batch;
	const EvaluatorConfig *config = batch->config;

	g_mutex_lock(&batch->lock);
	gboolean stopped = batch->error != NULL;
	g_mutex_unlock(&batch->lock);

	GError *error = NULL;
	gboolean ok = stopped || evaluate(config, &task->record, &error);

	g_mutex_lock(&batch->lock);
	if (!stopped && ok && config->journal != NULL)
		ok = journal_append(config->journal, &task->record, &error);
	if (!stopped && ok) {
		task->has_value = TRUE;
		batch->done++;
		batch->run++;
	}
	if (!ok) {
		if (batch->error == NULL)
			batch->error = error;
		else
			g_error_free(error);
	}
	batch->finished++;
	g_cond_signal(&batch->changed);
	g_mutex_unlock(&batch->lock);
}

/* Report progress if it moved since *reported; TRUE if it did.  Called with the lock held; drops
 * it meanwhile so that a slow progress callback does not hold up the workers. */
static gboolean report_progress(Batch *batch, guint total, guint *reported)
{
	const EvaluatorConfig *config = batch->config;
	if (config->progress == NULL || batch->done == *reported)
		return FALSE;
	*reported = batch->done;
	g_mutex_unlock(&batch->lock);
	config->progress(*reported, total, config->progress_ctx);
	g_mutex_lock(&batch->lock);
	return TRUE;
}

static void pool_run(gpointer data, gpointer user_data)
{
	PoolWork *work = data;

	(void)user_data;
	work->run(work);
}

/* The evaluator's pool, started when first needed; NULL with error if it cannot be. */
static GThreadPool *pool_of(Evaluator *ev, GError **error)
{
	/* An exclusive pool owns its threads.  GLib's shared pool would reuse idle threads across
	 * runs, but a forked child (the crash tests, a user's wrapper) inherits the bookkeeping of
	 * those threads without the threads, and would wait for them forever. */
	if (ev->pool == NULL)
		ev->pool = g_thread_pool_new(pool_run, NULL, (gint)ev->jobs, TRUE, error);
	return ev->pool;
}

static void cost_point(const Knobs *k, double *at)
{
	for (int i = 0; i < KNOB_COUNT; i++)
		at[i] = log1p(knob_get(k, (enum knob)i) / 1000.0);
}

/* The wall time of the remembered evaluation nearest to k (Euclidean, in ln units). */
static double guess_cost(const Evaluator *ev, const Knobs *k)
{
	double at[KNOB_COUNT], best_d = INFINITY, cost = 0;

	cost_point(k, at);
	for (guint p = 0; p < ev->n_past; p++) {
		double d = 0;

		for (int i = 0; i < KNOB_COUNT; i++)
			d += (at[i] - ev->past[p].at[i]) * (at[i] - ev->past[p].at[i]);
		if (d < best_d) {
			best_d = d;
			cost = ev->past[p].wall_s;
		}
	}
	return cost;
}

static void remember_costs(Evaluator *ev, Task **pending, guint n)
{
	if (ev->past == NULL)
		ev->past = g_new(PastCost, PAST_COSTS_MAX);
	for (guint t = 0; t < n; t++) {
		if (!pending[t]->has_value)
			continue;
		PastCost *c = &ev->past[ev->next_past];

		cost_point(&pending[t]->record.knobs, c->at);
		c->wall_s = pending[t]->record.wall_s;
		ev->next_past = (ev->next_past + 1) % PAST_COSTS_MAX;
		ev->n_past = MIN(ev->n_past + 1, PAST_COSTS_MAX);
	}
}

typedef struct {
	Task *task;
	double cost;
	guint order; /* the batch's own order: ties keep it, so the dispatch is reproducible */
} Guess;

static int longest_first(const void *a, const void *b)
{
	const Guess *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Longest first: the pool takes tasks in the order they are pushed, so a batch whose slowest
 * evaluation comes last leaves the other threads idle at its end, and one PSO batch's simulations
 * differ up to twentyfold in length. A task's time is guessed from the nearest point evaluated
 * before, since optimizers move in small steps; the first batch keeps its order. The order
 * changes when each task runs, never its result (nor, but for its order, the journal).
 */
static void order_longest_first(const Evaluator *ev, Task **pending, guint n)
{
	if (ev->n_past == 0 || n < 2)
		return;
	g_autofree Guess *g = g_new(Guess, n);

	for (guint t = 0; t < n; t++)
		g[t] = (Guess){ pending[t], guess_cost(ev, &pending[t]->record.knobs), t };
	qsort(g, n, sizeof *g, longest_first);
	for (guint t = 0; t < n; t++)
		pending[t] = g[t].task;
}

/* Run the tasks pending[0, n) on the evaluator's pool; return when all have finished. */
static void run_parallel(Evaluator *ev, Batch *batch, Task **pending, guint n, guint total,
			 guint *reported)
{
	GError *error = NULL;
	guint pushed = 0;

	if (pool_of(ev, &error) != NULL) {
		while (pushed < n && g_thread_pool_push(ev->pool, pending[pushed], &error))
			pushed++;
	}
	g_mutex_lock(&batch->lock);
	if (error != NULL && batch->error == NULL)
		batch->error = g_steal_pointer(&error);
	g_clear_error(&error);
	while (batch->finished < pushed) {
		if (!report_progress(batch, total, reported))
			g_cond_wait(&batch->changed, &batch->lock);
	}
	report_progress(batch, total, reported);
	g_mutex_unlock(&batch->lock);
}

/* Run the tasks inline, in order, in the caller's thread. */
static void run_inline(Batch *batch, Task **pending, guint n, guint total, guint *reported)
{
	for (guint i = 0; i < n; i++) {
		run_task(&pending[i]->work);
		g_mutex_lock(&batch->lock);
		report_progress(batch, total, reported);
		g_mutex_unlock(&batch->lock);
	}
}

/* Hand every pending task to the batch objective at once; journal what it measured. */
static void run_batch(Batch *batch, Task **pending, guint n, guint total, guint *reported)
{
	const EvaluatorConfig *config = batch->config;
	g_autofree const JournalRecord **records = g_new(const JournalRecord *, n);
	g_autofree double *values = g_new(double, n);
	GError *error = NULL;

	for (guint i = 0; i < n; i++) {
		records[i] = &pending[i]->record;
		values[i] = NAN;
	}
	gint64 start = g_get_monotonic_time();
	gboolean ok = config->batch_objective(records, n, values, config->batch_ctx, &error);
	/* One measurement's share of the batch's wall time. */
	double wall_s = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC / n;

	g_mutex_lock(&batch->lock);
	for (guint i = 0; i < n; i++) {
		JournalRecord *record = &pending[i]->record;

		if (!isfinite(values[i])) {
			if (error == NULL) {
				g_autofree char *knobs =
					knobs_describe(&record->knobs, error_knobs(config));

				error = g_error_new(EVALUATOR_ERROR, EVALUATOR_ERROR_OBJECTIVE,
						    "no value for %s replicate %u", knobs,
						    record->replicate);
			}
			continue;
		}
		record->value = values[i];
		record->wall_s = wall_s;
		if (config->journal != NULL && error == NULL &&
		    !journal_append(config->journal, record, &error))
			break;
		pending[i]->has_value = TRUE;
		batch->done++;
		batch->run++;
	}
	if (!ok && error == NULL)
		error = g_error_new_literal(EVALUATOR_ERROR, EVALUATOR_ERROR_OBJECTIVE,
					    "the batch objective failed without saying why");
	batch->error = error;
	batch->finished += n;
	report_progress(batch, total, reported);
	g_mutex_unlock(&batch->lock);
}

/*
 * Build the distinct tasks of the batch; slot_task[i * R + r] is the task of replicate r of point
 * i.
 * Returns the number of distinct tasks in tasks[] (room for n_points * R of them).
 */
static guint build_tasks(const EvaluatorConfig *config, const Knobs *points, const guint64 *seeds,
			 guint n_points, Task *tasks, guint *slot_task)
{
	const guint R = config->replicates;
	g_autoptr(GHashTable) index =
		g_hash_table_new(journal_record_key_hash, journal_record_key_equal);

	guint n_tasks = 0;
	for (guint i = 0; i < n_points; i++) {
		for (guint r = 0; r < R; r++) {
			Task *task = &tasks[n_tasks];
			*task = (Task){ .work = { run_task },
					.record = {
						.knobs = points[i],
						.seed = evaluator_replicate_seed(
							seeds ? seeds[i] : config->base_seed, r),
						.replicate = r } };
			gpointer found;
			if (g_hash_table_lookup_extended(index, &task->record, NULL, &found)) {
				slot_task[i * R + r] = GPOINTER_TO_UINT(found);
				continue;
			}
			g_hash_table_insert(index, &task->record, GUINT_TO_POINTER(n_tasks));
			slot_task[i * R + r] = n_tasks++;
		}
	}
	return n_tasks;
}

/* Mean and standard error of each point from the task values. */
static void summarise(const Task *tasks, const guint *slot_task, guint n_points, guint R,
		      EvaluatorResult *results, double *values)
{
	g_autofree double *v = g_new(double, R);
	for (guint i = 0; i < n_points; i++) {
		for (guint r = 0; r < R; r++)
			v[r] = tasks[slot_task[i * R + r]].record.value;
		results[i].mean = gsl_stats_mean(v, 1, R);
		results[i].std_error =
			R > 1 ? gsl_stats_sd_m(v, 1, R, results[i].mean) / sqrt(R) : 0.0;
		if (values != NULL)
			memcpy(values + (gsize)i * R, v, R * sizeof *v);
	}
}

Evaluator *evaluator_new(const EvaluatorConfig *config)
{
	/* Neither objective: an evaluator for evaluator_map only. */
	g_return_val_if_fail(config != NULL && config->replicates >= 1, NULL);

	Evaluator *ev = g_new0(Evaluator, 1);

	ev->config = *config;
	ev->jobs = config->jobs ? config->jobs : evaluator_default_jobs();
	return ev;
}

void evaluator_free(Evaluator *ev)
{
	if (ev == NULL)
		return;
	/* Every batch has finished (evaluator_batch returns only then): this joins idle threads. */
	if (ev->pool != NULL)
		g_thread_pool_free(ev->pool, FALSE, TRUE);
	g_free(ev->past);
	g_free(ev);
}

gboolean evaluator_batch(Evaluator *ev, const Knobs *points, guint n_points,
			 EvaluatorResult *results, double *values, EvaluatorStats *stats,
			 GError **error)
{
	return evaluator_batch_seeded(ev, points, NULL, n_points, results, values, stats, error);
}

gboolean evaluator_batch_seeded(Evaluator *ev, const Knobs *points, const guint64 *seeds,
				guint n_points, EvaluatorResult *results, double *values,
				EvaluatorStats *stats, GError **error)
{
	g_return_val_if_fail(ev != NULL, FALSE);
	g_return_val_if_fail(ev->config.objective != NULL || ev->config.batch_objective != NULL,
			     FALSE);
	g_return_val_if_fail(n_points == 0 || (points != NULL && results != NULL), FALSE);

	const EvaluatorConfig *config = &ev->config;
	const guint R = config->replicates;
	const gsize n_slots = (gsize)n_points * R;
	g_autofree Task *tasks = g_new(Task, n_slots);
	g_autofree guint *slot_task = g_new(guint, n_slots);
	g_autofree Task **pending = g_new(Task *, n_slots);
	const guint total = build_tasks(config, points, seeds, n_points, tasks, slot_task);

	Batch batch = { .config = config };
	g_mutex_init(&batch.lock);
	g_cond_init(&batch.changed);
	guint n_pending = 0;
	for (guint t = 0; t < total; t++) {
		JournalRecord *rec = &tasks[t].record;

		tasks[t].batch = &batch;
		if (config->journal != NULL &&
		    journal_lookup(config->journal, &rec->knobs, rec->seed, rec->replicate, rec)) {
			tasks[t].has_value = TRUE;
			batch.done++;
		} else {
			pending[n_pending++] = &tasks[t];
		}
	}
	const guint from_journal = batch.done;
	if (config->progress != NULL)
		config->progress(batch.done, total, config->progress_ctx);
	guint reported = batch.done;

	if (config->batch_objective != NULL && n_pending > 0)
		run_batch(&batch, pending, n_pending, total, &reported);
	else if (ev->jobs <= 1)
		run_inline(&batch, pending, n_pending, total, &reported);
	else if (n_pending > 0) {
		order_longest_first(ev, pending, n_pending);
		run_parallel(ev, &batch, pending, n_pending, total, &reported);
		remember_costs(ev, pending, n_pending);
	}

	if (stats != NULL)
		*stats = (EvaluatorStats){ .total = total,
					   .from_journal = from_journal,
					   .run = batch.run };
	g_mutex_clear(&batch.lock);
	g_cond_clear(&batch.changed);
	if (batch.error != NULL) {
		g_propagate_error(error, batch.error);
		return FALSE;
	}
	summarise(tasks, slot_task, n_points, R, results, values);
	return TRUE;
}

gboolean evaluator_run(const EvaluatorConfig *config, const Knobs *points, guint n_points,
		       EvaluatorResult *results, double *values, EvaluatorStats *stats,
		       GError **error)
{
	g_autoptr(Evaluator) ev = evaluator_new(config);

	g_return_val_if_fail(ev != NULL, FALSE);
	return evaluator_batch(ev, points, n_points, results, values, stats, error);
}

/* ---- evaluator_map ---------------------------------------------------------------------------- */

typedef struct {
	EvaluatorJob job;
	void *ctx;
	GMutex lock;
	GCond changed;
	guint finished;
	GError *error; /* the first failure; once set, queued jobs are skipped */
} Map;

typedef struct {
	PoolWork work;
	guint i;
	Map *map;
} MapJob;

static void run_map_job(PoolWork *work)
{
	MapJob *j = (MapJob *)work;
	Map *map = j->map;
	GError *error = NULL;

	g_mutex_lock(&map->lock);
	gboolean stopped = map->error != NULL;
	g_mutex_unlock(&map->lock);

	gboolean ok = stopped || map->job(j->i, map->ctx, &error);

	if (!ok && error == NULL)
		error = g_error_new(EVALUATOR_ERROR, EVALUATOR_ERROR_OBJECTIVE,
				    "job %u failed without saying why", j->i);
	g_mutex_lock(&map->lock);
	if (!ok && map->error == NULL)
		map->error = error;
	else if (!ok)
		g_error_free(error);
	map->finished++;
	g_cond_signal(&map->changed);
	g_mutex_unlock(&map->lock);
}

gboolean evaluator_map(Evaluator *ev, guint n, EvaluatorJob job, void *ctx, GError **error)
{
	g_return_val_if_fail(ev != NULL && job != NULL, FALSE);

	Map map = { .job = job, .ctx = ctx };
	g_autofree MapJob *jobs = g_new(MapJob, n);
	guint pushed = 0;
	GThreadPool *pool = ev->jobs > 1 && n > 1 ? pool_of(ev, &map.error) : NULL;

	g_mutex_init(&map.lock);
	g_cond_init(&map.changed);
	for (guint i = 0; i < n; i++)
		jobs[i] = (MapJob){ { run_map_job }, i, &map };
	if (pool) {
		GError *push_error = NULL;

		while (pushed < n && g_thread_pool_push(pool, &jobs[pushed], &push_error))
			pushed++;
		g_mutex_lock(&map.lock);
		if (push_error && !map.error)
			map.error = push_error;
		else
			g_clear_error(&push_error);
		while (map.finished < pushed)
			g_cond_wait(&map.changed, &map.lock);
		g_mutex_unlock(&map.lock);
	} else if (!map.error) {
		for (guint i = 0; i < n; i++)
			run_map_job(&jobs[i].work);
	}
	g_mutex_clear(&map.lock);
	g_cond_clear(&map.changed);
	if (map.error) {
		g_propagate_error(error, map.error);
		return FALSE;
	}
	return TRUE;
}
