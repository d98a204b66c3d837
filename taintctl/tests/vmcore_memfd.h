/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcore_memfd.h - what test_vmcore.c and test_vmcore_diskdump.c share: a
 * memfd (made by the group setup) that holds the dump under test, and
 * taint_vmcore_read_log() of given bytes through it.
 */
#ifndef TAINT_VMCORE_MEMFD_H
#define TAINT_VMCORE_MEMFD_H

#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"

#define WHY 320		/* the size of a reason buffer */

static int fd = -1;

static int setup(void **state)
{
	(void)state;
	fd = memfd_create("vmcore", 0);
	return fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	close(fd);
	return 0;
}

/* taint_vmcore_read_log() of @len bytes at @p: its return value */
static int read_bytes(const unsigned char *p, size_t len, char **text,
		      char *why)
{
	size_t n = 0;
	int ret;

	assert_int_equal(ftruncate(fd, 0), 0);
	assert_true(pwrite(fd, p, len, 0) == (ssize_t)len);
	ret = taint_vmcore_read_log(fd, text, &n, why, WHY);
	if (!ret)
		assert_int_equal(strlen(*text), n);
	else
		assert_null(*text);
	return ret;
}

#endif
