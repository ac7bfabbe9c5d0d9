/*
 * group_range.h - parsing a list of group counts: "1..20", "2..20:2", "1,2,4,8", or mixes
 * ("1,2..10:4").
 */
#ifndef TUNER_GROUP_RANGE_H
#define TUNER_GROUP_RANGE_H

#include <glib.h>

/* A GArray of guint, ascending and without duplicates; NULL with an error naming flag. */
GArray *group_range_parse(const char *flag, const char *text, GError **error);

#endif
