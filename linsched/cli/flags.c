/*
 * flags.c - flags that know whether they were given (see flags.h).
 *
 * Every entry added becomes a G_OPTION_ARG_CALLBACK entry whose callback, parse_flag(), finds the
 * flag by the name GLib passes ("--cpus" or "-c"), checks the value, stores it where the entry
 * declared and counts the flag as given.
 */
#include "linsched/cli/flags.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* One entry as the command declared it, and what the parser saw of it. */
struct flag {
	GOptionEntry entry;
	char *name; /* "--long-name" */
	struct flag_limits limits;
	guint given;
	GPtrArray *texts; /* each value as typed, for flag_set_describe */
};

static void flag_free(gpointer data)
{
	struct flag *f = data;

	g_free(f->name);
	g_ptr_array_free(f->texts, TRUE);
	g_free(f);
}

void flag_set_init(struct flag_set *set)
{
	set->flags = g_ptr_array_new_with_free_func(flag_free);
}

void flag_set_clear(struct flag_set *set)
{
	if (set->flags)
		g_ptr_array_free(set->flags, TRUE);
	set->flags = NULL;
}

GOptionGroup *flag_group_new(struct flag_set *set, const char *name, const char *description,
			     const char *help_description)
{
	return g_option_group_new(name, description, help_description, set, NULL);
}

/* ---- parsing ------------------------------------------------------------------------------ */

/* GLib names the flag by its long name ("--cpus", also when the user wrote a group's prefixed
 * "--sim-cpus") or its short one ("-c"). */
static struct flag *find_option(const struct flag_set *set, const char *option_name)
{
	for (guint i = 0; i < set->flags->len; i++) {
		struct flag *f = g_ptr_array_index(set->flags, i);

		if (strcmp(option_name, f->name) == 0 ||
		    (f->entry.short_name && option_name[0] == '-' &&
		     option_name[1] == f->entry.short_name && option_name[2] == '\0'))
			return f;
	}
	return NULL;
}

static gboolean bad_value(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean bad_value(GError **error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, msg);
	return FALSE;
}

/* "in 1..64" or "at least 0". */
static char *int_range_text(const struct flag_limits *l)
{
	if (l->max == G_MAXINT64)
		return g_strdup_printf("at least %" G_GINT64_FORMAT, l->min);
	return g_strdup_printf("in %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT, l->min, l->max);
}

/* "in (0, 1]" or "above 0". */
static char *real_range_text(const struct flag_limits *l)
{
	if (l->hi == G_MAXDOUBLE)
		return g_strdup_printf(l->open & FLAG_OPEN_LO ? "above %g" : "at least %g", l->lo);
	return g_strdup_printf("in %c%g, %g%c", l->open & FLAG_OPEN_LO ? '(' : '[', l->lo, l->hi,
			       l->open & FLAG_OPEN_HI ? ')' : ']');
}

static gboolean parse_int(const struct flag *f, const char *value, GError **error)
{
	g_autoptr(GError) local = NULL;
	const struct flag_limits *l = &f->limits;
	gint64 v;

	/* Decimal only: GLib's own parser reads 010 as 8 and 0x10 as 16. */
	if (!g_ascii_string_to_signed(value, 10, l->min, l->max, &v, &local)) {
		g_autofree char *range = int_range_text(l);

		if (g_error_matches(local, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_INVALID))
			return bad_value(error, "%s: '%s' is not a whole number", f->name, value);
		return bad_value(error, "%s: must be %s, got %s", f->name, range, value);
	}
	*(gint64 *)f->entry.arg_data = v;
	return TRUE;
}

static gboolean parse_real(const struct flag *f, const char *value, GError **error)
{
	const struct flag_limits *l = &f->limits;
	char *end;
	double v = g_ascii_strtod(value, &end);

	if (end == value || *end != '\0' || g_ascii_isspace(value[0]) || !isfinite(v))
		return bad_value(error, "%s: '%s' is not a finite number", f->name, value);
	if (v < l->lo || v > l->hi || (v == l->lo && (l->open & FLAG_OPEN_LO)) ||
	    (v == l->hi && (l->open & FLAG_OPEN_HI))) {
		g_autofree char *range = real_range_text(l);

		return bad_value(error, "%s: must be %s, got %s", f->name, range, value);
	}
	*(double *)f->entry.arg_data = v;
	return TRUE;
}

static void append_value(char ***strv, const char *value)
{
	guint n = *strv ? g_strv_length(*strv) : 0;

	*strv = g_renew(char *, *strv, n + 2);
	(*strv)[n] = g_strdup(value);
	(*strv)[n + 1] = NULL;
}

static gboolean parse_flag(const char *option_name, const char *value, gpointer data,
			   GError **error)
{
	struct flag_set *set = data;
	struct flag *f = find_option(set, option_name);
	GOptionArg arg;

	g_assert(f);
	arg = f->entry.arg;
	if (f->given && (arg == G_OPTION_ARG_INT64 || arg == G_OPTION_ARG_DOUBLE ||
			 arg == G_OPTION_ARG_STRING || arg == G_OPTION_ARG_FILENAME))
		return bad_value(error, "%s: given twice; give it once", f->name);
	f->given++;
	g_ptr_array_add(f->texts, g_strdup(value ? value : ""));
	switch (arg) {
	case G_OPTION_ARG_INT64:
		return parse_int(f, value, error);
	case G_OPTION_ARG_DOUBLE:
		return parse_real(f, value, error);
	case G_OPTION_ARG_FILENAME:
	case G_OPTION_ARG_FILENAME_ARRAY:
		if (!*value)
			return bad_value(error, "%s: an empty file name", f->name);
		break;
	case G_OPTION_ARG_CALLBACK:
		return ((GOptionArgFunc)f->entry.arg_data)(option_name, value, set, error);
	default:
		break;
	}
	if (arg == G_OPTION_ARG_NONE)
		*(gboolean *)f->entry.arg_data = TRUE;
	else if (arg == G_OPTION_ARG_STRING || arg == G_OPTION_ARG_FILENAME)
		*(char **)f->entry.arg_data = g_strdup(value);
	else
		append_value(f->entry.arg_data, value);
	return TRUE;
}

/* ---- building groups ---------------------------------------------------------------------- */

static const struct flag_limits *find_limits(gconstpointer value, const struct flag_limits *limits,
					     gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (limits[i].value == value)
			return &limits[i];
	return NULL;
}

/* The entry GLib sees: the callback, with the flags that tell GLib what the callback takes. */
static GOptionEntry callback_entry(const GOptionEntry *e)
{
	GOptionEntry cb = *e;

	cb.arg = G_OPTION_ARG_CALLBACK;
	cb.arg_data = (gpointer)parse_flag;
	if (e->arg == G_OPTION_ARG_NONE)
		cb.flags |= G_OPTION_FLAG_NO_ARG;
	if (e->arg == G_OPTION_ARG_FILENAME || e->arg == G_OPTION_ARG_FILENAME_ARRAY)
		cb.flags |= G_OPTION_FLAG_FILENAME;
	return cb;
}

void flag_group_add(struct flag_set *set, GOptionGroup *group, const GOptionEntry *entries,
		    const struct flag_limits *limits, gsize n_limits)
{
	g_autoptr(GArray) glib = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));

	for (const GOptionEntry *e = entries; e->long_name; e++) {
		GOptionEntry cb = *e;

		if (strcmp(e->long_name, G_OPTION_REMAINING) == 0) {
			g_array_append_val(glib, cb);
			continue;
		}

		struct flag *f = g_new0(struct flag, 1);
		const struct flag_limits *l = find_limits(e->arg_data, limits, n_limits);

		f->entry = *e;
		f->name = g_strconcat("--", e->long_name, NULL);
		f->texts = g_ptr_array_new_with_free_func(g_free);
		switch (e->arg) {
		case G_OPTION_ARG_INT64:
		case G_OPTION_ARG_DOUBLE:
			if (!l || l->real != (e->arg == G_OPTION_ARG_DOUBLE))
				g_error("flags: %s has no %s limits", f->name,
					e->arg == G_OPTION_ARG_DOUBLE ? "real" : "integer");
			f->limits = *l;
			break;
		case G_OPTION_ARG_NONE:
			if (e->flags & G_OPTION_FLAG_REVERSE)
				g_error("flags: %s: G_OPTION_FLAG_REVERSE is not supported",
					f->name);
			break;
		case G_OPTION_ARG_STRING:
		case G_OPTION_ARG_FILENAME:
		case G_OPTION_ARG_STRING_ARRAY:
		case G_OPTION_ARG_FILENAME_ARRAY:
		case G_OPTION_ARG_CALLBACK:
			break;
		default:
			g_error("flags: %s: argument kind %d is not supported", f->name, e->arg);
		}
		if (e->arg != G_OPTION_ARG_CALLBACK)
			cb = callback_entry(e);
		else
			cb.arg_data = (gpointer)parse_flag;
		g_ptr_array_add(set->flags, f);
		g_array_append_val(glib, cb);
	}
	g_option_group_add_entries(group, (const GOptionEntry *)glib->data);
}

void flag_add_main_entries(struct flag_set *set, GOptionContext *ctx, const GOptionEntry *entries,
			   const struct flag_limits *limits, gsize n_limits)
{
	GOptionGroup *group = flag_group_new(set, NULL, NULL, NULL);

	flag_group_add(set, group, entries, limits, n_limits);
	g_option_context_set_main_group(ctx, group);
}

/* ---- asking ------------------------------------------------------------------------------- */

static const struct flag *find_value(const struct flag_set *set, gconstpointer value)
{
	for (guint i = 0; set->flags && i < set->flags->len; i++) {
		const struct flag *f = g_ptr_array_index(set->flags, i);

		if (f->entry.arg_data == value)
			return f;
	}
	return NULL;
}

bool flag_given(const struct flag_set *set, gconstpointer value)
{
	const struct flag *f = find_value(set, value);

	return f && f->given > 0;
}

const char *flag_name(const struct flag_set *set, gconstpointer value)
{
	const struct flag *f = find_value(set, value);

	if (!f)
		g_error("flags: no flag of this set stores at %p", value);
	return f->name;
}

const char *flag_first_given(const struct flag_set *set, ...)
{
	const char *name = NULL;
	gconstpointer value;
	va_list ap;

	va_start(ap, set);
	while (!name && (value = va_arg(ap, gconstpointer)))
		if (flag_given(set, value))
			name = flag_name(set, value);
	va_end(ap);
	return name;
}

const char *flag_any_given(const struct flag_set *set, gconstpointer except)
{
	for (guint i = 0; set->flags && i < set->flags->len; i++) {
		const struct flag *f = g_ptr_array_index(set->flags, i);

		if (f->given && f->entry.arg_data != except)
			return f->name;
	}
	return NULL;
}

void flag_set_describe(const struct flag_set *set, const char *const *skip, GString *out)
{
	for (guint i = 0; set->flags && i < set->flags->len; i++) {
		const struct flag *f = g_ptr_array_index(set->flags, i);
		const char *name = f->entry.long_name;

		if (skip && g_strv_contains(skip, name))
			continue;
		for (guint k = 0; k < f->texts->len; k++) {
			const char *text = g_ptr_array_index(f->texts, k);
			g_autofree char *escaped = g_uri_escape_string(text, NULL, FALSE);

			if (f->entry.arg == G_OPTION_ARG_NONE)
				g_string_append_printf(out, " %s", name);
			else
				g_string_append_printf(out, " %s=%s", name, escaped);
		}
	}
}
