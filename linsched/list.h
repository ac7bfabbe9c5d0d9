/*
 * list.h - a circular doubly linked intrusive list, after the kernel's list_head. Wait queues use
 * it because a wakeup must not allocate: the simulator blocks and wakes millions of times.
 */
#ifndef LINSCHED_LIST_H
#define LINSCHED_LIST_H

#include <stdbool.h>

#include "kernel-extract/rbtree.h" /* container_of */

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h->prev = h;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_add(struct list_head *n, struct list_head *h)
{
	n->next = h->next;
	n->prev = h;
	h->next->prev = n;
	h->next = n;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

/* Unlinks n and leaves it pointing to itself, so list_empty(n) tells it is not on a list. */
static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

#define list_entry(ptr, type, member)	  container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)

#endif
