/*
 * progress.c - progress line on a terminal (see progress.h).
 */
#include "tuner/util/progress.h"

#include <stdio.h>
#include <unistd.h>

void progress_init(struct progress *pg, unsigned int total)
{
	pg->enabled = isatty(STDERR_FILENO);
	pg->started_us = g_get_monotonic_time();
	pg->total = total;
}

void progress_update(struct progress *pg, unsigned int done, const char *what)
{
	if (!pg->enabled)
		return;

	double elapsed = (double)(g_get_monotonic_time() - pg->started_us) / 1e6;
	double eta = done ? elapsed * (pg->total - done) / done : 0;

	fprintf(stderr, "\r\033[K[%u/%u] %s  elapsed %.0fs", done, pg->total, what, elapsed);
	if (done)
		fprintf(stderr, "  ETA %.0fs", eta);
	fflush(stderr);
}

void progress_end(struct progress *pg)
{
	if (pg->enabled)
		fputs("\r\033[K", stderr);
}
