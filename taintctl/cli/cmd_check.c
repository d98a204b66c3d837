// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - `taintctl check [--allow FLAGS|--deny FLAGS]
 *                                [--value VALUE|--from FILE]`.
 *
 *   no option      any taint is disallowed
 *   --allow PWO    only these flags may be set (unknown bits are disallowed)
 *   --deny DU      these flags must not be set (unknown bits are allowed)
 * FLAGS are letters and/or flag names (taint_flags_to_mask()).
 * The mask judged is the running kernel's, or --value's, or the union of
 * every value or field in --from's file (taint only grows, so in a log
 * that is what the kernel had at its last report).
 * Exit 0 if nothing disallowed is set, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int parse_set(const char *opt_name, const char *spec, uint64_t *set)
{
	char letters[TAINT_KNOWN_FLAGS + 1], bad[8] = "?", *item;
	size_t at = 0, len = 0;

	if (!taint_flags_to_mask(spec, set, &at, &len))
		return EXIT_OK;
	taint_mask_letters(TAINT_KNOWN_MASK, letters, sizeof(letters));
	/* the first character that is not a letter, as 'Q' or 0x01 */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)spec[at + i];

		if (c == 'G' || taint_flag_by_letter((char)c))
			continue;
		if (c < 0x20 || c > 0x7e)
			snprintf(bad, sizeof(bad), "0x%02x", c);
		else
			snprintf(bad, sizeof(bad), "'%c'", c);
		break;
	}
	item = strndup(spec + at, len);
	if (!item) {
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	/* cli_quote() has one buffer: quote the item first, then the spec */
	if (len > 1) {
		char *q = strdup(cli_quote(item));

		free(item);
		item = q;
	}
	if (len == 1)
		cli_error("unknown taint letter %s in '%s %s' (letters: %s; flag names work too, see 'taintctl check --help')",
			  bad, opt_name, cli_quote(spec), letters);
	else
		cli_error("'%s' in '%s %s' is neither a flag name nor flag letters: %s is not a flag letter (letters: %s; names: see 'taintctl check --help')",
			  item ? item : "", opt_name, cli_quote(spec), bad,
			  letters);
	free(item);
	return EXIT_USAGE;
}

/* --value VALUE: exactly one value */
static int mask_of_value(const char *value, uint64_t *mask)
{
	struct decoded_list l = { 0 };
	int rc = decode_text(NULL, value, strlen(value), &l);

	if (rc == EXIT_OK && l.count != 1) {
		cli_error("--value takes one value ('%s' has %zu)",
			  cli_quote(value), l.count);
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK)
		*mask = l.v[0].mask;
	decoded_free(&l);
	return rc;
}

/* --from FILE: every value and field in it, together */
static int mask_of_file(const char *path, uint64_t *mask)
{
	struct decoded_list l = { 0 };
	const char *name = strcmp(path, "-") ? path : "(standard input)";
	char *buf;
	size_t len;
	int rc = read_input(path, &buf, &len);

	if (rc)
		return rc;
	rc = decode_text(name, buf, len, &l);
	if (rc == EXIT_OK && !l.count) {
		cli_error("'%s' holds no taint value and no Tainted: field",
			  cli_quote(name));
		rc = EXIT_USAGE;
	}
	*mask = 0;
	for (size_t i = 0; i < l.count; i++)
		*mask |= l.v[i].mask;
	decoded_free(&l);
	free(buf);
	return rc;
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
	if (opt->value && opt->from) {
		cli_error("--value and --from are mutually exclusive");
		return EXIT_USAGE;
	}
	if (opt->allow && (rc = parse_set("--allow", opt->allow, &set)))
		return rc;
	if (opt->deny && (rc = parse_set("--deny", opt->deny, &set)))
		return rc;
	if (opt->value)
		rc = mask_of_value(opt->value, &mask);
	else if (opt->from)
		rc = mask_of_file(opt->from, &mask);
	else
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
