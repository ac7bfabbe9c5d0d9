/*
 * cmd_validate.c - `tuner validate`: do the knobs a search found make the real kernel faster?
 *
 *     tuner validate --best result.json [--against vm|live] [--rounds N] [--out DIR]
 *         [workload flags] [--cmd 'COMMAND'] [--vm-cpus N --vm-mem MB] [--format json]
 *
 * The tuned knobs (best.knobs of a result.json of pso, golden, grid, random or rsm) and the
 * defaults run paired: each round runs both, in a fresh seeded order, in one boot of Debian's 6.1
 * kernel (--against vm, the default) or on the running kernel (--against live, which must still
 * have the CFS knobs: before 6.6; there the defaults are the values the kernel has now). SPEC.md
 * §7: under emulation only comparisons inside one boot hold, so every figure is a within-round
 * ratio.
 *
 * It prints the real improvement with its 95 % confidence interval (paired t on the log ratios,
 * tuned over defaults, round by round) and the sign test, the median times and context switches
 * of both, and beside them the improvement the search predicted (improvement_pct of the
 * result.json, the simulator's). Files in DIR: validate.csv (round,setting,seconds,ctxt: every
 * run), validate.json (the numbers above), and with --against vm the boot's plan, console and
 * runs under DIR/vm/. `tuner report DIR` draws real against simulated.
 *
 * Exit status: 0, 2 for bad input (a flag, an unreadable result.json), 1 when the experiment
 * failed (no VM, a boot that died with fewer than two complete rounds).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "linsched/json.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/cmd/vm_cli.h"
#include "tuner/eval/live_knobs.h"
#include "tuner/eval/vm_objective.h"
#include "tuner/eval/workload.h"
#include "tuner/stats/median.h"
#include "tuner/stats/paired.h"
#include "tuner/util/json_read.h"

struct validate_cli {
	struct workload_cli wc;
	char *best, *against, *cmd, *out, *knob_root;
	gint64 rounds;
	struct vm_cli vm; /* its entries are in flags */
	struct flag_set flags;
};

/* Setting 0 is the defaults, 1 the tuned knobs. */
struct validate_run {
	struct workload w;
	bool have_workload;
	enum output_format format;
	bool vm;
	Knobs knobs[2];
	KnobSet set;	      /* the knobs of the --best file: what the tuned rounds set */
	double predicted_pct; /* the search's improvement_pct; NaN when absent */
	char *command;
	char *kernel;
	guint rounds;
	double *seconds; /* [setting * rounds + round], NaN when missing */
	gint64 *ctxt;	 /* the same; -1 when missing */
	PairedStats stats;
};

static const char *const setting_names[2] = { "defaults", "tuned" };

static void validate_run_clear(struct validate_run *r)
{
	if (r->have_workload)
		workload_clear(&r->w);
	g_free(r->command);
	g_free(r->kernel);
	g_free(r->seconds);
	g_free(r->ctxt);
}

/* ---- flags and the result file -------------------------------------------------------------- */

static gboolean read_best(const char *path, struct validate_run *r, GError **error)
{
	g_autoptr(JsonReadValue) root = NULL;

	if (!cmd_read_best(path, &r->knobs[1], &r->set, &root, error))
		return FALSE;
	if (!json_read_number(root, "improvement_pct", &r->predicted_pct))
		r->predicted_pct = NAN;
	return TRUE;
}

static gboolean prepare(const struct validate_cli *c, struct validate_run *r, GError **error)
{
	GError *local = NULL;
	const char *vm_flag = vm_cli_given(&c->vm);

	if (!c->best)
		return cmd_usage(error,
				 "--best: the result.json whose best knobs to validate is needed");
	if (c->against && strcmp(c->against, "vm") != 0 && strcmp(c->against, "live") != 0)
		return cmd_usage(error, "--against: '%s' is not vm or live", c->against);
	r->vm = !c->against || strcmp(c->against, "vm") == 0;
	if (r->vm && c->knob_root)
		return cmd_usage(error, "--knob-root: only with --against live");
	if (!r->vm && vm_flag)
		return cmd_usage(error, "%s: only with --against vm", vm_flag);
	if (!workload_finish(&c->wc, &r->w, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	r->have_workload = true;
	if (!linsched_cli_format(&c->wc.sim, &r->format, &local))
		return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
	if (!c->cmd && !r->w.hackbench)
		return cmd_usage(error, "--cmd: needed for a workload other than hackbench");
	if (!r->vm && !c->cmd)
		return cmd_usage(error,
				 "--against live: needs --cmd 'COMMAND', the benchmark to time");
	r->command = c->cmd ? g_strdup(c->cmd)
			    : vm_hackbench_command(r->w.hb.groups, r->w.hb.loops, r->w.hb.fds,
						   r->w.hb.datasize, r->w.hb.threads, r->w.hb.pipe);
	r->rounds = (guint)c->rounds;
	if (!read_best(c->best, r, error))
		return FALSE;
	if (r->vm && r->set != KNOB_SET_CFS)
		return cmd_usage(error,
				 "--best: %s has other knobs than CFS's three; the VM's 6.1 "
				 "kernel is set with those three only (use --against live)",
				 c->best);
	return cmd_prepare_out(c->out, error);
}

/* ---- the experiment ------------------------------------------------------------------------- */

static gboolean measure_vm(const struct validate_cli *c, struct validate_run *r, GError **error)
{
	g_autofree char *log_root = c->out ? g_build_filename(c->out, "vm", NULL) : NULL;
	VmObjective vm = { 0 };
	VmMeasurement m;

	vm_cli_objective(&c->vm, r->w.cfg.nr_cpus, r->command, log_root, &vm);
	vm.rounds = r->rounds; /* validate's own --rounds, for the live kernel too */
	vm.seed = r->w.cfg.seed;
	r->knobs[0] = vm.defaults;
	gboolean ok = vm_objective_measure(&vm, r->knobs, 2, &m, error);
	r->seconds = g_steal_pointer(&m.seconds);
	r->ctxt = g_steal_pointer(&m.ctxt);
	r->kernel = g_steal_pointer(&m.kernel);
	vm_measurement_clear(&m);
	vm_objective_clear(&vm);
	return ok;
}

static gint64 read_ctxt(void)
{
	g_autofree char *stat = NULL;
	const char *line;

	if (!g_file_get_contents("/proc/stat", &stat, NULL, NULL) ||
	    !(line = strstr(stat, "\nctxt ")))
		return -1;
	return g_ascii_strtoll(line + 6, NULL, 10);
}

/* The running kernel: its knobs now are the defaults; each round in a seeded order. */
static gboolean measure_live(const struct validate_cli *c, struct validate_run *r, GError **error)
{
	g_auto(GStrv) argv = NULL;
	g_autoptr(LiveKnobs) live = NULL;

	if (!g_shell_parse_argv(r->command, NULL, &argv, error) ||
	    !(live = live_knobs_open_set(c->knob_root, r->set, error)) ||
	    !live_knobs_catch_signals(error))
		return FALSE;
	r->knobs[0] = *live_knobs_saved(live);
	r->kernel = g_strdup("live");
	r->seconds = g_new(double, 2 * r->rounds);
	r->ctxt = g_new(gint64, 2 * r->rounds);

	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)r->w.cfg.seed);
	gboolean ok = TRUE;
	for (guint round = 0; round < r->rounds && ok; round++) {
		guint order[2] = { 0, 1 };
		gsl_ran_shuffle(rng, order, 2, sizeof *order);
		for (int i = 0; i < 2 && ok; i++) {
			guint s = order[i];
			double ms;
			gint64 before = read_ctxt();

			ok = live_knobs_run_cmd(live, &r->knobs[s], argv, &ms, error);
			gint64 after = read_ctxt();
			r->seconds[s * r->rounds + round] = ok ? ms / 1000.0 : NAN;
			r->ctxt[s * r->rounds + round] =
				before >= 0 && after >= before ? after - before : -1;
		}
	}
	gsl_rng_free(rng);
	return ok;
}

/* Median seconds and context switches of setting s over its measured rounds. */
static void medians(const struct validate_run *r, guint s, double *seconds, double *ctxt)
{
	g_autofree double *t = g_new(double, r->rounds), *x = g_new(double, r->rounds);
	size_t nt = 0, nx = 0;

	for (guint i = 0; i < r->rounds; i++) {
		if (isfinite(r->seconds[s * r->rounds + i]))
			t[nt++] = r->seconds[s * r->rounds + i];
		if (r->ctxt[s * r->rounds + i] >= 0)
			x[nx++] = (double)r->ctxt[s * r->rounds + i];
	}
	*seconds = stats_median(t, nt);
	*ctxt = stats_median(x, nx);
}

/* The rounds where both runs finished; fewer than 2 fail the experiment. */
static gboolean compare(struct validate_run *r, GError **error)
{
	g_autofree double *tuned = g_new(double, r->rounds), *def = g_new(double, r->rounds);
	guint n = 0;

	for (guint i = 0; i < r->rounds; i++) {
		double d = r->seconds[i], t = r->seconds[r->rounds + i];
		if (isfinite(d) && isfinite(t) && d > 0 && t > 0) {
			def[n] = d;
			tuned[n++] = t;
		}
	}
	if (n < 2 || !paired_log_ratio(tuned, def, n, 0.95, &r->stats)) {
		g_set_error(error, CMD_ERROR, CMD_ERROR_FAILED,
			    "only %u of %u rounds have both runs: too few to compare", n,
			    r->rounds);
		return FALSE;
	}
	return TRUE;
}

/* ---- output --------------------------------------------------------------------------------- */

static char *text_report(const struct validate_run *r, const char *best)
{
	const PairedStats *s = &r->stats;
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "tuner validate: the best knobs of %s against the defaults\n",
			       best);
	g_string_append_printf(out, "%u rounds of '%s' on %s%s\n\n", r->rounds, r->command,
			       r->vm ? "Debian's kernel in a VM, " : "the running kernel",
			       r->vm ? r->kernel : "");
	/* The widths of the three CFS columns, as before knob sets; other knobs get their own. */
	static const int width[KNOB_COUNT] = { 12, 20, 22, 19, 15 };

	g_string_append_printf(out, "  %-9s", "");
	for (int k = 0; k < KNOB_COUNT; k++)
		if (r->set & KNOB_BIT(k))
			g_string_append_printf(out, " %*s", width[k],
					       knob_info((enum knob)k)->column);
	g_string_append_printf(out, " %12s %12s\n", "median s", "median ctxt");
	for (guint i = 0; i < 2; i++) {
		double sec, ctxt;

		medians(r, i, &sec, &ctxt);
		g_string_append_printf(out, "  %-9s", setting_names[i]);
		for (int k = 0; k < KNOB_COUNT; k++)
			if (r->set & KNOB_BIT(k))
				g_string_append_printf(out, " %*.0f", width[k],
						       knob_get(&r->knobs[i], (enum knob)k));
		g_string_append_printf(out, " %12.4f %12.0f\n", sec, ctxt);
	}
	g_string_append_printf(
		out,
		"\nreal improvement: %.1f %% [95 %% CI %.1f, %.1f] over %u paired rounds "
		"(tuned/defaults %.3f, t = %.2f, p = %.3g)\n",
		paired_improvement_pct(s->ratio), paired_improvement_pct(s->ratio_hi),
		paired_improvement_pct(s->ratio_lo), s->n, s->ratio, s->t, s->p);
	g_string_append_printf(out,
			       "sign test: tuned faster in %u, slower in %u rounds, p = %.3g\n",
			       s->below, s->above, s->sign_p);
	if (isfinite(r->predicted_pct))
		g_string_append_printf(out, "predicted by the search: %.1f %%\n", r->predicted_pct);
	return g_string_free(out, FALSE);
}

static void json_setting(struct json_writer *w, const struct validate_run *r, guint s)
{
	double sec, ctxt;

	medians(r, s, &sec, &ctxt);
	json_begin_object(w);
	json_key(w, "knobs");
	json_begin_object(w);
	for (int k = 0; k < KNOB_COUNT; k++) {
		if (!(r->set & KNOB_BIT(k)))
			continue;
		json_key(w, knob_info((enum knob)k)->column);
		json_uint(w, (guint64)knob_get(&r->knobs[s], (enum knob)k));
	}
	json_end_object(w);
	json_key(w, "median_seconds");
	json_double(w, sec);
	json_key(w, "median_ctxt");
	json_double(w, ctxt);
	json_end_object(w);
}

static char *json_report(const struct validate_run *r, const char *best)
{
	const PairedStats *s = &r->stats;
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "best_file");
	json_string(&w, best);
	json_key(&w, "against");
	json_string(&w, r->vm ? "vm" : "live");
	json_key(&w, "kernel");
	json_string(&w, r->kernel ? r->kernel : "");
	json_key(&w, "command");
	json_string(&w, r->command);
	json_key(&w, "rounds");
	json_uint(&w, r->rounds);
	json_key(&w, "pairs");
	json_uint(&w, s->n);
	for (guint i = 0; i < 2; i++) {
		json_key(&w, setting_names[i]);
		json_setting(&w, r, i);
	}
	json_key(&w, "real");
	json_begin_object(&w);
	json_key(&w, "improvement_pct");
	json_double(&w, paired_improvement_pct(s->ratio));
	json_key(&w, "ci95_low_pct");
	json_double(&w, paired_improvement_pct(s->ratio_hi));
	json_key(&w, "ci95_high_pct");
	json_double(&w, paired_improvement_pct(s->ratio_lo));
	json_key(&w, "ratio");
	json_double(&w, s->ratio);
	json_key(&w, "t");
	json_double(&w, s->t);
	json_key(&w, "p");
	json_double(&w, s->p);
	json_key(&w, "sign_faster");
	json_uint(&w, s->below);
	json_key(&w, "sign_slower");
	json_uint(&w, s->above);
	json_key(&w, "sign_p");
	json_double(&w, s->sign_p);
	json_end_object(&w);
	json_key(&w, "predicted_improvement_pct");
	json_double(&w, r->predicted_pct);
	json_end_object(&w);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

static char *csv_report(const struct validate_run *r)
{
	GString *out = g_string_new("round,setting,seconds,ctxt\n");

	for (guint round = 0; round < r->rounds; round++)
		for (guint s = 0; s < 2; s++)
			g_string_append_printf(out, "%u,%s,%.6f,%" G_GINT64_FORMAT "\n", round,
					       setting_names[s], r->seconds[s * r->rounds + round],
					       r->ctxt[s * r->rounds + round]);
	return g_string_free(out, FALSE);
}

/* Write name into dir through a temporary file, so that no half-written file is left. */
static gboolean write_file(const char *dir, const char *name, const char *text, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	if (g_file_set_contents(path, text, -1, error))
		return TRUE;
	g_prefix_error(error, "cannot write %s: ", path);
	(*error)->domain = CMD_ERROR;
	(*error)->code = CMD_ERROR_FAILED;
	return FALSE;
}

int tuner_cmd_validate(int argc, char **argv)
{
	struct validate_cli c = { .rounds = 10 };
	struct validate_run r = { .predicted_pct = NAN };
	GError *error = NULL;
	const GOptionEntry entries[] = {
		{ "best", 0, 0, G_OPTION_ARG_FILENAME, &c.best,
		  "result.json of pso, golden, grid, random or rsm: its best.knobs", "FILE" },
		{ "against", 0, 0, G_OPTION_ARG_STRING, &c.against,
		  "vm (Debian's 6.1 kernel under qemu, default) or live (the running kernel)",
		  "K" },
		{ "rounds", 0, 0, G_OPTION_ARG_INT64, &c.rounds,
		  "Rounds, each running both settings in a fresh order (default 10)", "N" },
		{ "cmd", 0, 0, G_OPTION_ARG_STRING, &c.cmd,
		  "The benchmark (default: hackbench with the workload's flags)", "COMMAND" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &c.out,
		  "Write DIR/validate.json, DIR/validate.csv (and DIR/vm/)", "DIR" },
		{ "knob-root", 0, 0, G_OPTION_ARG_FILENAME, &c.knob_root,
		  "With --against live: the directory holding proc/ and sys/ (default /)", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c.rounds, 2, 1000),
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- the tuned knobs on a real kernel");
	int status = 0;

	workload_cli_init(&c.wc);
	flag_set_init(&c.flags);
	vm_cli_init(&c.vm);
	flag_add_main_entries(&c.flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	vm_cli_add_entries(&c.vm, &c.flags, g_option_context_get_main_group(ctx), VM_CLI_MACHINE);
	workload_add_options(&c.wc, ctx);
	gboolean measured = FALSE;

	if (cmd_parse(ctx, &argc, &argv, &error) && prepare(&c, &r, &error)) {
		measured = r.vm ? measure_vm(&c, &r, &error) : measure_live(&c, &r, &error);
		/* A boot that died part-way keeps its finished rounds: compare those. */
		if (!measured && (g_error_matches(error, VM_BOOT_ERROR, VM_BOOT_ERROR_TIMEOUT) ||
				  g_error_matches(error, VM_BOOT_ERROR, VM_BOOT_ERROR_PANIC) ||
				  g_error_matches(error, VM_BOOT_ERROR, VM_BOOT_ERROR_EXITED))) {
			fprintf(stderr, "tuner validate: %s; comparing the rounds that finished\n",
				error->message);
			g_clear_error(&error);
			measured = TRUE;
		}
	}
	if (!measured || !compare(&r, &error)) {
		status = cmd_fail_status("validate", error);
	} else {
		g_autofree char *json = json_report(&r, c.best);
		g_autofree char *csv = csv_report(&r);

		if (c.out && (!write_file(c.out, "validate.csv", csv, &error) ||
			      !write_file(c.out, "validate.json", json, &error))) {
			status = cmd_fail_status("validate", error);
		} else if (r.format == FORMAT_JSON) {
			fputs(json, stdout);
		} else {
			g_autofree char *text = text_report(&r, c.best);
			fputs(text, stdout);
		}
	}
	g_clear_error(&error);
	validate_run_clear(&r);
	workload_cli_clear(&c.wc);
	flag_set_clear(&c.flags);
	g_free(c.best);
	g_free(c.against);
	g_free(c.cmd);
	g_free(c.out);
	g_free(c.knob_root);
	return status;
}
