// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_scan.c - `taintctl scan [FILE...|-]`: every taint field in logs.
 *
 * Text: "FILE:LINE: <field as printed>  =>  <letters or verdict>", and for
 * each "Taint X:" event line of a report (kernels with the taint log)
 * "FILE:LINE: Taint X: <event>  (report at line N)".
 * JSON: one object per hit and line (JSON Lines), written as found; an
 * event is {"file", "line", "report_line", "letter", "event": {as log}}.
 * No FILE: standard input.  Compressed input is decompressed (told
 * by its magic bytes).  A pipe, FIFO or terminal is read line by line and
 * each line's hits are written as soon as it is complete; files are read
 * in big blocks.  Unreadable files and corrupt compressed data are
 * reported (after the hits found before the error) and skipped; the exit
 * code is then 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct scan_ctx {
	const char *name;
	/*
	 * --json: one object reused for every hit of a file, its values set
	 * in place (a log with many fields is written about twice as fast as
	 * with an object built per hit); the keys keep their order.
	 */
	struct json_hits json;
};

/* a callback's value that stops the scan: standard output's reader is gone */
#define SCAN_STOP 1

/*
 * An event of a report: "FILE:LINE: Taint X: <the event, as taint_log
 * prints it>  (report at line N)", or "(no report field)" for a report
 * that printed none (a panic after an oops).
 */
static void on_event(struct scan_ctx *ctx, const struct taint_hit *h)
{
	if (cli.json) {
		json_print_scan_event(&ctx->json, h);
		return;
	}
	printf("%s:%" PRIu64 ": Taint %c: ", ctx->name, h->line, h->letter);
	text_print_event_line(h->event);
	if (h->report_line)
		printf("  (report at line %" PRIu64 ")\n", h->report_line);
	else
		fputs("  (no report field)\n", stdout);
}

static int on_hit(const struct taint_hit *h, void *arg)
{
	struct scan_ctx *ctx = arg;
	const struct taint_field *f = h->field;
	char letters[TAINT_KNOWN_FLAGS + 1];

#ifdef TAINTCTL_TEST_HOOKS
	/* the test build: the file shrinks after its first hit (SIGBUS) */
	static bool truncated;

	if (!truncated && getenv("TAINTCTL_TEST_TRUNCATE_AT_HIT")) {
		truncated = true;
		if (truncate(ctx->name, 0))
			cli_error("test hook: truncate: %s", strerror(errno));
	}
#endif
	if (h->kind == TAINT_HIT_EVENT) {
		on_event(ctx, h);
		return cli_stdout_gone() ? SCAN_STOP : 0;
	}
	if (h->kind != TAINT_HIT_FIELD)
		return 0;
	taint_mask_letters(f->mask, letters, sizeof(letters));
	if (cli.json) {
		json_print_hit(&ctx->json, h, letters);
		return cli_stdout_gone() ? SCAN_STOP : 0;
	}
	printf("%s:%" PRIu64 ": %s  =>  ", ctx->name, h->line, f->text);
	if (!f->tainted)
		fputs("not tainted", stdout);
	else if (!f->mask && !f->unknown_letters[0])
		fputs("tainted, flags not shown", stdout);
	else
		fputs(letters[0] ? letters : "-", stdout);
	if (taint_unknown_bits(f->mask))
		printf(" + unknown bits 0x%" PRIx64, taint_unknown_bits(f->mask));
	text_unknown_letters(f);
	putchar('\n');
	/* the reader went away (scan | head -1): stop reading */
	return cli_stdout_gone() ? SCAN_STOP : 0;
}

/* Line mode: each read's hits go out at once (dmesg -w | taintctl scan). */
static int flush_out(void *arg)
{
	(void)arg;
	fflush(stdout);
	return cli_stdout_gone() ? SCAN_STOP : 0;
}

static int scan_one(const char *name)
{
	struct scan_ctx ctx = { .name = name };
	struct taint_scan_opts so = { .size = sizeof(so),
				      .flags = TAINT_SCAN_EVENTS,
				      .hit = on_hit, .flush = flush_out,
				      .arg = &ctx };
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	bool is_stdin = strcmp(name, "-") == 0, shrank;
	int fd, ret;

	fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(name),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
#ifdef POSIX_FADV_SEQUENTIAL
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	if (cli.json)
		json_hits_start(&ctx.json, name);
	ret = cli_scan_fd(fd, &so, &info, &shrank);
	json_hits_end(&ctx.json);
	if (!is_stdin)
		close(fd);
	if (ret == SCAN_STOP)
		return EXIT_OK;
	if (shrank) {
		cli_error("'%s' shrank while it was read (truncated by another process, as logrotate's copytruncate does): the fields after that point are not reported",
			  cli_quote(name));
		return EXIT_SYSTEM;
	}
	if (ret) {
		cli_error("cannot read '%s': %s", cli_quote(name),
			  info.error[0] ? info.error : strerror(-ret));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

static int scan_run(int argc, char **argv)
{
	static char outbuf[1 << 16];
	int rc = EXIT_OK;

	if (cli_getopt(argc, argv, &cmd_scan) != -1)
		return EXIT_USAGE;
	argc -= optind;
	argv += optind;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (!argc)		/* a filter: standard input */
		rc = scan_one("-");
	for (int i = 0; i < argc && !cli_stdout_gone(); i++)
		if (scan_one(argv[i]) != EXIT_OK)
			rc = EXIT_SYSTEM;
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		if (cli_write_error(errno))
			rc = EXIT_SYSTEM;
	}
	return rc;
}

const struct taintctl_cmd cmd_scan = {
	.name = "scan",
	.run = scan_run,
	.shortopts = "",
	.usage =
"Usage:\n"
" taintctl [options] scan [FILE...|-]\n"
"\n"
"Print every Tainted:/Not tainted field in logs, with file:line and its\n"
"flags, and each \"Taint X:\" event line of a report (who set flag X),\n"
"tied to the line of its report's field (with --json, one object per\n"
"field or event, JSON Lines).  Without FILE, or\n"
"with -, standard input is read, as filters do.  A pipe, FIFO or terminal\n"
"is read line by line and each line's fields are printed as soon as it is\n"
"complete (dmesg -w | taintctl scan); files are read in big blocks.\n"
"Compressed logs are read too: " CLI_COMPRESSED " (told by their\n"
"first bytes, not by the file's name).\n"
"Letters this version does not know are shown as unknown letters.\n"
"\n"
"Options:\n",
	.json = true,
	.root = false,
};
