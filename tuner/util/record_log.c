/*
 * record_log.c -- the append-only record file under the tuner's journals (record_log.h has the
 * format and the guarantees).
 */
#include "tuner/util/record_log.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Hex digits of the SHA-256 kept as a record's check. */
#define CHECK_DIGITS 8
/* Hex digits of the settings' SHA-256 in the header. */
#define SHA_DIGITS   64

struct RecordLog {
	char *path;
	char *settings;
	int fd;
	RecordLogFlags flags;
	off_t size; /* bytes of complete lines: where the next record starts */
};

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(record-log-error-quark, record_log_error)
/* clang-format on */

const char *record_log_path(const RecordLog *log)
{
	return log->path;
}

const char *record_log_settings(const RecordLog *log)
{
	return log->settings;
}

gboolean record_log_line_error(const RecordLog *log, guint lineno, GError **error,
			       const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	g_autofree char *message = g_strdup_vprintf(format, ap);
	va_end(ap);
	g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_PARSE, "journal %s line %u: %s",
		    log->path, lineno, message);
	return FALSE;
}

/* ---- the header ---- */

char *record_log_header(const RecordLog *log, const char *head)
{
	g_autofree char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, log->settings, -1);
	return g_strdup_printf("%s sha256=%s settings=%s\n", head, sha, log->settings);
}

/* The space-separated tokens of a that are not tokens of b, joined by spaces. */
static char *tokens_missing_from(const char *a, const char *b)
{
	g_auto(GStrv) ta = g_strsplit(a, " ", -1);
	g_auto(GStrv) tb = g_strsplit(b, " ", -1);
	g_autoptr(GString) out = g_string_new(NULL);
	for (char **t = ta; *t; t++) {
		if (**t != '\0' && !g_strv_contains((const char *const *)tb, *t))
			g_string_append_printf(out, "%s%s", out->len ? " " : "", *t);
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* "journal has 'x=1', this run has 'x=2'": the tokens that differ, or both strings in full. */
static char *describe_difference(const char *stored, const char *current)
{
	g_autofree char *only_stored = tokens_missing_from(stored, current);
	g_autofree char *only_current = tokens_missing_from(current, stored);
	if (*only_stored == '\0' && *only_current == '\0') /* same tokens, other order or spacing */
		return g_strdup_printf("journal has '%s', this run has '%s'", stored, current);
	return g_strdup_printf("journal has '%s', this run has '%s'", only_stored, only_current);
}

gboolean record_log_check_settings(const RecordLog *log, const char *rest, GError **error)
{
	const char *sha = NULL, *stored = NULL;
	if (g_str_has_prefix(rest, " sha256=")) {
		sha = rest + strlen(" sha256=");
		if (strlen(sha) >= SHA_DIGITS && g_str_has_prefix(sha + SHA_DIGITS, " settings="))
			stored = sha + SHA_DIGITS + strlen(" settings=");
	}
	if (stored == NULL)
		return record_log_line_error(
			log, 1, error,
			"malformed header (expected 'sha256=<64 hex> settings=...')");
	g_autofree char *stored_sha = g_strndup(sha, SHA_DIGITS);
	g_autofree char *actual_sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, stored, -1);
	if (strcmp(stored_sha, actual_sha) != 0)
		return record_log_line_error(log, 1, error,
					     "the header's sha256 does not match its settings "
					     "(the header was damaged or edited)");
	if (strcmp(stored, log->settings) != 0) {
		g_autofree char *diff = describe_difference(stored, log->settings);
		g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_MISMATCH,
			    "journal %s was written for a different setting: %s "
			    "(use another journal file, or delete this one to start afresh)",
			    log->path, diff);
		return FALSE;
	}
	return TRUE;
}

/* ---- records ---- */

/* The check of a record's fields (text, without the space before the check). */
static void record_check(const char *text, gsize len, char check[CHECK_DIGITS + 1])
{
	g_autofree char *sha =
		g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	memcpy(check, sha, CHECK_DIGITS);
	check[CHECK_DIGITS] = '\0';
}

char **record_log_fields(const RecordLog *log, const char *line, guint lineno, guint n_fields,
			 GError **error)
{
	g_auto(GStrv) field = g_strsplit(line, " ", -1);
	guint n = g_strv_length(field);
	if (n != n_fields) {
		record_log_line_error(log, lineno, error,
				      "expected %u space-separated fields, found %u", n_fields, n);
		return NULL;
	}
	/* The check first: a damaged line is reported as damaged, whatever its fields now say. */
	char check[CHECK_DIGITS + 1];
	record_check(line, (gsize)(strrchr(line, ' ') - line), check);
	if (strcmp(check, field[n_fields - 1]) != 0) {
		record_log_line_error(log, lineno, error,
				      "the check '%s' does not match the record (should be '%s'): "
				      "the line was damaged or edited",
				      field[n_fields - 1], check);
		return NULL;
	}
	return g_steal_pointer(&field);
}

gboolean record_log_parse_u64(const char *text, guint64 max, guint64 *out)
{
	return g_ascii_string_to_unsigned(text, 10, 0, max, out, NULL);
}

gboolean record_log_parse_double(const char *text, double *out)
{
	char *end;
	if (*text == '\0' || g_ascii_isspace(*text))
		return FALSE;
	*out = g_ascii_strtod(text, &end);
	return *end == '\0';
}

void record_log_append_value(GString *s, double value, double wall_s)
{
	char v[G_ASCII_DTOSTR_BUF_SIZE], w[G_ASCII_DTOSTR_BUF_SIZE];
	/* %.17g: 17 significant digits identify every double, so the value reads back bit-exact. */
	g_ascii_formatd(v, sizeof v, "%.17g", value);
	g_ascii_formatd(w, sizeof w, "%.6f", wall_s);
	g_string_append_printf(s, "%s %s", v, w);
}

/* ---- file I/O ---- */

static gboolean io_error(GError **error, int err, const char *what, const char *path)
{
	g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_IO, "cannot %s journal %s: %s", what,
		    path, g_strerror(err));
	return FALSE;
}

/* One write(2) of the whole buffer, so that a record is never interleaved or split by us. */
static gboolean write_once(RecordLog *log, const char *buf, gsize len, GError **error)
{
	ssize_t n;
	do
		n = write(log->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)len)
		return TRUE;
	int err =
		n < 0 ? errno : ENOSPC; /* a short write to a regular file means the disk is full */
	/* Cut off whatever part of the line did reach the file, so the next record starts clean. */
	if (n > 0 && ftruncate(log->fd, log->size) != 0)
		g_warning("journal %s: cannot remove a partial record: %s", log->path,
			  g_strerror(errno));
	return io_error(error, err, "append to", log->path);
}

static gboolean sync_if_asked(const RecordLog *log, GError **error)
{
	if ((log->flags & RECORD_LOG_NO_SYNC) || fdatasync(log->fd) == 0)
		return TRUE;
	return io_error(error, errno, "sync", log->path);
}

gboolean record_log_append(RecordLog *log, const char *fields, GError **error)
{
	char check[CHECK_DIGITS + 1];
	record_check(fields, strlen(fields), check);
	g_autofree char *line = g_strdup_printf("%s %s\n", fields, check);
	gsize len = strlen(line);
	if (!write_once(log, line, len, error))
		return FALSE;
	log->size += (off_t)len;
	return sync_if_asked(log, error);
}

/* Start an empty file (or one whose header was torn before its newline) with the format's text. */
static gboolean write_start(RecordLog *log, const RecordLogFormat *format, void *ctx,
			    GError **error)
{
	g_autofree char *text = format->start(log, ctx);
	if (ftruncate(log->fd, 0) != 0)
		return io_error(error, errno, "truncate", log->path);
	log->size = 0;
	if (!write_once(log, text, strlen(text), error) || !sync_if_asked(log, error))
		return FALSE;
	log->size = (off_t)strlen(text);
	return TRUE;
}

/*
 * Read the complete lines of contents[0, complete) (complete > 0: it ends with a newline): the
 * header, then every record; comments are skipped.
 */
static gboolean load_lines(const RecordLog *log, const char *contents, gsize complete,
			   const RecordLogFormat *format, void *ctx, GError **error)
{
	g_autofree char *text = g_strndup(contents, complete - 1); /* drop the last newline */
	if (strlen(text) != complete - 1) {
		/* A NUL byte (a block zero-filled by a crash) ends the text early: find its line. */
		guint lineno = 1;
		for (const char *p = contents; *p; p++)
			lineno += *p == '\n';
		return record_log_line_error(log, lineno, error, "contains a NUL byte");
	}
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	if (!g_str_has_prefix(lines[0], format->magic)) {
		g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_NOT_LOG,
			    "%s is not a %s (line 1 does not start with '%s'); refusing to append "
			    "to it",
			    log->path, format->kind, format->magic);
		return FALSE;
	}
	if (!format->header(log, lines[0], ctx, error))
		return FALSE;
	for (guint i = 1; lines[i]; i++) {
		if (lines[i][0] != '#' && !format->record(log, lines[i], i + 1, ctx, error))
			return FALSE;
	}
	return TRUE;
}

/* Read the file: start it, or check its header and read its records; drop a torn last line. */
static gboolean load(RecordLog *log, const RecordLogFormat *format, void *ctx, GError **error)
{
	g_autoptr(GError) map_error = NULL;
	g_autoptr(GMappedFile) map = g_mapped_file_new_from_fd(log->fd, FALSE, &map_error);
	if (map == NULL) {
		g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_IO,
			    "cannot read journal %s: %s", log->path, map_error->message);
		return FALSE;
	}
	const char *contents = g_mapped_file_get_contents(map);
	gsize length = g_mapped_file_get_length(map);
	gsize complete = length; /* length up to and including the last newline */
	while (complete > 0 && contents[complete - 1] != '\n')
		complete--;

	if (complete == 0) {
		/* No complete line, hence no record: empty, or a header torn by kill -9 while created. */
		gsize cmp = MIN(length, strlen(format->magic));
		if (length == 0 || memcmp(contents, format->magic, cmp) == 0)
			return write_start(log, format, ctx, error);
		g_set_error(
			error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_NOT_LOG,
			"%s is not a %s (it does not start with '%s'); refusing to overwrite it",
			log->path, format->kind, format->magic);
		return FALSE;
	}
	if (!load_lines(log, contents, complete, format, ctx, error))
		return FALSE;
	/* A last line without its newline is a record torn by kill -9: it is lost, and the next
	 * record must not be glued to it. */
	if (complete < length && ftruncate(log->fd, (off_t)complete) != 0)
		return io_error(error, errno, "truncate the torn last line of", log->path);
	log->size = (off_t)complete;
	return TRUE;
}

RecordLog *record_log_open(const char *path, const char *settings, const RecordLogFormat *format,
			   void *ctx, RecordLogFlags flags, GError **error)
{
	g_return_val_if_fail(path != NULL && settings != NULL && format != NULL, NULL);
	if (strpbrk(settings, "\r\n") != NULL) {
		g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_INVALID,
			    "journal %s: the settings string must be one line", path);
		return NULL;
	}
	g_autoptr(RecordLog) log = g_new0(RecordLog, 1);
	log->path = g_strdup(path);
	log->settings = g_strdup(settings);
	log->flags = flags;
	log->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log->fd < 0) {
		io_error(error, errno, "open", path);
		return NULL;
	}
	if (flock(log->fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_BUSY,
				    "journal %s is in use by another tuner process", path);
		else
			io_error(error, errno, "lock", path);
		return NULL;
	}
	if (!load(log, format, ctx, error))
		return NULL;
	return g_steal_pointer(&log);
}

void record_log_close(RecordLog *log)
{
	if (log == NULL)
		return;
	if (log->fd >= 0)
		close(log->fd); /* also releases the lock */
	g_free(log->settings);
	g_free(log->path);
	g_free(log);
}
