// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_proc.c - reading and setting taint through a fake proc root.
 * Never touches the machine's /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

static const char *get(const char *name)
{
	static char buf[512];
	char path[256];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/sys/kernel/%s", root, name);
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void del(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/kernel/%s", root, name);
	unlink(path);
}

static int setup(void **state)
{
	(void)state;
	return fake_root_make("/tmp/taint-proc-XXXXXX", NULL);
}

static void test_path(void **state)
{
	char buf[128];

	(void)state;
	/* The test build never points at this machine's own /proc. */
	assert_string_equal(TAINT_LIVE_ROOT, "/nonexistent/taintctl-test-build");
	assert_int_equal(taint_proc_path(NULL, "tainted", buf, sizeof(buf)), 0);
	assert_string_equal(buf, TAINT_LIVE_ROOT "/proc/sys/kernel/tainted");
	assert_int_equal(taint_proc_path("/x", "taint_log", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "/x/sys/kernel/taint_log");
	assert_int_equal(taint_proc_path("/x", "taint_log", buf, 10),
			 -ENAMETOOLONG);
}

static void test_read_mask(void **state)
{
	uint64_t m = 0;

	(void)state;
	put("tainted", "576\n");
	assert_int_equal(taint_read_mask(root, &m), 0);
	assert_true(m == 576);
	put("tainted", "0\n");
	assert_int_equal(taint_read_mask(root, &m), 0);
	assert_true(m == 0);
	put("tainted", "bogus\n");
	assert_int_equal(taint_read_mask(root, &m), -EINVAL);
	put("tainted", "");
	assert_int_equal(taint_read_mask(root, &m), -EINVAL);
	put("tainted", "99999999999999999999999\n");
	assert_int_equal(taint_read_mask(root, &m), -ERANGE);
	del("tainted");
	assert_int_equal(taint_read_mask(root, &m), -ENOENT);
}

static void test_read_log(void **state)
{
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	del("taint_log");
	assert_int_equal(taint_read_log(root, &buf, &len), -ENOENT);
	put("taint_log", "dropped=1\n");
	assert_int_equal(taint_read_log(root, &buf, &len), 0);
	assert_int_equal(len, 10);
	assert_string_equal(buf, "dropped=1\n");
	free(buf);
}

static void test_validate_reason(void **state)
{
	char r[200];
	size_t bad = 0;

	(void)state;
	assert_int_equal(taint_validate_reason("x", 1, &bad), 0);
	assert_int_equal(taint_validate_reason("", 0, &bad), -EINVAL);
	assert_int_equal(taint_validate_reason("a\nb", 3, &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(taint_validate_reason("ab\x7f", 3, &bad), -EINVAL);
	assert_int_equal(bad, 2);
	assert_int_equal(taint_validate_reason("\xc3\xa9", 2, &bad), -EINVAL);
	assert_int_equal(bad, 0);
	memset(r, '~', sizeof(r));
	assert_int_equal(taint_validate_reason(r, 128, &bad), 0);
	assert_int_equal(taint_validate_reason(r, 129, &bad), -E2BIG);
	r[0] = ' ';
	assert_int_equal(taint_validate_reason(r, 1, &bad), 0);
}

static void test_mark_patched(void **state)
{
	char failed[256] = "";
	bool fell_back = true;

	(void)state;
	put("tainted", "0\n");
	put("taint_reason", "old reason that is longer\n");
	assert_int_equal(taint_mark(root, "RTSJ physical memory access",
				    &fell_back, failed, sizeof(failed)), 0);
	assert_false(fell_back);
	assert_string_equal(get("taint_reason"), "RTSJ physical memory access");
	assert_string_equal(get("tainted"), "0\n");
}

static void test_mark_stock(void **state)
{
	char failed[256] = "";
	bool fell_back = false;

	(void)state;
	del("taint_reason");
	put("tainted", "0\n");
	assert_int_equal(taint_mark(root, "why", &fell_back, failed,
				    sizeof(failed)), 0);
	assert_true(fell_back);
	assert_string_equal(get("tainted"), "64");
	assert_null(get("taint_reason"));
}

static void test_mark_invalid(void **state)
{
	char failed[256] = "", big[200];
	bool fell_back = false;

	(void)state;
	put("tainted", "0\n");
	put("taint_reason", "");
	assert_int_equal(taint_mark(root, "", &fell_back, failed,
				    sizeof(failed)), -EINVAL);
	assert_int_equal(taint_mark(root, "two\nlines", &fell_back, failed,
				    sizeof(failed)), -EINVAL);
	memset(big, 'x', 129);
	big[129] = '\0';
	assert_int_equal(taint_mark(root, big, &fell_back, failed,
				    sizeof(failed)), -E2BIG);
	assert_string_equal(get("taint_reason"), "");
	assert_string_equal(get("tainted"), "0\n");
}

static void test_mark_errors(void **state)
{
	char failed[256] = "", path[256];
	bool fell_back = false;

	(void)state;
	/* taint_reason is a directory: EISDIR, no fallback */
	del("taint_reason");
	snprintf(path, sizeof(path), "%s/sys/kernel/taint_reason", root);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(taint_mark(root, "why", &fell_back, failed,
				    sizeof(failed)), -EISDIR);
	assert_string_equal(failed, path);
	rmdir(path);
	/* stock kernel without even a tainted file */
	del("tainted");
	assert_int_equal(taint_mark(root, "why", &fell_back, failed,
				    sizeof(failed)), -ENOENT);
	snprintf(path, sizeof(path), "%s/sys/kernel/tainted", root);
	assert_string_equal(failed, path);
}

static void put_module(const char *sys, const char *name, const char *taint)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/module/%s", sys, name);
	assert_int_equal(mkdir(path, 0755), 0);
	if (!taint)
		return;		/* built in: no taint file */
	snprintf(path, sizeof(path), "%s/module/%s/taint", sys, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(taint, fp);
	fclose(fp);
}

static void test_read_modules(void **state)
{
	struct taint_module *m = (void *)1;
	char sys[128], path[160];
	size_t n = 99;

	(void)state;
	snprintf(sys, sizeof(sys), "%s/sysfs", root);
	assert_int_equal(taint_read_modules(sys, &m, &n), -ENOENT);
	assert_null(m);
	assert_int_equal(n, 0);
	assert_int_equal(mkdir(sys, 0755), 0);
	snprintf(path, sizeof(path), "%s/module", sys);
	assert_int_equal(mkdir(path, 0755), 0);
	/* no module carries taint: an empty list */
	put_module(sys, "loop", "\n");
	put_module(sys, "ext4", NULL);
	assert_int_equal(taint_read_modules(sys, &m, &n), 0);
	assert_null(m);
	assert_int_equal(n, 0);
	/* sorted by name; a letter libtaint does not know stays in taint */
	put_module(sys, "zfs", "PO\n");
	put_module(sys, "spl", "O\n");
	put_module(sys, "newer", "OV\n");
	assert_int_equal(taint_read_modules(sys, &m, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(m[0].name, "newer");
	assert_string_equal(m[0].taint, "OV");
	assert_true(m[0].mask == 1 << 12);
	assert_string_equal(m[1].name, "spl");
	assert_string_equal(m[1].taint, "O");
	assert_string_equal(m[2].name, "zfs");
	assert_string_equal(m[2].taint, "PO");
	assert_true(m[2].mask == 4097);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_read_mask),
		cmocka_unit_test(test_read_log),
		cmocka_unit_test(test_validate_reason),
		cmocka_unit_test(test_mark_patched),
		cmocka_unit_test(test_mark_stock),
		cmocka_unit_test(test_mark_invalid),
		cmocka_unit_test(test_mark_errors),
		cmocka_unit_test(test_read_modules),
	};

	return cmocka_run_group_tests_name("proc", tests, setup, fake_root_remove);
}
