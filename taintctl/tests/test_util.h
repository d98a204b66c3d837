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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <zlib.h>

#include "taint.h"

/*
 * Skip the running test, saying why (printf-like): a test that cannot run
 * here says so, it does not pass.  cmocka 1.1.5's skip() prints no reason
 * with its "not ok N # SKIP NAME", so "# skip: WHY" comes first; make
 * check (tests/tap_run.sh) and make test (scripts/test/count.sh) take it
 * for the reason, and count the test as skipped (tests/README).
 */
#define skip_because(...) do { \
		print_message("# skip: " __VA_ARGS__); \
		print_message("\n"); \
		skip(); \
	} while (0)

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

/* The rest of @fp (a regular file), from its start, malloc()ed (@len bytes). */
static __attribute__((unused)) char *read_stream(FILE *fp, size_t *len)
{
	char *buf;
	long n;

	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	*len = (size_t)n;
	return buf;
}

/* gzip (one member, zlib) of @in[0..len), malloc()ed (*@out_len bytes). */
static __attribute__((unused)) unsigned char *gz_encode(const char *in,
							size_t len,
							size_t *out_len)
{
	z_stream z = { 0 };
	size_t cap = len + len / 100 + 1024;
	unsigned char *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

/*
 * A fake proc root for the tests that read and write taint through one:
 * root/sys/kernel/..., made by fake_root_make() in a group setup and
 * removed by fake_root_remove() (a group teardown).  Not every test uses
 * them, hence unused.
 */
static char root[64] __attribute__((unused));

/* Write CONTENT to the file PATH (created or truncated). */
static __attribute__((unused)) void write_text(const char *path,
					       const char *content)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(content, fp);
	fclose(fp);
}

/* Write CONTENT to root/sys/kernel/NAME. */
static __attribute__((unused)) void put(const char *name, const char *content)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/kernel/%s", root, name);
	write_text(path, content);
}

/* root: a new directory from TEMPLATE (mkdtemp), with sys/kernel and, if
 * SUBDIR is not NULL, sys/kernel/SUBDIR in it. */
static __attribute__((unused)) int fake_root_make(const char *template,
						  const char *subdir)
{
	char path[160];

	snprintf(root, sizeof(root), "%s", template);
	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/sys", root);
	if (mkdir(path, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	if (mkdir(path, 0755))
		return -1;
	if (subdir) {
		snprintf(path, sizeof(path), "%s/sys/kernel/%s", root, subdir);
		if (mkdir(path, 0755))
			return -1;
	}
	return 0;
}

static __attribute__((unused)) int fake_root_remove(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
