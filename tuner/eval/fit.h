/*
 * fit.h - fit the model's free parameters to real plans (SPEC.md §7, issue 13 item 4): what
 * `tuner fit` does.
 *
 * The parameters are whole-number fields of the machine (linsched/machine.h) that the simulation
 * reads: a context switch's, a wakeup's, a message's costs, the cache's miss cost, the tasks'
 * footprint... FitParam's table (fit.c) names each: its name on the command line, its key in
 * machine.ini, the widest range a fit may give it, the flag that would override it. To let the fit
 * vary a new model parameter, give it a machine.ini key (linsched/machine.[ch]) and a row in the
 * table.
 *
 * The loss (fidelity.h's FidelityLoss, per plan) of a set of values is the mean over the training
 * plans of
 *   time_weight   * mean over settings of (ln simulated ratio    - ln real median ratio)^2
 * + switch_weight * mean over settings of (ln simulated switches - ln real median switches)^2
 * + seconds_weight * (ln simulated seconds - ln real median seconds, at the reference)^2
 * + line_weight and ref_switch_weight's terms (fidelity.h)
 * with the plans' settings simulated on the base machine with those values (tuner/eval/
 * plan_sim.h). The second term compares counts, not ratios: the switches' scale is fitted as well
 * as their ranking.
 *
 * The search (fit_run): GSL's Nelder-Mead simplex on the logarithms of the values
 * (tuner/optim/multistart_nm.h), from the base machine's values and then from `starts - 1` points
 * drawn uniformly (seeded) in the box: each parameter within a factor `range` of its base value,
 * cut to its table range. Values are rounded to whole numbers before they are simulated, and a
 * loss is computed once per distinct rounded vector. Deterministic for a seed: simulations are
 * deterministic, whatever the number of threads.
 *
 * Resuming (fit_journal.h): with a journal, every loss computed is appended to it at once (but a
 * loss of +inf, a simulation that failed), and a loss it holds is read instead of simulated. A
 * rerun of a killed fit with the same settings and options therefore replays the same path
 * without simulating, and ends as the uninterrupted fit would have, bit for bit.
 */
#ifndef TUNER_EVAL_FIT_H
#define TUNER_EVAL_FIT_H

#include <glib.h>

#include "linsched/machine.h"
#include "tuner/eval/fit_journal.h"
#include "tuner/eval/plan_sim.h"
#include "tuner/fidelity/fidelity.h"

G_BEGIN_DECLS

typedef struct {
	const char *name;	 /* on the command line: --param NAME */
	const char *group, *key; /* in machine.ini */
	size_t offset;		 /* of its uint64_t in struct linsched_machine */
	double lo, hi;		 /* the widest range a fit may give it, > 0 (log scale) */
	const char *flag;	 /* the flag that overrides the machine's value */
	size_t flag_offset;	 /* of that flag's value in struct workload_cli */
	const char *help;
} FitParam;

/* The table, *n rows. */
const FitParam *fit_params(guint *n);
const FitParam *fit_param_find(const char *name);
/* "thread_switch, process_switch, ...": for help and errors. */
char *fit_param_names(void);

/* The parameter's value on machine m (a 0 that stands for another value, such as
 * wakeup_remote_ns's, is that value). */
double fit_param_get(const FitParam *p, const struct linsched_machine *m);
/* Sets it, rounded to a whole number. */
void fit_param_set(const FitParam *p, struct linsched_machine *m, double value);
/* TRUE when flags give the flag that overrides p (so fitting p would change nothing). */
gboolean fit_param_overridden(const FitParam *p, const struct workload_cli *flags);

typedef struct {
	const PlanSet *train; /* the plans the loss is computed on (borrowed) */
	PlanSim sim;
	struct linsched_machine base;
	const FitParam *const *params;
	guint n_params;
	FidelityLoss weights;
	/* NULL (fit_problem_init): none; else set by the caller, borrowed: the losses it holds
	 * are read from it, every other finite one is appended to it */
	FitJournal *journal;
	/* filled as it goes */
	GHashTable *cache;     /* rounded values -> loss */
	guint losses;	       /* distinct losses computed */
	guint from_journal;    /* distinct losses read from the journal instead */
	guint64 simulations;   /* made to compute them */
	GError *error;	       /* the first simulation that failed (its loss counts as +inf) */
	GError *journal_error; /* the first append to the journal that failed: fit_run stops */
} FitProblem;

/* A problem on base (copied), without a journal; fit_problem_clear frees what it holds. */
void fit_problem_init(FitProblem *fp, const PlanSet *train, const PlanSim *sim,
		      const struct linsched_machine *base, const FitParam *const *params, guint n,
		      const FidelityLoss *weights);
void fit_problem_clear(FitProblem *fp);

/* The machine with values (one per parameter, in their units) over the base. */
void fit_machine(const FitProblem *fp, const double *values, struct linsched_machine *out);

/* The loss at values; +inf when a simulation failed (fp->error says which). From the cache, else
 * from the journal, else simulated (and journaled). */
double fit_loss(FitProblem *fp, const double *values);

typedef struct {
	guint starts, max_iter;
	double range; /* > 1: each parameter within base / range .. base * range */
	double step;  /* the first simplex's side, as a fraction of the log box */
	double tol;   /* a start ends when its simplex's size (in ln units) is below this */
	guint64 seed;
} FitOptions;

/* One start's end. */
typedef struct {
	double loss;
	double *values; /* n_params */
	guint iters;
	gboolean converged;
} FitStart;

typedef struct {
	double *start_values, *values; /* n_params each: the base machine's, the fitted */
	double *lo, *hi;	       /* the box searched, in the parameters' units */
	double start_loss, loss;
	FitStart *starts;
	guint n_starts;
	guint losses, from_journal; /* distinct losses computed, and read from the journal */
	guint64 simulations;
} FitResult;

void fit_result_clear(FitResult *r);

/* Progress: called after every iteration with the start (from 0), its iteration and the best loss
 * so far. */
typedef void (*FitProgress)(guint start, guint iter, double best, void *ctx);

/* Fits; FALSE with an error for bad options, or the journal's (RECORD_LOG_ERROR) when an append
 * failed: the fit stops there, and a rerun resumes from what the journal holds. */
gboolean fit_run(FitProblem *fp, const FitOptions *o, FitResult *out, FitProgress progress,
		 void *ctx, GError **error);

/*
 * Writes machine m's fitted parameters into a machine.ini at path: the base file's text (NULL:
 * none, so only the fitted keys) with each fitted key set and commented as fitted by `by` (a
 * command), and comment (lines) above the rest, followed by a line naming the simulator's model
 * id (linsched/model_id.h), whose simulations the values were fitted to. Through a temporary file
 * that must load as a --machine file before it is renamed over path.
 */
gboolean fit_write_machine(const char *path, const char *base_path,
			   const struct linsched_machine *m, const struct linsched_machine *before,
			   const FitParam *const *params, guint n, const char *by,
			   const char *comment, GError **error);

G_END_DECLS

#endif
