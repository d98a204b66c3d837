// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * scanner.c - find every "Tainted:"/"Not tainted" field in a byte stream,
 * and, when asked (taint_scanner_set_flags(), TAINT_SCAN_EVENTS/BOOTS),
 * the "Taint X: <taint_log line>" events of reports and the first line of
 * each boot.
 *
 * A regular file is mapped and scanned in one pass (taint__source_map()).
 * Any other stream is read into one fixed buffer of SCAN_CHUNK + SCAN_KEEP
 * bytes.  Each round handles the hits whose marker starts before
 * len - SCAN_KEEP, so every hit has SCAN_KEEP bytes of lookahead (a field,
 * even a wrapped verbose list, and an event line are far shorter); the
 * unhandled tail, plus a few bytes of history for the "is the marker glued
 * to a word" test, moves to the front of the buffer.  Memory is constant
 * whatever the line lengths, and bytes are never interpreted beyond the
 * parsers (NULs are fine).
 *
 * Line mode (taint_scanner_feed_lines(), pipes and terminals in
 * taint_scan_fd*()): after each read, the round's limit is the end of the
 * last complete line, so each line's hits come as soon as it is complete.
 * A field whose outcome depends on data not read yet (a verbose list
 * ending in ',' whose next line is incomplete) gets -EAGAIN from the
 * parser and the round stops before it; only fields with less than
 * SCAN_KEEP bytes of lookahead can be deferred, so a full buffer always
 * makes progress.
 *
 * Speed: scan_find.c finds the candidates ("aint", and with events or
 * boots "Linux version "/"-- Boot") and counts the newlines before them in
 * the same vector pass; a line without a candidate gets no other work.
 *
 * Events (TAINT_HIT_EVENT): "Taint X: " (X an upper-case letter) where a
 * console message starts: at the start of a line, after "] " (a printk
 * timestamp or caller id), after ": " (syslog's and journalctl's
 * "host kernel: ") or after ';' (/dev/kmsg records), followed by a line
 * taint_log_parse_line() accepts, at most EVENT_LINE_MAX bytes long.  A
 * "Taint X:" line that does not parse is no hit.  Each event is tied to a
 * report (hit->report_line): the report's field is its first field line
 * (a field on the line right after another, "CPU: ... Tainted: G  B" then
 * "Tainted: [B]=BAD_PAGE", is the same report); the events after it belong
 * to it until a letter repeats, which starts a report that printed no
 * field (a panic after an oops prints the same events again: report_line
 * 0), or until a boot.
 *
 * Reports (TAINT_HIT_REPORT, TAINT_SCAN_REPORTS): the first line of a
 * kernel report where a message starts (report.c says which and the flags
 * each implies), at most one a line.  Their needles are not in the vector
 * pass: memmem() finds each needle's next place, which is searched again
 * only once the scan has passed it, so scans without the flag pay nothing.
 *
 * Boots (TAINT_HIT_BOOT): "Linux version " where a message starts, or a
 * whole line "-- Boot ID --" or "-- Reboot --" (journalctl's separators);
 * the "Linux version" line after a separator is the same boot, and the
 * separator's hit has the origin of the line right after it.  After a panic's first line
 * (with TAINT_SCAN_REPORTS too), the lines that follow are read one by
 * one, at most WALK_LINES of them: the first whose printk timestamp is
 * below the panic's, from the same host, starts a boot (a console that
 * prints no banner, as with "quiet", still shows the reboot).
 *
 * Origins (with TAINT_SCAN_BOOTS): each hit's host and printk timestamp
 * are read from its line's first TAINT_ORIGIN_SPAN bytes (origin.c).  A
 * line whose start was dropped with an earlier round keeps those bytes in
 * carry[].
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "field_internal.h"
#include "origin.h"
#include "report.h"
#include "scan_find.h"
#include "source_internal.h"
#include "taint.h"

#define SCAN_CHUNK (1024 * 1024)
#define SCAN_KEEP (16 * 1024)
#define SCAN_HIST 16
/* "Taint X: " and the longest event line (a taint_log line is < 2 KiB) */
#define EVENT_MARKER_LEN 9
#define EVENT_LINE_MAX 4096
/* the most lines read after a panic for the reboot's first line */
#define WALK_LINES 1000

struct taint_scanner {
	char *buf;
	size_t cap;
	size_t len;		/* bytes in buf */
	size_t pos;		/* first byte not yet searched/counted */
	size_t search;		/* first byte where the next marker may start */
	uint64_t line;		/* line number of buf[pos] */
	bool reported;		/* a hit was reported since the last flush */
	unsigned int flags;	/* TAINT_SCAN_EVENTS, TAINT_SCAN_BOOTS */
	taint__scan_find_fn find;
	struct taint__map *map;	/* the mapped file being scanned, or NULL */
	uint64_t report_hit_line;	/* the line of the last REPORT hit */
	/* events: the report they belong to (see the top) */
	uint64_t report_line;	/* its field's line, 0 if none */
	uint64_t tie_field_end;	/* the last line of its last field, 0 if none */
	uint32_t tie_letters;	/* letters of its events so far, bit X - 'A' */
	bool boot_sep;		/* a separator was the last boot line */
	/* the first bytes of the line that straddles buf[0] (its start was
	 * dropped with an earlier round) */
	char carry[TAINT_ORIGIN_SPAN];
	size_t carry_len;
	/* after a panic: its timestamp (-1: no walk), its host, lines read */
	int64_t walk_stamp;
	char walk_host[TAINT_HOST_MAX];
	size_t walk_host_len;
	bool walk_has_host;
	unsigned int walk_lines;
	char hit_host[TAINT_HOST_MAX];	/* the host of the hit reported */
	struct taint_field field;
	struct taint_event event;
};

/* Part of a stream in memory, as scan_core() goes through it. */
struct region {
	const char *buf;
	size_t len;		/* bytes readable at buf */
	size_t limit;		/* handle the markers that start before it */
	bool final;		/* no more data will come after len */
	size_t cur;		/* newlines are counted up to cur */
	size_t from;		/* the next marker starts at from or later */
};

struct taint_scanner *taint_scanner_new(void)
{
	struct taint_scanner *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	sc->cap = SCAN_CHUNK + SCAN_KEEP;
	sc->buf = malloc(sc->cap);
	if (!sc->buf) {
		free(sc);
		return NULL;
	}
	sc->line = 1;
	sc->walk_stamp = -1;
	sc->find = taint__scan_finder(false);
	return sc;
}

void taint_scanner_set_flags(struct taint_scanner *sc, unsigned int flags)
{
	sc->flags = flags & (TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS |
			     TAINT_SCAN_REPORTS);
	sc->find = taint__scan_finder(sc->flags & TAINT_SCAN_BOOTS);
}

void taint_scanner_free(struct taint_scanner *sc)
{
	if (!sc)
		return;
	free(sc->buf);
	free(sc);
}

/* The message of a console line may start at @s: see the top. */
static bool message_start(const char *buf, size_t s)
{
	if (s == 0 || buf[s - 1] == '\n' || buf[s - 1] == ';')
		return true;
	return s >= 2 && buf[s - 1] == ' ' &&
	       (buf[s - 2] == ']' || buf[s - 2] == ':');
}

/*
 * Outcomes of the handlers of one candidate: go on after it; stop the
 * round before it (decided by data to come); stop the round, the marker
 * starts at or after the limit (or its bytes are not all there yet: a
 * marker split between two feeds).
 */
enum { CAND_NEXT, CAND_DEFER, CAND_PAST };

/*
 * The line at @s, up to EVENT_LINE_MAX bytes: sets *@tl to its length
 * without "\n" or "\r\n".  CAND_DEFER: it is not complete yet; CAND_PAST
 * (misused as "no"): longer than EVENT_LINE_MAX.
 */
static int line_at(const struct region *r, size_t s, size_t *tl)
{
	size_t room = r->len - s;
	const char *nl = memchr(r->buf + s, '\n',
				room < EVENT_LINE_MAX ? room : EVENT_LINE_MAX);
	size_t n;

	if (nl)
		n = (size_t)(nl - (r->buf + s));
	else if (room >= EVENT_LINE_MAX)
		return CAND_PAST;
	else if (!r->final)
		return CAND_DEFER;
	else
		n = room;
	if (n && r->buf[s + n - 1] == '\r')
		n--;
	*tl = n;
	return CAND_NEXT;
}

/*
 * The line of the candidate at @s, whose marker matched: true, its length
 * in *@tl, if it is whole; else false and *@c is what the candidate is:
 * CAND_PAST at or after the limit, CAND_DEFER (the round stops before
 * it) if the line is not complete yet, CAND_NEXT if it is longer than
 * EVENT_LINE_MAX.
 */
static bool cand_line(struct region *r, size_t s, size_t *tl, int *c)
{
	if (s >= r->limit) {
		*c = CAND_PAST;
		return false;
	}
	*c = line_at(r, s, tl);
	if (*c == CAND_DEFER) {
		r->limit = r->from = s;
		return false;
	}
	if (*c != CAND_NEXT) {
		*c = CAND_NEXT;
		return false;
	}
	return true;
}

/* Does @pat (@n bytes) start at @pos?  1 yes, 0 no, -1 the data ends first. */
static int match_at(const struct region *r, size_t pos, const char *pat,
		    size_t n)
{
	size_t k = r->len - pos < n ? r->len - pos : n;

	if (memcmp(r->buf + pos, pat, k))
		return 0;
	return k == n ? 1 : -1;
}

/*
 * The origin of the line that holds @p (its host, its printk timestamp)
 * into @h: its start is found up to EVENT_LINE_MAX bytes back, in the
 * buffer or in carry[]; else the origin stays unknown.
 */
static void origin_read(struct taint_scanner *sc, const struct region *r,
			size_t p, struct taint_hit *h)
{
	size_t lo = p > EVENT_LINE_MAX ? p - EVENT_LINE_MAX : 0, n;
	char tmp[TAINT_ORIGIN_SPAN];
	struct taint__origin o;
	const char *s, *nl;

	nl = p > lo ? memrchr(r->buf + lo, '\n', p - lo) : NULL;
	if (nl) {
		s = nl + 1;
		n = (size_t)(r->buf + p - s);
	} else if (lo) {
		return;
	} else if (sc->map || !sc->carry_len) {
		s = r->buf;
		n = p;
	} else {
		n = TAINT_ORIGIN_SPAN - sc->carry_len;
		if (n > p)
			n = p;
		memcpy(tmp, sc->carry, sc->carry_len);
		memcpy(tmp + sc->carry_len, r->buf, n);
		s = tmp;
		n += sc->carry_len;
	}
	taint__line_origin(s, n, &o);
	h->stamp_us = o.stamp_us;
	if (o.host) {	/* copied: tmp[] does not outlive this function */
		memcpy(sc->hit_host, o.host, o.host_len);
		h->host = sc->hit_host;
		h->host_len = o.host_len;
	}
}

static inline void origin_at(struct taint_scanner *sc,
			     const struct region *r, size_t p,
			     struct taint_hit *h)
{
	h->stamp_us = -1;
	if (sc->flags & TAINT_SCAN_BOOTS)
		origin_read(sc, r, p, h);
}

/* the first bytes of the line that will straddle buf[0] once the @keep
 * bytes before it are dropped */
static void carry_keep(struct taint_scanner *sc, size_t keep)
{
	const char *nl = keep ? memrchr(sc->buf, '\n', keep) : NULL;
	size_t b = 0, n;

	if (nl) {
		b = (size_t)(nl - sc->buf) + 1;
		sc->carry_len = 0;
	}
	n = keep - b;
	if (n > TAINT_ORIGIN_SPAN - sc->carry_len)
		n = TAINT_ORIGIN_SPAN - sc->carry_len;
	memcpy(sc->carry + sc->carry_len, sc->buf + b, n);
	sc->carry_len += n;
}

static void tie_reset(struct taint_scanner *sc)
{
	sc->report_line = 0;
	sc->tie_letters = 0;
	sc->tie_field_end = 0;
}

/* A field from line @line to @end_line: a new report, or its next line. */
static void tie_field(struct taint_scanner *sc, uint64_t line,
		      uint64_t end_line)
{
	if (sc->tie_letters || !sc->tie_field_end ||
	    line > sc->tie_field_end + 1)
		sc->report_line = line;
	sc->tie_letters = 0;
	sc->tie_field_end = end_line;
}

/* An event of flag @letter: the report it belongs to (0: none). */
static uint64_t tie_event(struct taint_scanner *sc, char letter)
{
	uint32_t bit = UINT32_C(1) << (letter - 'A');

	if (sc->tie_letters & bit)	/* the next report, without a field */
		tie_reset(sc);
	sc->tie_letters |= bit;
	return sc->report_line;
}

/* "Tainted:"/"Not tainted" with its "ainted" at @a. */
static int try_field(struct taint_scanner *sc, struct region *r, size_t a,
		     size_t lo, taint_hit_fn fn, void *arg, int *ret)
{
	struct taint_hit h = { .kind = TAINT_HIT_FIELD };
	size_t len = r->len, end;
	uint64_t nl;
	long start;
	int p, c;

	/* "ainted", and the byte after it ("Tainted:", "Not tainted ") */
	c = match_at(r, a, TAINT_NEEDLE, TAINT_NEEDLE_LEN);
	if (c == 1 && a + TAINT_NEEDLE_LEN == len && !r->final)
		c = -1;
	if (c < 0)
		return r->final ? CAND_NEXT : CAND_PAST;
	if (!c)
		return CAND_NEXT;
	start = taint__marker_at(r->buf, len, a);
	if (start < 0 || (size_t)start < lo)
		return CAND_NEXT;
	if ((size_t)start >= r->limit)
		return CAND_PAST;
	p = taint__parse_field(r->buf + start, len - (size_t)start, &sc->field,
			       !r->final && len - (size_t)start < SCAN_KEEP);
	if (p == -EAGAIN) {
		/* decided by data still to come: next round */
		r->limit = r->from = (size_t)start;
		return CAND_DEFER;
	}
	if (p)
		return CAND_NEXT;
	/* The marker's line: no newline between start and a. */
	h.line = sc->line;
	h.field = &sc->field;
	end = (size_t)start + sc->field.consumed;
	origin_at(sc, r, (size_t)start, &h);
	if (sc->flags & TAINT_SCAN_BOOTS)
		h.release_len = taint__release_word(r->buf + end,
						    len - end < 80 ? len - end : 80,
						    &h.release);
	nl = taint__count_newlines(r->buf + a, end - a);
	if (sc->flags & TAINT_SCAN_EVENTS)
		tie_field(sc, h.line, h.line + nl);
	sc->line += nl;
	r->cur = r->from = end;
	sc->reported = true;
	*ret = fn(&h, arg);
	return CAND_NEXT;
}

/* "Taint X: <taint_log line>" with its "aint" at @a. */
static int try_event(struct taint_scanner *sc, struct region *r, size_t a,
		     size_t lo, taint_hit_fn fn, void *arg, int *ret)
{
	const char *buf = r->buf;
	struct taint_hit h = { .kind = TAINT_HIT_EVENT };
	size_t s = a - 1, tl;
	uint64_t dropped;
	const char *why;
	int p;

	if (a < 1 || s < lo || buf[s] != 'T' || !message_start(buf, s))
		return CAND_NEXT;
	/* "Taint X: " */
	for (size_t i = 4; i < EVENT_MARKER_LEN - 1; i++) {
		char b;

		if (a + i >= r->len)	/* not complete yet */
			return r->final ? CAND_NEXT : CAND_PAST;
		b = buf[a + i];
		if (i == 5 ? b < 'A' || b > 'Z' : b != " X: "[i - 4])
			return CAND_NEXT;
	}
	if (!cand_line(r, s, &tl, &p))
		return p;
	sc->event.size = sizeof(sc->event);
	if (taint_log_parse_line(buf + s + EVENT_MARKER_LEN,
				 tl - EVENT_MARKER_LEN, &sc->event, &dropped,
				 &why) != TAINT_LOG_EVENT)
		return CAND_NEXT;
	h.line = sc->line;
	origin_at(sc, r, s, &h);
	h.letter = buf[a + 5];
	h.event = &sc->event;
	h.report_line = tie_event(sc, h.letter);
	h.text = buf + s;
	h.text_len = tl;
	r->from = a + 1;
	sc->reported = true;
	*ret = fn(&h, arg);
	return CAND_NEXT;
}

/*
 * The separator at @b (@tl bytes): the origin of the line after it into
 * @h, and its release if it is the boot's banner.  CAND_DEFER: that line
 * is not complete yet.
 */
static int next_line_origin(struct taint_scanner *sc, struct region *r,
			    size_t b, size_t tl, struct taint_hit *h)
{
	const char *nl = memchr(r->buf + b + tl, '\n', r->len - b - tl);
	const char *v;
	size_t s, nt;
	int c;

	h->stamp_us = -1;
	if (!nl) {
		if (r->final)
			return CAND_NEXT;
		r->limit = r->from = b;
		return CAND_DEFER;
	}
	s = (size_t)(nl - r->buf) + 1;
	if (s >= r->len && !r->final) {
		r->limit = r->from = b;
		return CAND_DEFER;
	}
	c = line_at(r, s, &nt);
	if (c == CAND_DEFER) {
		r->limit = r->from = b;
		return CAND_DEFER;
	}
	if (c != CAND_NEXT || !(sc->flags & TAINT_SCAN_BOOTS))
		return CAND_NEXT;
	origin_at(sc, r, s + nt, h);
	v = memmem(r->buf + s, nt, "Linux version ", 14);
	if (v && message_start(r->buf, (size_t)(v - r->buf)))
		h->release_len = taint__release_word(v, nt - (size_t)(v - (r->buf + s)),
						     &h->release);
	return CAND_NEXT;
}

/* "Linux version " or "-- Boot ID --"/"-- Reboot --" at @b. */
static int try_boot(struct taint_scanner *sc, struct region *r, size_t b,
		    taint_hit_fn fn, void *arg, int *ret)
{
	const char *buf = r->buf;
	struct taint_hit h = { .kind = TAINT_HIT_BOOT };
	bool sep = buf[b] == '-';
	size_t tl;
	int p;

	if (sep ? b && buf[b - 1] != '\n' : !message_start(buf, b))
		return CAND_NEXT;
	if (!sep) {
		int c = match_at(r, b, "Linux version ", 14);

		if (c < 0)	/* not complete yet */
			return r->final ? CAND_NEXT : CAND_PAST;
		if (!c)
			return CAND_NEXT;
	}
	if (!cand_line(r, b, &tl, &p))
		return p;
	if (sep && !(tl == 12 && !memcmp(buf + b, "-- Reboot --", 12)) &&
	    !(tl > 11 && !memcmp(buf + b, "-- Boot ", 8) &&
	      !memcmp(buf + b + tl - 3, " --", 3)))
		return CAND_NEXT;
	/* a separator's hit has the origin of the line after it */
	if (sep && (p = next_line_origin(sc, r, b, tl, &h)) != CAND_NEXT)
		return p;
	r->from = b + 1;
	tie_reset(sc);
	sc->walk_stamp = -1;
	/* journalctl's separator, then the boot's first line: one boot */
	if (!sep && sc->boot_sep) {
		sc->boot_sep = false;
		return CAND_NEXT;
	}
	sc->boot_sep = sep;
	if (!(sc->flags & TAINT_SCAN_BOOTS))
		return CAND_NEXT;
	h.line = sc->line;
	h.text = buf + b;
	h.text_len = tl;
	if (!sep) {
		origin_at(sc, r, b, &h);
		h.release_len = taint__release_word(h.text, tl, &h.release);
	}
	sc->reported = true;
	*ret = fn(&h, arg);
	return CAND_NEXT;
}

/*
 * The next place in [@lo, @end) where a report's needle starts (report.h),
 * or @end: each needle's next place plus one is kept in @next (0: not
 * searched yet, so that a candidate at offset 0 is not taken for one) and
 * searched again only once @lo has passed it.
 */
static size_t next_report(const struct region *r, size_t lo, size_t end,
			  size_t next[TAINT_REPORT_NEEDLES])
{
	size_t best = end;

	for (size_t i = 0; i < TAINT_REPORT_NEEDLES; i++) {
		const char *nd = taint__report_needles[i];

		if (!next[i] || next[i] - 1 < lo) {
			const char *f = lo < r->len ?
				memmem(r->buf + lo, r->len - lo, nd, strlen(nd)) :
				NULL;

			next[i] = f ? (size_t)(f - r->buf) + 1 : SIZE_MAX;
		}
		if (next[i] - 1 < best)
			best = next[i] - 1;
	}
	return best;
}

/* A report's first line at @p, where one of its needles starts. */
static int try_report(struct taint_scanner *sc, struct region *r, size_t p,
		      taint_hit_fn fn, void *arg, int *ret)
{
	const char *buf = r->buf;
	struct taint_hit h = { .kind = TAINT_HIT_REPORT };
	size_t s = p, tl;
	int c;

	/* "kernel BUG at": its needle is the BUG */
	if (buf[p] == 'B' && p >= 7 && !memcmp(buf + p - 7, "kernel ", 7) &&
	    message_start(buf, p - 7))
		s = p - 7;
	if (!message_start(buf, s))
		return CAND_NEXT;
	if (!cand_line(r, s, &tl, &c))
		return c;
	/* one report a line: "Internal error: Oops: ..." is one */
	if (sc->report_hit_line == sc->line ||
	    !taint__report_header(buf + s, tl, &h.flags))
		return CAND_NEXT;
	sc->report_hit_line = sc->line;
	h.line = sc->line;
	h.text = buf + s;
	h.text_len = tl;
	origin_at(sc, r, s, &h);
	/* a panic: the reboot's first line may follow (see the top) */
	if (h.stamp_us >= 0 && tl >= 14 && !memcmp(h.text, "Kernel panic -", 14)) {
		sc->walk_stamp = h.stamp_us;
		sc->walk_has_host = h.host;
		sc->walk_host_len = h.host_len;
		memcpy(sc->walk_host, h.host ? h.host : "", h.host_len);
		sc->walk_lines = 0;
	}
	r->from = p + 1;
	sc->reported = true;
	*ret = fn(&h, arg);
	return CAND_NEXT;
}

/*
 * After a panic, the line at @s: the reboot's first line if its printk
 * timestamp is below the panic's, from the same host (see the top).
 */
static int try_walk(struct taint_scanner *sc, struct region *r, size_t s,
		    taint_hit_fn fn, void *arg, int *ret)
{
	struct taint_hit h = { .kind = TAINT_HIT_BOOT };
	struct taint__origin o;
	size_t tl;
	int c;

	if (!cand_line(r, s, &tl, &c))
		return c;
	if (++sc->walk_lines > WALK_LINES) {
		sc->walk_stamp = -1;
		return CAND_NEXT;
	}
	taint__line_origin(r->buf + s, tl, &o);
	if (o.stamp_us < 0 || o.stamp_us >= sc->walk_stamp ||
	    sc->walk_has_host != !!o.host ||
	    (o.host && (o.host_len != sc->walk_host_len ||
			memcmp(o.host, sc->walk_host, o.host_len))))
		return CAND_NEXT;
	sc->walk_stamp = -1;
	/* the boot's banner: try_boot reports it, with its release */
	if (memmem(r->buf + s + o.msg, tl - o.msg, "Linux version ", 14))
		return CAND_NEXT;
	tie_reset(sc);
	h.line = sc->line;
	h.text = r->buf + s;
	h.text_len = tl;
	origin_at(sc, r, s + tl, &h);
	sc->reported = true;
	*ret = fn(&h, arg);
	return CAND_NEXT;
}

/*
 * Report the hits whose marker starts in [r->from, r->limit) of r->buf
 * (r->len bytes readable); see the comment at the top.  On return,
 * sc->line is the line of r->cur; r->limit may have moved back to a hit
 * decided by data to come.
 */
static int scan_core(struct taint_scanner *sc, struct region *r,
		     taint_hit_fn fn, void *arg)
{
	bool reports = sc->flags & TAINT_SCAN_REPORTS;
	size_t next[TAINT_REPORT_NEEDLES] = { 0 };
	int ret = 0;

	if (r->from > r->cur) {
		sc->line += taint__count_newlines(r->buf + r->cur,
						  r->from - r->cur);
		r->cur = r->from;
	}
	for (;;) {
		/* "aint" may begin up to 6 bytes after its marker ("Not t") */
		size_t end = r->limit + 6 < r->len ? r->limit + 6 : r->len;
		size_t lo = r->from, a, rep = end, walk = SIZE_MAX;
		uint64_t nl;
		int c;

		if (lo >= end)
			break;
		/* a report's line before the next candidate is handled first */
		if (reports)
			rep = next_report(r, lo, end, next);
		/* after a panic, each line's start is a candidate */
		if (sc->walk_stamp >= 0 && lo < rep) {
			const char *e = lo && r->buf[lo - 1] == '\n' ?
					r->buf + lo - 1 :
					memchr(r->buf + lo, '\n', rep - lo);

			if (e && (size_t)(e - r->buf) + 1 < rep)
				rep = walk = (size_t)(e - r->buf) + 1;
		}
		a = lo + sc->find(r->buf + lo, rep - lo, r->len - lo, &nl);
		if (sc->map)	/* the populating thread may go on */
			taint__source_progress(sc->map, a);
		sc->line += nl;
		r->cur = r->from = a;
		if (a >= end) {
			/* a marker from limit on may end after end */
			r->from = lo > r->limit ? lo : r->limit;
			break;
		}
		if (a == walk) {
			c = try_walk(sc, r, a, fn, arg, &ret);
		} else if (a == rep) {
			c = try_report(sc, r, a, fn, arg, &ret);
		} else if (r->buf[a] == 'a') {
			c = try_field(sc, r, a, lo, fn, arg, &ret);
			if (c == CAND_NEXT && r->from == a &&
			    (sc->flags & TAINT_SCAN_EVENTS))
				c = try_event(sc, r, a, lo, fn, arg, &ret);
		} else {
			c = try_boot(sc, r, a, fn, arg, &ret);
		}
		if (c == CAND_PAST)	/* it starts at or after limit: next round */
			r->from = lo > r->limit ? lo : r->limit;
		if (c != CAND_NEXT || ret)
			break;
		if (r->from == a)
			r->from = a + 1;
	}
	return ret;
}

/*
 * Handle the hits starting before @limit in the buffer, then keep its
 * tail for the next round.  @final: no more data will come.
 */
static int scan_round(struct taint_scanner *sc, size_t limit, bool final,
		      taint_hit_fn fn, void *arg)
{
	struct region r = {
		.buf = sc->buf, .len = sc->len, .limit = limit,
		.final = final, .cur = sc->pos,
		.from = sc->search > sc->pos ? sc->search : sc->pos,
	};
	size_t keep;
	int ret = scan_core(sc, &r, fn, arg);

	limit = r.limit;
	if (r.cur < limit)
		sc->line += taint__count_newlines(sc->buf + r.cur,
						  limit - r.cur);
	else
		/* the search went past limit: recount exactly */
		sc->line -= taint__count_newlines(sc->buf + limit,
						  r.cur - limit);

	keep = limit > SCAN_HIST ? limit - SCAN_HIST : 0;
	carry_keep(sc, keep);
	memmove(sc->buf, sc->buf + keep, sc->len - keep);
	sc->len -= keep;
	sc->pos = limit - keep;
	sc->search = (r.from > limit ? r.from : limit) - keep;
	return ret;
}

/* Handle every field on the complete lines in the buffer. */
static int scan_lines(struct taint_scanner *sc, taint_hit_fn fn, void *arg)
{
	const char *nl;

	if (sc->len <= sc->pos)
		return 0;
	nl = memrchr(sc->buf + sc->pos, '\n', sc->len - sc->pos);
	if (!nl)
		return 0;
	return scan_round(sc, (size_t)(nl - sc->buf) + 1, false, fn, arg);
}

int taint_scanner_feed(struct taint_scanner *sc, const void *data, size_t len,
		       taint_hit_fn fn, void *arg)
{
	const char *p = data;

	while (len) {
		size_t n = sc->cap - sc->len;
		int ret;

		if (n > len)
			n = len;
		memcpy(sc->buf + sc->len, p, n);
		sc->len += n;
		p += n;
		len -= n;
		if (sc->len == sc->cap) {
			ret = scan_round(sc, sc->len - SCAN_KEEP, false, fn,
					 arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int taint_scanner_feed_lines(struct taint_scanner *sc, const void *data,
			     size_t len, taint_hit_fn fn, void *arg)
{
	int ret = taint_scanner_feed(sc, data, len, fn, arg);

	return ret ? ret : scan_lines(sc, fn, arg);
}

int taint_scanner_finish(struct taint_scanner *sc, taint_hit_fn fn, void *arg)
{
	return scan_round(sc, sc->len, true, fn, arg);
}

int taint_scan_fd_opts(int fd, const struct taint_scan_opts *o,
		       struct taint_scan_info *info)
{
	struct taint_scan_info dummy;
	struct taint__source src;
	struct taint_scanner *sc;
	struct stat st;
	bool lines;
	size_t got;
	int ret;

	if (!info)
		info = &dummy;
	else if (taint__size_out(info->size, sizeof(*info)))
		return -EINVAL;
	ret = taint__size_in(o, o->size, sizeof(*o));
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (fstat(fd, &st))
		return -errno;
	if (o->flags & TAINT_SCAN_LINES)
		lines = true;
	else if (o->flags & TAINT_SCAN_BLOCKS)
		lines = false;
	else
		lines = !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
	info->lines = lines;
	if (o->prefix_len > TAINT_SCAN_PREFIX_MAX ||
	    (o->prefix_len && !o->prefix))
		return -EINVAL;
	sc = taint_scanner_new();
	if (!sc)
		return -ENOMEM;
	taint_scanner_set_flags(sc, o->flags);
	/* mmap: a regular file from its start (not after a prefix) */
	if (!lines && !(o->flags & TAINT_SCAN_NOMAP) && !o->prefix_len) {
		struct taint__map m;

		if (!taint__source_map(&m, fd, o->flags & TAINT_SCAN_RAW)) {
			struct region r = { .buf = m.data, .len = m.len,
					    .limit = m.len, .final = true };

			sc->map = &m;
			ret = scan_core(sc, &r, o->hit, o->arg);
			sc->map = NULL;
			taint__source_unmap(&m);
			taint_scanner_free(sc);
			return ret;
		}
	}
	ret = taint__source_open(&src, fd, o->flags & TAINT_SCAN_RAW,
				 o->prefix, o->prefix_len, sc->buf, sc->cap,
				 &got);
	info->compression = src.compression;
	sc->len = got;
	while (!ret) {
		ssize_t n;

		if (sc->len == sc->cap)
			ret = scan_round(sc, sc->len - SCAN_KEEP, false, o->hit,
					 o->arg);
		else if (lines)
			ret = scan_lines(sc, o->hit, o->arg);
		if (!ret && lines && sc->reported && o->flush) {
			sc->reported = false;
			ret = o->flush(o->arg);
		}
		if (ret)
			break;
		n = taint__source_read(&src, sc->buf + sc->len,
				       sc->cap - sc->len, !lines);
		if (n <= 0) {
			/*
			 * The end, or an error: report what was read first;
			 * after an error, not the incomplete last line (it may
			 * stop inside a field).
			 */
			if (n < 0) {
				const char *nl = sc->len > sc->pos ?
					memrchr(sc->buf + sc->pos, '\n',
						sc->len - sc->pos) : NULL;

				sc->len = nl ? (size_t)(nl - sc->buf) + 1 :
					  sc->pos;
			}
			ret = taint_scanner_finish(sc, o->hit, o->arg);
			if (!ret)
				ret = (int)n;
			break;
		}
		sc->len += (size_t)n;
	}
	if (src.error)
		snprintf(info->error, sizeof(info->error), "%s", src.error);
	taint__source_close(&src);
	taint_scanner_free(sc);
	return ret;
}

int taint_scan_fd(int fd, taint_hit_fn fn, void *arg)
{
	const struct taint_scan_opts o = { .size = sizeof(o), .hit = fn,
					   .arg = arg };

	return taint_scan_fd_opts(fd, &o, NULL);
}
