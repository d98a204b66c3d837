// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_vmcore_status.c - taint_vmcore_read_status() on the synthetic ELF
 * cores of status_fixture.h: a stock kernel's dump, read through its
 * kallsyms (each of the table's forms: 6.1/6.12 base-relative with and
 * without absolute per-CPU symbols, 7.x place-relative, absolute
 * addresses), its page tables (4 and 5 levels, 4 KiB and 2 MiB pages)
 * and its BTF (made with libbpf), in layouts of struct module that only
 * BTF tells.  Then each bad dump with its fault and its words, every
 * truncation of the file, and deterministic mutations (under ASan and
 * UBSan): each read whole or refused with a fault and a reason.  The
 * kdump-compressed and flattened forms are test_vmcore_diskdump.c's.
 *
 * VMCORE_SEED_DIR=DIR: the dumps are also written there, seeds of the
 * status fuzz target; KALLSYMS_SEED_DIR=DIR: the kallsyms tables of each
 * form, seeds of the kallsyms target (fuzz/seed.sh).
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"
#include "status_fixture.h"

#define WHY 320
#define MUTATIONS 4000

static int fd = -1;

static int setup(void **state)
{
	(void)state;
	fd = memfd_create("status", 0);
	return fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	close(fd);
	return 0;
}

struct result {
	int ret, fault;
	uint64_t mask;
	struct taint_module *mods;
	size_t count;
	char why[WHY];
};

static void seed(const unsigned char *p, size_t len, const char *name)
{
	const char *dir = getenv("VMCORE_SEED_DIR");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/status-%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* the kallsyms target's input: a form byte, then the image's tables
 * (fuzz/fuzz_kallsyms.c), of a dump whose image is at 0xffffffff83000000 */
static void seed_kallsyms(const unsigned char *elf, enum sx_form form)
{
	const char *dir = getenv("KALLSYMS_SEED_DIR");
	static const unsigned char byte[] = { 0, 0, 1, 2 };
	const unsigned char *ph = elf + sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
	uint64_t off = 0;
	char path[512];
	FILE *f;

	if (!dir)
		return;
	for (int i = 7; i >= 0; i--)
		off = off << 8 | ph[offsetof(Elf64_Phdr, p_offset) + i];
	snprintf(path, sizeof(path), "%s/tables-%d", dir, (int)form);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(&byte[form], 1, 1, f), 1);
	assert_int_equal(fwrite(elf + off, 1, SX_DECOY + 0x100, f),
			 SX_DECOY + 0x100);
	assert_int_equal(fclose(f), 0);
}

static void read_bytes(const unsigned char *p, size_t len, struct result *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_true(pwrite(fd, p, len, 0) == (ssize_t)len);
	r->ret = taint_vmcore_read_status(fd, &r->mask, &r->mods, &r->count,
					  &r->fault, r->why, sizeof(r->why));
	if (r->ret) {
		assert_null(r->mods);
		assert_int_equal(r->count, 0);
		assert_int_equal(r->mask, 0);
	} else {
		assert_string_equal(r->why, "");
		assert_int_equal(r->fault, TAINT_VMCORE_OK);
	}
	assert_null(strchr(r->why, '\n'));
}

static void read_spec(const struct sx_spec *s, struct result *r,
		      const char *name)
{
	size_t len;
	unsigned char *p = sx_build(s, &len);

	seed(p, len, name);
	read_bytes(p, len, r);
	free(p);
}

/* sx_mods' modules with taint, sorted by name, as /sys/module showed them */
static void expect_main(const struct sx_spec *s, const char *what)
{
	struct result r;

	read_spec(s, &r, what);
	if (r.ret)
		fail_msg("%s: %d (fault %d): %s", what, r.ret, r.fault, r.why);
	assert_int_equal(r.mask, s->mask);
	assert_int_equal(r.count, 3);
	assert_string_equal(r.mods[0].name, "nvidia");
	assert_string_equal(r.mods[0].taint, "POE");
	assert_int_equal(r.mods[0].mask, 1u << 0 | 1u << 12 | 1u << 13);
	assert_string_equal(r.mods[1].name, "ut_taint");
	assert_string_equal(r.mods[1].taint, "OE");
	assert_int_equal(r.mods[1].mask, 1u << 12 | 1u << 13);
	/* bit 28: no letter known, shown as the kernel would not know it */
	assert_string_equal(r.mods[2].name, "zz_big_page");
	assert_string_equal(r.mods[2].taint, "?");
	assert_int_equal(r.mods[2].mask, 0);
	free(r.mods);
}

/* every form of the symbol table, 4 and 5 levels, KASLR and phys_base */
static void test_forms(void **state)
{
	static const char *const forms[] = { "relative", "percpu", "place",
					     "addresses" };

	(void)state;
	for (int f = SX_RELATIVE; f <= SX_ADDRESSES; f++) {
		struct sx_spec k = sx_main;
		size_t len;
		unsigned char *p;

		k.form = (enum sx_form)f;
		k.kaslr = 0x2000000;	/* the image at 0xffffffff83000000 */
		p = sx_build(&k, &len);
		seed_kallsyms(p, k.form);
		free(p);
		for (int l5 = 0; l5 < 2; l5++) {
			struct sx_spec s = sx_main;
			char what[64];

			s.form = (enum sx_form)f;
			s.l5 = l5;
			s.kaslr = 0x1e00000 + 0x200000 * (uint64_t)f;
			s.phys_base = l5 ? 0x7a00000 : -0x800000;
			snprintf(what, sizeof(what), "%s-l%d", forms[f],
				 l5 ? 5 : 4);
			expect_main(&s, what);
		}
	}
}

/* struct module laid out otherwise: only BTF says where the members are */
static void test_layouts(void **state)
{
	struct sx_spec s = sx_main;

	(void)state;
	s.list = 0x300;
	s.name = 0x10;
	s.name_len = 64;
	s.taints_at = 0x318 + 0x10;
	s.size = 0x400;
	expect_main(&s, "layout-b");
	s.list = 0x8;
	s.name = 0x3a0;
	s.name_len = 56;
	s.taints_at = 0x20;
	expect_main(&s, "layout-c");
}

/* a mask, no module with taint; no module list at all */
static void test_quiet(void **state)
{
	static const struct sx_module clean[] = {
		{ "e1000", 0 }, { "xfs", 0 },
	};
	struct sx_spec s = sx_main;
	struct result r;

	(void)state;
	s.mods = clean;
	s.nmods = 2;
	s.mask = 1u << 9;
	read_spec(&s, &r, "clean");
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.mask, 1u << 9);
	assert_int_equal(r.count, 0);
	assert_null(r.mods);
	s.nmods = 0;
	s.mask = 0;
	read_spec(&s, &r, "none-loaded");
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.count, 0);
	/* CONFIG_MODULES=n: no `modules`, so no BTF needed either */
	s = sx_main;
	s.no_modules_sym = true;
	s.no_btf = true;
	read_spec(&s, &r, "no-modules");
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.mask, sx_main.mask);
	assert_int_equal(r.count, 0);
}

struct bad {
	const char *name;
	void (*edit)(struct sx_spec *s);
	int fault;
	const char *words;
};

static void no_kallsyms(struct sx_spec *s) { s->no_kallsyms = true; }
static void no_btf(struct sx_spec *s) { s->no_btf = true; }
static void bad_btf(struct sx_spec *s) { s->bad_btf = true; }
static void no_mask(struct sx_spec *s) { s->no_mask_sym = true; }
static void no_struct(struct sx_spec *s) { s->no_module_struct = true; }
static void lie_name(struct sx_spec *s) { s->lie_name = true; }
static void unmapped(struct sx_spec *s) { s->unmapped = true; }
static void loop(struct sx_spec *s) { s->loop = true; }
static void stray(struct sx_spec *s) { s->stray_bit = true; }
static void no_page(struct sx_spec *s) { s->no_mod_page = true; }

/* each bad dump: its fault, and a reason naming what is missing */
static void test_bad(void **state)
{
	static const struct bad bad[] = {
		{ "no-kallsyms", no_kallsyms, TAINT_VMCORE_NO_KALLSYMS,
		  "VMCOREINFO has no SYMBOL(kallsyms_names)" },
		{ "no-btf", no_btf, TAINT_VMCORE_NO_BTF,
		  "no __start_BTF: a kernel built without CONFIG_DEBUG_INFO_BTF" },
		{ "bad-btf", bad_btf, TAINT_VMCORE_BAD_BTF,
		  "BTF (0x" },
		{ "no-mask", no_mask, TAINT_VMCORE_NO_SYMBOL,
		  "has no tainted_mask" },
		{ "no-struct", no_struct, TAINT_VMCORE_BAD_BTF,
		  "BTF has no struct module" },
		{ "lie-name", lie_name, TAINT_VMCORE_UNREADABLE,
		  "is not one: byte 0xee in its name" },
		{ "unmapped", unmapped, TAINT_VMCORE_UNREADABLE,
		  "is not mapped (its PTE entry is not present)" },
		{ "loop", loop, TAINT_VMCORE_UNREADABLE,
		  "does not come back to its head" },
		{ "stray-bit", stray, TAINT_VMCORE_UNREADABLE,
		  "taints 0x10000003000 has bits past" },
		{ "no-page", no_page, TAINT_VMCORE_UNREADABLE,
		  "is mapped but not in the dump" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sx_spec s = sx_main;
		struct result r;

		bad[i].edit(&s);
		read_spec(&s, &r, bad[i].name);
		if (r.ret != -EBADMSG || r.fault != bad[i].fault ||
		    !strstr(r.why, bad[i].words))
			fail_msg("%s: %d, fault %d, '%s'; expected -EBADMSG, fault %d, '%s'",
				 bad[i].name, r.ret, r.fault, r.why,
				 bad[i].fault, bad[i].words);
	}
}

/* the BTF's reason says what libbpf found */
static void test_bad_btf_words(void **state)
{
	struct sx_spec s = sx_main;
	struct result r;

	(void)state;
	s.bad_btf = true;
	read_spec(&s, &r, "bad-btf-words");
	assert_int_equal(r.fault, TAINT_VMCORE_BAD_BTF);
	assert_non_null(strstr(r.why, "does not parse"));
}

/* not a dump, and every truncation of one: refused, never a crash */
static void test_truncated(void **state)
{
	size_t len;
	unsigned char *p = sx_build(&sx_main, &len);
	struct result r;
	size_t n = 0;

	(void)state;
	read_bytes((const unsigned char *)"hello", 5, &r);
	assert_int_equal(r.ret, -EBADMSG);
	assert_int_equal(r.fault, TAINT_VMCORE_UNREADABLE);
	for (size_t cut = 0; cut < len; cut += 97, n++) {
		read_bytes(p, cut, &r);
		if (r.ret != -EBADMSG && r.ret != -ENOTSUP)
			fail_msg("cut at %zu of %zu: %d '%s'", cut, len, r.ret,
				 r.why);
		assert_int_not_equal(r.fault, TAINT_VMCORE_OK);
		assert_true(r.why[0]);
	}
	print_message("# %zu truncations of a %zu-byte dump refused\n", n, len);
	free(p);
}

/* deterministic mutations: read whole, or refused with a fault and words */
static void test_mutations(void **state)
{
	size_t len;
	unsigned char *p = sx_build(&sx_main, &len), *q = malloc(len);
	uint64_t x = 0x9e3779b97f4a7c15u;
	unsigned int read = 0, refused = 0;

	(void)state;
	assert_non_null(q);
	for (int i = 0; i < MUTATIONS; i++) {
		struct result r;
		int flips = 1 + i % 4;

		memcpy(q, p, len);
		while (flips--) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mostly the headers, the tables and the modules */
			q[(x >> 8) % len] ^= (unsigned char)(1u << (x & 7));
		}
		read_bytes(q, len, &r);
		if (!r.ret) {
			read++;
			free(r.mods);
			continue;
		}
		refused++;
		if ((r.ret != -EBADMSG && r.ret != -ENOTSUP &&
		     r.ret != -ENOENT) || r.fault == TAINT_VMCORE_OK ||
		    !r.why[0])
			fail_msg("mutation %d: %d, fault %d, '%s'", i, r.ret,
				 r.fault, r.why);
	}
	print_message("# %d mutations: %u read, %u refused with a reason\n",
		      MUTATIONS, read, refused);
	assert_true(refused > 0);
	free(p);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bad_btf_words),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests_name("vmcore_status", tests, setup,
					   teardown);
}
