// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_record.c - `taintctl record`: on a stock kernel, record who sets
 * each taint flag, with a BPF program on the kernel's taint entry points
 * (record.h), into a log in the kernel's taint_log format
 * (TAINT_RECORD_LOG, --output FILE), which log, status, check --since,
 * cursor, watch and metrics read where the kernel keeps no log.
 *
 * Before anything is loaded: a kernel with its own taint log (patched)
 * is the source, so record says so and exits 0; a kernel without BTF
 * (/sys/kernel/btf/vmlinux) cannot take the CO-RE program: EXIT_NORECORD.
 * With --root, only those checks run: record records the running kernel,
 * never a tree.  Runs until SIGTERM or SIGINT.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

static const struct option record_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void set_clock(struct recorder *r)
{
	r->realtime_off_ns = (int64_t)(clock_ns(CLOCK_REALTIME) -
				       clock_ns(CLOCK_MONOTONIC));
}

/* systemd's readiness protocol (Type=notify), without libsystemd: @msg to
 * $NOTIFY_SOCKET if there is one */
static void notify(const char *msg)
{
	const char *p = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	int fd;

	if (!p || (p[0] != '/' && p[0] != '@'))
		return;
	len = strlen(p);
	if (len >= sizeof(sa.sun_path))
		return;
	memcpy(sa.sun_path, p, len);
	if (p[0] == '@')
		sa.sun_path[0] = '\0';	/* an abstract socket */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	(void)sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa,
		     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len));
	close(fd);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* the kernel's own log (/proc/taint_log, or v3's /proc/sys/kernel/
 * taint_log) into @path: true if it has one */
static bool kernel_has_log(char *path, size_t size)
{
	snprintf(path, size, "%s/taint_log", cli.proc_root);
	if (exists(path))
		return true;
	taint_proc_path(cli.proc_root, "taint_log", path, size);
	return exists(path);
}

/* the parent directory of the default log (a tmpfs under /run: gone at
 * each boot) */
static int make_dir(const char *path)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static void on_rec(const struct taint_rec *e, void *arg)
{
	rec_event(arg, e);
}

/* @lfd (mark's reasons) readable: take one */
static void take_reason(struct recorder *r, int lfd)
{
	char reason[TAINT_REASON_MAX + 1];
	uint32_t pid;
	int ret = rec_reason_accept(lfd, &pid, reason);

	if (!ret)
		rec_reason(r, pid, reason, clock_ns(CLOCK_MONOTONIC));
	else if (ret != -EAGAIN && ret != -EINTR)
		cli_warn("a reason refused: %s", strerror(-ret));
}

static int record_loop(struct recorder *r, struct rec_bpf *b, int lfd)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop && !r->error) {
		struct pollfd p[2] = {
			{ .fd = rec_bpf_fd(b), .events = POLLIN },
			{ .fd = lfd, .events = POLLIN },
		};
		int n;

		set_clock(r);
		if (poll(p, 2, 1000) > 0 && (p[1].revents & POLLIN))
			take_reason(r, lfd);
		n = rec_bpf_poll(b, 0, on_rec, r);
		if (n < 0 && n != -EINTR) {
			cli_error("reading the ring buffer: %s", strerror(-n));
			return EXIT_SYSTEM;
		}
		rec_lost(r, rec_bpf_lost(b), clock_ns(CLOCK_MONOTONIC));
		rec_flush(r, clock_ns(CLOCK_MONOTONIC), false);
	}
	rec_flush(r, 0, true);
	return EXIT_OK;
}

static int record_run(int argc, char **argv)
{
	const char *output = TAINT_LIVE_ROOT TAINT_RECORD_LOG, *mode;
	struct recorder r = { .fd = -1 };
	struct rec_syms syms;
	struct rec_bpf *b;
	struct utsname u;
	char path[4096], why[256];
	bool restarted, have_syms;
	char *slash;
	uint64_t mask;
	int c, ret, rc, lfd;

	while ((c = cli_getopt(argc, argv, &cmd_record)) != -1) {
		if (c == 'o')
			output = optarg;
		else
			return EXIT_USAGE;
	}
	if (cli_no_operand(argc, argv, &cmd_record))
		return EXIT_USAGE;
	if (cli.json) {
		cli_error("record does not support --json");
		return EXIT_USAGE;
	}
	if (!cli.proc_root) {
		cli_error("--root: path too long");
		return EXIT_USAGE;
	}
	if (kernel_has_log(path, sizeof(path))) {
		printf("This kernel keeps its own taint log ('%s'): taintctl log reads it; nothing to record.\n",
		       path);
		notify("READY=1\nSTATUS=the kernel keeps its own taint log");
		return EXIT_OK;
	}
	snprintf(path, sizeof(path), "%s/kernel/btf/vmlinux", cli.sys_root);
	if (!exists(path)) {
		cli_error("cannot record: this kernel has no BTF ('%s' does not exist); taintctl status shows the mask",
			  path);
		notify("READY=1\nSTATUS=no BTF: cannot record");
		return EXIT_NORECORD;
	}
	if (cli.root) {
		cli_error("record records the running kernel, not a tree under --root");
		return EXIT_USAGE;
	}

	rc = read_kernel_mask(&mask);
	if (rc)
		return rc;
	ret = rec_bpf_open(&b, mask, &mode, why, sizeof(why));
	if (ret) {
		cli_error("cannot record: %s", why);
		notify("READY=1\nSTATUS=cannot record");
		return ret == -EPERM || ret == -EACCES ? EXIT_SYSTEM : EXIT_NORECORD;
	}
	have_syms = !rec_syms_load(&syms, TAINT_LIVE_ROOT "/proc/kallsyms");
	if (!have_syms)
		cli_warn("cannot read kernel symbols ('/proc/kallsyms', needs CAP_SYSLOG): events have no caller=");
	if (!strcmp(output, TAINT_LIVE_ROOT TAINT_RECORD_LOG))
		make_dir(output);
	r.fd = rec_open_log(output, &restarted);
	if (r.fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(output),
			  strerror(-r.fd));
		rc = EXIT_SYSTEM;
		goto out;
	}
	r.syms = have_syms ? &syms : NULL;
	r.syms_path = TAINT_LIVE_ROOT "/proc/kallsyms";
	set_clock(&r);
	if (uname(&u))
		strcpy(u.release, "");
	/* the mask again, after attaching: a flag set in between is
	 * "before recording", never an event missed without a word */
	read_kernel_mask(&mask);
	if (rec_start(&r, restarted, clock_ns(CLOCK_MONOTONIC), u.release,
		      mask)) {
		cli_error("cannot write '%s': %s", cli_quote(output),
			  strerror(r.error));
		rc = EXIT_SYSTEM;
		goto out;
	}
	/* mark's reasons: a socket beside the log */
	snprintf(path, sizeof(path), "%s", output);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path,
		 sizeof(path) - (size_t)(slash ? slash + 1 - path : 0), "%s",
		 REC_REASON_SOCK);
	lfd = rec_reason_listen(path);
	if (lfd < 0)
		cli_warn("cannot listen on '%s': %s (taintctl mark's reasons are not recorded)",
			 cli_quote(path), strerror(-lfd));
	fprintf(stderr, "taintctl: recording to '%s' (%s)\n", output, mode);
	notify("READY=1\nSTATUS=recording");
	rc = record_loop(&r, b, lfd);
	if (lfd >= 0) {
		close(lfd);
		unlink(path);
	}
	if (!rc && r.error) {
		cli_error("cannot write '%s': %s", cli_quote(output),
			  strerror(r.error));
		rc = EXIT_SYSTEM;
	}
out:
	if (r.fd >= 0)
		close(r.fd);
	if (have_syms)
		rec_syms_free(&syms);
	rec_bpf_close(b);
	return rc;
}

const struct taintctl_cmd cmd_record = {
	.name = "record",
	.run = record_run,
	.options = record_options,
	.shortopts = "o:",
	.usage =
"Usage:\n"
" taintctl [options] record [--output FILE]\n"
"\n"
"On a stock kernel, record who sets each taint flag: a BPF program on the\n"
"kernel's taint entry points (add_taint(), the tainted sysctl, the module\n"
"loader) writes each flag's first set since recording began, and every\n"
"write to /proc/sys/kernel/tainted, as lines of the kernel's taint log to\n"
TAINT_RECORD_LOG ", which log, status, check --since, cursor, watch and\n"
"metrics read where the kernel keeps no log.  Flags set before recording\n"
"began are shown as such; lost events and restarts are noted in the log.\n"
"Needs CAP_BPF, CAP_PERFMON (and CAP_SYSLOG for caller=).  Runs until\n"
"SIGTERM or SIGINT.  On a kernel with its own taint log it says so and\n"
"exits 0.  With --root, only these checks run.\n"
"\n"
"Options:\n",
	.json = false,
	.root = true,
	.usage_options =
" -o, --output FILE  append to FILE instead of " TAINT_RECORD_LOG "\n",
	.usage_exit =
"\n"
"Exit status: 0 stopped by SIGTERM or SIGINT, or the kernel keeps its own\n"
"taint log; 2 usage error; 3 permission or system error (the log cannot be\n"
"written); 11 this kernel or this taintctl cannot record (no BTF, built\n"
"without BPF support, the program was refused).\n"
"\n"
"For more details see taintctl(1).\n",
};
