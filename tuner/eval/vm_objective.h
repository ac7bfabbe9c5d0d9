/*
 * vm_objective.h - the real CFS kernel as the objective (`--objective vm`): each batch the
 * optimizer asks for is one boot of Debian's 6.1 kernel under qemu (tuner/vm/vm_boot.h), which
 * runs the batch's settings and the defaults once per round, in a fresh shuffled order each round.
 *
 * The value of a setting (SPEC.md §7; under emulation only comparisons inside one boot hold):
 * round r gives time(s, r) / time(defaults, r), the ratio to the defaults' run of the same round,
 * and that ratio is the evaluator's replicate r of the setting. The value is therefore the mean
 * ratio to the defaults (1 for the defaults themselves), with the standard error of the ratios.
 * Not the ratio times the defaults' time in the boot: the host's speed drifts by up to 2x between
 * boots, and the optimizer compares values of different batches, hence different boots; a ratio
 * to the same round's defaults is the one figure that drift leaves alone. A round that lost either
 * of its two runs gives no value for it.
 *
 * Which evaluations are one setting of the plan: those with the same knobs and the same base seed
 * (seed - replicate; the seed means nothing to the guest, it only names a copy). The reference is
 * the defaults at base seed vm->seed, so that the defaults evaluated by an optimizer are the
 * reference itself (exactly 1). An evaluation at the defaults' knobs under another base seed is a
 * setting of its own, run beside the reference: RSM's centre points, independent runs at the
 * defaults, whose ratios show the noise of a ratio. A batch asks the guest only for the rounds it
 * lacks: evaluations of replicates {3, 4} (the rest journaled) boot with 2 rounds, replicate 3
 * taking the first round's ratio and 4 the second's.
 *
 * Files, under log_root (when not NULL), per boot boot-NNN/ (the first NNN not there yet, so that
 * a rerun keeps the logs of the boots before): plan.txt, console.log, and
 * runs.csv (seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,seconds,ctxt,
 * rc,steal_ppm,stall_ns,command) — the context switches of each run beside its time, the steal
 * the host measured during it (-1 when it could not: vm_steal.h), the command quoted as CSV
 * quotes a field when it holds a comma or a quote; and log_root/runs.csv, every run of every boot
 * with its boot number first.
 *
 * Threads: a VmObjective is used by one evaluator at a time (boots are sequential: there is one
 * VM); it counts its boots so that each gets its own shuffle (seed + boot).
 */
#ifndef TUNER_EVAL_VM_OBJECTIVE_H
#define TUNER_EVAL_VM_OBJECTIVE_H

#include <glib.h>

#include "tuner/eval/journal.h"
#include "tuner/vm/vm_boot.h"

G_BEGIN_DECLS

typedef struct {
	VmBootConfig boot; /* its log_dir is set per boot */
	char *command;	   /* the benchmark, as the guest's sh runs it */
	guint rounds;
	guint64 seed;	/* the shuffle of boot k is seeded with seed + k */
	Knobs defaults; /* the reference of every round */
	char *log_root; /* NULL: keep no files */
	guint boots;	/* boots made so far */
} VmObjective;

/* One boot's measurements of n settings (settings[0] the defaults) x commands x rounds. */
typedef struct {
	guint n_settings, n_commands, rounds;
	double *seconds; /* [vm_measurement_index()]: the benchmark's time; NaN if missing */
	gint64 *ctxt;	 /* the same for context switches; -1 if missing */
	double *wall_s;	 /* the same for the guest's wall time around the command; NaN if missing */
	gint64 *steal_ppm, *stall_ns; /* the same: the steal the host measured (vm_steal.h); -1 */
	guint *seq;   /* the same: the run's place in the plan (the order the guest ran them) */
	char *kernel; /* the guest's uname -r */
} VmMeasurement;

/* Where setting s with command c in round r is in seconds[] and ctxt[]: ((s * n_commands + c) *
 * rounds + r), so [s * rounds + r] with one command. */
gsize vm_measurement_index(const VmMeasurement *m, guint setting, guint command, guint round);

/* The hackbench command line of a workload: "hackbench -T -g 5 -l 100" and so on. */
char *vm_hackbench_command(guint groups, guint loops, guint fds, guint datasize, gboolean threads,
			   gboolean pipe);

/*
 * Boot once and measure settings[0..n) (settings[0] is the reference) for vm->rounds rounds.
 * *out is filled also when the boot failed part-way (with what finished), and then FALSE is
 * returned with the boot's error.
 */
gboolean vm_objective_measure(VmObjective *vm, const Knobs *settings, guint n, VmMeasurement *out,
			      GError **error);
void vm_measurement_clear(VmMeasurement *m);

/* The medians over the runs of m that carry both steal figures; FALSE when none does. A
 * simulation of what m measured should suffer that steal too (plan_sim.h does the same). */
gboolean vm_measurement_steal(const VmMeasurement *m, double *steal_ppm, double *stall_ns);

/*
 * Boot once and measure every setting with every command for vm->rounds rounds, all shuffled
 * together in each round (vm_plan_new_grid; vm->command is not used). settings[0] is the
 * reference; the ids name the settings in the plan, the console and runs.csv. *out as for
 * vm_objective_measure.
 */
gboolean vm_objective_measure_grid(VmObjective *vm, const VmSetting *settings, guint n,
				   const char *const *commands, guint n_commands,
				   VmMeasurement *out, GError **error);

/* The evaluator's batch objective (EvaluatorBatchObjective); ctx is a VmObjective. */
gboolean vm_objective_batch(const JournalRecord *const *tasks, guint n, double *values, void *ctx,
			    GError **error);

void vm_objective_clear(VmObjective *vm);

G_END_DECLS

#endif
