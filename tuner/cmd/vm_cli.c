/* The flags of an experiment on the real-kernel VM: see vm_cli.h. */
#include "tuner/cmd/vm_cli.h"

#include "tuner/cmd/cmd_common.h"

void vm_cli_init(struct vm_cli *c)
{
	c->rounds = c->cpus = c->mem_mb = c->silence_s = VM_CLI_NOT_GIVEN;
}

void vm_cli_add_entries(struct vm_cli *c, GOptionGroup *group, gboolean with_rounds)
{
	const GOptionEntry entries[] = {
		{ "rounds", 0, 0, G_OPTION_ARG_INT64, &c->rounds,
		  "With the VM: rounds per boot, each running every setting once in a fresh order "
		  "(default 5)",
		  "N" },
		{ "vm-cpus", 0, 0, G_OPTION_ARG_INT64, &c->cpus,
		  "With the VM: the guest's CPUs (default: --cpus)", "N" },
		{ "vm-mem", 0, 0, G_OPTION_ARG_INT64, &c->mem_mb,
		  "With the VM: the guest's memory in MiB (default 1024)", "MB" },
		{ "vm-timeout", 0, 0, G_OPTION_ARG_INT64, &c->silence_s,
		  "With the VM: kill a guest silent this long, in s (default 300)", "S" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	g_option_group_add_entries(group, with_rounds ? entries : entries + 1);
}

const char *vm_cli_given(const struct vm_cli *c)
{
	if (c->rounds != VM_CLI_NOT_GIVEN)
		return "--rounds";
	if (c->cpus != VM_CLI_NOT_GIVEN)
		return "--vm-cpus";
	if (c->mem_mb != VM_CLI_NOT_GIVEN)
		return "--vm-mem";
	if (c->silence_s != VM_CLI_NOT_GIVEN)
		return "--vm-timeout";
	return NULL;
}

static gint64 or_default(gint64 value, gint64 fallback)
{
	return value == VM_CLI_NOT_GIVEN ? fallback : value;
}

gboolean vm_cli_objective(const struct vm_cli *c, guint default_cpus, const char *command,
			  const char *log_root, VmObjective *vm, GError **error)
{
	const CmdIntFlag ranges[] = {
		{ "--rounds", c->rounds, 1, 1000, c->rounds == VM_CLI_NOT_GIVEN },
		{ "--vm-cpus", c->cpus, 1, 64, c->cpus == VM_CLI_NOT_GIVEN },
		{ "--vm-mem", c->mem_mb, 128, 65536, c->mem_mb == VM_CLI_NOT_GIVEN },
		{ "--vm-timeout", c->silence_s, 1, 86400, c->silence_s == VM_CLI_NOT_GIVEN },
	};

	if (!cmd_check_ints(ranges, G_N_ELEMENTS(ranges), error))
		return FALSE;
	vm->rounds = (guint)or_default(c->rounds, VM_CLI_DEFAULT_ROUNDS);
	vm->boot.cpus = (guint)or_default(c->cpus, default_cpus);
	vm->boot.mem_mb = (guint)or_default(c->mem_mb, VM_CLI_DEFAULT_MEM_MB);
	vm->boot.silence_s = (guint)or_default(c->silence_s, VM_CLI_DEFAULT_SILENCE);
	/* Debian's kernel is 6.1: its defaults for the guest's CPUs are every round's reference. */
	vm->defaults = knobs_profile_default(sched_profile_find("6.1"), vm->boot.cpus);
	vm->command = g_strdup(command);
	vm->log_root = g_strdup(log_root);
	return TRUE;
}

char *vm_cli_settings(const VmObjective *vm)
{
	g_autofree char *cmd = g_uri_escape_string(vm->command, NULL, FALSE);
	g_autofree char *kernel = vm_boot_kernel(&vm->boot, NULL);
	g_autofree char *kernel_esc = g_uri_escape_string(kernel ? kernel : "?", NULL, FALSE);

	return g_strdup_printf(" objective=vm cmd=%s rounds=%u vm_cpus=%u vm_mem=%u kernel=%s", cmd,
			       vm->rounds, vm->boot.cpus, vm->boot.mem_mb, kernel_esc);
}
