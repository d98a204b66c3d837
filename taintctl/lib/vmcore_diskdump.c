// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_diskdump.c - the dumps makedumpfile writes besides ELF:
 *
 * The kdump-compressed format ("KDUMP   ", makedumpfile -c/-l/-p/-z, the
 * default of Debian's kdump-tools and RHEL's kdump): block 0 is struct
 * disk_dump_header, then sub_hdr_size blocks of struct kdump_sub_header
 * (phys_base, the VMCOREINFO text's offset and size, the 64-bit page
 * count in version 6), then bitmap_blocks blocks of two bitmaps of equal
 * size (the first: the pages that exist; the second: the pages that were
 * dumped), then one 24-byte page descriptor per dumped page in page frame
 * order (offset, size, flags, page_flags), then the pages: compressed
 * with zlib, lzo, snappy or zstd as the descriptor's flags say, or stored
 * whole when its size is the block size and no flag is set.  Zero pages
 * are dumped, as a descriptor pointing at one shared zero page; a page
 * whose bit in the second bitmap is clear was filtered out (makedumpfile
 * -d): reading it is an error, never zeros.  (makedumpfile's
 * diskdump_mod.h; the fields are x86_64's, little-endian.)
 *
 * The flattened format (makedumpfile -F, what kdump-tools writes into
 * /var/crash/<date>/dump.<date>, and QEMU's kdump-* formats): a 4096-byte
 * header ("makedumpfile", type 1, version 1, big-endian), then records of
 * a big-endian (offset, size) pair and size bytes that belong at that
 * offset of the dump, until an (-1, -1) pair.  makedumpfile -R writes the
 * records out at their offsets; here they are indexed once and the dump
 * is read through the index (a later record wins where two overlap;
 * bytes no record wrote read as zero, as in the file -R makes).  Either
 * format inside: kdump-compressed or ELF.
 *
 * Every number in the file is untrusted: each offset, size and count is
 * checked before use, and nothing is allocated beyond the file's size.
 * The decompressors are the libraries' (zlib, liblzo2, libsnappy's C API,
 * libzstd); each must give exactly one page, or the page is an error.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "taint.h"
#include "vmcore_internal.h"

/* The flattened format */
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

/* kdump-compressed */
#define DD_HEADER	464		/* struct disk_dump_header, x86_64 */
#define DD_SUB_HEADER	104		/* struct kdump_sub_header, version 6 */
#define DD_DESC		24		/* struct page_desc */
#define DD_INFO_MAX	(1u << 20)	/* bytes of VMCOREINFO text */
#define DD_BITMAP_MAX	(UINT64_C(1) << 30)	/* bytes of one bitmap */
#define RANK_BITS	4096		/* bits counted per prefix entry */

#define DD_ZLIB		0x1
#define DD_LZO		0x2
#define DD_SNAPPY	0x4
#define DD_INCOMPLETE	0x8
#define DD_ZSTD		0x20

struct vmcore_dd {
	uint64_t block, max_mapnr, desc_at;
	unsigned char *bitmap;		/* the second bitmap: dumped pages */
	uint64_t bitmap_len;		/* its bytes */
	uint64_t *rank;			/* set bits before each RANK_BITS */
	unsigned int status;
	int dump_level;
	unsigned char *page, *cpage;	/* one page, one compressed page */
	uint64_t cached_pfn;		/* of page[], or UINT64_MAX */
};

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* --- the flattened format ------------------------------------------- */

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
		if (f->n == cap) {
			/* at most raw_size / 17 records: each has a byte */
			struct flat_rec *r = realloc(f->rec, (cap ? cap * 2 : 256) * sizeof(*r));

			if (!r)
				return -ENOMEM;
			f->rec = r;
			cap = cap ? cap * 2 : 256;
		}
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

/* --- kdump-compressed ------------------------------------------------ */

static int dd_read(struct vmcore *vc, uint64_t off, void *buf, size_t len,
		   const char *what)
{
	int ret = vmcore_file_read(vc, off, buf, len);

	return ret == -ENODATA ? vmcore_truncated(vc, what) : ret;
}

int vmcore_dd_open(struct vmcore *vc)
{
	unsigned char h[DD_HEADER], sh[DD_SUB_HEADER];
	uint64_t version, block, sub_blocks, bitmap_blocks, mapnr, bitmap_at,
		 info_at, info_len, words;
	struct vmcore_dd *dd;
	int ret;

	ret = dd_read(vc, 0, h, sizeof(h), "the kdump-compressed header");
	if (ret)
		return ret;
	if (memcmp(h, "KDUMP   ", 8))
		return vmcore_fail(vc, -ENOTSUP,
				   "a diskdump (\"DISKDUMP\") dump: only makedumpfile's kdump-compressed format (\"KDUMP   \") can be read");
	version = vmcore_le(h + 8, 4);
	/* utsname.machine: the fifth of six 65-byte strings from byte 12 */
	if (strncmp((const char *)h + 12 + 4 * 65, "x86_64", 65))
		return vmcore_fail(vc, -ENOTSUP,
				   "a kdump-compressed dump of another machine (\"%.16s\"): only x86_64 dumps can be read",
				   (const char *)h + 12 + 4 * 65);
	block = vmcore_le(h + 428, 4);
	sub_blocks = vmcore_le(h + 432, 4);
	bitmap_blocks = vmcore_le(h + 436, 4);
	if (version < 6)
		return vmcore_fail(vc, -ENOTSUP,
				   "a kdump-compressed dump of header version %llu: only version 6 (makedumpfile 1.5.x and later) can be read",
				   (unsigned long long)version);
	if (block != 4096)
		return vmcore_fail(vc, -EBADMSG,
				   "a kdump-compressed dump with blocks of %llu bytes (x86_64's pages are 4096)",
				   (unsigned long long)block);
	if (!sub_blocks || sub_blocks > vc->file_size / block ||
	    !bitmap_blocks || bitmap_blocks % 2 || bitmap_blocks > vc->file_size / block)
		return vmcore_fail(vc, -EBADMSG,
				   "the kdump-compressed header's sizes do not fit in the file (%llu sub-header blocks, %llu bitmap blocks, %llu bytes)",
				   (unsigned long long)sub_blocks,
				   (unsigned long long)bitmap_blocks,
				   (unsigned long long)vc->file_size);
	ret = dd_read(vc, block, sh, sizeof(sh), "the kdump-compressed sub-header");
	if (ret)
		return ret;
	mapnr = vmcore_le(sh + 96, 8);
	info_at = vmcore_le(sh + 32, 8);
	info_len = vmcore_le(sh + 40, 8);
	bitmap_at = (1 + sub_blocks) * block;
	if (!mapnr || mapnr > bitmap_blocks / 2 * block * 8)
		return vmcore_fail(vc, -EBADMSG,
				   "the kdump-compressed dump has %llu pages but bitmaps for %llu",
				   (unsigned long long)mapnr,
				   (unsigned long long)(bitmap_blocks / 2 * block * 8));
	if (bitmap_blocks / 2 * block > DD_BITMAP_MAX)
		return vmcore_fail(vc, -EBADMSG,
				   "the kdump-compressed dump's bitmap of %llu bytes is larger than %llu",
				   (unsigned long long)(bitmap_blocks / 2 * block),
				   (unsigned long long)DD_BITMAP_MAX);
	if (!info_len || !info_at)
		return vmcore_fail(vc, -EBADMSG,
				   "no VMCOREINFO in the kdump-compressed dump (its sub-header names none)");
	if (info_len > DD_INFO_MAX)
		return vmcore_fail(vc, -EBADMSG,
				   "a VMCOREINFO of %llu bytes (more than %u)",
				   (unsigned long long)info_len, DD_INFO_MAX);
	vc->info = malloc(info_len + 1);
	if (!vc->info)
		return -ENOMEM;
	ret = dd_read(vc, info_at, vc->info, info_len, "VMCOREINFO");
	if (ret)
		return ret;
	vc->info[info_len] = '\0';

	if (lzo_init() != LZO_E_OK)
		return vmcore_fail(vc, -ENOTSUP, "liblzo2 failed to initialise");
	dd = calloc(1, sizeof(*dd));
	if (!dd)
		return -ENOMEM;
	vc->dd = dd;
	dd->block = block;
	dd->max_mapnr = mapnr;
	dd->status = (unsigned int)vmcore_le(h + 424, 4);
	dd->dump_level = (int)vmcore_le(sh + 8, 4);
	dd->desc_at = bitmap_at + bitmap_blocks * block;
	dd->cached_pfn = UINT64_MAX;
	/* only the bits of the pages there are */
	dd->bitmap_len = (mapnr + 7) / 8;
	dd->bitmap = malloc(dd->bitmap_len);
	words = (mapnr + RANK_BITS - 1) / RANK_BITS;
	dd->rank = malloc(words * sizeof(*dd->rank));
	dd->page = malloc(block);
	dd->cpage = malloc(block);
	if (!dd->bitmap || !dd->rank || !dd->page || !dd->cpage)
		return -ENOMEM;
	ret = dd_read(vc, bitmap_at + bitmap_blocks / 2 * block, dd->bitmap,
		      dd->bitmap_len, "the bitmap of dumped pages");
	if (ret)
		return ret;
	for (uint64_t w = 0, n = 0; w < words; w++) {
		uint64_t from = w * (RANK_BITS / 8), to = from + RANK_BITS / 8;

		dd->rank[w] = n;
		if (to > dd->bitmap_len)
			to = dd->bitmap_len;
		for (uint64_t b = from; b < to; b++)
			n += (uint64_t)__builtin_popcount(dd->bitmap[b]);
	}
	return 0;
}

void vmcore_dd_close(struct vmcore *vc)
{
	if (vc->dd) {
		free(vc->dd->bitmap);
		free(vc->dd->rank);
		free(vc->dd->page);
		free(vc->dd->cpage);
		free(vc->dd);
		vc->dd = NULL;
	}
	if (vc->flat) {
		free(vc->flat->rec);
		free(vc->flat->piece);
		free(vc->flat);
		vc->flat = NULL;
	}
}

static bool dumped(const struct vmcore_dd *dd, uint64_t pfn)
{
	return dd->bitmap[pfn / 8] >> (pfn % 8) & 1;
}

/* The index of @pfn's descriptor: the dumped pages before it. */
static uint64_t desc_index(const struct vmcore_dd *dd, uint64_t pfn)
{
	uint64_t n = dd->rank[pfn / RANK_BITS];

	for (uint64_t b = pfn / RANK_BITS * (RANK_BITS / 8); b < pfn / 8; b++)
		n += (uint64_t)__builtin_popcount(dd->bitmap[b]);
	return n + (uint64_t)__builtin_popcount(dd->bitmap[pfn / 8] & ((1u << (pfn % 8)) - 1));
}

/*
 * dd->cpage's @size bytes of snappy (makedumpfile -p) into dd->page:
 * nonzero unless they are one whole page.  The length the stream states
 * is checked first, as crash does, and what snappy_uncompress() wrote
 * after it: a shorter stream decompresses without complaint and would
 * leave the rest of the page stale.
 */
static int dd_snappy(struct vmcore_dd *dd, uint64_t size)
{
	size_t len, out = (size_t)dd->block;

	if (snappy_uncompressed_length((const char *)dd->cpage, (size_t)size,
				       &len) != SNAPPY_OK || len != dd->block)
		return -1;
	if (snappy_uncompress((const char *)dd->cpage, (size_t)size,
			      (char *)dd->page, &out) != SNAPPY_OK ||
	    out != dd->block)
		return -1;
	return 0;
}

/* Page @pfn into dd->page. */
static int dd_page(struct vmcore *vc, uint64_t pfn)
{
	struct vmcore_dd *dd = vc->dd;
	unsigned char d[DD_DESC];
	uint64_t at, size, flags;
	char what[96];
	int ret;

	if (dd->cached_pfn == pfn)
		return 0;
	if (pfn >= dd->max_mapnr)
		return -EFAULT;
	if (!dumped(dd, pfn))
		return vmcore_fail(vc, -EBADMSG,
				   "page 0x%llx of physical memory was filtered out of the dump (makedumpfile's dump level %d): the taint log cannot be read from it",
				   (unsigned long long)pfn, dd->dump_level);
	snprintf(what, sizeof(what), "the descriptor of page 0x%llx", (unsigned long long)pfn);
	ret = dd_read(vc, dd->desc_at + desc_index(dd, pfn) * DD_DESC, d, sizeof(d), what);
	if (ret)
		return ret;
	at = vmcore_le(d, 8);
	size = vmcore_le(d + 8, 4);
	flags = vmcore_le(d + 12, 4);
	snprintf(what, sizeof(what), "page 0x%llx", (unsigned long long)pfn);
	if (!size || size > dd->block)
		return vmcore_fail(vc, -EBADMSG,
				   "page 0x%llx: a descriptor of %llu bytes (pages are %llu)",
				   (unsigned long long)pfn, (unsigned long long)size,
				   (unsigned long long)dd->block);
	if (!(flags & (DD_ZLIB | DD_LZO | DD_SNAPPY | DD_ZSTD))) {
		if (size != dd->block)
			return vmcore_fail(vc, -EBADMSG,
					   "page 0x%llx: stored uncompressed in %llu bytes (pages are %llu)",
					   (unsigned long long)pfn, (unsigned long long)size,
					   (unsigned long long)dd->block);
		ret = dd_read(vc, at, dd->page, dd->block, what);
		if (ret)
			return ret;
		dd->cached_pfn = pfn;
		return 0;
	}
	ret = dd_read(vc, at, dd->cpage, size, what);
	if (ret)
		return ret;
	dd->cached_pfn = UINT64_MAX;
	if (flags & DD_ZLIB) {
		uLongf out = (uLongf)dd->block;

		if (uncompress(dd->page, &out, dd->cpage, (uLong)size) != Z_OK ||
		    out != dd->block)
			return vmcore_fail(vc, -EBADMSG,
					   "page 0x%llx: not a zlib-compressed page of %llu bytes",
					   (unsigned long long)pfn, (unsigned long long)dd->block);
	} else if (flags & DD_LZO) {
		lzo_uint out = (lzo_uint)dd->block;

		if (lzo1x_decompress_safe(dd->cpage, (lzo_uint)size, dd->page, &out, NULL) != LZO_E_OK ||
		    out != dd->block)
			return vmcore_fail(vc, -EBADMSG,
					   "page 0x%llx: not an lzo-compressed page of %llu bytes",
					   (unsigned long long)pfn, (unsigned long long)dd->block);
	} else if (flags & DD_ZSTD) {
		size_t out = ZSTD_decompress(dd->page, dd->block, dd->cpage, size);

		if (ZSTD_isError(out) || out != dd->block)
			return vmcore_fail(vc, -EBADMSG,
					   "page 0x%llx: not a zstd-compressed page of %llu bytes",
					   (unsigned long long)pfn, (unsigned long long)dd->block);
	} else if (dd_snappy(dd, size)) {
		return vmcore_fail(vc, -EBADMSG,
				   "page 0x%llx: not a snappy-compressed page of %llu bytes",
				   (unsigned long long)pfn, (unsigned long long)dd->block);
	}
	dd->cached_pfn = pfn;
	return 0;
}

int vmcore_dd_phys_read(struct vmcore *vc, uint64_t pa, unsigned char *buf,
			size_t len, size_t *done)
{
	struct vmcore_dd *dd = vc->dd;

	*done = 0;
	while (*done < len) {
		uint64_t in = pa % dd->block, n = dd->block - in;
		int ret = dd_page(vc, pa / dd->block);

		if (ret)
			return ret;
		if (n > len - *done)
			n = len - *done;
		memcpy(buf + *done, dd->page + in, n);
		*done += n;
		pa += n;
	}
	return 0;
}
