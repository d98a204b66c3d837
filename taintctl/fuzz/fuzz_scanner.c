// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_scanner.c - the streaming scanner on any bytes: fed in chunks whose
 * sizes the input chooses, in block or line mode, and finished; then
 * taint_scan_fd_opts() on a memfd of the same bytes, which decompresses
 * what starts with a known magic (the seeds hold gzip, xz, zstd, bzip2
 * and lz4 logs) and transcodes what is UTF-16 (seeds too).  A hit must be
 * on a line that exists, in order, with a field that holds what
 * taint_find_field() promises.  The UTF-16 transcoder (encoding.c): the
 * stream decoded in pieces (input and output as the chunk size says) is
 * the stream decoded at once; and the stream written as UTF-16 (each byte
 * a code unit) and scanned gives the plain scan's hits when the stream is
 * ASCII.
 *
 * Input: byte 0 chooses the mode (bit 0: feed_lines, bit 1: RAW, bit 2:
 * LINES for the fd scan, bit 3: also scan the stream as UTF-16, bit 4:
 * big-endian, bit 5: with a byte order mark), byte 1 the chunk size; the
 * rest is the stream.
 */
#include <errno.h>
#include <string.h>

#include "encoding_internal.h"
#include "fuzz.h"

struct state {
	uint64_t last_line;
	uint64_t lines;		/* newlines in the stream, +1 */
	size_t hits;
};

static int hit(const struct taint_hit *h, void *arg)
{
	struct state *st = arg;
	const struct taint_field *f = h->field;

	FUZZ_CHECK(h->line >= 1 && h->line <= st->lines);
	FUZZ_CHECK(h->line >= st->last_line);
	FUZZ_CHECK(f->text_len <= TAINT_TEXT_MAX);
	FUZZ_CHECK(strlen(f->text) == f->text_len);
	FUZZ_CHECK(f->lines >= 1);
	st->last_line = h->line;
	st->hits++;
	return 0;
}

static int fd_hit(const struct taint_hit *h, void *arg)
{
	struct state *st = arg;

	FUZZ_CHECK(h->line >= st->last_line);
	FUZZ_CHECK(h->field->text_len <= TAINT_TEXT_MAX);
	st->last_line = h->line;
	st->hits++;
	return 0;
}

/* the hits of taint_scan_fd_opts() on a memfd of @data, -1 if none made */
static int fd_scan(const uint8_t *data, size_t size, unsigned int mode,
		   struct state *fs, struct taint_scan_info *info)
{
	struct taint_scan_opts o = { .size = sizeof(o), .hit = fd_hit };
	int fd = fuzz_memfd(data, size), r;

	if (fd < 0)
		return -1;
	o.arg = fs;
	o.flags = (mode & 2 ? TAINT_SCAN_RAW : 0) |
		  (mode & 4 ? TAINT_SCAN_LINES : TAINT_SCAN_BLOCKS);
	r = taint_scan_fd_opts(fd, &o, info);
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOTSUP || r == -ENOMEM);
	FUZZ_CHECK(!r || r == -ENOMEM || info->error[0]);
	FUZZ_CHECK(strlen(info->error) < sizeof(info->error));
	close(fd);
	return r;
}

/* @data decoded as UTF-16 at once, and in pieces: the same UTF-8 */
static void utf16_pieces(const uint8_t *data, size_t size, bool be,
			 size_t chunk)
{
	size_t cap = size * 2 + 4, ip = 0, op = 0, jp = 0, jo = 0;
	char *whole = malloc(cap), *parts = malloc(cap);

	if (!whole || !parts)
		goto out;
	taint__utf16_decode(be, data, size, &ip, whole, cap, &op, true);
	FUZZ_CHECK(ip == size && op <= cap);
	/* input as it arrives (@chunk bytes more each time), output caps of
	 * 1 to 7 bytes: whole characters, never more than fits */
	for (size_t in_len = 0, step = 0; ; step++) {
		size_t out_cap = jo + 1 + step % 7, before = jo;
		bool final;

		in_len = in_len + chunk < size ? in_len + chunk : size;
		final = in_len == size;
		if (out_cap > cap)
			out_cap = cap;
		taint__utf16_decode(be, data, in_len, &jp, parts, out_cap, &jo,
				    final);
		FUZZ_CHECK(jo <= out_cap && jp <= in_len);
		if (final && jp == size)
			break;
		/* progress, or nothing fits yet, or waiting for input */
		FUZZ_CHECK(jo > before || out_cap - jo < 4 || !final);
		FUZZ_CHECK(step < 8 * size + 64);
	}
	FUZZ_CHECK(jo == op && !memcmp(whole, parts, op));
out:
	free(whole);
	free(parts);
}

/* @data as UTF-16 (each byte a code unit): the plain scan's hits if ASCII */
static void utf16_scan(const uint8_t *data, size_t size, unsigned int mode,
		       const struct state *st)
{
	bool be = mode & 16, bom = mode & 32, ascii = true, undecided;
	size_t n = 0, b;
	uint8_t *w = malloc(2 * size + 2);
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	struct state fs = { 0, 0, 0 };
	enum taint__encoding e;

	if (!w)
		return;
	if (bom) {
		w[n++] = be ? 0xfe : 0xff;
		w[n++] = be ? 0xff : 0xfe;
	}
	for (size_t i = 0; i < size; i++) {
		w[n++] = be ? 0 : data[i];
		w[n++] = be ? data[i] : 0;
		ascii = ascii && data[i] < 0x80;
	}
	e = taint__encoding_detect(w, n, &b, &undecided);
	if (!fd_scan(w, n, mode & ~2u, &fs, &info) && ascii &&
	    (e == TAINT__ENC_UTF16LE || e == TAINT__ENC_UTF16BE) &&
	    info.compression == TAINT_COMPRESSION_NONE)
		FUZZ_CHECK(fs.hits == st->hits);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st = { 0, 1, 0 };
	struct taint_scanner *sc;
	unsigned int mode;
	size_t chunk, off = 0;

	if (size < 2)
		return 0;
	mode = data[0];
	chunk = 1 + (size_t)data[1] * 37;
	data += 2;
	size -= 2;
	for (size_t i = 0; i < size; i++)
		st.lines += data[i] == '\n';

	sc = taint_scanner_new();
	if (!sc)
		return 0;
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk;
		int r = mode & 1 ?
			taint_scanner_feed_lines(sc, data + off, n, hit, &st) :
			taint_scanner_feed(sc, data + off, n, hit, &st);

		FUZZ_CHECK(r == 0);
		off += n;
	}
	FUZZ_CHECK(taint_scanner_finish(sc, hit, &st) == 0);
	taint_scanner_free(sc);

	{
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		struct state fs = { 0, 0, 0 };
		size_t bom;
		bool undecided;
		enum taint__encoding e = taint__encoding_detect(data, size,
							&bom, &undecided);

		/* plain bytes: the same hits as the scanner above */
		if (!fd_scan(data, size, mode, &fs, &info) &&
		    info.compression == TAINT_COMPRESSION_NONE &&
		    (e == TAINT__ENC_PLAIN || (mode & 2)))
			FUZZ_CHECK(fs.hits == st.hits);
	}
	utf16_pieces(data, size, mode & 16, chunk);
	if (mode & 8)
		utf16_scan(data, size, mode, &st);
	return 0;
}
