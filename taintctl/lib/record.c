// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * record.c - the log of `taintctl record`, the BPF recorder of stock
 * kernels: the same event lines as the kernel's taint log (log.c's
 * formatter, its escaping), and the recorder's notes, lines of their own
 * that no event line can be mistaken for (an event line begins "ts="):
 *
 *   # taintctl-record began ts=0.912345 utc=2026-12-07T22:00:00Z kernel=6.1.0-28-amd64 mask=4096
 *   ts=5.000100 utc=2026-12-07T22:00:05Z origin=kernel flags=W new=W ...
 *   # taintctl-record lost=3 ts=9.100000
 *   # taintctl-record restarted ts=20.000000 utc=... kernel=6.1.0-28-amd64 mask=4608
 *
 * began: the first line, when recording began, on which kernel, and the
 * mask then (the flags set before recording, which have no event);
 * lost=N: N more events found the ring buffer full; restarted: a new
 * recorder appended to the log of one that stopped, so events between the
 * line before it and it may be missing (a gap), and its mask may hold
 * flags set in that gap.  The parser (log.c) skips notes; this file reads
 * them into a struct taint_recording.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "log_internal.h"
#include "taint.h"

struct sink {
	char *buf;
	size_t size, len;
};

static void put(void *arg, const char *s, size_t len)
{
	struct sink *k = arg;

	if (k->len < k->size) {
		size_t room = k->size - k->len - 1;

		memcpy(k->buf + k->len, s, len < room ? len : room);
	}
	k->len += len;
}

static size_t finish(struct sink *k)
{
	if (k->size)
		k->buf[k->len < k->size ? k->len : k->size - 1] = '\0';
	return k->len;
}

size_t taint_record_format_event(const struct taint_event *ev, char *buf,
				 size_t size)
{
	struct sink k = { buf, size, 0 };

	taint__log_format(ev, put, &k);
	return finish(&k);
}

size_t taint_record_format_begin(char *buf, size_t size, bool restarted,
				 const char *ts, const char *utc,
				 const char *kernel, uint64_t mask)
{
	char rel[4 * 64 + 1];
	int n;

	taint_escape_word(kernel, strnlen(kernel, 64), rel, sizeof(rel));
	n = snprintf(buf, size, TAINT__RECORD_NOTE "%s ts=%s utc=%s kernel=%s mask=%" PRIu64,
		     restarted ? "restarted" : "began", ts, utc[0] ? utc : "-",
		     rel[0] ? rel : "-", mask);
	return n < 0 ? 0 : (size_t)n;
}

size_t taint_record_format_lost(char *buf, size_t size, const char *ts,
				uint64_t lost)
{
	int n = snprintf(buf, size, TAINT__RECORD_NOTE "lost=%" PRIu64 " ts=%s",
			 lost, ts);

	return n < 0 ? 0 : (size_t)n;
}

/* the value of " key=" in @s (@len bytes) into @out, at most @size - 1
 * bytes; false if absent or too long */
static bool value(const char *s, size_t len, const char *key, char *out,
		  size_t size)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i + klen + 1 < len; i++) {
		size_t e;

		if (s[i] != ' ' || memcmp(s + i + 1, key, klen) ||
		    s[i + 1 + klen] != '=')
			continue;
		i += klen + 2;
		for (e = i; e < len && s[e] != ' '; e++)
			;
		if (e - i >= size || e == i)
			return false;
		memcpy(out, s + i, e - i);
		out[e - i] = '\0';
		return true;
	}
	return false;
}

static bool number(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

int taint_record_parse_note(const char *line, size_t len,
			    struct taint_recording *r)
{
	static const size_t plen = sizeof(TAINT__RECORD_NOTE) - 1;
	struct taint_recording got;
	const char *s = line + plen - 1;	/* at the blank before the word */
	size_t n = len - (plen - 1);
	char word[16], num[24], kernel[4 * 64 + 1];
	uint64_t v;
	size_t w;

	if (taint__size_out(r->size, sizeof(*r)))
		return -EINVAL;
	if (len < plen || memcmp(line, TAINT__RECORD_NOTE, plen))
		return 0;
	memcpy(&got, r, sizeof(got));
	for (w = 0; w < n - 1 && s[1 + w] != ' ' && s[1 + w] != '='; w++)
		;
	if (w == 0 || w >= sizeof(word))
		return -EINVAL;
	memcpy(word, s + 1, w);
	word[w] = '\0';
	if (!strcmp(word, "lost")) {
		/* "lost=N ts=..." : read N as a field */
		char tmp[32];

		if (!value(s, n, "lost", tmp, sizeof(tmp)) || !number(tmp, &v))
			return -EINVAL;
		got.lost += v;
	} else if (!strcmp(word, "began") || !strcmp(word, "restarted")) {
		char ts[sizeof(got.began_ts)], utc[sizeof(got.began_utc)];
		size_t klen, used;

		if (!value(s, n, "ts", ts, sizeof(ts)) ||
		    !value(s, n, "utc", utc, sizeof(utc)) ||
		    !value(s, n, "kernel", kernel, sizeof(kernel)) ||
		    !value(s, n, "mask", num, sizeof(num)) || !number(num, &v))
			return -EINVAL;
		if (word[0] == 'r' || got.began_ts[0]) {
			got.restarts++;
		} else {
			memcpy(got.began_ts, ts, sizeof(ts));
			memcpy(got.began_utc, utc, sizeof(utc));
			got.before_mask = v;
			/* the release as written, unescaped (a word: no blank) */
			klen = strlen(kernel);
			if (!strcmp(kernel, "-"))
				got.kernel[0] = '\0';
			else if (taint__unescape_word(kernel, klen, got.kernel,
						      sizeof(got.kernel), &used))
				return -EINVAL;
		}
	} else {
		return -EINVAL;
	}
	got.size = sizeof(got);
	memcpy(r, &got, r->size ? r->size : sizeof(got));
	return 1;
}
