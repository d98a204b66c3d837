// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkstatus.c - write a synthetic x86_64 ELF core of a stock kernel
 * (status_fixture.h) for tests/vmcore_status_test.sh: mkstatus VARIANT
 * FILE.
 *
 *   main        tainted_mask POWUE, modules ut_taint (OE), e1000 (none),
 *               nvidia (POE) and zz_big_page (bit 28, in a 2 MiB page);
 *               kallsyms with absolute per-CPU symbols (6.1, 6.12)
 *   place       the same, place-relative kallsyms (7.x), 5-level tables
 *   clean       two modules without taint, mask W
 *   nomodules   no `modules` symbol (CONFIG_MODULES=n), no BTF
 *   nokallsyms  no SYMBOL(kallsyms_*) in VMCOREINFO
 *   nobtf       no __start_BTF/__stop_BTF
 *   badbtf      a BTF blob whose magic is broken
 *   badtype     a BTF blob whose struct module runs past its types
 *   nomask      no tainted_mask in kallsyms
 *   nostruct    BTF without struct module
 *   liename     the names are not where BTF says
 *   loop        the module list loops
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status_fixture.h"

int main(int argc, char **argv)
{
	static const struct sx_module clean[] = {
		{ "e1000", 0 }, { "xfs", 0 },
	};
	struct sx_spec s = sx_main;
	const char *v;
	unsigned char *p;
	size_t len;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mkstatus VARIANT FILE\n");
		return 2;
	}
	v = argv[1];
	if (!strcmp(v, "place")) {
		s.form = SX_PLACE;
		s.l5 = true;
	} else if (!strcmp(v, "clean")) {
		s.mods = clean;
		s.nmods = 2;
		s.mask = 1u << 9;
	} else if (!strcmp(v, "nomodules")) {
		s.no_modules_sym = true;
		s.no_btf = true;
	} else if (!strcmp(v, "nokallsyms")) {
		s.no_kallsyms = true;
	} else if (!strcmp(v, "nobtf")) {
		s.no_btf = true;
	} else if (!strcmp(v, "badbtf")) {
		s.bad_btf = true;
	} else if (!strcmp(v, "badtype")) {
		s.bad_btf_type = true;
	} else if (!strcmp(v, "nomask")) {
		s.no_mask_sym = true;
	} else if (!strcmp(v, "nostruct")) {
		s.no_module_struct = true;
	} else if (!strcmp(v, "liename")) {
		s.lie_name = true;
	} else if (!strcmp(v, "loop")) {
		s.loop = true;
	} else if (strcmp(v, "main")) {
		fprintf(stderr, "mkstatus: unknown variant '%s'\n", v);
		return 2;
	}
	p = sx_build(&s, &len);
	f = fopen(argv[2], "wb");
	if (!p || !f || fwrite(p, 1, len, f) != len || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	free(p);
	return 0;
}
