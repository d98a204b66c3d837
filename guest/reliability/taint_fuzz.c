// SPDX-License-Identifier: GPL-2.0
/*
 * taint_fuzz - seeded, bounded, reproducible fuzzer of the taint ABI
 * writes (/proc/sys/kernel/tainted and /proc/sys/kernel/taint_reason).
 *
 * usage: taint_fuzz SEED [COUNT]      (COUNT defaults to 100000)
 *
 * Operation i is a pure function of (SEED, i): file, who (root, or uid
 * 1000 opening the file, or uid 1000 writing through an fd root opened),
 * length (0..1 MiB, skewed to small), offset (0 mostly) and bytes (random,
 * or built from a grammar of almost-valid inputs). Root operations run
 * in this process; uid 1000 ones in a child that dropped privileges, at
 * the same time. Every result is then compared with two predictions:
 *
 *  - the specification (DESIGN 1.1/1.2 and the issue): tainted takes one
 *    strtoul(base 0) number, C-locale whitespace around it, bits 0..18
 *    only, offset 0; taint_reason takes 1..128 printable ASCII bytes plus
 *    one optional trailing newline, offset 0. Anything else is refused.
 *  - a model of what the kernel code does (proc_doulongvec_minmax and
 *    friends, kernel/sysctl.c; taint_reason_check()), used to explain
 *    every difference from the specification, and to catch behaviour
 *    that neither predicts.
 *
 * TAP on stdout; the seed first, as "# seed=<n>".
 */
#include "tl.h"

#include <grp.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define POOL	(1 << 20)
#define KPAGE	4096		/* PAGE_SIZE of the guest */
#define TMPBUF	22		/* TMPBUFLEN of kernel/sysctl.c */

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
			v |= 1UL << rnd(s, TL_FLAGS);
		if (rnd(s, 5) == 0)
			v = 0;
	} else if (r < 88) {
		v = 1UL << (TL_FLAGS + rnd(s, 64 - TL_FLAGS));
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

		n += sprintf((char *)p + n, "%0*lu", z, v & TL_MAXBIT_MASK);
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

/* ---- the specification -------------------------------------------------- */

static bool c_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Valid per spec? Sets *bits for tainted. */
static bool spec_valid(const struct op *o, unsigned long *bits)
{
	const unsigned char *b = o->buf, *e = o->buf + o->len;
	unsigned long long v = 0;
	int base = 10, nd = 0;

	*bits = 0;
	if (o->off)
		return false;
	if (o->file) {
		size_t n = o->len, i;

		if (n && b[n - 1] == '\n')
			n--;
		if (!n || n > TL_REASON_MAX)
			return false;
		for (i = 0; i < n; i++)
			if (b[i] < 0x20 || b[i] > 0x7e)
				return false;
		*bits = 1UL << 6;
		return true;
	}
	while (b < e && c_space(*b))
		b++;
	while (e > b && c_space(e[-1]))
		e--;
	if (b == e || !isdigit(*b))
		return false;
	if (*b == '0') {
		if (e - b > 2 && (b[1] | 0x20) == 'x') {
			base = 16;
			b += 2;
		} else {
			base = 8;
		}
	}
	for (; b < e; b++, nd++) {
		int d = isdigit(*b) ? *b - '0' : isxdigit(*b) ? (*b | 0x20) - 'a' + 10 : 99;

		if (d >= base)
			return false;
		if (v > (~0ULL - d) / base)
			return false;
		v = v * base + d;
	}
	if (!nd || (v & ~TL_MAXBIT_MASK))
		return false;
	*bits = v;
	return true;
}

/* ---- the kernel's code, modelled ---------------------------------------- */

enum quirk {
	Q_NONE = 0,
	Q_NBSP = 1,		/* 0xa0 counts as whitespace (kernel ctype) */
	Q_LONG = 2,		/* number text of 21+ chars refused (TMPBUFLEN) */
	Q_TAIL = 4,		/* text after the number: refused whole */
	Q_CAP = 8,		/* a write of a page or more is refused whole */
	Q_SEP = 16,		/* \v \f \r 0xa0 right after the number refused */
};

static bool k_space(unsigned char c)
{
	return c_space(c) || c == 0xa0;
}

/* What the kernel returns (>= 0 bytes, or -errno) for a root write. */
static long k_model(const struct op *o, unsigned long *bits, unsigned *q)
{
	size_t left, len = o->len, consumed;
	const unsigned char *p = o->buf;
	unsigned char tmp[TMPBUF], *t, *end;
	unsigned long long v = 0;
	bool neg = false, ovf = false;
	unsigned base;
	size_t i, l;

	*bits = 0;
	*q = 0;
	if (o->file) {
		size_t n = len;

		if (o->off)
			return -EINVAL;
		if (n && p[n - 1] == '\n')
			n--;
		if (!n || n > TL_REASON_MAX)
			return -EINVAL;
		for (i = 0; i < n; i++)
			if (p[i] < 0x20 || p[i] > 0x7e)
				return -EINVAL;
		*bits = 1UL << 6;
		return len;
	}
	if (!len || o->off)		/* nothing parsed: tmptaint = ULONG_MAX */
		return -EINVAL;
	if (len >= KPAGE) {		/* no number needs a page: refused whole */
		*q |= Q_CAP;
		return -EINVAL;
	}
	left = len > KPAGE - 1 ? KPAGE - 1 : len;
	while (left && k_space(*p)) {
		if (*p == 0xa0)
			*q |= Q_NBSP;
		p++, left--;
	}
	if (!left)
		return -EINVAL;
	l = left > TMPBUF - 1 ? TMPBUF - 1 : left;
	memcpy(tmp, p, l);
	tmp[l] = 0;
	t = tmp;
	if (*t == '-' && left > 1) {
		neg = true;
		t++;
	}
	if (!isdigit(*t))
		return -EINVAL;
	base = 10;
	if (t[0] == '0') {
		if ((t[1] | 0x20) == 'x' && isxdigit(t[2])) {
			base = 16;
			t += 2;
		} else {
			base = 8;
		}
	}
	for (end = t; *end; end++) {
		unsigned d;

		if (isdigit(*end))
			d = *end - '0';
		else if ((*end | 0x20) >= 'a' && (*end | 0x20) <= 'f')
			d = (*end | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			ovf = true;
		v = v * base + d;
	}
	if (ovf)
		return -EINVAL;
	consumed = end - tmp;
	if (consumed == TMPBUF - 1) {
		*q |= Q_LONG;
		return -EINVAL;
	}
	if (consumed < left && *end != ' ' && *end != '\t' && *end != '\n') {
		if (k_space(*end))
			*q |= Q_SEP;
		return -EINVAL;
	}
	if (neg)
		return -EINVAL;
	if (v & ~TL_MAXBIT_MASK)
		return -EINVAL;
	p += consumed;
	left -= consumed;
	while (left && k_space(*p)) {
		if (*p == 0xa0)
			*q |= Q_NBSP;
		p++, left--;
	}
	if (left) {			/* text after the number: refused whole */
		*q |= Q_TAIL;
		return -EINVAL;
	}
	*bits = v;
	if (len > KPAGE - 1 && !left) {
		const unsigned char *x;

		for (x = o->buf + KPAGE - 1; x < o->buf + len; x++)
			if (!c_space(*x)) {
				*q |= Q_CAP;
				break;
			}
	}
	return len - left;
}

static const char *quirk_str(unsigned q)
{
	static char b[192];

	b[0] = 0;
	if (q & Q_NBSP)
		strcat(b, " nbsp-as-space");
	if (q & Q_LONG)
		strcat(b, " 21+char-number");
	if (q & Q_TAIL)
		strcat(b, " text-after-number(short-write)");
	if (q & Q_CAP)
		strcat(b, " page-or-longer-write-refused");
	if (q & Q_SEP)
		strcat(b, " only-space/tab/newline-may-follow-the-number");
	return b[0] ? b + 1 : "none";
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
		   long want)
{
	char hex[200];

	hexdump_str(hex, sizeof(hex), o->buf, o->len, 64);
	diag("%s: op %ld %s len=%zu off=%lld got=%ld want=%ld bytes=%s",
	     what, i, o->file ? "taint_reason" : "tainted", o->len,
	     (long long)o->off, got, want, hex);
}

int main(int argc, char **argv)
{
	long count = 100000, i, *res;
	int fds[2], st;
	pid_t pid;
	double t0, t_run, t_all;
	unsigned long mask0, mask, asked = 0, asked_any = 0;
	long root_n = 0, uopen_n = 0, ufd_n = 0, uopen_bad = 0, ufd_bad = 0;
	long model_bad = 0, acc_bad[2] = { 0 }, rej_bad[2] = { 0 }, partial = 0;
	long quirky = 0;	/* differ from the spec, as a parser quirk explains */
	long errno_bad = 0, recorded = 0, accepted[2] = { 0 }, rejected[2] = { 0 };
	long bytes = 0, big = 0, nonzero_off = 0;
	unsigned qseen = 0;
	struct tl_log l0, l1;
	char why[256];
	uint64_t ps;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: taint_fuzz SEED [COUNT]\n");
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	if (argc == 3)
		count = atol(argv[2]);
	printf("TAP version 13\n# seed=%llu\n1..14\n", (unsigned long long)seed);
	diag("taint_fuzz %llu %ld", (unsigned long long)seed, count);

	pool = malloc(POOL);
	scratch = malloc(POOL + 64);
	res = mmap(NULL, count * sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!pool || !scratch || res == MAP_FAILED)
		return 1;
	ps = seed ^ 0x5eed;
	for (i = 0; i < POOL / 8; i++)
		((uint64_t *)pool)[i] = splitmix(&ps);

	mask0 = read_mask();
	if (!tl_read(&l0, 65536, NULL, NULL))
		diag("log before the run not well-formed: %s", l0.err);
	fds[0] = open(P_TAINTED, O_WRONLY | O_CLOEXEC);
	fds[1] = open(P_REASON, O_WRONLY | O_CLOEXEC);
	if (fds[0] < 0 || fds[1] < 0) {
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

		gen_op(i, &o);
		if (o.who == ROOT)
			res[i] = do_op(&o, fds);
	}
	waitpid(pid, &st, 0);
	t_run = now_s() - t0;
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "uid 1000 child dropped privileges and ran (status %#x)", st);

	for (i = 0; i < count; i++) {
		struct op o;
		unsigned long bits, kbits;
		unsigned q;
		long want;
		bool valid;

		gen_op(i, &o);
		bytes += o.len;
		big += o.len > 65536;
		nonzero_off += o.off != 0;
		if (o.who == U_OPEN) {
			uopen_n++;
			if (res[i] != -EACCES && !uopen_bad++)
				report("uid 1000 open not EACCES", i, &o, res[i], -EACCES);
			continue;
		}
		if (o.who == U_FD) {
			ufd_n++;
			if (res[i] != -EPERM && !ufd_bad++)
				report("uid 1000 write via root fd not EPERM", i, &o, res[i], -EPERM);
			continue;
		}
		root_n++;
		valid = spec_valid(&o, &bits);
		want = k_model(&o, &kbits, &q);
		if (res[i] > 0)
			recorded++;
		if (res[i] != want && model_bad++ < 5)
			report("kernel differs from its modelled code", i, &o, res[i], want);
		if (res[i] == (long)o.len && o.len) {
			accepted[o.file]++;
			asked |= kbits;
			/* A documented quirk of the parser explains it? */
			if (!valid && q && res[i] == want)
				quirky++;
			else if (!valid && acc_bad[o.file]++ < 5)
				report("accepted but invalid by spec", i, &o, res[i], -EINVAL),
				diag("  kernel quirk: %s", quirk_str(q));
		} else {
			rejected[o.file]++;
			if (valid && q && res[i] == want)
				quirky++;
			else if (valid && rej_bad[o.file]++ < 5)
				report("refused but valid by spec", i, &o, res[i], o.len),
				diag("  kernel quirk: %s", quirk_str(q));
			if (res[i] > 0 && partial++ < 5)
				report("partially accepted (short write, taint set and recorded)",
				       i, &o, res[i], -EINVAL);
			if (res[i] < 0 && res[i] != -EINVAL && errno_bad++ < 5)
				report("refused with an errno other than EINVAL", i, &o, res[i], -EINVAL);
		}
		if (res[i] > 0)
			asked_any |= kbits;
		if (res[i] == want && (valid != (res[i] == (long)o.len && o.len)))
			qseen |= q;
	}
	t_all = now_s() - t0;

	diag("%ld ops in %.1f s (%.0f ops/s), checked in %.1f s; %ld bytes written, %ld ops > 64 KiB, %ld at non-zero offsets",
	     count, t_run, count / t_run, t_all - t_run, bytes, big, nonzero_off);
	diag("root: %ld ops; tainted %ld accepted / %ld refused; taint_reason %ld accepted / %ld refused; %ld partial",
	     root_n, accepted[0], rejected[0], accepted[1], rejected[1], partial);
	diag("uid 1000: %ld open attempts, %ld writes through root's fds", uopen_n, ufd_n);

	tap_ok(!uopen_bad && uopen_n, "uid 1000: every open for writing fails with EACCES (%ld)", uopen_n);
	tap_ok(!ufd_bad && ufd_n, "uid 1000: every write through a root-opened fd fails with EPERM (%ld)", ufd_n);
	tap_ok(!model_bad, "root: every result matches the kernel code's model (%ld differ)", model_bad);
	diag("tainted: %ld writes differ from the spec as documented parser quirks explain (%s)",
	     quirky, qseen ? quirk_str(qseen) : "none");
	tap_ok(!acc_bad[0], "tainted: every accepted write was valid by spec or a documented quirk (%ld not)",
	       acc_bad[0]);
	tap_ok(!rej_bad[0], "tainted: every valid write was accepted or a documented quirk (%ld not)",
	       rej_bad[0]);
	tap_ok(!partial, "tainted: no write partially accepted (%ld short writes that set and recorded taint)",
	       partial);
	tap_ok(!acc_bad[1], "taint_reason: every accepted write was valid by spec (%ld not)", acc_bad[1]);
	tap_ok(!rej_bad[1], "taint_reason: every valid write was accepted (%ld not)", rej_bad[1]);
	tap_ok(!errno_bad, "root: every refusal is EINVAL (%ld not)", errno_bad);

	mask = read_mask();
	if (!tap_ok(tl_read(&l1, 65536, NULL, NULL), "taint_log well-formed after the run"))
		diag("%s", l1.err);
	{
		unsigned long allowed = mask0 | asked | tl_kernel_flags(&l1);

		diag("mask before %#lx after %#lx; fully accepted writes asked %#lx, partial ones %#lx, kernel set %#lx",
		     mask0, mask, asked, asked_any & ~asked, tl_kernel_flags(&l1));
		tap_ok(!(mask & ~allowed) && (mask & asked) == asked,
		       "mask = bits of accepted writes + the kernel's + before (extra %#lx, missing %#lx)",
		       mask & ~allowed, asked & ~mask);
	}
	if (!tap_ok(tl_check_first_events(&l1, mask, why, sizeof(why)),
		    "exactly one first event per set flag"))
		diag("%s", why);
	{
		long got = l1.user_lines + l1.dropped - l0.user_lines - l0.dropped;

		tap_ok(got == recorded,
		       "user lines + dropped grew by the writes that returned > 0 (%ld, want %ld)",
		       got, recorded);
	}
	diag("taint_log: %d kernel lines, %d user lines, dropped=%ld", l1.kernel_lines,
	     l1.user_lines, l1.dropped);
	diag("reproduce: taint_fuzz %llu %ld (on a fresh boot)", (unsigned long long)seed, count);
	return tap_exit();
}
