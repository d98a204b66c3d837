// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record_core.c - what taintctl record writes: each struct taint_rec of
 * the BPF program (bpf/record_abi.h) as a line of the kernel's taint log
 * (libtaint's taint_record_format_event(): the same fields, the same
 * escaping, so no comm or module name can forge a line), and the notes
 * (taint_record_format_begin/lost()).  Every line is one write() to a
 * file opened O_APPEND, so lines of two writers never interleave.
 *
 * KERNEL events: the caller is the first frame of the kernel stack
 * outside the taint code (add_taint(), the WARN machinery, the BPF
 * trampoline), resolved now; module= the module holding it.  An event of
 * the module loader (load_module() on the stack) is held until the
 * module_load tracepoint names the module (add_taint_module() is inline,
 * so add_taint() is all there is): then module= is that module and
 * caller= is left out, as the kernel's log does (the loader says
 * nothing).  USER events: a write to kernel.tainted; flags= the bits
 * written (parsed as the kernel parses them), new= those first set.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

void rec_ts(uint64_t ns, char buf[32])
{
	snprintf(buf, 32, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u,
		 ns % 1000000000u / 1000u);
}

static void utc(const struct recorder *r, uint64_t ns, char buf[24])
{
	int64_t wall = (int64_t)ns + r->realtime_off_ns;
	time_t t = (time_t)(wall / 1000000000);
	struct tm tm;

	/* before 2001-01-01: the clock was never set */
	if (wall < 0 || t < 978307200 || !gmtime_r(&t, &tm) ||
	    !strftime(buf, 24, "%Y-%m-%dT%H:%M:%SZ", &tm))
		strcpy(buf, "-");
}

static void put_line(struct recorder *r, const char *line, size_t len)
{
	char buf[1024];
	ssize_t n;

	if (len >= sizeof(buf) - 1)
		len = sizeof(buf) - 2;	/* never: fields are bounded */
	memcpy(buf, line, len);
	buf[len++] = '\n';
	do
		n = write(r->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len && !r->error)
		r->error = n < 0 ? errno : EIO;
}

int rec_open_log(const char *path, bool *restarted)
{
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC |
		      O_NOFOLLOW, 0600);
	struct stat st;
	char last;

	*restarted = false;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int e = S_ISREG(st.st_mode) ? errno : EINVAL;

		close(fd);
		return -e;
	}
	if (st.st_size > 0) {
		*restarted = true;
		/* an earlier recorder that died in a write: end its line */
		if (pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n' &&
		    write(fd, "\n", 1) != 1) {
			int e = errno;

			close(fd);
			return -e;
		}
	}
	return fd;
}

int rec_start(struct recorder *r, bool restarted, uint64_t now_ns,
	      const char *kernel, uint64_t mask)
{
	char ts[32], u[24], line[512];
	size_t n;

	rec_ts(now_ns, ts);
	utc(r, now_ns, u);
	n = taint_record_format_begin(line, sizeof(line), restarted, ts, u,
				      kernel, mask);
	put_line(r, line, n < sizeof(line) ? n : sizeof(line) - 1);
	return r->error ? -r->error : 0;
}

/* frames that are the taint code, not who asked for the taint */
static bool taint_code(const struct rec_sym *s)
{
	static const char *const names[] = {
		"add_taint", "__warn", "warn_slowpath_fmt", "__warn_printk",
		"report_bug", "handle_bug", "exc_invalid_op",
		"asm_exc_invalid_op", "proc_taint", "add_taint_module",
	};

	if (s->module && !strcmp(s->module, "bpf"))
		return true;	/* the BPF trampoline and programs */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t l = strlen(names[i]);

		/* also "__warn.cold", "add_taint.part.0" */
		if (!strncmp(s->name, names[i], l) &&
		    (!s->name[l] || s->name[l] == '.'))
			return true;
	}
	return false;
}

static bool loader_frame(const struct rec_sym *s)
{
	return !s->module && (!strncmp(s->name, "load_module", 11) ||
			      !strcmp(s->name, "module_augment_kernel_taints"));
}

/* caller= and module= from the stack; *@loader if the module loader is
 * on it */
static void resolve(const struct recorder *r, const struct taint_rec *e,
		    struct taint_event *ev, bool *loader)
{
	size_t frames = e->stack_bytes > 0 ?
		(size_t)e->stack_bytes / sizeof(e->stack[0]) : 0;
	bool found = false;

	*loader = false;
	if (!r->syms)
		return;
	if (frames > TAINT_REC_STACK)
		frames = TAINT_REC_STACK;
	for (size_t i = 0; i < frames; i++) {
		uint64_t size;
		const struct rec_sym *s = rec_syms_find(r->syms, e->stack[i],
							&size);

		if (!s)
			continue;
		if (loader_frame(s))
			*loader = true;
		if (found || taint_code(s))
			continue;
		found = true;
		snprintf(ev->caller, sizeof(ev->caller),
			 "%s+0x%" PRIx64 "/0x%" PRIx64, s->name,
			 (uint64_t)(e->stack[i] - s->addr), size);
		ev->has_caller = true;
		if (s->module) {
			snprintf(ev->module, sizeof(ev->module), "%s", s->module);
			ev->module_len = strlen(ev->module);
			ev->has_module = true;
		}
	}
}

static void letters(uint64_t mask, char buf[65])
{
	taint_mask_letters(mask, buf, 65);
}

bool rec_to_event(const struct recorder *r, const struct taint_rec *e,
		  struct taint_event *ev, bool *loader)
{
	*ev = (struct taint_event)TAINT_INIT(struct taint_event);
	*loader = false;
	if (e->kind != TAINT_REC_KERNEL && e->kind != TAINT_REC_USER)
		return false;
	rec_ts(e->ts_ns, ev->ts);
	utc(r, e->ts_ns, ev->utc);
	ev->pid = e->pid;
	ev->uid = e->uid;
	ev->has_auid = true;
	ev->auid_set = e->auid != TAINT_REC_NO_AUID;
	ev->auid = ev->auid_set ? e->auid : 0;
	ev->comm_len = strnlen(e->comm, sizeof(e->comm));
	memcpy(ev->comm, e->comm, ev->comm_len);
	ev->comm[ev->comm_len] = '\0';
	if (e->kind == TAINT_REC_KERNEL) {
		ev->origin = TAINT_ORIGIN_KERNEL;
		ev->flags_mask = ev->new_mask = UINT64_C(1) << (e->bit & 63);
		resolve(r, e, ev, loader);
	} else {
		char text[TAINT_REC_TEXT + 1];
		uint64_t asked;

		memcpy(text, e->text, TAINT_REC_TEXT);
		text[TAINT_REC_TEXT] = '\0';
		/* the handler took it (ret 0): it parses; else what its
		 * add_taint() calls were given */
		if (taint_parse_value(text, &asked))
			asked = e->taints;
		ev->origin = TAINT_ORIGIN_USER;
		ev->flags_mask = asked;
		ev->new_mask = e->new_mask & asked;
	}
	letters(ev->flags_mask, ev->flags);
	letters(ev->new_mask, ev->new_flags);
	return true;
}

static void write_event(struct recorder *r, const struct taint_event *ev)
{
	char line[1024];
	size_t n = taint_record_format_event(ev, line, sizeof(line));

	put_line(r, line, n < sizeof(line) ? n : sizeof(line) - 1);
	r->lines++;
}

/* pending event @i written (module @name, NULL: none) and dropped */
static void release(struct recorder *r, size_t i, const char *name)
{
	struct taint_event *ev = &r->pending[i].ev;

	if (name) {
		ev->module_len = strnlen(name, TAINT_REC_NAME);
		if (ev->module_len > TAINT_MODULE_MAX)
			ev->module_len = TAINT_MODULE_MAX;
		memcpy(ev->module, name, ev->module_len);
		ev->module[ev->module_len] = '\0';
		ev->has_module = true;
		ev->has_caller = false;
	}
	write_event(r, ev);
	memmove(&r->pending[i], &r->pending[i + 1],
		(r->npending - i - 1) * sizeof(r->pending[0]));
	r->npending--;
}

void rec_reason(struct recorder *r, uint32_t pid, const char *reason,
		uint64_t now_ns)
{
	size_t n = r->nreasons;

	if (n == sizeof(r->reasons) / sizeof(r->reasons[0])) {
		memmove(&r->reasons[0], &r->reasons[1],
			(n - 1) * sizeof(r->reasons[0]));
		n--;
	}
	r->reasons[n].pid = pid;
	r->reasons[n].until_ns = now_ns + 10000000000ull;
	snprintf(r->reasons[n].reason, sizeof(r->reasons[n].reason), "%s",
		 reason);
	r->nreasons = n + 1;
}

/* the reason its sender handed over for this request, if one waits */
static void take_reason(struct recorder *r, const struct taint_rec *e,
			struct taint_event *ev)
{
	for (size_t i = 0; i < r->nreasons; i++) {
		if (r->reasons[i].pid != e->pid)
			continue;
		if (e->ts_ns <= r->reasons[i].until_ns) {
			ev->reason_len = strlen(r->reasons[i].reason);
			memcpy(ev->reason, r->reasons[i].reason,
			       ev->reason_len + 1);
			ev->has_reason = true;
		}
		memmove(&r->reasons[i], &r->reasons[i + 1],
			(r->nreasons - i - 1) * sizeof(r->reasons[0]));
		r->nreasons--;
		return;
	}
}

/* kallsyms read again (the old table kept if that fails) */
static void reread_syms(struct recorder *r)
{
	struct rec_syms fresh;

	if (r->syms && r->syms_path && !rec_syms_load(&fresh, r->syms_path)) {
		rec_syms_free(r->syms);
		*r->syms = fresh;
	}
}

void rec_event(struct recorder *r, const struct taint_rec *e)
{
	struct taint_event ev;
	bool loader;

	if (e->kind == TAINT_REC_MODULE) {
		char name[TAINT_REC_NAME + 1];

		/* the module's functions, for the callers of later events (its
		 * symbols are in kallsyms before the tracepoint fires) */
		reread_syms(r);

		memcpy(name, e->name, TAINT_REC_NAME);
		name[TAINT_REC_NAME] = '\0';
		for (size_t i = 0; i < r->npending; )
			if (r->pending[i].pid == e->pid)
				release(r, i, e->taints &
					r->pending[i].ev.new_mask ? name : NULL);
			else
				i++;
		return;
	}
	/* a kernel event's stack against kallsyms as it is now: a table read
	 * earlier may hold the init code of a module loaded meanwhile, freed
	 * since and reused by another (found on Debian's 6.12, where udev
	 * was still loading modules: a WARN named crct10dif_pclmul's init
	 * function); kernel events are first sets, a few per boot */
	if (e->kind == TAINT_REC_KERNEL)
		reread_syms(r);
	if (!rec_to_event(r, e, &ev, &loader))
		return;
	if (e->kind == TAINT_REC_USER)
		take_reason(r, e, &ev);
	if (!loader) {
		write_event(r, &ev);
		return;
	}
	if (r->npending == REC_PENDING)
		release(r, 0, NULL);
	r->pending[r->npending++] = (struct rec_pending){ ev, e->pid, e->ts_ns };
}

void rec_flush(struct recorder *r, uint64_t now_ns, bool all)
{
	for (size_t i = 0; i < r->npending; )
		if (all || now_ns - r->pending[i].ts_ns > 2000000000u)
			release(r, i, NULL);
		else
			i++;
}

void rec_lost(struct recorder *r, uint64_t total, uint64_t now_ns)
{
	char ts[32], line[128];
	size_t n;

	if (total <= r->lost)
		return;
	rec_ts(now_ns, ts);
	n = taint_record_format_lost(line, sizeof(line), ts, total - r->lost);
	put_line(r, line, n < sizeof(line) ? n : sizeof(line) - 1);
	r->lost = total;
}
