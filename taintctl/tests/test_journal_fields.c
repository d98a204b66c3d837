// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_journal_fields.c - watch's journal fields (cli/journal_fields.c) and
 * the $JOURNAL_STREAM test (cli/journal_stream.c).
 *
 * The expected fields are typed in from taintctl(1)'s JOURNAL section: every
 * iov must be one NAME=value with a name journald accepts, and a value
 * holding '=' or "\nFLAG=X" must stay inside its own field.
 */
#include <errno.h>
#include <sys/uio.h>

#include "test_util.h"
#include "journal.h"

/* every field is NAME=value, NAME as journald wants it (A-Z, 0-9, _, not
 * starting with a digit or _) */
static void assert_well_formed(const struct journal_fields *f)
{
	assert_true(f->n > 0 && f->n <= JOURNAL_FIELDS_MAX);
	for (size_t i = 0; i < f->n; i++) {
		const char *p = f->iov[i].iov_base;
		const char *eq = memchr(p, '=', f->iov[i].iov_len);

		assert_non_null(eq);
		assert_true(eq > p && p[0] >= 'A' && p[0] <= 'Z');
		for (const char *c = p; c < eq; c++)
			assert_true((*c >= 'A' && *c <= 'Z') ||
				    (*c >= '0' && *c <= '9') || *c == '_');
	}
}

/* how many fields NAME has; the @nth one's value in *@val, *@len */
static size_t field(const struct journal_fields *f, const char *name,
		    size_t nth, const char **val, size_t *len)
{
	size_t nl = strlen(name), seen = 0;

	for (size_t i = 0; i < f->n; i++) {
		const char *p = f->iov[i].iov_base;

		if (f->iov[i].iov_len > nl && !memcmp(p, name, nl) &&
		    p[nl] == '=') {
			if (seen++ == nth && val) {
				*val = p + nl + 1;
				*len = f->iov[i].iov_len - nl - 1;
			}
		}
	}
	return seen;
}

/* NAME has exactly one field, whose value is @want */
static void assert_field(const struct journal_fields *f, const char *name,
			 const char *want)
{
	const char *v = NULL;
	size_t len = 0;

	assert_int_equal(field(f, name, 0, &v, &len), 1);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(v, want, len);
}

static void assert_no_field(const struct journal_fields *f, const char *name)
{
	assert_int_equal(field(f, name, 0, NULL, NULL), 0);
}

static void fill_event(struct taint_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	strcpy(ev->ts, "6.000000");
	strcpy(ev->utc, "2026-12-03T08:02:00Z");
	ev->origin = TAINT_ORIGIN_KERNEL;
	strcpy(ev->flags, "DW");
	strcpy(ev->new_flags, "DW");
	ev->flags_mask = ev->new_mask = (1u << 7) | (1u << 9);
	ev->pid = 91;
	ev->uid = 0;
	ev->has_auid = true;
	ev->auid_set = true;
	ev->auid = 1000;
	strcpy(ev->comm, "kworker/0:1");
	ev->comm_len = strlen(ev->comm);
	ev->has_module = true;
	strcpy(ev->module, "lkdtm");
	ev->module_len = 5;
	ev->has_caller = true;
	strcpy(ev->caller, "lkdtm_BUG+0x9/0x10");
}

static void test_event(void **state)
{
	struct taint_event ev;
	struct journal_fields f = { .n = 0 };
	const char *msg = "[    6.000000] a line";
	const char *v;
	size_t len;

	(void)state;
	fill_event(&ev);
	assert_int_equal(journal_fields_build(&(struct journal_item){
		.kind = JOURNAL_EVENT, .ev = &ev, .message = msg,
		.message_len = strlen(msg) }, &f), 0);
	assert_well_formed(&f);
	assert_field(&f, "MESSAGE", msg);
	assert_field(&f, "MESSAGE_ID", "ba51a6fee1e340ffa3fc9d1ddbcf2f41");
	assert_field(&f, "PRIORITY", "5");
	assert_field(&f, "SYSLOG_IDENTIFIER", "taintctl-watch");
	assert_field(&f, "ORIGIN", "kernel");
	/* one FLAG= per new letter, in the kernel's order */
	assert_int_equal(field(&f, "FLAG", 0, &v, &len), 2);
	assert_int_equal(len, 1);
	assert_int_equal(v[0], 'D');
	field(&f, "FLAG", 1, &v, &len);
	assert_int_equal(len, 1);
	assert_int_equal(v[0], 'W');
	assert_field(&f, "TAINT_TS", "6.000000");
	assert_field(&f, "TAINT_UTC", "2026-12-03T08:02:00Z");
	assert_field(&f, "TAINT_FLAGS", "DW");
	assert_field(&f, "TAINT_NEW", "DW");
	assert_field(&f, "TAINT_PID", "91");
	assert_field(&f, "TAINT_UID", "0");
	assert_field(&f, "TAINT_AUID", "1000");
	assert_field(&f, "TAINT_COMM", "kworker/0:1");
	assert_field(&f, "TAINT_MODULE", "lkdtm");
	assert_field(&f, "TAINT_CALLER", "lkdtm_BUG+0x9/0x10");
	assert_no_field(&f, "TAINT_REASON");
	assert_no_field(&f, "TAINT_ORIGIN");
	/* 4 common fields, ORIGIN, 2 FLAG, 10 TAINT_ */
	assert_int_equal(f.n, 17);
	journal_fields_free(&f);
	assert_int_equal(f.n, 0);
}

/* a user request: no new flag (new=-), no auid recorded (auid=-), a
 * reason and a comm that look like fields: raw bytes, one field each */
static void test_event_values_stay_in_their_field(void **state)
{
	static const char reason[] = "fix\nFLAG=X\nPRIORITY=0\0tail=";
	struct taint_event ev;
	struct journal_fields f = { .n = 0 };
	const char *v;
	size_t len;

	(void)state;
	fill_event(&ev);
	ev.origin = TAINT_ORIGIN_USER;
	strcpy(ev.flags, "U");
	ev.new_flags[0] = 0;
	ev.new_mask = 0;
	ev.auid_set = false;
	ev.has_module = ev.has_caller = false;
	memcpy(ev.comm, "a=b\"\n\xff", 6);
	ev.comm[6] = 0;
	ev.comm_len = 6;
	ev.has_reason = true;
	memcpy(ev.reason, reason, sizeof(reason) - 1);
	ev.reason_len = sizeof(reason) - 1;
	assert_int_equal(journal_fields_build(&(struct journal_item){
		.kind = JOURNAL_EVENT, .ev = &ev, .message = "m\nX=1",
		.message_len = 5, .denied = true }, &f), 0);
	assert_well_formed(&f);
	assert_field(&f, "MESSAGE", "m\nX=1");
	assert_field(&f, "PRIORITY", "4");
	assert_field(&f, "ORIGIN", "user");
	assert_no_field(&f, "FLAG");
	assert_no_field(&f, "TAINT_AUID");
	assert_no_field(&f, "TAINT_MODULE");
	assert_no_field(&f, "TAINT_CALLER");
	assert_field(&f, "TAINT_NEW", "");
	assert_int_equal(field(&f, "TAINT_COMM", 0, &v, &len), 1);
	assert_int_equal(len, 6);
	assert_memory_equal(v, "a=b\"\n\xff", 6);
	assert_int_equal(field(&f, "TAINT_REASON", 0, &v, &len), 1);
	assert_int_equal(len, sizeof(reason) - 1);
	assert_memory_equal(v, reason, len);
	/* 4 common, ORIGIN, TS UTC FLAGS NEW PID UID COMM REASON */
	assert_int_equal(f.n, 13);
	journal_fields_free(&f);
}

static void test_flag(void **state)
{
	struct journal_fields f = { .n = 0 };
	const char *msg = "flag set, no taint_log event:  W  bit 9 ...";

	(void)state;
	assert_int_equal(journal_fields_build(&(struct journal_item){
		.kind = JOURNAL_FLAG, .bit = 9, .mask = 512 | 64,
		.message = msg, .message_len = strlen(msg) }, &f), 0);
	assert_well_formed(&f);
	assert_field(&f, "MESSAGE", msg);
	assert_field(&f, "MESSAGE_ID", "e9b10e89891a405fb683e9878f069f3a");
	assert_field(&f, "PRIORITY", "5");
	assert_field(&f, "FLAG", "W");
	assert_field(&f, "TAINT_BIT", "9");
	assert_field(&f, "TAINT_NAME", "WARN");
	assert_field(&f, "TAINT_MASK", "576");
	assert_no_field(&f, "ORIGIN");
	assert_int_equal(f.n, 8);
	journal_fields_free(&f);

	/* a bit without a letter: no FLAG=, no name */
	assert_int_equal(journal_fields_build(&(struct journal_item){
		.kind = JOURNAL_FLAG, .bit = 40, .mask = UINT64_C(1) << 40,
		.message = "x", .message_len = 1, .denied = true }, &f), 0);
	assert_well_formed(&f);
	assert_field(&f, "PRIORITY", "4");
	assert_no_field(&f, "FLAG");
	assert_no_field(&f, "TAINT_NAME");
	assert_field(&f, "TAINT_BIT", "40");
	assert_field(&f, "TAINT_MASK", "1099511627776");
	assert_int_equal(f.n, 6);
	journal_fields_free(&f);
}

static void test_dropped(void **state)
{
	struct journal_fields f = { .n = 0 };

	(void)state;
	assert_int_equal(journal_fields_build(&(struct journal_item){
		.kind = JOURNAL_DROPPED, .total = 5, .count = 3,
		.message = "dropped: 3", .message_len = 10 }, &f), 0);
	assert_well_formed(&f);
	assert_field(&f, "MESSAGE", "dropped: 3");
	assert_field(&f, "MESSAGE_ID", "acc0c52d4f254ac095b36e97438253dc");
	assert_field(&f, "ORIGIN", "user");
	assert_field(&f, "TAINT_DROPPED", "5");
	assert_field(&f, "TAINT_COUNT", "3");
	assert_no_field(&f, "FLAG");
	assert_int_equal(f.n, 7);
	journal_fields_free(&f);
}

/* every letter new at once: 64 FLAG= fit (JOURNAL_FIELDS_MAX) */
static void test_many_flags(void **state)
{
	struct taint_event ev;
	struct journal_fields f = { .n = 0 };

	(void)state;
	fill_event(&ev);
	ev.has_reason = true;
	ev.reason_len = 1;
	ev.reason[0] = 'r';
	for (int i = 0; i < 64; i++)
		ev.new_flags[i] = (char)('!' + i);
	ev.new_flags[64] = 0;
	assert_int_equal(journal_fields_build(&(struct journal_item){
		.kind = JOURNAL_EVENT, .ev = &ev, .message = "m",
		.message_len = 1 }, &f), 0);
	assert_int_equal(field(&f, "FLAG", 0, NULL, NULL), 64);
	assert_int_equal(f.n, JOURNAL_FIELDS_MAX);
	journal_fields_free(&f);
}

static void test_stream_matches(void **state)
{
	(void)state;
	assert_true(journal_stream_matches("12:34", 12, 34));
	assert_true(journal_stream_matches("0:0", 0, 0));
	assert_true(journal_stream_matches("18446744073709551615:7",
					   (dev_t)UINT64_MAX, 7));
	assert_false(journal_stream_matches("12:35", 12, 34));
	assert_false(journal_stream_matches("13:34", 12, 34));
	assert_false(journal_stream_matches(NULL, 12, 34));
	assert_false(journal_stream_matches("", 12, 34));
	assert_false(journal_stream_matches("12:34x", 12, 34));
	assert_false(journal_stream_matches("12:34:", 12, 34));
	assert_false(journal_stream_matches(" 12:34", 12, 34));
	assert_false(journal_stream_matches("+12:34", 12, 34));
	assert_false(journal_stream_matches("12:", 12, 0));
	assert_false(journal_stream_matches(":34", 0, 34));
	assert_false(journal_stream_matches("12", 12, 0));
	/* 2^64 + 12 must not wrap to 12 */
	assert_false(journal_stream_matches("18446744073709551628:34", 12, 34));
}

static void test_message_ids(void **state)
{
	const char *ids[] = { JOURNAL_ID_EVENT, JOURNAL_ID_FLAG,
			      JOURNAL_ID_DROPPED };

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(strlen(ids[i]), 32);
		assert_int_equal(strspn(ids[i], "0123456789abcdef"), 32);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(ids[i], ids[j]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_event_values_stay_in_their_field),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_many_flags),
		cmocka_unit_test(test_stream_matches),
		cmocka_unit_test(test_message_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
