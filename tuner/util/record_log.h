/*
 * record_log.h -- an append-only text file of records that a killed run reads back, so that it
 * resumes without repeating work: the file machinery of the tuner's journals (tuner/eval/
 * journal.h, the evaluations of the optimizers; tuner/eval/fit_journal.h, the losses of a fit).
 * The owner decides what a record says; this module decides how it reaches the disk and how it
 * is read back.
 *
 * The file.  Line 1 is the header: the owner's head (a magic string that starts it, a version,
 * fields of the owner's) followed by
 *
 *     sha256=<64 hex digits> settings=<settings>
 *
 * where <settings> is the owner's one-line description of everything that changes a record's
 * value, and sha256 its SHA-256.  A file is only reused by a run with the same settings: records
 * of other settings would silently poison the run.  Both the text and its hash are stored so
 * that a refusal can say what differs (and the hash catches a hand-edited header).  Written as
 * space-separated key=value tokens, the settings let the refusal list the tokens that differ:
 * "journal FILE was written for a different setting: journal has 'x=1', this run has 'x=2'".
 * Every later line is a comment (starting with '#') or a record: space-separated fields, the last
 * of them the check, the first 8 hex digits of the SHA-256 of the line's text before the space
 * that precedes it.  The check catches a damaged or hand-edited record (it is no protection
 * against someone who recomputes it).  A record that is damaged, or whose fields the owner finds
 * impossible, is an error naming the file and line: a resumed run must never be steered by it.
 *
 * Crash safety.  A record is appended with one write(2) of the whole line on an O_APPEND
 * descriptor; a write that fails part-way is cut back off the file, so no partial line stays
 * behind.  After kill -9 the kernel still holds every completed write, so at most the records in
 * flight are lost; a line cut short (a fatal signal can shorten a write) has no final newline and
 * is dropped, and truncated away, by the next record_log_open, which also starts afresh a file
 * whose header was torn before its newline.  By default each append is followed by fdatasync(2)
 * so that records also survive a power loss or kernel crash: a record stands for a simulation or
 * a benchmark run, so the millisecond or so of a sync is small beside it.  Tests, which append
 * many records and simulate no power loss, may pass RECORD_LOG_NO_SYNC.
 *
 * A file is locked (flock, exclusive) while open: a second process on the same file is refused
 * instead of interleaving records.  The lock goes away with the process, even after kill -9.
 *
 * Errors are RECORD_LOG_ERROR, one line that names the file, and the line where there is one
 * ("journal FILE line 4: ..."): they reach the user as they are.
 *
 * Ownership and threads: record_log_open returns a RecordLog that the caller frees with
 * record_log_close.  A RecordLog is not thread-safe: callers that append from several threads
 * serialise the calls.
 */
#ifndef TUNER_UTIL_RECORD_LOG_H
#define TUNER_UTIL_RECORD_LOG_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct RecordLog RecordLog;

typedef enum {
	RECORD_LOG_SYNC = 0, /* fdatasync after each append (the default: survives power loss) */
	RECORD_LOG_NO_SYNC = 1 << 0, /* skip fdatasync: survives kill -9 only (for tests) */
} RecordLogFlags;

#define RECORD_LOG_ERROR (record_log_error_quark())

typedef enum {
	RECORD_LOG_ERROR_IO, /* open, read, write, lock or sync failed (message has strerror) */
	RECORD_LOG_ERROR_NOT_LOG,  /* the file exists but is not of the owner's kind */
	RECORD_LOG_ERROR_MISMATCH, /* written for different settings */
	RECORD_LOG_ERROR_PARSE,	   /* a malformed line (message names file and line) */
	RECORD_LOG_ERROR_BUSY,	   /* another process holds the file open */
	RECORD_LOG_ERROR_INVALID,  /* settings contain a newline; a record's value is impossible */
} RecordLogError;

GQuark record_log_error_quark(void);

/* What one kind of file is: how it starts, and how its lines are read. */
typedef struct {
	const char *magic; /* line 1 starts with it: "# linsched-tuner journal " */
	const char *kind;  /* what it is, in errors: "linsched-tuner journal" */
	/* The text a new file starts with: line 1 (record_log_header) and any comment lines, each
	 * ending in '\n'; the caller frees it.  Called when the file is created (or its header was
	 * torn). */
	char *(*start)(const RecordLog *log, void *ctx);
	/* Check line 1 (without its newline, starting with magic); FALSE with an error. */
	gboolean (*header)(const RecordLog *log, const char *line, void *ctx, GError **error);
	/* Take one record line (without its newline; comments are skipped), lineno counting from 1;
	 * FALSE with an error. */
	gboolean (*record)(const RecordLog *log, const char *line, guint lineno, void *ctx,
			   GError **error);
} RecordLogFormat;

/*
 * Open the file at path for a run described by settings (one line, no '\n'), and lock it.  A
 * missing or empty file is created with format->start's text.  Otherwise line 1 goes to
 * format->header and every record line to format->record, in order; a torn last line is dropped
 * and cut off the file.  ctx goes to the callbacks.  Returns NULL on error.
 */
RecordLog *record_log_open(const char *path, const char *settings, const RecordLogFormat *format,
			   void *ctx, RecordLogFlags flags, GError **error);

/* Close the file (which releases the lock) and free everything.  NULL is allowed. */
void record_log_close(RecordLog *log);

/* The path and the settings it was opened with (owned by the log). */
const char *record_log_path(const RecordLog *log);
const char *record_log_settings(const RecordLog *log);

/* Line 1 of a new file: head, then " sha256=<64 hex> settings=<the log's settings>\n". */
char *record_log_header(const RecordLog *log, const char *head);

/*
 * Check rest, what follows the owner's head in line 1: " sha256=<64 hex> settings=<settings>",
 * whose hash must match its text (else the header was damaged or edited) and whose text must be
 * the log's settings (else RECORD_LOG_ERROR_MISMATCH, listing the tokens that differ).
 */
gboolean record_log_check_settings(const RecordLog *log, const char *rest, GError **error);

/*
 * The n_fields space-separated fields of a record line, its check the last (freed with
 * g_strfreev), or NULL with an error naming the line when their number is not n_fields or the
 * check does not match.
 */
char **record_log_fields(const RecordLog *log, const char *line, guint lineno, guint n_fields,
			 GError **error);

/* A RECORD_LOG_ERROR_PARSE error "journal PATH line LINENO: " and the message. */
gboolean record_log_line_error(const RecordLog *log, guint lineno, GError **error,
			       const char *format, ...) G_GNUC_PRINTF(4, 5);

/* A field's number: a decimal integer up to max, a finite-or-not double, neither with spaces. */
gboolean record_log_parse_u64(const char *text, guint64 max, guint64 *out);
gboolean record_log_parse_double(const char *text, double *out);

/* Append "value wall_s" to s: the value with "%.17g", which round-trips every double exactly, and
 * the wall time with "%.6f" (seconds). */
void record_log_append_value(GString *s, double value, double wall_s);

/*
 * Append the record of fields (its text without the check) to the file, with its check and a
 * newline, in one write, and make it durable unless RECORD_LOG_NO_SYNC.  If the write fails, the
 * file is cut back to its previous length and an error is returned.
 */
gboolean record_log_append(RecordLog *log, const char *fields, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(RecordLog, record_log_close)

G_END_DECLS

#endif /* TUNER_UTIL_RECORD_LOG_H */
