// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * events.c - load /proc/sys/kernel/taint_log for `status` and `log`, or
 * for `log --vmcore`, the same text made from a crash dump.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct load_ctx {
	struct event_list *list;
	size_t cap;
	const char *path;
	bool quiet;
};

static int on_event(const struct taint_event *ev, unsigned int lineno,
		    void *arg)
{
	struct load_ctx *ctx = arg;
	struct event_list *l = ctx->list;
	struct taint_event *e;
	size_t size;

	(void)lineno;
	if (l->count == ctx->cap) {
		size_t cap = ctx->cap ? ctx->cap * 2 : 64;
		struct taint_event *n = realloc(l->events, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->events = n;
		ctx->cap = cap;
	}
	/* a copy of what the library filled (ev->size bytes: read through
	 * the pointer), .size saying what it holds (ABI rules) */
	e = &l->events[l->count++];
	size = ev->size && ev->size < sizeof(*e) ? ev->size : sizeof(*e);
	memset(e, 0, sizeof(*e));
	memcpy(e, ev, size);
	e->size = size;
	return 0;
}

static void on_problem(unsigned int lineno, bool fatal, const char *msg,
		       void *arg)
{
	struct load_ctx *ctx = arg;

	if (ctx->quiet)
		return;
	if (fatal)
		cli_error("%s:%u: malformed line skipped: %s", ctx->path,
			  lineno, msg);
	else
		cli_warn("%s:%u: %s (event kept)", ctx->path, lineno, msg);
}

static int load(const struct options *opt, struct event_list *list,
		bool quiet_if_unreadable, bool quiet)
{
	static const struct taint_log_ops ops = {
		.size = sizeof(ops),
		.event = on_event,
		.problem = on_problem,
	};
	char path[4096];
	struct load_ctx ctx = { .list = list, .path = path, .quiet = quiet };
	char *buf;
	size_t len;
	int ret;

	memset(list, 0, sizeof(*list));
	if (opt->vmcore) {
		/* a crash dump: its text goes the live log's way from here */
		ret = vmcore_log_text(opt->vmcore, &buf, &len);
		if (ret)
			return ret;
		ctx.path = opt->vmcore;
		goto parse;
	}
	if (taint_proc_path(opt->proc_root, "taint_log", path, sizeof(path))) {
		cli_error("proc root too long: '%s'", cli_quote(opt->proc_root));
		return EXIT_SYSTEM;
	}
	ret = taint_read_log(opt->proc_root, &buf, &len);
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
parse:
	ret = taint_log_parse(buf, len, &ops, &ctx, &list->dropped);
	free(buf);
	if (ret < 0) {
		cli_error("cannot parse '%s': %s", ctx.path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	list->malformed = ret;
	if (ret)
		return opt->vmcore ? EXIT_VMCORE : EXIT_SYSTEM;
	return EXIT_OK;
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
	free(list->events);
	memset(list, 0, sizeof(*list));
}
