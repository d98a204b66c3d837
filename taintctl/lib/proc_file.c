// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc_file.c - the files of a procfs root, under proc.c and sos.c, which
 * both read them: where one is (taint_proc_path()), and the whole of a
 * small file read into memory (taint__read_file(), also log_object.c's
 * reader of a saved log).  A copy (--root, a sosreport) that went through
 * a Windows tool is read as its UTF-8 would be: a UTF-8 byte order mark
 * dropped, UTF-16 transcoded (encoding.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encoding_internal.h"
#include "log_internal.h"
#include "taint.h"

int taint_proc_path(const char *proc_root, const char *name, char *buf,
		    size_t size)
{
	int n = snprintf(buf, size, "%s/sys/kernel/%s",
			 proc_root ? proc_root : TAINT_LIVE_ROOT "/proc", name);

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int taint__proc_top(const char *proc_root, size_t *top_len)
{
	size_t len = strlen(proc_root);

	while (len > 1 && proc_root[len - 1] == '/')
		len--;
	if (len < 4 || strncmp(proc_root + len - 4, "proc", 4) ||
	    (len > 4 && proc_root[len - 5] != '/'))
		return -ENOENT;
	*top_len = len - 4;
	return 0;
}

int taint_record_log_path(const char *proc_root, char *buf, size_t size)
{
	size_t len;
	int n;

	if (!proc_root)
		n = snprintf(buf, size, "%s", TAINT_LIVE_ROOT TAINT_RECORD_LOG);
	else if (taint__proc_top(proc_root, &len))
		return -ENOENT;
	else
		n = snprintf(buf, size, "%.*s%s", (int)len, proc_root,
			     &TAINT_RECORD_LOG[1]);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* @buf (@len bytes and a NUL) as UTF-8: a byte order mark dropped, UTF-16
 * transcoded into a new buffer; 0 or -ENOMEM */
static int as_utf8(char **buf, size_t *len)
{
	size_t bom, ip, op = 0, cap;
	bool undecided;
	enum taint__encoding e = taint__encoding_detect(*buf, *len, &bom,
							&undecided);
	char *out;

	if (e == TAINT__ENC_UTF8_BOM) {
		memmove(*buf, *buf + bom, *len - bom + 1);
		*len -= bom;
		return 0;
	}
	if (e != TAINT__ENC_UTF16LE && e != TAINT__ENC_UTF16BE)
		return 0;
	/* a code unit is at most 3 bytes of UTF-8, a pair 4, an odd byte 3 */
	cap = *len / 2 * 3 + 3;
	out = malloc(cap + 1);
	if (!out)
		return -ENOMEM;
	ip = bom;
	taint__utf16_decode(e == TAINT__ENC_UTF16BE, (unsigned char *)*buf,
			    *len, &ip, out, cap, &op, true);
	out[op] = '\0';
	free(*buf);
	*buf = out;
	*len = op;
	return 0;
}

int taint__read_file(const char *path, size_t max, char **out,
		     size_t *out_len)
{
	size_t cap = 4096, len = 0;
	char *buf;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *nb;

			if (cap >= max) {
				err = -EFBIG;
				break;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!err) {
		buf[len] = '\0';
		err = as_utf8(&buf, &len);
	}
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*out_len = len;
	return 0;
}
