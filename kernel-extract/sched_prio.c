/*
 * sched_prio.c - nice levels to load weights, and weighted time.
 *
 * A nice step changes a task's share by about 10% against a nice-0 neighbour, which makes the
 * weights a geometric series with ratio ~1.25 anchored at nice 0 = 1024. prio_to_wmult holds
 * 2^32 / weight so that divisions by a weight become multiplications and a shift.
 */
#include "kernel-extract/sched.h"

const int prio_to_weight[NICE_WIDTH] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548,	 7620,	6100,  4904,  3906,
	/*  -5 */ 3121,	 2501,	1991,  1586,  1277,
	/*   0 */ 1024,	 820,	655,   526,   423,
	/*   5 */ 335,	 272,	215,   172,   137,
	/*  10 */ 110,	 87,	70,    56,    45,
	/*  15 */ 36,	 29,	23,    18,    15,
};

const u32 prio_to_wmult[NICE_WIDTH] = {
	/* -20 */ 48388,     59856,	76040,	   92818,     118348,
	/* -15 */ 147320,    184698,	229616,	   287308,    360437,
	/* -10 */ 449829,    563644,	704093,	   875809,    1099582,
	/*  -5 */ 1376151,   1717300,	2157191,   2708050,   3363326,
	/*   0 */ 4194304,   5237765,	6557202,   8165337,   10153587,
	/*   5 */ 12820798,  15790321,	19976592,  24970740,  31350126,
	/*  10 */ 39045157,  49367440,	61356676,  76695844,  95443717,
	/*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

void set_load_weight(struct task_struct *p)
{
	int idx = p->static_prio - 100;

	p->se.load.weight = (unsigned long)prio_to_weight[idx];
	p->se.load.inv_weight = prio_to_wmult[idx];
}

/* A queue's weight is a sum with no inverse in the table: calc_delta_mine divides by it exactly. */
void update_load_add(struct load_weight *lw, unsigned long inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

void update_load_sub(struct load_weight *lw, unsigned long dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

/*
 * delta * weight / lw->weight. A task's weight has its inverse in prio_to_wmult and is divided by
 * in the kernel's fixed point: multiply by 2^32 / weight and shift by 32, rounding to nearest
 * (within 1 ns of the exact quotient for the deltas of a tick or a slice). A queue's summed weight
 * has no table entry, and a truncated inverse would make slices several ns short (so a task would
 * be preempted at exactly its slice instead of after it): it is divided exactly. Products are
 * formed in 128 bits so that no delta overflows.
 */
u64 calc_delta_mine(u64 delta, unsigned long weight, struct load_weight *lw)
{
	unsigned __int128 tmp = (unsigned __int128)delta * weight;

	if (lw->inv_weight == 0)
		return (u64)((tmp + lw->weight / 2) / lw->weight);
	return (u64)((tmp * lw->inv_weight + (1ULL << (WMULT_SHIFT - 1))) >> WMULT_SHIFT);
}

u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (se->load.weight != NICE_0_LOAD)
		delta = calc_delta_mine(delta, NICE_0_LOAD, &se->load);
	return delta;
}
