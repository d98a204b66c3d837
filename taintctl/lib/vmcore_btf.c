// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_btf.c - the dumped kernel's own type information: the BTF that
 * every kernel built with CONFIG_DEBUG_INFO_BTF (every Debian kernel)
 * keeps in its image between __start_BTF and __stop_BTF (the .BTF
 * section; kernel/bpf/btf.c parses it from there at boot, and
 * /sys/kernel/btf/vmlinux shows it), found with the kernel's symbol
 * table (kallsyms.c) and read from the dump.  The bytes are handed to
 * libbpf's btf__new(), which checks the header, the string and type
 * sections and every type's references before it gives a type: the same
 * parser bpftool and every CO-RE loader trust with the running kernel's
 * BTF, fuzzed where libbpf is (its own fuzzer and OSS-Fuzz), and the one
 * the recorder links anyway.  What is read with it is checked again by
 * the walks that use it (vmcore_status.c): a member's offset and size
 * must fit its struct, a name must be a name.
 *
 * libbpf prints what it finds wrong on stderr through a global print
 * function; libtaint never prints.  Around btf__new() the print function
 * is libtaint's, which keeps libbpf's first warning (per thread) for the
 * reason and prints nothing, and the caller's is put back after: the
 * swap is libbpf_set_print()'s, which libbpf documents as not
 * thread-safe, so a program that also sets libbpf's print function from
 * another thread must not do it while a dump is read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "vmcore_internal.h"

/* vmlinux's BTF is 5-6 MiB (Debian 6.1, 6.12); anything larger than
 * this is not a kernel's */
#define BTF_MAX		(UINT64_C(64) << 20)

/* libbpf's first warning during btf__new(), for the reason */
static _Thread_local char said[160];

static __attribute__((format(printf, 2, 0)))
int keep_first(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level != LIBBPF_WARN || said[0])
		return 0;
	vsnprintf(said, sizeof(said), fmt, ap);
	n = strlen(said);
	while (n && (said[n - 1] == '\n' || said[n - 1] == ' '))
		said[--n] = '\0';
	for (size_t i = 0; i < n; i++)	/* one line */
		if ((unsigned char)said[i] < 0x20)
			said[i] = ' ';
	return 0;
}

int vmcore_btf_load(struct vmcore *vc, struct kallsyms *ks, struct btf **btfp)
{
	libbpf_print_fn_t theirs;
	static const char *const names[] = { "__start_BTF", "__stop_BTF" };
	uint64_t at[2];
	bool found[2];
	unsigned char *blob;
	struct btf *btf;
	int ret;

	*btfp = NULL;
	ret = kallsyms_lookup(ks, names, 2, at, found);
	if (ret)
		return ret;
	if (!found[0] || !found[1])
		return vmcore_fault(vc, TAINT_VMCORE_NO_BTF, -EBADMSG,
				    "the kernel's symbol table has no %s: a kernel built without CONFIG_DEBUG_INFO_BTF, whose types cannot be known",
				    names[found[0] ? 1 : 0]);
	if (at[1] <= at[0] || at[1] - at[0] > BTF_MAX)
		return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				    "the kernel's BTF is not: __start_BTF 0x%llx, __stop_BTF 0x%llx (at most %llu bytes)",
				    (unsigned long long)at[0],
				    (unsigned long long)at[1],
				    (unsigned long long)BTF_MAX);
	blob = malloc(at[1] - at[0]);
	if (!blob)
		return -ENOMEM;
	ret = vmcore_read(vc, at[0], blob, at[1] - at[0]);
	if (ret == -EFAULT)
		ret = vmcore_fail(vc, -EBADMSG,
				  "the kernel's BTF (0x%llx, %llu bytes) is not in the dump",
				  (unsigned long long)at[0],
				  (unsigned long long)(at[1] - at[0]));
	if (ret == -ENODATA)
		ret = vmcore_truncated(vc, "the kernel's BTF");
	if (ret) {
		free(blob);
		return ret;
	}
	said[0] = '\0';
	theirs = libbpf_set_print(keep_first);
	errno = 0;
	btf = btf__new(blob, (uint32_t)(at[1] - at[0]));
	ret = errno ? -errno : -EINVAL;
	libbpf_set_print(theirs);
	free(blob);
	if (!btf) {
		if (ret == -ENOMEM)
			return ret;
		return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				    "the kernel's BTF (0x%llx, %llu bytes) does not parse: %s%s%s%s",
				    (unsigned long long)at[0],
				    (unsigned long long)(at[1] - at[0]),
				    strerror(-ret), said[0] ? " (" : "",
				    said[0] ? said : "", said[0] ? ")" : "");
	}
	*btfp = btf;
	return 0;
}

void vmcore_btf_free(struct btf *btf)
{
	btf__free(btf);
}

/* @member of the struct or union @id, at *@off bits from its start
 * (anonymous members searched too, to a bounded depth): its type id,
 * or 0 */
static uint32_t find_member(const struct btf *btf, uint32_t id,
			    const char *member, uint64_t *off, bool *bitfield,
			    int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	uint16_t n;

	if (!t || depth > 8 || !(btf_is_struct(t) || btf_is_union(t)))
		return 0;
	m = btf_members(t);
	n = btf_vlen(t);
	for (uint16_t i = 0; i < n; i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		uint64_t at = btf_member_bit_offset(t, i);
		uint32_t mt;

		if (name && !strcmp(name, member)) {
			*off += at;
			*bitfield = btf_member_bitfield_size(t, i) != 0;
			return m->type;
		}
		if (name && name[0])
			continue;
		mt = m->type;	/* an anonymous struct or union: look in */
		{
			int r = btf__resolve_type(btf, mt);
			uint64_t inner = 0;
			uint32_t found;

			if (r <= 0)
				continue;
			found = find_member(btf, (uint32_t)r, member, &inner,
					    bitfield, depth + 1);
			if (found) {
				*off += at + inner;
				return found;
			}
		}
	}
	return 0;
}

int vmcore_btf_member(struct vmcore *vc, const struct btf *btf,
		      const char *st, const char *member, uint64_t *off,
		      uint64_t *size)
{
	int32_t id = btf__find_by_name_kind(btf, st, BTF_KIND_STRUCT);
	uint64_t bits = 0;
	bool bitfield = false;
	uint32_t mt;
	long long sz;

	*off = 0;
	*size = 0;
	if (id <= 0)
		return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				    "the kernel's BTF has no struct %s", st);
	sz = btf__resolve_size(btf, (uint32_t)id);
	if (sz <= 0)
		return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				    "the kernel's BTF gives struct %s no size",
				    st);
	if (!member) {
		*size = (uint64_t)sz;
		return 0;
	}
	mt = find_member(btf, (uint32_t)id, member, &bits, &bitfield, 0);
	if (!mt)
		return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				    "the kernel's BTF has no member %s in struct %s",
				    member, st);
	if (bitfield || bits % 8)
		return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
				    "the kernel's BTF makes %s.%s a bit field",
				    st, member);
	*off = bits / 8;
	{
		long long msz = btf__resolve_size(btf, mt);

		if (msz <= 0 || *off > (uint64_t)sz ||
		    (uint64_t)msz > (uint64_t)sz - *off)
			return vmcore_fault(vc, TAINT_VMCORE_BAD_BTF, -EBADMSG,
					    "the kernel's BTF puts %s.%s (offset %llu, %lld bytes) outside struct %s (%lld bytes)",
					    st, member,
					    (unsigned long long)*off, msz, st,
					    sz);
		*size = (uint64_t)msz;
	}
	return 0;
}
