// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_flat.c - makedumpfile's flattened format (makedumpfile -F, what
 * kdump-tools writes into /var/crash/<date>/dump.<date>, and QEMU's
 * kdump-* formats): a 4096-byte header ("makedumpfile", type 1, version
 * 1, big-endian), then records of a big-endian (offset, size) pair and
 * size bytes that belong at that offset of the dump, until an (-1, -1)
 * pair.  makedumpfile -R writes the records out at their offsets; here
 * they are indexed once and the dump is read through the index (a later
 * record wins where two overlap; bytes no record wrote read as zero, as
 * in the file -R makes).  Either format inside: kdump-compressed
 * (vmcore_diskdump.c) or ELF (vmcore_elf.c), which read the dump's bytes
 * through vmcore_file_read(): through the records, or the file's own.
 *
 * Every number in the file is untrusted: each offset, size and count is
 * checked before use, and nothing is allocated beyond the file's size.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "vmcore_internal.h"

#define FLAT_HEADER	4096		/* MAX_SIZE_MDF_HEADER */
#define FLAT_RECORD	16		/* struct makedumpfile_data_header */

struct flat_rec {
	uint64_t off, size, at;		/* dump offset, length, file offset */
};

/* [off, end) of the dump is in record rec, at its byte off - rec's off */
struct flat_piece {
	uint64_t off, end;
	size_t rec;
};

struct vmcore_flat {
	struct flat_rec *rec;
	size_t n;
	struct flat_piece *piece;	/* disjoint, in order of offset */
	size_t npiece;
};

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

struct flat_event {
	uint64_t pos;
	size_t rec;
};

static int event_cmp(const void *a, const void *b)
{
	const struct flat_event *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* a max-heap of record numbers: the latest record wins */
static void heap_push(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2] < v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(size_t *h, size_t *n)
{
	size_t v = h[--*n], i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
}

/*
 * The dump's bytes as disjoint pieces, each from the last record that
 * wrote it: a sweep over the records' starts and ends, in O(n log n), so
 * that a read is a binary search whatever the records are (a file of
 * one-byte records must not make each read walk all of them).
 */
static int flat_index(struct vmcore_flat *f)
{
	struct flat_event *ev = malloc(2 * f->n * sizeof(*ev));
	size_t *heap = malloc(f->n * sizeof(*heap)), nheap = 0, e = 0;
	uint64_t prev = 0;

	f->piece = malloc(2 * f->n * sizeof(*f->piece));
	if (!ev || !heap || !f->piece) {
		free(ev);
		free(heap);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->n; i++) {
		ev[2 * i] = (struct flat_event){ f->rec[i].off, i };
		ev[2 * i + 1] = (struct flat_event){ f->rec[i].off + f->rec[i].size, SIZE_MAX };
	}
	qsort(ev, 2 * f->n, sizeof(*ev), event_cmp);
	while (e < 2 * f->n) {
		uint64_t pos = ev[e].pos;

		/* [prev, pos): the latest record still open holds it all */
		while (nheap && f->rec[heap[0]].off + f->rec[heap[0]].size <= prev)
			heap_pop(heap, &nheap);
		if (nheap && prev < pos) {
			struct flat_piece *last = f->npiece ? &f->piece[f->npiece - 1] : NULL;

			if (last && last->rec == heap[0] && last->end == prev)
				last->end = pos;
			else
				f->piece[f->npiece++] = (struct flat_piece){ prev, pos, heap[0] };
		}
		for (; e < 2 * f->n && ev[e].pos == pos; e++)
			if (ev[e].rec != SIZE_MAX)
				heap_push(heap, &nheap, ev[e].rec);
		prev = pos;
	}
	free(ev);
	free(heap);
	return 0;
}

int vmcore_flat_open(struct vmcore *vc)
{
	unsigned char h[32];	/* signature[16], type, version */
	uint64_t at = FLAT_HEADER, end = 0, type, version;
	struct vmcore_flat *f;
	struct flat_rec *r;
	size_t cap = 0;
	int ret;

	ret = vmcore_raw_read(vc, 0, h, sizeof(h));
	if (ret)
		return ret == -ENODATA ? vmcore_truncated(vc, "the flattened format's header") : ret;
	type = be64(h + 16);
	version = be64(h + 24);
	if (type != 1)
		return vmcore_fail(vc, -EBADMSG,
				   "a flattened dump (\"makedumpfile\") of unknown type %llu (version %llu)",
				   (unsigned long long)type, (unsigned long long)version);
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	vc->flat = f;
	for (;;) {
		uint64_t off, size;

		ret = vmcore_raw_read(vc, at, h, FLAT_RECORD);
		if (ret == -ENODATA)
			return vmcore_fail(vc, -EBADMSG,
					   "the flattened dump is truncated (%llu bytes): it ends before its end marker (makedumpfile did not finish)",
					   (unsigned long long)vc->raw_size);
		if (ret)
			return ret;
		off = be64(h);
		size = be64(h + 8);
		at += FLAT_RECORD;
		if (off == UINT64_MAX && size == UINT64_MAX)
			break;
		if (off >> 62 || !size || size >> 62)
			return vmcore_fail(vc, -EBADMSG,
					   "the flattened dump's record at byte %llu is not valid (offset %lld, size %lld)",
					   (unsigned long long)(at - FLAT_RECORD),
					   (long long)off, (long long)size);
		if (size > vc->raw_size - at)
			return vmcore_fail(vc, -EBADMSG,
					   "the flattened dump is truncated (%llu bytes): a record of %llu bytes at byte %llu ends past it",
					   (unsigned long long)vc->raw_size,
					   (unsigned long long)size,
					   (unsigned long long)at);
		/* at most raw_size / 17 records: each has a byte */
		r = taint__grow(f->rec, f->n, &cap, sizeof(*r), 256);
		if (!r)
			return -ENOMEM;
		f->rec = r;
		f->rec[f->n++] = (struct flat_rec){ off, size, at };
		if (off + size > end)
			end = off + size;
		at += size;
	}
	if (!f->n)
		return vmcore_fail(vc, -EBADMSG, "the flattened dump holds no data");
	vc->file_size = end;
	return flat_index(f);
}

/* @len bytes at @off of the dump the records make: 0 or -ENODATA. */
int vmcore_flat_read(struct vmcore *vc, uint64_t off, void *buf, size_t len)
{
	const struct vmcore_flat *f = vc->flat;
	unsigned char *p = buf;

	if (off > vc->file_size || len > vc->file_size - off)
		return -ENODATA;
	while (len) {
		uint64_t n = len;
		size_t lo = 0, hi = f->npiece;
		int ret;

		/* the first piece that ends after @off */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (f->piece[mid].end <= off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < f->npiece && f->piece[lo].off <= off) {
			const struct flat_piece *pc = &f->piece[lo];
			const struct flat_rec *r = &f->rec[pc->rec];

			if (pc->end - off < n)
				n = pc->end - off;
			ret = vmcore_raw_read(vc, r->at + (off - r->off), p, n);
			if (ret)
				return ret;
		} else {
			/* no record wrote these bytes: zeros, up to the next piece */
			if (lo < f->npiece && f->piece[lo].off - off < n)
				n = f->piece[lo].off - off;
			memset(p, 0, n);
		}
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

void vmcore_flat_close(struct vmcore *vc)
{
	if (vc->flat) {
		free(vc->flat->rec);
		free(vc->flat->piece);
		free(vc->flat);
		vc->flat = NULL;
	}
}

int vmcore_file_read(struct vmcore *vc, uint64_t off, void *buf, size_t len)
{
	if (vc->flat)
		return vmcore_flat_read(vc, off, buf, len);
	return vmcore_raw_read(vc, off, buf, len);
}


int vmcore_must_read(struct vmcore *vc, uint64_t off, void *buf, size_t len,
		     const char *what)
{
	int ret = vmcore_file_read(vc, off, buf, len);

	return ret == -ENODATA ? vmcore_truncated(vc, what) : ret;
}
