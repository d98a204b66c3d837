// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_vmcore.c - taint_vmcore_read_log() on synthetic x86_64 ELF cores
 * (vmcore_fixture.h): caller= as the kernel's kallsyms names it (aliases,
 * the first and the last symbol, two-byte name lengths, both offset
 * forms, names the log cannot carry), wall times, escapes, the slots
 * walked, callers and reasons found by each slot's detail index (not its
 * number), each kind of bad dump with its error, and a fuzz test: a few
 * thousand deterministic mutations of the dumps, each read in-process
 * under ASan/UBSan, must give the text of a log that parses whole, or one
 * of the bad-dump errors.  The whole log against `taintctl log` is
 * tests/vmcore_test.sh's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"
#include "vmcore_fixture.h"
#include "vmcore_memfd.h"

#define FUZZ_ROUNDS 10000


static int read_spec(const struct fx_spec *s, char **text, char *why)
{
	size_t len;
	unsigned char *p = fx_build(s, &len);
	int ret = read_bytes(p, len, text, why);

	free(p);
	return ret;
}

/* the text of the dump of @s, which must be readable */
static char *text_of(const struct fx_spec *s)
{
	char why[WHY], *text = NULL;

	if (read_spec(s, &text, why))
		fail_msg("unreadable dump: %s", why);
	return text;
}

/* the log line of one event @e (in fx_main's dump otherwise) */
static char *line_of(const struct fx_event *e, struct fx_spec s)
{
	s.ev = e;
	s.nev = 1;
	s.next = 1;
	s.dropped = 0;
	return text_of(&s);
}

/* a kernel event of @caller: what follows comm="x" on its line */
static void expect_caller(const struct fx_spec *s, uint64_t caller,
			  uint64_t mod_id, const char *tail)
{
	const struct fx_event e = {
		.ts_nsec = 1, .flags = 1u << 9, .new_ = 1u << 9, .ready = 1,
		.comm = "x", .caller = caller, .mod_id = mod_id,
	};
	char want[512], *got = line_of(&e, *s);

	snprintf(want, sizeof(want),
		 "ts=0.000000 utc=- origin=kernel flags=W new=W pid=0 uid=0 auid=0 comm=\"x\"%s\n",
		 tail);
	assert_string_equal(got, want);
	free(got);
}

static void test_caller(void **state)
{
	struct fx_spec rel = fx_main, place = fx_main;

	(void)state;
	rel.relative = true;
	place.place = true;	/* 7.x's form: no kallsyms_relative_base */
	for (int i = 0; i < 3; i++) {
		const struct fx_spec *s = i == 2 ? &place : i ? &rel : &fx_main;

		expect_caller(s, FX_T(0x51d), 0, " caller=warn_site+0x1d/0x30");
		expect_caller(s, FX_T(0x52f), 0, " caller=warn_site+0x2f/0x30");
		expect_caller(s, FX_T(0x530), 0,
			      " caller=after_warn_site+0/0xad0");
		/* aliases: the first of them, size to the next address */
		expect_caller(s, FX_T(0x400), 0, " caller=first_alias+0/0x100");
		expect_caller(s, FX_T(0x4ff), 0,
			      " caller=first_alias+0xff/0x100");
		/* the first text symbol, a multi-character token */
		expect_caller(s, FX_T(0), 0, " caller=_stext+0/0x100");
		expect_caller(s, FX_T(0x1ff), 0,
			      " caller=start_kernel+0xff/0x100");
		/* after the name with two length bytes */
		expect_caller(s, FX_T(0x3ff), 0,
			      " caller=" FX_LONG_NAME "+0x1ff/0x200");
		/* the last symbol's size is not known; before the first
		 * text symbol is no code; a module's code is not named */
		expect_caller(s, FX_T(0x1000), 0, "");
		expect_caller(s, FX_T(0xfffff), 0, "");
		expect_caller(s, FX_T(0) - 1, 0, "");
		expect_caller(s, 0x2a001, 0, "");
		expect_caller(s, FX_T(0x51d), UINT64_C(0xffffffffc0001000), "");
	}
}

static void test_caller_names(void **state)
{
	char long_name[300], longest[2 + 80 * 7];
	const struct fx_sym syms[] = {
		{ "T_stext", FX_T(0) }, { "Tbad[name", FX_T(0x10) },
		{ long_name, FX_T(0x20) }, { "t", FX_T(0x30) },
		{ "Tok.cold", FX_T(0x40) }, { longest, FX_T(0x50) },
		{ "T_etext", FX_T(0x60) },
	};
	struct fx_spec s = fx_main;

	(void)state;
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[0] = 'T';
	long_name[sizeof(long_name) - 1] = '\0';
	/* 80 tokens of "_kernel": 560 characters, cut at KSYM_NAME_LEN - 1
	 * (511) as the kernel's own buffer is, then too long for caller= */
	strcpy(longest, "T");
	for (int i = 0; i < 80; i++)
		strcat(longest, "_kernel");
	s.syms = syms;
	s.nsyms = sizeof(syms) / sizeof(syms[0]);
	expect_caller(&s, FX_T(0x4), 0, " caller=_stext+0x4/0x10");
	/* names that caller= cannot carry, an empty name: left out */
	expect_caller(&s, FX_T(0x14), 0, "");
	expect_caller(&s, FX_T(0x24), 0, "");
	expect_caller(&s, FX_T(0x34), 0, "");
	expect_caller(&s, FX_T(0x44), 0, " caller=ok.cold+0x4/0x10");
	expect_caller(&s, FX_T(0x54), 0, "");
	/* no kallsyms at all */
	s.syms = NULL;
	expect_caller(&s, FX_T(0x4), 0, "");
	/* a table that the dump does not hold */
	{
		static const char *const away[] = {
			"SYMBOL(kallsyms_offsets)=ffffffffa0000000", NULL };

		s = fx_main;
		s.edit = away;
		expect_caller(&s, FX_T(0x51d), 0, "");
	}
}

/* the utc= of an event of @utc, against the C library's gmtime_r() */
static void expect_utc(int64_t utc)
{
	const struct fx_event e = {
		.ts_nsec = 7, .utc = utc, .flags = 1u << 6, .origin = 1,
		.ready = 1, .comm = "x",
	};
	time_t t = (time_t)utc;
	struct tm tm;
	char want[128], date[32], *got = line_of(&e, fx_main);

	assert_non_null(gmtime_r(&t, &tm));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(want, sizeof(want),
		 "ts=0.000000 utc=%s origin=user flags=U new=- pid=0 uid=0 auid=0 comm=\"x\"\n",
		 utc ? date : "-");
	assert_string_equal(got, want);
	free(got);
}

static void test_times(void **state)
{
	static const int64_t edges[] = {
		0, 1, 59, 86399, 86400, 951782399, 951782400, 951868800,
		946684799, 946684800, 1709251199, 1796284800, 4107542399,
		4107542400, 253402300799,
	};
	const struct fx_event e = {
		.ts_nsec = UINT64_MAX, .flags = 1u << 6, .new_ = 1u << 6,
		.origin = 1, .ready = 1, .comm = "x", .auid = UINT32_MAX,
	};
	uint64_t x = 88172645463325252u;
	char *got;

	(void)state;
	setenv("TZ", "UTC", 1);
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		expect_utc(edges[i]);
	for (int i = 0; i < 300; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		expect_utc((int64_t)(x % 253402300800u));
	}
	/* ts: seconds, then microseconds cut (not rounded) */
	got = line_of(&e, fx_main);
	assert_string_equal(got, "ts=18446744073.709551 utc=- origin=user flags=U new=U pid=0 uid=0 auid=- comm=\"x\"\n");
	free(got);
}

static void test_fields(void **state)
{
	static const char reason[] =
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		"0123456789abcdef0123456789abcdef0123456789abcdef\"\\\x7f\x80 x  y"
		"1234567";
	struct fx_event e = {
		.ts_nsec = 1000000, .flags = 0x7ffff, .new_ = 0, .pid = 5,
		.uid = 7, .auid = 4294967294u, .origin = 1, .ready = 1,
		.comm = "0123456789abcdefXYZ", .reason = reason,
		.reason_len = 128,
	};
	char *got;

	(void)state;
	assert_int_equal(sizeof(reason), 129);
	/* a comm of all 16 bytes, no NUL; every flag; a 128-byte reason */
	got = line_of(&e, fx_main);
	assert_string_equal(got, "ts=0.001000 utc=- origin=user flags=PFSRMBUDAWCIOELKXTN new=- pid=5 uid=7 auid=4294967294 comm=\"0123456789abcdef\" reason=\""
			    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
			    "0123456789abcdef0123456789abcdef0123456789abcdef\\\"\\\\\\x7f\\x80 x  y"
			    "1234567\"\n");
	free(got);
	/* a kernel event: no reason whatever reason_len says; module= with
	 * its 56 bytes, spaces escaped; no caller */
	e.origin = 0;
	e.flags = e.new_ = 1u << 12;
	e.reason_len = 200;
	e.module = "m d\xe9";
	got = line_of(&e, fx_main);
	assert_string_equal(got, "ts=0.001000 utc=- origin=kernel flags=O new=O pid=5 uid=7 auid=4294967294 comm=\"0123456789abcdef\" module=m\\x20d\\xe9\n");
	free(got);
}

static void test_slots(void **state)
{
	struct fx_spec s = fx_main;
	char *got;

	(void)state;
	/* only the first next slots; nothing dropped: no dropped= line */
	s.next = 2;
	s.dropped = 0;
	got = text_of(&s);
	assert_non_null(strstr(got, "comm=\"cat\""));
	assert_null(strstr(got, "comm=\"bash\""));
	assert_null(strstr(got, "dropped"));
	free(got);
	/* an empty log */
	s.next = 0;
	got = text_of(&s);
	assert_string_equal(got, "");
	free(got);
	/* next past the length of ev: that many slots, not the 0xff
	 * after them; the unpublished slot 5 skipped */
	s.next = INT32_MAX;
	s.dropped = INT32_MAX;	/* where the kernel's count stops */
	got = text_of(&s);
	assert_null(strstr(got, "comm=\"half\""));
	assert_non_null(strstr(got, "\ndropped=2147483647\n"));
	free(got);
	/* LAYOUT() fields are found by name: one the reader does not know,
	 * the fields in another order, and a second pid (the first counts)
	 * give the same text */
	{
		static const char *const edit[] = {
			"LAYOUT(taint_event) future:7[3]",
			"LAYOUT(taint_event) uid:8 pid:12",
			"LAYOUT(taint_event) ts_nsec",
			"LAYOUT(taint_event) ts_nsec:56",
			"LAYOUT(taint_log) next", "LAYOUT(taint_log) next:20",
			NULL };
		struct fx_spec l = fx_main;
		char *want = text_of(&fx_main);

		l.edit = edit;
		got = text_of(&l);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
	/* Linux's own layout, section header count, zeros past p_filesz
	 * (slots 11-15, read: next is 35), a negative phys_base, relative
	 * kallsyms: the same text */
	{
		struct fx_spec l = fx_main;
		char *want = text_of(&fx_main);

		l.layout = &fx_linux;
		l.xnum = true;
		l.zero_tail = 0x100;
		l.phys_base = -0x1000000;
		l.relative = true;
		l.next = 35;
		got = text_of(&l);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
}

/*
 * A kernel whose log has more slots (40) than ours, more callers (23) and
 * reasons (20), a longer comm (24 bytes), a shorter module name (40,
 * filled, with mod_id's bytes right after it), a longer reason array (150)
 * in larger elements (156 bytes, the text at 4), ev at 12 (as on i386)
 * and slots of 68 bytes (unaligned u64s): a reader that assumed 35 slots,
 * 19 callers, 17 reasons, 16/56/128 bytes or aligned offsets would lose
 * the last event, refuse the last caller and reason entries, cut the comm,
 * run the module name into mod_id or read the wrong reason. Every length
 * comes from VMCOREINFO's LAYOUT() lines.
 */
static void test_lengths(void **state)
{
	static const struct fx_layout wide = {
		.log_size = 12 + 40 * 68 + 23 * 60 + 20 * 156 + 4, .next = 4,
		.dropped = 0, .ev = 12, .slots = 40, .callers = 12 + 40 * 68,
		.ncallers = 23, .reasons = 12 + 40 * 68 + 23 * 60,
		.nreasons = 20,
		.ev_size = 68, .ready = 0, .origin = 1, .reason_len = 2,
		.detail = 3, .pid = 4, .uid = 8, .auid = 12, .flags = 16,
		.new_ = 20, .comm = 24, .comm_len = 24, .utc = 48, .ts = 56,
		.caller_size = 60, .module = 0, .module_len = 40, .mod_id = 40,
		.addr = 48,
		.reason_size = 156, .text = 4, .text_len = 150,
	};
	static char reason[129];
	struct fx_event ev[40];
	struct fx_spec l = fx_main;
	char *got, want[300];
	int lines = 0;

	(void)state;
	memset(reason, 'r', 128);	/* the most the ABI takes */
	for (int i = 0; i < 40; i++)
		ev[i] = (struct fx_event){ .ts_nsec = 1000000000ull * (i + 1),
			.flags = 1u << 6, .pid = i + 1, .auid = UINT32_MAX,
			.origin = 1, .ready = 1, .comm = "sh" };
	ev[0].comm = "a-comm-of-twenty-chars";	/* 22 bytes: > 16, < 24 */
	ev[0].reason_len = 128;
	ev[0].reason = reason;
	ev[0].detail = 19;
	ev[39] = (struct fx_event){ .ts_nsec = 41000000000ull, .flags = 1u << 12,
		.new_ = 1u << 12, .pid = 99, .auid = UINT32_MAX, .ready = 1,
		.comm = "insmod", .mod_id = 0x4141414141414141ull,
		.detail = 22,
		.module = "a-module-name-of-forty-characters-xxxxx" "y" };
	l.layout = &wide;
	l.ev = ev;
	l.nev = 40;
	l.next = 40;
	l.dropped = 0;
	got = text_of(&l);
	for (const char *c = got; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 40);
	assert_non_null(strstr(got, " comm=\"a-comm-of-twenty-chars\" "));
	snprintf(want, sizeof(want), " reason=\"%s\"\n", reason);
	assert_non_null(strstr(got, want));
	assert_non_null(strstr(got, " pid=99 uid=0 auid=- comm=\"insmod\" module=a-module-name-of-forty-characters-xxxxxy\n"));
	free(got);
}

/*
 * Each event's caller and reason are found by its detail index, not by
 * its slot: two reasons in other entries than their slots' (the first
 * crossing from one PT_LOAD segment into the next in Linux's layout),
 * kernel events whose entries are not their slots', and a user event
 * without a reason, whose detail is then no index at all.
 */
static void test_details(void **state)
{
	static char long_reason[121];
	const struct fx_layout *layouts[] = { &fx_shuffled, &fx_linux };

	(void)state;
	for (int i = 0; i < 120; i++)
		long_reason[i] = (char)('a' + i % 26);
	for (int i = 0; i < 2; i++) {
		/* in Linux's layout reasons[12] crosses physical 0x3000 */
		uint8_t far = i ? 12 : 2;
		const struct fx_event ev[] = {
			{ .ts_nsec = 1000, .flags = 1u << 6, .new_ = 1u << 6,
			  .origin = 1, .ready = 1, .comm = "a", .detail = far,
			  .reason = long_reason, .reason_len = 120 },
			{ .ts_nsec = 2000, .flags = 1u << 6, .origin = 1,
			  .ready = 1, .comm = "b", .detail = 0,
			  .reason = "the first entry", .reason_len = 15 },
			{ .ts_nsec = 3000, .flags = 1u << 6, .origin = 1,
			  .ready = 1, .comm = "c", .detail = 255 },
			{ .ts_nsec = 4000, .flags = 1u << 12, .new_ = 1u << 12,
			  .ready = 1, .comm = "d", .detail = 18,
			  .module = "mod18" },
			{ .ts_nsec = 5000, .flags = 1u << 12 | 1u << 0,
			  .new_ = 1u << 0, .ready = 1, .comm = "e", .detail = 0,
			  .module = "mod0" },
		};
		struct fx_spec s = fx_main;
		char want[1024], *got;

		s.layout = layouts[i];
		s.ev = ev;
		s.nev = s.next = 5;
		s.dropped = 0;
		snprintf(want, sizeof(want),
			 "ts=0.000001 utc=- origin=user flags=U new=U pid=0 uid=0 auid=0 comm=\"a\" reason=\"%s\"\n"
			 "ts=0.000002 utc=- origin=user flags=U new=- pid=0 uid=0 auid=0 comm=\"b\" reason=\"the first entry\"\n"
			 "ts=0.000003 utc=- origin=user flags=U new=- pid=0 uid=0 auid=0 comm=\"c\"\n"
			 "ts=0.000004 utc=- origin=kernel flags=O new=O pid=0 uid=0 auid=0 comm=\"d\" module=mod18\n"
			 "ts=0.000005 utc=- origin=kernel flags=PO new=P pid=0 uid=0 auid=0 comm=\"e\" module=mod0\n",
			 long_reason);
		got = text_of(&s);
		assert_string_equal(got, want);
		free(got);
	}
}

/* a bad dump: @err, and a why that holds @part */
static void expect_bad(const struct fx_spec *s, int err, const char *part)
{
	char why[WHY], *text = (char *)1;

	assert_int_equal(read_spec(s, &text, why), err);
	if (!strstr(why, part))
		fail_msg("why: '%s', expected '%s' in it", why, part);
}

static void test_bad(void **state)
{
	static const char *const edits[][3] = {
		{ "LAYOUT(taint_event) comm:80[16]",
		  "taint_event.comm (offset 80, 16 bytes) does not fit in LAYOUT(taint_event) (88 bytes)" },
		{ "LAYOUT(taint_log) ev:480[4097]", "ev length 4097 is out of range" },
		{ "LAYOUT(taint_log) ev:480[27]",
		  "taint_log.ev (offset 480, 2376 bytes) does not fit in LAYOUT(taint_log) (2808 bytes)" },
		{ "LAYOUT(taint_log) next:2805", "taint_log.next (offset 2805, 4 bytes) does not fit" },
		{ "LAYOUT(taint_event) =18446744073709551616", "LAYOUT(taint_event) is not of the form" },
		{ "LAYOUT(taint_event) =65537", "size 65537 is out of range" },
		{ "LAYOUT(taint_event) comm:24[65]", "comm length 65 is out of range" },
		{ "LAYOUT(taint_event) comm:24[0]", "array comm has length 0 or none" },
		{ "LAYOUT(taint_event) comm:24", "array comm has length 0 or none" },
		{ "LAYOUT(taint_event) pid:4[4]", "pid has a length but is not an array" },
		{ "LAYOUT(taint_event) pid:-4", "LAYOUT(taint_event) is not of the form" },
		{ "LAYOUT(taint_event) pid:4]x:1", "LAYOUT(taint_event) is not of the form" },
		{ "LAYOUT(taint_event) pid:4[4", "LAYOUT(taint_event) is not of the form" },
		{ "LAYOUT(taint_event) pid", "LAYOUT(taint_event) has no field pid" },
		{ "LAYOUT(taint_event)", "no LAYOUT(taint_event)" },
		{ "LAYOUT(taint_log)=2808 next:20 dropped:8  ev:480[9] callers:1280[19] reasons:32[3]", "LAYOUT(taint_log) is not of the form" },
		{ "LAYOUT(taint_log)=2808 next:20 dropped:8 ev:480[9] callers:1280[19] reasons:32[3] ", "LAYOUT(taint_log) is not of the form" },
		{ "LAYOUT(taint_log)=", "LAYOUT(taint_log) is not of the form" },
		{ "LAYOUT(taint_log)=2808 next:20 dropped:8 ev:480[9] callers:1280[19] reasons:32[3] :4", "LAYOUT(taint_log) is not of the form" },
		/* the arrays beside the slots, and their elements */
		{ "LAYOUT(taint_log) callers:1280[4097]", "callers length 4097 is out of range" },
		{ "LAYOUT(taint_log) callers:1280[20]",
		  "taint_log.callers (offset 1280, 1600 bytes) does not fit in LAYOUT(taint_log) (2808 bytes)" },
		{ "LAYOUT(taint_log) callers:1280", "array callers has length 0 or none" },
		{ "LAYOUT(taint_log) callers", "LAYOUT(taint_log) has no field callers" },
		{ "LAYOUT(taint_log) reasons:32[21]", "taint_log.reasons (offset 32, 2856 bytes) does not fit" },
		{ "LAYOUT(taint_log) reasons:2809[1]", "taint_log.reasons (offset 2809, 136 bytes) does not fit" },
		{ "LAYOUT(taint_log) reasons", "LAYOUT(taint_log) has no field reasons" },
		{ "LAYOUT(taint_event) detail", "LAYOUT(taint_event) has no field detail" },
		{ "LAYOUT(taint_event) detail:88",
		  "taint_event.detail (offset 88, 1 bytes) does not fit in LAYOUT(taint_event) (88 bytes)" },
		{ "LAYOUT(taint_event) detail:43[1]", "detail has a length but is not an array" },
		{ "LAYOUT(taint_caller)", "SYMBOL(taint_events) but no LAYOUT(taint_caller)" },
		{ "LAYOUT(taint_caller) =65537", "LAYOUT(taint_caller) size 65537 is out of range" },
		{ "LAYOUT(taint_caller) =81", "taint_log.callers (offset 1280, 1539 bytes) does not fit" },
		{ "LAYOUT(taint_caller) addr:73",
		  "taint_caller.addr (offset 73, 8 bytes) does not fit in LAYOUT(taint_caller) (80 bytes)" },
		{ "LAYOUT(taint_caller) addr:64[8]", "addr has a length but is not an array" },
		{ "LAYOUT(taint_caller) mod_id", "LAYOUT(taint_caller) has no field mod_id" },
		{ "LAYOUT(taint_caller) module:8[65]", "module length 65 is out of range" },
		{ "LAYOUT(taint_caller) module:8", "array module has length 0 or none" },
		{ "LAYOUT(taint_reason)", "SYMBOL(taint_events) but no LAYOUT(taint_reason)" },
		{ "LAYOUT(taint_reason) text:8[256]", "text length 256 is out of range" },
		{ "LAYOUT(taint_reason) text:9[128]",
		  "taint_reason.text (offset 9, 128 bytes) does not fit in LAYOUT(taint_reason) (136 bytes)" },
		{ "LAYOUT(taint_reason) text", "LAYOUT(taint_reason) has no field text" },
		{ "LAYOUT(taint_reason)=136 text:8[128] x", "LAYOUT(taint_reason) is not of the form" },
		{ "NUMBER(TAINT_FLAGS_COUNT)=33", "out of range" },
		{ "NUMBER(phys_base)", "no NUMBER(phys_base)" },
		{ "NUMBER(phys_base)=0x10", "malformed NUMBER(phys_base)" },
		{ "SYMBOL(taint_events)=xyz", "not a hexadecimal" },
		{ "SYMBOL(taint_events)=1000", "is not in the dump" },
		{ "SYMBOL(taint_events)=ffffffffffffffff", "is not in the dump" },
	};
	struct fx_event ev[sizeof(fx_events) / sizeof(fx_events[0])];
	struct fx_spec s = fx_main;
	size_t len;
	unsigned char *p;
	char why[WHY], *text = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		const char *one[] = { edits[i][0], NULL };

		s.edit = one;
		expect_bad(&s, -EBADMSG, edits[i][1]);
	}
	/* a key is matched whole, up to its '=': a line whose name only
	 * begins with it is another key */
	{
		const char *two[] = { "NUMBER(phys_base)", "NUMBER(phys_base)x=0",
				      NULL };

		s.edit = two;
		expect_bad(&s, -EBADMSG, "no NUMBER(phys_base)");
	}
	s = fx_main;
	s.stock = true;
	expect_bad(&s, -ENOENT, "(6.12.118-usertaint) keeps no taint log");
	s = fx_main;
	s.no_vmcoreinfo = true;
	expect_bad(&s, -EBADMSG, "no VMCOREINFO note");
	/* the series' first layout, a caller or reason in each slot */
	s = fx_main;
	s.edit = fx_first_layout;
	expect_bad(&s, -ENOTSUP, "the taint log has the layout of an unreleased version of the series (a caller or reason inside each slot, no LAYOUT(taint_caller) in VMCOREINFO)");
	/* a caller's or a reason's entry where the dump has no memory */
	{
		static const char *const far_callers[] = {
			"LAYOUT(taint_log) =1000000",
			"LAYOUT(taint_log) callers:900000[19]", NULL };
		static const char *const far_reasons[] = {
			"LAYOUT(taint_log) =1000000",
			"LAYOUT(taint_log) reasons:900000[3]", NULL };

		s.edit = far_callers;
		expect_bad(&s, -EBADMSG, "taint_log.callers[12] of taint log slot 0 (address 0x");
		s.edit = far_reasons;
		expect_bad(&s, -EBADMSG, "taint_log.reasons[2] of taint log slot 3 (address 0x");
	}
	/* slots the kernel cannot have written */
	s = fx_main;
	s.ev = ev;
	memcpy(ev, fx_events, sizeof(ev));
	ev[3].reason_len = 129;
	expect_bad(&s, -EBADMSG, "slot 3 is corrupt: reason_len 129 (taint_reason.text is 128 bytes)");
	/* a reason longer than the text array VMCOREINFO gives */
	{
		static const char *const short_text[] = {
			"LAYOUT(taint_reason) text:8[100]", NULL };

		ev[3].reason_len = 100;
		s.edit = short_text;
		free(text_of(&s));
		ev[3].reason_len = 101;
		expect_bad(&s, -EBADMSG, "slot 3 is corrupt: reason_len 101 (taint_reason.text is 100 bytes)");
		s.edit = NULL;
	}
	/* detail past callers[] (a kernel event) or reasons[] (a reason),
	 * as long as VMCOREINFO says */
	memcpy(ev, fx_events, sizeof(ev));
	ev[1].detail = 19;
	expect_bad(&s, -EBADMSG, "slot 1 is corrupt: detail 19 of a kernel event, past taint_log.callers (19 entries)");
	ev[1].detail = 255;
	expect_bad(&s, -EBADMSG, "slot 1 is corrupt: detail 255 of a kernel event, past taint_log.callers (19 entries)");
	{
		static const char *const fewer[] = {
			"LAYOUT(taint_log) callers:1280[12]", NULL };

		memcpy(ev, fx_events, sizeof(ev));
		s.edit = fewer;
		expect_bad(&s, -EBADMSG, "slot 0 is corrupt: detail 12 of a kernel event, past taint_log.callers (12 entries)");
		s.edit = NULL;
	}
	memcpy(ev, fx_events, sizeof(ev));
	ev[3].detail = 3;
	expect_bad(&s, -EBADMSG, "slot 3 is corrupt: detail 3 of a reason, past taint_log.reasons (3 entries)");
	ev[3].detail = 255;
	expect_bad(&s, -EBADMSG, "slot 3 is corrupt: detail 255 of a reason, past taint_log.reasons (3 entries)");
	memcpy(ev, fx_events, sizeof(ev));
	ev[1].new_ = 1u << 10;
	expect_bad(&s, -EBADMSG, "slot 1 is corrupt: flags 0x200, new 0x400");
	memcpy(ev, fx_events, sizeof(ev));
	ev[1].flags = ev[1].new_ = 1u << 19;
	expect_bad(&s, -EBADMSG, "slot 1 is corrupt: flags 0x80000");
	memcpy(ev, fx_events, sizeof(ev));
	ev[2].pid = -1;
	expect_bad(&s, -EBADMSG, "slot 2 is corrupt: pid -1");
	memcpy(ev, fx_events, sizeof(ev));
	ev[2].utc = -1;
	expect_bad(&s, -EBADMSG, "slot 2 is corrupt: utc -1");
	ev[2].utc = 253402300800;
	expect_bad(&s, -EBADMSG, "slot 2 is corrupt: utc 253402300800");
	memcpy(ev, fx_events, sizeof(ev));
	s.flags_count = 21;
	ev[1].flags = ev[1].new_ = 1u << 20;
	expect_bad(&s, -ENOTSUP, "flag bit 20, which this version");
	s = fx_main;
	s.next = -1;
	expect_bad(&s, -EBADMSG, "corrupt: next -1");
	s.next = 1;
	s.dropped = -2;
	expect_bad(&s, -EBADMSG, "dropped -2");

	/* the file itself */
	p = fx_build(&fx_main, &len);
	assert_int_equal(read_bytes(p, len - 1, &text, why), -EBADMSG);
	assert_non_null(strstr(why, "truncated: it has"));
	assert_int_equal(read_bytes(p, 100, &text, why), -EBADMSG);
	assert_non_null(strstr(why, "truncated (100 bytes): the program header table"));
	assert_int_equal(read_bytes(p, 20, &text, why), -EBADMSG);
	assert_non_null(strstr(why, "truncated (20 bytes): the ELF header"));
	assert_int_equal(read_bytes(p, 0, &text, why), -EBADMSG);
	assert_non_null(strstr(why, "no ELF magic"));
	p[EI_CLASS] = ELFCLASS32;
	assert_int_equal(read_bytes(p, len, &text, why), -ENOTSUP);
	p[EI_CLASS] = ELFCLASS64;
	p[EI_DATA] = ELFDATA2MSB;
	assert_int_equal(read_bytes(p, len, &text, why), -ENOTSUP);
	p[EI_DATA] = ELFDATA2LSB;
	fx_le(p + offsetof(Elf64_Ehdr, e_machine), EM_386, 2);
	assert_int_equal(read_bytes(p, len, &text, why), -ENOTSUP);
	assert_non_null(strstr(why, "another architecture (ELF machine 3)"));
	fx_le(p + offsetof(Elf64_Ehdr, e_machine), EM_X86_64, 2);
	fx_le(p + offsetof(Elf64_Ehdr, e_type), ET_DYN, 2);
	assert_int_equal(read_bytes(p, len, &text, why), -EBADMSG);
	fx_le(p + offsetof(Elf64_Ehdr, e_type), ET_CORE, 2);
	fx_le(p + offsetof(Elf64_Ehdr, e_phentsize), 32, 2);
	assert_int_equal(read_bytes(p, len, &text, why), -EBADMSG);
	fx_le(p + offsetof(Elf64_Ehdr, e_phentsize), sizeof(Elf64_Phdr), 2);
	fx_le(p + offsetof(Elf64_Ehdr, e_phnum), 0, 2);
	assert_int_equal(read_bytes(p, len, &text, why), -EBADMSG);
	fx_le(p + offsetof(Elf64_Ehdr, e_phnum), PN_XNUM, 2);
	assert_int_equal(read_bytes(p, len, &text, why), -EBADMSG);
	assert_non_null(strstr(why, "PN_XNUM"));
	/* makedumpfile's formats (vmcore_diskdump.c): an ELF core behind
	 * their signatures is neither */
	memcpy(p, "makedumpfile\0\0\0\0", 16);
	assert_int_equal(read_bytes(p, len, &text, why), -EBADMSG);
	assert_non_null(strstr(why, "a flattened dump (\"makedumpfile\") of unknown type"));
	memcpy(p, "KDUMP   ", 8);
	assert_int_equal(read_bytes(p, len, &text, why), -ENOTSUP);
	assert_non_null(strstr(why, "a kdump-compressed dump of another machine"));
	free(p);
	/* a segment whose physical range wraps around 2^64 (its file range
	 * is fine): the second program header, 0x2000 bytes of memory */
	p = fx_build(&fx_main, &len);
	fx_le(p + sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) +
	      offsetof(Elf64_Phdr, p_paddr), UINT64_MAX - 0xfff, 8);
	assert_int_equal(read_bytes(p, len, &text, why), -EBADMSG);
	if (!strstr(why, "program header 1: the segment wraps around"))
		fail_msg("why: '%s'", why);
	free(p);
	/* not a regular file */
	{
		int dir = open("/", O_RDONLY | O_DIRECTORY);
		size_t n;

		assert_int_equal(taint_vmcore_read_log(dir, &text, &n, why, WHY),
				 -EISDIR);
		close(dir);
	}
}

/* --- fuzzing ------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : rng;
}

/* a VMCOREINFO edit: a key the reader uses, an extreme or random value */
static void fuzz_edit(char *buf, size_t size)
{
	static const char *const keys[] = {
		"SYMBOL(taint_events)", "NUMBER(TAINT_FLAGS_COUNT)",
		"LAYOUT(taint_log)", "LAYOUT(taint_event)",
		"LAYOUT(taint_caller)", "LAYOUT(taint_reason)",
		"LAYOUT(taint_log) ", "LAYOUT(taint_log) next",
		"LAYOUT(taint_log) dropped", "LAYOUT(taint_log) ev",
		"LAYOUT(taint_log) callers", "LAYOUT(taint_log) reasons",
		"LAYOUT(taint_event) ", "LAYOUT(taint_event) ts_nsec",
		"LAYOUT(taint_event) utc", "LAYOUT(taint_event) flags",
		"LAYOUT(taint_event) new", "LAYOUT(taint_event) pid",
		"LAYOUT(taint_event) uid", "LAYOUT(taint_event) auid",
		"LAYOUT(taint_event) origin", "LAYOUT(taint_event) ready",
		"LAYOUT(taint_event) reason_len", "LAYOUT(taint_event) detail",
		"LAYOUT(taint_event) comm",
		"LAYOUT(taint_caller) ", "LAYOUT(taint_caller) addr",
		"LAYOUT(taint_caller) mod_id", "LAYOUT(taint_caller) module",
		"LAYOUT(taint_reason) ", "LAYOUT(taint_reason) text",
		"NUMBER(phys_base)", "SYMBOL(kallsyms_names)",
		"SYMBOL(kallsyms_num_syms)", "SYMBOL(kallsyms_token_table)",
		"SYMBOL(kallsyms_token_index)", "SYMBOL(kallsyms_offsets)",
		"SYMBOL(kallsyms_relative_base)",
	};
	static const char *const values[] = {
		"", "0", "1", "-1", "7", "64", "255", "256", "4096", "4097",
		"65536", "1073741824", "2147483648", "4294967295",
		"18446744073709551615", "18446744073709551616",
		"99999999999999999999999", "-9223372036854775808", "zz",
		"ffffffffffffffff", "ffffffff80000000", "ffffffffa0000000",
		"0x10", " 1", "1 ",
	};
	const char *k = keys[rnd(sizeof(keys) / sizeof(keys[0]))];
	/* a field of a LAYOUT() line ("KEY f"), or its size ("KEY ") */
	const char *f = strchr(k, ' ');
	const char *sep = !f ? "=" : f[1] ? ":" : "=";
	char v[64];

	switch (rnd(4)) {
	case 0:
		snprintf(v, sizeof(v), "%s",
			 values[rnd(sizeof(values) / sizeof(values[0]))]);
		break;
	case 1:
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)rnd(rnd(2) ? 512 : 0));
		break;
	case 2:
		snprintf(v, sizeof(v), "%llu[%s]",
			 (unsigned long long)rnd(rnd(2) ? 512 : 0),
			 values[rnd(sizeof(values) / sizeof(values[0]))]);
		break;
	default:	/* a nearby address */
		snprintf(v, sizeof(v), "%llx",
			 (unsigned long long)(FX_DATA + 0x2c400000 +
					      rnd(FX_IMG + 64) - 32));
		break;
	}
	if (rnd(4) == 0 && !(f && !f[1]))
		snprintf(buf, size, "%s", k);	/* removed */
	else
		snprintf(buf, size, "%s%s%s", k, sep, v);
}

/* one mutation of the dump of @base into *@p (@len bytes) */
static void mutate(const struct fx_spec *base, unsigned char **p,
		   size_t *len)
{
	char e[3][160];
	const char *edit[4] = { NULL };
	struct fx_spec s = *base;
	int kind = (int)rnd(8);

	if (kind == 0) {	/* VMCOREINFO edits */
		for (int i = 0, n = (int)rnd(3) + 1; i < n; i++) {
			fuzz_edit(e[i], sizeof(e[i]));
			edit[i] = e[i];
		}
		s.edit = edit;
	} else if (kind == 1) {	/* the log's counters */
		s.next = (int32_t)rnd(0);
		s.dropped = (int32_t)(rnd(0) >> rnd(33));
	}
	*p = fx_build(&s, len);
	switch (kind) {
	case 2:			/* bit flips anywhere */
		for (int i = 0, n = (int)rnd(8) + 1; i < n; i++)
			(*p)[rnd(*len)] ^= (unsigned char)(1u << rnd(8));
		break;
	case 3:			/* cut short */
		*len = rnd(*len);
		break;
	case 4: {		/* a header field: 0, all ones, or random */
		size_t at = rnd(sizeof(Elf64_Ehdr) + 5 * sizeof(Elf64_Phdr));
		size_t w = (size_t)1 << rnd(4);
		uint64_t v = rnd(3) == 0 ? 0 : rnd(2) ? UINT64_MAX : rnd(0);

		if (at + w <= *len)
			fx_le(*p + at, v, (unsigned int)w);
		break;
	}
	case 5: {		/* a field of the CORE or the VMCOREINFO note */
		size_t at = sizeof(Elf64_Ehdr) + 5 * sizeof(Elf64_Phdr) +
			    (s.xnum ? sizeof(Elf64_Shdr) : 0) +
			    (rnd(2) ? 12 + 8 + 336 : 0) + 4 * rnd(3);
		static const uint32_t v[] = { 0, 1, 3, 11, 0x7fffffff,
					      0xfffffff0, 0xffffffff };

		fx_le(*p + at, rnd(2) ? v[rnd(7)] : rnd(0x10000), 4);
		break;
	}
	case 6:			/* random bytes in the memory segments */
	case 7:
		for (int i = 0, n = (int)rnd(16) + 1; i < n; i++)
			(*p)[*len - 1 - rnd(FX_IMG)] = (unsigned char)rnd(256);
		break;
	}
}

/* the malformed lines of @text (each printed) */
static int parse_all(const char *text, unsigned int round)
{
	int bad = 0;

	for (const char *s = text, *nl; *s; s = nl + 1) {
		struct taint_event ev = TAINT_INIT(struct taint_event);
		const char *why = NULL;
		uint64_t dropped;

		nl = strchr(s, '\n');
		assert_non_null(nl);
		if (taint_log_parse_line(s, (size_t)(nl - s), &ev, &dropped,
					 &why) < 0) {
			bad++;
			print_message("round %u: %.*s: %s\n", round,
				      (int)(nl - s), s, why);
		}
	}
	return bad;
}

static void test_fuzz(void **state)
{
	struct fx_spec linux_ = fx_main;
	const struct fx_spec *bases[] = { &fx_main, &linux_ };
	unsigned int outcome[4] = { 0 };
	struct timespec t0, t1;

	(void)state;
	linux_.layout = &fx_linux;
	linux_.xnum = true;
	linux_.relative = true;
	linux_.phys_base = -0x1000000;
	linux_.zero_tail = 0x100;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned int round = 0; round < FUZZ_ROUNDS; round++) {
		unsigned char *p;
		size_t len;
		char why[WHY], *text = NULL;
		int ret;

		mutate(bases[round % 2], &p, &len);
		ret = read_bytes(p, len, &text, why);
		free(p);
		if (ret == 0) {
			assert_int_equal(parse_all(text, round), 0);
			free(text);
			outcome[0]++;
		} else if (ret == -EBADMSG || ret == -ENOTSUP ||
			   ret == -ENOENT) {
			assert_true(why[0] != '\0');
			assert_null(strchr(why, '\n'));
			outcome[ret == -EBADMSG ? 1 : ret == -ENOTSUP ? 2 : 3]++;
		} else {
			fail_msg("round %u: %d (%s)", round, ret, strerror(-ret));
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# fuzz: %u mutated dumps in %.2f s: %u read, %u -EBADMSG, %u -ENOTSUP, %u -ENOENT\n",
	       FUZZ_ROUNDS, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, outcome[0],
	       outcome[1], outcome[2], outcome[3]);
	assert_true(outcome[0] > FUZZ_ROUNDS / 10);
	assert_true(outcome[1] > FUZZ_ROUNDS / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caller),
		cmocka_unit_test(test_caller_names),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_details),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("vmcore", tests, setup, teardown);
}
