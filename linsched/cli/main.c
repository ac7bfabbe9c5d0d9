/*
 * main.c - the linsched program: a user-space simulation of the Linux CFS scheduler.
 */
#include <stdio.h>
#include <string.h>

#include "linsched/cli/btf.h"
#include "linsched/cli/commands.h"
#include "linsched/cli/launch.h"
#include "linsched/cli/probe.h"
#include "linsched/model_id.h"

static void usage(FILE *f)
{
	fputs("usage: linsched COMMAND [OPTIONS]\n"
	      "\n"
	      "  run        simulate simple tasks (cpu, sleeprun, randsleeprun) for a given time\n"
	      "  hackbench  simulate the hackbench messaging benchmark to completion\n"
	      "  probe      measure this machine's costs and write machine.ini (--machine FILE)\n"
	      "  launch     run a command with the kernel's wakee_flips at a known count\n"
	      "  btf        print the byte offset of a struct member from the kernel's BTF\n"
	      "\n"
	      "linsched COMMAND --help lists a command's options.\n",
	      f);
	/* So that a user can tell which journals and fitted machines this build's values match. */
	fprintf(f,
		"Model id %s: a digest of the simulator's sources, which the tuner's journals\n"
		"and fitted machine.ini files name.\n",
		linsched_model_id());
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return linsched_cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "hackbench") == 0)
		return linsched_cmd_hackbench(argc - 1, argv + 1);
	if (strcmp(argv[1], "probe") == 0)
		return linsched_probe_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "launch") == 0)
		return linsched_launch_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "btf") == 0)
		return linsched_btf_main(argc - 1, argv + 1);
	fprintf(stderr, "linsched: unknown command '%s' (run, hackbench, probe, launch, btf)\n",
		argv[1]);
	return 2;
}
