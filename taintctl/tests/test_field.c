// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_field.c - decoding the "Tainted:" field in both printed forms.
 * Expected masks are computed by hand from the kernel's bit numbers.
 */
#include <errno.h>

#include "test_util.h"

#define BIT(n) (UINT64_C(1) << (n))

static void test_not_tainted(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	parse_str("Not tainted 6.1.0 #1", &f);
	assert_int_equal(f.format, TAINT_FORMAT_NOT_TAINTED);
	assert_false(f.tainted);
	assert_true(f.mask == 0);
	assert_string_equal(f.text, "Not tainted");
	assert_int_equal(f.consumed, 11);
}

static void test_fixed_canonical(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	parse_str("Tainted: P        W  O      4.20.0-0.rc6.fc30 #1", &f);
	assert_int_equal(f.format, TAINT_FORMAT_FIXED);
	assert_true(f.tainted);
	assert_true(f.positional);
	assert_true(f.mask == (BIT(0) | BIT(9) | BIT(12)));
	assert_string_equal(f.text, "Tainted: P        W  O");
	assert_int_equal(f.consumed, strlen("Tainted: P        W  O"));

	parse_str("Tainted: G    BU 3.18", &f);
	assert_true(f.positional);
	assert_true(f.mask == (BIT(5) | BIT(6)));

	/* every mainline position, J included */
	parse_str("Tainted: PFSRMBUDAWCIOELKXTNJ", &f);
	assert_true(f.positional);
	assert_true(f.mask == TAINT_KNOWN_MASK);
	assert_string_equal(f.unknown_letters, "");
}

/*
 * Every known letter at every known column: a letter at its own column
 * is decoded by position, any other letter anywhere makes the field
 * non-positional and is decoded as itself.  The letters, in bit order,
 * are the kernel's taint_flags[] (kernel/panic.c), written out here.
 */
static void test_fixed_every_column(void **state)
{
	static const char letters[] = "PFSRMBUDAWCIOELKXTNJ";
	struct taint_field f = TAINT_INIT(struct taint_field);
	char line[80];

	(void)state;
	assert_int_equal(strlen(letters), 20);
	for (unsigned int col = 0; col < 20; col++) {
		for (unsigned int bit = 0; bit < 20; bit++) {
			memcpy(line, "Tainted: ", 9);
			memset(line + 9, ' ', 20);
			line[9 + col] = letters[bit];
			strcpy(line + 29, " 6.12.0 #1");
			parse_str(line, &f);
			if (f.mask != BIT(bit) || f.positional != (col == bit))
				fail_msg("'%s': mask 0x%llx positional %d, want 0x%llx (%c) positional %d",
					 line, (unsigned long long)f.mask,
					 f.positional, (unsigned long long)BIT(bit),
					 letters[bit], col == bit);
			assert_string_equal(f.unknown_letters, "");
		}
	}
}

static void test_fixed_end_of_field(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	/* SLUB header: closed by ')' after blanks, or glued */
	parse_str("Tainted: G    B         ): Object already free", &f);
	assert_true(f.mask == BIT(5));
	assert_string_equal(f.text, "Tainted: G    B");
	parse_str("Tainted: G    B): x", &f);
	assert_true(f.mask == BIT(5));
	assert_string_equal(f.text, "Tainted: G    B");
	/* release without digits, lower case */
	parse_str("Tainted: G             L     syzkaller #0", &f);
	assert_true(f.mask == BIT(14));
	/* end of line, CRLF */
	parse_str("Tainted: G        W\r\nnext line X", &f);
	assert_true(f.mask == BIT(9));
	assert_string_equal(f.text, "Tainted: G        W");
	/* the field does not continue on the next line */
	parse_str("Tainted: P\n      O        6.17.4-2-pve #1", &f);
	assert_true(f.mask == BIT(0));
	/* placeholder release after the field */
	parse_str("Tainted: G        W <KERNEL_VERSION> #1", &f);
	assert_true(f.mask == BIT(9));
	/* REGS line: "(release)" ends the field */
	parse_str("Tainted: G W -------------- (3.10.0-33.el7.ppc64)", &f);
	assert_true(f.mask == BIT(9));
	assert_string_equal(f.text, "Tainted: G W --------------");
}

static void test_fixed_vendor(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	/* RHEL 9: '-' reserved positions contribute nothing */
	parse_str("Tainted: G        W  OE    --------  ---  5.14.0-284.11.1.el9_2.x86_64 #1",
		  &f);
	assert_true(f.positional);
	assert_true(f.mask == (BIT(9) | BIT(12) | BIT(13)));
	assert_string_equal(f.text,
			    "Tainted: G        W  OE    --------  ---");
	/* RHEL 7: dashes glued to the last flag */
	parse_str("Tainted: GF          O--------------   3.10.0-54.0.1.el7.s390x #1",
		  &f);
	assert_true(f.positional);
	assert_true(f.mask == (BIT(1) | BIT(12)));
	/* a letter at position 20 and 31: unknown vendor/future bits */
	/* "G", W at 9, Z at 20, Y at 31 */
	parse_str("Tainted: G        W          Z          Y 6.1", &f);
	assert_true(f.positional);
	assert_true(f.mask == (BIT(9) | BIT(20) | BIT(31)));
	assert_true(taint_unknown_bits(f.mask) == (BIT(20) | BIT(31)));
	assert_string_equal(f.unknown_letters, "");
}

static void test_fixed_squeezed(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	/* whitespace collapsed: decoded letter by letter */
	parse_str("Tainted: G O  K    6.13.0-rc4", &f);
	assert_false(f.positional);
	assert_true(f.mask == (BIT(12) | BIT(15)));
	parse_str("Tainted: G W -------------- 3.10.0-33.el7.ppc64 #1", &f);
	assert_false(f.positional);
	assert_true(f.mask == BIT(9));
	/* synthetic: unknown letters are listed, known ones decoded */
	parse_str("Tainted: ABCDEFGHIJKLMNOPQRSTUVWXYZ 3.1.0", &f);
	assert_false(f.positional);
	assert_true(f.mask == TAINT_KNOWN_MASK);
	assert_string_equal(f.unknown_letters, "HQVYZ");
}

static void test_fixed_empty(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	parse_str("Tainted: 4.14.87-rt49-02410-g4a640ec-dirty #1", &f);
	assert_true(f.tainted);
	assert_true(f.mask == 0);
	assert_string_equal(f.text, "Tainted:");
	parse_str("Tainted:              3.1.0 #1", &f);
	assert_true(f.tainted);
	assert_true(f.mask == 0);
	assert_string_equal(f.text, "Tainted:");
	parse_str("Tainted:", &f);
	assert_true(f.tainted);
	assert_string_equal(f.text, "Tainted:");
	parse_str("Tainted: G            3.1.0", &f);
	assert_true(f.mask == 0);
	assert_string_equal(f.text, "Tainted: G");
}

static void test_verbose(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	parse_str("Tainted: [P]=PROPRIETARY_MODULE, [B]=BAD_PAGE, [W]=WARN, [O]=OOT_MODULE, [E]=UNSIGNED_MODULE",
		  &f);
	assert_int_equal(f.format, TAINT_FORMAT_VERBOSE);
	assert_true(f.mask == (BIT(0) | BIT(5) | BIT(9) | BIT(12) | BIT(13)));
	assert_int_equal(f.lines, 1);
	parse_str("Tainted: [L]=SOFTLOCKUP\n[  1.0] next", &f);
	assert_true(f.mask == BIT(14));
	assert_string_equal(f.text, "Tainted: [L]=SOFTLOCKUP");
	parse_str("Tainted: [J]=FWCTL", &f);
	assert_true(f.mask == BIT(19));
	/* unknown letter in a verbose entry */
	parse_str("Tainted: [W]=WARN, [Z]=VENDOR_THING", &f);
	assert_true(f.mask == BIT(9));
	assert_string_equal(f.unknown_letters, "Z");
	/* a list that ends in "," does not swallow the next line's text */
	parse_str("Tainted: [W]=WARN,\nHardware name: QEMU", &f);
	assert_true(f.mask == BIT(9));
	assert_int_equal(f.lines, 1);
}

static void test_verbose_wrapped(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	const char *s =
		"Tainted: [P]=PROPRIETARY_MODULE, [O]=OOT_MODULE,\n"
		"   [E]=UNSIGNED_MODULE\n"
		"Hardware name: x";

	(void)state;
	parse_str(s, &f);
	assert_int_equal(f.format, TAINT_FORMAT_VERBOSE);
	assert_true(f.mask == (BIT(0) | BIT(12) | BIT(13)));
	assert_int_equal(f.lines, 2);
	assert_string_equal(f.text,
		"Tainted: [P]=PROPRIETARY_MODULE, [O]=OOT_MODULE, [E]=UNSIGNED_MODULE");
	assert_int_equal(f.consumed, strstr(s, "\nHardware") - s);

	parse_str("Tainted: [U]=USER,\r\n> [W]=WARN, [N]=TEST\r\n", &f);
	assert_true(f.mask == (BIT(6) | BIT(9) | BIT(18)));
	assert_int_equal(f.lines, 2);
}

/*
 * A verbose list ending in ',' continues only on a line that is nothing but
 * a quote prefix and more entries: never into the next report line (its
 * own marker) nor into a new printk record (timestamp or <level> prefix).
 */
static void test_verbose_continuation_stops(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	const char *s =
		"Tainted: [W]=WARN,\n"
		"CPU: 1 Comm: b Tainted: [D]=DIE, [O]=OOT_MODULE 6.12 #1\n";

	(void)state;
	parse_str(s, &f);
	assert_true(f.mask == BIT(9));
	assert_int_equal(f.lines, 1);
	assert_string_equal(f.text, "Tainted: [W]=WARN");
	/* a new printk record, with a timestamp or a level */
	parse_str("Tainted: [W]=WARN,\n[    1.000000] [O]=OOT_MODULE\n", &f);
	assert_true(f.mask == BIT(9));
	assert_int_equal(f.lines, 1);
	parse_str("Tainted: [W]=WARN,\n<4>[O]=OOT_MODULE\n", &f);
	assert_true(f.mask == BIT(9));
	/* text before the entry that is not a quote prefix */
	parse_str("Tainted: [W]=WARN,\nHardware name: [O]=OOT_MODULE\n", &f);
	assert_true(f.mask == BIT(9));
	/* a "Not tainted" report on the next line */
	parse_str("Tainted: [W]=WARN,\nCPU: 1 Not tainted [O]=OOT_MODULE\n", &f);
	assert_true(f.mask == BIT(9));
	/* mail quoting, blanks and NBSP are a prefix: the list goes on */
	parse_str("Tainted: [W]=WARN,\n>> \xc2\xa0[O]=OOT_MODULE\n", &f);
	assert_true(f.mask == (BIT(9) | BIT(12)));
	assert_int_equal(f.lines, 2);
	assert_string_equal(f.text, "Tainted: [W]=WARN, [O]=OOT_MODULE");
}

/* Letters a newer kernel prints are unknown letters, with their names. */
static void test_verbose_unknown_names(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	parse_str("Tainted: [W]=WARN, [V]=UNSAFE_BPF", &f);
	assert_true(f.mask == BIT(9));
	assert_string_equal(f.unknown_letters, "V");
	assert_string_equal(f.unknown_names[0], "UNSAFE_BPF");
	assert_false(f.mask_known);
	parse_str("Tainted: [V]=UNSAFE_BPF, [Z]=VENDOR_THING, [O]=OOT_MODULE", &f);
	assert_true(f.mask == BIT(12));
	assert_string_equal(f.unknown_letters, "VZ");
	assert_string_equal(f.unknown_names[0], "UNSAFE_BPF");
	assert_string_equal(f.unknown_names[1], "VENDOR_THING");
	/* the fixed form has no names */
	parse_str("Tainted: G W V", &f);
	assert_true(f.mask == BIT(9));
	assert_string_equal(f.unknown_letters, "V");
	assert_string_equal(f.unknown_names[0], "");
	/* is the mask complete?  not for unknown letters or hidden flags */
	parse_str("Tainted: G        W  O      6.1", &f);
	assert_true(f.mask_known);
	parse_str("Not tainted", &f);
	assert_true(f.mask_known);
	parse_str("Tainted: G          3.1", &f);
	assert_false(f.mask_known);
	parse_str("Tainted: G W -------------- 3.10", &f);
	assert_true(f.mask_known);
}

/*
 * Prose is not a field.  The kernel prints "Tainted: " and one position
 * per flag (' ' or the letter, 'G'/'P' first; at least 3 positions since
 * 2.6.0), then a blank and the release: a word that follows the field
 * after fewer than 4 columns is not a release unless it looks like one.
 */
static void test_prose(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	const char *s;

	(void)state;
	s = "Tainted: I didn't know";
	assert_int_equal(taint_parse_field(s, strlen(s), &f), -EINVAL);
	assert_int_equal(taint_find_field(s, strlen(s), &f), -1);
	s = "The report said Tainted: P but the log was cut";
	assert_int_equal(taint_find_field(s, strlen(s), &f), -1);
	s = "Tainted: yes";
	assert_int_equal(taint_parse_field(s, strlen(s), &f), -EINVAL);
	s = "Tainted: G, W and O were set";
	assert_int_equal(taint_parse_field(s, strlen(s), &f), -EINVAL);
	/* a later real field on the same text is still found */
	s = "Tainted: yes, see CPU: 0 PID: 1 Comm: a Tainted: P 4.20.0";
	assert_int_equal(taint_find_field(s, strlen(s), &f),
			 strstr(s, "Tainted: P") - s);
	assert_true(f.mask == BIT(0));
	/* real fields: release right after the flags (squeezed/missing) */
	parse_str("Tainted: 4.14.87-rt49-02410-g4a640ec-dirty #1", &f);
	assert_true(f.tainted);
	parse_str("Tainted: P 4.20.0", &f);
	assert_true(f.mask == BIT(0));
	/* ...a word after the field's width, the end of the line */
	parse_str("Tainted: P   x", &f);
	assert_true(f.mask == BIT(0));
	/* but a word at column 3, within the narrowest field a kernel
	 * printed (3 positions), is prose */
	s = "Tainted: P  x";
	assert_int_equal(taint_parse_field(s, strlen(s), &f), -EINVAL);
	s = "Tainted: PF x";
	assert_int_equal(taint_parse_field(s, strlen(s), &f), -EINVAL);
	parse_str("Tainted: P\n      O        6.17.4-2-pve #1", &f);
	assert_true(f.mask == BIT(0));
	parse_str("Tainted: G    B): x", &f);
	assert_true(f.mask == BIT(5));
}

/* Non-breaking spaces (UTF-8 C2 A0, or a Latin-1 A0 byte) are blanks. */
static void test_nbsp(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	const char *s;

	(void)state;
	s = "CPU: 0 PID: 1 Comm: insmod Tainted:\xc2\xa0P\xc2\xa0\xc2\xa0"
	    "\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0W\xc2\xa0\xc2\xa0O"
	    "\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0" "4.20.0 #1";
	assert_int_equal(taint_find_field(s, strlen(s), &f),
			 strstr(s, "Tainted") - s);
	assert_true(f.positional);
	assert_true(f.mask == 4609);
	assert_string_equal(f.text, "Tainted:\xc2\xa0P\xc2\xa0\xc2\xa0\xc2\xa0"
			    "\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0\xc2\xa0W\xc2\xa0"
			    "\xc2\xa0O");
	/* mixed with ASCII blanks, as format=flowed mail does */
	parse_str("Tainted: G \xc2\xa0 \xc2\xa0" "B \xc2\xa0 \xc2\xa0 6.1", &f);
	assert_true(f.positional);
	assert_true(f.mask == BIT(5));
	/* Latin-1 */
	parse_str("Tainted:\xa0G\xa0\xa0\xa0\xa0" "B\xa0\xa0" "6.1", &f);
	assert_true(f.mask == BIT(5));
	/* in the verbose list */
	parse_str("Tainted:\xc2\xa0[W]=WARN,\xc2\xa0[O]=OOT_MODULE", &f);
	assert_true(f.mask == (BIT(9) | BIT(12)));
	/* "Not\xa0tainted" */
	s = "CPU: 0 PID: 1 Comm: a Not\xc2\xa0tainted 6.1";
	assert_true(taint_find_field(s, strlen(s), &f) >= 0);
	assert_false(f.tainted);
}

/* journalctl -o json: the field may end the MESSAGE string. */
static void test_journal_json(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	const char *s;

	(void)state;
	s = "{\"MESSAGE\":\"CPU: 0 PID: 1 Comm: sh Tainted: G        W\","
	    "\"PRIORITY\":\"4\"}";
	assert_true(taint_find_field(s, strlen(s), &f) > 0);
	assert_true(f.mask == BIT(9));
	assert_string_equal(f.text, "Tainted: G        W");
	s = "{\"MESSAGE\":\"Tainted: [W]=WARN, [O]=OOT_MODULE\",\"_PID\":\"1\"}";
	assert_true(taint_find_field(s, strlen(s), &f) > 0);
	assert_true(f.mask == (BIT(9) | BIT(12)));
}

static void test_not_a_marker(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);

	(void)state;
	assert_int_equal(taint_parse_field("tainted: P", 10, &f), -EINVAL);
	assert_int_equal(taint_parse_field("Tainted", 7, &f), -EINVAL);
	assert_int_equal(taint_parse_field("", 0, &f), -EINVAL);
	assert_int_equal(taint_parse_field("Not taint", 9, &f), -EINVAL);
}

static void test_find_field(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	const char *s;

	(void)state;
	s = "CPU: 0 PID: 4424 Comm: insmod Tainted: P        W  O      4.20.0";
	assert_int_equal(taint_find_field(s, strlen(s), &f),
			 strstr(s, "Tainted") - s);
	assert_true(f.mask == 4609);
	/* module letters are not the kernel's taint */
	s = "Modules linked in: zfs(PO) spl(O) nvidia(POE)";
	assert_int_equal(taint_find_field(s, strlen(s), &f), -1);
	/* glued to a word, or quoted as prose: not a report field */
	s = "UnTainted: P xNot tainted Not taintedness";
	assert_int_equal(taint_find_field(s, strlen(s), &f), -1);
	s = "print 'Tainted: ' and 'Not tainted: ' or \"Tainted: P\"";
	assert_int_equal(taint_find_field(s, strlen(s), &f), -1);
	/* ...but brackets and parentheses are fine */
	s = "BUG kmalloc-64 (Not tainted): Poison";
	assert_int_equal(taint_find_field(s, strlen(s), &f),
			 strstr(s, "Not") - s);
	assert_false(f.tainted);
	s = "x\0y Tainted: G    B\0";
	assert_int_equal(taint_find_field(s, 19, &f), 4);
	assert_true(f.mask == BIT(5));
	s = "ainted: ainted Tainted";
	assert_int_equal(taint_find_field(s, strlen(s), &f), -1);
	s = "Not tainted";
	assert_int_equal(taint_find_field(s, strlen(s), &f), 0);
}

static void test_parse_body(void **state)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	size_t bad = 99;

	(void)state;
	assert_int_equal(taint_parse_body("PWO", 3, &f, &bad), 0);
	assert_true(f.mask == 4609);
	assert_true(f.tainted);
	assert_int_equal(taint_parse_body("P        W  O", 13, &f, &bad), 0);
	assert_true(f.positional);
	assert_true(f.mask == 4609);
	assert_int_equal(taint_parse_body(" G W ", 5, &f, &bad), 0);
	assert_true(f.mask == BIT(9));
	assert_int_equal(taint_parse_body("G", 1, &f, &bad), 0);
	assert_true(f.mask == 0);
	assert_false(f.tainted);
	assert_int_equal(taint_parse_body("[U]=USER, [W]=WARN", 18, &f, &bad),
			 0);
	assert_true(f.mask == 576);
	assert_int_equal(taint_parse_body("PQ", 2, &f, &bad), 0);
	assert_string_equal(f.unknown_letters, "Q");
	assert_int_equal(taint_parse_body("PW0", 3, &f, &bad), -EINVAL);
	assert_int_equal(bad, 2);
	assert_int_equal(taint_parse_body("pwo", 3, &f, &bad), -EINVAL);
	assert_int_equal(bad, 0);
	assert_int_equal(taint_parse_body("[U]=USER x", 10, &f, &bad),
			 -EINVAL);
	assert_int_equal(bad, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_tainted),
		cmocka_unit_test(test_fixed_canonical),
		cmocka_unit_test(test_fixed_every_column),
		cmocka_unit_test(test_fixed_end_of_field),
		cmocka_unit_test(test_fixed_vendor),
		cmocka_unit_test(test_fixed_squeezed),
		cmocka_unit_test(test_fixed_empty),
		cmocka_unit_test(test_verbose),
		cmocka_unit_test(test_verbose_wrapped),
		cmocka_unit_test(test_verbose_continuation_stops),
		cmocka_unit_test(test_verbose_unknown_names),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_nbsp),
		cmocka_unit_test(test_journal_json),
		cmocka_unit_test(test_not_a_marker),
		cmocka_unit_test(test_find_field),
		cmocka_unit_test(test_parse_body),
	};

	return cmocka_run_group_tests_name("field", tests, NULL, NULL);
}
