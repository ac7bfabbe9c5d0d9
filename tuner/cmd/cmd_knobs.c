/*
 * cmd_knobs.c - `tuner knobs [--restore] [--knob-root DIR]`: the live kernel's knobs after a
 * tuner that held them died (SIGKILL, a crash, a power cut).
 *
 * Without --restore it says whether a state file (tuner/eval/knob_state.h) is waiting and what it
 * holds; with --restore it writes the saved values back and removes the file, which lets the
 * next live tuner start. Nothing to restore is no error.
 *
 * Exit status: 0 done (or nothing to do), 1 the knobs could not be written or another tuner holds
 * them, 2 bad input (flags, a damaged state file).
 */
#include <stdio.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/eval/live_knobs.h"

static void print_state(const char *verb, const KnobState *s)
{
	g_autofree char *saved = knobs_describe(&s->saved, s->knobs);

	printf("%s %s under %s (%s; saved by tuner pid %" G_GINT64_FORMAT " at %s)\n", verb, saved,
	       s->root, s->layout, s->pid, s->started);
}

static gboolean knobs_run(const char *root, gboolean restore, GError **error)
{
	GError *local = NULL;
	g_autofree char *path = knob_state_path(root, &local);
	if (!path)
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--knob-root: ");
	KnobState state;
	gboolean found;
	if (!restore) {
		if (knob_state_read(path, &state, &found, &local)) {
			print_state("to restore:", &state);
			knob_state_clear(&state);
		} else if (!found) {
			printf("nothing to restore: no %s\n", path);
		} else {
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
		}
		return TRUE;
	}
	if (!live_knobs_recover(root, &state, &found, &local)) {
		gboolean bad =
			local->domain == LIVE_KNOBS_ERROR && local->code == LIVE_KNOBS_ERROR_PARSE;
		return cmd_relabel(error, bad ? CMD_ERROR_USAGE : CMD_ERROR_FAILED, local, "");
	}
	if (found)
		print_state("restored", &state);
	else
		printf("nothing to restore: no %s\n", path);
	knob_state_clear(&state);
	return TRUE;
}

int tuner_cmd_knobs(int argc, char **argv)
{
	gboolean restore = FALSE;
	g_autofree char *root = NULL;
	GOptionEntry entries[] = {
		{ "restore", 0, 0, G_OPTION_ARG_NONE, &restore,
		  "write back the knobs a dead tuner left changed, and remove its state file",
		  NULL },
		{ "knob-root", 0, 0, G_OPTION_ARG_FILENAME, &root,
		  "the knobs under DIR, as the tuner's --knob-root (default /)", "DIR" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- the live CFS knobs a tuner left");
	struct flag_set flags;
	flag_set_init(&flags);
	flag_add_main_entries(&flags, ctx, entries, NULL, 0);
	g_autoptr(GError) error = NULL;
	int status = 0;
	if (!cmd_parse(ctx, &argc, &argv, &error) || !knobs_run(root, restore, &error))
		status = cmd_fail_status("knobs", error);
	flag_set_clear(&flags);
	return status;
}
