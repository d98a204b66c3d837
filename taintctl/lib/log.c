// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * log.c - parse /proc/sys/kernel/taint_log (docs/abi.md section 1.3,
 * build/wip/v2-abi.md).
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
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "chars.h"
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

enum field_id {
	F_TS, F_UTC, F_ORIGIN, F_FLAGS, F_NEW, F_PID, F_UID, F_COMM, F_AUID,
	F_MODULE, F_CALLER, F_REASON, F_NR, F_UNKNOWN = F_NR,
};

static const char *const field_names[F_NR] = {
	"ts", "utc", "origin", "flags", "new", "pid", "uid", "comm", "auid",
	"module", "caller", "reason",
};

#define REQUIRED_FIELDS ((1u << F_TS) | (1u << F_UTC) | (1u << F_ORIGIN) | \
			 (1u << F_FLAGS) | (1u << F_NEW) | (1u << F_PID) | \
			 (1u << F_UID) | (1u << F_COMM))

static enum field_id lookup_field(const char *key, size_t n)
{
	for (unsigned int i = 0; i < F_NR; i++)
		if (strlen(field_names[i]) == n &&
		    memcmp(field_names[i], key, n) == 0)
			return (enum field_id)i;
	return F_UNKNOWN;
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

static bool is_symbol_char(char c)
{
	return (unsigned char)c > 0x20 && (unsigned char)c < 0x7f &&
	       c != '"' && c != '\\' && c != '[' && c != ']';
}

static int parse_dropped(const char *line, size_t len, uint64_t *dropped,
			 const char **why)
{
	if (parse_uint(line + 8, len - 8, UINT64_MAX, dropped)) {
		*why = "bad dropped count";
		return -EINVAL;
	}
	return TAINT_LOG_DROPPED;
}

#define FAIL(msg) do { *why = (msg); return -EINVAL; } while (0)

int taint_log_parse_line(const char *line, size_t len, struct taint_event *ev,
			 uint64_t *dropped, const char **why)
{
	unsigned int seen = 0;
	size_t i = 0;

	if (taint__size_out(ev->size, sizeof(*ev)))
		FAIL("struct taint_event: .size smaller than the 1.0 layout");
	if (len >= 8 && memcmp(line, "dropped=", 8) == 0)
		return parse_dropped(line, len, dropped, why);

	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	if (len == 0)
		FAIL("empty line");
	while (i < len) {
		size_t k = i, v, vend, used;
		enum field_id id;
		uint64_t num;
		int ret;

		while (k < len && is_key_char(line[k]))
			k++;
		if (k == i || k >= len || line[k] != '=')
			FAIL("expected key=value");
		id = lookup_field(line + i, k - i);
		v = k + 1;
		if (id != F_UNKNOWN && (seen & (1u << id)))
			FAIL("duplicate field");

		if (id == F_COMM || id == F_REASON ||
		    (id == F_UNKNOWN && v < len && line[v] == '"')) {
			char junk[256];
			char *out = id == F_COMM ? ev->comm :
				    id == F_REASON ? ev->reason : junk;
			size_t size = id == F_COMM ? sizeof(ev->comm) :
				      id == F_REASON ? sizeof(ev->reason) :
				      sizeof(junk);
			size_t *olen = id == F_COMM ? &ev->comm_len :
				       &ev->reason_len;
			size_t junk_len;

			if (v >= len || line[v] != '"')
				FAIL(id == F_COMM ? "comm is not quoted" :
				     "reason is not quoted");
			ret = taint_unescape(line + v + 1, len - v - 1, out,
					     size, id == F_UNKNOWN ?
					     &junk_len : olen, &used);
			if (ret == -E2BIG)
				FAIL(id == F_COMM ? "comm too long" :
				     id == F_REASON ? "reason too long" :
				     "quoted value too long");
			if (ret)
				FAIL("bad quoted string (escape, control byte or missing quote)");
			vend = v + 1 + used;
		} else if (id == F_MODULE) {
			ret = unescape(line + v, len - v, true, ev->module,
				       sizeof(ev->module), &ev->module_len,
				       &used);
			if (ret == -E2BIG)
				FAIL("module too long");
			if (ret || used == 0)
				FAIL("bad module (empty, bad escape, quote or control byte)");
			vend = v + used;
		} else {
			vend = v;
			while (vend < len && line[vend] != ' ')
				vend++;
		}

		switch (id) {
		case F_TS:
			if (!valid_ts(line + v, vend - v))
				FAIL("bad ts (want <sec>.<usec>)");
			memcpy(ev->ts, line + v, vend - v);
			break;
		case F_UTC:
			if (!valid_utc(line + v, vend - v))
				FAIL("bad utc (want YYYY-MM-DDTHH:MM:SSZ or -)");
			memcpy(ev->utc, line + v, vend - v);
			break;
		case F_ORIGIN:
			if (vend - v == 6 && memcmp(line + v, "kernel", 6) == 0)
				ev->origin = TAINT_ORIGIN_KERNEL;
			else if (vend - v == 4 && memcmp(line + v, "user", 4) == 0)
				ev->origin = TAINT_ORIGIN_USER;
			else
				FAIL("bad origin (want kernel or user)");
			break;
		case F_FLAGS:
			if (parse_letters(line + v, vend - v, true, ev->flags,
					  &ev->flags_mask))
				FAIL("bad flags (want capital letters)");
			break;
		case F_NEW:
			if (parse_letters(line + v, vend - v, true,
					  ev->new_flags, &ev->new_mask))
				FAIL("bad new (want capital letters or -)");
			break;
		case F_PID:
			if (parse_uint(line + v, vend - v, INT32_MAX, &num))
				FAIL("bad pid");
			ev->pid = (uint32_t)num;
			break;
		case F_UID:
			if (parse_uint(line + v, vend - v, UINT32_MAX, &num))
				FAIL("bad uid");
			ev->uid = (uint32_t)num;
			break;
		case F_AUID:
			ev->has_auid = true;
			if (vend - v == 1 && line[v] == '-')
				break;
			if (parse_uint(line + v, vend - v, UINT32_MAX, &num))
				FAIL("bad auid (want a number or -)");
			ev->auid_set = true;
			ev->auid = (uint32_t)num;
			break;
		case F_MODULE:
			ev->has_module = true;
			break;
		case F_CALLER:
			for (size_t j = v; j < vend; j++)
				if (!is_symbol_char(line[j]))
					FAIL("bad caller");
			if (vend == v)
				FAIL("empty caller");
			/* optional " [module]" */
			if (vend + 1 < len && line[vend] == ' ' &&
			    line[vend + 1] == '[') {
				size_t j = vend + 2;

				while (j < len && is_symbol_char(line[j]))
					j++;
				if (j >= len || line[j] != ']' || j == vend + 2)
					FAIL("bad caller module");
				vend = j + 1;
			}
			if (vend - v > TAINT_CALLER_MAX)
				FAIL("caller too long");
			memcpy(ev->caller, line + v, vend - v);
			ev->has_caller = true;
			break;
		case F_REASON:
			ev->has_reason = true;
			break;
		case F_COMM:
			break;
		case F_UNKNOWN:
			if (!ev->unknown_fields++) {
				size_t n = k - i;

				if (n >= sizeof(ev->unknown_field))
					n = sizeof(ev->unknown_field) - 1;
				memcpy(ev->unknown_field, line + i, n);
			}
			break;
		}
		if (id != F_UNKNOWN)
			seen |= 1u << id;

		if (vend == len)
			break;
		if (line[vend] != ' ' || vend + 1 == len)
			FAIL("fields must be separated by single spaces");
		i = vend + 1;
	}
	if ((seen & REQUIRED_FIELDS) != REQUIRED_FIELDS) {
		for (unsigned int f = 0; f < F_NR; f++)
			if ((REQUIRED_FIELDS & (1u << f)) && !(seen & (1u << f))) {
				static const char *const missing[F_NR] = {
					"missing ts", "missing utc",
					"missing origin", "missing flags",
					"missing new", "missing pid",
					"missing uid", "missing comm",
				};
				FAIL(missing[f]);
			}
	}
	if (ev->has_reason && ev->origin != TAINT_ORIGIN_USER)
		FAIL("reason on a kernel event");
	if (ev->has_module && ev->origin != TAINT_ORIGIN_KERNEL)
		FAIL("module on a user event");
	return TAINT_LOG_EVENT;
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
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *why = NULL;
		uint64_t d;
		int ret;

		lineno++;
		ret = taint_log_parse_line(buf + i, end - i, &ev, &d, &why);
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
