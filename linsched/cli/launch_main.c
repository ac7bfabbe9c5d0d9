/*
 * launch_main.c - the entry point of bin/linsched-launch-static: `linsched launch` alone, linked
 * with -static, for the VM's initramfs (vm/README.md), which has no GLib.
 */
#include "linsched/cli/launch.h"

int main(int argc, char **argv)
{
	return linsched_launch_main(argc, argv);
}
