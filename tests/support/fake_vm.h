/*
 * fake_vm.h - a stand-in for the real-kernel VM in the tests: a cache directory as `make vm`
 * leaves it (kernel.ini, a vmlinuz and an initramfs that are only placeholders) and
 * tests/tuner/fixtures/vm/fake-qemu.sh in qemu's place, which reads the plan from the initrd and
 * answers with the guest protocol (its header says how it times runs). Include <cmocka.h> first.
 */
#ifndef TESTS_SUPPORT_FAKE_VM_H
#define TESTS_SUPPORT_FAKE_VM_H

#include <glib.h>

#define FAKE_QEMU "tests/tuner/fixtures/vm/fake-qemu.sh"

typedef struct {
	char *dir;	/* the cache directory; removed by fake_vm_free */
	char *count;	/* the fake qemu appends a line here per boot */
	char *saved[3]; /* the environment fake_vm_free puts back */
} FakeVm;

/* A new fake cache; also points LINSCHED_VM_CACHE, LINSCHED_VM_QEMU and LINSCHED_VM_ACCEL at it
 * (for the programs the tests start) and clears the fake's FAKE_QEMU_MODE, FAKE_QEMU_SLOW_ROUND,
 * FAKE_QEMU_SLOW_FACTOR, FAKE_QEMU_FAIL_SEQ and FAKE_QEMU_PROBE_FAIL_ROUND. fake_vm_free puts the
 * three variables back as they were. */
FakeVm *fake_vm_new(void);
void fake_vm_free(FakeVm *f);

/* Says in the cache's initramfs.txt that the initramfs carries the static probe, as make vm
 * does (tuner vm probe checks it). */
void fake_vm_add_probe(const FakeVm *f);

/* Boots so far. */
guint fake_vm_boots(const FakeVm *f);

#endif
