/*
 * realbench.c -- build, run and read the real hackbench; see realbench.h.
 */
#include "tuner/calib/realbench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(realbench-error-quark, realbench_error)
/* clang-format on */

struct Realbench {
	RealbenchTool tool;
	gchar *program;	      /* hackbench or perf: the program to run */
	gchar *template_text; /* REALBENCH_TOOL_TEMPLATE: the user's command line */
};

/* Longest piece of a command's output quoted in an error message. */
enum {
	QUOTE_MAX = 200
};

static Realbench *realbench_alloc(RealbenchTool tool, const char *program,
				  const char *template_text)
{
	Realbench *bench = g_new0(Realbench, 1);
	bench->tool = tool;
	bench->program = g_strdup(program);
	bench->template_text = g_strdup(template_text);
	return bench;
}

Realbench *realbench_new_default(GError **error)
{
	g_autofree gchar *hackbench = g_find_program_in_path("hackbench");
	if (hackbench != NULL)
		return realbench_alloc(REALBENCH_TOOL_HACKBENCH, hackbench, NULL);
	g_autofree gchar *perf = g_find_program_in_path("perf");
	if (perf != NULL)
		return realbench_alloc(REALBENCH_TOOL_PERF, perf, NULL);
	g_set_error(
		error, REALBENCH_ERROR, REALBENCH_ERROR_NO_TOOL,
		"no benchmark found: install rt-tests (hackbench) or linux-perf (perf), or give a "
		"command template with {groups} and {loops}");
	return NULL;
}

Realbench *realbench_new_tool(RealbenchTool tool, const char *program)
{
	g_return_val_if_fail(tool == REALBENCH_TOOL_HACKBENCH || tool == REALBENCH_TOOL_PERF, NULL);
	g_return_val_if_fail(program != NULL, NULL);
	return realbench_alloc(tool, program, NULL);
}

/* The template with its placeholders replaced, split into words. */
static gchar **expand_template(const char *template_text, guint groups, guint loops, GError **error)
{
	g_autoptr(GString) line = g_string_new(template_text);
	g_autofree gchar *groups_text = g_strdup_printf("%u", groups);
	g_autofree gchar *loops_text = g_strdup_printf("%u", loops);
	g_string_replace(line, "{groups}", groups_text, 0);
	g_string_replace(line, "{loops}", loops_text, 0);

	gchar **argv = NULL;
	GError *shell_error = NULL;
	if (!g_shell_parse_argv(line->str, NULL, &argv, &shell_error)) {
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_TEMPLATE,
			    "benchmark template '%s': %s", template_text, shell_error->message);
		g_error_free(shell_error);
		return NULL;
	}
	return argv;
}

Realbench *realbench_new_template(const char *template_text, GError **error)
{
	g_return_val_if_fail(template_text != NULL, NULL);
	if (strstr(template_text, "{groups}") == NULL) {
		g_set_error(
			error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_TEMPLATE,
			"benchmark template '%s' has no {groups} placeholder, so every group count "
			"would run the same command",
			template_text);
		return NULL;
	}
	/* Split once now so that a quoting mistake is reported before any benchmark runs. */
	g_auto(GStrv) probe = expand_template(template_text, 1, 1, error);
	if (probe == NULL)
		return NULL;
	return realbench_alloc(REALBENCH_TOOL_TEMPLATE, NULL, template_text);
}

void realbench_free(Realbench *bench)
{
	if (bench == NULL)
		return;
	g_free(bench->program);
	g_free(bench->template_text);
	g_free(bench);
}

RealbenchTool realbench_tool(const Realbench *bench)
{
	return bench->tool;
}

static void push_number(GPtrArray *args, guint value)
{
	g_ptr_array_add(args, g_strdup_printf("%u", value));
}

/* hackbench -T|-P -g G -l L [-p] */
static void hackbench_args(GPtrArray *args, const RealbenchWorkload *w)
{
	g_ptr_array_add(args, g_strdup(w->tasks == REALBENCH_THREADS ? "-T" : "-P"));
	g_ptr_array_add(args, g_strdup("-g"));
	push_number(args, w->groups);
	g_ptr_array_add(args, g_strdup("-l"));
	push_number(args, w->loops);
	if (w->channel == REALBENCH_PIPES)
		g_ptr_array_add(args, g_strdup("-p"));
}

/* perf bench sched messaging [-t] [-p] -g G -l L; processes and sockets are perf's defaults. */
static void perf_args(GPtrArray *args, const RealbenchWorkload *w)
{
	g_ptr_array_add(args, g_strdup("bench"));
	g_ptr_array_add(args, g_strdup("sched"));
	g_ptr_array_add(args, g_strdup("messaging"));
	if (w->tasks == REALBENCH_THREADS)
		g_ptr_array_add(args, g_strdup("-t"));
	if (w->channel == REALBENCH_PIPES)
		g_ptr_array_add(args, g_strdup("-p"));
	g_ptr_array_add(args, g_strdup("-g"));
	push_number(args, w->groups);
	g_ptr_array_add(args, g_strdup("-l"));
	push_number(args, w->loops);
}

gchar **realbench_argv(const Realbench *bench, const RealbenchWorkload *workload, GError **error)
{
	if (workload->groups == 0 || workload->loops == 0) {
		g_set_error(
			error, REALBENCH_ERROR, REALBENCH_ERROR_BAD_WORKLOAD,
			"benchmark workload of %u group(s) and %u loop(s): both must be at least 1",
			workload->groups, workload->loops);
		return NULL;
	}
	if (bench->tool == REALBENCH_TOOL_TEMPLATE)
		return expand_template(bench->template_text, workload->groups, workload->loops,
				       error);

	GPtrArray *args = g_ptr_array_new();
	g_ptr_array_add(args, g_strdup(bench->program));
	if (bench->tool == REALBENCH_TOOL_HACKBENCH)
		hackbench_args(args, workload);
	else
		perf_args(args, workload);
	g_ptr_array_add(args, NULL);
	return (gchar **)g_ptr_array_free(args, FALSE);
}

/* TRUE when a word reads the same in a shell without quotes. */
static gboolean is_plain_word(const char *word)
{
	if (*word == '\0')
		return FALSE;
	for (const char *p = word; *p != '\0'; p++)
		if (!g_ascii_isalnum(*p) && strchr("-_./:=,+@%", *p) == NULL)
			return FALSE;
	return TRUE;
}

gchar *realbench_command_line(const char *const *argv)
{
	GString *line = g_string_new(NULL);
	for (gsize i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			g_string_append_c(line, ' ');
		if (is_plain_word(argv[i])) {
			g_string_append(line, argv[i]);
		} else {
			g_autofree gchar *quoted = g_shell_quote(argv[i]);
			g_string_append(line, quoted);
		}
	}
	return g_string_free(line, FALSE);
}

/* The last non-blank line of text, stripped, made valid UTF-8 (a GError message is UTF-8) and cut
 * to QUOTE_MAX bytes on a character boundary; NULL when there is none. */
static gchar *last_line(const char *text)
{
	if (text == NULL)
		return NULL;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (gsize i = g_strv_length(lines); i > 0; i--) {
		g_autofree gchar *line = g_utf8_make_valid(lines[i - 1], -1);
		g_strstrip(line);
		if (*line == '\0')
			continue;
		if (strlen(line) <= QUOTE_MAX)
			return g_steal_pointer(&line);
		const char *cut = g_utf8_find_prev_char(line, line + QUOTE_MAX + 1);
		return g_strdup_printf("%.*s...", (int)(cut - line), line);
	}
	return NULL;
}

/* The seconds after "label" in line, if label is there and a non-negative number follows. */
static gboolean seconds_after(const char *line, const char *label, double *seconds)
{
	const char *at = strstr(line, label);
	if (at == NULL)
		return FALSE;
	const char *start = at + strlen(label);
	while (*start == ' ' || *start == '\t')
		start++;
	char *end = NULL;
	double value = g_ascii_strtod(start, &end);
	if (end == start || !isfinite(value) || value < 0.0)
		return FALSE;
	*seconds = value;
	return TRUE;
}

gboolean realbench_parse_time(const char *output, const char *command, double *ms_out,
			      GError **error)
{
	gboolean found = FALSE;
	double seconds = 0.0;
	if (output != NULL) {
		g_auto(GStrv) lines = g_strsplit(output, "\n", -1);
		for (gsize i = 0; lines[i] != NULL; i++) {
			double s;
			/* "Total time:" first: hackbench's "Time:" is capitalised, so neither label is
			 * found inside the other. */
			if (seconds_after(lines[i], "Total time:", &s) ||
			    seconds_after(lines[i], "Time:", &s)) {
				seconds = s;
				found = TRUE;
			}
		}
	}
	if (found) {
		*ms_out = seconds * 1000.0;
		return TRUE;
	}

	g_autofree gchar *last = last_line(output);
	if (last == NULL)
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_PARSE,
			    "no time in the output of '%s': it printed nothing", command);
	else
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_PARSE,
			    "no time in the output of '%s': last line was '%s'", command, last);
	return FALSE;
}

/* What a failed command last said: its last line of standard error, else of standard output. */
static gchar *failure_detail(const char *out, const char *err)
{
	gchar *line = last_line(err);
	if (line != NULL)
		return line;
	g_autofree gchar *out_line = last_line(out);
	if (out_line != NULL)
		return g_strdup_printf("nothing on standard error, last output line '%s'",
				       out_line);
	return g_strdup("it printed nothing");
}

/* The error for a command that ran but did not exit with status 0. */
static void set_failed_error(GError **error, const char *command, gint wait_status, const char *out,
			     const char *err)
{
	g_autofree gchar *detail = failure_detail(out, err);
	if (WIFEXITED(wait_status))
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_FAILED,
			    "'%s' exited with status %d: %s", command, WEXITSTATUS(wait_status),
			    detail);
	else if (WIFSIGNALED(wait_status))
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_FAILED,
			    "'%s' was killed by signal %d (%s): %s", command, WTERMSIG(wait_status),
			    g_strsignal(WTERMSIG(wait_status)), detail);
	else
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_FAILED,
			    "'%s' ended with wait status 0x%x: %s", command, (unsigned)wait_status,
			    detail);
}

/* An unlinked temporary file for a child's output; -1 with an error. */
static int output_file(const char *command, GError **error)
{
	g_autofree gchar *path = NULL;
	GError *tmp_error = NULL;
	int fd = g_file_open_tmp("realbench-XXXXXX", &path, &tmp_error);

	if (fd < 0) {
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_SPAWN,
			    "cannot run '%s': no file for its output: %s", command,
			    tmp_error->message);
		g_error_free(tmp_error);
		return -1;
	}
	g_unlink(path);
	return fd;
}

/* Everything written to fd, from its start. */
static gchar *read_back(int fd)
{
	GString *text = g_string_new(NULL);
	char buf[65536];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) == 0)
		while ((n = read(fd, buf, sizeof buf)) > 0)
			g_string_append_len(text, buf, n);
	return g_string_free(text, FALSE);
}

/*
 * Runs argv to its end with standard input from /dev/null and its output in unlinked temporary
 * files (which cannot fill up and block the child as an unread pipe would), and reaps it with
 * wait4() for its resource usage: GLib's spawn functions reap their children themselves and keep
 * only the status. The usage covers the child, all its threads and every descendant it waited
 * for, as getrusage(RUSAGE_BOTH) of the child.
 */
static gboolean spawn_and_wait(char **argv, const char *command, gchar **out, gchar **err,
			       int *wait_status, struct rusage *usage, GError **error)
{
	int in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int out_fd = output_file(command, error);
	int err_fd = out_fd >= 0 ? output_file(command, error) : -1;
	gboolean ok = FALSE;
	GPid pid;
	GError *spawn_error = NULL;

	if (in_fd < 0 || out_fd < 0 || err_fd < 0) {
		if (in_fd < 0 && out_fd >= 0 && err_fd >= 0)
			g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_SPAWN,
				    "cannot run '%s': /dev/null: %s", command, g_strerror(errno));
		goto out;
	}
	if (!g_spawn_async_with_fds(NULL, argv, NULL,
				    G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
				    &pid, in_fd, out_fd, err_fd, &spawn_error)) {
		g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_SPAWN, "cannot run '%s': %s",
			    command, spawn_error->message);
		g_error_free(spawn_error);
		goto out;
	}
	while (wait4(pid, wait_status, 0, usage) < 0) {
		if (errno != EINTR) {
			g_set_error(error, REALBENCH_ERROR, REALBENCH_ERROR_SPAWN,
				    "cannot wait for '%s': %s", command, g_strerror(errno));
			goto out;
		}
	}
	*out = read_back(out_fd);
	*err = read_back(err_fd);
	ok = TRUE;
out:
	for (int i = 0; i < 3; i++) {
		int fd = i == 0 ? in_fd : i == 1 ? out_fd : err_fd;

		if (fd >= 0)
			close(fd);
	}
	return ok;
}

gboolean realbench_run_outcome(const Realbench *bench, const RealbenchWorkload *workload,
			       RealbenchOutcome *outcome, GError **error)
{
	g_auto(GStrv) argv = realbench_argv(bench, workload, error);
	if (argv == NULL)
		return FALSE;
	g_autofree gchar *command = realbench_command_line((const char *const *)argv);

	g_autofree gchar *out = NULL;
	g_autofree gchar *err = NULL;
	gint wait_status = 0;
	struct rusage usage;
	if (!spawn_and_wait(argv, command, &out, &err, &wait_status, &usage, error))
		return FALSE;
	if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
		set_failed_error(error, command, wait_status, out, err);
		return FALSE;
	}
	outcome->context_switches = (guint64)usage.ru_nvcsw + (guint64)usage.ru_nivcsw;
	g_autofree gchar *all = g_strconcat(out, "\n", err, NULL);
	return realbench_parse_time(all, command, &outcome->ms, error);
}

gboolean realbench_run(const Realbench *bench, const RealbenchWorkload *workload, double *ms_out,
		       GError **error)
{
	RealbenchOutcome outcome;

	if (!realbench_run_outcome(bench, workload, &outcome, error))
		return FALSE;
	*ms_out = outcome.ms;
	return TRUE;
}
