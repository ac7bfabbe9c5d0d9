/*
 * bench_kind.c - names of the hackbench workload kinds (see bench_kind.h).
 */
#include "tuner/calib/bench_kind.h"

#include <sys/utsname.h>

const char *realbench_tasks_name(RealbenchTasks tasks)
{
	return tasks == REALBENCH_THREADS ? "threads" : "processes";
}

gboolean realbench_tasks_from_name(const char *name, RealbenchTasks *tasks_out)
{
	if (g_strcmp0(name, "threads") == 0) {
		*tasks_out = REALBENCH_THREADS;
		return TRUE;
	}
	if (g_strcmp0(name, "processes") == 0) {
		*tasks_out = REALBENCH_PROCESSES;
		return TRUE;
	}
	return FALSE;
}

const char *realbench_channel_name(RealbenchChannel channel)
{
	return channel == REALBENCH_PIPES ? "pipes" : "sockets";
}

gchar *realbench_kernel_release(void)
{
	struct utsname name;
	if (uname(&name) != 0)
		return g_strdup("unknown");
	return g_strdup(name.release);
}

guint realbench_cpu_count(void)
{
	return g_get_num_processors();
}
