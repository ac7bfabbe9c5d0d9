/*
 * fuzz_input.h - what the fuzz targets share: the input as a C string, and as a file.
 *
 * libFuzzer hands each target a buffer of bytes. The parsers under test read C strings or files,
 * so the buffer is copied into a NUL-terminated string (a NUL inside ends it early, as it would
 * for the real program reading text) or written to a file in a directory of the target's own,
 * made once per process. Everything is freed before the target returns: a leak is a finding.
 */
#ifndef FUZZ_FUZZ_INPUT_H
#define FUZZ_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* The input as a new NUL-terminated string (g_free). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = g_malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The input written to NAME in the process's fuzz directory; returns the path (g_free). Aborts if
 * the file cannot be written: that is the harness failing, not the parser. */
static inline char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
	static char *dir; /* one per process, made on first use; the harness's only state */

	if (!dir)
		dir = g_dir_make_tmp("fuzz-XXXXXX", NULL);
	g_assert(dir);
	char *path = g_build_filename(dir, name, NULL);

	g_assert(g_file_set_contents(path, (const char *)data, (gssize)size, NULL));
	return path;
}

#endif /* FUZZ_FUZZ_INPUT_H */
