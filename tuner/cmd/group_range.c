/*
 * group_range.c - lists of group counts (see group_range.h).
 */
#include "tuner/cmd/group_range.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RANGE_ERROR g_quark_from_static_string("group-range")
#define RANGE_MAX   100000

static gboolean parse_count(const char *flag, const char *s, guint *out, GError **error)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v == 0 || v > RANGE_MAX) {
		g_set_error(error, RANGE_ERROR, 1, "%s: '%s' is not a count in 1..%d", flag, s,
			    RANGE_MAX);
		return FALSE;
	}
	*out = (guint)v;
	return TRUE;
}

static gint cmp_guint(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x < y ? -1 : x > y;
}

static gboolean parse_item(const char *flag, const char *item, GArray *out, GError **error)
{
	const char *dots = strstr(item, "..");
	guint lo, hi, step = 1;

	if (!dots) {
		if (!parse_count(flag, item, &lo, error))
			return FALSE;
		g_array_append_val(out, lo);
		return TRUE;
	}
	g_autofree char *first = g_strndup(item, (gsize)(dots - item));
	g_autofree char *rest = g_strdup(dots + 2);
	char *colon = strchr(rest, ':');

	if (colon) {
		*colon = '\0';
		if (!parse_count(flag, colon + 1, &step, error))
			return FALSE;
	}
	if (!parse_count(flag, first, &lo, error) || !parse_count(flag, rest, &hi, error))
		return FALSE;
	if (lo > hi) {
		g_set_error(error, RANGE_ERROR, 1, "%s: '%s' runs backwards", flag, item);
		return FALSE;
	}
	for (guint g = lo; g <= hi; g += step)
		g_array_append_val(out, g);
	return TRUE;
}

GArray *group_range_parse(const char *flag, const char *text, GError **error)
{
	g_auto(GStrv) items = g_strsplit(text, ",", -1);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(guint));

	for (size_t i = 0; items[i]; i++)
		if (!parse_item(flag, g_strstrip(items[i]), out, error)) {
			g_array_free(out, TRUE);
			return NULL;
		}
	if (out->len == 0) {
		g_set_error(error, RANGE_ERROR, 1, "%s: no group counts in '%s'", flag, text);
		g_array_free(out, TRUE);
		return NULL;
	}
	g_array_sort(out, cmp_guint);
	guint kept = 1;

	for (guint i = 1; i < out->len; i++)
		if (g_array_index(out, guint, i) != g_array_index(out, guint, kept - 1))
			g_array_index(out, guint, kept++) = g_array_index(out, guint, i);
	g_array_set_size(out, kept);
	return out;
}
