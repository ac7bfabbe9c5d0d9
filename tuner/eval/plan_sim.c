/*
 * plan_sim.c - every setting of the real plans, simulated (see plan_sim.h).
 */
#include "tuner/eval/plan_sim.h"

#include <math.h>
#include <string.h>

#include "tuner/stats/median.h"

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
	guint *per;	   /* per plan: replicates per setting (its rounds when twins) */
	gboolean *twins;   /* per plan: a twin of every real run (plan_sim_twins) */
	Outcome *outcomes; /* per job */
	guint n_jobs;
} Work;

/* Whether the twins of plan suffer the stalls the guest saw. */
static gboolean seen_by_guest(gboolean guest_stalls, const PlanSpec *plan)
{
	return guest_stalls && plan->real && plan->real->guest_runs > 0;
}

gboolean plan_sim_twins(const struct workload_cli *flags, gboolean guest_stalls,
			const PlanSpec *plan)
{
	const struct linsched_cli *sim = &flags->sim;

	return plan->real && (plan->real->steal_runs > 0 || seen_by_guest(guest_stalls, plan)) &&
	       !flag_given(&sim->flags, &sim->steal) &&
	       !(flag_given(&sim->flags, &sim->host_cpus) && sim->host_cpus > 0 &&
		 !flag_given(&sim->flags, &sim->shared_ns));
}

/*
 * Stalls as measured (the host's steal, or what the guest saw) in place of the machine's, and
 * their spread where it was measured (NaN: the machine's). What the guest saw includes the
 * machine's own noise, so that goes; --stall-ns and --stall-cv, when given, still win.
 */
static void suffer_stalls(const struct linsched_cli *sim, double ppm, double ns, double cv_pct,
			  gboolean by_guest, struct linsched_config *cfg)
{
	cfg->costs.steal_ppm = (uint64_t)llround(ppm);
	if (!flag_given(&sim->flags, &sim->stall_ns) && ns >= 1)
		cfg->costs.stall_ns = (uint64_t)llround(ns);
	if (!isnan(cv_pct) && !flag_given(&sim->flags, &sim->stall_cv))
		cfg->costs.stall_cv = cv_pct / 100.0;
	if (by_guest) {
		cfg->costs.noise_ppm = 0;
		cfg->costs.long_ppm = 0;
	}
}

/*
 * Whether the flips the guest recorded at the real runs' forks start the simulated parent: a
 * parent start only (at a barrier start nobody inherits), and neither --parent-flips nor the
 * plan's own parent_flips given.
 */
static gboolean measured_flips(const struct workload_cli *flags, const PlanSpec *plan,
			       const struct hackbench_params *hb)
{
	return plan->real && plan->real->flips_runs > 0 && plan->parent_flips < 0 &&
	       hb->start == HACKBENCH_START_PARENT &&
	       !flag_given(&flags->hb.flags, &flags->hb.parent_flips);
}

gboolean plan_sim_prepare(const struct workload_cli *flags, gboolean guest_stalls,
			  const PlanSpec *plan, const struct linsched_machine *m,
			  struct linsched_config *cfg, struct hackbench_params *hb, GError **error)
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
	/* The kernel preempted as the plan says, unless the flag says otherwise. */
	if (plan->preempt && !sim->preempt)
		cfg->preempt = linsched_preempt_parse(plan->preempt);
	/* A parent whose flips the guest fixed (linsched launch) starts the twins with the same. */
	if (plan->parent_flips >= 0 && !flag_given(&flags->hb.flags, &flags->hb.parent_flips)) {
		if (hb->start != HACKBENCH_START_PARENT) {
			g_set_error(
				error, PLAN_SIM_ERROR, 0,
				"plan %s: parent_flips: the workers inherit them from the parent "
				"of --start parent; give it",
				plan->name);
			return FALSE;
		}
		hb->parent_flips = (unsigned int)plan->parent_flips;
	} else if (measured_flips(flags, plan, hb)) {
		/* The guest recorded them: their median, which each twin replaces by its run's. */
		hb->parent_flips = (unsigned int)llround(plan->real->parent_flips);
	}
	/* The stalls were part of what the real runs ran on (vm_steal.h, make-plan.sh -n): suffer
	 * them too, as the guest saw them when it did, else the host's steal. */
	gboolean twins = plan_sim_twins(flags, guest_stalls, plan);
	gboolean by_guest = twins && seen_by_guest(guest_stalls, plan);

	if (twins) {
		const RealPlan *real = plan->real;

		if (by_guest)
			suffer_stalls(sim, real->guest_ppm, real->guest_ns, real->guest_cv_pct,
				      TRUE, cfg);
		else
			suffer_stalls(sim, real->steal_ppm, real->stall_ns, plan->stall_cv_pct,
				      FALSE, cfg);
	}
	/*
	 * A host that switched at its ticks: the host's stalls on that grid, the measured steal of
	 * the twins or the flags' steal or turns, unless a flag says. The stalls the guest saw keep
	 * their measured shape.
	 */
	if (!by_guest && plan->host_hz && !flag_given(&sim->flags, &sim->host_hz)) {
		cfg->costs.host_hz = plan->host_hz;
		if (!flag_given(&sim->flags, &sim->host_lead_ns))
			cfg->costs.host_lead_ns = plan->host_lead_ns;
	}
	if ((twins || plan->host_hz) && !linsched_config_validate(cfg, error)) {
		g_prefix_error(error, "plan %s: %s: ", plan->name,
			       twins ? "its measured stalls" : "its host's ticks");
		return FALSE;
	}
	return TRUE;
}

static void count_switch(void *ctx, int cpu, uint64_t now, const struct linsched_task *prev,
			 const struct linsched_task *next)
{
	(void)cpu, (void)now, (void)prev, (void)next;
	(*(uint64_t *)ctx)++;
}

/* A plan's simulations per setting: with twins the replicates of each of its rounds' runs, else
 * the replicates. */
static guint per_setting(const PlanSim *ps, const PlanSpec *plan)
{
	return plan_sim_twins(ps->flags, ps->guest_stalls, plan)
		       ? plan->real->rounds * ps->replicates
		       : ps->replicates;
}

guint64 plan_sim_count(const PlanSim *ps, const PlanSet *set)
{
	guint64 n = 0;

	for (guint p = 0; p < set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(set, p);

		n += (guint64)plan->real->settings->len * per_setting(ps, plan);
	}
	return n;
}

/* With twins, a setting's slot r is replicate r % replicates of round r / replicates's run. */
static guint slot_round(const PlanSim *ps, guint r)
{
	return r / ps->replicates;
}

/* Which plan, setting and replicate (or slot, with twins) job k is. */
static void locate(const Work *w, guint k, guint *plan, guint *setting, guint *replicate)
{
	guint p = 0;

	while (p + 1 < w->set->plans->len && w->first[p + 1] <= k)
		p++;
	*plan = p;
	*setting = (k - w->first[p]) / w->per[p];
	*replicate = (k - w->first[p]) % w->per[p];
}

/* A twin suffers the stalls measured for its run: what the guest saw when those are asked for
 * and the plan has them, else the host's steal; a run without its measurement, the plan's
 * medians (as prepared). */
static void twin_steal(const PlanSim *ps, const PlanSpec *plan, const RealSetting *rs, guint round,
		       struct linsched_config *cfg)
{
	const RealStalls *g = &rs->round_guest[round];
	gboolean guest = seen_by_guest(ps->guest_stalls, plan);

	if (guest && g->ppm >= 0)
		suffer_stalls(&ps->flags->sim, (double)g->ppm, (double)g->ns, (double)g->cv_pct,
			      TRUE, cfg);
	else if (!guest && rs->round_steal_ppm[round] >= 0)
		suffer_stalls(&ps->flags->sim, (double)rs->round_steal_ppm[round],
			      (double)rs->round_stall_ns[round], plan->stall_cv_pct, FALSE, cfg);
}

/*
 * A twin in spells (the machine's or the flags' --host-cpus with spells) spends the share of its
 * time in turns that the host had the vCPU threads share host CPUs in its run (vm/run-plan.sh's
 * shared_pct; a run without it, the plan's median), over the spells' cycle as given: never (the
 * steal alone) or always (the turns alone) at the ends. Unless the plan has no such measurement,
 * or --shared-ns or --apart-ns fixes the spells.
 */
static void twin_spells(const PlanSim *ps, const PlanSpec *plan, const RealSetting *rs, guint round,
			struct linsched_config *cfg)
{
	const struct linsched_cli *sim = &ps->flags->sim;
	struct linsched_costs *c = &cfg->costs;

	if (!c->shared_ns || !plan->real->shared_runs || flag_given(&sim->flags, &sim->shared_ns) ||
	    flag_given(&sim->flags, &sim->apart_ns))
		return;
	double pct = rs->round_shared_pct[round] >= 0 ? (double)rs->round_shared_pct[round]
						      : plan->real->shared_pct;
	uint64_t cycle = c->shared_ns + c->apart_ns;

	if (pct <= 0) {
		c->host_cpus = 0;
		c->shared_ns = c->apart_ns = 0;
	} else if (pct >= 100) {
		c->steal_ppm = 0;
		c->shared_ns = c->apart_ns = 0;
	} else {
		/* Both at least 1 ns: a spell of 0 is none, which needs both kinds gone. */
		c->shared_ns = MAX(1, (uint64_t)llround((double)cycle * pct / 100.0));
		c->apart_ns = MAX(1, cycle - MIN(c->shared_ns, cycle));
	}
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
	if (w->twins[p]) {
		/* Seed + round, then + rounds for each further replicate, so that one replicate is
		 * the twins' seeds of old. */
		guint round = slot_round(w->ps, r);

		cfg.seed = w->prep[p].cfg.seed + round +
			   (guint64)plan->real->rounds * (r % w->ps->replicates);
		twin_steal(w->ps, plan, rs, round, &cfg);
		twin_spells(w->ps, plan, rs, round, &cfg);
	} else {
		cfg.seed = w->prep[p].cfg.seed + r;
	}
	if (!linsched_config_validate(&cfg, error)) {
		g_prefix_error(error, "plan %s, setting %s: ", plan->name, rs->id);
		return FALSE;
	}
	sched_tunables_update(&cfg.tun);

	struct hackbench_params hbp = w->prep[p].hb;

	/* A twin's parent brings the flips its run's parent had, when the guest recorded them, and
	 * hands each worker what its real counterpart inherited. */
	if (w->twins[p] && measured_flips(w->ps->flags, plan, &hbp)) {
		guint round = slot_round(w->ps, r);
		const RealForks *forks = &rs->round_forks[round];

		if (rs->round_parent_flips[round] >= 0)
			hbp.parent_flips = (unsigned int)rs->round_parent_flips[round];
		hbp.fork_flips = forks->flips;
		hbp.n_fork_flips = MIN(forks->n, hackbench_nr_tasks(&hbp));
	}

	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &hbp);
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

/*
 * Medians over the replicates of each setting of plan p; with twins over the rounds and their
 * replicates, a ratio only where the setting and the reference both ran (as the real ratios are),
 * dividing replicates of the same seed, the rest where the setting ran.
 */
static SimSetting *summarise(const Work *w, guint p)
{
	const RealPlan *real = plan_set_plan(w->set, p)->real;
	const guint R = w->per[p], n = real->settings->len;
	const Outcome *o = w->outcomes + w->first[p];
	const Outcome *ref = o + (gsize)real->reference_index * R;
	const RealSetting *ref_real = real_plan_setting(real, real->reference_index);
	SimSetting *out = g_new(SimSetting, n);
	g_autofree double *ratio = g_new(double, R), *sw = g_new(double, R);
	g_autofree double *swm = g_new(double, R), *t = g_new(double, R);

	for (guint s = 0; s < n; s++) {
		const Outcome *os = o + (gsize)s * R;
		const RealSetting *rs = real_plan_setting(real, s);
		guint nr = 0, nv = 0;

		for (guint r = 0; r < R; r++) {
			guint round = slot_round(w->ps, r);

			if (w->twins[p] && !rs->in_round[round])
				continue;
			sw[nv] = os[r].switches;
			swm[nv] = os[r].switches_measured;
			t[nv++] = os[r].runtime_ns;
			if ((!w->twins[p] || ref_real->in_round[round]) && ref[r].runtime_ns > 0)
				ratio[nr++] = os[r].runtime_ns / ref[r].runtime_ns;
		}
		out[s].ratio = nr ? stats_median(ratio, nr) : NAN;
		out[s].switches = nv ? stats_median(sw, nv) : NAN;
		out[s].switches_measured = nv ? stats_median(swm, nv) : NAN;
		out[s].runtime_ns = nv ? stats_median(t, nv) : NAN;
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
	g_autofree guint *first = g_new(guint, n_plans), *per = g_new(guint, n_plans);
	g_autofree gboolean *twins = g_new(gboolean, n_plans);
	Work w = { ps, set, prep, first, per, twins, NULL, 0 };

	g_return_val_if_fail(ps->replicates >= 1, FALSE);
	for (guint p = 0; p < n_plans; p++) {
		const PlanSpec *plan = plan_set_plan(set, p);

		if (!plan_sim_prepare(ps->flags, ps->guest_stalls, plan, m, &prep[p].cfg,
				      &prep[p].hb, error))
			return FALSE;
		twins[p] = plan_sim_twins(ps->flags, ps->guest_stalls, plan);
		per[p] = per_setting(ps, plan);
		first[p] = w.n_jobs;
		w.n_jobs += plan->real->settings->len * per[p];
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
