// SPDX-License-Identifier: GPL-2.0
/*
 * taint_fuzz - seeded, bounded, reproducible fuzzer of the taint ABI
 * writes (/proc/sys/kernel/tainted and /proc/sys/kernel/taint_reason).
 *
 * usage: taint_fuzz SEED [COUNT]      (COUNT defaults to 100000)
 *        taint_fuzz --selftest        (host: the oracle on fixed inputs)
 *
 * Operation i is a pure function of (SEED, i): file, who (root, or uid
 * 1000 opening the file, or uid 1000 writing through an fd root opened),
 * length (0..1 MiB, skewed to small), offset (0 mostly) and bytes (random,
 * or built from a grammar of almost-valid inputs). Root operations run
 * in this process, one at a time, each between two reads of the mask; uid
 * 1000 ones in a child that dropped privileges, at the same time.
 *
 * What each root write must do comes from the documented ABI only
 * (docs/abi.md 1.1-1.3; blanks and offset as the series' ABI file,
 * Documentation/ABI/testing/procfs-sys-kernel-taint, says), not from the
 * kernel's code:
 *  - tainted: an unsigned number, decimal, 0x hex or leading-0 octal,
 *    optional whitespace (space \t \n \v \f \r) around it, at offset 0;
 *    a bit >= 19 gets EINVAL; nothing else is accepted (abi_tainted());
 *  - taint_reason: 1-128 printable ASCII bytes plus one optional trailing
 *    newline, at offset 0 (abi_reason()).
 * An accepted write must set exactly its bits that were not set (mask
 * before/after), and one that set a bit must be the log's last line with
 * flags= its bits and new= the bits it set. Where the kernel answers
 * otherwise, the difference is excused only if exactly one named quirk of
 * the stock parser (quirks[], docs/design.md "Writing") describes this
 * input and the kernel's answer; excused writes are counted per quirk.
 * The log's counts are checked against a model of the v2 recording rules
 * (first 16 user requests kept, then only first sets; a tainted write that
 * sets nothing records nothing and is not counted in dropped=).
 *
 * TAP on stdout; the seed first, as "# seed=<n>".
 */
#include "rel.h"

#include <grp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define POOL	(1 << 20)
#define KPAGE	4096		/* PAGE_SIZE of the guest */

enum who { ROOT, U_OPEN, U_FD };

struct op {
	int file;		/* 0 tainted, 1 taint_reason */
	enum who who;
	size_t len;
	off_t off;
	const unsigned char *buf;
};

static uint64_t seed;
static unsigned char *pool, *scratch;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t *s, uint64_t n)
{
	return n ? splitmix(s) % n : 0;
}

static size_t gen_len(uint64_t *s)
{
	unsigned r = rnd(s, 1000);

	if (r < 10)
		return 0;
	if (r < 450)
		return 1 + rnd(s, 16);
	if (r < 800)
		return 17 + rnd(s, 240);
	if (r < 930)
		return 257 + rnd(s, 3840 + 200);	/* around PAGE_SIZE too */
	if (r < 985)
		return 4097 + rnd(s, 61440);
	return 65537 + rnd(s, POOL - 65537 + 1);
}

static const char ws_set[] = { ' ', '\t', '\n', '\v', '\f', '\r', (char)0xa0 };

static size_t put_ws(uint64_t *s, unsigned char *p, int max)
{
	int n = rnd(s, max + 1), i;

	for (i = 0; i < n; i++)
		p[i] = rnd(s, 4) ? ws_set[rnd(s, 3)] : ws_set[rnd(s, sizeof(ws_set))];
	return n;
}

/* An almost-valid write to tainted; returns its length. */
static size_t gen_tainted(uint64_t *s, unsigned char *p, size_t want)
{
	size_t n = 0;
	unsigned long v;
	unsigned r;
	int i;

	if (rnd(s, 3) == 0)
		n += put_ws(s, p, 3);
	r = rnd(s, 100);
	if (r < 4)
		p[n++] = '-';
	else if (r < 6)
		p[n++] = '+';
	r = rnd(s, 100);
	if (r < 70) {
		v = 0;
		for (i = rnd(s, 4); i >= 0; i--)
			v |= 1UL << rnd(s, KFLAGS);
		if (rnd(s, 5) == 0)
			v = 0;
	} else if (r < 88) {
		v = 1UL << (KFLAGS + rnd(s, 64 - KFLAGS));
		v |= rnd(s, 2) ? 64 : 0;
	} else {
		v = splitmix(s);
	}
	r = rnd(s, 100);
	if (r < 45) {
		n += sprintf((char *)p + n, "%lu", v);
	} else if (r < 70) {
		n += sprintf((char *)p + n, rnd(s, 2) ? "0x%lx" : "0X%lX", v);
	} else if (r < 82) {
		n += sprintf((char *)p + n, "0%lo", v);
	} else if (r < 88) {			/* leading zeros, around 21 chars */
		int z = 15 + rnd(s, 8);

		n += sprintf((char *)p + n, "%0*lu", z, v & KMASK);
	} else if (r < 91) {			/* overflow */
		n += sprintf((char *)p + n, "%lu%u", v, (unsigned)rnd(s, 1000));
	} else {				/* odd prefixes and digits */
		static const char *odd[] = { "0x", "0xg", "08", "09", "0x 1",
					     "1e3", "1.0", "0b1", "64k", "١" };
		n += sprintf((char *)p + n, "%s", odd[rnd(s, 10)]);
	}
	if (rnd(s, 2))
		n += put_ws(s, p + n, 3);
	r = rnd(s, 100);
	if (r < 12) {				/* junk after it */
		int k = 1 + rnd(s, 8);

		for (i = 0; i < k; i++)
			p[n++] = rnd(s, 2) ? 0x21 + rnd(s, 94) : rnd(s, 256);
	} else if (r < 15) {			/* a second number */
		n += sprintf((char *)p + n, " %u", (unsigned)rnd(s, 100));
	}
	if (want > n) {				/* pad: spaces, maybe junk last */
		memset(p + n, rnd(s, 2) ? ' ' : '\n', want - n);
		if (rnd(s, 3) == 0)
			p[want - 1 - rnd(s, want - n)] = 'x';
		n = want;
	}
	return n;
}

/* An almost-valid reason; returns its length. */
static size_t gen_reason(uint64_t *s, unsigned char *p, size_t want)
{
	static const size_t edge[] = { 0, 1, 2, 127, 128, 129, 130 };
	size_t n, i;
	unsigned r = rnd(s, 100);

	if (r < 30)
		n = edge[rnd(s, 7)];
	else if (r < 90)
		n = 1 + rnd(s, 140);
	else
		n = want;
	for (i = 0; i < n; i++)
		p[i] = 0x20 + rnd(s, 95);
	if (n && rnd(s, 8) == 0)		/* one bad byte */
		p[rnd(s, n)] = rnd(s, 3) ? rnd(s, 32) : 0x7f + rnd(s, 129);
	r = rnd(s, 100);
	if (r < 30)
		p[n++] = '\n';
	else if (r < 34)
		n += sprintf((char *)p + n, "\n\n");
	else if (r < 37)
		n += sprintf((char *)p + n, "\r\n");
	return n;
}

/* Operation @i, deterministic; its bytes in @scratch or @pool. */
static void gen_op(uint64_t i, struct op *o)
{
	uint64_t s = seed * 0x2545f4914f6cdd1dULL + i * 0x9e3779b97f4a7c15ULL + 1;
	unsigned r;

	splitmix(&s);
	o->file = rnd(&s, 2);
	r = rnd(&s, 4);
	o->who = r < 2 ? ROOT : r == 2 ? U_OPEN : U_FD;
	o->len = gen_len(&s);
	r = rnd(&s, 100);
	o->off = r < 90 ? 0 : r < 98 ? 1 + (off_t)rnd(&s, 8192) : (off_t)1 << 30;
	if (rnd(&s, 100) < 35) {		/* raw random bytes */
		o->buf = pool + rnd(&s, POOL - o->len + 1);
	} else {
		o->len = o->file ? gen_reason(&s, scratch, o->len)
				 : gen_tainted(&s, scratch, o->len);
		o->buf = scratch;
	}
}

/* ---- the documented ABI ------------------------------------------------- */

/* Whitespace in the C locale: what "optional whitespace around it" means. */
static bool abi_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* ... and the same with 0xa0, which the kernel's ctype also calls a space. */
static bool nbsp_space(unsigned char c)
{
	return abi_space(c) || c == 0xa0;
}

/*
 * The text around a number: [@b, @e) with the whitespace (by @ws) around it
 * stripped gives the number's token [*tb, *te).  Parse the token as an
 * unsigned number: decimal, "0x"/"0X" and hex digits, or "0" and octal
 * digits; the whole token, no sign, no overflow.
 */
static bool abi_number(const unsigned char *b, size_t len, bool (*ws)(unsigned char),
		       unsigned long *v, size_t *tb, size_t *te)
{
	size_t i = 0, j = len;
	unsigned long long x = 0;
	unsigned base = 10;

	while (i < j && ws(b[i]))
		i++;
	while (j > i && ws(b[j - 1]))
		j--;
	*tb = i;
	for (*te = i; *te < j && !ws(b[*te]); ++*te)
		;
	if (*te != j || i == j)
		return false;		/* nothing, or two words */
	if (b[i] == '0' && j - i > 1) {
		if ((b[i + 1] | 0x20) == 'x') {
			base = 16;
			i += 2;
			if (i == j)
				return false;
		} else {
			base = 8;
			i++;
		}
	}
	for (; i < j; i++) {
		unsigned d;

		if (b[i] >= '0' && b[i] <= '9')
			d = b[i] - '0';
		else if ((b[i] | 0x20) >= 'a' && (b[i] | 0x20) <= 'f')
			d = (b[i] | 0x20) - 'a' + 10;
		else
			return false;
		if (d >= base || x > (~0ULL - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

static bool abi_tainted(const struct op *o, unsigned long *bits)
{
	size_t tb, te;

	*bits = 0;
	if (!o->off && abi_number(o->buf, o->len, abi_space, bits, &tb, &te) &&
	    !(*bits & ~KMASK))
		return true;
	*bits = 0;
	return false;
}

static bool abi_reason(const struct op *o)
{
	size_t n = o->len, i;

	if (o->off)
		return false;
	if (n && o->buf[n - 1] == '\n')
		n--;
	if (!n || n > TAINT_REASON_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (o->buf[i] < 0x20 || o->buf[i] > 0x7e)
			return false;
	return true;
}

/* ---- quirks: where the kernel legitimately differs ---------------------- */

enum { Q_PAGE, Q_LONG, Q_SEP, Q_NBSP, NQ };

static const struct {
	const char *name, *what;
} quirks[NQ] = {
	[Q_PAGE] = { "page-or-longer-write",
		     "a write to tainted of PAGE_SIZE (4096) bytes or more is refused, whitespace or not" },
	[Q_LONG] = { "number-of-21-or-more-characters",
		     "a number written with 21 or more characters (leading zeros, 0x included) is refused (TMPBUFLEN)" },
	[Q_SEP] = { "only-space-tab-newline-right-after-the-number",
		    "\\v, \\f or \\r right after the number is refused; after a space, tab or newline they are fine" },
	[Q_NBSP] = { "0xa0-is-whitespace",
		     "byte 0xa0 (Latin-1 no-break space) counts as whitespace around the number" },
};

static int writes_strict = 1;	/* kernel.sysctl_writes_strict */

/*
 * The kernel answered @got (bytes or -errno) where the ABI reading says
 * @abi_ok. The one quirk that describes this input and this answer, with
 * the bits the kernel then sets in *@bits; -1 if none does.
 */
static int excuse(const struct op *o, bool abi_ok, long got, unsigned long *bits)
{
	bool k_ok = got == (long)o->len && o->len;
	size_t tb, te;
	unsigned long v;

	*bits = 0;
	if (o->file || k_ok == abi_ok)
		return -1;
	if (abi_ok) {
		/* refused, though a number: which limit of the parser? */
		if (got != -EINVAL)
			return -1;
		abi_number(o->buf, o->len, abi_space, &v, &tb, &te);
		if (o->len >= 4096)
			return Q_PAGE;
		if (te - tb >= 21)
			return Q_LONG;
		if (te < o->len && (o->buf[te] == '\v' || o->buf[te] == '\f' ||
				    o->buf[te] == '\r'))
			return Q_SEP;
		return -1;
	}
	/* accepted, though not a number by the ABI reading */
	if (o->len >= 4096)
		return -1;
	/* v2 refuses a write at an offset whatever sysctl_writes_strict says. */
	if (o->off)
		return -1;
	if (memchr(o->buf, 0xa0, o->len) &&
	    abi_number(o->buf, o->len, nbsp_space, &v, &tb, &te) && !(v & ~KMASK) &&
	    te - tb < 21 && (te == o->len || o->buf[te] == ' ' ||
			     o->buf[te] == '\t' || o->buf[te] == '\n')) {
		*bits = v;
		return Q_NBSP;
	}
	return -1;
}

/* ---- self-test of the oracle (host) ------------------------------------- */

struct stcase {
	int file;
	const char *bytes;
	size_t len;		/* 0: strlen */
	off_t off;
	bool abi;		/* ABI accepts */
	unsigned long bits;
	long kernel;		/* what stock + the series answer: 1 ok, else -errno */
	int quirk;		/* the excuse expected when they differ, else -1 */
};

/* Inputs too long to spell: filled by the fixture's set-up. */
static char st_page[4100], st_z21[32], st_r128[140], st_r129[140];

FIXTURE(selftest) {};
FIXTURE_VARIANT(selftest) {
	struct stcase c;
};

FIXTURE_SETUP(selftest)
{
	memset(st_page, ' ', sizeof(st_page));
	memcpy(st_page, "64", 2);
	/* "0...064": 21 characters, octal */
	snprintf(st_z21, sizeof(st_z21), "%021d", 64);
	memset(st_r128, 'r', 128);
	st_r128[128] = '\n';
	memset(st_r129, 'r', 129);
}

FIXTURE_TEARDOWN(selftest) {}

/* One oracle case: file, bytes, len, off, ABI accepts, bits, kernel, quirk */
#define ORACLE(name, ...) \
	FIXTURE_VARIANT_ADD(selftest, name) { .c = { __VA_ARGS__ } }

ORACLE(dec, 0, "64", 0, 0, true, 64, 1, -1);
ORACLE(dec_newline, 0, "64\n", 0, 0, true, 64, 1, -1);
ORACLE(dec_blanks_around, 0, " \t64 \n\n", 0, 0, true, 64, 1, -1);
ORACLE(hex, 0, "0x40", 0, 0, true, 64, 1, -1);
ORACLE(hex_upper, 0, "0X4a", 0, 0, true, 74, 1, -1);
ORACLE(octal, 0, "064", 0, 0, true, 52, 1, -1);
ORACLE(zero, 0, "0", 0, 0, true, 0, 1, -1);
ORACLE(vt_ff_cr_before, 0, "\v\f\r64", 0, 0, true, 64, 1, -1);
ORACLE(bit_18, 0, "262144", 0, 0, true, 1UL << 18, 1, -1);
ORACLE(bit_19, 0, "524288", 0, 0, false, 0, -EINVAL, -1);
ORACLE(overflow, 0, "18446744073709551616", 0, 0, false, 0, -EINVAL, -1);
ORACLE(empty, 0, "", 0, 0, false, 0, -EINVAL, -1);
ORACLE(blanks_only, 0, "  \n", 0, 0, false, 0, -EINVAL, -1);
ORACLE(minus_zero, 0, "-0", 0, 0, false, 0, -EINVAL, -1);
ORACLE(plus_sign, 0, "+64", 0, 0, false, 0, -EINVAL, -1);
ORACLE(hex_prefix_only, 0, "0x", 0, 0, false, 0, -EINVAL, -1);
ORACLE(octal_digit_8, 0, "08", 0, 0, false, 0, -EINVAL, -1);
ORACLE(suffix, 0, "64k", 0, 0, false, 0, -EINVAL, -1);
ORACLE(two_numbers, 0, "64 1", 0, 0, false, 0, -EINVAL, -1);
ORACLE(nul_inside, 0, "6\0004", 3, 0, false, 0, -EINVAL, -1);
ORACLE(at_offset, 0, "64", 0, 3, false, 0, -EINVAL, -1);
/* the quirks */
ORACLE(page, 0, st_page, sizeof(st_page), 0, true, 64, -EINVAL, Q_PAGE);
ORACLE(chars_21, 0, st_z21, 0, 0, true, 52, -EINVAL, Q_LONG);
ORACLE(cr_after, 0, "64\r\n", 0, 0, true, 64, -EINVAL, Q_SEP);
ORACLE(cr_after_space, 0, "64 \r\n", 0, 0, true, 64, 1, -1);
ORACLE(nbsp_before, 0, "\xa0" "64", 0, 0, false, 0, 1, Q_NBSP);
ORACLE(nbsp_after_newline, 0, "64\n\xa0", 0, 0, false, 0, 1, Q_NBSP);
ORACLE(nbsp_right_after, 0, "64\xa0", 0, 0, false, 0, -EINVAL, -1);
/* 0xa0 excuses nothing but itself */
ORACLE(nbsp_and_21_chars, 0, "\xa0" "000000000000000000064", 0, 0, false, 0, 1, -1);
ORACLE(nbsp_and_cr, 0, "\xa0" "64\r", 0, 0, false, 0, 1, -1);
ORACLE(nbsp_at_offset, 0, "\xa0" "64", 0, 1, false, 0, 1, -1);
/* a kernel accepting what no quirk allows: never excused */
ORACLE(suffix_accepted, 0, "64k", 0, 0, false, 0, 1, -1);
ORACLE(nbsp_suffix_accepted, 0, "\xa0" "64k", 0, 0, false, 0, 1, -1);
ORACLE(eperm, 0, "64", 0, 0, true, 64, -EPERM, -1);
ORACLE(offset_accepted, 0, "64", 0, 1, false, 0, 1, -1);	/* strict */
/* taint_reason: no quirk */
ORACLE(reason, 1, "x", 0, 0, true, U_BIT, 1, -1);
ORACLE(reason_newline, 1, "x\n", 0, 0, true, U_BIT, 1, -1);
ORACLE(reason_only_newline, 1, "\n", 0, 0, false, 0, -EINVAL, -1);
ORACLE(reason_two_newlines, 1, "x\n\n", 0, 0, false, 0, -EINVAL, -1);
ORACLE(reason_tab, 1, "a\tb", 0, 0, false, 0, -EINVAL, -1);
ORACLE(reason_utf8, 1, "caf\xc3\xa9", 0, 0, false, 0, -EINVAL, -1);
ORACLE(reason_128, 1, st_r128, 0, 0, true, U_BIT, 1, -1);
ORACLE(reason_129, 1, st_r129, 0, 0, false, 0, -EINVAL, -1);
ORACLE(reason_at_offset, 1, "x", 0, 1, false, 0, -EINVAL, -1);
ORACLE(reason_cr_accepted, 1, "x\r", 0, 0, false, 0, 1, -1);

/* The ABI reading and the quirk table on one fixed input. */
TEST_F(selftest, oracle)
{
	const struct stcase *c = &variant->c;
	struct op o = { .file = c->file, .off = c->off,
			.buf = (const unsigned char *)c->bytes };
	unsigned long bits = 0, kb;
	char hex[80];
	bool abi;
	long got;
	int q;

	o.len = c->len ? c->len : strlen(c->bytes);
	abi = o.file ? abi_reason(&o) : abi_tainted(&o, &bits);
	if (o.file && abi)
		bits = U_BIT;
	got = c->kernel == 1 ? (long)o.len : c->kernel;
	q = excuse(&o, abi, got, &kb);
	hexdump_str(hex, sizeof(hex), o.buf, o.len, 24);
	diag("%s %s off %lld: ABI %s, kernel %ld: %s",
	     o.file ? "taint_reason" : "tainted", hex, (long long)o.off,
	     c->abi ? "accepts" : "refuses", c->kernel,
	     c->quirk >= 0 ? quirks[c->quirk].name :
	     (c->kernel == 1) == c->abi ? "agree" : "not excused");
	EXPECT_EQ(c->abi, abi);
	EXPECT_EQ(c->bits, bits);
	EXPECT_EQ(c->quirk, q) TH_LOG("quirk %d excused it (bits %#lx)", q, kb);
	if (q == Q_NBSP)
		EXPECT_EQ(64UL, kb);
}

/* ---- run ---------------------------------------------------------------- */

static const char *const paths[2] = { P_TAINTED, P_REASON };

static long do_op(const struct op *o, const int *fds)
{
	long r;

	if (o->who == U_OPEN) {
		int fd = open(paths[o->file], O_WRONLY | O_CLOEXEC);

		if (fd < 0)
			return -errno;
		r = pwrite(fd, o->buf, o->len, o->off);
		r = r < 0 ? -errno : r;
		close(fd);
		return 1000000000L + r;	/* the open must not succeed */
	}
	r = pwrite(fds[o->file], o->buf, o->len, o->off);
	return r < 0 ? -errno : r;
}

static void report(const char *what, long i, const struct op *o, long got,
		   const char *want)
{
	char hex[200];

	hexdump_str(hex, sizeof(hex), o->buf, o->len, 64);
	diag("%s: op %ld %s len=%zu off=%lld got=%ld want %s bytes=%s",
	     what, i, o->file ? "taint_reason" : "tainted", o->len,
	     (long long)o->off, got, want, hex);
}

/* A failure of a class counted in @n: the first few described. */
#define FAIL(n, ...) do { if ((n)++ < 5) report(__VA_ARGS__); } while (0)

/* The v2 recording rules, as counts: what the log must hold. */
struct model {
	long recorded;		/* user requests recorded (lines + dropped) */
	long user_lines, dropped;
};

static void model_record(struct model *m, unsigned long set)
{
	if (m->recorded < USER_KEPT || set)
		m->user_lines++;
	else
		m->dropped++;
	m->recorded++;
}

/* The run, done once in main(); the tests judge what it counted. */
static struct {
	long count, *res;
	int fds[2], fd_tmask, fd_reason;
	pid_t me;
	char comm[17];
	char last_reason[TAINT_REASON_MAX + 2];
	size_t last_reason_len;
	int child_status;
	struct model m;
	unsigned long mask0, mask, asked;
	long root_n, uopen_n, ufd_n, accepted[2], rejected[2], excused[NQ];
	long bytes, big, nonzero_off;
	long line_checks, reason_checks, count_checks;
	/* failures per class */
	long uopen_bad, ufd_bad, acc_bad[2], rej_bad[2], refusal_bad;
	long bits_bad, line_bad, reason_bad, count_bad;
	struct rlog l1;		/* the log after the run */
	bool l1_ok;
} run;

static unsigned long mask_now(void)
{
	char b[32];
	ssize_t r = pread(run.fd_tmask, b, sizeof(b) - 1, 0);
	uint64_t m;

	b[r > 0 ? r : 0] = '\0';
	return taint_parse_value(b, &m) ? ~0UL : (unsigned long)m;
}

/* Whether the log's last event is accepted root write @o (@want, @set). */
static bool is_last_line(const struct rlog *l, const struct op *o,
			 unsigned long want, unsigned long set)
{
	const struct taint_event *e = l->n ? &l->ev[l->n - 1] : NULL;
	size_t rl = o->len - (o->buf[o->len - 1] == '\n');

	return e && e->origin == TAINT_ORIGIN_USER &&
	       e->flags_mask == want && e->new_mask == set &&
	       e->pid == (uint32_t)run.me && e->uid == 0 &&
	       e->comm_len == strlen(run.comm) &&
	       !memcmp(e->comm, run.comm, e->comm_len) &&
	       e->has_reason == o->file &&
	       (!o->file || (e->reason_len == rl &&
			     !memcmp(e->reason, o->buf, rl)));
}

/*
 * The log after root write @i (@o, answer @r, mask @mb -> @ma): the bits
 * that changed unexplained by the write are the kernel's, the counts
 * follow the model, and a recorded write is the last line.
 */
static void check_log(long i, const struct op *o, long r, bool k_ok,
		      unsigned long mb, unsigned long ma, unsigned long want,
		      unsigned long set, unsigned long unexplained)
{
	struct rlog l;
	char w[96], *text = NULL;
	size_t tlen;

	if (!rlog_read(&l, 65536, &text, &tlen)) {
		FAIL(run.count_bad, "taint_log not a v2 log after", i, o, r, "a v2 log");
		diag("  %s", l.err);
		goto out;
	}
	/* the kernel may set flags meanwhile: those are its own */
	if (unexplained & ~rlog_kernel_flags(&l)) {
		snprintf(w, sizeof(w), "mask %#lx -> %#lx, set %#lx, want set %#lx",
			 mb, ma, set, k_ok ? want & ~mb : 0);
		FAIL(run.bits_bad, "bits set differ from the request's", i, o, r, w);
	}
	run.count_checks++;
	if (l.user_lines != run.m.user_lines || l.dropped != run.m.dropped) {
		snprintf(w, sizeof(w), "%ld user lines dropped=%ld (log: %d, %ld)",
			 run.m.user_lines, run.m.dropped, l.user_lines, l.dropped);
		FAIL(run.count_bad, "log counts differ from the v2 rules", i, o, r, w);
		/* follow the log, to report each divergence once */
		run.m.user_lines = l.user_lines;
		run.m.dropped = l.dropped;
	}
	if (k_ok && (set || (o->file && run.m.recorded <= USER_KEPT))) {
		run.line_checks++;
		if (!is_last_line(&l, o, want, set)) {
			snprintf(w, sizeof(w), "last line: flags %#lx new %#lx, pid %d comm \"%s\"",
				 want, set, run.me, run.comm);
			FAIL(run.line_bad, "the write is not the log's last line", i, o, r, w);
			if (l.n && run.line_bad <= 5)
				diag("  last line: %.*s", (int)l.line_len[l.n - 1],
				     l.line[l.n - 1]);
		}
	}
out:
	rlog_free(&l);
	free(text);
}

/* taint_reason reads back the latest accepted reason. */
static void check_reason(long i, const struct op *o, long r, bool k_ok)
{
	char b[TAINT_REASON_MAX + 2];
	ssize_t n;

	if (k_ok) {
		run.last_reason_len = o->len - (o->buf[o->len - 1] == '\n');
		memcpy(run.last_reason, o->buf, run.last_reason_len);
		run.last_reason[run.last_reason_len++] = '\n';
	}
	n = pread(run.fd_reason, b, sizeof(b), 0);
	run.reason_checks++;
	if (n != (ssize_t)run.last_reason_len || memcmp(b, run.last_reason, n))
		FAIL(run.reason_bad, "taint_reason does not read back the latest accepted reason",
		     i, o, r, "the latest accepted reason");
}

/* Root operation @i, between two reads of the mask, and what it did. */
static void root_op(long i, const struct op *o)
{
	unsigned long mb, ma, abi_bits = 0, want, set, unexplained;
	bool abi_ok, k_ok, logcheck;
	long r, nacc;
	int q;

	run.root_n++;
	mb = mask_now();
	r = run.res[i] = do_op(o, run.fds);
	ma = mask_now();

	abi_ok = o->file ? abi_reason(o) : abi_tainted(o, &abi_bits);
	if (o->file)
		abi_bits = U_BIT;
	k_ok = r == (long)o->len && o->len;
	want = abi_bits;
	if (k_ok != abi_ok) {
		q = excuse(o, abi_ok, r, &want);
		if (q >= 0)
			run.excused[q]++;
		else if (abi_ok)
			FAIL(run.acc_bad[o->file], "valid by the ABI, not accepted, no quirk says why",
			     i, o, r, "the whole length");
		else
			FAIL(run.rej_bad[o->file], "invalid by the ABI, not refused, no quirk says why",
			     i, o, r, "-EINVAL");
	}
	if (!k_ok && r != -EINVAL)
		FAIL(run.refusal_bad, "refused other than with EINVAL (or a short write)",
		     i, o, r, "-EINVAL");
	set = k_ok ? ma & ~mb : 0;
	unexplained = k_ok ? set ^ (want & ~mb) : ma ^ mb;
	logcheck = set || unexplained;
	if (k_ok) {
		run.accepted[o->file]++;
		run.asked |= want;
		if (o->file || set)
			model_record(&run.m, set);
		/* the first 16 recorded requests each have their line */
		if (o->file && run.m.recorded <= USER_KEPT)
			logcheck = true;
	} else {
		run.rejected[o->file]++;
	}
	/* counts: now and then, and densely while slots are used up */
	nacc = run.accepted[0] + run.accepted[1];
	if ((k_ok && (nacc <= 64 || nacc % 256 == 0)) ||
	    (!k_ok && run.rejected[0] + run.rejected[1] < 32))
		logcheck = true;
	if (logcheck)
		check_log(i, o, r, k_ok, mb, ma, want, set, unexplained);
	if (o->file)
		check_reason(i, o, r, k_ok);
}

/* The state before the run: the log's counts, the reason, the files. */
static int run_setup(void)
{
	struct rlog l0;
	size_t n;
	char *b;
	uint64_t ps = seed ^ 0x5eed;
	long i;

	run.me = getpid();
	prctl(PR_GET_NAME, run.comm);
	pool = malloc(POOL);
	scratch = malloc(POOL + 64);
	run.res = mmap(NULL, run.count * sizeof(*run.res), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!pool || !scratch || run.res == MAP_FAILED)
		return -1;
	for (i = 0; i < POOL / 8; i++)
		((uint64_t *)pool)[i] = splitmix(&ps);

	b = read_all("/proc/sys/kernel/sysctl_writes_strict", 64, &n);
	if (b)
		writes_strict = atoi(b);
	free(b);
	diag("kernel.sysctl_writes_strict = %d", writes_strict);
	run.mask0 = read_mask();
	if (!rlog_read(&l0, 65536, NULL, NULL))
		diag("log before the run is not a v2 log: %s", l0.err);
	run.m.user_lines = l0.user_lines;
	run.m.dropped = l0.dropped;
	run.m.recorded = l0.user_lines + l0.dropped;
	rlog_free(&l0);
	b = read_all(P_REASON, 4096, &n);
	if (b && n && n <= sizeof(run.last_reason)) {
		memcpy(run.last_reason, b, n);
		run.last_reason_len = n;
	}
	free(b);
	run.fds[0] = open(P_TAINTED, O_WRONLY | O_CLOEXEC);
	run.fds[1] = open(P_REASON, O_WRONLY | O_CLOEXEC);
	run.fd_tmask = open(P_TAINTED, O_RDONLY | O_CLOEXEC);
	run.fd_reason = open(P_REASON, O_RDONLY | O_CLOEXEC);
	if (run.fds[0] < 0 || run.fds[1] < 0 || run.fd_tmask < 0 || run.fd_reason < 0) {
		diag("open as root: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* uid 1000's operations, in a child that dropped privileges, meanwhile. */
static pid_t run_uid1000(void)
{
	pid_t pid = fork();
	struct op o;
	long i;

	if (pid)
		return pid;
	if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) ||
	    setresuid(1000, 1000, 1000) || geteuid() != 1000)
		_exit(3);
	for (i = 0; i < run.count; i++) {
		gen_op(i, &o);
		if (o.who != ROOT)
			run.res[i] = do_op(&o, run.fds);
	}
	_exit(0);
}

/* What uid 1000's operations got: EACCES on open, EPERM on root's fds. */
static void uid1000_results(void)
{
	struct op o;
	long i;

	for (i = 0; i < run.count; i++) {
		gen_op(i, &o);
		if (o.who == U_OPEN) {
			run.uopen_n++;
			if (run.res[i] != -EACCES)
				FAIL(run.uopen_bad, "uid 1000 open not EACCES", i, &o,
				     run.res[i], "-EACCES");
		} else if (o.who == U_FD) {
			run.ufd_n++;
			if (run.res[i] != -EPERM)
				FAIL(run.ufd_bad, "uid 1000 write via root fd not EPERM", i, &o,
				     run.res[i], "-EPERM");
		}
	}
}

static int fuzz_run(void)
{
	double t0, t_run, t_all;
	struct op o;
	pid_t pid;
	long i;

	if (run_setup())
		return -1;
	t0 = now_s();
	pid = run_uid1000();
	for (i = 0; i < run.count; i++) {
		gen_op(i, &o);
		run.bytes += o.len;
		run.big += o.len > 65536;
		run.nonzero_off += o.off != 0;
		if (o.who == ROOT)
			root_op(i, &o);
	}
	waitpid(pid, &run.child_status, 0);
	t_run = now_s() - t0;
	uid1000_results();
	t_all = now_s() - t0;

	diag("%ld ops in %.1f s (%.0f ops/s), checked in %.1f s; %ld bytes written, %ld ops > 64 KiB, %ld at non-zero offsets",
	     run.count, t_run, run.count / t_run, t_all - t_run, run.bytes,
	     run.big, run.nonzero_off);
	diag("root: %ld ops; tainted %ld accepted / %ld refused; taint_reason %ld accepted / %ld refused",
	     run.root_n, run.accepted[0], run.rejected[0], run.accepted[1],
	     run.rejected[1]);
	diag("uid 1000: %ld open attempts, %ld writes through root's fds",
	     run.uopen_n, run.ufd_n);
	for (i = 0; i < NQ; i++)
		diag("quirk %-46s excused %6ld writes: %s", quirks[i].name,
		     run.excused[i], quirks[i].what);
	diag("%ld last-line checks, %ld log count checks, %ld taint_reason read-backs",
	     run.line_checks, run.count_checks, run.reason_checks);

	/* the log after the run */
	run.mask = read_mask();
	run.l1_ok = rlog_read(&run.l1, 65536, NULL, NULL);
	diag("mask before %#lx after %#lx; accepted writes asked %#lx, kernel set %#lx",
	     run.mask0, run.mask, run.asked, rlog_kernel_flags(&run.l1));
	diag("taint_log: %d kernel lines, %d user lines, dropped=%ld",
	     run.l1.kernel_lines, run.l1.user_lines, run.l1.dropped);
	diag("reproduce: taint_fuzz %llu %ld (on a fresh boot)",
	     (unsigned long long)seed, run.count);
	return 0;
}

/* ---- the checks of the run ---------------------------------------------- */

REL_FIXTURE(fuzz);

TEST_F(fuzz, uid1000_child_ran)
{
	EXPECT_TRUE(WIFEXITED(run.child_status) && !WEXITSTATUS(run.child_status))
		TH_LOG("uid 1000 child did not drop privileges and run (status %#x)",
		       run.child_status);
}

TEST_F(fuzz, uid1000_open_eacces)
{
	EXPECT_GT(run.uopen_n, 0);
	EXPECT_EQ(0, run.uopen_bad)
		TH_LOG("uid 1000: every open for writing fails with EACCES (%ld of %ld not)",
		       run.uopen_bad, run.uopen_n);
}

TEST_F(fuzz, uid1000_rootfd_eperm)
{
	EXPECT_GT(run.ufd_n, 0);
	EXPECT_EQ(0, run.ufd_bad)
		TH_LOG("uid 1000: every write through a root-opened fd fails with EPERM (%ld of %ld not)",
		       run.ufd_bad, run.ufd_n);
}

TEST_F(fuzz, tainted_abi_accepts)
{
	EXPECT_EQ(0, run.acc_bad[0])
		TH_LOG("tainted: every write the ABI accepts is accepted, or refused as one named quirk says (%ld not)",
		       run.acc_bad[0]);
}

TEST_F(fuzz, tainted_abi_refuses)
{
	EXPECT_EQ(0, run.rej_bad[0])
		TH_LOG("tainted: every write the ABI refuses is refused, or accepted as one named quirk says (%ld not)",
		       run.rej_bad[0]);
}

TEST_F(fuzz, reason_abi_accepts)
{
	EXPECT_EQ(0, run.acc_bad[1])
		TH_LOG("taint_reason: every write the ABI accepts is accepted (%ld not)",
		       run.acc_bad[1]);
}

TEST_F(fuzz, reason_abi_refuses)
{
	EXPECT_EQ(0, run.rej_bad[1])
		TH_LOG("taint_reason: every write the ABI refuses is refused (%ld not)",
		       run.rej_bad[1]);
}

TEST_F(fuzz, refusals_einval)
{
	EXPECT_EQ(0, run.refusal_bad)
		TH_LOG("root: every refusal is EINVAL, no write partially accepted (%ld not)",
		       run.refusal_bad);
}

TEST_F(fuzz, bits_set_exactly)
{
	EXPECT_EQ(0, run.bits_bad)
		TH_LOG("each accepted write set exactly its bits that were not set, a refused one nothing (mask before/after; %ld not)",
		       run.bits_bad);
}

TEST_F(fuzz, write_is_last_line)
{
	EXPECT_GT(run.line_checks, 0);
	EXPECT_EQ(0, run.line_bad)
		TH_LOG("each write that set a bit first, and each of the first %d recorded, is the log's last line: flags= its bits, new= the bits it set, pid= tgid, comm, uid, reason (%ld of %ld not)",
		       USER_KEPT, run.line_bad, run.line_checks);
}

TEST_F(fuzz, log_counts_v2_rules)
{
	EXPECT_GT(run.count_checks, 0);
	EXPECT_EQ(0, run.count_bad)
		TH_LOG("log counts follow the v2 rules at every check (first %d kept, then first sets only; a write that sets nothing is neither a line nor dropped) (%ld of %ld not)",
		       USER_KEPT, run.count_bad, run.count_checks);
}

TEST_F(fuzz, reason_reads_back)
{
	EXPECT_GT(run.reason_checks, 0);
	EXPECT_EQ(0, run.reason_bad)
		TH_LOG("taint_reason reads back the latest accepted reason after every root write to it (%ld of %ld not)",
		       run.reason_bad, run.reason_checks);
}

TEST_F(fuzz, log_v2_after_run)
{
	EXPECT_TRUE(run.l1_ok) TH_LOG("taint_log after the run: %s", run.l1.err);
}

TEST_F(fuzz, mask_accepted_bits)
{
	unsigned long allowed = run.mask0 | run.asked | rlog_kernel_flags(&run.l1);

	EXPECT_EQ(0UL, run.mask & ~allowed)
		TH_LOG("mask %#lx has bits no accepted write asked for, nor the kernel set",
		       run.mask);
	EXPECT_EQ(run.asked, run.mask & run.asked)
		TH_LOG("mask %#lx lacks bits of accepted writes", run.mask);
}

TEST_F(fuzz, one_first_event_per_flag)
{
	char why[512];

	EXPECT_TRUE(rlog_first_events(&run.l1, run.mask, why, sizeof(why)))
		TH_LOG("%s", why);
}

TEST_F(fuzz, log_lines_plus_dropped)
{
	EXPECT_EQ(run.m.recorded, run.l1.user_lines + run.l1.dropped)
		TH_LOG("user lines + dropped = the requests the v2 rules record (%d + %ld, want %ld)",
		       run.l1.user_lines, run.l1.dropped, run.m.recorded);
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: taint_fuzz SEED [COUNT] [-- HARNESS-OPTIONS]\n"
		"       taint_fuzz --selftest [HARNESS-OPTIONS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int h;

	if (argc >= 2 && !strcmp(argv[1], "--selftest"))
		return rel_run_tests(argc, argv, 2, "fuzz");
	if (argc < 2 || argv[1][0] == '-')
		return bad_usage();
	seed = strtoull(argv[1], NULL, 0);
	run.count = 100000;
	h = rel_harness_args(argc, argv, 2);
	if (h < 0) {
		run.count = atol(argv[2]);
		h = rel_harness_args(argc, argv, 3);
	}
	if (h < 0 || run.count < 1)
		return bad_usage();
	rel_tap_header();
	diag("seed=%llu", (unsigned long long)seed);
	diag("taint_fuzz %llu %ld", (unsigned long long)seed, run.count);
	if (fuzz_run())
		ksft_exit_fail_msg("the run could not be set up\n");
	return rel_run_tests(argc, argv, h, "selftest");
}
