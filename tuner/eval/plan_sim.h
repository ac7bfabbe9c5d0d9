/*
 * plan_sim.h - the simulated side of a fidelity comparison: every setting of every real plan
 * (tuner/fidelity/plan_set.h), simulated as the workload the plan ran, on a given machine, in
 * parallel on an evaluator's pool (evaluator_map).
 *
 * A plan's simulation takes the command's flags (--profile, --cpus, --hz, --machine, --start,
 * --footprint-lines, --cost-jitter, ...: struct workload_cli) and replaces the workload's shape
 * by the plan's own hackbench command (groups, loops, fds, datasize, pipes, threads). Each
 * setting runs at its knobs as read back in the guest, with its migration cost when the CSV has
 * one, once per replicate r with seed --seed + r; the reference runs with the same seeds.
 *
 * Twins. The host's steal was part of the machine the real kernel ran on, and it varies from run
 * to run with the host's load. A plan whose runs carry the steal the host measured, or (with
 * guest_stalls) the stalls the guest saw (real_plan.h), is simulated run by run, unless --steal
 * or --host-cpus (turns in place of stalls; with --shared-ns, spells of turns and of the steal,
 * which keep the twins) is given: every real run gets a simulated twin, with
 * the stalls measured for that run and seed --seed + its round, and a round's simulated ratio
 * divides the twin of the setting's run by the twin of the reference's run of the same round, as
 * the real ratio divides the runs. With R replicates every run gets R twins, the k-th (from 0)
 * with seed --seed + round + k x rounds, and the k-th twin of the setting's run is divided by the
 * k-th of the reference's: the medians are then over the rounds' R twins each, so that a verdict
 * does not hang on one seed. Which stalls:
 *   - with guest_stalls, a plan with the guest's (make-plan.sh -n): each run's, fraction, mean
 *     and shape; they include the machine's own noise, so the machine's [noise] is left out; a
 *     run without them takes the plan's medians of them;
 *   - else the host's: each run's fraction and mean, the shape the machine's, its [noise]
 *     added; a run without them takes the plan's medians.
 * --stall-ns and --stall-cv, when given, replace the measured mean and shape. A twin in spells
 * (sim.h: the machine's or the flags') spends the share of its time in turns that its run's host
 * had the vCPU threads share host CPUs (real_plan.h's shared_pct; a run without it, the plan's
 * median), over the cycle of the spells as given, unless --shared-ns or --apart-ns is given or
 * the plan has no such measurement.
 *
 * The parent's wakee_flips (--start parent only: at a barrier start nobody inherits them):
 * --parent-flips when given; else the plan's parent_flips (plan_set.h) when it has one; else, when
 * the guest recorded the flips the workers inherited at their forks (real_plan.h's parent_flips),
 * each twin its own run's and a run without the record, or a simulation that is no twin, their
 * median over the plan; else the machine's launcher's ([launch] wakee_flips), or 0. A twin whose
 * run has every fork's flips (real_plan.h's fork_flips) hands each worker its counterpart's,
 * in creation order (hackbench.h's fork_flips): a threads parent gains flips while it creates.
 *
 * What is counted, per setting (fidelity.h's SimSetting, medians over the replicates, or over
 * the twins of the rounds where the setting ran, and for a ratio where the reference ran too):
 *   ratio              runtime / the reference's runtime with the same seed (the simulator's
 *                      runtime is the benchmark's "Time:": from the start barrier's release to
 *                      the last exit)
 *   switches           every context switch of every CPU in the whole simulated run, set-up
 *                      included (a CPU going from one task, or idle, to another): what the
 *                      guest's /proc/stat ctxt counts over the command, which also counts
 *                      switches of the guest's own kernel threads and shell, not simulated
 *   switches_measured  the same from the barrier's release on (linsched's context_switches)
 *   runtime_ns
 *
 * Deterministic: the same flags, machine and plans give the same values whatever the number of
 * threads.
 */
#ifndef TUNER_EVAL_PLAN_SIM_H
#define TUNER_EVAL_PLAN_SIM_H

#include <glib.h>

#include "linsched/machine.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/workload.h"
#include "tuner/fidelity/fidelity.h"
#include "tuner/fidelity/plan_set.h"

G_BEGIN_DECLS

typedef struct {
	const struct workload_cli *flags; /* borrowed */
	guint replicates;		  /* >= 1 */
	Evaluator *ev;			  /* the pool; borrowed */
	gboolean guest_stalls;		  /* twins suffer what the guest saw (--stalls guest) */
} PlanSim;

/*
 * Simulates every setting of every plan of set on machine m (NULL: the flags' --machine, or the
 * built-in machine). out[p] (set->plans->len of them) becomes an array of plan p's settings'
 * values, in its RealPlan's order (free each with g_free, then out). FALSE with a one-line error
 * naming the plan and setting when a configuration is refused or a simulation deadlocks.
 */
gboolean plan_sim_run(const PlanSim *ps, const PlanSet *set, const struct linsched_machine *m,
		      SimSetting ***out, GError **error);

/* Whether plan_sim_run simulates plan's runs as twins (above) under these flags. */
gboolean plan_sim_twins(const struct workload_cli *flags, gboolean guest_stalls,
			const PlanSpec *plan);

/* How many simulations plan_sim_run makes for set. */
guint64 plan_sim_count(const PlanSim *ps, const PlanSet *set);

/* Frees what plan_sim_run filled for n plans. */
void plan_sim_free(SimSetting **sims, guint n);

/* The base configuration and workload of one plan on machine m, as plan_sim_run uses them. */
gboolean plan_sim_prepare(const struct workload_cli *flags, gboolean guest_stalls,
			  const PlanSpec *plan, const struct linsched_machine *m,
			  struct linsched_config *cfg, struct hackbench_params *hb, GError **error);

G_END_DECLS

#endif
