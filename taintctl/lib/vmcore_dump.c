// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_dump.c - a crash dump whatever its format, above each format's
 * reader: vmcore_open() tells the format from the file's first bytes
 * (makedumpfile's flattened file around either format, vmcore_flat.c;
 * its kdump-compressed format, vmcore_diskdump.c; an ELF core,
 * vmcore_elf.c) and opens the dump with that reader, or names the format
 * of a file that is compressed (source.c's table); vmcore_read() reads
 * the kernel image's memory through it, at the physical address that
 * NUMBER(phys_base) gives.
 */
#define _FILE_OFFSET_BITS 64	/* dumps are as large as memory */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source_internal.h"
#include "vmcore_internal.h"

int vmcore_open(struct vmcore *vc, int fd, char *why, size_t why_size)
{
	const struct taint_compression_info *z;
	unsigned char eh[sizeof(Elf64_Ehdr)];
	struct stat st;
	size_t got;
	int ret;

	memset(vc, 0, sizeof(*vc));
	vc->fd = fd;
	vc->why = why;
	vc->why_size = why_size;
	if (why_size)
		why[0] = '\0';
	if (fstat(fd, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -ESPIPE;	/* read with pread(): a file, not a stream */
	vc->file_size = vc->raw_size = (uint64_t)st.st_size;
	got = vc->file_size < sizeof(eh) ? (size_t)vc->file_size : sizeof(eh);
	ret = vmcore_file_read(vc, 0, eh, got);
	if (ret)
		return ret == -ENODATA ? vmcore_truncated(vc, "the ELF header") : ret;
	/* makedumpfile -F (kdump-tools' dumps): the dump is in its records */
	if (got >= 12 && memcmp(eh, "makedumpfile", 12) == 0) {
		ret = vmcore_flat_open(vc);
		got = vc->file_size < sizeof(eh) ? (size_t)vc->file_size : sizeof(eh);
		if (!ret)
			ret = vmcore_file_read(vc, 0, eh, got);
		if (ret)
			return ret == -ENODATA ? vmcore_truncated(vc, "the dump's header") : ret;
	}
	if (got >= 8 && (memcmp(eh, "KDUMP   ", 8) == 0 ||
			 memcmp(eh, "DISKDUMP", 8) == 0))
		return vmcore_dd_open(vc);
	/*
	 * A compressed file (a dump.xz from a ticket): named by its magic
	 * bytes (source.c's table, never by the file's name), with the tool
	 * that decompresses it.  A dump is read in place, a page here and
	 * there, never decompressed through a stream.
	 */
	z = taint__compression_of(eh, got);
	if (z)
		return vmcore_fail(vc, -ENOTSUP,
				   "compressed with %s, not a dump itself: decompress it first (%s FILE >DUMP) and read DUMP",
				   z->name, z->tool);
	return vmcore_elf_open(vc, eh, got);
}

void vmcore_close(struct vmcore *vc)
{
	vmcore_dd_close(vc);
	vmcore_flat_close(vc);
	free(vc->seg);
	free(vc->info);
	vc->seg = NULL;
	vc->info = NULL;
}

/* Up to @len bytes of physical memory at @pa; *@done: how many were read
 * before the first one the dump does not hold. */
static int phys_read(struct vmcore *vc, uint64_t pa, unsigned char *buf,
		     size_t len, size_t *done)
{
	if (vc->dd)
		return vmcore_dd_phys_read(vc, pa, buf, len, done);
	return vmcore_elf_phys_read(vc, pa, buf, len, done);
}

/* The physical address of kernel-image address @vaddr; false if it is not
 * one, or if [@vaddr, @vaddr + @len) wraps. */
static bool image_phys(const struct vmcore *vc, uint64_t vaddr, size_t len,
		       uint64_t *pa)
{
	if (vaddr < VMCORE_KERNEL_MAP || len > UINT64_MAX - vaddr)
		return false;
	*pa = vaddr - VMCORE_KERNEL_MAP + (uint64_t)vc->phys_base;
	return true;
}

int vmcore_read(struct vmcore *vc, uint64_t vaddr, void *buf, size_t len)
{
	uint64_t pa;
	size_t done;

	if (!image_phys(vc, vaddr, len, &pa))
		return -EFAULT;
	return phys_read(vc, pa, buf, len, &done);
}

int vmcore_read_some(struct vmcore *vc, uint64_t vaddr, void *buf,
		     size_t *len)
{
	uint64_t pa;
	size_t done;
	int ret;

	if (!*len || !image_phys(vc, vaddr, 1, &pa))
		return -EFAULT;
	if (*len - 1 > UINT64_MAX - vaddr)
		*len = (size_t)(UINT64_MAX - vaddr) + 1;
	ret = phys_read(vc, pa, buf, *len, &done);
	if (ret && !done)
		return ret;
	*len = done;
	return 0;
}

int vmcore_phys_read(struct vmcore *vc, uint64_t pa, void *buf, size_t len)
{
	size_t done;

	if (len > UINT64_MAX - pa)
		return -EFAULT;
	return phys_read(vc, pa, buf, len, &done);
}
