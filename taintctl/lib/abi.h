/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * abi.h - the .size rule of the structs a caller passes to libtaint (see
 * "ABI rules" in taint.h).  Not installed.
 *
 * libtaint 1.0 knows one layout of each struct, so "the 1.0 layout" is
 * sizeof() here.  When a member is appended (1.1), keep accepting the 1.0
 * size and 0: for a result, fill a whole struct and copy the caller's
 * .size bytes of it; for options, read a zeroed copy of the caller's part.
 */
#ifndef TAINT_ABI_H
#define TAINT_ABI_H

#include <errno.h>
#include <stddef.h>

/* A result struct (@size as the caller set it, @full = sizeof). */
static inline int taint__size_out(size_t size, size_t full)
{
	return size && size < full ? -EINVAL : 0;
}

/* An options struct: a larger one must have an all-zero unknown tail. */
static inline int taint__size_in(const void *p, size_t size, size_t full)
{
	const unsigned char *b = p;

	if (size && size < full)
		return -EINVAL;
	for (size_t i = full; i < size; i++)
		if (b[i])
			return -E2BIG;
	return 0;
}

#endif
