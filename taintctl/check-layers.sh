#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-layers.sh [DIR] - are libtaint's files in layers?  Which lib/*.c
# uses a function (or data) that another lib/*.c defines, read from the
# symbols of their objects (nm: the undefined ones of each object, against
# the global ones the others define), and whether those uses make a circle.
# DIR is a taintctl directory (default: this script's) whose objects are
# built, B=build of make's (make first: an object older than its source is
# refused).  What a header's static inline function does (grow.h, chars.h)
# is no file's: it is not seen, nor does it need to be.
#
# Prints each use, "user.c -> definer.c: symbols", then either the layers
# (layer 0 uses no other file; each file is one layer above the highest
# file it uses) and exit 0, or the circle that tsort found and exit 1.
# Exit 2: no objects to read.
set -eu
export LC_ALL=C

dir=${1:-$(dirname "$0")}
cd "$dir"
B=${B:-build}
NM=${NM:-nm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

: >"$tmp/def"
: >"$tmp/use"
: >"$tmp/pairs"
for c in lib/*.c; do
	o=$B/${c%.c}.o
	f=${c#lib/}
	if [ ! -f "$o" ]; then
		echo "check-layers: no $dir/$o: run make first" >&2
		exit 2
	fi
	for n in "$c" lib/*.h; do
		if [ "$n" -nt "$o" ]; then
			echo "check-layers: $dir/$o is older than $n: run make first" >&2
			exit 2
		fi
	done
	# "ADDRESS TYPE NAME" of what it defines, "U NAME" of what it uses
	"$NM" -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print $3, f }' >>"$tmp/def"
	"$NM" -u "$o" | awk -v f="$f" '{ print $NF, f }' >>"$tmp/use"
	echo "$f $f" >>"$tmp/pairs"	# every file, also one that uses none
done

# user -> definer, with the symbols, one line per pair of files
awk 'NR == FNR { def[$1] = $2; next }
     ($1 in def) && def[$1] != $2 { print $2, def[$1], $1 }' \
	"$tmp/def" "$tmp/use" | sort -k1,1 -k2,2 -k3,3 |
awk '{ k = $1 " -> " $2; if (k != last) { if (last != "") print line;
	last = k; line = k ": " $3 } else line = line ", " $3 }
     END { if (last != "") print line }' >"$tmp/edges"
cat "$tmp/edges"
# tsort: "definer user", the definer first
awk '{ print $3, $1 }' "$tmp/edges" | tr -d ':' >>"$tmp/pairs"

if ! tsort <"$tmp/pairs" >"$tmp/order" 2>"$tmp/loop"; then
	# tsort names one file a line, each circle after a line of its own
	echo "FAIL: lib/ has a circle:"
	sed -e 's/^tsort: //' -e 's/^-: input contains a loop:$/ circle:/' -e 's/^[^ ]/   &/' "$tmp/loop"
	exit 1
fi
# layer of each file: one above the highest layer of the files it uses
awk 'NR == FNR { sub(":", "", $3); uses[$1] = uses[$1] " " $3; next }
     { n = split(uses[$1], u, " "); l = 0
       for (i = 1; i <= n; i++) if (layer[u[i]] + 1 > l) l = layer[u[i]] + 1
       layer[$1] = l; at[l] = at[l] " " $1; if (l > top) top = l }
     END { for (l = 0; l <= top; l++) print l, at[l] }' \
	"$tmp/edges" "$tmp/order" |
while read -r l files; do
	echo "layer $l:" $(printf '%s\n' $files | sort)
done
echo "ok: no circle among the files of lib/"
