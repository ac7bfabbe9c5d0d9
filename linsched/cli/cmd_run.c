/*
 * cmd_run.c - `linsched run`: simulate a mix of simple tasks for a given virtual time.
 */
#include <stdio.h>

#include "linsched/cli/cli.h"
#include "linsched/cli/commands.h"
#include "linsched/report.h"
#include "tasks/tasks.h"

/* What `linsched run` simulates when no --task is given: two CPU hogs of different nice levels
 * and a crowd of interactive tasks, the mix the CFS knobs trade off. */
static const char *const default_tasks[] = {
	"cpu:nice=0",
	"cpu:nice=5:count=2",
	"sleeprun:busy_ms=1:sleep_ms=3:count=40",
	NULL,
};

int linsched_usage_error(const char *cmd, const char *message)
{
	fprintf(stderr, "linsched %s: %s\n", cmd, message);
	return 2;
}

int linsched_cmd_run(int argc, char **argv)
{
	struct linsched_cli cli;
	g_auto(GStrv) task_args = NULL;
	gint64 duration_ms = 10000;
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{ "task", 0, 0, G_OPTION_ARG_STRING_ARRAY, &task_args,
		  "A task kind with its parameters, e.g. cpu:nice=5:count=2, sleeprun:busy_ms=1:sleep_ms=3, "
		  "randsleeprun:busy_ms=1:sleep_ms=3:dist=lognormal:cv=0.5 (repeatable)",
		  "SPEC" },
		{ "duration-ms", 0, 0, G_OPTION_ARG_INT64, &duration_ms,
		  "Virtual time to simulate (default 10000)", "MS" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&duration_ms, 1, 1000LL * 86400 * 365), /* a year */
	};
	struct flag_set flags;
	g_autoptr(GOptionContext) ctx = g_option_context_new("- simulate simple tasks under CFS");

	linsched_cli_init(&cli);
	flag_set_init(&flags);
	flag_add_main_entries(&flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_add_group(ctx, linsched_cli_group(&cli));
	g_option_context_set_description(
		ctx, "Without --task, runs: --task cpu:nice=0 --task cpu:nice=5:count=2 "
		     "--task sleeprun:busy_ms=1:sleep_ms=3:count=40");

	int status = 2;
	struct linsched_config cfg;
	enum output_format format;

	if (!g_option_context_parse(ctx, &argc, &argv, &error) ||
	    !linsched_cli_config(&cli, &cfg, &error) ||
	    !linsched_cli_format(&cli, &format, &error)) {
		status = linsched_usage_error("run", error->message);
		goto out;
	}
	if (argc > 1) {
		status = linsched_usage_error("run",
					      "unexpected argument; tasks are given with --task");
		goto out;
	}
	cfg.duration_ns = (uint64_t)duration_ms * NSEC_PER_MSEC;

	const char *const *specs = task_args ? (const char *const *)task_args : default_tasks;
	GArray *parsed = g_array_new(FALSE, FALSE, sizeof(struct task_spec));

	for (size_t i = 0; specs[i]; i++) {
		struct task_spec spec;

		if (!task_spec_parse(specs[i], &spec, &error) ||
		    !task_spec_check_profile(&spec, cfg.profile, &error)) {
			g_array_free(parsed, TRUE);
			status = linsched_usage_error("run", error->message);
			goto out;
		}
		g_array_append_val(parsed, spec);
	}

	struct linsched_sim *sim = linsched_sim_new(&cfg);

	for (guint i = 0; i < parsed->len; i++)
		task_spec_spawn(sim, &g_array_index(parsed, struct task_spec, i));
	g_array_free(parsed, TRUE);
	linsched_sim_run(sim);

	GString *out = g_string_new(NULL);

	if (format == FORMAT_JSON)
		report_json(out, sim, NULL, NULL);
	else
		report_text(out, sim);
	fwrite(out->str, 1, out->len, stdout);
	g_string_free(out, TRUE);
	linsched_sim_free(sim);
	status = fflush(stdout) == 0 ? 0 : 1;
out:
	linsched_cli_clear(&cli);
	flag_set_clear(&flags);
	return status;
}
