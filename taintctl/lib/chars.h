/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chars.h - character classes shared by the parsers of libtaint (C locale,
 * whatever the program's locale is).
 */
#ifndef TAINT_CHARS_H
#define TAINT_CHARS_H

#include <stdbool.h>

/* The value of hexadecimal digit @c, or -1 if it is not one. */
static inline int taint_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether @c may be part of a C identifier (a VMCOREINFO name). */
static inline bool taint_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

#endif /* TAINT_CHARS_H */
