/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.h - watch's native journal output: the fields of one item
 * (journal_fields.c, pure), whether standard output is the journal
 * (journal_stream.c) and the sending (journal_sd.c with libsystemd,
 * journal_none.c without: the Makefile links one of them, JOURNAL=).
 */
#ifndef TAINTCTL_JOURNAL_H
#define TAINTCTL_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "taint.h"

/* the MESSAGE_ID of each kind of item (systemd-id128 new, once; taintctl(1)
 * lists them, JOURNAL) */
#define JOURNAL_ID_EVENT	"ba51a6fee1e340ffa3fc9d1ddbcf2f41"
#define JOURNAL_ID_FLAG		"e9b10e89891a405fb683e9878f069f3a"
#define JOURNAL_ID_DROPPED	"acc0c52d4f254ac095b36e97438253dc"

/* syslog(3) priorities, as the journal's PRIORITY= holds them */
#define JOURNAL_PRIORITY_WARNING	4	/* an item --deny stops at */
#define JOURNAL_PRIORITY_NOTICE		5	/* every other item */

enum journal_kind {
	JOURNAL_EVENT,		/* a new taint_log event: @ev */
	JOURNAL_FLAG,		/* a flag set without an event: @bit, @mask */
	JOURNAL_DROPPED,	/* the dropped count grew: @total, @count */
};

/* one item watch reports, and the text line it prints for it */
struct journal_item {
	enum journal_kind kind;
	const char *message;	/* the text line, without its newline */
	size_t message_len;
	bool denied;		/* --deny stops at it: PRIORITY warning */
	const struct taint_event *ev;
	unsigned int bit;
	uint64_t mask;
	uint64_t total, count;
};

/* MESSAGE, MESSAGE_ID, PRIORITY, SYSLOG_IDENTIFIER, ORIGIN, TAINT_*
 * (event: 11 at most) and one FLAG= per new flag (64 at most) */
#define JOURNAL_FIELDS_MAX	(5 + 11 + 64)

/* the fields of an item: each iov one "NAME=value", value raw bytes */
struct journal_fields {
	struct iovec iov[JOURNAL_FIELDS_MAX];
	size_t n;
};

/*
 * journal_fields_build() - the journal fields of @item into @out, each
 * iov a malloc()ed "NAME=value" (journal_fields_free() them, also after a
 * failure).  Returns 0 or -ENOMEM.
 */
int journal_fields_build(const struct journal_item *item,
			 struct journal_fields *out);
void journal_fields_free(struct journal_fields *f);

/*
 * journal_stream_matches() - @env (the value of $JOURNAL_STREAM, may be
 * NULL) names the device and inode @dev, @ino ("<dev>:<ino>", decimal, as
 * systemd.exec(5) says): standard output is connected to the journal.
 */
bool journal_stream_matches(const char *env, dev_t dev, ino_t ino);
/* the same for this process's standard output and environment */
bool journal_stdout_is_journal(void);

/* journald's native socket, where sd_journal_sendv() sends (libsystemd's
 * own path, not configurable) */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/* journal_sd.c or journal_none.c: built with libsystemd's sd-journal? */
bool journal_supported(void);
/* send @f as one journal entry: 0, or a negative errno: -ENOENT when
 * there is no JOURNAL_SOCKET (no journald: libsystemd would drop the
 * entry and say 0), -ECONNREFUSED when nobody listens there, -EOPNOTSUPP
 * without libsystemd */
int journal_send(const struct journal_fields *f);

#endif
