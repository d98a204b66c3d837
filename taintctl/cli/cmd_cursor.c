// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cursor.c - `taintctl cursor`: a cursor for `check --since`.
 *
 * A cursor (struct taint_cursor, one shell word) is the boot id, the
 * number of event lines in the taint log, its dropped= count, the mask,
 * and a digest of those events.  The log is read before the mask: a flag
 * set while the cursor is taken is then either in the cursor's mask or
 * named by an event after it (snapshot_take(), taint_state.c, which
 * check --since uses too).  The log is mode 0400: as another user than
 * root the cursor fails (exit 3), saying so.
 */
#include <stdio.h>

#include "cli.h"

static int cursor_run(int argc, char **argv)
{
	struct snapshot s;
	int rc;

	if (cli_getopt(argc, argv, &cmd_cursor) != -1)
		return EXIT_USAGE;
	if (cli_no_operand(argc, argv, &cmd_cursor))
		return EXIT_USAGE;
	rc = snapshot_take(&s);
	if (!rc && cli.json)
		json_print_cursor(&s);
	else if (!rc)
		puts(s.text);
	snapshot_free(&s);
	return rc;
}

const struct taintctl_cmd cmd_cursor = {
	.name = "cursor",
	.run = cursor_run,
	.shortopts = "",
	.usage =
"Usage:\n"
" taintctl [options] cursor\n"
"\n"
"Print a cursor: one word that names this boot, the taint log's position\n"
"and the mask now.  'taintctl check --since CURSOR' later judges only what\n"
"was set after it (a test runner takes one before each test).\n"
"It reads the taint log (/proc/sys/kernel/taint_log), which only root can\n"
"read (mode 0400): as another user it fails (exit 3) and prints nothing,\n"
"so check --since \"$(taintctl cursor)\" gets an empty cursor.\n"
"\n"
"Options:\n",
	.json = true,
	.root = true,
};
