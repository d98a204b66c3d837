// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * taint_state.c - the kernel's taint state for the commands: the mask
 * (/proc/sys/kernel/tainted), the taint log for `status`, `log`, `watch`,
 * `metrics`, `cursor` and `check --since` (libtaint's struct taint_log,
 * opened from /proc/sys/kernel/taint_log of --root's tree, a sosreport's
 * sos_commands/kernel/sysctl_-a where that has none, a saved copy for
 * `log FILE`, or, for `log --vmcore`, from a crash dump, vmcore_log.c;
 * its problems reported here), and the snapshot a cursor is made of
 * (`cursor`, `check --since`).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int read_kernel_mask(uint64_t *mask)
{
	char path[4096];
	int ret;

	if (taint_proc_path(cli.proc_root, "tainted", path, sizeof(path))) {
		cli_error("proc root too long: '%s'", cli_quote(cli.proc_root));
		return EXIT_SYSTEM;
	}
	ret = taint_read_mask(cli.proc_root, mask);
	if (ret == -EINVAL || ret == -ERANGE || ret == -EFBIG) {
		cli_error("cannot parse '%s': not a taint mask", path);
		return EXIT_SYSTEM;
	}
	if (ret) {
		cli_error("cannot read '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

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

/* the running kernel's log (--root's); EXIT_*, reported unless @quiet;
 * @need: what an unreadable log fails (NULL: nothing to add) */
static int load_proc(struct event_list *list, bool quiet_if_unreadable,
		     bool quiet, const char *need)
{
	char path[4096];
	int ret;

	ret = taint_log_new_from_proc(cli.proc_root, &list->log);
	/* the file read: a sosreport's sysctl_-a has the log of its kernel */
	if (ret == -ENAMETOOLONG ||
	    taint_read_log_path(cli.proc_root, path, sizeof(path))) {
		taint_log_unref(list->log);
		list->log = NULL;
		cli_error("proc root too long: '%s'", cli_quote(cli.proc_root));
		return EXIT_SYSTEM;
	}
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
		if (need && (ret == -EACCES || ret == -EPERM))
			cli_error("cannot read '%s': %s (%s, which only root can read: mode 0400)",
				  path, strerror(-ret), need);
		else if (need)
			cli_error("cannot read '%s': %s (%s)", path,
				  strerror(-ret), need);
		else
			cli_error("cannot read '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	if (!quiet)
		report_problems(list->log, path);
	list->malformed = (int)taint_log_get_malformed(list->log);
	return list->malformed ? EXIT_SYSTEM : EXIT_OK;
}

int events_load(struct event_list *list, bool quiet_if_unreadable)
{
	memset(list, 0, sizeof(*list));
	return load_proc(list, quiet_if_unreadable, false, NULL);
}

int events_load_quiet(struct event_list *list, bool quiet)
{
	memset(list, 0, sizeof(*list));
	return load_proc(list, quiet, quiet, NULL);
}

int events_load_vmcore(const char *path, struct event_list *list)
{
	int rc;

	memset(list, 0, sizeof(*list));
	rc = vmcore_log_open(path, &list->log);
	if (rc)
		return rc;
	report_problems(list->log, path);
	list->malformed = (int)taint_log_get_malformed(list->log);
	return list->malformed ? EXIT_VMCORE : EXIT_OK;
}

int events_load_file(const char *path, struct event_list *list)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "(standard input)" : path, *msg;
	unsigned int lineno = 0;
	char why[160];
	bool fatal;
	int fd, ret;

	memset(list, 0, sizeof(*list));
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	ret = taint_log_new_from_fd(fd, &list->log, why, sizeof(why));
	if (!is_stdin)
		close(fd);
	if (ret == -EFBIG)
		cli_error("cannot read '%s': larger than 4 MiB, not a taint log",
			  cli_quote(name));
	else if ((ret == -EBADMSG || ret == -ENOTSUP) && why[0])
		cli_error("cannot read '%s': %s", cli_quote(name), why);
	else if (ret)
		cli_error("cannot read '%s': %s", cli_quote(name),
			  strerror(-ret));
	if (ret)
		return EXIT_SYSTEM;
	/* nothing of it parses: one line, not one per line of the file */
	if (!taint_log_get_event_count(list->log) &&
	    taint_log_get_malformed(list->log) &&
	    (msg = taint_log_get_problem(list->log, 0, &lineno, &fatal))) {
		cli_error("'%s' is not a taint log: no line of it is a taint_log event (line %u: %s)",
			  cli_quote(name), lineno, msg);
		events_free(list);
		return EXIT_SYSTEM;
	}
	report_problems(list->log, name);
	list->malformed = (int)taint_log_get_malformed(list->log);
	return list->malformed ? EXIT_SYSTEM : EXIT_OK;
}

void events_free(struct event_list *list)
{
	taint_log_unref(list->log);
	memset(list, 0, sizeof(*list));
}

/* boot id, log, then mask, and their cursor; EXIT_* (reported) */
int snapshot_take(struct snapshot *s)
{
	char path[4096];
	int ret, rc;

	memset(s, 0, sizeof(*s));
	s->c.size = sizeof(s->c);
	ret = taint_read_boot_id(cli.proc_root, s->boot_id,
				 sizeof(s->boot_id));
	if (ret) {
		snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id",
			 cli.proc_root);
		if (ret == -EINVAL)
			cli_error("cannot parse '%s': not a boot id", path);
		else
			cli_error("cannot read '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	/* a cursor must know the log: an unreadable one is an error, which
	 * says why (cursor as a user, the log being root's) */
	rc = load_proc(&s->ev, false, false, "a cursor needs the taint log");
	if (rc)
		return rc;
	rc = read_kernel_mask(&s->mask);
	if (rc)
		return rc;
	if (taint_log_cursor(s->ev.log, s->boot_id, s->mask, &s->c) ||
	    taint_cursor_format(&s->c, s->text, sizeof(s->text)) < 0) {
		cli_error("cannot make a cursor");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

void snapshot_free(struct snapshot *s)
{
	events_free(&s->ev);
}

bool recording_of(const struct taint_log *log, uint64_t mask, bool have_mask,
		  struct taint_recording *r, uint64_t *before,
		  uint64_t *without)
{
	uint64_t named = 0;

	*r = (struct taint_recording)TAINT_INIT(struct taint_recording);
	if (taint_log_get_recording(log, r))
		return false;
	if (!have_mask)
		mask = r->before_mask;
	for (size_t i = 0; i < taint_log_get_event_count(log); i++)
		named |= taint_log_get_event(log, i)->new_mask;
	/* (a flag with an event is never "before": the recorder reads the
	 * mask of its began note after attaching, so a flag set between
	 * the two is in both) */
	*before = mask & r->before_mask & ~named;
	*without = mask & ~r->before_mask & ~named;
	return true;
}
