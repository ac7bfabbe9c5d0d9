/*
 * sched_debug.c - the invariants of the -DSCHED_DEBUG build (see sched_debug.h).
 */
#include "linsched/sched_debug.h"

#include <glib.h>

#include "kernel-extract/sched_class.h"

static bool fail(char **why, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static bool fail(char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return false;
}

static const struct task_struct *task_of_se(const struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}

/*
 * The subtree at node: a valid red-black tree whose parent is parent. Returns its black height,
 * or -1 with *why set. Counts its nodes and sums their weights into *n and *load.
 */
static int check_subtree(const struct rb_node *node, const struct rb_node *parent, int cpu,
			 unsigned int *n, unsigned long *load, char **why)
{
	if (!node)
		return 1;
	if (rb_parent(node) != parent)
		return fail(why, "cpu %d: a tree node's parent link is wrong", cpu), -1;
	if (rb_is_red(node) && ((node->rb_left && rb_is_red(node->rb_left)) ||
				(node->rb_right && rb_is_red(node->rb_right))))
		return fail(why, "cpu %d: a red node has a red child", cpu), -1;
	int left = check_subtree(node->rb_left, node, cpu, n, load, why);
	if (left < 0)
		return -1;
	int right = check_subtree(node->rb_right, node, cpu, n, load, why);
	if (right < 0)
		return -1;
	if (left != right)
		return fail(why, "cpu %d: black heights %d and %d under one node", cpu, left,
			    right),
		       -1;
	const struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
	(*n)++;
	*load += se->load.weight;
	return left + rb_is_black(node);
}

static bool is_eevdf(const struct rq *rq)
{
	return rq->sys && rq->sys->policy == &eevdf_sched_class;
}

/* The order of the tree: EEVDF's by virtual deadline, CFS's by vruntime (signed differences). */
static bool out_of_order(const struct rq *rq, const struct sched_entity *prev,
			 const struct sched_entity *se)
{
	if (is_eevdf(rq))
		return (s64)(se->deadline - prev->deadline) < 0;
	return (s64)(se->vruntime - prev->vruntime) < 0;
}

/*
 * EEVDF's augmented tree: every node holds the least vruntime and the least and greatest slice
 * of its subtree, which pick_eevdf and the slice protection read. True when the subtree at node
 * holds them; *min_v, *min_s and *max_s are its own.
 */
static bool check_augmented(const struct rb_node *node, int cpu, u64 *min_v, u64 *min_s, u64 *max_s,
			    char **why)
{
	const struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
	const struct rb_node *children[2] = { node->rb_left, node->rb_right };
	u64 v = se->vruntime, lo = se->slice, hi = se->slice;

	for (int i = 0; i < 2; i++) {
		u64 cv, cs, ch;

		if (!children[i])
			continue;
		if (!check_augmented(children[i], cpu, &cv, &cs, &ch, why))
			return false;
		if ((s64)(cv - v) < 0)
			v = cv;
		lo = MIN(lo, cs);
		hi = MAX(hi, ch);
	}
	if (se->min_vruntime != v || se->min_slice != lo || se->max_slice != hi)
		return fail(why,
			    "cpu %d: task %d's subtree summary (min vruntime %" G_GUINT64_FORMAT
			    ", slices %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
			    ") is not its subtree's (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
			    "..%" G_GUINT64_FORMAT ")",
			    cpu, task_of_se(se)->pid, (guint64)se->min_vruntime,
			    (guint64)se->min_slice, (guint64)se->max_slice, (guint64)v, (guint64)lo,
			    (guint64)hi);
	*min_v = v;
	*min_s = lo;
	*max_s = hi;
	return true;
}

/* EEVDF's V: the sums over the tree (curr apart) that avg_vruntime() divides, kept exactly. */
static bool check_avg_sums(const struct rq *rq, char **why)
{
	const struct cfs_rq *cfs = &rq->cfs;
	const struct rb_root *root = &cfs->tasks_timeline.rb_root;
	s64 sum = 0;
	unsigned long load = 0;

	for (const struct rb_node *node = rb_first(root); node; node = rb_next(node)) {
		const struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);

		sum += (s64)(se->vruntime - cfs->min_vruntime) * (s64)se->load.weight;
		load += se->load.weight;
	}
	if (sum != cfs->avg_vruntime || load != cfs->avg_load)
		return fail(why,
			    "cpu %d: avg_vruntime %" G_GINT64_FORMAT
			    " and avg_load %lu, but the tree "
			    "sums to %" G_GINT64_FORMAT " and %lu",
			    rq->cpu, (gint64)cfs->avg_vruntime, cfs->avg_load, (gint64)sum, load);
	if (root->rb_node) {
		u64 v, lo, hi;

		return check_augmented(root->rb_node, rq->cpu, &v, &lo, &hi, why);
	}
	return true;
}

bool sched_debug_check_rq(const struct rq *rq, char **why)
{
	const struct cfs_rq *cfs = &rq->cfs;
	const struct rb_root *root = &cfs->tasks_timeline.rb_root;
	unsigned int n = 0;
	unsigned long load = 0;

	if (root->rb_node && !rb_is_black(root->rb_node))
		return fail(why, "cpu %d: the tree's root is red", rq->cpu);
	if (check_subtree(root->rb_node, NULL, rq->cpu, &n, &load, why) < 0)
		return false;
	if (cfs->tasks_timeline.rb_leftmost != rb_first(root))
		return fail(why, "cpu %d: the cached leftmost is not the first node", rq->cpu);
	const struct sched_entity *prev = NULL;
	for (const struct rb_node *node = rb_first(root); node; node = rb_next(node)) {
		const struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
		if (prev && out_of_order(rq, prev, se))
			return fail(why,
				    "cpu %d: task %d (%s %" G_GUINT64_FORMAT
				    ") after task %d (%" G_GUINT64_FORMAT ") in the tree",
				    rq->cpu, task_of_se(se)->pid,
				    is_eevdf(rq) ? "deadline" : "vruntime",
				    (guint64)(is_eevdf(rq) ? se->deadline : se->vruntime),
				    task_of_se(prev)->pid,
				    (guint64)(is_eevdf(rq) ? prev->deadline : prev->vruntime));
		if (!se->on_rq)
			return fail(why, "cpu %d: task %d is in the tree but not on_rq", rq->cpu,
				    task_of_se(se)->pid);
		prev = se;
	}
	if (cfs->curr && cfs->curr->on_rq) {
		n++;
		load += cfs->curr->load.weight;
	}
	if (cfs->nr_running != n)
		return fail(why, "cpu %d: cfs nr_running %u, but %u entities are queued", rq->cpu,
			    cfs->nr_running, n);
	if (cfs->load.weight != load)
		return fail(why, "cpu %d: cfs load %lu, but the queued entities weigh %lu", rq->cpu,
			    cfs->load.weight, load);
	if (rq->nr_running != cfs->nr_running)
		return fail(why, "cpu %d: rq nr_running %u, cfs nr_running %u", rq->cpu,
			    rq->nr_running, cfs->nr_running);
	return !is_eevdf(rq) || check_avg_sums(rq, why);
}

/* How many trees hold p's entity, and of how many queues p is curr. */
static void places(const struct sched_system *sys, const struct task_struct *p,
		   unsigned int *in_trees, unsigned int *as_curr)
{
	*in_trees = *as_curr = 0;
	for (unsigned int c = 0; c < sys->nr_cpus; c++) {
		const struct rq *rq = &sys->rqs[c];
		const struct rb_root *root = &rq->cfs.tasks_timeline.rb_root;

		*as_curr += rq->curr == p;
		for (const struct rb_node *node = rb_first(root); node; node = rb_next(node))
			*in_trees += node == &p->se.run_node;
	}
}

static bool check_task(const struct sched_system *sys, const struct task_struct *p, char **why)
{
	unsigned int in_trees, as_curr;

	places(sys, p, &in_trees, &as_curr);
	if (in_trees + as_curr > 1)
		return fail(why, "task %d is in %u trees and the curr of %u queues", p->pid,
			    in_trees, as_curr);
	/* EEVDF's DELAY_DEQUEUE: a task that blocked with negative lag stays queued, not picked,
	 * until its lag is paid off. */
	if (p->state != TASK_RUNNING && p->se.sched_delayed) {
		if (in_trees != 1 || as_curr || !p->se.on_rq || p->on_cpu)
			return fail(why,
				    "task %d is delayed but in %u trees (curr of %u, on_rq %u)",
				    p->pid, in_trees, as_curr, p->se.on_rq);
		return true;
	}
	if (p->state != TASK_RUNNING) {
		if (in_trees + as_curr || p->se.on_rq || p->on_cpu)
			return fail(why, "task %d is %s but on a run queue", p->pid,
				    p->state == TASK_DEAD  ? "exited"
				    : p->state == TASK_NEW ? "new"
							   : "blocked or asleep");
		return true;
	}
	if (as_curr) {
		const struct rq *rq = &sys->rqs[p->cpu];
		if (!p->on_cpu || rq->curr != p || rq->cfs.curr != &p->se || !p->se.on_rq)
			return fail(why, "task %d runs, but not as the curr of its cpu %d", p->pid,
				    p->cpu);
		return true;
	}
	if (in_trees != 1 || p->on_cpu || !p->se.on_rq)
		return fail(why, "task %d is runnable but in %u trees (on_cpu %d, on_rq %u)",
			    p->pid, in_trees, p->on_cpu, p->se.on_rq);
	if (p->se.cfs_rq != &sys->rqs[p->cpu].cfs)
		return fail(why, "task %d is queued, but not on the queue of its cpu %d", p->pid,
			    p->cpu);
	return true;
}

bool sched_debug_check(struct sched_debug *dbg, const struct sched_system *sys,
		       const struct task_struct *const *tasks, unsigned int nr_tasks, char **why)
{
	for (unsigned int c = 0; c < sys->nr_cpus; c++) {
		const struct rq *rq = &sys->rqs[c];
		u64 min = rq->cfs.min_vruntime;

		if (!sched_debug_check_rq(rq, why))
			return false;
		if (dbg->checks && (s64)(min - dbg->min_vruntime[c]) < 0)
			return fail(why,
				    "cpu %u: min_vruntime went back from %" G_GUINT64_FORMAT
				    " to %" G_GUINT64_FORMAT,
				    c, (guint64)dbg->min_vruntime[c], (guint64)min);
		dbg->min_vruntime[c] = min;
	}
	for (unsigned int i = 0; i < nr_tasks; i++)
		if (!check_task(sys, tasks[i], why))
			return false;
	dbg->checks++;
	return true;
}

void sched_debug_assert(struct sched_debug *dbg, const struct sched_system *sys,
			const struct task_struct *const *tasks, unsigned int nr_tasks,
			uint64_t seed)
{
	char *why = NULL;

	if (!sched_debug_check(dbg, sys, tasks, nr_tasks, &why))
		g_error("SCHED_DEBUG: after event %" G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT
			" ns (seed %" G_GUINT64_FORMAT "): %s",
			(guint64)dbg->checks + 1, (guint64)sys->clock, (guint64)seed, why);
}
