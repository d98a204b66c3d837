// SPDX-License-Identifier: GPL-2.0
/*
 * taint_suid_helper - a setuid-root program run by an unprivileged user
 * that drops its privileges and then tries to write the taint ABI
 * (taint_perm installs it mode 4755 on a tmpfs). Never used on a host.
 *
 * usage: taint_suid_helper FILE VALUE drop-open|open-drop
 *   drop-open: drop to the real uid, then open FILE for writing (EACCES)
 *   open-drop: open FILE as euid 0, drop to the real uid, write (EPERM)
 * Exit: 0 if the write was refused with the expected errno, 1 if not,
 * 2 on bad usage, 10 if not actually running setuid root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t ruid = getuid();
	gid_t rgid = getgid();
	int fd = -1, want, err;
	ssize_t r;

	if (argc != 4)
		return 2;
	if (geteuid() != 0 || ruid == 0) {
		printf("# helper: euid %d ruid %d: not setuid root run by a user\n",
		       (int)geteuid(), (int)ruid);
		return 10;
	}
	if (!strcmp(argv[3], "open-drop")) {
		fd = open(argv[1], O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			printf("# helper: open as euid 0: %s\n", strerror(errno));
			return 1;
		}
		want = EPERM;
	} else if (!strcmp(argv[3], "drop-open")) {
		want = EACCES;
	} else {
		return 2;
	}
	if (setgroups(0, NULL) || setresgid(rgid, rgid, rgid) ||
	    setresuid(ruid, ruid, ruid) || geteuid() != ruid) {
		printf("# helper: cannot drop privileges: %s\n", strerror(errno));
		return 1;
	}
	if (fd < 0) {
		fd = open(argv[1], O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			err = errno;
			printf("# helper: drop-open %s: %s\n", argv[1], strerror(err));
			return err == want ? 0 : 1;
		}
	}
	r = write(fd, argv[2], strlen(argv[2]));
	err = errno;
	printf("# helper: %s %s: write returned %zd (%s)\n", argv[3], argv[1], r,
	       r < 0 ? strerror(err) : "success");
	return r < 0 && err == want ? 0 : 1;
}
