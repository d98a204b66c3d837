/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * grow.h - an array that grows by doubling: the one helper for every
 * such array of libtaint, taintctl and its fuzz replay.  Not installed.
 * A static inline function, no symbol of the library: cli/ and fuzz/
 * include it and still use only libtaint's exported API.
 */
#ifndef TAINT_GROW_H
#define TAINT_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * taint__grow() - @p, an array of *@cap elements of @size bytes, with
 * room for element @n (the first @n in use): @p itself if @n < *@cap, or
 * realloc()ed to twice *@cap (to @first elements when *@cap is 0), and
 * twice again until @n fits; *@cap is set to the new count.  NULL when
 * out of memory or when the size would not fit in a size_t: then @p is
 * still valid (the caller frees it) and *@cap unchanged.
 */
static inline void *taint__grow(void *p, size_t n, size_t *cap, size_t size,
				size_t first)
{
	size_t c;

	if (n < *cap)
		return p;
	if (!*cap)
		c = first ? first : 1;
	else if (*cap > SIZE_MAX / 2)
		return NULL;
	else
		c = *cap * 2;
	while (c <= n) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return NULL;
	p = realloc(p, c * size);
	if (p)
		*cap = c;
	return p;
}

#endif
