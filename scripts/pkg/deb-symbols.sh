#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# deb-symbols.sh - debian/libtaint1.symbols from taintctl/lib/libtaint.sym
# (the ld version script): every global symbol of each version node, with
# the upstream version that brought the node (LIBTAINT_1.0: 1.0.0).
# Usage: scripts/pkg/deb-symbols.sh [SYMFILE] > debian/libtaint1.symbols
# scripts/pkg/deb-test.sh checks that the committed file is this output; the
# package build (dh_makeshlibs -- -c4) that the library exports exactly
# what the file lists. A node added to libtaint.sym ("LIBTAINT_1.1 {...}
# LIBTAINT_1.0;") needs its version below, or this script fails.
set -eu
sym=${1:-$(dirname "$0")/../../taintctl/lib/libtaint.sym}
# the upstream version each node first shipped in
node_version() {
	case $1 in
	LIBTAINT_1.0) echo 1.0.0 ;;
	*) echo "deb-symbols.sh: no upstream version for node $1 (add it here)" >&2
	   return 1 ;;
	esac
}
echo "libtaint.so.1 libtaint1 #MINVER#"
echo "* Build-Depends-Package: libtaint-dev"
# strip comments, then walk the nodes: NAME { global: a; b; local: *; } [DEP];
sed -e 's|/\*.*\*/||' -e '/\/\*/,/\*\//d' "$sym" |
awk '
/^[A-Za-z_][A-Za-z0-9_.]* *\{/ { node = $1; sub(/\{.*/, "", node); scope = "global"; print "N " node; next }
/^ *\}/ { node = ""; next }
/global:/ { scope = "global"; next }
/local:/ { scope = "local"; next }
node != "" && scope == "global" && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ {
	s = $1; sub(/;.*/, "", s); print "S " node " " s }
' | {
	nodes=0
	while read -r kind node name; do
		v=$(node_version "$node")
		if [ "$kind" = N ]; then
			nodes=$((nodes + 1))
			echo " $node@$node $v"
		else
			echo " $name@$node $v"
		fi
	done
	[ "$nodes" -gt 0 ] || { echo "deb-symbols.sh: no version node in $sym" >&2; exit 1; }
}
