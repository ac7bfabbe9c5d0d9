/*
 * launch.h - `linsched launch` (cmd_launch.c): runs a command whose wakeup history is known.
 *
 * The kernel judges a wakeup "wide" (wake_wide) from the waker's and the wakee's wakee_flips,
 * and a forked task inherits its parent's. A benchmark started from a shell therefore inherits
 * whatever the shell's ancestors did, which no file in /proc shows. The launcher first lets its
 * inherited flips decay to zero (record_wakee halves them when it wakes someone more than a
 * second after the last halving), then wakes K distinct tasks, and execs the command: the
 * command starts with exactly K wakee_flips, as `linsched hackbench --parent-flips K` starts
 * the simulated parent.
 *
 * It needs the C library only, so that it also links statically on its own (launch_main.c,
 * bin/linsched-launch-static) for the VM's initramfs, which has no GLib.
 */
#ifndef LINSCHED_LAUNCH_H
#define LINSCHED_LAUNCH_H

/* argv[0] is the command's name; returns only on failure: 1, or 2 for bad input. */
int linsched_launch_main(int argc, char **argv);

/*
 * The wakee_flips left after `halvings` rounds of waking one task, each a second or more after
 * the last, from `inherited` flips and a last wakee that was not that task: what the launcher's
 * settling does (the first round counts that task as a new wakee; the next ones do not).
 */
unsigned long linsched_launch_settled_flips(unsigned long inherited, unsigned int halvings);

#endif
