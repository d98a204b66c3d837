/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * log_internal.h - the taint_log line format shared by log.c (the parser
 * and the formatter, driven by one table of the line's fields) and
 * vmcore.c (which writes the lines a dumped kernel would have shown); the
 * file reader of proc.c, sos.c and log_object.c (proc_file.c); sos.c's
 * reader of a sosreport's log.  Not installed.
 */
#ifndef TAINT_LOG_INTERNAL_H
#define TAINT_LOG_INTERNAL_H

#include <stddef.h>

struct taint_event;

/* Where taint__log_format() writes: @len bytes of @s (no NUL). */
typedef void (*taint__put_fn)(void *arg, const char *s, size_t len);

/*
 * taint__log_format() - @ev as the kernel's taint_event_format() prints
 * it (format v2, docs/abi.md 1.3), without the newline: the fields of
 * log.c's table in its order, the optional ones when @ev has them,
 * escaped as the kernel escapes.  taint_log_parse_line() of the result
 * gives @ev back.
 */
void taint__log_format(const struct taint_event *ev, taint__put_fn put,
		       void *arg);

/*
 * taint__unescape_word() - @len bytes of an unquoted field (module=, the
 * recorder's kernel=) unescaped into @out (NUL-terminated, *@out_len
 * bytes): 0, -EINVAL (a bad escape, a blank or a control byte), -E2BIG.
 */
int taint__unescape_word(const char *s, size_t len, char *out, size_t size,
			 size_t *out_len);

/*
 * The recorder's notes (record.c): a line that begins with this is no
 * event and no malformed line; taint_log_parse() skips it, and
 * taint_record_parse_note() reads it.  The kernel never writes one (its
 * lines begin "ts=" or "dropped=").
 */
#define TAINT__RECORD_NOTE "# taintctl-record "

/* The largest taint log text read from a file (-EFBIG past it). */
#define TAINT__LOG_MAX (4u << 20)

/*
 * taint__proc_top() - @proc_root as "<top>/proc" (trailing slashes
 * allowed): the length of "<top>/" in *@top_len (0 for a relative
 * "proc"); -ENOENT if its last component is not "proc" (proc_file.c).
 */
int taint__proc_top(const char *proc_root, size_t *top_len);

/*
 * taint__read_file() - the whole of @path, at most @max bytes, into a
 * malloc()ed, NUL-terminated buffer (proc_file.c), as UTF-8: a UTF-8
 * byte order mark dropped, UTF-16 transcoded.  Returns 0, -errno of
 * open()/read(), -EFBIG or -ENOMEM.
 */
int taint__read_file(const char *path, size_t max, char **out,
		     size_t *out_len);

/* The longest path sos.c's readers build (PATH_MAX). */
#define TAINT__PATH_MAX 4096

/*
 * taint__sos_sysctl_path() - "<top>/sos_commands/kernel/sysctl_-a" into
 * @buf if @proc_root is "<top>/proc" of a copied tree (a sosreport): not
 * NULL, not the live /proc, not a procfs mount.  -ENOENT if it is not,
 * -ENAMETOOLONG.
 */
int taint__sos_sysctl_path(const char *proc_root, char *buf, size_t size);

/*
 * taint__sysctl_values() - the values of @key in @len bytes of `sysctl -a`
 * output (procps: one "KEY = PIECE" line per line of the file), in order,
 * "KEY = " stripped, each with its newline: a malloc()ed, NUL-terminated
 * *@text (*@text_len bytes).  With @lines, *@lines (malloc()ed) holds the
 * line number in @buf of each line of the text.  -ENOENT if no line is
 * @key's, -EFBIG past TAINT__LOG_MAX, -ENOMEM.
 */
int taint__sysctl_values(const char *buf, size_t len, const char *key,
			 char **text, size_t *text_len, unsigned int **lines);

/*
 * taint__read_log() - taint_read_log(), and in @path the file read (or the
 * proc file that does not exist).  With @lines, *@lines is NULL for a proc
 * file, and for a sosreport's sysctl_-a the line number there of each line
 * of the text (malloc()ed).
 */
int taint__read_log(const char *proc_root, char **buf, size_t *len,
		    unsigned int **lines, char path[TAINT__PATH_MAX]);

#endif
