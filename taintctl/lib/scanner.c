// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * scanner.c - find every "Tainted:"/"Not tainted" field in a byte stream.
 *
 * The stream is read into one fixed buffer of SCAN_CHUNK + SCAN_KEEP
 * bytes.  Each round handles the fields whose marker starts before
 * len - SCAN_KEEP, so every field has SCAN_KEEP bytes of lookahead (a field,
 * even a wrapped verbose list, is far shorter); the unhandled tail, plus a
 * few bytes of history for the "is the marker glued to a word" test, moves
 * to the front of the buffer.  Memory is constant whatever the line lengths,
 * and bytes are never interpreted beyond the field parser (NULs are fine).
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
 * Speed: candidates are found by a search for "ainted" (common to both
 * markers) and newlines are counted, both 16 bytes at a time with SSE2
 * (x86-64 baseline; a portable word-at-a-time/memmem() version otherwise),
 * so a large log is scanned at memory speed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "field_internal.h"
#include "source_internal.h"
#include "taint.h"

#define SCAN_CHUNK (1024 * 1024)
#define SCAN_KEEP (16 * 1024)
#define SCAN_HIST 16

struct taint_scanner {
	char *buf;
	size_t cap;
	size_t len;		/* bytes in buf */
	size_t pos;		/* first byte not yet searched/counted */
	size_t search;		/* first byte where the next marker may start */
	uint64_t line;		/* line number of buf[pos] */
	bool reported;		/* a hit was reported since the last flush */
	struct taint_field field;
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
	return sc;
}

void taint_scanner_free(struct taint_scanner *sc)
{
	if (!sc)
		return;
	free(sc->buf);
	free(sc);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* Count '\n' in @n bytes at @p, 16 bytes at a time. */
static uint64_t count_newlines(const char *p, size_t n)
{
	const __m128i nl = _mm_set1_epi8('\n');
	const __m128i zero = _mm_setzero_si128();
	uint64_t count = 0;
	size_t i = 0;

	while (n - i >= 16) {
		/* byte counters (<= 255 per lane), summed every 255 blocks */
		__m128i acc = zero, sum;
		size_t end = n - i > 255 * 16 ? i + 255 * 16 : n;

		for (; i + 16 <= end; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(p + i));

			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
		}
		sum = _mm_sad_epu8(acc, zero);
		count += (uint64_t)_mm_cvtsi128_si32(sum) +
			 (uint64_t)_mm_extract_epi16(sum, 4);
	}
	for (; i < n; i++)
		count += p[i] == '\n';
	return count;
}

/*
 * Offset of the first TAINT_NEEDLE in @p[0..n), or NULL.  Filters 16
 * positions at a time on the needle's first and last bytes ('a', 'd'),
 * then confirms with memcmp().
 */
static const char *find_needle(const char *p, size_t n)
{
	const __m128i first = _mm_set1_epi8(TAINT_NEEDLE[0]);
	const __m128i last = _mm_set1_epi8(TAINT_NEEDLE[TAINT_NEEDLE_LEN - 1]);
	size_t i = 0;

	for (; i + 16 + TAINT_NEEDLE_LEN - 1 <= n; i += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i b = _mm_loadu_si128((const __m128i *)
					    (p + i + TAINT_NEEDLE_LEN - 1));
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(a, first),
				      _mm_cmpeq_epi8(b, last)));

		while (m) {
			unsigned int bit = (unsigned int)__builtin_ctz(m);

			if (memcmp(p + i + bit + 1, &TAINT_NEEDLE[1],
				   TAINT_NEEDLE_LEN - 2) == 0)
				return p + i + bit;
			m &= m - 1;
		}
	}
	return memmem(p + i, n - i, TAINT_NEEDLE, TAINT_NEEDLE_LEN);
}
#else
/* Count '\n' in @n bytes at @p, eight bytes at a time. */
static uint64_t count_newlines(const char *p, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	uint64_t count = 0;
	size_t i = 0;

	while (n - i >= 8) {
		/* Per-byte counters (<= 255 per lane) summed every 248 words. */
		uint64_t acc = 0;
		size_t words = (n - i) / 8;

		if (words > 248)
			words = 248;
		for (size_t w = 0; w < words; w++, i += 8) {
			uint64_t v;

			memcpy(&v, p + i, 8);
			v ^= ones * '\n';
			/* high bit of each byte set iff that byte was '\n' */
			v = ~(((v & low7) + low7) | v) & ~low7;
			acc += v >> 7;
		}
		count += (acc * ones) >> 56;
	}
	for (; i < n; i++)
		count += p[i] == '\n';
	return count;
}

static const char *find_needle(const char *p, size_t n)
{
	return memmem(p, n, TAINT_NEEDLE, TAINT_NEEDLE_LEN);
}
#endif

/*
 * Handle fields starting before @limit; see the comment at the top.
 * @final: no more data will come.
 */
static int scan_round(struct taint_scanner *sc, size_t limit, bool final,
		      taint_hit_fn fn, void *arg)
{
	char *buf = sc->buf;
	size_t len = sc->len;
	size_t cur = sc->pos;
	size_t from = sc->search > sc->pos ? sc->search : sc->pos;
	size_t keep;
	int ret = 0;

	/* The needle may begin up to 6 bytes after the marker ("Not t"). */
	while (from < limit + 6 && from < len) {
		const char *hit = find_needle(buf + from, len - from);
		struct taint_hit h;
		size_t a;
		long start;
		int r;

		if (!hit)
			break;
		a = (size_t)(hit - buf);
		start = taint__marker_at(buf, len, a);
		/*
		 * A marker at or after @limit is the next round's, and so is
		 * a needle that only such a marker could hold: its data may
		 * not all be here yet (a "Tainted" whose ':' is still to
		 * come), so it is not passed over
		 */
		if (start >= 0 ? (size_t)start >= limit : a > limit)
			break;
		if (start < 0 || (size_t)start < from) {
			from = a + 1;
			continue;
		}
		r = taint__parse_field(buf + start, len - (size_t)start,
				       &sc->field,
				       !final && len - (size_t)start < SCAN_KEEP);
		if (r == -EAGAIN) {
			/* decided by data still to come: next round */
			limit = (size_t)start;
			break;
		}
		if (r) {
			from = a + 1;
			continue;
		}
		/* The marker's line: no newline between start and a. */
		sc->line += count_newlines(buf + cur, a - cur);
		cur = a;
		h.line = sc->line;
		h.field = &sc->field;
		from = (size_t)start + sc->field.consumed;
		sc->reported = true;
		ret = fn(&h, arg);
		if (ret)
			break;
	}
	if (cur < limit)
		sc->line += count_newlines(buf + cur, limit - cur);
	else
		/* cur can pass limit only inside a field; recount exactly. */
		sc->line -= count_newlines(buf + limit, cur - limit);

	keep = limit > SCAN_HIST ? limit - SCAN_HIST : 0;
	memmove(buf, buf + keep, len - keep);
	sc->len = len - keep;
	sc->pos = limit - keep;
	sc->search = (from > limit ? from : limit) - keep;
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
	sc = taint_scanner_new();
	if (!sc)
		return -ENOMEM;
	ret = taint__source_open(&src, fd, o->flags & TAINT_SCAN_RAW,
				 sc->buf, sc->cap, &got);
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
