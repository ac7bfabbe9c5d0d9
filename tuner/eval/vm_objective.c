/*
 * vm_objective.c - the real kernel in a VM as the tuner's objective (see vm_objective.h).
 */
#include "tuner/eval/vm_objective.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tuner/stats/median.h"

char *vm_hackbench_command(guint groups, guint loops, guint fds, guint datasize, gboolean threads,
			   gboolean pipe)
{
	return g_strdup_printf("hackbench %s%s-g %u -l %u -f %u -s %u", threads ? "-T " : "-P ",
			       pipe ? "-p " : "", groups, loops, fds, datasize);
}

gsize vm_measurement_index(const VmMeasurement *m, guint setting, guint command, guint round)
{
	return ((gsize)setting * m->n_commands + command) * m->rounds + round;
}

gboolean vm_measurement_steal(const VmMeasurement *m, double *steal_ppm, double *stall_ns)
{
	gsize cells = (gsize)m->n_settings * m->n_commands * m->rounds, n = 0;
	g_autofree double *ppm = g_new(double, cells ? cells : 1);
	g_autofree double *stall = g_new(double, cells ? cells : 1);

	for (gsize i = 0; m->steal_ppm && i < cells; i++)
		if (m->steal_ppm[i] >= 0 && m->stall_ns[i] >= 0) {
			ppm[n] = (double)m->steal_ppm[i];
			stall[n++] = (double)m->stall_ns[i];
		}
	if (n == 0)
		return FALSE;
	*steal_ppm = stats_median(ppm, n);
	*stall_ns = stats_median(stall, n);
	return TRUE;
}

void vm_measurement_clear(VmMeasurement *m)
{
	g_clear_pointer(&m->seconds, g_free);
	g_clear_pointer(&m->ctxt, g_free);
	g_clear_pointer(&m->wall_s, g_free);
	g_clear_pointer(&m->steal_ppm, g_free);
	g_clear_pointer(&m->stall_ns, g_free);
	g_clear_pointer(&m->seq, g_free);
	g_clear_pointer(&m->kernel, g_free);
}

void vm_objective_clear(VmObjective *vm)
{
	g_clear_pointer(&vm->command, g_free);
	g_clear_pointer(&vm->log_root, g_free);
}

/* A CSV field: as it is, or quoted (quotes doubled) when it holds a comma or a quote. */
static char *csv_field(const char *text)
{
	if (!strpbrk(text, ",\""))
		return g_strdup(text);

	g_auto(GStrv) parts = g_strsplit(text, "\"", -1);
	g_autofree char *doubled = g_strjoinv("\"\"", parts);

	return g_strdup_printf("\"%s\"", doubled);
}

/* Append the boot's runs to its runs.csv and to the root's runs.csv (as boot number). */
static void write_runs(const VmObjective *vm, const char *boot_dir, guint number,
		       const VmPlan *plan, const VmGuest *guest)
{
	static const char header[] =
		"seq,round,setting,latency_ns,min_granularity_ns,"
		"wakeup_granularity_ns,seconds,ctxt,rc,steal_ppm,stall_ns,command";
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
		const VmRun *planned = run->seq < plan->runs->len
					       ? &g_array_index(plan->runs, VmRun, run->seq)
					       : NULL;
		g_autofree char *command = csv_field(planned ? vm_plan_command(plan, planned) : "");
		g_autofree char *row = g_strdup_printf(
			"%u,%u,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
			",%.6f,%" G_GINT64_FORMAT ",%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
			",%s",
			run->seq, run->round, run->setting, run->knobs.latency_ns,
			run->knobs.min_granularity_ns, run->knobs.wakeup_granularity_ns,
			run->time_s, run->ctxt, run->rc, run->steal_ppm, run->stall_ns, command);
		if (b)
			fprintf(b, "%s\n", row);
		if (all)
			fprintf(all, "%u,%s\n", number, row);
	}
	if (b)
		fclose(b);
	if (all)
		fclose(all);
}

/* Boot once with this many rounds; see vm_objective_measure_grid. */
static gboolean measure(VmObjective *vm, const VmSetting *settings, guint n,
			const char *const *commands, guint n_commands, guint rounds,
			VmMeasurement *out, GError **error)
{
	*out = (VmMeasurement){ .n_settings = n, .n_commands = n_commands, .rounds = rounds };
	gsize cells = (gsize)n * n_commands * rounds;

	out->seconds = g_new(double, cells);
	out->ctxt = g_new(gint64, cells);
	out->wall_s = g_new(double, cells);
	out->steal_ppm = g_new(gint64, cells);
	out->stall_ns = g_new(gint64, cells);
	out->seq = g_new0(guint, cells);
	for (gsize i = 0; i < cells; i++) {
		out->seconds[i] = out->wall_s[i] = NAN;
		out->ctxt[i] = out->steal_ppm[i] = out->stall_ns[i] = -1;
	}

	g_autoptr(VmPlan) plan = vm_plan_new_grid(settings, n, commands, n_commands, rounds,
						  vm->seed + vm->boots, error);
	if (plan == NULL)
		return FALSE;
	for (guint i = 0; i < plan->runs->len; i++) {
		const VmRun *planned = &g_array_index(plan->runs, VmRun, i);

		out->seq[vm_measurement_index(out, planned->setting, planned->command,
					      planned->round)] = planned->seq;
	}

	vm->boots++;

	/* The first free boot-NNN: a rerun that resumes a journal keeps the earlier boots' logs. */
	g_autofree char *boot_dir = NULL;
	guint number = vm->boots;

	while (vm->log_root) {
		boot_dir = g_strdup_printf("%s/boot-%03u", vm->log_root, number);
		if (!g_file_test(boot_dir, G_FILE_TEST_EXISTS))
			break;
		g_clear_pointer(&boot_dir, g_free);
		number++;
	}
	VmBootConfig config = vm->boot;
	config.log_dir = boot_dir;

	VmGuest *guest = NULL;
	gboolean ok = vm_boot_run(&config, plan, &guest, error);

	vm->boot.quiet = TRUE; /* the accelerator is said once */
	if (guest == NULL)
		return FALSE;
	out->kernel = g_strdup(guest->kernel);
	for (guint i = 0; i < plan->runs->len; i++) {
		const VmRun *planned = &g_array_index(plan->runs, VmRun, i);
		const VmGuestRun *run = vm_guest_run(guest, planned->seq);
		gsize at = vm_measurement_index(out, planned->setting, planned->command,
						planned->round);

		/* A run counts only when it ran at the planned knobs and the benchmark succeeded. */
		if (run && run->rc == 0 && run->knobs_ok && isfinite(run->time_s) &&
		    run->time_s > 0) {
			out->seconds[at] = run->time_s;
			out->ctxt[at] = run->ctxt;
			out->wall_s[at] = run->wall_s;
			out->steal_ppm[at] = run->steal_ppm;
			out->stall_ns[at] = run->stall_ns;
		}
	}
	if (boot_dir)
		write_runs(vm, boot_dir, number, plan, guest);
	vm_guest_free(guest);
	return ok;
}

gboolean vm_objective_measure_grid(VmObjective *vm, const VmSetting *settings, guint n,
				   const char *const *commands, guint n_commands,
				   VmMeasurement *out, GError **error)
{
	return measure(vm, settings, n, commands, n_commands, vm->rounds, out, error);
}

/* The settings of a plan named defaults, s1, s2, ... (ids owned by the array). */
static VmSetting *named_settings(const Knobs *knobs, guint n, GPtrArray *ids)
{
	VmSetting *s = g_new(VmSetting, n);

	for (guint i = 0; i < n; i++) {
		g_ptr_array_add(ids, i == 0 ? g_strdup("defaults") : g_strdup_printf("s%u", i));
		s[i] = (VmSetting){ ids->pdata[i], knobs[i] };
	}
	return s;
}

gboolean vm_objective_measure(VmObjective *vm, const Knobs *settings, guint n, VmMeasurement *out,
			      GError **error)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	g_autofree VmSetting *s = named_settings(settings, n, ids);
	const char *command = vm->command;

	return measure(vm, s, n, &command, 1, vm->rounds, out, error);
}

/* A setting of a batch's plan: knobs under one base seed (see the header). */
typedef struct {
	Knobs knobs;
	guint64 base;
} BatchSetting;

/* The index of (knobs, base) in settings[0..*n), added when new. */
static guint setting_index(BatchSetting *settings, guint *n, const Knobs *knobs, guint64 base)
{
	for (guint i = 0; i < *n; i++)
		if (memcmp(&settings[i].knobs, knobs, sizeof *knobs) == 0 &&
		    settings[i].base == base)
			return i;
	settings[*n] = (BatchSetting){ *knobs, base };
	return (*n)++;
}

static gint compare_uint(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x < y ? -1 : x > y;
}

gboolean vm_objective_batch(const JournalRecord *const *tasks, guint n, double *values, void *ctx,
			    GError **error)
{
	VmObjective *vm = ctx;
	g_autofree BatchSetting *settings = g_new(BatchSetting, n + 1);
	g_autofree guint *index = g_new(guint, n);
	g_autoptr(GArray) replicates = g_array_new(FALSE, FALSE, sizeof(guint));
	guint n_settings = 1;

	settings[0] = (BatchSetting){ vm->defaults, vm->seed };
	for (guint i = 0; i < n; i++) {
		index[i] = setting_index(settings, &n_settings, &tasks[i]->knobs,
					 tasks[i]->seed - tasks[i]->replicate);
		gboolean known = FALSE;

		for (guint j = 0; j < replicates->len && !known; j++)
			known = g_array_index(replicates, guint, j) == tasks[i]->replicate;
		if (!known)
			g_array_append_val(replicates, tasks[i]->replicate);
	}
	/* The rounds this batch lacks, in order: replicate replicates[j] takes round j. */
	g_array_sort(replicates, compare_uint);

	g_autofree Knobs *knobs = g_new(Knobs, n_settings);

	for (guint i = 0; i < n_settings; i++)
		knobs[i] = settings[i].knobs;

	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	g_autofree VmSetting *s = named_settings(knobs, n_settings, ids);
	const char *command = vm->command;
	VmMeasurement m;
	gboolean ok = measure(vm, s, n_settings, &command, 1, MAX(replicates->len, 1), &m, error);

	for (guint i = 0; i < n; i++) {
		guint round = 0;

		while (g_array_index(replicates, guint, round) != tasks[i]->replicate)
			round++;
		double t = m.seconds[vm_measurement_index(&m, index[i], 0, round)];
		double ref = m.seconds[vm_measurement_index(&m, 0, 0, round)];

		values[i] = t / ref; /* NaN when either run is missing */
	}
	vm_measurement_clear(&m);
	return ok;
}
