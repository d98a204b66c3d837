// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_status.c - `taintctl [status]`: the running kernel's taint and events.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int read_kernel_mask(const struct options *opt, uint64_t *mask)
{
	char path[4096];
	int ret;

	if (taint_proc_path(opt->proc_root, "tainted", path, sizeof(path))) {
		cli_error("proc root too long: '%s'", cli_quote(opt->proc_root));
		return EXIT_SYSTEM;
	}
	ret = taint_read_mask(opt->proc_root, mask);
	if (ret == -EINVAL || ret == -ERANGE || ret == -EFBIG) {
		cli_error("cannot parse '%s': not a taint mask", path);
		return EXIT_SYSTEM;
	}
	if (ret) {
		cli_error("cannot read '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

int cmd_status(const struct options *opt)
{
	struct event_list ev;
	uint64_t mask;
	int rc, erc;

	if (opt->argc) {
		cli_error("status takes no operand ('%s')",
			  cli_quote(opt->argv[0]));
		return EXIT_USAGE;
	}
	rc = read_kernel_mask(opt, &mask);
	if (rc)
		return rc;
	erc = events_load(opt, &ev, true);

	if (opt->json) {
		struct json_object *o = json_mask_object(mask, mask != 0);

		json_object_object_add(o, "events", json_event_array(&ev));
		json_print(o);
		json_object_put(o);
	} else {
		text_print_mask(mask, mask != 0);
		if (ev.absent) {
			if (mask)
				printf("No taint log: this kernel does not record who set a flag or why.\n");
		} else if (ev.count || ev.dropped) {
			printf("Events (oldest first):\n");
			text_print_events(&ev, "  ");
			if (ev.dropped)
				printf("  ... and %llu later user request(s) not kept (log full)\n",
				       (unsigned long long)ev.dropped);
		}
	}
	events_free(&ev);
	return erc;
}
