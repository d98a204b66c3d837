// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcoreinfo.c - the keys of a dump's VMCOREINFO note: lines KEY=VALUE as
 * the kernel's vmcoreinfo_append_str() writes them (kernel/vmcore_info.c):
 *   SYMBOL(name)=%lx     OFFSET(struct.member)=%lu   SIZE(name)=%lu
 *   LENGTH(name)=%lu     NUMBER(name)=%ld            OSRELEASE=%s
 * The first line of a key counts.  Numbers are read strictly: only the
 * digits of that form, no sign where there is none, no overflow.
 */
#include <errno.h>
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
