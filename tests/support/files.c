/* Temporary directories, whole-file reads and journal headers for the tests: see support.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

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

/* Line 1 of the journal at path, and where in it " sha256=" starts (fails the test if nowhere). */
static char **journal_lines(const char *path, const char **sha)
{
	g_autofree char *text = read_text(path);
	char **lines = g_strsplit(text, "\n", 2);

	if (!lines[0] || !(*sha = strstr(lines[0], " sha256=")) || !strstr(*sha, " settings="))
		fail_msg("%s: line 1 is no journal header", path);
	return lines;
}

char *journal_settings(const char *path)
{
	const char *sha;
	g_auto(GStrv) lines = journal_lines(path, &sha);

	return g_strdup(strstr(sha, " settings=") + strlen(" settings="));
}

void journal_set_settings(const char *path, const char *settings)
{
	const char *sha;
	g_auto(GStrv) lines = journal_lines(path, &sha);
	g_autofree char *digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, settings, -1);
	g_autofree char *text =
		g_strdup_printf("%.*s sha256=%s settings=%s\n%s", (int)(sha - lines[0]), lines[0],
				digest, settings, lines[1] ? lines[1] : "");

	if (!g_file_set_contents(path, text, -1, NULL))
		fail_msg("%s: cannot write", path);
}

char *journal_change_token(const char *path, const char *key)
{
	g_autofree char *settings = journal_settings(path);
	g_auto(GStrv) tokens = g_strsplit(settings, " ", -1);
	g_autofree char *prefix = g_strdup_printf("%s=", key);
	char *token = NULL;

	for (char **t = tokens; *t && !token; t++) {
		if (!g_str_has_prefix(*t, prefix))
			continue;
		for (char *c = *t + strlen(prefix); *c; c++)
			*c = *c == '0' ? '1' : '0';
		token = g_strdup(*t);
	}
	if (!token)
		fail_msg("%s: no %s in the settings '%s'", path, prefix, settings);
	g_autofree char *changed = g_strjoinv(" ", tokens);

	journal_set_settings(path, changed);
	return token;
}
