// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * encoding.c - the text encodings of logs that other tools wrote: which
 * one the first bytes show, and UTF-16 to UTF-8.
 *
 * The kernel writes ASCII (and the UTF-8 of what it prints), and so do the
 * tools that save its logs on Linux.  On Windows, PowerShell's > and
 * Out-File (5.1), Notepad's "Unicode" and some log collectors write UTF-16,
 * little-endian as a rule, usually after a byte order mark (FF FE); other
 * editors add a UTF-8 byte order mark (EF BB BF).  Read as bytes, UTF-16
 * text has a NUL after (or before) every ASCII character, so no field, no
 * event and no number in it would ever be found: a log that shows taint
 * would pass.  The input layer (source.c) transcodes UTF-16 to UTF-8 as it
 * streams, drops a byte order mark, and refuses UTF-32 (its name in the
 * error), so that every reader sees the same text as for a UTF-8 copy.
 */
#include <stdint.h>
#include <string.h>

#include "encoding_internal.h"

static const struct {
	const char *bom;
	size_t len;
	enum taint__encoding enc;
} boms[] = {
	/* UTF-32LE's is UTF-16LE's and two NULs: first */
	{ "\xff\xfe\0\0", 4, TAINT__ENC_UTF32LE },
	{ "\0\0\xfe\xff", 4, TAINT__ENC_UTF32BE },
	{ "\xef\xbb\xbf", 3, TAINT__ENC_UTF8_BOM },
	{ "\xff\xfe", 2, TAINT__ENC_UTF16LE },
	{ "\xfe\xff", 2, TAINT__ENC_UTF16BE },
};
#define NBOMS (sizeof(boms) / sizeof(boms[0]))

/* UTF-16 and UTF-32 without a byte order mark, by their code units */
static const struct unit_form {
	size_t unit;		/* bytes */
	size_t lo;		/* the place of the low byte */
	enum taint__encoding enc;
} forms[] = {
	/* UTF-32 first: "T\0\0\0" is also "T\0" and a NUL in UTF-16 */
	{ 4, 0, TAINT__ENC_UTF32LE },
	{ 4, 3, TAINT__ENC_UTF32BE },
	{ 2, 0, TAINT__ENC_UTF16LE },
	{ 2, 1, TAINT__ENC_UTF16BE },
};
#define NFORMS (sizeof(forms) / sizeof(forms[0]))

/* byte @i of a code unit of @f, counted from its low byte */
static unsigned char unit_byte(const unsigned char *u,
			       const struct unit_form *f, size_t i)
{
	return u[f->lo ? f->unit - 1 - i : i];
}

/*
 * A code unit of @f that holds a character of U+0001 to U+00FF: its
 * low byte not NUL, the others NUL (ASCII text, or Latin-1).  With @bmp,
 * a character up to U+FFFF in UTF-32 (its two high bytes NUL).
 */
static bool unit_like(const unsigned char *u, const struct unit_form *f,
		      bool bmp)
{
	size_t i = bmp && f->unit == 4 ? 2 : 1;

	if (!unit_byte(u, f, 0) && !(i == 2 && unit_byte(u, f, 1)))
		return false;
	for (; i < f->unit; i++)
		if (unit_byte(u, f, i))
			return false;
	return true;
}

/* @p[0..@n) may still be the start of ASCII text in @f: each byte NUL or
 * not where a code unit of an ASCII character has it */
static bool may_be(const unsigned char *p, size_t n, const struct unit_form *f)
{
	for (size_t i = 0; i < n; i++) {
		size_t at = i % f->unit;
		bool low = f->lo ? at == f->unit - 1 : at == 0;

		if (low != (p[i] != 0))
			return false;
	}
	return true;
}

/*
 * @p[0..@n) is text in @f: at least 3 in 4 of its code units hold a
 * character a log's text has (ASCII, Latin-1; UTF-32: the BMP), so that
 * a "\xe2\x82\xac" or a CJK character early in the text does not hide it;
 * plain text has no NUL at all.
 */
static bool text_in(const unsigned char *p, size_t n,
		    const struct unit_form *f)
{
	size_t units = n / f->unit, like = 0;

	for (size_t u = 0; u < units; u++)
		like += unit_like(p + u * f->unit, f, true);
	return units && like * 4 >= units * 3;
}

enum taint__encoding taint__encoding_detect(const void *data, size_t n,
					    size_t *bom, bool *undecided)
{
	const unsigned char *p = data;
	size_t w = n < TAINT__ENC_WINDOW ? n : TAINT__ENC_WINDOW;
	enum taint__encoding found = TAINT__ENC_PLAIN;
	bool more = false;

	*bom = 0;
	for (size_t i = 0; i < NBOMS; i++) {
		size_t m = boms[i].len < n ? boms[i].len : n;

		if (memcmp(p, boms[i].bom, m))
			continue;
		if (n < boms[i].len) {
			more = true;	/* a prefix of it, so far */
			continue;
		}
		*bom = boms[i].len;
		*undecided = more;
		return boms[i].enc;
	}
	for (size_t i = 0; i < NFORMS; i++) {
		if (n < TAINT__ENC_DECIDE && may_be(p, n, &forms[i]))
			more = true;
		if (found == TAINT__ENC_PLAIN && text_in(p, w, &forms[i]))
			found = forms[i].enc;
	}
	*undecided = more && n < TAINT__ENC_DECIDE;
	return found;
}

const char *taint__encoding_name(enum taint__encoding e)
{
	switch (e) {
	case TAINT__ENC_UTF8_BOM:
		return "UTF-8";
	case TAINT__ENC_UTF16LE:
		return "UTF-16LE";
	case TAINT__ENC_UTF16BE:
		return "UTF-16BE";
	case TAINT__ENC_UTF32LE:
		return "UTF-32LE";
	case TAINT__ENC_UTF32BE:
		return "UTF-32BE";
	default:
		return "plain";
	}
}

static unsigned int unit_at(bool be, const unsigned char *p)
{
	return be ? (unsigned int)p[0] << 8 | p[1] :
		    (unsigned int)p[1] << 8 | p[0];
}

size_t taint__utf16_decode(bool be, const unsigned char *in, size_t in_len,
			   size_t *ip, char *out, size_t cap, size_t *op,
			   bool final)
{
	size_t i = *ip, o = *op, chars = 0;
	/* the byte that is NUL in an ASCII code unit, and the other */
	size_t hi = be ? 0 : 1, lo = be ? 1 : 0;

	while (i < in_len) {
		uint32_t c;
		size_t used = 2, n;

		/* ASCII: the run of them, a byte each */
		while (in_len - i >= 2 && o < cap && !in[i + hi] &&
		       in[i + lo] < 0x80) {
			out[o++] = (char)in[i + lo];
			i += 2;
			chars++;
		}
		if (i == in_len || o == cap)
			break;
		if (in_len - i < 2) {
			if (!final)
				break;
			c = 0xfffd;	/* half a code unit at the end */
			used = 1;
		} else {
			unsigned int u = unit_at(be, in + i);

			c = u;
			if (u >= 0xd800 && u <= 0xdbff) {
				if (in_len - i < 4) {
					if (!final)
						break;
					c = 0xfffd;
				} else {
					unsigned int v = unit_at(be, in + i + 2);

					if (v >= 0xdc00 && v <= 0xdfff) {
						c = 0x10000 + ((u - 0xd800) << 10) +
						    (v - 0xdc00);
						used = 4;
					} else {
						c = 0xfffd;
					}
				}
			} else if (u >= 0xdc00 && u <= 0xdfff) {
				c = 0xfffd;
			}
		}
		n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
		if (cap - o < n)
			break;
		switch (n) {
		case 1:
			out[o] = (char)c;
			break;
		case 2:
			out[o] = (char)(0xc0 | c >> 6);
			out[o + 1] = (char)(0x80 | (c & 0x3f));
			break;
		case 3:
			out[o] = (char)(0xe0 | c >> 12);
			out[o + 1] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o + 2] = (char)(0x80 | (c & 0x3f));
			break;
		default:
			out[o] = (char)(0xf0 | c >> 18);
			out[o + 1] = (char)(0x80 | ((c >> 12) & 0x3f));
			out[o + 2] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o + 3] = (char)(0x80 | (c & 0x3f));
			break;
		}
		o += n;
		i += used;
		chars++;
	}
	*ip = i;
	*op = o;
	return chars;
}
