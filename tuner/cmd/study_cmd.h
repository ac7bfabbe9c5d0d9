/*
 * study_cmd.h - the steps the two response-surface commands share: `tuner rsm` (cmd_rsm.c, the
 * knobs' surface) and `tuner meta-pso` (cmd_meta_pso.c, the surface of PSO's own parameters).
 *
 * Both run a designed experiment as one journaled, replicated batch of simulations of a workload,
 * fit the study of rsm_study.h to its responses, confirm the optimum, and report the study as
 * text or JSON and in the files of rsm_files.h. What they share is here: the flags (--replicates,
 * --center, --range, --lambda, --jobs, --journal, --no-sync, --out and the workload's) and their
 * checks, the run's workload, seed, replicates, jobs and journal, simulating a batch of knob
 * settings, the fit, and the end of the report. What differs stays in the command: the factors and
 * the design, what one design point simulates (one knob setting for rsm, a whole PSO run for
 * meta-pso), the confirmation, and the report's own lines.
 *
 * Errors are CMD_ERROR (cmd_common.h): bad input exit status 2, a failed run 1.
 */
#ifndef TUNER_STUDY_CMD_H
#define TUNER_STUDY_CMD_H

#include <stdbool.h>

#include <glib.h>

#include "linsched/json.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/journal.h"
#include "tuner/eval/workload.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/report/rsm_files.h"
#include "tuner/stats/rsm_design.h"
#include "tuner/stats/rsm_study.h"

G_BEGIN_DECLS

/* The flags of a study, as parsed. A command may set a default before parsing; flags tells
 * whether each was given. */
struct study_cli {
	struct workload_cli wc;
	char *lambda, *journal, *out;
	char **ranges; /* --range KNOB=LO:HI, repeatable */
	gint64 center, replicates, jobs;
	gboolean no_sync;
	struct flag_set flags; /* the command's main group: its entries and these */
};

/* The ranges of --replicates and --center, for the limits of the command's entries. */
#define STUDY_LIMITS(c) FLAG_INT(&(c)->replicates, 1, 10000), FLAG_INT(&(c)->center, 0, 100)

void study_cli_init(struct study_cli *c);
void study_cli_clear(struct study_cli *c);

/* Adds --lambda, --jobs, --journal, --no-sync and --out to group, the command's main group made
 * with flag_group_new(&c->flags, ...) (its own entries, --center, --replicates and --range among
 * them, come first), then the workload's groups to ctx. */
void study_cli_add_options(struct study_cli *c, GOptionGroup *group, GOptionContext *ctx);

/* Refuses the knob flags the study varies itself ("FLAG: " then searched_note). */
gboolean study_cli_check(const struct study_cli *c, const char *searched_note, GError **error);

/* --range on space (whose ranges the command has set to its defaults); a knob given two ranges
 * is bad input. */
gboolean study_cli_ranges(const struct study_cli *c, struct knob_space *space, GError **error);

/* A study as it runs: what the shared flags resolve to, the design and its responses, the fit. */
struct study_run {
	struct workload w;
	bool have_workload;
	enum output_format format;
	RsmLambdaChoice lambda;
	guint64 seed; /* the workload's: the design's shuffle and the first replicate's simulation */
	guint replicates, jobs;
	RsmDesign *design;
	char *settings; /* the journal's: one journal is one study */
	Journal *journal;
	double *natural;      /* n_runs * k natural levels as evaluated, run order */
	double *y;	      /* n_runs responses, run order */
	EvaluatorStats stats; /* every simulation, the confirmation's included */
	RsmStudy *study;
	/* Set by a command that measures elsewhere (rsm --objective vm): study_evaluate hands every
	 * batch to it instead of simulating. */
	EvaluatorBatchObjective batch_objective;
	void *batch_ctx;
};

void study_run_clear(struct study_run *r);

/* --format and --lambda, and the --out directory made (cmd_prepare_out). */
gboolean study_prepare_output(const struct study_cli *c, struct study_run *r, GError **error);

/* The workload and its seed, the replicates (default 1) and the jobs (default: the cores). */
gboolean study_prepare_workload(const struct study_cli *c, struct study_run *r, GError **error);

/* Opens --journal (when given) for r->settings. */
gboolean study_open_journal(const struct study_cli *c, struct study_run *r, GError **error);

/* Simulates n knob settings with the run's replicates, as one parallel batch through the
 * journal (or measures them with r->batch_objective when set), and adds its cost to r->stats.
 * Replicate j of point i uses seed seeds[i] + j, or the run's seed + j for every point when seeds
 * is NULL (common random numbers). values (may be NULL) gets replicate j of point i at
 * [i * replicates + j]. progress (may be NULL) as in EvaluatorConfig. */
gboolean study_evaluate(struct study_run *r, const Knobs *knobs, const guint64 *seeds, guint n,
			EvaluatorResult *results, double *values, EvaluatorProgress progress,
			void *progress_ctx, GError **error);

/* Fits the study to r->y in the design's run order; a model that cannot be fitted is bad input,
 * and a response that does not vary says constant_note (NULL: nothing) before the model's
 * message. */
gboolean study_analyse(struct study_run *r, const char *const *letters, const char *constant_note,
		       GError **error);

/* The text report's last line: the files written to --out, when given. */
void study_text_files(GString *out, const struct study_cli *c, const struct study_run *r);

/* The JSON report's "journal" (the --journal path or null) and, at its end, "simulations" and
 * "simulations_from_journal". */
void study_json_journal(struct json_writer *w, const struct study_cli *c);
void study_json_simulations(struct json_writer *w, const struct study_run *r);

/* The end of the command: writes design.csv, anova.csv, surface.csv, boxcox.csv (when the study
 * has a Box-Cox profile) and result.json (json) to --out when given, then prints text, or json
 * when text is NULL, on stdout. */
gboolean study_finish(const struct study_cli *c, const RsmStudyFiles *files, const char *json,
		      const char *text, GError **error);

G_END_DECLS

#endif /* TUNER_STUDY_CMD_H */
