// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record_bpf.c - taintctl record's BPF side in user space: the program of
 * bpf/record.bpf.c, through its bpftool skeleton (record.skel.h, built
 * under build/bpf/), opened, loaded and attached with libbpf; events read
 * from its ring buffer.
 *
 * fentry/fexit and tp_btf first (BTF trampolines: cheaper, typed); if
 * they cannot be loaded or attached (a kernel without trampolines for
 * the architecture, a function not traceable), the kprobes and the
 * classic tracepoint, in a skeleton opened anew.  libbpf 1.x raises
 * RLIMIT_MEMLOCK itself only where the kernel still charges BPF memory
 * to it (before 5.11); Debian 12's and 13's kernels charge the cgroup.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli.h"
#include "record.h"
#include "record.skel.h"

struct rec_bpf {
	struct taint_record *skel;
	struct ring_buffer *rb;
	rec_bpf_fn fn;
	void *arg;
};

/* libbpf's own messages: warnings only, on stderr, as taintctl's */
__attribute__((format(printf, 2, 0)))
static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	fputs("taintctl: libbpf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static int on_sample(void *ctx, void *data, size_t size)
{
	struct rec_bpf *b = ctx;
	struct taint_rec e;

	if (size < sizeof(e))
		return 0;
	memcpy(&e, data, sizeof(e));
	b->fn(&e, b->arg);
	return 0;
}

static int try_mode(struct rec_bpf *b, bool fentry, uint64_t seen,
		    char *why, size_t why_size)
{
	struct taint_record *s = taint_record__open();
	int ret;

	if (!s) {
		ret = -errno;
		snprintf(why, why_size, "cannot open the BPF program: %s",
			 strerror(-ret));
		return ret;
	}
	bpf_program__set_autoload(s->progs.fentry_add_taint, fentry);
	bpf_program__set_autoload(s->progs.fentry_proc_taint, fentry);
	bpf_program__set_autoload(s->progs.fexit_proc_taint, fentry);
	bpf_program__set_autoload(s->progs.tp_btf_module_load, fentry);
	bpf_program__set_autoload(s->progs.kprobe_add_taint, !fentry);
	bpf_program__set_autoload(s->progs.kprobe_proc_taint, !fentry);
	bpf_program__set_autoload(s->progs.kretprobe_proc_taint, !fentry);
	bpf_program__set_autoload(s->progs.tp_module_load, !fentry);
	s->bss->seen = seen;
	ret = taint_record__load(s);
	if (ret) {
		snprintf(why, why_size, "cannot load the BPF program (%s): %s",
			 fentry ? "fentry" : "kprobe", strerror(-ret));
		goto fail;
	}
	ret = taint_record__attach(s);
	if (ret) {
		snprintf(why, why_size, "cannot attach the BPF program (%s): %s",
			 fentry ? "fentry" : "kprobe", strerror(-ret));
		goto fail;
	}
	b->rb = ring_buffer__new(bpf_map__fd(s->maps.events), on_sample, b,
				 NULL);
	if (!b->rb) {
		ret = -errno;
		snprintf(why, why_size, "cannot map the ring buffer: %s",
			 strerror(-ret));
		goto fail;
	}
	b->skel = s;
	return 0;
fail:
	taint_record__destroy(s);
	return ret;
}

int rec_bpf_open(struct rec_bpf **bp, uint64_t seen, const char **mode,
		 char *why, size_t why_size)
{
	struct rec_bpf *b = calloc(1, sizeof(*b));
	int ret;

	*bp = NULL;
	if (!b) {
		snprintf(why, why_size, "out of memory");
		return -ENOMEM;
	}
	libbpf_set_print(print);
	*mode = "fentry";
	/* TAINTCTL_RECORD_KPROBES=1: the fallback only (its tests) */
	ret = -EAGAIN;
	if (!getenv("TAINTCTL_RECORD_KPROBES") ||
	    strcmp(getenv("TAINTCTL_RECORD_KPROBES"), "1"))
		ret = try_mode(b, true, seen, why, why_size);
	if (ret) {
		*mode = "kprobe";
		ret = try_mode(b, false, seen, why, why_size);
	}
	if (ret) {
		free(b);
		return ret;
	}
	*bp = b;
	return 0;
}

int rec_bpf_poll(struct rec_bpf *b, int timeout_ms, rec_bpf_fn fn, void *arg)
{
	int n;

	b->fn = fn;
	b->arg = arg;
	n = ring_buffer__poll(b->rb, timeout_ms);
	/* whatever is there now, also after a signal (SIGCONT) ended the
	 * wait: the caller's lost= note then comes after the events that
	 * were kept, not among them */
	if (n >= 0 || n == -EINTR) {
		int m = ring_buffer__consume(b->rb);

		if (m < 0)
			return m;
		n = (n > 0 ? n : 0) + m;
	}
	return n;
}

uint64_t rec_bpf_lost(const struct rec_bpf *b)
{
	return __atomic_load_n(&b->skel->bss->lost, __ATOMIC_RELAXED);
}

int rec_bpf_fd(const struct rec_bpf *b)
{
	return ring_buffer__epoll_fd(b->rb);
}

void rec_bpf_close(struct rec_bpf *b)
{
	if (!b)
		return;
	ring_buffer__free(b->rb);
	taint_record__destroy(b->skel);
	free(b);
}
