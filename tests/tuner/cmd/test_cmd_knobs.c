/*
 * test_cmd_knobs.c -- the live knobs always come back: the reproducer and its relatives,
 * end to end against the real tuner binary and a fake knob tree.
 *
 * The tuner runs `golden --objective cmd` with a benchmark that marks its start (its shell's pid
 * in the file "started") and then sleeps for 30 s, so every signal below lands while the knobs
 * are applied. The test waits for the mark, not for a time: nothing here depends on speed. Each
 * knob file starts at 1000000; whatever golden writes first, the files must read 1000000 again
 * once the tuner is gone, or the state file must be there for `tuner knobs --restore`.
 *
 * XDG_STATE_HOME points into the test's own directory, so the state files never touch the user's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tests/support/support.h"

static const char *const knob_names[3] = { "sched_latency_ns", "sched_min_granularity_ns",
					   "sched_wakeup_granularity_ns" };

struct tree {
	char *root, *started;
	char *state; /* its state file, as `tuner knobs` names it */
};

static char *state_file(const struct tree *t);

static struct tree *tree_new(void)
{
	struct tree *t = g_new0(struct tree, 1);
	t->root = temp_dir("test-cmd-knobs-XXXXXX");
	t->started = g_build_filename(t->root, "started", NULL);
	g_autofree char *kdir = g_build_filename(t->root, "proc/sys/kernel", NULL);
	assert_int_equal(g_mkdir_with_parents(kdir, 0755), 0);
	for (int i = 0; i < 3; i++) {
		g_autofree char *p = g_build_filename(kdir, knob_names[i], NULL);
		assert_true(g_file_set_contents(p, "1000000\n", -1, NULL));
	}
	t->state = state_file(t);
	return t;
}

static void tree_free(struct tree *t)
{
	remove_tree(t->root);
	g_free(t->root);
	g_free(t->started);
	g_free(t->state);
	g_free(t);
}

/* TRUE when all three knobs hold the original 1000000. */
static gboolean knobs_original(const struct tree *t)
{
	for (int i = 0; i < 3; i++) {
		g_autofree char *p =
			g_build_filename(t->root, "proc/sys/kernel", knob_names[i], NULL);
		g_autofree char *text = read_text(p);
		if (strcmp(text, "1000000\n") != 0)
			return FALSE;
	}
	return TRUE;
}

/* The state file of the tree, as `tuner knobs` names it. */
static char *state_file(const struct tree *t)
{
	const char *args[] = { "knobs", "--knob-root", t->root, NULL };
	struct run r = run_program(TUNER, args, NULL);
	expect_clean_exit(&r, "tuner knobs");
	const char *slash = strchr(r.out, '/');
	if (!slash)
		fail_msg("tuner knobs printed no path: %s", r.out);
	char *path = g_strdup(slash);
	g_strstrip(path);
	run_clear(&r);
	return path;
}

/* A live golden search whose benchmark marks its start and sleeps, with stderr in a pipe. */
struct live_run {
	GPid pid;
	int err_fd;
	pid_t bench_pgid; /* from the mark */
};

static struct live_run start_live(const struct tree *t, const char *trap)
{
	g_autofree char *started = g_shell_quote(t->started);
	g_autofree char *script = g_strdup_printf(
		"sh -c '%s echo $$ > %s.tmp; mv %s.tmp %s; sleep 30; echo Time: 0.01'", trap,
		started, started, started);
	const char *argv[] = { TUNER,	  "golden",	 "--objective", "cmd",	    "--cmd",
			       script,	  "--knob-root", t->root,	"--groups", "2",
			       "--loops", "1",		 "--threads",	NULL };
	struct live_run lr = { 0 };
	g_autoptr(GError) error = NULL;
	if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
				      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
				      NULL, &lr.pid, NULL, NULL, &lr.err_fd, &error))
		fail_msg("cannot start the tuner: %s", error->message);
	/* Wait for the mark (the tuner has applied knobs and its benchmark runs), or for the tuner to
	 * end without it. */
	for (;;) {
		g_autofree char *text = NULL;
		if (g_file_get_contents(t->started, &text, NULL, NULL)) {
			lr.bench_pgid = atoi(text);
			break;
		}
		int status;
		if (waitpid(lr.pid, &status, WNOHANG) == lr.pid)
			fail_msg("the tuner ended (status %d) before its benchmark started",
				 status);
		g_usleep(10000);
	}
	return lr;
}

/* Wait for the tuner; its exit status (-1 and *signal set if a signal ended it), stderr in *err. */
static int finish_live(struct live_run *lr, int *signal, char **err)
{
	int status;
	assert_int_equal(waitpid(lr->pid, &status, 0), lr->pid);
	GString *s = g_string_new(NULL);
	char buf[4096];
	ssize_t n;
	while ((n = read(lr->err_fd, buf, sizeof buf)) > 0)
		g_string_append_len(s, buf, n);
	close(lr->err_fd);
	*err = g_string_free(s, FALSE);
	*signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Wait until sig is no longer pending for pid: two signals of one kind sent back to back would
 * otherwise merge into one delivery. A process that has ended (a zombie until finish_live reaps
 * it) keeps what was pending for good. */
static void wait_delivered(pid_t pid, int sig)
{
	g_autofree char *path = g_strdup_printf("/proc/%d/status", (int)pid);
	for (;;) {
		g_autofree char *text = NULL;
		if (!g_file_get_contents(path, &text, NULL, NULL) || strstr(text, "\nState:\tZ"))
			return; /* gone */
		const char *line = strstr(text, "\nShdPnd:");
		const char *own = strstr(text, "\nSigPnd:");
		guint64 shared = line ? g_ascii_strtoull(line + 8, NULL, 16) : 0;
		guint64 mine = own ? g_ascii_strtoull(own + 8, NULL, 16) : 0;
		if (!((shared | mine) & (G_GUINT64_CONSTANT(1) << (sig - 1))))
			return;
		g_usleep(1000);
	}
}

/*
 * The reproducer and its relatives: one, two or three signals of every catchable kind
 * that ends a process, while the benchmark runs. With the benchmark ignoring SIGTERM (trap), the
 * first signal cannot stop it: the second one (SIGKILL to the benchmark) must.
 */
static void test_signals_restore(void **state)
{
	(void)state;
	const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (gsize s = 0; s < G_N_ELEMENTS(signals); s++) {
		for (int repeats = 1; repeats <= 3; repeats++) {
			struct tree *t = tree_new();
			const char *trap = repeats > 1 ? "trap \"\" TERM INT HUP QUIT;" : "";
			struct live_run lr = start_live(t, trap);
			for (int i = 0; i < repeats; i++) {
				kill(lr.pid, signals[s]);
				wait_delivered(lr.pid, signals[s]);
			}
			int sig;
			g_autofree char *err = NULL;
			int status = finish_live(&lr, &sig, &err);
			if (sig != 0 || status != 1 || !strstr(err, "interrupted"))
				fail_msg("%s x%d: status %d, signal %d, stderr '%s'",
					 g_strsignal(signals[s]), repeats, status, sig, err);
			if (!knobs_original(t))
				fail_msg("%s x%d: the knobs were not restored",
					 g_strsignal(signals[s]), repeats);
			assert_false(g_file_test(t->state, G_FILE_TEST_EXISTS));
			kill(-lr.bench_pgid, SIGKILL); /* in case */
			tree_free(t);
		}
	}
}

static struct run tuner(const char *const *args)
{
	return run_program(TUNER, args, NULL);
}

/*
 * SIGKILL: nothing can restore, so the state file stays; the next tuner refuses to touch the knobs
 * and says what to run; `tuner knobs` shows, `tuner knobs --restore` writes them back once.
 */
static void test_sigkill_then_restore(void **state)
{
	(void)state;
	struct tree *t = tree_new();
	struct live_run lr = start_live(t, "");
	kill(lr.pid, SIGKILL);
	int sig;
	g_autofree char *err = NULL;
	finish_live(&lr, &sig, &err);
	assert_int_equal(sig, SIGKILL);
	kill(-lr.bench_pgid, SIGKILL); /* the orphaned benchmark */
	assert_false(knobs_original(t));
	const char *path = t->state;
	assert_true(g_file_test(path, G_FILE_TEST_EXISTS));

	/* A new tuner refuses before writing anything. */
	const char *args[] = { "golden",      "--objective", "cmd",	 "--cmd", "echo Time: 0.01",
			       "--knob-root", t->root,	     "--groups", "2",	  "--loops",
			       "1",	      "--threads",   NULL };
	struct run r = tuner(args);
	if (r.status != 1 || !strstr(r.err, "tuner knobs --restore") ||
	    strchr(r.err, '\n')[1] != '\0')
		fail_msg("a tuner after SIGKILL: status %d, stderr '%s'", r.status, r.err);
	assert_false(knobs_original(t));
	run_clear(&r);

	/* tuner knobs shows what it would restore; --restore restores it, once. */
	const char *show[] = { "knobs", "--knob-root", t->root, NULL };
	r = tuner(show);
	expect_clean_exit(&r, "tuner knobs");
	if (!strstr(r.out, "to restore: latency_ns=1000000 min_granularity_ns=1000000 "
			   "wakeup_granularity_ns=1000000"))
		fail_msg("tuner knobs printed %s", r.out);
	run_clear(&r);
	const char *restore[] = { "knobs", "--restore", "--knob-root", t->root, NULL };
	r = tuner(restore);
	expect_clean_exit(&r, "tuner knobs --restore");
	assert_non_null(strstr(r.out, "restored latency_ns=1000000"));
	run_clear(&r);
	assert_true(knobs_original(t));
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	r = tuner(restore);
	expect_clean_exit(&r, "tuner knobs --restore, again");
	assert_non_null(strstr(r.out, "nothing to restore"));
	run_clear(&r);

	/* And the tuner runs again. */
	r = tuner(args);
	if (r.status != 0)
		fail_msg("a tuner after the restore: status %d, stderr '%s'", r.status, r.err);
	run_clear(&r);
	assert_true(knobs_original(t));
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	tree_free(t);
}

/* While a tuner holds the knobs, neither another tuner nor `tuner knobs --restore` touch them. */
static void test_busy(void **state)
{
	(void)state;
	struct tree *t = tree_new();
	struct live_run lr = start_live(t, "");
	const char *restore[] = { "knobs", "--restore", "--knob-root", t->root, NULL };
	struct run r = tuner(restore);
	if (r.status != 1 || !strstr(r.err, "another tuner"))
		fail_msg("knobs --restore while a tuner runs: status %d, stderr '%s'", r.status,
			 r.err);
	run_clear(&r);
	assert_false(knobs_original(t)); /* still the running tuner's */
	kill(lr.pid, SIGTERM);
	int sig;
	g_autofree char *err = NULL;
	assert_int_equal(finish_live(&lr, &sig, &err), 1);
	assert_true(knobs_original(t));
	tree_free(t);
}

/* A damaged state file: bad input for `tuner knobs --restore`, a refusal for a tuner. */
static void test_damaged_state(void **state)
{
	(void)state;
	struct tree *t = tree_new();
	const char *path = t->state;
	g_autofree char *dir = g_path_get_dirname(path);
	assert_int_equal(g_mkdir_with_parents(dir, 0700), 0);
	assert_true(g_file_set_contents(
		path, "[live-knobs]\nversion=1\npid=1\nstarted=x\nroot=/\nlayout=sysctl\n", -1,
		NULL));
	const char *restore[] = { "knobs", "--restore", "--knob-root", t->root, NULL };
	struct run r = tuner(restore);
	expect_refusal(&r, "a damaged state file", path);
	run_clear(&r);
	const char *args[] = { "golden",      "--objective", "cmd",	 "--cmd", "echo Time: 0.01",
			       "--knob-root", t->root,	     "--groups", "2",	  "--loops",
			       "1",	      "--threads",   NULL };
	r = tuner(args);
	if (r.status != 1 || !strstr(r.err, path))
		fail_msg("a tuner with a damaged state file: status %d, stderr '%s'", r.status,
			 r.err);
	run_clear(&r);
	assert_true(knobs_original(t));
	g_unlink(path);
	tree_free(t);
}

int main(void)
{
	g_autofree char *home = temp_dir("test-cmd-knobs-state-XXXXXX");
	g_setenv("XDG_STATE_HOME", home, TRUE);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_restore),
		cmocka_unit_test(test_sigkill_then_restore),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_damaged_state),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	remove_tree(home);
	return failed;
}
