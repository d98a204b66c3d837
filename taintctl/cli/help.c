// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * help.c - `taintctl COMMAND --help`: the help of one command.
 * (`taintctl --help`, the overview, is in main.c.)
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char json_option[] =
" -J, -j, --json     JSON output\n";
static const char root_option[] =
"     --root DIR     read the kernel's files under DIR (DIR/proc/sys/kernel/...,\n"
"                    DIR/sys/module/...): a sosreport, a copied /proc and /sys\n";
static const char help_option[] =
" -h, --help         display this help\n";

static const char footer[] =
"\n"
"Exit status: 0 ok, 2 usage error or invalid input, 3 permission or system\n"
"error (write errors on standard output included).\n"
"\n"
"For more details see taintctl(1).\n";

static const struct command_help {
	const char *name;
	bool json, root;	/* takes --json, reads kernel files */
	const char *text;
	const char *options;	/* after --json and --root, or NULL */
	const char *exit;	/* the exit status paragraph, NULL: footer */
} helps[] = {
	{ "status", true, true,
"Usage:\n"
" taintctl [options] [status]\n"
"\n"
"Show the running kernel's taint: the mask, each set flag, the loaded\n"
"modules that carry taint (/sys/module/*/taint) and, where the kernel keeps\n"
"one, the taint log's events (/proc/sys/kernel/taint_log).\n"
"\n"
"Options:\n", NULL, NULL },
	{ "decode", true, false,
"Usage:\n"
" taintctl [options] decode [VALUE|TEXT...|-]\n"
"\n"
"Explain taint masks and Tainted: fields.  Operands are joined with blanks;\n"
"without an operand, or with -, standard input is read.  Every Tainted: or\n"
"Not tainted field in the text is decoded; text without one is read line by\n"
"line as numbers (one result each: \"4609 512\") or flag letters (\"P  W  O\",\n"
"\"PWO\", \"[U]=USER, [W]=WARN\").\n"
"\n"
"Numbers are read as the kernel reads /proc/sys/kernel/tainted: 0x is\n"
"hexadecimal, a leading 0 octal (01201 is 641), no sign (-1 is refused),\n"
"at most 20 characters.  With --json, one object per value (JSON Lines).\n"
"\n"
"Options:\n", NULL, NULL },
	{ "scan", true, false,
"Usage:\n"
" taintctl [options] scan [FILE...|-]\n"
"\n"
"Print every Tainted:/Not tainted field in logs, with file:line and its\n"
"flags (with --json, one object per field, JSON Lines).  Without FILE, or\n"
"with -, standard input is read, as filters do.  A pipe, FIFO or terminal\n"
"is read line by line and each line's fields are printed as soon as it is\n"
"complete (dmesg -w | taintctl scan); files are read in big blocks.\n"
"gzip, xz and zstd data is decompressed (told by its first bytes).\n"
"Letters this version does not know are shown as unknown letters.\n"
"\n"
"Options:\n", NULL, NULL },
	{ "mark", false, true,
"Usage:\n"
" taintctl [options] mark REASON\n"
"\n"
"Set the U flag with a reason (1-128 bytes of printable ASCII), written to\n"
"/proc/sys/kernel/taint_reason; on a stock kernel, set U through\n"
"/proc/sys/kernel/tainted without a reason and warn.  Needs CAP_SYS_ADMIN.\n"
"With --root, the files under DIR are written instead (for tests).\n"
"\n"
"Options:\n", NULL, NULL },
	{ "log", true, true,
"Usage:\n"
" taintctl [options] log [--vmcore FILE]\n"
"\n"
"Show the kernel's taint log (/proc/sys/kernel/taint_log), parsed: who set\n"
"each flag, when and why.  A stock kernel keeps none; that is said, exit 0.\n"
"With --vmcore, the log of the kernel a crash dump was taken of, printed\n"
"the same way; caller= is left out for a module's code (module= names it).\n"
"\n"
"Options:\n",
"     --vmcore FILE  read the log from FILE, a kernel crash dump: an x86_64\n"
"                    ELF core (kdump's vmcore, makedumpfile -E, QEMU\n"
"                    dump-guest-memory), through its VMCOREINFO\n",
"\nExit status: 0 ok, 2 usage error, 3 permission or system error (a file\n"
"that cannot be opened or read, a malformed taint log, write errors on\n"
"standard output), 5 --vmcore: the dump cannot be read (not an x86_64 ELF\n"
"core, truncated, no VMCOREINFO, a kernel without the taint log,\n"
"inconsistent layout or data).\n"
"\nFor more details see taintctl(1).\n" },
	{ "check", true, true,
"Usage:\n"
" taintctl [options] check [--allow FLAGS | --deny FLAGS]\n"
"                          [--value VALUE | --from FILE | --since CURSOR]\n"
"\n"
"Exit 1 if a disallowed flag is set, else 0 (without --allow or --deny any\n"
"flag is disallowed).  Judges the running kernel, or a value, or a file,\n"
"or only what the kernel recorded after a cursor.\n"
"\n"
"Options:\n"
" -a, --allow FLAGS  only these flags may be set (unknown bits and letters\n"
"                    fail)\n"
" -d, --deny FLAGS   these flags must not be set (unknown bits and letters\n"
"                    pass)\n"
"     --value VALUE  judge VALUE (a number as decode reads it, or a\n"
"                    Tainted: field or letters) instead of the kernel\n"
"     --from FILE    judge FILE (- for standard input): a copy of\n"
"                    /proc/sys/kernel/tainted, or a log whose Tainted:\n"
"                    fields are all taken together\n"
"     --since CURSOR judge only the flags set and the events recorded after\n"
"                    CURSOR (printed by 'taintctl cursor'), and name who\n"
"                    set them\n", NULL, NULL },
	{ "watch", true, true,
"Usage:\n"
" taintctl [options] watch [--once] [--interval SECONDS]\n"
"\n"
"Print each new taint event as the kernel records it (events already in\n"
"the taint log when watch starts are not printed), each line flushed at\n"
"once; with --json, JSON Lines of the log --json event shape plus \"type\".\n"
"A newly set flag without a taint_log event (a stock kernel) and a grown\n"
"dropped count are printed too.  Waits with poll() on tainted and\n"
"taint_log; on a kernel that does not signal changes through poll() (stock\n"
"6.12), and for files that are not on procfs (--root), the files are\n"
"re-read every --interval.\n"
"\n"
"Options:\n",
" -n, --interval SECONDS  re-read interval where poll() does not signal\n"
"                    (default 1; 0.01 to 3600)\n"
"     --once         exit after the first new event\n",
"\nExit status: 0 --once saw an event, or SIGINT/SIGTERM; 2 usage error;\n"
"3 a file cannot be read, a write error on standard output.\n"
"\nFor more details see taintctl(1).\n" },
	{ "metrics", false, true,
"Usage:\n"
" taintctl [options] metrics [--output FILE]\n"
"\n"
"Print the taint state in the Prometheus text format, for node_exporter's\n"
"textfile collector: kernel_tainted, kernel_taint_flag{flag,name} (each\n"
"known flag, each set unknown bit),\n"
"kernel_taint_flag_first_set_timestamp_seconds{flag,origin} (wall time of\n"
"the event that set a flag first) and kernel_taint_log_dropped_total.\n"
"No reason, comm or pid in labels.\n"
"\n"
"Options:\n",
" -o, --output FILE  write FILE atomically (a temporary file in its\n"
"                    directory, fsync, rename) instead of standard output;\n"
"                    name it *.prom for the textfile collector\n",
NULL },
	{ "cursor", true, true,
"Usage:\n"
" taintctl [options] cursor\n"
"\n"
"Print a cursor: one word that names this boot, the taint log's position\n"
"and the mask now.  'taintctl check --since CURSOR' later judges only what\n"
"was set after it (a test runner takes one before each test).\n"
"\n"
"Options:\n", NULL, NULL },
};

/* check: what FLAGS may be, with the table of flags */
static void print_check_flags(void)
{
	fputs("\nFLAGS are letters (PO), kernel flag names (PROPRIETARY_MODULE, any case),\n"
	      "or both, separated by commas or blanks; an item that is a name is read as\n"
	      "the name (DIE is the flag D, not D, I and E).  G is accepted and means nothing.\n",
	      stdout);
	for (unsigned int bit = 0; bit < TAINT_KNOWN_FLAGS; bit++) {
		const struct taint_flag_info *fi = taint_flag_info(bit);

		printf("   %c  %-21s %s\n", fi->letter, fi->name,
		       fi->description);
	}
}

bool cli_command_usage(const char *command)
{
	bool check = strcmp(command, "check") == 0;

	for (size_t i = 0; i < sizeof(helps) / sizeof(helps[0]); i++) {
		if (strcmp(helps[i].name, command))
			continue;
		fputs(helps[i].text, stdout);
		if (helps[i].json)
			fputs(json_option, stdout);
		if (helps[i].root)
			fputs(root_option, stdout);
		if (helps[i].options)
			fputs(helps[i].options, stdout);
		fputs(help_option, stdout);
		if (helps[i].exit) {
			fputs(helps[i].exit, stdout);
		} else if (check) {
			print_check_flags();
			fputs("\nExit status: 0 nothing disallowed is set, 1 a disallowed flag is set,\n"
			      "2 usage error or invalid input, 3 permission or system error,\n"
			      "4 the --since cursor is malformed, from another boot, or does not fit\n"
			      "this kernel's taint log.\n"
			      "\nFor more details see taintctl(1).\n", stdout);
		} else {
			fputs(footer, stdout);
		}
		return true;
	}
	return false;
}
