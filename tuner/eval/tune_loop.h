/*
 * tune_loop.h - the one loop that drives every optimizer over the CFS knobs:
 *
 *     ask a batch of unit-cube points  ->  map each to knobs  ->  evaluator_batch (parallel,
 *     replicated, journaled)  ->  tell the means  ->  record history and best so far
 *
 * until the optimizer is finished (its own stopping rule or the budget).  `tuner pso|golden|grid|
 * random|bayes|ga` call it once.  (`tuner meta-pso` runs its many swarms in lockstep instead, so
 * that they share one batch of simulations.)
 *
 * What the loop adds to the optimizer (optimizer.h) and the evaluator (evaluator.h): the map from
 * unit coordinates to knobs (TuneMapFn: knob_space_map, or period_space_map for SchedPeriod through
 * a discovery rule), the history of every evaluation with its knobs, standard error and best so
 * far, the surrogate model's predicted optimum after every iteration (for optimizers that have
 * one), and the progress line on a terminal.  It owns no policy: which objective, how many
 * replicates, which journal, how many threads are all in the EvaluatorConfig the caller passes.
 *
 * Determinism: the optimizer's proposals depend only on its type, parameters, seed and the values
 * told; the evaluator's values depend only on (knobs, seed, replicate).  So a run is identical
 * whatever config->evaluator.jobs, and a run resumed from a journal is identical to one that was
 * never interrupted (the journaled values are exact).
 *
 * Units: values are in the objective's unit (fractional jiffies for the simulator, milliseconds for
 * a live command); knobs in whole nanoseconds.
 *
 * Ownership: a TuneRun is the caller's, freed with tune_run_free.  TuneConfig borrows everything it
 * points to for the duration of tune_run only.  No global state: run as many loops in parallel
 * threads as you like (each with its own journal, or none).
 */
#ifndef TUNER_TUNE_LOOP_H
#define TUNER_TUNE_LOOP_H

#include <stdbool.h>

#include <glib.h>

#include "tuner/eval/evaluator.h"
#include "tuner/eval/journal.h"
#include "tuner/optim/optimizer.h"

G_BEGIN_DECLS

/* Unit coordinates (the optimizer's dim of them, each in [0, 1]) to knobs.  Must be a pure
 * function of unit (the journal keys on the knobs it returns). */
typedef void (*TuneMapFn)(const double *unit, Knobs *knobs, void *ctx);

typedef struct {
	const tuner_optimizer_type *type; /* tuner_optimizer_pso, _golden, _bayes, ... */
	tuner_optimizer_params params;	  /* seed, budget and the type's own parameters */
	size_t dim;			  /* >= 1: the dimension the map reads */
	TuneMapFn map;			  /* required */
	void *map_ctx;
	/* objective, replicates, base_seed, jobs, journal.  Its progress fields are ignored: the loop
	 * reports progress itself when show_progress is set. */
	EvaluatorConfig evaluator;
	bool show_progress;	    /* draw tuner/util/progress.h's line (only on a terminal) */
	const char *label;	    /* progress line prefix, e.g. "pso"; NULL: the type's name */
	guint expected_evaluations; /* progress total; 0: params.budget (or unknown) */
} TuneConfig;

/* One evaluation (one point of the search, the mean of its replicates). */
typedef struct {
	guint index;	 /* 0-based, in the order the values were told */
	guint iteration; /* the optimizer batch it belonged to (PSO generation, Golden step) */
	Knobs knobs;
	double value;	  /* mean over the replicates */
	double std_error; /* sample sd / sqrt(R); 0 when R = 1 */
	double best;	  /* best value over evaluations 0..index (ties keep the earlier one) */
} TuneEvaluation;

/* A surrogate model's predicted optimum after one iteration (optimizers with a model: bayes). */
typedef struct {
	guint iteration;   /* the batch after which the model was refitted, 0-based */
	guint evaluations; /* evaluations the model was fitted to */
	Knobs knobs;	   /* where the model's mean is lowest */
	double value;	   /* the model's mean there, in the objective's unit */
	double sd;	   /* the standard deviation of that mean */
} TunePrediction;

typedef struct {
	GArray *evaluations; /* TuneEvaluation, in order */
	GArray *predictions; /* TunePrediction, one per iteration after the model exists; empty for
			      * optimizers without a model */
	GArray *unit;	     /* double: dim unit coordinates per evaluation, row-major */
	size_t dim;
	guint best;	  /* index of the best evaluation (meaningful when evaluations->len > 0) */
	guint iterations; /* completed optimizer batches */
	EvaluatorStats
		totals; /* summed over batches: distinct (knobs, seed, replicate) evaluations,
                            * of which read from the journal, of which run now */
	double wall_s;	/* wall-clock time of the whole loop */
} TuneRun;

/*
 * Run the loop to the end.  Returns NULL and sets error when the optimizer parameters are invalid
 * (TUNER_OPTIMIZER_ERROR, a one-line message naming the field) or an evaluation failed (the
 * evaluator's error: earlier evaluations stay in the journal, so rerunning resumes), or the
 * objective produced a NaN (TUNE_LOOP_ERROR_NAN).
 */
TuneRun *tune_run(const TuneConfig *config, GError **error);
void tune_run_free(TuneRun *run);

/* The best evaluation, NULL when there is none. */
const TuneEvaluation *tune_run_best(const TuneRun *run);

/* The unit coordinates of evaluation i (dim of them). */
const double *tune_run_unit(const TuneRun *run, guint i);

/*
 * How many evaluations it took to come within `fraction` of the final best: the smallest k >= 1
 * such that the best of the first k evaluations is at most best + fraction * |best|
 * (fraction 0.01 for "within 1%").  0 when there is no evaluation.
 */
guint tune_run_evaluations_to_within(const TuneRun *run, double fraction);

#define TUNE_LOOP_ERROR (tune_loop_error_quark())
GQuark tune_loop_error_quark(void);

typedef enum {
	TUNE_LOOP_ERROR_NAN, /* the objective returned NaN */
} TuneLoopError;

G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuneRun, tune_run_free)

G_END_DECLS

#endif /* TUNER_TUNE_LOOP_H */
