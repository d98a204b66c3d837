// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc.c - read and set the running kernel's taint through procfs, and
 * read the loaded modules' taint through sysfs.
 *
 * Every function takes the procfs (or sysfs) root, so tests, and copies of
 * /proc and /sys such as a sosreport, are read instead of the machine's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "log_internal.h"
#include "taint.h"

int taint_read_mask(const char *proc_root, uint64_t *mask)
{
	char path[4096];
	char *buf;
	size_t len;
	int ret;

	ret = taint_proc_path(proc_root, "tainted", path, sizeof(path));
	if (ret)
		return ret;
	ret = taint__read_file(path, 4096, &buf, &len);
	if (ret)
		return ret;
	/* a copy (--root) may have been through an editor or Windows */
	ret = taint_parse_saved_mask(buf, len, mask);
	free(buf);
	return ret;
}

/* under a sosreport's proc root, from its sysctl_-a (sos.c) */
int taint_read_log(const char *proc_root, char **buf, size_t *len)
{
	char path[TAINT__PATH_MAX];

	return taint__read_log(proc_root, buf, len, NULL, path);
}

int taint_validate_reason(const char *reason, size_t len, size_t *bad_at)
{
	if (len == 0)
		return -EINVAL;
	if (len > TAINT_REASON_MAX)
		return -E2BIG;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)reason[i];

		if (c < 0x20 || c > 0x7e) {
			if (bad_at)
				*bad_at = i;
			return -EINVAL;
		}
	}
	return 0;
}

/* One write() of @len bytes at offset 0; a short write is an error. */
static int write_once(const char *path, const char *data, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = write(fd, data, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static void copy_path(char *dst, size_t size, const char *src)
{
	if (size)
		snprintf(dst, size, "%s", src);
}

int taint_mark(const char *proc_root, const char *reason, bool *fell_back,
	       char *failed_path, size_t failed_size)
{
	char path[4096];
	int ret;

	*fell_back = false;
	ret = taint_validate_reason(reason, strlen(reason), NULL);
	if (ret)
		return ret;
	ret = taint_proc_path(proc_root, "taint_reason", path, sizeof(path));
	if (ret)
		return ret;
	ret = write_once(path, reason, strlen(reason));
	if (ret != -ENOENT) {
		if (ret)
			copy_path(failed_path, failed_size, path);
		return ret;
	}
	*fell_back = true;
	ret = taint_proc_path(proc_root, "tainted", path, sizeof(path));
	if (ret)
		return ret;
	ret = write_once(path, "64", 2);
	if (ret)
		copy_path(failed_path, failed_size, path);
	return ret;
}

static int module_cmp(const void *a, const void *b)
{
	return strcmp(((const struct taint_module *)a)->name,
		      ((const struct taint_module *)b)->name);
}

/* Read <dir>/<name>/taint into @m; 0 if it names some taint, 1 if empty. */
static int read_module(const char *dir, const char *name,
		       struct taint_module *m)
{
	char path[4096];
	size_t len, n;
	char *buf;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/taint", dir, name) >=
	    sizeof(path) || strlen(name) >= sizeof(m->name))
		return -ENAMETOOLONG;
	ret = taint__read_file(path, 4096, &buf, &len);
	if (ret)
		return ret;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
		       buf[len - 1] == ' '))
		len--;
	n = len < sizeof(m->taint) - 1 ? len : sizeof(m->taint) - 1;
	memcpy(m->taint, buf, n);
	m->taint[n] = '\0';
	free(buf);
	strcpy(m->name, name);
	m->mask = 0;
	for (size_t i = 0; i < n; i++) {
		const struct taint_flag_info *fi =
			taint_flag_by_letter(m->taint[i]);

		if (fi)
			m->mask |= UINT64_C(1) << fi->bit;
	}
	return len ? 0 : 1;
}

int taint_read_modules(const char *sys_root, struct taint_module **mods,
		       size_t *count)
{
	struct taint_module *v = NULL, *nv;
	size_t n = 0, cap = 0;
	char dir[4096];
	struct dirent *de;
	DIR *d;

	*mods = NULL;
	*count = 0;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/module",
			     sys_root ? sys_root : TAINT_LIVE_ROOT "/sys") >= sizeof(dir))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		nv = taint__grow(v, n, &cap, sizeof(*v), 16);
		if (!nv) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		/* no taint file (built in), unreadable, or no taint: skip */
		if (read_module(dir, de->d_name, &v[n]) == 0)
			n++;
	}
	closedir(d);
	if (!n) {
		free(v);
		return 0;
	}
	qsort(v, n, sizeof(*v), module_cmp);
	*mods = v;
	*count = n;
	return 0;
}
