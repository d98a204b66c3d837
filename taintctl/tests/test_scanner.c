// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_scanner.c - the streaming scanner: chunk boundaries, line numbers,
 * long lines, binary bytes.  Expected line numbers are computed by the test
 * itself from where it placed each marker.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#define MAX_HITS 4096

struct result {
	size_t n;
	uint64_t line[MAX_HITS];
	uint64_t mask[MAX_HITS];
	bool tainted[MAX_HITS];
};

static struct result res;

static int collect(const struct taint_hit *h, void *arg)
{
	struct result *r = arg;

	assert_true(r->n < MAX_HITS);
	r->line[r->n] = h->line;
	r->mask[r->n] = h->field->mask;
	r->tainted[r->n] = h->field->tainted;
	r->n++;
	return 0;
}

/* Feed @buf in pieces of @piece bytes (0: a temporary file and taint_scan_fd). */
static void scan_buf(const char *buf, size_t len, size_t piece)
{
	memset(&res, 0, sizeof(res));
	if (piece == 0) {
		FILE *tmp = tmpfile();

		assert_non_null(tmp);
		assert_int_equal(fwrite(buf, 1, len, tmp), len);
		fflush(tmp);
		rewind(tmp);
		assert_int_equal(taint_scan_fd(fileno(tmp), collect, &res), 0);
		fclose(tmp);
		return;
	}
	{
		struct taint_scanner *sc = taint_scanner_new();

		assert_non_null(sc);
		for (size_t off = 0; off < len; off += piece) {
			size_t n = len - off < piece ? len - off : piece;

			assert_int_equal(taint_scanner_feed(sc, buf + off, n,
							    collect, &res), 0);
		}
		assert_int_equal(taint_scanner_finish(sc, collect, &res), 0);
		taint_scanner_free(sc);
	}
}

static const size_t pieces[] = { 0, 1, 3, 4096, 65536, 1 << 20, 3 << 20 };
#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

static void test_small(void **state)
{
	const char *s =
		"boot\n"
		"CPU: 0 PID: 1 Comm: sh Tainted: G        W 6.1 #1\n"
		"Modules linked in: zfs(PO) spl(O)\n"
		"CPU: 1 PID: 2 Comm: x Not tainted 6.1 #1\n"
		"\n"
		"Tainted: [U]=USER, [W]=WARN\n"
		"xTainted: P and 'Not tainted' prose\n"
		"Not tainted";	/* at the very end, no newline */

	(void)state;
	for (size_t p = 0; p < NPIECES; p++) {
		scan_buf(s, strlen(s), pieces[p]);
		assert_int_equal(res.n, 4);
		assert_int_equal(res.line[0], 2);
		assert_true(res.mask[0] == 512);
		assert_int_equal(res.line[1], 4);
		assert_false(res.tainted[1]);
		assert_int_equal(res.line[2], 6);
		assert_true(res.mask[2] == 576);
		assert_int_equal(res.line[3], 8);
		assert_false(res.tainted[3]);
	}
}

static void test_empty(void **state)
{
	(void)state;
	for (size_t p = 0; p < NPIECES; p++) {
		scan_buf("", 0, pieces[p]);
		assert_int_equal(res.n, 0);
		scan_buf("Tainted", 7, pieces[p]);
		assert_int_equal(res.n, 0);
		scan_buf("Tainted:", 8, pieces[p]);
		assert_int_equal(res.n, 1);
	}
}

/*
 * Markers at every offset around the buffer boundaries (1 MiB chunk,
 * 16 KiB lookahead), on lines whose numbers the test tracks.
 */
static void test_boundaries(void **state)
{
	const size_t len = (3u << 20) + 12345;
	char *buf = malloc(len);
	uint64_t want_line[MAX_HITS];
	size_t nwant = 0, pos = 0;
	uint64_t line = 1;
	static const size_t hot[] = { 1u << 20, (1u << 20) - (16u << 10),
				      (2u << 20) - (16u << 10) + 16,
				      2u << 20 };

	(void)state;
	assert_non_null(buf);
	memset(buf, 'a', len);
	/* newline every 100 bytes except where markers go */
	for (size_t i = 99; i < len; i += 100)
		buf[i] = '\n';
	for (size_t h = 0; h < sizeof(hot) / sizeof(hot[0]); h++) {
		for (size_t d = 0; d < 24; d++) {
			static const char m[] = " Not tainted \n";
			size_t at = hot[h] - 12 + d * 40;

			if (at < pos)
				continue;
			memcpy(buf + at, m, sizeof(m) - 1);
			pos = at + sizeof(m);
		}
	}
	/* expected: count lines up to each " Not tainted" we wrote */
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n')
			line++;
		else if (i + 12 <= len && memcmp(buf + i, " Not tainted", 12) == 0)
			want_line[nwant++] = line;
	}
	assert_true(nwant > 60);
	for (size_t p = 0; p < NPIECES; p++) {
		if (pieces[p] == 1)
			continue;	/* slow under ASan for 3 MiB */
		scan_buf(buf, len, pieces[p]);
		assert_int_equal(res.n, nwant);
		for (size_t i = 0; i < nwant; i++)
			assert_int_equal(res.line[i], want_line[i]);
	}
	free(buf);
}

/* A 5 MiB line with NULs and high bytes, markers in and after it. */
static void test_long_binary_line(void **state)
{
	const size_t big = 5u << 20;
	size_t len = big + 200;
	char *buf = malloc(len);
	size_t n = 0;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < big; i++)
		buf[i] = (char)(i * 7 % 256 == '\n' ? 0 : i * 7 % 256);
	memcpy(buf + 10, "\0Tainted: G    B \0", 18);
	memcpy(buf + (3u << 20), "\xff" "Tainted: [D]=DIE\0", 17);
	n = big;
	n += (size_t)sprintf(buf + n, "\nx Tainted: P 4.20.0\n\nNot tainted\n");
	for (size_t p = 0; p < NPIECES; p++) {
		if (pieces[p] == 1)
			continue;
		scan_buf(buf, n, pieces[p]);
		assert_int_equal(res.n, 4);
		assert_int_equal(res.line[0], 1);
		assert_true(res.mask[0] == 32);
		assert_int_equal(res.line[1], 1);
		assert_true(res.mask[1] == 128);
		assert_int_equal(res.line[2], 2);
		assert_true(res.mask[2] == 1);
		assert_int_equal(res.line[3], 4);
	}
	free(buf);
}

/* A marker split between two feed() calls at each possible byte. */
static void test_split_marker(void **state)
{
	const char *s = "ab\nq Not tainted\nr Tainted: P W\n";
	size_t len = strlen(s);

	(void)state;
	for (size_t cut = 0; cut <= len; cut++) {
		struct taint_scanner *sc = taint_scanner_new();

		memset(&res, 0, sizeof(res));
		assert_int_equal(taint_scanner_feed(sc, s, cut, collect, &res), 0);
		assert_int_equal(taint_scanner_feed(sc, s + cut, len - cut,
						    collect, &res), 0);
		assert_int_equal(taint_scanner_finish(sc, collect, &res), 0);
		taint_scanner_free(sc);
		assert_int_equal(res.n, 2);
		assert_int_equal(res.line[0], 2);
		assert_int_equal(res.line[1], 3);
		assert_true(res.mask[1] == 513);
	}
}

static int stop_at_first(const struct taint_hit *h, void *arg)
{
	(void)h;
	(*(int *)arg)++;
	return 42;
}

static void test_callback_stops(void **state)
{
	const char *s = "Not tainted\nNot tainted\n";
	struct taint_scanner *sc = taint_scanner_new();
	int calls = 0;

	(void)state;
	assert_int_equal(taint_scanner_feed(sc, s, strlen(s), stop_at_first,
					    &calls), 0);
	assert_int_equal(taint_scanner_finish(sc, stop_at_first, &calls), 42);
	assert_int_equal(calls, 1);
	taint_scanner_free(sc);
	taint_scanner_free(NULL);
}

/* feed_lines(): each complete line's hits come at once, before finish(). */
static void test_feed_lines(void **state)
{
	struct taint_scanner *sc = taint_scanner_new();

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(taint_scanner_feed_lines(sc, "boot\nCPU: 0 Comm: a Tai",
						  23, collect, &res), 0);
	assert_int_equal(res.n, 0);
	assert_int_equal(taint_scanner_feed_lines(sc, "nted: G        W 6.1 #1\n",
						  24, collect, &res), 0);
	assert_int_equal(res.n, 1);
	assert_int_equal(res.line[0], 2);
	assert_true(res.mask[0] == 512);
	/* a verbose list ending in ',' waits for its next line... */
	assert_int_equal(taint_scanner_feed_lines(sc, "Tainted: [W]=WARN,\n",
						  19, collect, &res), 0);
	assert_int_equal(res.n, 1);
	assert_int_equal(taint_scanner_feed_lines(sc, "> [O]=OOT_", 10,
						  collect, &res), 0);
	assert_int_equal(res.n, 1);
	assert_int_equal(taint_scanner_feed_lines(sc, "MODULE\n", 7,
						  collect, &res), 0);
	assert_int_equal(res.n, 2);
	assert_int_equal(res.line[1], 3);
	assert_true(res.mask[1] == (512 | 4096));
	/* ...which may be the next report, with its own field */
	assert_int_equal(taint_scanner_feed_lines(sc,
		"Tainted: [W]=WARN,\nCPU: 1 Comm: b Tainted: [D]=DIE 6.12 #1\n",
		59, collect, &res), 0);
	assert_int_equal(res.n, 4);
	assert_int_equal(res.line[2], 5);
	assert_true(res.mask[2] == 512);
	assert_int_equal(res.line[3], 6);
	assert_true(res.mask[3] == 128);
	/* no newline yet: nothing; finish() reports it */
	assert_int_equal(taint_scanner_feed_lines(sc, "Not tainted", 11,
						  collect, &res), 0);
	assert_int_equal(res.n, 4);
	assert_int_equal(taint_scanner_finish(sc, collect, &res), 0);
	assert_int_equal(res.n, 5);
	assert_int_equal(res.line[4], 7);
	taint_scanner_free(sc);
}

/* Child side of test_pipe_stream: each hit's line, as it is found. */
static int report_hit(const struct taint_hit *h, void *arg)
{
	char msg[32];
	int n = snprintf(msg, sizeof(msg), "%llu\n",
			 (unsigned long long)h->line);

	return write(*(int *)arg, msg, (size_t)n) == n ? 0 : -EIO;
}

/* Read what the child reported within @ms milliseconds into @buf. */
static size_t wait_report(int fd, char *buf, size_t size, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t n = 0;

	while (n + 1 < size && poll(&p, 1, ms) == 1) {
		ssize_t r = read(fd, buf + n, size - 1 - n);

		if (r <= 0)
			break;
		n += (size_t)r;
		if (buf[n - 1] == '\n')
			break;
	}
	buf[n] = '\0';
	return n;
}

/*
 * A pipe kept open by its writer (dmesg -w): each line's hit must arrive
 * while the pipe is still open, not at EOF.
 */
static void test_pipe_stream(void **state)
{
	static const char l1[] = "[  1.0] boot\n[  2.0] CPU: 0 PID: 1 Comm: a Tainted: G        W 6.1 #1\n";
	static const char l2[] = "[  3.0] CPU: 1 PID: 2 Comm: b Not tainted 6.1 #1\n";
	int in[2], out[2], status;
	char buf[64];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(in[1]);
		close(out[0]);
		_exit(taint_scan_fd(in[0], report_hit, &out[1]) ? 1 : 0);
	}
	close(in[0]);
	close(out[1]);
	assert_int_equal(write(in[1], l1, sizeof(l1) - 1), sizeof(l1) - 1);
	wait_report(out[0], buf, sizeof(buf), 5000);
	if (strcmp(buf, "2\n") != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		fail_msg("hit on line 2 not seen within 5 s while the pipe is open (got '%s')",
			 buf);
	}
	assert_int_equal(write(in[1], l2, sizeof(l2) - 1), sizeof(l2) - 1);
	wait_report(out[0], buf, sizeof(buf), 5000);
	assert_string_equal(buf, "3\n");
	close(in[1]);
	assert_int_equal(wait_report(out[0], buf, sizeof(buf), 5000), 0);
	close(out[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_read_error(void **state)
{
	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(taint_scan_fd(-1, collect, &res), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_long_binary_line),
		cmocka_unit_test(test_split_marker),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_feed_lines),
		cmocka_unit_test(test_pipe_stream),
		cmocka_unit_test(test_read_error),
	};

	return cmocka_run_group_tests_name("scanner", tests, NULL, NULL);
}
