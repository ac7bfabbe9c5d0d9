/* fuzz_flags.c - the command line of a simulation: the workload, hackbench and simulation flags
 * as the tuner's commands take them (linsched/cli/flags.c, cli.c, hackbench_cli.c, tuner/eval/
 * workload.c), one argument per line, then the workload they describe.
 *
 * The flags that name files (--machine, --bootstrap-file, --calibration) are left out: they
 * would have the fuzzer read whatever the machine holds. On success the configuration must be
 * one the simulator accepts. */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/eval/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = { "--machine", "--bootstrap-file", "--calibration" };
	g_autofree char *text = fuzz_string(data, size);
	g_auto(GStrv) args = g_strsplit(text, "\n", 64);
	struct workload_cli wc;
	struct workload w = { 0 };
	GError *error = NULL;

	for (size_t i = 0; args[i]; i++)
		for (size_t j = 0; j < G_N_ELEMENTS(files); j++)
			if (g_str_has_prefix(args[i], files[j]))
				return 0;
	workload_cli_init(&wc);
	if (workload_cli_parse(&wc, (const char *const *)args, &error) &&
	    workload_finish(&wc, &w, &error)) {
		g_assert(linsched_config_validate(&w.cfg, NULL));
		g_assert(w.nr_tasks > 0);
	}
	g_clear_error(&error);
	workload_clear(&w);
	workload_cli_clear(&wc);
	return 0;
}
