/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the taint ABI reliability tests (guest side): TAP
 * output, whole-file reads, and a strict parser/validator of
 * /proc/sys/kernel/taint_log as specified in DESIGN.md section 1.3.
 * Header-only (static functions) so each test is one static binary.
 */
#ifndef TL_H
#define TL_H

#define _GNU_SOURCE
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

#define P_TAINTED	"/proc/sys/kernel/tainted"
#define P_REASON	"/proc/sys/kernel/taint_reason"
#define P_LOG		"/proc/sys/kernel/taint_log"

#define TL_FLAGS	19		/* TAINT_FLAGS_COUNT of 6.12 */
#define TL_MAXBIT_MASK	((1UL << TL_FLAGS) - 1)
#define TL_USER_MAX	32
#define TL_REASON_MAX	128

static const char tl_letters[TL_FLAGS + 1] = "PFSRMBUDAWCIOELKXTN";

/* ---- TAP ---------------------------------------------------------------- */

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3)))
static inline bool tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		tap_failed++;
	return ok;
}

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

static inline void tap_plan(int n)
{
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
}

static inline int tap_exit(void)
{
	diag("%d of %d checks failed", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Printable form of @len bytes: C-like escapes, for diagnostics. */
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

/* ---- files -------------------------------------------------------------- */

/* Read all of @path with reads of @chunk bytes; returns malloc'd, NUL-ended. */
static inline char *read_all_fd(int fd, size_t chunk, size_t *lenp, int *nreads)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;
	int n = 0;

	if (!buf)
		return NULL;
	for (;;) {
		if (len + chunk > cap) {
			cap = (len + chunk) * 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				return NULL;
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

static inline unsigned long read_mask(void)
{
	size_t len;
	char *b = read_all(P_TAINTED, 4096, &len);
	unsigned long m;

	if (!b)
		return ~0UL;
	m = strtoul(b, NULL, 10);
	free(b);
	return m;
}

/* ---- taint_log parser --------------------------------------------------- */

struct tl_event {
	bool user;
	unsigned long flags, new;
	long pid, uid;
	char comm[64];		/* unescaped */
	size_t comm_len;
	bool has_caller, has_reason;
	char reason[TL_REASON_MAX * 4 + 1];	/* unescaped */
	size_t reason_len;
	const char *line;	/* into the text */
	size_t line_len;
};

struct tl_log {
	struct tl_event *ev;
	int n, cap;
	long dropped;		/* 0 if no dropped= line */
	int user_lines, kernel_lines;
	char err[512];		/* first problem, empty if well-formed */
};

static inline void tl_free(struct tl_log *l)
{
	free(l->ev);
	memset(l, 0, sizeof(*l));
}

static inline int letter_bit(char c)
{
	const char *p = strchr(tl_letters, c);

	return c && p ? (int)(p - tl_letters) : -1;
}

/* Letters in bit order, or "-" for none. */
static inline bool parse_letters(const char **pp, const char *end, unsigned long *m)
{
	const char *p = *pp;
	int last = -1, b;

	*m = 0;
	if (p < end && *p == '-') {
		*pp = p + 1;
		return p + 1 >= end || p[1] == ' ';
	}
	while (p < end && *p != ' ') {
		b = letter_bit(*p);
		if (b < 0 || b <= last)
			return false;
		*m |= 1UL << b;
		last = b;
		p++;
	}
	*pp = p;
	return last >= 0;
}

static inline bool parse_uint(const char **pp, const char *end, long *v)
{
	const char *p = *pp;
	long x = 0;

	if (p >= end || !isdigit((unsigned char)*p))
		return false;
	if (*p == '0' && p + 1 < end && isdigit((unsigned char)p[1]))
		return false;		/* no leading zeros */
	while (p < end && isdigit((unsigned char)*p)) {
		if (x > 100000000000L)
			return false;
		x = x * 10 + (*p++ - '0');
	}
	*pp = p;
	*v = x;
	return true;
}

static inline bool lit(const char **pp, const char *end, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(end - *pp) < n || memcmp(*pp, s, n))
		return false;
	*pp += n;
	return true;
}

static inline int hexv(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;		/* the kernel prints lowercase (hex_asc) */
}

/* "<escaped>": \\ \" \xNN, raw 0x20..0x7e but not \ and ". */
static inline bool parse_quoted(const char **pp, const char *end, char *out,
			 size_t osz, size_t *olen)
{
	const char *p = *pp;
	size_t o = 0;

	if (p >= end || *p++ != '"')
		return false;
	while (p < end && *p != '"') {
		unsigned char c = *p;
		int hi, lo;

		if (c < 0x20 || c > 0x7e)
			return false;
		if (c == '\\') {
			if (p + 1 >= end)
				return false;
			if (p[1] == '\\' || p[1] == '"') {
				c = p[1];
				p += 2;
			} else if (p[1] == 'x' && p + 3 < end &&
				   (hi = hexv(p[2])) >= 0 &&
				   (lo = hexv(p[3])) >= 0) {
				c = hi << 4 | lo;
				/* \xNN only for what must be escaped */
				if (c >= 0x20 && c <= 0x7e)
					return false;
				p += 4;
			} else {
				return false;
			}
		} else {
			p++;
		}
		if (o + 1 >= osz)
			return false;
		out[o++] = c;
	}
	if (p >= end)
		return false;
	out[o] = '\0';
	*olen = o;
	*pp = p + 1;
	return true;
}

/* symbol+0xoff/0xsize[ [module]] */
static inline bool parse_caller(const char **pp, const char *end)
{
	const char *p = *pp;
	int n = 0;

	while (p < end && (isalnum((unsigned char)*p) || *p == '_' ||
			   *p == '.' || *p == '$'))
		p++, n++;
	if (!n || !lit(&p, end, "+0x"))
		return false;
	for (n = 0; p < end && hexv(*p) >= 0; p++)
		n++;
	if (!n || !lit(&p, end, "/0x"))
		return false;
	for (n = 0; p < end && hexv(*p) >= 0; p++)
		n++;
	if (!n)
		return false;
	if (p + 1 < end && p[0] == ' ' && p[1] == '[') {
		p += 2;
		for (n = 0; p < end && *p != ']' && *p != ' ' && *p != '\n'; p++)
			n++;
		if (!n || p >= end || *p != ']')
			return false;
		p++;
	}
	*pp = p;
	return true;
}

static inline bool parse_utc(const char **pp, const char *end)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
	const char *p = *pp;
	size_t i;

	if (p < end && *p == '-') {
		*pp = p + 1;
		return true;
	}
	if ((size_t)(end - p) < sizeof(pat) - 1)
		return false;
	for (i = 0; i < sizeof(pat) - 1; i++)
		if (pat[i] == 'd' ? !isdigit((unsigned char)p[i]) : p[i] != pat[i])
			return false;
	*pp = p + sizeof(pat) - 1;
	return true;
}

static inline bool tl_parse_line(const char *p, const char *end, struct tl_event *e,
			  const char **why)
{
	long v;
	int i;

	memset(e, 0, sizeof(*e));
#define NEED(cond, w) do { if (!(cond)) { *why = (w); return false; } } while (0)
	NEED(lit(&p, end, "ts="), "ts=");
	NEED(p < end && isdigit((unsigned char)*p), "ts digits");
	while (p < end && isdigit((unsigned char)*p))
		p++;
	NEED(lit(&p, end, "."), "ts dot");
	for (i = 0; i < 6; i++)
		NEED(p < end && isdigit((unsigned char)*p++), "ts usec");
	NEED(lit(&p, end, " utc="), "utc=");
	NEED(parse_utc(&p, end), "utc value");
	if (lit(&p, end, " origin=user"))
		e->user = true;
	else
		NEED(lit(&p, end, " origin=kernel"), "origin");
	NEED(lit(&p, end, " flags="), "flags=");
	NEED(parse_letters(&p, end, &e->flags), "flags letters");
	NEED(lit(&p, end, " new="), "new=");
	NEED(parse_letters(&p, end, &e->new), "new letters");
	NEED(!(e->new & ~e->flags), "new not within flags");
	NEED(lit(&p, end, " pid="), "pid=");
	NEED(parse_uint(&p, end, &e->pid), "pid value");
	NEED(lit(&p, end, " uid="), "uid=");
	NEED(parse_uint(&p, end, &v), "uid value");
	e->uid = v;
	NEED(lit(&p, end, " comm="), "comm=");
	NEED(parse_quoted(&p, end, e->comm, sizeof(e->comm), &e->comm_len),
	     "comm quoting");
	NEED(e->comm_len <= 15, "comm longer than TASK_COMM_LEN-1");
	if (lit(&p, end, " caller=")) {
		NEED(parse_caller(&p, end), "caller syntax");
		e->has_caller = true;
	}
	if (lit(&p, end, " reason=")) {
		NEED(parse_quoted(&p, end, e->reason, sizeof(e->reason),
				  &e->reason_len), "reason quoting");
		NEED(e->reason_len >= 1 && e->reason_len <= TL_REASON_MAX,
		     "reason length");
		for (i = 0; i < (int)e->reason_len; i++)
			NEED(e->reason[i] >= 0x20 && e->reason[i] <= 0x7e,
			     "reason byte not printable");
		e->has_reason = true;
	}
	NEED(p == end, "trailing text");
	if (e->user) {
		NEED(!e->has_caller, "caller on a user event");
	} else {
		NEED(e->flags && e->flags == e->new &&
		     !(e->flags & (e->flags - 1)), "kernel event not one new flag");
		NEED(!e->has_reason, "reason on a kernel event");
	}
#undef NEED
	return true;
}

/* Parse @len bytes of taint_log text. Returns true if well-formed. */
static inline bool tl_parse(const char *text, size_t len, struct tl_log *l)
{
	const char *p = text, *end = text + len, *nl;
	const char *why;
	int lineno = 0;

	memset(l, 0, sizeof(*l));
	if (memchr(text, '\0', len)) {
		snprintf(l->err, sizeof(l->err), "NUL byte in text");
		return false;
	}
	while (p < end) {
		struct tl_event e;

		lineno++;
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			snprintf(l->err, sizeof(l->err),
				 "line %d: no final newline: %.200s", lineno, p);
			return false;
		}
		if (l->dropped) {
			snprintf(l->err, sizeof(l->err),
				 "line %d after dropped= line: %.*s", lineno,
				 (int)(nl - p > 200 ? 200 : nl - p), p);
			return false;
		}
		if (!strncmp(p, "dropped=", 8)) {
			const char *q = p + 8;
			long v;

			if (!parse_uint(&q, nl, &v) || q != nl || v < 1) {
				snprintf(l->err, sizeof(l->err),
					 "line %d: bad dropped line: %.*s",
					 lineno, (int)(nl - p > 200 ? 200 : nl - p), p);
				return false;
			}
			l->dropped = v;
			p = nl + 1;
			continue;
		}
		if (!tl_parse_line(p, nl, &e, &why)) {
			snprintf(l->err, sizeof(l->err), "line %d: %s: %.*s",
				 lineno, why, (int)(nl - p > 300 ? 300 : nl - p), p);
			return false;
		}
		e.line = p;
		e.line_len = nl - p;
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 64;
			l->ev = realloc(l->ev, l->cap * sizeof(*l->ev));
		}
		l->ev[l->n++] = e;
		if (e.user)
			l->user_lines++;
		else
			l->kernel_lines++;
		p = nl + 1;
	}
	return true;
}

/* Read and parse taint_log with reads of @chunk bytes. */
static inline bool tl_read(struct tl_log *l, size_t chunk, char **textp, size_t *lenp)
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
	ok = tl_parse(t, len, l);
	if (textp) {
		*textp = t;
		*lenp = len;
	} else {
		free(t);
	}
	return ok;
}

/* Flags whose first event is the kernel's. */
static inline unsigned long tl_kernel_flags(const struct tl_log *l)
{
	unsigned long m = 0;
	int i;

	for (i = 0; i < l->n; i++)
		if (!l->ev[i].user)
			m |= l->ev[i].new;
	return m;
}

/*
 * Every set flag has exactly one line with that flag in new=, no line
 * names an unset flag in new=. Returns 0 or describes the first problem.
 */
static inline bool tl_check_first_events(const struct tl_log *l, unsigned long mask,
				  char *why, size_t wsz)
{
	int b, i, cnt;

	for (b = 0; b < TL_FLAGS; b++) {
		for (cnt = 0, i = 0; i < l->n; i++)
			if (l->ev[i].new & (1UL << b))
				cnt++;
		if ((mask >> b & 1) && cnt != 1) {
			snprintf(why, wsz, "flag %c (bit %d) set, %d first events",
				 tl_letters[b], b, cnt);
			return false;
		}
		if (!(mask >> b & 1) && cnt) {
			snprintf(why, wsz, "flag %c (bit %d) not set, %d first events",
				 tl_letters[b], b, cnt);
			return false;
		}
	}
	if (mask & ~TL_MAXBIT_MASK) {
		snprintf(why, wsz, "mask %#lx has bits >= %d", mask, TL_FLAGS);
		return false;
	}
	return true;
}

/* Escape like the kernel's taint_escape() (\\, \", \xNN lowercase). */
static inline void tl_escape(char *dst, const char *src, size_t len)
{
	static const char hx[] = "0123456789abcdef";

	while (len--) {
		unsigned char c = *src++;

		if (c == '\\' || c == '"') {
			*dst++ = '\\';
			*dst++ = c;
		} else if (c < 0x20 || c > 0x7e) {
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
