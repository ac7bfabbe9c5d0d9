/*
 * cmd_hackbench.c - `linsched hackbench`: the messaging benchmark, simulated to completion.
 */
#include <stdio.h>
#include <string.h>

#include "linsched/cli/cli.h"
#include "linsched/cli/hackbench_cli.h"
#include "linsched/cli/commands.h"
#include "linsched/report.h"
#include "linsched/trace.h"
#include "tasks/hackbench.h"

struct report_ctx {
	const struct hackbench_params *params;
	uint64_t messages;
};

static void report_extra(struct json_writer *w, void *ctx)
{
	const struct report_ctx *rc = ctx;

	hackbench_write_json(rc->params, w);
	json_key(w, "messages");
	json_uint(w, rc->messages);
}

static void print_text(GString *out, const struct linsched_sim *sim,
		       const struct hackbench_params *p, uint64_t messages)
{
	const struct linsched_result *res = linsched_sim_result(sim);
	const struct linsched_config *cfg = linsched_sim_config(sim);

	g_string_append_printf(
		out,
		"Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
		p->threads ? "threaded" : "process", p->groups, 2 * p->fds, hackbench_nr_tasks(p));
	g_string_append_printf(out, "Each sender will pass %u messages of %u bytes\n", p->loops,
			       p->datasize);
	g_string_append_printf(out, "# %u sender and receiver %s per group\n", p->fds,
			       p->threads ? "threads" : "processes");
	g_string_append_printf(out, "# %u groups == %u %s run\n", p->groups, hackbench_nr_tasks(p),
			       p->threads ? "threads" : "processes");
	g_string_append_printf(
		out, "# model %s, %s, profile %s, %u CPUs, HZ %u, seed %" G_GUINT64_FORMAT "\n",
		p->model == HACKBENCH_FSM ? "fsm" : "bootstrap", p->pipe ? "pipes" : "sockets",
		cfg->profile->name, cfg->nr_cpus, cfg->hz, cfg->seed);
	report_variation(out, cfg, "# ");
	if (p->block_ns)
		g_string_append_printf(
			out,
			"# a read of an empty channel (a write to a full one) costs %" G_GUINT64_FORMAT
			" ns before it sleeps\n",
			p->block_ns);
	report_knobs(out, cfg, "# ");
	report_preemption(out, cfg, "# ");
	g_string_append_printf(out,
			       "# %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
			       " context switches, %" G_GUINT64_FORMAT " migrations\n",
			       messages, res->context_switches, res->migrations);
	if (res->deadlock)
		g_string_append(out, "# DEADLOCK: tasks blocked with no one left to wake them\n");
	g_string_append_printf(out,
			       "Total time: %" G_GUINT64_FORMAT " jiffies (%.3f simulated sec)\n",
			       res->jiffies, (double)res->runtime_ns / 1e9);
}

int linsched_cmd_hackbench(int argc, char **argv)
{
	struct linsched_cli cli;
	struct hackbench_cli hc;
	char *trace_path = NULL, *trace_format_name = NULL;
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{ "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path,
		  "Write every context switch to FILE", "FILE" },
		{ "trace-format", 0, 0, G_OPTION_ARG_STRING, &trace_format_name,
		  "ftrace (sched_switch text, default) or json (Chrome trace events, for Perfetto)",
		  "F" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- simulate the hackbench messaging benchmark");
	struct hackbench_params params;
	struct linsched_config cfg;
	enum output_format format;
	enum trace_format trace_format = TRACE_FTRACE;
	struct trace *trace = NULL;
	struct flag_set flags;
	int status = 2;

	linsched_cli_init(&cli);
	hackbench_cli_init(&hc);
	flag_set_init(&flags);
	flag_add_main_entries(&flags, ctx, entries, NULL, 0);
	g_option_context_add_group(ctx, hackbench_cli_group(&hc, true));
	g_option_context_add_group(ctx, linsched_cli_group(&cli));

	if (!g_option_context_parse(ctx, &argc, &argv, &error) ||
	    !linsched_cli_config(&cli, &cfg, &error) ||
	    !hackbench_cli_params(&hc, &cfg.machine, &params, &error) ||
	    !linsched_cli_format(&cli, &format, &error)) {
		status = linsched_usage_error("hackbench", error->message);
		goto out;
	}
	if (argc > 1) {
		status = linsched_usage_error("hackbench", "unexpected argument");
		goto out;
	}
	if (trace_format_name && !trace_path) {
		status = linsched_usage_error(
			"hackbench", "--trace-format: the format of --trace FILE; give it");
		goto out;
	}
	if (trace_format_name && strcmp(trace_format_name, "json") == 0)
		trace_format = TRACE_JSON;
	else if (trace_format_name && strcmp(trace_format_name, "ftrace") != 0) {
		status = linsched_usage_error("hackbench", "--trace-format: not ftrace or json");
		goto out;
	}
	hackbench_cli_adjust_config(&cli, &params, &cfg);
	if (trace_path && !(trace = trace_open(trace_path, trace_format, cfg.nr_cpus, &error))) {
		status = linsched_usage_error("hackbench", error->message);
		goto out;
	}

	struct linsched_sim *sim = linsched_sim_new(&cfg);
	struct hackbench *hb = hackbench_create(sim, &params);

	if (trace)
		trace_attach(trace, sim);
	linsched_sim_run(sim);

	const struct linsched_result *res = linsched_sim_result(sim);
	struct report_ctx rc = { &params, hackbench_messages(hb) };
	GString *out = g_string_new(NULL);

	if (format == FORMAT_JSON)
		report_json(out, sim, report_extra, &rc);
	else
		print_text(out, sim, &params, rc.messages);
	status = res->deadlock ? 1 : 0;
	if (trace && !trace_finish(trace, res->runtime_ns, &error)) {
		fprintf(stderr, "linsched hackbench: %s\n", error->message);
		status = 1;
	}
	fwrite(out->str, 1, out->len, stdout);
	g_string_free(out, TRUE);
	hackbench_free(hb);
	linsched_sim_free(sim);
	if (fflush(stdout) != 0)
		status = 1;
out:
	g_free(trace_path);
	g_free(trace_format_name);
	hackbench_cli_clear(&hc);
	linsched_cli_clear(&cli);
	flag_set_clear(&flags);
	return status;
}
