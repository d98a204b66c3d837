// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record_reason.c - a reason for a stock kernel's U, from `taintctl mark`
 * to `taintctl record`: mark hands it over on a Unix socket beside the
 * recorder's log (/run/taintctl/reason.sock, mode 0600, the recorder's:
 * only root can connect), then writes 64 to kernel.tainted as before.  The
 * recorder takes the sender's pid from the kernel (SO_PEERCRED), not from
 * the message, and puts the reason on that process's next write to
 * kernel.tainted that its BPF program sees (record_core.c: rec_reason()),
 * so a reason is only ever on a request that really happened, made by
 * the process that gave it; no file anyone could write is involved.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

static int sock_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

int rec_reason_listen(const char *path)
{
	struct sockaddr_un sa;
	int fd, ret = sock_addr(path, &sa);

	if (ret)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	unlink(path);		/* an earlier recorder's */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(path, 0600) ||
	    listen(fd, 8)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int rec_reason_accept(int lfd, uint32_t *pid, char reason[TAINT_REASON_MAX + 1])
{
	struct pollfd p;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	char buf[TAINT_REASON_MAX + 2];
	ssize_t n;
	size_t bad;
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) ||
	    cred.pid <= 0) {
		ret = -EPERM;
		goto out;
	}
	/* the sender writes at once; a silent one does not hold us up */
	p.fd = fd;
	p.events = POLLIN;
	if (poll(&p, 1, 1000) != 1) {
		ret = -ETIMEDOUT;
		goto out;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	if (taint_validate_reason(buf, (size_t)n, &bad) || cred.uid != 0) {
		ret = -EINVAL;
		(void)send(fd, "no", 2, MSG_NOSIGNAL);
		goto out;
	}
	memcpy(reason, buf, (size_t)n);
	reason[n] = '\0';
	*pid = (uint32_t)cred.pid;
	if (send(fd, "ok", 2, MSG_NOSIGNAL) != 2)
		ret = -EPIPE;
out:
	close(fd);
	return ret;
}

int rec_reason_send(const char *path, const char *reason)
{
	struct sockaddr_un sa;
	struct pollfd p;
	char ack[4];
	ssize_t n;
	int fd, ret = sock_addr(path, &sa);

	if (ret)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(fd, reason, strlen(reason), MSG_NOSIGNAL) < 0) {
		ret = -errno;
		goto out;
	}
	p.fd = fd;
	p.events = POLLIN;
	if (poll(&p, 1, 2000) != 1) {
		ret = -ETIMEDOUT;
		goto out;
	}
	n = recv(fd, ack, sizeof(ack), 0);
	ret = n == 2 && !memcmp(ack, "ok", 2) ? 0 : -EPROTO;
out:
	close(fd);
	return ret;
}
