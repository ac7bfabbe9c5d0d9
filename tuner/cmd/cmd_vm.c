/*
 * cmd_vm.c - `tuner vm SUBCOMMAND`: the real-kernel VM's own measurements.
 *
 *   tuner vm probe --out FILE [--probes 5] [--warmup 1] [--trials 15] [--quick]
 *       [--vm-cpus 2] [--vm-mem 1024] [--vm-timeout 300] [--log DIR] [--format text|json]
 *
 * `probe` boots Debian's 6.1 kernel once (tuner/vm/vm_boot.h) and runs the static `linsched
 * probe` that `make vm` put into the initramfs warmup + probes times (tuner/vm/vm_probe.h); the
 * machine.ini of the probes after the warm-up, combined (medians, with each cost's spread over the
 * probes), is checked by loading it as --machine would and then renamed over FILE, so that FILE
 * is never half written nor unreadable. It prints each value's median, lowest and highest probe,
 * and their spread ((max - min) / median).
 *
 * Exit status: 0; 2 for bad input; 1 when the VM is not prepared (run make vm), the boot fails
 * before any probe finished, no probe wrote a machine.ini, or FILE cannot be written.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "linsched/cli/probe_ring.h"
#include "linsched/json.h"
#include "linsched/machine.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/vm_cli.h"
#include "tuner/vm/vm_boot.h"
#include "tuner/vm/vm_probe.h"

struct probe_cli {
	char *out, *log, *format;
	gint64 probes, warmup, trials;
	gboolean quick;
	struct vm_cli vm;
	struct flag_set flags;
};

/* The flags' checks beyond their ranges; the boot they describe into boot. */
static gboolean check_flags(const struct probe_cli *c, VmBootConfig *boot, gboolean *json,
			    GError **error)
{
	if (!c->out)
		return cmd_usage(error, "--out: the machine.ini to write is needed");
	if (c->format && strcmp(c->format, "text") != 0 && strcmp(c->format, "json") != 0)
		return cmd_usage(error, "--format: '%s' is not text or json", c->format);
	*json = c->format && strcmp(c->format, "json") == 0;
	vm_cli_boot(&c->vm, VM_CLI_PROBE_CPUS, boot);
	boot->log_dir = c->log;
	return TRUE;
}

/* Boots once; the outputs of the probes after the warm-up (NULL for a run that failed). */
static gboolean run_probes(const struct probe_cli *c, const VmBootConfig *boot, char **kernel,
			   GPtrArray *outputs, GError **error)
{
	VmProbeOptions o = { (guint)c->probes, (guint)c->warmup, (guint)c->trials, c->quick,
			     boot->cpus };
	g_autofree char *cache = vm_boot_cache_dir(boot);
	g_autoptr(VmPlan) plan = NULL;
	VmGuest *guest = NULL;
	GError *local = NULL;

	if (!vm_probe_in_initramfs(cache, &local) || !(plan = vm_probe_plan(&o, &local)))
		return cmd_relabel(error, CMD_ERROR_FAILED, local, "");
	if (c->log && g_mkdir_with_parents(c->log, 0755) != 0)
		return cmd_usage(error, "--log: cannot create %s: %s", c->log, g_strerror(errno));
	gboolean ok = vm_boot_run(boot, plan, &guest, &local);

	if (!ok && guest && guest->runs->len > o.warmups) {
		/* A boot that died part-way keeps the probes that finished. */
		fprintf(stderr, "tuner vm probe: %s; combining the probes that finished\n",
			local->message);
		g_clear_error(&local);
		ok = TRUE;
	}
	if (ok) {
		*kernel = g_strdup(guest->kernel);
		for (guint i = 0; i < plan->runs->len; i++) {
			const VmRun *run = &g_array_index(plan->runs, VmRun, i);
			const VmGuestRun *got = vm_guest_run(guest, run->seq);

			if (run->round >= o.warmups)
				g_ptr_array_add(outputs,
						got && got->rc == 0 ? g_strdup(got->output) : NULL);
		}
	}
	vm_guest_free(guest);
	return ok || cmd_relabel(error, CMD_ERROR_FAILED, local, "");
}

/* Writes text beside path, checks it loads as a machine, renames it over path. */
static gboolean write_checked(const char *path, const char *text, GError **error)
{
	g_autofree char *tmp = g_strdup_printf("%s.tmp.XXXXXX", path);
	struct linsched_machine m;
	GError *local = NULL;
	int fd = g_mkstemp(tmp);

	if (fd < 0)
		return cmd_relabel(error, CMD_ERROR_FAILED,
				   g_error_new(G_FILE_ERROR, g_file_error_from_errno(errno),
					       "cannot create %s: %s", tmp, g_strerror(errno)),
				   "--out: ");
	close(fd);
	if (!g_file_set_contents(tmp, text, -1, &local) ||
	    !linsched_machine_load(tmp, &m, &local) || g_rename(tmp, path) != 0) {
		if (!local)
			local = g_error_new(G_FILE_ERROR, g_file_error_from_errno(errno),
					    "cannot rename %s to %s: %s", tmp, path,
					    g_strerror(errno));
		g_unlink(tmp);
		return cmd_relabel(error, CMD_ERROR_FAILED, local, "--out: ");
	}
	return TRUE;
}

static char *header(const struct probe_cli *c, const VmBootConfig *boot, const VmProbeResult *r,
		    const char *kernel)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	g_autofree char *date = g_date_time_format(now, "%Y-%m-%d");

	return g_strdup_printf(
		"machine.ini - the qemu guest of vm/ as `tuner vm probe` measured it on %s:\n"
		"kernel %s, %u vCPUs, %u MiB; %s --trials "
		"%" G_GINT64_FORMAT "%s\nrun %" G_GINT64_FORMAT
		" times in one boot, the first %" G_GINT64_FORMAT
		" left out (warm-up). Every value is the median\nof the %u probes that wrote a "
		"machine.ini; [spread] holds each cost's lowest and highest\nprobe (_min, _max) and "
		"the median of the probes' quartiles (_q1, _q3).\n`--machine FILE` loads it into a "
		"simulation.",
		date, kernel ? kernel : "?", boot->cpus, boot->mem_mb, VM_PROBE_PROGRAM, c->trials,
		c->quick ? " --quick" : "", c->warmup + c->probes, c->warmup, r->probes);
}

#define MAX_RINGS 16

/* The task cache from the probes' median rings, in place of the medians of their own caches
 * (which would mix shapes); FALSE when the probes measured no rings. */
static gboolean draw_ring_cache(VmProbeResult *r, struct probe_ring_cache *cache)
{
	static const char *const keys[] = { PROBE_RING_KEYS };
	int sizes[MAX_RINGS], n;
	double rise[MAX_RINGS], low[MAX_RINGS], hot;
	char lines[1024];

	if (!vm_probe_rings(r, sizes, rise, low, MAX_RINGS, &n, &hot))
		return FALSE;
	/* A rise that the lowest probe does not see is not one most trials see. */
	probe_ring_cache(sizes, rise, low, n, hot, cache);
	probe_ring_lines(cache, lines, sizeof(lines));
	g_autofree char *tail =
		g_strdup_printf("# the task cache, from the probes' median rings:\n%s", lines);

	vm_probe_set_costs(r, keys, G_N_ELEMENTS(keys), tail);
	return TRUE;
}

static char *text_report(const struct probe_cli *c, const VmProbeResult *r, const char *kernel)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out,
			       "tuner vm probe: %u probes (of %" G_GINT64_FORMAT
			       ") after %" G_GINT64_FORMAT " warm-up in one boot of %s\n",
			       r->probes, c->probes, c->warmup, kernel ? kernel : "?");
	g_string_append_printf(out, "  %-24s %10s %10s %10s %8s  %s\n", "", "median", "min", "max",
			       "spread", "probes");
	for (guint k = 0; k < r->values->len; k++) {
		const VmProbeValue *v = r->values->pdata[k];
		GString *each = g_string_new(NULL);

		/* The costs, and the noise the busy guest suffered. */
		if (strcmp(v->group, "costs") != 0 && strcmp(v->group, "noise") != 0)
			continue;
		for (guint i = 0; i < v->values->len; i++)
			g_string_append_printf(each, "%s%.0f", i ? " " : "",
					       g_array_index(v->values, double, i));
		g_autofree char *spread =
			v->median > 0
				? g_strdup_printf("%.0f%%", 100 * (v->max - v->min) / v->median)
				: g_strdup("-");

		g_string_append_printf(out, "  %-24s %10.0f %10.0f %10.0f %8s  %s\n", v->key,
				       v->median, v->min, v->max, spread, each->str);
		g_string_free(each, TRUE);
	}
	if (r->costs_tail)
		g_string_append(out, r->costs_tail);
	g_string_append_printf(out, "wrote %s\n", c->out);
	return g_string_free(out, FALSE);
}

static char *json_report(const struct probe_cli *c, const VmProbeResult *r, const char *kernel,
			 const struct probe_ring_cache *cache)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "kernel");
	json_string(&w, kernel ? kernel : "");
	json_key(&w, "out");
	json_string(&w, c->out);
	json_key(&w, "probes");
	json_uint(&w, r->probes);
	json_key(&w, "warmup");
	json_uint(&w, (guint64)c->warmup);
	json_key(&w, "left_out");
	json_uint(&w, r->left_out);
	json_key(&w, "values");
	json_begin_array(&w);
	for (guint k = 0; k < r->values->len; k++) {
		const VmProbeValue *v = r->values->pdata[k];

		json_begin_object(&w);
		json_key(&w, "group");
		json_string(&w, v->group);
		json_key(&w, "key");
		json_string(&w, v->key);
		json_key(&w, "median");
		json_double(&w, v->median);
		json_key(&w, "min");
		json_double(&w, v->min);
		json_key(&w, "max");
		json_double(&w, v->max);
		json_key(&w, "probes");
		json_begin_array(&w);
		for (guint i = 0; i < v->values->len; i++)
			json_double(&w, g_array_index(v->values, double, i));
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	if (cache) {
		json_key(&w, "task_cache");
		json_begin_object(&w);
		json_key(&w, "pair_ns");
		json_double(&w, cache->pair_ns);
		json_key(&w, "step_ns");
		json_double(&w, cache->step_ns);
		json_key(&w, "knee_tasks");
		json_double(&w, cache->knee_tasks);
		json_key(&w, "ways");
		json_uint(&w, (guint64)cache->ways);
		json_key(&w, "rms_ns");
		json_double(&w, cache->rms_ns);
		json_key(&w, "modelled");
		json_bool(&w, cache->step);
		if (cache->step) {
			json_key(&w, "cache_lines");
			json_uint(&w, (guint64)cache->cache_lines);
			json_key(&w, "footprint_lines");
			json_uint(&w, (guint64)cache->footprint_lines);
			json_key(&w, "miss_ps");
			json_uint(&w, (guint64)cache->miss_ps);
		}
		json_end_object(&w);
	}
	json_end_object(&w);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

static int cmd_probe(int argc, char **argv)
{
	struct probe_cli c = { .probes = 5, .warmup = 1, .trials = 15 };
	const GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c.out, "The machine.ini to write",
		  "FILE" },
		{ "probes", 'n', 0, G_OPTION_ARG_INT64, &c.probes,
		  "Probes to combine, after the warm-up (default 5)", "N" },
		{ "warmup", 0, 0, G_OPTION_ARG_INT64, &c.warmup,
		  "Probes run first and left out (default 1)", "N" },
		{ "trials", 0, 0, G_OPTION_ARG_INT64, &c.trials,
		  "Trials per measurement in each probe (default 15)", "N" },
		{ "quick", 0, 0, G_OPTION_ARG_NONE, &c.quick,
		  "Short trials (a smoke test: noisier numbers)", NULL },
		{ "log", 0, 0, G_OPTION_ARG_FILENAME, &c.log,
		  "Keep the boot's plan.txt and console.log in DIR", "DIR" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &c.format, "text (default) or json", "F" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c.probes, 1, 100),
		FLAG_INT(&c.warmup, 0, 100),
		FLAG_INT(&c.trials, 3, 1000),
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- measure the VM's guest into machine.ini");
	g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func(g_free);
	VmBootConfig boot = { 0 };
	g_autofree char *kernel = NULL;
	GError *error = NULL;
	gboolean json = FALSE;
	int status = 0;

	vm_cli_init(&c.vm);
	flag_set_init(&c.flags);
	flag_add_main_entries(&c.flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	vm_cli_add_entries(&c.vm, &c.flags, g_option_context_get_main_group(ctx), VM_CLI_PROBE);
	if (!cmd_parse(ctx, &argc, &argv, &error) || !check_flags(&c, &boot, &json, &error) ||
	    !run_probes(&c, &boot, &kernel, outputs, &error)) {
		status = cmd_fail_status("vm probe", error);
	} else {
		g_autoptr(VmProbeResult) r =
			vm_probe_combine((const char *const *)outputs->pdata, outputs->len, &error);

		struct probe_ring_cache cache;
		gboolean rings = r && draw_ring_cache(r, &cache);
		g_autofree char *head = r ? header(&c, &boot, r, kernel) : NULL;
		g_autofree char *ini = r ? vm_probe_ini(r, head) : NULL;

		if (!r) {
			status = cmd_fail_status("vm probe", error); /* a failure: status 1 */
		} else if (!write_checked(c.out, ini, &error)) {
			status = cmd_fail_status("vm probe", error);
		} else {
			g_autofree char *report =
				json ? json_report(&c, r, kernel, rings ? &cache : NULL)
				     : text_report(&c, r, kernel);

			fputs(report, stdout);
		}
	}
	g_clear_error(&error);
	g_free(c.out);
	g_free(c.log);
	g_free(c.format);
	flag_set_clear(&c.flags);
	return status;
}

int tuner_cmd_vm(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "probe") == 0)
		return cmd_probe(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		puts("usage: tuner vm probe --out FILE [OPTIONS]\n\n"
		     "  probe   run the static linsched probe in the VM's guest after a warm-up,\n"
		     "          several times in one boot, and write their machine.ini");
		return 0;
	}
	fprintf(stderr, "tuner vm: %s (tuner vm probe --help)\n",
		argc >= 2 ? "unknown subcommand" : "a subcommand is needed: probe");
	return 2;
}
