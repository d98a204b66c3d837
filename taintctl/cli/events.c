// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * events.c - the taint log for `status`, `log`, `watch`, `metrics`,
 * `cursor` and `check --since`: libtaint's struct taint_log, opened from
 * /proc/sys/kernel/taint_log (of --root's tree) or, for `log --vmcore`,
 * from a crash dump (vmcore_log.c), its problems reported here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* each malformed line and each event with unknown fields of @log */
static void report_problems(const struct taint_log *log, const char *name)
{
	const char *msg;
	unsigned int lineno;
	bool fatal;

	for (size_t i = 0; (msg = taint_log_get_problem(log, i, &lineno,
							 &fatal)); i++) {
		if (fatal)
			cli_error("%s:%u: malformed line skipped: %s", name,
				  lineno, msg);
		else
			cli_warn("%s:%u: %s (event kept)", name, lineno, msg);
	}
}

/* the running kernel's log (--root's); EXIT_*, reported unless @quiet */
static int load_proc(const struct options *opt, struct event_list *list,
		     bool quiet_if_unreadable, bool quiet)
{
	char path[4096];
	int ret;

	if (taint_proc_path(opt->proc_root, "taint_log", path, sizeof(path))) {
		cli_error("proc root too long: '%s'", cli_quote(opt->proc_root));
		return EXIT_SYSTEM;
	}
	ret = taint_log_new_from_proc(opt->proc_root, &list->log);
	if (ret == -ENOENT) {
		list->absent = true;
		return EXIT_OK;
	}
	if (ret) {
		if (quiet) {
			list->read_error = -ret;
			return EXIT_OK;
		}
		if (quiet_if_unreadable) {
			cli_warn("cannot read '%s': %s (events not shown)",
				 path, strerror(-ret));
			list->read_error = -ret;
			return EXIT_OK;
		}
		cli_error("cannot read '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	if (!quiet)
		report_problems(list->log, path);
	list->malformed = (int)taint_log_get_malformed(list->log);
	return list->malformed ? EXIT_SYSTEM : EXIT_OK;
}

static int load(const struct options *opt, struct event_list *list,
		bool quiet_if_unreadable, bool quiet)
{
	int rc;

	memset(list, 0, sizeof(*list));
	if (!opt->vmcore)
		return load_proc(opt, list, quiet_if_unreadable, quiet);
	/* a crash dump (only `log` takes --vmcore) */
	rc = vmcore_log_open(opt->vmcore, &list->log);
	if (rc)
		return rc;
	if (!quiet)
		report_problems(list->log, opt->vmcore);
	list->malformed = (int)taint_log_get_malformed(list->log);
	return list->malformed ? EXIT_VMCORE : EXIT_OK;
}

int events_load(const struct options *opt, struct event_list *list,
		bool quiet_if_unreadable)
{
	return load(opt, list, quiet_if_unreadable, false);
}

int events_load_quiet(const struct options *opt, struct event_list *list,
		      bool quiet)
{
	return load(opt, list, quiet, quiet);
}

void events_free(struct event_list *list)
{
	taint_log_unref(list->log);
	memset(list, 0, sizeof(*list));
}
