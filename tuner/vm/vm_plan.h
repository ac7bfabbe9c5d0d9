/*
 * vm_plan.h - the plan one boot of the real-kernel VM runs (vm/README.md, "Guest protocol").
 *
 * A plan is a list of knob settings, one or more benchmark commands (workloads: `tuner calibrate
 * --real vm` runs one per group count) and a number of rounds. Each round runs every setting with
 * every command once, in an order shuffled afresh for the round (SPEC.md §7: under emulation only
 * comparisons inside one boot hold, and a fresh order per round keeps slow spells of the host from
 * biasing one setting). The first setting is the reference that the others are divided by, round by
 * round and command by command: by convention the kernel's defaults.
 *
 * The order is decided here, on the host, from a seed with GSL's MT19937, so that a plan is
 * reproducible and the guest only follows it. The plan reaches the guest as a file `/plan` in a
 * second cpio archive appended to the initramfs (the kernel command line holds only 2048 bytes).
 *
 * Ownership: a VmPlan is the caller's (vm_plan_free); it copies what it is given.
 */
#ifndef TUNER_VM_VM_PLAN_H
#define TUNER_VM_VM_PLAN_H

#include <glib.h>

#include "tuner/knobs/knobs.h"

G_BEGIN_DECLS

#define VM_PLAN_ERROR (vm_plan_error_quark())
GQuark vm_plan_error_quark(void);

typedef enum {
	VM_PLAN_ERROR_INPUT, /* no setting, no round, a bad setting id or command */
} VmPlanError;

/* One knob setting of a plan. */
typedef struct {
	char *id; /* [A-Za-z0-9._-]+, unique in the plan */
	Knobs knobs;
} VmSetting;

/* One run: setting `setting` (an index into the plan's settings) with command `command` in round
 * `round`. */
typedef struct {
	guint seq; /* position in the plan, from 0 */
	guint round;
	guint setting;
	guint command;	/* an index into the plan's commands */
	gboolean trace; /* record sched_switch and sched_wakeup during the run */
} VmRun;

typedef struct {
	GArray *settings;    /* VmSetting; [0] is the reference */
	GPtrArray *commands; /* char *, run by the guest's sh -c, e.g. "hackbench -T -g 5 -l 100" */
	guint rounds;
	guint64 seed;
	GArray *runs; /* VmRun, in the order the guest runs them */
} VmPlan;

/*
 * A plan of n settings (settings[0] the reference) x rounds with one command, each round in its
 * own seeded shuffle. Fails with VM_PLAN_ERROR_INPUT naming the problem: n = 0, rounds = 0, an id
 * that is empty, has other characters than [A-Za-z0-9._-] or repeats, a command that is empty or
 * holds a newline.
 */
VmPlan *vm_plan_new(const VmSetting *settings, guint n, const char *command, guint rounds,
		    guint64 seed, GError **error);

/*
 * A plan of n settings x n_commands commands x rounds: each round runs every (setting, command)
 * pair once, all of them shuffled together, so that no setting or workload gets a slow spell of
 * its own. With one command it is vm_plan_new's plan, shuffle included. Errors as vm_plan_new's,
 * and no command.
 */
VmPlan *vm_plan_new_grid(const VmSetting *settings, guint n, const char *const *commands,
			 guint n_commands, guint rounds, guint64 seed, GError **error);
void vm_plan_free(VmPlan *plan);

/* The command of a run. */
const char *vm_plan_command(const VmPlan *plan, const VmRun *run);

/* Mark every run of setting index `setting` in round `round` (with every command) to be traced. */
void vm_plan_trace(VmPlan *plan, guint setting, guint round);

const VmSetting *vm_plan_setting(const VmPlan *plan, guint i);
/* The index of the setting with this id, or -1. */
gint vm_plan_find_setting(const VmPlan *plan, const char *id);

/* The plan file: "LST-PLAN 1", a comment naming the columns, one line per run. */
char *vm_plan_text(const VmPlan *plan);

/* A cpio archive (newc format, no compression) holding the plan file as "plan". */
GBytes *vm_plan_cpio(const VmPlan *plan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(VmPlan, vm_plan_free)

G_END_DECLS

#endif
