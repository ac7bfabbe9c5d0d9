/*
 * trace_stats.c - statistics of a sched_switch / sched_wakeup trace (see trace_stats.h).
 *
 * The text is parsed into a compact array of events first; the statistics then come from
 * replaying it: once to find the window, once to count inside it. Both replays follow the same
 * state (what each CPU runs, which tasks are runnable where), so that what is counted in the
 * window knows what happened before it.
 */
#include "tuner/fidelity/trace_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

G_DEFINE_QUARK(trace - stats - error - quark, trace_stats_error)

typedef enum {
	EV_SWITCH,
	EV_WAKEUP,
	EV_WAKEUP_NEW, /* a new task becomes runnable: not a wakeup of a sleeper */
	EV_CHECK,      /* a wakeup's preemption check: kept apart, in Trace.checks */
} EvKind;

/* prev_state, as far as the statistics tell states apart. */
typedef enum {
	PREV_RUNNABLE, /* R, R+ */
	PREV_SLEEPING, /* S, D, T, t, P, I, ... */
	PREV_EXITED,   /* X, Z */
} PrevState;

typedef struct {
	guint64 ts; /* ns */
	guint32 cpu;
	guint8 kind;
	guint8 state; /* PrevState, switches */
	gint32 a;     /* switch: prev pid; wakeup: the waker's pid (the line's task) */
	gint32 b;     /* switch: next pid; wakeup: the woken pid */
	gint32 target;
} Ev;

typedef struct {
	gint pid;
	gboolean workload, worker;
	gint role; /* TraceRole, or -1 */
	guint64 woke, woken_by;

	gint runnable_cpu; /* -1: not runnable (or not known to be) */
	gint last_cpu;	   /* -1: never seen running */
	gboolean asleep;   /* switched out sleeping, not woken since */
	gboolean running;
	guint64 run_start;
	GList *recent; /* its link in Replay.recent once it has run, NULL before */
	/* record_wakee's state, replayed (TraceStatsOptions.replay_flips). */
	gboolean seen; /* in an event yet: its decay clock starts there */
	guint flips;
	guint64 flips_decay_ts;
	gint last_wakee; /* -1: none yet */
	/* Its last wakeup by a worker, until it runs (TraceStats.wake_to_run_us): when, onto which
	 * CPU, from where, and that CPU's switches then; counted only when inside the window. */
	gboolean wait_pending, wait_counted;
	guint64 wait_since, wait_mark;
	gint wait_cpu;
	TraceWakeFrom wait_from;
} Task;

/* A wakeup_preempt line: what the wakeup's preemption check weighed (vruntimes in ns). */
typedef struct {
	guint64 ts;
	gint32 curr, wakee;
	gint64 lead, lag; /* curr's vruntime - min_vruntime; min_vruntime - the wakee's */
	guint64 latency, gran;
} Check;

typedef struct {
	const char *name;
	GArray *events;	   /* Ev */
	GArray *checks;	   /* Check */
	GHashTable *comms; /* pid -> last command name */
	GHashTable *tasks; /* pid -> Task */
	guint nr_cpus;
	guint workers;
} Trace;

/* ---- parsing ---------------------------------------------------------------------------------- */

static gboolean syntax(GError **error, const char *name, guint line, const char *what)
{
	g_set_error(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_SYNTAX, "%s:%u: %s", name, line,
		    what);
	return FALSE;
}

/* A decimal integer at s, up to end; FALSE unless it is all digits (an optional minus). */
static gboolean parse_int(const char *s, const char *end, gint64 *out)
{
	gint64 v = 0;
	gboolean neg = FALSE;

	if (s < end && *s == '-') {
		neg = TRUE;
		s++;
	}
	if (s >= end || end - s > 12)
		return FALSE;
	for (; s < end; s++) {
		if (!g_ascii_isdigit(*s))
			return FALSE;
		v = v * 10 + (*s - '0');
	}
	*out = neg ? -v : v;
	return TRUE;
}

/* The digits starting at s, as far as they go. */
static const char *digits_end(const char *s, const char *end)
{
	while (s < end && g_ascii_isdigit(*s))
		s++;
	return s;
}

/* "SECONDS.FRACTION" (up to 9 fraction digits) in ns. */
static gboolean parse_timestamp(const char *s, const char *end, guint64 *ns)
{
	const char *dot = memchr(s, '.', (size_t)(end - s));
	gint64 sec, frac;

	if (!dot || dot == s || dot + 1 >= end || end - (dot + 1) > 9)
		return FALSE;
	if (!parse_int(s, dot, &sec) || sec < 0 || !parse_int(dot + 1, end, &frac) || frac < 0)
		return FALSE;
	for (const char *p = end; p < dot + 10; p++)
		frac *= 10;
	*ns = (guint64)sec * G_GUINT64_CONSTANT(1000000000) + (guint64)frac;
	return TRUE;
}

/* The text between the end of key (found in [s, end)) and the next occurrence of stop. */
static gboolean field(const char *s, const char *end, const char *key, const char *stop,
		      const char **from, const char **to)
{
	g_autofree char *hay = g_strndup(s, (gsize)(end - s));
	const char *k = strstr(hay, key);

	if (!k)
		return FALSE;
	const char *v = k + strlen(key);
	const char *e = stop ? strstr(v, stop) : hay + strlen(hay);

	if (!e)
		return FALSE;
	*from = s + (v - hay);
	*to = s + (e - hay);
	return TRUE;
}

static gboolean int_field(const char *s, const char *end, const char *key, const char *stop,
			  gint64 *out)
{
	const char *a, *b;

	return field(s, end, key, stop, &a, &b) && parse_int(a, b, out);
}

/* An unsigned 64-bit field: vruntimes start near 2^64 in the kernel (min_vruntime's first value
 * is -2^20) and wrap. */
static gboolean u64_field(const char *s, const char *end, const char *key, const char *stop,
			  guint64 *out)
{
	const char *a, *b;

	if (!field(s, end, key, stop, &a, &b) || a == b || b - a > 20 || digits_end(a, b) != b)
		return FALSE;
	g_autofree char *digits = g_strndup(a, (gsize)(b - a));

	return g_ascii_string_to_unsigned(digits, 10, 0, G_MAXUINT64, out, NULL);
}

/*
 * The body of a wakeup_preempt line (the kprobe event of vm/guest/init on 6.1's
 * check_preempt_wakeup, or the simulator's line of the same format).
 */
static gboolean parse_check(Trace *tr, const char *body, const char *bend, guint64 ts)
{
	guint64 curr_vr, wakee_vr, min_vr, latency, gran;
	gint64 nr, curr, wakee;

	if (!u64_field(body, bend, "curr_vr=", " ", &curr_vr) ||
	    !u64_field(body, bend, " wakee_vr=", " ", &wakee_vr) ||
	    !u64_field(body, bend, " min_vr=", " ", &min_vr) ||
	    !int_field(body, bend, " nr=", " ", &nr) || nr < 0 ||
	    !int_field(body, bend, " curr_pid=", " ", &curr) ||
	    !int_field(body, bend, " wakee_pid=", " ", &wakee) ||
	    !u64_field(body, bend, " latency=", " ", &latency) ||
	    !u64_field(body, bend, " gran=", NULL, &gran) || curr < 0 || wakee <= 0)
		return FALSE;
	Check c = { ts,
		    (gint32)curr,
		    (gint32)wakee,
		    (gint64)(curr_vr - min_vr),
		    (gint64)(min_vr - wakee_vr),
		    latency,
		    gran };

	g_array_append_val(tr->checks, c);
	return TRUE;
}

static void remember_comm(Trace *tr, gint64 pid, const char *a, const char *b)
{
	if (pid > 0)
		g_hash_table_replace(tr->comms, GINT_TO_POINTER((gint)pid),
				     g_strndup(a, (gsize)(b - a)));
}

static PrevState prev_state(const char *a, const char *b)
{
	if (a >= b || *a == 'R')
		return PREV_RUNNABLE;
	if (*a == 'X' || *a == 'Z')
		return PREV_EXITED;
	return PREV_SLEEPING;
}

/*
 * One line, as tracefs prints it, "TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS", or as
 * `perf script` does, "TASK PID [CPU] TIMESTAMP: sched:EVENT: FIELDS" (perf records the same
 * tracepoints where tracefs cannot be mounted, on this host for one). The task's name may hold
 * blanks, dashes and digits, so the line is read around its fixed marks: the event's name, the
 * CPU in brackets, and the pid, the digits just before the bracket after a dash or a blank.
 */
static gboolean parse_line(Trace *tr, const char *line, const char *end, guint lineno,
			   GError **error)
{
	static const struct {
		const char *mark;
		EvKind kind;
	} marks[] = {
		{ "sched_switch: ", EV_SWITCH },
		{ "sched_wakeup: ", EV_WAKEUP },
		{ "sched_wakeup_new: ", EV_WAKEUP_NEW },
		{ "wakeup_preempt: ", EV_CHECK },
	};
	g_autofree char *copy = g_strndup(line, (gsize)(end - line));
	const char *m = NULL, *body = NULL;
	EvKind kind = EV_SWITCH;
	Ev ev = { 0 };

	/* The event's name follows "TIMESTAMP: ", perf's blanks and "sched:" allowed between. */
	for (size_t i = 0; i < G_N_ELEMENTS(marks) && !m; i++)
		for (m = strstr(copy, marks[i].mark); m; m = strstr(m + 1, marks[i].mark)) {
			const char *p = m;

			if (p - copy >= 6 && strncmp(p - 6, "sched:", 6) == 0)
				p -= 6;
			if (p > copy && (p[-1] == ' ' || p[-1] == '\t')) {
				kind = marks[i].kind;
				body = m + strlen(marks[i].mark);
				m = p;
				break;
			}
		}
	if (!m)
		return TRUE; /* another event */
	const char *bend = copy + strlen(copy);
	const char *what = kind == EV_SWITCH  ? "not a sched_switch line"
			   : kind == EV_CHECK ? "not a wakeup_preempt line"
					      : "not a sched_wakeup line";

	/* The timestamp is the word before the mark, with its colon. */
	const char *te = m;

	while (te > copy && (te[-1] == ' ' || te[-1] == '\t'))
		te--;
	if (te == copy || te[-1] != ':')
		return syntax(error, tr->name, lineno, what);
	te--;
	const char *ts = te;

	while (ts > copy && ts[-1] != ' ')
		ts--;
	if (!parse_timestamp(ts, te, &ev.ts))
		return syntax(error, tr->name, lineno, what);

	/* The CPU: the first "[digits]". */
	const char *br = strchr(copy, '[');
	gint64 cpu, pid;

	while (br && br < ts) {
		const char *d = digits_end(br + 1, ts);

		if (d > br + 1 && *d == ']')
			break;
		br = strchr(br + 1, '[');
	}
	if (!br || br >= ts || !parse_int(br + 1, digits_end(br + 1, ts), &cpu) || cpu > 4095)
		return syntax(error, tr->name, lineno, what);
	/* The task's pid: the digits that end before the bracket, after a '-' or a blank. */
	const char *pe = br;

	while (pe > copy && pe[-1] == ' ')
		pe--;
	const char *pd = pe;

	while (pd > copy && g_ascii_isdigit(pd[-1]))
		pd--;
	if (pd == pe || pd == copy || (pd[-1] != '-' && pd[-1] != ' ') || !parse_int(pd, pe, &pid))
		return syntax(error, tr->name, lineno, what);
	/* perf prints a task that was gone before it could name it as ":-1 -1": unknown. */
	if (pd[-1] == '-' && (pd - 1 == copy || pd[-2] == ' '))
		pid = -1;

	if (kind == EV_CHECK)
		return parse_check(tr, body, bend, ev.ts) || syntax(error, tr->name, lineno, what);
	ev.cpu = (guint32)cpu;
	ev.kind = (guint8)kind;
	if (kind == EV_SWITCH) {
		const char *pc, *pce, *st, *ste, *nc, *nce;
		gint64 prev, next;

		if (!field(body, bend, "prev_comm=", " prev_pid=", &pc, &pce) ||
		    !int_field(body, bend, " prev_pid=", " ", &prev) ||
		    !field(body, bend, " prev_state=", " ==> ", &st, &ste) ||
		    !field(body, bend, "==> next_comm=", " next_pid=", &nc, &nce) ||
		    !int_field(body, bend, " next_pid=", " ", &next) || prev < 0 || next < 0)
			return syntax(error, tr->name, lineno, what);
		ev.a = (gint32)prev;
		ev.b = (gint32)next;
		ev.state = (guint8)prev_state(st, ste);
		remember_comm(tr, prev, pc, pce);
		remember_comm(tr, next, nc, nce);
	} else {
		const char *c, *ce;
		gint64 woken, target;

		if (!field(body, bend, "comm=", " pid=", &c, &ce) ||
		    !int_field(body, bend, " pid=", " ", &woken) ||
		    !int_field(body, bend, "target_cpu=", NULL, &target) || woken <= 0 ||
		    target < 0 || target > 4095)
			return syntax(error, tr->name, lineno, what);
		ev.a = (gint32)pid;
		ev.b = (gint32)woken;
		ev.target = (gint32)target;
		remember_comm(tr, woken, c, ce);
		tr->nr_cpus = MAX(tr->nr_cpus, (guint)target + 1);
	}
	tr->nr_cpus = MAX(tr->nr_cpus, ev.cpu + 1);
	g_array_append_val(tr->events, ev);
	return TRUE;
}

static gboolean parse_text(Trace *tr, const char *text, gsize len, GError **error)
{
	const char *p = text, *end = text + len;
	guint lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		lineno++;
		while (le > p && (le[-1] == '\r' || le[-1] == ' '))
			le--;
		const char *s = p;

		while (s < le && (*s == ' ' || *s == '\t'))
			s++;
		if (s < le && *s != '#' && !parse_line(tr, s, le, lineno, error))
			return FALSE;
		p = nl ? nl + 1 : end;
	}
	return TRUE;
}

/* ---- tasks and roles ------------------------------------------------------------------------- */

static const char *const default_workload[] = { "hackbench", "sender", "receiver", NULL };

static gboolean is_workload(const char *comm, const char *const *prefixes)
{
	for (const char *const *p = prefixes; *p; p++)
		if (g_str_has_prefix(comm, *p))
			return TRUE;
	return FALSE;
}

static Task *task(Trace *tr, gint pid)
{
	return g_hash_table_lookup(tr->tasks, GINT_TO_POINTER(pid));
}

/* Workload membership from the last names, then roles: by name, else by who wakes whom. */
static void assign_roles(Trace *tr, const char *const *prefixes)
{
	GHashTableIter it;
	gpointer key, value;
	const char *first_comm = NULL;
	gboolean same_name = TRUE;
	Task *lowest = NULL;
	guint n = 0;

	g_hash_table_iter_init(&it, tr->comms);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		if (!is_workload(value, prefixes))
			continue;
		Task *t = g_new0(Task, 1);

		t->pid = GPOINTER_TO_INT(key);
		t->workload = t->worker = TRUE;
		t->role = -1;
		g_hash_table_insert(tr->tasks, key, t);
		if (first_comm && strcmp(first_comm, value) != 0)
			same_name = FALSE;
		first_comm = value;
		if (!lowest || t->pid < lowest->pid)
			lowest = t;
		n++;
	}
	if (same_name && n >= 3) {
		lowest->role = TRACE_ROLE_PARENT;
		lowest->worker = FALSE;
	}
	/* Named roles: the one task named neither way is the parent (the simulator's "hackbench"). */
	gboolean named = FALSE;

	g_hash_table_iter_init(&it, tr->tasks);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		const char *comm = g_hash_table_lookup(tr->comms, key);

		named |= strstr(comm, "sender") || strstr(comm, "receiver");
	}
	g_hash_table_iter_init(&it, tr->tasks);
	while (named && g_hash_table_iter_next(&it, &key, &value)) {
		const char *comm = g_hash_table_lookup(tr->comms, key);
		Task *t = value;

		if (!strstr(comm, "sender") && !strstr(comm, "receiver")) {
			t->role = TRACE_ROLE_PARENT;
			t->worker = FALSE;
		}
	}
	/* The parent's wakeups (the release, the reaping) say nothing of the workers' roles. */
	for (guint i = 0; i < tr->events->len; i++) {
		const Ev *e = &g_array_index(tr->events, Ev, i);
		Task *waker = e->kind == EV_WAKEUP ? task(tr, e->a) : NULL;
		Task *wakee = waker ? task(tr, e->b) : NULL;

		if (wakee && waker != wakee && waker->worker && wakee->worker) {
			waker->woke++;
			wakee->woken_by++;
		}
	}
	tr->workers = 0;
	g_hash_table_iter_init(&it, tr->tasks);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		Task *t = value;
		const char *comm = g_hash_table_lookup(tr->comms, key);

		if (t->role == TRACE_ROLE_PARENT)
			continue;
		tr->workers++;
		if (strstr(comm, "receiver"))
			t->role = TRACE_ROLE_RECEIVER;
		else if (strstr(comm, "sender"))
			t->role = TRACE_ROLE_SENDER;
		else
			t->role = t->woken_by > t->woke ? TRACE_ROLE_RECEIVER : TRACE_ROLE_SENDER;
	}
}

/* ---- replay ---------------------------------------------------------------------------------- */

typedef struct {
	Trace *tr;
	const TraceStatsOptions *opt; /* for the flips' replay; NULL: none */
	gint *cur;		      /* per CPU: the pid it runs, 0 idle, -1 not known yet */
	GArray **woken;		      /* per CPU: pids woken onto it since its last switch */
	/* Per CPU: the last wakeup preemption between workers, preempted and preempting pids; 0:
	 * none pending. */
	gint *preempted, *preemptor;
	guint *nr;
	guint workers_runnable;
	guint64 prev_ts;
	gboolean prev_ts_set;
	/* counting */
	gboolean counting;
	guint64 from, to;
	TraceStats *st;
	double *rq_area;
	double runnable_area;
	guint asleep[TRACE_ROLE_N];
	double asleep_area[TRACE_ROLE_N];
	double asleep_tenth_area[TRACE_ROLE_N][TRACE_STATS_TENTHS];
	GArray *runs[TRACE_ROLE_N + 1]; /* double µs; the last: every workload task's */
	GArray *exits[TRACE_ROLE_N];	/* double: fractions of the window */
	/* Per CPU: when the first wakeup of a worker onto it, busy, came since its last switch
	 * (0: none pending), and from where; then the delays to the switch, µs, by where from. */
	guint64 *wake_pending_ts;
	TraceWakeFrom *wake_pending_from;
	GArray *wake_delays[TRACE_WAKE_N];
	/* Per CPU: switches so far; and the woken workers' waits to run (µs) and the switches on
	 * their CPU before they ran, by where the wakeup came from. */
	guint64 *switches_on;
	GArray *run_waits[TRACE_WAKE_N], *run_wait_switches[TRACE_WAKE_N];
	guint64 remote_settled, remote_slept;
	gint last_event_cpu; /* the CPU of the last event counted, -1: none yet */
	/* Workers by their last switch-in, the latest first, and at each switch-in of a worker
	 * that ran before the workers switched in since (double). */
	GQueue recent;
	GArray *reuse;
} Replay;

static gboolean replaying_flips(const Replay *r)
{
	return r->opt && r->opt->replay_flips;
}

static void replay_init(Replay *r, Trace *tr, const TraceStatsOptions *opt)
{
	memset(r, 0, sizeof(*r));
	r->tr = tr;
	r->opt = opt;
	r->cur = g_new(gint, tr->nr_cpus);
	for (guint c = 0; c < tr->nr_cpus; c++)
		r->cur[c] = -1;
	r->last_event_cpu = -1;
	r->woken = g_new(GArray *, tr->nr_cpus);
	for (guint c = 0; c < tr->nr_cpus; c++)
		r->woken[c] = g_array_new(FALSE, FALSE, sizeof(gint));
	r->preempted = g_new0(gint, tr->nr_cpus);
	r->preemptor = g_new0(gint, tr->nr_cpus);
	r->nr = g_new0(guint, tr->nr_cpus);
	r->rq_area = g_new0(double, tr->nr_cpus);
	for (guint i = 0; i <= TRACE_ROLE_N; i++)
		r->runs[i] = g_array_new(FALSE, FALSE, sizeof(double));
	for (guint i = 0; i < TRACE_ROLE_N; i++)
		r->exits[i] = g_array_new(FALSE, FALSE, sizeof(double));
	r->wake_pending_ts = g_new0(guint64, tr->nr_cpus);
	r->wake_pending_from = g_new0(TraceWakeFrom, tr->nr_cpus);
	for (guint i = 0; i < TRACE_WAKE_N; i++)
		r->wake_delays[i] = g_array_new(FALSE, FALSE, sizeof(double));
	r->switches_on = g_new0(guint64, tr->nr_cpus);
	for (guint i = 0; i < TRACE_WAKE_N; i++) {
		r->run_waits[i] = g_array_new(FALSE, FALSE, sizeof(double));
		r->run_wait_switches[i] = g_array_new(FALSE, FALSE, sizeof(double));
	}
	g_queue_init(&r->recent);
	r->reuse = g_array_new(FALSE, FALSE, sizeof(double));

	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, tr->tasks);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		Task *t = value;

		t->runnable_cpu = t->last_cpu = -1;
		t->running = t->asleep = FALSE;
		t->recent = NULL;
		t->seen = FALSE;
		t->flips = opt ? opt->inherited_flips : 0;
		t->flips_decay_ts = 0;
		t->last_wakee = -1;
		t->wait_pending = FALSE;
	}
}

static void replay_clear(Replay *r)
{
	g_free(r->cur);
	for (guint c = 0; c < r->tr->nr_cpus; c++)
		g_array_free(r->woken[c], TRUE);
	g_free(r->woken);
	g_free(r->preempted);
	g_free(r->preemptor);
	g_free(r->nr);
	g_free(r->rq_area);
	for (guint i = 0; i <= TRACE_ROLE_N; i++)
		g_array_free(r->runs[i], TRUE);
	for (guint i = 0; i < TRACE_ROLE_N; i++)
		g_array_free(r->exits[i], TRUE);
	g_free(r->wake_pending_ts);
	g_free(r->wake_pending_from);
	for (guint i = 0; i < TRACE_WAKE_N; i++)
		g_array_free(r->wake_delays[i], TRUE);
	g_free(r->switches_on);
	for (guint i = 0; i < TRACE_WAKE_N; i++) {
		g_array_free(r->run_waits[i], TRUE);
		g_array_free(r->run_wait_switches[i], TRUE);
	}
	g_queue_clear(&r->recent);
	g_array_free(r->reuse, TRUE);
}

/* Where ts falls in the window, from 0 at its start to 1 at its end (0 for an empty window). */
static double window_fraction(const Replay *r, guint64 ts)
{
	return r->to > r->from ? (double)(ts - r->from) / (double)(r->to - r->from) : 0;
}

/* Runnable bookkeeping of tasks that are not in the workload: pid -> CPU + 1. */
static GHashTable *others_new(void)
{
	return g_hash_table_new(g_direct_hash, g_direct_equal);
}

static void set_runnable(Replay *r, GHashTable *others, gint pid, gint cpu)
{
	Task *t = task(r->tr, pid);
	gint old;

	if (pid <= 0)
		return;
	old = t ? t->runnable_cpu
		: GPOINTER_TO_INT(g_hash_table_lookup(others, GINT_TO_POINTER(pid))) - 1;
	if (old == cpu)
		return;
	if (old >= 0)
		r->nr[old]--;
	if (cpu >= 0)
		r->nr[cpu]++;
	if (t) {
		if (t->worker && (old >= 0) != (cpu >= 0))
			r->workers_runnable += cpu >= 0 ? 1 : (guint)-1;
		t->runnable_cpu = cpu;
	} else if (cpu >= 0) {
		g_hash_table_insert(others, GINT_TO_POINTER(pid), GINT_TO_POINTER(cpu + 1));
	} else {
		g_hash_table_remove(others, GINT_TO_POINTER(pid));
	}
}

/* Adds value x time over [a, b] (inside the window) to the tenths of the window it spans. */
static void add_by_tenth(const Replay *r, guint64 a, guint64 b, guint value, double *area)
{
	double span = (double)(r->to - r->from);

	if (span <= 0 || value == 0)
		return;
	while (a < b) {
		guint tenth = MIN((guint)((double)(a - r->from) / span * TRACE_STATS_TENTHS),
				  TRACE_STATS_TENTHS - 1);
		guint64 end = r->from + (guint64)(span * (tenth + 1) / TRACE_STATS_TENTHS);

		if (tenth == TRACE_STATS_TENTHS - 1 || end > b)
			end = b;
		if (end <= a)
			end = MIN(b, a + 1);
		area[tenth] += value * (double)(end - a) / 1e9;
		a = end;
	}
}

/* Time-weighted sums over [prev_ts, ts] clipped to the window. */
static void advance(Replay *r, guint64 ts)
{
	if (r->counting && r->prev_ts_set) {
		guint64 a = MAX(r->prev_ts, r->from), b = MIN(ts, r->to);

		if (b > a) {
			double dt = (double)(b - a) / 1e9;

			for (guint c = 0; c < r->tr->nr_cpus; c++) {
				r->rq_area[c] += r->nr[c] * dt;
				if (r->cur[c] == 0)
					r->st->idle_s[c] += dt;
			}
			r->runnable_area += r->workers_runnable * dt;
			for (guint i = 0; i < TRACE_ROLE_N; i++) {
				r->asleep_area[i] += r->asleep[i] * dt;
				add_by_tenth(r, a, b, r->asleep[i], r->asleep_tenth_area[i]);
			}
		}
	}
	r->prev_ts = ts;
	r->prev_ts_set = TRUE;
}

static gboolean inside(const Replay *r, guint64 ts)
{
	return r->counting && ts >= r->from && ts <= r->to;
}

/* A worker with a role goes to sleep, or leaves its sleep. */
static void set_asleep(Replay *r, Task *t, gboolean asleep)
{
	if (!t || !t->worker || t->role < 0 || t->asleep == asleep)
		return;
	t->asleep = asleep;
	r->asleep[t->role] += asleep ? 1 : (guint)-1;
}

/* 6.1's record_wakee: the waker's flips halve once a second, and count each change of wakee. */
static void record_wakee(Task *waker, gint wakee, guint64 ts)
{
	if (ts > waker->flips_decay_ts + 1000000000ull) {
		waker->flips >>= 1;
		waker->flips_decay_ts = ts;
	}
	if (waker->last_wakee != wakee) {
		waker->last_wakee = wakee;
		waker->flips++;
	}
}

/* 6.1's wake_wide: both have switched wakees often enough that one cache cannot hold them. */
static gboolean wake_wide(guint waker_flips, guint wakee_flips, guint factor)
{
	guint master = MAX(waker_flips, wakee_flips), slave = MIN(waker_flips, wakee_flips);

	return !(slave < factor || master < slave * factor);
}

/*
 * Who a wakeup of a sleeping task moves (TraceStats.wake_cross...): the waker's record_wakee
 * first, then, for a worker woken by a worker from another CPU than its last, wake_wide's verdict
 * and where it landed.
 */
static void judge_placement(Replay *r, const Ev *e, Task *waker, Task *t, gboolean count)
{
	TraceStats *st = r->st;

	if (waker && replaying_flips(r) && e->a != e->b)
		record_wakee(waker, e->b, e->ts);
	if (!count || !t || !t->worker || !waker || !waker->worker || t->last_cpu < 0 ||
	    t->last_cpu == (gint)e->cpu)
		return;

	gboolean pulled = e->target == (gint)e->cpu;

	st->wake_cross++;
	st->wake_cross_pulled += pulled;
	if (!replaying_flips(r))
		return;
	guint factor = r->opt->llc_cpus ? r->opt->llc_cpus : r->tr->nr_cpus;

	if (wake_wide(waker->flips, t->flips, factor))
		st->wake_cross_wide++;
	else
		st->wake_cross_narrow_pulled += pulled;
}

/* Where a wakeup came from: the CPU it was made on, or another. */
static TraceWakeFrom wake_from(const Ev *e)
{
	return (gint)e->cpu == e->target ? TRACE_WAKE_LOCAL : TRACE_WAKE_REMOTE;
}

/* A worker woken from sleep by a worker starts waiting to run (TraceStats.wake_to_run_us). */
static void start_run_wait(const Replay *r, const Ev *e, const Task *waker, Task *t, gboolean count)
{
	if (!t || !t->worker || !waker || !waker->worker)
		return;
	t->wait_pending = TRUE;
	t->wait_counted = count;
	t->wait_since = e->ts;
	t->wait_cpu = e->target;
	t->wait_mark = r->switches_on[e->target];
	t->wait_from = wake_from(e);
}

/* It runs: how long it waited, and how many switches its CPU made first. */
static void settle_run_wait(Replay *r, Task *next, guint64 ts)
{
	if (!next || !next->wait_pending)
		return;
	if (next->wait_counted) {
		double us = (double)(ts - next->wait_since) / 1e3;
		double between = (double)(r->switches_on[next->wait_cpu] - next->wait_mark);

		g_array_append_val(r->run_waits[next->wait_from], us);
		g_array_append_val(r->run_wait_switches[next->wait_from], between);
	}
	next->wait_pending = FALSE;
}

static void on_wakeup(Replay *r, GHashTable *others, const Ev *e)
{
	Task *t = task(r->tr, e->b);
	Task *waker = task(r->tr, e->a);
	gboolean count = inside(r, e->ts) && e->kind == EV_WAKEUP;
	TraceStats *st = r->st;
	/* A wakeup of a task still runnable (it had not slept yet) leaves it where it is: the
	 * kernel does not place it again, nor count it in the waker's flips. */
	gint now = t ? t->runnable_cpu
		     : GPOINTER_TO_INT(g_hash_table_lookup(others, GINT_TO_POINTER(e->b))) - 1;

	if (count) {
		st->wakeups++;
		if (t) {
			st->wakeups_workload++;
			st->wakeups_between += waker != NULL;
			st->wakeups_to_busy += r->cur[e->target] > 0;
			st->wakeups_to_busy_remote +=
				r->cur[e->target] > 0 && (gint)e->cpu != e->target;
			st->wake_migrations += t->last_cpu >= 0 && t->last_cpu != e->target;
		}
	}
	/* The first wakeup of a worker onto the busy CPU since its switch starts the clock. */
	if (t && e->kind == EV_WAKEUP && r->cur[e->target] > 0 && !r->wake_pending_ts[e->target]) {
		r->wake_pending_ts[e->target] = MAX(e->ts, 1);
		r->wake_pending_from[e->target] = wake_from(e);
	}
	g_array_append_val(r->woken[e->target], e->b);
	if (e->kind == EV_WAKEUP && now < 0) {
		judge_placement(r, e, waker, t, count);
		start_run_wait(r, e, waker, t, count);
	}
	if (now < 0)
		set_runnable(r, others, e->b, e->target);
	set_asleep(r, t, FALSE);
}

/*
 * Whether the CPU goes back to the task a wakeup preempted once the wakee sleeps. The wakee's
 * next switch away settles it: a sleep counts, a preemption or an exit does not (nothing is left
 * pending then, but a new wakeup preemption starts its own).
 */
static void track_preempted_back(Replay *r, const Ev *e, gboolean wakeup_preemption, gboolean count)
{
	guint c = e->cpu;

	if (r->preemptor[c] && r->preemptor[c] == e->a && e->state == PREV_SLEEPING && count) {
		if (e->b == r->preempted[c])
			r->st->preempted_back++;
		else
			r->st->preempted_not_back++;
	}
	r->preempted[c] = wakeup_preemption ? e->a : 0;
	r->preemptor[c] = wakeup_preemption ? e->b : 0;
}

/*
 * A worker is switched in: how many other workers were switched in (on any CPU) since it last
 * was, the reuse distance of its working set in a cache the CPUs share.
 */
static void note_reuse(Replay *r, Task *t, gboolean count)
{
	if (!t->worker)
		return;
	if (t->recent) {
		guint since = 0;

		for (GList *l = r->recent.head; l != t->recent; l = l->next)
			since++;
		if (count) {
			double d = since;

			g_array_append_val(r->reuse, d);
		}
		g_queue_unlink(&r->recent, t->recent);
		g_queue_push_head_link(&r->recent, t->recent);
	} else {
		g_queue_push_head(&r->recent, t);
		t->recent = r->recent.head;
	}
}

/* The CPU switches: the wakeup that waited for it, if any, is settled. */
static void settle_wake_delay(Replay *r, const Ev *e, gboolean count)
{
	guint c = e->cpu;

	if (!r->wake_pending_ts[c])
		return;
	if (count) {
		double us = (double)(e->ts - MIN(e->ts, r->wake_pending_ts[c])) / 1e3;

		g_array_append_val(r->wake_delays[r->wake_pending_from[c]], us);
		if (r->wake_pending_from[c] == TRACE_WAKE_REMOTE) {
			r->remote_settled++;
			r->remote_slept += e->state == PREV_SLEEPING;
		}
	}
	r->wake_pending_ts[c] = 0;
}

static void on_switch(Replay *r, GHashTable *others, const Ev *e)
{
	Task *prev = task(r->tr, e->a), *next = task(r->tr, e->b);
	gboolean count = inside(r, e->ts);
	TraceStats *st = r->st;
	gboolean by_wakeup = FALSE;

	for (guint i = 0; i < r->woken[e->cpu]->len && !by_wakeup; i++)
		by_wakeup = g_array_index(r->woken[e->cpu], gint, i) == e->b;

	if (count) {
		st->switches++;
		if (prev || next)
			st->switches_workload++;
		if (prev) {
			if (e->state == PREV_RUNNABLE) {
				st->workload_involuntary++;
				st->workload_wakeup_preemptions += by_wakeup;
			} else if (e->state == PREV_SLEEPING) {
				st->workload_voluntary++;
			}
		}
		if (prev && next) {
			guint tenth = (guint)(window_fraction(r, e->ts) * TRACE_STATS_TENTHS);

			st->switches_between++;
			st->switches_by_tenth[MIN(tenth, TRACE_STATS_TENTHS - 1)]++;
			if (e->state == PREV_RUNNABLE) {
				st->involuntary++;
				if (by_wakeup)
					st->wakeup_preemptions++;
				else
					st->other_preemptions++;
			} else if (e->state == PREV_SLEEPING) {
				st->voluntary++;
				if (prev->worker && next->worker)
					st->sleep_handover[prev->role][next->role]++;
			} else {
				st->exits++;
			}
		}
		if (next && next->last_cpu >= 0 && next->last_cpu != (gint)e->cpu)
			st->migrations++;
		if (prev && prev->worker && prev->role >= 0 && e->state == PREV_EXITED) {
			double at = window_fraction(r, e->ts);

			g_array_append_val(r->exits[prev->role], at);
		}
	}
	if (prev && prev->running) {
		double us = (double)(e->ts - prev->run_start) / 1e3;

		if (count) {
			g_array_append_val(r->runs[TRACE_ROLE_N], us);
			if (prev->role >= 0)
				g_array_append_val(r->runs[prev->role], us);
		}
		prev->running = FALSE;
	}
	track_preempted_back(r, e, prev && next && e->state == PREV_RUNNABLE && by_wakeup, count);
	settle_wake_delay(r, e, count);
	if (prev)
		prev->last_cpu = (gint)e->cpu;
	set_asleep(r, prev, e->state == PREV_SLEEPING);
	set_asleep(r, next, FALSE);
	if (e->a > 0)
		set_runnable(r, others, e->a, e->state == PREV_RUNNABLE ? (gint)e->cpu : -1);
	if (e->b > 0)
		set_runnable(r, others, e->b, (gint)e->cpu);
	settle_run_wait(r, next, e->ts);
	if (next) {
		next->running = TRUE;
		next->run_start = e->ts;
		next->last_cpu = (gint)e->cpu;
		note_reuse(r, next, count);
	}
	r->switches_on[e->cpu]++;
	r->cur[e->cpu] = e->b;
	g_array_set_size(r->woken[e->cpu], 0);
}

/* A task's first event starts its flips' decay clock (TraceStats.wake_cross...). */
static void note_seen(Replay *r, gint pid, guint64 ts)
{
	Task *t = pid > 0 ? task(r->tr, pid) : NULL;

	if (t && !t->seen) {
		t->seen = TRUE;
		t->flips_decay_ts = ts;
	}
}

/*
 * Replays every event. Without counting it finds the auto window: from the last instant at which
 * at most one worker was runnable before half of them were, to the last worker's exit.
 */
static void replay(Replay *r, guint64 *start, guint64 *end)
{
	g_autoptr(GHashTable) others = others_new();
	GArray *evs = r->tr->events;
	guint half = (r->tr->workers + 1) / 2;
	guint64 low = 0;
	gboolean low_set = FALSE, started = FALSE, ended = FALSE;

	for (guint i = 0; i < evs->len; i++) {
		const Ev *e = &g_array_index(evs, Ev, i);

		advance(r, e->ts);
		if (replaying_flips(r)) {
			note_seen(r, e->a, e->ts);
			note_seen(r, e->b, e->ts);
		}
		if (e->kind == EV_SWITCH)
			on_switch(r, others, e);
		else
			on_wakeup(r, others, e);
		if (inside(r, e->ts)) {
			for (guint c = 0; c < r->tr->nr_cpus; c++)
				r->st->runqueue_max[c] = MAX(r->st->runqueue_max[c], r->nr[c]);
			if (r->last_event_cpu >= 0 && r->last_event_cpu != (gint)e->cpu)
				r->st->cpu_handovers++;
			r->last_event_cpu = (gint)e->cpu;
		}
		if (!started) {
			if (r->workers_runnable <= 1) {
				low = e->ts;
				low_set = TRUE;
			}
			if (r->workers_runnable >= MAX(half, 1)) {
				started = TRUE;
				*start = low_set ? low : g_array_index(evs, Ev, 0).ts;
			}
		}
		if (e->kind == EV_SWITCH && e->state == PREV_EXITED && task(r->tr, e->a) &&
		    task(r->tr, e->a)->worker) {
			*end = e->ts;
			ended = TRUE;
		}
	}
	if (!started)
		*start = evs->len ? g_array_index(evs, Ev, 0).ts : 0;
	if (!ended)
		*end = evs->len ? g_array_index(evs, Ev, evs->len - 1).ts : 0;
}

static int compare_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of a sorted array of doubles; NaN when it is empty. */
static double median_of_sorted(const GArray *a)
{
	if (!a->len)
		return NAN;
	return a->len % 2 ? g_array_index(a, double, a->len / 2)
			  : (g_array_index(a, double, a->len / 2 - 1) +
			     g_array_index(a, double, a->len / 2)) /
				    2;
}

static TraceRuns runs_of(GArray *a)
{
	TraceRuns runs = { 0 };

	runs.count = a->len;
	if (!a->len) {
		runs.mean_us = runs.median_us = NAN;
		return runs;
	}
	g_array_sort(a, compare_double);
	for (guint i = 0; i < a->len; i++)
		runs.total_us += g_array_index(a, double, i);
	runs.mean_us = runs.total_us / a->len;
	runs.median_us = median_of_sorted(a);
	return runs;
}

/* ---- the entry points ------------------------------------------------------------------------ */

static void trace_clear(Trace *tr)
{
	g_array_free(tr->events, TRUE);
	g_array_free(tr->checks, TRUE);
	g_hash_table_destroy(tr->comms);
	g_hash_table_destroy(tr->tasks);
}

/* The f quantile of sorted doubles; NaN for none. */
static double quantile_of_sorted(const GArray *sorted, double f)
{
	return sorted->len ? gsl_stats_quantile_from_sorted_data(
				     (const double *)(const void *)sorted->data, 1, sorted->len, f)
			   : NAN;
}

/* The same of values in ns, in ms. */
static double ms_quantile(const GArray *sorted, double f)
{
	return quantile_of_sorted(sorted, f) / 1e6;
}

/* The preemption checks of workers beside running workers, inside the window. */
static void check_stats(Trace *tr, guint64 start, guint64 end, TraceStats *st)
{
	g_autoptr(GArray) lag = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) lead = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) gap = g_array_new(FALSE, FALSE, sizeof(double));
	GArray *by_role[TRACE_ROLE_N];
	guint64 at_credit = 0, above = 0;

	for (guint i = 0; i < TRACE_ROLE_N; i++)
		by_role[i] = g_array_new(FALSE, FALSE, sizeof(double));
	for (guint i = 0; i < tr->checks->len; i++) {
		const Check *c = &g_array_index(tr->checks, Check, i);
		const Task *curr = task(tr, c->curr), *wakee = task(tr, c->wakee);

		if (c->ts < start || c->ts > end || !curr || !curr->worker || !wakee ||
		    !wakee->worker)
			continue;
		double l = (double)c->lag, d = (double)c->lead, g = (double)(c->lag + c->lead);

		g_array_append_val(lag, l);
		g_array_append_val(lead, d);
		g_array_append_val(gap, g);
		if (wakee->role >= 0 && wakee->role < TRACE_ROLE_N)
			g_array_append_val(by_role[wakee->role], l);
		/* Placed at min_vruntime - latency / 2 exactly: 1 µs allows for rounding. */
		at_credit += c->lag + 1000 >= (gint64)(c->latency / 2);
		above += c->lag + c->lead > (gint64)c->gran;
	}
	st->checks = lag->len;
	g_array_sort(lag, compare_double);
	g_array_sort(lead, compare_double);
	g_array_sort(gap, compare_double);
	st->lag_q25_ms = ms_quantile(lag, 0.25);
	st->lag_median_ms = ms_quantile(lag, 0.5);
	st->lag_q75_ms = ms_quantile(lag, 0.75);
	st->lead_median_ms = ms_quantile(lead, 0.5);
	st->gap_median_ms = ms_quantile(gap, 0.5);
	st->at_credit = lag->len ? (double)at_credit / lag->len : NAN;
	st->above_gran = lag->len ? (double)above / lag->len : NAN;
	for (guint i = 0; i < TRACE_ROLE_N; i++) {
		g_array_sort(by_role[i], compare_double);
		st->lag_median_role_ms[i] = ms_quantile(by_role[i], 0.5);
		g_array_free(by_role[i], TRUE);
	}
}

static gboolean compute(Trace *tr, const TraceStatsOptions *options, TraceStats *st, GError **error)
{
	const char *const *prefixes =
		options && options->workload ? options->workload : default_workload;
	Replay r;
	guint64 start = 0, end = 0;

	assign_roles(tr, prefixes);
	if (g_hash_table_size(tr->tasks) == 0) {
		g_autofree char *names = g_strjoinv(", ", (char **)prefixes);

		g_set_error(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_EMPTY,
			    "%s: no task of the workload (names starting with %s)", tr->name,
			    names);
		return FALSE;
	}

	memset(st, 0, sizeof(*st));
	st->nr_cpus = MAX(tr->nr_cpus, 1);
	tr->nr_cpus = st->nr_cpus;
	replay_init(&r, tr, options);
	replay(&r, &start, &end);
	replay_clear(&r);
	if (options && options->window == TRACE_WINDOW_ALL) {
		start = tr->events->len ? g_array_index(tr->events, Ev, 0).ts : 0;
		end = tr->events->len ? g_array_index(tr->events, Ev, tr->events->len - 1).ts : 0;
	}
	if (end < start)
		end = start;

	st->idle_s = g_new0(double, st->nr_cpus);
	st->runqueue_mean = g_new0(double, st->nr_cpus);
	st->runqueue_max = g_new0(guint, st->nr_cpus);
	replay_init(&r, tr, options);
	r.counting = TRUE;
	r.from = start;
	r.to = end;
	r.st = st;
	replay(&r, &(guint64){ 0 }, &(guint64){ 0 });

	st->start_s = (double)start / 1e9;
	st->end_s = (double)end / 1e9;
	st->duration_s = (double)(end - start) / 1e9;
	for (guint c = 0; c < st->nr_cpus; c++)
		st->runqueue_mean[c] = st->duration_s > 0 ? r.rq_area[c] / st->duration_s : NAN;
	st->runnable_mean = st->duration_s > 0 ? r.runnable_area / st->duration_s : NAN;
	st->handovers_per_s = st->duration_s > 0 ? (double)st->cpu_handovers / st->duration_s : NAN;
	for (guint i = 0; i < TRACE_ROLE_N; i++)
		st->asleep_mean[i] = st->duration_s > 0 ? r.asleep_area[i] / st->duration_s : NAN;
	for (guint i = 0; i < TRACE_ROLE_N; i++)
		for (guint k = 0; k < TRACE_STATS_TENTHS; k++)
			st->asleep_by_tenth[i][k] =
				st->duration_s > 0 ? r.asleep_tenth_area[i][k] *
							     TRACE_STATS_TENTHS / st->duration_s
						   : NAN;
	g_array_sort(r.reuse, compare_double);
	st->reuse_median = median_of_sorted(r.reuse);
	st->reuse_q75 = quantile_of_sorted(r.reuse, 0.75);
	guint near = 0;

	while (near < r.reuse->len && g_array_index(r.reuse, double, near) <= TRACE_REUSE_NEAR)
		near++;
	st->reuse_near = r.reuse->len ? (double)near / r.reuse->len : NAN;
	for (guint i = 0; i < TRACE_WAKE_N; i++) {
		g_array_sort(r.wake_delays[i], compare_double);
		st->wake_to_switch_us[i] = median_of_sorted(r.wake_delays[i]);
	}
	for (guint i = 0; i < TRACE_WAKE_N; i++) {
		g_array_sort(r.run_waits[i], compare_double);
		st->wake_to_run_us[i] = median_of_sorted(r.run_waits[i]);
		st->wake_to_run_q90_us[i] = quantile_of_sorted(r.run_waits[i], 0.9);
		g_array_sort(r.run_wait_switches[i], compare_double);
		st->switches_before_run[i] = median_of_sorted(r.run_wait_switches[i]);
	}
	st->remote_sleeps_first =
		r.remote_settled ? (double)r.remote_slept / (double)r.remote_settled : NAN;
	st->runs = runs_of(r.runs[TRACE_ROLE_N]);
	for (guint i = 0; i < TRACE_ROLE_N; i++) {
		st->roles[i] = runs_of(r.runs[i]);
		g_array_sort(r.exits[i], compare_double);
		st->first_exit[i] = r.exits[i]->len ? g_array_index(r.exits[i], double, 0) : NAN;
		st->median_exit[i] = median_of_sorted(r.exits[i]);
	}
	replay_clear(&r);

	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, tr->tasks);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		const Task *t = value;

		st->workload_tasks++;
		st->senders += t->role == TRACE_ROLE_SENDER;
		st->receivers += t->role == TRACE_ROLE_RECEIVER;
		st->has_parent |= t->role == TRACE_ROLE_PARENT;
	}
	check_stats(tr, start, end, st);
	st->flips_replayed = options && options->replay_flips;
	if (st->flips_replayed) {
		st->inherited_flips = options->inherited_flips;
		st->llc_cpus = options->llc_cpus ? options->llc_cpus : st->nr_cpus;
	}
	st->messages = options ? options->messages : 0;
	if (st->messages) {
		double m = (double)st->messages;
		guint64 rr = st->roles[TRACE_ROLE_RECEIVER].count;
		guint64 sr = st->roles[TRACE_ROLE_SENDER].count;

		st->switches_per_message = (double)st->switches_between / m;
		st->messages_per_receiver_run = rr ? m / (double)rr : NAN;
		st->messages_per_sender_run = sr ? m / (double)sr : NAN;
	} else {
		st->switches_per_message = st->messages_per_receiver_run =
			st->messages_per_sender_run = NAN;
	}
	return TRUE;
}

gboolean trace_stats_read_text(const char *text, gssize len, const char *name,
			       const TraceStatsOptions *options, TraceStats *out, GError **error)
{
	Trace tr = {
		.name = name,
		.events = g_array_new(FALSE, FALSE, sizeof(Ev)),
		.checks = g_array_new(FALSE, FALSE, sizeof(Check)),
		.comms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free),
		.tasks = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free),
	};
	gboolean ok = parse_text(&tr, text, len < 0 ? strlen(text) : (gsize)len, error) &&
		      compute(&tr, options, out, error);

	trace_clear(&tr);
	return ok;
}

gboolean trace_stats_read_file(const char *path, const TraceStatsOptions *options, TraceStats *out,
			       GError **error)
{
	g_autofree char *text = NULL;
	gsize len;
	GError *local = NULL;

	if (!g_file_get_contents(path, &text, &len, &local)) {
		g_set_error(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_IO, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	return trace_stats_read_text(text, (gssize)len, path, options, out, error);
}

/* ---- the runs, for lining traces up -------------------------------------------------------- */

static char left_as(guint8 state)
{
	return state == PREV_RUNNABLE ? 'R' : state == PREV_EXITED ? 'X' : 'S';
}

static void timeline_of(Trace *tr, const char *const *workload, TraceTimeline *tl)
{
	guint n = MAX(tr->nr_cpus, 1);
	gint *cur = g_new(gint, n);
	guint64 *since = g_new0(guint64, n);

	assign_roles(tr, workload ? workload : default_workload);
	tl->nr_cpus = n;
	tl->runs = g_array_new(FALSE, FALSE, sizeof(TraceRun));
	tl->events = g_new(GArray *, n);
	for (guint c = 0; c < n; c++) {
		tl->events[c] = g_array_new(FALSE, FALSE, sizeof(guint64));
		cur[c] = -1;
	}
	for (guint i = 0; i < tr->events->len; i++) {
		const Ev *e = &g_array_index(tr->events, Ev, i);

		g_array_append_val(tl->events[e->cpu], e->ts);
		if (e->kind != EV_SWITCH)
			continue;
		if (cur[e->cpu] >= 0) {
			const Task *t = task(tr, e->a);
			TraceRun run = { since[e->cpu],	    e->ts, e->a, t ? (gint8)t->role : -1,
					 left_as(e->state), e->cpu };

			g_array_append_val(tl->runs, run);
		}
		cur[e->cpu] = e->b;
		since[e->cpu] = e->ts;
	}
	for (guint i = 0; i < tr->events->len; i++) {
		guint64 ts = g_array_index(tr->events, Ev, i).ts;

		tl->first_ns = i == 0 ? ts : MIN(tl->first_ns, ts);
		tl->last_ns = MAX(tl->last_ns, ts);
	}
	tl->comms = g_steal_pointer(&tr->comms);
	tr->comms = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_free(cur);
	g_free(since);
}

gboolean trace_timeline_read_text(const char *text, gssize len, const char *name,
				  const char *const *workload, TraceTimeline *out, GError **error)
{
	Trace tr = {
		.name = name,
		.events = g_array_new(FALSE, FALSE, sizeof(Ev)),
		.checks = g_array_new(FALSE, FALSE, sizeof(Check)),
		.comms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free),
		.tasks = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free),
	};
	gboolean ok = parse_text(&tr, text, len < 0 ? strlen(text) : (gsize)len, error);

	memset(out, 0, sizeof(*out));
	if (ok)
		timeline_of(&tr, workload, out);
	trace_clear(&tr);
	return ok;
}

gboolean trace_timeline_read_file(const char *path, const char *const *workload, TraceTimeline *out,
				  GError **error)
{
	g_autofree char *text = NULL;
	gsize len;
	GError *local = NULL;

	memset(out, 0, sizeof(*out));
	if (!g_file_get_contents(path, &text, &len, &local)) {
		g_set_error(error, TRACE_STATS_ERROR, TRACE_STATS_ERROR_IO, "%s", local->message);
		g_error_free(local);
		return FALSE;
	}
	return trace_timeline_read_text(text, (gssize)len, path, workload, out, error);
}

void trace_timeline_clear(TraceTimeline *tl)
{
	if (tl->runs)
		g_array_free(tl->runs, TRUE);
	for (guint c = 0; tl->events && c < tl->nr_cpus; c++)
		g_array_free(tl->events[c], TRUE);
	g_free(tl->events);
	if (tl->comms)
		g_hash_table_destroy(tl->comms);
	memset(tl, 0, sizeof(*tl));
}

void trace_stats_clear(TraceStats *st)
{
	g_free(st->idle_s);
	g_free(st->runqueue_mean);
	g_free(st->runqueue_max);
	st->idle_s = st->runqueue_mean = NULL;
	st->runqueue_max = NULL;
}

const char *trace_role_name(TraceRole role)
{
	switch (role) {
	case TRACE_ROLE_SENDER:
		return "sender";
	case TRACE_ROLE_RECEIVER:
		return "receiver";
	case TRACE_ROLE_PARENT:
		return "parent";
	default:
		return "?";
	}
}
