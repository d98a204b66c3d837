// SPDX-License-Identifier: GPL-2.0
/*
 * taint_forgery - try to forge taint_log lines and kernel log lines
 * through reasons and comms. Reasons with control bytes must be refused
 * (EINVAL, nothing changes); accepted ones (quotes, backslashes, fake
 * "ts=... origin=kernel" text) must appear once, escaped, on one line,
 * and in the rate-limited "taint: U set by ..." kernel notice.
 *
 * Needs a fresh boot (it uses up to 12 of the 32 user slots of the log
 * and relies on the notice's rate limit, 10 per 5 s, not being used up).
 * usage: taint_forgery
 */
#include "tl.h"

#include <sys/klog.h>
#include <sys/prctl.h>

struct fcase {
	const char *what;
	const char *bytes;
	size_t len;		/* 0: strlen */
	off_t off;
	const char *comm;	/* set with PR_SET_NAME first, or NULL */
	bool accept;
};

#define FAKE "ts=0.000001 utc=- origin=kernel flags=P new=P pid=1 uid=0 comm=\"swapper/0\" caller=start_kernel+0x0/0x10"

static const struct fcase rcases[] = {
	{ "newline then a fake kernel line", "x\n" FAKE, 0, 0, NULL, false },
	{ "carriage return", "hidden\roverwritten", 0, 0, NULL, false },
	{ "ESC sequence", "\x1b[2K\x1b[1Gclean", 0, 0, NULL, false },
	{ "tab", "tab\there", 0, 0, NULL, false },
	{ "NUL byte", "nul\0byte", 8, 0, NULL, false },
	{ "DEL byte", "del\x7f", 0, 0, NULL, false },
	{ "bytes >= 0x80", "caf\xc3\xa9", 0, 0, NULL, false },
	{ "two trailing newlines", "two\n\n", 0, 0, NULL, false },
	{ "CRLF", "crlf\r\n", 0, 0, NULL, false },
	{ "only a newline", "\n", 0, 0, NULL, false },
	{ "129 bytes", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 0, 0, NULL, false },
	{ "valid reason at offset 1", "offset", 0, 1, NULL, false },
	{ "quotes", "say \"hi\" reason=\"forged\"", 0, 0, NULL, true },
	{ "backslashes", "back\\slash \\\" \\\\ \\x0a", 0, 0, NULL, true },
	{ "a whole fake kernel line", FAKE, 0, 0, NULL, true },
	{ "fake dropped line", "dropped=999", 0, 0, NULL, true },
	{ "format directives", "%s%n%p%pS %x", 0, 0, NULL, true },
	{ "128 bytes plus newline", "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB\n", 0, 0, NULL, true },
	{ "comm with newline, quote, backslash, ESC", "comm forgery", 0, 0, "c\n\"\\\x1bts=9 x", true },
	{ "comm with a fake field", "comm forgery 2", 0, 0, "x\" uid=0 new=P", true },
};

static char *klog(size_t *lenp)
{
	int n = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *b;

	if (n <= 0)
		n = 1 << 20;
	b = malloc(n + 1);
	n = klogctl(3, b, n);		/* SYSLOG_ACTION_READ_ALL */
	if (n < 0)
		n = 0;
	b[n] = 0;
	*lenp = n;
	return b;
}

static int count_str(const char *hay, const char *needle)
{
	int n = 0;
	const char *p = hay;

	while ((p = strstr(p, needle))) {
		n++;
		p++;
	}
	return n;
}

int main(void)
{
	int nr = sizeof(rcases) / sizeof(rcases[0]), i, fd, nacc = 0;
	char esc[TL_REASON_MAX * 4 + 2], cesc[80], want[800], comm0[17] = "";
	char *log0, *log1, *k;
	size_t l0, l1, klen;
	struct tl_log a, b;
	pid_t me = getpid();

	tap_plan(nr + 7);
	prctl(PR_GET_NAME, comm0);
	diag("pid %d, comm \"%s\"", me, comm0);

	for (i = 0; i < nr; i++) {
		const struct fcase *c = &rcases[i];
		size_t len = c->len ? c->len : strlen(c->bytes), rl;
		unsigned long m0, m1;
		ssize_t r;
		int err, hits = 0, j;
		bool ok;

		prctl(PR_SET_NAME, c->comm ? c->comm : comm0);
		m0 = read_mask();
		log0 = read_all(P_LOG, 65536, &l0);
		tl_parse(log0, l0, &a);
		fd = open(P_REASON, O_WRONLY | O_CLOEXEC);
		r = pwrite(fd, c->bytes, len, c->off);
		err = errno;
		close(fd);
		prctl(PR_SET_NAME, comm0);
		m1 = read_mask();
		log1 = read_all(P_LOG, 65536, &l1);
		ok = tl_parse(log1, l1, &b);
		if (!ok)
			diag("taint_log not well-formed: %s", b.err);
		if (!c->accept) {
			ok = ok && r < 0 && err == EINVAL && m0 == m1 && l0 == l1 &&
			     !memcmp(log0, log1, l0);
			if (r >= 0 || err != EINVAL)
				diag("write returned %zd (%s), want EINVAL", r,
				     r < 0 ? strerror(err) : "success");
			else if (l0 != l1 || memcmp(log0, log1, l0) || m0 != m1)
				diag("state changed by a refused write");
			tap_ok(ok, "reason with %s: refused with EINVAL, nothing changed", c->what);
		} else {
			nacc++;
			rl = len;
			if (c->bytes[rl - 1] == '\n')
				rl--;
			tl_escape(esc, c->bytes, rl);
			if (r != (ssize_t)len)
				diag("write returned %zd (%s)", r, r < 0 ? strerror(err) : "short");
			for (j = 0; j < b.n; j++)
				if (b.ev[j].has_reason && b.ev[j].reason_len == rl &&
				    !memcmp(b.ev[j].reason, c->bytes, rl))
					hits++;
			snprintf(want, sizeof(want), " reason=\"%s\"", esc);
			ok = ok && r == (ssize_t)len && hits == 1 &&
			     b.n + (b.dropped > 0) == a.n + (a.dropped > 0) + 1 &&
			     count_str(log1, want) == 1 && b.dropped == a.dropped;
			if (hits != 1)
				diag("reason found on %d lines, want 1", hits);
			if (b.n != a.n + 1)
				diag("lines %d -> %d, want one more", a.n, b.n);
			if (ok && b.n) {
				struct tl_event *e = &b.ev[b.n - 1];
				const char *want_comm = c->comm ? c->comm : comm0;
				size_t wl = strnlen(want_comm, 15);

				ok = e->user && e->has_reason && e->pid == me &&
				     e->comm_len == wl && !memcmp(e->comm, want_comm, wl) &&
				     e->line_len + 1 == (size_t)(log1 + l1 - e->line) &&
				     e->flags == 1UL << 6;
				tl_escape(cesc, want_comm, wl);
				if (!ok)
					diag("last line is not this request with comm \"%s\": %.*s",
					     cesc, (int)e->line_len, e->line);
			}
			tap_ok(ok, "reason with %s: accepted, once, escaped, on its own line%s",
			       c->what, c->comm ? " (forged comm escaped)" : "");
		}
		tl_free(&a);
		tl_free(&b);
		free(log0);
		free(log1);
	}

	/* tainted: trailing text after a number must not slip in */
	{
		static const char v[] = "64\n" FAKE;
		unsigned long m0;
		ssize_t r;
		int err;

		log0 = read_all(P_LOG, 65536, &l0);
		m0 = read_mask();
		fd = open(P_TAINTED, O_WRONLY | O_CLOEXEC);
		r = write(fd, v, strlen(v));
		err = errno;
		close(fd);
		log1 = read_all(P_LOG, 65536, &l1);
		if (!tap_ok(r < 0 && err == EINVAL && l0 == l1 && !memcmp(log0, log1, l0),
			    "tainted \"64\\n<fake line>\": refused with EINVAL, nothing recorded"))
			diag("write of %zu bytes returned %zd (%s); mask %lu -> %lu; log %zu -> %zu bytes",
			     strlen(v), r, r < 0 ? strerror(err) : "short write, accepted",
			     m0, read_mask(), l0, l1);
		free(log0);
		free(log1);
	}

	log1 = read_all(P_LOG, 65536, &l1);
	i = tl_parse(log1, l1, &b);
	if (!tap_ok(i, "taint_log well-formed (%d lines)", b.n))
		diag("%s", b.err);
	tap_ok(!has_raw_address(log1, l1), "no raw kernel address (ffff+12 hex, 0x+16 hex) in taint_log");
	tap_ok(count_str(log1, "origin=kernel") == b.kernel_lines + 1 &&
	       count_str(log1, "\nts=") + (log1[0] == 't') == b.n,
	       "fake text only inside reasons: %d real kernel lines, %d \"origin=kernel\" strings (1 forged)",
	       b.kernel_lines, count_str(log1, "origin=kernel"));

	/* the kernel log */
	k = klog(&klen);
	{
		int notices = count_str(k, "taint: U set by pid "), miss = 0, forged = 0;
		const char *p;

		for (i = 0; i < nr; i++) {
			const struct fcase *c = &rcases[i];
			size_t rl;

			if (!c->accept)
				continue;
			rl = strlen(c->bytes);
			if (c->bytes[rl - 1] == '\n')
				rl--;
			tl_escape(esc, c->bytes, rl);
			tl_escape(cesc, c->comm ? c->comm : comm0, strnlen(c->comm ? c->comm : comm0, 15));
			snprintf(want, sizeof(want),
				 "taint: U set by pid %d comm \"%s\" uid 0: reason \"%s\"\n",
				 me, cesc, esc);
			if (count_str(k, want) != 1 && !miss++)
				diag("not found once in dmesg: %s", want);
		}
		tap_ok(notices == nacc, "dmesg: %d \"taint: U set by\" notices, want %d", notices, nacc);
		tap_ok(!miss, "dmesg: each notice names pid, escaped comm and escaped reason on one line (%d missing)", miss);
		/* no dmesg line starts with forged text */
		for (p = k; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			const char *t = p;

			if (*t == '<')
				t = strchr(t, '>') ? strchr(t, '>') + 1 : t;
			if (*t == '[')
				t = strchr(t, ']') ? strchr(t, ']') + 1 : t;
			while (*t == ' ')
				t++;
			if (!strncmp(t, "ts=", 3) || !strncmp(t, "origin=", 7) ||
			    !strncmp(t, "clean", 5) || !strncmp(t, "overwritten", 11)) {
				if (!forged++)
					diag("forged dmesg line: %.200s", p);
			}
		}
		tap_ok(!forged, "dmesg: no line begins with forged text (%d)", forged);
		if (has_raw_address(k, klen))
			diag("note: dmesg itself contains address-like hex (not checked)");
	}
	free(k);
	free(log1);
	tl_free(&b);
	return tap_exit();
}
