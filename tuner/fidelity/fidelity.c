/*
 * fidelity.c - the fidelity criteria of one plan (see fidelity.h).
 */
#include "tuner/fidelity/fidelity.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

#include "tuner/stats/median.h"

static const char *const significance_names[] = { "t", "sign", "both" };

gboolean fidelity_significance_parse(const char *name, FidelitySignificance *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(significance_names); i++)
		if (strcmp(name, significance_names[i]) == 0) {
			*out = (FidelitySignificance)i;
			return TRUE;
		}
	return FALSE;
}

const char *fidelity_significance_name(FidelitySignificance sig)
{
	return significance_names[sig];
}

static int sign_of(double x)
{
	return x > 0 ? 1 : x < 0 ? -1 : 0;
}

void fidelity_effect(const RealSetting *real, const SimSetting *sim, FidelitySignificance sig,
		     FidelityEffect *out)
{
	const PairedStats *s = &real->log;
	gboolean by_t = s->n >= 2 && isfinite(s->ratio_lo) && isfinite(s->ratio_hi) &&
			(s->ratio_lo > 1 || s->ratio_hi < 1);
	gboolean by_sign = s->n >= 1 && s->below + s->above > 0 && s->sign_p < 1 - REAL_PLAN_LEVEL;

	memset(out, 0, sizeof(*out));
	out->sim_sign = isfinite(sim->ratio) && sim->ratio > 0 ? sign_of(log(sim->ratio)) : 0;
	if (real->reference)
		return;
	out->significant = sig == FIDELITY_SIG_T      ? by_t
			   : sig == FIDELITY_SIG_SIGN ? by_sign
						      : by_t && by_sign;
	if (!out->significant)
		return;
	out->real_sign =
		sig == FIDELITY_SIG_SIGN ? (s->below > s->above ? -1 : 1) : sign_of(s->mean_log);
	out->reproduced = out->real_sign != 0 && out->sim_sign == out->real_sign;
}

double fidelity_spearman(const double *x, const double *y, size_t n)
{
	if (n < 2)
		return NAN;
	g_autofree double *work = g_new(double, 2 * n);
	double r = gsl_stats_spearman(x, 1, y, 1, n, work);

	return isfinite(r) ? r : NAN;
}

static gboolean knobs_same(const Knobs *a, const Knobs *b)
{
	return a->latency_ns == b->latency_ns && a->min_granularity_ns == b->min_granularity_ns &&
	       a->wakeup_granularity_ns == b->wakeup_granularity_ns &&
	       a->migration_cost_ns == b->migration_cost_ns && a->base_slice_ns == b->base_slice_ns;
}

/* b's setting with s's knobs that has a median ratio, or NULL. */
static const RealSetting *setting_like(const RealPlan *b, const RealSetting *s)
{
	for (guint j = 0; j < b->settings->len; j++) {
		const RealSetting *t = real_plan_setting(b, j);

		if (t->pairs > 0 && knobs_same(&t->knobs, &s->knobs))
			return t;
	}
	return NULL;
}

void fidelity_agreement(const RealPlan *a, const RealPlan *b, FidelityAgreement *out)
{
	const guint n_all = a->settings->len;
	g_autofree double *ta = g_new(double, n_all), *tb = g_new(double, n_all);
	g_autofree double *ca = g_new(double, n_all), *cb = g_new(double, n_all);

	memset(out, 0, sizeof(*out));
	out->rank_time = out->rank_switches = NAN;
	/* Ratios to different references are not comparable. */
	if (!knobs_same(&real_plan_setting(a, a->reference_index)->knobs,
			&real_plan_setting(b, b->reference_index)->knobs))
		return;
	for (guint i = 0; i < n_all; i++) {
		const RealSetting *s = real_plan_setting(a, i);
		const RealSetting *t = s->pairs > 0 ? setting_like(b, s) : NULL;

		if (!t)
			continue;
		ta[out->n] = s->median_ratio;
		tb[out->n++] = t->median_ratio;
		if (isfinite(s->median_ctxt) && isfinite(t->median_ctxt)) {
			ca[out->n_switches] = s->median_ctxt;
			cb[out->n_switches++] = t->median_ctxt;
		}
	}
	out->rank_time = fidelity_spearman(ta, tb, out->n);
	out->rank_switches = fidelity_spearman(ca, cb, out->n_switches);
}

/* The range of v[0..n) (sorted in place). */
static void range_of(double *v, guint n, FidelityRange *out)
{
	out->plans = n;
	out->min = out->max = NAN;
	out->median = stats_median(v, n);
	if (n > 0) {
		out->min = v[0];
		out->max = v[n - 1];
	}
}

void fidelity_band(const PlanSet *set, guint p, FidelityBand *out)
{
	const PlanSpec *plan = plan_set_plan(set, p);
	g_autofree double *times = g_new(double, set->plans->len);
	g_autofree double *switches = g_new(double, set->plans->len);
	guint nt = 0, ns = 0;

	for (guint q = 0; q < set->plans->len; q++) {
		const PlanSpec *other = plan_set_plan(set, q);
		FidelityAgreement a;

		if (q == p || strcmp(other->workload, plan->workload) != 0)
			continue;
		fidelity_agreement(plan->real, other->real, &a);
		if (a.n >= FIDELITY_BAND_MIN_SETTINGS && isfinite(a.rank_time))
			times[nt++] = a.rank_time;
		if (a.n_switches >= FIDELITY_BAND_MIN_SETTINGS && isfinite(a.rank_switches))
			switches[ns++] = a.rank_switches;
	}
	range_of(times, nt, &out->time);
	range_of(switches, ns, &out->switches);
}

FidelityVerdict fidelity_verdict(const FidelityRange *band, double rank)
{
	/* Rank correlations of a few settings fall on a coarse grid (0.7, 0.9, ...), and a model
	 * often lands on a value of the band exactly, which Spearman's arithmetic gives once as
	 * 0.7 and once as 0.69999999999999984: equal they are. */
	const double eps = FIDELITY_BAND_EPS;

	if (band->plans == 0 || !isfinite(rank))
		return FIDELITY_VERDICT_NONE;
	/* Above first: a band of one partner is a point, and matching it is doing as well. */
	return rank >= band->max - eps	 ? FIDELITY_VERDICT_ABOVE
	       : rank >= band->min - eps ? FIDELITY_VERDICT_WITHIN
					 : FIDELITY_VERDICT_BELOW;
}

const char *fidelity_verdict_name(FidelityVerdict v)
{
	static const char *const names[] = { NULL, "below", "within", "above" };

	return names[v];
}

/* max - min of v[0..n); NaN when n = 0. */
static double span(const double *v, size_t n)
{
	double lo, hi;

	if (n == 0)
		return NAN;
	gsl_stats_minmax(&lo, &hi, v, 1, n);
	return hi - lo;
}

/* The line seconds = *fixed_s + *switch_us x 1e-6 x switches through n points; NaN when it is
 * not determined. */
static void cost_line(const double *switches, const double *seconds, size_t n, double *fixed_s,
		      double *switch_us)
{
	double c0, c1, cov00, cov01, cov11, sumsq;

	*fixed_s = *switch_us = NAN;
	if (n < 3 ||
	    gsl_fit_linear(switches, 1, seconds, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) !=
		    GSL_SUCCESS ||
	    !isfinite(c0) || !isfinite(c1))
		return;
	*fixed_s = c0;
	*switch_us = c1 * 1e6;
}

/* The real and the simulated cost line through the settings that have a real ratio, a real
 * switch count and simulated ones (the settings rank_switches compares). */
static void cost_lines(const RealPlan *real, const SimSetting *sim, double *real_fixed_s,
		       double *real_switch_us, double *sim_fixed_s, double *sim_switch_us)
{
	const guint n_all = real->settings->len;
	g_autofree double *rc = g_new(double, n_all), *sc = g_new(double, n_all);
	g_autofree double *rs = g_new(double, n_all), *ss = g_new(double, n_all);
	guint n = 0;

	for (guint i = 0; i < n_all; i++) {
		const RealSetting *r = real_plan_setting(real, i);

		if (r->pairs == 0 || !isfinite(sim[i].ratio) || !isfinite(r->median_ctxt) ||
		    !isfinite(sim[i].switches))
			continue;
		rc[n] = r->median_ctxt;
		rs[n] = r->median_seconds;
		sc[n] = sim[i].switches;
		ss[n++] = sim[i].runtime_ns * 1e-9;
	}
	cost_line(rc, rs, n, real_fixed_s, real_switch_us);
	cost_line(sc, ss, n, sim_fixed_s, sim_switch_us);
}

void fidelity_metrics(const RealPlan *real, const SimSetting *sim, FidelitySignificance sig,
		      FidelityMetrics *out)
{
	const guint n_all = real->settings->len;
	g_autofree double *rr = g_new(double, n_all), *sr = g_new(double, n_all);
	g_autofree double *rg = g_new(double, n_all);
	g_autofree double *rc = g_new(double, n_all), *sc = g_new(double, n_all);
	double sq_time = 0, sq_switches = 0;
	guint nc = 0, nt = 0, ns = 0;

	memset(out, 0, sizeof(*out));
	for (guint i = 0; i < n_all; i++) {
		const RealSetting *r = real_plan_setting(real, i);
		FidelityEffect e;

		if (r->pairs == 0 || !isfinite(sim[i].ratio))
			continue;
		rg[out->n] = r->log.ratio;
		rr[out->n] = r->median_ratio;
		sr[out->n++] = sim[i].ratio;
		if (sim[i].ratio > 0) {
			double d = log(sim[i].ratio) - log(r->median_ratio);

			sq_time += d * d;
			nt++;
		}
		if (isfinite(r->median_ctxt) && isfinite(sim[i].switches)) {
			rc[nc] = r->median_ctxt;
			sc[nc++] = sim[i].switches;
			if (r->median_ctxt > 0 && sim[i].switches > 0) {
				double d = log(sim[i].switches) - log(r->median_ctxt);

				sq_switches += d * d;
				ns++;
			}
		}
		fidelity_effect(r, &sim[i], sig, &e);
		out->significant += e.significant;
		out->reproduced += e.reproduced;
	}
	out->rank_time = fidelity_spearman(rr, sr, out->n);
	out->rank_switches = fidelity_spearman(rc, sc, nc);
	out->rank_time_geo = fidelity_spearman(rg, sr, out->n);
	out->real_span = span(rr, out->n);
	out->sim_span = span(sr, out->n);
	out->span_ratio = out->real_span > 0 ? out->sim_span / out->real_span : NAN;
	out->rms_log_time = nt ? sqrt(sq_time / nt) : NAN;
	out->rms_log_switches = ns ? sqrt(sq_switches / ns) : NAN;
	cost_lines(real, sim, &out->real_fixed_s, &out->real_switch_us, &out->sim_fixed_s,
		   &out->sim_switch_us);

	const RealSetting *ref = real_plan_setting(real, real->reference_index);

	out->real_switches_ref = ref->median_ctxt;
	out->sim_switches_ref = sim[real->reference_index].switches;
	out->switch_ratio_ref =
		out->real_switches_ref > 0 ? out->sim_switches_ref / out->real_switches_ref : NAN;
	out->real_seconds_ref = ref->median_seconds;
	out->sim_seconds_ref = sim[real->reference_index].runtime_ns * 1e-9;
	out->seconds_ratio_ref =
		out->real_seconds_ref > 0 ? out->sim_seconds_ref / out->real_seconds_ref : NAN;

	/* NaN fails every comparison, so a missing figure fails its criterion. */
	out->rank_time_ok = out->rank_time >= FIDELITY_MIN_RANK;
	out->rank_switches_ok = out->rank_switches >= FIDELITY_MIN_RANK;
	out->span_ok = out->span_ratio >= FIDELITY_SPAN_LO && out->span_ratio <= FIDELITY_SPAN_HI;
	out->signs_ok = out->reproduced == out->significant;
	out->switches_ok = out->switch_ratio_ref >= 1 / FIDELITY_SWITCH_FACTOR &&
			   out->switch_ratio_ref <= FIDELITY_SWITCH_FACTOR;
}

gboolean fidelity_metrics_ok(const FidelityMetrics *m)
{
	return m->rank_time_ok && m->rank_switches_ok && m->span_ok && m->signs_ok &&
	       m->switches_ok;
}

guint fidelity_metrics_met(const FidelityMetrics *m)
{
	return (guint)m->rank_time_ok + (guint)m->rank_switches_ok + (guint)m->span_ok +
	       (guint)m->signs_ok + (guint)m->switches_ok;
}

double fidelity_loss(const RealPlan *real, const SimSetting *sim, const FidelityLoss *weights)
{
	double time = 0, switches = 0, ref_switches = 0;
	guint nt = 0, nc = 0;

	for (guint i = 0; i < real->settings->len; i++) {
		const RealSetting *r = real_plan_setting(real, i);

		if (r->pairs > 0) {
			if (!(sim[i].ratio > 0) || !isfinite(sim[i].ratio))
				return INFINITY;
			double d = log(sim[i].ratio) - log(r->median_ratio);

			time += d * d;
			nt++;
		}
		if (isfinite(r->median_ctxt) && r->median_ctxt > 0) {
			if (!(sim[i].switches > 0) || !isfinite(sim[i].switches))
				return INFINITY;
			double d = log(sim[i].switches) - log(r->median_ctxt);

			switches += d * d;
			nc++;
			if (i == real->reference_index)
				ref_switches = weights->ref_switch_weight * d * d;
		}
	}
	double seconds = 0;

	if (weights->seconds_weight > 0) {
		const RealSetting *r = real_plan_setting(real, real->reference_index);
		double sim_ns = sim[real->reference_index].runtime_ns;

		if (!(sim_ns > 0) || !isfinite(sim_ns))
			return INFINITY;
		if (r->median_seconds > 0) {
			double d = log(sim_ns * 1e-9) - log(r->median_seconds);

			seconds = weights->seconds_weight * d * d;
		}
	}
	double line = 0;

	if (weights->line_weight > 0) {
		double rf, rs, sf, ss;

		cost_lines(real, sim, &rf, &rs, &sf, &ss);
		if (rf > 0 && rs > 0) { /* a real line to compare with */
			if (!isfinite(sf) || !isfinite(ss))
				return INFINITY;
			double df = (sf - rf) / rf, ds = (ss - rs) / rs;

			line = weights->line_weight * (df * df + ds * ds) / 2;
		}
	}
	return (nt ? weights->time_weight * time / nt : 0) +
	       (nc ? weights->switch_weight * switches / nc : 0) + seconds + line + ref_switches;
}
