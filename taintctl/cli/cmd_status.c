// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_status.c - `taintctl [status]`: the running kernel's taint, the
 * modules that carry taint, and the taint log's events; with --vmcore
 * FILE, those of the kernel a crash dump was taken of (vmcore_status.c),
 * in the same shapes.
 *
 * JSON (json_print_status()) adds to the decode shape: "modules"
 * ([{"name", "taint"}], null when <sys>/module cannot be read), "taint_log"
 * ("ok", "absent": stock kernel, "unreadable": with "taint_log_error", the
 * reason) and "events".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct module_list {
	struct taint_module *v;
	size_t count;
	int error;		/* errno: <sys>/module cannot be read */
};

static void modules_load(struct module_list *m)
{
	int ret = taint_read_modules(cli.sys_root, &m->v, &m->count);

	m->error = -ret;
	if (ret)
		cli_warn("cannot read '%s/module': %s (module taint not shown)",
			 cli.sys_root, strerror(-ret));
}

static void text_modules(const struct module_list *m)
{
	int width = 0;

	if (!m->count)
		return;
	for (size_t i = 0; i < m->count; i++)
		if ((int)strlen(m->v[i].name) > width)
			width = (int)strlen(m->v[i].name);
	printf("Modules with taint:\n");
	for (size_t i = 0; i < m->count; i++) {
		const char *sep = "  ";

		/* cli_quote() has one buffer: one call per printf() */
		printf("  %-*s", width, cli_quote(m->v[i].name));
		printf("  %-4s", cli_quote(m->v[i].taint));
		for (unsigned int bit = 0; bit < TAINT_KNOWN_FLAGS; bit++) {
			if (!(m->v[i].mask & (UINT64_C(1) << bit)))
				continue;
			printf("%s%s", sep, taint_flag_info(bit)->name);
			sep = ", ";
		}
		putchar('\n');
	}
}

static const struct option status_options[] = {
	{ "vmcore", required_argument, NULL, OPT_VMCORE },
	{ NULL, 0, NULL, 0 },
};

static int status_run(int argc, char **argv)
{
	struct module_list mods = { 0 };
	struct event_list ev;
	const char *vmcore = NULL;
	uint64_t mask;
	int c, rc, erc;

	while ((c = cli_getopt(argc, argv, &cmd_status)) != -1) {
		if (c != OPT_VMCORE)
			return EXIT_USAGE;
		if (cli.root) {
			cli_error("--vmcore and --root exclude each other");
			return EXIT_USAGE;
		}
		vmcore = optarg;
	}
	if (cli_no_operand(argc, argv, &cmd_status))
		return EXIT_USAGE;
	if (vmcore && strcmp(vmcore, "-") == 0) {
		cli_error("--vmcore needs the dump's file name: standard input cannot be read as a dump");
		return EXIT_USAGE;
	}
	if (vmcore) {
		rc = vmcore_status_read(vmcore, &mask, &mods.v, &mods.count,
					&ev);
		if (rc)
			return rc;
		erc = EXIT_OK;
	} else {
		rc = read_kernel_mask(&mask);
		if (rc)
			return rc;
		modules_load(&mods);
		erc = events_load(&ev, true);
	}

	if (cli.json) {
		json_print_status(mask, mods.v, mods.count, mods.error, &ev);
	} else {
		text_print_mask(mask, mask != 0);
		text_modules(&mods);
		if (ev.absent) {
			if (mask)
				printf("No taint log: this kernel does not record who set a flag or why.\n");
		} else if (taint_log_get_event_count(ev.log) ||
			   taint_log_get_dropped(ev.log)) {
			printf("Events (oldest first):\n");
			text_print_log_events(ev.log, "  ", "  ... and ");
		}
		text_print_recording(ev.log, mask, true);
	}
	events_free(&ev);
	free(mods.v);
	return erc;
}

const struct taintctl_cmd cmd_status = {
	.name = "status",
	.run = status_run,
	.options = status_options,
	.shortopts = "",
	.usage =
"Usage:\n"
" taintctl [options] [status] [--vmcore FILE]\n"
"\n"
"Show the running kernel's taint: the mask, each set flag, the loaded\n"
"modules that carry taint (/sys/module/*/taint) and, where the kernel keeps\n"
"one, the taint log's events (/proc/sys/kernel/taint_log).\n"
"With --vmcore, the same of the kernel a crash dump was taken of, any\n"
"kernel since 6.0 with kallsyms and BTF (every Debian kernel), read through\n"
"the dump's own symbol table and type information.\n"
"\n"
"Options:\n",
	.usage_options =
"     --vmcore FILE  read an x86_64 kernel's crash dump: an ELF core or\n"
"                    makedumpfile's kdump-compressed format, flattened (-F)\n"
"                    or not\n",
	.usage_exit =
"\nExit status: 0 ok, 2 usage error, 3 permission or system error;\n"
"with --vmcore: 5 the dump cannot be read (not a dump, truncated, a page\n"
"filtered out, data not where the kernel's symbols and types say), 7 its\n"
"VMCOREINFO has no kallsyms tables (a kernel before 6.0), 8 the kernel has\n"
"no BTF (CONFIG_DEBUG_INFO_BTF), 9 its BTF does not parse or lacks a type,\n"
"10 a symbol needed is not in its kallsyms (CONFIG_KALLSYMS_ALL).\n"
"\nFor more details see taintctl(1).\n",
	.json = true,
	.root = true,
};
