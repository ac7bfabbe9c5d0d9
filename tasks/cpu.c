/*
 * cpu.c - a task that always wants the CPU.
 */
#include "tasks/tasks.h"

/* Long enough to need few steps, short enough to keep the work counter far from overflow. */
#define CPU_CHUNK_NS (1000ULL * NSEC_PER_SEC)

static void cpu_next(struct linsched_task *t, struct linsched_step *step)
{
	(void)t;
	step->kind = LINSCHED_STEP_RUN;
	step->ns = CPU_CHUNK_NS;
}

static const struct linsched_task_ops cpu_ops = {
	.kind = "cpu",
	.next = cpu_next,
};

struct linsched_task *cpu_task_create(struct linsched_sim *sim, const char *name, int nice)
{
	return cpu_task_create_sliced(sim, name, nice, 0);
}

struct linsched_task *cpu_task_create_sliced(struct linsched_sim *sim, const char *name, int nice,
					     uint64_t slice_ns)
{
	return linsched_task_create_sliced(sim, &cpu_ops, NULL, name, nice, slice_ns);
}
