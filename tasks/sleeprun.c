/*
 * sleeprun.c - tasks that alternate a CPU burst and a sleep: fixed lengths (sleeprun) or lengths
 * drawn from a distribution (randsleeprun), each task from its own seeded stream.
 */
#include <math.h>

#include <gsl/gsl_randist.h>

#include "tasks/tasks.h"

struct sleeprun {
	struct task_spec spec;
	bool random;
	bool asleep_next; /* the burst is done: sleep next */
	unsigned long cycles;
};

static uint64_t draw_ns(struct linsched_task *t, const struct sleeprun *sr, double mean_ms)
{
	double ms = mean_ms;

	if (sr->random && mean_ms > 0) {
		gsl_rng *rng = linsched_task_rng(t);
		double sd = sr->spec.cv * mean_ms;

		switch (sr->spec.dist) {
		case DIST_EXPONENTIAL:
			ms = gsl_ran_exponential(rng, mean_ms);
			break;
		case DIST_NORMAL:
			ms = mean_ms + gsl_ran_gaussian(rng, sd);
			break;
		case DIST_LOGNORMAL: {
			/* The parameters that give this mean and sd. */
			double sigma2 = log1p(sr->spec.cv * sr->spec.cv);

			ms = gsl_ran_lognormal(rng, log(mean_ms) - sigma2 / 2, sqrt(sigma2));
			break;
		}
		}
		if (ms < 0)
			ms = 0; /* a normal draw below zero: no time at all */
	}
	return (uint64_t)llround(ms * (double)NSEC_PER_MSEC);
}

static void sleeprun_next(struct linsched_task *t, struct linsched_step *step)
{
	struct sleeprun *sr = linsched_task_data(t);

	if (sr->asleep_next) {
		sr->asleep_next = false;
		sr->cycles++;
		step->kind = LINSCHED_STEP_SLEEP;
		step->ns = draw_ns(t, sr, sr->spec.sleep_ms);
		/* A zero-length sleep is no sleep: go straight on to the next burst. */
		if (step->ns == 0)
			step->kind = LINSCHED_STEP_RUN;
		return;
	}
	if (sr->spec.loops && sr->cycles >= sr->spec.loops) {
		step->kind = LINSCHED_STEP_EXIT;
		return;
	}
	sr->asleep_next = true;
	step->kind = LINSCHED_STEP_RUN;
	step->ns = draw_ns(t, sr, sr->spec.busy_ms);
}

static const struct linsched_task_ops sleeprun_ops = {
	.kind = "sleeprun",
	.next = sleeprun_next,
	.free = g_free,
};

static const struct linsched_task_ops randsleeprun_ops = {
	.kind = "randsleeprun",
	.next = sleeprun_next,
	.free = g_free,
};

struct linsched_task *sleeprun_task_create(struct linsched_sim *sim, const struct task_spec *spec,
					   const char *name)
{
	struct sleeprun *sr = g_new0(struct sleeprun, 1);

	sr->spec = *spec;
	sr->random = g_strcmp0(spec->kind, "randsleeprun") == 0;
	return linsched_task_create_sliced(sim, sr->random ? &randsleeprun_ops : &sleeprun_ops, sr,
					   name, spec->nice, spec->slice_ns);
}
