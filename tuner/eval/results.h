/*
 * results.h - what a tuning run reports: the text summary, DIR/history.csv, DIR/result.json and the
 * commands that apply the best knobs to a live kernel.
 *
 * A Results is a read-only view the caller fills from a finished TuneRun (tune_loop.h) and
 * the evaluation of the default knobs; nothing here owns or frees what it points to.
 *
 * history.csv, one row per evaluation in the order the optimizer was told the values:
 *
 *     evaluation,iteration,latency_ns,min_granularity_ns,wakeup_granularity_ns,value,std_error,best
 *
 * with the columns of the run's knob set (knobs.h) in place of the three CFS knobs when it
 * searches others, e.g. evaluation,iteration,base_slice_ns,migration_cost_ns,...; every knob
 * object of result.json likewise has the set's knobs.
 * evaluation counts from 1, iteration (the optimizer batch: PSO generation, Golden step) from 0;
 * value and std_error are the mean of the replicates and its standard error, best the best value
 * so far, all in the objective's unit (`unit`: jiffies or ms), printed with %.17g so that they read
 * back exactly.  An optional extra column (e.g. sched_period_ns for Golden on SchedPeriod) follows
 * the knobs, and with a calibration two more close the row: predicted_ms and best_predicted_ms.
 *
 * result.json (also what --format json prints):
 *
 *     optimizer, objective, unit, space, settings, journal (string or null), replicates, jobs,
 *     best { value, stderr, knobs { latency_ns, min_granularity_ns, wakeup_granularity_ns },
 *            evaluation (1-based), predicted_ms (with a calibration), the extra column's value
 *            (e.g. sched_period_ns), clamped [names] (Golden on SchedPeriod) },
 *     default { value, stderr, knobs {...}, predicted_ms },
 *     improvement_pct, evaluations, evaluations_to_1pct, iterations,
 *     evaluations_run, evaluations_from_journal (replicate evaluations, journaled ones not rerun),
 *     clamped_evaluations (Golden on SchedPeriod), wall_s, apply { sysctl [..], debugfs [..] }
 *     (with --apply)
 *
 * improvement_pct = 100 (default - best) / default: positive when the tuned knobs are faster.
 */
#ifndef TUNER_RESULTS_H
#define TUNER_RESULTS_H

#include <stdbool.h>

#include <glib.h>

#include "tuner/calib/calibration_io.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/tune_loop.h"

struct json_writer;

/* An extra history column computed from an evaluation's unit coordinates. */
typedef double (*ResultsColumnFn)(const double *unit, void *ctx);

typedef struct {
	const char *optimizer; /* "pso", "golden", "grid", "random" */
	const char *objective; /* "simulation" or "command" */
	const char *unit;      /* "jiffies" or "ms" */
	const char *space;     /* the search space, e.g. knob_space_describe() */
	const char *settings;  /* everything that changes a value (the journal's settings) */
	const char *journal;   /* path, NULL without a journal */
	guint replicates;
	guint jobs;
	const TuneRun *run; /* at least one evaluation */
	KnobSet knobs;	    /* the knobs of rows and objects; 0: CFS's three */
	Knobs default_knobs;
	EvaluatorResult default_result;
	const Calibration *calibration; /* NULL: no predicted milliseconds */
	int best_clamped;		/* TUNER_DISCOVERY_CLAMPED_* of the best point; -1: not a
					 * discovery-rule search */
	guint clamped_evaluations;	/* evaluations a rule clamped (when best_clamped >= 0) */
	const char *extra_column;	/* NULL: no extra history column */
	ResultsColumnFn extra;
	void *extra_ctx;
} Results;

double results_improvement_pct(const Results *r);

/* The human summary (several lines, ends with a newline). */
char *results_text(const Results *r, bool apply);

/* result.json, pretty printed, ends with a newline. */
char *results_json(const Results *r, bool apply);

/* history.csv as described above. */
char *results_history_csv(const Results *r);

/* Creates dir if needed and writes dir/history.csv and dir/result.json; false with an error naming
 * the file. */
bool results_write(const Results *r, const char *dir, bool apply, GError **error);

/* The knobs of set in k as a JSON object { latency_ns, min_granularity_ns, ... }, the form every
 * result file of the tuner uses. */
void results_json_knobs(struct json_writer *w, const Knobs *k, KnobSet set);

/*
 * The shell commands that set the knobs of set to k on a live kernel, one per line: sysctl -w for
 * kernels before 5.13 (only knobs that had a sysctl, none once base_slice is in the set), writes to
 * /sys/kernel/debug/sched for the kernels whose debugfs has them (as root), and for CFS's knobs a
 * note that 6.6+ (EEVDF) has none of them.
 */
char *results_apply_commands(const Knobs *k, KnobSet set);

#endif
