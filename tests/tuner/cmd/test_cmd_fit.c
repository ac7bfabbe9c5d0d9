/*
 * tests/tuner/cmd/test_cmd_fit.c - `tuner fit` end to end on small plans: a training plan that the
 * simulator itself made at a footprint of 300 lines (so a fit from the built-in 512 can reach a
 * loss of 0) and a held-out one; the JSON's parameters, losses and reports before and after, the
 * fitted machine.ini, the same output for the same seed, and the refusals. The loss and the search
 * are tested in tests/tuner/eval/test_fit.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "linsched/machine.h"
#include "linsched/model_id.h"
#include "tests/support/assert_close.h"
#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define SIM   "--profile", "6.1", "--cpus", "2", "--hz", "250", "--cache-lines", "4096"
#define SHAPE "-T", "-g", "1", "-l", "5", "-f", "8"

static const char *const ids[] = { "defaults", "wake0", "wake16", "lat3" };
static const char *const lat[] = { "12000000", "12000000", "12000000", "3000000" };
static const char *const wake[] = { "2000000", "0", "16000000", "2000000" };

/* linsched hackbench at setting i with the footprint: runtime, and every switch of the run. */
static void simulate(int i, const char *footprint, double *runtime, double *switches)
{
	struct run r = run_program(
		LINSCHED,
		(const char *const[]){ "hackbench", SIM, SHAPE, "--footprint-lines", footprint,
				       "--latency-ns", lat[i], "--wakeup-gran-ns", wake[i],
				       "--format", "json", NULL },
		NULL);

	expect_clean_exit(&r, "linsched hackbench");
	struct json *j = json_parse(r.out);

	*runtime = json_number_at(j, "runtime_ns");
	*switches = json_number_at(j, "context_switches");
	json_free(j);
	run_clear(&r);
}

/*
 * train.csv: 6 rounds with the ratios linsched gives at 300 lines (switches: its measured ones;
 * the fit compares them with the whole run's, which is fine for a test of the plumbing);
 * test.csv: 6 rounds where wake16 is half as fast.
 */
static char *write_plans(const char *dir)
{
	GString *train = g_string_new("seq,round,setting,latency_ns,min_granularity_ns,"
				      "wakeup_granularity_ns,seconds,ctxt,rc\n");
	GString *test = g_string_new(train->str);
	double t[4], sw[4];

	for (int i = 0; i < 4; i++)
		simulate(i, "300", &t[i], &sw[i]);
	for (int r = 0; r < 6; r++)
		for (int i = 0; i < 4; i++) {
			g_string_append_printf(train, "%d,%d,%s,%s,1500000,%s,%.17g,%.0f,0\n",
					       4 * r + i, r, ids[i], lat[i], wake[i], t[i] / t[0],
					       sw[i]);
			g_string_append_printf(test, "%d,%d,%s,%s,1500000,%s,%g,%d,0\n", 4 * r + i,
					       r, ids[i], lat[i], wake[i],
					       i == 2 ? 0.5 + 0.01 * r : 1.0 + 0.01 * i,
					       100 * (i + 1));
		}
	g_autofree char *a = g_build_filename(dir, "train.csv", NULL);
	g_autofree char *b = g_build_filename(dir, "test.csv", NULL);
	char *ini = g_build_filename(dir, "plans.ini", NULL);

	assert_true(g_file_set_contents(a, train->str, -1, NULL));
	assert_true(g_file_set_contents(b, test->str, -1, NULL));
	assert_true(
		g_file_set_contents(ini,
				    "[train]\ncsv=train.csv\nworkload=hackbench -T -g 1 -l 5 -f 8\n"
				    "role=train\n[held]\ncsv=test.csv\n"
				    "workload=hackbench -T -g 1 -l 5 -f 8\n",
				    -1, NULL));
	g_string_free(train, TRUE);
	g_string_free(test, TRUE);
	return ini;
}

static struct run fit(const char *ini, const char *machine_out)
{
	return run_program(TUNER,
			   (const char *const[]){ "fit", "--plans", ini, SIM, "--param",
						  "footprint", "--starts", "2", "--max-iter", "30",
						  "--machine-out", machine_out, "--format", "json",
						  NULL },
			   NULL);
}

static const struct json *item(const struct json *obj, const char *key, guint i)
{
	const struct json *a = member(obj, key, J_ARRAY);

	assert_true(i < a->array->len);
	return a->array->pdata[i];
}

static void test_fit(void **state)
{
	g_autofree char *ini = write_plans(*state);
	g_autofree char *out = g_build_filename(*state, "fitted.ini", NULL);
	struct run r = fit(ini, out);

	expect_clean_exit(&r, "tuner fit");
	struct json *j = json_parse(r.out);
	const struct json *p = item(j, "params", 0);

	assert_string_equal(member_string(p, "name"), "footprint");
	assert_string_equal(member_string(p, "key"), "footprint_lines");
	assert_close(json_number_at(p, "start"), 512, 0);
	assert_close(json_number_at(p, "lo"), 512 / 20.0, 1e-9);
	assert_true(json_number_at(j, "loss.start") > 0);
	assert_true(json_number_at(j, "loss.fitted") <= json_number_at(j, "loss.start"));
	assert_close(json_number_at(j, "loss.switch_weight"), 0.25, 0);
	assert_close(json_number_at(j, "loss.seconds_weight"), 0, 0);
	assert_close(json_number_at(j, "loss.line_weight"), 0, 0);
	assert_close(json_number_at(j, "loss.ref_switch_weight"), 0, 0);
	assert_int_equal(member(j, "search", J_OBJECT) != NULL, 1);
	assert_int_equal(member_uint(member(j, "search", J_OBJECT), "starts"), 2);

	/* Both reports hold both plans, with their roles; the training plan's time ratios are
	 * the simulator's at 300 lines, so the fitted machine's rms error is no worse. */
	const struct json *before = member(j, "before", J_OBJECT);
	const struct json *after = member(j, "fitted", J_OBJECT);

	assert_string_equal(member_string(item(after, "plans", 0), "role"), "train");
	assert_string_equal(member_string(item(after, "plans", 1), "role"), "test");
	assert_true(json_number_at(item(after, "plans", 0), "criteria.rms_log_time") <=
		    json_number_at(item(before, "plans", 0), "criteria.rms_log_time") + 1e-12);

	/* The machine file has the fitted footprint and says what it was fitted on. */
	struct linsched_machine m;
	g_autofree char *text = read_text(out);

	assert_true(linsched_machine_load(out, &m, NULL));
	assert_close((double)m.footprint_lines, json_number_at(p, "fitted"), 0);
	assert_true(g_str_has_prefix(text, "# Fitted by `tuner fit` on "));
	assert_non_null(strstr(text, "#   train: hackbench -T -g 1 -l 5 -f 8"));
	assert_non_null(strstr(text, "# Held out held: rank corr. times "));
	g_autofree char *model =
		g_strdup_printf("\n# Fitted on the simulator of model id %s ", linsched_model_id());
	assert_non_null(strstr(text, model));
	json_free(j);

	/* The same flags and seed: the same fit. */
	struct run again = fit(ini, out);

	expect_clean_exit(&again, "tuner fit, again");
	assert_string_equal(again.out, r.out);
	run_clear(&again);
	run_clear(&r);

	/* Text: the search, the fitted machine's report, before and after. */
	r = run_program(TUNER,
			(const char *const[]){ "fit", "--plans", ini, SIM, "--param",
					       "footprint,miss", "--starts", "1", "--max-iter", "5",
					       NULL },
			NULL);
	expect_clean_exit(&r, "tuner fit (text)");
	assert_non_null(strstr(r.out, "tuner fit: 2 parameters fitted to train (held out: held)"));
	assert_non_null(strstr(r.out, "  footprint       [costs] footprint_lines"));
	assert_non_null(strstr(r.out, "  miss            [costs] miss_ps"));
	assert_non_null(strstr(r.out, "== before and after =="));
	/* The fitted machine's report says whose values it ran with, not --machine's alone. */
	assert_non_null(strstr(r.out, "; the machine with the fitted values: footprint_lines="));
	assert_non_null(strstr(r.out, "\nheld             test  fitted "));
	run_clear(&r);

	/* --train: the plans it names train, every other is held out, whatever role= says. */
	r = run_program(TUNER,
			(const char *const[]){ "fit", "--plans", ini, SIM, "--param", "footprint",
					       "--starts", "1", "--max-iter", "3", "--train",
					       "held", NULL },
			NULL);
	expect_clean_exit(&r, "tuner fit --train held");
	assert_non_null(strstr(r.out, "tuner fit: 1 parameter fitted to held (held out: train)"));
	assert_non_null(strstr(r.out, "\ntrain            test  fitted "));
	run_clear(&r);

	/* One plan given alone is the one fitted. */
	g_autofree char *csv = g_build_filename(*state, "train.csv", NULL);

	r = run_program(TUNER,
			(const char *const[]){ "fit", "--csv", csv, "--workload",
					       "hackbench -T -g 1 -l 5 -f 8", SIM, "--param",
					       "footprint", "--starts", "1", "--max-iter", "3",
					       "--format", "json", NULL },
			NULL);
	expect_clean_exit(&r, "tuner fit --csv");
	j = json_parse(r.out);
	assert_string_equal(member_string(item(member(j, "fitted", J_OBJECT), "plans", 0), "role"),
			    "train");
	json_free(j);
	run_clear(&r);
}

static void refused(const char *ini, const char *const *extra, const char *needle)
{
	const char *args[32] = { "fit", "--plans", ini, SIM };
	guint n = 11;

	for (guint i = 0; extra[i]; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	struct run r = run_program(TUNER, args, NULL);

	expect_refusal(&r, needle, needle);
	run_clear(&r);
}

static void test_refusals(void **state)
{
	g_autofree char *ini = write_plans(*state);
	g_autofree char *held = g_build_filename(*state, "held.ini", NULL);

	assert_true(g_file_set_contents(
		held, "[held]\ncsv=test.csv\nworkload=hackbench -T -g 1 -l 5 -f 8\n", -1, NULL));
	refused(ini, (const char *const[]){ NULL }, "--param");
	refused(ini, (const char *const[]){ "--param", "speed", NULL }, "no parameter 'speed'");
	refused(ini, (const char *const[]){ "--param", "cache_lines", NULL }, "--cache-lines");
	refused(ini, (const char *const[]){ "--param", "miss,miss", NULL }, "miss twice");
	refused(ini, (const char *const[]){ "--param", "miss", "--range", "1", NULL }, "--range");
	refused(ini, (const char *const[]){ "--param", "miss", "--starts", "0", NULL }, "--starts");
	refused(ini, (const char *const[]){ "--param", "miss", "--format", "csv", NULL },
		"--format");
	refused(ini,
		(const char *const[]){ "--param", "miss", "--time-weight", "0", "--switch-weight",
				       "0", NULL },
		"--time-weight");
	refused(held, (const char *const[]){ "--param", "miss", NULL }, "role=train");
	refused(ini, (const char *const[]){ "--param", "miss", "--train", "train,nope", NULL },
		"--train: no plan 'nope' in");
}

/*
 * Every number of fit's own checked as parsed, at -1, nan and the like, naming the flag; each
 * flag given once; and a parameter a flag fixes refused when the flag is given at all, even at
 * the model's own value (--footprint-lines 512 was indistinguishable from "not given").
 */
static void test_flags_refused(void **state)
{
	g_autofree char *ini = write_plans(*state);
	static const struct {
		const char *flag;
		bool real;
	} numbers[] = {
		{ "--starts", false },	     { "--max-iter", false },
		{ "--range", true },	     { "--step", true },
		{ "--tol", true },	     { "--time-weight", true },
		{ "--switch-weight", true }, { "--seconds-weight", true },
		{ "--line-weight", true },   { "--ref-switch-weight", true },
	};
	static const char *const bad_int[] = { "-1", "nan", "1e3", "" };
	static const char *const bad_real[] = { "-1", "nan", "inf", "-inf" };
	static const struct {
		const char *args[5];
		const char *needle;
	} cases[] = {
		{ { "--range", "1" }, "--range: must be in (1, 1e+06], got 1" },
		{ { "--step", "1.5" }, "--step: must be in (0, 1], got 1.5" },
		{ { "--tol", "0" }, "--tol: must be in (0, 10), got 0" },
		{ { "--max-iter", "100001" }, "--max-iter: must be in 1..100000, got 100001" },
		{ { "--starts", "2", "--starts", "3" }, "--starts: given twice" },
		{ { "--machine-out", "" }, "--machine-out: an empty file name" },
		{ { "--footprint-lines", "512" }, "--param footprint: --footprint-lines fixes it" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(numbers); i++) {
		const char *const *bad = numbers[i].real ? bad_real : bad_int;

		for (size_t j = 0; j < G_N_ELEMENTS(bad_int); j++)
			refused(ini,
				(const char *const[]){ "--param", "footprint", numbers[i].flag,
						       bad[j], NULL },
				numbers[i].flag);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *extra[8] = { "--param", "footprint" };

		for (size_t k = 0; cases[i].args[k]; k++)
			extra[2 + k] = cases[i].args[k];
		refused(ini, extra, cases[i].needle);
	}
}

/* The most a program may write to a file: as a disk that is full beyond it. */
#define SMALL_FILE_BYTES 500

static void small_files(gpointer data)
{
	const struct rlimit limit = { SMALL_FILE_BYTES, SMALL_FILE_BYTES };

	(void)data;
	signal(SIGXFSZ, SIG_IGN); /* a write beyond it fails instead of killing the program */
	setrlimit(RLIMIT_FSIZE, &limit);
}

/* tuner fit of the footprint with the journal (and --no-sync), 2 starts of max_iter iterations
 * at most, JSON. */
static struct run journaled(const char *ini, const char *journal, const char *max_iter)
{
	return run_program(TUNER,
			   (const char *const[]){ "fit", "--plans", ini, SIM, "--param",
						  "footprint", "--starts", "2", "--max-iter",
						  max_iter, "--journal", journal, "--no-sync",
						  "--format", "json", NULL },
			   NULL);
}

/* The output without its counts of losses and simulations, which a resumed fit's differ in. */
static char *without_counts(const char *json)
{
	g_auto(GStrv) lines = g_strsplit(json, "\n", -1);
	GString *out = g_string_new(NULL);

	for (guint i = 0; lines[i]; i++)
		if (!strstr(lines[i], "\"losses") && !strstr(lines[i], "\"simulations\""))
			g_string_append_printf(out, "%s\n", lines[i]);
	return g_string_free(out, FALSE);
}

/*
 * --journal: a fit killed after k losses (its journal cut there, the next record torn) resumes,
 * reads the k losses, computes only the rest, and prints what the uninterrupted fit printed, but
 * for the counts. A held-out plan's data and the search's flags change no loss; the training
 * plans' definition, the weights and the simulation flags do, and such a journal is refused,
 * naming the file and what differs. A journal another process holds is a failure.
 */
static void test_journal(void **state)
{
	g_autofree char *ini = write_plans(*state);
	g_autofree char *journal = g_build_filename(*state, "fit-journal.txt", NULL);
	struct run whole = journaled(ini, journal, "30");

	expect_clean_exit(&whole, "tuner fit --journal");
	struct json *j = json_parse(whole.out);
	const guint64 losses = member_uint(member(j, "search", J_OBJECT), "losses");

	assert_string_equal(member_string(j, "journal"), journal);
	assert_int_equal(member_uint(member(j, "search", J_OBJECT), "losses_from_journal"), 0);
	json_free(j);

	g_autofree char *text = read_text(journal);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	assert_int_equal(g_strv_length(lines), 2 + losses + 1);
	assert_true(losses > 4);
	g_autofree char *cut = g_strdup_printf("%s\n%s\n%s\n%s\n%s\n%.5s", lines[0], lines[1],
					       lines[2], lines[3], lines[4], lines[5]);
	assert_true(g_file_set_contents(journal, cut, -1, NULL));

	struct run resumed = journaled(ini, journal, "30");

	expect_clean_exit(&resumed, "tuner fit --journal, resumed");
	j = json_parse(resumed.out);
	assert_int_equal(member_uint(member(j, "search", J_OBJECT), "losses_from_journal"), 3);
	assert_int_equal(member_uint(member(j, "search", J_OBJECT), "losses"), losses - 3);
	json_free(j);
	g_autofree char *a = without_counts(whole.out), *b = without_counts(resumed.out);
	assert_string_equal(b, a);
	run_clear(&resumed);
	run_clear(&whole);

	/* Other search flags, and text: everything is read, nothing simulated. */
	g_autofree char *held = g_build_filename(*state, "test.csv", NULL);
	g_autofree char *held_text = read_text(held);
	g_autofree char *more = g_strconcat(held_text,
					    "24,6,defaults,12000000,1500000,2000000,1,"
					    "100,0\n",
					    NULL);
	assert_true(g_file_set_contents(held, more, -1, NULL));
	g_autofree char *read = g_strdup_printf("0 losses computed (0 simulations), %u read from "
						"the journal %s,",
						(guint)losses, journal);
	struct run other = journaled(ini, journal, "20");

	expect_clean_exit(&other, "tuner fit --journal --max-iter 20");
	j = json_parse(other.out);
	assert_true(member_uint(member(j, "search", J_OBJECT), "losses_from_journal") > 0);
	json_free(j);
	run_clear(&other);
	other = run_program(TUNER,
			    (const char *const[]){ "fit", "--plans", ini, SIM, "--param",
						   "footprint", "--starts", "2", "--max-iter", "30",
						   "--journal", journal, NULL },
			    NULL);
	expect_clean_exit(&other, "tuner fit --journal (text)");
	assert_non_null(strstr(other.out, read));
	run_clear(&other);
	assert_true(g_file_set_contents(held, held_text, -1, NULL));

	/* Other settings are refused, naming the file and the tokens that differ. */
	g_autofree char *weights = g_strdup_printf(
		"--journal: journal %s was written for a different setting: journal has "
		"'switch_weight=0.25', this run has 'switch_weight=0.5'",
		journal);
	refused(ini,
		(const char *const[]){ "--param", "footprint", "--journal", journal,
				       "--switch-weight", "0.5", NULL },
		weights);
	refused(ini,
		(const char *const[]){ "--param", "footprint", "--journal", journal, "--steal",
				       "0.1", "--stall-ns", "100000", NULL },
		"this run has 'steal=0.1 stall-ns=100000'");
	refused(ini,
		(const char *const[]){ "--param", "footprint,miss", "--journal", journal, NULL },
		"'params=footprint,miss'");
	g_autofree char *machine = g_build_filename(*state, "machine.ini", NULL);
	assert_true(g_file_set_contents(machine, "[costs]\nmiss_ps=6000\n", -1, NULL));
	refused(ini,
		(const char *const[]){ "--param", "footprint", "--journal", journal, "--machine",
				       machine, NULL },
		"journal has 'machine=built-in', this run has 'machine=");
	/* A journal of another simulator's code (its model id): its losses are another model's. */
	g_autofree char *journal_text = read_text(journal);
	g_autofree char *settings = journal_settings(journal);
	g_autofree char *model = g_strdup_printf(" sim_model=%s ", linsched_model_id());

	assert_non_null(strstr(settings, model));
	g_autofree char *other_model = journal_change_token(journal, "sim_model");
	g_autofree char *names_model = g_strdup_printf("journal has '%s', this run has '%s'",
						       other_model, g_strstrip(model));

	refused(ini, (const char *const[]){ "--param", "footprint", "--journal", journal, NULL },
		names_model);
	assert_true(g_file_set_contents(journal, journal_text, -1, NULL));
	g_autofree char *ini_text = read_text(ini);
	g_autofree char *edited = g_strconcat(ini_text, "# a comment changes nothing\n", NULL);
	assert_true(g_file_set_contents(ini, edited, -1, NULL));
	whole = journaled(ini, journal, "30");
	expect_clean_exit(&whole, "tuner fit --journal, plans.ini with a comment");
	run_clear(&whole);
	g_autofree char *train = g_strconcat(ini_text, "[train]\npreempt=full\n", NULL);
	assert_true(g_file_set_contents(ini, train, -1, NULL));
	refused(ini, (const char *const[]){ "--param", "footprint", "--journal", journal, NULL },
		"this run has 'plan.train=");
	refused(ini, (const char *const[]){ "--param", "footprint", "--no-sync", NULL },
		"--no-sync");

	/* Held by another process: not bad input, a failure. */
	assert_true(g_file_set_contents(ini, ini_text, -1, NULL));
	int fd = open(journal, O_RDWR);
	assert_true(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0);
	whole = journaled(ini, journal, "30");
	close(fd);
	assert_int_equal(whole.status, 1);
	assert_non_null(strstr(whole.err, "in use"));
	run_clear(&whole);

	/* A journal that cannot be written (a full disk) stops the fit, a failure, leaving whole
	 * lines; the rerun resumes from them. */
	assert_int_equal(g_unlink(journal), 0);
	whole = run_program(TUNER,
			    (const char *const[]){ "fit", "--plans", ini, SIM, "--param",
						   "footprint", "--starts", "2", "--max-iter", "30",
						   "--journal", journal, "--format", "json", NULL },
			    small_files);
	assert_int_equal(whole.status, 1);
	assert_non_null(strstr(whole.err, "--journal: cannot append to journal"));
	run_clear(&whole);
	g_free(text);
	text = read_text(journal);
	assert_true(strlen(text) > 400 && strlen(text) <= SMALL_FILE_BYTES);
	assert_true(g_str_has_suffix(text, "\n"));
	whole = journaled(ini, journal, "30");
	expect_clean_exit(&whole, "tuner fit --journal, after a full disk");
	g_free(b);
	b = without_counts(whole.out);
	assert_string_equal(b, a);
	run_clear(&whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fit, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_flags_refused, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_journal, temp_dir_setup, temp_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
