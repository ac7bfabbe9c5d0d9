/*
 * sched_balance.c - where tasks run: wakeup placement (select_task_rq_fair), periodic load
 * balancing from the tick, balancing on behalf of idle CPUs (which get no tick), and the pull a
 * CPU makes just before going idle. After the SMP half of the kernel's sched_fair.c and sched.c.
 *
 * Load is the instantaneous weighted load of a queue (the sum of its tasks' weights), where the
 * kernel uses decayed averages of it; the decisions (find the busiest group, then its busiest
 * queue, pull queued tasks worth the imbalance, skip cache-hot ones until balancing keeps failing)
 * are the kernel's.
 */
#include "kernel-extract/sched_balance.h"

#include <math.h>

#include "kernel-extract/sched_core.h"
#include "kernel-extract/sched_pelt.h"

/* What load balancing weighs: the PELT averages (LB_PELT: what a queue has had runnable lately,
 * how runnable a task has been), else the instantaneous weights. */
static bool lb_pelt(const struct sched_system *sys)
{
	return sched_feat(sys, SF_LB_PELT);
}

static unsigned long cpu_load(const struct sched_system *sys, int cpu)
{
	struct cfs_rq *cfs = &cpu_rq(sys, cpu)->cfs;

	return lb_pelt(sys) ? (unsigned long)llround(cfs_rq_load_avg(cfs)) : cfs->load.weight;
}

/* At least 1, as the kernel's task_h_load is taken: a long sleeper still counts as a task. */
static unsigned long task_load(const struct sched_system *sys, struct task_struct *p)
{
	if (!lb_pelt(sys))
		return p->se.load.weight;
	unsigned long load = (unsigned long)llround(task_load_avg(p));

	return load ? load : 1;
}

static const struct sched_domain *domain_spanning(const struct rq *rq, int cpu)
{
	for (unsigned int i = 0; i < rq->nr_sd; i++)
		if (rq->sd[i].span & (1ULL << cpu))
			return &rq->sd[i];
	return NULL;
}

/* ---------------------------------------------------------------- wakeup placement */

/* The least loaded CPU, for a new task (fork balancing). Ties go to the lowest CPU number. */
static int find_idlest_cpu(const struct sched_system *sys)
{
	int best = 0;

	for (int cpu = 1; cpu < (int)sys->nr_cpus; cpu++) {
		const struct rq *a = cpu_rq(sys, cpu), *b = cpu_rq(sys, best);

		if (a->cfs.load.weight < b->cfs.load.weight ||
		    (a->cfs.load.weight == b->cfs.load.weight && a->nr_running < b->nr_running))
			best = cpu;
	}
	return best;
}

/* An idle CPU, looking first among those sharing prev_cpu's cache. -1 if none. */
static int find_idle_cpu(const struct sched_system *sys, int prev_cpu)
{
	const struct rq *prev = cpu_rq(sys, prev_cpu);
	u64 idle = sys->idle_mask;
	u64 near = prev->nr_sd ? prev->sd[0].span : 1ULL << prev_cpu;

	if (prev->nr_sd && sys->nr_nodes > 1 && prev->sd[0].span_weight == sys->nr_cpus)
		near = 1ULL << prev_cpu;
	for (u64 mask = idle & near; mask; mask &= mask - 1) {
		int cpu = __builtin_ctzll(mask);

		if (idle_cpu(cpu_rq(sys, cpu)))
			return cpu;
	}
	for (u64 mask = idle & ~near; mask; mask &= mask - 1) {
		int cpu = __builtin_ctzll(mask);

		if (idle_cpu(cpu_rq(sys, cpu)))
			return cpu;
	}
	return -1;
}

/*
 * A synchronous waker is about to sleep, so its CPU will soon have the waker's load less: pull the
 * wakee there (sharing the waker's cache) if that leaves this CPU no more than half an
 * imbalance_pct busier than the wakee's previous CPU.
 */
static bool wake_affine_2_6_28(const struct sched_system *sys, const struct task_struct *p,
			       int prev_cpu, int this_cpu)
{
	const struct rq *this_rq = cpu_rq(sys, this_cpu);
	const struct sched_domain *sd = domain_spanning(this_rq, prev_cpu);
	unsigned long tl = this_rq->cfs.load.weight;
	unsigned long load = cpu_load(sys, prev_cpu);

	if (!sd)
		return false;
	if (this_rq->curr && tl >= this_rq->curr->se.load.weight)
		tl -= this_rq->curr->se.load.weight;

	unsigned long imbalance = 100 + (sd->imbalance_pct - 100) / 2;

	return tl == 0 || 100 * (tl + p->se.load.weight) <= imbalance * load;
}

/* ---------------------------------------------------------------- 6.1 wakeup placement */

static bool cpus_share_cache(const struct sched_system *sys, int a, int b)
{
	return cpu_rq(sys, a)->node == cpu_rq(sys, b)->node;
}

static unsigned int llc_size(const struct sched_system *sys)
{
	return sys->nr_cpus / sys->nr_nodes;
}

/*
 * The waker remembers whom it wakes: a task that keeps switching between wakees (a sender writing
 * to many receivers) is a one-to-many waker, whose flips are halved once a second.
 */
static void record_wakee(const struct sched_system *sys, struct task_struct *waker,
			 const struct task_struct *p)
{
	if (sys->clock > waker->wakee_flip_decay_ts + NSEC_PER_SEC) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay_ts = sys->clock;
	}
	if (waker->last_wakee != p) {
		waker->last_wakee = p;
		waker->wakee_flips++;
	}
}

/*
 * Pulling the wakee to the waker's cache pays when one wakes one; when both sides flip between
 * many partners (more than the CPUs sharing a cache can hold), spread them instead.
 */
static bool wake_wide(const struct sched_system *sys, const struct task_struct *waker,
		      const struct task_struct *p)
{
	unsigned int master = waker->wakee_flips, slave = p->wakee_flips;
	unsigned int factor = llc_size(sys);

	if (master < slave) {
		unsigned int t = master;

		master = slave;
		slave = t;
	}
	return !(slave < factor || master < slave * factor);
}

#define NO_CPU (-1)

/* WA_IDLE: an idle CPU that shares the cache wins; a sync waker alone on its CPU takes it. */
static int wake_affine_idle(const struct sched_system *sys, int this_cpu, int prev_cpu, int sync)
{
	if (idle_cpu(cpu_rq(sys, this_cpu)) && cpus_share_cache(sys, this_cpu, prev_cpu))
		return idle_cpu(cpu_rq(sys, prev_cpu)) ? prev_cpu : this_cpu;
	if (sync && cpu_rq(sys, this_cpu)->nr_running == 1)
		return this_cpu;
	if (idle_cpu(cpu_rq(sys, prev_cpu)))
		return prev_cpu;
	return NO_CPU;
}

/*
 * WA_WEIGHT with WA_BIAS: this CPU, if its load with the wakee (less a sync waker's) is below the
 * previous CPU's without it by more than half the domain's imbalance margin. Loads are PELT
 * averages: a sleeping wakee still weighs on the CPU it last ran on.
 */
static int wake_affine_weight(const struct sched_system *sys, const struct sched_domain *sd,
			      struct task_struct *p, struct task_struct *waker, int this_cpu,
			      int prev_cpu, int sync)
{
	double this_eff_load = cfs_rq_load_avg(&cpu_rq(sys, this_cpu)->cfs);
	double prev_eff_load = cfs_rq_load_avg(&cpu_rq(sys, prev_cpu)->cfs);
	double task_load = task_load_avg(p);

	if (sync && waker) {
		double current_load = task_load_avg(waker);

		if (current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= current_load;
	}
	this_eff_load += task_load;
	this_eff_load *= 100;
	prev_eff_load -= task_load;
	prev_eff_load *= 100 + (sd->imbalance_pct - 100) / 2;
	if (sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? this_cpu : NO_CPU;
}

static int wake_affine(struct sched_system *sys, const struct sched_domain *sd,
		       struct task_struct *p, struct task_struct *waker, int this_cpu, int prev_cpu,
		       int sync)
{
	int target = wake_affine_idle(sys, this_cpu, prev_cpu, sync);

	if (target == NO_CPU)
		target = wake_affine_weight(sys, sd, p, waker, this_cpu, prev_cpu, sync);
	sys->wake_stats.affine_attempts++;
	if (target != this_cpu)
		return prev_cpu;
	sys->wake_stats.affine++;
	return target;
}

/* The first idle CPU sharing target's cache, searched from the one after target. */
static int select_idle_cpu(const struct sched_system *sys, int target)
{
	unsigned int size = llc_size(sys), first = (unsigned int)target / size * size;

	for (unsigned int i = 1; i < size; i++) {
		int cpu = (int)(first + ((unsigned int)target - first + i) % size);

		if (idle_cpu(cpu_rq(sys, cpu)))
			return cpu;
	}
	return NO_CPU;
}

static int select_idle_sibling(const struct sched_system *sys, struct task_struct *p, int prev,
			       int target)
{
	if (idle_cpu(cpu_rq(sys, target)))
		return target;
	if (prev != target && cpus_share_cache(sys, prev, target) && idle_cpu(cpu_rq(sys, prev)))
		return prev;

	int recent = p->recent_used_cpu;

	p->recent_used_cpu = prev;
	if (recent >= 0 && recent != prev && recent != target &&
	    cpus_share_cache(sys, recent, target) && idle_cpu(cpu_rq(sys, recent)))
		return recent;

	int idle = select_idle_cpu(sys, target);

	return idle == NO_CPU ? target : idle;
}

/* The wakeup half of 6.1's select_task_rq_fair (this_cpu is the waker's, or the target's for a
 * timer). */
static int select_task_rq_wake(struct sched_system *sys, struct task_struct *p, int prev_cpu,
			       int this_cpu, int wake_flags)
{
	struct task_struct *waker = cpu_rq(sys, this_cpu)->curr;
	int new_cpu = prev_cpu;

	if (waker && waker != p)
		record_wakee(sys, waker, p);
	if (this_cpu != prev_cpu && !(waker && wake_wide(sys, waker, p))) {
		const struct sched_domain *sd = domain_spanning(cpu_rq(sys, this_cpu), prev_cpu);

		if (sd)
			new_cpu = wake_affine(sys, sd, p, waker, this_cpu, prev_cpu,
					      wake_flags & WF_SYNC);
	}
	return select_idle_sibling(sys, p, prev_cpu, new_cpu);
}

int select_task_rq_fair(struct sched_system *sys, struct task_struct *p, int prev_cpu, int this_cpu,
			int sd_flag, int wake_flags)
{
	if (sys->nr_cpus == 1)
		return 0;
	if (sd_flag & SD_BALANCE_FORK)
		return find_idlest_cpu(sys);
	if (sched_feat(sys, SF_WAKE_AFFINE_SIS))
		return select_task_rq_wake(sys, p, prev_cpu, this_cpu, wake_flags);

	if (idle_cpu(cpu_rq(sys, prev_cpu)))
		return prev_cpu;

	int idle = find_idle_cpu(sys, prev_cpu);

	if (idle >= 0)
		return idle;
	if ((wake_flags & WF_SYNC) && this_cpu != prev_cpu) {
		sys->wake_stats.affine_attempts++;
		if (wake_affine_2_6_28(sys, p, prev_cpu, this_cpu)) {
			sys->wake_stats.affine++;
			return this_cpu;
		}
	}
	return prev_cpu;
}

/* ---------------------------------------------------------------- load balancing */

bool task_hot(const struct task_struct *p, u64 now, const struct sched_tunables *tun)
{
	if (tun->migration_cost == 0)
		return false;
	return (s64)(now - p->se.exec_start) < (s64)tun->migration_cost;
}

struct group_stats {
	u64 mask;
	unsigned long load;	/* summed weight */
	unsigned long avg_load; /* per CPU, scaled by NICE_0_LOAD */
	unsigned int nr_running;
	unsigned int nr_cpus;
};

static void group_stats(const struct sched_system *sys, u64 mask, struct group_stats *gs)
{
	gs->mask = mask;
	gs->load = 0;
	gs->nr_running = 0;
	gs->nr_cpus = 0;
	for (u64 m = mask; m; m &= m - 1) {
		const struct rq *rq = cpu_rq(sys, __builtin_ctzll(m));

		gs->load += cpu_load(sys, rq->cpu);
		gs->nr_running += rq->nr_running;
		gs->nr_cpus++;
	}
	gs->avg_load = gs->load * NICE_0_LOAD / gs->nr_cpus;
}

/*
 * How much weighted load should move from the busiest group to this CPU's group (0: balanced),
 * after the kernel's find_busiest_group() and fix_small_imbalance(): never so much that the
 * busiest group drops below the domain average, nor that this group rises above it; when that
 * amount is less than one task but moving one task would still even the load, move one (not with
 * LB_PELT, whose move_tasks lets a task through once enough balances have failed).
 */
static unsigned long find_busiest_group(const struct sched_system *sys, const struct rq *this_rq,
					const struct sched_domain *sd, struct group_stats *busiest)
{
	struct group_stats local = { 0 }, gs;
	unsigned long total_load = 0;
	unsigned int total_cpus = 0;
	bool found = false;

	for (unsigned int g = 0; g < sd->nr_groups; g++) {
		group_stats(sys, sd->groups[g], &gs);
		total_load += gs.load;
		total_cpus += gs.nr_cpus;
		if (gs.mask & (1ULL << this_rq->cpu)) {
			local = gs;
			continue;
		}
		/* A group with no more tasks than CPUs has nothing queued to give. */
		if (gs.nr_running <= gs.nr_cpus)
			continue;
		if (!found || gs.avg_load > busiest->avg_load) {
			*busiest = gs;
			found = true;
		}
	}
	if (!found || busiest->avg_load <= local.avg_load)
		return 0;
	if (100 * busiest->avg_load <= sd->imbalance_pct * local.avg_load)
		return 0;

	unsigned long avg_load = total_load * NICE_0_LOAD / total_cpus;
	unsigned long load_per_task = busiest->load / busiest->nr_running;
	unsigned long max_pull = busiest->avg_load - avg_load;
	unsigned long room = avg_load > local.avg_load ? avg_load - local.avg_load : 0;

	if (lb_pelt(sys)) /* 5.5's calculate_imbalance: to the average, from either side */
		return (max_pull < room ? max_pull : room) / NICE_0_LOAD;
	if (busiest->avg_load > load_per_task * NICE_0_LOAD &&
	    busiest->avg_load - load_per_task * NICE_0_LOAD < max_pull)
		max_pull = busiest->avg_load - load_per_task * NICE_0_LOAD;

	unsigned long imbalance = (max_pull < room ? max_pull : room) / NICE_0_LOAD;

	if (imbalance < load_per_task) {
		unsigned long gap = (busiest->avg_load - local.avg_load) / NICE_0_LOAD;

		/* Moving one task helps only if the gap is at least one task's load. */
		imbalance = gap >= load_per_task ? load_per_task : 0;
	}
	return imbalance;
}

/* The CPU of the busiest group with the most load that has a queued task to give. */
static struct rq *find_busiest_queue(const struct sched_system *sys,
				     const struct group_stats *group)
{
	struct rq *busiest = NULL;
	unsigned long busiest_load = 0;

	for (u64 m = group->mask; m; m &= m - 1) {
		struct rq *rq = cpu_rq(sys, __builtin_ctzll(m));

		if (rq->nr_running < 2 && !(rq->curr == NULL && rq->nr_running == 1))
			continue;
		unsigned long load = cpu_load(sys, rq->cpu);

		if (!busiest || load > busiest_load) {
			busiest = rq;
			busiest_load = load;
		}
	}
	return busiest;
}

static bool can_migrate_task(const struct task_struct *p, const struct rq *src,
			     const struct sched_domain *sd, u64 now)
{
	/* A task whose dequeue EEVDF delayed is asleep: there is nothing to run elsewhere. */
	if (p == src->curr || p->se.sched_delayed)
		return false;
	return !task_hot(p, now, &src->sys->tun) || sd->nr_balance_failed > sd->cache_nice_tries;
}

static void pull_task(struct rq *src, struct task_struct *p, struct rq *dst)
{
	deactivate_task(src, p, 0);
	set_task_cpu(dst->sys, p, dst->cpu);
	activate_task(dst, p, 0);
	dst->sys->nr_lb_migrations++;
	p->sched_class->check_preempt_curr(dst, p, 0);
}

/*
 * Moves queued tasks from src to dst, leftmost first, until imbalance (weighted load) is covered.
 * A task heavier than twice what is left to move would overshoot and is skipped (LB_PELT: heavier
 * than what is left, halved for every failed balance). A CPU going idle takes one task only: it
 * just needs something to run.
 */
static int move_tasks(struct rq *src, struct rq *dst, unsigned long imbalance,
		      const struct sched_domain *sd, enum cpu_idle_type idle)
{
	u64 now = rq_clock(dst);
	long rem = (long)imbalance;
	int moved = 0;
	struct rb_node *node = rb_first_cached(&src->cfs.tasks_timeline);
	/* A task passes when its load, halved this many times, fits what is left to move. */
	unsigned int failed = sd->nr_balance_failed < 62 ? sd->nr_balance_failed : 62;
	unsigned int shift = lb_pelt(src->sys) ? failed : 1;

	while (node && rem > 0) {
		struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
		struct task_struct *p = task_of(se);

		node = rb_next(node);
		long load = (long)task_load(src->sys, p);

		if ((load >> shift) > rem || !can_migrate_task(p, src, sd, now))
			continue;
		pull_task(src, p, dst);
		rem -= load;
		moved++;
		if (idle == CPU_NEWLY_IDLE)
			break;
	}
	return moved;
}

int load_balance(struct rq *rq, struct sched_domain *sd, enum cpu_idle_type idle)
{
	struct sched_system *sys = rq->sys;
	struct group_stats busiest_group = { 0 };
	unsigned long imbalance = find_busiest_group(sys, rq, sd, &busiest_group);
	struct rq *busiest = imbalance ? find_busiest_queue(sys, &busiest_group) : NULL;
	int moved = 0;

	if (!busiest) {
		if (idle != CPU_NEWLY_IDLE) {
			sd->nr_balance_failed = 0;
			sd->balance_interval = sd->min_interval;
		}
		return 0;
	}

	moved = move_tasks(busiest, rq, imbalance, sd, idle);
	if (moved) {
		sd->nr_balance_failed = 0;
		sd->balance_interval = sd->min_interval;
	} else {
		/* Out of balance but nothing could move (all cache hot): back off, and count the
		 * failure so that hot tasks become movable after cache_nice_tries. */
		if (idle != CPU_NEWLY_IDLE) {
			sd->nr_balance_failed++;
			if (sd->balance_interval < sd->max_interval)
				sd->balance_interval *= 2;
		}
	}
	return moved;
}

int idle_balance(struct rq *rq)
{
	for (unsigned int i = 0; i < rq->nr_sd; i++) {
		int pulled = load_balance(rq, &rq->sd[i], CPU_NEWLY_IDLE);

		if (pulled)
			return pulled;
	}
	return 0;
}

static void rebalance_domains(struct rq *rq, enum cpu_idle_type idle)
{
	u64 now = rq_clock(rq);
	u64 next_balance = now + 60 * NSEC_PER_SEC;

	for (unsigned int i = 0; i < rq->nr_sd; i++) {
		struct sched_domain *sd = &rq->sd[i];
		u64 interval = sd->balance_interval;

		if (idle != CPU_IDLE)
			interval *= sd->busy_factor;
		if (now - sd->last_balance >= interval) {
			load_balance(rq, sd, idle);
			sd->last_balance = now;
			/* Whatever was pulled, this CPU is no longer idle for the next levels. */
			if (rq->nr_running)
				idle = CPU_NOT_IDLE;
		}
		if (sd->last_balance + interval < next_balance)
			next_balance = sd->last_balance + interval;
	}
	rq->next_balance = next_balance;
}

/*
 * From the tick of a busy CPU: its own periodic balancing, and, because idle CPUs get no tick
 * (NO_HZ), the balancing that is due on idle CPUs when this one has work queued to give away (the
 * kernel's idle load balancer).
 */
void trigger_load_balance(struct rq *rq)
{
	struct sched_system *sys = rq->sys;
	u64 now = rq_clock(rq);

	if (now >= rq->next_balance)
		rebalance_domains(rq, rq->curr ? CPU_NOT_IDLE : CPU_IDLE);

	if (rq->nr_running < 2)
		return;
	for (u64 m = sys->idle_mask; m; m &= m - 1) {
		struct rq *idle_rq = cpu_rq(sys, __builtin_ctzll(m));

		if (idle_cpu(idle_rq) && now >= idle_rq->next_balance)
			rebalance_domains(idle_rq, CPU_IDLE);
	}
}
