// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - taintctl: decode, explain, set and check Linux kernel taint.
 *
 * Option parsing and dispatch only; the work is done by libtaint.
 */
#include <getopt.h>
#include <limits.h>
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
	{ "watch", cmd_watch },
	{ "metrics", cmd_metrics },
	{ "cursor", cmd_cursor },
};

static void usage(void)
{
	fputs(
"Usage:\n"
" taintctl [options] [status]\n"
" taintctl [options] decode [VALUE|TEXT...|-]\n"
" taintctl [options] scan [FILE...|-]\n"
" taintctl [--root DIR] mark REASON\n"
" taintctl [options] log [--vmcore FILE]\n"
" taintctl [options] check [--allow FLAGS | --deny FLAGS]\n"
"                          [--value VALUE | --from FILE | --since CURSOR]\n"
" taintctl [options] watch [--once] [--interval SECONDS]\n"
" taintctl [--root DIR] metrics [--output FILE]\n"
" taintctl [options] cursor\n"
"\n"
"Decode, explain, set and check Linux kernel taint.\n"
"\n"
"Commands:\n"
" status            current taint mask, its flags, the modules that carry\n"
"                   taint and the taint log events (the default)\n"
" decode VALUE|TEXT explain masks (as the kernel reads them: 0x hex, leading\n"
"                   0 octal) or Tainted: fields (\"P        W  O\",\n"
"                   \"[U]=USER, [W]=WARN\", \"Not tainted\"); - or no operand:\n"
"                   standard input, every field in it\n"
" scan [FILE...|-]  every Tainted:/Not tainted field in logs (stdin if none;\n"
"                   gzip, xz, zstd read too), with file:line\n"
" mark REASON       set the U flag with a reason (1-128 printable ASCII bytes);\n"
"                   on a stock kernel, set U without a reason and warn\n"
" log               the kernel's taint log (/proc/sys/kernel/taint_log), or\n"
"                   that of a crash dump (--vmcore)\n"
" check             exit 1 if a disallowed flag is set (default: any flag)\n"
" watch             print each new taint event as the kernel records it\n"
" metrics           the taint state for Prometheus (node_exporter textfile)\n"
" cursor            print a cursor for check --since: the log's position now\n"
"\n"
"Options:\n"
" -J, -j, --json        JSON output (status, decode, scan, log, check, watch,\n"
"                       cursor)\n"
"     --root DIR        read the kernel's files under DIR (DIR/proc/...,\n"
"                       DIR/sys/...): a sosreport or a copied /proc and /sys\n"
" -a, --allow FLAGS     check: only these flags (letters or names) may be set\n"
" -d, --deny FLAGS      check: these flags must not be set\n"
"     --value VALUE     check: judge VALUE instead of the running kernel\n"
"     --from FILE       check: judge FILE (a mask or a log; - is stdin)\n"
"     --since CURSOR    check: judge only what was set after CURSOR\n"
"     --once            watch: exit after the first new event\n"
" -n, --interval SECONDS  watch: re-read interval without poll() support\n"
"                       (default 1)\n"
" -o, --output FILE     metrics: replace FILE atomically instead of stdout\n"
"     --vmcore FILE     log: read the log from a kernel crash dump (an x86_64\n"
"                       ELF core: kdump's vmcore, QEMU dump-guest-memory)\n"
" -h, --help            display this help (COMMAND --help: that command's)\n"
" -V, --version         display version\n"
"\n"
"Exit status:\n"
" 0  ok\n"
" 1  check found a disallowed flag\n"
" 2  usage error or invalid input\n"
" 3  permission or system error (write errors on standard output included)\n"
" 4  check --since: the cursor is malformed, from another boot, or does not\n"
"    fit this kernel's taint log\n"
" 5  log --vmcore: the dump cannot be read (not an x86_64 ELF core,\n"
"    truncated, no VMCOREINFO, a kernel without the taint log, inconsistent)\n"
"\n"
"For more details see taintctl(1).\n", stdout);
}

enum { OPT_ROOT = CHAR_MAX + 1, OPT_VALUE, OPT_FROM, OPT_SINCE, OPT_ONCE,
       OPT_VMCORE };

/* the reordered argv, freed at exit */
static char **args;

static void free_args(void)
{
	free(args);
}

/*
 * A copy of argv with the options first, then "--", then the operands in
 * their order, so that getopt_long() takes "-1" (decode -1, a value the
 * kernel refuses) for an operand and not for an option: an argument that
 * looks like a negative number is an operand unless it is an option's
 * argument (check --value -1).  NULL if out of memory.
 */
static char **operands_last(int *argcp, char **argv, const char *shortopts,
			    const struct option *longopts)
{
	int argc = *argcp;
	char **out = calloc((size_t)argc + 2, sizeof(*out));
	char **ops = calloc((size_t)argc + 1, sizeof(*ops));
	int n = 0, nops = 0;
	bool rest = false;

	if (!out || !ops) {
		free(out);
		free(ops);
		return NULL;
	}
	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool takes_arg = false;

		if (rest || a[0] != '-' || !a[1] ||
		    (a[1] >= '0' && a[1] <= '9')) {
			ops[nops++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			rest = true;
			continue;
		}
		out[n++] = argv[i];
		if (a[1] == '-') {
			size_t len = strcspn(a + 2, "=");
			const struct option *match = NULL;
			int matches = 0;

			for (const struct option *o = longopts; o->name; o++) {
				if (strncmp(o->name, a + 2, len))
					continue;
				match = o;
				matches++;
				if (strlen(o->name) == len) {
					matches = 1;
					break;
				}
			}
			takes_arg = matches == 1 && !a[2 + len] &&
				    match->has_arg == required_argument;
		} else {
			for (int j = 1; a[j]; j++) {
				const char *o = strchr(shortopts, a[j]);

				if (o && a[j] != ':' && o[1] == ':') {
					takes_arg = !a[j + 1];
					break;
				}
			}
		}
		if (takes_arg && i + 1 == argc) {
			/* its argument is missing: let getopt_long() say so */
			free(ops);
			*argcp = n;
			return out;
		}
		if (takes_arg)
			out[n++] = argv[++i];
	}
	out[n++] = "--";
	memcpy(out + n, ops, (size_t)nops * sizeof(*ops));
	free(ops);
	*argcp = n + nops;
	return out;
}

/* DIR/<sub> without a doubled '/', into a static buffer; NULL if too long */
static const char *under_root(const char *root, const char *sub,
			      char *buf, size_t size)
{
	size_t len = strlen(root);
	int n;

	while (len && root[len - 1] == '/')
		len--;
	n = snprintf(buf, size, "%.*s/%s", (int)len, root, sub);
	return n < 0 || (size_t)n >= size ? NULL : buf;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "allow", required_argument, NULL, 'a' },
		{ "deny", required_argument, NULL, 'd' },
		{ "value", required_argument, NULL, OPT_VALUE },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "interval", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "vmcore", required_argument, NULL, OPT_VMCORE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const char shortopts[] = ":jJa:d:n:o:hV";
	static char proc_root[PATH_MAX], sys_root[PATH_MAX];
	struct options opt = { 0 };
	const struct command *cmd = &commands[0];
	bool help = false;
	int c;

	atexit(cli_close_stdout);
	args = operands_last(&argc, argv, shortopts, longopts);
	if (!args) {
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	atexit(free_args);
	argv = args;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
		case 'J':
			opt.json = true;
			break;
		case OPT_VALUE:
			opt.value = optarg;
			break;
		case OPT_FROM:
			opt.from = optarg;
			break;
		case OPT_SINCE:
			opt.since = optarg;
			break;
		case OPT_ONCE:
			opt.once = true;
			break;
		case 'n':
			opt.interval = optarg;
			break;
		case 'o':
			opt.output = optarg;
			break;
		case OPT_ROOT:
			opt.root = optarg;
			break;
		case OPT_VMCORE:
			opt.vmcore = optarg;
			break;
		case 'a':
			opt.allow = optarg;
			break;
		case 'd':
			opt.deny = optarg;
			break;
		case 'h':
			help = true;
			break;
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
		if (help && cli_command_usage(cmd->name))
			return EXIT_OK;
	}
	if (help) {
		usage();
		return EXIT_OK;
	}
	if ((opt.allow || opt.deny || opt.value || opt.from || opt.since) &&
	    cmd->run != cmd_check) {
		cli_error("--allow, --deny, --value, --from and --since are options of the check command");
		return EXIT_USAGE;
	}
	if ((opt.once || opt.interval) && cmd->run != cmd_watch) {
		cli_error("--once and --interval are options of the watch command");
		return EXIT_USAGE;
	}
	if (opt.output && cmd->run != cmd_metrics) {
		cli_error("--output is an option of the metrics command");
		return EXIT_USAGE;
	}
	if (opt.vmcore && cmd->run != cmd_log) {
		cli_error("--vmcore is an option of the log command");
		return EXIT_USAGE;
	}
	if (opt.vmcore && opt.root) {
		cli_error("--vmcore and --root exclude each other");
		return EXIT_USAGE;
	}
	if (opt.vmcore && strcmp(opt.vmcore, "-") == 0) {
		cli_error("--vmcore needs the dump's file name: standard input cannot be read as a dump");
		return EXIT_USAGE;
	}
	opt.proc_root = TAINT_LIVE_ROOT "/proc";
	opt.sys_root = TAINT_LIVE_ROOT "/sys";
	if (opt.root) {
		opt.proc_root = under_root(opt.root, "proc", proc_root,
					   sizeof(proc_root));
		opt.sys_root = under_root(opt.root, "sys", sys_root,
					  sizeof(sys_root));
		if (!opt.proc_root || !opt.sys_root) {
			cli_error("root directory name too long: '%s'",
				  cli_quote(opt.root));
			return EXIT_USAGE;
		}
	}
	opt.argc = argc - optind;
	opt.argv = argv + optind;
	return cmd->run(&opt);
}
