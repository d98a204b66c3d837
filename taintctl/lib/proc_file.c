// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc_file.c - the files of a procfs root, under proc.c and sos.c, which
 * both read them: where one is (taint_proc_path()), and the whole of a
 * small file read into memory (taint__read_file(), also log_object.c's
 * reader of a saved log).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}
