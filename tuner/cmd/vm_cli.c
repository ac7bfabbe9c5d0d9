/* The flags of the real-kernel VM: see vm_cli.h. */
#include "tuner/cmd/vm_cli.h"

void vm_cli_init(struct vm_cli *c)
{
	c->rounds = VM_CLI_DEFAULT_ROUNDS;
	c->cpus = 0; /* vm_cli_boot's default_cpus */
	c->mem_mb = VM_CLI_DEFAULT_MEM_MB;
	c->silence_s = VM_CLI_DEFAULT_SILENCE;
	c->flags = NULL;
}

void vm_cli_add_entries(struct vm_cli *c, struct flag_set *set, GOptionGroup *group,
			enum vm_cli_kind kind)
{
	const GOptionEntry entries[] = {
		{ "rounds", 0, 0, G_OPTION_ARG_INT64, &c->rounds,
		  "With the VM: rounds per boot, each running every setting once in a fresh order "
		  "(default 5)",
		  "N" },
		{ "vm-cpus", 0, 0, G_OPTION_ARG_INT64, &c->cpus,
		  kind == VM_CLI_PROBE ? "The guest's CPUs, at least 2 (default 2)"
				       : "The guest's CPUs (default: the simulation's --cpus)",
		  "N" },
		{ "vm-mem", 0, 0, G_OPTION_ARG_INT64, &c->mem_mb,
		  "The guest's memory in MiB (default 1024)", "MB" },
		{ "vm-timeout", 0, 0, G_OPTION_ARG_INT64, &c->silence_s,
		  "Kill a guest silent this long, in s (default 300)", "S" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c->rounds, 1, 1000),
		FLAG_INT(&c->cpus, kind == VM_CLI_PROBE ? VM_CLI_PROBE_CPUS : 1, 64),
		FLAG_INT(&c->mem_mb, 128, 65536),
		FLAG_INT(&c->silence_s, 1, 86400),
	};

	c->flags = set;
	flag_group_add(set, group, kind == VM_CLI_ROUNDS ? entries : entries + 1, limits,
		       G_N_ELEMENTS(limits));
}

const char *vm_cli_given(const struct vm_cli *c)
{
	return flag_first_given(c->flags, &c->rounds, &c->cpus, &c->mem_mb, &c->silence_s, NULL);
}

void vm_cli_boot(const struct vm_cli *c, guint default_cpus, VmBootConfig *boot)
{
	/* The ranges of vm_cli_add_entries() keep every value inside a guint. */
	boot->cpus = flag_given(c->flags, &c->cpus) ? (guint)c->cpus : default_cpus;
	boot->mem_mb = (guint)c->mem_mb;
	boot->silence_s = (guint)c->silence_s;
}

void vm_cli_objective(const struct vm_cli *c, guint default_cpus, const char *command,
		      const char *log_root, VmObjective *vm)
{
	vm->rounds = (guint)c->rounds;
	vm_cli_boot(c, default_cpus, &vm->boot);
	/* Debian's kernel is 6.1: its defaults for the guest's CPUs are every round's reference. */
	vm->defaults = knobs_profile_default(sched_profile_find("6.1"), vm->boot.cpus);
	vm->command = g_strdup(command);
	vm->log_root = g_strdup(log_root);
}

char *vm_cli_settings(const VmObjective *vm)
{
	g_autofree char *cmd = g_uri_escape_string(vm->command, NULL, FALSE);
	g_autofree char *kernel = vm_boot_kernel(&vm->boot, NULL);
	g_autofree char *kernel_esc = g_uri_escape_string(kernel ? kernel : "?", NULL, FALSE);

	return g_strdup_printf(" objective=vm cmd=%s rounds=%u vm_cpus=%u vm_mem=%u kernel=%s", cmd,
			       vm->rounds, vm->boot.cpus, vm->boot.mem_mb, kernel_esc);
}
