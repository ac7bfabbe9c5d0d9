/*
 * Tests of linsched/model_id: the id is 16 lowercase hex digits, the same at every call. That it
 * follows the sources is the Makefile's part (build/gen/model_id.h), beyond a test's reach: a
 * test binary is built from one state of the tree and sees no other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <glib.h>

#include "linsched/model_id.h"

static void test_sixteen_lowercase_hex_digits(void **state)
{
	(void)state;
	const char *id = linsched_model_id();

	assert_non_null(id);
	assert_int_equal(strlen(id), 16);
	for (const char *c = id; *c; c++)
		if (!g_ascii_isdigit(*c) && !(*c >= 'a' && *c <= 'f'))
			fail_msg("model id '%s': '%c' is no lowercase hex digit", id, *c);
}

/* Journals compare it as text: every call gives the same, and the same static string. */
static void test_stable(void **state)
{
	(void)state;
	const char *first = linsched_model_id();
	g_autofree char *copy = g_strdup(first);

	for (int i = 0; i < 1000; i++) {
		assert_ptr_equal(linsched_model_id(), first);
		assert_string_equal(linsched_model_id(), copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sixteen_lowercase_hex_digits),
		cmocka_unit_test(test_stable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
