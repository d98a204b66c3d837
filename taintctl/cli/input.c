// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.c - turn what a user gives `decode` and `check --value/--from` into
 * taint masks.
 *
 * Text (operands joined with blanks, standard input, a file) is decoded in
 * one of two ways:
 *  - if it holds "Tainted:"/"Not tainted" fields (an oops, a dmesg excerpt),
 *    every field that libtaint's scanner finds is one result;
 *  - otherwise, if it is values: each non-blank line is one value (a
 *    word; a field's letters with blanks, "P        W  O"; a verbose
 *    list; flags with blanks, "die w") or numbers alone ("4609 512").
 *    Text that is not (a healthy host's dmesg: "GNU", "SMP" and "5002"
 *    are words, not values) is EXIT_NOFIELD, "no Tainted: field found",
 *    nothing decoded.  Only an operand of one line, the user's own
 *    words, is read whatever it holds;
 *  - values: each non-blank line is either blank-separated numbers (one
 *    result each: "4609 512", the content of /proc/sys/kernel/tainted) or
 *    a field without its marker ("P        W  O", "PWO",
 *    "[U]=USER, [W]=WARN"; one result), or flags as check's --allow and
 *    --deny take them ("PROPRIETARY_MODULE,WARN", "die w": names in any
 *    case, letters upper case, commas or blanks between; one result) when
 *    an item is a flag name or the line has a comma outside a verbose
 *    list (an item that is a name is the name: DIE is D, as for check);
 *  - a line that mixes numbers and words ("0x40 xyz", an operand) is read
 *    word by word: each word is one result, a number or flags as above,
 *    and only a word that is neither is refused, at its offset in the
 *    line.
 * Letters that are not flags (a newer kernel's "[V]=UNSAFE_BPF") are kept
 * as unknown letters (struct decoded's field), never an error.
 * Numbers are read as the kernel's sysctl reads them (taint_parse_value()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "grow.h"

#define INPUT_MAX (64u << 20)

void decoded_free(struct decoded_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->v[i].input);
		free(l->v[i].field);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* @f: the decoded field (kept if it has unknown letters), NULL for a number */
static int add(struct decoded_list *l, uint64_t mask, bool tainted,
	       uint64_t line, const char *input, size_t input_len,
	       const struct taint_field *f)
{
	struct decoded *d, *v = taint__grow(l->v, l->count, &l->cap,
					    sizeof(*v), 8);

	if (!v)
		return -ENOMEM;
	l->v = v;
	d = &l->v[l->count];
	d->input = strndup(input, input_len);
	if (!d->input)
		return -ENOMEM;
	d->field = NULL;
	if (f && f->unknown_letters[0]) {
		d->field = malloc(sizeof(*d->field));
		if (!d->field) {
			free(d->input);
			return -ENOMEM;
		}
		*d->field = *f;
	}
	d->mask = mask;
	d->tainted = tainted;
	d->line = line;
	l->count++;
	return 0;
}

/* "(standard input):3: " or "" when @name is NULL (operands) */
static const char *where(const char *name, uint64_t line)
{
	static char buf[600];
	size_t n;

	if (!name)
		return "";
	/* not cli_quote(): its buffer is the message's other argument's */
	n = taint_escape(name, strlen(name), buf, sizeof(buf) - 32);
	if (n >= sizeof(buf) - 32)
		n = sizeof(buf) - 33;
	snprintf(buf + n, sizeof(buf) - n, ":%llu: ",
		 (unsigned long long)line);
	return buf;
}

/* Why the kernel would refuse @s too, for the message; "" if nothing to add. */
static const char *value_hint(const char *s)
{
	size_t len = strlen(s);

	if (s[0] == '-')
		return " (negative: the kernel refuses it too)";
	if (s[0] == '+')
		return " (a sign: the kernel refuses it too)";
	if (s[0] == '0' && len > 1 && strspn(s, "0123456789") == len &&
	    strpbrk(s, "89"))
		return " (a leading 0 means octal, as for the kernel: 8 and 9 are not octal digits)";
	if (len > 20 && strspn(s, "0123456789abcdefABCDEFxX") == len)
		return " (more than 20 characters: the kernel refuses it too)";
	return "";
}

/* One number token; errors are reported and counted, not returned. */
static int add_number(struct decoded_list *l, const char *name, uint64_t line,
		      const char *tok, size_t n)
{
	uint64_t mask;
	char *s = strndup(tok, n);
	int ret;

	if (!s)
		return -ENOMEM;
	ret = taint_parse_value(s, &mask);
	if (ret == -ERANGE) {
		cli_error("%staint value out of range (more than 64 bits): '%s'",
			  where(name, line), cli_quote(s));
		l->failed = true;
	} else if (ret) {
		cli_error("%sinvalid taint value: '%s'%s", where(name, line),
			  cli_quote(s), value_hint(s));
		l->failed = true;
	} else {
		ret = add(l, mask, mask != 0, line, s, n, NULL);
		free(s);
		return ret;
	}
	free(s);
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_number_start(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+';
}

/* an item of @s (between blanks and commas) is a flag name: check's
 * syntax, not a field's */
static bool has_flag_name(const char *s, size_t n)
{
	for (size_t i = 0; i < n; ) {
		size_t j = i;

		while (j < n && s[j] != ',' && !is_blank(s[j]))
			j++;
		if (j > i && taint_flag_by_name(s + i, j - i))
			return true;
		i = j + 1;
	}
	return false;
}

/*
 * Flags written as check takes them (@s, @n bytes at offset @off of the
 * line @whole): one result, or the item that is wrong reported at its
 * offset.
 */
static int add_flags(struct decoded_list *l, const char *name, uint64_t line,
		     const char *whole, const char *s, size_t n, size_t off)
{
	char *copy = strndup(s, n), *item = NULL;
	size_t at = 0, len = 0;
	uint64_t mask;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (!memchr(s, '\0', n) && !taint_flags_to_mask(copy, &mask, &at,
							 &len)) {
		ret = add(l, mask, mask != 0, line, s, n, NULL);
		free(copy);
		return ret;
	}
	item = strndup(s + at, len);
	if (item) {	/* cli_quote() has one buffer */
		char *q = strdup(cli_quote(item));

		free(item);
		item = q;
	}
	if (!item) {
		free(copy);
		return -ENOMEM;
	}
	cli_error("%scannot decode '%s' in '%s' (at offset %zu): not a number, a flag name or flag letters",
		  where(name, line), item, cli_quote(whole), off + at);
	l->failed = true;
	free(item);
	free(copy);
	return 0;
}

/* One word of a line that mixes numbers and words, at offset @off. */
static int add_word(struct decoded_list *l, const char *name, uint64_t line,
		    const char *whole, const char *s, size_t n, size_t off)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	size_t bad = 0;

	if (is_number_start(s[0]))
		return add_number(l, name, line, s, n);
	if (has_flag_name(s, n) || memchr(s, ',', n) ||
	    memchr(s, '\0', n) || taint_parse_body(s, n, &f, &bad))
		return add_flags(l, name, line, whole, s, n, off);
	return add(l, f.mask, f.tainted, line, s, n, &f);
}

/* A line without a field: numbers, or letters/verbose list, or flags. */
static int add_line(struct decoded_list *l, const char *name, uint64_t line,
		    const char *s, size_t n)
{
	bool numbers = true, some_number = false;
	struct taint_field f = TAINT_INIT(struct taint_field);
	size_t bad = 0;
	char *copy;
	int ret = 0;

	while (n && is_blank(*s)) {
		s++;
		n--;
	}
	while (n && is_blank(s[n - 1]))
		n--;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (i && !is_blank(s[i - 1]))
			continue;
		if (is_blank(s[i]))
			continue;
		if (is_number_start(s[i]))
			some_number = true;
		else
			numbers = false;
	}
	if (numbers) {
		for (size_t i = 0; i < n && !ret; ) {
			size_t j = i;

			while (j < n && !is_blank(s[j]))
				j++;
			ret = add_number(l, name, line, s + i, j - i);
			while (j < n && is_blank(s[j]))
				j++;
			i = j;
		}
		return ret;
	}
	copy = strndup(s, n);
	if (!copy)
		return -ENOMEM;
	if (some_number) {	/* "0x40 xyz": word by word */
		for (size_t i = 0; i < n && !ret; ) {
			size_t j = i;

			while (j < n && !is_blank(s[j]))
				j++;
			ret = add_word(l, name, line, copy, s + i, j - i, i);
			while (j < n && is_blank(s[j]))
				j++;
			i = j;
		}
		free(copy);
		return ret;
	}
	if (!memchr(s, '\0', n) &&
	    (has_flag_name(s, n) || (memchr(s, ',', n) && !memchr(s, '[', n)))) {
		ret = add_flags(l, name, line, copy, s, n, 0);
		free(copy);
		return ret;
	}
	if (memchr(s, '\0', n) || taint_parse_body(s, n, &f, &bad)) {
		/* the scanner found no field: "Tainted: yes" is prose */
		if (memmem(s, n, "Tainted:", 8))
			cli_error("%scannot decode '%s': 'Tainted:' is followed by prose, not a kernel's taint field",
				  where(name, line), cli_quote(copy));
		else
			cli_error("%scannot decode '%s': not a number, a Tainted: field or flag letters (at offset %zu)",
				  where(name, line), cli_quote(copy), bad);
		l->failed = true;
	} else {
		/* letters this version does not know are shown, not refused */
		ret = add(l, f.mask, f.tainted, line, s, n, &f);
	}
	free(copy);
	return ret;
}

/*
 * @s (@n bytes, trimmed, not empty) is one value, or numbers alone: a line
 * a user writes, not prose.
 */
static bool value_line(const char *s, size_t n)
{
	struct taint_field f = TAINT_INIT(struct taint_field);
	bool numbers = true, blank = false;
	uint64_t mask;
	size_t at, len;
	char *copy;
	int ret;

	if (memchr(s, '\0', n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (is_blank(s[i]))
			blank = true;
		else if ((!i || is_blank(s[i - 1])) && !is_number_start(s[i]))
			numbers = false;
	}
	if (!blank || numbers)
		return true;
	/* a field's letters ("P        W  O"), a verbose list */
	if (!taint_parse_body(s, n, &f, NULL))
		return true;
	/* flags with blanks, as check takes them ("die w") */
	if (!has_flag_name(s, n))
		return false;
	copy = strndup(s, n);
	if (!copy)
		return true;	/* the decoder will say it */
	ret = taint_flags_to_mask(copy, &mask, &at, &len);
	free(copy);
	return !ret;
}

/* the start and length of the next line of @p..@end, trimmed */
static const char *trimmed_line(const char *p, const char *end, size_t *n,
				const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;

	*next = nl ? nl + 1 : end;
	while (p < e && is_blank(*p))
		p++;
	while (e > p && is_blank(e[-1]))
		e--;
	*n = (size_t)(e - p);
	return p;
}

/*
 * Text without a field: is it values (each non-blank line one)?  If not,
 * say so ("no Tainted: field found", with the line of a "Tainted:"
 * followed by prose, if any) and return false.  An operand of one line
 * (@name NULL) is always read.
 */
static bool values_or_nofield(const char *name, const char *buf, size_t len)
{
	const char *end = buf + len, *next, *prose = NULL;
	uint64_t line = 0, prose_line = 0, lines = 0;
	bool values = true;
	size_t n;

	for (const char *p = buf; p < end; p = next) {
		const char *s = trimmed_line(p, end, &n, &next);

		line++;
		if (!n)
			continue;
		lines++;
		if (!prose && memmem(s, n, "Tainted:", 8)) {
			prose = s;
			prose_line = line;
		}
		if (!value_line(s, n))
			values = false;
	}
	if (values || (!name && lines < 2))
		return true;
	if (prose)
		cli_error("no Tainted: field found in %s (line %llu: 'Tainted:' is followed by prose, not a kernel's taint field)",
			  name ? "standard input" : "the text",
			  (unsigned long long)prose_line);
	else
		cli_error("no Tainted: field found in %s",
			  name ? "standard input" : "the text");
	return false;
}

struct hit_ctx {
	struct decoded_list *list;
	const char *name;
	int err;
};

static int on_hit(const struct taint_hit *h, void *arg)
{
	struct hit_ctx *ctx = arg;
	const struct taint_field *f = h->field;

	ctx->err = add(ctx->list, f->mask, f->tainted, h->line, f->text,
		       f->text_len, f);
	return ctx->err;
}

int decode_text(const char *name, const char *buf, size_t len,
		struct decoded_list *out)
{
	struct hit_ctx ctx = { .list = out, .name = name };
	struct taint_scanner *sc = taint_scanner_new();
	bool fields;
	uint64_t line = 1;
	int ret;

	if (!sc)
		goto nomem;
	ret = taint_scanner_feed(sc, buf, len, on_hit, &ctx);
	if (!ret)
		ret = taint_scanner_finish(sc, on_hit, &ctx);
	taint_scanner_free(sc);
	if (ret)
		goto nomem;
	fields = out->count || out->failed;
	if (!fields && !values_or_nofield(name, buf, len))
		return EXIT_NOFIELD;
	for (const char *p = buf, *end = buf + len; !fields && p < end;
	     line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (add_line(out, name, line, p, n))
			goto nomem;
		p += n + 1;
	}
	return out->failed ? EXIT_USAGE : EXIT_OK;
nomem:
	cli_error("out of memory");
	return EXIT_SYSTEM;
}

int read_input(const char *path, char **buf, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "standard input" : path;
	char why[160];
	int fd, ret;

	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot open '%s': %s", cli_quote(path),
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	/* as scan reads it: decompressed, UTF-16 transcoded */
	ret = taint_read_text(fd, INPUT_MAX, buf, len, why, sizeof(why));
	if (!is_stdin)
		close(fd);
	if (ret == -EFBIG)
		cli_error("'%s' is larger than %u MiB: use 'taintctl scan' for big logs",
			  cli_quote(name), INPUT_MAX >> 20);
	else if (ret)
		cli_error("cannot read '%s': %s", cli_quote(name),
			  why[0] ? why : strerror(-ret));
	return ret ? EXIT_SYSTEM : EXIT_OK;
}
