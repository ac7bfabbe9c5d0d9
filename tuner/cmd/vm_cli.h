/*
 * vm_cli.h - the flags of the real-kernel VM (Debian's 6.1 kernel under qemu, tuner/vm/vm_boot.h),
 * one set for every command that boots it: the optimizers' and `tuner rsm`'s `--objective vm`,
 * `tuner validate`, `tuner calibrate --real vm` and `tuner vm probe`.
 *
 *   --rounds N       rounds per boot, each running every setting once in a fresh order,
 *                    1..1000 (default 5); only for commands without a flag of their own for them
 *   --vm-cpus N      the guest's CPUs, 1..64 (default: the workload's --cpus); the probe's 2..64
 *                    (default 2: it measures wakeups across CPUs)
 *   --vm-mem MB      the guest's memory, 128..65536 (default 1024)
 *   --vm-timeout S   a guest silent this long is killed, 1..86400 (default 300)
 *
 * The entries go into the command's own group through its flag set (flags.h): their ranges are
 * checked as they are parsed, and a flag not given takes its default, so that a command that does
 * not boot can refuse them when given even with their default values (vm_cli_given()).
 */
#ifndef TUNER_CMD_VM_CLI_H
#define TUNER_CMD_VM_CLI_H

#include <glib.h>

#include "linsched/cli/flags.h"
#include "tuner/eval/vm_objective.h"

G_BEGIN_DECLS

#define VM_CLI_DEFAULT_ROUNDS  5
#define VM_CLI_DEFAULT_MEM_MB  1024
#define VM_CLI_DEFAULT_SILENCE 300
#define VM_CLI_PROBE_CPUS      2

/* Which of the flags a command takes. */
enum vm_cli_kind {
	VM_CLI_MACHINE, /* --vm-cpus, --vm-mem, --vm-timeout: a command with its own rounds */
	VM_CLI_ROUNDS,	/* those and --rounds */
	VM_CLI_PROBE,	/* those of the machine, --vm-cpus at least 2 */
};

struct vm_cli {
	gint64 rounds, cpus, mem_mb, silence_s;
	const struct flag_set *flags; /* the set the entries went into */
};

void vm_cli_init(struct vm_cli *c);

/* Adds the flags of kind to group, made for set (flag_group_new or the main group of
 * flag_add_main_entries), which then tells whether each was given. */
void vm_cli_add_entries(struct vm_cli *c, struct flag_set *set, GOptionGroup *group,
			enum vm_cli_kind kind);

/* The first of the flags that was given ("--rounds", ...), or NULL. */
const char *vm_cli_given(const struct vm_cli *c);

/* The boot's CPUs (default_cpus unless --vm-cpus was given), memory and silence into boot. */
void vm_cli_boot(const struct vm_cli *c, guint default_cpus, VmBootConfig *boot);

/*
 * Sets up vm for the flags: the rounds (a command whose rounds are a flag of its own sets them
 * after), the boot (vm_cli_boot), and the reference of every round, the 6.1 kernel's defaults for
 * the guest's CPUs. command (copied) is what the guest runs; log_root (copied, may be NULL) where
 * each boot's plan, console and runs go. The seed is the caller's.
 */
void vm_cli_objective(const struct vm_cli *c, guint default_cpus, const char *command,
		      const char *log_root, VmObjective *vm);

/* The part of a journal's settings that names a VM experiment: " objective=vm cmd=... rounds=R
 * vm_cpus=N vm_mem=M kernel=..." (the command and the kernel URI-escaped). */
char *vm_cli_settings(const VmObjective *vm);

G_END_DECLS

#endif /* TUNER_CMD_VM_CLI_H */
