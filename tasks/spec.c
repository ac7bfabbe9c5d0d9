/*
 * spec.c - parsing "--task kind:key=value:..." and creating the tasks it describes.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tasks/tasks.h"

#define SPEC_ERROR g_quark_from_static_string("task-spec")

enum spec_key {
	K_NICE,
	K_COUNT,
	K_LOOPS,
	K_BUSY,
	K_SLEEP,
	K_DIST,
	K_CV,
	K_SLICE
};

static const char *const key_names[] = {
	[K_NICE] = "nice",	[K_COUNT] = "count", [K_LOOPS] = "loops", [K_BUSY] = "busy_ms",
	[K_SLEEP] = "sleep_ms", [K_DIST] = "dist",   [K_CV] = "cv",	  [K_SLICE] = "slice_ns",
};

#define KEY(k)	    (1U << (k))
#define COMMON_KEYS (KEY(K_NICE) | KEY(K_COUNT) | KEY(K_SLICE))

static const struct {
	const char *kind;
	unsigned int keys;
} kinds[] = {
	{ "cpu", COMMON_KEYS },
	{ "sleeprun", COMMON_KEYS | KEY(K_LOOPS) | KEY(K_BUSY) | KEY(K_SLEEP) },
	{ "randsleeprun",
	  COMMON_KEYS | KEY(K_LOOPS) | KEY(K_BUSY) | KEY(K_SLEEP) | KEY(K_DIST) | KEY(K_CV) },
};

static bool parse_long(const char *key, const char *value, long lo, long hi, long *out,
		       GError **error)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s=%s is not an integer", key, value);
		return false;
	}
	if (v < lo || v > hi) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s=%ld is outside %ld..%ld", key, v, lo,
			    hi);
		return false;
	}
	*out = v;
	return true;
}

static bool parse_ms(const char *key, const char *value, double *out, GError **error)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !isfinite(v)) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s=%s is not a number", key, value);
		return false;
	}
	if (v < 0 || v > 3600e3) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s=%s is outside 0..3600000", key,
			    value);
		return false;
	}
	*out = v;
	return true;
}

/* One key=value of text into spec; a key not allowed, or one already in *seen, is an error. */
static bool parse_pair(struct task_spec *spec, unsigned int allowed, unsigned int *seen,
		       const char *text, const char *pair, GError **error)
{
	const char *eq = strchr(pair, '=');

	if (!eq) {
		g_set_error(error, SPEC_ERROR, 1, "--task: '%s' is not key=value", pair);
		return false;
	}
	g_autofree char *key = g_strndup(pair, (gsize)(eq - pair));
	const char *value = eq + 1;
	int k = -1;

	for (size_t i = 0; i < G_N_ELEMENTS(key_names); i++)
		if (strcmp(key, key_names[i]) == 0)
			k = (int)i;
	if (k < 0 || !(allowed & KEY(k))) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s tasks have no key '%s'", spec->kind,
			    key);
		return false;
	}
	if (*seen & KEY(k)) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s gives %s twice", text, key);
		return false;
	}
	*seen |= KEY(k);

	long v;

	switch ((enum spec_key)k) {
	case K_NICE:
		if (!parse_long(key, value, MIN_NICE, MAX_NICE, &v, error))
			return false;
		spec->nice = (int)v;
		return true;
	case K_COUNT:
		if (!parse_long(key, value, 1, 100000, &v, error))
			return false;
		spec->count = (unsigned int)v;
		return true;
	case K_LOOPS:
		if (!parse_long(key, value, 0, 1000000000L, &v, error))
			return false;
		spec->loops = (unsigned long)v;
		return true;
	case K_BUSY:
		return parse_ms(key, value, &spec->busy_ms, error);
	case K_SLEEP:
		return parse_ms(key, value, &spec->sleep_ms, error);
	case K_CV:
		return parse_ms(key, value, &spec->cv, error);
	case K_SLICE:
		if (!parse_long(key, value, (long)SCHED_CUSTOM_SLICE_MIN,
				(long)SCHED_CUSTOM_SLICE_MAX, &v, error))
			return false;
		spec->slice_ns = (uint64_t)v;
		return true;
	case K_DIST:
		if (strcmp(value, "exponential") == 0 || strcmp(value, "exp") == 0)
			spec->dist = DIST_EXPONENTIAL;
		else if (strcmp(value, "normal") == 0)
			spec->dist = DIST_NORMAL;
		else if (strcmp(value, "lognormal") == 0)
			spec->dist = DIST_LOGNORMAL;
		else {
			g_set_error(error, SPEC_ERROR, 1,
				    "--task: dist=%s is not exponential, normal or lognormal",
				    value);
			return false;
		}
		return true;
	}
	return false;
}

bool task_spec_parse(const char *text, struct task_spec *spec, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, ":", -1);
	unsigned int allowed = 0, seen = 0;

	memset(spec, 0, sizeof(*spec));
	spec->count = 1;
	spec->busy_ms = 1;
	spec->sleep_ms = 1;
	spec->cv = 0.5;
	for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++)
		if (parts[0] && strcmp(parts[0], kinds[i].kind) == 0) {
			spec->kind = kinds[i].kind;
			allowed = kinds[i].keys;
		}
	if (!spec->kind) {
		g_set_error(error, SPEC_ERROR, 1,
			    "--task: unknown task kind '%s' (cpu, sleeprun, randsleeprun)",
			    parts[0] ? parts[0] : "");
		return false;
	}
	for (size_t i = 1; parts[i]; i++)
		if (!parse_pair(spec, allowed, &seen, text, parts[i], error))
			return false;
	if ((seen & KEY(K_CV)) && spec->dist == DIST_EXPONENTIAL) {
		g_set_error(error, SPEC_ERROR, 1,
			    "--task: %s: an exponential draw's cv is 1; cv is for dist=normal or "
			    "lognormal",
			    text);
		return false;
	}
	if (strcmp(spec->kind, "cpu") != 0 && spec->busy_ms <= 0 && spec->sleep_ms <= 0) {
		g_set_error(error, SPEC_ERROR, 1, "--task: %s needs busy_ms or sleep_ms above 0",
			    spec->kind);
		return false;
	}
	return true;
}

bool task_spec_check_profile(const struct task_spec *spec, const struct sched_profile *profile,
			     GError **error)
{
	if (spec->slice_ns && !(profile->features & (1U << SF_CUSTOM_SLICE))) {
		g_set_error(error, SPEC_ERROR, 1,
			    "--task: slice_ns needs a kernel with per-task slices (Linux 6.12+: "
			    "--profile eevdf), not the %s profile",
			    profile->name);
		return false;
	}
	return true;
}

void task_spec_spawn(struct linsched_sim *sim, const struct task_spec *spec)
{
	for (unsigned int i = 0; i < spec->count; i++) {
		char name[LINSCHED_COMM_LEN];

		/* comm is 15 characters in a kernel: keep the kind short enough to leave room. */
		g_snprintf(name, sizeof(name), "%.8s-%u", spec->kind, linsched_sim_nr_tasks(sim));
		if (strcmp(spec->kind, "cpu") == 0)
			cpu_task_create_sliced(sim, name, spec->nice, spec->slice_ns);
		else
			sleeprun_task_create(sim, spec, name);
	}
}
