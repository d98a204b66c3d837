// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmcore_bench.c - write the dumps bench/vmcore_bench.sh times `taintctl
 * status --vmcore` on: a stock kernel of a real kernel's size
 * (tests/status_fixture.h with a kernel's BTF, by default the running
 * one's /sys/kernel/btf/vmlinux, read, never loaded, and 150,000 symbols)
 * in a 1 GiB machine, written
 *
 *   OUT/elf      an ELF core of all its memory (1 GiB of it a hole of the
 *                file: never read), as /proc/vmcore or makedumpfile -E -d 0
 *   OUT/kdump    makedumpfile -c -d 31's kdump-compressed format (zlib): the
 *                image, the modules' pages and 32768 other kernel pages
 *                (128 MiB, compressible like a kernel's) dumped, the rest
 *                filtered out
 *
 * Usage: vmcore_bench OUT [BTF [SYMBOLS]].  Prints the module layout the
 * BTF gives.  Not a test: bench/vmcore_bench.sh prints the times.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <bpf/btf.h>

#include "../tests/status_fixture.h"

#define PAGE		4096u
#define RAM		(UINT64_C(1) << 30)
#define OTHER_PAGES	32768u

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			p = realloc(p, cap);
			if (!p)
				abort();
		}
		n = fread(p + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return p;
}

/* @member's byte offset in struct module (top level) */
static unsigned int member(const struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, "module", BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_member *m = t ? btf_members(t) : NULL;

	for (int i = 0; t && i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return btf_member_bit_offset(t, i) / 8;
	fprintf(stderr, "vmcore_bench: no module.%s in the BTF\n", name);
	exit(1);
}

static void put(int fd, uint64_t off, const void *p, size_t n)
{
	if (pwrite(fd, p, n, (off_t)off) != (ssize_t)n) {
		perror("pwrite");
		exit(1);
	}
}

static void le(unsigned char *p, uint64_t v, unsigned int w)
{
	for (unsigned int i = 0; i < w; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static uint64_t rd(const unsigned char *p, unsigned int w)
{
	uint64_t v = 0;

	while (w--)
		v = v << 8 | p[w];
	return v;
}

/* the ELF's memory: each PT_LOAD's (paddr, size, file offset) */
struct seg {
	uint64_t pa, size, off;
};

int main(int argc, char **argv)
{
	const char *btf_path = argc > 2 ? argv[2] : "/sys/kernel/btf/vmlinux";
	size_t nsyms = argc > 3 ? strtoul(argv[3], NULL, 10) : 150000;
	struct sx_spec s = sx_main;
	struct seg seg[8];
	unsigned int nseg = 0;
	const unsigned char *info = NULL;
	size_t btf_len, len, info_len = 0;
	unsigned char *blob, *elf, page[PAGE], cpage[2 * PAGE];
	struct btf *btf;
	char path[4096];
	uint64_t mapnr, half, bitmap_at, desc_at, data_at, ndumped = 0, d = 0;
	unsigned char *bitmap;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: vmcore_bench OUT [BTF [SYMBOLS]]\n");
		return 2;
	}
	blob = slurp(btf_path, &btf_len);
	btf = blob ? btf__new(blob, (uint32_t)btf_len) : NULL;
	if (!btf) {
		fprintf(stderr, "vmcore_bench: %s: no BTF\n", btf_path);
		return 1;
	}
	s.list = member(btf, "list");
	s.name = member(btf, "name");
	s.taints_at = member(btf, "taints");
	btf__free(btf);
	s.btf_blob = blob;
	s.btf_blob_len = btf_len;
	s.extra_syms = nsyms;
	s.ram = RAM;
	printf("BTF %s: %zu bytes, module.list %u, .name %u, .taints %u; %zu symbols\n",
	       btf_path, btf_len, s.list, s.name, s.taints_at, nsyms + 11);
	elf = sx_build(&s, &len);

	/* the ELF core: the RAM segment a hole after the rest */
	snprintf(path, sizeof(path), "%s/elf", argv[1]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)(len + RAM))) {
		perror(path);
		return 1;
	}
	put(fd, 0, elf, len);
	close(fd);

	/* its segments and VMCOREINFO */
	for (unsigned int i = 0; i < rd(elf + offsetof(Elf64_Ehdr, e_phnum), 2); i++) {
		const unsigned char *ph = elf + sizeof(Elf64_Ehdr) + i * sizeof(Elf64_Phdr);
		uint64_t off = rd(ph + offsetof(Elf64_Phdr, p_offset), 8);

		if (rd(ph, 4) == PT_NOTE) {
			info = elf + off + 12 + 12;
			info_len = rd(elf + off + 4, 4);
		} else if (rd(ph, 4) == PT_LOAD) {
			seg[nseg].pa = rd(ph + offsetof(Elf64_Phdr, p_paddr), 8);
			seg[nseg].size = rd(ph + offsetof(Elf64_Phdr, p_filesz), 8);
			seg[nseg++].off = off;
		}
	}

	/* kdump-compressed, version 6, zlib, as makedumpfile -c -d 31:
	 * header, sub-header + VMCOREINFO, bitmaps, descriptors, pages */
	mapnr = ((UINT64_C(1) << 30) + RAM) / PAGE;
	half = (mapnr / 8 + PAGE - 1) / PAGE;
	bitmap_at = (1 + (104 + info_len + PAGE - 1) / PAGE) * PAGE;
	bitmap = calloc(2 * half, PAGE);
	if (!bitmap)
		abort();
	for (unsigned int i = 0; i < nseg; i++)
		for (uint64_t pa = seg[i].pa; pa < seg[i].pa + seg[i].size; pa += PAGE) {
			uint64_t pfn = pa / PAGE;
			bool other = seg[i].pa >= (UINT64_C(1) << 30);

			bitmap[pfn / 8] |= (unsigned char)(1u << (pfn % 8));
			/* -d 31: of the 1 GiB, OTHER_PAGES kernel pages kept */
			if (other && (pfn - seg[i].pa / PAGE) % (RAM / PAGE / OTHER_PAGES))
				continue;
			bitmap[half * PAGE + pfn / 8] |= (unsigned char)(1u << (pfn % 8));
			ndumped++;
		}
	desc_at = bitmap_at + 2 * half * PAGE;
	data_at = desc_at + ndumped * 24;
	snprintf(path, sizeof(path), "%s/kdump", argv[1]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	{
		unsigned char h[2 * PAGE];
		uint32_t sub_blocks = (uint32_t)((104 + info_len + PAGE - 1) / PAGE);

		memset(h, 0, sizeof(h));
		memcpy(h, "KDUMP   ", 8);
		le(h + 8, 6, 4);
		memcpy(h + 12, "Linux", 5);
		memcpy(h + 12 + 4 * 65, "x86_64", 6);
		le(h + 424, 1, 4);		/* zlib */
		le(h + 428, PAGE, 4);
		le(h + 432, sub_blocks, 4);
		le(h + 436, 2 * half, 4);
		le(h + 440, mapnr, 4);
		le(h + 460, 1, 4);
		le(h + PAGE + 8, 31, 4);	/* dump_level */
		le(h + PAGE + 32, PAGE + 104, 8);
		le(h + PAGE + 40, info_len, 8);
		le(h + PAGE + 96, mapnr, 8);
		put(fd, 0, h, PAGE + 104);
		put(fd, PAGE + 104, info, info_len);
		put(fd, bitmap_at, bitmap, 2 * half * PAGE);
	}
	for (uint64_t pfn = 0; pfn < mapnr; pfn++) {
		uLongf n = sizeof(cpage);
		unsigned char desc[24];

		if (!(bitmap[half * PAGE + pfn / 8] >> (pfn % 8) & 1))
			continue;
		memset(page, 0, PAGE);
		for (unsigned int i = 0; i < nseg; i++) {
			uint64_t pa = pfn * PAGE;

			if (pa >= seg[i].pa && pa < seg[i].pa + seg[i].size &&
			    seg[i].off + (pa - seg[i].pa) < len)
				memcpy(page, elf + seg[i].off + (pa - seg[i].pa),
				       PAGE);
		}
		if (pfn * PAGE >= (UINT64_C(1) << 30))	/* a kernel's page */
			for (unsigned int b = 0; b < PAGE; b += 8)
				le(page + b, (pfn * 2654435761u + b / 64) & 0xffffff, 8);
		if (compress2(cpage, &n, page, PAGE, 1) != Z_OK || n >= PAGE) {
			n = PAGE;
			memcpy(cpage, page, PAGE);
		}
		memset(desc, 0, sizeof(desc));
		le(desc, data_at, 8);
		le(desc + 8, n, 4);
		le(desc + 12, n < PAGE ? 1 : 0, 4);
		put(fd, desc_at + 24 * d++, desc, sizeof(desc));
		put(fd, data_at, cpage, n);
		data_at += n;
	}
	close(fd);
	{
		struct sx_where w;
		FILE *a;

		sx_where(&s, btf_len, &w);
		snprintf(path, sizeof(path), "%s/args", argv[1]);
		a = fopen(path, "w");
		if (!a)
			return 1;
		/* kdumpfile_read's arguments after DUMP */
		fprintf(a, "%llx %zu %llx %u %u %u\n",
			(unsigned long long)(SX_IMG_VA + s.kaslr), w.size,
			(unsigned long long)(SX_IMG_VA + s.kaslr + SX_MODULES),
			s.list, s.name, s.taints_at);
		fclose(a);
	}
	printf("elf: %llu bytes (%llu of them a hole); kdump: %llu pages dumped of %llu\n",
	       (unsigned long long)(len + RAM), (unsigned long long)RAM,
	       (unsigned long long)ndumped, (unsigned long long)mapnr);
	free(bitmap);
	free(elf);
	free(blob);
	return 0;
}
