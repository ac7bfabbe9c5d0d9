/*
 * tests/tuner/util/test_out_files.c - writing a command's --out directory (tuner/util/out_files.h):
 * the directory and its parents are made, NULL contents are skipped, and a directory that cannot
 * be made is named in the error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include <glib/gstdio.h>

#include "tuner/util/out_files.h"

#include "tests/support/support.h"

static void test_writes_into_new_parents(void **state)
{
	g_autofree char *dir = g_build_filename(*state, "a", "b", NULL);
	g_autofree char *one = g_build_filename(dir, "one.csv", NULL);
	g_autofree char *two = g_build_filename(dir, "two.json", NULL);
	const char *names[] = { "one.csv", "two.json" };
	char *contents[] = { "x,y\n1,2\n", NULL };
	g_autoptr(GError) error = NULL;

	assert_true(out_files_write(dir, names, contents, 2, &error));
	assert_null(error);
	g_autofree char *text = read_text(one);
	assert_string_equal(text, "x,y\n1,2\n");
	assert_false(g_file_test(two, G_FILE_TEST_EXISTS)); /* NULL contents: not written */
}

/* A directory below a regular file cannot be made: the message names it. */
static void test_names_the_directory_it_cannot_make(void **state)
{
	g_autofree char *file = g_build_filename(*state, "plain", NULL);
	g_autofree char *dir = g_build_filename(file, "sub", NULL);
	const char *names[] = { "one.csv" };
	char *contents[] = { "1\n" };
	g_autoptr(GError) error = NULL;

	assert_true(g_file_set_contents(file, "", 0, NULL));
	assert_false(out_files_write(dir, names, contents, 1, &error));
	assert_true(error->domain == G_FILE_ERROR);
	g_autofree char *start = g_strdup_printf("cannot create %s: ", dir);
	assert_true(g_str_has_prefix(error->message, start));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_writes_into_new_parents, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_names_the_directory_it_cannot_make,
						temp_dir_setup, temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
