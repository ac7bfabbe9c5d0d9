/*
 * Tests of the simulation engine (linsched/sim) through its public API, end to end with the CFS
 * policy of kernel-extract/ and the task models of tasks/.
 *
 * Expected numbers are worked out in the comments from the facts of SPEC.md sections 2 and 3
 * (load weights, default knobs, tick-granular preemption) or from the engine's documented
 * accounting (sim.h), never read back from the code under test. Where exact numbers are
 * predictable the tests set every cost to 0 or to round values and check equality.
 *
 * Most tests drive tasks with a "script" model written here: a list of actions (run, sleep,
 * block, exit, plus bookkeeping actions that wake a wait queue, charge a cost or log the time),
 * so that each test states the exact behaviour it simulates.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "linsched/report.h"
#include "linsched/sim.h"
#include "tasks/tasks.h"

#define MS  NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

/* ---- the script model ----------------------------------------------------------------------- */

enum act_kind {
	A_RUN,	   /* step: use ns of CPU */
	A_SYSCALL, /* step: use ns of CPU in a system call (linsched_step.kernel) */
	A_SLEEP,   /* step: sleep ns */
	A_BLOCK,   /* step: block on the world's wait queue (logged) */
	A_EXIT,	   /* step: exit */
	A_CHARGE,  /* linsched_task_charge(ns), then go on */
	A_WAKE,	   /* linsched_wake_up(world's wq, nr) (logged with what it did), then go on */
	A_MARK,	   /* log the time, then go on */
	A_EPOCH,   /* linsched_sim_set_epoch, then go on */
};

struct act {
	enum act_kind kind;
	uint64_t ns;
	unsigned int nr;
};

#define MAX_WATCH 16

/* What the scripts of one simulation share; owned by the test, outlives the simulation's run. */
struct world {
	struct linsched_waitqueue wq;
	GArray *log;				/* struct log_entry */
	struct linsched_task *watch[MAX_WATCH]; /* tasks whose state a wake logs */
	unsigned int nr_watch;
};

struct log_entry {
	enum act_kind kind;
	int id;
	uint64_t now;
	unsigned int woken;    /* A_WAKE: what linsched_wake_up returned */
	uint32_t asleep;       /* A_WAKE: watched tasks still blocked after it */
	bool waitqueue_active; /* A_WAKE: after it */
};

struct script {
	const struct act *acts;
	size_t n, pc;
	struct world *world;
};

static void world_init(struct world *w)
{
	memset(w, 0, sizeof(*w));
	linsched_waitqueue_init(&w->wq);
	w->log = g_array_new(FALSE, TRUE, sizeof(struct log_entry));
}

static void world_clear(struct world *w)
{
	g_array_free(w->log, TRUE);
}

static void world_log(struct world *w, enum act_kind kind, struct linsched_task *t)
{
	struct log_entry e = {
		.kind = kind,
		.id = linsched_task_id(t),
		.now = linsched_sim_now(linsched_task_sim(t)),
	};

	g_array_append_val(w->log, e);
}

static void script_next(struct linsched_task *t, struct linsched_step *step)
{
	struct script *s = linsched_task_data(t);
	struct world *w = s->world;

	for (;;) {
		if (s->pc >= s->n) {
			step->kind = LINSCHED_STEP_EXIT;
			return;
		}
		const struct act *a = &s->acts[s->pc++];

		switch (a->kind) {
		case A_RUN:
		case A_SYSCALL:
			step->kind = LINSCHED_STEP_RUN;
			step->ns = a->ns;
			step->kernel = a->kind == A_SYSCALL;
			return;
		case A_SLEEP:
			step->kind = LINSCHED_STEP_SLEEP;
			step->ns = a->ns;
			return;
		case A_BLOCK:
			world_log(w, A_BLOCK, t);
			step->kind = LINSCHED_STEP_BLOCK;
			step->wq = &w->wq;
			return;
		case A_EXIT:
			step->kind = LINSCHED_STEP_EXIT;
			return;
		case A_CHARGE:
			linsched_task_charge(t, a->ns);
			break;
		case A_WAKE: {
			unsigned int woken = linsched_wake_up(t, &w->wq, a->nr, false);

			world_log(w, A_WAKE, t);
			struct log_entry *e =
				&g_array_index(w->log, struct log_entry, w->log->len - 1);

			e->woken = woken;
			e->waitqueue_active = linsched_waitqueue_active(&w->wq);
			for (unsigned int i = 0; i < w->nr_watch; i++)
				if (linsched_task_sched(w->watch[i])->state == TASK_INTERRUPTIBLE)
					e->asleep |= 1U << i;
			break;
		}
		case A_MARK:
			world_log(w, A_MARK, t);
			break;
		case A_EPOCH:
			linsched_sim_set_epoch(linsched_task_sim(t));
			break;
		}
	}
}

static const struct linsched_task_ops script_ops = {
	.kind = "script",
	.next = script_next,
	.free = g_free,
};

static struct linsched_task *script_create(struct linsched_sim *sim, struct world *w,
					   const struct act *acts, size_t n, const char *name,
					   int nice)
{
	struct script *s = g_new0(struct script, 1);

	s->acts = acts;
	s->n = n;
	s->world = w;
	return linsched_task_create(sim, &script_ops, s, name, nice);
}

#define SCRIPT(sim, w, acts, name) script_create(sim, w, acts, G_N_ELEMENTS(acts), name, 0)

/* ---- the switch hook: a log of every context switch ------------------------------------------ */

struct switch_rec {
	int cpu;
	uint64_t now;
	int prev, next; /* task ids, -1: idle */
};

struct switch_log {
	GArray *recs;
	int curr[SCHED_MAX_CPUS];  /* what the log says each CPU runs, -1 idle */
	unsigned int inconsistent; /* switches whose prev was not what the CPU ran */
};

static void switch_log_init(struct switch_log *l)
{
	l->recs = g_array_new(FALSE, TRUE, sizeof(struct switch_rec));
	for (int i = 0; i < SCHED_MAX_CPUS; i++)
		l->curr[i] = -1;
	l->inconsistent = 0;
}

static void switch_log_clear(struct switch_log *l)
{
	g_array_free(l->recs, TRUE);
}

static void on_switch(void *ctx, int cpu, uint64_t now, const struct linsched_task *prev,
		      const struct linsched_task *next)
{
	struct switch_log *l = ctx;
	struct switch_rec r = {
		.cpu = cpu,
		.now = now,
		.prev = prev ? linsched_task_id(prev) : -1,
		.next = next ? linsched_task_id(next) : -1,
	};

	if (l->curr[cpu] != r.prev || r.prev == r.next)
		l->inconsistent++;
	l->curr[cpu] = r.next;
	g_array_append_val(l->recs, r);
}

static const struct switch_rec *rec_at(const struct switch_log *l, guint i)
{
	return &g_array_index(l->recs, struct switch_rec, i);
}

/* ---- helpers ---------------------------------------------------------------------------------- */

static void zero_costs(struct linsched_config *cfg)
{
	cfg->costs.switch_ns = 0;
	cfg->costs.wakeup_ns = 0;
	cfg->costs.migrate_ns = 0;
	cfg->costs.miss_ps = 0;
}

static struct linsched_sim *sim_new(const struct linsched_config *cfg)
{
	GError *error = NULL;

	if (!linsched_config_validate(cfg, &error))
		fail_msg("bad test configuration: %s", error->message);
	struct linsched_sim *sim = linsched_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

static struct linsched_task_stats stats_of(struct linsched_sim *sim, unsigned int i)
{
	struct linsched_task_stats st;

	linsched_task_stats(linsched_sim_task(sim, i), &st);
	return st;
}

static void spawn(struct linsched_sim *sim, const char *text)
{
	struct task_spec spec;
	GError *error = NULL;

	if (!task_spec_parse(text, &spec, &error))
		fail_msg("%s: %s", text, error->message);
	task_spec_spawn(sim, &spec);
}

static double rel_err(double got, double want)
{
	return fabs(got - want) / fabs(want);
}

/* ---- configuration ---------------------------------------------------------------------------- */

/* SPEC.md section 3: base values times 1 + ilog2(ncpus) (6.1: ncpus capped at 8). */
static void test_config_defaults(void **state)
{
	(void)state;
	const struct {
		const char *profile;
		unsigned int cpus;
		uint64_t lat, gran, wake;
		unsigned int nr_latency;
	} cases[] = {
		{ "2.6.28", 1, 20 * MS, 4 * MS, 5 * MS, 5 },
		{ "2.6.28", 2, 40 * MS, 8 * MS, 10 * MS, 5 },
		{ "2.6.28", 4, 60 * MS, 12 * MS, 15 * MS, 5 },
		{ "2.6.28", 8, 80 * MS, 16 * MS, 20 * MS, 5 },
		{ "2.6.28", 64, 140 * MS, 28 * MS, 35 * MS, 5 },
		{ "6.1", 1, 6 * MS, 750000, 1 * MS, 8 },
		{ "6.1", 2, 12 * MS, 1500000, 2 * MS, 8 },
		{ "6.1", 16, 24 * MS, 3 * MS, 4 * MS, 8 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct linsched_config cfg;
		const struct sched_profile *p = sched_profile_find(cases[i].profile);

		assert_non_null(p);
		linsched_config_init(&cfg, p, cases[i].cpus);
		assert_ptr_equal(cfg.profile, p);
		assert_int_equal(cfg.nr_cpus, cases[i].cpus);
		assert_int_equal(cfg.nr_domains, 1);
		assert_int_equal(cfg.hz, 1000);
		assert_int_equal(cfg.tun.latency, cases[i].lat);
		assert_int_equal(cfg.tun.min_granularity, cases[i].gran);
		assert_int_equal(cfg.tun.wakeup_granularity, cases[i].wake);
		assert_int_equal(cfg.tun.migration_cost, 500000);
		assert_int_equal(cfg.tun.nr_latency, cases[i].nr_latency);
		assert_int_equal(cfg.duration_ns, 0);
		assert_true(linsched_config_validate(&cfg, NULL));
	}
	/* NULL: the default profile, 2.6.28 */
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 2);
	assert_string_equal(cfg.profile->name, "2.6.28");
	assert_int_equal(cfg.costs.switch_ns, LINSCHED_DEFAULT_SWITCH_NS);
	assert_int_equal(cfg.costs.cache_lines, LINSCHED_DEFAULT_CACHE_LINES);
}

static void expect_invalid(const struct linsched_config *cfg, const char *names)
{
	GError *error = NULL;

	assert_false(linsched_config_validate(cfg, &error));
	assert_non_null(error);
	if (!strstr(error->message, names))
		fail_msg("'%s' does not name %s", error->message, names);
	assert_null(strchr(error->message, '\n'));
	g_error_free(error);
}

static void test_config_validate(void **state)
{
	(void)state;
	struct linsched_config base, cfg;

	linsched_config_init(&base, NULL, 4);
	cfg = base;
	cfg.costs.jitter_cv = -0.1;
	expect_invalid(&cfg, "--cost-jitter");
	cfg = base;
	cfg.costs.jitter_cv = LINSCHED_MAX_JITTER_CV + 0.5;
	expect_invalid(&cfg, "--cost-jitter");
	cfg = base;
	cfg.nr_cpus = 0;
	expect_invalid(&cfg, "--cpus");
	cfg = base;
	cfg.nr_cpus = SCHED_MAX_CPUS + 1;
	expect_invalid(&cfg, "--cpus");
	cfg = base;
	cfg.nr_domains = 3;
	expect_invalid(&cfg, "--domains");
	cfg = base;
	cfg.nr_domains = 0;
	expect_invalid(&cfg, "--domains");
	cfg = base;
	cfg.hz = 500;
	expect_invalid(&cfg, "--hz");
	cfg = base;
	cfg.tun.latency = 99999;
	expect_invalid(&cfg, "--latency-ns");
	cfg = base;
	cfg.tun.latency = 1000000001;
	expect_invalid(&cfg, "--latency-ns");
	cfg = base;
	cfg.tun.min_granularity = 0;
	expect_invalid(&cfg, "--min-gran-ns");
	cfg = base;
	cfg.tun.wakeup_granularity = 1000000001;
	expect_invalid(&cfg, "--wakeup-gran-ns");
	cfg = base;
	cfg.costs.cache_lines = 0;
	expect_invalid(&cfg, "--cache-lines");
	cfg = base;
	cfg.costs.steal_ppm = LINSCHED_PPM;
	cfg.costs.stall_ns = MS;
	expect_invalid(&cfg, "--steal");
	cfg = base;
	cfg.costs.steal_ppm = 1000;
	cfg.costs.stall_ns = 0;
	expect_invalid(&cfg, "--stall-ns");
	cfg = base;
	cfg.costs.host_cpus = base.nr_cpus;
	cfg.costs.stall_ns = MS;
	expect_invalid(&cfg, "--host-cpus");
	cfg = base;
	cfg.costs.host_cpus = 1;
	cfg.costs.steal_ppm = 1000;
	cfg.costs.stall_ns = MS;
	expect_invalid(&cfg, "--host-cpus");
	cfg = base;
	cfg.costs.host_cpus = 1;
	cfg.costs.stall_ns = 0;
	expect_invalid(&cfg, "--stall-ns");
	cfg = base;
	cfg.costs.host_cpus = 1;
	cfg.costs.stall_ns = MS;
	cfg.costs.shared_ns = MS;
	expect_invalid(&cfg, "--shared-ns, --apart-ns");
	cfg = base;
	cfg.costs.shared_ns = cfg.costs.apart_ns = MS;
	expect_invalid(&cfg, "--shared-ns");
	/* Spells take both the turns and the steal. */
	cfg = base;
	cfg.costs.host_cpus = 1;
	cfg.costs.steal_ppm = 1000;
	cfg.costs.stall_ns = MS;
	cfg.costs.shared_ns = cfg.costs.apart_ns = MS;
	assert_true(linsched_config_validate(&cfg, NULL));
	cfg = base;
	cfg.costs.stall_cv = 0;
	expect_invalid(&cfg, "--stall-cv");
	cfg = base;
	cfg.costs.stall_cv = LINSCHED_MAX_STALL_CV * 2;
	expect_invalid(&cfg, "--stall-cv");
	cfg = base;
	cfg.costs.noise_ppm = 1000;
	cfg.costs.noise_ns = 0;
	expect_invalid(&cfg, "[noise]");
	cfg = base;
	cfg.costs.noise_cv = 0;
	expect_invalid(&cfg, "[noise]");
	cfg = base;
	cfg.costs.long_ppm = 1000;
	cfg.costs.long_ns = 0;
	expect_invalid(&cfg, "long_ns");
	cfg = base;
	cfg.costs.long_cv = LINSCHED_MAX_STALL_CV * 2;
	expect_invalid(&cfg, "long_cv_pct");
	cfg = base;
	cfg.costs.ipi_ns = SEC + 1;
	expect_invalid(&cfg, "ipi_ns");
	cfg = base;
	cfg.costs.wakeup_tail_ns = SEC + 1;
	expect_invalid(&cfg, "wakeup_tail_ns");

	/* the edges of the sysctl ranges are valid */
	cfg = base;
	cfg.tun.latency = 100000;
	cfg.tun.min_granularity = 1000000000;
	cfg.tun.wakeup_granularity = 0;
	cfg.nr_domains = 2;
	cfg.hz = 300;
	cfg.costs.ipi_ns = SEC;
	cfg.costs.wakeup_tail_ns = SEC;
	assert_true(linsched_config_validate(&cfg, NULL));
}

/* ---- fairness --------------------------------------------------------------------------------- */

/*
 * Two CPU hogs at nice 0 and nice 5 on one CPU share it in the ratio of their weights,
 * 1024 : 335 (SPEC.md section 3), i.e. 75.35% : 24.65%, within 1%. Costs are left at their
 * defaults: they are charged to whoever runs, so they do not change the shares.
 */
static void test_fairness_nice(void **state)
{
	(void)state;
	const char *profiles[] = { "2.6.28", "6.1" };

	for (size_t p = 0; p < G_N_ELEMENTS(profiles); p++) {
		struct linsched_config cfg;

		linsched_config_init(&cfg, sched_profile_find(profiles[p]), 1);
		cfg.duration_ns = 10 * SEC;
		struct linsched_sim *sim = sim_new(&cfg);

		cpu_task_create(sim, "nice0", 0);
		cpu_task_create(sim, "nice5", 5);
		linsched_sim_run(sim);

		struct linsched_task_stats a = stats_of(sim, 0), b = stats_of(sim, 1);
		double total = (double)(a.sum_exec_ns + b.sum_exec_ns);

		assert_int_equal(a.nice, 0);
		assert_int_equal(b.nice, 5);
		assert_int_equal(a.sum_exec_ns + b.sum_exec_ns, 10 * SEC);
		assert_true(rel_err((double)a.sum_exec_ns / total, 1024.0 / 1359.0) < 0.01);
		assert_true(rel_err((double)b.sum_exec_ns / total, 335.0 / 1359.0) < 0.01);
		assert_true(rel_err((double)a.sum_exec_ns / (double)b.sum_exec_ns, 1024.0 / 335.0) <
			    0.01);
		printf("      %s nice 0 : nice 5 = %.4f (1024/335 = %.4f)\n", profiles[p],
		       (double)a.sum_exec_ns / (double)b.sum_exec_ns, 1024.0 / 335.0);
		linsched_sim_free(sim);
	}
}

/* Four hogs on two CPUs: each gets half a CPU, 50% +- 2% of the run. */
static void test_fairness_4_on_2(void **state)
{
	(void)state;
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 2);
	cfg.duration_ns = 10 * SEC;
	struct linsched_sim *sim = sim_new(&cfg);

	for (int i = 0; i < 4; i++)
		spawn(sim, "cpu");
	linsched_sim_run(sim);
	for (unsigned int i = 0; i < 4; i++) {
		double share = (double)stats_of(sim, i).sum_exec_ns / (double)cfg.duration_ns;

		assert_true(share >= 0.48 && share <= 0.52);
	}
	linsched_sim_free(sim);
}

/*
 * Three hogs on two CPUs for 30 s. Without balancing one task would keep a CPU to itself (30 s)
 * and the other two would share the other (15 s each): a max/min ratio of 2. Periodic balancing
 * moves tasks so that each gets close to 2/3 of a CPU (20 s); demand a ratio of at most 1.5, that
 * no task had 90% of the run, and that every task migrated at least once.
 */
static void test_balance_3_on_2(void **state)
{
	(void)state;
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 2);
	cfg.duration_ns = 30 * SEC;
	struct linsched_sim *sim = sim_new(&cfg);

	for (int i = 0; i < 3; i++)
		cpu_task_create(sim, "hog", 0);
	linsched_sim_run(sim);

	uint64_t lo = UINT64_MAX, hi = 0, total = 0;

	printf("      3 hogs on 2 CPUs, 30 s:");
	for (unsigned int i = 0; i < 3; i++) {
		struct linsched_task_stats st = stats_of(sim, i);

		printf(" task %u %.3f s (%.2f%% of a CPU, %" G_GUINT64_FORMAT " migrations)", i,
		       (double)st.sum_exec_ns / 1e9,
		       100.0 * (double)st.sum_exec_ns / (double)cfg.duration_ns, st.nr_migrations);
		lo = MIN(lo, st.sum_exec_ns);
		hi = MAX(hi, st.sum_exec_ns);
		total += st.sum_exec_ns;
		assert_true(st.nr_migrations >= 1);
		assert_true(st.sum_exec_ns < cfg.duration_ns * 9 / 10);
	}
	printf("\n");
	assert_int_equal(total, 2 * cfg.duration_ns);
	assert_true((double)hi <= 1.5 * (double)lo);
	assert_true(linsched_sim_result(sim)->migrations >= 3);
	linsched_sim_free(sim);
}

/* ---- the task API ----------------------------------------------------------------------------- */

/*
 * A task with one 50 ms burst shares a CPU with a hog. It is preempted in the middle of its burst
 * (the slice on one CPU is 20 ms / 2 = 10 ms), keeps the work it has left, and exits after
 * exactly 50 ms of CPU (no costs). Its exit time is the instant the switch hook sees it leave.
 */
static void test_preempted_burst_keeps_work(void **state)
{
	(void)state;
	static const struct act burst[] = { { A_RUN, 50 * MS, 0 }, { A_EXIT, 0, 0 } };
	struct linsched_config cfg;
	struct world w;
	struct switch_log sl;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	cfg.duration_ns = 1 * SEC;
	world_init(&w);
	switch_log_init(&sl);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_sim_set_switch_hook(sim, on_switch, &sl);
	SCRIPT(sim, &w, burst, "burst");
	cpu_task_create(sim, "hog", 0);
	linsched_sim_run(sim);

	struct linsched_task_stats x = stats_of(sim, 0), hog = stats_of(sim, 1);

	assert_true(x.exited);
	assert_int_equal(x.sum_exec_ns, 50 * MS);
	assert_true(x.nivcsw >= 2);   /* preempted mid-burst, more than once */
	assert_int_equal(x.nvcsw, 1); /* the exit */
	assert_true(x.exit_ns > 50 * MS);
	assert_false(hog.exited);
	assert_int_equal(hog.sum_exec_ns, 1 * SEC - 50 * MS);
	assert_int_equal(sl.inconsistent, 0);

	uint64_t last_out = 0;

	for (guint i = 0; i < sl.recs->len; i++)
		if (rec_at(&sl, i)->prev == 0)
			last_out = rec_at(&sl, i)->now;
	assert_int_equal(x.exit_ns, last_out);
	/* one CPU, always busy, no costs: at its exit the CPU had done its 50 ms and the hog's part */
	assert_true(x.exit_ns < 1 * SEC);
	linsched_sim_free(sim);
	switch_log_clear(&sl);
	world_clear(&w);
}

/*
 * Two finite bursts, 50 ms and 30 ms, on one CPU, run to completion, with a switch cost S. Each
 * switch-in charges S to the task switched in, before its work goes on; the CPU never idles in
 * between. So each task's sum_exec is its burst plus S per switch-in (pcount), and the run ends
 * at 80 ms + S * (pcount_x + pcount_y). S = 0 gives the costless case exactly.
 */
static void check_two_bursts(uint64_t switch_ns)
{
	static const struct act x_acts[] = { { A_RUN, 50 * MS, 0 } };
	static const struct act y_acts[] = { { A_RUN, 30 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;
	struct switch_log sl;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	cfg.costs.switch_ns = switch_ns;
	world_init(&w);
	switch_log_init(&sl);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_sim_set_switch_hook(sim, on_switch, &sl);
	SCRIPT(sim, &w, x_acts, "x");
	SCRIPT(sim, &w, y_acts, "y");
	linsched_sim_run(sim);

	const struct linsched_result *res = linsched_sim_result(sim);
	struct linsched_task_stats x = stats_of(sim, 0), y = stats_of(sim, 1);

	assert_true(x.exited && y.exited);
	assert_true(x.nivcsw >= 1 && y.nivcsw >= 1);
	assert_int_equal(x.sum_exec_ns, 50 * MS + x.pcount * switch_ns);
	assert_int_equal(y.sum_exec_ns, 30 * MS + y.pcount * switch_ns);
	assert_int_equal(res->runtime_ns, 80 * MS + (x.pcount + y.pcount) * switch_ns);
	assert_int_equal(MAX(x.exit_ns, y.exit_ns), res->runtime_ns);
	assert_false(res->deadlock);
	/* every switch-in, plus the final switch to idle */
	assert_int_equal(res->context_switches, x.pcount + y.pcount + 1);
	assert_int_equal(sl.recs->len, res->context_switches);
	assert_int_equal(sl.inconsistent, 0);
	assert_int_equal(res->cpu_busy_ns[0], res->runtime_ns);
	if (switch_ns == 0) {
		/*
		 * The schedule by hand: y, created second, gets the smaller START_DEBIT (half the 20 ms
		 * latency against x's whole) and runs first. The slice of each is exactly
		 * 20 ms * 1024 / 2048 = 10 ms and a task is preempted once it has run *more* than that,
		 * i.e. at the 11th tick: y 0-11, x 11-22, y 22-33, x 33-44, y 44-52 (30 ms done: exit),
		 * x alone 52-80.
		 */
		assert_int_equal(y.exit_ns, 52 * MS);
		assert_int_equal(x.exit_ns, 80 * MS);
		assert_int_equal(x.pcount, 3);
		assert_int_equal(y.pcount, 3);
		assert_int_equal(rec_at(&sl, 0)->next, 1);
	}
	linsched_sim_free(sim);
	switch_log_clear(&sl);
	world_clear(&w);
}

static void test_two_bursts_exact(void **state)
{
	(void)state;
	check_two_bursts(0);
}

static void test_switch_cost(void **state)
{
	(void)state;
	check_two_bursts(7000);
	check_two_bursts(LINSCHED_DEFAULT_SWITCH_NS);
}

/*
 * Three finite bursts on two CPUs with a switch cost S and a migration cost M: whatever the
 * balancer does, each task pays S per switch-in and M per arrival on another CPU, on top of its
 * own work.
 */
/*
 * Cost jitter: without it a cost is its mean and draws nothing; with CV c the draws are gamma with
 * that mean and CV.  100 000 draws of mean 1000, c = 0.2: the sample mean has standard error
 * 1000 c / sqrt(N) = 0.63 and the sample sd (gamma excess kurtosis 6 c^2) about
 * 200 sqrt((2 + 6 c^2) / (4 N)) = 0.47; both within 5 standard errors.  The same seed draws the
 * same costs, another seed other costs.
 */
static void test_cost_jitter_draws(void **state)
{
	(void)state;
	enum {
		N = 100000
	};
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 1);
	struct linsched_sim *fixed = linsched_sim_new(&cfg);

	for (int i = 0; i < 10; i++)
		assert_int_equal(linsched_cost(fixed, 1234), 1234);
	linsched_sim_free(fixed);

	cfg.costs.jitter_cv = 0.2;
	cfg.seed = 5;

	struct linsched_sim *a = linsched_sim_new(&cfg), *b = linsched_sim_new(&cfg);
	double sum = 0, sum2 = 0;
	bool same = true;

	for (int i = 0; i < N; i++) {
		uint64_t x = linsched_cost(a, 1000);

		same &= x == linsched_cost(b, 1000);
		sum += (double)x;
		sum2 += (double)x * (double)x;
	}

	double mean = sum / N, sd = sqrt((sum2 - N * mean * mean) / (N - 1));

	assert_true(same);
	assert_true(fabs(mean - 1000) < 5 * 0.63);
	assert_true(fabs(sd - 200) < 5 * 0.47);
	assert_int_equal(linsched_cost(a, 0), 0);
	cfg.seed = 6;

	struct linsched_sim *c = linsched_sim_new(&cfg);
	int differ = 0;

	for (int i = 0; i < 100; i++)
		differ += linsched_cost(a, 1000) != linsched_cost(c, 1000);
	assert_true(differ > 90);
	linsched_sim_free(a);
	linsched_sim_free(b);
	linsched_sim_free(c);
}

static void test_migration_cost(void **state)
{
	(void)state;
	static const struct act a300[] = { { A_RUN, 300 * MS, 0 } };
	static const struct act a200[] = { { A_RUN, 200 * MS, 0 } };
	static const struct act a100[] = { { A_RUN, 100 * MS, 0 } };
	const uint64_t work[] = { 300 * MS, 200 * MS, 100 * MS };
	const uint64_t S = 3000, M = 11000;
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 2);
	zero_costs(&cfg);
	cfg.costs.switch_ns = S;
	cfg.costs.migrate_ns = M;
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	SCRIPT(sim, &w, a300, "a");
	SCRIPT(sim, &w, a200, "b");
	SCRIPT(sim, &w, a100, "c");
	linsched_sim_run(sim);

	uint64_t migrations = 0;

	for (unsigned int i = 0; i < 3; i++) {
		struct linsched_task_stats st = stats_of(sim, i);

		assert_true(st.exited);
		assert_int_equal(st.sum_exec_ns, work[i] + st.pcount * S + st.nr_migrations * M);
		migrations += st.nr_migrations;
	}
	assert_true(migrations >= 1);
	assert_int_equal(linsched_sim_result(sim)->migrations, migrations);
	linsched_sim_free(sim);
	world_clear(&w);
}

/*
 * Wakeup costs. A sleep's timer has no waker task, so its wakeup is charged to the sleeper; a
 * wait-queue wakeup is charged to the waker (sim.h), once per task actually asleep.
 */
static void test_wakeup_cost(void **state)
{
	(void)state;
	static const struct act sleeper[] = {
		{ A_RUN, 1 * MS, 0 },	{ A_SLEEP, 5 * MS, 0 }, { A_RUN, 1 * MS, 0 },
		{ A_SLEEP, 5 * MS, 0 }, { A_RUN, 1 * MS, 0 },	{ A_SLEEP, 5 * MS, 0 },
		{ A_RUN, 1 * MS, 0 },
	};
	static const struct act waiter[] = { { A_BLOCK, 0, 0 }, { A_RUN, 1 * MS, 0 } };
	static const struct act waker[] = { { A_RUN, 20 * MS, 0 },
					    { A_WAKE, 0, 0 },
					    { A_RUN, 1 * MS, 0 } };
	const uint64_t S = 2000, W = 13000;
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	cfg.costs.switch_ns = S;
	cfg.costs.wakeup_ns = W;
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	SCRIPT(sim, &w, sleeper, "sleeper");
	SCRIPT(sim, &w, waiter, "w1");
	SCRIPT(sim, &w, waiter, "w2");
	SCRIPT(sim, &w, waker, "waker");
	linsched_sim_run(sim);

	struct linsched_task_stats s = stats_of(sim, 0), w1 = stats_of(sim, 1),
				   w2 = stats_of(sim, 2), k = stats_of(sim, 3);

	assert_true(s.exited && w1.exited && w2.exited && k.exited);
	assert_int_equal(s.sum_exec_ns, 4 * MS + s.pcount * S + 3 * W);
	assert_int_equal(w1.sum_exec_ns, 1 * MS + w1.pcount * S);
	assert_int_equal(w2.sum_exec_ns, 1 * MS + w2.pcount * S);
	assert_int_equal(k.sum_exec_ns, 21 * MS + k.pcount * S + 2 * W);
	linsched_sim_free(sim);
	world_clear(&w);
}

/* A script and its length. */
struct cast {
	const struct act *acts;
	size_t n;
};

/*
 * Runs a task per letter of order under cfg, forked in its order ('k' runs waker, 'w' waiter, any
 * other hog), every switch logged in sl; w and sl are initialised here, the caller frees all.
 */
static struct linsched_sim *run_order(const struct linsched_config *cfg, struct world *w,
				      struct switch_log *sl, const char *order, struct cast waker,
				      struct cast waiter, struct cast hog)
{
	world_init(w);
	switch_log_init(sl);
	struct linsched_sim *sim = sim_new(cfg);

	linsched_sim_set_switch_hook(sim, on_switch, sl);
	for (const char *c = order; *c; c++) {
		const struct cast *a = *c == 'k' ? &waker : *c == 'w' ? &waiter : &hog;
		char name[2] = { *c == 'k' || *c == 'w' ? *c : 'h', 0 };

		script_create(sim, w, a->acts, a->n, name, 0);
	}
	linsched_sim_run(sim);
	return sim;
}

/*
 * A wakeup onto another CPU costs the waker wakeup_remote_ns only when it makes that CPU
 * reschedule, as the kernel's IPI does: the CPU is idle, or the woken task preempts what runs
 * there. Queued behind a task that keeps the CPU, it costs what a local wakeup does, and so does
 * waking a second task onto a CPU already due to reschedule.
 *
 * 6.1 on two CPUs, every cost 0 but the wakeups (W local, R remote). Tasks are forked in the
 * order given: the waker k, waiters w (run 1 ms, block, run 1 ms) and hogs h (run 60 ms). k runs
 * 20.5 ms (so its wakeup falls between ticks), wakes all waiters, runs 1 ms more. k must run only
 * on CPU 0 and the waiters only on CPU 1 (checked from the switch log), so every wakeup is
 * remote, and k's CPU time is exactly 21.5 ms plus what it paid:
 *   - "kw": CPU 1 is idle at the wakeup: R;
 *   - "kwhh": a hog runs alone on CPU 1, so min_vruntime is its vruntime; the waiter slept
 *     longer than half a latency (6 ms of the 12 on 2 CPUs), so it is placed 6 ms behind it and
 *     preempts (6 ms > the 2 ms wakeup granularity): R;
 *   - the same with a wakeup granularity of 10 ms: it waits for the hog's next tick: W;
 *   - "kwhwh": both waiters on CPU 1; the first wakeup makes CPU 1 reschedule (idle, or
 *     running a hog its balancing pulled, which the waiter preempts as above): R; the second
 *     finds it already due to: W.
 */
static void check_remote_wake(const char *order, uint64_t wake_gran, uint64_t want_paid)
{
	static const struct act waker[] = { { A_RUN, 20 * MS + MS / 2, 0 },
					    { A_WAKE, 0, 0 },
					    { A_RUN, 1 * MS, 0 } };
	static const struct act waiter[] = { { A_RUN, 1 * MS, 0 },
					     { A_BLOCK, 0, 0 },
					     { A_RUN, 1 * MS, 0 } };
	static const struct act hogger[] = { { A_RUN, 60 * MS, 0 } };
	const uint64_t W = 3000, R = 17000, work = 21 * MS + MS / 2;
	struct linsched_config cfg;
	struct switch_log sl;
	struct world w;

	linsched_config_init(&cfg, sched_profile_find("6.1"), 2);
	zero_costs(&cfg);
	cfg.costs.wakeup_ns = W;
	cfg.costs.wakeup_remote_ns = R;
	if (wake_gran)
		cfg.tun.wakeup_granularity = wake_gran;
	struct linsched_sim *sim =
		run_order(&cfg, &w, &sl, order, (struct cast){ waker, G_N_ELEMENTS(waker) },
			  (struct cast){ waiter, G_N_ELEMENTS(waiter) },
			  (struct cast){ hogger, G_N_ELEMENTS(hogger) });

	for (guint i = 0; i < sl.recs->len; i++) {
		const struct switch_rec *r = rec_at(&sl, i);

		if (r->next >= 0 && order[r->next] != 'h' &&
		    r->cpu != (order[r->next] == 'k' ? 0 : 1))
			fail_msg("%s: task %d (%c) switched in on CPU %d at %" G_GUINT64_FORMAT
				 " ns",
				 order, r->next, order[r->next], r->cpu, r->now);
	}
	struct linsched_task_stats k = stats_of(sim, 0);

	assert_true(k.exited);
	if (k.sum_exec_ns != work + want_paid)
		fail_msg("%s, wakeup granularity %" G_GUINT64_FORMAT
			 " ns: the waker paid %" G_GUINT64_FORMAT
			 " ns, expected %" G_GUINT64_FORMAT,
			 order, wake_gran, k.sum_exec_ns - work, want_paid);
	linsched_sim_free(sim);
	switch_log_clear(&sl);
	world_clear(&w);
}

static void test_wakeup_remote_cost(void **state)
{
	(void)state;
	check_remote_wake("kw", 0, 17000);
	check_remote_wake("kwhh", 0, 17000);
	check_remote_wake("kwhh", 10 * MS, 3000);
	check_remote_wake("kwhwh", 0, 17000 + 3000);
}

/* The time of the first A_MARK task id logged in w. */
static uint64_t mark_of(const struct world *w, int id)
{
	for (guint i = 0; i < w->log->len; i++) {
		const struct log_entry *e = &g_array_index(w->log, struct log_entry, i);

		if (e->kind == A_MARK && e->id == id)
			return e->now;
	}
	fail_msg("task %d logged no A_MARK", id);
	return 0;
}

/*
 * A reschedule IPI's flight (costs.ipi_ns): a wakeup that makes another CPU reschedule takes
 * effect there when the interrupt arrives, or sooner if that CPU gets there by itself: at its
 * tick, or when its task returns from a system call.
 *
 * The tasks of check_remote_wake's "kwhh", every cost 0, HZ 1000 (checked from the switch log
 * by hand): k and a hog share CPU 0 in slices of 7 ms, w and the other hog h CPU 1, where h runs
 * 0 to 7 ms, w 7 to 8 ms (then it blocks), and h alone from 8 ms on. k has run 20.5 ms at 41.5
 * ms, when it wakes w, which is placed 6 ms behind h and preempts it. w's mark is the instant
 * it runs again:
 *   - no flight: 41.5 ms;
 *   - 0.3 ms: 41.8 ms;
 *   - 0.7 ms: the tick of 42 ms comes first: 42 ms;
 *   - 0.3 ms, h's first 40.6 ms in a system call (to 41.6 ms): its return, 41.6 ms;
 *   - 0.3 ms, h's first 40.9 ms in a system call (to 41.9 ms): the IPI, 41.8 ms;
 *   - 0.3 ms, h's first 40.6 ms in user space (to 41.6 ms): h has not seen the flag and goes on
 *     with its next step; the IPI, 41.8 ms.
 * Without the hogs ("kw") k runs alone on CPU 0 and wakes w at 20.5 ms onto the idle CPU 1,
 * which has no tick to come sooner: w runs at 20.5 ms plus the flight.
 */
static void check_ipi_flight(const char *order, uint64_t ipi_ns, uint64_t first_ns, bool in_kernel,
			     uint64_t want)
{
	static const struct act waker[] = { { A_RUN, 20 * MS + MS / 2, 0 },
					    { A_WAKE, 0, 0 },
					    { A_RUN, 1 * MS, 0 } };
	static const struct act waiter[] = {
		{ A_RUN, 1 * MS, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_RUN, 1 * MS, 0 }
	};
	const struct act hogger[] = { { in_kernel ? A_SYSCALL : A_RUN, first_ns, 0 },
				      { A_RUN, 60 * MS, 0 } };
	struct linsched_config cfg;
	struct switch_log sl;
	struct world w;

	linsched_config_init(&cfg, sched_profile_find("6.1"), 2);
	zero_costs(&cfg);
	cfg.costs.ipi_ns = ipi_ns;
	struct linsched_sim *sim =
		run_order(&cfg, &w, &sl, order, (struct cast){ waker, G_N_ELEMENTS(waker) },
			  (struct cast){ waiter, G_N_ELEMENTS(waiter) },
			  (struct cast){ hogger, G_N_ELEMENTS(hogger) });

	for (guint i = 0; i < sl.recs->len; i++) {
		const struct switch_rec *r = rec_at(&sl, i);

		if (r->next == 1 && r->cpu != 1)
			fail_msg("w switched in on CPU %d at %" G_GUINT64_FORMAT " ns", r->cpu,
				 r->now);
	}
	if (mark_of(&w, 1) != want)
		fail_msg("%s, IPI %" G_GUINT64_FORMAT " ns, first step %" G_GUINT64_FORMAT
			 " ns%s: w ran at %" G_GUINT64_FORMAT " ns, expected %" G_GUINT64_FORMAT,
			 order, ipi_ns, first_ns, in_kernel ? " (a system call)" : "",
			 mark_of(&w, 1), want);
	linsched_sim_free(sim);
	switch_log_clear(&sl);
	world_clear(&w);
}

static void test_ipi_flight(void **state)
{
	(void)state;
	check_ipi_flight("kwhh", 0, 0, false, 41 * MS + MS / 2);
	check_ipi_flight("kwhh", 300000, 0, false, 41 * MS + 800000);
	check_ipi_flight("kwhh", 700000, 0, false, 42 * MS);
	check_ipi_flight("kwhh", 300000, 40 * MS + 600000, true, 41 * MS + 600000);
	check_ipi_flight("kwhh", 300000, 40 * MS + 900000, true, 41 * MS + 800000);
	check_ipi_flight("kwhh", 300000, 40 * MS + 600000, false, 41 * MS + 800000);
	check_ipi_flight("kw", 0, 0, false, 20 * MS + MS / 2);
	check_ipi_flight("kw", 700000, 0, false, 21 * MS + 200000);
}

/*
 * Cache reload in the engine, with a cache of 1000 lines at 5 000 ps a line (5 ns): a task's
 * first switch-in reloads its whole footprint (cold); alone on its CPU it stays warm after that.
 * Two tasks alternating on one CPU: with footprints of 1000 lines each, the other one's run
 * evicts everything, so every switch-in reloads 1000 lines (5 us); with 600 and 500 lines they
 * overlap by 100 lines, so after the cold start each switch-in reloads exactly 100 (500 ns).
 */
static void check_two_cached(uint64_t fx, uint64_t fy, uint64_t warm_reload)
{
	static const struct act x_acts[] = { { A_RUN, 50 * MS, 0 } };
	static const struct act y_acts[] = { { A_RUN, 30 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	cfg.costs.cache_lines = 1000;
	cfg.costs.miss_ps = 5000;
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_task_set_footprint(SCRIPT(sim, &w, x_acts, "x"), fx);
	linsched_task_set_footprint(SCRIPT(sim, &w, y_acts, "y"), fy);
	linsched_sim_run(sim);
	struct linsched_task_stats x = stats_of(sim, 0), y = stats_of(sim, 1);

	assert_true(x.pcount >= 2 && y.pcount >= 2);
	assert_true(y.exit_ns < x.exit_ns);
	/* x's last switch-in comes after y's exit: y's run evicted x's lines all the same */
	if (x.sum_exec_ns != 50 * MS + fx * 5 + (x.pcount - 1) * warm_reload * 5)
		fail_msg("footprints %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
			 ": x (pcount %lu) sum_exec %" G_GUINT64_FORMAT
			 ", expected 50 ms + %" G_GUINT64_FORMAT " cold + %lu x %" G_GUINT64_FORMAT
			 " reloaded lines x 5 ns",
			 fx, fy, x.pcount, x.sum_exec_ns, fx * 5, x.pcount - 1, warm_reload);
	assert_int_equal(y.sum_exec_ns, 30 * MS + fy * 5 + (y.pcount - 1) * warm_reload * 5);
	linsched_sim_free(sim);
	world_clear(&w);
}

static void test_cache_cost(void **state)
{
	(void)state;
	static const struct act alone[] = {
		{ A_RUN, 1 * MS, 0 },	{ A_SLEEP, 2 * MS, 0 }, { A_RUN, 1 * MS, 0 },
		{ A_SLEEP, 2 * MS, 0 }, { A_RUN, 1 * MS, 0 },
	};
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	cfg.costs.cache_lines = 1000;
	cfg.costs.miss_ps = 5000;
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_task_set_footprint(SCRIPT(sim, &w, alone, "alone"), 800);
	linsched_sim_run(sim);
	struct linsched_task_stats st = stats_of(sim, 0);

	assert_int_equal(st.pcount, 3);
	assert_int_equal(st.sum_exec_ns, 3 * MS + 800 * 5);
	linsched_sim_free(sim);
	world_clear(&w);

	check_two_cached(1000, 1000, 1000);
	check_two_cached(600, 500, 100);
}

/*
 * Wait queues: four waiters each run a little, then block on one queue; the order they block in
 * is the scheduler's (logged). The waker, once they all sleep, wakes one, sleeps 2 ms (so the one
 * woken runs), then wakes all, then finds the queue empty. The one woken first must be the first
 * that blocked (FIFO); all must wake.
 */
static void test_waitqueue_wake_one_then_all(void **state)
{
	(void)state;
	static const struct act waiter[] = {
		{ A_RUN, 1 * MS, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_RUN, 1 * MS, 0 }
	};
	static const struct act waker[] = {
		{ A_SLEEP, 20 * MS, 0 }, { A_WAKE, 0, 1 }, { A_SLEEP, 2 * MS, 0 },
		{ A_WAKE, 0, 0 },	 { A_WAKE, 0, 0 }, { A_RUN, 1 * MS, 0 },
	};
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	for (int i = 0; i < 4; i++)
		w.watch[w.nr_watch++] = SCRIPT(sim, &w, waiter, "waiter");
	SCRIPT(sim, &w, waker, "waker");
	assert_false(linsched_waitqueue_active(&w.wq));
	linsched_sim_run(sim);

	/* the log: 4 blocks, then the three wakes, with marks of woken waiters in between */
	int blocked[4], nb = 0, nwake = 0;
	const struct log_entry *wakes[3];

	for (guint i = 0; i < w.log->len; i++) {
		const struct log_entry *e = &g_array_index(w.log, struct log_entry, i);

		if (e->kind == A_BLOCK) {
			assert_true(nb < 4);
			assert_int_equal(nwake, 0);
			blocked[nb++] = e->id;
		} else if (e->kind == A_WAKE) {
			assert_true(nwake < 3);
			wakes[nwake++] = e;
		}
	}
	assert_int_equal(nb, 4);
	assert_int_equal(nwake, 3);
	assert_int_equal(wakes[0]->woken, 1);
	assert_int_equal(wakes[0]->asleep, 0xfU & ~(1U << blocked[0])); /* watch index == task id */
	assert_true(wakes[0]->waitqueue_active);
	assert_int_equal(wakes[1]->woken, 3);
	assert_int_equal(wakes[1]->asleep, 0);
	assert_false(wakes[1]->waitqueue_active);
	assert_int_equal(wakes[2]->woken, 0);
	assert_int_equal(wakes[0]->now, 20 * MS);

	/* the first woken ran before the rest were woken: its mark precedes the second wake */
	bool first_marked_early = false;

	for (guint i = 0; i < w.log->len; i++) {
		const struct log_entry *e = &g_array_index(w.log, struct log_entry, i);

		if (e == wakes[1])
			break;
		if (e->kind == A_MARK && e->id == blocked[0])
			first_marked_early = true;
	}
	assert_true(first_marked_early);

	for (unsigned int i = 0; i < 4; i++) {
		struct linsched_task_stats st = stats_of(sim, i);

		assert_true(st.exited);
		assert_int_equal(st.nvcsw, 2); /* the block and the exit */
	}
	assert_true(stats_of(sim, 4).exited);
	assert_false(linsched_sim_result(sim)->deadlock);
	linsched_sim_free(sim);
	world_clear(&w);
}

/*
 * A wakeup that comes while the task has decided to block but is still paying costs (the
 * kernel's prepare_to_wait window) is not lost: the task does not sleep at all. On two CPUs: the
 * waiter (CPU 0) charges itself 5 ms and blocks; the waker (CPU 1) wakes the queue at 2 ms. No
 * other costs: the waiter goes on at 5 ms and exits there, with one voluntary switch (its exit).
 * Control: a wakeup at 7 ms finds it asleep since 5 ms and it runs again at 7 ms.
 */
static void check_early_wakeup(uint64_t wake_at, uint64_t expect_exit, unsigned long expect_nvcsw)
{
	static const struct act waiter[] = { { A_CHARGE, 5 * MS, 0 },
					     { A_BLOCK, 0, 0 },
					     { A_MARK, 0, 0 } };
	const struct act waker[] = { { A_RUN, wake_at, 0 }, { A_WAKE, 0, 1 } };
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 2);
	zero_costs(&cfg);
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	w.watch[w.nr_watch++] = SCRIPT(sim, &w, waiter, "waiter");
	SCRIPT(sim, &w, waker, "waker");
	linsched_sim_run(sim);

	struct linsched_task_stats st = stats_of(sim, 0);
	const struct log_entry *wake = NULL;

	for (guint i = 0; i < w.log->len; i++)
		if (g_array_index(w.log, struct log_entry, i).kind == A_WAKE)
			wake = &g_array_index(w.log, struct log_entry, i);
	assert_non_null(wake);
	assert_int_equal(wake->now, wake_at);
	assert_int_equal(wake->woken, 1);
	assert_int_equal(wake->asleep, 0);
	assert_int_equal(stats_of(sim, 1).cpu, 1);
	assert_int_equal(st.cpu, 0);
	assert_true(st.exited);
	assert_int_equal(st.exit_ns, expect_exit);
	assert_int_equal(st.sum_exec_ns, 5 * MS);
	assert_int_equal(st.nvcsw, expect_nvcsw);
	assert_int_equal(st.nivcsw, 0);
	assert_false(linsched_sim_result(sim)->deadlock);
	linsched_sim_free(sim);
	world_clear(&w);
}

static void test_wakeup_before_block_not_lost(void **state)
{
	(void)state;
	check_early_wakeup(2 * MS, 5 * MS, 1);
	check_early_wakeup(7 * MS, 7 * MS, 2);
}

/* A sleep step: the task is off the CPU for exactly the time given, and the CPU idles meanwhile. */
static void test_sleep_step(void **state)
{
	(void)state;
	static const struct act acts[] = { { A_RUN, 1 * MS, 0 },
					   { A_SLEEP, 10 * MS, 0 },
					   { A_RUN, 2 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;
	struct switch_log sl;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	world_init(&w);
	switch_log_init(&sl);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_sim_set_switch_hook(sim, on_switch, &sl);
	SCRIPT(sim, &w, acts, "s");
	linsched_sim_run(sim);

	struct linsched_task_stats st = stats_of(sim, 0);
	const struct linsched_result *res = linsched_sim_result(sim);
	const struct switch_rec want[] = {
		{ 0, 0, -1, 0 },
		{ 0, 1 * MS, 0, -1 },
		{ 0, 11 * MS, -1, 0 },
		{ 0, 13 * MS, 0, -1 },
	};

	assert_true(st.exited);
	assert_int_equal(st.exit_ns, 13 * MS);
	assert_int_equal(st.sum_exec_ns, 3 * MS);
	assert_int_equal(st.run_delay_ns, 0);
	assert_int_equal(st.pcount, 2);
	assert_int_equal(st.nvcsw, 2);
	assert_int_equal(res->runtime_ns, 13 * MS);
	assert_int_equal(res->jiffies, 13);
	assert_int_equal(res->cpu_busy_ns[0], 3 * MS);
	assert_int_equal(sl.recs->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		assert_int_equal(rec_at(&sl, i)->cpu, want[i].cpu);
		assert_int_equal(rec_at(&sl, i)->now, want[i].now);
		assert_int_equal(rec_at(&sl, i)->prev, want[i].prev);
		assert_int_equal(rec_at(&sl, i)->next, want[i].next);
	}
	linsched_sim_free(sim);
	switch_log_clear(&sl);
	world_clear(&w);
}

/* The time of the first A_MARK in w's log. */
static uint64_t first_mark(const struct world *w)
{
	for (guint i = 0; i < w->log->len; i++)
		if (g_array_index(w->log, struct log_entry, i).kind == A_MARK)
			return g_array_index(w->log, struct log_entry, i).now;
	fail_msg("no A_MARK in the log");
	return 0;
}

/* Two scripts, forked in this order, run to their end. */
struct pair_run {
	struct linsched_task_stats first, second;
	uint64_t mark;	     /* the first A_MARK's time */
	uint64_t runtime_ns; /* the simulation's */
};

/* 6.1 on one CPU, every cost 0, under the preemption model given. */
static struct pair_run run_pair(enum linsched_preempt preempt, const struct act *first,
				size_t n_first, const struct act *second, size_t n_second)
{
	struct linsched_config cfg;
	struct world w;
	struct pair_run out;

	linsched_config_init(&cfg, sched_profile_find("6.1"), 1);
	zero_costs(&cfg);
	cfg.preempt = preempt;
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	script_create(sim, &w, first, n_first, "first", 0);
	script_create(sim, &w, second, n_second, "second", 0);
	linsched_sim_run(sim);
	out.first = stats_of(sim, 0);
	out.second = stats_of(sim, 1);
	out.mark = first_mark(&w);
	out.runtime_ns = linsched_sim_result(sim)->runtime_ns;
	linsched_sim_free(sim);
	world_clear(&w);
	return out;
}

/*
 * Voluntary preemption (machine.h, linsched_preempt): a wakee that should preempt its waker
 * waits until the waker's system call returns; from user space it preempts at once.
 *
 * 6.1 on one CPU (latency 6 ms, wakeup granularity 1 ms, a sleeper placed 3 ms behind
 * min_vruntime), every cost 0. START_DEBIT places a new task one slice of the queue it joins
 * after min_vruntime: k, forked first, at 6 ms, w beside it at 3 ms, so w runs first: 1 ms, then
 * it blocks (vruntime 4 ms). k runs alone 20 ms (vruntime 26 ms), wakes w at 21 ms and goes on
 * with 3 ms of `tail`, then 1 ms. w is placed at 26 - 3 = 23 ms, 3 ms behind k, more than the
 * granularity: it preempts.
 *   - full preemption: w runs at 21 ms;
 *   - voluntary, tail a system call: at 24 ms, when k returns to user space (the ticks of 22
 *     and 23 ms change nothing: the reschedule is already due);
 *   - voluntary, tail in user space: at 21 ms.
 * Either way k is preempted once (an involuntary switch), and both are done at 26 ms.
 */
static void check_wakee_waits(enum linsched_preempt preempt, enum act_kind tail, uint64_t want)
{
	static const struct act waiter[] = {
		{ A_RUN, 1 * MS, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_RUN, 1 * MS, 0 }
	};
	const struct act waker[] = {
		{ A_RUN, 20 * MS, 0 }, { A_WAKE, 0, 0 }, { tail, 3 * MS, 0 }, { A_RUN, 1 * MS, 0 }
	};
	struct pair_run r =
		run_pair(preempt, waker, G_N_ELEMENTS(waker), waiter, G_N_ELEMENTS(waiter));

	assert_int_equal(r.mark, want);
	assert_int_equal(r.first.nivcsw, 1);
	assert_int_equal(r.second.nivcsw, 0);
	assert_int_equal(r.runtime_ns, 26 * MS);
}

static void test_voluntary_wakee_waits_for_syscall(void **state)
{
	(void)state;
	check_wakee_waits(LINSCHED_PREEMPT_FULL, A_SYSCALL, 21 * MS);
	check_wakee_waits(LINSCHED_PREEMPT_VOLUNTARY, A_SYSCALL, 24 * MS);
	check_wakee_waits(LINSCHED_PREEMPT_NONE, A_SYSCALL, 24 * MS);
	check_wakee_waits(LINSCHED_PREEMPT_VOLUNTARY, A_RUN, 21 * MS);
}

/* The instants of the wakeups a simulation made (its wakeup hook), in order. */
static void on_wakeup(void *ctx, int cpu, uint64_t now, const struct linsched_task *waker,
		      const struct linsched_task *wakee, int target_cpu)
{
	(void)cpu;
	(void)waker;
	(void)wakee;
	(void)target_cpu;
	g_array_append_val((GArray *)ctx, now);
}

/* A split wakeup's instants: when each wakee was queued, when each first ran after it. */
struct split_run {
	uint64_t queued[2], ran[2];
	struct linsched_task_stats waker;
	uint64_t runtime_ns;
};

/*
 * 6.1 on one CPU, every cost 0 but a wakeup's 2 ms, of which tail_ns is paid after the wakee is
 * queued: the waker k forked first, then nr waiters, which k wakes all at once (check_wakee_waits
 * has their timeline: the first waiter runs first, 0 to 1 ms, and blocks, k runs from 1 ms).
 */
static struct split_run run_split(enum linsched_preempt preempt, uint64_t tail_ns, unsigned int nr)
{
	static const struct act waiter[] = {
		{ A_RUN, 1 * MS, 0 }, { A_BLOCK, 0, 0 }, { A_MARK, 0, 0 }, { A_RUN, 1 * MS, 0 }
	};
	static const struct act waker[] = { { A_RUN, 20 * MS, 0 },
					    { A_WAKE, 0, 0 },
					    { A_SYSCALL, 3 * MS, 0 },
					    { A_RUN, 1 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;
	struct split_run out = { { 0 }, { 0 }, { 0 }, 0 };
	GArray *wakes = g_array_new(FALSE, TRUE, sizeof(uint64_t));

	linsched_config_init(&cfg, sched_profile_find("6.1"), 1);
	zero_costs(&cfg);
	cfg.costs.wakeup_ns = 2 * MS;
	cfg.costs.wakeup_tail_ns = tail_ns;
	cfg.preempt = preempt;
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_sim_set_wakeup_hook(sim, on_wakeup, wakes);
	SCRIPT(sim, &w, waker, "k");
	for (unsigned int i = 0; i < nr; i++)
		SCRIPT(sim, &w, waiter, "w");
	linsched_sim_run(sim);
	assert_int_equal(wakes->len, nr);
	for (unsigned int i = 0; i < nr; i++) {
		out.queued[i] = g_array_index(wakes, uint64_t, i);
		out.ran[i] = mark_of(&w, (int)i + 1);
	}
	out.waker = stats_of(sim, 0);
	out.runtime_ns = linsched_sim_result(sim)->runtime_ns;
	linsched_sim_free(sim);
	world_clear(&w);
	g_array_free(wakes, TRUE);
	return out;
}

/*
 * A split wakeup (costs.wakeup_tail_ns): the waker pays the wakeup less its tail before the wakee
 * is queued and the tail after, all with preemption off.
 *
 * One waiter (run_split): k wakes it at 21 ms, the wakeup costing 2 ms. It is placed 3 ms behind
 * k, as in check_wakee_waits, and preempts. Queued / first run:
 *   - no tail (no split): at 21 ms / at 21 ms under full preemption;
 *   - a tail of 0.5 ms: at 22.5 ms / at 23 ms, once k has paid the tail;
 *   - a tail of 5 ms, more than the whole wakeup: at 21 ms / at 23 ms;
 *   - voluntary preemption: queued as above, run at 26 ms, when k returns from its 3 ms system
 *     call.
 * k pays the 2 ms either way: its 26 ms of CPU, all done at 28 ms, k preempted once.
 */
static void check_wakeup_split(enum linsched_preempt preempt, uint64_t tail_ns,
			       uint64_t want_queued, uint64_t want_ran)
{
	struct split_run r = run_split(preempt, tail_ns, 1);

	if (r.queued[0] != want_queued || r.ran[0] != want_ran)
		fail_msg("%s, tail %" G_GUINT64_FORMAT " ns: queued at %" G_GUINT64_FORMAT
			 " ns, ran at %" G_GUINT64_FORMAT " ns; expected %" G_GUINT64_FORMAT
			 " and %" G_GUINT64_FORMAT,
			 linsched_preempt_name(preempt), tail_ns, r.queued[0], r.ran[0],
			 want_queued, want_ran);
	assert_int_equal(r.waker.nivcsw, 1);
	assert_int_equal(r.waker.sum_exec_ns, 26 * MS);
	assert_int_equal(r.runtime_ns, 28 * MS);
}

/*
 * Two waiters woken at once are woken one after the other, the waker's preemption off
 * throughout, as under the kernel's wait-queue lock. Both run 1 ms first, so k wakes them at 22
 * ms. With a tail of 0.5 ms the first is queued at 23.5 ms, the second at 23.5 + 0.5 + 1.5 = 25.5
 * ms; k is preempted once it has paid the second's tail, at 26 ms, by the second, which the
 * kernel makes the next buddy as the last wakee to preempt; the first runs at 27 ms, all is done
 * at 32. Without the split both are queued at 22 ms and the second runs at once.
 */
static void test_wakeup_split(void **state)
{
	(void)state;
	check_wakeup_split(LINSCHED_PREEMPT_FULL, 0, 21 * MS, 21 * MS);
	check_wakeup_split(LINSCHED_PREEMPT_FULL, MS / 2, 22 * MS + MS / 2, 23 * MS);
	check_wakeup_split(LINSCHED_PREEMPT_FULL, 5 * MS, 21 * MS, 23 * MS);
	check_wakeup_split(LINSCHED_PREEMPT_VOLUNTARY, 0, 21 * MS, 26 * MS);
	check_wakeup_split(LINSCHED_PREEMPT_VOLUNTARY, MS / 2, 22 * MS + MS / 2, 26 * MS);

	struct split_run two = run_split(LINSCHED_PREEMPT_FULL, MS / 2, 2);

	assert_int_equal(two.queued[0], 23 * MS + MS / 2);
	assert_int_equal(two.queued[1], 25 * MS + MS / 2);
	assert_int_equal(two.ran[1], 26 * MS);
	assert_int_equal(two.ran[0], 27 * MS);
	assert_int_equal(two.runtime_ns, 32 * MS);
	two = run_split(LINSCHED_PREEMPT_FULL, 0, 2);
	assert_int_equal(two.queued[0], 22 * MS);
	assert_int_equal(two.queued[1], 22 * MS);
	assert_int_equal(two.ran[1], 22 * MS);
	assert_int_equal(two.ran[0], 23 * MS);
}

/*
 * A block decided while its system call still costs (A_CHARGE then A_BLOCK: a read that found
 * nothing, up to its sleep) is part of that call: without full preemption a reschedule that comes
 * meanwhile lets it finish and sleep, where full preemption takes the CPU first.
 *
 * 6.1 on one CPU, every cost 0. b is forked first (vruntime 6 ms, START_DEBIT as above), c
 * beside it (3 ms), so c runs first: 1 ms, then it sleeps 10 ms (vruntime 4 ms). b runs 2 ms,
 * then pays 10 ms (3 to 13 ms) and blocks. At 11 ms c wakes: b's vruntime is 6 + 10 = 16 ms, c
 * is placed at 16 - 3 = 13 ms, 3 ms behind, more than the 1 ms granularity: b must give way.
 *   - full: b is preempted at 11 ms with 2 ms left to pay; c runs (its mark at 11 ms), wakes the
 *     queue, which cancels b's block, and exits at 12; b pays 12 to 14, runs 1 ms: done at 15;
 *   - voluntary: b pays to 13 and sleeps (no involuntary switch); c runs from 13 (its mark),
 *     wakes b and exits at 14; b runs 1 ms: done at 15.
 */
static void check_block_in_syscall(enum linsched_preempt preempt, uint64_t want_mark,
				   unsigned long want_nivcsw)
{
	static const struct act sleeper[] = { { A_RUN, 1 * MS, 0 },
					      { A_SLEEP, 10 * MS, 0 },
					      { A_MARK, 0, 0 },
					      { A_RUN, 1 * MS, 0 },
					      { A_WAKE, 0, 0 } };
	static const struct act blocker[] = { { A_RUN, 2 * MS, 0 },
					      { A_CHARGE, 10 * MS, 0 },
					      { A_BLOCK, 0, 0 },
					      { A_RUN, 1 * MS, 0 } };
	struct pair_run r =
		run_pair(preempt, blocker, G_N_ELEMENTS(blocker), sleeper, G_N_ELEMENTS(sleeper));

	assert_int_equal(r.mark, want_mark);
	assert_int_equal(r.first.nivcsw, want_nivcsw);
	assert_int_equal(r.first.sum_exec_ns, 13 * MS);
	assert_int_equal(r.second.sum_exec_ns, 2 * MS);
	assert_int_equal(r.first.exit_ns, 15 * MS);
}

static void test_voluntary_block_in_syscall(void **state)
{
	(void)state;
	check_block_in_syscall(LINSCHED_PREEMPT_FULL, 11 * MS, 1);
	check_block_in_syscall(LINSCHED_PREEMPT_VOLUNTARY, 13 * MS, 0);
}

/* The epoch: results count from the instant a model sets it. */
static void test_epoch(void **state)
{
	(void)state;
	static const struct act acts[] = { { A_RUN, 5 * MS, 0 },
					   { A_EPOCH, 0, 0 },
					   { A_RUN, 10 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 1);
	zero_costs(&cfg);
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	SCRIPT(sim, &w, acts, "e");
	linsched_sim_run(sim);
	const struct linsched_result *res = linsched_sim_result(sim);
	struct linsched_task_stats st = stats_of(sim, 0);

	assert_int_equal(res->runtime_ns, 10 * MS);
	assert_int_equal(res->jiffies, 10);
	assert_int_equal(st.exit_ns, 10 * MS);
	assert_int_equal(st.sum_exec_ns, 15 * MS); /* the task's own total is not reset */
	assert_int_equal(res->cpu_busy_ns[0], 10 * MS);
	assert_int_equal(linsched_sim_now(sim), 15 * MS);
	linsched_sim_free(sim);
	world_clear(&w);
}

/* A task blocked with nobody left to wake it: the run ends and says so. */
static void test_deadlock(void **state)
{
	(void)state;
	static const struct act stuck[] = { { A_RUN, 1 * MS, 0 }, { A_BLOCK, 0, 0 } };
	static const struct act done[] = { { A_RUN, 3 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;

	linsched_config_init(&cfg, NULL, 2);
	zero_costs(&cfg);
	world_init(&w);
	struct linsched_sim *sim = sim_new(&cfg);

	SCRIPT(sim, &w, stuck, "stuck");
	SCRIPT(sim, &w, done, "done");
	linsched_sim_run(sim);
	assert_true(linsched_sim_result(sim)->deadlock);
	assert_false(stats_of(sim, 0).exited);
	assert_true(stats_of(sim, 1).exited);
	assert_true(linsched_waitqueue_active(&w.wq));
	linsched_sim_free(sim);
	world_clear(&w);

	/* and a run that ends normally is no deadlock */
	world_init(&w);
	sim = sim_new(&cfg);
	SCRIPT(sim, &w, done, "done");
	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	linsched_sim_free(sim);
	world_clear(&w);
}

static void test_task_identity(void **state)
{
	(void)state;
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, 2);
	cfg.duration_ns = 1 * MS;
	struct linsched_sim *sim = sim_new(&cfg);
	struct linsched_task *a = cpu_task_create(sim, "a-name-longer-than-fifteen", -3);
	struct linsched_task *b = cpu_task_create(sim, "b", 19);

	assert_int_equal(linsched_sim_nr_tasks(sim), 2);
	assert_ptr_equal(linsched_sim_task(sim, 0), a);
	assert_ptr_equal(linsched_sim_task(sim, 1), b);
	assert_int_equal(linsched_task_id(a), 0);
	assert_int_equal(linsched_task_id(b), 1);
	assert_ptr_equal(linsched_task_sim(a), sim);
	assert_ptr_equal(linsched_sim_config(sim)->profile, cfg.profile);
	assert_int_equal(linsched_sim_tick_ns(sim), 1 * MS);

	struct linsched_task_stats st = stats_of(sim, 0);

	assert_string_equal(st.name, "a-name-longer-t"); /* 15 characters, as comm */
	assert_int_equal(st.nice, -3);
	assert_int_equal(stats_of(sim, 1).nice, 19);
	/* weights from the kernel table: nice -3 = 1991, nice 19 = 15 */
	assert_int_equal(linsched_task_sched(a)->se.load.weight, 1991);
	assert_int_equal(linsched_task_sched(b)->se.load.weight, 15);

	/* Each task's random stream depends on the seed and its id only. */
	struct linsched_sim *twin = sim_new(&cfg);
	struct linsched_task *a2 = cpu_task_create(twin, "a", 0);
	struct linsched_task *b2 = cpu_task_create(twin, "b", 0);
	unsigned long va = gsl_rng_get(linsched_task_rng(a)),
		      vb = gsl_rng_get(linsched_task_rng(b));

	assert_int_equal(gsl_rng_get(linsched_task_rng(a2)), va);
	assert_int_equal(gsl_rng_get(linsched_task_rng(b2)), vb);
	assert_true(va != vb);
	linsched_sim_free(twin);
	linsched_sim_free(sim);
}

/* ---- statistics ------------------------------------------------------------------------------- */

/*
 * Invariants of any run of duration D from time 0 (epoch 0), checked against the switch log:
 *  - every CPU is either running a task or idle: sum of sum_exec + idle time (from the log) =
 *    CPUs * D, and each cpus_busy_ns = D - that CPU's idle time (<= D);
 *  - a task is on a CPU or waiting or asleep: run_delay + sum_exec <= D;
 *  - each switch-in (pcount) is matched by a switch-out (nvcsw + nivcsw), except for a task still
 *    on a CPU at the end (kernel-extract/sched_core.c schedule(): arrivals count pcount,
 *    departures count nvcsw or nivcsw, both only when the running task changes);
 *  - context_switches counts hook calls; the hook calls with a task switched in total pcount;
 *  - migrations total the per-task counts.
 */
static void check_invariants(struct linsched_sim *sim, const struct switch_log *sl, uint64_t D)
{
	const struct linsched_config *cfg = linsched_sim_config(sim);
	const struct linsched_result *res = linsched_sim_result(sim);
	uint64_t idle[SCHED_MAX_CPUS] = { 0 }, idle_since[SCHED_MAX_CPUS] = { 0 };
	bool is_idle[SCHED_MAX_CPUS];
	uint64_t switch_ins = 0;

	assert_int_equal(res->nr_cpus, cfg->nr_cpus);
	assert_int_equal(sl->inconsistent, 0);
	for (unsigned int c = 0; c < cfg->nr_cpus; c++)
		is_idle[c] = true;
	for (guint i = 0; i < sl->recs->len; i++) {
		const struct switch_rec *r = rec_at(sl, i);

		assert_true(r->now <= D);
		if (r->prev < 0) {
			idle[r->cpu] += r->now - idle_since[r->cpu];
			is_idle[r->cpu] = false;
		}
		if (r->next < 0) {
			idle_since[r->cpu] = r->now;
			is_idle[r->cpu] = true;
		} else {
			switch_ins++;
		}
	}
	uint64_t total_idle = 0, total_exec = 0, pcounts = 0, migrations = 0;

	for (unsigned int c = 0; c < cfg->nr_cpus; c++) {
		if (is_idle[c])
			idle[c] += D - idle_since[c];
		total_idle += idle[c];
		assert_true(res->cpu_busy_ns[c] <= D);
		assert_int_equal(res->cpu_busy_ns[c], D - idle[c]);
	}
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task_stats st = stats_of(sim, i);
		bool on_cpu = linsched_task_sched(linsched_sim_task(sim, i))->on_cpu;

		total_exec += st.sum_exec_ns;
		pcounts += st.pcount;
		migrations += st.nr_migrations;
		assert_true(st.run_delay_ns + st.sum_exec_ns <= D);
		assert_int_equal(st.pcount, st.nvcsw + st.nivcsw + (on_cpu ? 1 : 0));
		if (st.exited) {
			assert_false(on_cpu);
			assert_true(st.exit_ns <= D);
		}
	}
	assert_int_equal(total_exec + total_idle, (uint64_t)cfg->nr_cpus * D);
	assert_int_equal(res->context_switches, sl->recs->len);
	assert_int_equal(pcounts, switch_ins);
	assert_int_equal(res->migrations, migrations);
	assert_int_equal(res->runtime_ns, D);
}

static void run_invariants(const char *profile, unsigned int cpus, unsigned int domains,
			   const char *const *specs, uint64_t footprint)
{
	struct linsched_config cfg;
	struct switch_log sl;

	linsched_config_init(&cfg, sched_profile_find(profile), cpus);
	cfg.nr_domains = domains;
	cfg.duration_ns = 2 * SEC;
	cfg.seed = 5;
	switch_log_init(&sl);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_sim_set_switch_hook(sim, on_switch, &sl);
	for (size_t i = 0; specs[i]; i++)
		spawn(sim, specs[i]);
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++)
		linsched_task_set_footprint(linsched_sim_task(sim, i), footprint * (i % 4 + 1));
	linsched_sim_run(sim);
	check_invariants(sim, &sl, cfg.duration_ns);
	linsched_sim_free(sim);
	switch_log_clear(&sl);
}

static void test_statistics_invariants(void **state)
{
	(void)state;
	/* `linsched run`'s default mix: overloaded, both CPUs always busy */
	const char *const mix[] = { "cpu:nice=0", "cpu:nice=5:count=2",
				    "sleeprun:busy_ms=1:sleep_ms=3:count=40", NULL };
	/* a light load: CPUs idle often, tasks exit before the end */
	const char *const light[] = { "sleeprun:busy_ms=2:sleep_ms=7:count=3",
				      "randsleeprun:busy_ms=1:sleep_ms=5:count=3:dist=exponential",
				      "sleeprun:busy_ms=3:sleep_ms=1:loops=50", NULL };

	run_invariants("2.6.28", 2, 1, mix, 20000);
	run_invariants("6.1", 4, 2, mix, 30000);
	run_invariants("2.6.28", 2, 1, light, 1000);
	run_invariants("6.1", 8, 2, light, 50000);
}

/*
 * run_delay is exact: a task always runnable (a hog) is, at every instant, either running or
 * waiting on its queue, so sum_exec + run_delay = D for a task on a CPU at the end, and
 * sum_exec + run_delay + pending = D for one waiting at the end, where pending is the wait since
 * it was last switched out (schedstats settle a wait when the task next arrives), or D if it never
 * ran. On one CPU the nice-5 task is picked first (its START_DEBIT is smaller), so the nice-0
 * task's first wait starts at time 0 and must be counted like any other.
 */
static void test_run_delay_exact(void **state)
{
	(void)state;
	const unsigned int cpus[] = { 1, 2 };
	const int nr_tasks[] = { 2, 5 };

	for (size_t c = 0; c < G_N_ELEMENTS(cpus); c++) {
		struct linsched_config cfg;
		struct switch_log sl;

		linsched_config_init(&cfg, NULL, cpus[c]);
		cfg.duration_ns = 1 * SEC;
		switch_log_init(&sl);
		struct linsched_sim *sim = sim_new(&cfg);

		linsched_sim_set_switch_hook(sim, on_switch, &sl);
		for (int i = 0; i < nr_tasks[c]; i++)
			cpu_task_create(sim, "hog", i % 2 ? 5 : 0);
		linsched_sim_run(sim);
		for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
			struct linsched_task_stats st = stats_of(sim, i);
			bool on_cpu = false;
			uint64_t pending = cfg.duration_ns;

			for (guint k = 0; k < sl.recs->len; k++) {
				if (rec_at(&sl, k)->next == (int)i)
					on_cpu = true;
				if (rec_at(&sl, k)->prev == (int)i) {
					on_cpu = false;
					pending = cfg.duration_ns - rec_at(&sl, k)->now;
				}
			}
			if (on_cpu)
				pending = 0;
			if (st.sum_exec_ns + st.run_delay_ns + pending != cfg.duration_ns)
				fail_msg("%u CPU(s), task %u (nice %d): sum_exec %" G_GUINT64_FORMAT
					 " + run_delay %" G_GUINT64_FORMAT
					 " + pending wait %" G_GUINT64_FORMAT
					 " != %" G_GUINT64_FORMAT,
					 cpus[c], i, st.nice, st.sum_exec_ns, st.run_delay_ns,
					 pending, cfg.duration_ns);
		}
		linsched_sim_free(sim);
		switch_log_clear(&sl);
	}
}

/* ---- HZ --------------------------------------------------------------------------------------- */

/* A run of exactly one second is HZ jiffies; a jiffy is 1e9 / HZ ns (3 333 333 at HZ 300). */
static void test_hz_jiffies(void **state)
{
	(void)state;
	/* 300 last: the only HZ whose jiffy is not a whole number of ns */
	const unsigned int hz[] = { 100, 250, 1000, 300 };
	const uint64_t tick[] = { 10000000, 4000000, 1000000, 3333333 };

	for (size_t i = 0; i < G_N_ELEMENTS(hz); i++) {
		static const struct act ten_ms[] = { { A_RUN, 10 * MS, 0 } };
		static const struct act fifteen_ms[] = { { A_RUN, 15 * MS, 0 } };
		struct linsched_config cfg;
		struct world w;

		linsched_config_init(&cfg, NULL, 1);
		zero_costs(&cfg);
		cfg.hz = hz[i];
		cfg.duration_ns = 1 * SEC;
		struct linsched_sim *sim = sim_new(&cfg);

		assert_int_equal(linsched_sim_tick_ns(sim), tick[i]);
		cpu_task_create(sim, "hog", 0);
		linsched_sim_run(sim);
		assert_int_equal(linsched_sim_result(sim)->runtime_ns, 1 * SEC);
		if (linsched_sim_result(sim)->jiffies != hz[i])
			fail_msg("HZ %u: a 1 s run reports %" G_GUINT64_FORMAT
				 " jiffies, expected %u",
				 hz[i], linsched_sim_result(sim)->jiffies, hz[i]);
		linsched_sim_free(sim);

		/* 10 ms is exactly 1, 2.5, 10 and 3 jiffies: rounded up, 1, 3, 10, 3 */
		const uint64_t want10[] = { 1, 3, 10, 3 }, want15[] = { 2, 4, 15, 5 };

		world_init(&w);
		cfg.duration_ns = 0;
		sim = sim_new(&cfg);
		SCRIPT(sim, &w, ten_ms, "t");
		linsched_sim_run(sim);
		assert_int_equal(linsched_sim_result(sim)->runtime_ns, 10 * MS);
		if (linsched_sim_result(sim)->jiffies != want10[i])
			fail_msg("HZ %u: a 10 ms run reports %" G_GUINT64_FORMAT
				 " jiffies, expected %" G_GUINT64_FORMAT,
				 hz[i], linsched_sim_result(sim)->jiffies, want10[i]);
		linsched_sim_free(sim);

		/* 15 ms: 1.5, 3.75, 15 and 4.5 jiffies */
		sim = sim_new(&cfg);
		SCRIPT(sim, &w, fifteen_ms, "t");
		linsched_sim_run(sim);
		assert_int_equal(linsched_sim_result(sim)->runtime_ns, 15 * MS);
		assert_int_equal(linsched_sim_result(sim)->jiffies, want15[i]);
		linsched_sim_free(sim);
		world_clear(&w);
	}
}

/*
 * Tick preemption happens at tick boundaries. Two hogs on one CPU with latency 25 ms (a 12.5 ms
 * slice each) switch when a tick finds the running one past its slice, i.e. after the smallest
 * whole number of ticks above 12.5 ms: 2 ticks at HZ 100 (20 ms), 4 at 250 (16 ms), 4 at 300
 * (13 333 332 ns), 13 at 1000 (13 ms). Every gap between switches is that; with no costs nothing
 * else moves them. (12.5 ms is far from every tick multiple, so the kernel's fixed-point slice,
 * a few ns short of the exact quotient, does not change the count.)
 */
static void test_hz_tick_preemption(void **state)
{
	(void)state;
	const unsigned int hz[] = { 100, 250, 300, 1000 };
	const uint64_t gap[] = { 20000000, 16000000, 13333332, 13000000 };

	for (size_t i = 0; i < G_N_ELEMENTS(hz); i++) {
		struct linsched_config cfg;
		struct switch_log sl;

		linsched_config_init(&cfg, NULL, 1);
		zero_costs(&cfg);
		cfg.hz = hz[i];
		cfg.tun.latency = 25 * MS;
		cfg.duration_ns = 1 * SEC;
		switch_log_init(&sl);
		struct linsched_sim *sim = sim_new(&cfg);

		linsched_sim_set_switch_hook(sim, on_switch, &sl);
		cpu_task_create(sim, "a", 0);
		cpu_task_create(sim, "b", 0);
		linsched_sim_run(sim);
		assert_true(sl.recs->len >= 1000 * MS / gap[i]);
		assert_int_equal(rec_at(&sl, 0)->now, 0);
		for (guint k = 1; k < sl.recs->len; k++) {
			const struct switch_rec *r = rec_at(&sl, k);

			if (r->now - rec_at(&sl, k - 1)->now != gap[i])
				fail_msg("HZ %u: switch %u at %" G_GUINT64_FORMAT
					 " ns, %" G_GUINT64_FORMAT
					 " ns after the previous, expected %" G_GUINT64_FORMAT,
					 hz[i], k, r->now, r->now - rec_at(&sl, k - 1)->now,
					 gap[i]);
			assert_int_equal(r->now % linsched_sim_tick_ns(sim), 0);
		}
		linsched_sim_free(sim);
		switch_log_clear(&sl);
	}
}

/*
 * An idle CPU gets no ticks (NO_HZ idle): a task that sleeps for 10^5 s of virtual time at
 * HZ 1000 would otherwise cost 10^8 tick events. The run must take a negligible time, see only
 * the four switches of run-idle-run-exit, and end exactly after sleep plus work.
 */
static void test_idle_cpu_no_ticks(void **state)
{
	(void)state;
	static const struct act acts[] = { { A_RUN, 1 * MS, 0 },
					   { A_SLEEP, 100000 * SEC, 0 },
					   { A_RUN, 1 * MS, 0 } };
	struct linsched_config cfg;
	struct world w;
	struct switch_log sl;

	linsched_config_init(&cfg, NULL, 2);
	zero_costs(&cfg);
	world_init(&w);
	switch_log_init(&sl);
	struct linsched_sim *sim = sim_new(&cfg);

	linsched_sim_set_switch_hook(sim, on_switch, &sl);
	SCRIPT(sim, &w, acts, "sleepy");

	GTimer *timer = g_timer_new();

	linsched_sim_run(sim);
	double wall = g_timer_elapsed(timer, NULL);

	g_timer_destroy(timer);
	assert_true(wall < 1.0);
	assert_int_equal(sl.recs->len, 4);
	assert_int_equal(linsched_sim_result(sim)->context_switches, 4);
	assert_int_equal(stats_of(sim, 0).exit_ns, 100000 * SEC + 2 * MS);
	assert_int_equal(linsched_sim_result(sim)->cpu_busy_ns[0] +
				 linsched_sim_result(sim)->cpu_busy_ns[1],
			 2 * MS);
	linsched_sim_free(sim);
	switch_log_clear(&sl);
	world_clear(&w);
}

/* ---- determinism and threads ------------------------------------------------------------------ */

struct scenario {
	const char *profile;
	unsigned int cpus, domains;
	uint64_t seed;
	const char *const *specs;
	gchar *json;		/* the result */
	uint64_t steal_ppm;	/* in stalls of 1 ms */
	uint64_t noise_ppm;	/* in stalls of 0.1 ms, CV 2 */
	unsigned int host_cpus; /* in turns of 1 ms (steal_ppm 0 unless spells) */
	uint64_t spell_ns;	/* with host_cpus: spells of turns and of steal, this long each */
};

static gchar *run_scenario_json(const struct scenario *sc)
{
	struct linsched_config cfg;
	struct task_spec spec;

	linsched_config_init(&cfg, sched_profile_find(sc->profile), sc->cpus);
	cfg.nr_domains = sc->domains;
	cfg.seed = sc->seed;
	cfg.duration_ns = 2 * SEC;
	cfg.costs.steal_ppm = sc->steal_ppm;
	cfg.costs.stall_ns = MS;
	cfg.costs.noise_ppm = sc->noise_ppm;
	cfg.costs.noise_ns = MS / 10;
	cfg.costs.noise_cv = 2;
	cfg.costs.host_cpus = sc->host_cpus;
	cfg.costs.shared_ns = cfg.costs.apart_ns = sc->spell_ns;
	struct linsched_sim *sim = linsched_sim_new(&cfg);

	for (size_t i = 0; sc->specs[i]; i++) {
		if (!task_spec_parse(sc->specs[i], &spec, NULL))
			g_error("bad spec %s", sc->specs[i]);
		task_spec_spawn(sim, &spec);
	}
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++)
		linsched_task_set_footprint(linsched_sim_task(sim, i), 10000 + 5000 * (i % 7));
	linsched_sim_run(sim);

	GString *out = g_string_new(NULL);

	report_json(out, sim, NULL, NULL);
	linsched_sim_free(sim);
	return g_string_free(out, FALSE);
}

static gpointer scenario_thread(gpointer data)
{
	struct scenario *sc = data;

	sc->json = run_scenario_json(sc);
	return NULL;
}

static const char *const mix_a[] = {
	"cpu:nice=0",
	"cpu:nice=5:count=2",
	"randsleeprun:busy_ms=1:sleep_ms=3:count=12:dist=lognormal:cv=0.8",
	NULL,
};
static const char *const mix_b[] = {
	"randsleeprun:busy_ms=2:sleep_ms=2:count=16:dist=exponential",
	"cpu:count=3:nice=-2",
	"randsleeprun:busy_ms=0.5:sleep_ms=4:count=8:dist=normal:loops=100",
	NULL,
};

static void test_determinism(void **state)
{
	(void)state;
	struct scenario a = { "2.6.28", 2, 1, 1, mix_a, NULL, 0, 0, 0, 0 }, b = a;

	gchar *j1 = run_scenario_json(&a), *j2 = run_scenario_json(&b);

	assert_string_equal(j1, j2);
	assert_non_null(strstr(j1, "\"tasks\""));
	/* another seed draws other bursts and sleeps: another result */
	b.seed = 2;
	gchar *j3 = run_scenario_json(&b);

	assert_true(strcmp(j1, j3) != 0);
	/* and that seed, again, is reproducible too */
	gchar *j4 = run_scenario_json(&b);

	assert_string_equal(j3, j4);
	g_free(j1);
	g_free(j2);
	g_free(j3);
	g_free(j4);
}

/* ---- steal ------------------------------------------------------------------------------------ */

/* The built-in machine has no steal; a simulation with steal is as reproducible as one without. */
static struct linsched_config steal_config(unsigned int cpus, uint64_t ppm, uint64_t stall_ns)
{
	struct linsched_config cfg;

	linsched_config_init(&cfg, NULL, cpus);
	zero_costs(&cfg);
	cfg.costs.steal_ppm = ppm;
	cfg.costs.stall_ns = stall_ns;
	cfg.seed = 3;
	return cfg;
}

/*
 * A lone hog of work_ns on one CPU of cfg, run to its end: its runtime in seconds. Whatever held
 * the CPU, the guest kernel charged the hog for all of it: sum_exec = runtime.
 */
static double lone_hog_runtime_s(const struct linsched_config *cfg, uint64_t work_ns)
{
	const struct act hog[] = { { A_RUN, work_ns, 0 } };
	struct world w;

	world_init(&w);
	struct linsched_sim *sim = sim_new(cfg);

	SCRIPT(sim, &w, hog, "hog");
	linsched_sim_run(sim);

	const struct linsched_result *res = linsched_sim_result(sim);
	double runtime_s = (double)res->runtime_ns / 1e9;

	assert_false(res->deadlock);
	assert_int_equal(stats_of(sim, 0).sum_exec_ns, res->runtime_ns);
	linsched_sim_free(sim);
	world_clear(&w);
	return runtime_s;
}

/*
 * A lone CPU hog of W = 10 s of work on one CPU stolen f = 1/4 of the time in exponential stalls
 * of mean m = 2 ms, the runs between them exponential of mean m (1 - f) / f = 6 ms. It finishes
 * once it has run W: over that run time the stalls form a compound Poisson sum, W / 6 ms = 1667
 * stalls of mean 2 ms on average, so the runtime is W + W f / (1 - f) = 13.333 s, with variance
 * (W / 6 ms) E[X^2] = 1667 * 2 * (2 ms)^2 = 0.01333 s^2 (sd 0.115 s): within 5 sd. The guest
 * kernel does not know it was stalled: the task is charged all of it, sum_exec = runtime.
 */
static void test_steal_lone_hog(void **state)
{
	(void)state;
	struct linsched_config cfg = steal_config(1, LINSCHED_PPM / 4, 2 * MS);

	assert_true(fabs(lone_hog_runtime_s(&cfg, 10 * SEC) - 40.0 / 3) < 5 * 0.1155);
}

/* ---- the host's ticks ------------------------------------------------------------------------ */

/*
 * One CPU stolen ppm of the time in whole ticks of a host at HZ 250, whose ticks lead by lead_ns;
 * stalls of stall_ns on average (0: one tick).
 */
static struct linsched_config host_tick_config(uint64_t ppm, uint64_t stall_ns, uint64_t lead_ns,
					       uint64_t seed)
{
	struct linsched_config cfg = steal_config(1, ppm, stall_ns);

	cfg.costs.host_hz = 250;
	cfg.costs.host_lead_ns = lead_ns;
	cfg.seed = seed;
	return cfg;
}

/*
 * A lone hog on a CPU stolen half the time on the host's 4 ms ticks: it runs one host tick and
 * waits the next. Its first stall begins at one of the two ticks of a cycle, the first (k = 0) or
 * the second (k = 1), which the seed draws.
 *   W = 18 ms, host ticks at 4, 8, 12 ... ms: k = 0 runs 0-4, 8-12, 16-20, 24-28 (16 ms) and
 *   32-34; k = 1 runs 0-8, 12-16, 20-24 (16 ms) and 28-30.
 *   W = 20 ms, the host's ticks 1 ms ahead of the guest's (3, 7, 11 ... ms): k = 0 runs 0-3,
 *   7-11, 15-19, 23-27, 31-35 (19 ms) and 39-40; k = 1 runs 0-7, 11-15, 19-23, 27-31 (19 ms)
 *   and 35-36.
 * Over 40 seeds both starts occur.
 */
static void test_host_ticks_half(void **state)
{
	(void)state;
	static const struct {
		uint64_t work_ns, lead_ns, k0_ns, k1_ns;
	} cases[] = { { 18 * MS, 0, 34 * MS, 30 * MS }, { 20 * MS, 1 * MS, 40 * MS, 36 * MS } };

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		unsigned int seen0 = 0, seen1 = 0;

		for (uint64_t seed = 1; seed <= 40; seed++) {
			struct linsched_config cfg =
				host_tick_config(LINSCHED_PPM / 2, 0, cases[c].lead_ns, seed);
			uint64_t ns =
				(uint64_t)llround(lone_hog_runtime_s(&cfg, cases[c].work_ns) * 1e9);

			assert_true(ns == cases[c].k0_ns || ns == cases[c].k1_ns);
			seen0 += ns == cases[c].k0_ns;
			seen1 += ns == cases[c].k1_ns;
		}
		assert_true(seen0 > 0 && seen1 > 0);
	}
}

/*
 * Runs and stalls of geometric numbers of 4 ms host ticks, and every stall whole ticks: with the
 * host's ticks on the guest's (lead 0) a hog of W = 12 s (3000 ticks) ends on a tick. A geometric
 * length of mean m ticks (p = 1 / m) has variance (1 - p) / p^2 = m (m - 1).
 *   steal 3/4, stalls of one tick asked for: runs would be a third of a tick, so they are one
 *   tick and the stalls 3 on average (variance 6): about 3000 of them, 9000 +- sqrt(3000 * 6) =
 *   134 ticks: W + 36 s = 48 s, sd 0.54 s.
 *   steal 1/4, stalls of one tick after runs of mean 3 (variance 6): 3000 / 3 = 1000 stalls, sd
 *   sqrt(3000 * 6 / 27) = 25.8 (a renewal count): W + 4 s = 16 s, sd 0.103 s.
 *   steal 1/2, stalls of 8 ms (2 ticks) and runs of 2 (variance 2): N = 1500 stalls with
 *   variance 3000 * 2 / 8 = 750, their ticks a sum of N with variance 1500 * 2 + 2^2 * 750 =
 *   6000 (sd 77.5 ticks): W + 12 s = 24 s, sd 0.31 s.
 * Within 5 sd of each.
 */
static void test_host_ticks_shares(void **state)
{
	(void)state;
	static const struct {
		uint64_t ppm, stall_ns;
		double runtime_s, sd_s;
	} cases[] = {
		{ 3 * LINSCHED_PPM / 4, 4 * MS, 48.0, 0.54 },
		{ LINSCHED_PPM / 4, 0, 16.0, 0.103 },
		{ LINSCHED_PPM / 2, 8 * MS, 24.0, 0.31 },
	};

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct linsched_config cfg =
			host_tick_config(cases[c].ppm, cases[c].stall_ns, 0, 7);
		uint64_t ns = (uint64_t)llround(lone_hog_runtime_s(&cfg, 12 * SEC) * 1e9);

		assert_int_equal(ns % (4 * MS), 0);
		assert_true(fabs((double)ns / 1e9 - cases[c].runtime_s) < 5 * cases[c].sd_s);
	}
}

/* ---- turns ------------------------------------------------------------------------------------ */

/* cpus CPUs in turns on host_cpus host CPUs, turns of 1 ms all but exactly (CV 0.001). */
static struct linsched_config turns_config(unsigned int cpus, unsigned int host_cpus)
{
	struct linsched_config cfg = steal_config(cpus, 0, MS);

	cfg.costs.host_cpus = host_cpus;
	cfg.costs.stall_cv = 0.001;
	return cfg;
}

/*
 * n CPU hogs of W = 20 ms each on n CPUs in turns on h host CPUs, run to their end. The guest
 * does not see its CPU wait for a turn: a hog is charged all of its life from its first run, so
 * its sum_exec and the run_delay before that first run make up its life.
 */
struct turns_run {
	uint64_t runtime_ns;
	uint64_t exit_ns[3];
	bool one_per_cpu; /* each hog stayed on a CPU of its own */
};

static struct turns_run run_hogs_on(const struct linsched_config *cfg, unsigned int n,
				    uint64_t work_ns);

static struct turns_run run_hogs_in_turns(unsigned int n, unsigned int h)
{
	struct linsched_config cfg = turns_config(n, h);

	return run_hogs_on(&cfg, n, 20 * MS);
}

/* n hogs of work_ns each on the n CPUs of cfg, run to their end. */
static struct turns_run run_hogs_on(const struct linsched_config *cfg, unsigned int n,
				    uint64_t work_ns)
{
	const struct act hog[] = { { A_RUN, work_ns, 0 } };
	struct turns_run out = { 0, { 0 }, true };
	uint64_t cpus_seen = 0;
	struct world w;

	world_init(&w);
	struct linsched_sim *sim = sim_new(cfg);

	for (unsigned int i = 0; i < n; i++)
		SCRIPT(sim, &w, hog, "hog");
	linsched_sim_run(sim);

	const struct linsched_result *res = linsched_sim_result(sim);

	assert_false(res->deadlock);
	out.runtime_ns = res->runtime_ns;
	for (unsigned int i = 0; i < n; i++) {
		struct linsched_task_stats st = stats_of(sim, i);

		assert_true(st.exited);
		/* Always runnable: it ran (waiting turns included) or waited to be picked. */
		assert_int_equal(st.sum_exec_ns + st.run_delay_ns, st.exit_ns);
		out.exit_ns[i] = st.exit_ns;
		out.one_per_cpu &= st.nr_migrations == 0 && !(cpus_seen >> st.cpu & 1);
		cpus_seen |= 1ULL << st.cpu;
	}
	linsched_sim_free(sim);
	world_clear(&w);
	return out;
}

/*
 * Two hogs of W = 20 ms, one on each of 2 CPUs that share 1 host CPU. One CPU runs at a time and
 * the host CPU never idles while either has work (a CPU whose hog is done halts and passes its
 * turn on), so the 40 ms of work take exactly 40 ms, where 2 CPUs of their own take 20. The
 * turns alternate every 1 ms, so neither hog gets ahead by more than a turn: the first exits at
 * the end of its 20th turn, the 39th in all, 39 ms give or take the turns' spread (1 us each).
 */
static void test_turns_two_on_one(void **state)
{
	(void)state;
	struct turns_run r = run_hogs_in_turns(2, 1);

	assert_true(r.one_per_cpu);
	assert_int_equal(r.runtime_ns, 40 * MS);
	for (int i = 0; i < 2; i++)
		assert_true(r.exit_ns[i] >= 39 * MS - 50000 && r.exit_ns[i] <= 40 * MS);
}

/*
 * Two hogs of 18 ms on 2 CPUs that share 1 host CPU in turns of one 4 ms host tick; CPU 0's first
 * turn lasts until the first host tick, and a CPU whose hog exits mid-turn halts and hands the
 * host CPU over at once. With the host's ticks on the guest's, CPU 0 runs 0-4, 8-12, 16-20,
 * 24-28 (16 ms) and 32-34, CPU 1 4-8 ... 28-32 (16 ms) and 34-36: they exit at 34 and 36 ms.
 * With the host's ticks 2.5 ms ahead (1.5, 5.5, 9.5 ... ms), CPU 0 runs 0-1.5, 5.5-9.5 ...
 * 29.5-33.5 (17.5 ms), CPU 1 1.5-5.5 ... 25.5-29.5 (16 ms) and 33.5-35.5, then CPU 0 35.5-36:
 * they exit at 35.5 and 36 ms.
 */
static void test_turns_on_host_ticks(void **state)
{
	(void)state;
	static const struct {
		uint64_t lead_ns, exit0_ns, exit1_ns;
	} cases[] = { { 0, 34 * MS, 36 * MS }, { 2500000, 35500000, 36 * MS } };

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct linsched_config cfg = turns_config(2, 1);

		cfg.costs.host_hz = 250;
		cfg.costs.host_lead_ns = cases[c].lead_ns;
		cfg.costs.stall_ns = 4 * MS;
		struct turns_run r = run_hogs_on(&cfg, 2, 18 * MS);

		assert_true(r.one_per_cpu);
		assert_int_equal(MIN(r.exit_ns[0], r.exit_ns[1]),
				 MIN(cases[c].exit0_ns, cases[c].exit1_ns));
		assert_int_equal(MAX(r.exit_ns[0], r.exit_ns[1]),
				 MAX(cases[c].exit0_ns, cases[c].exit1_ns));
		assert_int_equal(r.runtime_ns, 36 * MS);
	}
}

/*
 * Three hogs of W = 20 ms on 3 CPUs that share 2 host CPUs: round-robin turns of 1 ms give each
 * CPU 2/3 of the time, so every hog needs 30 ms, give or take the turn it ends in: all exit
 * between 29 and 31 ms, and the run ends by 31 ms. One host CPU: each gets a third, 60 ms.
 */
static void test_turns_three_on_two(void **state)
{
	(void)state;
	struct turns_run two = run_hogs_in_turns(3, 2), one = run_hogs_in_turns(3, 1);

	assert_true(two.one_per_cpu && one.one_per_cpu);
	for (int i = 0; i < 3; i++)
		assert_true(two.exit_ns[i] >= 29 * MS && two.exit_ns[i] <= 31 * MS);
	assert_true(two.runtime_ns <= 31 * MS);
	/* One host CPU never idles while a hog is left: 60 ms of work, exactly 60 ms. */
	assert_int_equal(one.runtime_ns, 60 * MS);
	for (int i = 0; i < 3; i++)
		assert_true(one.exit_ns[i] >= 58 * MS);
}

/*
 * A lone hog on one of 2 CPUs that share 1 host CPU: the other CPU has nothing to run, halts and
 * wants no turn, so the hog never waits: W exactly, as on a CPU of its own.
 */
static void test_turns_idle_cpu_takes_none(void **state)
{
	(void)state;
	struct linsched_config cfg = turns_config(2, 1);

	assert_true(lone_hog_runtime_s(&cfg, 50 * MS) == 0.05);
}

/* ---- spells ---------------------------------------------------------------------------------- */

/*
 * cpus CPUs in spells of spell_ns on average each: turns of 1 ms (CV 0.001) on one host CPU, and
 * CPUs of their own stolen ppm of the time in stalls of 1 ms (CV 0.001) at random moments.
 */
static struct linsched_config spells_config(unsigned int cpus, uint64_t ppm, uint64_t spell_ns,
					    uint64_t seed)
{
	struct linsched_config cfg = turns_config(cpus, 1);

	cfg.costs.steal_ppm = ppm;
	cfg.costs.shared_ns = cfg.costs.apart_ns = spell_ns;
	cfg.seed = seed;
	return cfg;
}

/*
 * Spells of 1000 s on average, no steal: a run of two hogs of W = 20 ms on 2 CPUs lies inside its
 * first spell, which the seed draws, each kind half the time. In turns on one host CPU the 40 ms
 * of work take exactly 40 ms (test_turns_two_on_one); on CPUs of their own, exactly 20 ms. Over
 * 40 seeds both occur, and nothing else.
 */
static void test_spells_first_is_drawn(void **state)
{
	(void)state;
	unsigned int shared = 0, apart = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct linsched_config cfg = spells_config(2, 0, 1000 * SEC, seed);
		struct turns_run r = run_hogs_on(&cfg, 2, 20 * MS);

		assert_true(r.one_per_cpu);
		assert_true(r.runtime_ns == 40 * MS || r.runtime_ns == 20 * MS);
		shared += r.runtime_ns == 40 * MS;
		apart += r.runtime_ns == 20 * MS;
	}
	assert_true(shared > 0 && apart > 0);
}

/*
 * The mean of n runs' runtimes, in ms: two hogs (or one, lone) of W = 200 ms on 2 CPUs in spells
 * of 5 ms on average each, stolen ppm of the time in the spells apart in stalls of 1 ms on average
 * (exponential), turns of 1 ms (exponential); seeds 1..n.
 */
static double spells_mean_runtime_ms(unsigned int hogs, uint64_t ppm, unsigned int n)
{
	double sum = 0;

	for (uint64_t seed = 1; seed <= n; seed++) {
		struct linsched_config cfg = spells_config(2, ppm, 5 * MS, seed);

		/* Exponential stalls: a spell apart that begins in one begins in a fresh one, whose
		 * rest is then as long as a stall already under way has left. */
		cfg.costs.stall_cv = 1;
		sum += hogs == 1 ? 1e3 * lone_hog_runtime_s(&cfg, 200 * MS)
				 : (double)run_hogs_on(&cfg, hogs, 200 * MS).runtime_ns / 1e6;
	}
	return sum / n;
}

/*
 * Half the time in each kind of spell (5 ms on average each, exponential). Two hogs of W = 200 ms
 * with no steal: both run in the spells apart and one at a time in the turns, so the 2 W of work
 * get done at 2 - 1/2 CPUs on average and take R = 2 W / 1.5 = 266.7 ms (the turns of 1 ms keep
 * the two within a few turns of each other, so both end about then). A lone hog stolen half the time in the
 * spells apart, whose turns it never waits for (the other CPU halts), runs at 1/2 + 1/4 = 3/4:
 * R = W / 0.75 = 266.7 ms too. The share of shared time in one run has a standard deviation of
 * about sqrt(R / 10 ms) 5 ms / R = 0.097, which moves R by 0.178 s a unit: 17 ms a run, 3.9 ms
 * over 20 seeds. Within 15 ms of 266.7, where turns alone take 400 and CPUs of their own 200
 * (lone: 200 and 400).
 */
static void test_spells_share_the_time(void **state)
{
	(void)state;

	assert_true(fabs(spells_mean_runtime_ms(2, 0, 20) - 800.0 / 3) < 15);
	assert_true(fabs(spells_mean_runtime_ms(1, LINSCHED_PPM / 2, 20) - 800.0 / 3) < 15);
}

/*
 * A task that runs 1 ms and sleeps 9 ms, alone on one CPU stolen f = 1/4 of the time in
 * exponential stalls of mean m = 2 ms. Its timer fires at moments independent of the stalls, so
 * a wakeup finds the CPU stalled with probability f, and then waits for the stall's end: a
 * residual that is again exponential of mean m. Each wakeup waits on average f m = 0.5 ms, with
 * variance 2 f m^2 - (f m)^2 = 1.75 ms^2; over 2000 wakeups the mean run_delay has a standard
 * error of 0.0296 ms: within 5 of them. Without steal it never waits.
 */
static void test_steal_delays_wakeups(void **state)
{
	(void)state;
	enum {
		N = 2000
	};
	struct act *acts = g_new0(struct act, 2 * N);

	for (int i = 0; i < N; i++) {
		acts[2 * i] = (struct act){ A_RUN, 1 * MS, 0 };
		acts[2 * i + 1] = (struct act){ A_SLEEP, 9 * MS, 0 };
	}
	for (int with_steal = 0; with_steal < 2; with_steal++) {
		struct linsched_config cfg =
			steal_config(1, with_steal ? LINSCHED_PPM / 4 : 0, 2 * MS);
		struct world w;

		world_init(&w);
		struct linsched_sim *sim = sim_new(&cfg);

		script_create(sim, &w, acts, 2 * N, "sleeper", 0);
		linsched_sim_run(sim);

		double per_wake_ms = (double)stats_of(sim, 0).run_delay_ns / N / 1e6;

		if (with_steal)
			assert_true(fabs(per_wake_ms - 0.5) < 5 * 0.0296);
		else
			assert_true(per_wake_ms == 0);
		linsched_sim_free(sim);
		world_clear(&w);
	}
	g_free(acts);
}

/*
 * A stall source keeps a stall pending on every CPU forever: a deadlock must still end the run,
 * with the host's steal, the machine's noise, or both.
 */
static void test_stalls_deadlock_ends(void **state)
{
	(void)state;
	static const struct act stuck[] = { { A_RUN, 1 * MS, 0 }, { A_BLOCK, 0, 0 } };
	const struct {
		uint64_t steal_ppm, noise_ppm;
		unsigned int host_cpus;
	} sources[] = { { LINSCHED_PPM / 2, 0, 0 },
			{ 0, LINSCHED_PPM / 10, 0 },
			{ LINSCHED_PPM / 2, LINSCHED_PPM / 10, 0 },
			{ 0, 0, 1 },
			{ 0, LINSCHED_PPM / 10, 1 } };

	for (size_t i = 0; i < G_N_ELEMENTS(sources); i++) {
		struct linsched_config cfg = steal_config(2, sources[i].steal_ppm, MS);
		struct world w;

		cfg.costs.host_cpus = sources[i].host_cpus;
		cfg.costs.noise_ppm = sources[i].noise_ppm;
		cfg.costs.noise_ns = MS / 10;
		world_init(&w);
		struct linsched_sim *sim = sim_new(&cfg);

		SCRIPT(sim, &w, stuck, "stuck");
		linsched_sim_run(sim);
		assert_true(linsched_sim_result(sim)->deadlock);
		linsched_sim_free(sim);
		world_clear(&w);
	}
}

/*
 * The same seed gives the same stalls; another seed other ones; no steal, no draws. The noise,
 * drawn from a stream of its own, likewise gives the same bytes for the same seed, and changes
 * them.
 */
static void test_steal_determinism(void **state)
{
	(void)state;
	struct scenario a = { "6.1", 2, 1, 21, mix_a, NULL, 0, 0, 0, 0 }, b = a;

	a.steal_ppm = b.steal_ppm = 300000;
	gchar *j1 = run_scenario_json(&a), *j2 = run_scenario_json(&b);

	assert_string_equal(j1, j2);
	assert_non_null(strstr(j1, "\"steal_ppm\": 300000"));
	b.seed = 22;
	gchar *j3 = run_scenario_json(&b);

	assert_true(strcmp(j1, j3) != 0);
	b.seed = a.seed;
	b.steal_ppm = 0;
	gchar *j4 = run_scenario_json(&b);

	assert_true(strcmp(j1, j4) != 0);
	assert_null(strstr(j4, "\"steal_ppm\""));

	struct scenario n = { "6.1", 2, 1, 21, mix_a, NULL, 0, 100000, 0, 0 }, m = n;
	gchar *n1 = run_scenario_json(&n), *n2 = run_scenario_json(&m);

	assert_string_equal(n1, n2);
	m.noise_ppm = 0;
	gchar *n3 = run_scenario_json(&m);

	assert_true(strcmp(n1, n3) != 0);

	/* Turns likewise: the same bytes for the same seed, other ones for another. */
	struct scenario t = { "6.1", 2, 1, 21, mix_a, NULL, 0, 0, 1, 0 }, u = t;
	gchar *t1 = run_scenario_json(&t), *t2 = run_scenario_json(&u);

	assert_string_equal(t1, t2);
	assert_non_null(strstr(t1, "\"host_cpus\": 1"));
	assert_non_null(strstr(t1, "\"turn_ns\": 1000000"));
	u.seed = 22;
	gchar *t3 = run_scenario_json(&u);

	assert_true(strcmp(t1, t3) != 0);

	/* Spells of both: the same bytes again, and neither the turns' nor the steal's alone. */
	struct scenario sp = { "6.1", 2, 1, 21, mix_a, NULL, 300000, 0, 1, 20 * MS }, sq = sp;
	gchar *s1 = run_scenario_json(&sp), *s2 = run_scenario_json(&sq);

	assert_string_equal(s1, s2);
	assert_non_null(strstr(s1, "\"shared_ns\": 20000000"));
	assert_non_null(strstr(s1, "\"apart_ns\": 20000000"));
	assert_true(strcmp(s1, t1) != 0 && strcmp(s1, j1) != 0);
	sq.seed = 22;
	gchar *s3 = run_scenario_json(&sq);

	assert_true(strcmp(s1, s3) != 0);
	g_free(s1);
	g_free(s2);
	g_free(s3);
	g_free(t1);
	g_free(t2);
	g_free(t3);
	g_free(j1);
	g_free(j2);
	g_free(j3);
	g_free(j4);
	g_free(n1);
	g_free(n2);
	g_free(n3);
}

/* ---- noise: the machine's own stalls, a second source beside the host's steal ---------------- */

/*
 * A lone hog of W = 10 s on one CPU with the machine's noise alone: f = 1/5 of the time in
 * exponential stalls of mean d = 0.5 ms, runs of mean u = d (1 - f) / f = 2 ms. The runtime is
 * W / (1 - f) = 12.5 s. An alternating process of exponential phases spends a stalled time of
 * asymptotic variance T * 2 u^2 d^2 / (u + d)^3 = T * 0.128 ms over T: sd 40 ms over 12.5 s,
 * 50 ms in runtime once divided by 1 - f; 5 sd is 0.25 s.
 *
 * With the host's steal too (f = 1/4 in stalls of 2 ms, as in test_steal_lone_hog), the two are
 * independent and the CPU runs only while neither holds it: (1 - 1/4)(1 - 1/5) = 0.6 of the
 * time, 16.667 s. The steal's stalled time adds T * 2 * 6^2 * 2^2 / 8^3 = T * 0.5625 ms of
 * variance: sd sqrt((0.5625 + 0.128) * 16667) ms / 0.6 = 179 ms; 5 sd is 0.9 s, and steal
 * alone (13.33 s) or noise alone (12.5 s) are far outside.
 */
static void test_noise_lone_hog(void **state)
{
	(void)state;
	const struct {
		uint64_t steal_ppm;
		double runtime_s, tolerance_s;
	} cases[] = { { 0, 12.5, 0.25 }, { LINSCHED_PPM / 4, 10 / 0.6, 0.9 } };

	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct linsched_config cfg = steal_config(1, cases[c].steal_ppm, 2 * MS);

		cfg.costs.noise_ppm = LINSCHED_PPM / 5;
		cfg.costs.noise_ns = MS / 2;
		cfg.costs.noise_cv = 1;
		assert_true(fabs(lone_hog_runtime_s(&cfg, 10 * SEC) - cases[c].runtime_s) <
			    cases[c].tolerance_s);
	}
}

/*
 * The noise's long stalls are a third source, independent of the other two: a lone hog of
 * W = 40 s beside steal (f = 1/4 in 2 ms), short noise (1/5 in 0.5 ms) and long noise (1/10 in
 * exponential stalls of 5 ms, runs of 45 ms) runs (3/4)(4/5)(9/10) = 0.54 of the time:
 * 74.07 s. The long source's stalled time has the variance T * 2 * 45^2 * 5^2 / 50^3 = T * 0.81
 * ms; with the others' (above) sd sqrt(1.50 * 74074) ms / 0.54 = 617 ms, 5 sd 3.1 s. Without the
 * long source it would be 66.7 s.
 */
static void test_noise_long_lone_hog(void **state)
{
	(void)state;
	struct linsched_config cfg = steal_config(1, LINSCHED_PPM / 4, 2 * MS);

	cfg.costs.noise_ppm = LINSCHED_PPM / 5;
	cfg.costs.noise_ns = MS / 2;
	cfg.costs.noise_cv = 1;
	cfg.costs.long_ppm = LINSCHED_PPM / 10;
	cfg.costs.long_ns = 5 * MS;
	cfg.costs.long_cv = 1;
	assert_true(fabs(lone_hog_runtime_s(&cfg, 40 * SEC) - 40 / 0.54) < 3.1);
}

/* Two simulations in two threads at once give exactly what the same two give one after the other. */
static void test_threads_match_sequential(void **state)
{
	(void)state;
	struct scenario a = { "2.6.28", 2, 1, 11, mix_a, NULL, 0, 0, 0, 0 };
	struct scenario b = { "6.1", 4, 2, 12, mix_b, NULL, 0, 0, 0, 0 };
	gchar *seq_a = run_scenario_json(&a), *seq_b = run_scenario_json(&b);

	for (int round = 0; round < 3; round++) {
		GThread *ta = g_thread_new("sim-a", scenario_thread, &a);
		GThread *tb = g_thread_new("sim-b", scenario_thread, &b);

		g_thread_join(ta);
		g_thread_join(tb);
		assert_string_equal(a.json, seq_a);
		assert_string_equal(b.json, seq_b);
		g_free(a.json);
		g_free(b.json);
	}
	assert_true(strcmp(seq_a, seq_b) != 0);
	g_free(seq_a);
	g_free(seq_b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_defaults),
		cmocka_unit_test(test_config_validate),
		cmocka_unit_test(test_noise_lone_hog),
		cmocka_unit_test(test_noise_long_lone_hog),
		cmocka_unit_test(test_fairness_nice),
		cmocka_unit_test(test_fairness_4_on_2),
		cmocka_unit_test(test_balance_3_on_2),
		cmocka_unit_test(test_preempted_burst_keeps_work),
		cmocka_unit_test(test_two_bursts_exact),
		cmocka_unit_test(test_switch_cost),
		cmocka_unit_test(test_cost_jitter_draws),
		cmocka_unit_test(test_migration_cost),
		cmocka_unit_test(test_wakeup_cost),
		cmocka_unit_test(test_wakeup_remote_cost),
		cmocka_unit_test(test_ipi_flight),
		cmocka_unit_test(test_cache_cost),
		cmocka_unit_test(test_waitqueue_wake_one_then_all),
		cmocka_unit_test(test_wakeup_before_block_not_lost),
		cmocka_unit_test(test_sleep_step),
		cmocka_unit_test(test_voluntary_wakee_waits_for_syscall),
		cmocka_unit_test(test_voluntary_block_in_syscall),
		cmocka_unit_test(test_wakeup_split),
		cmocka_unit_test(test_epoch),
		cmocka_unit_test(test_deadlock),
		cmocka_unit_test(test_task_identity),
		cmocka_unit_test(test_statistics_invariants),
		cmocka_unit_test(test_run_delay_exact),
		cmocka_unit_test(test_hz_jiffies),
		cmocka_unit_test(test_hz_tick_preemption),
		cmocka_unit_test(test_idle_cpu_no_ticks),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_threads_match_sequential),
		cmocka_unit_test(test_steal_lone_hog),
		cmocka_unit_test(test_host_ticks_half),
		cmocka_unit_test(test_host_ticks_shares),
		cmocka_unit_test(test_turns_two_on_one),
		cmocka_unit_test(test_turns_on_host_ticks),
		cmocka_unit_test(test_turns_three_on_two),
		cmocka_unit_test(test_turns_idle_cpu_takes_none),
		cmocka_unit_test(test_spells_first_is_drawn),
		cmocka_unit_test(test_spells_share_the_time),
		cmocka_unit_test(test_steal_delays_wakeups),
		cmocka_unit_test(test_stalls_deadlock_ends),
		cmocka_unit_test(test_steal_determinism),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
