/*
 * A strict JSON parser for the tests (see support.h): RFC 8259 grammar, duplicate keys refused,
 * non-negative integers kept exact. Written for the tests of the programs' JSON output, which check
 * things tuner/util/json_read.h lets pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/json_strict.h"

struct cursor {
	const char *p;
	int depth;
};

void json_free(gpointer data)
{
	struct json *v = data;

	if (!v)
		return;
	g_free(v->string);
	if (v->array)
		g_ptr_array_free(v->array, TRUE);
	if (v->object)
		g_hash_table_destroy(v->object);
	g_free(v);
}

static void skip_space(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

/* The raw text of a string at c (escapes checked, not decoded), or NULL. */
static char *scan_string(struct cursor *c)
{
	if (*c->p != '"')
		return NULL;
	const char *start = ++c->p;

	while (*c->p != '"') {
		if ((unsigned char)*c->p < 0x20)
			return NULL; /* control character or end of input */
		if (*c->p == '\\') {
			c->p++;
			if (*c->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!g_ascii_isxdigit(c->p[i]))
						return NULL;
				c->p += 4;
			} else if (*c->p == '\0' || !strchr("\"\\/bfnrt", *c->p)) {
				return NULL;
			}
		}
		c->p++;
	}
	return g_strndup(start, (gsize)(c->p++ - start));
}

static bool scan_digits(struct cursor *c)
{
	if (!g_ascii_isdigit(*c->p))
		return false;
	while (g_ascii_isdigit(*c->p))
		c->p++;
	return true;
}

static struct json *scan_number(struct cursor *c)
{
	const char *start = c->p;
	bool integer = true;

	if (*c->p == '-')
		c->p++;
	if (*c->p == '0')
		c->p++;
	else if (!scan_digits(c))
		return NULL;
	if (*c->p == '.') {
		integer = false;
		c->p++;
		if (!scan_digits(c))
			return NULL;
	}
	if (*c->p == 'e' || *c->p == 'E') {
		integer = false;
		c->p++;
		if (*c->p == '+' || *c->p == '-')
			c->p++;
		if (!scan_digits(c))
			return NULL;
	}
	struct json *v = g_new0(struct json, 1);
	g_autofree char *text = g_strndup(start, (gsize)(c->p - start));

	v->kind = J_NUMBER;
	v->number = g_ascii_strtod(text, NULL);
	v->is_uint = integer && text[0] != '-' &&
		     g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT64, &v->uint, NULL);
	return v;
}

static struct json *scan_value(struct cursor *c);

static struct json *scan_array(struct cursor *c)
{
	struct json *v = g_new0(struct json, 1);

	v->kind = J_ARRAY;
	v->array = g_ptr_array_new_with_free_func(json_free);
	c->p++;
	skip_space(c);
	if (*c->p == ']') {
		c->p++;
		return v;
	}
	for (;;) {
		struct json *item = scan_value(c);

		if (!item)
			break;
		g_ptr_array_add(v->array, item);
		skip_space(c);
		if (*c->p == ']') {
			c->p++;
			return v;
		}
		if (*c->p++ != ',')
			break;
	}
	json_free(v);
	return NULL;
}

static struct json *scan_object(struct cursor *c)
{
	struct json *v = g_new0(struct json, 1);

	v->kind = J_OBJECT;
	v->object = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, json_free);
	c->p++;
	skip_space(c);
	if (*c->p == '}') {
		c->p++;
		return v;
	}
	for (;;) {
		skip_space(c);
		char *key = scan_string(c);

		skip_space(c);
		if (!key || *c->p != ':' || g_hash_table_contains(v->object, key)) {
			g_free(key);
			break;
		}
		c->p++;
		struct json *member = scan_value(c);

		if (!member) {
			g_free(key);
			break;
		}
		g_hash_table_insert(v->object, key, member);
		skip_space(c);
		if (*c->p == '}') {
			c->p++;
			return v;
		}
		if (*c->p++ != ',')
			break;
	}
	json_free(v);
	return NULL;
}

static struct json *scan_literal(struct cursor *c, const char *word, enum jkind kind, bool value)
{
	if (strncmp(c->p, word, strlen(word)) != 0)
		return NULL;
	c->p += strlen(word);
	struct json *v = g_new0(struct json, 1);

	v->kind = kind;
	v->boolean = value;
	return v;
}

static struct json *scan_value(struct cursor *c)
{
	struct json *v = NULL;

	skip_space(c);
	if (++c->depth > JSON_MAX_NESTING)
		return NULL;
	switch (*c->p) {
	case '{':
		v = scan_object(c);
		break;
	case '[':
		v = scan_array(c);
		break;
	case '"': {
		char *s = scan_string(c);

		if (s) {
			v = g_new0(struct json, 1);
			v->kind = J_STRING;
			v->string = s;
		}
		break;
	}
	case 't':
		v = scan_literal(c, "true", J_BOOL, true);
		break;
	case 'f':
		v = scan_literal(c, "false", J_BOOL, false);
		break;
	case 'n':
		v = scan_literal(c, "null", J_NULL, false);
		break;
	default:
		v = scan_number(c);
		break;
	}
	c->depth--;
	return v;
}

/* The document in text if it is one JSON value and nothing else, else NULL. */
struct json *json_try_parse(const char *text)
{
	struct cursor c = { text, 0 };
	struct json *v = scan_value(&c);

	skip_space(&c);
	if (v && *c.p != '\0') {
		json_free(v);
		return NULL;
	}
	return v;
}

struct json *json_parse(const char *text)
{
	struct json *v = json_try_parse(text);

	if (!v)
		fail_msg("not valid JSON: '%.200s'", text);
	return v;
}

const struct json *member(const struct json *obj, const char *key, enum jkind kind)
{
	assert_int_equal(obj->kind, J_OBJECT);
	const struct json *v = g_hash_table_lookup(obj->object, key);

	if (!v)
		fail_msg("no key \"%s\"", key);
	if (v->kind != kind)
		fail_msg("\"%s\" is of kind %d, expected %d", key, v->kind, kind);
	return v;
}

guint64 member_uint(const struct json *obj, const char *key)
{
	const struct json *v = member(obj, key, J_NUMBER);

	if (!v->is_uint)
		fail_msg("\"%s\" is not a non-negative integer", key);
	return v->uint;
}

const char *member_string(const struct json *obj, const char *key)
{
	return member(obj, key, J_STRING)->string;
}

const struct json *json_at(const struct json *root, const char *path)
{
	g_auto(GStrv) keys = g_strsplit(path, ".", -1);
	const struct json *v = root;

	for (size_t i = 0; keys[i] && v; i++)
		v = v->kind == J_OBJECT ? g_hash_table_lookup(v->object, keys[i]) : NULL;
	return v;
}

double json_number_at(const struct json *root, const char *path)
{
	const struct json *v = json_at(root, path);

	if (!v || v->kind != J_NUMBER)
		fail_msg("JSON: '%s' is missing or not a number", path);
	return v->number;
}

const char *json_string_at(const struct json *root, const char *path)
{
	const struct json *v = json_at(root, path);

	if (!v || v->kind != J_STRING)
		fail_msg("JSON: '%s' is missing or not a string", path);
	return v->string;
}
