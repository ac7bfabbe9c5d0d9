/* fuzz_bootstrap_ini.c - bootstrap.ini (tasks/hackbench.c hackbench_load_bootstrap_file). */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tasks/hackbench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *path = fuzz_file(data, size, "bootstrap.ini");
	struct hackbench_params p;
	GError *error = NULL;

	hackbench_params_default(&p);
	if (hackbench_load_bootstrap_file(&p, path, &error) &&
	    !hackbench_params_validate(&p, &error))
		g_clear_error(&error);
	g_clear_error(&error);
	return 0;
}
