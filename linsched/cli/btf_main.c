/*
 * btf_main.c - the entry point of bin/linsched-btf-static: `linsched btf` alone, linked with
 * -static, for the VM's initramfs (vm/README.md), which has no GLib.
 */
#include "linsched/cli/btf.h"

int main(int argc, char **argv)
{
	return linsched_btf_main(argc, argv);
}
