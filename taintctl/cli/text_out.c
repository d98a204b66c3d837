// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * text_out.c - human-readable output, the text side of json_out.c: masks
 * and their flags; taint log events (log, status, check --since; watch's
 * to a file) and a log's dropped count after them; what a decoded
 * Tainted: field shows beyond its mask, letters this version does not
 * know (a newer kernel's "[V]=...", vendor letters) with the name the
 * verbose form printed for them; and what check --from judged.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void text_fprint_flag_line(FILE *f, unsigned int bit)
{
	const struct taint_flag_info *fi = taint_flag_info(bit);

	if (fi)
		fprintf(f, "  %c  bit %-2u  %-21s  %s\n", fi->letter, bit,
			fi->name, fi->description);
	else
		fprintf(f, "  ?  bit %-2u  %-21s  %s\n", bit, "(unknown)",
			"not a mainline flag (vendor or newer kernel)");
}

void text_print_flag_line(unsigned int bit)
{
	text_fprint_flag_line(stdout, bit);
}

void text_print_flag_lines(uint64_t mask)
{
	for (unsigned int bit = 0; bit < 64; bit++)
		if (mask & (UINT64_C(1) << bit))
			text_print_flag_line(bit);
}

void text_print_mask(uint64_t mask, bool tainted)
{
	char letters[TAINT_KNOWN_FLAGS + 1];

	taint_mask_letters(mask, letters, sizeof(letters));
	if (!tainted) {
		printf("Not tainted (mask 0)\n");
		return;
	}
	if (!mask) {
		printf("Tainted, but no flag is shown (mask unknown)\n");
		return;
	}
	printf("Tainted: %s (mask %" PRIu64 ", 0x%" PRIx64 ")\n",
	       letters[0] ? letters : "-", mask, mask);
	text_print_flag_lines(mask);
}

/* " + unknown letters VZ (V=UNSAFE_BPF, Z=VENDOR)"; nothing if none */
void text_unknown_letters(const struct taint_field *f)
{
	const char *sep = " (";

	if (!f->unknown_letters[0])
		return;
	printf(" + unknown letters %s", f->unknown_letters);
	for (size_t i = 0; f->unknown_letters[i]; i++) {
		if (!f->unknown_names[i][0])
			continue;
		printf("%s%c=%s", sep, f->unknown_letters[i],
		       f->unknown_names[i]);
		sep = ", ";
	}
	if (strcmp(sep, ", ") == 0)
		putchar(')');
}

/* One line per unknown letter, in the layout of text_print_flag_line(). */
void text_unknown_letter_lines(const struct taint_field *f)
{
	for (size_t i = 0; f->unknown_letters[i]; i++)
		printf("  %c  bit ?   %-21s  %s\n", f->unknown_letters[i],
		       f->unknown_names[i][0] ? f->unknown_names[i] :
		       "(unknown)",
		       "unknown letter: not a flag this version knows (newer or vendor kernel)");
}

/* an event's fields from auid= on, as the taint_log line has them */
static void print_event_tail(FILE *f, const struct taint_event *ev)
{
	char buf[TAINT_REASON_MAX * 4 + 1];

	if (ev->has_auid) {
		if (ev->auid_set)
			fprintf(f, " auid=%" PRIu32, ev->auid);
		else
			fputs(" auid=-", f);
	}
	taint_escape(ev->comm, ev->comm_len, buf, sizeof(buf));
	fprintf(f, " comm=\"%s\"", buf);
	if (ev->has_module) {
		taint_escape_word(ev->module, ev->module_len, buf, sizeof(buf));
		fprintf(f, " module=%s", buf);
	}
	if (ev->has_caller)
		fprintf(f, " caller=%s", ev->caller);
	if (ev->has_reason) {
		taint_escape(ev->reason, ev->reason_len, buf, sizeof(buf));
		fprintf(f, " reason=\"%s\"", buf);
	}
}

void text_fprint_event(FILE *f, const struct taint_event *ev)
{
	fprintf(f, "[%12s] %-20s %-6s %-4s new=%-4s pid=%" PRIu32 " uid=%" PRIu32,
		ev->ts, ev->utc,
		ev->origin == TAINT_ORIGIN_KERNEL ? "kernel" : "user",
		ev->flags[0] ? ev->flags : "-",
		ev->new_flags[0] ? ev->new_flags : "-", ev->pid, ev->uid);
	print_event_tail(f, ev);
	fputc('\n', f);
}

void text_print_event(const struct taint_event *ev)
{
	text_fprint_event(stdout, ev);
}

void text_print_event_line(const struct taint_event *ev)
{
	printf("ts=%s utc=%s origin=%s flags=%s new=%s pid=%" PRIu32
	       " uid=%" PRIu32, ev->ts, ev->utc,
	       ev->origin == TAINT_ORIGIN_KERNEL ? "kernel" : "user",
	       ev->flags[0] ? ev->flags : "-",
	       ev->new_flags[0] ? ev->new_flags : "-", ev->pid, ev->uid);
	print_event_tail(stdout, ev);
}

void text_print_events(const struct taint_log *log, const char *indent)
{
	const struct taint_event *ev;

	for (size_t i = 0; (ev = taint_log_get_event(log, i)); i++) {
		fputs(indent, stdout);
		text_print_event(ev);
	}
}

/* the events of @log as text_print_events() prints them, then, if the log
 * is full, how many requests it dropped, after @dropped */
void text_print_log_events(const struct taint_log *log, const char *indent,
			   const char *dropped)
{
	uint64_t n = taint_log_get_dropped(log);

	text_print_events(log, indent);
	if (n)
		printf("%s%llu later user request(s) not kept (log full)\n",
		       dropped, (unsigned long long)n);
}

/* the letters of @mask, "-" for none */
static const char *letters(uint64_t mask, char buf[65])
{
	taint_mask_letters(mask, buf, 65);
	return buf[0] ? buf : "-";
}

void text_print_recording(const struct taint_log *log, uint64_t mask,
			  bool have_mask)
{
	struct taint_recording r;
	uint64_t before, without;
	char l[65];

	if (!recording_of(log, mask, have_mask, &r, &before, &without))
		return;
	printf("Recorded by taintctl record since ts=%s utc=%s", r.began_ts,
	       r.began_utc);
	if (r.kernel[0])
		printf(" on %s", cli_quote(r.kernel));
	putchar('\n');
	printf("Before recording: %s\n", letters(before, l));
	if (without)
		printf("Set without a recorded event: %s (in a gap or a lost event)\n",
		       letters(without, l));
	if (r.lost)
		printf("Lost: %" PRIu64 " event(s) (the recorder's buffer was full)\n",
		       r.lost);
	if (r.restarts)
		printf("Restarts: %u (events in each gap may be missing)\n",
		       r.restarts);
}

/* " (the last boot of 3 of host web1, from line 120, kernel 6.12.0)": the
 * part of check --from's log judged */
void text_print_check_scope(const struct check_from *fr)
{
	if (!fr->boots) {
		if (fr->host)
			printf(" (host %s)", cli_quote(fr->host));
		return;
	}
	if (fr->every_boot)
		printf(" (all %" PRIu64 " boots", fr->boots);
	else
		printf(" (the last boot of %" PRIu64, fr->boots);
	if (fr->host)
		printf(" of host %s", cli_quote(fr->host));
	if (!fr->every_boot)
		printf(", from line %" PRIu64, fr->boot_line);
	if (!fr->every_boot && fr->release[0])
		printf(", kernel %s", cli_quote(fr->release));
	putchar(')');
}

/* what the earlier boots of the log showed that the judged one does not */
void text_print_earlier(const struct check_from *fr)
{
	char letters[TAINT_KNOWN_FLAGS + 1];
	uint64_t more = fr->earlier_mask;

	for (unsigned int bit = 0; bit < 64; bit++)
		if (fr->set_by[bit].line)
			more &= ~(UINT64_C(1) << bit);

	if (!more)
		return;
	taint_mask_letters(more, letters, sizeof(letters));
	printf("  earlier boots showed %s%s (not judged: --every-boot judges every boot)\n",
	       letters, taint_unknown_bits(more) ? " + unknown bits" : "");
}

/* after check --from's verdict: what it was taken from */
void text_print_check_from(const struct check_from *fr)
{
	if (fr->fields && !fr->last_line) {	/* a copy of .../tainted */
		printf("  judged: the value in '%s'\n", cli_quote(fr->file));
		return;
	}
	printf("  judged: %" PRIu64 " Tainted: field%s in '%s'", fr->fields,
	       fr->fields == 1 ? "" : "s", cli_quote(fr->file));
	if (fr->last_line)
		printf(", the last at line %" PRIu64, fr->last_line);
	text_print_check_scope(fr);
	printf("; %" PRIu64 " report%s, %" PRIu64 " Taint event%s\n",
	       fr->reports, fr->reports == 1 ? "" : "s", fr->events,
	       fr->events == 1 ? "" : "s");
}

static const char *const setter_names[] = {
	[SET_BY_FIELD] = "Tainted: field",
	[SET_BY_REPORT] = "report",
	[SET_BY_EVENT] = "event",
};

/* the flags of @mask, each with the line that showed it first */
void text_print_flag_lines_from(uint64_t mask, const struct check_from *fr)
{
	for (unsigned int bit = 0; bit < 64; bit++) {
		const struct check_setter *st;

		if (!(mask & (UINT64_C(1) << bit)))
			continue;
		text_print_flag_line(bit);
		st = fr ? &fr->set_by[bit] : NULL;
		if (!st || !st->line)
			continue;
		printf("      line %" PRIu64 " (%s): %s\n", st->line,
		       setter_names[st->kind], st->text);
	}
}
