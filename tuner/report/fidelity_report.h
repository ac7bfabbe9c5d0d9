/*
 * fidelity_report.h - the fidelity report of real plans beside their simulation, as text, JSON
 * and CSV: what `tuner fidelity` prints and `tuner fit` reports on its training and held-out
 * plans. Every figure is defined in tuner/fidelity/real_plan.h (the real side),
 * tuner/eval/plan_sim.h (the simulated side) and tuner/fidelity/fidelity.h (the criteria).
 *
 * Text: per plan, a header (workload, CSV, rounds, the reference), one row per setting
 *
 *   setting  knobs (lat/min/wake ms)  n  real ratio [median's interval]  geo. mean [t interval]
 *   sign p  sig  real ctxt  sim ratio  sim switches  same sign
 *
 * where sig is + or - for a significant real effect (slower, faster) and "same sign" says whether
 * the simulation goes its way; then the plan's criteria with their verdicts. After the plans, one
 * line per plan: the criteria side by side; then the totals, per role and per workload: the
 * criteria met of FIDELITY_CRITERIA a plan, and the plans that meet them all. Where two plans
 * share a workload, "real against real": each such pair's rank correlations (fidelity_agreement),
 * then one row per plan with the model's rank correlations of the time and of the switches, each
 * beside the kernel's own band (fidelity_band: min..max, median and how many partner plans) and
 * its verdict (above, within, below; "-" for a plan without partners).
 *
 * JSON: {"significance", "simulation", "plans": [{"name", "role", "csv", "workload", "rounds",
 * "boots", "dropped", "steal_runs" (and "steal_ppm", "stall_ns" when above 0: the medians of the
 * steal the host measured; "shared_runs" and "shared_pct" when the plan's runs recorded where
 * the host put the vCPU threads; and "guest_stall_runs", "guest_stall_ppm", "guest_stall_ns",
 * "guest_stall_cv_pct" when the plan has the stalls the guest saw), "reference", "settings":
 * [{"id", "knobs": {...}, "migration_cost_ns", "pairs", "real": {...}, "sim": {...},
 * "significant", "real_sign", "sim_sign", "reproduced"}],
 * "criteria": {...}, "band": {"min_settings", "time": {"plans", "min", "median", "max",
 * "verdict"}, "switches": {...}}}], "totals": [{"kind" (role or workload), "name",
 * "criteria_met", "criteria", "plans", "plans_all_met"}], "agreement": [{"plans": [a, b],
 * "settings", "rank_time", "settings_switches", "rank_switches"}]}; every key above is written,
 * NaN as null, and so is a verdict of none.
 *
 * CSV: one row per plan and setting (fidelity_report_csv), and one per plan with its criteria
 * and its band (fidelity_report_plans_csv: band_time_plans, _min, _median, _max, _verdict and the
 * same of band_switches; empty fields for none).
 */
#ifndef TUNER_REPORT_FIDELITY_REPORT_H
#define TUNER_REPORT_FIDELITY_REPORT_H

#include <glib.h>

#include "linsched/json.h"
#include "tuner/fidelity/fidelity.h"
#include "tuner/fidelity/plan_set.h"

G_BEGIN_DECLS

typedef struct {
	const PlanSet *set;
	SimSetting *const *sims; /* [plan][setting], in each RealPlan's order */
	FidelitySignificance sig;
	const char *simulation; /* how the plans were simulated (the flags), for the reader */
} FidelityReport;

/* The criteria of plan p. */
void fidelity_report_metrics(const FidelityReport *r, guint p, FidelityMetrics *out);

/* The width of the plans tables' first column: the longest plan name, at least 16. */
int fidelity_plan_name_width(const PlanSet *set);

char *fidelity_report_text(const FidelityReport *r);
/* The report as one JSON object, written at w's current position. */
void fidelity_report_write_json(struct json_writer *w, const FidelityReport *r);
char *fidelity_report_json(const FidelityReport *r);
char *fidelity_report_csv(const FidelityReport *r);
char *fidelity_report_plans_csv(const FidelityReport *r);

/* "12/1.5/2": the three knobs in ms. */
char *fidelity_knobs_ms(const Knobs *k);

G_END_DECLS

#endif
