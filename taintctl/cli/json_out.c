// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json_out.c - taintctl's JSON, built with json-c: one renderer per output
 * shape (docs/abi.md §2), json_print_*(), and the builders of the parts
 * the shapes share (a mask, flags, unknown bits and letters, an event).
 * No other file builds JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

/* Length of the valid UTF-8 sequence at @s, or 0 if it is not valid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t need;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need;
}

/* One JSON document per line, no pretty printing, '/' not escaped. */
static void json_print(struct json_object *obj)
{
	size_t len;
	const char *text = json_object_to_json_string_length(obj,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);

	fwrite(text, 1, len, stdout);
	putc('\n', stdout);
}

/*
 * A JSON string from arbitrary bytes: valid UTF-8 is kept, every byte that
 * is not part of a valid sequence becomes U+FFFD, so the output is always
 * valid JSON.  json-c escapes control characters (NUL included).
 */
static struct json_object *json_string_bytes(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	struct json_object *obj;
	size_t i, o = 0;
	char *buf;

	for (i = 0; i < len; ) {
		size_t k = utf8_seq(p + i, len - i);

		if (!k)
			break;
		i += k;
	}
	if (i == len)
		return json_object_new_string_len(s, (int)len);

	buf = malloc(len * 3 + 1);
	if (!buf)
		return NULL;
	for (i = 0; i < len; ) {
		size_t k = utf8_seq(p + i, len - i);

		if (k) {
			memcpy(buf + o, p + i, k);
			o += k;
			i += k;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	obj = json_object_new_string_len(buf, (int)o);
	free(buf);
	return obj;
}

/*
 * A mask as a hex string, "0x1201": every JSON object with a "mask" number
 * has it as "mask_hex" too, as jq (and any reader that takes numbers as
 * doubles) loses the bits of a mask above 2^53.
 */
static struct json_object *json_hex(uint64_t mask)
{
	char buf[19];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, mask);
	return json_object_new_string(buf);
}

/* "mask" and "mask_hex" of @mask in @o */
static void add_mask(struct json_object *o, uint64_t mask)
{
	json_object_object_add(o, "mask", json_object_new_uint64(mask));
	json_object_object_add(o, "mask_hex", json_hex(mask));
}

/* letter, bit, name, description of flag @bit (null for an unknown bit) */
static void add_flag(struct json_object *o, unsigned int bit)
{
	const struct taint_flag_info *fi = taint_flag_info(bit);
	char letter[2] = { fi ? fi->letter : '\0', '\0' };

	json_object_object_add(o, "letter",
			       fi ? json_object_new_string(letter) : NULL);
	json_object_object_add(o, "bit", json_object_new_int((int)bit));
	json_object_object_add(o, "name",
			       fi ? json_object_new_string(fi->name) : NULL);
	json_object_object_add(o, "description", fi ?
			       json_object_new_string(fi->description) : NULL);
}

/* the known flags of @mask: [{"letter", "bit", "name", "description"}] */
static struct json_object *json_flag_array(uint64_t mask)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned int bit = 0; bit < TAINT_KNOWN_FLAGS; bit++) {
		struct json_object *o;

		if (!(mask & (UINT64_C(1) << bit)))
			continue;
		o = json_object_new_object();
		add_flag(o, bit);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_unknown_bits(uint64_t mask)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned int bit = TAINT_KNOWN_FLAGS; bit < 64; bit++)
		if (mask & (UINT64_C(1) << bit))
			json_object_array_add(arr,
					      json_object_new_int((int)bit));
	return arr;
}

/* [{"letter": "V", "name": "UNSAFE_BPF"}, ...]; name null if not printed */
static struct json_object *json_unknown_letters(const struct taint_field *f)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; f->unknown_letters[i]; i++) {
		struct json_object *o = json_object_new_object();
		char letter[2] = { f->unknown_letters[i], '\0' };
		const char *name = f->unknown_names[i];

		json_object_object_add(o, "letter",
				       json_object_new_string(letter));
		json_object_object_add(o, "name", name[0] ?
				       json_object_new_string(name) : NULL);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* {"mask": N, "mask_hex": "0x..", "tainted": B, "flags": [...],
 * "unknown_bits": [...]} */
static struct json_object *json_mask_object(uint64_t mask, bool tainted)
{
	struct json_object *o = json_object_new_object();

	add_mask(o, mask);
	json_object_object_add(o, "tainted", json_object_new_boolean(tainted));
	json_object_object_add(o, "flags", json_flag_array(mask));
	json_object_object_add(o, "unknown_bits", json_unknown_bits(mask));
	return o;
}

static struct json_object *json_event(const struct taint_event *ev)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "ts", json_object_new_string(ev->ts));
	json_object_object_add(o, "utc", json_object_new_string(ev->utc));
	json_object_object_add(o, "origin", json_object_new_string(
		ev->origin == TAINT_ORIGIN_KERNEL ? "kernel" : "user"));
	json_object_object_add(o, "flags", json_object_new_string(ev->flags));
	json_object_object_add(o, "new",
			       json_object_new_string(ev->new_flags));
	json_object_object_add(o, "pid", json_object_new_int64(ev->pid));
	json_object_object_add(o, "uid", json_object_new_int64(ev->uid));
	/* v2: a number, null for "auid=-"; absent on a v1 line */
	if (ev->has_auid)
		json_object_object_add(o, "auid", ev->auid_set ?
				       json_object_new_int64(ev->auid) : NULL);
	json_object_object_add(o, "comm",
			       json_string_bytes(ev->comm, ev->comm_len));
	if (ev->has_module)
		json_object_object_add(o, "module",
				       json_string_bytes(ev->module,
							 ev->module_len));
	if (ev->has_caller)
		json_object_object_add(o, "caller",
				       json_object_new_string(ev->caller));
	if (ev->has_reason)
		json_object_object_add(o, "reason",
				       json_string_bytes(ev->reason,
							 ev->reason_len));
	return o;
}

static struct json_object *json_event_array(const struct taint_log *log)
{
	struct json_object *arr = json_object_new_array();
	const struct taint_event *ev;

	for (size_t i = 0; (ev = taint_log_get_event(log, i)); i++)
		json_object_array_add(arr, json_event(ev));
	return arr;
}

/* --- the shapes -------------------------------------------------------- */

/* status: the mask object, "modules", "taint_log" (with
 * "taint_log_error" if unreadable), "events" */
void json_print_status(uint64_t mask, const struct taint_module *mods,
		       size_t count, int mods_error,
		       const struct event_list *ev)
{
	struct json_object *o = json_mask_object(mask, mask != 0);
	struct json_object *arr = NULL;

	if (!mods_error) {
		arr = json_object_new_array();
		for (size_t i = 0; i < count; i++) {
			struct json_object *m = json_object_new_object();

			json_object_object_add(m, "name", json_string_bytes(
				mods[i].name, strlen(mods[i].name)));
			json_object_object_add(m, "taint", json_string_bytes(
				mods[i].taint, strlen(mods[i].taint)));
			json_object_array_add(arr, m);
		}
	}
	json_object_object_add(o, "modules", arr);
	json_object_object_add(o, "taint_log", json_object_new_string(
		ev->absent ? "absent" : ev->read_error ? "unreadable" : "ok"));
	if (ev->read_error)
		json_object_object_add(o, "taint_log_error",
			json_object_new_string(strerror(ev->read_error)));
	json_object_object_add(o, "events", json_event_array(ev->log));
	json_object_object_add(o, "recording", json_recording(ev->log, mask,
							       true));
	json_print(o);
	json_object_put(o);
}

/* decode: one value, the mask object with "unknown_letters", "input" and,
 * from standard input, "line" */
void json_print_decoded(const struct decoded *d, bool from_stdin)
{
	static const struct taint_field none;
	struct json_object *o = json_mask_object(d->mask, d->tainted);

	/* "Tainted: G": tainted, no flag shown: the mask is not known */
	if (decoded_mask_unknown(d)) {
		json_object_object_add(o, "mask", NULL);
		json_object_object_add(o, "mask_hex", NULL);
	}

	json_object_object_add(o, "unknown_letters",
			       json_unknown_letters(d->field ? d->field : &none));
	json_object_object_add(o, "input",
			       json_string_bytes(d->input, strlen(d->input)));
	if (from_stdin)
		json_object_object_add(o, "line",
				       json_object_new_uint64(d->line));
	json_print(o);
	json_object_put(o);
}

static const char *const format_names[] = {
	[TAINT_FORMAT_NOT_TAINTED] = "not-tainted",
	[TAINT_FORMAT_FIXED] = "fixed",
	[TAINT_FORMAT_VERBOSE] = "verbose",
};

static bool is_ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* Add @val under @key, keeping a reference in *@ref (NULL for null). */
static void add_ref(struct json_object *o, const char *key,
		    struct json_object *val, struct json_object **ref)
{
	json_object_object_add(o, key, val);
	*ref = val;
}

/*
 * Set the string @ref holds under @key of @o to @s. json-c 0.16 (Debian
 * 12) leaks a string's buffer when an empty string is set on a string
 * that had grown (json-c issue #780, fixed in 0.17): an empty one is a
 * new object instead.
 */
static void set_str(struct json_object *o, const char *key,
		    struct json_object **ref, const char *s)
{
	if (s[0])
		json_object_set_string(*ref, s);
	else
		add_ref(o, key, json_object_new_string(""), ref);
}

void json_hits_start(struct json_hits *w, const char *file)
{
	memset(w, 0, sizeof(*w));
	w->file = json_string_bytes(file, strlen(file));
}

/* scan: one hit of the file */
void json_print_hit(struct json_hits *w, const struct taint_hit *h,
		    const char *letters)
{
	const struct taint_field *f = h->field;
	struct json_object *o = w->obj;
	bool extras = taint_unknown_bits(f->mask) || f->unknown_letters[0];

	if (!o) {
		o = w->obj = json_object_new_object();
		json_object_object_add(o, "file", json_object_get(w->file));
		add_ref(o, "line", json_object_new_uint64(h->line), &w->line);
		add_ref(o, "text", NULL, &w->text);
		add_ref(o, "letters", json_object_new_string(letters),
			&w->letters);
		add_ref(o, "tainted", json_object_new_boolean(f->tainted),
			&w->tainted);
		/* v2: the rest of what the text output shows */
		add_ref(o, "format", json_object_new_string(
				format_names[f->format]), &w->format);
		add_ref(o, "mask", NULL, &w->mask);
		add_ref(o, "mask_hex", NULL, &w->mask_hex);
		w->plain_extras = false;
	}
	json_object_set_uint64(w->line, h->line);
	if (w->text && is_ascii(f->text, f->text_len))
		json_object_set_string_len(w->text, f->text,
					   (int)f->text_len);
	else	/* json_string_bytes() makes invalid UTF-8 valid */
		add_ref(o, "text", json_string_bytes(f->text, f->text_len),
			&w->text);
	set_str(o, "letters", &w->letters, letters);
	json_object_set_boolean(w->tainted, f->tainted);
	json_object_set_string(w->format, format_names[f->format]);
	if (!f->mask_known) {
		add_ref(o, "mask", NULL, &w->mask);
		add_ref(o, "mask_hex", NULL, &w->mask_hex);
	} else if (w->mask) {
		char hex[19];

		json_object_set_uint64(w->mask, f->mask);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, f->mask);
		json_object_set_string(w->mask_hex, hex);
	} else {
		add_ref(o, "mask", json_object_new_uint64(f->mask), &w->mask);
		add_ref(o, "mask_hex", json_hex(f->mask), &w->mask_hex);
	}
	if (extras || !w->plain_extras) {
		json_object_object_add(o, "unknown_bits",
				       json_unknown_bits(f->mask));
		json_object_object_add(o, "unknown_letters",
				       json_unknown_letters(f));
		w->plain_extras = !extras;
	}
	json_print(o);
}

/* scan: an event of a report, with the log --json event object */
void json_print_scan_event(struct json_hits *w, const struct taint_hit *h)
{
	struct json_object *o = json_object_new_object();
	char letter[2] = { h->letter, '\0' };

	json_object_object_add(o, "file", json_object_get(w->file));
	json_object_object_add(o, "line", json_object_new_uint64(h->line));
	json_object_object_add(o, "report_line", h->report_line ?
			       json_object_new_uint64(h->report_line) : NULL);
	json_object_object_add(o, "letter", json_object_new_string(letter));
	json_object_object_add(o, "event", json_event(h->event));
	json_print(o);
	json_object_put(o);
}

void json_hits_end(struct json_hits *w)
{
	json_object_put(w->obj);
	json_object_put(w->file);
	memset(w, 0, sizeof(*w));
}

/* log: {"events": [...], "dropped": N} */
struct json_object *json_recording(const struct taint_log *log,
				   uint64_t mask, bool have_mask)
{
	struct taint_recording r;
	uint64_t before, without;
	struct json_object *o;

	if (!recording_of(log, mask, have_mask, &r, &before, &without))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "began_ts", json_object_new_string(r.began_ts));
	json_object_object_add(o, "began_utc", strcmp(r.began_utc, "-") ?
			       json_object_new_string(r.began_utc) : NULL);
	json_object_object_add(o, "kernel", r.kernel[0] ?
			       json_string_bytes(r.kernel, strlen(r.kernel)) : NULL);
	json_object_object_add(o, "before_recording", json_flag_array(before));
	json_object_object_add(o, "without_event", json_flag_array(without));
	json_object_object_add(o, "lost", json_object_new_uint64(r.lost));
	json_object_object_add(o, "restarts", json_object_new_uint64(r.restarts));
	return o;
}

void json_print_log(const struct taint_log *log)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "events", json_event_array(log));
	json_object_object_add(o, "dropped", json_object_new_uint64(
				       taint_log_get_dropped(log)));
	json_object_object_add(o, "recording", json_recording(log, 0, false));
	json_print(o);
	json_object_put(o);
}

/* what check and check --since start with */
static struct json_object *json_check_object(uint64_t mask, uint64_t bad,
					     const struct taint_field *letters)
{
	struct json_object *o = json_object_new_object();

	add_mask(o, mask);
	json_object_object_add(o, "ok", json_object_new_boolean(
				       !bad && !letters->unknown_letters[0]));
	json_object_object_add(o, "disallowed", json_flag_array(bad));
	json_object_object_add(o, "disallowed_unknown_bits",
			       json_unknown_bits(bad));
	json_object_object_add(o, "disallowed_unknown_letters",
			       json_unknown_letters(letters));
	return o;
}

/* check --from's "set_by": for each flag the log shows, the line that
 * showed it first: [{"letter", "bit", "line", "kind", "text"}] in bit
 * order; kind is "field", "report" or "event" */
static struct json_object *json_check_set_by(const struct check_from *fr)
{
	static const char *const kinds[] = {
		[SET_BY_FIELD] = "field", [SET_BY_REPORT] = "report",
		[SET_BY_EVENT] = "event",
	};
	struct json_object *a = json_object_new_array();

	for (unsigned int bit = 0; bit < 64; bit++) {
		const struct check_setter *st = &fr->set_by[bit];
		const struct taint_flag_info *fi = taint_flag_info(bit);
		struct json_object *e;
		char letter[2] = { fi ? fi->letter : '\0', '\0' };

		if (!st->line)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "letter", fi ?
				       json_object_new_string(letter) : NULL);
		json_object_object_add(e, "bit", json_object_new_int((int)bit));
		json_object_object_add(e, "line",
				       json_object_new_uint64(st->line));
		json_object_object_add(e, "kind",
				       json_object_new_string(kinds[st->kind]));
		json_object_object_add(e, "text", json_string_bytes(st->text,
				       strlen(st->text)));
		json_object_array_add(a, e);
	}
	return a;
}

/* check --from's "from": {"file", "boots", "judged", "boot_line", ...} */
static struct json_object *json_check_from(const struct check_from *fr)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(fr->file));
	json_object_object_add(o, "judged", json_object_new_string(
				       fr->every_boot ? "every_boot" : "last_boot"));
	json_object_object_add(o, "boots", json_object_new_uint64(fr->boots));
	json_object_object_add(o, "boot_line",
			       json_object_new_uint64(fr->boot_line));
	json_object_object_add(o, "host", fr->host ?
			       json_string_bytes(fr->host, strlen(fr->host)) :
			       NULL);
	json_object_object_add(o, "release", fr->release[0] ?
			       json_string_bytes(fr->release,
						 strlen(fr->release)) : NULL);
	json_object_object_add(o, "earlier_mask",
			       json_object_new_uint64(fr->earlier_mask));
	json_object_object_add(o, "fields", json_object_new_uint64(fr->fields));
	json_object_object_add(o, "last_line",
			       json_object_new_uint64(fr->last_line));
	json_object_object_add(o, "reports", json_object_new_uint64(fr->reports));
	json_object_object_add(o, "events", json_object_new_uint64(fr->events));
	json_object_object_add(o, "set_by", json_check_set_by(fr));
	return o;
}

static struct json_object *json_check_verdict(uint64_t mask, uint64_t bad,
					      const struct taint_field *bad_letters,
					      const struct check_from *from,
					      uint64_t unknown_line)
{
	struct json_object *o = json_check_object(mask, bad, bad_letters);

	/* a tainted field that shows no flag: unknown, never clean */
	if (unknown_line) {
		json_object_object_add(o, "mask", NULL);
		json_object_object_add(o, "mask_hex", NULL);
		json_object_object_add(o, "ok", json_object_new_boolean(false));
		json_object_object_add(o, "mask_unknown_line",
				       json_object_new_uint64(unknown_line));
	}

	if (from)
		json_object_object_add(o, "from", json_check_from(from));
	return o;
}

void json_print_check(uint64_t mask, uint64_t bad,
		      const struct taint_field *bad_letters,
		      const struct check_from *from, uint64_t unknown_line)
{
	struct json_object *o = json_check_verdict(mask, bad, bad_letters,
						   from, unknown_line);

	json_print(o);
	json_object_put(o);
}

void json_print_check_hosts(const struct check_verdict *v, size_t n)
{
	static const struct taint_field none;
	struct json_object *o, *a = json_object_new_array();
	uint64_t mask = 0, bad = 0;
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		struct json_object *h = json_check_verdict(v[i].mask, v[i].bad,
							   v[i].bad_letters,
							   v[i].from,
							   v[i].unknown_line);
		const char *host = v[i].from->host;

		json_object_object_add(h, "host", host ?
				       json_string_bytes(host, strlen(host)) :
				       NULL);
		ok = ok && json_object_get_boolean(
				json_object_object_get(h, "ok"));
		mask |= v[i].mask;
		bad |= v[i].bad;
		json_object_array_add(a, h);
	}
	o = json_check_object(mask, bad, &none);
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "hosts", a);
	json_print(o);
	json_object_put(o);
}

void json_print_since(const char *cursor, const struct taint_cursor *c,
		      const struct snapshot *now,
		      const struct taint_window *w,
		      const struct taint_log *events, uint64_t bad)
{
	static const struct taint_field none;
	struct json_object *o = json_check_object(now->mask, bad, &none);
	struct json_object *since = json_object_new_object();

	json_object_object_add(since, "cursor",
			       json_object_new_string(cursor));
	add_mask(since, c->mask);
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

/* cursor: {"cursor", "boot_id", "events", "dropped", "mask", "mask_hex"} */
void json_print_cursor(const struct snapshot *s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "cursor", json_object_new_string(s->text));
	json_object_object_add(o, "boot_id",
			       json_object_new_string(s->c.boot_id));
	json_object_object_add(o, "events", json_object_new_uint64(s->c.events));
	json_object_object_add(o, "dropped",
			       json_object_new_uint64(s->c.dropped));
	add_mask(o, s->c.mask);
	json_print(o);
	json_object_put(o);
}

/* watch: an event of the log --json shape with "type": "event" */
void json_print_watch_event(const struct taint_event *ev)
{
	struct json_object *o = json_event(ev);

	json_object_object_add(o, "type", json_object_new_string("event"));
	json_print(o);
	json_object_put(o);
}

/* watch: a flag set without an event, with the mask now */
void json_print_watch_flag(unsigned int bit, uint64_t mask)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("flag"));
	add_flag(o, bit);
	add_mask(o, mask);
	json_print(o);
	json_object_put(o);
}

/* watch: the dropped count grew by @count, to @total */
void json_print_watch_dropped(uint64_t total, uint64_t count)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("dropped"));
	json_object_object_add(o, "dropped", json_object_new_uint64(total));
	json_object_object_add(o, "count", json_object_new_uint64(count));
	json_print(o);
	json_object_put(o);
}
