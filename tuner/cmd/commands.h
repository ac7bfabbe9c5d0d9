/*
 * commands.h - the subcommands of the tuner program. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the exit status: 0 success, 1 failure, 2 bad input.
 */
#ifndef TUNER_COMMANDS_H
#define TUNER_COMMANDS_H

int tuner_cmd_calibrate(int argc, char **argv);
/* pso, golden, grid, random, bayes, ga: argv[0] names the optimizer (cmd_optimize.c). */
int tuner_cmd_optimize(int argc, char **argv);
/* Response surface of the knobs (cmd_rsm.c), and of PSO's own parameters (cmd_meta_pso.c). */
int tuner_cmd_rsm(int argc, char **argv);
int tuner_cmd_meta_pso(int argc, char **argv);
/* Default vs tuned knobs over group counts (cmd_scale.c); figures of result directories
 * (cmd_report.c). */
int tuner_cmd_scale(int argc, char **argv);
int tuner_cmd_report(int argc, char **argv);
/* A real trace beside a simulated one (cmd_compare.c). */
int tuner_cmd_compare(int argc, char **argv);

/* A host's stalls of a guest's vCPUs placed in the guest's trace (cmd_stalls.c). */
int tuner_cmd_stalls(int argc, char **argv);
/* Real plans beside their simulation, with the fidelity criteria (cmd_fidelity.c). */
int tuner_cmd_fidelity(int argc, char **argv);
/* The model's machine parameters fitted to real plans (cmd_fit.c). */
int tuner_cmd_fit(int argc, char **argv);
/* The real-kernel VM's own measurements: tuner vm probe (cmd_vm.c). */
int tuner_cmd_vm(int argc, char **argv);
/* The best knobs of a search against the defaults on a real kernel (cmd_validate.c). */
int tuner_cmd_validate(int argc, char **argv);
/* The live knobs a dead tuner left changed: show them, --restore them (cmd_knobs.c). */
int tuner_cmd_knobs(int argc, char **argv);

#endif
