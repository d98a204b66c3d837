// SPDX-License-Identifier: GPL-2.0
/*
 * taint_perm - who may write /proc/sys/kernel/tainted and taint_reason,
 * and read taint_log. Each refused case is its own TAP test, for both
 * files, and must leave the mask, taint_reason and the full taint_log
 * text byte-identical (the value written to tainted is a flag not set yet,
 * so a wrongful acceptance would show). Two positive controls (root with
 * every capability) come last: each must set its flag, add exactly one
 * line (or, for a reason past the 16 kept, count one dropped request),
 * and the reason must read back.
 *
 * usage: taint_perm [-H SETUID_HELPER] [-- HARNESS-OPTIONS]
 *        (default helper /usr/bin/taint_suid_helper)
 * Runs as root in the QEMU guest only. TAP on stdout (kselftest_harness.h).
 */
#include "rel.h"

#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const char *helper_src = "/usr/bin/taint_suid_helper";
static char helper[64];
static char value[2][160];	/* what each case writes, per file */
static int free_bit;		/* a flag not set at the start, or -1 */
static const char *const paths[2] = { P_TAINTED, P_REASON };
static const char *const names[2] = { "tainted", "taint_reason" };

struct state {
	char *mask, *log, *reason;
	size_t mlen, llen, rlen;
};

static void snap(struct state *s)
{
	s->mask = read_all(P_TAINTED, 65536, &s->mlen);
	s->log = read_all(P_LOG, 65536, &s->llen);
	s->reason = read_all(P_REASON, 65536, &s->rlen);
}

static bool same(const struct state *a, const struct state *b, char *why, size_t wsz)
{
	*why = 0;
	if (!a->mask || !b->mask || a->mlen != b->mlen || memcmp(a->mask, b->mask, a->mlen))
		snprintf(why, wsz, "mask changed: %.*s -> %.*s", (int)a->mlen - 1,
			 a->mask ? a->mask : "?", (int)b->mlen - 1, b->mask ? b->mask : "?");
	else if (!a->log || !b->log || a->llen != b->llen || memcmp(a->log, b->log, a->llen))
		snprintf(why, wsz, "taint_log changed: %zu -> %zu bytes", a->llen, b->llen);
	else if (!a->reason || !b->reason || a->rlen != b->rlen ||
		 memcmp(a->reason, b->reason, a->rlen))
		snprintf(why, wsz, "taint_reason changed");
	return !*why;
}

static void unsnap(struct state *s)
{
	free(s->mask);
	free(s->log);
	free(s->reason);
}

static int to_user(void)
{
	if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) ||
	    setresuid(1000, 1000, 1000) || geteuid() != 1000) {
		printf("# cannot become uid 1000: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Keep only the capabilities in @keep (eff, perm, inh); -1 on failure. */
static int caps_keep(uint64_t keep)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = keep & 0xffffffff;
	d[1].effective = d[1].permitted = keep >> 32;
	if (syscall(SYS_capset, &h, d))
		return -1;
	memset(d, 0xff, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return -1;
	if ((((uint64_t)d[1].effective << 32 | d[0].effective) != keep) ||
	    (((uint64_t)d[1].permitted << 32 | d[0].permitted) != keep))
		return -1;
	return 0;
}

static uint64_t caps_all(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return 0;
	return (uint64_t)d[1].effective << 32 | d[0].effective;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return r;
}

/* Child-side check: @r is the write's result, @want the errno. */
static int expect(const char *what, ssize_t r, int err, int want)
{
	if (r >= 0) {
		printf("# %s: succeeded (returned %zd), want %s\n", what, r, strerror(want));
		return 1;
	}
	if (err != want) {
		printf("# %s: %s, want %s\n", what, strerror(err), strerror(want));
		return 1;
	}
	return 0;
}

static int try_open(int f, int flags, int want)
{
	int fd = open(paths[f], flags | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t r = (flags & O_ACCMODE) == O_RDONLY ?
			read(fd, value[f], 1) : write(fd, value[f], strlen(value[f]));
		printf("# open %s succeeded; then %s returned %zd\n", paths[f],
		       (flags & O_ACCMODE) == O_RDONLY ? "read" : "write", r);
		return 1;
	}
	return expect("open", -1, errno, want);
}

static int try_write(int fd, int f, int want)
{
	ssize_t r = write(fd, value[f], strlen(value[f]));

	return expect("write", r, errno, want);
}

/* ---- the cases: each runs in a child, returns 0 if refused as wanted ---- */

static int c_uid1000_open(int f)
{
	return to_user() ? 2 : try_open(f, O_WRONLY, EACCES);
}

static int c_uid1000_rootfd(int f)
{
	int fd = open(paths[f], O_WRONLY | O_CLOEXEC);

	if (fd < 0 || to_user())
		return 2;
	return try_write(fd, f, EPERM);
}

static int c_no_sys_admin(int f)
{
	int fd;

	if (caps_keep(caps_all() & ~(1ULL << CAP_SYS_ADMIN)))
		return 2;
	fd = open(paths[f], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("# open as root without CAP_SYS_ADMIN: %s\n", strerror(errno));
		return 1;
	}
	return try_write(fd, f, EPERM);
}

static int c_only_sys_resource(int f)
{
	int fd;

	if (caps_keep(1ULL << CAP_SYS_RESOURCE))
		return 2;
	fd = open(paths[f], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("# open as root with CAP_SYS_RESOURCE only: %s\n", strerror(errno));
		return 1;
	}
	return try_write(fd, f, EPERM);
}

static int enter_userns(void)
{
	if (unshare(CLONE_NEWUSER)) {
		printf("# unshare(CLONE_NEWUSER): %s\n", strerror(errno));
		return -1;
	}
	if (write_file("/proc/self/uid_map", "0 0 1") ||
	    write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/gid_map", "0 0 1")) {
		printf("# writing the id maps: %s\n", strerror(errno));
		return -1;
	}
	if (!(caps_all() & (1ULL << CAP_SYS_ADMIN))) {
		printf("# no CAP_SYS_ADMIN in the new user namespace\n");
		return -1;
	}
	return 0;
}

static int c_userns_open(int f)
{
	int fd;

	if (enter_userns())
		return 2;
	fd = open(paths[f], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("# open in the user namespace: %s\n", strerror(errno));
		return 1;
	}
	return try_write(fd, f, EPERM);
}

static int c_userns_rootfd(int f)
{
	int fd = open(paths[f], O_WRONLY | O_CLOEXEC);

	if (fd < 0 || enter_userns())
		return 2;
	return try_write(fd, f, EPERM);
}

static int run_helper(int f, const char *mode)
{
	int st;
	pid_t p;

	fflush(stdout);
	p = fork();
	if (p == 0) {
		if (to_user())
			_exit(2);
		execl(helper, helper, paths[f], value[f], mode, (char *)NULL);
		printf("# exec %s: %s\n", helper, strerror(errno));
		_exit(2);
	}
	waitpid(p, &st, 0);
	if (!WIFEXITED(st))
		return 2;
	return WEXITSTATUS(st) == 10 ? 2 : WEXITSTATUS(st);
}

static int c_suid_drop_open(int f)
{
	return run_helper(f, "drop-open");
}

static int c_suid_open_drop(int f)
{
	return run_helper(f, "open-drop");
}

/* taint_log / taint_reason reads by uid 1000 (f: 0 taint_log, 1 reason) */
static int c_read_open(int f)
{
	const char *p = f ? P_REASON : P_LOG;
	int fd;
	char c;

	if (to_user())
		return 2;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		printf("# uid 1000 opened %s for reading; read returned %zd\n", p,
		       read(fd, &c, 1));
		return 1;
	}
	return expect("open", -1, errno, EACCES);
}

static int c_read_rootfd(int f)
{
	const char *p = f ? P_REASON : P_LOG;
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	char buf[64];

	if (fd < 0 || to_user())
		return 2;
	ssize_t r = read(fd, buf, sizeof(buf));

	return expect("read", r, errno, EPERM);
}

static int install_helper(void)
{
	size_t len;
	char *b = read_all(helper_src, 1 << 20, &len);
	int fd;

	if (!b)
		return -1;
	snprintf(helper, sizeof(helper), "/tmp/taint_suid_helper.%d", (int)getpid());
	fd = open(helper, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (fd < 0 || write(fd, b, len) != (ssize_t)len || fchown(fd, 0, 0) ||
	    fchmod(fd, 04755) || close(fd))
		return -1;
	free(b);
	return 0;
}

/*
 * Run case @fn for file @f in a child: it must return 0 (refused as
 * wanted) and leave the mask, taint_reason and taint_log as they were.
 */
static void refused(struct __test_metadata *_metadata, int (*fn)(int f), int f)
{
	struct state s0, s1;
	char why[300];
	int st = 0;
	pid_t p;

	snap(&s0);
	fflush(stdout);
	p = fork();
	if (p == 0) {
		int r = fn(f);

		fflush(stdout);
		_exit(r);
	}
	waitpid(p, &st, 0);
	snap(&s1);
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 3;
	same(&s0, &s1, why, sizeof(why));
	unsnap(&s0);
	unsnap(&s1);
	EXPECT_EQ(0, st)
		TH_LOG("%s", st == 2 ? "case could not be set up" : "not refused as it must be");
	EXPECT_TRUE(!*why) TH_LOG("%s", why);
}

/* Writes to tainted (flag free_bit) and taint_reason that must be refused. */
FIXTURE(refused) {};
FIXTURE_VARIANT(refused) {
	int f;		/* 0 tainted, 1 taint_reason */
};
FIXTURE_VARIANT_ADD(refused, tainted) { .f = 0 };
FIXTURE_VARIANT_ADD(refused, taint_reason) { .f = 1 };
FIXTURE_SETUP(refused) {}
FIXTURE_TEARDOWN(refused) {}

TEST_F(refused, uid1000_open_eacces)
{
	refused(_metadata, c_uid1000_open, variant->f);
}

TEST_F(refused, uid1000_write_rootfd_eperm)
{
	refused(_metadata, c_uid1000_rootfd, variant->f);
}

TEST_F(refused, root_without_cap_sys_admin_eperm)
{
	refused(_metadata, c_no_sys_admin, variant->f);
}

TEST_F(refused, root_with_only_cap_sys_resource_eperm)
{
	refused(_metadata, c_only_sys_resource, variant->f);
}

/* root in a new user namespace (0->0): open there, write fails */
TEST_F(refused, userns_open_write_eperm)
{
	refused(_metadata, c_userns_open, variant->f);
}

/* ... through an fd opened before */
TEST_F(refused, userns_write_rootfd_eperm)
{
	refused(_metadata, c_userns_rootfd, variant->f);
}

/* setuid-root helper run by uid 1000, drops then opens */
TEST_F(refused, suid_helper_drop_open_eacces)
{
	refused(_metadata, c_suid_drop_open, variant->f);
}

/* setuid-root helper run by uid 1000, opens, drops, writes */
TEST_F(refused, suid_helper_open_drop_write_eperm)
{
	refused(_metadata, c_suid_open_drop, variant->f);
}

/* Reads of taint_log and taint_reason by uid 1000. */
FIXTURE(unreadable) {};
FIXTURE_VARIANT(unreadable) {
	int f;		/* 0 taint_log, 1 taint_reason */
};
FIXTURE_VARIANT_ADD(unreadable, taint_log) { .f = 0 };
FIXTURE_VARIANT_ADD(unreadable, taint_reason) { .f = 1 };
FIXTURE_SETUP(unreadable) {}
FIXTURE_TEARDOWN(unreadable) {}

TEST_F(unreadable, uid1000_open_eacces)
{
	refused(_metadata, c_read_open, variant->f);
}

TEST_F(unreadable, uid1000_read_rootfd_eperm)
{
	refused(_metadata, c_read_rootfd, variant->f);
}

/*
 * Positive controls, after the refused cases: root with all capabilities
 * writes; the flag is set, one more line (tainted: naming the flag in
 * new=) or drop, and the reason reads back.
 */
FIXTURE(control) {};
FIXTURE_VARIANT(control) {
	int f;		/* 0 tainted, 1 taint_reason */
};
FIXTURE_VARIANT_ADD(control, tainted) { .f = 0 };
FIXTURE_VARIANT_ADD(control, taint_reason) { .f = 1 };
FIXTURE_SETUP(control) {}
FIXTURE_TEARDOWN(control) {}

TEST_F(control, root_with_all_capabilities_accepted)
{
	int f = variant->f, fd = open(paths[f], O_WRONLY | O_CLOEXEC);
	unsigned long m0 = read_mask(), m1;
	unsigned long bit = f ? U_BIT : free_bit >= 0 ? 1UL << free_bit : 0;
	struct rlog a, c;
	char v[64], *rs;
	size_t rl = 0;
	ssize_t r;
	bool ok;

	snprintf(v, sizeof(v), f ? "taint_perm control" : "%lu", bit);
	rlog_read(&a, 65536, NULL, NULL);
	r = fd < 0 ? -1 : write(fd, v, strlen(v));
	if (fd >= 0)
		close(fd);
	m1 = read_mask();
	rlog_read(&c, 65536, NULL, NULL);
	rs = read_all(P_REASON, 4096, &rl);
	ok = r == (ssize_t)strlen(v) && bit && (m1 & bit) && !((m1 ^ m0) & ~bit) &&
	     c.user_lines + c.dropped == a.user_lines + a.dropped + 1;
	if (f == 0)	/* it set its flag first: a line, with new= that flag */
		ok = ok && !(m0 & bit) && c.user_lines == a.user_lines + 1 && c.n &&
		     c.ev[c.n - 1].new_mask == bit && c.ev[c.n - 1].flags_mask == bit;
	else		/* the latest accepted reason reads back */
		ok = ok && rs && rl == strlen(v) + 1 && !memcmp(rs, v, rl - 1);
	EXPECT_TRUE(ok)
		TH_LOG("%s: root with all capabilities writes \"%s\": write returned %zd; mask %#lx -> %#lx; user lines %d -> %d, dropped %ld -> %ld",
		       names[f], v, r, m0, m1, a.user_lines, c.user_lines,
		       a.dropped, c.dropped);
	free(rs);
	rlog_free(&a);
	rlog_free(&c);
}

REL_FIXTURE(log);

TEST_F(log, v2_at_the_end)
{
	struct rlog l;
	bool ok = rlog_read(&l, 65536, NULL, NULL);

	EXPECT_TRUE(ok) TH_LOG("taint_log at the end: %s", l.err);
	rlog_free(&l);
}

static void remove_helper(void)
{
	unlink(helper);
}

int main(int argc, char **argv)
{
	unsigned long mask;
	int b, o, h;

	while ((o = getopt(argc, argv, "H:")) != -1) {
		if (o == 'H')
			helper_src = optarg;
		else
			return 2;
	}
	h = optind > 1 && !strcmp(argv[optind - 1], "--") ? optind : argc;
	rel_tap_header();
	if (install_helper())
		diag("cannot install the setuid helper from %s: %s", helper_src, strerror(errno));
	atexit(remove_helper);

	/*
	 * A value that would set a flag not set yet, so a wrong acceptance
	 * shows in the mask and the log (v2 records nothing for a write
	 * that sets nothing new). None left: the tainted control fails.
	 */
	mask = read_mask();
	for (b = KFLAGS - 1; b >= 0 && (mask >> b & 1); b--)
		;
	if (b < 0)
		diag("every flag is set already: a wrongly accepted write to tainted would not show; the control fails");
	free_bit = b;
	snprintf(value[0], sizeof(value[0]), "%lu", b >= 0 ? 1UL << b : 0);
	snprintf(value[1], sizeof(value[1]), "taint_perm: must be refused");
	diag("refused writes would set %s on tainted (flag %c) or U with a reason", value[0],
	     b >= 0 ? letter(b) : '-');
	return rel_run_tests(argc, argv, h, NULL);
}
