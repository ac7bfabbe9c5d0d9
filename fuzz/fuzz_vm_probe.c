/* fuzz_vm_probe.c - the probes' outputs a guest printed, combined into one machine.ini
 * (tuner/vm/vm_probe.c): the input is cut into up to four outputs at form feeds; an empty one
 * stands for a failed run. */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/vm/vm_probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_string(data, size);
	g_auto(GStrv) parts = g_strsplit(text, "\f", 4);
	const char *outputs[4];
	guint n = 0;
	GError *error = NULL;

	for (; parts[n]; n++)
		outputs[n] = *parts[n] ? parts[n] : NULL;
	VmProbeResult *r = vm_probe_combine(outputs, n, &error);

	if (r) {
		g_free(vm_probe_ini(r, "fuzz\nheader"));
		vm_probe_result_free(r);
	} else {
		g_clear_error(&error);
	}
	return 0;
}
