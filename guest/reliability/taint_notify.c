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
 * TAP on stdout; exit 0 if every check passed.
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

static int fds[2];	/* tainted, taint_log */

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
static void wake_on_files(const char *what, const char *path, const char *text,
			  bool log_only)
{
	struct later w = { .path = path, .delay_ms = 200 };
	double t_wake, lat = -1;
	pthread_t th;
	short rev[2];
	int n;

	snprintf(w.text, sizeof(w.text), "%s", text);
	if (pthread_create(&th, NULL, later_fn, &w)) {
		tap_ok(false, "woken by %s: pthread_create", what);
		return;
	}
	n = poll_both(WAKE_MS, rev);
	t_wake = now_s();
	pthread_join(th, NULL);
	if (w.err) {
		tap_ok(false, "woken by %s: writing \"%s\" to %s: %s", what,
		       text, path, strerror(-w.err));
		return;
	}
	if (n > 0)
		lat = (t_wake - w.t_write) * 1000;
	if (log_only)
		tap_ok(n == 1 && !(rev[0] & (POLLPRI | POLLERR)) &&
		       (rev[1] & (POLLPRI | POLLERR)) == (POLLPRI | POLLERR) &&
		       lat >= 0 && lat < WAKE_BOUND_MS,
		       "woken by %s: taint_log only (poll()=%d, revents tainted=%#x taint_log=%#x), %.1f ms after the write began (bound %d ms)",
		       what, n, rev[0], rev[1], lat, WAKE_BOUND_MS);
	else
		tap_ok(n == 2 && both_signalled(rev) && lat >= 0 && lat < WAKE_BOUND_MS,
		       "woken by %s: poll()=%d, revents tainted=%#x taint_log=%#x, %.1f ms after the write began (bound %d ms)",
		       what, n, rev[0], rev[1], lat, WAKE_BOUND_MS);
}

static void wake_on(const char *what, const char *path, const char *text)
{
	wake_on_files(what, path, text, false);
}

/* The reported change is not reported again. */
static void quiet_after(const char *what)
{
	short rev[2];
	int n = poll_both(0, rev);

	tap_ok(n == 0 && none_signalled(rev),
	       "after %s, a second poll reports nothing (poll()=%d, revents %#x %#x)",
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

/* U is set: writing it again records nothing, so it wakes no one. */
static void noop_write_wakes_no_one(void)
{
	struct later w = { .path = P_TAINTED, .delay_ms = 50 };
	pthread_t th;
	short rev[2];
	int n;

	snprintf(w.text, sizeof(w.text), "%lu", U_BIT);
	if (pthread_create(&th, NULL, later_fn, &w)) {
		tap_ok(false, "a tainted write that sets nothing new: pthread_create");
		return;
	}
	n = poll_both(QUIET_MS, rev);
	pthread_join(th, NULL);
	tap_ok(!w.err && n == 0 && none_signalled(rev),
	       "a tainted write that sets nothing new wakes no one in %d ms (write: %s, poll()=%d)",
	       QUIET_MS, w.err ? strerror(-w.err) : "ok", n);
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

static void kernel_set_wakes(const char *ctx)
{
	struct taint_event ev;
	char what[64], cmd[32], why[600] = "";
	int bit = clear_flag();
	bool ok;

	if (bit < 0) {
		tap_ok(false, "%s: no clear flag left to set", ctx);
		tap_ok(false, "%s: log names the event", ctx);
		tap_ok(false, "%s: second poll", ctx);
		return;
	}
	snprintf(what, sizeof(what), "%c set by the kernel from %s context",
		 letter(bit), ctx);
	snprintf(cmd, sizeof(cmd), "%s %d", ctx, bit);
	wake_on(what, P_SET, cmd);
	ok = kernel_event_of(bit, &ev, why, sizeof(why));
	if (ok && (ev.origin != TAINT_ORIGIN_KERNEL || !ev.has_module ||
		   strcmp(ev.module, "ut_taint") || !ev.has_caller)) {
		snprintf(why, sizeof(why), "origin %s module=%s caller=%s",
			 ev.origin == TAINT_ORIGIN_KERNEL ? "kernel" : "user",
			 ev.has_module ? ev.module : "(none)",
			 ev.has_caller ? ev.caller : "(none)");
		ok = false;
	}
	tap_ok(ok, "the log has %c's event, origin=kernel module=ut_taint caller=%s%s%s",
	       letter(bit), ok ? ev.caller : "?", why[0] ? ": " : "", why);
	quiet_after(what);
}

/* taintctl watch --once --json: a flag set from NMI context, latency. */
static void watch_latency(const char *taintctl)
{
	char line[4096], cmd[32], want[16], stat_path[64], st[512];
	double t0, t1 = 0;
	size_t len = 0;
	int pfd[2], status = -1, bit = clear_flag(), i;
	bool line_ok;
	pid_t pid;
	FILE *f;

	if (access(taintctl, X_OK) || bit < 0) {
		tap_ok(false, "taintctl watch: %s", bit < 0 ? "no clear flag left" :
		       "taintctl is not in the guest");
		tap_ok(false, "taintctl watch: exit status");
		return;
	}
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
	snprintf(cmd, sizeof(cmd), "nmi %d", bit);
	t0 = now_s();
	if (write_file(P_SET, cmd))
		diag("writing \"%s\" to %s failed", cmd, P_SET);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, 3000) <= 0)
			break;
		r = read(pfd[0], line + len, sizeof(line) - 1 - len);
		if (r <= 0)
			break;
		len += r;
		if (memchr(line, '\n', len)) {
			t1 = now_s();
			break;
		}
	}
	line[len] = '\0';
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	close(pfd[0]);
	snprintf(want, sizeof(want), "\"new\":\"%c\"", letter(bit));
	line_ok = t1 > 0 && strstr(line, want) &&
		  strstr(line, "\"origin\":\"kernel\"") &&
		  strstr(line, "\"module\":\"ut_taint\"");
	tap_ok(line_ok && t1 - t0 < WATCH_MAX_S,
	       "taintctl watch printed %c set from NMI context %.1f ms after the write began (bound %.0f ms)",
	       letter(bit), t1 > 0 ? (t1 - t0) * 1000 : -1, WATCH_MAX_S * 1000);
	if (!line_ok)
		diag("watch printed: %s", line);
	else
		diag("watch printed: %.*s", (int)strcspn(line, "\n"), line);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "taintctl watch --once exited 0 after its event (status %#x)",
	       status);
}

int main(int argc, char **argv)
{
	const char *taintctl = "/usr/bin/taintctl";
	char reason[64];
	short rev[2];
	int n, opt;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't') {
			fprintf(stderr, "usage: taint_notify [-t TAINTCTL]\n");
			return 2;
		}
		taintctl = optarg;
	}
	tap_plan(17);
	if (open_files()) {
		tap_ok(false, "open %s and %s: %s", P_TAINTED, P_LOG,
		       strerror(errno));
		return tap_exit();
	}

	n = poll_both(0, rev);
	tap_ok(n == 0 && none_signalled(rev),
	       "files opened and not changed since: no POLLPRI (poll()=%d, revents %#x %#x)",
	       n, rev[0], rev[1]);

	snprintf(reason, sizeof(reason), "taint_notify: poll test %d", getpid());
	wake_on("a taint_reason write", P_REASON, reason);
	quiet_after("the taint_reason write");

	noop_write_wakes_no_one();
	snprintf(reason, sizeof(reason), "taint_notify: again %d", getpid());
	wake_on_files("a taint_reason write while U is set", P_REASON, reason, true);
	quiet_after("the second taint_reason write");
	kernel_set_wakes("task");
	kernel_set_wakes("irq");
	kernel_set_wakes("nmi");
	watch_latency(taintctl);
	return tap_exit();
}
