/*
 * vm_cli.h - the flags of an experiment on the real-kernel VM (Debian's 6.1 kernel under qemu,
 * tuner/eval/vm_objective.h), shared by the commands that measure there: `tuner rsm --objective
 * vm` and `tuner calibrate --real vm`.
 *
 *   --rounds N       rounds per boot, each running every setting once in a fresh order (default 5)
 *   --vm-cpus N      the guest's CPUs (default: the workload's --cpus)
 *   --vm-mem MB      the guest's memory (default 1024)
 *   --vm-timeout S   a guest silent this long is killed (default 300)
 *
 * A flag not on the command line stays VM_CLI_NOT_GIVEN, so that a command can refuse the flags
 * when it does not use the VM even when they are given with their default values.
 *
 * Errors are CMD_ERROR_USAGE naming the flag (cmd_common.h).
 */
#ifndef TUNER_CMD_VM_CLI_H
#define TUNER_CMD_VM_CLI_H

#include <glib.h>

#include "tuner/eval/vm_objective.h"

G_BEGIN_DECLS

#define VM_CLI_NOT_GIVEN G_MININT64

#define VM_CLI_DEFAULT_ROUNDS  5
#define VM_CLI_DEFAULT_MEM_MB  1024
#define VM_CLI_DEFAULT_SILENCE 300

struct vm_cli {
	gint64 rounds, cpus, mem_mb, silence_s;
};

void vm_cli_init(struct vm_cli *c);

/* Adds --rounds, --vm-cpus, --vm-mem and --vm-timeout to group; with_rounds FALSE leaves --rounds
 * out (a command that already has a flag for the rounds). */
void vm_cli_add_entries(struct vm_cli *c, GOptionGroup *group, gboolean with_rounds);

/* The first of the flags that was given ("--rounds", ...), or NULL. */
const char *vm_cli_given(const struct vm_cli *c);

/*
 * Checks the flags' ranges and sets up vm for them: rounds, the boot's CPUs (default_cpus when
 * --vm-cpus was not given), memory and silence, and the reference of every round, the 6.1
 * kernel's defaults for the guest's CPUs. command (copied) is what the guest runs; log_root
 * (copied, may be NULL) where each boot's plan, console and runs go. The seed is the caller's.
 */
gboolean vm_cli_objective(const struct vm_cli *c, guint default_cpus, const char *command,
			  const char *log_root, VmObjective *vm, GError **error);

/* The part of a journal's settings that names a VM experiment: " objective=vm cmd=... rounds=R
 * vm_cpus=N vm_mem=M kernel=..." (the command and the kernel URI-escaped). */
char *vm_cli_settings(const VmObjective *vm);

G_END_DECLS

#endif /* TUNER_CMD_VM_CLI_H */
