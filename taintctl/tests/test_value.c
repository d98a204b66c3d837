// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_value.c - numeric masks: decimal, hex, and every kind of bad input.
 */
#include <errno.h>

#include "test_util.h"

static void test_good(void **state)
{
	uint64_t m;

	(void)state;
	assert_int_equal(taint_parse_value("0", &m), 0);
	assert_true(m == 0);
	assert_int_equal(taint_parse_value("4609", &m), 0);
	assert_true(m == 4609);
	assert_int_equal(taint_parse_value("0x1201", &m), 0);
	assert_true(m == 4609);
	assert_int_equal(taint_parse_value("0X1201", &m), 0);
	assert_true(m == 4609);
	assert_int_equal(taint_parse_value("0xabcDEF", &m), 0);
	assert_true(m == 0xabcdef);
	assert_int_equal(taint_parse_value("576\n", &m), 0);
	assert_true(m == 576);
	assert_int_equal(taint_parse_value("  64 ", &m), 0);
	assert_true(m == 64);
	/* base 0, as the kernel's sysctl reads: a leading 0 is octal */
	assert_int_equal(taint_parse_value("010", &m), 0);
	assert_true(m == 8);
	assert_int_equal(taint_parse_value("01201", &m), 0);
	assert_true(m == 641);
	assert_int_equal(taint_parse_value("00", &m), 0);
	assert_true(m == 0);
	/* 20 characters, the most proc_get_long() takes */
	assert_int_equal(taint_parse_value("00000000000000001201", &m), 0);
	assert_true(m == 641);
	assert_int_equal(taint_parse_value("0x0000000000000000ff\n", &m), 0);
	assert_true(m == 255);
	assert_int_equal(taint_parse_value("18446744073709551615", &m), 0);
	assert_true(m == UINT64_MAX);
	assert_int_equal(taint_parse_value("0xffffffffffffffff", &m), 0);
	assert_true(m == UINT64_MAX);
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"", " ", "-1", "+1", "abc", "12abc", "0x", "0xg", "1 2",
		"1\n\n", "4609\n5", "1e3", "0b101", "\xff", "--5", "0x-1",
		/* not octal digits after a leading 0 */
		"08", "0129",
		/* more than 20 characters: the kernel refuses them */
		"000000000000000001201", "0x0000000000000000001",
		"01777777777777777777777",
	};
	uint64_t m = 77;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(taint_parse_value(bad[i], &m), -EINVAL);
		assert_true(m == 77);
	}
}

static void test_overflow(void **state)
{
	uint64_t m = 77;

	(void)state;
	assert_int_equal(taint_parse_value("18446744073709551616", &m), -ERANGE);
	assert_int_equal(taint_parse_value("99999999999999999999999", &m),
			 -ERANGE);
	assert_int_equal(taint_parse_value("0x10000000000000000", &m), -ERANGE);
	assert_true(m == 77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests_name("value", tests, NULL, NULL);
}
