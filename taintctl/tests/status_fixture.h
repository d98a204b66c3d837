/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * status_fixture.h - synthetic x86_64 ELF cores of a stock kernel, for
 * taint_vmcore_read_status() (test_vmcore_status.c, and in makedumpfile's
 * formats test_vmcore_diskdump.c): what a reader needs without a
 * VMCOREINFO line of the series, built from the kernel's own rules, not
 * with libtaint:
 *
 *  - VMCOREINFO: OSRELEASE, NUMBER(phys_base), SYMBOL(init_top_pgt),
 *    NUMBER(pgtable_l5_enabled), SYMBOL(_stext) and the SYMBOL(kallsyms_*)
 *    keys of the table's form (6.1/6.12 base-relative with or without
 *    absolute per-CPU symbols, 7.x place-relative, absolute addresses);
 *  - the kernel image (64 KiB at 0xffffffff81000000 + kaslr): kallsyms
 *    tables (one token per character), tainted_mask, the list head
 *    `modules`, page tables (which map the image too, in 2 MiB pages, as
 *    Linux's level2_kernel_pgt does), and the BTF blob between
 *    __start_BTF and __stop_BTF, made with libbpf's
 *    btf__new_empty()/btf__add_*();
 *  - struct module of each module in module memory, each in a page of its
 *    own at 0xffffffffc0000000 + 4 KiB * i (4 KiB pages), the last one at
 *    0xffffffffc0201000, in a 2 MiB page (a PMD with PS set), their list
 *    in load order (newest first, as list_add_rcu() makes it).
 *
 * The struct module layout is the spec's: BTF describes it, the bytes
 * follow it (or, with lie_name, not), so a reader that assumes offsets
 * fails.  taints sits in an anonymous struct, as a member BTF finds only
 * by looking inside.
 */
#ifndef TAINT_STATUS_FIXTURE_H
#define TAINT_STATUS_FIXTURE_H

#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#define SX_UNUSED	__attribute__((unused))
#define SX_MAP		UINT64_C(0xffffffff80000000)
#define SX_IMG_VA	UINT64_C(0xffffffff81000000)	/* + kaslr */
#define SX_MOD_VA	UINT64_C(0xffffffffc0000000)
#define SX_BIG_VA	UINT64_C(0xffffffffc0200000)	/* a 2 MiB page */
#define SX_MOD_PA	UINT64_C(0x200000)	/* 4 KiB pages of modules */
#define SX_BIG_PA	UINT64_C(0x400000)	/* the 2 MiB page */
#define SX_IMG_SIZE	0x10000u
/* in the image */
#define SX_TOKENS	0x0000u
#define SX_TOKEN_INDEX	0x0800u
#define SX_NUM_SYMS	0x0a00u
#define SX_BASE		0x0a08u
#define SX_OFFSETS	0x0b00u
#define SX_NAMES	0x1000u
#define SX_MASK		0x2000u
#define SX_MODULES	0x2010u
#define SX_DECOY	0x2100u	/* a text symbol also named modules */
#define SX_PGD		0x3000u	/* then P4D (5 levels), PUD, PMD, PTE */
#define SX_IMG_PMD	0x8000u	/* the image's PMD: 2 MiB pages */
#define SX_BTF		0x9000u
#define SX_MODS_MAX	8

enum sx_form { SX_RELATIVE, SX_PERCPU, SX_PLACE, SX_ADDRESSES };

struct sx_module {
	const char *name;
	uint64_t taints;
};

struct sx_spec {
	enum sx_form form;
	uint64_t kaslr;
	int64_t phys_base;
	bool l5;			/* 5-level page tables */
	uint64_t mask;			/* tainted_mask */
	const struct sx_module *mods;	/* the first is the newest */
	size_t nmods;			/* the last in the 2 MiB page */
	/* struct module: where BTF puts the members */
	unsigned int list, name, name_len, taints_at, size;
	/* faults */
	bool no_kallsyms;		/* no SYMBOL(kallsyms_*) keys */
	bool no_btf;			/* no __start_BTF/__stop_BTF */
	bool bad_btf;			/* the blob's magic broken */
	bool bad_btf_type;		/* struct module's members run past
					 * the type section */
	bool no_mask_sym;		/* no tainted_mask in kallsyms */
	bool no_modules_sym;		/* no `modules` (CONFIG_MODULES=n) */
	bool no_module_struct;		/* BTF without struct module */
	bool lie_name;			/* the names are not where BTF says */
	bool unmapped;			/* a module's page not mapped */
	bool loop;			/* the list does not come back */
	bool stray_bit;			/* taints with bit 40 */
	bool no_mod_page;		/* a module's page not in the dump */
	/* bench/vmcore_bench.c: a kernel's size.  Then the offsets, the names
	 * and the BTF move past 0x10000, the image grows to hold them */
	size_t extra_syms;		/* text symbols besides these */
	const unsigned char *btf_blob;	/* a kernel's BTF instead of ours
					 * (list, name, taints_at its) */
	size_t btf_blob_len;
	uint64_t ram;			/* bytes of memory at 1 GiB, zeros
					 * (a hole of the file) */
};

/* where the tables and the BTF are, and the image's size */
struct sx_where {
	size_t offsets, names, btf, size;
};

static SX_UNUSED void sx_where(const struct sx_spec *s, size_t btf_len,
			       struct sx_where *w)
{
	if (!s->extra_syms && !s->btf_blob) {
		*w = (struct sx_where){ SX_OFFSETS, SX_NAMES, SX_BTF,
					SX_IMG_SIZE };
		return;
	}
	w->offsets = 0x10000;
	w->names = w->offsets + 8 * (s->extra_syms + 16);
	w->btf = (w->names + 40 * (s->extra_syms + 16) + 0xfff) & ~(size_t)0xfff;
	w->size = (w->btf + btf_len + 0xfff) & ~(size_t)0xfff;
}

/* Linux 6.12's struct module on x86_64 (offsets of Debian's 6.12.x) */
static SX_UNUSED const struct sx_module sx_mods[] = {
	{ "ut_taint", 1u << 12 | 1u << 13 },	/* O and E, as /sys shows OE */
	{ "e1000", 0 },				/* no taint: not listed */
	{ "nvidia", 1u << 0 | 1u << 12 | 1u << 13 },	/* POE */
	{ "zz_big_page", 1u << 28 },		/* a bit with no letter: ? */
};

static SX_UNUSED const struct sx_spec sx_main = {
	.form = SX_PERCPU, .kaslr = 0x2400000, .phys_base = 0,
	.mask = 1u << 12 | 1u << 13 | 1u << 9 | 1u << 6 | 1u << 0,
	.mods = sx_mods, .nmods = 4,
	.list = 8, .name = 24, .name_len = 56, .taints_at = 896,
	.size = 1280,
};

static SX_UNUSED void sx_le(unsigned char *p, uint64_t v, unsigned int w)
{
	for (unsigned int i = 0; i < w; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

struct sx_buf {
	unsigned char *p;
	size_t len, cap;
};

static SX_UNUSED void sx_put(struct sx_buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static SX_UNUSED __attribute__((format(printf, 2, 3)))
void sx_line(struct sx_buf *b, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sx_put(b, line, (size_t)n);
}

/* the BTF of list_head and module (the spec's layout), libbpf-made: its
 * raw bytes, malloc()ed */
static SX_UNUSED unsigned char *sx_btf(const struct sx_spec *s, size_t *len)
{
	struct btf *b = btf__new_empty();
	int ulong, chr, in, lh, lhp, arr, anon, mod;
	const void *raw;
	uint32_t n;
	unsigned char *out;

	if (!b)
		abort();
	ulong = btf__add_int(b, "long unsigned int", 8, 0);
	chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	in = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	lhp = btf__add_ptr(b, in + 2);		/* struct list_head *, next */
	lh = btf__add_struct(b, "list_head", 16);
	if (lh != in + 2 || btf__add_field(b, "next", lhp, 0, 0) ||
	    btf__add_field(b, "prev", lhp, 64, 0))
		abort();
	arr = btf__add_array(b, in, chr, s->name_len);
	anon = btf__add_struct(b, NULL, 16);
	if (btf__add_field(b, "flags", ulong, 0, 0) ||
	    btf__add_field(b, "taints", ulong, 64, 0))
		abort();
	mod = btf__add_struct(b, s->no_module_struct ? "modul" : "module",
			      s->size);
	if (arr < 0 || anon < 0 || mod < 0 ||
	    btf__add_field(b, "state", in, 0, 0) ||
	    btf__add_field(b, "list", lh, s->list * 8, 0) ||
	    btf__add_field(b, "name", arr, s->name * 8, 0) ||
	    btf__add_field(b, NULL, anon, (s->taints_at - 8) * 8, 0))
		abort();
	raw = btf__raw_data(b, &n);
	out = malloc(n);
	if (!raw || !out)
		abort();
	memcpy(out, raw, n);
	*len = n;
	btf__free(b);
	if (s->bad_btf)
		out[0] ^= 0xff;		/* the magic 0xeB9F */
	if (s->bad_btf_type) {
		/* type 8, struct module: after 3 ints (16 bytes each), a
		 * pointer (12), list_head and the anonymous struct (12 + 2
		 * members of 12) and the array (12 + 12); its vlen 0xffff */
		size_t at = out[4] | (size_t)out[5] << 8 | (size_t)out[6] << 16;

		at += out[8] | (size_t)out[9] << 8;	/* hdr_len + type_off */
		at += 3 * 16 + 12 + 36 + 24 + 36 + 4;
		if (at + 2 > n)
			abort();
		out[at] = out[at + 1] = 0xff;
	}
	return out;
}

struct sx_sym {
	char name[32];			/* type letter first */
	uint64_t addr;
};

static SX_UNUSED int sx_sym_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct sx_sym *)a)->addr;
	uint64_t y = ((const struct sx_sym *)b)->addr;

	return x < y ? -1 : x > y;
}

/* the kallsyms tables of @syms (sorted here), in the spec's form */
static SX_UNUSED void sx_kallsyms(unsigned char *img, uint64_t img_va,
				  const struct sx_spec *s, struct sx_sym *syms,
				  size_t n, const struct sx_where *w)
{
	unsigned char *names = img + w->names;
	uint64_t base = UINT64_MAX;
	size_t t = 0, num = 0;

	qsort(syms, n, sizeof(*syms), sx_sym_cmp);
	for (int c = 0; c < 256; c++) {
		size_t at = 0;

		if (c > 0x20 && c < 0x7f) {
			at = t;
			img[SX_TOKENS + t++] = (unsigned char)c;
			img[SX_TOKENS + t++] = 0;
		}
		sx_le(img + SX_TOKEN_INDEX + 2 * c, at, 2);
	}
	for (size_t i = 0; i < n; i++)
		if (syms[i].addr >= SX_MAP && syms[i].addr < base)
			base = syms[i].addr;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = syms[i].addr;
		size_t len = strlen(syms[i].name);
		uint64_t at = img_va + w->offsets + 4 * num;

		if (a < SX_MAP && s->form != SX_PERCPU)
			continue;	/* per-CPU symbols: only that form */
		*names++ = (unsigned char)len;
		memcpy(names, syms[i].name, len);
		names += len;
		if (s->form == SX_ADDRESSES) {
			sx_le(img + w->offsets + 8 * num++, a, 8);
			continue;
		}
		if (s->form == SX_RELATIVE)
			sx_le(img + w->offsets + 4 * num, a - base, 4);
		else if (s->form == SX_PLACE)
			sx_le(img + w->offsets + 4 * num, a - at, 4);
		else if (a < SX_MAP)
			sx_le(img + w->offsets + 4 * num, a, 4);
		else
			sx_le(img + w->offsets + 4 * num,
			      (uint64_t)(-(int64_t)(a - base) - 1), 4);
		num++;
	}
	sx_le(img + SX_NUM_SYMS, num, 4);
	sx_le(img + SX_BASE, base, 8);
}

static SX_UNUSED void sx_note(struct sx_buf *b, const char *name,
			      uint32_t type, const void *desc, size_t len)
{
	static const unsigned char pad[4];
	unsigned char h[12];
	size_t namesz = strlen(name) + 1;

	sx_le(h, namesz, 4);
	sx_le(h + 4, len, 4);
	sx_le(h + 8, type, 4);
	sx_put(b, h, 12);
	sx_put(b, name, namesz);
	sx_put(b, pad, (4 - namesz % 4) % 4);
	sx_put(b, desc, len);
	sx_put(b, pad, (4 - len % 4) % 4);
}

static SX_UNUSED void sx_phdr(unsigned char *p, uint32_t type, uint64_t off,
			      uint64_t paddr, uint64_t filesz)
{
	memset(p, 0, sizeof(Elf64_Phdr));
	sx_le(p + offsetof(Elf64_Phdr, p_type), type, 4);
	sx_le(p + offsetof(Elf64_Phdr, p_offset), off, 8);
	sx_le(p + offsetof(Elf64_Phdr, p_paddr), paddr, 8);
	sx_le(p + offsetof(Elf64_Phdr, p_filesz), filesz, 8);
	sx_le(p + offsetof(Elf64_Phdr, p_memsz), filesz, 8);
}

/* the virtual address of module @i's struct module */
static SX_UNUSED uint64_t sx_mod_va(const struct sx_spec *s, size_t i)
{
	return i + 1 == s->nmods ? SX_BIG_VA + 0x1000 :
				   SX_MOD_VA + 0x1000 * (uint64_t)i;
}

/* The dump of @s, malloc()ed, in *@len bytes. */
static SX_UNUSED unsigned char *sx_build(const struct sx_spec *s, size_t *len)
{
	enum { NPH = 5 };
	uint64_t img_va = SX_IMG_VA + s->kaslr;
	uint64_t img_pa = img_va - SX_MAP + (uint64_t)s->phys_base;
	unsigned char *img;
	unsigned char *mods = calloc(SX_MODS_MAX, 0x1000);
	unsigned char big[0x1000];
	unsigned char eh[sizeof(Elf64_Ehdr)] = { 0 };
	unsigned char ph[NPH][sizeof(Elf64_Phdr)];
	struct sx_buf notes = { 0 }, info = { 0 }, out = { 0 };
	struct sx_sym *syms = calloc(16 + s->extra_syms, sizeof(*syms));
	size_t nsyms = 0, btf_len, nsmall = s->nmods ? s->nmods - 1 : 0;
	unsigned char *btf = s->btf_blob ? NULL : sx_btf(s, &btf_len);
	struct sx_where w;
	uint64_t head = img_va + SX_MODULES, off;
	unsigned int tables = s->l5 ? 5 : 4, l = 0;
	uint64_t table_pa[5];

	if (s->btf_blob)
		btf_len = s->btf_blob_len;
	sx_where(s, btf_len, &w);
	img = calloc(1, w.size);
	if (!img || !mods || !syms || s->nmods > SX_MODS_MAX ||
	    w.btf + btf_len > w.size)
		abort();
	memset(big, 0, sizeof(big));
	memcpy(img + w.btf, s->btf_blob ? s->btf_blob : btf, btf_len);
	if (s->btf_blob && s->bad_btf)
		img[w.btf] ^= 0xff;
	free(btf);
	sx_le(img + SX_MASK, s->mask, 8);

	/* symbols */
#define SYM(n, a) do { snprintf(syms[nsyms].name, sizeof(syms[0].name), "%s", (n)); \
		syms[nsyms++].addr = (a); } while (0)
	SYM("Afixed_percpu_data", 0);
	SYM("Dcpu_number", 0x2a000);
	SYM("T_stext", img_va + 0x100);
	SYM("tmodules", img_va + 0x200);	/* a function of that name */
	if (!s->no_mask_sym)
		SYM("btainted_mask", img_va + SX_MASK);
	if (!s->no_modules_sym)
		SYM("Dmodules", head);
	SYM("dmodule_mutex", head + 0x40);
	if (!s->no_btf) {
		SYM("R__start_BTF", img_va + w.btf);
		SYM("R__stop_BTF", img_va + w.btf + btf_len);
	}
	SYM("T_etext", img_va + w.size);
	/* a kernel's many functions, between _stext and the data */
	for (size_t i = 0; i < s->extra_syms; i++) {
		snprintf(syms[nsyms].name, sizeof(syms[0].name),
			 "tbench_fn_%07u", (unsigned int)(i % 10000000));
		syms[nsyms++].addr = img_va + 0x300 + i % 0x1c00;
	}
#undef SYM
	sx_kallsyms(img, img_va, s, syms, nsyms, &w);
	free(syms);

	/* the page tables: one table per level over both module areas */
	for (unsigned int t = 0; t < tables; t++)
		table_pa[t] = img_pa + SX_PGD + 0x1000 * t;
	for (int level = (int)tables - 1; level >= 1; level--, l++) {
		unsigned int shift = 12 + 9 * (unsigned int)level;
		uint64_t idx = SX_MOD_VA >> shift & 511;

		sx_le(img + SX_PGD + 0x1000 * l + 8 * idx,
		      table_pa[l + 1] | 0x63, 8);
		if (level == 1) {	/* the PMD: the 2 MiB page too */
			idx = SX_BIG_VA >> shift & 511;
			sx_le(img + SX_PGD + 0x1000 * l + 8 * idx,
			      SX_BIG_PA | 0xe3, 8);
		}
	}
	/* the image, from the PUD: its own PMD of 2 MiB pages (a reader
	 * that walks the tables for the image too, as libkdumpfile does,
	 * finds it there) */
	{
		unsigned int pud = tables - 3;
		uint64_t va = img_va & ~UINT64_C(0x1fffff);

		sx_le(img + SX_PGD + 0x1000 * pud + 8 * (img_va >> 30 & 511),
		      (img_pa + SX_IMG_PMD) | 0x63, 8);
		for (; va < img_va + w.size; va += 0x200000)
			sx_le(img + SX_IMG_PMD + 8 * (va >> 21 & 511),
			      (img_pa - (img_va - va)) | 0xe3, 8);
	}
	for (size_t i = 0; i < nsmall; i++)
		if (!(s->unmapped && i == 1))
			sx_le(img + SX_PGD + 0x1000 * l + 8 * i,
			      (SX_MOD_PA + 0x1000 * i) | 0x163, 8);

	/* the modules, newest first: modules.next is mods[0] */
	for (size_t i = 0; i < s->nmods; i++) {
		unsigned char *m = i + 1 == s->nmods ? big : mods + 0x1000 * i;
		uint64_t me = sx_mod_va(s, i) + s->list;
		uint64_t next = i + 1 < s->nmods ? sx_mod_va(s, i + 1) + s->list :
			       s->loop ? me : head;
		uint64_t prev = i ? sx_mod_va(s, i - 1) + s->list : head;
		unsigned int name_at = s->lie_name ? s->name + 3 : s->name;

		sx_le(m + s->list, next, 8);
		sx_le(m + s->list + 8, prev, 8);
		memset(m + name_at, 0, s->name_len);
		memcpy(m + name_at, s->mods[i].name, strlen(s->mods[i].name));
		if (s->lie_name)
			memset(m + s->name, 0xee, 3);
		sx_le(m + s->taints_at, s->mods[i].taints |
		      (s->stray_bit && i == 0 ? UINT64_C(1) << 40 : 0), 8);
		if (i == 0)
			sx_le(img + SX_MODULES, me, 8);
		if (i + 1 == s->nmods)
			sx_le(img + SX_MODULES + 8, me, 8);
	}
	if (!s->nmods) {
		sx_le(img + SX_MODULES, head, 8);
		sx_le(img + SX_MODULES + 8, head, 8);
	}

	/* VMCOREINFO */
	sx_line(&info, "OSRELEASE=6.12.57+deb12-amd64\nPAGESIZE=4096\n");
	sx_line(&info, "SYMBOL(_stext)=%llx\n",
		(unsigned long long)(img_va + 0x100));
	if (!s->no_kallsyms) {
		sx_line(&info, "SYMBOL(kallsyms_names)=%llx\n",
			(unsigned long long)(img_va + w.names));
		sx_line(&info, "SYMBOL(kallsyms_num_syms)=%llx\n",
			(unsigned long long)(img_va + SX_NUM_SYMS));
		sx_line(&info, "SYMBOL(kallsyms_token_table)=%llx\n",
			(unsigned long long)(img_va + SX_TOKENS));
		sx_line(&info, "SYMBOL(kallsyms_token_index)=%llx\n",
			(unsigned long long)(img_va + SX_TOKEN_INDEX));
		sx_line(&info, "SYMBOL(kallsyms_%s)=%llx\n",
			s->form == SX_ADDRESSES ? "addresses" : "offsets",
			(unsigned long long)(img_va + w.offsets));
		if (s->form == SX_RELATIVE || s->form == SX_PERCPU)
			sx_line(&info, "SYMBOL(kallsyms_relative_base)=%llx\n",
				(unsigned long long)(img_va + SX_BASE));
	}
	sx_line(&info, "NUMBER(phys_base)=%lld\nKERNELOFFSET=%llx\n",
		(long long)s->phys_base, (unsigned long long)s->kaslr);
	sx_line(&info, "SYMBOL(init_top_pgt)=%llx\n",
		(unsigned long long)(img_va + SX_PGD));
	sx_line(&info, "NUMBER(pgtable_l5_enabled)=%d\n", s->l5);
	sx_line(&info, "CRASHTIME=1796284800\n");
	sx_note(&notes, "VMCOREINFO", 0, info.p, info.len);

	memcpy(eh, ELFMAG, SELFMAG);
	eh[EI_CLASS] = ELFCLASS64;
	eh[EI_DATA] = ELFDATA2LSB;
	eh[EI_VERSION] = EV_CURRENT;
	sx_le(eh + offsetof(Elf64_Ehdr, e_type), ET_CORE, 2);
	sx_le(eh + offsetof(Elf64_Ehdr, e_machine), EM_X86_64, 2);
	sx_le(eh + offsetof(Elf64_Ehdr, e_version), EV_CURRENT, 4);
	sx_le(eh + offsetof(Elf64_Ehdr, e_phoff), sizeof(eh), 8);
	sx_le(eh + offsetof(Elf64_Ehdr, e_ehsize), sizeof(eh), 2);
	sx_le(eh + offsetof(Elf64_Ehdr, e_phentsize), sizeof(Elf64_Phdr), 2);
	sx_le(eh + offsetof(Elf64_Ehdr, e_phnum), s->ram ? NPH : NPH - 1, 2);
	off = sizeof(eh) + (s->ram ? NPH : NPH - 1) * sizeof(ph[0]);
	sx_phdr(ph[0], PT_NOTE, off, 0, notes.len);
	off += notes.len;
	sx_phdr(ph[1], PT_LOAD, off, img_pa, w.size);
	off += w.size;
	/* the small pages: all but the second when a page is missing */
	sx_phdr(ph[2], PT_LOAD, off, SX_MOD_PA,
		0x1000 * (s->no_mod_page && nsmall > 1 ? 1 : nsmall));
	off += 0x1000 * (s->no_mod_page && nsmall > 1 ? 1 : nsmall);
	sx_phdr(ph[3], PT_LOAD, off, SX_BIG_PA + 0x1000, sizeof(big));
	off += sizeof(big);
	/* memory the answer does not need, after the rest of the file (not
	 * in *@len: bench/vmcore_bench.c leaves it a hole of the file) */
	sx_phdr(ph[4], PT_LOAD, off, UINT64_C(1) << 30, s->ram);
	sx_put(&out, eh, sizeof(eh));
	sx_put(&out, ph, (s->ram ? NPH : NPH - 1) * sizeof(ph[0]));
	sx_put(&out, notes.p, notes.len);
	sx_put(&out, img, w.size);
	sx_put(&out, mods, 0x1000 * (s->no_mod_page && nsmall > 1 ? 1 : nsmall));
	sx_put(&out, big, sizeof(big));
	free(img);
	free(mods);
	free(notes.p);
	free(info.p);
	*len = out.len;
	return out.p;
}

#endif
