/*
 * cmd_fit.c - `tuner fit`: fit the model's free parameters to real plans (issue 13 item 4).
 *
 *   tuner fit --plans vm/data/steal/plans.ini --param footprint,miss [--param ...]
 *       --profile 6.1 --cpus 2 --hz 250 --machine machines/qemu-tcg-6.1-probed.ini --start parent
 *       [--starts 4] [--max-iter 40] [--range 20] [--step 0.1] [--tol 0.02]
 *       [--time-weight 1] [--switch-weight 0.25] [--seconds-weight 0] [--line-weight 0]
 *       [--train NAMES] [--machine-out FILE]
 *       [--journal FILE [--no-sync]]
 *       [--out DIR]
 *       [--format text|json]
 *
 * The plans with role=train, or those --train NAMES names (the others then held out whatever their
 * role=), are fitted (tuner/eval/fit.h: the loss, the search); then every plan,
 * training and held out, is reported as `tuner fidelity` would (tuner/report/fidelity_report.h)
 * on the fitted machine, with the criteria before and after side by side. --machine-out writes
 * the fitted machine.ini: --machine's file with the fitted keys set and a comment saying what
 * they were fitted on. --out DIR keeps fit.json and the fidelity report's files of the fitted
 * machine. Progress on stderr when it is a terminal. The same flags and --seed give the same fit.
 *
 * --journal FILE (tuner/eval/fit_journal.h) appends every loss as soon as it is computed, and a
 * rerun with the same journal reads the losses it holds instead of simulating them: a fit killed
 * after hours resumes where it stopped, and ends as it would have, byte for byte but for the
 * counts and the wall time. The journal's settings are everything that changes a loss (see
 * loss_settings below), the simulator's code included (its model id, linsched/model_id.h); a
 * journal written for others is refused, listing the tokens that differ.
 * The search's own flags (--starts, --max-iter, --range, --step, --tol) change no loss: a journal
 * serves a rerun with other ones too, which then reads whatever losses the two searches share.
 * --no-sync skips the fdatasync after each record (kill -9 still loses nothing written).
 *
 * Exit status: 0; 2 for bad input (a flag, a plans file, a parameter a flag fixes, a journal of
 * other settings or damaged); 1 when a simulation fails or a file cannot be written (the journal
 * included, or it is in use by another process).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/fidelity_cmd.h"
#include "tuner/eval/fit.h"
#include "tuner/util/out_files.h"
#include "tuner/util/progress.h"

struct fit_cli {
	FidelityCli f;
	char **params;
	char *machine_out, *journal, *train;
	gboolean no_sync;
	gint64 starts, max_iter;
	double range, step, tol, time_weight, switch_weight, seconds_weight, line_weight;
	double ref_switch_weight;
};

/* Everything the run made. */
struct fit_run {
	FidelitySetup s;
	PlanSet *train;	   /* a view of s.set's training plans */
	GPtrArray *params; /* const FitParam * */
	struct linsched_machine base, fitted;
	FitOptions o;
	FidelityLoss w;
	FitResult r;
	FitJournal *journal; /* NULL without --journal */
	SimSetting **before, **after;
	char *fitted_simulation; /* s.simulation, saying that the fitted values replace its own */
	gint64 wall_us;
};

/* ---- flags ---------------------------------------------------------------------------------- */

static gboolean parse_params(const struct fit_cli *c, struct fit_run *run, GError **error)
{
	run->params = g_ptr_array_new();
	for (guint i = 0; c->params && c->params[i]; i++) {
		g_auto(GStrv) names = g_strsplit(c->params[i], ",", -1);

		for (guint k = 0; names[k]; k++) {
			const FitParam *p = fit_param_find(g_strstrip(names[k]));

			if (!p) {
				g_autofree char *all = fit_param_names();

				return cmd_usage(error, "--param: no parameter '%s' (%s)", names[k],
						 all);
			}
			if (fit_param_overridden(p, &c->f.wc))
				return cmd_usage(
					error,
					"--param %s: %s fixes it; leave the flag out to fit it",
					p->name, p->flag);
			for (guint j = 0; j < run->params->len; j++)
				if (run->params->pdata[j] == p)
					return cmd_usage(error, "--param: %s twice", p->name);
			g_ptr_array_add(run->params, (gpointer)p);
		}
	}
	if (run->params->len == 0) {
		g_autofree char *all = fit_param_names();

		return cmd_usage(error, "--param: name the parameters to fit (%s)", all);
	}
	return TRUE;
}

/* ---- the journal: everything that changes a loss ------------------------------------------ */

/*
 * The simulation and hackbench flags that are no part of a loss's key: --seed (a token of its
 * own, given or not), --machine (its values are one) and --format. Every other flag of those
 * groups that was given goes in as typed (flag_set_describe), so a flag added to them later is
 * in the key without a row here; a flag the plans decide is refused before (fidelity_cmd.h).
 */
static const char *const not_loss_flags[] = { "seed", "machine", "format", NULL };

/* The shortest "%g" of x that reads back as x: "0.1", not "0.10000000000000001". */
static char *exact_text(double x)
{
	for (int digits = 15;; digits++) {
		char *text = g_strdup_printf("%.*g", digits, x);

		if (digits == 17 || g_ascii_strtod(text, NULL) == x)
			return text;
		g_free(text);
	}
}

/* The key=value lines of a key file's group into sum: its values, whatever its comments say. */
static void group_text(GKeyFile *kf, const char *group, GChecksum *sum)
{
	g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);
	g_autofree char *head = g_strdup_printf("[%s]\n", group);

	g_checksum_update(sum, (const guchar *)head, -1);
	for (guint k = 0; keys && keys[k]; k++) {
		g_autofree char *value = g_key_file_get_value(kf, group, keys[k], NULL);
		g_autofree char *line = g_strdup_printf("%s=%s\n", keys[k], value);

		g_checksum_update(sum, (const guchar *)line, -1);
	}
}

/* " NAME=<16 hex digits>": a token for what sum has read (freed). */
static void append_digest(GString *s, const char *name, GChecksum *sum)
{
	g_string_append_printf(s, " %s=%.16s", name, g_checksum_get_string(sum));
	g_checksum_free(sum);
}

static GKeyFile *read_key_file(const char *flag, const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	GError *local = NULL;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &local)) {
		cmd_usage(error, "%s: %s: %s", flag, path, local->message);
		g_error_free(local);
		return NULL;
	}
	return g_steal_pointer(&kf);
}

/* " machine=<digest>": the --machine file's values (or the built-in machine, the code's). */
static gboolean append_machine(GString *s, const struct fit_cli *c, GError **error)
{
	const char *path = c->f.wc.sim.machine;

	if (!path) {
		g_string_append(s, " machine=built-in");
		return TRUE;
	}
	g_autoptr(GKeyFile) kf = read_key_file("--machine", path, error);

	if (!kf)
		return FALSE;
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);

	for (guint g = 0; groups[g]; g++)
		group_text(kf, groups[g], sum);
	append_digest(s, "machine", sum);
	return TRUE;
}

/* " plan.NAME=<digest>" for each training plan: its definition (its group of --plans, or --csv's
 * --workload and --reference) and its runs (the CSV's bytes). */
static gboolean append_plans(GString *s, const struct fit_cli *c, const struct fit_run *run,
			     GError **error)
{
	g_autoptr(GKeyFile) kf = c->f.plans ? read_key_file("--plans", c->f.plans, error) : NULL;

	if (c->f.plans && !kf)
		return FALSE;
	for (guint p = 0; p < run->train->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(run->train, p);
		g_autofree char *csv = NULL, *name = g_uri_escape_string(plan->name, NULL, FALSE);
		gsize len;
		GError *local = NULL;

		if (!g_file_get_contents(plan->csv, &csv, &len, &local)) {
			cmd_usage(error, "--journal: cannot read %s again: %s", plan->csv,
				  local->message);
			g_error_free(local);
			return FALSE;
		}
		GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);

		if (kf) {
			group_text(kf, plan->name, sum);
		} else {
			g_autofree char *flags =
				g_strdup_printf("workload=%s\nreference=%s\n", c->f.workload,
						c->f.reference ? c->f.reference : "");

			g_checksum_update(sum, (const guchar *)flags, -1);
		}
		g_checksum_update(sum, (const guchar *)csv, (gssize)len);
		g_autofree char *token = g_strdup_printf("plan.%s", name);

		append_digest(s, token, sum);
	}
	return TRUE;
}

/*
 * The journal's settings: every input of a loss. The parameters (in order), the loss's weights,
 * the seed, the replicates and whose stalls; the simulator's model id, since a loss is a
 * simulation's; the base machine; each training plan; and the simulation flags given. The
 * search's flags are no part of it: they choose which losses are computed, never their values.
 */
static char *loss_settings(const struct fit_cli *c, const struct fit_run *run, GError **error)
{
	GString *s = g_string_new("params=");

	for (guint i = 0; i < run->params->len; i++)
		g_string_append_printf(s, "%s%s", i ? "," : "",
				       ((const FitParam *)run->params->pdata[i])->name);
	const char *const weight[] = { "time", "switch", "seconds", "line", "ref_switch" };
	const double value[] = { run->w.time_weight, run->w.switch_weight, run->w.seconds_weight,
				 run->w.line_weight, run->w.ref_switch_weight };

	for (guint i = 0; i < G_N_ELEMENTS(weight); i++) {
		g_autofree char *text = exact_text(value[i]);

		g_string_append_printf(s, " %s_weight=%s", weight[i], text);
	}
	g_string_append_printf(s, " seed=%" G_GUINT64_FORMAT " replicates=%u stalls=%s",
			       run->o.seed, run->s.replicates,
			       run->s.guest_stalls ? "guest" : "host");
	cmd_settings_add_model(s);
	if (!append_machine(s, c, error) || !append_plans(s, c, run, error)) {
		g_string_free(s, TRUE);
		return NULL;
	}
	flag_set_describe(&c->f.wc.sim.flags, not_loss_flags, s);
	flag_set_describe(&c->f.wc.hb.flags, not_loss_flags, s);
	return g_string_free(s, FALSE);
}

/* Opens --journal (if given) for the fit's settings; see cmd_common.h's cmd_journal_failed. */
static gboolean open_journal(const struct fit_cli *c, struct fit_run *run, GError **error)
{
	GError *local = NULL;

	if (!c->journal)
		return c->no_sync ? cmd_usage(error, "--no-sync: there is no --journal to sync")
				  : TRUE;
	g_autofree char *settings = loss_settings(c, run, error);
	g_autofree const char **keys = g_new(const char *, run->params->len);

	if (!settings)
		return FALSE;
	for (guint i = 0; i < run->params->len; i++)
		keys[i] = ((const FitParam *)run->params->pdata[i])->key;
	run->journal = fit_journal_open(c->journal, settings, keys, run->params->len,
					c->no_sync ? RECORD_LOG_NO_SYNC : RECORD_LOG_SYNC, &local);
	return run->journal || cmd_journal_failed(local, error);
}

/* --train: the plans named (comma-separated) train, every other is held out, whatever their
 * role= says; so one plans file serves fits on different plans. */
static gboolean set_roles(const char *train, PlanSet *set, GError **error)
{
	g_auto(GStrv) names = fidelity_plan_names(set, train, "--train", error);

	if (!names)
		return FALSE;
	for (guint p = 0; p < set->plans->len; p++) {
		PlanSpec *plan = g_ptr_array_index(set->plans, p);

		plan->role = g_strv_contains((const char *const *)names, plan->name)
				     ? PLAN_ROLE_TRAIN
				     : PLAN_ROLE_TEST;
	}
	return TRUE;
}

/* The fitted machine's simulation in words: the machine's report would otherwise name --machine's
 * file, whose values it does not have. */
static char *fitted_simulation(const struct fit_run *run)
{
	GString *s = g_string_new(run->s.simulation);

	g_string_append(s, "; the machine with the fitted values:");
	for (guint i = 0; i < run->params->len; i++) {
		const FitParam *p = run->params->pdata[i];

		g_string_append_printf(s, " %s=%.0f", p->key, fit_param_get(p, &run->fitted));
	}
	return g_string_free(s, FALSE);
}

static gboolean prepare(struct fit_cli *c, struct fit_run *run, GError **error)
{
	GError *local = NULL;

	/* The ranges are checked as parsed (tuner_cmd_fit); a loss needs a weight above 0. */
	if (c->time_weight == 0 && c->switch_weight == 0 && c->seconds_weight == 0 &&
	    c->line_weight == 0 && c->ref_switch_weight == 0)
		return cmd_usage(error, "--time-weight, --switch-weight, --seconds-weight, "
					"--line-weight, --ref-switch-weight: not all 0 (the loss "
					"would weigh nothing)");
	if (!fidelity_cli_finish(&c->f, &run->s, error) || !parse_params(c, run, error))
		return FALSE;
	if (run->s.format == FIDELITY_OUT_CSV)
		return cmd_usage(error, "--format: text or json for tuner fit");
	if (c->train && !set_roles(c->train, run->s.set, error))
		return FALSE;
	run->train = plan_set_new();
	g_ptr_array_set_free_func(run->train->plans, NULL); /* borrowed from s.set */
	for (guint p = 0; p < run->s.set->plans->len; p++)
		if (plan_set_plan(run->s.set, p)->role == PLAN_ROLE_TRAIN)
			g_ptr_array_add(run->train->plans, (gpointer)plan_set_plan(run->s.set, p));
	if (run->train->plans->len == 0)
		return cmd_usage(error, "--plans: no plan has role=train (or is named by --train): "
					"nothing to fit to");
	if (c->f.wc.sim.machine) {
		if (!linsched_machine_load(c->f.wc.sim.machine, &run->base, &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	} else {
		linsched_machine_builtin(&run->base);
	}
	run->o = (FitOptions){
		(guint)c->starts,
		(guint)c->max_iter,
		c->range,
		c->step,
		c->tol,
		(guint64)(flag_given(&c->f.wc.sim.flags, &c->f.wc.sim.seed) ? c->f.wc.sim.seed : 1)
	};
	run->w = (FidelityLoss){ .time_weight = c->time_weight,
				 .switch_weight = c->switch_weight,
				 .seconds_weight = c->seconds_weight,
				 .line_weight = c->line_weight,
				 .ref_switch_weight = c->ref_switch_weight };
	return open_journal(c, run, error);
}

/* ---- the fit -------------------------------------------------------------------------------- */

struct fit_progress {
	struct progress pg;
	const FitOptions *o;
};

static void show_progress(guint start, guint iter, double best, void *ctx)
{
	struct fit_progress *fp = ctx;
	const FitOptions *o = fp->o;
	g_autofree char *what =
		g_strdup_printf("start %u of %u, loss %.4g", start + 1, o->starts, best);

	/* A start that converges early leaves its share undone: the bar is an upper bound. */
	progress_update(&fp->pg, MIN(start * o->max_iter + iter, o->starts * o->max_iter), what);
}

static gboolean fit(const struct fit_cli *c, struct fit_run *run, GError **error)
{
	EvaluatorConfig config = { .replicates = 1, .jobs = run->s.jobs };
	g_autoptr(Evaluator) ev = evaluator_new(&config);
	PlanSim ps = { &c->f.wc, run->s.replicates, ev, run->s.guest_stalls };
	FitProblem fp;
	struct fit_progress pr = { .o = &run->o };
	gint64 t0 = g_get_monotonic_time();
	GError *local = NULL;
	gboolean ok;

	fit_problem_init(&fp, run->train, &ps, &run->base,
			 (const FitParam *const *)run->params->pdata, run->params->len, &run->w);
	fp.journal = run->journal;
	progress_init(&pr.pg, run->o.starts * run->o.max_iter);
	ok = fit_run(&fp, &run->o, &run->r, show_progress, &pr, &local);
	progress_end(&pr.pg);
	if (ok && fp.error)
		fprintf(stderr, "tuner fit: some parameter values failed to simulate (%s)\n",
			fp.error->message);
	if (ok) {
		fit_machine(&fp, run->r.values, &run->fitted);
		run->fitted_simulation = fitted_simulation(run);
	}
	fit_problem_clear(&fp);
	if (!ok && local->domain == RECORD_LOG_ERROR) /* an append failed */
		return cmd_journal_failed(local, error);
	if (!ok)
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	run->wall_us = g_get_monotonic_time() - t0;
	return fidelity_simulate(&c->f, &run->s, ev, &run->base, &run->before, error) &&
	       fidelity_simulate(&c->f, &run->s, ev, &run->fitted, &run->after, error);
}

/* ---- output --------------------------------------------------------------------------------- */

static const FitParam *param(const struct fit_run *run, guint i)
{
	return run->params->pdata[i];
}

static char *plan_names(const PlanSet *set, PlanRole role)
{
	GString *s = g_string_new(NULL);

	for (guint p = 0; p < set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(set, p);

		if (plan->role == role)
			g_string_append_printf(s, "%s%s", s->len ? ", " : "", plan->name);
	}
	return g_string_free(s, FALSE);
}

static char *machine_comment(const struct fit_run *run)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	g_autofree char *date = g_date_time_format(now, "%Y-%m-%d");
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "Fitted by `tuner fit` on %s to the training plans:\n", date);
	for (guint p = 0; p < run->train->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(run->train, p);

		g_string_append_printf(s, "  %s: %s (%s)\n", plan->name, plan->workload, plan->csv);
	}
	g_string_append_printf(s, "simulated with %s.\nFitted:", run->s.simulation);
	for (guint i = 0; i < run->params->len; i++)
		g_string_append_printf(s, " %s=%.0f (was %.0f)", param(run, i)->key,
				       run->r.values[i], run->r.start_values[i]);
	g_string_append_printf(s,
			       ".\nLoss %.4g -> %.4g: mean over the plans of %g x mean (ln sim - "
			       "ln real time ratio)^2\n+ %g x mean (ln sim - ln real switches)^2 "
			       "+ %g x (ln sim - ln real seconds at the reference)^2\n+ %g x the "
			       "cost lines' mean squared relative miss + %g x (ln sim - ln real "
			       "switches at the reference)^2;\nNelder-Mead "
			       "in ln space, %u start%s, seed %" G_GUINT64_FORMAT ".",
			       run->r.start_loss, run->r.loss, run->w.time_weight,
			       run->w.switch_weight, run->w.seconds_weight, run->w.line_weight,
			       run->w.ref_switch_weight, run->o.starts,
			       run->o.starts == 1 ? "" : "s", run->o.seed);
	for (guint p = 0; p < run->s.set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(run->s.set, p);
		FidelityMetrics m;

		if (plan->role != PLAN_ROLE_TEST)
			continue;
		fidelity_metrics(plan->real, run->after[p], run->s.sig, &m);
		g_string_append_printf(s,
				       "\nHeld out %s: rank corr. times %.3f, switches %.3f, span "
				       "ratio %.2f, signs %u/%u, switches at the reference %.3f",
				       plan->name, m.rank_time, m.rank_switches, m.span_ratio,
				       m.reproduced, m.significant, m.switch_ratio_ref);
	}
	return g_string_free(s, FALSE);
}

static void text_before_after(GString *out, const struct fit_run *run)
{
	const int w = fidelity_plan_name_width(run->s.set);

	g_string_append_printf(out, "%-*s %-5s %-7s %10s %10s %10s %8s %12s %9s %9s\n", w, "plan",
			       "role", "machine", "rank time", "rank ctxt", "span s/r", "signs",
			       "ctxt ref s/r", "rms time", "rms ctxt");
	for (guint p = 0; p < run->s.set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(run->s.set, p);

		for (int k = 0; k < 2; k++) {
			FidelityMetrics m;
			g_autofree char *signs = NULL;

			fidelity_metrics(plan->real, k ? run->after[p] : run->before[p], run->s.sig,
					 &m);
			signs = g_strdup_printf("%u/%u", m.reproduced, m.significant);
			g_string_append_printf(
				out,
				"%-*s %-5s %-7s %10.3f %10.3f %10.2f %8s %12.3f %9.3f "
				"%9.3f\n",
				w, plan->name, plan_role_name(plan->role), k ? "fitted" : "before",
				m.rank_time, m.rank_switches, m.span_ratio, signs,
				m.switch_ratio_ref, m.rms_log_time, m.rms_log_switches);
		}
	}
}

static char *text_report(const struct fit_cli *c, const struct fit_run *run)
{
	GString *out = g_string_new(NULL);
	g_autofree char *train = plan_names(run->s.set, PLAN_ROLE_TRAIN);
	g_autofree char *test = plan_names(run->s.set, PLAN_ROLE_TEST);
	FidelityReport after = { run->s.set, run->after, run->s.sig, run->fitted_simulation };
	g_autofree char *report = fidelity_report_text(&after);

	g_string_append_printf(out, "tuner fit: %u parameter%s fitted to %s (held out: %s)\n",
			       run->params->len, run->params->len == 1 ? "" : "s", train,
			       *test ? test : "none");
	g_string_append_printf(out, "simulated with %s\n", run->s.simulation);
	g_string_append_printf(out,
			       "loss: mean over the training plans of %g x mean (ln sim - ln "
			       "real time ratio)^2 + %g x mean (ln sim - ln real switches)^2 + %g "
			       "x (ln sim - ln real seconds at the reference)^2 + %g x the cost "
			       "lines' mean squared relative miss (fixed seconds, cost a switch) + "
			       "%g x (ln sim - ln real switches at the reference)^2\n",
			       run->w.time_weight, run->w.switch_weight, run->w.seconds_weight,
			       run->w.line_weight, run->w.ref_switch_weight);
	g_string_append_printf(out,
			       "search: Nelder-Mead in ln space, %u start%s (the machine's values, "
			       "then seeded draws; seed %" G_GUINT64_FORMAT
			       "), each within a factor %g, at most %u iterations\n\n",
			       run->o.starts, run->o.starts == 1 ? "" : "s", run->o.seed,
			       run->o.range, run->o.max_iter);
	g_string_append_printf(out, "  %-15s %-26s %10s %10s   %s\n", "parameter", "machine.ini",
			       "start", "fitted", "range searched");
	for (guint i = 0; i < run->params->len; i++) {
		g_autofree char *where =
			g_strdup_printf("[%s] %s", param(run, i)->group, param(run, i)->key);

		g_string_append_printf(out, "  %-15s %-26s %10.0f %10.0f   %.0f..%.0f\n",
				       param(run, i)->name, where, run->r.start_values[i],
				       run->r.values[i], run->r.lo[i], run->r.hi[i]);
	}
	g_autofree char *read = c->journal ? g_strdup_printf(", %u read from the journal %s,",
							     run->r.from_journal, c->journal)
					   : g_strdup("");

	g_string_append_printf(out,
			       "  loss %.4g -> %.4g; %u losses computed (%" G_GUINT64_FORMAT
			       " simulations)%s in %.1f s\n",
			       run->r.start_loss, run->r.loss, run->r.losses, run->r.simulations,
			       read, (double)run->wall_us / 1e6);
	for (guint k = 0; k < run->r.n_starts; k++) {
		const FitStart *st = &run->r.starts[k];

		g_string_append_printf(out, "  start %u: loss %.4g after %u iterations%s:", k + 1,
				       st->loss, st->iters, st->converged ? " (converged)" : "");
		for (guint i = 0; i < run->params->len; i++)
			g_string_append_printf(out, " %s=%.0f", param(run, i)->name, st->values[i]);
		g_string_append_c(out, '\n');
	}
	if (c->machine_out)
		g_string_append_printf(out, "wrote %s\n", c->machine_out);
	g_string_append_printf(out, "\n== the fitted machine ==\n%s\n== before and after ==\n",
			       report);
	text_before_after(out, run);
	return g_string_free(out, FALSE);
}

static char *json_report(const struct fit_cli *c, const struct fit_run *run)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;
	FidelityReport before = { run->s.set, run->before, run->s.sig, run->s.simulation };
	FidelityReport after = { run->s.set, run->after, run->s.sig, run->fitted_simulation };

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "simulation");
	json_string(&w, run->s.simulation);
	json_key(&w, "machine_out");
	if (c->machine_out)
		json_string(&w, c->machine_out);
	else
		json_null(&w);
	json_key(&w, "journal");
	if (c->journal)
		json_string(&w, c->journal);
	else
		json_null(&w);
	json_key(&w, "params");
	json_begin_array(&w);
	for (guint i = 0; i < run->params->len; i++) {
		json_begin_object(&w);
		json_key(&w, "name");
		json_string(&w, param(run, i)->name);
		json_key(&w, "group");
		json_string(&w, param(run, i)->group);
		json_key(&w, "key");
		json_string(&w, param(run, i)->key);
		json_key(&w, "start");
		json_double(&w, run->r.start_values[i]);
		json_key(&w, "fitted");
		json_double(&w, run->r.values[i]);
		json_key(&w, "lo");
		json_double(&w, run->r.lo[i]);
		json_key(&w, "hi");
		json_double(&w, run->r.hi[i]);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "loss");
	json_begin_object(&w);
	json_key(&w, "start");
	json_double(&w, run->r.start_loss);
	json_key(&w, "fitted");
	json_double(&w, run->r.loss);
	json_key(&w, "time_weight");
	json_double(&w, run->w.time_weight);
	json_key(&w, "switch_weight");
	json_double(&w, run->w.switch_weight);
	json_key(&w, "seconds_weight");
	json_double(&w, run->w.seconds_weight);
	json_key(&w, "line_weight");
	json_double(&w, run->w.line_weight);
	json_key(&w, "ref_switch_weight");
	json_double(&w, run->w.ref_switch_weight);
	json_end_object(&w);
	json_key(&w, "search");
	json_begin_object(&w);
	json_key(&w, "starts");
	json_uint(&w, run->o.starts);
	json_key(&w, "max_iter");
	json_uint(&w, run->o.max_iter);
	json_key(&w, "range");
	json_double(&w, run->o.range);
	json_key(&w, "step");
	json_double(&w, run->o.step);
	json_key(&w, "tol");
	json_double(&w, run->o.tol);
	json_key(&w, "seed");
	json_uint(&w, run->o.seed);
	json_key(&w, "losses");
	json_uint(&w, run->r.losses);
	json_key(&w, "losses_from_journal");
	json_uint(&w, run->r.from_journal);
	json_key(&w, "simulations");
	json_uint(&w, run->r.simulations);
	json_key(&w, "runs");
	json_begin_array(&w);
	for (guint k = 0; k < run->r.n_starts; k++) {
		json_begin_object(&w);
		json_key(&w, "loss");
		json_double(&w, run->r.starts[k].loss);
		json_key(&w, "iterations");
		json_uint(&w, run->r.starts[k].iters);
		json_key(&w, "converged");
		json_bool(&w, run->r.starts[k].converged);
		json_key(&w, "values");
		json_begin_array(&w);
		for (guint i = 0; i < run->params->len; i++)
			json_double(&w, run->r.starts[k].values[i]);
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_key(&w, "before");
	fidelity_report_write_json(&w, &before);
	json_key(&w, "fitted");
	fidelity_report_write_json(&w, &after);
	json_end_object(&w);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

static gboolean write_outputs(const struct fit_cli *c, const struct fit_run *run, const char *json,
			      GError **error)
{
	GError *local = NULL;

	if (c->machine_out) {
		g_autofree char *comment = machine_comment(run);

		if (!fit_write_machine(c->machine_out, c->f.wc.sim.machine, &run->fitted,
				       &run->base, (const FitParam *const *)run->params->pdata,
				       run->params->len, "tuner fit", comment, &local))
			return cmd_relabel(error, CMD_ERROR_FAILED, local, "--machine-out: ");
	}
	if (c->f.out) {
		FidelityReport after = { run->s.set, run->after, run->s.sig,
					 run->fitted_simulation };
		const char *const names[] = { "fit.json" };
		char *contents[] = { (char *)json };

		if (!out_files_write(c->f.out, names, contents, 1, &local))
			return cmd_relabel(error, CMD_ERROR_FAILED, local, "--out: ");
		return fidelity_write_files(c->f.out, &after, error);
	}
	return TRUE;
}

static void fit_run_clear(struct fit_run *run)
{
	guint n = run->s.set ? run->s.set->plans->len : 0;

	plan_sim_free(run->before, n);
	plan_sim_free(run->after, n);
	fit_result_clear(&run->r);
	g_free(run->fitted_simulation);
	fit_journal_close(run->journal);
	plan_set_free(run->train);
	if (run->params)
		g_ptr_array_free(run->params, TRUE);
	fidelity_setup_clear(&run->s);
}

static const char journal_help[] =
	"Append every loss here as it is computed; the same command with the same FILE resumes a "
	"killed fit without repeating a simulation (a FILE written for other plans, parameters, "
	"machine, weights, simulation flags or seed is refused)";
static const char no_sync_help[] =
	"Do not fdatasync the journal after each loss (survives kill -9, not a power loss)";

int tuner_cmd_fit(int argc, char **argv)
{
	struct fit_cli c = { .starts = 4,
			     .max_iter = 40,
			     .range = 20,
			     .step = 0.1,
			     .tol = 0.02,
			     .time_weight = 1,
			     .switch_weight = 0.25 };
	struct fit_run run = { 0 };
	g_autofree char *names = fit_param_names();
	g_autofree char *param_help =
		g_strdup_printf("Parameters to fit, comma-separated or repeated: %s", names);
	const GOptionEntry entries[] = {
		{ "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.params, param_help, "NAMES" },
		{ "starts", 0, 0, G_OPTION_ARG_INT64, &c.starts,
		  "Nelder-Mead starts: the machine's values, then seeded draws (default 4)", "N" },
		{ "max-iter", 0, 0, G_OPTION_ARG_INT64, &c.max_iter,
		  "Iterations per start at most (default 40)", "N" },
		{ "range", 0, 0, G_OPTION_ARG_DOUBLE, &c.range,
		  "Search each parameter within this factor of the machine's value (default 20)",
		  "F" },
		{ "step", 0, 0, G_OPTION_ARG_DOUBLE, &c.step,
		  "The first simplex's side, a fraction of the ln range (default 0.1)", "F" },
		{ "tol", 0, 0, G_OPTION_ARG_DOUBLE, &c.tol,
		  "A start ends when its simplex is this small in ln units (default 0.02)", "T" },
		{ "time-weight", 0, 0, G_OPTION_ARG_DOUBLE, &c.time_weight,
		  "Weight of the time ratios' mean squared ln error (default 1)", "W" },
		{ "switch-weight", 0, 0, G_OPTION_ARG_DOUBLE, &c.switch_weight,
		  "Weight of the switch counts' mean squared ln error (default 0.25)", "W" },
		{ "seconds-weight", 0, 0, G_OPTION_ARG_DOUBLE, &c.seconds_weight,
		  "Weight of the squared ln error of the seconds at the reference: the machine's "
		  "speed (default 0)",
		  "W" },
		{ "line-weight", 0, 0, G_OPTION_ARG_DOUBLE, &c.line_weight,
		  "Weight of the cost lines' mean squared relative miss, seconds = fixed + cost x "
		  "switches: where the machine's time goes (default 0)",
		  "W" },
		{ "ref-switch-weight", 0, 0, G_OPTION_ARG_DOUBLE, &c.ref_switch_weight,
		  "Weight of the squared ln error of the switches at the reference: the switch "
		  "level the fidelity criterion checks, which --switch-weight weighs as one setting "
		  "of many (default 0)",
		  "W" },
		{ "train", 0, 0, G_OPTION_ARG_STRING, &c.train,
		  "The plans of --plans to fit to, comma-separated; every other is held out, whatever "
		  "its role= (default: the plans with role=train)",
		  "NAMES" },
		{ "machine-out", 0, 0, G_OPTION_ARG_FILENAME, &c.machine_out,
		  "Write the fitted machine.ini (--machine's with the fitted keys)", "FILE" },
		{ "journal", 0, 0, G_OPTION_ARG_FILENAME, &c.journal, journal_help, "FILE" },
		{ "no-sync", 0, 0, G_OPTION_ARG_NONE, &c.no_sync, no_sync_help, NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c.starts, 1, 1000),
		FLAG_INT(&c.max_iter, 1, 100000),
		FLAG_REAL(&c.range, 1, 1e6, FLAG_OPEN_LO), /* a factor */
		FLAG_REAL(&c.step, 0, 1, FLAG_OPEN_LO),
		FLAG_REAL(&c.tol, 0, 10, FLAG_OPEN_LO | FLAG_OPEN_HI),
		FLAG_REAL(&c.time_weight, 0, 1e6, FLAG_CLOSED),
		FLAG_REAL(&c.switch_weight, 0, 1e6, FLAG_CLOSED),
		FLAG_REAL(&c.seconds_weight, 0, 1e6, FLAG_CLOSED),
		FLAG_REAL(&c.line_weight, 0, 1e6, FLAG_CLOSED),
		FLAG_REAL(&c.ref_switch_weight, 0, 1e6, FLAG_CLOSED),
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- fit the model's parameters to real plans");
	GError *error = NULL;
	int status = 0;

	fidelity_cli_init(&c.f);
	c.f.csv_role = PLAN_ROLE_TRAIN; /* one plan given alone is the one to fit */
	flag_add_main_entries(&c.f.flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	fidelity_cli_add_options(&c.f, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !prepare(&c, &run, &error) ||
	    !fit(&c, &run, &error)) {
		status = cmd_fail_status("fit", error);
	} else {
		g_autofree char *json = json_report(&c, &run);

		if (!write_outputs(&c, &run, json, &error)) {
			status = cmd_fail_status("fit", error);
		} else if (run.s.format == FIDELITY_OUT_JSON) {
			fputs(json, stdout);
		} else {
			g_autofree char *text = text_report(&c, &run);

			fputs(text, stdout);
		}
	}
	g_clear_error(&error);
	fit_run_clear(&run);
	fidelity_cli_clear(&c.f);
	g_strfreev(c.params);
	g_free(c.machine_out);
	g_free(c.journal);
	g_free(c.train);
	return status;
}
