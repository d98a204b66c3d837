// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * value.c - parse a numeric taint mask (decimal or 0x hexadecimal).
 */
#include <errno.h>

#include "chars.h"
#include "taint.h"

int taint_parse_value(const char *s, uint64_t *mask)
{
	unsigned int base = 10;
	uint64_t v = 0;
	const char *p = s;
	const char *digits;

	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
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
	if (p == digits)
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
