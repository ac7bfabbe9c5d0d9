/*
 * cmd_launch.c - `linsched launch`: exec a command that starts with a known wakee_flips.
 *
 *   linsched launch [--wakee-flips K] [--settle N] -- COMMAND [ARG...]
 *
 * The kernel's record_wakee, run in the waker's context on every wakeup that selects a CPU
 * (SPEC.md §1, wake_wide), does two things to the waker's wakee_flips: it halves them when more
 * than a second (HZ jiffies) passed since the last halving, and adds one when the wakee is not
 * the waker's last. Nothing else changes them, and fork copies them (sched_fork_inherit). So:
 *
 *   1. settle: N rounds, each 1.1 s after the last, of waking one helper A. Every round halves;
 *      the first also adds one, A being new. From W inherited flips that leaves
 *      linsched_launch_settled_flips(W, N): 0 for every W up to 125 with the default N = 7
 *      (the guest's shell passed on 0 to 72 in our traces, vm/data/flips/);
 *   2. K rounds of waking helpers B1 .. BK, each once, in less than a second: +1 each, as each
 *      differs from the last (A, then the previous B); no halving, the last was under a second
 *      ago;
 *   3. wait for the helpers to exit (their exits wake us, which is their record_wakee, not
 *      ours), and exec the command, which keeps the task and with it the K flips. The command's
 *      children fork with them; no helper is left for the command's wait() to reap.
 *
 * A wakeup that finds its wakee still running selects no CPU and records nothing, so every
 * helper is woken only once /proc shows it asleep (state S). With --settle 0 the inherited flips
 * stay: the command starts with W + K (or W/2 + K, when the first wake falls due for a halving).
 *
 * "Exactly K" holds up to the exec. A wakeup from an interrupt (a timer's, a softirq's) is
 * recorded on whatever task it interrupted, so the command gains a flip for each kernel thread
 * that an interrupt wakes while it runs, as any task does: 1 to 5 more before hackbench's first
 * fork in the guest's traces (vm/data/flips/).
 *
 * The helpers sleep in read() on a pipe of their own; the launcher wakes one with a one-byte
 * write, as hackbench's senders wake their receivers. This file uses the C library only, so that
 * it links statically on its own (bin/linsched-launch-static, main in launch_main.c).
 */
#define _GNU_SOURCE
#include "linsched/cli/launch.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LAUNCH_MAX_FLIPS	 1000
#define LAUNCH_MAX_SETTLE	 20
#define LAUNCH_DEFAULT_SETTLE	 7
/* More than HZ jiffies at every HZ the kernel offers (a jiffy is 10 ms at most). */
#define LAUNCH_ROUND_NS		 1100000000L
/* How long a helper may take to fall asleep before we give up on it. */
#define LAUNCH_ASLEEP_TIMEOUT_NS 10000000000L

unsigned long linsched_launch_settled_flips(unsigned long inherited, unsigned int halvings)
{
	unsigned long f = inherited;

	for (unsigned int r = 0; r < halvings; r++)
		f = r == 0 ? (f >> 1) + 1 : f >> 1;
	return f;
}

struct helper {
	pid_t pid;
	int wfd; /* the write end of its pipe */
};

static int launch_error(const char *msg)
{
	fprintf(stderr, "linsched launch: %s\n", msg);
	return 2;
}

static int launch_fail(const char *what)
{
	fprintf(stderr, "linsched launch: %s: %s\n", what, strerror(errno));
	return 1;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The helper's life: sleep in read() until a byte comes; '.' means sleep again, anything else or
 * EOF means exit. */
static void helper_loop(int rfd)
{
	char c;

	for (;;) {
		ssize_t n = read(rfd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 1 && c == '.')
			continue;
		_exit(0);
	}
}

/*
 * Forks a helper on a new pipe. The helper keeps only its read end: the write ends of the
 * helpers forked before it are closed in it, so that each pipe has one writer, the launcher.
 */
static int helper_start(struct helper *h, const struct helper *before, unsigned int nbefore)
{
	int fds[2];

	if (pipe(fds) != 0)
		return launch_fail("pipe");
	h->pid = fork();
	if (h->pid < 0) {
		int rc = launch_fail("fork");

		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (h->pid == 0) {
		close(fds[1]);
		for (unsigned int i = 0; i < nbefore; i++)
			close(before[i].wfd);
		helper_loop(fds[0]);
	}
	close(fds[0]);
	h->wfd = fds[1];
	return 0;
}

/* 1 when /proc says the task sleeps interruptibly (as in read()), 0 when not, -1 when /proc has
 * no word on it. */
static int task_asleep(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;
	size_t n;
	const char *rp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": the command may hold spaces and parentheses; the state follows the
	 * last ')'. */
	rp = strrchr(buf, ')');
	if (!rp || rp[1] != ' ')
		return -1;
	return rp[2] == 'S';
}

static int wake(const struct helper *h, char byte)
{
	long waited = 0;
	int asleep;

	while ((asleep = task_asleep(h->pid)) == 0) {
		if (waited >= LAUNCH_ASLEEP_TIMEOUT_NS) {
			errno = ETIMEDOUT;
			return launch_fail("a helper never fell asleep");
		}
		sleep_ns(1000000);
		waited += 1000000;
	}
	if (asleep < 0)
		sleep_ns(50000000); /* no /proc: give it 50 ms, plenty for a read() to block */
	for (;;) {
		ssize_t n = write(h->wfd, &byte, 1);

		if (n == 1)
			return 0;
		if (n < 0 && errno != EINTR)
			return launch_fail("write to a helper");
	}
}

static int parse_count(const char *flag, const char *s, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max) {
		fprintf(stderr, "linsched launch: %s: give a whole number in 0..%ld, not '%s'\n",
			flag, max, s);
		return 2;
	}
	*out = v;
	return 0;
}

static void help(void)
{
	printf("usage: linsched launch [--wakee-flips K] [--settle N] -- COMMAND [ARG...]\n"
	       "\n"
	       "Runs COMMAND (exec, same process) with the kernel's wakee_flips at K, so that the\n"
	       "tasks it forks inherit K, as `linsched hackbench --parent-flips K` starts the\n"
	       "simulated parent (plus what interrupts record on COMMAND's time before it forks).\n"
	       "First N rounds 1.1 s apart let the inherited flips decay (to 0 from up to 125\n"
	       "with the default N), then K helpers are woken once each.\n"
	       "\n"
	       "  -k, --wakee-flips K  the flips to start COMMAND with, 0..%d (default 0)\n"
	       "  -s, --settle N       halvings of the inherited flips first, 0..%d (default %d;\n"
	       "                       0: keep them, and start at once)\n",
	       LAUNCH_MAX_FLIPS, LAUNCH_MAX_SETTLE, LAUNCH_DEFAULT_SETTLE);
}

/* Settles, wakes K helpers, and reaps them all; returns 0 or the failure's exit status. */
static int set_flips(unsigned int settle, unsigned int flips)
{
	unsigned int n = (settle > 0) + flips, started = 0;
	struct helper *h = calloc(n ? n : 1, sizeof(*h));
	int rc = 0;

	if (!h)
		return launch_fail("calloc");
	while (started < n && rc == 0) {
		rc = helper_start(&h[started], h, started);
		started += rc == 0;
	}
	for (unsigned int r = 0; r < settle && rc == 0; r++) {
		sleep_ns(LAUNCH_ROUND_NS);
		rc = wake(&h[0], r + 1 < settle ? '.' : 'x');
	}
	for (unsigned int i = settle > 0; i < started && rc == 0; i++)
		rc = wake(&h[i], 'x');
	/* On a failure, closing the pipes tells the helpers still asleep to exit (EOF). */
	for (unsigned int i = 0; i < started; i++)
		close(h[i].wfd);
	for (unsigned int i = 0; i < started; i++)
		while (waitpid(h[i].pid, NULL, 0) < 0 && errno == EINTR)
			;
	free(h);
	return rc;
}

int linsched_launch_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "wakee-flips", required_argument, NULL, 'k' },
		{ "settle", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long flips = 0, settle = LAUNCH_DEFAULT_SETTLE;
	int opt, rc;

	opterr = 0;
	optind = 1;
	/* "+": stop at the first operand, so that COMMAND's own options stay its own. */
	while ((opt = getopt_long(argc, argv, "+k:s:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			if ((rc = parse_count("--wakee-flips", optarg, LAUNCH_MAX_FLIPS, &flips)))
				return rc;
			break;
		case 's':
			if ((rc = parse_count("--settle", optarg, LAUNCH_MAX_SETTLE, &settle)))
				return rc;
			break;
		case 'h':
			help();
			return 0;
		default:
			if (optopt)
				fprintf(stderr,
					"linsched launch: -%c: unknown option or missing value\n",
					optopt);
			else
				fprintf(stderr,
					"linsched launch: %s: unknown option or missing value\n",
					argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc)
		return launch_error("no COMMAND: give one after --");
	rc = set_flips((unsigned int)settle, (unsigned int)flips);
	if (rc)
		return rc;
	fflush(NULL);
	execvp(argv[optind], argv + optind);
	int err = errno; /* before fprintf, which may change it */

	fprintf(stderr, "linsched launch: %s: %s\n", argv[optind], strerror(err));
	return err == ENOENT ? 2 : 1;
}
