// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * help.c - `taintctl COMMAND --help`: the help of one command, from its
 * struct taintctl_cmd (its text is in its cmd_<name>.c), with the parts
 * the commands share.  (`taintctl --help`, the overview, is in main.c.)
 */
#include <stdio.h>

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

void cli_command_usage(const struct taintctl_cmd *cmd)
{
	fputs(cmd->usage, stdout);
	if (cmd->json)
		fputs(json_option, stdout);
	if (cmd->root)
		fputs(root_option, stdout);
	if (cmd->usage_options)
		fputs(cmd->usage_options, stdout);
	fputs(help_option, stdout);
	if (cmd->usage_more)
		cmd->usage_more();
	fputs(cmd->usage_exit ? cmd->usage_exit : footer, stdout);
}
