/*
 * cmd_common.h - plumbing shared by the tuner's commands: parsing the command line, how an error
 * becomes a one-line message and an exit status, the refusal of the knob flags a search varies
 * itself, opening the --journal and what its settings say of the simulator. The response-surface
 * commands share more: study_cmd.h.
 *
 * Every command reports in one error domain, CMD_ERROR, whose codes are the exit statuses: bad
 * input (2) or a failed run (1). Another module's error is relabelled into it where the command
 * knows which of the two it is; one that reaches cmd_fail_status unlabelled is a failed run.
 */
#ifndef TUNER_CMD_COMMON_H
#define TUNER_CMD_COMMON_H

#include <glib.h>

#include "linsched/cli/cli.h"
#include "tuner/eval/journal.h"
#include "tuner/knobs/knobs.h"
#include "tuner/util/json_read.h"

G_BEGIN_DECLS

#define CMD_ERROR (cmd_error_quark())

/* The exit statuses of a failure. */
typedef enum {
	CMD_ERROR_FAILED = 1, /* a failed simulation, benchmark or write */
	CMD_ERROR_USAGE = 2,  /* bad input: a flag, a file given on the command line */
} CmdError;

GQuark cmd_error_quark(void);

/* Parses the command line with ctx. FALSE when it is bad (an unknown option, an argument left
 * over), with a CMD_ERROR_USAGE error. */
gboolean cmd_parse(GOptionContext *ctx, int *argc, char ***argv, GError **error);

/* Prints "tuner NAME: message" on stderr and returns the exit status: error's code when it is a
 * CMD_ERROR, CMD_ERROR_FAILED otherwise. */
int cmd_fail_status(const char *name, const GError *error);

/* Sets error to CMD_ERROR_USAGE with the printf-style message; returns FALSE, for
 * `return cmd_usage(...)` in a check. */
gboolean cmd_usage(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* --workload's comma-separated command-name prefixes (tuner compare, tuner stalls) into *out, the
 * caller's to free with g_strfreev; NULL list: *out stays NULL. An empty prefix is bad input. */
gboolean cmd_workload_prefixes(const char *list, char ***out, GError **error);

/* Re-labels another module's error local as CMD_ERROR code, its message after prefix, and frees
 * local; returns FALSE. */
gboolean cmd_relabel(GError **error, CmdError code, GError *local, const char *prefix);

/* The knobs named by the values of a repeatable knob flag (KNOB=... or KNOB: --range, --fix,
 * --log, --linear), added to *mask as 1 << knob; a knob named twice is bad input, "FLAG: KNOB is
 * given twice". A value that names no knob is left to the flag's own parser. */
gboolean cmd_knobs_named(const char *flag, char *const *values, guint *mask, GError **error);

/* Creates the --out directory dir with its parents before the command's work, so that a name
 * that cannot be a writable directory is refused at once: bad input, "--out: cannot create DIR:
 * reason". dir NULL: nothing to do. */
gboolean cmd_prepare_out(const char *dir, GError **error);

/* The best knobs of the result.json given to --best (path): best.knobs, each a whole number of
 * ns in its sysctl range, into *knobs and which knobs it has into *set (CFS's three, all of
 * them, and/or others of a run with --knobs), else bad input naming the file and the key. The
 * document goes to *root for the command's other keys. */
gboolean cmd_read_best(const char *path, Knobs *knobs, KnobSet *set, JsonReadValue **root,
		       GError **error);

/* The first of --latency-ns, --min-gran-ns, --wakeup-gran-ns that s was given, or NULL: the knobs
 * a searching command varies itself, so it refuses them. */
const char *cmd_searched_knob_flag(const struct linsched_cli *s);

/* --knobs text for profile (NULL: the profile's own set, knob_set_default) into *set; bad input
 * starting "--knobs: " otherwise. */
gboolean cmd_knob_set(const char *text, const struct sched_profile *profile, KnobSet *set,
		      GError **error);

/* Every knob of set is one the profile's kernel has (a --fix may have added one), and none is
 * also given as a workload flag (--migration-cost-ns, --base-slice-ns): else bad input naming
 * the flag. */
gboolean cmd_check_knob_set(const struct linsched_cli *s, const struct sched_profile *profile,
			    KnobSet set, GError **error);

/* Opens the --journal at path for a run of the knob set knobs described by settings into *out (path NULL: no journal,
 * *out stays NULL, and no_sync is bad input). A journal that does not fit (another run's, malformed) is bad input; one that
 * cannot be read or is in use is a failure. The message starts "--journal: ". */
gboolean cmd_open_journal(const char *path, const char *settings, KnobSet knobs, gboolean no_sync,
			  Journal **out, GError **error);

/*
 * Appends " sim_model=ID" to the settings of a journal whose values are simulations, ID this
 * build's model id (linsched/model_id.h): a journal written by a simulator of other code is then
 * refused, "journal has 'sim_model=ID1', this run has 'sim_model=ID2'", rather than resumed with
 * another model's values. A journal of real measurements (--objective cmd or vm) does not carry
 * it: its values hold whatever the simulator's code. (Not "model=": that is the hackbench
 * workload's --model, fsm or bootstrap.)
 */
void cmd_settings_add_model(GString *settings);

/* local (freed), an error of a journal's file (record_log.h) as cmd_open_journal reports it: bad
 * input but for a file that cannot be read or written or is in use; "--journal: " first.
 * Returns FALSE. */
gboolean cmd_journal_failed(GError *local, GError **error);

G_END_DECLS

#endif /* TUNER_CMD_COMMON_H */
