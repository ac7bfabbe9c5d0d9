# The real CFS kernel under qemu (see vm/README.md).  Included by the top Makefile.
#
#   make vm                          kernel + initramfs into the cache (idempotent)
#   make vm VM_EXTRA="path/to/bin"   ... with extra static programs in the initramfs
#   make vm-test                     boot it once and check the guest protocol (~15 s)

VM_EXTRA ?=

.PHONY: vm vm-test

vm:
	vm/build.sh $(VM_EXTRA)

vm-test: vm
	vm/test-boot.sh
