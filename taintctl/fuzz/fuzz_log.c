// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_log.c - the taint_log text parser (`taintctl log FILE`, a log in a
 * ticket): taint_log_parse_line() on the input as one line,
 * taint_log_new_from_text() on it as a whole log (every event read back),
 * and taint_unescape()/taint_escape() round trips: an escaped input
 * unescapes to itself.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"

static void escape_round_trip(const char *s, size_t len)
{
	size_t need = taint_escape(s, len, NULL, 0), out_len, used;
	char *esc, *back;

	esc = malloc(need + 2);
	back = malloc(len + 1);
	if (!esc || !back)
		goto out;
	FUZZ_CHECK(taint_escape(s, len, esc, need + 1) == need);
	FUZZ_CHECK(strlen(esc) == need);
	esc[need] = '"';	/* the closing quote unescape wants */
	FUZZ_CHECK(taint_unescape(esc, need + 1, back, len + 1, &out_len,
				  &used) == 0);
	FUZZ_CHECK(out_len == len && used == need + 1);
	FUZZ_CHECK(!memcmp(back, s, len));
out:
	free(esc);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct taint_event ev = TAINT_INIT(struct taint_event);
	struct taint_log *log = NULL;
	const char *why = NULL;
	uint64_t dropped = 0;
	char out[256];
	size_t out_len, used;
	int r;

	r = taint_log_parse_line(s, size, &ev, &dropped, &why);
	FUZZ_CHECK(r == TAINT_LOG_EVENT || r == TAINT_LOG_DROPPED ||
		   (r == -EINVAL && why && *why));
	if (r == TAINT_LOG_EVENT)
		FUZZ_CHECK(strlen(ev.reason) <= TAINT_REASON_MAX);

	r = taint_log_new_from_text(s, size, &log);
	FUZZ_CHECK(r == 0 || r == -ENOMEM);
	if (!r) {
		size_t n = taint_log_get_event_count(log);

		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(taint_log_get_event(log, i));
		FUZZ_CHECK(!taint_log_get_event(log, n));
		taint_log_unref(log);
	}

	taint_unescape(s, size, out, sizeof(out), &out_len, &used);
	if (size <= 4096)
		escape_round_trip(s, size);
	return 0;
}
