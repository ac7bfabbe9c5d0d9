/*
 * bootstrap.c - hackbench as bootstrapped tasks (SPEC.md §4): no messages, only CPU demand.
 *
 * A group alone keeps its CPUs busy for solo_ms, so each of its 2F tasks needs
 * solo_ms x min(cpus, 2F) / 2F of CPU time. A task makes progress per tick it runs,
 *   P = tick / Solo x Deg,
 * where Deg is 1 while no live task of another group is on a CPU of its memory domain, and the
 * measured degradation factor otherwise. So how much two groups slow each other depends on how
 * long the scheduler keeps both alive at once. Progress is charged in chunks of at most one tick, so the factor
 * follows the neighbours as they come and go.
 */
#include "tasks/hackbench_internal.h"

#include <math.h>

#include "kernel-extract/sched.h"

struct boot_task {
	struct hackbench *hb;
	unsigned int group;
	double work_ns; /* CPU time still needed at full speed */
	int domain;	/* where it is counted as present, -1: nowhere */
};

static unsigned int *present(struct hackbench *hb, int domain, unsigned int group)
{
	return &hb->present[(size_t)domain * hb->p.groups + group];
}

static void leave_domain(struct boot_task *bt)
{
	if (bt->domain < 0)
		return;
	if (--*present(bt->hb, bt->domain, bt->group) == 0)
		bt->hb->groups_in_domain[bt->domain]--;
	bt->domain = -1;
}

static void enter_domain(struct boot_task *bt, int domain)
{
	if (bt->domain == domain)
		return;
	leave_domain(bt);
	if ((*present(bt->hb, domain, bt->group))++ == 0)
		bt->hb->groups_in_domain[domain]++;
	bt->domain = domain;
}

static int task_domain(const struct linsched_task *t)
{
	const struct sched_system *sys = linsched_sim_sched(linsched_task_sim(t));

	return cpu_rq(sys, linsched_task_sched(t)->cpu)->node;
}

static void boot_next(struct linsched_task *t, struct linsched_step *step)
{
	struct boot_task *bt = linsched_task_data(t);
	uint64_t tick = linsched_sim_tick_ns(bt->hb->sim);

	/* Below half a nanosecond of work there is nothing left to schedule. */
	if (bt->work_ns < 0.5) {
		leave_domain(bt);
		step->kind = LINSCHED_STEP_EXIT;
		return;
	}
	enter_domain(bt, task_domain(t));

	double deg = bt->hb->groups_in_domain[bt->domain] > 1 ? bt->hb->p.degradation : 1.0;
	double cpu_ns = fmin((double)tick, ceil(bt->work_ns / deg));

	bt->work_ns -= cpu_ns * deg;
	step->kind = LINSCHED_STEP_RUN;
	step->ns = (uint64_t)cpu_ns;
}

static const struct linsched_task_ops boot_ops = { .kind = "hackbench-boot",
						   .next = boot_next,
						   .free = g_free };

struct linsched_task *bootstrap_task_create(struct hackbench *hb, unsigned int group,
					    unsigned int index, bool sender)
{
	struct boot_task *bt = g_new0(struct boot_task, 1);
	unsigned int cpus = linsched_sim_config(hb->sim)->nr_cpus;
	unsigned int group_tasks = 2 * hb->p.fds;
	char name[LINSCHED_COMM_LEN];

	bt->hb = hb;
	bt->group = group;
	bt->domain = -1;
	bt->work_ns = hb->p.solo_ms * (double)NSEC_PER_MSEC * MIN(cpus, group_tasks) / group_tasks;
	g_snprintf(name, sizeof(name), "%s-%u.%u", sender ? "sender" : "receiver", group, index);

	struct linsched_task *t = linsched_task_create(hb->sim, &boot_ops, bt, name, 0);

	/* A task shares its domain from the moment it is queued there, not only once it ran. */
	enter_domain(bt, task_domain(t));
	return t;
}
