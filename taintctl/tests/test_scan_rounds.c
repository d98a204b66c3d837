// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_scan_rounds.c - the scanner's rounds, at every offset.
 *
 * A stream that is not mapped is scanned a round at a time (lib/scanner.c):
 * its buffer holds SCAN_CHUNK + SCAN_KEEP bytes; when it is full, a round
 * handles the markers that start before its limit, SCAN_CHUNK bytes in,
 * with the SCAN_KEEP bytes after the limit as look-ahead, and keeps those
 * and SCAN_HIST bytes of history before the limit for the next round.  In
 * line mode a round also ends at the last complete line of what was read.
 * A record that straddles a limit, or the end of the data read so far, is
 * where a round can lose, garble or repeat a hit.
 *
 * Each record below (fields of every form, an event "Taint X: ..." tied
 * to its field, boot lines, reports' first lines) is put at every offset around the first two
 * round limits and the ends of their look-ahead, from wholly before to
 * wholly after, one offset a stream, and each stream is scanned through
 * every input path: a mapped file (no rounds: the reference), a file
 * read(), a gzip file, a pipe in line mode whose reads end at those
 * places, and taint_scanner_feed() and taint_scanner_feed_lines() in
 * pieces that end there.  Each path must report exactly the record's hits,
 * on the lines where the test put them.  test_limits checks that the
 * rounds end where this test puts the records, test_records each record
 * alone through more paths (line mode on a file, a pipe in blocks, a gzip
 * pipe).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <zlib.h>

#include "test_util.h"

/* lib/scanner.c's SCAN_CHUNK, SCAN_KEEP and SCAN_HIST (test_limits) */
#define CHUNK (1u << 20)
#define KEEP (16u << 10)
#define HIST 16u
/* The first two round limits of a stream read in blocks (the second round
 * starts HIST bytes before the first limit, with a full buffer), and the
 * ends of their look-ahead, where the buffer is full: the places. */
#define LIMIT1 ((size_t)CHUNK)
#define LIMIT2 ((size_t)2 * CHUNK - HIST)
#define NPLACES 4
static const size_t places[NPLACES] = {
	LIMIT1, LIMIT1 + KEEP, LIMIT2, LIMIT2 + KEEP,
};
static const char *const place_names[NPLACES] = {
	"the first limit", "the end of its look-ahead", "the second limit",
	"the end of its look-ahead",
};
/* long enough for the second round to be a full one, not the last */
#define STREAM (LIMIT2 + KEEP + 4096)
/* the filler: lines of FILL_LINE bytes, 'x' and '\n' (no candidate) */
#define FILL_LINE 100
/* records are put from wholly before a place to this many bytes after */
#define AFTER 8

#define MAX_HITS 16
#define N(a) (sizeof(a) / sizeof((a)[0]))

struct hit {
	enum taint_hit_kind kind;
	uint64_t line;
	uint64_t mask;		/* FIELD */
	bool tainted;		/* FIELD */
	unsigned int lines;	/* FIELD: the lines it spans */
	char letter;		/* EVENT */
	uint64_t report_line;	/* EVENT */
	size_t text_len;	/* EVENT, BOOT */
};

static struct {
	size_t n;
	struct hit h[MAX_HITS];
} got;

static int collect(const struct taint_hit *h, void *arg)
{
	struct hit *r;

	(void)arg;
	if (got.n == MAX_HITS)
		return -ENOSPC;
	r = &got.h[got.n++];
	memset(r, 0, sizeof(*r));
	r->kind = h->kind;
	r->line = h->line;
	if (h->kind == TAINT_HIT_FIELD) {
		r->mask = h->field->mask;
		r->tainted = h->field->tainted;
		r->lines = h->field->lines;
		return 0;
	}
	r->text_len = h->text_len;
	if (h->kind == TAINT_HIT_EVENT) {
		r->letter = h->letter;
		r->report_line = h->report_line;
	}
	if (h->kind == TAINT_HIT_REPORT)
		r->mask = h->flags;
	return 0;
}

/*
 * A record: its text, starting with '\n' so that its lines are its own,
 * and its hits, their lines counted from the record's first line after
 * that '\n' (an event's report line too; 0 stays 0).
 */
struct record {
	const char *name;
	const char *text;
	size_t nw;
	struct hit w[2];
};

#define EV_B "Taint B: ts=1.000000 utc=- origin=kernel flags=B new=B pid=1 uid=0 comm=\"x\""
#define EV_U "Taint U: ts=2.000000 utc=- origin=user flags=U new=U pid=2 uid=0 comm=\"y\""
#define SEP "-- Boot 01 --"

#define F(l, m, n) { TAINT_HIT_FIELD, l, m, true, n, 0, 0, 0 }
#define NOT(l) { TAINT_HIT_FIELD, l, 0, false, 1, 0, 0, 0 }
#define E(l, x, r, t) { TAINT_HIT_EVENT, l, 0, false, 0, x, r, sizeof(t) - 1 }
#define BOOT(l, t) { TAINT_HIT_BOOT, l, 0, false, 0, 0, 0, sizeof(t) - 1 }
#define REPORT(l, m, t) { TAINT_HIT_REPORT, l, m, false, 0, 0, 0, sizeof(t) - 1 }
#define WARN_LINE "WARNING: CPU: 0 PID: 1 at kernel/x.c:12 f+0x1/0x20"
#define BUG_LINE "kernel BUG at mm/slub.c:42!"

static const struct record records[] = {
	{ "a fixed field and its event",
	  "\nx Tainted: G    B\n" EV_B "\n",
	  2, { F(1, 32, 1), E(2, 'B', 1, EV_B) } },
	{ "Not tainted",
	  "\nx Not tainted 6.1\n",
	  1, { NOT(1) } },
	/* "ainted" 6 bytes after the marker's start: scanner.c's "+ 6" */
	{ "Not tainted with a U+00A0",
	  "\nx Not\xc2\xa0tainted 6.1\n",
	  1, { NOT(1) } },
	/* the parser needs the next line to end the list */
	{ "a verbose field on two lines",
	  "\nTainted: [B]=BAD_PAGE,\n [W]=WARN\n",
	  1, { F(1, 32 | 512, 2) } },
	/* the marker's '"' needs the bytes before it: a JSON value */
	{ "a field in a JSON value",
	  "\n\"M\":   \"Tainted: G    W\"\n",
	  1, { F(1, 512, 1) } },
	{ "Linux version and an event of that boot",
	  "\n[0] Linux version 6.1\n" EV_U "\n",
	  2, { BOOT(1, "Linux version 6.1"), E(2, 'U', 0, EV_U) } },
	{ "journalctl's boot separator",
	  "\n" SEP "\n",
	  1, { BOOT(1, SEP) } },
	/* a report's first line (W); "kernel BUG at": its needle "BUG" is 7
	 * bytes after the line's start */
	{ "a WARNING report's first line",
	  "\n[    2.000000] " WARN_LINE "\n",
	  1, { REPORT(1, 512, WARN_LINE) } },
	{ "a kernel BUG report's first line",
	  "\n[    2.000000] " BUG_LINE "\n",
	  1, { REPORT(1, 128, BUG_LINE) } },
};

/* ---- the streams ------------------------------------------------------ */

/*
 * A stream of STREAM bytes is the filler but for a window of 2 WIN bytes
 * around each place, where the records go: the files, the gzip data and
 * the filler are made once, and only the windows change.
 */
#define WIN 512u

static char *filler;	/* STREAM bytes of filler */
static char *stream;	/* the stream being scanned */
static size_t stream_len;	/* its length; 0: any byte may differ */
static struct hit want[MAX_HITS];
static size_t nwant;
static int plain_fd = -1, gz_fd = -1;	/* the stream, plain and gzip */
static size_t plain_len;		/* what plain_fd holds now */

/* Raw deflate of @n bytes at @p, ended by a sync flush (byte aligned, not
 * the last block): such pieces, one after the other, are one stream. */
struct piece {
	unsigned char *z;
	size_t zlen, len;
	uLong crc;
};

static void deflate_piece(const char *p, size_t n, struct piece *pc)
{
	z_stream z = { 0 };
	size_t cap;

	assert_int_equal(deflateInit2(&z, 1, Z_DEFLATED, -15, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	cap = deflateBound(&z, n) + 64;
	pc->z = realloc(pc->z, cap);
	assert_non_null(pc->z);
	z.next_in = (Bytef *)p;
	z.avail_in = (uInt)n;
	z.next_out = pc->z;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_SYNC_FLUSH), Z_OK);
	assert_int_equal(z.avail_in, 0);
	pc->zlen = z.total_out;
	pc->len = n;
	pc->crc = crc32(0, (const Bytef *)p, (uInt)n);
	deflateEnd(&z);
}

/* the filler's pieces before, between and after the windows; the windows */
static struct piece fixed[NPLACES + 1], window[NPLACES];

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* @fd holds the @n bytes at @p, and no more. */
static void set_file(int fd, const void *p, size_t n)
{
	assert_int_equal(ftruncate(fd, (off_t)n), 0);
	assert_int_equal(pwrite(fd, p, n, 0), (ssize_t)n);
}

/* gzip of the stream: of a short one whole, of a long one from pieces */
static void stream_to_gzip(void)
{
	static const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
						0, 3 };
	size_t cap = sizeof(head) + 2 + 8, n = sizeof(head);
	unsigned char *gz;
	uLong crc = 0;

	if (stream_len != STREAM) {
		z_stream z = { 0 };

		cap = stream_len * 2 + 1024;
		gz = malloc(cap);
		assert_non_null(gz);
		assert_int_equal(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (Bytef *)stream;
		z.avail_in = (uInt)stream_len;
		z.next_out = gz;
		z.avail_out = (uInt)cap;
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		set_file(gz_fd, gz, z.total_out);
		deflateEnd(&z);
		free(gz);
		return;
	}
	for (int w = 0; w < NPLACES; w++) {
		deflate_piece(stream + places[w] - WIN, 2 * WIN, &window[w]);
		cap += fixed[w].zlen + window[w].zlen;
	}
	cap += fixed[NPLACES].zlen;
	gz = malloc(cap);
	assert_non_null(gz);
	memcpy(gz, head, sizeof(head));
	/* header, the pieces in order, an empty last block, CRC, size */
	for (int i = 0; i < 2 * NPLACES + 1; i++) {
		const struct piece *pc = i % 2 ? &window[i / 2] : &fixed[i / 2];

		memcpy(gz + n, pc->z, pc->zlen);
		n += pc->zlen;
		crc = i ? crc32_combine(crc, pc->crc, (z_off_t)pc->len) :
			  pc->crc;
	}
	gz[n++] = 0x03;		/* BFINAL, fixed Huffman, end of block */
	gz[n++] = 0x00;
	put_le32(gz + n, (uint32_t)crc);
	put_le32(gz + n + 4, (uint32_t)STREAM);
	n += 8;
	set_file(gz_fd, gz, n);
	free(gz);
}

/* The files hold the stream: of a long one, its windows are written. */
static void stream_to_files(void)
{
	if (stream_len != STREAM || plain_len != STREAM) {
		set_file(plain_fd, stream, stream_len);
		plain_len = stream_len;
	} else {
		for (int w = 0; w < NPLACES; w++)
			assert_int_equal(pwrite(plain_fd,
						stream + places[w] - WIN,
						2 * WIN,
						(off_t)(places[w] - WIN)),
					 (ssize_t)(2 * WIN));
	}
	stream_to_gzip();
}

static int tmp_fd(void)
{
	FILE *tmp = tmpfile();
	int fd;

	if (!tmp)
		return -1;
	fd = dup(fileno(tmp));
	fclose(tmp);
	return fd;
}

static int setup(void **state)
{
	size_t a = 0;

	(void)state;
	filler = malloc(STREAM);
	stream = malloc(STREAM);
	plain_fd = tmp_fd();
	gz_fd = tmp_fd();
	if (!filler || !stream || plain_fd < 0 || gz_fd < 0)
		return -1;
	for (size_t i = 0; i < STREAM; i++)
		filler[i] = i % FILL_LINE == FILL_LINE - 1 ? '\n' : 'x';
	for (int i = 0; i <= NPLACES; i++) {
		size_t b = i < NPLACES ? places[i] - WIN : STREAM;

		deflate_piece(filler + a, b - a, &fixed[i]);
		a = b + 2 * WIN;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i <= NPLACES; i++)
		free(fixed[i].z);
	for (int i = 0; i < NPLACES; i++)
		free(window[i].z);
	free(filler);
	free(stream);
	close(plain_fd);
	close(gz_fd);
	return 0;
}

static uint64_t count_nl(const char *p, size_t n)
{
	uint64_t c = 0;
	const char *end = p + n, *q;

	while (p < end && (q = memchr(p, '\n', (size_t)(end - p)))) {
		c++;
		p = q + 1;
	}
	return c;
}

/*
 * The stream of @len bytes: filler with @rec at each of @at[0..n)
 * (ascending; in the windows if @len is STREAM), in the files too; and
 * want[], the hits it must give (lines counted where the record landed).
 */
static void put_records(size_t len, const struct record *rec, const size_t *at,
			size_t n)
{
	size_t rlen = strlen(rec->text), prev = 0;
	uint64_t line = 1;

	if (stream_len == STREAM && len == STREAM) {
		for (int w = 0; w < NPLACES; w++)
			memcpy(stream + places[w] - WIN,
			       filler + places[w] - WIN, 2 * WIN);
	} else {
		memcpy(stream, filler, len);
	}
	stream_len = len;
	nwant = 0;
	for (size_t i = 0; i < n; i++) {
		assert_true(len != STREAM ||
			    (at[i] >= places[i] - WIN &&
			     at[i] + rlen <= places[i] + WIN));
		memcpy(stream + at[i], rec->text, rlen);
		line += count_nl(stream + prev, at[i] - prev);
		prev = at[i];
		for (size_t k = 0; k < rec->nw; k++) {
			struct hit w = rec->w[k];

			assert_true(nwant < MAX_HITS);
			w.line += line;
			if (w.report_line)
				w.report_line += line;
			want[nwant++] = w;
		}
	}
	stream_to_files();
}

static void print_hits(const char *what, const struct hit *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		print_message("# %s %zu: kind %d line %llu mask %llu%s lines %u letter '%c' report %llu text %zu\n",
			      what, i, h[i].kind,
			      (unsigned long long)h[i].line,
			      (unsigned long long)h[i].mask,
			      h[i].tainted ? "" : " (not tainted)", h[i].lines,
			      h[i].letter ? h[i].letter : '-',
			      (unsigned long long)h[i].report_line,
			      h[i].text_len);
}

/* got[] is want[]; else fail, naming @what. */
static void check(const char *what)
{
	bool same = got.n == nwant;

	for (size_t i = 0; same && i < nwant; i++) {
		const struct hit *h = &got.h[i], *w = &want[i];

		same = h->kind == w->kind && h->line == w->line &&
		       h->mask == w->mask && h->tainted == w->tainted &&
		       h->lines == w->lines && h->letter == w->letter &&
		       h->report_line == w->report_line &&
		       h->text_len == w->text_len;
	}
	if (same)
		return;
	print_hits("want", want, nwant);
	print_hits("got ", got.h, got.n);
	fail_msg("%s: %zu hits, want %zu (above)", what, got.n, nwant);
}

/* ---- the paths -------------------------------------------------------- */

enum path {
	MAPPED, READ, GZIP, PIPE_LINES, FEED, FEED_LINES,
	/* test_records only */
	READ_LINES, PIPE_BLOCKS, GZIP_PIPE,
	NPATHS
};
#define NPATHS_ROUNDS READ_LINES	/* those of every offset */

static const char *const path_names[NPATHS] = {
	"mapped file", "file read()", "gzip file",
	"pipe in line mode, reads ending at the places",
	"feed(), cut at the places", "feed_lines(), cut at the places",
	"file in line mode", "pipe in blocks", "gzip pipe in line mode",
};

#define SCAN_FLAGS (TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS)

static int scan_fd(int fd, unsigned int flags)
{
	const struct taint_scan_opts o = { .size = sizeof(o),
					   .flags = SCAN_FLAGS | flags,
					   .hit = collect };

	memset(&got, 0, sizeof(got));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return taint_scan_fd_opts(fd, &o, NULL);
}

/* The writer of a pipe, a thread: @n bytes at @p, each of @cuts
 * (ascending) the end of a read of the reader. */
struct writer {
	int wfd, rfd;
	const char *p;
	size_t n;
	const size_t *cuts;
	size_t ncuts;
	const char *err;
};

static void *write_pipe(void *arg)
{
	struct writer *w = arg;
	size_t off = 0;

	for (size_t c = 0; c <= w->ncuts && !w->err; c++) {
		size_t end = c < w->ncuts ? w->cuts[c] : w->n;
		int avail = 1;

		while (off < end && !w->err) {
			ssize_t k = write(w->wfd, w->p + off, end - off);

			if (k <= 0)
				w->err = "write() failed";
			else
				off += (size_t)k;
		}
		if (c == w->ncuts || w->err)
			break;
		/* until the reader has taken it all: at most 10 s */
		for (int i = 0; i < 10000 && avail; i++) {
			if (ioctl(w->rfd, FIONREAD, &avail))
				w->err = "FIONREAD failed";
			else if (avail)
				usleep(1000);
		}
		if (avail && !w->err)
			w->err = "the reader did not take the data within 10 s";
	}
	close(w->wfd);
	return NULL;
}

/* Scan @n bytes at @p through a pipe, with @flags. */
static int scan_pipe(const void *p, size_t n, unsigned int flags,
		     const size_t *cuts, size_t ncuts)
{
	const struct taint_scan_opts o = { .size = sizeof(o),
					   .flags = SCAN_FLAGS | flags,
					   .hit = collect };
	struct writer w = { .p = p, .n = n, .cuts = cuts, .ncuts = ncuts };
	int fds[2], ret;
	pthread_t t;

	assert_int_equal(pipe(fds), 0);
	w.rfd = fds[0];
	w.wfd = fds[1];
	assert_int_equal(pthread_create(&t, NULL, write_pipe, &w), 0);
	memset(&got, 0, sizeof(got));
	ret = taint_scan_fd_opts(fds[0], &o, NULL);
	assert_int_equal(pthread_join(t, NULL), 0);
	close(fds[0]);
	if (w.err)
		fail_msg("the pipe's writer: %s", w.err);
	return ret;
}

/* The gzip file's bytes through a pipe. */
static int scan_gzip_pipe(void)
{
	struct stat st;
	char *z;
	int ret;

	assert_int_equal(fstat(gz_fd, &st), 0);
	z = malloc((size_t)st.st_size);
	assert_non_null(z);
	assert_int_equal(pread(gz_fd, z, (size_t)st.st_size, 0), st.st_size);
	ret = scan_pipe(z, (size_t)st.st_size, 0, NULL, 0);
	free(z);
	return ret;
}

/* feed() or feed_lines() the stream, in pieces that end at each of @cuts. */
static int scan_feed(bool lines, const size_t *cuts, size_t ncuts)
{
	struct taint_scanner *sc = taint_scanner_new();
	size_t off = 0;
	int ret = 0;

	assert_non_null(sc);
	taint_scanner_set_flags(sc, SCAN_FLAGS);
	memset(&got, 0, sizeof(got));
	for (size_t c = 0; c <= ncuts && !ret; c++) {
		size_t end = c < ncuts ? cuts[c] : stream_len;

		ret = lines ? taint_scanner_feed_lines(sc, stream + off,
						       end - off, collect,
						       NULL) :
			      taint_scanner_feed(sc, stream + off, end - off,
						 collect, NULL);
		off = end;
	}
	if (!ret)
		ret = taint_scanner_finish(sc, collect, NULL);
	taint_scanner_free(sc);
	return ret;
}

/* Scan the stream through @path; the places in it are its cuts. */
static int scan_path(enum path path)
{
	size_t ncuts = 0;

	while (ncuts < NPLACES && places[ncuts] < stream_len)
		ncuts++;
	switch (path) {
	case MAPPED:		return scan_fd(plain_fd, 0);
	case READ:		return scan_fd(plain_fd, TAINT_SCAN_NOMAP);
	case GZIP:		return scan_fd(gz_fd, 0);
	case PIPE_LINES:
		return scan_pipe(stream, stream_len, 0, places, ncuts);
	case FEED:		return scan_feed(false, places, ncuts);
	case FEED_LINES:	return scan_feed(true, places, ncuts);
	case READ_LINES:	return scan_fd(plain_fd, TAINT_SCAN_LINES);
	case PIPE_BLOCKS:
		return scan_pipe(stream, stream_len, TAINT_SCAN_BLOCKS, NULL,
				 0);
	case GZIP_PIPE:		return scan_gzip_pipe();
	case NPATHS:		break;
	}
	return -EINVAL;
}

/* Scan the stream through the first @npaths paths, check each. */
static void scan_paths(int npaths, const char *what)
{
	char msg[256];

	for (int p = 0; p < npaths; p++) {
		int ret = scan_path(p);

		snprintf(msg, sizeof(msg), "%s, %s", what, path_names[p]);
		if (ret)
			fail_msg("%s: error %d", msg, ret);
		check(msg);
	}
}

/*
 * @rec at every offset from wholly before each place (and HIST bytes
 * more) to AFTER bytes after it, at all places at once, one offset a
 * stream, through every path.
 */
static void at_every_offset(const struct record *rec)
{
	long len = (long)strlen(rec->text);
	char what[200];

	for (long d = -(len + (long)HIST); d <= AFTER; d++) {
		size_t at[NPLACES];

		for (int i = 0; i < NPLACES; i++)
			at[i] = (size_t)((long)places[i] + d);
		put_records(STREAM, rec, at, NPLACES);
		snprintf(what, sizeof(what),
			 "%s at %+ld from %s (%zu), %s (%zu), %s (%zu) and %s (%zu)",
			 rec->name, d, place_names[0], places[0],
			 place_names[1], places[1], place_names[2], places[2],
			 place_names[3], places[3]);
		scan_paths(NPATHS_ROUNDS, what);
	}
}

/* ---- the tests -------------------------------------------------------- */

/* The event hits: where each one's text was in the scanner's buffer. */
static const char *event_text[2];
static size_t nevents;

static int text_of_events(const struct taint_hit *h, void *arg)
{
	(void)arg;
	if (h->kind == TAINT_HIT_EVENT && nevents < N(event_text))
		event_text[nevents++] = h->text;
	return 0;
}

/*
 * The rounds end where this test puts the records.  An event's text
 * points into the scanner's buffer: an event early in the stream tells
 * where the buffer is, and a second one, whose 'T' is at @at, the stream
 * offset @base that the buffer starts at in the round that handled it (0
 * in the first round, the limit before - HIST in the next).  Fed a byte
 * at a time around the end of the look-ahead, that round comes with the
 * byte that fills the buffer, @full.
 */
static void test_limits(void **state)
{
	static const struct { size_t at, base, full; } cases[] = {
		{ LIMIT1 - 1, 0, LIMIT1 + KEEP },
		{ LIMIT1, LIMIT1 - HIST, LIMIT2 + KEEP },
		{ LIMIT2 - 1, LIMIT1 - HIST, LIMIT2 + KEEP },
		{ LIMIT2, LIMIT2 - HIST, STREAM },
	};
	static const char ev[] = "\n" EV_U "\n";

	(void)state;
	stream_len = 0;		/* put_records(): any byte of the stream changes */
	for (size_t i = 0; i < N(cases); i++) {
		struct taint_scanner *sc = taint_scanner_new();
		size_t at = cases[i].at, full = cases[i].full;
		ptrdiff_t base;

		assert_non_null(sc);
		taint_scanner_set_flags(sc, TAINT_SCAN_EVENTS);
		memcpy(stream, filler, STREAM);
		memcpy(stream + 100, ev, sizeof(ev) - 1);
		memcpy(stream + at - 1, ev, sizeof(ev) - 1);
		nevents = 0;
		/* all but the byte that fills the buffer: no round yet */
		assert_int_equal(taint_scanner_feed(sc, stream, full - 1,
						    text_of_events, NULL), 0);
		if (nevents == 2)
			fail_msg("the event at %zu came before byte %zu filled the scanner's buffer: lib/scanner.c's rounds (SCAN_CHUNK, SCAN_KEEP, SCAN_HIST) are not this test's",
				 at, full);
		assert_int_equal(taint_scanner_feed(sc, stream + full - 1,
						    STREAM - (full - 1),
						    text_of_events, NULL), 0);
		if (full == STREAM)
			assert_int_equal(taint_scanner_finish(sc,
							      text_of_events,
							      NULL), 0);
		taint_scanner_free(sc);
		assert_int_equal(nevents, 2);
		/* the first one's 'T' at 101, in the first round */
		base = (ptrdiff_t)at - (event_text[1] - (event_text[0] - 101));
		if (base != (ptrdiff_t)cases[i].base)
			fail_msg("the event at %zu was handled by a round whose buffer starts at %td, not %zu: lib/scanner.c's rounds (SCAN_CHUNK, SCAN_KEEP, SCAN_HIST) are not this test's",
				 at, base, cases[i].base);
	}
}

/* Each record alone, in a short stream (one round), through every path:
 * its hits. */
static void test_records(void **state)
{
	(void)state;
	for (size_t r = 0; r < N(records); r++) {
		size_t at = 1000;
		char what[160];

		put_records(4096, &records[r], &at, 1);
		snprintf(what, sizeof(what), "%s, alone", records[r].name);
		scan_paths(NPATHS, what);
	}
}

#define RECORD_TEST(i, name) \
	static void test_##name(void **state) \
	{ \
		(void)state; \
		at_every_offset(&records[i]); \
	}
RECORD_TEST(0, field_and_event)
RECORD_TEST(1, not_tainted)
RECORD_TEST(2, not_tainted_nbsp)
RECORD_TEST(3, verbose_two_lines)
RECORD_TEST(4, json_field)
RECORD_TEST(5, boot_and_event)
RECORD_TEST(6, boot_separator)
RECORD_TEST(7, report_warning)
RECORD_TEST(8, report_kernel_bug)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_field_and_event),
		cmocka_unit_test(test_not_tainted),
		cmocka_unit_test(test_not_tainted_nbsp),
		cmocka_unit_test(test_verbose_two_lines),
		cmocka_unit_test(test_json_field),
		cmocka_unit_test(test_boot_and_event),
		cmocka_unit_test(test_boot_separator),
		cmocka_unit_test(test_report_warning),
		cmocka_unit_test(test_report_kernel_bug),
	};

	return cmocka_run_group_tests_name("scan_rounds", tests, setup,
					   teardown);
}
