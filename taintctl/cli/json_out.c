// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json_out.c - build taintctl's JSON with json-c.  Shapes: docs/abi.md §2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * A JSON string from arbitrary bytes: valid UTF-8 is kept, every byte that
 * is not part of a valid sequence becomes U+FFFD, so the output is always
 * valid JSON.  json-c escapes control characters (NUL included).
 */
struct json_object *json_string_bytes(const char *s, size_t len)
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

struct json_object *json_flag_array(uint64_t mask)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned int bit = 0; bit < TAINT_KNOWN_FLAGS; bit++) {
		const struct taint_flag_info *fi = taint_flag_info(bit);
		struct json_object *o;
		char letter[2] = { fi->letter, '\0' };

		if (!(mask & (UINT64_C(1) << bit)))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "letter",
				       json_object_new_string(letter));
		json_object_object_add(o, "bit", json_object_new_int((int)bit));
		json_object_object_add(o, "name",
				       json_object_new_string(fi->name));
		json_object_object_add(o, "description",
				       json_object_new_string(fi->description));
		json_object_array_add(arr, o);
	}
	return arr;
}

struct json_object *json_unknown_bits(uint64_t mask)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned int bit = TAINT_KNOWN_FLAGS; bit < 64; bit++)
		if (mask & (UINT64_C(1) << bit))
			json_object_array_add(arr,
					      json_object_new_int((int)bit));
	return arr;
}

/* {"mask": N, "tainted": B, "flags": [...], "unknown_bits": [...]} */
struct json_object *json_mask_object(uint64_t mask, bool tainted)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "mask", json_object_new_uint64(mask));
	json_object_object_add(o, "tainted", json_object_new_boolean(tainted));
	json_object_object_add(o, "flags", json_flag_array(mask));
	json_object_object_add(o, "unknown_bits", json_unknown_bits(mask));
	return o;
}

struct json_object *json_event(const struct taint_event *ev)
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

/* One JSON document per line, no pretty printing, '/' not escaped. */
void json_print(struct json_object *obj)
{
	fputs(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE),
	      stdout);
	fputc('\n', stdout);
}

struct json_object *json_event_array(const struct taint_log *log)
{
	struct json_object *arr = json_object_new_array();
	const struct taint_event *ev;

	for (size_t i = 0; (ev = taint_log_get_event(log, i)); i++)
		json_object_array_add(arr, json_event(ev));
	return arr;
}
