/*
 * json.c - streaming JSON writer (see json.h).
 */
#include "linsched/json.h"

#include <math.h>

void json_init(struct json_writer *w, GString *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->first[0] = true;
	w->pretty = pretty;
}

static void newline(struct json_writer *w)
{
	if (!w->pretty)
		return;
	g_string_append_c(w->out, '\n');
	for (int i = 0; i < w->depth; i++)
		g_string_append(w->out, "  ");
}

/* Before any value or key: the comma that separates it from its predecessor. */
static void separate(struct json_writer *w)
{
	if (!w->first[w->depth])
		g_string_append_c(w->out, ',');
	w->first[w->depth] = false;
	if (w->depth > 0)
		newline(w);
}

/* A value right after its key needs no separator: json_key already wrote one. */
static bool after_key(struct json_writer *w)
{
	gsize len = w->out->len;

	return len >= 1 && w->out->str[len - 1] == ':';
}

static void before_value(struct json_writer *w)
{
	if (after_key(w)) {
		if (w->pretty)
			g_string_append_c(w->out, ' ');
		return;
	}
	separate(w);
}

static void begin(struct json_writer *w, char c)
{
	before_value(w);
	g_string_append_c(w->out, c);
	g_assert(w->depth + 1 < JSON_MAX_DEPTH);
	w->first[++w->depth] = true;
}

static void end(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];

	w->depth--;
	if (!empty)
		newline(w);
	g_string_append_c(w->out, c);
	if (w->depth == 0 && w->pretty)
		g_string_append_c(w->out, '\n');
}

void json_begin_object(struct json_writer *w)
{
	begin(w, '{');
}

void json_end_object(struct json_writer *w)
{
	end(w, '}');
}

void json_begin_array(struct json_writer *w)
{
	begin(w, '[');
}

void json_end_array(struct json_writer *w)
{
	end(w, ']');
}

static void append_escaped(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			g_string_append(out, "\\\"");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		default:
			if (*p < 0x20)
				g_string_append_printf(out, "\\u%04x", *p);
			else
				g_string_append_c(out, (char)*p);
		}
	}
	g_string_append_c(out, '"');
}

void json_key(struct json_writer *w, const char *key)
{
	separate(w);
	append_escaped(w->out, key);
	g_string_append_c(w->out, ':');
}

void json_string(struct json_writer *w, const char *s)
{
	before_value(w);
	append_escaped(w->out, s);
}

void json_int(struct json_writer *w, int64_t v)
{
	before_value(w);
	g_string_append_printf(w->out, "%" G_GINT64_FORMAT, v);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_value(w);
	g_string_append_printf(w->out, "%" G_GUINT64_FORMAT, v);
}

void json_double(struct json_writer *w, double v)
{
	before_value(w);
	if (!isfinite(v)) {
		g_string_append(w->out, "null");
		return;
	}
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	/* Locale-independent and round-trip exact. */
	g_string_append(w->out, g_ascii_formatd(buf, sizeof(buf), "%.17g", v));
}

void json_bool(struct json_writer *w, bool v)
{
	before_value(w);
	g_string_append(w->out, v ? "true" : "false");
}

void json_null(struct json_writer *w)
{
	before_value(w);
	g_string_append(w->out, "null");
}
