/*
 * realbench.h -- run the real hackbench benchmark on this machine and read its time.
 *
 * Calibration (SPEC.md §5) needs the real runtime of the same workload the simulator runs:
 * G groups of 20 senders and 20 receivers exchanging L messages each, as threads or processes,
 * over socket pairs or pipes (SPEC.md §4). Two tools run that benchmark:
 *
 *   rt-tests hackbench:    hackbench -T|-P -g G -l L [-p]
 *                          prints "Time: 0.123"
 *   perf:                  perf bench sched messaging [-t] [-p] -g G -l L
 *                          prints "     Total time: 0.123 [sec]"
 *
 * The default is hackbench when it is on PATH, else perf, else an error saying that neither is
 * installed. A user template replaces both: a command line with the placeholders {groups} and
 * {loops}, e.g. "taskset -c 0,1 hackbench -P -g {groups} -l {loops}". The placeholders are
 * replaced by the numbers first and the result is then split into words by the shell's quoting
 * rules (g_shell_parse_argv); no shell ever runs the command, so nothing in it is expanded. A
 * template decides threads/processes and sockets/pipes itself: those workload fields do not apply.
 *
 * The command runs with standard input /dev/null and its standard output and error captured. Its
 * time is the last "Time: S" or "Total time: S" found anywhere in its output (standard output,
 * then standard error), S in seconds; it is returned in milliseconds. Its context switches are
 * its resource usage's voluntary plus involuntary ones (wait4): every time one of its threads, or
 * of the processes it waited for, left a CPU, which is what the simulator counts per task.
 * A run blocks until the command exits: there is no time limit.
 *
 * Errors (REALBENCH_ERROR) are one line that names the command as it would be typed:
 *   no tool:        "no benchmark found: install rt-tests (hackbench) or linux-perf (perf), ..."
 *   failed to run:  "cannot run 'hackbench -P -g 5 -l 100': <reason>"
 *   non-zero exit:  "'CMD' exited with status 1: <last line of its standard error>"
 *   killed:         "'CMD' was killed by signal 9 (Killed): <last line of its standard error>"
 *                   (with nothing on standard error: its last output line, or "it printed nothing")
 *   no time:        "no time in the output of 'CMD': last line was 'xxx'" (or "it printed nothing")
 *
 * Ownership: a Realbench is created by one of the realbench_new_* functions and freed with
 * realbench_free; it is immutable once made, so threads may share it (each run spawns its own
 * process). Strings and string vectors returned are new and owned by the caller (g_free /
 * g_strfreev).
 */
#ifndef TUNER_REALBENCH_H
#define TUNER_REALBENCH_H

#include <glib.h>

#include "tuner/calib/bench_kind.h"

G_BEGIN_DECLS

#define REALBENCH_ERROR (realbench_error_quark())

typedef enum {
	REALBENCH_ERROR_NO_TOOL,      /* neither hackbench nor perf is on PATH */
	REALBENCH_ERROR_BAD_TEMPLATE, /* a template that cannot be parsed or lacks {groups} */
	REALBENCH_ERROR_BAD_WORKLOAD, /* zero groups or zero loops */
	REALBENCH_ERROR_SPAWN,	      /* the command could not be started */
	REALBENCH_ERROR_FAILED,	      /* the command exited non-zero or was killed */
	REALBENCH_ERROR_PARSE,	      /* the command's output holds no time */
} RealbenchError;

/* One benchmark run's workload. */
typedef struct {
	guint groups;		  /* G >= 1: groups of 20 senders + 20 receivers */
	guint loops;		  /* L >= 1: messages per sender per receiver */
	RealbenchTasks tasks;	  /* threads or processes (ignored by templates) */
	RealbenchChannel channel; /* sockets or pipes (ignored by templates) */
} RealbenchWorkload;

/* Which command line a Realbench builds. */
typedef enum {
	REALBENCH_TOOL_HACKBENCH, /* rt-tests hackbench */
	REALBENCH_TOOL_PERF,	  /* perf bench sched messaging */
	REALBENCH_TOOL_TEMPLATE,  /* the user's template */
} RealbenchTool;

/* A way to run the benchmark: a tool at a path, or a template. Opaque, immutable. */
typedef struct Realbench Realbench;

/* The error domain of this module. */
GQuark realbench_error_quark(void);

/* The default benchmark: hackbench if found on PATH, else perf, else NULL with
 * REALBENCH_ERROR_NO_TOOL. */
Realbench *realbench_new_default(GError **error);

/* A known tool (REALBENCH_TOOL_HACKBENCH or REALBENCH_TOOL_PERF) at the given program path or name
 * (looked up on PATH when run). Never fails: a wrong path shows when the command runs. */
Realbench *realbench_new_tool(RealbenchTool tool, const char *program);

/* A user template with {groups} (required) and {loops} (optional) placeholders. Returns NULL with
 * REALBENCH_ERROR_BAD_TEMPLATE when it has no {groups} or cannot be split into words (an
 * unmatched quote, nothing but blanks); the message quotes the template. */
Realbench *realbench_new_template(const char *template_text, GError **error);

/* Free a Realbench. NULL is allowed. */
void realbench_free(Realbench *bench);

/* Which kind of command this Realbench runs. */
RealbenchTool realbench_tool(const Realbench *bench);

/* The argument vector that runs the workload (free with g_strfreev), or NULL with
 * REALBENCH_ERROR_BAD_WORKLOAD when groups or loops is 0. */
gchar **realbench_argv(const Realbench *bench, const RealbenchWorkload *workload, GError **error);

/* The argument vector as one line a user could paste into a shell (words quoted only when they
 * need it), for messages and records. */
gchar *realbench_command_line(const char *const *argv);

/* What one run measured. */
typedef struct {
	double ms;		  /* its time, ms */
	guint64 context_switches; /* ru_nvcsw + ru_nivcsw of the command and its waited children */
} RealbenchOutcome;

/* Run the workload once. FALSE with an error (see the list above) when it cannot run, fails, or
 * prints no time. */
gboolean realbench_run_outcome(const Realbench *bench, const RealbenchWorkload *workload,
			       RealbenchOutcome *outcome, GError **error);

/* Run the workload once and store its time in *ms_out (milliseconds). FALSE with an error
 * (see the list above) when it cannot run, fails, or prints no time. */
gboolean realbench_run(const Realbench *bench, const RealbenchWorkload *workload, double *ms_out,
		       GError **error);

/* Find the benchmark time in a command's output (see above) and store it in *ms_out in
 * milliseconds. command names the command in the error message. FALSE with
 * REALBENCH_ERROR_PARSE when there is no time. output may be NULL (nothing printed). */
gboolean realbench_parse_time(const char *output, const char *command, double *ms_out,
			      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Realbench, realbench_free)

G_END_DECLS

#endif /* TUNER_REALBENCH_H */
