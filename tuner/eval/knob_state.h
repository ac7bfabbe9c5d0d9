/*
 * knob_state.h -- the state file that outlives a tuner killed while it held a live kernel's knobs.
 *
 * A tuner that evaluates on the live kernel (--objective cmd, validate --against live) writes the
 * knobs' original values here before it first writes a knob, and removes the file once it has put
 * them back. A tuner that dies in between (SIGKILL, a crash, a power cut) leaves the file behind:
 * the next tuner that wants those knobs finds it and refuses until `tuner knobs --restore` has
 * written the values back (live_knobs_recover).
 *
 * Where: $XDG_STATE_HOME/linsched-tuner/ (GLib's g_get_user_state_dir(): ~/.local/state when the
 * variable is unset; under sudo, root's). The real kernel's knobs (--knob-root /) use
 * live-knobs.state; another knob root (a test's fake tree) uses live-knobs-HASH.state, HASH the
 * first 16 hex digits of the SHA-256 of its canonical path, so that fake trees never meet the real
 * file nor each other. Tests point XDG_STATE_HOME at a temporary directory.
 *
 * The file is a GLib key file, written atomically and durably (a temporary file, fsync, rename,
 * fsync of the directory), so a power cut leaves either no file or a whole one:
 *
 *   [live-knobs]
 *   version=1
 *   pid=4242
 *   started=2025-01-31T12:00:00Z
 *   root=/
 *   layout=sysctl
 *   knobs=latency,min_granularity,wakeup_granularity
 *   latency_ns=24000000
 *   min_granularity_ns=3000000
 *   wakeup_granularity_ns=4000000
 *
 * knobs names the knob set the tuner held (knobs.h), and one key per knob of it follows; a file
 * without knobs (written before knob sets) holds CFS's three.
 *
 * It names the knob root and layout, not the files: a state file that had been tampered with can
 * make the tuner write a number into a knob, never into any other file.
 *
 * Who holds the knobs: beside the state file, HASH.lock (live-knobs.lock) is locked with flock(2)
 * for as long as a tuner has them open. The kernel drops the lock when its holder dies, however it
 * dies; so a state file whose lock is free is stale, and one whose lock is held belongs to a
 * running tuner (which another tuner or `tuner knobs --restore` must not disturb).
 */
#ifndef TUNER_KNOB_STATE_H
#define TUNER_KNOB_STATE_H

#include <glib.h>

#include "tuner/knobs/knobs.h"

G_BEGIN_DECLS

typedef struct {
	gint64 pid;    /* the tuner that wrote it */
	char *started; /* when, ISO 8601 UTC */
	char *root;    /* the knob root, canonical */
	char *layout;  /* "sysctl" or "debugfs" */
	KnobSet knobs; /* the knobs held and saved (0 when writing: CFS's three) */
	Knobs saved;   /* the values before the tuner changed anything */
} KnobState;

void knob_state_clear(KnobState *state);

/* The state file for the knobs under root (NULL: "/"), and its lock file; NULL with error set
 * when root cannot be resolved. */
char *knob_state_path(const char *root, GError **error);

/*
 * Lock the knobs under root for this process: creates the state directory if needed, opens the
 * lock file and takes its lock without waiting. Returns the locked descriptor (close it to unlock),
 * or -1 with error set: G_IO_ERROR_BUSY-like (G_FILE_ERROR_AGAIN) when another process holds it,
 * another G_FILE_ERROR when the directory or file cannot be made.
 */
int knob_state_lock(const char *state_path, GError **error);

/* Write state to path atomically and durably (see above). */
gboolean knob_state_write(const char *path, const KnobState *state, GError **error);

/*
 * Read the state file at path into *state. Returns FALSE with *found FALSE and no error when there
 * is no file; FALSE with an error naming the file when it cannot be read or is malformed.
 */
gboolean knob_state_read(const char *path, KnobState *state, gboolean *found, GError **error);

/* Remove the state file (a missing file is no error). */
gboolean knob_state_remove(const char *path, GError **error);

G_END_DECLS

#endif /* TUNER_KNOB_STATE_H */
