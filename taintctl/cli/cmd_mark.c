// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_mark.c - `taintctl mark REASON`: set U and record why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

/* the kernel takes no reason (no taint_reason file) */
static bool stock_kernel(void)
{
	char path[4096];

	return !taint_proc_path(cli.proc_root, "taint_reason", path,
				sizeof(path)) && access(path, F_OK) != 0;
}

/* @reason to the recorder's socket beside its log (under --root DIR,
 * DIR/run/taintctl/): true if it took it */
static bool give_recorder(const char *reason)
{
	char path[4096], *slash;

	if (taint_record_log_path(cli.proc_root, path, sizeof(path)))
		return false;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash + 1 - path) + sizeof(REC_REASON_SOCK) > sizeof(path))
		return false;
	strcpy(slash + 1, REC_REASON_SOCK);
	return rec_reason_send(path, reason) == 0;
}

static int mark_run(int argc, char **argv)
{
	char failed[4096] = "";
	bool fell_back, recorded;
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

	/* a stock kernel: the reason to taintctl record, if one runs */
	recorded = stock_kernel() && give_recorder(reason);
	ret = taint_mark(cli.proc_root, reason, &fell_back, failed,
			 sizeof(failed));
	if (ret) {
		cli_error("cannot write '%s': %s", failed, strerror(-ret));
		rc = EXIT_SYSTEM;
	} else if (fell_back) {
		char path[4096];

		taint_proc_path(cli.proc_root, "taint_reason", path,
				sizeof(path));
		if (recorded)
			printf("U set through /proc/sys/kernel/tainted (stock kernel); the reason is in taintctl record's log.\n");
		else
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
"/proc/sys/kernel/tainted, the reason handed to taintctl record where it\n"
"runs (its socket " TAINT_RECORD_LOG "'s directory/reason.sock, root's:\n"
"it puts the reason on this process's write), else without a reason, and\n"
"warn.  Needs CAP_SYS_ADMIN.\n"
"With --root, the files under DIR are written instead (for tests).\n"
"\n"
"Options:\n",
	.json = false,
	.root = true,
};
