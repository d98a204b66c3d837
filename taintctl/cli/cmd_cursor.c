// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cursor.c - `taintctl cursor`: a cursor for `check --since`.
 *
 * A cursor (struct taint_cursor, one shell word) is the boot id, the
 * number of event lines in the taint log, its dropped= count, the mask,
 * and a digest of those events.  The log is read before the mask: a flag
 * set while the cursor is taken is then either in the cursor's mask or
 * named by an event after it (snapshot_take(), events.c, which
 * check --since uses too).
 */
#include <stdio.h>

#include "cli.h"

int cmd_cursor(const struct options *opt)
{
	struct snapshot s;
	int rc;

	if (opt->argc) {
		cli_error("cursor takes no operand ('%s')",
			  cli_quote(opt->argv[0]));
		return EXIT_USAGE;
	}
	rc = snapshot_take(opt, &s);
	if (!rc && opt->json)
		json_print_cursor(&s);
	else if (!rc)
		puts(s.text);
	snapshot_free(&s);
	return rc;
}
