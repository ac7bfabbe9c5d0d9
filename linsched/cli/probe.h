/*
 * probe.h - `linsched probe`, the machine probe (cmd_probe.c): measures the machine it runs on
 * and writes machine.ini. It needs the C library only, so that it also links statically on its
 * own (probe_main.c, bin/linsched-probe-static) for an initramfs without GLib.
 */
#ifndef LINSCHED_PROBE_H
#define LINSCHED_PROBE_H

/* argv[0] is the command's name; returns the exit status (0, 1 failure, 2 bad input). */
int linsched_probe_main(int argc, char **argv);

#endif
