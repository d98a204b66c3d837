// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_scanner.c - the streaming scanner on any bytes: fed in chunks whose
 * sizes the input chooses, in block or line mode, and finished; then
 * taint_scan_fd_opts() on a memfd of the same bytes, which decompresses
 * what starts with a known magic (the seeds hold gzip, xz, zstd, bzip2
 * and lz4 logs).  A hit must be on a line that exists, in order, with a
 * field that holds what taint_find_field() promises.
 *
 * Input: byte 0 chooses the mode (bit 0: feed_lines, bit 1: RAW, bit 2:
 * LINES for the fd scan), byte 1 the chunk size; the rest is the stream.
 */
#include <errno.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st = { 0, 1, 0 };
	struct taint_scanner *sc;
	unsigned int mode;
	size_t chunk, off = 0;
	int fd;

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

	fd = fuzz_memfd(data, size);
	if (fd >= 0) {
		struct taint_scan_opts o = { .size = sizeof(o), .hit = fd_hit };
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		struct state fs = { 0, 0, 0 };
		int r;

		o.arg = &fs;
		o.flags = (mode & 2 ? TAINT_SCAN_RAW : 0) |
			  (mode & 4 ? TAINT_SCAN_LINES : TAINT_SCAN_BLOCKS);
		r = taint_scan_fd_opts(fd, &o, &info);
		FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOTSUP ||
			   r == -ENOMEM);
		FUZZ_CHECK(!r || r == -ENOMEM || info.error[0]);
		FUZZ_CHECK(strlen(info.error) < sizeof(info.error));
		/* plain bytes: the same hits as the scanner above */
		if (info.compression == TAINT_COMPRESSION_NONE && !r)
			FUZZ_CHECK(fs.hits == st.hits);
		close(fd);
	}
	return 0;
}
