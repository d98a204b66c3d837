/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * origin.h - where a log line comes from (origin.c): the host of its
 * syslog or journal prefix and its printk timestamp, for the scanner's
 * hits.  Not installed.
 */
#ifndef TAINT_ORIGIN_H
#define TAINT_ORIGIN_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of a line's start that are looked at (the prefixes are short). */
#define TAINT_ORIGIN_SPAN 256
/* The longest host name taken (a DNS name's limit). */
#define TAINT_HOST_MAX 253

struct taint__origin {
	const char *host;	/* in the line; NULL: none */
	size_t host_len;
	int64_t stamp_us;	/* printk timestamp, microseconds; -1: none */
	size_t msg;		/* offset of the kernel's message in the line */
};

/*
 * The origin of the line @s (@n bytes from its start; only the first
 * TAINT_ORIGIN_SPAN are read).  A host is the word before "kernel:" after
 * a time stamp (syslog's "Dec  7 10:00:00 HOST kernel: ", journalctl's
 * short forms, ISO 8601 stamps); the printk timestamp is "[  300.123456]"
 * where the message starts (after that prefix or a console's "<4>"), or
 * the time of a /dev/kmsg record ("6,123,300123456,-;").
 */
void taint__line_origin(const char *s, size_t n, struct taint__origin *o);

/*
 * The kernel release in "Linux version RELEASE (..." at @s (@n bytes,
 * starting with "Linux version "), or in the word after a Tainted: field
 * (@s its first byte after the field) when it looks like one (a digit
 * first).  Returns its length (0: none) and sets *@rel.
 */
size_t taint__release_word(const char *s, size_t n, const char **rel);

#endif
