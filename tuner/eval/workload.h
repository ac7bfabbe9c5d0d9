/*
 * workload.h - what the tuner optimises: a workload (hackbench, or --task specifications as in
 * `linsched run`), the simulator settings, and the objective that turns knobs into a turnaround.
 *
 * The objective of a knob setting is the simulated turnaround in jiffies (fractional:
 * runtime_ns * HZ / 1e9, so that the search sees differences finer than a tick), from the start
 * barrier's release to the last exit. It is thread safe: each call builds its own simulation.
 *
 * Commands add the flags with workload_option_groups() and build the workload with
 * workload_finish(). The settings string names everything that changes a value, so a journal
 * written for another workload is refused.
 */
#ifndef TUNER_WORKLOAD_H
#define TUNER_WORKLOAD_H

#include <stdbool.h>

#include <glib.h>

#include "linsched/cli/cli.h"
#include "linsched/cli/hackbench_cli.h"
#include "tasks/hackbench.h"
#include "tasks/tasks.h"
#include "tuner/calib/calibration_io.h"
#include "tuner/eval/journal.h"

struct workload_cli {
	struct linsched_cli sim;
	struct hackbench_cli hb;
	char **tasks;	    /* --task, as in linsched run */
	gint64 duration_ms; /* --task workloads: give up after this much virtual time */
	char *calibration;  /* --calibration FILE */
	struct flag_set flags;
};

struct workload {
	bool hackbench; /* else the --task specifications */
	struct hackbench_params hb;
	GArray *tasks;		    /* struct task_spec */
	struct linsched_config cfg; /* knobs at the profile's defaults for the CPUs */
	KnobSet knobs;		    /* what workload_simulate takes from its Knobs (default: the
				     * profile's own, knob_set_default); cfg.tun keeps the others */
	Calibration *calibration;   /* NULL: no real-time prediction */
	char *settings;		    /* canonical description, for journals */
	unsigned int nr_tasks;
};

void workload_cli_init(struct workload_cli *wc);
void workload_cli_clear(struct workload_cli *wc);
/* Adds the workload and simulation groups to ctx. */
void workload_add_options(struct workload_cli *wc, GOptionContext *ctx);
/* Fills wc (fresh from workload_cli_init) from the NULL-terminated flags args, as a command line
 * would: for programs that build a workload themselves. FALSE with the parser's error. */
bool workload_cli_parse(struct workload_cli *wc, const char *const *args, GError **error);
/* Validates the flags and fills w; false with a one-line error naming the flag. */
bool workload_finish(const struct workload_cli *wc, struct workload *w, GError **error);
void workload_clear(struct workload *w);

/* The knobs as the profile sets them at boot on this many CPUs; migration_cost and base_slice as
 * the workload's flags set them (--migration-cost-ns, --base-slice-ns; else the profile's). */
Knobs workload_default_knobs(const struct workload *w);

/* One simulation at knobs k with the given seed: its turnaround in jiffies. Thread safe. */
bool workload_simulate(const struct workload *w, const Knobs *k, guint64 seed, double *jiffies,
		       GError **error);

/* The evaluator's objective; ctx is a const struct workload *. */
gboolean workload_objective(const Knobs *k, guint64 seed, double *value, void *ctx, GError **error);

/* Predicted real milliseconds for a turnaround, or NaN without a calibration. */
double workload_predict_ms(const struct workload *w, double jiffies);

#endif
