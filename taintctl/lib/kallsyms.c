// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kallsyms.c - the kernel's own symbol table, read from a dump through the
 * VMCOREINFO keys SYMBOL(kallsyms_*) (CONFIG_KALLSYMS; the keys are there
 * since Linux 6.0): a text address named (the log's caller=), and a name's
 * address (kallsyms_lookup(): what status --vmcore reads), as
 * kernel/kallsyms.c does it:
 *
 *  - kallsyms_sym_address() in each of the table's forms, told by the
 *    keys VMCOREINFO has:
 *      SYMBOL(kallsyms_addresses): the addresses themselves, 8 bytes each
 *        (kernels before 6.11 built without KALLSYMS_BASE_RELATIVE);
 *      SYMBOL(kallsyms_offsets) and SYMBOL(kallsyms_relative_base):
 *        32-bit offsets from the base (6.1, 6.12: Debian's bookworm and
 *        trixie kernels).  With CONFIG_KALLSYMS_ABSOLUTE_PERCPU (x86_64
 *        SMP, until 6.15) a negative offset means base - 1 - offset and a
 *        non-negative one is an absolute address.  The config is not in
 *        the dump: the table has that form if any offset is negative;
 *      SYMBOL(kallsyms_offsets) alone: each offset relative to its own
 *        place, offset_to_ptr() (7.0 and later: the 7.2 the series is
 *        based on).
 *  - get_symbol_pos(): binary search on the sorted addresses, back to the
 *    first of the aliases (symbols at the same address), size up to the
 *    next higher address.  The kernel ends the last symbol at _etext,
 *    _einittext or _end, which the dump does not say: an address at or
 *    after the last symbol is not named, nor one before the first or at
 *    a per-CPU symbol (absolute, below the kernel image), which the
 *    kernel's is_ksym_addr() refuses.
 *  - kallsyms_expand_symbol(): [len][tokens], len >= 0x80 taking a second
 *    byte (6.1 and later); each byte a token of kallsyms_token_table
 *    through kallsyms_token_index; the first character (the symbol's
 *    type) skipped; at most KSYM_NAME_LEN - 1 characters.  Without
 *    kallsyms_markers and kallsyms_seqs_of_names (not in VMCOREINFO) the
 *    names are walked from the first: a lookup by name is one walk for
 *    all the names asked.  (6.12 has no cleanup_symbol_name() any more:
 *    names are printed as stored.)
 *
 * Reads go through small windows of the dump; a table that cannot be read
 * names nothing.  The walks are bounded by the symbol count, which the
 * first use checks against the dump (every offset must be readable), and
 * the walks over aliases by KSYMS_ALIASES_MAX: an address with more
 * symbols than that is not a kernel's, and is not named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taint.h"
#include "vmcore_internal.h"

#define KSYM_NAME_LEN	512		/* Linux 6.12 */
#define KSYMS_MAX	(1u << 24)	/* symbols: a kernel has ~10^5 */
#define WINDOW		4096
/* Symbols at one address (aliases) that a lookup walks over: a 6.12
 * kernel has a few; a dump whose offsets read as zeros (a segment's
 * p_memsz past its file bytes) would have them all at one address, and
 * each lookup walk millions (fuzz/regressions/vmcore). */
#define KSYMS_ALIASES_MAX	4096

/* A window on the dump's memory, for byte-wise walks of one table. */
struct window {
	uint64_t addr;
	size_t len;
	unsigned char buf[WINDOW];
};

/* the forms of the addresses (the header) */
enum form { RELATIVE, ABSOLUTE_PERCPU, PLACE_RELATIVE, ADDRESSES };

struct kallsyms {
	struct vmcore *vc;
	uint64_t names, token_table, token_index, offsets;
	uint32_t num;
	uint64_t base;
	enum form form;
	uint16_t index[256];	/* kallsyms_token_index */
	struct window w_names, w_tokens, w_offsets;
};

/* The byte at @a: 0, -EFAULT (not in the dump), -ENODATA, -errno. */
static int byte_at(struct kallsyms *ks, struct window *w, uint64_t a,
		   unsigned char *b)
{
	if (!w->len || a < w->addr || a - w->addr >= w->len) {
		size_t n = sizeof(w->buf);
		int ret = vmcore_read_some(ks->vc, a, w->buf, &n);

		if (ret) {
			w->len = 0;
			return ret;
		}
		w->addr = a;
		w->len = n;
	}
	*b = w->buf[a - w->addr];
	return 0;
}

static int le_at(struct kallsyms *ks, struct window *w, uint64_t a,
		 unsigned int width, uint64_t *v)
{
	unsigned char b[8];

	if (a > UINT64_MAX - width)
		return -EFAULT;
	for (unsigned int i = 0; i < width; i++) {
		int ret = byte_at(ks, w, a + i, &b[i]);

		if (ret)
			return ret;
	}
	*v = vmcore_le(b, width);
	return 0;
}

/* kallsyms_sym_address(@i) */
static int sym_address(struct kallsyms *ks, uint32_t i, uint64_t *addr)
{
	uint64_t raw, at;
	int32_t off;
	int ret;

	if (ks->form == ADDRESSES)
		return le_at(ks, &ks->w_offsets, ks->offsets + 8 * (uint64_t)i,
			     8, addr);
	at = ks->offsets + 4 * (uint64_t)i;
	ret = le_at(ks, &ks->w_offsets, at, 4, &raw);
	if (ret)
		return ret;
	off = (int32_t)(uint32_t)raw;
	if (ks->form == RELATIVE)
		*addr = ks->base + (uint32_t)off;
	else if (ks->form == PLACE_RELATIVE)
		*addr = at + (uint64_t)(int64_t)off;
	else if (off >= 0)
		*addr = (uint64_t)off;
	else
		*addr = ks->base - 1 - (uint64_t)(int64_t)off;
	return 0;
}

/* An error that ends the whole read (I/O, memory, a file cut short), not
 * just this name: all but an address the dump does not hold. */
static bool fatal(int err)
{
	return err && err != -EFAULT;
}

static int keys(struct kallsyms *ks)
{
	static const char *const names[] = {
		"SYMBOL(kallsyms_names)", "SYMBOL(kallsyms_token_table)",
		"SYMBOL(kallsyms_token_index)", "SYMBOL(kallsyms_num_syms)",
	};
	uint64_t v[4], num = 0;
	int ret;

	for (size_t i = 0; i < 4; i++)
		if (vmcoreinfo_hex(ks->vc, names[i], &v[i]))
			return vmcore_fault(ks->vc, TAINT_VMCORE_NO_KALLSYMS,
					    -ENOENT,
					    "VMCOREINFO has no %s: the kernel's symbol table cannot be found (a kernel before 6.0, or without CONFIG_KALLSYMS)",
					    names[i]);
	ks->names = v[0];
	ks->token_table = v[1];
	ks->token_index = v[2];
	if (!vmcoreinfo_hex(ks->vc, "SYMBOL(kallsyms_addresses)",
			    &ks->offsets)) {
		ks->form = ADDRESSES;
	} else if (vmcoreinfo_hex(ks->vc, "SYMBOL(kallsyms_offsets)",
				  &ks->offsets)) {
		return vmcore_fault(ks->vc, TAINT_VMCORE_NO_KALLSYMS, -ENOENT,
				    "VMCOREINFO has neither SYMBOL(kallsyms_offsets) nor SYMBOL(kallsyms_addresses): the kernel's symbol table cannot be read");
	} else if (vmcoreinfo_hex(ks->vc, "SYMBOL(kallsyms_relative_base)",
				  &ks->base)) {
		ks->form = PLACE_RELATIVE;
	} else {
		ks->form = RELATIVE;
		ret = le_at(ks, &ks->w_offsets, ks->base, 8, &ks->base);
		if (ret)
			return ret;
	}
	ret = le_at(ks, &ks->w_offsets, v[3], 4, &num);
	ks->num = (uint32_t)num;
	return ret;
}

/* The token index, and the form of the offsets (which also proves that
 * all of them are in the dump). */
static int table(struct kallsyms *ks)
{
	unsigned char raw[sizeof(ks->index)];
	unsigned int width = ks->form == ADDRESSES ? 8 : 4;
	int ret = vmcore_read(ks->vc, ks->token_index, raw, sizeof(raw));

	if (ret)
		return ret;
	for (size_t i = 0; i < 256; i++)
		ks->index[i] = (uint16_t)vmcore_le(raw + 2 * i, 2);
	if (!ks->num || ks->num > KSYMS_MAX)
		return vmcore_fail(ks->vc, -EFAULT,
				   "the kernel's symbol table is not one: kallsyms_num_syms is %u",
				   (unsigned int)ks->num);
	for (uint32_t i = 0; i < ks->num; i++) {
		uint64_t off;

		ret = le_at(ks, &ks->w_offsets,
			    ks->offsets + width * (uint64_t)i, width, &off);
		if (ret)
			return ret;
		if (ks->form == RELATIVE && (off & 0x80000000u))
			ks->form = ABSOLUTE_PERCPU;
	}
	return 0;
}

int kallsyms_load(struct vmcore *vc, struct kallsyms **ksp)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	int ret;

	*ksp = NULL;
	if (!ks)
		return -ENOMEM;
	ks->vc = vc;
	ret = keys(ks);
	if (!ret)
		ret = table(ks);
	if (ret == -EFAULT)
		ret = vmcore_fail(vc, -EFAULT,
				  "the kernel's symbol table (SYMBOL(kallsyms_names) 0x%llx, %u symbols) is not in the dump",
				  (unsigned long long)ks->names,
				  (unsigned int)ks->num);
	if (ret) {
		free(ks);
		return ret;
	}
	*ksp = ks;
	return 0;
}

struct kallsyms *kallsyms_open(struct vmcore *vc, int *err)
{
	/* a log without callers is no error: no reason is left behind */
	bool said = vc->why_size && vc->why[0];
	struct kallsyms *ks;
	int ret = kallsyms_load(vc, &ks);

	*err = 0;
	if (ret && fatal(ret) && ret != -ENOENT) {
		*err = ret;
		return NULL;
	}
	if (ret && !said && vc->why_size) {
		vc->why[0] = '\0';
		vc->fault = 0;
	}
	return ks;
}

void kallsyms_close(struct kallsyms *ks)
{
	free(ks);
}

/* get_symbol_pos(): the first alias at or below @addr, its start and size;
 * 1, 0 (not named), -errno. */
static int symbol_pos(struct kallsyms *ks, uint64_t addr, uint32_t *pos,
		      uint64_t *start, uint64_t *size)
{
	uint32_t low = 0, high = ks->num;
	uint64_t a, b;
	int ret;

	while (high - low > 1) {
		uint32_t mid = low + (high - low) / 2;

		ret = sym_address(ks, mid, &a);
		if (ret)
			return ret;
		if (a <= addr)
			low = mid;
		else
			high = mid;
	}
	ret = sym_address(ks, low, &a);
	for (uint32_t n = 0; !ret && low; n++) {
		if (n == KSYMS_ALIASES_MAX)
			return 0;	/* not a kernel's table: names nothing */
		ret = sym_address(ks, low - 1, &b);
		if (ret || b != a)
			break;
		low--;
	}
	if (ret)
		return ret;
	/* below the first symbol, or at an absolute per-CPU symbol (an
	 * offset, no code): the kernel's is_ksym_addr() refuses those */
	if (addr < a || a < VMCORE_KERNEL_MAP)
		return 0;
	for (uint32_t i = low + 1; i < ks->num; i++) {
		if (i - low > KSYMS_ALIASES_MAX)
			return 0;
		ret = sym_address(ks, i, &b);
		if (ret)
			return ret;
		if (b > a) {
			*pos = low;
			*start = a;
			*size = b - a;
			return 1;
		}
	}
	return 0;
}

/* The [len] of the name at @*a: its token count; @*a moves past it. */
static int name_len(struct kallsyms *ks, uint64_t *a, unsigned int *len)
{
	unsigned char b0 = 0, b1 = 0;
	int ret = byte_at(ks, &ks->w_names, (*a)++, &b0);

	if (!ret && (b0 & 0x80))
		ret = byte_at(ks, &ks->w_names, (*a)++, &b1);
	*len = (b0 & 0x80) ? ((b0 & 0x7fu) | (unsigned int)b1 << 7) : b0;
	return ret;
}

/* kallsyms_expand_symbol() of the name at @*a, which moves past it: the
 * type letter in *@type, the name in @out (KSYM_NAME_LEN bytes). */
static int name_at(struct kallsyms *ks, uint64_t *a, char *type, char *out)
{
	unsigned int len;
	size_t n = 0;
	bool skipped_first = false;
	int ret = name_len(ks, a, &len);

	*type = '\0';
	for (; !ret && len; len--) {
		unsigned char c;
		uint64_t t;

		ret = byte_at(ks, &ks->w_names, (*a)++, &c);
		for (t = ks->token_table + ks->index[c]; !ret; t++) {
			unsigned char ch;

			ret = byte_at(ks, &ks->w_tokens, t, &ch);
			if (ret || !ch)
				break;
			if (!skipped_first) {
				skipped_first = true;
				*type = (char)ch;
				continue;
			}
			if (n + 1 < KSYM_NAME_LEN)
				out[n++] = (char)ch;
		}
	}
	out[n] = '\0';
	return ret;
}

/* kallsyms_expand_symbol() of the name number @pos, into @out
 * (KSYM_NAME_LEN bytes). */
static int expand(struct kallsyms *ks, uint32_t pos, char *out)
{
	uint64_t a = ks->names;
	unsigned int len;
	char type;
	int ret;

	for (uint32_t i = 0; i < pos; i++) {
		ret = name_len(ks, &a, &len);
		if (ret)
			return ret;
		a += len;
	}
	return name_at(ks, &a, &type, out);
}

int kallsyms_lookup(struct kallsyms *ks, const char *const *names, size_t n,
		    uint64_t *addrs, bool *found)
{
	char name[KSYM_NAME_LEN], type;
	uint64_t a = ks->names;
	size_t left = n;
	int ret = 0;

	for (size_t k = 0; k < n; k++)
		found[k] = false;
	for (uint32_t i = 0; left && i < ks->num; i++) {
		ret = name_at(ks, &a, &type, name);
		if (ret)
			break;
		for (size_t k = 0; k < n; k++) {
			const char *want = names[k], *sp = strchr(want, ' ');

			if (found[k])
				continue;
			if (sp && (!type || !memchr(want, type,
						    (size_t)(sp - want))))
				continue;
			if (strcmp(sp ? sp + 1 : want, name))
				continue;
			ret = sym_address(ks, i, &addrs[k]);
			if (ret)
				return ret;
			found[k] = true;
			left--;
		}
	}
	return ret;
}

/* What the log can carry in caller=: the parser's symbol characters. */
static bool printable_symbol(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f ||
		    *s == '"' || *s == '\\' || *s == '[' || *s == ']')
			return false;
	return true;
}

int kallsyms_caller(struct kallsyms *ks, uint64_t addr, char *out,
		    size_t size)
{
	char name[KSYM_NAME_LEN];
	uint64_t start = 0, symsize = 0;
	uint32_t pos = 0;
	int n, ret = symbol_pos(ks, addr, &pos, &start, &symsize);

	if (ret == 1)
		ret = expand(ks, pos, name);
	else if (!ret)
		return 0;
	if (ret)
		return fatal(ret) ? ret : 0;
	if (!name[0] || !printable_symbol(name))
		return 0;
	/* the kernel's "%s+%#lx/%#lx": 0 is "0", not "0x0" */
	n = snprintf(out, size, " caller=%s+%#llx/%#llx", name,
		     (unsigned long long)(addr - start),
		     (unsigned long long)symsize);
	if (n < 0 || (size_t)n >= size ||
	    (size_t)n - strlen(" caller=") > TAINT_CALLER_MAX)
		return 0;
	return 1;
}
