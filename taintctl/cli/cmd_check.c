// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - `taintctl check [--allow LETTERS|--deny LETTERS]`.
 *
 *   no option      any taint is disallowed
 *   --allow PWO    only these flags may be set (unknown bits are disallowed)
 *   --deny DU      these flags must not be set (unknown bits are allowed)
 * Exit 0 if nothing disallowed is set, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

static int parse_set(const char *opt_name, const char *letters, uint64_t *set)
{
	char bad = 0;

	if (taint_letters_to_mask(letters, set, &bad)) {
		if ((unsigned char)bad < 0x20 || (unsigned char)bad > 0x7e)
			cli_error("unknown taint letter 0x%02x in '%s %s'",
				  (unsigned char)bad, opt_name,
				  cli_quote(letters));
		else
			cli_error("unknown taint letter '%c' in '%s %s'", bad,
				  opt_name, cli_quote(letters));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_check(const struct options *opt)
{
	uint64_t mask, set = 0, bad;
	char letters[TAINT_KNOWN_FLAGS + 1];
	int rc;

	if (opt->argc) {
		cli_error("check takes no operand ('%s')",
			  cli_quote(opt->argv[0]));
		return EXIT_USAGE;
	}
	if (opt->allow && opt->deny) {
		cli_error("--allow and --deny are mutually exclusive");
		return EXIT_USAGE;
	}
	if (opt->allow && (rc = parse_set("--allow", opt->allow, &set)))
		return rc;
	if (opt->deny && (rc = parse_set("--deny", opt->deny, &set)))
		return rc;
	rc = read_kernel_mask(opt, &mask);
	if (rc)
		return rc;

	if (opt->allow)
		bad = mask & ~set;
	else if (opt->deny)
		bad = mask & set;
	else
		bad = mask;

	if (opt->json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "mask", json_object_new_uint64(mask));
		json_object_object_add(o, "ok", json_object_new_boolean(!bad));
		json_object_object_add(o, "disallowed", json_flag_array(bad));
		json_object_object_add(o, "disallowed_unknown_bits",
				       json_unknown_bits(bad));
		json_print(o);
		json_object_put(o);
	} else if (bad) {
		taint_mask_letters(bad, letters, sizeof(letters));
		printf("FAIL: disallowed taint set (mask %" PRIu64 "):\n", mask);
		for (unsigned int bit = 0; bit < 64; bit++)
			if (bad & (UINT64_C(1) << bit))
				text_print_flag_line(bit);
	} else {
		taint_mask_letters(mask, letters, sizeof(letters));
		printf("ok: no disallowed taint (mask %" PRIu64 "%s%s)\n", mask,
		       letters[0] ? ", " : "", letters);
	}
	return bad ? EXIT_CHECK : EXIT_OK;
}
