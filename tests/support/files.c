/* Temporary directories and whole-file reads for the tests: see support.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib/gstdio.h>

#include "tests/support/support.h"

char *temp_dir(const char *name_template)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp(name_template, &error);

	if (!dir)
		fail_msg("temporary directory: %s", error->message);
	return dir;
}

int temp_dir_setup(void **state)
{
	*state = temp_dir("test_XXXXXX");
	return 0;
}

int temp_dir_teardown(void **state)
{
	gboolean removed = remove_tree(*state);

	g_free(*state);
	return removed ? 0 : -1;
}

gboolean remove_tree(const char *path)
{
	if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		GDir *dir = g_dir_open(path, 0, NULL);
		const char *name;

		while (dir && (name = g_dir_read_name(dir))) {
			g_autofree char *child = g_build_filename(path, name, NULL);

			remove_tree(child);
		}
		if (dir)
			g_dir_close(dir);
		g_rmdir(path);
	} else {
		g_unlink(path);
	}
	return !g_file_test(path, G_FILE_TEST_EXISTS) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK);
}

struct temp_file *temp_file_new(const char *dir_template, const char *name)
{
	struct temp_file *f = g_new0(struct temp_file, 1);

	f->dir = temp_dir(dir_template);
	f->path = g_build_filename(f->dir, name, NULL);
	return f;
}

void temp_file_free(struct temp_file *f)
{
	g_unlink(f->path);
	assert_int_equal(g_rmdir(f->dir), 0);
	g_free(f->path);
	g_free(f->dir);
	g_free(f);
}

char *read_text(const char *path)
{
	g_autoptr(GError) error = NULL;
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, &error))
		fail_msg("%s: %s", path, error->message);
	return text;
}
