/*
 * out_files.h - the files a command writes into its --out directory: the directory is created
 * with its parents, and each file is written to a temporary file renamed over its name
 * (g_file_set_contents), so that a reader never sees half a file.
 */
#ifndef TUNER_OUT_FILES_H
#define TUNER_OUT_FILES_H

#include <glib.h>

G_BEGIN_DECLS

/* Creates dir (and its parents) and writes each names[i] with contents[i] (NULL contents: skipped).
 * FALSE on the first failure, with a G_FILE_ERROR: "cannot create DIR: reason", or
 * g_file_set_contents's message naming the file. */
gboolean out_files_write(const char *dir, const char *const *names, char *const *contents, guint n,
			 GError **error);

G_END_DECLS

#endif /* TUNER_OUT_FILES_H */
