// SPDX-License-Identifier: GPL-2.0
/*
 * taint_mark_as COMM REASON - write REASON to /proc/sys/kernel/taint_reason
 * with the task's comm set to COMM (which may hold a newline, quotes, ESC:
 * whatever a hostile writer would use to forge report lines). "\n" and
 * "\e" in COMM are turned into a newline and ESC. Prints "writer pid=<n>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char comm[16] = "";
	const char *s;
	size_t n = 0;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: taint_mark_as COMM REASON\n");
		return 2;
	}
	for (s = argv[1]; *s && n < sizeof(comm) - 1; s++) {
		if (s[0] == '\\' && (s[1] == 'n' || s[1] == 'e')) {
			comm[n++] = s[1] == 'n' ? '\n' : '\033';
			s++;
		} else {
			comm[n++] = *s;
		}
	}
	if (prctl(PR_SET_NAME, comm)) {
		perror("taint_mark_as: prctl");
		return 1;
	}
	printf("writer pid=%d\n", getpid());
	fflush(stdout);
	fd = open("/proc/sys/kernel/taint_reason", O_WRONLY);
	if (fd < 0 || write(fd, argv[2], strlen(argv[2])) != (ssize_t)strlen(argv[2])) {
		fprintf(stderr, "taint_mark_as: taint_reason: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
