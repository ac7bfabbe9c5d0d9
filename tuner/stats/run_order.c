/*
 * run_order.c -- the order of the real benchmark's runs (see run_order.h).
 */
#include "tuner/stats/run_order.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

GArray *run_order_plan(guint n, guint repeat, RunOrder order, guint seed)
{
	GArray *plan = g_array_sized_new(FALSE, FALSE, sizeof(RunSlot), n * repeat);

	if (order == RUN_ORDER_BLOCKS) {
		for (guint i = 0; i < n; i++)
			for (guint r = 0; r < repeat; r++)
				g_array_append_val(plan, ((RunSlot){ .round = r, .index = i }));
		return plan;
	}

	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	g_autofree guint *perm = g_new(guint, n);

	gsl_rng_set(rng, seed);
	for (guint r = 0; r < repeat; r++) {
		for (guint i = 0; i < n; i++)
			perm[i] = i;
		gsl_ran_shuffle(rng, perm, n, sizeof *perm);
		for (guint i = 0; i < n; i++)
			g_array_append_val(plan, ((RunSlot){ .round = r, .index = perm[i] }));
	}
	gsl_rng_free(rng);
	return plan;
}

const char *run_order_name(RunOrder order)
{
	return order == RUN_ORDER_BLOCKS ? "blocks" : "rounds";
}

gboolean run_order_from_name(const char *name, RunOrder *order_out)
{
	if (g_strcmp0(name, "rounds") == 0)
		*order_out = RUN_ORDER_ROUNDS;
	else if (g_strcmp0(name, "blocks") == 0)
		*order_out = RUN_ORDER_BLOCKS;
	else
		return FALSE;
	return TRUE;
}
