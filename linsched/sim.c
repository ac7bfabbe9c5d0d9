/*
 * sim.c - the simulation engine (see sim.h).
 *
 * A CPU running a task has one pending event: the earlier of its next tick and the instant the
 * task finishes what it owes (its unpaid costs, then the work of its step). Time between events is
 * charged lazily: cpu_account() settles a CPU's account whenever something looks at it. After each
 * event the CPUs whose need_resched was set are rescheduled at the same instant.
 */
#include "linsched/sim.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "kernel-extract/sched_class.h"
#include "kernel-extract/sched_core.h"
#include "linsched/cache.h"
#include "linsched/event.h"
#include "linsched/sched_debug.h"

enum event_kind {
	EV_CPU,
	EV_TIMER,
	EV_SPELL, /* the host moves the CPUs between sharing host CPUs and CPUs of their own */
	EV_STALL  /* + the stall source: a CPU's stall_ev[source] */
};

/* The independent sources of stalls: the host's steal, the machine's own noise, short and long. */
enum stall_source {
	STALL_STEAL,
	STALL_NOISE,
	STALL_NOISE_LONG,
	NR_STALL_SOURCES
};

struct linsched_task {
	struct task_struct ts; /* the scheduler's view; first, so the two convert cheaply */
	struct linsched_sim *sim;
	const struct linsched_task_ops *ops;
	void *data;
	char name[LINSCHED_COMM_LEN];
	int id;
	bool started;

	uint64_t remaining;   /* CPU work left in the current step */
	uint64_t overhead;    /* costs to pay before that work continues */
	bool in_kernel;	      /* in a system call until those are paid (linsched_step.kernel) */
	uint64_t preempt_off; /* of overhead, what it pays before its CPU may reschedule */
	/*
	 * A waker of a machine that splits its wakeups (costs.wakeup_tail_ns): the tasks it is
	 * waking, on their wq_node, in order. The head is queued once the waker has paid what it
	 * owed when the head's wakeup began (preempt_off reaches 0).
	 */
	struct list_head waking;
	bool waking_begun; /* the head's part before its queueing is charged */
	uint64_t wake_ns;  /* as a wakee on a waker's list: its wakeup's local cost, drawn */
	bool wake_sync;	   /* and whether its waker is about to sleep (WF_SYNC) */
	/*
	 * A block, sleep or exit decided while costs were still owed takes effect once they are paid.
	 * A block is already on its wait queue (the kernel's prepare_to_wait), so a wakeup in between
	 * is not lost: it cancels the block.
	 */
	bool deferred;
	struct linsched_step deferred_step;

	struct list_head wq_node; /* on a wait queue while blocked or about to block */
	struct event timer;	  /* a sleep's end */
	struct cache_entry cache;
	gsl_rng *rng; /* created on first use */
	bool exited;
	uint64_t exit_ns;
};

/* A virtual CPU in turns (costs.host_cpus): halted CPUs want no host CPU, waiting ones wait. */
enum turn_state {
	TURN_HALTED,  /* nothing to run: it gives its host CPU away (held, not queued) */
	TURN_WAITING, /* work to run, no host CPU: queued, held */
	TURN_RUNNING, /* on a host CPU until its turn ends (stall_ev[STALL_STEAL]) */
};

struct linsched_cpu {
	struct event ev;
	/* Per source of stalls: the next stall's start, or the current one's end. */
	struct event stall_ev[NR_STALL_SOURCES];
	int id;
	uint64_t seg_start; /* when curr's account was last settled */
	uint64_t next_tick; /* 0: no tick (idle) */
	uint64_t busy_since;
	bool held[NR_STALL_SOURCES]; /* in a stall of that source */
	bool stalled;		     /* held by any: nothing on it executes */
	uint64_t ipi_at;	     /* a reschedule IPI in flight arrives then (costs.ipi_ns) */
	enum turn_state turn;	     /* with costs.host_cpus */
};

/* One source of stalls (linsched_costs: steal_*, noise_*); rng NULL: the source is off. */
struct stall_model {
	gsl_rng *rng;
	uint64_t ppm, mean_ns;
	double cv;
	uint64_t grid_ns; /* > 0: stalls on the host's ticks of this period (costs.host_hz) */
};

struct linsched_sim {
	struct linsched_config cfg;
	struct sched_system sys;
	struct event_heap events;
	struct linsched_cpu *cpus;
	struct cache_domain *caches;
	GPtrArray *tasks;
	uint64_t tick_ns;
	uint64_t now;
	uint64_t epoch;
	uint64_t last_exit;
	unsigned int alive;
	struct linsched_result result;
	linsched_switch_fn switch_fn;
	void *switch_ctx;
	linsched_wakeup_fn wakeup_fn;
	void *wakeup_ctx;
	linsched_epoch_fn epoch_fn;
	void *epoch_ctx;
	struct sched_debug debug; /* the -DSCHED_DEBUG build's checks (unused otherwise) */
	gsl_rng *cost_rng;	  /* costs.jitter_cv > 0 only */
	struct stall_model stalls[NR_STALL_SOURCES];
	/* Stall events always pending: one per CPU of each source on, one per host CPU in turns,
	 * and the end of the current spell. */
	size_t stall_events;
	uint64_t stalled_mask; /* CPUs in a stall */
	/* A reschedule may have to wait (resched_held_mask): not under full preemption without
	 * IPI flights or split wakeups, the common case, which skips the look. */
	bool resched_may_wait;
	/* Turns (costs.host_cpus): the CPUs waiting for a host CPU, from turn_head, longest first;
	 * and the host CPUs no CPU holds. */
	unsigned int turn_queue[SCHED_MAX_CPUS];
	unsigned int turn_head, turn_waiting, turns_free;
	/* Spells (costs.shared_ns, apart_ns): whether the CPUs now share host CPUs in turns (always,
	 * with host_cpus alone), the current spell's end, and the stream that draws the spells. */
	bool in_turns;
	struct event spell_ev;
	gsl_rng *spell_rng;
};

static inline struct linsched_task *task_of_ts(const struct task_struct *ts)
{
	return (struct linsched_task *)ts;
}

/* ---------------------------------------------------------------- configuration */

void linsched_config_init(struct linsched_config *cfg, const struct sched_profile *profile,
			  unsigned int nr_cpus)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile = profile ? profile : sched_profile_default();
	cfg->nr_cpus = nr_cpus;
	cfg->nr_domains = 1;
	cfg->hz = 1000;
	cfg->preempt = LINSCHED_PREEMPT_FULL;
	cfg->tun = sched_tunables_default(cfg->profile, nr_cpus);
	linsched_machine_builtin(&cfg->machine);
	linsched_config_set_machine(cfg, &cfg->machine);
	cfg->seed = 1;
}

void linsched_config_set_machine(struct linsched_config *cfg, const struct linsched_machine *m)
{
	cfg->machine = *m;
	cfg->costs = (struct linsched_costs){
		.switch_ns = m->switch_ns,
		.wakeup_ns = m->wakeup_ns,
		.wakeup_remote_ns = m->wakeup_remote_ns,
		.ipi_ns = m->ipi_ns,
		.wakeup_tail_ns = m->wakeup_tail_ns,
		.migrate_ns = m->migrate_ns,
		.cache_lines = m->cache_lines,
		.miss_ps = m->miss_ps,
		.cache_ways = m->cache_ways,
		.data_cache_lines = m->data_cache_lines,
		.data_miss_ps = m->data_miss_ps,
		.steal_ppm = m->steal_ppm,
		.stall_ns = m->stall_ns,
		.host_hz = m->host_hz,
		.host_lead_ns = m->host_lead_ns,
		.host_cpus = (unsigned int)m->host_cpus,
		.shared_ns = m->shared_ns,
		.apart_ns = m->apart_ns,
		.stall_cv = (double)m->stall_cv_pct / 100.0,
		.noise_ppm = m->noise_ppm,
		.noise_ns = m->noise_ns,
		.noise_cv = (double)m->noise_cv_pct / 100.0,
		.long_ppm = m->long_ppm,
		.long_ns = m->long_ns,
		.long_cv = (double)m->long_cv_pct / 100.0,
	};
	if (m->hz)
		cfg->hz = m->hz;
	if (m->preempt != LINSCHED_PREEMPT_UNSET)
		cfg->preempt = m->preempt;
}

#define CONFIG_ERROR g_quark_from_static_string("linsched-config")

/* One of [noise]'s sources, prefix_ppm, prefix_ns and prefix_cv_pct in machine.ini. */
static bool valid_noise_source(const char *prefix, uint64_t ppm, uint64_t ns, double cv,
			       GError **error)
{
	if (ppm < LINSCHED_PPM && (!ppm || ns) && cv > 0 && cv <= LINSCHED_MAX_STALL_CV)
		return true;
	g_set_error(error, CONFIG_ERROR, 1,
		    "--machine: [noise] needs %s_ppm below %llu, %s_ns of at least 1 and "
		    "%s_cv_pct in 1..%d",
		    prefix, LINSCHED_PPM, prefix, prefix, (int)(LINSCHED_MAX_STALL_CV * 100));
	return false;
}

/* The profile's kernel's knobs within the ranges it accepts (sysctl, or debugfs for EEVDF). */
static bool validate_knobs(const struct sched_profile *profile, const struct sched_tunables *t,
			   GError **error)
{
	if (profile->knobs == SCHED_KNOBS_EEVDF) {
		if (t->base_slice > SCHED_BASE_SLICE_MAX) {
			g_set_error(error, CONFIG_ERROR, 1,
				    "--base-slice-ns: %" G_GUINT64_FORMAT
				    " is outside the debugfs range %llu..%llu",
				    t->base_slice, SCHED_BASE_SLICE_MIN, SCHED_BASE_SLICE_MAX);
			return false;
		}
		return true;
	}
	if (t->latency < SCHED_LATENCY_MIN || t->latency > SCHED_LATENCY_MAX) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--latency-ns: %" G_GUINT64_FORMAT
			    " is outside the sysctl range %llu..%llu",
			    t->latency, SCHED_LATENCY_MIN, SCHED_LATENCY_MAX);
		return false;
	}
	if (t->min_granularity < SCHED_MIN_GRAN_MIN || t->min_granularity > SCHED_MIN_GRAN_MAX) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--min-gran-ns: %" G_GUINT64_FORMAT
			    " is outside the sysctl range %llu..%llu",
			    t->min_granularity, SCHED_MIN_GRAN_MIN, SCHED_MIN_GRAN_MAX);
		return false;
	}
	if (t->wakeup_granularity > SCHED_WAKEUP_GRAN_MAX) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--wakeup-gran-ns: %" G_GUINT64_FORMAT
			    " is outside the sysctl range %llu..%llu",
			    t->wakeup_granularity, SCHED_WAKEUP_GRAN_MIN, SCHED_WAKEUP_GRAN_MAX);
		return false;
	}
	return true;
}

bool linsched_config_validate(const struct linsched_config *cfg, GError **error)
{
	const struct sched_tunables *t = &cfg->tun;

	if (cfg->nr_cpus == 0 || cfg->nr_cpus > SCHED_MAX_CPUS) {
		g_set_error(error, CONFIG_ERROR, 1, "--cpus: %u is not in 1..%d", cfg->nr_cpus,
			    SCHED_MAX_CPUS);
		return false;
	}
	if (cfg->nr_domains == 0 || cfg->nr_cpus % cfg->nr_domains != 0) {
		g_set_error(error, CONFIG_ERROR, 1, "--domains: %u does not divide %u CPUs evenly",
			    cfg->nr_domains, cfg->nr_cpus);
		return false;
	}
	if (!linsched_hz_valid(cfg->hz)) {
		g_set_error(error, CONFIG_ERROR, 1, "--hz: %u is not one of 100, 250, 300, 1000",
			    cfg->hz);
		return false;
	}
	if (!linsched_preempt_name(cfg->preempt)) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--preempt: not one of " LINSCHED_PREEMPT_NAMES);
		return false;
	}
	if (!validate_knobs(cfg->profile, t, error))
		return false;
	if (cfg->costs.cache_lines == 0) {
		g_set_error(error, CONFIG_ERROR, 1, "--cache-lines: must be at least 1");
		return false;
	}
	if (cfg->costs.cache_ways > CACHE_MAX_WAYS) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "cache_ways: %" G_GUINT64_FORMAT
			    " is more than %d (0: fully associative)",
			    cfg->costs.cache_ways, CACHE_MAX_WAYS);
		return false;
	}
	if (cfg->costs.data_cache_lines > LINSCHED_MAX_DATA_CACHE_LINES) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "data_cache_lines: %" G_GUINT64_FORMAT " is more than %llu (64 TiB)",
			    cfg->costs.data_cache_lines, LINSCHED_MAX_DATA_CACHE_LINES);
		return false;
	}
	if (cfg->costs.ipi_ns > NSEC_PER_SEC || cfg->costs.wakeup_tail_ns > NSEC_PER_SEC) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "%s: %" G_GUINT64_FORMAT " ns is more than a second",
			    cfg->costs.ipi_ns > NSEC_PER_SEC ? "ipi_ns" : "wakeup_tail_ns",
			    cfg->costs.ipi_ns > NSEC_PER_SEC ? cfg->costs.ipi_ns
							     : cfg->costs.wakeup_tail_ns);
		return false;
	}
	if (cfg->costs.steal_ppm >= LINSCHED_PPM) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--steal-ppm: %" G_GUINT64_FORMAT " is not below %llu (a CPU the host "
			    "never runs)",
			    cfg->costs.steal_ppm, LINSCHED_PPM);
		return false;
	}
	if (cfg->costs.host_cpus && cfg->costs.host_cpus >= cfg->nr_cpus) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--host-cpus: %u host CPUs for %u virtual CPUs leave none waiting; "
			    "at most %u",
			    cfg->costs.host_cpus, cfg->nr_cpus, cfg->nr_cpus - 1);
		return false;
	}
	if (!cfg->costs.shared_ns != !cfg->costs.apart_ns) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--shared-ns, --apart-ns: spells alternate between the two; give both");
		return false;
	}
	if (cfg->costs.shared_ns && !cfg->costs.host_cpus) {
		g_set_error(
			error, CONFIG_ERROR, 1,
			"--shared-ns: the CPUs share --host-cpus host CPUs in its spells; give it");
		return false;
	}
	if (cfg->costs.host_cpus && cfg->costs.steal_ppm && !cfg->costs.shared_ns) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--host-cpus: the CPUs' turns replace --steal's stalls; give one, or "
			    "spells of each (--shared-ns, --apart-ns)");
		return false;
	}
	if (cfg->costs.host_hz && !linsched_hz_valid(cfg->costs.host_hz)) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--host-hz: %u is not one of 100, 250, 300, 1000 (0: no host tick)",
			    cfg->costs.host_hz);
		return false;
	}
	if (cfg->costs.host_hz && cfg->costs.host_lead_ns >= NSEC_PER_SEC / cfg->costs.host_hz) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--host-lead-ns: %" G_GUINT64_FORMAT " is not below the host's tick of "
			    "%" G_GUINT64_FORMAT " ns",
			    cfg->costs.host_lead_ns, (uint64_t)(NSEC_PER_SEC / cfg->costs.host_hz));
		return false;
	}
	if (((cfg->costs.steal_ppm && !cfg->costs.host_hz) || cfg->costs.host_cpus) &&
	    cfg->costs.stall_ns == 0) {
		g_set_error(error, CONFIG_ERROR, 1,
			    "--stall-ns: steal and turns need stalls of some length (at least 1 "
			    "ns)");
		return false;
	}
	if (!(cfg->costs.stall_cv > 0 && cfg->costs.stall_cv <= LINSCHED_MAX_STALL_CV)) {
		g_set_error(error, CONFIG_ERROR, 1, "--stall-cv: %g is not in (0, %g]",
			    cfg->costs.stall_cv, LINSCHED_MAX_STALL_CV);
		return false;
	}
	if (!valid_noise_source("noise", cfg->costs.noise_ppm, cfg->costs.noise_ns,
				cfg->costs.noise_cv, error) ||
	    !valid_noise_source("long", cfg->costs.long_ppm, cfg->costs.long_ns, cfg->costs.long_cv,
				error))
		return false;
	if (!(cfg->costs.jitter_cv >= 0 && cfg->costs.jitter_cv <= LINSCHED_MAX_JITTER_CV)) {
		g_set_error(error, CONFIG_ERROR, 1, "--cost-jitter: %g is not in 0..%g",
			    cfg->costs.jitter_cv, LINSCHED_MAX_JITTER_CV);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- helpers */

static inline struct rq *sim_rq(struct linsched_sim *sim, int cpu)
{
	return cpu_rq(&sim->sys, cpu);
}

static inline struct linsched_task *cpu_curr(struct linsched_sim *sim, int cpu)
{
	struct task_struct *ts = sim_rq(sim, cpu)->curr;

	return ts ? task_of_ts(ts) : NULL;
}

/* Settles what curr has paid and worked since the last look. */
static void cpu_account(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	struct linsched_task *t = cpu_curr(sim, cpu->id);
	uint64_t elapsed = sim->now - cpu->seg_start;

	cpu->seg_start = sim->now;
	/* A stalled CPU executed nothing: its task owes what it owed. */
	if (!t || elapsed == 0 || cpu->stalled)
		return;

	uint64_t paid = elapsed < t->overhead ? elapsed : t->overhead;

	t->overhead -= paid;
	t->preempt_off -= paid < t->preempt_off ? paid : t->preempt_off;
	elapsed -= paid;
	t->remaining -= elapsed < t->remaining ? elapsed : t->remaining;
}

static bool ipi_in_flight(const struct linsched_sim *sim, const struct linsched_cpu *cpu)
{
	return cpu->ipi_at > sim->now;
}

/* Its next event: the end of what curr owes, a tick, the end of a window without preemption, or
 * the arrival of an IPI (idle or not). */
static void cpu_rearm(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	struct linsched_task *t = cpu_curr(sim, cpu->id);
	uint64_t when = UINT64_MAX;

	/* Work, ticks and interrupts wait for the stall's end, which rearms. */
	if (!cpu->stalled && t) {
		when = cpu->seg_start + t->overhead + t->remaining;
		if (cpu->next_tick && cpu->next_tick < when)
			when = cpu->next_tick;
		if (t->preempt_off && cpu->seg_start + t->preempt_off < when)
			when = cpu->seg_start + t->preempt_off;
	}
	if (!cpu->stalled && ipi_in_flight(sim, cpu) && cpu->ipi_at < when)
		when = cpu->ipi_at;
	if (when == UINT64_MAX)
		event_cancel(&sim->events, &cpu->ev);
	else
		event_schedule(&sim->events, &cpu->ev, when);
}

static void sim_migrate_hook(struct task_struct *p, int from, int to, void *ctx)
{
	struct linsched_sim *sim = ctx;

	(void)from;
	(void)to;
	task_of_ts(p)->overhead += sim->cfg.costs.migrate_ns;
}

/* ---------------------------------------------------------------- lifecycle */

/* splitmix64: spreads (seed, id) over the seed space so that streams of neighbours differ. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The mean length, in host ticks, of a stall (stall true) or of a run on the host's tick grid.
 * A stall lasts mean_ns on average, at least one tick, and a run what makes the stalls
 * take ppm of the time; where that run would be shorter than a tick, runs last one tick and the
 * stalls what makes ppm.
 */
static double grid_mean_ticks(const struct stall_model *m, bool stall)
{
	double share = (double)m->ppm / (double)LINSCHED_PPM;
	double stall_ticks = fmax(1.0, (double)m->mean_ns / (double)m->grid_ns);
	double run_ticks = stall_ticks * (1.0 - share) / share;

	if (run_ticks < 1.0) {
		run_ticks = 1.0;
		stall_ticks = share / (1.0 - share);
	}
	return stall ? stall_ticks : run_ticks;
}

/*
 * A stall or a run on the host's tick grid, in whole ticks: the host switches between the
 * virtual CPU and its other work only at its ticks, and each keeps the host CPU for a geometric
 * number of them (one, or a turn it wins again, or a slice of the other work that needs more
 * than one tick).
 */
static uint64_t grid_ticks(const struct stall_model *m, double mean)
{
	if (mean <= 1.0)
		return m->grid_ns;
	return gsl_ran_geometric(m->rng, 1.0 / mean) * m->grid_ns;
}

static uint64_t grid_draw(const struct stall_model *m, bool stall)
{
	return grid_ticks(m, grid_mean_ticks(m, stall));
}

/*
 * The length of a stall, or of the run until the next one. Stalls are gamma distributed with
 * mean mean_ns and coefficient of variation cv (exponential at CV 1: a host that takes the CPU
 * at random moments for random times; above 1 a few long stalls among many short ones, as a
 * loaded host's are). Runs are exponential, with the mean that makes stalls take ppm of the
 * time, so stalls start at random moments. At least 1 ns, so that the two alternate.
 */
static uint64_t stall_draw(const struct stall_model *m, bool stall)
{
	if (m->grid_ns)
		return grid_draw(m, stall);

	double mean = (double)m->mean_ns;

	if (stall) {
		double cv2 = m->cv * m->cv;

		return (uint64_t)llround(gsl_ran_gamma(m->rng, 1.0 / cv2, mean * cv2)) + 1;
	}
	mean *= (double)(LINSCHED_PPM - m->ppm) / (double)m->ppm;
	return (uint64_t)llround(gsl_ran_exponential(m->rng, mean)) + 1;
}

/* The first of the host's ticks after now (m on its grid). */
static uint64_t host_tick_after(const struct linsched_sim *sim, const struct stall_model *m)
{
	uint64_t lead = sim->cfg.costs.host_lead_ns;

	return ((sim->now + lead) / m->grid_ns + 1) * m->grid_ns - lead;
}

/*
 * When a stall, run or turn of len that begins now ends: on the host's tick grid len is whole ticks
 * counted from the tick now falls in, so that it ends on a tick (the first is what is left of it).
 */
static uint64_t ends_after(const struct linsched_sim *sim, const struct stall_model *m,
			   uint64_t len)
{
	return m->grid_ns ? host_tick_after(sim, m) - m->grid_ns + len : sim->now + len;
}

/*
 * A CPU's first stall on the host's tick grid: at one of the host ticks of an average cycle (a
 * run and a stall), drawn uniformly, so that the CPUs start at different points of it and not
 * all in step.
 */
static uint64_t grid_first_stall(struct linsched_sim *sim, const struct stall_model *m)
{
	double cycle = grid_mean_ticks(m, false) + grid_mean_ticks(m, true);
	unsigned long k = gsl_rng_uniform_int(m->rng, (unsigned long)lround(cycle));

	return host_tick_after(sim, m) + k * m->grid_ns;
}

/*
 * A source of stalls (the steal source's also draws the turns): a stream of its own, seeded by
 * the simulation's seed and salt, so that a source changes when things happen, not what the
 * tasks or the other sources draw.
 */
static void stall_model_init(struct linsched_sim *sim, enum stall_source src, uint64_t ppm,
			     uint64_t mean_ns, double cv, uint64_t salt)
{
	struct stall_model *m = &sim->stalls[src];

	*m = (struct stall_model){ gsl_rng_alloc(gsl_rng_taus2), ppm, mean_ns, cv, 0 };
	gsl_rng_set(m->rng, (unsigned long)mix64(sim->cfg.seed ^ salt));
	if (src == STALL_STEAL && sim->cfg.costs.host_hz)
		m->grid_ns = NSEC_PER_SEC / sim->cfg.costs.host_hz;
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		struct event *ev = &sim->cpus[i].stall_ev[src];

		event_init(ev);
		ev->kind = EV_STALL + (int)src;
	}
}

/* Starts a source's stalls (ppm > 0): the first run until a stall on every CPU, from now. */
static void stall_source_start(struct linsched_sim *sim, enum stall_source src)
{
	const struct stall_model *m = &sim->stalls[src];

	if (!m->ppm)
		return;
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++)
		event_schedule(&sim->events, &sim->cpus[i].stall_ev[src],
			       m->grid_ns ? grid_first_stall(sim, m)
					  : sim->now + stall_draw(m, false));
	sim->stall_events += sim->cfg.nr_cpus;
}

/* Turns a source of stalls on, from the start (ppm > 0). */
static void stall_source_init(struct linsched_sim *sim, enum stall_source src, uint64_t ppm,
			      uint64_t mean_ns, double cv, uint64_t salt)
{
	if (!ppm)
		return;
	stall_model_init(sim, src, ppm, mean_ns, cv, salt);
	stall_source_start(sim, src);
}

/*
 * Turns in place of the host's independent stalls (costs.host_cpus), at the start: every CPU
 * halted, with nothing to run, and all host CPUs free; work arriving hands them out
 * (turns_settle).
 */
static void turns_init(struct linsched_sim *sim)
{
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		struct linsched_cpu *cpu = &sim->cpus[i];

		cpu->turn = TURN_HALTED;
		cpu->held[STALL_STEAL] = cpu->stalled = true;
		sim->stalled_mask |= 1ULL << i;
	}
	sim->turns_free = sim->cfg.costs.host_cpus;
	sim->in_turns = true;
}

/* The current spell's end: exponential, of the mean of its kind (the host moves at random). */
static void spell_schedule(struct linsched_sim *sim)
{
	const struct linsched_costs *c = &sim->cfg.costs;
	double mean = (double)(sim->in_turns ? c->shared_ns : c->apart_ns);
	uint64_t len = (uint64_t)llround(gsl_ran_exponential(sim->spell_rng, mean)) + 1;

	event_schedule(&sim->events, &sim->spell_ev, sim->now + len);
}

/*
 * Spells (costs.shared_ns, apart_ns), at the start: a stream of their own, and the first spell
 * drawn by the share of the time each kind takes, so that a run starts anywhere in them.
 */
static void spells_init(struct linsched_sim *sim, uint64_t salt)
{
	const struct linsched_costs *c = &sim->cfg.costs;
	double shared = (double)c->shared_ns / ((double)c->shared_ns + (double)c->apart_ns);

	sim->spell_rng = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(sim->spell_rng, (unsigned long)mix64(sim->cfg.seed ^ salt));
	event_init(&sim->spell_ev);
	sim->spell_ev.kind = EV_SPELL;
	sim->stall_events++;
	if (gsl_rng_uniform(sim->spell_rng) < shared)
		turns_init(sim);
	else
		stall_source_start(sim, STALL_STEAL);
	spell_schedule(sim);
}

struct linsched_sim *linsched_sim_new(const struct linsched_config *cfg)
{
	struct linsched_sim *sim = g_new0(struct linsched_sim, 1);

	sim->cfg = *cfg;
	sim->resched_may_wait = cfg->preempt != LINSCHED_PREEMPT_FULL || cfg->costs.ipi_ns ||
				cfg->costs.wakeup_tail_ns;
	if (!sched_system_init(&sim->sys, cfg->nr_cpus, cfg->nr_domains, &cfg->tun, cfg->profile)) {
		g_free(sim);
		return NULL;
	}
	sim->sys.tick_nsec = NSEC_PER_SEC / cfg->hz;
	sim->sys.migrate_hook = sim_migrate_hook;
	sim->sys.hook_ctx = sim;
	event_heap_init(&sim->events);
	sim->tick_ns = NSEC_PER_SEC / cfg->hz;
	sim->cpus = g_new0(struct linsched_cpu, cfg->nr_cpus);
	for (unsigned int i = 0; i < cfg->nr_cpus; i++) {
		event_init(&sim->cpus[i].ev);
		sim->cpus[i].ev.kind = EV_CPU;
		sim->cpus[i].id = (int)i;
	}
	sim->caches = g_new0(struct cache_domain, cfg->nr_domains);
	for (unsigned int d = 0; d < cfg->nr_domains; d++) {
		cache_domain_init(&sim->caches[d], cfg->costs.cache_lines);
		cache_domain_set_ways(&sim->caches[d], (unsigned int)cfg->costs.cache_ways);
	}
	sim->tasks = g_ptr_array_new();
	sim->result.cpu_busy_ns = g_new0(uint64_t, cfg->nr_cpus);
	sim->result.nr_cpus = cfg->nr_cpus;
	if (cfg->costs.jitter_cv > 0) {
		/* Its own stream, so that the tasks' streams are the same with and without jitter. */
		sim->cost_rng = gsl_rng_alloc(gsl_rng_taus2);
		gsl_rng_set(sim->cost_rng, (unsigned long)mix64(cfg->seed ^ 0x636f737473ULL));
	}
	/* The turns too are the steal source's: its stream draws them. */
	if (cfg->costs.host_cpus || cfg->costs.steal_ppm)
		stall_model_init(sim, STALL_STEAL, cfg->costs.steal_ppm, cfg->costs.stall_ns,
				 cfg->costs.stall_cv, 0x737465616cULL);
	if (cfg->costs.shared_ns)
		spells_init(sim, 0x7370656c6c73ULL);
	else if (cfg->costs.host_cpus)
		turns_init(sim);
	else
		stall_source_start(sim, STALL_STEAL);
	stall_source_init(sim, STALL_NOISE, cfg->costs.noise_ppm, cfg->costs.noise_ns,
			  cfg->costs.noise_cv, 0x6e6f697365ULL);
	stall_source_init(sim, STALL_NOISE_LONG, cfg->costs.long_ppm, cfg->costs.long_ns,
			  cfg->costs.long_cv, 0x6c6f6e67ULL);
	return sim;
}

void linsched_sim_free(struct linsched_sim *sim)
{
	if (!sim)
		return;
	for (unsigned int i = 0; i < sim->tasks->len; i++) {
		struct linsched_task *t = g_ptr_array_index(sim->tasks, i);

		if (t->ops->free)
			t->ops->free(t->data);
		if (t->rng)
			gsl_rng_free(t->rng);
		g_free(t);
	}
	g_ptr_array_free(sim->tasks, TRUE);
	if (sim->cost_rng)
		gsl_rng_free(sim->cost_rng);
	if (sim->spell_rng)
		gsl_rng_free(sim->spell_rng);
	for (int src = 0; src < NR_STALL_SOURCES; src++)
		if (sim->stalls[src].rng)
			gsl_rng_free(sim->stalls[src].rng);
	g_free(sim->result.cpu_busy_ns);
	g_free(sim->caches);
	g_free(sim->cpus);
	event_heap_destroy(&sim->events);
	sched_system_destroy(&sim->sys);
	g_free(sim);
}

const struct linsched_config *linsched_sim_config(const struct linsched_sim *sim)
{
	return &sim->cfg;
}

uint64_t linsched_sim_now(const struct linsched_sim *sim)
{
	return sim->now;
}

uint64_t linsched_sim_tick_ns(const struct linsched_sim *sim)
{
	return sim->tick_ns;
}

uint64_t linsched_sim_debug_checks(const struct linsched_sim *sim)
{
	return sim->debug.checks;
}

/* Counters restart with the epoch, so that a workload's set-up is not part of its results. */
void linsched_sim_set_epoch(struct linsched_sim *sim)
{
	sim->epoch = sim->now;
	sim->result.context_switches = 0;
	sim->sys.nr_migrations = 0;
	memset(&sim->sys.wake_stats, 0, sizeof(sim->sys.wake_stats));
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		sim->result.cpu_busy_ns[i] = 0;
		sim->cpus[i].busy_since = sim->now;
	}
	if (sim->epoch_fn)
		sim->epoch_fn(sim->epoch_ctx, sim);
}

void linsched_sim_set_epoch_hook(struct linsched_sim *sim, linsched_epoch_fn fn, void *ctx)
{
	sim->epoch_fn = fn;
	sim->epoch_ctx = ctx;
}

void linsched_sim_set_switch_hook(struct linsched_sim *sim, linsched_switch_fn fn, void *ctx)
{
	sim->switch_fn = fn;
	sim->switch_ctx = ctx;
}

void linsched_sim_set_wakeup_hook(struct linsched_sim *sim, linsched_wakeup_fn fn, void *ctx)
{
	sim->wakeup_fn = fn;
	sim->wakeup_ctx = ctx;
}

/* ---------------------------------------------------------------- tasks */

struct linsched_task *linsched_task_create(struct linsched_sim *sim,
					   const struct linsched_task_ops *ops, void *data,
					   const char *name, int nice)
{
	return linsched_task_create_sliced(sim, ops, data, name, nice, 0);
}

struct linsched_task *linsched_task_create_sliced(struct linsched_sim *sim,
						  const struct linsched_task_ops *ops, void *data,
						  const char *name, int nice, uint64_t slice_ns)
{
	struct linsched_task *t = g_new0(struct linsched_task, 1);

	t->sim = sim;
	t->ops = ops;
	t->data = data;
	t->id = (int)sim->tasks->len;
	g_strlcpy(t->name, name, sizeof(t->name));
	INIT_LIST_HEAD(&t->wq_node);
	INIT_LIST_HEAD(&t->waking);
	event_init(&t->timer);
	t->timer.kind = EV_TIMER;
	cache_entry_init(&t->cache, 0);
	g_ptr_array_add(sim->tasks, t);
	sim->alive++;

	/* pid 0 is the idle task's in a kernel; ours start at 1. */
	sched_fork(&sim->sys, &t->ts, t->id + 1, nice);
	if (slice_ns)
		sched_setattr_runtime(&t->ts, slice_ns);
	sim->sys.clock = sim->now;
	int this_cpu = 0;

	wake_up_new_task(&sim->sys, &t->ts, this_cpu);
	return t;
}

void *linsched_task_data(const struct linsched_task *t)
{
	return t->data;
}

struct linsched_sim *linsched_task_sim(const struct linsched_task *t)
{
	return t->sim;
}

int linsched_task_id(const struct linsched_task *t)
{
	return t->id;
}

uint64_t linsched_cost(struct linsched_sim *sim, uint64_t mean_ns)
{
	if (!sim->cost_rng || mean_ns == 0)
		return mean_ns;

	/* Gamma with shape 1/cv^2 and scale mean cv^2: mean and CV exact, never negative, and
	 * lighter-tailed than a lognormal of the same CV, as the spread of a syscall's time is. */
	double cv2 = sim->cfg.costs.jitter_cv * sim->cfg.costs.jitter_cv;

	return (uint64_t)llround(gsl_ran_gamma(sim->cost_rng, 1.0 / cv2, (double)mean_ns * cv2));
}

struct cache_stamp linsched_data_write(struct linsched_task *t, uint64_t bytes)
{
	struct linsched_sim *sim = t->sim;

	return cache_data_enter(sim->caches, sim_rq(sim, t->ts.cpu)->node, bytes);
}

uint64_t linsched_data_read_ns(struct linsched_task *t, struct cache_stamp s, uint64_t bytes)
{
	struct linsched_sim *sim = t->sim;
	const struct linsched_costs *c = &sim->cfg.costs;

	if (c->data_cache_lines == 0)
		return 0;
	uint64_t lines = cache_data_evicted(sim->caches, sim_rq(sim, t->ts.cpu)->node, s, bytes,
					    c->data_cache_lines * CACHE_LINE_BYTES);

	sim->result.data_miss_lines += lines;
	return lines * c->data_miss_ps / 1000;
}

gsl_rng *linsched_task_rng(struct linsched_task *t)
{
	if (!t->rng) {
		t->rng = gsl_rng_alloc(gsl_rng_taus2);
		gsl_rng_set(t->rng,
			    (unsigned long)mix64(t->sim->cfg.seed ^ mix64((uint64_t)t->id)));
	}
	return t->rng;
}

void linsched_task_set_footprint(struct linsched_task *t, uint64_t lines)
{
	t->cache.footprint = lines;
}

void linsched_task_forked_by(struct linsched_task *t, const struct linsched_task *parent)
{
	sched_fork_inherit(&t->ts, &parent->ts);
}

void linsched_task_set_wakee_flips(struct linsched_task *t, unsigned int flips)
{
	t->ts.wakee_flips = flips;
}

void linsched_task_charge(struct linsched_task *t, uint64_t ns)
{
	t->overhead += ns;
}

const struct task_struct *linsched_task_sched(const struct linsched_task *t)
{
	return &t->ts;
}

const struct sched_system *linsched_sim_sched(const struct linsched_sim *sim)
{
	return &sim->sys;
}

unsigned int linsched_sim_nr_tasks(const struct linsched_sim *sim)
{
	return sim->tasks->len;
}

struct linsched_task *linsched_sim_task(const struct linsched_sim *sim, unsigned int i)
{
	return g_ptr_array_index(sim->tasks, i);
}

void linsched_task_stats(const struct linsched_task *t, struct linsched_task_stats *out)
{
	out->id = t->id;
	out->name = t->name;
	out->nice = task_nice(&t->ts);
	out->cpu = t->ts.cpu;
	out->sum_exec_ns = t->ts.se.sum_exec_runtime;
	out->run_delay_ns = t->ts.sched_info.run_delay;
	out->pcount = t->ts.sched_info.pcount;
	out->nvcsw = t->ts.nvcsw;
	out->nivcsw = t->ts.nivcsw;
	out->nr_migrations = t->ts.se.nr_migrations;
	out->exited = t->exited;
	out->exit_ns = t->exited ? t->exit_ns - t->sim->epoch : 0;
}

/* ---------------------------------------------------------------- wait queues */

void linsched_waitqueue_init(struct linsched_waitqueue *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
	wq->lifo = false;
}

void linsched_waitqueue_init_lifo(struct linsched_waitqueue *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
	wq->lifo = true;
}

bool linsched_waitqueue_active(const struct linsched_waitqueue *wq)
{
	return !list_empty(&wq->waiters);
}

/*
 * A wakeup on this_cpu made cpu reschedule, which it was not due to before. The kernel sets the
 * flag at once; this_cpu acts on it at its next preemption point, another CPU when the IPI
 * arrives (costs.ipi_ns), or sooner if it gets there by itself: a tick, its task's sleep, its
 * return to user space (cpu_event). An idle CPU waits for the IPI as well.
 */
static void resched_cpu_from(struct linsched_sim *sim, int this_cpu, int cpu)
{
	struct linsched_cpu *target = &sim->cpus[cpu];

	if (cpu == this_cpu) {
		target->ipi_at = 0;
		return;
	}
	if (!sim->cfg.costs.ipi_ns)
		return;
	target->ipi_at = sim->now + sim->cfg.costs.ipi_ns;
	cpu_rearm(sim, target);
}

/* waker NULL: a timer's wakeup, reported on the target CPU. */
static void wake_task(struct linsched_sim *sim, struct linsched_task *waker,
		      struct linsched_task *t, int this_cpu, int wake_flags)
{
	uint64_t kicked = sim->sys.resched_mask;

	sim->sys.clock = sim->now;
	if (!try_to_wake_up(&sim->sys, &t->ts, this_cpu, wake_flags))
		return;
	if (~kicked & sim->sys.resched_mask & (1ULL << t->ts.cpu))
		resched_cpu_from(sim, this_cpu, t->ts.cpu);
	if (sim->wakeup_fn)
		sim->wakeup_fn(sim->wakeup_ctx, waker ? waker->ts.cpu : t->ts.cpu,
			       sim->now - sim->epoch, waker, t, t->ts.cpu);
}

/*
 * Whether the waker pays wakeup_remote_ns for waking t, given the CPUs already due to reschedule
 * before it did. A wakeup onto another CPU interrupts that CPU (an IPI: resched_curr(), or the
 * wake list of an idle CPU) only when it makes that CPU reschedule; one that queues t behind a
 * running task that keeps the CPU costs what a local wakeup does. That IPI is what
 * wakeup_remote_ns measures (the probe wakes a sleeper onto a CPU that runs a spinner, which the
 * sleeper preempts), and under a hypervisor it is the dear part: the sender's write to the
 * interrupt controller exits to the host.
 */
static bool wakeup_is_remote(const struct linsched_sim *sim, const struct linsched_task *waker,
			     const struct linsched_task *t, uint64_t kicked)
{
	uint64_t bit = 1ULL << t->ts.cpu;
	bool ipi = t->ts.cpu != waker->ts.cpu && !(kicked & bit) && (sim->sys.resched_mask & bit);

	return ipi && sim->cfg.costs.wakeup_remote_ns;
}

/* Before a wakee is queued, a waker that splits its wakeups pays all but the tail. */
static uint64_t wake_before_ns(const struct linsched_sim *sim, uint64_t wake_ns)
{
	uint64_t tail = sim->cfg.costs.wakeup_tail_ns;

	return wake_ns > tail ? wake_ns - tail : 0;
}

/*
 * A machine that splits its wakeups (costs.wakeup_tail_ns > 0) wakes as the kernel does: the
 * waker pays most of try_to_wake_up before the wakee is on a queue and the rest after (the tail,
 * or the IPI to another CPU), all of it with preemption off, one wakee after another. This queues
 * the wakees whose turn has come, the waker's account settled: each once the waker has paid
 * what it owed up to then, which preempt_off counts down.
 */
static void waking_advance(struct linsched_sim *sim, struct linsched_task *waker)
{
	while (!list_empty(&waker->waking)) {
		struct linsched_task *t =
			list_first_entry(&waker->waking, struct linsched_task, wq_node);

		if (!waker->waking_begun) {
			waker->waking_begun = true;
			waker->overhead += wake_before_ns(sim, t->wake_ns);
			waker->preempt_off = waker->overhead;
		}
		if (waker->preempt_off)
			return;
		list_del_init(&t->wq_node);
		waker->waking_begun = false;

		uint64_t kicked = sim->sys.resched_mask;

		wake_task(sim, waker, t, waker->ts.cpu, t->wake_sync ? WF_SYNC : 0);

		uint64_t cost = wakeup_is_remote(sim, waker, t, kicked)
					? linsched_cost(sim, sim->cfg.costs.wakeup_remote_ns)
					: t->wake_ns;
		uint64_t before = wake_before_ns(sim, t->wake_ns);

		waker->overhead += cost > before ? cost - before : 0;
		waker->preempt_off = waker->overhead;
	}
}

unsigned int linsched_wake_up(struct linsched_task *waker, struct linsched_waitqueue *wq,
			      unsigned int nr, bool sync)
{
	struct linsched_sim *sim = waker->sim;
	bool split = sim->cfg.costs.wakeup_tail_ns > 0;
	unsigned int woken = 0;

	while (!list_empty(&wq->waiters) && (nr == 0 || woken < nr)) {
		struct linsched_task *t =
			list_first_entry(&wq->waiters, struct linsched_task, wq_node);

		list_del_init(&t->wq_node);
		woken++;
		if (t->ts.state != TASK_INTERRUPTIBLE) {
			/* It had not gone to sleep yet: it simply will not. */
			t->deferred = false;
			continue;
		}
		if (split) {
			t->wake_ns = linsched_cost(sim, sim->cfg.costs.wakeup_ns);
			t->wake_sync = sync;
			list_add_tail(&t->wq_node, &waker->waking);
			continue;
		}
		/* Otherwise the wakee is queued at once and the waker pays after, preemptible. */
		uint64_t kicked = sim->sys.resched_mask;

		wake_task(sim, waker, t, waker->ts.cpu, sync ? WF_SYNC : 0);
		waker->overhead += linsched_cost(sim, wakeup_is_remote(sim, waker, t, kicked)
							      ? sim->cfg.costs.wakeup_remote_ns
							      : sim->cfg.costs.wakeup_ns);
	}
	if (split)
		waking_advance(sim, waker);
	return woken;
}

/* ---------------------------------------------------------------- steps */

/* The task stops being runnable (blocked, asleep or dead): its CPU must pick another. */
static void apply_step(struct linsched_sim *sim, struct linsched_task *t,
		       const struct linsched_step *step)
{
	struct rq *rq = sim_rq(sim, t->ts.cpu);

	switch (step->kind) {
	case LINSCHED_STEP_BLOCK:
		t->ts.state = TASK_INTERRUPTIBLE;
		break;
	case LINSCHED_STEP_SLEEP:
		t->ts.state = TASK_INTERRUPTIBLE;
		event_schedule(&sim->events, &t->timer, sim->now + step->ns);
		break;
	case LINSCHED_STEP_EXIT:
		t->ts.state = TASK_DEAD;
		t->exited = true;
		t->exit_ns = sim->now;
		sim->last_exit = sim->now;
		sim->alive--;
		/* Its lines stay in the LRU: they were loaded, and evicted others', before it exited. */
		break;
	case LINSCHED_STEP_RUN:
		g_assert_not_reached();
	}
	resched_curr(rq);
	/* It calls schedule() itself. */
	sim->cpus[t->ts.cpu].ipi_at = 0;
}

/* A model that keeps answering "run 0 ns" would stall virtual time forever. */
#define MAX_EMPTY_STEPS 1000000

/* curr owes nothing: carry out a deferred step, or ask the model for the next one. */
static void task_step(struct linsched_sim *sim, struct linsched_task *t)
{
	if (t->deferred) {
		t->deferred = false;
		apply_step(sim, t, &t->deferred_step);
		return;
	}
	if (!t->started) {
		t->started = true;
		if (t->ops->start)
			t->ops->start(t);
	}
	for (unsigned int n = 0; n < MAX_EMPTY_STEPS; n++) {
		struct linsched_step step = { .kind = LINSCHED_STEP_EXIT };

		t->ops->next(t, &step);
		/* A block or sleep is a system call the task wakes up inside. */
		t->in_kernel = step.kind != LINSCHED_STEP_RUN || step.kernel;
		if (step.kind == LINSCHED_STEP_RUN) {
			t->remaining = step.ns;
			if (step.ns == 0 && t->overhead == 0)
				continue;
			return;
		}
		if (step.kind == LINSCHED_STEP_BLOCK) {
			if (step.wq->lifo)
				list_add(&t->wq_node, &step.wq->waiters);
			else
				list_add_tail(&t->wq_node, &step.wq->waiters);
		}
		if (t->overhead) {
			t->deferred = true;
			t->deferred_step = step;
			return;
		}
		apply_step(sim, t, &step);
		return;
	}
	g_error("task %s (%s) made %d steps of no work in a row", t->name, t->ops->kind,
		MAX_EMPTY_STEPS);
}

/* ---------------------------------------------------------------- scheduling */

static void do_schedule(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	struct rq *rq = sim_rq(sim, cpu->id);
	struct linsched_task *prev = cpu_curr(sim, cpu->id);

	cpu_account(sim, cpu);
	sim->sys.clock = sim->now;
	/* An IPI still in flight will find nothing to do. */
	cpu->ipi_at = 0;

	struct task_struct *next_ts = schedule(rq);
	struct linsched_task *next = next_ts ? task_of_ts(next_ts) : NULL;

	if (prev != next) {
		sim->result.context_switches++;
		if (sim->switch_fn)
			sim->switch_fn(sim->switch_ctx, cpu->id, sim->now - sim->epoch, prev, next);
		if (prev && !next) {
			sim->result.cpu_busy_ns[cpu->id] += sim->now - cpu->busy_since;
			cpu->next_tick = 0;
		}
		if (!prev && next) {
			cpu->busy_since = sim->now;
			cpu->next_tick = (sim->now / sim->tick_ns + 1) * sim->tick_ns;
		}
		if (next) {
			const struct linsched_costs *c = &sim->cfg.costs;
			uint64_t lines = cache_switch_in(sim->caches, rq->node, &next->cache);

			/* Reloaded lines push older data in flight out, as written data does. */
			if (lines && c->data_cache_lines)
				cache_data_enter(sim->caches, rq->node, lines * CACHE_LINE_BYTES);

			next->overhead +=
				linsched_cost(sim, c->switch_ns) + lines * c->miss_ps / 1000;
		}
	}
	cpu->seg_start = sim->now;
	cpu_rearm(sim, cpu);
}

static void cpu_event(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	struct rq *rq = sim_rq(sim, cpu->id);
	struct linsched_task *t = cpu_curr(sim, cpu->id);

	cpu_account(sim, cpu);
	/* A task back from a system call sees a reschedule asked of its CPU without the IPI. */
	if (t && t->in_kernel && t->overhead == 0 && t->remaining == 0)
		cpu->ipi_at = 0;
	if (t && t->preempt_off == 0 && !list_empty(&t->waking))
		waking_advance(sim, t);
	/* A task in user space has not seen a reschedule whose IPI is still in flight: it runs on.
	 * Without full preemption a step decided inside a system call (a block after a read that
	 * found nothing) is part of it: the task sleeps, reschedule or not. */
	bool resched = rq->need_resched && !ipi_in_flight(sim, cpu);

	if (t && t->overhead == 0 && t->remaining == 0 &&
	    (!resched || (t->deferred && sim->cfg.preempt != LINSCHED_PREEMPT_FULL)))
		task_step(sim, t);
	if (cpu->next_tick && sim->now >= cpu->next_tick) {
		/* The timer interrupt does what the IPI would have. */
		cpu->ipi_at = 0;
		cpu->next_tick += sim->tick_ns;
		/* After a stall the timer interrupts it missed arrive as one. */
		if (cpu->next_tick <= sim->now)
			cpu->next_tick = (sim->now / sim->tick_ns + 1) * sim->tick_ns;
		sim->sys.clock = sim->now;
		scheduler_tick(rq);
	}
	cpu_rearm(sim, cpu);
}

/*
 * A source of stalls takes the CPU (held) or gives it back. The sources are independent, so a
 * CPU is stalled while either holds it, and runs again when the last lets go.
 */
static void stall_hold(struct linsched_sim *sim, struct linsched_cpu *cpu, enum stall_source src,
		       bool held)
{
	bool was = cpu->stalled;

	/* Settle what it did before the stall, or skip (owing everything) over the stall. */
	cpu_account(sim, cpu);
	cpu->held[src] = held;
	cpu->stalled = false;
	for (int s = 0; s < NR_STALL_SOURCES; s++)
		cpu->stalled |= cpu->held[s];
	if (cpu->stalled == was)
		return;
	sim->stalled_mask ^= 1ULL << cpu->id;
	if (cpu->stalled)
		cpu_rearm(sim, cpu);
	else
		cpu_event(sim, cpu);
}

/* ---- turns: virtual CPUs that share host CPUs (costs.host_cpus) ---- */

/*
 * When a turn given now ends. On the host's ticks: at a tick, after a geometric number of them
 * (stall_ns on average, at least one), the first the rest of the tick it began in.
 */
static uint64_t turn_end_time(const struct linsched_sim *sim)
{
	const struct stall_model *m = &sim->stalls[STALL_STEAL];

	return ends_after(
		sim, m,
		m->grid_ns ? grid_ticks(m, fmax(1.0, (double)m->mean_ns / (double)m->grid_ns))
			   : stall_draw(m, true));
}

static void turn_grant(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	cpu->turn = TURN_RUNNING;
	event_schedule(&sim->events, &cpu->stall_ev[STALL_STEAL], turn_end_time(sim));
	sim->stall_events++;
	stall_hold(sim, cpu, STALL_STEAL, false);
}

/* A host CPU is given up: the CPU that waited longest takes it, or it stays free. */
static void turn_pass(struct linsched_sim *sim)
{
	if (!sim->turn_waiting) {
		sim->turns_free++;
		return;
	}
	struct linsched_cpu *next = &sim->cpus[sim->turn_queue[sim->turn_head]];

	sim->turn_head = (sim->turn_head + 1) % sim->cfg.nr_cpus;
	sim->turn_waiting--;
	turn_grant(sim, next);
}

static void turn_wait(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	unsigned int tail = (sim->turn_head + sim->turn_waiting) % sim->cfg.nr_cpus;

	sim->turn_queue[tail] = (unsigned int)cpu->id;
	sim->turn_waiting++;
	cpu->turn = TURN_WAITING;
	stall_hold(sim, cpu, STALL_STEAL, true);
}

/*
 * A CPU's turn ends: if another waits, it goes to the back of the queue and the CPU that waited
 * longest runs; if none does, the host has nobody else to run, and its turn goes on.
 */
static void turn_end(struct linsched_sim *sim, struct linsched_cpu *cpu)
{
	sim->stall_events--;
	if (!sim->turn_waiting) {
		turn_grant(sim, cpu);
		return;
	}
	turn_wait(sim, cpu);
	turn_pass(sim);
}

static bool cpu_has_work(struct linsched_sim *sim, const struct linsched_cpu *cpu)
{
	return cpu_curr(sim, cpu->id) || cpu_rq(&sim->sys, cpu->id)->nr_running ||
	       (sim->sys.resched_mask >> cpu->id & 1);
}

/*
 * Turns follow the work, as a host's scheduler runs only runnable vCPU threads: a running CPU
 * with nothing left to run halts (the guest's idle loop) and gives its host CPU away; a halted
 * CPU that work arrives on takes a free host CPU, or waits at the back of the queue. Whether
 * anything changed.
 */
static bool turns_settle(struct linsched_sim *sim)
{
	bool changed = false;

	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		struct linsched_cpu *cpu = &sim->cpus[i];
		bool work = cpu_has_work(sim, cpu);

		if (cpu->turn == TURN_RUNNING && !work) {
			event_cancel(&sim->events, &cpu->stall_ev[STALL_STEAL]);
			sim->stall_events--;
			cpu->turn = TURN_HALTED;
			stall_hold(sim, cpu, STALL_STEAL, true);
			turn_pass(sim);
			changed = true;
		} else if (cpu->turn == TURN_HALTED && work) {
			if (sim->turns_free) {
				sim->turns_free--;
				turn_grant(sim, cpu);
			} else {
				turn_wait(sim, cpu);
			}
			changed = true;
		}
	}
	return changed;
}

/* ---- spells: the host moves the CPUs between shared host CPUs and CPUs of their own ---- */

/*
 * A spell of turns begins: the steal's stalls stop, every CPU with work takes a free host CPU or
 * waits for one, in an order drawn (the host's choice), and the others halt.
 */
static void turns_begin(struct linsched_sim *sim)
{
	unsigned int n = sim->cfg.nr_cpus;
	unsigned int first = (unsigned int)gsl_rng_uniform_int(sim->spell_rng, n);

	if (sim->stalls[STALL_STEAL].ppm)
		sim->stall_events -= n;
	sim->turn_head = sim->turn_waiting = 0;
	sim->turns_free = sim->cfg.costs.host_cpus;
	for (unsigned int i = 0; i < n; i++) {
		struct linsched_cpu *cpu = &sim->cpus[(first + i) % n];

		event_cancel(&sim->events, &cpu->stall_ev[STALL_STEAL]);
		if (!cpu_has_work(sim, cpu)) {
			cpu->turn = TURN_HALTED;
			stall_hold(sim, cpu, STALL_STEAL, true);
		} else if (sim->turns_free) {
			sim->turns_free--;
			turn_grant(sim, cpu);
		} else {
			turn_wait(sim, cpu);
		}
	}
}

/*
 * A spell on CPUs of their own begins: the turns stop, and each CPU finds its host CPU's other
 * work running (a stall, with the steal's share of the time) or not (a run), as at any moment of
 * the steal, so that the spells apart hold the steal's share and not the more of the runs a
 * start would give them. A stall ends as any does: on the host's ticks, at one of them.
 */
static void steal_begin(struct linsched_sim *sim)
{
	struct stall_model *m = &sim->stalls[STALL_STEAL];

	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		struct linsched_cpu *cpu = &sim->cpus[i];

		if (cpu->turn == TURN_RUNNING)
			sim->stall_events--;
		event_cancel(&sim->events, &cpu->stall_ev[STALL_STEAL]);
		cpu->turn = TURN_HALTED;
	}
	sim->turn_head = sim->turn_waiting = 0;
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		struct linsched_cpu *cpu = &sim->cpus[i];
		bool stall = m->ppm && gsl_rng_uniform(m->rng) * LINSCHED_PPM < (double)m->ppm;

		if (m->ppm)
			event_schedule(&sim->events, &cpu->stall_ev[STALL_STEAL],
				       ends_after(sim, m, stall_draw(m, stall)));
		stall_hold(sim, cpu, STALL_STEAL, stall);
	}
	if (m->ppm)
		sim->stall_events += sim->cfg.nr_cpus;
}

static void spell_event(struct linsched_sim *sim)
{
	sim->in_turns = !sim->in_turns;
	if (sim->in_turns)
		turns_begin(sim);
	else
		steal_begin(sim);
	spell_schedule(sim);
}

/*
 * The CPUs that may not reschedule yet, each until a CPU event of its own (cpu_rearm):
 * - whose task is inside a system call it has not finished, which a kernel without full
 *   preemption lets finish (machine.h, linsched_preempt): until its return to user space, the end
 *   of what it owes, or its sleep;
 * - whose task is inside a split wakeup, which runs with preemption off (costs.wakeup_tail_ns);
 * - that an IPI in flight has yet to reach (costs.ipi_ns).
 * What a task owes ends at seg_start + what it owes, unless a stall holds it (which waits anyway).
 */
static uint64_t resched_held_mask(struct linsched_sim *sim, uint64_t cpus)
{
	bool voluntary = sim->cfg.preempt != LINSCHED_PREEMPT_FULL;
	uint64_t mask = 0;

	for (; cpus; cpus &= cpus - 1) {
		unsigned int i = (unsigned int)__builtin_ctzll(cpus);
		const struct linsched_cpu *cpu = &sim->cpus[i];
		const struct linsched_task *t = cpu_curr(sim, (int)i);
		bool held = ipi_in_flight(sim, cpu);

		if (t && voluntary && t->in_kernel &&
		    cpu->seg_start + t->overhead + t->remaining > sim->now)
			held = true;
		if (t && t->preempt_off && cpu->seg_start + t->preempt_off > sim->now)
			held = true;
		if (held)
			mask |= 1ULL << i;
	}
	return mask;
}

/* The CPUs due to reschedule that may do it now. */
static uint64_t resched_ready_mask(struct linsched_sim *sim)
{
	uint64_t want = sim->sys.resched_mask & ~sim->stalled_mask;

	return want && sim->resched_may_wait ? want & ~resched_held_mask(sim, want) : want;
}

/* A stalled CPU reschedules when its stall ends; in turns, a halted one once it has its turn. */
static void reschedule_pending(struct linsched_sim *sim)
{
	uint64_t pending;

	do {
		while ((pending = resched_ready_mask(sim)))
			do_schedule(sim, &sim->cpus[__builtin_ctzll(pending)]);
	} while (sim->in_turns && turns_settle(sim));
}

/* A stall begins or ends, and the source's next end or beginning is drawn; or a turn ends. */
static void stall_event(struct linsched_sim *sim, struct event *ev)
{
	enum stall_source src = (enum stall_source)(ev->kind - EV_STALL);
	/* ev is stall_ev[src] of its CPU: step back to stall_ev[0]. */
	struct linsched_cpu *cpu = container_of(ev - src, struct linsched_cpu, stall_ev[0]);
	bool held = !cpu->held[src];

	if (src == STALL_STEAL && sim->in_turns) {
		turn_end(sim, cpu);
		return;
	}
	event_schedule(&sim->events, ev, sim->now + stall_draw(&sim->stalls[src], held));
	stall_hold(sim, cpu, src, held);
}

/* With stalls, stall_events are always pending: nothing else can happen when no task is runnable
 * and no other event is queued. */
static bool only_steal_left(const struct linsched_sim *sim)
{
	if (!sim->stall_events || sim->events.len > sim->stall_events)
		return false;
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++)
		if (cpu_rq(&sim->sys, (int)i)->nr_running)
			return false;
	return true;
}

/* A timer has no waker: the woken task pays the wakeup (the interrupt's work on its behalf). */
static void timer_event(struct linsched_sim *sim, struct linsched_task *t)
{
	t->overhead += linsched_cost(sim, sim->cfg.costs.wakeup_ns);
	wake_task(sim, NULL, t, t->ts.cpu, 0);
}

/* Brings every account up to now, for a run that ends before its tasks do. */
static void settle_all(struct linsched_sim *sim)
{
	sim->sys.clock = sim->now;
	for (unsigned int i = 0; i < sim->cfg.nr_cpus; i++) {
		struct linsched_cpu *cpu = &sim->cpus[i];
		struct rq *rq = sim_rq(sim, (int)i);

		cpu_account(sim, cpu);
		if (rq->curr) {
			rq->curr->sched_class->update_curr(rq);
			sim->result.cpu_busy_ns[i] += sim->now - cpu->busy_since;
			cpu->busy_since = sim->now;
		}
	}
}

void linsched_sim_run(struct linsched_sim *sim)
{
	uint64_t end = sim->cfg.duration_ns ? sim->epoch + sim->cfg.duration_ns : UINT64_MAX;

	sim->sys.clock = sim->now;
	reschedule_pending(sim);

	while (sim->alive) {
		struct event *ev = event_peek(&sim->events);

		if (!ev || only_steal_left(sim)) {
			sim->result.deadlock = true;
			break;
		}
		if (ev->time > end)
			break;
		event_pop(&sim->events);
		sim->now = ev->time;
		if (ev->kind == EV_CPU)
			cpu_event(sim, container_of(ev, struct linsched_cpu, ev));
		else if (ev->kind == EV_TIMER)
			timer_event(sim, container_of(ev, struct linsched_task, timer));
		else if (ev->kind == EV_SPELL)
			spell_event(sim);
		else
			stall_event(sim, ev);
		reschedule_pending(sim);
#ifdef SCHED_DEBUG
		/* A task's task_struct comes first in it: the array reads as one of task_structs. */
		sched_debug_assert(&sim->debug, &sim->sys,
				   (const struct task_struct *const *)sim->tasks->pdata,
				   sim->tasks->len, sim->cfg.seed);
#endif
	}

	if (sim->alive && end != UINT64_MAX) {
		sim->now = end;
		settle_all(sim);
	}
	uint64_t finish = sim->alive ? sim->now : sim->last_exit;

	sim->result.runtime_ns = finish - sim->epoch;
	/* Counted from HZ, not from the rounded tick length (3333333 ns at HZ 300). */
	unsigned __int128 scaled = (unsigned __int128)sim->result.runtime_ns * sim->cfg.hz;

	sim->result.jiffies = (uint64_t)((scaled + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	sim->result.migrations = sim->sys.nr_migrations;
	sim->result.wakeups = sim->sys.wake_stats.wakeups;
	sim->result.wakeups_remote = sim->sys.wake_stats.remote;
	sim->result.wake_affine_attempts = sim->sys.wake_stats.affine_attempts;
	sim->result.wake_affine_moves = sim->sys.wake_stats.affine;
}

const struct linsched_result *linsched_sim_result(const struct linsched_sim *sim)
{
	return &sim->result;
}
