/* Tasks set up by hand for the tests of the CFS policy: see sched_tasks.h. */
#include "tests/support/sched_tasks.h"

void new_task(struct sched_system *sys, struct task_struct *p, int pid, int nice, int cpu)
{
	sched_fork(sys, p, pid, nice);
	p->cpu = cpu;
	p->se.cfs_rq = &cpu_rq(sys, cpu)->cfs;
}

void queue_at(struct sched_system *sys, struct task_struct *p, int pid, int nice, int cpu,
	      u64 vruntime)
{
	new_task(sys, p, pid, nice, cpu);
	p->se.vruntime = vruntime;
	p->state = TASK_RUNNING;
	activate_task(cpu_rq(sys, cpu), p, 0);
}
