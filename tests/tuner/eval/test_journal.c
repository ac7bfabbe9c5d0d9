/*
 * test_journal.c -- the evaluation journal: format, exact round trip, resume, refusals, torn lines.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "tests/support/support.h"
#include "tuner/eval/journal.h"

#define SETTINGS	"groups=5 loops=100"
/* printf 'groups=5 loops=100' | sha256sum (coreutils), computed outside GLib. */
#define SETTINGS_SHA256 "2bfd4cfde7eaeb14963d8a1723588165e2931f32f98213e583e6c3716086cd44"

typedef struct temp_file Fixture;

static int setup(void **state)
{
	*state = temp_file_new("test-journal-XXXXXX", "journal.txt");
	return 0;
}

static int teardown(void **state)
{
	temp_file_free(*state);
	return 0;
}

static void write_text(const char *path, const char *text)
{
	assert_true(g_file_set_contents(path, text, -1, NULL));
}

static JournalRecord record(guint64 latency, guint64 seed, guint replicate, double value)
{
	return (JournalRecord){ .knobs = KNOBS_CFS(latency, 3000000, 4000000),
				.seed = seed,
				.replicate = replicate,
				.value = value,
				.wall_s = 1.5 };
}

static Journal *open_ok(const char *path, const char *settings)
{
	g_autoptr(GError) error = NULL;
	Journal *journal = journal_open(path, settings, JOURNAL_NO_SYNC, &error);
	if (journal == NULL)
		fail_msg("journal_open: %s", error->message);
	return journal;
}

static void append_ok(Journal *journal, const JournalRecord *r)
{
	g_autoptr(GError) error = NULL;
	if (!journal_append(journal, r, &error))
		fail_msg("journal_append: %s", error->message);
}

/* Expect journal_open to fail with code, with every one of the NULL-terminated substrings. */
static void expect_open_error(const char *path, const char *settings, int code, ...)
{
	g_autoptr(GError) error = NULL;
	Journal *journal = journal_open(path, settings, JOURNAL_NO_SYNC, &error);
	assert_null(journal);
	assert_non_null(error);
	if (!g_error_matches(error, JOURNAL_ERROR, code))
		fail_msg("expected code %d, got %d: %s", code, error->code, error->message);
	va_list ap;
	va_start(ap, code);
	for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *)) {
		if (strstr(error->message, s) == NULL)
			fail_msg("message lacks '%s': %s", s, error->message);
	}
	va_end(ap);
}

/* A new journal holds the header, with the SHA-256 of the settings, and the column line. */
static void test_new_file_has_header(void **state)
{
	Fixture *f = *state;
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	assert_int_equal(journal_count(journal), 0);
	assert_string_equal(journal_path(journal), f->path);
	g_autofree char *text = read_text(f->path);
	assert_string_equal(
		text, "# linsched-tuner journal v3 "
		      "knobs=latency,min_granularity,wakeup_granularity sha256=" SETTINGS_SHA256
		      " settings=" SETTINGS "\n"
		      "# latency_ns min_granularity_ns wakeup_granularity_ns seed "
		      "replicate value wall_s check\n");
}

/* A record is one line in the documented format; 0.1 printed with %.17g is 0.10000000000000001;
 * the check is printf '10000000 3000000 4000000 7 2 0.10000000000000001 1.500000' | sha256sum
 * (coreutils), its first 8 digits. */
static void test_record_line_format(void **state)
{
	Fixture *f = *state;
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	JournalRecord r = record(10000000, 7, 2, 0.1);
	append_ok(journal, &r);
	g_autofree char *text = read_text(f->path);
	assert_true(g_str_has_suffix(
		text, "\n10000000 3000000 4000000 7 2 0.10000000000000001 1.500000 52140fff\n"));
}

/* fields (seven, space-separated) with its check appended, as the tuner would write it. */
static char *with_check(const char *fields)
{
	g_autofree char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, fields, -1);
	return g_strdup_printf("%s %.8s", fields, sha);
}

/* Values read back after reopening are the same doubles bit for bit, awkward ones included. */
static void test_values_round_trip_exactly(void **state)
{
	Fixture *f = *state;
	const double values[] = { 0.1,	   1.0 / 3.0,	       5e-324, 1.7976931348623157e308,
				  2.5e-17, 123456789.123456789 };
	const gsize n = G_N_ELEMENTS(values);
	{
		g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		for (gsize i = 0; i < n; i++) {
			JournalRecord r = record(1000000 + i, 99, (guint)i, values[i]);
			append_ok(journal, &r);
		}
	}
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	assert_int_equal(journal_count(journal), n);
	for (gsize i = 0; i < n; i++) {
		JournalRecord r = record(1000000 + i, 99, (guint)i, 0);
		JournalRecord got;
		assert_true(journal_lookup(journal, &r.knobs, 99, (guint)i, &got));
		assert_memory_equal(&got.value, &values[i], sizeof(double));
		assert_memory_equal(&got.knobs, &r.knobs, sizeof r.knobs);
		assert_true(got.wall_s == 1.5);
	}
}

/* Values no time can have are refused on the way in, and nothing is written. */
static void test_impossible_values_not_appended(void **state)
{
	Fixture *f = *state;
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	g_autofree char *before = read_text(f->path);
	const double values[] = { 0, -0.0, -1, -2.5e-17, INFINITY, -INFINITY, NAN };
	for (gsize i = 0; i < G_N_ELEMENTS(values); i++) {
		JournalRecord r = record(1000, 1, 0, values[i]);
		g_autoptr(GError) error = NULL;
		assert_false(journal_append(journal, &r, &error));
		assert_true(g_error_matches(error, JOURNAL_ERROR, JOURNAL_ERROR_INVALID));
		assert_non_null(strstr(error->message, "not a finite time > 0"));
	}
	JournalRecord r = record(1000, 1, 0, 1.0);
	r.wall_s = -1;
	g_autoptr(GError) error = NULL;
	assert_false(journal_append(journal, &r, &error));
	assert_non_null(strstr(error->message, "wall_s"));
	assert_int_equal(journal_count(journal), 0);
	g_autofree char *after = read_text(f->path);
	assert_string_equal(before, after);
}

/* The key is (knobs, seed, replicate): changing any part of it misses. */
static void test_lookup_uses_the_whole_key(void **state)
{
	Fixture *f = *state;
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	JournalRecord r = record(5000000, 11, 1, 2.0);
	append_ok(journal, &r);
	Knobs k = r.knobs;
	assert_true(journal_lookup(journal, &k, 11, 1, NULL));
	assert_false(journal_lookup(journal, &k, 12, 1, NULL));
	assert_false(journal_lookup(journal, &k, 11, 0, NULL));
	k.latency_ns++;
	assert_false(journal_lookup(journal, &k, 11, 1, NULL));
	k = r.knobs;
	k.min_granularity_ns++;
	assert_false(journal_lookup(journal, &k, 11, 1, NULL));
	k = r.knobs;
	k.wakeup_granularity_ns++;
	assert_false(journal_lookup(journal, &k, 11, 1, NULL));
}

/* A journal of other settings is refused, says which tokens differ, and is left untouched. */
static void test_different_settings_refused(void **state)
{
	Fixture *f = *state;
	{
		g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		JournalRecord r = record(1, 1, 0, 1.0);
		append_ok(journal, &r);
	}
	g_autofree char *before = read_text(f->path);
	expect_open_error(f->path, "groups=10 loops=100", JOURNAL_ERROR_MISMATCH, f->path,
			  "was written for a different setting", "journal has 'groups=5'",
			  "this run has 'groups=10'", NULL);
	/* Same tokens in another order: not canonical, so both strings are shown in full. */
	expect_open_error(f->path, "loops=100 groups=5", JOURNAL_ERROR_MISMATCH,
			  "journal has '" SETTINGS "', this run has 'loops=100 groups=5'", NULL);
	g_autofree char *after = read_text(f->path);
	assert_string_equal(before, after);
}

/* A header whose settings were edited no longer matches its hash. */
static void test_edited_header_detected(void **state)
{
	Fixture *f = *state;
	write_text(f->path, "# linsched-tuner journal v2 sha256=" SETTINGS_SHA256
			    " settings=groups=6 loops=100\n");
	expect_open_error(f->path, "groups=6 loops=100", JOURNAL_ERROR_PARSE, "line 1", "sha256",
			  NULL);
	write_text(f->path, "# linsched-tuner journal v2 sha256=abc settings=x\n");
	expect_open_error(f->path, "x", JOURNAL_ERROR_PARSE, "line 1", "malformed header", NULL);
	write_text(f->path, "# linsched-tuner journal v3 whatever\n");
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_NOT_JOURNAL, "unsupported format 'v3",
			  NULL);
}

/* An older tuner's journal (v1, records without checks) is refused with a message saying so, and
 * left as it was. */
static void test_v1_refused(void **state)
{
	Fixture *f = *state;
	const char *v1 = "# linsched-tuner journal v1 sha256=" SETTINGS_SHA256 " settings=" SETTINGS
			 "\n1000 3000000 4000000 5 0 2.5 1.500000\n";
	write_text(f->path, v1);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_NOT_JOURNAL, f->path, "line 1",
			  "format v1", "start afresh", NULL);
	g_autofree char *after = read_text(f->path);
	assert_string_equal(after, v1);
}

/* A file that is not a journal is refused and not modified, with or without a final newline. */
static void test_foreign_file_untouched(void **state)
{
	Fixture *f = *state;
	const char *texts[] = { "hello\nworld\n", "hello, no newline" };
	for (gsize i = 0; i < G_N_ELEMENTS(texts); i++) {
		write_text(f->path, texts[i]);
		expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_NOT_JOURNAL,
				  "is not a linsched-tuner journal", NULL);
		g_autofree char *after = read_text(f->path);
		assert_string_equal(after, texts[i]);
	}
}

/* Build a journal of three records and return its text. */
static char *three_records(const char *path)
{
	g_autoptr(Journal) journal = open_ok(path, SETTINGS);
	for (guint i = 0; i < 3; i++) {
		JournalRecord r = record(1000 + i, 5, 0, (i + 1) * 0.5);
		append_ok(journal, &r);
	}
	return read_text(path);
}

/* A malformed line in the middle is an error naming the file and its line number. */
static void test_garbage_line_names_line(void **state)
{
	Fixture *f = *state;
	g_autofree char *text = three_records(f->path);
	/* Lines: 1 header, 2 columns, 3-5 records.  Replace line 4 (the second record). */
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_free(lines[3]);
	lines[3] = with_check("1001 3000000 4000000 5 0 zero 1.5");
	g_autofree char *bad_value = g_strjoinv("\n", lines);
	write_text(f->path, bad_value);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, f->path, "line 4", "value",
			  "'zero'", NULL);

	g_free(lines[3]);
	lines[3] = g_strdup("1001 3000000");
	g_autofree char *short_line = g_strjoinv("\n", lines);
	write_text(f->path, short_line);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, "line 4", "expected 8", "found 2",
			  NULL);

	g_free(lines[3]);
	lines[3] = with_check("-1001 3000000 4000000 5 0 1 1.5");
	g_autofree char *negative = g_strjoinv("\n", lines);
	write_text(f->path, negative);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, "line 4", "latency_ns", NULL);

	g_free(lines[3]);
	lines[3] = g_strdup("");
	g_autofree char *blank = g_strjoinv("\n", lines);
	write_text(f->path, blank);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, "line 4", NULL);

	/* A NUL byte, as left by a block zero-filled in a crash, in line 5. */
	gsize len = strlen(text);
	g_autofree char *with_nul = g_memdup2(text, len);
	with_nul[len - 3] = '\0';
	assert_true(g_file_set_contents(f->path, with_nul, (gssize)len, NULL));
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, "line 5", "NUL", NULL);
}

/*
 * The reproducer: a record's value edited to -1, 0, 1e-300, inf or nan. With the old check
 * the edit is caught by it; with the check recomputed, every value but 1e-300 (a time, if an
 * absurd one) is refused as no time. Either way the error names the file and line.
 */
static void test_edited_value_refused(void **state)
{
	Fixture *f = *state;
	g_autofree char *text = three_records(f->path);
	/* Line 4, the second record: "1001 3000000 4000000 5 0 1 1.500000 CHECK". */
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_auto(GStrv) field = g_strsplit(lines[3], " ", -1);
	assert_string_equal(field[5], "1");
	const char *values[] = { "-1", "0", "1e-300", "inf", "nan", "-0" };
	for (gsize i = 0; i < G_N_ELEMENTS(values); i++) {
		g_autofree char *old = lines[3];
		lines[3] = g_strdup_printf("1001 3000000 4000000 5 0 %s 1.500000 %s", values[i],
					   field[7]);
		g_autofree char *kept_check = g_strjoinv("\n", lines);
		write_text(f->path, kept_check);
		expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, f->path, "line 4",
				  "does not match", NULL);
		g_free(lines[3]);
		g_autofree char *fields =
			g_strdup_printf("1001 3000000 4000000 5 0 %s 1.500000", values[i]);
		lines[3] = with_check(fields);
		g_autofree char *new_check = g_strjoinv("\n", lines);
		write_text(f->path, new_check);
		if (strcmp(values[i], "1e-300") == 0) {
			g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		} else {
			expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, f->path, "line 4",
					  "not a finite time > 0", NULL);
		}
		g_free(lines[3]);
		lines[3] = g_steal_pointer(&old);
	}
	/* A negative wall time too. */
	g_free(lines[3]);
	lines[3] = with_check("1001 3000000 4000000 5 0 1 -1");
	g_autofree char *wall = g_strjoinv("\n", lines);
	write_text(f->path, wall);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_PARSE, "line 4", "wall_s", NULL);
}

/* Comment lines are allowed anywhere after the header. */
static void test_comments_ignored(void **state)
{
	Fixture *f = *state;
	g_autofree char *text = three_records(f->path);
	g_autofree char *commented = g_strconcat(text, "# resumed by hand\n", NULL);
	write_text(f->path, commented);
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	assert_int_equal(journal_count(journal), 3);
}

/* A last line without newline (kill -9 during the write) is dropped and cut off the file, so the
 * next record starts on a line of its own. */
static void test_torn_last_line_dropped(void **state)
{
	Fixture *f = *state;
	g_autofree char *text = three_records(f->path);
	g_autofree char *torn = g_strconcat(text, "1003 3000000 40", NULL);
	write_text(f->path, torn);
	{
		g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		assert_int_equal(journal_count(journal), 3);
		g_autofree char *now = read_text(f->path);
		assert_string_equal(now, text); /* truncated at open */
		JournalRecord r = record(1003, 5, 0, 7.25);
		append_ok(journal, &r);
	}
	/* The check: printf '1003 3000000 4000000 5 0 7.25 1.500000' | sha256sum, 8 digits. */
	g_autofree char *expected =
		g_strconcat(text, "1003 3000000 4000000 5 0 7.25 1.500000 2f14d3db\n", NULL);
	g_autofree char *after = read_text(f->path);
	assert_string_equal(after, expected);
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	assert_int_equal(journal_count(journal), 4);
}

/* A header torn before its newline holds no record: the journal starts afresh. */
static void test_torn_header_restarts(void **state)
{
	Fixture *f = *state;
	write_text(f->path, "# linsched-tuner jour");
	{
		g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		assert_int_equal(journal_count(journal), 0);
	}
	g_autofree char *text = read_text(f->path);
	assert_true(g_str_has_prefix(text,
				     "# linsched-tuner journal v3 knobs=latency,"
				     "min_granularity,wakeup_granularity sha256=" SETTINGS_SHA256));
}

/* A second open of a journal in use is refused; after close it succeeds. */
static void test_second_opener_refused(void **state)
{
	Fixture *f = *state;
	Journal *first = open_ok(f->path, SETTINGS);
	expect_open_error(f->path, SETTINGS, JOURNAL_ERROR_BUSY, "in use", NULL);
	journal_close(first);
	g_autoptr(Journal) again = open_ok(f->path, SETTINGS);
	assert_non_null(again);
}

/* Two records of one key: the first wins, in memory and after reopening. */
static void test_duplicate_key_first_wins(void **state)
{
	Fixture *f = *state;
	JournalRecord a = record(77, 3, 1, 1.0), b = record(77, 3, 1, 2.0), got;
	{
		g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		append_ok(journal, &a);
		append_ok(journal, &b);
		assert_int_equal(journal_count(journal), 1);
		assert_true(journal_lookup(journal, &a.knobs, 3, 1, &got));
		assert_true(got.value == 1.0);
	}
	g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
	assert_int_equal(journal_count(journal), 1);
	assert_true(journal_lookup(journal, &a.knobs, 3, 1, &got));
	assert_true(got.value == 1.0);
}

static void test_multiline_settings_refused(void **state)
{
	Fixture *f = *state;
	expect_open_error(f->path, "a=1\nb=2", JOURNAL_ERROR_INVALID, "one line", NULL);
	assert_false(g_file_test(f->path, G_FILE_TEST_EXISTS));
}

/* With syncing on (the default), appends work the same. */
static void test_sync_mode(void **state)
{
	Fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autoptr(Journal) journal = journal_open(f->path, SETTINGS, JOURNAL_SYNC, &error);
	assert_non_null(journal);
	JournalRecord r = record(9, 9, 0, 9.0);
	assert_true(journal_append(journal, &r, &error));
	assert_int_equal(journal_count(journal), 1);
}

static void test_unopenable_path(void **state)
{
	Fixture *f = *state;
	g_autofree char *path = g_build_filename(f->dir, "no-such-dir", "journal.txt", NULL);
	expect_open_error(path, SETTINGS, JOURNAL_ERROR_IO, "cannot open journal", path, NULL);
}

/* The v2 journal of test_record_line_format, written by the tuner before knob sets. */
#define V2_JOURNAL                                                                                  \
	"# linsched-tuner journal v2 sha256=" SETTINGS_SHA256 " settings=" SETTINGS "\n"            \
	"# latency_ns min_granularity_ns wakeup_granularity_ns seed replicate value wall_s check\n" \
	"10000000 3000000 4000000 7 2 0.10000000000000001 1.500000 52140fff\n"

/* A v2 journal holds CFS's three knobs: a run of that set resumes it and appends records of the
 * same form (the check of the new line: printf '10000000 3000000 4000000 8 0 2.5 1.500000' |
 * sha256sum), so it stays v2; a run of another set is refused naming file and line. */
static void test_v2_resumes(void **state)
{
	Fixture *f = *state;
	write_text(f->path, V2_JOURNAL);
	{
		g_autoptr(Journal) journal = open_ok(f->path, SETTINGS);
		JournalRecord r = record(10000000, 7, 2, 0), got;
		assert_int_equal(journal_count(journal), 1);
		assert_true(journal_lookup(journal, &r.knobs, 7, 2, &got));
		assert_true(got.value == 0.1);
		r = record(10000000, 8, 0, 2.5);
		append_ok(journal, &r);
	}
	g_autofree char *text = read_text(f->path);
	assert_string_equal(text,
			    V2_JOURNAL "10000000 3000000 4000000 8 0 2.5 1.500000 57cb3a62\n");

	g_autoptr(GError) error = NULL;
	KnobSet four = KNOB_SET_CFS | KNOB_BIT(KNOB_MIGRATION_COST);
	assert_null(journal_open_knobs(f->path, SETTINGS, four, JOURNAL_NO_SYNC, &error));
	assert_true(g_error_matches(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH));
	g_autofree char *want = g_strdup_printf(
		"journal %s line 1: written for the knobs latency,min_granularity,wakeup_granularity "
		"(format v2), this run searches latency,min_granularity,wakeup_granularity,"
		"migration_cost",
		f->path);
	if (!g_str_has_prefix(error->message, want))
		fail_msg("%s", error->message);
}

/* A v3 journal of EEVDF's two knobs: header, column line and records carry those two only (the
 * check: printf '500000 3000000 7 2 0.10000000000000001 1.500000' | sha256sum); it reads back
 * exactly, the knobs outside the set ignored by lookups; another set is refused. */
static void test_v3_knob_set_round_trip(void **state)
{
	Fixture *f = *state;
	const KnobSet set = KNOB_BIT(KNOB_MIGRATION_COST) | KNOB_BIT(KNOB_BASE_SLICE);
	JournalRecord r = { .knobs = { .migration_cost_ns = 500000, .base_slice_ns = 3000000 },
			    .seed = 7,
			    .replicate = 2,
			    .value = 0.1,
			    .wall_s = 1.5 };
	g_autoptr(GError) error = NULL;
	{
		g_autoptr(Journal) journal =
			journal_open_knobs(f->path, SETTINGS, set, JOURNAL_NO_SYNC, &error);
		assert_non_null(journal);
		append_ok(journal, &r);
	}
	g_autofree char *text = read_text(f->path);
	assert_string_equal(text, "# linsched-tuner journal v3 knobs=migration_cost,base_slice "
				  "sha256=" SETTINGS_SHA256 " settings=" SETTINGS "\n"
				  "# migration_cost_ns base_slice_ns seed replicate value wall_s "
				  "check\n"
				  "500000 3000000 7 2 0.10000000000000001 1.500000 8a0baa1b\n");
	{
		g_autoptr(Journal) journal =
			journal_open_knobs(f->path, SETTINGS, set, JOURNAL_NO_SYNC, &error);
		assert_non_null(journal);
		JournalRecord got;
		Knobs other = r.knobs;
		other.latency_ns = 123; /* not in the set: not part of the key */
		assert_true(journal_lookup(journal, &other, 7, 2, &got));
		assert_memory_equal(&got.value, &r.value, sizeof(double));
		assert_int_equal(got.knobs.latency_ns, 123);
		other.base_slice_ns++;
		assert_false(journal_lookup(journal, &other, 7, 2, NULL));
	}
	assert_null(journal_open_knobs(f->path, SETTINGS, KNOB_BIT(KNOB_BASE_SLICE),
				       JOURNAL_NO_SYNC, &error));
	assert_true(g_error_matches(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH));
	g_autofree char *want = g_strdup_printf("journal %s line 1: written for the knobs "
						"migration_cost,base_slice (format v3), this run "
						"searches base_slice",
						f->path);
	if (!g_str_has_prefix(error->message, want))
		fail_msg("%s", error->message);
	g_clear_error(&error);
	/* A record of the wrong width is caught by its line. */
	write_text(f->path, "# linsched-tuner journal v3 knobs=base_slice sha256=" SETTINGS_SHA256
			    " settings=" SETTINGS "\n"
			    "500000 3000000 7 2 0.10000000000000001 1.500000 8a0baa1b\n");
	assert_null(journal_open_knobs(f->path, SETTINGS, KNOB_BIT(KNOB_BASE_SLICE),
				       JOURNAL_NO_SYNC, &error));
	g_autofree char *line2 = g_strdup_printf("journal %s line 2: expected 6", f->path);
	if (!g_str_has_prefix(error->message, line2))
		fail_msg("%s", error->message);
	g_clear_error(&error);
	write_text(f->path, "# linsched-tuner journal v3 knobs=base_slice,nope sha256=x\n");
	assert_null(journal_open_knobs(f->path, SETTINGS, KNOB_BIT(KNOB_BASE_SLICE),
				       JOURNAL_NO_SYNC, &error));
	assert_non_null(strstr(error->message, "line 1: malformed header"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v2_resumes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v3_knob_set_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_file_has_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_line_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values_round_trip_exactly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lookup_uses_the_whole_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_different_settings_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_edited_header_detected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v1_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_impossible_values_not_appended, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_edited_value_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_file_untouched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage_line_names_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comments_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_last_line_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_header_restarts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_opener_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_key_first_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiline_settings_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unopenable_path, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
