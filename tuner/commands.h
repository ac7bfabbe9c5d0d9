/*
 * commands.h - the subcommands of the tuner program. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the exit status: 0 success, 1 failure, 2 bad input.
 */
#ifndef TUNER_COMMANDS_H
#define TUNER_COMMANDS_H

int tuner_cmd_calibrate(int argc, char **argv);

/* Prints "tuner <cmd>: <message>" on stderr and returns 2, the bad-input status. */
int tuner_usage_error(const char *cmd, const char *message);

#endif
