/*
 * knob_state.c -- the live knobs' state file and its lock (see knob_state.h).
 */
#include "tuner/eval/knob_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gstdio.h>

#define GROUP	"live-knobs"
#define VERSION 1
/* Knob values go through double (knob_set): keep them exact. */
#define MAX_NS	(G_GUINT64_CONSTANT(1) << 53)

void knob_state_clear(KnobState *state)
{
	g_free(state->started);
	g_free(state->root);
	g_free(state->layout);
	*state = (KnobState){ 0 };
}

static gboolean file_error(GError **error, int err, const char *what, const char *path)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "cannot %s %s: %s", what,
		    path, g_strerror(err));
	return FALSE;
}

char *knob_state_path(const char *root, GError **error)
{
	char *canonical = realpath(root ? root : "/", NULL);
	if (!canonical) {
		file_error(error, errno, "resolve the knob root", root ? root : "/");
		return NULL;
	}
	g_autofree char *name = NULL;
	if (strcmp(canonical, "/") == 0) {
		name = g_strdup("live-knobs.state");
	} else {
		g_autofree char *hash =
			g_compute_checksum_for_string(G_CHECKSUM_SHA256, canonical, -1);
		name = g_strdup_printf("live-knobs-%.16s.state", hash);
	}
	free(canonical);
	return g_build_filename(g_get_user_state_dir(), "linsched-tuner", name, NULL);
}

/* path with its ".state" replaced by ".lock". */
static char *lock_path(const char *state_path)
{
	gsize n = strlen(state_path);
	gsize stem = g_str_has_suffix(state_path, ".state") ? n - strlen(".state") : n;
	return g_strdup_printf("%.*s.lock", (int)stem, state_path);
}

int knob_state_lock(const char *state_path, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(state_path);
	g_autofree char *path = lock_path(state_path);
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		file_error(error, errno, "create the state directory", dir);
		return -1;
	}
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		file_error(error, errno, "open the lock file", path);
		return -1;
	}
	int rc;
	do
		rc = flock(fd, LOCK_EX | LOCK_NB);
	while (rc != 0 && errno == EINTR);
	if (rc != 0) {
		int err = errno;
		close(fd);
		if (err == EWOULDBLOCK)
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_AGAIN,
				    "another tuner is using these CFS knobs (it holds the lock %s)",
				    path);
		else
			file_error(error, err, "lock", path);
		return -1;
	}
	return fd;
}

/* fsync the directory holding path, so that a rename in it survives a power cut. */
static gboolean sync_dir(const char *path, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return file_error(error, errno, "open", dir);
	int rc = fsync(fd);
	int err = errno;
	close(fd);
	return rc == 0 || file_error(error, err, "sync", dir);
}

gboolean knob_state_write(const char *path, const KnobState *state, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_key_file_set_integer(kf, GROUP, "version", VERSION);
	g_key_file_set_int64(kf, GROUP, "pid", state->pid);
	g_key_file_set_string(kf, GROUP, "started", state->started);
	g_key_file_set_string(kf, GROUP, "root", state->root);
	g_key_file_set_string(kf, GROUP, "layout", state->layout);
	KnobSet set = state->knobs ? state->knobs : KNOB_SET_CFS;
	g_autofree char *names = knob_set_names(set, ",");
	g_key_file_set_string(kf, GROUP, "knobs", names);
	for (int i = 0; i < KNOB_COUNT; i++)
		if (set & KNOB_BIT(i))
			g_key_file_set_uint64(kf, GROUP, knob_info((enum knob)i)->column,
					      (guint64)knob_get(&state->saved, (enum knob)i));
	g_key_file_set_comment(
		kf, GROUP, NULL,
		" The scheduler knobs before a tuner changed them; `tuner knobs --restore` "
		"writes them back.",
		NULL);
	gsize len;
	g_autofree char *text = g_key_file_to_data(kf, &len, NULL);
	return g_file_set_contents_full(
		       path, text, (gssize)len,
		       G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0600, error) &&
	       sync_dir(path, error);
}

gboolean knob_state_read(const char *path, KnobState *state, gboolean *found, GError **error)
{
	*state = (KnobState){ 0 };
	*found = FALSE;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return FALSE;
		*found = TRUE;
		gboolean unreadable = local->domain == G_FILE_ERROR;
		g_set_error(error, G_FILE_ERROR, unreadable ? local->code : G_FILE_ERROR_INVAL,
			    "%s%s %s", unreadable ? "" : path,
			    unreadable ? "" : " is damaged:", local->message);
		return FALSE;
	}
	*found = TRUE;
	gint64 version = g_key_file_get_int64(kf, GROUP, "version", &local);
	if (!local && version != VERSION)
		g_set_error(&local, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "version %" G_GINT64_FORMAT " is not %d", version, VERSION);
	if (!local)
		state->pid = g_key_file_get_int64(kf, GROUP, "pid", &local);
	if (!local)
		state->started = g_key_file_get_string(kf, GROUP, "started", &local);
	if (!local)
		state->root = g_key_file_get_string(kf, GROUP, "root", &local);
	if (!local)
		state->layout = g_key_file_get_string(kf, GROUP, "layout", &local);
	state->knobs = KNOB_SET_CFS;
	if (!local && g_key_file_has_key(kf, GROUP, "knobs", NULL)) {
		g_autofree char *names = g_key_file_get_string(kf, GROUP, "knobs", &local);
		if (names && !knob_set_parse(names, NULL, &state->knobs, NULL))
			g_set_error(&local, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "knobs is '%s', not a list of %s", names, knob_names_list());
	}
	for (int i = 0; i < KNOB_COUNT && !local; i++) {
		const char *key = knob_info((enum knob)i)->column;
		if (!(state->knobs & KNOB_BIT(i)))
			continue;
		g_autofree char *text = g_key_file_get_string(kf, GROUP, key, &local);
		guint64 v;
		if (text && !g_ascii_string_to_unsigned(text, 10, 0, MAX_NS, &v, NULL))
			g_set_error(&local, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s is '%s', not a whole number of nanoseconds", key, text);
		else if (text)
			knob_set(&state->saved, (enum knob)i, (double)v);
	}
	if (local) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s is damaged: %s", path,
			    local->message);
		knob_state_clear(state);
		return FALSE;
	}
	return TRUE;
}

gboolean knob_state_remove(const char *path, GError **error)
{
	if (g_unlink(path) != 0 && errno != ENOENT)
		return file_error(error, errno, "remove", path);
	return sync_dir(path, error);
}
