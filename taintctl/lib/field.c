// SPDX-License-Identifier: LGPL-2.1-or-later
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
 *
 * Prose is not a field: print_tainted() (kernel/panic.c) prints "Tainted: "
 * and one position per flag, ' ' or the letter ('G' or 'P' first; at least
 * FIXED_MIN_WIDTH positions since 2.6.0), and the caller a blank and the
 * release.  So a word after fewer than FIXED_MIN_WIDTH + 1 columns is prose
 * ("Tainted: P but ...", "Tainted: yes") unless it looks like a release
 * (the flags were squeezed or edited out).  Non-breaking spaces (U+00A0 in
 * UTF-8, or a Latin-1 0xA0 byte, as mail and web pastes have) are blanks of
 * one column.
 */
#include <errno.h>
#include <string.h>

#include "abi.h"
#include "field_internal.h"
#include "taint.h"

static const char tainted_marker[] = "Tainted:";
#define TAINTED_LEN (sizeof(tainted_marker) - 1)

/* The fewest flag positions a kernel printed (2.6.0: P/G, F, S). */
#define FIXED_MIN_WIDTH 3

static bool is_line_end(char c)
{
	return c == '\n' || c == '\r';
}

/* Bytes of the blank at @s[i] (i < len): ' ', '\t', U+00A0, 0xA0; or 0. */
static size_t blank_at(const char *s, size_t len, size_t i)
{
	unsigned char c = (unsigned char)s[i];

	if (c == ' ' || c == '\t' || c == 0xa0)
		return 1;
	if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] == 0xa0)
		return 2;
	return 0;
}

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_upper(c) || (c >= 'a' && c <= 'z') || is_digit(c);
}

static bool is_field_char(char c)
{
	return is_upper(c) || c == '-';
}

static bool is_quote(char c)
{
	return c == '\'' || c == '"' || c == '`';
}

/*
 * Length of the "Not tainted" marker at @s (the blank may be a U+00A0 or a
 * Latin-1 0xA0), or 0.
 */
static size_t not_tainted_at(const char *s, size_t len)
{
	size_t b;

	if (len < 11 || memcmp(s, "Not", 3) != 0)
		return 0;
	b = blank_at(s, len, 3);
	if (!b || s[3] == '\t' || len < 3 + b + 7 ||
	    memcmp(s + 3 + b, "tainted", 7) != 0)
		return 0;
	return 3 + b + 7;
}

/*
 * Is the '"' at @buf[q] the start of a JSON string value ("MESSAGE":"...",
 * or "MESSAGE" : "..." as journalctl -o json(-pretty) prints)?  Prose
 * quotes the marker; JSON log lines start their value with it.
 */
static bool json_value_at(const char *buf, size_t q)
{
	for (size_t i = q, n = 0; i > 0 && n < 4; i--, n++) {
		if (buf[i - 1] == ':')
			return true;
		if (buf[i - 1] != ' ')
			return false;
	}
	return false;
}

long taint__marker_at(const char *buf, size_t len, size_t a)
{
	size_t start, n;
	char prev;

	if (a >= 1 && buf[a - 1] == 'T' && a + TAINT_NEEDLE_LEN < len &&
	    buf[a + TAINT_NEEDLE_LEN] == ':') {
		start = a - 1;
	} else {
		/* "Not tainted": "ainted" is 5 bytes in, 6 with a U+00A0 */
		if (a >= 5 && (n = not_tainted_at(buf + a - 5, len - a + 5)))
			start = a - 5;
		else if (a >= 6 && (n = not_tainted_at(buf + a - 6, len - a + 6)))
			start = a - 6;
		else
			return -1;
		/* "Not tainted" must be a whole word; end of data is fine. */
		if (start + n < len &&
		    (is_alnum(buf[start + n]) || buf[start + n] == '_'))
			return -1;
	}
	if (start > 0) {
		prev = buf[start - 1];
		if (is_alnum(prev) || prev == '_')
			return -1;
		if (is_quote(prev) && !(prev == '"' && json_value_at(buf, start - 1)))
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

/* An unknown letter, with the name the verbose form printed (or none). */
static void add_unknown_letter(struct taint_field *f, char c,
			       const char *name, size_t name_len)
{
	size_t n = strlen(f->unknown_letters);

	if (strchr(f->unknown_letters, c) || n >= TAINT_UNKNOWN_LETTERS_MAX)
		return;
	f->unknown_letters[n] = c;
	f->unknown_letters[n + 1] = '\0';
	if (name_len > TAINT_NAME_MAX)
		name_len = TAINT_NAME_MAX;
	if (name_len)
		memcpy(f->unknown_names[n], name, name_len);
	f->unknown_names[n][name_len] = '\0';
}

static void add_letter(struct taint_field *f, char c, const char *name,
		       size_t name_len)
{
	const struct taint_flag_info *fi;

	if (c == 'G')
		return;
	fi = taint_flag_by_letter(c);
	if (fi)
		f->mask |= UINT64_C(1) << fi->bit;
	else
		add_unknown_letter(f, c, name, name_len);
}

/*
 * Decode the fixed-form characters @s[0..n) (field characters and blanks):
 * by position (one column per character, a U+00A0 included) if possible.
 */
static void decode_fixed(const char *s, size_t n, struct taint_field *f)
{
	uint64_t mask = 0;
	bool positional = true;
	size_t col = 0;

	for (size_t i = 0; i < n && positional; col++) {
		size_t b = blank_at(s, n, i);
		char c = s[i];

		i += b ? b : 1;
		if (b || c == '-' || (col == 0 && c == 'G'))
			continue;
		if (col < TAINT_KNOWN_FLAGS) {
			if (taint_flag_info((unsigned int)col)->letter != c)
				positional = false;
			else
				mask |= UINT64_C(1) << col;
		} else if (col < 64) {
			mask |= UINT64_C(1) << col;
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
			add_letter(f, s[i], NULL, 0);
}

/* "4.20.0-rc6", "3.1.0-0.rc9.git0.0.fc16.x86_64": digits, '.', a digit. */
static bool release_like(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && is_digit(s[i]))
		i++;
	return i > 0 && i + 1 < len && s[i] == '.' && is_digit(s[i + 1]);
}

/*
 * The fixed field at @s (just after "Tainted: "): store in *@endp the
 * bytes up to the end of its last word made of field characters.  A word
 * may be closed by ')' as in SLUB's "(Tainted: G    B)" or by '"' where the
 * field ends a JSON string (journalctl -o json); anything else ends the
 * field before that word.  Returns false if what follows cannot follow a
 * kernel's field (see the top of this file).
 */
static bool fixed_extent(const char *s, size_t len, size_t *endp)
{
	size_t i = 0, end = 0, col = 0;

	for (;;) {
		size_t b, t, tcol;

		while (i < len && (b = blank_at(s, len, i))) {
			i += b;
			col++;
		}
		if (i >= len || is_line_end(s[i]))
			break;
		t = i;
		tcol = col;
		while (i < len && is_field_char(s[i])) {
			i++;
			col++;
		}
		if (i < len && !is_line_end(s[i]) && !blank_at(s, len, i)) {
			if (s[i] == ')' || s[i] == '"') {
				if (i > t)
					end = i;
				break;
			}
			/* a word of other characters: the release, or prose */
			*endp = end;
			return tcol > FIXED_MIN_WIDTH ||
			       release_like(s + t, len - t);
		}
		end = i;
	}
	*endp = end;
	return true;
}

static bool verbose_entry_at(const char *s, size_t len, size_t i)
{
	return i + 3 < len && s[i] == '[' && is_upper(s[i + 1]) &&
	       s[i + 2] == ']' && s[i + 3] == '=';
}

static bool is_name_char(char c)
{
	return is_upper(c) || is_digit(c) || c == '_';
}

/*
 * @j is at the line end after a verbose list's trailing ','.  The next line
 * continues the list if it is complete and holds nothing before its first
 * entry but blanks and mail quote marks ('>', '|'): a line with its own
 * marker, a printk record ("[   12.3] ...", "<4>...") or any other text is
 * not a continuation, nor is one whose first entry has no name ("[W]=x").
 * Returns the offset of that entry, -1 if there is
 * none, -2 if @more data could decide.
 */
static long continuation_at(const char *s, size_t len, size_t j, bool more)
{
	size_t k, i;

	if (s[j] == '\r') {
		if (j + 1 == len && more)
			return -2;
		if (j + 1 < len && s[j + 1] == '\n')
			j++;
	}
	j++;
	for (k = j; k < len && !is_line_end(s[k]); k++)
		;
	if (k == len && more)
		return -2;
	for (i = j; i < k; ) {
		size_t b = blank_at(s, k, i);

		if (b)
			i += b;
		else if (s[i] == '>' || s[i] == '|')
			i++;
		else
			break;
	}
	/*
	 * an entry with a name: "[W]=" alone ends the list on the line
	 * before, and the text kept must not start past its end
	 */
	return verbose_entry_at(s, k, i) && i + 4 < k &&
	       is_name_char(s[i + 4]) ? (long)i : -1;
}

/*
 * Decode a verbose list starting with the entry at @s + @i.  Fills text
 * from @seg (the start of the text to keep: the marker, or the first entry)
 * and returns the offset just past the last entry, or -EAGAIN if @more
 * data is needed to tell whether the list continues on the next line.
 */
static long decode_verbose(const char *s, size_t len, size_t seg, size_t i,
			   struct taint_field *f, bool more)
{
	size_t last = i;

	f->format = TAINT_FORMAT_VERBOSE;
	while (verbose_entry_at(s, len, i)) {
		size_t name = i + 4, j, b;
		long next;

		j = name;
		while (j < len && is_name_char(s[j]))
			j++;
		if (j == name)
			break;
		add_letter(f, s[i + 1], s + name, j - name);
		last = j;
		if (j >= len || s[j] != ',')
			break;
		j++;
		while (j < len && (b = blank_at(s, len, j)))
			j += b;
		if (verbose_entry_at(s, len, j)) {
			i = j;
			continue;
		}
		if (j >= len && more)
			return -EAGAIN;
		if (j >= len || !is_line_end(s[j]))
			break;
		/* The list wraps: look for its next entry on the next line. */
		next = continuation_at(s, len, j, more);
		if (next == -2)
			return -EAGAIN;
		if (next < 0)
			break;
		text_append(f, s + seg, last + 1 - seg);
		text_append(f, " ", 1);
		seg = (size_t)next;
		i = (size_t)next;
		f->lines++;
	}
	text_append(f, s + seg, last - seg);
	return (long)last;
}

static void field_init(struct taint_field *f)
{
	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	f->lines = 1;
}

static void field_done(struct taint_field *f)
{
	f->mask_known = !f->tainted || (f->mask && !f->unknown_letters[0]);
}

int taint__parse_field(const char *s, size_t len, struct taint_field *f,
		       bool more)
{
	size_t body, i, end, n;
	long last;

	field_init(f);
	n = not_tainted_at(s, len);
	if (n) {
		f->format = TAINT_FORMAT_NOT_TAINTED;
		text_append(f, s, n);
		f->consumed = n;
		field_done(f);
		return 0;
	}
	if (len < TAINTED_LEN || memcmp(s, tainted_marker, TAINTED_LEN) != 0)
		return -EINVAL;
	if (more) {
		/* the marker's line must be complete */
		for (i = TAINTED_LEN; i < len && !is_line_end(s[i]); i++)
			;
		if (i == len)
			return -EAGAIN;
	}

	f->tainted = true;
	body = TAINTED_LEN;
	if (body < len && s[body] != '\t')
		body += blank_at(s, len, body);
	for (i = body; i < len && blank_at(s, len, i); i += blank_at(s, len, i))
		;
	if (verbose_entry_at(s, len, i)) {
		last = decode_verbose(s, len, 0, i, f, more);
		if (last < 0)
			return (int)last;
		f->consumed = (size_t)last;
		field_done(f);
		return 0;
	}
	f->format = TAINT_FORMAT_FIXED;
	if (!fixed_extent(s + body, len - body, &end))
		return -EINVAL;
	decode_fixed(s + body, end, f);
	if (end) {
		text_append(f, s, body + end);
		f->consumed = body + end;
	} else {
		text_append(f, s, TAINTED_LEN);
		f->consumed = TAINTED_LEN;
	}
	field_done(f);
	return 0;
}

int taint_parse_field(const char *s, size_t len, struct taint_field *f)
{
	if (taint__size_out(f->size, sizeof(*f)))
		return -EINVAL;
	return taint__parse_field(s, len, f, false);
}

int taint_parse_body(const char *s, size_t len, struct taint_field *f,
		     size_t *bad_at)
{
	size_t i = 0, end, j, b;

	if (taint__size_out(f->size, sizeof(*f)))
		return -EINVAL;
	field_init(f);
	f->tainted = true;
	while (i < len && ((b = blank_at(s, len, i)) || is_line_end(s[i])))
		i += b ? b : 1;
	if (verbose_entry_at(s, len, i)) {
		end = (size_t)decode_verbose(s, len, i, i, f, false);
	} else {
		f->format = TAINT_FORMAT_FIXED;
		for (j = i; j < len; ) {
			if (is_field_char(s[j])) {
				j++;
				continue;
			}
			b = blank_at(s, len, j);
			if (!b)
				break;
			j += b;
		}
		end = j;
		while (end > i && (s[end - 1] == ' ' || s[end - 1] == '\t' ||
				   (unsigned char)s[end - 1] == 0xa0)) {
			end--;
			if ((unsigned char)s[end] == 0xa0 && end > i &&
			    (unsigned char)s[end - 1] == 0xc2)
				end--;
		}
		decode_fixed(s + i, end - i, f);
		text_append(f, s + i, end - i);
	}
	for (j = end; j < len; j += b ? b : 1) {
		b = blank_at(s, len, j);
		if (!b && !is_line_end(s[j])) {
			if (bad_at)
				*bad_at = j;
			return -EINVAL;
		}
	}
	f->consumed = end;
	f->tainted = f->mask || f->unknown_letters[0];
	field_done(f);
	return 0;
}

long taint_find_field(const char *s, size_t len, struct taint_field *f)
{
	size_t from = 0;

	if (taint__size_out(f->size, sizeof(*f)))
		return -EINVAL;
	while (from < len) {
		const char *hit = memmem(s + from, len - from, TAINT_NEEDLE,
					 TAINT_NEEDLE_LEN);
		long start;

		if (!hit)
			break;
		start = taint__marker_at(s, len, (size_t)(hit - s));
		if (start >= 0 &&
		    taint__parse_field(s + start, len - (size_t)start, f,
				       false) == 0)
			return start;
		from = (size_t)(hit - s) + 1;
	}
	return -1;
}
