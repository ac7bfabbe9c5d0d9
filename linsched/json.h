/*
 * json.h - a small streaming JSON writer over a GString, for the programs' machine-readable
 * output. It tracks nesting so that commas and key/value pairing are always right, escapes
 * strings, and prints numbers so that they read back exactly (integers as integers, doubles with
 * 17 significant digits, non-finite doubles as null).
 */
#ifndef LINSCHED_JSON_H
#define LINSCHED_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	GString *out;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no element written yet at this depth */
	bool pretty;
};

void json_init(struct json_writer *w, GString *out, bool pretty);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
/* Inside an object: the key of the next value. */
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_int(struct json_writer *w, int64_t v);
void json_uint(struct json_writer *w, uint64_t v);
void json_double(struct json_writer *w, double v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

#endif
