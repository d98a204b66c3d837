// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kallsyms.c - name a kernel text address with the kernel's own symbol
 * table, read from a dump through the VMCOREINFO keys SYMBOL(kallsyms_*)
 * (CONFIG_KALLSYMS), exactly as kernel/kallsyms.c of Linux 6.12 does it:
 *
 *  - kallsyms_sym_address(): offsets relative to kallsyms_relative_base;
 *    with CONFIG_KALLSYMS_ABSOLUTE_PERCPU (x86_64 SMP) a negative offset
 *    means base - 1 - offset and a non-negative one is an absolute
 *    address.  The config is not in the dump: the table has that form if
 *    any offset is negative.
 *  - get_symbol_pos(): binary search on the sorted addresses, back to the
 *    first of the aliases (symbols at the same address), size up to the
 *    next higher address.  The kernel ends the last symbol at _etext,
 *    _einittext or _end, which the dump does not say: an address at or
 *    after the last symbol is not named, nor one before the first or at
 *    a per-CPU symbol (absolute, below the kernel image), which the
 *    kernel's is_ksym_addr() refuses.
 *  - kallsyms_expand_symbol(): [len][tokens], len >= 0x80 taking a second
 *    byte; each byte a token of kallsyms_token_table through
 *    kallsyms_token_index; the first character (the symbol's type)
 *    skipped; at most KSYM_NAME_LEN - 1 characters.  Without
 *    kallsyms_markers (not in VMCOREINFO) the names are walked from the
 *    first.  (6.12 has no cleanup_symbol_name() any more: names are
 *    printed as stored.)
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

struct kallsyms {
	struct vmcore *vc;
	uint64_t names, token_table, token_index, offsets;
	uint32_t num;
	uint64_t base;
	bool absolute_percpu;
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
	uint64_t raw;
	int32_t off;
	int ret = le_at(ks, &ks->w_offsets, ks->offsets + 4 * (uint64_t)i, 4,
			&raw);

	if (ret)
		return ret;
	off = (int32_t)(uint32_t)raw;
	if (!ks->absolute_percpu)
		*addr = ks->base + (uint32_t)off;
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
		"SYMBOL(kallsyms_token_index)", "SYMBOL(kallsyms_offsets)",
		"SYMBOL(kallsyms_num_syms)", "SYMBOL(kallsyms_relative_base)",
	};
	uint64_t v[6], num = 0;
	int ret;

	for (size_t i = 0; i < 6; i++)
		if (vmcoreinfo_hex(ks->vc, names[i], &v[i]))
			return -ENOENT;
	ks->names = v[0];
	ks->token_table = v[1];
	ks->token_index = v[2];
	ks->offsets = v[3];
	ret = le_at(ks, &ks->w_offsets, v[4], 4, &num);
	if (!ret)
		ret = le_at(ks, &ks->w_offsets, v[5], 8, &ks->base);
	ks->num = (uint32_t)num;
	return ret;
}

/* The token index, and the form of the offsets (which also proves that
 * all of them are in the dump). */
static int table(struct kallsyms *ks)
{
	unsigned char raw[sizeof(ks->index)];
	int ret = vmcore_read(ks->vc, ks->token_index, raw, sizeof(raw));

	if (ret)
		return ret;
	for (size_t i = 0; i < 256; i++)
		ks->index[i] = (uint16_t)vmcore_le(raw + 2 * i, 2);
	if (!ks->num || ks->num > KSYMS_MAX)
		return -EFAULT;
	for (uint32_t i = 0; i < ks->num; i++) {
		uint64_t off;

		ret = le_at(ks, &ks->w_offsets, ks->offsets + 4 * (uint64_t)i,
			    4, &off);
		if (ret)
			return ret;
		if (off & 0x80000000u)
			ks->absolute_percpu = true;
	}
	return 0;
}

struct kallsyms *kallsyms_open(struct vmcore *vc, int *err)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	int ret;

	*err = 0;
	if (!ks) {
		*err = -ENOMEM;
		return NULL;
	}
	ks->vc = vc;
	ret = keys(ks);
	if (!ret)
		ret = table(ks);
	if (ret) {
		if (fatal(ret) && ret != -ENOENT)
			*err = ret;
		free(ks);
		return NULL;
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

/* kallsyms_expand_symbol() of the name number @pos, into @out
 * (KSYM_NAME_LEN bytes). */
static int expand(struct kallsyms *ks, uint32_t pos, char *out)
{
	uint64_t a = ks->names;
	unsigned int len;
	size_t n = 0;
	bool skipped_first = false;
	int ret;

	for (uint32_t i = 0; i < pos; i++) {
		ret = name_len(ks, &a, &len);
		if (ret)
			return ret;
		a += len;
	}
	ret = name_len(ks, &a, &len);
	for (; !ret && len; len--) {
		unsigned char c;
		uint64_t t;

		ret = byte_at(ks, &ks->w_names, a++, &c);
		for (t = ks->token_table + ks->index[c]; !ret; t++) {
			unsigned char ch;

			ret = byte_at(ks, &ks->w_tokens, t, &ch);
			if (ret || !ch)
				break;
			if (!skipped_first) {
				skipped_first = true;
				continue;
			}
			if (n + 1 >= KSYM_NAME_LEN)
				goto tail;
			out[n++] = (char)ch;
		}
	}
tail:
	out[n] = '\0';
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
