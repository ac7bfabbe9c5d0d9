/*
 * sched.h - the scheduler's data structures, after the kernel's include/linux/sched.h and
 * kernel/sched.c: load weights, sched_entity, cfs_rq, rq, the part of task_struct the scheduler
 * reads, and the per-simulation "system" that holds what the kernel keeps in globals (tunables,
 * features, the run queues, the domain topology).
 *
 * Nothing here is global: every rq points at the sched_system it belongs to, so any number of
 * simulations can run side by side in one process.
 *
 * Units: every time is a u64 in nanoseconds of virtual time; vruntime is in "virtual" ns, i.e.
 * real ns scaled by NICE_0_LOAD / weight.
 */
#ifndef KERNEL_EXTRACT_SCHED_H
#define KERNEL_EXTRACT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel-extract/rbtree.h"
#include "kernel-extract/sched_features.h"

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC  1000000000ULL

#define NICE_0_LOAD 1024UL
#define MAX_NICE    19
#define MIN_NICE    (-20)
#define NICE_WIDTH  40
/* Fixed-point scale of the inverse weights: inv_weight = 2^32 / weight. */
#define WMULT_CONST 0xffffffffULL
#define WMULT_SHIFT 32

/* The engine represents CPU sets as 64-bit masks, hence the limit. */
#define SCHED_MAX_CPUS 64

struct sched_class;
struct sched_system;
struct rq;

struct load_weight {
	unsigned long weight;
	u32 inv_weight; /* 2^32 / weight for a task's table weight; 0 for a queue's summed weight */
};

/*
 * Per-entity load tracking (PELT), as 6.1's wakeup placement reads it: a load that follows the
 * weight while runnable and fades while asleep, with the kernel's half-life of 32 periods of
 * 1024 us (y^32 = 1/2). The kernel sums whole periods in fixed point; this decays continuously.
 * A queue's average is the sum of its entities', the sleeping ones included, which stay on the
 * CPU they last ran on until they wake elsewhere.
 */
struct sched_avg {
	u64 last_update_time;
	double load_avg;
};

/* One schedulable entity; without group scheduling every entity is a task. */
struct sched_entity {
	struct load_weight load;
	struct rb_node run_node;
	unsigned int on_rq; /* counted in its cfs_rq (in the tree, or curr) */

	u64 exec_start; /* clock when it was last charged by update_curr */
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime; /* sum_exec_runtime when it was last picked */
	u64 vruntime;
	u64 nr_migrations;
	struct cfs_rq *cfs_rq; /* the queue of the CPU it is on, or last ran on */

	/* EEVDF (sched_eevdf.c) only; CFS leaves them zero. */
	u64 deadline;	  /* virtual deadline: vruntime + slice in the entity's virtual time */
	u64 slice;	  /* the request, in ns: base_slice, or the task's own (custom_slice) */
	s64 vlag;	  /* lag saved at dequeue (avg_vruntime - vruntime), restored at enqueue */
	u64 vprot;	  /* RUN_TO_PARITY: not preempted while vruntime is below this */
	u64 min_vruntime; /* least vruntime in this entity's subtree of the timeline */
	u64 min_slice, max_slice; /* least and greatest slice in that subtree */
	bool custom_slice;	  /* slice was set per task (sched_setattr), not from base_slice */
	bool sched_delayed; /* blocked, but left queued until it is eligible (DELAY_DEQUEUE) */
	bool rel_deadline;  /* deadline holds deadline - vruntime while off a queue */
	struct sched_avg avg;
	bool avg_attached; /* its avg is counted in cfs_rq's */
};

/*
 * CFS run queue: the time-ordered tree of runnable entities. curr is not in the tree. CFS orders it
 * by vruntime; EEVDF by deadline, and keeps the weighted sum of the tree's vruntimes relative to
 * min_vruntime, so that the average is exact in integers.
 */
struct cfs_rq {
	struct load_weight load; /* sum of the weights of every queued entity, curr included */
	unsigned int nr_running;
	u64 min_vruntime; /* monotonic: never decreases */
	struct rb_root_cached tasks_timeline;
	s64 avg_vruntime;	/* EEVDF: sum of (vruntime - min_vruntime) * weight over the tree */
	unsigned long avg_load; /* EEVDF: sum of the weights in the tree (curr excluded) */

	struct sched_entity *curr;
	struct sched_entity *next; /* wakeup buddy: the task just woken */
	struct sched_entity *last; /* the task the wakeup preempted */
	struct sched_avg avg;	   /* with SF_WAKE_AFFINE_SIS */
};

/* sched_info, as schedstats keeps it (/proc/PID/schedstat). */
struct sched_info {
	unsigned long pcount; /* times it was switched in */
	u64 run_delay;	      /* time spent runnable on a run queue but not running */
	u64 last_arrival;     /* when it was last switched in */
	u64 last_queued;      /* when it last became runnable and waiting, if queued */
	bool queued;	      /* waiting on a run queue (time 0 is a valid last_queued) */
};

enum task_state {
	TASK_NEW,	    /* created, never enqueued */
	TASK_RUNNING,	    /* runnable: queued or on a CPU */
	TASK_INTERRUPTIBLE, /* blocked: on a wait queue or a timer */
	TASK_DEAD,
};

/* The scheduler's view of a task. The engine embeds it in its own task. */
struct task_struct {
	int pid;
	int static_prio; /* 120 + nice */
	enum task_state state;
	int cpu;     /* the rq it is on, or last ran on */
	bool on_cpu; /* rq->curr == this */
	const struct sched_class *sched_class;
	struct sched_entity se;
	struct sched_info sched_info;
	unsigned long nvcsw, nivcsw; /* voluntary and involuntary context switches */

	/* Wakeup placement (6.1): how often this task, waking others, switched between wakees
	 * (halved every second), whom it woke last, and the CPU it was last woken from. */
	unsigned int wakee_flips;
	u64 wakee_flip_decay_ts;
	const struct task_struct *last_wakee;
	int recent_used_cpu;
};

/*
 * One level of the load-balancing hierarchy of one CPU, after the kernel's struct sched_domain.
 * Level 0 spans the CPUs of this CPU's memory domain (they share a last-level cache, the kernel's
 * MC level), each CPU a group; level 1 spans every CPU, each memory domain a group.
 */
struct sched_domain {
	u64 span; /* CPUs covered */
	unsigned int nr_groups;
	u64 groups[SCHED_MAX_CPUS]; /* each a CPU mask, together they make span */
	unsigned int span_weight;

	unsigned int imbalance_pct;	/* no balancing unless busiest > this % of local */
	unsigned int cache_nice_tries;	/* failed balances after which cache-hot tasks may move */
	unsigned int busy_factor;	/* a busy CPU balances this many times less often */
	u64 min_interval, max_interval; /* in ns */
	u64 balance_interval;		/* current, in ns: doubles on failure, reset on success */
	unsigned int nr_balance_failed;
	u64 last_balance;
};

/* Per-CPU run queue. */
struct rq {
	int cpu;
	int node; /* memory domain */
	unsigned int nr_running;
	struct cfs_rq cfs;
	struct task_struct *curr; /* NULL when the CPU is idle */
	bool need_resched;	  /* TIF_NEED_RESCHED of whatever runs on this CPU */
	struct sched_system *sys;

	unsigned int nr_sd;
	struct sched_domain sd[2];
	u64 next_balance;
};

/*
 * What a kernel keeps in globals, per simulation. The engine fills clock before every call into
 * the policy and reacts to need_resched / resched_mask after it.
 */
struct sched_system {
	u64 clock; /* now, in ns */
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	struct sched_tunables tun;
	unsigned int features; /* bit set of enum sched_feature */
	/* The policy every task of this system runs under; the core calls nothing else. */
	const struct sched_class *policy;
	u64 tick_nsec;	   /* length of a tick (the kernel's TICK_NSEC); EEVDF bounds lag by it */
	struct rq *rqs;	   /* nr_cpus of them */
	u64 idle_mask;	   /* CPUs with nothing to run */
	u64 resched_mask;  /* CPUs whose need_resched the engine must act on */
	u64 nr_migrations; /* every set_task_cpu that changed CPU */
	u64 nr_lb_migrations; /* of which load balancing did */
	/*
	 * The kernel's schedstat wakeup counters (/proc/PID/sched), summed over the tasks:
	 * wakeups that chose a CPU (nr_wakeups), those that ended on another CPU than the waker's
	 * (nr_wakeups_remote), those for which wake_affine ran (nr_wakeups_affine_attempts: the
	 * wakee's CPU was not the waker's, and wake_wide judged the pair one-to-one) and those it
	 * moved to the waker's CPU (nr_wakeups_affine).
	 */
	struct {
		u64 wakeups, remote, affine_attempts, affine;
	} wake_stats;
	/* Called when a task changes rq, so the engine can charge migration costs. */
	void (*migrate_hook)(struct task_struct *p, int from, int to, void *ctx);
	void *hook_ctx;
};

static inline bool sched_feat(const struct sched_system *sys, enum sched_feature f)
{
	return (sys->features >> f) & 1U;
}

static inline struct rq *cpu_rq(const struct sched_system *sys, int cpu)
{
	return &sys->rqs[cpu];
}

static inline struct rq *task_rq(const struct sched_system *sys, const struct task_struct *p)
{
	return cpu_rq(sys, p->cpu);
}

static inline u64 rq_clock(const struct rq *rq)
{
	return rq->sys->clock;
}

static inline int task_nice(const struct task_struct *p)
{
	return p->static_prio - 120;
}

/* kernel-extract/sched_prio.c: the weight tables. */
extern const int prio_to_weight[NICE_WIDTH];
extern const u32 prio_to_wmult[NICE_WIDTH];
void set_load_weight(struct task_struct *p);
void update_load_add(struct load_weight *lw, unsigned long inc);
void update_load_sub(struct load_weight *lw, unsigned long dec);
u64 calc_delta_mine(u64 delta, unsigned long weight, struct load_weight *lw);
/* delta of real time as virtual time of se: delta * NICE_0_LOAD / weight. */
u64 calc_delta_fair(u64 delta, struct sched_entity *se);

static inline struct task_struct *task_of(const struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}

static inline struct rq *rq_of(const struct cfs_rq *cfs_rq)
{
	return container_of(cfs_rq, struct rq, cfs);
}

/* Time comparisons that survive u64 wrap-around, as the kernel's are. */
static inline u64 max_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) > 0 ? b : a;
}

static inline u64 min_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) < 0 ? b : a;
}

/* The need-resched flag, after resched_task(): the engine reschedules the CPU at once. */
static inline void resched_curr(struct rq *rq)
{
	rq->need_resched = true;
	rq->sys->resched_mask |= 1ULL << rq->cpu;
}

/* Moves a task that is not queued to another CPU (kernel: set_task_cpu). */
void set_task_cpu(struct sched_system *sys, struct task_struct *p, int new_cpu);

/* Adds and removes a task from its rq (kernel: activate_task / deactivate_task). */
void activate_task(struct rq *rq, struct task_struct *p, int flags);
void deactivate_task(struct rq *rq, struct task_struct *p, int flags);

#endif
