/*
 * live_knobs.h -- set the scheduler knobs of the running kernel, run a benchmark, put the knobs
 * back.
 *
 * This is the `--objective cmd --cmd 'COMMAND'` objective: instead of simulating, the tuner applies
 * a knob setting to the live kernel, runs a real benchmark (hackbench, perf bench sched messaging),
 * reads its time and restores the values the kernel had before, also when the command fails and
 * when the tuner is interrupted by a signal.
 *
 * Where the knobs are, under ROOT ("/" on a real machine; `--knob-root DIR` points elsewhere so
 * that tests can use a temporary tree):
 *   kernels before 5.13 (sysctl, with CONFIG_SCHED_DEBUG):
 *       ROOT/proc/sys/kernel/sched_latency_ns, sched_min_granularity_ns,
 *       sched_wakeup_granularity_ns
 *   kernels 5.13 to 6.5 (moved to debugfs):
 *       ROOT/sys/kernel/debug/sched/latency_ns, min_granularity_ns, wakeup_granularity_ns
 * and beside them sched_migration_cost_ns / migration_cost_ns; kernels 6.6 and later (EEVDF):
 *       ROOT/sys/kernel/debug/sched/base_slice_ns, migration_cost_ns
 * A LiveKnobs holds a knob set (knobs.h): it reads, writes and restores those knobs only.  The
 * layout is detected by which file of the set's first knob exists (sysctl first; a set with
 * base_slice is debugfs only).  A kernel without the set's knobs (6.6+ asked for latency, an
 * older one for base_slice) is refused with an error that names the kernel release.  Writing, and on 5.13+ even reading, the knobs
 * needs root; a permission error says so.
 *
 * Values are integers in nanoseconds, written in decimal as `echo V > FILE` would.
 *
 * Threads: the machine has a single set of knobs, so live_knobs_run_cmd holds the LiveKnobs' mutex
 * from apply to restore; parallel evaluations are serialised rather than measuring each other's
 * knobs (running them with --jobs 1 says the same thing more honestly).
 *
 * Signals: every signal that would end the tuner (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, ...;
 * see live_knobs_catch_signals) is caught, as often as it comes, and the knobs are restored before
 * the tuner stops.  What no process can catch (SIGKILL, a crash, a power cut) is covered by the
 * state file (knob_state.h): live_knobs_open saves the original values there before it writes any
 * knob and live_knobs_free removes it once they are back; a tuner that finds a file left behind
 * refuses to touch the knobs until live_knobs_recover (`tuner knobs --restore`) has written the
 * saved values back.
 */
#ifndef TUNER_LIVE_KNOBS_H
#define TUNER_LIVE_KNOBS_H

#include <glib.h>

#include "tuner/eval/knob_state.h"
#include "tuner/knobs/knobs.h"

G_BEGIN_DECLS

typedef enum {
	LIVE_KNOBS_SYSCTL,  /* ROOT/proc/sys/kernel/sched_*_ns: kernels before 5.13 */
	LIVE_KNOBS_DEBUGFS, /* ROOT/sys/kernel/debug/sched/ *_ns: kernels 5.13 to 6.5 */
} LiveKnobsLayout;

typedef struct LiveKnobs LiveKnobs;

#define LIVE_KNOBS_ERROR (live_knobs_error_quark())

typedef enum {
	LIVE_KNOBS_ERROR_NO_KNOBS,    /* the kernel exposes no CFS knobs (EEVDF, no debugfs, ...) */
	LIVE_KNOBS_ERROR_PERMISSION,  /* reading or writing a knob was refused: not root */
	LIVE_KNOBS_ERROR_IO,	      /* another read or write error (e.g. a value out of range) */
	LIVE_KNOBS_ERROR_PARSE,	      /* a knob file does not hold an integer */
	LIVE_KNOBS_ERROR_COMMAND,     /* the command could not run, failed, or printed no time */
	LIVE_KNOBS_ERROR_RESTORE,     /* the command failed and restoring the knobs failed too */
	LIVE_KNOBS_ERROR_INTERRUPTED, /* a signal arrived (see live_knobs_catch_signals) */
	LIVE_KNOBS_ERROR_STALE,	      /* a dead tuner's state file: `tuner knobs --restore` first */
	LIVE_KNOBS_ERROR_BUSY,	      /* another tuner holds these knobs now */
} LiveKnobsError;

GQuark live_knobs_error_quark(void);

/*
 * Catch the terminating signals (live_knobs_catch_signals), detect the knob layout under root
 * (NULL means "/"), lock the knobs' state file, read the current values of the knobs of set,
 * remember them for live_knobs_restore and save them in the state file.  Returns NULL and sets
 * error when there are no knobs, when one of the set's files is missing or unreadable, or does not hold an integer,
 * when another tuner holds these knobs (BUSY), when a dead tuner's state file is there (STALE: the
 * message says what to run), or when the state file cannot be written.
 */
LiveKnobs *live_knobs_open_set(const char *root, KnobSet set, GError **error);
/* live_knobs_open_set of CFS's three knobs. */
LiveKnobs *live_knobs_open(const char *root, GError **error);

/* The knob set live was opened with. */
KnobSet live_knobs_set(const LiveKnobs *live);

/* Restore the remembered values if knobs were applied and not restored, remove the state file
 * (kept, with a message on stderr, when restoring fails), unlock, and free.  NULL is allowed. */
void live_knobs_free(LiveKnobs *live);

/*
 * `tuner knobs --restore`: write back the values of the state file of the knobs under root (NULL:
 * "/") that a dead tuner left, and remove it.  *found says whether there was one; *restored gets
 * its contents (knob_state_clear it).  Refuses (BUSY) while a running tuner holds these knobs.
 */
gboolean live_knobs_recover(const char *root, KnobState *restored, gboolean *found, GError **error);

LiveKnobsLayout live_knobs_layout(const LiveKnobs *live);

/* A human description of a layout, e.g. "sysctl /proc/sys/kernel (kernels before 5.13)". */
const char *live_knobs_layout_name(LiveKnobsLayout layout);

/* The values read by live_knobs_open, which restore writes back. */
const Knobs *live_knobs_saved(const LiveKnobs *live);

/* Write the knobs of the set.  If a write fails (the earlier ones may have taken effect), the error says
 * which file and value; call live_knobs_restore to undo. */
gboolean live_knobs_apply(LiveKnobs *live, const Knobs *knobs, GError **error);

/* Write back the remembered value of each knob written since the last restore (none: nothing to
 * do).  Carries on after a failure; returns the first error. */
gboolean live_knobs_restore(LiveKnobs *live, GError **error);

/*
 * Apply knobs, run argv (searched in PATH, stdout captured), restore the remembered values whatever
 * happened, and return the benchmark's time in *ms (milliseconds).  The time is the last line of
 * stdout of the form "Time: X" (hackbench) or "Total time: X [sec]" (perf bench), X in seconds.
 * Errors: apply failed, the command could not start, exited with a non-zero status or died of a
 * signal, printed no time, or a signal caught by live_knobs_catch_signals arrived (checked before
 * applying and after the command).  If restoring fails too, the error says so.
 */
gboolean live_knobs_run_cmd(LiveKnobs *live, const Knobs *knobs, char *const *argv, double *ms,
			    GError **error);

/*
 * Catch every signal whose default action would end the process, but the faults: SIGHUP, SIGINT,
 * SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
 * SIGIO, SIGPWR, SIGSTKFLT and the real-time signals SIGRTMIN..SIGRTMAX.  A signal sets
 * a flag and stops the benchmark in flight (it runs in a process group of its own: SIGTERM to it at
 * the first signal, SIGKILL at any later one, for a benchmark that ignores SIGTERM); the knobs are
 * then restored with these signals blocked, and live_knobs_run_cmd returns
 * LIVE_KNOBS_ERROR_INTERRUPTED; the tuner then stops.  Repeated signals change nothing but the
 * SIGKILL: the handler stays installed.  live_knobs_open calls this; it is idempotent.  Install it
 * only for the live objective: a tuner that simulates would otherwise not stop at Ctrl-C.
 */
gboolean live_knobs_catch_signals(GError **error);

/* TRUE once a signal caught by live_knobs_catch_signals arrived. */
gboolean live_knobs_interrupted(void);

/* The evaluator's objective (EvaluatorObjective) for a live command.  ctx is a LiveObjective.  The
 * seed is ignored: on a real machine the replicates differ by its own noise. */
typedef struct {
	LiveKnobs *live;
	char **argv; /* the command, e.g. from g_shell_parse_argv of --cmd */
} LiveObjective;

gboolean live_knobs_objective(const Knobs *knobs, guint64 seed, double *value, void *ctx,
			      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(LiveKnobs, live_knobs_free)

G_END_DECLS

#endif /* TUNER_LIVE_KNOBS_H */
