/*
 * cmd_common.h - plumbing shared by the tuner's commands (cmd_optimize.c, cmd_rsm.c,
 * cmd_meta_pso.c, cmd_scale.c): parsing the command line, turning an error into an exit status,
 * one-line usage errors in the command's own GError domain, the refusal of the knob flags a search
 * varies itself, opening the --journal, and writing and printing the results of an RSM study.
 *
 * Each command keeps its own error domain (so callers can tell a usage error, exit status 2, from
 * a failed run, exit status 1); these helpers take the domain and code to use.
 */
#ifndef TUNER_CMD_COMMON_H
#define TUNER_CMD_COMMON_H

#include <glib.h>

#include "linsched/cli/cli.h"
#include "tuner/eval/journal.h"
#include "tuner/report/rsm_files.h"

G_BEGIN_DECLS

/* Parses the command line with ctx. FALSE when it is bad (an unknown option, an argument left
 * over), with error set to (domain, usage_code). */
gboolean cmd_parse(GOptionContext *ctx, int *argc, char ***argv, GQuark domain, gint usage_code,
		   GError **error);

/* Prints "tuner NAME: message" on stderr and returns the exit status: error's code when it is of
 * domain (the command's own), failed_code otherwise. */
int cmd_fail_status(const char *name, const GError *error, GQuark domain, gint failed_code);

/* Sets error to (domain, code) with the printf-style message; returns FALSE, for
 * `return cmd_usage(...)` in a check. */
gboolean cmd_usage(GError **error, GQuark domain, gint code, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

/* Re-labels another module's error local as (domain, code), its message after prefix, and frees
 * local; returns FALSE. */
gboolean cmd_relabel(GError **error, GQuark domain, gint code, GError *local, const char *prefix);

/* The first of --latency-ns, --min-gran-ns, --wakeup-gran-ns that s was given, or NULL: the knobs
 * a searching command varies itself, so it refuses them. */
const char *cmd_searched_knob_flag(const struct linsched_cli *s);

/* Opens the --journal at path for a run described by settings into *out (path NULL: no journal,
 * *out stays NULL). A journal that does not fit (another run's, malformed) is bad input,
 * usage_code; one that cannot be read or is in use is failed_code. The message starts "--journal: ". */
gboolean cmd_open_journal(const char *path, const char *settings, gboolean no_sync, Journal **out,
			  GQuark domain, gint usage_code, gint failed_code, GError **error);

/* Writes an RSM study to dir: design.csv, anova.csv, surface.csv, boxcox.csv (when the study has
 * a Box-Cox profile) and result.json holding json. FALSE with an error naming the file. */
gboolean cmd_write_rsm_files(const char *dir, const RsmStudyFiles *files, const char *json,
			     GError **error);

/* The end of an RSM study command: writes the study's files to out (when not NULL; a failure is
 * (domain, failed_code)), then prints text, or json when text is NULL, on stdout. */
gboolean cmd_finish_rsm_study(const char *out, const RsmStudyFiles *files, const char *json,
			      const char *text, GQuark domain, gint failed_code, GError **error);

G_END_DECLS

#endif /* TUNER_CMD_COMMON_H */
