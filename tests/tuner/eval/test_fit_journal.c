/*
 * tests/tuner/eval/test_fit_journal.c - the journal of a fit's losses (tuner/eval/fit_journal.h):
 * its lines, losses read back bit-exact, a journal of other settings or parameters refused with
 * what differs, impossible losses refused on the way in and on the way back, a damaged record and
 * a torn one, and the lock. The file machinery itself is tested in
 * tests/tuner/util/test_record_log.c; a fit that resumes from a journal in test_fit.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tests/support/support.h"
#include "tuner/eval/fit_journal.h"

#define SETTINGS "params=footprint,miss plan.a=0123456789abcdef"

static const char *const keys[] = { "footprint_lines", "miss_ps" };

static FitJournal *open_journal(const char *path, const char *settings, GError **error)
{
	return fit_journal_open(path, settings, keys, 2, RECORD_LOG_NO_SYNC, error);
}

static FitJournal *open_ok(const char *path)
{
	GError *error = NULL;
	FitJournal *journal = open_journal(path, SETTINGS, &error);

	expect_no_gerror(journal != NULL, error, "fit_journal_open");
	return journal;
}

/* Opening path fails with code, naming the file and each of the NULL-terminated needles. */
static void refused(const char *path, const char *settings, int code, ...)
{
	g_autoptr(GError) error = NULL;
	va_list ap;

	assert_null(open_journal(path, settings, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, path));
	va_start(ap, code);
	expect_gerror_va(error, RECORD_LOG_ERROR, code, ap);
	va_end(ap);
}

/* The journal of three losses, 0.1 at (512, 5000) among them: its text. */
static char *three_losses(const char *path)
{
	g_autoptr(FitJournal) journal = open_ok(path);
	const guint64 a[] = { 512, 5000 }, b[] = { 300, 5000 }, c[] = { 300, 7000 };
	GError *error = NULL;

	expect_no_gerror(fit_journal_append(journal, a, 0.1, 2.5, &error), error, "append");
	expect_no_gerror(fit_journal_append(journal, b, 0, 3, &error), error, "append");
	expect_no_gerror(fit_journal_append(journal, c, 1.0 / 3, 3, &error), error, "append");
	assert_int_equal(fit_journal_count(journal), 3);
	return read_text(path);
}

/* The header, the columns, and a record a loss: the values, the loss with %.17g, the wall time,
 * the check (printf '512 5000 0.10000000000000001 2.500000' | sha256sum, its first 8 digits).
 * Read back, the losses are the doubles written. */
static void test_format_and_round_trip(void **state)
{
	g_autofree char *path = g_build_filename(*state, "round-trip.txt", NULL);
	g_autofree char *text = three_losses(path);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, SETTINGS, -1);
	g_autofree char *header = g_strdup_printf(
		"# linsched-tuner fit journal v1 sha256=%s settings=%s", sha, SETTINGS);

	assert_string_equal(lines[0], header);
	assert_string_equal(lines[1], "# footprint_lines miss_ps loss wall_s check");
	assert_string_equal(lines[2], "512 5000 0.10000000000000001 2.500000 b6521e66");
	assert_true(g_str_has_prefix(lines[4], "300 7000 0.33333333333333331 3.000000 "));

	g_autoptr(FitJournal) journal = open_ok(path);
	const guint64 a[] = { 512, 5000 }, c[] = { 300, 7000 }, none[] = { 512, 7000 };
	double loss;

	assert_int_equal(fit_journal_count(journal), 3);
	assert_true(fit_journal_lookup(journal, a, &loss) && loss == 0.1);
	assert_true(fit_journal_lookup(journal, c, &loss) && loss == 1.0 / 3);
	assert_false(fit_journal_lookup(journal, none, &loss));
	assert_string_equal(fit_journal_path(journal), path);
}

/* A journal of other settings (here another plan's data) is refused with the tokens that differ;
 * one of a fit with other parameters too; the file stays as it was. */
static void test_other_settings_refused(void **state)
{
	g_autofree char *path = g_build_filename(*state, "other-settings.txt", NULL);
	g_autofree char *text = three_losses(path);

	refused(path, "params=footprint,miss plan.a=fedcba9876543210", RECORD_LOG_ERROR_MISMATCH,
		"journal has 'plan.a=0123456789abcdef', this run has 'plan.a=fedcba9876543210'",
		NULL);
	refused(path, "params=footprint plan.a=0123456789abcdef", RECORD_LOG_ERROR_MISMATCH,
		"'params=footprint,miss'", NULL);
	g_autofree char *after = read_text(path);
	assert_string_equal(after, text);
}

/* +inf (a failed simulation), NaN, a negative loss or wall time: refused, and not written. */
static void test_impossible_losses_refused(void **state)
{
	g_autofree char *path = g_build_filename(*state, "impossible.txt", NULL);
	g_autofree char *text = three_losses(path);
	g_autoptr(FitJournal) journal = open_ok(path);
	const guint64 v[] = { 1, 1 };
	const double bad[][2] = { { INFINITY, 1 }, { NAN, 1 }, { -1, 1 }, { 1, -1 } };

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;

		assert_false(fit_journal_append(journal, v, bad[i][0], bad[i][1], &error));
		expect_gerror(error, RECORD_LOG_ERROR, RECORD_LOG_ERROR_INVALID, path, NULL);
	}
	assert_int_equal(fit_journal_count(journal), 3);
	g_autofree char *after = read_text(path);
	assert_string_equal(after, text);
}

/* A record with its check damaged, one field short, or a loss below 0 under a right check: an
 * error naming the file and the line. A torn last line is dropped. */
static void test_damaged_and_torn(void **state)
{
	g_autofree char *path = g_build_filename(*state, "damaged.txt", NULL);
	g_autofree char *text = three_losses(path);
	g_autofree char *damaged = g_strdup(text);

	*strstr(damaged, "0.10000000000000001") = '9';
	assert_true(g_file_set_contents(path, damaged, -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, "line 3", "damaged or edited", NULL);

	g_autofree char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, "1 2 -1 3.0", -1);
	g_autofree char *negative = g_strdup_printf("%s1 2 -1 3.0 %.8s\n", text, sha);
	assert_true(g_file_set_contents(path, negative, -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, "line 6", "loss is not finite and >= 0",
		NULL);

	g_autofree char *shorter = g_strconcat(text, "1 0.5 2.0 abcdef01\n", NULL);
	assert_true(g_file_set_contents(path, shorter, -1, NULL));
	refused(path, SETTINGS, RECORD_LOG_ERROR_PARSE, "line 6", "expected 5", NULL);

	g_autofree char *torn = g_strconcat(text, "1 2 0.5", NULL);
	assert_true(g_file_set_contents(path, torn, -1, NULL));
	g_autoptr(FitJournal) journal = open_ok(path);
	g_autofree char *after = read_text(path);

	assert_int_equal(fit_journal_count(journal), 3);
	assert_string_equal(after, text);
}

/* A second open of a journal in use is refused. A file of the optimizers' journal is not a fit
 * journal. */
static void test_locked_and_other_kind(void **state)
{
	g_autofree char *path = g_build_filename(*state, "locked.txt", NULL);
	g_autofree char *other = g_build_filename(*state, "tuner-journal.txt", NULL);
	g_autoptr(FitJournal) journal = open_ok(path);

	refused(path, SETTINGS, RECORD_LOG_ERROR_BUSY, "in use", NULL);
	assert_true(
		g_file_set_contents(other, "# linsched-tuner journal v3 knobs=...\n", -1, NULL));
	refused(other, SETTINGS, RECORD_LOG_ERROR_NOT_LOG, "not a linsched-tuner fit journal",
		NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_and_round_trip),
		cmocka_unit_test(test_other_settings_refused),
		cmocka_unit_test(test_impossible_losses_refused),
		cmocka_unit_test(test_damaged_and_torn),
		cmocka_unit_test(test_locked_and_other_kind),
	};

	/* One directory for the group: each test works on a file of its own name. */
	return cmocka_run_group_tests(tests, temp_dir_setup, temp_dir_teardown);
}
