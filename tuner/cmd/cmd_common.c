/* Plumbing shared by the tuner's commands: see cmd_common.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "linsched/model_id.h"
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

gboolean cmd_workload_prefixes(const char *list, char ***out, GError **error)
{
	if (!list)
		return TRUE;
	*out = g_strsplit(list, ",", -1);
	for (char **p = *out; *p; p++)
		if (!**p)
			return cmd_usage(error, "--workload: an empty name prefix");
	return TRUE;
}

gboolean cmd_relabel(GError **error, CmdError code, GError *local, const char *prefix)
{
	g_set_error(error, CMD_ERROR, code, "%s%s", prefix, local->message);
	g_error_free(local);
	return FALSE;
}

gboolean cmd_knobs_named(const char *flag, char *const *values, guint *mask, GError **error)
{
	for (size_t i = 0; values && values[i]; i++) {
		g_autofree char *name = g_strndup(values[i], strcspn(values[i], "="));
		enum knob k;

		if (!knob_from_name(name, &k))
			continue;
		if (*mask & (1U << k))
			return cmd_usage(error, "%s: %s is given twice", flag, name);
		*mask |= 1U << k;
	}
	return TRUE;
}

gboolean cmd_prepare_out(const char *dir, GError **error)
{
	if (!dir)
		return TRUE;
	if (g_mkdir_with_parents(dir, 0755) != 0)
		return cmd_usage(error, "--out: cannot create %s: %s", dir, g_strerror(errno));
	if (g_access(dir, W_OK) != 0)
		return cmd_usage(error, "--out: cannot write into %s: %s", dir, g_strerror(errno));
	return TRUE;
}

gboolean cmd_read_best(const char *path, Knobs *knobs, KnobSet *set, JsonReadValue **root,
		       GError **error)
{
	GError *local = NULL;

	if (!(*root = json_read_file(path, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--best: ");
	*set = 0;
	for (int k = 0; k < KNOB_COUNT; k++) {
		const struct knob_info *info = knob_info((enum knob)k);
		g_autofree char *at = g_strdup_printf("best.knobs.%s", info->column);
		double v;

		if (!json_read_number(*root, at, &v))
			continue;
		if (!(v == floor(v) && v >= (double)info->min_ns && v <= (double)info->max_ns))
			return cmd_usage(error,
					 "--best: %s: \"%s\" is %g, not a whole number of ns in "
					 "the sysctl range %" G_GUINT64_FORMAT
					 "..%" G_GUINT64_FORMAT,
					 path, at, v, info->min_ns, info->max_ns);
		knob_set(knobs, (enum knob)k, v);
		*set |= KNOB_BIT(k);
	}
	/* CFS's knobs come as three (every result file before knob sets, and every CFS search
	 * since); a file with none of any knob is no result. */
	for (int k = 0; k < KNOB_CFS_COUNT; k++)
		if ((!*set || (*set & KNOB_SET_CFS)) && !(*set & KNOB_BIT(k)))
			return cmd_usage(error, "--best: %s has no number at \"best.knobs.%s\"",
					 path, knob_info((enum knob)k)->column);
	return TRUE;
}

const char *cmd_searched_knob_flag(const struct linsched_cli *s)
{
	return flag_first_given(&s->flags, &s->latency_ns, &s->min_gran_ns, &s->wakeup_gran_ns,
				NULL);
}

gboolean cmd_knob_set(const char *text, const struct sched_profile *profile, KnobSet *set,
		      GError **error)
{
	GError *local = NULL;

	*set = knob_set_default(profile);
	if (text && !knob_set_parse(text, profile, set, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return TRUE;
}

gboolean cmd_check_knob_set(const struct linsched_cli *s, const struct sched_profile *profile,
			    KnobSet set, GError **error)
{
	for (int k = 0; k < KNOB_COUNT; k++)
		if ((set & KNOB_BIT(k)) && !knob_in_profile((enum knob)k, profile))
			return cmd_usage(error, "--fix: the %s profile's kernel has no %s",
					 profile->name, knob_name((enum knob)k));
	if ((set & KNOB_BIT(KNOB_MIGRATION_COST)) && flag_given(&s->flags, &s->migration_cost_ns))
		return cmd_usage(error,
				 "--migration-cost-ns: the tuner searches this knob; hold it "
				 "with --fix migration_cost=NS");
	if ((set & KNOB_BIT(KNOB_BASE_SLICE)) && flag_given(&s->flags, &s->base_slice_ns))
		return cmd_usage(error,
				 "--base-slice-ns: the tuner searches this knob; hold it with "
				 "--fix base_slice=NS");
	return TRUE;
}

gboolean cmd_open_journal(const char *path, const char *settings, KnobSet knobs, gboolean no_sync,
			  Journal **out, GError **error)
{
	GError *local = NULL;

	if (!path)
		return no_sync ? cmd_usage(error, "--no-sync: there is no --journal to sync")
			       : TRUE;
	*out = journal_open_knobs(path, settings, knobs, no_sync ? JOURNAL_NO_SYNC : JOURNAL_SYNC,
				  &local);
	return *out || cmd_journal_failed(local, error);
}

void cmd_settings_add_model(GString *settings)
{
	g_string_append_printf(settings, " sim_model=%s", linsched_model_id());
}

gboolean cmd_journal_failed(GError *local, GError **error)
{
	gboolean bad_input = local->domain == RECORD_LOG_ERROR &&
			     local->code != RECORD_LOG_ERROR_IO &&
			     local->code != RECORD_LOG_ERROR_BUSY;

	return cmd_relabel(error, bad_input ? CMD_ERROR_USAGE : CMD_ERROR_FAILED, local,
			   "--journal: ");
}
