/* What an error says, for the tests: see support.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "tests/support/support.h"

void expect_gerror_va(const GError *error, GQuark domain, gint code, va_list needles)
{
	if (!error)
		fail_msg("expected error %s %d, got none", g_quark_to_string(domain), code);
	if (!g_error_matches(error, domain, code))
		fail_msg("expected error %s %d, got %s %d: %s", g_quark_to_string(domain), code,
			 g_quark_to_string(error->domain), error->code, error->message);
	if (strchr(error->message, '\n'))
		fail_msg("the message is not one line: %s", error->message);
	for (const char *s = va_arg(needles, const char *); s; s = va_arg(needles, const char *))
		if (!strstr(error->message, s))
			fail_msg("the message lacks '%s': %s", s, error->message);
}

void expect_gerror(const GError *error, GQuark domain, gint code, ...)
{
	va_list ap;

	va_start(ap, code);
	expect_gerror_va(error, domain, code, ap);
	va_end(ap);
}

void expect_no_gerror(gboolean ok, GError *error, const char *what)
{
	if (!ok || error)
		fail_msg("%s: %s", what, error ? error->message : "failed without an error");
	g_clear_error(&error);
}
