/* fuzz_realbench.c - the real benchmark's output (tuner/calib/realbench.c realbench_parse_time):
 * hackbench's and perf bench's. */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/calib/realbench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_string(data, size);
	GError *error = NULL;
	double ms;

	if (!realbench_parse_time(text, "bench", &ms, &error))
		g_clear_error(&error);
	return 0;
}
