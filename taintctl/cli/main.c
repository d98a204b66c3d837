// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - taintctl: decode, explain, set and check Linux kernel taint.
 *
 * The global options (--json, --root, --help, --version) and dispatch; each
 * command (cmd_<name>.c, struct taintctl_cmd) parses its own options, and
 * the work is done by libtaint.
 *
 * Any option may come before the command's name or after it, among the
 * operands, as before each command owned its options: so main.c parses the
 * whole command line first, with every command's options, to find the
 * command's name, run --version, report bad options in their order,
 * print the help, and name the command that an option belongs to; the
 * command then parses it again with its own options.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(void)
{
	cli_help_puts(
"Usage:\n"
" taintctl [options] [status] [--vmcore FILE]\n"
" taintctl [options] decode [VALUE|TEXT...|-]\n"
" taintctl [options] scan [FILE...|-]\n"
" taintctl [--root DIR] mark REASON\n"
" taintctl [options] log [--vmcore FILE | FILE | -]\n"
" taintctl [options] check [--allow FLAGS | --deny FLAGS]\n"
"                          [--value VALUE | --from FILE [--every-boot] |\n"
"                           --since CURSOR]\n"
" taintctl [options] watch [--once] [--interval SECONDS] [--deny FLAGS]\n"
"                          [--journal]\n"
" taintctl [--root DIR] metrics [--output FILE]\n"
" taintctl [options] cursor\n"
" taintctl [--root DIR] record [--output FILE]\n"
"\n"
"Decode, explain, set and check Linux kernel taint.\n"
"\n"
"Commands:\n"
" status            current taint mask, its flags, the modules that carry\n"
"                   taint and the taint log events (the default); those of\n"
"                   a crash dump's kernel (--vmcore), through its kallsyms\n"
"                   and BTF\n"
" decode VALUE|TEXT explain masks (as the kernel reads them: 0x hex, leading\n"
"                   0 octal) or Tainted: fields (\"P        W  O\",\n"
"                   \"[U]=USER, [W]=WARN\", \"Not tainted\"); - or no operand:\n"
"                   standard input, every field in it\n"
" scan [FILE...|-]  every Tainted:/Not tainted field in logs, with file:line\n"
"                   (stdin if none; " CLI_COMPRESSED " read too)\n"
" mark REASON       set the U flag with a reason (1-128 printable ASCII bytes);\n"
"                   on a stock kernel, set U without a reason and warn\n"
" log               the kernel's taint log (/proc/sys/kernel/taint_log), that\n"
"                   of a crash dump (--vmcore), or a saved copy (FILE, -)\n"
" check             exit 1 if a disallowed flag is set (default: any flag)\n"
" watch             print each new taint event as the kernel records it\n"
" metrics           the taint state for Prometheus (node_exporter textfile)\n"
" cursor            print a cursor for check --since: the log's position now\n"
"                   (it reads the taint log: root only, the log is mode 0400)\n"
" record            on a stock kernel, record who sets each flag (BPF) into\n"
"                   " TAINT_RECORD_LOG ", which the other commands read\n"
"\n"
"Options:\n"
" -J, -j, --json        JSON output (status, decode, scan, log, check, watch,\n"
"                       cursor)\n"
"     --root DIR        read the kernel's files under DIR (DIR/proc/...,\n"
"                       DIR/sys/...): a sosreport (its taint log from\n"
"                       DIR/sos_commands/kernel/sysctl_-a) or a copied /proc\n"
"                       and /sys\n"
" -a, --allow FLAGS     check: only these flags (letters or names) may be set\n"
" -d, --deny FLAGS      check: these flags must not be set; watch: exit 1 at\n"
"                       the first new event that sets one\n"
"     --value VALUE     check: judge VALUE instead of the running kernel\n"
"     --from FILE       check: judge FILE (a mask, or a log's last boot; - is\n"
"                       stdin)\n"
"     --every-boot      check --from: judge every boot in the log\n"
"     --since CURSOR    check: judge only what was set after CURSOR\n"
"     --once            watch: exit after the first new event\n"
"     --journal         watch: log each item to the systemd journal natively\n"
" -n, --interval SECONDS  watch: re-read interval without poll() support\n"
"                       (default 1)\n"
" -o, --output FILE     metrics: write FILE instead of stdout (a regular file\n"
"                       is replaced atomically, a FIFO or device written to);\n"
"                       record: append to FILE\n"
"     --vmcore FILE     log, status: read an x86_64 kernel's crash dump:\n"
"                       an ELF core (kdump's vmcore, QEMU dump-guest-memory)\n"
"                       or makedumpfile's kdump-compressed format (zlib, lzo,\n"
"                       zstd or snappy pages), flattened (-F) or not\n"
" -h, --help            display this help (COMMAND --help: that command's)\n"
" -V, --version         display version\n"
"\n"
"Exit status:\n"
" 0  ok\n"
" 1  check found a disallowed flag; watch --deny saw a denied flag set\n"
" 2  usage error or invalid input\n"
" 3  permission or system error (write errors on standard output included;\n"
"    watch --journal: items the journal did not take)\n"
" 4  check --since: the cursor is malformed, from another boot, or does not\n"
"    fit this kernel's taint log\n"
" 5  log --vmcore: the dump cannot be read (not a dump, a compressed file,\n"
"    another architecture, truncated, no VMCOREINFO, a kernel without the\n"
"    taint log, inconsistent); status --vmcore: not a dump, a page filtered\n"
"    out, data not where the kernel's symbols and types say\n"
" 6  decode: no Tainted: field found in text that is not values\n"
" 7  status --vmcore: the dump's VMCOREINFO has no kallsyms tables\n"
" 8  status --vmcore: the dumped kernel has no BTF (CONFIG_DEBUG_INFO_BTF)\n"
" 9  status --vmcore: the dumped kernel's BTF does not parse or lacks a type\n"
" 10 status --vmcore: a symbol needed is not in the dump's kallsyms\n"
" 11 record: this kernel or this taintctl cannot record (no BTF, built\n"
"    without BPF support, the program was refused)\n"
"\n"
"For more details see taintctl(1).\n");
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

/* the commands; an option of another command is reported as the first
 * of these that takes it */
static const struct taintctl_cmd *const commands[] = {
	&cmd_status, &cmd_decode, &cmd_scan, &cmd_mark, &cmd_check,
	&cmd_watch, &cmd_metrics, &cmd_log, &cmd_cursor, &cmd_record,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

struct cli_global cli;

static bool takes(const struct taintctl_cmd *cmd, int c)
{
	for (const struct option *o = cmd->options; o && o->name; o++)
		if (o->val == c)
			return true;
	return false;
}

/* "--once and --interval are options of the watch command"; a command's
 * one option that others take too names them all: "--vmcore is an
 * option of the status and log commands" */
static void not_its_option(const struct taintctl_cmd *owner)
{
	char names[256] = "", owners[128] = "";
	size_t n = 0, len = 0, k = 0, olen = 0;

	for (const struct option *o = owner->options; o->name; o++)
		n++;
	for (size_t i = 0; i < n && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len,
					"%s--%s", !i ? "" : i + 1 < n ? ", " :
					" and ", owner->options[i].name);
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (n == 1 && commands[i] != owner &&
		    takes(commands[i], owner->options[0].val))
			k++;
	olen = (size_t)snprintf(owners, sizeof(owners), "%s", owner->name);
	for (size_t i = 0, j = 0; i < N_COMMANDS && olen < sizeof(owners); i++)
		if (n == 1 && commands[i] != owner &&
		    takes(commands[i], owner->options[0].val))
			olen += (size_t)snprintf(owners + olen,
						 sizeof(owners) - olen, "%s%s",
						 ++j < k ? ", " : " and ",
						 commands[i]->name);
	cli_error("%s %s of the %s command%s", names,
		  n == 1 ? "is an option" : "are options", owners,
		  k ? "s" : "");
}

int main(int argc, char **argv)
{
	static struct option longopts[CLI_MAX_OPTIONS];
	static char shortopts[CLI_MAX_OPTIONS * 2 + 8] = "+:";
	static char proc_root[PATH_MAX], sys_root[PATH_MAX];
	const struct taintctl_cmd *cmd = &cmd_status;
	/* the option values given (short ones and OPT_*, cli.h) */
	bool seen[CHAR_MAX + 1 + 64] = { false };
	bool help = false;
	size_t n;
	int c, at;

	atexit(cli_close_stdout);
	/* a reader that went away (taintctl scan | head -1) is EPIPE, seen
	 * and not reported, the same for every command whatever the parent
	 * left SIGPIPE at (cli_write_error()) */
	signal(SIGPIPE, SIG_IGN);
	n = cli_options_add(longopts, 0, cli_global_options);
	strcat(shortopts, cli_global_shortopts);
	for (size_t i = 0; i < N_COMMANDS; i++) {
		n = cli_options_add(longopts, n, commands[i]->options);
		strcat(shortopts, commands[i]->shortopts);
	}
	optind = 0;
	while ((c = cli_getopt_long(argc, argv, shortopts, longopts)) != -1) {
		switch (c) {
		case 'j':
		case 'J':
			cli.json = true;
			break;
		case OPT_ROOT:
			cli.root = optarg;
			break;
		case 'h':
			help = true;
			break;
		case 'V':
			printf("taintctl from usertaint %s\n", TAINT_VERSION);
			return EXIT_OK;
		case '?':
			return EXIT_USAGE;
		default:
			if (c >= 0 && c < (int)(sizeof(seen) / sizeof(seen[0])))
				seen[c] = true;
			break;
		}
	}

	at = optind;
	if (at < argc) {
		size_t i;

		for (i = 0; i < N_COMMANDS; i++)
			if (strcmp(argv[at], commands[i]->name) == 0)
				break;
		if (i == N_COMMANDS) {
			cli_error("unknown command '%s'", cli_quote(argv[at]));
			fputs("Try 'taintctl --help' for more information.\n",
			      stderr);
			return EXIT_USAGE;
		}
		cmd = commands[i];
		if (help) {
			cli_command_usage(cmd);
			return EXIT_OK;
		}
	}
	if (help) {
		usage();
		return EXIT_OK;
	}
	/* an option that the command does not take (two commands may share
	 * one: check's and watch's --deny) names the first that takes it */
	for (size_t i = 0; i < N_COMMANDS; i++) {
		for (const struct option *o = commands[i]->options;
		     o && o->name; o++) {
			if (o->val >= 0 &&
			    o->val < (int)(sizeof(seen) / sizeof(seen[0])) &&
			    seen[o->val] && !takes(cmd, o->val)) {
				not_its_option(commands[i]);
				return EXIT_USAGE;
			}
		}
	}
	cli.proc_root = TAINT_LIVE_ROOT "/proc";
	cli.sys_root = TAINT_LIVE_ROOT "/sys";
	if (cli.root) {
		cli.proc_root = under_root(cli.root, "proc", proc_root,
					   sizeof(proc_root));
		cli.sys_root = under_root(cli.root, "sys", sys_root,
					  sizeof(sys_root));
		if (!cli.sys_root)
			cli.proc_root = NULL;
	}

	/* the command's line: its name first, then the rest in order */
	if (at < argc) {
		char *name = argv[at];

		memmove(argv + 2, argv + 1, (size_t)(at - 1) * sizeof(*argv));
		argv[1] = name;
		argc--;
		argv++;
	}
	/* (the default command, status, gets taintctl's own name) */
	optind = 0;
	return cmd->run(argc, argv);
}
