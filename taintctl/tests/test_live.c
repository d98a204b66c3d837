// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_live.c - live.c: event wall time and identity, digests, boot id,
 * cursors, and waiting for a change on a fake proc root (which, not being
 * procfs, never signals: the interval fallback).  Never touches /proc.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

static int setup(void **state)
{
	(void)state;
	return fake_root_make("/tmp/taint-live-XXXXXX", "random");
}

static void parse_event(const char *line, struct taint_event *ev)
{
	uint64_t dropped;
	const char *why = NULL;

	assert_int_equal(taint_log_parse_line(line, strlen(line), ev, &dropped,
					      &why), TAINT_LOG_EVENT);
}

/* taint_events_digest() of @ev[0..@n), which must succeed */
static uint32_t digest(const struct taint_event *ev, size_t n)
{
	uint32_t d = 0;

	assert_int_equal(taint_events_digest(ev, n, sizeof(*ev), &d), 0);
	return d;
}

static void test_utc_seconds(void **state)
{
	static const char *bad[] = {
		"", "2026-12-03T08:00:00", "2026-12-03 08:00:00Z",
		"2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
		"2026-04-31T00:00:00Z", "2023-02-29T00:00:00Z",
		"2100-02-29T00:00:00Z", "2026-12-03T24:00:00Z",
		"2026-12-03T08:60:00Z", "2026-12-03T08:00:61Z",
		"2026-12-03T08:00:00Zx", "+026-12-03T08:00:00Z",
		"2026-12-0xT08:00:00Z", "--",
	};
	int64_t s = -1;

	(void)state;
	assert_int_equal(taint_utc_seconds("-", &s), -ENODATA);
	assert_int_equal(taint_utc_seconds("1970-01-01T00:00:00Z", &s), 0);
	assert_true(s == 0);
	assert_int_equal(taint_utc_seconds("2026-12-03T08:00:00Z", &s), 0);
	assert_true(s == 1796284800);
	assert_int_equal(taint_utc_seconds("2024-02-29T23:59:59Z", &s), 0);
	assert_true(s == 1709251199);
	assert_int_equal(taint_utc_seconds("2000-02-29T00:00:00Z", &s), 0);
	assert_true(s == 951782400);
	assert_int_equal(taint_utc_seconds("2016-12-31T23:59:60Z", &s), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(taint_utc_seconds(bad[i], &s), -EINVAL);
}

/* every day from 1970 to 2200, at a varying time, against timegm() */
static void test_utc_seconds_vs_timegm(void **state)
{
	(void)state;
	for (time_t t = 0; t < (time_t)7258118400; t += 86400 + 3607) {
		struct tm tm;
		char buf[32];
		int64_t s;

		gmtime_r(&t, &tm);
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
		assert_int_equal(taint_utc_seconds(buf, &s), 0);
		assert_true(s == (int64_t)t);
	}
}

static const char user_line[] =
	"ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm=\"sudo\" reason=\"why\"";
static const char warn_line[] =
	"ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=- comm=\"cat\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30";

static void test_event_same(void **state)
{
	struct taint_event a = TAINT_INIT(struct taint_event),
			   b = TAINT_INIT(struct taint_event);

	(void)state;
	parse_event(warn_line, &a);
	parse_event(warn_line, &b);
	assert_true(taint_event_same(&a, &b));
	/* the caller is resolved when the log is read: not identity */
	parse_event("ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=- comm=\"cat\" module=lkdtm", &b);
	assert_true(taint_event_same(&a, &b));
	parse_event("ts=1.000101 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=- comm=\"cat\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30", &b);
	assert_false(taint_event_same(&a, &b));
	parse_event("ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=- comm=\"cau\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30", &b);
	assert_false(taint_event_same(&a, &b));
	parse_event(user_line, &a);
	parse_event("ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm=\"sudo\" reason=\"whx\"", &b);
	assert_false(taint_event_same(&a, &b));
	parse_event("ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm=\"sudo\"", &b);
	assert_false(taint_event_same(&a, &b));
	parse_event("ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=- comm=\"sudo\" reason=\"why\"", &b);
	assert_false(taint_event_same(&a, &b));
	parse_event("ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=- pid=77 uid=0 auid=1000 comm=\"sudo\" reason=\"why\"", &b);
	assert_false(taint_event_same(&a, &b));
}

static void test_first_event_and_digest(void **state)
{
	struct taint_event ev[3] = {
		TAINT_INIT(struct taint_event), TAINT_INIT(struct taint_event),
		TAINT_INIT(struct taint_event),
	};
	uint32_t d2, d3;

	(void)state;
	parse_event(warn_line, &ev[0]);
	parse_event(user_line, &ev[1]);
	parse_event("ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=PU new=P pid=78 uid=0 auid=- comm=\"sh\"", &ev[2]);
	assert_int_equal(taint_first_event(ev, 3, sizeof(ev[0]), 9), 0);	/* W */
	assert_int_equal(taint_first_event(ev, 3, sizeof(ev[0]), 6), 1);	/* U */
	assert_int_equal(taint_first_event(ev, 3, sizeof(ev[0]), 0), 2);	/* P: new=P */
	assert_int_equal(taint_first_event(ev, 3, sizeof(ev[0]), 7), -1);
	assert_int_equal(taint_first_event(ev, 3, sizeof(ev[0]), 64), -1);
	assert_int_equal(taint_first_event(ev, 0, sizeof(ev[0]), 9), -1);

	d2 = digest(ev, 2);
	d3 = digest(ev, 3);
	assert_true(d2 != d3);
	assert_true(digest(ev, 0) != d2);
	assert_true(digest(ev, 2) == d2);
	/* the caller does not count, the order does */
	ev[0].has_caller = false;
	assert_true(digest(ev, 2) == d2);
	{
		struct taint_event t = ev[0];

		ev[0] = ev[1];
		ev[1] = t;
	}
	assert_true(digest(ev, 2) != d2);

	/* A request for W (flags=W new=-) in a slot before the event that
	 * set W (claimed first, published later): the event that set W is
	 * the one with new=W, not the first that names W. */
	parse_event("ts=0.900000 utc=- origin=user flags=W new=- pid=9 uid=0 auid=- comm=\"sh\"", &ev[0]);
	parse_event(warn_line, &ev[1]);
	assert_int_equal(taint_first_event(ev, 2, sizeof(ev[0]), 9), 1);
}

static void test_boot_id(void **state)
{
	char id[TAINT_BOOT_ID_LEN + 1];

	(void)state;
	put("random/boot_id", "5D0C5B1E-3f2a-4c1b-9e8d-7a6b5c4d3e2f\n");
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id)), 0);
	assert_string_equal(id, "5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f");
	put("random/boot_id", "5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f");
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id)), 0);
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id) - 1), -ENOSPC);
	put("random/boot_id", "5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2\n");
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id)), -EINVAL);
	put("random/boot_id", "5d0c5b1e03f2a-4c1b-9e8d-7a6b5c4d3e2f\n");
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id)), -EINVAL);
	put("random/boot_id", "5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f\nx");
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id)), -EINVAL);
	put("random/boot_id", "");
	assert_int_equal(taint_read_boot_id(root, id, sizeof(id)), -EINVAL);
	assert_int_equal(taint_read_boot_id("/nonexistent", id, sizeof(id)),
			 -ENOENT);
	/* NULL is the live /proc: TAINT_LIVE_ROOT's, which does not exist
	 * in the test build */
	assert_int_equal(taint_read_boot_id(NULL, id, sizeof(id)), -ENOENT);
}

static void assert_cursor_equal(const struct taint_cursor *a,
				const struct taint_cursor *b)
{
	assert_string_equal(a->boot_id, b->boot_id);
	assert_true(a->events == b->events);
	assert_true(a->dropped == b->dropped);
	assert_true(a->mask == b->mask);
	assert_true(a->digest == b->digest);
}

static void test_cursor(void **state)
{
	static const char *bad[] = {
		"", "tc1", "tc2-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-1dd0bebc",
		"tc1-5D0C5B1E3F2A4C1B9E8D7A6B5C4D3E2F-2-0-240-1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2-2-0-240-1dd0bebc",
		"tc1-5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f-2-0-240-1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-02-0-240-1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-0240-1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-1dd0bebc0",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-1DD0BEBC",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-1dd0bebc ",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0--1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f--2-0-240-1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-18446744073709551616-0-240-1dd0bebc",
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-10000000000000000-1dd0bebc",
	};
	struct taint_cursor c = {
		.size = sizeof(c),
		.boot_id = "5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f",
		.events = 2, .dropped = 0, .mask = 576, .digest = 0x1dd0bebc,
	}, back = TAINT_INIT(struct taint_cursor);
	char buf[TAINT_CURSOR_MAX];

	(void)state;
	assert_int_equal(taint_cursor_format(&c, buf, sizeof(buf)), 53);
	assert_string_equal(buf,
		"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-1dd0bebc");
	assert_int_equal(taint_cursor_parse(buf, &back), 0);
	assert_cursor_equal(&c, &back);
	assert_int_equal(back.size, sizeof(back));
	/* extremes round trip */
	c.events = UINT64_MAX;
	c.dropped = UINT64_MAX;
	c.mask = UINT64_MAX;
	c.digest = 0;
	assert_true(taint_cursor_format(&c, buf, sizeof(buf)) > 0);
	assert_int_equal(taint_cursor_parse(buf, &back), 0);
	assert_cursor_equal(&c, &back);
	assert_int_equal(taint_cursor_format(&c, buf, 20), -ENOSPC);
	strcpy(c.boot_id, "not a uuid");
	assert_int_equal(taint_cursor_format(&c, buf, sizeof(buf)), -EINVAL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret;

		memset(&back, 0x5a, sizeof(back));
		back.size = sizeof(back);
		ret = taint_cursor_parse(bad[i], &back);
		if (ret != -EINVAL)
			fail_msg("cursor '%s' parsed (%d)", bad[i], ret);
		/* nothing written */
		assert_int_equal((unsigned char)back.boot_id[0], 0x5a);
		assert_true(back.events == UINT64_C(0x5a5a5a5a5a5a5a5a));
	}
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	       (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_watch_fake_root(void **state)
{
	struct taint_watch *w = NULL;
	struct timespec t0;
	char path[256];
	int log_error = -1;

	(void)state;
	/* no tainted: nothing to watch */
	assert_int_equal(taint_watch_open(root, &w, &log_error), -ENOENT);
	assert_null(w);
	/* NULL, the live /proc, is TAINT_LIVE_ROOT's in the test build */
	assert_int_equal(taint_watch_open(NULL, &w, &log_error), -ENOENT);
	assert_null(w);

	/* tainted only (stock kernel layout): no log is not an error */
	put("tainted", "0\n");
	assert_int_equal(taint_watch_open(root, &w, &log_error), 0);
	assert_non_null(w);
	assert_int_equal(log_error, 0);
	/* not procfs: never signals, so the interval from the start */
	assert_int_equal(taint_watch_support(w), TAINT_POLL_NO);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	put("tainted", "512\n");	/* a change: regular files never tell */
	assert_int_equal(taint_watch_wait(w, 150), 0);
	assert_true(ms_since(&t0) >= 140);
	assert_true(ms_since(&t0) < 2000);
	assert_int_equal(taint_watch_changed(w), TAINT_POLL_NO);
	taint_watch_close(w);

	/* a log that cannot be opened: its error, tainted still watched */
	snprintf(path, sizeof(path), "%s/sys/kernel/taint_log", root);
	assert_int_equal(symlink("taint_log", path), 0);	/* ELOOP */
	assert_int_equal(taint_watch_open(root, &w, &log_error), 0);
	assert_int_equal(log_error, ELOOP);
	assert_int_equal(taint_watch_wait(w, 10), 0);
	taint_watch_close(w);
	unlink(path);

	put("taint_log", "");
	assert_int_equal(taint_watch_open(root, &w, NULL), 0);
	assert_int_equal(taint_watch_support(w), TAINT_POLL_NO);
	taint_watch_close(w);
	taint_watch_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utc_seconds),
		cmocka_unit_test(test_utc_seconds_vs_timegm),
		cmocka_unit_test(test_event_same),
		cmocka_unit_test(test_first_event_and_digest),
		cmocka_unit_test(test_boot_id),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_watch_fake_root),
	};

	return cmocka_run_group_tests(tests, setup, fake_root_remove);
}
