// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * scan_find.c - the scanner's pass over the bytes: candidates and newlines
 * in one go (see scan_find.h).
 *
 * Every byte of a log is looked at once, 32 (AVX2) or 16 (SSE2) at a time:
 * one compare finds the newlines (counted with popcount), and three loads
 * at offsets 0, 2 and 3 test the marker bytes ('a', 'n', 't' of "aint";
 * 'L', 'n', 'u' of "Linux"; '-', ' ', 'B' or 'R' of "-- Boot"/"-- Reboot").
 * Those three bytes are rare together, so the scalar confirmation runs
 * about once in a few KiB of ordinary log text, and a line without a
 * marker costs nothing but its share of the vector pass.  The AVX2 version
 * is chosen at run time (__builtin_cpu_supports), SSE2 is the x86-64
 * baseline, and other CPUs use portable C (a word-at-a-time newline count
 * and memmem()/memchr()).
 */
#include <string.h>

#include "scan_find.h"

/* Is there a candidate at @p (@avail bytes readable)?  Too short: yes. */
static inline bool confirm(const char *p, size_t avail, bool boots)
{
	if (avail < 4)
		return true;
	if (p[0] == 'a')
		return memcmp(p, "aint", 4) == 0;
	if (!boots)
		return false;
	if (p[0] == 'L')
		return avail < 14 || memcmp(p, "Linux version ", 14) == 0;
	if (p[0] == '-')
		return avail < 8 || memcmp(p, "-- Boot ", 8) == 0 ||
		       memcmp(p, "-- Reboo", 8) == 0;
	return false;
}

uint64_t taint__count_newlines(const char *p, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	uint64_t count = 0;
	size_t i = 0;

	while (n - i >= 8) {
		/* per-byte counters (<= 255 per lane) summed every 248 words */
		uint64_t acc = 0;
		size_t words = (n - i) / 8;

		if (words > 248)
			words = 248;
		for (size_t w = 0; w < words; w++, i += 8) {
			uint64_t v;

			memcpy(&v, p + i, 8);
			v ^= ones * '\n';
			/* high bit of each byte set iff that byte was '\n' */
			v = ~(((v & low7) + low7) | v) & ~low7;
			acc += v >> 7;
		}
		count += (acc * ones) >> 56;
	}
	for (; i < n; i++)
		count += p[i] == '\n';
	return count;
}

/* Portable: memmem() for each marker, then the newlines up to the first. */
static size_t find_c(const char *p, size_t n, size_t avail, bool boots,
		     uint64_t *nl)
{
	static const char *const needles[] = { "aint", "Linux version ",
					       "-- Boot ", "-- Reboo" };
	size_t best = n;

	for (size_t k = 0; k < (boots ? 4u : 1u); k++) {
		size_t len = strlen(needles[k]);
		const char *hit = memmem(p, best + len - 1 < avail ?
					 best + len - 1 : avail,
					 needles[k], len);

		if (hit && (size_t)(hit - p) < best)
			best = (size_t)(hit - p);
	}
	/* the last few positions may be too short for memmem() to see */
	for (size_t i = avail > 13 ? avail - 13 : 0; i < best; i++)
		if ((p[i] == 'a' || (boots && (p[i] == 'L' || p[i] == '-'))) &&
		    confirm(p + i, avail - i, boots)) {
			best = i;
			break;
		}
	*nl = taint__count_newlines(p, best);
	return best;
}

static size_t find_c_events(const char *p, size_t n, size_t avail,
			    uint64_t *nl)
{
	return find_c(p, n, avail, false, nl);
}

static size_t find_c_boots(const char *p, size_t n, size_t avail,
			   uint64_t *nl)
{
	return find_c(p, n, avail, true, nl);
}

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#include <immintrin.h>

/* Byte by byte from @i: the tail of the vector versions. */
static size_t find_tail(const char *p, size_t i, size_t n, size_t avail,
			bool boots, uint64_t *nl)
{
	uint64_t c = 0;

	for (; i < n; i++) {
		char b = p[i];

		if (b == '\n')
			c++;
		else if ((b == 'a' || (boots && (b == 'L' || b == '-'))) &&
			 confirm(p + i, avail - i, boots))
			break;
	}
	*nl += c;
	return i;
}

/*
 * One vector width: W bytes per step, LOAD/CMPEQ/AND/OR/MOVEMASK its
 * intrinsics.  The candidate mask of positions i..i+W-1 needs the bytes
 * up to i+W+2, hence the i + W + 3 <= avail bound; the rest is find_tail().
 */
#define FIND_BODY(W, VEC, LOAD, SET1, CMPEQ, AND, OR, MOVEMASK)		\
	const VEC nlv = SET1('\n'), a = SET1('a'), nn = SET1('n'),	\
		  t = SET1('t'), L = SET1('L'), u = SET1('u'),		\
		  dash = SET1('-'), sp = SET1(' '), B = SET1('B'),	\
		  R = SET1('R');					\
	uint64_t c = 0;							\
	size_t i = 0;							\
									\
	for (; i + (W) <= n && i + (W) + 3 <= avail; i += (W)) {	\
		VEC v0 = LOAD((const void *)(p + i));			\
		VEC v2 = LOAD((const void *)(p + i + 2));		\
		VEC v3 = LOAD((const void *)(p + i + 3));		\
		VEC m = AND(CMPEQ(v0, a), CMPEQ(v3, t));		\
		uint32_t nlm = (uint32_t)MOVEMASK(CMPEQ(v0, nlv));	\
		uint32_t cm;						\
									\
		if (boots) {						\
			m = OR(m, AND(CMPEQ(v0, L), CMPEQ(v3, u)));	\
			m = AND(m, CMPEQ(v2, nn));			\
			m = OR(m, AND(AND(CMPEQ(v0, dash),		\
					  CMPEQ(v2, sp)),		\
				      OR(CMPEQ(v3, B), CMPEQ(v3, R))));	\
		} else {						\
			m = AND(m, CMPEQ(v2, nn));			\
		}							\
		cm = (uint32_t)MOVEMASK(m);				\
		while (cm) {						\
			unsigned int bit = (unsigned int)__builtin_ctz(cm); \
									\
			if (confirm(p + i + bit, avail - i - bit, boots)) { \
				*nl = c + (uint64_t)__builtin_popcount( \
					nlm & ((1u << bit) - 1));	\
				return i + bit;				\
			}						\
			cm &= cm - 1;					\
		}							\
		c += (uint64_t)__builtin_popcount(nlm);			\
	}								\
	*nl = c;							\
	return find_tail(p, i, n, avail, boots, nl)

static inline __attribute__((always_inline))
size_t find_sse2(const char *p, size_t n, size_t avail, bool boots,
		 uint64_t *nl)
{
	FIND_BODY(16, __m128i, _mm_loadu_si128, _mm_set1_epi8, _mm_cmpeq_epi8,
		  _mm_and_si128, _mm_or_si128, _mm_movemask_epi8);
}

static size_t find_sse2_events(const char *p, size_t n, size_t avail,
			       uint64_t *nl)
{
	return find_sse2(p, n, avail, false, nl);
}

static size_t find_sse2_boots(const char *p, size_t n, size_t avail,
			      uint64_t *nl)
{
	return find_sse2(p, n, avail, true, nl);
}

#define AVX2 __attribute__((target("avx2,popcnt")))

/* The candidate mask of the 32 positions at @p (bytes to p[34] read). */
static inline __attribute__((always_inline)) AVX2
uint32_t cand32(const char *p, bool boots)
{
	const __m256i a = _mm256_set1_epi8('a'), nn = _mm256_set1_epi8('n'),
		      t = _mm256_set1_epi8('t'), L = _mm256_set1_epi8('L'),
		      u = _mm256_set1_epi8('u'), dash = _mm256_set1_epi8('-'),
		      sp = _mm256_set1_epi8(' '), B = _mm256_set1_epi8('B'),
		      R = _mm256_set1_epi8('R');
	__m256i v0 = _mm256_loadu_si256((const void *)p);
	__m256i v2 = _mm256_loadu_si256((const void *)(p + 2));
	__m256i v3 = _mm256_loadu_si256((const void *)(p + 3));
	__m256i m = _mm256_and_si256(_mm256_cmpeq_epi8(v0, a),
				     _mm256_cmpeq_epi8(v3, t));

	if (boots) {
		m = _mm256_or_si256(m, _mm256_and_si256(_mm256_cmpeq_epi8(v0, L),
							_mm256_cmpeq_epi8(v3, u)));
		m = _mm256_and_si256(m, _mm256_cmpeq_epi8(v2, nn));
		m = _mm256_or_si256(m, _mm256_and_si256(
			_mm256_and_si256(_mm256_cmpeq_epi8(v0, dash),
					 _mm256_cmpeq_epi8(v2, sp)),
			_mm256_or_si256(_mm256_cmpeq_epi8(v3, B),
					_mm256_cmpeq_epi8(v3, R))));
	} else {
		m = _mm256_and_si256(m, _mm256_cmpeq_epi8(v2, nn));
	}
	return (uint32_t)_mm256_movemask_epi8(m);
}

static inline __attribute__((always_inline)) AVX2
uint32_t nl32(const char *p)
{
	return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
		_mm256_loadu_si256((const void *)p), _mm256_set1_epi8('\n')));
}

/* 64 positions per step: one test and one popcount for both halves. */
static inline __attribute__((always_inline)) AVX2
size_t find_avx2(const char *p, size_t n, size_t avail, bool boots,
		 uint64_t *nl)
{
	uint64_t c = 0;
	size_t i = 0;

	for (; i + 64 <= n && i + 67 <= avail; i += 64) {
		uint64_t cm = cand32(p + i, boots) |
			      (uint64_t)cand32(p + i + 32, boots) << 32;
		uint64_t nlm = nl32(p + i) | (uint64_t)nl32(p + i + 32) << 32;

		while (cm) {
			unsigned int bit = (unsigned int)__builtin_ctzll(cm);

			if (confirm(p + i + bit, avail - i - bit, boots)) {
				*nl = c + (uint64_t)__builtin_popcountll(
					nlm & ((UINT64_C(1) << bit) - 1));
				return i + bit;
			}
			cm &= cm - 1;
		}
		c += (uint64_t)__builtin_popcountll(nlm);
	}
	*nl = c;
	return find_tail(p, i, n, avail, boots, nl);
}

static AVX2 size_t find_avx2_events(const char *p, size_t n, size_t avail,
				    uint64_t *nl)
{
	return find_avx2(p, n, avail, false, nl);
}

static AVX2 size_t find_avx2_boots(const char *p, size_t n, size_t avail,
				   uint64_t *nl)
{
	return find_avx2(p, n, avail, true, nl);
}

static bool have_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("popcnt");
}
#endif

taint__scan_find_fn taint__scan_finder_named(const char *name, bool boots)
{
#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
	if (!strcmp(name, "avx2"))
		return !have_avx2() ? NULL :
		       boots ? find_avx2_boots : find_avx2_events;
	if (!strcmp(name, "sse2"))
		return boots ? find_sse2_boots : find_sse2_events;
#endif
	if (!strcmp(name, "c"))
		return boots ? find_c_boots : find_c_events;
	return NULL;
}

taint__scan_find_fn taint__scan_finder(bool boots)
{
	taint__scan_find_fn fn = taint__scan_finder_named("avx2", boots);

	if (!fn)
		fn = taint__scan_finder_named("sse2", boots);
	return fn ? fn : taint__scan_finder_named("c", boots);
}
