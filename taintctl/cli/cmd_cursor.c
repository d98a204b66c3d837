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
	if (!rc && opt->json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "cursor",
				       json_object_new_string(s.text));
		json_object_object_add(o, "boot_id",
				       json_object_new_string(s.c.boot_id));
		json_object_object_add(o, "events",
				       json_object_new_uint64(s.c.events));
		json_object_object_add(o, "dropped",
				       json_object_new_uint64(s.c.dropped));
		json_object_object_add(o, "mask",
				       json_object_new_uint64(s.c.mask));
		json_print(o);
		json_object_put(o);
	} else if (!rc) {
		puts(s.text);
	}
	snapshot_free(&s);
	return rc;
}
