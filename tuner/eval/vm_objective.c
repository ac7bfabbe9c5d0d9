/*
 * vm_objective.c - the real kernel in a VM as the tuner's objective (see vm_objective.h).
 */
#include "tuner/eval/vm_objective.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

char *vm_hackbench_command(guint groups, guint loops, guint fds, guint datasize, gboolean threads,
			   gboolean pipe)
{
	return g_strdup_printf("hackbench %s%s-g %u -l %u -f %u -s %u", threads ? "-T " : "-P ",
			       pipe ? "-p " : "", groups, loops, fds, datasize);
}

void vm_measurement_clear(VmMeasurement *m)
{
	g_clear_pointer(&m->seconds, g_free);
	g_clear_pointer(&m->ctxt, g_free);
	g_clear_pointer(&m->kernel, g_free);
}

void vm_objective_clear(VmObjective *vm)
{
	g_clear_pointer(&vm->command, g_free);
	g_clear_pointer(&vm->log_root, g_free);
}

/* Append the boot's runs to its runs.csv and to the root's runs.csv. */
static void write_runs(const VmObjective *vm, const char *boot_dir, const VmPlan *plan,
		       const VmGuest *guest)
{
	static const char header[] = "seq,round,setting,latency_ns,min_granularity_ns,"
				     "wakeup_granularity_ns,seconds,ctxt,rc,steal_ppm,stall_ns";
	g_autofree char *root_csv = g_build_filename(vm->log_root, "runs.csv", NULL);
	gboolean new_root = !g_file_test(root_csv, G_FILE_TEST_EXISTS);
	g_autofree char *boot_csv = g_build_filename(boot_dir, "runs.csv", NULL);
	FILE *b = fopen(boot_csv, "w"), *all = fopen(root_csv, "a");

	if (b)
		fprintf(b, "%s\n", header);
	if (all && new_root)
		fprintf(all, "boot,%s\n", header);
	for (guint i = 0; i < guest->runs->len; i++) {
		const VmGuestRun *run = &g_array_index(guest->runs, VmGuestRun, i);
		g_autofree char *row = g_strdup_printf(
			"%u,%u,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
			",%.6f,%" G_GINT64_FORMAT ",%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT,
			run->seq, run->round, run->setting, run->knobs.latency_ns,
			run->knobs.min_granularity_ns, run->knobs.wakeup_granularity_ns,
			run->time_s, run->ctxt, run->rc, run->steal_ppm, run->stall_ns);
		if (b)
			fprintf(b, "%s\n", row);
		if (all)
			fprintf(all, "%u,%s\n", vm->boots, row);
	}
	if (b)
		fclose(b);
	if (all)
		fclose(all);
	(void)plan;
}

gboolean vm_objective_measure(VmObjective *vm, const CfsKnobs *settings, guint n,
			      VmMeasurement *out, GError **error)
{
	g_autofree VmSetting *s = g_new(VmSetting, n);
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < n; i++) {
		g_ptr_array_add(ids, i == 0 ? g_strdup("defaults") : g_strdup_printf("s%u", i));
		s[i] = (VmSetting){ ids->pdata[i], settings[i] };
	}
	g_autoptr(VmPlan) plan =
		vm_plan_new(s, n, vm->command, vm->rounds, vm->seed + vm->boots, error);
	if (plan == NULL)
		return FALSE;

	vm->boots++;
	g_autofree char *boot_dir =
		vm->log_root ? g_strdup_printf("%s/boot-%03u", vm->log_root, vm->boots) : NULL;
	VmBootConfig config = vm->boot;
	config.log_dir = boot_dir;

	VmGuest *guest = NULL;
	gboolean ok = vm_boot_run(&config, plan, &guest, error);

	vm->boot.quiet = TRUE; /* the accelerator is said once */

	*out = (VmMeasurement){ .n_settings = n, .rounds = vm->rounds };
	out->seconds = g_new(double, (gsize)n * vm->rounds);
	out->ctxt = g_new(gint64, (gsize)n * vm->rounds);
	for (gsize i = 0; i < (gsize)n * vm->rounds; i++) {
		out->seconds[i] = NAN;
		out->ctxt[i] = -1;
	}
	if (guest == NULL)
		return FALSE;
	out->kernel = g_strdup(guest->kernel);
	for (guint i = 0; i < plan->runs->len; i++) {
		const VmRun *planned = &g_array_index(plan->runs, VmRun, i);
		const VmGuestRun *run = vm_guest_run(guest, planned->seq);
		gsize at = (gsize)planned->setting * vm->rounds + planned->round;

		/* A run counts only when it ran at the planned knobs and the benchmark succeeded. */
		if (run && run->rc == 0 && run->knobs_ok && isfinite(run->time_s) &&
		    run->time_s > 0) {
			out->seconds[at] = run->time_s;
			out->ctxt[at] = run->ctxt;
		}
	}
	if (boot_dir)
		write_runs(vm, boot_dir, plan, guest);
	vm_guest_free(guest);
	return ok;
}

/* The index of knobs in settings[0..*n), added when new. */
static guint setting_index(CfsKnobs *settings, guint *n, const CfsKnobs *knobs)
{
	for (guint i = 0; i < *n; i++)
		if (memcmp(&settings[i], knobs, sizeof *knobs) == 0)
			return i;
	settings[*n] = *knobs;
	return (*n)++;
}

gboolean vm_objective_batch(const JournalRecord *const *tasks, guint n, double *values, void *ctx,
			    GError **error)
{
	VmObjective *vm = ctx;
	g_autofree CfsKnobs *settings = g_new(CfsKnobs, n + 1);
	g_autofree guint *index = g_new(guint, n);
	guint n_settings = 1;

	settings[0] = vm->defaults;
	for (guint i = 0; i < n; i++)
		index[i] = setting_index(settings, &n_settings, &tasks[i]->knobs);

	VmMeasurement m;
	gboolean ok = vm_objective_measure(vm, settings, n_settings, &m, error);

	for (guint i = 0; i < n; i++) {
		guint r = tasks[i]->replicate;

		values[i] = NAN;
		if (r >= m.rounds)
			continue;
		double t = m.seconds[(gsize)index[i] * m.rounds + r], ref = m.seconds[r];
		values[i] = t / ref; /* NaN when either run is missing */
	}
	vm_measurement_clear(&m);
	return ok;
}
