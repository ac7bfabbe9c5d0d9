/*
 * tests/linsched/cli/test_cli_config.c - the configuration the simulation flags describe on a
 * machine the caller gives (linsched_cli_config_on, which the tuner's fit varies), and the
 * workload's cache footprint taken from the machine unless --footprint-lines is given, the
 * steal flags over the machine's [steal], and the switch and wakeup costs of the task kind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib.h>

#include "linsched/cli/cli.h"
#include "linsched/cli/hackbench_cli.h"
#include "tests/support/support.h"

/* cli and hc (fresh from their init; hc may be NULL) filled from the NULL-terminated flags as a
 * command line fills them: a value set in the struct is not given (flags.h). */
static void parse(struct linsched_cli *cli, struct hackbench_cli *hc, const char *const *args)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	GError *error = NULL;

	g_ptr_array_add(argv, (gpointer) "test");
	for (size_t i = 0; args[i]; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	g_option_context_add_group(ctx, linsched_cli_group(cli));
	if (hc)
		g_option_context_add_group(ctx, hackbench_cli_group(hc, true));

	int argc = (int)argv->len - 1;
	char **p = (char **)argv->pdata;

	if (!g_option_context_parse(ctx, &argc, &p, &error))
		fail_msg("%s", error->message);
	assert_int_equal(argc, 1);
}

/* A machine given by the caller replaces --machine's; the flags still win over it. */
static void test_config_on_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_cli cli;
	struct linsched_machine m;
	struct linsched_config cfg;
	GError *error = NULL;

	assert_true(g_file_set_contents(path, "[costs]\nwakeup_ns=7000\nmiss_ps=9000\n", -1, NULL));
	linsched_cli_init(&cli);
	parse(&cli, NULL, (const char *const[]){ "--machine", path, "--profile", "6.1", NULL });

	assert_true(linsched_cli_config_on(&cli, NULL, &cfg, &error));
	assert_int_equal(cfg.costs.wakeup_ns, 7000); /* --machine's */
	assert_int_equal(cfg.costs.miss_ps, 9000);

	linsched_machine_builtin(&m);
	m.wakeup_ns = 4321;
	m.miss_ps = 1234;
	assert_true(linsched_cli_config_on(&cli, &m, &cfg, &error));
	assert_int_equal(cfg.costs.wakeup_ns, 4321);
	assert_int_equal(cfg.costs.miss_ps, 1234);
	assert_int_equal(cfg.machine.wakeup_ns, 4321);

	linsched_cli_clear(&cli);
	linsched_cli_init(&cli);
	parse(&cli, NULL,
	      (const char *const[]){ "--machine", path, "--profile", "6.1", "--miss-cost-ps", "55",
				     NULL });
	assert_true(linsched_cli_config_on(&cli, &m, &cfg, &error));
	assert_int_equal(cfg.costs.miss_ps, 55);
	assert_int_equal(cfg.costs.wakeup_ns, 4321);
	assert_null(error);
	linsched_cli_clear(&cli);
}

/* The configuration of the flags on machine.ini path; false with the error in *error. */
static bool config_with(const char *path, const char *const *args, struct linsched_config *cfg,
			GError **error)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new();
	struct linsched_cli cli;
	bool ok;

	if (path) {
		g_ptr_array_add(all, (gpointer) "--machine");
		g_ptr_array_add(all, (gpointer)path);
	}
	for (size_t i = 0; args[i]; i++)
		g_ptr_array_add(all, (gpointer)args[i]);
	g_ptr_array_add(all, NULL);
	linsched_cli_init(&cli);
	parse(&cli, NULL, (const char *const *)all->pdata);
	ok = linsched_cli_config(&cli, cfg, error);
	linsched_cli_clear(&cli);
	return ok;
}

/*
 * The steal flags given override the machine's [steal], each on its own, and 0 is a value like
 * any other (it was "not given" when the flags were text); steal without a stall length from the
 * flags or the machine is refused, naming --steal.
 */
static void test_steal_over_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_config cfg;
	GError *error = NULL;

	assert_true(g_file_set_contents(
		path, "[steal]\nsteal_ppm=400000\nstall_ns=3000000\nstall_cv_pct=50\n", -1, NULL));
	assert_true(config_with(path, (const char *const[]){ NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_int_equal(cfg.costs.stall_ns, 3000000);
	assert_true(cfg.costs.stall_cv == 0.5);

	assert_true(config_with(path, (const char *const[]){ "--steal", "0", NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.steal_ppm, 0);
	assert_int_equal(cfg.costs.stall_ns, 3000000);

	assert_true(
		config_with(path, (const char *const[]){ "--steal", "0.125", NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.steal_ppm, 125000);
	assert_int_equal(cfg.costs.stall_ns, 3000000);

	assert_true(config_with(path,
				(const char *const[]){ "--stall-ns", "1", "--stall-cv", "2", NULL },
				&cfg, &error));
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_int_equal(cfg.costs.stall_ns, 1);
	assert_true(cfg.costs.stall_cv == 2);
	assert_null(error);

	/* The built-in machine has no stalls: --steal needs --stall-ns. */
	assert_false(
		config_with(NULL, (const char *const[]){ "--steal", "0.125", NULL }, &cfg, &error));
	assert_true(g_str_has_prefix(error->message, "--steal: needs --stall-ns"));
	g_clear_error(&error);
	assert_true(config_with(
		NULL, (const char *const[]){ "--steal", "0.125", "--stall-ns", "500", NULL }, &cfg,
		&error));
	assert_int_equal(cfg.costs.steal_ppm, 125000);
	assert_int_equal(cfg.costs.stall_ns, 500);
	assert_true(cfg.costs.stall_cv == 1);
}

/*
 * The host's ticks come from [steal]'s host_hz and host_lead_ns, and the flags override them;
 * without steal, linsched refuses --host-hz; a lead of a whole host tick or more is refused, and
 * so is an HZ no kernel has, naming the file and its line.
 */
static void test_host_ticks_over_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_config cfg;
	GError *error = NULL;

	assert_true(g_file_set_contents(
		path, "[steal]\nsteal_ppm=500000\nhost_hz=250\nhost_lead_ns=200000\n", -1, NULL));
	assert_true(config_with(path, (const char *const[]){ NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.host_hz, 250);
	assert_int_equal(cfg.costs.host_lead_ns, 200000);
	assert_int_equal(cfg.costs.stall_ns, 0); /* one host tick */

	assert_true(config_with(
		path, (const char *const[]){ "--host-hz", "1000", "--host-lead-ns", "0", NULL },
		&cfg, &error));
	assert_int_equal(cfg.costs.host_hz, 1000);
	assert_int_equal(cfg.costs.host_lead_ns, 0);
	assert_null(error);

	assert_false(config_with(path, (const char *const[]){ "--host-lead-ns", "4000000", NULL },
				 &cfg, &error));
	assert_true(g_str_has_prefix(error->message, "--host-lead-ns: 4000000 is not below"));
	g_clear_error(&error);
	assert_false(
		config_with(path, (const char *const[]){ "--steal", "0", NULL }, &cfg, &error));
	assert_true(g_str_has_prefix(error->message, "--host-hz: puts --steal's stalls"));
	g_clear_error(&error);

	assert_true(
		g_file_set_contents(path, "[steal]\nsteal_ppm=500000\n\nhost_hz=200\n", -1, NULL));
	assert_false(config_with(path, (const char *const[]){ NULL }, &cfg, &error));
	assert_non_null(strstr(error->message, "m.ini:4: host_hz: 200 is not one of"));
	g_clear_error(&error);
}

/*
 * The preemption model: full without a machine that says otherwise, the machine's [machine]
 * preempt, and --preempt over both; a model the kernel has not is refused, naming the flag.
 */
static void test_preempt_over_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_config cfg;
	GError *error = NULL;

	assert_true(g_file_set_contents(path, "[costs]\nwakeup_ns=7000\n", -1, NULL));
	assert_true(config_with(path, (const char *const[]){ NULL }, &cfg, &error));
	assert_int_equal(cfg.preempt, LINSCHED_PREEMPT_FULL);
	assert_true(config_with(path, (const char *const[]){ "--preempt", "none", NULL }, &cfg,
				&error));
	assert_int_equal(cfg.preempt, LINSCHED_PREEMPT_NONE);

	assert_true(g_file_set_contents(path, "[machine]\npreempt=voluntary\n", -1, NULL));
	assert_true(config_with(path, (const char *const[]){ NULL }, &cfg, &error));
	assert_int_equal(cfg.preempt, LINSCHED_PREEMPT_VOLUNTARY);
	assert_true(config_with(path, (const char *const[]){ "--preempt", "full", NULL }, &cfg,
				&error));
	assert_int_equal(cfg.preempt, LINSCHED_PREEMPT_FULL);
	assert_null(error);

	assert_false(config_with(path, (const char *const[]){ "--preempt", "lazy", NULL }, &cfg,
				 &error));
	assert_string_equal(error->message,
			    "--preempt: 'lazy' is not one of full, voluntary, none");
	g_clear_error(&error);
}

/*
 * --host-cpus puts the CPUs in turns in place of the machine's independent stalls, with turns of
 * --stall-ns (which it needs: the machine's stall is no turn) and --stall-cv, else the machine's
 * CV; 0 leaves the machine's steal as it was.
 */
static void test_turns_over_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_config cfg;
	GError *error = NULL;

	assert_true(g_file_set_contents(
		path, "[steal]\nsteal_ppm=400000\nstall_ns=3000000\nstall_cv_pct=50\n", -1, NULL));
	assert_true(config_with(path,
				(const char *const[]){ "--cpus", "3", "--host-cpus", "2",
						       "--stall-ns", "4000000", NULL },
				&cfg, &error));
	assert_int_equal(cfg.costs.host_cpus, 2);
	assert_int_equal(cfg.costs.steal_ppm, 0);
	assert_int_equal(cfg.costs.stall_ns, 4000000);
	assert_true(cfg.costs.stall_cv == 0.5);

	assert_true(
		config_with(path, (const char *const[]){ "--host-cpus", "0", NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.host_cpus, 0);
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_null(error);

	assert_false(
		config_with(path, (const char *const[]){ "--host-cpus", "1", NULL }, &cfg, &error));
	assert_true(g_str_has_prefix(error->message, "--host-cpus: needs --stall-ns"));
	g_clear_error(&error);

	/* Spells keep the machine's steal for the spells apart, beside the turns. */
	assert_true(config_with(path,
				(const char *const[]){ "--host-cpus", "1", "--shared-ns", "700",
						       "--apart-ns", "900", NULL },
				&cfg, &error));
	assert_int_equal(cfg.costs.host_cpus, 1);
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_int_equal(cfg.costs.stall_ns, 3000000);
	assert_int_equal(cfg.costs.shared_ns, 700);
	assert_int_equal(cfg.costs.apart_ns, 900);
}

/*
 * A machine's spells (host_cpus, shared_ns, apart_ns) hold unless the flags change them;
 * --host-cpus 0 gives every CPU a host CPU of its own, and so ends the spells with the turns.
 */
static void test_spells_over_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_config cfg;
	GError *error = NULL;

	assert_true(g_file_set_contents(path,
					"[steal]\nsteal_ppm=400000\nstall_ns=3000000\nhost_cpus=1\n"
					"shared_ns=500000000\napart_ns=600000000\n",
					-1, NULL));
	assert_true(config_with(path, (const char *const[]){ NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.host_cpus, 1);
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_int_equal(cfg.costs.shared_ns, 500000000);
	assert_int_equal(cfg.costs.apart_ns, 600000000);

	assert_true(config_with(path, (const char *const[]){ "--shared-ns", "100", NULL }, &cfg,
				&error));
	assert_int_equal(cfg.costs.shared_ns, 100);
	assert_int_equal(cfg.costs.apart_ns, 600000000);

	assert_true(
		config_with(path, (const char *const[]){ "--host-cpus", "0", NULL }, &cfg, &error));
	assert_int_equal(cfg.costs.host_cpus, 0);
	assert_int_equal(cfg.costs.shared_ns, 0);
	assert_int_equal(cfg.costs.apart_ns, 0);
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_null(error);
}

/* --footprint-lines, else the machine's footprint_lines, else the model's 512. */
static void test_footprint_from_machine(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct hackbench_cli hc;
	struct hackbench_params p;
	struct linsched_machine m;
	GError *error = NULL;

	hackbench_cli_init(&hc);
	linsched_machine_builtin(&m);
	assert_true(hackbench_cli_params(&hc, &m, &p, &error));
	assert_int_equal(p.footprint_lines, 512);

	assert_true(g_file_set_contents(path, "[costs]\nfootprint_lines=96\n", -1, NULL));
	assert_true(linsched_machine_load(path, &m, &error));
	assert_int_equal(m.footprint_lines, 96);
	assert_true(hackbench_cli_params(&hc, &m, &p, &error));
	assert_int_equal(p.footprint_lines, 96);

	/* Set in the struct, not given: still the machine's. */
	hc.footprint = 0;
	assert_true(hackbench_cli_params(&hc, &m, &p, &error));
	assert_int_equal(p.footprint_lines, 96);
	hackbench_cli_clear(&hc);

	/* Given, even as 0 (no cache reload) or as the model's own 512: the flag's. */
	for (int i = 0; i < 2; i++) {
		struct linsched_cli cli;

		linsched_cli_init(&cli);
		hackbench_cli_init(&hc);
		parse(&cli, &hc,
		      (const char *const[]){ "--footprint-lines", i ? "512" : "0", NULL });
		assert_true(hackbench_cli_params(&hc, &m, &p, &error));
		assert_int_equal(p.footprint_lines, i ? 512 : 0);
		hackbench_cli_clear(&hc);
		linsched_cli_clear(&cli);
	}
	assert_null(error);
}

/* The task kind's costs of the machine, unless a flag fixes them: for a switch (threads or
 * processes), and for a local wakeup (process_wakeup_ns for processes, else wakeup_ns); the
 * IPI's is the same for both. */
static void test_costs_by_task_kind(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	static const char *const none[] = { NULL };
	static const char *const threads[] = { "-T", NULL };
	static const char *const fixed[] = { "--wakeup-cost-ns", "3000", NULL };
	static const char *const fixed_threads[] = { "-T", "--wakeup-cost-ns", "3000", NULL };
	const struct {
		const char *const *args;
		const char *file;
		uint64_t switch_ns, wakeup_ns;
	} cases[] = {
		{ none, "both", 58000, 50000 },	 { threads, "both", 2400, 18000 },
		{ fixed, "both", 58000, 3000 },	 { fixed_threads, "both", 2400, 3000 },
		{ none, "one", 58000, 18000 }, /* no process_wakeup_ns: every wakeup the same */
		{ threads, "one", 2400, 18000 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const bool both = cases[i].file[0] == 'b';
		g_autofree char *ini =
			g_strdup_printf("[costs]\nwakeup_ns=18000\n%swakeup_remote_ns=79000\n"
					"thread_switch_ns=2400\nprocess_switch_ns=58000\n",
					both ? "process_wakeup_ns=50000\n" : "");
		g_autoptr(GPtrArray) args = g_ptr_array_new();
		struct linsched_cli cli;
		struct hackbench_cli hc;
		struct hackbench_params p;
		struct linsched_config cfg;
		GError *error = NULL;

		assert_true(g_file_set_contents(path, ini, -1, NULL));
		g_ptr_array_add(args, (gpointer) "--machine");
		g_ptr_array_add(args, path);
		for (size_t a = 0; cases[i].args[a]; a++)
			g_ptr_array_add(args, (gpointer)cases[i].args[a]);
		g_ptr_array_add(args, NULL);
		linsched_cli_init(&cli);
		hackbench_cli_init(&hc);
		parse(&cli, &hc, (const char *const *)args->pdata);
		assert_true(linsched_cli_config(&cli, &cfg, &error));
		assert_true(hackbench_cli_params(&hc, &cfg.machine, &p, &error));
		hackbench_cli_adjust_config(&cli, &p, &cfg);
		assert_null(error);
		if (cfg.costs.switch_ns != cases[i].switch_ns ||
		    cfg.costs.wakeup_ns != cases[i].wakeup_ns ||
		    cfg.costs.wakeup_remote_ns != 79000)
			fail_msg("case %zu: switch %" G_GUINT64_FORMAT " wakeup %" G_GUINT64_FORMAT
				 " remote %" G_GUINT64_FORMAT,
				 i, cfg.costs.switch_ns, cfg.costs.wakeup_ns,
				 cfg.costs.wakeup_remote_ns);
		hackbench_cli_clear(&hc);
		linsched_cli_clear(&cli);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_config_on_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_footprint_from_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_turns_over_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_spells_over_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_steal_over_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_preempt_over_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_host_ticks_over_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_costs_by_task_kind, temp_dir_setup,
						temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
