#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pkg_test.sh - libtaint as a packaged library, TAP on stdout.
#
# Installs into a temporary DESTDIR (Debian layout: PREFIX=/usr, LIBDIR
# /usr/lib/<multiarch>), checks the files, symlinks, header, pkg-config
# file and completion there, builds tests/consumer.c with
# "pkg-config --cflags --libs libtaint" (PKG_CONFIG_PATH at the staged .pc,
# PKG_CONFIG_SYSROOT_DIR at DESTDIR) and runs it with LD_LIBRARY_PATH at the
# staged lib, links it statically too, checks that libtaint.so exports
# exactly the functions of taint.h under LIBTAINT_1.0, the SPDX lines, and
# that make uninstall leaves nothing.  Run from taintctl/ by make pkg-check
# (MAKE, CC and VERSION from the Makefile).

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
# B: the Makefile's build directory (B=build/clang for the clang build)
MAKE="${MAKE:-make} B=${B:-build}"
CC=${CC:-cc}
VERSION=${VERSION:?VERSION (from the Makefile) is not set}
. "$HERE/tap.sh"
tap_need pkg-config:pkg-config nm:binutils readelf:binutils
tap_init pkg
# t: the command's output in $T/log, its tail after a not ok
TAP_LOG=$T/log
tap_diag() { [ -s "$T/log" ] && sed 's/^/# /' "$T/log" | tail -8; }

MA=$($CC -print-multiarch 2>/dev/null)
LIBDIR=/usr/lib${MA:+/$MA}
S=$T/stage
L=$S$LIBDIR
SO=libtaint.so.$VERSION
SONAME=libtaint.so.${VERSION%%.*}

t "make install PREFIX=/usr LIBDIR=$LIBDIR DESTDIR=..." \
	$MAKE -C "$TOP" --no-print-directory install DESTDIR="$S" PREFIX=/usr LIBDIR="$LIBDIR"
t "$LIBDIR/$SO is a shared library, $SONAME -> $SO, libtaint.so -> $SONAME" sh -c "
	[ -f '$L/$SO' ] && [ ! -L '$L/$SO' ] &&
	[ \"\$(readlink '$L/$SONAME')\" = '$SO' ] &&
	[ \"\$(readlink '$L/libtaint.so')\" = '$SONAME' ]"
t "$LIBDIR/libtaint.a installed" test -f "$L/libtaint.a"
t "header at /usr/include/taint/taint.h, the same as lib/taint.h, no top-level taint.h" sh -c "
	cmp '$TOP/lib/taint.h' '$S/usr/include/taint/taint.h' && [ ! -e '$S/usr/include/taint.h' ]"
t "man page at /usr/share/man/man1/taintctl.1, .TH says usertaint $VERSION" sh -c "
	head -3 '$S/usr/share/man/man1/taintctl.1' | grep -q '^\.TH TAINTCTL 1 .* \"usertaint $VERSION\"'"
COMPDIR=$(pkg-config --define-variable=datadir=/usr/share --variable=completionsdir bash-completion 2>/dev/null)
COMPDIR=${COMPDIR:-/usr/share/bash-completion/completions}
t "bash completion at $COMPDIR/taintctl" cmp "$TOP/bash-completion/taintctl" "$S$COMPDIR/taintctl"
t "taintctl at /usr/bin/taintctl, linked with $SONAME, no RPATH/RUNPATH" sh -c "
	readelf -d '$S/usr/bin/taintctl' >'$T/dyn' &&
	grep -q 'NEEDED.*\\[$SONAME\\]' '$T/dyn' && ! grep -Eq 'RPATH|RUNPATH' '$T/dyn'"
t "staged taintctl runs with LD_LIBRARY_PATH at the staged lib" sh -c "
	LD_LIBRARY_PATH='$L' '$S/usr/bin/taintctl' decode 4609 | grep -q 'WARN' &&
	LD_LIBRARY_PATH='$L' '$S/usr/bin/taintctl' --version | grep -qx 'taintctl from usertaint $VERSION'"

t "libtaint.pc: version $VERSION, prefix /usr, libdir and includedir from it" sh -c "
	grep -qx 'Version: $VERSION' '$L/pkgconfig/libtaint.pc' &&
	grep -qx 'prefix=/usr' '$L/pkgconfig/libtaint.pc' &&
	grep -qx 'libdir=\${prefix}/lib${MA:+/$MA}' '$L/pkgconfig/libtaint.pc' &&
	grep -qx 'includedir=\${prefix}/include' '$L/pkgconfig/libtaint.pc'"

# a prefix of one's own: the installed taintctl finds its library by
# RUNPATH, with nothing in LD_LIBRARY_PATH (and no ldconfig run)
P=$T/pfx
t "make install PREFIX=\$T/pfx (no DESTDIR): taintctl's RUNPATH is \$T/pfx/lib" sh -c "
	$MAKE -C '$TOP' --no-print-directory install PREFIX='$P' LDCONFIG=false &&
	readelf -d '$P/bin/taintctl' | grep -E 'RUNPATH' >'$T/runpath' &&
	grep -q 'RUNPATH.*\\[$P/lib\\]' '$T/runpath'"
t "installed taintctl runs with an empty LD_LIBRARY_PATH, from /, with \$T/pfx/lib/$SONAME" sh -c "
	cd / && LD_LIBRARY_PATH= ldd '$P/bin/taintctl' | grep -q '$SONAME => $P/lib/$SONAME' &&
	LD_LIBRARY_PATH= '$P/bin/taintctl' --version | grep -qx 'taintctl from usertaint $VERSION' &&
	LD_LIBRARY_PATH= '$P/bin/taintctl' decode 4609 | grep -q 'WARN'"
t "make uninstall PREFIX=\$T/pfx leaves no file behind" sh -c "
	$MAKE -C '$TOP' --no-print-directory uninstall PREFIX='$P' &&
	[ -z \"\$(find '$P' ! -type d)\" ]"
t "PREFIX=/usr/local (in ld.so.conf): no RUNPATH; RPATH= (empty) for /opt: none either" sh -c "
	$MAKE -C '$TOP' --no-print-directory install DESTDIR='$T/loc' PREFIX=/usr/local &&
	! readelf -d '$T/loc/usr/local/bin/taintctl' | grep -Eq 'RPATH|RUNPATH' &&
	$MAKE -C '$TOP' --no-print-directory install DESTDIR='$T/norp' PREFIX=/opt/taint RPATH= &&
	! readelf -d '$T/norp/opt/taint/bin/taintctl' | grep -Eq 'RPATH|RUNPATH'"

# pkg-config, as a consumer sees it
# (outside /usr, so that no other package's -I/usr/include finds the header)
O=$T/opt
L=$O/opt/taint/lib
t "make install PREFIX=/opt/taint DESTDIR=...: libtaint.pc, the completion and taintctl's RUNPATH follow PREFIX" sh -c "
	$MAKE -C '$TOP' --no-print-directory install DESTDIR='$O' PREFIX=/opt/taint &&
	readelf -d '$O/opt/taint/bin/taintctl' | grep -q 'RUNPATH.*\\[/opt/taint/lib\\]' &&
	grep -qx 'prefix=/opt/taint' '$L/pkgconfig/libtaint.pc' &&
	test -f '$O/opt/taint/include/taint/taint.h' &&
	test -f '$O/opt/taint/share/bash-completion/completions/taintctl'"
export PKG_CONFIG_PATH="$L/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$O"
t "pkg-config --modversion libtaint: $VERSION" sh -c "[ \"\$(pkg-config --modversion libtaint)\" = '$VERSION' ]"
t "pkg-config --cflags --libs libtaint: the staged include and lib directories, -ltaint" sh -c "
	pkg-config --cflags --libs libtaint | tee '$T/flags' | grep -q -- '-I$O/opt/taint/include' &&
	grep -q -- '-L$L ' '$T/flags' && grep -q -- '-ltaint' '$T/flags' && ! grep -q -- '-lz' '$T/flags'"
t "pkg-config --static --libs libtaint adds zlib, liblzma, libzstd, liblz4, libbz2" sh -c "
	pkg-config --static --libs libtaint | grep -- '-lz ' | grep -- '-llzma' |
		grep -- '-lzstd' | grep -- '-llz4' | grep -q -- '-lbz2'"
# libsnappy is C++ and snappy.pc does not say so: libtaint.pc does
t "pkg-config --static --libs libtaint adds lzo2, snappy and the C++ runtime (-lstdc++)" sh -c "
	pkg-config --static --libs libtaint >'$T/static' &&
	grep -q -- '-llzo2' '$T/static' && grep -q -- '-lsnappy' '$T/static' &&
	grep -q -- '-lstdc++' '$T/static'"
t "consumer.c builds with pkg-config (#include <taint/taint.h>, -std=c99 -pedantic -Werror)" sh -c "
	$CC -std=c99 -pedantic -Wall -Wextra -Werror -o '$T/consumer' '$HERE/consumer.c' \$(pkg-config --cflags --libs libtaint)"
t "consumer needs $SONAME only (not libtaint.so, not $SO)" sh -c "
	readelf -d '$T/consumer' | grep NEEDED | grep taint >'$T/need' &&
	[ \"\$(wc -l <'$T/need')\" -eq 1 ] && grep -q '\\[$SONAME\\]' '$T/need'"
t "consumer runs against the staged lib: taint_version() $VERSION, 4609 = PWO" sh -c "
	LD_LIBRARY_PATH='$L' ldd '$T/consumer' | grep -q '$SONAME => $L/$SONAME' &&
	[ \"\$(LD_LIBRARY_PATH='$L' '$T/consumer' 4609)\" = 'libtaint $VERSION: 4609 = PWO' ]"
t "consumer links statically with libtaint.a (pkg-config --static) and runs" sh -c "
	$CC -o '$T/consumer-static' '$HERE/consumer.c' \$(pkg-config --cflags libtaint) \
		'$L/libtaint.a' \$(pkg-config --static --libs libtaint | sed 's/-ltaint//') &&
	! readelf -d '$T/consumer-static' | grep -q 'NEEDED.*taint' &&
	[ \"\$('$T/consumer-static' 0x200)\" = 'libtaint $VERSION: 0x200 = W' ]"
if command -v c++ >/dev/null 2>&1; then
	t "taint.h compiles as C++ (extern \"C\")" sh -c "
		echo '#include <taint/taint.h>' | c++ -fsyntax-only -Wall -Wextra -Werror \$(pkg-config --cflags libtaint) -x c++ -"
else
	ok "taint.h compiles as C++ # SKIP no c++"
fi

# the exported symbols: exactly the functions of taint.h, under LIBTAINT_1.0
LIB=$S$LIBDIR/$SO
$CC -E -P -std=c11 "$TOP/lib/taint.h" | grep -v '^[[:space:]]*typedef' |
	grep -oE '\btaint_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$T/header"
nm -D --defined-only "$LIB" | awk '$2 != "A" { print $3 }' | sed 's/@.*//' | sort -u >"$T/exported"
t "taint.h declares functions ($(wc -l <"$T/header") found)" test "$(wc -l <"$T/header")" -ge 30
comm -13 "$T/header" "$T/exported" >"$T/extra"
t "no symbol exported that taint.h does not declare (internal ones stay local)" sh -c "
	[ -s '$T/exported' ] && ! grep . '$T/extra'"
comm -23 "$T/header" "$T/exported" >"$T/missing"
t "every function of taint.h is exported" sh -c "! grep . '$T/missing'"
readelf --dyn-syms -W "$LIB" | awk '$7 != "UND" && $8 ~ /^taint_/' >"$T/dynsyms"
awk '$4 != "FUNC" || $5 != "GLOBAL" || $8 !~ /@@LIBTAINT_1\.0$/' "$T/dynsyms" >"$T/badsyms"
t "each export is a global function of version LIBTAINT_1.0" sh -c "[ -s '$T/dynsyms' ] && ! grep . '$T/badsyms'"
readelf -d "$LIB" >"$T/libdyn"
t "SONAME $SONAME, no TEXTREL" sh -c "grep -q 'SONAME.*\\[$SONAME\\]' '$T/libdyn' && ! grep -q TEXTREL '$T/libdyn'"

# licenses: the library LGPL, the rest GPL
for f in "$TOP"/lib/*; do
	head -3 "$f" | grep -q 'SPDX-License-Identifier: LGPL-2.1-or-later' || echo "$f"
done >"$T/nolgpl"
t "every lib/ file is LGPL-2.1-or-later (SPDX)" sh -c "! grep . '$T/nolgpl'"
for f in "$TOP"/cli/* "$TOP"/bash-completion/* "$TOP"/Makefile "$TOP"/taintctl.1; do
	head -3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later' || echo "$f"
done >"$T/nogpl"
t "cli/, the completion, Makefile and man page are GPL-2.0-or-later (SPDX)" sh -c "! grep . '$T/nogpl'"
# JSON output: one renderer per shape, all of them in cli/json_out.c, the
# only file that uses json-c
grep -l 'json-c/\|json_object' "$TOP"/cli/*.c | grep -v '/json_out\.c$' >"$T/json_elsewhere"
t "JSON is built in cli/json_out.c only (no other cli/ file uses json-c)" sh -c "! grep . '$T/json_elsewhere'"
t "COPYING.LGPL (LGPL-2.1) and COPYING (GPL-2) are there" sh -c "
	grep -q 'GNU LESSER GENERAL PUBLIC LICENSE' '$TOP/COPYING.LGPL' &&
	grep -q 'Version 2.1, February 1999' '$TOP/COPYING.LGPL' &&
	grep -q 'Version 2, June 1991' '$TOP/COPYING'"

# building needs scripts/build/deps.sh taintctl-build's packages only (make
# taintctl installs no test tool): every header the sources include comes
# from one of them, or from libc/the compiler (build-essential's)
DEPS=$TOP/../scripts/build/deps.sh
if [ -x "$DEPS" ] && command -v dpkg >/dev/null 2>&1; then
	"$DEPS" --list taintctl-build >"$T/build-pkgs"
	$CC -M -D_GNU_SOURCE -I"$TOP/lib" -I"$TOP/cli" $(pkg-config --cflags json-c 2>/dev/null) \
		"$TOP"/lib/*.c "$TOP"/cli/*.c 2>/dev/null | tr ' \\' '\n\n' | grep '^/' |
		sort -u | xargs dpkg -S 2>/dev/null | cut -d: -f1 | tr ', ' '\n\n' |
		grep . | sort -u >"$T/header-pkgs"
	grep -vxE 'libc6-dev|linux-libc-dev|lib(gcc|clang)-.*-dev|libclang-common-.*|gcc-.*' \
		"$T/header-pkgs" | grep -vxFf "$T/build-pkgs" >"$T/not-build"
	t "the sources' headers come from deps.sh taintctl-build's packages ($(wc -l <"$T/header-pkgs") packages)" \
		sh -c "grep -q libjson-c-dev '$T/header-pkgs' && ! grep . '$T/not-build'"
	t "deps.sh taintctl-build has no test tool (cmocka, jq, groff, ripgrep, prometheus, curl)" \
		sh -c "! grep -E 'cmocka|^jq|groff|ripgrep|prometheus|curl' '$T/build-pkgs'"
	t "make taintctl (top level) installs deps.sh taintctl-build only" sh -c "
		sed -n '/^taintctl:/,/^\$/p' '$TOP/../Makefile' | grep -q 'deps.sh taintctl-build' &&
		! sed -n '/^taintctl:/,/^\$/p' '$TOP/../Makefile' | grep -q 'deps.sh host'"
else
	ok "build dependencies # SKIP no scripts/build/deps.sh or no dpkg"
	ok "deps.sh taintctl-build # SKIP no scripts/build/deps.sh or no dpkg"
	ok "make taintctl # SKIP no scripts/build/deps.sh or no dpkg"
fi

t "make uninstall leaves no file behind" sh -c "
	$MAKE -C '$TOP' --no-print-directory uninstall DESTDIR='$S' PREFIX=/usr LIBDIR='$LIBDIR' &&
	[ -z \"\$(find '$S' ! -type d)\" ]"
# build/ has the /opt/taint .pc and taintctl now: back to the default ones
$MAKE -C "$TOP" --no-print-directory "${B:-build}/libtaint.pc" \
	"${B:-build}/inst/taintctl" >/dev/null 2>&1

tap_done
