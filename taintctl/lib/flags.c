// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * flags.c - the table of kernel taint flags, bits 0 (P) to 19 (J).
 *
 * Names are the kernel's TAINT_* macro names without the prefix, as the
 * verbose "Tainted: [X]=NAME" form prints them; descriptions follow the
 * table in Documentation/admin-guide/tainted-kernels.rst.
 */
#include <errno.h>

#include "taint.h"

const char *taint_version(void)
{
	return TAINT_VERSION;
}

uint64_t taint_unknown_bits(uint64_t mask)
{
	return mask & ~TAINT_KNOWN_MASK;
}

static const struct taint_flag_info taint_flags[TAINT_KNOWN_FLAGS] = {
	{ 'P',  0, "PROPRIETARY_MODULE", "proprietary module was loaded" },
	{ 'F',  1, "FORCED_MODULE", "module was force loaded" },
	{ 'S',  2, "CPU_OUT_OF_SPEC",
	  "kernel running on an out of specification system" },
	{ 'R',  3, "FORCED_RMMOD", "module was force unloaded" },
	{ 'M',  4, "MACHINE_CHECK",
	  "processor reported a Machine Check Exception (MCE)" },
	{ 'B',  5, "BAD_PAGE",
	  "bad page referenced or some unexpected page flags" },
	{ 'U',  6, "USER", "taint requested by userspace application" },
	{ 'D',  7, "DIE", "kernel died recently, i.e. there was an OOPS or BUG" },
	{ 'A',  8, "OVERRIDDEN_ACPI_TABLE", "ACPI table overridden by user" },
	{ 'W',  9, "WARN", "kernel issued warning" },
	{ 'C', 10, "CRAP", "staging driver was loaded" },
	{ 'I', 11, "FIRMWARE_WORKAROUND",
	  "workaround for bug in platform firmware applied" },
	{ 'O', 12, "OOT_MODULE",
	  "externally-built (\"out-of-tree\") module was loaded" },
	{ 'E', 13, "UNSIGNED_MODULE", "unsigned module was loaded" },
	{ 'L', 14, "SOFTLOCKUP", "soft lockup occurred" },
	{ 'K', 15, "LIVEPATCH", "kernel has been live patched" },
	{ 'X', 16, "AUX", "auxiliary taint, defined for and used by distros" },
	{ 'T', 17, "RANDSTRUCT",
	  "kernel was built with the struct randomization plugin" },
	{ 'N', 18, "TEST", "an in-kernel test has been run" },
	{ 'J', 19, "FWCTL",
	  "userspace used a mutating debug operation in fwctl" },
};

const struct taint_flag_info *taint_flag_info(unsigned int bit)
{
	if (bit >= TAINT_KNOWN_FLAGS)
		return NULL;
	return &taint_flags[bit];
}

const struct taint_flag_info *taint_flag_by_letter(char letter)
{
	for (unsigned int i = 0; i < TAINT_KNOWN_FLAGS; i++)
		if (taint_flags[i].letter == letter)
			return &taint_flags[i];
	return NULL;
}

size_t taint_mask_letters(uint64_t mask, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return 0;
	for (unsigned int i = 0; i < TAINT_KNOWN_FLAGS && n + 1 < size; i++)
		if (mask & (UINT64_C(1) << i))
			buf[n++] = taint_flags[i].letter;
	buf[n] = '\0';
	return n;
}

int taint_letters_to_mask(const char *letters, uint64_t *mask, char *bad)
{
	uint64_t m = 0;

	for (const char *p = letters; *p; p++) {
		const struct taint_flag_info *fi;

		if (*p == 'G')
			continue;
		fi = taint_flag_by_letter(*p);
		if (!fi) {
			if (bad)
				*bad = *p;
			return -EINVAL;
		}
		m |= UINT64_C(1) << fi->bit;
	}
	*mask = m;
	return 0;
}

/* ASCII case-insensitive equality of @n bytes of @s with NUL-terminated @t */
static bool name_eq(const char *s, size_t n, const char *t)
{
	size_t i;

	for (i = 0; i < n && t[i]; i++) {
		char c = s[i];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c != t[i])
			return false;
	}
	return i == n && !t[i];
}

const struct taint_flag_info *taint_flag_by_name(const char *name, size_t len)
{
	if (len > 6 && name_eq(name, 6, "TAINT_")) {
		name += 6;
		len -= 6;
	}
	for (unsigned int i = 0; i < TAINT_KNOWN_FLAGS; i++)
		if (name_eq(name, len, taint_flags[i].name))
			return &taint_flags[i];
	return NULL;
}

int taint_flags_to_mask(const char *spec, uint64_t *mask, size_t *bad_at,
			size_t *bad_len)
{
	const char *p = spec;
	uint64_t m = 0;

	for (;;) {
		const struct taint_flag_info *fi;
		const char *item;
		size_t n;

		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		item = p;
		while (*p && *p != ',' && *p != ' ' && *p != '\t')
			p++;
		n = (size_t)(p - item);
		fi = taint_flag_by_name(item, n);
		if (fi) {
			m |= UINT64_C(1) << fi->bit;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			if (item[i] == 'G')
				continue;
			fi = taint_flag_by_letter(item[i]);
			if (!fi) {
				if (bad_at)
					*bad_at = (size_t)(item - spec);
				if (bad_len)
					*bad_len = n;
				return -EINVAL;
			}
			m |= UINT64_C(1) << fi->bit;
		}
	}
	*mask = m;
	return 0;
}
