// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal_sd.c - watch's journal entries sent with libsystemd's
 * sd_journal_sendv() (linked when JOURNAL=auto finds libsystemd, or
 * JOURNAL=yes; journal_none.c otherwise).
 */
/* no CODE_FILE=, CODE_LINE=, CODE_FUNC= of this file in every entry */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <errno.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

#include "journal.h"

bool journal_supported(void)
{
	return true;
}

int journal_send(const struct journal_fields *f)
{
	/*
	 * sd_journal_sendv() drops an entry and returns 0 when its socket
	 * does not exist (journald not running: a container, an initramfs):
	 * here that is an entry lost, which watch must say, not a success.
	 */
	if (access(JOURNAL_SOCKET, F_OK) && (errno == ENOENT || errno == ENOTDIR))
		return -ENOENT;
	return sd_journal_sendv(f->iov, (int)f->n);
}
