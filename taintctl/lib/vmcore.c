// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore.c - the taint log of a kernel crash dump (docs/abi.md 1.7):
 * taint_vmcore_read_log() writes the text that the dumped kernel's
 * /proc/sys/kernel/taint_log would have shown, for taint_log_parse(), so
 * that `taintctl log --vmcore` prints what `taintctl log` prints.
 *
 * The kernel exports the log's address and layout in VMCOREINFO
 * (kernel/taint_log.c, taint_log_vmcoreinfo_text()):
 *   SYMBOL(taint_events)          struct taint_log
 *   NUMBER(TAINT_FLAGS_COUNT)
 *   LAYOUT(taint_log)=SIZE next:OFF dropped:OFF ev:OFF[SLOTS]
 *       callers:OFF[N] reasons:OFF[N]
 *   LAYOUT(taint_event)=SIZE ts_nsec:OFF ... detail:OFF comm:OFF[LEN]
 *   LAYOUT(taint_caller)=SIZE addr:OFF mod_id:OFF module:OFF[LEN]
 *   LAYOUT(taint_reason)=SIZE text:OFF[LEN]
 * (each field below; an array with its length).  A slot of ev[] holds
 * what every event has; its detail byte is an index into the arrays
 * beside the slots for what only some have: a kernel event's caller and
 * module are callers[detail], a user request's reason (if reason_len is
 * not 0) the first reason_len bytes of reasons[detail].text.  Every
 * offset, size and length comes from there and is checked (each field
 * inside its struct, each array inside the log, at most 4096 elements of
 * at most 64 KiB) before any use; nothing of the layout is assumed, not
 * even the order of the arrays.  (addr and mod_id are unsigned long, 8
 * bytes: the dumps read are x86_64's.)
 * The series' first layout, a caller or reason inside each slot (no
 * LAYOUT(taint_caller); no released kernel has it), is refused as a dump
 * this version cannot read.
 *
 * Each published slot (ready != 0) of the first min(next, SLOTS) becomes
 * a struct taint_event, written by log.c's formatter (taint__log_format(),
 * the table of the line's fields that the parser reads with): the line
 * kernel/taint_log.c's taint_event_format() prints, byte for byte (the
 * one escaper is libtaint's taint_escape(), the same rules), and
 * "dropped=<n>" ends the text if requests were dropped.  caller= is
 * named with the dump's kallsyms (kallsyms.c) for core kernel code
 * (mod_id 0); for a module's code it is left out (the module's symbols
 * are in module memory the dump reader cannot walk without debug
 * information): module= still names the module.  A slot that the kernel
 * could not have written (an origin, flag bit, pid, wall time or reason
 * length out of range, a detail index past its array) makes the dump
 * unreadable, not a line the parser would refuse, and never a read
 * outside the log.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "log_internal.h"
#include "taint.h"
#include "vmcore_internal.h"

#define LOG_SIZE_MAX	(UINT64_C(1) << 30)
#define COUNT_MAX	4096	/* elements of an array of struct taint_log */
#define STRUCT_SIZE_MAX	65536	/* bytes of one element */
#define UTC_MAX		INT64_C(253402300799)	/* 9999-12-31T23:59:59Z */

/* A field of a structure: its width, or (0) an array of LENGTH() at most
 * max bytes, as the parser takes them. */
struct field {
	const char *name;
	unsigned int width, max;
};

enum { TS, UTC, FLAGS, NEW, PID, UID, AUID, ORIGIN, READY, REASON_LEN,
       DETAIL, COMM, EV_FIELDS };
enum { ADDR, MOD_ID, MODULE, CALLER_FIELDS };
enum { TEXT, REASON_FIELDS };

static const struct field event_fields[EV_FIELDS] = {
	[TS] = { "ts_nsec", 8, 0 },	[UTC] = { "utc", 8, 0 },
	[FLAGS] = { "flags", 4, 0 },	[NEW] = { "new", 4, 0 },
	[PID] = { "pid", 4, 0 },	[UID] = { "uid", 4, 0 },
	[AUID] = { "auid", 4, 0 },	[ORIGIN] = { "origin", 1, 0 },
	[READY] = { "ready", 1, 0 },	[REASON_LEN] = { "reason_len", 1, 0 },
	[DETAIL] = { "detail", 1, 0 },
	[COMM] = { "comm", 0, TAINT_COMM_MAX },
};

static const struct field caller_fields[CALLER_FIELDS] = {
	[ADDR] = { "addr", 8, 0 },	[MOD_ID] = { "mod_id", 8, 0 },
	[MODULE] = { "module", 0, TAINT_MODULE_MAX },
};

static const struct field reason_fields[REASON_FIELDS] = {
	[TEXT] = { "text", 0, 255 },	/* reason_len is a u8 */
};

/* An array of struct taint_log and its element, LAYOUT(name) */
struct array {
	const char *member, *name;	/* "ev", "taint_event" */
	const struct field *fields;
	unsigned int nfields;
	uint64_t at, count;		/* in struct taint_log */
	uint64_t size;			/* of an element */
	uint64_t off[EV_FIELDS], len[EV_FIELDS];
};

_Static_assert((int)CALLER_FIELDS <= (int)EV_FIELDS &&
	       (int)REASON_FIELDS <= (int)EV_FIELDS,
	       "struct array's off[] and len[] hold every structure's fields");

struct layout {
	uint64_t addr;			/* SYMBOL(taint_events) */
	uint64_t size, next, dropped;	/* struct taint_log */
	struct array ev, callers, reasons;
	unsigned int flags_count;
};

/* The text being written. */
struct text {
	char *p;
	size_t len, cap;
	int err;
};

static void put(struct text *t, const char *s, size_t n)
{
	char *p;

	if (t->err)
		return;
	/* room for the text, the @n bytes and a NUL */
	p = taint__grow(t->p, t->len + n, &t->cap, 1, 4096);
	if (!p) {
		t->err = -ENOMEM;
		return;
	}
	t->p = p;
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

static __attribute__((format(printf, 2, 3)))
void putf(struct text *t, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= 0)
		put(t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* taint__log_format()'s output: into the text */
static void put_line(void *arg, const char *s, size_t n)
{
	put(arg, s, n);
}

/* @s into @out (@size bytes), cut if need be (what is copied here
 * always fits: the ranges are checked) */
static void copy_text(char *out, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n >= size)
		n = size - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* taint_letters(): the letters of @mask ("" for none: the formatter
 * prints "-") */
static void mask_letters(char *out, uint32_t mask)
{
	for (unsigned int bit = 0; bit < 32; bit++)
		if (mask & (UINT32_C(1) << bit))
			*out++ = taint_flag_info(bit)->letter;
	*out = '\0';
}

/* "%ptT" and 'Z': @secs (0 to UTC_MAX) as YYYY-MM-DDTHH:MM:SSZ in UTC */
static void utc_text(char *out, size_t size, int64_t secs)
{
	/* days to a civil date (proleptic Gregorian), in 400-year eras */
	int64_t days = secs / 86400 + 719468, rem = secs % 86400;
	int64_t era = days / 146097, doe = days - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int64_t d = doy - (153 * mp + 2) / 5 + 1;
	int64_t m = mp < 10 ? mp + 3 : mp - 9;
	int64_t y = yoe + era * 400 + (m <= 2);
	char buf[128];

	snprintf(buf, sizeof(buf), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
		 (long long)y, (long long)m, (long long)d,
		 (long long)(rem / 3600), (long long)(rem / 60 % 60),
		 (long long)(rem % 60));
	copy_text(out, size, buf);
}

/* --- the layout, from VMCOREINFO ---------------------------------------- */

/* KIND(NAME), an unsigned number of at most @max. */
static int key(struct vmcore *vc, const char *kind, const char *name,
	       uint64_t max, uint64_t *v)
{
	char k[80];
	int ret;

	snprintf(k, sizeof(k), "%s(%s)", kind, name);
	ret = vmcoreinfo_unsigned(vc, k, v);
	if (ret == -ENOENT)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO has SYMBOL(taint_events) but no %s",
				   k);
	if (ret)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: %s is not an unsigned decimal number",
				   k);
	if (*v > max)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: %s=%llu is out of range (at most %llu)",
				   k, (unsigned long long)*v,
				   (unsigned long long)max);
	return 0;
}

/*
 * From LAYOUT(@st): its size, at most @max (@field NULL), or @field's
 * offset and, for an array (@max not 0), its length, 1 to @max.
 */
static int layout_item(struct vmcore *vc, const char *st, const char *field,
		       uint64_t max, uint64_t *off, uint64_t *len)
{
	int ret;

	/* defined on every return, also where the caller ignores them */
	*off = 0;
	*len = 0;
	ret = vmcoreinfo_layout(vc, st, field, off, len);

	if (ret == -ENOENT && field && vmcoreinfo_layout(vc, st, NULL, off,
							  len) == 0)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: LAYOUT(%s) has no field %s",
				   st, field);
	if (ret == -ENOENT)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO has SYMBOL(taint_events) but no LAYOUT(%s)",
				   st);
	if (ret)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: LAYOUT(%s) is not of the form SIZE FIELD:OFFSET FIELD:OFFSET[LENGTH] ...",
				   st);
	if (!field) {
		if (*off <= max)
			return 0;
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: LAYOUT(%s) size %llu is out of range (at most %llu)",
				   st, (unsigned long long)*off,
				   (unsigned long long)max);
	}
	if (!max && *len)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: in LAYOUT(%s), %s has a length but is not an array",
				   st, field);
	if (max && !*len)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: in LAYOUT(%s), array %s has length 0 or none",
				   st, field);
	if (*len > max)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: in LAYOUT(%s), %s length %llu is out of range (at most %llu)",
				   st, field, (unsigned long long)*len,
				   (unsigned long long)max);
	return 0;
}

/* @st.@field of @size bytes at @off must fit in @st's @total bytes */
static int fits(struct vmcore *vc, const char *st, const char *field,
		uint64_t off, uint64_t size, uint64_t total)
{
	if (off <= total && size <= total - off)
		return 0;
	return vmcore_fail(vc, -EBADMSG,
			   "VMCOREINFO is inconsistent: %s.%s (offset %llu, %llu bytes) does not fit in LAYOUT(%s) (%llu bytes)",
			   st, field, (unsigned long long)off,
			   (unsigned long long)size, st,
			   (unsigned long long)total);
}

/* LAYOUT(@st)'s @field, not an array, of @width bytes: its offset */
static int layout_scalar(struct vmcore *vc, const char *st, const char *field,
			 uint64_t width, uint64_t total, uint64_t *off)
{
	uint64_t none;
	int ret = layout_item(vc, st, field, 0, off, &none);

	return ret ? ret : fits(vc, st, field, *off, width, total);
}

/* @a's member of struct taint_log, and LAYOUT() of its element */
static int layout_array(struct vmcore *vc, const struct layout *lo,
			struct array *a)
{
	uint64_t none;
	int ret = layout_item(vc, "taint_log", a->member, COUNT_MAX, &a->at,
			      &a->count);

	if (!ret)
		ret = layout_item(vc, a->name, NULL, STRUCT_SIZE_MAX, &a->size,
				  &none);
	for (unsigned int f = 0; !ret && f < a->nfields; f++) {
		const struct field *d = &a->fields[f];

		ret = layout_item(vc, a->name, d->name, d->max, &a->off[f],
				  &a->len[f]);
		if (d->width)
			a->len[f] = d->width;
		if (!ret)
			ret = fits(vc, a->name, d->name, a->off[f], a->len[f],
				   a->size);
	}
	if (!ret)	/* at most 2^12 elements of 2^16 bytes: no overflow */
		ret = fits(vc, "taint_log", a->member, a->at,
			   a->count * a->size, lo->size);
	return ret;
}

/*
 * The series' first layout (never released): a caller or a reason in
 * each slot, and no LAYOUT(taint_caller).  Said so, rather than that a
 * line is missing.
 */
static int layout_first(struct vmcore *vc)
{
	uint64_t off, len;
	size_t n;

	if (vmcoreinfo_text(vc, "LAYOUT(taint_caller)", &n) ||
	    (vmcoreinfo_layout(vc, "taint_event", "caller", &off, &len) &&
	     vmcoreinfo_layout(vc, "taint_event", "reason", &off, &len)))
		return 0;
	return vmcore_fail(vc, -ENOTSUP,
			   "the taint log has the layout of an unreleased version of the series (a caller or reason inside each slot, no LAYOUT(taint_caller) in VMCOREINFO), which this version of libtaint does not read");
}

static int layout_log(struct vmcore *vc, struct layout *lo)
{
	static const char log[] = "taint_log";
	uint64_t count = 0, none;
	int ret = layout_first(vc);

	lo->ev = (struct array){ .member = "ev", .name = "taint_event",
				 .fields = event_fields,
				 .nfields = EV_FIELDS };
	lo->callers = (struct array){ .member = "callers",
				      .name = "taint_caller",
				      .fields = caller_fields,
				      .nfields = CALLER_FIELDS };
	lo->reasons = (struct array){ .member = "reasons",
				      .name = "taint_reason",
				      .fields = reason_fields,
				      .nfields = REASON_FIELDS };
	if (!ret)
		ret = layout_item(vc, log, NULL, LOG_SIZE_MAX, &lo->size,
				  &none);
	if (!ret)
		ret = layout_scalar(vc, log, "next", 4, lo->size, &lo->next);
	if (!ret)
		ret = layout_scalar(vc, log, "dropped", 4, lo->size,
				    &lo->dropped);
	if (!ret)
		ret = layout_array(vc, lo, &lo->ev);
	if (!ret)
		ret = layout_array(vc, lo, &lo->callers);
	if (!ret)
		ret = layout_array(vc, lo, &lo->reasons);
	if (!ret)
		ret = key(vc, "NUMBER", "TAINT_FLAGS_COUNT", 32, &count);
	if (!ret && !count)
		ret = vmcore_fail(vc, -EBADMSG,
				  "VMCOREINFO: NUMBER(TAINT_FLAGS_COUNT) is 0");
	lo->flags_count = (unsigned int)count;
	return ret;
}

static int layout_read(struct vmcore *vc, struct layout *lo)
{
	int ret = vmcoreinfo_hex(vc, "SYMBOL(taint_events)", &lo->addr);

	if (ret == -ENOENT) {
		char rel[4 * 64 + 1] = "";
		size_t n;
		const char *s = vmcoreinfo_text(vc, "OSRELEASE", &n);

		if (s)
			taint_escape(s, n < 64 ? n : 64, rel, sizeof(rel));
		return vmcore_fail(vc, -ENOENT,
				   "the dumped kernel%s%s%s keeps no taint log (VMCOREINFO has no SYMBOL(taint_events): a kernel without the usertaint patches, or with CONFIG_TAINT_LOG=n)",
				   s ? " (" : "", rel, s ? ")" : "");
	}
	if (ret)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO: SYMBOL(taint_events) is not a hexadecimal address");
	ret = vmcoreinfo_signed(vc, "NUMBER(phys_base)", &vc->phys_base);
	if (ret)
		return vmcore_fail(vc, -EBADMSG,
				   "VMCOREINFO has %s NUMBER(phys_base): the kernel image cannot be found in physical memory",
				   ret == -ENOENT ? "no" : "a malformed");
	return layout_log(vc, lo);
}

/* --- the log ------------------------------------------------------------ */

struct reader {
	struct vmcore *vc;
	struct layout lo;
	struct kallsyms *ks;
	bool ks_tried;
	struct text t;
	unsigned char *ev;	/* the slot */
	unsigned char *detail;	/* its callers[] or reasons[] element */
};

/* @len bytes of struct taint_log at @off; @what names them for errors */
static int log_read(struct reader *r, uint64_t off, void *buf, size_t len,
		    const char *what)
{
	uint64_t addr = r->lo.addr + off;
	char where[128];
	int ret;

	if (addr < r->lo.addr)
		ret = -EFAULT;
	else
		ret = vmcore_read(r->vc, addr, buf, len);
	if (ret != -EFAULT && ret != -ENODATA)
		return ret;
	snprintf(where, sizeof(where), "%s (address 0x%llx)", what,
		 (unsigned long long)addr);
	if (ret == -ENODATA)
		return vmcore_truncated(r->vc, where);
	return vmcore_fail(r->vc, -EBADMSG,
			   "%s is not in the dump (SYMBOL(taint_events) 0x%llx, NUMBER(phys_base) %lld)",
			   where, (unsigned long long)r->lo.addr,
			   (long long)r->vc->phys_base);
}

/* field @f of an element of @a at @p, not an array */
static uint64_t get(const struct array *a, const unsigned char *p,
		    unsigned int f)
{
	return vmcore_le(p + a->off[f], a->fields[f].width);
}

static uint64_t ev_get(const struct reader *r, unsigned int f)
{
	return get(&r->lo.ev, r->ev, f);
}

/* A slot the kernel's taint_log_record() could have written. */
static int check_slot(struct reader *r, unsigned int slot)
{
	const struct layout *lo = &r->lo;
	uint32_t flags = (uint32_t)ev_get(r, FLAGS);
	uint32_t new = (uint32_t)ev_get(r, NEW);
	uint32_t known = lo->flags_count == 32 ? UINT32_MAX :
			 (UINT32_C(1) << lo->flags_count) - 1;
	int64_t utc = (int64_t)ev_get(r, UTC);
	uint64_t origin = ev_get(r, ORIGIN);
	uint64_t reason_len = ev_get(r, REASON_LEN);
	uint64_t detail = ev_get(r, DETAIL);

	if (origin > TAINT_ORIGIN_USER)
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: origin %llu",
				   slot, (unsigned long long)origin);
	if ((flags & ~known) || (new & ~flags))
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: flags 0x%x, new 0x%x with TAINT_FLAGS_COUNT %u",
				   slot, flags, new, lo->flags_count);
	for (unsigned int bit = 0; bit < 32; bit++)
		if ((flags & (UINT32_C(1) << bit)) && !taint_flag_info(bit))
			return vmcore_fail(r->vc, -ENOTSUP,
					   "taint log slot %u has flag bit %u, which this version of libtaint has no letter for",
					   slot, bit);
	if ((int32_t)ev_get(r, PID) < 0)
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: pid %d",
				   slot, (int32_t)ev_get(r, PID));
	if (utc < 0 || utc > UTC_MAX)
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: utc %lld",
				   slot, (long long)utc);
	if (origin == TAINT_ORIGIN_USER &&
	    (reason_len > lo->reasons.len[TEXT] ||
	     reason_len > TAINT_REASON_MAX))
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: reason_len %llu (taint_reason.text is %llu bytes)",
				   slot, (unsigned long long)reason_len,
				   (unsigned long long)lo->reasons.len[TEXT]);
	if (origin == TAINT_ORIGIN_KERNEL && detail >= lo->callers.count)
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: detail %llu of a kernel event, past taint_log.callers (%llu entries)",
				   slot, (unsigned long long)detail,
				   (unsigned long long)lo->callers.count);
	if (origin == TAINT_ORIGIN_USER && reason_len &&
	    detail >= lo->reasons.count)
		return vmcore_fail(r->vc, -EBADMSG,
				   "taint log slot %u is corrupt: detail %llu of a reason, past taint_log.reasons (%llu entries)",
				   slot, (unsigned long long)detail,
				   (unsigned long long)lo->reasons.count);
	return 0;
}

/* Element @i (checked) of @a into r->detail, for slot @slot */
static int read_detail(struct reader *r, const struct array *a, uint64_t i,
		       unsigned int slot)
{
	char what[64];

	snprintf(what, sizeof(what), "taint_log.%s[%llu] of taint log slot %u",
		 a->member, (unsigned long long)i, slot);
	return log_read(r, a->at + i * a->size, r->detail, a->size, what);
}

/* taint_caller_format(): @ev's caller= for core kernel code, when it
 * can be named */
static int event_caller(struct reader *r, uint64_t addr, uint64_t mod_id,
			struct taint_event *ev)
{
	static const char prefix[] = " caller=";
	char buf[TAINT_CALLER_MAX + 16];
	int ret = 0;

	if (!addr || mod_id)
		return 0;
	if (!r->ks_tried) {
		r->ks_tried = true;
		r->ks = kallsyms_open(r->vc, &ret);
		if (ret)
			return ret;
	}
	if (r->ks)
		ret = kallsyms_caller(r->ks, addr, buf, sizeof(buf));
	if (ret == 1) {
		/* at most TAINT_CALLER_MAX bytes after the prefix */
		copy_text(ev->caller, sizeof(ev->caller),
			  buf + sizeof(prefix) - 1);
		ev->has_caller = true;
	}
	if (ret == -ENODATA)
		return vmcore_truncated(r->vc, "the kernel's symbol table");
	return ret < 0 ? ret : 0;
}

/* the event of slot r->ev (checked), its caller or reason read */
static int slot_event(struct reader *r, unsigned int slot,
		      struct taint_event *ev)
{
	const struct array *callers = &r->lo.callers;
	const struct array *reasons = &r->lo.reasons;
	const unsigned char *comm = r->ev + r->lo.ev.off[COMM];
	const unsigned char *module = r->detail + callers->off[MODULE];
	uint64_t ts = ev_get(r, TS);
	uint32_t auid = (uint32_t)ev_get(r, AUID);
	int64_t utc = (int64_t)ev_get(r, UTC);
	uint64_t reason_len = ev_get(r, REASON_LEN);
	uint64_t detail = ev_get(r, DETAIL);
	bool user = ev_get(r, ORIGIN) == TAINT_ORIGIN_USER;
	int ret = check_slot(r, slot);

	if (!ret && !user)
		ret = read_detail(r, callers, detail, slot);
	if (!ret && user && reason_len)
		ret = read_detail(r, reasons, detail, slot);
	if (ret)
		return ret;
	snprintf(ev->ts, sizeof(ev->ts), "%llu.%06u",
		 (unsigned long long)(ts / 1000000000),
		 (unsigned int)(ts % 1000000000 / 1000));
	if (utc)
		utc_text(ev->utc, sizeof(ev->utc), utc);
	else
		strcpy(ev->utc, "-");
	ev->origin = user ? TAINT_ORIGIN_USER : TAINT_ORIGIN_KERNEL;
	mask_letters(ev->flags, (uint32_t)ev_get(r, FLAGS));
	mask_letters(ev->new_flags, (uint32_t)ev_get(r, NEW));
	ev->flags_mask = ev_get(r, FLAGS);
	ev->new_mask = ev_get(r, NEW);
	ev->pid = (uint32_t)ev_get(r, PID);	/* not negative: checked */
	ev->uid = (uint32_t)ev_get(r, UID);
	ev->has_auid = true;
	ev->auid_set = auid != UINT32_MAX;
	ev->auid = ev->auid_set ? auid : 0;
	/* at most TAINT_COMM_MAX, TAINT_MODULE_MAX, TAINT_REASON_MAX bytes:
	 * the layout's lengths and reason_len are checked */
	ev->comm_len = strnlen((const char *)comm, r->lo.ev.len[COMM]);
	memcpy(ev->comm, comm, ev->comm_len);
	if (user && reason_len) {
		ev->has_reason = true;
		ev->reason_len = reason_len;
		memcpy(ev->reason, r->detail + reasons->off[TEXT], reason_len);
	}
	if (user)
		return 0;
	if (module[0]) {
		ev->has_module = true;
		ev->module_len = strnlen((const char *)module,
					 callers->len[MODULE]);
		memcpy(ev->module, module, ev->module_len);
	}
	return event_caller(r, get(callers, r->detail, ADDR),
			    get(callers, r->detail, MOD_ID), ev);
}

/* taint_event_format() of the slot r->ev, and the newline */
static int put_event(struct reader *r, unsigned int slot)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	int ret = slot_event(r, slot, &ev);

	if (ret)
		return ret;
	taint__log_format(&ev, put_line, &r->t);
	put(&r->t, "\n", 1);
	return 0;
}

/* taint_log_text() */
static int log_text(struct reader *r)
{
	const struct layout *lo = &r->lo;
	unsigned char raw[8];
	int32_t next;
	int32_t dropped;
	uint64_t n;
	int ret = log_read(r, lo->next, raw, 4, "taint_log.next");

	if (ret)
		return ret;
	next = (int32_t)vmcore_le(raw, 4);
	ret = log_read(r, lo->dropped, raw, 4, "taint_log.dropped");
	if (ret)
		return ret;
	dropped = (int32_t)vmcore_le(raw, 4);
	if (next < 0 || dropped < 0)
		return vmcore_fail(r->vc, -EBADMSG,
				   "the taint log is corrupt: next %d, dropped %d",
				   next, (int)dropped);
	n = (uint64_t)next < lo->ev.count ? (uint64_t)next : lo->ev.count;
	r->ev = malloc(lo->ev.size);
	r->detail = malloc(lo->callers.size > lo->reasons.size ?
			   lo->callers.size : lo->reasons.size);
	if (!r->ev || !r->detail)
		ret = -ENOMEM;
	for (unsigned int i = 0; !ret && i < n; i++) {
		char what[48];

		snprintf(what, sizeof(what), "taint log slot %u", i);
		ret = log_read(r, lo->ev.at + i * lo->ev.size, r->ev,
			       lo->ev.size, what);
		if (!ret && ev_get(r, READY))
			ret = put_event(r, i);
	}
	free(r->ev);
	free(r->detail);
	if (!ret && dropped)
		putf(&r->t, "dropped=%d\n", (int)dropped);
	return ret ? ret : r->t.err;
}

int taint_vmcore_read_log(int fd, char **buf, size_t *len, char *why,
			  size_t why_size)
{
	struct vmcore vc;
	struct reader r = { .vc = &vc };
	int ret;

	*buf = NULL;
	*len = 0;
	ret = vmcore_open(&vc, fd, why, why_size);
	if (!ret)
		ret = layout_read(&vc, &r.lo);
	if (!ret)
		ret = log_text(&r);
	kallsyms_close(r.ks);
	vmcore_close(&vc);
	if (!ret && !r.t.p)
		r.t.p = calloc(1, 1);	/* an empty log */
	if (!ret && !r.t.p)
		ret = -ENOMEM;
	if (ret) {
		free(r.t.p);
		return ret;
	}
	*buf = r.t.p;
	*len = r.t.len;
	return 0;
}

/* log_object.c's constructor for a dump, here so that only programs that
 * read dumps link this reader and its decompressors (zlib, lzo, zstd) */
int taint_log_new_from_vmcore(int fd, struct taint_log **logp, char *why,
			      size_t why_size)
{
	char *buf;
	size_t len;
	int ret;

	*logp = NULL;
	ret = taint_vmcore_read_log(fd, &buf, &len, why, why_size);
	if (ret)
		return ret;
	ret = taint_log_new_from_text(buf, len, logp);
	free(buf);
	return ret;
}
