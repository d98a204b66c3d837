// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sos.c - the taint log of a sosreport, which has no copy of
 * /proc/sys/kernel/taint_log.
 *
 * sos 4.4's kernel plugin (Debian bookworm) copies proc/sys/kernel/tainted
 * and sys/module/<name>/taint, but not taint_log; it does run `sysctl -a`
 * (as root) into sos_commands/kernel/sysctl_-a.  procps' sysctl reads each
 * file with fgets() into a 1024-byte buffer and prints every piece as
 * "NAME = PIECE" (the piece keeps its newline; one is added to a last piece
 * without), so the log is there, one "kernel.taint_log = <line>" per line,
 * in order, with the other keys around it.  A taint_log line is far shorter
 * than 1023 bytes (docs/abi.md 1.3), so a piece is a whole line; a piece
 * that is not is left to the parser's malformed-line handling, never
 * joined to the next.  An empty file prints nothing: a kernel whose log is
 * empty leaves no line, the same as a stock kernel.
 *
 * Only under an explicit root that is not a mounted procfs: the running
 * system's log is always its /proc's.
 *
 * Where neither has a log (a stock kernel), the log of `taintctl record`
 * (record.c) is read: TAINT_RECORD_LOG, or DIR/run/taintctl/taint_log
 * under --root DIR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#include "grow.h"
#include "log_internal.h"
#include "taint.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* sysctl -a's output of a large machine (many network interfaces) stays
 * well below this; a bigger file is no sysctl_-a */
#define SYSCTL_MAX	(64u << 20)

int taint__sos_sysctl_path(const char *proc_root, char *buf, size_t size)
{
	size_t len;
	struct statfs sfs;
	int n;

	if (!proc_root || !strcmp(proc_root, TAINT_LIVE_ROOT "/proc"))
		return -ENOENT;
	/* "<top>/proc": the top directory is the sosreport's */
	if (taint__proc_top(proc_root, &len))
		return -ENOENT;
	if (!statfs(proc_root, &sfs) && sfs.f_type == PROC_SUPER_MAGIC)
		return -ENOENT;
	/* len: of "top/", or 0 (a relative "proc") */
	n = snprintf(buf, size, "%.*s%ssos_commands/kernel/sysctl_-a",
		     (int)len, proc_root, len ? "" : "./");
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int taint__sysctl_values(const char *buf, size_t len, const char *key,
			 char **text, size_t *text_len, unsigned int **lines)
{
	size_t klen = strlen(key), out_len = 0, n = 0, cap = 0, i = 0;
	unsigned int lineno = 0, *map = NULL;
	char *out;

	*text = NULL;
	*text_len = 0;
	if (lines)
		*lines = NULL;
	out = malloc(len + 1);
	if (!out)
		return -ENOMEM;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;
		const char *line = buf + i;
		size_t llen = end - i;

		lineno++;
		i = end;
		if (llen < klen + 3 || memcmp(line, key, klen) ||
		    memcmp(line + klen, " = ", 3))
			continue;
		if (out_len + llen - klen - 3 > TAINT__LOG_MAX) {
			free(map);
			free(out);
			return -EFBIG;
		}
		if (lines) {
			unsigned int *m = taint__grow(map, n, &cap, sizeof(*m),
						      64);

			if (!m) {
				free(map);
				free(out);
				return -ENOMEM;
			}
			map = m;
		}
		if (lines)
			map[n] = lineno;
		n++;
		memcpy(out + out_len, line + klen + 3, llen - klen - 3);
		out_len += llen - klen - 3;
	}
	if (!n) {
		free(out);
		return -ENOENT;
	}
	out[out_len] = '\0';
	*text = out;
	*text_len = out_len;
	if (lines)
		*lines = map;
	return 0;
}

/* the kernel's own log: its proc file, or a sosreport's copy */
static int kernel_log(const char *proc_root, char **buf, size_t *len,
		      unsigned int **lines, char path[TAINT__PATH_MAX])
{
	char sos[TAINT__PATH_MAX], *all;
	size_t all_len;
	int ret;

	if (lines)
		*lines = NULL;
	ret = taint_proc_path(proc_root, "taint_log", path, TAINT__PATH_MAX);
	if (ret)
		return ret;
	ret = taint__read_file(path, TAINT__LOG_MAX, buf, len);
	if (ret != -ENOENT)
		return ret;
	ret = taint__sos_sysctl_path(proc_root, sos, sizeof(sos));
	if (ret)
		return ret;
	ret = taint__read_file(sos, SYSCTL_MAX, &all, &all_len);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return -ENOENT;		/* not a sosreport: no log */
	if (!ret) {
		/* none of its lines: a stock kernel's (or an empty log) */
		ret = taint__sysctl_values(all, all_len, "kernel.taint_log",
					   buf, len, lines);
		free(all);
		if (ret == -ENOENT)
			return ret;
	}
	strcpy(path, sos);
	return ret;
}

/* a stock kernel's: the recorder's log (record.c), if one runs or ran
 * this boot (/run is a tmpfs) */
int taint__read_log(const char *proc_root, char **buf, size_t *len,
		    unsigned int **lines, char path[TAINT__PATH_MAX])
{
	char rec[TAINT__PATH_MAX];
	int ret = kernel_log(proc_root, buf, len, lines, path);

	if (ret != -ENOENT)
		return ret;
	if (taint_record_log_path(proc_root, rec, sizeof(rec)))
		return -ENOENT;
	ret = taint__read_file(rec, TAINT__LOG_MAX, buf, len);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return -ENOENT;
	if (lines)
		*lines = NULL;
	strcpy(path, rec);
	return ret;
}

int taint_read_log_path(const char *proc_root, char *buf, size_t size)
{
	char path[TAINT__PATH_MAX], *text;
	size_t len;
	int ret;

	ret = taint__read_log(proc_root, &text, &len, NULL, path);
	if (ret == -ENAMETOOLONG)
		return ret;
	if (!ret)
		free(text);
	if (strlen(path) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, path);
	return 0;
}
