/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_util.h - common includes and helpers of the cmocka unit tests.
 */
#ifndef TAINT_TEST_UTIL_H
#define TAINT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "taint.h"

/* Parse the field at the start of a C string. */
static inline void parse_str(const char *s, struct taint_field *f)
{
	assert_int_equal(taint_parse_field(s, strlen(s), f), 0);
}

static inline const char *mask_letters(uint64_t mask)
{
	static char buf[TAINT_KNOWN_FLAGS + 1];

	taint_mask_letters(mask, buf, sizeof(buf));
	return buf;
}

#endif
