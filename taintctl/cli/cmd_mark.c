// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_mark.c - `taintctl mark REASON`: set U and record why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int mark_run(int argc, char **argv)
{
	char failed[4096] = "";
	bool fell_back;
	size_t bad = 0;
	char *reason;
	int ret, rc = EXIT_OK;

	if (cli_getopt(argc, argv, &cmd_mark) != -1)
		return EXIT_USAGE;
	argc -= optind;
	argv += optind;
	if (cli.json) {
		cli_error("mark does not support --json");
		return EXIT_USAGE;
	}
	if (!argc) {
		cli_error("mark needs a REASON operand");
		return EXIT_USAGE;
	}
	reason = cli_join(argc, argv);
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

	ret = taint_mark(cli.proc_root, reason, &fell_back, failed,
			 sizeof(failed));
	if (ret) {
		cli_error("cannot write '%s': %s", failed, strerror(-ret));
		rc = EXIT_SYSTEM;
	} else if (fell_back) {
		char path[4096];

		taint_proc_path(cli.proc_root, "taint_reason", path,
				sizeof(path));
		cli_warn("'%s' does not exist (stock kernel?): set U through /proc/sys/kernel/tainted; no reason was stored",
			 path);
	}
	free(reason);
	return rc;
}

const struct taintctl_cmd cmd_mark = {
	.name = "mark",
	.run = mark_run,
	.shortopts = "",
	.usage =
"Usage:\n"
" taintctl [options] mark REASON\n"
"\n"
"Set the U flag with a reason (1-128 bytes of printable ASCII), written to\n"
"/proc/sys/kernel/taint_reason; on a stock kernel, set U through\n"
"/proc/sys/kernel/tainted without a reason and warn.  Needs CAP_SYS_ADMIN.\n"
"With --root, the files under DIR are written instead (for tests).\n"
"\n"
"Options:\n",
	.json = false,
	.root = true,
};
