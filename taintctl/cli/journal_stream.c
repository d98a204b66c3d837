// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal_stream.c - is standard output connected to the journal?
 * systemd.exec(5): a service whose stdout or stderr is a journal stream
 * gets $JOURNAL_STREAM = "<device>:<inode>" of that stream (decimal); a
 * program compares it with fstat() of its file descriptor, which tells
 * an inherited variable from a redirected output.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "journal.h"

/* a decimal number up to @end (strtoull() would take a sign and blanks) */
static bool parse_dec(const char *s, char end, unsigned long long *v,
		      const char **next)
{
	const char *p = s;

	*v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (*v > (~0ULL - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	if (p == s || *p != end)
		return false;
	*next = p + 1;
	return true;
}

bool journal_stream_matches(const char *env, dev_t dev, ino_t ino)
{
	unsigned long long d, i;
	const char *p;

	if (!env || !parse_dec(env, ':', &d, &p) || !parse_dec(p, '\0', &i, &p))
		return false;
	return d == (unsigned long long)dev && i == (unsigned long long)ino;
}

bool journal_stdout_is_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	struct stat st;

	if (!env || fstat(1, &st))
		return false;
	return journal_stream_matches(env, st.st_dev, st.st_ino);
}
