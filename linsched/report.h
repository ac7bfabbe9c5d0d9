/*
 * report.h - a finished simulation as text for people or JSON for programs.
 *
 * The JSON keys are an interface (the tuner and the reports read them):
 *   profile, cpus, domains, hz, preempt (full, voluntary or none), seed, runtime_ns, jiffies,
 *   context_switches, migrations, cpus_busy_ns [per CPU], knobs {latency_ns,
 *   min_granularity_ns, wakeup_granularity_ns, migration_cost_ns} (EEVDF profiles:
 *   {base_slice_ns, migration_cost_ns}), costs {switch_ns, wakeup_ns, wakeup_remote_ns,
 *   migrate_ns, cache_lines, miss_ps, and ipi_ns, wakeup_tail_ns, data_cache_lines,
 *   data_miss_ps, jitter_cv, steal_ppm, stall_ns, stall_cv when they are on}, deadlock, tasks
 *   [{id, name, nice, cpu, sum_exec_ns, run_delay_ns, pcount, nr_voluntary_switches,
 *   nr_involuntary_switches, nr_migrations, exit_ns (null while alive)}]
 * A caller may add keys of its own at the top level through the extra callback.
 */
#ifndef LINSCHED_REPORT_H
#define LINSCHED_REPORT_H

#include <glib.h>

#include "linsched/json.h"
#include "linsched/sim.h"

typedef void (*report_extra_fn)(struct json_writer *w, void *ctx);

void report_json(GString *out, const struct linsched_sim *sim, report_extra_fn extra, void *ctx);
/* Per-task table and totals. */
void report_text(GString *out, const struct linsched_sim *sim);
/* The knobs of the profile's scheduler (CFS's or EEVDF's), one line after prefix. */
void report_knobs(GString *out, const struct linsched_config *cfg, const char *prefix);
/* What makes the machine vary (cost jitter, steal), one line each after prefix; nothing when
 * neither is on. */
void report_variation(GString *out, const struct linsched_config *cfg, const char *prefix);
/* Where a reschedule waits (a preemption model other than full, an IPI's flight, a wakeup's
 * tail), one line each after prefix; nothing under full preemption without the two. */
void report_preemption(GString *out, const struct linsched_config *cfg, const char *prefix);

#endif
