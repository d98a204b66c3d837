// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_status.c - the taint of the kernel a crash dump was taken of,
 * patched or stock (docs/abi.md 1.7): taint_vmcore_read_status() gives
 * what `taintctl status` shows of a running kernel, its mask
 * (/proc/sys/kernel/tainted) and the loaded modules that carry taint
 * (/sys/module/NAME/taint), with nothing from VMCOREINFO but the keys
 * every kernel since 6.0 writes: the symbol table (kallsyms.c) finds
 * tainted_mask, the module list `modules` and the kernel's BTF
 * (vmcore_btf.c), which lays out struct module (list, name, taints) and
 * struct list_head (next).  The module structures are in module memory,
 * read through the kernel's page tables (vmcore_pgtable.c); only their
 * pages, the symbol table's, the BTF's and the page tables' are read.
 *
 * Each module's letters are the kernel's module_flags_taint(): the letter
 * of each set bit of mod->taints, in bit order.  What is read is checked:
 * a name must be 1-255 printable bytes ended inside its array, taints
 * must have no bit at or past 32 (TAINT_FLAGS_COUNT is 19-20), the list
 * must come back to its head within MODULES_MAX entries: else the
 * structure is not where BTF says, and the dump is not read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "vmcore_internal.h"

#define MODULES_MAX	65536	/* a kernel loads a few hundred */

struct layout {
	uint64_t list, name, name_size, taints, taints_size, next;
};

static int layout_of(struct vmcore *vc, const struct btf *btf,
		     struct layout *lo)
{
	uint64_t size;
	int ret = vmcore_btf_member(vc, btf, "module", "list", &lo->list,
				    &size);

	if (!ret)
		ret = vmcore_btf_member(vc, btf, "module", "name", &lo->name,
					&lo->name_size);
	if (!ret)
		ret = vmcore_btf_member(vc, btf, "module", "taints",
					&lo->taints, &lo->taints_size);
	if (!ret)
		ret = vmcore_btf_member(vc, btf, "list_head", "next",
					&lo->next, &size);
	if (!ret && size != 8)
		ret = vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				   "the kernel's BTF makes list_head.next %llu bytes, not a pointer's 8",
				   (unsigned long long)size);
	if (!ret && lo->taints_size != 8 && lo->taints_size != 4)
		ret = vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				   "the kernel's BTF makes module.taints %llu bytes, not an unsigned long",
				   (unsigned long long)lo->taints_size);
	if (!ret && (lo->name_size < 2 || lo->name_size > 4096))
		ret = vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				   "the kernel's BTF makes module.name %llu bytes",
				   (unsigned long long)lo->name_size);
	return ret;
}

/* 8 bytes at @va (an image address if @image, else any) */
static int read_ptr(struct vmcore *vc, uint64_t va, bool image, uint64_t *v,
		    const char *what)
{
	unsigned char raw[8];
	int ret = image ? vmcore_read(vc, va, raw, 8) :
			  vmcore_vread(vc, va, raw, 8);

	if (ret == -EFAULT)
		ret = vmcore_fail(vc, -EBADMSG, "%s (0x%llx) is not in the dump",
				  what, (unsigned long long)va);
	if (ret == -ENODATA)
		ret = vmcore_truncated(vc, what);
	*v = ret ? 0 : vmcore_le(raw, 8);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct taint_module *)a)->name,
		      ((const struct taint_module *)b)->name);
}

struct walk {
	struct vmcore *vc;
	struct layout lo;
	struct taint_module *v;
	size_t count, cap;
};

/* the struct module at @mod: kept if it carries taint */
static int one_module(struct walk *w, uint64_t mod)
{
	struct vmcore *vc = w->vc;
	unsigned char name[4096], raw[8];
	uint64_t taints;
	struct taint_module *m;
	size_t len, n = 0;
	int ret = vmcore_vread(vc, mod + w->lo.name, name, w->lo.name_size);

	if (!ret)
		ret = vmcore_vread(vc, mod + w->lo.taints, raw,
				   w->lo.taints_size);
	if (ret == -EFAULT)	/* not mapped: reason given */
		ret = -EBADMSG;
	if (ret == -ENODATA)
		ret = vmcore_truncated(vc, "a struct module");
	if (ret)
		return ret;
	len = strnlen((const char *)name, w->lo.name_size);
	if (!len || len == w->lo.name_size || len > 255)
		return vmcore_fail(vc, -EBADMSG,
				   "the struct module at 0x%llx is not one: its name is %s (BTF: %llu bytes at offset %llu)",
				   (unsigned long long)mod,
				   len ? "not ended" : "empty",
				   (unsigned long long)w->lo.name_size,
				   (unsigned long long)w->lo.name);
	for (size_t i = 0; i < len; i++)
		if (name[i] <= 0x20 || name[i] >= 0x7f || name[i] == '/')
			return vmcore_fail(vc, -EBADMSG,
					   "the struct module at 0x%llx is not one: byte 0x%02x in its name (BTF: offset %llu)",
					   (unsigned long long)mod, name[i],
					   (unsigned long long)w->lo.name);
	taints = vmcore_le(raw, (unsigned int)w->lo.taints_size);
	if (taints >> 32)
		return vmcore_fail(vc, -EBADMSG,
				   "the struct module at 0x%llx (%.*s) is not one: taints 0x%llx has bits past the kernel's flags (BTF: offset %llu)",
				   (unsigned long long)mod, (int)len, name,
				   (unsigned long long)taints,
				   (unsigned long long)w->lo.taints);
	if (!taints)
		return 0;
	m = taint__grow(w->v, w->count, &w->cap, sizeof(*w->v), 16);
	if (!m)
		return -ENOMEM;
	w->v = m;
	m = &w->v[w->count++];
	memset(m, 0, sizeof(*m));
	memcpy(m->name, name, len);
	/* module_flags_taint(): each set bit's letter, in bit order */
	for (unsigned int bit = 0; bit < 32; bit++) {
		const struct taint_flag_info *f;

		if (!(taints & (UINT64_C(1) << bit)))
			continue;
		f = taint_flag_info(bit);
		m->taint[n++] = f ? f->letter : '?';
		if (f)
			m->mask |= UINT64_C(1) << bit;
	}
	return 0;
}

/* list_for_each_entry(mod, &modules, list), with Brent's cycle check: a
 * list that loops without coming back to its head is told at once, not
 * after MODULES_MAX entries */
static int walk_modules(struct walk *w, uint64_t head)
{
	uint64_t next, mark = 0;
	size_t power = 1, lam = 0;
	int ret = read_ptr(w->vc, head + w->lo.next, true, &next,
			   "the module list's head");

	for (size_t i = 0; !ret && next != head; i++) {
		if (i == MODULES_MAX || (i && next == mark))
			return vmcore_fail(w->vc, -EBADMSG,
					   "the module list does not come back to its head (0x%llx): it loops at 0x%llx",
					   (unsigned long long)head,
					   (unsigned long long)next);
		if (lam++ == power) {
			mark = next;
			power *= 2;
			lam = 1;
		}
		if (!i)
			mark = next;
		if (next < w->lo.list)
			return vmcore_fail(w->vc, -EBADMSG,
					   "the module list holds 0x%llx, not a struct module's list",
					   (unsigned long long)next);
		ret = one_module(w, next - w->lo.list);
		if (!ret)
			ret = read_ptr(w->vc, next + w->lo.next, false, &next,
				       "a module's list.next");
	}
	return ret;
}

/* the symbols, the mask and the modules; 0 or an error, reason given */
static int read_status(struct vmcore *vc, uint64_t *mask, struct walk *w)
{
	static const char *const names[] = {
		"tainted_mask", "Dd modules",
	};
	struct kallsyms *ks = NULL;
	struct btf *btf = NULL;
	uint64_t at[2];
	bool found[2];
	int ret = vmcoreinfo_signed(vc, "NUMBER(phys_base)", &vc->phys_base);

	if (ret)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO has %s NUMBER(phys_base): the kernel image cannot be found in physical memory",
				   ret == -ENOENT ? "no" : "a malformed");
	ret = kallsyms_load(vc, &ks);
	if (ret == -ENOENT || ret == -EFAULT)
		ret = -EBADMSG;	/* reason given */
	if (!ret)
		ret = kallsyms_lookup(ks, names, 2, at, found);
	if (ret == -EFAULT)
		ret = vmcore_fail(vc, -EBADMSG,
				  "the kernel's symbol table runs out of the dump");
	if (!ret && !found[0])
		ret = vmcore_fault(vc, TAINT_VMCORE_NO_SYMBOL, -EBADMSG,
				   "the kernel's symbol table has no tainted_mask (a kernel built without CONFIG_KALLSYMS_ALL names no data)");
	if (!ret)
		ret = read_ptr(vc, at[0], true, mask, "tainted_mask");
	/* no `modules`: a kernel without CONFIG_MODULES, no module to show */
	if (!ret && found[1])
		ret = vmcore_btf_load(vc, ks, &btf);
	if (!ret && found[1])
		ret = layout_of(vc, btf, &w->lo);
	if (!ret && found[1])
		ret = walk_modules(w, at[1]);
	vmcore_btf_free(btf);
	kallsyms_close(ks);
	return ret;
}

int taint_vmcore_read_status(int fd, uint64_t *mask, struct taint_module **mods,
			     size_t *count, int *fault, char *why,
			     size_t why_size)
{
	struct vmcore vc;
	struct walk w = { .vc = &vc };
	int ret;

	*mask = 0;
	*mods = NULL;
	*count = 0;
	*fault = TAINT_VMCORE_OK;
	ret = vmcore_open(&vc, fd, why, why_size);
	if (!ret)
		ret = read_status(&vc, mask, &w);
	if (ret == -EBADMSG || ret == -ENOTSUP || ret == -ENOENT)
		*fault = vc.fault ? vc.fault : TAINT_VMCORE_UNREADABLE;
	vmcore_close(&vc);
	if (ret) {
		free(w.v);
		*mask = 0;
		if (why_size && !*fault)
			why[0] = '\0';
		return ret;
	}
	if (w.count)
		qsort(w.v, w.count, sizeof(*w.v), by_name);
	*mods = w.v;
	*count = w.count;
	return 0;
}
