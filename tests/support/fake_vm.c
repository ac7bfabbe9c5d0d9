/* fake_vm.c - the fake real-kernel VM of the tests: see fake_vm.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/support/fake_vm.h"
#include "tests/support/support.h"

static const char *const vars[3] = { "LINSCHED_VM_CACHE", "LINSCHED_VM_QEMU", "LINSCHED_VM_ACCEL" };

FakeVm *fake_vm_new(void)
{
	FakeVm *f = g_new0(FakeVm, 1);
	f->dir = temp_dir("fake_vm_XXXXXX");
	g_autofree char *ini = g_build_filename(f->dir, "kernel.ini", NULL);
	g_autofree char *vmlinuz = g_build_filename(f->dir, "vmlinuz", NULL);
	g_autofree char *initramfs = g_build_filename(f->dir, "initramfs.cpio.gz", NULL);
	g_autofree char *text =
		g_strdup_printf("[kernel]\npackage=fake\nversion=1\nvmlinuz=%s\n", vmlinuz);
	g_autofree char *qemu = g_canonicalize_filename(FAKE_QEMU, NULL);

	assert_true(g_file_set_contents(ini, text, -1, NULL));
	assert_true(g_file_set_contents(vmlinuz, "kernel", -1, NULL));
	assert_true(g_file_set_contents(initramfs, "initramfs of 23 bytes\n", -1, NULL));
	f->count = g_build_filename(f->dir, "boots", NULL);
	for (int i = 0; i < 3; i++)
		f->saved[i] = g_strdup(g_getenv(vars[i]));
	g_setenv("LINSCHED_VM_CACHE", f->dir, TRUE);
	g_setenv("LINSCHED_VM_QEMU", qemu, TRUE);
	g_setenv("LINSCHED_VM_ACCEL", "tcg", TRUE);
	g_setenv("FAKE_QEMU_COUNT", f->count, TRUE);
	g_unsetenv("FAKE_QEMU_MODE");
	g_unsetenv("FAKE_QEMU_SLOW_ROUND");
	g_unsetenv("FAKE_QEMU_SLOW_FACTOR");
	g_unsetenv("FAKE_QEMU_FAIL_SEQ");
	g_unsetenv("FAKE_QEMU_PROBE_FAIL_ROUND");
	return f;
}

void fake_vm_free(FakeVm *f)
{
	for (int i = 0; i < 3; i++) {
		if (f->saved[i])
			g_setenv(vars[i], f->saved[i], TRUE);
		else
			g_unsetenv(vars[i]);
		g_free(f->saved[i]);
	}
	remove_tree(f->dir);
	g_free(f->dir);
	g_free(f->count);
	g_free(f);
}

void fake_vm_add_probe(const FakeVm *f)
{
	g_autofree char *txt = g_build_filename(f->dir, "initramfs.txt", NULL);

	assert_true(g_file_set_contents(txt,
					"hackbench=/usr/bin/hackbench\n"
					"extra=/usr/local/bin/linsched-probe-static from "
					"/somewhere/bin/linsched-probe-static\n",
					-1, NULL));
}

guint fake_vm_boots(const FakeVm *f)
{
	g_autofree char *text = NULL;
	guint n = 0;

	if (g_file_get_contents(f->count, &text, NULL, NULL))
		for (const char *c = text; *c; c++)
			n += *c == '\n';
	return n;
}
