/*
 * End-to-end tests of `linsched probe` and of `--machine FILE`: the real program of this build
 * variant, spawned without a shell. The probe's file must load (with the simulator's reader and
 * with GKeyFile), hold positive costs and plausible sizes; no timing is judged. A simulation with
 * --machine takes the file's costs and HZ; a bad file is refused with its name and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/utsname.h>

#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "linsched/machine.h"
#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define LINSCHED_RUN(...) run_program(LINSCHED, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static int make_dir(void **state)
{
	*state = temp_dir("test_probe-XXXXXX");
	return 0;
}

static int unmake_dir(void **state)
{
	assert_true(remove_tree(*state));
	g_free(*state);
	return 0;
}

static void test_probe_writes_machine_ini(void **state)
{
	g_autofree char *path = g_build_filename(*state, "machine.ini", NULL);
	struct run r = LINSCHED_RUN("probe", "--quick", "--trials", "3", "--out", path);

	expect_clean_exit(&r, "linsched probe --quick");
	run_clear(&r);

	/* Written atomically: the file and nothing else. */
	GDir *d = g_dir_open(*state, 0, NULL);

	assert_non_null(d);
	assert_string_equal(g_dir_read_name(d), "machine.ini");
	assert_null(g_dir_read_name(d));
	g_dir_close(d);

	g_autoptr(GError) error = NULL;
	struct linsched_machine m;

	if (!linsched_machine_load(path, &m, &error))
		fail_msg("%s", error->message);
	g_autofree char *text = read_text(path);

	/* Positive costs, a channel that holds something, an HZ the simulator knows. */
	assert_true(m.socket_write_ns > 0 && m.socket_read_ns > 0);
	assert_true(m.pipe_write_ns > 0 && m.pipe_read_ns > 0);
	/* A read of the empty channel, net of a system call's entry and exit (which a read of a
	 * closed descriptor costs, and which is never free): no timing is judged, so either may
	 * come out 0 on a noisy machine, but both are written. */
	assert_non_null(strstr(text, "\nsocket_block_ns="));
	assert_non_null(strstr(text, "\npipe_block_ns="));
	assert_true(m.socket_sndbuf_bytes > 100 && m.pipe_bytes >= 4096);
	assert_true(m.socket_msg_overhead < m.socket_sndbuf_bytes);
	assert_true(m.hz == 100 || m.hz == 250 || m.hz == 300 || m.hz == 1000);

	/* The preemption model: a dynamic kernel's from debugfs when it can be read (else none
	 * written), another's from its version string; the comment says which. */
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	assert_non_null(strstr(text, "\n# preempt: "));
	g_autofree char *model = NULL;

	/* (GLib refuses a NULL for the contents: it would answer FALSE whatever the file.) */
	if (strstr(u.version, "PREEMPT_DYNAMIC"))
		assert_true(
			(m.preempt != LINSCHED_PREEMPT_UNSET) ==
			g_file_get_contents("/sys/kernel/debug/sched/preempt", &model, NULL, NULL));
	else
		assert_int_equal(m.preempt, strstr(u.version, "PREEMPT")
						    ? LINSCHED_PREEMPT_FULL
						    : LINSCHED_PREEMPT_VOLUNTARY);

	g_autoptr(GKeyFile) kf = g_key_file_new();

	assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
	assert_true(g_key_file_get_uint64(kf, "capacity", "socket_msgs", NULL) >= 1);
	assert_true(g_key_file_get_uint64(kf, "capacity", "pipe_msgs", NULL) >= 1);
	assert_true(g_key_file_get_uint64(kf, "machine", "cpus", NULL) >= 1);
	assert_true(g_key_file_has_key(kf, "costs", "thread_switch_ns", NULL));
	assert_true(g_key_file_has_key(kf, "costs", "wakeup_ns", NULL));
	/* The IPI's flight needs two CPUs to wake across; with one the file says so. */
	assert_true(g_key_file_has_key(kf, "costs", "ipi_ns", NULL) ||
		    strstr(text, "# ipi_ns: not measured\n"));
	assert_true(g_key_file_has_key(kf, "costs", "wakeup_remote_ns", NULL) ==
		    g_key_file_has_key(kf, "costs", "ipi_ns", NULL));
	assert_true(g_key_file_get_uint64(kf, "spread", "syscall_ns", NULL) > 0);

	/* The noise every CPU suffered: a share below one, stalls longer than the probe's 5 us
	 * threshold, a shape the simulation takes; a simulation on the file suffers it. */
	if (m.noise_ppm > 0) {
		assert_true(m.noise_ppm < 1000000);
		assert_true(m.noise_ns > 5000);
		assert_true(m.noise_cv_pct >= 1 && m.noise_cv_pct <= 1000);
	}
	assert_true(g_key_file_has_key(kf, "noise", "noise_ppm", NULL));
	assert_true(g_key_file_has_key(kf, "spread", "noise_ppm_max", NULL));
	/* The stalls' tail: shares of their time in longer and longer stalls, never growing. */
	guint64 over_100us = g_key_file_get_uint64(kf, "spread", "noise_time_over_100us_ppm", NULL);
	guint64 over_1ms = g_key_file_get_uint64(kf, "spread", "noise_time_over_1ms_ppm", NULL);
	guint64 over_4ms = g_key_file_get_uint64(kf, "spread", "noise_time_over_4ms_ppm", NULL);

	assert_true(g_key_file_has_key(kf, "spread", "noise_time_over_4ms_ppm", NULL));
	assert_true(over_100us <= 1000000 && over_1ms <= over_100us && over_4ms <= over_1ms);

	/* Reads with 64 KiB and more written after their messages; a data cache when they differ
	 * by a step, of a size between the smallest and the largest and a positive cost a line. */
	assert_true(g_key_file_get_uint64(kf, "spread", "data_read_ns_64k", NULL) > 0);
	/* (the larger sizes as far as the fds allow: 64 MiB needs over 600 sockets) */
	assert_true(g_key_file_get_uint64(kf, "spread", "data_read_ns_256k", NULL) > 0);
	assert_true(g_key_file_get_uint64(kf, "spread", "data_write_ns_256k", NULL) > 0);
	if (m.data_cache_lines) {
		assert_in_range(m.data_cache_lines, 64 * 1024 / 64, 64 * 1024 * 1024 / 64);
		assert_true(m.data_miss_ps > 0);
	}
	/* A message's hop around rings of 2 to 128 threads: each measured (a hop is a write, a
	 * read, a wakeup and a switch, so never free), with its rise over the ring of 2 (none for
	 * the ring of 2 itself). A task cache only with all three of its values, a footprint of
	 * the probe's and a cache of at least one working set. */
	for (int n = 2; n <= 128; n *= 2) {
		g_autofree char *hop = g_strdup_printf("ring_hop_ns_%d", n);
		g_autofree char *rise = g_strdup_printf("ring_rise_ns_%d", n);

		g_autofree char *proc_hop = g_strdup_printf("ring_proc_hop_ns_%d", n);
		g_autofree char *proc_rise = g_strdup_printf("ring_proc_rise_ns_%d", n);

		assert_true(g_key_file_get_uint64(kf, "spread", hop, NULL) > 0);
		assert_true(g_key_file_has_key(kf, "spread", rise, NULL));
		/* and around rings of processes */
		assert_true(g_key_file_get_uint64(kf, "spread", proc_hop, NULL) > 0);
		assert_true(g_key_file_has_key(kf, "spread", proc_rise, NULL));
	}
	assert_int_equal(g_key_file_get_int64(kf, "spread", "ring_rise_ns_2", NULL), 0);
	if (g_key_file_has_key(kf, "costs", "cache_lines", NULL)) {
		assert_int_equal(g_key_file_get_uint64(kf, "costs", "footprint_lines", NULL), 64);
		assert_true(g_key_file_get_uint64(kf, "costs", "cache_lines", NULL) >= 64);
		assert_true(g_key_file_get_uint64(kf, "costs", "miss_ps", NULL) > 0);
		assert_true(g_key_file_get_uint64(kf, "costs", "cache_ways", NULL) <= 16);
		assert_true(g_key_file_has_key(kf, "costs", "cache_ways", NULL));
	} else {
		assert_false(g_key_file_has_key(kf, "costs", "cache_ways", NULL));
		assert_false(g_key_file_has_key(kf, "costs", "footprint_lines", NULL));
		assert_false(g_key_file_has_key(kf, "costs", "miss_ps", NULL));
	}

	/* To stdout with -. */
	r = LINSCHED_RUN("probe", "--quick", "--trials", "3", "--out", "-");
	expect_clean_exit(&r, "linsched probe --out -");
	assert_non_null(strstr(r.out, "[costs]\nsocket_write_ns="));
	run_clear(&r);
}

/*
 * --noise-only writes [noise] (the short stalls and the long ones, two sources) and the noise's
 * lines of [spread] (all the stalls pooled, the tail), nothing else; --noise-ms 0 leaves them out.
 */
static void test_probe_noise(void **state)
{
	g_autofree char *path = g_build_filename(*state, "noise.ini", NULL);
	struct run r = LINSCHED_RUN("probe", "--noise-only", "--noise-ms", "50", "--out", path);

	expect_clean_exit(&r, "linsched probe --noise-only");
	run_clear(&r);

	g_autoptr(GKeyFile) kf = g_key_file_new();
	gsize n_groups = 0;

	assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
	g_auto(GStrv) groups = g_key_file_get_groups(kf, &n_groups);
	assert_int_equal(n_groups, 2);
	assert_string_equal(groups[0], "noise");
	assert_string_equal(groups[1], "spread");
	assert_true(g_key_file_has_key(kf, "noise", "noise_ppm", NULL));
	assert_true(g_key_file_has_key(kf, "noise", "long_ppm", NULL));
	assert_true(g_key_file_has_key(kf, "spread", "noise_all_ppm", NULL));
	assert_true(g_key_file_has_key(kf, "spread", "noise_time_over_1ms_ppm", NULL));
	/* The two sources' shares add up to the pooled one (each rounded to a whole ppm). */
	guint64 all = g_key_file_get_uint64(kf, "spread", "noise_all_ppm", NULL);
	guint64 parts = g_key_file_get_uint64(kf, "noise", "noise_ppm", NULL) +
			g_key_file_get_uint64(kf, "noise", "long_ppm", NULL);

	assert_true(parts + 1 >= all && parts <= all + 1);

	/* It loads as a machine: the built-in one with this noise. */
	g_autoptr(GError) error = NULL;
	struct linsched_machine m;

	if (!linsched_machine_load(path, &m, &error))
		fail_msg("%s", error->message);
	assert_int_equal(m.socket_write_ns, 1090);

	r = LINSCHED_RUN("probe", "--quick", "--trials", "3", "--noise-ms", "0", "--out", "-");
	expect_clean_exit(&r, "linsched probe --noise-ms 0");
	assert_null(strstr(r.out, "[noise]"));
	assert_null(strstr(r.out, "noise_ppm"));
	assert_null(strstr(r.out, "noise_all"));
	run_clear(&r);
}

static void test_probe_refusals(void **state)
{
	g_autofree char *missing_dir = g_build_filename(*state, "no", "such", "m.ini", NULL);
	struct run r = LINSCHED_RUN("probe", "--trials", "2");

	expect_refusal(&r, "linsched probe --trials 2", "--trials");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--colour");
	expect_refusal(&r, "linsched probe --colour", "--colour");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "extra");
	expect_refusal(&r, "linsched probe extra", "extra");
	run_clear(&r);
	/* Issue 16: a flag given twice took the last value, and the trials skipped spaces. */
	r = LINSCHED_RUN("probe", "--trials", "5", "--trials", "7");
	expect_refusal(&r, "linsched probe --trials 5 --trials 7", "--trials: given twice");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "-o", "a.ini", "--out", "b.ini");
	expect_refusal(&r, "linsched probe -o a.ini --out b.ini", "--out: given twice");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--trials", " 5");
	expect_refusal(&r, "linsched probe --trials ' 5'", "--trials");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--trials", "-1");
	expect_refusal(&r, "linsched probe --trials -1", "--trials");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--noise-ms", "-1");
	expect_refusal(&r, "linsched probe --noise-ms -1", "--noise-ms");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--noise-ms", "600001");
	expect_refusal(&r, "linsched probe --noise-ms 600001", "--noise-ms");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--noise-ms", "5", "--noise-ms", "5");
	expect_refusal(&r, "linsched probe --noise-ms twice", "--noise-ms: given twice");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--noise-only", "--noise-ms", "0");
	expect_refusal(&r, "linsched probe --noise-only --noise-ms 0", "--noise-only");
	run_clear(&r);
	r = LINSCHED_RUN("probe", "--noise-only", "--trials", "5");
	expect_refusal(&r, "linsched probe --noise-only --trials 5", "--noise-only");
	run_clear(&r);
	/* A file that cannot be written is a failure, not bad input. */
	r = LINSCHED_RUN("probe", "--quick", "--trials", "3", "--out", missing_dir);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "m.ini"));
	run_clear(&r);
}

static void test_machine_flag(void **state)
{
	g_autofree char *path = g_build_filename(*state, "m.ini", NULL);
	g_autofree char *bad = g_build_filename(*state, "bad.ini", NULL);

	assert_true(
		g_file_set_contents(path,
				    "[machine]\nhz=250\n[costs]\nsocket_write_ns=8000\n"
				    "socket_read_ns=5000\nthread_switch_ns=3000\nwakeup_ns=6000\n"
				    "[capacity]\nsocket_msgs=200\nsocket_sndbuf_bytes=160000\n",
				    -1, NULL));
	struct run r = LINSCHED_RUN("hackbench", "-g", "1", "-l", "2", "-T", "--machine", path,
				    "--format", "json");

	expect_clean_exit(&r, "linsched hackbench --machine");
	struct json *doc = json_parse(r.out);

	assert_int_equal(member_uint(doc, "hz"), 250);
	assert_int_equal(json_number_at(doc, "costs.switch_ns"), 3000);
	assert_int_equal(json_number_at(doc, "costs.wakeup_ns"), 6000);
	assert_int_equal(json_number_at(doc, "workload.write_ns"), 8000);
	assert_int_equal(json_number_at(doc, "workload.read_ns"), 5000);
	assert_int_equal(json_number_at(doc, "workload.capacity_msgs"), 200);
	json_free(doc);
	run_clear(&r);

	/* Flags still win over the file. */
	r = LINSCHED_RUN("hackbench", "-g", "1", "-l", "2", "-T", "--machine", path, "--hz", "1000",
			 "--switch-cost-ns", "77", "--format", "json");
	expect_clean_exit(&r, "linsched hackbench --machine --hz");
	doc = json_parse(r.out);
	assert_int_equal(member_uint(doc, "hz"), 1000);
	assert_int_equal(json_number_at(doc, "costs.switch_ns"), 77);
	json_free(doc);
	run_clear(&r);

	assert_true(g_file_set_contents(bad, "[costs]\n\nwakeup_ns=soon\n", -1, NULL));
	g_autofree char *where = g_strdup_printf("%s:3:", bad);

	r = LINSCHED_RUN("hackbench", "-g", "1", "--machine", bad);
	expect_refusal(&r, "linsched hackbench --machine bad.ini", where);
	run_clear(&r);
	r = LINSCHED_RUN("run", "--duration-ms", "10", "--machine", bad);
	expect_refusal(&r, "linsched run --machine bad.ini", where);
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_probe_writes_machine_ini, make_dir,
						unmake_dir),
		cmocka_unit_test_setup_teardown(test_probe_noise, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_probe_refusals, make_dir, unmake_dir),
		cmocka_unit_test_setup_teardown(test_machine_flag, make_dir, unmake_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
