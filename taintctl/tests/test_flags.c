// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_flags.c - the flag table against the kernel's letters and names.
 *
 * Expected values are the kernel's (include/linux/panic.h, kernel/panic.c
 * taint_flags[], Documentation/admin-guide/tainted-kernels.rst), typed in
 * here independently of lib/flags.c.
 */
#include <errno.h>

#include "test_util.h"

/* Letters in bit order, bits 0..19 (tainted-kernels.rst, mainline J). */
static const char kernel_letters[] = "PFSRMBUDAWCIOELKXTNJ";

static const char *const kernel_names[] = {
	"PROPRIETARY_MODULE", "FORCED_MODULE", "CPU_OUT_OF_SPEC",
	"FORCED_RMMOD", "MACHINE_CHECK", "BAD_PAGE", "USER", "DIE",
	"OVERRIDDEN_ACPI_TABLE", "WARN", "CRAP", "FIRMWARE_WORKAROUND",
	"OOT_MODULE", "UNSIGNED_MODULE", "SOFTLOCKUP", "LIVEPATCH", "AUX",
	"RANDSTRUCT", "TEST", "FWCTL",
};

static void test_letters_and_names(void **state)
{
	(void)state;
	assert_int_equal(strlen(kernel_letters), TAINT_KNOWN_FLAGS);
	for (unsigned int bit = 0; bit < TAINT_KNOWN_FLAGS; bit++) {
		const struct taint_flag_info *fi = taint_flag_info(bit);

		assert_non_null(fi);
		assert_int_equal(fi->bit, bit);
		assert_int_equal(fi->letter, kernel_letters[bit]);
		assert_string_equal(fi->name, kernel_names[bit]);
		assert_non_null(fi->description);
		assert_true(strlen(fi->description) > 10);
		assert_ptr_equal(taint_flag_by_letter(kernel_letters[bit]), fi);
	}
}

static void test_fwctl(void **state)
{
	const struct taint_flag_info *fi = taint_flag_info(19);

	(void)state;
	assert_int_equal(fi->letter, 'J');
	assert_string_equal(fi->name, "FWCTL");
	assert_string_equal(fi->description,
			    "userspace used a mutating debug operation in fwctl");
}

static void test_unknown(void **state)
{
	(void)state;
	for (unsigned int bit = TAINT_KNOWN_FLAGS; bit < 70; bit++)
		assert_null(taint_flag_info(bit));
	assert_null(taint_flag_by_letter('G'));
	assert_null(taint_flag_by_letter('Q'));
	assert_null(taint_flag_by_letter('p'));
	assert_null(taint_flag_by_letter('\0'));
	assert_true(taint_unknown_bits(UINT64_C(1) << 20) ==
		    (UINT64_C(1) << 20));
	assert_true(taint_unknown_bits(UINT64_C(1) << 63) ==
		    (UINT64_C(1) << 63));
	assert_true(taint_unknown_bits(0xfffff) == 0);
}

static void test_mask_letters(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(taint_mask_letters(4609, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "PWO");
	assert_int_equal(taint_mask_letters(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	taint_mask_letters(UINT64_MAX, buf, sizeof(buf));
	assert_string_equal(buf, kernel_letters);
	/* truncation keeps the string terminated */
	assert_int_equal(taint_mask_letters(4609, buf, 3), 2);
	assert_string_equal(buf, "PW");
	assert_int_equal(taint_mask_letters(4609, buf, 0), 0);
}

static void test_letters_to_mask(void **state)
{
	uint64_t m = 1234;
	char bad = 0;

	(void)state;
	assert_int_equal(taint_letters_to_mask("UW", &m, &bad), 0);
	assert_int_equal(m, 576);
	assert_int_equal(taint_letters_to_mask("GWU", &m, &bad), 0);
	assert_int_equal(m, 576);
	assert_int_equal(taint_letters_to_mask("", &m, &bad), 0);
	assert_int_equal(m, 0);
	assert_int_equal(taint_letters_to_mask("PQ", &m, &bad), -EINVAL);
	assert_int_equal(bad, 'Q');
	assert_int_equal(taint_letters_to_mask("w", &m, &bad), -EINVAL);
	assert_int_equal(bad, 'w');
	assert_int_equal(taint_letters_to_mask(" ", &m, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_letters_and_names),
		cmocka_unit_test(test_fwctl),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_mask_letters),
		cmocka_unit_test(test_letters_to_mask),
	};

	return cmocka_run_group_tests_name("flags", tests, NULL, NULL);
}
