/*
 * main.c - the tuner program: finds the CFS knob settings that make a workload finish soonest.
 */
#include <stdio.h>
#include <string.h>

#include "tuner/commands.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "calibrate", tuner_cmd_calibrate, "fit real runtimes to simulated jiffies by linear regression" },
};

static void usage(FILE *f)
{
	fputs("usage: tuner COMMAND [OPTIONS]\n\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\ntuner COMMAND --help lists a command's options.\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tuner: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
