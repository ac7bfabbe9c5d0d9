/*
 * cmd_compare.c - `tuner compare REAL.trace SIM.trace`: a real kernel's trace of a run beside the
 * simulator's trace of the same workload, in the figures that tell how the two schedulers
 * differ (SPEC.md §7): switches in all and between the workload's tasks, voluntary and
 * involuntary, wakeup preemptions and whether the preempted task gets the CPU back when its wakee
 * sleeps, wakeups, what the wakeups' preemption checks weighed (where the traces carry
 * wakeup_preempt lines), migrations, idle time and run-queue lengths per CPU,
 * run lengths per role, with --messages switches per message and messages per run, and when in
 * the run it all happens: the switches per tenth of the window and when the workers exit.
 * tuner/fidelity/trace_stats.h defines every figure.
 *
 *   tuner compare real.trace sim.trace --messages 4000 [--workload hackbench,sender,receiver]
 *       [--window auto|all] [--flips K[,K]] [--llc-cpus N] [--format text|json]
 *
 * --flips replays 6.1's wakee_flips from the flips every worker inherited at its fork, the real
 * run's (the guest's fork record) and, after a comma, the simulation's (its --parent-flips; one
 * value: both), so that the cross-CPU wakeups wake_wide judged one-to-many can be set beside
 * where the wakees landed (trace_stats.h, "Who a wakeup moves").
 *
 * Text: one row per figure, the two traces side by side with their ratio. JSON: {"real": {...},
 * "sim": {...}} with the same figures under the same keys.
 *
 * Exit status: 0, or 2 for bad input (a flag, a trace that cannot be read or does not parse).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linsched/json.h"
#include "tuner/cmd/cmd_common.h"
#include "tuner/cmd/commands.h"
#include "tuner/fidelity/trace_stats.h"

/* ---- the figures, in one table that both outputs walk ------------------------------------ */

typedef enum {
	F_COUNT,
	F_NUMBER,
} FigureKind;

/* A figure is one number, or one per CPU, or one per tenth of the window. */
typedef enum {
	SPAN_ONE,
	SPAN_CPU,
	SPAN_TENTH,
} FigureSpan;

typedef struct {
	const char *key, *label;
	FigureKind kind;
	double (*get)(const TraceStats *st, guint i);
	FigureSpan span;
} Figure;

static guint span_len(const Figure *f, const TraceStats *st)
{
	return f->span == SPAN_CPU ? st->nr_cpus : f->span == SPAN_TENTH ? TRACE_STATS_TENTHS : 1;
}

/* a's share of a + b, NaN when both are 0. */
static double share(guint64 a, guint64 b)
{
	return a + b ? (double)a / (double)(a + b) : NAN;
}

#define GET(name, expr)                                         \
	static double get_##name(const TraceStats *st, guint i) \
	{                                                       \
		(void)i;                                        \
		return (double)(expr);                          \
	}

GET(duration, st->duration_s)
GET(workload_tasks, st->workload_tasks)
GET(senders, st->senders)
GET(receivers, st->receivers)
GET(switches, st->switches)
GET(switches_workload, st->switches_workload)
GET(switches_between, st->switches_between)
GET(voluntary, st->voluntary)
GET(involuntary, st->involuntary)
GET(exits, st->exits)
GET(wakeup_preemptions, st->wakeup_preemptions)
GET(other_preemptions, st->other_preemptions)
GET(workload_voluntary, st->workload_voluntary)
GET(workload_involuntary, st->workload_involuntary)
GET(workload_wakeup_preemptions, st->workload_wakeup_preemptions)
GET(wakeups, st->wakeups)
GET(wakeups_workload, st->wakeups_workload)
GET(wakeups_between, st->wakeups_between)
GET(wakeups_to_busy, st->wakeups_to_busy)
GET(preempting_wakeups,
    st->wakeups_to_busy ? (double)st->workload_wakeup_preemptions / (double)st->wakeups_to_busy
			: NAN)
GET(wakeups_to_busy_remote, st->wakeups_to_busy_remote)
GET(wake_to_switch_local, st->wake_to_switch_us[TRACE_WAKE_LOCAL])
GET(wake_to_switch_remote, st->wake_to_switch_us[TRACE_WAKE_REMOTE])
GET(remote_sleeps_first, st->remote_sleeps_first)
GET(wake_to_run_local, st->wake_to_run_us[TRACE_WAKE_LOCAL])
GET(wake_to_run_remote, st->wake_to_run_us[TRACE_WAKE_REMOTE])
GET(wake_to_run_q90_local, st->wake_to_run_q90_us[TRACE_WAKE_LOCAL])
GET(wake_to_run_q90_remote, st->wake_to_run_q90_us[TRACE_WAKE_REMOTE])
GET(switches_before_run_local, st->switches_before_run[TRACE_WAKE_LOCAL])
GET(switches_before_run_remote, st->switches_before_run[TRACE_WAKE_REMOTE])
GET(preempted_back, share(st->preempted_back, st->preempted_not_back))
GET(receiver_sleep_to_receiver, share(st->sleep_handover[TRACE_ROLE_RECEIVER][TRACE_ROLE_RECEIVER],
				      st->sleep_handover[TRACE_ROLE_RECEIVER][TRACE_ROLE_SENDER]))
GET(checks, st->checks)
GET(lag_q25, st->lag_q25_ms)
GET(lag_median, st->lag_median_ms)
GET(lag_q75, st->lag_q75_ms)
GET(receiver_lag, st->lag_median_role_ms[TRACE_ROLE_RECEIVER])
GET(sender_lag, st->lag_median_role_ms[TRACE_ROLE_SENDER])
GET(at_credit, st->at_credit)
GET(lead_median, st->lead_median_ms)
GET(gap_median, st->gap_median_ms)
GET(above_gran, st->above_gran)
GET(migrations, st->migrations)
GET(reuse_median, st->reuse_median)
GET(reuse_q75, st->reuse_q75)
GET(reuse_near, st->reuse_near)
GET(wake_migrations, st->wake_migrations)
GET(wake_cross, st->wake_cross)
GET(wake_cross_pulled,
    st->wake_cross ? (double)st->wake_cross_pulled / (double)st->wake_cross : NAN)
GET(wake_cross_wide, st->flips_replayed && st->wake_cross
			     ? (double)st->wake_cross_wide / (double)st->wake_cross
			     : NAN)
GET(wake_cross_narrow_pulled,
    st->flips_replayed && st->wake_cross > st->wake_cross_wide
	    ? (double)st->wake_cross_narrow_pulled / (double)(st->wake_cross - st->wake_cross_wide)
	    : NAN)
GET(idle, st->idle_s[i])
GET(idle_fraction, st->duration_s > 0 ? st->idle_s[i] / st->duration_s : NAN)
GET(runqueue_mean, st->runqueue_mean[i])
GET(runqueue_max, st->runqueue_max[i])
GET(runnable_mean, st->runnable_mean)
GET(handovers_per_s, st->handovers_per_s)
GET(senders_asleep, st->asleep_mean[TRACE_ROLE_SENDER])
GET(receivers_asleep, st->asleep_mean[TRACE_ROLE_RECEIVER])
GET(runs, st->runs.count)
GET(run_median, st->runs.median_us)
GET(run_mean, st->runs.mean_us)
GET(sender_runs, st->roles[TRACE_ROLE_SENDER].count)
GET(sender_run_median, st->roles[TRACE_ROLE_SENDER].median_us)
GET(sender_run_mean, st->roles[TRACE_ROLE_SENDER].mean_us)
GET(sender_busy, st->roles[TRACE_ROLE_SENDER].total_us / 1e3)
GET(receiver_runs, st->roles[TRACE_ROLE_RECEIVER].count)
GET(receiver_run_median, st->roles[TRACE_ROLE_RECEIVER].median_us)
GET(receiver_run_mean, st->roles[TRACE_ROLE_RECEIVER].mean_us)
GET(receiver_busy, st->roles[TRACE_ROLE_RECEIVER].total_us / 1e3)
GET(switches_per_message, st->switches_per_message)
GET(messages_per_receiver_run, st->messages_per_receiver_run)
GET(messages_per_sender_run, st->messages_per_sender_run)
GET(switches_by_tenth, st->switches_by_tenth[i])
GET(senders_asleep_by_tenth, st->asleep_by_tenth[TRACE_ROLE_SENDER][i])
GET(receivers_asleep_by_tenth, st->asleep_by_tenth[TRACE_ROLE_RECEIVER][i])
GET(sender_first_exit, st->first_exit[TRACE_ROLE_SENDER])
GET(sender_median_exit, st->median_exit[TRACE_ROLE_SENDER])
GET(receiver_first_exit, st->first_exit[TRACE_ROLE_RECEIVER])
GET(receiver_median_exit, st->median_exit[TRACE_ROLE_RECEIVER])

static const Figure figures[] = {
	{ "duration_s", "window (s)", F_NUMBER, get_duration, SPAN_ONE },
	{ "workload_tasks", "workload tasks", F_COUNT, get_workload_tasks, SPAN_ONE },
	{ "senders", "  senders", F_COUNT, get_senders, SPAN_ONE },
	{ "receivers", "  receivers", F_COUNT, get_receivers, SPAN_ONE },
	{ "switches", "switches, all", F_COUNT, get_switches, SPAN_ONE },
	{ "switches_workload", "  from or to the workload", F_COUNT, get_switches_workload,
	  SPAN_ONE },
	{ "switches_between", "  between workload tasks", F_COUNT, get_switches_between, SPAN_ONE },
	{ "voluntary", "    voluntary (S, D)", F_COUNT, get_voluntary, SPAN_ONE },
	{ "involuntary", "    involuntary (R)", F_COUNT, get_involuntary, SPAN_ONE },
	{ "wakeup_preemptions", "      by a wakeup", F_COUNT, get_wakeup_preemptions, SPAN_ONE },
	{ "other_preemptions", "      other (tick, balance)", F_COUNT, get_other_preemptions,
	  SPAN_ONE },
	{ "exits", "    exits (X, Z)", F_COUNT, get_exits, SPAN_ONE },
	{ "workload_voluntary", "  workload task leaves, voluntary", F_COUNT,
	  get_workload_voluntary, SPAN_ONE },
	{ "workload_involuntary", "  workload task leaves, involuntary", F_COUNT,
	  get_workload_involuntary, SPAN_ONE },
	{ "workload_wakeup_preemptions", "    by a wakeup", F_COUNT,
	  get_workload_wakeup_preemptions, SPAN_ONE },
	{ "wakeups", "wakeups, all", F_COUNT, get_wakeups, SPAN_ONE },
	{ "wakeups_workload", "  of workload tasks", F_COUNT, get_wakeups_workload, SPAN_ONE },
	{ "wakeups_between", "    by workload tasks", F_COUNT, get_wakeups_between, SPAN_ONE },
	{ "wakeups_to_busy", "    onto a busy CPU", F_COUNT, get_wakeups_to_busy, SPAN_ONE },
	{ "preempting_wakeups", "    preempting / onto busy", F_NUMBER, get_preempting_wakeups,
	  SPAN_ONE },
	{ "wakeups_to_busy_remote", "    onto a busy CPU from another", F_COUNT,
	  get_wakeups_to_busy_remote, SPAN_ONE },
	{ "wake_to_switch_local_us", "    to the switch there (us), same CPU", F_NUMBER,
	  get_wake_to_switch_local, SPAN_ONE },
	{ "wake_to_switch_remote_us", "      from another CPU", F_NUMBER, get_wake_to_switch_remote,
	  SPAN_ONE },
	{ "remote_sleeps_first", "      its task sleeps before preempted", F_NUMBER,
	  get_remote_sleeps_first, SPAN_ONE },
	{ "wake_to_run_local_us", "  a woken worker runs after (us), same CPU", F_NUMBER,
	  get_wake_to_run_local, SPAN_ONE },
	{ "wake_to_run_remote_us", "    from another CPU", F_NUMBER, get_wake_to_run_remote,
	  SPAN_ONE },
	{ "wake_to_run_q90_local_us", "    90th percentile, same CPU", F_NUMBER,
	  get_wake_to_run_q90_local, SPAN_ONE },
	{ "wake_to_run_q90_remote_us", "      from another CPU", F_NUMBER,
	  get_wake_to_run_q90_remote, SPAN_ONE },
	{ "switches_before_run_local", "    switches there first (median), same CPU", F_NUMBER,
	  get_switches_before_run_local, SPAN_ONE },
	{ "switches_before_run_remote", "      from another CPU", F_NUMBER,
	  get_switches_before_run_remote, SPAN_ONE },
	{ "preempted_back", "    the preempted back when its wakee sleeps", F_NUMBER,
	  get_preempted_back, SPAN_ONE },
	{ "receiver_sleep_to_receiver", "    a receiver's sleep hands over to a receiver", F_NUMBER,
	  get_receiver_sleep_to_receiver, SPAN_ONE },
	{ "preempt_checks", "preemption checks, a worker by a running one", F_COUNT, get_checks,
	  SPAN_ONE },
	{ "wakee_lag_q25_ms", "  wakee behind min_vruntime (ms), q25", F_NUMBER, get_lag_q25,
	  SPAN_ONE },
	{ "wakee_lag_median_ms", "    median", F_NUMBER, get_lag_median, SPAN_ONE },
	{ "wakee_lag_q75_ms", "    q75", F_NUMBER, get_lag_q75, SPAN_ONE },
	{ "receiver_lag_median_ms", "    median, receivers woken", F_NUMBER, get_receiver_lag,
	  SPAN_ONE },
	{ "sender_lag_median_ms", "    median, senders woken", F_NUMBER, get_sender_lag, SPAN_ONE },
	{ "wakees_at_credit", "  wakees a full sleeper credit behind", F_NUMBER, get_at_credit,
	  SPAN_ONE },
	{ "curr_lead_median_ms", "  running task ahead of min_vruntime (ms)", F_NUMBER,
	  get_lead_median, SPAN_ONE },
	{ "check_gap_median_ms", "  running minus wakee vruntime (ms)", F_NUMBER, get_gap_median,
	  SPAN_ONE },
	{ "checks_above_gran", "  gap above wakeup_granularity", F_NUMBER, get_above_gran,
	  SPAN_ONE },
	{ "migrations", "migrations (switched in elsewhere)", F_COUNT, get_migrations, SPAN_ONE },
	{ "wake_migrations", "  woken elsewhere", F_COUNT, get_wake_migrations, SPAN_ONE },
	{ "wake_cross", "cross-CPU wakeups, a worker by a worker", F_COUNT, get_wake_cross,
	  SPAN_ONE },
	{ "wake_cross_pulled", "  pulled to the waker's CPU", F_NUMBER, get_wake_cross_pulled,
	  SPAN_ONE },
	{ "wake_cross_wide", "  one-to-many by the flips (--flips)", F_NUMBER, get_wake_cross_wide,
	  SPAN_ONE },
	{ "wake_cross_narrow_pulled", "    of the others, pulled", F_NUMBER,
	  get_wake_cross_narrow_pulled, SPAN_ONE },
	{ "reuse_median", "workers run since a worker last ran, median", F_NUMBER, get_reuse_median,
	  SPAN_ONE },
	{ "reuse_q75", "  q75", F_NUMBER, get_reuse_q75, SPAN_ONE },
	{ "reuse_near", "  share back within 2", F_NUMBER, get_reuse_near, SPAN_ONE },
	{ "idle_s", "idle (s), CPU", F_NUMBER, get_idle, SPAN_CPU },
	{ "idle_fraction", "idle fraction, CPU", F_NUMBER, get_idle_fraction, SPAN_CPU },
	{ "runqueue_mean", "run queue, mean, CPU", F_NUMBER, get_runqueue_mean, SPAN_CPU },
	{ "runqueue_max", "run queue, max, CPU", F_COUNT, get_runqueue_max, SPAN_CPU },
	{ "runnable_mean", "runnable workers, mean", F_NUMBER, get_runnable_mean, SPAN_ONE },
	{ "cpu_handovers_per_s", "CPU hand-overs of the events, per s", F_NUMBER,
	  get_handovers_per_s, SPAN_ONE },
	{ "senders_asleep_mean", "senders asleep (channel full), mean", F_NUMBER,
	  get_senders_asleep, SPAN_ONE },
	{ "receivers_asleep_mean", "receivers asleep (channel empty), mean", F_NUMBER,
	  get_receivers_asleep, SPAN_ONE },
	{ "runs", "workload runs", F_COUNT, get_runs, SPAN_ONE },
	{ "run_median_us", "  median (us)", F_NUMBER, get_run_median, SPAN_ONE },
	{ "run_mean_us", "  mean (us)", F_NUMBER, get_run_mean, SPAN_ONE },
	{ "sender_runs", "sender runs", F_COUNT, get_sender_runs, SPAN_ONE },
	{ "sender_run_median_us", "  median (us)", F_NUMBER, get_sender_run_median, SPAN_ONE },
	{ "sender_run_mean_us", "  mean (us)", F_NUMBER, get_sender_run_mean, SPAN_ONE },
	{ "sender_busy_ms", "  CPU time (ms)", F_NUMBER, get_sender_busy, SPAN_ONE },
	{ "receiver_runs", "receiver runs", F_COUNT, get_receiver_runs, SPAN_ONE },
	{ "receiver_run_median_us", "  median (us)", F_NUMBER, get_receiver_run_median, SPAN_ONE },
	{ "receiver_run_mean_us", "  mean (us)", F_NUMBER, get_receiver_run_mean, SPAN_ONE },
	{ "receiver_busy_ms", "  CPU time (ms)", F_NUMBER, get_receiver_busy, SPAN_ONE },
	{ "switches_per_message", "switches between workload tasks / message", F_NUMBER,
	  get_switches_per_message, SPAN_ONE },
	{ "messages_per_receiver_run", "messages / receiver run", F_NUMBER,
	  get_messages_per_receiver_run, SPAN_ONE },
	{ "messages_per_sender_run", "messages / sender run", F_NUMBER, get_messages_per_sender_run,
	  SPAN_ONE },
	{ "switches_by_tenth", "switches between, tenth of the window", F_COUNT,
	  get_switches_by_tenth, SPAN_TENTH },
	{ "senders_asleep_by_tenth", "senders asleep (channel full), tenth", F_NUMBER,
	  get_senders_asleep_by_tenth, SPAN_TENTH },
	{ "receivers_asleep_by_tenth", "receivers asleep (channel empty), tenth", F_NUMBER,
	  get_receivers_asleep_by_tenth, SPAN_TENTH },
	{ "sender_first_exit", "first sender exits (window fraction)", F_NUMBER,
	  get_sender_first_exit, SPAN_ONE },
	{ "sender_median_exit", "  median sender", F_NUMBER, get_sender_median_exit, SPAN_ONE },
	{ "receiver_first_exit", "first receiver exits", F_NUMBER, get_receiver_first_exit,
	  SPAN_ONE },
	{ "receiver_median_exit", "  median receiver", F_NUMBER, get_receiver_median_exit,
	  SPAN_ONE },
};

/* ---- output ---------------------------------------------------------------------------------- */

static void format_value(GString *s, const Figure *f, double v)
{
	if (isnan(v))
		g_string_append(s, "-");
	else if (f->kind == F_COUNT)
		g_string_append_printf(s, "%.0f", v);
	else if (fabs(v) >= 100)
		g_string_append_printf(s, "%.1f", v);
	else
		g_string_append_printf(s, "%.4g", v);
}

static void text_row(GString *out, const Figure *f, const char *label, double a, double b)
{
	g_autoptr(GString) va = g_string_new(NULL);
	g_autoptr(GString) vb = g_string_new(NULL);

	format_value(va, f, a);
	format_value(vb, f, b);
	g_string_append_printf(out, "%-44s %14s %14s", label, va->str, vb->str);
	if (!isnan(a) && !isnan(b) && a != 0)
		g_string_append_printf(out, " %9.3f", b / a);
	g_string_append_c(out, '\n');
}

static char *text_report(const char *real_path, const char *sim_path, const TraceStats *real,
			 const TraceStats *sim)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "# real: %s (window %.6f .. %.6f s)\n", real_path,
			       real->start_s, real->end_s);
	g_string_append_printf(out, "# sim:  %s (window %.6f .. %.6f s)\n", sim_path, sim->start_s,
			       sim->end_s);
	if (real->flips_replayed)
		g_string_append_printf(out,
				       "# wakee_flips replayed from %u inherited (real), %u (sim); "
				       "wake_wide's factor %u, %u\n",
				       real->inherited_flips, sim->inherited_flips, real->llc_cpus,
				       sim->llc_cpus);
	g_string_append_printf(out, "%-44s %14s %14s %9s\n", "", "real", "sim", "sim/real");
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++) {
		const Figure *f = &figures[i];
		guint nr = span_len(f, real), ns = span_len(f, sim);

		if (f->span == SPAN_ONE) {
			text_row(out, f, f->label, f->get(real, 0), f->get(sim, 0));
			continue;
		}
		for (guint k = 0; k < MAX(nr, ns); k++) {
			/* CPUs count from 0 as the kernel numbers them, tenths from 1. */
			g_autofree char *label =
				g_strdup_printf("%s %u", f->label, f->span == SPAN_CPU ? k : k + 1);

			text_row(out, f, label, k < nr ? f->get(real, k) : NAN,
				 k < ns ? f->get(sim, k) : NAN);
		}
	}
	return g_string_free(out, FALSE);
}

static void json_value(struct json_writer *w, const Figure *f, double v)
{
	if (f->kind == F_COUNT && !isnan(v))
		json_uint(w, (uint64_t)v);
	else
		json_double(w, v);
}

static void json_stats(struct json_writer *w, const char *key, const char *path,
		       const TraceStats *st)
{
	json_key(w, key);
	json_begin_object(w);
	json_key(w, "trace");
	json_string(w, path);
	json_key(w, "start_s");
	json_double(w, st->start_s);
	json_key(w, "end_s");
	json_double(w, st->end_s);
	json_key(w, "cpus");
	json_uint(w, st->nr_cpus);
	json_key(w, "parent");
	json_bool(w, st->has_parent);
	json_key(w, "messages");
	if (st->messages)
		json_uint(w, st->messages);
	else
		json_null(w);
	json_key(w, "inherited_flips");
	if (st->flips_replayed)
		json_uint(w, st->inherited_flips);
	else
		json_null(w);
	json_key(w, "llc_cpus");
	if (st->flips_replayed)
		json_uint(w, st->llc_cpus);
	else
		json_null(w);
	for (size_t i = 0; i < G_N_ELEMENTS(figures); i++) {
		const Figure *f = &figures[i];

		json_key(w, f->key);
		if (f->span == SPAN_ONE) {
			json_value(w, f, f->get(st, 0));
			continue;
		}
		json_begin_array(w);
		for (guint k = 0; k < span_len(f, st); k++)
			json_value(w, f, f->get(st, k));
		json_end_array(w);
	}
	json_end_object(w);
}

static char *json_report(const char *real_path, const char *sim_path, const TraceStats *real,
			 const TraceStats *sim)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_stats(&w, "real", real_path, real);
	json_stats(&w, "sim", sim_path, sim);
	json_end_object(&w);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

/* ---- the command ---------------------------------------------------------------------------- */

struct compare_cli {
	gint64 messages, llc_cpus;
	char *workload, *window, *format, *flips;
};

/* --flips K or REAL,SIM: whole numbers of flips, each at most a million. */
static gboolean parse_flips(const char *arg, guint *real, guint *sim, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(arg, ",", -1);
	guint n = g_strv_length(parts);
	guint64 v[2];

	if (n < 1 || n > 2)
		return cmd_usage(error, "--flips: give K or REAL,SIM");
	for (guint i = 0; i < n; i++)
		if (!g_ascii_string_to_unsigned(parts[i], 10, 0, 1000000, &v[i], NULL))
			return cmd_usage(error,
					 "--flips: '%s' is not a whole number of flips from 0 to "
					 "1000000",
					 parts[i]);
	*real = (guint)v[0];
	*sim = (guint)v[n - 1];
	return TRUE;
}

/* A trace that cannot be read or does not parse is bad input: it was named on the command line. */
static gboolean read_trace(const char *path, const TraceStatsOptions *opt, TraceStats *st,
			   GError **error)
{
	GError *local = NULL;

	if (trace_stats_read_file(path, opt, st, &local))
		return TRUE;
	return cmd_relabel(error, CMD_ERROR_USAGE, local, "");
}

/* The flags into opt and sim_opt, the real trace's and the simulated one's (the prefixes they
 * point to are *prefixes, the caller's to free). */
static gboolean check_flags(const struct compare_cli *c, int argc, TraceStatsOptions *opt,
			    TraceStatsOptions *sim_opt, char ***prefixes, GError **error)
{
	if (argc != 3)
		return cmd_usage(error, "give two traces: REAL.trace SIM.trace");
	if (c->window && strcmp(c->window, "all") == 0)
		opt->window = TRACE_WINDOW_ALL;
	else if (c->window && strcmp(c->window, "auto") != 0)
		return cmd_usage(error, "--window: give auto or all");
	if (c->format && strcmp(c->format, "text") != 0 && strcmp(c->format, "json") != 0)
		return cmd_usage(error, "--format: give text or json");
	if (!cmd_workload_prefixes(c->workload, prefixes, error))
		return FALSE;
	opt->workload = (const char *const *)*prefixes;
	opt->messages = (guint64)c->messages;
	opt->llc_cpus = (guint)c->llc_cpus;
	*sim_opt = *opt;
	if (c->flips) {
		if (!parse_flips(c->flips, &opt->inherited_flips, &sim_opt->inherited_flips, error))
			return FALSE;
		opt->replay_flips = sim_opt->replay_flips = TRUE;
	} else if (c->llc_cpus) {
		return cmd_usage(error, "--llc-cpus: only with --flips");
	}
	return TRUE;
}

int tuner_cmd_compare(int argc, char **argv)
{
	struct compare_cli c = { 0 };
	const GOptionEntry entries[] = {
		{ "messages", 0, 0, G_OPTION_ARG_INT64, &c.messages,
		  "Messages the workload passed (hackbench: groups x 20 x 20 x loops), for the "
		  "per-message figures",
		  "N" },
		{ "workload", 0, 0, G_OPTION_ARG_STRING, &c.workload,
		  "Command-name prefixes of the workload's tasks (default hackbench,sender,receiver)",
		  "LIST" },
		{ "window", 0, 0, G_OPTION_ARG_STRING, &c.window,
		  "auto (default: from the start barrier's release to the last exit) or all", "W" },
		{ "flips", 0, 0, G_OPTION_ARG_STRING, &c.flips,
		  "Replay wakee_flips from those every worker inherited at its fork: the real run's "
		  "(the guest's fork record) and, after a comma, the simulation's (its --parent-flips)",
		  "K[,K]" },
		{ "llc-cpus", 0, 0, G_OPTION_ARG_INT64, &c.llc_cpus,
		  "With --flips: CPUs sharing a last-level cache, wake_wide's factor (default: the "
		  "CPUs each trace shows)",
		  "N" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &c.format, "text (default) or json", "F" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct flag_limits limits[] = {
		FLAG_INT(&c.messages, 1, G_MAXINT64), /* not given: no per-message figures */
		FLAG_INT(&c.llc_cpus, 1, 4096),
	};
	struct flag_set flags;
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("REAL.trace SIM.trace - two scheduler traces side by side");
	g_autoptr(GError) error = NULL;
	GError *local = NULL;
	TraceStatsOptions opt = { .window = TRACE_WINDOW_AUTO }, sim_opt;
	TraceStats real = { 0 }, sim = { 0 };
	g_auto(GStrv) prefixes = NULL;
	int status = 0;

	flag_set_init(&flags);
	flag_add_main_entries(&flags, ctx, entries, limits, G_N_ELEMENTS(limits));
	if (!g_option_context_parse(ctx, &argc, &argv, &local))
		cmd_relabel(&error, CMD_ERROR_USAGE, local, "");
	else if (check_flags(&c, argc, &opt, &sim_opt, &prefixes, &error) &&
		 read_trace(argv[1], &opt, &real, &error) &&
		 read_trace(argv[2], &sim_opt, &sim, &error)) {
		g_autofree char *report = c.format && strcmp(c.format, "json") == 0
						  ? json_report(argv[1], argv[2], &real, &sim)
						  : text_report(argv[1], argv[2], &real, &sim);

		fputs(report, stdout);
	}
	if (error)
		status = cmd_fail_status("compare", error);
	trace_stats_clear(&real);
	trace_stats_clear(&sim);
	g_free(c.workload);
	g_free(c.window);
	g_free(c.format);
	g_free(c.flips);
	flag_set_clear(&flags);
	return status;
}
