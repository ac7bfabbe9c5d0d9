/*
 * Tests of the hackbench FSM model (tasks/hackbench.h, SPEC.md section 4) through the engine.
 *
 * Every group has F senders and F receivers; each sender writes L messages to every receiver of
 * its group, so every task moves F x L messages and a run moves G x F x F x L. The tests show:
 *
 *   - conservation: every message written is read once, for channel capacities from one message
 *     to practically unbounded, with sockets and pipes;
 *   - blocking: a sender blocks exactly when its channel is full and is woken at the kernel's
 *     threshold (socket: once 3/4 of the send buffer is free; pipe: once a page is free), a
 *     receiver blocks exactly when its channel is empty and is woken by the first write. The
 *     middle of a run is observed by stopping identical simulations at successive instants
 *     (cfg.duration_ns, counted from the simulation's start), fine enough that at most one
 *     channel operation falls between two;
 *   - no deadlock over a seeded sample of group counts, loops, CPU counts and both profiles;
 *   - the wakeup-granularity knob acts as in a kernel;
 *   - the cache-reload model (SPEC.md section 2) through the engine, with two small task models
 *     written here, with hand-computed costs.
 *
 * Expected numbers come from the specification and the kernel rules quoted in the comments, never
 * from the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "tasks/hackbench.h"

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

/* A socket charges a 100-byte message its data plus 666 bytes of overhead (hackbench.h). */
#define SOCKET_CHARGE (100 + 666)

/* ---- helpers ---------------------------------------------------------------------------------- */

static struct linsched_config config_for(const char *profile, unsigned int cpus)
{
	struct linsched_config cfg;
	const struct sched_profile *prof = sched_profile_find(profile);

	assert_non_null(prof);
	linsched_config_init(&cfg, prof, cpus);
	return cfg;
}

static struct hackbench_params small_params(unsigned int groups, unsigned int fds,
					    unsigned int loops)
{
	struct hackbench_params p;

	hackbench_params_default(&p);
	p.groups = groups;
	p.fds = fds;
	p.loops = loops;
	return p;
}

static struct linsched_task *find_task(const struct linsched_sim *sim, const char *name)
{
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task *t = linsched_sim_task(sim, i);
		struct linsched_task_stats st;

		linsched_task_stats(t, &st);
		if (strcmp(st.name, name) == 0)
			return t;
	}
	fail_msg("no task named %s", name);
	return NULL;
}

/*
 * Runs p to completion and checks that nothing was lost or duplicated: every task exited having
 * moved F x L messages, every channel saw F x L written and read and ends empty with nobody
 * waiting, and the workload counted G x F x F x L messages.
 */
static void check_conservation(const struct linsched_config *cfg, const struct hackbench_params *p,
			       const char *what)
{
	struct linsched_sim *sim = linsched_sim_new(cfg);
	struct hackbench *hb = hackbench_create(sim, p);
	const uint64_t per_task = (uint64_t)p->fds * p->loops;
	uint64_t last_exit = 0;

	linsched_sim_run(sim);
	const struct linsched_result *res = linsched_sim_result(sim);

	if (res->deadlock)
		fail_msg("%s: deadlock", what);
	assert_int_equal(linsched_sim_nr_tasks(sim), 2 * p->groups * p->fds);
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task *t = linsched_sim_task(sim, i);
		struct linsched_task_stats st;

		linsched_task_stats(t, &st);
		if (!st.exited || hackbench_task_done(t) != per_task)
			fail_msg("%s: %s exited %d after %" G_GUINT64_FORMAT
				 " messages, expected %" G_GUINT64_FORMAT,
				 what, st.name, st.exited, hackbench_task_done(t), per_task);
		assert_int_equal(linsched_task_sched(t)->state, TASK_DEAD);
		last_exit = MAX(last_exit, st.exit_ns);
	}
	for (unsigned int g = 0; g < p->groups; g++)
		for (unsigned int r = 0; r < p->fds; r++) {
			struct hackbench_channel_state cs;

			hackbench_channel_state(hb, g, r, &cs);
			if (cs.written != per_task || cs.read != per_task || cs.queued != 0 ||
			    cs.blocked_writers || cs.blocked_readers)
				fail_msg("%s: channel %u.%u written %" G_GUINT64_FORMAT
					 " read %" G_GUINT64_FORMAT " queued %" G_GUINT64_FORMAT
					 " waiters %u/%u, expected %" G_GUINT64_FORMAT " each",
					 what, g, r, cs.written, cs.read, cs.queued,
					 cs.blocked_writers, cs.blocked_readers, per_task);
		}
	assert_int_equal(hackbench_messages(hb), (uint64_t)p->groups * p->fds * p->fds * p->loops);
	/* The benchmark's time runs from the barrier's release to the last exit. */
	assert_int_equal(res->runtime_ns, last_exit);
	hackbench_free(hb);
	linsched_sim_free(sim);
}

/* ---- the parent start -------------------------------------------------------------------------- */

struct wake_log {
	GPtrArray *names; /* wakee names after the epoch, in order */
	int targets[64];
	unsigned int remote; /* of them, woken onto another CPU than the waker's */
};

static void log_wakeup(void *ctx, int cpu, uint64_t now, const struct linsched_task *waker,
		       const struct linsched_task *wakee, int target_cpu)
{
	struct wake_log *log = ctx;
	struct linsched_task_stats st;

	(void)now;
	(void)waker;
	log->remote += target_cpu != cpu;
	linsched_task_stats(wakee, &st);
	if (log->names->len < G_N_ELEMENTS(log->targets))
		log->targets[log->names->len] = target_cpu;
	g_ptr_array_add(log->names, g_strdup(st.name));
}

static void forget_wakeups(void *ctx, const struct linsched_sim *sim)
{
	struct wake_log *log = ctx;

	(void)sim;
	g_ptr_array_set_size(log->names, 0);
	log->remote = 0;
}

/*
 * As the real tools start: a parent on CPU 0 creates the 4 workers of 1 group of 2 (receivers
 * first), each going to the idle CPU 1 by fork balancing and blocking at the barrier there
 * before the next is made; then one synchronous write wakes the pollers, the last to poll first:
 * sender-0.1, sender-0.0, receiver-0.1, receiver-0.0. 6.1's placement then splits them by the
 * loads they left behind (the blocked workers' loads sit on CPU 1): the first goes to its idle
 * previous CPU 1; the second is pulled to the waker's CPU 0, where the waker runs alone
 * (WA_IDLE's sync rule); after that the load decides. Every message still arrives.
 */
static void test_parent_start(void **state)
{
	(void)state;
	struct linsched_config cfg = config_for("6.1", 2);
	struct hackbench_params p = small_params(1, 2, 3);
	struct wake_log log = { g_ptr_array_new_with_free_func(g_free), { 0 }, 0 };

	p.start = HACKBENCH_START_PARENT;
	hackbench_params_resolve(&p);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &p);

	/* Only the parent exists before the run. */
	assert_int_equal(linsched_sim_nr_tasks(sim), 1);
	linsched_sim_set_wakeup_hook(sim, log_wakeup, &log);
	linsched_sim_set_epoch_hook(sim, forget_wakeups, &log);
	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	assert_int_equal(linsched_sim_nr_tasks(sim), 5);
	assert_int_equal(hackbench_messages(hb), 2 * 2 * 3);
	assert_true(log.names->len >= 4);
	assert_string_equal(g_ptr_array_index(log.names, 0), "sender-0.1");
	assert_string_equal(g_ptr_array_index(log.names, 1), "sender-0.0");
	assert_string_equal(g_ptr_array_index(log.names, 2), "receiver-0.1");
	assert_string_equal(g_ptr_array_index(log.names, 3), "receiver-0.0");
	assert_int_equal(log.targets[0], 1);
	assert_int_equal(log.targets[1], 0);
	/* The schedstat counters count the same wakeups: the first went to the other CPU 1 than the
	 * waker's 0, the second was moved by wake_affine to the waker's CPU. */
	const struct linsched_result *res = linsched_sim_result(sim);

	assert_int_equal(res->wakeups, log.names->len);
	assert_int_equal(res->wakeups_remote, log.remote);
	assert_true(res->wake_affine_moves >= 1);
	assert_true(res->wake_affine_moves <= res->wake_affine_attempts);
	assert_true(res->wake_affine_attempts <= res->wakeups);
	/* 4 reports fit the report channel's 278. */
	assert_int_equal(hackbench_ready_waits(hb), 0);
	for (unsigned int i = 1; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		assert_true(st.exited);
	}
	g_ptr_array_free(log.names, TRUE);
	hackbench_free(hb);
	linsched_sim_free(sim);

	/* Bootstrapped tasks have no parent start. */
	g_autoptr(GError) error = NULL;

	p.model = HACKBENCH_BOOTSTRAP;
	assert_false(hackbench_params_validate(&p, &error));
	assert_non_null(strstr(error->message, "--start"));
}

/*
 * The parent brings parent_flips from its shell and every worker it forks inherits them: 50 us
 * in, the parent (a fork every 20 us, from 0) has made receiver-0.0, receiver-0.1 and
 * sender-0.0, and nobody has woken anybody yet: all four have the parent's 5 flips, or none when
 * it brought none.
 */
static void test_parent_start_workers_inherit_flips(void **state)
{
	(void)state;
	for (unsigned int flips = 0; flips <= 5; flips += 5) {
		struct linsched_config cfg = config_for("6.1", 2);
		struct hackbench_params p = small_params(1, 2, 3);

		cfg.duration_ns = 50000;
		p.start = HACKBENCH_START_PARENT;
		p.parent_flips = flips;
		hackbench_params_resolve(&p);
		struct linsched_sim *sim = linsched_sim_new(&cfg);
		struct hackbench *hb = hackbench_create(sim, &p);

		linsched_sim_run(sim);
		assert_int_equal(linsched_sim_nr_tasks(sim), 4);
		for (unsigned int i = 0; i < 4; i++)
			assert_int_equal(
				linsched_task_sched(linsched_sim_task(sim, i))->wakee_flips, flips);
		hackbench_free(hb);
		linsched_sim_free(sim);
	}
}

/*
 * A real run's record of every fork (fork_flips): worker n inherits the n-th value, whatever the
 * parent had; 50 us in (a fork every 20 us, from 0) the parent has made three of the four and
 * has the third's 9 itself, and nobody has woken anybody yet. One value for the four workers:
 * the last, still unforked, is left to the parent's own (here the 9 it was handed last). Values
 * for more workers than there are, or for a barrier start, are refused.
 */
static void test_parent_start_fork_flips(void **state)
{
	static const unsigned int series[] = { 0, 4, 9 };
	struct linsched_config cfg = config_for("6.1", 2);
	struct hackbench_params p = small_params(1, 2, 3);
	g_autoptr(GError) error = NULL;

	(void)state;
	cfg.duration_ns = 50000;
	p.start = HACKBENCH_START_PARENT;
	p.parent_flips = 2;
	p.fork_flips = series;
	p.n_fork_flips = 3;
	hackbench_params_resolve(&p);
	assert_true(hackbench_params_validate(&p, NULL));
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &p);

	linsched_sim_run(sim);
	assert_int_equal(linsched_sim_nr_tasks(sim), 4);
	/* Task 0 is the parent, then the workers in creation order. */
	assert_int_equal(linsched_task_sched(linsched_sim_task(sim, 0))->wakee_flips, 9);
	for (unsigned int i = 0; i < 3; i++)
		assert_int_equal(linsched_task_sched(linsched_sim_task(sim, i + 1))->wakee_flips,
				 series[i]);
	hackbench_free(hb);
	linsched_sim_free(sim);

	p.n_fork_flips = 5;
	assert_false(hackbench_params_validate(&p, &error));
	assert_non_null(strstr(error->message, "fork flips: 5 for 4 workers"));
	g_clear_error(&error);
	p.n_fork_flips = 3;
	p.start = HACKBENCH_START_BARRIER;
	assert_false(hackbench_params_validate(&p, &error));
	assert_non_null(strstr(error->message, "barrier start"));
}

/*
 * The report channel holds what the workload's channels hold (here 2 messages: 2 x 766 bytes).
 * The parent creates all 4 workers before it reads any report: receiver-0.0 and receiver-0.1
 * report and poll; both senders find the channel full and wait, each once. Having created them
 * all, the parent reads the 2 reports and wakes the waiting writers; the senders report, the
 * channel is full again with all 4 in, and the parent releases them. Every message arrives.
 */
static void test_parent_start_report_channel_fills(void **state)
{
	(void)state;
	struct linsched_config cfg = config_for("6.1", 2);
	struct hackbench_params p = small_params(1, 2, 3);

	p.start = HACKBENCH_START_PARENT;
	p.capacity_bytes = 2 * 766;
	hackbench_params_resolve(&p);
	assert_int_equal(hackbench_capacity_msgs(&p), 2);

	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &p);

	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	assert_int_equal(hackbench_messages(hb), 2 * 2 * 3);
	assert_int_equal(hackbench_ready_waits(hb), 2);
	for (unsigned int i = 1; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		assert_true(st.exited);
	}
	hackbench_free(hb);
	linsched_sim_free(sim);

	/* A pipe's reports take a byte each: 4 fit in its 65536. */
	p.pipe = true;
	p.capacity_bytes = 0;
	p.write_ns = p.read_ns = 0;
	hackbench_params_resolve(&p);
	sim = linsched_sim_new(&cfg);
	hb = hackbench_create(sim, &p);
	linsched_sim_run(sim);
	assert_int_equal(hackbench_ready_waits(hb), 0);
	assert_int_equal(hackbench_messages(hb), 2 * 2 * 3);
	hackbench_free(hb);
	linsched_sim_free(sim);
}

/* ---- parameters ------------------------------------------------------------------------------- */

static void test_defaults(void **state)
{
	(void)state;
	struct hackbench_params p;

	/* The real tools' defaults (SPEC.md section 4). */
	hackbench_params_default(&p);
	assert_int_equal(p.groups, 10);
	assert_int_equal(p.loops, 100);
	assert_int_equal(p.fds, 20);
	assert_int_equal(p.datasize, 100);
	assert_false(p.pipe);
	assert_false(p.threads);
	assert_int_equal(p.model, HACKBENCH_FSM);
	assert_int_equal(hackbench_nr_tasks(&p), 400);
	hackbench_params_resolve(&p);
	assert_int_equal(p.capacity_bytes, 212992);
	p.pipe = true;
	p.capacity_bytes = 0;
	hackbench_params_resolve(&p);
	assert_int_equal(p.capacity_bytes, 65536);
	/* Threads share an address space: a cheaper switch than processes. */
	p.threads = false;
	uint64_t process_switch = hackbench_switch_ns(&p);

	p.threads = true;
	assert_true(hackbench_switch_ns(&p) < process_switch);
}

/* A machine with process_wakeup_ns charges it to processes only; without one, every wakeup
 * costs wakeup_ns. */
static void test_wakeup_cost_by_task_kind(void **state)
{
	struct hackbench_params p;
	struct linsched_machine m;

	(void)state;
	hackbench_params_default(&p);
	assert_int_equal(hackbench_wakeup_ns_on(&p, NULL), LINSCHED_DEFAULT_WAKEUP_NS);
	linsched_machine_builtin(&m);
	m.wakeup_ns = 18000;
	assert_int_equal(hackbench_wakeup_ns_on(&p, &m), 18000);
	m.process_wakeup_ns = 50000;
	assert_int_equal(hackbench_wakeup_ns_on(&p, &m), 50000);
	p.threads = true;
	assert_int_equal(hackbench_wakeup_ns_on(&p, &m), 18000);
	p.threads = false;
	p.pipe = true; /* the channel does not matter */
	assert_int_equal(hackbench_wakeup_ns_on(&p, &m), 50000);
}

static void test_capacity_in_messages(void **state)
{
	(void)state;
	struct hackbench_params p = small_params(1, 1, 1);
	/*
	 * Socket: each 100-byte message is charged 766 bytes. 2298 / 766 = 3; 212992 / 766 = 278.06;
	 * 65536 / 766 = 85.6; 1e12 / 766 = 1305483028.7.
	 * Pipe: 40 whole messages fit a 4096-byte page (40 x 100 = 4000); a capacity below a page holds
	 * what fits in it: 100 -> 1, 300 -> 3. 212992 = 52 pages -> 2080; 65536 = 16 pages -> 640;
	 * 1e12 = 244140625 pages -> 9765625000.
	 */
	static const struct {
		bool pipe;
		uint64_t bytes, msgs;
	} cases[] = {
		{ false, SOCKET_CHARGE, 1 },
		{ false, 3 * SOCKET_CHARGE, 3 },
		{ false, 212992, 278 },
		{ false, 65536, 85 },
		{ false, 1000000000000ULL, 1305483028ULL },
		{ true, 100, 1 },
		{ true, 300, 3 },
		{ true, 212992, 2080 },
		{ true, 65536, 640 },
		{ true, 1000000000000ULL, 9765625000ULL },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		p.pipe = cases[i].pipe;
		p.capacity_bytes = cases[i].bytes;
		assert_int_equal(hackbench_capacity_msgs(&p), cases[i].msgs);
		assert_true(hackbench_params_validate(&p, NULL));
	}
	/* One byte less than a message's charge holds nothing: rejected, naming the flag. */
	GError *error = NULL;

	p.pipe = false;
	p.capacity_bytes = SOCKET_CHARGE - 1;
	assert_int_equal(hackbench_capacity_msgs(&p), 0);
	assert_false(hackbench_params_validate(&p, &error));
	assert_non_null(strstr(error->message, "--capacity-bytes"));
	g_clear_error(&error);
	p.pipe = true;
	p.capacity_bytes = 99;
	assert_false(hackbench_params_validate(&p, &error));
	assert_non_null(strstr(error->message, "--capacity-bytes"));
	g_clear_error(&error);
}

static void test_validate_names_the_flag(void **state)
{
	(void)state;
	static const struct {
		const char *flag;
		unsigned int groups, fds, loops;
	} cases[] = {
		{ "--groups", 0, 20, 100 },
		{ "--fds", 10, 0, 100 },
		{ "--loops", 10, 20, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct hackbench_params p =
			small_params(cases[i].groups, cases[i].fds, cases[i].loops);
		GError *error = NULL;

		hackbench_params_resolve(&p);
		assert_false(hackbench_params_validate(&p, &error));
		assert_non_null(error);
		if (!strstr(error->message, cases[i].flag) || strchr(error->message, '\n'))
			fail_msg("error '%s' does not name %s on one line", error->message,
				 cases[i].flag);
		g_error_free(error);
	}
}

/* ---- conservation ----------------------------------------------------------------------------- */

static void test_conservation_over_capacities(void **state)
{
	(void)state;
	/* From one message's charge to practically unbounded, for both channel kinds. */
	static const struct {
		bool pipe;
		uint64_t bytes;
	} caps[] = {
		{ false, SOCKET_CHARGE },
		{ false, 3 * SOCKET_CHARGE },
		{ false, 212992 },
		{ false, 65536 },
		{ false, 1000000000000ULL },
		{ true, 100 },
		{ true, 300 },
		{ true, 212992 },
		{ true, 65536 },
		{ true, 1000000000000ULL },
	};
	static const unsigned int cpus[] = { 1, 2, 4 };

	for (size_t i = 0; i < G_N_ELEMENTS(caps); i++)
		for (size_t c = 0; c < G_N_ELEMENTS(cpus); c++) {
			/* Odd sizes, so that an off-by-one in the round-robin over receivers shows. */
			struct hackbench_params p = small_params(2, 5, 7);
			struct linsched_config cfg = config_for("2.6.28", cpus[c]);
			char what[96];

			p.pipe = caps[i].pipe;
			p.capacity_bytes = caps[i].bytes;
			g_snprintf(what, sizeof(what),
				   "%s of %" G_GUINT64_FORMAT " bytes on %u CPUs",
				   p.pipe ? "pipe" : "socket", p.capacity_bytes, cpus[c]);
			check_conservation(&cfg, &p, what);
		}
}

static void test_conservation_default_workload(void **state)
{
	(void)state;
	/* The real tools' group size (F = 20) with a few loops, in both profiles. */
	struct hackbench_params p = small_params(3, 20, 10);

	for (int prof = 0; prof < 2; prof++) {
		struct linsched_config cfg = config_for(prof ? "6.1" : "2.6.28", 2);

		check_conservation(&cfg, &p, prof ? "6.1, 3 groups" : "2.6.28, 3 groups");
	}
}

/* ---- blocking, observed in the middle of a run ------------------------------------------------ */

struct observation {
	struct hackbench_channel_state ch;
	enum task_state sender, receiver;
};

/*
 * The state of group 0's first channel and its two tasks when a simulation of p stops at stop
 * (virtual time from the simulation's start).
 */
static void observe_at(const struct linsched_config *base, const struct hackbench_params *p,
		       uint64_t stop, struct observation *o)
{
	struct linsched_config cfg = *base;

	cfg.duration_ns = stop;
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, p);

	linsched_sim_run(sim);
	hackbench_channel_state(hb, 0, 0, &o->ch);
	o->sender = linsched_task_sched(find_task(sim, "sender-0.0"))->state;
	o->receiver = linsched_task_sched(find_task(sim, "receiver-0.0"))->state;
	hackbench_free(hb);
	linsched_sim_free(sim);
}

/* How long a whole run lasts in absolute virtual time, from the simulation's start. */
static uint64_t whole_run_ns(const struct linsched_config *cfg, const struct hackbench_params *p)
{
	struct linsched_sim *sim = linsched_sim_new(cfg);
	struct hackbench *hb = hackbench_create(sim, p);

	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	uint64_t end = linsched_sim_now(sim);

	hackbench_free(hb);
	linsched_sim_free(sim);
	return end;
}

struct blocking_counts {
	unsigned int sender_blocks, sender_wakes, receiver_blocks, receiver_wakes;
	unsigned int receiver_sleeps; /* times it went to sleep on the empty channel */
};

/*
 * One sender, one receiver, one CPU (2.6.28, where 5 ms is the default wakeup granularity):
 * observes the run every step_ns and checks the blocking rules on every observation and every
 * transition between two. wake_queued is what the channel holds when the blocked sender is woken.
 */
static struct blocking_counts check_blocking(const struct hackbench_params *p,
					     uint64_t wakeup_granularity, uint64_t capacity,
					     uint64_t wake_queued, uint64_t step_ns)
{
	struct linsched_config cfg = config_for("2.6.28", 1);
	struct blocking_counts n = { 0, 0, 0, 0, 0 };
	struct observation prev, cur;
	cfg.tun.wakeup_granularity = wakeup_granularity;
	uint64_t end = whole_run_ns(&cfg, p);

	assert_int_equal(p->groups, 1);
	assert_int_equal(p->fds, 1);
	memset(&prev, 0, sizeof(prev));
	prev.sender = prev.receiver = TASK_RUNNING;
	for (uint64_t stop = step_ns; stop <= end + step_ns; stop += step_ns, prev = cur) {
		observe_at(&cfg, p, stop, &cur);
		const struct hackbench_channel_state *a = &prev.ch, *b = &cur.ch;

		/* The observations are fine enough: at most one write or read between two. */
		if ((b->written - a->written) + (b->read - a->read) > 1)
			fail_msg("at %" G_GUINT64_FORMAT " ns: %" G_GUINT64_FORMAT
				 " writes and %" G_GUINT64_FORMAT
				 " reads since the last look; observe more often",
				 stop, b->written - a->written, b->read - a->read);
		assert_int_equal(b->capacity, capacity);
		assert_true(b->queued <= capacity);
		assert_int_equal(b->queued, b->written - b->read);

		/*
		 * Asleep after the barrier means asleep on the channel. (The converse need not hold for an
		 * instant: a task joins the wait queue when it decides to block, the kernel's
		 * prepare_to_wait, and sleeps once it has paid the costs it owes.)
		 */
		if (b->written > 0 && cur.sender == TASK_INTERRUPTIBLE)
			assert_int_equal(b->blocked_writers, 1);
		if (b->written > 0 && cur.receiver == TASK_INTERRUPTIBLE)
			assert_int_equal(b->blocked_readers, 1);

		/* A blocked sender stays blocked until the threshold; a blocked receiver sees nothing. */
		if (b->blocked_writers && b->queued <= wake_queued)
			fail_msg("at %" G_GUINT64_FORMAT
				 " ns the sender still sleeps with %" G_GUINT64_FORMAT
				 " of %" G_GUINT64_FORMAT " queued",
				 stop, b->queued, capacity);
		if (b->blocked_readers)
			assert_int_equal(b->queued, 0);

		if (!a->blocked_writers && b->blocked_writers) {
			n.sender_blocks++;
			if (b->queued != capacity)
				fail_msg("at %" G_GUINT64_FORMAT
					 " ns the sender blocked with %" G_GUINT64_FORMAT
					 " of %" G_GUINT64_FORMAT " queued",
					 stop, b->queued, capacity);
		}
		if (a->blocked_writers && !b->blocked_writers) {
			n.sender_wakes++;
			if (b->queued != wake_queued || b->read != a->read + 1)
				fail_msg(
					"at %" G_GUINT64_FORMAT
					" ns the sender woke with %" G_GUINT64_FORMAT
					" queued, expected on the read that left %" G_GUINT64_FORMAT,
					stop, b->queued, wake_queued);
		}
		if (!a->blocked_readers && b->blocked_readers)
			n.receiver_blocks++;
		if (b->written > 0 && prev.receiver != TASK_INTERRUPTIBLE &&
		    cur.receiver == TASK_INTERRUPTIBLE)
			n.receiver_sleeps++;
		if (a->blocked_readers && !b->blocked_readers) {
			n.receiver_wakes++;
			/* Woken by the write that made the channel non-empty. */
			assert_int_equal(b->queued, 1);
			assert_int_equal(b->written, a->written + 1);
		}
	}
	/* The last observation is past the end: everything was read and nobody waits. */
	assert_int_equal(prev.ch.read, (uint64_t)p->fds * p->loops);
	assert_int_equal(prev.ch.queued, 0);
	assert_int_equal(n.sender_wakes, n.sender_blocks);
	assert_int_equal(n.receiver_wakes, n.receiver_blocks);
	return n;
}

static void test_blocking_socket_of_three(void **state)
{
	(void)state;
	struct hackbench_params p = small_params(1, 1, 12);

	/*
	 * A send buffer of 3 x 766 = 2298 bytes holds 3 messages. The kernel wakes writers once
	 * unix_writable(): wmem * 4 <= sndbuf, i.e. at most 574 bytes in use: no whole message, so the
	 * sender sleeps until the receiver has emptied the channel. 12 messages through a channel of 3
	 * make the sender block at least 3 times.
	 */
	p.capacity_bytes = 3 * SOCKET_CHARGE;
	struct blocking_counts n = check_blocking(&p, 5 * MS, 3, 0, 50);

	assert_true(n.sender_blocks >= 3);
	/*
	 * With a wakeup granularity of 1 s no wakeup preempts: the receiver drains the channel and
	 * goes to sleep on it each time before the sender runs again.
	 */
	n = check_blocking(&p, 1000 * MS, 3, 0, 50);
	assert_true(n.sender_blocks >= 3);
	assert_true(n.receiver_sleeps >= 3);
}

static void test_blocking_socket_three_quarters(void **state)
{
	(void)state;
	struct hackbench_params p = small_params(1, 1, 40);

	/*
	 * 8 messages: sndbuf = 6128 bytes, writable once wmem <= 1532 bytes = 2 messages, i.e. once
	 * 6 of the 8 slots (3/4) are free. The sender wakes on the read that leaves 2 queued.
	 */
	p.capacity_bytes = 8 * SOCKET_CHARGE;
	struct blocking_counts n = check_blocking(&p, 5 * MS, 8, 2, 50);

	assert_true(n.sender_blocks >= 4);
}

static void test_blocking_pipe_page(void **state)
{
	(void)state;
	struct hackbench_params p = small_params(1, 1, 200);

	/*
	 * A pipe of 2 pages holds 80 messages (40 a page). pipe_read wakes writers when it frees a
	 * whole page, so the sender wakes on the read that leaves 40 queued. Reads and writes cost
	 * 370 and 360 ns: observing every 100 ns sees them one at a time.
	 */
	p.pipe = true;
	p.capacity_bytes = 2 * 4096;
	struct blocking_counts n = check_blocking(&p, 5 * MS, 80, 40, 100);

	assert_true(n.sender_blocks >= 2);
}

static void test_blocking_invariants_on_two_cpus(void **state)
{
	(void)state;
	/*
	 * Several senders share each channel and run in parallel with the receivers. Whatever the
	 * interleaving, at every instant: a channel with a blocked writer is above its wake-up level
	 * (2 messages: woken at 0 queued), one with a blocked reader is empty, and nothing exceeds
	 * the capacity.
	 */
	struct hackbench_params p = small_params(1, 3, 4);
	struct linsched_config cfg = config_for("6.1", 2);
	unsigned int with_blocked_writer = 0, with_blocked_reader = 0;

	p.capacity_bytes = 2 * SOCKET_CHARGE;
	uint64_t end = whole_run_ns(&cfg, &p);

	for (uint64_t stop = 100; stop <= end; stop += 100) {
		struct linsched_config c = cfg;

		c.duration_ns = stop;
		struct linsched_sim *sim = linsched_sim_new(&c);
		struct hackbench *hb = hackbench_create(sim, &p);

		linsched_sim_run(sim);
		for (unsigned int r = 0; r < p.fds; r++) {
			struct hackbench_channel_state cs;

			hackbench_channel_state(hb, 0, r, &cs);
			assert_int_equal(cs.capacity, 2);
			assert_true(cs.queued <= cs.capacity);
			assert_int_equal(cs.queued, cs.written - cs.read);
			assert_true(cs.blocked_writers <= p.fds);
			assert_true(cs.blocked_readers <= 1);
			if (cs.blocked_writers) {
				with_blocked_writer++;
				assert_true(cs.queued > 0);
			}
			if (cs.blocked_readers) {
				with_blocked_reader++;
				assert_int_equal(cs.queued, 0);
			}
		}
		/*
		 * Every task that sleeps after the barrier sleeps on a channel (a channel's queue may also
		 * hold a task that decided to block but still pays what it owes).
		 */
		unsigned int asleep = 0, waiting = 0;

		for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++)
			asleep += linsched_task_sched(linsched_sim_task(sim, i))->state ==
				  TASK_INTERRUPTIBLE;
		for (unsigned int r = 0; r < p.fds; r++) {
			struct hackbench_channel_state cs;

			hackbench_channel_state(hb, 0, r, &cs);
			waiting += cs.blocked_writers + cs.blocked_readers;
		}
		if (hackbench_messages(hb) > 0)
			assert_true(asleep <= waiting);
		hackbench_free(hb);
		linsched_sim_free(sim);
	}
	/* The rules were exercised, not vacuously true. */
	assert_true(with_blocked_writer > 0);
	assert_true(with_blocked_reader > 0);
}

static void test_duration_counts_from_start(void **state)
{
	(void)state;
	/*
	 * The observations above rely on this: cfg.duration_ns counts from the simulation's start
	 * (virtual time 0), not from the barrier's release (the epoch), so that stopping at every
	 * instant in turn observes the whole run without a gap. runtime_ns still counts from the
	 * epoch: a run stopped at D after a release at E reports D - E.
	 */
	struct hackbench_params p = small_params(1, 1, 20);
	struct linsched_config cfg = config_for("2.6.28", 1);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &p);

	linsched_sim_run(sim);
	uint64_t runtime = linsched_sim_result(sim)->runtime_ns;
	uint64_t epoch = linsched_sim_now(sim) - runtime; /* the run ended at the last exit */

	hackbench_free(hb);
	linsched_sim_free(sim);
	assert_true(epoch > 0); /* the set-up before the barrier takes time */
	assert_true(runtime > 2 * epoch);

	cfg.duration_ns = epoch + runtime / 2;
	sim = linsched_sim_new(&cfg);
	hb = hackbench_create(sim, &p);
	linsched_sim_run(sim);
	const struct linsched_result *res = linsched_sim_result(sim);

	if (linsched_sim_now(sim) != cfg.duration_ns || res->runtime_ns != cfg.duration_ns - epoch)
		fail_msg("duration %" G_GUINT64_FORMAT " ns, epoch at %" G_GUINT64_FORMAT
			 " ns: stopped at %" G_GUINT64_FORMAT
			 " ns with runtime_ns %" G_GUINT64_FORMAT,
			 cfg.duration_ns, epoch, linsched_sim_now(sim), res->runtime_ns);
	hackbench_free(hb);
	linsched_sim_free(sim);
}

/* ---- no deadlock ------------------------------------------------------------------------------ */

static void test_no_deadlock_sample(void **state)
{
	(void)state;
	static const unsigned int cpu_choices[] = { 1, 2, 4, 8 };
	static const unsigned int loop_choices[] = { 1, 10, 100 };
	static const char *const profiles[] = { "2.6.28", "6.1" };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, 20240601);
	for (unsigned int i = 0; i < 40; i++) {
		unsigned int groups = 1 + (unsigned int)gsl_rng_uniform_int(rng, 20);
		unsigned int loops =
			loop_choices[gsl_rng_uniform_int(rng, G_N_ELEMENTS(loop_choices))];
		unsigned int cpus =
			cpu_choices[gsl_rng_uniform_int(rng, G_N_ELEMENTS(cpu_choices))];
		const char *profile = profiles[i % 2];
		struct hackbench_params p;

		/* At most 10 loops beyond 4 groups keeps the file fast; this seed draws G from 1 to 18. */
		if (groups * loops > 400)
			loops = 10;
		p = small_params(groups, 20, loops);
		p.pipe = gsl_rng_uniform_int(rng, 2);
		p.threads = gsl_rng_uniform_int(rng, 2);
		/* A third of the runs with the tightest channel, one message. */
		if (gsl_rng_uniform_int(rng, 3) == 0)
			p.capacity_bytes = p.pipe ? 100 : SOCKET_CHARGE;

		struct linsched_config cfg = config_for(profile, cpus);
		char what[128];

		cfg.costs.switch_ns = hackbench_switch_ns(&p);
		cfg.seed = 1 + i;
		g_snprintf(what, sizeof(what),
			   "G=%u L=%u %s %s capacity %" G_GUINT64_FORMAT ", %u CPUs, %s", groups,
			   loops, p.pipe ? "pipe" : "socket", p.threads ? "threads" : "processes",
			   p.capacity_bytes, cpus, profile);
		check_conservation(&cfg, &p, what);
	}
	/* The corners: the smallest and the largest workload. */
	struct hackbench_params tiny = small_params(1, 20, 1), big = small_params(20, 20, 10);

	for (int prof = 0; prof < 2; prof++) {
		struct linsched_config one = config_for(profiles[prof], 1),
				       eight = config_for(profiles[prof], 8);

		check_conservation(&one, &tiny, "1 group, 1 loop, 1 CPU");
		check_conservation(&eight, &big, "20 groups, 10 loops, 8 CPUs");
	}
	gsl_rng_free(rng);
}

/* ---- knobs ------------------------------------------------------------------------------------ */

static void test_wakeup_granularity_acts(void **state)
{
	(void)state;
	/*
	 * check_preempt_wakeup preempts curr when it is more than wakeup_granularity ahead of the woken
	 * task in vruntime. At 0 every wakeup of a task behind curr preempts; at 1 s practically none
	 * does. So granularity 0 must switch more often (the kernel's prediction), and the extra
	 * switches change the runtime.
	 */
	static const char *const profiles[] = { "2.6.28", "6.1" };

	for (size_t i = 0; i < G_N_ELEMENTS(profiles); i++) {
		struct hackbench_params p = small_params(5, 20, 10);
		struct hackbench_outcome fine, coarse;

		p.threads = true;
		struct linsched_config cfg = config_for(profiles[i], 2);

		cfg.costs.switch_ns = hackbench_switch_ns(&p);
		cfg.tun.wakeup_granularity = 0;
		hackbench_simulate(&cfg, &p, &fine);
		cfg.tun.wakeup_granularity = 1000000000;
		hackbench_simulate(&cfg, &p, &coarse);
		printf("%s, 5 groups x 10 loops, threads, 2 CPUs: wakeup_granularity 0: %" G_GUINT64_FORMAT
		       " context switches, %" G_GUINT64_FORMAT " ns; 1 s: %" G_GUINT64_FORMAT
		       " context switches, %" G_GUINT64_FORMAT " ns\n",
		       profiles[i], fine.context_switches, fine.runtime_ns, coarse.context_switches,
		       coarse.runtime_ns);
		assert_false(fine.deadlock);
		assert_false(coarse.deadlock);
		assert_int_equal(fine.messages, 5 * 20 * 20 * 10);
		assert_int_equal(coarse.messages, 5 * 20 * 20 * 10);
		assert_true(fine.context_switches > coarse.context_switches);
		assert_true(fine.runtime_ns != coarse.runtime_ns);
	}
}

/*
 * Cost jitter reaches hackbench: without it every seed gives the same run (the FSM has no other
 * randomness); with CV 0.2 the seeds give different turnarounds, each seed the same one twice,
 * and every message still arrives.  The mean over seeds stays near the fixed-cost turnaround:
 * per-operation costs keep their means, so the CPU work is the same in expectation; the
 * scheduling it leads to is not, and the tolerance of 10% only says the costs were not scaled.
 */
static void test_cost_jitter_varies_runs(void **state)
{
	(void)state;
	struct hackbench_params p;
	struct hackbench_outcome base, again, out[4];

	hackbench_params_default(&p);
	p.groups = 2;
	p.loops = 20;
	p.threads = true;
	hackbench_params_resolve(&p);

	struct linsched_config cfg = config_for("6.1", 2);

	cfg.costs.switch_ns = hackbench_switch_ns(&p);
	hackbench_simulate(&cfg, &p, &base);
	cfg.seed = 2;
	hackbench_simulate(&cfg, &p, &again);
	assert_int_equal(base.runtime_ns, again.runtime_ns);

	cfg.costs.jitter_cv = 0.2;
	double mean = 0;
	int distinct = 0;

	for (int s = 0; s < 4; s++) {
		cfg.seed = (uint64_t)(s + 1);
		hackbench_simulate(&cfg, &p, &out[s]);
		hackbench_simulate(&cfg, &p, &again);
		assert_int_equal(out[s].runtime_ns, again.runtime_ns);
		assert_int_equal(out[s].messages, 2 * 20 * 20 * 20);
		assert_false(out[s].deadlock);
		distinct += s > 0 && out[s].runtime_ns != out[0].runtime_ns;
		mean += (double)out[s].runtime_ns / 4;
	}
	assert_true(distinct >= 2);
	assert_true(fabs(mean - (double)base.runtime_ns) < 0.1 * (double)base.runtime_ns);
}

/*
 * task_switches counts every time a task left a CPU, as a real run's rusage does. In a run where
 * every task exits, each time a task was switched in (schedstat's pcount) it was later switched
 * out, exit included: for processes the count equals the sum of the pcounts, which the engine
 * keeps apart. An exiting thread's last switch is not in its process's rusage (its counts were
 * added before it): for threads, one less per worker, and the parent of a parent start (the
 * process's main thread, reaped as a process) keeps its own. Checked in every profile, EEVDF's
 * delayed dequeues included, and for both starts.
 */
static void test_task_switches_counted(void **state)
{
	(void)state;
	static const char *const profiles[] = { "2.6.28", "6.1", "eevdf", "6.6" };

	for (size_t i = 0; i < 4 * G_N_ELEMENTS(profiles); i++) {
		struct hackbench_params p = small_params(3, 10, 20);
		struct linsched_config cfg = config_for(profiles[i / 4], 2);
		struct hackbench_outcome out;

		p.threads = i & 1;
		p.start = i & 2 ? HACKBENCH_START_PARENT : HACKBENCH_START_BARRIER;

		struct linsched_sim *sim = linsched_sim_new(&cfg);
		struct hackbench *hb = hackbench_create(sim, &p);
		uint64_t pcounts = 0;
		unsigned int workers = 0;

		linsched_sim_run(sim);
		for (unsigned int t = 0; t < linsched_sim_nr_tasks(sim); t++) {
			struct linsched_task_stats st;

			linsched_task_stats(linsched_sim_task(sim, t), &st);
			assert_true(st.exited);
			pcounts += st.pcount;
			workers += strcmp(st.name, "hackbench") != 0;
		}
		assert_int_equal(workers, 60);
		assert_int_equal(linsched_sim_nr_tasks(sim),
				 p.start == HACKBENCH_START_PARENT ? 61 : 60);
		hackbench_free(hb);
		linsched_sim_free(sim);
		hackbench_simulate(&cfg, &p, &out);
		assert_false(out.deadlock);
		assert_int_equal(out.task_switches, pcounts - (p.threads ? workers : 0));
	}
}

/* ---- the cache model through the engine ------------------------------------------------------- */

/*
 * Two small task models. A "cycler" runs bursts separated by sleeps, alone on its CPU. A "relay"
 * hands a baton between tasks through wait queues: it runs a burst when it holds the baton, then
 * passes it on and blocks, so that the tasks run strictly in turn.
 */
struct cycler {
	unsigned int bursts, done;
	uint64_t run_ns, sleep_ns;
	bool slept;
};

static void cycler_next(struct linsched_task *t, struct linsched_step *step)
{
	struct cycler *c = linsched_task_data(t);

	if (c->done == c->bursts) {
		step->kind = LINSCHED_STEP_EXIT;
	} else if (c->done > 0 && !c->slept) {
		c->slept = true;
		step->kind = LINSCHED_STEP_SLEEP;
		step->ns = c->sleep_ns;
	} else {
		c->slept = false;
		c->done++;
		step->kind = LINSCHED_STEP_RUN;
		step->ns = c->run_ns;
	}
}

static const struct linsched_task_ops cycler_ops = { .kind = "cycler",
						     .next = cycler_next,
						     .free = g_free };

#define RELAY_MAX 4

/* What the tasks of one relay share; owned by the test, outlives the simulation's run. */
struct relay {
	struct linsched_waitqueue wq[RELAY_MAX];
	unsigned int n, baton, rounds;
	uint64_t run_ns;
};

struct relay_task {
	struct relay *r;
	unsigned int me, done;
	bool ran;
};

static void relay_next(struct linsched_task *t, struct linsched_step *step)
{
	struct relay_task *rt = linsched_task_data(t);
	struct relay *r = rt->r;

	if (rt->ran) {
		rt->ran = false;
		rt->done++;
		r->baton = (rt->me + 1) % r->n;
		linsched_wake_up(t, &r->wq[r->baton], 0, true);
	}
	if (rt->done == r->rounds) {
		step->kind = LINSCHED_STEP_EXIT;
	} else if (r->baton != rt->me) {
		step->kind = LINSCHED_STEP_BLOCK;
		step->wq = &r->wq[rt->me];
	} else {
		rt->ran = true;
		step->kind = LINSCHED_STEP_RUN;
		step->ns = r->run_ns;
	}
}

static const struct linsched_task_ops relay_ops = { .kind = "relay",
						    .next = relay_next,
						    .free = g_free };

static void relay_init(struct relay *r, unsigned int n, unsigned int rounds, uint64_t run_ns)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	/*
	 * START_DEBIT places the first task forked on a CPU a whole latency after min_vruntime and the
	 * second half of one, so the last one forked runs first: it starts with the baton, and no task
	 * is switched in only to find it has nothing to do.
	 */
	r->baton = n - 1;
	r->rounds = rounds;
	r->run_ns = run_ns;
	for (unsigned int i = 0; i < n; i++)
		linsched_waitqueue_init(&r->wq[i]);
}

static struct linsched_task *relay_task_create(struct linsched_sim *sim, struct relay *r,
					       unsigned int me, uint64_t footprint)
{
	struct relay_task *rt = g_new0(struct relay_task, 1);
	char name[16];

	rt->r = r;
	rt->me = me;
	g_snprintf(name, sizeof(name), "relay-%u", me);
	struct linsched_task *t = linsched_task_create(sim, &relay_ops, rt, name, 0);

	linsched_task_set_footprint(t, footprint);
	return t;
}

/* No cost but the cache's: every ns of sum_exec beyond the work is a reload. 5 ns a line. */
static struct linsched_config cache_config(unsigned int cpus, unsigned int domains, uint64_t lines)
{
	struct linsched_config cfg = config_for("2.6.28", cpus);

	cfg.nr_domains = domains;
	cfg.costs.switch_ns = cfg.costs.wakeup_ns = cfg.costs.migrate_ns = 0;
	cfg.costs.cache_lines = lines;
	cfg.costs.miss_ps = 5000;
	assert_true(linsched_config_validate(&cfg, NULL));
	return cfg;
}

static struct linsched_task_stats stats(const struct linsched_task *t)
{
	struct linsched_task_stats st;

	linsched_task_stats(t, &st);
	return st;
}

static void test_cache_alone_stays_warm(void **state)
{
	(void)state;
	/*
	 * 6 bursts of 1 ms with 2 ms sleeps, alone on a CPU: switched in 6 times, but nothing else ran
	 * in between, so only the first switch-in reloads its 800 lines: 800 x 5 ns = 4 us.
	 */
	struct linsched_config cfg = cache_config(1, 1, 1000);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct cycler *c = g_new0(struct cycler, 1);

	c->bursts = 6;
	c->run_ns = 1 * MS;
	c->sleep_ns = 2 * MS;
	struct linsched_task *t = linsched_task_create(sim, &cycler_ops, c, "cycler", 0);

	linsched_task_set_footprint(t, 800);
	linsched_sim_run(sim);
	struct linsched_task_stats st = stats(t);

	assert_int_equal(st.pcount, 6);
	assert_int_equal(st.sum_exec_ns, 6 * MS + 800 * 5);
	linsched_sim_free(sim);
}

/*
 * Two relay tasks in turn on one CPU, rounds bursts of 1 ms each; returns their sum_exec. Each is
 * switched in once per round.
 */
static void run_relay_pair(uint64_t cache_lines, uint64_t fp0, uint64_t fp1, unsigned int rounds,
			   uint64_t exec[2])
{
	struct linsched_config cfg = cache_config(1, 1, cache_lines);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct relay r;
	struct linsched_task *t[2];

	relay_init(&r, 2, rounds, 1 * MS);
	t[0] = relay_task_create(sim, &r, 0, fp0);
	t[1] = relay_task_create(sim, &r, 1, fp1);
	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	for (int i = 0; i < 2; i++) {
		struct linsched_task_stats st = stats(t[i]);

		assert_true(st.exited);
		assert_int_equal(st.pcount, rounds);
		exec[i] = st.sum_exec_ns;
	}
	linsched_sim_free(sim);
}

static void test_cache_interleaved_reloads(void **state)
{
	(void)state;
	const unsigned int rounds = 10;
	uint64_t exec[2];

	/*
	 * A partner without a footprint does not touch the cache: relay-0 (800 lines) reloads only
	 * on its first switch-in, as if alone.
	 */
	run_relay_pair(1000, 800, 0, rounds, exec);
	assert_int_equal(exec[0], rounds * MS + 800 * 5);
	assert_int_equal(exec[1], rounds * MS);

	/*
	 * Footprints of 1000 lines each in a 1000-line cache: between two turns of one task the other
	 * loaded its whole footprint, which alone fills the cache, so every switch-in reloads all
	 * 1000 lines: 10 x 5 us of extra exec time each.
	 */
	run_relay_pair(1000, 1000, 1000, rounds, exec);
	assert_int_equal(exec[0], rounds * (MS + 1000 * 5));
	assert_int_equal(exec[1], rounds * (MS + 1000 * 5));

	/*
	 * 600 + 600 lines in 1000: the other's 600 lines evict 600 + 600 - 1000 = 200 of one's own
	 * (LRU). First switch-in cold (600 lines), then 200 lines each time: 600 + 9 x 200 lines.
	 */
	run_relay_pair(1000, 600, 600, rounds, exec);
	assert_int_equal(exec[0], rounds * MS + (600 + (rounds - 1) * 200) * 5);
	assert_int_equal(exec[1], rounds * MS + (600 + (rounds - 1) * 200) * 5);

	/* A cache that holds both keeps both warm. */
	run_relay_pair(2000, 1000, 1000, rounds, exec);
	assert_int_equal(exec[0], rounds * MS + 1000 * 5);
	assert_int_equal(exec[1], rounds * MS + 1000 * 5);
}

/*
 * A traveller (800 lines) that changes memory domain once. It runs its first burst on CPU 0 and
 * blocks. A hog then keeps CPU 0 busy, and a waker running on CPU 1 wakes the traveller
 * synchronously: select_task_rq finds its previous CPU busy and no CPU idle, and wake-affine
 * pulls it to the waker's CPU (nothing else queued there), where it stays. The hog and the waker
 * have no footprint, so they never evict the traveller's lines.
 */
struct travel {
	struct linsched_waitqueue wq, hog_wq;
	unsigned int bursts;
};

struct traveller {
	struct travel *tr;
	unsigned int done;
	bool ran;
};

static void traveller_next(struct linsched_task *t, struct linsched_step *step)
{
	struct traveller *tv = linsched_task_data(t);

	if (tv->ran) {
		tv->ran = false;
		tv->done++;
		/* Lets the hog (waiting for this) take CPU 0. */
		linsched_wake_up(t, &tv->tr->hog_wq, 0, true);
		if (tv->done == tv->tr->bursts) {
			step->kind = LINSCHED_STEP_EXIT;
			return;
		}
		step->kind = LINSCHED_STEP_BLOCK;
		step->wq = &tv->tr->wq;
		return;
	}
	tv->ran = true;
	step->kind = LINSCHED_STEP_RUN;
	step->ns = 1 * MS;
}

static const struct linsched_task_ops traveller_ops = {
	.kind = "traveller",
	.next = traveller_next,
	.free = g_free,
};

/* Busy for 1.5 ms, then wakes the traveller every 2 ms, bursts - 1 times. */
struct waker {
	struct travel *tr;
	unsigned int woken;
	bool busy_done;
};

static void waker_next(struct linsched_task *t, struct linsched_step *step)
{
	struct waker *w = linsched_task_data(t);

	if (!w->busy_done) {
		w->busy_done = true;
		step->kind = LINSCHED_STEP_RUN;
		step->ns = 1500 * US;
		return;
	}
	linsched_wake_up(t, &w->tr->wq, 0, true);
	if (++w->woken == w->tr->bursts - 1) {
		step->kind = LINSCHED_STEP_EXIT;
		return;
	}
	step->kind = LINSCHED_STEP_SLEEP;
	step->ns = 2 * MS;
}

static const struct linsched_task_ops waker_ops = { .kind = "waker",
						    .next = waker_next,
						    .free = g_free };

/* Waits for the traveller's first burst, then runs 30 ms on CPU 0. */
struct hog {
	struct travel *tr;
	unsigned int phase;
};

static void hog_next(struct linsched_task *t, struct linsched_step *step)
{
	struct hog *h = linsched_task_data(t);

	switch (h->phase++) {
	case 0:
		step->kind = LINSCHED_STEP_BLOCK;
		step->wq = &h->tr->hog_wq;
		break;
	case 1:
		step->kind = LINSCHED_STEP_RUN;
		step->ns = 30 * MS;
		break;
	default:
		step->kind = LINSCHED_STEP_EXIT;
		break;
	}
}

static const struct linsched_task_ops hog_ops = { .kind = "hog", .next = hog_next, .free = g_free };

static struct linsched_task_stats run_traveller(unsigned int domains)
{
	struct linsched_config cfg = cache_config(2, domains, 1000);
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct travel tr = { .bursts = 5 };
	struct traveller *tv = g_new0(struct traveller, 1);
	struct waker *w = g_new0(struct waker, 1);
	struct hog *h = g_new0(struct hog, 1);

	linsched_waitqueue_init(&tr.wq);
	linsched_waitqueue_init(&tr.hog_wq);
	tv->tr = w->tr = h->tr = &tr;
	/* Fork balancing (least loaded, ties to the lowest CPU): traveller and hog on 0, waker on 1. */
	struct linsched_task *t = linsched_task_create(sim, &traveller_ops, tv, "traveller", 0);
	struct linsched_task *wt = linsched_task_create(sim, &waker_ops, w, "waker", 0);
	struct linsched_task *ht = linsched_task_create(sim, &hog_ops, h, "hog", 0);

	linsched_task_set_footprint(t, 800);
	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	struct linsched_task_stats st = stats(t);

	assert_true(st.exited);
	assert_int_equal(st.pcount, 5);
	assert_int_equal(st.nr_migrations, 1);
	assert_int_equal(st.cpu, 1);
	assert_int_equal(stats(wt).cpu, 1);
	assert_int_equal(stats(ht).cpu, 0);
	assert_int_equal(stats(ht).nr_migrations, 0);
	linsched_sim_free(sim);
	st.name = NULL; /* it pointed into the freed simulation */
	return st;
}

static void test_cache_migration_starts_cold(void **state)
{
	(void)state;
	/*
	 * Two CPUs sharing one cache: the move keeps the traveller's lines (the others have no
	 * footprint), so it reloads once, on its first run: 5 ms of work + 800 x 5 ns.
	 */
	struct linsched_task_stats shared = run_traveller(1);

	assert_int_equal(shared.sum_exec_ns, 5 * MS + 800 * 5);

	/* Two memory domains: arriving in the other one it starts cold and reloads everything again. */
	struct linsched_task_stats split = run_traveller(2);

	assert_int_equal(split.sum_exec_ns, 5 * MS + 2 * 800 * 5);
}

/* ---- data in flight (linsched/cache.h) --------------------------------------------------------- */

/* Writes `n` messages of `bytes`, 1 us each, then reads them back oldest first, 1 us each plus
 * what the engine says their evicted lines cost. */
struct courier {
	struct cache_stamp stamps[8];
	unsigned int n, written, read;
	uint64_t bytes;
};

static void courier_next(struct linsched_task *t, struct linsched_step *step)
{
	struct courier *c = linsched_task_data(t);

	step->kind = LINSCHED_STEP_RUN;
	if (c->written < c->n) {
		c->stamps[c->written++] = linsched_data_write(t, c->bytes);
		step->ns = 1 * US;
	} else if (c->read < c->n) {
		step->ns = 1 * US + linsched_data_read_ns(t, c->stamps[c->read++], c->bytes);
	} else {
		step->kind = LINSCHED_STEP_EXIT;
	}
}

static const struct linsched_task_ops courier_ops = { .kind = "courier",
						      .next = courier_next,
						      .free = g_free };

static uint64_t run_courier(uint64_t data_cache_lines, uint64_t *miss_lines)
{
	struct linsched_config cfg = cache_config(1, 1, 1000);

	cfg.costs.data_cache_lines = data_cache_lines;
	cfg.costs.data_miss_ps = 7000;
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct courier *c = g_new0(struct courier, 1);

	c->n = 3;
	c->bytes = 100;
	struct linsched_task *t = linsched_task_create(sim, &courier_ops, c, "courier", 0);

	linsched_sim_run(sim);
	uint64_t exec = stats(t).sum_exec_ns;

	*miss_lines = linsched_sim_result(sim)->data_miss_lines;
	linsched_sim_free(sim);
	return exec;
}

static void test_data_cache_through_the_engine(void **state)
{
	(void)state;
	uint64_t lines;

	/*
	 * Three 100-byte messages, read back from a data cache of 2 lines (128 bytes), no footprint
	 * (nothing reloaded): the first has 200 bytes after it, 300 - 128 = 172 gone, so all its 2
	 * lines; the second 100 after it, 72 gone, 2 lines; the third none, hot. 4 lines at 7 ns
	 * on top of 6 x 1 us.
	 */
	assert_int_equal(run_courier(2, &lines), 6 * US + 4 * 7);
	assert_int_equal(lines, 4);
	/* A data cache of 0 lines: not modelled, every message read hot. */
	assert_int_equal(run_courier(0, &lines), 6 * US);
	assert_int_equal(lines, 0);

	/* One whose bytes would not fit in 64 bits is refused, by name. */
	struct linsched_config cfg = cache_config(1, 1, 1000);
	GError *error = NULL;

	cfg.costs.data_cache_lines = LINSCHED_MAX_DATA_CACHE_LINES + 1;
	assert_false(linsched_config_validate(&cfg, &error));
	assert_non_null(strstr(error->message, "data_cache_lines"));
	g_error_free(error);
}

struct data_run {
	uint64_t runtime_ns, switches, miss_lines, messages;
};

static struct data_run run_data_hackbench(bool pipe, uint64_t data_cache_lines)
{
	struct linsched_config cfg = config_for("6.1", 2);
	struct hackbench_params p = small_params(2, 4, 20);

	p.pipe = pipe;
	cfg.costs.data_cache_lines = data_cache_lines;
	cfg.costs.data_miss_ps = 1000000; /* 1 us a line: any miss shows */
	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &p);

	linsched_sim_run(sim);
	const struct linsched_result *res = linsched_sim_result(sim);
	struct data_run out = { res->runtime_ns, res->context_switches, res->data_miss_lines,
				hackbench_messages(hb) };

	assert_false(res->deadlock);
	hackbench_free(hb);
	linsched_sim_free(sim);
	return out;
}

static void test_data_cache_hackbench(void **state)
{
	(void)state;

	for (int pipe = 0; pipe <= 1; pipe++) {
		struct data_run off = run_data_hackbench(pipe, 0);
		/* A cache far larger than everything the run writes: never a miss, the same run. */
		struct data_run big = run_data_hackbench(pipe, 1ULL << 30);
		/*
		 * A data cache of one line: a message has at least 0 bytes after it, so at least
		 * its size - 64 bytes are gone. A socket's 766 bytes: 702 to 766 gone, 11 or 12
		 * lines each; a pipe's 100: 36 to 100, 1 or 2.
		 */
		struct data_run tiny = run_data_hackbench(pipe, 1);
		uint64_t lo = pipe ? 1 : 11, hi = pipe ? 2 : 12;

		assert_int_equal(off.miss_lines, 0);
		assert_int_equal(big.miss_lines, 0);
		assert_int_equal(big.runtime_ns, off.runtime_ns);
		assert_int_equal(big.switches, off.switches);
		assert_int_equal(tiny.messages, 2 * 4 * 4 * 20);
		assert_in_range(tiny.miss_lines, lo * tiny.messages, hi * tiny.messages);
		assert_true(tiny.runtime_ns > off.runtime_ns);
	}
}

/* ---- the system call that finds its channel empty or full ------------------------------------ */

struct block_run {
	uint64_t sender_exec, receiver_exec;
	unsigned long receiver_sleeps; /* voluntary switches: every sleep, the barrier's included */
};

/*
 * One sender and one receiver on cpus CPUs with no cost but the messages' and block_ns: no switch,
 * wakeup, migration or cache cost, footprints of 0, and a wakeup granularity of 1 s, so that no
 * wakeup preempts.
 */
static struct block_run run_blocking(unsigned int cpus, uint64_t capacity_bytes, unsigned int loops,
				     uint64_t write_ns, uint64_t read_ns, uint64_t block_ns)
{
	struct linsched_config cfg = config_for("2.6.28", cpus);
	struct hackbench_params p = small_params(1, 1, loops);
	struct block_run r;

	cfg.costs.switch_ns = cfg.costs.wakeup_ns = cfg.costs.wakeup_remote_ns = 0;
	cfg.costs.migrate_ns = cfg.costs.miss_ps = 0;
	cfg.tun.wakeup_granularity = 1000 * MS;
	assert_true(linsched_config_validate(&cfg, NULL));
	p.capacity_bytes = capacity_bytes;
	p.write_ns = write_ns;
	p.read_ns = read_ns;
	p.block_ns = block_ns;
	p.footprint_lines = 0;

	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &p);

	linsched_sim_run(sim);
	assert_false(linsched_sim_result(sim)->deadlock);
	assert_int_equal(hackbench_messages(hb), loops);
	r.sender_exec = stats(find_task(sim, "sender-0.0")).sum_exec_ns;
	struct linsched_task_stats rs = stats(find_task(sim, "receiver-0.0"));

	r.receiver_exec = rs.sum_exec_ns;
	r.receiver_sleeps = rs.nvcsw;
	hackbench_free(hb);
	linsched_sim_free(sim);
	return r;
}

static void test_block_cost_on_one_cpu(void **state)
{
	(void)state;
	/*
	 * A channel of one message on one CPU, where nothing preempts. The sender reaches the barrier
	 * first and waits; the receiver releases it and finds the channel empty: it pays 300 ns for
	 * the system call, the channel is still empty (nobody else ran), and it sleeps. The sender
	 * writes message 1 (waking the receiver), finds the channel full when it tries message 2,
	 * pays 300 ns and sleeps; the receiver reads message 1 (waking the sender), finds the
	 * channel empty, pays and sleeps; and so on. After its last message each side exits without
	 * trying again: 10 attempts of the receiver (one before the first message), 9 of the sender.
	 */
	struct block_run free_ = run_blocking(1, SOCKET_CHARGE, 10, 1000, 2000, 0);
	struct block_run paid = run_blocking(1, SOCKET_CHARGE, 10, 1000, 2000, 300);

	assert_int_equal(free_.sender_exec, 10 * 1000);
	assert_int_equal(free_.receiver_exec, 10 * 2000);
	assert_int_equal(paid.sender_exec, 10 * 1000 + 9 * 300);
	assert_int_equal(paid.receiver_exec, 10 * 2000 + 10 * 300);
	/* Both sleep on the channel after every message but the last: the same in both runs. */
	assert_int_equal(paid.receiver_sleeps, free_.receiver_sleeps);
}

static void test_block_cost_lets_data_arrive(void **state)
{
	(void)state;
	/*
	 * Two CPUs, a channel larger than the run, reads of 100 ns and writes of 1000 ns: the
	 * receiver keeps emptying the channel and waits for the sender's next message. With a free
	 * attempt it falls asleep on the empty channel once per message (and once at the barrier).
	 * When finding it empty costs 5 us, the sender writes 5 messages meanwhile: the attempt ends
	 * with data, the receiver reads on without sleeping, and its CPU time is the reads and those
	 * attempts alone. A cycle of one attempt and k reads lasts 5000 + 100 k ns, in which the
	 * sender writes (5000 + 100 k) / 1000 messages: k = 5000 / 900, one attempt every 5.56
	 * messages.
	 */
	const unsigned int loops = 100;
	struct block_run free_ = run_blocking(2, 1000 * SOCKET_CHARGE, loops, 1000, 100, 0);
	struct block_run paid = run_blocking(2, 1000 * SOCKET_CHARGE, loops, 1000, 100, 5000);

	assert_true(free_.receiver_sleeps >= loops - 1);
	assert_true(paid.receiver_sleeps <= 2);
	assert_int_equal(paid.sender_exec, loops * 1000);
	uint64_t attempts = (paid.receiver_exec - loops * 100) / 5000;

	assert_int_equal(paid.receiver_exec, loops * 100 + attempts * 5000);
	assert_in_range(attempts, loops * 900 / 5000 - 1, loops * 900 / 5000 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_wakeup_cost_by_task_kind),
		cmocka_unit_test(test_parent_start),
		cmocka_unit_test(test_parent_start_workers_inherit_flips),
		cmocka_unit_test(test_parent_start_fork_flips),
		cmocka_unit_test(test_parent_start_report_channel_fills),
		cmocka_unit_test(test_capacity_in_messages),
		cmocka_unit_test(test_validate_names_the_flag),
		cmocka_unit_test(test_conservation_over_capacities),
		cmocka_unit_test(test_conservation_default_workload),
		cmocka_unit_test(test_blocking_socket_of_three),
		cmocka_unit_test(test_blocking_socket_three_quarters),
		cmocka_unit_test(test_blocking_pipe_page),
		cmocka_unit_test(test_blocking_invariants_on_two_cpus),
		cmocka_unit_test(test_duration_counts_from_start),
		cmocka_unit_test(test_no_deadlock_sample),
		cmocka_unit_test(test_wakeup_granularity_acts),
		cmocka_unit_test(test_cost_jitter_varies_runs),
		cmocka_unit_test(test_task_switches_counted),
		cmocka_unit_test(test_cache_alone_stays_warm),
		cmocka_unit_test(test_cache_interleaved_reloads),
		cmocka_unit_test(test_cache_migration_starts_cold),
		cmocka_unit_test(test_data_cache_through_the_engine),
		cmocka_unit_test(test_data_cache_hackbench),
		cmocka_unit_test(test_block_cost_on_one_cpu),
		cmocka_unit_test(test_block_cost_lets_data_arrive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
