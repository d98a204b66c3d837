// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_record.c - what taintctl record writes, without BPF: struct
 * taint_rec records (bpf/record_abi.h) as the BPF program hands them over,
 * through cli/record_core.c and record_syms.c, into a log that libtaint
 * reads back (lib/record.c, the recorder's log as a stock kernel's).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"
#include "test_util.h"

/* a kernel's symbols: the taint code, the loader, a module's function */
static const char kallsyms[] =
	"ffffffff81000000 T add_taint\n"
	"ffffffff81000100 T __warn\n"
	"ffffffff81000200 t report_bug\n"
	"ffffffff81000300 T load_module\n"
	"ffffffff81000800 D some_data\n"
	"ffffffff81000900 T do_syscall_64\n"
	"ffffffff81001000 T _etext\n"
	"ffffffffc0000000 t bpf_trampoline_6442\t[bpf]\n"
	"ffffffffc0001000 t taint_test_warn\t[taint_test]\n"
	"ffffffffc0001040 t taint_test_init\t[taint_test]\n"
	"ffffffffc0002000 t end\t[taint_test]\n";

struct fixture {
	char dir[64];
	char log[128];
	struct rec_syms syms;
	struct recorder r;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char path[128];
	FILE *fp;

	strcpy(f->dir, "/tmp/test_record.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(path, sizeof(path), "%s/kallsyms", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(kallsyms, fp);
	fclose(fp);
	assert_int_equal(rec_syms_load(&f->syms, path), 0);
	snprintf(f->log, sizeof(f->log), "%s/taint_log", f->dir);
	f->r.syms = &f->syms;
	f->r.fd = -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	if (f->r.fd >= 0)
		close(f->r.fd);
	rec_syms_free(&f->syms);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static struct taint_rec kernel_rec(unsigned int bit, const char *comm)
{
	struct taint_rec e;

	memset(&e, 0, sizeof(e));
	e.kind = TAINT_REC_KERNEL;
	e.pid = 312;
	e.tid = 313;
	e.uid = 0;
	e.auid = TAINT_REC_NO_AUID;
	e.bit = bit;
	e.ts_ns = 5000100000ull;
	e.new_mask = 1ull << bit;
	strncpy(e.comm, comm, sizeof(e.comm));
	return e;
}

/* the whole log as text */
static char *slurp(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

static void open_log(struct fixture *f, bool want_restarted)
{
	bool restarted;

	f->r.fd = rec_open_log(f->log, &restarted);
	assert_true(f->r.fd >= 0);
	assert_int_equal(restarted, want_restarted);
}

static struct taint_log *read_back(struct fixture *f)
{
	struct taint_log *log;

	assert_int_equal(taint_log_new_from_file(f->log, &log), 0);
	return log;
}

/* a WARN in a module: caller= is the module's function, past add_taint,
 * __warn, report_bug and the trampoline; module= the module holding it */
static void test_warn_caller(void **state)
{
	struct fixture *f = *state;
	struct taint_rec e = kernel_rec(9, "insmod");
	struct taint_event ev;
	bool loader;

	e.stack[0] = 0xffffffffc0000010ull;	/* trampoline */
	e.stack[1] = 0xffffffff81000005ull;	/* add_taint+0x5 */
	e.stack[2] = 0xffffffff81000120ull;	/* __warn */
	e.stack[3] = 0xffffffff81000210ull;	/* report_bug */
	e.stack[4] = 0xffffffffc000101dull;	/* taint_test_warn+0x1d */
	e.stack[5] = 0xffffffff81000950ull;	/* do_syscall_64 */
	e.stack_bytes = 6 * 8;
	assert_true(rec_to_event(&f->r, &e, &ev, &loader));
	assert_false(loader);
	assert_true(ev.has_caller);
	assert_string_equal(ev.caller, "taint_test_warn+0x1d/0x40");
	assert_true(ev.has_module);
	assert_string_equal(ev.module, "taint_test");
	assert_string_equal(ev.flags, "W");
	assert_string_equal(ev.new_flags, "W");
	assert_true(ev.has_auid);
	assert_false(ev.auid_set);
	assert_string_equal(ev.ts, "5.000100");
}

/* a comm and a module name that try to forge a line or a field: one
 * line, which parses back to the same bytes */
static void test_forged_names(void **state)
{
	struct fixture *f = *state;
	struct taint_rec e = kernel_rec(12, "a\"\nts=1 x\\");
	struct taint_rec m;
	const struct taint_event *got;
	struct taint_log *log;
	char *text, *nl;

	open_log(f, false);
	e.stack[0] = 0xffffffff81000005ull;
	e.stack[1] = 0xffffffff81000350ull;	/* load_module */
	e.stack_bytes = 2 * 8;
	rec_event(&f->r, &e);
	assert_int_equal(f->r.npending, 1);	/* waits for the name */
	memset(&m, 0, sizeof(m));
	m.kind = TAINT_REC_MODULE;
	m.pid = e.pid;
	m.taints = 1ull << 12;
	strcpy(m.name, "evil mod\nts=2 origin=user");
	rec_event(&f->r, &m);
	assert_int_equal(f->r.npending, 0);
	text = slurp(f->log);
	nl = strchr(text, '\n');
	assert_non_null(nl);
	assert_null(strchr(nl + 1, '\n'));	/* one line */
	assert_non_null(strstr(text, "comm=\"a\\\"\\x0ats=1 x\\\\\""));
	log = read_back(f);
	assert_int_equal(taint_log_get_event_count(log), 1);
	assert_int_equal(taint_log_get_malformed(log), 0);
	got = taint_log_get_event(log, 0);
	assert_int_equal(got->comm_len, strlen("a\"\nts=1 x\\"));
	assert_memory_equal(got->comm, "a\"\nts=1 x\\", got->comm_len);
	assert_true(got->has_module);
	assert_string_equal(got->module, "evil mod\nts=2 origin=user");
	/* the loader says nothing: no caller when the module is named */
	assert_false(got->has_caller);
	assert_string_equal(got->new_flags, "O");
	taint_log_unref(log);
}

/* the loader's events of another pid, or whose flag the module does not
 * carry, are written without module=; the others wait at most 2 s */
static void test_loader_pending(void **state)
{
	struct fixture *f = *state;
	struct taint_rec o = kernel_rec(12, "insmod"), e = kernel_rec(13, "insmod");
	struct taint_rec m;
	struct taint_log *log;

	open_log(f, false);
	o.stack[0] = e.stack[0] = 0xffffffff81000350ull;
	o.stack_bytes = e.stack_bytes = 8;
	rec_event(&f->r, &o);
	rec_event(&f->r, &e);
	assert_int_equal(f->r.npending, 2);
	memset(&m, 0, sizeof(m));
	m.kind = TAINT_REC_MODULE;
	m.pid = 999;				/* another loader */
	m.taints = 3ull << 12;
	strcpy(m.name, "other");
	rec_event(&f->r, &m);
	assert_int_equal(f->r.npending, 2);
	m.pid = o.pid;
	m.taints = 1ull << 12;			/* O only */
	strcpy(m.name, "oot");
	rec_event(&f->r, &m);
	assert_int_equal(f->r.npending, 0);
	log = read_back(f);
	assert_int_equal(taint_log_get_event_count(log), 2);
	assert_string_equal(taint_log_get_event(log, 0)->module, "oot");
	assert_false(taint_log_get_event(log, 1)->has_module);
	assert_true(taint_log_get_event(log, 1)->has_caller);
	assert_string_equal(taint_log_get_event(log, 1)->caller,
			    "load_module+0x50/0x600");
	taint_log_unref(log);

	/* held: flushed after 2 s, not before */
	rec_event(&f->r, &o);
	rec_flush(&f->r, o.ts_ns + 1000000000ull, false);
	assert_int_equal(f->r.npending, 1);
	rec_flush(&f->r, o.ts_ns + 2000000001ull, false);
	assert_int_equal(f->r.npending, 0);
}

/* a module loaded after recording began: its functions are read from
 * kallsyms again at its module_load event, so its WARN names it */
static void test_module_symbols_reread(void **state)
{
	struct fixture *f = *state;
	struct taint_rec w = kernel_rec(9, "sh"), m;
	struct taint_event ev;
	char path[128];
	bool loader;
	FILE *fp;

	w.stack[0] = 0xffffffff81000005ull;	/* add_taint */
	w.stack[1] = 0xffffffffc0003010ull;	/* in the new module */
	w.stack_bytes = 2 * 8;
	assert_true(rec_to_event(&f->r, &w, &ev, &loader));
	assert_false(ev.has_caller);		/* not known yet */
	snprintf(path, sizeof(path), "%s/kallsyms2", f->dir);
	fp = fopen(path, "w");
	fputs(kallsyms, fp);
	fputs("ffffffffc0003000 t ut_record_warn_here\t[ut_record]\n"
	      "ffffffffc0003040 t warn_set\t[ut_record]\n", fp);
	fclose(fp);
	f->r.syms_path = path;
	open_log(f, false);
	memset(&m, 0, sizeof(m));
	m.kind = TAINT_REC_MODULE;
	m.pid = 7;
	m.taints = 1ull << 12;
	strcpy(m.name, "ut_record");
	rec_event(&f->r, &m);
	assert_true(rec_to_event(&f->r, &w, &ev, &loader));
	assert_true(ev.has_caller);
	assert_string_equal(ev.caller, "ut_record_warn_here+0x10/0x40");
	assert_string_equal(ev.module, "ut_record");
}

/* a table read before a module's init code was freed and its memory
 * reused by another module: the kernel event is resolved against
 * kallsyms as it is when the event is written */
static void test_stale_symbols(void **state)
{
	struct fixture *f = *state;
	struct taint_rec w = kernel_rec(9, "sh");
	struct taint_log *log;
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/kallsyms-old", f->dir);
	fp = fopen(path, "w");
	fputs(kallsyms, fp);
	fputs("ffffffffc0003000 t crct10dif_intel_mod_init\t[crct10dif_pclmul]\n"
	      "ffffffffc0003020 t other\t[crct10dif_pclmul]\n", fp);
	fclose(fp);
	rec_syms_free(&f->syms);
	assert_int_equal(rec_syms_load(&f->syms, path), 0);
	snprintf(path, sizeof(path), "%s/kallsyms-now", f->dir);
	fp = fopen(path, "w");
	fputs(kallsyms, fp);
	fputs("ffffffffc0003000 t ut_record_warn_here\t[ut_record]\n"
	      "ffffffffc0003020 t warn_set\t[ut_record]\n", fp);
	fclose(fp);
	f->r.syms_path = path;
	open_log(f, false);
	w.stack[0] = 0xffffffff81000005ull;
	w.stack[1] = 0xffffffffc0003011ull;
	w.stack_bytes = 2 * 8;
	rec_event(&f->r, &w);
	log = read_back(f);
	assert_int_equal(taint_log_get_event_count(log), 1);
	assert_string_equal(taint_log_get_event(log, 0)->caller,
			    "ut_record_warn_here+0x11/0x20");
	assert_string_equal(taint_log_get_event(log, 0)->module, "ut_record");
	taint_log_unref(log);
}

/* a write to kernel.tainted: flags= what was written (parsed as the
 * kernel does), new= its bits first set, the writer's pid, uid, auid */
static void test_user_request(void **state)
{
	struct fixture *f = *state;
	struct taint_rec u;
	struct taint_event ev;
	bool loader;

	memset(&u, 0, sizeof(u));
	u.kind = TAINT_REC_USER;
	u.pid = 4242;
	u.uid = 0;
	u.auid = 1000;
	u.ts_ns = 77000000000ull;
	strcpy(u.comm, "sh");
	strcpy(u.text, "0x41\n");
	u.taints = 0x1241;	/* what add_taint() got: the mask and more */
	u.new_mask = 0x1;	/* P new, U was set */
	assert_true(rec_to_event(&f->r, &u, &ev, &loader));
	assert_int_equal(ev.origin, TAINT_ORIGIN_USER);
	assert_string_equal(ev.flags, "PU");
	assert_string_equal(ev.new_flags, "P");
	assert_int_equal(ev.pid, 4242);
	assert_true(ev.auid_set);
	assert_int_equal(ev.auid, 1000);
	assert_false(ev.has_caller);
	assert_false(ev.has_module);
	assert_string_equal(ev.comm, "sh");

	strcpy(u.text, "64");
	u.new_mask = 0;
	assert_true(rec_to_event(&f->r, &u, &ev, &loader));
	assert_string_equal(ev.flags, "U");
	assert_string_equal(ev.new_flags, "");
}

/* mark's reason: on its sender's next request only, within 10 s */
static void test_reason_attached(void **state)
{
	struct fixture *f = *state;
	struct taint_rec u;
	struct taint_log *log;
	const struct taint_event *ev;

	memset(&u, 0, sizeof(u));
	u.kind = TAINT_REC_USER;
	u.pid = 4242;
	u.auid = TAINT_REC_NO_AUID;
	u.ts_ns = 5000000000ull;
	strcpy(u.comm, "taintctl");
	strcpy(u.text, "64");
	u.new_mask = 64;
	open_log(f, false);
	rec_reason(&f->r, 4242, "firmware \"update\"", 4000000000ull);
	rec_reason(&f->r, 99, "another's", 4000000000ull);
	rec_event(&f->r, &u);		/* 4242's: its reason */
	rec_event(&f->r, &u);		/* again: none left */
	rec_reason(&f->r, 4242, "too late", 1000000000ull);
	u.ts_ns = 11000000001ull;	/* more than 10 s after it */
	rec_event(&f->r, &u);
	log = read_back(f);
	assert_int_equal(taint_log_get_event_count(log), 3);
	ev = taint_log_get_event(log, 0);
	assert_true(ev->has_reason);
	assert_string_equal(ev->reason, "firmware \"update\"");
	assert_false(taint_log_get_event(log, 1)->has_reason);
	assert_false(taint_log_get_event(log, 2)->has_reason);
	assert_int_equal(f->r.nreasons, 1);	/* 99's waits */
	taint_log_unref(log);
}

/* the socket: the sender's pid from the kernel, root's reasons only,
 * a bad reason refused */
static void test_reason_socket(void **state)
{
	struct fixture *f = *state;
	char path[128], reason[TAINT_REASON_MAX + 1];
	const char *const sent[] = { "kernel debugging", "bad\x01byte" };
	int lfd;

	snprintf(path, sizeof(path), "%s/reason.sock", f->dir);
	lfd = rec_reason_listen(path);
	assert_true(lfd >= 0);
	for (size_t i = 0; i < 2; i++) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		uint32_t pid = 0;
		pid_t child = fork();
		int st, ret;

		assert_true(child >= 0);
		if (!child)
			_exit(rec_reason_send(path, sent[i]) ? 1 : 0);
		assert_int_equal(poll(&p, 1, 5000), 1);
		ret = rec_reason_accept(lfd, &pid, reason);
		assert_int_equal(waitpid(child, &st, 0), child);
		if (i == 0 && getuid() == 0) {
			assert_int_equal(ret, 0);
			assert_int_equal(pid, (uint32_t)child);
			assert_string_equal(reason, sent[0]);
			assert_int_equal(WEXITSTATUS(st), 0);
		} else {
			/* a bad reason, or a sender that is not root */
			assert_int_equal(ret, -EINVAL);
			assert_int_equal(WEXITSTATUS(st), 1);
		}
	}
	assert_int_equal(rec_reason_accept(lfd, (uint32_t[1]){ 0 }, reason), -EAGAIN);
	close(lfd);
	assert_int_equal(rec_reason_send(path, "nobody listens"), -ECONNREFUSED);
}

/* utc= from the offset of the wall clock; "-" before it was ever set */
static void test_utc(void **state)
{
	struct fixture *f = *state;
	struct taint_rec e = kernel_rec(9, "x");
	struct taint_event ev;
	bool loader;

	f->r.realtime_off_ns = 0;
	assert_true(rec_to_event(&f->r, &e, &ev, &loader));
	assert_string_equal(ev.utc, "-");
	/* 2026-12-07T22:00:00Z is 1796680800 s; the event 5.0001 s later */
	f->r.realtime_off_ns = 1796680800ll * 1000000000ll;
	assert_true(rec_to_event(&f->r, &e, &ev, &loader));
	assert_string_equal(ev.utc, "2026-12-07T22:00:05Z");
}

/* the notes: began (the kernel, the mask: flags before recording), lost
 * events counted once each, a restart's gap; the events between them */
static void test_notes(void **state)
{
	struct fixture *f = *state;
	struct taint_recording rec = TAINT_INIT(struct taint_recording);
	struct taint_rec e = kernel_rec(9, "cat");
	struct taint_log *log;

	open_log(f, false);
	assert_int_equal(rec_start(&f->r, false, 912345000, "6.1.0-28-amd64",
				   4096), 0);
	rec_event(&f->r, &e);
	rec_lost(&f->r, 3, 9100000000ull);
	rec_lost(&f->r, 3, 9200000000ull);	/* nothing new */
	rec_lost(&f->r, 5, 9300000000ull);	/* 2 more */
	close(f->r.fd);
	f->r.fd = -1;
	/* an earlier recorder died in a write: its line is ended */
	f->r.fd = open(f->log, O_WRONLY | O_APPEND);
	assert_int_equal(write(f->r.fd, "ts=9.5 utc=- ori", 16), 16);
	close(f->r.fd);
	open_log(f, true);
	f->r.lost = 0;
	assert_int_equal(rec_start(&f->r, true, 20000000000ull,
				   "6.1.0-28-amd64", 4608), 0);
	assert_non_null(strstr(slurp(f->log), "ori\n# taintctl-record restarted ts=20.000000 utc=- kernel=6.1.0-28-amd64 mask=4608\n"));
	assert_non_null(strstr(slurp(f->log), "# taintctl-record began ts=0.912345 utc=- kernel=6.1.0-28-amd64 mask=4096\n"));

	log = read_back(f);
	assert_int_equal(taint_log_get_event_count(log), 1);
	assert_int_equal(taint_log_get_malformed(log), 1);	/* the cut line */
	assert_int_equal(taint_log_get_recording(log, &rec), 0);
	assert_string_equal(rec.began_ts, "0.912345");
	assert_string_equal(rec.began_utc, "-");
	assert_string_equal(rec.kernel, "6.1.0-28-amd64");
	assert_true(rec.before_mask == 4096);
	assert_true(rec.lost == 5);
	assert_int_equal(rec.restarts, 1);
	taint_log_unref(log);
}

/* notes: a kernel release that needs escaping, notes that do not parse,
 * the kernel's own log has none */
static void test_note_parse(void **state)
{
	struct taint_recording r = TAINT_INIT(struct taint_recording);
	struct taint_log *log;
	char line[512];
	size_t n;
	static const char kernel_log[] =
		"ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"sh\"\n";
	static const char bad[] =
		"# taintctl-record began ts=1.0 utc=- kernel=x mask=1\n"
		"# taintctl-record lost=x ts=2.0\n"
		"# taintctl-record exploded ts=2.0\n";

	(void)state;
	n = taint_record_format_begin(line, sizeof(line), false, "1.000000",
				      "", "6.1 \"odd\"\n", 0);
	assert_int_equal(n, strlen(line));
	assert_string_equal(line, "# taintctl-record began ts=1.000000 utc=- kernel=6.1\\x20\\\"odd\\\"\\x0a mask=0");
	assert_int_equal(taint_record_parse_note(line, n, &r), 1);
	assert_string_equal(r.kernel, "6.1 \"odd\"\n");
	assert_int_equal(taint_record_parse_note(kernel_log,
						 strlen(kernel_log) - 1, &r), 0);
	assert_int_equal(taint_log_new_from_text(kernel_log, strlen(kernel_log),
						 &log), 0);
	assert_int_equal(taint_log_get_recording(log, &r), -ENOENT);
	taint_log_unref(log);
	assert_int_equal(taint_log_new_from_text(bad, strlen(bad), &log), 0);
	assert_int_equal(taint_log_get_malformed(log), 2);
	assert_int_equal(taint_log_get_event_count(log), 0);
	assert_int_equal(taint_log_get_recording(log, &r), 0);
	taint_log_unref(log);
	r.size = 8;
	assert_int_equal(taint_record_parse_note(line, n, &r), -EINVAL);
}

/* where the recorder's log is, for the live system and under --root */
static void test_log_path(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(taint_record_log_path(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, TAINT_LIVE_ROOT "/run/taintctl/taint_log");
	assert_int_equal(taint_record_log_path("/x/proc", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/run/taintctl/taint_log");
	assert_int_equal(taint_record_log_path("/x/proc//", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/run/taintctl/taint_log");
	assert_int_equal(taint_record_log_path("/x/myproc", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(taint_record_log_path("/x/proc", buf, 8),
			 -ENAMETOOLONG);
}

/* a stock kernel's tree: its log is the recorder's; a patched kernel's
 * own log stays the source */
static void test_fallback_source(void **state)
{
	struct fixture *f = *state;
	char proc[128], path[256];
	struct taint_log *log;
	FILE *fp;

	snprintf(path, sizeof(path), "mkdir -p '%s/proc/sys/kernel' '%s/run/taintctl'",
		 f->dir, f->dir);
	assert_int_equal(system(path), 0);
	snprintf(proc, sizeof(proc), "%s/proc", f->dir);
	assert_int_equal(taint_log_new_from_proc(proc, &log), -ENOENT);
	snprintf(path, sizeof(path), "%s/run/taintctl/taint_log", f->dir);
	fp = fopen(path, "w");
	fputs("# taintctl-record began ts=1.000000 utc=- kernel=k mask=0\n"
	      "ts=2.000000 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=- comm=\"a\"\n", fp);
	fclose(fp);
	assert_int_equal(taint_log_new_from_proc(proc, &log), 0);
	assert_int_equal(taint_log_get_event_count(log), 1);
	taint_log_unref(log);
	assert_int_equal(taint_read_log_path(proc, path, sizeof(path)), 0);
	assert_non_null(strstr(path, "/run/taintctl/taint_log"));

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/taint_log", f->dir);
	fp = fopen(path, "w");
	fputs("ts=3.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm=\"b\"\n"
	      "ts=4.000000 utc=- origin=user flags=P new=P pid=1 uid=0 comm=\"b\"\n", fp);
	fclose(fp);
	assert_int_equal(taint_log_new_from_proc(proc, &log), 0);
	assert_int_equal(taint_log_get_event_count(log), 2);
	taint_log_unref(log);
}

/* symbols: none below the first, none past the last (no size), data
 * skipped; a table of zero addresses (no CAP_SYSLOG) refused */
static void test_syms(void **state)
{
	struct fixture *f = *state;
	char path[128];
	uint64_t size;
	const struct rec_sym *s;
	struct rec_syms z;
	FILE *fp;

	assert_null(rec_syms_find(&f->syms, 0xffffffff80000000ull, &size));
	assert_null(rec_syms_find(&f->syms, 0xffffffffc0002010ull, &size));
	s = rec_syms_find(&f->syms, 0xffffffff81000850ull, &size);
	assert_non_null(s);
	assert_string_equal(s->name, "load_module");
	assert_true(size == 0x600);
	snprintf(path, sizeof(path), "%s/zero", f->dir);
	fp = fopen(path, "w");
	fputs("0000000000000000 T add_taint\n0000000000000000 T __warn\n", fp);
	fclose(fp);
	assert_int_equal(rec_syms_load(&z, path), -EPERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_warn_caller, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forged_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loader_pending, setup, teardown),
		cmocka_unit_test_setup_teardown(test_module_symbols_reread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_symbols, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_request, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reason_attached, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reason_socket, setup, teardown),
		cmocka_unit_test_setup_teardown(test_utc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notes, setup, teardown),
		cmocka_unit_test(test_note_parse),
		cmocka_unit_test(test_log_path),
		cmocka_unit_test_setup_teardown(test_fallback_source, setup, teardown),
		cmocka_unit_test_setup_teardown(test_syms, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
