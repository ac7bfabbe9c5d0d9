/*
 * fuzz_trace_stats.c - a scheduler trace read into the figures `tuner compare` prints
 * (tuner/fidelity/trace_stats.c): sched_switch, sched_wakeup and wakeup_preempt lines, in tracefs's
 * and perf's formats, with and without the message count, in both windows.
 */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/fidelity/trace_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_string(data, size);
	TraceStatsOptions options = { .window = size % 2 ? TRACE_WINDOW_ALL : TRACE_WINDOW_AUTO,
				      .messages = size % 3 };
	TraceStats st;
	GError *error = NULL;

	if (trace_stats_read_text(text, -1, "fuzz.trace", &options, &st, &error))
		trace_stats_clear(&st);
	else
		g_clear_error(&error);
	return 0;
}
