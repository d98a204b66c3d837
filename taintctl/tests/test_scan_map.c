// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_scan_map.c - a large regular file, mapped, whose page tables a
 * second thread fills ahead of the pass (source.c, MADV_POPULATE_READ,
 * files of 32 MiB or more on a machine with two CPUs or more): the same
 * hits on the same lines as when it is read(), the thread there during
 * the scan (seen in /proc/self/task) and gone after it, and a file larger
 * than the thread's lead (64 MiB) read to its end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "test_util.h"

#define SIZE (96u << 20)	/* past the lead, and 3 x the threshold */
#define EVERY 4093		/* a field every EVERY lines */

static struct {
	size_t n, cap;
	uint64_t *line;
	unsigned int max_threads;
} res;

static unsigned int threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static int collect(const struct taint_hit *h, void *arg)
{
	unsigned int t;

	(void)arg;
	if (res.n == res.cap) {
		res.cap = res.cap ? res.cap * 2 : 1024;
		res.line = realloc(res.line, res.cap * sizeof(*res.line));
		assert_non_null(res.line);
	}
	res.line[res.n++] = h->line;
	t = threads_now();
	if (t > res.max_threads)
		res.max_threads = t;
	return 0;
}

/* A file of SIZE bytes: 64-byte lines, a field every EVERY lines. */
static int make_file(void)
{
	char path[] = "/tmp/taint-map-XXXXXX";
	static char block[(1 << 20) + 1];	/* + the last snprintf()'s NUL */
	int fd = mkstemp(path);
	uint64_t line = 1;

	assert_true(fd >= 0);
	unlink(path);
	for (size_t done = 0; done < SIZE; done += sizeof(block) - 1) {
		for (size_t o = 0; o < sizeof(block) - 1; o += 64, line++) {
			if (line % EVERY == 0)
				snprintf(block + o, 65, "%-63s\n",
					 "CPU: 1 PID: 2 Comm: x Tainted: G        W          6.1 #1");
			else
				snprintf(block + o, 65, "%-63llu\n",
					 (unsigned long long)line);
		}
		assert_int_equal(write(fd, block, sizeof(block) - 1),
				 (ssize_t)sizeof(block) - 1);
	}
	return fd;
}

static void scan(int fd, unsigned int flags)
{
	const struct taint_scan_opts o = { .size = sizeof(o), .hit = collect,
					   .flags = flags | TAINT_SCAN_BLOCKS };

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	free(res.line);
	memset(&res, 0, sizeof(res));
	assert_int_equal(taint_scan_fd_opts(fd, &o, NULL), 0);
}

static void test_populated_map(void **state)
{
	int fd = make_file();
	unsigned int before = threads_now(), mapped_threads;
	size_t n;
	uint64_t *lines;

	(void)state;
	scan(fd, 0);
	mapped_threads = res.max_threads;
	n = res.n;
	lines = res.line;
	res.line = NULL;
	assert_int_equal(n, SIZE / 64 / EVERY);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(lines[i], (i + 1) * EVERY);
	/* read(), not mapped: the same */
	scan(fd, TAINT_SCAN_NOMAP);
	assert_int_equal(res.n, n);
	assert_memory_equal(res.line, lines, n * sizeof(*lines));
	/* the populating thread: there during the mapped scan, then gone */
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
		assert_true(mapped_threads > before);
	assert_int_equal(res.max_threads, before);
	assert_int_equal(threads_now(), before);
	free(lines);
	free(res.line);
	res.line = NULL;
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_populated_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
