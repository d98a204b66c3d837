// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdumpfile_read.c - the pages `taintctl status --vmcore` needs, read from
 * a dump through libkdumpfile instead (Debian's libkdumpfile-dev), for
 * bench/vmcore_bench.sh's comparison of the format layers: the kernel
 * image's tables and BTF (IMAGE_ADDR, IMAGE_SIZE bytes) and each module's
 * list, name and taints, walked from the list head HEAD through
 * libkdumpfile's own page-table translation (KDUMP_KVADDR).  No symbol
 * table decoded, no BTF parsed: only the reads.
 *
 * Usage: kdumpfile_read DUMP IMAGE_ADDR IMAGE_SIZE HEAD LIST NAME TAINTS
 * (addresses in hex, offsets in decimal; vmcore_bench prints them).
 */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

static int rd(kdump_ctx_t *ctx, uint64_t addr, void *buf, size_t len)
{
	size_t n = len;
	kdump_status st = kdump_read(ctx, KDUMP_KVADDR, addr, buf, &n);

	if (st != KDUMP_OK || n != len) {
		fprintf(stderr, "kdumpfile_read: 0x%llx: %s\n",
			(unsigned long long)addr, kdump_get_err(ctx));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	kdump_ctx_t *ctx;
	uint64_t image, size, head, next;
	unsigned long list, name, taints;
	unsigned char *buf;
	int fd, n = 0;

	if (argc != 8) {
		fprintf(stderr, "usage: kdumpfile_read DUMP IMAGE_ADDR IMAGE_SIZE HEAD LIST NAME TAINTS\n");
		return 2;
	}
	image = strtoull(argv[2], NULL, 16);
	size = strtoull(argv[3], NULL, 0);
	head = strtoull(argv[4], NULL, 16);
	list = strtoul(argv[5], NULL, 10);
	name = strtoul(argv[6], NULL, 10);
	taints = strtoul(argv[7], NULL, 10);
	fd = open(argv[1], O_RDONLY);
	ctx = kdump_new();
	if (fd < 0 || !ctx) {
		perror(argv[1]);
		return 1;
	}
	if (kdump_open_fd(ctx, fd) != KDUMP_OK ||
	    kdump_set_string_attr(ctx, KDUMP_ATTR_OSTYPE, "linux") != KDUMP_OK) {
		fprintf(stderr, "kdumpfile_read: %s\n", kdump_get_err(ctx));
		return 1;
	}
	buf = malloc(size);
	if (!buf || rd(ctx, image, buf, size) || rd(ctx, head, &next, 8))
		return 1;
	while (next != head && n < 65536) {
		char nm[56];
		uint64_t t;

		if (rd(ctx, next - list + name, nm, sizeof(nm)) ||
		    rd(ctx, next - list + taints, &t, 8) || rd(ctx, next, &next, 8))
			return 1;
		nm[sizeof(nm) - 1] = '\0';
		printf("%s 0x%llx\n", nm, (unsigned long long)t);
		n++;
	}
	free(buf);
	kdump_free(ctx);
	close(fd);
	return 0;
}
