// SPDX-License-Identifier: GPL-2.0-only
/*
 * record.bpf.c - taintctl record's BPF program: who tainted a stock
 * kernel.  Loaded by cli/record_bpf.c through its bpftool skeleton; every
 * event goes to user space through the ring buffer @events as a struct
 * taint_rec (record_abi.h), where it is symbolized and written as a
 * taint_log line.
 *
 * Entry points, each twice: an fentry/fexit program (BTF trampolines) and
 * a kprobe/kretprobe one for kernels without them; the loader keeps one
 * set (bpf_program__set_autoload()).
 *   add_taint()       every flag set inside the kernel (WARN, module
 *                     loader, drivers): an event the first time a flag is
 *                     set since recording began (@seen), with the stack
 *   proc_taint()      the kernel.tainted sysctl's handler (6.1 to 7.2, in
 *                     kernel/sysctl.c or kernel/panic.c): a write is a user
 *                     request; the add_taint() calls inside it belong to it
 *                     (@requests, by thread), and it is one event when the
 *                     handler returns 0, with what was written
 *   module_load       the tracepoint fired after a module's taints are set
 *                     (add_taint_module() is inline: no entry point of its
 *                     own): the module's name and taints, which user space
 *                     joins to the loader's add_taint() events
 * Events that find the ring buffer full are counted in @lost.
 */
#include "kernel_types.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record_abi.h"

char LICENSE[] SEC("license") = "GPL";

/* flags already set or recorded: the mask when recording began (set by
 * user space before attaching), then each first set */
__u64 seen = 0;
/* events that found the ring buffer full */
__u64 lost = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/* a write to kernel.tainted in progress, by thread */
struct request {
	__u64 ts_ns;
	__u64 taints;
	__u64 new_mask;
	__u64 stack_bytes;
	__u64 stack[TAINT_REC_STACK];
	char text[TAINT_REC_TEXT];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct request);
} requests SEC(".maps");

/* a zeroed struct request to insert (too big for the BPF stack) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct request);
} scratch SEC(".maps");

static __always_inline void fill_task(struct taint_rec *e)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	__u64 id = bpf_get_current_pid_tgid();

	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->auid = TAINT_REC_NO_AUID;
	if (bpf_core_field_exists(t->loginuid))
		e->auid = BPF_CORE_READ(t, loginuid.val);
	bpf_get_current_comm(e->comm, sizeof(e->comm));
}

static __always_inline struct taint_rec *reserve(void)
{
	struct taint_rec *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	return e;
}

static __always_inline int on_add_taint(void *ctx, unsigned int flag)
{
	__u64 id = bpf_get_current_pid_tgid(), bit, old;
	struct request *r;
	struct taint_rec *e;

	if (flag >= 64)
		return 0;
	bit = 1ULL << flag;
	old = __sync_fetch_and_or(&seen, bit);
	r = bpf_map_lookup_elem(&requests, &id);
	if (r) {
		r->taints |= bit;
		if (!(old & bit))
			r->new_mask |= bit;
		return 0;
	}
	if (old & bit)
		return 0;
	e = reserve();
	if (!e)
		return 0;
	e->kind = TAINT_REC_KERNEL;
	e->ts_ns = bpf_ktime_get_ns();
	e->bit = flag;
	e->new_mask = bit;
	fill_task(e);
	e->stack_bytes = bpf_get_stack(ctx, e->stack, sizeof(e->stack), 0);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

static __always_inline int on_write_begin(void *ctx, int write,
					  const void *buffer)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 zero = 0;
	struct request *r;

	if (!write)
		return 0;
	r = bpf_map_lookup_elem(&scratch, &zero);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	r->ts_ns = bpf_ktime_get_ns();
	/* the handler's buffer is a kernel copy, NUL-terminated (5.8+) */
	bpf_probe_read_kernel_str(r->text, sizeof(r->text), buffer);
	r->stack_bytes = bpf_get_stack(ctx, r->stack, sizeof(r->stack), 0);
	bpf_map_update_elem(&requests, &id, r, BPF_ANY);
	return 0;
}

static __always_inline int on_write_end(int ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct request *r = bpf_map_lookup_elem(&requests, &id);
	struct taint_rec *e;

	if (!r)
		return 0;
	if (ret == 0) {
		e = reserve();
		if (e) {
			e->kind = TAINT_REC_USER;
			e->ts_ns = r->ts_ns;
			e->taints = r->taints;
			e->new_mask = r->new_mask;
			e->ret = ret;
			fill_task(e);
			__builtin_memcpy(e->text, r->text, sizeof(e->text));
			e->text_len = sizeof(e->text);
			e->stack_bytes = r->stack_bytes;
			__builtin_memcpy(e->stack, r->stack, sizeof(e->stack));
			bpf_ringbuf_submit(e, 0);
		}
	}
	bpf_map_delete_elem(&requests, &id);
	return 0;
}

static __always_inline int on_module(unsigned long taints, const char *name)
{
	struct taint_rec *e;

	if (!taints)
		return 0;
	e = reserve();
	if (!e)
		return 0;
	e->kind = TAINT_REC_MODULE;
	e->ts_ns = bpf_ktime_get_ns();
	e->taints = taints;
	fill_task(e);
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), name);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* --- fentry/fexit and tp_btf: BTF trampolines (the default) ----------- */

SEC("fentry/add_taint")
int BPF_PROG(fentry_add_taint, unsigned int flag)
{
	return on_add_taint(ctx, flag);
}

SEC("fentry/proc_taint")
int BPF_PROG(fentry_proc_taint, void *table, int write, void *buffer)
{
	return on_write_begin(ctx, write, buffer);
}

SEC("fexit/proc_taint")
int BPF_PROG(fexit_proc_taint, void *table, int write, void *buffer,
	     void *lenp, void *ppos, int ret)
{
	return on_write_end(ret);
}

SEC("tp_btf/module_load")
int BPF_PROG(tp_btf_module_load, struct module *mod)
{
	return on_module(BPF_CORE_READ(mod, taints), mod->name);
}

/* --- kprobes and the classic tracepoint: the fallback ----------------- */

SEC("kprobe/add_taint")
int BPF_KPROBE(kprobe_add_taint, unsigned int flag)
{
	return on_add_taint(ctx, flag);
}

SEC("kprobe/proc_taint")
int BPF_KPROBE(kprobe_proc_taint, void *table, int write, void *buffer)
{
	return on_write_begin(ctx, write, buffer);
}

SEC("kretprobe/proc_taint")
int BPF_KRETPROBE(kretprobe_proc_taint, int ret)
{
	return on_write_end(ret);
}

/* the tracepoint's record: the common header, then TP_STRUCT__entry's
 * members (include/trace/events/module.h): taints, name (__data_loc:
 * offset in the low 16 bits, length in the high ones) */
struct module_load_record {
	__u64 common;
	__u32 taints;
	__u32 name_loc;
};

SEC("tracepoint/module/module_load")
int tp_module_load(struct module_load_record *rec)
{
	return on_module(rec->taints, (const char *)rec + (rec->name_loc & 0xffff));
}
