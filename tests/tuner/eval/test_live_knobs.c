/*
 * test_live_knobs.c -- the live objective against temporary knob trees: layout detection, values
 * written then restored (after success, failure, a missing command, Ctrl-C), refusals.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <grp.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "tests/support/support.h"
#include "tuner/eval/evaluator.h"
#include "tuner/eval/live_knobs.h"

static const char *const sysctl_files[3] = { "proc/sys/kernel/sched_latency_ns",
					     "proc/sys/kernel/sched_min_granularity_ns",
					     "proc/sys/kernel/sched_wakeup_granularity_ns" };
static const char *const debugfs_files[3] = { "sys/kernel/debug/sched/latency_ns",
					      "sys/kernel/debug/sched/min_granularity_ns",
					      "sys/kernel/debug/sched/wakeup_granularity_ns" };
/* Kernel defaults of a 4-CPU machine (factor 3): 18 ms, 2.25 ms, 3 ms. */
static const char *const initial[3] = { "18000000\n", "2250000\n", "3000000\n" };
static const Knobs tuned = KNOBS_CFS(1000000, 200000, 0);
static const char *const tuned_text[3] = { "1000000\n", "200000\n", "0\n" };

typedef struct {
	char *root;
	const char *const *files; /* the layout of the tree, or NULL */
	char *path[3];
	char *snapshot; /* where test commands copy the knobs they saw */
} Tree;

static void write_file(const char *path, const char *text)
{
	g_autofree char *dir = g_path_get_dirname(path);
	g_assert_true(g_mkdir_with_parents(dir, 0755) == 0);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	g_chmod(path, 0644);
}

static char *read_file(const char *path)
{
	char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return g_strdup("(unreadable)");
	return text;
}

/* A temporary root; with files, the three knob files of that layout hold the initial values. */
static Tree *tree_new(const char *const *files)
{
	Tree *t = g_new0(Tree, 1);
	t->root = temp_dir("test-live-knobs-XXXXXX");
	t->files = files;
	t->snapshot = g_build_filename(t->root, "snapshot", NULL);
	for (int i = 0; files && i < 3; i++) {
		t->path[i] = g_build_filename(t->root, files[i], NULL);
		write_file(t->path[i], initial[i]);
	}
	return t;
}

static void tree_free(Tree *t)
{
	remove_tree(t->root);
	g_free(t->root);
	g_free(t->snapshot);
	for (int i = 0; i < 3; i++)
		g_free(t->path[i]);
	g_free(t);
}

/* TRUE when the three knob files hold exactly the given texts. */
static gboolean tree_holds(const Tree *t, const char *const text[3])
{
	for (int i = 0; i < 3; i++) {
		g_autofree char *now = read_file(t->path[i]);
		if (strcmp(now, text[i]) != 0) {
			fprintf(stderr, "%s holds '%s', expected '%s'\n", t->path[i], now, text[i]);
			return FALSE;
		}
	}
	return TRUE;
}

static LiveKnobs *open_ok(const Tree *t)
{
	g_autoptr(GError) error = NULL;
	LiveKnobs *live = live_knobs_open(t->root, &error);
	if (live == NULL)
		fail_msg("live_knobs_open: %s", error->message);
	return live;
}

/* argv of `sh -c SCRIPT`, where the script starts by copying the three knobs to the snapshot. */
static char **shell_argv(const Tree *t, const char *rest)
{
	g_autoptr(GString) script = g_string_new("cat");
	for (int i = 0; i < 3; i++) {
		g_autofree char *q = g_shell_quote(t->path[i]);
		g_string_append_printf(script, " %s", q);
	}
	g_autofree char *snap = g_shell_quote(t->snapshot);
	g_string_append_printf(script, " > %s; %s", snap, rest);
	char **argv = g_new0(char *, 4);
	argv[0] = g_strdup("sh");
	argv[1] = g_strdup("-c");
	argv[2] = g_strdup(script->str);
	return argv;
}

static void assert_error(const GError *error, int code, const char *needle)
{
	assert_non_null(error);
	if (!g_error_matches(error, LIVE_KNOBS_ERROR, code))
		fail_msg("expected code %d, got %d: %s", code, error->code, error->message);
	if (needle && strstr(error->message, needle) == NULL)
		fail_msg("message lacks '%s': %s", needle, error->message);
}

static void test_detect_sysctl(void **state)
{
	(void)state;
	Tree *t = tree_new(sysctl_files);
	LiveKnobs *live = open_ok(t);
	assert_int_equal(live_knobs_layout(live), LIVE_KNOBS_SYSCTL);
	assert_non_null(strstr(live_knobs_layout_name(LIVE_KNOBS_SYSCTL), "before 5.13"));
	const Knobs *saved = live_knobs_saved(live);
	assert_true(saved->latency_ns == 18000000 && saved->min_granularity_ns == 2250000 &&
		    saved->wakeup_granularity_ns == 3000000);
	live_knobs_free(live);
	tree_free(t);
}

static void test_detect_debugfs(void **state)
{
	(void)state;
	Tree *t = tree_new(debugfs_files);
	LiveKnobs *live = open_ok(t);
	assert_int_equal(live_knobs_layout(live), LIVE_KNOBS_DEBUGFS);
	assert_non_null(strstr(live_knobs_layout_name(LIVE_KNOBS_DEBUGFS), "5.13 to 6.5"));
	assert_true(live_knobs_saved(live)->min_granularity_ns == 2250000);
	live_knobs_free(live);
	tree_free(t);
}

/* apply writes the values in decimal, restore writes back exactly what was there. */
static void test_apply_then_restore(void **state)
{
	(void)state;
	const char *const *layouts[] = { sysctl_files, debugfs_files };
	for (int l = 0; l < 2; l++) {
		Tree *t = tree_new(layouts[l]);
		LiveKnobs *live = open_ok(t);
		g_autoptr(GError) error = NULL;
		assert_true(live_knobs_apply(live, &tuned, &error));
		assert_true(tree_holds(t, tuned_text));
		assert_true(live_knobs_restore(live, &error));
		assert_true(tree_holds(t, initial));
		assert_true(live_knobs_restore(live, &error)); /* nothing left to restore */
		assert_true(tree_holds(t, initial));
		/* Freeing with knobs applied restores them too. */
		assert_true(live_knobs_apply(live, &tuned, &error));
		live_knobs_free(live);
		assert_true(tree_holds(t, initial));
		tree_free(t);
	}
}

/* The command sees the applied knobs, its time is parsed, the knobs are restored afterwards. */
static void test_run_cmd(void **state)
{
	(void)state;
	Tree *t = tree_new(debugfs_files);
	LiveKnobs *live = open_ok(t);
	const struct {
		const char *output; /* what the command prints */
		double ms;
	} cases[] = {
		{ "echo 'Running in process mode with 10 groups using 40 file descriptors each'; "
		  "echo 'Time: 1.250'",
		  1250.0 },
		{ "echo '# Running sched/messaging benchmark...'; echo; "
		  "echo '     Total time: 0.042 [sec]'",
		  42.0 },
		{ "echo 'Time: 9'; echo 'Time: 2.5'", 2500.0 }, /* the last one counts */
	};
	for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_auto(GStrv) argv = shell_argv(t, cases[c].output);
		g_autoptr(GError) error = NULL;
		double ms = -1;
		if (!live_knobs_run_cmd(live, &tuned, argv, &ms, &error))
			fail_msg("run_cmd: %s", error->message);
		assert_true(fabs(ms - cases[c].ms) < 1e-9 * cases[c].ms);
		g_autofree char *seen = read_file(t->snapshot);
		assert_string_equal(seen, "1000000\n200000\n0\n");
		assert_true(tree_holds(t, initial));
	}
	live_knobs_free(live);
	tree_free(t);
}

/* A failing command, one that prints no time, and one that does not exist: error, restored. */
static void test_restored_after_command_fails(void **state)
{
	(void)state;
	Tree *t = tree_new(sysctl_files);
	LiveKnobs *live = open_ok(t);
	const struct {
		const char *script, *needle;
	} cases[] = {
		{ "echo 'Time: 1.0'; echo 'hackbench: bad group count' >&2; exit 3",
		  "exited with code 3" },
		{ "echo 'Time: 1.0'; echo 'hackbench: bad group count' >&2; exit 3",
		  "hackbench: bad group count" },
		{ "kill -TERM $$", "killed by signal" },
		{ "echo hello", "printed no 'Time: X'" },
		{ "echo 'Time: fast'", "printed no" },
		{ "echo 'Total time: 1.0 [min]'", "printed no" },
		/* The defect 9: a time line whose number is no time is quoted as it is. */
		{ "echo 'Time: -1'", "printed 'Time: -1': not a time" },
		{ "echo 'Time: nan'", "printed 'Time: nan': not a time" },
		{ "echo 'Time: 1e400'", "printed 'Time: 1e400': not a time" },
		{ "echo 'Time: 0'", "printed 'Time: 0': not a time" },
		{ "echo 'Total time: inf [sec]'", "printed 'Total time: inf [sec]': not a time" },
	};
	for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_auto(GStrv) argv = shell_argv(t, cases[c].script);
		g_autoptr(GError) error = NULL;
		double ms = -1;
		g_remove(t->snapshot);
		assert_false(live_knobs_run_cmd(live, &tuned, argv, &ms, &error));
		assert_error(error, LIVE_KNOBS_ERROR_COMMAND, cases[c].needle);
		assert_true(ms == -1);
		g_autofree char *seen = read_file(t->snapshot);
		assert_string_equal(seen, "1000000\n200000\n0\n"); /* it did run with the knobs */
		assert_true(tree_holds(t, initial));
	}
	char *missing[] = { "/nonexistent/hackbench", NULL };
	g_autoptr(GError) error = NULL;
	double ms;
	assert_false(live_knobs_run_cmd(live, &tuned, missing, &ms, &error));
	assert_error(error, LIVE_KNOBS_ERROR_COMMAND,
		     "cannot run command '/nonexistent/hackbench'");
	assert_true(tree_holds(t, initial));
	live_knobs_free(live);
	tree_free(t);
}

/* No knob files: the error explains EEVDF and debugfs and names the running kernel. */
static void test_no_knobs(void **state)
{
	(void)state;
	struct utsname uts;
	assert_int_equal(uname(&uts), 0);
	Tree *t = tree_new(NULL);
	g_autoptr(GError) error = NULL;
	assert_null(live_knobs_open(t->root, &error));
	assert_error(error, LIVE_KNOBS_ERROR_NO_KNOBS, uts.release);
	assert_non_null(strstr(error->message, "EEVDF"));
	assert_non_null(strstr(error->message, "debugfs"));
	assert_non_null(strstr(error->message, "sched_latency_ns"));
	g_clear_error(&error);

	/* A 6.6+ debugfs: the directory exists, with base_slice_ns instead of the CFS knobs. */
	g_autofree char *eevdf =
		g_build_filename(t->root, "sys/kernel/debug/sched/base_slice_ns", NULL);
	write_file(eevdf, "3000000\n");
	assert_null(live_knobs_open(t->root, &error));
	assert_error(error, LIVE_KNOBS_ERROR_NO_KNOBS, "EEVDF");
	g_clear_error(&error);

	/* Only some of the files: the missing one is named. */
	g_autofree char *latency = g_build_filename(t->root, debugfs_files[0], NULL);
	write_file(latency, "6000000\n");
	assert_null(live_knobs_open(t->root, &error));
	assert_error(error, LIVE_KNOBS_ERROR_NO_KNOBS, "min_granularity_ns");
	tree_free(t);
}

static void test_garbage_value(void **state)
{
	(void)state;
	Tree *t = tree_new(sysctl_files);
	write_file(t->path[1], "fast\n");
	g_autoptr(GError) error = NULL;
	assert_null(live_knobs_open(t->root, &error));
	assert_error(error, LIVE_KNOBS_ERROR_PARSE, "'fast'");
	assert_non_null(strstr(error->message, "sched_min_granularity_ns"));
	tree_free(t);
}

/* Checks inside a forked child, which cannot use cmocka's assertions: report and exit 1. */
#define CHILD_CHECK(cond)                                                                        \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "child check failed at line %d: %s\n", __LINE__, #cond); \
			_exit(1);                                                                \
		}                                                                                \
	} while (0)

/* The permission checks of test_permission_refused, as an unprivileged user. */
static void permission_checks(void)
{
	GError *error = NULL;
	/* The first knob read-only: nothing is written, the error suggests root. */
	Tree *t = tree_new(debugfs_files);
	CHILD_CHECK(g_chmod(t->path[0], 0444) == 0);
	LiveKnobs *live = live_knobs_open(t->root, &error);
	CHILD_CHECK(live != NULL);
	CHILD_CHECK(!live_knobs_apply(live, &tuned, &error));
	CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PERMISSION));
	CHILD_CHECK(strstr(error->message, "needs root") && strstr(error->message, t->path[0]));
	g_clear_error(&error);
	CHILD_CHECK(tree_holds(t, initial));
	/* Through run_cmd: refused before the command runs. */
	char **argv = shell_argv(t, "echo 'Time: 1'");
	double ms;
	CHILD_CHECK(!live_knobs_run_cmd(live, &tuned, argv, &ms, &error));
	CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PERMISSION));
	CHILD_CHECK(!g_file_test(t->snapshot, G_FILE_TEST_EXISTS));
	g_clear_error(&error);
	g_strfreev(argv);
	live_knobs_free(live);
	tree_free(t);

	/* The second knob read-only: the first was written, and restore puts it back. */
	t = tree_new(sysctl_files);
	CHILD_CHECK(g_chmod(t->path[1], 0444) == 0);
	live = live_knobs_open(t->root, &error);
	CHILD_CHECK(live != NULL);
	CHILD_CHECK(!live_knobs_apply(live, &tuned, &error));
	CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PERMISSION));
	g_clear_error(&error);
	g_autofree char *written = read_file(t->path[0]);
	CHILD_CHECK(strcmp(written, tuned_text[0]) == 0);
	CHILD_CHECK(live_knobs_restore(live, &error));
	CHILD_CHECK(tree_holds(t, initial));
	live_knobs_free(live);

	/* Unreadable knobs (debugfs on 5.13+ is root-only): refused at open, suggesting root. */
	CHILD_CHECK(g_chmod(t->path[2], 0) == 0);
	CHILD_CHECK(live_knobs_open(t->root, &error) == NULL);
	CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PERMISSION));
	CHILD_CHECK(strstr(error->message, "needs root"));
	g_clear_error(&error);
	g_autofree char *kernel_dir = g_build_filename(t->root, "proc/sys/kernel", NULL);
	CHILD_CHECK(g_chmod(kernel_dir, 0) == 0);
	CHILD_CHECK(live_knobs_open(t->root, &error) == NULL);
	CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PERMISSION));
	g_clear_error(&error);
	CHILD_CHECK(g_chmod(kernel_dir, 0755) == 0);
	tree_free(t);
}

/*
 * Read-only and unreadable knob files give a permission error that suggests root.  Root ignores
 * file modes, so when the tests run as root the checks run in a child that became "nobody".
 */
static void test_permission_refused(void **state)
{
	(void)state;
	/* The state directory must be the child's to write. */
	g_autofree char *states = g_build_filename(g_get_user_state_dir(), "linsched-tuner", NULL);
	remove_tree(states);
	assert_int_equal(g_chmod(g_get_user_state_dir(), 01777), 0);
	pid_t pid = fork_single_threaded();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0)
			CHILD_CHECK(setgroups(0, NULL) == 0 && setgid(65534) == 0 &&
				    setuid(65534) == 0);
		permission_checks();
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * Ctrl-C while the command runs: the knobs are restored, run_cmd says "interrupted", the next
 * run_cmd refuses before touching anything, and more signals are caught as well.  In a child,
 * because the signal flag is process-wide.
 */
static void test_interrupt_restores(void **state)
{
	(void)state;
	Tree *t = tree_new(debugfs_files);
	pid_t pid = fork_single_threaded();
	assert_true(pid >= 0);
	if (pid == 0) {
		GError *error = NULL;
		CHILD_CHECK(live_knobs_catch_signals(&error));
		CHILD_CHECK(!live_knobs_interrupted());
		LiveKnobs *live = live_knobs_open(t->root, &error);
		CHILD_CHECK(live != NULL);
		/* The command is a child of this process: $PPID is us, as for a Ctrl-C of the tuner. */
		char **argv = shell_argv(t, "kill -INT $PPID; echo 'Time: 1'");
		double ms;
		CHILD_CHECK(!live_knobs_run_cmd(live, &tuned, argv, &ms, &error));
		CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_INTERRUPTED));
		CHILD_CHECK(strstr(error->message, "restored"));
		g_clear_error(&error);
		CHILD_CHECK(live_knobs_interrupted());
		g_autofree char *seen = read_file(t->snapshot);
		CHILD_CHECK(strcmp(seen, "1000000\n200000\n0\n") == 0);
		CHILD_CHECK(tree_holds(t, initial));
		/* Once interrupted, nothing more is applied or run. */
		CHILD_CHECK(g_remove(t->snapshot) == 0);
		CHILD_CHECK(!live_knobs_run_cmd(live, &tuned, argv, &ms, &error));
		CHILD_CHECK(g_error_matches(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_INTERRUPTED));
		CHILD_CHECK(!g_file_test(t->snapshot, G_FILE_TEST_EXISTS));
		CHILD_CHECK(tree_holds(t, initial));
		/* A repeated signal, of another kind, is caught too: the process lives on to free,
		 * which removes the state file. */
		raise(SIGHUP);
		raise(SIGINT);
		/* Every kind whose default is to end the process, the real-time ones included: any
		 * of these would have killed the process here, with the state file left. */
		raise(SIGPROF);
		raise(SIGIO);
		raise(SIGPWR);
		raise(SIGRTMIN);
		raise(SIGRTMAX);
		CHILD_CHECK(live_knobs_interrupted());
		live_knobs_free(live);
		g_strfreev(argv);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child ended with status %d", status);
	assert_true(tree_holds(t, initial));
	tree_free(t);
}

/*
 * The evaluator's objective: the command prints the latency it finds in the knob file as its time,
 * so each value proves the knobs were in place during its own command, even with 2 jobs.
 */
static void test_objective_through_evaluator(void **state)
{
	(void)state;
	Tree *t = tree_new(sysctl_files);
	LiveKnobs *live = open_ok(t);
	g_autofree char *latency = g_shell_quote(t->path[0]);
	g_autofree char *script = g_strdup_printf("sleep 0.01; echo \"Time: $(cat %s)\"", latency);
	char *argv[] = { "sh", "-c", script, NULL };
	LiveObjective objective = { .live = live, .argv = argv };
	const EvaluatorObjective fn = live_knobs_objective; /* the signatures agree */
	const Knobs points[4] = { KNOBS_CFS(1, 100000, 0), KNOBS_CFS(2, 100000, 0),
				  KNOBS_CFS(3, 100000, 0), KNOBS_CFS(4, 100000, 0) };
	EvaluatorConfig config = { .objective = fn,
				   .objective_ctx = &objective,
				   .replicates = 2,
				   .base_seed = 1,
				   .jobs = 2 };
	EvaluatorResult results[4];
	g_autoptr(GError) error = NULL;
	if (!evaluator_run(&config, points, 4, results, NULL, NULL, &error))
		fail_msg("evaluator_run: %s", error->message);
	for (int i = 0; i < 4; i++) {
		/* latency i + 1 "seconds" -> (i + 1) * 1000 ms, the same in both replicates */
		assert_true(results[i].mean == (i + 1) * 1000.0);
		assert_true(results[i].std_error == 0.0);
	}
	assert_true(tree_holds(t, initial));
	live_knobs_free(live);
	tree_free(t);
}

/* A tree of the given files (relative to the root) and their texts; free with tree_free. */
static Tree *tree_of(const char *const *files, const char *const *texts, int n)
{
	Tree *t = tree_new(NULL);
	for (int i = 0; i < n; i++) {
		g_autofree char *path = g_build_filename(t->root, files[i], NULL);
		write_file(path, texts[i]);
	}
	return t;
}

static char *file_in(const Tree *t, const char *name)
{
	g_autofree char *path = g_build_filename(t->root, name, NULL);
	return read_file(path);
}

/*
 * Issue 15: migration_cost beside CFS's three, on a kernel before 5.13 (sysctl): written, saved in
 * the state file, and restored.
 */
static void test_migration_cost_sysctl(void **state)
{
	(void)state;
	static const char *const files[4] = { "proc/sys/kernel/sched_latency_ns",
					      "proc/sys/kernel/sched_min_granularity_ns",
					      "proc/sys/kernel/sched_wakeup_granularity_ns",
					      "proc/sys/kernel/sched_migration_cost_ns" };
	static const char *const texts[4] = { "18000000\n", "2250000\n", "3000000\n", "500000\n" };
	Tree *t = tree_of(files, texts, 4);
	g_autoptr(GError) error = NULL;
	const KnobSet set = KNOB_SET_CFS | KNOB_BIT(KNOB_MIGRATION_COST);
	LiveKnobs *live = live_knobs_open_set(t->root, set, &error);
	if (!live)
		fail_msg("%s", error->message);
	assert_int_equal(live_knobs_layout(live), LIVE_KNOBS_SYSCTL);
	assert_int_equal(live_knobs_saved(live)->migration_cost_ns, 500000);

	g_autofree char *state_path = knob_state_path(t->root, NULL);
	g_autofree char *state_text = read_file(state_path);
	assert_non_null(strstr(
		state_text, "knobs=latency,min_granularity,wakeup_granularity,migration_cost\n"));
	assert_non_null(strstr(state_text, "migration_cost_ns=500000\n"));

	Knobs k = tuned;
	k.migration_cost_ns = 250000;
	assert_true(live_knobs_apply(live, &k, &error));
	g_autofree char *m = file_in(t, files[3]);
	assert_string_equal(m, "250000\n");
	g_autofree char *l = file_in(t, files[0]);
	assert_string_equal(l, "1000000\n");
	assert_true(live_knobs_restore(live, &error));
	g_autofree char *back = file_in(t, files[3]);
	assert_string_equal(back, "500000\n");
	live_knobs_free(live);
	tree_free(t);
}

/*
 * Issue 14: an EEVDF kernel (6.6+) has base_slice_ns and migration_cost_ns in debugfs and no CFS
 * knobs. base_slice is found there only; asking it for latency, or an older kernel for base_slice,
 * is refused; a dead tuner's base_slice comes back with live_knobs_recover (`tuner knobs
 * --restore`).
 */
static void test_base_slice_debugfs(void **state)
{
	(void)state;
	static const char *const files[2] = { "sys/kernel/debug/sched/base_slice_ns",
					      "sys/kernel/debug/sched/migration_cost_ns" };
	static const char *const texts[2] = { "3000000\n", "500000\n" };
	Tree *t = tree_of(files, texts, 2);
	g_autoptr(GError) error = NULL;
	const KnobSet set = KNOB_BIT(KNOB_BASE_SLICE) | KNOB_BIT(KNOB_MIGRATION_COST);

	assert_null(live_knobs_open(t->root, &error));
	assert_error(error, LIVE_KNOBS_ERROR_NO_KNOBS, "no CFS knobs");
	g_clear_error(&error);

	LiveKnobs *live = live_knobs_open_set(t->root, set, &error);
	if (!live)
		fail_msg("%s", error->message);
	assert_int_equal(live_knobs_layout(live), LIVE_KNOBS_DEBUGFS);
	assert_int_equal(live_knobs_saved(live)->base_slice_ns, 3000000);
	Knobs k = { .base_slice_ns = 750000, .migration_cost_ns = 0 };
	assert_true(live_knobs_apply(live, &k, &error));
	g_autofree char *b = file_in(t, files[0]);
	assert_string_equal(b, "750000\n");
	g_autofree char *m = file_in(t, files[1]);
	assert_string_equal(m, "0\n");
	live_knobs_free(live); /* restores */
	g_autofree char *b2 = file_in(t, files[0]);
	assert_string_equal(b2, "3000000\n");
	g_autofree char *m2 = file_in(t, files[1]);
	assert_string_equal(m2, "500000\n");

	/* A dead tuner: its state file and a changed base_slice. */
	g_autofree char *real = realpath(t->root, NULL);
	KnobState dead = { .pid = 1,
			   .started = g_strdup("2026-01-01T00:00:00Z"),
			   .root = g_strdup(real),
			   .layout = g_strdup("debugfs"),
			   .knobs = KNOB_BIT(KNOB_BASE_SLICE),
			   .saved = { .base_slice_ns = 3000000 } };
	g_autofree char *state_path = knob_state_path(t->root, NULL);
	assert_true(knob_state_write(state_path, &dead, &error));
	knob_state_clear(&dead);
	g_autofree char *dead_path = g_build_filename(t->root, files[0], NULL);
	write_file(dead_path, "100000\n");
	assert_null(live_knobs_open_set(t->root, set, &error));
	assert_error(error, LIVE_KNOBS_ERROR_STALE, "base_slice_ns=3000000");
	g_clear_error(&error);
	KnobState restored;
	gboolean found;
	assert_true(live_knobs_recover(t->root, &restored, &found, &error));
	assert_true(found);
	assert_int_equal(restored.knobs, KNOB_BIT(KNOB_BASE_SLICE));
	knob_state_clear(&restored);
	g_autofree char *b3 = file_in(t, files[0]);
	assert_string_equal(b3, "3000000\n");
	tree_free(t);

	/* A CFS kernel's tree has no base_slice. */
	t = tree_new(sysctl_files);
	assert_null(live_knobs_open_set(t->root, KNOB_BIT(KNOB_BASE_SLICE), &error));
	assert_error(error, LIVE_KNOBS_ERROR_NO_KNOBS, "exposes no base_slice");
	tree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_sysctl),
		cmocka_unit_test(test_detect_debugfs),
		cmocka_unit_test(test_apply_then_restore),
		cmocka_unit_test(test_run_cmd),
		cmocka_unit_test(test_restored_after_command_fails),
		cmocka_unit_test(test_no_knobs),
		cmocka_unit_test(test_garbage_value),
		cmocka_unit_test(test_permission_refused),
		cmocka_unit_test(test_interrupt_restores),
		cmocka_unit_test(test_objective_through_evaluator),
		cmocka_unit_test(test_migration_cost_sysctl),
		cmocka_unit_test(test_base_slice_debugfs),
	};
	/* The state files of live_knobs_open go to a directory of this test's own. */
	g_autofree char *state_home = temp_dir("test-live-knobs-state-XXXXXX");
	g_setenv("XDG_STATE_HOME", state_home, TRUE);
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	remove_tree(state_home);
	return failed;
}
