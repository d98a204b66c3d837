/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rel.h - what the reliability tests of the taint ABI share: the test
 * harness (kselftest_harness.h), whole-file reads, and the taint log read
 * through libtaint (the one parser of the format, taintctl/lib), held to
 * the v2 line format of docs/abi.md 1.3 and of
 * Documentation/ABI/testing/procfs-sys-kernel-taint (which comes with the
 * series, patch 0009).
 *
 * libtaint is tolerant (any field order, unknown fields, v1 lines); these
 * tests are not: rlog_parse() refuses a log that libtaint had to excuse
 * anything in, and compares every line with the line an explicit model of
 * the kernel's v2 formatter prints for the parsed event (model_line()), so
 * field order, escapes and letter order are checked byte for byte.
 * Header-only: each test is one static binary linked with libtaint.a.
 */
#ifndef REL_H
#define REL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "taint.h"

#define P_TAINTED	"/proc/sys/kernel/tainted"
#define P_REASON	"/proc/sys/kernel/taint_reason"
#define P_LOG		"/proc/sys/kernel/taint_log"

/* Facts of the kernel under test, not of the format: */
#define KFLAGS		19	/* TAINT_FLAGS_COUNT of linux 6.12 */
#define KMASK		((1UL << KFLAGS) - 1)
#define USER_KEPT	16	/* v2: the first 16 recorded user requests kept */
#define U_BIT		(1UL << 6)

/* ---- kselftest_harness.h ------------------------------------------------ */

/*
 * Each test program's checks are TEST_F()s of kselftest_harness.h (the
 * kernel tree's tools/testing/selftests, KSFT_DIR in the Makefile): the
 * harness numbers them and prints the plan. Its SIGALRM handler does not
 * use its third parameter; the wrapper TEST_F() expands to keeps locals
 * across its setjmp(), which -Wclobbered (-Wextra) warns of at -O2 in the
 * file that expands it. (TEST() is not used: its wrapper does not use its
 * variant parameter.)
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#pragma GCC diagnostic ignored "-Wclobbered"

/* A fixture that only names a group of tests: no data, no set-up. */
#define REL_FIXTURE(name)		\
	FIXTURE(name) {};		\
	FIXTURE_SETUP(name) {}		\
	FIXTURE_TEARDOWN(name) {}

__attribute__((format(printf, 1, 2)))
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * The TAP header, for a program that prints diagnostics (of a run the
 * tests then judge) before test_harness_run() prints the plan: TAP
 * version first; KSFT_TAP_LEVEL tells the harness it is printed.
 */
static inline void rel_tap_header(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	fflush(stdout);
	setenv("KSFT_TAP_LEVEL", "1", 1);
}

/*
 * Run the tests: test_harness_run() with @argv[0], then "-F @skip" (the
 * fixture left out, NULL for none), then @argv[@first..@argc-1], options
 * of the harness's own (-l, -t NAME, -T NAME, ...). Its filters stop at
 * the first that matches, so the fixture left out comes first: a "-t
 * NAME" then picks among the others only. Returns only if the harness's
 * options are wrong (or -l, -h): with its exit status.
 */
static inline int rel_run_tests(int argc, char **argv, int first,
				const char *skip)
{
	char **av = calloc(argc + 3, sizeof(*av));
	int n = 0;

	if (!av)
		return KSFT_FAIL;
	av[n++] = argv[0];
	if (skip) {
		av[n++] = "-F";
		av[n++] = (char *)skip;
	}
	while (first < argc)
		av[n++] = argv[first++];
	optind = 1;	/* the harness's getopt() starts again */
	return test_harness_run(n, av);
}

/*
 * Where the harness's options begin in @argv: after a "--" at @i, or none
 * (@argc) if @i is the end; -1 if @i is anything else.
 */
static inline int rel_harness_args(int argc, char **argv, int i)
{
	if (i >= argc)
		return argc;
	return strcmp(argv[i], "--") ? -1 : i + 1;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Hex of the first @max of @len bytes, for diagnostics. */
static inline void hexdump_str(char *out, size_t osz, const unsigned char *b,
			       size_t len, size_t max)
{
	size_t i, o = 0;

	for (i = 0; i < len && i < max && o + 4 < osz; i++)
		o += snprintf(out + o, osz - o, "%02x", b[i]);
	if (len > max && o + 4 < osz)
		snprintf(out + o, osz - o, "...");
	else
		out[o < osz ? o : osz - 1] = '\0';
}

/* Letter of kernel flag @bit (libtaint's table). */
static inline char letter(unsigned int bit)
{
	const struct taint_flag_info *fi = taint_flag_info(bit);

	return fi ? fi->letter : '?';
}

/* ---- files -------------------------------------------------------------- */

/* Everything readable from @fd, reads of @chunk bytes; malloc'd, NUL-ended. */
static inline char *read_all_fd(int fd, size_t chunk, size_t *lenp, int *nreads)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap + 1), *nb;
	ssize_t r;
	int n = 0;

	if (!buf)
		return NULL;
	for (;;) {
		if (len + chunk > cap) {
			cap = (len + chunk) * 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + len, chunk);
		n++;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		len += r;
	}
	buf[len] = '\0';
	*lenp = len;
	if (nreads)
		*nreads = n;
	return buf;
}

static inline char *read_all(const char *path, size_t chunk, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *b;
	int e;

	if (fd < 0)
		return NULL;
	b = read_all_fd(fd, chunk, lenp, NULL);
	e = errno;
	close(fd);
	errno = e;
	return b;
}

/* The taint mask (libtaint), or ~0UL if it cannot be read. */
static inline unsigned long read_mask(void)
{
	uint64_t m;

	return taint_read_mask(NULL, &m) ? ~0UL : (unsigned long)m;
}

/* ---- model of the kernel's v2 line formatter ---------------------------- */

/*
 * The v2 escaper as the ABI states it: \ -> \\, " -> \", every byte outside
 * 0x20..0x7e -> \xNN in lowercase hex; in an unquoted field (@word) also
 * the space -> \x20.  @dst holds 4 * @len + 1 bytes.
 */
static inline void model_escape(char *dst, const char *src, size_t len,
				bool word)
{
	static const char hx[] = "0123456789abcdef";

	while (len--) {
		unsigned char c = *src++;

		if (c == '\\' || c == '"') {
			*dst++ = '\\';
			*dst++ = c;
		} else if (c < 0x20 || c > 0x7e || (word && c == ' ')) {
			*dst++ = '\\';
			*dst++ = 'x';
			*dst++ = hx[c >> 4];
			*dst++ = hx[c & 15];
		} else {
			*dst++ = c;
		}
	}
	*dst = '\0';
}

/* Letters of @mask in bit order, "-" for none. */
static inline void model_letters(char *dst, unsigned long mask)
{
	size_t n = taint_mask_letters(mask, dst, TAINT_KNOWN_FLAGS + 1);

	if (!n)
		strcpy(dst, "-");
}

/* The line the kernel prints for @e (docs/abi.md 1.3), into @out (1600 bytes). */
static inline void model_line(char *out, size_t osz, const struct taint_event *e)
{
	char fl[TAINT_KNOWN_FLAGS + 1], nw[TAINT_KNOWN_FLAGS + 1], auid[16];
	char comm[TAINT_COMM_MAX * 4 + 1], mod[TAINT_MODULE_MAX * 4 + 1];
	char rs[TAINT_REASON_MAX * 4 + 1];
	size_t n;

	model_letters(fl, e->flags_mask);
	model_letters(nw, e->new_mask);
	if (e->auid_set)
		snprintf(auid, sizeof(auid), "%u", e->auid);
	else
		strcpy(auid, "-");
	model_escape(comm, e->comm, e->comm_len, false);
	n = snprintf(out, osz, "ts=%s utc=%s origin=%s flags=%s new=%s pid=%u uid=%u auid=%s comm=\"%s\"",
		     e->ts, e->utc, e->origin == TAINT_ORIGIN_USER ? "user" : "kernel",
		     fl, nw, e->pid, e->uid, auid, comm);
	if (e->has_module && n < osz) {
		model_escape(mod, e->module, e->module_len, true);
		n += snprintf(out + n, osz - n, " module=%s", mod);
	}
	if (e->has_caller && n < osz)
		n += snprintf(out + n, osz - n, " caller=%s", e->caller);
	if (e->has_reason && n < osz) {
		model_escape(rs, e->reason, e->reason_len, false);
		snprintf(out + n, osz - n, " reason=\"%s\"", rs);
	}
}

/* symbol+0xoff/0xsize, lowercase hex (v2: no " [module]" suffix) */
static inline bool caller_form(const char *s)
{
	const char *p = s;
	int i;

	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$')
		p++;
	if (p == s || strncmp(p, "+0x", 3))
		return false;
	for (i = 0; i < 2; i++) {
		const char *d = p += 3;

		while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
			p++;
		if (p == d || (i == 0 && strncmp(p, "/0x", 3)))
			return false;
	}
	return *p == '\0';
}

/* ---- the taint log, through libtaint ------------------------------------ */

struct rlog {
	struct taint_log *log;	/* libtaint's parse of the text */
	struct taint_event *ev;	/* its events, in the log's order (copies:
				 * their strings are the log's) */
	const char **line;	/* each event's line, inside the parsed text */
	size_t *line_len;
	int n;
	long dropped;		/* 0 if there is no dropped= line */
	int user_lines, kernel_lines, reason_lines;
	char err[512];		/* first problem; empty if well-formed */
};

static inline void rlog_free(struct rlog *l)
{
	taint_log_unref(l->log);
	free(l->ev);
	free(l->line);
	free(l->line_len);
	memset(l, 0, sizeof(*l));
}

/* What is wrong with event @e (v2 ABI), or NULL. */
static inline const char *rlog_judge(const struct taint_event *e,
				     const char *line, size_t len)
{
	char want[1600];
	size_t i;

	if (e->unknown_fields)
		return "a field the v2 ABI does not have";
	if (!e->has_auid)
		return "no auid= (not a v2 line)";
	if (e->comm_len > 15)
		return "comm longer than TASK_COMM_LEN - 1";
	if ((e->flags_mask | e->new_mask) & ~KMASK)
		return "a flag linux 6.12 does not have";
	if (e->new_mask & ~e->flags_mask)
		return "new= not within flags=";
	if (e->origin == TAINT_ORIGIN_USER) {
		if (!e->flags_mask)
			return "user event with flags=- (v2 records only requests that set a bit or carry a reason)";
		if (e->has_module || e->has_caller)
			return "module= or caller= on a user event";
		if (e->has_reason) {
			if (!e->reason_len)
				return "empty reason";
			for (i = 0; i < e->reason_len; i++)
				if (e->reason[i] < 0x20 || e->reason[i] > 0x7e)
					return "reason byte that taint_reason refuses";
			if (!(e->flags_mask & U_BIT))
				return "reason on an event without U";
		}
	} else {
		if (!e->flags_mask || (e->flags_mask & (e->flags_mask - 1)) ||
		    e->new_mask != e->flags_mask)
			return "kernel event not exactly one new flag";
		if (e->has_module && !e->module_len)
			return "empty module=";
		if (e->has_caller && !caller_form(e->caller))
			return "caller= not symbol+0xoff/0xsize";
	}
	model_line(want, sizeof(want), e);
	if (strlen(want) != len || memcmp(want, line, len))
		return "not the line the v2 formatter prints for its fields (order, escapes, letters)";
	return NULL;
}

/* The first problem, at line @lineno (1-based) of @n lines at @start. */
static inline void rlog_err(struct rlog *l, unsigned int lineno,
			    const char *why, const char **start,
			    const size_t *len, int n)
{
	int k = (int)lineno - 1;

	if (l->err[0])
		return;
	if (k >= 0 && k < n)
		snprintf(l->err, sizeof(l->err), "line %u: %s: %.*s",
			 lineno, why, (int)(len[k] > 300 ? 300 : len[k]),
			 start[k]);
	else
		snprintf(l->err, sizeof(l->err), "line %u: %s", lineno, why);
}

/*
 * Parse @len bytes of taint_log text into @l with libtaint's struct
 * taint_log (taint_log_new_from_text()), and hold each event to its line:
 * true if it is a v2 log. A v2 log has no problem at all (an unknown
 * field is one here too), so its lines are its events in order, then at
 * most one dropped= line.
 */
static inline bool rlog_parse(const char *text, size_t len, struct rlog *l)
{
	const char **start, *p, *nl, *why;
	const struct taint_event *e;
	unsigned int lineno;
	size_t *llen;
	int nlines = 0, n, k = 0, ret;

	memset(l, 0, sizeof(*l));
	if (!text) {
		snprintf(l->err, sizeof(l->err), "no text (read failed)");
		return false;
	}
	if (memchr(text, '\0', len)) {
		snprintf(l->err, sizeof(l->err), "NUL byte in the text");
		return false;
	}
	if (len && text[len - 1] != '\n') {
		snprintf(l->err, sizeof(l->err), "no final newline");
		return false;
	}
	for (p = text; p < text + len; p = nl + 1)
		nl = memchr(p, '\n', text + len - p), nlines++;
	start = malloc((nlines + 1) * sizeof(*start));
	llen = malloc((nlines + 1) * sizeof(*llen));
	if (!start || !llen)
		abort();
	nlines = 0;
	for (p = text; p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', text + len - p);
		start[nlines] = p;
		llen[nlines++] = nl - p;
	}
	ret = taint_log_new_from_text(text, len, &l->log);
	if (ret) {
		snprintf(l->err, sizeof(l->err), "taint_log_new_from_text: %d", ret);
		goto out;
	}
	why = taint_log_get_problem(l->log, 0, &lineno, NULL);
	if (why || taint_log_get_malformed(l->log)) {
		rlog_err(l, why ? lineno : 0, why ? why : "malformed line", start,
			 llen, nlines);
		goto out;
	}
	l->dropped = (long)taint_log_get_dropped(l->log);
	n = (int)taint_log_get_event_count(l->log);
	if (n != nlines - (nlines && !strncmp(start[nlines - 1], "dropped=", 8))) {
		snprintf(l->err, sizeof(l->err), "%d events in %d lines", n, nlines);
		goto out;
	}
	if (n < nlines && !l->dropped) {
		rlog_err(l, nlines, "dropped=0 (printed only when n > 0)", start,
			 llen, nlines);
		goto out;
	}
	l->ev = malloc((n + 1) * sizeof(*l->ev));
	l->line = malloc((n + 1) * sizeof(*l->line));
	l->line_len = malloc((n + 1) * sizeof(*l->line_len));
	if (!l->ev || !l->line || !l->line_len)
		abort();
	for (k = 0; k < n; k++) {
		e = taint_log_get_event(l->log, k);
		why = rlog_judge(e, start[k], llen[k]);
		if (why) {
			rlog_err(l, k + 1, why, start, llen, nlines);
			goto out;
		}
		l->ev[k] = *e;
		l->line[k] = start[k];
		l->line_len[k] = llen[k];
		if (e->origin == TAINT_ORIGIN_USER) {
			l->user_lines++;
			l->reason_lines += e->has_reason;
		} else {
			l->kernel_lines++;
		}
	}
out:
	l->n = k;	/* the events held to their lines */
	free(start);
	free(llen);
	return !l->err[0];
}

/* Read taint_log with reads of @chunk bytes and parse it. */
static inline bool rlog_read(struct rlog *l, size_t chunk, char **textp,
			     size_t *lenp)
{
	size_t len;
	char *t = read_all(P_LOG, chunk, &len);
	bool ok;

	if (!t) {
		memset(l, 0, sizeof(*l));
		snprintf(l->err, sizeof(l->err), "read %s: %s", P_LOG,
			 strerror(errno));
		return false;
	}
	ok = rlog_parse(t, len, l);
	if (textp) {
		*textp = t;
		*lenp = len;
	} else {
		/* the events keep no pointer into the text but line[] */
		for (int i = 0; i < l->n; i++)
			l->line[i] = NULL, l->line_len[i] = 0;
		free(t);
	}
	return ok;
}

/* Flags whose first event is the kernel's. */
static inline unsigned long rlog_kernel_flags(const struct rlog *l)
{
	unsigned long m = 0;

	for (int i = 0; i < l->n; i++)
		if (l->ev[i].origin == TAINT_ORIGIN_KERNEL)
			m |= l->ev[i].new_mask;
	return m;
}

/*
 * Every set flag has exactly one event naming it in new=, no event names an
 * unset flag there, and the mask has no bit linux 6.12 does not have.
 */
static inline bool rlog_first_events(const struct rlog *l, unsigned long mask,
				     char *why, size_t wsz)
{
	int b, i, cnt;

	if (mask & ~KMASK) {
		snprintf(why, wsz, "mask %#lx has bits >= %d", mask, KFLAGS);
		return false;
	}
	for (b = 0; b < KFLAGS; b++) {
		for (cnt = 0, i = 0; i < l->n; i++)
			if (l->ev[i].new_mask >> b & 1)
				cnt++;
		if ((mask >> b & 1) != (cnt > 0) || cnt > 1) {
			snprintf(why, wsz, "flag %c (bit %d) %s, %d first events",
				 letter(b), b, mask >> b & 1 ? "set" : "not set", cnt);
			return false;
		}
	}
	return true;
}

/* Raw kernel address look-alikes: ffff + 12 hex, or 0x + 16 hex. */
static inline bool has_raw_address(const char *s, size_t len)
{
	size_t i, j;

	for (i = 0; i + 16 <= len; i++) {
		if (!strncasecmp(s + i, "ffff", 4)) {
			for (j = 4; j < 16 && isxdigit((unsigned char)s[i + j]); j++)
				;
			if (j == 16)
				return true;
		}
		if (i + 18 <= len && s[i] == '0' && s[i + 1] == 'x') {
			for (j = 2; j < 18 && isxdigit((unsigned char)s[i + j]); j++)
				;
			if (j == 18)
				return true;
		}
	}
	return false;
}

#endif
