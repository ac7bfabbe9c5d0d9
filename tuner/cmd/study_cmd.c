/* The steps the response-surface commands share: see study_cmd.h. */
#include "tuner/cmd/study_cmd.h"

#include <stdio.h>
#include <string.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/stats/rsm_model.h"
#include "tuner/util/out_files.h"

void study_cli_init(struct study_cli *c)
{
	memset(c, 0, sizeof(*c));
	workload_cli_init(&c->wc);
	flag_set_init(&c->flags);
}

void study_cli_clear(struct study_cli *c)
{
	workload_cli_clear(&c->wc);
	g_free(c->lambda);
	g_free(c->journal);
	g_free(c->out);
	g_strfreev(c->ranges);
	flag_set_clear(&c->flags);
}

void study_cli_add_options(struct study_cli *c, GOptionGroup *group, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "lambda", 0, 0, G_OPTION_ARG_STRING, &c->lambda,
		  "Box-Cox: auto (transform when 1 is outside the 95% interval, default), none, or a power in [-3, 3]",
		  "L" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT64, &c->jobs,
		  "Simulations at once (default: the number of cores)", "J" },
		{ "journal", 0, 0, G_OPTION_ARG_FILENAME, &c->journal,
		  "Append every simulation here; rerunning with the same journal resumes", "FILE" },
		{ "no-sync", 0, 0, G_OPTION_ARG_NONE, &c->no_sync,
		  "Do not fdatasync the journal after each record (survives kill -9, not a power loss)",
		  NULL },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
		  "Write DIR/design.csv, anova.csv, surface.csv, boxcox.csv and result.json",
		  "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	const struct flag_limits limits[] = {
		FLAG_INT(&c->jobs, 1, 1024),
	};

	flag_group_add(&c->flags, group, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_set_main_group(ctx, group);
	workload_add_options(&c->wc, ctx);
}

gboolean study_cli_check(const struct study_cli *c, const char *searched_note, GError **error)
{
	const char *searched = cmd_searched_knob_flag(&c->wc.sim);

	if (searched)
		return cmd_usage(error, "%s: %s", searched, searched_note);
	return TRUE;
}

gboolean study_cli_ranges(const struct study_cli *c, struct knob_space *space, GError **error)
{
	GError *local = NULL;
	guint ranged = 0;

	for (size_t i = 0; c->ranges && c->ranges[i]; i++)
		if (!knob_space_parse_range(space, c->ranges[i], &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return cmd_knobs_named("--range", c->ranges, &ranged, error);
}

void study_run_clear(struct study_run *r)
{
	journal_close(r->journal);
	if (r->have_workload)
		workload_clear(&r->w);
	rsm_design_free(r->design);
	g_free(r->settings);
	g_free(r->natural);
	g_free(r->y);
	rsm_study_free(r->study);
}

gboolean study_prepare_output(const struct study_cli *c, struct study_run *r, GError **error)
{
	GError *local = NULL;

	if (!linsched_cli_format(&c->wc.sim, &r->format, &local) ||
	    !rsm_lambda_parse(c->lambda ? c->lambda : "auto", &r->lambda, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return cmd_prepare_out(c->out, error);
}

gboolean study_prepare_workload(const struct study_cli *c, struct study_run *r, GError **error)
{
	GError *local = NULL;

	r->have_workload = true; /* workload_clear also frees what a failed workload_finish left */
	if (!workload_finish(&c->wc, &r->w, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	r->seed = r->w.cfg.seed;
	r->replicates = flag_given(&c->flags, &c->replicates) ? (guint)c->replicates : 1;
	r->jobs = flag_given(&c->flags, &c->jobs) ? (guint)c->jobs : evaluator_default_jobs();
	return TRUE;
}

gboolean study_open_journal(const struct study_cli *c, struct study_run *r, GError **error)
{
	return cmd_open_journal(c->journal, r->settings,
				r->have_workload ? r->w.knobs : KNOB_SET_CFS, c->no_sync,
				&r->journal, error);
}

gboolean study_evaluate(struct study_run *r, const Knobs *knobs, const guint64 *seeds, guint n,
			EvaluatorResult *results, double *values, EvaluatorProgress progress,
			void *progress_ctx, GError **error)
{
	EvaluatorConfig ec = {
		.objective = workload_objective,
		.objective_ctx = &r->w,
		.batch_objective = r->batch_objective,
		.batch_ctx = r->batch_ctx,
		.replicates = r->replicates,
		.base_seed = r->seed,
		.jobs = r->jobs,
		.journal = r->journal,
		.progress = progress,
		.progress_ctx = progress_ctx,
		.knobs = r->have_workload ? r->w.knobs : KNOB_SET_CFS,
	};
	EvaluatorStats st = { 0 };
	g_autoptr(Evaluator) ev = evaluator_new(&ec);
	gboolean ok = evaluator_batch_seeded(ev, knobs, seeds, n, results, values, &st, error);

	evaluator_stats_add(&r->stats, &st);
	return ok;
}

gboolean study_analyse(struct study_run *r, const char *const *letters, const char *constant_note,
		       GError **error)
{
	GError *local = NULL;

	r->study = rsm_study_analyse(r->design->k, r->design->n_runs, r->design->coded, r->y,
				     letters, &r->lambda, &local);
	if (r->study)
		return TRUE;
	if (constant_note &&
	    g_error_matches(local, RSM_MODEL_ERROR, RSM_MODEL_ERROR_CONSTANT_RESPONSE))
		g_prefix_error(&local, "%s", constant_note);
	return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
}

void study_text_files(GString *out, const struct study_cli *c, const struct study_run *r)
{
	if (!c->out)
		return;
	g_string_append_printf(out, "wrote %s/design.csv, anova.csv, surface.csv, ", c->out);
	if (r->study->boxcox)
		g_string_append(out, "boxcox.csv, ");
	g_string_append(out, "result.json\n");
}

void study_json_journal(struct json_writer *w, const struct study_cli *c)
{
	json_key(w, "journal");
	if (c->journal)
		json_string(w, c->journal);
	else
		json_null(w);
}

void study_json_simulations(struct json_writer *w, const struct study_run *r)
{
	json_key(w, "simulations");
	json_uint(w, r->stats.total);
	json_key(w, "simulations_from_journal");
	json_uint(w, r->stats.from_journal);
}

static gboolean write_files(const char *dir, const RsmStudyFiles *files, const char *json,
			    GError **error)
{
	static const char *const names[] = { "design.csv", "anova.csv", "surface.csv", "boxcox.csv",
					     "result.json" };
	char *contents[G_N_ELEMENTS(names)] = {
		rsm_files_design_csv(files),
		rsm_files_anova_csv(files),
		rsm_files_surface_csv(files),
		rsm_files_boxcox_csv(files),
		(char *)json,
	};
	gboolean ok = out_files_write(dir, names, contents, G_N_ELEMENTS(names), error);

	for (guint i = 0; i + 1 < G_N_ELEMENTS(names); i++)
		g_free(contents[i]);
	return ok;
}

gboolean study_finish(const struct study_cli *c, const RsmStudyFiles *files, const char *json,
		      const char *text, GError **error)
{
	GError *local = NULL;

	if (c->out && !write_files(c->out, files, json, &local))
		return cmd_relabel(error, CMD_ERROR_FAILED, local, "--out: ");
	fputs(text ? text : json, stdout);
	return TRUE;
}
