// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compressions.c - print libtaint's table of compressed formats
 * (taint_compression_info()), for tests/man_test.sh, which checks that
 * taintctl's help and man page name every format it reads.  One line per
 * format, in the table's order: NAME READABLE TOOL ("gzip 1 gzip -dc").
 */
#include <stdio.h>

#include "taint.h"

int main(void)
{
	const struct taint_compression_info *ci;

	for (enum taint_compression c = TAINT_COMPRESSION_NONE + 1;
	     (ci = taint_compression_info(c)); c++)
		printf("%s %d %s\n", ci->name, ci->readable, ci->tool);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
