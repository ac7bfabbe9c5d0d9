/*
 * Tests of kernel-extract/rbtree: the run-queue timeline of CFS.
 *
 * Every check below is computed independently of the code under test: the structural check walks the
 * tree recursively through the raw child pointers and reads the colour bit straight from the parent
 * word (bit 0, 1 = black, as rbtree.h documents); the expected contents come from a reference list of
 * the items the test believes are queued, sorted with qsort.  Items carry a sequence number stamped
 * at insertion, so "equal keys in first-in-first-out order" becomes "(key, seq) strictly increasing in
 * order", which the checks test on every tree, random ones included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "kernel-extract/rbtree.h"

struct item {
	uint64_t key;
	uint64_t seq; /* insertion stamp: breaks ties, proves FIFO among equal keys */
	size_t slot;  /* index in the pool's queued[] or idle[] list, for O(1) random picks */
	bool queued;
	uint64_t value;	      /* augmented trees: a second key, not the order */
	uint64_t subtree_min; /* augmented trees: the least value in the subtree */
	struct rb_node node;
};

static bool item_less(const struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct item, node)->key < rb_entry(b, struct item, node)->key;
}

static struct item *item_of(const struct rb_node *node)
{
	return rb_entry_safe(node, struct item, node);
}

static int cmp_key_seq(const void *pa, const void *pb)
{
	const struct item *a = *(const struct item *const *)pa;
	const struct item *b = *(const struct item *const *)pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return 0;
}

/* ---- independent structural check ---------------------------------------------------------- */

static bool raw_black(const struct rb_node *node)
{
	return node == NULL || (node->__rb_parent_color & 1) != 0;
}

static const struct rb_node *raw_parent(const struct rb_node *node)
{
	return (const struct rb_node *)(node->__rb_parent_color & ~(uintptr_t)3);
}

/*
 * Checks the subtree at `node` and appends its items in order to out[*n]; returns its black height
 * (empty links count one).  Recursion is fine here: the depth is bounded by 2 log2(n + 1).
 */
static int check_subtree(const struct rb_node *node, const struct rb_node *expected_parent,
			 struct item **out, size_t cap, size_t *n)
{
	if (node == NULL)
		return 1;
	assert_ptr_equal(raw_parent(node), expected_parent);
	if (!raw_black(node)) {
		assert_true(raw_black(node->rb_left));
		assert_true(raw_black(node->rb_right));
	}
	int left = check_subtree(node->rb_left, node, out, cap, n);

	assert_true(*n < cap);
	out[(*n)++] = rb_entry(node, struct item, node);
	int right = check_subtree(node->rb_right, node, out, cap, n);

	assert_int_equal(left, right);
	return left + (raw_black(node) ? 1 : 0);
}

/*
 * Full invariant check of a tree against the expected set of items `expected[0..count)` (any
 * order; sorted here).  Also checks the cache, rb_first/rb_last and both rb_next/rb_prev walks.
 */
static void check_tree(const struct rb_root_cached *tree, struct item **expected, size_t count)
{
	struct item **inorder = calloc(count + 1, sizeof(*inorder));
	size_t n = 0;

	assert_non_null(inorder);
	if (count > 0) /* qsort's base must not be NULL, even for zero elements */
		qsort(expected, count, sizeof(*expected), cmp_key_seq);

	const struct rb_node *root = tree->rb_root.rb_node;

	if (root != NULL) {
		assert_true(raw_black(root));
		assert_null(raw_parent(root));
	}
	check_subtree(root, NULL, inorder, count + 1, &n);
	assert_int_equal(n, count);
	for (size_t i = 0; i < count; i++) {
		assert_ptr_equal(inorder[i],
				 expected[i]); /* same items, BST order, FIFO among equals */
		assert_true(inorder[i]->queued);
	}

	if (count == 0) {
		assert_null(rb_first_cached(tree));
		assert_null(rb_first(&tree->rb_root));
		assert_null(rb_last(&tree->rb_root));
	} else {
		assert_ptr_equal(rb_first_cached(tree), &expected[0]->node);
		assert_ptr_equal(rb_first(&tree->rb_root), &expected[0]->node);
		assert_ptr_equal(rb_last(&tree->rb_root), &expected[count - 1]->node);
	}

	size_t i = 0;

	for (struct rb_node *it = rb_first(&tree->rb_root); it; it = rb_next(it)) {
		assert_true(i < count);
		assert_ptr_equal(item_of(it), expected[i++]);
	}
	assert_int_equal(i, count);
	for (struct rb_node *it = rb_last(&tree->rb_root); it; it = rb_prev(it)) {
		assert_true(i > 0);
		assert_ptr_equal(item_of(it), expected[--i]);
	}
	assert_int_equal(i, 0);
	free(inorder);
}

/* ---- a pool of items with O(1) random choice of a queued or an idle one -------------------- */

struct pool {
	struct item *items;
	struct item **queued; /* the reference contents of the tree */
	struct item **idle;
	size_t size, nr_queued, nr_idle;
	uint64_t next_seq;
	struct rb_root_cached tree;
};

static void pool_init(struct pool *p, size_t size)
{
	p->items = calloc(size, sizeof(*p->items));
	p->queued = calloc(size, sizeof(*p->queued));
	p->idle = calloc(size, sizeof(*p->idle));
	assert_non_null(p->items);
	assert_non_null(p->queued);
	assert_non_null(p->idle);
	p->size = size;
	p->nr_queued = 0;
	p->nr_idle = size;
	p->next_seq = 0;
	p->tree = RB_ROOT_CACHED;
	for (size_t i = 0; i < size; i++) {
		RB_CLEAR_NODE(&p->items[i].node);
		p->items[i].slot = i;
		p->idle[i] = &p->items[i];
	}
}

static void pool_free(struct pool *p)
{
	free(p->items);
	free(p->queued);
	free(p->idle);
}

static void list_remove(struct item **list, size_t *len, struct item *it)
{
	struct item *last = list[--*len];

	list[it->slot] = last;
	last->slot = it->slot;
}

static void list_append(struct item **list, size_t *len, struct item *it)
{
	it->slot = *len;
	list[(*len)++] = it;
}

/* Insert by an explicit descent, rb_link_node and rb_insert_color_cached: the kernel's long form. */
static void insert_by_hand(struct rb_root_cached *tree, struct item *it)
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (it->key < rb_entry(parent, struct item, node)->key) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color_cached(&it->node, tree, leftmost);
}

static void pool_insert(struct pool *p, struct item *it, uint64_t key, bool by_hand)
{
	assert_false(it->queued);
	assert_true(RB_EMPTY_NODE(&it->node));
	it->key = key;
	it->seq = p->next_seq++;
	if (by_hand)
		insert_by_hand(&p->tree, it);
	else
		rb_add_cached(&it->node, &p->tree, item_less);
	assert_false(RB_EMPTY_NODE(&it->node));
	it->queued = true;
	list_remove(p->idle, &p->nr_idle, it);
	list_append(p->queued, &p->nr_queued, it);
}

static void pool_erase(struct pool *p, struct item *it)
{
	assert_true(it->queued);
	rb_erase_cached(&it->node, &p->tree);
	RB_CLEAR_NODE(&it->node);
	it->queued = false;
	list_remove(p->queued, &p->nr_queued, it);
	list_append(p->idle, &p->nr_idle, it);
}

static void pool_check(struct pool *p)
{
	check_tree(&p->tree, p->queued, p->nr_queued);
	/* check_tree sorted queued[]: renumber the slots. */
	for (size_t i = 0; i < p->nr_queued; i++)
		p->queued[i]->slot = i;
}

static uint64_t rng_u64(gsl_rng *rng)
{
	/* mt19937 yields 32 random bits per draw. */
	uint64_t hi = gsl_rng_get(rng);

	return (hi << 32) | gsl_rng_get(rng);
}

/* Half the keys from a narrow range (many ties), half from all of u64 (extremes included). */
static uint64_t random_key(gsl_rng *rng)
{
	return gsl_rng_uniform_int(rng, 2) ? gsl_rng_uniform_int(rng, 500) : rng_u64(rng);
}

/* ---- augmented trees ----------------------------------------------------------------------- */

static uint64_t subtree_min_of(const struct rb_node *node)
{
	return node ? rb_entry(node, struct item, node)->subtree_min : UINT64_MAX;
}

/* The callback under test's contract: this node's minimum from its value and its children's,
 * and whether it changed. */
static bool item_augment(struct rb_node *node)
{
	struct item *it = rb_entry(node, struct item, node);
	uint64_t m = it->value, old = it->subtree_min;

	if (subtree_min_of(node->rb_left) < m)
		m = subtree_min_of(node->rb_left);
	if (subtree_min_of(node->rb_right) < m)
		m = subtree_min_of(node->rb_right);
	it->subtree_min = m;
	return m != old;
}

/* Recomputes every subtree's minimum from scratch by recursion and compares with the cached one. */
static uint64_t check_augmented(const struct rb_node *node)
{
	if (node == NULL)
		return UINT64_MAX;

	uint64_t left = check_augmented(node->rb_left);
	uint64_t right = check_augmented(node->rb_right);
	const struct item *it = rb_entry(node, struct item, node);
	uint64_t m = it->value;

	if (left < m)
		m = left;
	if (right < m)
		m = right;
	assert_int_equal(it->subtree_min, m);
	return m;
}

/*
 * Random inserts and erases through the augmented calls: after every one the tree passes the full
 * red-black check, and every node's cached minimum equals the minimum recomputed by recursion, so
 * no rotation or successor move was missed. A few hundred items make trees deep enough for every
 * rebalancing case.
 */
static void test_augmented_random_operations(void **state)
{
	(void)state;
	enum {
		POOL = 300,
		OPS = 6000
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pool p;

	assert_non_null(rng);
	gsl_rng_set(rng, 20251124);
	pool_init(&p, POOL);
	for (size_t i = 0; i < OPS; i++) {
		/* Grow for the first third, then shrink and grow at random. */
		bool insert = gsl_rng_uniform_int(rng, 100) < (i < OPS / 3 ? 80U : 50U);

		if (p.nr_idle == 0)
			insert = false;
		if (p.nr_queued == 0)
			insert = true;
		if (insert) {
			struct item *it = p.idle[gsl_rng_uniform_int(rng, p.nr_idle)];

			it->key = random_key(rng);
			it->value = rng_u64(rng);
			it->seq = p.next_seq++;
			rb_add_augmented_cached(&it->node, &p.tree, item_less, item_augment);
			it->queued = true;
			list_remove(p.idle, &p.nr_idle, it);
			list_append(p.queued, &p.nr_queued, it);
		} else {
			struct item *it = gsl_rng_uniform_int(rng, 4) == 0
						  ? item_of(rb_first_cached(&p.tree))
						  : p.queued[gsl_rng_uniform_int(rng, p.nr_queued)];

			rb_erase_augmented_cached(&it->node, &p.tree, item_augment);
			RB_CLEAR_NODE(&it->node);
			it->queued = false;
			list_remove(p.queued, &p.nr_queued, it);
			list_append(p.idle, &p.nr_idle, it);
		}
		pool_check(&p);
		check_augmented(p.tree.rb_root.rb_node);
	}
	pool_free(&p);
	gsl_rng_free(rng);
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_empty_tree(void **state)
{
	(void)state;
	struct rb_root_cached tree = RB_ROOT_CACHED;
	struct rb_root plain = RB_ROOT;
	struct item one = { .key = 42 };

	assert_true(RB_EMPTY_ROOT(&tree.rb_root));
	assert_true(RB_EMPTY_ROOT(&plain));
	check_tree(&tree, NULL, 0);
	assert_null(rb_first(&plain));
	assert_null(rb_last(&plain));

	RB_CLEAR_NODE(&one.node);
	assert_true(RB_EMPTY_NODE(&one.node));
	assert_null(rb_next(&one.node));
	assert_null(rb_prev(&one.node));

	/* One node in, one node out: back to the empty state, cache included. */
	rb_add_cached(&one.node, &tree, item_less);
	one.queued = true;
	struct item *expected[] = { &one };

	check_tree(&tree, expected, 1);
	assert_false(RB_EMPTY_NODE(&one.node));
	assert_null(rb_next(&one.node));
	assert_null(rb_prev(&one.node));

	rb_erase_cached(&one.node, &tree);
	assert_true(RB_EMPTY_ROOT(&tree.rb_root));
	check_tree(&tree, NULL, 0);
}

/* Colour of a node read from the raw word: 'B' or 'R'. */
static char colour(const struct rb_node *node)
{
	return raw_black(node) ? 'B' : 'R';
}

static uint64_t key_of(const struct rb_node *node)
{
	return rb_entry(node, struct item, node)->key;
}

/*
 * Ascending keys 1..7 with the textbook bottom-up algorithm (CLRS ch. 13), worked by hand:
 *   1: 1B.  2: 1B(-,2R).  3: red-red, no uncle -> rotate at 1: 2B(1R,3R).
 *   4: red uncle 1 -> recolour, root stays black: 2B(1B,3B(-,4R)).
 *   5: rotate at 3: 2B(1B,4B(3R,5R)).  6: red uncle 3 -> recolour: 2B(1B,4R(3B,5B(-,6R))).
 *   7: rotate at 5: 2B(1B,4R(3B,6B(5R,7R))).
 * Erasing 1 then: its black leaf leaves a gap whose sibling 4 is red -> rotate at 2 (4 on top, 2 red);
 * the new sibling 3 has black children -> 3 turns red and the gap moves to red 2, which turns black:
 *   4B(2B(-,3R),6B(5R,7R)).
 */
static void test_known_shapes(void **state)
{
	(void)state;
	struct item items[8] = { 0 };
	struct rb_root_cached tree = RB_ROOT_CACHED;

	for (uint64_t k = 1; k <= 7; k++) {
		items[k].key = k;
		rb_add_cached(&items[k].node, &tree, item_less);
	}
	const struct rb_node *r = tree.rb_root.rb_node;

	assert_int_equal(key_of(r), 2);
	assert_int_equal(colour(r), 'B');
	assert_int_equal(key_of(r->rb_left), 1);
	assert_int_equal(colour(r->rb_left), 'B');
	assert_null(r->rb_left->rb_left);
	assert_null(r->rb_left->rb_right);
	const struct rb_node *four = r->rb_right;

	assert_int_equal(key_of(four), 4);
	assert_int_equal(colour(four), 'R');
	assert_int_equal(key_of(four->rb_left), 3);
	assert_int_equal(colour(four->rb_left), 'B');
	const struct rb_node *six = four->rb_right;

	assert_int_equal(key_of(six), 6);
	assert_int_equal(colour(six), 'B');
	assert_int_equal(key_of(six->rb_left), 5);
	assert_int_equal(colour(six->rb_left), 'R');
	assert_int_equal(key_of(six->rb_right), 7);
	assert_int_equal(colour(six->rb_right), 'R');
	assert_ptr_equal(rb_first_cached(&tree), &items[1].node);

	rb_erase_cached(&items[1].node, &tree);
	r = tree.rb_root.rb_node;
	assert_int_equal(key_of(r), 4);
	assert_int_equal(colour(r), 'B');
	const struct rb_node *two = r->rb_left;

	assert_int_equal(key_of(two), 2);
	assert_int_equal(colour(two), 'B');
	assert_null(two->rb_left);
	assert_int_equal(key_of(two->rb_right), 3);
	assert_int_equal(colour(two->rb_right), 'R');
	assert_ptr_equal(r->rb_right, six);
	assert_int_equal(colour(six), 'B');
	assert_int_equal(colour(six->rb_left), 'R');
	assert_int_equal(colour(six->rb_right), 'R');
	assert_ptr_equal(rb_first_cached(&tree), &items[2].node);
}

/* 100 000+ random inserts and erases in three phases: growth, steady state, shrinking to empty. */
static void test_random_operations(void **state)
{
	(void)state;
	enum {
		POOL = 4096,
		OPS_PER_PHASE = 40000,
		CHECK_EVERY = 500
	};
	/* Probability of an insert, in percent, per phase. */
	const unsigned int insert_percent[] = { 70, 50, 30 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pool p;
	size_t ops = 0;

	assert_non_null(rng);
	gsl_rng_set(rng, 20240611);
	pool_init(&p, POOL);

	for (size_t phase = 0; phase < 3; phase++) {
		for (size_t i = 1; i <= OPS_PER_PHASE; i++, ops++) {
			bool insert = gsl_rng_uniform_int(rng, 100) < insert_percent[phase];

			if (p.nr_idle == 0)
				insert = false;
			if (p.nr_queued == 0)
				insert = true;
			if (insert) {
				struct item *it = p.idle[gsl_rng_uniform_int(rng, p.nr_idle)];

				pool_insert(&p, it, random_key(rng), gsl_rng_uniform_int(rng, 2));
			} else if (gsl_rng_uniform_int(rng, 10) == 0) {
				pool_erase(&p,
					   item_of(rb_first_cached(&p.tree))); /* the CFS pick */
			} else {
				pool_erase(&p, p.queued[gsl_rng_uniform_int(rng, p.nr_queued)]);
			}
			if (i % CHECK_EVERY == 0)
				pool_check(&p);
		}
		pool_check(&p);
	}
	/* Drain in random order, checking along the way and at empty. */
	while (p.nr_queued > 0) {
		pool_erase(&p, p.queued[gsl_rng_uniform_int(rng, p.nr_queued)]);
		if (++ops % CHECK_EVERY == 0)
			pool_check(&p);
	}
	pool_check(&p);
	assert_true(ops >= 100000);
	assert_null(rb_first_cached(&p.tree));
	assert_true(RB_EMPTY_ROOT(&p.tree.rb_root));

	pool_free(&p);
	gsl_rng_free(rng);
}

/* Small trees, checked after every single operation, where rebalancing reaches the root often. */
static void test_small_trees_every_operation(void **state)
{
	(void)state;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pool p;

	assert_non_null(rng);
	gsl_rng_set(rng, 7);
	pool_init(&p, 40);
	for (size_t i = 0; i < 4000; i++) {
		bool insert = p.nr_queued == 0 || (p.nr_idle > 0 && gsl_rng_uniform_int(rng, 2));

		if (insert)
			pool_insert(&p, p.idle[gsl_rng_uniform_int(rng, p.nr_idle)],
				    gsl_rng_uniform_int(rng, 8), gsl_rng_uniform_int(rng, 2));
		else
			pool_erase(&p, p.queued[gsl_rng_uniform_int(rng, p.nr_queued)]);
		pool_check(&p);
	}
	pool_free(&p);
	gsl_rng_free(rng);
}

/* Keys 0..N-1 inserted in shuffled order: forward and backward walks give them in order. */
static void test_next_prev_walks(void **state)
{
	(void)state;
	enum {
		N = 2000
	};
	struct item *items = calloc(N, sizeof(*items));
	size_t order[N];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct rb_root_cached tree = RB_ROOT_CACHED;

	assert_non_null(items);
	assert_non_null(rng);
	gsl_rng_set(rng, 99);
	for (size_t i = 0; i < N; i++)
		order[i] = i;
	for (size_t i = N - 1; i > 0; i--) { /* Fisher-Yates */
		size_t j = gsl_rng_uniform_int(rng, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < N; i++) {
		items[order[i]].key = order[i];
		rb_add_cached(&items[order[i]].node, &tree, item_less);
	}

	uint64_t k = 0;

	for (struct rb_node *it = rb_first_cached(&tree); it; it = rb_next(it))
		assert_int_equal(key_of(it), k++);
	assert_int_equal(k, N);
	for (struct rb_node *it = rb_last(&tree.rb_root); it; it = rb_prev(it))
		assert_int_equal(key_of(it), --k);
	assert_int_equal(k, 0);

	/* Neighbours of every node, and the ends. */
	for (size_t i = 0; i < N; i++) {
		struct rb_node *next = rb_next(&items[i].node), *prev = rb_prev(&items[i].node);

		if (i + 1 < N)
			assert_ptr_equal(next, &items[i + 1].node);
		else
			assert_null(next);
		if (i > 0)
			assert_ptr_equal(prev, &items[i - 1].node);
		else
			assert_null(prev);
	}
	free(items);
	gsl_rng_free(rng);
}

/*
 * Equal keys keep insertion order, whichever insert path is used, and the leftmost-first pick
 * returns them in that order: CFS's FIFO among equal vruntimes.
 */
static void test_fifo_equal_keys(void **state)
{
	(void)state;
	enum {
		N = 60
	};
	struct item items[N] = { 0 };
	struct rb_root_cached tree = RB_ROOT_CACHED;

	/* Keys 10, 20, 10, 20, 5, 10, 20, 5, ... : three interleaved groups of equal keys. */
	const uint64_t keys[] = { 10, 20, 10, 20, 5 };

	for (size_t i = 0; i < N; i++) {
		items[i].key = keys[i % 5];
		items[i].seq = i;
		if (i % 2)
			rb_add_cached(&items[i].node, &tree, item_less);
		else
			insert_by_hand(&tree, &items[i]);
	}

	/* Expected pick order, built by hand from the pattern: all 5s, then 10s, then 20s, each by seq. */
	size_t expected[N], n = 0;

	for (size_t g = 0; g < 3; g++) {
		const uint64_t group_key = (uint64_t[]){ 5, 10, 20 }[g];

		for (size_t i = 0; i < N; i++)
			if (items[i].key == group_key)
				expected[n++] = i;
	}
	assert_int_equal(n, N);

	for (size_t i = 0; i < N; i++) {
		struct rb_node *left = rb_first_cached(&tree);

		assert_ptr_equal(left, &items[expected[i]].node);
		rb_erase_cached(left, &tree);
	}
	assert_null(rb_first_cached(&tree));
	assert_true(RB_EMPTY_ROOT(&tree.rb_root));
}

/*
 * The CFS pattern: pick the leftmost, erase it, advance its key ("vruntime") by a random slice and
 * put it back; then drain by repeatedly erasing the leftmost.  Picks never go backwards in
 * (key, seq) order as long as keys only grow, and the tree stays valid throughout.
 */
static void test_erase_leftmost_repeatedly(void **state)
{
	(void)state;
	enum {
		ENTITIES = 1000,
		PICKS = 30000,
		CHECK_EVERY = 1000
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pool p;

	assert_non_null(rng);
	gsl_rng_set(rng, 2008);
	pool_init(&p, ENTITIES);
	for (size_t i = 0; i < ENTITIES; i++)
		pool_insert(&p, p.idle[0], gsl_rng_uniform_int(rng, 1000), i % 2);
	pool_check(&p);

	uint64_t last_key = 0, last_seq = 0;

	for (size_t i = 1; i <= PICKS; i++) {
		struct item *curr = item_of(rb_first_cached(&p.tree));

		assert_non_null(curr);
		/* Minimum: not after its successor. */
		struct item *next = item_of(rb_next(&curr->node));

		if (next)
			assert_true(cmp_key_seq(&curr, &next) < 0);
		/* Monotone picks: every queued key is >= the last picked key. */
		assert_true(curr->key > last_key ||
			    (curr->key == last_key && curr->seq > last_seq) || i == 1);
		last_key = curr->key;
		last_seq = curr->seq;

		uint64_t key = curr->key;

		pool_erase(&p, curr);
		pool_insert(&p, curr, key + gsl_rng_uniform_int(rng, 3000), i % 3 == 0);
		if (i % CHECK_EVERY == 0)
			pool_check(&p);
	}

	size_t drained = 0;

	while (p.nr_queued > 0) {
		struct item *curr = item_of(rb_first_cached(&p.tree));

		assert_true(curr->key > last_key ||
			    (curr->key == last_key && curr->seq > last_seq));
		last_key = curr->key;
		last_seq = curr->seq;
		pool_erase(&p, curr);
		if (++drained % 100 == 0)
			pool_check(&p);
	}
	assert_int_equal(drained, ENTITIES);
	pool_check(&p);
	pool_free(&p);
	gsl_rng_free(rng);
}

/* The uncached rb_insert_color/rb_erase on a plain rb_root, used without the cache. */
static void test_plain_root(void **state)
{
	(void)state;
	enum {
		N = 500
	};
	struct item *items = calloc(N, sizeof(*items));
	struct item *expected[N];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	/* check_tree wants a cached root; keep the cache consistent by hand from rb_first(). */
	struct rb_root_cached view = RB_ROOT_CACHED;
	size_t count = 0;

	assert_non_null(items);
	assert_non_null(rng);
	gsl_rng_set(rng, 5);
	for (size_t i = 0; i < N; i++) {
		struct rb_node **link = &view.rb_root.rb_node, *parent = NULL;

		items[i].key = gsl_rng_uniform_int(rng, 100);
		items[i].seq = i;
		items[i].queued = true;
		while (*link) {
			parent = *link;
			link = items[i].key < key_of(parent) ? &parent->rb_left : &parent->rb_right;
		}
		rb_link_node(&items[i].node, parent, link);
		rb_insert_color(&items[i].node, &view.rb_root);
		expected[count++] = &items[i];
		view.rb_leftmost = rb_first(&view.rb_root);
		if (i % 50 == 0)
			check_tree(&view, expected, count);
	}
	check_tree(&view, expected, count);
	for (size_t i = 0; i < N; i++) { /* erase in an order unrelated to the keys: by stride 7 */
		struct item *it = &items[(i * 7) % N];

		rb_erase(&it->node, &view.rb_root);
		it->queued = false;
		count = 0;
		for (size_t j = 0; j < N; j++)
			if (items[j].queued)
				expected[count++] = &items[j];
		view.rb_leftmost = rb_first(&view.rb_root);
		if (i % 50 == 0)
			check_tree(&view, expected, count);
	}
	assert_true(RB_EMPTY_ROOT(&view.rb_root));
	check_tree(&view, expected, 0);
	free(items);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_known_shapes),
		cmocka_unit_test(test_random_operations),
		cmocka_unit_test(test_small_trees_every_operation),
		cmocka_unit_test(test_next_prev_walks),
		cmocka_unit_test(test_fifo_equal_keys),
		cmocka_unit_test(test_erase_leftmost_repeatedly),
		cmocka_unit_test(test_plain_root),
		cmocka_unit_test(test_augmented_random_operations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
