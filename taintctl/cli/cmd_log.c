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
 * With a FILE operand (- for standard input) the log is a saved copy of a
 * taint_log's text (a ticket's attachment, a copy of
 * /proc/sys/kernel/taint_log), decompressed if it is (cli_compressions()),
 * parsed by the same parser and printed the same way, with the same exit
 * codes; a file of which no line is an event is "not a taint log", one
 * line, exit 3.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct option log_options[] = {
	{ "vmcore", required_argument, NULL, OPT_VMCORE },
	{ NULL, 0, NULL, 0 },
};

static int log_run(int argc, char **argv)
{
	const char *vmcore = NULL, *file = NULL;
	struct event_list ev;
	char path[4096];
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cmd_log)) != -1) {
		switch (c) {
		case OPT_VMCORE:
			/* said before a --root DIR too long (cli_getopt()) */
			if (cli.root) {
				cli_error("--vmcore and --root exclude each other");
				return EXIT_USAGE;
			}
			vmcore = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (vmcore && strcmp(vmcore, "-") == 0) {
		cli_error("--vmcore needs the dump's file name: standard input cannot be read as a dump");
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		cli_error("log reads one saved log ('%s' is a second FILE)",
			  cli_quote(argv[optind + 1]));
		return EXIT_USAGE;
	}
	if (optind < argc) {
		file = argv[optind];
		if (vmcore || cli.root) {
			cli_error("a saved log FILE ('%s') excludes %s",
				  cli_quote(file), vmcore ? "--vmcore" : "--root");
			return EXIT_USAGE;
		}
	}
	if (file)
		rc = events_load_file(file, &ev);
	else if (vmcore)
		rc = events_load_vmcore(vmcore, &ev);
	else
		rc = events_load(&ev, false);
	if (rc && !ev.malformed)
		return rc;
	taint_read_log_path(cli.proc_root, path, sizeof(path));

	if (cli.json) {
		json_print_log(ev.log);
		if (ev.absent)
			cli_warn("this kernel keeps no taint log ('%s' does not exist)",
				 path);
	} else if (ev.absent) {
		printf("No taint log: this kernel does not record taint events ('%s' does not exist).\n",
		       path);
	} else {
		if (!taint_log_get_event_count(ev.log))
			printf("No taint events recorded.\n");
		text_print_log_events(ev.log, "", "dropped: ");
		text_print_recording(ev.log, 0, false);
	}
	events_free(&ev);
	return rc;
}

const struct taintctl_cmd cmd_log = {
	.name = "log",
	.run = log_run,
	.options = log_options,
	.shortopts = "",
	.usage =
"Usage:\n"
" taintctl [options] log [--vmcore FILE | FILE | -]\n"
"\n"
"Show the kernel's taint log (/proc/sys/kernel/taint_log), parsed: who set\n"
"each flag, when and why.  A stock kernel keeps none; that is said, exit 0.\n"
"With --vmcore, the log of the kernel a crash dump was taken of, printed\n"
"the same way; caller= is left out for a module's code (module= names it).\n"
"With FILE (- for standard input), a saved copy of a taint_log (a ticket's\n"
"attachment, also compressed: " CLI_COMPRESSED "),\n"
"printed the same way.  With --root DIR, a sosreport's log is read from\n"
"DIR/sos_commands/kernel/sysctl_-a where DIR/proc has none.\n"
"\n"
"Options:\n",
	.json = true,
	.root = true,
	.usage_options =
"     --vmcore FILE  read the log from FILE, an x86_64 kernel's crash dump,\n"
"                    through its VMCOREINFO: an ELF core (kdump's vmcore,\n"
"                    makedumpfile -E, QEMU dump-guest-memory) or\n"
"                    makedumpfile's kdump-compressed format (zlib, lzo,\n"
"                    zstd or snappy pages), flattened (-F) or not; not a\n"
"                    compressed file (decompress it first)\n",
	.usage_exit =
"\nExit status: 0 ok, 2 usage error, 3 permission or system error (a file\n"
"that cannot be opened or read, a malformed taint log or a FILE that is\n"
"not one, write errors on standard output),\n"
"5 --vmcore: the dump cannot be read (not a dump, a compressed file,\n"
"another architecture, truncated, no VMCOREINFO, a kernel without the\n"
"taint log, inconsistent layout or data).\n"
"\nFor more details see taintctl(1).\n",
};
