/*
 * Intrusive red-black tree with a cached leftmost node: the timeline of a CFS run queue.
 *
 * CFS keeps every runnable entity of a run queue in a tree ordered by vruntime and always runs the
 * leftmost one, so the minimum must be found in O(1) and insertion and removal must be O(log n)
 * without allocating.  This module provides that structure under the names of the kernel's
 * <linux/rbtree.h>, so that code in kernel-extract/ reads like sched_fair.c.  It is written for this
 * project; only the names and the calling conventions follow the kernel.
 *
 * Intrusive: the caller embeds a struct rb_node in its own object and gets the object back with
 * rb_entry().  The tree never allocates, never frees and never looks at keys; the caller owns every
 * node and the root, and the comparison lives in the caller's descent (or in the less() callback of
 * rb_add_cached()).  Nothing here has global state, so independent trees may be used from different
 * threads; one tree needs external locking if shared.
 *
 * Inserting is two steps, as in the kernel: walk down from the root to the empty link where the node
 * belongs, rb_link_node() it there (red), then rb_insert_color*() to restore the balance.
 * rb_add_cached() does both for a less() ordering.  A node equal to existing ones goes to their right,
 * so equal keys keep first-in-first-out order, as CFS does for equal vruntimes.
 *
 * A node's parent pointer and colour share one word: bit 0 is the colour (0 red, 1 black), the rest is
 * the parent's address, hence nodes must be at least 4-byte aligned (they are, holding pointers).
 * A node outside any tree can be marked with RB_CLEAR_NODE() (its parent word points to itself) and
 * recognised with RB_EMPTY_NODE().  Erasing does not clear the node: callers that need to know whether
 * a node is queued call RB_CLEAR_NODE() after the erase, or keep their own flag (CFS's on_rq).
 *
 * Augmented trees (EEVDF's timeline) keep in every node a value computed from its subtree, such as
 * the minimum of a key over the subtree, so that a search can skip subtrees that cannot hold what it
 * looks for.  The caller's rb_augment_fn recomputes one node's value from the node and its two
 * children; the augmented insert and erase call it on every node whose subtree changed (the path
 * up, as far as values change, and both nodes of each rotation), so the values are right whenever
 * the call returns.
 *
 * Costs: rb_first_cached() O(1); insertion and erasure O(log n) with at most three rotations;
 * rb_first/rb_last/rb_next/rb_prev O(log n) worst case, O(1) amortised over a full walk.
 * No recursion anywhere, so stack use is constant.
 */
#ifndef KERNEL_EXTRACT_RBTREE_H
#define KERNEL_EXTRACT_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_node {
	uintptr_t __rb_parent_color; /* parent address | colour bit (RB_BLACK or RB_RED) */
	struct rb_node *rb_right;
	struct rb_node *rb_left;
};

/* The colour lives in the low bits of the parent address. */
_Static_assert(_Alignof(struct rb_node) >= 4, "struct rb_node needs two free low address bits");

struct rb_root {
	struct rb_node *rb_node;
};

/* A tree plus its leftmost (minimum) node, NULL when the tree is empty. */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_RED	 0u
#define RB_BLACK 1u

#define RB_ROOT          \
	(struct rb_root) \
	{                \
		NULL     \
	}
#define RB_ROOT_CACHED          \
	(struct rb_root_cached) \
	{                       \
		{ NULL }, NULL  \
	}

#ifndef container_of
/* The object of type `type` whose member `member` is at `ptr`; type-checks ptr against the member. */
#define container_of(ptr, type, member)                                               \
	__extension__({                                                               \
		const __typeof__(((type *)0)->member) *container_of_member__ = (ptr); \
		(type *)((char *)container_of_member__ - offsetof(type, member));     \
	})
#endif

#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/* Like rb_entry() but maps NULL (no node: empty tree, end of a walk) to NULL. */
#define rb_entry_safe(ptr, type, member)                                                  \
	__extension__({                                                                   \
		__typeof__(ptr) rb_entry_safe_ptr__ = (ptr);                              \
		rb_entry_safe_ptr__ ? rb_entry(rb_entry_safe_ptr__, type, member) : NULL; \
	})

#define RB_EMPTY_ROOT(root) ((root)->rb_node == NULL)

/* A node "not in a tree" is one whose parent word points to itself. */
#define RB_EMPTY_NODE(node) ((node)->__rb_parent_color == (uintptr_t)(node))
#define RB_CLEAR_NODE(node) ((node)->__rb_parent_color = (uintptr_t)(node))

static inline struct rb_node *rb_parent(const struct rb_node *node)
{
	return (struct rb_node *)(node->__rb_parent_color & ~(uintptr_t)3);
}

static inline unsigned int rb_color(const struct rb_node *node)
{
	return (unsigned int)(node->__rb_parent_color & 1);
}

static inline bool rb_is_red(const struct rb_node *node)
{
	return rb_color(node) == RB_RED;
}

static inline bool rb_is_black(const struct rb_node *node)
{
	return rb_color(node) == RB_BLACK;
}

/*
 * Attach `node` as a red leaf at `*rb_link`, which must be the empty child slot of `parent` (or the
 * root slot, with parent NULL) that the caller's descent ended on.  The tree is unbalanced until
 * rb_insert_color() or rb_insert_color_cached() is called on the node.
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (uintptr_t)parent; /* colour bit 0: red */
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

/* Rebalance after rb_link_node(node, ...). */
void rb_insert_color(struct rb_node *node, struct rb_root *root);

/* Unlink `node`, which must be in `root`, and rebalance.  The node's own fields are left stale. */
void rb_erase(struct rb_node *node, struct rb_root *root);

/* In-order neighbours; NULL past either end or for a node marked RB_CLEAR_NODE(). */
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

/* Minimum and maximum by walking down; NULL for an empty tree. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

/* The cached minimum, O(1); NULL for an empty tree. */
static inline struct rb_node *rb_first_cached(const struct rb_root_cached *root)
{
	return root->rb_leftmost;
}

/*
 * rb_insert_color() for a cached tree.  `leftmost` tells whether the caller's descent only went left,
 * i.e. the new node is the new minimum; the caller knows it for free, which keeps the cache O(1).
 */
static inline void rb_insert_color_cached(struct rb_node *node, struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/* rb_erase() for a cached tree; when the minimum leaves, its in-order successor becomes the minimum. */
static inline void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
}

/*
 * Insert `node` ordered by less(a, b) ("a sorts before b"), a strict weak order.  Nodes that compare
 * equal to it stay before it: first-in-first-out among equals.
 */
static inline void rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
				 bool (*less)(const struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
}

/*
 * Recomputes node's augmented value from node itself and its children (either may be NULL);
 * returns whether it changed, so that a walk up the tree can stop where nothing changes.
 */
typedef bool (*rb_augment_fn)(struct rb_node *node);

/* rb_insert_color_cached() for an augmented tree: node was just rb_link_node()d. O(log n). */
void rb_insert_augmented_cached(struct rb_node *node, struct rb_root_cached *root, bool leftmost,
				rb_augment_fn augment);

/* rb_erase_cached() for an augmented tree. O(log n). */
void rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			       rb_augment_fn augment);

/* rb_add_cached() for an augmented tree. */
static inline void rb_add_augmented_cached(struct rb_node *node, struct rb_root_cached *tree,
					   bool (*less)(const struct rb_node *,
							const struct rb_node *),
					   rb_augment_fn augment)
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_augmented_cached(node, tree, leftmost, augment);
}

#endif /* KERNEL_EXTRACT_RBTREE_H */
