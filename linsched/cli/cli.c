/*
 * cli.c - the simulation flags (see cli.h).
 */
#include "linsched/cli/cli.h"

#include <math.h>
#include <string.h>

void linsched_cli_init(struct linsched_cli *cli)
{
	memset(cli, 0, sizeof(*cli));
	cli->cpus = cli->domains = cli->hz = -1;
	cli->latency_ns = cli->min_gran_ns = cli->wakeup_gran_ns = cli->migration_cost_ns = -1;
	cli->base_slice_ns = -1;
	cli->switch_cost_ns = cli->wakeup_cost_ns = cli->migrate_cost_ns = -1;
	cli->cache_lines = cli->miss_cost_ps = -1;
	cli->seed = -1;
}

void linsched_cli_clear(struct linsched_cli *cli)
{
	g_free(cli->profile);
	g_free(cli->format);
	g_free(cli->machine);
	g_free(cli->steal);
	g_free(cli->stall_ns);
	g_free(cli->stall_cv);
	cli->profile = cli->format = cli->machine = NULL;
	cli->steal = cli->stall_ns = cli->stall_cv = NULL;
}

GOptionGroup *linsched_cli_group(struct linsched_cli *cli)
{
	const GOptionEntry entries[] = {
		{ "cpus", 0, 0, G_OPTION_ARG_INT64, &cli->cpus, "Number of CPUs, 1..64 (default 2)",
		  "N" },
		{ "domains", 0, 0, G_OPTION_ARG_INT64, &cli->domains,
		  "Memory domains (shared last-level caches); must divide --cpus (default 1)",
		  "N" },
		{ "profile", 0, 0, G_OPTION_ARG_STRING, &cli->profile,
		  "Scheduler profile: 2.6.28 (default) or 6.1 (CFS), eevdf (Linux 6.18) or 6.6 (EEVDF)",
		  "P" },
		{ "hz", 0, 0, G_OPTION_ARG_INT64, &cli->hz,
		  "Ticks per second: 100, 250, 300 or 1000 (default)", "HZ" },
		{ "latency-ns", 0, 0, G_OPTION_ARG_INT64, &cli->latency_ns,
		  "sched_latency_ns (default: profile, scaled for the CPUs)", "NS" },
		{ "min-gran-ns", 0, 0, G_OPTION_ARG_INT64, &cli->min_gran_ns,
		  "sched_min_granularity_ns", "NS" },
		{ "wakeup-gran-ns", 0, 0, G_OPTION_ARG_INT64, &cli->wakeup_gran_ns,
		  "sched_wakeup_granularity_ns", "NS" },
		{ "base-slice-ns", 0, 0, G_OPTION_ARG_INT64, &cli->base_slice_ns,
		  "EEVDF profiles: base_slice_ns, the request of every task (default: profile, scaled "
		  "for the CPUs: 0.70 ms x (1 + ilog2 min(CPUs, 8)) for eevdf, 0.75 ms for 6.6)",
		  "NS" },
		{ "migration-cost-ns", 0, 0, G_OPTION_ARG_INT64, &cli->migration_cost_ns,
		  "sched_migration_cost_ns: a task that ran this recently is cache hot (default 500000)",
		  "NS" },
		{ "switch-cost-ns", 0, 0, G_OPTION_ARG_INT64, &cli->switch_cost_ns,
		  "Virtual CPU time of a context switch (default 2000)", "NS" },
		{ "wakeup-cost-ns", 0, 0, G_OPTION_ARG_INT64, &cli->wakeup_cost_ns,
		  "Virtual CPU time a waker pays per wakeup (default 1000)", "NS" },
		{ "migrate-cost-ns", 0, 0, G_OPTION_ARG_INT64, &cli->migrate_cost_ns,
		  "Virtual CPU time a task pays on arriving at another CPU (default 5000)", "NS" },
		{ "cache-lines", 0, 0, G_OPTION_ARG_INT64, &cli->cache_lines,
		  "Last-level cache per memory domain, in 64-byte lines (default 524288 = 32 MiB)",
		  "N" },
		{ "miss-cost-ps", 0, 0, G_OPTION_ARG_INT64, &cli->miss_cost_ps,
		  "Cost of reloading one cache line, in picoseconds (default 5000)", "PS" },
		{ "cost-jitter", 0, 0, G_OPTION_ARG_DOUBLE, &cli->cost_jitter,
		  "Draw every switch, wakeup, write and read cost from a gamma distribution with "
		  "this coefficient of variation around its mean, 0..2 (default 0: fixed costs)",
		  "CV" },
		{ "steal", 0, 0, G_OPTION_ARG_STRING, &cli->steal,
		  "Share of the time the host holds each virtual CPU, 0 <= F < 1: the CPU executes "
		  "nothing but its task is charged the time (default: the machine's, 0)",
		  "F" },
		{ "stall-ns", 0, 0, G_OPTION_ARG_STRING, &cli->stall_ns,
		  "Mean length of one such stall (default: the machine's)", "NS" },
		{ "stall-cv", 0, 0, G_OPTION_ARG_STRING, &cli->stall_cv,
		  "Coefficient of variation of the stalls' lengths, gamma distributed, 0 < CV <= 10 "
		  "(default: the machine's, 1: exponential)",
		  "CV" },
		{ "machine", 0, 0, G_OPTION_ARG_FILENAME, &cli->machine,
		  "The machine's costs, sizes and HZ from this machine.ini (linsched probe writes "
		  "one) in place of the built-in machine",
		  "FILE" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &cli->seed, "Random seed (default 1)", "S" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &cli->format,
		  "Output: text (default) or json", "F" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionGroup *group = g_option_group_new(
		"sim", "Simulation options:", "Show simulation options", NULL, NULL);

	g_option_group_add_entries(group, entries);
	return group;
}

static bool check_nonneg(const char *flag, gint64 v, GError **error)
{
	if (v < -1) {
		g_set_error(error, CLI_ERROR, 1, "%s: %" G_GINT64_FORMAT " is negative", flag, v);
		return false;
	}
	return true;
}

/* A knob the profile's kernel does not have is an error, not silently ignored. */
static bool check_profile_knobs(const struct linsched_cli *cli, const struct sched_profile *profile,
				GError **error)
{
	const struct {
		const char *flag;
		gint64 v;
	} cfs[] = {
		{ "--latency-ns", cli->latency_ns },
		{ "--min-gran-ns", cli->min_gran_ns },
		{ "--wakeup-gran-ns", cli->wakeup_gran_ns },
	};

	if (profile->knobs == SCHED_KNOBS_EEVDF) {
		for (size_t i = 0; i < G_N_ELEMENTS(cfs); i++)
			if (cfs[i].v >= 0) {
				g_set_error(error, CLI_ERROR, 1,
					    "%s: the %s profile is EEVDF, which has no such knob "
					    "(its knob is --base-slice-ns)",
					    cfs[i].flag, profile->name);
				return false;
			}
	} else if (cli->base_slice_ns >= 0) {
		g_set_error(error, CLI_ERROR, 1,
			    "--base-slice-ns: the %s profile is CFS, which has no base_slice "
			    "(EEVDF's knob: --profile eevdf or 6.6)",
			    profile->name);
		return false;
	}
	return true;
}

/* A number given as text: the whole text, finite, in [lo, hi) (hi_open) or [lo, hi]. */
static bool parse_real(const char *flag, const char *text, double lo, double hi, bool hi_open,
		       double *out, GError **error)
{
	char *end = NULL;
	double v = g_ascii_strtod(text, &end);

	if (end == text || *end != '\0' || !isfinite(v) || v < lo || v > hi ||
	    (hi_open && v == hi)) {
		g_set_error(error, CLI_ERROR, 1, "--%s: '%s' is not a number in [%g, %g%s", flag,
			    text, lo, hi, hi_open ? ")" : "]");
		return false;
	}
	*out = v;
	return true;
}

/* The steal flags over the machine's values. */
static bool apply_steal(const struct linsched_cli *cli, struct linsched_costs *costs,
			GError **error)
{
	double v;

	if (cli->steal) {
		if (!parse_real("steal", cli->steal, 0, 1, true, &v, error))
			return false;
		costs->steal_ppm = (uint64_t)llround(v * (double)LINSCHED_PPM);
	}
	if (cli->stall_ns) {
		if (!parse_real("stall-ns", cli->stall_ns, 1, 1e12, false, &v, error))
			return false;
		costs->stall_ns = (uint64_t)llround(v);
	}
	if (cli->stall_cv) {
		if (!parse_real("stall-cv", cli->stall_cv, 0, LINSCHED_MAX_STALL_CV, false, &v,
				error))
			return false;
		if (v == 0) {
			g_set_error(error, CLI_ERROR, 1, "--stall-cv: must be above 0");
			return false;
		}
		costs->stall_cv = v;
	}
	if (costs->steal_ppm && costs->stall_ns == 0) {
		g_set_error(error, CLI_ERROR, 1,
			    "--steal: needs --stall-ns, the mean length of a stall (the machine "
			    "gives none)");
		return false;
	}
	return true;
}

bool linsched_cli_config(const struct linsched_cli *cli, struct linsched_config *cfg,
			 GError **error)
{
	return linsched_cli_config_on(cli, NULL, cfg, error);
}

bool linsched_cli_config_on(const struct linsched_cli *cli, const struct linsched_machine *machine,
			    struct linsched_config *cfg, GError **error)
{
	const struct sched_profile *profile = sched_profile_default();

	if (cli->profile && !(profile = sched_profile_find(cli->profile))) {
		g_set_error(error, CLI_ERROR, 1, "--profile: unknown profile '%s' (%s)",
			    cli->profile, sched_profile_names());
		return false;
	}
	const struct {
		const char *flag;
		gint64 v;
	} values[] = {
		{ "--cpus", cli->cpus },
		{ "--domains", cli->domains },
		{ "--hz", cli->hz },
		{ "--latency-ns", cli->latency_ns },
		{ "--min-gran-ns", cli->min_gran_ns },
		{ "--wakeup-gran-ns", cli->wakeup_gran_ns },
		{ "--migration-cost-ns", cli->migration_cost_ns },
		{ "--base-slice-ns", cli->base_slice_ns },
		{ "--switch-cost-ns", cli->switch_cost_ns },
		{ "--wakeup-cost-ns", cli->wakeup_cost_ns },
		{ "--migrate-cost-ns", cli->migrate_cost_ns },
		{ "--cache-lines", cli->cache_lines },
		{ "--miss-cost-ps", cli->miss_cost_ps },
		{ "--seed", cli->seed },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(values); i++)
		if (!check_nonneg(values[i].flag, values[i].v, error))
			return false;
	if (cli->cpus == 0 || cli->cpus > SCHED_MAX_CPUS) {
		g_set_error(error, CLI_ERROR, 1, "--cpus: %" G_GINT64_FORMAT " is not in 1..%d",
			    cli->cpus, SCHED_MAX_CPUS);
		return false;
	}

	if (!check_profile_knobs(cli, profile, error))
		return false;

	unsigned int cpus = cli->cpus > 0 ? (unsigned int)cli->cpus : LINSCHED_CLI_DEFAULT_CPUS;

	linsched_config_init(cfg, profile, cpus);
	if (machine) {
		linsched_config_set_machine(cfg, machine);
	} else if (cli->machine) {
		struct linsched_machine m;

		if (!linsched_machine_load(cli->machine, &m, error))
			return false;
		linsched_config_set_machine(cfg, &m);
	}
	if (cli->domains >= 0)
		cfg->nr_domains = (unsigned int)MIN(cli->domains, G_MAXUINT);
	if (cli->hz >= 0)
		cfg->hz = (unsigned int)MIN(cli->hz, G_MAXUINT);
	if (cli->latency_ns >= 0)
		cfg->tun.latency = (uint64_t)cli->latency_ns;
	if (cli->min_gran_ns >= 0)
		cfg->tun.min_granularity = (uint64_t)cli->min_gran_ns;
	if (cli->wakeup_gran_ns >= 0)
		cfg->tun.wakeup_granularity = (uint64_t)cli->wakeup_gran_ns;
	if (cli->migration_cost_ns >= 0)
		cfg->tun.migration_cost = (uint64_t)cli->migration_cost_ns;
	if (cli->base_slice_ns >= 0)
		cfg->tun.base_slice = (uint64_t)cli->base_slice_ns;
	if (cli->switch_cost_ns >= 0)
		cfg->costs.switch_ns = (uint64_t)cli->switch_cost_ns;
	if (cli->wakeup_cost_ns >= 0)
		cfg->costs.wakeup_ns = (uint64_t)cli->wakeup_cost_ns;
	if (cli->migrate_cost_ns >= 0)
		cfg->costs.migrate_ns = (uint64_t)cli->migrate_cost_ns;
	if (cli->cache_lines >= 0)
		cfg->costs.cache_lines = (uint64_t)cli->cache_lines;
	if (cli->miss_cost_ps >= 0)
		cfg->costs.miss_ps = (uint64_t)cli->miss_cost_ps;
	cfg->costs.jitter_cv = cli->cost_jitter;
	if (!apply_steal(cli, &cfg->costs, error))
		return false;
	if (cli->seed >= 0)
		cfg->seed = (uint64_t)cli->seed;
	if (!linsched_config_validate(cfg, error))
		return false;
	sched_tunables_update(&cfg->tun);
	return true;
}

bool linsched_cli_format(const struct linsched_cli *cli, enum output_format *format, GError **error)
{
	if (!cli->format || strcmp(cli->format, "text") == 0) {
		*format = FORMAT_TEXT;
		return true;
	}
	if (strcmp(cli->format, "json") == 0) {
		*format = FORMAT_JSON;
		return true;
	}
	g_set_error(error, CLI_ERROR, 1, "--format: '%s' is not text or json", cli->format);
	return false;
}
