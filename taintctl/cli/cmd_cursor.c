// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cursor.c - `taintctl cursor` and `taintctl check --since CURSOR`.
 *
 * A cursor (struct taint_cursor, one shell word) is the boot id, the
 * number of event lines in the taint log, its dropped= count, the mask,
 * and a digest of those events.  The log is read before the mask: a flag
 * set while the cursor is taken is then either in the cursor's mask or
 * named by an event after it.
 *
 * check --since judges the window after the cursor: the flags newly set
 * (mask now & ~mask then) and the flags of the events recorded after it
 * (a user request for U after the cursor counts, even if U was set
 * before); --allow/--deny as for check.  It names who set them (the
 * events).  A cursor that is malformed, from another boot, or does not
 * fit this log (fewer events, other events at its start, a smaller
 * dropped count, a bit of its mask clear now) is exit 4.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct snapshot {
	struct taint_cursor c;
	char text[TAINT_CURSOR_MAX];
	char boot_id[TAINT_BOOT_ID_LEN + 1];
	struct event_list ev;
	uint64_t mask;
};

/* boot id, log, then mask; EXIT_* (reported) */
static int take(const struct options *opt, struct snapshot *s)
{
	char path[4096];
	int ret, rc;

	memset(s, 0, sizeof(*s));
	s->c.size = sizeof(s->c);
	ret = taint_read_boot_id(opt->proc_root, s->boot_id,
				 sizeof(s->boot_id));
	if (ret) {
		snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id",
			 opt->proc_root);
		if (ret == -EINVAL)
			cli_error("cannot parse '%s': not a boot id", path);
		else
			cli_error("cannot read '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	/* a cursor must know the log: an unreadable one is an error */
	rc = events_load(opt, &s->ev, false);
	if (rc)
		return rc;
	rc = read_kernel_mask(opt, &s->mask);
	if (rc)
		return rc;
	if (taint_log_cursor(s->ev.log, s->boot_id, s->mask, &s->c) ||
	    taint_cursor_format(&s->c, s->text, sizeof(s->text)) < 0) {
		cli_error("cannot make a cursor");
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

int cmd_cursor(const struct options *opt)
{
	struct snapshot s;
	int rc;

	if (opt->argc) {
		cli_error("cursor takes no operand ('%s')",
			  cli_quote(opt->argv[0]));
		return EXIT_USAGE;
	}
	rc = take(opt, &s);
	if (!rc && opt->json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "cursor",
				       json_object_new_string(s.text));
		json_object_object_add(o, "boot_id",
				       json_object_new_string(s.c.boot_id));
		json_object_object_add(o, "events",
				       json_object_new_uint64(s.c.events));
		json_object_object_add(o, "dropped",
				       json_object_new_uint64(s.c.dropped));
		json_object_object_add(o, "mask",
				       json_object_new_uint64(s.c.mask));
		json_print(o);
		json_object_put(o);
	} else if (!rc) {
		puts(s.text);
	}
	events_free(&s.ev);
	return rc;
}

/* check --since's answer as JSON */
static void json_since(const struct options *opt,
		       const struct taint_cursor *c, const struct snapshot *now,
		       const struct taint_window *w,
		       const struct taint_log *events, uint64_t bad)
{
	struct json_object *o = json_object_new_object();
	struct json_object *since = json_object_new_object();

	json_object_object_add(o, "mask", json_object_new_uint64(now->mask));
	json_object_object_add(o, "ok", json_object_new_boolean(!bad));
	json_object_object_add(o, "disallowed", json_flag_array(bad));
	json_object_object_add(o, "disallowed_unknown_bits",
			       json_unknown_bits(bad));
	json_object_object_add(o, "disallowed_unknown_letters",
			       json_object_new_array());
	json_object_object_add(since, "cursor",
			       json_object_new_string(opt->since));
	json_object_object_add(since, "mask", json_object_new_uint64(c->mask));
	json_object_object_add(since, "events",
			       json_object_new_uint64(c->events));
	json_object_object_add(since, "dropped",
			       json_object_new_uint64(c->dropped));
	json_object_object_add(o, "since", since);
	json_object_object_add(o, "set_since", json_flag_array(w->set));
	json_object_object_add(o, "set_since_unknown_bits",
			       json_unknown_bits(w->set));
	json_object_object_add(o, "new_without_event",
			       json_flag_array(w->without_event));
	json_object_object_add(o, "events", json_event_array(events));
	json_object_object_add(o, "dropped", json_object_new_uint64(w->dropped));
	json_object_object_add(o, "cursor", json_object_new_string(now->text));
	json_print(o);
	json_object_put(o);
}

/* check --since's answer as text */
static void text_since(const struct taint_cursor *c,
		       const struct snapshot *now,
		       const struct taint_window *w,
		       const struct taint_log *events, uint64_t bad)
{
	char letters[TAINT_KNOWN_FLAGS + 1];

	if (bad) {
		printf("FAIL: disallowed taint set since the cursor (mask %" PRIu64 ", was %" PRIu64 "):\n",
		       now->mask, c->mask);
		for (unsigned int bit = 0; bit < 64; bit++)
			if (bad & (UINT64_C(1) << bit))
				text_print_flag_line(bit);
	} else if (w->set || w->dropped) {
		taint_mask_letters(w->set, letters, sizeof(letters));
		printf("ok: no disallowed taint since the cursor (mask %" PRIu64 ", was %" PRIu64 "; set since: %s%s)\n",
		       now->mask, c->mask, letters[0] ? letters : "",
		       taint_unknown_bits(w->set) ? " + unknown bits" : "");
	} else {
		printf("ok: nothing set since the cursor (mask %" PRIu64 ")\n",
		       now->mask);
	}
	if (w->set || w->dropped)
		printf("Since the cursor:\n");
	text_print_events(events, "  ");
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(w->without_event & (UINT64_C(1) << bit)))
			continue;
		fputs("  set, no taint_log event:", stdout);
		text_print_flag_line(bit);
	}
	if (w->dropped)
		printf("  %" PRIu64 " user request(s) counted but not kept (log full): their flags are not known\n",
		       w->dropped);
}

int check_since(const struct options *opt, uint64_t set)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	struct taint_window w = TAINT_INIT(struct taint_window);
	struct taint_log *events;
	struct snapshot now;
	const char *why;
	uint64_t bad;
	int rc, ret;

	if (taint_cursor_parse(opt->since, &c)) {
		cli_error("invalid cursor '%s': not a cursor that 'taintctl cursor' printed",
			  cli_quote(opt->since));
		return EXIT_CURSOR;
	}
	rc = take(opt, &now);
	if (rc) {
		events_free(&now.ev);
		return rc;
	}
	ret = taint_log_since(now.ev.log, &c, now.boot_id, now.mask, &w,
			      &events, &why);
	if (ret == -ESTALE)
		cli_error("cursor is from another boot (boot id %s, this boot %s): its taint state is gone",
			  c.boot_id, now.boot_id);
	else if (ret == -EBADMSG)
		cli_error("cursor does not fit this kernel's taint log: %s", why);
	else if (ret)
		cli_error("%s", strerror(-ret));
	if (ret) {
		events_free(&now.ev);
		return ret == -ESTALE || ret == -EBADMSG ? EXIT_CURSOR :
		       EXIT_SYSTEM;
	}

	bad = check_disallowed(opt, set, w.set);
	if (opt->json)
		json_since(opt, &c, &now, &w, events, bad);
	else
		text_since(&c, &now, &w, events, bad);
	taint_log_unref(events);
	events_free(&now.ev);
	return bad ? EXIT_CHECK : EXIT_OK;
}
