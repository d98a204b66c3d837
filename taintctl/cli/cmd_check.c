// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_check.c - `taintctl check [--allow FLAGS|--deny FLAGS]
 *                                [--value VALUE|--from FILE]`.
 *
 *   no option      any taint is disallowed
 *   --allow PWO    only these flags may be set (unknown bits are disallowed)
 *   --deny DU      these flags must not be set (unknown bits are allowed)
 * Letters of a --value/--from field that this version does not know (a
 * newer kernel's V) are judged as unknown bits are: they are set flags
 * whose bit is not known.  A gate must not pass them silently.
 * FLAGS are letters and/or flag names (taint_flags_to_mask()).
 * The mask judged is the running kernel's, or --value's, or the union of
 * the fields of the last boot in --from's log (taint only grows within a
 * boot, so that is what the kernel had at its last report; --every-boot:
 * of every boot), found by the scanner: streamed, decompressed, any size,
 * and only fields count (a word like DONE in a log is not a value).  A
 * --from file that holds one number is a copy of /proc/sys/kernel/tainted
 * (taint_parse_saved_mask(): also "kernel.tainted = N", CR LF, UTF-16).
 * Exit 0 if nothing disallowed is set, 1 otherwise.
 * --since CURSOR judges only what was set after the cursor (check_since()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "grow.h"

/* check's options */
struct check_opts {
	const char *allow;	/* -a, --allow FLAGS */
	const char *deny;	/* -d, --deny FLAGS */
	const char *value;	/* --value VALUE */
	const char *from;	/* --from FILE */
	const char *since;	/* --since CURSOR */
	bool every_boot;	/* --every-boot */
};

static const struct option check_options[] = {
	{ "allow", required_argument, NULL, 'a' },
	{ "deny", required_argument, NULL, 'd' },
	{ "value", required_argument, NULL, OPT_VALUE },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "every-boot", no_argument, NULL, OPT_EVERY_BOOT },
	{ NULL, 0, NULL, 0 },
};

/*
 * The bits of @mask that check's policy refuses: those outside @set with
 * --allow, those in @set with --deny, every set bit with neither.
 */
static uint64_t check_disallowed(const struct check_opts *opt, uint64_t set,
				 uint64_t mask)
{
	if (opt->allow)
		return mask & ~set;
	if (opt->deny)
		return mask & set;
	return mask;
}

/* add the unknown letters of @f (with their names) to @acc, once each */
static void add_unknown(struct taint_field *acc, const struct taint_field *f)
{
	size_t n = strlen(acc->unknown_letters);

	for (size_t i = 0; f->unknown_letters[i]; i++) {
		char c = f->unknown_letters[i];
		char *at = strchr(acc->unknown_letters, c);

		if (at) {	/* keep a name the verbose form printed */
			char *name = acc->unknown_names[at - acc->unknown_letters];

			if (!name[0])
				memcpy(name, f->unknown_names[i],
				       sizeof(f->unknown_names[i]));
			continue;
		}
		if (n == TAINT_UNKNOWN_LETTERS_MAX)
			break;
		acc->unknown_letters[n] = c;
		memcpy(acc->unknown_names[n], f->unknown_names[i],
		       sizeof(f->unknown_names[i]));
		acc->unknown_letters[++n] = '\0';
	}
}

/* --value VALUE: exactly one value */
static int mask_of_value(const char *value, uint64_t *mask,
			 bool *mask_unknown, struct taint_field *unknown)
{
	struct decoded_list l = { 0 };
	int rc = decode_text(NULL, value, strlen(value), &l);

	if (rc == EXIT_NOFIELD)		/* prose of several lines (said) */
		rc = EXIT_USAGE;
	if (rc == EXIT_OK && l.count != 1) {
		cli_error("--value takes one value ('%s' has %zu)",
			  cli_quote(value), l.count);
		rc = EXIT_USAGE;
	}
	if (rc == EXIT_OK) {
		*mask = l.v[0].mask;
		*mask_unknown = decoded_mask_unknown(&l.v[0]);
		if (l.v[0].field)
			add_unknown(unknown, l.v[0].field);
	}
	decoded_free(&l);
	return rc;
}

/*
 * --from FILE: what the scanner found in it, per host: a log gathered from
 * several machines (syslog, journalctl) names the host on each line
 * (struct taint_hit's @host), and each host is judged on its own.  The
 * boot judged is a host's last one, or all of them with --every-boot; its
 * mask is the union of what its lines show (taint only grows within a
 * boot, so that is what the kernel had at its last report).  A boot
 * starts at a "Linux version" banner, at journalctl's "-- Boot ID --"
 * (unless the host is already in that boot: a merged journal prints one
 * at each change of host), at the reboot after a panic (the scanner's),
 * and where a host's printk timestamps go back by more than STAMP_BACK
 * (records of several CPUs may come a little out of order).  A boot with
 * nothing in it yet takes the next boot line as its own, unless both are
 * banners: a separator or a reset, then its banner, are one boot.
 */
#define STAMP_BACK 1000000	/* microseconds */

struct host_judge {
	char name[256];		/* the host, NUL-terminated */
	bool named;		/* else: lines without a host */
	struct check_from r;	/* what is judged */
	uint64_t mask;		/* the union of what its lines show */
	struct taint_field unknown;	/* their unknown letters */
	int64_t last_stamp;	/* its last printk timestamp, -1: none */
	bool boot_empty;	/* nothing since its boot line */
	bool boot_banner;	/* that line was a banner */
	char boot_id[64];	/* journalctl's id of its boot, "" unknown */
};

struct from_scan {
	const char *file;
	bool every_boot;
	struct host_judge **j;	/* each host, in the order first seen */
	size_t n, cap;
	struct host_judge *last;	/* the last one looked up */
};

static bool judge_is(const struct host_judge *j, bool named, const char *host,
		     size_t len)
{
	return j->named == named &&
	       (!named || (strlen(j->name) == len && !memcmp(j->name, host, len)));
}

/*
 * The judge of @h's host.  While the log names at most one host, it is one
 * machine: lines without a host (a console's, a separator's) are that
 * machine's, and the first host named is its name.  Once a second host
 * appears, lines without one are judged apart ("(no host)").
 */
static struct host_judge *judge_of(struct from_scan *fs,
				   const struct taint_hit *h)
{
	bool named = h->host && h->host_len;
	size_t len = named ? h->host_len : 0;
	struct host_judge *j = fs->last;
	void *p;

	if (len >= sizeof(j->name))
		len = sizeof(j->name) - 1;
	if (fs->n == 1 && (!named || !fs->j[0]->named)) {
		j = fs->j[0];
		if (named && !j->named) {	/* the machine's name */
			memcpy(j->name, h->host, len);
			j->name[len] = '\0';
			j->named = true;
		}
		return fs->last = j;
	}
	if (j && judge_is(j, named, h->host, len))
		return j;
	for (size_t i = 0; i < fs->n; i++)
		if (judge_is(fs->j[i], named, h->host, len))
			return fs->last = fs->j[i];
	p = taint__grow(fs->j, fs->n, &fs->cap, sizeof(*fs->j), 4);
	if (!p)
		return NULL;
	fs->j = p;
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	memcpy(j->name, named ? h->host : "", len);
	j->name[len] = '\0';
	j->named = named;
	j->r.file = fs->file;
	j->r.every_boot = fs->every_boot;
	j->last_stamp = -1;
	fs->j[fs->n++] = j;
	return fs->last = j;
}

static void set_release(struct host_judge *j, const struct taint_hit *h)
{
	size_t n = h->release_len < CHECK_RELEASE ? h->release_len :
		   CHECK_RELEASE;

	if (!h->release || j->r.release[0])
		return;
	memcpy(j->r.release, h->release, n);
	j->r.release[n] = '\0';
}

/* A boot of @j starts at @h's line (a banner if @banner). */
static void boot_start(struct host_judge *j, const struct taint_hit *h,
		       bool banner)
{
	/* a separator or a reset, and its banner: one boot */
	if (j->boot_empty && !(banner && j->boot_banner)) {
		j->boot_banner = j->boot_banner || banner;
		set_release(j, h);
		return;
	}
	j->r.boots++;
	j->boot_empty = true;
	j->boot_banner = banner;
	if (j->r.every_boot) {
		j->r.release[0] = '\0';
		set_release(j, h);
		return;
	}
	j->r.earlier_mask |= j->mask;
	j->r.boot_line = h->line;
	j->r.release[0] = '\0';
	set_release(j, h);
	j->r.fields = 0;
	j->r.last_line = 0;
	j->r.reports = 0;
	j->r.events = 0;
	j->r.unknown_line = 0;
	memset(j->r.set_by, 0, sizeof(j->r.set_by));
	j->mask = 0;
	memset(j->unknown.unknown_letters, 0,
	       sizeof(j->unknown.unknown_letters));
}

/* "-- Boot ID --": is @j already in that boot? (else it is noted) */
static bool same_journal_boot(struct host_judge *j, const struct taint_hit *h)
{
	size_t n;

	if (h->text_len < 12 || memcmp(h->text, "-- Boot ", 8))
		return false;	/* "-- Reboot --" */
	n = h->text_len - 11;
	if (n >= sizeof(j->boot_id))
		n = sizeof(j->boot_id) - 1;
	if (strlen(j->boot_id) == n && !memcmp(j->boot_id, h->text + 8, n))
		return true;
	memcpy(j->boot_id, h->text + 8, n);
	j->boot_id[n] = '\0';
	return false;
}

/* the flags of @mask not shown before: shown first at @h's line */
static void set_by(struct host_judge *j, uint64_t mask,
		   const struct taint_hit *h, enum setter_kind kind)
{
	const char *text = h->field ? h->field->text : h->text;
	size_t len = h->field ? h->field->text_len : h->text_len;

	for (unsigned int bit = 0; bit < 64; bit++) {
		struct check_setter *st = &j->r.set_by[bit];
		size_t n;

		if (!(mask & (UINT64_C(1) << bit)) || st->line)
			continue;
		st->line = h->line;
		st->kind = kind;
		st->text[0] = '\0';
		if (text) {
			/* a control byte of the log never reaches the
			 * terminal as such */
			n = len < SETTER_TEXT ? len : SETTER_TEXT;
			for (size_t i = 0; i < n; i++) {
				unsigned char b = (unsigned char)text[i];

				st->text[i] = b < 0x20 || b == 0x7f ? '?' :
					      (char)b;
			}
			st->text[n] = '\0';
		}
	}
	j->mask |= mask;
}

/*
 * Each hit of the log, for its host: a boot starts the part judged again
 * (unless --every-boot); a Tainted: field's flags, the flags the kernel
 * sets for a report (it sets them after the report's own field: a log's
 * last WARN or oops shows its flag only in its header) and the flag of a
 * "Taint X:" event are what the log shows.
 */
static int from_hit(const struct taint_hit *h, void *arg)
{
	struct from_scan *fs = arg;
	struct host_judge *j = judge_of(fs, h);
	const struct taint_flag_info *fi;

	if (!j)
		return -ENOMEM;
	if (h->kind == TAINT_HIT_BOOT) {
		bool banner = h->text_len >= 14 &&
			      !memcmp(h->text, "Linux version ", 14);

		if (!same_journal_boot(j, h))
			boot_start(j, h, banner);
		j->last_stamp = h->stamp_us;
		return 0;
	}
	if (h->kind != TAINT_HIT_FIELD && h->kind != TAINT_HIT_EVENT &&
	    h->kind != TAINT_HIT_REPORT)
		return 0;
	/* the host's timestamps start again: it rebooted */
	if (h->stamp_us >= 0 && j->last_stamp >= 0 &&
	    h->stamp_us + STAMP_BACK < j->last_stamp)
		boot_start(j, h, false);
	if (h->stamp_us >= 0)
		j->last_stamp = h->stamp_us;
	j->boot_empty = false;
	switch (h->kind) {
	case TAINT_HIT_FIELD:
		j->r.fields++;
		j->r.last_line = h->line;
		/* taint only grows: the last field says what is known */
		j->r.unknown_line = h->field->tainted &&
				    !h->field->mask_known ? h->line : 0;
		set_by(j, h->field->mask, h, SET_BY_FIELD);
		add_unknown(&j->unknown, h->field);
		set_release(j, h);
		break;
	case TAINT_HIT_REPORT:
		j->r.reports++;
		set_by(j, h->flags, h, SET_BY_REPORT);
		break;
	default:
		j->r.events++;
		fi = taint_flag_by_letter(h->letter);
		if (fi)
			set_by(j, UINT64_C(1) << fi->bit, h, SET_BY_EVENT);
		break;
	}
	return 0;
}

static void from_scan_free(struct from_scan *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->j[i]);
	free(fs->j);
}

/*
 * The first bytes of @fd (up to @cap - 1), to tell a copy of
 * /proc/sys/kernel/tainted (one number) from a log.  A file is read with
 * pread() and left as it was; from a pipe the bytes are consumed and
 * @consumed says so (the scanner gets them as its prefix).  *@len is -1
 * after a read error (errno set).
 */
static ssize_t sniff(int fd, char *buf, size_t cap, bool *consumed,
		     bool *eof)
{
	off_t off = lseek(fd, 0, SEEK_CUR);
	size_t n = 0;

	*consumed = off < 0;
	*eof = false;
	while (n < cap - 1) {
		ssize_t r = *consumed ? read(fd, buf + n, cap - 1 - n) :
			    pread(fd, buf + n, cap - 1 - n, off + (off_t)n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r) {
			*eof = true;
			break;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

/* the judge of lines without a host, which a log without hits also gets */
static struct host_judge *unnamed_judge(struct from_scan *fs)
{
	static const struct taint_hit none;

	return judge_of(fs, &none);
}

static int mask_of_file(const char *path, bool every_boot,
			struct from_scan *fs)
{
	struct host_judge *j;
	uint64_t mask;
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "(standard input)" : path;
	struct taint_scan_opts so = { .size = sizeof(so), .hit = from_hit,
				      .arg = fs,
				      .flags = TAINT_SCAN_BOOTS |
					       TAINT_SCAN_EVENTS |
					       TAINT_SCAN_REPORTS };
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	char head[256];		/* "kernel.tainted = N" in UTF-16 fits */
	bool consumed, eof, shrank;
	ssize_t n;
	int fd, ret, rc = EXIT_OK;

	fs->file = path;
	fs->every_boot = every_boot;
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	n = sniff(fd, head, sizeof(head), &consumed, &eof);
	if (n < 0) {
		cli_error("cannot read '%s': %s", cli_quote(name),
			  strerror(errno));
		rc = EXIT_SYSTEM;
		goto out;
	}
	/* a copy of /proc/sys/kernel/tainted, or its sysctl line: one number
	 * (CR LF, blank lines, UTF-16 too: taint_parse_saved_mask()) */
	if (eof && !taint_parse_saved_mask(head, (size_t)n, &mask)) {
		j = unnamed_judge(fs);
		if (!j)
			goto oom;
		j->r.fields = 1;
		j->mask = mask;
		goto out;
	}
	if (consumed) {
		so.prefix = head;
		so.prefix_len = (size_t)n;
	}
#ifdef POSIX_FADV_SEQUENTIAL
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	ret = cli_scan_fd(fd, &so, &info, &shrank);
	if (shrank) {
		cli_error("'%s' shrank while it was read (truncated by another process, as logrotate's copytruncate does): not judged",
			  cli_quote(name));
		rc = EXIT_SYSTEM;
	} else if (ret) {
		cli_error("cannot read '%s': %s", cli_quote(name),
			  info.error[0] ? info.error : strerror(-ret));
		rc = EXIT_SYSTEM;
	}
	if (!rc && !fs->n && !unnamed_judge(fs))
		goto oom;
	for (size_t i = 0; i < fs->n; i++)
		fs->j[i]->r.host = fs->j[i]->named ? fs->j[i]->name : NULL;
out:
	if (!is_stdin)
		close(fd);
	return rc;
oom:
	cli_error("out of memory");
	rc = EXIT_SYSTEM;
	goto out;
}

/* check --since's answer as text */
static void text_since(const struct taint_cursor *c,
		       const struct snapshot *now,
		       const struct taint_window *w,
		       const struct taint_log *events, uint64_t bad)
{
	char letters[TAINT_KNOWN_FLAGS + 1];

	if (bad) {
		printf("FAIL: disallowed taint set since the cursor (mask %" PRIu64 ", was %" PRIu64 "):\n",
		       now->mask, c->mask);
		text_print_flag_lines(bad);
	} else if (w->set || w->dropped) {
		taint_mask_letters(w->set, letters, sizeof(letters));
		printf("ok: no disallowed taint since the cursor (mask %" PRIu64 ", was %" PRIu64 "; set since: %s%s)\n",
		       now->mask, c->mask, letters[0] ? letters : "",
		       taint_unknown_bits(w->set) ? " + unknown bits" : "");
	} else {
		printf("ok: nothing set since the cursor (mask %" PRIu64 ")\n",
		       now->mask);
	}
	if (w->set || w->dropped)
		printf("Since the cursor:\n");
	text_print_events(events, "  ");
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(w->without_event & (UINT64_C(1) << bit)))
			continue;
		fputs("  set, no taint_log event:", stdout);
		text_print_flag_line(bit);
	}
	if (w->dropped)
		printf("  %" PRIu64 " user request(s) counted but not kept (log full): their flags are not known\n",
		       w->dropped);
}

/*
 * check --since CURSOR: judge the window after the cursor (libtaint's
 * taint_log_since()): the flags newly set (mask now & ~mask then) and the
 * flags of the events recorded after it (a user request for U after the
 * cursor counts, even if U was set before); --allow/--deny as for the
 * mask.  It names who set them (the events).  A cursor that is malformed,
 * from another boot, or does not fit this log (fewer events, other events
 * at its start, a smaller dropped count, a bit of its mask clear now) is
 * exit 4.
 */
static int check_since(const struct check_opts *opt, uint64_t set)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	struct taint_window w = TAINT_INIT(struct taint_window);
	struct taint_log *events;
	struct snapshot now;
	const char *why;
	uint64_t bad;
	int rc, ret;

	/* an empty one: the "$(taintctl cursor)" that made it failed (as a
	 * user: the log is root's), which said why then */
	if (!opt->since[0]) {
		cli_error("the cursor is empty: the 'taintctl cursor' that should have printed it probably failed (it needs the taint log: run it as root)");
		return EXIT_CURSOR;
	}
	if (taint_cursor_parse(opt->since, &c)) {
		cli_error("invalid cursor '%s': not a cursor that 'taintctl cursor' printed",
			  cli_quote(opt->since));
		return EXIT_CURSOR;
	}
	rc = snapshot_take(&now);
	if (rc) {
		snapshot_free(&now);
		return rc;
	}
	ret = taint_log_since(now.ev.log, &c, now.boot_id, now.mask, &w,
			      &events, &why);
	if (ret == -ESTALE)
		cli_error("cursor is from another boot (boot id %s, this boot %s): its taint state is gone",
			  c.boot_id, now.boot_id);
	else if (ret == -EBADMSG)
		cli_error("cursor does not fit this kernel's taint log: %s", why);
	else if (ret)
		cli_error("%s", strerror(-ret));
	if (ret) {
		snapshot_free(&now);
		return ret == -ESTALE || ret == -EBADMSG ? EXIT_CURSOR :
		       EXIT_SYSTEM;
	}

	bad = check_disallowed(opt, set, w.set);
	if (cli.json)
		json_print_since(opt->since, &c, &now, &w, events, bad);
	else
		text_since(&c, &now, &w, events, bad);
	taint_log_unref(events);
	snapshot_free(&now);
	return bad ? EXIT_CHECK : EXIT_OK;
}

/*
 * One verdict as text, after @label ("HOST: " or ""): @bad_letters the
 * disallowed unknown letters (NULL: none), @unknown all of them, @fr what
 * --from judged (NULL: a value), @unknown_line a field that shows no flag.
 */
static void text_verdict(const char *label, uint64_t mask, uint64_t bad,
			 const struct taint_field *bad_letters,
			 const struct taint_field *unknown,
			 const struct check_from *fr, uint64_t unknown_line)
{
	char letters[TAINT_KNOWN_FLAGS + 1];

	fputs(label, stdout);
	if (unknown_line) {
		printf("FAIL: tainted, but the flags are not shown (mask unknown");
		if (fr)
			printf(": the last Tainted: field, line %" PRIu64,
			       unknown_line);
		puts("): not judged clean");
		if (mask)
			text_print_flag_lines_from(mask, fr);
	} else if (fr && !fr->fields && !mask) {
		printf("ok: no Tainted: field in '%s'", cli_quote(fr->file));
		text_print_check_scope(fr);
		putchar('\n');
	} else if (bad || bad_letters) {
		printf("FAIL: disallowed taint set (mask %" PRIu64 "):\n", mask);
		text_print_flag_lines_from(bad, fr);
		if (bad_letters)
			text_unknown_letter_lines(bad_letters);
	} else {
		taint_mask_letters(mask, letters, sizeof(letters));
		printf("ok: no disallowed taint (mask %" PRIu64 "%s%s", mask,
		       letters[0] ? ", " : "", letters);
		text_unknown_letters(unknown);
		puts(")");
	}
	if (fr && (fr->fields || mask))
		text_print_check_from(fr);
	if (fr && !fr->every_boot)
		text_print_earlier(fr);
}

/* --from's verdicts: one per host; exit 1 if any host fails */
static int judge_hosts(const struct check_opts *opt, uint64_t set,
		       struct from_scan *fs)
{
	static const struct taint_field none;
	struct check_verdict *v = calloc(fs->n, sizeof(*v));
	size_t failed = 0;

	if (!v) {
		cli_error("out of memory");
		return EXIT_SYSTEM;
	}
	for (size_t i = 0; i < fs->n; i++) {
		struct host_judge *j = fs->j[i];
		/* unknown letters, like unknown bits, fail --allow and pass
		 * --deny */
		bool bad_letters = !opt->deny && j->unknown.unknown_letters[0];

		v[i].mask = j->mask;
		v[i].bad = check_disallowed(opt, set, j->mask);
		v[i].bad_letters = bad_letters ? &j->unknown : &none;
		v[i].from = &j->r;
		/* "Tainted: G" shows no flag: unknown is not clean */
		v[i].unknown_line = j->r.unknown_line;
		if (v[i].bad || bad_letters || v[i].unknown_line)
			failed++;
	}
	if (cli.json && fs->n == 1) {
		json_print_check(v[0].mask, v[0].bad, v[0].bad_letters,
				 v[0].from, v[0].unknown_line);
	} else if (cli.json) {
		json_print_check_hosts(v, fs->n);
	} else if (fs->n == 1) {
		text_verdict("", v[0].mask, v[0].bad,
			     v[0].bad_letters[0].unknown_letters[0] ?
			     v[0].bad_letters : NULL, &fs->j[0]->unknown,
			     v[0].from, v[0].unknown_line);
	} else {
		if (failed)
			printf("FAIL: disallowed taint on %zu of %zu hosts in '%s'\n",
			       failed, fs->n, cli_quote(fs->file));
		else
			printf("ok: no disallowed taint on any of the %zu hosts in '%s'\n",
			       fs->n, cli_quote(fs->file));
		for (size_t i = 0; i < fs->n; i++) {
			char label[300];

			snprintf(label, sizeof(label), "%s: ",
				 fs->j[i]->named ?
				 cli_quote(fs->j[i]->name) : "(no host)");
			text_verdict(label, v[i].mask, v[i].bad,
				     v[i].bad_letters->unknown_letters[0] ?
				     v[i].bad_letters : NULL,
				     &fs->j[i]->unknown, v[i].from,
				     v[i].unknown_line);
		}
	}
	free(v);
	return failed ? EXIT_CHECK : EXIT_OK;
}

static int check_run(int argc, char **argv)
{
	struct check_opts opt = { 0 };
	struct from_scan fs = { 0 };
	static const struct taint_field none;
	/* unknown letters of --value fields; static: it is 1 KiB */
	static struct taint_field unknown;
	uint64_t mask, set = 0, bad;
	bool bad_letters, value_unknown = false;
	int c, rc;

	while ((c = cli_getopt(argc, argv, &cmd_check)) != -1) {
		switch (c) {
		case 'a':
			opt.allow = optarg;
			break;
		case 'd':
			opt.deny = optarg;
			break;
		case OPT_VALUE:
			opt.value = optarg;
			break;
		case OPT_FROM:
			opt.from = optarg;
			break;
		case OPT_SINCE:
			opt.since = optarg;
			break;
		case OPT_EVERY_BOOT:
			opt.every_boot = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cli_no_operand(argc, argv, &cmd_check))
		return EXIT_USAGE;
	if (opt.allow && opt.deny) {
		cli_error("--allow and --deny are mutually exclusive");
		return EXIT_USAGE;
	}
	if (opt.value && opt.from) {
		cli_error("--value and --from are mutually exclusive");
		return EXIT_USAGE;
	}
	if (opt.allow && (rc = cli_parse_flags("--allow", opt.allow, &set)))
		return rc;
	if (opt.deny && (rc = cli_parse_flags("--deny", opt.deny, &set)))
		return rc;
	if (opt.every_boot && !opt.from) {
		cli_error("--every-boot goes with --from (a log)");
		return EXIT_USAGE;
	}
	if (opt.since && (opt.value || opt.from)) {
		cli_error("--since judges the running kernel: it excludes --value and --from");
		return EXIT_USAGE;
	}
	if (opt.since)
		return check_since(&opt, set);
	if (opt.from) {
		rc = mask_of_file(opt.from, opt.every_boot, &fs);
		if (!rc)
			rc = judge_hosts(&opt, set, &fs);
		from_scan_free(&fs);
		return rc;
	}
	if (opt.value)
		rc = mask_of_value(opt.value, &mask, &value_unknown, &unknown);
	else
		rc = read_kernel_mask(&mask);
	if (rc)
		return rc;
	bad = check_disallowed(&opt, set, mask);
	/* unknown letters, like unknown bits, fail --allow and pass --deny */
	bad_letters = !opt.deny && unknown.unknown_letters[0];
	/* "Tainted: G" shows no flag: unknown is not clean, whatever FLAGS */
	if (cli.json)
		json_print_check(mask, bad, bad_letters ? &unknown : &none,
				 NULL, value_unknown);
	else
		text_verdict("", mask, bad, bad_letters ? &unknown : NULL,
			     &unknown, NULL, value_unknown);
	return bad || bad_letters || value_unknown ? EXIT_CHECK : EXIT_OK;
}

/* check: what FLAGS may be, with the table of flags */
static void print_check_flags(void)
{
	fputs("\nFLAGS are letters (PO), kernel flag names (PROPRIETARY_MODULE, any case),\n"
	      "or both, separated by commas or blanks; an item that is a name is read as\n"
	      "the name (DIE is the flag D, not D, I and E).  G is accepted and means nothing.\n"
	      "FLAGS without any flag (\"\") is an error; 'none' alone is the empty set on\n"
	      "purpose: --deny none denies nothing, --allow none allows nothing.\n",
	      stdout);
	for (unsigned int bit = 0; bit < TAINT_KNOWN_FLAGS; bit++) {
		const struct taint_flag_info *fi = taint_flag_info(bit);

		printf("   %c  %-21s %s\n", fi->letter, fi->name,
		       fi->description);
	}
}

const struct taintctl_cmd cmd_check = {
	.name = "check",
	.run = check_run,
	.options = check_options,
	.shortopts = "a:d:",
	.usage =
"Usage:\n"
" taintctl [options] check [--allow FLAGS | --deny FLAGS]\n"
"                          [--value VALUE | --from FILE [--every-boot] |\n"
"                           --since CURSOR]\n"
"\n"
"Exit 1 if a disallowed flag is set, else 0 (without --allow or --deny any\n"
"flag is disallowed).  Judges the running kernel, or a value, or a file,\n"
"or only what the kernel recorded after a cursor.\n"
"\n"
"Options:\n"
" -a, --allow FLAGS  only these flags may be set (unknown bits and letters\n"
"                    fail)\n"
" -d, --deny FLAGS   these flags must not be set (unknown bits and letters\n"
"                    pass)\n"
"     --value VALUE  judge VALUE (a number as decode reads it, or a\n"
"                    Tainted: field or letters) instead of the kernel\n"
"     --from FILE    judge FILE (- for standard input): a copy of\n"
"                    /proc/sys/kernel/tainted, or a log (any size; also\n"
"                    " CLI_COMPRESSED "): what its last boot shows\n"
"                    is taken together (Tainted: fields, the flags the\n"
"                    kernel sets for its reports: WARNING: W, Oops: D...,\n"
"                    Taint X: events), each flag named with its line;\n"
"                    a log of several hosts (syslog, journal) is judged\n"
"                    per host\n"
"     --every-boot   with --from: what every boot in the log shows\n"
"     --since CURSOR judge only the flags set and the events recorded after\n"
"                    CURSOR (printed by 'taintctl cursor'), and name who\n"
"                    set them\n",
	.json = true,
	.root = true,
	.usage_more = print_check_flags,
	.usage_exit =
"\nExit status: 0 nothing disallowed is set, 1 a disallowed flag is set,\n"
"2 usage error or invalid input, 3 permission or system error,\n"
"4 the --since cursor is malformed, from another boot, or does not fit\n"
"this kernel's taint log.\n"
"\nFor more details see taintctl(1).\n",
};
