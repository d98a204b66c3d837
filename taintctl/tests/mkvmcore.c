// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkvmcore.c - write a synthetic x86_64 ELF core (vmcore_fixture.h) for
 * tests/vmcore_test.sh: mkvmcore VARIANT FILE.
 *
 *   main        the fixture's events in a shuffled layout (the arrays
 *               reasons, ev, callers in that order; 9 slots, 3 reasons),
 *               next 12, dropped 5, phys_base 0x7a00000, KASLR 0x2c400000,
 *               kallsyms with absolute per-CPU symbols, the log across
 *               two segments
 *   linux       the same events in Linux 6.12's layout (35 slots of 56
 *               bytes, 19 callers, 17 reasons), phys_base -0x1000000,
 *               relative kallsyms, section header count (PN_XNUM), next
 *               35: unused slots, some read as p_memsz zeros
 *   nokallsyms  main without the kallsyms keys
 *   empty       main's layout, no event, nothing dropped
 *   stock       VMCOREINFO of a kernel without the series
 *   noinfo      no VMCOREINFO note
 *   arm64, elf32, bigendian, notcore: main with that ELF header
 *   inconsistent  taint_event's comm past its size in LAYOUT(taint_event)
 *   nophysbase  no NUMBER(phys_base)
 *   outside     SYMBOL(taint_events) where the dump has no memory
 *   corrupt     a published slot with origin 7
 *   detail      a kernel event whose detail is past taint_log.callers
 *   firstlayout VMCOREINFO of the series' first, unreleased layout (a
 *               caller or reason in each slot, no LAYOUT(taint_caller))
 *   kdump       a kdump-compressed header ("KDUMP   ")
 *   random      64 KiB of pseudo-random bytes (the same each time)
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmcore_fixture.h"

int main(int argc, char **argv)
{
	static const char *const inconsistent[] = {
		"LAYOUT(taint_event) comm:80[16]", NULL };
	static const char *const nophysbase[] = { "NUMBER(phys_base)", NULL };
	static const char *const outside[] = {
		"SYMBOL(taint_events)=ffffffffa0000000", NULL };
	struct fx_event corrupt[sizeof(fx_events) / sizeof(fx_events[0])];
	struct fx_spec s = fx_main;
	unsigned char *p;
	const char *v;
	size_t len;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mkvmcore VARIANT FILE\n");
		return 2;
	}
	v = argv[1];
	if (!strcmp(v, "random")) {
		uint64_t x = 0x2545f4914f6cdd1du;

		len = 65536;
		p = malloc(len);
		for (size_t i = 0; p && i < len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = (unsigned char)(x >> 24);
		}
		goto write;
	}
	if (!strcmp(v, "linux")) {
		s.layout = &fx_linux;
		s.phys_base = -0x1000000;
		s.relative = true;
		s.xnum = true;
		s.zero_tail = 0x100;	/* slots 11-15 */
		s.next = 35;
	} else if (!strcmp(v, "nokallsyms")) {
		s.syms = NULL;
	} else if (!strcmp(v, "empty")) {
		s.nev = 0;
		s.next = 0;
		s.dropped = 0;
	} else if (!strcmp(v, "stock")) {
		s.stock = true;
	} else if (!strcmp(v, "noinfo")) {
		s.no_vmcoreinfo = true;
	} else if (!strcmp(v, "inconsistent")) {
		s.edit = inconsistent;
	} else if (!strcmp(v, "nophysbase")) {
		s.edit = nophysbase;
	} else if (!strcmp(v, "outside")) {
		s.edit = outside;
	} else if (!strcmp(v, "corrupt")) {
		memcpy(corrupt, fx_events, sizeof(corrupt));
		corrupt[1].origin = 7;
		s.ev = corrupt;
	} else if (!strcmp(v, "detail")) {
		memcpy(corrupt, fx_events, sizeof(corrupt));
		corrupt[2].detail = 19;
		s.ev = corrupt;
	} else if (!strcmp(v, "firstlayout")) {
		s.edit = fx_first_layout;
	} else if (strcmp(v, "main") && strcmp(v, "arm64") &&
		   strcmp(v, "elf32") && strcmp(v, "bigendian") &&
		   strcmp(v, "notcore") && strcmp(v, "kdump")) {
		fprintf(stderr, "mkvmcore: unknown variant '%s'\n", v);
		return 2;
	}
	p = fx_build(&s, &len);
	if (!strcmp(v, "arm64"))
		fx_le(p + offsetof(Elf64_Ehdr, e_machine), EM_AARCH64, 2);
	if (!strcmp(v, "elf32"))
		p[EI_CLASS] = ELFCLASS32;
	if (!strcmp(v, "bigendian"))
		p[EI_DATA] = ELFDATA2MSB;
	if (!strcmp(v, "notcore"))
		fx_le(p + offsetof(Elf64_Ehdr, e_type), ET_EXEC, 2);
	if (!strcmp(v, "kdump"))
		memcpy(p, "KDUMP   ", 8);
write:
	f = fopen(argv[2], "wb");
	if (!p || !f || fwrite(p, 1, len, f) != len || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	free(p);
	return 0;
}
