// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * value.c - parse a numeric taint mask the way the kernel's sysctl does.
 *
 * /proc/sys/kernel/tainted is written through proc_doulongvec_minmax():
 * proc_get_long() takes at most 20 characters, no sign (a '-' is refused),
 * and strtoul_lenient() with base 0: "0x" followed by a hexadecimal digit
 * is hexadecimal, any other leading '0' octal, else decimal.  So "01201" is
 * 641, "0x1201" 4609 and "1201" 1201, whichever way the user writes them.
 *
 * A saved copy of the mask (taint_parse_saved_mask()) is that number as
 * other tools keep it: with CR LF line ends or blank lines around it (an
 * editor, a Windows copy), as sysctl prints it ("kernel.tainted = 4609"),
 * after a UTF-8 byte order mark or in UTF-16 (PowerShell's >).
 */
#include <errno.h>
#include <string.h>

#include "chars.h"
#include "encoding_internal.h"
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

/* a saved mask's line: "kernel.tainted = " and 20 characters, blanks */
#define SAVED_LINE_MAX 128
/* the text of a saved mask, transcoded from UTF-16: blank lines around */
#define SAVED_TEXT_MAX 1024

static bool saved_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* "kernel.tainted = " (sysctl -a's form, or without blanks) at @s */
static size_t sysctl_key(const char *s, size_t n)
{
	size_t i = 14;

	if (n < i || (memcmp(s, "kernel.tainted", i) &&
		      memcmp(s, "kernel/tainted", i)))
		return 0;
	while (i < n && saved_blank(s[i]))
		i++;
	if (i == n || s[i] != '=')
		return 0;
	i++;
	while (i < n && saved_blank(s[i]))
		i++;
	return i;
}

int taint_parse_saved_mask(const void *text, size_t len, uint64_t *mask)
{
	char wide[SAVED_TEXT_MAX], line[SAVED_LINE_MAX + 1];
	const char *s = text, *value = NULL;
	size_t bom, value_len = 0, key;
	enum taint__encoding enc;
	bool undecided;

	enc = taint__encoding_detect(text, len, &bom, &undecided);
	switch (enc) {
	case TAINT__ENC_PLAIN:
	case TAINT__ENC_UTF8_BOM:
		s += bom;
		len -= bom;
		break;
	case TAINT__ENC_UTF16LE:
	case TAINT__ENC_UTF16BE: {
		size_t ip = bom, op = 0;

		taint__utf16_decode(enc == TAINT__ENC_UTF16BE, text, len, &ip,
				    wide, sizeof(wide), &op, true);
		if (ip != len)
			return -EINVAL;		/* far too long for one */
		s = wide;
		len = op;
		break;
	}
	default:
		return -EINVAL;
	}
	if (memchr(s, '\0', len))
		return -EINVAL;
	/* the one line that is not blank */
	for (size_t i = 0; i < len; ) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len, b = i;

		while (b < end && saved_blank(s[b]))
			b++;
		while (end > b && saved_blank(s[end - 1]))
			end--;
		if (end > b) {
			if (value)
				return -EINVAL;
			value = s + b;
			value_len = end - b;
		}
		i = nl ? (size_t)(nl - s) + 1 : len;
	}
	if (!value)
		return -EINVAL;
	key = sysctl_key(value, value_len);
	value += key;
	value_len -= key;
	if (value_len > SAVED_LINE_MAX)
		return -EINVAL;
	memcpy(line, value, value_len);
	line[value_len] = '\0';
	return taint_parse_value(line, mask);
}
