// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memchr_pass.c - the bench's reference for "memory speed": map FILE and
 * count every '\n' with memchr(), printing the count.  What any line-aware
 * scan of the file must at least do; `taintctl scan` is held to 1.25x of it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long lines = 0;
	const char *p, *end;
	struct stat st;
	void *map;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: memchr-pass FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 2;
	}
	if (st.st_size > 0) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			   fd, 0);
		if (map == MAP_FAILED) {
			perror("mmap");
			return 2;
		}
		p = map;
		end = p + st.st_size;
		while ((p = memchr(p, '\n', (size_t)(end - p)))) {
			lines++;
			p++;
		}
		munmap(map, (size_t)st.st_size);
	}
	close(fd);
	printf("%llu\n", lines);
	return 0;
}
