/*
 * cmd_optimize.c - `tuner pso|golden|grid|random|bayes|ga`: search the CFS knobs for the setting
 * that makes a workload finish soonest (SPEC.md §5).
 *
 * One command, six optimizers: the subcommand names the optimizer type and adds its own flags;
 * everything else (workload, objective, replicates, journal, jobs, output) is shared.  The search
 * itself is tune_run (tuner/eval/tune_loop.h); this file turns flags into its configuration,
 * evaluates the default knobs for comparison and reports (tuner/eval/results.h).
 *
 * Choices made here:
 * - Knobs are searched on a log scale unless --scale linear (or --linear KNOB): the sysctl ranges
 *   span four orders of magnitude and CFS reacts to ratios of the knobs, so a linear scale would
 *   spend almost every evaluation above 100 ms.
 * - golden searches SchedPeriod through discovery rule 1 (default) or 2 over the rule's natural
 *   bracket, on a log scale, to a tolerance of 0.02 of the bracket (SchedPeriod within about +-9%
 *   for rule 1 and 200 tasks).  It checks the bracket's ends first (tuner/optim/golden_ends.h: the
 *   simulated turnaround is not unimodal along SchedPeriod), 12 evaluations in all;
 *   --interior-only runs the textbook search, 10.  With --knob K it searches K alone, the other
 *   knobs at their defaults or --fix values.
 * - grid defaults to 10 points per dimension (1000 on three knobs); random to a budget of 600,
 *   a default PSO's cost, so that the baselines are compared at equal cost.
 * - pso's omega, phi-p and phi-g start from --preset (default constriction, tuner/optim/optimizer.h);
 *   --omega, --phi-p, --phi-g override single values of it.
 * - bayes defaults to a budget of 40 evaluations: the Latin hypercube of 2 dim + 1 and 33 more
 *   one at a time, room for the issue's goal of reaching the optimum within 30.  --batch Q
 *   evaluates Q points per iteration (in parallel, or in one VM boot).
 * - ga runs 20 individuals for 15 generations by default, 272 evaluations (optimizer.h).
 * - The journal's settings hold everything that changes a value or the search's path: workload,
 *   simulator, objective, replicates, seed, optimizer parameters and space; with the simulated
 *   objective also the simulator's model id (cmd_settings_add_model), which a real objective's
 *   values do not depend on.  The budget is left out on purpose: it only cuts the same
 *   deterministic sequence of points shorter, so a rerun with a larger budget resumes and extends
 *   the run.
 *
 * Exit status: 0 success, 1 a failed evaluation or I/O error, 2 bad input (one line naming the
 * flag).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linsched/cli/cli.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/vm_cli.h"
#include "tuner/knobs/discovery.h"
#include "tuner/eval/evaluator.h"
#include "tuner/optim/golden_ends.h"
#include "tuner/eval/journal.h"
#include "tuner/knobs/knob_space.h"
#include "tuner/eval/live_knobs.h"
#include "tuner/optim/optimizer.h"
#include "tuner/knobs/period_space.h"
#include "tuner/eval/results.h"
#include "tuner/eval/tune_loop.h"
#include "tuner/eval/vm_objective.h"
#include "tuner/eval/workload.h"

#define GOLDEN_DEFAULT_TOLERANCE 0.02
#define GRID_DEFAULT_POINTS	 10
#define RANDOM_DEFAULT_BUDGET	 600
#define BAYES_DEFAULT_BUDGET	 40

struct optimize_cli {
	struct workload_cli wc;
	gint64 replicates, budget, jobs;
	char *journal, *out, *scale, *objective, *cmd, *knob_root, *knobs;
	char **ranges, **fixes, **logs, **linears;
	gboolean apply, no_sync;
	gint64 particles, iterations; /* pso */
	char *preset;
	double omega, phi_p, phi_g;
	char *preset_help;	     /* --preset's help, built from the preset table */
	gint64 rule, max_iterations; /* golden */
	gboolean interior_only;
	char *knob, *bracket;
	double tolerance;
	gint64 points;			 /* grid */
	gint64 initial, batch, restarts; /* bayes */
	char *batch_rule;
	gint64 population, generations, elite, tournament; /* ga */
	double crossover, mutation, eta_c, eta_m;
	struct vm_cli vm; /* --objective vm; its entries are in flags */
	struct flag_set flags;
};

/* What the flags resolve to. */
struct optimize_run {
	const char *name;		  /* the subcommand */
	const tuner_optimizer_type *type; /* the subcommand's */
	const tuner_optimizer_type
		*search; /* what runs: golden checks the ends unless --interior-only */
	struct workload w;
	bool on_period; /* golden on SchedPeriod */
	struct knob_space space;
	struct period_space period;
	char *space_text;
	tuner_optimizer_params params;
	size_t dim;
	guint expected; /* evaluations, for the progress line */
	bool live;
	bool vm; /* --objective vm */
	VmObjective vm_objective;
	LiveKnobs *live_knobs;
	LiveObjective live_objective;
	guint jobs;
	char *settings;
	Journal *journal;
	enum output_format format;
};

static void optimize_cli_init(struct optimize_cli *c)
{
	memset(c, 0, sizeof(*c));
	workload_cli_init(&c->wc);
	flag_set_init(&c->flags);
	c->replicates = 1;
	tuner_optimizer_params d;

	tuner_optimizer_params_default(&d);
	c->particles = (gint64)d.pso.particles;
	c->iterations = (gint64)d.pso.iterations;
	c->batch = (gint64)d.bayes.batch;
	c->restarts = (gint64)d.bayes.restarts;
	c->population = (gint64)d.ga.population;
	c->generations = (gint64)d.ga.generations;
	c->elite = (gint64)d.ga.elite;
	c->tournament = (gint64)d.ga.tournament;
	c->crossover = d.ga.crossover;
	c->eta_c = d.ga.eta_c;
	c->eta_m = d.ga.eta_m;
	c->rule = TUNER_DISCOVERY_RULE_MANY_TASKS;
	vm_cli_init(&c->vm);
	c->max_iterations = 100;
	c->tolerance = GOLDEN_DEFAULT_TOLERANCE;
	c->points = GRID_DEFAULT_POINTS;
}

static void optimize_cli_clear(struct optimize_cli *c)
{
	workload_cli_clear(&c->wc);
	g_free(c->journal);
	g_free(c->out);
	g_free(c->scale);
	g_free(c->objective);
	g_free(c->cmd);
	g_free(c->knob_root);
	g_free(c->knobs);
	g_strfreev(c->ranges);
	g_strfreev(c->fixes);
	g_strfreev(c->logs);
	g_strfreev(c->linears);
	g_free(c->knob);
	g_free(c->bracket);
	g_free(c->preset);
	g_free(c->preset_help);
	g_free(c->batch_rule);
	flag_set_clear(&c->flags);
}

static void optimize_run_clear(struct optimize_run *r)
{
	journal_close(r->journal);
	live_knobs_free(r->live_knobs);
	g_strfreev(r->live_objective.argv);
	workload_clear(&r->w);
	g_free(r->space_text);
	g_free(r->settings);
	vm_objective_clear(&r->vm_objective);
}

/* ---- flags --------------------------------------------------------------------------------- */

static void add_common_options(struct optimize_cli *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "replicates", 'r', 0, G_OPTION_ARG_INT64, &c->replicates,
		  "Runs per point with seeds S, S+1, ...; the objective is their mean (default 1)",
		  "R" },
		{ "budget", 'b', 0, G_OPTION_ARG_INT64, &c->budget,
		  "Maximum evaluations (points) (default: the optimizer's own; random 600)", "N" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT64, &c->jobs,
		  "Evaluations at once (default: the number of cores; 1 with --objective cmd)",
		  "J" },
		{ "journal", 0, 0, G_OPTION_ARG_FILENAME, &c->journal,
		  "Append every evaluation here; rerunning with the same journal resumes", "FILE" },
		{ "no-sync", 0, 0, G_OPTION_ARG_NONE, &c->no_sync,
		  "Do not fdatasync the journal after each record (survives kill -9, not a power loss)",
		  NULL },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c->out,
		  "Write DIR/history.csv and DIR/result.json", "DIR" },
		{ "apply", 0, 0, G_OPTION_ARG_NONE, &c->apply,
		  "Print the commands that set the best knobs on a live kernel", NULL },
		{ "knobs", 0, 0, G_OPTION_ARG_STRING, &c->knobs,
		  "The knobs to search, comma-separated: latency, min_granularity, wakeup_granularity, migration_cost, base_slice (default: the profile's own, the three CFS knobs or eevdf's base_slice); the others stay at the profile's defaults",
		  "NAMES" },
		{ "range", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->ranges,
		  "Search KNOB in [LO, HI] ns only (repeatable); KNOB: one of --knobs",
		  "KNOB=LO:HI" },
		{ "fix", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->fixes, "Hold KNOB at NS (repeatable)",
		  "KNOB=NS" },
		{ "scale", 0, 0, G_OPTION_ARG_STRING, &c->scale,
		  "Scale of every searched knob (and of SchedPeriod): log (default) or linear",
		  "S" },
		{ "log", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->logs,
		  "Search KNOB on a log scale (repeatable)", "KNOB" },
		{ "linear", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c->linears,
		  "Search KNOB on a linear scale (repeatable)", "KNOB" },
		{ "objective", 0, 0, G_OPTION_ARG_STRING, &c->objective,
		  "sim (default: simulated turnaround, jiffies), cmd (--cmd on the live kernel, ms) or vm (Debian's 6.1 kernel under qemu, ms)",
		  "O" },
		{ "cmd", 0, 0, G_OPTION_ARG_STRING, &c->cmd,
		  "With --objective cmd: the benchmark to time (prints 'Time: S' or 'Total time: S'); with vm: run this in the guest instead of the workload's hackbench",
		  "COMMAND" },
		{ "knob-root", 0, 0, G_OPTION_ARG_FILENAME, &c->knob_root,
		  "With --objective cmd: the directory holding proc/ and sys/ (default /)", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c->replicates, 1, 10000),
		FLAG_INT(&c->budget, 1, 100000000),
		FLAG_INT(&c->jobs, 1, 1024),
	};

	flag_add_main_entries(&c->flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	vm_cli_add_entries(&c->vm, &c->flags, g_option_context_get_main_group(ctx), VM_CLI_ROUNDS);
	workload_add_options(&c->wc, ctx);
}

/* The limits of every optimizer's flags; a group uses those of its own entries. */
static void add_group(struct optimize_cli *c, GOptionContext *ctx, const char *name,
		      const char *title, const GOptionEntry *entries)
{
	const struct flag_limits limits[] = {
		FLAG_INT(&c->particles, 1, 100000),
		FLAG_INT(&c->iterations, 1, 100000),
		/* Beyond these a swarm only diverges: |omega| > 1 grows every velocity, a negative
		 * pull pushes away from the best, and a pull above 2 (1 + omega) <= 4 already leaves
		 * the mean trajectory's stable region (the classic preset sits on its edge). */
		FLAG_REAL(&c->omega, -1, 1, FLAG_CLOSED),
		FLAG_REAL(&c->phi_p, 0, 8, FLAG_CLOSED),
		FLAG_REAL(&c->phi_g, 0, 8, FLAG_CLOSED),
		FLAG_INT(&c->initial, 1, 10000),
		FLAG_INT(&c->batch, 1, 10000),
		FLAG_INT(&c->restarts, 0, 100),
		FLAG_INT(&c->population, 2, 100000),
		FLAG_INT(&c->generations, 1, 100000),
		FLAG_INT(&c->elite, 0, 100000), /* below --population: check_numbers() */
		FLAG_INT(&c->tournament, 1, 100000),
		FLAG_REAL(&c->crossover, 0, 1, FLAG_CLOSED),
		FLAG_REAL(&c->mutation, 0, 1, FLAG_OPEN_LO), /* not given: 1 / knobs */
		FLAG_REAL(&c->eta_c, 0, 1000, FLAG_CLOSED),
		FLAG_REAL(&c->eta_m, 0, 1000, FLAG_CLOSED),
		FLAG_INT(&c->rule, TUNER_DISCOVERY_RULE_MANY_TASKS, TUNER_DISCOVERY_RULE_FEW_TASKS),
		FLAG_REAL(&c->tolerance, 0, 1, FLAG_OPEN_LO | FLAG_OPEN_HI),
		FLAG_INT(&c->max_iterations, 1, 100000),
		FLAG_INT(&c->points, 1, 100000),
	};
	g_autofree char *help = g_strdup_printf("Show %s options", name);
	GOptionGroup *group = flag_group_new(&c->flags, name, title, help);

	flag_group_add(&c->flags, group, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_add_group(ctx, group);
}

/* "constriction (omega 0.7298, phi-p 1.49618, phi-g 1.49618), thesis (...) or classic (...)": the
 * presets as tuner/optim/optimizer.h defines them, so that no number is written twice. */
static char *preset_list(void)
{
	GString *s = g_string_new(NULL);

	for (const tuner_pso_preset *p = tuner_pso_presets; p->name; p++)
		g_string_append_printf(s, "%s%s (omega %g, phi-p %g, phi-g %g)",
				       p == tuner_pso_presets ? ""
				       : p[1].name	      ? ", "
							      : " or ",
				       p->name, p->omega, p->phi_p, p->phi_g);
	return g_string_free(s, FALSE);
}

static void add_type_options(struct optimize_cli *c, const tuner_optimizer_type *type,
			     GOptionContext *ctx)
{
	g_autofree char *presets = preset_list();

	c->preset_help =
		g_strdup_printf("omega, phi-p and phi-g: %s; the first is the default", presets);

	const GOptionEntry pso[] = {
		{ "particles", 0, 0, G_OPTION_ARG_INT64, &c->particles, "Swarm size (default 20)",
		  "N" },
		{ "iterations", 0, 0, G_OPTION_ARG_INT64, &c->iterations,
		  "Generations, the first included (default 30)", "N" },
		{ "preset", 0, 0, G_OPTION_ARG_STRING, &c->preset, c->preset_help, "NAME" },
		{ "omega", 0, 0, G_OPTION_ARG_DOUBLE, &c->omega,
		  "Inertia, -1..1 (default: the preset's)", "W" },
		{ "phi-p", 0, 0, G_OPTION_ARG_DOUBLE, &c->phi_p,
		  "Pull to the particle's best, 0..8 (default: the preset's)", "P" },
		{ "phi-g", 0, 0, G_OPTION_ARG_DOUBLE, &c->phi_g,
		  "Pull to the swarm's best, 0..8 (default: the preset's)", "G" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const GOptionEntry bayes[] = {
		{ "initial", 0, 0, G_OPTION_ARG_INT64, &c->initial,
		  "Latin hypercube points before the model (default 2 x knobs + 1)", "N" },
		{ "batch", 0, 0, G_OPTION_ARG_INT64, &c->batch,
		  "Points chosen per iteration, evaluated together (default 1)", "Q" },
		{ "batch-rule", 0, 0, G_OPTION_ARG_STRING, &c->batch_rule,
		  "How a batch is filled: believer (kriging believer, default) or liar (constant liar)",
		  "R" },
		{ "restarts", 0, 0, G_OPTION_ARG_INT64, &c->restarts,
		  "Random restarts of the model's hyper-parameter fit (default 3)", "N" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const GOptionEntry ga[] = {
		{ "population", 0, 0, G_OPTION_ARG_INT64, &c->population,
		  "Individuals (default 20)", "N" },
		{ "generations", 0, 0, G_OPTION_ARG_INT64, &c->generations,
		  "Generations, the first included (default 15)", "N" },
		{ "elite", 0, 0, G_OPTION_ARG_INT64, &c->elite,
		  "Best individuals carried over unchanged (default 2)", "N" },
		{ "tournament", 0, 0, G_OPTION_ARG_INT64, &c->tournament,
		  "Contestants per parent selection (default 3)", "N" },
		{ "crossover", 0, 0, G_OPTION_ARG_DOUBLE, &c->crossover,
		  "Probability that two parents are crossed, SBX (default 0.9)", "P" },
		{ "mutation", 0, 0, G_OPTION_ARG_DOUBLE, &c->mutation,
		  "Probability that a gene mutates, polynomial (default 1 / knobs)", "P" },
		{ "eta-c", 0, 0, G_OPTION_ARG_DOUBLE, &c->eta_c,
		  "SBX distribution index; larger keeps children nearer their parents (default 15)",
		  "E" },
		{ "eta-m", 0, 0, G_OPTION_ARG_DOUBLE, &c->eta_m,
		  "Mutation distribution index (default 20)", "E" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const GOptionEntry golden[] = {
		{ "rule", 0, 0, G_OPTION_ARG_INT64, &c->rule,
		  "Discovery rule deriving the knobs from SchedPeriod: 1 many tasks (default), 2 few tasks",
		  "1|2" },
		{ "knob", 0, 0, G_OPTION_ARG_STRING, &c->knob,
		  "Search this knob instead of SchedPeriod, the others at their defaults or --fix",
		  "KNOB" },
		{ "bracket", 0, 0, G_OPTION_ARG_STRING, &c->bracket,
		  "SchedPeriod bracket in ns (default: the rule's natural one)", "LO:HI" },
		{ "tolerance", 0, 0, G_OPTION_ARG_DOUBLE, &c->tolerance,
		  "Stop when the bracket is narrower than this fraction of its start, on its scale (default 0.02)",
		  "T" },
		{ "max-iterations", 0, 0, G_OPTION_ARG_INT64, &c->max_iterations,
		  "At most this many steps (default 100)", "N" },
		{ "interior-only", 0, 0, G_OPTION_ARG_NONE, &c->interior_only,
		  "Textbook Golden Section: do not evaluate the bracket's ends first (2 evaluations fewer)",
		  NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const GOptionEntry grid[] = {
		{ "points", 0, 0, G_OPTION_ARG_INT64, &c->points,
		  "Points per searched knob (default 10)", "N" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	if (type == tuner_optimizer_pso)
		add_group(c, ctx, "pso", "Particle swarm options:", pso);
	else if (type == tuner_optimizer_golden)
		add_group(c, ctx, "golden", "Golden Section options:", golden);
	else if (type == tuner_optimizer_grid)
		add_group(c, ctx, "grid", "Grid options:", grid);
	else if (type == tuner_optimizer_bayes)
		add_group(c, ctx, "bayes", "Bayesian optimisation options:", bayes);
	else if (type == tuner_optimizer_ga)
		add_group(c, ctx, "ga", "Genetic algorithm options:", ga);
}

/* What the flags' own ranges (add_common_options, add_group) cannot check: products and bounds
 * that depend on another flag. */
static bool check_numbers(const struct optimize_cli *c, const tuner_optimizer_type *type,
			  GError **error)
{
	const struct linsched_cli *s = &c->wc.sim;

	if (cmd_searched_knob_flag(s))
		return cmd_usage(error,
				 "%s: the tuner searches this knob; hold it with --fix KNOB=NS",
				 cmd_searched_knob_flag(s));
	if (type == tuner_optimizer_pso && c->particles * c->iterations > 100000000)
		return cmd_usage(error,
				 "--particles x --iterations: %" G_GINT64_FORMAT
				 " evaluations is too many",
				 c->particles * c->iterations);
	if (type == tuner_optimizer_bayes && c->batch_rule &&
	    strcmp(c->batch_rule, "believer") != 0 && strcmp(c->batch_rule, "liar") != 0)
		return cmd_usage(error, "--batch-rule: '%s' is not believer or liar",
				 c->batch_rule);
	if (type == tuner_optimizer_bayes && c->batch_rule && c->batch == 1)
		return cmd_usage(error, "--batch-rule: fills a batch of --batch Q > 1 points");
	if (type == tuner_optimizer_ga) {
		if (c->population * c->generations > 100000000)
			return cmd_usage(error,
					 "--population x --generations: %" G_GINT64_FORMAT
					 " evaluations is too many",
					 c->population * c->generations);
		if (c->elite >= c->population)
			return cmd_usage(error,
					 "--elite: must be in 0..population - 1 (%" G_GINT64_FORMAT
					 "), got %" G_GINT64_FORMAT,
					 c->population - 1, c->elite);
		if (c->tournament > c->population)
			return cmd_usage(error,
					 "--tournament: must be in 1..population (%" G_GINT64_FORMAT
					 "), got %" G_GINT64_FORMAT,
					 c->population, c->tournament);
	}
	return true;
}

/* ---- the search space ---------------------------------------------------------------------- */

static bool parse_scale(const struct optimize_cli *c, bool *log, GError **error)
{
	*log = true;
	if (!c->scale || strcmp(c->scale, "log") == 0)
		return true;
	if (strcmp(c->scale, "linear") == 0) {
		*log = false;
		return true;
	}
	return cmd_usage(error, "--scale: '%s' is not log or linear", c->scale);
}

/* --range, --fix, --log, --linear on r->space. Each names a knob once; a fixed knob takes no
 * range and no scale, and a knob one scale. */
static bool apply_knob_flags(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	guint ranged = 0, fixed = 0, logged = 0, linear = 0;
	GError *local = NULL;

	for (size_t i = 0; c->ranges && c->ranges[i]; i++)
		if (!knob_space_parse_range(&r->space, c->ranges[i], &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	for (size_t i = 0; c->fixes && c->fixes[i]; i++)
		if (!knob_space_parse_fix(&r->space, c->fixes[i], &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	for (size_t i = 0; c->logs && c->logs[i]; i++)
		if (!knob_space_parse_scale(&r->space, c->logs[i], true, &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	for (size_t i = 0; c->linears && c->linears[i]; i++)
		if (!knob_space_parse_scale(&r->space, c->linears[i], false, &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	if (!cmd_knobs_named("--range", c->ranges, &ranged, error) ||
	    !cmd_knobs_named("--fix", c->fixes, &fixed, error) ||
	    !cmd_knobs_named("--log", c->logs, &logged, error) ||
	    !cmd_knobs_named("--linear", c->linears, &linear, error))
		return false;
	for (int k = 0; k < KNOB_COUNT; k++) {
		guint bit = 1U << k;
		const char *name = knob_name((enum knob)k);

		if (ranged & fixed & bit)
			return cmd_usage(
				error, "--fix: %s also has a --range; give one or the other", name);
		if (logged & linear & bit)
			return cmd_usage(
				error, "--log, --linear: %s is given both scales; give one", name);
		if ((logged | linear) & bit && r->space.k[k].fixed)
			return cmd_usage(error, "%s: %s is held fixed, so it has no scale",
					 logged & bit ? "--log" : "--linear", name);
	}
	return true;
}

/* golden --knob K: K free, every other knob of the set fixed at its default unless --fix says
 * otherwise. */
static bool golden_knob_space(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	enum knob k;
	Knobs def = workload_default_knobs(&r->w);

	if (!knob_from_name(c->knob, &k))
		return cmd_usage(error, "--knob: '%s' is not %s", c->knob, knob_names_list());
	if (!knob_in_profile(k, r->w.cfg.profile))
		return cmd_usage(error, "--knob: the %s profile's kernel has no %s",
				 r->w.cfg.profile->name, knob_name(k));
	r->space.set |= KNOB_BIT(k);
	for (int i = 0; i < KNOB_COUNT; i++) {
		if (i == (int)k || !(r->space.set & KNOB_BIT(i)))
			continue;

		g_autofree char *fix = g_strdup_printf("%s=%.0f", knob_name((enum knob)i),
						       knob_get(&def, (enum knob)i));
		GError *local = NULL;

		if (!knob_space_parse_fix(&r->space, fix, &local))
			return cmd_relabel(error, CMD_ERROR_USAGE, local,
					   "the profile's default: ");
	}
	for (size_t i = 0; c->ranges && c->ranges[i]; i++)
		if (!g_str_has_prefix(c->ranges[i], knob_name(k)))
			return cmd_usage(error,
					 "--range: golden --knob %s searches only %s, got '%s'",
					 knob_name(k), knob_name(k), c->ranges[i]);
	if (!apply_knob_flags(c, r, error))
		return false;
	if (r->space.k[k].fixed)
		return cmd_usage(error, "--fix: %s is the knob golden searches", knob_name(k));
	return true;
}

/* The set must suit the profile and the workload's flags; the workload then simulates it. */
static bool check_knob_set(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	if (!cmd_check_knob_set(&c->wc.sim, r->w.cfg.profile, r->space.set, error))
		return false;
	r->w.knobs = r->space.set;
	return true;
}

static bool build_space(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	bool log;
	GError *local = NULL;
	KnobSet set;

	if (!parse_scale(c, &log, error) || !cmd_knob_set(c->knobs, r->w.cfg.profile, &set, error))
		return false;
	knob_space_init_set(&r->space, set, log);
	if (r->type != tuner_optimizer_golden) {
		if (!apply_knob_flags(c, r, error) || !check_knob_set(c, r, error))
			return false;
		if (r->space.dim == 0)
			return cmd_usage(error,
					 "--fix: every knob is fixed; nothing is left to search");
		r->dim = r->space.dim;
		r->space_text = knob_space_describe(&r->space);
		return true;
	}
	r->dim = 1;
	if (c->knob) {
		if (c->bracket)
			return cmd_usage(
				error,
				"--bracket: bounds SchedPeriod; with --knob use --range %s=LO:HI",
				c->knob);
		if (flag_given(&c->flags, &c->rule))
			return cmd_usage(
				error,
				"--rule: derives the knobs from SchedPeriod; golden --knob %s "
				"searches that knob alone",
				c->knob);
		if (!golden_knob_space(c, r, error) || !check_knob_set(c, r, error))
			return false;
		r->space_text = knob_space_describe(&r->space);
		return true;
	}
	if (c->knobs || r->w.cfg.profile->knobs != SCHED_KNOBS_CFS)
		return cmd_usage(
			error,
			"%s: golden on SchedPeriod derives CFS's three knobs%s; use --knob "
			"KNOB to search one knob with the others fixed",
			c->knobs ? "--knobs" : "--profile",
			c->knobs ? " and no other" : ", which EEVDF does not have");
	if (c->ranges || c->fixes || c->logs || c->linears)
		return cmd_usage(error,
				 "%s: golden on SchedPeriod derives every knob from the period; "
				 "use --knob KNOB to search one knob with the others fixed",
				 c->ranges  ? "--range"
				 : c->fixes ? "--fix"
				 : c->logs  ? "--log"
					    : "--linear");
	if (!period_space_init(&r->period, (int)c->rule, r->w.nr_tasks, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	r->period.log = log;
	if (c->bracket && !period_space_parse_bracket(&r->period, c->bracket, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	r->on_period = true;
	r->space_text = period_space_describe(&r->period);
	return true;
}

/* ---- optimizer parameters ------------------------------------------------------------------ */

/* Golden's evaluations for a tolerance: ceil(log(tol) / log r) + 1 (tuner/optim/golden.c), two more
 * when it checks the ends (tuner/optim/golden_ends.h). */
static guint golden_evaluations(double tolerance, gint64 max_iterations, bool ends)
{
	double steps = ceil(log(tolerance) / log((sqrt(5.0) - 1) / 2));

	return (guint)MIN(steps, (double)max_iterations) + (ends ? 3 : 1);
}

/* omega, phi_p, phi_g: the preset's, then each flag given. */
static bool pso_coefficients(const struct optimize_cli *c, tuner_optimizer_params *p,
			     GError **error)
{
	const tuner_pso_preset *preset = &tuner_pso_presets[0];

	if (c->preset && !(preset = tuner_pso_preset_by_name(c->preset)))
		return cmd_usage(error, "--preset: '%s' is not constriction, thesis or classic",
				 c->preset);
	p->pso.omega = flag_given(&c->flags, &c->omega) ? c->omega : preset->omega;
	p->pso.phi_p = flag_given(&c->flags, &c->phi_p) ? c->phi_p : preset->phi_p;
	p->pso.phi_g = flag_given(&c->flags, &c->phi_g) ? c->phi_g : preset->phi_g;
	return true;
}

static bool build_params(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	tuner_optimizer_params *p = &r->params;
	GError *local = NULL;

	r->search = r->type == tuner_optimizer_golden && !c->interior_only
			    ? tuner_optimizer_golden_ends
			    : r->type;
	tuner_optimizer_params_default(p);
	p->seed = (unsigned long)r->w.cfg.seed;
	p->budget = flag_given(&c->flags, &c->budget) ? (size_t)c->budget : 0; /* 0: its own */
	if (r->type == tuner_optimizer_pso) {
		p->pso.particles = (size_t)c->particles;
		p->pso.iterations = (size_t)c->iterations;
		if (!pso_coefficients(c, p, error))
			return false;
		r->expected = (guint)(c->particles * c->iterations);
	} else if (r->type == tuner_optimizer_bayes) {
		if (flag_given(&c->flags, &c->initial))
			p->bayes.initial = (size_t)c->initial;
		p->bayes.batch = (size_t)c->batch;
		p->bayes.restarts = (size_t)c->restarts;
		p->bayes.rule = c->batch_rule && strcmp(c->batch_rule, "liar") == 0
					? TUNER_BAYES_LIAR
					: TUNER_BAYES_BELIEVER;
		if (!p->budget)
			p->budget = BAYES_DEFAULT_BUDGET;
		r->expected = (guint)p->budget;
	} else if (r->type == tuner_optimizer_ga) {
		p->ga.population = (size_t)c->population;
		p->ga.generations = (size_t)c->generations;
		p->ga.elite = (size_t)c->elite;
		p->ga.tournament = (size_t)c->tournament;
		p->ga.crossover = c->crossover;
		if (flag_given(&c->flags, &c->mutation))
			p->ga.mutation = c->mutation;
		p->ga.eta_c = c->eta_c;
		p->ga.eta_m = c->eta_m;
		r->expected =
			(guint)(c->population + (c->generations - 1) * (c->population - c->elite));
	} else if (r->type == tuner_optimizer_golden) {
		p->golden.tolerance = c->tolerance;
		p->golden.max_iterations = (size_t)c->max_iterations;
		r->expected =
			golden_evaluations(c->tolerance, c->max_iterations, !c->interior_only);
	} else if (r->type == tuner_optimizer_grid) {
		p->grid.points = (size_t)c->points;
		double total = pow((double)c->points, (double)r->dim);

		if (total > 1e8)
			return cmd_usage(error,
					 "--points: %" G_GINT64_FORMAT "^%zu points is too many",
					 c->points, r->dim);
		r->expected = (guint)total;
	} else {
		if (!p->budget)
			p->budget = RANDOM_DEFAULT_BUDGET;
		r->expected = (guint)p->budget;
	}
	if (p->budget && p->budget < r->expected)
		r->expected = (guint)p->budget;
	if (!tuner_optimizer_params_check(r->search, r->dim, p, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	return true;
}

/* ---- objective, settings, journal ---------------------------------------------------------- */

/* --objective vm: the batches run in one boot each of the real 6.1 kernel (vm_objective.h). */
static bool build_vm_objective(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	VmObjective *vm = &r->vm_objective;

	if (flag_given(&c->flags, &c->replicates))
		return cmd_usage(error, "--replicates: with --objective vm the replicates are the "
					"--rounds of each boot");
	if (c->knob_root || c->wc.calibration || flag_given(&c->flags, &c->jobs))
		return cmd_usage(error, "%s: not with --objective vm (one guest runs at a time)",
				 c->knob_root	     ? "--knob-root"
				 : c->wc.calibration ? "--calibration"
						     : "--jobs");
	if (!c->cmd && !r->w.hackbench)
		return cmd_usage(error,
				 "--objective vm: runs hackbench in the guest; give a hackbench "
				 "workload or --cmd");
	if (!r->on_period && r->space.set != KNOB_SET_CFS)
		return cmd_usage(error, "--knobs: --objective vm sets the 6.1 guest's three CFS "
					"knobs, latency, min_granularity and wakeup_granularity");
	g_autofree char *command =
		c->cmd ? g_strdup(c->cmd)
		       : vm_hackbench_command(r->w.hb.groups, r->w.hb.loops, r->w.hb.fds,
					      r->w.hb.datasize, r->w.hb.threads, r->w.hb.pipe);
	g_autofree char *log_root = c->out ? g_build_filename(c->out, "vm", NULL) : NULL;

	vm_cli_objective(&c->vm, r->w.cfg.nr_cpus, command, log_root, vm);
	vm->seed = r->w.cfg.seed;
	r->vm = true;
	r->jobs = 1; /* one VM at a time */
	return true;
}

static bool build_objective(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	GError *local = NULL;

	if (c->objective && strcmp(c->objective, "sim") != 0 && strcmp(c->objective, "cmd") != 0 &&
	    strcmp(c->objective, "vm") != 0)
		return cmd_usage(error, "--objective: '%s' is not sim, cmd or vm", c->objective);
	if (c->objective && strcmp(c->objective, "vm") == 0)
		return build_vm_objective(c, r, error);
	const char *vm_flag = vm_cli_given(&c->vm);

	if (vm_flag)
		return cmd_usage(error, "%s: only with --objective vm", vm_flag);
	r->live = c->objective && strcmp(c->objective, "cmd") == 0;
	if (!r->live) {
		if (c->cmd || c->knob_root)
			return cmd_usage(error, "%s: only with --objective cmd",
					 c->cmd ? "--cmd" : "--knob-root");
		r->jobs =
			flag_given(&c->flags, &c->jobs) ? (guint)c->jobs : evaluator_default_jobs();
		return true;
	}
	if (!c->cmd)
		return cmd_usage(error, "--objective cmd: needs --cmd 'COMMAND'");
	if (c->wc.calibration)
		return cmd_usage(
			error,
			"--calibration: predicts real time from simulated jiffies; --objective cmd "
			"already measures real time");
	if (!g_shell_parse_argv(c->cmd, NULL, &r->live_objective.argv, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "--cmd: ");
	/* The machine has one set of knobs: evaluations are serialised anyway. */
	r->jobs = flag_given(&c->flags, &c->jobs) ? (guint)c->jobs : 1;
	return true;
}

/* Opens the live knobs and catches Ctrl-C, so that the kernel's values always come back. */
static bool open_live(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	GError *local = NULL;

	if (!(r->live_knobs = live_knobs_open_set(
		      c->knob_root, r->on_period ? KNOB_SET_CFS : r->space.set, &local))) {
		g_propagate_error(error, local);
		return false;
	}
	if (!live_knobs_catch_signals(error))
		return false;
	r->live_objective.live = r->live_knobs;

	g_autofree char *saved =
		knobs_describe(live_knobs_saved(r->live_knobs), live_knobs_set(r->live_knobs));

	fprintf(stderr, "tuner %s: %s; the kernel's knobs (restored after every evaluation): %s\n",
		r->name, live_knobs_layout_name(live_knobs_layout(r->live_knobs)), saved);
	return true;
}

static char *build_settings(const struct optimize_cli *c, const struct optimize_run *r)
{
	GString *s = g_string_new(r->w.settings);
	const tuner_optimizer_params *p = &r->params;

	if (r->vm) {
		g_autofree char *vm = vm_cli_settings(&r->vm_objective);

		g_string_append(s, vm);
	} else if (r->live) {
		g_autofree char *cmd = g_uri_escape_string(c->cmd, NULL, FALSE);

		g_string_append_printf(s, " objective=cmd cmd=%s", cmd);
	} else {
		/* Only simulated values depend on the simulator's code; real ones (vm, cmd) stay
		 * good across its changes. */
		g_string_append(s, " objective=sim");
		cmd_settings_add_model(s);
	}
	g_string_append_printf(
		s, " replicates=%" G_GINT64_FORMAT " seed=%" G_GUINT64_FORMAT " optimizer=%s",
		c->replicates, r->w.cfg.seed, r->type->name);
	if (r->type == tuner_optimizer_pso)
		g_string_append_printf(
			s, " particles=%zu iterations=%zu omega=%.17g phi_p=%.17g phi_g=%.17g",
			p->pso.particles, p->pso.iterations, p->pso.omega, p->pso.phi_p,
			p->pso.phi_g);
	else if (r->type == tuner_optimizer_golden)
		g_string_append_printf(s, " tolerance=%.17g max_iterations=%zu ends=%s",
				       p->golden.tolerance, p->golden.max_iterations,
				       r->search == tuner_optimizer_golden_ends ? "yes" : "no");
	else if (r->type == tuner_optimizer_grid)
		g_string_append_printf(s, " points=%zu", p->grid.points);
	else if (r->type == tuner_optimizer_bayes)
		g_string_append_printf(
			s, " initial=%zu batch=%zu rule=%s restarts=%zu starts=%zu candidates=%zu",
			p->bayes.initial, p->bayes.batch,
			p->bayes.rule == TUNER_BAYES_LIAR ? "liar" : "believer", p->bayes.restarts,
			p->bayes.starts, p->bayes.candidates);
	else if (r->type == tuner_optimizer_ga)
		g_string_append_printf(s,
				       " population=%zu generations=%zu elite=%zu tournament=%zu "
				       "crossover=%.17g mutation=%.17g eta_c=%.17g eta_m=%.17g",
				       p->ga.population, p->ga.generations, p->ga.elite,
				       p->ga.tournament, p->ga.crossover, p->ga.mutation,
				       p->ga.eta_c, p->ga.eta_m);
	g_string_append_printf(s, " %s", r->space_text);
	return g_string_free(s, FALSE);
}

static bool open_journal(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	KnobSet knobs = r->on_period ? KNOB_SET_CFS : r->space.set;

	return cmd_open_journal(c->journal, r->settings, knobs, c->no_sync, &r->journal, error);
}

/* Everything the flags decide, in the order that lets each step rely on the previous ones. */
static bool prepare(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	GError *local = NULL;

	if (!check_numbers(c, r->type, error))
		return false;
	if (!workload_finish(&c->wc, &r->w, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	if (!linsched_cli_format(&c->wc.sim, &r->format, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	if (!build_space(c, r, error) || !build_params(c, r, error) ||
	    !build_objective(c, r, error))
		return false;
	r->settings = build_settings(c, r);
	if (!cmd_prepare_out(c->out, error) || !open_journal(c, r, error))
		return false;
	return !r->live || open_live(c, r, error);
}

/* ---- run and report ------------------------------------------------------------------------ */

static double period_column(const double *unit, void *ctx)
{
	return period_space_period(ctx, unit[0]);
}

static void count_clamped(const struct optimize_run *r, const TuneRun *run, Results *res)
{
	const TuneEvaluation *best = tune_run_best(run);
	unsigned int mask;
	Knobs k;

	res->clamped_evaluations = 0;
	for (guint i = 0; i < run->evaluations->len; i++) {
		period_space_to_knobs(&r->period, tune_run_unit(run, i)[0], &k, &mask);
		res->clamped_evaluations += mask != 0;
	}
	period_space_to_knobs(&r->period, tune_run_unit(run, best->index)[0], &k, &mask);
	res->best_clamped = (int)mask;
}

static bool report(const struct optimize_cli *c, struct optimize_run *r, const TuneRun *run,
		   const Knobs *def, const EvaluatorResult *def_result, GError **error)
{
	Results res = {
		.optimizer = r->name,
		.objective = r->vm     ? "vm"
			     : r->live ? "command"
				       : "simulation",
		.unit = r->vm	  ? "x defaults"
			: r->live ? "ms"
				  : "jiffies",
		.space = r->space_text,
		.settings = r->settings,
		.journal = c->journal,
		.replicates = r->vm ? r->vm_objective.rounds : (guint)c->replicates,
		.jobs = r->jobs,
		.run = run,
		.knobs = r->on_period ? KNOB_SET_CFS : r->space.set,
		.default_knobs = *def,
		.default_result = *def_result,
		.calibration = r->w.calibration,
		.best_clamped = -1,
	};

	if (r->on_period) {
		count_clamped(r, run, &res);
		res.extra_column = "sched_period_ns";
		res.extra = period_column;
		res.extra_ctx = &r->period;
	}
	if (c->out && !results_write(&res, c->out, c->apply, error))
		return false;

	g_autofree char *text = r->format == FORMAT_JSON ? results_json(&res, c->apply)
							 : results_text(&res, c->apply);

	fputs(text, stdout);
	if (c->out && r->format == FORMAT_TEXT)
		printf("\nwrote %s/history.csv and %s/result.json\n", c->out, c->out);
	return true;
}

static bool optimize(const struct optimize_cli *c, struct optimize_run *r, GError **error)
{
	TuneConfig tc = {
		.type = r->search,
		.params = r->params,
		.dim = r->dim,
		.map = r->on_period ? period_space_map : knob_space_map,
		.map_ctx = r->on_period ? (void *)&r->period : (void *)&r->space,
		.evaluator = {
			.objective = r->live ? live_knobs_objective : workload_objective,
			.objective_ctx = r->live ? (void *)&r->live_objective : (void *)&r->w,
			.batch_objective = r->vm ? vm_objective_batch : NULL,
			.batch_ctx = &r->vm_objective,
			.replicates = r->vm ? r->vm_objective.rounds : (guint)c->replicates,
			.base_seed = r->w.cfg.seed,
			.jobs = r->jobs,
			.journal = r->journal,
			.knobs = r->on_period ? KNOB_SET_CFS : r->space.set,
		},
		.show_progress = true,
		.label = r->name,
		.expected_evaluations = r->expected,
	};
	Knobs def = r->vm ? r->vm_objective.defaults : workload_default_knobs(&r->w);
	EvaluatorResult def_result;

	if (!evaluator_run(&tc.evaluator, &def, 1, &def_result, NULL, NULL, error)) {
		g_prefix_error(error, "the default knobs: ");
		return false;
	}

	g_autoptr(TuneRun) run = tune_run(&tc, error);

	return run && report(c, r, run, &def, &def_result, error);
}

static const char *optimize_description(const tuner_optimizer_type *type)
{
	if (type == tuner_optimizer_pso)
		return "Particle swarm over the knobs (log scale unless --scale linear), 20 particles x 30\n"
		       "generations by default.  --preset chooses omega, phi-p and phi-g: constriction (the default,\n"
		       "Clerc and Kennedy's coefficients, which converge), thesis (the literature's) or classic, both\n"
		       "outside PSO's stable region (SPEC.md).  The objective is the simulated turnaround in jiffies.";
	if (type == tuner_optimizer_bayes)
		return "Bayesian optimisation for expensive, noisy objectives: a Latin hypercube of 2 x knobs + 1\n"
		       "points, then a Gaussian-process model (Matern 5/2, a length scale per knob, a noise term)\n"
		       "chooses each next point by expected improvement, --batch Q points at a time.  Prints the\n"
		       "model's predicted optimum with its uncertainty after every iteration.  Budget 40 by default.";
	if (type == tuner_optimizer_ga)
		return "Real-coded genetic algorithm: tournament selection, simulated binary crossover, polynomial\n"
		       "mutation and elitism; 20 individuals x 15 generations (272 evaluations) by default.";
	if (type == tuner_optimizer_golden)
		return "Golden Section on SchedPeriod: each period is turned into the three knobs by discovery rule 1\n"
		       "or 2 for the workload's task count, over the rule's natural bracket on a log scale.  The\n"
		       "bracket's ends are evaluated first (the turnaround need not be unimodal along SchedPeriod):\n"
		       "12 evaluations at the default tolerance, 10 with --interior-only.";
	if (type == tuner_optimizer_grid)
		return "Every combination of --points values per searched knob, on a log scale unless --scale linear:\n"
		       "a baseline and a ground truth for the other optimizers.";
	return "Uniformly random points in the (log-scaled) knob space until the budget (default 600) is spent:\n"
	       "the baseline any optimizer has to beat.";
}

int tuner_cmd_optimize(int argc, char **argv)
{
	struct optimize_cli cli;
	struct optimize_run run = { .name = argv[0],
				    .type = tuner_optimizer_type_by_name(argv[0]) };
	g_autoptr(GError) error = NULL;
	g_autofree char *summary = g_strdup_printf("- search the CFS knobs with %s", argv[0]);
	g_autoptr(GOptionContext) ctx = g_option_context_new(summary);
	int status = 0;

	if (!run.type) {
		cmd_usage(&error, "unknown optimizer: use pso, golden, grid, random, bayes or ga");
		return cmd_fail_status(argv[0], error);
	}
	g_option_context_set_description(ctx, optimize_description(run.type));
	optimize_cli_init(&cli);
	add_common_options(&cli, ctx);
	add_type_options(&cli, run.type, ctx);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !prepare(&cli, &run, &error) ||
	    !optimize(&cli, &run, &error))
		status = cmd_fail_status(run.name, error);
	optimize_run_clear(&run);
	optimize_cli_clear(&cli);
	return status;
}
