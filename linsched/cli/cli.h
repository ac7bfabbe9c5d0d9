/*
 * cli.h - the command-line flags every simulation takes (topology, profile, knobs, HZ, costs,
 * seed, output format, machine), shared by `linsched run`, `linsched hackbench` and the tuner.
 * The flags fill a struct linsched_cli; linsched_cli_config() turns it into a validated
 * configuration: the profile's defaults for the CPU count on the machine of --machine (or the
 * built-in one), then every value the user gave, as given.
 */
#ifndef LINSCHED_CLI_H
#define LINSCHED_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "linsched/cli/flags.h"
#include "linsched/sim.h"

enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON
};

/* A value not given (flags.h) is the profile's or the machine's default; those given are taken
 * as they are. */
struct linsched_cli {
	gint64 cpus, domains, hz;
	char *profile;
	gint64 latency_ns, min_gran_ns, wakeup_gran_ns, migration_cost_ns, base_slice_ns;
	gint64 switch_cost_ns, wakeup_cost_ns, migrate_cost_ns, cache_lines, miss_cost_ps;
	gint64 seed;
	double cost_jitter;
	double steal;	     /* a fraction of each CPU's time; the machine's unless given */
	gint64 stall_ns;     /* the mean stall; the machine's unless given */
	double stall_cv;     /* the stalls' shape; the machine's unless given */
	gint64 host_cpus;    /* CPUs in turns on this many host CPUs, in place of steal; 0: none */
	gint64 host_hz;	     /* steal's stalls on the host's ticks of this HZ; 0: at random */
	gint64 host_lead_ns; /* how long before the guest's ticks the host's come */
	gint64 shared_ns; /* spells of turns on host_cpus host CPUs; the machine's unless given */
	gint64 apart_ns;  /* and spells on CPUs of their own, with the steal, between them */
	char *format;
	char *machine; /* --machine FILE: machine.ini in place of the built-in machine */
	char *preempt; /* --preempt MODEL: the machine's, or full, unless given */
	/* A command's own defaults, set before linsched_cli_config: the CPUs when --cpus is not
	 * given, the HZ when neither --hz nor the machine gives one; 0: the simulator's (2 CPUs,
	 * HZ 1000). `tuner calibrate` sets those of the machine its real runs run on. */
	unsigned int default_cpus, default_hz;
	struct flag_set flags;
};

#define LINSCHED_CLI_DEFAULT_CPUS 2

void linsched_cli_init(struct linsched_cli *cli);
void linsched_cli_clear(struct linsched_cli *cli);
/* The flags as a GOptionGroup (owned by the caller's GOptionContext once added); every number
 * is checked against its range as it is parsed. */
GOptionGroup *linsched_cli_group(struct linsched_cli *cli);
/* The configuration the flags describe; false with a one-line error naming the flag. */
bool linsched_cli_config(const struct linsched_cli *cli, struct linsched_config *cfg,
			 GError **error);
/* The same on machine m in place of --machine's (the tuner's fit varies the machine); m NULL:
 * --machine's, or the built-in one. It lets --host-hz go without steal, which
 * linsched_cli_config refuses: the tuner's twins of real runs bring the steal they measured. */
bool linsched_cli_config_on(const struct linsched_cli *cli, const struct linsched_machine *m,
			    struct linsched_config *cfg, GError **error);
bool linsched_cli_format(const struct linsched_cli *cli, enum output_format *format,
			 GError **error);

#define CLI_ERROR g_quark_from_static_string("linsched-cli")

#endif
