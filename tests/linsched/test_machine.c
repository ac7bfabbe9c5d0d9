/*
 * tests/linsched/test_machine.c - the machine a simulation models (linsched/machine.h): the
 * built-in machine, machine.ini over it, and the refusals, each naming the file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "linsched/machine.h"
#include "linsched/sim.h"
#include "tests/support/support.h"

struct files {
	char *dir;
};

static int make_dir(void **state)
{
	struct files *f = g_new0(struct files, 1);

	f->dir = temp_dir("test_machine-XXXXXX");
	*state = f;
	return 0;
}

static int unmake_dir(void **state)
{
	struct files *f = *state;

	assert_true(remove_tree(f->dir));
	g_free(f->dir);
	g_free(f);
	return 0;
}

/* Writes text to DIR/name; the path. */
static char *write_file(void **state, const char *name, const char *text)
{
	struct files *f = *state;
	char *path = g_build_filename(f->dir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/* The values measured by hand, which a configuration starts from. */
static void test_builtin(void **state)
{
	struct linsched_machine m;
	struct linsched_config cfg;

	(void)state;
	linsched_machine_builtin(&m);
	assert_int_equal(m.hz, 0);
	/* it does not say: a simulation on it preempts at once */
	assert_int_equal(m.preempt, LINSCHED_PREEMPT_UNSET);
	assert_int_equal(m.socket_write_ns, 1090);
	assert_int_equal(m.socket_read_ns, 1190);
	assert_int_equal(m.thread_switch_ns, 1800);
	assert_int_equal(m.process_switch_ns, 5700);
	assert_int_equal(m.socket_msg_overhead, 666);
	linsched_config_init(&cfg, NULL, 2);
	assert_int_equal(cfg.hz, 1000);
	assert_int_equal(cfg.costs.switch_ns, LINSCHED_DEFAULT_SWITCH_NS);
	assert_int_equal(cfg.costs.wakeup_remote_ns, 0);
	/* a reschedule on another CPU at once; a wakee preempts its waker at once */
	assert_int_equal(cfg.costs.ipi_ns, 0);
	assert_int_equal(cfg.costs.wakeup_tail_ns, 0);
	assert_int_equal(m.process_wakeup_ns, 0); /* processes wake as threads do */
	assert_int_equal(cfg.machine.socket_read_ns, m.socket_read_ns);
	assert_int_equal(cfg.machine.pipe_bytes, m.pipe_bytes);
	/* a CPU of its own */
	assert_int_equal(cfg.costs.steal_ppm, 0);
	assert_int_equal(cfg.costs.noise_ppm, 0);
	/* messages read hot */
	assert_int_equal(cfg.costs.data_cache_lines, 0);
	/* a read of an empty channel sleeps at no cost */
	assert_int_equal(m.socket_block_ns, 0);
	assert_int_equal(m.pipe_block_ns, 0);
}

static const char good[] = "# a probe's file\n"
			   "[machine]\n"
			   "kernel=6.1.0-56-amd64\n"
			   "cpus=2\n"
			   "hz=250\n"
			   "preempt=voluntary\n"
			   "\n"
			   "[costs]\n"
			   "socket_write_ns=8000\n"
			   "socket_read_ns=5000\n"
			   "socket_block_ns=1500\n"
			   "wakeup_ns=6000\n"
			   "process_wakeup_ns=7000\n"
			   "wakeup_remote_ns=9000\n"
			   "ipi_ns=25000\n"
			   "wakeup_tail_ns=4000\n"
			   "thread_switch_ns=3000\n"
			   "# no process_switch_ns: the built-in one stays\n"
			   "data_cache_lines=16384\n"
			   "data_miss_ps=250000\n"
			   "cache_ways=2\n"
			   "[capacity]\n"
			   "message_bytes=100\n"
			   "socket_msgs=200\n"
			   "socket_sndbuf_bytes=160000\n"
			   "pipe_msgs=655\n"
			   "[steal]\n"
			   "steal_ppm=400000\n"
			   "stall_ns=3000000\n"
			   "host_hz=250\n"
			   "host_lead_ns=200000\n"
			   "host_cpus=1\n"
			   "shared_ns=900000000\n"
			   "apart_ns=1100000000\n"
			   "[launch]\n"
			   "wakee_flips=3\n"
			   "[noise]\n"
			   "noise_ppm=60000\n"
			   "noise_ns=40000\n"
			   "noise_cv_pct=250\n"
			   "long_ppm=5000\n"
			   "long_ns=3000000\n"
			   "[spread]\n"
			   "thread_switch_ns_q1=-20\n";

static void test_load(void **state)
{
	g_autofree char *path = write_file(state, "m.ini", good);
	g_autoptr(GError) error = NULL;
	struct linsched_machine m;
	struct linsched_config cfg;

	if (!linsched_machine_load(path, &m, &error))
		fail_msg("%s", error->message);
	assert_int_equal(m.hz, 250);
	assert_int_equal(m.socket_write_ns, 8000);
	assert_int_equal(m.socket_read_ns, 5000);
	assert_int_equal(m.wakeup_ns, 6000);
	assert_int_equal(m.process_wakeup_ns, 7000);
	assert_int_equal(m.wakeup_remote_ns, 9000);
	assert_int_equal(m.thread_switch_ns, 3000);
	assert_int_equal(m.process_switch_ns, 5700);
	assert_int_equal(m.pipe_write_ns, 360);
	/* a socket's blocking system call; the pipe's stays the built-in 0: not modelled */
	assert_int_equal(m.socket_block_ns, 1500);
	assert_int_equal(m.host_hz, 250);
	assert_int_equal(m.host_lead_ns, 200000);
	assert_int_equal(m.launch_wakee_flips, 3);
	assert_int_equal(m.cache_ways, 2);
	assert_int_equal(m.pipe_block_ns, 0);
	/* 160000 bytes hold 200 messages of 100: 800 bytes each, 700 beyond the data. */
	assert_int_equal(m.socket_sndbuf_bytes, 160000);
	assert_int_equal(m.socket_msg_overhead, 700);

	assert_int_equal(m.preempt, LINSCHED_PREEMPT_VOLUNTARY);

	/* A configuration on it takes its costs, its HZ and its preemption model. */
	linsched_config_init(&cfg, NULL, 2);
	assert_int_equal(cfg.preempt, LINSCHED_PREEMPT_FULL);
	linsched_config_set_machine(&cfg, &m);
	assert_int_equal(cfg.hz, 250);
	assert_int_equal(cfg.preempt, LINSCHED_PREEMPT_VOLUNTARY);
	assert_int_equal(cfg.costs.wakeup_ns, 6000);
	assert_int_equal(cfg.costs.wakeup_remote_ns, 9000);
	assert_int_equal(cfg.costs.ipi_ns, 25000);
	assert_int_equal(cfg.costs.wakeup_tail_ns, 4000);
	assert_int_equal(cfg.costs.cache_ways, 2);
	/* and its steal, the stalls exponential unless the file says otherwise */
	assert_int_equal(cfg.costs.steal_ppm, 400000);
	assert_int_equal(cfg.costs.stall_ns, 3000000);
	assert_true(cfg.costs.stall_cv == 1.0);
	/* and its spells of turns on one host CPU between spells of that steal */
	assert_int_equal(cfg.costs.host_cpus, 1);
	assert_int_equal(cfg.costs.shared_ns, 900000000);
	assert_int_equal(cfg.costs.apart_ns, 1100000000);
	assert_true(linsched_config_validate(&cfg, NULL));
	/* and its noise, a source of stalls of its own */
	assert_int_equal(cfg.costs.noise_ppm, 60000);
	assert_int_equal(cfg.costs.noise_ns, 40000);
	assert_true(cfg.costs.noise_cv == 2.5);
	/* and its long stalls, a source of their own, exponential unless the file says otherwise */
	assert_int_equal(cfg.costs.long_ppm, 5000);
	assert_int_equal(cfg.costs.long_ns, 3000000);
	assert_true(cfg.costs.long_cv == 1.0);
	/* and its data cache */
	assert_int_equal(cfg.costs.data_cache_lines, 16384);
	assert_int_equal(cfg.costs.data_miss_ps, 250000);
	assert_true(linsched_config_validate(&cfg, NULL));

	/* The format is GKeyFile's. */
	g_autoptr(GKeyFile) kf = g_key_file_new();

	assert_true(g_key_file_load_from_data(kf, good, sizeof(good) - 1, G_KEY_FILE_NONE, NULL));
	assert_int_equal(g_key_file_get_uint64(kf, "costs", "socket_read_ns", NULL), 5000);
}

static void expect_refusal_at(void **state, const char *text, const char *needle)
{
	g_autofree char *path = write_file(state, "bad.ini", text);
	g_autoptr(GError) error = NULL;
	struct linsched_machine m;

	if (linsched_machine_load(path, &m, &error))
		fail_msg("accepted: %s", text);
	g_autofree char *where = g_strdup_printf("--machine: %s:%s", path, needle);

	if (!g_str_has_prefix(error->message, where))
		fail_msg("'%s' does not start with '%s'", error->message, where);
	assert_null(strchr(error->message, '\n'));
}

static void test_refusals(void **state)
{
	expect_refusal_at(state, "[costs]\nswitch=1\n", "2: unknown key 'switch' in [costs]");
	expect_refusal_at(state, "[machine]\n\n[costs]\nwakeup_ns=fast\n",
			  "4: wakeup_ns: 'fast' is not a whole number");
	expect_refusal_at(state, "[costs]\nwakeup_ns=-5\n", "2: wakeup_ns");
	expect_refusal_at(state, "[costs]\nwakeup_ns 5\n", "2: 'wakeup_ns 5' is not a key=value");
	expect_refusal_at(state, "# x\n[disk]\n", "2: unknown group [disk]");
	expect_refusal_at(state, "[costs\n", "1: '[costs' is not a [group] line");
	expect_refusal_at(state, "hz=250\n", "1: hz= before any [group]");
	expect_refusal_at(state, "[machine]\nhz=200\n", "2: hz: 200 is not one of");
	expect_refusal_at(state, "[machine]\npreempt=lazy\n",
			  "2: preempt: 'lazy' is not one of full, voluntary, none");
	expect_refusal_at(state, "[costs]\ncache_lines=0\n", "2: cache_lines: must be at least 1");
	expect_refusal_at(state, "[capacity]\nsocket_msgs=3000\n",
			  "2: socket_msgs: 3000 messages of 100 bytes do not fit");
	expect_refusal_at(state, "[spread]\nx=1.5\n", "2: x: '1.5' is not a whole number");
	expect_refusal_at(state, "[steal]\nsteal_ppm=1000000\n",
			  "2: steal_ppm: 1000000 is not below");
	expect_refusal_at(state, "[steal]\nstall_cv_pct=0\n",
			  "2: stall_cv_pct: 0 is not in 1..1000");
	expect_refusal_at(state, "[steal]\nstall_ns=0.5\n", "2: stall_ns: '0.5' is not a whole");
	expect_refusal_at(state, "[steal]\nhost_hz=200\n", "2: host_hz: 200 is not one of");
	expect_refusal_at(state, "[steal]\nhost_lead_ns=10000000\n",
			  "2: host_lead_ns: 10000000 is not below");
	expect_refusal_at(state, "[steal]\nhost_cpus=64\n", "2: host_cpus: 64 is not below 64");
	expect_refusal_at(state, "[steal]\nhost_cpus=1\nshared_ns=5\n",
			  " [steal]: spells need shared_ns, apart_ns and host_cpus, all three");
	expect_refusal_at(state, "[steal]\nshared_ns=5\napart_ns=5\n",
			  " [steal]: spells need shared_ns, apart_ns and host_cpus, all three");
	expect_refusal_at(state, "[steal]\nhost_cpus=1\n",
			  " [steal]: host_cpus alone would replace");
	expect_refusal_at(state, "[costs]\ncache_ways=65\n",
			  "2: cache_ways: 65 is more than 64 (0: fully associative)");
	expect_refusal_at(state, "[launch]\nwakee_flips=1000001\n",
			  "2: wakee_flips: 1000001 is more than 1000000");
	expect_refusal_at(state, "[noise]\nnoise_ppm=1000000\n",
			  "2: noise_ppm: 1000000 is not below");
	expect_refusal_at(state, "[noise]\nnoise_cv_pct=1001\n",
			  "2: noise_cv_pct: 1001 is not in 1..1000");
	expect_refusal_at(state, "[noise]\nnoise_ppm=5000\n", " [noise]: noise_ppm needs noise_ns");
	expect_refusal_at(state, "[noise]\nlong_ppm=1000000\n",
			  "2: long_ppm: 1000000 is not below");
	expect_refusal_at(state, "[noise]\nlong_cv_pct=0\n", "2: long_cv_pct: 0 is not in 1..1000");
	expect_refusal_at(state, "[noise]\nlong_ppm=5000\n", " [noise]: long_ppm needs long_ns");
	/* GKeyFile's comments start with '#' only. */
	expect_refusal_at(state, "; note\n", "1: '; note' is not a key=value line");

	struct files *f = *state;
	g_autofree char *missing = g_build_filename(f->dir, "none.ini", NULL);
	g_autoptr(GError) error = NULL;
	struct linsched_machine m;

	assert_false(linsched_machine_load(missing, &m, &error));
	assert_true(g_str_has_prefix(error->message, "--machine: "));
	assert_non_null(strstr(error->message, "none.ini"));
}

/*
 * Every machine the project ships in machines/ loads, and kvm-host-6.18.ini is what its header
 * says: the built-in machine with the remote wakeup (the IPI) and the blocked read and write of
 * this host's probe (kvm-host-6.18-probed.ini), nothing else of it.
 */
static void test_shipped_machines(void **state)
{
	(void)state;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDir) dir = g_dir_open("machines", 0, &error);
	unsigned int loaded = 0;

	if (!dir)
		fail_msg("%s", error->message);
	for (const char *name; (name = g_dir_read_name(dir));) {
		if (!g_str_has_suffix(name, ".ini"))
			continue;
		g_autofree char *path = g_build_filename("machines", name, NULL);
		struct linsched_machine m;

		if (!linsched_machine_load(path, &m, &error))
			fail_msg("%s", error->message);
		loaded++;
	}
	assert_true(loaded >= 5);

	struct linsched_machine host, probed, builtin;

	linsched_machine_builtin(&builtin);
	if (!linsched_machine_load("machines/kvm-host-6.18.ini", &host, &error) ||
	    !linsched_machine_load("machines/kvm-host-6.18-probed.ini", &probed, &error))
		fail_msg("%s", error->message);
	assert_int_equal(host.wakeup_remote_ns, probed.wakeup_remote_ns);
	assert_int_equal(host.socket_block_ns, probed.socket_block_ns);
	assert_int_equal(host.pipe_block_ns, probed.pipe_block_ns);
	assert_int_equal(host.hz, probed.hz);
	assert_true(host.wakeup_remote_ns > 0 && builtin.wakeup_remote_ns == 0);
	const uint64_t kept[][2] = {
		{ host.socket_write_ns, builtin.socket_write_ns },
		{ host.socket_read_ns, builtin.socket_read_ns },
		{ host.pipe_write_ns, builtin.pipe_write_ns },
		{ host.pipe_read_ns, builtin.pipe_read_ns },
		{ host.wakeup_ns, builtin.wakeup_ns },
		{ host.thread_switch_ns, builtin.thread_switch_ns },
		{ host.process_switch_ns, builtin.process_switch_ns },
		{ host.data_cache_lines, builtin.data_cache_lines },
		{ host.data_miss_ps, builtin.data_miss_ps },
		{ host.noise_ppm, builtin.noise_ppm },
		{ host.long_ppm, builtin.long_ppm },
		{ host.steal_ppm, builtin.steal_ppm },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(kept); i++)
		if (kept[i][0] != kept[i][1])
			fail_msg("kvm-host-6.18.ini: value %zu is %" G_GUINT64_FORMAT
				 ", the built-in machine's %" G_GUINT64_FORMAT,
				 i, kept[i][0], kept[i][1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin),
		cmocka_unit_test_setup_teardown(test_load, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_refusals, make_dir, unmake_dir),
		cmocka_unit_test(test_shipped_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
