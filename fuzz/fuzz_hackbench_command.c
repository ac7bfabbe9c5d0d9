/* fuzz_hackbench_command.c - a plan's workload= hackbench command line
 * (tuner/fidelity/plan_set.c hackbench_command_parse). */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/fidelity/plan_set.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_string(data, size);
	HackbenchCommand c;
	GError *error = NULL;

	if (!hackbench_command_parse(text, &c, &error))
		g_clear_error(&error);
	return 0;
}
