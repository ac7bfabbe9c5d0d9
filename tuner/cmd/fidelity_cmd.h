/*
 * fidelity_cmd.h - what `tuner fidelity` and `tuner fit` share: the flags naming the real plans
 * (--plans FILE, or one plan with --csv and --workload), the simulation flags they are simulated
 * with, the significance rule, the evaluator's threads, the output format and directory; and the
 * report of the plans' simulation.
 *
 * The plans say the workload's shape (hackbench's groups, loops, fds, datasize, pipes, threads)
 * and the knobs, so the flags that would set those are refused; every other simulation and
 * hackbench flag applies to every plan (--profile, --cpus, --hz, --machine, --start,
 * --footprint-lines, --cost-jitter, --seed, ...).
 */
#ifndef TUNER_CMD_FIDELITY_CMD_H
#define TUNER_CMD_FIDELITY_CMD_H

#include <glib.h>

#include "tuner/eval/evaluator.h"
#include "tuner/eval/plan_sim.h"
#include "tuner/eval/workload.h"
#include "tuner/report/fidelity_report.h"

G_BEGIN_DECLS

typedef enum {
	FIDELITY_OUT_TEXT,
	FIDELITY_OUT_JSON,
	FIDELITY_OUT_CSV,
} FidelityFormat;

typedef struct {
	struct workload_cli wc;
	char *plans, *csv, *workload, *reference, *only, *significance, *stalls, *out;
	gint64 replicates, jobs;
	PlanRole csv_role;     /* the role of the --csv plan: test for a report, train for a fit */
	struct flag_set flags; /* the main group's: these flags and the command's own */
} FidelityCli;

/* What the flags describe, once checked. */
typedef struct {
	PlanSet *set;
	FidelitySignificance sig;
	FidelityFormat format;
	guint replicates, jobs;
	gboolean guest_stalls; /* --stalls guest */
	char *simulation;      /* the simulation flags in words, for the reports */
} FidelitySetup;

void fidelity_cli_init(FidelityCli *c);
void fidelity_cli_clear(FidelityCli *c);
/* The plan, simulation and workload flags, into ctx: the plan flags into its main group, made
 * for c->flags here unless the command made it first (flag_add_main_entries(&c->flags, ...)) for
 * flags of its own. */
void fidelity_cli_add_options(FidelityCli *c, GOptionContext *ctx);
/* Checks the flags and reads the plans; FALSE with a CMD_ERROR_USAGE error naming the flag or
 * file. */
gboolean fidelity_cli_finish(FidelityCli *c, FidelitySetup *s, GError **error);

/* The plans named in list (comma-separated) for flag ("--only"): NULL, with an error naming the
 * flag, when one is not in set. */
GStrv fidelity_plan_names(const PlanSet *set, const char *list, const char *flag, GError **error);
void fidelity_setup_clear(FidelitySetup *s);

/* Simulates every plan of s->set on machine m (NULL: the flags') with ev; a failure is a
 * CMD_ERROR_FAILED. */
gboolean fidelity_simulate(const FidelityCli *c, const FidelitySetup *s, Evaluator *ev,
			   const struct linsched_machine *m, SimSetting ***sims, GError **error);

/* Writes the report's files into dir: fidelity.json, settings.csv, plans.csv, fidelity.txt. */
gboolean fidelity_write_files(const char *dir, const FidelityReport *r, GError **error);

G_END_DECLS

#endif
