// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * messages.c - util-linux style one-line diagnostics.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A command reported a write error itself: cli_close_stdout() says no more. */
static bool write_error_reported;

/* a printf-like wrapper: the format checks of cli_error()'s callers hold here */
static __attribute__((format(printf, 2, 0)))
void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	if (strncmp(fmt, "write error", 11) == 0)
		write_error_reported = true;
	fflush(stdout);
	fprintf(stderr, "taintctl: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

const char *cli_quote(const char *s)
{
	static char buf[512];
	size_t len = strlen(s);

	if (taint_escape(s, len, buf, sizeof(buf)) >= sizeof(buf))
		strcpy(buf + sizeof(buf) - 4, "...");
	return buf;
}

char *cli_join(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/*
 * The reader of standard output went away (`taintctl scan | head -1`):
 * a write failed with EPIPE (SIGPIPE is ignored, main.c), or, when that
 * errno is gone (a stdio write failed earlier), standard output is a pipe
 * or FIFO without a reader left (poll() says POLLERR).
 */
static bool reader_gone(int err)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	struct stat st;

	if (err == EPIPE)
		return true;
	return !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode) &&
	       poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

bool cli_stdout_gone(void)
{
	return ferror(stdout) && reader_gone(0);
}

int cli_write_error(int err)
{
	if (reader_gone(err))
		return EXIT_OK;
	cli_error("write error: %s", strerror(err ? err : EIO));
	return EXIT_SYSTEM;
}

/*
 * As util-linux's close_stdout(): run at exit, so that output lost to a full
 * disk or a closed descriptor is an error and not a silent exit 0.  A reader
 * that went away (EPIPE, `taintctl ... | head`) is not an error: nothing is
 * said and the exit status is the command's.
 */
void cli_close_stdout(void)
{
	bool pending = __fpending(stdout) != 0;
	bool failed = ferror(stdout) != 0;
	/* asked before fclose(): it looks at the descriptor */
	bool gone = reader_gone(0);
	int err = 0;

	if (fclose(stdout) != 0) {
		err = errno;
		if (pending || err != EBADF)
			failed = true;
	}
	if (failed && !gone && err != EPIPE) {
		/* not cli_error(): it flushes stdout, which is closed now */
		if (!write_error_reported) {
			if (err)
				fprintf(stderr, "taintctl: write error: %s\n",
					strerror(err));
			else
				fputs("taintctl: write error\n", stderr);
		}
		_exit(EXIT_SYSTEM);
	}
	if (fflush(stderr) != 0)
		_exit(EXIT_SYSTEM);
}
