// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_decode.c - `taintctl decode VALUE|TEXT`.
 *
 * VALUE is a decimal or 0x hexadecimal mask.  TEXT is a report line (or
 * several) containing a "Tainted:"/"Not tainted" field in either printed
 * form, or just the field's letters ("P        W  O", "PWO") or verbose list
 * ("[U]=USER, [W]=WARN").  Operands are joined with blanks, so the field
 * need not be quoted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * @f: the decoded field, or NULL for a number.  Letters this version does
 * not know (a newer kernel's, a vendor's) are shown as unknown letters,
 * with the name the verbose form printed: never an error.
 */
static int output(const struct options *opt, uint64_t mask, bool tainted,
		  const struct taint_field *f)
{
	static const struct taint_field none;

	if (!f)
		f = &none;
	if (opt->json) {
		struct json_object *o = json_mask_object(mask, tainted);

		json_object_object_add(o, "unknown_letters",
				       json_unknown_letters(f));
		json_print(o);
		json_object_put(o);
	} else if (f->unknown_letters[0]) {
		char letters[TAINT_KNOWN_FLAGS + 1];

		taint_mask_letters(mask, letters, sizeof(letters));
		printf("Tainted: %s", letters[0] ? letters : "-");
		text_unknown_letters(f);
		printf(" (mask of the known flags %" PRIu64 ", 0x%" PRIx64 ")\n",
		       mask, mask);
		for (unsigned int bit = 0; bit < 64; bit++)
			if (mask & (UINT64_C(1) << bit))
				text_print_flag_line(bit);
		text_unknown_letter_lines(f);
	} else {
		text_print_mask(mask, tainted);
	}
	return EXIT_OK;
}

static int decode_number(const struct options *opt, const char *arg)
{
	uint64_t mask;
	int ret = taint_parse_value(arg, &mask);

	if (ret == -ERANGE) {
		cli_error("taint value out of range (more than 64 bits): '%s'",
			  cli_quote(arg));
		return EXIT_USAGE;
	}
	if (ret) {
		cli_error("invalid taint value: '%s'", cli_quote(arg));
		return EXIT_USAGE;
	}
	return output(opt, mask, mask != 0, NULL);
}

static int decode_text(const struct options *opt, const char *arg)
{
	struct taint_field f;
	size_t len = strlen(arg), bad = 0;

	if (taint_find_field(arg, len, &f) < 0 &&
	    taint_parse_body(arg, len, &f, &bad)) {
		if (strstr(arg, "Tainted:")) {
			cli_error("cannot decode '%s': 'Tainted:' is followed by prose, not a kernel's taint field",
				  cli_quote(arg));
			return EXIT_USAGE;
		}
		cli_error("cannot decode '%s': not a number, a Tainted: field or flag letters (at offset %zu)",
			  cli_quote(arg), bad);
		return EXIT_USAGE;
	}
	return output(opt, f.mask, f.tainted, &f);
}

int cmd_decode(const struct options *opt)
{
	const char *p;
	char *arg;
	int rc;

	if (!opt->argc) {
		cli_error("decode needs a VALUE or TEXT operand");
		return EXIT_USAGE;
	}
	arg = cli_join(opt->argc, opt->argv);
	if (!arg) {
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (p = arg; *p == ' ' || *p == '\t' || *p == '\n'; p++)
		;
	if (!*p) {
		cli_error("cannot decode '%s': empty", cli_quote(arg));
		rc = EXIT_USAGE;
	} else if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+')
		rc = decode_number(opt, arg);
	else
		rc = decode_text(opt, arg);
	free(arg);
	return rc;
}
