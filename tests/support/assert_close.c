/* assert_close for the tests: see assert_close.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/support/assert_close.h"

void assert_close_at(double actual, double expected, double tol, const char *what, const char *file,
		     int line)
{
	if (!(fabs(actual - expected) <= tol)) {
		print_error("%s = %.15g, expected %.15g +- %.3g\n", what, actual, expected, tol);
		_fail(file, line);
	}
}
