// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output_file.c - write a command's whole output to a file that the user
 * named (metrics --output FILE) without destroying what the name points at.
 *
 * What FILE is decides how it is written (lstat(), then stat() through a
 * symlink):
 *   - a regular file, or nothing yet: replaced atomically.  A temporary
 *     file in the same directory (".NAME.XXXXXX", which node_exporter's
 *     textfile collector skips: it reads *.prom only) gets the data, the
 *     old file's permission bits (0644 for a new file), fsync(); then
 *     rename() over FILE and fsync() of the directory.  A reader sees the
 *     old file or the new one, never half of one.  The temporary file is
 *     removed on every error.
 *   - a symlink is never replaced itself: one to a regular file replaces
 *     that file (its realpath(), in its own directory) the same way, and
 *     the link stays; one to a FIFO or a character device is written
 *     through; a dangling one is refused (exit 2: nothing is created
 *     behind a link).
 *   - a FIFO or a character device (/dev/null, a terminal): written
 *     through, opened O_WRONLY without O_CREAT or O_TRUNC; nothing renamed.
 *   - standard output and the other open descriptors by name
 *     (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N): written to
 *     that descriptor, at its offset, never reopened or renamed.
 *   - a directory, a block device (a disk), a socket: refused (exit 2).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* the descriptor that @path names (/dev/stdout, /dev/fd/3, ...), or -1 */
static int named_fd(const char *path)
{
	static const char *const prefixes[] = {
		"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
	};
	const char *num = NULL;
	char *end;
	long fd;

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(path, prefixes[i], strlen(prefixes[i])) == 0)
			num = path + strlen(prefixes[i]);
	if (!num || *num < '0' || *num > '9')
		return -1;
	errno = 0;
	fd = strtol(num, &end, 10);
	if (*end || errno || fd > INT_MAX)
		return -1;
	return (int)fd;
}

/* write through an open descriptor (standard output by name) */
static int write_fd(const char *path, int fd, const char *data, size_t len)
{
	int err;

	if (fd == STDOUT_FILENO) {
		/* through stdio, so that it is flushed and checked at exit */
		fflush(stdout);
	}
	err = write_all(fd, data, len);
	if (err == -EPIPE && fd == STDOUT_FILENO)
		return EXIT_OK;		/* the reader went away: quiet */
	if (err) {
		cli_error("cannot write '%s': %s", cli_quote(path),
			  strerror(-err));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

/* a FIFO or a character device: open it as it is, write, close */
static int write_through(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	int err;

	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	err = write_all(fd, data, len);
	if (close(fd) && !err && errno != EINTR)
		err = -errno;
	if (err) {
		cli_error("cannot write '%s': %s", cli_quote(path),
			  strerror(-err));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

/* replace the regular file (or new name) @path with @data, with @mode */
static int replace(const char *path, mode_t mode, const char *data,
		   size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	const char *base = slash ? slash + 1 : path;
	char *dir, *tmp;
	int fd, dfd, err = 0;

	dir = slash ? strndup(path, dirlen ? dirlen : 1) : strdup(".");
	tmp = malloc(strlen(path) + 16);
	if (!dir || !tmp) {
		free(dir);
		free(tmp);
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	sprintf(tmp, "%.*s%s.%s.XXXXXX", (int)dirlen, path, slash ? "/" : "",
		base);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot create a temporary file in '%s': %s",
			  cli_quote(dir), strerror(errno));
		free(dir);
		free(tmp);
		return EXIT_SYSTEM;
	}
	if (fchmod(fd, mode) || (err = write_all(fd, data, len)) ||
	    fsync(fd)) {
		if (!err)
			err = -errno;
		close(fd);
	} else if (close(fd)) {
		err = -errno;
	} else if (rename(tmp, path)) {
		err = -errno;
	}
	if (err) {
		cli_error("cannot write '%s': %s", cli_quote(path),
			  strerror(-err));
		unlink(tmp);
	} else {
		/* make the rename itself durable */
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	free(dir);
	free(tmp);
	return err ? EXIT_SYSTEM : EXIT_OK;
}

/* what is refused, for the message; NULL if @st may be written */
static const char *refused(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISBLK(st->st_mode))
		return "a block device (a disk: it would be overwritten)";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode) &&
	    !S_ISCHR(st->st_mode))
		return "not a regular file, a FIFO or a character device";
	return NULL;
}

int output_file_write(const char *path, const char *data, size_t len)
{
	const char *why;
	struct stat st;
	char *target;
	int fd, rc;

	if (!*path || path[strlen(path) - 1] == '/') {
		cli_error("invalid output file '%s': %s", cli_quote(path),
			  *path ? "a directory" : "empty name");
		return EXIT_USAGE;
	}
	fd = named_fd(path);
	if (fd >= 0 && fcntl(fd, F_GETFD) >= 0)
		return write_fd(path, fd, data, len);
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return replace(path, 0644, data, len);
		cli_error("cannot write '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st)) {
			if (errno == ENOENT) {
				cli_error("invalid output file '%s': a symlink to a file that does not exist (not created behind a link: give the target's name)",
					  cli_quote(path));
				return EXIT_USAGE;
			}
			cli_error("cannot write '%s': %s", cli_quote(path),
				  strerror(errno));
			return EXIT_SYSTEM;
		}
		if ((why = refused(&st))) {
			cli_error("invalid output file '%s': a symlink to %s",
				  cli_quote(path), why);
			return EXIT_USAGE;
		}
		if (!S_ISREG(st.st_mode))
			return write_through(path, data, len);
		/* the link stays; the file it points at is replaced */
		target = realpath(path, NULL);
		if (!target) {
			cli_error("cannot resolve '%s': %s", cli_quote(path),
				  strerror(errno));
			return EXIT_SYSTEM;
		}
		rc = replace(target, st.st_mode & 0777, data, len);
		free(target);
		return rc;
	}
	if ((why = refused(&st))) {
		cli_error("invalid output file '%s': %s", cli_quote(path), why);
		return EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode))
		return write_through(path, data, len);
	return replace(path, st.st_mode & 0777, data, len);
}
