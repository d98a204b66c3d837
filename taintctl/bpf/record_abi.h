/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * record_abi.h - what the recorder's BPF program (record.bpf.c) hands to
 * user space through its ring buffer: one struct taint_rec per event.
 * Included by the BPF program (types from <linux/types.h>) and by the
 * user-space side (cli/record_bpf.c); both are built from one tree, so the
 * layout needs no version, only fixed-size members in a fixed order.
 */
#ifndef TAINT_RECORD_ABI_H
#define TAINT_RECORD_ABI_H

#include <linux/types.h>

/* what happened */
enum taint_rec_kind {
	TAINT_REC_KERNEL = 1,	/* add_taint(): @bit, outside a user request */
	TAINT_REC_USER = 2,	/* an accepted write to kernel.tainted: @text */
	TAINT_REC_MODULE = 3,	/* the module_load tracepoint: @taints, @name */
};

#define TAINT_REC_STACK 24	/* kernel stack frames kept (caller=) */
#define TAINT_REC_NAME 64	/* the module's name (MODULE_NAME_LEN is 56) */
#define TAINT_REC_TEXT 32	/* the first bytes of a write to tainted */
#define TAINT_REC_NO_AUID 0xffffffffu	/* the audit loginuid's "unset" */

struct taint_rec {
	__u32 kind;		/* enum taint_rec_kind */
	__u32 pid;		/* tgid */
	__u32 tid;
	__u32 uid;
	__u32 auid;		/* TAINT_REC_NO_AUID: unset or no CONFIG_AUDIT */
	__u32 bit;		/* KERNEL: the flag add_taint() was given */
	__u64 ts_ns;		/* bpf_ktime_get_ns() */
	__u64 new_mask;		/* bits first seen by this event */
	__u64 taints;		/* MODULE: mod->taints; USER: bits the
				 * request's add_taint() calls were given */
	__s32 ret;		/* USER: the handler's return value */
	__u32 text_len;		/* USER: bytes of @text copied */
	__s64 stack_bytes;	/* bpf_get_stack()'s return: bytes of @stack */
	__u64 stack[TAINT_REC_STACK];
	char comm[16];
	char name[TAINT_REC_NAME];	/* MODULE */
	char text[TAINT_REC_TEXT];	/* USER: what was written */
};

#endif
