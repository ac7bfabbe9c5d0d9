/*
 * plan_set.h - the real plans a fidelity report or a fit works on: which CSV, which workload ran
 * in it, and whether it trains the model or tests it.
 *
 * A plan set is a key file (GKeyFile), one group per plan, the group's name naming the plan:
 *
 *   # vm/data/plans.ini
 *   [T-g5-l100]
 *   csv=real-6.1-T-g5-l100.csv          the runs (real_plan.h); relative to this file
 *   workload=hackbench -T -g 5 -l 100   the command the guest ran (see below)
 *   role=train                          train (the fit uses it) or test (held out; the default)
 *   order=settings-12.txt               optional: rows in the order of this settings file (the
 *                                       input of vm/make-plan.sh: its lines' first words)
 *   reference=defaults                  optional: the setting every round is divided by
 *   stall_cv_pct=175                    optional: the coefficient of variation of the host's
 *                                       stalls while the plan ran, in per cent (1..1000), for
 *                                       its twins in place of the machine's stall_cv_pct: the
 *                                       CSV has each run's steal and mean stall, not their
 *                                       spread, which takes a trace of the host (vm/README.md,
 *                                       "A load of one's own")
 *   host_hz=250                         optional: the host switched the vCPUs at its ticks of
 *                                       this HZ (beside busy loops, as `tuner stalls --host-hz`
 *                                       shows): the twins suffer their host's steal on that grid
 *                                       (linsched --host-hz), and --steal's or --host-cpus's
 *                                       stalls, which replace them, too, unless --host-hz is
 *                                       given
 *   host_lead_ns=200000                 optional, with host_hz: how long before the guest's ticks
 *                                       the host's came (default 0)
 *   preempt=full                        optional: the kernel's preemption model during the plan
 *                                       (full, voluntary or none, as the guest's
 *                                       /sys/kernel/debug/sched/preempt set it): the twins run
 *                                       with it unless --preempt is given (default: the
 *                                       machine's)
 *   parent_flips=10                     optional: the wakee_flips hackbench's parent forked its
 *                                       workers with, where the guest knew them (runs started
 *                                       through `linsched launch`, forks traced: vm/data/flips/):
 *                                       the twins' parent (--start parent) starts with them,
 *                                       unless --parent-flips is given (0..1000)
 *
 * The workload is rt-tests' hackbench command line: -g/--groups N (default 10), -l/--loops N
 * (100), -f/--fds N (20), -s/--datasize N (100), -p/--pipe, -T/--threads, -P/--process (the
 * default), as getopt reads them (-g5, -Tp, --groups=5). Any other option is refused: the
 * simulator would not run what the real kernel ran.
 *
 * Errors (PLAN_SET_ERROR) are one line naming the file, and the plan and key where there is one:
 * "plans.ini: [T] workload: -F is not an option of hackbench the simulator models".
 *
 * Ownership: a PlanSet is the caller's (plan_set_free); it owns its plans and their real data.
 */
#ifndef TUNER_FIDELITY_PLAN_SET_H
#define TUNER_FIDELITY_PLAN_SET_H

#include <glib.h>

#include "tuner/fidelity/real_plan.h"

G_BEGIN_DECLS

#define PLAN_SET_ERROR (plan_set_error_quark())
GQuark plan_set_error_quark(void);

typedef enum {
	PLAN_SET_ERROR_IO,    /* the key file cannot be read */
	PLAN_SET_ERROR_INPUT, /* it, or a plan's CSV, is malformed */
} PlanSetError;

/* What a hackbench command line asks for. */
typedef struct {
	guint groups, loops, fds, datasize;
	gboolean pipe, threads;
} HackbenchCommand;

typedef enum {
	PLAN_ROLE_TRAIN,
	PLAN_ROLE_TEST,
} PlanRole;

typedef struct {
	char *name;	/* the group's name */
	char *csv;	/* resolved against the key file's directory */
	char *workload; /* the command, as given */
	HackbenchCommand hb;
	PlanRole role;
	double stall_cv_pct;   /* the host's stall CV during the plan, per cent; NaN: not given */
	unsigned int host_hz;  /* the host's tick its stalls came on; 0: at random moments */
	uint64_t host_lead_ns; /* with host_hz: how long before the guest's ticks the host's came */
	int parent_flips;      /* the wakee_flips the real parent started with; -1: not known */
	char *preempt;	       /* the preemption model it ran under; NULL: the machine's */
	RealPlan *real;
} PlanSpec;

typedef struct {
	char *path;	  /* the key file; NULL for a set made with plan_set_add */
	GPtrArray *plans; /* PlanSpec * */
} PlanSet;

/* Reads the key file and every plan's CSV. */
PlanSet *plan_set_read(const char *path, GError **error);
/* An empty set, for plan_set_add. */
PlanSet *plan_set_new(void);
/* Adds one plan read from csv: the single-plan form of the commands (--csv, --workload). */
gboolean plan_set_add(PlanSet *set, const char *name, const char *csv, const char *workload,
		      PlanRole role, const char *reference, GError **error);
void plan_set_free(PlanSet *set);

static inline const PlanSpec *plan_set_plan(const PlanSet *set, guint i)
{
	return set->plans->pdata[i];
}

/* How many plans have this role. */
guint plan_set_count(const PlanSet *set, PlanRole role);

const char *plan_role_name(PlanRole role);

/* Parses a hackbench command line; the error says which word is wrong. */
gboolean hackbench_command_parse(const char *command, HackbenchCommand *out, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(PlanSet, plan_set_free)

G_END_DECLS

#endif
