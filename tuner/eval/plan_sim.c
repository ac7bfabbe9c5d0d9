/*
 * plan_sim.c - every setting of the real plans, simulated (see plan_sim.h).
 */
#include "tuner/eval/plan_sim.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#define PLAN_SIM_ERROR g_quark_from_static_string("tuner-plan-sim")

/* One plan's base configuration and workload. */
typedef struct {
	struct linsched_config cfg;
	struct hackbench_params hb;
} Prepared;

/* One simulation's outcome. */
typedef struct {
	double runtime_ns, switches, switches_measured;
} Outcome;

/* What the jobs share: job k is (plan, setting, replicate) in that nesting. */
typedef struct {
	const PlanSim *ps;
	const PlanSet *set;
	Prepared *prep;	   /* per plan */
	guint *first;	   /* per plan: its first job */
	Outcome *outcomes; /* per job */
	guint n_jobs;
} Work;

gboolean plan_sim_prepare(const struct workload_cli *flags, const PlanSpec *plan,
			  const struct linsched_machine *m, struct linsched_config *cfg,
			  struct hackbench_params *hb, GError **error)
{
	const struct hackbench_shape shape = {
		plan->hb.groups,   plan->hb.loops, plan->hb.fds,
		plan->hb.datasize, plan->hb.pipe,  plan->hb.threads,
	};
	const struct linsched_cli *sim = &flags->sim;

	if (!linsched_cli_config_on(sim, m, cfg, error) ||
	    !hackbench_cli_params_shaped(&flags->hb, &shape, &cfg->machine, hb, error)) {
		g_prefix_error(error, "plan %s: ", plan->name);
		return FALSE;
	}
	hackbench_cli_adjust_config(sim, hb, cfg);
	/* The host's steal was part of what the real runs ran on (vm_steal.h): suffer it too. */
	if (plan->real && plan->real->steal_runs > 0 && !flag_given(&sim->flags, &sim->steal)) {
		cfg->costs.steal_ppm = (uint64_t)llround(plan->real->steal_ppm);
		if (!flag_given(&sim->flags, &sim->stall_ns) && plan->real->stall_ns >= 1)
			cfg->costs.stall_ns = (uint64_t)llround(plan->real->stall_ns);
		if (!linsched_config_validate(cfg, error)) {
			g_prefix_error(error, "plan %s: its measured steal: ", plan->name);
			return FALSE;
		}
	}
	return TRUE;
}

static void count_switch(void *ctx, int cpu, uint64_t now, const struct linsched_task *prev,
			 const struct linsched_task *next)
{
	(void)cpu, (void)now, (void)prev, (void)next;
	(*(uint64_t *)ctx)++;
}

/* Which plan, setting and replicate job k is. */
static void locate(const Work *w, guint k, guint *plan, guint *setting, guint *replicate)
{
	const guint R = w->ps->replicates;
	guint p = 0;

	while (p + 1 < w->set->plans->len && w->first[p + 1] <= k)
		p++;
	*plan = p;
	*setting = (k - w->first[p]) / R;
	*replicate = (k - w->first[p]) % R;
}

static gboolean simulate_job(guint k, void *ctx, GError **error)
{
	Work *w = ctx;
	guint p, s, r;

	locate(w, k, &p, &s, &r);

	const PlanSpec *plan = plan_set_plan(w->set, p);
	const RealSetting *rs = real_plan_setting(plan->real, s);
	struct linsched_config cfg = w->prep[p].cfg;

	cfg.tun.latency = rs->knobs.latency_ns;
	cfg.tun.min_granularity = rs->knobs.min_granularity_ns;
	cfg.tun.wakeup_granularity = rs->knobs.wakeup_granularity_ns;
	if (rs->migration_cost_ns >= 0)
		cfg.tun.migration_cost = (uint64_t)rs->migration_cost_ns;
	cfg.seed = w->prep[p].cfg.seed + r;
	if (!linsched_config_validate(&cfg, error)) {
		g_prefix_error(error, "plan %s, setting %s: ", plan->name, rs->id);
		return FALSE;
	}
	sched_tunables_update(&cfg.tun);

	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &w->prep[p].hb);
	uint64_t all = 0;

	linsched_sim_set_switch_hook(sim, count_switch, &all);
	linsched_sim_run(sim);

	const struct linsched_result *res = linsched_sim_result(sim);
	gboolean deadlock = res->deadlock;

	w->outcomes[k] =
		(Outcome){ (double)res->runtime_ns, (double)all, (double)res->context_switches };
	hackbench_free(hb);
	linsched_sim_free(sim);
	if (deadlock) {
		g_set_error(error, PLAN_SIM_ERROR, 1,
			    "plan %s, setting %s: the simulated workload deadlocked", plan->name,
			    rs->id);
		return FALSE;
	}
	return TRUE;
}

static double median_of(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* Medians over the replicates of each setting of plan p. */
static SimSetting *summarise(const Work *w, guint p)
{
	const RealPlan *real = plan_set_plan(w->set, p)->real;
	const guint R = w->ps->replicates, n = real->settings->len;
	const Outcome *o = w->outcomes + w->first[p];
	const Outcome *ref = o + (gsize)real->reference_index * R;
	SimSetting *out = g_new(SimSetting, n);
	g_autofree double *v = g_new(double, R);

	for (guint s = 0; s < n; s++) {
		const Outcome *os = o + (gsize)s * R;

		for (guint r = 0; r < R; r++)
			v[r] = ref[r].runtime_ns > 0 ? os[r].runtime_ns / ref[r].runtime_ns : NAN;
		out[s].ratio = median_of(v, R);
		for (guint r = 0; r < R; r++)
			v[r] = os[r].switches;
		out[s].switches = median_of(v, R);
		for (guint r = 0; r < R; r++)
			v[r] = os[r].switches_measured;
		out[s].switches_measured = median_of(v, R);
		for (guint r = 0; r < R; r++)
			v[r] = os[r].runtime_ns;
		out[s].runtime_ns = median_of(v, R);
	}
	return out;
}

void plan_sim_free(SimSetting **sims, guint n)
{
	if (!sims)
		return;
	for (guint p = 0; p < n; p++)
		g_free(sims[p]);
	g_free(sims);
}

gboolean plan_sim_run(const PlanSim *ps, const PlanSet *set, const struct linsched_machine *m,
		      SimSetting ***out, GError **error)
{
	const guint n_plans = set->plans->len;
	g_autofree Prepared *prep = g_new(Prepared, n_plans);
	g_autofree guint *first = g_new(guint, n_plans);
	Work w = { ps, set, prep, first, NULL, 0 };

	g_return_val_if_fail(ps->replicates >= 1, FALSE);
	for (guint p = 0; p < n_plans; p++) {
		const PlanSpec *plan = plan_set_plan(set, p);

		if (!plan_sim_prepare(ps->flags, plan, m, &prep[p].cfg, &prep[p].hb, error))
			return FALSE;
		first[p] = w.n_jobs;
		w.n_jobs += plan->real->settings->len * ps->replicates;
	}
	w.outcomes = g_new0(Outcome, w.n_jobs);
	if (!evaluator_map(ps->ev, w.n_jobs, simulate_job, &w, error)) {
		g_free(w.outcomes);
		return FALSE;
	}
	*out = g_new(SimSetting *, n_plans);
	for (guint p = 0; p < n_plans; p++)
		(*out)[p] = summarise(&w, p);
	g_free(w.outcomes);
	return TRUE;
}
