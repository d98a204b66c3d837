// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_kallsyms.c - the kallsyms decoder (lib/kallsyms.c) on any table:
 * the input is the kernel image's first bytes, where
 * tests/status_fixture.h puts the tables (token table at 0, token index
 * at 0x800, kallsyms_num_syms at 0xa00, kallsyms_relative_base at 0xa08,
 * the offsets or addresses at 0xb00, the names at 0x1000), after one byte
 * that picks the table's form (VMCOREINFO's keys: base-relative,
 * place-relative, absolute addresses).  The harness wraps them in an ELF
 * core whose VMCOREINFO names them, then looks names up (one walk for
 * several, with and without a type filter) and names addresses (the
 * log's caller=).  Seeds: the tables of status_fixture.h's dumps, each
 * form (test_vmcore_status writes them).
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "vmcore_internal.h"

#define IMG_VA	UINT64_C(0xffffffff83000000)
#define IMG_PA	UINT64_C(0x3000000)
#define IMG_MAX	16384

static void le(unsigned char *p, uint64_t v, unsigned int w)
{
	for (unsigned int i = 0; i < w; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* an ELF core: the note, then the image at IMG_PA; its length */
static size_t core(unsigned char *out, const uint8_t *img, size_t n, int form)
{
	char info[1024];
	int len = snprintf(info, sizeof(info),
		"OSRELEASE=7.2.0\nNUMBER(phys_base)=0\n"
		"SYMBOL(kallsyms_names)=%llx\nSYMBOL(kallsyms_num_syms)=%llx\n"
		"SYMBOL(kallsyms_token_table)=%llx\n"
		"SYMBOL(kallsyms_token_index)=%llx\n"
		"SYMBOL(kallsyms_%s)=%llx\n%s%llx\n",
		(unsigned long long)(IMG_VA + 0x1000),
		(unsigned long long)(IMG_VA + 0xa00),
		(unsigned long long)IMG_VA,
		(unsigned long long)(IMG_VA + 0x800),
		form == 2 ? "addresses" : "offsets",
		(unsigned long long)(IMG_VA + 0xb00),
		form == 0 ? "SYMBOL(kallsyms_relative_base)=" : "X=",
		(unsigned long long)(IMG_VA + 0xa08));
	size_t note = 12 + 12 + (((size_t)len + 3) & ~(size_t)3);
	size_t at = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
	unsigned char *ph = out + sizeof(Elf64_Ehdr);

	memset(out, 0, at + note);
	memcpy(out, ELFMAG, SELFMAG);
	out[EI_CLASS] = ELFCLASS64;
	out[EI_DATA] = ELFDATA2LSB;
	out[EI_VERSION] = EV_CURRENT;
	le(out + offsetof(Elf64_Ehdr, e_type), ET_CORE, 2);
	le(out + offsetof(Elf64_Ehdr, e_machine), EM_X86_64, 2);
	le(out + offsetof(Elf64_Ehdr, e_version), EV_CURRENT, 4);
	le(out + offsetof(Elf64_Ehdr, e_phoff), sizeof(Elf64_Ehdr), 8);
	le(out + offsetof(Elf64_Ehdr, e_ehsize), sizeof(Elf64_Ehdr), 2);
	le(out + offsetof(Elf64_Ehdr, e_phentsize), sizeof(Elf64_Phdr), 2);
	le(out + offsetof(Elf64_Ehdr, e_phnum), 2, 2);
	le(ph + offsetof(Elf64_Phdr, p_type), PT_NOTE, 4);
	le(ph + offsetof(Elf64_Phdr, p_offset), at, 8);
	le(ph + offsetof(Elf64_Phdr, p_filesz), note, 8);
	ph += sizeof(Elf64_Phdr);
	le(ph + offsetof(Elf64_Phdr, p_type), PT_LOAD, 4);
	le(ph + offsetof(Elf64_Phdr, p_offset), at + note, 8);
	le(ph + offsetof(Elf64_Phdr, p_paddr), IMG_PA, 8);
	le(ph + offsetof(Elf64_Phdr, p_filesz), n, 8);
	le(ph + offsetof(Elf64_Phdr, p_memsz), n, 8);
	le(out + at, 11, 4);
	le(out + at + 4, (uint64_t)len, 4);
	memcpy(out + at + 12, "VMCOREINFO", 11);
	memcpy(out + at + 24, info, (size_t)len);
	memcpy(out + at + note, img, n);
	return at + note + n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"tainted_mask", "Dd modules", "__start_BTF", "__stop_BTF",
		"_stext", "T _stext",
	};
	static unsigned char buf[2048 + IMG_MAX];
	uint64_t addrs[6];
	bool found[6];
	struct vmcore vc;
	struct kallsyms *ks;
	char why[256], out[600];
	size_t n;
	int fd, r;

	/* a form byte and at least one byte of image: an ELF core has no
	 * PT_LOAD of 0 bytes (vmcore_open() refuses it: no memory) */
	if (size < 2 || size - 1 > IMG_MAX)
		return 0;
	n = core(buf, data + 1, size - 1, data[0] % 3);
	fd = fuzz_memfd(buf, n);
	if (fd < 0)
		return 0;
	r = vmcore_open(&vc, fd, why, sizeof(why));
	if (r) {	/* the harness's core must open */
		fprintf(stderr, "vmcore_open: %d %s\n", r, why);
		abort();
	}
	vc.phys_base = 0;
	r = kallsyms_load(&vc, &ks);
	FUZZ_CHECK(r == 0 || r == -EFAULT || r == -EBADMSG || r == -ENOENT ||
		   r == -ENODATA || r == -ENOMEM);
	FUZZ_CHECK(!r == !!ks);
	if (!r) {
		r = kallsyms_lookup(ks, names, 6, addrs, found);
		FUZZ_CHECK(r == 0 || r == -EFAULT || r == -EBADMSG ||
			   r == -ENODATA);
		/* the same name with and without its type: one address */
		if (!r && found[5])
			FUZZ_CHECK(found[4] && addrs[4] == addrs[5]);
		for (uint64_t a = IMG_VA; a < IMG_VA + 0x4000; a += 0x3f1) {
			r = kallsyms_caller(ks, a, out, sizeof(out));
			FUZZ_CHECK(r == 0 || r == 1 || r == -EBADMSG ||
				   r == -ENODATA || r == -ENOMEM);
			if (r == 1)
				FUZZ_CHECK(!strncmp(out, " caller=", 8) &&
					   !strchr(out, '\n'));
		}
		kallsyms_close(ks);
	}
	vmcore_close(&vc);
	close(fd);
	return 0;
}
