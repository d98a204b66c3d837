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

static int selftest(void)
{
	static char page[4100], z21[32], r128[140], r129[140];
	const struct stcase c[] = {
		{ 0, "64", 0, 0, true, 64, 1, -1 },
		{ 0, "64\n", 0, 0, true, 64, 1, -1 },
		{ 0, " \t64 \n\n", 0, 0, true, 64, 1, -1 },
		{ 0, "0x40", 0, 0, true, 64, 1, -1 },
		{ 0, "0X4a", 0, 0, true, 74, 1, -1 },
		{ 0, "064", 0, 0, true, 52, 1, -1 },
		{ 0, "0", 0, 0, true, 0, 1, -1 },
		{ 0, "\v\f\r64", 0, 0, true, 64, 1, -1 },
		{ 0, "262144", 0, 0, true, 1UL << 18, 1, -1 },
		{ 0, "524288", 0, 0, false, 0, -EINVAL, -1 },	/* bit 19 */
		{ 0, "18446744073709551616", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "  \n", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "-0", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "+64", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "0x", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "08", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "64k", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "64 1", 0, 0, false, 0, -EINVAL, -1 },
		{ 0, "6\0004", 3, 0, false, 0, -EINVAL, -1 },
		{ 0, "64", 0, 3, false, 0, -EINVAL, -1 },
		/* the quirks */
		{ 0, page, sizeof(page), 0, true, 64, -EINVAL, Q_PAGE },
		{ 0, z21, 0, 0, true, 52, -EINVAL, Q_LONG },
		{ 0, "64\r\n", 0, 0, true, 64, -EINVAL, Q_SEP },
		{ 0, "64 \r\n", 0, 0, true, 64, 1, -1 },
		{ 0, "\xa0" "64", 0, 0, false, 0, 1, Q_NBSP },
		{ 0, "64\n\xa0", 0, 0, false, 0, 1, Q_NBSP },
		{ 0, "64\xa0", 0, 0, false, 0, -EINVAL, -1 },
		/* 0xa0 excuses nothing but itself */
		{ 0, "\xa0" "000000000000000000064", 0, 0, false, 0, 1, -1 },
		{ 0, "\xa0" "64\r", 0, 0, false, 0, 1, -1 },
		{ 0, "\xa0" "64", 0, 1, false, 0, 1, -1 },
		/* a kernel accepting what no quirk allows: never excused */
		{ 0, "64k", 0, 0, false, 0, 1, -1 },
		{ 0, "\xa0" "64k", 0, 0, false, 0, 1, -1 },
		{ 0, "64", 0, 0, true, 64, -EPERM, -1 },
		{ 0, "64", 0, 1, false, 0, 1, -1 },	/* strict: offset */
		/* taint_reason: no quirk */
		{ 1, "x", 0, 0, true, U_BIT, 1, -1 },
		{ 1, "x\n", 0, 0, true, U_BIT, 1, -1 },
		{ 1, "\n", 0, 0, false, 0, -EINVAL, -1 },
		{ 1, "x\n\n", 0, 0, false, 0, -EINVAL, -1 },
		{ 1, "a\tb", 0, 0, false, 0, -EINVAL, -1 },
		{ 1, "caf\xc3\xa9", 0, 0, false, 0, -EINVAL, -1 },
		{ 1, r128, 0, 0, true, U_BIT, 1, -1 },
		{ 1, r129, 0, 0, false, 0, -EINVAL, -1 },
		{ 1, "x", 0, 1, false, 0, -EINVAL, -1 },
		{ 1, "x\r", 0, 0, false, 0, 1, -1 },
	};
	int n = sizeof(c) / sizeof(c[0]), i;

	memset(page, ' ', sizeof(page));
	memcpy(page, "64", 2);
	snprintf(z21, sizeof(z21), "%020d", 64);	/* "0...064": 21 characters, octal */
	memmove(z21 + 1, z21, 21);
	z21[0] = '0';
	z21[21] = '\0';
	memset(r128, 'r', 128);
	r128[128] = '\n';
	memset(r129, 'r', 129);
	tap_plan(n);
	for (i = 0; i < n; i++) {
		struct op o = { .file = c[i].file, .off = c[i].off,
				.buf = (const unsigned char *)c[i].bytes };
		unsigned long bits = 0, kb;
		bool abi;
		long got;
		int q;
		char hex[80];

		o.len = c[i].len ? c[i].len : strlen(c[i].bytes);
		abi = o.file ? abi_reason(&o) : abi_tainted(&o, &bits);
		if (o.file && abi)
			bits = U_BIT;
		got = c[i].kernel == 1 ? (long)o.len : c[i].kernel;
		q = excuse(&o, abi, got, &kb);
		hexdump_str(hex, sizeof(hex), o.buf, o.len, 24);
		if (!tap_ok(abi == c[i].abi && bits == c[i].bits && q == c[i].quirk &&
			    (q != Q_NBSP || kb == 64),
			    "selftest: %s %s off %lld: ABI %s, kernel %ld: %s",
			    o.file ? "taint_reason" : "tainted", hex, (long long)o.off,
			    c[i].abi ? "accepts" : "refuses",
			    c[i].kernel, c[i].quirk >= 0 ? quirks[c[i].quirk].name :
			    (c[i].kernel == 1) == c[i].abi ? "agree" : "not excused"))
			diag("  got ABI %d bits %#lx, quirk %d (bits %#lx)", abi, bits, q, kb);
	}
	return tap_exit();
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

/* A failure class: how many, and the first few described. */
struct fails {
	long n;
};

#define FAIL(f, ...) do { if ((f)->n++ < 5) report(__VA_ARGS__); } while (0)

static int fd_tmask = -1, fd_reason = -1;

static unsigned long mask_now(void)
{
	char b[32];
	ssize_t r = pread(fd_tmask, b, sizeof(b) - 1, 0);
	uint64_t m;

	b[r > 0 ? r : 0] = '\0';
	return taint_parse_value(b, &m) ? ~0UL : (unsigned long)m;
}

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

int main(int argc, char **argv)
{
	long count = 100000, i, *res;
	int fds[2], st;
	pid_t pid, me = getpid();
	double t0, t_run, t_all;
	unsigned long mask0, mask, asked = 0;
	long root_n = 0, uopen_n = 0, ufd_n = 0, accepted[2] = { 0 }, rejected[2] = { 0 };
	long excused[NQ] = { 0 }, bytes = 0, big = 0, nonzero_off = 0;
	long line_checks = 0, reason_checks = 0, count_checks = 0;
	struct fails uopen_bad = { 0 }, ufd_bad = { 0 }, acc_bad[2] = { { 0 } }, rej_bad[2] = { { 0 } };
	struct fails refusal_bad = { 0 }, bits_bad = { 0 }, line_bad = { 0 }, reason_bad = { 0 };
	struct fails count_bad = { 0 };
	struct model m;
	struct rlog l0, l1;
	char why[512], comm[17] = "", last_reason[TAINT_REASON_MAX + 2] = "";
	size_t last_reason_len = 0;
	uint64_t ps;

	if (argc == 2 && !strcmp(argv[1], "--selftest"))
		return selftest();
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: taint_fuzz SEED [COUNT] | --selftest\n");
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	if (argc == 3)
		count = atol(argv[2]);
	printf("TAP version 13\n# seed=%llu\n1..16\n", (unsigned long long)seed);
	diag("taint_fuzz %llu %ld", (unsigned long long)seed, count);
	prctl(PR_GET_NAME, comm);

	pool = malloc(POOL);
	scratch = malloc(POOL + 64);
	res = mmap(NULL, count * sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!pool || !scratch || res == MAP_FAILED)
		return 1;
	ps = seed ^ 0x5eed;
	for (i = 0; i < POOL / 8; i++)
		((uint64_t *)pool)[i] = splitmix(&ps);

	{
		size_t n;
		char *b = read_all("/proc/sys/kernel/sysctl_writes_strict", 64, &n);

		if (b)
			writes_strict = atoi(b);
		free(b);
		diag("kernel.sysctl_writes_strict = %d", writes_strict);
	}
	mask0 = read_mask();
	if (!rlog_read(&l0, 65536, NULL, NULL))
		diag("log before the run is not a v2 log: %s", l0.err);
	m.user_lines = l0.user_lines;
	m.dropped = l0.dropped;
	m.recorded = l0.user_lines + l0.dropped;
	{
		size_t n;
		char *b = read_all(P_REASON, 4096, &n);

		if (b && n && n <= sizeof(last_reason)) {
			memcpy(last_reason, b, n);
			last_reason_len = n;
		}
		free(b);
	}
	fds[0] = open(P_TAINTED, O_WRONLY | O_CLOEXEC);
	fds[1] = open(P_REASON, O_WRONLY | O_CLOEXEC);
	fd_tmask = open(P_TAINTED, O_RDONLY | O_CLOEXEC);
	fd_reason = open(P_REASON, O_RDONLY | O_CLOEXEC);
	if (fds[0] < 0 || fds[1] < 0 || fd_tmask < 0 || fd_reason < 0) {
		diag("open as root: %s", strerror(errno));
		return 1;
	}

	t0 = now_s();
	pid = fork();
	if (pid == 0) {
		struct op o;

		if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) ||
		    setresuid(1000, 1000, 1000) || geteuid() != 1000)
			_exit(3);
		for (i = 0; i < count; i++) {
			gen_op(i, &o);
			if (o.who != ROOT)
				res[i] = do_op(&o, fds);
		}
		_exit(0);
	}
	for (i = 0; i < count; i++) {
		struct op o;
		unsigned long mb, ma, abi_bits = 0, want, set, unexplained;
		bool abi_ok, k_ok, logcheck;
		long r;
		int q = -1;

		gen_op(i, &o);
		bytes += o.len;
		big += o.len > 65536;
		nonzero_off += o.off != 0;
		if (o.who != ROOT)
			continue;
		root_n++;
		mb = mask_now();
		r = res[i] = do_op(&o, fds);
		ma = mask_now();

		abi_ok = o.file ? abi_reason(&o) : abi_tainted(&o, &abi_bits);
		if (o.file)
			abi_bits = U_BIT;
		k_ok = r == (long)o.len && o.len;
		want = abi_bits;
		if (k_ok != abi_ok) {
			q = excuse(&o, abi_ok, r, &want);
			if (q >= 0)
				excused[q]++;
			else if (abi_ok)
				FAIL(&acc_bad[o.file], "valid by the ABI, not accepted, no quirk says why",
				     i, &o, r, "the whole length");
			else
				FAIL(&rej_bad[o.file], "invalid by the ABI, not refused, no quirk says why",
				     i, &o, r, "-EINVAL");
		}
		if (!k_ok && r != -EINVAL)
			FAIL(&refusal_bad, "refused other than with EINVAL (or a short write)",
			     i, &o, r, "-EINVAL");
		set = k_ok ? ma & ~mb : 0;
		unexplained = k_ok ? set ^ (want & ~mb) : ma ^ mb;
		logcheck = set || unexplained;
		if (k_ok) {
			accepted[o.file]++;
			asked |= want;
			if (o.file || set)
				model_record(&m, set);
			/* the first 16 recorded requests each have their line */
			if (o.file && m.recorded <= USER_KEPT)
				logcheck = true;
		} else {
			rejected[o.file]++;
		}
		/* counts: now and then, and densely while slots are used up */
		if ((k_ok && (accepted[0] + accepted[1] <= 64 ||
			      (accepted[0] + accepted[1]) % 256 == 0)) ||
		    (!k_ok && rejected[0] + rejected[1] < 32))
			logcheck = true;
		if (logcheck) {
			struct rlog l;
			char *text = NULL;
			size_t tlen;

			if (!rlog_read(&l, 65536, &text, &tlen)) {
				FAIL(&count_bad, "taint_log not a v2 log after", i, &o, r, "a v2 log");
				diag("  %s", l.err);
			} else {
				const struct taint_event *e = l.n ? &l.ev[l.n - 1] : NULL;
				unsigned long kf = rlog_kernel_flags(&l);

				/* the kernel may set flags meanwhile: those are its own */
				if (unexplained & ~kf) {
					char w[96];

					snprintf(w, sizeof(w), "mask %#lx -> %#lx, set %#lx, want set %#lx",
						 mb, ma, set, k_ok ? want & ~mb : 0);
					FAIL(&bits_bad, "bits set differ from the request's", i, &o, r, w);
				}
				count_checks++;
				if (l.user_lines != m.user_lines || l.dropped != m.dropped) {
					char w[96];

					snprintf(w, sizeof(w), "%ld user lines dropped=%ld (log: %d, %ld)",
						 m.user_lines, m.dropped, l.user_lines, l.dropped);
					FAIL(&count_bad, "log counts differ from the v2 rules", i, &o, r, w);
					/* follow the log, to report each divergence once */
					m.user_lines = l.user_lines;
					m.dropped = l.dropped;
				}
				if (k_ok && (set || (o.file && m.recorded <= USER_KEPT))) {
					size_t rl = o.len - (o.buf[o.len - 1] == '\n');
					bool ok = e && e->origin == TAINT_ORIGIN_USER &&
						  e->flags_mask == want && e->new_mask == set &&
						  e->pid == (uint32_t)me && e->uid == 0 &&
						  e->comm_len == strlen(comm) &&
						  !memcmp(e->comm, comm, e->comm_len) &&
						  e->has_reason == o.file &&
						  (!o.file || (e->reason_len == rl &&
							       !memcmp(e->reason, o.buf, rl)));

					line_checks++;
					if (!ok) {
						char w[96];

						snprintf(w, sizeof(w), "last line: flags %#lx new %#lx, pid %d comm \"%s\"",
							 want, set, me, comm);
						FAIL(&line_bad, "the write is not the log's last line", i, &o, r, w);
						if (e && line_bad.n <= 5)
							diag("  last line: %.*s", (int)l.line_len[l.n - 1],
							     l.line[l.n - 1]);
					}
				}
			}
			rlog_free(&l);
			free(text);
		}
		/* taint_reason reads back the latest accepted reason */
		if (o.file) {
			char b[TAINT_REASON_MAX + 2];
			ssize_t n;

			if (k_ok) {
				last_reason_len = o.len - (o.buf[o.len - 1] == '\n');
				memcpy(last_reason, o.buf, last_reason_len);
				last_reason[last_reason_len++] = '\n';
			}
			n = pread(fd_reason, b, sizeof(b), 0);
			reason_checks++;
			if (n != (ssize_t)last_reason_len || memcmp(b, last_reason, n))
				FAIL(&reason_bad, "taint_reason does not read back the latest accepted reason",
				     i, &o, r, "the latest accepted reason");
		}
	}
	waitpid(pid, &st, 0);
	t_run = now_s() - t0;
	/* 1 */
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "uid 1000 child dropped privileges and ran (status %#x)", st);

	for (i = 0; i < count; i++) {
		struct op o;

		gen_op(i, &o);
		if (o.who == U_OPEN) {
			uopen_n++;
			if (res[i] != -EACCES)
				FAIL(&uopen_bad, "uid 1000 open not EACCES", i, &o, res[i], "-EACCES");
		} else if (o.who == U_FD) {
			ufd_n++;
			if (res[i] != -EPERM)
				FAIL(&ufd_bad, "uid 1000 write via root fd not EPERM", i, &o, res[i], "-EPERM");
		}
	}
	t_all = now_s() - t0;

	diag("%ld ops in %.1f s (%.0f ops/s), checked in %.1f s; %ld bytes written, %ld ops > 64 KiB, %ld at non-zero offsets",
	     count, t_run, count / t_run, t_all - t_run, bytes, big, nonzero_off);
	diag("root: %ld ops; tainted %ld accepted / %ld refused; taint_reason %ld accepted / %ld refused",
	     root_n, accepted[0], rejected[0], accepted[1], rejected[1]);
	diag("uid 1000: %ld open attempts, %ld writes through root's fds", uopen_n, ufd_n);
	for (i = 0; i < NQ; i++)
		diag("quirk %-46s excused %6ld writes: %s", quirks[i].name, excused[i], quirks[i].what);

	/* 2, 3 */
	tap_ok(!uopen_bad.n && uopen_n, "uid 1000: every open for writing fails with EACCES (%ld)", uopen_n);
	tap_ok(!ufd_bad.n && ufd_n, "uid 1000: every write through a root-opened fd fails with EPERM (%ld)", ufd_n);
	/* 4-7 */
	tap_ok(!acc_bad[0].n, "tainted: every write the ABI accepts is accepted, or refused as one named quirk says (%ld not)",
	       acc_bad[0].n);
	tap_ok(!rej_bad[0].n, "tainted: every write the ABI refuses is refused, or accepted as one named quirk says (%ld not)",
	       rej_bad[0].n);
	tap_ok(!acc_bad[1].n, "taint_reason: every write the ABI accepts is accepted (%ld not)", acc_bad[1].n);
	tap_ok(!rej_bad[1].n, "taint_reason: every write the ABI refuses is refused (%ld not)", rej_bad[1].n);
	/* 8 */
	tap_ok(!refusal_bad.n, "root: every refusal is EINVAL, no write partially accepted (%ld not)",
	       refusal_bad.n);
	/* 9 */
	tap_ok(!bits_bad.n, "each accepted write set exactly its bits that were not set, a refused one nothing (mask before/after; %ld not)",
	       bits_bad.n);
	/* 10 */
	tap_ok(!line_bad.n && line_checks, "each write that set a bit first, and each of the first %d recorded, is the log's last line: flags= its bits, new= the bits it set, pid= tgid, comm, uid, reason (%ld of %ld not)",
	       USER_KEPT, line_bad.n, line_checks);
	/* 11 */
	tap_ok(!count_bad.n && count_checks, "log counts follow the v2 rules at every check (first %d kept, then first sets only; a write that sets nothing is neither a line nor dropped) (%ld of %ld not)",
	       USER_KEPT, count_bad.n, count_checks);
	/* 12 */
	tap_ok(!reason_bad.n && reason_checks, "taint_reason reads back the latest accepted reason after every root write to it (%ld of %ld not)",
	       reason_bad.n, reason_checks);

	/* 13-16: the log after the run */
	mask = read_mask();
	if (!tap_ok(rlog_read(&l1, 65536, NULL, NULL), "taint_log is a v2 log after the run"))
		diag("%s", l1.err);
	{
		unsigned long allowed = mask0 | asked | rlog_kernel_flags(&l1);

		diag("mask before %#lx after %#lx; accepted writes asked %#lx, kernel set %#lx",
		     mask0, mask, asked, rlog_kernel_flags(&l1));
		tap_ok(!(mask & ~allowed) && (mask & asked) == asked,
		       "mask = bits of accepted writes + the kernel's + before (extra %#lx, missing %#lx)",
		       mask & ~allowed, asked & ~mask);
	}
	if (!tap_ok(rlog_first_events(&l1, mask, why, sizeof(why)),
		    "exactly one first event per set flag"))
		diag("%s", why);
	tap_ok(l1.user_lines + l1.dropped == m.recorded,
	       "user lines + dropped = the requests the v2 rules record (%d + %ld, want %ld)",
	       l1.user_lines, l1.dropped, m.recorded);
	diag("taint_log: %d kernel lines, %d user lines, dropped=%ld", l1.kernel_lines,
	     l1.user_lines, l1.dropped);
	diag("reproduce: taint_fuzz %llu %ld (on a fresh boot)", (unsigned long long)seed, count);
	return tap_exit();
}
