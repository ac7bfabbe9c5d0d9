/*
 * tests/linsched/cli/test_cli_config.c - the configuration the simulation flags describe on a
 * machine the caller gives (linsched_cli_config_on, which the tuner's fit varies), and the
 * workload's cache footprint taken from the machine.
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
	cli.machine = g_strdup(path);
	cli.profile = g_strdup("6.1");

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

	cli.miss_cost_ps = 55;
	assert_true(linsched_cli_config_on(&cli, &m, &cfg, &error));
	assert_int_equal(cfg.costs.miss_ps, 55);
	assert_int_equal(cfg.costs.wakeup_ns, 4321);
	assert_null(error);
	linsched_cli_clear(&cli);
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

	hc.footprint = 0;
	assert_true(hackbench_cli_params(&hc, &m, &p, &error));
	assert_int_equal(p.footprint_lines, 0);
	assert_null(error);
	hackbench_cli_clear(&hc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_config_on_machine, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_footprint_from_machine, temp_dir_setup,
						temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
