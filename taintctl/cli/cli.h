/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - shared declarations of the taintctl command-line tool.
 */
#ifndef TAINTCTL_CLI_H
#define TAINTCTL_CLI_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "taint.h"

struct json_object;

/* Exit codes, as documented in --help and taintctl(1). */
enum {
	EXIT_OK = 0,		/* success */
	EXIT_CHECK = 1,		/* check found a disallowed flag */
	EXIT_USAGE = 2,		/* bad command line or bad input value */
	EXIT_SYSTEM = 3,	/* permission or system error */
	EXIT_CURSOR = 4,	/* check --since: the cursor is malformed, from
				 * another boot, or does not fit this log */
	EXIT_VMCORE = 5,	/* log --vmcore: the dump cannot be read (not
				 * a dump, a compressed file, another
				 * architecture, truncated, no VMCOREINFO, a
				 * kernel without the taint log, inconsistent
				 * layout or data) */
	EXIT_NOFIELD = 6,	/* decode: text without a Tainted: field that
				 * is not a list of values (a healthy host's
				 * dmesg): nothing decoded */
	/* status --vmcore: the dump lacks what the kernel-independent road
	 * needs (5 for the rest: not a dump, a page filtered out, data not
	 * where the symbols and types say) */
	EXIT_NO_KALLSYMS = 7,	/* VMCOREINFO has no kallsyms tables */
	EXIT_NO_BTF = 8,	/* the kernel has no BTF (__start_BTF) */
	EXIT_BAD_BTF = 9,	/* its BTF does not parse or lacks a type */
	EXIT_NO_SYMBOL = 10,	/* a symbol needed is not in kallsyms */
	EXIT_NORECORD = 11,	/* record: this kernel or build cannot record
				 * (no BTF, no BPF support, the program was
				 * refused) */
};

/* The options every command takes, main.c's: set before a command runs. */
struct cli_global {
	bool json;		/* -j, -J, --json */
	const char *root;	/* --root DIR, NULL for the running system */
	const char *proc_root;	/* DIR/proc or the live /proc; NULL: DIR is
				 * too long (reported by cli_getopt()) */
	const char *sys_root;	/* DIR/sys or the live /sys */
};
extern struct cli_global cli;

/*
 * A command, as kmod's struct kmod_cmd: cmd_<name>.c exports one,
 * main.c's table lists them.  run() gets the command line without
 * taintctl's own name (argv[0] is the command's name) and parses its
 * options with cli_getopt() itself; it returns an exit code.
 */
struct taintctl_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	/* its options: the long ones ({ NULL } at the end; NULL: none) and
	 * the short ones ("a:d:"), each the short form of a long one, with
	 * its value */
	const struct option *options;
	const char *shortopts;
	/* COMMAND --help (help.c prints it): the text up to "Options:",
	 * --json and --root if it takes them, its options after those, then
	 * -h, more (check's flags), and the exit status (NULL: the common
	 * one) */
	const char *usage;
	bool json, root;
	const char *usage_options;
	void (*usage_more)(void);
	const char *usage_exit;
};
extern const struct taintctl_cmd cmd_status, cmd_decode, cmd_scan, cmd_mark,
	cmd_log, cmd_check, cmd_watch, cmd_metrics, cmd_cursor, cmd_record;

/*
 * Values of the long options without a short form.  An option of any
 * command is recognized before the command's name too, so each value
 * names one option of one command; "invalid option -- '%c'" prints it for
 * "--once=1", so they keep these numbers.
 */
enum {
	OPT_ROOT = CHAR_MAX + 1,	/* main.c */
	OPT_VALUE,			/* check */
	OPT_FROM,			/* check */
	OPT_SINCE,			/* check */
	OPT_EVERY_BOOT,			/* check */
	OPT_ONCE,			/* watch */
	OPT_VMCORE,			/* log, status */
	OPT_JOURNAL,			/* watch */
};

/* options.c: getopt_long() with options anywhere among the operands and
 * "-1" an operand; errors reported (then '?'); at -1, argv[optind..] are
 * the operands in order.  optind = 0 starts a new parse. */
#define CLI_MAX_OPTIONS 48
extern const struct option cli_global_options[];
extern const char cli_global_shortopts[];
bool cli_global_option(int c);
size_t cli_options_add(struct option *to, size_t n, const struct option *add);
int cli_getopt_long(int argc, char **argv, const char *shortopts,
		    const struct option *longopts);
/* the next option of @cmd (main.c handled the global ones, which are
 * skipped), '?' after an error (reported), -1 at the end */
int cli_getopt(int argc, char **argv, const struct taintctl_cmd *cmd);
/* after cli_getopt() returned -1: EXIT_USAGE, said, if an operand is
 * left for @cmd, which takes none; else 0 */
int cli_no_operand(int argc, char **argv, const struct taintctl_cmd *cmd);

/* messages.c: "taintctl: ..." on stderr, one line each */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @s quoted for a one-line message (control bytes escaped); static buffer */
const char *cli_quote(const char *s);
/* join argv with single blanks into a malloc()ed string; NULL on ENOMEM */
char *cli_join(int argc, char **argv);
/* at exit: a failed write to standard output is an error (exit 3), unless
 * the reader went away (EPIPE: quiet, the command's exit status) */
void cli_close_stdout(void);
/* after a failed write to standard output (@err: its errno, 0 if not
 * known): EXIT_OK, quietly, if the reader went away (EPIPE, `taintctl ... |
 * head -1`; SIGPIPE is ignored), else "write error" said and EXIT_SYSTEM */
int cli_write_error(int err);
/* a write to standard output failed because its reader went away: a
 * command that loops (scan, watch) stops writing */
bool cli_stdout_gone(void);

/* flag_set.c: FLAGS of @opt_name (check --allow/--deny, watch --deny):
 * letters and names; "none" alone is the empty set, a FLAGS without any
 * item a usage error; EXIT_OK and *@set, or EXIT_USAGE (said) */
int cli_parse_flags(const char *opt_name, const char *spec, uint64_t *set);

/* help.c: COMMAND --help */
void cli_command_usage(const struct taintctl_cmd *cmd);
/* the compressed formats libtaint reads, from its table
 * (taint_compression_info()): "gzip, xz, zstd, bzip2 and lz4" */
const char *cli_compressions(void);
/* a help text to standard output, each CLI_COMPRESSED in it replaced by
 * cli_compressions() (so no help text lists them by hand) */
#define CLI_COMPRESSED "@COMPRESSED@"
void cli_help_puts(const char *text);

/* input.c: VALUEs and TEXT (operands, standard input, a file) to masks */
struct decoded {
	uint64_t mask;
	bool tainted;
	uint64_t line;		/* line of the input it was found on */
	char *input;		/* the number, field or letters, as given */
	/* the decoded field if it shows letters this version does not know
	 * (a newer kernel's V: shown as unknown letters, not an error), else
	 * NULL */
	struct taint_field *field;
};
/* "Tainted: G" and the like: tainted, but no flag shown, known or not */
static inline bool decoded_mask_unknown(const struct decoded *d)
{
	return d->tainted && !d->mask &&
	       !(d->field && d->field->unknown_letters[0]);
}
struct decoded_list {
	struct decoded *v;
	size_t count, cap;
	bool failed;		/* some input could not be decoded (reported) */
};
/* decode @buf: each problem reported (after "@name:LINE: " if @name), the
 * rest kept; EXIT_OK, EXIT_USAGE if some input was bad, EXIT_SYSTEM;
 * EXIT_NOFIELD (said) for text without a field that is not values: read
 * (@name) or of several lines */
int decode_text(const char *name, const char *buf, size_t len,
		struct decoded_list *out);
void decoded_free(struct decoded_list *l);
/* read all of @path ("-": standard input), NUL-terminated, as scan reads
 * it (taint_read_text(): decompressed, UTF-16 transcoded); EXIT_* */
int read_input(const char *path, char **buf, size_t *len);

/*
 * cli_scan_fd() - taint_scan_fd_opts(), but a file truncated while it is
 * mapped (SIGBUS) ends the scan with -EIO and *@shrank set (scan_guard.c).
 */
int cli_scan_fd(int fd, const struct taint_scan_opts *so,
		struct taint_scan_info *info, bool *shrank);

/* text_out.c: human-readable output (the text_fprint_ forms to @f, the
 * others to standard output) */
void text_print_mask(uint64_t mask, bool tainted);
/* the unknown letters of a decoded field: " + unknown letters VZ (V=...)"
 * (nothing if none), and one line each as text_print_flag_line()'s */
void text_unknown_letters(const struct taint_field *f);
void text_unknown_letter_lines(const struct taint_field *f);
void text_print_event(const struct taint_event *ev);
void text_fprint_event(FILE *f, const struct taint_event *ev);
void text_fprint_flag_line(FILE *f, unsigned int bit);
/* @ev as a taint_log line, escaped, without a newline */
void text_print_event_line(const struct taint_event *ev);
void text_print_flag_line(unsigned int bit);
/* text_print_flag_line() of each bit set in @mask, from bit 0 up */
void text_print_flag_lines(uint64_t mask);
/* the events of @log as text lines, each after @indent */
void text_print_events(const struct taint_log *log, const char *indent);
/* the same, then "@dropped<N> later user request(s) not kept (log full)"
 * if the log dropped N requests (log: "dropped: ", status: "  ... and ") */
void text_print_log_events(const struct taint_log *log, const char *indent,
			   const char *dropped);
/* a recorder's log: when and on which kernel recording began, the flags
 * set before it, events lost, restarts (nothing for another log) */
void text_print_recording(const struct taint_log *log, uint64_t mask,
			  bool have_mask);
/* check --from (struct check_from, below), as json_print_check() has it:
 * " (the last boot of 3, from line 120)", the part of the log judged,
 * and the line after the verdict that says what it was taken from */
struct check_from;
void text_print_check_scope(const struct check_from *fr);
void text_print_check_from(const struct check_from *fr);
void text_print_earlier(const struct check_from *fr);
/* the flags of @mask, each with the line of check --from's log that
 * showed it first (@fr NULL: the flags alone) */
void text_print_flag_lines_from(uint64_t mask, const struct check_from *fr);

/* taint_state.c: the kernel's mask, its taint log (status, log, watch,
 * metrics, cursor and check --since) and snapshots for cursors */
struct event_list {
	struct taint_log *log;	/* NULL: none (absent or unreadable) */
	bool absent;		/* no taint_log: stock kernel */
	int read_error;		/* errno: taint_log exists, cannot be read */
	int malformed;		/* malformed lines (reported on stderr) */
};
int events_load(struct event_list *list, bool quiet_if_unreadable);
/* the same; with @quiet, malformed lines and a log that cannot be read are
 * not reported (the caller looks at list->malformed and ->read_error) */
int events_load_quiet(struct event_list *list, bool quiet);
/* log --vmcore FILE: the log of the dump @path; EXIT_OK, EXIT_VMCORE
 * (also for malformed lines, reported), EXIT_SYSTEM */
int events_load_vmcore(const char *path, struct event_list *list);
/* log FILE, log -: a saved taint_log text (decompressed: cli_compressions());
 * EXIT_OK, EXIT_SYSTEM (also for malformed lines, reported: the events
 * are kept, and for a file that is not a taint log at all: no log) */
int events_load_file(const char *path, struct event_list *list);
void events_free(struct event_list *list);
/* a recorder's log (taintctl record): false if @log is not one; else
 * *@r, and of @mask (the mask now, or the mask when recording began
 * without @have_mask) the flags set before recording (*@before) and those
 * no event of the log names (*@without: set in a gap, or an event lost) */
bool recording_of(const struct taint_log *log, uint64_t mask, bool have_mask,
		  struct taint_recording *r, uint64_t *before,
		  uint64_t *without);
/* read <proc>/sys/kernel/tainted, reporting failures; EXIT_* */
int read_kernel_mask(uint64_t *mask);
/* what a cursor is made of (cursor, check --since): the boot id, the log,
 * then the mask, and their cursor */
struct snapshot {
	struct taint_cursor c;
	char text[TAINT_CURSOR_MAX];
	char boot_id[TAINT_BOOT_ID_LEN + 1];
	struct event_list ev;
	uint64_t mask;
};
/* EXIT_* (reported); snapshot_free() it even after a failure */
int snapshot_take(struct snapshot *s);
void snapshot_free(struct snapshot *s);

/* json_out.c: the JSON output, one renderer per shape (docs/abi.md §2),
 * each printing one line */
void json_print_status(uint64_t mask, const struct taint_module *mods,
		       size_t count, int mods_error,
		       const struct event_list *ev);
void json_print_decoded(const struct decoded *d, bool from_stdin);
/* scan: a file's hits, one object reused for all of them */
struct json_hits {
	struct json_object *file, *obj;
	struct json_object *line, *text, *letters, *tainted, *format, *mask;
	struct json_object *mask_hex;	/* null when mask is */
	bool plain_extras;	/* unknown_bits/unknown_letters are [] */
};
void json_hits_start(struct json_hits *w, const char *file);
void json_print_hit(struct json_hits *w, const struct taint_hit *h,
		    const char *letters);
void json_hits_end(struct json_hits *w);
/* scan: an event hit, {"file", "line", "report_line", "letter", "event"} */
void json_print_scan_event(struct json_hits *w, const struct taint_hit *h);
void json_print_log(const struct taint_log *log);
/* "recording": null, or the recorder's notes (text_print_recording()) */
struct json_object *json_recording(const struct taint_log *log,
				   uint64_t mask, bool have_mask);
/* check: @bad_letters holds the disallowed unknown letters (or none) */
/* check --from: what was judged (cmd_check.c), for json_print_check() */
/* what showed a flag first in the part of the log judged */
enum setter_kind { SET_BY_FIELD, SET_BY_REPORT, SET_BY_EVENT };
#define SETTER_TEXT 120
struct check_setter {
	uint64_t line;		/* 0: nothing showed the flag */
	enum setter_kind kind;
	char text[SETTER_TEXT + 1];	/* the line from its marker, cut */
};

#define CHECK_RELEASE 64
struct check_from {
	const char *file;	/* as given; "-" for standard input */
	const char *host;	/* the host its lines name (syslog, journal);
				 * NULL: none */
	bool every_boot;	/* --every-boot: every boot, else the last */
	uint64_t boots;		/* boot starts seen in the log */
	uint64_t boot_line;	/* line of the judged boot's start, 0: none */
	char release[CHECK_RELEASE + 1];	/* its kernel ("" unknown) */
	uint64_t earlier_mask;	/* what the host's earlier boots showed */
	uint64_t fields;	/* Tainted: fields judged (a value: 1) */
	uint64_t last_line;	/* line of the last of them, 0: a value */
	uint64_t reports;	/* report headers judged (WARNING:, Oops: ...) */
	uint64_t events;	/* "Taint X:" events judged */
	uint64_t unknown_line;	/* the last field judged shows no flag
				 * ("Tainted: G"): its line; else 0 */
	struct check_setter set_by[64];	/* per bit, in the part judged */
};

/* @unknown_line: non-zero if the value judged is a tainted field that
 * shows no flag ("Tainted: G"), the line it is on (1 for --value): the
 * mask is null and ok false */
void json_print_check(uint64_t mask, uint64_t bad,
		      const struct taint_field *bad_letters,
		      const struct check_from *from, uint64_t unknown_line);
/* check --from of a log of several hosts: one verdict each (@n of them),
 * and "ok"/"mask" over all: {"mask", "ok", ..., "hosts": [{"host", "mask",
 * "ok", ..., "from"}]} */
struct check_verdict {
	uint64_t mask;
	uint64_t bad;
	const struct taint_field *bad_letters;
	const struct check_from *from;
	uint64_t unknown_line;
};
void json_print_check_hosts(const struct check_verdict *v, size_t n);
void json_print_since(const char *cursor, const struct taint_cursor *c,
		      const struct snapshot *now,
		      const struct taint_window *w,
		      const struct taint_log *events, uint64_t bad);
void json_print_cursor(const struct snapshot *s);
void json_print_watch_event(const struct taint_event *ev);
void json_print_watch_flag(unsigned int bit, uint64_t mask);
void json_print_watch_dropped(uint64_t total, uint64_t count);

/* output_file.c: metrics --output FILE: write @data to @path, replacing a
 * regular file atomically, writing through a FIFO or character device,
 * never replacing a symlink itself (see the file); EXIT_OK, EXIT_USAGE (a
 * directory, a block device, a dangling symlink...), EXIT_SYSTEM */
int output_file_write(const char *path, const char *data, size_t len);

/* vmcore_status.c: status --vmcore FILE: the mask, the modules with taint
 * (*@mods malloc()ed) and the taint log (absent on a stock kernel) of the
 * dump @path; EXIT_OK, EXIT_VMCORE, EXIT_NO_KALLSYMS, EXIT_NO_BTF,
 * EXIT_BAD_BTF, EXIT_NO_SYMBOL (said), EXIT_SYSTEM */
int vmcore_status_read(const char *path, uint64_t *mask,
		       struct taint_module **mods, size_t *count,
		       struct event_list *ev);

/* vmcore_log.c: log --vmcore: the taint log of the dump @path, failures
 * reported; EXIT_OK, EXIT_VMCORE, EXIT_SYSTEM */
int vmcore_log_open(const char *path, struct taint_log **log);


#endif
