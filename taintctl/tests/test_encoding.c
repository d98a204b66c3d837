// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_encoding.c - logs as Windows tools and editors save them: UTF-16
 * (LE, BE, with and without a byte order mark), a UTF-8 byte order mark,
 * UTF-32 (refused).  The encoding is told by the first bytes (encoding.c),
 * UTF-16 is transcoded to UTF-8 as it streams (source.c): scanning the
 * UTF-16 of a log the test generates finds exactly the fields of the log,
 * at the same lines, from a file, from a pipe whose reads end anywhere
 * (inside a code unit, between the halves of a surrogate pair), and
 * compressed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"
#include "encoding_internal.h"
#include "source_internal.h"

#define NLINES 60000		/* about 7 MiB of UTF-16: several buffers */
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

/*
 * Line i (1-based) has a field iff i % EVERY == 0: W, or Not tainted; the
 * other lines have characters of 2, 3 and 4 UTF-8 bytes (a surrogate pair
 * in UTF-16), and a U+00A0 blank in the field, which the field parser
 * reads as a blank only in UTF-8.
 */
static int setup(void **state)
{
	size_t cap = (size_t)NLINES * 100;

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
				"Tainted: G\xc2\xa0       W" : "Not tainted");
		else
			plain_len += (size_t)sprintf(plain + plain_len,
				"[%6u.000000] usb 1-1: caf\xc3\xa9 \xe2\x82\xac %u \xf0\x9f\x98\x80\n",
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

static void check_all_hits(void)
{
	size_t k = 0;

	for (unsigned int i = EVERY; i <= NLINES; i += EVERY, k++) {
		if (k >= res.n)
			fail_msg("%zu hits, want %u", res.n, NLINES / EVERY);
		assert_int_equal(res.line[k], i);
		assert_true(res.mask[k] == ((i / EVERY) % 2 ? 512 : 0));
	}
	assert_int_equal(res.n, k);
}

/* UTF-8 @in (valid) as UTF-16, @bom first, malloc()ed (*@out_len bytes) */
static unsigned char *to_utf16(const char *in, size_t len, bool be, bool bom,
			       size_t *out_len)
{
	unsigned char *out = malloc(2 * len + 2), *o = out;
	const unsigned char *p = (const unsigned char *)in;

	assert_non_null(out);
	if (bom) {
		*o++ = be ? 0xfe : 0xff;
		*o++ = be ? 0xff : 0xfe;
	}
	for (size_t i = 0; i < len; ) {
		uint32_t c;
		unsigned int units[2], n = 1;

		if (p[i] < 0x80) {
			c = p[i++];
		} else if (p[i] < 0xe0) {
			c = (uint32_t)(p[i] & 0x1f) << 6 | (p[i + 1] & 0x3f);
			i += 2;
		} else if (p[i] < 0xf0) {
			c = (uint32_t)(p[i] & 0x0f) << 12 |
			    (uint32_t)(p[i + 1] & 0x3f) << 6 | (p[i + 2] & 0x3f);
			i += 3;
		} else {
			c = (uint32_t)(p[i] & 0x07) << 18 |
			    (uint32_t)(p[i + 1] & 0x3f) << 12 |
			    (uint32_t)(p[i + 2] & 0x3f) << 6 | (p[i + 3] & 0x3f);
			i += 4;
		}
		units[0] = c;
		if (c >= 0x10000) {
			units[0] = 0xd800 + ((c - 0x10000) >> 10);
			units[1] = 0xdc00 + ((c - 0x10000) & 0x3ff);
			n = 2;
		}
		for (unsigned int u = 0; u < n; u++) {
			*o++ = (unsigned char)(be ? units[u] >> 8 : units[u]);
			*o++ = (unsigned char)(be ? units[u] : units[u] >> 8);
		}
	}
	*out_len = (size_t)(o - out);
	return out;
}

/* A temporary file (no name: the encoding is told by the bytes) of @p. */
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

/*
 * Scan @p through a pipe (line mode), written by a child: @first bytes,
 * and once the reader has taken them (FIONREAD on its copy of the read
 * end is 0) the rest in writes of @chunk bytes.
 */
static int scan_pipe(const void *p, size_t len, size_t first, size_t chunk,
		     struct taint_scan_info *info)
{
	const struct taint_scan_opts o = { .size = sizeof(o), .hit = collect,
					   .arg = &res };
	int fds[2], ret, status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *c = p;
		size_t off = first;
		int avail = 1;

		/* a reader that refuses the data may go before the end */
		signal(SIGPIPE, SIG_IGN);
		if (write(fds[1], c, first) != (ssize_t)first)
			_exit(1);
		for (int i = 0; i < 10000 && avail; i++) {
			if (ioctl(fds[0], FIONREAD, &avail))
				_exit(1);
			if (avail)
				usleep(1000);
		}
		close(fds[0]);
		while (off < len) {
			size_t n = len - off < chunk ? len - off : chunk;
			ssize_t w = write(fds[1], c + off, n);

			if (w <= 0)
				_exit(errno == EPIPE ? 0 : 1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	memset(&res, 0, sizeof(res));
	ret = taint_scan_fd_opts(fds[0], &o, info);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return ret;
}

/* ---- telling the encoding ---------------------------------------------- */
static void test_detect(void **state)
{
	static const struct {
		const char *s;
		size_t n;
		enum taint__encoding enc;
		size_t bom;
		bool undecided;
	} cases[] = {
		{ "", 0, TAINT__ENC_PLAIN, 0, true },
		{ "CPU: 0 PID: 1", 13, TAINT__ENC_PLAIN, 0, false },
		{ "a\n", 2, TAINT__ENC_PLAIN, 0, false },
		{ "a", 1, TAINT__ENC_PLAIN, 0, true },	/* "a\0" may follow */
		{ "\xef\xbb\xbf" "CPU", 6, TAINT__ENC_UTF8_BOM, 3, false },
		{ "\xef\xbb", 2, TAINT__ENC_PLAIN, 0, true },
		{ "\xff\xfe" "C\0P\0", 6, TAINT__ENC_UTF16LE, 2, false },
		{ "\xff\xfe", 2, TAINT__ENC_UTF16LE, 2, true },	/* UTF-32? */
		{ "\xfe\xff" "\0C\0P", 6, TAINT__ENC_UTF16BE, 2, false },
		{ "\xff\xfe\0\0" "C\0\0\0", 8, TAINT__ENC_UTF32LE, 4, false },
		{ "\0\0\xfe\xff" "\0\0\0C", 8, TAINT__ENC_UTF32BE, 4, false },
		{ "C\0P\0U\0:\0 \0", 10, TAINT__ENC_UTF16LE, 0, false },
		{ "\0C\0P\0U\0:\0 ", 10, TAINT__ENC_UTF16BE, 0, false },
		{ "C\0P\0", 4, TAINT__ENC_UTF16LE, 0, true },
		{ "4\0\n\0", 4, TAINT__ENC_UTF16LE, 0, true },
		{ "C\0\0\0P\0\0\0", 8, TAINT__ENC_UTF32LE, 0, false },
		{ "\0\0\0C\0\0\0P", 8, TAINT__ENC_UTF32BE, 0, false },
		/* NULs alone (a log after a crash), binary data: plain */
		{ "\0\0\0\0\0\0\0\0\0\0", 10, TAINT__ENC_PLAIN, 0, false },
		{ "bin\0\0ary Tainted", 16, TAINT__ENC_PLAIN, 0, false },
		/* a CJK character early: 3 in 4 code units are enough */
		{ "C\0\x2d\x4eP\0U\0", 8, TAINT__ENC_UTF16LE, 0, false },
		{ "C\0\x2d\x4e\x2d\x4eU\0", 8, TAINT__ENC_PLAIN, 0, false },
		/* Latin-1 characters are told: their high byte is NUL */
		{ "C\0\xe9\0P\0U\0", 8, TAINT__ENC_UTF16LE, 0, false },
		{ "\x1f\x8b\x08\0\0\0\0\0", 8, TAINT__ENC_PLAIN, 0, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t bom = 99;
		bool undecided = !cases[i].undecided;
		enum taint__encoding e = taint__encoding_detect(cases[i].s,
				cases[i].n, &bom, &undecided);

		if (e != cases[i].enc || bom != cases[i].bom ||
		    undecided != cases[i].undecided)
			fail_msg("case %zu: encoding %d bom %zu undecided %d, want %d %zu %d",
				 i, (int)e, bom, undecided, (int)cases[i].enc,
				 cases[i].bom, cases[i].undecided);
	}
	assert_string_equal(taint__encoding_name(TAINT__ENC_UTF16LE),
			    "UTF-16LE");
	assert_string_equal(taint__encoding_name(TAINT__ENC_UTF32BE),
			    "UTF-32BE");
}

/* ---- the transcoder ----------------------------------------------------- */
static void decode_le(const char *in, size_t n, bool final, size_t cap,
		      const char *want, size_t want_len, size_t want_used)
{
	char out[64];
	size_t ip = 0, op = 0;

	assert_true(cap <= sizeof(out));
	taint__utf16_decode(false, (const unsigned char *)in, n, &ip, out,
			    cap, &op, final);
	assert_int_equal(op, want_len);
	assert_memory_equal(out, want, want_len);
	assert_int_equal(ip, want_used);
}

static void test_utf16_decode(void **state)
{
	(void)state;
	/* ASCII, é, €, U+1F600 (a surrogate pair) */
	decode_le("A\0\xe9\0\xac\x20\x3d\xd8\x00\xde", 10, true, 64,
		  "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10, 10);
	/* a lone high surrogate, then A; a lone low one */
	decode_le("\x3d\xd8" "A\0", 4, true, 64, "\xef\xbf\xbd" "A", 4, 4);
	decode_le("\x00\xde" "A\0", 4, true, 64, "\xef\xbf\xbd" "A", 4, 4);
	/* an incomplete pair, half a unit: wait for more, or U+FFFD */
	decode_le("A\0\x3d\xd8", 4, false, 64, "A", 1, 2);
	decode_le("A\0\x3d\xd8\x00", 5, false, 64, "A", 1, 2);
	decode_le("A\0\x3d\xd8", 4, true, 64, "A\xef\xbf\xbd", 4, 4);
	decode_le("A\0B", 3, false, 64, "A", 1, 2);
	decode_le("A\0B", 3, true, 64, "A\xef\xbf\xbd", 4, 3);
	/* whole characters only: € does not fit 2 bytes */
	decode_le("A\0\xac\x20", 4, true, 3, "A", 1, 2);
	decode_le("\xac\x20", 2, true, 2, "", 0, 0);
	/* a NUL code unit is a NUL byte */
	decode_le("\0\0A\0", 4, true, 64, "\0A", 2, 4);
	/* big-endian */
	{
		char out[8];
		size_t ip = 0, op = 0;

		taint__utf16_decode(true, (const unsigned char *)"\0A\x20\xac",
				    4, &ip, out, sizeof(out), &op, true);
		assert_int_equal(op, 4);
		assert_memory_equal(out, "A\xe2\x82\xac", 4);
	}
}

/* ---- scanning ----------------------------------------------------------- */
static const struct {
	const char *name;
	bool be, bom;
} forms[] = {
	{ "UTF-16LE with a byte order mark", false, true },
	{ "UTF-16BE with a byte order mark", true, true },
	{ "UTF-16LE", false, false },
	{ "UTF-16BE", true, false },
};
#define NFORMS (sizeof(forms) / sizeof(forms[0]))

/* Each form, from a file (mapped: no, read in blocks) and from a pipe. */
static void test_scan_utf16(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFORMS; i++) {
		struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
		size_t n;
		unsigned char *u = to_utf16(plain, plain_len, forms[i].be,
					    forms[i].bom, &n);

		assert_int_equal(scan_file(u, n, 0, &info), 0);
		assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
		check_all_hits();
		assert_int_equal(scan_file(u, n, TAINT_SCAN_LINES, &info), 0);
		check_all_hits();
		/* reads that end inside code units and surrogate pairs */
		assert_int_equal(scan_pipe(u, n, 4093, 7777, &info), 0);
		assert_true(info.lines);
		check_all_hits();
		free(u);
	}
}

/* The first read of a pipe holds 1 to 5 bytes: told all the same. */
static void test_scan_utf16_split(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFORMS; i++) {
		size_t n;
		unsigned char *u = to_utf16(plain, plain_len, forms[i].be,
					    forms[i].bom, &n);

		for (size_t first = 1; first <= 5; first++) {
			struct taint_scan_info info =
				TAINT_INIT(struct taint_scan_info);

			assert_int_equal(scan_pipe(u, n, first, 65536, &info),
					 0);
			check_all_hits();
		}
		free(u);
	}
}

/* UTF-16 compressed: decompressed, then transcoded. */
static void test_scan_utf16_gzip(void **state)
{
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	size_t n, zn;
	unsigned char *u = to_utf16(plain, plain_len, false, true, &n);
	unsigned char *z = gz_encode((const char *)u, n, &zn);

	(void)state;
	assert_int_equal(scan_file(z, zn, 0, &info), 0);
	assert_int_equal(info.compression, TAINT_COMPRESSION_GZIP);
	check_all_hits();
	assert_int_equal(scan_pipe(z, zn, 3, 7777, &info), 0);
	check_all_hits();
	free(z);
	free(u);
	/* and plain text compressed is still plain */
	z = gz_encode(plain, plain_len, &zn);
	assert_int_equal(scan_file(z, zn, 0, &info), 0);
	check_all_hits();
	free(z);
}

/* A UTF-8 byte order mark: dropped, mapped or read; a field at line 1. */
static void test_scan_utf8_bom(void **state)
{
	static const char text[] = "\xef\xbb\xbf" "Tainted: G W\nx\nNot tainted\n";
	static const char only[] = "\xef\xbb\xbf";
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	unsigned int flags[] = { 0, TAINT_SCAN_NOMAP, TAINT_SCAN_LINES };

	(void)state;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		assert_int_equal(scan_file(text, sizeof(text) - 1, flags[i],
					   &info), 0);
		assert_int_equal(res.n, 2);
		assert_int_equal(res.line[0], 1);
		assert_true(res.mask[0] == 512);
		assert_int_equal(res.line[1], 3);
		assert_int_equal(scan_file(only, 3, flags[i], &info), 0);
		assert_int_equal(res.n, 0);
	}
	assert_int_equal(scan_pipe(text, sizeof(text) - 1, 1, 2, &info), 0);
	assert_int_equal(res.n, 2);
	assert_int_equal(res.line[0], 1);
}

/* UTF-32: refused, named, from a file and a pipe; RAW reads bytes. */
static void test_utf32_refused(void **state)
{
	static const char le[] = "\xff\xfe\0\0T\0\0\0a\0\0\0";
	static const char be[] = "\0\0\xfe\xff\0\0\0T\0\0\0a";
	static const char nobom[] = "T\0\0\0a\0\0\0i\0\0\0n\0\0\0";
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);

	(void)state;
	assert_int_equal(scan_file(le, sizeof(le) - 1, 0, &info), -ENOTSUP);
	assert_non_null(strstr(info.error, "UTF-32LE text, not supported"));
	assert_int_equal(scan_file(be, sizeof(be) - 1, 0, &info), -ENOTSUP);
	assert_non_null(strstr(info.error, "UTF-32BE"));
	assert_int_equal(scan_file(nobom, sizeof(nobom) - 1, 0, &info),
			 -ENOTSUP);
	assert_int_equal(scan_pipe(le, sizeof(le) - 1, 2, 1, &info), -ENOTSUP);
	assert_non_null(strstr(info.error, "UTF-32LE"));
	assert_int_equal(scan_file(le, sizeof(le) - 1, TAINT_SCAN_RAW, &info),
			 0);
}

/* Read through the source a byte at a time: whole UTF-8 all the same. */
static void test_source_small_reads(void **state)
{
	static const char want[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\r\n";
	struct taint__source src;
	char buf[64], out[64];
	size_t n, got, op = 0;
	unsigned char *u = to_utf16(want, sizeof(want) - 1, true, true, &n);
	int fd = file_with(u, n);

	(void)state;
	assert_int_equal(taint__source_open(&src, fd, false, NULL, 0, buf,
					    sizeof(buf), &got), 0);
	assert_int_equal(got, 0);
	for (;;) {
		ssize_t r = taint__source_read(&src, out + op, 1, true);

		assert_true(r >= 0);
		if (!r)
			break;
		assert_int_equal(r, 1);
		op++;
		assert_true(op < sizeof(out));
	}
	assert_int_equal(op, sizeof(want) - 1);
	assert_memory_equal(out, want, op);
	taint__source_close(&src);
	close(fd);
	free(u);
}

/* A taint log saved in UTF-16 reads as the same log. */
static void test_log_utf16(void **state)
{
	static const char text[] =
		"ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"caf\\xc3\\xa9\" caller=f+0x1/0x2\r\n"
		"dropped=3\r\n";
	struct taint_log *log;
	char why[160];
	size_t n;
	unsigned char *u = to_utf16(text, sizeof(text) - 1, false, true, &n);
	int fd = file_with(u, n);

	(void)state;
	assert_int_equal(taint_log_new_from_fd(fd, &log, why, sizeof(why)), 0);
	assert_int_equal(taint_log_get_event_count(log), 1);
	assert_int_equal(taint_log_get_malformed(log), 0);
	assert_true(taint_log_get_dropped(log) == 3);
	assert_string_equal(taint_log_get_event(log, 0)->comm, "caf\xc3\xa9");
	taint_log_unref(log);
	close(fd);
	free(u);
}

/* taint_read_text(): what decode reads; its limit, exactly */
static void test_read_text(void **state)
{
	static const char le[] = "\xff\xfe" "4\0" "6\0" "0\0" "9\0" "\n\0";
	static const char u32[] = "\xff\xfe\0\0" "4\0\0\0";
	char why[160], *text;
	size_t len, n, zn;
	unsigned char *u = to_utf16(plain, plain_len, true, false, &n);
	unsigned char *z = gz_encode((const char *)u, n, &zn);
	int fd = file_with(z, zn);

	(void)state;
	assert_int_equal(taint_read_text(fd, 64u << 20, &text, &len, why,
					 sizeof(why)), 0);
	assert_int_equal(len, plain_len);
	assert_memory_equal(text, plain, len);
	assert_int_equal(text[len], '\0');
	free(text);
	close(fd);
	free(z);
	free(u);
	/* compressed UTF-8 with a byte order mark: dropped */
	z = gz_encode("\xef\xbb\xbf" "Tainted: G W\n", 16, &zn);
	fd = file_with(z, zn);
	assert_int_equal(taint_read_text(fd, 100, &text, &len, why,
					 sizeof(why)), 0);
	assert_string_equal(text, "Tainted: G W\n");
	free(text);
	close(fd);
	free(z);
	fd = file_with(le, sizeof(le) - 1);
	assert_int_equal(taint_read_text(fd, 5, &text, &len, why, sizeof(why)),
			 0);
	assert_int_equal(len, 5);
	assert_string_equal(text, "4609\n");
	free(text);
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(taint_read_text(fd, 4, &text, &len, why, sizeof(why)),
			 -EFBIG);
	assert_null(text);
	close(fd);
	fd = file_with(u32, sizeof(u32) - 1);
	assert_int_equal(taint_read_text(fd, 100, &text, &len, why, sizeof(why)),
			 -ENOTSUP);
	assert_non_null(strstr(why, "UTF-32LE"));
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_utf16_decode),
		cmocka_unit_test(test_scan_utf16),
		cmocka_unit_test(test_scan_utf16_split),
		cmocka_unit_test(test_scan_utf16_gzip),
		cmocka_unit_test(test_scan_utf8_bom),
		cmocka_unit_test(test_utf32_refused),
		cmocka_unit_test(test_source_small_reads),
		cmocka_unit_test(test_log_utf16),
		cmocka_unit_test(test_read_text),
	};

	return cmocka_run_group_tests_name("encoding", tests, setup, teardown);
}
