/*
 * vm_steal.c - a guest's steal from its vCPU threads' schedstat (see vm_steal.h).
 */
#include "tuner/vm/vm_steal.h"

#include <stdio.h>
#include <string.h>

/* "CPU 0/TCG", "CPU 1/KVM": what qemu's debug-threads names a vCPU thread. */
static gboolean is_vcpu_thread(const char *comm)
{
	return g_str_has_prefix(comm, "CPU ") && strchr(comm, '/') != NULL;
}

static gboolean read_thread(const char *task_dir, VmCpuTime *sum)
{
	g_autofree char *sched_path = g_build_filename(task_dir, "schedstat", NULL);
	g_autofree char *status_path = g_build_filename(task_dir, "status", NULL);
	g_autofree char *sched = NULL, *status = NULL;
	const char *line;
	guint64 run, wait, preempted;

	if (!g_file_get_contents(sched_path, &sched, NULL, NULL) ||
	    !g_file_get_contents(status_path, &status, NULL, NULL) ||
	    sscanf(sched, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &run, &wait) != 2 ||
	    !(line = strstr(status, "nonvoluntary_ctxt_switches:")) ||
	    sscanf(line, "nonvoluntary_ctxt_switches: %" G_GUINT64_FORMAT, &preempted) != 1)
		return FALSE;
	sum->run_ns += run;
	sum->wait_ns += wait;
	sum->preemptions += preempted;
	sum->threads++;
	return TRUE;
}

gboolean vm_cpu_time_sample(GPid pid, VmCpuTime *out)
{
	g_autofree char *tasks = g_strdup_printf("/proc/%d/task", (int)pid);
	g_autoptr(GDir) dir = g_dir_open(tasks, 0, NULL);
	const char *tid;

	memset(out, 0, sizeof(*out));
	if (!dir)
		return FALSE;
	while ((tid = g_dir_read_name(dir))) {
		g_autofree char *task_dir = g_build_filename(tasks, tid, NULL);
		g_autofree char *comm_path = g_build_filename(task_dir, "comm", NULL);
		g_autofree char *comm = NULL;

		if (!g_file_get_contents(comm_path, &comm, NULL, NULL))
			continue;
		g_strchomp(comm);
		if (is_vcpu_thread(comm))
			read_thread(task_dir, out);
	}
	return out->threads > 0;
}

gboolean vm_cpu_time_steal(const VmCpuTime *before, const VmCpuTime *after, guint64 *steal_ppm,
			   guint64 *stall_ns)
{
	if (after->threads != before->threads || after->run_ns < before->run_ns ||
	    after->wait_ns < before->wait_ns || after->preemptions < before->preemptions)
		return FALSE;

	guint64 run = after->run_ns - before->run_ns, wait = after->wait_ns - before->wait_ns;
	guint64 stalls = after->preemptions - before->preemptions;

	if (run + wait == 0)
		return FALSE;
	*steal_ppm = (guint64)((long double)wait * 1000000 / (long double)(run + wait) + 0.5L);
	*stall_ns = stalls ? (wait + stalls / 2) / stalls : 0;
	return TRUE;
}
