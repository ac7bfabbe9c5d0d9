/* Plumbing shared by the tuner's commands: see cmd_common.h. */
#include <stdarg.h>
#include <stdio.h>

#include "tuner/cmd/cmd_common.h"

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(tuner-cmd-error-quark, cmd_error)
/* clang-format on */

gboolean cmd_parse(GOptionContext *ctx, int *argc, char ***argv, GError **error)
{
	GError *local = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	if (*argc > 1)
		return cmd_usage(error, "unexpected argument '%s'", (*argv)[1]);
	return TRUE;
}

int cmd_fail_status(const char *name, const GError *error)
{
	fprintf(stderr, "tuner %s: %s\n", name, error->message);
	return error->domain == CMD_ERROR ? error->code : CMD_ERROR_FAILED;
}

gboolean cmd_usage(GError **error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, CMD_ERROR, CMD_ERROR_USAGE, msg);
	return FALSE;
}

gboolean cmd_relabel(GError **error, CmdError code, GError *local, const char *prefix)
{
	g_set_error(error, CMD_ERROR, code, "%s%s", prefix, local->message);
	g_error_free(local);
	return FALSE;
}

gboolean cmd_check_ints(const CmdIntFlag *flags, gsize n, GError **error)
{
	for (gsize i = 0; i < n; i++) {
		const CmdIntFlag *f = &flags[i];

		if (!f->unset && (f->value < f->min || f->value > f->max))
			return cmd_usage(error,
					 "%s: must be in %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
					 ", got %" G_GINT64_FORMAT,
					 f->flag, f->min, f->max, f->value);
	}
	return TRUE;
}

const char *cmd_searched_knob_flag(const struct linsched_cli *s)
{
	if (s->latency_ns >= 0)
		return "--latency-ns";
	if (s->min_gran_ns >= 0)
		return "--min-gran-ns";
	if (s->wakeup_gran_ns >= 0)
		return "--wakeup-gran-ns";
	return NULL;
}

gboolean cmd_open_journal(const char *path, const char *settings, gboolean no_sync, Journal **out,
			  GError **error)
{
	GError *local = NULL;

	if (!path)
		return TRUE;
	*out = journal_open(path, settings, no_sync ? JOURNAL_NO_SYNC : JOURNAL_SYNC, &local);
	if (*out)
		return TRUE;

	gboolean bad_input = local->domain == JOURNAL_ERROR && local->code != JOURNAL_ERROR_IO &&
			     local->code != JOURNAL_ERROR_BUSY;

	return cmd_relabel(error, bad_input ? CMD_ERROR_USAGE : CMD_ERROR_FAILED, local,
			   "--journal: ");
}
