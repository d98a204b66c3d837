// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source.c - the scanner's input: plain or compressed, from any descriptor.
 *
 * The format is told by the first bytes, never by a file name, so a
 * compressed log on standard input works too:
 *   gzip  1f 8b                (zlib; concatenated members, NUL padding)
 *   xz    fd 37 7a 58 5a 00    (liblzma; concatenated streams, padding)
 *   zstd  28 b5 2f fd          (libzstd; concatenated frames)
 *   bzip2 "BZh" and 1-9        (libbz2; concatenated streams)
 *   lz4   04 22 4d 18          (liblz4, frame format; concatenated frames)
 * These are recognized and refused (-ENOTSUP, "compressed with lzo, not
 * supported ..."), never read as plain text with no hit in it:
 *   lz4 legacy 02 21 4c 18     (lz4 -l, the format of kernel images)
 *   lzo   89 "LZO" 00 0d 0a 1a 0a (lzop)
 *   lzma  5d 00 00             (LZMA-alone, lzma -z / xz --format=lzma)
 *   compress 1f 9d             (compress(1), .Z)
 * Anything else is plain text.  Corrupt or truncated compressed data is an
 * error (-EBADMSG and a description), returned only after the data decoded
 * before it, so the caller reports the hits found so far first.
 *
 * A format whose library headers were not there at build time is detected
 * all the same and reported as not supported (-ENOTSUP).
 *
 * Then the text's encoding (encoding.c), told by the first bytes of the
 * plain or decompressed data: a UTF-8 byte order mark is dropped, UTF-16
 * (LE or BE, with or without a byte order mark) is transcoded to UTF-8 as
 * it streams (tin, tout below), and UTF-32 is refused (-ENOTSUP, "UTF-32LE
 * text, not supported ..."), so a log saved by a Windows tool is read as
 * the same log in UTF-8 would be, never as bytes with a NUL after each
 * character in which nothing is found.  A mapped file is told the same
 * way (taint__source_map()); only UTF-16 and UTF-32 leave the mapped path.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "encoding_internal.h"
#include "source_internal.h"

/* HAVE_<lib>: 1 if the library's headers were there at build time, else 0 */
#if defined(__has_include)
#if __has_include(<zlib.h>)
#define HAVE_ZLIB 1
#include <zlib.h>
#endif
#if __has_include(<lzma.h>)
#define HAVE_LZMA 1
#include <lzma.h>
#endif
#if __has_include(<zstd.h>)
#define HAVE_ZSTD 1
#include <zstd.h>
#include <zstd_errors.h>
#endif
#if __has_include(<bzlib.h>)
#define HAVE_BZ2 1
#include <bzlib.h>
#endif
#if __has_include(<lz4frame.h>)
#define HAVE_LZ4 1
#include <lz4frame.h>
#endif
#else
#define HAVE_ZLIB 1
#include <zlib.h>
#define HAVE_LZMA 1
#include <lzma.h>
#define HAVE_ZSTD 1
#include <zstd.h>
#include <zstd_errors.h>
#define HAVE_BZ2 1
#include <bzlib.h>
#define HAVE_LZ4 1
#include <lz4frame.h>
#endif
#ifndef HAVE_ZLIB
#define HAVE_ZLIB 0
#endif
#ifndef HAVE_LZMA
#define HAVE_LZMA 0
#endif
#ifndef HAVE_ZSTD
#define HAVE_ZSTD 0
#endif
#ifndef HAVE_BZ2
#define HAVE_BZ2 0
#endif
#ifndef HAVE_LZ4
#define HAVE_LZ4 0
#endif
#include <limits.h>

#define IN_CAP (256 * 1024)

/* Decoder step results (besides negative errnos). */
enum { STEP_OK = 0, STEP_END = 1 };

/*
 * A format of the table: what taint_compression_info() hands out, then how
 * it is told and read.  A format libtaint reads has its decoder when its
 * library was there at build time (info.readable), none otherwise; one it
 * never reads (@never) is only told from plain text, and refused.
 */
struct codec {
	struct taint_compression_info info;
	/* NULL, or the bytes one of which must follow the magic */
	const char *next;
	bool never;
	int (*init)(struct taint__source *src);
	/*
	 * Decode src->in[in_pos..in_len) into out[*op..cap).  @finish: no
	 * more input will come.  Returns STEP_OK, STEP_END (the data may end
	 * here: a member, stream or frame is complete), or a negative errno
	 * with src->error set.
	 */
	int (*step)(struct taint__source *src, char *out, size_t cap,
		    size_t *op, bool finish);
	void (*end)(struct taint__source *src);
};

static int data_error(struct taint__source *src, const char *what,
		      const char *detail)
{
	snprintf(src->errbuf, sizeof(src->errbuf), "%s %s data%s%s",
		 what, taint_compression_name(src->compression),
		 detail ? ": " : "", detail ? detail : "");
	src->error = src->errbuf;
	return -EBADMSG;
}

/* ---- gzip (zlib) ------------------------------------------------------- */
#if HAVE_ZLIB
static int gz_init(struct taint__source *src)
{
	z_stream *z = calloc(1, sizeof(*z));

	if (!z)
		return -ENOMEM;
	if (inflateInit2(z, 15 + 16) != Z_OK) {	/* gzip wrapper only */
		free(z);
		return -ENOMEM;
	}
	src->dec = z;
	return 0;
}

static int gz_step(struct taint__source *src, char *out, size_t cap,
		   size_t *op, bool finish)
{
	z_stream *z = src->dec;
	int r;

	(void)finish;
	if (src->ended) {
		/* after a member: NUL padding, or the next member */
		while (src->in_pos < src->in_len && !src->in[src->in_pos])
			src->in_pos++;
		if (src->in_pos == src->in_len)
			return STEP_END;
		if (src->in[src->in_pos] != 0x1f)
			return data_error(src, "trailing garbage after",
					  NULL);
		inflateReset(z);
	}
	z->next_in = src->in + src->in_pos;
	z->avail_in = (uInt)(src->in_len - src->in_pos);
	z->next_out = (Bytef *)out + *op;
	z->avail_out = (uInt)(cap - *op);
	r = inflate(z, Z_NO_FLUSH);
	src->in_pos = src->in_len - z->avail_in;
	*op = cap - z->avail_out;
	switch (r) {
	case Z_STREAM_END:
		return STEP_END;
	case Z_OK:
	case Z_BUF_ERROR:	/* no progress possible: the caller decides */
		return STEP_OK;
	case Z_MEM_ERROR:
		return -ENOMEM;
	default:
		return data_error(src, "corrupt", z->msg ? z->msg : "bad data");
	}
}

static void gz_end(struct taint__source *src)
{
	inflateEnd(src->dec);
	free(src->dec);
}
#endif

/* ---- xz (liblzma) ------------------------------------------------------ */
#if HAVE_LZMA
static int xz_init(struct taint__source *src)
{
	lzma_stream *x = malloc(sizeof(*x));
	lzma_stream init = LZMA_STREAM_INIT;

	if (!x)
		return -ENOMEM;
	*x = init;
	if (lzma_stream_decoder(x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		free(x);
		return -ENOMEM;
	}
	src->dec = x;
	return 0;
}

static const char *xz_message(lzma_ret r)
{
	switch (r) {
	case LZMA_FORMAT_ERROR:
		return "file format not recognized";
	case LZMA_OPTIONS_ERROR:
		return "unsupported compression options";
	case LZMA_DATA_ERROR:
		return "compressed data is corrupt";
	case LZMA_UNSUPPORTED_CHECK:
		return "unsupported integrity check";
	case LZMA_MEMLIMIT_ERROR:
		return "memory usage limit reached";
	default:
		return "decoder error";
	}
}

static int xz_step(struct taint__source *src, char *out, size_t cap,
		   size_t *op, bool finish)
{
	lzma_stream *x = src->dec;
	lzma_ret r;

	x->next_in = src->in + src->in_pos;
	x->avail_in = src->in_len - src->in_pos;
	x->next_out = (uint8_t *)out + *op;
	x->avail_out = cap - *op;
	r = lzma_code(x, finish ? LZMA_FINISH : LZMA_RUN);
	src->in_pos = src->in_len - x->avail_in;
	*op = cap - x->avail_out;
	switch (r) {
	case LZMA_STREAM_END:
		return STEP_END;
	case LZMA_OK:
	case LZMA_BUF_ERROR:	/* no progress possible: the caller decides */
		return STEP_OK;
	case LZMA_MEM_ERROR:
		return -ENOMEM;
	default:
		return data_error(src, "corrupt", xz_message(r));
	}
}

static void xz_end(struct taint__source *src)
{
	lzma_end(src->dec);
	free(src->dec);
}
#endif

/* ---- zstd (libzstd) ---------------------------------------------------- */
#if HAVE_ZSTD
static int zs_init(struct taint__source *src)
{
	ZSTD_DStream *d = ZSTD_createDStream();

	if (!d)
		return -ENOMEM;
	if (ZSTD_isError(ZSTD_initDStream(d))) {
		ZSTD_freeDStream(d);
		return -ENOMEM;
	}
	src->dec = d;
	return 0;
}

static int zs_step(struct taint__source *src, char *out, size_t cap,
		   size_t *op, bool finish)
{
	ZSTD_inBuffer ib = { src->in, src->in_len, src->in_pos };
	ZSTD_outBuffer ob = { out, cap, *op };
	size_t r;

	(void)finish;
	r = ZSTD_decompressStream(src->dec, &ob, &ib);
	src->in_pos = ib.pos;
	*op = ob.pos;
	if (ZSTD_isError(r)) {
		if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
			return -ENOMEM;
		return data_error(src, "corrupt", ZSTD_getErrorName(r));
	}
	/* 0: a frame is complete and flushed */
	return r == 0 ? STEP_END : STEP_OK;
}

static void zs_end(struct taint__source *src)
{
	ZSTD_freeDStream(src->dec);
}
#endif

/* ---- bzip2 (libbz2) ---------------------------------------------------- */
#if HAVE_BZ2
static int bz_init(struct taint__source *src)
{
	bz_stream *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	if (BZ2_bzDecompressInit(b, 0, 0) != BZ_OK) {
		free(b);
		return -ENOMEM;
	}
	src->dec = b;
	return 0;
}

static int bz_step(struct taint__source *src, char *out, size_t cap,
		   size_t *op, bool finish)
{
	bz_stream *b = src->dec;
	size_t avail_out = cap - *op;
	int r;

	(void)finish;
	if (src->ended) {
		/* after a stream: the next one, nothing else */
		if (src->in_pos == src->in_len)
			return STEP_END;
		if (src->in[src->in_pos] != 'B')
			return data_error(src, "trailing garbage after",
					  NULL);
		BZ2_bzDecompressEnd(b);
		memset(b, 0, sizeof(*b));
		if (BZ2_bzDecompressInit(b, 0, 0) != BZ_OK)
			return -ENOMEM;
	}
	if (avail_out > UINT_MAX)
		avail_out = UINT_MAX;
	b->next_in = (char *)src->in + src->in_pos;
	b->avail_in = (unsigned int)(src->in_len - src->in_pos);
	b->next_out = out + *op;
	b->avail_out = (unsigned int)avail_out;
	r = BZ2_bzDecompress(b);
	src->in_pos = src->in_len - b->avail_in;
	*op += avail_out - b->avail_out;
	switch (r) {
	case BZ_STREAM_END:
		return STEP_END;
	case BZ_OK:
		return STEP_OK;
	case BZ_MEM_ERROR:
		return -ENOMEM;
	case BZ_DATA_ERROR_MAGIC:
		return data_error(src, "corrupt", "bad stream header");
	default:
		return data_error(src, "corrupt", "block checksum or data error");
	}
}

static void bz_end(struct taint__source *src)
{
	BZ2_bzDecompressEnd(src->dec);
	free(src->dec);
}
#endif

/* ---- lz4 frame format (liblz4) ----------------------------------------- */
#if HAVE_LZ4
static int lz_init(struct taint__source *src)
{
	LZ4F_dctx *d;

	if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
		return -ENOMEM;
	src->dec = d;
	return 0;
}

static int lz_step(struct taint__source *src, char *out, size_t cap,
		   size_t *op, bool finish)
{
	size_t in_n = src->in_len - src->in_pos, out_n = cap - *op, r;

	(void)finish;
	/* after a frame: the decoder starts the next one itself */
	r = LZ4F_decompress(src->dec, out + *op, &out_n, src->in + src->in_pos,
			    &in_n, NULL);
	src->in_pos += in_n;
	*op += out_n;
	/* (the error codes are liblz4's static-only API: by name) */
	if (LZ4F_isError(r))
		return data_error(src, "corrupt", LZ4F_getErrorName(r));
	/* 0: a frame is complete and flushed */
	return r == 0 ? STEP_END : STEP_OK;
}

static void lz_end(struct taint__source *src)
{
	LZ4F_freeDecompressionContext(src->dec);
}
#endif

/* a format's decoder, if its library was there at build time */
#if HAVE_ZLIB
#define GZ_DECODER gz_init, gz_step, gz_end
#else
#define GZ_DECODER NULL, NULL, NULL
#endif
#if HAVE_LZMA
#define XZ_DECODER xz_init, xz_step, xz_end
#else
#define XZ_DECODER NULL, NULL, NULL
#endif
#if HAVE_ZSTD
#define ZS_DECODER zs_init, zs_step, zs_end
#else
#define ZS_DECODER NULL, NULL, NULL
#endif
#if HAVE_BZ2
#define BZ_DECODER bz_init, bz_step, bz_end
#else
#define BZ_DECODER NULL, NULL, NULL
#endif
#if HAVE_LZ4
#define LZ_DECODER lz_init, lz_step, lz_end
#else
#define LZ_DECODER NULL, NULL, NULL
#endif
#define NO_DECODER NULL, NULL, NULL
/* a string literal's bytes and their number (a \0 in it included) */
#define MAGIC(s) s, sizeof(s) - 1

/*
 * The one table of the formats (taint.h, taint_compression_info()), in
 * the order of enum taint_compression: the decompressor reads by it, the
 * crash dump reader names a compressed dump by it (vmcore_dump.c), and
 * taintctl's help lists it; tests/man_test.sh checks that the man page
 * and the help name every format it reads.
 */
static const struct codec codecs[] = {
	{ { TAINT_COMPRESSION_GZIP, "gzip", MAGIC("\x1f\x8b"), HAVE_ZLIB,
	    "gzip -dc" }, NULL, false, GZ_DECODER },
	{ { TAINT_COMPRESSION_XZ, "xz", MAGIC("\xfd" "7zXZ\0"), HAVE_LZMA,
	    "xz -dc" }, NULL, false, XZ_DECODER },
	{ { TAINT_COMPRESSION_ZSTD, "zstd", MAGIC("\x28\xb5\x2f\xfd"),
	    HAVE_ZSTD, "zstd -dc" }, NULL, false, ZS_DECODER },
	{ { TAINT_COMPRESSION_BZIP2, "bzip2", MAGIC("BZh"), HAVE_BZ2,
	    "bzip2 -dc" }, "123456789", false, BZ_DECODER },
	{ { TAINT_COMPRESSION_LZ4, "lz4", MAGIC("\x04\x22\x4d\x18"), HAVE_LZ4,
	    "lz4 -dc" }, NULL, false, LZ_DECODER },
	/* recognized, never read */
	{ { TAINT_COMPRESSION_LZ4_LEGACY, "lz4-legacy",
	    MAGIC("\x02\x21\x4c\x18"), false, "lz4 -dc" }, NULL, true,
	  NO_DECODER },
	{ { TAINT_COMPRESSION_LZO, "lzo", MAGIC("\x89LZO\0\r\n\x1a\n"), false,
	    "lzop -dc" }, NULL, true, NO_DECODER },
	{ { TAINT_COMPRESSION_LZMA, "lzma", MAGIC("\x5d\0\0"), false,
	    "xz -dc" }, NULL, true, NO_DECODER },
	{ { TAINT_COMPRESSION_COMPRESS, "compress", MAGIC("\x1f\x9d"), false,
	    "gzip -dc" }, NULL, true, NO_DECODER },
};
#define NCODECS (sizeof(codecs) / sizeof(codecs[0]))

static const struct codec *codec_by_id(enum taint_compression c)
{
	for (size_t i = 0; i < NCODECS; i++)
		if (codecs[i].info.id == c)
			return &codecs[i];
	return NULL;
}

const char *taint_compression_name(enum taint_compression c)
{
	const struct codec *k = codec_by_id(c);

	return k ? k->info.name : "none";
}

const struct taint_compression_info *
taint_compression_info(enum taint_compression c)
{
	const struct codec *k = codec_by_id(c);

	return k ? &k->info : NULL;
}

static const struct codec *codec_of(const struct taint__source *src)
{
	return codec_by_id(src->compression);
}

/*
 * The codec whose magic @buf (@n bytes) starts with; NULL for plain data.
 * *@undecided is set if @buf is a proper prefix of some magic.
 */
static const struct codec *detect(const char *buf, size_t n, bool *undecided)
{
	*undecided = false;
	for (size_t i = 0; i < NCODECS; i++) {
		const struct codec *c = &codecs[i];
		size_t m = c->info.magic_len < n ? c->info.magic_len : n;

		if (memcmp(buf, c->info.magic, m))
			continue;
		if (n < c->info.magic_len + !!c->next)
			*undecided = true;
		else if (!c->next || (buf[m] && strchr(c->next, buf[m])))
			return c;
	}
	return NULL;
}

const struct taint_compression_info *taint__compression_of(const void *buf,
							    size_t n)
{
	bool undecided;
	const struct codec *c = detect(buf, n, &undecided);

	return c ? &c->info : NULL;
}

static ssize_t read_retry(int fd, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/* UTF-32: refused, named (nothing in it would be found) */
static int utf32_refused(struct taint__source *src, enum taint__encoding e)
{
	snprintf(src->errbuf, sizeof(src->errbuf),
		 "%s text, not supported (convert it first: iconv -f UTF-32 -t UTF-8)",
		 taint__encoding_name(e));
	src->error = src->errbuf;
	return -ENOTSUP;
}

/*
 * Set the encoding @e of the data whose first @n bytes are at @p (the
 * byte order mark @bom bytes long): UTF-16's go to src->tin, to be
 * transcoded, unless they are there already (decompressed data), where
 * the byte order mark is skipped.  Returns 0 or a negative errno.
 */
static int set_encoding(struct taint__source *src, enum taint__encoding e,
			size_t bom, const void *p, size_t n)
{
	src->enc = e;
	src->enc_known = true;
	if (e == TAINT__ENC_UTF32LE || e == TAINT__ENC_UTF32BE)
		return utf32_refused(src, e);
	if ((e == TAINT__ENC_UTF16LE || e == TAINT__ENC_UTF16BE) &&
	    !src->tin) {
		src->tin_cap = n > IN_CAP ? n : IN_CAP;
		src->tin = malloc(src->tin_cap);
		if (!src->tin)
			return -ENOMEM;
		memcpy(src->tin, p, n);
		src->tin_len = n;
	}
	src->tin_pos = bom;
	return 0;
}

/*
 * Plain data, @n bytes in @buf: read on while its encoding is undecided
 * (a few bytes), then keep it there (*@got; a UTF-8 byte order mark
 * dropped) or move UTF-16 to the transcoder (*@got = 0).
 */
static int plain_encoding(struct taint__source *src, char *buf, size_t cap,
			  size_t n, size_t *got)
{
	enum taint__encoding e;
	bool undecided;
	size_t bom;

	e = taint__encoding_detect(buf, n, &bom, &undecided);
	while (undecided && !src->eof && n < cap) {
		ssize_t r = read_retry(src->fd, buf + n, cap - n);

		if (r < 0)
			return (int)r;
		if (r == 0)
			src->eof = true;
		n += (size_t)r;
		e = taint__encoding_detect(buf, n, &bom, &undecided);
	}
	if (e == TAINT__ENC_PLAIN || e == TAINT__ENC_UTF8_BOM) {
		memmove(buf, buf + bom, n - bom);
		*got = n - bom;
		src->enc = e;
		src->enc_known = true;
		return 0;
	}
	return set_encoding(src, e, bom, buf, n);
}

int taint__source_open(struct taint__source *src, int fd, bool raw,
		       const void *pre, size_t pre_len, char *buf, size_t cap,
		       size_t *got)
{
	const struct codec *c = NULL;
	size_t n = 0;
	bool undecided = true;
	int ret;

	memset(src, 0, sizeof(*src));
	src->fd = fd;
	*got = 0;
	if (pre_len > cap)
		return -EINVAL;
	if (pre_len) {
		memcpy(buf, pre, pre_len);
		n = pre_len;
		if (!raw)
			c = detect(buf, n, &undecided);
	}
	while (undecided && n < cap) {
		ssize_t r = read_retry(fd, buf + n, cap - n);

		if (r < 0)
			return (int)r;
		if (r == 0) {
			src->eof = true;
			break;
		}
		n += (size_t)r;
		if (raw)
			break;
		c = detect(buf, n, &undecided);
	}
	if (raw) {
		src->enc_known = true;
		*got = n;
		return 0;
	}
	if (!c)
		return plain_encoding(src, buf, cap, n, got);
	src->compression = c->info.id;
	if (c->never) {
		snprintf(src->errbuf, sizeof(src->errbuf),
			 "compressed with %s, not supported (decompress it first: %s)",
			 c->info.name, c->info.tool);
		src->error = src->errbuf;
		return -ENOTSUP;
	}
	if (!c->init) {
		snprintf(src->errbuf, sizeof(src->errbuf),
			 "%s data, but this build has no %s support (decompress it first: %s)",
			 c->info.name, c->info.name, c->info.tool);
		src->error = src->errbuf;
		return -ENOTSUP;
	}
	src->in_cap = n > IN_CAP ? n : IN_CAP;
	src->in = malloc(src->in_cap);
	if (!src->in)
		return -ENOMEM;
	memcpy(src->in, buf, n);
	src->in_len = n;
	ret = c->init(src);
	if (ret) {
		free(src->in);
		src->in = NULL;
	}
	return ret;
}

static ssize_t plain_read(struct taint__source *src, char *out, size_t cap,
			  bool fill)
{
	size_t op = 0;

	while (op < cap && !src->eof) {
		ssize_t r = read_retry(src->fd, out + op, cap - op);

		if (r < 0) {
			if (!op)
				return r;
			src->pending = (int)r;
			break;
		}
		if (r == 0)
			src->eof = true;
		op += (size_t)r;
		if (!fill)
			break;
	}
	return (ssize_t)op;
}

static ssize_t codec_read(struct taint__source *src, const struct codec *c,
			  char *out, size_t cap, bool fill)
{
	size_t op = 0;
	int r = 0;

	while (op < cap) {
		bool have_in = src->in_pos < src->in_len;
		bool finish = !have_in && src->eof;
		size_t in0 = src->in_pos, op0 = op;

		if (!have_in && !src->eof && !src->drain) {
			ssize_t n;

			/* line mode: hand out what we have before blocking */
			if (op && !fill)
				break;
			n = read_retry(src->fd, src->in, src->in_cap);
			if (n < 0) {
				r = (int)n;
				goto fail;
			}
			src->in_pos = 0;
			src->in_len = (size_t)n;
			src->eof = n == 0;
			continue;
		}
		if (finish && src->ended)
			break;
		r = c->step(src, out, cap, &op, finish);
		if (r < 0)
			goto fail;
		if (r == STEP_END)
			src->ended = true;
		else if (src->in_pos != in0 || op != op0)
			src->ended = false;
		/* output full: the decoder may hold more without new input */
		src->drain = op == cap;
		if (src->in_pos == in0 && op == op0 && r != STEP_END) {
			src->drain = false;
			if (finish) {
				r = data_error(src, "truncated",
					       "unexpected end of input");
				goto fail;
			}
			if (have_in) {
				r = data_error(src, "corrupt", "decoder stuck");
				goto fail;
			}
		}
	}
	return (ssize_t)op;
fail:
	src->pending = r;
	return op ? (ssize_t)op : r;
}

/* the data under the encoding: plain or decompressed bytes */
static ssize_t data_read(struct taint__source *src, const struct codec *c,
			 char *out, size_t cap, bool fill)
{
	if (!c)
		return plain_read(src, out, cap, fill);
	return codec_read(src, c, out, cap, fill);
}

/* One read of the data under the transcoder into src->tin: its end, or an
 * error kept for after what was read (src->pending). */
static void tin_fill(struct taint__source *src, const struct codec *c)
{
	ssize_t n = data_read(src, c, (char *)src->tin + src->tin_len,
			      src->tin_cap - src->tin_len, false);

	if (n < 0)
		src->pending = (int)n;
	else if (n == 0)
		src->tin_end = true;
	else
		src->tin_len += (size_t)n;
}

/*
 * Decompressed data: its first bytes (a few are enough, the first read's
 * are kept) tell its encoding; they go to src->tin, handed out first.
 */
static int late_encoding(struct taint__source *src, const struct codec *c)
{
	enum taint__encoding e = TAINT__ENC_PLAIN;
	bool undecided = true;
	size_t bom = 0;

	src->enc_known = true;
	src->tin_cap = IN_CAP;
	src->tin = malloc(src->tin_cap);
	if (!src->tin)
		return -ENOMEM;
	while (undecided && !src->tin_end && !src->pending) {
		tin_fill(src, c);
		e = taint__encoding_detect(src->tin, src->tin_len, &bom,
					   &undecided);
	}
	return set_encoding(src, e, bom, NULL, 0);
}

/*
 * UTF-16 to UTF-8: what src->tin holds, then more of the data under it, as
 * taint__source_read() says (@fill; without it, what one read gave).
 */
static ssize_t utf16_read(struct taint__source *src, const struct codec *c,
			  char *out, size_t cap, bool fill)
{
	bool be = src->enc == TAINT__ENC_UTF16BE;
	size_t op = 0;

	for (;;) {
		while (src->tout_pos < src->tout_len && op < cap)
			out[op++] = src->tout[src->tout_pos++];
		if (op == cap)
			break;
		if (cap - op >= sizeof(src->tout)) {
			taint__utf16_decode(be, src->tin, src->tin_len,
					    &src->tin_pos, out, cap, &op,
					    src->tin_end);
		} else {	/* room for less than any character: one */
			src->tout_pos = src->tout_len = 0;
			taint__utf16_decode(be, src->tin, src->tin_len,
					    &src->tin_pos, src->tout,
					    sizeof(src->tout), &src->tout_len,
					    src->tin_end);
			if (src->tout_len)
				continue;
		}
		if (op == cap || src->tin_end || (op && !fill))
			break;
		if (src->pending) {
			if (!op)
				return src->pending;
			break;
		}
		/* what is left is part of a character: before the next read */
		memmove(src->tin, src->tin + src->tin_pos,
			src->tin_len - src->tin_pos);
		src->tin_len -= src->tin_pos;
		src->tin_pos = 0;
		tin_fill(src, c);
	}
	return (ssize_t)op;
}

ssize_t taint__source_read(struct taint__source *src, char *out, size_t cap,
			   bool fill)
{
	const struct codec *c = codec_of(src);

	if (!src->enc_known) {
		int r = late_encoding(src, c);

		if (r)
			return r;
	}
	if (src->enc == TAINT__ENC_UTF16LE || src->enc == TAINT__ENC_UTF16BE)
		return utf16_read(src, c, out, cap, fill);
	if (src->tin_pos < src->tin_len) {	/* read to tell the encoding */
		size_t n = src->tin_len - src->tin_pos;

		if (n > cap)
			n = cap;
		memcpy(out, src->tin + src->tin_pos, n);
		src->tin_pos += n;
		return (ssize_t)n;
	}
	if (src->pending)
		return src->pending;
	if (src->tin_end)
		return 0;
	return data_read(src, c, out, cap, fill);
}

void taint__source_close(struct taint__source *src)
{
	const struct codec *c = codec_of(src);

	if (c && src->dec && c->end)
		c->end(src);
	free(src->in);
	free(src->tin);
	src->in = NULL;
	src->tin = NULL;
	src->dec = NULL;
}

int taint_read_text(int fd, size_t max, char **text, size_t *text_len,
		    char *why, size_t why_size)
{
	struct taint__source src;
	size_t cap = max < 65536 ? max : 65536, len = 0;
	char *buf = malloc(cap + 1), *nb;
	ssize_t n;
	int ret;

	*text = NULL;
	*text_len = 0;
	if (why_size)
		why[0] = '\0';
	if (!buf)
		return -ENOMEM;
	ret = taint__source_open(&src, fd, false, NULL, 0, buf, cap, &len);
	while (!ret) {
		if (len == cap) {
			if (cap >= max) {
				/* full: one byte more is too much */
				char c;

				n = taint__source_read(&src, &c, 1, true);
				ret = n > 0 ? -EFBIG : (int)n;
				break;
			}
			cap = cap > max / 2 ? max : cap * 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = taint__source_read(&src, buf + len, cap - len, true);
		if (n <= 0) {
			ret = (int)n;
			break;
		}
		len += (size_t)n;
	}
	if (ret && src.error && why_size)
		snprintf(why, why_size, "%s", src.error);
	taint__source_close(&src);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	*text = buf;
	*text_len = len;
	return 0;
}

/* ---- a regular file, mapped (scanned in place, no copy) ---------------- */

/*
 * Filling the page tables of a mapping costs as much as the pass over its
 * bytes (a fault per 16 pages, in the kernel).  On a machine with more
 * than one CPU, a thread fills those of a large file ahead of the pass,
 * POPULATE_WINDOW bytes a call of madvise(MADV_POPULATE_READ) (Linux
 * 5.14), so that the pass finds them ready and both CPUs work.  It never
 * goes more than TAINT__POPULATE_LEAD past the pass (a file larger than
 * the memory is not read twice), it stops at the first error (a kernel
 * without MADV_POPULATE_READ, a file that shrank: the pass faults the
 * pages itself, as without it), and it touches no byte itself, so a
 * truncated file's SIGBUS comes, as without it, in the pass's thread.
 */
#define POPULATE_WINDOW (4u << 20)
#define POPULATE_MIN (32u << 20)
#define TAINT__POPULATE_LEAD (64u << 20)

static void *populate_ahead(void *arg)
{
	struct taint__map *m = arg;
	size_t off = POPULATE_WINDOW;

	while (off < m->map_len && !atomic_load(&m->stop)) {
		size_t n = m->map_len - off < POPULATE_WINDOW ?
			   m->map_len - off : POPULATE_WINDOW;

		if (off > atomic_load(&m->progress) + TAINT__POPULATE_LEAD) {
			const struct timespec ts = { 0, 1000 * 1000 };

			nanosleep(&ts, NULL);
			continue;
		}
#ifdef MADV_POPULATE_READ
		if (madvise((char *)m->base + off, n, MADV_POPULATE_READ))
			break;
#else
		break;
#endif
		off += n;
	}
	return NULL;
}

static void populate_start(struct taint__map *m)
{
	sigset_t all, old;

	atomic_init(&m->progress, 0);
	atomic_init(&m->stop, false);
	if (m->map_len < POPULATE_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	/* the thread takes no signal: they stay the caller's threads' */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	m->populating = !pthread_create(&m->populator, NULL, populate_ahead,
					m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void taint__source_progress(struct taint__map *m, size_t done)
{
	atomic_store_explicit(&m->progress, done, memory_order_relaxed);
}

int taint__source_map(struct taint__map *m, int fd, bool raw)
{
	struct stat st;
	bool undecided;
	size_t skip;
	off_t off;
	long page = sysconf(_SC_PAGESIZE);

	memset(m, 0, sizeof(*m));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || page <= 0)
		return 1;
	off = lseek(fd, 0, SEEK_CUR);
	if (off < 0 || off >= st.st_size ||
	    (uintmax_t)(st.st_size - off) >= SIZE_MAX - (uintmax_t)page)
		return 1;
	skip = (size_t)(off % page);
	m->map_len = (size_t)(st.st_size - off) + skip;
	m->base = mmap(NULL, m->map_len, PROT_READ, MAP_PRIVATE, fd,
		       off - (off_t)skip);
	if (m->base == MAP_FAILED)
		return 1;
	madvise(m->base, m->map_len, MADV_SEQUENTIAL);
	m->data = (const char *)m->base + skip;
	m->len = (size_t)(st.st_size - off);
	if (!raw) {
		enum taint__encoding e;
		size_t bom;

		/* compressed, UTF-16, UTF-32, or only a byte order mark */
		e = taint__encoding_detect(m->data, m->len, &bom, &undecided);
		if (detect(m->data, m->len < 16 ? m->len : 16, &undecided) ||
		    (e != TAINT__ENC_PLAIN && e != TAINT__ENC_UTF8_BOM) ||
		    bom == m->len) {
			munmap(m->base, m->map_len);
			return 1;
		}
		m->data += bom;
		m->len -= bom;
	}
	m->fd = fd;
	m->end = st.st_size;
	populate_start(m);
	return 0;
}

void taint__source_unmap(struct taint__map *m)
{
	if (m->populating) {
		atomic_store(&m->stop, true);
		pthread_join(m->populator, NULL);
	}
	munmap(m->base, m->map_len);
	lseek(m->fd, m->end, SEEK_SET);
}
