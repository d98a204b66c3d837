// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * log_object.c - struct taint_log: a taint log read once, from the running
 * kernel's /proc (or a copied tree's), a crash dump or text, kept as its
 * events, its dropped= count and the problems of its malformed lines; and
 * what a log says after a cursor (taint_log_since()).  The constructors
 * that need a decoder (a descriptor, a crash dump) are in log_sources.c.
 *
 * Objects in the manner of libkmod's: opaque, made by a taint_log_new_*()
 * function, read through accessors, freed by the last taint_log_unref().
 * A log never changes once made, so it can be shared (taint_log_ref()).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "grow.h"
#include "log_internal.h"
#include "taint.h"

/* A malformed line (@fatal) or an event with unknown fields. */
struct problem {
	unsigned int lineno;
	bool fatal;
	char msg[96];
};

struct taint_log {
	atomic_int refcount;
	struct taint_event *events;
	size_t count, cap;
	uint64_t dropped;
	unsigned int malformed;
	struct problem *problems;
	size_t nproblems, problems_cap;
	/* a recorder's log (record.c): its notes */
	bool recorded;
	struct taint_recording rec;
};

static struct taint_log *log_alloc(void)
{
	struct taint_log *log = calloc(1, sizeof(*log));

	if (log)
		atomic_init(&log->refcount, 1);
	return log;
}

static void log_free(struct taint_log *log)
{
	free(log->events);
	free(log->problems);
	free(log);
}

/* a copy of @ev (the library's own layout: .size is sizeof) */
static int add_event(struct taint_log *log, const struct taint_event *ev)
{
	struct taint_event *v = taint__grow(log->events, log->count, &log->cap,
					    sizeof(*v), 16);

	if (!v)
		return -ENOMEM;
	log->events = v;
	log->events[log->count++] = *ev;
	return 0;
}

static int on_event(const struct taint_event *ev, unsigned int lineno,
		    void *arg)
{
	(void)lineno;
	return add_event(arg, ev);
}

static void on_problem(unsigned int lineno, bool fatal, const char *msg,
		       void *arg)
{
	struct taint_log *log = arg;
	struct problem *p = taint__grow(log->problems, log->nproblems,
					&log->problems_cap, sizeof(*p), 16);

	/* a problem that cannot be kept is not lost: malformed counts it */
	if (!p)
		return;
	log->problems = p;
	p = &log->problems[log->nproblems++];
	p->lineno = lineno;
	p->fatal = fatal;
	snprintf(p->msg, sizeof(p->msg), "%s", msg);
}

/* the recorder's notes of @buf into @log (a bad one is a malformed
 * line); the notes come before the events' problems in no order that
 * matters: each problem has its line number */
static void read_notes(struct taint_log *log, const char *buf, size_t len)
{
	unsigned int lineno = 0;
	size_t i = 0;

	log->rec.size = sizeof(log->rec);
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - i;
		int ret;

		lineno++;
		if (n && buf[i + n - 1] == '\r')
			n--;
		ret = taint_record_parse_note(buf + i, n, &log->rec);
		i = end + 1;
		if (ret < 0) {
			log->malformed++;
			on_problem(lineno, true, "bad taintctl-record note", log);
		}
	}
	log->recorded = log->rec.began_ts[0] != '\0';
}

int taint_log_new_from_text(const char *buf, size_t len,
			    struct taint_log **logp)
{
	static const struct taint_log_ops ops = {
		.size = sizeof(ops),
		.event = on_event,
		.problem = on_problem,
	};
	struct taint_log *log = log_alloc();
	int ret;

	*logp = NULL;
	if (!log)
		return -ENOMEM;
	ret = taint_log_parse(buf, len, &ops, log, &log->dropped);
	if (ret < 0) {
		log_free(log);
		return ret;
	}
	log->malformed = (unsigned int)ret;
	read_notes(log, buf, len);
	*logp = log;
	return 0;
}

int taint_log_get_recording(const struct taint_log *log,
			    struct taint_recording *r)
{
	size_t size = r->size ? r->size : sizeof(*r);

	if (taint__size_out(r->size, sizeof(*r)))
		return -EINVAL;
	if (!log || !log->recorded)
		return -ENOENT;
	memcpy(r, &log->rec, size < sizeof(*r) ? size : sizeof(*r));
	r->size = size < sizeof(*r) ? size : sizeof(*r);
	return 0;
}

/* the text in @buf (malloc()ed, freed here) */
static int from_buffer(char *buf, size_t len, struct taint_log **logp)
{
	int ret = taint_log_new_from_text(buf, len, logp);

	free(buf);
	return ret;
}

int taint_log_new_from_proc(const char *proc_root, struct taint_log **logp)
{
	char path[TAINT__PATH_MAX], *buf;
	unsigned int *lines;
	size_t len;
	int ret;

	*logp = NULL;
	ret = taint__read_log(proc_root, &buf, &len, &lines, path);
	if (ret)
		return ret;
	ret = from_buffer(buf, len, logp);
	/* a sosreport's log: its problems at their lines of sysctl_-a */
	for (size_t i = 0; !ret && lines && i < (*logp)->nproblems; i++)
		(*logp)->problems[i].lineno =
			lines[(*logp)->problems[i].lineno - 1];
	free(lines);
	return ret;
}

int taint_log_new_from_file(const char *path, struct taint_log **logp)
{
	char *buf;
	size_t len;
	int ret;

	*logp = NULL;
	ret = taint__read_file(path, TAINT__LOG_MAX, &buf, &len);
	return ret ? ret : from_buffer(buf, len, logp);
}

/* taint_log_new_from_vmcore() is vmcore.c's: a program that never reads a
 * dump (the guest's static test programs) does not link the dump reader
 * and its decompressors. */

struct taint_log *taint_log_ref(struct taint_log *log)
{
	if (log)
		atomic_fetch_add(&log->refcount, 1);
	return log;
}

struct taint_log *taint_log_unref(struct taint_log *log)
{
	if (!log || atomic_fetch_sub(&log->refcount, 1) > 1)
		return log;
	log_free(log);
	return NULL;
}

size_t taint_log_get_event_count(const struct taint_log *log)
{
	return log ? log->count : 0;
}

const struct taint_event *taint_log_get_event(const struct taint_log *log,
					      size_t i)
{
	return log && i < log->count ? &log->events[i] : NULL;
}

uint64_t taint_log_get_dropped(const struct taint_log *log)
{
	return log ? log->dropped : 0;
}

unsigned int taint_log_get_malformed(const struct taint_log *log)
{
	return log ? log->malformed : 0;
}

const char *taint_log_get_problem(const struct taint_log *log, size_t i,
				  unsigned int *lineno, bool *fatal)
{
	if (!log || i >= log->nproblems)
		return NULL;
	if (lineno)
		*lineno = log->problems[i].lineno;
	if (fatal)
		*fatal = log->problems[i].fatal;
	return log->problems[i].msg;
}

long taint_log_first_event(const struct taint_log *log, unsigned int bit)
{
	if (!log)
		return -1;
	return taint_first_event(log->events, log->count, sizeof(*log->events),
				 bit);
}

/* taint_events_digest() of the first @n events */
static int digest(const struct taint_log *log, size_t n, uint32_t *d)
{
	return taint_events_digest(log ? log->events : NULL, n,
				   sizeof(struct taint_event), d);
}

int taint_log_cursor(const struct taint_log *log, const char *boot_id,
		     uint64_t mask, struct taint_cursor *c)
{
	struct taint_cursor r = TAINT_INIT(struct taint_cursor);

	if (taint__size_out(c->size, sizeof(*c)) ||
	    strlen(boot_id) > TAINT_BOOT_ID_LEN)
		return -EINVAL;
	strcpy(r.boot_id, boot_id);
	r.events = taint_log_get_event_count(log);
	r.dropped = taint_log_get_dropped(log);
	r.mask = mask;
	if (digest(log, (size_t)r.events, &r.digest))
		return -EINVAL;
	/* the 1.0 layout, whatever the caller's .size (at least that, or 0) */
	*c = r;
	return 0;
}

/* does @log (now @mask) fit the cursor @c? NULL or why not */
static const char *misfit(const struct taint_log *log, uint64_t mask,
			  const struct taint_cursor *c)
{
	uint32_t d;

	if (c->events > taint_log_get_event_count(log))
		return "the taint log has fewer events than when the cursor was taken";
	if (digest(log, (size_t)c->events, &d) || d != c->digest)
		return "the taint log does not begin with the cursor's events";
	if (c->dropped > taint_log_get_dropped(log))
		return "the taint log's dropped count is smaller than the cursor's";
	if (c->mask & ~mask)
		return "flags of the cursor's mask are clear now (taint is never cleared)";
	return NULL;
}

/* a new log of the events of @log that @named marks, and @dropped */
static int sub_log(const struct taint_log *log, const bool *named,
		   uint64_t dropped, struct taint_log **out)
{
	struct taint_log *w = log_alloc();

	if (!w)
		return -ENOMEM;
	w->dropped = dropped;
	for (size_t i = 0; i < taint_log_get_event_count(log); i++) {
		if (named[i] && add_event(w, &log->events[i])) {
			log_free(w);
			return -ENOMEM;
		}
	}
	*out = w;
	return 0;
}

int taint_log_since(const struct taint_log *log,
		    const struct taint_cursor *cursor, const char *boot_id,
		    uint64_t mask, struct taint_window *window,
		    struct taint_log **events, const char **why)
{
	struct taint_window r = TAINT_INIT(struct taint_window);
	size_t n = taint_log_get_event_count(log);
	uint64_t seen = 0;
	bool *named;
	int ret;

	if (events)
		*events = NULL;
	*why = NULL;
	ret = taint__size_in(cursor, cursor->size, sizeof(*cursor));
	if (ret)
		return ret;
	if (taint__size_out(window->size, sizeof(*window)))
		return -EINVAL;
	if (strcmp(cursor->boot_id, boot_id)) {
		*why = "the cursor is from another boot";
		return -ESTALE;
	}
	*why = misfit(log, mask, cursor);
	if (*why)
		return -EBADMSG;

	/* the window: newly set bits and the events after the cursor, and
	 * for a new bit without an event there, the event that set it if it
	 * is before (published late, while the cursor was taken) */
	named = calloc(n + 1, sizeof(*named));
	if (!named)
		return -ENOMEM;
	r.new_bits = mask & ~cursor->mask;
	r.set = r.new_bits;
	for (size_t i = (size_t)cursor->events; i < n; i++) {
		named[i] = true;
		r.set |= log->events[i].flags_mask | log->events[i].new_mask;
		seen |= log->events[i].new_mask;
	}
	for (unsigned int bit = 0; bit < 64; bit++) {
		long i;

		if (!(r.new_bits & ~seen & (UINT64_C(1) << bit)))
			continue;
		i = taint_log_first_event(log, bit);
		if (i >= 0) {
			named[i] = true;
			seen |= log->events[i].new_mask;
		}
	}
	r.without_event = r.new_bits & ~seen;
	r.dropped = taint_log_get_dropped(log) - cursor->dropped;
	ret = events ? sub_log(log, named, r.dropped, events) : 0;
	free(named);
	if (ret)
		return ret;
	*window = r;	/* the 1.0 layout, as taint_log_cursor() */
	return 0;
}
