/*
 * Tests of `linsched btf` (linsched/cli/btf.h): BTF blobs built here by hand, type by type, each
 * expected offset worked out in a comment from the members' bit offsets; then the program end to
 * end on such blobs written to files, and on the running kernel's BTF when this host shows one
 * (its offsets are not asserted: they are the kernel's business).
 *
 * Every blob is handed to the reader in an allocation of exactly its size, so that the sanitizer
 * build catches a read one byte past its end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <glib.h>

#include "linsched/cli/btf.h"
#include "tests/support/support.h"

#define LINSCHED_RUN(...) run_program(LINSCHED, (const char *const[]){ __VA_ARGS__, NULL }, NULL)

/* ---- building a blob ---------------------------------------------------------------------------- */

enum {
	INT = 1,
	PTR = 2,
	ARRAY = 3,
	STRUCT = 4,
	UNION = 5,
	ENUM = 6,
	FWD = 7,
	TYPEDEF = 8,
	VOLATILE = 9,
	CONST = 10,
	RESTRICT = 11,
	FUNC = 12,
	FUNC_PROTO = 13,
	VAR = 14,
	DATASEC = 15,
	FLOAT = 16,
	DECL_TAG = 17,
	TYPE_TAG = 18,
	ENUM64 = 19,
};

/* The type and string sections as they grow; ids are handed out from 1. */
struct builder {
	GByteArray *types, *strings;
	uint32_t last_id;
};

static void b_init(struct builder *b)
{
	b->types = g_byte_array_new();
	b->strings = g_byte_array_new();
	g_byte_array_append(b->strings, (const guint8 *)"", 1); /* offset 0: the empty name */
	b->last_id = 0;
}

/* The name's offset in the string section; "" is 0. */
static uint32_t b_str(struct builder *b, const char *s)
{
	uint32_t off = b->strings->len;

	if (!*s)
		return 0;
	g_byte_array_append(b->strings, (const guint8 *)s, (guint)strlen(s) + 1);
	return off;
}

static void b_u32(struct builder *b, uint32_t v)
{
	g_byte_array_append(b->types, (const guint8 *)&v, sizeof(v));
}

/* A type's 12 bytes; its data follows with b_u32 or b_member. Returns its id. */
static uint32_t b_type(struct builder *b, const char *name, unsigned int kind, unsigned int vlen,
		       int kind_flag, uint32_t size_or_type)
{
	b_u32(b, b_str(b, name));
	b_u32(b, (uint32_t)kind << 24 | vlen | (uint32_t)(kind_flag ? 1u : 0u) << 31);
	b_u32(b, size_or_type);
	return ++b->last_id;
}

static void b_member(struct builder *b, const char *name, uint32_t type, uint32_t offset)
{
	b_u32(b, b_str(b, name));
	b_u32(b, type);
	b_u32(b, offset);
}

/* An INT of size bytes and all its bits, signed. */
static uint32_t b_int(struct builder *b, const char *name, uint32_t size)
{
	uint32_t id = b_type(b, name, INT, 0, 0, size);

	b_u32(b, 1u << 24 | size * 8);
	return id;
}

struct blob {
	guint8 *data;
	size_t len;
};

/* The header {magic, version 1, flags 0, hdr_len 24, types at 0, strings right after}, the two
 * sections, and the builder freed. */
static struct blob b_finish(struct builder *b)
{
	struct blob out;
	uint16_t magic = 0xeB9F;
	uint8_t version = 1, flags = 0;
	uint32_t hdr[5] = { 24, 0, b->types->len, b->types->len, b->strings->len };
	GByteArray *all = g_byte_array_new();

	g_byte_array_append(all, (const guint8 *)&magic, 2);
	g_byte_array_append(all, &version, 1);
	g_byte_array_append(all, &flags, 1);
	g_byte_array_append(all, (const guint8 *)hdr, sizeof(hdr));
	g_byte_array_append(all, b->types->data, b->types->len);
	g_byte_array_append(all, b->strings->data, b->strings->len);
	g_byte_array_free(b->types, TRUE);
	g_byte_array_free(b->strings, TRUE);
	out.len = all->len;
	out.data = g_byte_array_free(all, FALSE);
	return out;
}

/* Header fields by their byte offset, for the tests that break one. */
static void blob_set32(struct blob *bl, size_t at, uint32_t v)
{
	memcpy(bl->data + at, &v, sizeof(v));
}

/* The reader on the first len bytes of the blob, copied to an allocation of exactly that size. */
static int lookup(const struct blob *bl, size_t len, const char *sname, const char *member,
		  unsigned long *off, char *err, size_t errlen)
{
	void *exact = g_memdup2(bl->data, len);
	int rc = linsched_btf_member_offset(exact, len, sname, member, off, err, errlen);

	g_free(exact);
	return rc;
}

static void expect_offset(const struct blob *bl, const char *sname, const char *member,
			  unsigned long want)
{
	char err[512] = "";
	unsigned long off = 12345;
	int rc = lookup(bl, bl->len, sname, member, &off, err, sizeof(err));

	if (rc != LINSCHED_BTF_OK)
		fail_msg("%s.%s: status %d (%s), want offset %lu", sname, member, rc, err, want);
	if (off != want)
		fail_msg("%s.%s: offset %lu, want %lu", sname, member, off, want);
}

/* The first len bytes refused with status, a message holding needle (NULL: any). */
static void expect_status_len(const struct blob *bl, size_t len, const char *sname,
			      const char *member, int status, const char *needle)
{
	char err[512] = "";
	unsigned long off = 12345;
	int rc = lookup(bl, len, sname, member, &off, err, sizeof(err));

	if (rc != status)
		fail_msg("%s.%s: status %d (%s), want %d", sname, member, rc, err, status);
	if (needle && !strstr(err, needle))
		fail_msg("%s.%s: message '%s' does not say '%s'", sname, member, err, needle);
	if (strchr(err, '\n'))
		fail_msg("%s.%s: message '%s' is more than one line", sname, member, err);
	assert_int_equal(off, 12345); /* untouched */
}

static void expect_status(const struct blob *bl, const char *sname, const char *member, int status,
			  const char *needle)
{
	expect_status_len(bl, bl->len, sname, member, status, needle);
}

/* ---- the blobs ----------------------------------------------------------------------------------- */

/*
 * struct point { int x; int y; long z; };  ids: 1 int, 2 long, 3 point.
 * x at bit 0: byte 0; y at bit 32: byte 4; z at bit 64: byte 8.
 */
static struct blob plain_blob(void)
{
	struct builder b;

	b_init(&b);
	b_int(&b, "int", 4);
	b_int(&b, "long", 8);
	b_type(&b, "point", STRUCT, 3, 0, 16);
	b_member(&b, "x", 1, 0);
	b_member(&b, "y", 1, 32);
	b_member(&b, "z", 2, 64);
	return b_finish(&b);
}

/*
 * struct task {
 *	int a;                         bit 0
 *	union {                        bit 64: byte 8
 *		int b;                 bit 0 of the union
 *		const struct {         bit 0 of the union (through a CONST)
 *			int c;         bit 0
 *			int wakee;     bit 32: byte 4
 *		};
 *	};
 *	int d;                         bit 128: byte 16
 * };
 * struct outer { long pad; struct task t; };   t at bit 64: byte 8
 *
 * ids: 1 int, 2 the anonymous struct, 3 the anonymous union, 4 task, 5 CONST -> 2, 6 long, 7 outer.
 * task.a = 0, task.b = 8 + 0 = 8, task.c = 8 + 0 + 0 = 8, task.wakee = 8 + 0 + 4 = 12,
 * task.d = 16; outer.t = 8, outer.t.wakee = 8 + 12 = 20, outer.t.d = 8 + 16 = 24.
 */
static struct blob anon_blob(void)
{
	struct builder b;

	b_init(&b);
	b_int(&b, "int", 4);
	b_type(&b, "", STRUCT, 2, 0, 8);
	b_member(&b, "c", 1, 0);
	b_member(&b, "wakee", 1, 32);
	b_type(&b, "", UNION, 2, 0, 8);
	b_member(&b, "b", 1, 0);
	b_member(&b, "", 5, 0);
	b_type(&b, "task", STRUCT, 3, 0, 24);
	b_member(&b, "a", 1, 0);
	b_member(&b, "", 3, 64);
	b_member(&b, "d", 1, 128);
	b_type(&b, "", CONST, 0, 0, 2);
	b_int(&b, "long", 8);
	b_type(&b, "outer", STRUCT, 2, 0, 32);
	b_member(&b, "pad", 6, 0);
	b_member(&b, "t", 4, 64);
	return b_finish(&b);
}

/*
 * struct flags {                kind_flag: offset = bitfield size << 24 | bit offset
 *	int lo : 3;          3 << 24 | 0: a bitfield on a byte boundary
 *	int hi : 5;          5 << 24 | 3
 *	int whole;           0 << 24 | 32: byte 4
 *	char far;            0 << 24 | 0x123450 (bit 1193040): byte 149130
 * };
 * struct oldbits {              no kind_flag: a bitfield is an INT of fewer bits
 *	int three : 3;       bit 0, type 3 (an int of 3 bits)
 *	char odd;            bit 12: not on a byte boundary
 *	int full;            bit 32: byte 4
 *	int shifted;         bit 64, type 6 (an int whose bits start at its bit 8)
 * };
 * ids: 1 int, 2 char, 3 int:3, 4 flags, 5 oldbits, 6 the shifted int.
 */
static struct blob bitfield_blob(void)
{
	struct builder b;

	b_init(&b);
	b_int(&b, "int", 4);
	b_int(&b, "char", 1);
	b_type(&b, "int", INT, 0, 0, 4);
	b_u32(&b, 1u << 24 | 3);
	b_type(&b, "flags", STRUCT, 4, 1, 149132);
	b_member(&b, "lo", 1, 3u << 24 | 0);
	b_member(&b, "hi", 1, 5u << 24 | 3);
	b_member(&b, "whole", 1, 32);
	b_member(&b, "far", 2, 0x123450);
	b_type(&b, "oldbits", STRUCT, 4, 0, 12);
	b_member(&b, "three", 3, 0);
	b_member(&b, "odd", 2, 12);
	b_member(&b, "full", 1, 32);
	b_member(&b, "shifted", 6, 64);
	b_type(&b, "int", INT, 0, 0, 4);
	b_u32(&b, 8u << 16 | 24);
	return b_finish(&b);
}

/*
 * Before the real struct task: a FWD of that name (struct task;), a STRUCT task of size 0 and a
 * UNION task, none of which count.
 * ids: 1 FWD task, 2 STRUCT task size 0, 3 int, 4 UNION task {x at bit 0},
 * 5 STRUCT task {pad at bit 0, x at bit 32}: task.x = byte 4.
 */
static struct blob fwd_blob(void)
{
	struct builder b;

	b_init(&b);
	b_type(&b, "task", FWD, 0, 0, 0);
	b_type(&b, "task", STRUCT, 0, 0, 0);
	b_int(&b, "int", 4);
	b_type(&b, "task", UNION, 1, 0, 4);
	b_member(&b, "x", 3, 0);
	b_type(&b, "task", STRUCT, 2, 0, 8);
	b_member(&b, "pad", 3, 0);
	b_member(&b, "x", 3, 32);
	return b_finish(&b);
}

/*
 * One type of every kind, each with the data its kind carries (vlen 2 or 3 where the data
 * depends on vlen), then struct target: a skip of one wrong size anywhere misplaces it.
 *
 *   1 INT int (4 bytes)              2 PTR -> 1                 3 ARRAY of 16 int (12 bytes)
 *   4 STRUCT pair {a, b} (2 x 12)    5 UNION either {i, j}      6 ENUM color {RED, GREEN, BLUE}
 *   7 FWD target                     8 TYPEDEF int_t -> 1       9 VOLATILE -> 1
 *  10 CONST -> 1                    11 RESTRICT -> 2           12 FUNC_PROTO int (int, int *)
 *  13 FUNC f -> 12, vlen 1: its linkage, not a count          14 VAR v -> 1 (4 bytes: linkage)
 *  15 DATASEC .data {v at 0, v at 4} (2 x 12)                 16 FLOAT double
 *  17 DECL_TAG tag -> 4, component -1 (4 bytes)               18 TYPE_TAG user -> 1
 *  19 ENUM64 big {LO, HI} (2 x 12)
 *  20 STRUCT target { volatile int first;  bit 0
 *                     double second;       bit 64: byte 8
 *                     int_t third;         bit 128: byte 16
 *                     user int fourth; };  bit 160: byte 20
 */
static struct blob every_kind_blob(void)
{
	struct builder b;

	b_init(&b);
	b_int(&b, "int", 4);
	b_type(&b, "", PTR, 0, 0, 1);
	b_type(&b, "", ARRAY, 0, 0, 0);
	b_u32(&b, 1);
	b_u32(&b, 1);
	b_u32(&b, 16);
	b_type(&b, "pair", STRUCT, 2, 0, 8);
	b_member(&b, "a", 1, 0);
	b_member(&b, "b", 1, 32);
	b_type(&b, "either", UNION, 2, 0, 4);
	b_member(&b, "i", 1, 0);
	b_member(&b, "j", 1, 0);
	b_type(&b, "color", ENUM, 3, 0, 4);
	for (uint32_t v = 0; v < 3; v++) {
		b_u32(&b, b_str(&b, v == 0 ? "RED" : v == 1 ? "GREEN" : "BLUE"));
		b_u32(&b, v);
	}
	b_type(&b, "target", FWD, 0, 0, 0);
	b_type(&b, "int_t", TYPEDEF, 0, 0, 1);
	b_type(&b, "", VOLATILE, 0, 0, 1);
	b_type(&b, "", CONST, 0, 0, 1);
	b_type(&b, "", RESTRICT, 0, 0, 2);
	b_type(&b, "", FUNC_PROTO, 2, 0, 1);
	b_u32(&b, b_str(&b, "x"));
	b_u32(&b, 1);
	b_u32(&b, b_str(&b, "p"));
	b_u32(&b, 2);
	b_type(&b, "f", FUNC, 1, 0, 12);
	b_type(&b, "v", VAR, 0, 0, 1);
	b_u32(&b, 1);
	b_type(&b, ".data", DATASEC, 2, 0, 8);
	for (uint32_t v = 0; v < 2; v++) {
		b_u32(&b, 14);
		b_u32(&b, 4 * v);
		b_u32(&b, 4);
	}
	b_type(&b, "double", FLOAT, 0, 0, 8);
	b_type(&b, "tag", DECL_TAG, 0, 0, 4);
	b_u32(&b, UINT32_MAX);
	b_type(&b, "user", TYPE_TAG, 0, 0, 1);
	b_type(&b, "big", ENUM64, 2, 0, 8);
	for (uint32_t v = 0; v < 2; v++) {
		b_u32(&b, b_str(&b, v == 0 ? "LO" : "HI"));
		b_u32(&b, v);
		b_u32(&b, 1);
	}
	assert_int_equal(b_type(&b, "target", STRUCT, 4, 0, 24), 20);
	b_member(&b, "first", 9, 0);
	b_member(&b, "second", 16, 64);
	b_member(&b, "third", 8, 128);
	b_member(&b, "fourth", 18, 160);
	return b_finish(&b);
}

static void blob_free(struct blob *bl)
{
	g_free(bl->data);
	bl->data = NULL;
}

/* ---- the reader ---------------------------------------------------------------------------------- */

static void test_plain_struct(void **state)
{
	struct blob bl = plain_blob();

	(void)state;
	expect_offset(&bl, "point", "x", 0);
	expect_offset(&bl, "point", "y", 4);
	expect_offset(&bl, "point", "z", 8);
	expect_status(&bl, "point", "w", LINSCHED_BTF_NO_MEMBER, "no member w");
	expect_status(&bl, "pointer", "x", LINSCHED_BTF_NO_STRUCT, "pointer");
	/* A member of an INT is no member. */
	expect_status(&bl, "point", "x.y", LINSCHED_BTF_NO_MEMBER, "no struct or union");
	expect_status(&bl, "point", "", LINSCHED_BTF_NO_MEMBER, NULL);
	expect_status(&bl, "point", "x.", LINSCHED_BTF_NO_MEMBER, NULL);
	blob_free(&bl);
}

static void test_anonymous_members(void **state)
{
	struct blob bl = anon_blob();

	(void)state;
	expect_offset(&bl, "task", "a", 0);
	expect_offset(&bl, "task", "b", 8);
	expect_offset(&bl, "task", "c", 8);
	expect_offset(&bl, "task", "wakee", 12);
	expect_offset(&bl, "task", "d", 16);
	expect_offset(&bl, "outer", "t", 8);
	expect_offset(&bl, "outer", "t.wakee", 20);
	expect_offset(&bl, "outer", "t.d", 24);
	expect_status(&bl, "outer", "t.nope", LINSCHED_BTF_NO_MEMBER, "no member t.nope");
	/* The anonymous members are found by their members, not as STRUCTs of their own. */
	expect_status(&bl, "", "c", LINSCHED_BTF_NO_STRUCT, NULL);
	blob_free(&bl);
}

static void test_bitfields(void **state)
{
	struct blob bl = bitfield_blob();

	(void)state;
	expect_offset(&bl, "flags", "whole", 4);
	expect_offset(&bl, "flags", "far", 149130);
	expect_status(&bl, "flags", "hi", LINSCHED_BTF_BITFIELD, "5-bit bitfield at bit 3");
	expect_status(&bl, "flags", "lo", LINSCHED_BTF_BITFIELD, "3-bit bitfield at bit 0");
	expect_offset(&bl, "oldbits", "full", 4);
	expect_status(&bl, "oldbits", "three", LINSCHED_BTF_BITFIELD, "3 bits of a 4-byte int");
	expect_status(&bl, "oldbits", "odd", LINSCHED_BTF_BITFIELD, "bit 12");
	expect_status(&bl, "oldbits", "shifted", LINSCHED_BTF_BITFIELD, "+ 8");
	blob_free(&bl);
}

static void test_declarations_skipped(void **state)
{
	struct blob bl = fwd_blob();
	struct builder b;

	(void)state;
	expect_offset(&bl, "task", "x", 4);
	blob_free(&bl);

	/* Only declared: no struct. */
	b_init(&b);
	b_type(&b, "task", FWD, 0, 0, 0);
	bl = b_finish(&b);
	expect_status(&bl, "task", "x", LINSCHED_BTF_NO_STRUCT, "no struct task");
	blob_free(&bl);
}

static void test_every_kind(void **state)
{
	struct blob bl = every_kind_blob();

	(void)state;
	expect_offset(&bl, "target", "first", 0);
	expect_offset(&bl, "target", "second", 8);
	expect_offset(&bl, "target", "third", 16);
	expect_offset(&bl, "target", "fourth", 20);
	expect_offset(&bl, "pair", "b", 4);
	blob_free(&bl);
}

/*
 * Each kind alone between an int (id 1) and struct target {int pad; int x;} (id 3, x at bit 32:
 * byte 4), its data all zeros: read too short, the zeros that follow are a type of kind 0, which
 * is refused; read too long, the target is swallowed.
 */
static void test_each_kind_size(void **state)
{
	static const struct {
		unsigned int kind, vlen, data; /* data: bytes after the 12 */
	} kinds[] = {
		{ INT, 0, 4 },	       { PTR, 0, 0 },	   { ARRAY, 0, 12 },   { STRUCT, 2, 24 },
		{ UNION, 2, 24 },      { ENUM, 2, 16 },	   { FWD, 0, 0 },      { TYPEDEF, 0, 0 },
		{ VOLATILE, 0, 0 },    { CONST, 0, 0 },	   { RESTRICT, 0, 0 }, { FUNC, 2, 0 },
		{ FUNC_PROTO, 2, 16 }, { VAR, 0, 4 },	   { DATASEC, 2, 24 }, { FLOAT, 0, 0 },
		{ DECL_TAG, 0, 4 },    { TYPE_TAG, 0, 0 }, { ENUM64, 2, 24 },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
		struct builder b;
		struct blob bl;
		char err[512] = "";
		unsigned long off = 0;

		b_init(&b);
		b_int(&b, "int", 4);
		b_type(&b, "filler", kinds[i].kind, kinds[i].vlen, 0, 1);
		for (unsigned int k = 0; k < kinds[i].data / 4; k++)
			b_u32(&b, 0);
		b_type(&b, "target", STRUCT, 2, 0, 8);
		b_member(&b, "pad", 1, 0);
		b_member(&b, "x", 1, 32);
		bl = b_finish(&b);
		int rc = lookup(&bl, bl.len, "target", "x", &off, err, sizeof(err));

		if (rc != LINSCHED_BTF_OK || off != 4)
			fail_msg("kind %u: status %d (%s), offset %lu; want 4", kinds[i].kind, rc,
				 err, off);
		blob_free(&bl);
	}
}

/*
 * plain_blob's sections: types 80 bytes (int: 12 + 4 at 0, long: 12 + 4 at 16, point: 12 + 3 x 12
 * at 32), strings 22 ("", "int", "long", "point", "x", "y", "z" with their NULs); 24 + 80 + 22 =
 * 126 bytes in all.
 */
static void test_truncated(void **state)
{
	struct blob bl = plain_blob();

	(void)state;
	assert_int_equal(bl.len, 126);
	/* Cut anywhere: no magic, no whole header, or the string section ends beyond the file. */
	for (size_t len = 0; len < bl.len; len++)
		expect_status_len(&bl, len, "point", "x", LINSCHED_BTF_NOT_BTF, "not BTF");

	/* The header says the type section is shorter than its types (the strings stay where they
	 * are): 68 bytes end inside point's members (36 bytes from 32, 24 of them there); 39
	 * inside point's first 12 (7 bytes from 32); 30 inside the long's data (2 of its 4). */
	blob_set32(&bl, 12, 68);
	expect_status(
		&bl, "point", "x", LINSCHED_BTF_CORRUPT,
		"ends inside type id 3 (STRUCT with vlen 3 needs 36 bytes after its 12, 24 left)");
	blob_set32(&bl, 12, 39);
	expect_status(&bl, "point", "x", LINSCHED_BTF_CORRUPT,
		      "ends inside type id 3 (7 bytes left");
	blob_set32(&bl, 12, 30);
	expect_status(&bl, "point", "x", LINSCHED_BTF_CORRUPT,
		      "ends inside type id 2 (INT with vlen 0 needs 4 bytes after its 12, 2 left)");
	/* Whole types only: the struct is not there, nothing is misread. */
	blob_set32(&bl, 12, 32);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NO_STRUCT, "no struct point");
	blob_free(&bl);
}

static void test_not_btf(void **state)
{
	struct blob bl = plain_blob();
	uint16_t magic;

	(void)state;
	magic = 0x1234;
	memcpy(bl.data, &magic, 2);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "magic 0x1234");
	magic = 0x9FEB; /* 0xeB9F as the other byte order writes it */
	memcpy(bl.data, &magic, 2);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "other byte order");
	magic = 0xeB9F;
	memcpy(bl.data, &magic, 2);
	expect_offset(&bl, "point", "y", 4);

	bl.data[2] = 2;
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "version 2");
	bl.data[2] = 1;

	blob_set32(&bl, 4, 20); /* hdr_len below the header's 24 bytes */
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "header length 20");
	blob_set32(&bl, 4, (uint32_t)bl.len + 1);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "header length");
	blob_set32(&bl, 4, 24);

	/* type_off + type_len one past the end, and one that wraps a u32. */
	uint32_t tlen, slen;

	memcpy(&tlen, bl.data + 12, 4);
	memcpy(&slen, bl.data + 20, 4);
	blob_set32(&bl, 8, slen + 1);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "type section");
	blob_set32(&bl, 8, UINT32_MAX);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "type section");
	blob_set32(&bl, 8, 0);
	blob_set32(&bl, 16, tlen + 1);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "string section");
	blob_set32(&bl, 16, tlen);

	/* Strings that do not end in NUL: the last one loses its terminator. */
	blob_set32(&bl, 20, slen - 1);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "NUL");
	blob_set32(&bl, 20, 0);
	expect_status(&bl, "point", "x", LINSCHED_BTF_NOT_BTF, "NUL");
	blob_set32(&bl, 20, slen);
	expect_offset(&bl, "point", "z", 8);

	/* A larger header (a later kernel's): its extra bytes are skipped. */
	struct blob wide = { g_malloc(bl.len + 8), bl.len + 8 };

	memcpy(wide.data, bl.data, 24);
	memset(wide.data + 24, 0xAA, 8);
	memcpy(wide.data + 32, bl.data + 24, bl.len - 24);
	blob_set32(&wide, 4, 32);
	expect_offset(&wide, "point", "z", 8);
	blob_free(&wide);
	blob_free(&bl);
}

static void test_unknown_kind(void **state)
{
	struct builder b;
	struct blob bl;

	(void)state;
	static const unsigned int kinds[] = { 0, 20, 31 };

	for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
		char needle[64];

		b_init(&b);
		b_int(&b, "int", 4);
		b_type(&b, "odd", kinds[i], 0, 0, 0);
		bl = b_finish(&b);
		snprintf(needle, sizeof(needle), "type id 2: unknown kind %u", kinds[i]);
		expect_status(&bl, "odd", "x", LINSCHED_BTF_CORRUPT, needle);
		blob_free(&bl);
	}
}

static void test_bad_references(void **state)
{
	struct builder b;
	struct blob bl;

	(void)state;
	/* A member's name past the string section. */
	b_init(&b);
	b_int(&b, "int", 4);
	b_type(&b, "s", STRUCT, 1, 0, 4);
	b_u32(&b, 4096);
	b_u32(&b, 1);
	b_u32(&b, 0);
	bl = b_finish(&b);
	expect_status(&bl, "s", "x", LINSCHED_BTF_CORRUPT, "name offset 4096");
	blob_free(&bl);

	/* An anonymous member of type id 9, in a blob of 2 types. */
	b_init(&b);
	b_int(&b, "int", 4);
	b_type(&b, "s", STRUCT, 1, 0, 4);
	b_member(&b, "", 9, 0);
	bl = b_finish(&b);
	expect_status(&bl, "s", "x", LINSCHED_BTF_CORRUPT, "type id 9");
	blob_free(&bl);

	/* An anonymous struct that holds itself (id 1, in s1); a typedef that is itself (id 3, in
	 * s2). */
	b_init(&b);
	b_type(&b, "", STRUCT, 1, 0, 4);
	b_member(&b, "", 1, 0);
	b_type(&b, "s1", STRUCT, 1, 0, 4);
	b_member(&b, "", 1, 0);
	b_type(&b, "loop", TYPEDEF, 0, 0, 3);
	b_type(&b, "s2", STRUCT, 1, 0, 4);
	b_member(&b, "", 3, 0);
	bl = b_finish(&b);
	expect_status(&bl, "s1", "x", LINSCHED_BTF_CORRUPT, "anonymous members nested more than");
	expect_status(&bl, "s2", "x", LINSCHED_BTF_CORRUPT, "typedefs and qualifiers in a row");
	blob_free(&bl);
}

/* ---- the program --------------------------------------------------------------------------------- */

static char *write_blob(const char *dir, const char *name, const struct blob *bl)
{
	char *path = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(path, (const char *)bl->data, (gssize)bl->len, NULL));
	return path;
}

static void test_program(void **state)
{
	const char *dir = *state;
	struct blob bl = anon_blob();
	g_autofree char *path = write_blob(dir, "anon.btf", &bl);
	struct run r;

	blob_free(&bl);
	r = LINSCHED_RUN("btf", "--file", path, "task.wakee", "task.b", "outer.t.wakee", "task.d");
	expect_clean_exit(&r, "linsched btf");
	assert_string_equal(r.out, "12\n8\n20\n16\n");
	run_clear(&r);

	/* The flag after the arguments, and as --file=PATH. */
	g_autofree char *eq = g_strconcat("--file=", path, NULL);

	r = LINSCHED_RUN("btf", "task.a", eq);
	expect_clean_exit(&r, "linsched btf --file=");
	assert_string_equal(r.out, "0\n");
	run_clear(&r);

	r = LINSCHED_RUN("btf", "--help");
	expect_clean_exit(&r, "linsched btf --help");
	assert_true(
		g_str_has_prefix(r.out, "usage: linsched btf [--file PATH] STRUCT.MEMBER...\n"));
	run_clear(&r);
}

static void test_program_refusals(void **state)
{
	const char *dir = *state;
	struct blob anon = anon_blob(), bits = bitfield_blob(), trunc = plain_blob();
	g_autofree char *good = write_blob(dir, "anon.btf", &anon);
	g_autofree char *fields = write_blob(dir, "bits.btf", &bits);
	g_autofree char *missing = g_build_filename(dir, "missing.btf", NULL);
	g_autofree char *text = g_build_filename(dir, "text.btf", NULL);
	g_autofree char *cut = NULL;

	trunc.len -= 10;
	cut = write_blob(dir, "cut.btf", &trunc);
	assert_true(g_file_set_contents(text, "not btf at all\n", -1, NULL));

	static const struct {
		const char *args[6];
		const char *needle;
	} cases[] = {
		/* "F" stands for the file the case reads. */
		{ { "btf" }, "STRUCT.MEMBER" },
		{ { "btf", "--file", "", "task.a" }, "--file" },
		{ { "btf", "--file", "F", "--file", "F", "task.a" }, "--file" },
		{ { "btf", "--bogus", "task.a" }, "--bogus" },
		{ { "btf", "--file" }, "--file" },
		{ { "btf", "--file", "F", "task" }, "task" },
		{ { "btf", "--file", "F", "task.a", ".a" }, ".a" },
		{ { "btf", "--file", "F", "task..a" }, "task..a" },
		{ { "btf", "--file", "F", "task.a", "nosuch.a" }, "nosuch.a" },
		{ { "btf", "--file", "F", "task.a", "task.nope" }, "task.nope" },
		{ { "btf", "--file", "F", "task.a", "task.a.b" }, "task.a.b" },
	};
	static const struct {
		const char *member, *needle;
	} bit_cases[] = {
		{ "flags.hi", "flags.hi" },
		{ "flags.lo", "bitfield" },
		{ "oldbits.odd", "oldbits.odd" },
	};
	const char *files[] = { missing, text, cut };
	const char *file_needles[] = { "No such file", "magic", "not BTF" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *args[8] = { 0 };
		char what[64];

		for (size_t a = 0; a < G_N_ELEMENTS(cases[i].args) && cases[i].args[a]; a++)
			args[a] = strcmp(cases[i].args[a], "F") == 0 ? good : cases[i].args[a];
		struct run r = run_program(LINSCHED, args, NULL);

		snprintf(what, sizeof(what), "btf case %zu", i);
		expect_refusal(&r, what, cases[i].needle);
		run_clear(&r);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bit_cases); i++) {
		struct run r =
			LINSCHED_RUN("btf", "--file", fields, "flags.whole", bit_cases[i].member);

		expect_refusal(&r, bit_cases[i].member, bit_cases[i].needle);
		run_clear(&r);
	}
	/* A file that cannot be read or is no BTF: the message names it. */
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		struct run r = LINSCHED_RUN("btf", "--file", files[i], "task.a");

		expect_refusal(&r, files[i], files[i]);
		if (!strstr(r.err, file_needles[i]))
			fail_msg("%s: '%s' does not say '%s'", files[i], r.err, file_needles[i]);
		run_clear(&r);
	}
	blob_free(&anon);
	blob_free(&bits);
	blob_free(&trunc);
}

/* The running kernel's BTF, when this host has one: the two members the guest asks for are
 * found (whatever their offsets), by the reader and by the program's default file. */
static void test_host_vmlinux(void **state)
{
	gchar *data = NULL;
	gsize len = 0;

	(void)state;
	if (access(LINSCHED_BTF_VMLINUX, R_OK) != 0 ||
	    !g_file_get_contents(LINSCHED_BTF_VMLINUX, &data, &len, NULL)) {
		print_message("no readable %s: skipped\n", LINSCHED_BTF_VMLINUX);
		skip();
	}
	static const char *const members[] = { "pid", "wakee_flips" };
	unsigned long off[2];

	for (size_t i = 0; i < G_N_ELEMENTS(members); i++) {
		char err[512] = "";
		int rc = linsched_btf_member_offset(data, len, "task_struct", members[i], &off[i],
						    err, sizeof(err));

		if (rc != LINSCHED_BTF_OK)
			fail_msg("task_struct.%s: status %d (%s)", members[i], rc, err);
	}
	g_free(data);

	struct run r = LINSCHED_RUN("btf", "task_struct.pid", "task_struct.wakee_flips");
	g_autofree char *want = g_strdup_printf("%lu\n%lu\n", off[0], off[1]);

	expect_clean_exit(&r, "linsched btf on " LINSCHED_BTF_VMLINUX);
	assert_string_equal(r.out, want);
	run_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_struct),
		cmocka_unit_test(test_anonymous_members),
		cmocka_unit_test(test_bitfields),
		cmocka_unit_test(test_declarations_skipped),
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_each_kind_size),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_not_btf),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_bad_references),
		cmocka_unit_test_setup_teardown(test_program, temp_dir_setup, temp_dir_teardown),
		cmocka_unit_test_setup_teardown(test_program_refusals, temp_dir_setup,
						temp_dir_teardown),
		cmocka_unit_test(test_host_vmlinux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
