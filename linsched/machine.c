/*
 * machine.c - the built-in machine and machine.ini (see machine.h).
 */
#include "linsched/machine.h"

#include "kernel-extract/sched.h"
#include "linsched/cache.h"

#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <string.h>
#include <time.h>

void linsched_machine_builtin(struct linsched_machine *m)
{
	*m = (struct linsched_machine){
		.hz = 0,
		.switch_ns = LINSCHED_DEFAULT_SWITCH_NS,
		.thread_switch_ns = 1800,
		.process_switch_ns = 5700,
		.wakeup_ns = LINSCHED_DEFAULT_WAKEUP_NS,
		.process_wakeup_ns = 0,
		.wakeup_remote_ns = 0,
		.ipi_ns = 0,
		.wakeup_tail_ns = 0,
		.migrate_ns = LINSCHED_DEFAULT_MIGRATE_NS,
		.cache_lines = LINSCHED_DEFAULT_CACHE_LINES,
		.miss_ps = LINSCHED_DEFAULT_MISS_PS,
		.socket_write_ns = 1090,
		.socket_read_ns = 1190,
		.pipe_write_ns = 360,
		.pipe_read_ns = 370,
		.socket_sndbuf_bytes = 212992, /* net.core.wmem_default */
		.socket_msg_overhead = 666,
		.pipe_bytes = 65536, /* 16 pages */
		.steal_ppm = 0,
		.stall_ns = 0,
		.stall_cv_pct = 100,
		.noise_ppm = 0,
		.noise_ns = 0,
		.noise_cv_pct = 100,
		.long_ppm = 0,
		.long_ns = 0,
		.long_cv_pct = 100,
		.footprint_lines = 0,
		.data_cache_lines = 0,
		.data_miss_ps = 0,
	};
}

/* What the capacity keys say until the end of the file, when the overhead is derived. */
struct capacity {
	uint64_t message_bytes, socket_msgs;
	int msgs_line;
};

enum field_use {
	USED,
	INFO, /* read and checked, not used */
};

struct key {
	const char *group, *name;
	size_t offset; /* into struct linsched_machine, for USED uint64 fields */
	enum field_use use;
};

#define M(f) offsetof(struct linsched_machine, f)

static const struct key keys[] = {
	{ "machine", "kernel", 0, INFO },
	{ "machine", "cpus", 0, INFO },
	{ "machine", "hz", 0, USED },
	{ "machine", "preempt", 0, USED },
	{ "machine", "tick_ns", 0, INFO },
	{ "machine", "tick_res_ns", 0, INFO },
	{ "machine", "trials", 0, INFO },
	{ "costs", "socket_write_ns", M(socket_write_ns), USED },
	{ "costs", "socket_read_ns", M(socket_read_ns), USED },
	{ "costs", "pipe_write_ns", M(pipe_write_ns), USED },
	{ "costs", "pipe_read_ns", M(pipe_read_ns), USED },
	{ "costs", "socket_block_ns", M(socket_block_ns), USED },
	{ "costs", "pipe_block_ns", M(pipe_block_ns), USED },
	{ "costs", "wakeup_ns", M(wakeup_ns), USED },
	{ "costs", "process_wakeup_ns", M(process_wakeup_ns), USED },
	{ "costs", "wakeup_remote_ns", M(wakeup_remote_ns), USED },
	{ "costs", "ipi_ns", M(ipi_ns), USED },
	{ "costs", "wakeup_tail_ns", M(wakeup_tail_ns), USED },
	{ "costs", "thread_switch_ns", M(thread_switch_ns), USED },
	{ "costs", "process_switch_ns", M(process_switch_ns), USED },
	{ "costs", "switch_ns", M(switch_ns), USED },
	{ "costs", "migrate_ns", M(migrate_ns), USED },
	{ "costs", "cache_lines", M(cache_lines), USED },
	{ "costs", "miss_ps", M(miss_ps), USED },
	{ "costs", "cache_ways", M(cache_ways), USED },
	{ "costs", "footprint_lines", M(footprint_lines), USED },
	{ "costs", "data_cache_lines", M(data_cache_lines), USED },
	{ "costs", "data_miss_ps", M(data_miss_ps), USED },
	{ "capacity", "message_bytes", 0, USED },
	{ "capacity", "socket_msgs", 0, USED },
	{ "capacity", "socket_sndbuf_bytes", M(socket_sndbuf_bytes), USED },
	{ "capacity", "pipe_bytes", M(pipe_bytes), USED },
	{ "capacity", "pipe_msgs", 0, INFO },
	{ "steal", "steal_ppm", M(steal_ppm), USED },
	{ "steal", "stall_ns", M(stall_ns), USED },
	{ "steal", "stall_cv_pct", M(stall_cv_pct), USED },
	{ "steal", "host_hz", 0, USED },
	{ "steal", "host_lead_ns", M(host_lead_ns), USED },
	{ "steal", "host_cpus", M(host_cpus), USED },
	{ "steal", "shared_ns", M(shared_ns), USED },
	{ "steal", "apart_ns", M(apart_ns), USED },
	{ "launch", "wakee_flips", M(launch_wakee_flips), USED },
	{ "noise", "noise_ppm", M(noise_ppm), USED },
	{ "noise", "noise_ns", M(noise_ns), USED },
	{ "noise", "noise_cv_pct", M(noise_cv_pct), USED },
	{ "noise", "long_ppm", M(long_ppm), USED },
	{ "noise", "long_ns", M(long_ns), USED },
	{ "noise", "long_cv_pct", M(long_cv_pct), USED },
};

static bool fail(GError **error, const char *path, unsigned int line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static bool fail(GError **error, const char *path, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line)
		g_set_error(error, LINSCHED_MACHINE_ERROR, 1, "--machine: %s:%u: %s", path, line,
			    msg);
	else
		g_set_error(error, LINSCHED_MACHINE_ERROR, 1, "--machine: %s: %s", path, msg);
	return false;
}

static bool set_value(struct linsched_machine *m, struct capacity *cap, const struct key *k,
		      const char *value, const char *path, unsigned int line, GError **error)
{
	guint64 v;

	if (strcmp(k->name, "kernel") == 0)
		return true;
	if (strcmp(k->name, "preempt") == 0) {
		m->preempt = linsched_preempt_parse(value);
		if (m->preempt == LINSCHED_PREEMPT_UNSET)
			return fail(error, path, line,
				    "preempt: '%s' is not one of " LINSCHED_PREEMPT_NAMES, value);
		return true;
	}
	/* A whole number; [spread] quartiles aside, nothing here can be negative. */
	if (!g_ascii_string_to_unsigned(value, 10, 0, G_MAXINT64, &v, NULL))
		return fail(error, path, line, "%s: '%s' is not a whole number", k->name, value);
	if (k->use == INFO)
		return true;
	if (strcmp(k->name, "hz") == 0 || strcmp(k->name, "host_hz") == 0) {
		bool host =
			strcmp(k->name, "host_hz") == 0; /* 0 is no host tick; no guest lacks one */

		if (!linsched_hz_valid(v) && !(host && v == 0))
			return fail(error, path, line,
				    "%s: %" G_GUINT64_FORMAT " is not one of 100, 250, 300, 1000%s",
				    k->name, v, host ? " (0: no host tick)" : "");
		*(host ? &m->host_hz : &m->hz) = (unsigned int)v;
		return true;
	}
	if (strcmp(k->name, "host_lead_ns") == 0 && v >= 10000000)
		return fail(error, path, line,
			    "host_lead_ns: %" G_GUINT64_FORMAT " is not below 10000000 (a tick "
			    "at HZ 100)",
			    v);
	if (strcmp(k->name, "message_bytes") == 0 || strcmp(k->name, "socket_msgs") == 0) {
		if (v == 0)
			return fail(error, path, line, "%s: must be at least 1", k->name);
		if (k->name[0] == 'm') {
			cap->message_bytes = v;
		} else {
			cap->socket_msgs = v;
			cap->msgs_line = (int)line;
		}
		return true;
	}
	if ((strcmp(k->name, "steal_ppm") == 0 || strcmp(k->name, "noise_ppm") == 0 ||
	     strcmp(k->name, "long_ppm") == 0) &&
	    v >= 1000000)
		return fail(error, path, line,
			    "%s: %" G_GUINT64_FORMAT
			    " is not below 1000000 (a CPU that never runs)",
			    k->name, v);
	if ((strcmp(k->name, "stall_cv_pct") == 0 || strcmp(k->name, "noise_cv_pct") == 0 ||
	     strcmp(k->name, "long_cv_pct") == 0) &&
	    (v == 0 || v > 1000))
		return fail(error, path, line, "%s: %" G_GUINT64_FORMAT " is not in 1..1000",
			    k->name, v);
	if (strcmp(k->name, "cache_ways") == 0 && v > CACHE_MAX_WAYS)
		return fail(error, path, line,
			    "cache_ways: %" G_GUINT64_FORMAT
			    " is more than %d (0: fully associative)",
			    v, CACHE_MAX_WAYS);
	if (strcmp(k->name, "host_cpus") == 0 && v >= SCHED_MAX_CPUS)
		return fail(error, path, line, "host_cpus: %" G_GUINT64_FORMAT " is not below %d",
			    v, SCHED_MAX_CPUS);
	if (strcmp(k->name, "wakee_flips") == 0 && v > 1000000)
		return fail(error, path, line,
			    "wakee_flips: %" G_GUINT64_FORMAT " is more than 1000000", v);
	if ((strcmp(k->name, "cache_lines") == 0 || strcmp(k->name, "socket_sndbuf_bytes") == 0 ||
	     strcmp(k->name, "pipe_bytes") == 0) &&
	    v == 0)
		return fail(error, path, line, "%s: must be at least 1", k->name);
	*(uint64_t *)((char *)m + k->offset) = v;
	return true;
}

static bool parse(const char *text, const char *path, struct linsched_machine *m, GError **error)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *group = NULL;
	struct capacity cap = { 100, 0, 0 };

	for (unsigned int i = 0; lines[i]; i++) {
		unsigned int line = i + 1;
		char *l = g_strstrip(lines[i]);

		if (*l == '\0' || *l == '#')
			continue;
		if (*l == '[') {
			size_t n = strlen(l);

			if (n < 3 || l[n - 1] != ']')
				return fail(error, path, line, "'%s' is not a [group] line", l);
			g_free(group);
			group = g_strndup(l + 1, n - 2);
			if (strcmp(group, "machine") != 0 && strcmp(group, "costs") != 0 &&
			    strcmp(group, "capacity") != 0 && strcmp(group, "steal") != 0 &&
			    strcmp(group, "launch") != 0 && strcmp(group, "noise") != 0 &&
			    strcmp(group, "spread") != 0)
				return fail(error, path, line,
					    "unknown group [%s] (machine, costs, capacity, steal, "
					    "launch, noise, spread)",
					    group);
			continue;
		}
		char *eq = strchr(l, '=');

		if (!eq)
			return fail(error, path, line, "'%s' is not a key=value line", l);
		*eq = '\0';
		const char *name = g_strstrip(l), *value = g_strstrip(eq + 1);

		if (!group)
			return fail(error, path, line, "%s= before any [group]", name);
		if (strcmp(group, "spread") == 0) {
			gint64 v;

			if (!g_ascii_string_to_signed(value, 10, G_MININT64, G_MAXINT64, &v, NULL))
				return fail(error, path, line, "%s: '%s' is not a whole number",
					    name, value);
			continue;
		}
		const struct key *k = NULL;

		for (size_t j = 0; j < G_N_ELEMENTS(keys) && !k; j++)
			if (strcmp(keys[j].group, group) == 0 && strcmp(keys[j].name, name) == 0)
				k = &keys[j];
		if (!k)
			return fail(error, path, line, "unknown key '%s' in [%s]", name, group);
		if (!set_value(m, &cap, k, value, path, line, error))
			return false;
	}
	if (cap.socket_msgs) {
		uint64_t per_msg = m->socket_sndbuf_bytes / cap.socket_msgs;

		if (per_msg < cap.message_bytes)
			return fail(error, path, (unsigned int)cap.msgs_line,
				    "socket_msgs: %" G_GUINT64_FORMAT
				    " messages of %" G_GUINT64_FORMAT
				    " bytes do not fit in %" G_GUINT64_FORMAT " bytes",
				    cap.socket_msgs, cap.message_bytes, m->socket_sndbuf_bytes);
		m->socket_msg_overhead = per_msg - cap.message_bytes;
	}
	if (m->noise_ppm && m->noise_ns == 0)
		return fail(error, path, 0, "[noise]: noise_ppm needs noise_ns, the mean stall");
	if (m->long_ppm && m->long_ns == 0)
		return fail(error, path, 0, "[noise]: long_ppm needs long_ns, the mean long stall");
	if (!m->shared_ns != !m->apart_ns || (m->shared_ns && !m->host_cpus))
		return fail(error, path, 0,
			    "[steal]: spells need shared_ns, apart_ns and host_cpus, all three");
	if (m->host_cpus && !m->shared_ns)
		return fail(error, path, 0,
			    "[steal]: host_cpus alone would replace every run's measured steal; it "
			    "takes spells (shared_ns, apart_ns)");
	return true;
}

bool linsched_machine_load(const char *path, struct linsched_machine *m, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;

	linsched_machine_builtin(m);
	if (!g_file_get_contents(path, &text, NULL, &local))
		return fail(error, path, 0, "%s", local->message);
	return parse(text, path, m, error);
}

static const char *const preempt_names[] = {
	[LINSCHED_PREEMPT_FULL] = "full",
	[LINSCHED_PREEMPT_VOLUNTARY] = "voluntary",
	[LINSCHED_PREEMPT_NONE] = "none",
};

const char *linsched_preempt_name(enum linsched_preempt p)
{
	return (size_t)p < G_N_ELEMENTS(preempt_names) ? preempt_names[p] : NULL;
}

enum linsched_preempt linsched_preempt_parse(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(preempt_names); i++)
		if (preempt_names[i] && strcmp(name, preempt_names[i]) == 0)
			return (enum linsched_preempt)i;
	return LINSCHED_PREEMPT_UNSET;
}

bool linsched_hz_valid(uint64_t hz)
{
	return hz == 100 || hz == 250 || hz == 300 || hz == 1000;
}

unsigned int linsched_host_hz(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0)
		return 0;
	double jiffy = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
	uint64_t hz = jiffy > 0 ? (uint64_t)llround(1e9 / jiffy) : 0;

	return linsched_hz_valid(hz) ? (unsigned int)hz : 0;
}
