/*
 * main.c - the tuner program: finds the CFS knob settings that make a workload finish soonest.
 */
#include <stdio.h>
#include <string.h>

#include "tuner/cmd/commands.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "calibrate", tuner_cmd_calibrate,
	  "fit real runtimes to simulated jiffies by linear regression" },
	{ "pso", tuner_cmd_optimize, "search the knobs with particle swarm optimization" },
	{ "golden", tuner_cmd_optimize, "Golden Section search on SchedPeriod (or on one knob)" },
	{ "grid", tuner_cmd_optimize,
	  "evaluate a full grid of knob settings (baseline, ground truth)" },
	{ "random", tuner_cmd_optimize, "evaluate uniformly random knob settings (baseline)" },
	{ "bayes", tuner_cmd_optimize,
	  "Bayesian optimisation (Gaussian process): fewest evaluations, noisy objectives" },
	{ "ga", tuner_cmd_optimize, "search the knobs with a real-coded genetic algorithm" },
	{ "rsm", tuner_cmd_rsm,
	  "response surface of the knobs: design, quadratic model, ANOVA, optimum" },
	{ "meta-pso", tuner_cmd_meta_pso,
	  "response surface of PSO's omega, phi_p, phi_g (Box-Behnken)" },
	{ "scale", tuner_cmd_scale,
	  "default vs tuned knobs: simulated turnaround over hackbench group counts" },
	{ "compare", tuner_cmd_compare,
	  "a real kernel's sched_switch/sched_wakeup trace beside a simulated one" },
	{ "stalls", tuner_cmd_stalls,
	  "a host's trace of the vCPU threads lined up with the guest's: where its stalls fall" },
	{ "fidelity", tuner_cmd_fidelity,
	  "real plans beside their simulation: time ratios, switches, issue 13's criteria" },
	{ "fit", tuner_cmd_fit,
	  "fit the model's machine parameters to real plans; fidelity on training and held-out plans" },
	{ "vm", tuner_cmd_vm,
	  "the real-kernel VM: probe (the static linsched probe in the guest, into machine.ini)" },
	{ "validate", tuner_cmd_validate,
	  "the best knobs of a search against the defaults, paired, on a real CFS kernel" },
	{ "report", tuner_cmd_report,
	  "gnuplot figures (PNG, SVG) and index.html for result directories" },
	{ "knobs", tuner_cmd_knobs,
	  "restore the live kernel's knobs that a killed tuner left changed (--restore)" },
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
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tuner: unknown command '%s' (tuner --help lists them)\n", argv[1]);
	return 2;
}
