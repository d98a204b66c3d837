// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_abi.c - the ABI rules of taint.h: the version, and the .size of the
 * structs a caller passes (0 = the 1.0 layout, smaller = -EINVAL, larger:
 * fine for results, -E2BIG for options with a non-zero unknown tail), and
 * the element size of arrays of events.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "test_util.h"

static void test_version(void **state)
{
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "%d.%d.%d", TAINT_VERSION_MAJOR,
		 TAINT_VERSION_MINOR, TAINT_VERSION_PATCH);
	assert_string_equal(TAINT_VERSION, want);
	assert_string_equal(taint_version(), TAINT_VERSION);
	assert_true(taint_unknown_bits(UINT64_MAX) == ~TAINT_KNOWN_MASK);
	assert_true(taint_unknown_bits(TAINT_KNOWN_MASK) == 0);
}

static const char field_text[] = "Tainted: P        W  O      6.12.0 #1";

/* a struct from a newer header: more members after the 1.0 ones */
struct bigger_field {
	struct taint_field f;
	char newer[16];
};

static void test_field_size(void **state)
{
	struct taint_field f;
	struct bigger_field b;
	size_t bad;

	(void)state;
	/* 0: the 1.0 layout */
	memset(&f, 0, sizeof(f));
	parse_str(field_text, &f);
	assert_int_equal(f.size, sizeof(f));
	assert_string_equal(mask_letters(f.mask), "PWO");
	assert_true(TAINT_HAS(struct taint_field, &f, lines));
	/* smaller than 1.0: refused, nothing written */
	memset(&f, 0x5a, sizeof(f));
	f.size = offsetof(struct taint_field, text);
	assert_int_equal(taint_parse_field(field_text, sizeof(field_text) - 1,
					   &f), -EINVAL);
	assert_int_equal(taint_parse_body("PWO", 3, &f, &bad), -EINVAL);
	assert_true(taint_find_field(field_text, sizeof(field_text) - 1, &f) < 0);
	assert_int_equal(f.size, offsetof(struct taint_field, text));
	assert_int_equal((unsigned char)f.text[0], 0x5a);
	assert_false(TAINT_HAS(struct taint_field, &f, text));
	assert_true(TAINT_HAS(struct taint_field, &f, mask));
	/* larger (a newer caller): filled up to what 1.0 knows, .size says so */
	memset(&b, 0x5a, sizeof(b));
	b.f.size = sizeof(b);
	assert_int_equal(taint_find_field(field_text, sizeof(field_text) - 1,
					  &b.f), 0);
	assert_int_equal(b.f.size, sizeof(b.f));
	assert_string_equal(mask_letters(b.f.mask), "PWO");
	assert_int_equal((unsigned char)b.newer[0], 0x5a);
	assert_int_equal((unsigned char)b.newer[15], 0x5a);
	/* TAINT_INIT */
	{
		struct taint_field g = TAINT_INIT(struct taint_field);

		assert_int_equal(g.size, sizeof(g));
		assert_int_equal(taint_parse_body("PWO", 3, &g, &bad), 0);
		assert_int_equal(g.mask, 4609);
	}
}

static const char event_line[] =
	"ts=3.123456 utc=- origin=user flags=U new=U pid=77 uid=0 comm=\"sh\"";

static void test_event_size(void **state)
{
	struct taint_event ev;
	struct {
		struct taint_event ev;
		char newer[8];
	} b;
	const char *why = NULL;
	uint64_t d;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(taint_log_parse_line(event_line, sizeof(event_line) - 1,
					      &ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(ev.size, sizeof(ev));
	assert_true(TAINT_HAS(struct taint_event, &ev, unknown_field));
	ev.size = 1;
	assert_int_equal(taint_log_parse_line(event_line, sizeof(event_line) - 1,
					      &ev, &d, &why), -EINVAL);
	assert_non_null(strstr(why, ".size"));
	memset(&b, 0x5a, sizeof(b));
	b.ev.size = sizeof(b);
	assert_int_equal(taint_log_parse_line(event_line, sizeof(event_line) - 1,
					      &b.ev, &d, &why), TAINT_LOG_EVENT);
	assert_int_equal(b.ev.size, sizeof(b.ev));
	assert_string_equal(b.ev.comm, "sh");
	assert_int_equal((unsigned char)b.newer[0], 0x5a);
}

static int count_event(const struct taint_event *ev, unsigned int lineno,
		       void *arg)
{
	(void)lineno;
	assert_int_equal(ev->size, sizeof(*ev));	/* set by the library */
	++*(int *)arg;
	return 0;
}

static void test_log_ops_size(void **state)
{
	/* written for 1.0 without .size (as guest/reliability/rel.h is) */
	static const struct taint_log_ops zero = { .event = count_event };
	struct taint_log_ops small = { .size = 4, .event = count_event };
	struct {
		struct taint_log_ops ops;
		void (*newer)(void);
	} b = { .ops = { .size = sizeof(b), .event = count_event } };
	uint64_t dropped;
	int n = 0;

	(void)state;
	assert_int_equal(taint_log_parse(event_line, sizeof(event_line) - 1,
					 &zero, &n, &dropped), 0);
	assert_int_equal(n, 1);
	assert_int_equal(taint_log_parse(event_line, sizeof(event_line) - 1,
					 &small, &n, &dropped), -EINVAL);
	/* a newer caller's struct whose new members are unset: fine */
	assert_int_equal(taint_log_parse(event_line, sizeof(event_line) - 1,
					 &b.ops, &n, &dropped), 0);
	assert_int_equal(n, 2);
	/* ... and one that asks for something 1.0 cannot do */
	b.newer = (void (*)(void))test_log_ops_size;
	assert_int_equal(taint_log_parse(event_line, sizeof(event_line) - 1,
					 &b.ops, &n, &dropped), -E2BIG);
	assert_int_equal(n, 2);
}

static int count_hit(const struct taint_hit *hit, void *arg)
{
	assert_int_equal(hit->field->size, sizeof(*hit->field));
	++*(int *)arg;
	return 0;
}

static int scan_text(const struct taint_scan_opts *o,
		     struct taint_scan_info *info)
{
	int fds[2], ret;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], field_text, sizeof(field_text) - 1),
			 (ssize_t)sizeof(field_text) - 1);
	close(fds[1]);
	ret = taint_scan_fd_opts(fds[0], o, info);
	close(fds[0]);
	return ret;
}

static void test_scan_size(void **state)
{
	int n = 0;
	struct taint_scan_opts zero = { .hit = count_hit, .arg = &n };
	struct taint_scan_opts o = { .size = sizeof(o), .hit = count_hit,
				     .arg = &n };
	struct taint_scan_info info = TAINT_INIT(struct taint_scan_info);
	/*
	 * every byte past the 1.0 layout must be zero, the tail padding
	 * too: an initializer need not zero padding (clang does not)
	 */
	struct {
		struct taint_scan_opts o;
		unsigned int newer_flags;
	} b;

	(void)state;
	memset(&b, 0, sizeof(b));
	b.o.size = sizeof(b);
	b.o.hit = count_hit;
	b.o.arg = &n;
	assert_int_equal(scan_text(&zero, NULL), 0);
	assert_int_equal(scan_text(&o, &info), 0);
	assert_int_equal(info.size, sizeof(info));
	assert_true(info.lines);
	assert_int_equal(scan_text(&b.o, NULL), 0);
	assert_int_equal(n, 3);
	b.newer_flags = 1;
	assert_int_equal(scan_text(&b.o, NULL), -E2BIG);
	o.size = 2;
	assert_int_equal(scan_text(&o, NULL), -EINVAL);
	o.size = sizeof(o);
	info.size = 3;
	assert_int_equal(scan_text(&o, &info), -EINVAL);
	assert_int_equal(n, 3);
}

/*
 * arrays of events given to the live functions (taint_first_event(),
 * taint_events_digest()): the element size, each element's .size
 */
static const char p_line[] =
	"ts=4.000000 utc=- origin=user flags=PU new=P pid=78 uid=0 comm=\"sh\"";

static void test_event_arrays(void **state)
{
	struct taint_event ev[2] = {
		TAINT_INIT(struct taint_event), TAINT_INIT(struct taint_event),
	};
	/* a newer caller's struct: more members after the 1.0 ones */
	struct bigger_event {
		struct taint_event ev;
		char newer[24];
	} b[2];
	const char *why = NULL;
	uint32_t d, db, dz;
	uint64_t dropped;

	(void)state;
	assert_int_equal(taint_log_parse_line(event_line, sizeof(event_line) - 1,
					      &ev[0], &dropped, &why),
			 TAINT_LOG_EVENT);
	assert_int_equal(taint_log_parse_line(p_line, sizeof(p_line) - 1,
					      &ev[1], &dropped, &why),
			 TAINT_LOG_EVENT);
	assert_int_equal(taint_first_event(ev, 2, sizeof(ev[0]), 0), 1);
	assert_int_equal(taint_events_digest(ev, 2, sizeof(ev[0]), &d), 0);

	/* the same events in a larger stride: the same answers */
	memset(b, 0x5a, sizeof(b));
	for (int i = 0; i < 2; i++) {
		b[i].ev = ev[i];
		b[i].ev.size = sizeof(b[i]);
	}
	assert_int_equal(taint_first_event(&b[0].ev, 2, sizeof(b[0]), 0), 1);
	assert_int_equal(taint_first_event(&b[0].ev, 2, sizeof(b[0]), 6), 0);
	db = 0;
	assert_int_equal(taint_events_digest(&b[0].ev, 2, sizeof(b[0]), &db), 0);
	assert_true(db == d);
	/* ... the library's .size kept (smaller than the element): fine */
	b[1].ev.size = sizeof(b[1].ev);
	assert_int_equal(taint_first_event(&b[0].ev, 2, sizeof(b[0]), 0), 1);

	/* .size 0 is the 1.0 layout */
	ev[1].size = 0;
	dz = 0;
	assert_int_equal(taint_events_digest(ev, 2, sizeof(ev[0]), &dz), 0);
	assert_true(dz == d);
	assert_int_equal(taint_first_event(ev, 2, sizeof(ev[0]), 0), 1);

	/* an element size smaller than the 1.0 layout */
	ev[1].size = sizeof(ev[1]);
	dz = 7;
	assert_int_equal(taint_first_event(ev, 2, sizeof(ev[0]) - 8, 0),
			 -EINVAL);
	assert_int_equal(taint_first_event(ev, 0, 0, 0), -EINVAL);
	assert_int_equal(taint_events_digest(ev, 2, 1, &dz), -EINVAL);
	assert_true(dz == 7);	/* nothing written */
	/* an element's .size garbage, smaller than 1.0, or larger than the
	 * element (a copy that kept a larger struct's .size) */
	ev[1].size = 0x5a5a5a5a;
	assert_int_equal(taint_first_event(ev, 2, sizeof(ev[0]), 0), -EINVAL);
	assert_int_equal(taint_events_digest(ev, 2, sizeof(ev[0]), &dz),
			 -EINVAL);
	ev[1].size = offsetof(struct taint_event, comm);
	assert_int_equal(taint_first_event(ev, 2, sizeof(ev[0]), 0), -EINVAL);
	ev[1].size = sizeof(b[1]);
	assert_int_equal(taint_events_digest(ev, 2, sizeof(ev[0]), &dz),
			 -EINVAL);
	/* ... but only the first @n elements are looked at */
	assert_int_equal(taint_events_digest(ev, 1, sizeof(ev[0]), &dz), 0);
	/* taint_event_same(): a broken .size is never the same */
	ev[1] = ev[0];
	assert_true(taint_event_same(&ev[0], &ev[1]));
	ev[1].size = 3;
	assert_false(taint_event_same(&ev[0], &ev[1]));
	assert_false(taint_event_same(&ev[1], &ev[0]));
}

static const char cursor_text[] =
	"tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-2-0-240-1dd0bebc";

/* struct taint_cursor: options of taint_cursor_format(), a result of
 * taint_cursor_parse() */
static void test_cursor_size(void **state)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	struct {
		struct taint_cursor c;
		uint64_t newer;
	} b;
	char buf[TAINT_CURSOR_MAX];

	(void)state;
	assert_int_equal(taint_cursor_parse(cursor_text, &c), 0);
	assert_int_equal(c.size, sizeof(c));
	assert_true(TAINT_HAS(struct taint_cursor, &c, digest));
	assert_int_equal(taint_cursor_format(&c, buf, sizeof(buf)),
			 (int)sizeof(cursor_text) - 1);
	assert_string_equal(buf, cursor_text);
	/* 0: the 1.0 layout */
	c.size = 0;
	assert_int_equal(taint_cursor_format(&c, buf, sizeof(buf)),
			 (int)sizeof(cursor_text) - 1);
	memset(&c, 0, sizeof(c));
	assert_int_equal(taint_cursor_parse(cursor_text, &c), 0);
	assert_int_equal(c.size, sizeof(c));
	assert_true(c.mask == 576);
	/* smaller than 1.0: refused, nothing written */
	memset(&c, 0x5a, sizeof(c));
	c.size = offsetof(struct taint_cursor, mask);
	assert_int_equal(taint_cursor_parse(cursor_text, &c), -EINVAL);
	assert_int_equal(c.size, offsetof(struct taint_cursor, mask));
	assert_int_equal((unsigned char)c.boot_id[0], 0x5a);
	assert_int_equal(taint_cursor_format(&c, buf, sizeof(buf)), -EINVAL);
	/* larger (a newer caller): filled up to 1.0, .size says so */
	memset(&b, 0x5a, sizeof(b));
	b.c.size = sizeof(b);
	assert_int_equal(taint_cursor_parse(cursor_text, &b.c), 0);
	assert_int_equal(b.c.size, sizeof(b.c));
	assert_true(b.c.events == 2);
	assert_true(b.newer == UINT64_C(0x5a5a5a5a5a5a5a5a));
	/* formatting a newer cursor: fine if its new members are 0, -E2BIG
	 * if they say something 1.0 cannot write */
	b.c.size = sizeof(b);
	b.newer = 0;
	assert_int_equal(taint_cursor_format(&b.c, buf, sizeof(buf)),
			 (int)sizeof(cursor_text) - 1);
	b.newer = 1;
	assert_int_equal(taint_cursor_format(&b.c, buf, sizeof(buf)), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_field_size),
		cmocka_unit_test(test_event_size),
		cmocka_unit_test(test_log_ops_size),
		cmocka_unit_test(test_scan_size),
		cmocka_unit_test(test_event_arrays),
		cmocka_unit_test(test_cursor_size),
	};

	return cmocka_run_group_tests_name("abi", tests, NULL, NULL);
}
