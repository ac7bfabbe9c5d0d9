/*
 * sched_core.c - the policy-independent core, after the kernel's kernel/sched.c.
 */
#include "kernel-extract/sched_core.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- topology */

static u64 cpu_range_mask(unsigned int first, unsigned int count)
{
	return (count >= 64 ? ~0ULL : ((1ULL << count) - 1)) << first;
}

/*
 * Balancing parameters after the kernel's sd_init(): the interval grows with the number of CPUs
 * spanned, a busy CPU balances busy_factor times less often, and the cache-sharing level tolerates
 * a smaller imbalance than the level across memory domains.
 */
static void sd_init(struct sched_domain *sd, u64 span, unsigned int imbalance_pct)
{
	sd->span = span;
	sd->span_weight = (unsigned int)__builtin_popcountll(span);
	sd->imbalance_pct = imbalance_pct;
	sd->cache_nice_tries = 1;
	sd->busy_factor = 16;
	sd->min_interval = sd->span_weight * NSEC_PER_MSEC;
	sd->max_interval = 2 * sd->min_interval;
	sd->balance_interval = sd->min_interval;
	sd->nr_balance_failed = 0;
	sd->last_balance = 0;
}

static void build_sched_domains(struct sched_system *sys)
{
	unsigned int per_node = sys->nr_cpus / sys->nr_nodes;

	for (unsigned int cpu = 0; cpu < sys->nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(sys, (int)cpu);
		unsigned int node = (unsigned int)rq->node;

		rq->nr_sd = 0;
		if (per_node > 1) {
			struct sched_domain *sd = &rq->sd[rq->nr_sd++];

			sd_init(sd, cpu_range_mask(node * per_node, per_node), 117);
			sd->nr_groups = per_node;
			for (unsigned int g = 0; g < per_node; g++)
				sd->groups[g] = 1ULL << (node * per_node + g);
		}
		if (sys->nr_nodes > 1) {
			struct sched_domain *sd = &rq->sd[rq->nr_sd++];

			sd_init(sd, cpu_range_mask(0, sys->nr_cpus), 125);
			sd->nr_groups = sys->nr_nodes;
			for (unsigned int g = 0; g < sys->nr_nodes; g++)
				sd->groups[g] = cpu_range_mask(g * per_node, per_node);
		}
	}
}

bool sched_system_init(struct sched_system *sys, unsigned int nr_cpus, unsigned int nr_nodes,
		       const struct sched_tunables *tun, const struct sched_profile *profile)
{
	if (nr_cpus == 0 || nr_cpus > SCHED_MAX_CPUS || nr_nodes == 0 || nr_cpus % nr_nodes != 0)
		return false;

	memset(sys, 0, sizeof(*sys));
	sys->nr_cpus = nr_cpus;
	sys->nr_nodes = nr_nodes;
	sys->tun = *tun;
	sched_tunables_update(&sys->tun);
	sys->features = profile->features;
	sys->policy = profile->sched_class;
	sys->tick_nsec = NSEC_PER_SEC / 1000;
	sys->rqs = calloc(nr_cpus, sizeof(*sys->rqs));
	if (!sys->rqs)
		return false;

	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(sys, (int)cpu);

		rq->cpu = (int)cpu;
		rq->node = (int)(cpu * nr_nodes / nr_cpus);
		rq->sys = sys;
		rq->cfs.tasks_timeline = RB_ROOT_CACHED;
		/* The kernel starts min_vruntime just below wrap-around to catch comparison bugs early. */
		rq->cfs.min_vruntime = (u64)(-(1LL << 20));
		sys->idle_mask |= 1ULL << cpu;
	}
	build_sched_domains(sys);
	return true;
}

void sched_system_destroy(struct sched_system *sys)
{
	free(sys->rqs);
	sys->rqs = NULL;
}

/* ---------------------------------------------------------------- schedstats */

static void sched_info_queued(struct task_struct *p, u64 now)
{
	if (!p->sched_info.queued) {
		p->sched_info.last_queued = now;
		p->sched_info.queued = true;
	}
}

static void sched_info_arrive(struct task_struct *p, u64 now)
{
	if (p->sched_info.queued) {
		p->sched_info.run_delay += now - p->sched_info.last_queued;
		p->sched_info.queued = false;
	}
	p->sched_info.last_arrival = now;
	p->sched_info.pcount++;
}

/* A task switched out while still runnable goes back to waiting. */
static void sched_info_depart(struct task_struct *p, u64 now)
{
	if (p->state == TASK_RUNNING)
		sched_info_queued(p, now);
}

/* ---------------------------------------------------------------- enqueue / dequeue */

void activate_task(struct rq *rq, struct task_struct *p, int flags)
{
	sched_info_queued(p, rq_clock(rq));
	p->sched_class->enqueue_task(rq, p, flags);
}

void deactivate_task(struct rq *rq, struct task_struct *p, int flags)
{
	p->sched_class->dequeue_task(rq, p, flags);
}

void set_task_cpu(struct sched_system *sys, struct task_struct *p, int new_cpu)
{
	int old_cpu = p->cpu;

	if (old_cpu == new_cpu)
		return;
	p->sched_class->migrate_task_rq(sys, p, new_cpu);
	p->se.nr_migrations++;
	sys->nr_migrations++;
	p->cpu = new_cpu;
	p->se.cfs_rq = &cpu_rq(sys, new_cpu)->cfs;
	if (sys->migrate_hook)
		sys->migrate_hook(p, old_cpu, new_cpu, sys->hook_ctx);
}

/* ---------------------------------------------------------------- fork, wakeup */

void sched_fork(struct sched_system *sys, struct task_struct *p, int pid, int nice)
{
	memset(&p->se, 0, sizeof(p->se));
	memset(&p->sched_info, 0, sizeof(p->sched_info));
	RB_CLEAR_NODE(&p->se.run_node);
	p->pid = pid;
	p->static_prio = 120 + nice;
	p->state = TASK_NEW;
	p->cpu = 0;
	p->on_cpu = false;
	p->nvcsw = p->nivcsw = 0;
	p->wakee_flips = 0;
	p->wakee_flip_decay_ts = 0;
	p->last_wakee = NULL;
	p->recent_used_cpu = -1;
	p->sched_class = sys->policy;
	set_load_weight(p);
}

void sched_fork_inherit(struct task_struct *p, const struct task_struct *parent)
{
	p->wakee_flips = parent->wakee_flips;
	p->wakee_flip_decay_ts = parent->wakee_flip_decay_ts;
	p->last_wakee = parent->last_wakee;
}

void sched_setattr_runtime(struct task_struct *p, u64 runtime)
{
	p->se.custom_slice = runtime != 0;
	p->se.slice = runtime;
}

void wake_up_new_task(struct sched_system *sys, struct task_struct *p, int this_cpu)
{
	int cpu = p->sched_class->select_task_rq(sys, p, this_cpu, this_cpu, SD_BALANCE_FORK,
						 WF_FORK);
	struct rq *rq = cpu_rq(sys, cpu);

	/* A new task has no lag to carry: it is simply born on its CPU. */
	p->cpu = cpu;
	p->se.cfs_rq = &rq->cfs;
	p->sched_class->task_fork(rq, p);
	p->state = TASK_RUNNING;
	activate_task(rq, p, ENQUEUE_INITIAL);
	p->sched_class->check_preempt_curr(rq, p, WF_FORK);
}

bool try_to_wake_up(struct sched_system *sys, struct task_struct *p, int this_cpu, int wake_flags)
{
	if (p->state != TASK_INTERRUPTIBLE)
		return false;

	/*
	 * Still queued: its class delayed the dequeue (EEVDF's DELAY_DEQUEUE). It wakes where it is,
	 * without choosing a CPU (the kernel's ttwu_runnable).
	 */
	if (p->se.on_rq) {
		struct rq *rq = task_rq(sys, p);

		p->state = TASK_RUNNING;
		activate_task(rq, p, ENQUEUE_WAKEUP | ENQUEUE_DELAYED);
		if (!p->on_cpu)
			p->sched_class->check_preempt_curr(rq, p, wake_flags);
		return true;
	}

	int cpu = p->sched_class->select_task_rq(sys, p, p->cpu, this_cpu, SD_BALANCE_WAKE,
						 wake_flags);

	sys->wake_stats.wakeups++;
	sys->wake_stats.remote += cpu != this_cpu;

	set_task_cpu(sys, p, cpu);
	p->state = TASK_RUNNING;

	struct rq *rq = cpu_rq(sys, cpu);

	activate_task(rq, p, ENQUEUE_WAKEUP);
	p->sched_class->check_preempt_curr(rq, p, wake_flags);
	return true;
}

/* ---------------------------------------------------------------- tick, schedule */

void scheduler_tick(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	if (curr)
		curr->sched_class->task_tick(rq, curr);
	rq->sys->policy->trigger_load_balance(rq);
}

struct task_struct *schedule(struct rq *rq)
{
	struct sched_system *sys = rq->sys;
	struct task_struct *prev = rq->curr;
	u64 now = rq_clock(rq);

	rq->need_resched = false;
	sys->resched_mask &= ~(1ULL << rq->cpu);

	/* A task that exited will not be woken: its dequeue must not be delayed. */
	if (prev && prev->state != TASK_RUNNING && prev->se.on_rq)
		deactivate_task(rq, prev,
				DEQUEUE_SLEEP | (prev->state == TASK_DEAD ? DEQUEUE_SPECIAL : 0));

	if (rq->nr_running == 0)
		sys->policy->idle_balance(rq);

	if (prev)
		prev->sched_class->put_prev_task(rq, prev);

	struct task_struct *next = sys->policy->pick_next_task(rq);

	rq->curr = next;
	if (next)
		sys->idle_mask &= ~(1ULL << rq->cpu);
	else
		sys->idle_mask |= 1ULL << rq->cpu;

	if (prev != next) {
		if (prev) {
			prev->on_cpu = false;
			if (prev->state == TASK_RUNNING)
				prev->nivcsw++;
			else
				prev->nvcsw++;
			sched_info_depart(prev, now);
		}
		if (next) {
			next->on_cpu = true;
			sched_info_arrive(next, now);
		}
	}
	return next;
}
