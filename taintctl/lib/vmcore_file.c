// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_file.c - the bottom of the crash dump reader, under every
 * format's (vmcore_flat.c, vmcore_elf.c, vmcore_diskdump.c) and whatever
 * the format: reads at an offset of the file, and the reason a dump
 * cannot be read (vmcore_fail(), the first one given).
 *
 * The file is read with pread(), never mapped or read whole: a dump is as
 * large as the machine's memory.
 */
#define _FILE_OFFSET_BITS 64	/* dumps are as large as memory */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "vmcore_internal.h"

int vmcore_fail(struct vmcore *vc, int err, const char *fmt, ...)
{
	va_list ap;

	if (vc->why_size && !vc->why[0]) {
		va_start(ap, fmt);
		vsnprintf(vc->why, vc->why_size, fmt, ap);
		va_end(ap);
	}
	return err;
}

int vmcore_raw_read(struct vmcore *vc, uint64_t off, void *buf, size_t len)
{
	unsigned char *p = buf;

	if (off > vc->raw_size || len > vc->raw_size - off)
		return -ENODATA;
	while (len) {
		ssize_t n = pread(vc->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;	/* the file shrank */
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int vmcore_truncated(struct vmcore *vc, const char *what)
{
	return vmcore_fail(vc, -EBADMSG,
			   "the file is truncated (%llu bytes): %s is not in it",
			   (unsigned long long)vc->file_size, what);
}

int vmcore_fault(struct vmcore *vc, int kind, int err, const char *fmt, ...)
{
	va_list ap;

	if (vc->why_size && !vc->why[0]) {
		va_start(ap, fmt);
		vsnprintf(vc->why, vc->why_size, fmt, ap);
		va_end(ap);
		vc->fault = kind;
	} else if (!vc->fault) {
		vc->fault = kind;
	}
	return err;
}
