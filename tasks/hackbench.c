/*
 * hackbench.c - hackbench as finite-state-machine tasks (see hackbench.h).
 *
 * Channels follow the kernel's rules for when a side blocks and when it is woken:
 *  - a write blocks when the channel is full, a read when it is empty;
 *  - a write wakes the blocked reader at once; both are synchronous wakeups (the kernel's
 *    sk_data_ready and pipe_write use wake_up_interruptible_sync_poll);
 *  - a read wakes every blocked writer, but only once enough space is free: for a socket when
 *    three quarters of the send buffer are free (unix_writable: wmem * 4 <= sndbuf), for a pipe
 *    when a whole page is free (a write can only take a free page);
 *  - a read that finds the channel empty, or a write that finds it full, is a system call that
 *    costs block_ns before its task sleeps (the probe's read of an empty channel); a message or
 *    the space that arrives meanwhile is taken without sleeping, as the kernel's wakeup of a
 *    task that has not yet left its CPU leaves it running.
 */
#include "tasks/hackbench_internal.h"

#include <math.h>

#include <string.h>

#define HB_ERROR g_quark_from_static_string("hackbench")

void hackbench_params_default(struct hackbench_params *p)
{
	memset(p, 0, sizeof(*p));
	p->groups = 10;
	p->loops = 100;
	p->fds = 20;
	p->datasize = 100;
	p->model = HACKBENCH_FSM;
	p->start = HACKBENCH_START_BARRIER;
	p->fork_ns = HACKBENCH_FORK_NS;
	p->block_ns = UINT64_MAX;
	p->footprint_lines = HACKBENCH_FOOTPRINT_LINES;
	p->solo_ms = HACKBENCH_SOLO_MS;
	p->degradation = HACKBENCH_DEGRADATION;
}

/* m, or the built-in machine written into *builtin when m is NULL. */
static const struct linsched_machine *machine_or_builtin(const struct linsched_machine *m,
							 struct linsched_machine *builtin)
{
	if (m)
		return m;
	linsched_machine_builtin(builtin);
	return builtin;
}

void hackbench_params_resolve_for(struct hackbench_params *p, const struct linsched_machine *m)
{
	struct linsched_machine builtin;

	m = machine_or_builtin(m, &builtin);
	if (!p->capacity_bytes)
		p->capacity_bytes = p->pipe ? m->pipe_bytes : m->socket_sndbuf_bytes;
	if (!p->write_ns)
		p->write_ns = p->pipe ? m->pipe_write_ns : m->socket_write_ns;
	if (!p->read_ns)
		p->read_ns = p->pipe ? m->pipe_read_ns : m->socket_read_ns;
	if (!p->msg_overhead)
		p->msg_overhead = m->socket_msg_overhead;
	if (p->block_ns == UINT64_MAX)
		p->block_ns = p->pipe ? m->pipe_block_ns : m->socket_block_ns;
}

void hackbench_params_resolve(struct hackbench_params *p)
{
	hackbench_params_resolve_for(p, NULL);
}

uint64_t hackbench_switch_ns_on(const struct hackbench_params *p, const struct linsched_machine *m)
{
	struct linsched_machine builtin;

	m = machine_or_builtin(m, &builtin);
	return p->threads ? m->thread_switch_ns : m->process_switch_ns;
}

uint64_t hackbench_switch_ns(const struct hackbench_params *p)
{
	return hackbench_switch_ns_on(p, NULL);
}

uint64_t hackbench_wakeup_ns_on(const struct hackbench_params *p, const struct linsched_machine *m)
{
	struct linsched_machine builtin;

	m = machine_or_builtin(m, &builtin);
	return !p->threads && m->process_wakeup_ns ? m->process_wakeup_ns : m->wakeup_ns;
}

static uint64_t socket_overhead(const struct hackbench_params *p)
{
	struct linsched_machine builtin;

	if (p->msg_overhead)
		return p->msg_overhead;
	linsched_machine_builtin(&builtin);
	return builtin.socket_msg_overhead;
}

/* A socket charges each message its data plus the kernel's buffer overhead; a pipe packs
 * messages into pages and a message never straddles two. */
uint64_t hackbench_capacity_msgs(const struct hackbench_params *p)
{
	if (!p->pipe)
		return p->capacity_bytes / (p->datasize + socket_overhead(p));
	if (p->datasize > HACKBENCH_PAGE_SIZE)
		return p->capacity_bytes / p->datasize;
	uint64_t pages = p->capacity_bytes / HACKBENCH_PAGE_SIZE;
	uint64_t per_page = HACKBENCH_PAGE_SIZE / p->datasize;

	if (pages == 0)
		return p->capacity_bytes / p->datasize;
	return pages * per_page;
}

unsigned int hackbench_nr_tasks(const struct hackbench_params *p)
{
	return 2 * p->groups * p->fds;
}

bool hackbench_params_validate(const struct hackbench_params *p, GError **error)
{
	if (p->groups == 0) {
		g_set_error(error, HB_ERROR, 1, "--groups: must be at least 1");
		return false;
	}
	if (p->fds == 0) {
		g_set_error(error, HB_ERROR, 1, "--fds: must be at least 1");
		return false;
	}
	if (p->loops == 0) {
		g_set_error(error, HB_ERROR, 1, "--loops: must be at least 1");
		return false;
	}
	if (p->datasize == 0) {
		g_set_error(error, HB_ERROR, 1, "--datasize: must be at least 1 byte");
		return false;
	}
	if ((uint64_t)p->groups * p->fds > 100000) {
		g_set_error(error, HB_ERROR, 1,
			    "--groups x --fds: %u x %u tasks per side is more than 100000",
			    p->groups, p->fds);
		return false;
	}
	if (hackbench_capacity_msgs(p) == 0) {
		g_set_error(error, HB_ERROR, 1,
			    "--capacity-bytes: %" G_GUINT64_FORMAT
			    " bytes cannot hold one %u-byte message "
			    "(a %s charges %u bytes for it)",
			    p->capacity_bytes, p->datasize, p->pipe ? "pipe" : "socket",
			    p->pipe ? p->datasize : p->datasize + (unsigned int)socket_overhead(p));
		return false;
	}
	if (p->n_fork_flips && (p->start != HACKBENCH_START_PARENT || !p->fork_flips ||
				p->n_fork_flips > hackbench_nr_tasks(p))) {
		g_set_error(error, HB_ERROR, 1,
			    "fork flips: %u for %u workers of a %s start: at most one per worker, "
			    "and only a parent forks",
			    p->n_fork_flips, hackbench_nr_tasks(p),
			    p->start == HACKBENCH_START_PARENT ? "parent" : "barrier");
		return false;
	}
	if (p->model == HACKBENCH_BOOTSTRAP && p->start == HACKBENCH_START_PARENT) {
		g_set_error(
			error, HB_ERROR, 1,
			"--start: parent is for the fsm model; bootstrapped tasks start at a barrier");
		return false;
	}
	if (p->model == HACKBENCH_BOOTSTRAP) {
		if (!(p->solo_ms > 0) || p->solo_ms > 1e9) {
			g_set_error(error, HB_ERROR, 1, "--solo-ms: %g is not a positive runtime",
				    p->solo_ms);
			return false;
		}
		if (!(p->degradation > 0 && p->degradation <= 1)) {
			g_set_error(error, HB_ERROR, 1, "--degradation: %g is not in (0, 1]",
				    p->degradation);
			return false;
		}
	}
	return true;
}

/* A key of the [bootstrap] group that must hold a finite number above 0 (and at most max). */
static bool bootstrap_value(GKeyFile *kf, const char *path, const char *key, double max,
			    double *out, GError **error)
{
	g_autoptr(GError) local = NULL;
	double v = g_key_file_get_double(kf, "bootstrap", key, &local);

	if (local) {
		g_set_error(error, HB_ERROR, 1, "--bootstrap-file: %s: [bootstrap] %s: %s", path,
			    key, local->message);
		return false;
	}
	if (!isfinite(v) || v <= 0 || v > max) {
		g_set_error(error, HB_ERROR, 1,
			    "--bootstrap-file: %s: [bootstrap] %s = %g is not in (0, %g]", path,
			    key, v, max);
		return false;
	}
	*out = v;
	return true;
}

bool hackbench_load_bootstrap_file(struct hackbench_params *p, const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	double solo, deg;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &local)) {
		g_set_error(error, HB_ERROR, 1, "--bootstrap-file: %s: %s", path, local->message);
		return false;
	}
	if (!bootstrap_value(kf, path, "solo_ms", G_MAXDOUBLE, &solo, error) ||
	    !bootstrap_value(kf, path, "degradation", 1.0, &deg, error))
		return false;
	p->solo_ms = solo;
	p->degradation = deg;
	return true;
}

/* ---------------------------------------------------------------- the FSM tasks */

enum hb_state {
	HB_START,
	HB_WORK,
	HB_DONE
};

struct hb_task {
	struct hackbench *hb;
	bool sender;
	unsigned int group, index;
	enum hb_state state;
	uint64_t done, total;	    /* messages written or read, of all */
	unsigned int next_receiver; /* sender: whom it writes to next */
	/* The channel was found full (empty) and the system call paid its way to the sleep: a
	 * writer woken to find it full again sleeps again at once, as the kernel's wait loop does. */
	bool attempted;
};

/*
 * A write into a full channel (a read from an empty one) is a system call that costs CPU time
 * before its task sleeps: the block is decided at once and takes effect once that is paid (the
 * kernel's prepare_to_wait, then schedule), so a message that arrives (space freed) meanwhile
 * cancels it and goes through, and no return to user space comes between the two.
 */
static void hb_wait(struct hb_task *ht, struct linsched_task *t, struct linsched_waitqueue *wq,
		    struct linsched_step *step)
{
	uint64_t ns = ht->hb->p.block_ns;

	if (ns && !ht->attempted) {
		ht->attempted = true;
		linsched_task_charge(t, linsched_cost(linsched_task_sim(t), ns));
	}
	step->kind = LINSCHED_STEP_BLOCK;
	step->wq = wq;
}

static struct hb_channel *channel(struct hackbench *hb, unsigned int group, unsigned int receiver)
{
	return &hb->channels[(size_t)group * hb->p.fds + receiver];
}

/*
 * Every task reports at the barrier. At a barrier start the last to arrive releases them all and
 * starts the clock; at a parent start it wakes the parent, which does.
 */
static bool hb_barrier(struct linsched_task *t, struct hb_task *ht, struct linsched_step *step)
{
	struct hackbench *hb = ht->hb;

	if (hb->p.start == HACKBENCH_START_PARENT) {
		/* The report channel is full: wait for the parent to read it (state stays). */
		if (hb->ready_queued >= hb->ready_capacity) {
			hb->ready_waits++;
			step->kind = LINSCHED_STEP_BLOCK;
			step->wq = &hb->ready_writers;
			return true;
		}
		ht->state = HB_WORK;
		hb->ready_queued++;
		/*
		 * The parent reads once all have reported, or, once it has created them all, when
		 * the channel is full. Its wakeup by every report is left out: those switches
		 * come before the release, outside the measured run.
		 */
		if (++hb->arrived == hb->total ||
		    (hb->created == hb->total && hb->ready_queued == hb->ready_capacity))
			linsched_wake_up(t, &hb->ready, 0, false);
		step->kind = LINSCHED_STEP_BLOCK;
		step->wq = &hb->barrier;
		return true;
	}
	ht->state = HB_WORK;
	if (++hb->arrived < hb->total) {
		step->kind = LINSCHED_STEP_BLOCK;
		step->wq = &hb->barrier;
		return true;
	}
	linsched_sim_set_epoch(hb->sim);
	linsched_wake_up(t, &hb->barrier, 0, false);
	return false;
}

static void sender_step(struct linsched_task *t, struct hb_task *ht, struct linsched_step *step)
{
	struct hackbench *hb = ht->hb;
	struct hb_channel *ch = channel(hb, ht->group, ht->next_receiver);

	if (ch->queued >= ch->capacity) {
		hb_wait(ht, t, &ch->writers, step);
		return;
	}
	ht->attempted = false;
	if (ch->stamps)
		ch->stamps[(ch->head + ch->queued) % ch->capacity] =
			linsched_data_write(t, hb->msg_bytes);
	ch->queued++;
	ch->written++;
	if (linsched_waitqueue_active(&ch->readers))
		linsched_wake_up(t, &ch->readers, 0, true);
	ht->done++;
	ht->next_receiver = (ht->next_receiver + 1) % hb->p.fds;
	step->kind = LINSCHED_STEP_RUN;
	step->ns = linsched_cost(linsched_task_sim(t), hb->p.write_ns);
	step->kernel = true;
}

static void receiver_step(struct linsched_task *t, struct hb_task *ht, struct linsched_step *step)
{
	struct hackbench *hb = ht->hb;
	struct hb_channel *ch = channel(hb, ht->group, ht->index);

	if (ch->queued == 0) {
		hb_wait(ht, t, &ch->readers, step);
		return;
	}
	ht->attempted = false;
	uint64_t cold_ns = 0;

	if (ch->stamps) {
		cold_ns = linsched_data_read_ns(t, ch->stamps[ch->head], hb->msg_bytes);
		ch->head = (ch->head + 1) % ch->capacity;
	}
	ch->queued--;
	ch->read++;
	hb->messages++;
	if (ch->capacity - ch->queued >= ch->wake_writers_at &&
	    linsched_waitqueue_active(&ch->writers))
		linsched_wake_up(t, &ch->writers, 0, true);
	ht->done++;
	step->kind = LINSCHED_STEP_RUN;
	step->ns = linsched_cost(linsched_task_sim(t), hb->p.read_ns) + cold_ns;
	step->kernel = true;
}

static void hb_next(struct linsched_task *t, struct linsched_step *step)
{
	struct hb_task *ht = linsched_task_data(t);

	if (ht->state == HB_START && hb_barrier(t, ht, step))
		return;
	if (ht->done == ht->total) {
		ht->state = HB_DONE;
		step->kind = LINSCHED_STEP_EXIT;
		return;
	}
	if (ht->sender)
		sender_step(t, ht, step);
	else
		receiver_step(t, ht, step);
}

static const struct linsched_task_ops sender_ops = { .kind = "hackbench-sender",
						     .next = hb_next,
						     .free = g_free };
static const struct linsched_task_ops receiver_ops = { .kind = "hackbench-receiver",
						       .next = hb_next,
						       .free = g_free };

static struct linsched_task *fsm_task_create(struct hackbench *hb, unsigned int group,
					     unsigned int index, bool sender)
{
	struct hb_task *ht = g_new0(struct hb_task, 1);
	char name[LINSCHED_COMM_LEN];

	ht->hb = hb;
	ht->sender = sender;
	ht->group = group;
	ht->index = index;
	ht->total = (uint64_t)hb->p.fds * hb->p.loops;
	g_snprintf(name, sizeof(name), "%s-%u.%u", sender ? "sender" : "receiver", group, index);
	return linsched_task_create(hb->sim, sender ? &sender_ops : &receiver_ops, ht, name, 0);
}

/* ---------------------------------------------------------------- the parent */

static struct linsched_task *fsm_task_create(struct hackbench *hb, unsigned int group,
					     unsigned int index, bool sender);

/* Worker n in the real tools' order: each group's receivers, then its senders; forked by parent
 * (NULL: created by the simulation, at a barrier start). */
static struct linsched_task *create_worker(struct hackbench *hb, unsigned int n,
					   const struct linsched_task *parent)
{
	unsigned int per_group = 2 * hb->p.fds;
	unsigned int in_group = n % per_group;
	struct linsched_task *t =
		hb->p.model == HACKBENCH_FSM
			? fsm_task_create(hb, n / per_group, in_group % hb->p.fds,
					  in_group >= hb->p.fds)
			: bootstrap_task_create(hb, n / per_group, in_group % hb->p.fds,
						in_group >= hb->p.fds);

	linsched_task_set_footprint(t, hb->p.footprint_lines);
	if (parent)
		linsched_task_forked_by(t, parent);
	return t;
}

/* Creates a worker per step, waits for them all to be ready, releases them, and leaves. */
static void parent_next(struct linsched_task *t, struct linsched_step *step)
{
	struct hackbench *hb = linsched_task_data(t);

	if (hb->created < hb->total) {
		if (hb->created < hb->p.n_fork_flips)
			linsched_task_set_wakee_flips(t, hb->p.fork_flips[hb->created]);
		create_worker(hb, hb->created++, t);
		step->kind = LINSCHED_STEP_RUN;
		step->ns = hb->p.fork_ns;
		step->kernel = true; /* clone() */
		return;
	}
	/* Read what has been reported; the writers blocked on it find room again. */
	hb->ready_queued = 0;
	if (linsched_waitqueue_active(&hb->ready_writers))
		linsched_wake_up(t, &hb->ready_writers, 0, false);
	if (hb->arrived < hb->total) {
		step->kind = LINSCHED_STEP_BLOCK;
		step->wq = &hb->ready;
		return;
	}
	if (linsched_waitqueue_active(&hb->barrier)) {
		linsched_sim_set_epoch(hb->sim);
		linsched_wake_up(t, &hb->barrier, 0, true);
	}
	step->kind = LINSCHED_STEP_EXIT;
}

/* The parent's data is the workload itself, which hackbench_free frees. */
static const struct linsched_task_ops parent_ops = { .kind = "hackbench-parent",
						     .next = parent_next };

/* ---------------------------------------------------------------- the workload */
struct hackbench *hackbench_create(struct linsched_sim *sim, const struct hackbench_params *params)
{
	struct hackbench *hb = g_new0(struct hackbench, 1);
	const struct hackbench_params *p = &hb->p;
	unsigned int domains = linsched_sim_config(sim)->nr_domains;

	hb->p = *params;
	hackbench_params_resolve_for(&hb->p, &linsched_sim_config(sim)->machine);
	hb->sim = sim;
	hb->total = hackbench_nr_tasks(p);
	linsched_waitqueue_init(&hb->barrier);
	hb->channels = g_new0(struct hb_channel, (size_t)p->groups * p->fds);
	hb->msg_bytes = p->pipe ? p->datasize : p->datasize + socket_overhead(p);
	for (size_t i = 0; i < (size_t)p->groups * p->fds; i++) {
		struct hb_channel *ch = &hb->channels[i];
		uint64_t cap = hackbench_capacity_msgs(p);

		ch->capacity = cap;
		if (linsched_sim_config(sim)->costs.data_cache_lines && p->model == HACKBENCH_FSM)
			ch->stamps = g_new(struct cache_stamp, cap);
		if (p->pipe)
			ch->wake_writers_at = p->datasize > HACKBENCH_PAGE_SIZE
						      ? 1
						      : MIN(cap, HACKBENCH_PAGE_SIZE / p->datasize);
		else
			ch->wake_writers_at = cap - cap / 4;
		if (ch->wake_writers_at == 0)
			ch->wake_writers_at = 1;
		linsched_waitqueue_init(&ch->readers);
		linsched_waitqueue_init(&ch->writers);
	}
	hb->present = g_new0(unsigned int, (size_t)domains * p->groups);
	hb->groups_in_domain = g_new0(unsigned int, domains);

	if (p->start == HACKBENCH_START_PARENT) {
		/* The pollers of the start pipe wait at the head of its queue. */
		linsched_waitqueue_init_lifo(&hb->barrier);
		linsched_waitqueue_init(&hb->ready);
		/*
		 * The real tools report on the channel kind the workload uses (a socket pair, or a
		 * pipe with -p): a one-byte report takes a socket the room of a message (the kernel's
		 * buffer rounds both up alike), a pipe one byte. Writers blocked on a full socket wait
		 * at the head of its queue.
		 */
		hb->ready_capacity = p->pipe ? p->capacity_bytes : hackbench_capacity_msgs(p);
		linsched_waitqueue_init_lifo(&hb->ready_writers);
		linsched_task_set_wakee_flips(
			linsched_task_create(sim, &parent_ops, hb, "hackbench", 0),
			p->parent_flips);
		return hb;
	}
	/* Receivers first, as the real benchmark creates them before the senders of each group. */
	for (unsigned int n = 0; n < hb->total; n++)
		create_worker(hb, n, NULL);
	return hb;
}

void hackbench_free(struct hackbench *hb)
{
	if (!hb)
		return;
	for (size_t i = 0; i < (size_t)hb->p.groups * hb->p.fds; i++)
		g_free(hb->channels[i].stamps);
	g_free(hb->channels);
	g_free(hb->present);
	g_free(hb->groups_in_domain);
	g_free(hb);
}

uint64_t hackbench_messages(const struct hackbench *hb)
{
	return hb->messages;
}

unsigned int hackbench_ready_waits(const struct hackbench *hb)
{
	return hb->ready_waits;
}

void hackbench_channel_state(const struct hackbench *hb, unsigned int group, unsigned int receiver,
			     struct hackbench_channel_state *out)
{
	const struct hb_channel *ch = &hb->channels[(size_t)group * hb->p.fds + receiver];
	const struct list_head *pos;

	out->queued = ch->queued;
	out->capacity = ch->capacity;
	out->written = ch->written;
	out->read = ch->read;
	out->blocked_writers = out->blocked_readers = 0;
	for (pos = ch->writers.waiters.next; pos != &ch->writers.waiters; pos = pos->next)
		out->blocked_writers++;
	for (pos = ch->readers.waiters.next; pos != &ch->readers.waiters; pos = pos->next)
		out->blocked_readers++;
}

uint64_t hackbench_task_done(const struct linsched_task *t)
{
	const struct hb_task *ht = linsched_task_data(t);

	return ht->done;
}

void hackbench_write_json(const struct hackbench_params *p, struct json_writer *w)
{
	json_key(w, "workload");
	json_begin_object(w);
	json_key(w, "benchmark");
	json_string(w, "hackbench");
	json_key(w, "model");
	json_string(w, p->model == HACKBENCH_FSM ? "fsm" : "bootstrap");
	json_key(w, "start");
	json_string(w, p->start == HACKBENCH_START_PARENT ? "parent" : "barrier");
	if (p->start == HACKBENCH_START_PARENT) {
		json_key(w, "parent_flips");
		json_uint(w, p->parent_flips);
		if (p->n_fork_flips) {
			json_key(w, "fork_flips");
			json_begin_array(w);
			for (unsigned int i = 0; i < p->n_fork_flips; i++)
				json_uint(w, p->fork_flips[i]);
			json_end_array(w);
		}
	}
	json_key(w, "groups");
	json_uint(w, p->groups);
	json_key(w, "loops");
	json_uint(w, p->loops);
	json_key(w, "fds");
	json_uint(w, p->fds);
	json_key(w, "datasize");
	json_uint(w, p->datasize);
	json_key(w, "channel");
	json_string(w, p->pipe ? "pipe" : "socket");
	json_key(w, "mode");
	json_string(w, p->threads ? "threads" : "processes");
	json_key(w, "tasks");
	json_uint(w, hackbench_nr_tasks(p));
	json_key(w, "capacity_bytes");
	json_uint(w, p->capacity_bytes);
	json_key(w, "capacity_msgs");
	json_uint(w, hackbench_capacity_msgs(p));
	json_key(w, "write_ns");
	json_uint(w, p->write_ns);
	json_key(w, "read_ns");
	json_uint(w, p->read_ns);
	json_key(w, "block_ns");
	json_uint(w, p->block_ns);
	json_key(w, "footprint_lines");
	json_uint(w, p->footprint_lines);
	if (p->model == HACKBENCH_BOOTSTRAP) {
		json_key(w, "solo_ms");
		json_double(w, p->solo_ms);
		json_key(w, "degradation");
		json_double(w, p->degradation);
	}
	json_end_object(w);
}

void hackbench_simulate(const struct linsched_config *cfg, const struct hackbench_params *p,
			struct hackbench_outcome *out)
{
	struct linsched_sim *sim = linsched_sim_new(cfg);
	struct hackbench *hb = hackbench_create(sim, p);

	linsched_sim_run(sim);

	const struct linsched_result *res = linsched_sim_result(sim);

	out->runtime_ns = res->runtime_ns;
	out->jiffies = res->jiffies;
	out->context_switches = res->context_switches;
	out->migrations = res->migrations;
	out->messages = hb->messages;
	out->deadlock = res->deadlock;
	out->task_switches = 0;
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task_stats st;
		struct linsched_task *t = linsched_sim_task(sim, i);

		linsched_task_stats(t, &st);
		out->task_switches += st.nvcsw + st.nivcsw;
		/*
		 * A thread's counts join its process's when it exits, before its last switch,
		 * which no rusage sees; a process's last switch comes before its parent reaps it.
		 */
		if (p->threads && st.exited && linsched_task_data(t) != hb && st.nvcsw)
			out->task_switches--;
	}
	hackbench_free(hb);
	linsched_sim_free(sim);
}
