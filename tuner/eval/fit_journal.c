/*
 * fit_journal.c - the journal of a fit's losses (fit_journal.h has the format).
 */
#include "tuner/eval/fit_journal.h"

#include <math.h>
#include <string.h>

#define FIT_JOURNAL_MAGIC   "# linsched-tuner fit journal "
#define FIT_JOURNAL_VERSION "v1"
/* The fields after a record's values: loss wall_s check. */
#define TAIL_FIELDS	    3

struct FitJournal {
	RecordLog *log;
	char **keys;	    /* the parameters' machine.ini keys, for line 2 */
	guint n;	    /* values per record */
	GHashTable *losses; /* GBytes of the n values -> double * */
};

/* The table's key of values. */
static GBytes *vector(const FitJournal *journal, const guint64 *values)
{
	return g_bytes_new(values, journal->n * sizeof(*values));
}

/* Add the loss at values unless the vector is there already (the first record wins). */
static void table_add(FitJournal *journal, const guint64 *values, double loss)
{
	GBytes *key = vector(journal, values);

	if (g_hash_table_contains(journal->losses, key))
		g_bytes_unref(key);
	else
		g_hash_table_insert(journal->losses, key, g_memdup2(&loss, sizeof(loss)));
}

/* Why loss and wall_s cannot be a record's, or NULL: a loss is a weighted sum of squares. */
static const char *impossible(double loss, double wall_s)
{
	if (!isfinite(loss) || loss < 0)
		return "loss is not finite and >= 0";
	if (!isfinite(wall_s) || wall_s < 0)
		return "wall_s is not a finite time >= 0";
	return NULL;
}

/* ---- the file ---- */

static char *start_text(const RecordLog *log, void *ctx)
{
	const FitJournal *journal = ctx;
	g_autofree char *header = record_log_header(log, FIT_JOURNAL_MAGIC FIT_JOURNAL_VERSION);
	g_autofree char *keys = g_strjoinv(" ", journal->keys);

	return g_strdup_printf("%s# %s loss wall_s check\n", header, keys);
}

static gboolean check_header(const RecordLog *log, const char *line, void *ctx, GError **error)
{
	const char *version = line + strlen(FIT_JOURNAL_MAGIC);

	(void)ctx;
	if (!g_str_has_prefix(version, FIT_JOURNAL_VERSION " ")) {
		g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_NOT_LOG,
			    "journal %s line 1: unsupported format '%.16s' (this tuner reads "
			    "fit journals " FIT_JOURNAL_VERSION ")",
			    record_log_path(log), version);
		return FALSE;
	}
	return record_log_check_settings(log, version + strlen(FIT_JOURNAL_VERSION), error);
}

/* One record: n values, loss, wall_s, check. */
static gboolean read_record(const RecordLog *log, const char *line, guint lineno, void *ctx,
			    GError **error)
{
	FitJournal *journal = ctx;
	g_auto(GStrv) field = record_log_fields(log, line, lineno, journal->n + TAIL_FIELDS, error);
	g_autofree guint64 *values = g_new(guint64, journal->n);
	double loss, wall_s;

	if (!field)
		return FALSE;
	for (guint i = 0; i < journal->n; i++)
		if (!record_log_parse_u64(field[i], G_MAXUINT64, &values[i]))
			return record_log_line_error(log, lineno, error,
						     "field %u (%s) is not a whole number: '%s'",
						     i + 1, journal->keys[i], field[i]);
	if (!record_log_parse_double(field[journal->n], &loss) ||
	    !record_log_parse_double(field[journal->n + 1], &wall_s))
		return record_log_line_error(log, lineno, error,
					     "the loss or wall_s is not a number: '%s'", line);
	const char *why = impossible(loss, wall_s);

	if (why)
		return record_log_line_error(log, lineno, error, "%s: '%s'", why, line);
	table_add(journal, values, loss);
	return TRUE;
}

static const RecordLogFormat fit_format = { FIT_JOURNAL_MAGIC, "linsched-tuner fit journal",
					    start_text, check_header, read_record };

FitJournal *fit_journal_open(const char *path, const char *settings, const char *const *keys,
			     guint n, RecordLogFlags flags, GError **error)
{
	g_return_val_if_fail(path != NULL && settings != NULL && n > 0, NULL);
	g_autoptr(FitJournal) journal = g_new0(FitJournal, 1);

	journal->n = n;
	journal->keys = g_new0(char *, n + 1);
	for (guint i = 0; i < n; i++)
		journal->keys[i] = g_strdup(keys[i]);
	journal->losses = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
						(GDestroyNotify)g_bytes_unref, g_free);
	journal->log = record_log_open(path, settings, &fit_format, journal, flags, error);
	if (!journal->log)
		return NULL;
	return g_steal_pointer(&journal);
}

void fit_journal_close(FitJournal *journal)
{
	if (journal) {
		record_log_close(journal->log); /* and its lock */
		g_hash_table_destroy(journal->losses);
		g_strfreev(journal->keys);
		g_free(journal);
	}
}

gboolean fit_journal_lookup(const FitJournal *journal, const guint64 *values, double *loss)
{
	g_autoptr(GBytes) key = vector(journal, values);
	const double *found = g_hash_table_lookup(journal->losses, key);

	if (found)
		*loss = *found;
	return found != NULL;
}

gboolean fit_journal_append(FitJournal *journal, const guint64 *values, double loss, double wall_s,
			    GError **error)
{
	const char *why = impossible(loss, wall_s);
	GString *fields = g_string_new(NULL);

	if (why) {
		g_set_error(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_INVALID,
			    "journal %s: cannot record a loss of %g (wall_s %g): %s",
			    fit_journal_path(journal), loss, wall_s, why);
		g_string_free(fields, TRUE);
		return FALSE;
	}
	for (guint i = 0; i < journal->n; i++)
		g_string_append_printf(fields, "%" G_GUINT64_FORMAT " ", values[i]);
	record_log_append_value(fields, loss, wall_s);

	gboolean ok = record_log_append(journal->log, fields->str, error);

	g_string_free(fields, TRUE);
	if (ok)
		table_add(journal, values, loss);
	return ok;
}

guint fit_journal_count(const FitJournal *journal)
{
	return g_hash_table_size(journal->losses);
}

const char *fit_journal_path(const FitJournal *journal)
{
	return record_log_path(journal->log);
}
