/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * field_internal.h - helpers shared by field.c and scanner.c (not installed).
 */
#ifndef TAINT_FIELD_INTERNAL_H
#define TAINT_FIELD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct taint_field;

/* Both markers contain this: "Tainted:" and "Not tainted". */
#define TAINT_NEEDLE "ainted"
#define TAINT_NEEDLE_LEN 6

/*
 * taint__marker_at() - given the offset @a of TAINT_NEEDLE in @buf (@len
 * bytes, everything before @a readable), return the offset where a valid
 * "Tainted:" or "Not tainted" marker starts, or -1 if this occurrence is
 * not a report field (glued to a word, quoted as prose, or incomplete).
 */
long taint__marker_at(const char *buf, size_t len, size_t a);

/*
 * taint__parse_field() - taint_parse_field(), for a stream: with @more set,
 * data after @len may still come, and -EAGAIN is returned when it could
 * change the result (the marker's line is not complete, or a verbose list
 * ends in ',' and its next line is not complete).
 */
int taint__parse_field(const char *s, size_t len, struct taint_field *f,
		       bool more);

#endif
