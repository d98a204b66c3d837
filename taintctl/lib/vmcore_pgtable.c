// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_pgtable.c - any kernel virtual address of an x86_64 dump, through
 * the dumped kernel's own page tables: what lies outside the kernel
 * image (a module's struct module in module memory, vmalloc, the direct
 * map), which vmcore_read()'s fixed offset does not reach.
 *
 * The top level is init_top_pgt (VMCOREINFO's SYMBOL(init_top_pgt), x86's
 * arch_crash_save_vmcoreinfo(); SYMBOL(swapper_pg_dir), the generic key,
 * is the same table), an image address; NUMBER(pgtable_l5_enabled) says
 * whether there are 5 levels, NUMBER(sme_mask) which address bit is AMD's
 * memory encryption bit, not an address bit.  Each level: bit 0 present,
 * bit 7 (PS) a 1 GiB or 2 MiB page at the PUD or PMD level, address bits
 * 12-51.  The last page translated is kept: the walks of one structure
 * read the same page many times.
 */
#include <errno.h>

#include "vmcore_internal.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(UINT64_C(1) << PAGE_SHIFT)
#define PTE_PRESENT	UINT64_C(1)
#define PTE_PS		(UINT64_C(1) << 7)
#define PTE_ADDR	UINT64_C(0x000ffffffffff000)

static int setup(struct vmcore *vc)
{
	uint64_t top, l5 = 0, sme = 0;

	if (vc->pt_ready)
		return 0;
	if (vmcoreinfo_hex(vc, "SYMBOL(init_top_pgt)", &top) &&
	    vmcoreinfo_hex(vc, "SYMBOL(swapper_pg_dir)", &top))
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO has no SYMBOL(init_top_pgt) nor SYMBOL(swapper_pg_dir): the kernel's page tables cannot be found");
	if (top < VMCORE_KERNEL_MAP)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: SYMBOL(init_top_pgt) 0x%llx is not an address of the kernel image",
				   (unsigned long long)top);
	/* absent (kernels before 4.13) is 4 levels; sme_mask absent is 0 */
	(void)vmcoreinfo_unsigned(vc, "NUMBER(pgtable_l5_enabled)", &l5);
	if (vmcoreinfo_unsigned(vc, "NUMBER(sme_mask)", &sme))
		sme = 0;
	vc->pgd = top - VMCORE_KERNEL_MAP + (uint64_t)vc->phys_base;
	vc->l5 = l5 != 0;
	vc->pte_addr = PTE_ADDR & ~sme;
	vc->tlb_va = 0;
	vc->pt_ready = true;
	return 0;
}

/* The physical address of @va: 0, -EFAULT (not mapped, reason given),
 * or the error of reading a table. */
static int translate(struct vmcore *vc, uint64_t va, uint64_t *pa)
{
	static const char *const level[] = { "PTE", "PMD", "PUD", "P4D",
					     "PGD" };
	uint64_t table = vc->pgd, e = 0;
	int top = vc->l5 ? 4 : 3;
	unsigned int bits = vc->l5 ? 57 : 48;

	/* canonical: bits above the top level's all equal to its last */
	if ((uint64_t)((int64_t)(va << (64 - bits)) >> (64 - bits)) != va)
		return vmcore_fail(vc, -EFAULT,
				   "address 0x%llx is not a canonical %u-bit address",
				   (unsigned long long)va, bits);
	if (vc->tlb_va && (va & ~(PAGE_SIZE - 1)) == vc->tlb_va - 1) {
		*pa = vc->tlb_pa | (va & (PAGE_SIZE - 1));
		return 0;
	}
	for (int l = top; l >= 0; l--) {
		unsigned int shift = PAGE_SHIFT + 9 * (unsigned int)l;
		unsigned char raw[8];
		uint64_t idx = va >> shift & 511;
		int ret = vmcore_phys_read(vc, table + 8 * idx, raw, 8);

		if (ret == -EFAULT)
			return vmcore_fail(vc, -EBADMSG,
					   "the %s page of address 0x%llx (physical 0x%llx) is not in the dump",
					   level[l], (unsigned long long)va,
					   (unsigned long long)table);
		if (ret)
			return ret;
		e = vmcore_le(raw, 8);
		if (!(e & PTE_PRESENT))
			return vmcore_fail(vc, -EFAULT,
					   "address 0x%llx is not mapped (its %s entry is not present)",
					   (unsigned long long)va, level[l]);
		if (l && l <= 2 && (e & PTE_PS)) {
			uint64_t mask = (UINT64_C(1) << shift) - 1;

			*pa = (e & vc->pte_addr & ~mask) | (va & mask);
			return 0;
		}
		table = e & vc->pte_addr;
	}
	*pa = table | (va & (PAGE_SIZE - 1));
	vc->tlb_va = (va & ~(PAGE_SIZE - 1)) + 1;
	vc->tlb_pa = table;
	return 0;
}

int vmcore_vread(struct vmcore *vc, uint64_t vaddr, void *buf, size_t len)
{
	unsigned char *p = buf;
	int ret = setup(vc);

	if (!ret && len > UINT64_MAX - vaddr)
		ret = vmcore_fail(vc, -EFAULT,
				  "%zu bytes at 0x%llx wrap around the address space",
				  len, (unsigned long long)vaddr);
	while (!ret && len) {
		size_t n = PAGE_SIZE - (vaddr & (PAGE_SIZE - 1));
		uint64_t pa = 0;

		if (n > len)
			n = len;
		ret = translate(vc, vaddr, &pa);
		if (ret)
			break;
		ret = vmcore_phys_read(vc, pa, p, n);
		if (ret == -EFAULT)
			ret = vmcore_fail(vc, -EBADMSG,
					  "address 0x%llx (physical 0x%llx) is mapped but not in the dump",
					  (unsigned long long)vaddr,
					  (unsigned long long)pa);
		vaddr += n;
		p += n;
		len -= n;
	}
	return ret;
}
