/*
 * bench_kind.h - the kinds of hackbench workload a real run and a calibration file name: threads
 * or processes, sockets or pipes; and the machine a run is made on. They are apart from
 * realbench.h, which starts real runs, so that modules that only read or write calibration files
 * (and the simulated objective that uses them) do not depend on the code that spawns benchmarks.
 */
#ifndef TUNER_CALIB_BENCH_KIND_H
#define TUNER_CALIB_BENCH_KIND_H

#include <glib.h>

G_BEGIN_DECLS

/* Whether the benchmark's tasks are threads of one process or separate processes. */
typedef enum {
	REALBENCH_THREADS,
	REALBENCH_PROCESSES,
} RealbenchTasks;

/* What connects a sender to a receiver. */
typedef enum {
	REALBENCH_SOCKETS, /* socketpair(), the tools' default */
	REALBENCH_PIPES,   /* pipe() */
} RealbenchChannel;

/* "threads" or "processes". */
const char *realbench_tasks_name(RealbenchTasks tasks);

/* Parse "threads" or "processes" into *tasks_out. FALSE (and *tasks_out untouched) otherwise. */
gboolean realbench_tasks_from_name(const char *name, RealbenchTasks *tasks_out);

/* "sockets" or "pipes". */
const char *realbench_channel_name(RealbenchChannel channel);

/* The running kernel's release (uname -r), for the calibration record; "unknown" if uname fails.
 * Free with g_free. */
gchar *realbench_kernel_release(void);

/* The number of CPUs available to this process, for the calibration record. */
guint realbench_cpu_count(void);

G_END_DECLS

#endif
