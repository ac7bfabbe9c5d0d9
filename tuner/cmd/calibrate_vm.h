/*
 * calibrate_vm.h - `tuner calibrate --real vm`: the real runs of a calibration from Debian's 6.1
 * kernel in a VM, over knob settings as well as group counts (cmd_calibrate.c has the flags and
 * the fit).
 *
 * The experiment is one plan in one boot (vm_objective_measure_grid): every knob setting with every
 * group count, once per round, all shuffled together in each round, the defaults (the reference,
 * settings[0]) at every group count. One boot, because the guest's speed differs between boots by
 * up to 2x: a line fitted to points of different boots would fit the host's moods. Inside the boot
 * the rounds are blocks: a round runs every point once, so a slow round moves every point's mean
 * alike (by the same factor: the VM's slowness multiplies), which the line's slope absorbs; the
 * pure error is taken net of the rounds as proportional blocks (regression.h).
 *
 * Each point (setting, group count) becomes a CalibrationPoint with its R runs, and beside the
 * time fit: its context switches (real: the median of the rounds' /proc/stat ctxt in the guest,
 * every switch of both CPUs, idle ones too; simulated: the simulation's switches of the CPUs, idle
 * ones too, from the start barrier on) and how it compares with the defaults at the same group
 * count, real (the geometric mean over the rounds of the paired ratios, a 95 % interval) and
 * simulated (the ratio of jiffies), for times and for switches.
 *
 * Ownership: a CalibrateVm is the caller's (calibrate_vm_clear); it copies nothing it is given but
 * owns its arrays.
 */
#ifndef TUNER_CMD_CALIBRATE_VM_H
#define TUNER_CMD_CALIBRATE_VM_H

#include <glib.h>

#include "tuner/calib/calibration_io.h"
#include "tuner/eval/vm_objective.h"
#include "tuner/knobs/knob_settings.h"

G_BEGIN_DECLS

typedef struct {
	const GArray *settings; /* KnobSetting; [0] the defaults (borrowed) */
	const GArray *groups;	/* guint: the group counts (borrowed) */
	VmMeasurement m;	/* settings x groups (the plan's commands) x rounds */
	double *sim;		/* [s * n_groups + g]: simulated jiffies */
	double *sim_switches;	/* the same: the simulation's switches of the CPUs */
} CalibrateVm;

void calibrate_vm_clear(CalibrateVm *cv);

/*
 * Boot once: every setting with commands[g] (the benchmark at groups[g]) for vm->rounds rounds.
 * A boot that fails, or a run with no time (it failed in the guest), fails the experiment with one
 * line naming it and the console log.
 */
gboolean calibrate_vm_measure(CalibrateVm *cv, VmObjective *vm, const char *const *commands,
			      GError **error);

/* The points (setting-major), the runs in the order they ran and the settings' ids into cal;
 * cv->sim and cv->sim_switches must be filled. */
void calibrate_vm_points(const CalibrateVm *cv, Calibration *cal);

/* The report's points table, and its context switches, for a calibration that spans settings. */
void calibrate_vm_print_points(const Calibration *cal);
void calibrate_vm_print_switches(const Calibration *cal);

/* DIR/settings.csv: setting and the knobs' columns (knobs.h), one row per setting. */
gboolean calibrate_vm_write_settings(const CalibrateVm *cv, const char *dir, GError **error);

G_END_DECLS

#endif /* TUNER_CMD_CALIBRATE_VM_H */
