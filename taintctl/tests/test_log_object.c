// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_log_object.c - struct taint_log (log_object.c): opened from text,
 * a file, a descriptor (decompressed), a fake proc root and a crash dump, its accessors and references,
 * taint_log_cursor() and taint_log_since() (the window after a cursor).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"
#include "vmcore_fixture.h"

#define BOOT "0f8e6c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b"
#define OTHER_BOOT "1f8e6c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b"

/* W set by the kernel, U twice by users, then O; a bogus line, an event
 * with an unknown field, dropped=3 */
static const char text[] =
	"ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=- comm=\"swapper/0\" caller=f+0x1/0x2\n"
	"ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=UW new=U pid=77 uid=0 auid=1000 comm=\"sh\" reason=\"r\"\n"
	"bogus line\n"
	"ts=4.000000 utc=- origin=user flags=UW new=- pid=78 uid=0 auid=- comm=\"sh\" extra=1\n"
	"ts=5.000000 utc=- origin=kernel flags=OUW new=O pid=90 uid=0 auid=- comm=\"insmod\" module=m\n"
	"dropped=3\n";

static struct taint_log *from_text(const char *s)
{
	struct taint_log *log = NULL;

	assert_int_equal(taint_log_new_from_text(s, strlen(s), &log), 0);
	assert_non_null(log);
	return log;
}

/* @a and @b hold the same events, dropped count and problems */
static void assert_same_log(const struct taint_log *a,
			    const struct taint_log *b)
{
	const char *pa, *pb;
	unsigned int la = 0, lb = 0;
	bool fa = false, fb = false;

	assert_int_equal(taint_log_get_event_count(a),
			 taint_log_get_event_count(b));
	for (size_t i = 0; i < taint_log_get_event_count(a); i++)
		assert_memory_equal(taint_log_get_event(a, i),
				    taint_log_get_event(b, i),
				    sizeof(struct taint_event));
	assert_true(taint_log_get_dropped(a) == taint_log_get_dropped(b));
	assert_int_equal(taint_log_get_malformed(a),
			 taint_log_get_malformed(b));
	for (size_t i = 0;; i++) {
		pa = taint_log_get_problem(a, i, &la, &fa);
		pb = taint_log_get_problem(b, i, &lb, &fb);
		if (!pa || !pb)
			break;
		assert_string_equal(pa, pb);
		assert_int_equal(la, lb);
		assert_int_equal(fa, fb);
	}
	assert_null(pa);
	assert_null(pb);
}

static void test_text(void **state)
{
	struct taint_log *log = from_text(text);
	const struct taint_event *ev;
	unsigned int lineno = 0;
	bool fatal = false;
	const char *msg;

	(void)state;
	assert_int_equal(taint_log_get_event_count(log), 4);
	ev = taint_log_get_event(log, 1);
	assert_non_null(ev);
	assert_true(ev->size == sizeof(*ev));
	assert_int_equal(ev->pid, 77);
	assert_string_equal(ev->reason, "r");
	assert_string_equal(taint_log_get_event(log, 3)->module, "m");
	assert_null(taint_log_get_event(log, 4));
	assert_true(taint_log_get_dropped(log) == 3);
	assert_int_equal(taint_log_get_malformed(log), 1);
	/* the problems as taint_log_parse() reports them, in line order */
	msg = taint_log_get_problem(log, 0, &lineno, &fatal);
	assert_string_equal(msg, "expected key=value");
	assert_int_equal(lineno, 3);
	assert_true(fatal);
	msg = taint_log_get_problem(log, 1, &lineno, &fatal);
	assert_string_equal(msg, "unknown field 'extra'");
	assert_int_equal(lineno, 4);
	assert_false(fatal);
	assert_null(taint_log_get_problem(log, 2, NULL, NULL));
	/* the first event of each flag */
	assert_int_equal(taint_log_first_event(log, 9), 0);	/* W */
	assert_int_equal(taint_log_first_event(log, 6), 1);	/* U */
	assert_int_equal(taint_log_first_event(log, 12), 3);	/* O */
	assert_int_equal(taint_log_first_event(log, 0), -1);	/* P */
	assert_null(taint_log_unref(log));

	/* an empty text; NULL, a log without events */
	log = from_text("");
	assert_int_equal(taint_log_get_event_count(log), 0);
	assert_null(taint_log_get_event(log, 0));
	taint_log_unref(log);
	assert_int_equal(taint_log_get_event_count(NULL), 0);
	assert_null(taint_log_get_event(NULL, 0));
	assert_true(taint_log_get_dropped(NULL) == 0);
	assert_int_equal(taint_log_get_malformed(NULL), 0);
	assert_null(taint_log_get_problem(NULL, 0, NULL, NULL));
	assert_int_equal(taint_log_first_event(NULL, 9), -1);
}

static void test_ref(void **state)
{
	struct taint_log *log = from_text(text);
	const struct taint_event *ev = taint_log_get_event(log, 0);

	(void)state;
	assert_ptr_equal(taint_log_ref(log), log);
	/* a reference left: the log and what it handed out stay valid */
	assert_ptr_equal(taint_log_unref(log), log);
	assert_int_equal(ev->pid, 1);
	assert_int_equal(taint_log_get_event_count(log), 4);
	assert_null(taint_log_unref(log));	/* freed (ASan: no leak) */
	assert_null(taint_log_ref(NULL));
	assert_null(taint_log_unref(NULL));
}

static void test_file(void **state)
{
	char path[] = "/tmp/test_log_object.XXXXXX";
	struct taint_log *a = from_text(text), *b = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(taint_log_new_from_file(path, &b), 0);
	assert_same_log(a, b);
	taint_log_unref(b);
	unlink(path);
	b = a;
	assert_int_equal(taint_log_new_from_file(path, &b), -ENOENT);
	assert_null(b);
	taint_log_unref(a);
}

/* taint_log_new_from_fd(): a file and a pipe hold the same log as the
 * text; corrupt compressed data and over 4 MiB are errors */
static void test_fd(void **state)
{
	static const char gz_bad[] = "\x1f\x8b\x08\x00garbage, not deflate";
	struct taint_log *a = from_text(text), *b = NULL;
	char path[] = "/tmp/test_log_object.XXXXXX", why[160];
	int fd = mkstemp(path), p[2];
	char *big;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(taint_log_new_from_fd(fd, &b, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_same_log(a, b);
	b = taint_log_unref(b);

	/* a pipe (small enough to be written before it is read) */
	assert_int_equal(pipe(p), 0);
	assert_true(write(p[1], text, strlen(text)) == (ssize_t)strlen(text));
	close(p[1]);
	assert_int_equal(taint_log_new_from_fd(p[0], &b, NULL, 0), 0);
	assert_same_log(a, b);
	b = taint_log_unref(b);
	close(p[0]);

	/* gzip's magic, then garbage: the decoder says why */
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_true(write(fd, gz_bad, sizeof(gz_bad) - 1) ==
		    (ssize_t)sizeof(gz_bad) - 1);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	b = a;
	assert_int_equal(taint_log_new_from_fd(fd, &b, why, sizeof(why)),
			 -EBADMSG);
	assert_null(b);
	assert_non_null(strstr(why, "gzip"));

	/* 4 MiB of text is read, one byte more is not */
	big = malloc((4u << 20) + 1);
	assert_non_null(big);
	memset(big, '\n', (4u << 20) + 1);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_true(write(fd, big, 4u << 20) == (ssize_t)(4u << 20));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(taint_log_new_from_fd(fd, &b, why, sizeof(why)), 0);
	assert_int_equal(taint_log_get_event_count(b), 0);
	b = taint_log_unref(b);
	assert_true(write(fd, big, 1) == 1);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	b = a;
	assert_int_equal(taint_log_new_from_fd(fd, &b, why, sizeof(why)),
			 -EFBIG);
	assert_null(b);
	free(big);
	close(fd);
	taint_log_unref(a);
}

static void test_proc(void **state)
{
	struct taint_log *a = from_text(text), *b = NULL;
	char proc[128];

	(void)state;
	assert_int_equal(fake_root_make("/tmp/test_log_object.XXXXXX", NULL), 0);
	put("taint_log", text);
	assert_int_equal(taint_log_new_from_proc(root, &b), 0);
	assert_same_log(a, b);
	taint_log_unref(b);
	/* a stock kernel: no taint_log */
	snprintf(proc, sizeof(proc), "%s/sys/kernel/taint_log", root);
	unlink(proc);
	b = a;
	assert_int_equal(taint_log_new_from_proc(root, &b), -ENOENT);
	assert_null(b);
	fake_root_remove(NULL);
	taint_log_unref(a);
}

static void test_vmcore(void **state)
{
	struct taint_log *a, *b = NULL;
	char why[320], *t;
	unsigned char *p;
	size_t len, n;
	int fd = memfd_create("vmcore", 0);

	(void)state;
	assert_true(fd >= 0);
	p = fx_build(&fx_main, &len);
	assert_true(write(fd, p, len) == (ssize_t)len);
	free(p);
	assert_int_equal(taint_vmcore_read_log(fd, &t, &n, why, sizeof(why)),
			 0);
	a = from_text(t);
	free(t);
	assert_int_equal(taint_log_new_from_vmcore(fd, &b, why, sizeof(why)),
			 0);
	assert_true(taint_log_get_event_count(b) > 0);
	assert_same_log(a, b);
	taint_log_unref(a);
	taint_log_unref(b);
	/* not a dump: taint_vmcore_read_log()'s error and reason */
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_true(write(fd, "not a core", 10) == 10);
	b = (struct taint_log *)1;
	assert_int_equal(taint_log_new_from_vmcore(fd, &b, why, sizeof(why)),
			 -EBADMSG);
	assert_null(b);
	assert_true(why[0] != '\0');
	close(fd);
}

static void test_cursor(void **state)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	struct taint_log *log = from_text(text);
	struct taint_event ev[4];
	uint32_t digest;

	(void)state;
	assert_int_equal(taint_log_cursor(log, BOOT, 4672, &c), 0);
	assert_string_equal(c.boot_id, BOOT);
	assert_true(c.events == 4 && c.dropped == 3 && c.mask == 4672);
	for (size_t i = 0; i < 4; i++)
		ev[i] = *taint_log_get_event(log, i);
	assert_int_equal(taint_events_digest(ev, 4, sizeof(ev[0]), &digest),
			 0);
	assert_true(c.digest == digest);
	/* no taint log: no events */
	assert_int_equal(taint_log_cursor(NULL, BOOT, 512, &c), 0);
	assert_true(c.events == 0 && c.dropped == 0 && c.mask == 512);
	assert_int_equal(taint_events_digest(NULL, 0, sizeof(ev[0]), &digest),
			 0);
	assert_true(c.digest == digest);
	/* a boot id too long, a .size smaller than 1.0's */
	assert_int_equal(taint_log_cursor(log, BOOT "0", 0, &c), -EINVAL);
	c.size = sizeof(c) - 1;
	assert_int_equal(taint_log_cursor(log, BOOT, 0, &c), -EINVAL);
	taint_log_unref(log);
}

/* the cursor of the first @n lines of text (and @mask), for since */
static struct taint_cursor cursor_of(size_t lines, uint64_t mask)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	struct taint_log *log;
	char part[sizeof(text)];
	const char *p = text;

	for (size_t i = 0; i < lines; i++)
		p = strchr(p, '\n') + 1;
	memcpy(part, text, (size_t)(p - text));
	part[p - text] = '\0';
	log = from_text(part);
	assert_int_equal(taint_log_cursor(log, BOOT, mask, &c), 0);
	taint_log_unref(log);
	return c;
}

static void test_since(void **state)
{
	struct taint_window w = TAINT_INIT(struct taint_window);
	struct taint_log *log = from_text(text), *events = NULL;
	struct taint_cursor c;
	const char *why;

	(void)state;
	/* nothing since: the cursor of this very log and mask */
	c = cursor_of(6, 4672);
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672, &w, &events,
					 &why), 0);
	assert_true(w.set == 0 && w.new_bits == 0 && w.without_event == 0 &&
		    w.dropped == 0);
	assert_int_equal(taint_log_get_event_count(events), 0);
	taint_log_unref(events);

	/* after the first two events (W, U; mask UW): U again and O, and
	 * P set without an event; the dropped count grew by 3 */
	c = cursor_of(2, 576);
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672 | 1, &w, &events,
					 &why), 0);
	assert_true(w.new_bits == (4096 | 1));
	assert_true(w.set == (4096 | 1 | 512 | 64));
	assert_true(w.without_event == 1);
	assert_true(w.dropped == 3);
	assert_int_equal(taint_log_get_event_count(events), 2);
	assert_int_equal(taint_log_get_event(events, 0)->pid, 78);
	assert_int_equal(taint_log_get_event(events, 1)->pid, 90);
	assert_true(taint_log_get_dropped(events) == 3);
	assert_null(taint_log_get_problem(events, 0, NULL, NULL));
	taint_log_unref(events);

	/* a new bit whose event is before the cursor (published late): U
	 * is new, its event is named, the event after the cursor too */
	c = cursor_of(4, 512);
	assert_int_equal(taint_log_since(log, &c, BOOT, 576, &w, &events,
					 &why), 0);
	assert_true(w.new_bits == 64 && w.without_event == 0);
	assert_int_equal(taint_log_get_event_count(events), 2);
	assert_int_equal(taint_log_get_event(events, 0)->pid, 77);
	assert_int_equal(taint_log_get_event(events, 1)->pid, 90);
	taint_log_unref(events);
	/* no events wanted */
	assert_int_equal(taint_log_since(log, &c, BOOT, 576, &w, NULL, &why),
			 0);
	assert_true(w.new_bits == 64);

	/* a stock kernel: no log, the bits only */
	c = cursor_of(0, 0);
	assert_int_equal(taint_log_since(NULL, &c, BOOT, 512, &w, &events,
					 &why), 0);
	assert_true(w.set == 512 && w.without_event == 512);
	assert_int_equal(taint_log_get_event_count(events), 0);
	taint_log_unref(events);
	taint_log_unref(log);
}

static void test_since_misfit(void **state)
{
	struct taint_window w = TAINT_INIT(struct taint_window);
	struct taint_log *log = from_text(text), *events = NULL;
	struct taint_cursor c;
	const char *why = NULL;

	(void)state;
	c = cursor_of(2, 576);
	assert_int_equal(taint_log_since(log, &c, OTHER_BOOT, 4672, &w,
					 &events, &why), -ESTALE);
	assert_non_null(why);
	assert_null(events);
	/* more events than the log has */
	c = cursor_of(6, 4672);
	c.events++;
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672, &w, &events,
					 &why), -EBADMSG);
	assert_string_equal(why, "the taint log has fewer events than when the cursor was taken");
	/* other events at its start */
	c = cursor_of(6, 4672);
	c.digest ^= 1;
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672, &w, &events,
					 &why), -EBADMSG);
	assert_string_equal(why, "the taint log does not begin with the cursor's events");
	/* a larger dropped count */
	c = cursor_of(6, 4672);
	c.dropped = 4;
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672, &w, &events,
					 &why), -EBADMSG);
	assert_string_equal(why, "the taint log's dropped count is smaller than the cursor's");
	/* a bit of the cursor's mask clear now */
	c = cursor_of(6, 4672);
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672 & ~64, &w,
					 &events, &why), -EBADMSG);
	assert_string_equal(why, "flags of the cursor's mask are clear now (taint is never cleared)");
	assert_null(events);
	/* .size: a window smaller than 1.0's, a newer cursor's non-zero
	 * tail */
	c = cursor_of(6, 4672);
	w.size = sizeof(w) - 1;
	assert_int_equal(taint_log_since(log, &c, BOOT, 4672, &w, &events,
					 &why), -EINVAL);
	w.size = sizeof(w);
	{
		struct {
			struct taint_cursor c;
			uint64_t newer;
		} big = { c, 1 };

		big.c.size = sizeof(big);
		assert_int_equal(taint_log_since(log, &big.c, BOOT, 4672, &w,
						 &events, &why), -E2BIG);
		big.newer = 0;
		assert_int_equal(taint_log_since(log, &big.c, BOOT, 4672, &w,
						 &events, &why), 0);
		taint_log_unref(events);
	}
	taint_log_unref(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_ref),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_fd),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_vmcore),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_since),
		cmocka_unit_test(test_since_misfit),
	};

	return cmocka_run_group_tests_name("log_object", tests, NULL, NULL);
}
