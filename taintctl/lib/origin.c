// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * origin.c - where a log line comes from: the host named in its syslog or
 * journal prefix and the printk timestamp of its message (origin.h), so
 * that a log gathered from several machines is judged per machine, and a
 * reboot shows as the timestamps starting again.
 *
 * Prefixes read (the host is HOST):
 *   Dec  7 10:00:00 HOST kernel: ...               syslog (RFC 3164),
 *                                                  journalctl -o short
 *   Dec 07 10:00:00.123456 HOST kernel: ...        -o short-precise
 *   2026-12-07T10:00:00.123+01:00 HOST kernel: ... rsyslog's file format,
 *                                                  -o short-iso(-precise)
 *   Mon 2026-12-07 10:00:00 UTC HOST kernel: ...   -o short-full
 *   [  300.123456] HOST kernel: ...                -o short-monotonic
 *   1765101600.123456 HOST kernel: ...             -o short-unix
 * The host is taken only when what comes before it ends in such a time,
 * so a kernel message that says "... kernel: ..." is not a host.
 */
#include <stdbool.h>
#include <string.h>

#include "origin.h"

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * "[  300.123456]" (blanks after '[' optional, 1 to 9 fraction digits) at
 * @s[@i]: the time in microseconds in *@us; returns the index after ']',
 * or 0 if there is no such stamp.
 */
static size_t bracket_stamp(const char *s, size_t n, size_t i, int64_t *us)
{
	int64_t sec = 0, frac = 0;
	size_t d = 0, f = 0;

	if (i >= n || s[i] != '[')
		return 0;
	for (i++; i < n && s[i] == ' '; i++)
		;
	for (; i < n && digit(s[i]) && d < 12; i++, d++)
		sec = sec * 10 + (s[i] - '0');
	if (!d || i >= n || s[i] != '.')
		return 0;
	for (i++; i < n && digit(s[i]) && f < 9; i++, f++)
		if (f < 6)
			frac = frac * 10 + (s[i] - '0');
	if (!f || i >= n || s[i] != ']')
		return 0;
	for (; f < 6; f++)
		frac *= 10;
	*us = sec * 1000000 + frac;
	return i + 1;
}

/* "PRI,SEQ,USEC,FLAGS[,...];" at the start of @s (/dev/kmsg): USEC. */
static size_t kmsg_stamp(const char *s, size_t n, int64_t *us)
{
	size_t i = 0, field = 0, d = 0;
	int64_t v = 0;

	for (; i < n && s[i] != ';'; i++) {
		if (field > 2)
			continue;	/* the flags, and the rest */
		if (s[i] == ',') {
			if (!d)
				return 0;
			field++;
			d = 0;
			continue;
		}
		if (!digit(s[i]) || d >= 18)
			return 0;
		if (field == 2)
			v = v * 10 + (s[i] - '0');
		d++;
	}
	if (i >= n || field < 3)
		return 0;
	*us = v;
	return i + 1;
}

/* Is @t (@n bytes) a time of day "hh:mm:ss" (fraction allowed), or an ISO
 * 8601 date and time, or "seconds.fraction" (short-unix)? */
static bool time_token(const char *t, size_t n)
{
	size_t i, dot = 0;

	for (i = 0; i + 8 <= n; i++)
		if (digit(t[i]) && digit(t[i + 1]) && t[i + 2] == ':' &&
		    digit(t[i + 3]) && digit(t[i + 4]) && t[i + 5] == ':' &&
		    digit(t[i + 6]) && digit(t[i + 7]))
			return true;
	for (i = 0; i < n; i++) {
		if (t[i] == '.' && !dot && i)
			dot = i;
		else if (!digit(t[i]))
			return false;
	}
	return dot && dot + 1 < n;
}

/* Does @s[0..@end) (what comes before the host and its blank) end in a
 * time stamp: a time token, maybe followed by a zone name ("UTC"), or a
 * printk-style "[  300.123456]"? */
static bool ends_in_time(const char *s, size_t end)
{
	size_t b, e = end;
	int64_t us;

	for (int tok = 0; tok < 2; tok++) {
		while (e && s[e - 1] == ' ')
			e--;
		if (!e)
			return false;
		b = e;
		while (b && s[b - 1] != ' ')
			b--;
		if (s[e - 1] == ']') {
			const char *open = memrchr(s, '[', e);

			return open && bracket_stamp(s, e, (size_t)(open - s),
						     &us) == e;
		}
		if (time_token(s + b, e - b))
			return true;
		/* a zone name after the time ("UTC", "CET", "+0100") */
		if (tok || e - b > 6)
			return false;
		for (size_t i = b; i < e; i++)
			if (!(s[i] >= 'A' && s[i] <= 'Z') && s[i] != '+' &&
			    s[i] != '-' && !digit(s[i]))
				return false;
		e = b;
	}
	return false;
}

void taint__line_origin(const char *s, size_t n, struct taint__origin *o)
{
	const char *k;
	size_t i, from = 0;

	o->host = NULL;
	o->host_len = 0;
	o->stamp_us = -1;
	o->msg = 0;
	if (n > TAINT_ORIGIN_SPAN)
		n = TAINT_ORIGIN_SPAN;
	/* "TIME HOST kernel: " */
	while (from < n && (k = memmem(s + from, n - from, " kernel:", 8))) {
		size_t sp = (size_t)(k - s), hb = sp, after = sp + 8;

		from = sp + 1;
		if (after < n && s[after] != ' ')
			continue;
		while (hb && s[hb - 1] != ' ')
			hb--;
		if (hb == sp || sp - hb > TAINT_HOST_MAX || hb < 2 ||
		    !ends_in_time(s, hb - 1))
			continue;
		o->host = s + hb;
		o->host_len = sp - hb;
		o->msg = after < n ? after + 1 : n;
		break;
	}
	if (!o->host && (i = kmsg_stamp(s, n, &o->stamp_us))) {
		o->msg = i;
		return;
	}
	i = o->msg;
	/* a console's log level "<4>" before the stamp */
	if (i + 2 < n && s[i] == '<' && digit(s[i + 1]) && s[i + 2] == '>')
		i += 3;
	if (bracket_stamp(s, n, i, &o->stamp_us) == 0)
		o->stamp_us = -1;
}

size_t taint__release_word(const char *s, size_t n, const char **rel)
{
	size_t i = 0, b;

	if (n >= 14 && !memcmp(s, "Linux version ", 14))
		i = 14;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	b = i;
	while (i < n && i - b <= 64 && s[i] != ' ' && s[i] != '\t' &&
	       s[i] != ')' && s[i] != '(' && s[i] != '"' && s[i] != '\r' &&
	       s[i] != '\n' && (unsigned char)s[i] > 0x20 &&
	       (unsigned char)s[i] < 0x7f)
		i++;
	if (i == b || i - b > 64 || !digit(s[b]))
		return 0;
	*rel = s + b;
	return i - b;
}
