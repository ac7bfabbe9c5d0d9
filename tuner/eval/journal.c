/*
 * journal.c -- the append-only evaluation journal (journal.h has the format and the guarantees).
 */
#include "tuner/eval/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_MAGIC	    "# linsched-tuner journal "
#define JOURNAL_VERSION	    "v3"
/* The fields after a record's knobs: seed replicate value wall_s check. */
#define JOURNAL_TAIL_FIELDS 5
/* Hex digits of the SHA-256 kept as a record's check. */
#define CHECK_DIGITS	    8

struct Journal {
	char *path;
	KnobSet knobs; /* the knobs of every record, in enum order */
	int version;   /* 2 or 3: what the file was started as, and its records are written in */
	int fd;
	JournalFlags flags;
	off_t size;	     /* bytes of complete lines: where the next record starts */
	GHashTable *records; /* set of JournalRecord*, keyed by (knobs, seed, replicate), the
			      * knobs outside the set 0 */
};

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(journal-error-quark, journal_error)
/* clang-format on */

/* ---- the record table ---- */

guint journal_record_key_hash(gconstpointer record)
{
	const JournalRecord *r = record;
	const guint64 key[] = { r->knobs.latency_ns,
				r->knobs.min_granularity_ns,
				r->knobs.wakeup_granularity_ns,
				r->knobs.migration_cost_ns,
				r->knobs.base_slice_ns,
				r->seed,
				r->replicate };
	guint h = 17;
	for (gsize i = 0; i < G_N_ELEMENTS(key); i++)
		h = h * 31 + g_int64_hash(&key[i]);
	return h;
}

gboolean journal_record_key_equal(gconstpointer a, gconstpointer b)
{
	const JournalRecord *x = a, *y = b;
	return memcmp(&x->knobs, &y->knobs, sizeof x->knobs) == 0 && x->seed == y->seed &&
	       x->replicate == y->replicate;
}

/* knobs with those outside the journal's set 0: the settings hold them, so they are no part of a
 * record's key. */
static Knobs key_knobs(const Journal *journal, const Knobs *knobs)
{
	Knobs k = { 0 };

	for (int i = 0; i < KNOB_COUNT; i++)
		if (journal->knobs & KNOB_BIT(i))
			knob_set(&k, (enum knob)i, knob_get(knobs, (enum knob)i));
	return k;
}

/* Add a copy of record unless its key is already there (the first record of a key wins). */
static void table_add(Journal *journal, const JournalRecord *record)
{
	JournalRecord r = *record;

	r.knobs = key_knobs(journal, &record->knobs);
	if (!g_hash_table_contains(journal->records, &r))
		g_hash_table_add(journal->records, g_memdup2(&r, sizeof r));
}

/* ---- text format ---- */

static char *header_line(KnobSet knobs, const char *settings)
{
	g_autofree char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, settings, -1);
	g_autofree char *names = knob_set_names(knobs, ",");
	return g_strdup_printf(JOURNAL_MAGIC JOURNAL_VERSION " knobs=%s sha256=%s settings=%s\n",
			       names, sha, settings);
}

/* "# latency_ns ... seed replicate value wall_s check": line 2, the fields of a record. */
static char *columns_line(KnobSet knobs)
{
	GString *s = g_string_new("#");

	for (int i = 0; i < KNOB_COUNT; i++)
		if (knobs & KNOB_BIT(i))
			g_string_append_printf(s, " %s", knob_info((enum knob)i)->column);
	g_string_append(s, " seed replicate value wall_s check\n");
	return g_string_free(s, FALSE);
}

/* The check of a record's first seven fields (text, without the space before the check). */
static void record_check(const char *text, gsize len, char check[CHECK_DIGITS + 1])
{
	g_autofree char *sha =
		g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	memcpy(check, sha, CHECK_DIGITS);
	check[CHECK_DIGITS] = '\0';
}

static char *format_record(const Journal *journal, const JournalRecord *r)
{
	char value[G_ASCII_DTOSTR_BUF_SIZE], wall[G_ASCII_DTOSTR_BUF_SIZE];
	/* %.17g: 17 significant digits identify every double, so the value reads back bit-exact. */
	g_ascii_formatd(value, sizeof value, "%.17g", r->value);
	g_ascii_formatd(wall, sizeof wall, "%.6f", r->wall_s);
	GString *knobs = g_string_new(NULL);
	for (int i = 0; i < KNOB_COUNT; i++)
		if (journal->knobs & KNOB_BIT(i))
			g_string_append_printf(knobs, "%.0f ", knob_get(&r->knobs, (enum knob)i));
	g_autofree char *knob_text = g_string_free(knobs, FALSE);
	g_autofree char *fields = g_strdup_printf("%s%" G_GUINT64_FORMAT " %u %s %s", knob_text,
						  r->seed, r->replicate, value, wall);
	char check[CHECK_DIGITS + 1];
	record_check(fields, strlen(fields), check);
	return g_strdup_printf("%s %s\n", fields, check);
}

/* Why value and wall_s cannot be a record's, or NULL: every objective is a time. */
static const char *impossible(double value, double wall_s)
{
	if (!isfinite(value) || value <= 0)
		return "value is not a finite time > 0";
	if (!isfinite(wall_s) || wall_s < 0)
		return "wall_s is not a finite time >= 0";
	return NULL;
}

static gboolean parse_u64(const char *text, guint64 max, guint64 *out)
{
	return g_ascii_string_to_unsigned(text, 10, 0, max, out, NULL);
}

static gboolean parse_double(const char *text, double *out)
{
	char *end;
	if (*text == '\0' || g_ascii_isspace(*text))
		return FALSE;
	*out = g_ascii_strtod(text, &end);
	return *end == '\0';
}

/* Parse one record line (without its newline): the set's knobs, then seed replicate value wall_s
 * check. */
static gboolean parse_record(const Journal *journal, const char *line, guint lineno,
			     JournalRecord *out, GError **error)
{
	static const char *const tail[JOURNAL_TAIL_FIELDS] = { "seed", "replicate", "value",
							       "wall_s", "check" };
	const guint n_knobs = knob_set_count(journal->knobs),
		    n_fields = n_knobs + JOURNAL_TAIL_FIELDS;
	g_auto(GStrv) field = g_strsplit(line, " ", -1);
	guint n = g_strv_length(field);
	if (n != n_fields) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
			    "journal %s line %u: expected %u space-separated fields, found %u",
			    journal->path, lineno, n_fields, n);
		return FALSE;
	}
	/* The check first: a damaged line is reported as damaged, whatever its fields now say. */
	char check[CHECK_DIGITS + 1];
	record_check(line, (gsize)(strrchr(line, ' ') - line), check);
	if (strcmp(check, field[n_fields - 1]) != 0) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
			    "journal %s line %u: the check '%s' does not match the record (should "
			    "be '%s'): the line was damaged or edited",
			    journal->path, lineno, field[n_fields - 1], check);
		return FALSE;
	}
	guint64 replicate = 0;
	guint f = 0;

	out->knobs = (Knobs){ 0 };
	for (int i = 0; i < KNOB_COUNT; i++) {
		guint64 v;

		if (!(journal->knobs & KNOB_BIT(i)))
			continue;
		if (!parse_u64(field[f], G_MAXUINT64, &v)) {
			g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
				    "journal %s line %u: field %u (%s) is not a valid number: '%s'",
				    journal->path, lineno, f + 1, knob_info((enum knob)i)->column,
				    field[f]);
			return FALSE;
		}
		knob_set(&out->knobs, (enum knob)i, (double)v);
		f++;
	}
	gboolean ok[JOURNAL_TAIL_FIELDS - 1] = {
		parse_u64(field[f], G_MAXUINT64, &out->seed),
		parse_u64(field[f + 1], G_MAXUINT, &replicate),
		parse_double(field[f + 2], &out->value),
		parse_double(field[f + 3], &out->wall_s),
	};
	for (guint i = 0; i < JOURNAL_TAIL_FIELDS - 1; i++) {
		if (!ok[i]) {
			g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
				    "journal %s line %u: field %u (%s) is not a valid number: '%s'",
				    journal->path, lineno, f + i + 1, tail[i], field[f + i]);
			return FALSE;
		}
	}
	out->replicate = (guint)replicate;
	const char *why = impossible(out->value, out->wall_s);
	if (why) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
			    "journal %s line %u: %s: '%s'", journal->path, lineno, why, line);
		return FALSE;
	}
	return TRUE;
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

/*
 * Check line 1 (without its newline) against the settings of this run.  The stored hash must match
 * the stored text (else the header was damaged or edited), and the text must equal ours.
 */
/*
 * The knob set of a header's version: v2 journals hold CFS's three knobs (they predate knob sets);
 * v3 names its set in " knobs=NAMES" before the sha256. *after is where " sha256=" should start.
 * The set must be the run's: another set's records are other points.
 */
static gboolean check_version(Journal *journal, const char *version, const char **after,
			      GError **error)
{
	KnobSet stored;

	if (g_str_has_prefix(version, "v2 ")) {
		journal->version = 2;
		stored = KNOB_SET_CFS;
		*after = version + 2;
	} else {
		journal->version = 3;
		const char *names = version + strlen(JOURNAL_VERSION " knobs=");
		const char *end = strchr(names, ' ');
		g_autofree char *text = end ? g_strndup(names, (gsize)(end - names)) : NULL;

		if (!text || !knob_set_parse(text, NULL, &stored, NULL)) {
			g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
				    "journal %s line 1: malformed header (expected 'knobs=NAMES "
				    "sha256=<64 hex> settings=...')",
				    journal->path);
			return FALSE;
		}
		*after = end;
	}
	if (stored != journal->knobs) {
		g_autofree char *had = knob_set_names(stored, ",");
		g_autofree char *want = knob_set_names(journal->knobs, ",");
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH,
			    "journal %s line 1: written for the knobs %s (format v%d), this run "
			    "searches %s (use another journal file, or delete this one to start "
			    "afresh)",
			    journal->path, had, journal->version, want);
		return FALSE;
	}
	return TRUE;
}

/*
 * Check line 1 (without its newline) against the knobs and settings of this run.  The stored hash
 * must match the stored text (else the header was damaged or edited), and the text must equal ours.
 */
static gboolean check_header(Journal *journal, const char *line, const char *settings,
			     GError **error)
{
	const char *version = line + strlen(JOURNAL_MAGIC);
	if (g_str_has_prefix(version, "v1 ")) {
		g_set_error(
			error, JOURNAL_ERROR, JOURNAL_ERROR_NOT_JOURNAL,
			"journal %s line 1: format v1, an older tuner's, whose records carry no "
			"check; this tuner reads v2 and " JOURNAL_VERSION
			" only (give another --journal, or delete this one to start afresh)",
			journal->path);
		return FALSE;
	}
	if (!g_str_has_prefix(version, "v2 ") &&
	    !g_str_has_prefix(version, JOURNAL_VERSION " knobs=")) {
		g_set_error(
			error, JOURNAL_ERROR, JOURNAL_ERROR_NOT_JOURNAL,
			"journal %s line 1: unsupported format '%.16s' (this tuner reads v2 and " JOURNAL_VERSION
			")",
			journal->path, version);
		return FALSE;
	}
	const char *after;
	if (!check_version(journal, version, &after, error))
		return FALSE;
	/* After the version (and v3's knobs): " sha256=" 64 hex digits " settings=" the settings. */
	const char *sha = NULL, *stored = NULL;
	if (g_str_has_prefix(after, " sha256=")) {
		sha = after + strlen(" sha256=");
		if (strlen(sha) >= 64 && g_str_has_prefix(sha + 64, " settings="))
			stored = sha + 64 + strlen(" settings=");
	}
	if (stored == NULL) {
		g_set_error(
			error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
			"journal %s line 1: malformed header (expected 'sha256=<64 hex> settings=...')",
			journal->path);
		return FALSE;
	}
	g_autofree char *stored_sha = g_strndup(sha, 64);
	g_autofree char *actual_sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, stored, -1);
	if (strcmp(stored_sha, actual_sha) != 0) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
			    "journal %s line 1: the header's sha256 does not match its settings "
			    "(the header was damaged or edited)",
			    journal->path);
		return FALSE;
	}
	if (strcmp(stored, settings) != 0) {
		g_autofree char *diff = describe_difference(stored, settings);
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH,
			    "journal %s was written for a different setting: %s "
			    "(use another journal file, or delete this one to start afresh)",
			    journal->path, diff);
		return FALSE;
	}
	return TRUE;
}

/* ---- file I/O ---- */

static gboolean io_error(GError **error, int err, const char *what, const char *path)
{
	g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_IO, "cannot %s journal %s: %s", what, path,
		    g_strerror(err));
	return FALSE;
}

/* One write(2) of the whole buffer, so that a record is never interleaved or split by us. */
static gboolean write_once(Journal *journal, const char *buf, gsize len, GError **error)
{
	ssize_t n;
	do
		n = write(journal->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)len)
		return TRUE;
	int err =
		n < 0 ? errno : ENOSPC; /* a short write to a regular file means the disk is full */
	/* Cut off whatever part of the line did reach the file, so the next record starts clean. */
	if (n > 0 && ftruncate(journal->fd, journal->size) != 0)
		g_warning("journal %s: cannot remove a partial record: %s", journal->path,
			  g_strerror(errno));
	return io_error(error, err, "append to", journal->path);
}

static gboolean sync_if_asked(const Journal *journal, GError **error)
{
	if ((journal->flags & JOURNAL_NO_SYNC) || fdatasync(journal->fd) == 0)
		return TRUE;
	return io_error(error, errno, "sync", journal->path);
}

/* Start an empty file (or one whose header was torn before its newline) with a fresh header. */
static gboolean write_header(Journal *journal, const char *settings, GError **error)
{
	g_autofree char *header = header_line(journal->knobs, settings);
	g_autofree char *columns = columns_line(journal->knobs);
	g_autofree char *text = g_strconcat(header, columns, NULL);
	if (ftruncate(journal->fd, 0) != 0)
		return io_error(error, errno, "truncate", journal->path);
	journal->size = 0;
	if (!write_once(journal, text, strlen(text), error) || !sync_if_asked(journal, error))
		return FALSE;
	journal->size = (off_t)strlen(text);
	journal->version = 3;
	return TRUE;
}

/*
 * Load the complete lines of contents[0, complete) (complete > 0: it ends with a newline): check
 * the header, then every comment and record.
 */
static gboolean load_lines(Journal *journal, const char *contents, gsize complete,
			   const char *settings, GError **error)
{
	g_autofree char *text = g_strndup(contents, complete - 1); /* drop the last newline */
	if (strlen(text) != complete - 1) {
		/* A NUL byte (a block zero-filled by a crash) ends the text early: find its line. */
		guint lineno = 1;
		for (const char *p = contents; *p; p++)
			lineno += *p == '\n';
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_PARSE,
			    "journal %s line %u: contains a NUL byte", journal->path, lineno);
		return FALSE;
	}
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	if (!g_str_has_prefix(lines[0], JOURNAL_MAGIC)) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_NOT_JOURNAL,
			    "%s is not a linsched-tuner journal (line 1 does not start with '%s'); "
			    "refusing to append to it",
			    journal->path, JOURNAL_MAGIC);
		return FALSE;
	}
	if (!check_header(journal, lines[0], settings, error))
		return FALSE;
	for (guint i = 1; lines[i]; i++) {
		JournalRecord record;
		if (lines[i][0] == '#')
			continue;
		if (!parse_record(journal, lines[i], i + 1, &record, error))
			return FALSE;
		table_add(journal, &record);
	}
	return TRUE;
}

/* Read the file: create the header, or check it and load the records; drop a torn last line. */
static gboolean load(Journal *journal, const char *settings, GError **error)
{
	g_autoptr(GError) map_error = NULL;
	g_autoptr(GMappedFile) map = g_mapped_file_new_from_fd(journal->fd, FALSE, &map_error);
	if (map == NULL) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_IO, "cannot read journal %s: %s",
			    journal->path, map_error->message);
		return FALSE;
	}
	const char *contents = g_mapped_file_get_contents(map);
	gsize length = g_mapped_file_get_length(map);
	gsize complete = length; /* length up to and including the last newline */
	while (complete > 0 && contents[complete - 1] != '\n')
		complete--;

	if (complete == 0) {
		/* No complete line, hence no record: empty, or a header torn by kill -9 while created. */
		gsize cmp = MIN(length, strlen(JOURNAL_MAGIC));
		if (length == 0 || memcmp(contents, JOURNAL_MAGIC, cmp) == 0)
			return write_header(journal, settings, error);
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_NOT_JOURNAL,
			    "%s is not a linsched-tuner journal (it does not start with '%s'); "
			    "refusing to overwrite it",
			    journal->path, JOURNAL_MAGIC);
		return FALSE;
	}
	if (!load_lines(journal, contents, complete, settings, error))
		return FALSE;
	/* A last line without its newline is a record torn by kill -9: the evaluation is lost, and
	 * the next record must not be glued to it. */
	if (complete < length && ftruncate(journal->fd, (off_t)complete) != 0)
		return io_error(error, errno, "truncate the torn last line of", journal->path);
	journal->size = (off_t)complete;
	return TRUE;
}

Journal *journal_open(const char *path, const char *settings, JournalFlags flags, GError **error)
{
	return journal_open_knobs(path, settings, KNOB_SET_CFS, flags, error);
}

Journal *journal_open_knobs(const char *path, const char *settings, KnobSet knobs,
			    JournalFlags flags, GError **error)
{
	g_return_val_if_fail(path != NULL && settings != NULL, NULL);
	if (strpbrk(settings, "\r\n") != NULL) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_INVALID,
			    "journal %s: the settings string must be one line", path);
		return NULL;
	}
	g_autoptr(Journal) journal = g_new0(Journal, 1);
	journal->path = g_strdup(path);
	journal->knobs = knobs & KNOB_SET_ALL;
	journal->flags = flags;
	journal->records = g_hash_table_new_full(journal_record_key_hash, journal_record_key_equal,
						 g_free, NULL);
	journal->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (journal->fd < 0) {
		io_error(error, errno, "open", path);
		return NULL;
	}
	if (flock(journal->fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_BUSY,
				    "journal %s is in use by another tuner process", path);
		else
			io_error(error, errno, "lock", path);
		return NULL;
	}
	if (!load(journal, settings, error))
		return NULL;
	return g_steal_pointer(&journal);
}

void journal_close(Journal *journal)
{
	if (journal == NULL)
		return;
	if (journal->fd >= 0)
		close(journal->fd); /* also releases the lock */
	g_hash_table_destroy(journal->records);
	g_free(journal->path);
	g_free(journal);
}

gboolean journal_lookup(const Journal *journal, const Knobs *knobs, guint64 seed, guint replicate,
			JournalRecord *out)
{
	const JournalRecord key = { .knobs = key_knobs(journal, knobs),
				    .seed = seed,
				    .replicate = replicate };
	const JournalRecord *found = g_hash_table_lookup(journal->records, &key);
	if (found && out) {
		*out = *found;
		out->knobs = *knobs;
	}
	return found != NULL;
}

gboolean journal_append(Journal *journal, const JournalRecord *record, GError **error)
{
	const char *why = impossible(record->value, record->wall_s);
	if (why) {
		g_autofree char *knobs = knobs_describe(&record->knobs, journal->knobs);
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_INVALID,
			    "journal %s: cannot record %s seed=%" G_GUINT64_FORMAT
			    ": %s (value %g, wall_s %g)",
			    journal->path, knobs, record->seed, why, record->value, record->wall_s);
		return FALSE;
	}
	g_autofree char *line = format_record(journal, record);
	gsize len = strlen(line);
	if (!write_once(journal, line, len, error))
		return FALSE;
	journal->size += (off_t)len;
	table_add(journal, record);
	return sync_if_asked(journal, error);
}

guint journal_count(const Journal *journal)
{
	return g_hash_table_size(journal->records);
}

const char *journal_path(const Journal *journal)
{
	return journal->path;
}
