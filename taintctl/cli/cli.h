/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - shared declarations of the taintctl command-line tool.
 */
#ifndef TAINTCTL_CLI_H
#define TAINTCTL_CLI_H

#include <stdbool.h>
#include <stdint.h>

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
				 * an x86_64 ELF core, truncated, no
				 * VMCOREINFO, a kernel without the taint log,
				 * inconsistent layout or data) */
};

struct options {
	bool json;
	const char *allow;	/* check --allow FLAGS */
	const char *deny;	/* check --deny FLAGS */
	const char *value;	/* check --value VALUE */
	const char *from;	/* check --from FILE */
	const char *since;	/* check --since CURSOR */
	bool once;		/* watch --once */
	const char *interval;	/* watch --interval SECONDS */
	const char *output;	/* metrics --output FILE */
	const char *vmcore;	/* log --vmcore FILE: a crash dump */
	const char *root;	/* --root DIR, NULL for the running system */
	const char *proc_root;	/* DIR/proc or "/proc" */
	const char *sys_root;	/* DIR/sys or "/sys" */
	int argc;		/* operands after the command */
	char **argv;
};

/* messages.c: "taintctl: ..." on stderr, one line each */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @s quoted for a one-line message (control bytes escaped); static buffer */
const char *cli_quote(const char *s);
/* join argv with single blanks into a malloc()ed string; NULL on ENOMEM */
char *cli_join(int argc, char **argv);
/* at exit: a failed write to standard output is an error (exit 3) */
void cli_close_stdout(void);

/* help.c: COMMAND --help; false if there is no such command */
bool cli_command_usage(const char *command);

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
struct decoded_list {
	struct decoded *v;
	size_t count, cap;
	bool failed;		/* some input could not be decoded (reported) */
};
/* decode @buf: each problem reported (after "@name:LINE: " if @name), the
 * rest kept; EXIT_OK, EXIT_USAGE if some input was bad, EXIT_SYSTEM */
int decode_text(const char *name, const char *buf, size_t len,
		struct decoded_list *out);
void decoded_free(struct decoded_list *l);
/* read all of @path ("-": standard input), NUL-terminated; EXIT_* */
int read_input(const char *path, char **buf, size_t *len);

/* field_out.c: unknown letters of a decoded field, as text */
void text_unknown_letters(const struct taint_field *f);
void text_unknown_letter_lines(const struct taint_field *f);

/* text_out.c: human-readable output */
void text_print_mask(uint64_t mask, bool tainted);
void text_print_event(const struct taint_event *ev);
void text_print_flag_line(unsigned int bit);

/* events.c: the kernel's mask, its taint log (status, log, watch,
 * metrics, cursor and check --since) and snapshots for cursors */
struct event_list {
	struct taint_log *log;	/* NULL: none (absent or unreadable) */
	bool absent;		/* no taint_log: stock kernel */
	int read_error;		/* errno: taint_log exists, cannot be read */
	int malformed;		/* malformed lines (reported on stderr) */
};
int events_load(const struct options *opt, struct event_list *list,
		bool quiet_if_unreadable);
/* the same; with @quiet, malformed lines and a log that cannot be read are
 * not reported (the caller looks at list->malformed and ->read_error) */
int events_load_quiet(const struct options *opt, struct event_list *list,
		      bool quiet);
void events_free(struct event_list *list);
/* read <proc>/sys/kernel/tainted, reporting failures; EXIT_* */
int read_kernel_mask(const struct options *opt, uint64_t *mask);
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
int snapshot_take(const struct options *opt, struct snapshot *s);
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
	bool plain_extras;	/* unknown_bits/unknown_letters are [] */
};
void json_hits_start(struct json_hits *w, const char *file);
void json_print_hit(struct json_hits *w, const struct taint_hit *h,
		    const char *letters);
void json_hits_end(struct json_hits *w);
void json_print_log(const struct taint_log *log);
/* check: @bad_letters holds the disallowed unknown letters (or none) */
void json_print_check(uint64_t mask, uint64_t bad,
		      const struct taint_field *bad_letters);
void json_print_since(const char *cursor, const struct taint_cursor *c,
		      const struct snapshot *now,
		      const struct taint_window *w,
		      const struct taint_log *events, uint64_t bad);
void json_print_cursor(const struct snapshot *s);
void json_print_watch_event(const struct taint_event *ev);
void json_print_watch_flag(unsigned int bit, uint64_t mask);
void json_print_watch_dropped(uint64_t total, uint64_t count);
/* the events of @log as text lines, each after @indent (text_out.c) */
void text_print_events(const struct taint_log *log, const char *indent);

/* vmcore_log.c: log --vmcore: the taint log of the dump @path, failures
 * reported; EXIT_OK, EXIT_VMCORE, EXIT_SYSTEM */
int vmcore_log_open(const char *path, struct taint_log **log);


/* the commands; each returns an exit code */
int cmd_status(const struct options *opt);
int cmd_decode(const struct options *opt);
int cmd_scan(const struct options *opt);
int cmd_mark(const struct options *opt);
int cmd_log(const struct options *opt);
int cmd_check(const struct options *opt);
int cmd_watch(const struct options *opt);
int cmd_metrics(const struct options *opt);
int cmd_cursor(const struct options *opt);


#endif
