/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vmcore_internal.h - the parts of the crash dump reader behind
 * taint_vmcore_read_log() (vmcore.c), in layers, each file using only
 * those declared before it: reads of the file and the reason a dump
 * cannot be read (vmcore_file.c); the dump's bytes, through the records
 * of makedumpfile's flattened format (vmcore_flat.c); the formats, an ELF
 * core (vmcore_elf.c) and makedumpfile's kdump-compressed dump
 * (vmcore_diskdump.c); the dump whatever its format, the kernel's memory
 * in it (vmcore_dump.c); then the VMCOREINFO note's keys (vmcoreinfo.c),
 * any kernel virtual address through the dumped kernel's page tables
 * (vmcore_pgtable.c), the kernel's symbol table (kallsyms.c) and its BTF
 * (vmcore_btf.c).  Not installed.
 *
 * Every number in a dump is untrusted: each offset, size and count is
 * checked before use, and nothing is allocated from a size in the file
 * beyond a fixed bound.
 */
#ifndef TAINT_VMCORE_INTERNAL_H
#define TAINT_VMCORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "taint.h"	/* enum taint_vmcore_fault */

/* x86_64's __START_KERNEL_map: the kernel image's addresses start here. */
#define VMCORE_KERNEL_MAP UINT64_C(0xffffffff80000000)

/* One PT_LOAD segment: physical memory [paddr, paddr + memsz), of which
 * the first filesz bytes are in the file at offset; the rest reads as 0. */
struct vmcore_seg {
	uint64_t paddr, filesz, memsz, offset;
};

struct vmcore {
	int fd;
	uint64_t file_size;
	uint64_t file_end;	/* where the last PT_LOAD's file bytes end */
	struct vmcore_seg *seg;
	size_t nseg, last;	/* last: the segment of the last read */
	size_t seg_cap;		/* room in seg */
	char *info;		/* the VMCOREINFO text, NUL-terminated */
	int64_t phys_base;	/* NUMBER(phys_base) */
	uint64_t raw_size;	/* the file's size; file_size is the dump's */
	struct vmcore_flat *flat;	/* a flattened file: its records */
	struct vmcore_dd *dd;	/* a kdump-compressed dump */
	char *why;		/* the first error, for the caller */
	size_t why_size;
	int fault;		/* enum taint_vmcore_fault of that error */
	/* vmcore_pgtable.c: the kernel's page tables, found at first use */
	uint64_t pgd;		/* physical address of the top level */
	uint64_t pte_addr;	/* the address bits of an entry */
	bool l5;		/* five levels */
	bool pt_ready;
	uint64_t tlb_va, tlb_pa;	/* the last page translated (+1: valid) */
};

/* Little-endian fields of the dump, whatever the host's byte order. */
static inline uint64_t vmcore_le(const unsigned char *p, unsigned int width)
{
	uint64_t v = 0;

	while (width--)
		v = v << 8 | p[width];
	return v;
}

/* vmcore_file.c: under every format's reader */
/* Say why the dump cannot be read (the first reason given is kept) and
 * return @err. */
int vmcore_fail(struct vmcore *vc, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* vmcore_fail() that also says which kind of fault it is (enum
 * taint_vmcore_fault), for the caller's exit code. */
int vmcore_fault(struct vmcore *vc, int kind, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* vmcore_fail(-EBADMSG): the file ends before @what. */
int vmcore_truncated(struct vmcore *vc, const char *what);
/* Exactly @len bytes at @off of the file: 0, -ENODATA (past its end),
 * -errno. */
int vmcore_raw_read(struct vmcore *vc, uint64_t off, void *buf, size_t len);

/* vmcore_flat.c: makedumpfile's flattened format (a file of records, read
 * as the dump makedumpfile -R would write).  The open returns 0,
 * -EBADMSG (reason given), -errno or -ENOMEM. */
int vmcore_flat_open(struct vmcore *vc);
int vmcore_flat_read(struct vmcore *vc, uint64_t off, void *buf, size_t len);
void vmcore_flat_close(struct vmcore *vc);
/* vmcore_raw_read(), of the dump: through a flattened file's records. */
int vmcore_file_read(struct vmcore *vc, uint64_t off, void *buf, size_t len);
/* vmcore_file_read() of a part the dump must have: the file ends before
 * @what is vmcore_truncated(). */
int vmcore_must_read(struct vmcore *vc, uint64_t off, void *buf, size_t len,
		     const char *what);

/* vmcore_elf.c: an ELF core.  The open gets the first bytes of the dump
 * (@got of them at @eh, at most an ELF header's): 0, -EBADMSG, -ENOTSUP
 * (reason given), -errno, -ENOMEM. */
int vmcore_elf_open(struct vmcore *vc, const unsigned char *eh, size_t got);
/* Up to @len bytes of physical memory at @pa, *@done of them read;
 * -EFAULT at the first byte no segment holds, -ENODATA (the file is
 * truncated there), -errno. */
int vmcore_elf_phys_read(struct vmcore *vc, uint64_t pa, unsigned char *buf,
			 size_t len, size_t *done);

/* vmcore_diskdump.c: makedumpfile's kdump-compressed format (header,
 * bitmaps, page descriptors, compressed pages).  The open returns 0,
 * -EBADMSG, -ENOTSUP (reason given), -errno or -ENOMEM. */
int vmcore_dd_open(struct vmcore *vc);
/* As vmcore_elf_phys_read(): up to @len bytes of physical memory at @pa,
 * *@done of them read; -EFAULT past the dump's pages, -EBADMSG (reason
 * given) for a page filtered out or damaged, -ENOTSUP (snappy). */
int vmcore_dd_phys_read(struct vmcore *vc, uint64_t pa, unsigned char *buf,
			size_t len, size_t *done);
void vmcore_dd_close(struct vmcore *vc);

/* vmcore_dump.c: the dump whatever its format, over the readers above */
/* Tell the format, and open the dump with its reader (the ELF one: check
 * the ELF header, collect the PT_LOAD segments and the VMCOREINFO note).
 * 0, -EBADMSG, -ENOTSUP (reason given), -errno, -ENOMEM. */
int vmcore_open(struct vmcore *vc, int fd, char *why, size_t why_size);
void vmcore_close(struct vmcore *vc);
/* Read @len bytes at kernel-image address @vaddr (needs vc->phys_base).
 * 0, -EFAULT (not in the dump: no segment holds it, or the address is not
 * the kernel image's), -ENODATA (the file is truncated there), -errno. */
int vmcore_read(struct vmcore *vc, uint64_t vaddr, void *buf, size_t len);
/* The same, for as many bytes as the dump holds from @vaddr on (at least
 * one, at most *@len): *@len is set to their number. */
int vmcore_read_some(struct vmcore *vc, uint64_t vaddr, void *buf,
		     size_t *len);

/* Exactly @len bytes of physical memory at @pa: 0, -EFAULT (the dump
 * does not hold them), -EBADMSG (reason given: a page filtered out or
 * damaged), -ENODATA (the file is truncated there), -errno. */
int vmcore_phys_read(struct vmcore *vc, uint64_t pa, void *buf, size_t len);

/* vmcoreinfo.c: the value of KEY=VALUE ("SYMBOL(taint_events)", ...).
 * 0, -ENOENT (no such key) or -EINVAL (not a number of that form). */
int vmcoreinfo_hex(const struct vmcore *vc, const char *key, uint64_t *v);
int vmcoreinfo_unsigned(const struct vmcore *vc, const char *key,
			uint64_t *v);
int vmcoreinfo_signed(const struct vmcore *vc, const char *key, int64_t *v);
/* The value as text (its length in *@len), or NULL. */
const char *vmcoreinfo_text(const struct vmcore *vc, const char *key,
			    size_t *len);
/* LAYOUT(@name)=SIZE FIELD:OFFSET FIELD:OFFSET[LENGTH] ...: with @field
 * NULL, SIZE in *@off; else FIELD's OFFSET in *@off and its LENGTH in
 * *@len (0 if it has none).  0, -ENOENT (no such line or field) or
 * -EINVAL (the line, any field of it, is not of that form). */
int vmcoreinfo_layout(const struct vmcore *vc, const char *name,
		      const char *field, uint64_t *off, uint64_t *len);

/* vmcore_pgtable.c: x86_64's 4- and 5-level page tables, from
 * SYMBOL(init_top_pgt) (or SYMBOL(swapper_pg_dir)), NUMBER(pgtable_l5_enabled)
 * and NUMBER(sme_mask) (needs vc->phys_base).  @len bytes at kernel
 * virtual address @vaddr (module memory, vmalloc, the direct map, the
 * image): 0, -EFAULT (not mapped: reason given), -EBADMSG (reason given:
 * no page tables in VMCOREINFO, a page filtered out), -ENODATA, -errno. */
int vmcore_vread(struct vmcore *vc, uint64_t vaddr, void *buf, size_t len);

/* kallsyms.c: the kernel's own symbol table, found through VMCOREINFO. */
struct kallsyms;
/* The table, for kallsyms_lookup(): 0 and *@ksp; -ENOENT (VMCOREINFO has
 * no SYMBOL(kallsyms_*) keys: reason given), -EFAULT (the dump does not
 * hold the table, or it is not one: reason given), -EBADMSG (reason
 * given), -ENODATA, -ENOMEM, -errno. */
int kallsyms_load(struct vmcore *vc, struct kallsyms **ksp);
/* One walk of the names for each of @names[0..@n): its address in
 * @addrs[i], @found[i] set.  A name may start with the type letters it
 * must have, then a space ("Dd modules": a data symbol named modules);
 * the first symbol of that name (and type) in address order is taken.
 * 0, -EFAULT (the table runs out of the dump), -ENODATA, -EBADMSG (a
 * page filtered out: reason given), -errno; a name the table cannot hold
 * is not found. */
int kallsyms_lookup(struct kallsyms *ks, const char *const *names, size_t n,
		    uint64_t *addrs, bool *found);
/* NULL if the dump has no usable table (no CONFIG_KALLSYMS, a table that
 * the dump does not hold); *@err is set to -ENOMEM, -ENODATA or -errno of
 * an I/O error, which the caller must not ignore, else 0. */
struct kallsyms *kallsyms_open(struct vmcore *vc, int *err);
void kallsyms_close(struct kallsyms *ks);
/*
 * " caller=<symbol>+<off>/<size>" for @addr, into @out (@size bytes), as
 * the kernel's kallsyms_lookup() and "%s+%#lx/%#lx" make it.  1 if the
 * address was named, 0 if it cannot be (below the first symbol, after the
 * last, a table that does not hold it, a name that the log cannot carry),
 * or -ENOMEM, -ENODATA (the file ended), -errno of an I/O error.
 */
int kallsyms_caller(struct kallsyms *ks, uint64_t addr, char *out,
		    size_t size);

/* vmcore_btf.c: the kernel's BTF (CONFIG_DEBUG_INFO_BTF), the bytes
 * between the symbols __start_BTF and __stop_BTF, parsed with libbpf's
 * btf__new().  0 and *@btfp; -EBADMSG with the reason and its fault
 * (TAINT_VMCORE_NO_BTF: no such symbols; TAINT_VMCORE_BAD_BTF: not BTF
 * that libbpf can parse; a blob the dump does not hold), -ENOMEM, -errno. */
struct btf;
int vmcore_btf_load(struct vmcore *vc, struct kallsyms *ks, struct btf **btfp);
void vmcore_btf_free(struct btf *btf);
/* struct @st's size (@member NULL), or @member's byte offset and size
 * (also inside an anonymous struct or union member).  0; -EBADMSG
 * (TAINT_VMCORE_BAD_BTF: no such struct or member, a bit field). */
int vmcore_btf_member(struct vmcore *vc, const struct btf *btf,
		      const char *st, const char *member, uint64_t *off,
		      uint64_t *size);

#endif
