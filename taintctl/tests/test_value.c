// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_value.c - numeric masks: decimal, hex, and every kind of bad input;
 * saved copies of the mask (CR LF, blank lines, sysctl's form, UTF-16).
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

/* a saved copy of the mask, as other tools write it */
#define SAVED(s) s, sizeof(s) - 1

static void test_saved_good(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		uint64_t mask;
	} good[] = {
		{ SAVED("4609"), 4609 },
		{ SAVED("4609\n"), 4609 },
		{ SAVED("4609\r\n"), 4609 },
		{ SAVED("4609\n\n"), 4609 },
		{ SAVED("\n\n 4609 \r\n\r\n  \n"), 4609 },
		{ SAVED("0x1201\r\n"), 4609 },
		{ SAVED("01201\n"), 641 },
		{ SAVED("kernel.tainted = 4609\n"), 4609 },
		{ SAVED("kernel.tainted=4609"), 4609 },
		{ SAVED("kernel/tainted\t=\t4609\r\n\r\n"), 4609 },
		{ SAVED("kernel.tainted = 18446744073709551615\n"), UINT64_MAX },
		/* UTF-8 with a byte order mark */
		{ SAVED("\xef\xbb\xbf" "4609\r\n"), 4609 },
		/* UTF-16LE and BE, with a byte order mark and without */
		{ SAVED("\xff\xfe" "4\0" "6\0" "0\0" "9\0" "\r\0\n\0"), 4609 },
		{ SAVED("\xfe\xff" "\0" "4\0" "6\0" "0\0" "9\0\r\0\n"), 4609 },
		{ SAVED("4\0" "6\0" "0\0" "9\0" "\n\0"), 4609 },
		{ SAVED("\0" "4\0" "6\0" "0\0" "9"), 4609 },
		{ SAVED("\xff\xfe" "k\0e\0r\0n\0e\0l\0.\0t\0a\0i\0n\0t\0e\0d\0"
			" \0=\0 \0" "5\0" "1\0" "2\0" "\r\0\n\0"), 512 },
		{ SAVED("7\0"), 7 },
	};
	uint64_t m;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		m = 77;
		assert_int_equal(taint_parse_saved_mask(good[i].text,
							good[i].len, &m), 0);
		assert_true(m == good[i].mask);
	}
}

static void test_saved_bad(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		int ret;
	} bad[] = {
		{ SAVED(""), -EINVAL },
		{ SAVED("\r\n\n"), -EINVAL },
		{ SAVED("4609\n512\n"), -EINVAL },
		{ SAVED("4609 512"), -EINVAL },
		{ SAVED("4609\0"), -EINVAL },
		{ SAVED("DONE\n"), -EINVAL },
		{ SAVED("-1\r\n"), -EINVAL },
		{ SAVED("08\n"), -EINVAL },
		{ SAVED("kernel.tainted\n"), -EINVAL },
		{ SAVED("kernel.tainted = \n"), -EINVAL },
		{ SAVED("kernel.tainted 4609\n"), -EINVAL },
		{ SAVED("kernel.taint_log = 4609\n"), -EINVAL },
		{ SAVED("kernel.tainted = 4609\nkernel.tainted = 4609\n"), -EINVAL },
		{ SAVED("[    1.0] CPU: 0 Tainted: G W\n"), -EINVAL },
		/* UTF-32 is not read: not one number */
		{ SAVED("\xff\xfe\0\0" "4\0\0\0"), -EINVAL },
		/* a NUL code unit in UTF-16 */
		{ SAVED("\xff\xfe" "4\0\0\0"), -EINVAL },
		{ SAVED("kernel.tainted = 18446744073709551616\n"), -ERANGE },
	};
	char big[4096];
	uint64_t m = 77;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(taint_parse_saved_mask(bad[i].text, bad[i].len,
							&m), bad[i].ret);
		assert_true(m == 77);
	}
	/* a long value is none, whatever its blanks */
	memset(big, ' ', sizeof(big));
	memcpy(big + 100, "kernel.tainted = ", 17);
	memset(big + 117, '0', 200);
	assert_int_equal(taint_parse_saved_mask(big, sizeof(big), &m), -EINVAL);
	assert_true(m == 77);
	/* blanks are blanks, however many */
	memset(big, ' ', sizeof(big));
	memcpy(big + sizeof(big) - 5, "4609\n", 5);
	assert_int_equal(taint_parse_saved_mask(big, sizeof(big), &m), 0);
	assert_true(m == 4609);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_saved_good),
		cmocka_unit_test(test_saved_bad),
	};

	return cmocka_run_group_tests_name("value", tests, NULL, NULL);
}
