// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * help.c - `taintctl COMMAND --help`: the help of one command, from its
 * struct taintctl_cmd (its text is in its cmd_<name>.c), with the parts
 * the commands share, and the list of compressed formats in them, from
 * libtaint's table.  (`taintctl --help`, the overview, is in main.c.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

const char *cli_compressions(void)
{
	static char list[256];
	const struct taint_compression_info *ci;
	const char *name[32];
	size_t n = 0, len = 0;

	if (list[0])
		return list;
	for (enum taint_compression c = TAINT_COMPRESSION_NONE + 1;
	     (ci = taint_compression_info(c)) && n < 32; c++)
		if (ci->readable)
			name[n++] = ci->name;
	if (!n)
		snprintf(list, sizeof(list), "no format (a build without decompressors)");
	for (size_t i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i + 1 < n ? ", " : " and ",
					name[i]);
	return list;
}

/* (a write error is said here, with its errno: a text longer than
 * stdout's buffer (taintctl --help) fails in fputs(), and the errno is gone
 * by the time cli_close_stdout() finds the error) */
void cli_help_puts(const char *text)
{
	const char *list = cli_compressions(), *at, *p;
	size_t n = 0, len;
	char *buf, *o;

	for (p = text; (at = strstr(p, CLI_COMPRESSED)); p = at + 1)
		n++;
	len = strlen(text) + n * strlen(list) + 1;
	buf = malloc(len);
	if (!buf) {
		fputs(text, stdout);
		return;
	}
	for (o = buf, p = text; (at = strstr(p, CLI_COMPRESSED));
	     p = at + strlen(CLI_COMPRESSED)) {
		memcpy(o, p, (size_t)(at - p));
		o += at - p;
		o = stpcpy(o, list);
	}
	strcpy(o, p);
	errno = 0;
	if (fputs(buf, stdout) == EOF && errno)
		cli_write_error(errno);
	free(buf);
}

void cli_command_usage(const struct taintctl_cmd *cmd)
{
	cli_help_puts(cmd->usage);
	if (cmd->json)
		fputs(json_option, stdout);
	if (cmd->root)
		fputs(root_option, stdout);
	if (cmd->usage_options)
		cli_help_puts(cmd->usage_options);
	fputs(help_option, stdout);
	if (cmd->usage_more)
		cmd->usage_more();
	cli_help_puts(cmd->usage_exit ? cmd->usage_exit : footer);
}
