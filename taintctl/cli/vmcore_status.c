// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmcore_status.c - `status --vmcore FILE`: the taint of the kernel a
 * crash dump was taken of (libtaint's taint_vmcore_read_status(): its
 * mask and its modules' taints, through its kallsyms and BTF), and its
 * taint log where it keeps one (a patched kernel), for cmd_status.c.
 * Each kind of bad dump has its exit code (cli.h, taintctl(1)).
 */
#define _FILE_OFFSET_BITS 64	/* dumps are as large as memory */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* enum taint_vmcore_fault: its exit code */
static int fault_exit(int fault)
{
	switch (fault) {
	case TAINT_VMCORE_NO_KALLSYMS:
		return EXIT_NO_KALLSYMS;
	case TAINT_VMCORE_NO_BTF:
		return EXIT_NO_BTF;
	case TAINT_VMCORE_BAD_BTF:
		return EXIT_BAD_BTF;
	case TAINT_VMCORE_NO_SYMBOL:
		return EXIT_NO_SYMBOL;
	default:
		return EXIT_VMCORE;
	}
}

int vmcore_status_read(const char *path, uint64_t *mask,
		       struct taint_module **mods, size_t *count,
		       struct event_list *ev)
{
	char why[320];
	/* O_NONBLOCK: a FIFO is refused at once (not a file), not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), fault, ret;

	memset(ev, 0, sizeof(*ev));
	*mods = NULL;
	*count = 0;
	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	ret = taint_vmcore_read_status(fd, mask, mods, count, &fault, why,
				       sizeof(why));
	if (!ret) {
		/* the taint log of a patched kernel; none on a stock one */
		ret = taint_log_new_from_vmcore(fd, &ev->log, why, sizeof(why));
		if (ret == -ENOENT) {
			ev->absent = true;
			ret = 0;
		} else if (ret == -EBADMSG || ret == -ENOTSUP) {
			cli_warn("the taint log of '%s' cannot be read: %s",
				 cli_quote(path), why);
			ev->read_error = -ret;
			ret = 0;
		}
	} else if (ret == -EBADMSG || ret == -ENOTSUP || ret == -ENOENT) {
		close(fd);
		cli_error("cannot read the taint of '%s': %s", cli_quote(path),
			  why);
		return fault_exit(fault);
	}
	close(fd);
	if (ret) {
		cli_error("cannot read '%s': %s", cli_quote(path),
			  strerror(-ret));
		free(*mods);
		*mods = NULL;
		*count = 0;
		taint_log_unref(ev->log);
		ev->log = NULL;
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}
