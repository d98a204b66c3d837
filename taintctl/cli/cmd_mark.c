// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_mark.c - `taintctl mark REASON`: set U and record why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_mark(const struct options *opt)
{
	char failed[4096] = "";
	bool fell_back;
	size_t bad = 0;
	char *reason;
	int ret, rc = EXIT_OK;

	if (opt->json) {
		cli_error("mark does not support --json");
		return EXIT_USAGE;
	}
	if (!opt->argc) {
		cli_error("mark needs a REASON operand");
		return EXIT_USAGE;
	}
	reason = cli_join(opt->argc, opt->argv);
	if (!reason) {
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	ret = taint_validate_reason(reason, strlen(reason), &bad);
	if (ret == -E2BIG) {
		cli_error("invalid reason '%s': longer than %d bytes",
			  cli_quote(reason), TAINT_REASON_MAX);
		rc = EXIT_USAGE;
	} else if (ret && !reason[0]) {
		cli_error("invalid reason '': empty");
		rc = EXIT_USAGE;
	} else if (ret) {
		cli_error("invalid reason '%s': byte 0x%02x at offset %zu is not printable ASCII",
			  cli_quote(reason), (unsigned char)reason[bad], bad);
		rc = EXIT_USAGE;
	}
	if (rc) {
		free(reason);
		return rc;
	}

	ret = taint_mark(opt->proc_root, reason, &fell_back, failed,
			 sizeof(failed));
	if (ret) {
		cli_error("cannot write '%s': %s", failed, strerror(-ret));
		rc = EXIT_SYSTEM;
	} else if (fell_back) {
		char path[4096];

		taint_proc_path(opt->proc_root, "taint_reason", path,
				sizeof(path));
		cli_warn("'%s' does not exist (stock kernel?): set U through /proc/sys/kernel/tainted; no reason was stored",
			 path);
	}
	free(reason);
	return rc;
}
