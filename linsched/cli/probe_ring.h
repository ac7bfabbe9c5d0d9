/*
 * probe_ring.h - the task cache from a ring's hops: what `linsched probe` (cmd_probe.c) makes of
 * a message passed around rings of more and more threads pinned to one CPU.
 *
 * Each hop is the same work (a write, a wakeup, a switch, a read) at every ring size; what it
 * costs more in a larger ring is the reload of what the others evicted since a thread last ran.
 * The simulation's task cache (linsched/cache.h) gives every task F lines in a cache of L lines
 * of W ways (0: fully associative), a line's reload costing m: in a ring of N tasks a switch-in
 * reloads m F R_W(N - 1, K), the share of a working set that N - 1 others evict from a cache of
 * K = L / F working sets: for W = 0 a cliff, clamp(N - K, 0, 1); for W ways
 * P(Poisson((N - 1) W / K) >= W), from the first task between for one way.
 *
 * The ring of 2 is cheaper than its cache alone says: on the guest and on a host alike a hop
 * costs a step more from 4 threads on, flat after it where no cache is at work (measured, not
 * explained: a pair that only ping-pongs may keep more than its working set hot). So the curve
 * of rises over the ring of 2 is
 *
 *     rise(N) = a [N > 2] + s (R_W(N - 1, K) - R_W(1, K)),
 *
 * fitted by least squares: a and s for each shape W in {0, 1, 2, 4, 8, 16} and knee K on a grid
 * from the second ring to the largest (a knee below cannot be told from a, one above is not
 * seen), the best of all (within a range of knees that fit alike, the middle in log). The curve
 * decides s = m F, K and W, not F: the probe fixes F (RING_FOOTPRINT_LINES) and writes
 * cache_lines = K F, miss_ps = s / F and cache_ways = W.
 *
 * C library only, like cmd_probe.c, so the static probe links it.
 */
#ifndef LINSCHED_PROBE_RING_H
#define LINSCHED_PROBE_RING_H

#include <stddef.h>

/* The footprint the probe gives every task: 64 lines (4 KiB), a kernel stack's hot part and
 * the task's own structures. The rings measure the step, the knee and the ways, not F; see
 * above. */
#define RING_FOOTPRINT_LINES 64

struct probe_ring_cache {
	double pair_ns;	      /* a: what the ring of 2 saves beyond its cache */
	double step_ns;	      /* s: the reload of a whole working set */
	double knee_tasks;    /* K: working sets that fill the cache */
	int ways;	      /* W: 0 fully associative */
	double rms_ns;	      /* the fit's root mean square error over the rings */
	int step;	      /* 1: the curve has a step, and the fields below are set */
	long cache_lines;     /* L = K F */
	long footprint_lines; /* F */
	long miss_ps;	      /* m = s / F */
};

/*
 * sizes[0..n) ascending ring sizes, sizes[0] = 2; rise[i] the median over trials of (hop at
 * sizes[i] less the hop at sizes[0] of the same trial), rise_q1[i] its lower quartile (rise[0]
 * is 0); hot the median hop at sizes[0]. The fit's fields are set whenever n >= 3; a step
 * (out->step) is one of at least a tenth of the hot hop whose largest ring's rise has its lower
 * quartile above zero (three trials in four see it).
 */
void probe_ring_cache(const int *sizes, const double *rise, const double *rise_q1, int n,
		      double hot, struct probe_ring_cache *out);

/* The task cache's keys in machine.ini [costs], the ones the lines below write. */
#define PROBE_RING_KEYS "cache_lines", "cache_ways", "footprint_lines", "miss_ps"

/*
 * The fit as machine.ini lines of [costs]: two comment lines saying what was fitted, then the
 * keys, or a comment that no task cache is modelled. Returns what snprintf does.
 */
int probe_ring_lines(const struct probe_ring_cache *c, char *buf, size_t len);

#endif
