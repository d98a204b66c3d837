// SPDX-License-Identifier: GPL-2.0
/*
 * taint_stress - concurrent writers and readers of the taint ABI.
 *
 * N writer threads of one process (default 4, each pinned to a CPU) make R
 * requests each (default 10000), alternating between
 * /proc/sys/kernel/taint_reason ("w<T> r<I>", unique) and
 * /proc/sys/kernel/tainted (values in decimal, hex and octal, fixed by
 * tainted_value()). Meanwhile readers read /proc/sys/kernel/taint_log as cat
 * does, read() after read() until end of file, 1, 7, 4096 and 65536 bytes at
 * a time, one takes single 64 KiB pread()s at offset 0, one reads the
 * dropped= line byte by byte, and one reads taint_reason. Every text a reader
 * gets must be whole lines that parse, each line once, at most one dropped=
 * line and that one last (the ABI's "Reads while the log changes"). Then the
 * log is checked against what was done: pid= is the tgid, a
 * tainted write that sets no new bit records nothing, the first 16 user
 * requests are kept, taint_reason reads back the latest accepted reason.
 * TAP on stdout.
 *
 * Run it on a fresh boot: the accounting counts every request of the boot
 * (it uses the log's own numbers before the run as a baseline).
 *
 * usage: taint_stress [-w WRITERS] [-n REQUESTS_PER_WRITER]
 *        taint_stress --selftest    (host: the attribution check on fixed logs)
 */
#include "rel.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* read()s of 1, 7, 4096, 65536 bytes; a 64 KiB pread(); dropped=; reason */
#define NREADERS 7
#define R_CHUNKS 4
#define R_SINGLE 4
#define R_TAIL 5
#define R_REASON 6
static const size_t chunks[R_CHUNKS] = { 1, 7, 4096, 65536 };
#define MAXW 64

struct writer {
	pthread_t th;
	int id, cpu, pinned;
	pid_t tid;
	long n;
	long accepted, failed, first_errno, reasons;
	long stale;		/* read-backs that named an older reason of ours */
	char first_stale[160];
	unsigned long bits;	/* bits asked for on tainted */
	unsigned long found_set;	/* ... already set when first asked */
	double secs;
};

struct reader {
	pthread_t th;
	int id;
	size_t chunk;
	long snaps, torn, snaps_busy, torn_busy, miscount;
	char first_miscount[200];
	double secs;
	char first_err[600];
	char *first_text;	/* the first torn snapshot */
	size_t first_len;
};

static atomic_int writers_done;
static atomic_long done_reasons;	/* reason writes that returned success */
static long base_reasons;	/* reason lines + dropped before the run */
static int nwriters;
static atomic_int go;
static int ncpu;

/* ---- the requests ------------------------------------------------------- */

/* The value writer @wid writes to tainted as its request @i (odd @i). */
static unsigned long tainted_value(int wid, long i)
{
	switch (i % 8) {
	case 1:
		return 0;		/* sets nothing: records nothing */
	case 3:
		return 64;		/* U, set by the reason at i = 0 */
	default:
		return 1UL << ((wid * 7 + i) % KFLAGS);
	}
}

/* The first request (< @n) in which writer @wid asks tainted for @bit, or -1. */
static long first_request(int wid, int bit, long n)
{
	for (long i = 1; i < n; i += 2)
		if (tainted_value(wid, i) == 1UL << bit)
			return i;
	return -1;
}

/* "w<T> r<I>" of a reason this test wrote; false if it is not one. */
static bool our_reason(const char *s, size_t len, int nw, long n, int *wid, long *ri)
{
	char tail, z[48];

	/* s is not NUL-terminated at len: a read gives "w<k> r<i>\n". */
	if (len > 40 || memchr(s, '\0', len))
		return false;
	memcpy(z, s, len);
	z[len] = '\0';
	if (sscanf(z, "w%d r%ld%c", wid, ri, &tail) != 2)
		return false;
	return *wid >= 0 && *wid < nw && *ri >= 0 && *ri < n && *ri % 2 == 0;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	char buf[64], back[160], name[16], m[32];
	int fdt, fdr, fdb, fdm;
	long i;
	double t0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->pinned = !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	snprintf(name, sizeof(name), "tw%d", w->id);
	prctl(PR_SET_NAME, name);
	w->tid = syscall(SYS_gettid);
	fdt = open(P_TAINTED, O_WRONLY | O_CLOEXEC);
	fdr = open(P_REASON, O_WRONLY | O_CLOEXEC);
	fdb = open(P_REASON, O_RDONLY | O_CLOEXEC);
	fdm = open(P_TAINTED, O_RDONLY | O_CLOEXEC);
	if (fdt < 0 || fdr < 0 || fdb < 0 || fdm < 0) {
		w->failed = w->n;
		w->first_errno = errno;
		return NULL;
	}
	while (!atomic_load(&go))
		;
	t0 = now_s();
	for (i = 0; i < w->n; i++) {
		int fd, len;

		if (i % 2 == 0) {
			fd = fdr;
			len = snprintf(buf, sizeof(buf), "w%d r%ld", w->id, i);
			if (i % 4 == 0)
				buf[len++] = '\n';	/* stripped by the kernel */
		} else {
			unsigned long v = tainted_value(w->id, i);

			fd = fdt;
			/*
			 * The first request for a bit is the only one of
			 * this writer that can record it: if the bit is set
			 * already, no line may name this writer for it.
			 */
			if (v & ~w->bits) {
				ssize_t r = pread(fdm, m, sizeof(m) - 1, 0);

				m[r > 0 ? r : 0] = '\0';
				if (strtoul(m, NULL, 10) & v)
					w->found_set |= v;
			}
			w->bits |= v;
			switch ((i / 8) % 3) {
			case 0:
				len = snprintf(buf, sizeof(buf), "%lu", v);
				break;
			case 1:
				len = snprintf(buf, sizeof(buf), "0x%lx\n", v);
				break;
			default:
				len = snprintf(buf, sizeof(buf), " %#lo ", v);
				break;
			}
		}
		if (pwrite(fd, buf, len, 0) != len) {
			if (!w->failed++)
				w->first_errno = errno;
			continue;
		}
		w->accepted++;
		if (fd != fdr)
			continue;
		w->reasons++;
		atomic_fetch_add(&done_reasons, 1);
		/*
		 * Read back: the latest accepted reason. Other writers may
		 * have written since, but never may an older reason of ours
		 * come back after this one was accepted.
		 */
		{
			ssize_t r = pread(fdb, back, sizeof(back) - 1, 0);
			int wid;
			long ri;

			if (r > 0 && back[r - 1] == '\n' &&
			    our_reason(back, r - 1, nwriters, w->n, &wid, &ri) &&
			    (wid != w->id || ri == i))
				continue;
			if (!w->stale++)
				snprintf(w->first_stale, sizeof(w->first_stale),
					 "after \"w%d r%ld\" was accepted, taint_reason read \"%.*s\"",
					 w->id, i, r > 0 ? (int)r - 1 : 0, back);
		}
	}
	w->secs = now_s() - t0;
	close(fdt);
	close(fdr);
	close(fdb);
	close(fdm);
	return NULL;
}

/* ---- readers ------------------------------------------------------------ */

/*
 * Whether a line of @t (@len bytes, whole lines) comes twice: every line
 * of this run is unique (reasons are, kernel lines are one per flag), so
 * a repeat is an event read twice. Says which in @err.
 */
static bool dup_line(const char *t, size_t len, char *err, size_t size)
{
	const char *a, *b, *ae, *be, *end = t + len;

	for (a = t; a < end; a = ae + 1) {
		ae = memchr(a, '\n', end - a);
		if (!ae)
			return false;
		for (b = ae + 1; b < end; b = be + 1) {
			be = memchr(b, '\n', end - b);
			if (!be)
				break;
			if (be - b == ae - a && !memcmp(a, b, ae - a)) {
				snprintf(err, size, "line read twice: %.*s",
					 (int)(ae - a > 300 ? 300 : ae - a), a);
				return true;
			}
		}
	}
	return false;
}

/* The dropped= line, 1 byte at a time, against single reads around it. */
static void read_tail(struct reader *r, char *big, int busy)
{
	long lo, hi, v = -1;
	size_t len = 0;
	char *d, *t;
	int fd = open(P_LOG, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	n = pread(fd, big, 65536, 0);
	big[n > 0 ? n : 0] = '\0';
	d = strstr(big, "dropped=");
	if (!d || lseek(fd, d - big, SEEK_SET) < 0) {
		close(fd);
		return;
	}
	lo = atol(d + 8);
	t = read_all_fd(fd, 1, &len, NULL);
	n = pread(fd, big, 65536, 0);
	big[n > 0 ? n : 0] = '\0';
	d = strstr(big, "dropped=");
	hi = d ? atol(d + 8) : -1;
	close(fd);
	/* lines inserted before it: a later version's text, not counted */
	if (!t || strncmp(t, "dropped=", 8)) {
		free(t);
		return;
	}
	r->snaps++;
	r->snaps_busy += busy;
	if (len > 9 && t[len - 1] == '\n' && strspn(t + 8, "0123456789") == len - 9)
		v = atol(t + 8);
	if (v < lo || v > hi) {
		r->torn_busy += busy;
		if (!r->torn++)
			snprintf(r->first_err, sizeof(r->first_err),
				 "1-byte reads of the dropped= line gave \"%.*s\" (%ld), a 64 KiB read before it said %ld, after it %ld",
				 (int)(len && t[len - 1] == '\n' ? len - 1 : len), t, v, lo, hi);
	}
	free(t);
}

/*
 * taint_reason, read again and again: for each writer, the request numbers
 * of its reasons seen must never go down (the latest accepted is read).
 */
static void read_reason(struct reader *r, long *last, int busy)
{
	char b[160];
	int fd = open(P_REASON, O_RDONLY | O_CLOEXEC), wid;
	ssize_t n;
	long ri;

	if (fd < 0)
		return;
	n = pread(fd, b, sizeof(b) - 1, 0);
	close(fd);
	if (n <= 0)
		return;		/* before the first reason */
	r->snaps++;
	r->snaps_busy += busy;
	if (b[n - 1] != '\n' || !our_reason(b, n - 1, nwriters, LONG_MAX, &wid, &ri)) {
		if (!r->torn++)
			snprintf(r->first_err, sizeof(r->first_err),
				 "taint_reason read \"%.*s\": not a reason of this run", (int)n, b);
		return;
	}
	if (ri < last[wid] && !r->torn++)
		snprintf(r->first_err, sizeof(r->first_err),
			 "taint_reason read \"w%d r%ld\" after \"w%d r%ld\"", wid, ri, wid, last[wid]);
	if (ri > last[wid])
		last[wid] = ri;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char *big = malloc(65536 + 1);
	long last[MAXW];
	int final = 0;

	for (int i = 0; i < MAXW; i++)
		last[i] = -1;
	while (!atomic_load(&go))
		;
	/*
	 * Until the writers are done, and once more after: a reader that a
	 * busy host kept off its CPU during the whole run still reads.
	 */
	do {
		int busy = !atomic_load(&writers_done);
		long before = atomic_load(&done_reasons), after, got;
		double t0 = now_s();
		struct rlog l;
		size_t len = 0;
		char *t = NULL;
		int fd;
		ssize_t n;

		if (r->id == R_TAIL) {
			read_tail(r, big, busy);
			continue;
		}
		if (r->id == R_REASON) {
			read_reason(r, last, busy);
			continue;
		}
		fd = open(P_LOG, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		if (r->id < R_CHUNKS) {
			t = read_all_fd(fd, r->chunk, &len, NULL);
		} else {
			n = pread(fd, big, 65536, 0);
			if (n >= 0) {
				len = n;
				big[len] = '\0';
				t = big;
			}
		}
		close(fd);
		after = atomic_load(&done_reasons);
		r->secs += now_s() - t0;
		if (!t)
			break;
		r->snaps++;
		r->snaps_busy += busy;
		if (!rlog_parse(t, len, &l) ||
		    dup_line(t, len, l.err, sizeof(l.err))) {
			r->torn++;
			r->torn_busy += busy;
			if (r->torn == 1) {
				snprintf(r->first_err, sizeof(r->first_err), "%s", l.err);
				r->first_text = malloc(len + 1);
				memcpy(r->first_text, t, len + 1);
				r->first_len = len;
			}
		} else {
			/*
			 * Every accepted reason is a reason line or counted
			 * in dropped=; nothing else is counted there (a
			 * tainted write is kept, as it set a flag first, or
			 * not recorded). So the snapshot's count lies between
			 * the reasons done before it and after it (+ in flight).
			 */
			got = l.reason_lines + l.dropped - base_reasons;
			if ((got < before || got > after + nwriters) && !r->miscount++)
				snprintf(r->first_miscount, sizeof(r->first_miscount),
					 "reason lines %d + dropped %ld - base %ld = %ld, reasons done before %ld, after %ld",
					 l.reason_lines, l.dropped, base_reasons, got, before, after);
		}
		rlog_free(&l);
		if (t != big)
			free(t);
	} while (!atomic_load(&writers_done) || !final++);
	free(big);
	return NULL;
}

/* ---- the checks of the final log ---------------------------------------- */

/*
 * Each user line after the first @skip is one request of a writer of this
 * process: pid= the tgid @tgid, uid 0, comm "tw<k>", and either a reason
 * "w<k> r<i>" with flags=U, or a tainted request that set its one bit
 * first: flags = new = that bit, which can only be writer k's first request
 * asking for it (a later one finds the bit set and records nothing), and
 * only if writer k did not find the bit set just before that request
 * (@found_set[k], NULL for none). The requests of each writer appear in the
 * order it made them.
 * Returns the number of bad lines; the first is described in @why.
 */
static int check_attribution(const struct rlog *l, int skip, pid_t tgid, int nw,
			     long per, const unsigned long *found_set,
			     int *bad_pid, char *why, size_t wsz)
{
	long last[MAXW];
	int i, u = 0, bad = 0;

	*bad_pid = 0;
	*why = '\0';
	for (i = 0; i < nw; i++)
		last[i] = -1;
	for (i = 0; i < l->n; i++) {
		const struct taint_event *e = &l->ev[i];
		const char *what = NULL;
		int k = -1, wid;
		long ri = -1;
		char *endp = (char *)"";

		if (e->origin != TAINT_ORIGIN_USER || u++ < skip)
			continue;
		if (e->pid != (uint32_t)tgid && !(*bad_pid)++ && !*why)
			snprintf(why, wsz, "line %d: pid=%u, the writers' process is %d (pid= must be the tgid)",
				 i + 1, e->pid, tgid);
		if (e->comm_len >= 3 && !strncmp(e->comm, "tw", 2))
			k = strtol(e->comm + 2, &endp, 10);
		if (k < 0 || k >= nw || *endp || e->uid != 0) {
			what = "not one of the writer threads (comm tw<k>, uid 0)";
		} else if (e->has_reason) {
			if (!our_reason(e->reason, e->reason_len, nw, per, &wid, &ri) || wid != k)
				what = "reason not written by the thread named in comm";
			else if (e->flags_mask != U_BIT)
				what = "reason line with flags other than U";
		} else if (!e->flags_mask || (e->flags_mask & (e->flags_mask - 1)) ||
			   e->new_mask != e->flags_mask) {
			what = "tainted line that is not one request's bit, set first";
		} else {
			ri = first_request(k, __builtin_ctzl(e->flags_mask), per);
			if (ri < 0)
				what = "flag this writer never asked for";
			else if (found_set && (found_set[k] & e->flags_mask))
				what = "flag this writer found set before it asked for it";
		}
		if (!what && ri <= last[k])
			what = "out of the writer's request order";
		if (!what) {
			last[k] = ri;
			continue;
		}
		if (!bad++ && !*why)
			snprintf(why, wsz, "line %d: %s: %.*s", i + 1, what,
				 (int)(l->line_len[i] > 300 ? 300 : l->line_len[i]),
				 l->line[i] ? l->line[i] : "");
	}
	return bad;
}

/*
 * v2 keeps the first 16 recorded user requests and later only those that
 * set a flag first: every user line past the 16th sets a flag first, and
 * nothing is dropped before 16 lines are kept.
 */
static bool check_kept(const struct rlog *l, char *why, size_t wsz)
{
	int i, u = 0;

	for (i = 0; i < l->n; i++) {
		if (l->ev[i].origin != TAINT_ORIGIN_USER || ++u <= USER_KEPT)
			continue;
		if (!l->ev[i].new_mask) {
			snprintf(why, wsz, "user line %d (line %d) kept although it set no flag first", u, i + 1);
			return false;
		}
	}
	if (l->dropped && u < USER_KEPT) {
		snprintf(why, wsz, "dropped=%ld with only %d user lines kept", l->dropped, u);
		return false;
	}
	return true;
}

/* ---- self-test on the host: the attribution check can fail -------------- */

#define L(ts, fl, nw, pid, comm, rest) \
	"ts=" ts " utc=- origin=user flags=" fl " new=" nw " pid=" pid " uid=0 auid=- comm=\"" comm "\"" rest "\n"

/*
 * Writers 0 and 1, 40 requests each: w0 first asks bit b0 in its request
 * 5, w1 bit b1 in its request 7. @good: three reason lines of theirs.
 */
FIXTURE(selftest) {
	char good[1024], f0[64], f1[64];
};

FIXTURE_SETUP(selftest)
{
	int b0 = __builtin_ctzl(tainted_value(0, 5));
	int b1 = __builtin_ctzl(tainted_value(1, 7));

	snprintf(self->f0, sizeof(self->f0), "flags=%c new=%c", letter(b0), letter(b0));
	snprintf(self->f1, sizeof(self->f1), "flags=%c new=%c", letter(b1), letter(b1));
	snprintf(self->good, sizeof(self->good), "%s%s%s",
		 L("1.000000", "U", "U", "50", "tw0", " reason=\"w0 r0\""),
		 L("1.000001", "U", "-", "50", "tw1", " reason=\"w1 r0\""),
		 L("1.000002", "U", "-", "50", "tw0", " reason=\"w0 r4\""));
}

FIXTURE_TEARDOWN(selftest) {}

/* The checks of the final log on @text (tgid 50) pass, or fail, as @want. */
static void verdict(struct __test_metadata *_metadata, bool want,
		    const char *text, const unsigned long *found_set)
{
	struct rlog l;
	char why[600];
	int bad = 0, bad_pid;
	bool ok;

	ok = rlog_parse(text, strlen(text), &l);
	if (ok) {
		bad = check_attribution(&l, 0, 50, 2, 40, found_set, &bad_pid,
					why, sizeof(why));
		ok = !bad && !bad_pid && check_kept(&l, why, sizeof(why));
	} else {
		snprintf(why, sizeof(why), "%s", l.err);
	}
	if (!ok)
		diag("  %s", why);
	rlog_free(&l);
	EXPECT_EQ(want, ok) TH_LOG("the checks %s this log, they must %s it",
				   ok ? "pass" : "fail", want ? "pass" : "fail");
}

TEST_F(selftest, reasons_and_a_first_set_in_request_order)
{
	char s[2048];

	snprintf(s, sizeof(s), "%sts=1.000003 utc=- origin=user %s pid=50 uid=0 auid=- comm=\"tw0\"\n%s",
		 self->good, self->f0, L("1.000004", "U", "-", "50", "tw0", " reason=\"w0 r6\""));
	verdict(_metadata, true, s, NULL);
}

TEST_F(selftest, another_writers_first_set_of_its_bit)
{
	char s[2048];

	snprintf(s, sizeof(s), "%sts=1.000003 utc=- origin=user %s pid=50 uid=0 auid=- comm=\"tw1\"\n",
		 self->good, self->f1);
	verdict(_metadata, true, s, NULL);
}

TEST_F(selftest, fails_first_set_after_a_later_reason)
{
	char s[2048];

	snprintf(s, sizeof(s), "%s%sts=1.000004 utc=- origin=user %s pid=50 uid=0 auid=- comm=\"tw1\"\n",
		 self->good, L("1.000003", "U", "-", "50", "tw1", " reason=\"w1 r38\""), self->f1);
	verdict(_metadata, false, s, NULL);
}

TEST_F(selftest, fails_bit_the_writer_never_asked_for)
{
	char s[2048];

	snprintf(s, sizeof(s), "%sts=1.000003 utc=- origin=user %s pid=50 uid=0 auid=- comm=\"tw0\"\n",
		 self->good, self->f1);
	verdict(_metadata, false, s, NULL);
}

TEST_F(selftest, fails_first_set_by_a_writer_that_found_it_set)
{
	unsigned long fs[2] = { tainted_value(0, 5), 0 };
	char s[2048];

	snprintf(s, sizeof(s), "%sts=1.000003 utc=- origin=user %s pid=50 uid=0 auid=- comm=\"tw0\"\n",
		 self->good, self->f0);
	verdict(_metadata, false, s, fs);
}

/* w0's request 3 asks 64 (U), set by its reason 0 already */
TEST_F(selftest, fails_tainted_write_that_set_nothing_recorded)
{
	char s[2048];

	snprintf(s, sizeof(s), "%sts=1.000003 utc=- origin=user flags=U new=- pid=50 uid=0 auid=- comm=\"tw0\"\n",
		 L("1.000000", "U", "U", "50", "tw0", " reason=\"w0 r0\""));
	verdict(_metadata, false, s, NULL);
}

TEST_F(selftest, fails_pid_a_thread_id)
{
	verdict(_metadata, false,
		L("1.000000", "U", "U", "51", "tw0", " reason=\"w0 r0\""), NULL);
}

TEST_F(selftest, fails_reason_under_another_writers_comm)
{
	verdict(_metadata, false,
		L("1.000000", "U", "U", "50", "tw1", " reason=\"w0 r0\""), NULL);
}

/* libtaint takes it, v2 does not */
TEST_F(selftest, fails_fields_out_of_order)
{
	verdict(_metadata, false,
		"ts=1.000000 utc=- origin=user flags=U new=U uid=0 pid=50 auid=- comm=\"tw0\" reason=\"w0 r0\"\n",
		NULL);
}

/* rel.h's v2 line model: what a kernel prints, and near misses */
#define K0 "ts=0.500000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm=\"ins\\\"mod\\x01\" module=my\\x20mod\n"
#define K1 "ts=0.600000 utc=2026-12-03T08:00:00Z origin=kernel flags=W new=W pid=0 uid=0 auid=4294967294 comm=\"swapper/0\" module=lkdtm caller=lkdtm_WARNING.cold+0x1d/0x30\n"

TEST_F(selftest, kernel_lines_with_module_and_caller)
{
	char s[2048];

	snprintf(s, sizeof(s), "%s%s%s", K0, K1, self->good);
	verdict(_metadata, true, s, NULL);
}

TEST_F(selftest, fails_dropped_before_16_user_lines_kept)
{
	char s[2048];

	snprintf(s, sizeof(s), "%s%sdropped=3\n", K0, self->good);
	verdict(_metadata, false, s, NULL);
}

TEST_F(selftest, fails_uppercase_hex_escape)
{
	verdict(_metadata, false,
		"ts=0.500000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm=\"a\\x0A\"\n",
		NULL);
}

TEST_F(selftest, fails_escape_of_a_byte_that_needs_none)
{
	verdict(_metadata, false,
		"ts=0.500000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm=\"\\x41\"\n",
		NULL);
}

/* \x20 wanted */
TEST_F(selftest, fails_raw_space_in_module)
{
	verdict(_metadata, false,
		"ts=0.500000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm=\"a\" module=my mod\n",
		NULL);
}

TEST_F(selftest, fails_letters_out_of_bit_order)
{
	verdict(_metadata, false,
		L("1.000000", "WU", "U", "50", "tw0", " reason=\"w0 r0\""), NULL);
}

TEST_F(selftest, fails_v1_caller_with_module_suffix)
{
	verdict(_metadata, false,
		"ts=0.500000 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=- comm=\"a\" caller=f+0x1/0x2 [m]\n",
		NULL);
}

TEST_F(selftest, fails_raw_address_as_caller)
{
	verdict(_metadata, false,
		"ts=0.500000 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=- comm=\"a\" caller=0xffffffff81000000\n",
		NULL);
}

TEST_F(selftest, fails_v1_line_without_auid)
{
	verdict(_metadata, false,
		"ts=0.500000 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"a\"\n",
		NULL);
}

TEST_F(selftest, fails_dropped_0)
{
	verdict(_metadata, false, "dropped=0\n", NULL);
}

TEST_F(selftest, fails_no_final_newline)
{
	verdict(_metadata, false, "dropped=1", NULL);
}

/* ---- the run ------------------------------------------------------------ */

/* The run, done once in main(); the tests judge what it left. */
static struct {
	struct writer w[MAXW];
	struct reader r[NREADERS];
	int nw;
	pid_t tgid;		/* the writers' process */
	long per, accepted, failed, reasons, stale;
	unsigned long bits, mask0, mask;
	struct rlog l0, l1;
	bool l1_ok;
	char *t64, *t1;		/* the final log, one read; 1-byte reads */
	size_t len64, len1;
} run;

/* Print the torn snapshot's lines around the problem, as diagnostics. */
static void show_text(const char *t, size_t len, int maxlines)
{
	const char *p = t, *end = t + len;
	int n = 0;

	while (p < end && n < maxlines) {
		const char *nl = memchr(p, '\n', end - p);
		int l = nl ? (int)(nl - p) : (int)(end - p);

		diag("  | %.*s", l > 300 ? 300 : l, p);
		p += l + 1;
		n++;
	}
}

static const char *reader_kind(int i)
{
	if (i == R_REASON)
		return "taint_reason";
	if (i == R_TAIL)
		return "dropped= line";
	return i == R_SINGLE ? "pread() at 0" : "read() until EOF";
}

static void start_threads(void)
{
	struct reader *r = run.r;
	struct writer *w = run.w;
	int i;

	for (i = 0; i < NREADERS; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].id = i;
		r[i].chunk = i < R_CHUNKS ? chunks[i] : i == R_TAIL ? 1 : 65536;
		pthread_create(&r[i].th, NULL, reader_main, &r[i]);
	}
	for (i = 0; i < run.nw; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].id = i;
		w[i].cpu = i % ncpu;
		w[i].n = run.per;
		pthread_create(&w[i].th, NULL, writer_main, &w[i]);
	}
}

static void join_threads(void)
{
	struct writer *w = run.w;
	double t0 = now_s(), secs;
	int i;

	atomic_store(&go, 1);
	for (i = 0; i < run.nw; i++) {
		pthread_join(w[i].th, NULL);
		run.accepted += w[i].accepted;
		run.failed += w[i].failed;
		run.reasons += w[i].reasons;
		run.stale += w[i].stale;
		run.bits |= w[i].bits;
		diag("writer %d: cpu %d%s, tid %d, %ld accepted (%ld reasons), %ld failed%s%s, %.2f s",
		     i, w[i].cpu, w[i].pinned ? " (pinned)" : " (NOT pinned)",
		     w[i].tid, w[i].accepted, w[i].reasons, w[i].failed,
		     w[i].failed ? ", first errno " : "",
		     w[i].failed ? strerror(w[i].first_errno) : "", w[i].secs);
	}
	secs = now_s() - t0;
	atomic_store(&writers_done, 1);
	for (i = 0; i < NREADERS; i++)
		pthread_join(run.r[i].th, NULL);
	diag("writers done in %.2f s (%.0f requests/s)", secs, run.accepted / secs);
}

static void stress_run(void)
{
	struct reader *r = run.r;
	int i;

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	run.tgid = getpid();
	diag("taint_stress: %d writer threads of pid %d x %ld requests, %d readers (read() until EOF by 1, 7, 4096, 65536 bytes, 64 KiB pread(), dropped= tail, taint_reason), %d CPUs",
	     run.nw, getpid(), run.per, NREADERS, ncpu);
	run.mask0 = read_mask();
	if (!rlog_read(&run.l0, 65536, NULL, NULL))
		diag("log before the run is not a v2 log: %s", run.l0.err);
	base_reasons = run.l0.reason_lines + run.l0.dropped;
	nwriters = run.nw;
	diag("before: mask=%lu, %d kernel lines, %d user lines (%d with a reason), dropped=%ld",
	     run.mask0, run.l0.kernel_lines, run.l0.user_lines,
	     run.l0.reason_lines, run.l0.dropped);

	start_threads();
	join_threads();

	run.t64 = read_all(P_LOG, 65536, &run.len64);
	run.t1 = read_all(P_LOG, 1, &run.len1);
	if (!run.t64 || !run.t1)
		diag("cannot read %s: %s", P_LOG, strerror(errno));
	run.l1_ok = rlog_parse(run.t64, run.len64, &run.l1);
	run.mask = read_mask();
	diag("after: %d kernel lines, %d user lines (%d with a reason), dropped=%ld",
	     run.l1.kernel_lines, run.l1.user_lines, run.l1.reason_lines,
	     run.l1.dropped);
	diag("mask before %lu (%#lx), after %lu (%#lx), asked for %#lx",
	     run.mask0, run.mask0, run.mask, run.mask, run.bits | U_BIT);
	for (i = 0; i < NREADERS; i++)
		diag("reader %d (%s, %zu bytes): %ld texts (%ld during writes, %.3f s each), %ld bad (%ld during writes), %ld miscounted",
		     i, reader_kind(i), r[i].chunk, r[i].snaps, r[i].snaps_busy,
		     r[i].snaps ? r[i].secs / r[i].snaps : 0.0, r[i].torn,
		     r[i].torn_busy, r[i].miscount);
}

/* ---- the checks of the run ---------------------------------------------- */

REL_FIXTURE(stress);

TEST_F(stress, every_request_accepted)
{
	EXPECT_EQ(0, run.failed)
		TH_LOG("every request accepted (%ld of %ld)", run.accepted,
		       run.accepted + run.failed);
}

TEST_F(stress, final_log_is_v2)
{
	EXPECT_TRUE(run.l1_ok)
		TH_LOG("final taint_log (%zu bytes): %s", run.len64, run.l1.err);
}

TEST_F(stress, quiescent_1_byte_reads_same_text)
{
	ASSERT_TRUE(run.t64 && run.t1) TH_LOG("cannot read %s", P_LOG);
	EXPECT_TRUE(run.len1 == run.len64 && !memcmp(run.t1, run.t64, run.len64))
		TH_LOG("quiescent: 1-byte reads (%zu bytes) do not give the text of one 64 KiB read (%zu bytes)",
		       run.len1, run.len64);
}

TEST_F(stress, one_first_event_per_set_flag)
{
	char why[512];

	EXPECT_TRUE(rlog_first_events(&run.l1, run.mask, why, sizeof(why)))
		TH_LOG("not exactly one first event (new=) per set flag, none for unset flags: %s",
		       why);
}

TEST_F(stress, mask_asked_bits_and_kernels)
{
	unsigned long want = run.bits | U_BIT;
	unsigned long allowed = run.mask0 | want | rlog_kernel_flags(&run.l1);

	EXPECT_EQ(0UL, run.mask & ~allowed)
		TH_LOG("mask holds bits not asked for and not the kernel's: extra %#lx",
		       run.mask & ~allowed);
	EXPECT_EQ(want, run.mask & want)
		TH_LOG("mask lacks bits asked for: missing %#lx", want & ~run.mask);
}

TEST_F(stress, reasons_unique_and_ours)
{
	long dup = 0, foreign = 0, ri;
	int i, j, wid;

	for (i = 0; i < run.l1.n; i++) {
		const struct taint_event *e = &run.l1.ev[i];

		if (!e->has_reason)
			continue;
		for (j = 0; j < i; j++)
			if (run.l1.ev[j].has_reason &&
			    run.l1.ev[j].reason_len == e->reason_len &&
			    !memcmp(run.l1.ev[j].reason, e->reason, e->reason_len) &&
			    !dup++)
				diag("duplicate reason \"%s\" on lines %d and %d",
				     e->reason, j + 1, i + 1);
		if (!our_reason(e->reason, e->reason_len, run.nw, run.per, &wid, &ri) &&
		    !foreign++)
			diag("reason not written by this test: \"%s\"", e->reason);
	}
	EXPECT_EQ(0, dup + foreign)
		TH_LOG("a reason appears twice or is not ours (%ld dup, %ld foreign)",
		       dup, foreign);
}

/* check_attribution() on the final log: bad lines, and lines with bad pid= */
static int attribution(int *bad_pid, char *why, size_t wsz)
{
	unsigned long found_set[MAXW];
	int i;

	for (i = 0; i < run.nw; i++)
		found_set[i] = run.w[i].found_set;
	return check_attribution(&run.l1, run.l0.user_lines, run.tgid, run.nw,
				 run.per, found_set, bad_pid, why, wsz);
}

TEST_F(stress, pid_is_the_tgid)
{
	char why[512];
	int bad_pid;

	attribution(&bad_pid, why, sizeof(why));
	EXPECT_EQ(0, bad_pid)
		TH_LOG("pid= on %d user lines is not the writers' tgid: %s",
		       bad_pid, why);
}

TEST_F(stress, user_lines_attributed_in_request_order)
{
	char why[512];
	int bad_pid, bad = attribution(&bad_pid, why, sizeof(why));

	EXPECT_EQ(0, bad)
		TH_LOG("%d user lines not one request of the writer thread its comm names (its reason, or its first request for the one bit it set, in request order): %s",
		       bad, why);
}

TEST_F(stress, reasons_counted_not_tainted_writes)
{
	long got = run.l1.reason_lines + run.l1.dropped - base_reasons;

	EXPECT_EQ(run.reasons, got)
		TH_LOG("reason lines + dropped did not grow by the accepted reasons, tainted writes not counted (%d + %ld - %ld = %ld, want %ld)",
		       run.l1.reason_lines, run.l1.dropped, base_reasons, got,
		       run.reasons);
}

/* The first 16 user requests of the boot are all kept. */
TEST_F(stress, first_16_kept_then_first_sets_only)
{
	char why[512];

	EXPECT_TRUE(check_kept(&run.l1, why, sizeof(why)))
		TH_LOG("the first %d user requests kept, later ones only when they set a flag first (%d user lines, dropped=%ld): %s",
		       USER_KEPT, run.l1.user_lines, run.l1.dropped, why);
}

/* What reader @i got during the run: whole lines, each once. */
static void reader_whole(struct __test_metadata *_metadata, int i)
{
	const struct reader *r = &run.r[i];

	EXPECT_GT(r->snaps_busy, 0)
		TH_LOG("no text read during the writes (%ld in all)", r->snaps);
	EXPECT_EQ(0, r->torn)
		TH_LOG("%s of %zu bytes during the run: whole lines, each once, one dropped= line, last (%ld of %ld texts not, %ld read during writes)",
		       i == R_SINGLE ? "single pread()s" : "read()s until end of file",
		       r->chunk, r->torn, r->snaps, r->snaps_busy);
	if (r->torn) {
		diag("first bad text (reader %d): %s", i, r->first_err);
		show_text(r->first_text, r->first_len, 80);
	}
}

TEST_F(stress, reads_of_1_byte_whole_lines)
{
	reader_whole(_metadata, 0);
}

TEST_F(stress, reads_of_7_bytes_whole_lines)
{
	reader_whole(_metadata, 1);
}

TEST_F(stress, reads_of_4096_bytes_whole_lines)
{
	reader_whole(_metadata, 2);
}

TEST_F(stress, reads_of_65536_bytes_whole_lines)
{
	reader_whole(_metadata, 3);
}

TEST_F(stress, single_preads_whole_lines)
{
	reader_whole(_metadata, R_SINGLE);
}

/*
 * Events and the drop count only grow, and a reader gets the log's lines
 * up to where it reached end of file: so it counts every reason done
 * before it began and none that was not yet begun when it ended.
 */
TEST_F(stress, texts_count_between_reasons_before_and_after)
{
	const struct reader *bad = NULL;
	long mis = 0;
	int i;

	for (i = 0; i <= R_SINGLE; i++) {
		mis += run.r[i].miscount;
		if (run.r[i].miscount && !bad)
			bad = &run.r[i];
	}
	EXPECT_EQ(0, mis)
		TH_LOG("%ld texts do not count between the reasons done before and after them; first (reader %d): %s",
		       mis, bad->id, bad->first_miscount);
}

TEST_F(stress, dropped_line_by_1_byte_reads_one_value)
{
	const struct reader *r = &run.r[R_TAIL];

	EXPECT_GT(r->snaps, 0) TH_LOG("the dropped= line was never read");
	EXPECT_EQ(0, r->torn)
		TH_LOG("the dropped= line read 1 byte at a time is not one value that single reads gave before and after it (%ld of %ld not, %ld during writes); first: %s",
		       r->torn, r->snaps, r->snaps_busy, r->first_err);
}

/* taint_reason reads back the latest accepted reason */
TEST_F(stress, reason_never_older_than_accepted)
{
	const struct reader *r = &run.r[R_REASON];
	int i;

	for (i = 0; i < run.nw; i++)
		if (run.w[i].stale) {
			diag("writer %d: %s", i, run.w[i].first_stale);
			break;
		}
	if (r->torn)
		diag("reader: %s", r->first_err);
	EXPECT_GT(r->snaps_busy, 0) TH_LOG("taint_reason not read during the writes");
	EXPECT_TRUE(!run.stale && !r->torn)
		TH_LOG("taint_reason read back an older reason of a writer once a newer one was accepted (%ld writer read-backs, %ld of %ld reader reads bad)",
		       run.stale, r->torn, r->snaps);
}

TEST_F(stress, reason_after_the_run_last_of_a_writer)
{
	long ri = -1, last = (run.per - 1) & ~1L;	/* each writer's last reason */
	size_t n = 0;
	char *b = read_all(P_REASON, 4096, &n);
	bool ours;
	int wid;

	ours = b && n && b[n - 1] == '\n' &&
	       our_reason(b, n - 1, run.nw, run.per, &wid, &ri);
	EXPECT_TRUE(ours && ri == last)
		TH_LOG("after the run taint_reason reads \"%.*s\", want \"w<k> r%ld\"",
		       b && n ? (int)n - 1 : 0, b ? b : "", last);
	free(b);
}

TEST_F(stress, no_raw_kernel_address)
{
	EXPECT_FALSE(has_raw_address(run.t64, run.len64))
		TH_LOG("a raw kernel address in taint_log");
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: taint_stress [-w N] [-n REQ] [-- HARNESS-OPTIONS]\n"
		"       taint_stress --selftest [HARNESS-OPTIONS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int o, h;

	if (argc >= 2 && !strcmp(argv[1], "--selftest"))
		return rel_run_tests(argc, argv, 2, "stress");
	run.nw = 4;
	run.per = 10000;
	while ((o = getopt(argc, argv, "w:n:")) != -1) {
		switch (o) {
		case 'w':
			run.nw = atoi(optarg);
			break;
		case 'n':
			run.per = atol(optarg);
			break;
		default:
			return bad_usage();
		}
	}
	h = optind > 1 && !strcmp(argv[optind - 1], "--") ? optind : argc;
	if (optind < argc && h == argc)
		return bad_usage();
	if (run.nw < 1 || run.nw > MAXW || run.per < 1)
		return bad_usage();
	rel_tap_header();
	stress_run();
	return rel_run_tests(argc, argv, h, "selftest");
}
