// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcoreinfo.c - the keys of a dump's VMCOREINFO note: lines KEY=VALUE as
 * the kernel's vmcoreinfo_append_str() writes them (kernel/vmcore_info.c):
 *   SYMBOL(name)=%lx     OFFSET(struct.member)=%lu   SIZE(name)=%lu
 *   LENGTH(name)=%lu     NUMBER(name)=%ld            OSRELEASE=%s
 * and the taint log's whole-structure lines (kernel/taint_log.c):
 *   LAYOUT(name)=%zu field:%zu field:%zu[%zu] ...
 * The first line of a key counts, and in a LAYOUT() line the first field
 * of a name.  Numbers are read strictly: only the digits of that form, no
 * sign where there is none, no overflow.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chars.h"
#include "vmcore_internal.h"

const char *vmcoreinfo_text(const struct vmcore *vc, const char *key,
			    size_t *len)
{
	size_t klen = strlen(key);

	for (const char *line = vc->info; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);

		if (n > klen && memcmp(line, key, klen) == 0 &&
		    line[klen] == '=') {
			*len = n - klen - 1;
			return line + klen + 1;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

/* Digits of @base, the whole of [s, s + n), at most @max. */
static int parse_digits(const char *s, size_t n, unsigned int base,
			uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int d = taint_hex_digit(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		if (x > (max - (unsigned int)d) / base)
			return -EINVAL;
		x = x * base + (unsigned int)d;
	}
	*v = x;
	return 0;
}

static int number(const struct vmcore *vc, const char *key, unsigned int base,
		  uint64_t *v)
{
	size_t n;
	const char *s = vmcoreinfo_text(vc, key, &n);

	if (!s)
		return -ENOENT;
	return parse_digits(s, n, base, UINT64_MAX, v);
}

int vmcoreinfo_hex(const struct vmcore *vc, const char *key, uint64_t *v)
{
	return number(vc, key, 16, v);
}

int vmcoreinfo_unsigned(const struct vmcore *vc, const char *key,
			uint64_t *v)
{
	return number(vc, key, 10, v);
}

int vmcoreinfo_signed(const struct vmcore *vc, const char *key, int64_t *v)
{
	size_t n;
	const char *s = vmcoreinfo_text(vc, key, &n);
	bool neg;
	uint64_t x;
	int ret;

	if (!s)
		return -ENOENT;
	neg = n && s[0] == '-';
	ret = parse_digits(s + neg, n - neg, 10,
			   neg ? UINT64_C(1) << 63 : INT64_MAX, &x);
	if (ret)
		return ret;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

/* One decimal number at *@s, before @end, ending at a byte of @stops. */
static int layout_number(const char **s, const char *end, const char *stops,
			 uint64_t *v)
{
	const char *p = *s;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p < end && !strchr(stops, *p))
		return -EINVAL;
	if (parse_digits(*s, (size_t)(p - *s), 10, UINT64_MAX, v))
		return -EINVAL;
	*s = p;
	return 0;
}

int vmcoreinfo_layout(const struct vmcore *vc, const char *name,
		      const char *field, uint64_t *off, uint64_t *len)
{
	char key[80];
	size_t n;
	const char *s, *end;
	uint64_t size;
	bool found = false;

	snprintf(key, sizeof(key), "LAYOUT(%s)", name);
	s = vmcoreinfo_text(vc, key, &n);
	if (!s)
		return -ENOENT;
	end = s + n;
	if (layout_number(&s, end, " ", &size))
		return -EINVAL;
	if (!field) {
		*off = size;
		*len = 0;
	}
	/* Every field is checked, not only the one asked for. */
	while (s < end) {
		const char *f = ++s;	/* past the space */
		size_t flen;
		uint64_t o, l = 0;

		while (s < end && taint_ident_char(*s))
			s++;
		flen = (size_t)(s - f);
		if (!flen || s == end || *s != ':')
			return -EINVAL;
		s++;
		if (layout_number(&s, end, " [", &o))
			return -EINVAL;
		if (s < end && *s == '[') {
			s++;
			if (layout_number(&s, end, "]", &l) || s == end)
				return -EINVAL;
			s++;
			if (s < end && *s != ' ')
				return -EINVAL;
		}
		if (field && !found && strlen(field) == flen &&
		    !memcmp(field, f, flen)) {
			*off = o;
			*len = l;
			found = true;
		}
	}
	return field && !found ? -ENOENT : 0;
}
