/*
 * probe_ring.c - the task cache from a ring's hops (probe_ring.h).
 */
#include "linsched/cli/probe_ring.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * Knees tried a shape, evenly in log from the second ring to the largest: a cache that a ring of
 * 4 already overflows cannot be told from the pair's saving, and one that the largest ring
 * does not fill has a step the rings do not show.
 */
#define KNEE_GRID    3000
#define MAX_RING_FIT 32

static const int shapes[] = { 0, 1, 2, 4, 8, 16 };

/* R_W(between, knee) of probe_ring.h: the share of a working set reloaded. */
static double probe_ring_reload(int ways, double between, double knee)
{
	if (ways == 0) {
		double x = between + 1 - knee;

		return x < 0 ? 0 : x > 1 ? 1 : x;
	}
	/* P(Poisson(mean) < ways), summed term by term: linsched/cache.c asks GSL, but the static
	 * probe for the guest's initramfs links no GSL. */
	double mean = between * ways / knee, term = exp(-mean), below = 0;

	for (int j = 0; j < ways; j++) {
		below += term;
		term *= mean / (j + 1);
	}
	return below > 1 ? 0 : 1 - below;
}

struct fit {
	double a, s, sse;
};

/* The residual of a and s over the rings from 1 on. */
static double sse_of(const double *r, const double *c, int n, double a, double s)
{
	double e = 0;

	for (int i = 1; i < n; i++)
		e += (r[i] - a - s * c[i]) * (r[i] - a - s * c[i]);
	return e;
}

/* Least squares of r[i] = a + s c[i] (i >= 1) with a, s >= 0: the free solution when it is
 * feasible, else the better of a alone and s alone (each clipped at 0). */
static struct fit fit_two(const double *r, const double *c, int n)
{
	double m = n - 1, sc = 0, scc = 0, sr = 0, src = 0;

	for (int i = 1; i < n; i++) {
		sc += c[i];
		scc += c[i] * c[i];
		sr += r[i];
		src += r[i] * c[i];
	}
	double det = m * scc - sc * sc;

	if (det > 1e-12 * m * scc) {
		double a = (sr * scc - sc * src) / det, s = (m * src - sc * sr) / det;

		if (a >= 0 && s >= 0)
			return (struct fit){ a, s, sse_of(r, c, n, a, s) };
	}
	double a = sr / m > 0 ? sr / m : 0;
	double s = scc > 0 && src / scc > 0 ? src / scc : 0;
	struct fit only_a = { a, 0, sse_of(r, c, n, a, 0) };
	struct fit only_s = { 0, s, sse_of(r, c, n, 0, s) };

	/* A step the pair's own saving explains as well is none: a first. */
	return only_a.sse <= only_s.sse ? only_a : only_s;
}

static double knee_at(double g, double first, double last)
{
	return first * exp(log(last / first) * g / KNEE_GRID);
}

static struct fit fit_shape(const int *sizes, const double *rise, int n, int ways, double knee)
{
	double c[MAX_RING_FIT];

	for (int i = 0; i < n; i++)
		c[i] = probe_ring_reload(ways, sizes[i] - 1, knee) -
		       probe_ring_reload(ways, sizes[0] - 1, knee);
	return fit_two(rise, c, n);
}

void probe_ring_cache(const int *sizes, const double *rise, const double *rise_q1, int n,
		      double hot, struct probe_ring_cache *out)
{
	memset(out, 0, sizeof(*out));
	if (n < 3 || n > MAX_RING_FIT || !(hot > 0))
		return;
	double first = sizes[1], last = sizes[n - 1], best = INFINITY;
	int best_shape = 0, lo = 0, hi = 0;

	for (size_t w = 0; w < sizeof(shapes) / sizeof(shapes[0]); w++)
		for (int g = 0; g <= KNEE_GRID; g++) {
			double e =
				fit_shape(sizes, rise, n, shapes[w], knee_at(g, first, last)).sse;
			double tie = 1e-9 * (best < INFINITY ? best : 0) + 1e-6;

			if (e < best - tie) {
				best = e;
				best_shape = shapes[w];
				lo = hi = g;
			} else if (e <= best + tie && best_shape == shapes[w] && hi == g - 1) {
				hi = g;
			}
		}
	double knee = knee_at((lo + hi) / 2.0, first, last);
	struct fit f = fit_shape(sizes, rise, n, best_shape, knee);

	out->pair_ns = f.a;
	out->step_ns = f.s;
	out->knee_tasks = knee;
	out->ways = best_shape;
	out->rms_ns = sqrt(f.sse / (n - 1));
	/* A step of less than a tenth of a hop, or one that a quarter of the trials of the largest
	 * ring do not see, is noise. */
	if (!(f.s >= 0.1 * hot) || !(rise_q1[n - 1] > 0))
		return;
	out->step = 1;
	out->footprint_lines = RING_FOOTPRINT_LINES;
	out->cache_lines = lround(knee * RING_FOOTPRINT_LINES);
	out->miss_ps = lround(f.s * 1000 / RING_FOOTPRINT_LINES);
}

int probe_ring_lines(const struct probe_ring_cache *c, char *buf, size_t len)
{
	int head =
		snprintf(buf, len,
			 "# a pair's saving of %.0f ns and a reload of up to %.0f ns, from a cache "
			 "of %.1f\n# working sets, %d ways (0: fully associative); rms error %.0f "
			 "ns\n",
			 c->pair_ns, c->step_ns, c->knee_tasks, c->ways, c->rms_ns);
	size_t at = head > 0 && (size_t)head < len ? (size_t)head : len;

	if (!c->step)
		return head + snprintf(buf + at, len - at,
				       "# (no step: under a tenth of a hop, or not seen by a "
				       "quarter of the trials;\n# no task cache modelled)\n");
	return head + snprintf(buf + at, len - at,
			       "cache_lines=%ld\ncache_ways=%d\nfootprint_lines=%ld\nmiss_ps=%ld\n",
			       c->cache_lines, c->ways, c->footprint_lines, c->miss_ps);
}
