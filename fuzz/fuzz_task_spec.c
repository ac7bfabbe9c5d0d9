/* fuzz_task_spec.c - `--task` specifications (tasks/spec.c task_spec_parse). */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tasks/tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_string(data, size);
	struct task_spec spec;
	GError *error = NULL;

	if (!task_spec_parse(text, &spec, &error))
		g_clear_error(&error);
	return 0;
}
