/* fuzz_calibration_ini.c - calibration.ini (tuner/calib/calibration_io.c calibration_read). */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/calib/calibration_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *path = fuzz_file(data, size, "calibration.ini");
	GError *error = NULL;
	Calibration *cal = calibration_read(path, &error);

	if (cal) {
		(void)calibration_predict_ms(cal, 10);
		calibration_free(cal);
	}
	g_clear_error(&error);
	return 0;
}
