/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_types.h - the few kernel types record.bpf.c reads, for CO-RE.
 *
 * In place of a vmlinux.h dumped from one kernel's BTF (bpftool btf dump
 * ... format c: some 100,000 lines, tied to the kernel it came from, and
 * needing that kernel's BTF at build time, which a Debian build machine
 * need not have): each struct holds only the members the program reads,
 * marked preserve_access_index, so that libbpf relocates every access to
 * the running kernel's own layout from its BTF (/sys/kernel/btf/vmlinux)
 * at load time.  libbpf-bootstrap allows this form; the member names are
 * those of the kernel's sources (6.1 to 7.2 have them all; loginuid only
 * with CONFIG_AUDIT, checked with bpf_core_field_exists()).
 *
 * The UAPI (map types, helper numbers) comes from <linux/bpf.h>.
 * __VMLINUX_H__ tells libbpf's bpf_tracing.h that struct pt_regs has the
 * kernel's member names (di, si, ax), as in a vmlinux.h.
 */
#ifndef TAINT_KERNEL_TYPES_H
#define TAINT_KERNEL_TYPES_H

#include <linux/types.h>
#include <linux/bpf.h>

#define __VMLINUX_H__ 1

#pragma clang attribute push(__attribute__((preserve_access_index)), \
			     apply_to = record)

typedef struct {
	__u32 val;
} kuid_t;

struct task_struct {
	kuid_t loginuid;	/* CONFIG_AUDIT only */
};

struct module {
	unsigned long taints;
	char name[56];		/* MODULE_NAME_LEN on 64-bit */
};

/* x86_64's (arch/x86/include/asm/ptrace.h), for kprobes */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

#pragma clang attribute pop

#endif
