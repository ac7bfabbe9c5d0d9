/* fuzz_design_csv.c - design.csv for `tuner rsm --analyse` (tuner/report/rsm_files.c), with the
 * knobs' default ranges as cmd_rsm.c sets them up. */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/knobs/knobs.h"
#include "tuner/report/rsm_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double lo[KNOB_CFS_COUNT] = { 1e6, 1e5, 0 },
			    hi[KNOB_CFS_COUNT] = { 1e8, 1e7, 2e7 };
	static const char *const letters[KNOB_CFS_COUNT] = { "A", "B", "C" };
	RsmStudyFactor factors[KNOB_CFS_COUNT];

	for (int k = 0; k < KNOB_CFS_COUNT; k++)
		g_assert(rsm_study_factor_init(&factors[k], letters[k], knob_name((enum knob)k),
					       knob_info((enum knob)k)->column, lo[k], hi[k], false,
					       true, NULL));
	g_autofree char *path = fuzz_file(data, size, "design.csv");
	GError *error = NULL;
	double *y = NULL;
	RsmDesign *d = rsm_files_read_design(path, factors, KNOB_CFS_COUNT, &y, &error);

	if (d) {
		rsm_design_free(d);
		g_free(y);
	} else {
		g_clear_error(&error);
	}
	return 0;
}
