/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * source_internal.h - the scanner's input: a file descriptor, read as is or
 * decompressed (source.c's table of formats, taint_compression_info();
 * detected by magic bytes), UTF-16 text transcoded to UTF-8 and a byte
 * order mark dropped (encoding.c).  Not installed.
 */
#ifndef TAINT_SOURCE_INTERNAL_H
#define TAINT_SOURCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <sys/types.h>

#include "taint.h"

struct taint__source {
	int fd;
	enum taint_compression compression;
	bool eof;		/* read() returned 0 */
	bool ended;		/* the compressed data ends cleanly here */
	bool drain;		/* output was full: the decoder may hold more */
	int pending;		/* error to return by the next read */
	unsigned char *in;	/* compressed input */
	size_t in_pos, in_len, in_cap;
	void *dec;		/* the decoder's state */
	const char *error;	/* description of a data error, or NULL */
	char errbuf[160];
	/*
	 * The text's encoding (enum taint__encoding): told at open for
	 * plain data, at the first read for decompressed data.  @tin holds
	 * the bytes read to tell it (handed out as they are), or UTF-16 not
	 * yet transcoded; @tout a character that did not fit the caller's
	 * buffer.
	 */
	int enc;
	bool enc_known;
	bool tin_end;		/* the data under the transcoder has ended */
	unsigned char *tin;
	size_t tin_pos, tin_len, tin_cap;
	char tout[4];
	size_t tout_pos, tout_len;
};

/*
 * taint__source_open() - read the first bytes of @fd into @buf (@cap bytes)
 * and detect the format.  The stream starts with @pre_len bytes at @pre
 * (already read from @fd by the caller; at most @cap).  Plain data stays in @buf (*@got bytes); the first
 * bytes of compressed data, and of UTF-16 text, move to the source (*@got
 * = 0); a UTF-8 byte order mark is dropped.  Reads only as
 * many bytes as it needs to decide: a short first line from a terminal is
 * not held back.  With @raw, the bytes are the data: nothing is detected.
 * Returns 0 or a negative errno (src->error may say more): -ENOTSUP for a
 * format or an encoding (UTF-32) that is recognized and not read.
 */
int taint__source_open(struct taint__source *src, int fd, bool raw,
		       const void *pre, size_t pre_len, char *buf, size_t cap,
		       size_t *got);

/*
 * taint__compression_of() - the compressed format whose magic bytes the
 * @n bytes at @buf start with; NULL for anything else (plain data, or too
 * few bytes to tell).  For a reader that cannot decompress (a crash dump
 * is read in place) and says what the data is instead.
 */
const struct taint_compression_info *taint__compression_of(const void *buf,
							    size_t n);

/*
 * taint__source_read() - up to @cap bytes of (decompressed) data.  With
 * @fill, reads until @cap bytes or the end; without, returns as soon as one
 * read() of the input gave some data.  Returns the byte count, 0 at the end
 * of the data, or a negative errno: -EBADMSG for corrupt or truncated
 * compressed data (src->error says which), -ENOMEM, a read() error.  Data
 * decoded before an error is returned first; the error comes on the next
 * call.
 */
ssize_t taint__source_read(struct taint__source *src, char *out, size_t cap,
			   bool fill);

void taint__source_close(struct taint__source *src);

/* A regular file mapped into memory (the rest of it from the offset of
 * its descriptor). */
struct taint__map {
	int fd;
	void *base;
	size_t map_len;
	const char *data;	/* the bytes from the descriptor's offset */
	size_t len;
	off_t end;		/* the file's size when it was mapped */
	/*
	 * A large file's page tables are filled ahead of the pass by a
	 * second thread (MADV_POPULATE_READ), never more than
	 * TAINT__POPULATE_LEAD bytes past @progress, which the pass
	 * advances; see taint__source_map().
	 */
	_Atomic size_t progress;
	_Atomic bool stop;
	bool populating;
	pthread_t populator;
};

/*
 * taint__source_map() - map the rest of @fd if it is a non-empty regular
 * file of plain data (with @raw, of any data; a UTF-8 byte order mark is
 * skipped).  Returns 0, or 1 if it is not (compressed, UTF-16 or UTF-32,
 * empty, not a regular file, mmap() refused): read it.
 * A file that shrinks while it is mapped gives SIGBUS on the lost pages.
 */
int taint__source_map(struct taint__map *m, int fd, bool raw);

/* taint__source_progress() - the pass has read @m's data up to @done. */
void taint__source_progress(struct taint__map *m, size_t done);

/* taint__source_unmap() - unmap, and leave @fd's offset at the end. */
void taint__source_unmap(struct taint__map *m);

#endif
