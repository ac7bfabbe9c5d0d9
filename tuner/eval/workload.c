/*
 * workload.c - the tuner's workload and objective (see workload.h).
 */
#include "tuner/eval/workload.h"

#include <math.h>
#include <string.h>

#define WORKLOAD_ERROR g_quark_from_static_string("tuner-workload")

void workload_cli_init(struct workload_cli *wc)
{
	memset(wc, 0, sizeof(*wc));
	linsched_cli_init(&wc->sim);
	hackbench_cli_init(&wc->hb);
	wc->duration_ms = 600000;
	flag_set_init(&wc->flags);
}

void workload_cli_clear(struct workload_cli *wc)
{
	linsched_cli_clear(&wc->sim);
	hackbench_cli_clear(&wc->hb);
	g_strfreev(wc->tasks);
	g_free(wc->calibration);
	wc->tasks = NULL;
	wc->calibration = NULL;
	flag_set_clear(&wc->flags);
}

void workload_add_options(struct workload_cli *wc, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{ "task", 0, 0, G_OPTION_ARG_STRING_ARRAY, &wc->tasks,
		  "Instead of hackbench: a task kind as in linsched run (repeatable); every task must exit",
		  "SPEC" },
		{ "duration-ms", 0, 0, G_OPTION_ARG_INT64, &wc->duration_ms,
		  "--task workloads: virtual time after which an unfinished run is an error (default 600000)",
		  "MS" },
		{ "calibration", 0, 0, G_OPTION_ARG_FILENAME, &wc->calibration,
		  "calibration.ini from tuner calibrate: also report predicted real milliseconds",
		  "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&wc->duration_ms, 1, 1000LL * 86400 * 365), /* a year */
	};
	GOptionGroup *group = flag_group_new(&wc->flags, "objective",
					     "Objective options:", "Show objective options");

	flag_group_add(&wc->flags, group, entries, limits, G_N_ELEMENTS(limits));
	g_option_context_add_group(ctx, group);
	g_option_context_add_group(ctx, hackbench_cli_group(&wc->hb, true));
	g_option_context_add_group(ctx, linsched_cli_group(&wc->sim));
}

bool workload_cli_parse(struct workload_cli *wc, const char *const *args, GError **error)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
	g_auto(GStrv) argv = g_new0(char *, g_strv_length((char **)args) + 2);
	int argc = 1;

	argv[0] = g_strdup("workload");
	for (size_t i = 0; args[i]; i++)
		argv[argc++] = g_strdup(args[i]);
	workload_add_options(wc, ctx);
	g_option_context_set_help_enabled(ctx, FALSE);

	/* The parser takes what it consumes out of argv: parse a copy, and free the original. */
	g_autofree char **view = g_memdup2(argv, sizeof(char *) * (gsize)(argc + 1));
	char **p = view;

	if (!g_option_context_parse(ctx, &argc, &p, error))
		return false;
	if (argc > 1) {
		g_set_error(error, WORKLOAD_ERROR, 1, "unexpected argument '%s'", p[1]);
		return false;
	}
	return true;
}

/* Flags of one kind of workload given for the other. */
static bool check_conflicts(const struct workload_cli *wc, GError **error)
{
	const char *hackbench_flag = flag_any_given(&wc->hb.flags, NULL);

	if (wc->tasks && hackbench_flag) {
		g_set_error(error, WORKLOAD_ERROR, 1,
			    "%s: a hackbench flag, but --task makes the workload those tasks",
			    hackbench_flag);
		return false;
	}
	if (!wc->tasks && flag_given(&wc->flags, &wc->duration_ms)) {
		g_set_error(error, WORKLOAD_ERROR, 1,
			    "--duration-ms: bounds --task workloads; hackbench runs to its end");
		return false;
	}
	return true;
}

static char *describe_settings(const struct workload *w)
{
	const struct linsched_config *c = &w->cfg;
	GString *s = g_string_new(NULL);

	g_string_append_printf(
		s,
		"profile=%s cpus=%u domains=%u hz=%u migration_cost=%" G_GUINT64_FORMAT
		" switch=%" G_GUINT64_FORMAT " wakeup=%" G_GUINT64_FORMAT
		" migrate=%" G_GUINT64_FORMAT " cache_lines=%" G_GUINT64_FORMAT
		" miss_ps=%" G_GUINT64_FORMAT,
		c->profile->name, c->nr_cpus, c->nr_domains, c->hz, c->tun.migration_cost,
		c->costs.switch_ns, c->costs.wakeup_ns, c->costs.migrate_ns, c->costs.cache_lines,
		c->costs.miss_ps);
	if (c->costs.jitter_cv > 0) /* absent when 0, so that earlier journals still match */
		g_string_append_printf(s, " cost_jitter=%.17g", c->costs.jitter_cv);
	if (c->profile->knobs == SCHED_KNOBS_EEVDF)
		g_string_append_printf(s, " base_slice=%" G_GUINT64_FORMAT, c->tun.base_slice);
	if (c->costs.wakeup_remote_ns)
		g_string_append_printf(s, " wakeup_remote=%" G_GUINT64_FORMAT,
				       c->costs.wakeup_remote_ns);
	/* Each absent at its default, so that earlier journals still match. */
	if (c->costs.ipi_ns)
		g_string_append_printf(s, " ipi=%" G_GUINT64_FORMAT, c->costs.ipi_ns);
	if (c->costs.wakeup_tail_ns)
		g_string_append_printf(s, " wakeup_tail=%" G_GUINT64_FORMAT,
				       c->costs.wakeup_tail_ns);
	if (c->preempt != LINSCHED_PREEMPT_FULL)
		g_string_append_printf(s, " preempt=%s", linsched_preempt_name(c->preempt));
	if (w->hackbench) {
		const struct hackbench_params *p = &w->hb;

		g_string_append_printf(
			s,
			" workload=hackbench model=%s groups=%u loops=%u fds=%u datasize=%u"
			" channel=%s mode=%s capacity=%" G_GUINT64_FORMAT
			" write=%" G_GUINT64_FORMAT " read=%" G_GUINT64_FORMAT
			" footprint=%" G_GUINT64_FORMAT " solo_ms=%.17g degradation=%.17g",
			p->model == HACKBENCH_FSM ? "fsm" : "bootstrap", p->groups, p->loops,
			p->fds, p->datasize, p->pipe ? "pipe" : "socket",
			p->threads ? "threads" : "processes", p->capacity_bytes, p->write_ns,
			p->read_ns, p->footprint_lines, p->solo_ms, p->degradation);
		struct linsched_machine builtin;

		if (p->start == HACKBENCH_START_PARENT)
			g_string_append(s, " start=parent");
		/* Only a --machine changes it; journals written before it existed stay valid. */
		linsched_machine_builtin(&builtin);
		if (p->msg_overhead != builtin.socket_msg_overhead)
			g_string_append_printf(s, " msg_overhead=%" G_GUINT64_FORMAT,
					       p->msg_overhead);
		if (p->block_ns)
			g_string_append_printf(s, " block=%" G_GUINT64_FORMAT, p->block_ns);
	} else {
		g_string_append(s, " workload=tasks");
		for (guint i = 0; i < w->tasks->len; i++) {
			const struct task_spec *t = &g_array_index(w->tasks, struct task_spec, i);

			g_string_append_printf(
				s,
				" task=%s:nice=%d:count=%u:busy_ms=%.17g:sleep_ms=%.17g:cv=%.17g:dist=%d:loops=%lu",
				t->kind, t->nice, t->count, t->busy_ms, t->sleep_ms, t->cv,
				(int)t->dist, t->loops);
			if (t->slice_ns)
				g_string_append_printf(s, ":slice_ns=%" G_GUINT64_FORMAT,
						       t->slice_ns);
		}
		g_string_append_printf(s, " duration_ns=%" G_GUINT64_FORMAT, c->duration_ns);
	}
	return g_string_free(s, FALSE);
}

bool workload_finish(const struct workload_cli *wc, struct workload *w, GError **error)
{
	memset(w, 0, sizeof(*w));
	w->tasks = g_array_new(FALSE, FALSE, sizeof(struct task_spec));
	if (!check_conflicts(wc, error) || !linsched_cli_config(&wc->sim, &w->cfg, error))
		return false;
	if (wc->tasks) {
		for (size_t i = 0; wc->tasks[i]; i++) {
			struct task_spec spec;

			if (!task_spec_parse(wc->tasks[i], &spec, error) ||
			    !task_spec_check_profile(&spec, w->cfg.profile, error))
				return false;
			if (strcmp(spec.kind, "cpu") == 0 || spec.loops == 0) {
				g_set_error(
					error, WORKLOAD_ERROR, 1,
					"--task: '%s' never exits, so it has no turnaround; give sleeprun tasks loops=N",
					wc->tasks[i]);
				return false;
			}
			g_array_append_val(w->tasks, spec);
			w->nr_tasks += spec.count;
		}
		w->cfg.duration_ns = (uint64_t)wc->duration_ms * NSEC_PER_MSEC;
	} else {
		w->hackbench = true;
		if (!hackbench_cli_params(&wc->hb, &w->cfg.machine, &w->hb, error))
			return false;
		hackbench_cli_adjust_config(&wc->sim, &w->hb, &w->cfg);
		w->nr_tasks = hackbench_nr_tasks(&w->hb);
	}
	if (wc->calibration && !(w->calibration = calibration_read(wc->calibration, error)))
		return false;
	w->knobs = knob_set_default(w->cfg.profile);
	w->settings = describe_settings(w);
	return true;
}

void workload_clear(struct workload *w)
{
	if (w->tasks)
		g_array_free(w->tasks, TRUE);
	calibration_free(w->calibration);
	g_free(w->settings);
	memset(w, 0, sizeof(*w));
}

Knobs workload_default_knobs(const struct workload *w)
{
	Knobs k = knobs_profile_default(w->cfg.profile, w->cfg.nr_cpus);

	k.migration_cost_ns = w->cfg.tun.migration_cost;
	k.base_slice_ns = w->cfg.tun.base_slice;
	return k;
}

bool workload_simulate(const struct workload *w, const Knobs *k, guint64 seed, double *jiffies,
		       GError **error)
{
	struct linsched_config cfg = w->cfg;

	knobs_apply(k, w->knobs, &cfg.tun);
	cfg.seed = seed;
	if (!linsched_config_validate(&cfg, error))
		return false;
	sched_tunables_update(&cfg.tun);

	uint64_t runtime_ns;

	if (w->hackbench) {
		struct hackbench_outcome out;

		hackbench_simulate(&cfg, &w->hb, &out);
		if (out.deadlock) {
			g_set_error(error, WORKLOAD_ERROR, 1, "the simulated workload deadlocked");
			return false;
		}
		runtime_ns = out.runtime_ns;
	} else {
		struct linsched_sim *sim = linsched_sim_new(&cfg);

		for (guint i = 0; i < w->tasks->len; i++)
			task_spec_spawn(sim, &g_array_index(w->tasks, struct task_spec, i));
		linsched_sim_run(sim);

		unsigned int alive = 0;

		for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
			struct linsched_task_stats st;

			linsched_task_stats(linsched_sim_task(sim, i), &st);
			alive += !st.exited;
		}
		runtime_ns = linsched_sim_result(sim)->runtime_ns;
		linsched_sim_free(sim);
		if (alive) {
			g_set_error(
				error, WORKLOAD_ERROR, 1,
				"%u tasks had not exited after --duration-ms %" G_GUINT64_FORMAT,
				alive, (uint64_t)(cfg.duration_ns / NSEC_PER_MSEC));
			return false;
		}
	}
	*jiffies = (double)runtime_ns * cfg.hz / 1e9;
	return true;
}

gboolean workload_objective(const Knobs *k, guint64 seed, double *value, void *ctx, GError **error)
{
	return workload_simulate(ctx, k, seed, value, error);
}

double workload_predict_ms(const struct workload *w, double jiffies)
{
	return w->calibration ? calibration_predict_ms(w->calibration, jiffies) : NAN;
}
