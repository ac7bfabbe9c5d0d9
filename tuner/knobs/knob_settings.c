/*
 * knob_settings.c - named knob settings from a list or a file (see knob_settings.h).
 */
#include "tuner/knobs/knob_settings.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* The value columns of vm/make-plan.sh's settings files, in its order. */
static const char *const file_columns[] = { "latency", "min_granularity", "wakeup_granularity",
					    "migration_cost" };

static gboolean bad(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean bad(GError **error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, msg);
	return FALSE;
}

/* Whole nanoseconds >= 0: "24000000" or "24e6". */
static gboolean parse_ns(const char *text, guint64 *out)
{
	char *end;
	double v;

	errno = 0;
	v = g_ascii_strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < 0 || v != floor(v) || v > 1e18)
		return FALSE;
	*out = (guint64)v;
	return TRUE;
}

/* Knob k at text, which must be in its sysctl range; where names the item for errors. */
static gboolean set_knob(Knobs *k, enum knob which, const char *text, const char *where,
			 GError **error)
{
	const struct knob_info *info = knob_info(which);
	guint64 v;

	if (!parse_ns(text, &v))
		return bad(error, "%s: %s '%s' is not a whole number of ns", where, info->name,
			   text);
	if (v < info->min_ns || v > info->max_ns)
		return bad(error,
			   "%s: %s %s is outside its sysctl range %" G_GUINT64_FORMAT
			   "..%" G_GUINT64_FORMAT " ns",
			   where, info->name, text, info->min_ns, info->max_ns);
	knob_set(k, which, (double)v);
	return TRUE;
}

static gboolean valid_id(const char *id)
{
	if (*id == '\0')
		return FALSE;
	for (const char *c = id; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '.' && *c != '_' && *c != '-')
			return FALSE;
	return TRUE;
}

/* One of CFS's three knobs by name: the settings of a 6.1 kernel's experiment. */
static gboolean cfs_knob_from_name(const char *name, enum knob *which)
{
	return knob_from_name(name, which) && *which < KNOB_CFS_COUNT;
}

/* "latency24-min1.5": the knobs that differ from the defaults, or "defaults". */
static char *name_of(const Knobs *k, const Knobs *defaults)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < KNOB_CFS_COUNT; i++) {
		double v = knob_get(k, (enum knob)i);
		const char *name = knob_name((enum knob)i);

		if (v == knob_get(defaults, (enum knob)i))
			continue;
		if (s->len)
			g_string_append_c(s, '-');
		g_string_append_len(s, name, (gssize)strcspn(name, "_"));
		g_string_append_printf(s, "%g", v / 1e6);
	}
	if (s->len == 0)
		g_string_append(s, "defaults");
	return g_string_free(s, FALSE);
}

static void add(GArray *settings, char *id, const Knobs *k)
{
	KnobSetting s = { id, *k };

	g_array_append_val(settings, s);
}

/* One item of a list: "defaults" or KNOB=NS[:KNOB=NS...]. */
static gboolean parse_item(GArray *settings, const char *item, const Knobs *defaults,
			   GError **error)
{
	Knobs k = *defaults;
	g_autofree char *where = g_strdup_printf("--settings item '%s'", item);

	if (*item == '\0')
		return bad(error, "--settings: an empty item (two commas, or one at an end)");
	if (strcmp(item, "defaults") != 0) {
		g_auto(GStrv) parts = g_strsplit(item, ":", -1);

		for (char **p = parts; *p; p++) {
			const char *eq = strchr(*p, '=');
			g_autofree char *name = eq ? g_strndup(*p, (gsize)(eq - *p)) : NULL;
			enum knob which;

			if (!eq)
				return bad(error, "%s: '%s' is not KNOB=NS", where, *p);
			if (!cfs_knob_from_name(name, &which))
				return bad(error, "%s: '%s' is not %s", where, name,
					   knob_cfs_names_list());
			if (!set_knob(&k, which, eq + 1, where, error))
				return FALSE;
		}
	}
	add(settings, name_of(&k, defaults), &k);
	return TRUE;
}

/* The index of the fixed column called name, or -1. */
static gint fixed_index(const KnobSettingsFixed *fixed, guint n_fixed, const char *name)
{
	for (guint i = 0; i < n_fixed; i++)
		if (strcmp(fixed[i].name, name) == 0)
			return (gint)i;
	return -1;
}

/* Column c of a file's line holds value: a knob, "-", or a fixed column's own value. */
static gboolean file_value(Knobs *k, guint c, const char *value, const KnobSettingsFixed *fixed,
			   guint n_fixed, const char *where, GError **error)
{
	const char *column = file_columns[c];
	enum knob which;
	guint64 v;

	if (strcmp(value, "-") == 0)
		return TRUE;
	if (cfs_knob_from_name(column, &which))
		return set_knob(k, which, value, where, error);

	gint f = fixed_index(fixed, n_fixed, column);

	if (f < 0 || !parse_ns(value, &v) || v != fixed[f].value_ns)
		return bad(error,
			   "%s: %s_ns %s: the tuner does not set this knob, so the column must be "
			   "'-'%s",
			   where, column, value, f < 0 ? "" : " or the value the experiment keeps");
	return TRUE;
}

static gboolean parse_file(GArray *settings, const char *path, const Knobs *defaults,
			   const KnobSettingsFixed *fixed, guint n_fixed, GError **error)
{
	g_autofree char *text = NULL;
	GError *local = NULL;

	if (!g_file_get_contents(path, &text, NULL, &local)) {
		bad(error, "--settings: %s", local->message);
		g_error_free(local);
		return FALSE;
	}

	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		char *hash = strchr(lines[i], '#');

		if (hash)
			*hash = '\0';

		g_auto(GStrv) f = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
		g_autoptr(GPtrArray) fields = g_ptr_array_new();
		g_autofree char *where = g_strdup_printf("%s:%u", path, i + 1);
		Knobs k = *defaults;

		for (char **p = f; *p; p++)
			if (**p)
				g_ptr_array_add(fields, *p);
		if (fields->len == 0)
			continue;
		if (fields->len < 2 || fields->len > 1 + G_N_ELEMENTS(file_columns))
			return bad(error, "%s: %u fields; a setting is an id and 1 to %zu values",
				   where, fields->len, G_N_ELEMENTS(file_columns));
		if (!valid_id(fields->pdata[0]))
			return bad(error, "%s: id '%s' is not made of [A-Za-z0-9._-]", where,
				   (char *)fields->pdata[0]);
		for (guint c = 1; c < fields->len; c++)
			if (!file_value(&k, c - 1, fields->pdata[c], fixed, n_fixed, where, error))
				return FALSE;
		add(settings, g_strdup(fields->pdata[0]), &k);
	}
	if (settings->len == 0)
		return bad(error, "--settings: %s holds no setting", path);
	return TRUE;
}

static gboolean unique_ids(const GArray *settings, GError **error)
{
	for (guint i = 0; i < settings->len; i++)
		for (guint j = 0; j < i; j++)
			if (strcmp(g_array_index(settings, KnobSetting, i).id,
				   g_array_index(settings, KnobSetting, j).id) == 0)
				return bad(error, "--settings: the setting '%s' appears twice",
					   g_array_index(settings, KnobSetting, i).id);
	return TRUE;
}

static void clear_setting(gpointer data)
{
	g_free(((KnobSetting *)data)->id);
}

GArray *knob_settings_new(void)
{
	GArray *settings = g_array_new(FALSE, FALSE, sizeof(KnobSetting));

	g_array_set_clear_func(settings, clear_setting);
	return settings;
}

void knob_settings_add(GArray *settings, const char *id, const Knobs *knobs)
{
	add(settings, g_strdup(id), knobs);
}

GArray *knob_settings_parse(const char *text, const Knobs *defaults, const KnobSettingsFixed *fixed,
			    guint n_fixed, GError **error)
{
	GArray *settings = knob_settings_new();
	gboolean ok = TRUE;

	if (g_file_test(text, G_FILE_TEST_IS_REGULAR)) {
		ok = parse_file(settings, text, defaults, fixed, n_fixed, error);
	} else {
		g_auto(GStrv) items = g_strsplit(text, ",", -1);

		for (char **item = items; ok && *item; item++)
			ok = parse_item(settings, g_strstrip(*item), defaults, error);
		if (ok && settings->len == 0)
			ok = bad(error, "--settings: no setting given");
	}
	if (ok && unique_ids(settings, error))
		return settings;
	g_array_free(settings, TRUE);
	return NULL;
}

void knob_settings_free(GArray *settings)
{
	if (settings)
		g_array_free(settings, TRUE);
}

gint knob_settings_find(const GArray *settings, const Knobs *k)
{
	for (guint i = 0; i < settings->len; i++)
		if (memcmp(&g_array_index(settings, KnobSetting, i).knobs, k, sizeof *k) == 0)
			return (gint)i;
	return -1;
}
