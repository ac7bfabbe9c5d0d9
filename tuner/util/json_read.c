/*
 * json_read.c - a strict recursive-descent JSON reader (see json_read.h).
 */
#include "tuner/util/json_read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* G_DEFINE_QUARK turns its first argument into a string: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK(json-read-error-quark, json_read_error)
/* clang-format on */

struct parser {
	const char *start, *p, *end;
	const char *name;
	GError **error;
};

static gboolean fail(struct parser *ps, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* "name:line:column: message", the position being where the parser stopped. */
static gboolean fail(struct parser *ps, const char *fmt, ...)
{
	guint line = 1, column = 1;
	va_list ap;

	for (const char *c = ps->start; c < ps->p; c++) {
		if (*c == '\n') {
			line++;
			column = 1;
		} else {
			column++;
		}
	}
	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(ps->error, JSON_READ_ERROR, JSON_READ_ERROR_SYNTAX, "%s:%u:%u: %s", ps->name,
		    line, column, msg);
	return FALSE;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static gboolean at(const struct parser *ps, char c)
{
	return ps->p < ps->end && *ps->p == c;
}

static JsonReadValue *value_new(JsonReadType type)
{
	JsonReadValue *v = g_new0(JsonReadValue, 1);

	v->type = type;
	return v;
}

void json_read_free(JsonReadValue *value)
{
	if (!value)
		return;
	g_free(value->string);
	if (value->items)
		g_ptr_array_free(value->items, TRUE);
	if (value->keys)
		g_ptr_array_free(value->keys, TRUE);
	g_free(value);
}

static void free_item(gpointer data)
{
	json_read_free(data);
}

/* ---- scalars -------------------------------------------------------------------------------- */

static gboolean literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail(ps, "expected '%s'", word);
	ps->p += n;
	return TRUE;
}

static gboolean digits(struct parser *ps)
{
	const char *from = ps->p;

	while (ps->p < ps->end && g_ascii_isdigit(*ps->p))
		ps->p++;
	return ps->p > from;
}

/* The grammar of RFC 8259 §6, checked here because strtod accepts more (hex, inf, leading '+'). */
static JsonReadValue *number(struct parser *ps)
{
	const char *from = ps->p;

	if (at(ps, '-'))
		ps->p++;
	if (at(ps, '0'))
		ps->p++;
	else if (!digits(ps))
		return fail(ps, "a number needs a digit here"), NULL;
	if (at(ps, '.')) {
		ps->p++;
		if (!digits(ps))
			return fail(ps, "a number needs a digit after '.'"), NULL;
	}
	if (at(ps, 'e') || at(ps, 'E')) {
		ps->p++;
		if (at(ps, '+') || at(ps, '-'))
			ps->p++;
		if (!digits(ps))
			return fail(ps, "a number needs a digit in its exponent"), NULL;
	}

	g_autofree char *text = g_strndup(from, (gsize)(ps->p - from));
	JsonReadValue *v = value_new(JSON_READ_NUMBER);

	/* ERANGE: an overflow reads as +-HUGE_VAL and an underflow as 0 or a subnormal, the nearest
	 * doubles; the programs never write such numbers, and refusing them would help no reader. */
	v->number = g_ascii_strtod(text, NULL);
	return v;
}

static int hex_value(char c)
{
	return g_ascii_isxdigit(c) ? g_ascii_xdigit_value(c) : -1;
}

static gboolean hex4(struct parser *ps, gunichar *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int h = ps->p < ps->end ? hex_value(*ps->p) : -1;

		if (h < 0)
			return fail(ps, "\\u needs four hexadecimal digits");
		*out = *out * 16 + (gunichar)h;
		ps->p++;
	}
	return TRUE;
}

/* After "\u": one code point, joining a surrogate pair. */
static gboolean unicode_escape(struct parser *ps, GString *s)
{
	gunichar c, low;

	if (!hex4(ps, &c))
		return FALSE;
	if (c >= 0xDC00 && c <= 0xDFFF)
		return fail(ps, "a low surrogate without a high one");
	if (c >= 0xD800 && c <= 0xDBFF) {
		if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return fail(ps,
				    "a high surrogate must be followed by \\u and a low surrogate");
		ps->p += 2;
		if (!hex4(ps, &low))
			return FALSE;
		if (low < 0xDC00 || low > 0xDFFF)
			return fail(ps, "a high surrogate must be followed by a low surrogate");
		c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
	}
	if (c == 0)
		return fail(ps, "\\u0000 is not supported");
	g_string_append_unichar(s, c);
	return TRUE;
}

static gboolean escape(struct parser *ps, GString *s)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	const char *hit;

	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	if (*ps->p == 'u') {
		ps->p++;
		return unicode_escape(ps, s);
	}
	hit = strchr(from, *ps->p);
	if (!hit || !*ps->p)
		return fail(ps, "unknown escape '\\%c'", *ps->p);
	g_string_append_c(s, to[hit - from]);
	ps->p++;
	return TRUE;
}

/* At the opening quote: the decoded string (owned), or NULL. */
static char *string_text(struct parser *ps)
{
	GString *s = g_string_new(NULL);

	ps->p++;
	for (;;) {
		if (ps->p >= ps->end) {
			fail(ps, "unterminated string");
			break;
		}

		unsigned char c = (unsigned char)*ps->p;

		if (c == '"') {
			ps->p++;
			if (!g_utf8_validate(s->str, (gssize)s->len, NULL)) {
				fail(ps, "the string is not valid UTF-8");
				break;
			}
			return g_string_free(s, FALSE);
		}
		if (c < 0x20) {
			fail(ps, "a control character inside a string");
			break;
		}
		ps->p++;
		if (c == '\\') {
			if (!escape(ps, s))
				break;
		} else {
			g_string_append_c(s, (char)c);
		}
	}
	g_string_free(s, TRUE);
	return NULL;
}

/* ---- structure ------------------------------------------------------------------------------ */

static JsonReadValue *value(struct parser *ps, guint depth);

static JsonReadValue *array(struct parser *ps, guint depth)
{
	JsonReadValue *v = value_new(JSON_READ_ARRAY);

	v->items = g_ptr_array_new_with_free_func(free_item);
	ps->p++;
	skip_space(ps);
	if (at(ps, ']')) {
		ps->p++;
		return v;
	}
	for (;;) {
		JsonReadValue *item = value(ps, depth + 1);

		if (!item)
			break;
		g_ptr_array_add(v->items, item);
		skip_space(ps);
		if (at(ps, ']')) {
			ps->p++;
			return v;
		}
		if (!at(ps, ',')) {
			fail(ps, "expected ',' or ']' after an array element");
			break;
		}
		ps->p++;
	}
	json_read_free(v);
	return NULL;
}

static JsonReadValue *object(struct parser *ps, guint depth)
{
	JsonReadValue *v = value_new(JSON_READ_OBJECT);

	v->items = g_ptr_array_new_with_free_func(free_item);
	v->keys = g_ptr_array_new_with_free_func(g_free);
	ps->p++;
	skip_space(ps);
	if (at(ps, '}')) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key;
		JsonReadValue *member;

		skip_space(ps);
		if (!at(ps, '"')) {
			fail(ps, "expected a string as the object key");
			break;
		}
		if (!(key = string_text(ps)))
			break;
		g_ptr_array_add(v->keys, key);
		skip_space(ps);
		if (!at(ps, ':')) {
			fail(ps, "expected ':' after the object key");
			break;
		}
		ps->p++;
		if (!(member = value(ps, depth + 1)))
			break;
		g_ptr_array_add(v->items, member);
		skip_space(ps);
		if (at(ps, '}')) {
			ps->p++;
			return v;
		}
		if (!at(ps, ',')) {
			fail(ps, "expected ',' or '}' after an object member");
			break;
		}
		ps->p++;
	}
	/* A key whose value failed has no item: keep the arrays parallel before freeing. */
	g_ptr_array_set_size(v->keys, v->items->len);
	json_read_free(v);
	return NULL;
}

static JsonReadValue *value(struct parser *ps, guint depth)
{
	JsonReadValue *v;

	skip_space(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of the text"), NULL;
	/* depth: the arrays and objects around this value. */
	if ((*ps->p == '{' || *ps->p == '[') && depth >= JSON_READ_MAX_DEPTH)
		return fail(ps, "nested deeper than %d levels", JSON_READ_MAX_DEPTH), NULL;
	switch (*ps->p) {
	case '{':
		return object(ps, depth);
	case '[':
		return array(ps, depth);
	case '"': {
		char *s = string_text(ps);

		if (!s)
			return NULL;
		v = value_new(JSON_READ_STRING);
		v->string = s;
		return v;
	}
	case 't':
	case 'f':
		v = value_new(JSON_READ_BOOL);
		v->boolean = *ps->p == 't';
		if (!literal(ps, v->boolean ? "true" : "false")) {
			json_read_free(v);
			return NULL;
		}
		return v;
	case 'n':
		return literal(ps, "null") ? value_new(JSON_READ_NULL) : NULL;
	default:
		if (*ps->p == '-' || g_ascii_isdigit(*ps->p))
			return number(ps);
		return fail(ps, "unexpected character '%c'", *ps->p), NULL;
	}
}

JsonReadValue *json_read_parse(const char *text, gssize len, const char *name, GError **error)
{
	struct parser ps = {
		.start = text,
		.p = text,
		.end = text + (len < 0 ? (gssize)strlen(text) : len),
		.name = name,
		.error = error,
	};
	JsonReadValue *root = value(&ps, 0);

	if (!root)
		return NULL;
	skip_space(&ps);
	if (ps.p < ps.end) {
		fail(&ps, "text after the end of the JSON value");
		json_read_free(root);
		return NULL;
	}
	return root;
}

JsonReadValue *json_read_file(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	gsize len;
	GError *local = NULL;

	if (!g_file_get_contents(path, &text, &len, &local)) {
		g_set_error(error, JSON_READ_ERROR, JSON_READ_ERROR_IO, "%s", local->message);
		g_error_free(local);
		return NULL;
	}
	return json_read_parse(text, (gssize)len, path, error);
}

/* ---- lookups -------------------------------------------------------------------------------- */

static const JsonReadValue *step(const JsonReadValue *v, const char *name)
{
	if (v->type == JSON_READ_OBJECT) {
		for (guint i = 0; i < v->keys->len; i++)
			if (strcmp(g_ptr_array_index(v->keys, i), name) == 0)
				return g_ptr_array_index(v->items, i);
		return NULL;
	}
	if (v->type == JSON_READ_ARRAY) {
		char *end;
		guint64 index;

		if (!g_ascii_isdigit(name[0]))
			return NULL;
		errno = 0;
		index = g_ascii_strtoull(name, &end, 10);
		if (errno || *end || index >= v->items->len)
			return NULL;
		return g_ptr_array_index(v->items, index);
	}
	return NULL;
}

const JsonReadValue *json_read_path(const JsonReadValue *root, const char *path)
{
	if (!root || !path)
		return NULL;
	if (!*path)
		return root;

	g_auto(GStrv) parts = g_strsplit(path, ".", -1);
	const JsonReadValue *v = root;

	for (size_t i = 0; parts[i] && v; i++)
		v = step(v, parts[i]);
	return v;
}

gboolean json_read_number(const JsonReadValue *root, const char *path, double *out)
{
	const JsonReadValue *v = json_read_path(root, path);

	if (!v || v->type != JSON_READ_NUMBER)
		return FALSE;
	*out = v->number;
	return TRUE;
}

const char *json_read_string(const JsonReadValue *root, const char *path)
{
	const JsonReadValue *v = json_read_path(root, path);

	return v && v->type == JSON_READ_STRING ? v->string : NULL;
}
