/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - taintctl record: the BPF recorder of stock kernels.
 *
 *   record_bpf.c    the BPF program (bpf/record.bpf.c, its bpftool
 *                   skeleton) opened, loaded and attached with libbpf, its
 *                   ring buffer read; record_nobpf.c in a build without
 *                   libbpf (RECORD=no, taintctl-static)
 *   record_syms.c   the kernel's symbols (/proc/kallsyms), for caller=
 *   record_core.c   a struct taint_rec (bpf/record_abi.h) as a taint_log
 *                   line, the log's notes (libtaint's record.c), the
 *                   module loader's events joined to the module's name
 *   cmd_record.c    the command: checks, the log file, the loop
 */
#ifndef TAINTCTL_RECORD_H
#define TAINTCTL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record_abi.h"
#include "taint.h"

/* --- record_syms.c ---------------------------------------------------- */
struct rec_sym {
	uint64_t addr;
	const char *name;
	const char *module;	/* NULL: the kernel's own */
};
struct rec_syms {
	struct rec_sym *v;
	size_t n;
	char *text;		/* the file, names point into it */
};
/* @path (/proc/kallsyms): 0, -errno, -EPERM if every address is 0 (the
 * reader lacks CAP_SYSLOG: kptr_restrict), -ENOMEM */
int rec_syms_load(struct rec_syms *s, const char *path);
void rec_syms_free(struct rec_syms *s);
/* the symbol holding @addr: NULL if none; *@size its size (up to the next
 * symbol) */
const struct rec_sym *rec_syms_find(const struct rec_syms *s, uint64_t addr,
				    uint64_t *size);

/* --- record_core.c ---------------------------------------------------- */
#define REC_PENDING 64
struct rec_pending {
	struct taint_event ev;
	uint32_t pid;
	uint64_t ts_ns;
};
struct recorder {
	int fd;				/* the log, O_APPEND */
	struct rec_syms *syms;		/* NULL: no caller= */
	/* where @syms was read: read again when a module is loaded (its
	 * functions are callers too); NULL: never */
	const char *syms_path;
	/* CLOCK_REALTIME - CLOCK_MONOTONIC, for utc= (set by the caller);
	 * utc=- if the sum is before 2001 (the clock was never set) */
	int64_t realtime_off_ns;
	uint64_t lost;			/* lost events already noted */
	uint64_t lines;			/* event lines written */
	int error;			/* the first write's errno, 0 */
	/* reasons handed over by `taintctl mark` (record_reason.c), for
	 * their sender's next write to kernel.tainted, until @until_ns */
	struct {
		uint32_t pid;
		uint64_t until_ns;
		char reason[TAINT_REASON_MAX + 1];
	} reasons[8];
	size_t nreasons;
	/* the module loader's events, until the module's name comes */
	struct rec_pending pending[REC_PENDING];
	size_t npending;
};
/* "ts=" of @ns: "5.000100" */
void rec_ts(uint64_t ns, char buf[32]);
/* open @path for appending (0600, created), *@restarted if it holds an
 * earlier recorder's lines (a newline added if the last line has none);
 * the fd or -errno */
int rec_open_log(const char *path, bool *restarted);
/* the first note: began, or restarted (a gap); 0 or -errno */
int rec_start(struct recorder *r, bool restarted, uint64_t now_ns,
	      const char *kernel, uint64_t mask);
/* one event of the ring buffer */
void rec_event(struct recorder *r, const struct taint_rec *e);
/* @total events lost so far: a note of those not noted yet */
void rec_lost(struct recorder *r, uint64_t total, uint64_t now_ns);
/* write the loader's events held longer than 2 s before @now_ns (all of
 * them with @all) */
void rec_flush(struct recorder *r, uint64_t now_ns, bool all);
/* the reason @pid handed over at @now_ns, for its next user request
 * recorded within 10 s (the oldest dropped if 8 wait) */
void rec_reason(struct recorder *r, uint32_t pid, const char *reason,
		uint64_t now_ns);
/* @e as the event it is (without pending, for tests): false if none */
bool rec_to_event(const struct recorder *r, const struct taint_rec *e,
		  struct taint_event *ev, bool *loader);

/* --- record_reason.c: mark's reason to the recorder -------------------- */
/* the socket file beside the recorder's log */
#define REC_REASON_SOCK "reason.sock"
/* listen on @path (0600, non-blocking): the fd or -errno */
int rec_reason_listen(const char *path);
/* one sender on @lfd: its pid (SO_PEERCRED) and reason (valid, from uid
 * 0, acknowledged); 0 or -errno (-EINVAL: refused, -EAGAIN: nobody) */
int rec_reason_accept(int lfd, uint32_t *pid,
		      char reason[TAINT_REASON_MAX + 1]);
/* mark's side: 0 if the recorder at @path took @reason, else -errno */
int rec_reason_send(const char *path, const char *reason);

/* --- record_bpf.c / record_nobpf.c ------------------------------------ */
struct rec_bpf;
typedef void (*rec_bpf_fn)(const struct taint_rec *e, void *arg);
/* open, load and attach with @seen (the mask now) as the flags already
 * set: 0, -ENOTSUP (built without BPF: *@why says so), or -errno with
 * *@why; *@mode "fentry" or "kprobe" */
int rec_bpf_open(struct rec_bpf **b, uint64_t seen, const char **mode,
		 char *why, size_t why_size);
/* wait up to @timeout_ms for events, each to @fn; >= 0 or -errno */
int rec_bpf_poll(struct rec_bpf *b, int timeout_ms, rec_bpf_fn fn, void *arg);
uint64_t rec_bpf_lost(const struct rec_bpf *b);
/* a descriptor that polls readable when events wait, -1 if none */
int rec_bpf_fd(const struct rec_bpf *b);
void rec_bpf_close(struct rec_bpf *b);

#endif
