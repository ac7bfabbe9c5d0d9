/*
 * vm_plan.c - plans of knob settings x rounds for one boot (see vm_plan.h).
 */
#include "tuner/vm/vm_plan.h"

#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(vm-plan-error-quark, vm_plan_error)
/* clang-format on */

static gboolean valid_id(const char *id)
{
	if (id == NULL || *id == '\0')
		return FALSE;
	for (const char *c = id; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '.' && *c != '_' && *c != '-')
			return FALSE;
	return TRUE;
}

static gboolean valid_command(const char *command)
{
	return command != NULL && *command != '\0' && !strpbrk(command, "\r\n");
}

static gboolean check_input(const VmSetting *settings, guint n, const char *const *commands,
			    guint n_commands, guint rounds, GError **error)
{
	const char *problem = NULL;

	if (n == 0)
		problem = "a plan needs at least one setting";
	else if (rounds == 0)
		problem = "a plan needs at least one round";
	else if (n_commands == 0)
		problem = "a plan needs at least one command";
	for (guint c = 0; !problem && c < n_commands; c++)
		if (!valid_command(commands[c]))
			problem = "the command must be one non-empty line";
	if (problem) {
		g_set_error(error, VM_PLAN_ERROR, VM_PLAN_ERROR_INPUT, "%s", problem);
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		if (!valid_id(settings[i].id)) {
			g_set_error(error, VM_PLAN_ERROR, VM_PLAN_ERROR_INPUT,
				    "setting id '%s' is not made of [A-Za-z0-9._-]",
				    settings[i].id ? settings[i].id : "");
			return FALSE;
		}
		for (guint j = 0; j < i; j++) {
			if (strcmp(settings[i].id, settings[j].id) == 0) {
				g_set_error(error, VM_PLAN_ERROR, VM_PLAN_ERROR_INPUT,
					    "setting id '%s' appears twice", settings[i].id);
				return FALSE;
			}
		}
	}
	return TRUE;
}

VmPlan *vm_plan_new(const VmSetting *settings, guint n, const char *command, guint rounds,
		    guint64 seed, GError **error)
{
	return vm_plan_new_grid(settings, n, &command, 1, rounds, seed, error);
}

VmPlan *vm_plan_new_grid(const VmSetting *settings, guint n, const char *const *commands,
			 guint n_commands, guint rounds, guint64 seed, GError **error)
{
	if (!check_input(settings, n, commands, n_commands, rounds, error))
		return NULL;

	VmPlan *plan = g_new0(VmPlan, 1);
	plan->settings = g_array_sized_new(FALSE, FALSE, sizeof(VmSetting), n);
	for (guint i = 0; i < n; i++) {
		VmSetting s = { g_strdup(settings[i].id), settings[i].knobs };
		g_array_append_val(plan->settings, s);
	}
	plan->commands = g_ptr_array_new_with_free_func(g_free);
	for (guint c = 0; c < n_commands; c++)
		g_ptr_array_add(plan->commands, g_strdup(commands[c]));
	plan->rounds = rounds;
	plan->seed = seed;

	/* Cell i is setting i / n_commands with command i % n_commands. */
	guint cells = n * n_commands;

	plan->runs = g_array_sized_new(FALSE, FALSE, sizeof(VmRun), cells * rounds);

	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)seed);
	guint *order = g_new(guint, cells);
	for (guint r = 0; r < rounds; r++) {
		for (guint i = 0; i < cells; i++)
			order[i] = i;
		gsl_ran_shuffle(rng, order, cells, sizeof *order);
		for (guint i = 0; i < cells; i++) {
			VmRun run = { plan->runs->len, r, order[i] / n_commands,
				      order[i] % n_commands, FALSE };
			g_array_append_val(plan->runs, run);
		}
	}
	g_free(order);
	gsl_rng_free(rng);
	return plan;
}

void vm_plan_free(VmPlan *plan)
{
	if (plan == NULL)
		return;
	for (guint i = 0; i < plan->settings->len; i++)
		g_free(g_array_index(plan->settings, VmSetting, i).id);
	g_array_free(plan->settings, TRUE);
	g_array_free(plan->runs, TRUE);
	g_ptr_array_free(plan->commands, TRUE);
	g_free(plan);
}

const char *vm_plan_command(const VmPlan *plan, const VmRun *run)
{
	return g_ptr_array_index(plan->commands, run->command);
}

void vm_plan_trace(VmPlan *plan, guint setting, guint round)
{
	for (guint i = 0; i < plan->runs->len; i++) {
		VmRun *run = &g_array_index(plan->runs, VmRun, i);

		if (run->setting == setting && run->round == round)
			run->trace = TRUE;
	}
}

const VmSetting *vm_plan_setting(const VmPlan *plan, guint i)
{
	return &g_array_index(plan->settings, VmSetting, i);
}

gint vm_plan_find_setting(const VmPlan *plan, const char *id)
{
	for (guint i = 0; i < plan->settings->len; i++)
		if (strcmp(vm_plan_setting(plan, i)->id, id) == 0)
			return (gint)i;
	return -1;
}

char *vm_plan_text(const VmPlan *plan)
{
	GString *out = g_string_new("LST-PLAN 1\n");

	g_string_append(out, "# seq round setting latency_ns min_granularity_ns "
			     "wakeup_granularity_ns migration_cost_ns trace command\n");
	for (guint i = 0; i < plan->runs->len; i++) {
		const VmRun *run = &g_array_index(plan->runs, VmRun, i);
		const VmSetting *s = vm_plan_setting(plan, run->setting);

		/* migration_cost_ns is not one of the searched knobs: "-" leaves it alone. */
		g_string_append_printf(out,
				       "%u %u %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
				       " %" G_GUINT64_FORMAT " - %d %s\n",
				       run->seq, run->round, s->id, s->knobs.latency_ns,
				       s->knobs.min_granularity_ns, s->knobs.wakeup_granularity_ns,
				       run->trace ? 1 : 0, vm_plan_command(plan, run));
	}
	return g_string_free(out, FALSE);
}

/* One newc entry: the 110-byte header, the name and its NUL padded to 4, the data padded to 4. */
static void cpio_entry(GByteArray *out, const char *name, guint mode, const void *data, gsize size)
{
	static const guint8 zeros[4] = { 0 };
	gsize namesize = strlen(name) + 1;
	g_autofree char *header = g_strdup_printf(
		"070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", 1u, mode, 0u, 0u, 1u,
		0u, (guint)size, 0u, 0u, 0u, 0u, (guint)namesize, 0u);

	g_byte_array_append(out, (const guint8 *)header, 110);
	g_byte_array_append(out, (const guint8 *)name, (guint)namesize);
	g_byte_array_append(out, zeros, (guint)((4 - out->len % 4) % 4));
	if (size) {
		g_byte_array_append(out, data, (guint)size);
		g_byte_array_append(out, zeros, (guint)((4 - out->len % 4) % 4));
	}
}

GBytes *vm_plan_cpio(const VmPlan *plan)
{
	g_autofree char *text = vm_plan_text(plan);
	GByteArray *out = g_byte_array_new();

	cpio_entry(out, "plan", 0100644, text, strlen(text));
	cpio_entry(out, "TRAILER!!!", 0, NULL, 0);
	return g_byte_array_free_to_bytes(out);
}
