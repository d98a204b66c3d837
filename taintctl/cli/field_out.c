// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * field_out.c - text output of what a decoded Tainted: field shows beyond
 * its mask: letters this version does not know (a newer kernel's
 * "[V]=...", vendor letters), with the name the verbose form printed for
 * them (their JSON is json_out.c's).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* " + unknown letters VZ (V=UNSAFE_BPF, Z=VENDOR)"; nothing if none */
void text_unknown_letters(const struct taint_field *f)
{
	const char *sep = " (";

	if (!f->unknown_letters[0])
		return;
	printf(" + unknown letters %s", f->unknown_letters);
	for (size_t i = 0; f->unknown_letters[i]; i++) {
		if (!f->unknown_names[i][0])
			continue;
		printf("%s%c=%s", sep, f->unknown_letters[i],
		       f->unknown_names[i]);
		sep = ", ";
	}
	if (strcmp(sep, ", ") == 0)
		putchar(')');
}

/* One line per unknown letter, in the layout of text_print_flag_line(). */
void text_unknown_letter_lines(const struct taint_field *f)
{
	for (size_t i = 0; f->unknown_letters[i]; i++)
		printf("  %c  bit ?   %-21s  %s\n", f->unknown_letters[i],
		       f->unknown_names[i][0] ? f->unknown_names[i] :
		       "(unknown)",
		       "unknown letter: not a flag this version knows (newer or vendor kernel)");
}
