/*
 * vm_boot.h - boot Debian's 6.1 kernel under qemu once, run a plan in it, and collect what the
 * guest printed (SPEC.md §7; the guest side and `make vm` are in vm/, see vm/README.md).
 *
 * `make vm` prepares the cache directory: vmlinuz, kernel.ini (package, version, release) and
 * initramfs.cpio.gz. A boot appends the plan as a second cpio archive to that initramfs, starts
 * qemu with the serial console on its stdout, reads the console line by line and feeds the
 * protocol lines to a VmGuest. qemu ends by itself when the guest powers off after "LST end", or
 * when the kernel panics (panic=1 with -no-reboot: the message prints, then qemu ends). A guest that prints nothing for silence_s seconds
 * is killed: a run that hangs is reported, and the runs that finished before it are kept.
 *
 * Acceleration: KVM only when /dev/kvm can be opened and a probe boot with an empty plan reaches
 * "LST end" within 30 s (on nested hosts without vmx the guest hangs in the firmware instead);
 * the verdict is kept in the cache (accel-probe.txt, keyed by host kernel and qemu version, the
 * file vm/run-plan.sh keeps too). Otherwise TCG with one host thread per vCPU, said on stderr.
 * LINSCHED_VM_ACCEL=kvm|tcg forces one.
 *
 * Files: every boot writes into log_dir (when not NULL): console.log (every console line),
 * plan.txt, and on failure the reason in error's message with the last console lines.
 *
 * Tests replace qemu with a fake guest: config->qemu names the program to start (default
 * qemu-system-x86_64, or $LINSCHED_VM_QEMU); it gets qemu's arguments.
 */
#ifndef TUNER_VM_VM_BOOT_H
#define TUNER_VM_VM_BOOT_H

#include <glib.h>

#include "tuner/vm/vm_guest.h"
#include "tuner/vm/vm_plan.h"

G_BEGIN_DECLS

#define VM_BOOT_ERROR (vm_boot_error_quark())
GQuark vm_boot_error_quark(void);

typedef enum {
	VM_BOOT_ERROR_SETUP,   /* no qemu, no prepared kernel or initramfs: run make vm */
	VM_BOOT_ERROR_SPAWN,   /* qemu could not be started */
	VM_BOOT_ERROR_TIMEOUT, /* the guest printed nothing for silence_s seconds: killed */
	VM_BOOT_ERROR_PANIC,   /* the guest kernel panicked */
	VM_BOOT_ERROR_EXITED,  /* qemu ended before "LST end" */
	VM_BOOT_ERROR_IO,      /* a log file could not be written */
} VmBootError;

typedef struct {
	const char
		*cache_dir;  /* NULL: $LINSCHED_VM_CACHE, else $XDG_CACHE_HOME/linsched-tuner/vm */
	const char *qemu;    /* NULL: $LINSCHED_VM_QEMU, else qemu-system-x86_64 */
	guint cpus;	     /* vCPUs, default 2 */
	guint mem_mb;	     /* default 1024 */
	guint silence_s;     /* default 300 */
	const char *log_dir; /* NULL: keep no files */
	gboolean quiet;	     /* no notes on stderr (the accelerator chosen) */
} VmBootConfig;

/* The cache directory that config names (owned by the caller). */
char *vm_boot_cache_dir(const VmBootConfig *config);

/* The kernel package and version recorded by make vm, "package version" (owned by the caller),
 * or NULL with VM_BOOT_ERROR_SETUP. */
char *vm_boot_kernel(const VmBootConfig *config, GError **error);

/*
 * Boot once and run plan. Returns the guest's report in *guest (also on a timeout, a panic or an
 * early exit, holding the runs that finished; NULL only when qemu never started) and TRUE when
 * the guest reached "LST end".
 */
gboolean vm_boot_run(const VmBootConfig *config, const VmPlan *plan, VmGuest **guest,
		     GError **error);

G_END_DECLS

#endif
