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

	if (!task_spec_parse(text, &spec, &error)) {
		g_clear_error(&error);
		return 0;
	}
	/* What the parser accepts is inside the ranges tasks.h documents. */
	g_assert(spec.nice >= MIN_NICE && spec.nice <= MAX_NICE);
	g_assert(spec.count >= 1 && spec.count <= 100000);
	g_assert(spec.busy_ms >= 0 && spec.busy_ms <= 3600e3);
	g_assert(spec.sleep_ms >= 0 && spec.sleep_ms <= 3600e3);
	g_assert(spec.cv >= 0 && spec.cv <= 3600e3);
	return 0;
}
