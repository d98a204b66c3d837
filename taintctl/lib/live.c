/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * live.c - the running kernel's taint over time: event identity and wall
 * time, the boot id, cursors (a position in the taint log), and waiting
 * for a change with poll() (docs/abi.md section 1.6).
 *
 * The kernel's sysctl poll convention (fs/proc/proc_sysctl.c,
 * proc_sys_poll()): a sysctl file whose table has a ->poll entry (as
 * kernel.hostname has) remembers at open() the entry's event count; poll()
 * registers on its wait queue and returns
 * EPOLLIN|EPOLLRDNORM|EPOLLERR|EPOLLPRI once the count changed (and takes
 * the new count), else DEFAULT_POLLMASK (EPOLLIN|EPOLLOUT|EPOLLRDNORM|
 * EPOLLWRNORM).  A file without a ->poll entry (stock 6.12's tainted)
 * returns DEFAULT_POLLMASK at once and never waits, and so does a regular
 * file.  So with events = POLLPRI, poll() on a kernel without support
 * simply sleeps until the timeout: the returned mask is the same as on a
 * kernel with support that has nothing to report, and no mask tells the
 * two apart before a change.  What does is a change that arrives without
 * POLLPRI: taint_watch_changed().
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "abi.h"
#include "chars.h"
#include "taint.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* ---- wall time ---------------------------------------------------------- */

static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int taint_utc_seconds(const char *utc, int64_t *secs)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
				     30, 31 };
	int y, mo, d, h, mi, s, dim;

	if (strcmp(utc, "-") == 0)
		return -ENODATA;
	if (strlen(utc) != 20 || utc[4] != '-' || utc[7] != '-' ||
	    utc[10] != 'T' || utc[13] != ':' || utc[16] != ':' ||
	    utc[19] != 'Z')
		return -EINVAL;
	y = digits(utc, 4);
	mo = digits(utc + 5, 2);
	d = digits(utc + 8, 2);
	h = digits(utc + 11, 2);
	mi = digits(utc + 14, 2);
	s = digits(utc + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || s < 0 || s > 60)
		return -EINVAL;
	dim = mdays[mo - 1];
	if (mo == 2 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		dim = 28;
	if (d > dim)
		return -EINVAL;
	*secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
	return 0;
}

/* ---- event identity ----------------------------------------------------- */

bool taint_event_same(const struct taint_event *a, const struct taint_event *b)
{
	if (taint__size_out(a->size, sizeof(*a)) ||
	    taint__size_out(b->size, sizeof(*b)))
		return false;
	return strcmp(a->ts, b->ts) == 0 && strcmp(a->utc, b->utc) == 0 &&
	       a->origin == b->origin && strcmp(a->flags, b->flags) == 0 &&
	       strcmp(a->new_flags, b->new_flags) == 0 && a->pid == b->pid &&
	       a->uid == b->uid && a->has_auid == b->has_auid &&
	       a->auid_set == b->auid_set && a->auid == b->auid &&
	       a->comm_len == b->comm_len &&
	       memcmp(a->comm, b->comm, a->comm_len) == 0 &&
	       a->has_reason == b->has_reason &&
	       a->reason_len == b->reason_len &&
	       memcmp(a->reason, b->reason, a->reason_len) == 0;
}

/*
 * An array of struct taint_event from a caller whose struct may be larger
 * than ours (a newer header): element @i is @elem_size bytes after element
 * @i - 1.  Each element's .size is the bytes filled (0: the 1.0 layout);
 * it may not be smaller than the 1.0 layout nor larger than the element.
 */
static const struct taint_event *event_at(const struct taint_event *ev,
					  size_t elem_size, size_t i)
{
	return (const struct taint_event *)((const char *)ev + i * elem_size);
}

static int events_check(const struct taint_event *ev, size_t n,
			size_t elem_size)
{
	if (elem_size < sizeof(*ev))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		size_t size = event_at(ev, elem_size, i)->size;

		if (taint__size_out(size, sizeof(*ev)) || size > elem_size)
			return -EINVAL;
	}
	return 0;
}

long taint_first_event(const struct taint_event *ev, size_t n,
		       size_t elem_size, unsigned int bit)
{
	int ret = events_check(ev, n, elem_size);

	if (ret)
		return ret;
	if (bit >= 64)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (event_at(ev, elem_size, i)->new_mask & (UINT64_C(1) << bit))
			return (long)i;
	return -1;
}

/* FNV-1a, 32 bits */
static uint32_t fnv(uint32_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t fnv_str(uint32_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

static uint32_t fnv_u32(uint32_t h, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8),
			       (unsigned char)(v >> 16),
			       (unsigned char)(v >> 24) };

	return fnv(h, b, sizeof(b));
}

int taint_events_digest(const struct taint_event *ev, size_t n,
			size_t elem_size, uint32_t *digest)
{
	uint32_t h = 2166136261u;
	int ret = events_check(ev, n, elem_size);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		const struct taint_event *e = event_at(ev, elem_size, i);

		h = fnv_str(h, e->ts);
		h = fnv_str(h, e->utc);
		h = fnv_u32(h, e->origin);
		h = fnv_str(h, e->flags);
		h = fnv_str(h, e->new_flags);
		h = fnv_u32(h, e->pid);
		h = fnv_u32(h, e->uid);
		h = fnv_u32(h, (uint32_t)e->has_auid << 1 | e->auid_set);
		h = fnv_u32(h, e->auid_set ? e->auid : 0);
		h = fnv_u32(h, (uint32_t)e->comm_len);
		h = fnv(h, e->comm, e->comm_len);
		h = fnv_u32(h, e->has_reason ? (uint32_t)e->reason_len + 1 : 0);
		h = fnv(h, e->reason, e->has_reason ? e->reason_len : 0);
	}
	*digest = h;
	return 0;
}

/* ---- boot id and cursors ------------------------------------------------ */

/* @s (36 bytes) is a UUID as the kernel prints it: 8-4-4-4-12 hex digits */
static bool is_uuid(const char *s)
{
	for (int i = 0; i < TAINT_BOOT_ID_LEN; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : taint_hex_digit(s[i]) < 0)
			return false;
	}
	return true;
}

int taint_read_boot_id(const char *proc_root, char *id, size_t size)
{
	char path[4096], buf[64];
	ssize_t n;
	int fd, len;

	if (size < TAINT_BOOT_ID_LEN + 1)
		return -ENOSPC;
	len = snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id",
		       proc_root ? proc_root : TAINT_LIVE_ROOT "/proc");
	if (len < 0 || (size_t)len >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf, sizeof(buf) - 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	buf[n] = '\0';
	if (n < TAINT_BOOT_ID_LEN || !is_uuid(buf) ||
	    (n > TAINT_BOOT_ID_LEN && strcmp(buf + TAINT_BOOT_ID_LEN, "\n")))
		return -EINVAL;
	for (int i = 0; i < TAINT_BOOT_ID_LEN; i++)
		id[i] = (char)(buf[i] >= 'A' && buf[i] <= 'F' ?
			       buf[i] - 'A' + 'a' : buf[i]);
	id[TAINT_BOOT_ID_LEN] = '\0';
	return 0;
}

/*
 * Text form: "tc1-" 32 hex digits of the boot id (no dashes), then
 * "-<events>-<dropped>-<mask, hex>-<digest, 8 hex digits>", all lower case:
 * one shell word, nothing to quote.
 */
int taint_cursor_format(const struct taint_cursor *c, char *buf, size_t size)
{
	char id[33];
	size_t k = 0;
	int n;

	n = taint__size_in(c, c->size, sizeof(*c));
	if (n)
		return n;
	if (!is_uuid(c->boot_id))
		return -EINVAL;
	for (int i = 0; i < TAINT_BOOT_ID_LEN; i++)
		if (c->boot_id[i] != '-')
			id[k++] = (char)(c->boot_id[i] >= 'A' &&
					 c->boot_id[i] <= 'F' ?
					 c->boot_id[i] - 'A' + 'a' :
					 c->boot_id[i]);
	id[k] = '\0';
	n = snprintf(buf, size, "tc1-%s-%llu-%llu-%llx-%08lx", id,
		     (unsigned long long)c->events,
		     (unsigned long long)c->dropped,
		     (unsigned long long)c->mask, (unsigned long)c->digest);
	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	return n;
}

/* a number in @base (lower-case digits), 1 to @max digits; *@end after it */
static int cursor_number(const char *s, int base, int max, uint64_t *v,
			 const char **end)
{
	uint64_t x = 0;
	int i;

	for (i = 0; i < max; i++) {
		int d = taint_hex_digit(s[i]);

		if (d < 0 || d >= base || (s[i] >= 'A' && s[i] <= 'F'))
			break;
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -EINVAL;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (!i)
		return -EINVAL;
	*v = x;
	*end = s + i;
	return 0;
}

int taint_cursor_parse(const char *s, struct taint_cursor *cur)
{
	struct taint_cursor c = TAINT_INIT(struct taint_cursor);
	char again[TAINT_CURSOR_MAX];
	uint64_t digest;
	const char *p;
	size_t k = 0;

	if (taint__size_out(cur->size, sizeof(*cur)))
		return -EINVAL;
	if (strncmp(s, "tc1-", 4))
		return -EINVAL;
	p = s + 4;
	for (int i = 0; i < 32; i++) {
		if (taint_hex_digit(p[i]) < 0 || (p[i] >= 'A' && p[i] <= 'F'))
			return -EINVAL;
		if (i == 8 || i == 12 || i == 16 || i == 20)
			c.boot_id[k++] = '-';
		c.boot_id[k++] = p[i];
	}
	c.boot_id[k] = '\0';
	p += 32;
	if (*p++ != '-' || cursor_number(p, 10, 20, &c.events, &p) ||
	    *p++ != '-' || cursor_number(p, 10, 20, &c.dropped, &p) ||
	    *p++ != '-' || cursor_number(p, 16, 16, &c.mask, &p) ||
	    *p++ != '-' || cursor_number(p, 16, 8, &digest, &p) || *p)
		return -EINVAL;
	c.digest = (uint32_t)digest;
	/* only the canonical form: no leading zeros, 8 digest digits */
	if (taint_cursor_format(&c, again, sizeof(again)) < 0 ||
	    strcmp(again, s))
		return -EINVAL;
	/* nothing written before it is valid; then the 1.0 layout, whatever
	 * the caller's .size (at least that, or 0) */
	*cur = c;
	return 0;
}

/* ---- waiting for a change ----------------------------------------------- */

struct taint_watch {
	struct pollfd fds[2];
	int fd[2];			/* to close: fds[i].fd may be -1 */
	nfds_t nfds;
	enum taint_poll_support support;
};

/* open @name under @proc_root into w->fds; 1 if it does not exist */
static int watch_add(struct taint_watch *w, const char *proc_root,
		     const char *name)
{
	char path[4096];
	struct statfs sfs;
	int fd, ret;

	ret = taint_proc_path(proc_root, name, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 1 : -errno;
	if (fstatfs(fd, &sfs) || sfs.f_type != PROC_SUPER_MAGIC)
		w->support = TAINT_POLL_NO;
	w->fd[w->nfds] = fd;
	w->fds[w->nfds].fd = fd;
	w->fds[w->nfds].events = POLLPRI;
	w->nfds++;
	return 0;
}

int taint_watch_open(const char *proc_root, struct taint_watch **wp,
		     int *log_error)
{
	struct taint_watch *w = calloc(1, sizeof(*w));
	int ret;

	*wp = NULL;
	if (log_error)
		*log_error = 0;
	if (!w)
		return -ENOMEM;
	w->support = TAINT_POLL_UNKNOWN;
	ret = watch_add(w, proc_root, "tainted");
	if (ret) {
		free(w);
		return ret > 0 ? -ENOENT : ret;
	}
	ret = watch_add(w, proc_root, "taint_log");
	if (ret < 0 && log_error)
		*log_error = -ret;
	*wp = w;
	return 0;
}

enum taint_poll_support taint_watch_support(const struct taint_watch *w)
{
	return w->support;
}

/* poll the files; 1 if one signalled a change, 0 if not, -errno */
static int watch_poll(struct taint_watch *w, int timeout_ms)
{
	bool signalled = false;
	int n;

	n = poll(w->fds, w->nfds, timeout_ms);
	if (n < 0)
		return -errno;
	for (nfds_t i = 0; i < w->nfds; i++) {
		short r = w->fds[i].revents;

		if (r & (POLLPRI | POLLERR))
			signalled = true;
		/* the sysctl went away (EPOLLERR|EPOLLHUP), or a bad fd:
		 * never poll it again (it would report at once, for ever) */
		if (r & (POLLHUP | POLLNVAL)) {
			w->fds[i].fd = -1;
			w->support = TAINT_POLL_NO;
		}
	}
	return signalled;
}

int taint_watch_wait(struct taint_watch *w, int interval_ms)
{
	int ret;

	if (w->support == TAINT_POLL_NO) {
		ret = poll(NULL, 0, interval_ms);
		return ret < 0 ? -errno : 0;
	}
	ret = watch_poll(w, w->support == TAINT_POLL_YES ? -1 : interval_ms);
	if (ret > 0 && w->support == TAINT_POLL_UNKNOWN)
		w->support = TAINT_POLL_YES;
	return ret;
}

enum taint_poll_support taint_watch_changed(struct taint_watch *w)
{
	if (w->support != TAINT_POLL_UNKNOWN)
		return w->support;
	/* the change may have come between the timeout and the re-read:
	 * then the kernel has signalled it by now */
	w->support = watch_poll(w, 0) > 0 ? TAINT_POLL_YES : TAINT_POLL_NO;
	return w->support;
}

void taint_watch_close(struct taint_watch *w)
{
	if (!w)
		return;
	for (nfds_t i = 0; i < w->nfds; i++)
		close(w->fd[i]);
	free(w);
}
