/*
 * tests/tuner/vm/test_vm_probe.c - the machine probe in the VM (tuner/vm/vm_probe.h): its plan,
 * the initramfs check, and several probes' machine.ini files combined into one, with medians,
 * lowest and highest probes worked out by hand, which loads as a --machine file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "linsched/machine.h"
#include "tests/support/assert_close.h"
#include "tests/support/support.h"
#include "tuner/vm/vm_probe.h"

static void test_plan(void **state)
{
	const VmProbeOptions o = { .probes = 3, .warmups = 1, .trials = 9, .cpus = 2 };
	GError *error = NULL;
	g_autoptr(VmPlan) plan = vm_probe_plan(&o, &error);

	(void)state;
	assert_null(error);
	assert_int_equal(plan->runs->len, 4);
	assert_int_equal(plan->rounds, 4);
	assert_string_equal(vm_plan_command(plan, &g_array_index(plan->runs, VmRun, 0)),
			    "linsched-probe-static --out - --trials 9");

	g_autofree char *text = vm_plan_text(plan);

	/* The knobs stay at 6.1's defaults on 2 CPUs: 12 / 1.5 / 2 ms. */
	assert_non_null(strstr(text, "\n0 0 probe 12000000 1500000 2000000 - 0 linsched-probe"));
	assert_non_null(strstr(text, "\n3 3 probe 12000000 1500000 2000000 - 0 linsched-probe"));

	const VmProbeOptions q = {
		.probes = 1, .warmups = 0, .trials = 3, .quick = TRUE, .cpus = 4
	};
	g_autoptr(VmPlan) quick = vm_probe_plan(&q, &error);

	assert_string_equal(vm_plan_command(quick, &g_array_index(quick->runs, VmRun, 0)),
			    "linsched-probe-static --out - --trials 3 --quick");
	assert_int_equal(vm_plan_setting(quick, 0)->knobs.latency_ns, 18000000); /* 6 ms x 3 */
}

static void test_in_initramfs(void **state)
{
	const char *dir = *state;
	g_autofree char *txt = g_build_filename(dir, "initramfs.txt", NULL);
	GError *error = NULL;

	assert_false(vm_probe_in_initramfs(dir, &error));
	assert_true(g_error_matches(error, VM_PROBE_ERROR, VM_PROBE_ERROR_SETUP));
	assert_non_null(strstr(error->message, "run 'make vm'"));
	g_clear_error(&error);
	assert_true(g_file_set_contents(txt, "hackbench=/usr/bin/hackbench\n", -1, NULL));
	assert_false(vm_probe_in_initramfs(dir, NULL));
	assert_true(g_file_set_contents(
		txt,
		"hackbench=/usr/bin/hackbench\nextra=/usr/local/bin/linsched-probe-static from /x\n",
		-1, NULL));
	assert_true(vm_probe_in_initramfs(dir, &error));
}

#define PROBE(write, read, wake, q1)                                                             \
	"# machine.ini\n[machine]\nkernel=6.1.0-56-amd64\ncpus=2\nhz=250\npreempt=voluntary\n"   \
	"\n[costs]\n"                                                                            \
	"socket_write_ns=" write "\nsocket_read_ns=" read "\nwakeup_ns=" wake                    \
	"\n# wakeup_remote_ns: not measured\n\n[capacity]\nmessage_bytes=100\nsocket_msgs=278\n" \
	"socket_sndbuf_bytes=212992\n\n[spread]\nsocket_write_ns_q1=" q1                         \
	"\nsocket_write_ns_q3=4000\nthread_switch_ns_q1=-20\nyield_ns=2150\n"

/*
 * Four probes, one of which failed (NULL) and one wrote no machine.ini: the other three give
 * socket writes 3300, 3100, 3500 (median 3300, 3100..3500), reads 2900, 2800, 2850 (2850),
 * wakeups 5000, 9000, 4000 (5000); the write's first quartiles 3200, 3000, 3400 (3200).
 * With two probes the median is the mean of the two, rounded: (3300 + 3100) / 2 = 3200 and
 * (2900 + 2801) / 2 = 2850.5 -> 2851.
 */
static void test_combine(void **state)
{
	const char *outputs[] = {
		PROBE("3300", "2900", "5000", "3200"),
		NULL,
		PROBE("3100", "2800", "9000", "3000"),
		"linsched probe: a socket pair or pipe failed\n",
		PROBE("3500", "2850", "4000", "3400"),
	};
	GError *error = NULL;
	g_autoptr(VmProbeResult) r = vm_probe_combine(outputs, 5, &error);

	assert_null(error);
	assert_int_equal(r->probes, 3);
	assert_int_equal(r->left_out, 2);
	assert_string_equal(r->kernel, "6.1.0-56-amd64");

	const VmProbeValue *w = vm_probe_value(r, "costs", "socket_write_ns");

	assert_close(w->median, 3300, 0);
	assert_close(w->min, 3100, 0);
	assert_close(w->max, 3500, 0);
	assert_int_equal(w->values->len, 3);
	assert_close(vm_probe_value(r, "costs", "socket_read_ns")->median, 2850, 0);
	assert_close(vm_probe_value(r, "costs", "wakeup_ns")->median, 5000, 0);
	assert_close(vm_probe_value(r, "machine", "hz")->median, 250, 0);
	assert_null(vm_probe_value(r, "costs", "wakeup_remote_ns"));

	g_autofree char *ini = vm_probe_ini(r, "a header\n\nof two paragraphs");

	/* The preemption model, a word, passes through (it once made every probe "no
	 * machine.ini"), and the file loads with it. */
	assert_string_equal(r->preempt, "voluntary");
	assert_true(g_str_has_prefix(ini,
				     "# a header\n#\n# of two paragraphs\n\n[machine]\n"
				     "kernel=6.1.0-56-amd64\npreempt=voluntary\ncpus=2\nhz=250\n"));
	assert_non_null(strstr(ini, "[costs]\nsocket_write_ns=3300\nsocket_read_ns=2850\n"
				    "wakeup_ns=5000\n"));
	assert_non_null(strstr(ini, "[spread]\nprobes=3\nsocket_write_ns_min=3100\n"
				    "socket_write_ns_max=3500\nsocket_write_ns_q1=3200\n"
				    "socket_write_ns_q3=4000\n"));
	assert_non_null(strstr(ini, "\nyield_ns=2150\n"));
	/* A quartile of a cost the probes did not give has nothing to go with. */
	assert_null(strstr(ini, "thread_switch_ns_q1"));
	/* Probes that measured no noise (--noise-ms 0) give no [noise]. */
	assert_null(strstr(ini, "[noise]"));

	/* It loads as a --machine file. */
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	struct linsched_machine m;

	assert_true(g_file_set_contents(path, ini, -1, NULL));
	if (!linsched_machine_load(path, &m, &error))
		fail_msg("%s", error->message);
	assert_int_equal(m.socket_write_ns, 3300);
	assert_int_equal(m.wakeup_ns, 5000);
	assert_int_equal(m.hz, 250);
	assert_int_equal(m.preempt, LINSCHED_PREEMPT_VOLUNTARY);

	const char *two[] = { PROBE("3300", "2900", "5000", "1"),
			      PROBE("3100", "2801", "9000", "1") };
	g_autoptr(VmProbeResult) r2 = vm_probe_combine(two, 2, &error);

	assert_close(vm_probe_value(r2, "costs", "socket_write_ns")->median, 3200, 0);
	assert_close(vm_probe_value(r2, "costs", "socket_read_ns")->median, 2851, 0);
}

/*
 * A value that fewer than half of the probes wrote (the task cache that `linsched probe` writes
 * only when its rings show a step) is left out with a comment; one that half wrote is their
 * median: cache_lines 1000 and 1200 of two probes in four give 1100.
 */
static void test_minority(void **state)
{
	const char *one_of_three[] = {
		PROBE("3300", "2900", "5000", "1") "\n[costs]\ncache_lines=1000\n",
		PROBE("3100", "2800", "9000", "1"),
		PROBE("3500", "2850", "4000", "1"),
	};
	const char *two_of_four[] = {
		PROBE("3300", "2900", "5000", "1"),
		PROBE("3100", "2800", "9000", "1") "\n[costs]\ncache_lines=1200\n",
		PROBE("3500", "2850", "4000", "1"),
		PROBE("3500", "2850", "4000", "1") "\n[costs]\ncache_lines=1000\n",
	};
	GError *error = NULL;
	g_autoptr(VmProbeResult) r = vm_probe_combine(one_of_three, 3, &error);

	(void)state;
	assert_null(error);
	g_autofree char *ini = vm_probe_ini(r, NULL);

	assert_non_null(
		strstr(ini, "wakeup_ns=5000\n# cache_lines: in 1 of the 3 probes, left out\n"));
	assert_null(strstr(ini, "\ncache_lines="));

	g_autoptr(VmProbeResult) r2 = vm_probe_combine(two_of_four, 4, &error);
	g_autofree char *ini2 = vm_probe_ini(r2, NULL);

	assert_non_null(strstr(ini2, "\ncache_lines=1100\n"));
}

#define RINGS(r16)                                                                                \
	"ring_hop_ns_2=30000\nring_rise_ns_2=0\nring_hop_ns_4=30000\nring_rise_ns_4=0\n"          \
	"ring_rise_ns_8=0\nring_rise_ns_16=" r16 "\nring_rise_ns_32=6000\nring_rise_ns_64=6000\n" \
	"ring_rise_ns_128=6000\n[costs]\ncache_lines=5\ncache_ways=1\nfootprint_lines=64\n"       \
	"miss_ps=1\n"

/*
 * The probes' rings: the median rise at each size (the 16-ring's of 5000, 6000, 7000 is 6000)
 * and its lowest probe's (5000), the ring of 2's median hop; a ring size that no probe measured
 * ends the curve. The task cache the caller draws from it replaces the probes' own
 * (cache_lines=5 ...), and its lines go to the end of [costs].
 */
static void test_rings(void **state)
{
	const char *outputs[] = {
		PROBE("3300", "2900", "5000", "1") RINGS("5000"),
		PROBE("3100", "2800", "9000", "1") RINGS("6000"),
		PROBE("3500", "2850", "4000", "1") RINGS("7000"),
	};
	static const char *const keys[] = { "cache_lines", "cache_ways", "footprint_lines",
					    "miss_ps" };
	GError *error = NULL;
	g_autoptr(VmProbeResult) r = vm_probe_combine(outputs, 3, &error);
	int sizes[8], n = 0;
	double rise[8], low[8], hot = 0;

	(void)state;
	assert_null(error);
	assert_true(vm_probe_rings(r, sizes, rise, low, 8, &n, &hot));
	assert_int_equal(n, 7);
	assert_int_equal(sizes[0], 2);
	assert_int_equal(sizes[6], 128);
	assert_close(hot, 30000, 0);
	assert_close(rise[3], 6000, 0);
	assert_close(low[3], 5000, 0);
	assert_close(rise[6], 6000, 0);
	assert_close(vm_probe_value(r, "costs", "cache_lines")->median, 5, 0);

	vm_probe_set_costs(r, keys, G_N_ELEMENTS(keys), "# drawn\ncache_lines=701\n");
	g_autofree char *ini = vm_probe_ini(r, NULL);

	assert_null(vm_probe_value(r, "costs", "cache_lines"));
	assert_null(strstr(ini, "cache_lines=5"));
	assert_null(strstr(ini, "miss_ps=1\n"));
	assert_non_null(strstr(ini, "wakeup_ns=5000\n# drawn\ncache_lines=701\n\n[capacity]"));

	/* Two sizes only: no curve. */
	const char *short_rings[] = { PROBE("3300", "2900", "5000", "1") "ring_hop_ns_2=30000\n"
									 "ring_rise_ns_2=0\n"
									 "ring_rise_ns_4=100\n" };
	g_autoptr(VmProbeResult) r2 = vm_probe_combine(short_rings, 1, &error);

	assert_false(vm_probe_rings(r2, sizes, rise, low, 8, &n, &hot));
}

/* The noise the probes measured: each key's median, in [noise], which a simulation suffers. */
static void test_noise(void **state)
{
	const char *outputs[] = {
		PROBE("3300", "2900", "5000", "3200") "\n[noise]\nnoise_ppm=60000\nnoise_ns=40000\n"
						      "noise_cv_pct=200\n",
		PROBE("3100", "2800", "9000", "3000") "\n[noise]\nnoise_ppm=70000\nnoise_ns=50000\n"
						      "noise_cv_pct=300\n",
		PROBE("3500", "2850", "4000", "3400") "\n[noise]\nnoise_ppm=65000\nnoise_ns=45000\n"
						      "noise_cv_pct=100\n",
	};
	GError *error = NULL;
	g_autoptr(VmProbeResult) r = vm_probe_combine(outputs, 3, &error);

	assert_null(error);
	assert_close(vm_probe_value(r, "noise", "noise_ppm")->median, 65000, 0);
	g_autofree char *ini = vm_probe_ini(r, NULL);

	assert_non_null(
		strstr(ini, "\n[noise]\nnoise_ppm=65000\nnoise_ns=45000\nnoise_cv_pct=200\n"));

	g_autofree char *path = g_build_filename(*state, "noisy.ini", NULL);
	struct linsched_machine m;

	assert_true(g_file_set_contents(path, ini, -1, NULL));
	if (!linsched_machine_load(path, &m, &error))
		fail_msg("%s", error->message);
	assert_int_equal(m.noise_ppm, 65000);
	assert_int_equal(m.noise_ns, 45000);
	assert_int_equal(m.noise_cv_pct, 200);
}

static void test_none(void **state)
{
	const char *outputs[] = { NULL, "garbage\n", "[costs]\nwakeup_ns=fast\n" };
	GError *error = NULL;

	(void)state;
	assert_null(vm_probe_combine(outputs, 3, &error));
	assert_true(g_error_matches(error, VM_PROBE_ERROR, VM_PROBE_ERROR_INPUT));
	assert_string_equal(error->message, "none of the 3 probes wrote a machine.ini");
	g_error_free(error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test_setup_teardown(test_in_initramfs, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_combine, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test(test_minority),
		cmocka_unit_test_setup_teardown(test_rings, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_noise, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
