/*
 * progress.h - a one-line progress display on stderr, drawn only when stderr is a terminal, so
 * that logs and pipes stay clean.
 */
#ifndef TUNER_PROGRESS_H
#define TUNER_PROGRESS_H

#include <stdbool.h>

#include <glib.h>

struct progress {
	bool enabled;
	gint64 started_us;
	unsigned int total;
};

void progress_init(struct progress *pg, unsigned int total);
/* Redraws the line: "[done/total] what ... ETA". */
void progress_update(struct progress *pg, unsigned int done, const char *what);
/* Clears the line. */
void progress_end(struct progress *pg);

#endif
