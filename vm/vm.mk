# The real CFS kernel under qemu (see vm/README.md).  Included by the top Makefile.
#
#   make vm                          kernel + initramfs (with the static machine probe, the
#                                    launcher and the BTF reader) into the cache (idempotent)
#   make vm VM_EXTRA="path/to/bin"   ... with more static programs in the initramfs
#   make vm-test                     boot it once and check the guest protocol (~15 s)

VM_EXTRA ?=
# `tuner vm probe` runs it in the guest (tuner/vm/vm_probe.h).
VM_PROBE := bin/linsched-probe-static
# Real runs start their command through it to fix the kernel's wakee_flips (linsched/cli/launch.h).
VM_LAUNCH := bin/linsched-launch-static
# The guest finds task_struct.wakee_flips of its kernel through it (linsched/cli/btf.h).
VM_BTF := bin/linsched-btf-static

.PHONY: vm vm-test

vm: $(VM_PROBE) $(VM_LAUNCH) $(VM_BTF)
	vm/build.sh $(VM_PROBE) $(VM_LAUNCH) $(VM_BTF) $(VM_EXTRA)

vm-test: vm
	vm/test-boot.sh
