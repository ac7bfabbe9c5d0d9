/*
 * tests/tuner/util/test_json_read.c - the strict JSON reader (tuner/util/json_read.h): values, paths,
 * escapes, RFC 8259's number grammar, and errors naming line and column.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tuner/util/json_read.h"

static JsonReadValue *parse_ok(const char *text)
{
	g_autoptr(GError) error = NULL;
	JsonReadValue *v = json_read_parse(text, -1, "t.json", &error);

	if (!v)
		fail_msg("'%s': %s", text, error->message);
	return v;
}

/* The error message of a text that must be refused. */
static char *parse_error(const char *text)
{
	GError *error = NULL;
	JsonReadValue *v = json_read_parse(text, -1, "t.json", &error);

	if (v)
		fail_msg("'%s' was accepted", text);
	assert_true(g_error_matches(error, JSON_READ_ERROR, JSON_READ_ERROR_SYNTAX));

	char *msg = g_strdup(error->message);

	g_error_free(error);
	return msg;
}

static void test_result_like_document(void **state)
{
	(void)state;
	g_autoptr(JsonReadValue) v = parse_ok(
		"{\n  \"optimizer\": \"pso\",\n  \"journal\": null,\n  \"best\": {\n    \"value\": 189.25,\n"
		"    \"knobs\": { \"latency_ns\": 323648191, \"min_granularity_ns\": 100000 },\n"
		"    \"clamped\": []\n  },\n  \"ok\": true, \"no\": false,\n"
		"  \"factors\": [ {\"name\": \"latency\"}, {\"name\": \"min_granularity\"} ]\n}\n");
	double x = 0;

	assert_int_equal(v->type, JSON_READ_OBJECT);
	assert_string_equal(json_read_string(v, "optimizer"), "pso");
	assert_int_equal(json_read_path(v, "journal")->type, JSON_READ_NULL);
	assert_true(json_read_number(v, "best.value", &x));
	assert_true(x == 189.25);
	assert_true(json_read_number(v, "best.knobs.latency_ns", &x));
	assert_true(x == 323648191.0);
	assert_int_equal(json_read_path(v, "best.clamped")->items->len, 0);
	assert_true(json_read_path(v, "ok")->boolean);
	assert_false(json_read_path(v, "no")->boolean);
	assert_string_equal(json_read_string(v, "factors.1.name"), "min_granularity");
	assert_ptr_equal(json_read_path(v, ""), v);

	/* Paths that lead nowhere, or through a value of another type. */
	assert_null(json_read_path(v, "best.knobs.wakeup_granularity_ns"));
	assert_null(json_read_path(v, "factors.2.name"));
	assert_null(json_read_path(v, "factors.x"));
	assert_null(json_read_path(v, "factors.-1"));
	assert_null(json_read_path(v, "optimizer.length"));
	assert_null(json_read_string(v, "best.value"));
	x = 7;
	assert_false(json_read_number(v, "optimizer", &x));
	assert_true(x == 7); /* untouched */
}

static void test_numbers(void **state)
{
	static const struct {
		const char *text;
		double value;
	} ok[] = {
		{ "0", 0 },
		{ "-0", 0 },
		{ "12", 12 },
		{ "-3.25", -3.25 },
		{ "1e3", 1000 },
		{ "1E+3", 1000 },
		{ "2.5e-3", 0.0025 },
		{ "0.1", 0.1 },
		{ "1.8684830014672612e-18", 1.8684830014672612e-18 },
	};
	static const char *const bad[] = { "01", "1.",	".5",	    "+1",   "1e", "1e+",
					   "-",	 "NaN", "Infinity", "0x10", "--1" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) {
		g_autoptr(JsonReadValue) v = parse_ok(ok[i].text);

		assert_int_equal(v->type, JSON_READ_NUMBER);
		if (v->number != ok[i].value)
			fail_msg("%s read as %.17g", ok[i].text, v->number);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		g_free(parse_error(bad[i]));
}

static void test_strings_and_escapes(void **state)
{
	(void)state;
	/* \u00e9 is é (C3 A9 in UTF-8); the pair \ud83d\ude00 is U+1F600 (F0 9F 98 80). */
	g_autoptr(JsonReadValue) v =
		parse_ok("[\"a\\\"b\\\\c\\/d\\n\\t\", \"\\u00e9\", \"\\ud83d\\ude00\", \"λ²\"]");

	assert_string_equal(((JsonReadValue *)v->items->pdata[0])->string, "a\"b\\c/d\n\t");
	assert_string_equal(((JsonReadValue *)v->items->pdata[1])->string, "\xc3\xa9");
	assert_string_equal(((JsonReadValue *)v->items->pdata[2])->string, "\xf0\x9f\x98\x80");
	assert_string_equal(((JsonReadValue *)v->items->pdata[3])->string, "λ²");

	static const char *const bad[] = {
		"\"abc",       "\"\\x\"",	"\"\\u12\"",
		"\"\\ude00\"", "\"\\ud83d\"",	"\"\\ud83d\\u0041\"",
		"\"\\u0000\"", "\"tab\there\"", "\"\xff\"",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		g_free(parse_error(bad[i]));
}

static void test_structure_errors(void **state)
{
	static const char *const bad[] = {
		"",	      "   ",   "{",   "[1,]", "[1 2]", "{\"a\" 1}",  "{\"a\":}",
		"{\"a\":1,}", "{1:2}", "tru", "nul",  "[1] 2", "{\"a\":1}}", "'x'",
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		g_free(parse_error(bad[i]));
}

/* Messages name the input, the line and the column (both from 1) where reading stopped. */
static void test_error_positions(void **state)
{
	(void)state;
	g_autofree char *a = parse_error("{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}");
	g_autofree char *b = parse_error("[1, 2, x]");
	g_autofree char *c = parse_error("{\"a\": 1} extra");

	assert_string_equal(a, "t.json:4:3: expected ',' or '}' after an object member");
	assert_string_equal(b, "t.json:1:8: unexpected character 'x'");
	assert_string_equal(c, "t.json:1:10: text after the end of the JSON value");
}

static void test_depth_limit(void **state)
{
	(void)state;
	GString *deep = g_string_new(NULL);

	for (int i = 0; i < JSON_READ_MAX_DEPTH; i++)
		g_string_append_c(deep, '[');
	for (int i = 0; i < JSON_READ_MAX_DEPTH; i++)
		g_string_append_c(deep, ']');
	json_read_free(parse_ok(deep->str)); /* depth 64: fine */
	g_string_prepend(deep, "[");
	g_string_append(deep, "]");

	g_autofree char *msg = parse_error(deep->str);

	assert_non_null(strstr(msg, "nested deeper than 64 levels"));
	g_string_free(deep, TRUE);
}

/* A length stops the text before a NUL-free end: the rest is not read. */
static void test_length_and_duplicates(void **state)
{
	(void)state;
	g_autoptr(JsonReadValue) v =
		json_read_parse("{\"a\":1,\"a\":2}garbage", 13, "t.json", NULL);
	double x;

	assert_non_null(v);
	assert_int_equal(v->keys->len, 2);
	assert_true(json_read_number(v, "a", &x));
	assert_true(x == 1); /* the first occurrence */
}

static void test_file(void **state)
{
	(void)state;
	g_autofree char *dir = g_dir_make_tmp("json_read_XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "r.json", NULL);
	g_autofree char *missing = g_build_filename(dir, "none.json", NULL);
	GError *error = NULL;

	assert_true(g_file_set_contents(path, "{\"x\": [1, 2,\n 3, }", -1, NULL));
	assert_null(json_read_file(path, &error));
	g_autofree char *expected = g_strdup_printf("%s:2:5: unexpected character '}'", path);
	assert_string_equal(error->message, expected);
	g_clear_error(&error);
	assert_null(json_read_file(missing, &error));
	assert_true(g_error_matches(error, JSON_READ_ERROR, JSON_READ_ERROR_IO));
	g_clear_error(&error);
	g_unlink(path);
	g_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_like_document),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_strings_and_escapes),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_error_positions),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_length_and_duplicates),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
