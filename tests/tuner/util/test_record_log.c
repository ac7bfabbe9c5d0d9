/*
 * tests/tuner/util/test_record_log.c - the append-only record file under the journals
 * (tuner/util/record_log.h), with a format of its own: a header "# test log v1 sha256=...
 * settings=...", records of two words and the check. A new file starts with the format's text;
 * records read back in order, comments skipped; other settings are refused with the tokens that
 * differ; a damaged check, a wrong field count and a NUL byte are errors naming file and line; a
 * torn last line is dropped and cut off, a torn header starts afresh; a file of another kind is
 * left alone; a second open is refused while the first holds the lock; a write cut short by a full
 * disk leaves no partial line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "tests/support/support.h"
#include "tuner/util/record_log.h"

#define MAGIC	 "# test log "
#define SETTINGS "a=1 b=2"

static char *start(const RecordLog *log, void *ctx)
{
	g_autofree char *header = record_log_header(log, MAGIC "v1");

	(void)ctx;
	return g_strconcat(header, "# word number check\n", NULL);
}

static gboolean header(const RecordLog *log, const char *line, void *ctx, GError **error)
{
	const char *version = line + strlen(MAGIC);

	(void)ctx;
	if (!g_str_has_prefix(version, "v1"))
		return record_log_line_error(log, 1, error, "not v1");
	return record_log_check_settings(log, version + 2, error);
}

/* Each record's first two fields, "word number", into ctx (a GPtrArray of strings). */
static gboolean record(const RecordLog *log, const char *line, guint lineno, void *ctx,
		       GError **error)
{
	g_auto(GStrv) field = record_log_fields(log, line, lineno, 3, error);
	guint64 n;

	if (!field)
		return FALSE;
	if (!record_log_parse_u64(field[1], 1000, &n))
		return record_log_line_error(log, lineno, error, "'%s' is no number", field[1]);
	g_ptr_array_add(ctx, g_strdup_printf("%s %s", field[0], field[1]));
	return TRUE;
}

static const RecordLogFormat format = {
	.magic = MAGIC,
	.kind = "test log",
	.start = start,
	.header = header,
	.record = record,
};

static RecordLog *open_log(const char *path, const char *settings, GPtrArray *read, GError **error)
{
	return record_log_open(path, settings, &format, read, RECORD_LOG_NO_SYNC, error);
}

static RecordLog *open_ok(const char *path, GPtrArray *read)
{
	GError *error = NULL;
	RecordLog *log = open_log(path, SETTINGS, read, &error);

	expect_no_gerror(log != NULL, error, "record_log_open");
	return log;
}

static void append_ok(RecordLog *log, const char *fields)
{
	GError *error = NULL;

	expect_no_gerror(record_log_append(log, fields, &error), error, "record_log_append");
}

/* Opening fails with code, its message holding each of the NULL-terminated needles. */
static void refused(const char *path, const char *settings, int code, ...)
{
	g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	va_list ap;

	assert_null(open_log(path, settings, read, &error));
	va_start(ap, code);
	expect_gerror_va(error, RECORD_LOG_ERROR, code, ap);
	va_end(ap);
}

/* The file the tests work on, in the fixture's directory. */
static char *log_path(void **state)
{
	return g_build_filename(*state, "log.txt", NULL);
}

/* A file of two records, "x 1" and "y 2", and a comment between them: its text. */
static char *two_records(const char *path)
{
	g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
	RecordLog *log = open_ok(path, read);

	append_ok(log, "x 1");
	record_log_close(log);
	g_autofree char *text = read_text(path);
	g_autofree char *commented = g_strconcat(text, "# by hand\n", NULL);

	/* g_file_set_contents replaces the file: the log is reopened on the new one. */
	assert_true(g_file_set_contents(path, commented, -1, NULL));
	log = open_ok(path, read);
	append_ok(log, "y 2");
	record_log_close(log);
	return read_text(path);
}

/* The header is the format's head, the settings' SHA-256 (printf 'a=1 b=2' | sha256sum) and the
 * settings; a record is its fields and the first 8 digits of their SHA-256 (printf 'x 1' |
 * sha256sum); they read back in order, the comment skipped. */
static void test_format_and_round_trip(void **state)
{
	g_autofree char *path = log_path(state);
	g_autofree char *text = two_records(path);

	assert_string_equal(text, "# test log v1 sha256="
				  "fecfed798f1d7029823d2817b268611fb6110f5991b80a5601a0ec111f5fb4f4"
				  " settings=a=1 b=2\n# word number check\nx 1 d4a32e6c\n"
				  "# by hand\ny 2 7b5e7189\n");
	g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(RecordLog) log = open_ok(path, read);

	assert_int_equal(read->len, 2);
	assert_string_equal(read->pdata[0], "x 1");
	assert_string_equal(read->pdata[1], "y 2");
	assert_string_equal(record_log_path(log), path);
	assert_string_equal(record_log_settings(log), SETTINGS);
}

/* Other settings: refused, naming the file and the tokens that differ; the file is unchanged. */
static void test_other_settings_refused(void **state)
{
	g_autofree char *path = log_path(state);
	g_autofree char *text = two_records(path);

	refused(path, "a=1 b=3", RECORD_LOG_ERROR_MISMATCH, path,
		"journal has 'b=2', this run has 'b=3'", NULL);
	refused(path, "b=2 a=1", RECORD_LOG_ERROR_MISMATCH,
		"journal has 'a=1 b=2', this run has 'b=2 a=1'", NULL);
	g_autofree char *after = read_text(path);
	assert_string_equal(after, text);

	/* A header whose hash does not match its settings was edited. */
	g_autofree char *edited = g_strdup(text);
	*strstr(edited, "b=2") = 'c';
	assert_true(g_file_set_contents(path, edited, -1, NULL));
	refused(path, "a=1 c=2", RECORD_LOG_ERROR_PARSE, "line 1", "sha256", NULL);
	assert_true(g_file_set_contents(path, MAGIC "v1 settings=a=1\n", -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, "line 1", "malformed header", NULL);
}

/* A damaged record (its check no longer matches), a wrong number of fields, a field the owner
 * refuses, a NUL byte: errors naming the file and the line. */
static void test_damaged_lines_refused(void **state)
{
	g_autofree char *path = log_path(state);
	g_autofree char *text = two_records(path);
	g_autofree char *damaged = g_strdup(text);

	*strstr(damaged, "y 2") = 'z';
	assert_true(g_file_set_contents(path, damaged, -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, path, "line 5",
		"the check '7b5e7189' does not match", NULL);

	g_autofree char *short_line = g_strconcat(text, "z 3\n", NULL);
	assert_true(g_file_set_contents(path, short_line, -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, path, "line 6",
		"expected 3 space-separated fields, found 2", NULL);

	/* printf 'z q' | sha256sum: a record whose check is right and whose number is not. */
	g_autofree char *bad_number = g_strconcat(text, "z q 55736718\n", NULL);
	assert_true(g_file_set_contents(path, bad_number, -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, "line 6", "'q' is no number", NULL);

	g_autofree char *nul = g_strconcat(text, "z 3 xxxxxxxx\n", NULL);
	gsize len = strlen(nul);
	nul[len - 4] = '\0';
	assert_true(g_file_set_contents(path, nul, (gssize)len, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, "line 6", "NUL", NULL);
}

/* A last line without its newline (kill -9 in the write) is dropped and cut off, and the next
 * record starts on a line of its own. */
static void test_torn_last_line_dropped(void **state)
{
	g_autofree char *path = log_path(state);
	g_autofree char *text = two_records(path);
	g_autofree char *torn = g_strconcat(text, "z 3 5e2", NULL);

	assert_true(g_file_set_contents(path, torn, -1, NULL));
	{
		g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(RecordLog) log = open_ok(path, read);
		g_autofree char *now = read_text(path);

		assert_int_equal(read->len, 2);
		assert_string_equal(now, text);
		append_ok(log, "z 3");
	}
	g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(RecordLog) log = open_ok(path, read);

	assert_int_equal(read->len, 3);
	assert_string_equal(read->pdata[2], "z 3");
}

/* A header torn before its newline holds no record: the file starts afresh. A file of another
 * kind is neither read nor overwritten. */
static void test_torn_header_and_other_files(void **state)
{
	g_autofree char *path = log_path(state);

	assert_true(g_file_set_contents(path, "# test l", -1, NULL));
	{
		g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(RecordLog) log = open_ok(path, read);
		g_autofree char *text = read_text(path);

		assert_true(g_str_has_prefix(text, MAGIC "v1 sha256="));
	}
	assert_true(g_file_set_contents(path, "a shopping list", -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_NOT_LOG, path, "not a test log",
		"refusing to overwrite", NULL);
	assert_true(g_file_set_contents(path, "a shopping list\nmilk\n", -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_NOT_LOG, "not a test log", "refusing to append",
		NULL);
	g_autofree char *after = read_text(path);
	assert_string_equal(after, "a shopping list\nmilk\n");
}

/* While one RecordLog holds the file, a second open is refused; after close it succeeds. A
 * settings string of two lines is refused before the file is made. */
static void test_locked_and_invalid(void **state)
{
	g_autofree char *path = log_path(state);
	g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
	RecordLog *first = open_ok(path, read);

	refused(path, SETTINGS, RECORD_LOG_ERROR_BUSY, path, "in use", NULL);
	record_log_close(first);
	g_autoptr(RecordLog) again = open_ok(path, read);
	assert_non_null(again);

	g_autofree char *other = g_build_filename((const char *)*state, "other.txt", NULL);
	refused(other, "a=1\nb=2", RECORD_LOG_ERROR_INVALID, "one line", NULL);
	assert_false(g_file_test(other, G_FILE_TEST_EXISTS));
	g_autofree char *nowhere = g_build_filename((const char *)*state, "no", "log.txt", NULL);
	refused(nowhere, SETTINGS, RECORD_LOG_ERROR_IO, "cannot open journal", nowhere, NULL);
}

/* A write the file-size limit cuts short (as a full disk would) is an error, and the part that
 * reached the file is cut back off: the file holds whole lines only. With syncing on, appends
 * work the same. */
static void test_short_write_cut_back(void **state)
{
	g_autofree char *path = log_path(state);
	g_autofree char *text = two_records(path);
	g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	RecordLog *log = record_log_open(path, SETTINGS, &format, read, RECORD_LOG_SYNC, NULL);
	struct rlimit old, limit;

	assert_non_null(log);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	limit = old;
	limit.rlim_cur = strlen(text) + 4;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
	gboolean ok = record_log_append(log, "long 999", &error);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);

	assert_false(ok);
	assert_true(g_error_matches(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_IO));
	assert_non_null(strstr(error->message, path));
	g_autofree char *after = read_text(path);
	assert_string_equal(after, text);
	append_ok(log, "z 3");
	record_log_close(log);
	g_autofree char *last = read_text(path);
	assert_true(g_str_has_prefix(last, text));
	assert_true(g_str_has_suffix(last, "\nz 3 5e26a4d2\n"));
}

/* Values print with %.17g, which reads back bit-exact, and wall times with %.6f; numbers parse
 * strictly. */
static void test_values(void **state)
{
	GString *s = g_string_new(NULL);
	double back;
	guint64 n;

	(void)state;
	record_log_append_value(s, 0.1, 1.5);
	assert_string_equal(s->str, "0.10000000000000001 1.500000");
	assert_true(record_log_parse_double("0.10000000000000001", &back));
	assert_true(back == 0.1);
	assert_false(record_log_parse_double(" 1", &back));
	assert_false(record_log_parse_double("1x", &back));
	assert_false(record_log_parse_double("", &back));
	assert_true(record_log_parse_u64("42", 100, &n));
	assert_int_equal(n, 42);
	assert_false(record_log_parse_u64("101", 100, &n));
	assert_false(record_log_parse_u64("-1", 100, &n));
	g_string_free(s, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_format_and_round_trip, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_other_settings_refused, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_damaged_lines_refused, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_torn_last_line_dropped, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_torn_header_and_other_files, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_locked_and_invalid, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_short_write_cut_back, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test(test_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
