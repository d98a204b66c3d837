// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * log_sources.c - struct taint_log from a descriptor (plain or compressed
 * text, source.c).  Apart from log_object.c so that a static program that
 * reads logs from text, a file or /proc (guest/reliability's, linked with
 * libtaint.a) does not pull in the decompressors and their libraries; for
 * the same reason taint_log_new_from_vmcore() is vmcore.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_internal.h"
#include "source_internal.h"
#include "taint.h"

int taint_log_new_from_fd(int fd, struct taint_log **logp, char *why,
			  size_t why_size)
{
	struct taint__source src;
	size_t cap = 1u << 16, len = 0;
	char *buf = malloc(cap + 1), *nb;
	ssize_t n;
	int ret;

	*logp = NULL;
	if (why_size)
		why[0] = '\0';
	if (!buf)
		return -ENOMEM;
	ret = taint__source_open(&src, fd, false, NULL, 0, buf, cap, &len);
	while (!ret) {
		if (len == cap) {
			if (cap >= TAINT__LOG_MAX) {
				/* full: one byte more is too much */
				char c;

				n = taint__source_read(&src, &c, 1, true);
				ret = n > 0 ? -EFBIG : (int)n;
				break;
			}
			nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = taint__source_read(&src, buf + len, cap - len, true);
		if (n <= 0) {
			ret = (int)n;
			break;
		}
		len += (size_t)n;
	}
	if (ret && src.error && why_size)
		snprintf(why, why_size, "%s", src.error);
	taint__source_close(&src);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	ret = taint_log_new_from_text(buf, len, logp);
	free(buf);
	return ret;
}
