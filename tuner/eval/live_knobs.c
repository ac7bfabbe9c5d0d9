/*
 * live_knobs.c -- apply CFS knobs to the running kernel around a benchmark (see live_knobs.h).
 */
#include "tuner/eval/live_knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static const struct {
	const char *dir; /* relative to ROOT */
	const char *name;
} layouts[] = {
	[LIVE_KNOBS_SYSCTL] = { "proc/sys/kernel",
				"sysctl /proc/sys/kernel (kernels before 5.13)" },
	[LIVE_KNOBS_DEBUGFS] = { "sys/kernel/debug/sched",
				 "debugfs /sys/kernel/debug/sched (kernels 5.13 to 6.5)" },
};

/* The file of knob k in layout, relative to the layout's dir. */
static const char *knob_file(LiveKnobsLayout layout, enum knob k)
{
	return layout == LIVE_KNOBS_SYSCTL ? knob_info(k)->sysctl : knob_info(k)->debugfs;
}

struct LiveKnobs {
	LiveKnobsLayout layout;
	char *path[KNOB_COUNT];
	CfsKnobs saved; /* the values found by live_knobs_open */
	guint written;	/* bit i: knob i was written since the last restore */
	GMutex lock;	/* held by live_knobs_run_cmd from apply to restore */
};

/*
 * The one piece of mutable global state: the signal caught by live_knobs_catch_signals (0: none).
 * A signal handler receives no context pointer, so a static is the only place it can leave a mark,
 * and volatile sig_atomic_t is the only type it may write safely.
 */
static volatile sig_atomic_t caught_signal;

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(live-knobs-error-quark, live_knobs_error)
/* clang-format on */

static void knobs_to_array(const CfsKnobs *knobs, guint64 v[KNOB_COUNT])
{
	for (int i = 0; i < KNOB_COUNT; i++)
		v[i] = (guint64)knob_get(knobs, (enum knob)i);
}

static const char *const suggest_root =
	"access to the CFS knobs needs root (run the tuner with sudo)";

/* ---- detecting the layout and reading the knobs ---- */

/* 1 if path exists, 0 if it does not, -1 (error set) if we may not even look. */
static int probe(const char *path, GError **error)
{
	struct stat st;
	if (stat(path, &st) == 0)
		return 1;
	if (errno == ENOENT || errno == ENOTDIR)
		return 0;
	int err = errno;
	g_set_error(error, LIVE_KNOBS_ERROR,
		    err == EACCES ? LIVE_KNOBS_ERROR_PERMISSION : LIVE_KNOBS_ERROR_IO,
		    "cannot look for CFS knob %s: %s%s%s", path, g_strerror(err),
		    err == EACCES ? "; " : "", err == EACCES ? suggest_root : "");
	return -1;
}

static void set_no_knobs_error(const char *root, GError **error)
{
	struct utsname uts;
	const char *release = uname(&uts) == 0 ? uts.release : "(unknown)";
	g_autofree char *sysctl =
		g_build_filename(root, layouts[LIVE_KNOBS_SYSCTL].dir,
				 knob_file(LIVE_KNOBS_SYSCTL, KNOB_LATENCY), NULL);
	g_autofree char *debugfs =
		g_build_filename(root, layouts[LIVE_KNOBS_DEBUGFS].dir,
				 knob_file(LIVE_KNOBS_DEBUGFS, KNOB_LATENCY), NULL);
	g_set_error(
		error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_NO_KNOBS,
		"kernel %s exposes no CFS knobs under %s: neither %s nor %s exists. "
		"Kernels 6.6 and later schedule with EEVDF and have no such knobs; kernels 5.13 to "
		"6.5 need debugfs mounted (mount -t debugfs none /sys/kernel/debug); older ones "
		"need CONFIG_SCHED_DEBUG",
		release, root, sysctl, debugfs);
}

static gboolean read_knob(const char *path, guint64 *value, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) read_error = NULL;
	if (!g_file_get_contents(path, &text, NULL, &read_error)) {
		gboolean denied = g_error_matches(read_error, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
				  g_error_matches(read_error, G_FILE_ERROR, G_FILE_ERROR_PERM);
		gboolean missing = g_error_matches(read_error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
		g_set_error(error, LIVE_KNOBS_ERROR,
			    denied    ? LIVE_KNOBS_ERROR_PERMISSION
			    : missing ? LIVE_KNOBS_ERROR_NO_KNOBS
				      : LIVE_KNOBS_ERROR_IO,
			    "cannot read CFS knob: %s%s%s", read_error->message, denied ? "; " : "",
			    denied ? suggest_root : "");
		return FALSE;
	}
	if (!g_ascii_string_to_unsigned(g_strstrip(text), 10, 0, G_MAXUINT64, value, NULL)) {
		g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PARSE,
			    "CFS knob %s holds '%s', not an integer number of nanoseconds", path,
			    text);
		return FALSE;
	}
	return TRUE;
}

LiveKnobs *live_knobs_open(const char *root, GError **error)
{
	root = root ? root : "/";
	int found = -1;
	for (int l = 0; l < (int)G_N_ELEMENTS(layouts) && found < 0; l++) {
		g_autofree char *latency = g_build_filename(
			root, layouts[l].dir, knob_file((LiveKnobsLayout)l, KNOB_LATENCY), NULL);
		int exists = probe(latency, error);
		if (exists < 0)
			return NULL;
		if (exists)
			found = l;
	}
	if (found < 0) {
		set_no_knobs_error(root, error);
		return NULL;
	}
	g_autoptr(LiveKnobs) live = g_new0(LiveKnobs, 1);
	g_mutex_init(&live->lock);
	live->layout = (LiveKnobsLayout)found;
	guint64 v[KNOB_COUNT];
	for (int i = 0; i < KNOB_COUNT; i++) {
		live->path[i] =
			g_build_filename(root, layouts[found].dir,
					 knob_file((LiveKnobsLayout)found, (enum knob)i), NULL);
		if (!read_knob(live->path[i], &v[i], error))
			return NULL;
	}
	live->saved = (CfsKnobs){ v[0], v[1], v[2] };
	return g_steal_pointer(&live);
}

/* ---- writing ---- */

static gboolean write_knob(const char *path, guint64 value, GError **error)
{
	char text[32];
	int len = g_snprintf(text, sizeof text, "%" G_GUINT64_FORMAT "\n", value);
	int err = 0;
	/* O_TRUNC, as a shell's `echo V > FILE`: sysctl and debugfs ignore it, a test tree needs it. */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		ssize_t n;
		do
			n = write(fd, text, (size_t)len);
		while (n < 0 && errno == EINTR);
		err = n == len ? 0 : n < 0 ? errno : EIO;
		if (close(fd) != 0 && err == 0)
			err = errno;
	}
	if (err == 0)
		return TRUE;
	gboolean denied = err == EACCES || err == EPERM;
	g_set_error(error, LIVE_KNOBS_ERROR,
		    denied ? LIVE_KNOBS_ERROR_PERMISSION : LIVE_KNOBS_ERROR_IO,
		    "cannot write %" G_GUINT64_FORMAT " to CFS knob %s: %s%s%s", value, path,
		    g_strerror(err), denied ? "; " : "",
		    denied	    ? suggest_root
		    : err == EINVAL ? " (the kernel rejects values outside the knob's range)"
				    : "");
	return FALSE;
}

static gboolean apply_locked(LiveKnobs *live, const CfsKnobs *knobs, GError **error)
{
	guint64 v[KNOB_COUNT];
	knobs_to_array(knobs, v);
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!write_knob(live->path[i], v[i], error))
			return FALSE;
		live->written |= 1U << i;
	}
	return TRUE;
}

/*
 * Write back the saved value of every knob written since the last restore (the others still hold
 * it), carrying on after a failure so that as much as possible is restored.
 */
static gboolean restore_locked(LiveKnobs *live, GError **error)
{
	guint64 v[KNOB_COUNT];
	knobs_to_array(&live->saved, v);
	gboolean ok = TRUE;
	for (int i = 0; i < KNOB_COUNT; i++) {
		GError *write_error = NULL;
		if (!(live->written & (1U << i)))
			continue;
		if (write_knob(live->path[i], v[i], &write_error)) {
			live->written &= ~(1U << i);
			continue;
		}
		if (ok)
			g_propagate_prefixed_error(error, write_error,
						   "cannot restore the CFS knobs: ");
		else
			g_error_free(write_error);
		ok = FALSE;
	}
	return ok;
}

gboolean live_knobs_apply(LiveKnobs *live, const CfsKnobs *knobs, GError **error)
{
	g_mutex_lock(&live->lock);
	gboolean ok = apply_locked(live, knobs, error);
	g_mutex_unlock(&live->lock);
	return ok;
}

gboolean live_knobs_restore(LiveKnobs *live, GError **error)
{
	g_mutex_lock(&live->lock);
	gboolean ok = restore_locked(live, error);
	g_mutex_unlock(&live->lock);
	return ok;
}

void live_knobs_free(LiveKnobs *live)
{
	if (live == NULL)
		return;
	g_autoptr(GError) error = NULL;
	if (!live_knobs_restore(live, &error))
		g_warning("%s", error->message);
	for (int i = 0; i < KNOB_COUNT; i++)
		g_free(live->path[i]);
	g_mutex_clear(&live->lock);
	g_free(live);
}

LiveKnobsLayout live_knobs_layout(const LiveKnobs *live)
{
	return live->layout;
}

const char *live_knobs_layout_name(LiveKnobsLayout layout)
{
	return layouts[layout].name;
}

const CfsKnobs *live_knobs_saved(const LiveKnobs *live)
{
	return &live->saved;
}

/* ---- signals ---- */

static void on_signal(int signo)
{
	caught_signal = signo;
}

gboolean live_knobs_catch_signals(GError **error)
{
	static const int signals[] = { SIGINT, SIGTERM };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	for (gsize i = 0; i < G_N_ELEMENTS(signals); i++) {
		if (sigaction(signals[i], &sa, NULL) != 0) {
			g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_IO,
				    "cannot catch signal %s: %s", g_strsignal(signals[i]),
				    g_strerror(errno));
			return FALSE;
		}
	}
	return TRUE;
}

gboolean live_knobs_interrupted(void)
{
	return caught_signal != 0;
}

/* An error if a caught signal arrived; note completes the message (what became of the knobs). */
static gboolean check_not_interrupted(const char *note, GError **error)
{
	int signo = caught_signal;
	if (signo == 0)
		return TRUE;
	g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_INTERRUPTED,
		    "interrupted by signal %d (%s)%s", signo, g_strsignal(signo), note);
	return FALSE;
}

/* ---- running a benchmark ---- */

/*
 * The benchmark's time in seconds: the last line "Time: X" (hackbench) or "Total time: X [sec]"
 * (perf bench sched messaging).  A deliberately small parser for the live objective; the fuller
 * one of the calibration lives in tuner/calib/realbench.c, and the two are meant to be merged.
 */
static gboolean live_parse_bench_seconds(const char *output, double *seconds)
{
	static const struct {
		const char *label, *unit;
	} forms[] = { { "Time:", "" }, { "Total time:", "[sec]" } };
	gboolean found = FALSE;
	g_auto(GStrv) lines = g_strsplit(output, "\n", -1);
	for (char **line = lines; *line; line++) {
		const char *text = g_strstrip(*line);
		for (gsize f = 0; f < G_N_ELEMENTS(forms); f++) {
			if (!g_str_has_prefix(text, forms[f].label))
				continue;
			const char *number = text + strlen(forms[f].label);
			char *end;
			double value = g_ascii_strtod(number, &end);
			while (g_ascii_isspace(*end))
				end++;
			if (end != number && isfinite(value) && value >= 0 &&
			    strcmp(end, forms[f].unit) == 0) {
				*seconds = value;
				found = TRUE;
			}
		}
	}
	return found;
}

static gboolean spawn_command(char *const *argv, char **out, char **err, gint *status,
			      GError **error)
{
	g_autoptr(GError) spawn_error = NULL;
	if (g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, err,
			 status, &spawn_error))
		return TRUE;
	g_autofree char *command = g_strjoinv(" ", (char **)argv);
	g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_COMMAND,
		    "cannot run command '%s': %s", command, spawn_error->message);
	return FALSE;
}

/* The command's outcome: it exited with status 0 and printed a time. */
static gboolean command_result(char *const *argv, gint status, const char *out, char *err,
			       double *ms, GError **error)
{
	g_autofree char *command = g_strjoinv(" ", (char **)argv);
	g_autoptr(GError) exit_error = NULL;
	if (!g_spawn_check_wait_status(status, &exit_error)) {
		g_auto(GStrv) lines = g_strsplit(g_strstrip(err), "\n", -1);
		guint n = g_strv_length(lines);
		g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_COMMAND,
			    "command '%s' failed: %s%s%s", command, exit_error->message,
			    n ? ": " : "", n ? lines[n - 1] : "");
		return FALSE;
	}
	double seconds;
	if (!live_parse_bench_seconds(out, &seconds)) {
		g_set_error(
			error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_COMMAND,
			"command '%s' printed no 'Time: X' (hackbench) or 'Total time: X [sec]' "
			"(perf bench) line",
			command);
		return FALSE;
	}
	*ms = seconds * 1000.0;
	return TRUE;
}

/* Combine the outcome of the run and of the restore into one result. */
static gboolean settle(gboolean ran, GError *run_error, gboolean restored, GError *restore_error,
		       GError **error)
{
	if (!ran && !restored) {
		g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_RESTORE, "%s; then %s",
			    run_error->message, restore_error->message);
		g_error_free(run_error);
		g_error_free(restore_error);
		return FALSE;
	}
	if (!ran) {
		g_propagate_error(error, run_error);
		return FALSE;
	}
	if (!restored) {
		g_propagate_error(error, restore_error);
		return FALSE;
	}
	return TRUE;
}

static gboolean run_cmd_locked(LiveKnobs *live, const CfsKnobs *knobs, char *const *argv,
			       double *ms, GError **error)
{
	if (!check_not_interrupted("; the CFS knobs were left as they are", error))
		return FALSE;
	g_autofree char *out = NULL, *err = NULL;
	gint status = 0;
	GError *run_error = NULL, *restore_error = NULL;
	gboolean ran = apply_locked(live, knobs, &run_error) &&
		       spawn_command(argv, &out, &err, &status, &run_error);
	gboolean restored = restore_locked(live, &restore_error);
	/* Checked before the exit status: a Ctrl-C also killed the command, and that is no failure
	 * of the command but the user's wish to stop. */
	if (ran)
		ran = check_not_interrupted(restored ? "; the CFS knobs were restored" : "",
					    &run_error) &&
		      command_result(argv, status, out, err, ms, &run_error);
	return settle(ran, run_error, restored, restore_error, error);
}

gboolean live_knobs_run_cmd(LiveKnobs *live, const CfsKnobs *knobs, char *const *argv, double *ms,
			    GError **error)
{
	g_return_val_if_fail(argv != NULL && argv[0] != NULL, FALSE);
	g_mutex_lock(&live->lock);
	gboolean ok = run_cmd_locked(live, knobs, argv, ms, error);
	g_mutex_unlock(&live->lock);
	return ok;
}

gboolean live_knobs_objective(const CfsKnobs *knobs, guint64 seed, double *value, void *ctx,
			      GError **error)
{
	(void)seed;
	const LiveObjective *objective = ctx;
	return live_knobs_run_cmd(objective->live, knobs, objective->argv, value, error);
}
