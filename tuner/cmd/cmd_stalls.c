/*
 * cmd_stalls.c - `tuner stalls HOST.trace GUEST.trace`: where a host's stalls of a guest's vCPUs
 * fall in the guest's schedule (tuner/fidelity/host_stalls.h says how).
 *
 *   tuner stalls host.trace guest.trace [--min-stall-us US] [--host-hz HZ]
 *       [--workload hackbench,sender,receiver] [--format text|json]
 *
 * host.trace: `perf script` of `perf record -a -e sched:sched_switch` on the host while the
 * guest ran, its vCPU threads named as qemu names them; guest.trace: the guest's tracefs text of
 * the same time (vm/'s traced runs). Text: the clock offset found, how many silences lined up,
 * then per kind of run the stalls that began in it, its run time and their rate, and how many
 * vCPU threads ran at once beside what independent ones would; with --host-hz the vCPUs' runs
 * and stalls in whole host ticks, and the stalls and runs by phase of the host's tick. JSON: the
 * same under keys.
 *
 * Exit status: 0, or 2 for bad input (a flag, a trace that cannot be read or does not parse,
 * traces that do not line up).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linsched/json.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/fidelity/host_stalls.h"

static double rate(const HostStalls *h, guint k)
{
	return h->run_s[k] > 0 ? h->began_in[k] / h->run_s[k] : NAN;
}

static char *text_report(const char *host_path, const char *guest_path, const TraceTimeline *guest,
			 guint64 min_ns, const HostStalls *h)
{
	GString *out = g_string_new(NULL);
	double us = (double)min_ns / 1e3;

	g_string_append_printf(out, "# host:  %s (%u vCPU threads)\n", host_path, h->vcpus);
	g_string_append_printf(out, "# guest: %s (%.6f .. %.6f s, %u CPUs)\n", guest_path,
			       (double)guest->first_ns / 1e9, (double)guest->last_ns / 1e9,
			       guest->nr_cpus);
	g_autofree char *sil = g_strdup_printf("guest silences of %g us or more", us);
	g_autofree char *st = g_strdup_printf("host stalls of %g us or more in the guest's", us);

	g_string_append_printf(out, "%-52s %.6f [%.6f, %.6f]\n", "clock offset, host - guest (s)",
			       h->offset_s, h->offset_lo_s, h->offset_hi_s);
	g_string_append_printf(out, "%-52s %u\n", sil, h->silences);
	g_string_append_printf(out, "%-52s %u\n", "  lined up with a stall of their vCPU (1 ms)",
			       h->matched);
	g_string_append_printf(out, "%-52s %u\n", st, h->stalls);
	g_string_append_printf(out, "%-52s %u\n", "  the vCPU thread preempted (left runnable)",
			       h->preempted);
	g_string_append_printf(out, "%-24s %10s %14s %18s\n", "stalls began in a run of", "stalls",
			       "run time (s)", "per s of run time");
	for (guint k = 0; k < HOST_STALL_KINDS; k++)
		g_string_append_printf(out, "  %-22s %10u %14.3f %18.1f\n", host_stall_kind_name(k),
				       h->began_in[k], h->run_s[k], rate(h, k));
	/* Up to the most vCPU threads that ran at once, or that independent ones would run. */
	guint most = 0;

	for (guint k = 0; k < HOST_STALL_AT_ONCE; k++)
		if (h->at_once[k] > 0 || h->at_once_independent[k] > 0.0005)
			most = k;
	g_string_append(out, "vCPU threads running at once   share of the time   if independent\n");
	for (guint k = 0; k <= most; k++)
		g_string_append_printf(out, "  %u%-28s %16.3f %16.3f\n", k,
				       k == HOST_STALL_AT_ONCE - 1 ? " or more" : "", h->at_once[k],
				       h->at_once_independent[k]);
	if (!h->tick_ns)
		return g_string_free(out, FALSE);
	g_string_append_printf(out, "%-30s %8s %8s %8s %8s %8s %10s\n", "in whole host ticks", "0",
			       "1", "2", "3", "4+", "mean");
	for (int stall = 0; stall < 2; stall++) {
		const guint *n = stall ? h->stall_ticks : h->run_ticks;

		g_string_append_printf(out, "  %-28s",
				       stall ? "stalls" : "vCPU runs between stalls");
		for (guint b = 0; b < HOST_STALL_TICKS; b++)
			g_string_append_printf(out, " %8u", n[b]);
		g_string_append_printf(out, " %10.3f\n",
				       stall ? h->stall_mean_ticks : h->run_mean_ticks);
	}
	g_string_append_printf(out, "by phase of the host's tick (%g us), from its start:\n",
			       (double)h->tick_ns / 1e3);
	g_string_append_printf(out, "%-12s %10s", "  phase (us)", "stalls");
	for (guint k = 0; k < HOST_STALL_KINDS; k++)
		g_string_append_printf(out, " %13s", host_stall_kind_name(k));
	g_string_append(out, "   (run time, ms)\n");
	for (guint b = 0; b < HOST_STALL_PHASES; b++) {
		g_string_append_printf(out, "  %10.0f %10u",
				       (double)h->tick_ns * b / HOST_STALL_PHASES / 1e3,
				       h->stall_phase[b]);
		for (guint k = 0; k < HOST_STALL_KINDS; k++)
			g_string_append_printf(out, " %13.3f", h->run_phase_s[k][b] * 1e3);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

static void json_doubles(struct json_writer *w, const double *v, guint n)
{
	json_begin_array(w);
	for (guint i = 0; i < n; i++)
		json_double(w, v[i]);
	json_end_array(w);
}

/* PREFIX_ticks, the counts by length in whole host ticks, and PREFIX_mean_ticks. */
static void json_ticks(struct json_writer *w, const char *prefix, const guint *n, double mean)
{
	g_autofree char *counts = g_strdup_printf("%s_ticks", prefix);
	g_autofree char *mean_key = g_strdup_printf("%s_mean_ticks", prefix);

	json_key(w, counts);
	json_begin_array(w);
	for (guint b = 0; b < HOST_STALL_TICKS; b++)
		json_uint(w, n[b]);
	json_end_array(w);
	json_key(w, mean_key);
	json_double(w, mean);
}

static char *json_report(const char *host_path, const char *guest_path, guint64 min_ns,
			 const HostStalls *h)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "host");
	json_string(&w, host_path);
	json_key(&w, "guest");
	json_string(&w, guest_path);
	json_key(&w, "min_stall_ns");
	json_uint(&w, min_ns);
	json_key(&w, "vcpus");
	json_uint(&w, h->vcpus);
	json_key(&w, "offset_s");
	json_double(&w, h->offset_s);
	json_key(&w, "offset_lo_s");
	json_double(&w, h->offset_lo_s);
	json_key(&w, "offset_hi_s");
	json_double(&w, h->offset_hi_s);
	json_key(&w, "silences");
	json_uint(&w, h->silences);
	json_key(&w, "matched");
	json_uint(&w, h->matched);
	json_key(&w, "stalls");
	json_uint(&w, h->stalls);
	json_key(&w, "preempted");
	json_uint(&w, h->preempted);
	json_key(&w, "began_in");
	json_begin_object(&w);
	for (guint k = 0; k < HOST_STALL_KINDS; k++) {
		json_key(&w, host_stall_kind_name(k));
		json_begin_object(&w);
		json_key(&w, "stalls");
		json_uint(&w, h->began_in[k]);
		json_key(&w, "run_s");
		json_double(&w, h->run_s[k]);
		json_key(&w, "per_s");
		json_double(&w, rate(h, k));
		json_end_object(&w);
	}
	json_end_object(&w);
	json_key(&w, "at_once");
	json_doubles(&w, h->at_once, HOST_STALL_AT_ONCE);
	json_key(&w, "at_once_independent");
	json_doubles(&w, h->at_once_independent, HOST_STALL_AT_ONCE);
	if (h->tick_ns) {
		json_key(&w, "tick_ns");
		json_uint(&w, h->tick_ns);
		json_ticks(&w, "run", h->run_ticks, h->run_mean_ticks);
		json_ticks(&w, "stall", h->stall_ticks, h->stall_mean_ticks);
		json_key(&w, "phases");
		json_begin_array(&w);
		for (guint b = 0; b < HOST_STALL_PHASES; b++) {
			json_begin_object(&w);
			json_key(&w, "from_ns");
			json_uint(&w, h->tick_ns * b / HOST_STALL_PHASES);
			json_key(&w, "stalls");
			json_uint(&w, h->stall_phase[b]);
			json_key(&w, "run_s");
			json_begin_object(&w);
			for (guint k = 0; k < HOST_STALL_KINDS; k++) {
				json_key(&w, host_stall_kind_name(k));
				json_double(&w, h->run_phase_s[k][b]);
			}
			json_end_object(&w);
			json_end_object(&w);
		}
		json_end_array(&w);
	}
	json_end_object(&w);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

struct stalls_cli {
	gint64 min_stall_us, host_hz;
	char *workload, *format;
};

/* A trace that cannot be read or does not parse is bad input: it was named on the command line. */
static gboolean read_timeline(const char *path, const char *const *workload, TraceTimeline *tl,
			      GError **error)
{
	GError *local = NULL;

	if (trace_timeline_read_file(path, workload, tl, &local))
		return TRUE;
	return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
}

static gboolean check_flags(const struct stalls_cli *c, int argc, char ***prefixes, GError **error)
{
	if (argc != 3)
		return cmd_usage(error, "give two traces: HOST.trace GUEST.trace");
	if (c->format && strcmp(c->format, "text") != 0 && strcmp(c->format, "json") != 0)
		return cmd_usage(error, "--format: give text or json");
	return cmd_workload_prefixes(c->workload, prefixes, error);
}

int tuner_cmd_stalls(int argc, char **argv)
{
	struct stalls_cli c = { .min_stall_us = 2000 };
	const GOptionEntry entries[] = {
		{ "min-stall-us", 0, 0, G_OPTION_ARG_INT64, &c.min_stall_us,
		  "The shortest gap that counts as a stall, and as a guest's silence (default 2000)",
		  "US" },
		{ "host-hz", 0, 0, G_OPTION_ARG_INT64, &c.host_hz,
		  "The host's tick rate (its CONFIG_HZ): also count the vCPUs' runs and stalls in "
		  "whole host ticks, and the stalls' starts and the guest's short runs by phase of "
		  "the host's tick",
		  "HZ" },
		{ "workload", 0, 0, G_OPTION_ARG_STRING, &c.workload,
		  "Command-name prefixes of the guest workload's tasks (default "
		  "hackbench,sender,receiver)",
		  "LIST" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &c.format, "text (default) or json", "F" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c.min_stall_us, 1, 1000000000),
		FLAG_INT(&c.host_hz, 1, 100000),
	};
	struct flag_set flags;
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"HOST.trace GUEST.trace - where a host's stalls of the vCPUs fall in the guest");
	g_autoptr(GError) error = NULL;
	GError *local = NULL;
	TraceTimeline host = { 0 }, guest = { 0 };
	g_auto(GStrv) prefixes = NULL;
	HostStalls h;
	int status = 0;

	flag_set_init(&flags);
	flag_add_main_entries(&flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	if (!g_option_context_parse(ctx, &argc, &argv, &local)) {
		cmd_relabel(&error, CMD_ERROR_USAGE, local, "");
	} else if (check_flags(&c, argc, &prefixes, &error) &&
		   read_timeline(argv[1], NULL, &host, &error) &&
		   read_timeline(argv[2], (const char *const *)prefixes, &guest, &error)) {
		guint64 min_ns = (guint64)c.min_stall_us * 1000;

		guint64 tick_ns = c.host_hz ? 1000000000 / (guint64)c.host_hz : 0;

		if (!host_stalls_compute(&host, &guest, min_ns, tick_ns, &h, &local)) {
			cmd_relabel(&error, CMD_ERROR_USAGE, local, "");
		} else {
			g_autofree char *report =
				c.format && strcmp(c.format, "json") == 0
					? json_report(argv[1], argv[2], min_ns, &h)
					: text_report(argv[1], argv[2], &guest, min_ns, &h);

			fputs(report, stdout);
		}
	}
	if (error)
		status = cmd_fail_status("stalls", error);
	trace_timeline_clear(&host);
	trace_timeline_clear(&guest);
	g_free(c.workload);
	g_free(c.format);
	flag_set_clear(&flags);
	return status;
}
