// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_decode.c - what `taintctl decode` and `check` parse from a user or
 * a log line: taint_find_field(), taint_parse_field() and
 * taint_parse_body() on any bytes, and, on the input as a C string,
 * taint_parse_value(), taint_letters_to_mask(), taint_flags_to_mask() and
 * taint_flag_by_name().  Round trips: the letters of a parsed mask parse
 * back to it; a field found is inside the input.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"

static void check_field(const struct taint_field *f, size_t len)
{
	FUZZ_CHECK(f->text_len <= TAINT_TEXT_MAX);
	FUZZ_CHECK(strlen(f->text) == f->text_len);
	FUZZ_CHECK(f->consumed <= len);
	FUZZ_CHECK(strlen(f->unknown_letters) <= TAINT_UNKNOWN_LETTERS_MAX);
}

static void round_trip(uint64_t mask)
{
	char letters[128];
	uint64_t back;

	taint_mask_letters(mask, letters, sizeof(letters));
	FUZZ_CHECK(taint_letters_to_mask(letters, &back, NULL) == 0);
	FUZZ_CHECK(back == (mask & ~taint_unknown_bits(mask)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct taint_field f = TAINT_INIT(struct taint_field);
	uint64_t mask;
	size_t bad_at, bad_len;
	char bad, *str;
	long at;

	at = taint_find_field(s, size, &f);
	FUZZ_CHECK(at < 0 || (size_t)at < size);
	if (at >= 0) {
		check_field(&f, size - (size_t)at);
		round_trip(f.mask);
	}
	f = (struct taint_field)TAINT_INIT(struct taint_field);
	if (taint_parse_field(s, size, &f) == 0)
		check_field(&f, size);
	f = (struct taint_field)TAINT_INIT(struct taint_field);
	if (taint_parse_body(s, size, &f, &bad_at) == 0)
		check_field(&f, size);
	taint_flag_by_name(s, size);

	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	if (taint_parse_value(str, &mask) == 0)
		round_trip(mask);
	if (taint_letters_to_mask(str, &mask, &bad) == 0)
		round_trip(mask);
	if (taint_flags_to_mask(str, &mask, &bad_at, &bad_len) == 0)
		round_trip(mask);
	else
		FUZZ_CHECK(bad_at <= strlen(str) &&
			   bad_len <= strlen(str) - bad_at);
	free(str);
	return 0;
}
