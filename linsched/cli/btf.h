/*
 * btf.h - `linsched btf` (cmd_btf.c): the byte offset of a struct member in the running kernel,
 * read from its BTF.
 *
 *   linsched btf [--file PATH] STRUCT.MEMBER...      (default PATH: /sys/kernel/btf/vmlinux)
 *
 * BTF, the BPF Type Format (the kernel's Documentation/bpf/btf.rst), is the compact description of
 * C types that a kernel built with CONFIG_DEBUG_INFO_BTF carries and shows as
 * /sys/kernel/btf/vmlinux: every struct of that kernel with its members' names, types and bit
 * offsets. The VM's guest reads task_struct.wakee_flips with a kprobe fetch argument
 * (+OFFSET(%di):u32); asking BTF for OFFSET keeps the probe right when the kernel's layout changes,
 * where a number written down (72 on Debian 12's 6.1) would silently read another field.
 *
 * The file, in the host's byte order:
 *
 *   header   {u16 magic 0xeB9F, u8 version 1, u8 flags, u32 hdr_len,
 *             u32 type_off, u32 type_len, u32 str_off, u32 str_len}
 *   types    type_len bytes at hdr_len + type_off
 *   strings  str_len bytes at hdr_len + str_off: NUL-terminated names, a name_off indexes them
 *
 * hdr_len may exceed the 24 bytes above (a later kernel's header): the rest is skipped. The types
 * follow each other with no index, numbered 1, 2, ... in order (id 0 is void); each is
 * {u32 name_off, u32 info, u32 size_or_type}, info holding vlen in bits 0-15, the kind in bits
 * 24-28 and kind_flag in bit 31, followed by data whose length depends on the kind:
 *
 *   INT 1          4 bytes: encoding, bit offset (16-23), bits (0-7)
 *   PTR 2, FWD 7, TYPEDEF 8, VOLATILE 9, CONST 10, RESTRICT 11, FUNC 12, FLOAT 16, TYPE_TAG 18
 *                  nothing
 *   ARRAY 3        12 bytes: element type, index type, number of elements
 *   STRUCT 4, UNION 5    vlen members of 12 bytes: {name_off, type, offset}
 *   ENUM 6         vlen values of 8 bytes      ENUM64 19   vlen values of 12 bytes
 *   FUNC_PROTO 13  vlen parameters of 8 bytes  DATASEC 15  vlen variables of 12 bytes
 *   VAR 14         4 bytes                     DECL_TAG 17 4 bytes
 *
 * A member's offset is its bit offset from the start of its struct; when the struct's kind_flag
 * is set, bits 0-23 are the bit offset and bits 24-31 a bitfield's size in bits (0: not a
 * bitfield). Without kind_flag a bitfield shows in its INT type instead: fewer bits than its
 * bytes hold, or a bit offset of its own.
 *
 * The reader walks every type once to find where each starts (it has to: their sizes vary), then
 * looks a member up in the first STRUCT of that name with a nonzero size: a FWD (`struct x;`) is
 * another kind and never matches. The members of anonymous struct and union members are searched
 * too, their offsets added, as C lets task->wakee_flips reach a field inside an anonymous union
 * (the kernel has many in task_struct). MEMBER may be a path through named struct and union
 * members, "se.vruntime". The byte offset is the bit offset / 8.
 *
 * It refuses, with one line that says why, rather than guess:
 *   - a file that is not BTF: a magic other than 0xeB9F (one that reads 0x9FEB is BTF of the other
 *     byte order, which the running kernel never gives: refused as such), a version other than 1,
 *     a header or a section that ends beyond the file, a string section that does not end in NUL;
 *   - a type section that ends inside a type, a kind it does not know (naming the kind and the
 *     type id), a name outside the string section, a type id beyond the last type, or anonymous
 *     members nested deeper than LINSCHED_BTF_MAX_DEPTH (a cycle);
 *   - a struct that is not there (or only declared), a member that is not in it;
 *   - a bitfield, whether or not it starts on a byte boundary, and any member whose bit offset is
 *     not a whole number of bytes: a kprobe fetch of whole bytes at a byte offset would read other
 *     fields' bits with it.
 *
 * It needs the C library only, so that it also links statically on its own (btf_main.c,
 * bin/linsched-btf-static) for the VM's initramfs, which has no GLib.
 */
#ifndef LINSCHED_BTF_H
#define LINSCHED_BTF_H

#include <stddef.h>

/* The default file: the running kernel's BTF. */
#define LINSCHED_BTF_VMLINUX   "/sys/kernel/btf/vmlinux"
/* How deep anonymous members may nest, and how many typedefs and qualifiers may stand between a
 * member and its struct or union, before the reader calls the types a cycle. */
#define LINSCHED_BTF_MAX_DEPTH 32

/* What the functions below return; every value but OK comes with a message in err. */
enum linsched_btf_status {
	LINSCHED_BTF_OK = 0,
	LINSCHED_BTF_NOT_BTF, /* the header: magic, byte order, version, lengths out of the blob */
	LINSCHED_BTF_CORRUPT, /* the types: truncated, unknown kind, a name or type id out of range */
	LINSCHED_BTF_NO_STRUCT, /* no STRUCT of that name with a nonzero size */
	LINSCHED_BTF_NO_MEMBER, /* the struct has no such member (nor its anonymous members) */
	LINSCHED_BTF_BITFIELD,	/* the member is a bitfield, or not on a byte boundary */
	LINSCHED_BTF_NO_MEMORY,
};

/* The types of a blob, indexed. It points into the blob, which must outlive it. */
struct linsched_btf;

/*
 * Checks the header of blob (len bytes) and indexes its types into a new *btf. Returns OK, or
 * NOT_BTF, CORRUPT or NO_MEMORY with *btf NULL and a one-line message (no newline) in err, which
 * may be NULL when errlen is 0.
 */
int linsched_btf_open(const void *blob, size_t len, struct linsched_btf **btf, char *err,
		      size_t errlen);

/*
 * The byte offset of member (a name, or a path "a.b" through named members) in the struct named
 * struct_name: OK with *byte_offset set, or CORRUPT, NO_STRUCT, NO_MEMBER or BITFIELD with a message
 * in err naming the struct and the member.
 */
int linsched_btf_find(const struct linsched_btf *btf, const char *struct_name, const char *member,
		      unsigned long *byte_offset, char *err, size_t errlen);

void linsched_btf_close(struct linsched_btf *btf);

/* linsched_btf_open, linsched_btf_find and linsched_btf_close in one: any status above. */
int linsched_btf_member_offset(const void *blob, size_t len, const char *struct_name,
			       const char *member, unsigned long *byte_offset, char *err,
			       size_t errlen);

/* `linsched btf`; argv[0] is the command's name. Returns 0, 1 (out of memory) or 2 (bad input:
 * a flag, an argument, the file, or a member it does not have). */
int linsched_btf_main(int argc, char **argv);

#endif
