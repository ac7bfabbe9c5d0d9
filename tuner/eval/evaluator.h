/*
 * evaluator.h -- evaluate a batch of knob settings, each with replicates, in parallel, resuming
 * from the journal (SPEC.md §5: "every evaluation is appended to a journal as soon as it finishes
 * ... evaluations run in parallel on the available cores").
 *
 * The optimizers hand over a batch of points (a PSO swarm, an RSM design, one Golden Section probe)
 * and get back, per point in input order, the mean of the objective over R replicates, its standard
 * error and the replicate values.
 *
 * Determinism.  Replicate r of every point uses the seed base_seed + r: the seed depends on the
 * base seed and the replicate only, never on the point, its position in the batch or the order in
 * which threads finish.  With a thread-safe, deterministic objective the results are therefore
 * identical bit for bit whatever the number of jobs, and identical whether an evaluation was run
 * now or read back from the journal (values are journaled exactly).  Seeds are consecutive rather
 * than hashed so that a user can replay replicate r of a journal line with `linsched --seed S`.
 * Common random numbers across points (the same seeds for every point) also make the comparison of
 * two points sharper than independent seeds would.
 *
 * Work.  A (knobs, seed, replicate) already in the journal is not run again, and one that occurs
 * twice in a batch (PSO particles clamped to the same corner) is run once.  The rest run on a
 * GThreadPool of `jobs` threads (jobs = 1 runs them inline in the caller's thread).  Each finished
 * evaluation is appended to the journal at once, under the evaluator's mutex, so kill -9 loses at
 * most the evaluations in flight.
 *
 * One pool per run.  An optimizer evaluates many small batches (a PSO generation of 20 cheap
 * simulations, one Bayesian point); starting and stopping threads for each would cost more than
 * the parallelism gains.  An Evaluator (evaluator_new) keeps its pool from the first batch to
 * evaluator_free, which waits for its threads: free it at the end of the run, before anything
 * forks (GLib then parks the idle threads for reuse, which a forked child would wait for forever;
 * the tests' fork_single_threaded knows this).  evaluator_run is the one-batch shorthand.
 *
 * Longest first.  The pool starts a batch's tasks in the order it is given them, and a batch whose
 * slowest task comes last ends with one thread working alone.  So the evaluator remembers how long
 * its last evaluations took and where, and starts the tasks it guesses slowest (by the nearest
 * point run before) first.  It changes when tasks run, never what they return.
 *
 * Errors.  The first objective (or journal) error, in order of completion, stops the batch: queued
 * evaluations are dropped, the ones in flight finish (and are journaled if they succeed), and the
 * error is returned prefixed with the knobs and seed that failed.  Evaluations that finished before
 * stay in the journal, so the rerun resumes from there.
 */
#ifndef TUNER_EVALUATOR_H
#define TUNER_EVALUATOR_H

#include <glib.h>

#include "tuner/eval/journal.h"

G_BEGIN_DECLS

#define EVALUATOR_ERROR (evaluator_error_quark())

typedef enum {
	EVALUATOR_ERROR_OBJECTIVE, /* the objective returned FALSE without setting an error */
} EvaluatorError;

GQuark evaluator_error_quark(void);

/*
 * The objective: the value of knobs with one seed, in *value.  It is called from several threads at
 * once, so it must be thread-safe (build its own simulation, share only read-only data through
 * ctx).  Returns FALSE and sets error on failure.
 */
typedef gboolean (*EvaluatorObjective)(const Knobs *knobs, guint64 seed, double *value, void *ctx,
				       GError **error);

/*
 * A batch objective, for objectives that measure many settings at once (one boot of the VM runs a
 * whole batch, in shuffled rounds): the values of the n evaluations tasks[0..n) (knobs, seed and
 * replicate given; value and wall_s are the evaluator's to fill) into values[0..n). A value it
 * could not measure is NaN: not journaled, and the batch fails. Returns FALSE with error when the
 * batch failed; the finite values it did fill are journaled all the same, so a rerun repeats only
 * what is missing. Called once per evaluator_run, from the caller's thread.
 */
typedef gboolean (*EvaluatorBatchObjective)(const JournalRecord *const *tasks, guint n,
					    double *values, void *ctx, GError **error);

/*
 * Progress: done of total evaluations of the batch have a value (journaled ones included).  Called
 * only from the thread that called evaluator_run, never concurrently: once at the start, then
 * whenever done grew (several completions may be reported at once), so a progress bar needs no
 * locking.  On success the last call has done == total.
 */
typedef void (*EvaluatorProgress)(guint done, guint total, void *ctx);

typedef struct {
	EvaluatorObjective objective; /* this, or batch_objective */
	void *objective_ctx;
	EvaluatorBatchObjective batch_objective; /* when set, used instead of objective */
	void *batch_ctx;
	guint replicates;	    /* R >= 1 */
	guint64 base_seed;	    /* replicate r uses seed base_seed + r */
	guint jobs;		    /* threads; 0 = evaluator_default_jobs(), 1 = inline */
	Journal *journal;	    /* NULL: no journal (nothing resumes); not owned */
	EvaluatorProgress progress; /* NULL: no progress reports */
	void *progress_ctx;
	KnobSet knobs; /* the knobs an error names; 0: CFS's three */
} EvaluatorConfig;

/* The result of one point. */
typedef struct {
	double mean;	  /* mean of the R replicate values */
	double std_error; /* sample standard deviation / sqrt(R); 0 when R = 1 */
} EvaluatorResult;

/* What a batch cost. */
typedef struct {
	guint total;	    /* distinct (knobs, seed, replicate) of the batch */
	guint from_journal; /* of which were read from the journal */
	guint run;	    /* of which were evaluated now (successfully) */
} EvaluatorStats;

/* A run's evaluator: the configuration (copied; what it points to is borrowed until
 * evaluator_free) and, with jobs > 1, the thread pool, started by the first batch that needs it.
 * One with neither objective serves evaluator_map only. */
typedef struct Evaluator Evaluator;

Evaluator *evaluator_new(const EvaluatorConfig *config);
/* Stops and joins the pool's threads (NULL is allowed). */
void evaluator_free(Evaluator *ev);

/*
 * Evaluate n_points points with config->replicates replicates each.  On success fills results[i]
 * (n_points of them) and, when values is not NULL, values[i * R + r] (n_points * R of them, the
 * value of replicate r of point i); when stats is not NULL, fills it (also on error).  All arrays
 * are the caller's.  Returns FALSE and sets error on the first failed evaluation (see above).  One
 * batch at a time per Evaluator.
 */
gboolean evaluator_batch(Evaluator *ev, const Knobs *points, guint n_points,
			 EvaluatorResult *results, double *values, EvaluatorStats *stats,
			 GError **error);

/*
 * evaluator_batch with a base seed per point: replicate r of point i uses seeds[i] + r.  For
 * designs whose replicated points must be independent runs (RSM's centre points when the
 * simulation has run-to-run variation), where common random numbers would make them agree.
 */
gboolean evaluator_batch_seeded(Evaluator *ev, const Knobs *points, const guint64 *seeds,
				guint n_points, EvaluatorResult *results, double *values,
				EvaluatorStats *stats, GError **error);

/*
 * One job of evaluator_map: item i of the map, with the map's ctx. It runs on the evaluator's
 * threads, so it must be thread-safe as an objective is. FALSE with error stops the map.
 */
typedef gboolean (*EvaluatorJob)(guint i, void *ctx, GError **error);

/*
 * Runs job(0), ..., job(n - 1) on the evaluator's pool (inline in the caller's thread when jobs
 * is 1), for work that is not one objective value per knob setting: simulating a real plan's
 * settings with several outputs each (tuner fidelity, tuner fit). The same threads serve the
 * evaluator's batches and its maps, one at a time. Returns when every job has finished, FALSE
 * with the first error (in order of completion): queued jobs are then skipped, those in flight
 * finish. Nothing is journaled; no progress is reported.
 */
gboolean evaluator_map(Evaluator *ev, guint n, EvaluatorJob job, void *ctx, GError **error);

/* evaluator_new, one evaluator_batch, evaluator_free. */
gboolean evaluator_run(const EvaluatorConfig *config, const Knobs *points, guint n_points,
		       EvaluatorResult *results, double *values, EvaluatorStats *stats,
		       GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Evaluator, evaluator_free)

/* The seed of replicate r: base_seed + r (modulo 2^64). */
guint64 evaluator_replicate_seed(guint64 base_seed, guint replicate);

/* The default number of jobs: the number of online processors. */
guint evaluator_default_jobs(void);

/* Adds batch's counts to *sum: what several batches cost together. */
void evaluator_stats_add(EvaluatorStats *sum, const EvaluatorStats *batch);

G_END_DECLS

#endif /* TUNER_EVALUATOR_H */
