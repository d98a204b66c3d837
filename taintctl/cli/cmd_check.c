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
 * --from FILE: what the scanner found in it.  The boot judged is the last
 * one (a "Linux version" line or journalctl's "-- Boot ID --" starts one),
 * or all of them with --every-boot; its mask is the union of its fields
 * (taint only grows within a boot, so that is what the kernel had at its
 * last report).
 */
struct from_scan {
	struct check_from r;	/* what is judged */
	uint64_t mask;		/* the union of its fields */
	struct taint_field *unknown;	/* their unknown letters */
};

/* the flags of @mask not shown before: shown first at @h's line */
static void set_by(struct from_scan *fs, uint64_t mask,
		   const struct taint_hit *h, enum setter_kind kind)
{
	const char *text = h->field ? h->field->text : h->text;
	size_t len = h->field ? h->field->text_len : h->text_len;

	for (unsigned int bit = 0; bit < 64; bit++) {
		struct check_setter *st = &fs->r.set_by[bit];
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
	fs->mask |= mask;
}

/*
 * Each hit of the log: a boot starts the part judged again (unless
 * --every-boot); a Tainted: field's flags, the flags the kernel sets for a
 * report (it sets them after the report's own field: a log's last WARN or
 * oops shows its flag only in its header) and the flag of a "Taint X:"
 * event are what the log shows.
 */
static int from_hit(const struct taint_hit *h, void *arg)
{
	struct from_scan *fs = arg;
	const struct taint_flag_info *fi;

	switch (h->kind) {
	case TAINT_HIT_BOOT:
		fs->r.boots++;
		if (fs->r.every_boot)
			break;
		fs->r.boot_line = h->line;
		fs->r.fields = 0;
		fs->r.last_line = 0;
		fs->r.reports = 0;
		fs->r.events = 0;
		fs->r.unknown_line = 0;
		memset(fs->r.set_by, 0, sizeof(fs->r.set_by));
		fs->mask = 0;
		memset(fs->unknown->unknown_letters, 0,
		       sizeof(fs->unknown->unknown_letters));
		break;
	case TAINT_HIT_FIELD:
		fs->r.fields++;
		fs->r.last_line = h->line;
		/* taint only grows: the last field says what is known */
		fs->r.unknown_line = h->field->tainted &&
				     !h->field->mask_known ? h->line : 0;
		set_by(fs, h->field->mask, h, SET_BY_FIELD);
		add_unknown(fs->unknown, h->field);
		break;
	case TAINT_HIT_REPORT:
		fs->r.reports++;
		set_by(fs, h->flags, h, SET_BY_REPORT);
		break;
	case TAINT_HIT_EVENT:
		fs->r.events++;
		fi = taint_flag_by_letter(h->letter);
		if (fi)
			set_by(fs, UINT64_C(1) << fi->bit, h, SET_BY_EVENT);
		break;
	default:
		break;
	}
	return 0;
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

static int mask_of_file(const char *path, bool every_boot, uint64_t *mask,
			struct taint_field *unknown, struct from_scan *fs)
{
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

	fs->r.file = path;
	fs->r.every_boot = every_boot;
	fs->unknown = unknown;
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
	if (eof && !taint_parse_saved_mask(head, (size_t)n, mask)) {
		fs->r.fields = 1;
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
	*mask = fs->mask;
out:
	if (!is_stdin)
		close(fd);
	return rc;
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

static int check_run(int argc, char **argv)
{
	struct check_opts opt = { 0 };
	struct from_scan fs = { 0 };
	static const struct taint_field none;
	/* unknown letters of --value/--from fields; static: it is 1 KiB */
	static struct taint_field unknown;
	uint64_t mask, set = 0, bad;
	char letters[TAINT_KNOWN_FLAGS + 1];
	bool bad_letters, value_unknown = false;
	uint64_t unknown_line;
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
	if (opt.value)
		rc = mask_of_value(opt.value, &mask, &value_unknown, &unknown);
	else if (opt.from)
		rc = mask_of_file(opt.from, opt.every_boot, &mask, &unknown,
				  &fs);
	else
		rc = read_kernel_mask(&mask);
	if (rc)
		return rc;

	bad = check_disallowed(&opt, set, mask);
	/* unknown letters, like unknown bits, fail --allow and pass --deny */
	bad_letters = !opt.deny && unknown.unknown_letters[0];
	/* "Tainted: G" shows no flag: unknown is not clean, whatever FLAGS */
	unknown_line = opt.from ? fs.r.unknown_line : value_unknown;

	if (cli.json) {
		json_print_check(mask, bad, bad_letters ? &unknown : &none,
				 opt.from ? &fs.r : NULL, unknown_line);
	} else if (unknown_line) {
		printf("FAIL: tainted, but the flags are not shown (mask unknown");
		if (opt.from)
			printf(": the last Tainted: field, line %" PRIu64,
			       unknown_line);
		puts("): not judged clean");
		if (mask)
			text_print_flag_lines_from(mask, opt.from ? &fs.r : NULL);
	} else if (opt.from && !fs.r.fields && !mask) {
		printf("ok: no Tainted: field in '%s'", cli_quote(opt.from));
		text_print_check_scope(&fs.r);
		putchar('\n');
	} else if (bad || bad_letters) {
		printf("FAIL: disallowed taint set (mask %" PRIu64 "):\n", mask);
		text_print_flag_lines_from(bad, opt.from ? &fs.r : NULL);
		if (bad_letters)
			text_unknown_letter_lines(&unknown);
	} else {
		taint_mask_letters(mask, letters, sizeof(letters));
		printf("ok: no disallowed taint (mask %" PRIu64 "%s%s", mask,
		       letters[0] ? ", " : "", letters);
		text_unknown_letters(&unknown);
		puts(")");
	}
	if (!cli.json && opt.from && (fs.r.fields || mask))
		text_print_check_from(&fs.r);
	return bad || bad_letters || unknown_line ? EXIT_CHECK : EXIT_OK;
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
"                    Taint X: events), each flag named with its line\n"
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
