// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_log.c - parsing /proc/sys/kernel/taint_log lines (docs/abi.md 1.3).
 */
#include <errno.h>
#include <stdio.h>

#include "log_internal.h"
#include "test_util.h"

static int parse(const char *line, struct taint_event *ev, uint64_t *dropped,
		 const char **why)
{
	*why = NULL;
	return taint_log_parse_line(line, strlen(line), ev, dropped, why);
}

static void test_user_event(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	assert_int_equal(parse("ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 comm=\"sh\" reason=\"RTSJ physical memory access\"",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_string_equal(ev.ts, "3.123456");
	assert_string_equal(ev.utc, "2026-12-03T08:00:00Z");
	assert_int_equal(ev.origin, TAINT_ORIGIN_USER);
	assert_string_equal(ev.flags, "U");
	assert_string_equal(ev.new_flags, "U");
	assert_true(ev.flags_mask == 64 && ev.new_mask == 64);
	assert_int_equal(ev.pid, 77);
	assert_int_equal(ev.uid, 0);
	assert_string_equal(ev.comm, "sh");
	assert_int_equal(ev.comm_len, 2);
	assert_true(ev.has_reason);
	assert_string_equal(ev.reason, "RTSJ physical memory access");
	assert_false(ev.has_caller);
	assert_int_equal(ev.unknown_fields, 0);
}

static void test_kernel_event(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	assert_int_equal(parse("ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"swapper/0\" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_string_equal(ev.utc, "-");
	assert_int_equal(ev.origin, TAINT_ORIGIN_KERNEL);
	assert_string_equal(ev.comm, "swapper/0");
	assert_true(ev.has_caller);
	assert_string_equal(ev.caller, "lkdtm_WARNING+0x1d/0x30 [lkdtm]");
	assert_false(ev.has_reason);

	assert_int_equal(parse("ts=0.000000 utc=- origin=kernel flags=PWO new=- pid=0 uid=0 comm=\"x\" caller=do_init_module+0x1/0x2",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_string_equal(ev.caller, "do_init_module+0x1/0x2");
	assert_string_equal(ev.new_flags, "");
	assert_true(ev.new_mask == 0);
	assert_true(ev.flags_mask == 4609);
}

static void test_escapes(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	assert_int_equal(parse("ts=5.000001 utc=- origin=user flags=U new=- pid=4194304 uid=4294967295 comm=\"a\\\\b\\\"c\\x00d\\x7f\\xff\" reason=\"say \\\"hi\\\" \\\\o/\"",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(ev.comm_len, 9);
	assert_memory_equal(ev.comm, "a\\b\"c\0d\x7f\xff", 9);
	assert_string_equal(ev.reason, "say \"hi\" \\o/");
	assert_int_equal(ev.pid, 4194304);
	assert_true(ev.uid == UINT32_MAX);
}

/* v1 lines have no auid= and no module=: both absent, not zero */
static void test_v1_has_no_v2_fields(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	assert_int_equal(parse("ts=3.123456 utc=- origin=user flags=U new=U pid=77 uid=0 comm=\"sh\" reason=\"r\"",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_false(ev.has_auid);
	assert_false(ev.auid_set);
	assert_false(ev.has_module);
	assert_int_equal(ev.unknown_fields, 0);
}

static void test_v2_user_event(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	assert_int_equal(parse("ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm=\"sudo\" reason=\"RTSJ physical memory access\"",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(ev.pid, 77);
	assert_true(ev.has_auid);
	assert_true(ev.auid_set);
	assert_int_equal(ev.auid, 1000);
	assert_string_equal(ev.comm, "sudo");
	assert_false(ev.has_module);
	assert_false(ev.has_caller);
	assert_true(ev.has_reason);
	assert_int_equal(ev.unknown_fields, 0);

	/* auid=- (no login uid); 4294967295 is a number like any other */
	assert_int_equal(parse("ts=4.000000 utc=- origin=user flags=SU new=S pid=1 uid=0 auid=- comm=\"init\"",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_true(ev.has_auid);
	assert_false(ev.auid_set);
	assert_int_equal(ev.auid, 0);
	assert_false(ev.has_reason);
	assert_true(ev.flags_mask == 68 && ev.new_mask == 4);
	assert_int_equal(parse("ts=4.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=4294967295 comm=\"x\"",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_true(ev.auid_set && ev.auid == UINT32_MAX);
}

static void test_v2_module(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	/* the module that holds the caller */
	assert_int_equal(parse("ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=- comm=\"cat\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_true(ev.has_module);
	assert_string_equal(ev.module, "lkdtm");
	assert_int_equal(ev.module_len, 5);
	assert_true(ev.has_caller);
	assert_string_equal(ev.caller, "lkdtm_WARNING+0x1d/0x30");
	assert_int_equal(ev.unknown_fields, 0);

	/* the module whose loading set the flag: no caller; escapes */
	assert_int_equal(parse("ts=2.000000 utc=- origin=kernel flags=O new=O pid=90 uid=0 auid=1000 comm=\"insmod\" module=my\\x20mod\\\\x\\\"q\\x01\\xff",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_true(ev.has_module);
	assert_int_equal(ev.module_len, 12);
	assert_memory_equal(ev.module, "my mod\\x\"q\x01\xff", 12);
	assert_false(ev.has_caller);
	assert_false(ev.has_reason);
	assert_int_equal(ev.unknown_fields, 0);

	/* longest module name the kernel has (55 bytes), and the cap */
	char line[512], name[80];

	memset(name, 'm', 64);
	name[64] = '\0';
	snprintf(line, sizeof(line), "ts=1.000000 utc=- origin=kernel flags=P new=P pid=1 uid=0 auid=- comm=\"x\" module=%s", name);
	assert_int_equal(parse(line, &ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(ev.module_len, 64);
	name[64] = 'm';
	name[65] = '\0';
	snprintf(line, sizeof(line), "ts=1.000000 utc=- origin=kernel flags=P new=P pid=1 uid=0 auid=- comm=\"x\" module=%s", name);
	assert_int_equal(parse(line, &ev, &d, &why), -EINVAL);
	assert_string_equal(why, "module too long");
}

/*
 * A line inside a larger buffer (a console log): an escape cut by the
 * line's end is malformed, even where the bytes after the line would
 * complete it ("\x2" then "f"), in a word (module=) and in quotes; and
 * alone in a buffer of its length, not a byte more, nothing past its end
 * is read (ASan).
 */
static void test_escape_cut_by_line_end(void **state)
{
	static const char *const lines[] = {
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=ab\\x2f",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=- comm=\"x\" reason=\"ab\\x2f\"",
	};

	(void)state;
	for (size_t l = 0; l < sizeof(lines) / sizeof(lines[0]); l++) {
		size_t len = strlen(lines[l]);

		for (size_t cut = 1; cut <= 3; cut++) {
			struct taint_event ev = TAINT_INIT(struct taint_event);
			uint64_t d;
			const char *why = NULL;
			/* the line ends "\x2", "\x", "\" (quoted: no quote) */
			size_t n = l ? len - 1 - cut : len - cut;

			char *alone = malloc(n);

			if (taint_log_parse_line(lines[l], n, &ev, &d, &why) >= 0)
				fail_msg("'%.*s' (the next bytes '%s' not in it) parsed",
					 (int)n, lines[l], lines[l] + n);
			assert_non_null(alone);
			memcpy(alone, lines[l], n);
			assert_true(taint_log_parse_line(alone, n, &ev, &d,
							 &why) < 0);
			free(alone);
		}
		{
			struct taint_event ev = TAINT_INIT(struct taint_event);
			uint64_t d;
			const char *why = NULL;

			/* whole: "ab/" */
			assert_int_equal(taint_log_parse_line(lines[l], len, &ev,
							      &d, &why),
					 TAINT_LOG_EVENT);
		}
	}
}

static void test_v2_malformed(void **state)
{
	static const char *const bad[] = {
		/* auid */
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid= comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=x comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=-1 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=-- comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=4294967296 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=01 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=1 auid=1 comm=\"x\"",
		/* module: empty, quoted, raw quote, bad escape, raw control
		 * byte, cut escape, on a user event, twice */
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module= caller=f+0x1/0x2",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=\"m\"",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=a\"b",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=a\\qb",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=a\tb",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=ab\\x2",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=ab\\",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=- comm=\"x\" module=m",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=m module=m",
		/* a module with a raw space is two fields, the second no key=value */
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=my mod",
		/* raw bytes that the kernel escapes: DEL, 8-bit (UTF-8 too) */
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=- comm=\"caf\xc3\xa9\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=- comm=\"a\x7f\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 auid=- comm=\"x\" reason=\"\xff\"",
		"ts=1.000000 utc=- origin=kernel flags=O new=O pid=1 uid=0 auid=- comm=\"x\" module=m\xff",
	};
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &ev, &d, &why) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
	}
}

static void test_dropped(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d = 0;
	const char *why;

	(void)state;
	assert_int_equal(parse("dropped=5", &ev, &d, &why), TAINT_LOG_DROPPED);
	assert_true(d == 5);
	assert_int_equal(parse("dropped=", &ev, &d, &why), -EINVAL);
	assert_int_equal(parse("dropped=-1", &ev, &d, &why), -EINVAL);
	assert_int_equal(parse("dropped=5x", &ev, &d, &why), -EINVAL);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage",
		"ts=1.000000",
		/* missing comm */
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0",
		/* bad ts, utc, origin, flags, new, pid, uid */
		"ts=1.0 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=2026-12-03 origin=user flags=U new=U pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=alien flags=U new=U pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=u new=U pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new= pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=-1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=4294967296 comm=\"x\"",
		/* quoting */
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=x",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"\\q\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"\\x4\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"\tx\"",
		/* separators */
		"ts=1.000000  utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\" ",
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\"y",
		/* duplicate, reason on kernel event, bad caller */
		"ts=1.000000 ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\"",
		"ts=1.000000 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"x\" reason=\"r\"",
		"ts=1.000000 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"x\" caller=",
		"ts=1.000000 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"x\" caller=f+0x1/0x2 [mod",
	};
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &ev, &d, &why) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
	}
}

static void test_too_long(void **state)
{
	char line[1024], reason[200];
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	memset(reason, 'r', 129);
	reason[129] = '\0';
	snprintf(line, sizeof(line), "ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\" reason=\"%s\"",
		 reason);
	assert_int_equal(parse(line, &ev, &d, &why), -EINVAL);
	assert_string_equal(why, "reason too long");
	reason[128] = '\0';
	snprintf(line, sizeof(line), "ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\" reason=\"%s\"",
		 reason);
	assert_int_equal(parse(line, &ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(ev.reason_len, 128);
}

static void test_unknown_field(void **state)
{
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	assert_int_equal(parse("ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"x\" cgroup=\"/a b\" seq=7",
			       &ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(ev.unknown_fields, 2);
	assert_string_equal(ev.unknown_field, "cgroup");
}

struct collected {
	unsigned int events, lines[8], problems, fatal;
	unsigned int problem_line[8];
};

static int on_event(const struct taint_event *ev, unsigned int lineno,
		    void *arg)
{
	struct collected *c = arg;

	(void)ev;
	c->lines[c->events++] = lineno;
	return 0;
}

static void on_problem(unsigned int lineno, bool fatal, const char *msg,
		       void *arg)
{
	struct collected *c = arg;

	assert_non_null(msg);
	c->problem_line[c->problems++] = lineno;
	c->fatal += fatal;
}

static void test_parse_whole(void **state)
{
	static const struct taint_log_ops ops = {
		.size = sizeof(ops), .event = on_event, .problem = on_problem,
	};
	const char *log =
		"ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"swapper/0\" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]\n"
		"ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 comm=\"sh\" reason=\"r\"\n"
		"bogus line\n"
		"ts=4.000000 utc=- origin=user flags=U new=- pid=78 uid=0 comm=\"sh\" extra=1\n"
		"dropped=5\n";
	struct collected c = { 0 };
	uint64_t dropped = 0;

	(void)state;
	assert_int_equal(taint_log_parse(log, strlen(log), &ops, &c, &dropped),
			 1);
	assert_int_equal(c.events, 3);
	assert_int_equal(c.lines[0], 1);
	assert_int_equal(c.lines[2], 4);
	assert_int_equal(c.problems, 2);
	assert_int_equal(c.fatal, 1);
	assert_int_equal(c.problem_line[0], 3);
	assert_int_equal(c.problem_line[1], 4);
	assert_true(dropped == 5);

	/* dropped= must be last; no trailing newline is fine; empty log */
	memset(&c, 0, sizeof(c));
	log = "dropped=2\nts=4.000000 utc=- origin=user flags=U new=- pid=78 uid=0 comm=\"sh\"";
	assert_int_equal(taint_log_parse(log, strlen(log), &ops, &c, &dropped),
			 1);
	assert_int_equal(c.events, 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(taint_log_parse("", 0, &ops, &c, &dropped), 0);
	assert_true(dropped == 0);
}

/* CR LF line ends (a copy saved on Windows): the same events */
static void test_parse_crlf(void **state)
{
	static const struct taint_log_ops ops = {
		.size = sizeof(ops), .event = on_event, .problem = on_problem,
	};
	const char *log =
		"ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"swapper/0\" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]\r\n"
		"ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 comm=\"sh\" reason=\"r\"\r\n"
		"ts=4.000000 utc=- origin=user flags=U new=- pid=78 uid=0 auid=- comm=\"sh\"\r\n"
		"dropped=5\r";
	struct collected c = { 0 };
	uint64_t dropped = 0;

	(void)state;
	assert_int_equal(taint_log_parse(log, strlen(log), &ops, &c, &dropped),
			 0);
	assert_int_equal(c.events, 3);
	assert_int_equal(c.problems, 0);
	assert_true(dropped == 5);
	/* a CR inside a line is still not text */
	memset(&c, 0, sizeof(c));
	log = "ts=4.000000 utc=- origin=user flags=U new=- pid=78 uid=0 comm=\"sh\"\r \r\n";
	assert_int_equal(taint_log_parse(log, strlen(log), &ops, &c, &dropped),
			 1);
}

static void test_escape_roundtrip(void **state)
{
	const char raw[] = "a\\b\"c\0d\n\x7f\xff~ ";
	char esc[128], back[64];
	size_t out_len, used, n;

	(void)state;
	n = taint_escape(raw, sizeof(raw) - 1, esc, sizeof(esc));
	assert_string_equal(esc, "a\\\\b\\\"c\\x00d\\x0a\\x7f\\xff~ ");
	assert_int_equal(n, strlen(esc));
	strcat(esc, "\"");
	assert_int_equal(taint_unescape(esc, strlen(esc), back, sizeof(back),
					&out_len, &used), 0);
	assert_int_equal(out_len, sizeof(raw) - 1);
	assert_memory_equal(back, raw, out_len);
	assert_int_equal(used, strlen(esc));
	/* truncated output stays terminated, length still reported */
	assert_int_equal(taint_escape("\x01\x02", 2, esc, 5), 8);
	assert_string_equal(esc, "\\x01");
	assert_int_equal(taint_unescape("abc\"", 4, back, 3, &out_len, &used),
			 -E2BIG);
}

static void test_escape_word(void **state)
{
	const char raw[] = "my mod\\\"\x01";
	char esc[64];

	(void)state;
	assert_int_equal(taint_escape_word(raw, sizeof(raw) - 1, esc,
					   sizeof(esc)), 17);
	assert_string_equal(esc, "my\\x20mod\\\\\\\"\\x01");
	/* quoted escaping keeps the space */
	taint_escape(raw, sizeof(raw) - 1, esc, sizeof(esc));
	assert_string_equal(esc, "my mod\\\\\\\"\\x01");
}

struct text {
	char buf[2048];
	size_t len;
};

static void put_text(void *arg, const char *s, size_t len)
{
	struct text *t = arg;

	assert_true(t->len + len < sizeof(t->buf));
	memcpy(t->buf + t->len, s, len);
	t->len += len;
	t->buf[t->len] = '\0';
}

/* the formatter of the field table (vmcore.c's lines) writes the line
 * the kernel prints: v2 lines in their order, back byte for byte, also
 * the longest values; a v1 line without auid= and module= */
static void test_format_roundtrip(void **state)
{
	static const char *const lines[] = {
		"ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm=\"sh\" reason=\"RTSJ physical memory access\"",
		"ts=1.000100 utc=- origin=kernel flags=UW new=W pid=1 uid=0 auid=- comm=\"insmod\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30",
		"ts=1.000200 utc=- origin=kernel flags=O new=O pid=2147483647 uid=4294967295 auid=4294967294 comm=\"a\\\\b\\\"c\\x00\\x7f\\xff\" module=my\\x20mod\\\\",
		"ts=18446744073.709551 utc=9999-12-31T23:59:59Z origin=user flags=POUW new=- pid=0 uid=0 auid=- comm=\"\" reason=\"\\x01 \\\"\\\\\"",
		"ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm=\"swapper/0\" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]",
	};
	struct taint_event ev = TAINT_INIT(struct taint_event);
	uint64_t d;
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct text t = { .len = 0 };

		assert_int_equal(parse(lines[i], &ev, &d, &why),
				 TAINT_LOG_EVENT);
		taint__log_format(&ev, put_text, &t);
		assert_string_equal(t.buf, lines[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_event),
		cmocka_unit_test(test_kernel_event),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_v1_has_no_v2_fields),
		cmocka_unit_test(test_v2_user_event),
		cmocka_unit_test(test_v2_module),
		cmocka_unit_test(test_v2_malformed),
		cmocka_unit_test(test_escape_cut_by_line_end),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_unknown_field),
		cmocka_unit_test(test_parse_whole),
		cmocka_unit_test(test_parse_crlf),
		cmocka_unit_test(test_escape_roundtrip),
		cmocka_unit_test(test_escape_word),
		cmocka_unit_test(test_format_roundtrip),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
