// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmcore_log.c - `log --vmcore FILE`: the taint log of a kernel crash dump
 * as text (libtaint's taint_vmcore_read_log()), which events.c parses and
 * prints as it does the running kernel's /proc/sys/kernel/taint_log.
 */
#define _FILE_OFFSET_BITS 64	/* dumps are as large as memory */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int vmcore_log_text(const char *path, char **buf, size_t *len)
{
	char why[320];
	/* O_NONBLOCK: a FIFO is refused at once (not a file), not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;

	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	ret = taint_vmcore_read_log(fd, buf, len, why, sizeof(why));
	close(fd);
	switch (ret) {
	case 0:
		return EXIT_OK;
	case -ENOENT:
	case -ENOTSUP:
	case -EBADMSG:
		cli_error("cannot read the taint log of '%s': %s",
			  cli_quote(path), why);
		return EXIT_VMCORE;
	default:
		cli_error("cannot read '%s': %s", cli_quote(path),
			  strerror(-ret));
		return EXIT_SYSTEM;
	}
}
