#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/witness/crash-flat.py on made-up flattened dumps: small x86_64 ELF cores
# laid out as makedumpfile -F -E writes them (the program headers first
# as zeros, again filled in before the last data chunk), in N chunks.
# crash 8.0.2 sorts the chunks by offset, the filled-in copy just before
# the zeros (index 1 and 2, after the ELF header's chunk at offset 0), and
# binary-searches [0, N) for offset 0x40: the index it tries is N/2, N/4,
# ... (rounded down), and it lands on the zeros (index 2) when that chain
# meets 4 or 5 (then 2), on the filled-in copy when it meets 2 or 3 (then
# 1). So the file is refused when N's three leading bits are 100 or 101
# (N in [4*2^k, 6*2^k)); the expected verdicts below are that rule worked
# out by hand, not a run's output. makedumpfile -R (Debian's, a host
# dependency) checks that rechunk keeps the dump's bytes. TAP on stdout;
# the suite harness-crash-flat of scripts/test/suites. UT_CRASH_FLAT: another
# crash-flat.py (to see this test fail on a broken one).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
CF=${UT_CRASH_FLAT:-$ROOT/scripts/witness/crash-flat.py}
# shellcheck source=../../../taintctl/tests/tap.sh
. "$ROOT/taintctl/tests/tap.sh"
T=$(mktemp -d /tmp/ut-crash-flat.XXXXXX)
trap 'rm -rf "$T"' EXIT

# mkflat OUT N [--no-stale]: the made-up dump (N chunks; --no-stale: the
# program headers written once, filled in, N - 3 data pages): a NOTE, a
# PT_LOAD of the data pages and, as makedumpfile writes a segment whose
# pages were all filtered out, a PT_LOAD at file offset 0 of size 0
cat > "$T/mkflat.py" <<'EOF'
import struct, sys
out, n = sys.argv[1], int(sys.argv[2])
stale = "--no-stale" not in sys.argv
desc = b"OSRELEASE=6.12.0\nPAGESIZE=4096\n"
note = struct.pack("<III", 11, len(desc), 0) + b"VMCOREINFO\0\0" + \
    desc.ljust((len(desc) + 3) & ~3, b"\0")
hdr_end = 64 + 3 * 56 + len(note)
ndata = n - (4 if stale else 3)
data = bytes(range(256)) * 16 * ndata
ehdr = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack(
    "<HHIQQQIHHHHHH", 4, 62, 1, 0, 64, 0, 0, 64, 56, 3, 0, 0, 0)
phdrs = struct.pack("<IIQQQQQQ", 4, 0, 232, 0, 0, len(note), len(note), 4) + \
    struct.pack("<IIQQQQQQ", 1, 7, hdr_end, 0xffff888000000000, 0,
                len(data), len(data), 0) + \
    struct.pack("<IIQQQQQQ", 1, 7, 0, 0xffff888100000000, 1 << 32,
                0, 4096, 0)
f = open(out, "wb")
f.write(b"makedumpfile".ljust(16, b"\0") + struct.pack(">qq", 1, 1) + bytes(4064))
def chunk(off, b):
    f.write(struct.pack(">qq", off, len(b)) + b)
if stale:
    chunk(64, bytes(168))
chunk(0, ehdr)
chunk(232, note)
for i in range(ndata - 1):
    chunk(hdr_end + 4096 * i, data[4096 * i:4096 * (i + 1)])
chunk(64, phdrs)
chunk(hdr_end + 4096 * (ndata - 1), data[4096 * (ndata - 1):])
f.write(struct.pack(">qq", -1, 0))
EOF
mkflat() { python3 "$T/mkflat.py" "$@"; }
# field NAME FILE: NAME's value in crash-flat.py check's line
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2"; }

# N, the verdict and the copy crash reads (by the rule above, by hand)
cases='5 refused stale
6 opens last-written
7 opens last-written
8 refused stale
11 refused stale
12 opens last-written
16 refused stale
23 refused stale
24 opens last-written
767 refused stale
768 opens last-written'

while read -r nc verdict copy; do
	mkflat "$T/d$nc" "$nc"
	rc=0
	python3 "$CF" check "$T/d$nc" > "$T/c$nc" 2> "$T/c$nc.err" || rc=$?
	t "$nc chunks, program headers written twice: crash 8.0.2 reads the $copy copy, $verdict" \
		test "$rc:$(field chunks "$T/c$nc"):$(field crash-reads "$T/c$nc"):$(field verdict "$T/c$nc")" = "0:$nc:$copy:$verdict"
	# refused means crash sizes the ELF header as 0; opens: as the ELF
	# header, 3 program headers and the note (64 + 168 + 56), the empty
	# PT_LOAD's offset 0 left out
	want=288
	[ "$verdict" = opens ] || want=0
	t "$nc chunks: the header size crash computes is $want" \
		test "$(field header-size "$T/c$nc")" = "$want"
done <<< "$cases"

# written once: nothing stale to land on, whatever N
mkflat "$T/o8" 8 --no-stale
python3 "$CF" check "$T/o8" > "$T/o8.c" 2>&1
t "8 chunks, program headers written once: opens, nothing rewritten" \
	test "$(field rewritten "$T/o8.c"):$(field written "$T/o8.c"):$(field verdict "$T/o8.c")" = "none:1:opens"

# rechunk: the same bytes (makedumpfile -R's reassembly), N chunks
mkflat "$T/r" 8
makedumpfile -R "$T/r.whole" < "$T/r" > "$T/r.log" 2>&1
t "makedumpfile -R reassembles the made-up 8-chunk dump" test -s "$T/r.whole"
for spec in "12:--chunks 12" "6:--chunks 6" "7:--drop-stale"; do
	nc=${spec%%:*}
	read -ra opt <<< "${spec#*:}"
	rm -f "$T/r.$nc" "$T/r.$nc.whole"
	python3 "$CF" rechunk "$T/r" "$T/r.$nc" "${opt[@]}" > /dev/null 2>&1
	makedumpfile -R "$T/r.$nc.whole" < "$T/r.$nc" > /dev/null 2>&1
	python3 "$CF" check "$T/r.$nc" > "$T/r.$nc.c" 2>&1
	t "rechunk ${opt[*]}: $nc chunks, the same dump (makedumpfile -R), and crash reads it" \
		test "$(field chunks "$T/r.$nc.c"):$(field verdict "$T/r.$nc.c"):$(cmp -s "$T/r.whole" "$T/r.$nc.whole" && echo same)" = "$nc:opens:same"
done
# ... and back into a refused count: the count alone decides
python3 "$CF" rechunk "$T/r.12" "$T/r.16" --chunks 16 > /dev/null 2>&1
python3 "$CF" check "$T/r.16" > "$T/r.16.c" 2>&1
t "rechunk --chunks 16 of the 12-chunk copy: refused again" \
	test "$(field verdict "$T/r.16.c")" = refused

# not a flattened ELF dump: exit 2, naming the file
printf 'KDUMP   ' > "$T/notflat"
rc=0
python3 "$CF" check "$T/notflat" > /dev/null 2> "$T/notflat.err" || rc=$?
t "check of a file that is not flattened: exit 2, the file named" \
	test "$rc:$(grep -c "$T/notflat: not makedumpfile's flattened format" "$T/notflat.err")" = "2:1"
head -c 5000 "$T/d8" > "$T/trunc"
rc=0
python3 "$CF" check "$T/trunc" > /dev/null 2> "$T/trunc.err" || rc=$?
t "check of a truncated flattened file: exit 2, truncated" \
	test "$rc:$(grep -c 'truncated' "$T/trunc.err")" = "2:1"
rc=0
python3 "$CF" rechunk "$T/d8" "$T/x" --chunks 1 > /dev/null 2> "$T/x.err" || rc=$?
t "rechunk to fewer chunks than it can merge: exit 2, says so" \
	test "$rc:$(grep -c 'could not reach 1 chunks' "$T/x.err")" = "2:1"
tap_done
