// SPDX-License-Identifier: GPL-2.0
/*
 * taint_forgery - try to forge taint_log lines and kernel log lines
 * through reasons and comms. Reasons with control bytes must be refused
 * (EINVAL, nothing changes); accepted ones (quotes, backslashes, fake
 * "ts=... origin=kernel" text) must appear once, escaped, on one line,
 * and in the rate-limited "taint: U set by ..." kernel notice, and
 * taint_reason must read back the latest accepted reason. The escaping
 * expected is model_escape() (rel.h), the ABI's rule, not the parser's.
 *
 * Needs a fresh boot (it uses 8 of the 16 user slots of the log and relies
 * on the notice's rate limit, 10 per 5 s, not being used up).
 * usage: taint_forgery
 */
#include "rel.h"

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
	char esc[TAINT_REASON_MAX * 4 + 2], cesc[80], want[800], comm0[17] = "";
	char *log0, *log1, *k, *rs0, *rs1;
	size_t l0 = 0, l1 = 0, klen, rl0 = 0, rl1 = 0;
	struct rlog a, b;
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
		rs0 = read_all(P_REASON, 4096, &rl0);
		rlog_parse(log0, l0, &a);
		fd = open(P_REASON, O_WRONLY | O_CLOEXEC);
		r = pwrite(fd, c->bytes, len, c->off);
		err = errno;
		close(fd);
		prctl(PR_SET_NAME, comm0);
		m1 = read_mask();
		log1 = read_all(P_LOG, 65536, &l1);
		rs1 = read_all(P_REASON, 4096, &rl1);
		ok = rlog_parse(log1, l1, &b) && rs0 && rs1;
		if (!ok)
			diag("taint_log not a v2 log: %s", b.err);
		if (!c->accept) {
			bool same = m0 == m1 && l0 == l1 && !memcmp(log0, log1, l0) &&
				    rs0 && rs1 && rl0 == rl1 && !memcmp(rs0, rs1, rl0);

			ok = ok && r < 0 && err == EINVAL && same;
			if (r >= 0 || err != EINVAL)
				diag("write returned %zd (%s), want EINVAL", r,
				     r < 0 ? strerror(err) : "success");
			else if (!same)
				diag("state (mask, taint_log or taint_reason) changed by a refused write");
			tap_ok(ok, "reason with %s: refused with EINVAL, nothing changed", c->what);
		} else {
			nacc++;
			rl = len;
			if (c->bytes[rl - 1] == '\n')
				rl--;
			model_escape(esc, c->bytes, rl, false);
			if (r != (ssize_t)len)
				diag("write returned %zd (%s)", r, r < 0 ? strerror(err) : "short");
			for (j = 0; j < b.n; j++)
				if (b.ev[j].has_reason && b.ev[j].reason_len == rl &&
				    !memcmp(b.ev[j].reason, c->bytes, rl))
					hits++;
			snprintf(want, sizeof(want), " reason=\"%s\"", esc);
			ok = ok && r == (ssize_t)len && hits == 1 &&
			     b.n == a.n + 1 && count_str(log1, want) == 1 &&
			     b.dropped == a.dropped;
			if (hits != 1)
				diag("reason found on %d lines, want 1", hits);
			if (b.n != a.n + 1 || b.dropped != a.dropped)
				diag("lines %d -> %d, dropped %ld -> %ld: want one more line", a.n, b.n,
				     a.dropped, b.dropped);
			/* taint_reason reads back this reason */
			if (!rs1 || rl1 != rl + 1 || memcmp(rs1, c->bytes, rl) || rs1[rl] != '\n') {
				ok = false;
				diag("taint_reason reads back \"%.*s\", not this reason",
				     rs1 ? (int)rl1 : 0, rs1 ? rs1 : "");
			}
			if (ok && b.n) {
				const struct taint_event *e = &b.ev[b.n - 1];
				const char *want_comm = c->comm ? c->comm : comm0;
				size_t wl = strnlen(want_comm, 15);
				const char *line = b.line[b.n - 1];
				size_t ll = b.line_len[b.n - 1];

				ok = e->origin == TAINT_ORIGIN_USER && e->has_reason &&
				     e->pid == (uint32_t)me && e->comm_len == wl &&
				     !memcmp(e->comm, want_comm, wl) &&
				     line + ll + 1 == log1 + l1 && e->flags_mask == U_BIT;
				model_escape(cesc, want_comm, wl, false);
				if (!ok)
					diag("last line is not this request with comm \"%s\": %.*s",
					     cesc, (int)ll, line);
			}
			tap_ok(ok, "reason with %s: accepted, once, escaped, on its own line%s",
			       c->what, c->comm ? " (forged comm escaped)" : "");
		}
		rlog_free(&a);
		rlog_free(&b);
		free(log0);
		free(log1);
		free(rs0);
		free(rs1);
	}

	/*
	 * tainted: trailing text after a number must not slip in. The number
	 * is a flag not set yet, so that taking the number alone would show
	 * in the mask and as a line (U, set by now, would record nothing).
	 */
	{
		char v[sizeof(FAKE) + 16];
		unsigned long m0, m1;
		ssize_t r;
		int err, bit;

		m0 = read_mask();
		for (bit = KFLAGS - 1; bit >= 0 && (m0 >> bit & 1); bit--)
			;
		snprintf(v, sizeof(v), "%lu\n" FAKE, bit >= 0 ? 1UL << bit : 0);
		log0 = read_all(P_LOG, 65536, &l0);
		fd = open(P_TAINTED, O_WRONLY | O_CLOEXEC);
		r = write(fd, v, strlen(v));
		err = errno;
		close(fd);
		m1 = read_mask();
		log1 = read_all(P_LOG, 65536, &l1);
		if (!tap_ok(bit >= 0 && r < 0 && err == EINVAL && m0 == m1 && log0 && log1 &&
			    l0 == l1 && !memcmp(log0, log1, l0),
			    "tainted \"<a flag not set>\\n<fake line>\": refused with EINVAL, nothing set or recorded"))
			diag("write of %zu bytes (flag bit %d) returned %zd (%s); mask %lu -> %lu; log %zu -> %zu bytes",
			     strlen(v), bit, r, r < 0 ? strerror(err) : "short write, accepted",
			     m0, m1, l0, l1);
		free(log0);
		free(log1);
	}

	log1 = read_all(P_LOG, 65536, &l1);
	i = rlog_parse(log1, l1, &b);
	if (!tap_ok(i, "taint_log is a v2 log (%d lines)", b.n))
		diag("%s", b.err);
	tap_ok(!has_raw_address(log1, l1), "no raw kernel address (ffff+12 hex, 0x+16 hex) in taint_log");
	tap_ok(count_str(log1, "origin=kernel") == b.kernel_lines + 1 &&
	       count_str(log1, "\nts=") + (log1[0] == 't') == b.n,
	       "fake text only inside reasons: %d real kernel lines, %d \"origin=kernel\" strings (1 forged)",
	       b.kernel_lines, count_str(log1, "origin=kernel"));

	/* the kernel log */
	k = klog(&klen);
	{
		int notices = count_str(k, "taint: U set by pid="), miss = 0, forged = 0;
		const char *p;

		for (i = 0; i < nr; i++) {
			const struct fcase *c = &rcases[i];
			size_t rl;

			if (!c->accept)
				continue;
			rl = strlen(c->bytes);
			if (c->bytes[rl - 1] == '\n')
				rl--;
			model_escape(esc, c->bytes, rl, false);
			model_escape(cesc, c->comm ? c->comm : comm0,
				     strnlen(c->comm ? c->comm : comm0, 15), false);
			snprintf(want, sizeof(want),
				 "taint: U set by pid=%d uid=0 comm=\"%s\" reason=\"%s\"\n",
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
	rlog_free(&b);
	return tap_exit();
}
