/*
 * period_space.c - Golden Section's SchedPeriod space (see period_space.h).
 */
#include "tuner/knobs/period_space.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/knobs/discovery.h"

#define PERIOD_SPACE_ERROR g_quark_from_static_string("period-space")
#define PERIOD_MAX_NS	   1e15

bool period_space_init(struct period_space *s, int rule, unsigned int ntasks, GError **error)
{
	GError *local = NULL;

	if (!tuner_discovery_check(rule, ntasks, &local)) {
		g_set_error(error, PERIOD_SPACE_ERROR, 1, "--rule: %s", local->message);
		g_error_free(local);
		return false;
	}
	s->rule = rule;
	s->ntasks = ntasks;
	s->log = true;
	tuner_discovery_bracket(rule, ntasks, &s->lo_ns, &s->hi_ns);
	return true;
}

static bool parse_period(const char *text, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	return errno == 0 && end != text && *end == '\0' && isfinite(*out);
}

bool period_space_parse_bracket(struct period_space *s, const char *text, GError **error)
{
	const char *colon = strchr(text, ':');
	double lo, hi;

	if (!colon) {
		g_set_error(error, PERIOD_SPACE_ERROR, 1,
			    "--bracket: '%s' is not LO:HI (SchedPeriod in ns)", text);
		return false;
	}
	g_autofree char *lo_text = g_strndup(text, (gsize)(colon - text));

	if (!parse_period(lo_text, &lo) || !parse_period(colon + 1, &hi)) {
		g_set_error(error, PERIOD_SPACE_ERROR, 1,
			    "--bracket: '%s' is not LO:HI with numbers of ns", text);
		return false;
	}
	if (!(lo > 0 && lo < hi && hi <= PERIOD_MAX_NS)) {
		g_set_error(error, PERIOD_SPACE_ERROR, 1,
			    "--bracket: %s needs 0 < LO < HI <= %.0f ns", text, PERIOD_MAX_NS);
		return false;
	}
	s->lo_ns = lo;
	s->hi_ns = hi;
	return true;
}

double period_space_period(const struct period_space *s, double u)
{
	/* The ends exactly: exp(log(lo)) may differ from lo in the last bit, and a rule's clamping
	 * test would then see a period just outside the bracket it was given. */
	if (!(u > 0))
		return s->lo_ns;
	if (u >= 1)
		return s->hi_ns;
	if (!s->log)
		return s->lo_ns + u * (s->hi_ns - s->lo_ns);
	return exp(log(s->lo_ns) + u * (log(s->hi_ns) - log(s->lo_ns)));
}

double period_space_unit(const struct period_space *s, double period_ns)
{
	double u = s->log ? (log(period_ns) - log(s->lo_ns)) / (log(s->hi_ns) - log(s->lo_ns))
			  : (period_ns - s->lo_ns) / (s->hi_ns - s->lo_ns);

	return fmin(1, fmax(0, u));
}

void period_space_to_knobs(const struct period_space *s, double u, Knobs *out,
			   unsigned int *clamped)
{
	double k[KNOB_CFS_COUNT];

	tuner_discovery_apply(s->rule, period_space_period(s, u), s->ntasks, k, clamped);
	/* The clamped values are inside the sysctl ranges, so they round to in-range integers. */
	for (int i = 0; i < KNOB_CFS_COUNT; i++)
		knob_set(out, (enum knob)i, k[i]);
}

void period_space_map(const double *unit, Knobs *knobs, void *ctx)
{
	period_space_to_knobs(ctx, unit[0], knobs, NULL);
}

char *period_space_describe(const struct period_space *s)
{
	return g_strdup_printf("sched_period=%.17g:%.17g:%s rule=%d ntasks=%u", s->lo_ns, s->hi_ns,
			       s->log ? "log" : "linear", s->rule, s->ntasks);
}

char *period_space_clamped_names(unsigned int clamped, const char *separator)
{
	GString *out = g_string_new(NULL);

	for (int i = 0; i < KNOB_CFS_COUNT; i++) {
		if (!(clamped & 1u << i))
			continue;
		if (out->len)
			g_string_append(out, separator);
		g_string_append(out, knob_name((enum knob)i));
	}
	return g_string_free(out, FALSE);
}
