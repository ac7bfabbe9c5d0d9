/*
 * tests/tuner/knobs/test_knob_settings.c - named knob settings (tuner/knobs/knob_settings.h): the
 * list of --settings, vm/make-plan.sh's settings files, and what each refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "tests/support/support.h"
#include "tuner/knobs/knob_settings.h"

static const Knobs defaults = KNOBS_CFS(12000000, 1500000, 2000000);
static const KnobSettingsFixed migration = { "migration_cost", 500000 };

static const KnobSetting *at(const GArray *s, guint i)
{
	return &g_array_index(s, KnobSetting, i);
}

/* Each item is the defaults with the knobs it names; its id names what it changed, in ms. */
static void test_list(void **state)
{
	(void)state;
	GError *error = NULL;
	GArray *s = knob_settings_parse(
		"defaults, latency=24000000:min_granularity=1500000 ,wakeup_granularity_ns=0,"
		"latency=24e6:wakeup_granularity=16700000",
		&defaults, NULL, 0, &error);

	if (!s)
		fail_msg("%s", error->message);
	assert_int_equal(s->len, 4);
	assert_string_equal(at(s, 0)->id, "defaults");
	assert_memory_equal(&at(s, 0)->knobs, &defaults, sizeof defaults);
	/* min_granularity at its default leaves no part of the name. */
	assert_string_equal(at(s, 1)->id, "latency24");
	assert_int_equal(at(s, 1)->knobs.latency_ns, 24000000);
	assert_int_equal(at(s, 1)->knobs.min_granularity_ns, 1500000);
	assert_string_equal(at(s, 2)->id, "wakeup0");
	assert_int_equal(at(s, 2)->knobs.wakeup_granularity_ns, 0);
	assert_int_equal(at(s, 2)->knobs.latency_ns, 12000000);
	assert_string_equal(at(s, 3)->id, "latency24-wakeup16.7");

	const Knobs wake0 = KNOBS_CFS(12000000, 1500000, 0), none = KNOBS_CFS(1, 2, 3);
	assert_int_equal(knob_settings_find(s, &wake0), 2);
	assert_int_equal(knob_settings_find(s, &none), -1);
	knob_settings_free(s);
}

static void expect_refused(const char *text, const char *needle)
{
	GError *error = NULL;
	GArray *s = knob_settings_parse(text, &defaults, &migration, 1, &error);

	if (s)
		fail_msg("'%s' was accepted", text);
	assert_true(g_error_matches(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE));
	assert_null(strchr(error->message, '\n'));
	if (!strstr(error->message, needle))
		fail_msg("'%s': '%s' lacks '%s'", text, error->message, needle);
	g_error_free(error);
}

static void test_list_refusals(void **state)
{
	(void)state;
	expect_refused("latency=5", "outside its sysctl range 100000..1000000000");
	expect_refused("defaults,foo=1", "'foo' is not latency, min_granularity or wakeup");
	expect_refused("latency", "'latency' is not KNOB=NS");
	expect_refused("latency=1.5e6.2", "is not a whole number of ns");
	expect_refused("latency=1500000.5", "is not a whole number of ns");
	expect_refused("min_granularity=-1", "is not a whole number of ns");
	expect_refused("defaults,wakeup_granularity=2000000", "'defaults' appears twice");
	expect_refused("", "no setting given");
	expect_refused("defaults,,latency=3e6", "an empty item");
	expect_refused("latency=3e6,", "an empty item");
}

/* vm/data/settings-12.txt: 12 settings with their own ids; migration_cost 500000 everywhere, which
 * the experiment keeps anyway. */
static void test_file(void **state)
{
	(void)state;
	GError *error = NULL;
	GArray *s =
		knob_settings_parse("vm/data/settings-12.txt", &defaults, &migration, 1, &error);

	if (!s)
		fail_msg("%s", error->message);
	assert_int_equal(s->len, 12);
	assert_string_equal(at(s, 0)->id, "defaults");
	assert_memory_equal(&at(s, 0)->knobs, &defaults, sizeof defaults);
	assert_string_equal(at(s, 1)->id, "wake0");
	assert_int_equal(at(s, 1)->knobs.wakeup_granularity_ns, 0);
	assert_string_equal(at(s, 11)->id, "1000-16.7-1000");
	assert_int_equal(at(s, 11)->knobs.latency_ns, 1000000000);
	assert_int_equal(at(s, 11)->knobs.min_granularity_ns, 16700000);
	knob_settings_free(s);
}

static void expect_file_refused(const char *dir, const char *text, const char *needle)
{
	g_autofree char *path = g_build_filename(dir, "settings.txt", NULL);
	g_autofree char *where = g_strdup_printf("%s:%s", path, needle);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	expect_refused(path, where);
}

/* "-" is the default; a column the tuner does not set must be "-" or the value kept anyway; lines
 * are named by number. */
static void test_file_values_and_refusals(void **state)
{
	char *dir = *state;
	g_autofree char *path = g_build_filename(dir, "settings.txt", NULL);
	GError *error = NULL;

	assert_true(g_file_set_contents(path,
					"# id lat min wake mig\n"
					"\n"
					"same - - -\n"
					"lat3 3000000 - - -  # a comment\n"
					"mig 12000000 1500000 2000000 500000\n",
					-1, NULL));
	GArray *s = knob_settings_parse(path, &defaults, &migration, 1, &error);
	if (!s)
		fail_msg("%s", error->message);
	assert_int_equal(s->len, 3);
	assert_memory_equal(&at(s, 0)->knobs, &defaults, sizeof defaults);
	assert_int_equal(at(s, 1)->knobs.latency_ns, 3000000);
	assert_int_equal(at(s, 1)->knobs.min_granularity_ns, 1500000);
	knob_settings_free(s);

	expect_file_refused(dir, "a 12000000 1500000 0\nmig 12000000 - - 250000\n",
			    "2: migration_cost_ns 250000: the tuner does not set this knob");
	expect_file_refused(dir, "a 1 2 3 4 5\n", "1: 6 fields");
	expect_file_refused(dir, "a\n", "1: 1 fields");
	expect_file_refused(dir, "x y 12000000\n", "1: latency 'y' is not a whole number");
	expect_file_refused(dir, "a/b 12000000\n", "1: id 'a/b' is not made of");
	assert_true(g_file_set_contents(path, "a 12000000\na 3000000\n", -1, NULL));
	expect_refused(path, "'a' appears twice");
	assert_true(g_file_set_contents(path, "# nothing\n", -1, NULL));
	expect_refused(path, "holds no setting");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_list_refusals),
		cmocka_unit_test(test_file),
		cmocka_unit_test_setup_teardown(test_file_values_and_refusals, temp_dir_setup,
						temp_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
