// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_watch.c - `taintctl watch [--once] [--interval SECONDS] [--deny FLAGS]`:
 * print each new taint event as the kernel records it.
 *
 * tainted and taint_log are opened first, then read: that is the state
 * nothing is printed for.  Then, on each wake-up, both are read again and
 * what is new is printed, in the log's order, each item flushed at once:
 *   - an event line that was not there before (events are compared by
 *     what the kernel records when they happen, taint_event_same(), not
 *     by position: a slot the kernel claimed earlier may be published
 *     later, between lines already printed);
 *   - a flag that is newly set and has no event in the log (a stock
 *     kernel, which keeps no log; on a patched kernel the bit is set just
 *     before its event is published, so the log is read again a few times
 *     first);
 *   - a grown dropped= count (user requests the full log only counts).
 * Wake-ups: poll() for POLLPRI|POLLERR on the open files (docs/abi.md 1.6).
 * A kernel without that support never signals: until one signal has been
 * seen the files are also re-read every --interval (default 1 s), and a
 * change found that way without a signal means there is no support
 * (warned once, then it is just the interval).  Files that are not on
 * procfs (a --root tree) are re-read every --interval.  Falling back to
 * re-reading is said once on stderr, with the interval and why: at the
 * start for files not on procfs and for a kernel without a taint log (a
 * stock kernel, which never signals), else when the first change comes
 * without a signal.  Standard output holds only the items (JSON Lines).
 *
 * --deny FLAGS (check's FLAGS, flag_set.c): after printing an item that
 * sets a denied flag (an event whose flags= or new= has one, as check
 * --since judges events, or a flag set without an event), stop: exit 1,
 * so that a test runner can stop at the first disallowed event.
 *
 * Journal mode (--journal, or by default when standard output is the
 * journal: $JOURNAL_STREAM names it, journal_stream.c): each item is one
 * native journal entry instead of a line on standard output (nothing is
 * written there), MESSAGE the line, with the fields of journal_fields.c.
 * A taintctl built without libsystemd (journal_none.c) refuses --journal
 * (exit 2) and keeps printing lines when standard output is the journal.
 * An item the journal does not take (no journald: its socket missing, or
 * nobody listening there) is lost: said once, on stderr, when it happens;
 * watch goes on (journald may come back) and its exit status is then 3.
 * --json is JSON Lines on standard output: with --journal a usage error,
 * and it turns the automatic journal mode off.
 *
 * Exit: 0 after the first new item with --once, or on SIGINT/SIGTERM, or
 * when standard output's reader went away (EPIPE, not reported); 1 --deny:
 * a denied flag was set; 2 usage; 3 a file cannot be read, a write to
 * standard output failed, an item the journal did not take (also at the
 * end of a watch that went on after it; 1 still wins).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "journal.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* SECONDS: a decimal number, at most 3 decimals, 0.01 to 3600 */
static int parse_interval(const char *s, int *ms)
{
	long whole = 0, frac = 0;
	int i = 0, decimals = 0;

	if (!s[0])
		goto bad;
	for (; s[i] >= '0' && s[i] <= '9'; i++) {
		whole = whole * 10 + (s[i] - '0');
		if (whole > 3600)
			goto bad;
	}
	if (s[i] == '.') {
		for (i++; s[i] >= '0' && s[i] <= '9'; i++) {
			if (++decimals > 3)
				goto bad;
			frac = frac * 10 + (s[i] - '0');
		}
		if (!decimals)
			goto bad;
	} else if (!i) {
		goto bad;
	}
	if (s[i])
		goto bad;
	while (decimals++ < 3)
		frac *= 10;
	*ms = (int)(whole * 1000 + frac);
	if (*ms >= 10 && *ms <= 3600000)
		return EXIT_OK;
bad:
	cli_error("invalid interval '%s' (seconds, 0.01 to 3600, at most 3 decimals)",
		  cli_quote(s));
	return EXIT_USAGE;
}

struct state {
	uint64_t mask;
	struct event_list ev;
};

/* the new flags of all events of @l: bits whose first event is logged */
static uint64_t logged_bits(const struct event_list *l)
{
	const struct taint_event *ev;
	uint64_t m = 0;

	for (size_t i = 0; (ev = taint_log_get_event(l->log, i)); i++)
		m |= ev->new_mask;
	return m;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
		;
}

/* read mask and log into @st; EXIT_OK or EXIT_SYSTEM (reported) */
static int read_state(struct state *st, uint64_t old_mask, bool first)
{
	int rc = read_kernel_mask(&st->mask);

	if (rc)
		return rc;
	rc = first ? events_load(&st->ev, true) :
		     events_load_quiet(&st->ev, true);
	if (rc && !st->ev.malformed)
		return rc;
	/* a bit is set just before its event is published: give the
	 * kernel a moment before calling it a flag without an event */
	for (int i = 0; i < 10 && !st->ev.absent && !st->ev.read_error &&
	     (st->mask & ~old_mask & ~logged_bits(&st->ev)) && !first; i++) {
		sleep_ms(10);
		events_free(&st->ev);
		rc = events_load_quiet(&st->ev, true);
		if (rc && !st->ev.malformed)
			return rc;
	}
	return EXIT_OK;
}

/* @from's events in @to (which keeps its read_error): the same log */
static void keep_events(struct event_list *to, const struct event_list *from)
{
	taint_log_unref(to->log);
	to->log = taint_log_ref(from->log);
}

/* set when the reader of standard output went away (EPIPE): stop, exit 0 */
static bool reader_gone;
/* each item is a journal entry, not a line on standard output */
static bool to_journal;
/* items the journal did not take (said at the first) */
static unsigned long journal_lost;

/* flush each item at once; a failed write is reported here (EPIPE: the
 * reader went away, as util-linux, not reported) */
static bool flush_out(void)
{
	int err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	err = errno;
	if (cli_write_error(err) == EXIT_OK)
		reader_gone = true;
	return false;
}

/* the text line of @item, with its newline, to @f */
static void item_text(FILE *f, const struct journal_item *item)
{
	switch (item->kind) {
	case JOURNAL_EVENT:
		text_fprint_event(f, item->ev);
		break;
	case JOURNAL_FLAG:
		fputs("flag set, no taint_log event:", f);
		text_fprint_flag_line(f, item->bit);
		break;
	case JOURNAL_DROPPED:
		fprintf(f, "dropped: %" PRIu64 " more user request(s) not kept (log full; %" PRIu64 " in all)\n",
			item->count, item->total);
		break;
	}
}

/* @item as one journal entry: its text line (without the newline) is
 * MESSAGE.  An entry the journal does not take is counted in
 * journal_lost, said the first time, and watch goes on; false only for
 * what stops it (out of memory, said). */
static bool journal_item(struct journal_item *item)
{
	struct journal_fields f = { .n = 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err = -ENOMEM;

	if (mem) {
		item_text(mem, item);
		if (fclose(mem) == 0 && text) {
			item->message = text;
			item->message_len = len && text[len - 1] == '\n' ?
					    len - 1 : len;
			err = journal_fields_build(item, &f);
			if (!err)
				err = journal_send(&f);
		}
	}
	journal_fields_free(&f);
	free(text);
	if (err == -ENOMEM) {
		cli_error("cannot log to the journal: %s", strerror(-err));
		return false;
	}
	if (err && !journal_lost++) {
		if (err == -ENOENT)
			cli_warn("cannot log to the journal: no journal socket (%s): is systemd-journald running? Items are lost until it is (exit status 3)",
				 JOURNAL_SOCKET);
		else
			cli_warn("cannot log to the journal: %s (%s): items are lost until it takes them (exit status 3)",
				 strerror(-err), JOURNAL_SOCKET);
	}
	return true;
}

/* an item: a journal entry, a JSON line or a text line (flushed) */
static bool print_item(struct journal_item *item)
{
	if (to_journal)
		return journal_item(item);
	if (!cli.json)
		item_text(stdout, item);
	else if (item->kind == JOURNAL_EVENT)
		json_print_watch_event(item->ev);
	else if (item->kind == JOURNAL_FLAG)
		json_print_watch_flag(item->bit, item->mask);
	else
		json_print_watch_dropped(item->total, item->count);
	return flush_out();
}

/*
 * Print what @cur has that @old had not; *@printed counts the items.
 * false if a write failed.  *@denied: an item printed sets a flag of @deny
 * (nothing is printed after it).
 */
static bool print_new(const struct state *old, const struct state *cur,
		      uint64_t deny, bool *denied, unsigned int *printed)
{
	const struct taint_log *o = old->ev.log, *c = cur->ev.log;
	size_t o_count = taint_log_get_event_count(o);
	bool *seen = calloc(o_count ? o_count : 1, sizeof(*seen));
	uint64_t bits, logged = logged_bits(&cur->ev);
	uint64_t o_dropped = taint_log_get_dropped(o);
	uint64_t c_dropped = taint_log_get_dropped(c);
	const struct taint_event *ev;
	bool ok = true;

	*printed = 0;
	*denied = false;
	if (!seen) {
		cli_error("out of memory");
		return false;
	}
	for (size_t i = 0; ok && !*denied && (ev = taint_log_get_event(c, i));
	     i++) {
		bool known = false;

		/* fast path: the log only grew at its end */
		if (i < o_count && !seen[i] &&
		    taint_event_same(ev, taint_log_get_event(o, i))) {
			seen[i] = known = true;
		}
		for (size_t j = 0; j < o_count && !known; j++) {
			if (!seen[j] &&
			    taint_event_same(ev, taint_log_get_event(o, j)))
				seen[j] = known = true;
		}
		if (known)
			continue;
		*denied = ((ev->flags_mask | ev->new_mask) & deny) != 0;
		ok = print_item(&(struct journal_item){
			.kind = JOURNAL_EVENT, .ev = ev, .denied = *denied });
		++*printed;
	}
	free(seen);
	bits = cur->mask & ~old->mask & ~logged;
	for (unsigned int bit = 0; bit < 64 && ok && !*denied; bit++) {
		if (!(bits & (UINT64_C(1) << bit)))
			continue;
		*denied = (deny & (UINT64_C(1) << bit)) != 0;
		ok = print_item(&(struct journal_item){
			.kind = JOURNAL_FLAG, .bit = bit, .mask = cur->mask,
			.denied = *denied });
		++*printed;
	}
	if (ok && !*denied && c_dropped > o_dropped) {
		ok = print_item(&(struct journal_item){
			.kind = JOURNAL_DROPPED, .total = c_dropped,
			.count = c_dropped - o_dropped });
		++*printed;
	}
	return ok;
}

/*
 * Say once, at the start, that the files will be re-read every interval
 * when that is known already: files not on procfs (a --root tree), or a
 * kernel without a taint log (a stock kernel: no poll() support).  true if
 * said.  (A kernel with a log that does not signal is told later, at the
 * first change that came without a signal.)
 */
static bool fallback_notice(const struct taint_watch *w,
			    const struct event_list *ev, int interval_ms)
{
	char path[4096];

	taint_proc_path(cli.proc_root, "tainted", path, sizeof(path));
	if (taint_watch_support(w) == TAINT_POLL_NO) {
		cli_warn("'%s' is not on procfs (a copied tree), which cannot signal changes: re-reading every %d.%03d s",
			 path, interval_ms / 1000, interval_ms % 1000);
		return true;
	}
	if (ev->absent) {
		cli_warn("no taint_log: this kernel does not signal taint changes through poll(): re-reading '%s' every %d.%03d s",
			 path, interval_ms / 1000, interval_ms % 1000);
		return true;
	}
	return false;
}

static const struct option watch_options[] = {
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "interval", required_argument, NULL, 'n' },
	{ "deny", required_argument, NULL, 'd' },
	{ "journal", no_argument, NULL, OPT_JOURNAL },
	{ NULL, 0, NULL, 0 },
};

static int watch_run(int argc, char **argv)
{
	const char *interval = NULL, *deny_flags = NULL;
	uint64_t deny = 0;
	bool once = false, denied = false, told = false, journal = false;
	struct sigaction sa = { .sa_handler = on_signal };
	struct taint_watch *w = NULL;
	struct state old = { 0 }, cur = { 0 };
	int interval_ms = 1000, malformed = 0, log_error = 0, rc, ret;
	char path[4096];
	int c;

	while ((c = cli_getopt(argc, argv, &cmd_watch)) != -1) {
		switch (c) {
		case OPT_ONCE:
			once = true;
			break;
		case 'n':
			interval = optarg;
			break;
		case 'd':
			deny_flags = optarg;
			break;
		case OPT_JOURNAL:
			journal = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cli_no_operand(argc, argv, &cmd_watch))
		return EXIT_USAGE;
	if (interval && (rc = parse_interval(interval, &interval_ms)))
		return rc;
	if (deny_flags && (rc = cli_parse_flags("--deny", deny_flags, &deny)))
		return rc;
	if (journal && cli.json) {
		cli_error("watch: --journal and --json do not combine (the journal entry has its own fields)");
		return EXIT_USAGE;
	}
	if (journal && !journal_supported()) {
		cli_error("watch --journal: this taintctl was built without libsystemd (JOURNAL=no)");
		return EXIT_USAGE;
	}
	to_journal = journal || (!cli.json && journal_supported() &&
				 journal_stdout_is_journal());

	ret = taint_watch_open(cli.proc_root, &w, &log_error);
	if (ret) {
		taint_proc_path(cli.proc_root, "tainted", path, sizeof(path));
		cli_error("cannot open '%s': %s", path, strerror(-ret));
		return EXIT_SYSTEM;
	}
	if (log_error) {
		taint_proc_path(cli.proc_root, "taint_log", path, sizeof(path));
		cli_warn("cannot open '%s': %s (only newly set flags are shown)",
			 path, strerror(log_error));
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: poll() returns */
	sigaction(SIGTERM, &sa, NULL);

	rc = read_state(&old, 0, true);
	if (rc)
		goto out;
	malformed = old.ev.malformed;
	if (!flush_out()) {
		rc = reader_gone ? EXIT_OK : EXIT_SYSTEM;
		goto out;
	}
	told = fallback_notice(w, &old.ev, interval_ms);

	while (!stop) {
		enum taint_poll_support before = taint_watch_support(w);
		unsigned int printed;
		int signalled = taint_watch_wait(w, interval_ms);

		if (signalled == -EINTR)
			continue;
		if (signalled < 0) {
			cli_error("poll: %s", strerror(-signalled));
			rc = EXIT_SYSTEM;
			break;
		}
		rc = read_state(&cur, old.mask, false);
		if (rc)
			break;
		if (cur.ev.malformed > malformed) {
			taint_read_log_path(cli.proc_root, path, sizeof(path));
			cli_warn("'%s': %d malformed line(s) skipped (see 'taintctl log')",
				 path, cur.ev.malformed);
		}
		malformed = cur.ev.malformed;
		if (cur.ev.read_error && !old.ev.read_error) {
			taint_read_log_path(cli.proc_root, path, sizeof(path));
			cli_warn("cannot read '%s': %s (only newly set flags are shown)",
				 path, strerror(cur.ev.read_error));
		}
		/* a log that cannot be read now: keep what was printed, so
		 * that it is not printed again once it can be read */
		if (cur.ev.read_error)
			keep_events(&cur.ev, &old.ev);
		if (!print_new(&old, &cur, deny, &denied, &printed)) {
			rc = reader_gone ? EXIT_OK : EXIT_SYSTEM;
			break;
		}
		if (printed && !signalled && before == TAINT_POLL_UNKNOWN &&
		    taint_watch_changed(w) == TAINT_POLL_NO && !told)
			cli_warn("this kernel does not signal taint changes through poll(): re-reading every %d.%03d s",
				 interval_ms / 1000, interval_ms % 1000);
		events_free(&old.ev);
		old = cur;
		memset(&cur, 0, sizeof(cur));
		if (denied) {
			rc = EXIT_CHECK;
			break;
		}
		if (printed && once)
			break;
	}
out:
	/* entries lost: not a silent success (a denied flag's 1 still wins) */
	if (journal_lost && rc == EXIT_OK) {
		cli_error("%lu item(s) not logged to the journal", journal_lost);
		rc = EXIT_SYSTEM;
	}
	events_free(&old.ev);
	events_free(&cur.ev);
	taint_watch_close(w);
	return rc;
}

const struct taintctl_cmd cmd_watch = {
	.name = "watch",
	.run = watch_run,
	.options = watch_options,
	.shortopts = "n:d:",
	.usage =
"Usage:\n"
" taintctl [options] watch [--once] [--interval SECONDS] [--deny FLAGS]\n"
"                          [--journal]\n"
"\n"
"Print each new taint event as the kernel records it (events already in\n"
"the taint log when watch starts are not printed), each line flushed at\n"
"once; with --json, JSON Lines of the log --json event shape plus \"type\".\n"
"A newly set flag without a taint_log event (a stock kernel) and a grown\n"
"dropped count are printed too.  Waits with poll() on tainted and\n"
"taint_log; on a kernel that does not signal changes through poll() (stock\n"
"6.12), and for files that are not on procfs (--root), the files are\n"
"re-read every --interval (said once on stderr).\n"
"With --journal, and by default when standard output is the journal\n"
"($JOURNAL_STREAM), each item is a journal entry with the fields FLAG=,\n"
"ORIGIN=, TAINT_* (see taintctl(1), JOURNAL), nothing on standard output.\n"
"\n"
"Options:\n",
	.json = true,
	.root = true,
	.usage_options =
" -n, --interval SECONDS  re-read interval where poll() does not signal\n"
"                    (default 1; 0.01 to 3600)\n"
"     --once         exit after the first new event\n"
" -d, --deny FLAGS   exit 1 after printing the first new event that sets one\n"
"                    of FLAGS (letters or names, as check's; 'none': no flag)\n"
"     --journal      log each item to the journal natively (not with --json)\n",
	.usage_exit =
"\nExit status: 0 --once saw an event, or SIGINT/SIGTERM, or the reader of\n"
"standard output went away; 1 --deny: a new event set a denied flag;\n"
"2 usage error (also --journal in a taintctl built without libsystemd);\n"
"3 a file cannot be read, a write error on standard output, or an item\n"
"the journal did not take (no journald: said at the first, watch goes on).\n"
"\nFor more details see taintctl(1).\n",
};
