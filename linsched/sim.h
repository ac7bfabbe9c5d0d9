/*
 * sim.h - a simulation: virtual time, CPUs, tasks and the CFS policy, as one value.
 *
 * The engine is event driven. It jumps from event to event: a task finishing the CPU work of its
 * current step, a scheduler tick (every jiffy, only on busy CPUs: NO_HZ idle), a sleeping task's
 * timer. Scheduling decisions are the policy's (kernel-extract/): the engine calls the core
 * (fork, wakeup, tick, schedule) and charges the costs a real machine pays in virtual time.
 *
 * A simulation owns everything it uses and touches no global state, so simulations may run in
 * parallel threads. A single simulation is not thread safe.
 *
 * Task models (tasks/) drive their tasks through struct linsched_task_ops: each time a task is on
 * a CPU with no work left, the engine asks its model for the next step: run for N ns of CPU time,
 * block on a wait queue, sleep for N ns, or exit. A task preempted in the middle of a step keeps
 * the work it has left.
 */
#ifndef LINSCHED_SIM_H
#define LINSCHED_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <gsl/gsl_rng.h>

#include "kernel-extract/sched.h"
#include "linsched/cache.h"
#include "linsched/list.h"
#include "linsched/machine.h"

#define LINSCHED_COMM_LEN 16

/*
 * What a machine charges in virtual time beyond the tasks' own work. Each is charged to the task
 * that runs while it is paid, as a kernel's accounting would.
 */
struct linsched_costs {
	uint64_t switch_ns; /* switching to another task (context switch) */
	uint64_t wakeup_ns; /* waking a task, charged to the waker (a timer's to the woken) */
	/*
	 * Waking it onto another CPU that the wakeup makes reschedule (idle, or preempted by the
	 * woken task): the kernel's IPI. Queued there behind a task that keeps the CPU, it costs
	 * wakeup_ns. 0: wakeup_ns always.
	 */
	uint64_t wakeup_remote_ns;
	/*
	 * The flight of that IPI: the other CPU reschedules ipi_ns after the wakeup that asked it
	 * to, when the interrupt arrives. Its task runs on meanwhile, and may sleep first; a tick
	 * there, or its own sleep, reschedules it at once. A wakeup onto an idle CPU waits as long.
	 * 0: at once.
	 */
	uint64_t ipi_ns;
	/*
	 * Where a wakeup falls for its waker: > 0 splits it as the kernel's try_to_wake_up does.
	 * The waker pays wakeup_ns less this tail before the wakee is on a queue, and the tail
	 * after (or, for a wakeup that sends an IPI, what is left of wakeup_remote_ns), all with
	 * preemption off, so that a wakee that preempts its waker waits for the tail; several
	 * wakees are queued one after another. 0: the wakee is queued at once and the waker pays
	 * the whole wakeup after, preemptible (the machines fitted before the split).
	 */
	uint64_t wakeup_tail_ns;
	uint64_t migrate_ns; /* a task arriving on another CPU, charged to it */
	/*
	 * Cache reload (Tucker 1993): a task switched in reloads the part of its footprint evicted
	 * since it last ran in that memory domain; a task arriving from another domain starts cold.
	 */
	uint64_t cache_lines; /* last-level cache size per memory domain, in lines */
	uint64_t miss_ps;     /* cost of reloading one line, in picoseconds */
	uint64_t cache_ways;  /* 0: fully associative; else ways a set (linsched/cache.h) */
	/*
	 * Data in flight (linsched/cache.h): a model's message read after data_cache_lines lines
	 * of other data entered its domain's cache is gone from it, and each of its lines costs
	 * data_miss_ps to read. data_cache_lines 0: no such cost (every message is read hot).
	 */
	uint64_t data_cache_lines;
	uint64_t data_miss_ps;
	/*
	 * Run-to-run variation: with jitter_cv > 0 every context switch and wakeup, and every
	 * operation a task model draws through linsched_cost (hackbench's writes and reads), costs
	 * a gamma-distributed time with the configured mean and this coefficient of variation,
	 * drawn per operation from one stream seeded by the simulation's seed.  0 (the default):
	 * every cost is its mean, and a simulation is the same for every seed.
	 */
	double jitter_cv;
	/*
	 * Steal (a virtual CPU whose host runs other work): each CPU is stalled steal_ppm of the
	 * time, in stalls of mean stall_ns (gamma distributed with coefficient of variation
	 * stall_cv: exponential at 1) that start at random moments (exponentially distributed
	 * runs between them), drawn from a stream seeded by the simulation's seed.
	 * While stalled a CPU executes nothing: its task's work and costs wait, ticks and
	 * reschedules wait for the stall's end, and tasks woken onto it wait; but its clock runs,
	 * so its task is charged the stolen time. 0: no steal.
	 */
	uint64_t steal_ppm;
	uint64_t stall_ns;
	double stall_cv;
	/*
	 * Turns (a host that runs several virtual CPUs on one of its CPUs, as a loaded host's
	 * scheduler may put them): 1 <= host_cpus < nr_cpus makes the virtual CPUs share that
	 * many host CPUs. At any moment host_cpus of them run and the others wait, stalled; a
	 * CPU's turn lasts stall_ns on average (gamma, CV stall_cv), then it goes to the back of
	 * the queue and the CPU that waited longest runs. Each CPU so waits 1 - host_cpus/nr_cpus
	 * of the time, and no two turns of one host CPU overlap, where steal_ppm's stalls strike
	 * each CPU independently. The turns replace steal_ppm's stalls, which must be 0 unless
	 * spells alternate the two (shared_ns, apart_ns). 0: none.
	 */
	unsigned int host_cpus;
	/*
	 * The host's tick (a host that shares each of its CPUs between a virtual CPU and other
	 * work of equal weight, and switches them only at its tick, as Linux does when the slice
	 * is shorter than the tick): host_hz > 0 puts steal_ppm's stalls on the host's tick grid,
	 * the instants k / host_hz - host_lead_ns of the guest's clock, so host_lead_ns before
	 * the guest's own ticks when the two HZ are equal. A CPU runs and waits whole host ticks,
	 * a geometric number of each: stalls of stall_ns on average but at least one tick, runs of
	 * the mean that makes steal_ppm; where that is less than a tick, runs of
	 * one tick and stalls of the mean that makes it. stall_cv is not used. With host_cpus the
	 * turns go by the host's ticks instead: each ends at a tick, after a geometric number of
	 * them (stall_ns on average, at least one; the first is what is left of the tick it began
	 * in). Without steal or turns it has nothing to place. 0: at random moments.
	 */
	unsigned int host_hz;
	uint64_t host_lead_ns;
	/*
	 * Spells (a loaded host whose balancer moves the virtual CPUs' threads: beside two busy
	 * loops on two host CPUs, host-2's put both runnable vCPUs on one of them for none to all
	 * of a run, changing within it; vm/README.md, "Where the host puts the vCPU threads"):
	 * shared_ns > 0 and apart_ns > 0 make the CPUs alternate between spells of turns on
	 * host_cpus host CPUs, shared_ns long on average, and spells on host CPUs of their own with
	 * steal_ppm's stalls, apart_ns on average; both exponential, drawn from a stream of their
	 * own, the first from their shares of the time. A spell of turns begins with the CPUs that
	 * have work taking the free host CPUs in an order drawn and the rest waiting; a spell apart
	 * with each CPU in a fresh stall (with the steal's share of the time) or a fresh run, so
	 * that the spells keep the steal's share. Needs host_cpus; steal_ppm may then be given
	 * too. 0: no spells.
	 */
	uint64_t shared_ns;
	uint64_t apart_ns;
	/*
	 * Noise: stalls of the machine's own, which the guest sees even when its host steals
	 * nothing (under emulation: timer interrupts, translation, the emulator's housekeeping).
	 * The same kind of stall as steal's, drawn from a stream of its own and independent of it:
	 * a CPU is stalled while either holds it. Only a machine.ini sets it ([noise]); 0: none.
	 */
	uint64_t noise_ppm;
	uint64_t noise_ns;
	double noise_cv;
	/*
	 * The noise's long stalls, as a source of their own: a virtual CPU that loses a whole
	 * host tick now and then (milliseconds) beside its frequent short stalls (tens of µs),
	 * which no single gamma of the measured mean and CV reproduces (machine.ini [noise]
	 * long_*; 0: none).
	 */
	uint64_t long_ppm;
	uint64_t long_ns;
	double long_cv;
};

#define LINSCHED_MAX_JITTER_CV	      2.0
#define LINSCHED_MAX_STALL_CV	      10.0
#define LINSCHED_PPM		      1000000ULL
#define LINSCHED_MAX_DATA_CACHE_LINES (1ULL << 40) /* its bytes must fit in 64 bits */

struct linsched_config {
	const struct sched_profile *profile;
	unsigned int nr_cpus;
	unsigned int nr_domains; /* memory domains; nr_cpus must be a multiple */
	unsigned int hz;	 /* 100, 250, 300 or 1000 */
	/* Where a task can lose its CPU (machine.h); FULL by default, the machine's if it says. */
	enum linsched_preempt preempt;
	struct sched_tunables tun; /* as a sysctl would show them */
	struct linsched_costs costs;
	/* The machine modelled: costs comes from it, and the task models read their own costs
	 * (a message's, a channel's size) from it. */
	struct linsched_machine machine;
	uint64_t seed;
	uint64_t duration_ns; /* stop this long after virtual time 0 (not after the epoch);
	                              * 0: when every task has exited */
};

/* Fills cfg with the profile's defaults for nr_cpus CPUs (knobs scaled as at boot), on the
 * built-in machine. */
void linsched_config_init(struct linsched_config *cfg, const struct sched_profile *profile,
			  unsigned int nr_cpus);
/* Models machine m: its costs, and its HZ and preemption model when it knows them. */
void linsched_config_set_machine(struct linsched_config *cfg, const struct linsched_machine *m);
/* Checks every field; the message names the offending setting. */
bool linsched_config_validate(const struct linsched_config *cfg, GError **error);

struct linsched_sim;
struct linsched_task;

struct linsched_waitqueue {
	struct list_head waiters;
	/* The kernel queues a non-exclusive waiter (poll, a socket's reader or writer) at the head
	 * of a wait queue and wakes from the head: the last to block wakes first. Exclusive
	 * waiters queue at the tail, first come first woken. */
	bool lifo;
};

enum linsched_step_kind {
	LINSCHED_STEP_RUN,   /* use ns of CPU time */
	LINSCHED_STEP_BLOCK, /* sleep on wq until woken */
	LINSCHED_STEP_SLEEP, /* sleep for ns */
	LINSCHED_STEP_EXIT,
};

struct linsched_step {
	enum linsched_step_kind kind;
	uint64_t ns;
	struct linsched_waitqueue *wq;
	/*
	 * A RUN step spent in a system call that returns to user space at its end (a write, a
	 * read): under voluntary preemption a reschedule waits for that end, and for the costs the
	 * task owes before its next step. A task that blocked or slept is in the kernel too until
	 * its next step (it wakes inside the call that slept), and a step decided while costs are
	 * owed (a block after a read that found nothing) is part of the same call. false: user
	 * space, preemptible anywhere.
	 */
	bool kernel;
};

struct linsched_task_ops {
	const char *kind;
	/* Called once, when the task is first on a CPU. Optional. */
	void (*start)(struct linsched_task *t);
	/* The next step, decided when the task is on a CPU with no work left. */
	void (*next)(struct linsched_task *t, struct linsched_step *step);
	/* Frees the model's data when the simulation is freed. Optional. */
	void (*free)(void *data);
};

/* Per-task results, as schedstats keeps them. Times in ns. */
struct linsched_task_stats {
	int id;
	const char *name;
	int nice;
	int cpu; /* the CPU it is on, or last ran on */
	uint64_t sum_exec_ns;
	uint64_t run_delay_ns;
	unsigned long pcount;
	unsigned long nvcsw, nivcsw;
	uint64_t nr_migrations;
	bool exited;
	uint64_t exit_ns; /* from the epoch (see linsched_sim_set_epoch); the other
	                              * figures count from the task's creation */
};

struct linsched_result {
	uint64_t runtime_ns; /* from the epoch to the last exit, or to the end of the run */
	uint64_t jiffies;    /* runtime_ns in ticks, rounded up */
	uint64_t context_switches;
	uint64_t migrations;
	/* The kernel's schedstat wakeup counters summed (sched_system's wake_stats): wakeups, those
	 * that ended on another CPU than the waker's, those wake_affine weighed, those it moved. */
	uint64_t wakeups, wakeups_remote, wake_affine_attempts, wake_affine_moves;
	uint64_t data_miss_lines; /* lines of data in flight read evicted (linsched_data_read_ns) */
	uint64_t *cpu_busy_ns;	  /* nr_cpus of them, owned by the simulation */
	unsigned int nr_cpus;
	bool deadlock; /* tasks blocked forever with nothing left to wake them */
};

struct linsched_sim *linsched_sim_new(const struct linsched_config *cfg);
void linsched_sim_free(struct linsched_sim *sim);
const struct linsched_config *linsched_sim_config(const struct linsched_sim *sim);
uint64_t linsched_sim_now(const struct linsched_sim *sim);
uint64_t linsched_sim_tick_ns(const struct linsched_sim *sim);
/* Events whose invariants the -DSCHED_DEBUG build checked (linsched/sched_debug.h); 0 in others. */
uint64_t linsched_sim_debug_checks(const struct linsched_sim *sim);

/*
 * Creates a task and makes it runnable on the CPU fork balancing picks. The model's data belongs
 * to the simulation from now on (ops->free frees it). name is copied (truncated to 15 chars).
 */
struct linsched_task *linsched_task_create(struct linsched_sim *sim,
					   const struct linsched_task_ops *ops, void *data,
					   const char *name, int nice);
/*
 * The same for a task that asks for its own slice (ns), as sched_setattr(sched_runtime) would on
 * Linux 6.12 and later (EEVDF profiles that have SF_CUSTOM_SLICE); 0: the base slice.
 */
struct linsched_task *linsched_task_create_sliced(struct linsched_sim *sim,
						  const struct linsched_task_ops *ops, void *data,
						  const char *name, int nice, uint64_t slice_ns);
void *linsched_task_data(const struct linsched_task *t);
struct linsched_sim *linsched_task_sim(const struct linsched_task *t);
int linsched_task_id(const struct linsched_task *t);
/* The task's own random stream, seeded from the simulation's seed and the task id. */
gsl_rng *linsched_task_rng(struct linsched_task *t);
/* Its cache footprint in lines (0 by default: no cache reload cost). */
void linsched_task_set_footprint(struct linsched_task *t, uint64_t lines);
/* Extra CPU time the task pays when it next runs (a model's own costs, e.g. a syscall's). */
void linsched_task_charge(struct linsched_task *t, uint64_t ns);
/* t was forked by parent: it starts with what the kernel's fork keeps of the parent's scheduling
 * state (its wakee history: sched_fork_inherit). Call it right after creating t. */
void linsched_task_forked_by(struct linsched_task *t, const struct linsched_task *parent);
/* The wakee_flips t starts with: what it brings from whoever started it (a benchmark's parent
 * from the shell that ran it), which wake_wide weighs. Call it right after creating t. */
void linsched_task_set_wakee_flips(struct linsched_task *t, unsigned int flips);
/*
 * The cost of one operation whose mean is mean_ns: mean_ns itself when costs.jitter_cv is 0,
 * else a draw from the simulation's cost stream (see struct linsched_costs).
 */
uint64_t linsched_cost(struct linsched_sim *sim, uint64_t mean_ns);

/*
 * Data in flight (struct linsched_costs, linsched/cache.h). t writes bytes of new data now, on
 * its CPU: the stamp goes with the data. t reads bytes written at s: the CPU time the lines of it
 * that are gone from t's domain's data cache cost (0 when the machine models none).
 */
struct cache_stamp linsched_data_write(struct linsched_task *t, uint64_t bytes);
uint64_t linsched_data_read_ns(struct linsched_task *t, struct cache_stamp s, uint64_t bytes);

/* A queue woken first blocked first (the kernel's exclusive waiters). */
void linsched_waitqueue_init(struct linsched_waitqueue *wq);
/* A queue woken last blocked first (the kernel's non-exclusive waiters). */
void linsched_waitqueue_init_lifo(struct linsched_waitqueue *wq);
bool linsched_waitqueue_active(const struct linsched_waitqueue *wq);
/*
 * Wakes up to nr tasks blocked on wq (0: all), in the queue's order. Called from the model of the
 * running task waker, which pays the wakeup cost; sync says the waker is about to block (a hint
 * for wake-affine placement). Returns how many woke.
 */
unsigned int linsched_wake_up(struct linsched_task *waker, struct linsched_waitqueue *wq,
			      unsigned int nr, bool sync);

/* Measure runtime from now on (a model's start barrier releases here). */
void linsched_sim_set_epoch(struct linsched_sim *sim);

/* Called at every context switch (prev or next NULL: idle), e.g. to write a trace. */
typedef void (*linsched_switch_fn)(void *ctx, int cpu, uint64_t now,
				   const struct linsched_task *prev,
				   const struct linsched_task *next);
void linsched_sim_set_switch_hook(struct linsched_sim *sim, linsched_switch_fn fn, void *ctx);
/*
 * Called at every wakeup that made a sleeping task runnable, after the policy placed it on
 * target_cpu (and decided whether it preempts), as the kernel's sched_wakeup tracepoint fires.
 * waker is the running task that woke it on cpu, or NULL for a timer's wakeup (cpu is then the
 * target CPU).
 */
typedef void (*linsched_wakeup_fn)(void *ctx, int cpu, uint64_t now,
				   const struct linsched_task *waker,
				   const struct linsched_task *wakee, int target_cpu);
void linsched_sim_set_wakeup_hook(struct linsched_sim *sim, linsched_wakeup_fn fn, void *ctx);
/* Called when a model sets the epoch, e.g. so that a trace starts over with the measured run. */
typedef void (*linsched_epoch_fn)(void *ctx, const struct linsched_sim *sim);
void linsched_sim_set_epoch_hook(struct linsched_sim *sim, linsched_epoch_fn fn, void *ctx);

/* Runs until every task has exited or the configured duration has passed. */
void linsched_sim_run(struct linsched_sim *sim);
const struct linsched_result *linsched_sim_result(const struct linsched_sim *sim);

unsigned int linsched_sim_nr_tasks(const struct linsched_sim *sim);
struct linsched_task *linsched_sim_task(const struct linsched_sim *sim, unsigned int i);
void linsched_task_stats(const struct linsched_task *t, struct linsched_task_stats *out);
/* The scheduler's view, for tests and traces. */
const struct task_struct *linsched_task_sched(const struct linsched_task *t);
const struct sched_system *linsched_sim_sched(const struct linsched_sim *sim);

#endif
