/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcore_fixture.h - synthetic x86_64 ELF cores with a taint log, for
 * test_vmcore.c (in memory) and mkvmcore.c (files for vmcore_test.sh).
 *
 * A dump holds, as kdump and QEMU's dump-guest-memory write one: an ELF64
 * header (ET_CORE, EM_X86_64), a PT_NOTE segment (a CORE note, then the
 * VMCOREINFO note), and PT_LOAD segments of physical memory (p_paddr).
 * The kernel image part is a 32 KiB window of kernel-image addresses at
 * FX_DATA + kaslr, placed at physical FX_DATA + kaslr - __START_KERNEL_map
 * + phys_base:
 *
 *   0x1c80  struct taint_log, in the layout the spec gives, then 0xff
 *   0x4000  kallsyms_token_table    0x4800  kallsyms_token_index
 *   0x4a00  kallsyms_num_syms       0x4a08  kallsyms_relative_base
 *   0x4b00  kallsyms_offsets        0x5000  kallsyms_names
 *
 * split across three PT_LOAD segments at 0x2000 (through the log: inside
 * slot 4 of the shuffled layout below, slot 15 of Linux's) and 0x3000 (in
 * Linux's layout, through reasons[12]), the middle one first in the file,
 * and a fourth segment of other memory at physical 0.  Nothing here calls
 * libtaint: the dumps are built from the spec alone.
 */
#ifndef TAINT_VMCORE_FIXTURE_H
#define TAINT_VMCORE_FIXTURE_H

#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FX_UNUSED	__attribute__((unused))
#define FX_MAP		UINT64_C(0xffffffff80000000)
#define FX_TEXT		UINT64_C(0xffffffff81000000)	/* + kaslr */
#define FX_DATA		UINT64_C(0xffffffff83000000)	/* + kaslr */
#define FX_IMG		0x8000u
#define FX_LOG		0x1c80u
#define FX_TOKENS	0x4000u
#define FX_TOKEN_INDEX	0x4800u
#define FX_NUM_SYMS	0x4a00u
#define FX_BASE		0x4a08u
#define FX_OFFSETS	0x4b00u
#define FX_NAMES	0x5000u

/*
 * struct taint_log and its elements as VMCOREINFO describes them: a slot
 * (struct taint_event) of ev[] holds what every event has; its detail byte
 * indexes callers[] (struct taint_caller) for a kernel event and, if
 * reason_len is not 0, reasons[] (struct taint_reason) for a user one.
 */
struct fx_layout {
	/* struct taint_log: offsets, and the arrays' lengths */
	unsigned int log_size, next, dropped, ev, slots, callers, ncallers,
		     reasons, nreasons;
	/* struct taint_event */
	unsigned int ev_size, ts, utc, flags, new_, pid, uid, auid, origin,
		     ready, reason_len, detail, comm, comm_len;
	/* struct taint_caller (addr and mod_id: 8 bytes) */
	unsigned int caller_size, addr, mod_id, module, module_len;
	/* struct taint_reason */
	unsigned int reason_size, text, text_len;
};

/* Linux 6.12 x86_64 with the series: 35 slots of 56 bytes, 19 callers of
 * 72, 17 reasons of 128 */
static FX_UNUSED const struct fx_layout fx_linux = {
	.log_size = 16 + 35 * 56 + 19 * 72 + 17 * 128, .next = 0,
	.dropped = 8, .ev = 16, .slots = 35, .callers = 16 + 35 * 56,
	.ncallers = 19, .reasons = 16 + 35 * 56 + 19 * 72, .nreasons = 17,
	.ev_size = 56, .ts = 0, .utc = 8, .flags = 16, .new_ = 20, .pid = 24,
	.uid = 28, .auid = 32, .origin = 36, .ready = 37, .reason_len = 38,
	.detail = 39, .comm = 40, .comm_len = 16,
	.caller_size = 72, .addr = 0, .mod_id = 8, .module = 16,
	.module_len = 56,
	.reason_size = 128, .text = 0, .text_len = 128,
};

/* every member moved, the arrays in another order (reasons, ev, callers),
 * 3 reasons: a reader that assumes the layout above fails */
static FX_UNUSED const struct fx_layout fx_shuffled = {
	.log_size = 2808, .next = 20, .dropped = 8, .reasons = 32,
	.nreasons = 3, .ev = 480, .slots = 9, .callers = 1280, .ncallers = 19,
	.ev_size = 88, .ready = 0, .origin = 1, .reason_len = 2, .pid = 4,
	.uid = 8, .auid = 12, .flags = 16, .new_ = 20, .comm = 24,
	.comm_len = 16, .detail = 43, .utc = 48, .ts = 56,
	.caller_size = 80, .module = 8, .module_len = 56, .addr = 64,
	.mod_id = 72,
	.reason_size = 136, .text = 8, .text_len = 128,
};

struct fx_event {
	uint64_t ts_nsec;
	int64_t utc;
	uint32_t flags, new_;
	int32_t pid;
	uint32_t uid, auid;
	uint8_t origin, ready, reason_len, detail;
	const char *comm;		/* at most comm_len bytes are kept */
	/* kernel events: callers[detail] (not written if out of range) */
	uint64_t caller, mod_id;
	const char *module;
	/* user events: reasons[detail] (not written if out of range),
	 * reason_len bytes, or up to its NUL if reason_len says more (a
	 * corrupt slot) */
	const char *reason;
};

struct fx_sym {
	const char *name;	/* type letter first: "Twarn_site" */
	uint64_t addr;		/* < 2^31: a per-CPU symbol (absolute) */
};

struct fx_spec {
	const struct fx_layout *layout;
	const struct fx_event *ev;
	size_t nev;			/* written to slots 0 .. nev - 1 */
	int32_t next;
	int32_t dropped;	/* an atomic_t in the kernel */
	int64_t phys_base;
	uint64_t kaslr;
	unsigned int flags_count;
	const struct fx_sym *syms;	/* NULL: no kallsyms in VMCOREINFO */
	size_t nsyms;
	bool relative;			/* no CONFIG_KALLSYMS_ABSOLUTE_PERCPU */
	bool place;			/* 7.x: offsets relative to their own
					 * place, no kallsyms_relative_base */
	bool stock;			/* no taint log keys in VMCOREINFO */
	bool no_vmcoreinfo;
	bool xnum;			/* e_phnum PN_XNUM, count in shdr 0 */
	unsigned int zero_tail;		/* the file lacks the last bytes of the
					 * image's segment 0-0x2000 (p_memsz >
					 * p_filesz): they read 0 */
	const char *const *edit;	/* VMCOREINFO edits, NULL-terminated:
					 * "KEY" removes, "KEY=V" sets; in a
					 * LAYOUT() line "KEY f:V" sets field f,
					 * "KEY f" removes it, "KEY =V" sets
					 * the size */
};

/* --- the events of the main fixture (the model text is in the tests) --- */
#define FX_T(off)	(FX_TEXT + UINT64_C(0x2c400000) + (off))
#define FX_LONG_NAME	"long_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static FX_UNUSED const struct fx_sym fx_syms[] = {
	{ "Afixed_percpu_data", 0 },
	{ "Dcpu_number", 0x2a000 },
	{ "T_stext", FX_T(0) },
	{ "Tstart_kernel", FX_T(0x100) },
	{ "t" FX_LONG_NAME, FX_T(0x200) },
	{ "Tfirst_alias", FX_T(0x400) },
	{ "tsecond_alias", FX_T(0x400) },
	{ "Twarn_site", FX_T(0x500) },
	{ "Tafter_warn_site", FX_T(0x530) },
	{ "T_etext", FX_T(0x1000) },
};

/* detail: a kernel event's is the bit of the lowest flag it set first,
 * as the kernel makes it; a reason's is not the slot */
static FX_UNUSED const struct fx_event fx_events[] = {
	/* a module's loading set O: module= escaped, no caller */
	{ .ts_nsec = 912000000, .flags = 1u << 12, .new_ = 1u << 12,
	  .pid = 88, .uid = 0, .auid = UINT32_MAX, .ready = 1,
	  .comm = "insmod", .detail = 12, .module = "my mod\"x\\\x01" },
	/* a WARN in core kernel code: caller named */
	{ .ts_nsec = 1000100000, .flags = 1u << 9, .new_ = 1u << 9,
	  .pid = 312, .uid = 0, .auid = 1000, .ready = 1, .comm = "cat",
	  .detail = 9, .caller = FX_T(0x51d) },
	/* an oops in a module's code: module=, caller left out (mod_id
	 * decides: the address is one the core symbols would name) */
	{ .ts_nsec = 2500000999, .flags = 1u << 7, .new_ = 1u << 7,
	  .pid = 401, .uid = 0, .auid = UINT32_MAX, .ready = 1,
	  .comm = "bash", .detail = 7, .caller = FX_T(0x520),
	  .mod_id = UINT64_C(0xffffffffc0001000), .module = "lkdtm" },
	/* a reason with quotes and a backslash */
	{ .ts_nsec = 3123456789, .utc = 1796284800, .flags = 1u << 6,
	  .new_ = 1u << 6, .pid = 77, .uid = 0, .auid = 1000, .origin = 1,
	  .ready = 1, .comm = "sudo", .detail = 2,
	  .reason = "a \"quoted\" \\ reason", .reason_len = 19 },
	/* two flags, one new, no reason (detail, past reasons[], is then
	 * not an index); a comm with bytes to escape; the slot that crosses
	 * from one PT_LOAD segment into the next */
	{ .ts_nsec = 4000000000, .utc = 951782400,
	  .flags = 1u << 0 | 1u << 6, .new_ = 1u << 0, .pid = 78,
	  .uid = 1000, .auid = UINT32_MAX, .origin = 1, .ready = 1,
	  .comm = "caf\xc3\xa9\xff\x01\"q\\ end", .detail = 200 },
	/* claimed, not published: never shown */
	{ .ts_nsec = 3500000000, .flags = 1u << 6, .pid = 90, .origin = 1,
	  .ready = 0, .comm = "half", .detail = 1, .reason = "not yet",
	  .reason_len = 7 },
	/* the first of two aliases, at offset 0 ("+0", as %#lx prints it) */
	{ .ts_nsec = 5000001000, .flags = 1u << 14, .new_ = 1u << 14,
	  .pid = 0, .uid = 0, .auid = UINT32_MAX, .ready = 1,
	  .comm = "swapper/0", .detail = 14, .caller = FX_T(0x400) },
	/* a symbol whose name takes two length bytes */
	{ .ts_nsec = 6000000000, .utc = 253402300799, .flags = 1u << 13,
	  .new_ = 1u << 13, .pid = 2147483647, .uid = 4294967294u,
	  .auid = 0, .ready = 1, .comm = "kworker/0:1", .detail = 13,
	  .caller = FX_T(0x210) },
	/* after the last symbol: no size known, not named */
	{ .ts_nsec = UINT64_MAX, .utc = 1, .flags = 1u << 18, .new_ = 1u << 18,
	  .pid = 1, .uid = 0, .auid = UINT32_MAX, .ready = 1,
	  .comm = "init", .detail = 18, .caller = FX_T(0x1008) },
};

static FX_UNUSED const struct fx_spec fx_main = {
	.layout = &fx_shuffled, .ev = fx_events,
	.nev = sizeof(fx_events) / sizeof(fx_events[0]),
	.next = 12, .dropped = 5, .phys_base = 0x7a00000,
	.kaslr = 0x2c400000, .flags_count = 19,
	.syms = fx_syms, .nsyms = sizeof(fx_syms) / sizeof(fx_syms[0]),
};

/* VMCOREINFO edits: the lines of the series' first layout (in no released
 * kernel), a caller or a reason inside each slot, no LAYOUT(taint_caller)
 * or LAYOUT(taint_reason) */
static FX_UNUSED const char *const fx_first_layout[] = {
	"LAYOUT(taint_caller)", "LAYOUT(taint_reason)",
	"LAYOUT(taint_log)=6456 next:0 dropped:8 ev:16[35]",
	"LAYOUT(taint_event)=184 ts_nsec:0 utc:8 flags:16 new:20 pid:24 uid:28 auid:32 origin:36 ready:37 reason_len:38 comm:39[16] caller:56 mod_id:64 module:72[56] reason:56[128]",
	NULL
};

/* --- building ------------------------------------------------------------ */

static FX_UNUSED void fx_le(unsigned char *p, uint64_t v, unsigned int width)
{
	for (unsigned int i = 0; i < width; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static FX_UNUSED void fx_str(unsigned char *p, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	memcpy(p, s ? s : "", n < max ? n : max);
	if (n < max)
		p[n] = 0;
}

/* event @i of @e into the log at @log: its slot, and its callers[] or
 * reasons[] element */
static FX_UNUSED void fx_event_put(unsigned char *log,
				   const struct fx_layout *l, size_t i,
				   const struct fx_event *e)
{
	unsigned char *slot = log + l->ev + i * l->ev_size;

	fx_le(slot + l->ts, e->ts_nsec, 8);
	fx_le(slot + l->utc, (uint64_t)e->utc, 8);
	fx_le(slot + l->flags, e->flags, 4);
	fx_le(slot + l->new_, e->new_, 4);
	fx_le(slot + l->pid, (uint32_t)e->pid, 4);
	fx_le(slot + l->uid, e->uid, 4);
	fx_le(slot + l->auid, e->auid, 4);
	slot[l->origin] = e->origin;
	slot[l->reason_len] = e->reason_len;
	slot[l->detail] = e->detail;
	fx_str(slot + l->comm, e->comm, l->comm_len);
	if (e->origin && e->reason && e->detail < l->nreasons) {
		unsigned char *text = log + l->reasons +
				      e->detail * l->reason_size + l->text;
		size_t n = e->reason_len < l->text_len ? e->reason_len :
			   l->text_len;

		if (n)	/* reason_len may claim more than there is */
			memcpy(text, e->reason, strnlen(e->reason, n));
	} else if (!e->origin && e->detail < l->ncallers) {
		unsigned char *c = log + l->callers +
				   e->detail * l->caller_size;

		fx_le(c + l->addr, e->caller, 8);
		fx_le(c + l->mod_id, e->mod_id, 8);
		fx_str(c + l->module, e->module, l->module_len);
	}
	slot[l->ready] = e->ready;
}

/* kallsyms tables: tokens 1-5 hold several characters (1 the type letter
 * too), every other printable character is the token of its own code.
 * Without absolute per-CPU symbols (s->relative, s->place) those are left
 * out.  @data: the image part's address (place-relative offsets). */
static FX_UNUSED void fx_kallsyms(unsigned char *img, const struct fx_spec *s,
				  uint64_t data)
{
	static const char *const multi[] = { "", "Tw", "arn_", "site",
					     "alias", "_kernel" };
	unsigned char *names = img + FX_NAMES;
	uint64_t base = UINT64_MAX;
	size_t t = 0, num = 0;

	for (int c = 0; c < 256; c++) {
		size_t at = 0;

		if (c > 0 && c < 6) {
			at = t;
			strcpy((char *)img + FX_TOKENS + t, multi[c]);
			t += strlen(multi[c]) + 1;
		} else if (c > 0x20 && c < 0x7f) {
			at = t;
			img[FX_TOKENS + t++] = (unsigned char)c;
			img[FX_TOKENS + t++] = 0;
		}
		fx_le(img + FX_TOKEN_INDEX + 2 * c, at, 2);
	}
	for (size_t i = 0; i < s->nsyms; i++)
		if (s->syms[i].addr >= FX_MAP && s->syms[i].addr < base)
			base = s->syms[i].addr;
	for (size_t i = 0; i < s->nsyms; i++) {
		const char *n = s->syms[i].name;
		uint64_t a = s->syms[i].addr;
		unsigned char tok[512];
		size_t len = 0;
		int32_t off;

		if ((s->relative || s->place) && a < FX_MAP)
			continue;
		while (*n) {
			int k = 5;

			while (k > 0 && strncmp(n, multi[k], strlen(multi[k])))
				k--;
			tok[len++] = k ? (unsigned char)k : (unsigned char)*n;
			n += k ? strlen(multi[k]) : 1;
		}
		if (len >= 0x80) {
			*names++ = (unsigned char)(0x80 | (len & 0x7f));
			*names++ = (unsigned char)(len >> 7);
		} else {
			*names++ = (unsigned char)len;
		}
		memcpy(names, tok, len);
		names += len;
		if (s->place)	/* offset_to_ptr() */
			off = (int32_t)(uint32_t)(a - (data + FX_OFFSETS + 4 * num));
		else if (s->relative)
			off = (int32_t)(uint32_t)(a - base);
		else if (a < FX_MAP)
			off = (int32_t)a;
		else
			off = (int32_t)(-(int64_t)(a - base) - 1);
		fx_le(img + FX_OFFSETS + 4 * num++, (uint32_t)off, 4);
	}
	fx_le(img + FX_NUM_SYMS, num, 4);
	fx_le(img + FX_BASE, base, 8);
}

/* a growing buffer */
struct fx_buf {
	unsigned char *p;
	size_t len, cap;
};

static FX_UNUSED void fx_put(struct fx_buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static FX_UNUSED __attribute__((format(printf, 2, 3)))
void fx_line(struct fx_buf *b, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fx_put(b, line, (size_t)n);
}

/* The edit @e if it edits a field of the LAYOUT() line @p (@n bytes):
 * "LAYOUT(x) name:value" sets or adds the field, "LAYOUT(x) name" removes
 * it, "LAYOUT(x) =value" sets the size; what follows the space, else NULL */
static FX_UNUSED const char *fx_field_edit(const char *e, const char *p,
					   size_t n)
{
	const char *sp = strchr(e, ' ');
	size_t k = sp ? (size_t)(sp - e) : 0;

	if (!sp || memchr(e, '=', k) || n <= k || memcmp(p, e, k) ||
	    p[k] != '=')
		return NULL;
	return sp + 1;
}

/* the LAYOUT() line @p (@n bytes, with its newline) with the field edits
 * among @edit applied */
static FX_UNUSED void fx_edit_fields(const char *p, size_t n,
				     const char *const *edit,
				     struct fx_buf *out)
{
	char tok[32][160];
	size_t nt = 0;
	const char *eq = memchr(p, '=', n), *q = eq + 1, *end = p + n - 1;

	while (q <= end && nt < 32) {	/* tok[0] is the size */
		const char *sp = memchr(q, ' ', (size_t)(end - q));
		size_t len = (size_t)((sp ? sp : end) - q);

		snprintf(tok[nt++], sizeof(tok[0]), "%.*s", (int)len, q);
		q += len + 1;
	}
	for (size_t i = 0; edit[i]; i++) {
		const char *f = fx_field_edit(edit[i], p, n), *colon;
		size_t name, t;

		if (!f)
			continue;
		if (*f == '=') {
			snprintf(tok[0], sizeof(tok[0]), "%s", f + 1);
			continue;
		}
		colon = strchr(f, ':');
		name = colon ? (size_t)(colon - f) : strlen(f);
		for (t = 1; t < nt; t++)
			if (!strncmp(tok[t], f, name) && tok[t][name] == ':')
				break;
		if (!colon) {		/* remove */
			if (t < nt)
				memmove(tok[t], tok[t + 1],
					(nt-- - t - 1) * sizeof(tok[0]));
			continue;
		}
		if (t == nt && nt < 32)
			nt++;
		snprintf(tok[t], sizeof(tok[0]), "%s", f);
	}
	fx_put(out, p, (size_t)(eq - p) + 1);
	for (size_t t = 0; t < nt; t++)
		fx_line(out, "%s%s", t ? " " : "", tok[t]);
	fx_put(out, "\n", 1);
}

/* apply the spec's edits to the KEY=VALUE lines of @in */
static FX_UNUSED void fx_edit(const struct fx_spec *s, const struct fx_buf *in,
			      struct fx_buf *out)
{
	const char *p = (const char *)in->p, *end = p + in->len;
	bool done[64] = { false };

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)(nl - p) + 1;
		bool keep = true, fields = false;

		for (size_t i = 0; s->edit && s->edit[i] && i < 64; i++) {
			const char *e = s->edit[i], *eq = strchr(e, '=');
			size_t k = eq ? (size_t)(eq - e) : strlen(e);

			if (fx_field_edit(e, p, n)) {
				fields = true;
				done[i] = true;
			} else if (n > k && !memcmp(p, e, k) && p[k] == '=') {
				if (eq && !done[i])
					fx_line(out, "%s\n", e);
				done[i] = true;
				keep = false;
			}
		}
		if (keep && fields)
			fx_edit_fields(p, n, s->edit, out);
		else if (keep)
			fx_put(out, p, n);
		p += n;
	}
	for (size_t i = 0; s->edit && s->edit[i] && i < 64; i++)
		if (!done[i] && strchr(s->edit[i], '=') &&
		    !strchr(s->edit[i], ' '))
			fx_line(out, "%s\n", s->edit[i]);
}

/* "LAYOUT(@name)=@size f:off f:off[len] ...": @n fields, an array where
 * @len is not 0 */
static FX_UNUSED void fx_layout_line(struct fx_buf *b, const char *name,
				     unsigned int size,
				     const char *const *names,
				     const unsigned int *offs,
				     const unsigned int *lens, size_t n)
{
	fx_line(b, "LAYOUT(%s)=%u", name, size);
	for (size_t i = 0; i < n; i++)
		if (lens[i])
			fx_line(b, " %s:%u[%u]", names[i], offs[i], lens[i]);
		else
			fx_line(b, " %s:%u", names[i], offs[i]);
	fx_line(b, "\n");
}

static FX_UNUSED void fx_vmcoreinfo(const struct fx_spec *s, uint64_t data,
			  struct fx_buf *out)
{
	static const char *const log_names[] = {
		"next", "dropped", "ev", "callers", "reasons",
	};
	static const char *const ev_names[] = {
		"ts_nsec", "utc", "flags", "new", "pid", "uid", "auid",
		"origin", "ready", "reason_len", "detail", "comm",
	};
	static const char *const caller_names[] = {
		"addr", "mod_id", "module",
	};
	static const char *const reason_names[] = { "text" };
	static const struct {
		const char *name;
		unsigned int at;
	} tables[] = {
		{ "names", FX_NAMES }, { "num_syms", FX_NUM_SYMS },
		{ "token_table", FX_TOKENS }, { "token_index", FX_TOKEN_INDEX },
		{ "offsets", FX_OFFSETS }, { "relative_base", FX_BASE },
	};
	const struct fx_layout *l = s->layout;
	const unsigned int log_offs[] = {
		l->next, l->dropped, l->ev, l->callers, l->reasons,
	};
	const unsigned int log_lens[] = {
		0, 0, l->slots, l->ncallers, l->nreasons,
	};
	const unsigned int ev_offs[] = {
		l->ts, l->utc, l->flags, l->new_, l->pid, l->uid, l->auid,
		l->origin, l->ready, l->reason_len, l->detail, l->comm,
	};
	const unsigned int ev_lens[] = {	/* arrays: their length */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, l->comm_len,
	};
	const unsigned int caller_offs[] = { l->addr, l->mod_id, l->module };
	const unsigned int caller_lens[] = { 0, 0, l->module_len };
	struct fx_buf b = { 0 };

	fx_line(&b, "OSRELEASE=6.12.118-usertaint\nPAGESIZE=4096\n");
	fx_line(&b, "SYMBOL(init_uts_ns)=%llx\n",
		(unsigned long long)(data + 0x7000));
	if (!s->stock) {
		fx_line(&b, "SYMBOL(taint_events)=%llx\n",
			(unsigned long long)(data + FX_LOG));
		fx_line(&b, "NUMBER(TAINT_FLAGS_COUNT)=%u\n", s->flags_count);
		fx_layout_line(&b, "taint_log", l->log_size, log_names,
			       log_offs, log_lens, 5);
		fx_layout_line(&b, "taint_event", l->ev_size, ev_names,
			       ev_offs, ev_lens, 12);
		fx_layout_line(&b, "taint_caller", l->caller_size,
			       caller_names, caller_offs, caller_lens, 3);
		fx_layout_line(&b, "taint_reason", l->reason_size,
			       reason_names, &l->text, &l->text_len, 1);
	}
	for (size_t i = 0; s->syms && i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!s->place || tables[i].at != FX_BASE)
			fx_line(&b, "SYMBOL(kallsyms_%s)=%llx\n", tables[i].name,
				(unsigned long long)(data + tables[i].at));
	fx_line(&b, "NUMBER(phys_base)=%lld\nKERNELOFFSET=%llx\n",
		(long long)s->phys_base, (unsigned long long)s->kaslr);
	fx_line(&b, "NUMBER(pgtable_l5_enabled)=0\n");
	fx_edit(s, &b, out);
	free(b.p);
}

static FX_UNUSED void fx_note(struct fx_buf *b, const char *name, uint32_t type,
		    const void *desc, size_t len)
{
	static const unsigned char pad[4];
	unsigned char h[12];
	size_t namesz = strlen(name) + 1;

	fx_le(h, namesz, 4);
	fx_le(h + 4, len, 4);
	fx_le(h + 8, type, 4);
	fx_put(b, h, 12);
	fx_put(b, name, namesz);
	fx_put(b, pad, (4 - namesz % 4) % 4);
	fx_put(b, desc, len);
	fx_put(b, pad, (4 - len % 4) % 4);
}

static FX_UNUSED void fx_phdr(unsigned char *p, uint32_t type, uint64_t off,
		    uint64_t paddr, uint64_t filesz, uint64_t memsz)
{
	memset(p, 0, sizeof(Elf64_Phdr));
	fx_le(p + offsetof(Elf64_Phdr, p_type), type, 4);
	fx_le(p + offsetof(Elf64_Phdr, p_offset), off, 8);
	fx_le(p + offsetof(Elf64_Phdr, p_paddr), paddr, 8);
	fx_le(p + offsetof(Elf64_Phdr, p_filesz), filesz, 8);
	fx_le(p + offsetof(Elf64_Phdr, p_memsz), memsz, 8);
}

/* The dump of @s, malloc()ed, in *@len bytes. */
static FX_UNUSED unsigned char *fx_build(const struct fx_spec *s, size_t *len)
{
	enum { NPH = 5, LOW = 0x1000 };
	const struct fx_layout *l = s->layout;
	uint64_t data = FX_DATA + s->kaslr;
	uint64_t phys = data - FX_MAP + (uint64_t)s->phys_base;
	unsigned char *img = calloc(1, FX_IMG), low[LOW], prstatus[336];
	unsigned char eh[sizeof(Elf64_Ehdr)] = { 0 }, sh[sizeof(Elf64_Shdr)];
	unsigned char ph[NPH][sizeof(Elf64_Phdr)];
	struct fx_buf notes = { 0 }, info = { 0 }, out = { 0 };
	/* segments: [start, end) of the image, in file order B, A, C */
	const unsigned int cut[][2] = { { 0x2000, 0x3000 }, { 0, 0x2000 },
					{ 0x3000, FX_IMG } };
	uint64_t off;

	if (!img)
		abort();
	memset(img, 0x5a, FX_LOG);
	memset(img + FX_LOG + l->log_size, 0xff, FX_TOKENS - FX_LOG - l->log_size);
	fx_le(img + FX_LOG + l->next, (uint32_t)s->next, 4);
	fx_le(img + FX_LOG + l->dropped, (uint32_t)s->dropped, 4);
	for (size_t i = 0; i < s->nev; i++)
		fx_event_put(img + FX_LOG, l, i, &s->ev[i]);
	if (s->syms)
		fx_kallsyms(img, s, data);
	memset(low, 0xaa, sizeof(low));
	memset(prstatus, 0, sizeof(prstatus));

	fx_note(&notes, "CORE", NT_PRSTATUS, prstatus, sizeof(prstatus));
	fx_vmcoreinfo(s, data, &info);
	if (!s->no_vmcoreinfo)
		fx_note(&notes, "VMCOREINFO", 0, info.p, info.len);

	memcpy(eh, ELFMAG, SELFMAG);
	eh[EI_CLASS] = ELFCLASS64;
	eh[EI_DATA] = ELFDATA2LSB;
	eh[EI_VERSION] = EV_CURRENT;
	fx_le(eh + offsetof(Elf64_Ehdr, e_type), ET_CORE, 2);
	fx_le(eh + offsetof(Elf64_Ehdr, e_machine), EM_X86_64, 2);
	fx_le(eh + offsetof(Elf64_Ehdr, e_version), EV_CURRENT, 4);
	fx_le(eh + offsetof(Elf64_Ehdr, e_phoff), sizeof(eh), 8);
	fx_le(eh + offsetof(Elf64_Ehdr, e_ehsize), sizeof(eh), 2);
	fx_le(eh + offsetof(Elf64_Ehdr, e_phentsize), sizeof(Elf64_Phdr), 2);
	fx_le(eh + offsetof(Elf64_Ehdr, e_phnum), s->xnum ? PN_XNUM : NPH, 2);

	off = sizeof(eh) + sizeof(ph) + (s->xnum ? sizeof(sh) : 0);
	fx_phdr(ph[0], PT_NOTE, off, 0, notes.len, 0);
	off += notes.len;
	fx_phdr(ph[1], PT_LOAD, off, 0, LOW, 2 * LOW);
	off += LOW;
	for (int i = 0; i < 3; i++) {
		uint64_t size = cut[i][1] - cut[i][0];
		uint64_t file = i == 1 ? size - s->zero_tail : size;

		fx_phdr(ph[2 + i], PT_LOAD, off, phys + cut[i][0], file, size);
		off += file;
	}
	if (s->xnum) {
		memset(sh, 0, sizeof(sh));
		fx_le(sh + offsetof(Elf64_Shdr, sh_info), NPH, 4);
		fx_le(eh + offsetof(Elf64_Ehdr, e_shoff), sizeof(eh) + sizeof(ph), 8);
		fx_le(eh + offsetof(Elf64_Ehdr, e_shentsize), sizeof(sh), 2);
		fx_le(eh + offsetof(Elf64_Ehdr, e_shnum), 1, 2);
	}
	fx_put(&out, eh, sizeof(eh));
	fx_put(&out, ph, sizeof(ph));
	if (s->xnum)
		fx_put(&out, sh, sizeof(sh));
	fx_put(&out, notes.p, notes.len);
	fx_put(&out, low, LOW);
	for (int i = 0; i < 3; i++)
		fx_put(&out, img + cut[i][0], cut[i][1] - cut[i][0] -
		       (i == 1 ? s->zero_tail : 0));
	free(img);
	free(notes.p);
	free(info.p);
	*len = out.len;
	return out.p;
}

#endif
