// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * value.c - parse a numeric taint mask the way the kernel's sysctl does.
 *
 * /proc/sys/kernel/tainted is written through proc_doulongvec_minmax():
 * proc_get_long() takes at most 20 characters, no sign (a '-' is refused),
 * and strtoul_lenient() with base 0: "0x" followed by a hexadecimal digit
 * is hexadecimal, any other leading '0' octal, else decimal.  So "01201" is
 * 641, "0x1201" 4609 and "1201" 1201, whichever way the user writes them.
 */
#include <errno.h>

#include "chars.h"
#include "taint.h"

/* proc_get_long(): TMPBUFLEN - 2 characters at most, prefix included */
#define KERNEL_NUMBER_MAX 20

int taint_parse_value(const char *s, uint64_t *mask)
{
	unsigned int base = 10;
	uint64_t v = 0;
	const char *p = s;
	const char *start, *digits;

	while (*p == ' ' || *p == '\t')
		p++;
	start = p;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    taint_hex_digit(p[2]) >= 0) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	digits = p;
	for (; *p; p++) {
		int d = taint_hex_digit(*p);

		if (d < 0 || (unsigned int)d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	if (p == digits || p - start > KERNEL_NUMBER_MAX)
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*mask = v;
	return 0;
}
