# The real CFS kernel under qemu (see vm/README.md).  Included by the top Makefile.
#
#   make vm                          kernel + initramfs (with the static machine probe and the
#                                    launcher) into the cache (idempotent)
#   make vm VM_EXTRA="path/to/bin"   ... with more static programs in the initramfs
#   make vm-test                     boot it once and check the guest protocol (~15 s)

VM_EXTRA ?=
# `tuner vm probe` runs it in the guest (tuner/vm/vm_probe.h).
VM_PROBE := bin/linsched-probe-static
# Real runs start their command through it to fix the kernel's wakee_flips (linsched/cli/launch.h).
VM_LAUNCH := bin/linsched-launch-static

.PHONY: vm vm-test

vm: $(VM_PROBE) $(VM_LAUNCH)
	vm/build.sh $(VM_PROBE) $(VM_LAUNCH) $(VM_EXTRA)

vm-test: vm
	vm/test-boot.sh
