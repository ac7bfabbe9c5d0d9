/*
 * report_gantt.c - per-CPU timeline of the first milliseconds of a sched_switch trace (see
 * report_sources.h).
 *
 * The trace is the text of the kernel's sched_switch tracepoint, as linsched writes it
 * (linsched/trace.h) and /sys/kernel/tracing/trace shows it:
 *
 *   <task>-<pid> [CCC] <flags> <seconds>.<micro>: sched_switch: prev_comm=A prev_pid=1 prev_prio=120
 *       prev_state=S ==> next_comm=B next_pid=2 next_prio=120
 *
 * A switch on CPU c at time t ends the span of prev on c, which began at c's previous switch (or
 * at the first timestamp of the trace, when linsched's trace starts: tasks running at its epoch
 * start there). The tasks still running at the last timestamp end there. pid 0 is the idle task,
 * left blank. Lines of other events and '#' comments are skipped; a sched_switch line that cannot
 * be read is an error naming the file and line. The file is read a line at a time and only up to
 * the end of the window, so that a long trace costs no more than its first milliseconds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/report/report_sources.h"

#define MAX_CPUS    4096
/* More colours than this make the key unreadable: the rest share the last one. */
#define MAX_CLASSES 16

struct span {
	double start, end; /* ms since the first timestamp */
	guint cpu;
	guint cls;
	gboolean tall;
};

/* A colour class: a hackbench group, or a task name without its number. */
struct cls {
	char *name;
	gint64 group; /* hackbench group, -1 otherwise (for sorting) */
};

struct gantt {
	const char *path;
	double window; /* ms */
	double t0;     /* first timestamp, s; NaN before the first switch */
	double last;   /* ms, the last timestamp read */
	double covered; /* ms of the window the trace covers: the window, or less if it ends sooner */
	GArray *since;	    /* double per CPU: when its current task started, ms */
	GPtrArray *running; /* char * per CPU: the comm running there, NULL when idle or unknown */
	GArray *spans;	    /* struct span */
	GArray *classes;    /* struct cls */
	gboolean hackbench; /* every class is a hackbench group */
	guint switches;	    /* inside the window */
	guint n_cpus;
};

static void gantt_clear(struct gantt *g)
{
	g_array_free(g->since, TRUE);
	g_ptr_array_free(g->running, TRUE);
	g_array_free(g->spans, TRUE);
	for (guint i = 0; i < g->classes->len; i++)
		g_free(g_array_index(g->classes, struct cls, i).name);
	g_array_free(g->classes, TRUE);
}

static gboolean bad_line(GError **error, const struct gantt *g, guint line, const char *what)
{
	g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s:%u: not a sched_switch line: %s",
		    g->path, line, what);
	return FALSE;
}

/* ---- classes --------------------------------------------------------------------------------- */

/* "sender-3.17" and "receiver-3.0" are hackbench group 3 (tall bars for senders). */
static gboolean hackbench_task(const char *comm, guint64 *group, gboolean *sender)
{
	const char *rest;
	char *end;

	if (g_str_has_prefix(comm, "sender-")) {
		*sender = TRUE;
		rest = comm + 7;
	} else if (g_str_has_prefix(comm, "receiver-")) {
		*sender = FALSE;
		rest = comm + 9;
	} else {
		return FALSE;
	}
	if (!g_ascii_isdigit(*rest))
		return FALSE;
	*group = g_ascii_strtoull(rest, &end, 10);
	return *end == '.' && g_ascii_isdigit(end[1]);
}

/* The name without its trailing number: "sleeprun-12" -> "sleeprun". */
static char *family(const char *comm)
{
	gsize n = strlen(comm);

	while (n > 0 && (g_ascii_isdigit(comm[n - 1]) || strchr("-._/:", comm[n - 1])))
		n--;
	return n ? g_strndup(comm, n) : g_strdup(comm);
}

static guint class_of(struct gantt *g, const char *comm, gboolean *tall)
{
	guint64 group;
	gboolean sender;
	g_autofree char *name = NULL;
	struct cls c = { NULL, -1 };

	if (hackbench_task(comm, &group, &sender)) {
		name = g_strdup_printf("group %" G_GUINT64_FORMAT, group);
		c.group = (gint64)group;
		*tall = sender;
	} else {
		name = family(comm);
		g->hackbench = FALSE;
		*tall = TRUE;
	}
	for (guint i = 0; i < g->classes->len; i++)
		if (strcmp(g_array_index(g->classes, struct cls, i).name, name) == 0)
			return i;
	c.name = g_steal_pointer(&name);
	g_array_append_val(g->classes, c);
	return g->classes->len - 1;
}

/* ---- parsing --------------------------------------------------------------------------------- */

/* The text between key and the next " <stop>" (or the end). */
static char *field(const char *line, const char *key, const char *stop)
{
	const char *from = strstr(line, key);
	const char *to;

	if (!from)
		return NULL;
	from += strlen(key);
	to = stop ? strstr(from, stop) : from + strcspn(from, " ");
	return to ? g_strndup(from, (gsize)(to - from)) : NULL;
}

static gboolean parse_cpu_time(const char *line, guint *cpu, double *seconds)
{
	const char *open = strchr(line, '[');
	const char *colon = strstr(line, ": sched_switch:");
	char *end;
	guint64 c;

	if (!open || !colon || open > colon || !g_ascii_isdigit(open[1]))
		return FALSE;
	c = g_ascii_strtoull(open + 1, &end, 10);
	if (*end != ']' || c >= MAX_CPUS)
		return FALSE;
	*cpu = (guint)c;

	/* The timestamp is the last word before ": sched_switch:". */
	const char *ts = colon;

	while (ts > end && ts[-1] != ' ')
		ts--;
	errno = 0;
	*seconds = g_ascii_strtod(ts, &end);
	return errno == 0 && end == colon && end != ts && isfinite(*seconds) && *seconds >= 0;
}

static void grow_cpus(struct gantt *g, guint cpu)
{
	while (g->since->len <= cpu) {
		double zero = 0;

		g_array_append_val(g->since, zero);
		g_ptr_array_add(g->running, NULL);
	}
	g->n_cpus = MAX(g->n_cpus, cpu + 1);
}

/* A span of comm on cpu from `from` to `to` ms, clipped to the window. */
static void add_span(struct gantt *g, const char *comm, guint cpu, double from, double to)
{
	struct span s = { from, MIN(to, g->window), cpu, 0, TRUE };

	if (!comm || s.end <= s.start || s.start >= g->window)
		return;
	s.cls = class_of(g, comm, &s.tall);
	g_array_append_val(g->spans, s);
}

static gboolean parse_line(struct gantt *g, const char *line, guint number, gboolean *done,
			   GError **error)
{
	guint cpu;
	double seconds, t;

	if (!strstr(line, ": sched_switch:") || line[strspn(line, " ")] == '#')
		return TRUE;
	if (!parse_cpu_time(line, &cpu, &seconds))
		return bad_line(error, g, number, "no [CPU] and timestamp");

	g_autofree char *prev = field(line, "prev_comm=", " prev_pid=");
	g_autofree char *prev_pid = field(line, " prev_pid=", NULL);
	g_autofree char *next = field(line, "next_comm=", " next_pid=");
	g_autofree char *next_pid = field(line, " next_pid=", NULL);

	if (!prev || !prev_pid || !next || !next_pid)
		return bad_line(error, g, number, "no prev_comm, prev_pid, next_comm or next_pid");
	if (isnan(g->t0))
		g->t0 = seconds;
	t = (seconds - g->t0) * 1e3;
	if (t < g->last - 1e-9)
		return bad_line(error, g, number, "the timestamp goes backwards");
	if (t > g->window) {
		*done = TRUE;
		return TRUE;
	}
	g->last = t;
	grow_cpus(g, cpu);
	g->switches++;
	add_span(g, strcmp(prev_pid, "0") ? prev : NULL, cpu, g_array_index(g->since, double, cpu),
		 t);
	g_array_index(g->since, double, cpu) = t;
	g_free(g->running->pdata[cpu]);
	g->running->pdata[cpu] = strcmp(next_pid, "0") ? g_strdup(next) : NULL;
	return TRUE;
}

static gboolean read_trace(struct gantt *g, GError **error)
{
	FILE *f = fopen(g->path, "r");
	char *line = NULL;
	size_t cap = 0;
	gboolean ok = TRUE, done = FALSE;
	guint number = 0;

	if (!f) {
		int e = errno;

		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s: %s", g->path,
			    e == ENOENT ? "no such file" : g_strerror(e));
		return FALSE;
	}
	while (ok && !done && getline(&line, &cap, f) >= 0)
		ok = parse_line(g, g_strchomp(line), ++number, &done, error);
	free(line);
	fclose(f);
	if (ok && isnan(g->t0)) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT, "%s: no sched_switch events",
			    g->path);
		return FALSE;
	}
	/* Tasks still running: to the end of the window, or of the trace if it ended sooner. */
	g->covered = done ? g->window : g->last;
	for (guint c = 0; ok && c < g->n_cpus; c++)
		add_span(g, g->running->pdata[c], c, g_array_index(g->since, double, c),
			 g->covered);
	return ok;
}

/* ---- output ---------------------------------------------------------------------------------- */

static gint compare_classes(gconstpointer a, gconstpointer b)
{
	const struct cls *x = a, *y = b;

	if (x->group != y->group)
		return x->group < 0   ? 1
		       : y->group < 0 ? -1
				      : (x->group > y->group) - (x->group < y->group);
	return strcmp(x->name, y->name);
}

/* Sorted classes, and for each old index its colour index (capped at MAX_CLASSES - 1). */
static guint *sort_classes(struct gantt *g)
{
	guint n = g->classes->len;
	g_autofree struct cls *old = g_memdup2(g->classes->data, sizeof(struct cls) * n);
	guint *colour = g_new(guint, n);

	g_array_sort(g->classes, compare_classes);
	for (guint i = 0; i < n; i++)
		for (guint j = 0; j < n; j++)
			if (g_array_index(g->classes, struct cls, j).name == old[i].name)
				colour[i] = MIN(j, MAX_CLASSES - 1);
	return colour;
}

static char *data_text(const struct gantt *g, const guint *colour, guint n_colours)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(
		out, "# %s: the first %g ms; per class: start_ms end_ms cpu half_height\n", g->path,
		g->window);
	for (guint c = 0; c < n_colours; c++) {
		g_string_append_printf(out, "# class %u\n", c);
		for (guint i = 0; i < g->spans->len; i++) {
			const struct span *s = &g_array_index(g->spans, struct span, i);

			if (colour[s->cls] == c)
				g_string_append_printf(out, "%.6f %.6f %u %.2f\n", s->start, s->end,
						       s->cpu, s->tall ? 0.42 : 0.25);
		}
		g_string_append(out, "\n\n");
	}
	return g_string_free(out, FALSE);
}

static char *busy_text(const struct gantt *g, double shown)
{
	g_autofree double *busy = g_new0(double, g->n_cpus);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < g->spans->len; i++) {
		const struct span *s = &g_array_index(g->spans, struct span, i);

		busy[s->cpu] += s->end - s->start;
	}
	for (guint c = 0; c < g->n_cpus; c++)
		g_string_append_printf(out, "%sCPU %u %.1f%%", c ? ", " : "", c,
				       shown > 0 ? 100 * busy[c] / shown : 0);
	return g_string_free(out, FALSE);
}

static gboolean draw(Report *r, const struct gantt *g, const char *prefix, GError **error)
{
	g_autofree guint *colour = sort_classes((struct gantt *)g);
	guint n_colours = MIN(g->classes->len, MAX_CLASSES);
	g_autofree char *name = g_strconcat(prefix, "gantt.dat", NULL);
	g_autofree char *stem = g_strconcat(prefix, "gantt", NULL);
	g_autofree char *data = data_text(g, colour, n_colours);
	g_autofree const char **names = g_new(const char *, n_colours);
	double shown = g->covered;
	g_autofree char *busy = busy_text(g, shown);
	g_autofree char *title = g_strdup_printf("Per-CPU timeline: the first %g ms", g->window);
	g_autofree char *caption = g_strdup_printf(
		"Which task ran on each of the %u CPUs during the first %g ms of %s (blank: idle); %u context switches; "
		"busy: %s. Colours: %s%s.",
		g->n_cpus, shown, g->path, g->switches, busy,
		g->hackbench
			? "hackbench groups; tall solid bars are senders, short pale bars receivers"
			: "task names without their numbers",
		g->classes->len > MAX_CLASSES
			? "; the last colour also covers the classes beyond it"
			: "");
	g_autoptr(GString) vars = g_string_new(NULL);

	for (guint i = 0; i < n_colours; i++)
		names[i] = g_array_index(g->classes, struct cls, i).name;
	if (g->classes->len > MAX_CLASSES)
		names[n_colours - 1] = "others";
	if (!report_write_data(r, name, data, error))
		return FALSE;

	ReportSection *s = report_section(r, "Per-CPU timeline", g->path);

	report_row(s, "window", "the first %g ms (the trace covers %.4g ms of it)", g->window,
		   shown);
	report_row(s, "CPUs", "%u", g->n_cpus);
	report_row(s, "context switches in the window", "%u", g->switches);
	report_row(s, "busy", "%s", busy);
	report_var_number(vars, "n", n_colours);
	report_var_words(vars, "classes", names, n_colours);
	report_var_number(vars, "cpus", g->n_cpus);
	report_var_number(vars, "window", g->window);
	report_var_string(
		vars, "note",
		g->hackbench
			? "colour: hackbench group; tall solid bars: senders, short pale bars: receivers"
			: "colour: task name");
	return report_plot(r, s, "gantt.gp", name, stem, title, caption, vars, error);
}

gboolean report_gantt(Report *r, const char *trace, guint window_ms, const char *prefix,
		      GError **error)
{
	struct gantt g = {
		.path = trace,
		.window = window_ms,
		.t0 = NAN,
		.since = g_array_new(FALSE, FALSE, sizeof(double)),
		.running = g_ptr_array_new_with_free_func(g_free),
		.spans = g_array_new(FALSE, FALSE, sizeof(struct span)),
		.classes = g_array_new(FALSE, FALSE, sizeof(struct cls)),
		.hackbench = TRUE,
	};
	gboolean ok = read_trace(&g, error);

	if (ok && !g.spans->len) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INPUT,
			    "%s: no task ran in the first %u ms", trace, window_ms);
		ok = FALSE;
	}
	ok = ok && draw(r, &g, prefix, error);
	gantt_clear(&g);
	return ok;
}
