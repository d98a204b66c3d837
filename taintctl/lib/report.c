// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * report.c - the first lines of the kernel's reports, and the taint flags
 * the kernel sets for each (the scanner's TAINT_HIT_REPORT).
 *
 * The kernel sets a report's flag after it printed the report's own
 * "Tainted:" field: die() taints D in oops_end(), __warn() taints W after
 * the stack trace.  So the last report of a log never shows its own flag
 * in a field, and a reader that judged fields alone would pass a log whose
 * only oops is its last report.  The header says what happened:
 *
 *   WARNING: CPU: ... / WARNING: at ...   W   __warn()
 *   Oops: ..., Internal error: ...,       D   die() -> oops_end()
 *   general protection fault ...,
 *   kernel BUG at ...,
 *   BUG: kernel NULL pointer dereference,
 *   BUG: unable to handle ...
 *   BUG: soft lockup ...                  L   watchdog_timer_fn()
 *   BUG: KASAN: ..., BUG: KFENCE: ...,    B   end_report(), kfence_report_error(),
 *   BUG: Bad page state/map ...               bad_page(), print_bad_pte()
 *   BUG: scheduling while atomic,         W   __schedule_bug(),
 *   BUG: sleeping function called ...         __might_resched()
 *
 * Other headers are reports that set no flag: lockdep's "WARNING:
 * possible ..." lines, "BUG: KCSAN:", other "BUG:" lines, and "Kernel
 * panic - not syncing" (panic() sets no flag; what led to it has its own
 * header).
 */
#include <string.h>

#include "report.h"
#include "taint.h"

#define BIT(bit) (UINT64_C(1) << (bit))
#define W_BIT BIT(9)	/* TAINT_WARN */
#define D_BIT BIT(7)	/* TAINT_DIE */
#define L_BIT BIT(14)	/* TAINT_SOFTLOCKUP */
#define B_BIT BIT(5)	/* TAINT_BAD_PAGE */

/* The needles the scanner searches for (report.h). */
const char *const taint__report_needles[TAINT_REPORT_NEEDLES + 1] = {
	"WARNING: ", "Oops", "BUG", "general protection fault",
	"Internal error: ", "Kernel panic - not syncing", NULL,
};

static bool starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && !memcmp(s, p, k);
}

/* "BUG: " subtypes, after "BUG: " */
static const struct {
	const char *prefix;
	uint64_t flags;
} bugs[] = {
	{ "kernel NULL pointer dereference", D_BIT },
	{ "unable to handle ", D_BIT },
	{ "soft lockup", L_BIT },
	{ "KASAN: ", B_BIT },
	{ "KFENCE: ", B_BIT },
	{ "Bad page state", B_BIT },
	{ "Bad page map", B_BIT },
	{ "scheduling while atomic", W_BIT },
	{ "sleeping function called from invalid context", W_BIT },
};

/* "WARNING: " + "<file>:<line> at " (the form of newer kernels) */
static bool warn_file_line(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != ':' && s[i] != ' ')
		i++;
	if (!i || i >= n || s[i] != ':')
		return false;
	i++;
	if (i >= n || s[i] < '0' || s[i] > '9')
		return false;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return starts(s + i, n - i, " at ");
}

bool taint__report_header(const char *s, size_t n, uint64_t *flags)
{
	*flags = 0;
	if (starts(s, n, "WARNING: ")) {
		const char *t = s + 9;
		size_t m = n - 9;

		if (starts(t, m, "CPU: ") || starts(t, m, "at ") ||
		    warn_file_line(t, m))
			*flags = W_BIT;
		return true;
	}
	if (starts(s, n, "Oops: ") || starts(s, n, "Oops - ") ||
	    starts(s, n, "Oops#") || starts(s, n, "Internal error: ") ||
	    starts(s, n, "general protection fault") ||
	    starts(s, n, "kernel BUG at ")) {
		*flags = D_BIT;
		return true;
	}
	if (starts(s, n, "BUG: ")) {
		for (size_t i = 0; i < sizeof(bugs) / sizeof(bugs[0]); i++)
			if (starts(s + 5, n - 5, bugs[i].prefix))
				*flags = bugs[i].flags;
		return true;
	}
	return starts(s, n, "Kernel panic - not syncing");
}
