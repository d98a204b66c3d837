/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * log_internal.h - the taint_log line format shared by log.c (the parser
 * and the formatter, driven by one table of the line's fields) and
 * vmcore.c (which writes the lines a dumped kernel would have shown).
 * Not installed.
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

#endif
