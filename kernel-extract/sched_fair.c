/*
 * sched_fair.c - the Completely Fair Scheduler, after the kernel's kernel/sched_fair.c.
 *
 * Every runnable task has a vruntime: the CPU time it received, weighted by NICE_0_LOAD / weight.
 * The run queue keeps tasks in a red-black tree ordered by vruntime and runs the leftmost, so the
 * task that received the least weighted service runs next. The running task (curr) is kept out of
 * the tree while it runs but counted in nr_running and load. Profile differences (2.6.28 vs 6.1)
 * are sched_feat() tests; see sched_features.h.
 */
#include "kernel-extract/sched_fair.h"

#include <math.h>

static inline struct sched_system *sys_of(struct cfs_rq *cfs_rq)
{
	return rq_of(cfs_rq)->sys;
}

static inline const struct sched_tunables *tun_of(struct cfs_rq *cfs_rq)
{
	return &sys_of(cfs_rq)->tun;
}

/* ---------------------------------------------------------------- the tree */

static inline bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return (s64)(a->vruntime - b->vruntime) < 0;
}

static bool run_node_less(const struct rb_node *a, const struct rb_node *b)
{
	return entity_before(rb_entry(a, struct sched_entity, run_node),
			     rb_entry(b, struct sched_entity, run_node));
}

static void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	rb_add_cached(&se->run_node, &cfs_rq->tasks_timeline, run_node_less);
}

static void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	rb_erase_cached(&se->run_node, &cfs_rq->tasks_timeline);
}

struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = rb_first_cached(&cfs_rq->tasks_timeline);

	return left ? rb_entry(left, struct sched_entity, run_node) : NULL;
}

/*
 * min_vruntime follows the smallest vruntime among curr and the queued entities, but never goes
 * back: it is the base against which new and waking tasks are placed.
 */
void update_min_vruntime(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *leftmost = __pick_first_entity(cfs_rq);
	u64 vruntime = cfs_rq->min_vruntime;

	if (curr && curr->on_rq)
		vruntime = curr->vruntime;
	else
		curr = NULL;

	if (leftmost)
		vruntime = curr ? min_vruntime(vruntime, leftmost->vruntime) : leftmost->vruntime;

	cfs_rq->min_vruntime = max_vruntime(cfs_rq->min_vruntime, vruntime);
}

/* ---------------------------------------------------------------- time slices */

u64 __sched_period(const struct sched_tunables *tun, unsigned long nr_running)
{
	if (nr_running > tun->nr_latency)
		return tun->min_granularity * nr_running;
	return tun->latency;
}

/*
 * The wall-clock slice of se: the period shared in proportion to weight. An entity not yet queued
 * is counted as if it were, since the slice is asked for when placing it.
 */
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	const struct sched_tunables *tun = tun_of(cfs_rq);
	u64 slice = __sched_period(tun, cfs_rq->nr_running + !se->on_rq);
	struct load_weight lw = cfs_rq->load;

	if (!se->on_rq)
		update_load_add(&lw, se->load.weight);
	slice = calc_delta_mine(slice, se->load.weight, &lw);

	if (sched_feat(sys_of(cfs_rq), SF_BASE_SLICE) && slice < tun->min_granularity)
		slice = tun->min_granularity;
	return slice;
}

u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return calc_delta_fair(sched_slice(cfs_rq, se), se);
}

/* ---------------------------------------------------------------- accounting */

/* Charge the running entity for the time since it was last charged. */
void update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	u64 now = rq_clock(rq_of(cfs_rq));

	if (!curr)
		return;
	if ((s64)(now - curr->exec_start) <= 0)
		return;

	u64 delta_exec = now - curr->exec_start;

	curr->exec_start = now;
	curr->sum_exec_runtime += delta_exec;
	curr->vruntime += calc_delta_fair(delta_exec, curr);
	update_min_vruntime(cfs_rq);
}

/* ---------------------------------------------------------------- load tracking */

bool pelt_on(struct cfs_rq *cfs_rq)
{
	return sched_feat(sys_of(cfs_rq), SF_WAKE_AFFINE_SIS);
}

/* What a load relaxing towards target has become after dt. */
static double pelt_decay(double load, double target, u64 dt)
{
	return target + (load - target) * exp2(-(double)dt / (double)PELT_HALFLIFE_NS);
}

/* The queue's sum follows the weight queued on it (its runnable entities'). */
void update_cfs_rq_load_avg(struct cfs_rq *cfs_rq, u64 now)
{
	struct sched_avg *sa = &cfs_rq->avg;

	if (now > sa->last_update_time)
		sa->load_avg = pelt_decay(sa->load_avg, (double)cfs_rq->load.weight,
					  now - sa->last_update_time);
	sa->last_update_time = now;
}

void update_se_load_avg(struct sched_entity *se, u64 now)
{
	struct sched_avg *sa = &se->avg;

	if (now > sa->last_update_time)
		sa->load_avg = pelt_decay(sa->load_avg, se->on_rq ? (double)se->load.weight : 0,
					  now - sa->last_update_time);
	sa->last_update_time = now;
}

/* Counts se in cfs_rq's average (a new task starts at its full weight, as 6.1's do). */
void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 now = rq_clock(rq_of(cfs_rq));

	if (se->avg_attached)
		return;
	update_cfs_rq_load_avg(cfs_rq, now);
	update_se_load_avg(se, now);
	cfs_rq->avg.load_avg += se->avg.load_avg;
	se->avg_attached = true;
}

void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 now = rq_clock(rq_of(cfs_rq));

	if (!se->avg_attached)
		return;
	update_cfs_rq_load_avg(cfs_rq, now);
	update_se_load_avg(se, now);
	cfs_rq->avg.load_avg -= se->avg.load_avg;
	if (cfs_rq->avg.load_avg < 0)
		cfs_rq->avg.load_avg = 0;
	se->avg_attached = false;
}

/* Before the queue's weight or the entity's state changes, settle both up to now. */
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 now = rq_clock(rq_of(cfs_rq));

	if (!pelt_on(cfs_rq))
		return;
	update_cfs_rq_load_avg(cfs_rq, now);
	update_se_load_avg(se, now);
}

double cfs_rq_load_avg(struct cfs_rq *cfs_rq)
{
	update_cfs_rq_load_avg(cfs_rq, rq_clock(rq_of(cfs_rq)));
	return cfs_rq->avg.load_avg;
}

double task_load_avg(struct task_struct *p)
{
	update_se_load_avg(&p->se, rq_clock(rq_of(p->se.cfs_rq)));
	return p->se.avg.load_avg;
}

/* ---------------------------------------------------------------- placement */

/*
 * Where a new or waking entity enters the timeline. A new task starts a vslice after min_vruntime,
 * so that forking cannot be used to get ahead (START_DEBIT). A sleeper is credited up to a latency
 * (half of it in 6.1) so interactive tasks run soon after waking, but never gains by being placed
 * before its own old vruntime.
 */
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial)
{
	struct sched_system *sys = sys_of(cfs_rq);
	u64 vruntime = cfs_rq->min_vruntime;

	if (initial && sched_feat(sys, SF_START_DEBIT))
		vruntime += sched_vslice(cfs_rq, se);

	if (!initial) {
		u64 thresh = sys->tun.latency;

		if (sched_feat(sys, SF_NORMALIZED_SLEEPER))
			thresh = calc_delta_fair(thresh, se);
		if (sched_feat(sys, SF_GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;
		vruntime -= thresh;
	}

	/* A new task has no history here (no parent's vruntime to inherit): it starts where placed. */
	if (initial)
		se->vruntime = vruntime;
	else
		se->vruntime = max_vruntime(se->vruntime, vruntime);
}

static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_running++;
	rq_of(cfs_rq)->nr_running++;
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_sub(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_running--;
	rq_of(cfs_rq)->nr_running--;
}

void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	update_curr(cfs_rq);
	if (flags & ENQUEUE_WAKEUP)
		place_entity(cfs_rq, se, 0);
	if (se != cfs_rq->curr)
		__enqueue_entity(cfs_rq, se);
	update_load_avg(cfs_rq, se);
	if (pelt_on(cfs_rq))
		attach_entity_load_avg(cfs_rq, se);
	account_entity_enqueue(cfs_rq, se);
	se->on_rq = 1;
}

static void __clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->last == se)
		cfs_rq->last = NULL;
	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
}

void dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	(void)flags;
	update_curr(cfs_rq);
	__clear_buddies(cfs_rq, se);
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	update_load_avg(cfs_rq, se);
	account_entity_dequeue(cfs_rq, se);
	se->on_rq = 0;
	update_min_vruntime(cfs_rq);
}

/* ---------------------------------------------------------------- picking */

/* se becomes curr: out of the tree, and its slice starts now. */
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (se->on_rq)
		__dequeue_entity(cfs_rq, se);
	se->exec_start = rq_clock(rq_of(cfs_rq));
	cfs_rq->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/*
 * The leftmost entity, unless a buddy is not too far behind it: running the task just woken (next)
 * or the one just preempted (last) keeps caches warm, and costs fairness only within the wakeup
 * granularity.
 */
struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se = __pick_first_entity(cfs_rq);

	if (!se)
		return NULL;
	if (cfs_rq->next && wakeup_preempt_entity(cfs_rq->next, se) < 1)
		se = cfs_rq->next;
	else if (cfs_rq->last && wakeup_preempt_entity(cfs_rq->last, se) < 1)
		se = cfs_rq->last;
	/* A buddy is a one-time hint: once it has been considered it is spent. */
	__clear_buddies(cfs_rq, se);
	return se;
}

void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq) {
		update_curr(cfs_rq);
		__enqueue_entity(cfs_rq, prev);
	}
	cfs_rq->curr = NULL;
}

/* ---------------------------------------------------------------- preemption */

/* Preempt curr once it has had its slice (and, in 6.1, when it is a slice ahead of the leftmost). */
void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	struct sched_system *sys = sys_of(cfs_rq);
	u64 ideal_runtime = sched_slice(cfs_rq, curr);
	u64 delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;

	if (delta_exec > ideal_runtime) {
		resched_curr(rq_of(cfs_rq));
		__clear_buddies(cfs_rq, curr);
		return;
	}

	if (!sched_feat(sys, SF_TICK_VRUNTIME_PREEMPT))
		return;
	if (delta_exec < sys->tun.min_granularity)
		return;

	struct sched_entity *se = __pick_first_entity(cfs_rq);

	if (!se)
		return;
	s64 delta = (s64)(curr->vruntime - se->vruntime);

	if (delta > (s64)ideal_runtime)
		resched_curr(rq_of(cfs_rq));
}

static void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	update_curr(cfs_rq);
	if (cfs_rq->nr_running > 1)
		check_preempt_tick(cfs_rq, curr);
}

/*
 * The wakeup granularity in the virtual time of the entity it is compared against. 2.6.28 scales
 * it by curr's weight, and only when curr is heavier than nice 0, so that a heavy task is easier to
 * preempt without making a light one harder to preempt (ASYM_GRAN); 6.1 scales it by the woken
 * task's weight.
 */
static u64 wakeup_gran(struct sched_system *sys, struct sched_entity *curr, struct sched_entity *se)
{
	u64 gran = sys->tun.wakeup_granularity;

	if (sched_feat(sys, SF_GRAN_BY_WOKEN))
		return calc_delta_fair(gran, se);
	if (!sched_feat(sys, SF_ASYM_GRAN) || curr->load.weight > NICE_0_LOAD)
		return calc_delta_fair(gran, curr);
	return gran;
}

int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se)
{
	s64 vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	if (vdiff > (s64)wakeup_gran(sys_of(curr->cfs_rq), curr, se))
		return 1;
	return 0;
}

/*
 * p was just enqueued on rq: preempt curr if p is far enough behind it. The buddies bias the next
 * pick towards the woken task and back to the preempted one; 6.1 marks them only while the queue
 * is at least sched_nr_latency long ("scale"), and marks the woken one whenever it preempts.
 */
void check_preempt_wakeup(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct sched_system *sys = rq->sys;
	struct task_struct *curr = rq->curr;
	struct cfs_rq *cfs_rq = &rq->cfs;
	bool scale =
		!sched_feat(sys, SF_BUDDY_ON_PREEMPT) || cfs_rq->nr_running >= sys->tun.nr_latency;
	bool next_marked = false;

	(void)wake_flags;
	if (!curr) {
		resched_curr(rq); /* the CPU is idle */
		return;
	}
	if (curr == p || !sched_feat(sys, SF_WAKEUP_PREEMPT))
		return;
	if (sched_feat(sys, SF_NEXT_BUDDY) && scale) {
		cfs_rq->next = &p->se;
		next_marked = true;
	}
	if (rq->need_resched)
		return;

	update_curr(cfs_rq);
	if (wakeup_preempt_entity(&curr->se, &p->se) == 1) {
		if (sched_feat(sys, SF_BUDDY_ON_PREEMPT) && !next_marked)
			cfs_rq->next = &p->se;
		resched_curr(rq);
		if (sched_feat(sys, SF_LAST_BUDDY) && scale && curr->se.on_rq)
			cfs_rq->last = &curr->se;
	}
}

/* ---------------------------------------------------------------- the class */

static void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	enqueue_entity(&rq->cfs, &p->se, flags);
}

static void dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	dequeue_entity(&rq->cfs, &p->se, flags);
}

static struct task_struct *pick_next_task_fair(struct rq *rq)
{
	struct sched_entity *se = pick_next_entity(&rq->cfs);

	if (!se)
		return NULL;
	set_next_entity(&rq->cfs, se);
	return task_of(se);
}

static void put_prev_task_fair(struct rq *rq, struct task_struct *prev)
{
	put_prev_entity(&rq->cfs, &prev->se);
}

static void task_tick_fair(struct rq *rq, struct task_struct *curr)
{
	entity_tick(&rq->cfs, &curr->se);
}

static void update_curr_fair(struct rq *rq)
{
	update_curr(&rq->cfs);
}

static void task_fork_fair(struct rq *rq, struct task_struct *p)
{
	p->se.avg.load_avg = (double)p->se.load.weight;
	p->se.avg.last_update_time = rq_clock(rq);
	update_curr(&rq->cfs);
	place_entity(&rq->cfs, &p->se, 1);
}

/*
 * Each queue has its own min_vruntime, so a task changing queue keeps its lag: its distance from
 * the old queue's min_vruntime is carried over to the new one.
 */
static void migrate_task_rq_fair(struct sched_system *sys, struct task_struct *p, int new_cpu)
{
	struct cfs_rq *from = p->se.cfs_rq;
	struct cfs_rq *to = &cpu_rq(sys, new_cpu)->cfs;

	p->se.vruntime = p->se.vruntime - from->min_vruntime + to->min_vruntime;
	/* Its load leaves with it; it is counted on the new queue when enqueued there. */
	if (pelt_on(from))
		detach_entity_load_avg(from, &p->se);
}

const struct sched_class fair_sched_class = {
	.name = "fair",
	.enqueue_task = enqueue_task_fair,
	.dequeue_task = dequeue_task_fair,
	.check_preempt_curr = check_preempt_wakeup,
	.pick_next_task = pick_next_task_fair,
	.put_prev_task = put_prev_task_fair,
	.select_task_rq = select_task_rq_fair,
	.migrate_task_rq = migrate_task_rq_fair,
	.task_tick = task_tick_fair,
	.task_fork = task_fork_fair,
	.idle_balance = idle_balance,
	.trigger_load_balance = trigger_load_balance,
	.update_curr = update_curr_fair,
};
