/*
 * End-to-end tests of `tuner pso|golden|grid|random|bayes|ga`: the real binary of this build variant
 * (BUILD_BIN_DIR/tuner), spawned without a shell, judged by its exit status, stdout, stderr and
 * the files it writes (history.csv, result.json, the journal).
 *
 * The simulator checks use the workload: 5 hackbench groups, 1 loop, threads, 2 CPUs
 * (200 tasks; default knobs on 2 CPUs latency 40 ms, min_granularity 8 ms, wakeup 10 ms).  The
 * live objective runs against a temporary knob tree with a shell script as the "benchmark" whose
 * time is a known function of the knobs, and which can kill -9 the tuner at a chosen evaluation.
 *
 * JSON is read with the strict parser of tests/support; history.csv with g_strsplit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <pty.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "linsched/model_id.h"
#include "tuner/calib/calibration_io.h"

#include "tests/support/json_strict.h"
#include "tests/support/support.h"

#define WORKLOAD "--groups", "5", "--loops", "1", "--threads", "--cpus", "2"

/* ---- running the program ---------------------------------------------------------------------- */

#define RUN(...) run_program(TUNER, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

static void expect_exit_0(const struct run *r, const char *what)
{
	if (r->status != 0)
		fail_msg("%s: exit status %d, stderr '%s'", what, r->status, r->err);
}

/* JSON is read with the strict parser of tests/support rather than tuner/util/json_read.h, because it
 * also refuses duplicate keys in the program's output. */

/* ---- history.csv ------------------------------------------------------------------------------ */

struct csv {
	char **header;
	GPtrArray *rows; /* char ** per row */
};

static void csv_free(struct csv *c)
{
	g_strfreev(c->header);
	g_ptr_array_free(c->rows, TRUE);
}

static struct csv csv_read(const char *path)
{
	char *text = NULL;
	struct csv c = { NULL, g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev) };

	if (!g_file_get_contents(path, &text, NULL, NULL))
		fail_msg("cannot read %s", path);
	char **lines = g_strsplit(text, "\n", -1);

	assert_true(lines[0] != NULL);
	c.header = g_strsplit(lines[0], ",", -1);
	for (size_t i = 1; lines[i]; i++) {
		if (lines[i][0] == '\0') {
			assert_null(
				lines[i + 1]); /* only the final newline leaves an empty piece */
			break;
		}
		char **row = g_strsplit(lines[i], ",", -1);

		assert_int_equal(g_strv_length(row), g_strv_length(c.header));
		g_ptr_array_add(c.rows, row);
	}
	g_strfreev(lines);
	g_free(text);
	return c;
}

static int csv_column(const struct csv *c, const char *name)
{
	for (int i = 0; c->header[i]; i++)
		if (strcmp(c->header[i], name) == 0)
			return i;
	fail_msg("history.csv has no column '%s'", name);
	return -1;
}

static double csv_num(const struct csv *c, guint row, const char *name)
{
	return g_ascii_strtod(((char **)c->rows->pdata[row])[csv_column(c, name)], NULL);
}

/* ---- fixtures --------------------------------------------------------------------------------- */

/* The five simulator runs of the table, made once for the whole group. */
enum {
	PSO,
	GOLDEN1,
	GOLDEN2,
	GRID,
	RANDOM,
	BAYES,
	GA,
	NRUNS
};
static const char *const run_names[NRUNS] = { "pso",  "golden-rule1", "golden-rule2",
					      "grid", "random",	      "bayes",
					      "ga" };

struct fixture {
	char *dir;
	struct json *result[NRUNS];
};

static char *path_in(const struct fixture *f, const char *name)
{
	return g_build_filename(f->dir, name, NULL);
}

static int group_setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);

	f->dir = temp_dir("cmd-optimize-XXXXXX");
	/* The live runs' state files (tuner/eval/knob_state.h) stay in the fixture. */
	g_autofree char *state_home = path_in(f, "state");
	g_setenv("XDG_STATE_HOME", state_home, TRUE);
	for (int i = 0; i < NRUNS; i++) {
		g_autofree char *out = path_in(f, run_names[i]);
		struct run r;

		switch (i) {
		case PSO:
			r = RUN("pso", WORKLOAD, "--out", out, "--format", "json");
			break;
		case GOLDEN1:
			r = RUN("golden", "--rule", "1", WORKLOAD, "--out", out, "--format",
				"json");
			break;
		case GOLDEN2:
			r = RUN("golden", "--rule", "2", WORKLOAD, "--out", out, "--format",
				"json");
			break;
		case GRID:
			r = RUN("grid", "--points", "10", "--scale", "log", WORKLOAD, "--out", out,
				"--format", "json");
			break;
		case RANDOM:
			r = RUN("random", WORKLOAD, "--out", out, "--format", "json");
			break;
		case BAYES:
			r = RUN("bayes", WORKLOAD, "--out", out, "--format", "json");
			break;
		default:
			r = RUN("ga", WORKLOAD, "--out", out, "--format", "json");
			break;
		}
		expect_clean_exit(&r, run_names[i]);
		f->result[i] = json_parse(r.out);

		g_autofree char *file = g_build_filename(out, "result.json", NULL);
		g_autofree char *text = read_text(file);

		assert_string_equal(text, r.out); /* --format json prints what result.json holds */
		run_clear(&r);
	}
	*state = f;
	return 0;
}

static int group_teardown(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < NRUNS; i++)
		json_free(f->result[i]);
	assert_true(remove_tree(f->dir));
	g_free(f->dir);
	g_free(f);
	return 0;
}

/* ---- the simulator: the checks -------------------------------------------------------- */

static void test_every_optimizer_beats_the_defaults(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < NRUNS; i++) {
		const struct json *r = f->result[i];
		double best = json_number_at(r, "best.value"),
		       def = json_number_at(r, "default.value");

		/* The profile's defaults on 2 CPUs: 20 ms, 4 ms, 5 ms scaled by 1 + log2(2) = 2. */
		assert_true(json_number_at(r, "default.knobs.latency_ns") == 40000000);
		assert_true(json_number_at(r, "default.knobs.min_granularity_ns") == 8000000);
		assert_true(json_number_at(r, "default.knobs.wakeup_granularity_ns") == 10000000);
		if (!(best < def))
			fail_msg("%s: best %.6g is not below the defaults' %.6g", run_names[i],
				 best, def);
		assert_true(fabs(json_number_at(r, "improvement_pct") - 100 * (def - best) / def) <
			    1e-9);
		assert_string_equal(json_string_at(r, "unit"), "jiffies");
		print_message(
			"  %-13s best %.6g jiffies, %4.0f evaluations, %+.2f%% against the defaults (%.6g)\n",
			run_names[i], best, json_number_at(r, "evaluations"),
			json_number_at(r, "improvement_pct"), def);
	}
}

static void test_pso_no_worse_than_the_log_grid(void **state)
{
	struct fixture *f = *state;
	const struct json *grid = f->result[GRID], *pso = f->result[PSO];

	assert_true(json_number_at(grid, "evaluations") == 1000);
	assert_non_null(strstr(json_string_at(grid, "space"), "latency=100000:1000000000:log"));
	assert_true(json_number_at(pso, "evaluations") == 600);
	assert_true(json_number_at(pso, "best.value") <= json_number_at(grid, "best.value"));
}

/* SPEC.md §5's rules with N = 200, written out again here, with the sysctl clamps. */
static void rule_knobs(int rule, double p, double k[3])
{
	const double n = 200;

	if (rule == 1) {
		k[2] = p > n * 1e9 ? p - n * 1e9 : 0;
		p = MIN(p, n * 1e9);
		k[0] = 19900000;
		k[1] = p / n;
	} else {
		k[2] = p > 1e9 ? p - 1e9 : 0;
		p = MIN(p, 1e9);
		k[0] = p;
		k[1] = k[0] < 20000000 ? p / n : 100000;
	}
	for (int i = 0; i < 3; i++)
		k[i] = CLAMP(k[i], i == 2 ? 0 : 100000, 1e9);
}

static void test_golden_converges_in_12(void **state)
{
	struct fixture *f = *state;

	for (int rule = 1; rule <= 2; rule++) {
		const struct json *r = f->result[rule == 1 ? GOLDEN1 : GOLDEN2];
		g_autofree char *dir = path_in(f, run_names[rule == 1 ? GOLDEN1 : GOLDEN2]);
		g_autofree char *path = g_build_filename(dir, "history.csv", NULL);
		struct csv c = csv_read(path);

		assert_true(json_number_at(r, "evaluations") <= 12);
		assert_int_equal(c.rows->len, (guint)json_number_at(r, "evaluations"));
		/* Every evaluated point's knobs are the rule's, from its SchedPeriod. */
		for (guint i = 0; i < c.rows->len; i++) {
			double k[3];

			rule_knobs(rule, csv_num(&c, i, "sched_period_ns"), k);
			assert_true(fabs(csv_num(&c, i, "latency_ns") - k[0]) <= 0.5);
			assert_true(fabs(csv_num(&c, i, "min_granularity_ns") - k[1]) <= 0.5);
			assert_true(fabs(csv_num(&c, i, "wakeup_granularity_ns") - k[2]) <= 0.5);
		}
		assert_non_null(json_at(r, "best.clamped"));
		assert_non_null(json_at(r, "clamped_evaluations"));
		csv_free(&c);
	}
}

/* history.csv and result.json agree, and evaluations_to_1pct is what the history says. */
static void test_history_and_result(void **state)
{
	struct fixture *f = *state;
	const struct json *r = f->result[PSO];
	g_autofree char *dir = path_in(f, "pso");
	g_autofree char *path = g_build_filename(dir, "history.csv", NULL);
	struct csv c = csv_read(path);
	const char *const header[] = { "evaluation",
				       "iteration",
				       "latency_ns",
				       "min_granularity_ns",
				       "wakeup_granularity_ns",
				       "value",
				       "std_error",
				       "best",
				       NULL };

	assert_true(g_strv_equal((const char *const *)c.header, header));
	assert_int_equal(c.rows->len, 600);

	double best = INFINITY, final = json_number_at(r, "best.value");
	guint best_row = 0, to_1pct = 0;

	for (guint i = 0; i < c.rows->len; i++) {
		double v = csv_num(&c, i, "value");

		assert_true(csv_num(&c, i, "evaluation") == i + 1);
		assert_true(csv_num(&c, i, "iteration") == i / 20);
		if (v < best) {
			best = v;
			best_row = i;
		}
		assert_true(csv_num(&c, i, "best") == best);
	}
	for (guint i = 0; i < c.rows->len && !to_1pct; i++)
		if (csv_num(&c, i, "best") <= final * 1.01)
			to_1pct = i + 1;
	assert_true(best == final);
	assert_true(json_number_at(r, "evaluations_to_1pct") == to_1pct);
	assert_true(json_number_at(r, "best.evaluation") == best_row + 1);
	assert_true(json_number_at(r, "best.knobs.latency_ns") ==
		    csv_num(&c, best_row, "latency_ns"));
	assert_true(json_number_at(r, "best.knobs.min_granularity_ns") ==
		    csv_num(&c, best_row, "min_granularity_ns"));
	assert_true(json_number_at(r, "best.knobs.wakeup_granularity_ns") ==
		    csv_num(&c, best_row, "wakeup_granularity_ns"));
	assert_true(json_number_at(r, "best.stderr") == 0);
	assert_true(json_number_at(r, "iterations") == 30);
	csv_free(&c);
}

/*
 * bayes: 40 evaluations by default, the first 2 x 3 + 1 = 7 the Latin hypercube (iteration 0),
 * then one per iteration; after every iteration the model's predicted optimum, in result.json
 * (model.iterations, model.optimum = the last) and in history.csv's model_* columns (the
 * prediction after the row's iteration).
 */
static void test_bayes_reports_the_model(void **state)
{
	struct fixture *f = *state;
	const struct json *r = f->result[BAYES];
	g_autofree char *dir = path_in(f, "bayes");
	g_autofree char *path = g_build_filename(dir, "history.csv", NULL);
	struct csv c = csv_read(path);
	const struct json *iters = json_at(r, "model.iterations");

	assert_true(json_number_at(r, "evaluations") == 40);
	assert_true(json_number_at(r, "iterations") == 34);
	assert_int_equal(c.rows->len, 40);
	assert_true(iters != NULL && iters->kind == J_ARRAY);
	assert_int_equal(iters->array->len, 34);
	for (guint i = 0; i < c.rows->len; i++) {
		guint it = (guint)csv_num(&c, i, "iteration");
		const struct json *p = g_ptr_array_index(iters->array, it);

		assert_int_equal(it, i < 7 ? 0 : i - 6);
		assert_true(json_number_at(p, "iteration") == it);
		assert_true(json_number_at(p, "evaluations") == (it == 0 ? 7 : 7 + it));
		assert_true(csv_num(&c, i, "model_value") == json_number_at(p, "value"));
		assert_true(csv_num(&c, i, "model_sd") == json_number_at(p, "sd"));
		assert_true(csv_num(&c, i, "model_sd") >= 0);
		assert_true(csv_num(&c, i, "model_latency_ns") ==
			    json_number_at(p, "knobs.latency_ns"));
	}
	assert_true(json_number_at(r, "model.optimum.value") ==
		    json_number_at(g_ptr_array_index(iters->array, 33), "value"));
	csv_free(&c);

	/* The text output prints the same table, one row per iteration. */
	g_autofree char *out = path_in(f, "bayes-text");
	struct run t = RUN("bayes", WORKLOAD, "--budget", "9", "--out", out);

	expect_clean_exit(&t, "bayes text");
	assert_non_null(strstr(t.out, "the model's predicted optimum after each iteration"));
	assert_non_null(strstr(t.out, "evaluations: 9 in 3 iteration(s)"));
	run_clear(&t);
}

/* ga: 20 + 14 x 18 = 272 evaluations in 15 generations; no model. */
static void test_ga_generations(void **state)
{
	struct fixture *f = *state;
	const struct json *r = f->result[GA];

	assert_true(json_number_at(r, "evaluations") == 272);
	assert_true(json_number_at(r, "iterations") == 15);
	assert_null(json_at(r, "model"));
	assert_non_null(strstr(json_string_at(r, "settings"), "population=20 generations=15"));
}

/* PSO's coefficients: the constriction preset by default, --preset and single overrides. */
static void test_pso_presets(void **state)
{
	static const struct {
		const char *args[6];
		const char *expect;
	} cases[] = {
		{ { NULL }, "omega=0.7298 phi_p=1.4961800000000001 phi_g=1.4961800000000001" },
		{ { "--preset", "thesis" }, "omega=0.4365 phi_p=3.02 phi_g=3.02" },
		{ { "--preset", "classic", "--phi-g", "3.5" },
		  "omega=0.90000000000000002 phi_p=4 phi_g=3.5" },
		{ { "--omega", "0.5" }, "omega=0.5 phi_p=1.4961800000000001" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *args[24] = { "pso",		 WORKLOAD, "--particles", "2",
					 "--iterations", "1",	   "--format",	  "json" };
		size_t n = 0;

		while (args[n])
			n++;
		for (size_t k = 0; cases[i].args[k]; k++)
			args[n++] = cases[i].args[k];

		struct run r = run_program(TUNER, args, NULL);

		expect_clean_exit(&r, cases[i].expect);

		struct json *j = json_parse(r.out);

		if (!strstr(json_string_at(j, "settings"), cases[i].expect))
			fail_msg("settings '%s' lack '%s'", json_string_at(j, "settings"),
				 cases[i].expect);
		json_free(j);
		run_clear(&r);
	}
}

/* ---- jobs, journal, replicates ---------------------------------------------------------------- */

/* A workload whose seeds matter: tasks with random busy and sleep times. */
#define RANDOM_TASKS "--task", "randsleeprun:busy_ms=1:sleep_ms=1:count=6:loops=5", "--cpus", "2"

static void test_jobs_give_the_same_result(void **state)
{
	struct fixture *f = *state;
	g_autofree char *d1 = path_in(f, "jobs1"), *d2 = path_in(f, "jobs2");
	struct run r1 = RUN("pso", RANDOM_TASKS, "--particles", "8", "--iterations", "5",
			    "--replicates", "2", "--jobs", "1", "--out", d1, "--format", "json");
	struct run r2 = RUN("pso", RANDOM_TASKS, "--particles", "8", "--iterations", "5",
			    "--replicates", "2", "--jobs", "2", "--out", d2, "--format", "json");

	expect_clean_exit(&r1, "--jobs 1");
	expect_clean_exit(&r2, "--jobs 2");
	g_autofree char *p1 = g_build_filename(d1, "history.csv", NULL),
			*p2 = g_build_filename(d2, "history.csv", NULL);
	g_autofree char *h1 = read_text(p1), *h2 = read_text(p2);

	assert_string_equal(h1, h2);

	struct json *j1 = json_parse(r1.out), *j2 = json_parse(r2.out);
	const char *const same[] = {
		"best.value",	   "best.stderr", "best.knobs.latency_ns", "default.value",
		"improvement_pct", "evaluations", "evaluations_to_1pct"
	};

	for (size_t i = 0; i < G_N_ELEMENTS(same); i++)
		assert_true(json_number_at(j1, same[i]) == json_number_at(j2, same[i]));
	assert_true(json_number_at(j1, "jobs") == 1 && json_number_at(j2, "jobs") == 2);
	assert_true(json_number_at(j1, "best.stderr") > 0); /* the replicates differ */
	json_free(j1);
	json_free(j2);
	run_clear(&r1);
	run_clear(&r2);
}

/* The best point's mean and standard error, recomputed from the journal's replicate lines. */
static void test_replicates_from_the_journal(void **state)
{
	struct fixture *f = *state;
	g_autofree char *journal = path_in(f, "replicates.journal");
	struct run r = RUN("random", RANDOM_TASKS, "--budget", "6", "--replicates", "3", "--seed",
			   "7", "--journal", journal, "--format", "json");

	expect_clean_exit(&r, "random --replicates 3");
	struct json *j = json_parse(r.out);
	g_autofree char *text = read_text(journal);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	double v[3];
	int found = 0;

	for (size_t i = 0; lines[i]; i++) {
		guint64 lat, min, wake, seed;
		unsigned int rep;
		double value, wall;

		if (lines[i][0] == '#' ||
		    sscanf(lines[i],
			   "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
			   " %" G_GUINT64_FORMAT " %u %lf %lf",
			   &lat, &min, &wake, &seed, &rep, &value, &wall) != 7)
			continue;
		if (lat == (guint64)json_number_at(j, "best.knobs.latency_ns") &&
		    min == (guint64)json_number_at(j, "best.knobs.min_granularity_ns") &&
		    wake == (guint64)json_number_at(j, "best.knobs.wakeup_granularity_ns")) {
			assert_true(rep < 3 &&
				    seed == 7 + rep); /* replicate r runs with seed S + r */
			v[rep] = value;
			found++;
		}
	}
	assert_int_equal(found, 3);
	double mean = gsl_stats_mean(v, 1, 3);

	assert_true(fabs(json_number_at(j, "best.value") - mean) <= 1e-12 * mean);
	assert_true(fabs(json_number_at(j, "best.stderr") - gsl_stats_sd(v, 1, 3) / sqrt(3)) <=
		    1e-12 * mean);
	assert_true(json_number_at(j, "replicates") == 3);
	json_free(j);
	run_clear(&r);
}

static void test_journal_resumes(void **state)
{
	struct fixture *f = *state;
	g_autofree char *journal = path_in(f, "resume.journal");
	g_autofree char *d1 = path_in(f, "resume1"), *d2 = path_in(f, "resume2");
	struct run r1 = RUN("random", WORKLOAD, "--budget", "40", "--journal", journal, "--out", d1,
			    "--format", "json");
	struct run r2 = RUN("random", WORKLOAD, "--budget", "40", "--journal", journal, "--out", d2,
			    "--format", "json");

	expect_clean_exit(&r1, "first run");
	expect_clean_exit(&r2, "rerun");
	struct json *j1 = json_parse(r1.out), *j2 = json_parse(r2.out);

	/* Everything came from the journal the second time, and the result is the same. */
	assert_true(json_number_at(j2, "evaluations_run") == 0);
	assert_true(json_number_at(j2, "evaluations_from_journal") ==
		    json_number_at(j1, "evaluations_run") +
			    json_number_at(j1, "evaluations_from_journal"));
	assert_true(json_number_at(j1, "best.value") == json_number_at(j2, "best.value"));
	g_autofree char *p1 = g_build_filename(d1, "history.csv", NULL),
			*p2 = g_build_filename(d2, "history.csv", NULL);
	g_autofree char *h1 = read_text(p1), *h2 = read_text(p2);

	assert_string_equal(h1, h2);

	/* A larger budget is the same run made longer: only the new points are evaluated. */
	struct run r3 =
		RUN("random", WORKLOAD, "--budget", "50", "--journal", journal, "--format", "json");

	expect_clean_exit(&r3, "larger budget");
	struct json *j3 = json_parse(r3.out);

	assert_true(json_number_at(j3, "evaluations") == 50);
	assert_true(json_number_at(j3, "evaluations_run") <= 10 &&
		    json_number_at(j3, "evaluations_run") > 0);
	json_free(j1);
	json_free(j2);
	json_free(j3);
	run_clear(&r1);
	run_clear(&r2);
	run_clear(&r3);
}

static void test_journal_refusals(void **state)
{
	struct fixture *f = *state;
	g_autofree char *journal = path_in(f, "refuse.journal");
	struct run r = RUN("grid", WORKLOAD, "--points", "2", "--journal", journal);

	expect_clean_exit(&r, "grid --points 2");
	run_clear(&r);
	/* Another optimizer setting. */
	r = RUN("grid", WORKLOAD, "--points", "3", "--journal", journal);
	expect_refusal(&r, "--points 3 on a --points 2 journal", "--journal");
	assert_non_null(strstr(r.err, "points=2"));
	run_clear(&r);
	/* Another workload. */
	r = RUN("grid", "--groups", "4", "--loops", "1", "--threads", "--cpus", "2", "--points",
		"2", "--journal", journal);
	expect_refusal(&r, "--groups 4 on a --groups 5 journal", "different setting");
	run_clear(&r);
	/* Another simulator's code (its model id): the values are another model's. */
	g_autofree char *saved = read_text(journal);
	g_autofree char *settings = journal_settings(journal);
	g_autofree char *model =
		g_strdup_printf(" objective=sim sim_model=%s ", linsched_model_id());

	assert_non_null(strstr(settings, model));
	g_autofree char *other_model = journal_change_token(journal, "sim_model");
	r = RUN("grid", WORKLOAD, "--points", "2", "--journal", journal);
	expect_refusal(&r, "a journal of another model id", other_model);
	run_clear(&r);
	assert_true(g_file_set_contents(journal, saved, -1, NULL));

	/* A line that cannot be parsed is named. */
	g_autofree char *text = read_text(journal);
	g_autofree char *broken = g_strconcat(text, "1 2 three\n",
					      "40000000 8000000 10000000 2 0 3.1 0.001 0\n", NULL);

	assert_true(g_file_set_contents(journal, broken, -1, NULL));
	r = RUN("grid", WORKLOAD, "--points", "2", "--journal", journal);

	guint lines = 0;

	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	g_autofree char *line = g_strdup_printf("line %u:", lines + 1);

	expect_refusal(&r, "a broken journal line", "--journal");
	assert_non_null(strstr(r.err, line));
	run_clear(&r);

	/* The reproducer: a record's value edited to -1 (its check kept) no longer changes
	 * the result; the line is named. Line 3 is the first record. */
	g_auto(GStrv) lines_of = g_strsplit(text, "\n", -1);
	g_auto(GStrv) field = g_strsplit(lines_of[2], " ", -1);
	g_free(field[5]);
	field[5] = g_strdup("-1");
	g_free(lines_of[2]);
	lines_of[2] = g_strjoinv(" ", field);
	g_autofree char *edited = g_strjoinv("\n", lines_of);
	assert_true(g_file_set_contents(journal, edited, -1, NULL));
	r = RUN("grid", WORKLOAD, "--points", "2", "--journal", journal);
	expect_refusal(&r, "an edited journal value", "--journal");
	assert_non_null(strstr(r.err, "line 3:"));
	run_clear(&r);
}

/* ---- the live objective ----------------------------------------------------------------------- */

/*
 * A knob tree (pre-5.13 sysctl layout) and a benchmark script: it logs the knobs it sees, counts
 * its runs, kill -9s its parent (the tuner) at run KILL_AT if that file exists, and prints
 * "Time: S" with S = |ln(latency / 5 ms)| / 100 + 0.01 + min_granularity / 1e12 seconds.
 */
static char *make_live_tree(const struct fixture *f, const char *name)
{
	char *root = path_in(f, name);
	g_autofree char *kdir = g_build_filename(root, "proc", "sys", "kernel", NULL);
	const char *const files[] = { "sched_latency_ns", "sched_min_granularity_ns",
				      "sched_wakeup_granularity_ns" };
	const char *const values[] = { "24000000\n", "3000000\n", "4000000\n" };

	assert_int_equal(g_mkdir_with_parents(kdir, 0755), 0);
	for (int i = 0; i < 3; i++) {
		g_autofree char *p = g_build_filename(kdir, files[i], NULL);

		assert_true(g_file_set_contents(p, values[i], -1, NULL));
	}
	g_autofree char *script = g_build_filename(root, "bench.sh", NULL);
	g_autofree char *body = g_strdup_printf(
		"#!/bin/sh\n"
		"k='%s'; d='%s'\n"
		"l=$(cat \"$k/sched_latency_ns\"); m=$(cat \"$k/sched_min_granularity_ns\"); w=$(cat \"$k/sched_wakeup_granularity_ns\")\n"
		"echo \"$l $m $w\" >> \"$d/log\"\n"
		"n=$(( $(cat \"$d/count\" 2>/dev/null || echo 0) + 1 )); echo $n > \"$d/count\"\n"
		"if [ -f \"$d/kill_at\" ] && [ \"$(cat \"$d/kill_at\")\" = \"$n\" ]; then kill -9 $PPID; exit 1; fi\n"
		"awk -v l=\"$l\" -v m=\"$m\" 'BEGIN { x = log(l / 5000000); if (x < 0) x = -x; "
		"printf \"Time: %%.9f\\n\", x / 100 + 0.01 + m / 1e12 }'\n",
		kdir, root);

	assert_true(g_file_set_contents(script, body, -1, NULL));
	assert_int_equal(g_chmod(script, 0755), 0);
	return root;
}

static void expect_knob_file(const char *root, const char *name, const char *value)
{
	g_autofree char *p = g_build_filename(root, "proc", "sys", "kernel", name, NULL);
	g_autofree char *text = read_text(p);

	g_strstrip(text);
	assert_string_equal(text, value);
}

static void test_live_objective_restores_the_knobs(void **state)
{
	struct fixture *f = *state;
	g_autofree char *root = make_live_tree(f, "live");
	g_autofree char *script = g_build_filename(root, "bench.sh", NULL);
	g_autofree char *out = g_build_filename(root, "out", NULL);
	struct run r = RUN("golden", "--knob", "latency", "--objective", "cmd", "--cmd", script,
			   "--knob-root", root, WORKLOAD, "--out", out, "--format", "json");

	expect_exit_0(&r, "live golden");
	/* One line on stderr: the knobs it will restore. */
	assert_non_null(strstr(
		r.err,
		"latency_ns=24000000 min_granularity_ns=3000000 wakeup_granularity_ns=4000000"));
	assert_true(strchr(r.err, '\n') && !strchr(r.err, '\n')[1]);
	expect_knob_file(root, "sched_latency_ns", "24000000");
	expect_knob_file(root, "sched_min_granularity_ns", "3000000");
	expect_knob_file(root, "sched_wakeup_granularity_ns", "4000000");

	/* The script saw the default knobs first, then every evaluated point, in order. */
	struct json *j = json_parse(r.out);
	g_autofree char *log_path = g_build_filename(root, "log", NULL);
	g_autofree char *seen = read_text(log_path);
	g_auto(GStrv) lines = g_strsplit(seen, "\n", -1);
	g_autofree char *hist_path = g_build_filename(out, "history.csv", NULL);
	struct csv c = csv_read(hist_path);

	assert_string_equal(lines[0], "40000000 8000000 10000000");
	assert_int_equal(g_strv_length(lines),
			 c.rows->len + 2); /* + the defaults, + the final "" */
	for (guint i = 0; i < c.rows->len; i++) {
		g_autofree char *want =
			g_strdup_printf("%.0f 8000000 10000000", csv_num(&c, i, "latency_ns"));

		assert_string_equal(lines[i + 1], want);
	}
	/* The benchmark's minimum is at latency 5 ms, 10 ms + 8e6 / 1e12 s = 10.008 ms. */
	assert_string_equal(json_string_at(j, "unit"), "ms");
	assert_true(fabs(json_number_at(j, "best.knobs.latency_ns") / 5e6 - 1) < 0.05);
	assert_true(json_number_at(j, "best.value") < 10.008 + 0.5);
	assert_true(fabs(json_number_at(j, "default.value") -
			 (log(8) / 100 + 0.01 + 8e6 / 1e12) * 1000) < 1e-5);
	csv_free(&c);
	json_free(j);
	run_clear(&r);

	/* A benchmark that fails: exit 1, the failure named, the knobs back as they were. */
	r = RUN("golden", "--knob", "latency", "--objective", "cmd", "--cmd", "false",
		"--knob-root", root, WORKLOAD);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "command 'false' failed"));
	expect_knob_file(root, "sched_latency_ns", "24000000");
	expect_knob_file(root, "sched_min_granularity_ns", "3000000");
	expect_knob_file(root, "sched_wakeup_granularity_ns", "4000000");
	run_clear(&r);

	/* A kernel without the knobs (EEVDF, or no debugfs): a clear refusal before any evaluation. */
	r = RUN("golden", "--knob", "latency", "--objective", "cmd", "--cmd", script, "--knob-root",
		out, WORKLOAD);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "knobs"));
	assert_string_equal(r.out, "");
	run_clear(&r);
}

/*
 * Issue 14: under the eevdf profile the live objective writes debugfs base_slice_ns (and
 * migration_cost_ns when asked) and nothing else, then puts them back. The script logs what it saw:
 * the defaults on 2 CPUs first (base_slice 0.70 ms x 2, migration_cost 0.5 ms), then each point.
 */
static void test_live_objective_base_slice(void **state)
{
	struct fixture *f = *state;
	g_autofree char *root = path_in(f, "live-eevdf");
	g_autofree char *dir = g_build_filename(root, "sys", "kernel", "debug", "sched", NULL);
	g_autofree char *slice = g_build_filename(dir, "base_slice_ns", NULL);
	g_autofree char *cost = g_build_filename(dir, "migration_cost_ns", NULL);
	g_autofree char *script = g_build_filename(root, "bench.sh", NULL);
	g_autofree char *body = g_strdup_printf("#!/bin/sh\n"
						"echo \"$(cat '%s') $(cat '%s')\" >> '%s/log'\n"
						"echo 'Time: 0.5'\n",
						slice, cost, root);

	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(slice, "3000000\n", -1, NULL));
	assert_true(g_file_set_contents(cost, "500000\n", -1, NULL));
	assert_true(g_file_set_contents(script, body, -1, NULL));
	assert_int_equal(g_chmod(script, 0755), 0);

	struct run r = RUN("random", "--profile", "eevdf", "--knobs", "base_slice,migration_cost",
			   "--budget", "3", "--objective", "cmd", "--cmd", script, "--knob-root",
			   root, "--groups", "1", "--cpus", "2", "--format", "json");
	expect_exit_0(&r, "live random --profile eevdf");
	assert_non_null(strstr(r.err, "migration_cost_ns=500000 base_slice_ns=3000000"));
	g_autofree char *now_slice = read_text(slice);
	assert_string_equal(now_slice, "3000000\n");
	g_autofree char *now_cost = read_text(cost);
	assert_string_equal(now_cost, "500000\n");

	g_autofree char *log_path = g_build_filename(root, "log", NULL);
	g_autofree char *seen = read_text(log_path);
	g_auto(GStrv) lines = g_strsplit(seen, "\n", -1);
	assert_int_equal(g_strv_length(lines), 3 + 2);
	assert_string_equal(lines[0], "1400000 500000");
	struct json *j = json_parse(r.out);
	assert_true(json_number_at(j, "default.knobs.base_slice_ns") == 1400000);
	json_free(j);
	run_clear(&r);
}

/* Evaluations the live run makes: the defaults and a 3 x 3 x 3 grid. */
#define LIVE_GRID \
	"grid", "--points", "3", "--objective", "cmd", WORKLOAD, "--format", "json", "--no-sync"

static int count_runs(const char *root)
{
	g_autofree char *p = g_build_filename(root, "count", NULL);
	g_autofree char *text = read_text(p);

	return atoi(text);
}

/* kill -9 at an evaluation drawn at random: the rerun finishes the work, repeats none of it, and
 * ends exactly as an uninterrupted run. */
static void test_kill9_and_resume(void **state)
{
	struct fixture *f = *state;
	g_autofree char *clean_root = make_live_tree(f, "clean"),
			*root = make_live_tree(f, "killed");
	g_autofree char *clean_script = g_build_filename(clean_root, "bench.sh", NULL);
	g_autofree char *script = g_build_filename(root, "bench.sh", NULL);
	g_autofree char *clean_journal = g_build_filename(clean_root, "journal", NULL);
	g_autofree char *journal = g_build_filename(root, "journal", NULL);
	g_autofree char *kill_at = g_build_filename(root, "kill_at", NULL);

	struct run clean = RUN(LIVE_GRID, "--cmd", clean_script, "--knob-root", clean_root,
			       "--journal", clean_journal);

	expect_exit_0(&clean, "uninterrupted live grid");
	/* Real measurements: the simulator's code changes none, so its model id is no setting. */
	g_autofree char *settings = journal_settings(clean_journal);

	assert_non_null(strstr(settings, " objective=cmd "));
	assert_null(strstr(settings, "sim_model="));
	int total = count_runs(clean_root);

	assert_int_equal(total, 28);

	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, 1789);
	int k = 2 + (int)gsl_rng_uniform_int(rng, (unsigned long)total -
							  1); /* 2..28: after the defaults */

	gsl_rng_free(rng);
	g_autofree char *k_text = g_strdup_printf("%d\n", k);

	assert_true(g_file_set_contents(kill_at, k_text, -1, NULL));
	struct run killed =
		RUN(LIVE_GRID, "--cmd", script, "--knob-root", root, "--journal", journal);

	assert_int_equal(killed.signal, SIGKILL);
	assert_int_equal(count_runs(root), k);
	g_unlink(kill_at);
	/* SIGKILL left the knobs of run k applied: the next tuner would refuse them until restored. */
	struct run restored = run_program(
		TUNER, (const char *const[]){ "knobs", "--restore", "--knob-root", root, NULL },
		NULL);
	expect_exit_0(&restored, "tuner knobs --restore");
	expect_knob_file(root, "sched_latency_ns", "24000000");
	run_clear(&restored);

	struct run resumed =
		RUN(LIVE_GRID, "--cmd", script, "--knob-root", root, "--journal", journal);

	expect_exit_0(&resumed, "resumed live grid");
	/* Runs 1..k-1 were journaled; run k was in flight.  The rerun makes the other total - k + 1. */
	assert_int_equal(count_runs(root) - k, total - (k - 1));

	struct json *a = json_parse(clean.out), *b = json_parse(resumed.out);

	assert_true(json_number_at(a, "best.value") == json_number_at(b, "best.value"));
	assert_true(json_number_at(a, "default.value") == json_number_at(b, "default.value"));
	assert_true(json_number_at(a, "best.knobs.latency_ns") ==
		    json_number_at(b, "best.knobs.latency_ns"));
	assert_true(json_number_at(a, "evaluations") == json_number_at(b, "evaluations"));
	json_free(a);
	json_free(b);
	run_clear(&clean);
	run_clear(&killed);
	run_clear(&resumed);
}

/* ---- output ----------------------------------------------------------------------------------- */

static void test_apply_prints_the_commands(void **state)
{
	(void)state;
	struct run r = RUN("golden", "--rule", "2", WORKLOAD, "--apply");

	expect_clean_exit(&r, "golden --apply");
	assert_non_null(strstr(r.out, "sysctl -w kernel.sched_latency_ns="));
	assert_non_null(strstr(r.out, "echo 100000 > /sys/kernel/debug/sched/min_granularity_ns"));
	assert_non_null(strstr(r.out, "EEVDF"));
	run_clear(&r);

	r = RUN("golden", "--rule", "2", WORKLOAD, "--apply", "--format", "json");
	expect_clean_exit(&r, "golden --apply --format json");
	struct json *j = json_parse(r.out);
	const struct json *sysctl = json_at(j, "apply.sysctl"),
			  *debugfs = json_at(j, "apply.debugfs");

	assert_true(sysctl && sysctl->kind == J_ARRAY && sysctl->array->len == 3);
	assert_true(debugfs && debugfs->kind == J_ARRAY && debugfs->array->len == 3);
	g_autofree char *want = g_strdup_printf("sysctl -w kernel.sched_latency_ns=%.0f",
						json_number_at(j, "best.knobs.latency_ns"));

	assert_string_equal(((struct json *)sysctl->array->pdata[0])->string, want);
	json_free(j);
	run_clear(&r);
}

static void test_calibration_predicts_ms(void **state)
{
	struct fixture *f = *state;
	g_autofree char *dir = path_in(f, "calibration");
	Calibration *cal = calibration_new(CALIBRATION_MODEL_FSM, "test", 1, REALBENCH_THREADS);
	const double r1[] = { 10.5, 11.5 }, r2[] = { 20.0, 21.0 }, r3[] = { 29.0, 31.0 };

	calibration_add_point(cal, 1, 2, r1, 2);
	calibration_add_point(cal, 2, 4, r2, 2);
	calibration_add_point(cal, 3, 6, r3, 2);
	assert_true(calibration_fit(cal, NULL));
	assert_true(calibration_write(cal, dir, NULL));
	calibration_free(cal);

	/* Read a and b back independently of the tuner. */
	g_autofree char *ini = g_build_filename(dir, "calibration.ini", NULL);
	GKeyFile *kf = g_key_file_new();

	assert_true(g_key_file_load_from_file(kf, ini, G_KEY_FILE_NONE, NULL));
	double a = g_key_file_get_double(kf, "fit", "a", NULL),
	       b = g_key_file_get_double(kf, "fit", "b", NULL);

	g_key_file_free(kf);
	g_autofree char *out = path_in(f, "calibrated");
	struct run r =
		RUN("golden", WORKLOAD, "--calibration", ini, "--out", out, "--format", "json");

	expect_clean_exit(&r, "golden --calibration");
	struct json *j = json_parse(r.out);

	assert_true(fabs(json_number_at(j, "best.predicted_ms") -
			 (a + b * json_number_at(j, "best.value"))) < 1e-9);
	assert_true(fabs(json_number_at(j, "default.predicted_ms") -
			 (a + b * json_number_at(j, "default.value"))) < 1e-9);
	g_autofree char *hist = g_build_filename(out, "history.csv", NULL);
	struct csv c = csv_read(hist);

	assert_true(fabs(csv_num(&c, 0, "predicted_ms") - (a + b * csv_num(&c, 0, "value"))) <
		    1e-9);
	csv_free(&c);
	json_free(j);
	run_clear(&r);

	r = RUN("pso", WORKLOAD, "--calibration", ini, "--objective", "cmd", "--cmd", "true");
	expect_refusal(&r, "--calibration with --objective cmd", "--calibration");
	run_clear(&r);
}

/* On a terminal, stderr carries the progress line; elsewhere (every other test) it stays empty. */
static void test_progress_on_a_terminal(void **state)
{
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);

	(void)state;
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(TUNER, TUNER, "pso", "--groups", "5", "--loops", "1", "--threads", "--cpus",
		      "2", "--jobs", "1", (char *)NULL);
		_exit(127);
	}
	GString *seen = g_string_new(NULL);
	char buf[4096];
	ssize_t n;

	while ((n = read(master, buf, sizeof(buf))) > 0)
		g_string_append_len(seen, buf, n);
	close(master);

	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_non_null(strstr(seen->str, "\r\033[K[0/600] pso"));
	assert_non_null(strstr(seen->str, "best so far"));
	assert_non_null(strstr(seen->str, "improvement over the defaults"));
	g_string_free(seen, TRUE);
}

/* ---- bad input -------------------------------------------------------------------------------- */

static void test_bad_input(void **state)
{
	static const struct {
		const char *args[8];
		const char *names;
	} cases[] = {
		{ { "pso", "--budget", "0" }, "--budget" },
		{ { "random", "--budget", "0" }, "--budget" },
		{ { "pso", "--range", "latency=1:5000" }, "--range" },
		{ { "grid", "--range", "min_granularity=100000:2000000000" }, "--range" },
		{ { "pso", "--range", "latency=5000000:1000000" }, "lo < hi" },
		{ { "pso", "--range", "wakeup_granularity=7:7" }, "lo < hi" },
		{ { "pso", "--fix", "latency=50" }, "--fix" },
		{ { "golden", "--rule", "3" }, "--rule" },
		{ { "golden", "--knob", "period" }, "--knob" },
		{ { "golden", "--bracket", "9:1" }, "--bracket" },
		{ { "golden", "--tolerance", "0" }, "--tolerance" },
		{ { "grid", "--points", "0" }, "--points" },
		{ { "pso", "--particles", "0" }, "--particles" },
		{ { "pso", "--points", "3" }, "--points" },
		{ { "pso", "--jobs", "0" }, "--jobs" },
		{ { "pso", "--replicates", "0" }, "--replicates" },
		{ { "pso", "--scale", "cubic" }, "--scale" },
		{ { "pso", "--objective", "real" }, "--objective" },
		{ { "pso", "--latency-ns", "5000000" }, "--latency-ns" },
		{ { "pso", "--format", "xml" }, "--format" },
		{ { "pso", "--groups", "0" }, "--groups" },
		{ { "pso", "--preset", "stable" }, "--preset" },
		{ { "pso", "--omega", "fast" }, "--omega" },
		{ { "pso", "--phi-g", "inf" }, "--phi-g" },
		{ { "bayes", "--batch", "0" }, "--batch" },
		{ { "bayes", "--batch-rule", "optimist" }, "--batch-rule" },
		{ { "bayes", "--initial", "-1" }, "--initial" },
		{ { "ga", "--elite", "20" }, "--elite" },
		{ { "ga", "--population", "1" }, "--population" },
		{ { "ga", "--crossover", "1.5" }, "--crossover" },
		{ { "ga", "--tournament", "0" }, "--tournament" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct run r = run_program(TUNER, cases[i].args, NULL);
		g_autofree char *what = g_strjoinv(" ", (char **)cases[i].args);

		expect_refusal(&r, what, cases[i].names);
		run_clear(&r);
	}

	/* An unknown optimizer is an unknown command: exit 2, named on the first line. */
	struct run r = RUN("anneal", WORKLOAD);

	assert_int_equal(r.status, 2);
	assert_true(g_str_has_prefix(r.err, "tuner: unknown command 'anneal'"));
	assert_string_equal(r.out, "");
	run_clear(&r);
}

/*
 * Issue 16, defects 3, 4, 6 and 7. -1 (or 0) stood for "not given", so --jobs -1 and --budget -1
 * ran with the defaults; nan passed the range checks; --out '' and --journal '' exited 1 with
 * "cannot create : Invalid argument"; flags that contradict each other were taken. Every number
 * flag of the optimizers, at -1 and at nan: refused with one line naming it.
 */
static void test_flags_refused(void **state)
{
	/* Every number flag of the optimizers, and values it must refuse: integers and reals. */
	static const struct {
		const char *cmd, *flag;
		bool real;
	} numbers[] = {
		{ "pso", "--replicates", false },
		{ "pso", "--budget", false },
		{ "pso", "--jobs", false },
		{ "pso", "--rounds", false },
		{ "pso", "--vm-cpus", false },
		{ "pso", "--vm-mem", false },
		{ "pso", "--vm-timeout", false },
		{ "pso", "--particles", false },
		{ "pso", "--iterations", false },
		{ "pso", "--duration-ms", false },
		{ "bayes", "--initial", false },
		{ "bayes", "--batch", false },
		{ "bayes", "--restarts", false },
		{ "ga", "--population", false },
		{ "ga", "--generations", false },
		{ "ga", "--elite", false },
		{ "ga", "--tournament", false },
		{ "golden", "--rule", false },
		{ "golden", "--max-iterations", false },
		{ "grid", "--points", false },
		{ "ga", "--crossover", true },
		{ "ga", "--mutation", true },
		{ "ga", "--eta-c", true },
		{ "ga", "--eta-m", true },
		{ "golden", "--tolerance", true },
		{ "pso", "--cost-jitter", true },
		{ "pso", "--phi-p", true },
		{ "pso", "--phi-g", true },
	};
	static const char *const bad_int[] = { "-1", "nan", "1e3", "" };
	static const char *const bad_real[] = { "-1", "nan", "inf", "-inf" };
	static const struct {
		const char *args[10];
		const char *names;
	} cases[] = {
		/* "not given" is no longer a value: 0 initial points, a mutation probability of 0 */
		{ { "bayes", "--initial", "0" }, "--initial" },
		{ { "ga", "--mutation", "0" }, "--mutation" },
		/* PSO's coefficients were strings checked only for finiteness */
		{ { "pso", "--omega", "-5" }, "--omega: must be in [-1, 1], got -5" },
		{ { "pso", "--phi-p", "1e300" }, "--phi-p: must be in [0, 8], got 1e300" },
		/* defect 6 */
		{ { "pso", "--out", "" }, "--out: an empty file name" },
		{ { "pso", "--journal", "" }, "--journal: an empty file name" },
		{ { "pso", "--out", "/proc/version" }, "--out: cannot create /proc/version" },
		/* defect 7, and other flags that contradict each other */
		{ { "pso", "--log", "latency", "--linear", "latency" },
		  "--log, --linear: latency" },
		{ { "golden", "--knob", "latency", "--rule", "1" }, "--rule" },
		{ { "pso", "--range", "latency=1e6:2e6", "--range", "latency=1e6:3e6" },
		  "--range: latency is given twice" },
		{ { "pso", "--fix", "latency=1e6", "--fix", "latency=2e6" },
		  "--fix: latency is given twice" },
		{ { "pso", "--fix", "latency=1e6", "--log", "latency" },
		  "--log: latency is held fixed" },
		{ { "golden", "--knob", "latency", "--linear", "wakeup_granularity" },
		  "--linear: wakeup_granularity is held fixed" },
		{ { "pso", "--rounds", "5" }, "--rounds: only with --objective vm" },
		{ { "pso", "--vm-mem", "1024" }, "--vm-mem: only with --objective vm" },
		{ { "pso", "--objective", "vm", "--jobs", "2" },
		  "--jobs: not with --objective vm" },
		{ { "pso", "--objective", "vm", "--replicates", "1" }, "--replicates" },
		{ { "pso", "--task", "sleeprun:loops=3", "--groups", "5" }, "--groups" },
		{ { "pso", "--task", "sleeprun:loops=3", "--pipe" }, "--pipe" },
		{ { "pso", "--duration-ms", "1000" }, "--duration-ms" },
		{ { "pso", "--solo-ms", "100" }, "--solo-ms" },
		{ { "pso", "--jobs", "2", "--jobs", "3" }, "--jobs: given twice" },
		{ { "pso", "--no-sync" }, "--no-sync: there is no --journal" },
		{ { "bayes", "--batch-rule", "liar" }, "--batch-rule: fills a batch" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(numbers); i++) {
		const char *const *bad = numbers[i].real ? bad_real : bad_int;

		for (size_t j = 0; j < G_N_ELEMENTS(bad_int); j++) {
			struct run r = RUN(numbers[i].cmd, numbers[i].flag, bad[j]);
			g_autofree char *what = g_strdup_printf("%s %s '%s'", numbers[i].cmd,
								numbers[i].flag, bad[j]);

			expect_refusal(&r, what, numbers[i].flag);
			run_clear(&r);
		}
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct run r = run_program(TUNER, cases[i].args, NULL);
		g_autofree char *what = g_strjoinv(" ", (char **)cases[i].args);

		expect_refusal(&r, what, cases[i].names);
		run_clear(&r);
	}
}

/* Given at its default value, a flag is still given: --jobs 1 with the live objective's default
 * of 1, --budget at the optimizer's own; and the result is the default's. */
static void test_flags_at_their_defaults(void **state)
{
	struct run a = RUN("random", WORKLOAD, "--budget", "5", "--format", "json");
	struct run b = RUN("random", WORKLOAD, "--budget", "5", "--format", "json", "--seed", "1",
			   "--jobs", "1", "--replicates", "1");

	(void)state;
	expect_clean_exit(&a, "random --budget 5");
	expect_clean_exit(&b, "random --budget 5 --seed 1 --jobs 1 --replicates 1");

	struct json *ja = json_parse(a.out), *jb = json_parse(b.out);

	assert_true(json_number_at(ja, "best.value") == json_number_at(jb, "best.value"));
	assert_string_equal(json_string_at(ja, "settings"), json_string_at(jb, "settings"));
	json_free(ja);
	json_free(jb);
	run_clear(&a);
	run_clear(&b);
}

/*
 * Issue 15 item 4 and issue 14: --knobs says what a run searches. Four CFS knobs: history.csv and
 * result.json carry migration_cost_ns beside the three, every point inside its range. The eevdf
 * profile searches base_slice by default, its default on 2 CPUs 0.70 ms x 2 = 1.4 ms; the
 * --apply commands write debugfs only (a kernel with base_slice has no sched sysctls).
 */
static void test_knob_sets(void **state)
{
	struct fixture *f = *state;
	g_autofree char *four = path_in(f, "four-knobs");
	struct run r =
		RUN("pso", "--knobs", "latency,min_granularity,wakeup_granularity,migration_cost",
		    "--groups", "2", "--loops", "1", "--threads", "--cpus", "2", "--particles", "4",
		    "--iterations", "2", "--out", four, "--format", "json");
	expect_clean_exit(&r, "pso --knobs 4");

	g_autofree char *path = g_build_filename(four, "history.csv", NULL);
	struct csv c = csv_read(path);
	const char *const header[] = { "evaluation",
				       "iteration",
				       "latency_ns",
				       "min_granularity_ns",
				       "wakeup_granularity_ns",
				       "migration_cost_ns",
				       "value",
				       "std_error",
				       "best",
				       NULL };
	assert_true(g_strv_equal((const char *const *)c.header, header));
	assert_int_equal(c.rows->len, 8);
	for (guint i = 0; i < c.rows->len; i++) {
		double m = csv_num(&c, i, "migration_cost_ns");
		assert_true(m >= 0 && m <= 1e9 && m == floor(m));
	}
	csv_free(&c);

	struct json *j = json_parse(r.out);
	assert_true(json_number_at(j, "default.knobs.migration_cost_ns") == 500000);
	assert_true(json_number_at(j, "default.knobs.latency_ns") == 40000000);
	assert_non_null(json_at(j, "best.knobs.migration_cost_ns"));
	assert_null(json_at(j, "best.knobs.base_slice_ns"));
	assert_non_null(strstr(json_string_at(j, "space"), "migration_cost=0:1000000000:log"));
	json_free(j);
	run_clear(&r);

	g_autofree char *eevdf = path_in(f, "eevdf");
	r = RUN("random", "--profile", "eevdf", "--groups", "2", "--loops", "1", "--threads",
		"--cpus", "2", "--budget", "6", "--out", eevdf, "--format", "json", "--apply");
	expect_clean_exit(&r, "random --profile eevdf");
	g_autofree char *epath = g_build_filename(eevdf, "history.csv", NULL);
	c = csv_read(epath);
	const char *const eheader[] = { "evaluation", "iteration", "base_slice_ns",
					"value",      "std_error", "best",
					NULL };
	assert_true(g_strv_equal((const char *const *)c.header, eheader));
	csv_free(&c);
	j = json_parse(r.out);
	assert_true(json_number_at(j, "default.knobs.base_slice_ns") == 1400000);
	assert_null(json_at(j, "default.knobs.latency_ns"));
	assert_int_equal(json_at(j, "apply.sysctl")->array->len, 0);
	json_free(j);
	run_clear(&r);
}

/* A knob the profile lacks, a flag on a knob outside the set, a workload flag on a searched knob,
 * golden on SchedPeriod with another set, the VM's fixed three: bad input naming the flag. */
static void test_knob_sets_refused(void **state)
{
	static const struct {
		const char *args[12];
		const char *names;
	} cases[] = {
		{ { "pso", "--profile", "eevdf", "--knobs", "latency" },
		  "--knobs: the eevdf profile" },
		{ { "pso", "--knobs", "base_slice" }, "--knobs: the 2.6.28 profile" },
		{ { "pso", "--knobs", "latency,migration" }, "--knobs: 'migration' is not" },
		{ { "pso", "--profile", "eevdf", "--fix", "latency=6000000" }, "--fix" },
		{ { "pso", "--range", "migration_cost=0:1000" }, "--range: migration_cost is not" },
		{ { "pso", "--log", "base_slice" }, "--log" },
		{ { "pso", "--knobs", "migration_cost", "--migration-cost-ns", "1000" },
		  "--migration-cost-ns" },
		{ { "pso", "--profile", "eevdf", "--base-slice-ns", "1000000" },
		  "--base-slice-ns" },
		{ { "golden", "--knobs", "latency,migration_cost" }, "--knobs" },
		{ { "golden", "--profile", "eevdf" }, "--profile" },
		{ { "pso", "--objective", "vm", "--knobs", "latency,migration_cost" }, "--knobs" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct run r = run_program(TUNER, cases[i].args, NULL);
		g_autofree char *what = g_strjoinv(" ", (char **)cases[i].args);

		expect_refusal(&r, what, cases[i].names);
		run_clear(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob_sets),
		cmocka_unit_test(test_knob_sets_refused),
		cmocka_unit_test(test_live_objective_base_slice),
		cmocka_unit_test(test_every_optimizer_beats_the_defaults),
		cmocka_unit_test(test_pso_no_worse_than_the_log_grid),
		cmocka_unit_test(test_golden_converges_in_12),
		cmocka_unit_test(test_bayes_reports_the_model),
		cmocka_unit_test(test_ga_generations),
		cmocka_unit_test(test_pso_presets),
		cmocka_unit_test(test_history_and_result),
		cmocka_unit_test(test_jobs_give_the_same_result),
		cmocka_unit_test(test_replicates_from_the_journal),
		cmocka_unit_test(test_journal_resumes),
		cmocka_unit_test(test_journal_refusals),
		cmocka_unit_test(test_live_objective_restores_the_knobs),
		cmocka_unit_test(test_kill9_and_resume),
		cmocka_unit_test(test_apply_prints_the_commands),
		cmocka_unit_test(test_calibration_predicts_ms),
		cmocka_unit_test(test_progress_on_a_terminal),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_flags_refused),
		cmocka_unit_test(test_flags_at_their_defaults),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
