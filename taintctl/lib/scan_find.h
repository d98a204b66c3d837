/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scan_find.h - the scanner's one pass over the bytes (scan_find.c): find
 * the next place a marker may start and count the newlines before it.
 * Not installed.
 */
#ifndef TAINT_SCAN_FIND_H
#define TAINT_SCAN_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A candidate is a position i where the bytes read "aint" ("Tainted:",
 * "Not tainted", "Taint X: "), or, with @boots, "Linux version " or "-- "
 * followed by "Boot " or "Reboot --" (journalctl's separator).  Bytes
 * needed to tell are never read past @avail; a position too close to
 * @avail to tell is returned too (the caller checks it).
 *
 * taint__scan_find_fn: the first candidate i < @n in @p (@avail >= @n
 * bytes readable there), or @n if there is none; *@nl is set to the
 * number of '\n' in p[0..returned offset).
 */
typedef size_t (*taint__scan_find_fn)(const char *p, size_t n, size_t avail,
				      uint64_t *nl);

/* The fastest finder this CPU runs (AVX2, SSE2 or portable C). */
taint__scan_find_fn taint__scan_finder(bool boots);

/* Each version by name, for the tests ("avx2", "sse2", "c"); NULL if the
 * CPU or the build has no such version. */
taint__scan_find_fn taint__scan_finder_named(const char *name, bool boots);

/* The number of '\n' in @n bytes at @p. */
uint64_t taint__count_newlines(const char *p, size_t n);

#endif
