/*
 * support.h - helpers shared by the tests: running the programs of this build variant, temporary
 * directories, reading files, rewriting a journal's header. The strict JSON parser some of them
 * use is in json_strict.h.
 *
 * Every helper that can go wrong fails the running cmocka test (fail_msg) instead of returning an
 * error, so the tests read as a list of expectations. Include <cmocka.h> (with its prerequisites
 * stdarg.h, stddef.h, stdint.h, setjmp.h) before this header.
 *
 * Ownership: a struct run owns its out and err (free with run_clear); every char * returned here
 * belongs to the caller.
 */
#ifndef TESTS_SUPPORT_SUPPORT_H
#define TESTS_SUPPORT_SUPPORT_H

#include <glib.h>
#include <sys/types.h>

#ifndef BUILD_BIN_DIR
#define BUILD_BIN_DIR "build/release/bin"
#endif
/* The programs of the build variant the test belongs to. */
#define LINSCHED BUILD_BIN_DIR "/linsched"
#define TUNER	 BUILD_BIN_DIR "/tuner"

/* ---- running a program ------------------------------------------------------------------------ */

/* What one run of a program gave. */
struct run {
	int status; /* exit status, -1 if it did not exit normally */
	int signal; /* the signal that ended it, 0 if none */
	char *out;  /* all of stdout (owned) */
	char *err;  /* all of stderr (owned) */
};

/*
 * Run program (a path, no shell) with the NULL-terminated args after it, and wait for it.
 * child_setup (may be NULL) runs in the child before exec, e.g. to set a resource limit.
 * Fails the test if the program cannot be started.
 */
struct run run_program(const char *program, const char *const *args,
		       GSpawnChildSetupFunc child_setup);

/* Free out and err. */
void run_clear(struct run *r);

/* The run exited with status 0 and wrote nothing on stderr; else fail, naming what. */
void expect_clean_exit(const struct run *r, const char *what);

/* The run refused its input: exit status 2, nothing on stdout, and one line on stderr that contains
 * needle (a flag, say); else fail, naming what. */
void expect_refusal(const struct run *r, const char *what, const char *needle);

/* ---- processes --------------------------------------------------------------------------------- */

/*
 * fork(), once this process has no thread but the caller's (and GLib's idle pool-spawner): a
 * thread pool's workers outlive g_thread_pool_free for a moment, and GLib parks them for reuse.
 * Forking while one holds a lock (malloc's, AddressSanitizer's allocator's) leaves that lock held
 * forever in the child, and a parked thread is missing there: either way the child hangs. Fails
 * the test if other threads are still there after 5 s.
 */
pid_t fork_single_threaded(void);

/* ---- files ------------------------------------------------------------------------------------ */

/* A new empty directory from a g_dir_make_tmp template ("test_x_XXXXXX"); fails the test if not. */
char *temp_dir(const char *name_template);

/* Remove path and, if a directory, all it holds. TRUE when path no longer exists. */
gboolean remove_tree(const char *path);

/* A cmocka fixture for tests that work in a directory: setup makes a fresh temporary one, its path
 * (a char *) in *state; teardown removes it with all it holds, also after a failed test. */
int temp_dir_setup(void **state);
int temp_dir_teardown(void **state);

/* A fresh directory for one file, named but not created: the fixture of tests that work on one
 * file (a journal). */
struct temp_file {
	char *dir;
	char *path; /* dir/name */
};

/* A new fixture; dir_template as for temp_dir. */
struct temp_file *temp_file_new(const char *dir_template, const char *name);

/* Removes the file and its directory, which must then be empty (the test made nothing else), and
 * frees f. */
void temp_file_free(struct temp_file *f);

/* The whole file at path; fails the test if it cannot be read. */
char *read_text(const char *path);

/* ---- journals --------------------------------------------------------------------------------- */

/* The settings of the journal at path: what its header (line 1) holds after " settings=". Fails
 * the test if line 1 has none. */
char *journal_settings(const char *path);

/* Rewrites the header of the journal at path to hold settings, with their sha256, as a run of
 * those settings would have written it; the rest of the file stays. */
void journal_set_settings(const char *path, const char *settings);

/* Changes the token key=VALUE of the settings of the journal at path (journal_set_settings) to
 * key=OTHER, OTHER as long as VALUE and different at every character ('1' for a '0', '0' for
 * anything else): the journal of a run where only that differed. Returns the new token,
 * key=OTHER; fails the test if the settings have no key=. */
char *journal_change_token(const char *path, const char *key);

/* ---- errors ----------------------------------------------------------------------------------- */

/* error is domain's code, one line, and holds every one of the needles, which end with NULL;
 * else fail, quoting it. */
void expect_gerror(const GError *error, GQuark domain, gint code, ...) G_GNUC_NULL_TERMINATED;
void expect_gerror_va(const GError *error, GQuark domain, gint code, va_list needles);

/* ok, and no error; else fail with what (the call) and the error's message. Frees error. */
void expect_no_gerror(gboolean ok, GError *error, const char *what);

#endif /* TESTS_SUPPORT_SUPPORT_H */
