/*
 * probe_main.c - the entry point of bin/linsched-probe-static: `linsched probe` alone, linked
 * with -static, for the VM's initramfs (vm/README.md), which has no GLib.
 */
#include "linsched/cli/probe.h"

int main(int argc, char **argv)
{
	return linsched_probe_main(argc, argv);
}
