/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * field_internal.h - helpers shared by field.c and scanner.c (not installed).
 */
#ifndef TAINT_FIELD_INTERNAL_H
#define TAINT_FIELD_INTERNAL_H

#include <stddef.h>

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

#endif
