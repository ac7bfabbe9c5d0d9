/*
 * report.c - results as JSON or text (see report.h).
 */
#include "linsched/report.h"

/* The host's tick that stalls or turns go by, when there is one (costs.host_hz). */
static void write_host_ticks(struct json_writer *w, const struct linsched_costs *c)
{
	if (!c->host_hz)
		return;
	json_key(w, "host_hz");
	json_uint(w, c->host_hz);
	json_key(w, "host_lead_ns");
	json_uint(w, c->host_lead_ns);
}

static void write_knobs(struct json_writer *w, const struct linsched_config *cfg)
{
	json_key(w, "knobs");
	json_begin_object(w);
	if (cfg->profile->knobs == SCHED_KNOBS_EEVDF) {
		json_key(w, "base_slice_ns");
		json_uint(w, cfg->tun.base_slice);
	} else {
		json_key(w, "latency_ns");
		json_uint(w, cfg->tun.latency);
		json_key(w, "min_granularity_ns");
		json_uint(w, cfg->tun.min_granularity);
		json_key(w, "wakeup_granularity_ns");
		json_uint(w, cfg->tun.wakeup_granularity);
	}
	json_key(w, "migration_cost_ns");
	json_uint(w, cfg->tun.migration_cost);
	json_end_object(w);

	json_key(w, "costs");
	json_begin_object(w);
	json_key(w, "switch_ns");
	json_uint(w, cfg->costs.switch_ns);
	json_key(w, "wakeup_ns");
	json_uint(w, cfg->costs.wakeup_ns);
	json_key(w, "wakeup_remote_ns");
	json_uint(w, cfg->costs.wakeup_remote_ns);
	if (cfg->costs.ipi_ns) {
		json_key(w, "ipi_ns");
		json_uint(w, cfg->costs.ipi_ns);
	}
	if (cfg->costs.wakeup_tail_ns) {
		json_key(w, "wakeup_tail_ns");
		json_uint(w, cfg->costs.wakeup_tail_ns);
	}
	json_key(w, "migrate_ns");
	json_uint(w, cfg->costs.migrate_ns);
	json_key(w, "cache_lines");
	json_uint(w, cfg->costs.cache_lines);
	json_key(w, "miss_ps");
	json_uint(w, cfg->costs.miss_ps);
	if (cfg->costs.cache_ways) {
		json_key(w, "cache_ways");
		json_uint(w, cfg->costs.cache_ways);
	}
	if (cfg->costs.data_cache_lines) {
		json_key(w, "data_cache_lines");
		json_uint(w, cfg->costs.data_cache_lines);
		json_key(w, "data_miss_ps");
		json_uint(w, cfg->costs.data_miss_ps);
	}
	if (cfg->costs.jitter_cv > 0) {
		json_key(w, "jitter_cv");
		json_double(w, cfg->costs.jitter_cv);
	}
	if (cfg->costs.steal_ppm) {
		json_key(w, "steal_ppm");
		json_uint(w, cfg->costs.steal_ppm);
		write_host_ticks(w, &cfg->costs);
		json_key(w, "stall_ns");
		json_uint(w, cfg->costs.stall_ns);
		/* On the host's ticks the stalls are whole ticks: no spread of their own. */
		if (!cfg->costs.host_hz) {
			json_key(w, "stall_cv");
			json_double(w, cfg->costs.stall_cv);
		}
	}
	if (cfg->costs.host_cpus) {
		json_key(w, "host_cpus");
		json_uint(w, cfg->costs.host_cpus);
		json_key(w, "turn_ns");
		json_uint(w, cfg->costs.stall_ns);
		if (cfg->costs.shared_ns) {
			json_key(w, "shared_ns");
			json_uint(w, cfg->costs.shared_ns);
			json_key(w, "apart_ns");
			json_uint(w, cfg->costs.apart_ns);
		}
		if (cfg->costs.host_hz) {
			/* Once: the steal of the spells apart wrote them. */
			if (!cfg->costs.steal_ppm)
				write_host_ticks(w, &cfg->costs);
		} else {
			json_key(w, "turn_cv");
			json_double(w, cfg->costs.stall_cv);
		}
	}
	json_end_object(w);
}

static void write_task(struct json_writer *w, const struct linsched_task *t)
{
	struct linsched_task_stats st;

	linsched_task_stats(t, &st);
	json_begin_object(w);
	json_key(w, "id");
	json_int(w, st.id);
	json_key(w, "name");
	json_string(w, st.name);
	json_key(w, "nice");
	json_int(w, st.nice);
	json_key(w, "cpu");
	json_int(w, st.cpu);
	json_key(w, "sum_exec_ns");
	json_uint(w, st.sum_exec_ns);
	json_key(w, "run_delay_ns");
	json_uint(w, st.run_delay_ns);
	json_key(w, "pcount");
	json_uint(w, st.pcount);
	json_key(w, "nr_voluntary_switches");
	json_uint(w, st.nvcsw);
	json_key(w, "nr_involuntary_switches");
	json_uint(w, st.nivcsw);
	json_key(w, "nr_migrations");
	json_uint(w, st.nr_migrations);
	json_key(w, "exit_ns");
	if (st.exited)
		json_uint(w, st.exit_ns);
	else
		json_null(w);
	json_end_object(w);
}

void report_json(GString *out, const struct linsched_sim *sim, report_extra_fn extra, void *ctx)
{
	const struct linsched_config *cfg = linsched_sim_config(sim);
	const struct linsched_result *res = linsched_sim_result(sim);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "profile");
	json_string(&w, cfg->profile->name);
	json_key(&w, "cpus");
	json_uint(&w, cfg->nr_cpus);
	json_key(&w, "domains");
	json_uint(&w, cfg->nr_domains);
	json_key(&w, "hz");
	json_uint(&w, cfg->hz);
	json_key(&w, "preempt");
	json_string(&w, linsched_preempt_name(cfg->preempt));
	json_key(&w, "seed");
	json_uint(&w, cfg->seed);
	json_key(&w, "runtime_ns");
	json_uint(&w, res->runtime_ns);
	json_key(&w, "jiffies");
	json_uint(&w, res->jiffies);
	json_key(&w, "context_switches");
	json_uint(&w, res->context_switches);
	json_key(&w, "migrations");
	json_uint(&w, res->migrations);
	json_key(&w, "wakeups");
	json_begin_object(&w);
	json_key(&w, "all");
	json_uint(&w, res->wakeups);
	json_key(&w, "remote");
	json_uint(&w, res->wakeups_remote);
	json_key(&w, "affine_attempts");
	json_uint(&w, res->wake_affine_attempts);
	json_key(&w, "affine");
	json_uint(&w, res->wake_affine_moves);
	json_end_object(&w);
	if (cfg->costs.data_cache_lines) {
		json_key(&w, "data_miss_lines");
		json_uint(&w, res->data_miss_lines);
	}
	json_key(&w, "deadlock");
	json_bool(&w, res->deadlock);
	json_key(&w, "cpus_busy_ns");
	json_begin_array(&w);
	for (unsigned int i = 0; i < res->nr_cpus; i++)
		json_uint(&w, res->cpu_busy_ns[i]);
	json_end_array(&w);
	write_knobs(&w, cfg);
	if (extra)
		extra(&w, ctx);
	json_key(&w, "tasks");
	json_begin_array(&w);
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++)
		write_task(&w, linsched_sim_task(sim, i));
	json_end_array(&w);
	json_end_object(&w);
}

void report_text(GString *out, const struct linsched_sim *sim)
{
	const struct linsched_config *cfg = linsched_sim_config(sim);
	const struct linsched_result *res = linsched_sim_result(sim);
	double runtime_s = (double)res->runtime_ns / 1e9;

	g_string_append_printf(
		out, "profile %s, %u CPUs in %u domain(s), HZ %u, seed %" G_GUINT64_FORMAT "\n",
		cfg->profile->name, cfg->nr_cpus, cfg->nr_domains, cfg->hz, cfg->seed);
	report_variation(out, cfg, "");
	report_knobs(out, cfg, "");
	report_preemption(out, cfg, "");
	g_string_append_printf(
		out, "runtime: %" G_GUINT64_FORMAT " jiffies (%.6f s)%s\n", res->jiffies, runtime_s,
		res->deadlock ? "  DEADLOCK: tasks blocked with no one left to wake them" : "");
	g_string_append_printf(
		out, "context switches: %" G_GUINT64_FORMAT ", migrations: %" G_GUINT64_FORMAT "\n",
		res->context_switches, res->migrations);
	g_string_append_printf(out,
			       "wakeups: %" G_GUINT64_FORMAT ", onto another CPU than the waker's: "
			       "%" G_GUINT64_FORMAT ", wake_affine weighed %" G_GUINT64_FORMAT
			       " and moved %" G_GUINT64_FORMAT "\n",
			       res->wakeups, res->wakeups_remote, res->wake_affine_attempts,
			       res->wake_affine_moves);
	for (unsigned int i = 0; i < res->nr_cpus; i++)
		g_string_append_printf(out, "cpu %u: busy %.2f%%\n", i,
				       res->runtime_ns ? 100.0 * (double)res->cpu_busy_ns[i] /
								 (double)res->runtime_ns
						       : 0.0);

	g_string_append_printf(out, "\n%4s %-15s %4s %3s %12s %7s %12s %9s %8s %8s %6s %12s\n",
			       "id", "name", "nice", "cpu", "exec_ms", "share%", "delay_ms",
			       "pcount", "vcsw", "ivcsw", "migr", "exit_ms");
	for (unsigned int i = 0; i < linsched_sim_nr_tasks(sim); i++) {
		struct linsched_task_stats st;

		linsched_task_stats(linsched_sim_task(sim, i), &st);
		g_string_append_printf(
			out,
			"%4d %-15s %4d %3d %12.3f %7.2f %12.3f %9lu %8lu %8lu %6" G_GUINT64_FORMAT,
			st.id, st.name, st.nice, st.cpu, (double)st.sum_exec_ns / 1e6,
			res->runtime_ns ? 100.0 * (double)st.sum_exec_ns / (double)res->runtime_ns
					: 0.0,
			(double)st.run_delay_ns / 1e6, st.pcount, st.nvcsw, st.nivcsw,
			st.nr_migrations);
		if (st.exited)
			g_string_append_printf(out, " %12.3f\n", (double)st.exit_ns / 1e6);
		else
			g_string_append_printf(out, " %12s\n", "-");
	}
}

void report_knobs(GString *out, const struct linsched_config *cfg, const char *prefix)
{
	const struct sched_tunables *t = &cfg->tun;

	if (cfg->profile->knobs == SCHED_KNOBS_EEVDF)
		g_string_append_printf(out,
				       "%sknobs: base_slice %" G_GUINT64_FORMAT
				       " ns, migration_cost %" G_GUINT64_FORMAT " ns\n",
				       prefix, t->base_slice, t->migration_cost);
	else
		g_string_append_printf(out,
				       "%sknobs: latency %" G_GUINT64_FORMAT
				       " ns, min_granularity %" G_GUINT64_FORMAT
				       " ns, wakeup_granularity %" G_GUINT64_FORMAT
				       " ns, migration_cost %" G_GUINT64_FORMAT " ns\n",
				       prefix, t->latency, t->min_granularity,
				       t->wakeup_granularity, t->migration_cost);
}

void report_variation(GString *out, const struct linsched_config *cfg, const char *prefix)
{
	const struct linsched_costs *c = &cfg->costs;

	if (c->jitter_cv > 0)
		g_string_append_printf(out,
				       "%scosts drawn per operation, coefficient of variation %g\n",
				       prefix, c->jitter_cv);
	if (c->steal_ppm && c->host_hz)
		g_string_append_printf(
			out,
			"%ssteal %g %% of each CPU's time, in runs and stalls of whole ticks of "
			"a host at HZ %u whose ticks come %g ms before the guest's "
			"(stalls of %g ms on average, at least a tick)\n",
			prefix, 100.0 * (double)c->steal_ppm / (double)LINSCHED_PPM, c->host_hz,
			(double)c->host_lead_ns / 1e6, (double)c->stall_ns / 1e6);
	else if (c->steal_ppm)
		g_string_append_printf(out,
				       "%ssteal %g %% of each CPU's time, in stalls of %g ms on "
				       "average (coefficient of variation %g)\n",
				       prefix, 100.0 * (double)c->steal_ppm / (double)LINSCHED_PPM,
				       (double)c->stall_ns / 1e6, c->stall_cv);
	if (c->host_cpus && c->host_hz)
		g_string_append_printf(
			out,
			"%sthe %u CPUs take turns on %u host CPU%s, turns of %g ms on "
			"average that end at the ticks of a host at HZ %u, %g ms before the "
			"guest's: each waits %g %% of the time\n",
			prefix, cfg->nr_cpus, c->host_cpus, c->host_cpus == 1 ? "" : "s",
			(double)c->stall_ns / 1e6, c->host_hz, (double)c->host_lead_ns / 1e6,
			100.0 * (1.0 - (double)c->host_cpus / (double)cfg->nr_cpus));
	else if (c->host_cpus)
		g_string_append_printf(
			out,
			"%sthe %u CPUs take turns on %u host CPU%s, turns of %g ms on "
			"average (coefficient of variation %g): each waits %g %% of the "
			"time\n",
			prefix, cfg->nr_cpus, c->host_cpus, c->host_cpus == 1 ? "" : "s",
			(double)c->stall_ns / 1e6, c->stall_cv,
			100.0 * (1.0 - (double)c->host_cpus / (double)cfg->nr_cpus));
	if (c->shared_ns)
		g_string_append_printf(out,
				       "%sthe host moves them: spells of those turns, %g ms on "
				       "average, between spells on CPUs of their own%s, %g ms\n",
				       prefix, (double)c->shared_ns / 1e6,
				       c->steal_ppm ? " with that steal" : "",
				       (double)c->apart_ns / 1e6);
	if (c->data_cache_lines)
		g_string_append_printf(out,
				       "%sdata in flight: a cache of %" G_GUINT64_FORMAT
				       " lines, %" G_GUINT64_FORMAT
				       " ps a line read after it left\n",
				       prefix, c->data_cache_lines, c->data_miss_ps);
}

void report_preemption(GString *out, const struct linsched_config *cfg, const char *prefix)
{
	const struct linsched_costs *c = &cfg->costs;

	if (cfg->preempt != LINSCHED_PREEMPT_FULL)
		g_string_append_printf(out,
				       "%spreemption %s: a task inside a system call keeps its CPU "
				       "until the call returns or sleeps\n",
				       prefix, linsched_preempt_name(cfg->preempt));
	if (c->ipi_ns)
		g_string_append_printf(out,
				       "%sanother CPU reschedules %g us after the wakeup that asks "
				       "it to (the IPI's flight), or sooner on its own\n",
				       prefix, (double)c->ipi_ns / 1e3);
	if (c->wakeup_tail_ns)
		g_string_append_printf(
			out,
			"%sa wakeup is split: the waker pays up to %g us of it after the "
			"wakee is queued, the rest before, all with preemption off\n",
			prefix, (double)c->wakeup_tail_ns / 1e3);
}
