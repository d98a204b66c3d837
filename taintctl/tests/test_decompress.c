// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_decompress.c - taint_scan_fd_opts() on gzip, xz, zstd, bzip2 and
 * lz4 data: the test compresses a log it generates (markers at lines it
 * chose) with zlib, liblzma and libzstd, and the bzip2 and lz4 tools, and
 * checks that scanning the compressed bytes finds exactly those lines,
 * from a file and from a pipe, also when the data is concatenated, that
 * truncated or corrupt data is an error that comes after the hits decoded
 * before it, that formats read by no library here are an error, and that
 * taint_compression_info()'s table says all that.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "test_util.h"

#define NLINES 60000		/* about 3.5 MiB: several scanner buffers */
#define EVERY 997		/* a field every EVERY lines */

struct result {
	size_t n;
	uint64_t line[NLINES / EVERY + 8];
	uint64_t mask[NLINES / EVERY + 8];
};

static struct result res;
static char *plain;
static size_t plain_len;

static int collect(const struct taint_hit *h, void *arg)
{
	struct result *r = arg;

	assert_true(r->n < NLINES / EVERY + 8);
	r->line[r->n] = h->line;
	r->mask[r->n] = h->field->mask;
	r->n++;
	return 0;
}

/* Line i (1-based) has a field iff i % EVERY == 0: W, or Not tainted. */
static int setup(void **state)
{
	size_t cap = (size_t)NLINES * 80;

	(void)state;
	plain = malloc(cap);
	if (!plain)
		return -1;
	plain_len = 0;
	for (unsigned int i = 1; i <= NLINES; i++) {
		if (i % EVERY == 0)
			plain_len += (size_t)sprintf(plain + plain_len,
				"[%6u.000000] CPU: 0 PID: %u Comm: a %s 6.1 #1\n",
				i, i, (i / EVERY) % 2 ?
				"Tainted: G        W" : "Not tainted");
		else
			plain_len += (size_t)sprintf(plain + plain_len,
				"[%6u.000000] usb 1-1: new device number %u\n",
				i, i * 7919);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(plain);
	return 0;
}

static void check_all_hits(size_t upto_line)
{
	size_t k = 0;

	for (unsigned int i = EVERY; i <= upto_line; i += EVERY, k++) {
		assert_true(k < res.n);
		assert_int_equal(res.line[k], i);
		assert_true(res.mask[k] == ((i / EVERY) % 2 ? 512 : 0));
	}
	assert_int_equal(res.n, k);
}

/* The first @count hits are the log's first @count fields. */
static void check_first_hits(size_t count)
{
	assert_true(res.n >= count);
	for (size_t k = 0; k < count; k++) {
		unsigned int i = (unsigned int)(k + 1) * EVERY;

		assert_int_equal(res.line[k], i);
		assert_true(res.mask[k] == ((i / EVERY) % 2 ? 512 : 0));
	}
}

/* ---- encoders (the real libraries) ------------------------------------ */
static unsigned char *xz_encode(const char *in, size_t len, size_t *out_len)
{
	size_t cap = len + len / 100 + 1024, pos = 0;
	unsigned char *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL,
						 (const uint8_t *)in, len,
						 out, &pos, cap), LZMA_OK);
	*out_len = pos;
	return out;
}

static unsigned char *zs_encode(const char *in, size_t len, size_t *out_len)
{
	size_t cap = ZSTD_compressBound(len);
	unsigned char *out = malloc(cap);

	assert_non_null(out);
	*out_len = ZSTD_compress(out, cap, in, len, 3);
	assert_false(ZSTD_isError(*out_len));
	return out;
}

/*
 * The real tools: @argv reads @in on its standard input and writes the
 * compressed data on its standard output (both temporary files here).
 */
static unsigned char *tool_encode(char *const argv[], const char *in,
				  size_t len, size_t *out_len)
{
	FILE *fin = tmpfile(), *fout = tmpfile();
	unsigned char *out;
	int status;
	pid_t pid;

	assert_non_null(fin);
	assert_non_null(fout);
	assert_int_equal(fwrite(in, 1, len, fin), len);
	fflush(fin);
	rewind(fin);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (dup2(fileno(fin), 0) < 0 || dup2(fileno(fout), 1) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("%s failed (status %#x): is it installed? (scripts/build/deps.sh host)",
			 argv[0], status);
	out = (unsigned char *)read_stream(fout, out_len);
	fclose(fin);
	fclose(fout);
	return out;
}

/* bzip2 -1: 100 kB blocks, so that corrupt data has hits before it */
static unsigned char *bz_encode(const char *in, size_t len, size_t *out_len)
{
	static char *const argv[] = { "bzip2", "-1", "-c", NULL };

	return tool_encode(argv, in, len, out_len);
}

/* lz4 -B5: 256 kB blocks, as above; frame format, content checksum */
static unsigned char *lz4_encode(const char *in, size_t len, size_t *out_len)
{
	static char *const argv[] = { "lz4", "-q", "-B5", "-c", NULL };

	return tool_encode(argv, in, len, out_len);
}

static const struct fmt {
	const char *name;
	enum taint_compression id;
	unsigned char *(*encode)(const char *, size_t, size_t *);
} fmts[] = {
	{ "gzip", TAINT_COMPRESSION_GZIP, gz_encode },
	{ "xz", TAINT_COMPRESSION_XZ, xz_encode },
	{ "zstd", TAINT_COMPRESSION_ZSTD, zs_encode },
	{ "bzip2", TAINT_COMPRESSION_BZIP2, bz_encode },
	{ "lz4", TAINT_COMPRESSION_LZ4, lz4_encode },
};
#define NFMTS (sizeof(fmts) / sizeof(fmts[0]))

/* A temporary file (no name: the format is told by the bytes) holding @p. */
static int file_with(const void *p, size_t len)
{
	FILE *tmp = tmpfile();
	int fd;

	assert_non_null(tmp);
	assert_int_equal(fwrite(p, 1, len, tmp), len);
	fflush(tmp);
	fd = dup(fileno(tmp));
	fclose(tmp);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static int scan_file(const void *p, size_t len, unsigned int flags,
		     struct taint_scan_info *info)
{
	const struct taint_scan_opts o = { .size = sizeof(o), .flags = flags,
					   .hit = collect, .arg = &res };
	int fd = file_with(p, len), ret;

	memset(&res, 0, sizeof(res));
	ret = taint_scan_fd_opts(fd, &o, info);
	close(fd);
	return ret;
}

/* In the child: write @c[@off..@len) to @fd, @chunk bytes at most a call. */
static void child_write(int fd, const char *c, size_t off, size_t len,
			size_t chunk)
{
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		ssize_t w = write(fd, c + off, n);

		if (w <= 0)
			_exit(1);
		off += (size_t)w;
	}
	_exit(0);
}

/* In the parent: scan the read end @fd of a pipe, then reap @pid. */
static int scan_child_pipe(int fd, pid_t pid, struct taint_scan_info *info,
			   int *status)
{
	const struct taint_scan_opts o = { .size = sizeof(o), .hit = collect,
					   .arg = &res };
	int ret;

	memset(&res, 0, sizeof(res));
	ret = taint_scan_fd_opts(fd, &o, info);
	close(fd);
	assert_int_equal(waitpid(pid, status, 0), pid);
	return ret;
}

/* Scan @p through a pipe (line mode), written by a child process. */
static int scan_pipe(const void *p, size_t len, struct taint_scan_info *info)
{
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *c = p;

		close(fds[0]);
		/* odd-sized writes: reads end anywhere in the data */
		child_write(fds[1], c, 0, len, 7777);
	}
	close(fds[1]);
	return scan_child_pipe(fds[0], pid, info, &status);
}

/*
 * Scan @p through a pipe whose first read() returns only its first @first
 * bytes: the child writes them, waits until the reader has taken them
 * (FIONREAD on its copy of the read end is 0), then writes the rest.
 */
static int scan_pipe_split(const void *p, size_t len, size_t first,
			   struct taint_scan_info *info)
{
	int fds[2], ret, status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *c = p;
		int avail = 1;

		if (write(fds[1], c, first) != (ssize_t)first)
			_exit(1);
		/* at most 10 s; the reader blocks in read() until then */
		for (int i = 0; i < 10000 && avail; i++) {
			if (ioctl(fds[0], FIONREAD, &avail))
				_exit(1);
			if (avail)
				usleep(1000);
		}
		if (avail)
			_exit(2);
		close(fds[0]);
		child_write(fds[1], c, first, len, len);
	}
	close(fds[1]);
	ret = scan_child_pipe(fds[0], pid, info, &status);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return ret;
}

/*
 * The format is told by the first bytes however they arrive: a first
 * read() of 1 byte, or of any part of the magic, must not make a
 * compressed stream plain text (0 hits).  Magic lengths: gzip 2, xz 6,
 * zstd 4, bzip2 4 ("BZh" and the block size digit), lz4 4 bytes.
 */
static void test_magic_split(void **state)
{
	static const size_t magic_len[] = { 2, 6, 4, 4, 4 };

	(void)state;
	for (size_t i = 0; i < NFMTS; i++) {
		size_t n;
		unsigned char *z = fmts[i].encode(plain, plain_len, &n);

		for (size_t first = 1; first <= magic_len[i]; first++) {
			struct taint_scan_info info =
				TAINT_INIT(struct taint_scan_info);

			assert_int_equal(scan_pipe_split(z, n, first, &info), 0);
			if (info.compression != fmts[i].id)
				fail_msg("%s, first read of %zu bytes: compression %d, want %d",
					 fmts[i].name, first,
					 (int)info.compression, (int)fmts[i].id);
			check_all_hits(NLINES);
		}
		free(z);
	}
}

/* Each format, from a file and from a pipe: the same hits as plain text. */
static void test_formats(void **state)
{
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);

	(void)state;
	assert_int_equal(scan_file(plain, plain_len, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
	check_all_hits(NLINES);
	for (size_t i = 0; i < NFMTS; i++) {
		size_t n;
		unsigned char *z = fmts[i].encode(plain, plain_len, &n);

		assert_true(n < plain_len / 4);
		assert_int_equal(scan_file(z, n, 0, &info), 0);
		assert_int_equal(info.compression, fmts[i].id);
		assert_false(info.lines);
		assert_string_equal(taint_compression_name(info.compression),
				    fmts[i].name);
		check_all_hits(NLINES);
		assert_int_equal(scan_pipe(z, n, &info), 0);
		assert_int_equal(info.compression, fmts[i].id);
		assert_true(info.lines);
		check_all_hits(NLINES);
		/* TAINT_SCAN_RAW: the compressed bytes, as they are */
		assert_int_equal(scan_file(z, n, TAINT_SCAN_RAW, &info), 0);
		assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
		free(z);
	}
}

/*
 * taint_compression_info(), the one table that the decompressor, the dump
 * reader and taintctl's help go by: in enum order, the formats it reads
 * are exactly those test_formats() decodes (every library is in the test
 * build), each one's data starts with its magic, then those it refuses;
 * each has the tool that decompresses it, and its magic is what the
 * scanner tells it by.
 */
static void test_compression_table(void **state)
{
	static const char *const refused[][2] = {
		{ "lz4-legacy", "lz4 -dc" }, { "lzo", "lzop -dc" },
		{ "lzma", "xz -dc" }, { "compress", "gzip -dc" },
	};
	const struct taint_compression_info *ci;
	enum taint_compression c;
	size_t n = 0;

	(void)state;
	assert_null(taint_compression_info(TAINT_COMPRESSION_NONE));
	for (c = TAINT_COMPRESSION_NONE + 1; (ci = taint_compression_info(c));
	     c++, n++) {
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		char buf[64], tool[32];

		assert_int_equal(ci->id, c);
		assert_string_equal(ci->name, taint_compression_name(c));
		assert_true(ci->magic_len > 0 && ci->magic_len < 16);
		if (n < NFMTS) {
			size_t zn;
			unsigned char *z = fmts[n].encode(plain, 4096, &zn);

			assert_int_equal(ci->id, fmts[n].id);
			assert_string_equal(ci->name, fmts[n].name);
			assert_true(ci->readable);
			snprintf(tool, sizeof(tool), "%s -dc", ci->name);
			assert_string_equal(ci->tool, tool);
			assert_true(zn >= ci->magic_len);
			assert_memory_equal(z, ci->magic, ci->magic_len);
			free(z);
		} else {
			assert_true(n - NFMTS < sizeof(refused) / sizeof(refused[0]));
			assert_string_equal(ci->name, refused[n - NFMTS][0]);
			assert_false(ci->readable);
			assert_string_equal(ci->tool, refused[n - NFMTS][1]);
		}
		/* the magic (bzip2's and a block size digit), then junk */
		memset(buf, 'x', sizeof(buf));
		memcpy(buf, ci->magic, ci->magic_len);
		buf[ci->magic_len] = '9';
		scan_file(buf, sizeof(buf), 0, &info);
		assert_int_equal(info.compression, c);
	}
	assert_int_equal(n, NFMTS + sizeof(refused) / sizeof(refused[0]));
}

/* Concatenated members/streams/frames (cat a.gz b.gz) are one log. */
static void test_concatenated(void **state)
{
	size_t cut = 0;

	(void)state;
	/* cut after the line holding the 30th field */
	for (unsigned int line = 0; line < 30 * EVERY; cut++)
		line += plain[cut] == '\n';
	for (size_t i = 0; i < NFMTS; i++) {
		size_t n1, n2;
		unsigned char *a = fmts[i].encode(plain, cut, &n1);
		unsigned char *b = fmts[i].encode(plain + cut, plain_len - cut,
						  &n2);
		unsigned char *ab = malloc(n1 + n2 + 16);

		assert_non_null(ab);
		memcpy(ab, a, n1);
		memcpy(ab + n1, b, n2);
		assert_int_equal(scan_file(ab, n1 + n2, 0, NULL), 0);
		check_all_hits(NLINES);
		if (fmts[i].id == TAINT_COMPRESSION_GZIP) {
			/* NUL padding after a member is ignored, as gzip does */
			memset(ab + n1 + n2, 0, 16);
			assert_int_equal(scan_file(ab, n1 + n2 + 16, 0, NULL), 0);
			check_all_hits(NLINES);
		}
		if (fmts[i].id == TAINT_COMPRESSION_GZIP ||
		    fmts[i].id == TAINT_COMPRESSION_BZIP2) {
			/* other trailing bytes are an error */
			struct taint_scan_info info =
				TAINT_INIT(struct taint_scan_info);

			memcpy(ab + n1 + n2, "junk", 4);
			assert_int_equal(scan_file(ab, n1 + n2 + 4, 0, &info),
					 -EBADMSG);
			check_all_hits(NLINES);
			if (!strstr(info.error, "trailing garbage"))
				fail_msg("%s: error '%s'", fmts[i].name,
					 info.error);
		}
		free(a);
		free(b);
		free(ab);
	}
}

/*
 * Truncated data: -EBADMSG saying so, after the hits of what could be
 * decoded (at least the first half of the log, at most all of it).
 */
static void test_truncated(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFMTS; i++) {
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		size_t n;
		unsigned char *z = fmts[i].encode(plain, plain_len, &n);
		size_t before;

		assert_int_equal(scan_file(z, n - n / 4, 0, &info), -EBADMSG);
		assert_non_null(strstr(info.error, "truncated"));
		assert_non_null(strstr(info.error, fmts[i].name));
		before = res.n;
		assert_true(before >= (NLINES / EVERY) / 2);
		assert_true(before < NLINES / EVERY);
		check_all_hits(res.line[before - 1]);
		/* the same through a pipe */
		assert_int_equal(scan_pipe(z, n - n / 4, &info), -EBADMSG);
		assert_int_equal(res.n, before);
		/* cut inside the magic-confirmed header: still an error */
		assert_int_equal(scan_file(z, fmts[i].id ==
					   TAINT_COMPRESSION_GZIP ? 5 : 8,
					   0, &info), -EBADMSG);
		assert_int_equal(res.n, 0);
		free(z);
	}
}

/*
 * Corrupt data in the middle: -EBADMSG, after the hits before it (gzip may
 * only notice at its CRC, after the last line).
 */
static void test_corrupt(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFMTS; i++) {
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		size_t n;
		unsigned char *z = fmts[i].encode(plain, plain_len, &n);

		for (size_t k = n / 2; k < n / 2 + 64; k++)
			z[k] ^= 0x5a;
		assert_int_equal(scan_file(z, n, 0, &info), -EBADMSG);
		assert_non_null(strstr(info.error, "corrupt"));
		check_first_hits((NLINES / EVERY) / 3);
		free(z);
	}
}

/* Bytes that only begin like a magic are plain text. */
static void test_not_compressed(void **state)
{
	static const char s[] = "\x1f" "x Tainted: G    B 6.1\n\x28\xb5 Not tainted\n";
	static const char xz5[] = "\xfd" "7zXZx Tainted: G    B 6.1\n";
	static const char zs3[] = "\x28\xb5\x2fx Tainted: G    B 6.1\n";
	/* "BZh" needs a block size digit 1-9 after it to be bzip2 */
	static const char bz[] = "BZhx Tainted: G    B 6.1\n";
	static const char bz0[] = "BZh0 Tainted: G    B 6.1\n";
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);

	(void)state;
	assert_int_equal(scan_file(s, sizeof(s) - 1, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
	assert_int_equal(res.n, 2);
	assert_true(res.mask[0] == 32);
	assert_int_equal(res.line[1], 2);
	assert_int_equal(scan_file("\x1f", 1, 0, &info), 0);
	assert_int_equal(res.n, 0);
	/* all of a magic but its last byte: xz's is 6 bytes, zstd's 4 */
	assert_int_equal(scan_file(xz5, sizeof(xz5) - 1, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
	assert_int_equal(res.n, 1);
	assert_true(res.mask[0] == 32);
	assert_int_equal(scan_file(zs3, sizeof(zs3) - 1, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
	assert_int_equal(res.n, 1);
	assert_true(res.mask[0] == 32);
	assert_int_equal(scan_file(bz, sizeof(bz) - 1, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
	assert_int_equal(res.n, 1);
	assert_int_equal(scan_file(bz0, sizeof(bz0) - 1, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
	assert_int_equal(res.n, 1);
	assert_int_equal(scan_file("BZh", 3, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
}

/*
 * Formats told from plain text but never read: -ENOTSUP naming the format
 * and how to decompress it, not 0 hits.  lz4's legacy format and
 * LZMA-alone come from the real tools; lzo and compress(1) (no tool
 * installed) from their headers.
 */
static void test_unsupported(void **state)
{
	static char *const lz4l[] = { "lz4", "-q", "-l", "-c", NULL };
	static char *const lzma[] = { "xz", "--format=lzma", "-c", NULL };
	static const char lzo[] = "\x89LZO\0\r\n\x1a\n\x10\x40\x20\x80\x09\x40";
	static const char z[] = "\x1f\x9d\x90Tainted: G W\n";
	static const struct {
		const char *name;
		enum taint_compression id;
		char *const *argv;
		const char *bytes;
		size_t len;
		const char *tool;
	} u[] = {
		{ "lz4-legacy", TAINT_COMPRESSION_LZ4_LEGACY, lz4l, NULL, 0, "lz4 -dc" },
		{ "lzma", TAINT_COMPRESSION_LZMA, lzma, NULL, 0, "xz -dc" },
		{ "lzo", TAINT_COMPRESSION_LZO, NULL, lzo, sizeof(lzo) - 1, "lzop -dc" },
		{ "compress", TAINT_COMPRESSION_COMPRESS, NULL, z, sizeof(z) - 1, "gzip -dc" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		char want[64];
		size_t n = u[i].len;
		unsigned char *b = u[i].argv ?
			tool_encode(u[i].argv, plain, plain_len, &n) : NULL;
		const void *p = b ? (const void *)b : u[i].bytes;

		assert_string_equal(taint_compression_name(u[i].id), u[i].name);
		assert_int_equal(scan_file(p, n, 0, &info), -ENOTSUP);
		assert_int_equal(info.compression, u[i].id);
		assert_int_equal(res.n, 0);
		snprintf(want, sizeof(want), "compressed with %s, not supported",
			 u[i].name);
		if (!strstr(info.error, want) || !strstr(info.error, u[i].tool))
			fail_msg("%s: error '%s'", u[i].name, info.error);
		/* from a pipe too */
		assert_int_equal(scan_pipe(p, n, &info), -ENOTSUP);
		assert_int_equal(info.compression, u[i].id);
		/* TAINT_SCAN_RAW: plain bytes, no error */
		assert_int_equal(scan_file(p, n, TAINT_SCAN_RAW, &info), 0);
		free(b);
	}
}

/*
 * After a data error the incomplete last line is not scanned: it may stop
 * inside a field ("Tainted: G  " of "Tainted: G        W").  The test
 * flushes the deflate stream right there and cuts it at that point.
 */
static void test_cut_line_dropped(void **state)
{
	static const char a[] = "x Not tainted 6.1\nCPU: 0 PID: 1 Comm: a Tainted: G  ";
	static const char b[] = "      W 6.1 #1\n";
	unsigned char out[4096];
	z_stream z = { 0 };
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	size_t cut;

	(void)state;
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)a;
	z.avail_in = sizeof(a) - 1;
	z.next_out = out;
	z.avail_out = sizeof(out);
	assert_int_equal(deflate(&z, Z_FULL_FLUSH), Z_OK);
	cut = z.total_out;
	z.next_in = (Bytef *)b;
	z.avail_in = sizeof(b) - 1;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	/* whole: two hits, W on line 2 */
	assert_int_equal(scan_file(out, z.total_out, 0, &info), 0);
	assert_int_equal(res.n, 2);
	assert_true(res.mask[1] == 512);
	/* cut after "Tainted: G  ": line 1 only, then the error */
	assert_int_equal(scan_file(out, cut, 0, &info), -EBADMSG);
	assert_non_null(strstr(info.error, "truncated gzip"));
	assert_int_equal(res.n, 1);
	assert_int_equal(res.line[0], 1);
	deflateEnd(&z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_compression_table),
		cmocka_unit_test(test_magic_split),
		cmocka_unit_test(test_concatenated),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_not_compressed),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_cut_line_dropped),
	};

	return cmocka_run_group_tests_name("decompress", tests, setup,
					   teardown);
}
