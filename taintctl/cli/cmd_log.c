// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_log.c - `taintctl log`: /proc/sys/kernel/taint_log, parsed.
 *
 * A stock kernel has no taint log: that is said plainly (on stdout in text
 * mode, on stderr with --json, which then prints an empty log) and is not
 * an error.  Malformed lines are reported on stderr with their line number
 * and skipped; the well-formed events are still printed and the exit code
 * is 3.  With --vmcore the log comes from a crash dump (vmcore_log.c) and
 * is printed the same way; a dump that cannot be read is exit code 5.
 */
#include <stdio.h>

#include "cli.h"

int cmd_log(const struct options *opt)
{
	struct event_list ev;
	char path[4096];
	int rc;

	if (opt->argc) {
		cli_error("log takes no operand ('%s')", cli_quote(opt->argv[0]));
		return EXIT_USAGE;
	}
	rc = events_load(opt, &ev, false);
	if (rc && !ev.malformed)
		return rc;
	taint_proc_path(opt->proc_root, "taint_log", path, sizeof(path));

	if (opt->json) {
		json_print_log(ev.log);
		if (ev.absent)
			cli_warn("this kernel keeps no taint log ('%s' does not exist)",
				 path);
	} else if (ev.absent) {
		printf("No taint log: this kernel does not record taint events ('%s' does not exist).\n",
		       path);
	} else {
		uint64_t dropped = taint_log_get_dropped(ev.log);

		if (!taint_log_get_event_count(ev.log))
			printf("No taint events recorded.\n");
		text_print_events(ev.log, "");
		if (dropped)
			printf("dropped: %llu later user request(s) not kept (log full)\n",
			       (unsigned long long)dropped);
	}
	events_free(&ev);
	return rc;
}
