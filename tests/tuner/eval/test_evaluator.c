/*
 * test_evaluator.c -- batches of evaluations: statistics, determinism across job counts, journal
 * resume after a kill at a random evaluation, errors, progress.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "tests/support/support.h"
#include "tuner/eval/evaluator.h"

#define SETTINGS   "objective=synthetic test=evaluator"
#define N_POINTS   12
#define REPLICATES 3

/* The synthetic objective's context.  In the crash test it lives in shared memory, so that the
 * parent can read how many calls the killed child started. */
typedef struct {
	gint calls;		/* objective calls started */
	gint kill_at;		/* 0, or the call that kills the process */
	gboolean kill_by_exit;	/* kill with _exit rather than SIGKILL */
	guint64 fail_latency;	/* 0, or a latency whose evaluation fails */
	gboolean fail_silently; /* fail without setting an error */
} Synthetic;

/*
 * A smooth bowl in log-knob space plus seeded Gaussian noise: deterministic in (knobs, seed) and
 * thread-safe (its own generator per call).  It sleeps up to 1.5 ms, a different time per call, so
 * that parallel evaluations finish in an order unlike the order they were submitted in.
 */
static gboolean synthetic(const Knobs *k, guint64 seed, double *value, void *ctx, GError **error)
{
	Synthetic *s = ctx;
	gint call = g_atomic_int_add(&s->calls, 1) + 1;
	if (s->kill_at != 0 && call == s->kill_at) {
		if (s->kill_by_exit)
			_exit(3);
		raise(SIGKILL);
	}
	if (k->latency_ns == s->fail_latency) {
		if (!s->fail_silently)
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "synthetic failure");
		return FALSE;
	}
	g_usleep(200 + (k->latency_ns ^ (seed * 2654435761U)) % 1300);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)seed);
	double x = log10((double)k->latency_ns) - 7.0;
	double y = log10((double)k->min_granularity_ns) - 6.0;
	double z = log10(1.0 + (double)k->wakeup_granularity_ns) - 6.0;
	*value = 100.0 + 3 * x * x + 2 * y * y + z * z + x * y + gsl_ran_gaussian(rng, 0.5);
	gsl_rng_free(rng);
	return TRUE;
}

/* Returns the seed itself: makes the statistics computable by hand. */
static gboolean seed_as_value(const Knobs *k, guint64 seed, double *value, void *ctx,
			      GError **error)
{
	(void)k, (void)ctx, (void)error;
	*value = (double)seed;
	return TRUE;
}

/* N_POINTS knob settings drawn uniformly from the sysctl ranges with a fixed seed. */
static void random_points(Knobs *points, guint n)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 20240611);
	for (guint i = 0; i < n; i++) {
		points[i] = (Knobs)KNOBS_CFS(100000 + gsl_rng_uniform_int(rng, 999900000),
					     100000 + gsl_rng_uniform_int(rng, 999900000),
					     gsl_rng_uniform_int(rng, 1000000000));
	}
	gsl_rng_free(rng);
}

static EvaluatorConfig config_for(Synthetic *s, guint jobs, Journal *journal)
{
	return (EvaluatorConfig){ .objective = synthetic,
				  .objective_ctx = s,
				  .replicates = REPLICATES,
				  .base_seed = 1000,
				  .jobs = jobs,
				  .journal = journal };
}

static void run_ok(const EvaluatorConfig *config, const Knobs *points, guint n,
		   EvaluatorResult *results, double *values, EvaluatorStats *stats)
{
	g_autoptr(GError) error = NULL;
	if (!evaluator_run(config, points, n, results, values, stats, &error))
		fail_msg("evaluator_run: %s", error->message);
}

/* The reference: the batch evaluated inline with no journal. */
static void reference_run(const Knobs *points, EvaluatorResult *results, double *values)
{
	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 1, NULL);
	run_ok(&config, points, N_POINTS, results, values, NULL);
	assert_int_equal(s.calls, N_POINTS * REPLICATES);
}

typedef struct temp_file Fixture;

static int setup(void **state)
{
	*state = temp_file_new("test-evaluator-XXXXXX", "journal.txt");
	return 0;
}

static int teardown(void **state)
{
	temp_file_free(*state);
	return 0;
}

static Journal *open_journal(const char *path)
{
	g_autoptr(GError) error = NULL;
	Journal *journal = journal_open(path, SETTINGS, JOURNAL_NO_SYNC, &error);
	if (journal == NULL)
		fail_msg("journal_open: %s", error->message);
	return journal;
}

/* Seeds 10, 11, 12 as values: mean 11, sample sd 1, standard error 1/sqrt(3) = 0.5773502691896258;
 * with one replicate the standard error is 0 by definition. */
static void test_statistics_by_hand(void **state)
{
	(void)state;
	const Knobs points[2] = { KNOBS_CFS(1000000, 100000, 0), KNOBS_CFS(2000000, 100000, 0) };
	EvaluatorConfig config = {
		.objective = seed_as_value, .replicates = 3, .base_seed = 10, .jobs = 1
	};
	EvaluatorResult results[2];
	double values[6];
	run_ok(&config, points, 2, results, values, NULL);
	for (int i = 0; i < 2; i++) {
		assert_true(results[i].mean == 11.0);
		assert_true(fabs(results[i].std_error - 0.5773502691896258) < 1e-15);
		for (int r = 0; r < 3; r++)
			assert_true(values[3 * i + r] == 10.0 + r);
	}
	config.replicates = 1;
	run_ok(&config, points, 2, results, values, NULL);
	assert_true(results[0].mean == 10.0 && results[0].std_error == 0.0);
}

static void test_replicate_seed(void **state)
{
	(void)state;
	assert_true(evaluator_replicate_seed(1000, 0) == 1000);
	assert_true(evaluator_replicate_seed(1000, 2) == 1002);
	assert_true(evaluator_replicate_seed(G_MAXUINT64, 1) == 0); /* wraps modulo 2^64 */
	assert_true(evaluator_default_jobs() >= 1);
}

/* Two batches' costs add field by field: (3, 1, 2) + (4, 4, 0) = (7, 5, 2). */
static void test_stats_add(void **state)
{
	EvaluatorStats sum = { .total = 3, .from_journal = 1, .run = 2 };
	const EvaluatorStats batch = { .total = 4, .from_journal = 4, .run = 0 };

	(void)state;
	evaluator_stats_add(&sum, &batch);
	assert_int_equal(sum.total, 7);
	assert_int_equal(sum.from_journal, 5);
	assert_int_equal(sum.run, 2);
}

/* (a) 2 and 4 jobs (and the default) give the results of 1 job bit for bit, and journal the same
 * set of records. */
static void test_jobs_do_not_change_results(void **state)
{
	Fixture *f = *state;
	Knobs points[N_POINTS];
	random_points(points, N_POINTS);
	EvaluatorResult ref[N_POINTS];
	double ref_values[N_POINTS * REPLICATES];
	reference_run(points, ref, ref_values);

	const guint jobs[] = { 2, 4, 0 };
	for (gsize j = 0; j < G_N_ELEMENTS(jobs); j++) {
		g_unlink(f->path);
		Synthetic s = { 0 };
		EvaluatorResult res[N_POINTS];
		double values[N_POINTS * REPLICATES];
		EvaluatorStats stats;
		{
			g_autoptr(Journal) journal = open_journal(f->path);
			EvaluatorConfig config = config_for(&s, jobs[j], journal);
			run_ok(&config, points, N_POINTS, res, values, &stats);
		}
		assert_memory_equal(res, ref, sizeof ref);
		assert_memory_equal(values, ref_values, sizeof ref_values);
		assert_int_equal(stats.total, N_POINTS * REPLICATES);
		assert_int_equal(stats.run, N_POINTS * REPLICATES);
		assert_int_equal(stats.from_journal, 0);
		/* Every journaled value is the reference value of its key. */
		g_autoptr(Journal) journal = open_journal(f->path);
		assert_int_equal(journal_count(journal), N_POINTS * REPLICATES);
		for (guint i = 0; i < N_POINTS; i++) {
			for (guint r = 0; r < REPLICATES; r++) {
				JournalRecord rec;
				assert_true(journal_lookup(journal, &points[i], 1000 + r, r, &rec));
				assert_memory_equal(&rec.value, &ref_values[i * REPLICATES + r],
						    sizeof(double));
			}
		}
	}
}

/* A point's result does not depend on where it sits in the batch: the batch reversed gives the
 * results reversed, and a point alone gives its result in the batch. */
static void test_position_does_not_matter(void **state)
{
	(void)state;
	Knobs points[N_POINTS], reversed[N_POINTS];
	random_points(points, N_POINTS);
	for (guint i = 0; i < N_POINTS; i++)
		reversed[i] = points[N_POINTS - 1 - i];
	EvaluatorResult ref[N_POINTS], res[N_POINTS], alone;
	double ref_values[N_POINTS * REPLICATES];
	reference_run(points, ref, ref_values);
	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 2, NULL);
	run_ok(&config, reversed, N_POINTS, res, NULL, NULL);
	for (guint i = 0; i < N_POINTS; i++)
		assert_memory_equal(&res[i], &ref[N_POINTS - 1 - i], sizeof res[i]);
	run_ok(&config, &points[7], 1, &alone, NULL, NULL);
	assert_memory_equal(&alone, &ref[7], sizeof alone);
}

/* A second run over the same journal evaluates nothing and returns the same results. */
static void test_journaled_batch_not_rerun(void **state)
{
	Fixture *f = *state;
	Knobs points[N_POINTS];
	random_points(points, N_POINTS);
	EvaluatorResult first[N_POINTS], second[N_POINTS];
	g_autoptr(Journal) journal = open_journal(f->path);
	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 2, journal);
	run_ok(&config, points, N_POINTS, first, NULL, NULL);
	s.calls = 0;
	EvaluatorStats stats;
	run_ok(&config, points, N_POINTS, second, NULL, &stats);
	assert_int_equal(s.calls, 0);
	assert_int_equal(stats.from_journal, N_POINTS * REPLICATES);
	assert_int_equal(stats.run, 0);
	assert_memory_equal(first, second, sizeof first);
}

/* A point repeated in a batch is evaluated once per replicate, and all copies get its result. */
static void test_duplicate_points_run_once(void **state)
{
	(void)state;
	Knobs p[N_POINTS];
	random_points(p, N_POINTS);
	const Knobs points[5] = { p[0], p[1], p[0], p[0], p[1] };
	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 2, NULL);
	EvaluatorResult res[5];
	EvaluatorStats stats;
	run_ok(&config, points, 5, res, NULL, &stats);
	assert_int_equal(s.calls, 2 * REPLICATES);
	assert_int_equal(stats.total, 2 * REPLICATES);
	assert_memory_equal(&res[2], &res[0], sizeof res[0]);
	assert_memory_equal(&res[3], &res[0], sizeof res[0]);
	assert_memory_equal(&res[4], &res[1], sizeof res[1]);
	assert_true(res[0].mean != res[1].mean);
}

/* (b) Kill the evaluating process at a random evaluation, resume, and compare. */
static void kill_and_resume(const Fixture *f, const Knobs *points, const EvaluatorResult *ref,
			    guint child_jobs, gint kill_at, gboolean by_exit)
{
	g_unlink(f->path);
	Synthetic *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(shared != MAP_FAILED);
	*shared = (Synthetic){ .kill_at = kill_at, .kill_by_exit = by_exit };

	pid_t pid = fork_single_threaded();
	assert_true(pid >= 0);
	if (pid == 0) {
		Journal *journal = journal_open(f->path, SETTINGS, JOURNAL_NO_SYNC, NULL);
		if (journal == NULL)
			_exit(10);
		EvaluatorConfig config = config_for(shared, child_jobs, journal);
		EvaluatorResult res[N_POINTS];
		evaluator_run(&config, points, N_POINTS, res, NULL, NULL, NULL);
		_exit(11); /* not reached: the objective kills the process */
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (by_exit)
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	else
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	const guint started = (guint)shared->calls;
	munmap(shared, sizeof *shared);

	/* No torn record: the file ends with a newline and every line parses. */
	g_autofree char *text = NULL;
	assert_true(g_file_get_contents(f->path, &text, NULL, NULL));
	assert_true(g_str_has_suffix(text, "\n"));
	g_autoptr(Journal) journal = open_journal(f->path);
	const guint kept = journal_count(journal);
	/* Lost at most the evaluations in flight: the killing one and those of the other jobs. */
	assert_true(started >= (guint)kill_at);
	assert_true(started - kept >= 1 && started - kept <= child_jobs);

	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 2, journal);
	EvaluatorResult res[N_POINTS];
	EvaluatorStats stats;
	run_ok(&config, points, N_POINTS, res, NULL, &stats);
	assert_int_equal(s.calls, N_POINTS * REPLICATES - kept);
	assert_int_equal(stats.from_journal, kept);
	assert_int_equal(stats.run, N_POINTS * REPLICATES - kept);
	assert_int_equal(journal_count(journal), N_POINTS * REPLICATES);
	assert_memory_equal(res, ref, N_POINTS * sizeof *ref);
}

static void test_resume_after_kill(void **state)
{
	Fixture *f = *state;
	Knobs points[N_POINTS];
	random_points(points, N_POINTS);
	EvaluatorResult ref[N_POINTS];
	double ref_values[N_POINTS * REPLICATES];
	reference_run(points, ref, ref_values);

	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	for (guint trial = 0; trial < 8; trial++) {
		gint kill_at = 1 + (gint)gsl_rng_uniform_int(rng, N_POINTS * REPLICATES);
		guint jobs = trial % 2 ? 2 : 1;
		gboolean by_exit = trial % 4 == 3;
		print_message("trial %u: kill at evaluation %d with %u job(s) by %s\n", trial,
			      kill_at, jobs, by_exit ? "_exit" : "SIGKILL");
		kill_and_resume(f, points, ref, jobs, kill_at, by_exit);
	}
	gsl_rng_free(rng);
}

/* The first failure stops the batch, names the evaluation, and keeps the finished ones. */
static void test_error_keeps_finished_work(void **state)
{
	Fixture *f = *state;
	Knobs points[N_POINTS];
	random_points(points, N_POINTS);
	EvaluatorResult ref[N_POINTS];
	double ref_values[N_POINTS * REPLICATES];
	reference_run(points, ref, ref_values);

	for (guint jobs = 1; jobs <= 2; jobs++) {
		g_unlink(f->path);
		g_autoptr(Journal) journal = open_journal(f->path);
		Synthetic s = { .fail_latency = points[5].latency_ns };
		EvaluatorConfig config = config_for(&s, jobs, journal);
		EvaluatorResult res[N_POINTS];
		EvaluatorStats stats;
		g_autoptr(GError) error = NULL;
		assert_false(evaluator_run(&config, points, N_POINTS, res, NULL, &stats, &error));
		g_autofree char *latency =
			g_strdup_printf("latency_ns=%" G_GUINT64_FORMAT, points[5].latency_ns);
		assert_non_null(strstr(error->message, latency));
		assert_non_null(strstr(error->message, "synthetic failure"));
		assert_int_equal(journal_count(journal), stats.run);
		if (jobs == 1) /* inline: exactly the 5 points before, all replicates */
			assert_int_equal(stats.run, 5 * REPLICATES);

		s.fail_latency = 0;
		s.calls = 0;
		guint kept = journal_count(journal);
		run_ok(&config, points, N_POINTS, res, NULL, &stats);
		assert_int_equal(s.calls, N_POINTS * REPLICATES - kept);
		assert_memory_equal(res, ref, sizeof ref);
	}
}

static void test_silent_failure_gets_a_message(void **state)
{
	(void)state;
	Knobs points[N_POINTS];
	random_points(points, N_POINTS);
	Synthetic s = { .fail_latency = points[0].latency_ns, .fail_silently = TRUE };
	EvaluatorConfig config = config_for(&s, 1, NULL);
	EvaluatorResult res[N_POINTS];
	g_autoptr(GError) error = NULL;
	assert_false(evaluator_run(&config, points, N_POINTS, res, NULL, NULL, &error));
	assert_true(g_error_matches(error, EVALUATOR_ERROR, EVALUATOR_ERROR_OBJECTIVE));
	assert_non_null(strstr(error->message, "seed=1000"));
	assert_int_equal(s.calls, 1); /* stopped at the first failure */

	/* The message names the knobs of the run's set: CFS's three by default, else the set's. */
	g_autofree char *cfs = g_strdup_printf("evaluation of latency_ns=%" G_GUINT64_FORMAT
					       " min_granularity_ns=%" G_GUINT64_FORMAT
					       " wakeup_granularity_ns=%" G_GUINT64_FORMAT " seed=",
					       points[0].latency_ns, points[0].min_granularity_ns,
					       points[0].wakeup_granularity_ns);
	assert_non_null(strstr(error->message, cfs));
	g_clear_error(&error);
	points[0].migration_cost_ns = 250000;
	config.knobs = KNOB_BIT(KNOB_LATENCY) | KNOB_BIT(KNOB_MIGRATION_COST);
	assert_false(evaluator_run(&config, points, N_POINTS, res, NULL, NULL, &error));
	g_autofree char *set = g_strdup_printf("evaluation of latency_ns=%" G_GUINT64_FORMAT
					       " migration_cost_ns=250000 seed=",
					       points[0].latency_ns);
	assert_non_null(strstr(error->message, set));
}

typedef struct {
	GThread *caller;
	GArray *done; /* guint */
	guint total;
	gboolean wrong_thread;
} ProgressLog;

static void log_progress(guint done, guint total, void *ctx)
{
	ProgressLog *log = ctx;
	if (g_thread_self() != log->caller)
		log->wrong_thread = TRUE;
	g_array_append_val(log->done, done);
	log->total = total;
}

/* Progress is reported from the caller's thread, starts at the journaled count, grows strictly
 * and ends at the total. */
static void test_progress(void **state)
{
	Fixture *f = *state;
	Knobs points[N_POINTS];
	random_points(points, N_POINTS);
	g_autoptr(Journal) journal = open_journal(f->path);
	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 2, journal);
	EvaluatorResult res[N_POINTS];
	run_ok(&config, points, 4, res, NULL, NULL); /* 4 points journaled first */

	for (guint jobs = 1; jobs <= 2; jobs++) {
		ProgressLog log = { .caller = g_thread_self(),
				    .done = g_array_new(FALSE, FALSE, sizeof(guint)) };
		config.jobs = jobs;
		config.progress = log_progress;
		config.progress_ctx = &log;
		config.base_seed =
			1000 + 10 * jobs; /* fresh seeds: nothing journaled but points 0-3 */
		run_ok(&config, points, N_POINTS, res, NULL, NULL);
		assert_false(log.wrong_thread);
		assert_int_equal(log.total, N_POINTS * REPLICATES);
		assert_int_equal(g_array_index(log.done, guint, 0), 0);
		for (guint i = 1; i < log.done->len; i++)
			assert_true(g_array_index(log.done, guint, i) >
				    g_array_index(log.done, guint, i - 1));
		assert_int_equal(g_array_index(log.done, guint, log.done->len - 1),
				 N_POINTS * REPLICATES);
		if (jobs == 1) /* inline: one report per evaluation */
			assert_int_equal(log.done->len, 1 + N_POINTS * REPLICATES);
		g_array_free(log.done, TRUE);
	}
	/* Resumed: the first report counts the journaled evaluations. */
	ProgressLog log = { .caller = g_thread_self(),
			    .done = g_array_new(FALSE, FALSE, sizeof(guint)) };
	config.progress_ctx = &log;
	config.base_seed = 1000;
	run_ok(&config, points, N_POINTS, res, NULL, NULL);
	assert_int_equal(g_array_index(log.done, guint, 0), 4 * REPLICATES);
	g_array_free(log.done, TRUE);
}

/* The kernel's id of the calling thread, recorded by the objective below: ids are not reused
 * while a process lives unless four million threads come and go. */
typedef struct {
	GMutex lock;
	GHashTable *tids; /* set of thread ids */
} ThreadLog;

static gint thread_id(void)
{
	return (gint)syscall(SYS_gettid);
}

static gboolean log_thread(const Knobs *k, guint64 seed, double *value, void *ctx, GError **error)
{
	ThreadLog *t = ctx;

	(void)error;
	g_usleep(300); /* long enough that both workers get tasks */
	g_mutex_lock(&t->lock);
	g_hash_table_add(t->tids, GINT_TO_POINTER(thread_id()));
	g_mutex_unlock(&t->lock);
	*value = (double)(k->latency_ns + seed);
	return TRUE;
}

/*
 * One Evaluator keeps one pool: five batches with jobs 2 run on at most two threads, neither of
 * them the caller's (a pool per batch would start two new threads per batch, ten in all).  Every
 * batch gives what evaluator_run gives inline.
 */
static void test_one_pool_per_evaluator(void **state)
{
	(void)state;
	enum {
		BATCHES = 5
	};
	ThreadLog t = { .tids = g_hash_table_new(NULL, NULL) };
	EvaluatorConfig config = { .objective = log_thread,
				   .objective_ctx = &t,
				   .replicates = 2,
				   .base_seed = 7,
				   .jobs = 2 };
	Knobs points[BATCHES][N_POINTS];
	EvaluatorResult got[BATCHES][N_POINTS], want[N_POINTS];

	g_mutex_init(&t.lock);
	for (int b = 0; b < BATCHES; b++) {
		random_points(points[b], N_POINTS);
		points[b][0].latency_ns += 1000 * (guint64)b; /* a new point in each batch */
	}

	Evaluator *ev = evaluator_new(&config);

	for (int b = 0; b < BATCHES; b++)
		assert_true(evaluator_batch(ev, points[b], N_POINTS, got[b], NULL, NULL, NULL));
	evaluator_free(ev);
	assert_true(g_hash_table_size(t.tids) >= 1 && g_hash_table_size(t.tids) <= 2);
	assert_false(g_hash_table_contains(t.tids, GINT_TO_POINTER(thread_id())));

	config.jobs = 1;
	for (int b = 0; b < BATCHES; b++) {
		run_ok(&config, points[b], N_POINTS, want, NULL, NULL);
		assert_memory_equal(got[b], want, sizeof want);
	}
	g_hash_table_unref(t.tids);
	g_mutex_clear(&t.lock);
}

/* The order evaluations start in: an objective that takes latency_ns / 100 us and logs its start. */
typedef struct {
	GMutex lock;
	guint64 started[8];
	guint n;
} StartLog;

static gboolean log_start(const Knobs *k, guint64 seed, double *value, void *ctx, GError **error)
{
	StartLog *log = ctx;

	(void)seed;
	(void)error;
	g_mutex_lock(&log->lock);
	log->started[log->n++] = k->latency_ns;
	g_mutex_unlock(&log->lock);
	g_usleep((gulong)(k->latency_ns / 100));
	*value = (double)k->latency_ns;
	return TRUE;
}

/*
 * Longest first: once a batch has shown that latency 4 ms takes 40 ms and 1 ms takes 10 ms, the
 * next batch (nearby points, slowest last) starts its two slowest tasks on the two threads and
 * its quickest last; with its own order the quickest two would start first. Results as inline.
 */
static void test_longest_first(void **state)
{
	(void)state;
	StartLog log = { 0 };
	EvaluatorConfig config = {
		.objective = log_start, .objective_ctx = &log, .replicates = 1, .jobs = 2
	};
	Knobs first[4], next[4];
	EvaluatorResult got[4], want[4];

	g_mutex_init(&log.lock);
	for (int i = 0; i < 4; i++) {
		first[i] = (Knobs)KNOBS_CFS(1000000 * (guint64)(4 - i), 1000000, 1000000);
		next[i] = (Knobs)KNOBS_CFS(1000000 * (guint64)(i + 1) + 1000, 1000000, 1000000);
	}

	Evaluator *ev = evaluator_new(&config);

	assert_true(evaluator_batch(ev, first, 4, got, NULL, NULL, NULL));
	log.n = 0;
	assert_true(evaluator_batch(ev, next, 4, got, NULL, NULL, NULL));
	evaluator_free(ev);
	assert_int_equal(log.n, 4);
	assert_true(MIN(log.started[0], log.started[1]) == next[2].latency_ns &&
		    MAX(log.started[0], log.started[1]) == next[3].latency_ns);
	assert_int_equal(log.started[2], next[1].latency_ns);
	assert_int_equal(log.started[3], next[0].latency_ns);

	config.jobs = 1;
	run_ok(&config, next, 4, want, NULL, NULL);
	assert_memory_equal(got, want, sizeof want);
	g_mutex_clear(&log.lock);
}

/* evaluator_batch_seeded: replicate r of point i uses seeds[i] + r, so equal points with other
 * seeds are separate evaluations (with seed_as_value, point i's mean is seeds[i] + (R - 1) / 2). */
static void test_seeded_batch(void **state)
{
	(void)state;
	EvaluatorConfig config = { .objective = seed_as_value, .replicates = 3, .base_seed = 5 };
	const Knobs same = KNOBS_CFS(1000000, 1000000, 0);
	const Knobs points[] = { same, same, same };
	const guint64 seeds[] = { 10, 20, 10 };
	EvaluatorResult res[3];
	EvaluatorStats st;
	g_autoptr(Evaluator) ev = evaluator_new(&config);

	assert_true(evaluator_batch_seeded(ev, points, seeds, 3, res, NULL, &st, NULL));
	assert_true(res[0].mean == 11 && res[1].mean == 21 && res[2].mean == 11);
	assert_int_equal(st.total, 6); /* points 0 and 2 share their seeds: run once */
	assert_true(evaluator_batch(ev, points, 1, res, NULL, NULL, NULL));
	assert_true(res[0].mean == 6);
}

static void test_empty_batch(void **state)
{
	(void)state;
	Synthetic s = { 0 };
	EvaluatorConfig config = config_for(&s, 2, NULL);
	EvaluatorStats stats = { 1, 1, 1 };
	run_ok(&config, NULL, 0, NULL, NULL, &stats);
	assert_int_equal(stats.total, 0);
	assert_int_equal(s.calls, 0);
}

/* evaluator_map's context: squares into out[], the threads that ran, a job that fails. */
typedef struct {
	ThreadLog t;
	double out[N_POINTS];
	gint ran;
	gint fail_at; /* -1: none */
} MapLog;

static gboolean square(guint i, void *ctx, GError **error)
{
	MapLog *m = ctx;
	Knobs k = { 0 };
	double ignored;

	g_atomic_int_inc(&m->ran);
	if ((gint)i == m->fail_at) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "job %u failed", i);
		return FALSE;
	}
	log_thread(&k, 0, &ignored, &m->t, NULL);
	m->out[i] = (double)i * i;
	return TRUE;
}

/*
 * evaluator_map runs its jobs on the evaluator's own pool: the threads a batch used (at most two,
 * not the caller's), every job once; inline in the caller's thread with jobs 1; on an evaluator
 * with no objective. A failing job stops the map with its error.
 */
static void test_map(void **state)
{
	(void)state;
	MapLog m = { .t = { .tids = g_hash_table_new(NULL, NULL) }, .fail_at = -1 };
	EvaluatorConfig config = {
		.objective = log_thread, .objective_ctx = &m.t, .replicates = 1, .jobs = 2
	};
	Knobs points[N_POINTS];
	EvaluatorResult res[N_POINTS];
	GError *error = NULL;

	g_mutex_init(&m.t.lock);
	random_points(points, N_POINTS);
	Evaluator *ev = evaluator_new(&config);

	assert_true(evaluator_batch(ev, points, N_POINTS, res, NULL, NULL, NULL));
	assert_true(evaluator_map(ev, N_POINTS, square, &m, &error));
	assert_null(error);
	assert_int_equal(m.ran, N_POINTS);
	for (guint i = 0; i < N_POINTS; i++)
		assert_true(m.out[i] == (double)i * i);
	assert_true(g_hash_table_size(m.t.tids) >= 1 && g_hash_table_size(m.t.tids) <= 2);
	assert_false(g_hash_table_contains(m.t.tids, GINT_TO_POINTER(thread_id())));

	m.fail_at = 0;
	assert_false(evaluator_map(ev, N_POINTS, square, &m, &error));
	assert_string_equal(error->message, "job 0 failed");
	g_clear_error(&error);
	assert_true(evaluator_map(ev, 0, square, &m, NULL));
	evaluator_free(ev);

	EvaluatorConfig map_only = { .replicates = 1, .jobs = 1 };
	g_hash_table_remove_all(m.t.tids);
	m.fail_at = -1;
	memset(m.out, 0, sizeof m.out);
	ev = evaluator_new(&map_only);
	assert_true(evaluator_map(ev, N_POINTS, square, &m, NULL));
	assert_true(m.out[N_POINTS - 1] == (double)(N_POINTS - 1) * (N_POINTS - 1));
	assert_int_equal(g_hash_table_size(m.t.tids), 1);
	assert_true(g_hash_table_contains(m.t.tids, GINT_TO_POINTER(thread_id())));
	evaluator_free(ev);
	g_hash_table_unref(m.t.tids);
	g_mutex_clear(&m.t.lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statistics_by_hand),
		cmocka_unit_test(test_replicate_seed),
		cmocka_unit_test(test_stats_add),
		cmocka_unit_test_setup_teardown(test_jobs_do_not_change_results, setup, teardown),
		cmocka_unit_test(test_position_does_not_matter),
		cmocka_unit_test_setup_teardown(test_journaled_batch_not_rerun, setup, teardown),
		cmocka_unit_test(test_duplicate_points_run_once),
		cmocka_unit_test_setup_teardown(test_resume_after_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_error_keeps_finished_work, setup, teardown),
		cmocka_unit_test(test_silent_failure_gets_a_message),
		cmocka_unit_test_setup_teardown(test_progress, setup, teardown),
		cmocka_unit_test(test_one_pool_per_evaluator),
		cmocka_unit_test(test_longest_first),
		cmocka_unit_test(test_seeded_batch),
		cmocka_unit_test(test_empty_batch),
		cmocka_unit_test(test_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
