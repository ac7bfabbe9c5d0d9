/* fuzz_result_json.c - result.json and the other JSON the tuner reads (tuner/util/json_read.c). */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/util/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *error = NULL;
	/* The length is given: the parser must not read past it, NUL or not. */
	JsonReadValue *v = json_read_parse((const char *)data, (gssize)size, "input", &error);
	double x;

	if (v) {
		(void)json_read_number(v, "best.knobs.latency_ns", &x);
		(void)json_read_string(v, "optimizer");
		(void)json_read_path(v, "a.b.c");
		json_read_free(v);
	}
	g_clear_error(&error);
	return 0;
}
