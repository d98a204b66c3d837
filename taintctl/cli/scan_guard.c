// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scan_guard.c - taint_scan_fd_opts() for the CLI, safe against a file
 * that shrinks while it is mapped.
 *
 * libtaint maps a regular file of plain data (mmap()).  When another
 * process truncates the file during the scan (logrotate's copytruncate
 * does, on the logs this tool reads), reading the pages past the new end
 * raises SIGBUS, which would kill taintctl with the hits found so far
 * still in stdout's buffer.  The guard catches that SIGBUS while the scan
 * runs and jumps back here: the caller reports the file as changed while
 * it was read (exit 3), after the hits already found, and goes on with
 * the next file.  The scanner's buffer and the mapping of that one file
 * are not freed (the jump leaves the library's frames), which a command
 * that ends soon can afford.  Any other SIGBUS (outside a guarded scan)
 * keeps its default action.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "cli.h"

static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_armed;

static void on_sigbus(int sig)
{
	if (guard_armed) {
		guard_armed = 0;
		siglongjmp(guard_env, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int cli_scan_fd(int fd, const struct taint_scan_opts *so,
		struct taint_scan_info *info, bool *shrank)
{
	struct sigaction sa, old;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	*shrank = false;
	if (sigaction(SIGBUS, &sa, &old))
		return taint_scan_fd_opts(fd, so, info);
	if (sigsetjmp(guard_env, 1)) {
		*shrank = true;
		ret = -EIO;
	} else {
		guard_armed = 1;
		ret = taint_scan_fd_opts(fd, so, info);
		guard_armed = 0;
	}
	sigaction(SIGBUS, &old, NULL);
	return ret;
}
