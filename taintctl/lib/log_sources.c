// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * log_sources.c - struct taint_log from a descriptor (plain or compressed
 * text, UTF-16 too: taint_read_text(), source.c).  Apart from
 * log_object.c so that a static program that
 * reads logs from text, a file or /proc (guest/reliability's, linked with
 * libtaint.a) does not pull in the decompressors and their libraries; for
 * the same reason taint_log_new_from_vmcore() is vmcore.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_internal.h"
#include "taint.h"

int taint_log_new_from_fd(int fd, struct taint_log **logp, char *why,
			  size_t why_size)
{
	size_t len;
	char *buf;
	int ret;

	*logp = NULL;
	ret = taint_read_text(fd, TAINT__LOG_MAX, &buf, &len, why, why_size);
	if (ret)
		return ret;
	ret = taint_log_new_from_text(buf, len, logp);
	free(buf);
	return ret;
}
