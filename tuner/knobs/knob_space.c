/*
 * knob_space.c - the knob search space (see knob_space.h).
 */
#include "tuner/knobs/knob_space.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KNOB_ERROR    g_quark_from_static_string("knob-space")
#define LOG_OFFSET_NS 1000.0

static void update_free(struct knob_space *s)
{
	s->dim = 0;
	for (int k = 0; k < KNOB_COUNT; k++)
		if ((s->set & KNOB_BIT(k)) && !s->k[k].fixed)
			s->free[s->dim++] = (enum knob)k;
}

void knob_space_init(struct knob_space *s, bool log)
{
	knob_space_init_set(s, KNOB_SET_CFS, log);
}

void knob_space_init_set(struct knob_space *s, KnobSet set, bool log)
{
	s->set = set & KNOB_SET_ALL;
	for (int k = 0; k < KNOB_COUNT; k++)
		s->k[k] = (struct knob_range){ .lo = (double)knob_info((enum knob)k)->min_ns,
					       .hi = (double)knob_info((enum knob)k)->max_ns,
					       .log = log };
	update_free(s);
}

static bool parse_ns(const char *flag, const char *text, enum knob k, double *out, GError **error)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v)) {
		g_set_error(error, KNOB_ERROR, 1, "%s: '%s' is not a number of ns", flag, text);
		return false;
	}
	if (v < (double)knob_info(k)->min_ns || v > (double)knob_info(k)->max_ns) {
		g_set_error(error, KNOB_ERROR, 1,
			    "%s: %s=%s is outside the sysctl range %.0f..%.0f", flag,
			    knob_name((enum knob)k), text, (double)knob_info(k)->min_ns,
			    (double)knob_info(k)->max_ns);
		return false;
	}
	*out = v;
	return true;
}

/* "knob=rest": the knob and where rest starts. */
static bool split_knob(const char *flag, const char *text, enum knob *k, const char **rest,
		       GError **error)
{
	const char *eq = strchr(text, '=');
	g_autofree char *name = eq ? g_strndup(text, (gsize)(eq - text)) : NULL;

	if (!eq || !knob_from_name(name, k)) {
		g_set_error(error, KNOB_ERROR, 1, "%s: '%s' is not knob=... with knob one of %s",
			    flag, text, knob_names_list());
		return false;
	}
	*rest = eq + 1;
	return true;
}

bool knob_space_parse_range(struct knob_space *s, const char *text, GError **error)
{
	enum knob k;
	const char *rest;

	if (!split_knob("--range", text, &k, &rest, error))
		return false;
	if (!(s->set & KNOB_BIT(k))) {
		g_autofree char *names = knob_set_names(s->set, ",");

		g_set_error(error, KNOB_ERROR, 1, "--range: %s is not searched (--knobs %s)",
			    knob_name(k), names);
		return false;
	}

	const char *colon = strchr(rest, ':');

	if (!colon) {
		g_set_error(error, KNOB_ERROR, 1, "--range: '%s' is not knob=lo:hi", text);
		return false;
	}
	g_autofree char *lo_text = g_strndup(rest, (gsize)(colon - rest));
	double lo, hi;

	if (!parse_ns("--range", lo_text, k, &lo, error) ||
	    !parse_ns("--range", colon + 1, k, &hi, error))
		return false;
	if (lo >= hi) {
		g_set_error(error, KNOB_ERROR, 1, "--range: %s needs lo < hi, got %s",
			    knob_name((enum knob)k), rest);
		return false;
	}
	s->k[k].lo = lo;
	s->k[k].hi = hi;
	s->k[k].fixed = false;
	update_free(s);
	return true;
}

bool knob_space_parse_fix(struct knob_space *s, const char *text, GError **error)
{
	enum knob k;
	const char *rest;
	double v;

	if (!split_knob("--fix", text, &k, &rest, error) || !parse_ns("--fix", rest, k, &v, error))
		return false;
	s->set |= KNOB_BIT(k);
	s->k[k].fixed = true;
	s->k[k].value = v;
	update_free(s);
	return true;
}

bool knob_space_parse_scale(struct knob_space *s, const char *name, bool log, GError **error)
{
	enum knob k;

	if (!knob_from_name(name, &k)) {
		g_set_error(error, KNOB_ERROR, 1, "%s: '%s' is not %s", log ? "--log" : "--linear",
			    name, knob_names_list());
		return false;
	}
	if (!(s->set & KNOB_BIT(k))) {
		g_autofree char *names = knob_set_names(s->set, ",");

		g_set_error(error, KNOB_ERROR, 1, "%s: %s is not searched (--knobs %s)",
			    log ? "--log" : "--linear", knob_name(k), names);
		return false;
	}
	s->k[k].log = log;
	return true;
}

static double offset(const struct knob_range *r)
{
	return r->lo > 0 ? 0 : LOG_OFFSET_NS;
}

static double to_natural(const struct knob_range *r, double u)
{
	u = fmin(1, fmax(0, u));
	if (!r->log)
		return r->lo + u * (r->hi - r->lo);

	double c = offset(r);

	return exp(log(r->lo + c) + u * (log(r->hi + c) - log(r->lo + c))) - c;
}

static double to_unit(const struct knob_range *r, double v)
{
	double u;

	if (!r->log) {
		u = (v - r->lo) / (r->hi - r->lo);
	} else {
		double c = offset(r);

		u = (log(v + c) - log(r->lo + c)) / (log(r->hi + c) - log(r->lo + c));
	}
	return fmin(1, fmax(0, u));
}

void knob_space_to_knobs(const struct knob_space *s, const double *unit, Knobs *out)
{
	for (int k = 0; k < KNOB_COUNT; k++)
		if (!(s->set & KNOB_BIT(k)))
			knob_set(out, (enum knob)k, 0);
		else if (s->k[k].fixed)
			knob_set(out, (enum knob)k, s->k[k].value);
	for (unsigned int i = 0; i < s->dim; i++) {
		const struct knob_range *r = &s->k[s->free[i]];
		double v = fmin(r->hi, fmax(r->lo, to_natural(r, unit[i])));

		knob_set(out, s->free[i], v);
	}
}

void knob_space_map(const double *unit, Knobs *knobs, void *ctx)
{
	knob_space_to_knobs(ctx, unit, knobs);
}

void knob_space_from_knobs(const struct knob_space *s, const Knobs *k, double *unit)
{
	for (unsigned int i = 0; i < s->dim; i++)
		unit[i] = to_unit(&s->k[s->free[i]], knob_get(k, s->free[i]));
}

char *knob_space_describe(const struct knob_space *s)
{
	GString *out = g_string_new(NULL);

	for (int k = 0; k < KNOB_COUNT; k++) {
		const struct knob_range *r = &s->k[k];

		if (!(s->set & KNOB_BIT(k)))
			continue;
		if (out->len)
			g_string_append(out, " ");
		if (r->fixed)
			g_string_append_printf(out, "%s=%.0f", knob_name((enum knob)k), r->value);
		else
			g_string_append_printf(out, "%s=%.0f:%.0f:%s", knob_name((enum knob)k),
					       r->lo, r->hi, r->log ? "log" : "linear");
	}
	return g_string_free(out, FALSE);
}
