/* fuzz_real_plan.c - a real plan's CSV read back and summarised (tuner/fidelity/real_plan.c). */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/fidelity/real_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *path = fuzz_file(data, size, "runs.csv");
	const char *const order[] = { "wake0", "defaults", NULL };
	GError *error = NULL;
	RealPlan *p = real_plan_read(path, NULL, order, &error);

	if (p)
		real_plan_free(p);
	else
		g_clear_error(&error);
	return 0;
}
