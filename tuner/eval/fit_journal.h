/*
 * fit_journal.h - the record of a fit's losses (`tuner fit --journal`), so that a killed fit
 * resumes without repeating a simulation.
 *
 * A fit (fit.h) computes one loss per distinct vector of rounded parameter values, each from the
 * simulations of every training plan, seconds to minutes apiece. Its search is deterministic for
 * a seed: a rerun that finds every loss it already computed replays the same path at once and
 * goes on where the killed run stopped. The journal holds those losses, each appended as soon as
 * it is computed.
 *
 * The file (its header's sha256= and settings=, the checks, the appends, the torn last line and
 * the lock are tuner/util/record_log.h's):
 *
 *     # linsched-tuner fit journal v1 sha256=<64 hex digits> settings=<settings>
 *     # footprint_lines miss_ps loss wall_s check
 *     300 5000 0.012345678901234567 41.250000 1a2b3c4d
 *
 * <settings> is the caller's description of everything that changes a loss (for `tuner fit`,
 * cmd_fit.c: the parameters, the weights, the plans, the machine, the simulation flags, the seed,
 * the replicates, and the simulator's model id, sim_model=<16 hex digits>, linsched/model_id.h,
 * since a loss is a simulation's and changes with its code): a journal of other settings is
 * refused, listing the tokens that differ, as its losses would steer the search wrong. Line 2
 * names a record's fields: the parameters' values in the settings' order (headed by their
 * machine.ini keys) as the whole numbers the simulation ran with, the loss printed with "%.17g"
 * (which round-trips every double exactly, so a resumed fit is bit-identical), the wall time of
 * its simulations in seconds, and the check. A record whose loss is not finite and >= 0, or whose
 * wall time is not finite and >= 0, is an error naming the file and line; fit_journal_append
 * refuses them: a loss of +inf (a simulation that failed) is not journaled, so the rerun tries it
 * again.
 *
 * Ownership: fit_journal_open returns a FitJournal that the caller frees with fit_journal_close.
 * Not thread-safe (a fit computes its losses one at a time).
 */
#ifndef TUNER_EVAL_FIT_JOURNAL_H
#define TUNER_EVAL_FIT_JOURNAL_H

#include <glib.h>

#include "tuner/util/record_log.h"

G_BEGIN_DECLS

typedef struct FitJournal FitJournal;

/*
 * Open the journal at path for a fit of n parameters, whose machine.ini keys (line 2's heads) are
 * keys, described by settings (one line). A missing or empty file is created; an existing one
 * must carry the same settings, and its records are loaded (a torn last line dropped). Errors are
 * RECORD_LOG_ERROR, one line naming the file (and the line). Returns NULL on error.
 */
FitJournal *fit_journal_open(const char *path, const char *settings, const char *const *keys,
			     guint n, RecordLogFlags flags, GError **error);

/* Close the file and free everything. NULL is allowed. */
void fit_journal_close(FitJournal *journal);

/* The loss at values (n whole numbers) into *loss: TRUE when the journal has it. When the file
 * holds several records of one vector (only if someone concatenated journals), the first wins. */
gboolean fit_journal_lookup(const FitJournal *journal, const guint64 *values, double *loss);

/* Append the loss at values, computed in wall_s seconds, to the file (durably unless
 * RECORD_LOG_NO_SYNC) and to the table. A loss or wall time that is not finite and >= 0 is
 * refused, RECORD_LOG_ERROR_INVALID. */
gboolean fit_journal_append(FitJournal *journal, const guint64 *values, double loss, double wall_s,
			    GError **error);

/* Distinct vectors held (loaded plus appended). */
guint fit_journal_count(const FitJournal *journal);

/* The path it was opened with (owned by the journal). */
const char *fit_journal_path(const FitJournal *journal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FitJournal, fit_journal_close)

G_END_DECLS

#endif
