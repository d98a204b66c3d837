// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sos.c - a sosreport's taint log (lib/sos.c): the kernel.taint_log
 * lines of procps' `sysctl -a` output, the sosreport's sysctl_-a found
 * from its proc root, and the log read through the public readers.
 * Never touches the machine's /proc (but to see that it is procfs).
 */
#include <errno.h>
#include <stdio.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "log_internal.h"
#include "test_util.h"

#define KEY "kernel.taint_log"
#define EV1 "ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"swapper/0\""
#define EV2 "ts=3.123456 utc=- origin=user flags=U new=U pid=77 uid=0 comm=\"sh\" reason=\"r\""

/* the values of KEY in the C string @in: text, its line map (or NULL) */
static int values(const char *in, char **text, size_t *len,
		  unsigned int **lines)
{
	return taint__sysctl_values(in, strlen(in), KEY, text, len, lines);
}

static void test_values_in_order(void **state)
{
	static const char in[] =
		"dev.cdrom.info = CD-ROM information, Id: cdrom.c 3.20 2003/12/17\n"
		"dev.cdrom.info = \n"
		"dev.cdrom.info = drive name:\t\tsr0\n"
		"kernel.sysrq = 16\n"
		"kernel.taint_log = " EV1 "\n"
		"kernel.taint_log = " EV2 "\n"
		"kernel.taint_log = dropped=3\n"
		"kernel.taint_reason = r\n"
		"kernel.tainted = 576\n"
		"sunrpc.transports = tcp 1048576\n"
		"sunrpc.transports = udp 32768\n";
	unsigned int *lines;
	size_t len;
	char *text;

	(void)state;
	assert_int_equal(values(in, &text, &len, &lines), 0);
	assert_string_equal(text, EV1 "\n" EV2 "\ndropped=3\n");
	assert_int_equal(len, strlen(text));
	assert_int_equal(lines[0], 5);
	assert_int_equal(lines[1], 6);
	assert_int_equal(lines[2], 7);
	free(text);
	free(lines);
	/* without a line map */
	assert_int_equal(values(in, &text, &len, NULL), 0);
	assert_string_equal(text, EV1 "\n" EV2 "\ndropped=3\n");
	free(text);
}

static void test_values_edges(void **state)
{
	unsigned int *lines;
	size_t len;
	char *text;

	(void)state;
	/* an empty value: an empty line of the text */
	assert_int_equal(values("kernel.tainted = 0\nkernel.taint_log = \n"
				"kernel.taint_log = " EV1 "\n",
				&text, &len, &lines), 0);
	assert_string_equal(text, "\n" EV1 "\n");
	assert_int_equal(lines[0], 2);
	assert_int_equal(lines[1], 3);
	free(text);
	free(lines);
	/* the last line without its newline: taken as it is */
	assert_int_equal(values("a = 1\nkernel.taint_log = " EV1, &text, &len,
				&lines), 0);
	assert_string_equal(text, EV1);
	assert_int_equal(lines[0], 2);
	free(text);
	free(lines);
	/* procps' two pieces of a long line: two lines, not joined */
	assert_int_equal(values("kernel.taint_log = abc\n"
				"kernel.taint_log = def\n", &text, &len,
				&lines), 0);
	assert_string_equal(text, "abc\ndef\n");
	free(text);
	free(lines);
}

static void test_values_other_keys(void **state)
{
	static const char *const no[] = {
		"kernel.taint_log_x = " EV1 "\n",	/* only starts with it */
		"kernel.taint_logx = " EV1 "\n",
		"kernel.taint_log= " EV1 "\n",		/* not procps' " = " */
		"kernel.taint_log =" EV1 "\n",
		"kernel.taint_log\n",
		"kernel.taint_log =",
		" kernel.taint_log = " EV1 "\n",	/* not at the start */
		"xkernel.taint_log = " EV1 "\n",
		"kernel.tainted = 576\nkernel.taint_reason = r\n",
		"",
	};
	unsigned int *lines = (unsigned int *)1;
	size_t len = 1;
	char *text = (char *)1;

	(void)state;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		assert_int_equal(values(no[i], &text, &len, &lines), -ENOENT);
		assert_null(text);
		assert_null(lines);
		assert_int_equal(len, 0);
	}
}

static void test_values_too_big(void **state)
{
	size_t n = (TAINT__LOG_MAX / 1000 + 1) * 1020, len;
	char *in = malloc(n + 1), *text;
	size_t at = 0;

	(void)state;
	assert_non_null(in);
	while (at + 1020 <= n) {
		memcpy(in + at, "kernel.taint_log = ", 19);
		memset(in + at + 19, 'x', 1000);
		in[at + 1019] = '\n';
		at += 1020;
	}
	assert_int_equal(taint__sysctl_values(in, at, KEY, &text, &len, NULL),
			 -EFBIG);
	/* 4 MiB of values is still a log */
	assert_int_equal(taint__sysctl_values(in, 4000 * 1020, KEY, &text,
					      &len, NULL), 0);
	assert_int_equal(len, 4000 * 1001);
	free(text);
	free(in);
}

static void test_sysctl_path(void **state)
{
	struct statfs sfs;
	char buf[128];

	(void)state;
	assert_int_equal(taint__sos_sysctl_path("/x/sos/proc", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "/x/sos/sos_commands/kernel/sysctl_-a");
	assert_int_equal(taint__sos_sysctl_path("/x/sos/proc//", buf,
						sizeof(buf)), 0);
	assert_string_equal(buf, "/x/sos/sos_commands/kernel/sysctl_-a");
	assert_int_equal(taint__sos_sysctl_path("sos/proc", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "sos/sos_commands/kernel/sysctl_-a");
	assert_int_equal(taint__sos_sysctl_path("proc", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "./sos_commands/kernel/sysctl_-a");
	/* only a tree's proc directory */
	assert_int_equal(taint__sos_sysctl_path("/x/myproc", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(taint__sos_sysctl_path("/x/proc/sys", buf,
						sizeof(buf)), -ENOENT);
	assert_int_equal(taint__sos_sysctl_path("", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(taint__sos_sysctl_path("/x/sos/proc", buf, 20),
			 -ENAMETOOLONG);
	/* never the live system's: NULL, the live /proc, a procfs mount */
	assert_int_equal(taint__sos_sysctl_path(NULL, buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(taint__sos_sysctl_path(TAINT_LIVE_ROOT "/proc", buf,
						sizeof(buf)), -ENOENT);
	if (!statfs("/proc", &sfs) && sfs.f_type == 0x9fa0)
		assert_int_equal(taint__sos_sysctl_path("/proc", buf,
							sizeof(buf)), -ENOENT);
	else	/* no procfs on /proc here: a tree like any other */
		assert_int_equal(taint__sos_sysctl_path("/proc", buf,
							sizeof(buf)), 0);
}

/* ---- a fake sosreport: root/proc/sys/kernel, root/sos_commands/kernel -- */

static char top[64], proc[96];

static void write_file(const char *rel, const char *content)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	write_text(path, content);
}

static void remove_file(const char *rel)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	unlink(path);
}

static int sos_setup(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(top, sizeof(top), "/tmp/taint-sos-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(proc, sizeof(proc), "%s/proc", top);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/proc/sys/kernel' '%s/sos_commands/kernel'", top,
		 top);
	return system(cmd) == 0 ? 0 : -1;
}

static int sos_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

#define SYSCTL_A "sos_commands/kernel/sysctl_-a"
#define TAINT_LOG "proc/sys/kernel/taint_log"

static void test_read_from_sysctl(void **state)
{
	struct taint_log *log;
	unsigned int lineno;
	char path[256], want[256], *text;
	size_t len;
	bool fatal;

	(void)state;
	write_file(SYSCTL_A, "kernel.sysrq = 16\n"
		   "kernel.taint_log = " EV1 "\n"
		   "kernel.taint_log = not an event\n"
		   "kernel.taint_log = " EV2 "\n"
		   "kernel.tainted = 576\n");
	assert_int_equal(taint_read_log(proc, &text, &len), 0);
	assert_string_equal(text, EV1 "\nnot an event\n" EV2 "\n");
	free(text);
	assert_int_equal(taint_read_log_path(proc, path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/" SYSCTL_A, top);
	assert_string_equal(path, want);
	assert_int_equal(taint_read_log_path(proc, path, strlen(want)),
			 -ENAMETOOLONG);
	/* the malformed line is at line 3 of sysctl_-a, line 2 of the log */
	assert_int_equal(taint_log_new_from_proc(proc, &log), 0);
	assert_int_equal(taint_log_get_event_count(log), 2);
	assert_int_equal(taint_log_get_malformed(log), 1);
	assert_non_null(taint_log_get_problem(log, 0, &lineno, &fatal));
	assert_int_equal(lineno, 3);
	assert_true(fatal);
	taint_log_unref(log);
	/* the proc file, where there is one, wins */
	write_file(TAINT_LOG, EV2 "\n");
	assert_int_equal(taint_read_log(proc, &text, &len), 0);
	assert_string_equal(text, EV2 "\n");
	free(text);
	assert_int_equal(taint_read_log_path(proc, path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/" TAINT_LOG, top);
	assert_string_equal(path, want);
	remove_file(TAINT_LOG);
}

static void test_no_log(void **state)
{
	struct taint_log *log = (struct taint_log *)1;
	char path[256], want[256], *text;
	size_t len;

	(void)state;
	snprintf(want, sizeof(want), "%s/" TAINT_LOG, top);
	/* a stock kernel's sysctl_-a: no log, the proc file named */
	write_file(SYSCTL_A, "kernel.sysrq = 16\nkernel.taint_log_x = " EV1
		   "\nkernel.tainted = 576\n");
	assert_int_equal(taint_read_log(proc, &text, &len), -ENOENT);
	assert_int_equal(taint_log_new_from_proc(proc, &log), -ENOENT);
	assert_null(log);
	assert_int_equal(taint_read_log_path(proc, path, sizeof(path)), 0);
	assert_string_equal(path, want);
	/* no sysctl_-a at all */
	remove_file(SYSCTL_A);
	assert_int_equal(taint_read_log(proc, &text, &len), -ENOENT);
	assert_int_equal(taint_read_log_path(proc, path, sizeof(path)), 0);
	assert_string_equal(path, want);
	/* the live /proc (the test build's, which does not exist) */
	assert_int_equal(taint_read_log(NULL, &text, &len), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_in_order),
		cmocka_unit_test(test_values_edges),
		cmocka_unit_test(test_values_other_keys),
		cmocka_unit_test(test_values_too_big),
		cmocka_unit_test(test_sysctl_path),
		cmocka_unit_test(test_read_from_sysctl),
		cmocka_unit_test(test_no_log),
	};

	return cmocka_run_group_tests(tests, sos_setup, sos_teardown);
}
