/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what the libFuzzer targets share: the entry point's prototype
 * (-Wmissing-prototypes), an input in a memfd, and a check that stops the
 * run with a message when the library breaks one of its own promises.
 */
#ifndef TAINT_FUZZ_H
#define TAINT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "taint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* not a crash the sanitizers see, but a broken promise: abort, saying so */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* A memfd holding @data, at offset 0; -1 if it cannot be made. */
static inline int fuzz_memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

#endif
