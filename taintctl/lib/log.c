// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * log.c - parse /proc/sys/kernel/taint_log (docs/abi.md section 1.3; the
 * series' Documentation/ABI/testing/procfs-sys-kernel-taint).
 *
 *   ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77
 *   uid=0 auid=1000 comm="sh" reason="RTSJ physical memory access"
 *   ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=-
 *   comm="insmod" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30
 *   ts=1.000200 utc=- origin=kernel flags=O new=O pid=90 uid=0 auid=-
 *   comm="insmod" module=my\x20mod
 *   dropped=5
 *
 * (each event is one line).  Version 1 lines have no auid= and no module=;
 * their caller= may end in " [module]".  The parser is strict about the fields it knows
 * and tolerant of fields it does not (a newer kernel may add some): those
 * are counted in the event and reported as a warning, never dropped
 * silently.
 *
 * The fields are one table, fields[] below (name, type, required, where
 * the value goes in struct taint_event, the problems reported): the
 * parser reads a line with it, and the formatter, taint__log_format()
 * (vmcore.c's lines), writes one in its order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "chars.h"
#include "log_internal.h"
#include "taint.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Undo the kernel's escaping.  Quoted (@word false): @s is just after the
 * opening '"', the value ends at the closing '"', which is consumed.
 * Unquoted (@word true): the value ends at a blank or at the end of @s; a raw
 * '"' is an error there, as the escaper never leaves one.
 */
static int unescape(const char *s, size_t len, bool word, char *out,
		    size_t size, size_t *out_len, size_t *used)
{
	size_t i = 0, n = 0;

	for (;;) {
		char c;

		if (i >= len) {
			if (word)
				break;
			return -EINVAL;	/* no closing quote */
		}
		c = s[i];
		if (word && c == ' ')
			break;
		if (c == '"') {
			if (word)
				return -EINVAL;
			i++;
			break;
		}
		if (c == '\\') {
			if (i + 1 >= len)
				return -EINVAL;
			if (s[i + 1] == '\\' || s[i + 1] == '"') {
				c = s[i + 1];
				i += 2;
			} else if (s[i + 1] == 'x' && i + 3 < len &&
				   taint_hex_digit(s[i + 2]) >= 0 &&
				   taint_hex_digit(s[i + 3]) >= 0) {
				c = (char)(taint_hex_digit(s[i + 2]) * 16 +
					   taint_hex_digit(s[i + 3]));
				i += 4;
			} else {
				return -EINVAL;
			}
		} else if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e) {
			return -EINVAL;
		} else {
			i++;
		}
		if (n + 1 >= size)
			return -E2BIG;
		out[n++] = c;
	}
	out[n] = '\0';
	*out_len = n;
	*used = i;
	return 0;
}

int taint_unescape(const char *s, size_t len, char *out, size_t size,
		   size_t *out_len, size_t *used)
{
	return unescape(s, len, false, out, size, out_len, used);
}

static size_t escape(const char *s, size_t len, bool word, char *out,
		     size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[5];
		size_t k;

		if (c == '\\' || c == '"') {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			k = 2;
		} else if (c < 0x20 || c > 0x7e || (word && c == ' ')) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			k = 4;
		} else {
			tmp[0] = (char)c;
			k = 1;
		}
		for (size_t j = 0; j < k; j++, n++)
			if (n + 1 < size)
				out[n] = tmp[j];
	}
	if (size)
		out[n < size ? n : size - 1] = '\0';
	return n;
}

int taint__unescape_word(const char *s, size_t len, char *out, size_t size,
			 size_t *out_len)
{
	size_t used;
	int ret = unescape(s, len, true, out, size, out_len, &used);

	return ret ? ret : used == len ? 0 : -EINVAL;
}

size_t taint_escape(const char *s, size_t len, char *out, size_t size)
{
	return escape(s, len, false, out, size);
}

size_t taint_escape_word(const char *s, size_t len, char *out, size_t size)
{
	return escape(s, len, true, out, size);
}

/* Unsigned decimal of at most @max, the whole of [s, s + n). */
static int parse_uint(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (n == 0 || (n > 1 && s[0] == '0'))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -EINVAL;
		if (x > (max - (uint64_t)(s[i] - '0')) / 10)
			return -ERANGE;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* <sec>.<usec>: digits, a dot, exactly six digits. */
static bool valid_ts(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_digit(s[i]))
		i++;
	if (i == 0 || i > 20 || i + 7 != n || s[i] != '.')
		return false;
	for (i++; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

/* YYYY-MM-DDTHH:MM:SSZ or "-" */
static bool valid_utc(const char *s, size_t n)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";

	if (n == 1 && s[0] == '-')
		return true;
	if (n != sizeof(pat) - 1)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (pat[i] == 'd' ? !is_digit(s[i]) : s[i] != pat[i])
			return false;
	}
	return true;
}

/* Flag letters (capitals), or "-" for none when @dash_ok. */
static int parse_letters(const char *s, size_t n, bool dash_ok, char *out,
			 uint64_t *mask)
{
	uint64_t m = 0;

	if (dash_ok && n == 1 && s[0] == '-') {
		out[0] = '\0';
		*mask = 0;
		return 0;
	}
	if (n == 0 || n > 64)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		const struct taint_flag_info *fi;

		if (s[i] < 'A' || s[i] > 'Z')
			return -EINVAL;
		fi = taint_flag_by_letter(s[i]);
		if (fi)
			m |= UINT64_C(1) << fi->bit;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	*mask = m;
	return 0;
}

/*
 * The fields of an event line: one row each, in the order the kernel
 * prints them (format v2; taint.h and docs/abi.md 1.3 describe it).  The
 * parser takes them in any order, each at most once; the formatter
 * (taint__log_format(), for vmcore.c) writes them in this order.
 *
 * A row says how its value is read and written (@type), whether a line
 * must have it (@required; else @has is the bool of struct taint_event
 * that says the line has it), where the value goes in struct taint_event
 * (@at, @size: offsetof() and sizeof() of the member; @aux: the member
 * beside it, see struct value_type), the largest number (@max) and for
 * which origin only it may come (@only), and the problem reported for a
 * line that breaks each of these rules (NULL where a rule cannot be
 * broken).  The order of the rows is also the order in which missing
 * fields are reported.
 */
struct log_field;

struct value_type {
	/* the value that starts at @v: checked, stored, its end in *@end;
	 * 0 or -EINVAL with the problem in *@why */
	int (*read)(const struct log_field *f, const char *line, size_t v,
		    size_t len, size_t *end, struct taint_event *ev,
		    const char **why);
	/* the value as the kernel prints it */
	void (*write)(const struct log_field *f, const struct taint_event *ev,
		      taint__put_fn put, void *arg);
	/* TS, UTC: the whole value is valid */
	bool (*valid)(const char *s, size_t n);
};

enum only_origin { ANY_ORIGIN, KERNEL_ONLY, USER_ONLY };

struct log_field {
	const char *name;
	size_t name_len;
	const struct value_type *type;
	bool required;
	size_t has;
	size_t at, size, aux;
	uint64_t max;
	enum only_origin only;
	const char *bad;		/* a malformed value (quoted: unquoted) */
	const char *too_long;		/* longer than @size - 1 bytes */
	const char *missing;		/* @required, not there */
	const char *wrong_origin;	/* @only, on the other origin */
};

static int bad(const char **why, const char *msg)
{
	*why = msg;
	return -EINVAL;
}

static void *member(struct taint_event *ev, size_t at)
{
	return (char *)ev + at;
}

static const void *cmember(const struct taint_event *ev, size_t at)
{
	return (const char *)ev + at;
}

static size_t word_end(const char *line, size_t v, size_t len)
{
	while (v < len && line[v] != ' ')
		v++;
	return v;
}

static void put_str(taint__put_fn put, void *arg, const char *s)
{
	put(arg, s, strlen(s));
}

/* TS, UTC: text checked by type->valid, copied to @at */
static int read_checked(const struct log_field *f, const char *line,
			size_t v, size_t len, size_t *end,
			struct taint_event *ev, const char **why)
{
	*end = word_end(line, v, len);
	if (!f->type->valid(line + v, *end - v))
		return bad(why, f->bad);
	memcpy(member(ev, f->at), line + v, *end - v);
	return 0;
}

static void write_string(const struct log_field *f,
			 const struct taint_event *ev, taint__put_fn put,
			 void *arg)
{
	put_str(put, arg, cmember(ev, f->at));
}

/* ORIGIN: kernel or user, an enum taint_origin at @at */
static int read_origin(const struct log_field *f, const char *line, size_t v,
		       size_t len, size_t *end, struct taint_event *ev,
		       const char **why)
{
	enum taint_origin o;

	*end = word_end(line, v, len);
	if (*end - v == 6 && memcmp(line + v, "kernel", 6) == 0)
		o = TAINT_ORIGIN_KERNEL;
	else if (*end - v == 4 && memcmp(line + v, "user", 4) == 0)
		o = TAINT_ORIGIN_USER;
	else
		return bad(why, f->bad);
	memcpy(member(ev, f->at), &o, sizeof(o));
	return 0;
}

static void write_origin(const struct log_field *f,
			 const struct taint_event *ev, taint__put_fn put,
			 void *arg)
{
	enum taint_origin o;

	memcpy(&o, cmember(ev, f->at), sizeof(o));
	put_str(put, arg, o == TAINT_ORIGIN_USER ? "user" : "kernel");
}

/* LETTERS: flag letters or "-" at @at, their mask (uint64_t) at @aux */
static int read_letters(const struct log_field *f, const char *line,
			size_t v, size_t len, size_t *end,
			struct taint_event *ev, const char **why)
{
	uint64_t mask;

	*end = word_end(line, v, len);
	if (parse_letters(line + v, *end - v, true, member(ev, f->at), &mask))
		return bad(why, f->bad);
	memcpy(member(ev, f->aux), &mask, sizeof(mask));
	return 0;
}

static void write_letters(const struct log_field *f,
			  const struct taint_event *ev, taint__put_fn put,
			  void *arg)
{
	const char *s = cmember(ev, f->at);

	put_str(put, arg, s[0] ? s : "-");
}

/* NUMBER: decimal, at most @max, a uint32_t at @at */
static int read_number(const struct log_field *f, const char *line,
		       size_t v, size_t len, size_t *end,
		       struct taint_event *ev, const char **why)
{
	uint64_t num;
	uint32_t n32;

	*end = word_end(line, v, len);
	if (parse_uint(line + v, *end - v, f->max, &num))
		return bad(why, f->bad);
	n32 = (uint32_t)num;
	memcpy(member(ev, f->at), &n32, sizeof(n32));
	return 0;
}

static void write_number(const struct log_field *f,
			 const struct taint_event *ev, taint__put_fn put,
			 void *arg)
{
	char buf[16];
	uint32_t n32;

	memcpy(&n32, cmember(ev, f->at), sizeof(n32));
	put(arg, buf, (size_t)snprintf(buf, sizeof(buf), "%" PRIu32, n32));
}

/* NUMBER_OR_DASH: the same, or "-" (none); the bool at @aux: a number */
static int read_number_or_dash(const struct log_field *f, const char *line,
			       size_t v, size_t len, size_t *end,
			       struct taint_event *ev, const char **why)
{
	int ret;

	if (word_end(line, v, len) - v == 1 && line[v] == '-') {
		*end = v + 1;
		return 0;
	}
	ret = read_number(f, line, v, len, end, ev, why);
	if (!ret)
		*(bool *)member(ev, f->aux) = true;
	return ret;
}

static void write_number_or_dash(const struct log_field *f,
				 const struct taint_event *ev,
				 taint__put_fn put, void *arg)
{
	if (*(const bool *)cmember(ev, f->aux))
		write_number(f, ev, put, arg);
	else
		put(arg, "-", 1);
}

/* QUOTED: "escaped" at @at (@size bytes), its length (size_t) at @aux */
static int read_quoted(const struct log_field *f, const char *line, size_t v,
		       size_t len, size_t *end, struct taint_event *ev,
		       const char **why)
{
	size_t used;
	int ret;

	if (v >= len || line[v] != '"')
		return bad(why, f->bad);
	ret = unescape(line + v + 1, len - v - 1, false, member(ev, f->at),
		       f->size, member(ev, f->aux), &used);
	if (ret == -E2BIG)
		return bad(why, f->too_long);
	if (ret)
		return bad(why, "bad quoted string (escape, control byte or missing quote)");
	*end = v + 1 + used;
	return 0;
}

/* @f's bytes at @at, @aux long, escaped (@word: unquoted) */
static void put_escaped(const struct log_field *f,
			const struct taint_event *ev, bool word,
			taint__put_fn put, void *arg)
{
	char buf[4 * TAINT_REASON_MAX + 1];
	size_t n;

	memcpy(&n, cmember(ev, f->aux), sizeof(n));
	n = escape(cmember(ev, f->at), n, word, buf, sizeof(buf));
	put(arg, buf, n < sizeof(buf) ? n : sizeof(buf) - 1);
}

static void write_quoted(const struct log_field *f,
			 const struct taint_event *ev, taint__put_fn put,
			 void *arg)
{
	put(arg, "\"", 1);
	put_escaped(f, ev, false, put, arg);
	put(arg, "\"", 1);
}

/* WORD: escaped without quotes (a blank too), not empty; like QUOTED */
static int read_word(const struct log_field *f, const char *line, size_t v,
		     size_t len, size_t *end, struct taint_event *ev,
		     const char **why)
{
	size_t used;
	int ret = unescape(line + v, len - v, true, member(ev, f->at),
			   f->size, member(ev, f->aux), &used);

	if (ret == -E2BIG)
		return bad(why, f->too_long);
	if (ret || used == 0)
		return bad(why, f->bad);
	*end = v + used;
	return 0;
}

static void write_word(const struct log_field *f,
		       const struct taint_event *ev, taint__put_fn put,
		       void *arg)
{
	put_escaped(f, ev, true, put, arg);
}

static bool is_symbol_char(char c)
{
	return (unsigned char)c > 0x20 && (unsigned char)c < 0x7f &&
	       c != '"' && c != '\\' && c != '[' && c != ']';
}

/* CALLER: symbol+0xoff/0xsize, in v1 lines maybe " [module]" after it */
static int read_caller(const struct log_field *f, const char *line, size_t v,
		       size_t len, size_t *end, struct taint_event *ev,
		       const char **why)
{
	size_t e = word_end(line, v, len);

	for (size_t j = v; j < e; j++)
		if (!is_symbol_char(line[j]))
			return bad(why, f->bad);
	if (e == v)
		return bad(why, "empty caller");
	if (e + 1 < len && line[e] == ' ' && line[e + 1] == '[') {
		size_t j = e + 2;

		while (j < len && is_symbol_char(line[j]))
			j++;
		if (j >= len || line[j] != ']' || j == e + 2)
			return bad(why, "bad caller module");
		e = j + 1;
	}
	if (e - v > f->size - 1)
		return bad(why, f->too_long);
	memcpy(member(ev, f->at), line + v, e - v);
	*end = e;
	return 0;
}

static const struct value_type TS = { read_checked, write_string, valid_ts };
static const struct value_type UTC = { read_checked, write_string, valid_utc };
static const struct value_type ORIGIN = { read_origin, write_origin, NULL };
static const struct value_type LETTERS = { read_letters, write_letters, NULL };
static const struct value_type NUMBER = { read_number, write_number, NULL };
static const struct value_type NUMBER_OR_DASH = { read_number_or_dash,
						  write_number_or_dash, NULL };
static const struct value_type QUOTED = { read_quoted, write_quoted, NULL };
static const struct value_type WORD = { read_word, write_word, NULL };
static const struct value_type CALLER = { read_caller, write_string, NULL };

#define NAME(s)		.name = (s), .name_len = sizeof(s) - 1
#define VALUE(m)	.at = offsetof(struct taint_event, m), \
			.size = sizeof(((struct taint_event *)0)->m)
#define AUX(m)		.aux = offsetof(struct taint_event, m)
#define OPTIONAL(m)	.required = false, .has = offsetof(struct taint_event, m)

static const struct log_field fields[] = {
	{ NAME("ts"), .type = &TS, .required = true, VALUE(ts),
	  .bad = "bad ts (want <sec>.<usec>)", .missing = "missing ts" },
	{ NAME("utc"), .type = &UTC, .required = true, VALUE(utc),
	  .bad = "bad utc (want YYYY-MM-DDTHH:MM:SSZ or -)",
	  .missing = "missing utc" },
	{ NAME("origin"), .type = &ORIGIN, .required = true, VALUE(origin),
	  .bad = "bad origin (want kernel or user)",
	  .missing = "missing origin" },
	{ NAME("flags"), .type = &LETTERS, .required = true, VALUE(flags),
	  AUX(flags_mask), .bad = "bad flags (want capital letters)",
	  .missing = "missing flags" },
	{ NAME("new"), .type = &LETTERS, .required = true, VALUE(new_flags),
	  AUX(new_mask), .bad = "bad new (want capital letters or -)",
	  .missing = "missing new" },
	{ NAME("pid"), .type = &NUMBER, .required = true, VALUE(pid),
	  .max = INT32_MAX, .bad = "bad pid", .missing = "missing pid" },
	{ NAME("uid"), .type = &NUMBER, .required = true, VALUE(uid),
	  .max = UINT32_MAX, .bad = "bad uid", .missing = "missing uid" },
	{ NAME("auid"), .type = &NUMBER_OR_DASH, OPTIONAL(has_auid),
	  VALUE(auid), AUX(auid_set), .max = UINT32_MAX,
	  .bad = "bad auid (want a number or -)" },
	{ NAME("comm"), .type = &QUOTED, .required = true, VALUE(comm),
	  AUX(comm_len), .bad = "comm is not quoted",
	  .too_long = "comm too long", .missing = "missing comm" },
	{ NAME("module"), .type = &WORD, OPTIONAL(has_module), VALUE(module),
	  AUX(module_len), .only = KERNEL_ONLY,
	  .bad = "bad module (empty, bad escape, quote or control byte)",
	  .too_long = "module too long",
	  .wrong_origin = "module on a user event" },
	{ NAME("caller"), .type = &CALLER, OPTIONAL(has_caller),
	  VALUE(caller), .bad = "bad caller", .too_long = "caller too long" },
	{ NAME("reason"), .type = &QUOTED, OPTIONAL(has_reason),
	  VALUE(reason), AUX(reason_len), .only = USER_ONLY,
	  .bad = "reason is not quoted", .too_long = "reason too long",
	  .wrong_origin = "reason on a kernel event" },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* NUMBER stores a uint32_t; LETTERS' mask is a uint64_t; the lengths of
 * QUOTED and WORD are size_t; OPTIONAL()'s and NUMBER_OR_DASH's are bool */
_Static_assert(sizeof(((struct taint_event *)0)->pid) == sizeof(uint32_t) &&
	       sizeof(((struct taint_event *)0)->uid) == sizeof(uint32_t) &&
	       sizeof(((struct taint_event *)0)->auid) == sizeof(uint32_t),
	       "NUMBER fields are uint32_t");
_Static_assert(NFIELDS <= 32, "struct parse's seen is a 32-bit mask");

static const struct log_field *lookup_field(const char *key, size_t n)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].name_len == n &&
		    memcmp(fields[i].name, key, n) == 0)
			return &fields[i];
	return NULL;
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

/* A field this version does not know: its value skipped (quoted or a
 * word), counted, the first one named. */
static int skip_unknown(const char *line, size_t k0, size_t k, size_t len,
			size_t *end, struct taint_event *ev, const char **why)
{
	size_t v = k + 1;

	if (v < len && line[v] == '"') {
		char junk[256];
		size_t junk_len, used;
		int ret = unescape(line + v + 1, len - v - 1, false, junk,
				   sizeof(junk), &junk_len, &used);

		if (ret == -E2BIG)
			return bad(why, "quoted value too long");
		if (ret)
			return bad(why, "bad quoted string (escape, control byte or missing quote)");
		*end = v + 1 + used;
	} else {
		*end = word_end(line, v, len);
	}
	if (!ev->unknown_fields++) {
		size_t n = k - k0;

		if (n >= sizeof(ev->unknown_field))
			n = sizeof(ev->unknown_field) - 1;
		memcpy(ev->unknown_field, line + k0, n);
	}
	return 0;
}

/* After the last field: the required ones, the origin of the others. */
static int check_event(const struct taint_event *ev, uint32_t seen,
		       const char **why)
{
	for (size_t f = 0; f < NFIELDS; f++)
		if (fields[f].required && !(seen & (UINT32_C(1) << f)))
			return bad(why, fields[f].missing);
	for (size_t f = 0; f < NFIELDS; f++) {
		enum taint_origin want = fields[f].only == KERNEL_ONLY ?
					 TAINT_ORIGIN_KERNEL :
					 TAINT_ORIGIN_USER;

		if (fields[f].only != ANY_ORIGIN && (seen & (UINT32_C(1) << f)) &&
		    ev->origin != want)
			return bad(why, fields[f].wrong_origin);
	}
	return TAINT_LOG_EVENT;
}

static int parse_dropped(const char *line, size_t len, uint64_t *dropped,
			 const char **why)
{
	if (parse_uint(line + 8, len - 8, UINT64_MAX, dropped))
		return bad(why, "bad dropped count");
	return TAINT_LOG_DROPPED;
}

int taint_log_parse_line(const char *line, size_t len, struct taint_event *ev,
			 uint64_t *dropped, const char **why)
{
	uint32_t seen = 0;
	size_t i = 0;

	if (taint__size_out(ev->size, sizeof(*ev)))
		return bad(why, "struct taint_event: .size smaller than the 1.0 layout");
	if (len >= 8 && memcmp(line, "dropped=", 8) == 0)
		return parse_dropped(line, len, dropped, why);

	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	if (len == 0)
		return bad(why, "empty line");
	for (;;) {
		size_t k = i, vend = 0;
		const struct log_field *f;
		uint32_t bit;
		int ret;

		while (k < len && is_key_char(line[k]))
			k++;
		if (k == i || k >= len || line[k] != '=')
			return bad(why, "expected key=value");
		f = lookup_field(line + i, k - i);
		if (!f) {
			ret = skip_unknown(line, i, k, len, &vend, ev, why);
			if (ret)
				return ret;
		} else {
			bit = UINT32_C(1) << (f - fields);
			if (seen & bit)
				return bad(why, "duplicate field");
			ret = f->type->read(f, line, k + 1, len, &vend, ev,
					    why);
			if (ret)
				return ret;
			if (!f->required)
				*(bool *)member(ev, f->has) = true;
			seen |= bit;
		}
		if (vend == len)
			break;
		if (line[vend] != ' ' || vend + 1 == len)
			return bad(why, "fields must be separated by single spaces");
		i = vend + 1;
	}
	return check_event(ev, seen, why);
}

void taint__log_format(const struct taint_event *ev, taint__put_fn put,
		       void *arg)
{
	for (size_t f = 0; f < NFIELDS; f++) {
		if (!fields[f].required &&
		    !*(const bool *)cmember(ev, fields[f].has))
			continue;
		if (f)
			put(arg, " ", 1);
		put(arg, fields[f].name, fields[f].name_len);
		put(arg, "=", 1);
		fields[f].type->write(&fields[f], ev, put, arg);
	}
}

int taint_log_parse(const char *buf, size_t len,
		    const struct taint_log_ops *ops, void *arg,
		    uint64_t *dropped)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	unsigned int lineno = 0;
	bool seen_dropped = false;
	int bad = 0, r;
	size_t i = 0;

	*dropped = 0;
	r = taint__size_in(ops, ops->size, sizeof(*ops));
	if (r)
		return r;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len, text_end = end;
		const char *why = NULL;
		uint64_t d;
		int ret;

		lineno++;
		/* CR LF: a copy saved on Windows or through an editor (the
		 * kernel escapes a CR in a value, so one is never text) */
		if (text_end > i && buf[text_end - 1] == '\r')
			text_end--;
		/* a recorder's note (record.c): neither event nor problem */
		if (text_end - i >= sizeof(TAINT__RECORD_NOTE) - 1 &&
		    !memcmp(buf + i, TAINT__RECORD_NOTE,
			    sizeof(TAINT__RECORD_NOTE) - 1)) {
			i = end + 1;
			continue;
		}
		ret = taint_log_parse_line(buf + i, text_end - i, &ev, &d, &why);
		i = end + 1;
		if (ret > 0 && seen_dropped) {
			ret = -EINVAL;
			why = "line after the dropped= line";
		}
		if (ret == TAINT_LOG_DROPPED) {
			*dropped = d;
			seen_dropped = true;
			continue;
		}
		if (ret < 0) {
			bad++;
			if (ops->problem)
				ops->problem(lineno, true, why, arg);
			continue;
		}
		if (ev.unknown_fields && ops->problem) {
			char msg[96];

			snprintf(msg, sizeof(msg), "unknown field '%s'%s",
				 ev.unknown_field,
				 ev.unknown_fields > 1 ? " (and more)" : "");
			ops->problem(lineno, false, msg, arg);
		}
		ret = ops->event(&ev, lineno, arg);
		if (ret)
			return ret < 0 ? ret : -ECANCELED;
	}
	return bad;
}
