/*
 * json_read.h - a small, strict JSON reader (RFC 8259) for the files the programs write
 * (result.json of `tuner pso|golden|grid|random|rsm`), so that `tuner report` and `tuner scale`
 * can read them back without a JSON library.
 *
 * The whole text is parsed into a tree of JsonReadValue. Objects keep their members in file order;
 * a duplicate key is kept too, and lookups return its first occurrence. Numbers are doubles
 * (every number the programs write fits: knobs are below 2^53 ns). Strings are UTF-8 with every
 * escape decoded (\uXXXX surrogate pairs included); a string holding U+0000 is refused, since the
 * tree hands out C strings. At most JSON_READ_MAX_DEPTH arrays and objects may nest, so that a
 * hostile file cannot exhaust the stack.
 *
 * Errors (JSON_READ_ERROR) are one line naming the input, its line and column:
 * "run/result.json:3:17: expected ',' or '}' after an object member".
 *
 * Lookups take a dotted path: "best.knobs.latency_ns"; an array element is its 0-based index,
 * "factors.1.name". A path that leads nowhere, or through a value of another type, gives NULL.
 *
 * Ownership: json_read_parse and json_read_file return a tree the caller frees with
 * json_read_free; every pointer the lookups return points into that tree. A tree is immutable
 * after parsing, so threads may share it.
 */
#ifndef TUNER_JSON_READ_H
#define TUNER_JSON_READ_H

#include <glib.h>

G_BEGIN_DECLS

#define JSON_READ_ERROR	    (json_read_error_quark())
#define JSON_READ_MAX_DEPTH 64

typedef enum {
	JSON_READ_ERROR_IO,	/* the file cannot be read */
	JSON_READ_ERROR_SYNTAX, /* the text is not JSON */
} JsonReadError;

typedef enum {
	JSON_READ_NULL,
	JSON_READ_BOOL,
	JSON_READ_NUMBER,
	JSON_READ_STRING,
	JSON_READ_ARRAY,
	JSON_READ_OBJECT,
} JsonReadType;

typedef struct JsonReadValue JsonReadValue;

struct JsonReadValue {
	JsonReadType type;
	gboolean boolean; /* JSON_READ_BOOL */
	double number;	  /* JSON_READ_NUMBER */
	char *string;	  /* JSON_READ_STRING (owned) */
	GPtrArray *items; /* JSON_READ_ARRAY: the elements; JSON_READ_OBJECT: the values (owned) */
	GPtrArray *keys;  /* JSON_READ_OBJECT: the keys (char *, owned), parallel to items */
};

GQuark json_read_error_quark(void);

/* Parse len bytes of text (-1: up to the NUL); name labels the errors (a file name). */
JsonReadValue *json_read_parse(const char *text, gssize len, const char *name, GError **error);

/* Read and parse a file; errors name path. */
JsonReadValue *json_read_file(const char *path, GError **error);

/* Free a tree. NULL is allowed. */
void json_read_free(JsonReadValue *value);

/* The value at a dotted path below root ("" is root itself), or NULL. */
const JsonReadValue *json_read_path(const JsonReadValue *root, const char *path);

/* The number at path into *out; FALSE (and *out untouched) when there is none. */
gboolean json_read_number(const JsonReadValue *root, const char *path, double *out);

/* The string at path, or NULL when there is none. */
const char *json_read_string(const JsonReadValue *root, const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(JsonReadValue, json_read_free)

G_END_DECLS

#endif /* TUNER_JSON_READ_H */
