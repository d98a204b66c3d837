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
	const struct options *opt;
	const char *name;
	struct json_object *jname;
	/*
	 * --json: one object reused for every hit of a file, its values set
	 * in place (a log with many fields is written about twice as fast as
	 * with an object built per hit); the keys keep their order.
	 */
	struct json_object *obj;
	struct json_object *jline, *jtext, *jletters, *jtainted, *jformat;
	struct json_object *jmask;
	bool plain_extras;	/* unknown_bits/unknown_letters are [] */
};

static const char *const format_names[] = {
	[TAINT_FORMAT_NOT_TAINTED] = "not-tainted",
	[TAINT_FORMAT_FIXED] = "fixed",
	[TAINT_FORMAT_VERBOSE] = "verbose",
};

static bool is_ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* Add @val under @key, keeping a reference in *@ref (NULL for null). */
static void add_ref(struct json_object *o, const char *key,
		    struct json_object *val, struct json_object **ref)
{
	json_object_object_add(o, key, val);
	*ref = val;
}

static void json_hit(struct scan_ctx *ctx, const struct taint_hit *h,
		     const char *letters)
{
	const struct taint_field *f = h->field;
	struct json_object *o = ctx->obj;
	bool extras = taint_unknown_bits(f->mask) || f->unknown_letters[0];

	if (!o) {
		o = ctx->obj = json_object_new_object();
		json_object_object_add(o, "file", json_object_get(ctx->jname));
		add_ref(o, "line", json_object_new_uint64(h->line), &ctx->jline);
		add_ref(o, "text", NULL, &ctx->jtext);
		add_ref(o, "letters", json_object_new_string(letters),
			&ctx->jletters);
		add_ref(o, "tainted", json_object_new_boolean(f->tainted),
			&ctx->jtainted);
		/* v2: the rest of what the text output shows */
		add_ref(o, "format", json_object_new_string(
				format_names[f->format]), &ctx->jformat);
		add_ref(o, "mask", NULL, &ctx->jmask);
		ctx->plain_extras = false;
	}
	json_object_set_uint64(ctx->jline, h->line);
	if (ctx->jtext && is_ascii(f->text, f->text_len))
		json_object_set_string_len(ctx->jtext, f->text,
					   (int)f->text_len);
	else	/* json_string_bytes() makes invalid UTF-8 valid */
		add_ref(o, "text", json_string_bytes(f->text, f->text_len),
			&ctx->jtext);
	json_object_set_string(ctx->jletters, letters);
	json_object_set_boolean(ctx->jtainted, f->tainted);
	json_object_set_string(ctx->jformat, format_names[f->format]);
	if (!f->mask_known)
		add_ref(o, "mask", NULL, &ctx->jmask);
	else if (ctx->jmask)
		json_object_set_uint64(ctx->jmask, f->mask);
	else
		add_ref(o, "mask", json_object_new_uint64(f->mask),
			&ctx->jmask);
	if (extras || !ctx->plain_extras) {
		json_object_object_add(o, "unknown_bits",
				       json_unknown_bits(f->mask));
		json_object_object_add(o, "unknown_letters",
				       json_unknown_letters(f));
		ctx->plain_extras = !extras;
	}
	json_print(o);
}

static int on_hit(const struct taint_hit *h, void *arg)
{
	struct scan_ctx *ctx = arg;
	const struct taint_field *f = h->field;
	char letters[TAINT_KNOWN_FLAGS + 1];

	taint_mask_letters(f->mask, letters, sizeof(letters));
	if (ctx->opt->json) {
		json_hit(ctx, h, letters);
		return 0;
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
	return 0;
}

/* Line mode: each read's hits go out at once (dmesg -w | taintctl scan). */
static int flush_out(void *arg)
{
	(void)arg;
	fflush(stdout);
	return 0;
}

static int scan_one(const struct options *opt, const char *name)
{
	struct scan_ctx ctx = { .opt = opt, .name = name };
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
	if (opt->json)
		ctx.jname = json_string_bytes(name, strlen(name));
	ret = taint_scan_fd_opts(fd, &so, &info);
	json_object_put(ctx.obj);
	json_object_put(ctx.jname);
	if (!is_stdin)
		close(fd);
	if (ret) {
		cli_error("cannot read '%s': %s", cli_quote(name),
			  info.error[0] ? info.error : strerror(-ret));
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

int cmd_scan(const struct options *opt)
{
	static char outbuf[1 << 16];
	int rc = EXIT_OK;

	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (!opt->argc)		/* a filter: standard input */
		rc = scan_one(opt, "-");
	for (int i = 0; i < opt->argc; i++)
		if (scan_one(opt, opt->argv[i]) != EXIT_OK)
			rc = EXIT_SYSTEM;
	if (fflush(stdout)) {
		cli_error("write error: %s", strerror(errno));
		rc = EXIT_SYSTEM;
	}
	return rc;
}
