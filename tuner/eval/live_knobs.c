/*
 * live_knobs.c -- apply CFS knobs to the running kernel around a benchmark (see live_knobs.h).
 */
#include "tuner/eval/live_knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tuner/eval/knob_state.h"

static const struct {
	const char *dir; /* relative to ROOT */
	const char *name;
	const char *key; /* in the state file */
} layouts[] = {
	[LIVE_KNOBS_SYSCTL] = { "proc/sys/kernel", "sysctl /proc/sys/kernel (kernels before 5.13)",
				"sysctl" },
	[LIVE_KNOBS_DEBUGFS] = { "sys/kernel/debug/sched",
				 "debugfs /sys/kernel/debug/sched (kernels 5.13 to 6.5)",
				 "debugfs" },
};

/* The file of knob k in layout, relative to the layout's dir; NULL: the layout has none (sysctl's
 * base_slice). */
static const char *knob_file(LiveKnobsLayout layout, enum knob k)
{
	return layout == LIVE_KNOBS_SYSCTL ? knob_info(k)->sysctl : knob_info(k)->debugfs;
}

/* The first knob of set: the one whose file tells the layout. */
static enum knob first_knob(KnobSet set)
{
	return (enum knob)__builtin_ctz(set);
}

struct LiveKnobs {
	LiveKnobsLayout layout;
	KnobSet set; /* the knobs read, written and restored */
	char *path[KNOB_COUNT];
	Knobs saved;	      /* the values found by live_knobs_open */
	guint written;	      /* bit i: knob i was written since the last restore */
	GMutex lock;	      /* held by live_knobs_run_cmd from apply to restore */
	char *state_path;     /* the state file (knob_state.h), removed once restored */
	int state_lock;	      /* its lock, held while open */
	gboolean saved_state; /* this process wrote the state file (else it must not remove it) */
};

/*
 * The one piece of mutable global state: what the signal handler of live_knobs_catch_signals
 * saw. A signal handler receives no context pointer, so statics are the only place it can leave a
 * mark, and volatile sig_atomic_t is the only type it may write safely.
 *   caught_signal  the last signal caught (0: none)
 *   caught_count   how many were caught (saturating)
 *   child_pgid     the process group of the benchmark running now (0: none), which the handler
 *                  stops: SIGTERM at the first signal, SIGKILL at any later one
 */
static volatile sig_atomic_t caught_signal, caught_count, child_pgid;

/* Every signal whose default action ends the process, except the faults (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT, SIGTRAP, SIGSYS) that say the tuner itself is broken: after those the state
 * file and `tuner knobs --restore` put the knobs back. The real-time signals, SIGRTMIN..SIGRTMAX
 * (not constants in glibc), end a process too: terminating_set adds them. */
static const int terminating_signals[] = {
	SIGHUP,	   SIGINT,  SIGQUIT, SIGPIPE,	SIGALRM, SIGTERM, SIGUSR1,
	SIGUSR2,   SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,	  SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

static void terminating_set(sigset_t *set)
{
	sigemptyset(set);
	for (gsize i = 0; i < G_N_ELEMENTS(terminating_signals); i++)
		sigaddset(set, terminating_signals[i]);
	for (int signo = SIGRTMIN; signo <= SIGRTMAX; signo++)
		sigaddset(set, signo);
}

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(live-knobs-error-quark, live_knobs_error)
/* clang-format on */

static void knobs_to_array(const Knobs *knobs, guint64 v[KNOB_COUNT])
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

static void set_no_knobs_error(const char *root, KnobSet set, GError **error)
{
	struct utsname uts;
	const char *release = uname(&uts) == 0 ? uts.release : "(unknown)";
	enum knob k = first_knob(set);
	g_autofree char *debugfs = g_build_filename(root, layouts[LIVE_KNOBS_DEBUGFS].dir,
						    knob_file(LIVE_KNOBS_DEBUGFS, k), NULL);
	if (!knob_info(k)->sysctl) {
		g_set_error(
			error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_NO_KNOBS,
			"kernel %s exposes no %s under %s: %s does not exist. Only kernels 6.6 "
			"and later (EEVDF) have it, in debugfs, which must be mounted (mount -t "
			"debugfs none /sys/kernel/debug)",
			release, knob_name(k), root, debugfs);
		return;
	}
	g_autofree char *sysctl = g_build_filename(root, layouts[LIVE_KNOBS_SYSCTL].dir,
						   knob_file(LIVE_KNOBS_SYSCTL, k), NULL);
	g_set_error(
		error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_NO_KNOBS,
		"kernel %s exposes no %s knobs under %s: neither %s nor %s exists. "
		"Kernels 6.6 and later schedule with EEVDF and have no such knobs; kernels 5.13 to "
		"6.5 need debugfs mounted (mount -t debugfs none /sys/kernel/debug); older ones "
		"need CONFIG_SCHED_DEBUG",
		release, k < KNOB_CFS_COUNT ? "CFS" : knob_name(k), root, sysctl, debugfs);
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

/* The layout under root, by where the set's first knob is (sysctl first), or -1 with error set. A
 * set with base_slice can only be in debugfs. */
static int detect_layout(const char *root, KnobSet set, GError **error)
{
	int found = -1;
	for (int l = 0; l < (int)G_N_ELEMENTS(layouts) && found < 0; l++) {
		if (l == LIVE_KNOBS_SYSCTL && (set & KNOB_BIT(KNOB_BASE_SLICE)))
			continue;
		g_autofree char *file = g_build_filename(
			root, layouts[l].dir, knob_file((LiveKnobsLayout)l, first_knob(set)), NULL);
		int exists = probe(file, error);
		if (exists < 0)
			return -1;
		if (exists)
			found = l;
	}
	if (found < 0)
		set_no_knobs_error(root, set, error);
	return found;
}

static char *knob_path(const char *root, LiveKnobsLayout layout, enum knob k)
{
	return g_build_filename(root, layouts[layout].dir, knob_file(layout, k), NULL);
}

/* Lock the state file of the knobs under root: *fd and *path, or an error that says who has it. */
static gboolean lock_state(const char *root, int *fd, char **path, GError **error)
{
	GError *local = NULL;
	if (!(*path = knob_state_path(root, &local)) ||
	    (*fd = knob_state_lock(*path, &local)) < 0) {
		g_set_error(error, LIVE_KNOBS_ERROR,
			    g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_AGAIN)
				    ? LIVE_KNOBS_ERROR_BUSY
				    : LIVE_KNOBS_ERROR_IO,
			    "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	return TRUE;
}

static void unlock_state(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* An error unless the state file at path is absent: a tuner died before it restored. */
static gboolean check_no_stale_state(const char *path, GError **error)
{
	KnobState stale;
	gboolean found;
	g_autoptr(GError) local = NULL;
	if (knob_state_read(path, &stale, &found, &local)) {
		g_autofree char *saved = knobs_describe(&stale.saved, stale.knobs);
		g_set_error(
			error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_STALE,
			"a tuner (pid %" G_GINT64_FORMAT ", started %s) stopped without "
			"restoring the scheduler knobs under %s, which may still hold its values; "
			"run `tuner knobs --restore%s%s` to write back %s (saved in %s)",
			stale.pid, stale.started, stale.root,
			strcmp(stale.root, "/") ? " --knob-root " : "",
			strcmp(stale.root, "/") ? stale.root : "", saved, path);
		knob_state_clear(&stale);
		return FALSE;
	}
	if (found) {
		g_set_error(
			error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_STALE,
			"a tuner stopped without restoring the scheduler knobs, and its state file "
			"cannot be used: %s; set the knobs by hand, then remove that file",
			local->message);
		return FALSE;
	}
	return TRUE;
}

static char *utc_now(void)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	return g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
}

LiveKnobs *live_knobs_open(const char *root, GError **error)
{
	return live_knobs_open_set(root, KNOB_SET_CFS, error);
}

LiveKnobs *live_knobs_open_set(const char *root, KnobSet set, GError **error)
{
	root = root ? root : "/";
	set &= KNOB_SET_ALL;
	g_return_val_if_fail(set != 0, NULL);
	/* Before anything is written: from here on a signal cannot stop the tuner half-way. */
	if (!live_knobs_catch_signals(error))
		return NULL;
	int found = detect_layout(root, set, error);
	if (found < 0)
		return NULL;
	g_autoptr(LiveKnobs) live = g_new0(LiveKnobs, 1);
	g_mutex_init(&live->lock);
	live->state_lock = -1;
	live->set = set;
	live->layout = (LiveKnobsLayout)found;
	if (!lock_state(root, &live->state_lock, &live->state_path, error) ||
	    !check_no_stale_state(live->state_path, error))
		return NULL;
	for (int i = 0; i < KNOB_COUNT; i++) {
		guint64 v;
		if (!(set & KNOB_BIT(i)))
			continue;
		live->path[i] = knob_path(root, live->layout, (enum knob)i);
		if (!read_knob(live->path[i], &v, error))
			return NULL;
		knob_set(&live->saved, (enum knob)i, (double)v);
	}
	KnobState state = { .pid = getpid(),
			    .started = utc_now(),
			    .root = realpath(root, NULL),
			    .layout = g_strdup(layouts[found].key),
			    .knobs = set,
			    .saved = live->saved };
	GError *local = NULL;
	gboolean written = state.root && knob_state_write(live->state_path, &state, &local);
	free(state.root);
	state.root = NULL;
	knob_state_clear(&state);
	live->saved_state = written;
	if (!written) {
		g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_IO,
			    "cannot save the CFS knobs before changing them: %s",
			    local ? local->message : "cannot resolve the knob root");
		g_clear_error(&local);
		return NULL;
	}
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

static gboolean apply_locked(LiveKnobs *live, const Knobs *knobs, GError **error)
{
	guint64 v[KNOB_COUNT];
	knobs_to_array(knobs, v);
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (!(live->set & KNOB_BIT(i)))
			continue;
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
	/* Not interruptible: a signal now waits until every knob is back. */
	sigset_t block, old;
	terminating_set(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
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
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

gboolean live_knobs_apply(LiveKnobs *live, const Knobs *knobs, GError **error)
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
	if (live->saved_state) {
		if (!live_knobs_restore(live, &error))
			g_printerr(
				"%s; the values to restore stay in %s, for `tuner knobs --restore`\n",
				error->message, live->state_path);
		else if (!knob_state_remove(live->state_path, &error))
			g_printerr("the CFS knobs were restored, but %s\n", error->message);
	}
	unlock_state(live->state_lock);
	g_free(live->state_path);
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

const Knobs *live_knobs_saved(const LiveKnobs *live)
{
	return &live->saved;
}

KnobSet live_knobs_set(const LiveKnobs *live)
{
	return live->set;
}

/* The layout a state file names, or -1. */
static int layout_from_key(const char *key)
{
	for (int l = 0; l < (int)G_N_ELEMENTS(layouts); l++)
		if (strcmp(layouts[l].key, key) == 0)
			return l;
	return -1;
}

/* Write the state file's values back under its own root and layout. */
static gboolean write_saved(const KnobState *state, const char *path, GError **error)
{
	int layout = layout_from_key(state->layout);
	if (layout < 0) {
		g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PARSE,
			    "%s is damaged: layout '%s' is neither sysctl nor debugfs", path,
			    state->layout);
		return FALSE;
	}
	/* A half-restored kernel is the one outcome to avoid: no signal until every knob is back. */
	sigset_t block, old;
	terminating_set(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	gboolean ok = TRUE;
	for (int i = 0; i < KNOB_COUNT && ok; i++) {
		if (!(state->knobs & KNOB_BIT(i)))
			continue;
		if (!knob_file((LiveKnobsLayout)layout, (enum knob)i)) {
			g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_PARSE,
				    "%s is damaged: %s has no %s file", path,
				    knob_name((enum knob)i), state->layout);
			ok = FALSE;
			break;
		}
		g_autofree char *file =
			knob_path(state->root, (LiveKnobsLayout)layout, (enum knob)i);
		ok = write_knob(file, (guint64)knob_get(&state->saved, (enum knob)i), error);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

gboolean live_knobs_recover(const char *root, KnobState *restored, gboolean *found, GError **error)
{
	*found = FALSE;
	*restored = (KnobState){ 0 };
	int fd;
	g_autofree char *path = NULL;
	if (!lock_state(root, &fd, &path, error))
		return FALSE;
	GError *local = NULL;
	gboolean ok = knob_state_read(path, restored, found, &local);
	if (!ok && !*found) {
		unlock_state(fd);
		return TRUE; /* nothing to restore */
	}
	if (ok)
		ok = write_saved(restored, path, &local) && knob_state_remove(path, &local);
	unlock_state(fd);
	if (!ok) {
		gboolean damaged = g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_INVAL);
		g_set_error(error, LIVE_KNOBS_ERROR,
			    local->domain == LIVE_KNOBS_ERROR ? local->code
			    : damaged			      ? LIVE_KNOBS_ERROR_PARSE
							      : LIVE_KNOBS_ERROR_IO,
			    "%s", local->message);
		g_error_free(local);
		knob_state_clear(restored);
	}
	return ok;
}

/* ---- signals ---- */

/* Only async-signal-safe calls (kill), and errno as it was. */
static void on_signal(int signo)
{
	int saved_errno = errno;
	caught_signal = signo;
	if (caught_count < 1000)
		caught_count++;
	pid_t pgid = child_pgid;
	if (pgid > 0)
		kill(-pgid, caught_count > 1 ? SIGKILL : SIGTERM);
	errno = saved_errno;
}

gboolean live_knobs_catch_signals(GError **error)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	terminating_set(&sa.sa_mask);
	for (int signo = 1; signo < NSIG; signo++) {
		if (sigismember(&sa.sa_mask, signo) == 1 && sigaction(signo, &sa, NULL) != 0) {
			g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_IO,
				    "cannot catch signal %s: %s", g_strsignal(signo),
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
 * Returns the last such line (g_free), NULL if there is none; *seconds is its number, NaN when
 * the number is not a time the tuner can use (negative, zero, nan, out of range), so that the
 * error can quote the line instead of claiming there was none.
 */
static char *live_parse_bench_seconds(const char *output, double *seconds)
{
	static const struct {
		const char *label, *unit;
	} forms[] = { { "Time:", "" }, { "Total time:", "[sec]" } };
	char *found = NULL;
	g_auto(GStrv) lines = g_strsplit(output, "\n", -1);
	for (char **line = lines; *line; line++) {
		const char *text = g_strstrip(*line);
		for (gsize f = 0; f < G_N_ELEMENTS(forms); f++) {
			if (!g_str_has_prefix(text, forms[f].label))
				continue;
			const char *number = text + strlen(forms[f].label);
			char *end;
			errno = 0;
			double value = g_ascii_strtod(number, &end);
			gboolean overflow = errno == ERANGE;
			while (g_ascii_isspace(*end))
				end++;
			if (end == number || strcmp(end, forms[f].unit) != 0)
				continue;
			g_free(found);
			found = g_strdup(text);
			*seconds = !overflow && isfinite(value) && value > 0 ? value : NAN;
		}
	}
	return found;
}

/* In the child: a process group of its own, which the signal handler can stop as a whole. */
static void own_process_group(gpointer data)
{
	(void)data;
	setpgid(0, 0);
}

/* Read fds[0] and fds[1] into out[0] and out[1] until both end, then close them. */
static void drain(int fds[2], GString *out[2])
{
	struct pollfd p[2] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 } };
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			char buf[4096];
			ssize_t n = read(p[i].fd, buf, sizeof buf);
			if (n > 0) {
				g_string_append_len(out[i], buf, n);
			} else if (n == 0 || errno != EINTR) {
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
}

/*
 * Run argv in a process group of its own (so that a signal to the tuner, forwarded by on_signal,
 * stops the whole benchmark), capture its output and wait for it. The group is forgotten only
 * once the child has exited and before it is reaped, so its number cannot have been reused.
 */
static gboolean spawn_command(char *const *argv, char **out, char **err, gint *status,
			      GError **error)
{
	g_autoptr(GError) spawn_error = NULL;
	GPid pid;
	int fds[2];
	if (!g_spawn_async_with_pipes(
		    NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
		    own_process_group, NULL, &pid, NULL, &fds[0], &fds[1], &spawn_error)) {
		g_autofree char *command = g_strjoinv(" ", (char **)argv);
		g_set_error(error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_COMMAND,
			    "cannot run command '%s': %s", command, spawn_error->message);
		return FALSE;
	}
	setpgid(pid, pid); /* also here, so that the group exists before we may signal it */
	child_pgid = pid;
	if (caught_count > 0) /* a signal came before child_pgid was set */
		kill(-pid, caught_count > 1 ? SIGKILL : SIGTERM);
	GString *text[2] = { g_string_new(NULL), g_string_new(NULL) };
	drain(fds, text);
	siginfo_t info;
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR)
		;
	child_pgid = 0;
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	*out = g_string_free(text[0], FALSE);
	*err = g_string_free(text[1], FALSE);
	return TRUE;
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
	g_autofree char *line = live_parse_bench_seconds(out, &seconds);
	if (!line) {
		g_set_error(
			error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_COMMAND,
			"command '%s' printed no 'Time: X' (hackbench) or 'Total time: X [sec]' "
			"(perf bench) line",
			command);
		return FALSE;
	}
	if (isnan(seconds)) {
		g_set_error(
			error, LIVE_KNOBS_ERROR, LIVE_KNOBS_ERROR_COMMAND,
			"command '%s' printed '%s': not a time (a finite number of seconds > 0)",
			command, line);
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

static gboolean run_cmd_locked(LiveKnobs *live, const Knobs *knobs, char *const *argv, double *ms,
			       GError **error)
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

gboolean live_knobs_run_cmd(LiveKnobs *live, const Knobs *knobs, char *const *argv, double *ms,
			    GError **error)
{
	g_return_val_if_fail(argv != NULL && argv[0] != NULL, FALSE);
	g_mutex_lock(&live->lock);
	gboolean ok = run_cmd_locked(live, knobs, argv, ms, error);
	g_mutex_unlock(&live->lock);
	return ok;
}

gboolean live_knobs_objective(const Knobs *knobs, guint64 seed, double *value, void *ctx,
			      GError **error)
{
	(void)seed;
	const LiveObjective *objective = ctx;
	return live_knobs_run_cmd(objective->live, knobs, objective->argv, value, error);
}
