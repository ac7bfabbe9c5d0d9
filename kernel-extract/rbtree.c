/*
 * Red-black tree rebalancing and in-order navigation; see rbtree.h.
 *
 * The invariants kept are the usual ones: the root is black, a red node has no red child, and every
 * path from a node down to an empty link passes the same number of black nodes.  Together they bound
 * the height by 2 log2(n + 1).
 *
 * Each fix-up case comes in two mirror images.  Instead of writing both, the code names a side by a
 * direction (RB_LEFT / RB_RIGHT) and reaches children through rb_child_slot(), so one code path serves
 * both images; the compiler turns the direction into a select, not a call.
 */
#include "kernel-extract/rbtree.h"

enum rb_dir {
	RB_LEFT = 0,
	RB_RIGHT = 1
};

static inline enum rb_dir rb_opposite(enum rb_dir dir)
{
	return dir == RB_LEFT ? RB_RIGHT : RB_LEFT;
}

static inline struct rb_node **rb_child_slot(struct rb_node *node, enum rb_dir dir)
{
	return dir == RB_LEFT ? &node->rb_left : &node->rb_right;
}

static inline struct rb_node *rb_child(struct rb_node *node, enum rb_dir dir)
{
	return *rb_child_slot(node, dir);
}

/* A missing child is an empty link, which counts as black. */
static inline bool rb_is_red_or_null(const struct rb_node *node)
{
	return node != NULL && rb_is_red(node);
}

static inline void rb_set_parent(struct rb_node *node, struct rb_node *parent)
{
	node->__rb_parent_color = (uintptr_t)parent | rb_color(node);
}

static inline void rb_set_color(struct rb_node *node, unsigned int color)
{
	node->__rb_parent_color = (node->__rb_parent_color & ~(uintptr_t)1) | color;
}

static inline void rb_set_black(struct rb_node *node)
{
	node->__rb_parent_color |= RB_BLACK;
}

static inline void rb_set_red(struct rb_node *node)
{
	node->__rb_parent_color &= ~(uintptr_t)1;
}

/* Make `parent` (or the root, when parent is NULL) point to `new_child` where it pointed to `old`. */
static inline void rb_change_child(struct rb_node *old, struct rb_node *new_child,
				   struct rb_node *parent, struct rb_root *root)
{
	if (parent == NULL)
		root->rb_node = new_child;
	else if (parent->rb_left == old)
		parent->rb_left = new_child;
	else
		parent->rb_right = new_child;
}

/*
 * Rotate `node` down towards `dir`: its child on the other side takes its place and `node` becomes
 * that child's `dir` child.  In-order sequence and colours are unchanged.
 */
static inline void rb_rotate(struct rb_node *node, enum rb_dir dir, struct rb_root *root,
			     rb_augment_fn augment)
{
	enum rb_dir other = rb_opposite(dir);
	struct rb_node *pivot = rb_child(node, other);
	struct rb_node *inner = rb_child(pivot, dir);
	struct rb_node *parent = rb_parent(node);

	*rb_child_slot(node, other) = inner;
	if (inner)
		rb_set_parent(inner, node);

	rb_set_parent(pivot, parent);
	rb_change_child(node, pivot, parent, root);

	*rb_child_slot(pivot, dir) = node;
	rb_set_parent(node, pivot);

	/* The pivot now spans the subtree node spanned; node spans less, so it goes first. */
	if (augment) {
		augment(node);
		augment(pivot);
	}
}

/*
 * `node` is red and may have a red parent.  Either push the conflict two levels up by recolouring
 * (red uncle), or end it with one or two rotations (black uncle).
 */
static void rb_insert_rebalance(struct rb_node *node, struct rb_root *root, rb_augment_fn augment)
{
	for (;;) {
		struct rb_node *parent = rb_parent(node);

		if (parent == NULL) {
			rb_set_black(node); /* reached the root */
			return;
		}
		if (rb_is_black(parent))
			return;

		/* A red node is never the root, so the grandparent exists (and is black). */
		struct rb_node *gparent = rb_parent(parent);
		enum rb_dir side = gparent->rb_right == parent ? RB_RIGHT : RB_LEFT;
		struct rb_node *uncle = rb_child(gparent, rb_opposite(side));

		if (rb_is_red_or_null(uncle)) {
			rb_set_black(parent);
			rb_set_black(uncle);
			rb_set_red(gparent);
			node = gparent;
			continue;
		}

		/* An inner grandchild is first rotated to the outside, where the second case applies. */
		if (rb_child(parent, rb_opposite(side)) == node) {
			rb_rotate(parent, side, root, augment);
			parent = node;
		}
		rb_set_black(parent);
		rb_set_red(gparent);
		rb_rotate(gparent, rb_opposite(side), root, augment);
		return;
	}
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	rb_insert_rebalance(node, root, NULL);
}

/*
 * A black node was removed above `node` (possibly NULL), a child of `parent`: every path through
 * `node` is one black short.  Borrow a black from the sibling's side by rotation, or recolour the
 * sibling red and move the deficit up to the parent.
 */
static void rb_erase_rebalance(struct rb_node *node, struct rb_node *parent, struct rb_root *root,
			       rb_augment_fn augment)
{
	while (parent != NULL && !rb_is_red_or_null(node)) {
		/*
		 * When `node` is NULL its sibling cannot be (the sibling's side has a black to spare), so
		 * the NULL child of the parent is the deficient side.
		 */
		enum rb_dir side = parent->rb_left == node ? RB_LEFT : RB_RIGHT;
		enum rb_dir away = rb_opposite(side);
		struct rb_node *sibling = rb_child(parent, away);

		if (rb_is_red(sibling)) {
			/* Make the sibling black, without changing black heights, to reach the cases below. */
			rb_set_black(sibling);
			rb_set_red(parent);
			rb_rotate(parent, side, root, augment);
			sibling = rb_child(parent, away);
		}

		struct rb_node *near = rb_child(sibling, side);
		struct rb_node *far = rb_child(sibling, away);

		if (!rb_is_red_or_null(near) && !rb_is_red_or_null(far)) {
			rb_set_red(sibling);
			node = parent;
			parent = rb_parent(node);
			continue;
		}

		if (!rb_is_red_or_null(far)) {
			/* Only the near nephew is red: rotate it into the far position. */
			rb_set_black(near);
			rb_set_red(sibling);
			rb_rotate(sibling, away, root, augment);
			far = sibling;
			sibling = near;
		}

		rb_set_color(sibling, rb_color(parent));
		rb_set_black(parent);
		rb_set_black(far);
		rb_rotate(parent, side, root, augment);
		return;
	}
	if (node)
		rb_set_black(node);
}

/*
 * Unlink a node with at most one child: the child (or nothing) takes its place.  Returns true when a
 * black node left a black gap; *gap and *gap_parent then say where.
 */
static inline bool rb_unlink_simple(struct rb_node *node, struct rb_root *root,
				    struct rb_node **gap, struct rb_node **gap_parent)
{
	struct rb_node *child = node->rb_left ? node->rb_left : node->rb_right;
	struct rb_node *parent = rb_parent(node);

	rb_change_child(node, child, parent, root);
	if (child)
		rb_set_parent(child, parent);
	*gap = child;
	*gap_parent = parent;
	return rb_is_black(node);
}

/*
 * Unlink a node with two children: its in-order successor (leftmost of the right subtree, which has no
 * left child) is moved into its place and takes its colour, so the gap, if any, is where the successor
 * was.
 */
static inline bool rb_unlink_by_successor(struct rb_node *node, struct rb_root *root,
					  struct rb_node **gap, struct rb_node **gap_parent,
					  struct rb_node **moved)
{
	struct rb_node *successor = node->rb_right;

	while (successor->rb_left)
		successor = successor->rb_left;

	bool removed_black = rb_is_black(successor);
	struct rb_node *child = successor->rb_right;

	if (successor == node->rb_right) {
		*gap_parent = successor;
	} else {
		struct rb_node *successor_parent = rb_parent(successor);

		successor_parent->rb_left = child;
		if (child)
			rb_set_parent(child, successor_parent);
		successor->rb_right = node->rb_right;
		rb_set_parent(node->rb_right, successor);
		*gap_parent = successor_parent;
	}
	*gap = child;

	successor->rb_left = node->rb_left;
	rb_set_parent(node->rb_left, successor);

	struct rb_node *parent = rb_parent(node);

	successor->__rb_parent_color = node->__rb_parent_color; /* same parent, same colour */
	rb_change_child(node, successor, parent, root);
	*moved = successor;
	return removed_black;
}

/*
 * Recomputes the augmented values from node up, until one does not change once past must (a
 * node whose value must be recomputed whatever happens below it; NULL: none).
 */
static void rb_augment_up(struct rb_node *node, struct rb_node *must, rb_augment_fn augment)
{
	bool past = must == NULL;

	for (; node; node = rb_parent(node)) {
		bool changed = augment(node);

		if (node == must)
			past = true;
		else if (!changed && past)
			return;
	}
}

static void rb_erase_augmentable(struct rb_node *node, struct rb_root *root, rb_augment_fn augment)
{
	struct rb_node *gap;
	struct rb_node *gap_parent;
	struct rb_node *moved = NULL;
	bool removed_black;

	if (node->rb_left && node->rb_right)
		removed_black = rb_unlink_by_successor(node, root, &gap, &gap_parent, &moved);
	else
		removed_black = rb_unlink_simple(node, root, &gap, &gap_parent);

	/*
	 * Every subtree that lost the node lies on the path from the gap up. A successor moved into
	 * the node's place is on that path too (gap_parent is the successor or below it) and heads a
	 * new set of descendants: the walk may stop only above it.
	 */
	if (augment)
		rb_augment_up(gap_parent, moved, augment);
	if (removed_black)
		rb_erase_rebalance(gap, gap_parent, root, augment);
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	rb_erase_augmentable(node, root, NULL);
}

void rb_insert_augmented_cached(struct rb_node *node, struct rb_root_cached *root, bool leftmost,
				rb_augment_fn augment)
{
	if (leftmost)
		root->rb_leftmost = node;
	/* The new leaf is in every subtree on its path: bring them up to date before rotating. */
	augment(node);
	rb_augment_up(rb_parent(node), NULL, augment);
	rb_insert_rebalance(node, &root->rb_root, augment);
}

void rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			       rb_augment_fn augment)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase_augmentable(node, &root->rb_root, augment);
}

static inline struct rb_node *rb_extreme(struct rb_node *node, enum rb_dir dir)
{
	if (node == NULL)
		return NULL;
	while (rb_child(node, dir))
		node = rb_child(node, dir);
	return node;
}

/*
 * The neighbour on side `dir`: the extreme of the subtree on that side if there is one, else the
 * first ancestor reached from its opposite side.
 */
static inline struct rb_node *rb_neighbour(const struct rb_node *node, enum rb_dir dir)
{
	struct rb_node *cur = (struct rb_node *)node; /* the walk never writes */

	if (RB_EMPTY_NODE(cur))
		return NULL;
	if (rb_child(cur, dir))
		return rb_extreme(rb_child(cur, dir), rb_opposite(dir));

	struct rb_node *parent;

	while ((parent = rb_parent(cur)) != NULL && rb_child(parent, dir) == cur)
		cur = parent;
	return parent;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	return rb_neighbour(node, RB_RIGHT);
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	return rb_neighbour(node, RB_LEFT);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	return rb_extreme(root->rb_node, RB_LEFT);
}

struct rb_node *rb_last(const struct rb_root *root)
{
	return rb_extreme(root->rb_node, RB_RIGHT);
}
