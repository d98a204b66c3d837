// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flag_set.c - the FLAGS of check --allow/--deny and watch --deny: letters
 * (PO, case-sensitive) and kernel flag names (PROPRIETARY_MODULE, any case),
 * separated by commas or blanks (libtaint's taint_flags_to_mask()).
 *
 * A FLAGS that names no flag ("", " ", ",") is a usage error: an empty
 * --deny would deny nothing and an empty --allow allow nothing, and a gate
 * written with an unset variable (--deny "$DENY") must not pass by
 * accident.  The empty set is spelled "none" (any case, alone): --deny none
 * denies nothing, --allow none allows nothing (any flag fails, as check
 * without an option).  "none" is read as that word before it is read as
 * letters (as a flag name is: NONE is not N, O, N and E).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* @spec has no item: only commas and blanks */
static bool no_item(const char *spec)
{
	return spec[strspn(spec, ", \t")] == '\0';
}

/* @spec's only item is "none" (any case) */
static bool only_none(const char *spec)
{
	const char *p = spec + strspn(spec, ", \t");

	return strncasecmp(p, "none", 4) == 0 && no_item(p + 4);
}

int cli_parse_flags(const char *opt_name, const char *spec, uint64_t *set)
{
	char letters[TAINT_KNOWN_FLAGS + 1], bad[8] = "?", *item;
	size_t at = 0, len = 0;

	if (no_item(spec)) {
		cli_error("'%s %s' names no flag: give flag letters or names, or '%s none' for the empty set",
			  opt_name, cli_quote(spec), opt_name);
		return EXIT_USAGE;
	}
	if (only_none(spec)) {
		*set = 0;
		return EXIT_OK;
	}
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
	if (item && strcasecmp(item, "none") == 0)
		cli_error("'none' in '%s %s' stands alone: it is the empty set, not a flag",
			  opt_name, cli_quote(spec));
	else if (len == 1)
		cli_error("unknown taint letter %s in '%s %s' (letters: %s; flag names work too, see 'taintctl check --help')",
			  bad, opt_name, cli_quote(spec), letters);
	else
		cli_error("'%s' in '%s %s' is neither a flag name nor flag letters: %s is not a flag letter (letters: %s; names: see 'taintctl check --help')",
			  item ? item : "", opt_name, cli_quote(spec), bad,
			  letters);
	free(item);
	return EXIT_USAGE;
}
