/*
 * sched_eevdf.c - Earliest Eligible Virtual Deadline First (see sched_eevdf.h), after the
 * kernel's kernel/sched/fair.c of 6.6 to 6.18. The kernel keeps it in the file CFS lived in; here
 * it is a class of its own that shares load balancing (sched_balance.c) and the weight arithmetic
 * (sched_prio.c) with CFS. Differences between 6.6 and 6.18 are sched_feat() tests.
 *
 * Left out: buddies (NEXT_BUDDY is off in both kernels, so none is ever set), the minimum quantum
 * that NO_RUN_TO_PARITY grants (both kernels run to parity), and 6.18's zero_vruntime, which only
 * moves the reference point of the average's sums (min_vruntime here) and changes no decision.
 */
#include "kernel-extract/sched_eevdf.h"

#include "kernel-extract/sched_pelt.h"

static inline struct sched_system *sys_of(struct cfs_rq *cfs_rq)
{
	return rq_of(cfs_rq)->sys;
}

static inline struct sched_entity *__node_2_se(const struct rb_node *node)
{
	return rb_entry(node, struct sched_entity, run_node);
}

/* A slice the task asked for counts only in kernels that let it ask (6.12 and later). */
static inline bool has_custom_slice(struct sched_system *sys, const struct sched_entity *se)
{
	return se->custom_slice && sched_feat(sys, SF_CUSTOM_SLICE);
}

/* ---------------------------------------------------------------- the average */

/*
 * V is kept as two sums over the tree, sum (v_i - v0) w_i and sum w_i, with v0 = min_vruntime:
 * the offsets stay small, so the products fit in 64 bits, and V is exact up to one division.
 */
static inline s64 entity_key(const struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq->min_vruntime);
}

static void avg_vruntime_add(struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	cfs_rq->avg_vruntime += entity_key(cfs_rq, se) * (s64)se->load.weight;
	cfs_rq->avg_load += se->load.weight;
}

static void avg_vruntime_sub(struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	cfs_rq->avg_vruntime -= entity_key(cfs_rq, se) * (s64)se->load.weight;
	cfs_rq->avg_load -= se->load.weight;
}

/* v0 moved forward by delta: every offset in the sum shrank by delta. */
static void avg_vruntime_update(struct cfs_rq *cfs_rq, s64 delta)
{
	cfs_rq->avg_vruntime -= (s64)cfs_rq->avg_load * delta;
}

/* The sums with curr added: it is out of the tree while it runs but counts in the average. */
static void avg_sums(const struct cfs_rq *cfs_rq, s64 *avg, s64 *load)
{
	const struct sched_entity *curr = cfs_rq->curr;

	*avg = cfs_rq->avg_vruntime;
	*load = (s64)cfs_rq->avg_load;
	if (curr && curr->on_rq) {
		*avg += entity_key(cfs_rq, curr) * (s64)curr->load.weight;
		*load += (s64)curr->load.weight;
	}
}

u64 avg_vruntime(struct cfs_rq *cfs_rq)
{
	s64 avg, load;

	avg_sums(cfs_rq, &avg, &load);
	if (load) {
		/* Rounded down below zero too, so that an entity placed at V is eligible. */
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return cfs_rq->min_vruntime + (u64)avg;
}

/* v <= V, multiplied out: sum (v_j - v0) w_j >= (v - v0) sum w_j. No division, no rounding. */
bool vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime)
{
	s64 avg, load;

	avg_sums(cfs_rq, &avg, &load);
	return (__int128)avg >= (__int128)(s64)(vruntime - cfs_rq->min_vruntime) * load;
}

bool entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

/*
 * min_vruntime follows the least vruntime on the queue and never goes back; moving it moves the
 * reference of the sums, not V.
 */
static void update_min_vruntime(struct cfs_rq *cfs_rq)
{
	struct rb_node *root = cfs_rq->tasks_timeline.rb_root.rb_node;
	struct sched_entity *curr = cfs_rq->curr;
	u64 vruntime = cfs_rq->min_vruntime;

	if (curr && curr->on_rq)
		vruntime = curr->vruntime;
	else
		curr = NULL;
	if (root) {
		u64 least = __node_2_se(root)->min_vruntime;

		vruntime = curr ? min_vruntime(vruntime, least) : least;
	}

	s64 delta = (s64)(vruntime - cfs_rq->min_vruntime);

	if (delta > 0) {
		avg_vruntime_update(cfs_rq, delta);
		cfs_rq->min_vruntime = vruntime;
	}
}

/* ---------------------------------------------------------------- the timeline */

static inline bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return (s64)(a->deadline - b->deadline) < 0;
}

static bool deadline_less(const struct rb_node *a, const struct rb_node *b)
{
	return entity_before(__node_2_se(a), __node_2_se(b));
}

/*
 * A node's subtree summary: least vruntime, least and greatest slice, its own included. Returns
 * whether it changed.
 */
static bool min_vruntime_update(struct rb_node *node)
{
	struct sched_entity *se = __node_2_se(node);
	struct rb_node *children[2] = { node->rb_left, node->rb_right };
	u64 old_min = se->min_vruntime, old_min_slice = se->min_slice, old_max = se->max_slice;

	se->min_vruntime = se->vruntime;
	se->min_slice = se->max_slice = se->slice;
	for (int i = 0; i < 2; i++) {
		if (!children[i])
			continue;

		const struct sched_entity *c = __node_2_se(children[i]);

		se->min_vruntime = min_vruntime(se->min_vruntime, c->min_vruntime);
		if (c->min_slice < se->min_slice)
			se->min_slice = c->min_slice;
		if (c->max_slice > se->max_slice)
			se->max_slice = c->max_slice;
	}
	return se->min_vruntime != old_min || se->min_slice != old_min_slice ||
	       se->max_slice != old_max;
}

void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	avg_vruntime_add(cfs_rq, se);
	rb_add_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, deadline_less,
				min_vruntime_update);
}

void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	rb_erase_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, min_vruntime_update);
	avg_vruntime_sub(cfs_rq, se);
}

/* The entity with the earliest deadline, eligible or not. */
static struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = rb_first_cached(&cfs_rq->tasks_timeline);

	return left ? __node_2_se(left) : NULL;
}

static struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *root = cfs_rq->tasks_timeline.rb_root.rb_node;

	return root ? __node_2_se(root) : NULL;
}

u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 slice = ~0ULL;

	if (curr && curr->on_rq)
		slice = curr->slice;
	if (root && root->min_slice < slice)
		slice = root->min_slice;
	return slice;
}

u64 cfs_rq_max_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 slice = 0;

	if (curr && curr->on_rq)
		slice = curr->slice;
	if (root && root->max_slice > slice)
		slice = root->max_slice;
	return slice;
}

/* ---------------------------------------------------------------- run to parity */

/*
 * A newly picked entity is not preempted by a wakeup until its vruntime reaches vprot: its
 * deadline, or sooner if someone queued asks for a shorter slice (6.17), so that short requests
 * are not held up by long ones.
 */
void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = cfs_rq_min_slice(cfs_rq);

	if (!sched_feat(sys_of(cfs_rq), SF_RUN_TO_PARITY)) {
		se->vprot = se->vruntime;
		return;
	}
	se->vprot = se->deadline;
	if (slice < se->slice)
		se->vprot = min_vruntime(se->vprot, se->vruntime + calc_delta_fair(slice, se));
}

/* A shorter slice arrived: curr's protection shrinks to it. */
static void update_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = cfs_rq_min_slice(cfs_rq);

	se->vprot = min_vruntime(se->vprot, se->vruntime + calc_delta_fair(slice, se));
}

bool protect_slice(const struct sched_entity *se)
{
	return (s64)(se->vprot - se->vruntime) > 0;
}

static void cancel_protect_slice(struct sched_entity *se)
{
	if (protect_slice(se))
		se->vprot = se->vruntime;
}

/* ---------------------------------------------------------------- picking */

struct sched_entity *__pick_eevdf(struct cfs_rq *cfs_rq, bool protect)
{
	struct rb_node *node = cfs_rq->tasks_timeline.rb_root.rb_node;
	struct sched_entity *se = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL;

	/* Alone on the queue it runs, eligible or not (it is its own average). */
	if (cfs_rq->nr_running == 1)
		return curr && curr->on_rq ? curr : se;

	if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
		curr = NULL;
	if (curr && protect && protect_slice(curr))
		return curr;

	/* The earliest deadline of all, if it is eligible. */
	if (se && entity_eligible(cfs_rq, se)) {
		best = se;
		goto found;
	}

	/*
	 * Down the deadline-ordered tree: a left subtree with anything eligible in it (its least
	 * vruntime is) holds the answer, having the earlier deadlines; else this node, if eligible;
	 * else the right subtree.
	 */
	while (node) {
		struct rb_node *left = node->rb_left;

		if (left && vruntime_eligible(cfs_rq, __node_2_se(left)->min_vruntime)) {
			node = left;
			continue;
		}
		se = __node_2_se(node);
		if (entity_eligible(cfs_rq, se)) {
			best = se;
			break;
		}
		node = node->rb_right;
	}
found:
	if (!best || (curr && entity_before(curr, best)))
		best = curr;
	/* Someone is always eligible (the least vruntime is at most V); this guards the arithmetic. */
	return best ? best : __pick_first_entity(cfs_rq);
}

struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq)
{
	return __pick_eevdf(cfs_rq, true);
}

/* ---------------------------------------------------------------- accounting */

bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_system *sys = sys_of(cfs_rq);

	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;
	/* The request is the base slice unless the task asked for its own. */
	if (!has_custom_slice(sys, se))
		se->slice = sys->tun.base_slice;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	return true;
}

/*
 * Charge the running entity; once its request is served (a new deadline), or once its protected
 * slice is over (6.17), it yields at the next pick, unless it is alone.
 */
static void update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_system *sys = sys_of(cfs_rq);
	u64 now = rq_clock(rq_of(cfs_rq));

	if (!curr)
		return;
	if ((s64)(now - curr->exec_start) <= 0)
		return;

	u64 delta_exec = now - curr->exec_start;

	curr->exec_start = now;
	curr->sum_exec_runtime += delta_exec;
	curr->vruntime += calc_delta_fair(delta_exec, curr);

	bool resched = update_deadline(cfs_rq, curr);

	update_min_vruntime(cfs_rq);
	if (cfs_rq->nr_running == 1)
		return;
	if (resched || (sched_feat(sys, SF_RESCHED_PROTECT_END) && !protect_slice(curr)))
		resched_curr(rq_of(cfs_rq));
}

/*
 * The lag an entity takes with it, bounded because V moves as entities come and go: EEVDF's
 * steady state keeps -r_max < lag < max(r_max, q), so 6.17 bounds it by the largest request plus
 * a tick; 6.6 by twice the entity's own, at least a tick.
 */
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_system *sys = sys_of(cfs_rq);
	s64 vlag = (s64)(avg_vruntime(cfs_rq) - se->vruntime);
	u64 bound;

	if (sched_feat(sys, SF_LAG_MAX_SLICE))
		bound = cfs_rq_max_slice(cfs_rq) + sys->tick_nsec;
	else
		bound = 2 * se->slice > sys->tick_nsec ? 2 * se->slice : sys->tick_nsec;

	s64 limit = (s64)calc_delta_fair(bound, se);

	se->vlag = vlag < -limit ? -limit : vlag > limit ? limit : vlag;
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

/* ---------------------------------------------------------------- placement */

/*
 * An entity joins at V less its saved lag. Adding it moves V by its lag times w / (W + w), so the
 * lag is first scaled by (W + w) / W: once it is in, it is exactly that lag from the new V
 * (PLACE_LAG). Its deadline is one request on, half of one for a new task, which joins others
 * that are halfway through theirs on average (PLACE_DEADLINE_INITIAL); a migrating task keeps the
 * distance to its deadline it had (PLACE_REL_DEADLINE).
 */
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	struct sched_system *sys = sys_of(cfs_rq);
	u64 vruntime = avg_vruntime(cfs_rq);
	s64 lag = 0;

	if (!has_custom_slice(sys, se))
		se->slice = sys->tun.base_slice;

	u64 vslice = calc_delta_fair(se->slice, se);

	if (sched_feat(sys, SF_PLACE_LAG) && cfs_rq->nr_running && se->vlag) {
		struct sched_entity *curr = cfs_rq->curr;
		s64 load = (s64)cfs_rq->avg_load;

		if (curr && curr->on_rq)
			load += (s64)curr->load.weight;
		if (load == 0)
			load = 1;
		lag = (s64)((__int128)se->vlag * (load + (s64)se->load.weight) / load);
	}
	se->vruntime = vruntime - (u64)lag;

	if (sched_feat(sys, SF_PLACE_REL_DEADLINE) && se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	if (sched_feat(sys, SF_PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

static void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool curr = cfs_rq->curr == se;

	/* curr is charged by update_curr(): place it before, so that the charge counts. */
	if (curr)
		place_entity(cfs_rq, se, flags);
	update_curr(cfs_rq);
	if (!curr)
		place_entity(cfs_rq, se, flags);
	/* Its load counts on this queue from now (the kernel's DO_ATTACH). */
	update_load_avg(cfs_rq, se);
	if (pelt_on(cfs_rq))
		attach_entity_load_avg(cfs_rq, se);
	account_entity_enqueue(cfs_rq, se);
	if (!curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = 1;
}

/*
 * Returns false when the dequeue is delayed: an entity that blocks while not eligible (it ran
 * more than its share) stays on the queue to pay off its lag as V moves on, and is removed when
 * it is picked (DEQUEUE_DELAYED), or requeued if it wakes first (DELAY_DEQUEUE). Otherwise its
 * lag is saved for its return; a migrating entity also saves its deadline relative to its
 * vruntime (PLACE_REL_DEADLINE).
 */
static bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	struct sched_system *sys = sys_of(cfs_rq);
	bool sleep = flags & DEQUEUE_SLEEP;

	update_curr(cfs_rq);
	/* Settled while still runnable: its load fades from here (a delayed one's too, in 6.18). */
	update_load_avg(cfs_rq, se);
	if (!(flags & (DEQUEUE_DELAYED | DEQUEUE_SPECIAL)) && sleep &&
	    sched_feat(sys, SF_DELAY_DEQUEUE) && !entity_eligible(cfs_rq, se)) {
		se->sched_delayed = true;
		return false;
	}

	update_entity_lag(cfs_rq, se);
	if (sched_feat(sys, SF_PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = 0;
	account_entity_dequeue(cfs_rq, se);
	update_min_vruntime(cfs_rq);

	if (flags & DEQUEUE_DELAYED) {
		se->sched_delayed = false;
		/* It was picked, so its lag is not negative: it does not keep the credit (DELAY_ZERO). */
		if (sched_feat(sys, SF_DELAY_ZERO) && se->vlag > 0)
			se->vlag = 0;
	}
	return true;
}

/*
 * A delayed entity woke before it was picked: it stays where it is, except that a lag it has
 * gained meanwhile is dropped (DELAY_ZERO), placing it at V.
 */
static void requeue_delayed_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (sched_feat(sys_of(cfs_rq), SF_DELAY_ZERO)) {
		update_entity_lag(cfs_rq, se);
		if (se->vlag > 0) {
			/* Placed as if it were not queued: out of the count and the sums. */
			cfs_rq->nr_running--;
			if (se != cfs_rq->curr)
				__dequeue_entity(cfs_rq, se);
			se->vlag = 0;
			place_entity(cfs_rq, se, 0);
			if (se != cfs_rq->curr)
				__enqueue_entity(cfs_rq, se);
			cfs_rq->nr_running++;
		}
	}
	se->sched_delayed = false;
}

/* ---------------------------------------------------------------- pick and put */

/* se becomes curr: out of the tree, with its protected slice from now. */
static void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (se->on_rq) {
		__dequeue_entity(cfs_rq, se);
		set_protect_slice(cfs_rq, se);
	}
	se->exec_start = rq_clock(rq_of(cfs_rq));
	cfs_rq->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq) {
		update_curr(cfs_rq);
		__enqueue_entity(cfs_rq, prev);
	}
	cfs_rq->curr = NULL;
}

/*
 * The kernel picks while the previous task is still curr, then puts it back (its
 * put_prev_set_next_task), so that curr competes with its protection and, when it is picked
 * again, simply goes on: no new protected slice. This class does the same; put_prev_task has
 * nothing left to do.
 */
static struct task_struct *pick_next_task_eevdf(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *prev = cfs_rq->curr;
	struct sched_entity *se;
	bool dequeued = false;

	for (;;) {
		if (!cfs_rq->nr_running) {
			if (prev)
				put_prev_entity(cfs_rq, prev);
			/*
			 * The core balanced before the pick if the queue was empty; if delayed
			 * entities emptied it since, balance now, as the kernel's pick does.
			 */
			if (!dequeued || !idle_balance(rq))
				return NULL;
			dequeued = false;
			prev = NULL;
			continue;
		}
		if (cfs_rq->curr && cfs_rq->curr->on_rq)
			update_curr(cfs_rq);
		se = pick_eevdf(cfs_rq);
		if (!se->sched_delayed)
			break;
		/* Its lag is paid: the delayed dequeue completes and the task is asleep at last. */
		dequeue_entity(cfs_rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		dequeued = true;
	}
	if (se == prev)
		return task_of(se);
	if (prev)
		put_prev_entity(cfs_rq, prev);
	set_next_entity(cfs_rq, se);
	return task_of(se);
}

static void put_prev_task_eevdf(struct rq *rq, struct task_struct *prev)
{
	(void)rq;
	(void)prev;
}

/* ---------------------------------------------------------------- preemption */

/*
 * The woken task preempts when it is what the pick would now choose: eligible with an earlier
 * deadline than curr, and curr not protected. A woken task with a shorter slice than curr's
 * ignores that protection, and if it does not win now, curr's protection shrinks to its slice
 * (PREEMPT_SHORT).
 */
static void check_preempt_wakeup_eevdf(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct sched_system *sys = rq->sys;
	struct task_struct *curr = rq->curr;
	struct cfs_rq *cfs_rq = &rq->cfs;

	(void)wake_flags;
	if (!curr) {
		resched_curr(rq); /* the CPU is idle */
		return;
	}
	if (curr == p || rq->need_resched || !sched_feat(sys, SF_WAKEUP_PREEMPT))
		return;

	struct sched_entity *se = &curr->se, *pse = &p->se;

	update_curr(cfs_rq);

	bool preempt_short = sched_feat(sys, SF_PREEMPT_SHORT) && pse->slice < se->slice;

	if (__pick_eevdf(cfs_rq, !preempt_short) == pse) {
		if (preempt_short)
			cancel_protect_slice(se);
		resched_curr(rq);
		return;
	}
	if (preempt_short && sched_feat(sys, SF_RUN_TO_PARITY))
		update_protect_slice(cfs_rq, se);
}

/* ---------------------------------------------------------------- the class */

static void enqueue_task_eevdf(struct rq *rq, struct task_struct *p, int flags)
{
	if (flags & ENQUEUE_DELAYED)
		requeue_delayed_entity(&rq->cfs, &p->se);
	else
		enqueue_entity(&rq->cfs, &p->se, flags);
}

static void dequeue_task_eevdf(struct rq *rq, struct task_struct *p, int flags)
{
	dequeue_entity(&rq->cfs, &p->se, flags);
}

static void update_curr_eevdf(struct rq *rq)
{
	update_curr(&rq->cfs);
}

/* Preemption at the tick is update_curr()'s: a served request, or a protected slice ended. */
static void task_tick_eevdf(struct rq *rq, struct task_struct *curr)
{
	(void)curr;
	update_curr(&rq->cfs);
}

/*
 * A new task is placed by its first enqueue (ENQUEUE_INITIAL), with no lag, and its load starts
 * at its full weight (the kernel's init_entity_runnable_average).
 */
static void task_fork_eevdf(struct rq *rq, struct task_struct *p)
{
	p->se.avg.load_avg = (double)p->se.load.weight;
	p->se.avg.last_update_time = rq_clock(rq);
	update_curr(&rq->cfs);
}

/*
 * A task carries its lag in vlag, relative to whichever queue's V it joins: nothing to convert.
 * Its load leaves the old queue's average; the new queue counts it when it is enqueued there.
 */
static void migrate_task_rq_eevdf(struct sched_system *sys, struct task_struct *p, int new_cpu)
{
	(void)sys;
	(void)new_cpu;
	if (pelt_on(p->se.cfs_rq))
		detach_entity_load_avg(p->se.cfs_rq, &p->se);
}

const struct sched_class eevdf_sched_class = {
	.name = "eevdf",
	.enqueue_task = enqueue_task_eevdf,
	.dequeue_task = dequeue_task_eevdf,
	.check_preempt_curr = check_preempt_wakeup_eevdf,
	.pick_next_task = pick_next_task_eevdf,
	.put_prev_task = put_prev_task_eevdf,
	.select_task_rq = select_task_rq_fair,
	.migrate_task_rq = migrate_task_rq_eevdf,
	.task_tick = task_tick_eevdf,
	.task_fork = task_fork_eevdf,
	.idle_balance = idle_balance,
	.trigger_load_balance = trigger_load_balance,
	.update_curr = update_curr_eevdf,
};
