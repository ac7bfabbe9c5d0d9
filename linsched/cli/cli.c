/*
 * cli.c - the simulation flags (see cli.h).
 */
#include "linsched/cli/cli.h"

#include <math.h>
#include <string.h>

void linsched_cli_init(struct linsched_cli *cli)
{
	memset(cli, 0, sizeof(*cli));
	flag_set_init(&cli->flags);
}

void linsched_cli_clear(struct linsched_cli *cli)
{
	g_free(cli->profile);
	g_free(cli->format);
	g_free(cli->machine);
	g_free(cli->preempt);
	cli->profile = cli->format = cli->machine = cli->preempt = NULL;
	flag_set_clear(&cli->flags);
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
		{ "preempt", 0, 0, G_OPTION_ARG_STRING, &cli->preempt,
		  "The kernel's preemption model: full (default) preempts at once; voluntary and "
		  "none let a task inside a system call keep its CPU until it returns or sleeps "
		  "(default: the machine's, if it says)",
		  "MODEL" },
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
		{ "steal", 0, 0, G_OPTION_ARG_DOUBLE, &cli->steal,
		  "Share of the time the host holds each virtual CPU, 0 <= F < 1: the CPU executes "
		  "nothing but its task is charged the time (default: the machine's, 0)",
		  "F" },
		{ "stall-ns", 0, 0, G_OPTION_ARG_INT64, &cli->stall_ns,
		  "Mean length of one such stall, at least 1 (default: the machine's)", "NS" },
		{ "stall-cv", 0, 0, G_OPTION_ARG_DOUBLE, &cli->stall_cv,
		  "Coefficient of variation of the stalls' lengths, gamma distributed, 0 < CV <= 10 "
		  "(default: the machine's, 1: exponential)",
		  "CV" },
		{ "host-cpus", 0, 0, G_OPTION_ARG_INT64, &cli->host_cpus,
		  "The virtual CPUs share N host CPUs, fewer than --cpus, and take turns on them "
		  "(one turn lasts --stall-ns on average, CV --stall-cv): at most N run at once, in "
		  "place of --steal's independent stalls (default 0: a host CPU each)",
		  "N" },
		{ "host-hz", 0, 0, G_OPTION_ARG_INT64, &cli->host_hz,
		  "Put --steal's stalls on the host's ticks of this HZ (100, 250, 300 or 1000): "
		  "each CPU runs and waits whole host ticks, as beside a busy loop on its host CPU, "
		  "the stalls --stall-ns on average but at least one tick; with --host-cpus, turns "
		  "that end at host ticks (default 0: at random moments)",
		  "HZ" },
		{ "host-lead-ns", 0, 0, G_OPTION_ARG_INT64, &cli->host_lead_ns,
		  "With --host-hz: the host's ticks come this long before the guest's, below one "
		  "host tick (default 0: at the same instants)",
		  "NS" },
		{ "shared-ns", 0, 0, G_OPTION_ARG_INT64, &cli->shared_ns,
		  "Alternate spells in which the CPUs share --host-cpus host CPUs in turns, this "
		  "long on average, with spells on CPUs of their own with --steal's stalls, "
		  "--apart-ns long, as a loaded host's balancer moves its vCPU threads (default: "
		  "the machine's, 0: none)",
		  "NS" },
		{ "apart-ns", 0, 0, G_OPTION_ARG_INT64, &cli->apart_ns,
		  "With --shared-ns: the mean length of a spell on CPUs of their own (default: the "
		  "machine's)",
		  "NS" },
		{ "machine", 0, 0, G_OPTION_ARG_FILENAME, &cli->machine,
		  "The machine's costs, sizes and HZ from this machine.ini (linsched probe writes "
		  "one) in place of the built-in machine",
		  "FILE" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &cli->seed, "Random seed (default 1)", "S" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &cli->format,
		  "Output: text (default) or json", "F" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	/* The knobs' sysctl and debugfs ranges; costs and sizes as machine.ini takes them. */
	const struct flag_limits limits[] = {
		FLAG_INT(&cli->cpus, 1, SCHED_MAX_CPUS),
		FLAG_INT(&cli->domains, 1, SCHED_MAX_CPUS),
		FLAG_INT(&cli->hz, 100, 1000),
		FLAG_INT(&cli->latency_ns, SCHED_LATENCY_MIN, SCHED_LATENCY_MAX),
		FLAG_INT(&cli->min_gran_ns, SCHED_MIN_GRAN_MIN, SCHED_MIN_GRAN_MAX),
		FLAG_INT(&cli->wakeup_gran_ns, SCHED_WAKEUP_GRAN_MIN, SCHED_WAKEUP_GRAN_MAX),
		FLAG_INT(&cli->base_slice_ns, SCHED_BASE_SLICE_MIN, SCHED_BASE_SLICE_MAX),
		FLAG_INT(&cli->migration_cost_ns, 0, G_MAXINT64),
		FLAG_INT(&cli->switch_cost_ns, 0, G_MAXINT64),
		FLAG_INT(&cli->wakeup_cost_ns, 0, G_MAXINT64),
		FLAG_INT(&cli->migrate_cost_ns, 0, G_MAXINT64),
		FLAG_INT(&cli->cache_lines, 1, G_MAXINT64),
		FLAG_INT(&cli->miss_cost_ps, 0, G_MAXINT64),
		FLAG_INT(&cli->seed, 0, G_MAXINT64),
		FLAG_REAL(&cli->cost_jitter, 0, LINSCHED_MAX_JITTER_CV, FLAG_CLOSED),
		FLAG_REAL(&cli->steal, 0, 1, FLAG_OPEN_HI),
		FLAG_INT(&cli->stall_ns, 1, 1000000000000LL), /* 1000 s */
		FLAG_REAL(&cli->stall_cv, 0, LINSCHED_MAX_STALL_CV, FLAG_OPEN_LO),
		FLAG_INT(&cli->host_cpus, 0, SCHED_MAX_CPUS - 1),
		FLAG_INT(&cli->host_hz, 0, 1000),
		FLAG_INT(&cli->host_lead_ns, 0, NSEC_PER_SEC / 100 - 1),
		FLAG_INT(&cli->shared_ns, 0, 1000000000000LL), /* 1000 s */
		FLAG_INT(&cli->apart_ns, 0, 1000000000000LL),
	};
	GOptionGroup *group = flag_group_new(&cli->flags, "sim",
					     "Simulation options:", "Show simulation options");

	flag_group_add(&cli->flags, group, entries, limits, G_N_ELEMENTS(limits));
	return group;
}

/* Whether the user gave the flag of this field of cli. */
#define GIVEN(field) flag_given(&cli->flags, &cli->field)

/* A knob the profile's kernel does not have is an error, not silently ignored. */
static bool check_profile_knobs(const struct linsched_cli *cli, const struct sched_profile *profile,
				GError **error)
{
	const char *cfs = flag_first_given(&cli->flags, &cli->latency_ns, &cli->min_gran_ns,
					   &cli->wakeup_gran_ns, NULL);

	if (profile->knobs == SCHED_KNOBS_EEVDF) {
		if (cfs) {
			g_set_error(error, CLI_ERROR, 1,
				    "%s: the %s profile is EEVDF, which has no such knob "
				    "(its knob is --base-slice-ns)",
				    cfs, profile->name);
			return false;
		}
	} else if (GIVEN(base_slice_ns)) {
		g_set_error(error, CLI_ERROR, 1,
			    "--base-slice-ns: the %s profile is CFS, which has no base_slice "
			    "(EEVDF's knob: --profile eevdf or 6.6)",
			    profile->name);
		return false;
	}
	return true;
}

/* The steal flags given over the machine's values; steal with no stall length is an error. */
static bool apply_steal(const struct linsched_cli *cli, struct linsched_costs *costs,
			GError **error)
{
	if (GIVEN(steal)) {
		costs->steal_ppm = (uint64_t)llround(cli->steal * (double)LINSCHED_PPM);
		/* Parts per million is the model's resolution: just below 1 rounds to 1. */
		if (costs->steal_ppm >= LINSCHED_PPM) {
			g_set_error(
				error, CLI_ERROR, 1,
				"--steal: %.10g is a CPU the host never runs, to a millionth; at "
				"most 0.999999",
				cli->steal);
			return false;
		}
	}
	if (GIVEN(stall_ns))
		costs->stall_ns = (uint64_t)cli->stall_ns;
	if (GIVEN(stall_cv))
		costs->stall_cv = cli->stall_cv;
	if (GIVEN(shared_ns))
		costs->shared_ns = (uint64_t)cli->shared_ns;
	if (GIVEN(apart_ns))
		costs->apart_ns = (uint64_t)cli->apart_ns;
	if (GIVEN(host_cpus) && cli->host_cpus == 0) {
		/* A host CPU each: no turns, and so no spells of them. */
		costs->host_cpus = 0;
		costs->shared_ns = costs->apart_ns = 0;
	}
	if (costs->shared_ns || costs->apart_ns) {
		if (!costs->shared_ns || !costs->apart_ns) {
			g_set_error(error, CLI_ERROR, 1,
				    "--shared-ns, --apart-ns: spells alternate between the two; "
				    "give both");
			return false;
		}
		if (GIVEN(host_cpus))
			costs->host_cpus = (unsigned int)cli->host_cpus;
		if (!costs->host_cpus) {
			g_set_error(error, CLI_ERROR, 1,
				    "--shared-ns: the CPUs share --host-cpus host CPUs in its "
				    "spells; give it");
			return false;
		}
	} else if (GIVEN(host_cpus) && cli->host_cpus > 0) {
		if (GIVEN(steal)) {
			g_set_error(error, CLI_ERROR, 1,
				    "--host-cpus: the CPUs' turns replace --steal's stalls; give "
				    "one");
			return false;
		}
		/* The machine's steal was measured on CPUs of their own: the turns replace it. */
		costs->steal_ppm = 0;
		costs->host_cpus = (unsigned int)cli->host_cpus;
		if (!GIVEN(stall_ns)) {
			g_set_error(error, CLI_ERROR, 1,
				    "--host-cpus: needs --stall-ns, the mean length of a turn");
			return false;
		}
	}
	if (GIVEN(host_hz))
		costs->host_hz = (unsigned int)cli->host_hz;
	if (GIVEN(host_lead_ns)) {
		if (!costs->host_hz) {
			g_set_error(error, CLI_ERROR, 1,
				    "--host-lead-ns: places the host's ticks; needs --host-hz");
			return false;
		}
		costs->host_lead_ns = (uint64_t)cli->host_lead_ns;
	}
	if (costs->steal_ppm && !costs->host_hz && costs->stall_ns == 0) {
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
	if (!linsched_cli_config_on(cli, NULL, cfg, error))
		return false;
	if (cfg->costs.host_hz && !cfg->costs.steal_ppm && !cfg->costs.host_cpus) {
		g_set_error(error, CLI_ERROR, 1,
			    "--host-hz: puts --steal's stalls or --host-cpus's turns on the host's "
			    "ticks; needs one (the machine gives no steal)");
		return false;
	}
	return true;
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
	if (!check_profile_knobs(cli, profile, error))
		return false;

	unsigned int cpus = GIVEN(cpus)		? (unsigned int)cli->cpus
			    : cli->default_cpus ? cli->default_cpus
						: LINSCHED_CLI_DEFAULT_CPUS;

	linsched_config_init(cfg, profile, cpus);
	if (machine) {
		linsched_config_set_machine(cfg, machine);
	} else if (cli->machine) {
		struct linsched_machine m;

		if (!linsched_machine_load(cli->machine, &m, error))
			return false;
		linsched_config_set_machine(cfg, &m);
	}
	if (cli->preempt) {
		cfg->preempt = linsched_preempt_parse(cli->preempt);
		if (cfg->preempt == LINSCHED_PREEMPT_UNSET) {
			g_set_error(error, CLI_ERROR, 1,
				    "--preempt: '%s' is not one of " LINSCHED_PREEMPT_NAMES,
				    cli->preempt);
			return false;
		}
	}
	/* The ranges of linsched_cli_group() keep every value inside its field's type. */
	if (GIVEN(domains))
		cfg->nr_domains = (unsigned int)cli->domains;
	if (GIVEN(hz))
		cfg->hz = (unsigned int)cli->hz;
	else if (!cfg->machine.hz && cli->default_hz)
		cfg->hz = cli->default_hz;
	if (GIVEN(latency_ns))
		cfg->tun.latency = (uint64_t)cli->latency_ns;
	if (GIVEN(min_gran_ns))
		cfg->tun.min_granularity = (uint64_t)cli->min_gran_ns;
	if (GIVEN(wakeup_gran_ns))
		cfg->tun.wakeup_granularity = (uint64_t)cli->wakeup_gran_ns;
	if (GIVEN(migration_cost_ns))
		cfg->tun.migration_cost = (uint64_t)cli->migration_cost_ns;
	if (GIVEN(base_slice_ns))
		cfg->tun.base_slice = (uint64_t)cli->base_slice_ns;
	if (GIVEN(switch_cost_ns))
		cfg->costs.switch_ns = (uint64_t)cli->switch_cost_ns;
	if (GIVEN(wakeup_cost_ns))
		cfg->costs.wakeup_ns = (uint64_t)cli->wakeup_cost_ns;
	if (GIVEN(migrate_cost_ns))
		cfg->costs.migrate_ns = (uint64_t)cli->migrate_cost_ns;
	if (GIVEN(cache_lines))
		cfg->costs.cache_lines = (uint64_t)cli->cache_lines;
	if (GIVEN(miss_cost_ps))
		cfg->costs.miss_ps = (uint64_t)cli->miss_cost_ps;
	cfg->costs.jitter_cv = cli->cost_jitter;
	if (!apply_steal(cli, &cfg->costs, error))
		return false;
	if (GIVEN(seed))
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
