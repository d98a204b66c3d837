// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_status.c - the BTF-driven walk (`taintctl status --vmcore`) on any
 * file: taint_vmcore_read_status() on a memfd.  Each answer must keep the
 * function's promises: a known return, a fault and a reason exactly when
 * the dump is refused, modules sorted by name with printable names and
 * one letter per set bit.  Seeds: the stock-kernel dumps of
 * tests/status_fixture.h (test_vmcore_status and test_vmcore_diskdump
 * write them, ELF, kdump-compressed and flattened).
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct taint_module *mods = NULL;
	char why[256];
	uint64_t mask;
	size_t count;
	int fd, fault, r;

	fd = fuzz_memfd(data, size);
	if (fd < 0)
		return 0;
	r = taint_vmcore_read_status(fd, &mask, &mods, &count, &fault, why,
				     sizeof(why));
	close(fd);
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOTSUP || r == -ENOENT ||
		   r == -ENOMEM);
	FUZZ_CHECK(!strchr(why, '\n'));
	if (r) {
		FUZZ_CHECK(!mods && !count && !mask);
		FUZZ_CHECK(r == -ENOMEM || (why[0] && fault > 0 &&
					    fault <= TAINT_VMCORE_NO_SYMBOL));
		return 0;
	}
	FUZZ_CHECK(fault == TAINT_VMCORE_OK && !why[0]);
	FUZZ_CHECK(!count == !mods);
	for (size_t i = 0; i < count; i++) {
		size_t n = strlen(mods[i].name);

		FUZZ_CHECK(n > 0 && n < sizeof(mods[i].name));
		for (size_t c = 0; c < n; c++)
			FUZZ_CHECK(mods[i].name[c] > 0x20 &&
				   mods[i].name[c] < 0x7f);
		FUZZ_CHECK(mods[i].taint[0]);
		FUZZ_CHECK(!i || strcmp(mods[i - 1].name, mods[i].name) <= 0);
	}
	free(mods);
	return 0;
}
