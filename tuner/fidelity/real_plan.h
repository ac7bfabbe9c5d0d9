/*
 * real_plan.h - a plan measured on a real kernel, read back and summarised per knob setting: the
 * real side of a fidelity comparison (SPEC.md §7).
 *
 * Input: the CSV of one or more boots that ran a plan, one row per run, in either of the two
 * forms the project writes:
 *   vm/lines-to-csv.sh   seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,
 *                        migration_cost_ns,seconds,wall_s,ctxt,rc,knobs
 *   --objective vm       [boot,]seq,round,setting,latency_ns,min_granularity_ns,
 *                        wakeup_granularity_ns,seconds,ctxt,rc   (DIR/vm/runs.csv, with boot;
 *                        DIR/vm/boot-NNN/runs.csv, without)
 * Columns are found by name; round, setting, the three knobs, seconds, ctxt and rc are needed,
 * boot, migration_cost_ns, knobs, steal_ppm and stall_ns (the steal the host measured during the
 * run, vm_steal.h; empty or -1 when it could not), and guest_stall_ppm, guest_stall_ns and
 * guest_stall_cv_pct (the stalls the guest itself saw on its busy CPUs just before the run:
 * vm/make-plan.sh -n; all three or none) and parent_flips (the wakee_flips the workload's
 * children inherited at their forks, as the guest recorded them: vm/lines-to-csv.sh; empty or
 * -1 when it did not), fork_flips (every child's, in fork order, separated by ";") and
 * shared_pct (the share of the run, 0 to 100, in which the host had the runnable vCPU threads
 * share host CPUs: vm/run-plan.sh; empty or -1 when it did not see) are read when present. Fields are never quoted.
 *
 * A run counts when rc is 0, its knobs read back as written (knobs "ok", when the column is
 * there) and it has a time; the others are counted in `dropped`. A setting is its knobs (the
 * values read back): runs of one setting in different boots are pooled even when the boots named
 * it differently (--objective vm calls every batch's settings s1, s2, ...). Its name is the first
 * one seen. The reference is the setting named `reference` (default "defaults"); a round is a
 * (boot, round) pair, and only runs of the same round are compared (under emulation the host's
 * speed drifts: SPEC.md §7).
 *
 * Per setting, over the rounds where it and the reference both have a run:
 *   ratio r_i = seconds / the reference's seconds in round i
 *   median ratio, with the distribution-free interval of order statistics [r_(j), r_(n+1-j)],
 *       j the largest with P(B < j) <= 2.5 %, B ~ Bin(n, 1/2): coverage 1 - 2 P(B <= j - 1),
 *       at least 95 % (n = 12: [r_(3), r_(10)], 96.1 %; n = 6: [min, max], 96.9 %; below n = 6
 *       there is none, NaN); vm/summarize.sh prints the same
 *   paired statistics of ln r_i (tuner/stats/paired.h): the Student t interval of the mean log
 *       ratio, the geometric-mean ratio and the exact sign test
 *   median context switches over all its runs (/proc/stat ctxt: every switch on every CPU of
 *       the guest during the command, set-up and other tasks included), and the median
 *       within-round ratio of switches
 *
 * Rows follow `order` when given (setting names, e.g. the first words of vm/data/settings-12.txt;
 * a name that is not in the plan is skipped), the reference first otherwise, then the rest in the
 * order of the CSV (seq order, as the guest ran them).
 *
 * Errors (REAL_PLAN_ERROR) are one line naming the file and the line: "runs.csv:1: no column
 * 'ctxt'", "runs.csv:7: 11 fields, the header has 12", "runs.csv:7: seconds: 'x' is not a
 * number", "runs.csv:9: a second run of setting wake0 in round 3", "runs.csv: no run of the
 * reference setting 'defaults'".
 *
 * Ownership: a RealPlan is the caller's (real_plan_free); it owns everything in it.
 */
#ifndef TUNER_FIDELITY_REAL_PLAN_H
#define TUNER_FIDELITY_REAL_PLAN_H

#include <glib.h>

#include "tuner/knobs/knobs.h"
#include "tuner/stats/paired.h"

G_BEGIN_DECLS

#define REAL_PLAN_ERROR (real_plan_error_quark())
GQuark real_plan_error_quark(void);

typedef enum {
	REAL_PLAN_ERROR_IO,    /* the file cannot be read */
	REAL_PLAN_ERROR_INPUT, /* it does not parse, or holds no usable comparison */
} RealPlanError;

/* The level of every interval. */
#define REAL_PLAN_LEVEL 0.95

/* Stalls the guest saw (make-plan.sh -n): their share of the time in parts per million, mean
 * length and coefficient of variation in percent; ppm -1: not measured. */
typedef struct {
	gint64 ppm, ns, cv_pct;
} RealStalls;

/* The wakee_flips a run's children inherited at their forks, in fork order (n 0: no record). */
typedef struct {
	guint n;
	guint *flips;
} RealForks;

/* One setting of a real plan, its runs summarised. */
typedef struct {
	char *id;		  /* the plan's name for it (the first one seen) */
	Knobs knobs;		  /* as read back */
	gint64 migration_cost_ns; /* -1: not in the CSV */
	gboolean reference;
	guint runs;	/* runs that count */
	guint pairs;	/* rounds where it and the reference both have a run */
	double *ratios; /* [pairs] within-round time ratios, in round order */
	double median_ratio;
	double ratio_lo, ratio_hi; /* order-statistics interval of the median; NaN if pairs < 6 */
	double ratio_coverage;	   /* its exact coverage, e.g. 0.961; NaN without one */
	PairedStats log;	   /* paired t and sign test on ln ratio; log.n = 0 if pairs = 0 */
	double median_seconds;
	double median_ctxt;	  /* NaN when no run has a count */
	double median_ctxt_ratio; /* within-round switches / the reference's; NaN if none */
	/* [plan->rounds], the rounds in order: whether the setting has a run that counts in round
	 * k, and that run's steal as the host measured it (-1: not measured). */
	gboolean *in_round;
	gint64 *round_steal_ppm, *round_stall_ns;
	gint64 *round_shared_pct;   /* [plan->rounds]: the run's shared_pct; -1: not measured */
	RealStalls *round_guest;    /* [plan->rounds]: the stalls the guest saw before that run */
	gint64 *round_parent_flips; /* [plan->rounds]: the flips its workers inherited; -1 */
	RealForks *round_forks;	    /* [plan->rounds]: each worker's, when recorded */
} RealSetting;

typedef struct {
	char *path;
	char *reference;  /* the reference setting's name */
	GArray *settings; /* RealSetting */
	guint reference_index;
	guint rounds;  /* distinct (boot, round) with at least one run that counts */
	guint boots;   /* distinct boots (1 without a boot column) */
	guint dropped; /* runs that do not count: rc != 0, knobs not ok, no time */
	/* The steal the host measured, medians over the runs that count and have it (NaN, and
	 * steal_runs 0, when none has): what a simulation of the plan should suffer too. */
	guint steal_runs;
	double steal_ppm, stall_ns;
	/* The share of the time the vCPU threads shared host CPUs, likewise (shared_runs 0 when
	 * no run has it). */
	guint shared_runs;
	double shared_pct;
	/* The same of the stalls the guest saw (guest_runs 0 when no run has them). */
	guint guest_runs;
	double guest_ppm, guest_ns, guest_cv_pct;
	/* The workers' inherited flips, median over the runs that count and have them (NaN, and
	 * flips_runs 0, when none has). */
	guint flips_runs;
	double parent_flips;
} RealPlan;

/* Reads and summarises path. reference NULL: "defaults". order: NULL, or setting names. */
RealPlan *real_plan_read(const char *path, const char *reference, const char *const *order,
			 GError **error);
void real_plan_free(RealPlan *plan);

static inline const RealSetting *real_plan_setting(const RealPlan *plan, guint i)
{
	return &g_array_index(plan->settings, RealSetting, i);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(RealPlan, real_plan_free)

G_END_DECLS

#endif
