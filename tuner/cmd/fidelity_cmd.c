/*
 * fidelity_cmd.c - the plumbing of tuner fidelity and tuner fit (see fidelity_cmd.h).
 */
#include "tuner/cmd/fidelity_cmd.h"

#include <string.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/util/out_files.h"

void fidelity_cli_init(FidelityCli *c)
{
	memset(c, 0, sizeof(*c));
	workload_cli_init(&c->wc);
	c->replicates = 1;
	c->csv_role = PLAN_ROLE_TEST;
	flag_set_init(&c->flags);
}

void fidelity_cli_clear(FidelityCli *c)
{
	workload_cli_clear(&c->wc);
	g_free(c->plans);
	g_free(c->csv);
	g_free(c->workload);
	g_free(c->reference);
	g_free(c->only);
	g_free(c->significance);
	g_free(c->stalls);
	g_free(c->out);
	flag_set_clear(&c->flags);
	memset(c, 0, sizeof(*c));
}

void fidelity_cli_add_options(FidelityCli *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "plans", 0, 0, G_OPTION_ARG_FILENAME, &c->plans,
		  "The real plans: a key file of [plan] groups with csv=, workload=, role=train|test "
		  "(vm/data/plans.ini)",
		  "FILE" },
		{ "csv", 0, 0, G_OPTION_ARG_FILENAME, &c->csv,
		  "Instead of --plans: one plan's runs (vm/lines-to-csv.sh, or DIR/vm/runs.csv of "
		  "--objective vm)",
		  "FILE" },
		{ "workload", 0, 0, G_OPTION_ARG_STRING, &c->workload,
		  "With --csv: the command the guest ran, e.g. 'hackbench -T -g 5 -l 100'", "CMD" },
		{ "reference", 0, 0, G_OPTION_ARG_STRING, &c->reference,
		  "With --csv: the setting each round is divided by (default defaults)", "NAME" },
		{ "only", 0, 0, G_OPTION_ARG_STRING, &c->only,
		  "Only these plans of --plans (comma-separated names)", "NAMES" },
		{ "significance", 0, 0, G_OPTION_ARG_STRING, &c->significance,
		  "A real effect is significant by: t (the t interval of the mean log ratio "
		  "excludes 0, default), sign (the sign test), both",
		  "RULE" },
		{ "stalls", 0, 0, G_OPTION_ARG_STRING, &c->stalls,
		  "The stalls a plan's twins suffer: host (the steal the host measured, default), "
		  "guest (what the guest saw before each run, vm/make-plan.sh -n, where a plan has "
		  "it)",
		  "WHOSE" },
		{ "replicates", 'r', 0, G_OPTION_ARG_INT64, &c->replicates,
		  "Simulations per setting, seeds --seed, --seed + 1, ...: medians (default 1; more "
		  "only with --cost-jitter); with twins, twins per real run",
		  "R" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT64, &c->jobs,
		  "Simulations at once (default: the number of cores)", "J" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
		  "Also write DIR/fidelity.json, settings.csv, plans.csv, fidelity.txt", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	const struct flag_limits limits[] = {
		FLAG_INT(&c->replicates, 1, 1000),
		FLAG_INT(&c->jobs, 1, 1024),
	};
	GOptionGroup *main_group = g_option_context_get_main_group(ctx);

	if (main_group)
		flag_group_add(&c->flags, main_group, entries, limits, G_N_ELEMENTS(limits));
	else
		flag_add_main_entries(&c->flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_add_group(ctx, hackbench_cli_group(&c->wc.hb, false));
	g_option_context_add_group(ctx, linsched_cli_group(&c->wc.sim));
}

void fidelity_setup_clear(FidelitySetup *s)
{
	plan_set_free(s->set);
	g_free(s->simulation);
	memset(s, 0, sizeof(*s));
}

/* The flags that would set what the plans say. */
static gboolean refuse_shape_flags(const FidelityCli *c, GError **error)
{
	const struct hackbench_cli *hb = &c->wc.hb;
	const char *knob = cmd_searched_knob_flag(&c->wc.sim);
	const char *shape = flag_first_given(&hb->flags, &hb->threads, &hb->processes, &hb->pipe,
					     &hb->fds, &hb->datasize, NULL);

	if (knob)
		return cmd_usage(error, "%s: the plans' settings give the knobs", knob);
	if (shape)
		return cmd_usage(error, "%s: the plans' workload= gives the workload", shape);
	if (hb->model && strcmp(hb->model, "fsm") != 0)
		return cmd_usage(error, "--model: the fidelity of the knobs needs the fsm model");
	return TRUE;
}

GStrv fidelity_plan_names(const PlanSet *set, const char *list, const char *flag, GError **error)
{
	g_auto(GStrv) names = g_strsplit(list, ",", -1);

	for (guint k = 0; names[k]; k++) {
		gboolean found = FALSE;

		for (guint p = 0; p < set->plans->len && !found; p++)
			found = strcmp(plan_set_plan(set, p)->name, names[k]) == 0;
		if (!found) {
			cmd_usage(error, "%s: no plan '%s' in %s", flag, names[k],
				  set->path ? set->path : "the plans");
			return NULL;
		}
	}
	return g_steal_pointer(&names);
}

/* Keeps only the plans named in the comma-separated list. */
static gboolean keep_only(PlanSet *set, const char *only, GError **error)
{
	g_auto(GStrv) names = fidelity_plan_names(set, only, "--only", error);

	if (!names)
		return FALSE;
	for (guint p = set->plans->len; p-- > 0;)
		if (!g_strv_contains((const char *const *)names, plan_set_plan(set, p)->name))
			g_ptr_array_remove_index(set->plans, p);
	return TRUE;
}

static gboolean read_plans(const FidelityCli *c, FidelitySetup *s, GError **error)
{
	GError *local = NULL;

	if (!c->plans == !c->csv)
		return cmd_usage(error, "--plans FILE or --csv FILE --workload CMD: give one");
	if (c->csv) {
		if (!c->workload)
			return cmd_usage(error,
					 "--workload: --csv needs the command the guest ran");
		if (c->only)
			return cmd_usage(error, "--only: only with --plans");
		g_autofree char *name = g_path_get_basename(c->csv);

		s->set = plan_set_new();
		if (!plan_set_add(s->set, name, c->csv, c->workload, c->csv_role, c->reference,
				  &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local,
					   local->domain == PLAN_SET_ERROR ? "--workload: " : "");
		return TRUE;
	}
	if (c->workload || c->reference)
		return cmd_usage(error, "--workload, --reference: only with --csv (--plans names "
					"them per plan)");
	if (!(s->set = plan_set_read(c->plans, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--plans: ");
	return !c->only || keep_only(s->set, c->only, error);
}

/* The simulation in words, from the first plan's configuration. */
static char *describe(const FidelityCli *c, const FidelitySetup *s, GError **error)
{
	struct linsched_config cfg;
	struct hackbench_params hb;

	if (!plan_sim_prepare(&c->wc, s->guest_stalls, plan_set_plan(s->set, 0), NULL, &cfg, &hb,
			      error))
		return NULL;
	GString *d = g_string_new(NULL);

	g_string_append_printf(
		d, "profile %s, %u CPUs, HZ %u, machine %s, start %s, seed %" G_GUINT64_FORMAT,
		cfg.profile->name, cfg.nr_cpus, cfg.hz,
		c->wc.sim.machine ? c->wc.sim.machine : "built-in",
		hb.start == HACKBENCH_START_PARENT ? "parent" : "barrier", cfg.seed);
	if (cfg.costs.jitter_cv > 0)
		g_string_append_printf(d, ", cost jitter %g", cfg.costs.jitter_cv);
	guint twins = 0;

	for (guint p = 0; p < s->set->plans->len; p++)
		twins += plan_sim_twins(&c->wc, s->guest_stalls, plan_set_plan(s->set, p));
	if (twins < s->set->plans->len)
		g_string_append_printf(d, ", %u replicate%s", s->replicates,
				       s->replicates == 1 ? "" : "s");
	if (twins) {
		g_autofree char *how_many = s->replicates == 1
						    ? g_strdup("a twin")
						    : g_strdup_printf("%u twins", s->replicates);

		g_string_append_printf(
			d, "%s %s of every real run with its measured %s",
			twins < s->set->plans->len ? "; for plans with steal," : ",", how_many,
			s->guest_stalls ? "stalls (the guest's where the plan has them)" : "steal");
	}
	return g_string_free(d, FALSE);
}

gboolean fidelity_cli_finish(FidelityCli *c, FidelitySetup *s, GError **error)
{
	const char *format = c->wc.sim.format ? c->wc.sim.format : "text";
	GError *local = NULL;

	memset(s, 0, sizeof(*s));
	if (!refuse_shape_flags(c, error))
		return FALSE;
	if (strcmp(format, "text") == 0)
		s->format = FIDELITY_OUT_TEXT;
	else if (strcmp(format, "json") == 0)
		s->format = FIDELITY_OUT_JSON;
	else if (strcmp(format, "csv") == 0)
		s->format = FIDELITY_OUT_CSV;
	else
		return cmd_usage(error, "--format: '%s' is not text, json or csv", format);
	s->sig = FIDELITY_SIG_T;
	if (c->significance && !fidelity_significance_parse(c->significance, &s->sig))
		return cmd_usage(error, "--significance: '%s' is not t, sign or both",
				 c->significance);
	if (c->stalls && strcmp(c->stalls, "host") != 0 && strcmp(c->stalls, "guest") != 0)
		return cmd_usage(error, "--stalls: '%s' is not host or guest", c->stalls);
	s->guest_stalls = c->stalls && strcmp(c->stalls, "guest") == 0;
	s->replicates = (guint)c->replicates;
	s->jobs = flag_given(&c->flags, &c->jobs) ? (guint)c->jobs : evaluator_default_jobs();
	if (!read_plans(c, s, error))
		return FALSE;
	if (s->set->plans->len == 0)
		return cmd_usage(error, "--plans: no plan");
	if (!(s->simulation = describe(c, s, &local)))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return TRUE;
}

gboolean fidelity_simulate(const FidelityCli *c, const FidelitySetup *s, Evaluator *ev,
			   const struct linsched_machine *m, SimSetting ***sims, GError **error)
{
	PlanSim ps = { &c->wc, s->replicates, ev, s->guest_stalls };
	GError *local = NULL;

	if (plan_sim_run(&ps, s->set, m, sims, &local))
		return TRUE;
	return cmd_relabel(error, CMD_ERROR_FAILED, local, "");
}

gboolean fidelity_write_files(const char *dir, const FidelityReport *r, GError **error)
{
	const char *const names[] = { "fidelity.json", "settings.csv", "plans.csv",
				      "fidelity.txt" };
	char *contents[] = { fidelity_report_json(r), fidelity_report_csv(r),
			     fidelity_report_plans_csv(r), fidelity_report_text(r) };
	GError *local = NULL;
	gboolean ok = out_files_write(dir, names, contents, G_N_ELEMENTS(names), &local);

	for (guint i = 0; i < G_N_ELEMENTS(contents); i++)
		g_free(contents[i]);
	return ok || cmd_relabel(error, CMD_ERROR_FAILED, local, "--out: ");
}
