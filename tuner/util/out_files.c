/* The files of an --out directory: see out_files.h. */
#include "tuner/util/out_files.h"

#include <errno.h>

#include <glib/gstdio.h>

gboolean out_files_write(const char *dir, const char *const *names, char *const *contents, guint n,
			 GError **error)
{
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		int e = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot create %s: %s",
			    dir, g_strerror(e));
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		if (!contents[i])
			continue;

		g_autofree char *path = g_build_filename(dir, names[i], NULL);

		if (!g_file_set_contents(path, contents[i], -1, error))
			return FALSE;
	}
	return TRUE;
}
