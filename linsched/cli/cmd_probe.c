/*
 * cmd_probe.c - `linsched probe`: measures the machine it runs on and writes machine.ini, which
 * `--machine FILE` loads into every simulation in place of the built-in machine (SPEC.md §7).
 *
 *   linsched probe [--out FILE] [--trials N] [--quick]
 *
 * What it measures, each as the median of --trials trials with the quartiles as its spread:
 *   - the CPU time of one 100-byte write and one read on a Unix socket pair and on a pipe (a
 *     batch of writes into the channel, then the reads that empty it, pinned to one CPU);
 *   - how many 100-byte messages each channel holds before the writer would block
 *     (non-blocking writes until EAGAIN);
 *   - what a read of the empty channel costs up to where it would sleep: a non-blocking read,
 *     which returns EAGAIN at that point, less a system call that does nothing (a read of a
 *     file descriptor that is not open: entering and leaving the kernel). A blocking read pays
 *     that entry and exit once, with the read that takes the message after the wakeup, which
 *     the simulation charges whole (socket_block_ns, pipe_block_ns; the system call's own cost
 *     goes to [spread] as syscall_ns);
 *   - what a socket read costs when 64 KiB to 64 MiB of other messages were written after its
 *     message (data in flight, as in hackbench's full sockets), and from the step in that cost
 *     the data cache the simulation models: data_cache_lines and data_miss_ps (measure_data);
 *   - the context-switch cost between threads, without a wakeup: two threads pinned to one
 *     CPU that yield to each other (sched_yield), less a yield alone; between processes, that
 *     and half of what a message ping-pong's round trip (below) costs more between processes
 *     than between threads;
 *   - the wakeup cost on one CPU: a ping-pong of messages over two socket pairs between two
 *     threads pinned to one CPU, whose round trip is two writes, two reads that each find
 *     their socket empty and sleep, two wakeups and two switches, less the write, the read,
 *     the read of the empty socket and the switch;
 *   - a message's way around rings of 2, 4, ..., 128 threads pinned to one CPU, per hop (a
 *     write, a wakeup, a read, a switch), each hop timed on its own and the rings' trials
 *     interleaved: what a hop costs more in a larger ring, against the ring of 2 in the same
 *     trial, is the reload of what the others evicted since a thread last ran, and its curve
 *     is the task cache the simulation models (cache_lines, footprint_lines, miss_ps; drawn by
 *     probe_ring.h, written only when the curve has a step); [spread] ring_hop_ns_N and
 *     ring_rise_ns_N; the same for rings of processes, ring_proc_hop_ns_N and
 *     ring_proc_rise_ns_N, read by no simulation yet (its tasks' footprint is one for both);
 *   - the wakeup cost onto another CPU: what a write costs more when it wakes a reader blocked
 *     on another CPU, which a nice-19 spinner keeps busy, than when nobody waits (two CPUs);
 *   - the kernel's preemption model (machine.h, linsched_preempt): the one in parentheses in
 *     /sys/kernel/debug/sched/preempt on a PREEMPT_DYNAMIC kernel with debugfs mounted; else
 *     from `uname -v`, which names PREEMPT (full) or PREEMPT_RT, and neither for voluntary or
 *     none (which the simulation treats alike); not written when debugfs would know but cannot
 *     be read;
 *   - the tick: HZ = 1 s / the resolution of CLOCK_MONOTONIC_COARSE, which is one jiffy, and
 *     the steps of that clock a busy loop sees (whole jiffies: more than one when ticks are
 *     late or skipped, as a virtual CPU's can be);
 *   - the noise: the stalls a busy task suffers without asking for anything (interrupts, and
 *     on a virtual machine whatever its host or emulator does meanwhile), as OS-jitter tools
 *     measure it: one thread pinned to each CPU reads the clock in a tight loop for --noise-ms,
 *     and every gap of more than NOISE_GAP_NS between two reads is a stall (less one turn of the
 *     loop). Their share of the time, mean and coefficient of variation, pooled over the CPUs,
 *     go to [noise], which the simulation suffers as it does steal. Shorter gaps are left to
 *     the costs: the medians above include them.
 * No timing is judged: the numbers are what this machine gave this time.
 *
 * The file is written to a temporary file beside FILE and renamed into place. The format is
 * GKeyFile's ([group], key=value, # comments); linsched/machine.h reads it.
 *
 * This file uses the C library only (no GLib), so that it links statically on its own
 * (bin/linsched-probe-static, main in probe_main.c): the VM's initramfs has no GLib.
 */
#define _GNU_SOURCE
#include "linsched/cli/probe.h"
#include "linsched/cli/probe_ring.h"

#include <errno.h>
#include <fcntl.h>
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG_BYTES    100
#define MAX_TRIALS   1000
#define MAX_SAMPLES  1000 /* round trips or wakeups in one trial */
#define NOISE_GAP_NS 5000 /* a gap between two clock reads longer than this is a stall */
#define MAX_NOISE_MS 600000
#define RING_MAX     128 /* threads in measure_rings' largest ring */
#define RING_SIZES   7
static const int ring_size[RING_SIZES] = { 2, 4, 8, 16, 32, 64, RING_MAX };

struct probe_opts {
	const char *out;
	int trials;
	int ops;    /* writes (and reads) per trial */
	int rounds; /* ping-pong round trips per trial */
	int wakes;  /* wakeups per trial */
	long tick_ms;
	long noise_ms;	  /* 0: no noise measurement */
	int noise_only;	  /* measure the noise alone, write its [noise] and [spread] lines */
	int data_repeats; /* measure_data's runs per size, each of up to DATA_TRIALS trials */
};

/* One measurement: its trials, summarised. */
struct stat3 {
	double median, q1, q3;
	int ok;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of sorted v by linear interpolation between order statistics. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static struct stat3 summarise(double *v, int n)
{
	struct stat3 s = { 0, 0, 0, 0 };

	if (n <= 0)
		return s;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.median = quantile(v, n, 0.5);
	s.q1 = quantile(v, n, 0.25);
	s.q3 = quantile(v, n, 0.75);
	s.ok = 1;
	return s;
}

/* The CPUs this process may run on, in order. */
static int allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* Pins the calling thread to cpu. */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int write_full(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_full(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	return fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* fds[0] reads, fds[1] writes. */
static int open_channel(int socket_pair, int fds[2])
{
	if (socket_pair)
		return socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
	return pipe(fds);
}

/* ---- writes, reads, capacity ---------------------------------------------------------------- */

struct channel_result {
	struct stat3 write, read;
	struct stat3 block;   /* a read of the empty channel up to where it would sleep, less: */
	struct stat3 syscall; /* a system call that does nothing: a read of a closed descriptor */
	long capacity_msgs;
	long buffer_bytes; /* SO_SNDBUF of the writing socket, or the pipe's size */
};

/* Messages the channel takes before a write would block; leaves it empty again. */
static long channel_capacity(int fds[2])
{
	char buf[MSG_BYTES] = { 0 };
	long n = 0;

	if (set_nonblock(fds[1], 1) != 0 || set_nonblock(fds[0], 1) != 0)
		return -1;
	while (n < 10000000 && write(fds[1], buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		n++;
	while (read(fds[0], buf, sizeof(buf)) > 0)
		;
	if (set_nonblock(fds[1], 0) != 0 || set_nonblock(fds[0], 0) != 0)
		return -1;
	return n;
}

static int measure_channel(int socket_pair, const struct probe_opts *o, struct channel_result *r)
{
	int fds[2];
	char buf[MSG_BYTES] = { 0 };
	double w[MAX_TRIALS], rd[MAX_TRIALS];

	memset(r, 0, sizeof(*r));
	if (open_channel(socket_pair, fds) != 0)
		return -1;
	r->capacity_msgs = channel_capacity(fds);
	if (socket_pair) {
		int v = 0;
		socklen_t len = sizeof(v);

		if (getsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &v, &len) == 0)
			r->buffer_bytes = v;
	} else {
		r->buffer_bytes = fcntl(fds[1], F_GETPIPE_SZ);
	}
	long batch = r->capacity_msgs > 64 ? 64 : r->capacity_msgs;

	if (batch < 1) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	double bl[MAX_TRIALS], sc[MAX_TRIALS];

	for (int t = 0; t < o->trials; t++) {
		double bw[MAX_SAMPLES], br[MAX_SAMPLES], bb[MAX_SAMPLES], bs[MAX_SAMPLES];
		int nb = 0;

		for (long done = 0; done < o->ops && nb < MAX_SAMPLES; done += batch, nb++) {
			uint64_t t0 = now_ns();

			for (long i = 0; i < batch; i++)
				if (write_full(fds[1], buf, sizeof(buf)) != 0)
					goto fail;
			uint64_t t1 = now_ns();

			for (long i = 0; i < batch; i++)
				if (read_full(fds[0], buf, sizeof(buf)) != 0)
					goto fail;
			br[nb] = (double)(now_ns() - t1) / (double)batch;
			bw[nb] = (double)(t1 - t0) / (double)batch;
		}
		/* Per batch, then the median batch: a batch the machine interrupted (another
		 * task, a stolen virtual CPU) says nothing of the channel. */
		w[t] = summarise(bw, nb).median;
		rd[t] = summarise(br, nb).median;

		/* The channel is empty now: a non-blocking read stops with EAGAIN where a
		 * blocking one would go to sleep. */
		if (set_nonblock(fds[0], 1) != 0)
			goto fail;
		for (nb = 0; nb * batch < o->ops && nb < MAX_SAMPLES; nb++) {
			uint64_t t0 = now_ns();

			for (long i = 0; i < batch; i++)
				if (read(fds[0], buf, sizeof(buf)) != -1 || errno != EAGAIN)
					goto fail;
			uint64_t t1 = now_ns();

			/* The entry and exit alone, batch for batch beside the reads. */
			for (long i = 0; i < batch; i++)
				if (read(-1, buf, sizeof(buf)) != -1 || errno != EBADF)
					goto fail;
			bb[nb] = (double)(t1 - t0) / (double)batch;
			bs[nb] = (double)(now_ns() - t1) / (double)batch;
		}
		if (set_nonblock(fds[0], 0) != 0)
			goto fail;
		sc[t] = summarise(bs, nb).median;
		bl[t] = summarise(bb, nb).median - sc[t];
	}
	close(fds[0]);
	close(fds[1]);
	r->write = summarise(w, o->trials);
	r->read = summarise(rd, o->trials);
	r->block = summarise(bl, o->trials);
	r->syscall = summarise(sc, o->trials);
	return 0;
fail:
	close(fds[0]);
	close(fds[1]);
	return -1;
}

/* ---- data in flight ------------------------------------------------------------------------ */

/*
 * What a read costs when its message was written long before, as hackbench's deep queues have
 * it: socket pairs are filled round-robin with `msgs` messages in all (none full, so no write
 * blocks), then read back in the order written. Every message then has the same msgs - 1
 * written after it when it is read: the data in flight is msgs times the socket's charge per
 * message. Against the smallest size the reads cost more once that data no longer fits the
 * caches (and, under emulation, the emulator's TLB): the step is the data cache the simulation
 * models (linsched/cache.h), its height the cost of the lines of a message found evicted.
 */
#define DATA_SIZES	 6
#define DATA_TRIALS	 5 /* at most: the largest size writes 64 MiB a trial */
#define DATA_MAX_CHANS	 1024
#define DATA_MAX_REPEATS 3
static const long data_kib[DATA_SIZES] = { 64, 256, 1024, 4096, 16384, 65536 };

struct data_result {
	struct stat3 read[DATA_SIZES];	/* ns a read, at data_kib[i] in flight */
	struct stat3 write[DATA_SIZES]; /* ns a write of those, round-robin over the sockets */
	int sizes;   /* the first sizes measured: a larger one needs too many fds */
	long charge; /* bytes a socket charges a message */
	int ok;
};

static int data_reads(long msgs, long per_chan, int trials, double *out_read, double *out_write)
{
	long nchan = (msgs + per_chan - 1) / per_chan;
	int fds[DATA_MAX_CHANS][2];
	char buf[MSG_BYTES] = { 0 };
	double v[MAX_TRIALS], vw[MAX_TRIALS];
	long opened = 0;
	int rc = -1;

	if (nchan > DATA_MAX_CHANS)
		return -1;
	for (; opened < nchan; opened++)
		if (open_channel(1, fds[opened]) != 0)
			goto out;
	for (int t = 0; t < trials; t++) {
		uint64_t tw = now_ns();

		for (long i = 0; i < msgs; i++)
			if (write_full(fds[i % nchan][1], buf, sizeof(buf)) != 0)
				goto out;
		uint64_t t0 = now_ns();

		vw[t] = (double)(t0 - tw) / (double)msgs;
		for (long i = 0; i < msgs; i++)
			if (read_full(fds[i % nchan][0], buf, sizeof(buf)) != 0)
				goto out;
		v[t] = (double)(now_ns() - t0) / (double)msgs;
	}
	*out_read = summarise(v, trials).median;
	*out_write = summarise(vw, trials).median;
	rc = 0;
out:
	for (long i = 0; i < opened; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
	return rc;
}

static int measure_data(const struct probe_opts *o, const struct channel_result *sock,
			struct data_result *r)
{
	int trials = o->trials < DATA_TRIALS ? o->trials : DATA_TRIALS;

	memset(r, 0, sizeof(*r));
	if (sock->capacity_msgs < 2 || sock->buffer_bytes <= 0)
		return 0; /* no socket holds two messages: nothing to fill round-robin */
	r->charge = sock->buffer_bytes / sock->capacity_msgs;
	for (int s = 0; s < DATA_SIZES; s++) {
		double per_read[DATA_MAX_REPEATS], per_write[DATA_MAX_REPEATS];
		long msgs = data_kib[s] * 1024 / r->charge;

		/* Each run opens its sockets afresh; a size's cost is the median of its runs'. A
		 * size that cannot be measured (small sockets need more pairs than there are
		 * fds) ends the series: the step is read from the sizes before it. */
		for (int k = 0; k < o->data_repeats; k++)
			if (data_reads(msgs, sock->capacity_msgs - 1, trials, &per_read[k],
				       &per_write[k]) != 0)
				goto done;
		r->read[s] = summarise(per_read, o->data_repeats);
		r->write[s] = summarise(per_write, o->data_repeats);
		r->sizes = s + 1;
	}
done:
	r->ok = r->sizes >= 2;
	return r->sizes >= 1 ? 0 : -1;
}

/* ---- wakeup --------------------------------------------------------------------------------- */

struct waker_shared {
	int fd; /* the reader's end */
	int cpu;
	atomic_long consumed;
	atomic_ullong woke_ns; /* when the reader's last read returned */
	atomic_int stop;
};

static void *sleeper_thread(void *arg)
{
	struct waker_shared *s = arg;
	char buf[MSG_BYTES];

	pin(s->cpu);
	while (read_full(s->fd, buf, sizeof(buf)) == 0) {
		atomic_store(&s->woke_ns, now_ns());
		atomic_fetch_add(&s->consumed, 1);
		if (atomic_load(&s->stop))
			break;
	}
	return NULL;
}

/* Keeps the reader's CPU busy at the lowest priority, as a loaded machine's CPUs are. */
static void *spinner_thread(void *arg)
{
	struct waker_shared *s = arg;

	pin(s->cpu);
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	while (!atomic_load(&s->stop))
		;
	return NULL;
}

/*
 * Writes to a reader that waits on another CPU, which a nice-19 spinner keeps busy (an idle CPU
 * would add its way out of idle, which a loaded machine does not pay). Each write is timed once
 * the reader has taken the previous message and had time to block again (spin_ns). The extra
 * over a plain write is the wakeup the writer pays. lag[t] is trial t's median time from the
 * start of a write to the reader's return from its read on the other CPU, of which what the
 * write, the read and the switch there do not take is the reschedule IPI's flight (ipi_ns).
 */
static int measure_wakeup(const struct probe_opts *o, int cpu_w, int cpu_r, double plain_write,
			  struct stat3 *out, double *lag)
{
	int fds[2];
	char buf[MSG_BYTES] = { 0 };
	double v[MAX_TRIALS];
	struct waker_shared s = { .cpu = cpu_r };
	pthread_t th, spin;
	/* Long enough for the reader to finish its read and sleep again, even when emulated. */
	uint64_t spin_ns = (uint64_t)(plain_write * 50);
	int rc = -1;

	if (spin_ns < 50000)
		spin_ns = 50000;
	if (open_channel(1, fds) != 0)
		return -1;
	s.fd = fds[0];
	atomic_init(&s.consumed, 0);
	atomic_init(&s.stop, 0);
	if (pthread_create(&spin, NULL, spinner_thread, &s) != 0)
		goto out_fds;
	if (pthread_create(&th, NULL, sleeper_thread, &s) != 0)
		goto out_spin;
	pin(cpu_w);
	long sent = 0;

	for (int t = 0; t < o->trials; t++) {
		double one[MAX_SAMPLES], back[MAX_SAMPLES];

		for (int i = 0; i < o->wakes; i++) {
			uint64_t until = now_ns() + spin_ns;

			while (now_ns() < until)
				;
			uint64_t t0 = now_ns();

			if (write_full(fds[1], buf, sizeof(buf)) != 0)
				goto out_reader;
			one[i] = (double)(now_ns() - t0);
			sent++;
			while (atomic_load(&s.consumed) < sent)
				;
			back[i] = (double)(atomic_load(&s.woke_ns) - t0);
		}
		/* The median write of the trial: a write the machine interrupted (another task,
		 * a stolen virtual CPU) says nothing of the wakeup. */
		v[t] = summarise(one, o->wakes).median - plain_write;
		lag[t] = summarise(back, o->wakes).median;
	}
	*out = summarise(v, o->trials);
	rc = 0;
out_reader:
	atomic_store(&s.stop, 1);
	close(fds[1]);
	fds[1] = -1;
	pthread_join(th, NULL);
out_spin:
	atomic_store(&s.stop, 1);
	pthread_join(spin, NULL);
out_fds:
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	return rc;
}

/* ---- context switches ----------------------------------------------------------------------- */

/* The echoing side: reads a message from in, writes it back to out, until in closes. */
static void echo_loop(int in, int out)
{
	char buf[MSG_BYTES];

	while (read_full(in, buf, sizeof(buf)) == 0)
		if (write_full(out, buf, sizeof(buf)) != 0)
			break;
}

struct echo_args {
	int in, out, cpu;
};

static void *echo_thread(void *arg)
{
	struct echo_args *a = arg;

	pin(a->cpu);
	echo_loop(a->in, a->out);
	return NULL;
}

/* Round trips per trial, each timed on the pinging side; the trial's median round trip, ns. */
static int ping(int out, int in, const struct probe_opts *o, double *rt)
{
	char buf[MSG_BYTES] = { 0 };
	double one[MAX_SAMPLES];

	for (int t = 0; t < o->trials; t++) {
		for (int i = 0; i < o->rounds; i++) {
			uint64_t t0 = now_ns();

			if (write_full(out, buf, sizeof(buf)) != 0 ||
			    read_full(in, buf, sizeof(buf)) != 0)
				return -1;
			one[i] = (double)(now_ns() - t0);
		}
		rt[t] = summarise(one, o->rounds).median;
	}
	return 0;
}

/* A ping-pong of messages between two threads, or two processes, pinned to cpu: the trials'
 * round trips. */
static int measure_pingpong(int processes, int cpu, const struct probe_opts *o, double *rt)
{
	int a[2], b[2]; /* a: pinger -> echoer, b: echoer -> pinger */
	struct echo_args args;
	pthread_t th;
	int rc = -1;

	if (open_channel(1, a) != 0)
		return -1;
	if (open_channel(1, b) != 0) {
		close(a[0]);
		close(a[1]);
		return -1;
	}
	args = (struct echo_args){ a[0], b[1], cpu };
	pin(cpu);
	if (processes) {
		pid_t pid = fork();

		if (pid == 0) {
			close(a[1]);
			close(b[0]);
			echo_thread(&args);
			_exit(0);
		}
		if (pid > 0) {
			rc = ping(a[1], b[0], o, rt);
			close(a[1]); /* the echoer reads the end and stops */
			a[1] = -1;
			waitpid(pid, NULL, 0);
		}
	} else if (pthread_create(&th, NULL, echo_thread, &args) == 0) {
		rc = ping(a[1], b[0], o, rt);
		close(a[1]);
		a[1] = -1;
		pthread_join(th, NULL);
	}
	close(a[0]);
	if (a[1] >= 0)
		close(a[1]);
	close(b[0]);
	close(b[1]);
	return rc;
}

/*
 * Rings of ring_size[] threads pinned to cpu, a message passed around each: the hop from one
 * member's write to the next member's read (a write, a wakeup, a switch, a read, as half of a
 * ping-pong's round trip is for a ring of 2). What a hop costs more in a larger ring is the
 * reload of the working set that the n - 1 others ran over since, the cache the simulation
 * models (probe_ring.h). Each hop is timed on its own (the writer puts its clock in the
 * message, the reader subtracts it), and a trial's figure is the median hop, so a stall counts
 * no more in a ring of 128 than in a ring of 2, as it would in a lap's time. All rings live
 * through all the trials, which visit them in a rotated order, and each trial's rises over the
 * ring of 2 are paired, so the host's drift between sizes cancels.
 */
#define RING_HOPS  512 /* timed hops a ring's trial, whatever its size */
#define RING_STACK (256 * 1024)

struct hop_log {
	atomic_int count;
	/* Atomic so that the members' stores and the caller's loads are not a race; the pipe
	 * between the last store and the first load orders them. */
	_Atomic uint64_t ns[RING_HOPS + RING_MAX];
};

struct ring_member {
	int in, out, cpu;
	struct hop_log *log;
};

/* The stamp of the message that ends a ring of processes: each member passes it on and exits
 * (a process holds copies of the others' ends, so closing the caller's does not end a read). */
#define RING_STOP UINT64_MAX

/* A member: reads the message, logs its hop, stamps it and passes it on, until in closes or the
 * stop message has passed. */
static void ring_loop(int in, int out, struct hop_log *log)
{
	char buf[MSG_BYTES] = { 0 };

	while (read_full(in, buf, sizeof(buf)) == 0) {
		uint64_t sent, now = now_ns();

		memcpy(&sent, buf, sizeof(sent));
		if (sent == RING_STOP) {
			write_full(out, buf, sizeof(buf));
			return;
		}
		int i = atomic_fetch_add_explicit(&log->count, 1, memory_order_relaxed);

		if (sent && i < (int)(sizeof(log->ns) / sizeof(log->ns[0])))
			atomic_store_explicit(&log->ns[i], now - sent, memory_order_relaxed);
		sent = now_ns();
		memcpy(buf, &sent, sizeof(sent));
		if (write_full(out, buf, sizeof(buf)) != 0)
			break;
	}
}

static void *ring_thread(void *arg)
{
	struct ring_member *m = arg;

	pin(m->cpu);
	ring_loop(m->in, m->out, m->log);
	return NULL;
}

struct ring {
	int n, processes;
	int fds[RING_MAX][2]; /* member i (the caller is 0) writes channel i, reads channel i - 1 */
	int opened, started;
	pthread_t th[RING_MAX];
	pid_t pid[RING_MAX];
	struct ring_member member[RING_MAX];
};

/* Opens the ring's channels and starts its n - 1 members, threads or processes; the caller is
 * the n-th. */
static int ring_open(struct ring *g, int n, int processes, int cpu, struct hop_log *log,
		     const pthread_attr_t *attr)
{
	g->n = n;
	g->processes = processes;
	g->opened = g->started = 0;
	for (; g->opened < n; g->opened++)
		if (open_channel(1, g->fds[g->opened]) != 0)
			return -1;
	for (; g->started < n - 1; g->started++) {
		int i = g->started + 1;

		g->member[i] = (struct ring_member){ g->fds[i - 1][0], g->fds[i][1], cpu, log };
		if (processes) {
			pid_t pid = fork();

			if (pid == 0) {
				ring_thread(&g->member[i]);
				_exit(0);
			}
			if (pid < 0)
				return -1;
			g->pid[g->started] = pid;
		} else if (pthread_create(&g->th[g->started], attr, ring_thread, &g->member[i]) !=
			   0) {
			return -1;
		}
	}
	return 0;
}

/* Closing channel i's write end ends member i + 1's read; each member that stops closes
 * nothing, so the ends are closed in order and each join waits for one. */
static void ring_close(struct ring *g)
{
	if (g->processes) {
		/* The stop message goes round, each member passing it on as it exits (a ring
		 * that failed part-way may not carry it: its members are killed). */
		char buf[MSG_BYTES] = { 0 };
		uint64_t stop = RING_STOP;
		int whole = g->started == g->n - 1;

		memcpy(buf, &stop, sizeof(stop));
		if (!whole || write_full(g->fds[0][1], buf, sizeof(buf)) != 0 ||
		    read_full(g->fds[g->n - 1][0], buf, sizeof(buf)) != 0)
			for (int i = 0; i < g->started; i++)
				kill(g->pid[i], SIGKILL);
		for (int i = 0; i < g->started; i++)
			waitpid(g->pid[i], NULL, 0);
		g->started = 0;
	}
	for (int i = 0; i < g->started; i++) {
		close(g->fds[i][1]);
		g->fds[i][1] = -1;
		pthread_join(g->th[i], NULL);
	}
	for (int i = 0; i < g->opened; i++) {
		close(g->fds[i][0]);
		if (g->fds[i][1] >= 0)
			close(g->fds[i][1]);
	}
	g->opened = g->started = 0;
}

/* One trial of one ring: a lap to settle it, then laps of about RING_HOPS hops; the median. */
static int ring_trial(struct ring *g, struct hop_log *log, double *median)
{
	char buf[MSG_BYTES] = { 0 };
	int laps = RING_HOPS / g->n > 1 ? RING_HOPS / g->n : 1;
	double v[RING_HOPS + RING_MAX];

	for (int lap = 0; lap <= laps; lap++) {
		uint64_t sent = now_ns();

		if (lap == 1)
			atomic_store(&log->count, 0); /* the settling lap is not counted */
		memcpy(buf, &sent, sizeof(sent));
		if (write_full(g->fds[0][1], buf, sizeof(buf)) != 0 ||
		    read_full(g->fds[g->n - 1][0], buf, sizeof(buf)) != 0)
			return -1;
		uint64_t now = now_ns();
		int i = atomic_fetch_add(&log->count, 1);

		memcpy(&sent, buf, sizeof(sent));
		if (lap > 0 && i < (int)(sizeof(log->ns) / sizeof(log->ns[0])))
			atomic_store_explicit(&log->ns[i], now - sent, memory_order_relaxed);
	}
	int n = atomic_load(&log->count);

	if (n > (int)(sizeof(v) / sizeof(v[0])))
		n = (int)(sizeof(v) / sizeof(v[0]));
	for (int i = 0; i < n; i++)
		v[i] = (double)atomic_load_explicit(&log->ns[i], memory_order_relaxed);
	*median = summarise(v, n).median;
	return 0;
}

/* hop[s][t]: trial t's median hop in the ring of ring_size[s] threads, or processes. */
static int measure_rings(int processes, int cpu, const struct probe_opts *o,
			 double hop[][MAX_TRIALS])
{
	struct ring *rings = calloc(RING_SIZES, sizeof(*rings));
	/* Shared, so that member processes log into it too. */
	struct hop_log *log =
		mmap(NULL, sizeof(*log), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_attr_t attr;
	int opened = 0, rc = -1;

	if (log == MAP_FAILED)
		log = NULL;
	if (!rings || !log || pthread_attr_init(&attr) != 0) {
		free(rings);
		if (log)
			munmap(log, sizeof(*log));
		return -1;
	}
	pthread_attr_setstacksize(&attr, RING_STACK);
	pin(cpu);
	for (; opened < RING_SIZES; opened++)
		if (ring_open(&rings[opened], ring_size[opened], processes, cpu, log, &attr) != 0) {
			opened++; /* close what it opened */
			goto out;
		}
	for (int t = 0; t < o->trials; t++)
		for (int j = 0; j < RING_SIZES; j++) {
			int s = (t + j) % RING_SIZES;

			if (ring_trial(&rings[s], log, &hop[s][t]) != 0)
				goto out;
		}
	rc = 0;
out:
	for (int i = 0; i < opened; i++)
		ring_close(&rings[i]);
	pthread_attr_destroy(&attr);
	free(rings);
	munmap(log, sizeof(*log));
	return rc;
}

/* Per wakeup: half a round trip, less one write, one read, one read of the empty socket and one
 * switch. */
static struct stat3 wakeup_cost(double *rt, int n, double per_message)
{
	for (int i = 0; i < n; i++)
		rt[i] = rt[i] / 2 - per_message;
	return summarise(rt, n);
}

/* ---- switches without wakeups: sched_yield ------------------------------------------------- */

/* Yields until told to stop: the partner of a yield ping-pong. */
static void yield_loop(atomic_int *stop)
{
	while (!atomic_load(stop))
		sched_yield();
}

struct yield_args {
	atomic_int *stop;
	int cpu;
};

static void *yield_thread(void *arg)
{
	struct yield_args *a = arg;

	pin(a->cpu);
	yield_loop(a->stop);
	return NULL;
}

/* The trials' medians of one yield, each timed, ns. */
static void time_yields(const struct probe_opts *o, double *v)
{
	double one[MAX_SAMPLES];

	for (int t = 0; t < o->trials; t++) {
		for (int i = 0; i < o->rounds; i++) {
			uint64_t t0 = now_ns();

			sched_yield();
			one[i] = (double)(now_ns() - t0);
		}
		v[t] = summarise(one, o->rounds).median;
	}
}

/*
 * A context switch without a wakeup: two threads pinned to one CPU that only yield to each other.
 * Each yield of one runs the other's yield in between, so a timed yield is two yields and two
 * switches; a yield with nobody to yield to is the syscall alone. Per switch: half the first
 * less the second.
 */
static int measure_yield_switch(int cpu, const struct probe_opts *o, double lone_yield,
				struct stat3 *out)
{
	double v[MAX_TRIALS];
	atomic_int stop;
	struct yield_args args = { &stop, cpu };
	pthread_t th;

	atomic_init(&stop, 0);
	pin(cpu);
	if (pthread_create(&th, NULL, yield_thread, &args) != 0)
		return -1;
	time_yields(o, v);
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	for (int t = 0; t < o->trials; t++)
		v[t] = v[t] / 2 - lone_yield;
	*out = summarise(v, o->trials);
	return 0;
}

/* ---- the tick ------------------------------------------------------------------------------- */

/* The step of CLOCK_MONOTONIC_COARSE as a busy loop sees it (median of the steps), ns. */
static double observed_tick(long ms)
{
	double steps[4096];
	int n = 0;
	struct timespec ts;
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL, last;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	last = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	while (now_ns() < end && n < 4096) {
		clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
		uint64_t c = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;

		if (c != last) {
			steps[n++] = (double)(c - last);
			last = c;
		}
	}
	return n ? summarise(steps, n).median : 0;
}

/* ---- noise ---------------------------------------------------------------------------------- */

/* The tail of the stalls: the share of their time spent in stalls longer than each of these. */
#define NOISE_TAILS 3
static const double noise_tail_ns[NOISE_TAILS] = { 100e3, 1e6, 4e6 };

/* From this length on a stall is a long one (a host tick lost), a source of its own. */
#define NOISE_LONG_NS 1000000

/* One kind of stall, pooled over the CPUs: its share of the time, mean length, CV, count. */
struct stall_stats {
	double ppm, mean_ns, cv, n;
};

struct noise_result {
	double ppm, mean_ns, cv;	  /* pooled over the CPUs */
	struct stall_stats short_, long_; /* shorter than NOISE_LONG_NS, and the rest */
	double tail[NOISE_TAILS];  /* share of the stalls' time in stalls over noise_tail_ns[k] */
	double ppm_min, ppm_max;   /* the least and the most noisy CPU */
	double stalls, longest_ns; /* how many, and the longest */
	int ok;
};

struct noise_thread_arg {
	int cpu;
	uint64_t duration_ns;
	pthread_barrier_t *start;
	double n, sum, sum2, longest, span; /* stalls, their sums, the time watched */
	double turn;			    /* the shortest gap: one turn of the loop */
	double over[NOISE_TAILS];	    /* summed gaps longer than noise_tail_ns[k] */
	double ln, lsum, lsum2;		    /* of which stalls of NOISE_LONG_NS or more */
};

/*
 * Reads the clock in a tight loop; a gap above NOISE_GAP_NS is a stall, of which one turn of the
 * loop (the shortest gap seen) was the loop's own work, not lost.
 */
static void *noise_thread(void *arg)
{
	struct noise_thread_arg *a = arg;

	pin(a->cpu);
	pthread_barrier_wait(a->start);
	uint64_t t0 = now_ns(), prev = t0, end = t0 + a->duration_ns;

	a->turn = NOISE_GAP_NS;
	for (;;) {
		uint64_t t = now_ns();
		double gap = (double)(t - prev);

		prev = t;
		if (gap > 0 && gap < a->turn)
			a->turn = gap;
		if (gap > NOISE_GAP_NS) {
			a->n++;
			a->sum += gap;
			a->sum2 += gap * gap;
			if (gap > a->longest)
				a->longest = gap;
			for (int k = 0; k < NOISE_TAILS; k++)
				if (gap > noise_tail_ns[k])
					a->over[k] += gap;
			if (gap >= NOISE_LONG_NS) {
				a->ln++;
				a->lsum += gap;
				a->lsum2 += gap * gap;
			}
		}
		if (t >= end)
			break;
	}
	a->span = (double)(prev - t0);
	/* Less a turn each: sum (g - m) = sum g - n m, sum (g - m)^2 = sum g^2 - 2 m sum g + n m^2. */
	a->sum2 -= 2 * a->turn * a->sum - a->n * a->turn * a->turn;
	a->sum -= a->n * a->turn;
	a->lsum2 -= 2 * a->turn * a->lsum - a->ln * a->turn * a->turn;
	a->lsum -= a->ln * a->turn;
	a->longest = a->n ? a->longest - a->turn : 0;
	return NULL;
}

/* All CPUs at once, as a benchmark that keeps them busy would see them. */
static void stall_stats_of(double n, double sum, double sum2, double span, struct stall_stats *s)
{
	double mean = n > 0 ? sum / n : 0, var = n > 0 ? sum2 / n - mean * mean : 0;

	s->n = n;
	s->ppm = span > 0 ? 1e6 * sum / span : 0;
	s->mean_ns = mean;
	s->cv = var > 0 && mean > 0 ? sqrt(var) / mean : 0;
}

static int measure_noise(const int *cpus, int ncpus, const struct probe_opts *o,
			 struct noise_result *r)
{
	struct noise_thread_arg *a = calloc((size_t)ncpus, sizeof(*a));
	pthread_t *th = calloc((size_t)ncpus, sizeof(*th));
	pthread_barrier_t start;
	int started = 0, rc = -1;
	double n = 0, sum = 0, sum2 = 0, span = 0, raw = 0, over[NOISE_TAILS] = { 0 };
	double ln = 0, lsum = 0, lsum2 = 0;

	memset(r, 0, sizeof(*r));
	if (!a || !th || pthread_barrier_init(&start, NULL, (unsigned)ncpus) != 0)
		goto out;
	for (; started < ncpus; started++) {
		a[started] = (struct noise_thread_arg){ .cpu = cpus[started],
							.duration_ns =
								(uint64_t)o->noise_ms * 1000000ULL,
							.start = &start };
		if (pthread_create(&th[started], NULL, noise_thread, &a[started]) != 0)
			break;
	}
	if (started < ncpus) {
		/* The threads already waiting at the barrier would wait for ever: nothing to join. */
		fprintf(stderr, "linsched probe: cannot start the noise threads\n");
		exit(1);
	}
	r->ppm_min = 1e6;
	for (int i = 0; i < ncpus; i++) {
		pthread_join(th[i], NULL);
		double ppm = a[i].span > 0 ? 1e6 * a[i].sum / a[i].span : 0;

		r->ppm_min = ppm < r->ppm_min ? ppm : r->ppm_min;
		r->ppm_max = ppm > r->ppm_max ? ppm : r->ppm_max;
		r->longest_ns = a[i].longest > r->longest_ns ? a[i].longest : r->longest_ns;
		n += a[i].n;
		sum += a[i].sum;
		sum2 += a[i].sum2;
		span += a[i].span;
		raw += a[i].sum + a[i].n * a[i].turn; /* the gaps as seen, turns included */
		ln += a[i].ln;
		lsum += a[i].lsum;
		lsum2 += a[i].lsum2;
		for (int k = 0; k < NOISE_TAILS; k++)
			over[k] += a[i].over[k];
	}
	pthread_barrier_destroy(&start);
	r->stalls = n;
	if (n > 0 && span > 0) {
		double mean = sum / n, var = sum2 / n - mean * mean;

		r->ppm = 1e6 * sum / span;
		r->mean_ns = mean;
		r->cv = var > 0 ? sqrt(var) / mean : 0;
		stall_stats_of(n - ln, sum - lsum, sum2 - lsum2, span, &r->short_);
		stall_stats_of(ln, lsum, lsum2, span, &r->long_);
		/* Against the gaps as seen: over[] holds them so. */
		for (int k = 0; k < NOISE_TAILS; k++)
			r->tail[k] = over[k] / raw;
	}
	r->ok = 1;
	rc = 0;
out:
	free(a);
	free(th);
	return rc;
}

/* ---- output --------------------------------------------------------------------------------- */

struct probe_result {
	char kernel[128];
	int cpus;
	long hz;
	const char *preempt; /* NULL: not known */
	const char *preempt_from;
	double tick_ns, tick_res_ns;
	struct channel_result sock, pipe;
	struct stat3 wakeup, wakeup_remote, ipi, thread_switch, process_switch, lone_yield;
	double thread_rt_median;
	struct stat3 ring_hop[RING_SIZES], ring_rise[RING_SIZES];
	struct stat3 proc_hop[RING_SIZES], proc_rise[RING_SIZES]; /* rings of processes */
	struct probe_ring_cache ring_cache;
	struct noise_result noise;
	struct data_result data;
};

/* Each ring's hops and their rises over the ring of 2, paired by trial. */
static void ring_stats(double hop[][MAX_TRIALS], int trials, struct stat3 *hops,
		       struct stat3 *rises)
{
	double rise[MAX_TRIALS];

	for (int s = 0; s < RING_SIZES; s++) {
		for (int t = 0; t < trials; t++)
			rise[t] = hop[s][t] - hop[0][t];
		rises[s] = summarise(rise, trials);
	}
	for (int s = 0; s < RING_SIZES; s++)
		hops[s] = summarise(hop[s], trials);
}

/* The threads' rings and the cache they draw. */
static void ring_summary(double hop[][MAX_TRIALS], int trials, struct probe_result *r)
{
	double med[RING_SIZES], q1[RING_SIZES];

	ring_stats(hop, trials, r->ring_hop, r->ring_rise);
	for (int s = 0; s < RING_SIZES; s++) {
		med[s] = r->ring_rise[s].median;
		q1[s] = r->ring_rise[s].q1;
	}
	probe_ring_cache(ring_size, med, q1, RING_SIZES, r->ring_hop[0].median, &r->ring_cache);
}

static void put_cost(FILE *f, const char *key, const struct stat3 *s)
{
	if (s->ok)
		fprintf(f, "%s=%.0f\n", key, s->median > 0 ? s->median : 0);
	else
		fprintf(f, "# %s: not measured\n", key);
}

static void put_spread(FILE *f, const char *key, const struct stat3 *s)
{
	if (s->ok)
		fprintf(f, "%s_q1=%.0f\n%s_q3=%.0f\n", key, s->q1, key, s->q3);
}

/* One source of stalls as machine.ini has it: prefix_ppm, prefix_ns, prefix_cv_pct. */
static void put_stalls(FILE *f, const char *prefix, const struct stall_stats *s)
{
	/* The simulation's stalls are gamma distributed: CV from 0.01 to 10, at least 1 ns. */
	double cv = s->cv < 0.01 ? 0.01 : s->cv > 10 ? 10 : s->cv;

	if (s->n > 0)
		fprintf(f, "%s_ppm=%.0f\n%s_ns=%.0f\n%s_cv_pct=%.0f\n", prefix,
			s->ppm < 999999 ? s->ppm : 999999, prefix, s->mean_ns >= 1 ? s->mean_ns : 1,
			prefix, 100 * cv);
	else
		fprintf(f, "%s_ppm=0\n", prefix);
}

/*
 * [noise] as two sources, the short stalls and the long ones (NOISE_LONG_NS on: a host tick
 * lost), which one gamma cannot both fit. [spread] has them pooled (put_noise_spread: what the
 * plans' per-run stall probes report, vm/lines-to-csv.sh) and the tail.
 */
static void put_noise(FILE *f, const struct probe_result *r, const struct probe_opts *o)
{
	const struct noise_result *nr = &r->noise;

	fprintf(f,
		"\n[noise]\n# %.0f stalls of more than %d ns on %d CPUs in %ld ms each, the longest "
		"%.0f ns; %.0f of them of %d ns or more (long_*)\n",
		nr->stalls, NOISE_GAP_NS, r->cpus, o->noise_ms, nr->longest_ns, nr->long_.n,
		NOISE_LONG_NS);
	put_stalls(f, "noise", &nr->short_);
	put_stalls(f, "long", &nr->long_);
}

/* The noise's lines of [spread]. */
static void put_noise_spread(FILE *f, const struct noise_result *nr)
{
	const struct stall_stats all = { nr->ppm, nr->mean_ns, nr->cv, nr->stalls };

	put_stalls(f, "noise_all", &all);
	fprintf(f,
		"noise_time_over_100us_ppm=%.0f\nnoise_time_over_1ms_ppm=%.0f\n"
		"noise_time_over_4ms_ppm=%.0f\n",
		1e6 * nr->tail[0], 1e6 * nr->tail[1], 1e6 * nr->tail[2]);
	fprintf(f, "noise_ppm_min=%.0f\nnoise_ppm_max=%.0f\nnoise_longest_ns=%.0f\n", nr->ppm_min,
		nr->ppm_max, nr->longest_ns);
}

/*
 * The data cache from the reads' step (above): a read's cost at the largest size less the
 * smallest's, spread over the lines of a message, is data_miss_ps; the cache ends between the
 * last size below half the step and the first above it (their geometric mean). A step of less
 * than a tenth of the hot read is not one: no data cache is modelled.
 */
static void put_data(FILE *f, const struct data_result *d)
{
	const int last = d->sizes - 1;
	double hot = d->read[0].median, top = d->read[last].median - hot;
	long lines = (d->charge + 63) / 64;

	fprintf(f, "# data in flight: a socket read costs %.0f ns at %ld KiB, %.0f ns at %ld KiB\n",
		hot, data_kib[0], hot + top, data_kib[last]);
	if (!(top > 0.1 * hot)) {
		fputs("# (no step: messages are read hot at every size, no data cache modelled)\n",
		      f);
		return;
	}
	int k = 1;

	while (k < last && d->read[k].median - hot < top / 2)
		k++;
	double bytes = sqrt((double)data_kib[k - 1] * (double)data_kib[k]) * 1024;

	fprintf(f, "data_cache_lines=%.0f\ndata_miss_ps=%.0f\n", bytes / 64,
		top * 1000 / (double)lines);
}

/* The task cache the rings draw (probe_ring.h), or a comment that they draw none. */
static void put_ring(FILE *f, const struct probe_result *r)
{
	char lines[1024];

	if (!r->ring_hop[0].ok)
		return;
	fprintf(f, "# rings: a hop costs %.0f ns among %d threads, %.0f ns more among %d:\n",
		r->ring_hop[0].median, ring_size[0], r->ring_rise[RING_SIZES - 1].median,
		ring_size[RING_SIZES - 1]);
	probe_ring_lines(&r->ring_cache, lines, sizeof(lines));
	fputs(lines, f);
}

/*
 * The preemption model, from debugfs (the current one is in parentheses: "none voluntary
 * (full)") or else from the version string the kernel was built with.
 */
static void read_preempt(struct probe_result *r, const char *version)
{
	static const char *const models[] = { "none", "voluntary", "full" };
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/debug/sched/preempt", "r");

	if (f) {
		bool got = fgets(buf, sizeof(buf), f) != NULL;

		fclose(f);
		for (size_t i = 0; got && i < sizeof(models) / sizeof(models[0]); i++) {
			char want[32];

			snprintf(want, sizeof(want), "(%s)", models[i]);
			if (strstr(buf, want)) {
				r->preempt = models[i];
				r->preempt_from = "/sys/kernel/debug/sched/preempt";
				return;
			}
		}
	}
	/* A dynamic kernel's build says nothing of the model it runs. */
	if (strstr(version, "PREEMPT_DYNAMIC"))
		return;
	r->preempt_from = "uname -v";
	r->preempt = strstr(version, "PREEMPT") ? "full" : "voluntary";
}

static void write_ini(FILE *f, const struct probe_result *r, const struct probe_opts *o)
{
	if (o->noise_only) {
		fprintf(f,
			"# the noise of this machine as `linsched probe --noise-only` measured it\n");
		put_noise(f, r, o);
		fputs("\n[spread]\n", f);
		put_noise_spread(f, &r->noise);
		return;
	}
	fprintf(f,
		"# machine.ini - this machine as `linsched probe` measured it; `--machine FILE`\n"
		"# loads it into a simulation. Costs are medians of %d trials, in ns; [spread] holds\n"
		"# their quartiles.\n\n",
		o->trials);
	fprintf(f, "[machine]\nkernel=%s\ncpus=%d\n", r->kernel, r->cpus);
	if (r->hz > 0)
		fprintf(f, "hz=%ld\n", r->hz);
	if (r->preempt)
		fprintf(f, "# preempt: from %s%s\npreempt=%s\n", r->preempt_from,
			strcmp(r->preempt_from, "uname -v") == 0 &&
					strcmp(r->preempt, "voluntary") == 0
				? " (no PREEMPT: voluntary or none, alike to the simulation)"
				: "",
			r->preempt);
	else
		fputs("# preempt: not known (a PREEMPT_DYNAMIC kernel without debugfs mounted)\n",
		      f);
	fprintf(f, "tick_ns=%.0f\ntick_res_ns=%.0f\ntrials=%d\n\n", r->tick_ns, r->tick_res_ns,
		o->trials);
	fputs("[costs]\n", f);
	put_cost(f, "socket_write_ns", &r->sock.write);
	put_cost(f, "socket_read_ns", &r->sock.read);
	put_cost(f, "pipe_write_ns", &r->pipe.write);
	put_cost(f, "pipe_read_ns", &r->pipe.read);
	put_cost(f, "socket_block_ns", &r->sock.block);
	put_cost(f, "pipe_block_ns", &r->pipe.block);
	put_cost(f, "wakeup_ns", &r->wakeup);
	put_cost(f, "wakeup_remote_ns", &r->wakeup_remote);
	put_cost(f, "ipi_ns", &r->ipi);
	put_cost(f, "thread_switch_ns", &r->thread_switch);
	put_cost(f, "process_switch_ns", &r->process_switch);
	if (r->data.ok)
		put_data(f, &r->data);
	put_ring(f, r);
	fprintf(f, "\n[capacity]\nmessage_bytes=%d\n", MSG_BYTES);
	if (r->sock.capacity_msgs > 0)
		fprintf(f, "socket_msgs=%ld\nsocket_sndbuf_bytes=%ld\n", r->sock.capacity_msgs,
			r->sock.buffer_bytes);
	if (r->pipe.capacity_msgs > 0)
		fprintf(f, "pipe_msgs=%ld\npipe_bytes=%ld\n", r->pipe.capacity_msgs,
			r->pipe.buffer_bytes);
	if (r->noise.ok)
		put_noise(f, r, o);
	fputs("\n[spread]\n", f);
	put_spread(f, "socket_write_ns", &r->sock.write);
	put_spread(f, "socket_read_ns", &r->sock.read);
	put_spread(f, "pipe_write_ns", &r->pipe.write);
	put_spread(f, "pipe_read_ns", &r->pipe.read);
	put_spread(f, "socket_block_ns", &r->sock.block);
	put_spread(f, "pipe_block_ns", &r->pipe.block);
	put_cost(f, "syscall_ns", &r->sock.syscall);
	put_spread(f, "syscall_ns", &r->sock.syscall);
	put_spread(f, "wakeup_ns", &r->wakeup);
	put_spread(f, "wakeup_remote_ns", &r->wakeup_remote);
	put_spread(f, "ipi_ns", &r->ipi);
	put_spread(f, "thread_switch_ns", &r->thread_switch);
	put_spread(f, "process_switch_ns", &r->process_switch);
	if (r->noise.ok)
		put_noise_spread(f, &r->noise);
	fprintf(f, "thread_round_trip_ns=%.0f\nyield_ns=%.0f\n", r->thread_rt_median,
		r->lone_yield.median);
	for (int s = 0; r->data.ok && s < r->data.sizes; s++)
		fprintf(f, "data_read_ns_%ldk=%.0f\ndata_write_ns_%ldk=%.0f\n", data_kib[s],
			r->data.read[s].median, data_kib[s], r->data.write[s].median);
	for (int i = 0; i < RING_SIZES; i++)
		if (r->ring_hop[i].ok)
			fprintf(f, "ring_hop_ns_%d=%.0f\nring_rise_ns_%d=%.0f\n", ring_size[i],
				r->ring_hop[i].median, ring_size[i], r->ring_rise[i].median);
	for (int i = 0; i < RING_SIZES; i++)
		if (r->proc_hop[i].ok)
			fprintf(f, "ring_proc_hop_ns_%d=%.0f\nring_proc_rise_ns_%d=%.0f\n",
				ring_size[i], r->proc_hop[i].median, ring_size[i],
				r->proc_rise[i].median);
}

/* Writes to a temporary file beside path, then renames it into place. */
static int write_out(const char *path, const struct probe_result *r, const struct probe_opts *o)
{
	if (strcmp(path, "-") == 0) {
		write_ini(stdout, r, o);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	int fd;
	FILE *f;

	if (!tmp)
		return -1;
	snprintf(tmp, len, "%s.tmp.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return -1;
	}
	write_ini(f, r, o);
	int ok = fflush(f) == 0 && !ferror(f) && fsync(fd) == 0;

	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* ---- the command ---------------------------------------------------------------------------- */

static int usage_error(const char *msg)
{
	fprintf(stderr, "linsched probe: %s\n", msg);
	return 2;
}

static void help(void)
{
	puts("usage: linsched probe [--out FILE] [--trials N] [--noise-ms MS] [--noise-only] [--quick]\n"
	     "\n"
	     "Measures this machine (message write and read costs on a socket pair and a pipe,\n"
	     "their capacity, reads of messages written long before, the wakeup and context-switch\n"
	     "costs, the tick, the stalls a busy task suffers) and writes it as machine.ini, which\n"
	     "`--machine FILE` loads into a simulation.\n"
	     "\n"
	     "  -o, --out FILE     where to write (default machine.ini; - for stdout)\n"
	     "  -n, --trials N     trials per measurement, 3..1000 (default 15)\n"
	     "      --noise-ms MS  how long every CPU watches for stalls, 0..600000 (default\n"
	     "                     2000; --quick: 100); 0: not at all, and no [noise]\n"
	     "      --noise-only   measure the noise alone and write only its lines\n"
	     "      --quick        short trials, for a smoke test (the numbers are noisier)");
}

int linsched_probe_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "trials", required_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, 'q' },
		{ "noise-ms", required_argument, NULL, 'N' },
		{ "noise-only", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct probe_opts o = { "machine.ini", 15, 4096, 500, 200, 200, 2000, 0, DATA_MAX_REPEATS };
	long noise_ms = -1;
	struct probe_result r;
	int opt, cpus[CPU_SETSIZE], ncpus;
	int out_given = 0, trials_given = 0; /* a flag that holds one value is given once */

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:n:h", longopts, NULL)) != -1) {
		char *end;
		long v;

		switch (opt) {
		case 'o':
			if (out_given++)
				return usage_error("--out: given twice; give it once");
			if (!*optarg)
				return usage_error("--out: an empty file name");
			o.out = optarg;
			break;
		case 'n':
			if (trials_given++)
				return usage_error("--trials: given twice; give it once");
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || isspace((unsigned char)*optarg) ||
			    v < 3 || v > MAX_TRIALS)
				return usage_error("--trials: give a whole number in 3..1000");
			o.trials = (int)v;
			break;
		case 'N':
			if (noise_ms >= 0)
				return usage_error("--noise-ms: given twice; give it once");
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || isspace((unsigned char)*optarg) ||
			    v < 0 || v > MAX_NOISE_MS)
				return usage_error("--noise-ms: give a whole number in 0..600000");
			noise_ms = v;
			break;
		case 'O':
			o.noise_only = 1;
			break;
		case 'q':
			o.ops = 256;
			o.rounds = 50;
			o.wakes = 20;
			o.tick_ms = 40;
			o.noise_ms = 100;
			o.data_repeats = 1;
			break;
		case 'h':
			help();
			return 0;
		default:
			fprintf(stderr, "linsched probe: unknown option '%s' (--help lists them)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "linsched probe: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (noise_ms >= 0)
		o.noise_ms = noise_ms;
	if (o.noise_only && o.noise_ms == 0)
		return usage_error("--noise-only: nothing to measure with --noise-ms 0");
	if (o.noise_only && trials_given)
		return usage_error("--noise-only: --trials does nothing with it");

	memset(&r, 0, sizeof(r));
	signal(SIGPIPE, SIG_IGN);
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(r.kernel, sizeof(r.kernel), "%s", u.release);
		read_preempt(&r, u.version);
	}
	ncpus = allowed_cpus(cpus, CPU_SETSIZE);
	r.cpus = ncpus;
	if (ncpus < 1) {
		fprintf(stderr, "linsched probe: cannot read the CPUs this process may use: %s\n",
			strerror(errno));
		return 1;
	}

	if (o.noise_only) {
		if (measure_noise(cpus, ncpus, &o, &r.noise) != 0) {
			fprintf(stderr, "linsched probe: the noise measurement failed: %s\n",
				strerror(errno));
			return 1;
		}
		if (write_out(o.out, &r, &o) != 0) {
			fprintf(stderr, "linsched probe: cannot write %s: %s\n", o.out,
				strerror(errno));
			return 1;
		}
		return 0;
	}
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0)
		r.tick_res_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
	pin(cpus[0]);
	r.tick_ns = observed_tick(o.tick_ms);
	/* The coarse clock's resolution is the kernel's jiffy; the steps a busy loop sees are
	 * whole jiffies, more than one when a tick was late or skipped (a virtual CPU's). */
	if (r.tick_res_ns > 0)
		r.hz = (long)(1e9 / r.tick_res_ns + 0.5);
	else if (r.tick_ns > 0)
		r.hz = (long)(1e9 / r.tick_ns + 0.5);

	if (measure_channel(1, &o, &r.sock) != 0 || measure_channel(0, &o, &r.pipe) != 0) {
		fprintf(stderr, "linsched probe: a socket pair or pipe failed: %s\n",
			strerror(errno));
		return 1;
	}
	if (measure_data(&o, &r.sock, &r.data) != 0) {
		fprintf(stderr, "linsched probe: the data-in-flight measurement failed: %s\n",
			strerror(errno));
		return 1;
	}
	double lag[MAX_TRIALS];

	if (ncpus >= 2 &&
	    measure_wakeup(&o, cpus[0], cpus[1], r.sock.write.median, &r.wakeup_remote, lag) != 0) {
		fprintf(stderr, "linsched probe: the wakeup measurement failed: %s\n",
			strerror(errno));
		return 1;
	}

	double v[MAX_TRIALS];

	pin(cpus[0]);
	time_yields(&o, v);
	r.lone_yield = summarise(v, o.trials);
	if (measure_yield_switch(cpus[0], &o, r.lone_yield.median, &r.thread_switch) != 0) {
		fprintf(stderr, "linsched probe: the yield ping-pong failed: %s\n",
			strerror(errno));
		return 1;
	}
	/* The message ping-pong between threads: what is left of half a round trip after the
	 * write, the read and the switch is the wakeup on the same CPU. Between processes the
	 * same round trip costs more by two address-space switches. */
	double vp[MAX_TRIALS];

	if (measure_pingpong(0, cpus[0], &o, v) != 0 || measure_pingpong(1, cpus[0], &o, vp) != 0) {
		fprintf(stderr, "linsched probe: the ping-pong failed: %s\n", strerror(errno));
		return 1;
	}
	for (int t = 0; t < o.trials; t++)
		vp[t] = r.thread_switch.median + (vp[t] - v[t]) / 2;
	double hop[RING_SIZES][MAX_TRIALS];

	if (measure_rings(0, cpus[0], &o, hop) != 0) {
		fprintf(stderr, "linsched probe: the rings of threads failed: %s\n",
			strerror(errno));
		return 1;
	}
	ring_summary(hop, o.trials, &r);
	if (measure_rings(1, cpus[0], &o, hop) != 0) {
		fprintf(stderr, "linsched probe: the rings of processes failed: %s\n",
			strerror(errno));
		return 1;
	}
	ring_stats(hop, o.trials, r.proc_hop, r.proc_rise);
	/* What the remote wakee's wait leaves beside the write, its read and its switch. */
	if (ncpus >= 2) {
		for (int t = 0; t < o.trials; t++)
			lag[t] -= r.sock.write.median + r.sock.read.median + r.thread_switch.median;
		r.ipi = summarise(lag, o.trials);
	}
	if (o.noise_ms > 0 && measure_noise(cpus, ncpus, &o, &r.noise) != 0) {
		fprintf(stderr, "linsched probe: the noise measurement failed: %s\n",
			strerror(errno));
		return 1;
	}
	r.process_switch = summarise(vp, o.trials);
	r.thread_rt_median = summarise(v, o.trials).median;
	r.wakeup = wakeup_cost(v, o.trials,
			       r.sock.write.median + r.sock.read.median + r.sock.block.median +
				       r.thread_switch.median);
	if (write_out(o.out, &r, &o) != 0) {
		fprintf(stderr, "linsched probe: cannot write %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	return 0;
}
