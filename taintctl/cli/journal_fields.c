// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal_fields.c - the journal fields of one item watch reports (pure:
 * nothing is sent here; journal_sd.c sends them).
 *
 * Every item: MESSAGE (the text line watch prints for it), MESSAGE_ID (one
 * per kind, journal.h), PRIORITY (notice; warning for the item --deny
 * stops at), SYSLOG_IDENTIFIER=taintctl-watch.  An event: ORIGIN, one FLAG=
 * per letter of new= (journald keeps a repeated field: FLAG=W matches an
 * event that newly set W), and TAINT_<KEY> for each key log --json gives it
 * (TS UTC FLAGS NEW PID UID AUID COMM MODULE CALLER REASON; AUID absent
 * when the kernel recorded none).  A flag set without an event: FLAG= its
 * letter (none for a bit without one), TAINT_BIT, TAINT_NAME, TAINT_MASK.
 * A grown dropped count: ORIGIN=user (only user requests are dropped),
 * TAINT_DROPPED (the total), TAINT_COUNT (the new ones).
 *
 * Values are the raw bytes (a comm or reason unescaped): each field is one
 * iov, so a value holding "\nFLAG=X" stays in its field (sd_journal_sendv()
 * sends such a value in the native protocol's length-prefixed form).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"

/* append NAME=@len bytes of @val; false on ENOMEM (or a full list) */
static bool add_bytes(struct journal_fields *f, const char *name,
		      const char *val, size_t len)
{
	size_t nl = strlen(name);
	char *p;

	if (f->n >= JOURNAL_FIELDS_MAX)
		return false;
	p = malloc(nl + 1 + len);
	if (!p)
		return false;
	memcpy(p, name, nl);
	p[nl] = '=';
	if (len)
		memcpy(p + nl + 1, val, len);
	f->iov[f->n].iov_base = p;
	f->iov[f->n].iov_len = nl + 1 + len;
	f->n++;
	return true;
}

static bool add_str(struct journal_fields *f, const char *name,
		    const char *val)
{
	return add_bytes(f, name, val, strlen(val));
}

static bool add_u64(struct journal_fields *f, const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return add_str(f, name, buf);
}

/* one FLAG=L for each letter of @letters */
static bool add_flags(struct journal_fields *f, const char *letters)
{
	for (const char *l = letters; *l; l++)
		if (!add_bytes(f, "FLAG", l, 1))
			return false;
	return true;
}

static bool add_event(struct journal_fields *f, const struct taint_event *ev)
{
	bool ok = add_str(f, "ORIGIN", ev->origin == TAINT_ORIGIN_KERNEL ?
			  "kernel" : "user") &&
		  add_flags(f, ev->new_flags) &&
		  add_str(f, "TAINT_TS", ev->ts) &&
		  add_str(f, "TAINT_UTC", ev->utc) &&
		  add_str(f, "TAINT_FLAGS", ev->flags) &&
		  add_str(f, "TAINT_NEW", ev->new_flags) &&
		  add_u64(f, "TAINT_PID", ev->pid) &&
		  add_u64(f, "TAINT_UID", ev->uid);

	if (ok && ev->has_auid && ev->auid_set)
		ok = add_u64(f, "TAINT_AUID", ev->auid);
	if (ok)
		ok = add_bytes(f, "TAINT_COMM", ev->comm, ev->comm_len);
	if (ok && ev->has_module)
		ok = add_bytes(f, "TAINT_MODULE", ev->module, ev->module_len);
	if (ok && ev->has_caller)
		ok = add_str(f, "TAINT_CALLER", ev->caller);
	if (ok && ev->has_reason)
		ok = add_bytes(f, "TAINT_REASON", ev->reason, ev->reason_len);
	return ok;
}

static bool add_flag(struct journal_fields *f, unsigned int bit,
		     uint64_t mask)
{
	const struct taint_flag_info *fi = taint_flag_info(bit);
	bool ok = true;

	if (fi) {
		char l[2] = { fi->letter, 0 };

		ok = add_flags(f, l);
	}
	ok = ok && add_u64(f, "TAINT_BIT", bit);
	if (ok && fi)
		ok = add_str(f, "TAINT_NAME", fi->name);
	return ok && add_u64(f, "TAINT_MASK", mask);
}

int journal_fields_build(const struct journal_item *item,
			 struct journal_fields *out)
{
	static const char *const ids[] = {
		[JOURNAL_EVENT] = JOURNAL_ID_EVENT,
		[JOURNAL_FLAG] = JOURNAL_ID_FLAG,
		[JOURNAL_DROPPED] = JOURNAL_ID_DROPPED,
	};
	bool ok;

	out->n = 0;
	ok = add_bytes(out, "MESSAGE", item->message, item->message_len) &&
	     add_str(out, "MESSAGE_ID", ids[item->kind]) &&
	     add_u64(out, "PRIORITY", item->denied ?
		     JOURNAL_PRIORITY_WARNING : JOURNAL_PRIORITY_NOTICE) &&
	     add_str(out, "SYSLOG_IDENTIFIER", "taintctl-watch");
	switch (item->kind) {
	case JOURNAL_EVENT:
		ok = ok && add_event(out, item->ev);
		break;
	case JOURNAL_FLAG:
		ok = ok && add_flag(out, item->bit, item->mask);
		break;
	case JOURNAL_DROPPED:
		ok = ok && add_str(out, "ORIGIN", "user") &&
		     add_u64(out, "TAINT_DROPPED", item->total) &&
		     add_u64(out, "TAINT_COUNT", item->count);
		break;
	}
	return ok ? 0 : -ENOMEM;
}

void journal_fields_free(struct journal_fields *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->iov[i].iov_base);
	f->n = 0;
}
