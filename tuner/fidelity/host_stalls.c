/*
 * host_stalls.c - a host's stalls of a guest's vCPUs placed in the guest's schedule (see
 * host_stalls.h).
 */
#include "tuner/fidelity/host_stalls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(host - stalls - error - quark, host_stalls_error)

#define MATCH_NS  1000000 /* a silence and a stall line up when both ends are this close */
#define BIN_NS	  500000  /* the offset's vote: its resolution */
#define VOTERS	  200	  /* silences that vote, spread over the trace: enough for a clear peak */
#define MAX_VCPUS 4096

typedef struct {
	gint64 start, end; /* ns on its own clock */
	gboolean preempted;
} Gap;

static int compare_run(gconstpointer a, gconstpointer b)
{
	guint64 x = ((const TraceRun *)a)->start_ns, y = ((const TraceRun *)b)->start_ns;

	return (x > y) - (x < y);
}

/* The guest CPU a host thread runs, from qemu's name for it ("CPU 1/TCG"); -1: not a vCPU. */
static gint vcpu_of(const char *comm)
{
	unsigned int n;
	int used = 0;

	if (sscanf(comm, "CPU %u/%n", &n, &used) != 1 || used == 0 || n >= MAX_VCPUS)
		return -1;
	return (gint)n;
}

/*
 * Per guest CPU, the stalls of its vCPU thread: the gaps of min_ns or more between its runs.
 * *twice: a guest CPU that two threads claim (two guests in the trace), else -1.
 */
static GArray **host_gaps(const TraceTimeline *host, guint nr_cpus, guint64 min_ns, guint *vcpus,
			  gboolean *present, gint *twice)
{
	GArray **runs = g_new(GArray *, nr_cpus), **gaps = g_new(GArray *, nr_cpus);
	gint *pid = g_new(gint, nr_cpus);

	for (guint c = 0; c < nr_cpus; c++) {
		runs[c] = g_array_new(FALSE, FALSE, sizeof(TraceRun));
		gaps[c] = g_array_new(FALSE, FALSE, sizeof(Gap));
		pid[c] = -1;
	}
	for (guint i = 0; i < host->runs->len; i++) {
		const TraceRun *r = &g_array_index(host->runs, TraceRun, i);
		const char *comm = g_hash_table_lookup(host->comms, GINT_TO_POINTER(r->pid));
		gint c = comm ? vcpu_of(comm) : -1;

		if (c < 0 || (guint)c >= nr_cpus)
			continue;
		if (pid[c] >= 0 && pid[c] != r->pid)
			*twice = c;
		g_array_append_val(runs[c], *r);
		pid[c] = r->pid;
	}
	*vcpus = 0;
	for (guint c = 0; c < nr_cpus; c++) {
		*vcpus += present[c] = pid[c] >= 0;
		g_array_sort(runs[c], compare_run);
		for (guint i = 1; i < runs[c]->len; i++) {
			const TraceRun *a = &g_array_index(runs[c], TraceRun, i - 1);
			const TraceRun *b = &g_array_index(runs[c], TraceRun, i);
			Gap g = { (gint64)a->end_ns, (gint64)b->start_ns, a->left == 'R' };

			if (b->start_ns >= a->end_ns + min_ns)
				g_array_append_val(gaps[c], g);
		}
		g_array_free(runs[c], TRUE);
	}
	g_free(runs);
	g_free(pid);
	return gaps;
}

/* Per guest CPU, its silences: gaps of min_ns or more between two of its events. */
static GArray **guest_silences(const TraceTimeline *guest, guint64 min_ns, guint *n)
{
	GArray **sil = g_new(GArray *, guest->nr_cpus);

	*n = 0;
	for (guint c = 0; c < guest->nr_cpus; c++) {
		const GArray *ev = guest->events[c];

		sil[c] = g_array_new(FALSE, FALSE, sizeof(Gap));
		for (guint i = 1; i < ev->len; i++) {
			guint64 a = g_array_index(ev, guint64, i - 1),
				b = g_array_index(ev, guint64, i);
			Gap g = { (gint64)a, (gint64)b, FALSE };

			if (b >= a + min_ns)
				g_array_append_val(sil[c], g);
		}
		*n += sil[c]->len;
	}
	return sil;
}

/* The first gap of sorted gaps that starts at or after t. */
static guint first_from(const GArray *gaps, gint64 t)
{
	guint lo = 0, hi = gaps->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(gaps, Gap, mid).start < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The stall of gaps that lines up with silence s at this offset (both ends within tol). */
static const Gap *lined_up(const GArray *gaps, const Gap *s, gint64 offset, gint64 tol)
{
	for (guint i = first_from(gaps, s->start + offset - tol); i < gaps->len; i++) {
		const Gap *g = &g_array_index(gaps, Gap, i);

		if (g->start > s->start + offset + tol)
			break;
		if (llabs(g->end - (s->end + offset)) <= tol)
			return g;
	}
	return NULL;
}

static gint64 floor_div(gint64 a, gint64 b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/*
 * The offset with the most votes: each of up to VOTERS silences, taken evenly over the trace,
 * votes for every stall of its CPU of nearly its length, by the difference of their starts in
 * BIN_NS bins. A wrong offset gathers votes only by chance; the right one one per silence.
 */
static gboolean vote(GArray **sil, GArray **gaps, guint nr_cpus, guint n_sil, gint64 *offset)
{
	g_autoptr(GHashTable) votes =
		g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	guint step = MAX(1, n_sil / VOTERS), k = 0, best = 0;

	for (guint c = 0; c < nr_cpus; c++)
		for (guint i = 0; i < sil[c]->len; i++, k++) {
			if (k % step)
				continue;
			const Gap *s = &g_array_index(sil[c], Gap, i);
			gint64 len = s->end - s->start;

			for (guint j = 0; j < gaps[c]->len; j++) {
				const Gap *g = &g_array_index(gaps[c], Gap, j);

				if (llabs(g->end - g->start - len) > 2 * MATCH_NS)
					continue;
				gint64 bin = floor_div(g->start - s->start, BIN_NS);
				guint n = GPOINTER_TO_UINT(g_hash_table_lookup(votes, &bin)) + 1;

				g_hash_table_replace(votes, g_memdup2(&bin, sizeof(bin)),
						     GUINT_TO_POINTER(n));
				if (n > best) {
					best = n;
					*offset = bin * BIN_NS + BIN_NS / 2;
				}
			}
		}
	return best >= 2;
}

/* What ran in run r: its workload role, another task, or idle. */
static guint kind_of(const TraceRun *r)
{
	if (r->role >= 0)
		return (guint)r->role;
	return r->pid == 0 ? HOST_STALL_IDLE : HOST_STALL_OTHER;
}

/* The kind of run on a guest CPU at time t (guest clock), of its runs sorted by start;
 * HOST_STALL_KINDS when no run is known there. */
static guint kind_at(const GArray *runs, guint64 t)
{
	guint lo = 0, hi = runs->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(runs, TraceRun, mid).start_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return HOST_STALL_KINDS;
	const TraceRun *r = &g_array_index(runs, TraceRun, lo - 1);

	return t < r->end_ns ? kind_of(r) : HOST_STALL_KINDS;
}

/* How far into its tick host time t (ns) is. */
static gint64 into_tick(const HostStalls *out, gint64 t)
{
	gint64 tick = (gint64)out->tick_ns;

	return ((t % tick) + tick) % tick;
}

/* The phase part of the host's clock at host time t (ns), of out->tick_ns. */
static guint phase_of(const HostStalls *out, gint64 t)
{
	return (guint)(into_tick(out, t) * HOST_STALL_PHASES / (gint64)out->tick_ns);
}

/* Spreads a run of kind k, [start, end) on the host's clock, over the phase parts it covers. */
static void add_run_phases(HostStalls *out, guint k, gint64 start, gint64 end)
{
	gint64 tick = (gint64)out->tick_ns;

	for (gint64 x = start; x < end;) {
		guint b = phase_of(out, x);
		gint64 next = x - into_tick(out, x) + (gint64)(b + 1) * tick / HOST_STALL_PHASES;
		gint64 y = MIN(end, MAX(next, x + 1));

		out->run_phase_s[k][b] += (double)(y - x) / 1e9;
		x = y;
	}
}

/* Places every stall that begins inside the guest's trace, and adds up the runs' time. */
static void place(const TraceTimeline *guest, GArray **gaps, guint64 min_ns, gint64 offset,
		  HostStalls *out)
{
	guint n = guest->nr_cpus;
	GArray **runs = g_new(GArray *, n);

	for (guint c = 0; c < n; c++)
		runs[c] = g_array_new(FALSE, FALSE, sizeof(TraceRun));
	for (guint i = 0; i < guest->runs->len; i++) {
		const TraceRun *r = &g_array_index(guest->runs, TraceRun, i);

		g_array_append_val(runs[r->cpu], *r);
		if (r->end_ns - r->start_ns >= min_ns)
			continue;
		out->run_s[kind_of(r)] += (double)(r->end_ns - r->start_ns) / 1e9;
		if (out->tick_ns)
			add_run_phases(out, kind_of(r), (gint64)r->start_ns + offset,
				       (gint64)r->end_ns + offset);
	}
	for (guint c = 0; c < n; c++) {
		g_array_sort(runs[c], compare_run);
		for (guint i = 0; i < gaps[c]->len; i++) {
			const Gap *g = &g_array_index(gaps[c], Gap, i);
			gint64 t = g->start - offset;

			if (t < (gint64)guest->first_ns || t > (gint64)guest->last_ns)
				continue;
			guint kind = kind_at(runs[c], (guint64)t);

			if (kind == HOST_STALL_KINDS)
				continue; /* before the CPU's first switch: nobody known to run */
			out->stalls++;
			out->preempted += g->preempted;
			out->began_in[kind]++;
			if (out->tick_ns)
				out->stall_phase[phase_of(out, g->start)]++;
		}
		g_array_free(runs[c], TRUE);
	}
	g_free(runs);
}

typedef struct {
	gint64 at;
	gint step; /* +1: a pair's lower bound, -1: past its upper bound */
} Edge;

static int compare_edge(gconstpointer a, gconstpointer b)
{
	const Edge *x = a, *y = b;

	if (x->at != y->at)
		return (x->at > y->at) - (x->at < y->at);
	return y->step - x->step; /* a bound that opens before one that closes at the same ns */
}

/*
 * Lines the silences up with the stalls at offset guess (within tol at both ends); each pair
 * allows the offsets from its stall's end - its silence's end to its stall's start - its
 * silence's start. The offset is the middle of the range most pairs allow (a sweep over their
 * bounds), and offset_lo and offset_hi that range. Returns the new offset, in ns.
 */
static gint64 bound(GArray **sil, GArray **gaps, guint n, gint64 guess, gint64 tol, HostStalls *out)
{
	g_autoptr(GArray) edges = g_array_new(FALSE, FALSE, sizeof(Edge));
	gint depth = 0, best = 0;
	gint64 lo = guess, hi = guess;

	for (guint c = 0; c < n; c++)
		for (guint i = 0; i < sil[c]->len; i++) {
			const Gap *s = &g_array_index(sil[c], Gap, i);
			const Gap *g = lined_up(gaps[c], s, guess, tol);

			if (!g)
				continue;
			Edge open = { MIN(g->end - s->end, g->start - s->start), +1 };
			Edge close = { MAX(g->end - s->end, g->start - s->start), -1 };

			g_array_append_val(edges, open);
			g_array_append_val(edges, close);
		}
	out->matched = edges->len / 2;
	g_array_sort(edges, compare_edge);
	for (guint i = 0; i < edges->len; i++) {
		const Edge *e = &g_array_index(edges, Edge, i);

		depth += e->step;
		if (e->step > 0 && depth > best) {
			best = depth;
			lo = e->at;
			hi = i + 1 < edges->len ? g_array_index(edges, Edge, i + 1).at : e->at;
		}
	}
	out->offset_lo_s = (double)lo / 1e9;
	out->offset_hi_s = (double)hi / 1e9;
	out->offset_s = ((double)lo + (double)hi) / 2e9;
	return lo + (hi - lo) / 2;
}

/* A count of whole ticks, rounded, in one of HOST_STALL_TICKS bins. */
static guint tick_bin(gint64 ns, gint64 tick)
{
	return (guint)MIN((ns + tick / 2) / tick, HOST_STALL_TICKS - 1);
}

/*
 * The runs and stalls of one vCPU by length in ticks (only those with both ends inside [lo, hi]),
 * adding their lengths to *run_ns and *stall_ns; and its time running inside [lo, hi], as edges
 * (+1: it runs, -1: it stops) for the sweep of host_sharing.
 */
static gint64 vcpu_runs(const GArray *gaps, gint64 lo, gint64 hi, HostStalls *out, double *run_ns,
			double *stall_ns, GArray *edges)
{
	gint64 tick = (gint64)out->tick_ns, cursor = lo, ran = 0;

	for (guint i = 0; i < gaps->len; i++) {
		const Gap *g = &g_array_index(gaps, Gap, i);

		if (tick && g->start >= lo && g->end <= hi) {
			out->stall_ticks[tick_bin(g->end - g->start, tick)]++;
			*stall_ns += (double)(g->end - g->start);
			if (i + 1 < gaps->len) {
				gint64 next = g_array_index(gaps, Gap, i + 1).start;

				if (next <= hi) {
					out->run_ticks[tick_bin(next - g->end, tick)]++;
					*run_ns += (double)(next - g->end);
				}
			}
		}
		if (g->end <= cursor || g->start >= hi)
			continue;
		if (g->start > cursor) {
			Edge on = { cursor, +1 }, off = { g->start, -1 };

			g_array_append_val(edges, on);
			g_array_append_val(edges, off);
			ran += g->start - cursor;
		}
		cursor = g->end;
	}
	if (cursor < hi) {
		Edge on = { cursor, +1 }, off = { hi, -1 };

		g_array_append_val(edges, on);
		g_array_append_val(edges, off);
		ran += hi - cursor;
	}
	return ran;
}

/*
 * How the host shared its CPUs during the guest's trace: the vCPU threads running at once, and
 * the same for threads each running its share independently (the distribution of a sum of
 * independent coin flips, one per thread); with the tick, their runs and stalls in ticks.
 */
static void host_sharing(const TraceTimeline *guest, GArray **gaps, const gboolean *present,
			 gint64 offset, HostStalls *out)
{
	gint64 lo = (gint64)guest->first_ns + offset, hi = (gint64)guest->last_ns + offset;
	g_autoptr(GArray) edges = g_array_new(FALSE, FALSE, sizeof(Edge));
	double run_ns = 0, stall_ns = 0, *ind = out->at_once_independent;
	guint runs = 0, stalls = 0;

	if (hi <= lo)
		return;
	ind[0] = 1;
	for (guint c = 0; c < guest->nr_cpus; c++) {
		if (!present[c])
			continue;
		double p = (double)vcpu_runs(gaps[c], lo, hi, out, &run_ns, &stall_ns, edges) /
			   (double)(hi - lo);

		/* The last bin pools its count and more: it only gains. */
		ind[HOST_STALL_AT_ONCE - 1] += ind[HOST_STALL_AT_ONCE - 2] * p;
		for (guint k = HOST_STALL_AT_ONCE - 2; k > 0; k--)
			ind[k] = ind[k] * (1 - p) + ind[k - 1] * p;
		ind[0] *= 1 - p;
	}
	g_array_sort(edges, compare_edge);
	gint64 at = lo;
	guint depth = 0;

	for (guint i = 0; i < edges->len; i++) {
		const Edge *e = &g_array_index(edges, Edge, i);

		out->at_once[MIN(depth, HOST_STALL_AT_ONCE - 1)] += (double)(e->at - at);
		at = e->at;
		depth = (guint)((gint)depth + e->step);
	}
	out->at_once[0] += (double)(hi - at);
	for (guint k = 0; k < HOST_STALL_AT_ONCE; k++)
		out->at_once[k] /= (double)(hi - lo);
	for (guint b = 0; b < HOST_STALL_TICKS; b++) {
		runs += out->run_ticks[b];
		stalls += out->stall_ticks[b];
	}
	out->run_mean_ticks = runs ? run_ns / runs / (double)out->tick_ns : NAN;
	out->stall_mean_ticks = stalls ? stall_ns / stalls / (double)out->tick_ns : NAN;
}

gboolean host_stalls_compute(const TraceTimeline *host, const TraceTimeline *guest,
			     guint64 min_stall_ns, guint64 host_tick_ns, HostStalls *out,
			     GError **error)
{
	guint n = guest->nr_cpus, n_sil = 0;
	g_autofree gboolean *present = g_new0(gboolean, n);
	GArray **gaps, **sil;
	gint64 offset = 0;
	gint twice = -1;
	gboolean ok = FALSE;

	memset(out, 0, sizeof(*out));
	out->tick_ns = host_tick_ns;
	out->run_mean_ticks = out->stall_mean_ticks = NAN;
	gaps = host_gaps(host, n, min_stall_ns, &out->vcpus, present, &twice);
	sil = guest_silences(guest, min_stall_ns, &n_sil);
	out->silences = n_sil;
	if (!out->vcpus)
		g_set_error(error, HOST_STALLS_ERROR, 1,
			    "the host's trace has no thread of the guest's CPUs 0 to %u (qemu's "
			    "\"CPU N/TCG\" or \"CPU N/KVM\")",
			    n - 1);
	else if (twice >= 0)
		g_set_error(error, HOST_STALLS_ERROR, 1,
			    "the host's trace has two threads for guest CPU %d: trace one guest at "
			    "a time",
			    twice);
	else if (!vote(sil, gaps, n, n_sil, &offset))
		g_set_error(error, HOST_STALLS_ERROR, 1,
			    "no two of the guest's %u silences line up with the host's stalls: "
			    "are the traces of the same time?",
			    n_sil);
	else
		ok = TRUE;
	if (ok) {
		/* The vote's bin, then twice the range most pairs allow, lined up more tightly. */
		offset = bound(sil, gaps, n, offset, MATCH_NS, out);
		offset = bound(sil, gaps, n, offset, MATCH_NS / 2, out);
		offset = bound(sil, gaps, n, offset, MATCH_NS / 4, out);
		out->matched = 0;
		for (guint c = 0; c < n; c++)
			for (guint i = 0; i < sil[c]->len; i++)
				out->matched += lined_up(gaps[c], &g_array_index(sil[c], Gap, i),
							 offset, MATCH_NS) != NULL;
		place(guest, gaps, min_stall_ns, offset, out);
		host_sharing(guest, gaps, present, offset, out);
	}
	for (guint c = 0; c < n; c++) {
		g_array_free(gaps[c], TRUE);
		g_array_free(sil[c], TRUE);
	}
	g_free(gaps);
	g_free(sil);
	return ok;
}

const char *host_stall_kind_name(guint kind)
{
	switch (kind) {
	case HOST_STALL_OTHER:
		return "other task";
	case HOST_STALL_IDLE:
		return "idle";
	default:
		return trace_role_name((TraceRole)kind);
	}
}
