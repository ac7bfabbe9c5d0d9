/* fuzz_btf.c - a kernel's BTF type information (linsched/cli/btf.h): the input is the blob,
 * indexed once and asked for members by a plain name, a name inside anonymous members and a
 * path through named ones, as the guest asks its own kernel's. */
#include "fuzz/fuzz_input.h"
#include "linsched/cli/btf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const queries[][2] = {
		{ "task_struct", "wakee_flips" },
		{ "task_struct", "se.vruntime" },
		{ "s", "a" },
		{ "s", "a.b.c" },
	};
	struct linsched_btf *btf = NULL;
	char err[256];
	unsigned long off;

	if (linsched_btf_open(data, size, &btf, err, sizeof(err)) != LINSCHED_BTF_OK)
		return 0;
	for (size_t i = 0; i < G_N_ELEMENTS(queries); i++)
		linsched_btf_find(btf, queries[i][0], queries[i][1], &off, err, sizeof(err));
	linsched_btf_close(btf);
	return 0;
}
