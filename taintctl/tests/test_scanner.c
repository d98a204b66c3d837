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
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scan_find.h"
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
 * Markers on both sides of the buffer's rounds (1 MiB chunk, 16 KiB
 * lookahead), one every 40 bytes, over three rounds, on lines whose
 * numbers the test tracks.  Every offset around the limits, for every
 * kind of hit and input path: test_scan_rounds.c.
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

/* Not a descriptor: fstat() fails, before anything is read. */
static void test_bad_fd(void **state)
{
	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(taint_scan_fd(-1, collect, &res), -EBADF);
}

/*
 * A descriptor whose read() fails after some data: a stream socket whose
 * peer was closed with data it had not read gives its data, then
 * ECONNRESET.  The hits of the complete lines come first, not the cut last
 * line ("Tainted: G  " of "Tainted: G        W": it would be G), and the
 * scan returns the error: in line mode (the default for a socket), in
 * blocks (the error comes inside a read() that filled part of the
 * buffer), and inside gzip data.
 */
static void test_read_error(void **state)
{
	static const char text[] =
		"CPU: 0 PID: 1 Comm: a Tainted: G    B   6.1 #1\n"
		"CPU: 1 PID: 2 Comm: b Not tainted 6.1 #1\n"
		"CPU: 2 PID: 3 Comm: c Tainted: G  ";
	size_t gzlen;
	unsigned char *gz = gz_encode(text, sizeof(text) - 1, &gzlen);

	(void)state;
	for (int how = 0; how < 3; how++) {
		const struct taint_scan_opts o = {
			.size = sizeof(o), .hit = collect, .arg = &res,
			.flags = how == 1 ? TAINT_SCAN_BLOCKS : 0,
		};
		/* the gzip data without its end: a cut line in it too */
		const void *data = how == 2 ? (const void *)gz : text;
		size_t len = how == 2 ? gzlen - 8 : sizeof(text) - 1;
		int sv[2];

		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		/* data sv[1] leaves unread: its close resets sv[0] */
		assert_int_equal(write(sv[0], "x", 1), 1);
		assert_int_equal(write(sv[1], data, len), (ssize_t)len);
		close(sv[1]);
		memset(&res, 0, sizeof(res));
		assert_int_equal(taint_scan_fd_opts(sv[0], &o, NULL),
				 -ECONNRESET);
		close(sv[0]);
		assert_int_equal(res.n, 2);
		assert_int_equal(res.line[0], 1);
		assert_true(res.mask[0] == 32);
		assert_int_equal(res.line[1], 2);
		assert_false(res.tainted[1]);
	}
	free(gz);
}

/* ---- events and boots (TAINT_SCAN_EVENTS, TAINT_SCAN_BOOTS) ------------- */

struct hitrec {
	enum taint_hit_kind kind;
	uint64_t line;
	char letter;
	uint64_t report_line;
	char comm[TAINT_COMM_MAX + 1];
	char text[48];		/* the start of hit->text */
	size_t text_len;
	uint64_t mask;		/* FIELD */
	uint64_t flags;		/* REPORT */
	char host[64];		/* TAINT_SCAN_BOOTS: "" none */
	bool has_host;
	int64_t stamp_us;
	char release[32];
};

static struct {
	size_t n;
	struct hitrec h[MAX_HITS];
} all;

static int collect_all(const struct taint_hit *h, void *arg)
{
	struct hitrec *r;

	(void)arg;
	assert_true(all.n < MAX_HITS);
	r = &all.h[all.n++];
	memset(r, 0, sizeof(*r));
	r->kind = h->kind;
	r->line = h->line;
	r->stamp_us = h->stamp_us;
	if (h->host) {
		assert_true(h->host_len > 0 && h->host_len < sizeof(r->host));
		memcpy(r->host, h->host, h->host_len);
		r->has_host = true;
	}
	if (h->release) {
		assert_true(h->release_len > 0 &&
			    h->release_len < sizeof(r->release));
		memcpy(r->release, h->release, h->release_len);
	}
	if (h->kind == TAINT_HIT_FIELD) {
		assert_non_null(h->field);
		r->mask = h->field->mask;
		return 0;
	}
	assert_null(h->field);
	assert_non_null(h->text);
	assert_null(memchr(h->text, '\n', h->text_len));
	r->text_len = h->text_len;
	r->flags = h->flags;
	memcpy(r->text, h->text, h->text_len < sizeof(r->text) - 1 ?
	       h->text_len : sizeof(r->text) - 1);
	if (h->kind == TAINT_HIT_EVENT) {
		assert_non_null(h->event);
		r->letter = h->letter;
		r->report_line = h->report_line;
		memcpy(r->comm, h->event->comm, h->event->comm_len + 1);
	}
	return 0;
}

/* How scan_all() passes the data. */
enum { BY_FILE, BY_FILE_NOMAP, BY_PIPE, BY_FEED, BY_FEED_LINES };

/*
 * Scan @buf with @flags: through a file (mapped or read), a pipe (line
 * mode), or feed()/feed_lines() in pieces of @piece bytes.
 */
static void scan_all(const char *buf, size_t len, int how, size_t piece,
		     unsigned int flags)
{
	struct taint_scan_opts o = { .size = sizeof(o), .hit = collect_all };

	memset(&all, 0, sizeof(all));
	if (how == BY_FILE || how == BY_FILE_NOMAP) {
		FILE *tmp = tmpfile();

		assert_non_null(tmp);
		assert_int_equal(fwrite(buf, 1, len, tmp), len);
		fflush(tmp);
		rewind(tmp);
		o.flags = flags | (how == BY_FILE_NOMAP ? TAINT_SCAN_NOMAP : 0);
		assert_int_equal(taint_scan_fd_opts(fileno(tmp), &o, NULL), 0);
		fclose(tmp);
	} else if (how == BY_PIPE) {
		int p[2];
		pid_t pid;
		int status;

		assert_int_equal(pipe(p), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(p[0]);
			_exit(write(p[1], buf, len) == (ssize_t)len ? 0 : 1);
		}
		close(p[1]);
		o.flags = flags;
		assert_int_equal(taint_scan_fd_opts(p[0], &o, NULL), 0);
		close(p[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	} else {
		struct taint_scanner *sc = taint_scanner_new();

		assert_non_null(sc);
		taint_scanner_set_flags(sc, flags);
		for (size_t off = 0; off < len; off += piece) {
			size_t n = len - off < piece ? len - off : piece;

			if (how == BY_FEED_LINES)
				assert_int_equal(taint_scanner_feed_lines(
					sc, buf + off, n, collect_all, NULL), 0);
			else
				assert_int_equal(taint_scanner_feed(
					sc, buf + off, n, collect_all, NULL), 0);
		}
		assert_int_equal(taint_scanner_finish(sc, collect_all, NULL), 0);
		taint_scanner_free(sc);
	}
}

struct want {
	enum taint_hit_kind kind;
	uint64_t line;
	char letter;		/* EVENT */
	uint64_t report_line;	/* EVENT */
};

static void check_hits(const struct want *w, size_t n, const char *what)
{
	if (all.n != n) {
		for (size_t i = 0; i < all.n; i++)
			print_message("# hit %zu: kind %d line %llu letter '%c' report %llu\n",
				      i, all.h[i].kind,
				      (unsigned long long)all.h[i].line,
				      all.h[i].letter ? all.h[i].letter : '-',
				      (unsigned long long)all.h[i].report_line);
		fail_msg("%s: %zu hits, want %zu", what, all.n, n);
	}
	for (size_t i = 0; i < n; i++) {
		const struct hitrec *h = &all.h[i];

		if (h->kind != w[i].kind || h->line != w[i].line ||
		    h->letter != w[i].letter ||
		    h->report_line != w[i].report_line)
			fail_msg("%s: hit %zu is kind %d line %llu letter '%c' report %llu, want kind %d line %llu letter '%c' report %llu",
				 what, i, h->kind, (unsigned long long)h->line,
				 h->letter ? h->letter : '-',
				 (unsigned long long)h->report_line, w[i].kind,
				 (unsigned long long)w[i].line,
				 w[i].letter ? w[i].letter : '-',
				 (unsigned long long)w[i].report_line);
	}
}

/* Every way of passing @buf gives the hits @w. */
static void check_all_ways(const char *buf, size_t len, unsigned int flags,
			   const struct want *w, size_t n)
{
	static const size_t feed_pieces[] = { 1, 7, 4096, 1 << 20 };
	char what[64];

	scan_all(buf, len, BY_FILE, 0, flags);
	check_hits(w, n, "mapped file");
	scan_all(buf, len, BY_FILE_NOMAP, 0, flags);
	check_hits(w, n, "read file");
	scan_all(buf, len, BY_PIPE, 0, flags);
	check_hits(w, n, "pipe");
	for (size_t i = 0; i < sizeof(feed_pieces) / sizeof(feed_pieces[0]); i++) {
		if (feed_pieces[i] == 1 && len > (256u << 10))
			continue;	/* slow under ASan */
		snprintf(what, sizeof(what), "feed by %zu", feed_pieces[i]);
		scan_all(buf, len, BY_FEED, feed_pieces[i], flags);
		check_hits(w, n, what);
		snprintf(what, sizeof(what), "feed_lines by %zu", feed_pieces[i]);
		scan_all(buf, len, BY_FEED_LINES, feed_pieces[i], flags);
		check_hits(w, n, what);
	}
}

static char *read_fixture(const char *name, size_t *len)
{
	char path[256];
	FILE *fp;
	char *buf;

	snprintf(path, sizeof(path), "tests/console/%s", name);
	fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open %s (run from taintctl/)", path);
	buf = read_stream(fp, len);
	fclose(fp);
	return buf;
}

#define F(l) { TAINT_HIT_FIELD, l, 0, 0 }
#define E(l, x, r) { TAINT_HIT_EVENT, l, x, r }
#define BOOT(l) { TAINT_HIT_BOOT, l, 0, 0 }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Real console logs (tests/console/SOURCES.md): the events and the report
 * each belongs to, as read in the logs: an oops's events after its
 * "CPU: ... Tainted:" line, and a panic after the oops that prints the
 * same events without a field of its own.
 */
static void test_console_oops_then_panic(void **state)
{
	static const struct want w[] = {
		BOOT(1), F(10), F(11), F(17), F(18),
		E(23, 'B', 17), E(24, 'U', 17), E(25, 'D', 17),
		E(31, 'B', 0), E(32, 'U', 0), E(33, 'D', 0),
	};
	size_t len;
	char *buf = read_fixture("oops-then-panic.log", &len);

	(void)state;
	check_all_ways(buf, len, TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS, w, N(w));
	assert_string_equal(all.h[6].comm, "sh");
	assert_memory_equal(all.h[6].text, "Taint U: ts=7.681353 ", 21);
	/* without BOOTS: no boot hit, the same events */
	check_all_ways(buf, len, TAINT_SCAN_EVENTS, w + 1, N(w) - 1);
	/* without flags: the fields only, as before */
	scan_all(buf, len, BY_FILE, 0, 0);
	check_hits((const struct want[]){ F(10), F(11), F(17), F(18) }, 4,
		   "no flags");
	free(buf);
}

static void test_console_warn_then_panic(void **state)
{
	static const struct want w[] = {
		BOOT(1), F(8), F(9), E(14, 'U', 8),
		F(19), F(20), E(25, 'U', 19), E(26, 'W', 19), E(27, 'C', 19),
		E(28, 'O', 19), E(29, 'N', 19),
	};
	size_t len;
	char *buf = read_fixture("warn-then-panic.log", &len);

	(void)state;
	check_all_ways(buf, len, TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS, w, N(w));
	free(buf);
}

/* A comm that tries to forge a line: escaped, one event U with that comm. */
static void test_console_forged(void **state)
{
	static const struct want w[] = {
		F(10), F(11), F(16), F(17),
		E(21, 'B', 16), E(22, 'U', 16), E(23, 'D', 16),
	};
	size_t len;
	char *buf = read_fixture("oops-forged.log", &len);

	(void)state;
	check_all_ways(buf, len, TAINT_SCAN_EVENTS, w, N(w));
	assert_string_equal(all.h[5].comm, "s\nTaint W: fake");
	free(buf);
}

/* A real event line's body (oops-then-panic.log line 24). */
#define BODY "ts=7.681353 utc=2026-12-06T22:38:52Z origin=user flags=U new=U pid=51 uid=0 auid=- comm=\"sh\" reason=\"scenario oops-then-panic: RTSJ \\\"raw\\\" memory \\\\ access\""

/* The prefixes of console, syslog, journalctl and /dev/kmsg; CRLF; what is
 * not an event. */
static void test_event_prefixes(void **state)
{
	static const char s[] =
		"Taint U: " BODY "\n"				/* 1 */
		"[    7.867680] Taint U: " BODY "\n"		/* 2 */
		"[    7.867680][   T53] Taint U: " BODY "\r\n"	/* 3 */
		"Dec 06 22:38:52 host kernel: Taint U: " BODY "\n" /* 4 */
		"6,339,7867680,-;Taint U: " BODY "\n"		/* 5 */
		"xTaint U: " BODY "\n"				/* 6: glued */
		"say Taint U: " BODY "\n"			/* 7: prose */
		"[ 1.0] Taint u: " BODY "\n"			/* 8: lower case */
		"[ 1.0] Taint U:" BODY "\n"			/* 9: no blank */
		"[ 1.0] Taint U: ts=1.0 not a taint_log line\n"	/* 10 */
		"[ 1.0] Taint U: " BODY " pid=2\n"		/* 11: pid twice */
		"[ 1.0] Taint W: " BODY;			/* 12: no '\n' */
	static const struct want w[] = {
		E(1, 'U', 0), E(2, 'U', 0), E(3, 'U', 0), E(4, 'U', 0),
		E(5, 'U', 0), E(12, 'W', 0),
	};

	(void)state;
	check_all_ways(s, sizeof(s) - 1, TAINT_SCAN_EVENTS, w, N(w));
	/* the text: from the marker to the line's end, no "\r" */
	assert_int_equal(all.h[2].text_len, strlen("Taint U: " BODY));
	assert_int_equal(all.h[5].text_len, strlen("Taint W: " BODY));
	for (size_t i = 0; i < all.n; i++)
		assert_memory_equal(all.h[i].text, "Taint ", 6);
}

/*
 * An event's line is at most EVENT_LINE_MAX (4096) bytes from its marker
 * (a taint_log line is under 2 KiB): a longer one is no event, though it
 * would parse (a long unknown field is kept).  Here the last line, with
 * no newline: 4095 bytes are an event, 4096 are not.
 */
static void test_event_line_max(void **state)
{
	static const char head[] = "x\n[ 1.0] Taint U: " BODY " future=";
	static const struct want w[] = { E(2, 'U', 0) };
	char *buf = malloc(sizeof(head) + 4096);

	(void)state;
	assert_non_null(buf);
	for (size_t tl = 4095; tl <= 4096; tl++) {
		/* the line from its 'T' (head's byte 9) is @tl bytes */
		size_t len = 9 + tl;

		memcpy(buf, head, sizeof(head) - 1);
		memset(buf + sizeof(head) - 1, 'a', len - (sizeof(head) - 1));
		check_all_ways(buf, len, TAINT_SCAN_EVENTS, w, tl < 4096);
		if (tl < 4096)
			assert_int_equal(all.h[0].text_len, tl);
	}
	free(buf);
}

/* Boots: the kernel's first line, journalctl's separators, one hit each. */
static void test_boots(void **state)
{
	static const char s[] =
		"[    0.000000] Linux version 6.12.118+ (gcc) #1\n"	/* 1 */
		"CPU: 0 PID: 1 Comm: a Tainted: G    B\n"		/* 2 */
		"-- Boot 0123456789abcdef --\n"				/* 3 */
		"Dec 06 22:38:52 host kernel: Linux version 6.1 #1\n"	/* 4: same boot */
		"Dec 06 22:38:53 host kernel: Taint B: " BODY "\n"	/* 5 */
		"-- Reboot --\r\n"					/* 6 */
		"say Linux version 6.1\n"				/* 7: prose */
		" -- Boot 1 --\n"					/* 8: not a whole line */
		"-- Boot 1 -\n"						/* 9 */
		"Linux version 6.2\n"					/* 10: the boot of 6 */
		"CPU: 0 PID: 1 Comm: a Tainted: G    B\n"		/* 11 */
		"Taint B: " BODY "\n"					/* 12 */
		"-- Boot 2 --\n"					/* 13 */
		"Taint B: " BODY "\n";					/* 14 */
	static const struct want w[] = {
		BOOT(1), F(2), BOOT(3), E(5, 'B', 0), BOOT(6),
		F(11), E(12, 'B', 11), BOOT(13), E(14, 'B', 0),
	};

	(void)state;
	check_all_ways(s, sizeof(s) - 1, TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS,
		       w, N(w));
	assert_int_equal(all.h[2].text_len, strlen("-- Boot 0123456789abcdef --"));
	assert_int_equal(all.h[4].text_len, strlen("-- Reboot --"));
	assert_memory_equal(all.h[0].text, "Linux version 6.12.118+ ", 24);
	/* a banner on the stream's first byte, with the reports' needles
	 * searched too (dmesg -t) */
	check_all_ways("Linux version 6.1 #1\n", 21,
		       TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS,
		       (const struct want[]){ BOOT(1) }, 1);
	/* BOOTS alone: boots, no events, fields */
	scan_all(s, sizeof(s) - 1, BY_FILE, 0, TAINT_SCAN_BOOTS);
	check_hits((const struct want[]){ BOOT(1), F(2), BOOT(3), BOOT(6),
					   F(11), BOOT(13) }, 6,
		   "boots only");
}

#define R(l) { TAINT_HIT_REPORT, l, 0, 0 }

/* each hit's host, printk timestamp and release, as every path reads them */
struct origin_want {
	const char *host;	/* NULL: none */
	int64_t stamp_us;
	const char *release;	/* NULL: none */
};

static void check_origins(const char *buf, size_t len, unsigned int flags,
			  const struct origin_want *o, size_t n)
{
	static const size_t ways_pieces[] = { 1, 7, 4096 };

	for (int how = 0; how < 3 + 2 * (int)N(ways_pieces); how++) {
		int by = how < 3 ? (int[]){ BY_FILE, BY_FILE_NOMAP, BY_PIPE }[how] :
			 (how - 3) % 2 ? BY_FEED_LINES : BY_FEED;
		size_t piece = how < 3 ? 0 : ways_pieces[(how - 3) / 2];

		scan_all(buf, len, by, piece, flags);
		assert_int_equal(all.n, n);
		for (size_t i = 0; i < n; i++) {
			const struct hitrec *h = &all.h[i];

			if (!o[i].host != !h->has_host ||
			    (o[i].host && strcmp(o[i].host, h->host)) ||
			    o[i].stamp_us != h->stamp_us ||
			    !o[i].release != !h->release[0] ||
			    (o[i].release && strcmp(o[i].release, h->release)))
				fail_msg("way %d piece %zu, hit %zu (line %llu): host '%s' stamp %lld release '%s', want '%s' %lld '%s'",
					 by, piece, i, (unsigned long long)h->line,
					 h->host, (long long)h->stamp_us, h->release,
					 o[i].host ? o[i].host : "(none)",
					 (long long)o[i].stamp_us,
					 o[i].release ? o[i].release : "(none)");
		}
	}
}

/*
 * The origin of each hit (TAINT_SCAN_BOOTS): the host of syslog's and
 * journalctl's prefixes, not a word of a message; printk timestamps in
 * their forms; the release of a banner and of a field; a separator's from
 * the line after it.
 */
static void test_origins(void **state)
{
	static const char s[] =
		"Dec  7 10:00:00 hostA kernel: [    0.000000] Linux version 6.1.0-18-amd64 (debian) #1\n"
		"2026-12-07T10:00:01.123456+01:00 web-2.example kernel: [   12.5] CPU: 0 PID: 1 Comm: a Tainted: G    B   6.12.9 #1\n"
		"Mon 2026-12-07 10:00:02 UTC db1 kernel: Oops: 0002 [#1] SMP\n"
		"[  300.123456] hostC kernel: WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2\n"
		"1765101600.123456 hostD kernel: CPU: 1 PID: 2 Comm: b Tainted: G      D\n"
		"[    7.000001] Booting paravirtualized kernel: Tainted: G    B\n"
		"<4>[   42.100000] CPU: 0 PID: 1 Comm: c Not tainted 6.12.0+ #3\n"
		"6,1234,5000123,-;CPU: 0 PID: 1 Comm: d Tainted: G    B\n"
		"-- Boot 0123456789abcdef --\n"
		"Dec 07 22:38:52.000001 hostE kernel: Linux version 6.2.0 #1\n"
		"-- Reboot --\n"
		"Dec  7 10:00:00 hostF kernel: [    0.000000] Kernel command line: x\n"
		"no stamp: Tainted: G    B\n"
		"[  12.5 no close: Tainted: G    B\n";
	static const struct origin_want o[] = {
		{ "hostA", 0, "6.1.0-18-amd64" },
		{ "web-2.example", 12500000, "6.12.9" },
		{ "db1", -1, NULL },
		{ "hostC", -1, NULL },
		{ "hostD", -1, NULL },
		{ NULL, 7000001, NULL },
		{ NULL, 42100000, "6.12.0+" },
		{ NULL, 5000123, NULL },
		{ "hostE", -1, "6.2.0" },
		{ "hostF", 0, NULL },
		{ NULL, -1, NULL },
		{ NULL, -1, NULL },
	};

	(void)state;
	check_origins(s, sizeof(s) - 1, TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS,
		      o, N(o));
	/* without TAINT_SCAN_BOOTS: no origin */
	scan_all(s, sizeof(s) - 1, BY_FILE, 0, TAINT_SCAN_REPORTS);
	for (size_t i = 0; i < all.n; i++)
		assert_true(!all.h[i].has_host && all.h[i].stamp_us == -1);
}

/*
 * The reboot after a panic on a console that prints no banner ("quiet"):
 * the first line of the same host with a lower timestamp, within 1000
 * lines; a banner there is the boot (with its release); another host's
 * lines are not.
 */
static void test_panic_reboot(void **state)
{
	static const char quiet[] =
		"[  120.000000] Oops: 0002 [#1] SMP\n"			/* 1 */
		"[  120.100000] Kernel panic - not syncing: Fatal exception\n"	/* 2 */
		"[  120.100001] ---[ end Kernel panic - not syncing ]---\n"	/* 3 */
		"SeaBIOS (version 1.16.2)\n"					/* 4 */
		"[  120.100002] late\n"						/* 5 */
		"[    1.234567] ACPI Error: AE_NOT_FOUND\n"			/* 6 */
		"[    0.500000] earlier, but the walk is over\n";		/* 7 */
	static const char banner[] =
		"Dec  7 10:00:00 a kernel: [  120.100000] Kernel panic - not syncing: x\n"
		"Dec  7 10:00:01 b kernel: [    3.000000] another host\n"
		"Dec  7 10:01:00 a kernel: [    0.000000] Linux version 6.12.9 (gcc) #1\n";
	static const struct want wq[] = { R(1), R(2), BOOT(6) };
	static const struct want wb[] = { R(1), BOOT(3) };
	static const struct origin_want ob[] = {
		{ "a", 120100000, NULL }, { "a", 0, "6.12.9" },
	};
	char *many = malloc(1100 * 40);

	(void)state;
	check_all_ways(quiet, sizeof(quiet) - 1,
		       TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS, wq, N(wq));
	assert_memory_equal(all.h[2].text, "[    1.234567] ACPI", 19);
	/* without REPORTS (no panic is seen) or BOOTS: no such boot */
	scan_all(quiet, sizeof(quiet) - 1, BY_FILE, 0, TAINT_SCAN_BOOTS);
	assert_int_equal(all.n, 0);
	check_all_ways(banner, sizeof(banner) - 1,
		       TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS, wb, N(wb));
	check_origins(banner, sizeof(banner) - 1,
		      TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS, ob, N(ob));
	/* the walk reads the 1000 lines after the panic, not the 1001st */
	assert_non_null(many);
	for (int last = 1000; last <= 1001; last++) {
		size_t len = (size_t)sprintf(many, "[  120.100000] Kernel panic - not syncing: x\n");

		for (int i = 1; i < last; i++)
			len += (size_t)sprintf(many + len, "[  120.200000] line\n");
		len += (size_t)sprintf(many + len, "[    1.000000] reboot\n");
		scan_all(many, len, BY_FILE, 0,
			 TAINT_SCAN_BOOTS | TAINT_SCAN_REPORTS);
		if (last == 1000)
			check_hits((const struct want[]){ R(1), BOOT(1001) }, 2,
				   "the walk's last line");
		else
			check_hits((const struct want[]){ R(1) }, 1,
				   "after the walk");
	}
	free(many);
}

/*
 * A line whose start a round dropped (read in blocks): its hit
 * still has the host and stamp, from the line's first bytes kept aside;
 * the line put at every offset around the first round's limit.
 */
static void test_origin_rounds(void **state)
{
	static const char rec[] =
		"Dec  7 10:00:00 hostA kernel: [  300.000001] CPU: 0 PID: 1 Comm: a Tainted: G    B\n";
	size_t limit = 1u << 20, len = limit + 64 * 1024;
	char *buf = malloc(len);

	(void)state;
	assert_non_null(buf);
	for (size_t at = limit - sizeof(rec); at <= limit + 8; at++) {
		/* filler lines of 100 bytes before, then the record, then
		 * filler again */
		memset(buf, 'x', len);
		for (size_t i = 99; i < len; i += 100)
			buf[i] = '\n';
		buf[at - 1] = '\n';
		memcpy(buf + at, rec, sizeof(rec) - 1);
		for (int way = 0; way < 2; way++) {
			/* a file read, and a pipe read in blocks */
			scan_all(buf, len, way ? BY_PIPE : BY_FILE_NOMAP, 0,
				 TAINT_SCAN_BOOTS | (way ? TAINT_SCAN_BLOCKS : 0));
			if (all.n != 1 || !all.h[0].has_host ||
			    strcmp(all.h[0].host, "hostA") ||
			    all.h[0].stamp_us != 300000001)
				fail_msg("record at %zu, %s: %zu hits, host '%s', stamp %lld",
					 at, way ? "pipe" : "file", all.n,
					 all.n ? all.h[0].host : "",
					 all.n ? (long long)all.h[0].stamp_us : -2LL);
		}
	}
	free(buf);
}


/*
 * Report headers where a message starts, with the flags the kernel sets for
 * each; prose, a word that only contains a needle and a second header on
 * one line are no hits.
 */
static void test_reports(void **state)
{
	static const char s[] =
		"[    1.0] WARNING: CPU: 0 PID: 1 at kernel/x.c:1 f+0x1/0x2\n"	/* 1 W */
		"say WARNING: CPU: 0 in prose\n"				/* 2 */
		"[    1.1] WARNING: possible circular locking dependency detected\n" /* 3 */
		"Dec 06 10:00:00 host kernel: Oops: 0002 [#1] SMP\n"		/* 4 D */
		"[    1.2] kernel BUG at mm/slub.c:1!\n"			/* 5 D */
		"[    1.3] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n"	/* 6 L */
		"4,5,6,-;BUG: KASAN: use-after-free in f+0x1/0x2\n"		/* 7 B */
		"BUG: scheduling while atomic: a/1/0x00000002\n"		/* 8 W */
		"general protection fault, probably for non-canonical address\n" /* 9 D */
		"Internal error: Oops: 0000000096000044 [#1] PREEMPT SMP\n"	/* 10 D */
		"Kernel panic - not syncing: Fatal exception\n"		/* 11 */
		"BUG: KCSAN: data-race in f / g\n"				/* 12 */
		"mykernel BUG at x\n"						/* 13 */
		"WARNING: kernel/x.c:12 at f+0x1/0x2, CPU#0: a/1\r\n"		/* 14 W */
		"BUGS: none\n"							/* 15 */
		"BUG: kernel NULL pointer dereference, address: 0\n"		/* 16 D */
		"BUG: sleeping function called from invalid context at x\n"	/* 17 W */
		"BUG: Bad page state in process a  pfn:1\n";			/* 18 B */
	static const struct want w[] = {
		R(1), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11),
		R(12), R(14), R(16), R(17), R(18),
	};
	static const uint64_t flags[] = {
		1u << 9, 0, 1u << 7, 1u << 7, 1u << 14, 1u << 5, 1u << 9,
		1u << 7, 1u << 7, 0, 0, 1u << 9, 1u << 7, 1u << 9, 1u << 5,
	};

	(void)state;
	check_all_ways(s, sizeof(s) - 1, TAINT_SCAN_REPORTS, w, N(w));
	for (size_t i = 0; i < N(w); i++)
		if (all.h[i].flags != flags[i])
			fail_msg("report %zu (line %llu): flags %#llx, want %#llx",
				 i, (unsigned long long)all.h[i].line,
				 (unsigned long long)all.h[i].flags,
				 (unsigned long long)flags[i]);
	assert_memory_equal(all.h[3].text, "kernel BUG at mm/slub.c:1!", 26);
	assert_int_equal(all.h[3].text_len, 26);
	assert_memory_equal(all.h[8].text, "Internal error: ", 16);
	/* without the flag: none */
	scan_all(s, sizeof(s) - 1, BY_FILE, 0, TAINT_SCAN_BOOTS);
	assert_int_equal(all.n, 0);
}

/*
 * Line mode, the data cut in two at every byte: the same hits, also when a
 * cut leaves a near miss ('L', "-", "Taint") at the end of what was fed.
 */
static void test_split_events(void **state)
{
	static const char s[] =
		"L\n"							/* 1 */
		"CPU: 0 PID: 1 Comm: a Tainted: G    B\n"		/* 2 */
		"Linu\n"						/* 3 */
		"[ 1.0] Taint B: " BODY "\n"				/* 4 */
		"-\nTaint\nTainted\n"					/* 5-7 */
		"-- Boot 7 --\n"					/* 8 */
		"[ 0.0] Linux version 6.1\n"				/* 9 */
		"Taint U: " BODY "\n"					/* 10 */
		"[ 0.0] Linux version 6.2\n"				/* 11 */
		"Not tainted\n"						/* 12 */
		"L\nTainted:\n";					/* 13-14 */
	static const struct want w[] = {
		F(2), E(4, 'B', 2), BOOT(8), E(10, 'U', 0), BOOT(11), F(12),
		F(14),
	};
	const size_t len = sizeof(s) - 1;

	(void)state;
	for (size_t cut = 0; cut <= len; cut++) {
		struct taint_scanner *sc = taint_scanner_new();
		char what[32];

		memset(&all, 0, sizeof(all));
		taint_scanner_set_flags(sc, TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS);
		assert_int_equal(taint_scanner_feed_lines(sc, s, cut,
							  collect_all, NULL), 0);
		assert_int_equal(taint_scanner_feed_lines(sc, s + cut, len - cut,
							  collect_all, NULL), 0);
		assert_int_equal(taint_scanner_finish(sc, collect_all, NULL), 0);
		taint_scanner_free(sc);
		snprintf(what, sizeof(what), "cut at %zu", cut);
		check_hits(w, N(w), what);
	}
}

/*
 * Events, fields and boots around every round edge of the buffer (1 MiB
 * chunks, 16 KiB lookahead) and the pages of a mapped file, between lines
 * with NULs and a 40 KiB line, some with CRLF; expected lines computed
 * from where the records were put.
 */
static void test_event_boundaries(void **state)
{
	static const char *const rec[] = {
		"[ 1.0] CPU: 0 PID: 1 Comm: a Tainted: G    B\n",
		"[ 1.1] Taint B: " BODY "\n",
		"[ 1.2] Taint U: " BODY "\r\n",
		"[ 0.0] Linux version 6.1\n",
	};
	static const size_t hot[] = { 4096, 8192 + 3, (1u << 20) - (16u << 10),
				      1u << 20, (2u << 20) - (16u << 10) + 16,
				      2u << 20 };
	const size_t len = (2u << 20) + (64u << 10);
	char *buf = malloc(len);
	struct want *w = calloc(MAX_HITS, sizeof(*w));
	size_t nw = 0, pos = 0, r = 0;
	uint64_t line = 1, report = 0;

	(void)state;
	assert_non_null(buf);
	assert_non_null(w);
	/* filler: lines of 99 bytes with a NUL, and a 40 KiB line at 64 KiB */
	for (size_t i = 0; i < len; i++)
		buf[i] = i % 100 == 99 ? '\n' : i % 100 == 50 ? '\0' : 'x';
	memset(buf + (64u << 10), 'y', 40u << 10);
	for (size_t h = 0; h < N(hot); h++)
		for (size_t d = 0; d < 40; d++) {
			size_t at = hot[h] - 300 + d * 17;

			/* at a line start */
			while (at > pos && buf[at - 1] != '\n')
				at++;
			if (at < pos)
				at = pos;
			if (at + 300 > len)
				break;
			memcpy(buf + at, rec[r], strlen(rec[r]));
			pos = at + strlen(rec[r]);
			r = (r + 1) % N(rec);
		}
	/* expected: the records as the test put them */
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			line++;
			continue;
		}
		if ((i && buf[i - 1] != '\n') || i + 300 > len)
			continue;
		if (!memcmp(buf + i, rec[0], strlen(rec[0]))) {
			w[nw++] = (struct want)F(line);
			report = line;
		} else if (!memcmp(buf + i, rec[1], strlen(rec[1]))) {
			w[nw++] = (struct want)E(line, 'B', report);
		} else if (!memcmp(buf + i, rec[2], strlen(rec[2]))) {
			w[nw++] = (struct want)E(line, 'U', report);
		} else if (!memcmp(buf + i, rec[3], strlen(rec[3]))) {
			w[nw++] = (struct want)BOOT(line);
			report = 0;
		}
		assert_true(nw < MAX_HITS);
	}
	assert_true(nw > 200);
	check_all_ways(buf, len, TAINT_SCAN_EVENTS | TAINT_SCAN_BOOTS, w, nw);
	free(w);
	free(buf);
}

/*
 * A mapped file: read from the descriptor's offset (not page aligned),
 * the offset left at the end; a last line without '\n'.
 */
static void test_map_offset(void **state)
{
	static const char head[] = "CPU: 0 PID: 1 Comm: a Tainted: G    B\n";
	char *buf = malloc(3 * 4096);
	FILE *tmp = tmpfile();
	struct taint_scan_opts o = { .size = sizeof(o), .hit = collect_all,
				     .flags = TAINT_SCAN_EVENTS };
	size_t len = 0;

	(void)state;
	assert_non_null(buf);
	assert_non_null(tmp);
	memset(buf, '.', 3 * 4096);
	for (size_t i = 63; i < 3 * 4096; i += 64)
		buf[i] = '\n';
	memcpy(buf, head, strlen(head));		/* before the offset */
	/* a field across the first page boundary, on line 65 of the file */
	memcpy(buf + 4096 - 10, "Tainted: G    W\n", 16);
	len = 3 * 4096;
	memcpy(buf + len - 200, "\nTaint W: " BODY, strlen("\nTaint W: " BODY));
	len = len - 200 + strlen("\nTaint W: " BODY);
	assert_int_equal(fwrite(buf, 1, len, tmp), len);
	fflush(tmp);
	assert_int_equal(fseek(tmp, 100, SEEK_SET), 0);
	/* fseek() may not move the descriptor: do it there */
	assert_int_equal(lseek(fileno(tmp), 100, SEEK_SET), 100);
	memset(&all, 0, sizeof(all));
	assert_int_equal(taint_scan_fd_opts(fileno(tmp), &o, NULL), 0);
	/* lines counted from offset 100 (the middle of the file's line 2) */
	assert_int_equal(all.n, 2);
	assert_int_equal(all.h[0].kind, TAINT_HIT_FIELD);
	assert_int_equal(all.h[0].line, 1 + (4096 - 10 - 100 + 36) / 64);
	assert_true(all.h[0].mask == 512);
	assert_int_equal(all.h[1].kind, TAINT_HIT_EVENT);
	assert_int_equal(all.h[1].letter, 'W');
	assert_int_equal(lseek(fileno(tmp), 0, SEEK_CUR), (off_t)len);
	fclose(tmp);
	free(buf);
}

/* Naive reference of taint__scan_find_fn. */
static size_t find_ref(const char *p, size_t n, size_t avail, bool boots,
		       uint64_t *nl)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		size_t room = avail - i;

		if (room < 4 && (p[i] == 'a' || (boots && (p[i] == 'L' || p[i] == '-'))))
			break;
		if (room >= 4 && !memcmp(p + i, "aint", 4))
			break;
		if (boots && p[i] == 'L' &&
		    (room < 14 || !memcmp(p + i, "Linux version ", 14)))
			break;
		if (boots && p[i] == '-' && (room < 8 ||
		    !memcmp(p + i, "-- Boot ", 8) || !memcmp(p + i, "-- Reboo", 8)))
			break;
		c += p[i] == '\n';
	}
	*nl = c;
	return i;
}

/* The finder @name agrees with the reference on random text full of near
 * misses, at every start and end, with and without boots. */
static void check_finder(const char *name)
{
	static const char *const bits[] = {
		"aint", "ain", "a nt", "Linux version ", "Linux versio",
		"Linu", "-- Boot ", "-- Reboot --", "-- B", "--", "\n", "\n\n",
		"t", "n", "a", "L", "-", " ",
	};
	const size_t len = 4000;
	char *buf = malloc(len);
	unsigned int seed = 1;

	assert_non_null(buf);
	for (size_t i = 0; i < len; ) {
		const char *b;
		size_t k;

		seed = seed * 1103515245u + 12345u;
		b = bits[(seed >> 16) % N(bits)];
		k = strlen(b);
		if (i + k > len)
			k = len - i;
		memcpy(buf + i, b, k);
		i += k;
	}
	for (int boots = 0; boots <= 1; boots++) {
		taint__scan_find_fn fn = taint__scan_finder_named(name, boots);

		if (!fn)
			fail_msg("no finder %s (boots %d) on this CPU", name, boots);
		for (size_t start = 0; start < 300; start += 7)
			for (size_t end = len - 40; end <= len; end++) {
				const char *p = buf + start;
				size_t avail = len - start;
				size_t n = end - start;
				uint64_t nl, rnl;
				size_t got = fn(p, n, avail, &nl);
				size_t want = find_ref(p, n, avail, boots, &rnl);

				if (got != want || nl != rnl)
					fail_msg("%s boots=%d start %zu n %zu: %zu/%llu, want %zu/%llu",
						 name, boots, start, n, got,
						 (unsigned long long)nl, want,
						 (unsigned long long)rnl);
			}
		/* walk every candidate of the whole buffer */
		for (size_t at = 0; at < len; ) {
			uint64_t nl, rnl;
			size_t got = fn(buf + at, len - at, len - at, &nl);
			size_t want = find_ref(buf + at, len - at, len - at,
					       boots, &rnl);

			assert_int_equal(got, want);
			assert_int_equal(nl, rnl);
			at += got + 1;
		}
	}
	free(buf);
}

/*
 * Each finder where this CPU runs it, else a skip that says so; the
 * scanner uses the fastest (taint__scan_finder()): AVX2 where the CPU has
 * it, asked here of the CPU itself.
 */
static void test_finder_avx2(void **state)
{
	(void)state;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("popcnt"))
		skip_because("no AVX2 on this CPU: the AVX2 finder is not tested");
	check_finder("avx2");
	for (int boots = 0; boots <= 1; boots++)
		if (taint__scan_finder(boots) !=
		    taint__scan_finder_named("avx2", boots))
			fail_msg("the CPU has AVX2, the scanner does not use it (boots %d)",
				 boots);
#else
	skip_because("not an x86-64 CPU: no AVX2 finder");
#endif
}

static void test_finder_sse2(void **state)
{
	(void)state;
#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
	check_finder("sse2");
#else
	skip_because("not an x86-64 CPU: no SSE2 finder");
#endif
}

static void test_finder_c(void **state)
{
	(void)state;
	check_finder("c");
	assert_null(taint__scan_finder_named("none", false));
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
		cmocka_unit_test(test_bad_fd),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_console_oops_then_panic),
		cmocka_unit_test(test_console_warn_then_panic),
		cmocka_unit_test(test_console_forged),
		cmocka_unit_test(test_event_prefixes),
		cmocka_unit_test(test_event_line_max),
		cmocka_unit_test(test_boots),
		cmocka_unit_test(test_origins),
		cmocka_unit_test(test_panic_reboot),
		cmocka_unit_test(test_origin_rounds),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_split_events),
		cmocka_unit_test(test_event_boundaries),
		cmocka_unit_test(test_map_offset),
		cmocka_unit_test(test_finder_avx2),
		cmocka_unit_test(test_finder_sse2),
		cmocka_unit_test(test_finder_c),
	};

	return cmocka_run_group_tests_name("scanner", tests, NULL, NULL);
}
