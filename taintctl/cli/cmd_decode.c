// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_decode.c - `taintctl decode [VALUE|TEXT...|-]`.
 *
 * Operands are joined with blanks, so a field need not be quoted; without
 * an operand, or with "-", standard input is read.  What is decoded and how
 * is input.c's: every Tainted: field in the text, else numbers (as the
 * kernel reads them) or field letters, line by line, if each line is a
 * value (else exit 6, EXIT_NOFIELD: a dmesg's words are not values).  One
 * result per value.
 * Letters this version does not know are shown as unknown letters (text,
 * and "unknown_letters" in JSON), never an error.
 *
 * Output: one result is printed as before (text block, or one JSON object);
 * several are printed one after the other, in text each after an "Input:"
 * line and a blank line between them, in JSON as JSON Lines, one object per
 * value, each with "input" (and "line" for standard input) added.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/*
 * One value in text.  Letters this version does not know (a newer
 * kernel's, a vendor's; @f non-NULL) are shown as unknown letters, with the
 * name the verbose form printed: never an error.
 */
static void text_value(uint64_t mask, bool tainted,
		       const struct taint_field *f)
{
	char letters[TAINT_KNOWN_FLAGS + 1];

	if (!f || !f->unknown_letters[0]) {
		text_print_mask(mask, tainted);
		return;
	}
	taint_mask_letters(mask, letters, sizeof(letters));
	printf("Tainted: %s", letters[0] ? letters : "-");
	text_unknown_letters(f);
	printf(" (mask of the known flags %" PRIu64 ", 0x%" PRIx64 ")\n",
	       mask, mask);
	text_print_flag_lines(mask);
	text_unknown_letter_lines(f);
}

static void output(const struct decoded_list *l, bool from_stdin)
{
	for (size_t i = 0; i < l->count; i++) {
		const struct decoded *d = &l->v[i];

		if (cli.json) {
			json_print_decoded(d, from_stdin);
			continue;
		}
		if (l->count > 1) {
			if (i)
				putchar('\n');
			if (from_stdin)
				printf("Input (line %llu): %s\n",
				       (unsigned long long)d->line,
				       cli_quote(d->input));
			else
				printf("Input: %s\n", cli_quote(d->input));
		}
		text_value(d->mask, d->tainted, d->field);
	}
}

static int decode_run(int argc, char **argv)
{
	struct decoded_list l = { 0 };
	bool from_stdin;
	char *text;
	size_t len;
	int rc;

	if (cli_getopt(argc, argv, &cmd_decode) != -1)
		return EXIT_USAGE;
	argc -= optind;
	argv += optind;
	from_stdin = !argc ||
		     (argc == 1 && strcmp(argv[0], "-") == 0);
	if (from_stdin) {
		if (!argc && isatty(STDIN_FILENO)) {
			cli_error("decode needs a VALUE or TEXT operand, or input on standard input");
			return EXIT_USAGE;
		}
		rc = read_input("-", &text, &len);
		if (rc)
			return rc;
	} else {
		text = cli_join(argc, argv);
		if (!text) {
			cli_error("out of memory");
			return EXIT_SYSTEM;
		}
		len = strlen(text);
	}
	rc = decode_text(from_stdin ? "(standard input)" : NULL, text, len,
			 &l);
	if (rc == EXIT_OK && !l.count) {
		if (from_stdin)
			cli_error("nothing to decode: standard input is empty");
		else
			cli_error("cannot decode '%s': empty", cli_quote(text));
		rc = EXIT_USAGE;
	}
	output(&l, from_stdin);
	decoded_free(&l);
	free(text);
	return rc;
}

const struct taintctl_cmd cmd_decode = {
	.name = "decode",
	.run = decode_run,
	.shortopts = "",
	.usage =
"Usage:\n"
" taintctl [options] decode [VALUE|TEXT...|-]\n"
"\n"
"Explain taint masks and Tainted: fields.  Operands are joined with blanks;\n"
"without an operand, or with -, standard input is read.  Every Tainted: or\n"
"Not tainted field in the text is decoded; text without one is read line by\n"
"line as numbers (one result each: \"4609 512\") or flag letters (\"P  W  O\",\n"
"\"PWO\", \"[U]=USER, [W]=WARN\") if each line is a value: other text (a\n"
"dmesg without a field) is \"no Tainted: field found\", exit 6.\n"
"\n"
"Numbers are read as the kernel reads /proc/sys/kernel/tainted: 0x is\n"
"hexadecimal, a leading 0 octal (01201 is 641), no sign (-1 is refused),\n"
"at most 20 characters.  With --json, one object per value (JSON Lines).\n"
"\n"
"Options:\n",
	.json = true,
	.root = false,
	.usage_exit =
"\nExit status: 0 ok, 2 usage error or invalid input, 3 permission or system\n"
"error (write errors on standard output included), 6 no Tainted: field\n"
"found in text that is not values (nothing decoded).\n"
"\nFor more details see taintctl(1).\n",
};
