/*
 * trace.h - one record per context switch, written while a simulation runs:
 *
 *   ftrace  the text format of the kernel's sched_switch tracepoint (as in
 *           /sys/kernel/tracing/trace), which trace tools such as trace-cmd's parsers read,
 *           with a sched_wakeup line for every wakeup of a sleeping task, as the kernel's;
 *   json    Chrome trace-event JSON ("X" events, one track per CPU), which the Perfetto UI and
 *           chrome://tracing open.
 *
 * The trace goes to a temporary file beside the target and is renamed into place by
 * trace_finish(), so a failed or interrupted run never leaves a half-written trace behind.
 */
#ifndef LINSCHED_TRACE_H
#define LINSCHED_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "linsched/sim.h"

enum trace_format {
	TRACE_FTRACE,
	TRACE_JSON
};

struct trace;

/* Opens the temporary file; the error names the path. */
struct trace *trace_open(const char *path, enum trace_format format, unsigned int nr_cpus,
			 GError **error);
/* Attaches the trace to a simulation (its switch hook). */
void trace_attach(struct trace *tr, struct linsched_sim *sim);
/* Writes the end of the trace (end_ns: when the simulation stopped, from its epoch) and renames
 * it into place; frees tr either way. */
bool trace_finish(struct trace *tr, uint64_t end_ns, GError **error);
/* Removes the temporary file and frees tr. */
void trace_abort(struct trace *tr);

#endif
