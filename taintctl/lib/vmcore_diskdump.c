// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vmcore_diskdump.c - the dump makedumpfile writes besides ELF, its
 * kdump-compressed format ("KDUMP   ", makedumpfile -c/-l/-p/-z, the
 * default of Debian's kdump-tools and RHEL's kdump; in a file of its own
 * or in a flattened one, vmcore_flat.c): block 0 is struct
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

int vmcore_dd_open(struct vmcore *vc)
{
	unsigned char h[DD_HEADER], sh[DD_SUB_HEADER];
	uint64_t version, block, sub_blocks, bitmap_blocks, mapnr, bitmap_at,
		 info_at, info_len, words;
	struct vmcore_dd *dd;
	int ret;

	ret = vmcore_must_read(vc, 0, h, sizeof(h),
			       "the kdump-compressed header");
	if (ret)
		return ret;
	if (memcmp(h, "KDUMP   ", 8))
		return vmcore_fail(vc, -ENOTSUP,
				   "a diskdump (\"DISKDUMP\") dump: only makedumpfile's kdump-compressed format (\"KDUMP   \") can be read");
	version = vmcore_le(h + 8, 4);
	/* utsname.machine: the fifth of six 65-byte strings from byte 12 */
	if (strncmp((const char *)h + 12 + 4 * 65, "x86_64", 65)) {
		/* the dump's bytes: a message stays one printable line */
		char machine[17];
		size_t i;

		for (i = 0; i < 16 && h[12 + 4 * 65 + i]; i++) {
			unsigned char b = h[12 + 4 * 65 + i];

			machine[i] = b < 0x20 || b >= 0x7f || b == '"' ?
				     '?' : (char)b;
		}
		machine[i] = '\0';
		return vmcore_fail(vc, -ENOTSUP,
				   "a kdump-compressed dump of another machine (\"%s\"): only x86_64 dumps can be read",
				   machine);
	}
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
	ret = vmcore_must_read(vc, block, sh, sizeof(sh),
			       "the kdump-compressed sub-header");
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
	ret = vmcore_must_read(vc, info_at, vc->info, info_len, "VMCOREINFO");
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
	ret = vmcore_must_read(vc, bitmap_at + bitmap_blocks / 2 * block,
			       dd->bitmap, dd->bitmap_len,
			       "the bitmap of dumped pages");
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
				   "page 0x%llx of physical memory was filtered out of the dump (makedumpfile's dump level %d): what the reader needs is on it",
				   (unsigned long long)pfn, dd->dump_level);
	snprintf(what, sizeof(what), "the descriptor of page 0x%llx", (unsigned long long)pfn);
	ret = vmcore_must_read(vc, dd->desc_at + desc_index(dd, pfn) * DD_DESC,
			       d, sizeof(d), what);
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
		ret = vmcore_must_read(vc, at, dd->page, dd->block, what);
		if (ret)
			return ret;
		dd->cached_pfn = pfn;
		return 0;
	}
	ret = vmcore_must_read(vc, at, dd->cpage, size, what);
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
