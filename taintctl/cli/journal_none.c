// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal_none.c - a taintctl built without libsystemd (JOURNAL=no, or
 * JOURNAL=auto without libsystemd-dev; taintctl-static, the guest's):
 * watch --journal is a usage error, and watch prints to standard output
 * even when that is the journal.
 */
#include <errno.h>

#include "journal.h"

bool journal_supported(void)
{
	return false;
}

int journal_send(const struct journal_fields *f)
{
	(void)f;
	return -EOPNOTSUPP;
}
