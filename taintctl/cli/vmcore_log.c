// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmcore_log.c - `log --vmcore FILE`: the taint log of a kernel crash dump
 * (libtaint's taint_log_new_from_vmcore()), which taint_state.c reports
 * and the commands print as they do the running kernel's.
 */
#define _FILE_OFFSET_BITS 64	/* dumps are as large as memory */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int vmcore_log_open(const char *path, struct taint_log **log)
{
	char why[320];
	/* O_NONBLOCK: a FIFO is refused at once (not a file), not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;

	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	ret = taint_log_new_from_vmcore(fd, log, why, sizeof(why));
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
