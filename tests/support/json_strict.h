/*
 * json_strict.h - a strict JSON parser for the tests of the programs' JSON output.
 *
 * RFC 8259 grammar, refusing duplicate keys, with each non-negative integer also kept exactly as
 * a guint64: two things tuner/util/json_read.h does not check (it keeps duplicates and reads numbers
 * as doubles), which the tests of the programs' JSON output want. Strings are kept raw (escapes
 * checked, not decoded).
 *
 * Like support.h, the helpers fail the running cmocka test rather than return errors; include
 * <cmocka.h> first. Every struct json * returned belongs to the caller (json_free); member lookups
 * point into their object.
 */
#ifndef TESTS_SUPPORT_JSON_STRICT_H
#define TESTS_SUPPORT_JSON_STRICT_H

#include <stdbool.h>

#include <glib.h>

enum jkind {
	J_NULL,
	J_BOOL,
	J_NUMBER,
	J_STRING,
	J_ARRAY,
	J_OBJECT
};

struct json {
	enum jkind kind;
	bool boolean;
	double number;
	bool is_uint;	    /* a number written as a non-negative integer ... */
	guint64 uint;	    /* ... whose exact value is this */
	char *string;	    /* the raw text between the quotes */
	GPtrArray *array;   /* of struct json * */
	GHashTable *object; /* key -> struct json * */
};

#define JSON_MAX_NESTING 64

/* The document in text if it is one JSON value and nothing else, else NULL. */
struct json *json_try_parse(const char *text);

/* Like json_try_parse, but fails the test when text is not JSON. */
struct json *json_parse(const char *text);

/* Free a value (a gpointer, to serve as a GDestroyNotify). NULL is allowed. */
void json_free(gpointer value);

/* The member key of object obj, which must be there and of this kind; else the test fails. */
const struct json *member(const struct json *obj, const char *key, enum jkind kind);

/* The member key of obj, which must be a non-negative integer. */
guint64 member_uint(const struct json *obj, const char *key);

/* The member key of obj, which must be a string (raw text). */
const char *member_string(const struct json *obj, const char *key);

/* The value at a dotted path of object keys below root ("best.knobs.latency_ns"), or NULL. */
const struct json *json_at(const struct json *root, const char *path);

/* The number at a dotted path; fails the test, naming the path, if there is none. */
double json_number_at(const struct json *root, const char *path);

/* The string (raw text) at a dotted path; fails the test, naming the path, if there is none. */
const char *json_string_at(const struct json *root, const char *path);

#endif /* TESTS_SUPPORT_JSON_STRICT_H */
