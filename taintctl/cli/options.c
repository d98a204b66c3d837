// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - getopt_long() for taintctl's command lines.
 *
 * Options and operands come in any order, as with GNU getopt_long(), but
 * an argument that looks like a negative number ("-1") is an operand
 * unless it is an option's argument: decode -1 reaches decode, which
 * refuses it as the kernel does, and check --value -1 is --value's.  "--"
 * ends the options.
 *
 * getopt_long() itself matches the options, long ones by a unique prefix
 * too, and takes their arguments: it runs in REQUIRE_ORDER mode ('+') and
 * is called at each argument that is not an operand; an operand is set
 * aside (optind stepped over it).  The arguments parsed are moved before
 * the operands set aside, so that at the end, as with GNU getopt,
 * argv[optind..argc-1] are the operands in their order.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const struct option cli_global_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
const char cli_global_shortopts[] = "jJhV";

bool cli_global_option(int c)
{
	return c == 'j' || c == 'J' || c == 'h' || c == 'V' || c == OPT_ROOT;
}

static struct {
	int nops;		/* operands set aside, just before span */
	int span;		/* the argument getopt_long() parses now */
	bool boundary;		/* the last call finished an argument */
} st;

static bool is_operand(const char *a)
{
	return a[0] != '-' || !a[1] || isdigit((unsigned char)a[1]);
}

/* a[0..n) and a[n..n+m) swap places, each keeping its order */
static void rotate(char **a, int n, int m)
{
	for (int i = 0; i < m; i++) {
		char *t = a[n + i];

		memmove(a + i + 1, a + i, (size_t)n * sizeof(*a));
		a[i] = t;
	}
}

/* the argument(s) parsed since st.span go before the operands set aside */
static void move_parsed(char **argv)
{
	if (st.nops && optind > st.span)
		rotate(argv + st.span - st.nops, st.nops, optind - st.span);
	st.span = optind;
}

static void report(int c, char **argv)
{
	if (c == ':')
		cli_error("option '%s' requires an argument",
			  cli_quote(argv[optind - 1]));
	else if (optopt)
		cli_error("invalid option -- '%c'", optopt);
	else
		cli_error("unrecognized option '%s'",
			  cli_quote(argv[optind - 1]));
	fputs("Try 'taintctl --help' for more information.\n", stderr);
}

/* @add's options appended to @to, which holds @n; the new count */
size_t cli_options_add(struct option *to, size_t n, const struct option *add)
{
	for (; add && add->name; add++) {
		if (n + 1 >= CLI_MAX_OPTIONS) {
			cli_error("internal error: more than %d options",
				  CLI_MAX_OPTIONS - 1);
			abort();
		}
		to[n++] = *add;
	}
	memset(&to[n], 0, sizeof(to[n]));
	return n;
}

int cli_getopt_long(int argc, char **argv, const char *shortopts,
		    const struct option *longopts)
{
	int c, before;

	if (optind == 0) {	/* a new parse: getopt_long()'s too */
		static char *none[] = { "taintctl", NULL };
		static const struct option no_options[] = { { 0 } };

		getopt_long(1, none, "+", no_options, NULL);
		st.nops = 0;
		st.span = optind;
		st.boundary = true;
	}
	opterr = 0;
	for (;;) {
		if (st.boundary) {
			move_parsed(argv);
			if (optind < argc && is_operand(argv[optind])) {
				st.nops++;
				st.span = ++optind;
				continue;
			}
		}
		before = optind;
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		st.boundary = optind != before;
		if (c == -1) {		/* the end, or "--" */
			move_parsed(argv);
			optind -= st.nops;
			st.nops = 0;
			return -1;
		}
		if (c == '?' || c == ':') {
			report(c, argv);
			return '?';
		}
		return c;
	}
}

int cli_getopt(int argc, char **argv, const struct taintctl_cmd *cmd)
{
	/* the command's options and the global ones (main.c's) */
	static struct option longopts[CLI_MAX_OPTIONS];
	static char shortopts[CLI_MAX_OPTIONS * 2 + 8];
	int c;

	if (optind == 0) {	/* main.c set it before calling cmd->run */
		size_t n = cli_options_add(longopts, 0, cmd->options);

		cli_options_add(longopts, n, cli_global_options);
		snprintf(shortopts, sizeof(shortopts), "+:%s%s",
			 cli_global_shortopts, cmd->shortopts);
	}
	while ((c = cli_getopt_long(argc, argv, shortopts, longopts)) != -1) {
		if (c == '?' || !cli_global_option(c))
			return c;
	}
	/* --root DIR's length is checked once the command has checked its
	 * own options (log: --vmcore and --root exclude each other) */
	if (cli.root && !cli.proc_root) {
		cli_error("root directory name too long: '%s'",
			  cli_quote(cli.root));
		return '?';
	}
	return -1;
}

int cli_no_operand(int argc, char **argv, const struct taintctl_cmd *cmd)
{
	if (optind >= argc)
		return 0;
	cli_error("%s takes no operand ('%s')", cmd->name,
		  cli_quote(argv[optind]));
	return EXIT_USAGE;
}
