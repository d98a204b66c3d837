// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_vmcore_diskdump.c - taint_vmcore_read_log() on makedumpfile's
 * formats, written here from the synthetic ELF cores of vmcore_fixture.h
 * the way makedumpfile writes them (its diskdump_mod.h and
 * write_kdump_header(), write_buffer() in flattened mode), not with
 * libtaint: the kdump-compressed format with pages stored whole or
 * compressed with zlib, lzo, snappy or zstd, zero pages sharing one stored
 * page,
 * and the flattened format (records out of order, a later record
 * rewriting an earlier one, as makedumpfile rewrites its header).  Each
 * must give the ELF core's text, byte for byte.  Then the bad ones: the
 * log's page filtered out, truncations, a damaged page, the wrong
 * compression, a snappy page of another length, a huge bitmap, an old
 * header, a flattened file
 * without its end; and a fuzz test of deterministic mutations (in
 * process, under ASan/UBSan, time-bounded), each read whole or refused
 * with one of the bad-dump errors.  And a stock kernel's dump
 * (status_fixture.h) in each format: taint_vmcore_read_status() must give
 * the ELF core's mask and modules, and a module's page filtered out is
 * an error naming it.  The real dumps are scenario-kdump's.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "test_util.h"
#include "vmcore_fixture.h"
#include "vmcore_memfd.h"
#include "status_fixture.h"

#define PAGE 4096u
#define FUZZ_ROUNDS 3000

enum comp { RAW, ZLIB = 0x1, LZO = 0x2, SNAPPY = 0x4, ZSTD = 0x20 };


/* --- the ELF core's memory, as the writer needs it ------------------- */

struct mem {
	const unsigned char *elf;
	uint64_t maxpa;
	struct { uint64_t pa, filesz, memsz, off; } seg[8];
	unsigned int nseg;
	const unsigned char *info;
	size_t info_len;
};

static uint64_t le(const unsigned char *p, unsigned int w)
{
	uint64_t v = 0;

	while (w--)
		v = v << 8 | p[w];
	return v;
}

static void mem_of(const unsigned char *elf, struct mem *m)
{
	uint64_t phoff = le(elf + offsetof(Elf64_Ehdr, e_phoff), 8);
	unsigned int phnum = (unsigned int)le(elf + offsetof(Elf64_Ehdr, e_phnum), 2);

	memset(m, 0, sizeof(*m));
	m->elf = elf;
	for (unsigned int i = 0; i < phnum; i++) {
		const unsigned char *ph = elf + phoff + i * sizeof(Elf64_Phdr);
		uint64_t off = le(ph + offsetof(Elf64_Phdr, p_offset), 8);
		uint64_t filesz = le(ph + offsetof(Elf64_Phdr, p_filesz), 8);

		if (le(ph, 4) == PT_LOAD) {
			assert_true(m->nseg < 8);
			m->seg[m->nseg].pa = le(ph + offsetof(Elf64_Phdr, p_paddr), 8);
			m->seg[m->nseg].filesz = filesz;
			m->seg[m->nseg].memsz = le(ph + offsetof(Elf64_Phdr, p_memsz), 8);
			m->seg[m->nseg].off = off;
			if (m->seg[m->nseg].pa + m->seg[m->nseg].memsz > m->maxpa)
				m->maxpa = m->seg[m->nseg].pa + m->seg[m->nseg].memsz;
			m->nseg++;
		} else if (le(ph, 4) == PT_NOTE) {
			/* the notes: find VMCOREINFO's descriptor */
			for (uint64_t i2 = 0; i2 + 12 <= filesz;) {
				const unsigned char *n = elf + off + i2;
				uint64_t namesz = le(n, 4), descsz = le(n + 4, 4);
				uint64_t desc = 12 + ((namesz + 3) & ~3ull);

				if (namesz == 11 && !memcmp(n + 12, "VMCOREINFO", 11)) {
					m->info = n + desc;
					m->info_len = descsz;
				}
				i2 += desc + ((descsz + 3) & ~3ull);
			}
		}
	}
	assert_non_null(m->info);
}

/* page @pfn: 1 if some segment holds it (read into @buf), else 0; a later
 * segment's bytes over an earlier one's, past its file size zeros */
static int mem_page(const struct mem *m, uint64_t pfn, unsigned char *buf)
{
	uint64_t lo = pfn * PAGE, hi = lo + PAGE;
	int there = 0;

	memset(buf, 0, PAGE);
	for (unsigned int i = 0; i < m->nseg; i++) {
		uint64_t s = m->seg[i].pa > lo ? m->seg[i].pa : lo;
		uint64_t e = m->seg[i].pa + m->seg[i].memsz < hi ?
			     m->seg[i].pa + m->seg[i].memsz : hi;
		uint64_t fe = m->seg[i].pa + m->seg[i].filesz < e ?
			      m->seg[i].pa + m->seg[i].filesz : e;

		if (s >= e)
			continue;
		there = 1;
		if (s < fe)
			memcpy(buf + (s - lo), m->elf + m->seg[i].off + (s - m->seg[i].pa),
			       fe - s);
	}
	return there;
}

/* --- the kdump-compressed writer -------------------------------------- */

struct out {
	unsigned char *p;
	size_t len, cap;
};

/*
 * @n bytes of @data at @at, the gap from the end zeroed.  The buffer grows
 * by doubling: a flattened dump is written a 16-byte record header at a
 * time, and growing by exactly what each write needs copies the whole
 * dump on every write wherever realloc() moves the block (ASan's always
 * does): quadratic, minutes and gigabytes for the one-byte records.
 */
static void put_at(struct out *o, size_t at, const void *data, size_t n)
{
	if (at + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;

		while (cap < at + n)
			cap *= 2;
		o->p = realloc(o->p, cap);
		assert_non_null(o->p);
		o->cap = cap;
	}
	if (at + n > o->len) {
		memset(o->p + o->len, 0, at + n - o->len);
		o->len = at + n;
	}
	memcpy(o->p + at, data, n);
}

static void put_le(struct out *o, size_t at, uint64_t v, unsigned int w)
{
	unsigned char b[8];

	fx_le(b, v, w);
	put_at(o, at, b, w);
}

/* the page compressed with @comp, or 0 if it is not smaller (stored whole) */
static size_t compress_page(enum comp comp, const unsigned char *page,
			    unsigned char *out, size_t cap)
{
	static unsigned char wrk[LZO1X_1_MEM_COMPRESS];
	uLongf zn = cap;
	lzo_uint ln = cap;
	size_t n = 0;

	switch (comp) {
	case ZLIB:
		assert_int_equal(compress2(out, &zn, page, PAGE, 1), Z_OK);
		n = zn;
		break;
	case LZO:
		assert_int_equal(lzo1x_1_compress(page, PAGE, out, &ln, wrk), LZO_E_OK);
		n = ln;
		break;
	case ZSTD:
		n = ZSTD_compress(out, cap, page, PAGE, 1);
		assert_false(ZSTD_isError(n));
		break;
	case SNAPPY:
		n = cap;
		assert_true(snappy_max_compressed_length(PAGE) <= cap);
		assert_int_equal(snappy_compress((const char *)page, PAGE, (char *)out, &n),
				 SNAPPY_OK);
		break;
	default:
		return 0;
	}
	return n < PAGE ? n : 0;
}

/*
 * kdump-compressed, header version 6, from the ELF core @elf: the pages
 * of its segments, those of @exclude (a pfn, or UINT64_MAX) left out as
 * makedumpfile -d leaves pages out.  Layout, in blocks of PAGE: header,
 * sub-header (+ VMCOREINFO), bitmap 1, bitmap 2, descriptors, pages.
 */
struct kd {
	struct out o;
	uint64_t mapnr, bitmap_at, bitmap_blocks, desc_at, log_pfn;
	size_t sub_blocks;
};

static void kd_build(const unsigned char *elf, enum comp comp, uint64_t exclude,
		     struct kd *k)
{
	struct mem m;
	unsigned char page[PAGE], cpage[2 * PAGE];
	uint64_t ndumped = 0, data_at, zero_at = 0, d = 0;
	size_t half;

	mem_of(elf, &m);
	memset(k, 0, sizeof(*k));
	k->mapnr = (m.maxpa + PAGE - 1) / PAGE;
	k->sub_blocks = (104 + m.info_len + PAGE - 1) / PAGE;
	half = (k->mapnr / 8 + PAGE - 1) / PAGE;
	k->bitmap_blocks = 2 * half;
	k->bitmap_at = (1 + k->sub_blocks) * PAGE;
	k->desc_at = k->bitmap_at + k->bitmap_blocks * PAGE;
	put_at(&k->o, k->desc_at - 1, "", 1);	/* the headers and bitmaps, zeros */
	put_at(&k->o, 0, "KDUMP   ", 8);
	put_le(&k->o, 8, 6, 4);
	put_at(&k->o, 12, "Linux", 5);
	put_at(&k->o, 12 + 4 * 65, "x86_64", 6);
	put_le(&k->o, 424, comp, 4);
	put_le(&k->o, 428, PAGE, 4);
	put_le(&k->o, 432, k->sub_blocks, 4);
	put_le(&k->o, 436, k->bitmap_blocks, 4);
	put_le(&k->o, 440, k->mapnr, 4);
	put_le(&k->o, 460, 1, 4);
	/* sub-header: phys_base, dump_level, VMCOREINFO, max_mapnr_64 */
	put_le(&k->o, PAGE + 8, 31, 4);
	put_le(&k->o, PAGE + 32, PAGE + 104, 8);
	put_le(&k->o, PAGE + 40, m.info_len, 8);
	put_le(&k->o, PAGE + 96, k->mapnr, 8);
	put_at(&k->o, PAGE + 104, m.info, m.info_len);
	for (uint64_t pfn = 0; pfn < k->mapnr; pfn++) {
		if (!mem_page(&m, pfn, page))
			continue;
		k->o.p[k->bitmap_at + pfn / 8] |= (unsigned char)(1u << (pfn % 8));
		if (pfn == exclude)
			continue;
		k->o.p[k->bitmap_at + half * PAGE + pfn / 8] |= (unsigned char)(1u << (pfn % 8));
		ndumped++;
	}
	data_at = k->desc_at + ndumped * 24;
	for (uint64_t pfn = 0; pfn < k->mapnr; pfn++) {
		static const unsigned char zero[PAGE];
		size_t n;

		if (!(k->o.p[k->bitmap_at + half * PAGE + pfn / 8] >> (pfn % 8) & 1))
			continue;
		mem_page(&m, pfn, page);
		if (!memcmp(page, zero, PAGE) && zero_at) {
			/* a zero page: the one stored already */
			put_le(&k->o, k->desc_at + d * 24, zero_at, 8);
			put_le(&k->o, k->desc_at + d * 24 + 8, PAGE, 4);
			d++;
			continue;
		}
		n = compress_page(comp, page, cpage, sizeof(cpage));
		put_le(&k->o, k->desc_at + d * 24, data_at, 8);
		put_le(&k->o, k->desc_at + d * 24 + 8, n ? n : PAGE, 4);
		put_le(&k->o, k->desc_at + d * 24 + 12, n ? comp : 0, 4);
		put_at(&k->o, data_at, n ? cpage : page, n ? n : PAGE);
		if (!memcmp(page, zero, PAGE))
			zero_at = data_at;
		data_at += n ? n : PAGE;
		d++;
	}
}

/* the flattened file of @in: records of @chunk bytes, the odd ones after
 * the even ones, and the header written again at the end over a first
 * version of zeros (as makedumpfile writes its header last) */
static void flatten(const struct out *in, size_t chunk, struct out *f)
{
	size_t at = 4096;
	unsigned char h[16];

	memset(f, 0, sizeof(*f));
	put_at(f, 4095, "", 1);
	put_at(f, 0, "makedumpfile", 12);
	for (int i = 0; i < 8; i++) {
		f->p[16 + i] = i == 7;	/* type 1, big-endian */
		f->p[24 + i] = i == 7;	/* version 1 */
	}
#define RECORD(off, n, data) do {				\
		for (int b_ = 0; b_ < 8; b_++) {			\
			h[b_] = (unsigned char)((uint64_t)(off) >> (56 - 8 * b_)); \
			h[8 + b_] = (unsigned char)((uint64_t)(n) >> (56 - 8 * b_)); \
		}							\
		put_at(f, at, h, 16);					\
		put_at(f, at + 16, (data), (n));			\
		at += 16 + (n);						\
	} while (0)
	{
		static const unsigned char zeros[512];

		RECORD(0, sizeof(zeros), zeros);
	}
	for (int odd = 0; odd < 2; odd++)
		for (size_t o = (size_t)odd * chunk; o < in->len; o += 2 * chunk) {
			size_t n = in->len - o < chunk ? in->len - o : chunk;

			RECORD(o, n, in->p + o);
		}
	RECORD(0, 512, in->p);
	memset(h, 0xff, 16);
	put_at(f, at, h, 16);
#undef RECORD
}

/*
 * VMCORE_SEED_DIR=DIR: each dump read here, good or bad, also written to
 * DIR as a seed of the vmcore fuzz target (fuzz/seed.sh): kdump-compressed
 * and flattened, truncated, damaged pages, wrong compression, a huge
 * bitmap.  Those longer than the target's inputs (FUZZ_MAX_LEN) are left
 * out: libFuzzer would cut them.
 */
#define FUZZ_MAX_LEN 131072
static void seed_out(const struct out *o, const char *what)
{
	const char *dir = getenv("VMCORE_SEED_DIR");
	char path[512];
	size_t n;
	FILE *f;

	if (!dir || o->len > FUZZ_MAX_LEN)
		return;
	n = (size_t)snprintf(path, sizeof(path), "%s/kdump-", dir);
	for (const char *w = what; *w && n + 1 < sizeof(path); w++)
		if (isalnum((unsigned char)*w))
			path[n++] = *w;
		else if (path[n - 1] != '-')
			path[n++] = '-';
	path[n] = '\0';
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(o->p, 1, o->len, f), o->len);
	assert_int_equal(fclose(f), 0);
}

static char *elf_text(const struct fx_spec *s, unsigned char **elf, size_t *len)
{
	char why[WHY], *text = NULL;

	*elf = fx_build(s, len);
	if (read_bytes(*elf, *len, &text, why))
		fail_msg("the ELF core: %s", why);
	return text;
}

static void expect_text(const struct out *o, const char *want, const char *what)
{
	char why[WHY], *text = NULL;
	int ret = read_bytes(o->p, o->len, &text, why);

	seed_out(o, what);
	if (ret)
		fail_msg("%s: %d: %s", what, ret, why);
	if (strcmp(text, want))
		fail_msg("%s: text differs:\n%s\n-- want --\n%s", what, text, want);
	free(text);
}

/* The CPU time of the fastest of 3 reads of @o, whose text is @want. */
static double cpu_read(const struct out *o, const char *want, const char *what)
{
	double best = 0;

	for (int i = 0; i < 3; i++) {
		struct timespec t0, t1;
		double t;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		expect_text(o, want, what);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		t = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (!i || t < best)
			best = t;
	}
	return best;
}

static void expect_bad(const struct out *o, int err, const char *part,
		       const char *what)
{
	char why[WHY], *text = NULL;
	int ret = read_bytes(o->p, o->len, &text, why);

	seed_out(o, what);
	if (ret != err || !strstr(why, part))
		fail_msg("%s: %d '%s', expected %d and '%s' in it", what, ret,
			 why, err, part);
	assert_null(strchr(why, '\n'));
}

/* every compression, plain and flattened, two layouts: the ELF's text */
static void test_formats(void **state)
{
	static const enum comp comps[] = { RAW, ZLIB, LZO, ZSTD, SNAPPY };
	struct fx_spec linux_ = fx_main;
	const struct fx_spec *specs[] = { &fx_main, &linux_ };

	(void)state;
	linux_.layout = &fx_linux;
	linux_.relative = true;
	linux_.phys_base = -0x1000000;
	for (size_t s = 0; s < 2; s++) {
		unsigned char *elf;
		size_t len;
		char *want = elf_text(specs[s], &elf, &len), what[64];
		struct out f;

		assert_non_null(strstr(want, "caller="));
		for (size_t c = 0; c < sizeof(comps) / sizeof(comps[0]); c++) {
			struct kd k;

			kd_build(elf, comps[c], UINT64_MAX, &k);
			snprintf(what, sizeof(what), "spec %zu, compression 0x%x", s, comps[c]);
			expect_text(&k.o, want, what);
			flatten(&k.o, 1000, &f);
			strcat(what, ", flattened");
			expect_text(&f, want, what);
			free(f.p);
			free(k.o.p);
		}
		/*
		 * one-byte records: the same text, read in a time linear in
		 * the records (a walk of the records for each one read took
		 * 3 s, not 0.07: quadratic).  Compared with a time of the same
		 * run, not with seconds, which a loaded machine stretches: 4
		 * times as many records as 4-byte ones take about 4 times as
		 * long (16 if quadratic); 8 is the bound.  CPU times, the
		 * fastest of 3 reads each.
		 */
		{
			struct kd k;
			struct out f4;
			double t1, t4;

			kd_build(elf, ZLIB, UINT64_MAX, &k);
			flatten(&k.o, 1, &f);
			flatten(&k.o, 4, &f4);
			t1 = cpu_read(&f, want, "flattened, one-byte records");
			t4 = cpu_read(&f4, want, "flattened, 4-byte records");
			print_message("# %zu bytes read in one-byte records in %.3f s of CPU time, in 4-byte records in %.3f s: %.1f times as long\n",
				      k.o.len, t1, t4, t1 / t4);
			if (t1 > 8 * t4)
				fail_msg("one-byte records took %.1f times as long as 4-byte ones, 4 times fewer (linear: about 4; quadratic: 16)",
					 t1 / t4);
			free(f.p);
			free(f4.p);
			free(k.o.p);
		}
		/* makedumpfile -E -F: an ELF core in a flattened file */
		flatten(&(struct out){ .p = elf, .len = len }, 777, &f);
		expect_text(&f, want, "ELF, flattened");
		free(f.p);
		free(elf);
		free(want);
	}
}

/* the pfn of the taint log in fx_main's dump */
static uint64_t log_pfn(const struct fx_spec *s)
{
	return (FX_DATA + s->kaslr + FX_LOG - FX_MAP + (uint64_t)s->phys_base) / PAGE;
}

static void test_bad(void **state)
{
	unsigned char *elf;
	size_t len;
	char *want = elf_text(&fx_main, &elf, &len);
	struct kd k;
	struct out f, c;

	(void)state;
	/* the log's page filtered out: an error that says so, never zeros */
	kd_build(elf, ZLIB, log_pfn(&fx_main), &k);
	expect_bad(&k.o, -EBADMSG, "filtered out of the dump (makedumpfile's dump level 31)", "filtered");
	flatten(&k.o, 4096, &f);
	expect_bad(&f, -EBADMSG, "filtered out", "filtered, flattened");
	free(f.p);
	free(k.o.p);

	kd_build(elf, ZLIB, UINT64_MAX, &k);
	/* truncated: in the header, the sub-header, VMCOREINFO, the
	 * bitmaps, the descriptors, the pages */
	{
		const size_t cuts[] = { 0, 7, 100, PAGE + 50, PAGE + 200,
					k.bitmap_at + 10, k.desc_at + 5,
					k.desc_at + 30, k.o.len - 1 };

		for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
			char what[32];
			struct out t = { .p = k.o.p, .len = cuts[i] };

			snprintf(what, sizeof(what), "cut at %zu", cuts[i]);
			/* before the bitmaps: the sizes do not fit, or truncated */
			expect_bad(&t, -EBADMSG, i < 6 ? "" : "truncated", what);
			/* the same in a flattened file: no record holds the
			 * rest, which is not zeros (a read past the records'
			 * end is no read) */
			if (i < 6)
				continue;
			flatten(&t, 1000, &f);
			strcat(what, ", flattened");
			expect_bad(&f, -EBADMSG, "truncated", what);
			free(f.p);
		}
	}
	c.len = k.o.len;
	c.p = malloc(c.len);
	/* every stored page damaged: the first page read fails to inflate */
	memcpy(c.p, k.o.p, c.len);
	for (size_t i = k.desc_at + le(k.o.p + 436, 4) * 0; i < c.len; i++)
		if (i >= k.desc_at + 24 * 8)
			c.p[i] ^= 0x55;
	expect_bad(&c, -EBADMSG, "not a zlib-compressed page", "damaged pages");
	/* the header says lzo, each page's flags too, the pages are zlib's */
	memcpy(c.p, k.o.p, c.len);
	for (uint64_t d = 0; k.desc_at + d * 24 + 24 <= c.len &&
	     le(c.p + k.desc_at + d * 24 + 8, 4); d++)
		if (le(c.p + k.desc_at + d * 24 + 12, 4) == ZLIB)
			fx_le(c.p + k.desc_at + d * 24 + 12, LZO, 4);
	expect_bad(&c, -EBADMSG, "not an lzo-compressed page", "zlib pages flagged lzo");
	/* the pages are zlib's, their flags say snappy */
	memcpy(c.p, k.o.p, c.len);
	for (uint64_t d = 0; k.desc_at + d * 24 + 24 <= c.len &&
	     le(c.p + k.desc_at + d * 24 + 8, 4); d++)
		if (le(c.p + k.desc_at + d * 24 + 12, 4) == ZLIB)
			fx_le(c.p + k.desc_at + d * 24 + 12, SNAPPY, 4);
	expect_bad(&c, -EBADMSG, "not a snappy-compressed page", "zlib pages flagged snappy");
	/* a descriptor longer than a page */
	memcpy(c.p, k.o.p, c.len);
	fx_le(c.p + k.desc_at + 8, PAGE + 1, 4);
	fx_le(c.p + k.desc_at + 8 + 24, PAGE + 1, 4);
	{
		char *text = NULL, why[WHY];
		int ret = read_bytes(c.p, c.len, &text, why);

		/* the first two pages are not the log's: read or refused */
		assert_true(ret == 0 || ret == -EBADMSG);
		free(text);
	}
	/* every descriptor longer than a page: the first page read is
	 * refused, before a byte of it is read */
	memcpy(c.p, k.o.p, c.len);
	for (uint64_t d = 0; k.desc_at + d * 24 + 24 <= c.len &&
	     le(c.p + k.desc_at + d * 24 + 8, 4); d++)
		fx_le(c.p + k.desc_at + d * 24 + 8, PAGE + 1, 4);
	expect_bad(&c, -EBADMSG, "a descriptor of 4097 bytes (pages are 4096)",
		   "descriptors longer than a page");
	/* a huge bitmap: more blocks than the file has */
	memcpy(c.p, k.o.p, c.len);
	fx_le(c.p + 436, 0xfffffffe, 4);
	expect_bad(&c, -EBADMSG, "do not fit in the file", "huge bitmap");
	/* bitmaps for fewer pages than max_mapnr_64 */
	memcpy(c.p, k.o.p, c.len);
	fx_le(c.p + PAGE + 96, UINT64_C(1) << 40, 8);
	expect_bad(&c, -EBADMSG, "but bitmaps for", "max_mapnr past the bitmap");
	/* an old header, another block size, another machine, DISKDUMP */
	memcpy(c.p, k.o.p, c.len);
	fx_le(c.p + 8, 5, 4);
	expect_bad(&c, -ENOTSUP, "header version 5", "version 5");
	memcpy(c.p, k.o.p, c.len);
	fx_le(c.p + 428, 8192, 4);
	expect_bad(&c, -EBADMSG, "blocks of 8192 bytes", "block size");
	memcpy(c.p, k.o.p, c.len);
	memcpy(c.p + 12 + 4 * 65, "s390x\0", 6);
	expect_bad(&c, -ENOTSUP, "another machine (\"s390x\")", "s390x");
	memcpy(c.p, k.o.p, c.len);
	memcpy(c.p, "DISKDUMP", 8);
	expect_bad(&c, -ENOTSUP, "DISKDUMP", "diskdump");
	/* no VMCOREINFO */
	memcpy(c.p, k.o.p, c.len);
	fx_le(c.p + PAGE + 40, 0, 8);
	expect_bad(&c, -EBADMSG, "no VMCOREINFO", "no VMCOREINFO");
	free(c.p);

	/* flattened: cut before its end marker, a bad record, a wrong type */
	flatten(&k.o, 1000, &f);
	{
		struct out t = { .p = f.p, .len = f.len - 16 };

		expect_bad(&t, -EBADMSG, "before its end marker", "flattened, no end");
		t.len = f.len - 100;
		expect_bad(&t, -EBADMSG, "truncated", "flattened, cut in a record");
	}
	f.p[4096 + 8] = 0x80;	/* the first record's size, negative */
	expect_bad(&f, -EBADMSG, "is not valid", "flattened, bad record");
	f.p[4096 + 8] = 0;
	f.p[23] = 2;
	expect_bad(&f, -EBADMSG, "of unknown type 2", "flattened, type 2");
	free(f.p);
	free(k.o.p);
	free(elf);
	free(want);
}

/* @k's snappy pages all pointed at @len bytes of snappy appended to it */
static void snappy_pages_of(const struct kd *k, const unsigned char *z,
			    size_t len, struct out *c)
{
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	put_at(c, 0, k->o.p, k->o.len);
	put_at(c, k->o.len, z, len);
	for (uint64_t d = 0; k->desc_at + d * 24 + 24 <= k->o.len &&
	     le(c->p + k->desc_at + d * 24 + 8, 4); d++)
		if (le(c->p + k->desc_at + d * 24 + 12, 4) == SNAPPY) {
			put_le(c, k->desc_at + d * 24, k->o.len, 8);
			put_le(c, k->desc_at + d * 24 + 8, len, 4);
			n++;
		}
	assert_true(n > 0);
}

/*
 * snappy pages (makedumpfile -p) that are not one page: damaged, or a
 * valid stream of a page less or more a byte, each an error naming the
 * page as a damaged zlib page is (-EBADMSG), never a log read from it
 */
static void test_snappy_bad(void **state)
{
	static const unsigned char zero[PAGE + 1];
	unsigned char *elf, z[2 * PAGE];
	size_t len, n;
	char *want = elf_text(&fx_main, &elf, &len), what[48];
	struct kd k;
	struct out c, f;

	(void)state;
	kd_build(elf, SNAPPY, UINT64_MAX, &k);
	expect_text(&k.o, want, "snappy");
	/* every stored page damaged */
	c.len = k.o.len;
	c.p = malloc(c.len);
	memcpy(c.p, k.o.p, c.len);
	for (size_t i = k.desc_at + 24 * 8; i < c.len; i++)
		c.p[i] ^= 0x55;
	expect_bad(&c, -EBADMSG, "not a snappy-compressed page of 4096 bytes",
		   "damaged snappy pages");
	/* each page cut short by a byte: its stream ends early */
	memcpy(c.p, k.o.p, c.len);
	for (uint64_t d = 0; k.desc_at + d * 24 + 24 <= c.len &&
	     le(c.p + k.desc_at + d * 24 + 8, 4); d++)
		if (le(c.p + k.desc_at + d * 24 + 12, 4) == SNAPPY)
			fx_le(c.p + k.desc_at + d * 24 + 8,
			      le(c.p + k.desc_at + d * 24 + 8, 4) - 1, 4);
	expect_bad(&c, -EBADMSG, "not a snappy-compressed page", "snappy pages cut short");
	free(c.p);
	/* whole snappy streams of PAGE - 1 and PAGE + 1 bytes */
	for (int more = 0; more < 2; more++) {
		n = sizeof(z);
		assert_int_equal(snappy_compress((const char *)zero, PAGE - 1 + 2u * (unsigned int)more,
						 (char *)z, &n), SNAPPY_OK);
		snappy_pages_of(&k, z, n, &c);
		snprintf(what, sizeof(what), "snappy pages of %u bytes", PAGE - 1 + 2 * more);
		expect_bad(&c, -EBADMSG, "not a snappy-compressed page of 4096 bytes", what);
		flatten(&c, 1000, &f);
		strcat(what, ", flattened");
		expect_bad(&f, -EBADMSG, "not a snappy-compressed page of 4096 bytes", what);
		free(f.p);
		free(c.p);
	}
	free(k.o.p);
	free(elf);
	free(want);
}

/* deterministic mutations of kdump-compressed and flattened dumps: each
 * read whole (a text that parses) or refused with a bad-dump error */
static void test_fuzz(void **state)
{
	static const enum comp comps[] = { ZLIB, LZO, ZSTD, RAW, SNAPPY };
	enum { NCOMP = sizeof(comps) / sizeof(comps[0]) };
	unsigned int outcome[3] = { 0 };
	unsigned char *elf;
	size_t len;
	char *want = elf_text(&fx_main, &elf, &len);
	struct timespec t0, t1;
	struct kd k[NCOMP];
	struct out f[NCOMP];
	uint32_t x = 20261207;
	double read_secs = 0, secs;

	(void)state;
	for (int c = 0; c < NCOMP; c++) {
		kd_build(elf, comps[c], UINT64_MAX, &k[c]);
		flatten(&k[c].o, 1500, &f[c]);
		read_secs += cpu_read(&k[c].o, want, "fuzz base") +
			cpu_read(&f[c], want, "fuzz base, flattened");
	}
	read_secs /= 2 * NCOMP;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (unsigned int round = 0; round < FUZZ_ROUNDS; round++) {
		const struct out *base = round % 2 ? &f[round / 2 % NCOMP] : &k[round / 2 % NCOMP].o;
		struct out m = { .p = malloc(base->len), .len = base->len };
		char why[WHY], *text = NULL;
		unsigned int edits;
		int ret;

		memcpy(m.p, base->p, m.len);
		x = x * 1103515245u + 12345u;
		edits = 1 + (x >> 16) % 4;
		for (unsigned int e = 0; e < edits; e++) {
			size_t at;

			x = x * 1103515245u + 12345u;
			/* mostly the headers, bitmaps and descriptors */
			at = (x >> 8) % ((x & 1) ? m.len : (m.len < 3 * PAGE + 2048 ? m.len : 3 * PAGE + 2048));
			x = x * 1103515245u + 12345u;
			switch ((x >> 16) % 4) {
			case 0: m.p[at] ^= (unsigned char)(1u << ((x >> 8) % 8)); break;
			case 1: m.p[at] = (unsigned char)(x >> 20); break;
			case 2: memset(m.p + at, 0xff, m.len - at < 8 ? m.len - at : 8); break;
			case 3: m.len = at; break;
			}
		}
		ret = read_bytes(m.p, m.len, &text, why);
		free(m.p);
		if (!ret) {
			for (const char *l = text, *nl; *l; l = nl + 1) {
				struct taint_event ev = TAINT_INIT(struct taint_event);
				const char *bad = NULL;
				uint64_t dropped;

				nl = strchr(l, '\n');
				assert_non_null(nl);
				if (taint_log_parse_line(l, (size_t)(nl - l), &ev, &dropped, &bad) < 0)
					fail_msg("round %u: %.*s: %s", round, (int)(nl - l), l, bad);
			}
			free(text);
			outcome[0]++;
		} else if (ret == -EBADMSG || ret == -ENOTSUP || ret == -ENOENT) {
			assert_true(why[0] != '\0');
			assert_null(strchr(why, '\n'));
			outcome[ret == -EBADMSG ? 1 : 2]++;
		} else {
			fail_msg("round %u: %d (%s)", round, ret, strerror(-ret));
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# fuzz: %u mutated kdump-compressed and flattened dumps in %.2f s of CPU time (%.2f ms each; %.2f ms a read of an unmutated one): %u read, %u -EBADMSG, %u other refusals\n",
	       FUZZ_ROUNDS, secs, secs * 1e3 / FUZZ_ROUNDS, read_secs * 1e3,
	       outcome[0], outcome[1], outcome[2]);
	assert_true(outcome[0] > FUZZ_ROUNDS / 10);
	assert_true(outcome[1] > FUZZ_ROUNDS / 10);
	/*
	 * no mutated dump makes the reader slow: the rounds take at most 10
	 * times as long as as many reads of the unmutated dumps (CPU times of
	 * this run: a bound in seconds fails on a loaded machine instead)
	 */
	if (secs > 10 * FUZZ_ROUNDS * read_secs)
		fail_msg("the mutated dumps took %.1f times as long as reads of the unmutated ones",
			 secs / (FUZZ_ROUNDS * read_secs));
	for (int c = 0; c < NCOMP; c++) {
		free(k[c].o.p);
		free(f[c].p);
	}
	free(elf);
	free(want);
}

/* --- status --vmcore: a stock kernel's dump in every format ------------ */

/* taint_vmcore_read_status() of @o: 0 and the mask and modules of
 * sx_main, or (@err) that error with @part in its reason */
static void expect_status(const struct out *o, int err, const char *part,
			  const char *what)
{
	struct taint_module *mods = NULL;
	char why[WHY];
	uint64_t mask;
	size_t count;
	int fault, ret;

	seed_out(o, what);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_true(pwrite(fd, o->p, o->len, 0) == (ssize_t)o->len);
	ret = taint_vmcore_read_status(fd, &mask, &mods, &count, &fault, why,
				       sizeof(why));
	if (err) {
		if (ret != err || fault != TAINT_VMCORE_UNREADABLE ||
		    !strstr(why, part))
			fail_msg("%s: %d (fault %d) '%s', expected %d and '%s'",
				 what, ret, fault, why, err, part);
		return;
	}
	if (ret)
		fail_msg("%s: %d (fault %d): %s", what, ret, fault, why);
	assert_int_equal(mask, sx_main.mask);
	assert_int_equal(count, 3);
	assert_string_equal(mods[0].name, "nvidia");
	assert_string_equal(mods[0].taint, "POE");
	assert_string_equal(mods[1].name, "ut_taint");
	assert_string_equal(mods[1].taint, "OE");
	assert_string_equal(mods[2].name, "zz_big_page");
	free(mods);
}

static void test_status_formats(void **state)
{
	static const enum comp comps[] = { RAW, ZLIB, LZO, ZSTD, SNAPPY };
	size_t len;
	unsigned char *elf = sx_build(&sx_main, &len);
	struct out e = { .p = elf, .len = len }, f;
	char what[64];
	struct kd k;

	(void)state;
	expect_status(&e, 0, NULL, "status ELF");
	flatten(&e, 777, &f);
	expect_status(&f, 0, NULL, "status ELF, flattened");
	free(f.p);
	for (size_t c = 0; c < sizeof(comps) / sizeof(comps[0]); c++) {
		kd_build(elf, comps[c], UINT64_MAX, &k);
		snprintf(what, sizeof(what), "status, compression 0x%x",
			 comps[c]);
		expect_status(&k.o, 0, NULL, what);
		flatten(&k.o, 1000, &f);
		strcat(what, ", flattened");
		expect_status(&f, 0, NULL, what);
		free(f.p);
		free(k.o.p);
	}
	/* makedumpfile -d 31 left out the page of the first module: said,
	 * never read as zeros (exit 5, as for the log) */
	kd_build(elf, ZLIB, SX_MOD_PA / PAGE, &k);
	expect_status(&k.o, -EBADMSG, "page 0x200 of physical memory was filtered out",
		      "status, module page filtered");
	free(k.o.p);
	/* the page of the BTF */
	kd_build(elf, ZSTD, (SX_IMG_VA + sx_main.kaslr + SX_BTF - SX_MAP) / PAGE,
		 &k);
	expect_status(&k.o, -EBADMSG, "filtered out", "status, BTF page filtered");
	free(k.o.p);
	free(elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_snappy_bad),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_status_formats),
	};

	return cmocka_run_group_tests_name("vmcore_diskdump", tests, setup, teardown);
}
