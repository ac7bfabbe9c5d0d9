/*
 * machine.h - the machine a simulation models (SPEC.md §7): the CPU time each operation costs,
 * how much a channel holds, the tick. The scheduler's knobs are in absolute nanoseconds, so the
 * same knobs act differently on a machine whose messages cost ten times as much: the machine is
 * half of what a simulation predicts.
 *
 * The built-in machine holds the values measured by hand on the development machines (a 2-core
 * AMD EPYC VM, kernel 6.18; README.md, "How the hackbench defaults were measured"). `linsched
 * probe` measures the machine it runs on into machine.ini; linsched_machine_load reads such a
 * file over the built-in machine, so that a key it lacks (the cache, which no probe measures)
 * keeps the built-in value.
 *
 * machine.ini is GKeyFile's format: [group] lines, key=value lines, # comments.
 *
 *   [machine]   hz (the default --hz), preempt (full, voluntary or none: the default --preempt,
 *               the one key that is not a number), and kernel, cpus, tick_ns, tick_res_ns,
 *               trials (read, not used)
 *   [costs]     ns: socket_write_ns, socket_read_ns, pipe_write_ns, pipe_read_ns,
 *               socket_block_ns, pipe_block_ns (a read that finds the channel empty or a write
 *               that finds it full, up to its sleep; 0 by default), wakeup_ns,
 *               process_wakeup_ns (a wakeup of one process by another, where a workload knows
 *               its tasks are processes; 0 or absent: wakeup_ns), wakeup_remote_ns,
 *               ipi_ns (the flight of a reschedule interrupt to another CPU) and
 *               wakeup_tail_ns (what a waker pays of a wakeup after the wakee is queued,
 *               the rest before; both 0 by default: sim.h, linsched_costs),
 *               thread_switch_ns, process_switch_ns, switch_ns, migrate_ns;
 *               and cache_lines, miss_ps, footprint_lines (the cache footprint of a workload's
 *               task; absent or 0, the task model's own default), cache_ways (0 or absent:
 *               fully associative; 1..64: that many ways a set, linsched/cache.h), which
 *               `linsched probe` draws from rings of threads and `tuner fit` fits; data_cache_lines and data_miss_ps, the cache a
 *               message's data must still be in when it is read and the cost of each of its
 *               lines that is not (linsched/cache.h; fitted too; absent or 0: messages are read
 *               hot, their cost the probe's)
 *   [capacity]  message_bytes, socket_msgs, socket_sndbuf_bytes, pipe_bytes, pipe_msgs: a
 *               socket holds socket_msgs messages of message_bytes, so each is charged
 *               sndbuf / msgs - message_bytes bytes beyond its data
 *   [steal]     what the host takes from a virtual CPU: steal_ppm (the share of time each CPU
 *               is held by the host, in parts per million), stall_ns (the mean length of one
 *               such stall) and stall_cv_pct (their coefficient of variation in percent, 100 by
 *               default: exponential); no steal by default. host_hz and host_lead_ns put the
 *               stalls on the host's ticks (linsched_costs, sim.h); 0 or absent: at random.
 *               host_cpus, shared_ns and apart_ns: spells in which the CPUs share host_cpus
 *               host CPUs in turns, between spells on CPUs of their own with the steal (sim.h);
 *               0 or absent: none
 *   [noise]     the machine's own stalls, which a guest sees even on an idle host (under
 *               emulation: its interrupts, translation, the emulator's housekeeping): noise_ppm,
 *               noise_ns, noise_cv_pct, as [steal]'s; `linsched probe` measures them. They add
 *               to the steal, which the tuner replaces per run by what the host measured;
 *               long_ppm, long_ns, long_cv_pct: the noise's long stalls (a host tick lost
 *               now and then), a source of their own beside the short ones
 *   [launch]    wakee_flips: the wake_wide history (sched_core.h, sched_fork_inherit) that a
 *               benchmark's parent brings from the shell that starts it and hands to every worker
 *               it forks; absent: 0
 *   [spread]    anything (the probe's quartiles; read, not used)
 *
 * Every value is a whole number. An unknown group or key, a bad value or a line that is none of
 * these is an error naming the file and line; GKeyFile would not say the line, hence the
 * reader of its own.
 */
#ifndef LINSCHED_MACHINE_H
#define LINSCHED_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#define LINSCHED_DEFAULT_SWITCH_NS  2000
#define LINSCHED_DEFAULT_WAKEUP_NS  1000
#define LINSCHED_DEFAULT_MIGRATE_NS 5000
#define LINSCHED_DEFAULT_CACHE_LINES \
	(32ULL * 1024 * 1024 / 64)    /* 32 MiB of 64-byte lines (this kind of machine's L3) */
#define LINSCHED_DEFAULT_MISS_PS 5000 /* 5 ns a line */

/*
 * Where the kernel may preempt a task (CONFIG_PREEMPT_*, or the preempt= of a PREEMPT_DYNAMIC
 * kernel, which /sys/kernel/debug/sched/preempt shows and sets). Under full preemption a
 * reschedule takes the CPU at once. Under voluntary (Debian's kernels) and none, a task inside a
 * system call keeps the CPU until the call returns to user space or sleeps: the wakee of a write
 * waits for the writer's return, and a CPU told by an IPI to reschedule waits for its task's.
 * The two differ only at cond_resched() points, which no modelled system call reaches.
 */
enum linsched_preempt {
	LINSCHED_PREEMPT_UNSET, /* a machine.ini that does not say: the simulation's default */
	LINSCHED_PREEMPT_FULL,
	LINSCHED_PREEMPT_VOLUNTARY,
	LINSCHED_PREEMPT_NONE,
};

/* The models' names as errors list them. */
#define LINSCHED_PREEMPT_NAMES "full, voluntary, none"

/* "full", "voluntary", "none"; NULL for UNSET. */
const char *linsched_preempt_name(enum linsched_preempt p);
/* UNSET when name is none of those. */
enum linsched_preempt linsched_preempt_parse(const char *name);

struct linsched_machine {
	unsigned int hz; /* the kernel's tick rate; 0: not known (the simulation's default) */
	enum linsched_preempt preempt; /* the kernel's preemption model; UNSET: not known */
	uint64_t switch_ns;	       /* a context switch, of any task */
	uint64_t thread_switch_ns, process_switch_ns; /* between threads, between processes */
	uint64_t wakeup_ns;			      /* a wakeup, to the waker */
	uint64_t process_wakeup_ns;    /* one between processes (hackbench -P); 0: wakeup_ns */
	uint64_t wakeup_remote_ns;     /* one sending an IPI (sim.h); 0: wakeup_ns */
	uint64_t ipi_ns;	       /* that IPI's flight to the other CPU's reschedule */
	uint64_t wakeup_tail_ns;       /* of a wakeup, paid after the wakee is queued (sim.h) */
	uint64_t migrate_ns;	       /* a task arriving on another CPU */
	uint64_t cache_lines, miss_ps; /* last-level cache, line reload */
	uint64_t cache_ways;	       /* 0: fully associative (linsched/cache.h) */
	uint64_t socket_write_ns, socket_read_ns; /* one message on a Unix socket */
	uint64_t pipe_write_ns, pipe_read_ns;	  /* one message on a pipe */
	/* A read that finds the channel empty (a write that finds it full): the system call up to
	 * its sleep, which the probe measures as a non-blocking read of an empty channel. */
	uint64_t socket_block_ns, pipe_block_ns;
	uint64_t socket_sndbuf_bytes; /* a socket's send buffer */
	uint64_t socket_msg_overhead; /* bytes charged per message beyond its data */
	uint64_t pipe_bytes;	      /* a pipe's buffer */
	/*
	 * A virtual CPU whose host runs other work is stalled now and then: it executes nothing
	 * while its clock goes on, so the task it was running is charged the stolen time (a guest
	 * without steal-time accounting, as under qemu's TCG). steal_ppm of the time, in stalls of
	 * stall_ns on average; 0: a CPU of its own.
	 */
	uint64_t steal_ppm;
	uint64_t stall_ns;
	uint64_t
		stall_cv_pct; /* the stalls' coefficient of variation, in percent (100: exponential) */
	unsigned int host_hz; /* > 0: the stalls on the host's ticks of this HZ (sim.h) */
	/* The wakee_flips a benchmark's parent brings from the shell that starts it ([launch]). */
	uint64_t launch_wakee_flips;
	uint64_t host_lead_ns; /* how long before the guest's ticks the host's come */
	/* Spells of turns on host_cpus host CPUs and spells apart (sim.h); 0: none. */
	uint64_t host_cpus, shared_ns, apart_ns;
	/* The machine's own stalls, on top of the host's: the same model, independent of it. */
	uint64_t noise_ppm;
	uint64_t noise_ns;
	uint64_t noise_cv_pct;
	/* Its long stalls (whole host ticks), a second source beside the short ones. */
	uint64_t long_ppm;
	uint64_t long_ns;
	uint64_t long_cv_pct;
	uint64_t footprint_lines; /* a task's cache footprint; 0: the task model's default */
	/* Data in flight (linsched/cache.h): the cache a message is read from, in lines (0: none
	 * modelled, every message is read hot), and the cost of each line of it found evicted. */
	uint64_t data_cache_lines;
	uint64_t data_miss_ps;
};

void linsched_machine_builtin(struct linsched_machine *m);
/* Reads path over the built-in machine into m; the error names the file and the line. */
bool linsched_machine_load(const char *path, struct linsched_machine *m, GError **error);

/* Whether hz is a tick rate the kernel can be built with (CONFIG_HZ: 100, 250, 300, 1000), the
 * only ones a simulation or a machine.ini takes. */
bool linsched_hz_valid(uint64_t hz);

/*
 * The HZ of the kernel this process runs on, for a command that compares its simulation with
 * real runs made here: 1 s over one jiffy, the resolution of CLOCK_MONOTONIC_COARSE (which
 * advances once a tick), rounded; 0 when that clock cannot say or gives no valid HZ. `linsched
 * probe` reads the same clock itself: it is linked without this library, for the VM's initramfs.
 */
unsigned int linsched_host_hz(void);

#define LINSCHED_MACHINE_ERROR g_quark_from_static_string("linsched-machine")

#endif
