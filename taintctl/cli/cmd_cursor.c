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
	ret = taint_read_boot_id(opt->proc_root, s->c.boot_id,
				 sizeof(s->c.boot_id));
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
	s->c.events = s->ev.count;
	s->c.dropped = s->ev.dropped;
	s->c.mask = s->mask;
	if (taint_events_digest(s->ev.events, s->ev.count,
				sizeof(*s->ev.events), &s->c.digest) ||
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

/* does @now fit the cursor @c (same boot checked)? NULL or why not */
static const char *misfit(const struct taint_cursor *c,
			  const struct snapshot *now)
{
	uint32_t digest;

	if (c->events > now->ev.count)
		return "the taint log has fewer events than when the cursor was taken";
	if (taint_events_digest(now->ev.events, (size_t)c->events,
				sizeof(*now->ev.events), &digest) ||
	    digest != c->digest)
		return "the taint log does not begin with the cursor's events";
	if (c->dropped > now->ev.dropped)
		return "the taint log's dropped count is smaller than the cursor's";
	if (c->mask & ~now->mask)
		return "flags of the cursor's mask are clear now (taint is never cleared)";
	return NULL;
}

int check_since(const struct options *opt, uint64_t set)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	struct snapshot now;
	uint64_t new_bits, judged, bad, seen = 0, dropped;
	char letters[TAINT_KNOWN_FLAGS + 1];
	const char *why;
	size_t first;
	bool *named;
	int rc;

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
	if (strcmp(c.boot_id, now.c.boot_id)) {
		cli_error("cursor is from another boot (boot id %s, this boot %s): its taint state is gone",
			  c.boot_id, now.c.boot_id);
		events_free(&now.ev);
		return EXIT_CURSOR;
	}
	why = misfit(&c, &now);
	if (why) {
		cli_error("cursor does not fit this kernel's taint log: %s", why);
		events_free(&now.ev);
		return EXIT_CURSOR;
	}

	/* the window: newly set bits and the events after the cursor, and
	 * for a new bit without an event there, the event that set it if it
	 * is before (published late, while the cursor was taken) */
	first = (size_t)c.events;
	new_bits = now.mask & ~c.mask;
	named = calloc(now.ev.count + 1, sizeof(*named));
	if (!named) {
		events_free(&now.ev);
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	judged = new_bits;
	for (size_t i = first; i < now.ev.count; i++) {
		named[i] = true;
		judged |= now.ev.events[i].flags_mask |
			  now.ev.events[i].new_mask;
		seen |= now.ev.events[i].new_mask;
	}
	for (unsigned int bit = 0; bit < 64; bit++) {
		long i;

		if (!(new_bits & ~seen & (UINT64_C(1) << bit)))
			continue;
		i = taint_first_event(now.ev.events, now.ev.count,
				      sizeof(*now.ev.events), bit);
		if (i >= 0) {
			named[i] = true;
			seen |= now.ev.events[i].new_mask;
		}
	}
	dropped = now.ev.dropped - c.dropped;

	bad = check_disallowed(opt, set, judged);

	if (opt->json) {
		struct json_object *o = json_object_new_object();
		struct json_object *since = json_object_new_object();
		struct json_object *evs = json_object_new_array();

		json_object_object_add(o, "mask", json_object_new_uint64(now.mask));
		json_object_object_add(o, "ok", json_object_new_boolean(!bad));
		json_object_object_add(o, "disallowed", json_flag_array(bad));
		json_object_object_add(o, "disallowed_unknown_bits",
				       json_unknown_bits(bad));
		json_object_object_add(o, "disallowed_unknown_letters",
				       json_object_new_array());
		json_object_object_add(since, "cursor",
				       json_object_new_string(opt->since));
		json_object_object_add(since, "mask", json_object_new_uint64(c.mask));
		json_object_object_add(since, "events",
				       json_object_new_uint64(c.events));
		json_object_object_add(since, "dropped",
				       json_object_new_uint64(c.dropped));
		json_object_object_add(o, "since", since);
		json_object_object_add(o, "set_since", json_flag_array(judged));
		json_object_object_add(o, "set_since_unknown_bits",
				       json_unknown_bits(judged));
		json_object_object_add(o, "new_without_event",
				       json_flag_array(new_bits & ~seen));
		for (size_t i = 0; i < now.ev.count; i++)
			if (named[i])
				json_object_array_add(evs,
					json_event(&now.ev.events[i]));
		json_object_object_add(o, "events", evs);
		json_object_object_add(o, "dropped", json_object_new_uint64(dropped));
		json_object_object_add(o, "cursor", json_object_new_string(now.text));
		json_print(o);
		json_object_put(o);
	} else {
		if (bad) {
			printf("FAIL: disallowed taint set since the cursor (mask %" PRIu64 ", was %" PRIu64 "):\n",
			       now.mask, c.mask);
			for (unsigned int bit = 0; bit < 64; bit++)
				if (bad & (UINT64_C(1) << bit))
					text_print_flag_line(bit);
		} else if (judged || dropped) {
			taint_mask_letters(judged, letters, sizeof(letters));
			printf("ok: no disallowed taint since the cursor (mask %" PRIu64 ", was %" PRIu64 "; set since: %s%s)\n",
			       now.mask, c.mask, letters[0] ? letters : "",
			       taint_unknown_bits(judged) ?
			       " + unknown bits" : "");
		} else {
			printf("ok: nothing set since the cursor (mask %" PRIu64 ")\n",
			       now.mask);
		}
		if (judged || dropped)
			printf("Since the cursor:\n");
		for (size_t i = 0; i < now.ev.count; i++) {
			if (!named[i])
				continue;
			fputs("  ", stdout);
			text_print_event(&now.ev.events[i]);
		}
		for (unsigned int bit = 0; bit < 64; bit++) {
			if (!(new_bits & ~seen & (UINT64_C(1) << bit)))
				continue;
			fputs("  set, no taint_log event:", stdout);
			text_print_flag_line(bit);
		}
		if (dropped)
			printf("  %" PRIu64 " user request(s) counted but not kept (log full): their flags are not known\n",
			       dropped);
	}
	free(named);
	events_free(&now.ev);
	return bad ? EXIT_CHECK : EXIT_OK;
}
