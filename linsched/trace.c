/*
 * trace.c - context-switch traces (see trace.h).
 */
#include "linsched/trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kernel-extract/sched.h"
#include "linsched/json.h"

#define TRACE_ERROR g_quark_from_static_string("linsched-trace")

struct trace {
	enum trace_format format;
	char *path, *tmp_path;
	FILE *f;
	bool failed; /* a write failed: finish reports it */
	unsigned int nr_cpus;
	/* json: what each CPU has been running since when, to emit complete ("X") events */
	const struct linsched_task **running;
	uint64_t *since;
	bool first_event;
	GString *buf;
};

static void write_header(struct trace *tr)
{
	tr->first_event = true;
	if (tr->format == TRACE_FTRACE)
		fputs("# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		      "#              | |         |   |||||     |         |\n",
		      tr->f);
	else
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", tr->f);
}

struct trace *trace_open(const char *path, enum trace_format format, unsigned int nr_cpus,
			 GError **error)
{
	struct trace *tr = g_new0(struct trace, 1);
	int fd;

	tr->format = format;
	tr->path = g_strdup(path);
	tr->tmp_path = g_strdup_printf("%s.tmp.XXXXXX", path);
	fd = g_mkstemp(tr->tmp_path);
	if (fd < 0 || !(tr->f = fdopen(fd, "w"))) {
		int saved = errno;

		g_set_error(error, TRACE_ERROR, 1, "--trace: cannot write %s: %s", path,
			    g_strerror(saved));
		if (fd >= 0)
			close(fd);
		g_free(tr->path);
		g_free(tr->tmp_path);
		g_free(tr);
		return NULL;
	}
	tr->nr_cpus = nr_cpus;
	tr->running = g_new0(const struct linsched_task *, nr_cpus);
	tr->since = g_new0(uint64_t, nr_cpus);
	tr->buf = g_string_new(NULL);
	write_header(tr);
	return tr;
}

/* Kernel conventions: the idle task of CPU n is swapper/n with pid 0. */
static void describe(const struct linsched_task *t, int cpu, char *comm, size_t len, int *pid,
		     int *prio)
{
	if (!t) {
		g_snprintf(comm, len, "swapper/%d", cpu);
		*pid = 0;
		*prio = 120;
		return;
	}
	const struct task_struct *ts = linsched_task_sched(t);
	struct linsched_task_stats st;

	linsched_task_stats(t, &st);
	g_strlcpy(comm, st.name, len);
	*pid = ts->pid;
	*prio = ts->static_prio;
}

static const char *prev_state(const struct linsched_task *t)
{
	if (!t)
		return "R";
	switch (linsched_task_sched(t)->state) {
	case TASK_RUNNING:
		return "R";
	case TASK_INTERRUPTIBLE:
		return "S";
	case TASK_DEAD:
		return "X";
	default:
		return "R";
	}
}

/* The part every ftrace line shares: the task and CPU that print it, the time, the event's name. */
static void ftrace_head(struct trace *tr, const char *task, int cpu, uint64_t now,
			const char *event)
{
	fprintf(tr->f,
		"%16s [%03d] d..2. %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT ": %s: ", task, cpu,
		(uint64_t)(now / NSEC_PER_SEC), (uint64_t)((now % NSEC_PER_SEC) / NSEC_PER_USEC),
		event);
}

static void ftrace_switch(struct trace *tr, int cpu, uint64_t now, const struct linsched_task *prev,
			  const struct linsched_task *next)
{
	char pcomm[32], ncomm[32], task[48];
	int ppid, pprio, npid, nprio;

	describe(prev, cpu, pcomm, sizeof(pcomm), &ppid, &pprio);
	describe(next, cpu, ncomm, sizeof(ncomm), &npid, &nprio);
	g_snprintf(task, sizeof(task), "%s-%d", pcomm, ppid);
	ftrace_head(tr, task, cpu, now, "sched_switch");
	fprintf(tr->f,
		"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
		pcomm, ppid, pprio, prev_state(prev), ncomm, npid, nprio);
}

/*
 * What the wakeup's preemption check weighed, in the format of the kprobe event the guest puts on
 * 6.1's check_preempt_wakeup (vm/guest/init): the running task's and the wakee's vruntime, the
 * queue's min_vruntime and length, and the knobs. The kernel calls the check only when the wakee
 * lands on a CPU running a task of its class (not idle), and before it prints sched_wakeup; CFS
 * profiles only.
 */
static void ftrace_wakeup_preempt(struct trace *tr, const char *task, int cpu, uint64_t now,
				  const struct linsched_task *wakee)
{
	const struct task_struct *p = linsched_task_sched(wakee);
	const struct cfs_rq *cfs_rq = p->se.cfs_rq;

	if (!cfs_rq || !cfs_rq->curr || cfs_rq->curr == &p->se)
		return;

	const struct sched_tunables *tun = &rq_of(cfs_rq)->sys->tun;

	/* EEVDF has neither the function nor its knobs (latency 0): no line, as the guest's. */
	if (tun->latency == 0)
		return;

	ftrace_head(tr, task, cpu, now, "wakeup_preempt");
	fprintf(tr->f,
		"(check_preempt_wakeup+0x0/0x0) curr_vr=%" G_GUINT64_FORMAT
		" wakee_vr=%" G_GUINT64_FORMAT " min_vr=%" G_GUINT64_FORMAT
		" nr=%u curr_pid=%d wakee_pid=%d latency=%" G_GUINT64_FORMAT
		" gran=%" G_GUINT64_FORMAT "\n",
		(uint64_t)cfs_rq->curr->vruntime, (uint64_t)p->se.vruntime,
		(uint64_t)cfs_rq->min_vruntime, cfs_rq->nr_running, task_of(cfs_rq->curr)->pid,
		p->pid, (uint64_t)tun->latency, (uint64_t)tun->wakeup_granularity);
}

/*
 * The kernel prints a wakeup from the context that did it: the waker on its CPU. A timer's wakeup
 * (no waker) is printed from the target CPU, from whatever it is running, idle included.
 */
static void on_wakeup(void *ctx, int cpu, uint64_t now, const struct linsched_task *waker,
		      const struct linsched_task *wakee, int target_cpu)
{
	struct trace *tr = ctx;
	char wcomm[32], comm[32], task[48];
	int wpid, wprio, pid, prio;

	if (!waker)
		waker = tr->running[cpu];
	describe(waker, cpu, wcomm, sizeof(wcomm), &wpid, &wprio);
	describe(wakee, target_cpu, comm, sizeof(comm), &pid, &prio);
	g_snprintf(task, sizeof(task), "%s-%d", wcomm, wpid);
	ftrace_wakeup_preempt(tr, task, cpu, now, wakee);
	ftrace_head(tr, task, cpu, now, "sched_wakeup");
	fprintf(tr->f, "comm=%s pid=%d prio=%d target_cpu=%03d\n", comm, pid, prio, target_cpu);
	if (ferror(tr->f))
		tr->failed = true;
}

/* The span the outgoing task ran as one complete event on its CPU's track; times in µs. */
static void json_switch(struct trace *tr, int cpu, uint64_t now, const struct linsched_task *prev,
			const struct linsched_task *next)
{
	if (prev) {
		struct json_writer w;
		char comm[32];
		int pid, prio;

		describe(prev, cpu, comm, sizeof(comm), &pid, &prio);
		g_string_truncate(tr->buf, 0);
		if (!tr->first_event)
			g_string_append_c(tr->buf, ',');
		tr->first_event = false;
		json_init(&w, tr->buf, false);
		json_begin_object(&w);
		json_key(&w, "name");
		json_string(&w, comm);
		json_key(&w, "ph");
		json_string(&w, "X");
		json_key(&w, "ts");
		json_double(&w, (double)tr->since[cpu] / 1e3);
		json_key(&w, "dur");
		json_double(&w, (double)(now - tr->since[cpu]) / 1e3);
		json_key(&w, "pid");
		json_int(&w, 0);
		json_key(&w, "tid");
		json_int(&w, cpu);
		json_key(&w, "args");
		json_begin_object(&w);
		json_key(&w, "pid");
		json_int(&w, pid);
		json_key(&w, "end_state");
		json_string(&w, prev_state(prev));
		json_end_object(&w);
		json_end_object(&w);
		fwrite(tr->buf->str, 1, tr->buf->len, tr->f);
	}
	tr->running[cpu] = next;
	tr->since[cpu] = now;
}

static void on_switch(void *ctx, int cpu, uint64_t now, const struct linsched_task *prev,
		      const struct linsched_task *next)
{
	struct trace *tr = ctx;

	if (tr->format == TRACE_FTRACE) {
		ftrace_switch(tr, cpu, now, prev, next);
		tr->running[cpu] = next;
	} else {
		json_switch(tr, cpu, now, prev, next);
	}
	if (ferror(tr->f))
		tr->failed = true;
}

/*
 * The trace covers the measured run: what happened before the epoch (a start barrier's set-up) is
 * dropped, and the tasks running at the epoch start their spans there, at time 0.
 */
static void on_epoch(void *ctx, const struct linsched_sim *sim)
{
	struct trace *tr = ctx;

	(void)sim;
	if (fflush(tr->f) != 0 || ftruncate(fileno(tr->f), 0) != 0)
		tr->failed = true;
	rewind(tr->f);
	write_header(tr);
	for (unsigned int cpu = 0; cpu < tr->nr_cpus; cpu++)
		tr->since[cpu] = 0;
}

void trace_attach(struct trace *tr, struct linsched_sim *sim)
{
	linsched_sim_set_switch_hook(sim, on_switch, tr);
	linsched_sim_set_epoch_hook(sim, on_epoch, tr);
	/* Chrome's trace has no place for wakeups: they are instants, not spans. */
	if (tr->format == TRACE_FTRACE)
		linsched_sim_set_wakeup_hook(sim, on_wakeup, tr);
}

static void trace_free(struct trace *tr)
{
	g_free(tr->path);
	g_free(tr->tmp_path);
	g_free(tr->running);
	g_free(tr->since);
	g_string_free(tr->buf, TRUE);
	g_free(tr);
}

bool trace_finish(struct trace *tr, uint64_t end_ns, GError **error)
{
	if (tr->format == TRACE_JSON) {
		/* Close the spans still running when the simulation ended. */
		for (unsigned int cpu = 0; cpu < tr->nr_cpus; cpu++)
			if (tr->running[cpu])
				json_switch(tr, (int)cpu, end_ns, tr->running[cpu], NULL);
		/* Name the CPU tracks so the viewer shows "CPU 0", "CPU 1", ... */
		for (unsigned int cpu = 0; cpu < tr->nr_cpus; cpu++)
			fprintf(tr->f,
				"%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"args\":{\"name\":\"CPU %u\"}}",
				tr->first_event && cpu == 0 ? "" : ",", cpu, cpu);
		fputs("]}\n", tr->f);
	}
	bool ok = !tr->failed && fflush(tr->f) == 0 && !ferror(tr->f);

	ok = (fclose(tr->f) == 0) && ok;
	if (ok && g_rename(tr->tmp_path, tr->path) != 0)
		ok = false;
	if (!ok) {
		g_set_error(error, TRACE_ERROR, 1, "--trace: cannot write %s: %s", tr->path,
			    g_strerror(errno));
		g_unlink(tr->tmp_path);
	}
	trace_free(tr);
	return ok;
}

void trace_abort(struct trace *tr)
{
	fclose(tr->f);
	g_unlink(tr->tmp_path);
	trace_free(tr);
}
