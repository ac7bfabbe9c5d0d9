/*
 * assert_close.h - a cmocka assertion for floating-point results: |actual - expected| <= tol.
 *
 * The failure names the expression, both values and the tolerance, at the caller's file and line.
 * A NaN actual or expected always fails. Include <cmocka.h> first.
 */
#ifndef TESTS_SUPPORT_ASSERT_CLOSE_H
#define TESTS_SUPPORT_ASSERT_CLOSE_H

#define assert_close(actual, expected, tol) \
	assert_close_at((actual), (expected), (tol), #actual, __FILE__, __LINE__)

void assert_close_at(double actual, double expected, double tol, const char *what, const char *file,
		     int line);

#endif /* TESTS_SUPPORT_ASSERT_CLOSE_H */
