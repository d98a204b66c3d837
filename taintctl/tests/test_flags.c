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

static unsigned int bit_named(const char *name, size_t len)
{
	const struct taint_flag_info *fi = taint_flag_by_name(name, len);

	assert_non_null(fi);
	return fi->bit;
}

static void test_flag_by_name(void **state)
{
	(void)state;
	assert_int_equal(bit_named("PROPRIETARY_MODULE", 18), 0);
	assert_int_equal(bit_named("fwctl", 5), 19);
	assert_int_equal(bit_named("TAINT_WARN", 10), 9);
	assert_int_equal(bit_named("WARNING", 4), 9);
	assert_null(taint_flag_by_name("WARNING", 7));
	assert_null(taint_flag_by_name("WAR", 3));
	assert_null(taint_flag_by_name("TAINT_", 6));
	assert_null(taint_flag_by_name("", 0));
	assert_null(taint_flag_by_name("P", 1));
}

static void test_flags_to_mask(void **state)
{
	uint64_t m = 1234;
	size_t at = 99, len = 99;

	(void)state;
	assert_int_equal(taint_flags_to_mask("PROPRIETARY_MODULE", &m, &at,
					     &len), 0);
	assert_int_equal(m, 1);
	assert_int_equal(taint_flags_to_mask("PO", &m, NULL, NULL), 0);
	assert_int_equal(m, 4097);
	/* names, letters, commas and blanks mixed; a name wins over letters */
	assert_int_equal(taint_flags_to_mask(" oot_module,W  DIE,G", &m, NULL,
					     NULL), 0);
	assert_int_equal(m, (1 << 12) | (1 << 9) | (1 << 7));
	assert_int_equal(taint_flags_to_mask("USER", &m, NULL, NULL), 0);
	assert_int_equal(m, 64);
	assert_int_equal(taint_flags_to_mask("", &m, NULL, NULL), 0);
	assert_int_equal(m, 0);
	assert_int_equal(taint_flags_to_mask(",", &m, NULL, NULL), 0);
	assert_int_equal(m, 0);
	m = 1234;
	assert_int_equal(taint_flags_to_mask("W,PROPRIETARY,U", &m, &at, &len),
			 -EINVAL);
	assert_int_equal(at, 2);
	assert_int_equal(len, 11);
	assert_int_equal(taint_flags_to_mask("UQ", &m, &at, &len), -EINVAL);
	assert_int_equal(at, 0);
	assert_int_equal(len, 2);
	assert_int_equal(m, 1234);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_letters_and_names),
		cmocka_unit_test(test_fwctl),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_mask_letters),
		cmocka_unit_test(test_letters_to_mask),
		cmocka_unit_test(test_flag_by_name),
		cmocka_unit_test(test_flags_to_mask),
	};

	return cmocka_run_group_tests_name("flags", tests, NULL, NULL);
}
