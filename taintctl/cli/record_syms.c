// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record_syms.c - the running kernel's symbols from /proc/kallsyms, read
 * by taintctl record when it starts (and again for a module it does not
 * know), so that caller= is resolved when the event is recorded: a module
 * unloaded later cannot change it.  Addresses are 0 to a reader without
 * CAP_SYSLOG (kptr_restrict, perf_event_paranoid): then there is no
 * caller=, and the caller is told.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

static int by_addr(const void *a, const void *b)
{
	const struct rec_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int slurp(const char *path, char **out)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		int e = fd < 0 ? errno : ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		return -e;
	}
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return -e;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int rec_syms_load(struct rec_syms *s, const char *path)
{
	size_t cap = 0;
	bool nonzero = false;
	char *p;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = slurp(path, &s->text);
	if (ret)
		return ret;
	/* "ffffffff81000000 T _stext" or "... t name\t[module]" */
	for (p = s->text; *p; ) {
		char *nl = strchr(p, '\n'), *type, *name, *mod = NULL, *end;
		unsigned long long addr;

		if (nl)
			*nl = '\0';
		errno = 0;
		addr = strtoull(p, &end, 16);
		type = end;
		if (errno || end == p || *type != ' ' || !type[1] || type[2] != ' ')
			goto next;
		name = type + 3;
		if (!strchr("tTwW", type[1]))
			goto next;	/* code only: data is no caller */
		end = strchr(name, '\t');
		if (end) {
			*end = '\0';
			mod = end + 1;
			if (*mod == '[') {
				mod++;
				end = strchr(mod, ']');
				if (end)
					*end = '\0';
			}
		}
		if (s->n == cap) {
			struct rec_sym *v = realloc(s->v, (cap ? cap * 2 : 65536) *
						    sizeof(*v));

			if (!v) {
				rec_syms_free(s);
				return -ENOMEM;
			}
			s->v = v;
			cap = cap ? cap * 2 : 65536;
		}
		s->v[s->n++] = (struct rec_sym){ addr, name, mod };
		nonzero |= addr != 0;
next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!nonzero) {
		rec_syms_free(s);
		return -EPERM;
	}
	qsort(s->v, s->n, sizeof(*s->v), by_addr);
	return 0;
}

void rec_syms_free(struct rec_syms *s)
{
	free(s->v);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

const struct rec_sym *rec_syms_find(const struct rec_syms *s, uint64_t addr,
				    uint64_t *size)
{
	size_t lo = 0, hi = s->n;

	if (!s->n || addr < s->v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the next symbol at a higher address bounds this one */
	for (hi = lo + 1; hi < s->n && s->v[hi].addr == s->v[lo].addr; hi++)
		;
	if (hi == s->n)
		return NULL;	/* past the last symbol: not known */
	*size = s->v[hi].addr - s->v[lo].addr;
	return &s->v[lo];
}
