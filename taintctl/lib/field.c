// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * field.c - decode the "Tainted:" field of kernel reports.
 *
 * Two printed forms exist:
 *   fixed:   "Tainted: P        W  O"   one position per bit, ' ' when clear,
 *            'G' at position 0 when bit 0 is clear; vendor kernels print
 *            more positions and '-' for reserved ones (RHEL)
 *   verbose: "Tainted: [P]=PROPRIETARY_MODULE, [W]=WARN"  (Linux >= 6.12)
 * and "Not tainted" when the mask is 0.
 *
 * The width of the fixed field is never assumed: it ends at the first word
 * that is not made of capital letters and '-'.  A fixed field whose letters
 * all sit at their canonical positions is decoded by position (so vendor
 * letters at positions >= 20 become unknown bits); one that is not (blanks
 * squeezed by a log pipeline, synthetic test data) is decoded letter by
 * letter.
 */
#include <errno.h>
#include <string.h>

#include "field_internal.h"
#include "taint.h"

static const char tainted_marker[] = "Tainted:";
static const char not_tainted_marker[] = "Not tainted";
#define TAINTED_LEN (sizeof(tainted_marker) - 1)
#define NOT_TAINTED_LEN (sizeof(not_tainted_marker) - 1)

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_line_end(char c)
{
	return c == '\n' || c == '\r';
}

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_alnum(char c)
{
	return is_upper(c) || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_field_char(char c)
{
	return is_upper(c) || c == '-';
}

static bool is_quote(char c)
{
	return c == '\'' || c == '"' || c == '`';
}

long taint__marker_at(const char *buf, size_t len, size_t a)
{
	size_t start;
	char prev;

	if (a >= 1 && buf[a - 1] == 'T' && a + TAINT_NEEDLE_LEN < len &&
	    buf[a + TAINT_NEEDLE_LEN] == ':') {
		start = a - 1;
	} else if (a >= 5 && memcmp(buf + a - 5, "Not t", 5) == 0) {
		size_t end = a + TAINT_NEEDLE_LEN;

		/* "Not tainted" must be a whole word; end of data is fine. */
		if (end < len && (is_alnum(buf[end]) || buf[end] == '_'))
			return -1;
		start = a - 5;
	} else {
		return -1;
	}
	if (start > 0) {
		prev = buf[start - 1];
		if (is_alnum(prev) || prev == '_' || is_quote(prev))
			return -1;
	}
	return (long)start;
}

static void text_append(struct taint_field *f, const char *s, size_t n)
{
	size_t room = TAINT_TEXT_MAX - f->text_len;

	if (n > room)
		n = room;
	memcpy(f->text + f->text_len, s, n);
	f->text_len += n;
	f->text[f->text_len] = '\0';
}

static void add_unknown_letter(struct taint_field *f, char c)
{
	size_t n = strlen(f->unknown_letters);

	if (strchr(f->unknown_letters, c) || n >= TAINT_UNKNOWN_LETTERS_MAX)
		return;
	f->unknown_letters[n] = c;
	f->unknown_letters[n + 1] = '\0';
}

static void add_letter(struct taint_field *f, char c)
{
	const struct taint_flag_info *fi;

	if (c == 'G')
		return;
	fi = taint_flag_by_letter(c);
	if (fi)
		f->mask |= UINT64_C(1) << fi->bit;
	else
		add_unknown_letter(f, c);
}

/* Decode the fixed-form characters @s[0..n): by position if possible. */
static void decode_fixed(const char *s, size_t n, struct taint_field *f)
{
	uint64_t mask = 0;
	bool positional = true;

	for (size_t i = 0; i < n && positional; i++) {
		char c = s[i];

		if (is_blank(c) || c == '-' || (i == 0 && c == 'G'))
			continue;
		if (i < TAINT_KNOWN_FLAGS) {
			if (taint_flag_info((unsigned int)i)->letter != c)
				positional = false;
			else
				mask |= UINT64_C(1) << i;
		} else if (i < 64) {
			mask |= UINT64_C(1) << i;
		} else {
			positional = false;
		}
	}
	f->positional = positional;
	if (positional) {
		f->mask = mask;
		return;
	}
	f->mask = 0;
	for (size_t i = 0; i < n; i++)
		if (is_upper(s[i]))
			add_letter(f, s[i]);
}

/*
 * Length of the fixed field at @s: up to the end of its last word made of
 * field characters.  A word may be closed by ')' as in SLUB's
 * "(Tainted: G    B)"; anything else ends the field before that word.
 */
static size_t fixed_extent(const char *s, size_t len)
{
	size_t i = 0, end = 0;

	while (i < len) {
		size_t t;

		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len || is_line_end(s[i]))
			break;
		t = i;
		while (i < len && is_field_char(s[i]))
			i++;
		if (i == t)
			break;
		if (i < len && !is_blank(s[i]) && !is_line_end(s[i])) {
			if (s[i] == ')')
				end = i;
			break;
		}
		end = i;
	}
	return end;
}

static bool verbose_entry_at(const char *s, size_t len, size_t i)
{
	return i + 3 < len && s[i] == '[' && is_upper(s[i + 1]) &&
	       s[i + 2] == ']' && s[i + 3] == '=';
}

static bool is_name_char(char c)
{
	return is_upper(c) || (c >= '0' && c <= '9') || c == '_';
}

/*
 * Decode a verbose list starting with the entry at @s + @i.  Fills text
 * from @seg (the start of the text to keep: the marker, or the first entry)
 * and returns the offset just past the last entry.
 */
static size_t decode_verbose(const char *s, size_t len, size_t seg, size_t i,
			     struct taint_field *f)
{
	size_t last = i;

	f->format = TAINT_FORMAT_VERBOSE;
	while (verbose_entry_at(s, len, i)) {
		size_t name = i + 4, j;

		j = name;
		while (j < len && is_name_char(s[j]))
			j++;
		if (j == name)
			break;
		add_letter(f, s[i + 1]);
		last = j;
		if (j >= len || s[j] != ',')
			break;
		j++;
		while (j < len && is_blank(s[j]))
			j++;
		if (verbose_entry_at(s, len, j)) {
			i = j;
			continue;
		}
		if (j >= len || !is_line_end(s[j]))
			break;
		/* The list wraps: look for its next entry on the next line. */
		if (s[j] == '\r' && j + 1 < len && s[j + 1] == '\n')
			j++;
		j++;
		{
			size_t k = j;

			while (k < len && !is_line_end(s[k]) &&
			       !verbose_entry_at(s, len, k))
				k++;
			if (!verbose_entry_at(s, len, k))
				break;
			text_append(f, s + seg, last + 1 - seg);
			text_append(f, " ", 1);
			seg = k;
			i = k;
			f->lines++;
		}
	}
	text_append(f, s + seg, last - seg);
	return last;
}

static void field_init(struct taint_field *f)
{
	memset(f, 0, sizeof(*f));
	f->lines = 1;
}

int taint_parse_field(const char *s, size_t len, struct taint_field *f)
{
	size_t body, i, end;

	field_init(f);
	if (len >= NOT_TAINTED_LEN &&
	    memcmp(s, not_tainted_marker, NOT_TAINTED_LEN) == 0) {
		f->format = TAINT_FORMAT_NOT_TAINTED;
		text_append(f, s, NOT_TAINTED_LEN);
		f->consumed = NOT_TAINTED_LEN;
		return 0;
	}
	if (len < TAINTED_LEN || memcmp(s, tainted_marker, TAINTED_LEN) != 0)
		return -EINVAL;

	f->tainted = true;
	body = TAINTED_LEN;
	if (body < len && s[body] == ' ')
		body++;
	for (i = body; i < len && is_blank(s[i]); i++)
		;
	if (verbose_entry_at(s, len, i)) {
		f->consumed = decode_verbose(s, len, 0, i, f);
		return 0;
	}
	f->format = TAINT_FORMAT_FIXED;
	end = fixed_extent(s + body, len - body);
	decode_fixed(s + body, end, f);
	if (end) {
		text_append(f, s, body + end);
		f->consumed = body + end;
	} else {
		text_append(f, s, TAINTED_LEN);
		f->consumed = TAINTED_LEN;
	}
	return 0;
}

int taint_parse_body(const char *s, size_t len, struct taint_field *f,
		     size_t *bad_at)
{
	size_t i = 0, end, j;

	field_init(f);
	f->tainted = true;
	while (i < len && (is_blank(s[i]) || is_line_end(s[i])))
		i++;
	if (verbose_entry_at(s, len, i)) {
		end = decode_verbose(s, len, i, i, f);
	} else {
		f->format = TAINT_FORMAT_FIXED;
		for (j = i; j < len; j++)
			if (!is_field_char(s[j]) && !is_blank(s[j]))
				break;
		end = j;
		while (end > i && is_blank(s[end - 1]))
			end--;
		decode_fixed(s + i, end - i, f);
		text_append(f, s + i, end - i);
	}
	for (j = end; j < len; j++) {
		if (!is_blank(s[j]) && !is_line_end(s[j])) {
			if (bad_at)
				*bad_at = j;
			return -EINVAL;
		}
	}
	f->consumed = end;
	f->tainted = f->mask || f->unknown_letters[0];
	return 0;
}

long taint_find_field(const char *s, size_t len, struct taint_field *f)
{
	size_t from = 0;

	while (from < len) {
		const char *hit = memmem(s + from, len - from, TAINT_NEEDLE,
					 TAINT_NEEDLE_LEN);
		long start;

		if (!hit)
			break;
		start = taint__marker_at(s, len, (size_t)(hit - s));
		if (start >= 0) {
			taint_parse_field(s + start, len - (size_t)start, f);
			return start;
		}
		from = (size_t)(hit - s) + 1;
	}
	return -1;
}
