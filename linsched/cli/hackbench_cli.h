/*
 * hackbench_cli.h - the workload flags of `linsched hackbench` (--groups, --loops, --fds,
 * --datasize, --pipe, --threads, --model, costs, bootstrap inputs), shared with the tuner so that
 * both programs describe a workload the same way.
 */
#ifndef LINSCHED_HACKBENCH_CLI_H
#define LINSCHED_HACKBENCH_CLI_H

#include <stdbool.h>

#include <glib.h>

#include "linsched/cli/cli.h"
#include "tasks/hackbench.h"

struct hackbench_cli {
	gint64 groups, loops, fds, datasize, capacity_bytes, write_ns, read_ns, block_ns, footprint;
	gint64 parent_flips; /* the machine's [launch] wakee_flips unless given */
	gboolean pipe, threads, processes;
	char *model, *bootstrap_file, *start;
	double solo_ms, degradation;
	/* capacity, costs, solo_ms and degradation are the model's unless given; the footprint
	 * the machine's, else the model's */
	struct flag_set flags;
};

void hackbench_cli_init(struct hackbench_cli *hc);
void hackbench_cli_clear(struct hackbench_cli *hc);
/* The flags as a GOptionGroup, every number checked against its range as it is parsed;
 * with_groups false leaves out --groups/--loops for commands that sweep them themselves. */
GOptionGroup *hackbench_cli_group(struct hackbench_cli *hc, bool with_groups);
/* The workload the flags describe on machine m (whose costs and sizes fill what the flags leave
 * out: cfg->machine of the configuration the simulation flags gave); false with a one-line error
 * naming the flag. */
bool hackbench_cli_params(const struct hackbench_cli *hc, const struct linsched_machine *m,
			  struct hackbench_params *p, GError **error);

/* The shape of a workload: what a hackbench command line says. */
struct hackbench_shape {
	unsigned int groups, loops, fds, datasize;
	bool pipe, threads;
};

/* The same with the shape taken from shape instead of the flags (whose shape flags the caller
 * refuses): for workloads that say their own, such as the tuner's real plans. */
bool hackbench_cli_params_shaped(const struct hackbench_cli *hc,
				 const struct hackbench_shape *shape,
				 const struct linsched_machine *m, struct hackbench_params *p,
				 GError **error);
/* The configuration for simulating p: the task kind decides the context-switch cost (the
 * machine's for threads or processes) unless --switch-cost-ns was given, and the local wakeup's
 * (the machine's process_wakeup_ns for processes, when it has one) unless --wakeup-cost-ns was. */
void hackbench_cli_adjust_config(const struct linsched_cli *cli, const struct hackbench_params *p,
				 struct linsched_config *cfg);

#endif
