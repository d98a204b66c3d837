// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - taintctl: decode, explain, set and check Linux kernel taint.
 *
 * Option parsing and dispatch only; the work is done by libtaint.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct command {
	const char *name;
	int (*run)(const struct options *opt);
} commands[] = {
	{ "status", cmd_status },
	{ "decode", cmd_decode },
	{ "scan", cmd_scan },
	{ "mark", cmd_mark },
	{ "log", cmd_log },
	{ "check", cmd_check },
};

static void usage(void)
{
	fputs(
"Usage:\n"
" taintctl [options] [status]\n"
" taintctl [options] decode VALUE|TEXT\n"
" taintctl [options] scan [FILE...|-]\n"
" taintctl mark REASON\n"
" taintctl [options] log\n"
" taintctl [options] check [--allow LETTERS | --deny LETTERS]\n"
"\n"
"Decode, explain, set and check Linux kernel taint.\n"
"\n"
"Commands:\n"
" status            current taint mask, its flags and the taint log events\n"
"                   (the default)\n"
" decode VALUE|TEXT explain a mask (decimal or 0x hex) or a Tainted: field\n"
"                   (\"P        W  O\", \"[U]=USER, [W]=WARN\", \"Not tainted\")\n"
" scan [FILE...|-]  every Tainted:/Not tainted field in logs (stdin if none;\n"
"                   gzip, xz, zstd read too), with file:line\n"
" mark REASON       set the U flag with a reason (1-128 printable ASCII bytes);\n"
"                   on a stock kernel, set U without a reason and warn\n"
" log               the kernel's taint log (/proc/sys/kernel/taint_log)\n"
" check             exit 1 if a disallowed flag is set (default: any flag)\n"
"\n"
"Options:\n"
" -j, --json            JSON output (status, decode, scan, log, check)\n"
" -a, --allow LETTERS   check: only these flags may be set\n"
" -d, --deny LETTERS    check: these flags must not be set\n"
" -h, --help            display this help\n"
" -V, --version         display version\n"
"\n"
"Environment:\n"
" TAINTCTL_PROC         procfs root to use instead of /proc (for tests)\n"
"\n"
"Exit status:\n"
" 0  ok\n"
" 1  check found a disallowed flag\n"
" 2  usage error or invalid input\n"
" 3  permission or system error\n"
"\n"
"For more details see taintctl(1).\n", stdout);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "allow", required_argument, NULL, 'a' },
		{ "deny", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct options opt = { 0 };
	const struct command *cmd = &commands[0];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ja:d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opt.json = true;
			break;
		case 'a':
			opt.allow = optarg;
			break;
		case 'd':
			opt.deny = optarg;
			break;
		case 'h':
			usage();
			return EXIT_OK;
		case 'V':
			printf("taintctl from usertaint %s\n", TAINT_VERSION);
			return EXIT_OK;
		case ':':
			cli_error("option '%s' requires an argument",
				  cli_quote(argv[optind - 1]));
			fputs("Try 'taintctl --help' for more information.\n",
			      stderr);
			return EXIT_USAGE;
		default:
			if (optopt)
				cli_error("invalid option -- '%c'", optopt);
			else
				cli_error("unrecognized option '%s'",
					  cli_quote(argv[optind - 1]));
			fputs("Try 'taintctl --help' for more information.\n",
			      stderr);
			return EXIT_USAGE;
		}
	}

	if (optind < argc) {
		size_t i;

		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[optind], commands[i].name) == 0)
				break;
		if (i == sizeof(commands) / sizeof(commands[0])) {
			cli_error("unknown command '%s'",
				  cli_quote(argv[optind]));
			fputs("Try 'taintctl --help' for more information.\n",
			      stderr);
			return EXIT_USAGE;
		}
		cmd = &commands[i];
		optind++;
	}
	if ((opt.allow || opt.deny) && cmd->run != cmd_check) {
		cli_error("--allow and --deny are options of the check command");
		return EXIT_USAGE;
	}
	opt.proc_root = getenv("TAINTCTL_PROC");
	if (!opt.proc_root || !*opt.proc_root)
		opt.proc_root = "/proc";
	opt.argc = argc - optind;
	opt.argv = argv + optind;
	return cmd->run(&opt);
}
