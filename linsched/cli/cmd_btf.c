/*
 * cmd_btf.c - `linsched btf`: the byte offset of a struct member, from the kernel's BTF (btf.h
 * describes the format and what is refused).
 *
 * Every field is read with memcpy, in the host's byte order, at an offset checked against the
 * section it belongs to first: the blob may be anything, and nothing in it is trusted to be
 * aligned or in range. This file uses the C library only, so that it links statically on its own
 * (bin/linsched-btf-static, main in btf_main.c).
 */
#define _GNU_SOURCE
#include "linsched/cli/btf.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BTF_MAGIC	  0xeB9F
#define BTF_MAGIC_SWAPPED 0x9FEB
#define BTF_VERSION	  1
#define BTF_HEADER_LEN	  24 /* the fields this reader knows; hdr_len may be larger */
#define BTF_TYPE_LEN	  12 /* {name_off, info, size_or_type} */
/* Far more than any kernel's BTF (a few MiB); /dev/zero is not read forever. */
#define BTF_MAX_FILE	  (256UL << 20)

enum btf_kind {
	KIND_INT = 1,
	KIND_PTR = 2,
	KIND_ARRAY = 3,
	KIND_STRUCT = 4,
	KIND_UNION = 5,
	KIND_ENUM = 6,
	KIND_FWD = 7,
	KIND_TYPEDEF = 8,
	KIND_VOLATILE = 9,
	KIND_CONST = 10,
	KIND_RESTRICT = 11,
	KIND_FUNC = 12,
	KIND_FUNC_PROTO = 13,
	KIND_VAR = 14,
	KIND_DATASEC = 15,
	KIND_FLOAT = 16,
	KIND_DECL_TAG = 17,
	KIND_TYPE_TAG = 18,
	KIND_ENUM64 = 19,
	KIND_LAST = KIND_ENUM64,
};

/* The data after a type's 12 bytes: fixed bytes, plus per_vlen bytes for each of vlen items. */
static const struct {
	const char *name;
	unsigned int fixed, per_vlen;
} kinds[KIND_LAST + 1] = {
	[KIND_INT] = { "INT", 4, 0 },
	[KIND_PTR] = { "PTR", 0, 0 },
	[KIND_ARRAY] = { "ARRAY", 12, 0 },
	[KIND_STRUCT] = { "STRUCT", 0, 12 },
	[KIND_UNION] = { "UNION", 0, 12 },
	[KIND_ENUM] = { "ENUM", 0, 8 },
	[KIND_FWD] = { "FWD", 0, 0 },
	[KIND_TYPEDEF] = { "TYPEDEF", 0, 0 },
	[KIND_VOLATILE] = { "VOLATILE", 0, 0 },
	[KIND_CONST] = { "CONST", 0, 0 },
	[KIND_RESTRICT] = { "RESTRICT", 0, 0 },
	[KIND_FUNC] = { "FUNC", 0, 0 },
	[KIND_FUNC_PROTO] = { "FUNC_PROTO", 0, 8 },
	[KIND_VAR] = { "VAR", 4, 0 },
	[KIND_DATASEC] = { "DATASEC", 0, 12 },
	[KIND_FLOAT] = { "FLOAT", 0, 0 },
	[KIND_DECL_TAG] = { "DECL_TAG", 4, 0 },
	[KIND_TYPE_TAG] = { "TYPE_TAG", 0, 0 },
	[KIND_ENUM64] = { "ENUM64", 0, 12 },
};

struct linsched_btf {
	const unsigned char *types; /* the type section */
	const char *strings;	    /* the string section, ending in NUL */
	uint32_t str_len;
	uint32_t ntypes; /* ids 1..ntypes */
	uint32_t *
		offset; /* offset[id]: where type id starts in the type section (offset[0] unused) */
};

/* One type, decoded. */
struct btf_type {
	uint32_t name_off;
	unsigned int kind, vlen, kind_flag;
	uint32_t size_or_type;
	const unsigned char *data; /* what follows the 12 bytes */
};

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t rd16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

__attribute__((format(printf, 4, 5))) static int fail(int status, char *err, size_t errlen,
						      const char *fmt, ...)
{
	va_list ap;

	if (errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return status;
}

static void decode(const unsigned char *p, struct btf_type *t)
{
	uint32_t info = rd32(p + 4);

	t->name_off = rd32(p);
	t->vlen = info & 0xffff;
	t->kind = (info >> 24) & 0x1f;
	t->kind_flag = info >> 31;
	t->size_or_type = rd32(p + 8);
	t->data = p + BTF_TYPE_LEN;
}

/* Type id (1..ntypes: the caller checks) decoded. */
static void type_at(const struct linsched_btf *btf, uint32_t id, struct btf_type *t)
{
	decode(btf->types + btf->offset[id], t);
}

/* The name at name_off, which the index checked to be inside the string section. */
static const char *name_at(const struct linsched_btf *btf, uint32_t name_off)
{
	return btf->strings + name_off;
}

/* Checks a string offset; err names what holds it. */
static int check_name(const struct linsched_btf *btf, uint32_t name_off, uint32_t id,
		      const char *what, char *err, size_t errlen)
{
	if (name_off >= btf->str_len)
		return fail(LINSCHED_BTF_CORRUPT, err, errlen,
			    "type id %u: %s name offset %u outside the string section (%u bytes)",
			    id, what, name_off, btf->str_len);
	return LINSCHED_BTF_OK;
}

static int check_header(const unsigned char *b, size_t len, uint32_t *type_start,
			uint32_t *type_len, uint32_t *str_start, uint32_t *str_len, char *err,
			size_t errlen)
{
	if (len < 2)
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen, "not BTF: %zu bytes, no magic", len);
	uint16_t magic = rd16(b);

	if (magic == BTF_MAGIC_SWAPPED)
		return fail(
			LINSCHED_BTF_NOT_BTF, err, errlen,
			"BTF of the other byte order (magic reads 0x%04x): only the host's is read",
			magic);
	if (magic != BTF_MAGIC)
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen, "not BTF: magic 0x%04x, not 0x%04x",
			    magic, BTF_MAGIC);
	if (len < BTF_HEADER_LEN)
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen,
			    "not BTF: %zu bytes, shorter than its %d-byte header", len,
			    BTF_HEADER_LEN);
	if (b[2] != BTF_VERSION)
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen, "not BTF: version %u, not %d", b[2],
			    BTF_VERSION);

	uint32_t hdr_len = rd32(b + 4);
	uint32_t toff = rd32(b + 8), tlen = rd32(b + 12), soff = rd32(b + 16), slen = rd32(b + 20);

	if (hdr_len < BTF_HEADER_LEN || hdr_len > len)
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen,
			    "not BTF: header length %u, not in %d..%zu (the file's size)", hdr_len,
			    BTF_HEADER_LEN, len);
	/* 64-bit sums: no u32 can overflow them. */
	if ((uint64_t)hdr_len + toff + tlen > len)
		return fail(
			LINSCHED_BTF_NOT_BTF, err, errlen,
			"not BTF: the type section (%u bytes at %u after the header) ends beyond "
			"the file's %zu bytes",
			tlen, toff, len);
	if ((uint64_t)hdr_len + soff + slen > len)
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen,
			    "not BTF: the string section (%u bytes at %u after the header) ends "
			    "beyond the file's %zu bytes",
			    slen, soff, len);
	if (slen == 0 || b[hdr_len + soff + slen - 1] != '\0')
		return fail(LINSCHED_BTF_NOT_BTF, err, errlen,
			    "not BTF: the string section (%u bytes) does not end in NUL", slen);
	*type_start = hdr_len + toff;
	*type_len = tlen;
	*str_start = hdr_len + soff;
	*str_len = slen;
	return LINSCHED_BTF_OK;
}

int linsched_btf_open(const void *blob, size_t len, struct linsched_btf **out, char *err,
		      size_t errlen)
{
	const unsigned char *b = blob;
	uint32_t tstart = 0, tlen = 0, sstart = 0, slen = 0, cap = 0;
	struct linsched_btf *btf;
	int rc;

	*out = NULL;
	rc = check_header(b, len, &tstart, &tlen, &sstart, &slen, err, errlen);
	if (rc)
		return rc;
	btf = calloc(1, sizeof(*btf));
	if (!btf)
		return fail(LINSCHED_BTF_NO_MEMORY, err, errlen, "out of memory");
	btf->types = b + tstart;
	btf->strings = (const char *)b + sstart;
	btf->str_len = slen;

	for (uint32_t pos = 0; pos < tlen;) {
		uint32_t id = btf->ntypes + 1;
		struct btf_type t;

		if (tlen - pos < BTF_TYPE_LEN) {
			rc = fail(LINSCHED_BTF_CORRUPT, err, errlen,
				  "the type section ends inside type id %u (%u bytes left, a type "
				  "takes %d)",
				  id, tlen - pos, BTF_TYPE_LEN);
			goto out;
		}
		decode(btf->types + pos, &t);
		if (t.kind == 0 || t.kind > KIND_LAST) {
			rc = fail(LINSCHED_BTF_CORRUPT, err, errlen, "type id %u: unknown kind %u",
				  id, t.kind);
			goto out;
		}
		uint64_t data = kinds[t.kind].fixed + (uint64_t)kinds[t.kind].per_vlen * t.vlen;

		if (tlen - pos - BTF_TYPE_LEN < data) {
			rc = fail(
				LINSCHED_BTF_CORRUPT, err, errlen,
				"the type section ends inside type id %u (%s with vlen %u needs %llu "
				"bytes after its 12, %u left)",
				id, kinds[t.kind].name, t.vlen, (unsigned long long)data,
				tlen - pos - BTF_TYPE_LEN);
			goto out;
		}
		if ((rc = check_name(btf, t.name_off, id, kinds[t.kind].name, err, errlen)))
			goto out;
		if (t.kind == KIND_STRUCT || t.kind == KIND_UNION)
			for (unsigned int i = 0; i < t.vlen; i++)
				if ((rc = check_name(btf, rd32(t.data + 12 * i), id, "a member's",
						     err, errlen)))
					goto out;
		if (id >= cap) {
			uint32_t ncap = cap ? cap * 2 : 1024;
			uint32_t *n = realloc(btf->offset, ncap * sizeof(*n));

			if (!n) {
				rc = fail(LINSCHED_BTF_NO_MEMORY, err, errlen, "out of memory");
				goto out;
			}
			btf->offset = n;
			cap = ncap;
		}
		btf->offset[id] = pos;
		btf->ntypes = id;
		pos += BTF_TYPE_LEN + (uint32_t)data;
	}
	*out = btf;
	return LINSCHED_BTF_OK;
out:
	linsched_btf_close(btf);
	return rc;
}

void linsched_btf_close(struct linsched_btf *btf)
{
	if (!btf)
		return;
	free(btf->offset);
	free(btf);
}

/*
 * The type id a member's type comes to through typedefs and qualifiers (0: void), decoded in *t;
 * CORRUPT for a type id beyond the last type or a chain longer than LINSCHED_BTF_MAX_DEPTH.
 */
static int resolve(const struct linsched_btf *btf, uint32_t id, struct btf_type *t, char *err,
		   size_t errlen)
{
	uint32_t from = id;

	for (int hops = 0; hops <= LINSCHED_BTF_MAX_DEPTH; hops++) {
		if (id == 0) {
			memset(t, 0, sizeof(*t));
			return LINSCHED_BTF_OK;
		}
		if (id > btf->ntypes)
			return fail(LINSCHED_BTF_CORRUPT, err, errlen,
				    "type id %u refers to type id %u, beyond the last (%u)", from,
				    id, btf->ntypes);
		type_at(btf, id, t);
		switch (t->kind) {
		case KIND_TYPEDEF:
		case KIND_VOLATILE:
		case KIND_CONST:
		case KIND_RESTRICT:
		case KIND_TYPE_TAG:
			id = t->size_or_type;
			break;
		default:
			return LINSCHED_BTF_OK;
		}
	}
	return fail(LINSCHED_BTF_CORRUPT, err, errlen,
		    "type id %u: more than %d typedefs and qualifiers in a row (a cycle?)", from,
		    LINSCHED_BTF_MAX_DEPTH);
}

/* A member found: where it starts, its type, and its bitfield size when the struct gives one. */
struct found {
	uint64_t bits;
	uint32_t type;
	unsigned int bitfield;
};

/*
 * Looks name up in the struct or union t (type id id), and in its anonymous struct and union
 * members, depth levels down already: OK with *f, NO_MEMBER, or CORRUPT.
 */
static int find_in(const struct linsched_btf *btf, const struct btf_type *t, uint32_t id,
		   const char *name, int depth, struct found *f, char *err, size_t errlen)
{
	if (depth > LINSCHED_BTF_MAX_DEPTH)
		return fail(LINSCHED_BTF_CORRUPT, err, errlen,
			    "type id %u: anonymous members nested more than %d deep (a cycle?)", id,
			    LINSCHED_BTF_MAX_DEPTH);
	for (unsigned int i = 0; i < t->vlen; i++) {
		const unsigned char *m = t->data + 12 * i;
		const char *mname = name_at(btf, rd32(m));
		uint32_t mtype = rd32(m + 4), off = rd32(m + 8);
		uint64_t bits = t->kind_flag ? off & 0xffffff : off;
		unsigned int bitfield = t->kind_flag ? off >> 24 : 0;

		if (mname[0] != '\0') {
			if (strcmp(mname, name) != 0)
				continue;
			f->bits = bits;
			f->type = mtype;
			f->bitfield = bitfield;
			return LINSCHED_BTF_OK;
		}
		/* An anonymous member: a struct or union whose members are this one's. */
		struct btf_type inner;
		int rc = resolve(btf, mtype, &inner, err, errlen);

		if (rc)
			return rc;
		if (inner.kind != KIND_STRUCT && inner.kind != KIND_UNION)
			continue; /* padding: an unnamed bitfield */
		rc = find_in(btf, &inner, mtype, name, depth + 1, f, err, errlen);
		if (rc == LINSCHED_BTF_OK)
			f->bits += bits;
		if (rc != LINSCHED_BTF_NO_MEMBER)
			return rc;
	}
	return LINSCHED_BTF_NO_MEMBER;
}

/* The first STRUCT named name with a nonzero size: its id, or 0. An anonymous struct has no
 * name to ask for: "" finds none. */
static uint32_t find_struct(const struct linsched_btf *btf, const char *name)
{
	if (name[0] == '\0')
		return 0;
	for (uint32_t id = 1; id <= btf->ntypes; id++) {
		struct btf_type t;

		type_at(btf, id, &t);
		if (t.kind == KIND_STRUCT && t.size_or_type != 0 &&
		    strcmp(name_at(btf, t.name_off), name) == 0)
			return id;
	}
	return 0;
}

/* Refuses a member that a fetch of whole bytes cannot read alone. */
static int check_bytes(const struct linsched_btf *btf, const struct found *f,
		       const char *struct_name, const char *member, char *err, size_t errlen)
{
	struct btf_type t;
	int rc;

	if (f->bitfield)
		return fail(LINSCHED_BTF_BITFIELD, err, errlen,
			    "member %s of struct %s is a %u-bit bitfield at bit %llu: a fetch of "
			    "whole bytes cannot read it alone",
			    member, struct_name, f->bitfield, (unsigned long long)f->bits);
	if (f->bits % 8)
		return fail(LINSCHED_BTF_BITFIELD, err, errlen,
			    "member %s of struct %s starts at bit %llu, not on a byte boundary",
			    member, struct_name, (unsigned long long)f->bits);
	/* Without kind_flag a bitfield is an INT of fewer bits than its bytes, or with an offset. */
	if ((rc = resolve(btf, f->type, &t, err, errlen)))
		return rc;
	if (t.kind == KIND_INT) {
		uint32_t enc = rd32(t.data);
		unsigned int nbits = enc & 0xff, boff = (enc >> 16) & 0xff;

		if (boff != 0 || (uint64_t)nbits != (uint64_t)t.size_or_type * 8)
			return fail(
				LINSCHED_BTF_BITFIELD, err, errlen,
				"member %s of struct %s is a bitfield (%u bits of a %u-byte int "
				"at bit %llu + %u): a fetch of whole bytes cannot read it",
				member, struct_name, nbits, t.size_or_type,
				(unsigned long long)f->bits, boff);
	}
	return LINSCHED_BTF_OK;
}

int linsched_btf_find(const struct linsched_btf *btf, const char *struct_name, const char *member,
		      unsigned long *byte_offset, char *err, size_t errlen)
{
	uint32_t id = find_struct(btf, struct_name);
	uint64_t bits = 0;
	const char *part = member;
	struct btf_type t;

	if (id == 0)
		return fail(LINSCHED_BTF_NO_STRUCT, err, errlen,
			    "no struct %s of nonzero size (a declaration does not count)",
			    struct_name);
	type_at(btf, id, &t);
	/* One component of the path at a time: t is the struct or union it is looked up in. */
	for (;;) {
		const char *dot = strchr(part, '.');
		size_t n = dot ? (size_t)(dot - part) : strlen(part);
		char name[256];
		struct found f;
		int rc;

		if (n == 0 || n >= sizeof(name))
			return fail(LINSCHED_BTF_NO_MEMBER, err, errlen,
				    "struct %s: '%s' is not a member name, nor a path a.b of them",
				    struct_name, member);
		memcpy(name, part, n);
		name[n] = '\0';
		rc = find_in(btf, &t, id, name, 0, &f, err, errlen);
		if (rc == LINSCHED_BTF_NO_MEMBER)
			return fail(rc, err, errlen, "struct %s has no member %.*s", struct_name,
				    (int)(part + n - member), member);
		if (rc)
			return rc;
		if ((rc = check_bytes(btf, &f, struct_name, member, err, errlen)))
			return rc;
		bits += f.bits;
		if (!dot)
			break;
		if ((rc = resolve(btf, f.type, &t, err, errlen)))
			return rc;
		if (t.kind != KIND_STRUCT && t.kind != KIND_UNION)
			return fail(
				LINSCHED_BTF_NO_MEMBER, err, errlen,
				"member %.*s of struct %s is no struct or union: it has no member "
				"%s",
				(int)(part + n - member), member, struct_name, dot + 1);
		id = f.type;
		part = dot + 1;
	}
	*byte_offset = (unsigned long)(bits / 8);
	return LINSCHED_BTF_OK;
}

int linsched_btf_member_offset(const void *blob, size_t len, const char *struct_name,
			       const char *member, unsigned long *byte_offset, char *err,
			       size_t errlen)
{
	struct linsched_btf *btf;
	int rc = linsched_btf_open(blob, len, &btf, err, errlen);

	if (rc)
		return rc;
	rc = linsched_btf_find(btf, struct_name, member, byte_offset, err, errlen);
	linsched_btf_close(btf);
	return rc;
}

/* ---- the command ------------------------------------------------------------------------------ */

static void help(void)
{
	printf("usage: linsched btf [--file PATH] STRUCT.MEMBER...\n"
	       "\n"
	       "Prints the byte offset of each MEMBER in STRUCT, one a line, in decimal, from the\n"
	       "kernel's BTF type information: what a kprobe fetch argument +OFFSET(%%di) needs.\n"
	       "MEMBER may be inside anonymous structs and unions, or a path through named ones\n"
	       "(task_struct.se.vruntime). Bitfields are refused.\n"
	       "\n"
	       "  -f, --file PATH  the BTF to read (default %s, the running kernel's)\n",
	       LINSCHED_BTF_VMLINUX);
}

/* The whole file into *buf (free it); 0, or 2 with the message printed, or 1 out of memory. */
static int read_all(const char *label, const char *path, unsigned char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "linsched btf: %s: %s\n", label, strerror(errno));
		return 2;
	}
	for (;;) {
		if (n == cap || !b) {
			unsigned char *nb;

			if (b)
				cap *= 2;
			nb = realloc(b, cap);
			if (!nb) {
				fprintf(stderr, "linsched btf: %s: out of memory\n", label);
				free(b);
				close(fd);
				return 1;
			}
			b = nb;
		}
		ssize_t r = read(fd, b + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			fprintf(stderr, "linsched btf: %s: %s\n", label, strerror(e));
			free(b);
			close(fd);
			return 2;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > BTF_MAX_FILE) {
			fprintf(stderr,
				"linsched btf: %s: larger than %lu MiB, not a kernel's BTF\n",
				label, BTF_MAX_FILE >> 20);
			free(b);
			close(fd);
			return 2;
		}
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

/* STRUCT.MEMBER with nothing empty between the dots. */
static int valid_argument(const char *arg)
{
	const char *dot = strchr(arg, '.');

	if (!dot || dot == arg)
		return 0;
	for (const char *p = dot; *p; p++)
		if (*p == '.' && (p[1] == '.' || p[1] == '\0'))
			return 0;
	return 1;
}

int linsched_btf_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL;
	char label[512], err[512];
	unsigned char *blob = NULL;
	unsigned long *offsets;
	struct linsched_btf *btf;
	size_t len;
	int opt, rc;

	opterr = 0;
	optind = 1;
	/* ":": a missing value is told apart from an unknown option. */
	while ((opt = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (file) {
				fprintf(stderr, "linsched btf: --file: given twice\n");
				return 2;
			}
			if (optarg[0] == '\0') {
				fprintf(stderr, "linsched btf: --file: give a file name\n");
				return 2;
			}
			file = optarg;
			break;
		case 'h':
			help();
			return 0;
		case ':':
			fprintf(stderr, "linsched btf: %s: needs a value\n", argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				fprintf(stderr,
					"linsched btf: -%c: unknown option or missing value\n",
					optopt);
			else
				fprintf(stderr,
					"linsched btf: %s: unknown option or missing value\n",
					argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "linsched btf: no STRUCT.MEMBER: give one or more, as "
				"task_struct.wakee_flips\n");
		return 2;
	}
	for (int i = optind; i < argc; i++)
		if (!valid_argument(argv[i])) {
			fprintf(stderr,
				"linsched btf: %s: give STRUCT.MEMBER, as task_struct.wakee_flips\n",
				argv[i]);
			return 2;
		}
	snprintf(label, sizeof(label), "%s%s", file ? "--file " : "",
		 file ? file : LINSCHED_BTF_VMLINUX);
	if ((rc = read_all(label, file ? file : LINSCHED_BTF_VMLINUX, &blob, &len)))
		return rc;
	rc = linsched_btf_open(blob, len, &btf, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "linsched btf: %s: %s\n", label, err);
		free(blob);
		return rc == LINSCHED_BTF_NO_MEMORY ? 1 : 2;
	}
	offsets = calloc((size_t)argc, sizeof(*offsets));
	if (!offsets) {
		fprintf(stderr, "linsched btf: out of memory\n");
		rc = LINSCHED_BTF_NO_MEMORY;
	}
	/* Every argument first, so that a refusal leaves stdout empty. */
	for (int i = optind; offsets && i < argc && rc == 0; i++) {
		/* valid_argument found the dot: the struct's name before it, the member after. */
		char *dot = strchr(argv[i], '.');
		char *sname = strndup(argv[i], (size_t)(dot - argv[i]));

		if (!sname) {
			fprintf(stderr, "linsched btf: out of memory\n");
			rc = LINSCHED_BTF_NO_MEMORY;
			break;
		}
		rc = linsched_btf_find(btf, sname, dot + 1, &offsets[i], err, sizeof(err));
		if (rc)
			fprintf(stderr, "linsched btf: %s: %s (in %s)\n", argv[i], err, label);
		free(sname);
	}
	for (int i = optind; rc == 0 && i < argc; i++)
		printf("%lu\n", offsets[i]);
	free(offsets);
	linsched_btf_close(btf);
	free(blob);
	if (rc == 0 && fflush(stdout) != 0) {
		fprintf(stderr, "linsched btf: stdout: %s\n", strerror(errno));
		return 1;
	}
	return rc == 0 ? 0 : rc == LINSCHED_BTF_NO_MEMORY ? 1 : 2;
}
