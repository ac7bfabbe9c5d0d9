/* fuzz_journal.c - the evaluation journal (tuner/eval/journal.c journal_open), read and then
 * appended to, as a resumed run does. */
#include <string.h>

#include "fuzz/fuzz_input.h"
#include "tuner/eval/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *path = fuzz_file(data, size, "journal");
	GError *error = NULL;
	/* The seeds' settings, so that inputs near them get past the header. */
	Journal *j = journal_open(path, "groups=5 loops=100", JOURNAL_NO_SYNC, &error);

	if (!j) {
		g_clear_error(&error);
		return 0;
	}
	JournalRecord r = {
		.knobs = KNOBS_CFS(1000000, 100000, 0), .seed = 1, .value = 1.5, .wall_s = 0
	};

	journal_lookup(j, &r.knobs, 1, 0, NULL);
	if (!journal_append(j, &r, &error))
		g_clear_error(&error);
	journal_close(j);
	return 0;
}
