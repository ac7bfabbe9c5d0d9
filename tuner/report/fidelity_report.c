/*
 * fidelity_report.c - the fidelity report as text, JSON and CSV (see fidelity_report.h).
 */
#include "tuner/report/fidelity_report.h"

#include <math.h>
#include <string.h>

void fidelity_report_metrics(const FidelityReport *r, guint p, FidelityMetrics *out)
{
	fidelity_metrics(plan_set_plan(r->set, p)->real, r->sims[p], r->sig, out);
}

char *fidelity_knobs_ms(const Knobs *k)
{
	return g_strdup_printf("%g/%g/%g", (double)k->latency_ns / 1e6,
			       (double)k->min_granularity_ns / 1e6,
			       (double)k->wakeup_granularity_ns / 1e6);
}

static const char *yes_no(gboolean ok)
{
	return ok ? "yes" : "no";
}

static char sign_char(int sign)
{
	return sign > 0 ? '+' : sign < 0 ? '-' : ' ';
}

/* ---- real against real ---------------------------------------------------------------------- */

/* Two plans of one workload, p < q, and how they rank the settings against each other. */
typedef struct {
	const char *a, *b;
	FidelityAgreement agreement;
} PlanPair;

/* Every such pair of r's plans, in the plans' order. */
static GArray *plan_pairs(const FidelityReport *r)
{
	GArray *pairs = g_array_new(FALSE, TRUE, sizeof(PlanPair));

	for (guint p = 0; p < r->set->plans->len; p++)
		for (guint q = p + 1; q < r->set->plans->len; q++) {
			const PlanSpec *a = plan_set_plan(r->set, p), *b = plan_set_plan(r->set, q);
			PlanPair pair = { a->name, b->name, { 0 } };

			if (strcmp(a->workload, b->workload) != 0)
				continue;
			fidelity_agreement(a->real, b->real, &pair.agreement);
			g_array_append_val(pairs, pair);
		}
	return pairs;
}

/* The pairs (plan_pairs), when there are some. */
static void text_agreement(GString *out, const FidelityReport *r, const GArray *pairs)
{
	const int w = fidelity_plan_name_width(r->set);

	if (pairs->len == 0)
		return;
	g_string_append_printf(out,
			       "\nreal against real, plans of one workload (how a second "
			       "measurement of the kernel ranks the settings):\n"
			       "  %-*s %-*s %10s %10s %9s\n",
			       w, "plan", w, "plan", "rank time", "rank ctxt", "settings");
	for (guint i = 0; i < pairs->len; i++) {
		const PlanPair *pp = &g_array_index(pairs, PlanPair, i);

		g_string_append_printf(out, "  %-*s %-*s %10.3f %10.3f %9u\n", w, pp->a, w, pp->b,
				       pp->agreement.rank_time, pp->agreement.rank_switches,
				       pp->agreement.n);
	}
}

/* ---- the kernel's own band ------------------------------------------------------------------ */

/* One side (time or switches) of a plan's row: the model's rank correlation, the band of its
 * partners and the verdict, "-" where there is no band or no verdict. */
static void text_band_side(GString *row, const FidelityRange *band, double model)
{
	const char *verdict = fidelity_verdict_name(fidelity_verdict(band, model));
	g_autofree char *range =
		band->plans ? g_strdup_printf("%.3f..%.3f", band->min, band->max) : g_strdup("-");
	g_autofree char *median =
		band->plans ? g_strdup_printf("%.3f", band->median) : g_strdup("-");

	g_string_append_printf(row, "  %9.3f  %-14s %6s %5u  %-7s", model, range, median,
			       band->plans, verdict ? verdict : "-");
}

/* After the pairs, whenever there are some: each plan's rank correlations beside the band its
 * partners give, so that a miss of FIDELITY_MIN_RANK reads as the model's or the kernel's. */
static void text_bands(GString *out, const FidelityReport *r, const GArray *pairs)
{
	const int w = fidelity_plan_name_width(r->set);

	if (pairs->len == 0)
		return;
	g_string_append_printf(out,
			       "\nthe model beside the kernel's own band: each plan's rank "
			       "correlations real against real with the other plans of its "
			       "workload that share %d settings or more (min..max, median, "
			       "plans), and the model's above (>= max), within or below (< min) "
			       "them:\n",
			       FIDELITY_BAND_MIN_SETTINGS);
	g_string_append_printf(out, "  %-*s  %9s  %-14s %6s %5s  %-7s  %9s  %-14s %6s %5s  %s\n", w,
			       "plan", "rank time", "kernel band", "median", "plans", "verdict",
			       "rank ctxt", "kernel band", "median", "plans", "verdict");
	for (guint p = 0; p < r->set->plans->len; p++) {
		g_autoptr(GString) row = g_string_new(NULL);
		FidelityMetrics m;
		FidelityBand b;

		fidelity_report_metrics(r, p, &m);
		fidelity_band(r->set, p, &b);
		g_string_append_printf(row, "  %-*s", w, plan_set_plan(r->set, p)->name);
		text_band_side(row, &b.time, m.rank_time);
		text_band_side(row, &b.switches, m.rank_switches);
		g_string_append_printf(out, "%s\n", g_strchomp(row->str));
	}
}

/* ---- totals --------------------------------------------------------------------------------- */

/* The criteria met over a group of plans: those of one role, or of one workload. */
typedef struct {
	const char *kind; /* "role" or "workload" */
	const char *name;
	guint met, plans, all_met;
} FidelityTotal;

static FidelityTotal *total_of(GArray *totals, const char *kind, const char *name)
{
	for (guint i = 0; i < totals->len; i++) {
		FidelityTotal *t = &g_array_index(totals, FidelityTotal, i);

		if (strcmp(t->kind, kind) == 0 && strcmp(t->name, name) == 0)
			return t;
	}
	g_array_append_val(totals, ((FidelityTotal){ .kind = kind, .name = name }));
	return &g_array_index(totals, FidelityTotal, totals->len - 1);
}

/* Per role, then per workload, each in the order the plans first name it. */
static GArray *fidelity_totals(const FidelityReport *r)
{
	GArray *totals = g_array_new(FALSE, TRUE, sizeof(FidelityTotal));

	for (guint pass = 0; pass < 2; pass++) {
		for (guint p = 0; p < r->set->plans->len; p++) {
			const PlanSpec *plan = plan_set_plan(r->set, p);
			FidelityTotal *t =
				pass == 0 ? total_of(totals, "role", plan_role_name(plan->role))
					  : total_of(totals, "workload", plan->workload);
			FidelityMetrics m;

			fidelity_report_metrics(r, p, &m);
			t->met += fidelity_metrics_met(&m);
			t->plans++;
			t->all_met += fidelity_metrics_ok(&m);
		}
	}
	return totals;
}

/* ---- text ----------------------------------------------------------------------------------- */

static void text_setting(GString *out, const RealSetting *s, const SimSetting *sim,
			 const FidelityEffect *e)
{
	g_autofree char *knobs = fidelity_knobs_ms(&s->knobs);
	g_autofree char *interval =
		isfinite(s->ratio_lo) ? g_strdup_printf("[%.3f, %.3f]", s->ratio_lo, s->ratio_hi)
				      : g_strdup("");
	g_autofree char *geo = s->log.n >= 2 && !s->reference
				       ? g_strdup_printf("%.3f [%.3f, %.3f]", s->log.ratio,
							 s->log.ratio_lo, s->log.ratio_hi)
				       : g_strdup("");
	g_autofree char *sign_p = s->log.n >= 1 && !s->reference
					  ? g_strdup_printf("%.3f", s->log.sign_p)
					  : g_strdup("");
	const char *same = !e->significant ? "" : e->reproduced ? "yes" : "NO";
	g_autofree char *row = g_strdup_printf(
		"  %-16s %-16s %3u  %6.3f %-16s  %-23s %6s  %c  %9.0f  %6.3f %9.0f  %s", s->id,
		knobs, s->pairs, s->median_ratio, interval, geo, sign_p, sign_char(e->real_sign),
		s->median_ctxt, sim->ratio, sim->switches, same);

	/* No trailing blanks where the last columns are empty. */
	g_string_append_printf(out, "%s\n", g_strchomp(row));
}

static void text_criteria(GString *out, const FidelityMetrics *m)
{
	g_string_append_printf(
		out,
		"  rank correlation of the time ratios %.3f (>= %.1f: %s), of the switches %.3f "
		"(%s); of the real geometric means with the simulated ratios %.3f (not a "
		"criterion)\n",
		m->rank_time, FIDELITY_MIN_RANK, yes_no(m->rank_time_ok), m->rank_switches,
		yes_no(m->rank_switches_ok), m->rank_time_geo);
	g_string_append_printf(
		out,
		"  span of the ratios: simulated %.3f, real %.3f, ratio %.2f (%.1f..%.0f: %s)\n",
		m->sim_span, m->real_span, m->span_ratio, FIDELITY_SPAN_LO, FIDELITY_SPAN_HI,
		yes_no(m->span_ok));
	g_string_append_printf(out, "  significant real effects reproduced: %u of %u (%s)\n",
			       m->reproduced, m->significant, yes_no(m->signs_ok));
	g_string_append_printf(
		out,
		"  switches at the reference: simulated %.0f, real %.0f, ratio %.3f (within "
		"%.1fx: %s)\n",
		m->sim_switches_ref, m->real_switches_ref, m->switch_ratio_ref,
		FIDELITY_SWITCH_FACTOR, yes_no(m->switches_ok));
	g_string_append_printf(
		out, "  seconds at the reference: simulated %.3f, real %.3f, ratio %.3f\n",
		m->sim_seconds_ref, m->real_seconds_ref, m->seconds_ratio_ref);
	g_string_append_printf(
		out,
		"  seconds = fixed + cost x switches over the settings: real %.3f s + "
		"%.1f us a switch, simulated %.3f s + %.1f us\n",
		m->real_fixed_s, m->real_switch_us, m->sim_fixed_s, m->sim_switch_us);
	g_string_append_printf(out,
			       "  rms log error: time ratios %.3f, switches %.3f; all criteria "
			       "met: %s\n",
			       m->rms_log_time, m->rms_log_switches,
			       yes_no(fidelity_metrics_ok(m)));
}

static void text_plan(GString *out, const FidelityReport *r, guint p)
{
	const PlanSpec *plan = plan_set_plan(r->set, p);
	const RealPlan *real = plan->real;
	FidelityMetrics m;

	g_string_append_printf(out, "plan %s (%s): %s\n", plan->name, plan_role_name(plan->role),
			       plan->workload);
	g_string_append_printf(out,
			       "  %s: %u settings, %u rounds in %u boot%s, %u runs left out; "
			       "ratios to '%s' of the same round\n",
			       plan->csv, real->settings->len, real->rounds, real->boots,
			       real->boots == 1 ? "" : "s", real->dropped, real->reference);
	if (real->steal_runs) {
		g_autofree char *cv =
			isnan(plan->stall_cv_pct)
				? g_strdup("")
				: g_strdup_printf(", CV %.2f (the plan's stall_cv_pct)",
						  plan->stall_cv_pct / 100);

		g_string_append_printf(out,
				       "  steal the host measured: %.1f %% of the vCPUs' time, in "
				       "stalls of %.2f ms (medians of %u runs)%s: the simulation "
				       "suffers it too\n",
				       real->steal_ppm / 1e4, real->stall_ns / 1e6,
				       real->steal_runs, cv);
	}
	if (real->shared_runs)
		g_string_append_printf(
			out,
			"  the vCPU threads shared host CPUs %.0f %% of the time (median "
			"of %u runs); twins in spells take their run's share\n",
			real->shared_pct, real->shared_runs);
	if (real->guest_runs)
		g_string_append_printf(
			out,
			"  stalls the guest saw before the runs: %.1f %% of its time, "
			"in stalls of %.3f ms, CV %.1f (medians of %u runs); with "
			"--stalls guest the twins suffer these instead\n",
			real->guest_ppm / 1e4, real->guest_ns / 1e6, real->guest_cv_pct / 100,
			real->guest_runs);
	if (plan->parent_flips >= 0)
		g_string_append_printf(
			out,
			"  the parent's wakee_flips: %d (the plan's parent_flips); a "
			"parent start starts with them\n",
			plan->parent_flips);
	else if (real->flips_runs)
		g_string_append_printf(
			out,
			"  wakee_flips the workers inherited at their forks: median "
			"%.0f of %u runs (the guest's record); a parent start's twins "
			"start with their runs'\n",
			real->parent_flips, real->flips_runs);
	g_string_append_printf(out, "  %-16s %-16s %3s  %-23s  %-23s %6s %2s  %9s  %6s %9s  %s\n",
			       "setting", "lat/min/wake ms", "n", "real ratio [median CI]",
			       "geo. mean [t CI]", "sign p", "sig", "real ctxt", "sim", "sim ctxt",
			       "same sign");
	for (guint i = 0; i < real->settings->len; i++) {
		FidelityEffect e;

		fidelity_effect(real_plan_setting(real, i), &r->sims[p][i], r->sig, &e);
		text_setting(out, real_plan_setting(real, i), &r->sims[p][i], &e);
	}
	fidelity_report_metrics(r, p, &m);
	text_criteria(out, &m);
}

int fidelity_plan_name_width(const PlanSet *set)
{
	int w = 16;

	for (guint p = 0; p < set->plans->len; p++)
		w = MAX(w, (int)strlen(plan_set_plan(set, p)->name));
	return w;
}

char *fidelity_report_text(const FidelityReport *r)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "tuner fidelity: real plans beside the simulation (%s)\n",
			       r->simulation ? r->simulation : "");
	g_string_append_printf(out,
			       "real: median within-round time ratio with its order-statistics "
			       "interval; geometric mean with the t interval of the log ratios; "
			       "sign test; significant (sig) by %s at 95 %%; ctxt = /proc/stat, "
			       "whole command. sim: time ratio with the same seed; switches of "
			       "the whole run, set-up included.\n\n",
			       r->sig == FIDELITY_SIG_T	     ? "the t interval"
			       : r->sig == FIDELITY_SIG_SIGN ? "the sign test"
							     : "both tests");
	for (guint p = 0; p < r->set->plans->len; p++) {
		text_plan(out, r, p);
		g_string_append_c(out, '\n');
	}
	const int w = fidelity_plan_name_width(r->set);

	g_string_append_printf(out, "%-*s %-5s %10s %10s %10s %12s %12s  %s\n", w, "plan", "role",
			       "rank time", "rank ctxt", "span s/r", "signs", "ctxt ref s/r",
			       "all met");
	for (guint p = 0; p < r->set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(r->set, p);
		FidelityMetrics m;
		g_autofree char *signs = NULL;

		fidelity_report_metrics(r, p, &m);
		signs = g_strdup_printf("%u/%u", m.reproduced, m.significant);
		g_string_append_printf(out, "%-*s %-5s %10.3f %10.3f %10.2f %12s %12.3f  %s\n", w,
				       plan->name, plan_role_name(plan->role), m.rank_time,
				       m.rank_switches, m.span_ratio, signs, m.switch_ratio_ref,
				       yes_no(fidelity_metrics_ok(&m)));
	}

	g_autoptr(GArray) totals = fidelity_totals(r);

	g_string_append_printf(out, "\ncriteria met, of %d a plan:\n", FIDELITY_CRITERIA);
	for (guint i = 0; i < totals->len; i++) {
		const FidelityTotal *t = &g_array_index(totals, FidelityTotal, i);
		g_autofree char *group = strcmp(t->kind, "role") == 0
						 ? g_strdup_printf("%s plans", t->name)
						 : g_strdup(t->name);

		g_string_append_printf(out, "  %-32s %3u of %3u, all %d in %u of %u plans\n", group,
				       t->met, FIDELITY_CRITERIA * t->plans, FIDELITY_CRITERIA,
				       t->all_met, t->plans);
	}
	/* Both tables follow the same pairs: their agreements are computed once. */
	g_autoptr(GArray) pairs = plan_pairs(r);

	text_agreement(out, r, pairs);
	text_bands(out, r, pairs);
	return g_string_free(out, FALSE);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static void json_num(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_double(w, v);
}

static void json_count(struct json_writer *w, const char *key, guint64 v)
{
	json_key(w, key);
	json_uint(w, v);
}

static void json_flag(struct json_writer *w, const char *key, gboolean v)
{
	json_key(w, key);
	json_bool(w, v);
}

static void json_real(struct json_writer *w, const RealSetting *s)
{
	json_key(w, "real");
	json_begin_object(w);
	json_count(w, "runs", s->runs);
	json_num(w, "median_ratio", s->median_ratio);
	json_num(w, "ratio_lo", s->ratio_lo);
	json_num(w, "ratio_hi", s->ratio_hi);
	json_num(w, "ratio_coverage", s->ratio_coverage);
	json_num(w, "geo_ratio", s->log.n ? s->log.ratio : NAN);
	json_num(w, "geo_ratio_lo", s->log.n ? s->log.ratio_lo : NAN);
	json_num(w, "geo_ratio_hi", s->log.n ? s->log.ratio_hi : NAN);
	json_num(w, "mean_log", s->log.n ? s->log.mean_log : NAN);
	json_num(w, "t_p", s->log.n ? s->log.p : NAN);
	json_count(w, "sign_faster", s->log.below);
	json_count(w, "sign_slower", s->log.above);
	json_num(w, "sign_p", s->log.n ? s->log.sign_p : NAN);
	json_num(w, "median_seconds", s->median_seconds);
	json_num(w, "median_ctxt", s->median_ctxt);
	json_num(w, "median_ctxt_ratio", s->median_ctxt_ratio);
	json_end_object(w);
}

static void json_sim(struct json_writer *w, const SimSetting *s)
{
	json_key(w, "sim");
	json_begin_object(w);
	json_num(w, "ratio", s->ratio);
	json_num(w, "switches", s->switches);
	json_num(w, "switches_measured", s->switches_measured);
	json_num(w, "runtime_ns", s->runtime_ns);
	json_end_object(w);
}

static void json_setting(struct json_writer *w, const RealSetting *s, const SimSetting *sim,
			 FidelitySignificance sig)
{
	FidelityEffect e;

	fidelity_effect(s, sim, sig, &e);
	json_begin_object(w);
	json_key(w, "id");
	json_string(w, s->id);
	json_key(w, "knobs");
	json_begin_object(w);
	for (int k = 0; k < KNOB_CFS_COUNT; k++) {
		json_key(w, knob_info((enum knob)k)->column);
		json_uint(w, (guint64)knob_get(&s->knobs, (enum knob)k));
	}
	json_end_object(w);
	json_key(w, "migration_cost_ns");
	if (s->migration_cost_ns >= 0)
		json_int(w, s->migration_cost_ns);
	else
		json_null(w);
	json_flag(w, "reference", s->reference);
	json_count(w, "pairs", s->pairs);
	json_real(w, s);
	json_sim(w, sim);
	json_flag(w, "significant", e.significant);
	json_key(w, "real_sign");
	json_int(w, e.real_sign);
	json_key(w, "sim_sign");
	json_int(w, e.sim_sign);
	json_flag(w, "reproduced", e.reproduced);
	json_end_object(w);
}

static void json_criteria(struct json_writer *w, const FidelityMetrics *m)
{
	json_key(w, "criteria");
	json_begin_object(w);
	json_count(w, "settings", m->n);
	json_num(w, "rank_time", m->rank_time);
	json_num(w, "rank_switches", m->rank_switches);
	json_num(w, "rank_time_geo", m->rank_time_geo);
	json_num(w, "real_span", m->real_span);
	json_num(w, "sim_span", m->sim_span);
	json_num(w, "span_ratio", m->span_ratio);
	json_count(w, "significant", m->significant);
	json_count(w, "reproduced", m->reproduced);
	json_num(w, "real_switches_ref", m->real_switches_ref);
	json_num(w, "sim_switches_ref", m->sim_switches_ref);
	json_num(w, "switch_ratio_ref", m->switch_ratio_ref);
	json_num(w, "real_seconds_ref", m->real_seconds_ref);
	json_num(w, "sim_seconds_ref", m->sim_seconds_ref);
	json_num(w, "seconds_ratio_ref", m->seconds_ratio_ref);
	json_num(w, "rms_log_time", m->rms_log_time);
	json_num(w, "rms_log_switches", m->rms_log_switches);
	json_num(w, "real_fixed_s", m->real_fixed_s);
	json_num(w, "real_switch_us", m->real_switch_us);
	json_num(w, "sim_fixed_s", m->sim_fixed_s);
	json_num(w, "sim_switch_us", m->sim_switch_us);
	json_flag(w, "rank_time_ok", m->rank_time_ok);
	json_flag(w, "rank_switches_ok", m->rank_switches_ok);
	json_flag(w, "span_ok", m->span_ok);
	json_flag(w, "signs_ok", m->signs_ok);
	json_flag(w, "switches_ok", m->switches_ok);
	json_flag(w, "all_ok", fidelity_metrics_ok(m));
	json_end_object(w);
}

static void json_range(struct json_writer *w, const char *key, const FidelityRange *band,
		       double model)
{
	const char *verdict = fidelity_verdict_name(fidelity_verdict(band, model));

	json_key(w, key);
	json_begin_object(w);
	json_count(w, "plans", band->plans);
	json_num(w, "min", band->min);
	json_num(w, "median", band->median);
	json_num(w, "max", band->max);
	json_key(w, "verdict");
	if (verdict)
		json_string(w, verdict);
	else
		json_null(w);
	json_end_object(w);
}

static void json_band(struct json_writer *w, const FidelityReport *r, guint p,
		      const FidelityMetrics *m)
{
	FidelityBand b;

	fidelity_band(r->set, p, &b);
	json_key(w, "band");
	json_begin_object(w);
	json_count(w, "min_settings", FIDELITY_BAND_MIN_SETTINGS);
	json_range(w, "time", &b.time, m->rank_time);
	json_range(w, "switches", &b.switches, m->rank_switches);
	json_end_object(w);
}

static void json_plan(struct json_writer *w, const FidelityReport *r, guint p)
{
	const PlanSpec *plan = plan_set_plan(r->set, p);
	const RealPlan *real = plan->real;
	FidelityMetrics m;

	json_begin_object(w);
	json_key(w, "name");
	json_string(w, plan->name);
	json_key(w, "role");
	json_string(w, plan_role_name(plan->role));
	json_key(w, "csv");
	json_string(w, plan->csv);
	json_key(w, "workload");
	json_string(w, plan->workload);
	json_count(w, "rounds", real->rounds);
	json_count(w, "boots", real->boots);
	json_count(w, "dropped", real->dropped);
	json_count(w, "steal_runs", real->steal_runs);
	if (real->steal_runs) {
		json_num(w, "steal_ppm", real->steal_ppm);
		json_num(w, "stall_ns", real->stall_ns);
		if (!isnan(plan->stall_cv_pct))
			json_num(w, "stall_cv_pct", plan->stall_cv_pct);
	}
	if (real->shared_runs) {
		json_count(w, "shared_runs", real->shared_runs);
		json_num(w, "shared_pct", real->shared_pct);
	}
	if (real->guest_runs) {
		json_count(w, "guest_stall_runs", real->guest_runs);
		json_num(w, "guest_stall_ppm", real->guest_ppm);
		json_num(w, "guest_stall_ns", real->guest_ns);
		json_num(w, "guest_stall_cv_pct", real->guest_cv_pct);
	}
	if (plan->parent_flips >= 0)
		json_count(w, "parent_flips", (guint)plan->parent_flips);
	json_count(w, "flips_runs", real->flips_runs);
	if (real->flips_runs)
		json_num(w, "inherited_flips", real->parent_flips);
	json_key(w, "reference");
	json_string(w, real->reference);
	json_key(w, "settings");
	json_begin_array(w);
	for (guint i = 0; i < real->settings->len; i++)
		json_setting(w, real_plan_setting(real, i), &r->sims[p][i], r->sig);
	json_end_array(w);
	fidelity_report_metrics(r, p, &m);
	json_criteria(w, &m);
	json_band(w, r, p, &m);
	json_end_object(w);
}

void fidelity_report_write_json(struct json_writer *w, const FidelityReport *r)
{
	json_begin_object(w);
	json_key(w, "significance");
	json_string(w, fidelity_significance_name(r->sig));
	json_key(w, "simulation");
	json_string(w, r->simulation ? r->simulation : "");
	json_key(w, "plans");
	json_begin_array(w);
	for (guint p = 0; p < r->set->plans->len; p++)
		json_plan(w, r, p);
	json_end_array(w);

	g_autoptr(GArray) totals = fidelity_totals(r);

	json_key(w, "totals");
	json_begin_array(w);
	for (guint i = 0; i < totals->len; i++) {
		const FidelityTotal *t = &g_array_index(totals, FidelityTotal, i);

		json_begin_object(w);
		json_key(w, "kind");
		json_string(w, t->kind);
		json_key(w, "name");
		json_string(w, t->name);
		json_count(w, "criteria_met", t->met);
		json_count(w, "criteria", (guint64)FIDELITY_CRITERIA * t->plans);
		json_count(w, "plans", t->plans);
		json_count(w, "plans_all_met", t->all_met);
		json_end_object(w);
	}
	json_end_array(w);

	g_autoptr(GArray) pairs = plan_pairs(r);

	json_key(w, "agreement");
	json_begin_array(w);
	for (guint i = 0; i < pairs->len; i++) {
		const PlanPair *pp = &g_array_index(pairs, PlanPair, i);

		json_begin_object(w);
		json_key(w, "plans");
		json_begin_array(w);
		json_string(w, pp->a);
		json_string(w, pp->b);
		json_end_array(w);
		json_count(w, "settings", pp->agreement.n);
		json_num(w, "rank_time", pp->agreement.rank_time);
		json_count(w, "settings_switches", pp->agreement.n_switches);
		json_num(w, "rank_switches", pp->agreement.rank_switches);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

char *fidelity_report_json(const FidelityReport *r)
{
	GString *out = g_string_new(NULL);
	struct json_writer w;

	json_init(&w, out, true);
	fidelity_report_write_json(&w, r);
	g_string_append_c(out, '\n');
	return g_string_free(out, FALSE);
}

/* ---- CSV ------------------------------------------------------------------------------------ */

/* A number, or an empty field for NaN. */
static void csv_num(GString *out, const char *fmt, double v)
{
	g_string_append_c(out, ',');
	if (isfinite(v))
		g_string_append_printf(out, fmt, v);
}

char *fidelity_report_csv(const FidelityReport *r)
{
	GString *out = g_string_new(
		"plan,role,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,pairs,"
		"real_ratio,real_ratio_lo,real_ratio_hi,real_geo_ratio,real_geo_lo,real_geo_hi,"
		"sign_p,significant,real_sign,real_ctxt,sim_ratio,sim_switches,"
		"sim_switches_measured,sim_runtime_ns,reproduced\n");

	for (guint p = 0; p < r->set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(r->set, p);

		for (guint i = 0; i < plan->real->settings->len; i++) {
			const RealSetting *s = real_plan_setting(plan->real, i);
			const SimSetting *sim = &r->sims[p][i];
			FidelityEffect e;
			gboolean has = s->log.n > 0;

			fidelity_effect(s, sim, r->sig, &e);
			g_string_append_printf(out,
					       "%s,%s,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
					       ",%" G_GUINT64_FORMAT ",%u",
					       plan->name, plan_role_name(plan->role), s->id,
					       s->knobs.latency_ns, s->knobs.min_granularity_ns,
					       s->knobs.wakeup_granularity_ns, s->pairs);
			csv_num(out, "%.6g", s->median_ratio);
			csv_num(out, "%.6g", s->ratio_lo);
			csv_num(out, "%.6g", s->ratio_hi);
			csv_num(out, "%.6g", has ? s->log.ratio : NAN);
			csv_num(out, "%.6g", has ? s->log.ratio_lo : NAN);
			csv_num(out, "%.6g", has ? s->log.ratio_hi : NAN);
			csv_num(out, "%.6g", has ? s->log.sign_p : NAN);
			g_string_append_printf(out, ",%d,%d", e.significant, e.real_sign);
			csv_num(out, "%.1f", s->median_ctxt);
			csv_num(out, "%.6g", sim->ratio);
			csv_num(out, "%.1f", sim->switches);
			csv_num(out, "%.1f", sim->switches_measured);
			csv_num(out, "%.0f", sim->runtime_ns);
			g_string_append_printf(out, ",%d\n", e.reproduced);
		}
	}
	return g_string_free(out, FALSE);
}

/* A range of the band and the model's verdict against it: empty fields where there are none. */
static void csv_range(GString *out, const FidelityRange *band, double model)
{
	const char *verdict = fidelity_verdict_name(fidelity_verdict(band, model));

	g_string_append_printf(out, ",%u", band->plans);
	csv_num(out, "%.6g", band->min);
	csv_num(out, "%.6g", band->median);
	csv_num(out, "%.6g", band->max);
	g_string_append_printf(out, ",%s", verdict ? verdict : "");
}

char *fidelity_report_plans_csv(const FidelityReport *r)
{
	GString *out =
		g_string_new("plan,role,settings,rank_time,rank_switches,real_span,sim_span,"
			     "span_ratio,significant,reproduced,real_switches_ref,"
			     "sim_switches_ref,switch_ratio_ref,real_seconds_ref,"
			     "sim_seconds_ref,seconds_ratio_ref,rms_log_time,"
			     "rms_log_switches,real_fixed_s,real_switch_us,sim_fixed_s,"
			     "sim_switch_us,rank_time_geo,all_ok,band_time_plans,"
			     "band_time_min,band_time_median,band_time_max,band_time_verdict,"
			     "band_switches_plans,band_switches_min,band_switches_median,"
			     "band_switches_max,band_switches_verdict\n");

	for (guint p = 0; p < r->set->plans->len; p++) {
		const PlanSpec *plan = plan_set_plan(r->set, p);
		FidelityMetrics m;
		FidelityBand b;

		fidelity_report_metrics(r, p, &m);
		g_string_append_printf(out, "%s,%s,%u", plan->name, plan_role_name(plan->role),
				       m.n);
		csv_num(out, "%.6g", m.rank_time);
		csv_num(out, "%.6g", m.rank_switches);
		csv_num(out, "%.6g", m.real_span);
		csv_num(out, "%.6g", m.sim_span);
		csv_num(out, "%.6g", m.span_ratio);
		g_string_append_printf(out, ",%u,%u", m.significant, m.reproduced);
		csv_num(out, "%.1f", m.real_switches_ref);
		csv_num(out, "%.1f", m.sim_switches_ref);
		csv_num(out, "%.6g", m.switch_ratio_ref);
		csv_num(out, "%.6g", m.real_seconds_ref);
		csv_num(out, "%.6g", m.sim_seconds_ref);
		csv_num(out, "%.6g", m.seconds_ratio_ref);
		csv_num(out, "%.6g", m.rms_log_time);
		csv_num(out, "%.6g", m.rms_log_switches);
		csv_num(out, "%.6g", m.real_fixed_s);
		csv_num(out, "%.6g", m.real_switch_us);
		csv_num(out, "%.6g", m.sim_fixed_s);
		csv_num(out, "%.6g", m.sim_switch_us);
		csv_num(out, "%.6g", m.rank_time_geo);
		g_string_append_printf(out, ",%d", fidelity_metrics_ok(&m));
		fidelity_band(r->set, p, &b);
		csv_range(out, &b.time, m.rank_time);
		csv_range(out, &b.switches, m.rank_switches);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
