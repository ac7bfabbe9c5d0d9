/*
 * tasks.h - the simple workload models of `linsched run`, and the --task specification that
 * creates them:
 *
 *   cpu            always runnable
 *   sleeprun       busy busy_ms of CPU, then asleep sleep_ms, repeated
 *   randsleeprun   the same with busy and sleep times drawn from a distribution (dist=
 *                  exponential | normal | lognormal) with means busy_ms and sleep_ms and, for
 *                  normal and lognormal, coefficient of variation cv (sd / mean, default 0.5);
 *                  normal draws below zero count as zero, which raises the mean slightly
 *                  (+0.4% at cv 0.5, +9% at cv 1)
 *
 * A specification is "kind[:key=value]...". Every kind takes nice (-20..19, default 0), count
 * (default 1) and slice_ns (the task's own EEVDF request, 100000..100000000 ns, as
 * sched_setattr(sched_runtime) sets it; EEVDF profiles with per-task slices only); the sleep/run
 * kinds take loops (busy/sleep cycles before exiting; 0, the default, runs forever).
 */
#ifndef TASKS_TASKS_H
#define TASKS_TASKS_H

#include <stdbool.h>

#include <glib.h>

#include "linsched/sim.h"

enum task_dist {
	DIST_EXPONENTIAL,
	DIST_NORMAL,
	DIST_LOGNORMAL
};

struct task_spec {
	const char *kind; /* static string: "cpu", "sleeprun", "randsleeprun" */
	int nice;
	unsigned int count;
	double busy_ms, sleep_ms;
	double cv;
	enum task_dist dist;
	unsigned long loops;
	uint64_t slice_ns; /* 0: the base slice */
};

/* Parses one --task value; errors name the flag, the kind or key, and the value. */
bool task_spec_parse(const char *text, struct task_spec *spec, GError **error);

/* Whether the profile's kernel can run the specification (per-task slices need 6.12+). */
bool task_spec_check_profile(const struct task_spec *spec, const struct sched_profile *profile,
			     GError **error);

/* Creates spec->count tasks in sim. */
void task_spec_spawn(struct linsched_sim *sim, const struct task_spec *spec);

/* The models, for callers that build tasks by hand. */
struct linsched_task *cpu_task_create(struct linsched_sim *sim, const char *name, int nice);
struct linsched_task *cpu_task_create_sliced(struct linsched_sim *sim, const char *name, int nice,
					     uint64_t slice_ns);
struct linsched_task *sleeprun_task_create(struct linsched_sim *sim, const struct task_spec *spec,
					   const char *name);

#endif
