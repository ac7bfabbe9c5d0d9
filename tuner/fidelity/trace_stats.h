/*
 * trace_stats.h - what a scheduler trace says about one run of a workload, in numbers that a
 * real run and a simulated one can be compared by (tuner compare).
 *
 * Input: the kernel's text trace of the sched_switch and sched_wakeup tracepoints, as
 * /sys/kernel/tracing/trace prints it (and as `linsched hackbench --trace` writes it):
 *
 *   hackbench-175 [001] d..2.  4.676188: sched_wakeup: comm=hackbench pid=152 prio=120 target_cpu=001
 *   hackbench-175 [001] d..2.  4.676198: sched_switch: prev_comm=hackbench prev_pid=175 prev_prio=120 prev_state=R ==> next_comm=hackbench next_pid=152 next_prio=120
 *
 * or as `perf script` prints the same tracepoints, where tracefs is not at hand (a host whose
 * debugfs is closed; record with `perf record -a -m 32M -e sched:sched_switch -e
 * sched:sched_wakeup -e sched:sched_wakeup_new`, system-wide and with room, or perf drops events
 * and says so in `perf report --stats`; then `perf script --ns > FILE`):
 *
 *   hackbench  175 [001] 4.676198: sched:sched_switch: prev_comm=hackbench prev_pid=175 ...
 *
 * Lines starting with '#' and lines of other events are skipped; a sched_switch, sched_wakeup or
 * wakeup_preempt line that does not parse is an error naming the file and line. wakeup_preempt
 * lines (optional) say what a wakeup's preemption check weighed:
 *
 *   hackbench-175 [001] d..2.  4.676187: wakeup_preempt: (check_preempt_wakeup+0x0/0x2c0) curr_vr=2723782097 wakee_vr=2717782097 min_vr=2723782097 nr=41 curr_pid=175 wakee_pid=152 latency=12000000 gran=2000000
 *
 * The workload's tasks are those whose (last) command name starts with one of the given
 * prefixes: real hackbench's threads are all "hackbench", the simulator's "sender-G.I" and
 * "receiver-G.I". Their roles come from the names when these say "sender" or "receiver"; else from
 * who wakes whom, over the whole trace: a task woken by workload tasks more often than it wakes
 * them is a receiver (a write wakes the reader of an empty socket at once, a read wakes writers
 * only once it has freed room), the others are senders. When every workload task has the same
 * name, the one with the lowest pid is the parent that created, released and reaps the others;
 * when the names say roles, a task named neither way is (the simulator's "hackbench"). The parent
 * counts in the switches but in neither role. Workers are the workload tasks but the parent.
 *
 * The window: "auto" starts at the start barrier's release -- the last instant at which at most
 * one worker was runnable before half of them were -- and ends at the last worker's exit, as the
 * benchmark's own clock does, so that creating and reaping the tasks is left out; "all" is the
 * whole trace. State (who runs where, who is runnable) is followed from the trace's first line;
 * only what happens inside the window is counted.
 *
 * Definitions:
 *   voluntary switch     prev_state S or D, or another sleeping state (T, t, P, I)
 *   involuntary switch   prev_state R or R+: prev was preempted while runnable
 *   exit                 prev_state X or Z
 *   wakeup preemption    an involuntary switch to a task woken onto that CPU since its last switch
 *   migration            a workload task switched in on another CPU than it last ran on; a wake
 *                        migration is a wakeup whose target_cpu is not the CPU the task last ran on
 *   idle time            time the CPU ran pid 0 (before a CPU's first switch: unknown, not counted)
 *   run                  a workload task's time from a switch-in to the next switch-out
 *   tenth                a tenth of the window; switches between workload tasks are also
 *                        counted per tenth, to show when in the run they happen
 *   exit time            when a worker exited (prev_state X or Z), as a fraction of the window
 *                        from its start: the first and the median per role
 *   run-queue length     tasks runnable on a CPU, running or queued, time-weighted: a wakeup makes
 *                        a task runnable on target_cpu, a switch leaves prev runnable only when R
 *                        and makes next runnable there (a task moved by load balancing changes
 *                        queue when it is next seen). A task that was runnable before the trace
 *                        began is counted from when it is first seen.
 *   CPU hand-over        two events in a row (switches and wakeups, of any task, in time order)
 *                        on different CPUs. CPUs that run at once hand over at every few
 *                        events; virtual CPUs that take turns on one host CPU only at the end of
 *                        a turn, so a few hundred a second where there would be thousands.
 *   cross-CPU wakeup     a wakeup of a sleeping worker by a worker running on another CPU than
 *                        the wakee last ran on: where 6.1's select_task_rq_fair weighs pulling it
 *                        to the waker (wake_affine) unless wake_wide judges the pair one-to-many;
 *                        pulled: it lands on the waker's CPU
 *   asleep               workers of a role that are blocked, time-weighted: from a switch away
 *                        from the worker in a sleeping state to its next wakeup (or, were that
 *                        lost, its next switch-in). A hackbench sender sleeps only on a full
 *                        channel and a receiver only on an empty one, so the senders asleep say
 *                        how often the receivers fell a whole buffer behind, the receivers
 *                        asleep how often they had caught up.
 */
#ifndef TUNER_FIDELITY_TRACE_STATS_H
#define TUNER_FIDELITY_TRACE_STATS_H

#include <glib.h>

G_BEGIN_DECLS

#define TRACE_STATS_ERROR (trace_stats_error_quark())
GQuark trace_stats_error_quark(void);

typedef enum {
	TRACE_STATS_ERROR_IO,	  /* the file cannot be read */
	TRACE_STATS_ERROR_SYNTAX, /* a line does not parse: "FILE:LINE: ..." */
	TRACE_STATS_ERROR_EMPTY,  /* no workload task in the trace */
} TraceStatsError;

/* A reuse distance this short counts as near (TraceStats.reuse_near). */
#define TRACE_REUSE_NEAR 2

/* The parts the window is cut into for the switches' timeline. */
#define TRACE_STATS_TENTHS 10

typedef enum {
	TRACE_WINDOW_AUTO,
	TRACE_WINDOW_ALL,
} TraceWindow;

typedef enum {
	TRACE_ROLE_SENDER,
	TRACE_ROLE_RECEIVER,
	TRACE_ROLE_PARENT,
	TRACE_ROLE_N
} TraceRole;

/* Where a wakeup comes from, seen from the CPU it wakes a task onto. */
typedef enum {
	TRACE_WAKE_LOCAL,
	TRACE_WAKE_REMOTE,
	TRACE_WAKE_N
} TraceWakeFrom;

typedef struct {
	const char *const *workload; /* command-name prefixes; NULL: hackbench, sender, receiver */
	TraceWindow window;
	guint64 messages; /* messages the workload passed, for the per-message figures; 0: unknown */
	/*
	 * Replay 6.1's wakee_flips (below, "Who a wakeup moves"): every workload task starts with
	 * inherited_flips, those its parent handed down at the fork (the guest's fork record; a
	 * twin's --parent-flips), which no trace shows. llc_cpus: the CPUs sharing a last-level
	 * cache, wake_wide's factor (0: every CPU the trace shows).
	 */
	gboolean replay_flips;
	guint inherited_flips;
	guint llc_cpus;
} TraceStatsOptions;

/* Lengths of runs, in µs. */
typedef struct {
	guint64 count;
	double mean_us, median_us, total_us;
} TraceRuns;

typedef struct {
	double start_s, end_s, duration_s; /* the window, on the trace's clock */
	guint nr_cpus;			   /* 1 + the highest CPU number seen */
	guint workload_tasks, senders, receivers;
	gboolean has_parent;

	guint64 switches;	   /* every sched_switch */
	guint64 switches_workload; /* prev or next is a workload task */
	guint64 switches_between;  /* prev and next both are */
	/* Of the switches between workload tasks, by prev_state: */
	guint64 voluntary, involuntary, exits;
	/* Of those involuntary: by a wakeup, and the rest (tick, balancing). */
	guint64 wakeup_preemptions, other_preemptions;
	/* Of every switch away from a running workload task (to anything): the same split. */
	guint64 workload_voluntary, workload_involuntary, workload_wakeup_preemptions;
	/*
	 * After a worker's wakeup preempted another worker, the wakee's next switch away, when it
	 * goes to sleep: back to the preempted task (6.1's last buddy, marked while the queue is at
	 * least sched_nr_latency long), or to another.
	 */
	guint64 preempted_back, preempted_not_back;
	/*
	 * Who a worker's sleep hands its CPU to, by the two roles (sender, receiver): the sleeps of
	 * receivers that hand it to another receiver are those of wakees that had not preempted when
	 * woken (or were woken elsewhere), and queued; where the last buddy is marked the CPU goes
	 * back to the sender instead.
	 */
	guint64 sleep_handover[TRACE_ROLE_PARENT][TRACE_ROLE_PARENT];

	guint64 wakeups;		/* every sched_wakeup */
	guint64 wakeups_workload;	/* of a workload task */
	guint64 wakeups_between;	/* of a workload task by a workload task */
	guint64 wakeups_to_busy;	/* of a workload task, onto a CPU that was running a task */
	guint64 wakeups_to_busy_remote; /* of those, from another CPU (the line's CPU not the target) */
	/*
	 * How soon a CPU switches after a worker is woken onto it while it runs a task: from the
	 * first such wakeup to the CPU's next switch, median in µs, for wakeups on the CPU itself
	 * (TRACE_WAKE_LOCAL: the waker's own, which keeps it until it returns from its system call
	 * unless the kernel preempts fully) and from another CPU (TRACE_WAKE_REMOTE: the IPI, and
	 * the return of whatever runs there); and, of the remote ones, the share whose CPU's task
	 * went to sleep before it was preempted. NaN: none.
	 */
	double wake_to_switch_us[TRACE_WAKE_N];
	double remote_sleeps_first;
	/*
	 * How long a worker woken by a worker (from sleep, inside the window) waits to run: from
	 * the wakeup to its next switch-in, median and 90th percentile in µs, and how many
	 * switches its CPU made meanwhile (median: tasks picked before it), by where the wakeup came
	 * from. A wakee the CPU picks at its next switch waits 0 switches; one passed over for
	 * buddies or others placed further left waits several. NaN: none.
	 */
	double wake_to_run_us[TRACE_WAKE_N], wake_to_run_q90_us[TRACE_WAKE_N];
	double switches_before_run[TRACE_WAKE_N];
	guint64 migrations, wake_migrations;
	/*
	 * Who a wakeup moves. Cross-CPU wakeups (above) and those pulled to the waker's CPU. With
	 * options.replay_flips, record_wakee is replayed for the workload's tasks over every
	 * wakeup of a task that slept made on their time (the task the line names; interrupts on
	 * its time count as its own, as in the kernel): once a second at most its flips halve, and
	 * they grow by one when it wakes another task than the last. A task's decay clock starts
	 * at its first event in the trace (a child's is its parent's, set near the fork). wide:
	 * the cross-CPU wakeups wake_wide judges one-to-many (the smaller flips of waker and wakee
	 * at least llc_cpus, the larger at least llc_cpus times the smaller), which stay where the
	 * wakee last ran unless a CPU is idle; the others go to wake_affine, and narrow_pulled
	 * counts those it moved. Without the replay, the last two are 0 and flips_replayed FALSE.
	 */
	guint64 wake_cross, wake_cross_pulled;
	gboolean flips_replayed;
	guint inherited_flips, llc_cpus; /* as replayed */
	guint64 wake_cross_wide, wake_cross_narrow_pulled;
	/*
	 * The reuse distance of a worker's working set: at each switch-in (in the window) of a
	 * worker that ran before, how many other workers were switched in, on any CPU, since it
	 * last was. Its median and upper quartile, and the share at most TRACE_REUSE_NEAR (back
	 * within a sender and a receiver or two: the CPU ping-pongs, as 6.1's buddies make it).
	 * Where few are near, every switch-in finds its task's data evicted by many others (the
	 * cache model of linsched/cache.h). NaN: no such switch-in.
	 */
	double reuse_median, reuse_q75, reuse_near;

	double *idle_s;	       /* nr_cpus: time each CPU ran pid 0 */
	double *runqueue_mean; /* nr_cpus: time-weighted tasks runnable on the CPU */
	guint *runqueue_max;   /* nr_cpus */
	double runnable_mean;  /* time-weighted runnable workers, all CPUs together */
	guint64 cpu_handovers; /* events in a row on different CPUs */
	double handovers_per_s;
	/* Time-weighted workers of each role asleep (the parent's: 0, it is no worker). */
	double asleep_mean[TRACE_ROLE_N];
	TraceRuns runs; /* every workload task's runs */
	TraceRuns roles[TRACE_ROLE_N];

	/*
	 * When the switches happen: those between workload tasks in each tenth of the window. And
	 * when the workers exit, as fractions of the window (NaN: none of the role did inside it):
	 * the first and the median of each role. Senders that finish one by one leave a tail in
	 * which the receivers, caught up, wait for the last ones message by message: hackbench
	 * makes most of its switches there.
	 */
	guint64 switches_by_tenth[TRACE_STATS_TENTHS];
	/* Time-weighted workers of each role asleep in each tenth (NaN: an empty window): when
	 * the receivers fell behind (senders asleep) and whether they caught up again. */
	double asleep_by_tenth[TRACE_ROLE_N][TRACE_STATS_TENTHS];
	double first_exit[TRACE_ROLE_N], median_exit[TRACE_ROLE_N];

	/*
	 * The wakeups' preemption checks: wakeup_preempt lines (the guest's kprobe on 6.1's
	 * check_preempt_wakeup, or the simulator's line of the same format), those inside the window
	 * that put a worker beside a running worker. In ms of vruntime: the wakee's lag behind the
	 * queue's min_vruntime, the running task's lead over it, and their sum, the gap the check
	 * compares with wakeup_granularity. at_credit: the share of wakees at least latency / 2
	 * behind, the full credit 6.1's place_entity gives a sleeper (GENTLE_FAIR_SLEEPERS; those
	 * whose own vruntime was lower sit exactly there). above_gran: the share whose gap exceeds
	 * wakeup_granularity, so that the check preempts (nice-0 tasks; unless the CPU was already
	 * due to reschedule). NaN when the trace has no check.
	 */
	guint64 checks;
	double lag_q25_ms, lag_median_ms, lag_q75_ms;
	double lag_median_role_ms[TRACE_ROLE_N]; /* by the wakee's role */
	double at_credit, lead_median_ms, gap_median_ms, above_gran;

	/* Per message, when options.messages is known (else NaN). */
	guint64 messages;
	double switches_per_message;	  /* switches between workload tasks */
	double messages_per_receiver_run; /* messages / receivers' runs */
	double messages_per_sender_run;	  /* messages / senders' runs */
} TraceStats;

/* Reads the trace in path (errors name it). out is cleared with trace_stats_clear. */
gboolean trace_stats_read_file(const char *path, const TraceStatsOptions *options, TraceStats *out,
			       GError **error);
/* The same for a trace in memory (len -1: up to the NUL); name labels the errors. */
gboolean trace_stats_read_text(const char *text, gssize len, const char *name,
			       const TraceStatsOptions *options, TraceStats *out, GError **error);
void trace_stats_clear(TraceStats *stats);

const char *trace_role_name(TraceRole role);

/*
 * The runs of a trace, for lining it up with another trace of the same time (tuner stalls: a
 * host's trace of a guest's vCPU threads beside the guest's own). A run is a task's time on a CPU
 * from a switch to it to that CPU's next switch; what a CPU ran before its first switch and after
 * its last is unknown and left out. pid 0 is idle. role: a workload task's TraceRole as
 * trace_stats finds it (workload: command-name prefixes, NULL for hackbench, sender, receiver),
 * -1 for any other task and for idle. left: how the task left the CPU at the run's end, 'R'
 * runnable (preempted), 'S' asleep or blocked, 'X' exited.
 */
typedef struct {
	guint64 start_ns, end_ns;
	gint32 pid;
	gint8 role;
	char left;
	guint32 cpu;
} TraceRun;

typedef struct {
	guint nr_cpus;
	GArray *runs;		   /* TraceRun, in the order they end */
	GArray **events;	   /* nr_cpus arrays of guint64: every event's time on that CPU */
	GHashTable *comms;	   /* pid -> its last command name */
	guint64 first_ns, last_ns; /* the earliest and the latest event */
} TraceTimeline;

gboolean trace_timeline_read_file(const char *path, const char *const *workload, TraceTimeline *out,
				  GError **error);
gboolean trace_timeline_read_text(const char *text, gssize len, const char *name,
				  const char *const *workload, TraceTimeline *out, GError **error);
void trace_timeline_clear(TraceTimeline *tl);

G_END_DECLS

#endif /* TUNER_FIDELITY_TRACE_STATS_H */
