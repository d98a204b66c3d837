/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * log_internal.h - the taint_log line format shared by log.c (the parser
 * and the formatter, driven by one table of the line's fields) and
 * vmcore.c (which writes the lines a dumped kernel would have shown); the
 * file reader of proc.c and log_object.c.  Not installed.
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

/* The largest taint log text read from a file (-EFBIG past it). */
#define TAINT__LOG_MAX (4u << 20)

/*
 * taint__read_file() - the whole of @path, at most @max bytes, into a
 * malloc()ed, NUL-terminated buffer (proc.c).  Returns 0, -errno of
 * open()/read(), -EFBIG or -ENOMEM.
 */
int taint__read_file(const char *path, size_t max, char **out,
		     size_t *out_len);

#endif
