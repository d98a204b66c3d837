// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_elf.c - an x86_64 ELF core as kdump (/proc/vmcore, makedumpfile
 * -E) and QEMU's dump-guest-memory write it: the header, the PT_LOAD
 * segments (physical memory: p_paddr), the VMCOREINFO note, and reads of
 * physical memory through the segments.  vmcore_dump.c opens a dump with
 * it when the dump is not kdump-compressed.
 *
 * The dump's bytes are read with vmcore_file_read() (vmcore_flat.c: the
 * file's own, or a flattened file's records).  Fields are decoded as
 * little-endian bytes, so the reader works on any host.
 */
#define _FILE_OFFSET_BITS 64	/* dumps are as large as memory */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "taint.h"
#include "vmcore_internal.h"

/* Bounds on what the file may ask us to hold. */
#define NOTES_MAX	(64u << 20)	/* bytes of one PT_NOTE segment */
#define SEGMENTS_MAX	(1u << 21)	/* program headers */
#define PHDR_CHUNK	256		/* program headers read at once */

/* A field of an ELF structure in @p: le(p, Elf64_Ehdr, e_phoff). */
#define FIELD(p, type, member) \
	vmcore_le((p) + offsetof(type, member), sizeof(((type *)0)->member))

static uint64_t align4(uint64_t n)
{
	return (n + 3) & ~UINT64_C(3);
}

/*
 * The notes of one PT_NOTE segment: keep the descriptor of the first
 * "VMCOREINFO" note (type 0).  A malformed note ends the walk: the notes
 * after it cannot be found.
 */
static int read_notes(struct vmcore *vc, uint64_t off, uint64_t len)
{
	unsigned char *p;
	uint64_t i = 0;
	int ret;

	if (len > NOTES_MAX)
		return vmcore_fail(vc, -EBADMSG,
				   "a PT_NOTE segment of %llu bytes (more than %u)",
				   (unsigned long long)len, NOTES_MAX);
	p = malloc(len ? len : 1);
	if (!p)
		return -ENOMEM;
	ret = vmcore_must_read(vc, off, p, len, "a PT_NOTE segment");
	while (!ret && len - i >= sizeof(Elf64_Nhdr)) {
		uint64_t namesz = FIELD(p + i, Elf64_Nhdr, n_namesz);
		uint64_t descsz = FIELD(p + i, Elf64_Nhdr, n_descsz);
		uint64_t type = FIELD(p + i, Elf64_Nhdr, n_type);
		uint64_t name = i + sizeof(Elf64_Nhdr);
		uint64_t desc = name + align4(namesz);

		if (desc > len || descsz > len - desc)
			break;
		if (namesz == sizeof("VMCOREINFO") && type == 0 &&
		    memcmp(p + name, "VMCOREINFO", namesz) == 0) {
			vc->info = malloc(descsz + 1);
			if (!vc->info) {
				ret = -ENOMEM;
				break;
			}
			memcpy(vc->info, p + desc, descsz);
			vc->info[descsz] = '\0';
			break;
		}
		i = desc + align4(descsz);
	}
	free(p);
	return ret;
}

static int add_segment(struct vmcore *vc, const unsigned char *ph,
		       size_t index)
{
	struct vmcore_seg s = {
		.paddr = FIELD(ph, Elf64_Phdr, p_paddr),
		.filesz = FIELD(ph, Elf64_Phdr, p_filesz),
		.memsz = FIELD(ph, Elf64_Phdr, p_memsz),
		.offset = FIELD(ph, Elf64_Phdr, p_offset),
	};
	struct vmcore_seg *n;

	if (s.memsz < s.filesz)
		s.memsz = s.filesz;
	if (s.memsz > UINT64_MAX - s.paddr || s.filesz > UINT64_MAX - s.offset)
		return vmcore_fail(vc, -EBADMSG,
				   "program header %zu: the segment wraps around",
				   index);
	if (s.offset + s.filesz > vc->file_end)
		vc->file_end = s.offset + s.filesz;
	if (!s.memsz)
		return 0;
	/* nseg is bounded by SEGMENTS_MAX */
	n = taint__grow(vc->seg, vc->nseg, &vc->seg_cap, sizeof(*n), 8);
	if (!n)
		return -ENOMEM;
	vc->seg = n;
	vc->seg[vc->nseg++] = s;
	return 0;
}

/* e_phnum, or, for PN_XNUM, the count section header 0 holds. */
static int count_phdrs(struct vmcore *vc, const unsigned char *eh,
		       uint64_t *count)
{
	unsigned char sh[sizeof(Elf64_Shdr)];
	int ret;

	*count = FIELD(eh, Elf64_Ehdr, e_phnum);
	if (*count != PN_XNUM)
		return 0;
	if (FIELD(eh, Elf64_Ehdr, e_shentsize) != sizeof(Elf64_Shdr) ||
	    !FIELD(eh, Elf64_Ehdr, e_shoff))
		return vmcore_fail(vc, -EBADMSG,
				   "e_phnum is PN_XNUM but there is no section header 0 to hold the count");
	ret = vmcore_must_read(vc, FIELD(eh, Elf64_Ehdr, e_shoff), sh,
			       sizeof(sh), "section header 0");
	if (!ret)
		*count = FIELD(sh, Elf64_Shdr, sh_info);
	return ret;
}

static int read_phdrs(struct vmcore *vc, const unsigned char *eh)
{
	static const size_t es = sizeof(Elf64_Phdr);
	unsigned char buf[PHDR_CHUNK * sizeof(Elf64_Phdr)];
	uint64_t off = FIELD(eh, Elf64_Ehdr, e_phoff), count;
	int ret = count_phdrs(vc, eh, &count);

	if (ret)
		return ret;
	if (FIELD(eh, Elf64_Ehdr, e_phentsize) != es)
		return vmcore_fail(vc, -EBADMSG,
				   "program headers of %llu bytes (ELF64 has %zu)",
				   (unsigned long long)FIELD(eh, Elf64_Ehdr, e_phentsize),
				   es);
	if (!count)
		return vmcore_fail(vc, -EBADMSG, "no program headers");
	if (count > SEGMENTS_MAX)
		return vmcore_fail(vc, -EBADMSG,
				   "%llu program headers (more than %u)",
				   (unsigned long long)count, SEGMENTS_MAX);
	if (off > vc->file_size || count * es > vc->file_size - off)
		return vmcore_truncated(vc, "the program header table");
	for (uint64_t i = 0; i < count; i += PHDR_CHUNK) {
		size_t n = count - i < PHDR_CHUNK ? count - i : PHDR_CHUNK;

		ret = vmcore_must_read(vc, off + i * es, buf, n * es,
				       "the program header table");
		for (size_t j = 0; !ret && j < n; j++) {
			const unsigned char *ph = buf + j * es;
			uint32_t type = FIELD(ph, Elf64_Phdr, p_type);

			if (type == PT_LOAD)
				ret = add_segment(vc, ph, i + j);
			else if (type == PT_NOTE && !vc->info)
				ret = read_notes(vc, FIELD(ph, Elf64_Phdr, p_offset),
						 FIELD(ph, Elf64_Phdr, p_filesz));
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* The formats that are not an ELF core, or not one for x86_64. */
static int check_header(struct vmcore *vc, const unsigned char *eh,
			size_t got)
{
	if (got >= 8 && memcmp(eh, "makedumpfile", got < 12 ? 8 : 12) == 0)
		return vmcore_fail(vc, -EBADMSG,
				   "a flattened dump inside a flattened dump");
	if (got < SELFMAG || memcmp(eh, ELFMAG, SELFMAG))
		return vmcore_fail(vc, -EBADMSG,
				   "not an ELF core file (no ELF magic number)");
	if (got < EI_NIDENT)
		return vmcore_truncated(vc, "the ELF header");
	if (eh[EI_CLASS] == ELFCLASS32)
		return vmcore_fail(vc, -ENOTSUP,
				   "a 32-bit ELF file (ELFCLASS32): only x86_64 dumps (ELFCLASS64) can be read");
	if (eh[EI_CLASS] != ELFCLASS64)
		return vmcore_fail(vc, -EBADMSG,
				   "an ELF file of unknown class %u", eh[EI_CLASS]);
	if (eh[EI_DATA] != ELFDATA2LSB)
		return vmcore_fail(vc, -ENOTSUP,
				   "a big-endian ELF file: only x86_64 dumps can be read");
	if (got < sizeof(Elf64_Ehdr))
		return vmcore_truncated(vc, "the ELF header");
	if (FIELD(eh, Elf64_Ehdr, e_type) != ET_CORE)
		return vmcore_fail(vc, -EBADMSG,
				   "an ELF file but not a core dump (e_type %llu)",
				   (unsigned long long)FIELD(eh, Elf64_Ehdr, e_type));
	if (FIELD(eh, Elf64_Ehdr, e_machine) != EM_X86_64)
		return vmcore_fail(vc, -ENOTSUP,
				   "a dump of another architecture (ELF machine %llu): only x86_64 dumps can be read",
				   (unsigned long long)FIELD(eh, Elf64_Ehdr, e_machine));
	return 0;
}

int vmcore_elf_open(struct vmcore *vc, const unsigned char *eh, size_t got)
{
	int ret = check_header(vc, eh, got);

	if (!ret)
		ret = read_phdrs(vc, eh);
	if (!ret && vc->file_end > vc->file_size)
		ret = vmcore_fail(vc, -EBADMSG,
				  "the file is truncated: it has %llu bytes, its memory segments end at byte %llu",
				  (unsigned long long)vc->file_size,
				  (unsigned long long)vc->file_end);
	if (!ret && !vc->info)
		ret = vmcore_fail(vc, -EBADMSG,
				  "no VMCOREINFO note (a dump taken without it: QEMU needs -device vmcoreinfo)");
	if (!ret && !vc->nseg)
		ret = vmcore_fail(vc, -EBADMSG, "no PT_LOAD segment: no memory in the dump");
	return ret;
}

/* The segment whose file bytes hold @pa, or -1. */
static long data_segment(struct vmcore *vc, uint64_t pa)
{
	const struct vmcore_seg *s;

	if (!vc->nseg)
		return -1;
	s = &vc->seg[vc->last];
	if (pa >= s->paddr && pa - s->paddr < s->filesz)
		return (long)vc->last;
	for (size_t i = 0; i < vc->nseg; i++) {
		s = &vc->seg[i];
		if (pa >= s->paddr && pa - s->paddr < s->filesz) {
			vc->last = i;
			return (long)i;
		}
	}
	return -1;
}

/*
 * How many bytes from @pa on (at most @max) read as zero: the part of a
 * segment past its file bytes (p_memsz > p_filesz, as makedumpfile
 * leaves excluded pages), up to where another segment has file bytes.
 */
static uint64_t zero_run(const struct vmcore *vc, uint64_t pa, uint64_t max)
{
	uint64_t run = 0;

	for (size_t i = 0; i < vc->nseg; i++) {
		const struct vmcore_seg *s = &vc->seg[i];

		if (pa >= s->paddr && pa - s->paddr < s->memsz &&
		    s->memsz - (pa - s->paddr) > run)
			run = s->memsz - (pa - s->paddr);
	}
	if (run > max)
		run = max;
	for (size_t i = 0; i < vc->nseg; i++) {
		const struct vmcore_seg *s = &vc->seg[i];

		if (s->filesz && s->paddr > pa && s->paddr - pa < run)
			run = s->paddr - pa;
	}
	return run;
}

int vmcore_elf_phys_read(struct vmcore *vc, uint64_t pa, unsigned char *buf,
			 size_t len, size_t *done)
{
	*done = 0;
	while (*done < len) {
		uint64_t want = len - *done, n;
		long i = data_segment(vc, pa);
		int ret;

		if (i < 0) {
			n = zero_run(vc, pa, want);
			if (!n)
				return -EFAULT;
			memset(buf + *done, 0, n);
		} else {
			const struct vmcore_seg *s = &vc->seg[i];

			n = s->filesz - (pa - s->paddr);
			if (n > want)
				n = want;
			ret = vmcore_file_read(vc, s->offset + (pa - s->paddr),
					       buf + *done, n);
			if (ret)
				return ret;
		}
		*done += n;
		pa += n;
	}
	return 0;
}
