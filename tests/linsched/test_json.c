/*
 * Tests of linsched/json: the streaming writer behind every machine-readable output.
 *
 * Expected documents are written out by hand, byte for byte (commas, nesting, spacing of the
 * pretty form, escapes as RFC 8259 section 7 defines them). Doubles are checked by reading the
 * text back with g_ascii_strtod and comparing bit patterns, and the text is checked against the
 * number grammar of RFC 8259 section 6 with a regular expression.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>

#include <gsl/gsl_rng.h>

#include "linsched/json.h"

/* RFC 8259, section 6: number = [ minus ] int [ frac ] [ exp ] */
#define JSON_NUMBER_RE "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"

static GString *compact(struct json_writer *w)
{
	GString *s = g_string_new(NULL);

	json_init(w, s, false);
	return s;
}

static void test_empty_containers(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);

	json_begin_object(&w);
	json_end_object(&w);
	assert_string_equal(s->str, "{}");
	g_string_free(s, TRUE);

	s = compact(&w);
	json_begin_array(&w);
	json_end_array(&w);
	assert_string_equal(s->str, "[]");
	g_string_free(s, TRUE);
}

static void test_compact_nesting_and_commas(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);

	json_begin_object(&w);
	json_key(&w, "a");
	json_int(&w, 1);
	json_key(&w, "b");
	json_begin_array(&w);
	json_int(&w, 1);
	json_int(&w, -2);
	json_begin_array(&w);
	json_end_array(&w);
	json_begin_object(&w);
	json_key(&w, "c");
	json_null(&w);
	json_key(&w, "d");
	json_bool(&w, true);
	json_end_object(&w);
	json_bool(&w, false);
	json_end_array(&w);
	json_key(&w, "e");
	json_begin_object(&w);
	json_end_object(&w);
	json_key(&w, "f");
	json_string(&w, "x");
	json_end_object(&w);
	assert_string_equal(
		s->str,
		"{\"a\":1,\"b\":[1,-2,[],{\"c\":null,\"d\":true},false],\"e\":{},\"f\":\"x\"}");
	g_string_free(s, TRUE);
}

/* Level i: [i,{"k":<level i+1>},-i], innermost null. Each level opens an array and an object. */
static void write_level(struct json_writer *w, GString *want, int i, int levels)
{
	if (i == levels) {
		json_null(w);
		g_string_append(want, "null");
		return;
	}
	json_begin_array(w);
	json_int(w, i);
	json_begin_object(w);
	json_key(w, "k");
	g_string_append_printf(want, "[%d,{\"k\":", i);
	write_level(w, want, i + 1, levels);
	json_end_object(w);
	json_int(w, -i);
	json_end_array(w);
	g_string_append_printf(want, "},%d]", -i);
}

/* Nesting as deep as the writer allows (JSON_MAX_DEPTH - 1 open containers). */
static void test_deep_nesting(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);
	GString *want = g_string_new(NULL);

	write_level(&w, want, 0, (JSON_MAX_DEPTH - 1) / 2);
	assert_int_equal(w.depth, 0);
	assert_string_equal(s->str, want->str);
	g_string_free(s, TRUE);
	g_string_free(want, TRUE);
}

static void test_pretty(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = g_string_new(NULL);

	json_init(&w, s, true);
	json_begin_object(&w);
	json_key(&w, "a");
	json_int(&w, 1);
	json_key(&w, "e");
	json_begin_array(&w);
	json_end_array(&w);
	json_key(&w, "o");
	json_begin_object(&w);
	json_end_object(&w);
	json_key(&w, "l");
	json_begin_array(&w);
	json_uint(&w, 2);
	json_begin_object(&w);
	json_key(&w, "x");
	json_null(&w);
	json_end_object(&w);
	json_end_array(&w);
	json_end_object(&w);
	assert_string_equal(s->str, "{\n"
				    "  \"a\": 1,\n"
				    "  \"e\": [],\n"
				    "  \"o\": {},\n"
				    "  \"l\": [\n"
				    "    2,\n"
				    "    {\n"
				    "      \"x\": null\n"
				    "    }\n"
				    "  ]\n"
				    "}\n");
	g_string_free(s, TRUE);
}

static void test_string_escapes(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);

	json_begin_object(&w);
	json_key(&w, "k\"e\\y\n");
	json_string(&w, "q\" b\\ n\n r\r t\t \x01 \x1f \x7f / \xc3\xa9 \xe2\x82\xac");
	json_key(&w, "");
	json_string(&w, "");
	json_key(&w, "colon:");
	json_string(&w, "ends with colon:");
	json_key(&w, "after");
	json_int(&w, 5);
	json_end_object(&w);
	assert_string_equal(
		s->str,
		"{\"k\\\"e\\\\y\\n\":\"q\\\" b\\\\ n\\n r\\r t\\t \\u0001 \\u001f \x7f / \xc3\xa9 \xe2\x82\xac\","
		"\"\":\"\","
		"\"colon:\":\"ends with colon:\","
		"\"after\":5}");
	g_string_free(s, TRUE);
}

static void test_integers(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);

	json_begin_array(&w);
	json_int(&w, 0);
	json_int(&w, INT64_MIN);
	json_int(&w, INT64_MAX);
	json_uint(&w, UINT64_MAX);
	json_uint(&w, 0);
	json_end_array(&w);
	assert_string_equal(s->str,
			    "[0,-9223372036854775808,9223372036854775807,18446744073709551615,0]");
	g_string_free(s, TRUE);
}

static void test_non_finite_is_null(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);

	json_begin_object(&w);
	json_key(&w, "nan");
	json_double(&w, NAN);
	json_key(&w, "inf");
	json_double(&w, INFINITY);
	json_key(&w, "-inf");
	json_double(&w, -INFINITY);
	json_key(&w, "list");
	json_begin_array(&w);
	json_double(&w, NAN);
	json_double(&w, 1.5);
	json_end_array(&w);
	json_end_object(&w);
	assert_string_equal(s->str,
			    "{\"nan\":null,\"inf\":null,\"-inf\":null,\"list\":[null,1.5]}");
	g_string_free(s, TRUE);
}

/* One double written alone: valid JSON number text that reads back to the same bits. */
static void check_round_trip(GRegex *re, double v)
{
	struct json_writer w;
	GString *s = compact(&w);
	char *end;

	json_double(&w, v);
	if (!g_regex_match(re, s->str, 0, NULL))
		fail_msg("%s is not a JSON number", s->str);
	double back = g_ascii_strtod(s->str, &end);

	assert_true(*end == '\0');
	if (memcmp(&back, &v, sizeof(v)) != 0)
		fail_msg("%.17g written as %s reads back as %.17g", v, s->str, back);
	g_string_free(s, TRUE);
}

static void test_double_round_trip(void **state)
{
	(void)state;
	GRegex *re = g_regex_new(JSON_NUMBER_RE, 0, 0, NULL);
	const double fixed[] = {
		0.0,
		-0.0,
		1.0,
		-1.5,
		0.1,
		1.0 / 3.0,
		2.0 / 3.0,
		1e21,
		1e22,
		1e-7,
		123456789012345678.0,
		DBL_MAX,
		-DBL_MAX,
		DBL_MIN,
		DBL_TRUE_MIN,
		DBL_EPSILON,
		1.0 + DBL_EPSILON,
		M_PI,
		9007199254740993.0,
	};

	assert_non_null(re);
	for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
		check_round_trip(re, fixed[i]);

	/* Random bit patterns cover every exponent, subnormals included. */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, 2024);
	for (int i = 0; i < 20000; i++) {
		uint64_t bits = ((uint64_t)gsl_rng_get(rng) << 32) | gsl_rng_get(rng);
		double v;

		memcpy(&v, &bits, sizeof(v));
		if (isfinite(v))
			check_round_trip(re, v);
	}
	/* and ordinary magnitudes */
	for (int i = 0; i < 20000; i++)
		check_round_trip(re,
				 (gsl_rng_uniform(rng) - 0.5) *
					 pow(10.0, (double)gsl_rng_uniform_int(rng, 40) - 20.0));
	gsl_rng_free(rng);
	g_regex_unref(re);
}

/* Doubles among other values in a container get their commas like anything else. */
static void test_double_in_containers(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = compact(&w);

	json_begin_object(&w);
	json_key(&w, "x");
	json_double(&w, 0.5);
	json_key(&w, "y");
	json_begin_array(&w);
	json_double(&w, 0.25);
	json_double(&w, -2.0);
	json_end_array(&w);
	json_end_object(&w);
	assert_string_equal(s->str, "{\"x\":0.5,\"y\":[0.25,-2]}");
	g_string_free(s, TRUE);
}

/* The writer appends: whatever the string held before stays in front. */
static void test_appends(void **state)
{
	(void)state;
	struct json_writer w;
	GString *s = g_string_new("prefix ");

	json_init(&w, s, false);
	json_begin_array(&w);
	json_string(&w, "a");
	json_end_array(&w);
	assert_string_equal(s->str, "prefix [\"a\"]");
	g_string_free(s, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_containers),
		cmocka_unit_test(test_compact_nesting_and_commas),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_non_finite_is_null),
		cmocka_unit_test(test_double_round_trip),
		cmocka_unit_test(test_double_in_containers),
		cmocka_unit_test(test_appends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
