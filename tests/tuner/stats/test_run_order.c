/*
 * test_run_order.c -- the order of the real benchmark's runs: blocks keep each group count's
 * repeats together; rounds are permutations of every group count, one per repeat, fixed by the seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tuner/stats/run_order.h"

static const RunSlot *slot(GArray *plan, guint k)
{
	return &g_array_index(plan, RunSlot, k);
}

static void test_blocks(void **state)
{
	(void)state;
	g_autoptr(GArray) plan = run_order_plan(3, 2, RUN_ORDER_BLOCKS, 7);

	assert_int_equal(plan->len, 6);
	const RunSlot expected[] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 }, { 1, 2 } };
	for (guint k = 0; k < plan->len; k++) {
		assert_int_equal(slot(plan, k)->round, expected[k].round);
		assert_int_equal(slot(plan, k)->index, expected[k].index);
	}
}

/* Each round is the round-th run of every group count, once each. */
static void assert_rounds(GArray *plan, guint n, guint repeat)
{
	assert_int_equal(plan->len, n * repeat);
	for (guint r = 0; r < repeat; r++) {
		g_autofree gboolean *seen = g_new0(gboolean, n);
		for (guint k = r * n; k < (r + 1) * n; k++) {
			assert_int_equal(slot(plan, k)->round, r);
			assert_true(slot(plan, k)->index < n);
			assert_false(seen[slot(plan, k)->index]);
			seen[slot(plan, k)->index] = TRUE;
		}
	}
}

static gboolean same_plan(GArray *a, GArray *b)
{
	if (a->len != b->len)
		return FALSE;
	for (guint k = 0; k < a->len; k++)
		if (slot(a, k)->index != slot(b, k)->index ||
		    slot(a, k)->round != slot(b, k)->round)
			return FALSE;
	return TRUE;
}

static void test_rounds_are_permutations(void **state)
{
	(void)state;
	for (guint n = 1; n <= 20; n += 19) {
		g_autoptr(GArray) plan = run_order_plan(n, 3, RUN_ORDER_ROUNDS, 1);
		assert_rounds(plan, n, 3);
	}
}

static void test_rounds_are_shuffled_by_the_seed(void **state)
{
	(void)state;
	g_autoptr(GArray) a = run_order_plan(20, 3, RUN_ORDER_ROUNDS, 1);
	g_autoptr(GArray) again = run_order_plan(20, 3, RUN_ORDER_ROUNDS, 1);
	g_autoptr(GArray) other = run_order_plan(20, 3, RUN_ORDER_ROUNDS, 2);
	g_autoptr(GArray) blocks = run_order_plan(20, 3, RUN_ORDER_BLOCKS, 1);

	assert_true(same_plan(a, again));
	assert_false(same_plan(a, other));

	/* Not the identity, and not the same permutation every round: the chance that a fair shuffle
	 * of 20 gives either is below 1e-18, so a failure here is a broken shuffle. */
	guint in_place = 0, repeated = 0;
	for (guint i = 0; i < 20; i++) {
		in_place += slot(a, i)->index == i;
		repeated += slot(a, i)->index == slot(a, 20 + i)->index;
	}
	assert_true(in_place < 20);
	assert_true(repeated < 20);
	assert_false(same_plan(a, blocks));
}

static void test_names(void **state)
{
	(void)state;
	RunOrder order = RUN_ORDER_BLOCKS;

	assert_true(run_order_from_name("rounds", &order));
	assert_int_equal(order, RUN_ORDER_ROUNDS);
	assert_string_equal(run_order_name(order), "rounds");
	assert_true(run_order_from_name("blocks", &order));
	assert_int_equal(order, RUN_ORDER_BLOCKS);
	assert_string_equal(run_order_name(order), "blocks");
	assert_false(run_order_from_name("random", &order));
	assert_false(run_order_from_name(NULL, &order));
	assert_int_equal(order, RUN_ORDER_BLOCKS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_rounds_are_permutations),
		cmocka_unit_test(test_rounds_are_shuffled_by_the_seed),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
