/*
 * journal.c -- the append-only evaluation journal (journal.h has the format and the guarantees).
 */
#include "tuner/eval/journal.h"

#include <math.h>
#include <string.h>

#define JOURNAL_MAGIC	    "# linsched-tuner journal "
#define JOURNAL_VERSION	    "v3"
/* The fields after a record's knobs: seed replicate value wall_s check. */
#define JOURNAL_TAIL_FIELDS 5

struct Journal {
	RecordLog *log; /* the file: its header, checks, appends and lock */
	KnobSet knobs;	/* the knobs of every record, in enum order */
	int version;	/* 2 or 3: what the file was started as, and its records are written in */
	GHashTable *records; /* set of JournalRecord*, keyed by (knobs, seed, replicate), the
			      * knobs outside the set 0 */
};

GQuark journal_error_quark(void)
{
	return RECORD_LOG_ERROR;
}

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

/* A new file: the header, then the column line; records are then written as v3's. */
static char *start_text(const RecordLog *log, void *ctx)
{
	Journal *journal = ctx;
	g_autofree char *names = knob_set_names(journal->knobs, ",");
	g_autofree char *head = g_strdup_printf(JOURNAL_MAGIC JOURNAL_VERSION " knobs=%s", names);
	g_autofree char *header = record_log_header(log, head);
	g_autofree char *columns = columns_line(journal->knobs);

	journal->version = 3;
	return g_strconcat(header, columns, NULL);
}

/* A record's text before its check: the set's knobs, seed, replicate, value, wall_s. */
static char *format_fields(const Journal *journal, const JournalRecord *r)
{
	GString *s = g_string_new(NULL);
	for (int i = 0; i < KNOB_COUNT; i++)
		if (journal->knobs & KNOB_BIT(i))
			g_string_append_printf(s, "%.0f ", knob_get(&r->knobs, (enum knob)i));
	g_string_append_printf(s, "%" G_GUINT64_FORMAT " %u ", r->seed, r->replicate);
	record_log_append_value(s, r->value, r->wall_s);
	return g_string_free(s, FALSE);
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

/* Parse one record line (without its newline): the set's knobs, then seed replicate value wall_s
 * check. */
static gboolean parse_record(const Journal *journal, const RecordLog *log, const char *line,
			     guint lineno, JournalRecord *out, GError **error)
{
	static const char *const tail[JOURNAL_TAIL_FIELDS] = { "seed", "replicate", "value",
							       "wall_s", "check" };
	const guint n_knobs = knob_set_count(journal->knobs),
		    n_fields = n_knobs + JOURNAL_TAIL_FIELDS;
	g_auto(GStrv) field = record_log_fields(log, line, lineno, n_fields, error);
	if (field == NULL)
		return FALSE;
	guint64 replicate = 0;
	guint f = 0;

	out->knobs = (Knobs){ 0 };
	for (int i = 0; i < KNOB_COUNT; i++) {
		guint64 v;

		if (!(journal->knobs & KNOB_BIT(i)))
			continue;
		if (!record_log_parse_u64(field[f], G_MAXUINT64, &v))
			return record_log_line_error(
				log, lineno, error, "field %u (%s) is not a valid number: '%s'",
				f + 1, knob_info((enum knob)i)->column, field[f]);
		knob_set(&out->knobs, (enum knob)i, (double)v);
		f++;
	}
	gboolean ok[JOURNAL_TAIL_FIELDS - 1] = {
		record_log_parse_u64(field[f], G_MAXUINT64, &out->seed),
		record_log_parse_u64(field[f + 1], G_MAXUINT, &replicate),
		record_log_parse_double(field[f + 2], &out->value),
		record_log_parse_double(field[f + 3], &out->wall_s),
	};
	for (guint i = 0; i < JOURNAL_TAIL_FIELDS - 1; i++) {
		if (!ok[i])
			return record_log_line_error(log, lineno, error,
						     "field %u (%s) is not a valid number: '%s'",
						     f + i + 1, tail[i], field[f + i]);
	}
	out->replicate = (guint)replicate;
	const char *why = impossible(out->value, out->wall_s);
	if (why)
		return record_log_line_error(log, lineno, error, "%s: '%s'", why, line);
	return TRUE;
}

static gboolean read_record(const RecordLog *log, const char *line, guint lineno, void *ctx,
			    GError **error)
{
	Journal *journal = ctx;
	JournalRecord record;

	if (!parse_record(journal, log, line, lineno, &record, error))
		return FALSE;
	table_add(journal, &record);
	return TRUE;
}

/*
 * The knob set of a header's version: v2 journals hold CFS's three knobs (they predate knob sets);
 * v3 names its set in " knobs=NAMES" before the sha256. *after is where " sha256=" should start.
 * The set must be the run's: another set's records are other points.
 */
static gboolean check_version(Journal *journal, const RecordLog *log, const char *version,
			      const char **after, GError **error)
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

		if (!text || !knob_set_parse(text, NULL, &stored, NULL))
			return record_log_line_error(log, 1, error,
						     "malformed header (expected 'knobs=NAMES "
						     "sha256=<64 hex> settings=...')");
		*after = end;
	}
	if (stored != journal->knobs) {
		g_autofree char *had = knob_set_names(stored, ",");
		g_autofree char *want = knob_set_names(journal->knobs, ",");
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH,
			    "journal %s line 1: written for the knobs %s (format v%d), this run "
			    "searches %s (use another journal file, or delete this one to start "
			    "afresh)",
			    record_log_path(log), had, journal->version, want);
		return FALSE;
	}
	return TRUE;
}

/*
 * Check line 1 (without its newline) against the knobs and settings of this run.  The stored hash
 * must match the stored text (else the header was damaged or edited), and the text must equal ours.
 */
static gboolean check_header(const RecordLog *log, const char *line, void *ctx, GError **error)
{
	Journal *journal = ctx;
	const char *version = line + strlen(JOURNAL_MAGIC);
	if (g_str_has_prefix(version, "v1 ")) {
		g_set_error(
			error, JOURNAL_ERROR, JOURNAL_ERROR_NOT_JOURNAL,
			"journal %s line 1: format v1, an older tuner's, whose records carry no "
			"check; this tuner reads v2 and " JOURNAL_VERSION
			" only (give another --journal, or delete this one to start afresh)",
			record_log_path(log));
		return FALSE;
	}
	if (!g_str_has_prefix(version, "v2 ") &&
	    !g_str_has_prefix(version, JOURNAL_VERSION " knobs=")) {
		g_set_error(
			error, JOURNAL_ERROR, JOURNAL_ERROR_NOT_JOURNAL,
			"journal %s line 1: unsupported format '%.16s' (this tuner reads v2 and " JOURNAL_VERSION
			")",
			record_log_path(log), version);
		return FALSE;
	}
	const char *after = NULL;
	/* After the version (and v3's knobs): " sha256=" 64 hex digits " settings=" the settings. */
	return check_version(journal, log, version, &after, error) &&
	       record_log_check_settings(log, after, error);
}

static const RecordLogFormat journal_format = { JOURNAL_MAGIC, "linsched-tuner journal", start_text,
						check_header, read_record };

Journal *journal_open(const char *path, const char *settings, JournalFlags flags, GError **error)
{
	return journal_open_knobs(path, settings, KNOB_SET_CFS, flags, error);
}

Journal *journal_open_knobs(const char *path, const char *settings, KnobSet knobs,
			    JournalFlags flags, GError **error)
{
	g_return_val_if_fail(path != NULL && settings != NULL, NULL);
	g_autoptr(Journal) journal = g_new0(Journal, 1);
	journal->knobs = knobs & KNOB_SET_ALL;
	journal->records = g_hash_table_new_full(journal_record_key_hash, journal_record_key_equal,
						 g_free, NULL);
	journal->log = record_log_open(path, settings, &journal_format, journal, flags, error);
	if (journal->log == NULL)
		return NULL;
	return g_steal_pointer(&journal);
}

void journal_close(Journal *journal)
{
	if (journal == NULL)
		return;
	record_log_close(journal->log);
	g_hash_table_destroy(journal->records);
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
			    journal_path(journal), knobs, record->seed, why, record->value,
			    record->wall_s);
		return FALSE;
	}
	g_autofree char *fields = format_fields(journal, record);
	if (!record_log_append(journal->log, fields, error))
		return FALSE;
	table_add(journal, record);
	return TRUE;
}

guint journal_count(const Journal *journal)
{
	return g_hash_table_size(journal->records);
}

const char *journal_path(const Journal *journal)
{
	return record_log_path(journal->log);
}
