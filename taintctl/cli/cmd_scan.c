// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_scan.c - `taintctl scan [FILE...|-]`: every taint field in logs.
 *
 * Text: "FILE:LINE: <field as printed>  =>  <letters or verdict>".
 * JSON: one object per hit and line (JSON Lines), written as found.
 * No FILE: standard input.  gzip, xz and zstd input is decompressed (told
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

static int on_hit(const struct taint_hit *h, void *arg)
{
	struct scan_ctx *ctx = arg;
	const struct taint_field *f = h->field;
	char letters[TAINT_KNOWN_FLAGS + 1];

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
	struct taint_scan_opts so = { .size = sizeof(so), .hit = on_hit,
				      .flush = flush_out, .arg = &ctx };
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	bool is_stdin = strcmp(name, "-") == 0;
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
	ret = taint_scan_fd_opts(fd, &so, &info);
	json_hits_end(&ctx.json);
	if (!is_stdin)
		close(fd);
	if (ret == SCAN_STOP)
		return EXIT_OK;
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
"flags (with --json, one object per field, JSON Lines).  Without FILE, or\n"
"with -, standard input is read, as filters do.  A pipe, FIFO or terminal\n"
"is read line by line and each line's fields are printed as soon as it is\n"
"complete (dmesg -w | taintctl scan); files are read in big blocks.\n"
"gzip, xz and zstd data is decompressed (told by its first bytes).\n"
"Letters this version does not know are shown as unknown letters.\n"
"\n"
"Options:\n",
	.json = true,
	.root = false,
};
