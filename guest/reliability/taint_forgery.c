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
 * usage: taint_forgery [-- HARNESS-OPTIONS]
 * TAP on stdout (kselftest_harness.h).
 */
#include "rel.h"

#include <sys/klog.h>
#include <sys/prctl.h>

struct fcase {
	const char *bytes;
	size_t len;		/* 0: strlen */
	off_t off;
	const char *comm;	/* set with PR_SET_NAME first, or NULL */
	bool accept;
};

#define FAKE "ts=0.000001 utc=- origin=kernel flags=P new=P pid=1 uid=0 comm=\"swapper/0\" caller=start_kernel+0x0/0x10"
#define A129 "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
#define B128 "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"

/*
 * The reasons written, C(name, bytes, len, off, comm, accept): each a
 * variant of the fixture reason, one test each, and an entry of rcases[],
 * which the kernel log's checks go through.
 */
#define REASON_CASES(C) \
	C(newline_then_a_fake_kernel_line, "x\n" FAKE, 0, 0, NULL, false) \
	C(carriage_return, "hidden\roverwritten", 0, 0, NULL, false) \
	C(esc_sequence, "\x1b[2K\x1b[1Gclean", 0, 0, NULL, false) \
	C(tab, "tab\there", 0, 0, NULL, false) \
	C(nul_byte, "nul\0byte", 8, 0, NULL, false) \
	C(del_byte, "del\x7f", 0, 0, NULL, false) \
	C(bytes_from_0x80, "caf\xc3\xa9", 0, 0, NULL, false) \
	C(two_trailing_newlines, "two\n\n", 0, 0, NULL, false) \
	C(crlf, "crlf\r\n", 0, 0, NULL, false) \
	C(only_a_newline, "\n", 0, 0, NULL, false) \
	C(bytes_129, A129, 0, 0, NULL, false) \
	C(valid_reason_at_offset_1, "offset", 0, 1, NULL, false) \
	C(quotes, "say \"hi\" reason=\"forged\"", 0, 0, NULL, true) \
	C(backslashes, "back\\slash \\\" \\\\ \\x0a", 0, 0, NULL, true) \
	C(a_whole_fake_kernel_line, FAKE, 0, 0, NULL, true) \
	C(fake_dropped_line, "dropped=999", 0, 0, NULL, true) \
	C(format_directives, "%s%n%p%pS %x", 0, 0, NULL, true) \
	C(bytes_128_plus_newline, B128 "\n", 0, 0, NULL, true) \
	C(comm_with_newline_quote_backslash_esc, "comm forgery", 0, 0, "c\n\"\\\x1bts=9 x", true) \
	C(comm_with_a_fake_field, "comm forgery 2", 0, 0, "x\" uid=0 new=P", true)

#define AS_CASE(name, ...) { __VA_ARGS__ },
static const struct fcase rcases[] = { REASON_CASES(AS_CASE) };

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


/* The state around a write: mask, taint_log (parsed), taint_reason. */
struct snapshot {
	unsigned long mask;
	char *log, *reason;
	size_t llen, rlen;
	struct rlog l;
	bool ok;		/* a v2 log, and taint_reason read */
};

static void snap(struct snapshot *s)
{
	s->mask = read_mask();
	s->log = read_all(P_LOG, 65536, &s->llen);
	s->reason = read_all(P_REASON, 4096, &s->rlen);
	s->ok = rlog_parse(s->log, s->llen, &s->l) && s->reason;
}

static void unsnap(struct snapshot *s)
{
	rlog_free(&s->l);
	free(s->log);
	free(s->reason);
}

/* One reason written, with its comm; the state before and after. */
FIXTURE(reason) {
	struct snapshot a, b;
	char comm0[17];		/* the process's own comm */
	size_t len;
	ssize_t r;
	int err;
};

FIXTURE_VARIANT(reason) {
	struct fcase c;
};

#define AS_VARIANT(name, ...) \
	FIXTURE_VARIANT_ADD(reason, name) { .c = { __VA_ARGS__ } };
REASON_CASES(AS_VARIANT)

FIXTURE_SETUP(reason)
{
	prctl(PR_GET_NAME, self->comm0);
}

FIXTURE_TEARDOWN(reason)
{
	unsnap(&self->a);
	unsnap(&self->b);
}

/* Refused with EINVAL; mask, taint_log and taint_reason as they were. */
static void check_refused(struct __test_metadata *_metadata,
			  FIXTURE_DATA(reason) *self)
{
	const struct snapshot *a = &self->a, *b = &self->b;
	bool same = a->mask == b->mask && a->log && b->log &&
		    a->llen == b->llen && !memcmp(a->log, b->log, a->llen) &&
		    a->reason && b->reason && a->rlen == b->rlen &&
		    !memcmp(a->reason, b->reason, a->rlen);

	EXPECT_TRUE(self->r < 0 && self->err == EINVAL)
		TH_LOG("write returned %zd (%s), want EINVAL", self->r,
		       self->r < 0 ? strerror(self->err) : "success");
	EXPECT_TRUE(same)
		TH_LOG("state (mask, taint_log or taint_reason) changed by a refused write");
}

/* The log's last line is this request: pid, comm, flags=U. */
static void check_last_line(struct __test_metadata *_metadata,
			    FIXTURE_DATA(reason) *self, const char *comm)
{
	const struct snapshot *b = &self->b;
	const struct taint_event *e = &b->l.ev[b->l.n - 1];
	const char *line = b->l.line[b->l.n - 1];
	size_t ll = b->l.line_len[b->l.n - 1], wl = strnlen(comm, 15);
	char cesc[80];

	model_escape(cesc, comm, wl, false);
	EXPECT_TRUE(e->origin == TAINT_ORIGIN_USER && e->has_reason &&
		    e->pid == (uint32_t)getpid() && e->comm_len == wl &&
		    !memcmp(e->comm, comm, wl) &&
		    line + ll + 1 == b->log + b->llen && e->flags_mask == U_BIT)
		TH_LOG("last line is not this request with comm \"%s\": %.*s",
		       cesc, (int)ll, line);
}

/* Accepted: once, escaped, on its own line, and it reads back. */
static void check_accepted(struct __test_metadata *_metadata,
			   FIXTURE_DATA(reason) *self, const struct fcase *c)
{
	const struct snapshot *a = &self->a, *b = &self->b;
	char esc[TAINT_REASON_MAX * 4 + 2], want[800];
	size_t rl = self->len - (c->bytes[self->len - 1] == '\n');
	int hits = 0, j;

	model_escape(esc, c->bytes, rl, false);
	snprintf(want, sizeof(want), " reason=\"%s\"", esc);
	for (j = 0; j < b->l.n; j++)
		if (b->l.ev[j].has_reason && b->l.ev[j].reason_len == rl &&
		    !memcmp(b->l.ev[j].reason, c->bytes, rl))
			hits++;
	EXPECT_EQ((ssize_t)self->len, self->r)
		TH_LOG("write returned %zd (%s)", self->r,
		       self->r < 0 ? strerror(self->err) : "short");
	EXPECT_EQ(1, hits) TH_LOG("reason found on %d lines, want 1", hits);
	EXPECT_TRUE(b->l.n == a->l.n + 1 && b->l.dropped == a->l.dropped)
		TH_LOG("lines %d -> %d, dropped %ld -> %ld: want one more line",
		       a->l.n, b->l.n, a->l.dropped, b->l.dropped);
	EXPECT_EQ(1, count_str(b->log, want))
		TH_LOG("the escaped reason (%s) is not in the log once", want);
	EXPECT_TRUE(b->reason && b->rlen == rl + 1 &&
		    !memcmp(b->reason, c->bytes, rl) && b->reason[rl] == '\n')
		TH_LOG("taint_reason reads back \"%.*s\", not this reason",
		       b->reason ? (int)b->rlen : 0, b->reason ? b->reason : "");
	ASSERT_LT(0, b->l.n);
	check_last_line(_metadata, self, c->comm ? c->comm : self->comm0);
}

TEST_F(reason, write)
{
	const struct fcase *c = &variant->c;
	int fd;

	self->len = c->len ? c->len : strlen(c->bytes);
	prctl(PR_SET_NAME, c->comm ? c->comm : self->comm0);
	snap(&self->a);
	fd = open(P_REASON, O_WRONLY | O_CLOEXEC);
	self->r = pwrite(fd, c->bytes, self->len, c->off);
	self->err = errno;
	close(fd);
	prctl(PR_SET_NAME, self->comm0);
	snap(&self->b);
	ASSERT_TRUE(self->b.ok && self->a.reason)
		TH_LOG("taint_log not a v2 log, or taint_reason not read: %s",
		       self->b.l.err);
	if (c->accept)
		check_accepted(_metadata, self, c);
	else
		check_refused(_metadata, self);
}

/*
 * tainted: trailing text after a number must not slip in. The number is a
 * flag not set yet, so that taking the number alone would show in the
 * mask and as a line (U, set by now, would record nothing).
 */
REL_FIXTURE(tainted);

TEST_F(tainted, flag_then_fake_line_refused)
{
	char v[sizeof(FAKE) + 16], *log0, *log1;
	unsigned long m0, m1;
	size_t l0 = 0, l1 = 0;
	int err, bit, fd;
	ssize_t r;

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
	EXPECT_TRUE(bit >= 0 && r < 0 && err == EINVAL && m0 == m1 && log0 &&
		    log1 && l0 == l1 && !memcmp(log0, log1, l0))
		TH_LOG("tainted \"<a flag not set>\\n<fake line>\": write of %zu bytes (flag bit %d) returned %zd (%s); mask %lu -> %lu; log %zu -> %zu bytes",
		       strlen(v), bit, r,
		       r < 0 ? strerror(err) : "short write, accepted",
		       m0, m1, l0, l1);
	free(log0);
	free(log1);
}

/* The log after every write. */
FIXTURE(log) {
	char *text;
	size_t len;
	struct rlog l;
	bool ok;
};

FIXTURE_SETUP(log)
{
	self->text = read_all(P_LOG, 65536, &self->len);
	self->ok = rlog_parse(self->text, self->len, &self->l);
}

FIXTURE_TEARDOWN(log)
{
	rlog_free(&self->l);
	free(self->text);
}

TEST_F(log, is_v2)
{
	EXPECT_TRUE(self->ok)
		TH_LOG("taint_log (%d lines): %s", self->l.n, self->l.err);
}

/* ffff + 12 hex, 0x + 16 hex */
TEST_F(log, no_raw_kernel_address)
{
	EXPECT_FALSE(has_raw_address(self->text, self->len));
}

TEST_F(log, fake_text_only_inside_reasons)
{
	int kernel;

	ASSERT_TRUE(self->text != NULL);
	kernel = count_str(self->text, "origin=kernel");
	EXPECT_EQ(self->l.kernel_lines + 1, kernel)
		TH_LOG("%d real kernel lines, %d \"origin=kernel\" strings (1 forged)",
		       self->l.kernel_lines, kernel);
	EXPECT_EQ(self->l.n, count_str(self->text, "\nts=") + (self->text[0] == 't'))
		TH_LOG("a line begins with ts= inside another");
}

/* The kernel log (klogctl READ_ALL): the "taint: U set by" notices. */
FIXTURE(dmesg) {
	char *k;
	size_t len;
};

FIXTURE_SETUP(dmesg)
{
	self->k = klog(&self->len);
}

FIXTURE_TEARDOWN(dmesg)
{
	free(self->k);
}

TEST_F(dmesg, one_notice_per_accepted_reason)
{
	int notices = count_str(self->k, "taint: U set by pid="), nacc = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rcases); i++)
		nacc += rcases[i].accept;
	EXPECT_EQ(nacc, notices)
		TH_LOG("%d \"taint: U set by\" notices, want %d", notices, nacc);
}

/* The pid= the log names for reason @c, or -1. */
static long reason_pid(const struct rlog *l, const char *s, size_t len)
{
	int j;

	for (j = 0; j < l->n; j++)
		if (l->ev[j].has_reason && l->ev[j].reason_len == len &&
		    !memcmp(l->ev[j].reason, s, len))
			return l->ev[j].pid;
	return -1;
}

/*
 * Each notice names the writer's pid (as its log line does, which
 * reason.write checked), the escaped comm and reason, on one line.
 */
TEST_F(dmesg, notices_escaped_on_one_line)
{
	char esc[TAINT_REASON_MAX * 4 + 2], cesc[80], want[800], comm0[17] = "";
	struct rlog l;
	int miss = 0;
	size_t i, rl;

	prctl(PR_GET_NAME, comm0);
	ASSERT_TRUE(rlog_read(&l, 65536, NULL, NULL)) TH_LOG("taint_log: %s", l.err);
	for (i = 0; i < ARRAY_SIZE(rcases); i++) {
		const struct fcase *c = &rcases[i];
		const char *comm = c->comm ? c->comm : comm0;

		if (!c->accept)
			continue;
		rl = strlen(c->bytes);
		if (c->bytes[rl - 1] == '\n')
			rl--;
		model_escape(esc, c->bytes, rl, false);
		model_escape(cesc, comm, strnlen(comm, 15), false);
		snprintf(want, sizeof(want),
			 "taint: U set by pid=%ld uid=0 comm=\"%s\" reason=\"%s\"\n",
			 reason_pid(&l, c->bytes, rl), cesc, esc);
		if (count_str(self->k, want) != 1 && !miss++)
			diag("not found once in dmesg: %s", want);
	}
	rlog_free(&l);
	EXPECT_EQ(0, miss) TH_LOG("%d notices missing", miss);
}

/* No dmesg line starts with forged text. */
TEST_F(dmesg, no_line_begins_with_forged_text)
{
	int forged = 0;
	const char *p;

	for (p = self->k; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
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
	if (has_raw_address(self->k, self->len))
		diag("note: dmesg itself contains address-like hex (not checked)");
	EXPECT_EQ(0, forged) TH_LOG("%d forged lines", forged);
}

int main(int argc, char **argv)
{
	int h = rel_harness_args(argc, argv, 1);
	char comm[17] = "";

	if (h < 0) {
		fprintf(stderr, "usage: taint_forgery [-- HARNESS-OPTIONS]\n");
		return 2;
	}
	rel_tap_header();
	prctl(PR_GET_NAME, comm);
	diag("pid %d, comm \"%s\"", getpid(), comm);
	return rel_run_tests(argc, argv, h, NULL);
}
