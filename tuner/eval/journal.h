/*
 * journal.h -- the tuner's append-only record of finished evaluations, so that an interrupted run
 * resumes without repeating work (SPEC.md §5).
 *
 * A journal is a text file.  Line 1 is the header:
 *
 *     # linsched-tuner journal v3 knobs=<knob set> sha256=<64 hex digits> settings=<settings>
 *
 * where <knob set> names the knobs the run searches (knobs.h), comma-separated in enum order, e.g.
 * "latency,min_granularity,wakeup_granularity,migration_cost" or "base_slice";
 * <settings> is a canonical one-line description of everything that changes the value of an
 * evaluation (workload, simulator parameters, objective, optimizer settings), built by the caller,
 * and sha256 its SHA-256.  A journal is only reused by a run with the same settings: results of a
 * different workload would silently poison the search.  Both the text and its hash are stored so
 * that the refusal can say what differs (and the hash catches a hand-edited header).  Write
 * <settings> as space-separated key=value tokens: the refusal then lists the tokens that differ.
 * The simulator's code changes simulated values too: settings of simulated values carry its model
 * id, sim_model=<16 hex digits> (linsched/model_id.h; the tuner's commands add it with
 * cmd_settings_add_model), so that a journal of a simulator since changed is refused, naming
 * sim_model, instead of mixing two models' values.  Settings of real measurements (the live
 * kernel, the VM) leave it out: those values hold whatever the simulator's code.
 *
 * A journal of another knob set is refused with an error naming the file and line 1 (its records
 * are other points).  Line 2 is a comment naming the fields.
 *
 * Every later line is a comment (starting with '#') or one record of the set's knobs and five more
 * space-separated fields, e.g. for the three CFS knobs:
 *
 *     latency_ns min_granularity_ns wakeup_granularity_ns seed replicate value wall_s check
 *
 * the knobs (in enum order) and seed as decimal integers, the replicate index, the objective value printed with
 * "%.17g" (which round-trips every double exactly, so a resumed run computes bit-identical results),
 * the evaluation's wall time in seconds, and the check: the first 8 hex digits of the SHA-256 of
 * the line's text before the space that precedes it.  The check catches a damaged or hand-edited
 * record (it is no protection against someone who recomputes it); every objective of the tuner is
 * a time (jiffies, milliseconds, or meta-pso's score, a time plus a penalty), so a value must also
 * be finite and > 0, and wall_s finite and >= 0.  A record that breaks any of this is an error
 * naming the file and line: a resumed search must never be steered by an impossible value.
 *
 * Versions: v1 (up to the first release with checks) had seven fields and no check; such a journal
 * is refused with a message that says so, rather than read without its records being checked.
 * v2 (before knob sets) had no knobs= and always the three CFS knobs: it is read as a v3 journal
 * of that set, and a run of that set resumes it, appending records in the same form (so the file
 * stays a valid v2 journal).  New journals are v3.
 *
 * Knobs outside the set are no part of a record's key: the settings fix them.
 *
 * Crash safety.  A record is appended with one write(2) of the whole line on an O_APPEND
 * descriptor.  After kill -9 the kernel still holds every completed write, so at most the
 * evaluations in flight are lost; a line cut short (a fatal signal can shorten a write) has no
 * final newline and is dropped, and truncated away, by the next journal_open.  By default each
 * append is followed by fdatasync(2) so that records also survive a power loss or kernel crash: an
 * evaluation is a simulation or a benchmark run, so the millisecond or so of a sync is small beside
 * it.  Tests, which append many records and simulate no power loss, may pass JOURNAL_NO_SYNC.
 *
 * A journal is locked (flock, exclusive) while open: a second tuner on the same file is refused
 * instead of interleaving records.  The lock goes away with the process, even after kill -9.
 *
 * The header's sha256= and settings=, the checks, the appends, the torn lines and the lock are
 * tuner/util/record_log.h's; this module is the records.
 *
 * Ownership and threads: journal_open returns a Journal that the caller frees with journal_close.
 * A Journal is not thread-safe: callers that append from several threads serialise the calls (the
 * evaluator appends under its own mutex).
 */
#ifndef TUNER_JOURNAL_H
#define TUNER_JOURNAL_H

#include <glib.h>

#include "tuner/knobs/knobs.h"
#include "tuner/util/record_log.h"

G_BEGIN_DECLS

/* One finished evaluation: the objective at knobs with seed, the replicate-th replicate. */
typedef struct {
	Knobs knobs;
	guint64 seed;
	guint replicate;
	double value;  /* objective value, in the objective's unit (jiffies or predicted real ms) */
	double wall_s; /* wall-clock time the evaluation took, in seconds */
} JournalRecord;

typedef struct Journal Journal;

/* record_log.h's: JOURNAL_SYNC, fdatasync after each append (the default: survives power loss);
 * JOURNAL_NO_SYNC, none (survives kill -9 only: for tests). */
typedef RecordLogFlags JournalFlags;
#define JOURNAL_SYNC	RECORD_LOG_SYNC
#define JOURNAL_NO_SYNC RECORD_LOG_NO_SYNC

#define JOURNAL_ERROR (journal_error_quark())

/*
 * The errors are record_log.h's, under the journal's names: IO (open, read, write, lock or sync
 * failed; the message has strerror), NOT_JOURNAL (the file exists but is not a linsched-tuner
 * journal), MISMATCH (written for different settings), PARSE (a malformed line; the message names
 * file and line), BUSY (another process holds the journal open), INVALID (settings contain a
 * newline; a record's value is impossible).  One domain: the journal's own errors and its file's.
 */
typedef RecordLogError JournalError;
#define JOURNAL_ERROR_IO	  RECORD_LOG_ERROR_IO
#define JOURNAL_ERROR_NOT_JOURNAL RECORD_LOG_ERROR_NOT_LOG
#define JOURNAL_ERROR_MISMATCH	  RECORD_LOG_ERROR_MISMATCH
#define JOURNAL_ERROR_PARSE	  RECORD_LOG_ERROR_PARSE
#define JOURNAL_ERROR_BUSY	  RECORD_LOG_ERROR_BUSY
#define JOURNAL_ERROR_INVALID	  RECORD_LOG_ERROR_INVALID

GQuark journal_error_quark(void);

/*
 * Open the journal at path for the given knob set and settings (one line, no '\n').  A missing or empty file is
 * created with the header.  An existing file must carry the same settings, and its records are
 * loaded; a torn last line is dropped.  Errors: the file is not a journal, its settings differ
 * ("journal FILE was written for a different setting: ..."), a line is malformed (naming file and
 * line), the journal is in use by another process, or an I/O error.  Returns NULL on error.
 */
Journal *journal_open_knobs(const char *path, const char *settings, KnobSet knobs,
			    JournalFlags flags, GError **error);
/* journal_open_knobs of CFS's three knobs. */
Journal *journal_open(const char *path, const char *settings, JournalFlags flags, GError **error);

/* Close the file and free everything.  NULL is allowed. */
void journal_close(Journal *journal);

/*
 * Look up the record of (knobs, seed, replicate), the knobs outside the set ignored.  Returns TRUE
 * and copies it into *out, with knobs as given (out may be NULL to only test presence), or FALSE when there is none.  When the file holds several records
 * of one key (only possible if someone concatenated journals), the first one wins.
 */
gboolean journal_lookup(const Journal *journal, const Knobs *knobs, guint64 seed, guint replicate,
			JournalRecord *out);

/*
 * Append a record to the file (and make it durable unless JOURNAL_NO_SYNC) and to the in-memory
 * table.  A value that is not a finite time > 0 (or a wall time not finite and >= 0) is refused,
 * JOURNAL_ERROR_INVALID, as journal_open would refuse it.  If the write fails, the file is cut back to its previous length, so no partial line stays
 * behind, and an error is returned.
 */
gboolean journal_append(Journal *journal, const JournalRecord *record, GError **error);

/* Number of distinct records held (loaded plus appended). */
guint journal_count(const Journal *journal);

/*
 * Hash and equality of JournalRecord pointers by their key (knobs, seed, replicate), ignoring value
 * and wall time: for GHashTables of records (the evaluator uses them to merge duplicate points).
 */
guint journal_record_key_hash(gconstpointer record);
gboolean journal_record_key_equal(gconstpointer a, gconstpointer b);

/* The path the journal was opened with (owned by the journal). */
const char *journal_path(const Journal *journal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Journal, journal_close)

G_END_DECLS

#endif /* TUNER_JOURNAL_H */
