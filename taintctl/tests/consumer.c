// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * consumer.c - a program that uses libtaint as an installed library
 * (tests/pkg_test.sh builds it with pkg-config --cflags --libs libtaint):
 *   consumer [VALUE]  prints "libtaint VERSION: VALUE = LETTERS"
 */
#include <stdio.h>
#include <string.h>

#include <taint/taint.h>

int main(int argc, char **argv)
{
	const char *value = argc > 1 ? argv[1] : "4609";
	struct taint_field f = TAINT_INIT(struct taint_field);
	char letters[65];
	uint64_t mask;

	if (strcmp(taint_version(), TAINT_VERSION) != 0) {
		fprintf(stderr, "consumer: built with libtaint %s, runs %s\n",
			TAINT_VERSION, taint_version());
		return 1;
	}
	if (taint_parse_value(value, &mask) != 0) {
		fprintf(stderr, "consumer: bad value '%s'\n", value);
		return 2;
	}
	taint_mask_letters(mask, letters, sizeof(letters));
	/* the letters decode back to the mask */
	if (taint_parse_body(letters, strlen(letters), &f, NULL) != 0 ||
	    f.mask != mask || !TAINT_HAS(struct taint_field, &f, mask))
		return 3;
	printf("libtaint %s: %s = %s\n", taint_version(), value, letters);
	return 0;
}
