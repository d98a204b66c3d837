#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# seed.sh OUT MKVMCORE [DISKDUMP_TEST [STATUS_TEST]] - the fuzz targets' seed inputs, written under
# OUT/<target>/ from what the tests already hold: the oops corpus (in
# pieces of at most 8 KiB, at line boundaries), the same compressed with
# gzip, xz, zstd, bzip2 and lz4, its "Tainted:" lines, flag lists and
# values as decode and check take them, its UTF-16 and UTF-32, taint_log
# lines, the dumps
# tests/mkvmcore writes and the makedumpfile-format ones that
# tests/test_vmcore_diskdump writes, and the stock-kernel dumps and
# kallsyms tables that tests/test_vmcore_status writes (status, kallsyms).
# make fuzz merges them into fuzz/corpus/.
set -eu
OUT=$1
MKVMCORE=$2
DISKDUMP_TEST=${3:-}
STATUS_TEST=${4:-}
HERE=$(cd "$(dirname "$0")" && pwd)
OOPS=$HERE/../tests/corpus/oops
mkdir -p "$OUT/scanner" "$OUT/decode" "$OUT/log" "$OUT/vmcore" "$OUT/status" \
	"$OUT/kallsyms"

# scanner: 2 mode bytes (see fuzz_scanner.c), then the stream
i=0
for f in "$OOPS"/*; do
	case $f in *.md|*.tsv) continue ;; esac
	head -c 8192 "$f" >"$OUT/tmp.piece"
	i=$((i + 1))
	{ printf '\000\020'; cat "$OUT/tmp.piece"; } >"$OUT/scanner/plain-$i"
	{ printf '\005\001'; cat "$OUT/tmp.piece"; } >"$OUT/scanner/lines-$i"
done
head -c 4096 "$OOPS/abrt-koops-tainted-spaces" >"$OUT/tmp.piece"
for z in "gzip -c" "xz -c" "zstd -q -c" "bzip2 -c" "lz4 -q -c" "lz4 -q -l -c" \
	 "xz --format=lzma -c"; do
	n=$(echo "$z" | tr -c 'a-z0-9' '_')
	{ printf '\000\020'; $z <"$OUT/tmp.piece"; } >"$OUT/scanner/z-$n" || :
done
# the text as Windows tools write it: UTF-16 (LE, BE, with a byte order
# mark), UTF-32 (refused); and mode bits 3-5, each stream also as UTF-16
head -c 2048 "$OOPS/abrt-koops-tainted-spaces" >"$OUT/tmp.piece"
for e in UTF-16LE UTF-16BE UTF-16 UTF-32; do
	{ printf '\000\020'; iconv -c -f UTF-8 -t $e <"$OUT/tmp.piece"; } >"$OUT/scanner/enc-$e" || :
done
{ printf '\010\003'; cat "$OUT/tmp.piece"; } >"$OUT/scanner/as-utf16le"
{ printf '\074\005'; cat "$OUT/tmp.piece"; } >"$OUT/scanner/as-utf16be-bom-lines"
rm -f "$OUT/tmp.piece"

# decode: Tainted: lines, flag lists, values
grep -h -a 'ainted' "$OOPS"/* | sed 's/^.*\([TN][a-z]* *[Tt]ainted\)/\1/' |
	sort -u | head -150 | split -l 1 - "$OUT/decode/line-"
for v in 0x1201 01201 4609 18446744073709551615 0x ' 512\n' PWO G \
	 'PROPRIETARY_MODULE,WARN' 'TAINT_DIE, O' 'P W,J' '[P]=PROPRIETARY_MODULE'; do
	printf "$v" >"$OUT/decode/v-$(printf '%s' "$v" | cksum | cut -d' ' -f1)"
done

# log: taint_log lines (docs/abi.md section 2)
cat >"$OUT/log/lines" <<'LOG'
ts=0.912000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm="insmod" module=my\x20mod
ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=- comm="swapper/0" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm="sh" reason="RTSJ physical memory access"
dropped=3
LOG
printf 'ts=5.000001 utc=- origin=user flags=U new=- pid=4194304 uid=4294967295 auid=- comm="a\\\\b\\"c\\x00d\\x7f\\xff" reason="say \\"hi\\""' >"$OUT/log/escapes"
printf 'dropped=18446744073709551615' >"$OUT/log/dropped"

# vmcore: the fixture dumps
for v in main linux nokallsyms empty stock; do
	"$MKVMCORE" "$v" "$OUT/vmcore/$v" >/dev/null
done
# and the same written as makedumpfile writes them, good and bad, by
# tests/test_vmcore_diskdump (its VMCORE_SEED_DIR): kdump-compressed
# (zlib, lzo, zstd, snappy, stored whole), flattened, the log's page
# filtered out, truncated, damaged pages, the wrong compression, snappy
# pages of another length, a huge bitmap
if [ -n "$DISKDUMP_TEST" ]; then
	VMCORE_SEED_DIR=$OUT/vmcore "$DISKDUMP_TEST" >"$OUT/diskdump.log" 2>&1 ||
		{ echo "seed.sh: $DISKDUMP_TEST failed (see $OUT/diskdump.log)" >&2; exit 1; }
	ls "$OUT/vmcore" | grep -q '^kdump-' ||
		{ echo "seed.sh: $DISKDUMP_TEST wrote no kdump- seed" >&2; exit 1; }
fi

# status: the stock-kernel dumps (ELF) of tests/test_vmcore_status, and
# those of test_vmcore_diskdump in makedumpfile's formats; kallsyms: the
# tables of each form
if [ -n "$STATUS_TEST" ]; then
	VMCORE_SEED_DIR=$OUT/status KALLSYMS_SEED_DIR=$OUT/kallsyms \
		"$STATUS_TEST" >"$OUT/status.log" 2>&1 ||
		{ echo "seed.sh: $STATUS_TEST failed (see $OUT/status.log)" >&2; exit 1; }
	cp "$OUT/vmcore"/kdump-status-* "$OUT/status/" 2>/dev/null || :
	ls "$OUT/kallsyms" | grep -q '^tables-' ||
		{ echo "seed.sh: $STATUS_TEST wrote no kallsyms seed" >&2; exit 1; }
fi
