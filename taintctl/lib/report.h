/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.h - the first lines of the kernel's reports (report.c), for the
 * scanner's TAINT_SCAN_REPORTS.  Not installed.
 */
#ifndef TAINT_REPORT_H
#define TAINT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the scanner searches for (NULL-terminated): each header starts
 * with one of these, or has "BUG" after "kernel " ("kernel BUG at"). */
#define TAINT_REPORT_NEEDLES 6
extern const char *const taint__report_needles[TAINT_REPORT_NEEDLES + 1];

/*
 * Is the message @s (@n bytes, its line without the newline) the first
 * line of a kernel report?  If so, *@flags are the taint flags the kernel
 * sets for it (0: none, e.g. a panic or a lockdep warning).
 */
bool taint__report_header(const char *s, size_t n, uint64_t *flags);

#endif
