/*
 * hackbench_cli.c - the hackbench workload flags (see hackbench_cli.h).
 */
#include "linsched/cli/hackbench_cli.h"

#include <string.h>

void hackbench_cli_init(struct hackbench_cli *hc)
{
	memset(hc, 0, sizeof(*hc));
	hc->groups = 10;
	hc->loops = 100;
	hc->fds = 20;
	hc->datasize = 100;
	flag_set_init(&hc->flags);
}

void hackbench_cli_clear(struct hackbench_cli *hc)
{
	g_free(hc->model);
	g_free(hc->bootstrap_file);
	g_free(hc->start);
	hc->model = hc->bootstrap_file = hc->start = NULL;
	flag_set_clear(&hc->flags);
}

GOptionGroup *hackbench_cli_group(struct hackbench_cli *hc, bool with_groups)
{
	struct hackbench_cli *o = hc;
	const GOptionEntry entries[] = {
		{ "groups", 'g', 0, G_OPTION_ARG_INT64, &o->groups,
		  "Groups of senders and receivers (default 10)", "G" },
		{ "loops", 'l', 0, G_OPTION_ARG_INT64, &o->loops,
		  "Messages each sender sends each receiver (default 100)", "L" },
		{ "fds", 'f', 0, G_OPTION_ARG_INT64, &o->fds,
		  "Senders and receivers per group (default 20)", "F" },
		{ "datasize", 's', 0, G_OPTION_ARG_INT64, &o->datasize,
		  "Bytes per message (default 100)", "BYTES" },
		{ "pipe", 'p', 0, G_OPTION_ARG_NONE, &o->pipe, "Pipes instead of socket pairs",
		  NULL },
		{ "threads", 'T', 0, G_OPTION_ARG_NONE, &o->threads,
		  "Threads (cheaper context switches)", NULL },
		{ "processes", 'P', 0, G_OPTION_ARG_NONE, &o->processes, "Processes (the default)",
		  NULL },
		{ "model", 0, 0, G_OPTION_ARG_STRING, &o->model, "fsm (default) or bootstrap",
		  "M" },
		{ "start", 0, 0, G_OPTION_ARG_STRING, &o->start,
		  "barrier (default: all created at once, the last ready releases the others) or "
		  "parent (as the real tools: a parent creates them one by one and releases them "
		  "with one write)",
		  "S" },
		{ "parent-flips", 0, 0, G_OPTION_ARG_INT64, &o->parent_flips,
		  "--start parent: the wakee_flips the parent brings from the shell that started it, "
		  "which every worker inherits at its fork and wake_wide weighs (default: the "
		  "machine's [launch] wakee_flips, else 0)",
		  "N" },
		{ "capacity-bytes", 0, 0, G_OPTION_ARG_INT64, &o->capacity_bytes,
		  "Channel capacity (default: socket 212992, pipe 65536)", "N" },
		{ "write-cost-ns", 0, 0, G_OPTION_ARG_INT64, &o->write_ns,
		  "CPU time of one write (default: socket 1090, pipe 360)", "NS" },
		{ "read-cost-ns", 0, 0, G_OPTION_ARG_INT64, &o->read_ns,
		  "CPU time of one read (default: socket 1190, pipe 370)", "NS" },
		{ "block-cost-ns", 0, 0, G_OPTION_ARG_INT64, &o->block_ns,
		  "CPU time of a read that finds its channel empty or a write that finds it full, "
		  "up to its sleep (default: the machine's socket_block_ns or pipe_block_ns, 0 "
		  "built in)",
		  "NS" },
		{ "footprint-lines", 0, 0, G_OPTION_ARG_INT64, &o->footprint,
		  "Cache footprint of each task in 64-byte lines (default: the machine's "
		  "footprint_lines, else 512)",
		  "N" },
		{ "solo-ms", 0, 0, G_OPTION_ARG_DOUBLE, &o->solo_ms,
		  "bootstrap: runtime of one group alone (default 120)", "MS" },
		{ "degradation", 0, 0, G_OPTION_ARG_DOUBLE, &o->degradation,
		  "bootstrap: RuntimeAlone / RuntimeCombined with another group in the domain (default 0.9)",
		  "D" },
		{ "bootstrap-file", 0, 0, G_OPTION_ARG_FILENAME, &o->bootstrap_file,
		  "bootstrap: read solo_ms and degradation from this file (tuner calibrate writes it)",
		  "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	/* hackbench_params_validate() checks what depends on more than one flag. */
	const struct flag_limits limits[] = {
		FLAG_INT(&o->groups, 1, 100000),
		FLAG_INT(&o->loops, 1, 1000000000),
		FLAG_INT(&o->fds, 1, 100000),
		FLAG_INT(&o->datasize, 1, 1 << 30),
		FLAG_INT(&o->capacity_bytes, 1, G_MAXINT64),
		FLAG_INT(&o->write_ns, 0, G_MAXINT32),
		FLAG_INT(&o->read_ns, 0, G_MAXINT32),
		FLAG_INT(&o->block_ns, 0, G_MAXINT32),
		FLAG_INT(&o->footprint, 0, G_MAXINT32),
		FLAG_INT(&o->parent_flips, 0, 1000000),
		FLAG_REAL(&o->solo_ms, 0, 1e9, FLAG_OPEN_LO),
		FLAG_REAL(&o->degradation, 0, 1, FLAG_OPEN_LO),
	};
	GOptionGroup *group =
		flag_group_new(&hc->flags, "workload",
			       "Hackbench workload options:", "Show hackbench workload options");

	/* The first two entries are --groups and --loops. */
	flag_group_add(&hc->flags, group, with_groups ? entries : entries + 2, limits,
		       G_N_ELEMENTS(limits));
	return group;
}

/* Whether the user gave the flag of this field of o. */
#define GIVEN(field) flag_given(&o->flags, &o->field)

/* Flags that contradict each other or the model. */
static bool check_conflicts(const struct hackbench_cli *o, GError **error)
{
	const char *bootstrap_input =
		flag_first_given(&o->flags, &o->solo_ms, &o->degradation, NULL);

	if (o->threads && o->processes) {
		g_set_error(error, CLI_ERROR, 1, "--threads and --processes: choose one");
		return false;
	}
	if ((bootstrap_input || o->bootstrap_file) &&
	    !(o->model && strcmp(o->model, "bootstrap") == 0)) {
		g_set_error(error, CLI_ERROR, 1,
			    "%s: the bootstrapped model's input; give --model bootstrap",
			    bootstrap_input ? bootstrap_input : "--bootstrap-file");
		return false;
	}
	if (bootstrap_input && o->bootstrap_file) {
		g_set_error(error, CLI_ERROR, 1,
			    "%s: --bootstrap-file gives solo_ms and degradation; choose one",
			    bootstrap_input);
		return false;
	}
	return true;
}

/* The workload of the flags with the shape of shape. */
static bool params_of(const struct hackbench_cli *o, const struct hackbench_shape *shape,
		      const struct linsched_machine *m, struct hackbench_params *p, GError **error)
{
	hackbench_params_default(p);
	if (!check_conflicts(o, error))
		return false;
	p->groups = shape->groups;
	p->loops = shape->loops;
	p->fds = shape->fds;
	p->datasize = shape->datasize;
	p->pipe = shape->pipe;
	p->threads = shape->threads;
	/* Not given: the machine's footprint (a fitted machine.ini carries one), else the model's. */
	if (GIVEN(footprint))
		p->footprint_lines = (uint64_t)o->footprint;
	else if (m && m->footprint_lines)
		p->footprint_lines = m->footprint_lines;
	if (GIVEN(capacity_bytes))
		p->capacity_bytes = (uint64_t)o->capacity_bytes;
	if (GIVEN(write_ns))
		p->write_ns = (uint64_t)o->write_ns;
	if (GIVEN(read_ns))
		p->read_ns = (uint64_t)o->read_ns;
	if (GIVEN(block_ns))
		p->block_ns = (uint64_t)o->block_ns;
	if (o->model && strcmp(o->model, "bootstrap") == 0)
		p->model = HACKBENCH_BOOTSTRAP;
	else if (o->model && strcmp(o->model, "fsm") != 0) {
		g_set_error(error, CLI_ERROR, 1, "--model: '%s' is not fsm or bootstrap", o->model);
		return false;
	}
	if (o->start && strcmp(o->start, "parent") == 0)
		p->start = HACKBENCH_START_PARENT;
	else if (o->start && strcmp(o->start, "barrier") != 0) {
		g_set_error(error, CLI_ERROR, 1, "--start: '%s' is not barrier or parent",
			    o->start);
		return false;
	}
	if (GIVEN(parent_flips) && p->start != HACKBENCH_START_PARENT) {
		g_set_error(error, CLI_ERROR, 1,
			    "--parent-flips: the workers inherit them from the parent of --start "
			    "parent");
		return false;
	}
	/* Not given: the machine's launcher, which only a parent start inherits from. */
	if (GIVEN(parent_flips))
		p->parent_flips = (unsigned int)o->parent_flips;
	else if (m && p->start == HACKBENCH_START_PARENT)
		p->parent_flips = (unsigned int)m->launch_wakee_flips;
	if (o->bootstrap_file && !hackbench_load_bootstrap_file(p, o->bootstrap_file, error))
		return false;
	if (GIVEN(solo_ms))
		p->solo_ms = o->solo_ms;
	if (GIVEN(degradation))
		p->degradation = o->degradation;
	hackbench_params_resolve_for(p, m);
	return hackbench_params_validate(p, error);
}

bool hackbench_cli_params(const struct hackbench_cli *o, const struct linsched_machine *m,
			  struct hackbench_params *p, GError **error)
{
	/* The ranges of hackbench_cli_group() keep every value inside its field's type. */
	const struct hackbench_shape own = {
		(unsigned int)o->groups,
		(unsigned int)o->loops,
		(unsigned int)o->fds,
		(unsigned int)o->datasize,
		o->pipe,
		o->threads,
	};

	return params_of(o, &own, m, p, error);
}

bool hackbench_cli_params_shaped(const struct hackbench_cli *o, const struct hackbench_shape *shape,
				 const struct linsched_machine *m, struct hackbench_params *p,
				 GError **error)
{
	return params_of(o, shape, m, p, error);
}

void hackbench_cli_adjust_config(const struct linsched_cli *cli, const struct hackbench_params *p,
				 struct linsched_config *cfg)
{
	if (!flag_given(&cli->flags, &cli->switch_cost_ns))
		cfg->costs.switch_ns = hackbench_switch_ns_on(p, &cfg->machine);
	if (!flag_given(&cli->flags, &cli->wakeup_cost_ns))
		cfg->costs.wakeup_ns = hackbench_wakeup_ns_on(p, &cfg->machine);
}
