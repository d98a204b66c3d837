// SPDX-License-Identifier: GPL-2.0
/*
 * taint_notify [-t TAINTCTL] - poll() on tainted and taint_log
 * (docs/abi.md 1.6), in a fresh guest with the harness's module ut_taint
 * loaded:
 *
 *   - a file opened and not changed since reports no POLLPRI;
 *   - a blocked poller is woken, with POLLPRI | POLLERR on both files, by a
 *     taint_reason write and by a flag the kernel sets from process,
 *     hard-IRQ and NMI context (ut_taint's "set" file); the log then holds
 *     that flag's event, naming ut_taint;
 *   - once reported, the change is not reported again;
 *   - a taint_reason write while U is set changes the log but not the mask:
 *     it wakes a poller of taint_log, not one of tainted (tainted reports
 *     changes of its value, as kernel.hostname does);
 *   - a tainted write that sets nothing new wakes no one;
 *   - taintctl watch --once --json prints a flag set from NMI context within
 *     a second (the latency is printed).
 *
 * usage: taint_notify [-t TAINTCTL] [-- HARNESS-OPTIONS]
 * TAP on stdout (kselftest_harness.h); exit 0 if every check passed.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "rel.h"

#define P_SET		"/sys/kernel/debug/ut_taint/set"
#define WAKE_MS		5000	/* longest wait for a wake-up that must come */
#define WAKE_BOUND_MS	1000	/* ... and the bound on its latency: poll()
				 * re-checks at its timeout, so a missing
				 * wake-up shows only as latency */
#define QUIET_MS	300	/* how long a poll that must not wake waits */
#define WATCH_MAX_S	1.0	/* the bound on taintctl watch's latency */

static int fds[2];	/* tainted, taint_log: opened once, for every test */
static const char *taintctl = "/usr/bin/taintctl";

/* What one test leaves to the next (each runs in a process of its own). */
static struct {
	int bit[3];		/* the flag set from task, irq, nmi context */
	bool watch_ran;
	int watch_status;	/* taintctl watch's */
} *sh;

static int open_files(void)
{
	fds[0] = open(P_TAINTED, O_RDONLY);
	fds[1] = open(P_LOG, O_RDONLY);
	return fds[0] >= 0 && fds[1] >= 0 ? 0 : -errno;
}

/* poll both files for @ms; the revents of each in @rev. Returns poll()'s. */
static int poll_both(int ms, short rev[2])
{
	struct pollfd p[2] = {
		{ .fd = fds[0], .events = POLLPRI },
		{ .fd = fds[1], .events = POLLPRI },
	};
	int n = poll(p, 2, ms);

	rev[0] = p[0].revents;
	rev[1] = p[1].revents;
	return n;
}

static bool both_signalled(const short rev[2])
{
	const short want = POLLPRI | POLLERR;

	return (rev[0] & want) == want && (rev[1] & want) == want;
}

static bool none_signalled(const short rev[2])
{
	return !(rev[0] & POLLPRI) && !(rev[1] & POLLPRI);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : (n < 0 ? (int)n : -EIO);
}

/* A write made by another thread while the main thread blocks in poll(). */
struct later {
	const char *path;
	char text[160];
	int delay_ms;
	double t_write;	/* when the write began */
	int err;
};

static void *later_fn(void *arg)
{
	struct later *w = arg;

	usleep(w->delay_ms * 1000);
	w->t_write = now_s();
	w->err = write_file(w->path, w->text);
	return NULL;
}

/*
 * Block in poll() on both files while another thread writes @text to @path
 * 200 ms later; check the wake-up: both files signalled, or with
 * @log_only only taint_log.
 */
static void wake_on_files(struct __test_metadata *_metadata, const char *what,
			  const char *path, const char *text, bool log_only)
{
	const short pe = POLLPRI | POLLERR;
	struct later w = { .path = path, .delay_ms = 200 };
	double t_wake, lat = -1;
	pthread_t th;
	short rev[2];
	int n;

	snprintf(w.text, sizeof(w.text), "%s", text);
	ASSERT_EQ(0, pthread_create(&th, NULL, later_fn, &w))
		TH_LOG("woken by %s: pthread_create", what);
	n = poll_both(WAKE_MS, rev);
	t_wake = now_s();
	pthread_join(th, NULL);
	ASSERT_EQ(0, w.err)
		TH_LOG("woken by %s: writing \"%s\" to %s: %s", what, text, path,
		       strerror(-w.err));
	if (n > 0)
		lat = (t_wake - w.t_write) * 1000;
	diag("woken by %s: %spoll()=%d, revents tainted=%#x taint_log=%#x, %.1f ms after the write began (bound %d ms)",
	     what, log_only ? "taint_log only? " : "", n, rev[0], rev[1], lat,
	     WAKE_BOUND_MS);
	if (log_only) {
		EXPECT_EQ(1, n);
		EXPECT_EQ(0, rev[0] & pe) TH_LOG("tainted signalled");
		EXPECT_EQ(pe, rev[1] & pe) TH_LOG("taint_log not signalled");
	} else {
		EXPECT_EQ(2, n);
		EXPECT_TRUE(both_signalled(rev))
			TH_LOG("not both files signalled with POLLPRI | POLLERR");
	}
	EXPECT_TRUE(lat >= 0 && lat < WAKE_BOUND_MS)
		TH_LOG("woken %.1f ms after the write began (bound %d ms)", lat,
		       WAKE_BOUND_MS);
}

/* The reported change is not reported again. */
static void quiet_after(struct __test_metadata *_metadata, const char *what)
{
	short rev[2];
	int n = poll_both(0, rev);

	EXPECT_TRUE(n == 0 && none_signalled(rev))
		TH_LOG("after %s, a second poll reports something (poll()=%d, revents %#x %#x)",
		       what, n, rev[0], rev[1]);
}

/* A flag bit that is clear in the kernel's mask now, from a benign list. */
static int clear_flag(void)
{
	/* X (AUX), T (RANDSTRUCT), C (CRAP), K (LIVEPATCH), L, A, S, I, B */
	static const int pick[] = { 16, 17, 10, 15, 14, 8, 2, 11, 5 };
	unsigned long mask = read_mask();
	size_t i;

	for (i = 0; i < sizeof(pick) / sizeof(pick[0]); i++)
		if (!(mask & (1UL << pick[i])))
			return pick[i];
	return -1;
}

/* The log's event that set @bit first into @out; false (and @why) if none. */
static bool kernel_event_of(int bit, struct taint_event *out, char *why,
			    size_t wsz)
{
	struct rlog l;
	char *text = NULL;
	size_t len;
	bool found = false;
	int i;

	if (!rlog_read(&l, 65536, &text, &len)) {
		snprintf(why, wsz, "taint_log: %s", l.err);
		free(text);
		rlog_free(&l);
		return false;
	}
	for (i = 0; i < l.n; i++)
		if (l.ev[i].new_mask & (1UL << bit)) {
			*out = l.ev[i];
			found = true;
		}
	if (!found)
		snprintf(why, wsz, "no event with new=%c", letter(bit));
	free(text);
	rlog_free(&l);
	return found;
}

/* ---- the tests, in this order: each poll() sees the ones before -------- */

REL_FIXTURE(notify);

TEST_F(notify, unchanged_files_no_pollpri)
{
	short rev[2];
	int n = poll_both(0, rev);

	EXPECT_TRUE(n == 0 && none_signalled(rev))
		TH_LOG("files opened and not changed since report POLLPRI (poll()=%d, revents %#x %#x)",
		       n, rev[0], rev[1]);
}

TEST_F(notify, reason_write_wakes_both)
{
	char reason[64];

	snprintf(reason, sizeof(reason), "taint_notify: poll test %d", getpid());
	wake_on_files(_metadata, "a taint_reason write", P_REASON, reason, false);
}

TEST_F(notify, quiet_after_reason_write)
{
	quiet_after(_metadata, "the taint_reason write");
}

/* U is set: writing it again records nothing, so it wakes no one. */
TEST_F(notify, noop_tainted_write_wakes_no_one)
{
	struct later w = { .path = P_TAINTED, .delay_ms = 50 };
	pthread_t th;
	short rev[2];
	int n;

	snprintf(w.text, sizeof(w.text), "%lu", U_BIT);
	ASSERT_EQ(0, pthread_create(&th, NULL, later_fn, &w))
		TH_LOG("a tainted write that sets nothing new: pthread_create");
	n = poll_both(QUIET_MS, rev);
	pthread_join(th, NULL);
	EXPECT_EQ(0, w.err) TH_LOG("the write: %s", strerror(-w.err));
	EXPECT_TRUE(n == 0 && none_signalled(rev))
		TH_LOG("a tainted write that sets nothing new woke a poller in %d ms (poll()=%d)",
		       QUIET_MS, n);
}

TEST_F(notify, reason_while_u_set_wakes_taint_log_only)
{
	char reason[64];

	snprintf(reason, sizeof(reason), "taint_notify: again %d", getpid());
	wake_on_files(_metadata, "a taint_reason write while U is set",
		      P_REASON, reason, true);
}

TEST_F(notify, quiet_after_second_reason_write)
{
	quiet_after(_metadata, "the second taint_reason write");
}

/* A flag set by the kernel (ut_taint) from each context: three tests each. */
FIXTURE(kernel_set) {
	char what[64];
};

FIXTURE_VARIANT(kernel_set) {
	const char *ctx;	/* ut_taint's name of the context */
	int i;			/* its slot in sh->bit */
};

FIXTURE_VARIANT_ADD(kernel_set, task) { .ctx = "task", .i = 0 };
FIXTURE_VARIANT_ADD(kernel_set, irq) { .ctx = "irq", .i = 1 };
FIXTURE_VARIANT_ADD(kernel_set, nmi) { .ctx = "nmi", .i = 2 };

FIXTURE_SETUP(kernel_set)
{
	int bit = sh->bit[variant->i];

	snprintf(self->what, sizeof(self->what), "%c set by the kernel from %s context",
		 bit >= 0 ? letter(bit) : '?', variant->ctx);
}

FIXTURE_TEARDOWN(kernel_set) {}

TEST_F(kernel_set, wakes_both)
{
	int bit = clear_flag();
	char cmd[32];

	sh->bit[variant->i] = bit;
	ASSERT_LE(0, bit) TH_LOG("%s: no clear flag left to set", variant->ctx);
	snprintf(self->what, sizeof(self->what), "%c set by the kernel from %s context",
		 letter(bit), variant->ctx);
	snprintf(cmd, sizeof(cmd), "%s %d", variant->ctx, bit);
	wake_on_files(_metadata, self->what, P_SET, cmd, false);
}

TEST_F(kernel_set, log_names_ut_taint)
{
	int bit = sh->bit[variant->i];
	struct taint_event ev;
	char why[600] = "";
	bool ok;

	ASSERT_LE(0, bit) TH_LOG("%s: no flag was set", variant->ctx);
	ok = kernel_event_of(bit, &ev, why, sizeof(why));
	if (ok && (ev.origin != TAINT_ORIGIN_KERNEL || !ev.has_module ||
		   strcmp(ev.module, "ut_taint") || !ev.has_caller)) {
		snprintf(why, sizeof(why), "origin %s module=%s caller=%s",
			 ev.origin == TAINT_ORIGIN_KERNEL ? "kernel" : "user",
			 ev.has_module ? ev.module : "(none)",
			 ev.has_caller ? ev.caller : "(none)");
		ok = false;
	}
	EXPECT_TRUE(ok)
		TH_LOG("the log has not %c's event, origin=kernel module=ut_taint caller=...: %s",
		       letter(bit), why);
	if (ok)
		diag("the log has %c's event, origin=kernel module=ut_taint caller=%s",
		     letter(bit), ev.caller);
}

TEST_F(kernel_set, quiet_after)
{
	ASSERT_LE(0, sh->bit[variant->i]) TH_LOG("%s: no flag was set", variant->ctx);
	quiet_after(_metadata, self->what);
}

/* taintctl watch --once --json, started and asleep in poll(); its stdout. */
static pid_t start_watch(int *out)
{
	char stat_path[64], st[512];
	int pfd[2], i;
	pid_t pid;
	FILE *f;

	if (pipe(pfd))
		abort();
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execl(taintctl, "taintctl", "watch", "--once", "--json",
		      (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	*out = pfd[0];
	/* Wait until it sleeps (in poll()), then a little more. */
	snprintf(stat_path, sizeof(stat_path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 300; i++) {
		f = fopen(stat_path, "r");
		if (f && fgets(st, sizeof(st), f) && strstr(st, ") S ")) {
			fclose(f);
			break;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
	usleep(100000);
	return pid;
}

/* The first line @fd gives within 3 s, into @line; when it came, or 0. */
static double read_line(int fd, char *line, size_t size)
{
	double t1 = 0;
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, 3000) <= 0)
			break;
		r = read(fd, line + len, size - 1 - len);
		if (r <= 0)
			break;
		len += r;
		if (memchr(line, '\n', len)) {
			t1 = now_s();
			break;
		}
	}
	line[len] = '\0';
	return t1;
}

/* taintctl watch --once --json: a flag set from NMI context, latency. */
REL_FIXTURE(watch);

TEST_F(watch, prints_nmi_flag_within_1_s)
{
	char line[4096], cmd[32], want[16];
	int fd, status = -1, bit = clear_flag();
	double t0, t1;
	bool line_ok;
	pid_t pid;

	ASSERT_EQ(0, access(taintctl, X_OK)) TH_LOG("taintctl is not in the guest");
	ASSERT_LE(0, bit) TH_LOG("no clear flag left");
	pid = start_watch(&fd);
	snprintf(cmd, sizeof(cmd), "nmi %d", bit);
	t0 = now_s();
	if (write_file(P_SET, cmd))
		diag("writing \"%s\" to %s failed", cmd, P_SET);
	t1 = read_line(fd, line, sizeof(line));
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	sh->watch_status = status;
	sh->watch_ran = true;
	close(fd);
	snprintf(want, sizeof(want), "\"new\":\"%c\"", letter(bit));
	line_ok = t1 > 0 && strstr(line, want) &&
		  strstr(line, "\"origin\":\"kernel\"") &&
		  strstr(line, "\"module\":\"ut_taint\"");
	diag("taintctl watch printed %c set from NMI context %.1f ms after the write began (bound %.0f ms)",
	     letter(bit), t1 > 0 ? (t1 - t0) * 1000 : -1, WATCH_MAX_S * 1000);
	diag("watch printed: %.*s", (int)strcspn(line, "\n"), line);
	EXPECT_TRUE(line_ok)
		TH_LOG("no line with %s, origin kernel and module ut_taint: %s",
		       want, line);
	EXPECT_TRUE(t1 > 0 && t1 - t0 < WATCH_MAX_S)
		TH_LOG("printed %.1f ms after the write began (bound %.0f ms)",
		       t1 > 0 ? (t1 - t0) * 1000 : -1, WATCH_MAX_S * 1000);
}

TEST_F(watch, once_exits_0)
{
	ASSERT_TRUE(sh->watch_ran) TH_LOG("taintctl watch did not run");
	EXPECT_TRUE(WIFEXITED(sh->watch_status) && !WEXITSTATUS(sh->watch_status))
		TH_LOG("taintctl watch --once did not exit 0 after its event (status %#x)",
		       sh->watch_status);
}

int main(int argc, char **argv)
{
	int opt, h;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't') {
			fprintf(stderr, "usage: taint_notify [-t TAINTCTL] [-- HARNESS-OPTIONS]\n");
			return 2;
		}
		taintctl = optarg;
	}
	h = optind > 1 && !strcmp(argv[optind - 1], "--") ? optind : argc;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	sh->bit[0] = sh->bit[1] = sh->bit[2] = -1;
	if (open_files())
		ksft_exit_fail_msg("open %s and %s: %s\n", P_TAINTED, P_LOG,
				   strerror(errno));
	return rel_run_tests(argc, argv, h, NULL);
}
