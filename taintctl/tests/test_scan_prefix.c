// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_scan_prefix.c - taint_scan_fd_opts() with a prefix: the first bytes
 * of a stream that the caller already read (check --from sniffs a pipe
 * for a copy of /proc/sys/kernel/tainted) are scanned before the rest of
 * the fd, for plain and for gzip data, wherever the stream is cut; a
 * prefix the ABI does not allow is -EINVAL.
 */
#include <errno.h>
#include <unistd.h>

#include "test_util.h"

#define NLINES 3000
#define EVERY 97		/* a field on every EVERY-th line, and line 1 */

static struct {
	size_t n;
	uint64_t line[NLINES];
} res;

static int collect(const struct taint_hit *h, void *arg)
{
	(void)arg;
	if (h->field && res.n < NLINES)
		res.line[res.n++] = h->line;
	return 0;
}

/* The log: a field on line 1 and on each line that is a multiple of EVERY. */
static char *make_log(size_t *len)
{
	size_t cap = NLINES * 80, n = 0;
	char *p = malloc(cap);

	assert_non_null(p);
	for (unsigned int i = 1; i <= NLINES; i++) {
		if (i == 1 || i % EVERY == 0)
			n += (size_t)snprintf(p + n, cap - n,
				"CPU: 0 PID: %u Comm: x Tainted: G        W          6.1 #1\n",
				i);
		else
			n += (size_t)snprintf(p + n, cap - n,
					      "[%8u.000000] line %u\n", i, i);
	}
	*len = n;
	return p;
}

static unsigned int expected_hits(void)
{
	return 1 + NLINES / EVERY;
}

/*
 * Scan @p[0..len) given as a prefix of @cut bytes and the rest in a file
 * read from its start (what the fd gives after the caller's reads).
 */
static int scan_cut(const void *p, size_t len, size_t cut,
		    struct taint_scan_info *info)
{
	char path[] = "/tmp/taint-prefix-XXXXXX";
	struct taint_scan_opts o = { .size = sizeof(o), .hit = collect,
				     .prefix = p, .prefix_len = cut };
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, (const char *)p + cut, len - cut),
			 (ssize_t)(len - cut));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	memset(&res, 0, sizeof(res));
	ret = taint_scan_fd_opts(fd, &o, info);
	close(fd);
	return ret;
}

static void check_lines(void)
{
	assert_int_equal(res.n, expected_hits());
	assert_int_equal(res.line[0], 1);
	for (size_t i = 1; i < res.n; i++)
		assert_int_equal(res.line[i], i * EVERY);
}

static const size_t cuts[] = { 0, 1, 5, 40, 63, 64, 100, 4095,
			       TAINT_SCAN_PREFIX_MAX };

static void test_plain(void **state)
{
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	size_t len;
	char *log = make_log(&len);

	(void)state;
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		assert_int_equal(scan_cut(log, len, cuts[i], &info), 0);
		assert_int_equal(info.compression, TAINT_COMPRESSION_NONE);
		check_lines();
	}
	free(log);
}

static void test_gzip(void **state)
{
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	size_t len, glen;
	char *log = make_log(&len);
	unsigned char *gz = gz_encode(log, len, &glen);

	(void)state;
	/* a cut inside the magic bytes too: the format is told from both */
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		if (cuts[i] > glen)
			continue;
		assert_int_equal(scan_cut(gz, glen, cuts[i], &info), 0);
		assert_int_equal(info.compression, TAINT_COMPRESSION_GZIP);
		check_lines();
	}
	free(gz);
	free(log);
}

static void test_invalid(void **state)
{
	static char big[TAINT_SCAN_PREFIX_MAX + 1];
	struct taint_scan_opts o = { .size = sizeof(o), .hit = collect,
				     .prefix = big, .prefix_len = sizeof(big) };

	(void)state;
	assert_int_equal(taint_scan_fd_opts(STDIN_FILENO, &o, NULL), -EINVAL);
	o.prefix = NULL;
	o.prefix_len = 1;
	assert_int_equal(taint_scan_fd_opts(STDIN_FILENO, &o, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
