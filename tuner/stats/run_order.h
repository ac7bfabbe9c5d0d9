/*
 * run_order.h -- the order in which `tuner calibrate` runs the real benchmark.
 *
 * A virtual machine does not run at one speed. On the 2-core machines this project is measured on,
 * hackbench's time for the same workload falls by a quarter over the first half minute of load
 * after an idle spell, and then wanders by ±10 % in spells of a few seconds. Run the R repeats of
 * one group count back to back and they share one spell: its mean carries the whole deviation,
 * which the fit cannot tell from the workload's own cost. Run the group counts in rounds instead,
 * each round a fresh random order of all of them, and each mean averages R different moments, so
 * the drift becomes noise that shrinks with R instead of a bias on single points. That is the
 * randomised complete block design of the experimental-design texts, with one round per block.
 *
 *   RUN_ORDER_ROUNDS   R rounds; each round runs every group count once, in an order shuffled by
 *                      a GSL generator (mt19937) seeded with the caller's seed (the default)
 *   RUN_ORDER_BLOCKS   every group count R times back to back, in the order given
 *
 * The plan is a pure function of its arguments: the same seed gives the same order.
 */
#ifndef TUNER_RUN_ORDER_H
#define TUNER_RUN_ORDER_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	RUN_ORDER_ROUNDS,
	RUN_ORDER_BLOCKS,
} RunOrder;

/* One real run of the plan. */
typedef struct {
	guint round; /* 0-based repeat number: the run is the round-th of its group count */
	guint index; /* which of the caller's group counts it runs (an index into its array) */
} RunSlot;

/* The plan: n * repeat RunSlots (GArray of RunSlot, free with g_array_unref). n and repeat >= 1. */
GArray *run_order_plan(guint n, guint repeat, RunOrder order, guint seed);

/* "rounds" or "blocks". */
const char *run_order_name(RunOrder order);

/* Parse "rounds" or "blocks" into *order_out. FALSE (and *order_out untouched) otherwise. */
gboolean run_order_from_name(const char *name, RunOrder *order_out);

G_END_DECLS

#endif /* TUNER_RUN_ORDER_H */
