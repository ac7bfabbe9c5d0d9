/*
 * commands.h - the subcommands of the linsched program. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the exit status: 0 success, 1 failure, 2 bad input.
 */
#ifndef LINSCHED_COMMANDS_H
#define LINSCHED_COMMANDS_H

int linsched_cmd_run(int argc, char **argv);
int linsched_cmd_hackbench(int argc, char **argv);

/* Prints "linsched <cmd>: <message>" on stderr and returns 2, the bad-input status. */
int linsched_usage_error(const char *cmd, const char *message);

#endif
