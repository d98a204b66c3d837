// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_vmcore.c - the crash dump reader (`taintctl log --vmcore`) on any
 * file: taint_vmcore_read_log() on a memfd, and the text it gives parsed
 * again (every line must be well formed, as the deterministic mutator in
 * test_vmcore checks too); taint_log_new_from_vmcore() on the same file.
 * Seeds: the fixture dumps tests/mkvmcore writes.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct taint_log *log = NULL;
	char why[256], *buf = NULL;
	size_t len = 0;
	int fd, r;

	fd = fuzz_memfd(data, size);
	if (fd < 0)
		return 0;
	why[0] = '\0';
	r = taint_vmcore_read_log(fd, &buf, &len, why, sizeof(why));
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOTSUP || r == -ENOENT ||
		   r == -ENOMEM);
	FUZZ_CHECK(r == 0 || r == -ENOMEM || why[0]);
	FUZZ_CHECK(!strchr(why, '\n'));
	if (!r) {
		struct taint_log *text = NULL;

		FUZZ_CHECK(taint_log_new_from_text(buf, len, &text) == 0);
		FUZZ_CHECK(taint_log_get_malformed(text) == 0);
		taint_log_unref(text);
		free(buf);
	}
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = taint_log_new_from_vmcore(fd, &log, why, sizeof(why));
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOTSUP || r == -ENOENT ||
		   r == -ENOMEM);
	taint_log_unref(log);
	close(fd);
	return 0;
}
