/*
 * calibration_io.h -- the calibration record: what was measured, the fitted mapping from
 * simulated jiffies to real milliseconds, and the files that keep them.
 *
 * `tuner calibrate` (SPEC.md §5) runs the real benchmark for several group counts (several runs
 * each), simulates the same workloads, and fits real_ms = a + b * sim_jiffies. This module holds
 * the result and writes it where a person and the tuner can read it:
 *
 *   DIR/calibration.csv   one row per group count (per knob setting and group count, when the
 *       calibration spans settings), for plots and for the reader:
 *       groups,sim_jiffies,real_mean_ms,real_sd_ms,predicted_ms,residual_ms,runs,
 *       sim_switches,real_switches
 *       "runs" lists every real run in ms, separated by ';' (so the row stays one field each);
 *       sim_switches is the simulation's context switches, real_switches the median of the real
 *       runs' (both counted per task, see realbench.h; in the VM the guest's /proc/stat), empty
 *       when not counted. With settings, seven more columns: setting (its id),
 *       real_x_defaults, real_x_defaults_lo, real_x_defaults_hi (the geometric mean over the rounds
 *       of the run's time over the defaults' at the same group count in the same round, with its
 *       95 % interval), sim_x_defaults (the same ratio of simulated jiffies),
 *       real_switches_x_defaults, sim_switches_x_defaults (the same for context switches).
 *   DIR/calibration_runs.csv   every real run in the order it ran, to see the machine's drift:
 *       seq,round,groups,ms,start_s,switches[,setting]
 *       start_s is when the run started, in seconds after the first measured run started (in the
 *       VM: the guest's wall time of the runs before it); switches its context switches, empty
 *       when not counted.
 *   DIR/calibration.ini   the summary the tuner loads (GKeyFile):
 *       [calibration] model (fsm|bootstrap), workload (free text), date (ISO 8601 UTC),
 *                     kernel (uname -r), cpus, loops, mode (threads|processes),
 *                     groups (the group counts measured, ';'-separated),
 *                     order (rounds|blocks, see run_order.h), seed, warmup_s (seconds of
 *                     unrecorded runs before the first measured one); these three are optional
 *                     when reading, for files written before they existed; and, optional,
 *                     blocks (additive|proportional: how the rounds were netted out of the pure
 *                     error, regression.h), source (host|vm) and settings (the knob settings'
 *                     ids, ';'-separated)
 *       [fit]         a, b (real_ms = a + b * sim_jiffies), se_a, se_b, r2, adj_r2, rse (ms),
 *                     f, f_p, loo_mape (percent), n (points fitted); and, optional when
 *                     reading, the lack-of-fit test against the repeats' spread (regression.h):
 *                     lof_f, lof_p, pe_sd (ms), pe_df, r2_ceiling, repeats_for_r2_99; r2_groups;
 *                     and with settings r2_group_means, r2_within_groups
 *   DIR/bootstrap.ini     the inputs of the bootstrapped task model (SPEC.md §4), group
 *                     [bootstrap]: solo_ms, degradation, loops, mode, date.
 *
 * Every file is written to a temporary file in DIR and renamed over the old one
 * (g_file_set_contents), so a reader never sees half a file; DIR is created with its parents.
 * Floating-point values in the .ini files are written with enough digits to read back the same
 * double; the CSV uses 10 significant digits, plenty for plots. Numbers are always written with
 * '.', whatever the locale.
 *
 * Errors (CALIBRATION_ERROR) are one line naming the directory or file, and for a key file the
 * group and key: "results/calibration.ini: missing key 'b' in [fit]".
 *
 * Ownership: a Calibration or CalibrationBootstrap belongs to the caller and is freed with its
 * _free function, which also frees every string and array it holds. Fields are public: set or
 * replace them freely (strings with g_free + g_strdup).
 */
#ifndef TUNER_CALIBRATION_IO_H
#define TUNER_CALIBRATION_IO_H

#include <glib.h>

#include "tuner/calib/bench_kind.h"
#include "tuner/stats/run_order.h"

G_BEGIN_DECLS

#define CALIBRATION_ERROR (calibration_error_quark())

#define CALIBRATION_CSV_NAME	   "calibration.csv"
#define CALIBRATION_INI_NAME	   "calibration.ini"
#define CALIBRATION_RUNS_NAME	   "calibration_runs.csv"
#define CALIBRATION_BOOTSTRAP_NAME "bootstrap.ini"

typedef enum {
	CALIBRATION_ERROR_IO,	       /* a directory or file cannot be created, written or read */
	CALIBRATION_ERROR_SYNTAX,      /* a file is not a valid key file */
	CALIBRATION_ERROR_MISSING_KEY, /* a required group or key is absent */
	CALIBRATION_ERROR_BAD_VALUE,   /* a key's value has the wrong type or is out of range */
	CALIBRATION_ERROR_FIT,	       /* the points cannot be fitted (see regression.h) */
} CalibrationError;

/* Which task model produced the simulated jiffies. */
typedef enum {
	CALIBRATION_MODEL_FSM,	     /* hackbench as finite-state-machine tasks */
	CALIBRATION_MODEL_BOOTSTRAP, /* hackbench as bootstrapped tasks */
} CalibrationModel;

/* One group count: its simulated and real runtimes. */
typedef struct {
	guint groups;	    /* hackbench groups */
	double sim_jiffies; /* simulated turnaround, jiffies (fractional for a mean of replicates) */
	GArray *real_ms;    /* double: each real run's time, ms (owned) */
	double real_mean_ms; /* mean of real_ms */
	double real_sd_ms;   /* sample standard deviation of real_ms (n - 1); 0 for a single run */
	double predicted_ms; /* a + b * sim_jiffies after calibration_fit; NaN before */
	double residual_ms;  /* real_mean_ms - predicted_ms after calibration_fit; NaN before */
	/* Context switches (realbench.h: every time a task left a CPU): the simulation's, and the
	 * median of the real runs' (the runs vary, and the median resists the odd one); NaN until
	 * calibration_set_switches. */
	double sim_switches;
	double real_switches;
	/* With knob settings (cal->settings not empty; NaN otherwise): which, and how the point
	 * compares with the defaults' point of the same group count, real (the geometric mean over
	 * the rounds of the paired ratios, with its 95 % interval) and simulated. */
	guint setting; /* an index into cal->settings */
	double real_x_defaults, real_x_defaults_lo, real_x_defaults_hi, sim_x_defaults;
	double real_switches_x_defaults, sim_switches_x_defaults;
} CalibrationPoint;

/* The fitted line and its statistics, as in Regression (regression.h). */
typedef struct {
	double a; /* intercept, ms */
	double b; /* slope, ms per jiffy */
	double se_a, se_b;
	double t_a, t_b; /* t values: estimate / standard error */
	double p_a, p_b; /* their two-sided p-values (n - 2 df); computed again when read back, as
			  * they follow from a, b, their standard errors and n */
	double r2, adj_r2;
	double rse;	 /* residual standard error, ms */
	double f, f_p;	 /* F statistic of the slope and its p-value */
	double loo_mape; /* leave-one-out mean absolute percent error, percent */
	guint n;	 /* points fitted */
	/* The lack-of-fit test against the runs' own spread (regression.h); NaN without repeats. */
	double lof_f, lof_p;
	double pe_sd;	   /* standard deviation of one real run (pure error), ms */
	double pe_df;	   /* its degrees of freedom (the lack-of-fit F's second) */
	double r2_ceiling; /* the R² a line of exactly the right shape should expect on these means */
	double repeats_for_r2_99; /* repeats per group count for that expectation to reach 0.99, the
                               * literature's FSM calibration (SPEC.md §5); +inf: never */
	double r2_groups; /* R² of the same means against the group count alone: the null model. A
                       * simulator that explains no more than this has shown nothing the group
                       * count did not; NaN when the group counts are all equal */
	/* With several knob settings (NaN otherwise): */
	double r2_group_means;	 /* R² of each group count's mean of its points: the most any model
				  * that ignores the knobs can explain */
	double r2_within_groups; /* what the fit explains of how the settings differ at the same group
				  * count: 1 - Σ ((ȳ - ȳ_g) - (ŷ - ŷ_g))² / Σ (ȳ - ȳ_g)², where _g is
				  * the mean over the points of that group count; below 0 when the
				  * simulated differences point the wrong way */
} CalibrationFit;

/* One real run, as it happened. */
typedef struct {
	guint seq;	 /* 0-based position in the order the runs were made */
	guint round;	 /* 0-based repeat number among its group count's runs */
	guint groups;	 /* hackbench groups */
	double ms;	 /* its time, ms */
	double start_s;	 /* when it started, seconds after the first measured run started */
	double switches; /* its context switches (realbench.h); NaN when not counted */
	guint setting;	 /* an index into cal->settings (0 when there are none) */
} CalibrationRun;

/* How the real runs were made: their order and the warm-up before them. */
typedef struct {
	RunOrder order;
	guint seed;	       /* the shuffle's seed (RUN_ORDER_ROUNDS) */
	double warmup_s;       /* seconds of unrecorded runs before the first measured one */
	gboolean proportional; /* rounds are proportional blocks, not additive (regression.h) */
} CalibrationProtocol;

/* A calibration: the record of `tuner calibrate`. */
typedef struct {
	CalibrationModel model;
	gchar *workload; /* free description, e.g. "hackbench sockets, 20+20 tasks per group" */
	gchar *date;	 /* when it was measured, ISO 8601 UTC ("2025-01-31T12:00:00Z") */
	gchar *kernel;	 /* kernel release the real runs ran on */
	guint cpus;	 /* CPUs available to the real runs */
	guint loops;	 /* hackbench loops */
	RealbenchTasks mode;
	GArray *groups; /* guint: the group counts measured, in point order */
	GArray *points; /* CalibrationPoint; empty in a Calibration read back from the .ini */
	GArray *runs;	/* CalibrationRun in the order they ran, possibly more group counts than
                         * points (the bootstrapped model's inputs); empty when read back */
	gchar *source;	/* where the real runs ran: "host" (this machine) or "vm" */
	GPtrArray *settings; /* char *: the knob settings' ids when the calibration spans several
			      * (calibrate --real vm --settings); empty: the machine's own knobs */
	CalibrationProtocol protocol; /* rounds, seed 1, no warm-up unless set */
	CalibrationFit fit;	      /* all NaN (n = 0) until calibration_fit */
} Calibration;

/* The inputs of the bootstrapped task model (SPEC.md §4), measured on real runs. */
typedef struct {
	double solo_ms;	    /* real runtime of one group alone, ms (> 0) */
	double degradation; /* RuntimeAlone / RuntimeCombined: one group's runtime alone divided by
                         * its runtime with a second group running beside it (> 0) */
	guint loops;	    /* hackbench loops of those runs */
	RealbenchTasks mode;
	gchar *date; /* ISO 8601 UTC */
} CalibrationBootstrap;

/* The error domain of this module. */
GQuark calibration_error_quark(void);

/* "fsm" or "bootstrap". */
const char *calibration_model_name(CalibrationModel model);

/* Parse "fsm" or "bootstrap" into *model_out; FALSE (and *model_out untouched) otherwise. */
gboolean calibration_model_from_name(const char *name, CalibrationModel *model_out);

/* The current time as ISO 8601 UTC with whole seconds, e.g. "2025-01-31T12:00:00Z". */
gchar *calibration_now_iso8601(void);

/* A new, empty calibration of this machine, now: date, kernel and cpus are filled in from the
 * clock, uname and the CPU count; no points; fit all NaN. workload is copied. */
Calibration *calibration_new(CalibrationModel model, const char *workload, guint loops,
			     RealbenchTasks mode);

/* Free a calibration, its strings, points and their runs. NULL is allowed. */
void calibration_free(Calibration *cal);

/* Append a point: groups, the simulated turnaround, and the n_runs >= 1 real runtimes (copied).
 * Computes their mean and sample standard deviation; predicted and residual stay NaN until
 * calibration_fit. Also appends groups to cal->groups. */
void calibration_add_point(Calibration *cal, guint groups, double sim_jiffies,
			   const double *real_ms, gsize n_runs);

/* Adds a knob setting's id (copied); returns its index. */
guint calibration_add_setting(Calibration *cal, const char *id);

/* Point i's context switches: the simulation's, and the median of the n >= 1 real runs'. */
void calibration_set_switches(Calibration *cal, guint i, double sim_switches,
			      const double *real_switches, gsize n);

/* Append one run to cal->runs (copied), for DIR/calibration_runs.csv. */
void calibration_add_run(Calibration *cal, const CalibrationRun *run);

/* Fit real_mean_ms = a + b * sim_jiffies over the points (regression_fit), store the fit and
 * each point's predicted and residual. FALSE with CALIBRATION_ERROR_FIT when the regression
 * refuses (fewer than 3 points, all sim_jiffies equal, a value not finite). */
gboolean calibration_fit(Calibration *cal, GError **error);

/* The predicted real runtime, ms, of a workload that simulates in sim_jiffies: a + b * jiffies. */
double calibration_predict_ms(const Calibration *cal, double sim_jiffies);

/* Write DIR/calibration.csv, DIR/calibration_runs.csv (when there are runs) and
 * DIR/calibration.ini, creating DIR and its parents if needed.
 * FALSE with CALIBRATION_ERROR_IO naming the directory or file that could not be made.
 * An unfitted calibration is written too (its measurements are worth keeping), with NaN in
 * [fit], which calibration_read then refuses. */
gboolean calibration_write(const Calibration *cal, const char *dir, GError **error);

/* Read a calibration.ini written by calibration_write (path is the file itself). Returns a new
 * Calibration with no points, or NULL with an error naming the file and, for a missing or bad
 * key, the group and key. Every key listed above is required; a and b must be finite. */
Calibration *calibration_read(const char *path, GError **error);

/* Write DIR/bootstrap.ini, creating DIR if needed. FALSE with CALIBRATION_ERROR_BAD_VALUE when
 * solo_ms or degradation is not a positive finite number, or loops is 0, and with
 * CALIBRATION_ERROR_IO when the directory or file cannot be made. */
gboolean calibration_bootstrap_write(const CalibrationBootstrap *boot, const char *dir,
				     GError **error);

/* Free a CalibrationBootstrap and its date. NULL is allowed. */
void calibration_bootstrap_free(CalibrationBootstrap *boot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Calibration, calibration_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CalibrationBootstrap, calibration_bootstrap_free)

G_END_DECLS

#endif /* TUNER_CALIBRATION_IO_H */
